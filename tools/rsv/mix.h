/* rsv — mix(), the SplitMix64 output finalizer applied to its argument
 * (WORKLOADS.md §1): the only randomness of the benchmark fixtures and count
 * cases. mix(1) = 0x5692161D100B05E5. */
#ifndef RSV_MIX_H
#define RSV_MIX_H

#include <stdint.h>

static inline uint64_t cli_mix(uint64_t x)
{
    x = (x ^ (x >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94D049BB133111EB);
    return x ^ (x >> 31);
}

#endif
