/* reservoir — bit views (CODES.md §1.1).
 *
 * A view is (data, off, len): bit i of the view is bit (7 - (off+i) mod 8) of
 * byte data[(off+i) / 8], i.e. MSB-first. Views may start and end inside a
 * byte and `off` may exceed 7. An empty view (len == 0) may carry a NULL or
 * dangling pointer: nothing in reservoir dereferences it. */
#ifndef RESERVOIR_VIEW_H
#define RESERVOIR_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "reservoir/export.h"
#include "reservoir/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rsv_view {
    const uint8_t *data; /* byte 0 of the addressing base (not re-based by take) */
    uint64_t off;        /* bit offset of view bit 0 from data[0]'s MSB */
    uint64_t len;        /* bits in the view; off + len <= 2^64 - 1 */
} rsv_view;

/* Unchecked constructor: the caller guarantees off + len does not overflow and
 * that the bytes (off / 8) ... ((off + len - 1) / 8) are readable. */
static inline rsv_view rsv_view_make(const void *data, uint64_t off, uint64_t len)
{
    rsv_view v;
    v.data = (const uint8_t *)data;
    v.off = off;
    v.len = len;
    return v;
}

/* Checked constructor (CODES.md §1.1): RSV_ERR_VIEW_RANGE when
 * off + len > 8 * nbytes (evaluated without overflow); RSV_ERR_INVALID_ARGUMENT
 * when out is NULL, or bytes is NULL with nbytes > 0. *out is written only on
 * success. */
RSV_API rsv_status rsv_view_from_bytes(const void *bytes, size_t nbytes, uint64_t off,
                                       uint64_t len, rsv_view *out);

/* Two views are identical when data, off and len are all equal (CODES.md §1.1). */
static inline int rsv_view_identical(rsv_view a, rsv_view b)
{
    return a.data == b.data && a.off == b.off && a.len == b.len;
}

/* Bit-equality: same length and the same bits. Loads only view bytes. */
RSV_API int rsv_view_bit_equal(rsv_view a, rsv_view b);

#ifdef __cplusplus
}
#endif
#endif
