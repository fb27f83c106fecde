/* reservoir oracle — stateless reference decoders (CODES.md §5.1).
 *
 * Every function is a pure function of (view, position, parameter): it returns
 * the status, the value and the new position exactly as CODES.md §2-§4 and
 * §6.3 define them. Written for obviousness (bit at a time), sharing no code
 * with codec/ beyond the public status enum and the rsv_view type. They obey
 * the memory-access rules of CODES.md §1.2: only bytes holding view bits at
 * positions >= p are ever loaded, and an empty view is never dereferenced. */
#ifndef RESERVOIR_ORACLE_H
#define RESERVOIR_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#include "reservoir/status.h"
#include "reservoir/view.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rsv_oracle_result {
    rsv_status status; /* RSV_OK or the error of CODES.md §6 */
    uint64_t value;    /* decoded value on success, 0 on failure */
    uint64_t pos;      /* position after the operation (CODES.md §6.3 on failure) */
} rsv_oracle_result;

/* p must satisfy p <= v.len; otherwise the result is RSV_ERR_INVALID_ARGUMENT
 * with pos = p. Parameters are u64 so that invalid ones (w > 64, k > 63, m = 0)
 * can be expressed and must be rejected exactly as the spec says. */
rsv_oracle_result rsv_oracle_read(rsv_view v, uint64_t p, uint64_t w);
rsv_oracle_result rsv_oracle_read_eg(rsv_view v, uint64_t p, uint64_t k);
rsv_oracle_result rsv_oracle_read_golomb(rsv_view v, uint64_t p, uint64_t m);
rsv_oracle_result rsv_oracle_skip(rsv_view v, uint64_t p, uint64_t n);
/* take: on success *sub = (v.data, v.off + p, n); untouched on failure. */
rsv_oracle_result rsv_oracle_take(rsv_view v, uint64_t p, uint64_t n, rsv_view *sub);

/* Batch forms: decode up to `count` values into out[0..], stopping at the first
 * failure. *done = number of values decoded and stored; the result's pos is
 * where the single-value decoder leaves the reader (after the failure, per
 * §6.3), status is RSV_OK or the first failure; value is unused (0). */
rsv_oracle_result rsv_oracle_read_n(rsv_view v, uint64_t p, uint64_t w,
                                    uint64_t *out, size_t count, size_t *done);
rsv_oracle_result rsv_oracle_read_eg_n(rsv_view v, uint64_t p, uint64_t k,
                                       uint64_t *out, size_t count, size_t *done);
rsv_oracle_result rsv_oracle_read_golomb_n(rsv_view v, uint64_t p, uint64_t m,
                                           uint64_t *out, size_t count, size_t *done);

/* Reference encoders (CODES.md §2, §3.1, §4.1) into a '0'/'1' character string.
 * They write at most `cap` characters plus a NUL terminator and set *nbits to
 * the code length. Errors: RSV_ERR_WIDTH, RSV_ERR_VALUE_TOO_WIDE,
 * RSV_ERR_BAD_ORDER, RSV_ERR_BAD_MODULUS as the writer rules say;
 * RSV_ERR_TOO_LARGE when the code needs more than `cap` characters (then
 * *nbits still holds the true length if it fits in u64, else UINT64_MAX). */
rsv_status rsv_oracle_encode_fixed(uint64_t v, uint64_t w, char *bits, size_t cap, uint64_t *nbits);
rsv_status rsv_oracle_encode_eg(uint64_t v, uint64_t k, char *bits, size_t cap, uint64_t *nbits);
rsv_status rsv_oracle_encode_golomb(uint64_t v, uint64_t m, char *bits, size_t cap, uint64_t *nbits);

/* Code lengths by the spec's formulas: EG: 2*bitlen(q+1) - 1 + k (<= 129);
 * Golomb: q + 1 + (w - 1 or w), RSV_ERR_TOO_LARGE if it overflows u64. */
rsv_status rsv_oracle_eg_length(uint64_t v, uint64_t k, uint64_t *nbits);
rsv_status rsv_oracle_golomb_length(uint64_t v, uint64_t m, uint64_t *nbits);

#ifdef __cplusplus
}
#endif
#endif
