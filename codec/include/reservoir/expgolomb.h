/* reservoir — exponential-Golomb codes (CODES.md §3).
 *
 * EG_k(v) for order k = 0..63: with q = floor(v / 2^k), bitlen(q + 1) - 1
 * zeros, q + 1 in bitlen(q + 1) bits, then the k low bits of v. The encoder
 * is rsv_put_eg (writer.h), the decoders rsv_read_eg, rsv_read_eg0 and
 * rsv_read_eg_n (reader.h). */
#ifndef RESERVOIR_EXPGOLOMB_H
#define RESERVOIR_EXPGOLOMB_H

#include <stdint.h>

#include "reservoir/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* EG_k code length 2*bitlen(q+1) - 1 + k (at most 129); 0 for k > 63. */
RSV_API unsigned rsv_eg_length(uint64_t v, unsigned k);

#ifdef __cplusplus
}
#endif
#endif
