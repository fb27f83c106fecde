/* KV03 merge workloads (WORKLOADS.md §4 split table, §5): merge-disjoint,
 * merge-overlap, and the non-normative N-way merges merge-n4 / merge-n8
 * (the fixture split round-robin by sorted position into N disjoint inputs,
 * oldest = input 0). Every merge's output must equal <fixture>.kv.
 *
 * Timed body: construct the merge over the mapped, opened inputs, run it,
 * produce the in-memory output, fold (output data bits, record count, last
 * data byte), free the output.
 *   candidate: rsv_merge_init / rsv_merge_run / rsv_merge_finish_unsealed /
 *              rsv_merge_free. Deviation from §5: finish_unsealed still builds
 *              the EF index, dictionary, directory and envelope header in the
 *              timer (no CRC, no file write); the codec has no cheaper output.
 *   baseline:  rsv_oracle_kv03_merge (opens and walks the inputs into record
 *              lists, merges, batch-encodes a sealed file: the oracle has no
 *              unsealed form, so its CRCs are inside its timer).
 * Untimed: each side's merge output, sealed, is compared byte for byte with
 * the full fixture file. */
#include <stdlib.h>
#include <string.h>

#include "kv03_workloads.h"
#include "side.h"

#include "reservoir/merge.h"
#include "reservoir/oracle_kv03.h"

#define MAX_INPUTS 8

typedef struct merge_state {
    const kv03_fixture *fx;
    unsigned n;
    rsv_kv03_file files[MAX_INPUTS];
    const rsv_kv03_file *inputs[MAX_INPUTS];
    rsv_oracle_bytes obytes[MAX_INPUTS];
} merge_state;

#if RSV_BENCH_CANDIDATE

/* The candidate's merge, unsealed output (the timed body and the check). */
static void merge_unsealed(const merge_state *s, uint8_t **out, size_t *len)
{
    rsv_merge m;
    if (rsv_merge_init(&m, s->inputs, s->n, 0) != RSV_OK || rsv_merge_run(&m) != RSV_OK ||
        rsv_merge_finish_unsealed(&m, out, len) != RSV_OK)
        rsv_bench_fail("merge failed");
    rsv_merge_free(&m);
}

uint64_t rsv_bench_body_kv03_merge(void *state)
{
    const merge_state *s = state;
    uint8_t *out = NULL;
    size_t len = 0;
    merge_unsealed(s, &out, &len);
    uint64_t h = kv03_fold_output(out, len);
    free(out);
    return h;
}

/* Untimed: the sealed output of the same API must be the fixture file. */
static void check_output(const merge_state *s)
{
    uint8_t *out = NULL;
    size_t len = 0;
    merge_unsealed(s, &out, &len);
    if (rsv_kv03_seal(out, len) != RSV_OK) rsv_bench_fail("%s: seal failed", s->fx->shape->name);
    if (len != s->fx->full_len || memcmp(out, s->fx->full, len) != 0)
        rsv_bench_fail("%s: merge output differs from the fixture file", s->fx->shape->name);
    free(out);
}

#else /* baseline */

uint64_t rsv_bench_body_kv03_merge(void *state)
{
    const merge_state *s = state;
    rsv_oracle_merge_result res;
    if (rsv_oracle_kv03_merge(s->obytes, s->n, 0, &res) != RSV_OK) rsv_bench_fail("oracle merge failed");
    uint64_t h = kv03_fold_output(res.out, res.out_len);
    rsv_oracle_merge_result_free(&res);
    return h;
}

static void check_output(const merge_state *s)
{
    rsv_oracle_merge_result res;
    if (rsv_oracle_kv03_merge(s->obytes, s->n, 0, &res) != RSV_OK) rsv_bench_fail("oracle merge failed");
    if (res.out_len != s->fx->full_len || memcmp(res.out, s->fx->full, res.out_len) != 0)
        rsv_bench_fail("%s: oracle merge output differs from the fixture file", s->fx->shape->name);
    rsv_oracle_merge_result_free(&res);
}

#endif

static void merge_teardown(void *state)
{
    merge_state *s = state;
    for (unsigned j = 0; j < s->n; j++) rsv_kv03_close(&s->files[j]);
    free(s);
}

int kv03_merge_prepare(const rsv_bench_params *p, void *module_state, const void *arg,
                       rsv_bench_workload *w)
{
    const kv03_case *kc = arg;
    const kv03_fixture *fx = kv03_fixture_for(p, module_state, kc->shape);
    merge_state *s = calloc(1, sizeof *s);
    if (!s) return 1;
    s->fx = fx;
    s->n = kc->nway;
    int split = kc->kind == KV03_MERGE_DISJOINT  ? KV03_SPLIT_DISJOINT
                : kc->kind == KV03_MERGE_OVERLAP ? KV03_SPLIT_OVERLAP
                                                 : KV03_SPLIT_ROUND_ROBIN;
    kv03_write_inputs(fx, split, s->n, s->files);
    uint64_t bits = 0;
    for (unsigned j = 0; j < s->n; j++) {
        s->inputs[j] = &s->files[j];
        s->obytes[j].data = s->files[j].bytes;
        s->obytes[j].size = (size_t)s->files[j].size;
        bits += s->files[j].extent;
    }
    check_output(s);
    w->items = fx->R;
    w->bits = bits;
    w->state = s;
    w->body = rsv_bench_body_kv03_merge;
    w->teardown = merge_teardown;
    return 0;
}
