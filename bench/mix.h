/* mix(): WORKLOADS.md §1, from the shared generator library (tools/workloads).
 * Every fixture value derives from it, so both benchmark sides generate
 * bit-identical inputs. */
#ifndef RSV_BENCH_MIX_H
#define RSV_BENCH_MIX_H

#include <stdint.h>

#include "workloads.h"

static inline uint64_t rsv_bench_mix(uint64_t x) { return rsv_wl_mix(x); }

/* The sanity values of WORKLOADS.md §1; the harness refuses to run otherwise. */
static inline int rsv_bench_mix_selftest(void) { return rsv_wl_mix_selftest(); }

#endif
