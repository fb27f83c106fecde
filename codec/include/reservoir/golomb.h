/* reservoir — per-modulus Golomb constants (CODES.md §4).
 *
 * Computing w = bitlen(m-1), the truncated-binary cutoff and the overflow
 * bound L = floor(MAX/m) costs a division; a reader or writer does it once
 * per modulus and keeps this small struct. */
#ifndef RESERVOIR_GOLOMB_H
#define RESERVOIR_GOLOMB_H

#include <stdint.h>

#include "reservoir/export.h"
#include "reservoir/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rsv_golomb {
    uint64_t m;      /* modulus; 0 marks an invalid struct (RSV_ERR_BAD_MODULUS) */
    uint64_t cutoff; /* (2^w - m) mod 2^64 */
    uint64_t mask;   /* 2^w - 1 (all ones for w = 64) */
    uint64_t L;      /* floor(MAX / m): the largest quotient that cannot overflow */
    uint64_t longcut; /* 2^63 + cutoff * 2^(64-w) for 1 <= w <= 63 (the marker-aligned
                       * window is long iff >=); 0 for w = 0; 2^63 for w = 64, where
                       * no code is short enough for the inline paths */
    unsigned w;      /* bitlen(m - 1), 0..64 */
    unsigned qfast;  /* min(L, 64): quotients below it take the inline path */
} rsv_golomb;

/* Fill *g for modulus m. m = 0 stores an invalid struct, every field 0 (every
 * use of it fails with RSV_ERR_BAD_MODULUS), and returns RSV_ERR_BAD_MODULUS. */
RSV_API rsv_status rsv_golomb_init(rsv_golomb *g, uint64_t m);

/* Code length q + 1 + (w-1 or w) of value v, RSV_ERR_TOO_LARGE if it does not
 * fit in u64, RSV_ERR_BAD_MODULUS for an invalid struct. */
RSV_API rsv_status rsv_golomb_length(const rsv_golomb *g, uint64_t v, uint64_t *nbits);

#ifdef __cplusplus
}
#endif
#endif
