/* Which decoder this executable times. The harness sources are compiled twice:
 *   -DRSV_BENCH_SIDE=candidate  the reservoir reader (codec/include/reservoir)
 *   -DRSV_BENCH_SIDE=baseline   the stateless oracle decoders (the "previous
 *                               reader"), one call per field
 * Everything outside the timed bodies (fixture generation, encoding) is the
 * same code on both sides, so both must print identical checksums. */
#ifndef RSV_BENCH_SIDE_H
#define RSV_BENCH_SIDE_H

#define RSV_BENCH_SIDE_ID_candidate 1
#define RSV_BENCH_SIDE_ID_baseline 2
#define RSV_BENCH_CAT_(a, b) a##b
#define RSV_BENCH_CAT(a, b) RSV_BENCH_CAT_(a, b)
#define RSV_BENCH_STR_(a) #a
#define RSV_BENCH_STR(a) RSV_BENCH_STR_(a)

#ifndef RSV_BENCH_SIDE
#error "compile with -DRSV_BENCH_SIDE=candidate or -DRSV_BENCH_SIDE=baseline"
#endif

#if RSV_BENCH_CAT(RSV_BENCH_SIDE_ID_, RSV_BENCH_SIDE) == RSV_BENCH_SIDE_ID_candidate
#define RSV_BENCH_CANDIDATE 1
#elif RSV_BENCH_CAT(RSV_BENCH_SIDE_ID_, RSV_BENCH_SIDE) == RSV_BENCH_SIDE_ID_baseline
#define RSV_BENCH_CANDIDATE 0
#else
#error "RSV_BENCH_SIDE must be candidate or baseline"
#endif

#define RSV_BENCH_SIDE_NAME RSV_BENCH_STR(RSV_BENCH_SIDE)

#endif
