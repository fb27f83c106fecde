/* Differential suite for the batch decoders' streaming fast loops
 * (codec/src/batch.c): long streams, so that the branch-free OR-refill loop
 * runs for hundreds of values, leaves for long codes and re-enters, stops
 * 16 whole bytes before the view's end and hands over to the single-value
 * decoder; errors in the middle of a stream; every view offset 0..7 and
 * several end alignments (the last byte partial or whole).
 *
 * Streams are either codes written by the codec's writer (small values with
 * occasional huge ones, so codes of every length up to 129 bits occur) or
 * raw bit patterns (uniform, sparse, zero runs) that hold malformed codes.
 * Every batch call is compared with the oracle's batch decoder (values, count
 * done, status, position), and each stream is decoded with batch sizes 1, 7
 * and 64 and then drained. Expected values are the oracle's. */
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "reservoir/writer.h"

enum { FAM_EG, FAM_GOLOMB, FAM_FIXED };

typedef struct batch_param {
    int fam;
    uint64_t p; /* k, m or w */
} batch_param;

static const batch_param k_params[] = {
    {FAM_EG, 0},  {FAM_EG, 1},      {FAM_EG, 3},       {FAM_EG, 7},       {FAM_EG, 20},
    {FAM_EG, 40}, {FAM_EG, 55},     {FAM_EG, 62},      {FAM_EG, 63},      {FAM_GOLOMB, 1},
    {FAM_GOLOMB, 2}, {FAM_GOLOMB, 3}, {FAM_GOLOMB, 7}, {FAM_GOLOMB, 100}, {FAM_GOLOMB, 1000003},
    {FAM_GOLOMB, UINT64_C(1) << 40}, {FAM_GOLOMB, (UINT64_C(1) << 55) + 1},
    {FAM_GOLOMB, UINT64_C(1) << 62}, {FAM_FIXED, 1}, {FAM_FIXED, 7}, {FAM_FIXED, 13},
    {FAM_FIXED, 56}, {FAM_FIXED, 57}, {FAM_FIXED, 64},
};

/* A value for the encoded streams: mostly small, sometimes of any width. */
static uint64_t pick_value(rsv_rng *g, unsigned shape)
{
    uint64_t c = rsv_rng_below(g, 64);
    if (shape == 0 || c >= 8) return rsv_rng_below(g, shape == 2 ? 4 : 200);
    unsigned w = (unsigned)rsv_rng_below(g, 65);
    return w == 64 ? rsv_rng_next(g) : rsv_rng_next(g) & ((UINT64_C(1) << w) - 1);
}

/* Encode values of family/param after `off` random lead-in bits; returns the
 * number of stream bits. Values that cannot be written (a Golomb quotient
 * longer than the buffer allows) are replaced by small ones. */
static uint64_t encode(rsv_writer *w, rsv_rng *g, const batch_param *bp, unsigned shape,
                       unsigned nvals, unsigned off)
{
    rsv_golomb gm;
    if (bp->fam == FAM_GOLOMB) rsv_golomb_init(&gm, bp->p);
    if (off) rsv_put(w, rsv_rng_next(g) >> (64 - off), off);
    for (unsigned i = 0; i < nvals; i++) {
        uint64_t v = pick_value(g, shape);
        rsv_status st;
        if (bp->fam == FAM_EG) {
            st = rsv_put_eg(w, v, (unsigned)bp->p);
        } else if (bp->fam == FAM_GOLOMB) {
            if (v / bp->p > 300) v = v % (bp->p * 4 > bp->p ? bp->p * 4 : bp->p);
            st = rsv_put_golomb(w, v, &gm);
        } else {
            st = rsv_put(w, bp->p == 64 ? v : v & ((UINT64_C(1) << bp->p) - 1), (unsigned)bp->p);
        }
        if (st != RSV_OK) abort();
    }
    return rsv_writer_bits(w) - off;
}

/* Raw patterns: uniform, sparse ones, and zero runs (overflowing codes). */
static void raw_fill(rsv_rng *g, uint8_t *b, size_t nb, unsigned shape)
{
    for (size_t i = 0; i < nb; i++) {
        switch (shape) {
        case 0: b[i] = (uint8_t)rsv_rng_next(g); break;
        case 1: b[i] = rsv_rng_below(g, 6) ? 0xFF : (uint8_t)rsv_rng_next(g); break; /* short codes */
        default: b[i] = rsv_rng_below(g, 24) ? 0 : (uint8_t)rsv_rng_next(g); break;
        }
    }
}

static rsv_status batch_op(rsv_diff_run *t, const batch_param *bp, size_t count)
{
    switch (bp->fam) {
    case FAM_EG: return rsv_diff_read_eg_n(t, (unsigned)bp->p, count);
    case FAM_GOLOMB: return rsv_diff_read_golomb_n(t, bp->p, count);
    default: return rsv_diff_read_n(t, (unsigned)bp->p, count);
    }
}

/* Decode the whole view in batches of `chunk`; after a failure one more batch
 * at the failure position, then the rest is read in bits until the end. */
static void decode_stream(rsv_diff_run *t, const batch_param *bp, size_t chunk)
{
    unsigned failures = 0;
    while (t->p < t->v.len && failures < 40) {
        uint64_t before = t->p;
        if (batch_op(t, bp, chunk) != RSV_OK) {
            failures++;
            batch_op(t, bp, chunk); /* again, at the failure position */
            if (t->p == before) rsv_diff_read(t, 1); /* step over the bad bit */
        }
    }
    rsv_diff_drain(t);
}

static void one_stream(rsv_diff *d, rsv_rng *g, const batch_param *bp, unsigned off,
                       unsigned endcut, int raw, unsigned shape, size_t chunk)
{
    uint8_t *buf;
    uint64_t len;
    if (raw) {
        len = 600 + rsv_rng_below(g, 2400);
        size_t nb = rsv_diff_nbytes(off, len);
        buf = rsv_diff_alloc(nb);
        raw_fill(g, buf, nb, shape);
    } else {
        rsv_writer w;
        rsv_writer_init(&w);
        len = encode(&w, g, bp, shape, 150 + (unsigned)rsv_rng_below(g, 250), off);
        /* end alignment: trailing random bits so the view's last byte is whole or partial */
        uint64_t tail = endcut;
        if (tail) rsv_put(&w, rsv_rng_next(g) >> (64 - tail), (unsigned)tail);
        len += tail;
        size_t nb = rsv_diff_nbytes(off, len);
        buf = rsv_diff_alloc(nb);
        memcpy(buf, rsv_writer_data(&w), nb);
        rsv_writer_free(&w);
    }
    rsv_view v = rsv_view_make(buf, off, len);
    rsv_diff_run t;
    rsv_diff_begin(&t, d, v, "batch",
                   "family=%llu param=%llu off=%llu chunk=%llu (raw streams: param's shape)",
                   (uint64_t)bp->fam, bp->p, off, chunk);
    decode_stream(&t, bp, chunk);
    free(buf);
}

void rsv_diff_suite_batch(rsv_diff *d, const rsv_diff_opts *o)
{
    static const size_t chunks[] = {1, 7, 64};
    rsv_rng g = {o->seed ^ UINT64_C(0xBA7C4D0DEC0DE5)};
    unsigned reps = o->quick ? 1 : 3;
    for (size_t pi = 0; pi < sizeof k_params / sizeof k_params[0]; pi++) {
        for (unsigned off = 0; off < 8; off++) {
            for (size_t ci = 0; ci < 3; ci++) {
                for (unsigned rep = 0; rep < reps; rep++) {
                    unsigned endcut = (unsigned)rsv_rng_below(&g, 9);
                    for (unsigned shape = 0; shape < 3; shape++) {
                        one_stream(d, &g, &k_params[pi], off, endcut, 0, shape, chunks[ci]);
                        one_stream(d, &g, &k_params[pi], off, 0, 1, shape, chunks[ci]);
                    }
                }
            }
        }
    }
}
