/* Monotonic clock, compiler barrier and medians for the timing protocol
 * (WORKLOADS.md §6). */
#ifndef RSV_BENCH_TIMING_H
#define RSV_BENCH_TIMING_H

#include <stddef.h>
#include <stdint.h>

/* Keeps the compiler from moving memory accesses of one body run across the
 * next or across a clock read; costs no instruction. */
#define RSV_BENCH_BARRIER() __asm__ __volatile__("" ::: "memory")

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t rsv_bench_now_ns(void);

/* Median of n > 0 doubles; sorts v in place. Even n: mean of the middle two. */
double rsv_bench_median(double *v, size_t n);

#endif
