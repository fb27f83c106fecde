/* Internal to the KV03 benchmark module: the fixture cache shared by the
 * read workloads (workloads_kv03.c) and the merge workloads
 * (workloads_kv03_merge.c), which are one rsv_bench_module so that the
 * WORKLOADS.md §5 order (per fixture: frames, cursor, records,
 * merge-disjoint, merge-overlap) holds. */
#ifndef RSV_BENCH_KV03_WORKLOADS_H
#define RSV_BENCH_KV03_WORKLOADS_H

#include "kv03_fixture.h"
#include "workload.h"

enum kv03_kind {
    KV03_FRAMES,
    KV03_CURSOR,
    KV03_RECORDS,
    KV03_SCAN,
    KV03_MERGE_DISJOINT,
    KV03_MERGE_OVERLAP,
    KV03_MERGE_NWAY,
    KV03_CURSOR_BATCH,  /* the cursor workload through rsv_kv03_cursor_batch (--batch) */
    KV03_RECORDS_BATCH  /* the records workload through rsv_stream_reader_batch (--batch) */
};

typedef struct kv03_case {
    const kv03_shape *shape;
    enum kv03_kind kind;
    unsigned nway; /* KV03_MERGE_NWAY: inputs */
} kv03_case;

/* The module state: the fixture of the last prepared case (built on first
 * use, replaced when the next case needs another fixture). */
typedef struct kv03_module_state {
    kv03_fixture fx;
    int have;
} kv03_module_state;

const kv03_fixture *kv03_fixture_for(const rsv_bench_params *p, void *module_state,
                                     const kv03_shape *shape);

int kv03_merge_prepare(const rsv_bench_params *p, void *module_state, const void *arg,
                       rsv_bench_workload *w);

#endif
