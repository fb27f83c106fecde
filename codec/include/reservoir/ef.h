/* reservoir — Elias–Fano block-offset index (KV03.md §4, sections 1–4).
 *
 * Entries r_0 <= ... <= r_{n-1} = U. Low fields of L bits and the high bit
 * array are little-endian u64 word arrays (bit p = bit p%8, LSB-first, of
 * byte p/8), one 16-byte sample per 256 entries, and the explicit high
 * positions of "sparse" groups. The four sections have lengths that are
 * multiples of 8, so in a KV03 body they are contiguous: the builder emits
 * low ‖ high ‖ samples ‖ sparse into one caller buffer. */
#ifndef RESERVOIR_EF_H
#define RESERVOIR_EF_H

#include <stdint.h>

#include "reservoir/export.h"
#include "reservoir/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rsv_ef_layout {
    uint64_t n;             /* entries (>= 1) */
    uint64_t U;             /* universe = last entry */
    uint64_t H;             /* high bits: (U >> L) + n */
    unsigned L;             /* low width: bitlen(floor(U/n)) - 1, or 0 */
    uint64_t low_bytes;     /* 8 * ceil(n*L / 64) */
    uint64_t high_bytes;    /* 8 * ceil(H / 64) */
    uint64_t samples_bytes; /* 16 * ceil(n / 256) */
    uint64_t sparse_bytes;  /* 8 * sparse entries (only known from the data) */
} rsv_ef_layout;

/* Canonical L and the low/high/samples sizes for (U, n); sparse_bytes = 0.
 * RSV_ERR_EF_SHAPE when n = 0 or n*L or (U >> L) + n overflows. */
RSV_API rsv_status rsv_ef_shape(uint64_t U, uint64_t n, rsv_ef_layout *lay);

/* Layout of the EF of vals[0..n): RSV_ERR_EF_NONMONOTONE if some
 * vals[i+1] < vals[i]; RSV_ERR_INVALID_ARGUMENT for n = 0. */
RSV_API rsv_status rsv_ef_plan(const uint64_t *vals, uint64_t n, rsv_ef_layout *lay);

/* Write low ‖ high ‖ samples ‖ sparse (the sum of the four sizes in *lay,
 * from rsv_ef_plan on the same vals) to out. */
RSV_API void rsv_ef_encode(const uint64_t *vals, const rsv_ef_layout *lay, uint8_t *out);

/* A read-only EF over borrowed sections (sizes already validated against
 * rsv_ef_shape by the caller, e.g. KV03 open). Construction loads nothing. */
typedef struct rsv_ef {
    const uint8_t *low, *high, *samples, *sparse;
    uint64_t n, U, H;
    uint64_t high_words; /* high section bytes / 8 */
    uint64_t nsparse;    /* sparse section bytes / 8 */
    unsigned L;
} rsv_ef;

RSV_API void rsv_ef_init(rsv_ef *ef, const rsv_ef_layout *lay, const uint8_t *low, const uint8_t *high,
                         const uint8_t *samples, const uint8_t *sparse, uint64_t sparse_bytes);

/* select(i) = r_i (§4): RSV_ERR_EF_ORDINAL for i >= n, RSV_ERR_EF_CORRUPT for
 * every inconsistency listed in §4. Touches at most one sample, one sparse
 * entry or up to 65 high words, and one or two low words. */
RSV_API rsv_status rsv_ef_select(const rsv_ef *ef, uint64_t i, uint64_t *out);

#ifdef __cplusplus
}
#endif
#endif
