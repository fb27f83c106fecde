/* The count cases of WORKLOADS.md §3 and their /batch variants.
 *
 * Buffer (untimed): `101` lead-in, then code(v_0) ... code(v_{V-1}); the view
 * starts at bit 3 so every pass begins misaligned. Timed body: a fresh decoder
 * over the view decodes V values, requires the sum and the end of the view,
 * and returns sum + final position.
 *
 * candidate: rsv_reader + rsv_read_eg0 / rsv_read_eg / rsv_read_golomb
 *            (batch: rsv_read_eg_n / rsv_read_golomb_n)
 * baseline:  rsv_oracle_read_eg / rsv_oracle_read_golomb, position threaded
 *            by hand (batch: rsv_oracle_read_eg_n / rsv_oracle_read_golomb_n) */
#include <stdlib.h>

#include "side.h"
#include "workloads.h"
#include "workload.h"

#include "reservoir/oracle.h"
#include "reservoir/reservoir.h"

enum code_kind { CODE_EG, CODE_GOLOMB };

typedef struct count_case {
    enum code_kind kind;
    uint64_t param; /* EG order k or Golomb modulus m */
    rsv_wl_count_case values; /* v_i: tools/workloads, shared with rsv gen-counts */
    int batch;
} count_case;

/* Values decoded per batch call: a caller-owned array that stays in L1. */
#define BATCH_CHUNK 1024

typedef struct counts_state {
    const count_case *c;
    rsv_writer w; /* owns the buffer */
    rsv_view view;
    uint64_t nvals;
    uint64_t expect_sum; /* Σ v_i mod 2^64 */
    rsv_golomb g;
    uint64_t *chunk; /* batch destination, BATCH_CHUNK values */
} counts_state;

static uint64_t value_of(const count_case *c, uint64_t i) { return rsv_wl_count_value(c->values, i); }

/* ---- timed bodies --------------------------------------------------------- */

#if RSV_BENCH_CANDIDATE

/* One loop per code so the per-value work is exactly the library's inline
 * decoder; the kind is fixed for the whole run. */
uint64_t rsv_bench_body_counts(void *state)
{
    const counts_state *s = state;
    rsv_reader r;
    rsv_reader_init(&r, s->view);
    uint64_t sum = 0, x = 0, n = s->nvals;
    if (s->c->kind == CODE_GOLOMB) {
        for (uint64_t i = 0; i < n; i++) {
            if (rsv_read_golomb(&r, &s->g, &x) != RSV_OK) rsv_bench_fail("golomb decode failed at %llu", (unsigned long long)i);
            sum += x;
        }
    } else if (s->c->param == 0) {
        for (uint64_t i = 0; i < n; i++) {
            if (rsv_read_eg0(&r, &x) != RSV_OK) rsv_bench_fail("eg0 decode failed at %llu", (unsigned long long)i);
            sum += x;
        }
    } else {
        unsigned k = (unsigned)s->c->param;
        for (uint64_t i = 0; i < n; i++) {
            if (rsv_read_eg(&r, k, &x) != RSV_OK) rsv_bench_fail("eg decode failed at %llu", (unsigned long long)i);
            sum += x;
        }
    }
    if (!rsv_reader_empty(&r) || sum != s->expect_sum) rsv_bench_fail("counts body: wrong end or sum");
    return sum + rsv_reader_position(&r);
}

uint64_t rsv_bench_body_counts_batch(void *state)
{
    const counts_state *s = state;
    rsv_reader r;
    rsv_reader_init(&r, s->view);
    uint64_t sum = 0;
    for (uint64_t i = 0; i < s->nvals; i += BATCH_CHUNK) {
        size_t n = s->nvals - i < BATCH_CHUNK ? (size_t)(s->nvals - i) : BATCH_CHUNK, done = 0;
        rsv_status st = s->c->kind == CODE_GOLOMB
                            ? rsv_read_golomb_n(&r, &s->g, s->chunk, n, &done)
                            : rsv_read_eg_n(&r, (unsigned)s->c->param, s->chunk, n, &done);
        if (st != RSV_OK || done != n) rsv_bench_fail("batch decode failed near %llu", (unsigned long long)i);
        for (size_t j = 0; j < n; j++) sum += s->chunk[j];
    }
    if (!rsv_reader_empty(&r) || sum != s->expect_sum) rsv_bench_fail("counts batch body: wrong end or sum");
    return sum + rsv_reader_position(&r);
}

#else /* baseline */

uint64_t rsv_bench_body_counts(void *state)
{
    const counts_state *s = state;
    uint64_t p = 0, sum = 0, param = s->c->param;
    int golomb = s->c->kind == CODE_GOLOMB;
    for (uint64_t i = 0; i < s->nvals; i++) {
        rsv_oracle_result res = golomb ? rsv_oracle_read_golomb(s->view, p, param)
                                       : rsv_oracle_read_eg(s->view, p, param);
        if (res.status != RSV_OK) rsv_bench_fail("oracle decode failed at %llu", (unsigned long long)i);
        sum += res.value;
        p = res.pos;
    }
    if (p != s->view.len || sum != s->expect_sum) rsv_bench_fail("counts body: wrong end or sum");
    return sum + p;
}

uint64_t rsv_bench_body_counts_batch(void *state)
{
    const counts_state *s = state;
    uint64_t p = 0, sum = 0, param = s->c->param;
    int golomb = s->c->kind == CODE_GOLOMB;
    for (uint64_t i = 0; i < s->nvals; i += BATCH_CHUNK) {
        size_t n = s->nvals - i < BATCH_CHUNK ? (size_t)(s->nvals - i) : BATCH_CHUNK, done = 0;
        rsv_oracle_result res = golomb ? rsv_oracle_read_golomb_n(s->view, p, param, s->chunk, n, &done)
                                       : rsv_oracle_read_eg_n(s->view, p, param, s->chunk, n, &done);
        if (res.status != RSV_OK || done != n) rsv_bench_fail("oracle batch failed near %llu", (unsigned long long)i);
        p = res.pos;
        for (size_t j = 0; j < n; j++) sum += s->chunk[j];
    }
    if (p != s->view.len || sum != s->expect_sum) rsv_bench_fail("counts batch body: wrong end or sum");
    return sum + p;
}

#endif

/* ---- untimed setup -------------------------------------------------------- */

/* A fresh decoder of this side decodes all V values one at a time; each must
 * equal v_i and the view must end exactly after the last code. */
static void verify(const counts_state *s)
{
#if RSV_BENCH_CANDIDATE
    rsv_reader r;
    rsv_reader_init(&r, s->view);
#else
    uint64_t p = 0;
#endif
    for (uint64_t i = 0; i < s->nvals; i++) {
        uint64_t x = 0;
#if RSV_BENCH_CANDIDATE
        rsv_status st = s->c->kind == CODE_GOLOMB ? rsv_read_golomb(&r, &s->g, &x)
                                                  : rsv_read_eg(&r, (unsigned)s->c->param, &x);
#else
        rsv_oracle_result res = s->c->kind == CODE_GOLOMB ? rsv_oracle_read_golomb(s->view, p, s->c->param)
                                                          : rsv_oracle_read_eg(s->view, p, s->c->param);
        rsv_status st = res.status;
        x = res.value;
        p = res.pos;
#endif
        if (st != RSV_OK || x != value_of(s->c, i))
            rsv_bench_fail("verification: value %llu decodes wrong", (unsigned long long)i);
    }
#if RSV_BENCH_CANDIDATE
    if (!rsv_reader_empty(&r)) rsv_bench_fail("verification: reader not empty at the end");
#else
    if (p != s->view.len) rsv_bench_fail("verification: oracle not at the end");
#endif
}

static void counts_teardown(void *state)
{
    counts_state *s = state;
    rsv_writer_free(&s->w);
    free(s->chunk);
    free(s);
}

static int counts_prepare(const rsv_bench_params *p, void *module_state, const void *arg,
                          rsv_bench_workload *wl)
{
    (void)module_state;
    const count_case *c = arg;
    counts_state *s = calloc(1, sizeof *s);
    if (!s) return 1;
    s->c = c;
    s->nvals = p->values;
    s->chunk = malloc(BATCH_CHUNK * sizeof *s->chunk);
    if (!s->chunk) { free(s); return 1; }
    rsv_golomb_init(&s->g, c->kind == CODE_GOLOMB ? c->param : 1);
    rsv_writer_init(&s->w);
    if (rsv_put(&s->w, 5, 3) != RSV_OK) rsv_bench_fail("writer: lead-in");
    for (uint64_t i = 0; i < s->nvals; i++) {
        uint64_t v = value_of(c, i);
        s->expect_sum += v;
        rsv_status st = c->kind == CODE_GOLOMB ? rsv_put_golomb(&s->w, v, &s->g)
                                               : rsv_put_eg(&s->w, v, (unsigned)c->param);
        if (st != RSV_OK) rsv_bench_fail("writer: value %llu", (unsigned long long)i);
    }
    s->view = rsv_view_make(rsv_writer_data(&s->w), 3, rsv_writer_bits(&s->w) - 3);
    verify(s);
    wl->items = s->nvals;
    wl->bits = s->view.len;
    wl->state = s;
    wl->body = c->batch ? rsv_bench_body_counts_batch : rsv_bench_body_counts;
    wl->teardown = counts_teardown;
    return 0;
}

static const count_case k_eg0_small = {CODE_EG, 0, RSV_WL_EG0_SMALL, 0};
static const count_case k_eg0_wide = {CODE_EG, 0, RSV_WL_EG0_WIDE, 0};
static const count_case k_eg3 = {CODE_EG, 3, RSV_WL_EG3, 0};
static const count_case k_g7 = {CODE_GOLOMB, 7, RSV_WL_G7, 0};
static const count_case k_eg0_small_b = {CODE_EG, 0, RSV_WL_EG0_SMALL, 1};
static const count_case k_eg0_wide_b = {CODE_EG, 0, RSV_WL_EG0_WIDE, 1};
static const count_case k_eg3_b = {CODE_EG, 3, RSV_WL_EG3, 1};
static const count_case k_g7_b = {CODE_GOLOMB, 7, RSV_WL_G7, 1};

/* Normative order first (WORKLOADS.md §5), then the batch variants. */
static const rsv_bench_spec k_specs[] = {
    {"counts/eg0-small", RSV_BENCH_NORMATIVE, 1, &k_eg0_small, counts_prepare},
    {"counts/eg0-wide", RSV_BENCH_NORMATIVE, 1, &k_eg0_wide, counts_prepare},
    {"counts/eg3", RSV_BENCH_NORMATIVE, 1, &k_eg3, counts_prepare},
    {"counts/g7", RSV_BENCH_NORMATIVE, 1, &k_g7, counts_prepare},
    {"counts/eg0-small/batch", RSV_BENCH_BATCH, 1, &k_eg0_small_b, counts_prepare},
    {"counts/eg0-wide/batch", RSV_BENCH_BATCH, 1, &k_eg0_wide_b, counts_prepare},
    {"counts/eg3/batch", RSV_BENCH_BATCH, 1, &k_eg3_b, counts_prepare},
    {"counts/g7/batch", RSV_BENCH_BATCH, 1, &k_g7_b, counts_prepare},
};

const rsv_bench_module rsv_bench_counts_module = {
    "counts", k_specs, sizeof k_specs / sizeof k_specs[0], NULL, NULL};
