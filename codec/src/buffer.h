/* Private: the reusable buffers of cursors and record readers. They grow
 * geometrically and are kept across records, so a warm reader allocates
 * nothing per record (no hidden allocation in decode paths). */
#ifndef RSV_BUFFER_H
#define RSV_BUFFER_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reservoir/record.h"

#include "bits_fast.h"

/* Make *p hold at least `need` bytes (contents kept). */
static inline rsv_status rsv__grow_bytes(uint8_t **p, size_t *cap, uint64_t need)
{
    if (need <= *cap) return RSV_OK;
    if (need > SIZE_MAX / 2) return RSV_ERR_NOMEM;
    size_t ncap = *cap < 64 ? 64 : *cap;
    while (ncap < need) ncap *= 2;
    uint8_t *q = (uint8_t *)realloc(*p, ncap);
    if (!q) return RSV_ERR_NOMEM;
    /* The word stores leave unspecified bytes past the content and the word
     * compares read them masked: start them defined (MSan, valgrind). */
    memset(q + *cap, 0, ncap - *cap);
    *p = q;
    *cap = ncap;
    return RSV_OK;
}

/* A present value's bytes: borrowed from the file when byte-aligned, else
 * copied into the reader's buffer with word loads bounded by the stream's
 * end byte `pend` (bits_fast.h). *data stays NULL for tombstones and empty
 * values. */
static inline rsv_status rsv__value_bytes(const rsv_value_span *v, uint64_t pend, uint8_t **buf, size_t *cap,
                                          const uint8_t **data)
{
    *data = NULL;
    if (v->kind != RSV_VALUE_PRESENT || v->len == 0) return RSV_OK;
    if ((v->bytes.off & 7) == 0) { /* rsv_value_span_borrow, inline */
        *data = v->bytes.data + (v->bytes.off >> 3);
        return RSV_OK;
    }
    rsv_status st = rsv__grow_bytes(buf, cap, v->len + RSV__STORE_SLACK);
    if (st) return st;
    rsv__copy_bytes(*buf, v->bytes.data, v->bytes.off, v->len, pend);
    *data = *buf;
    return RSV_OK;
}

#endif
