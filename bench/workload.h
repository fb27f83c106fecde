/* The workload interface between the harness (harness.c) and the workload
 * modules (workloads_*.c).
 *
 * A module groups workloads that share untimed setup (the four count cases
 * each build their own buffer; a KV03 fixture will be generated once and
 * serve its frames/cursor/records/merge workloads). The harness opens a module
 * only when one of its workloads is selected, prepares one workload at a time
 * (untimed), runs the timing protocol on its body and tears it down.
 *
 * Adding workloads (e.g. KV03, WORKLOADS.md §4-§5) = one new workloads_<x>.c
 * exporting an rsv_bench_module, listed in harness.c's module table. */
#ifndef RSV_BENCH_WORKLOAD_H
#define RSV_BENCH_WORKLOAD_H

#include <stdint.h>

typedef struct rsv_bench_params {
    const char *dir;   /* DIR: receives fixture files */
    uint64_t records;  /* R >= 16 */
    uint64_t values;   /* V = 8R (count cases) */
    unsigned trials;   /* T >= 1 timed trials after one warmup */
    unsigned loops;    /* body runs per trial */
} rsv_bench_params;

/* A prepared workload: the harness calls body(state) (reference run, then
 * trials × loops times) and finally teardown(state). body returns the
 * checksum of one run and must abort (rsv_bench_fail) on any decode error. */
typedef struct rsv_bench_workload {
    uint64_t items;     /* per body run (the ns_per_item denominator) */
    uint64_t bits;      /* reported `bits` column */
    void *state;
    uint64_t (*body)(void *state);
    void (*teardown)(void *state);
} rsv_bench_workload;

enum {
    RSV_BENCH_NORMATIVE = 0, /* part of WORKLOADS.md §5: always selected */
    RSV_BENCH_BATCH = 1,     /* a /batch variant: only with --batch */
    RSV_BENCH_EXTRA = 2,     /* not in WORKLOADS.md (crc32c, scan, N-way merges): only with --extra */
    RSV_BENCH_MULTICODE = 3, /* the non-normative multi-code fixture (format v2): only with
                                --multicode, candidate side only */
    RSV_BENCH_KIND_MASK = 3,
    /* Flag OR'ed into kind: heap allocations inside the timed loop are
     * counted and reported but do not fail the zero-allocation check
     * (merges, which build an output; scans, see docs/performance.md). */
    RSV_BENCH_ALLOCS_REPORTED = 4,
};

typedef struct rsv_bench_spec {
    const char *name;      /* CSV workload name, e.g. "counts/eg3/batch" */
    unsigned kind;         /* RSV_BENCH_NORMATIVE / _BATCH / _EXTRA, | RSV_BENCH_ALLOCS_REPORTED */
    unsigned loops_div;    /* 1; 2 for merges (loops = max(1, loops div 2)) */
    const void *arg;       /* module-specific case description */
    /* Untimed: build inputs, verify them, fill *w. Nonzero = setup failure. */
    int (*prepare)(const rsv_bench_params *p, void *module_state, const void *arg,
                   rsv_bench_workload *w);
} rsv_bench_spec;

typedef struct rsv_bench_module {
    const char *name;
    const rsv_bench_spec *specs;
    unsigned nspecs;
    /* Optional (NULL): shared untimed setup before the first selected spec
     * and cleanup after the module's last one. */
    int (*open)(const rsv_bench_params *p, void **module_state);
    void (*close)(void *module_state);
} rsv_bench_module;

extern const rsv_bench_module rsv_bench_counts_module;
extern const rsv_bench_module rsv_bench_crc32c_module;
extern const rsv_bench_module rsv_bench_kv03_module;

/* Print "rsv_bench: <message>" to stderr and abort (a wrong decode, a
 * checksum mismatch or a heap allocation inside a timed loop is a bug, never
 * a data point). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noreturn, format(printf, 1, 2)))
#endif
void rsv_bench_fail(const char *fmt, ...);

/* Timed bodies have external, stable names so that `bench/run --callgrind`
 * can select them with --toggle-collect=rsv_bench_body_*. */
uint64_t rsv_bench_body_counts(void *state);
uint64_t rsv_bench_body_counts_batch(void *state);
uint64_t rsv_bench_body_crc32c(void *state);
uint64_t rsv_bench_body_kv03_frames(void *state);
uint64_t rsv_bench_body_kv03_cursor(void *state);
uint64_t rsv_bench_body_kv03_records(void *state);
uint64_t rsv_bench_body_kv03_records_set(void *state);
uint64_t rsv_bench_body_kv03_cursor_batch(void *state);  /* candidate only */
uint64_t rsv_bench_body_kv03_records_batch(void *state); /* candidate only */
uint64_t rsv_bench_body_kv03_scan(void *state);
uint64_t rsv_bench_body_kv03_merge(void *state);

#endif
