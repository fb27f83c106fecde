/* SplitMix64, the project's one PRNG, header-only so that any component can
 * use it without linking the test library: the tests and drivers (rsv_rng),
 * the fuzz seed generators and mutator, and the benchmark and CLI fixtures
 * (rsv_mix64, the output finalizer alone: WORKLOADS.md §1's mix()). */
#ifndef RSV_SPLITMIX64_H
#define RSV_SPLITMIX64_H

#include <stdint.h>

/* The SplitMix64 output finalizer. rsv_mix64(1) = 0x5692161D100B05E5. */
static inline uint64_t rsv_mix64(uint64_t x)
{
    x = (x ^ (x >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94D049BB133111EB);
    return x ^ (x >> 31);
}

/* The generator: state += golden gamma, output = finalizer(state). Tiny,
 * seedable, good enough for test data. */
typedef struct rsv_rng { uint64_t s; } rsv_rng;
static inline uint64_t rsv_rng_next(rsv_rng *r)
{
    return rsv_mix64(r->s += UINT64_C(0x9E3779B97F4A7C15));
}
/* Uniform in [0, n) for n > 0 (slight bias is fine for tests). */
static inline uint64_t rsv_rng_below(rsv_rng *r, uint64_t n) { return n ? rsv_rng_next(r) % n : 0; }

#endif
