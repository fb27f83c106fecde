/* Peer groups "gamma" and "ef-select": sdsl-lite through sdsl_shim.cpp.
 *   gamma:     V values mix(i) & 127. sdsl encodes gamma(v + 1) (= EG0(v), but in
 *              sdsl's LSB-first int_vector layout) with its own encoder; the codec
 *              reads the same values as EG0 from its own MSB-first buffer.
 *              Checksum Σ v (sdsl's sum minus V).
 *   ef-select: R strictly increasing positions x_i = x_{i-1} + 1 + (mix(i) & 1023);
 *              R queries q_j = mix(j) mod R; checksum Σ x_{q_j}. sdsl sd_vector
 *              select_1 (its Elias–Fano) vs rsv_ef_select on the codec's EF
 *              (rsv_ef_plan / rsv_ef_encode, the KV03 sections 1–4 layout). */
#include <stdlib.h>

#include "../mix.h"
#include "peer_groups.h"

#include "reservoir/reservoir.h"

#ifdef RSV_PEER_SDSL
#include "sdsl_shim.h"
#endif

typedef struct gamma_state {
    rsv_writer w;
    uint64_t n;
#ifdef RSV_PEER_SDSL
    sdsl_gamma *g;
#endif
} gamma_state;

static uint64_t rsv_gamma(void *state)
{
    const gamma_state *s = state;
    rsv_reader r;
    rsv_reader_init(&r, rsv_writer_view(&s->w));
    uint64_t sum = 0, x;
    for (uint64_t i = 0; i < s->n; i++) {
        if (rsv_read_eg0(&r, &x) != RSV_OK) rsv_bench_fail("rsv_read_eg0");
        sum += x;
    }
    if (!rsv_reader_empty(&r)) rsv_bench_fail("gamma: reader not at the end");
    return sum;
}

/* The bulk counterpart of sdsl's decode (which decodes n values in one
 * call): rsv_read_eg_n into a caller-owned 1,024-value chunk, summed. */
#define GAMMA_CHUNK 1024
static uint64_t rsv_gamma_batch(void *state)
{
    const gamma_state *s = state;
    rsv_reader r;
    rsv_reader_init(&r, rsv_writer_view(&s->w));
    uint64_t sum = 0, chunk[GAMMA_CHUNK];
    for (uint64_t i = 0; i < s->n; i += GAMMA_CHUNK) {
        size_t n = s->n - i < GAMMA_CHUNK ? (size_t)(s->n - i) : GAMMA_CHUNK, done = 0;
        if (rsv_read_eg_n(&r, 0, chunk, n, &done) != RSV_OK || done != n) rsv_bench_fail("rsv_read_eg_n");
        for (size_t j = 0; j < n; j++) sum += chunk[j];
    }
    if (!rsv_reader_empty(&r)) rsv_bench_fail("gamma: reader not at the end");
    return sum;
}

typedef struct ef_state {
    uint64_t n, *x, *q;
    uint8_t *buf;
    rsv_ef ef;
#ifdef RSV_PEER_SDSL
    sdsl_sd *sd;
#endif
} ef_state;

static uint64_t rsv_select(void *state)
{
    const ef_state *s = state;
    uint64_t sum = 0, v;
    for (uint64_t j = 0; j < s->n; j++) {
        if (rsv_ef_select(&s->ef, s->q[j], &v) != RSV_OK) rsv_bench_fail("rsv_ef_select");
        sum += v;
    }
    return sum;
}

#ifdef RSV_PEER_SDSL
static uint64_t sdsl_gamma_body(void *state)
{
    const gamma_state *s = state;
    return sdsl_gamma_sum(s->g, (size_t)s->n) - s->n;
}

static uint64_t sdsl_gamma_table_body(void *state)
{
    const gamma_state *s = state;
    return sdsl_gamma_prefix_sum(s->g, (size_t)s->n) - s->n;
}

static uint64_t sdsl_select_body(void *state)
{
    const ef_state *s = state;
    return sdsl_sd_select_sum(s->sd, s->q, (size_t)s->n);
}
#endif

void peer_group_sdsl(const rsv_bench_params *p)
{
    gamma_state g;
    g.n = p->values;
    uint64_t *vals = malloc(g.n * sizeof *vals), expect = 0;
    if (!vals) rsv_bench_fail("out of memory");
    rsv_writer_init(&g.w);
    for (uint64_t i = 0; i < g.n; i++) {
        vals[i] = rsv_bench_mix(i) & 127;
        expect += vals[i];
        if (rsv_put_eg(&g.w, vals[i], 0) != RSV_OK) rsv_bench_fail("writer");
    }
#ifdef RSV_PEER_SDSL
    g.g = sdsl_gamma_new(vals, (size_t)g.n);
    if (!g.g) rsv_bench_fail("sdsl encode");
    peer_run("peers/gamma/sdsl", g.n, rsv_writer_bits(&g.w), 1, sdsl_gamma_body, &g, expect);
    peer_run("peers/gamma/sdsl-table", g.n, rsv_writer_bits(&g.w), 1, sdsl_gamma_table_body, &g, expect);
    sdsl_gamma_free(g.g);
#else
    peer_skip("gamma/sdsl", "sdsl-lite (libsdsl, sdsl/*.hpp) or a C++ compiler not found at configure time");
#endif
    peer_run("peers/gamma/rsv", g.n, rsv_writer_bits(&g.w), 1, rsv_gamma, &g, expect);
    peer_run("peers/gamma/rsv-batch", g.n, rsv_writer_bits(&g.w), 1, rsv_gamma_batch, &g, expect);
    rsv_writer_free(&g.w);
    free(vals);

    ef_state e;
    e.n = p->records;
    e.x = malloc(e.n * sizeof *e.x);
    e.q = malloc(e.n * sizeof *e.q);
    if (!e.x || !e.q) rsv_bench_fail("out of memory");
    uint64_t at = 0;
    for (uint64_t i = 0; i < e.n; i++) e.x[i] = at += 1 + (rsv_bench_mix(i) & 1023);
    expect = 0;
    for (uint64_t j = 0; j < e.n; j++) expect += e.x[e.q[j] = rsv_bench_mix(j) % e.n];
    rsv_ef_layout lay;
    if (rsv_ef_plan(e.x, e.n, &lay) != RSV_OK) rsv_bench_fail("rsv_ef_plan");
    e.buf = malloc(lay.low_bytes + lay.high_bytes + lay.samples_bytes + lay.sparse_bytes + 8);
    if (!e.buf) rsv_bench_fail("out of memory");
    rsv_ef_encode(e.x, &lay, e.buf);
    const uint8_t *hi = e.buf + lay.low_bytes, *sa = hi + lay.high_bytes, *sp = sa + lay.samples_bytes;
    rsv_ef_init(&e.ef, &lay, e.buf, hi, sa, sp, lay.sparse_bytes);
    uint64_t bits = 8 * (lay.low_bytes + lay.high_bytes + lay.samples_bytes + lay.sparse_bytes);
#ifdef RSV_PEER_SDSL
    e.sd = sdsl_sd_new(e.x, (size_t)e.n, at);
    if (!e.sd) rsv_bench_fail("sdsl sd_vector");
    peer_run("peers/ef-select/sdsl", e.n, bits, 1, sdsl_select_body, &e, expect);
    sdsl_sd_free(e.sd);
#else
    peer_skip("ef-select/sdsl", "sdsl-lite not found at configure time");
#endif
    peer_run("peers/ef-select/rsv", e.n, bits, 1, rsv_select, &e, expect);
    free(e.buf);
    free(e.x);
    free(e.q);
}
