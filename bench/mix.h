/* mix(): the SplitMix64 output finalizer applied to its argument, no state and
 * no increment (WORKLOADS.md §1). Every fixture value derives from it, so both
 * benchmark sides generate bit-identical inputs. */
#ifndef RSV_BENCH_MIX_H
#define RSV_BENCH_MIX_H

#include <stdint.h>

#include "../tests/support/splitmix64.h" /* the project's one SplitMix64 */

static inline uint64_t rsv_bench_mix(uint64_t x) { return rsv_mix64(x); }

/* The sanity values of WORKLOADS.md §1; the harness refuses to run otherwise. */
static inline int rsv_bench_mix_selftest(void)
{
    return rsv_bench_mix(0) == 0 && rsv_bench_mix(1) == UINT64_C(0x5692161D100B05E5) &&
           rsv_bench_mix(2) == UINT64_C(0xDBD238973A2B148A) &&
           rsv_bench_mix(0x12345678) == UINT64_C(0x99A584650FAE6A61);
}

#endif
