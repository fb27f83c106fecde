/* rsv — mix(), the SplitMix64 output finalizer applied to its argument
 * (WORKLOADS.md §1): the only randomness of the benchmark fixtures and count
 * cases. mix(1) = 0x5692161D100B05E5. */
#ifndef RSV_MIX_H
#define RSV_MIX_H

#include <stdint.h>

#include "../../tests/support/splitmix64.h" /* the project's one SplitMix64 */

static inline uint64_t cli_mix(uint64_t x) { return rsv_mix64(x); }

#endif
