/* Random-operation differential (CODES.md §5.3, §8): thousands of sequences
 * of ~50 mixed operations on views of up to 768 bits at offsets below 80,
 * with contents biased towards long zero runs so that codes are long,
 * truncated or overflowing. Each trial has its own generator derived from
 * (seed, trial), so a failure names both and can be replayed alone with
 * RSV_TEST_SEED=<seed> (the trial index is printed too). */
#include <stdlib.h>

#include "diff.h"

static uint64_t trial_seed(uint64_t seed, uint64_t trial)
{
    rsv_rng g = {seed ^ (trial * UINT64_C(0xD1B54A32D192ED03))};
    return rsv_rng_next(&g);
}

/* Contents: several shapes, most of them zero-heavy. */
static void fill(rsv_rng *g, uint8_t *buf, size_t nb)
{
    unsigned shape = (unsigned)rsv_rng_below(g, 7);
    for (size_t i = 0; i < nb; i++) {
        uint8_t b = 0;
        switch (shape) {
        case 0: b = (uint8_t)rsv_rng_next(g); break;                        /* uniform */
        case 1: b = rsv_rng_below(g, 4) ? 0 : (uint8_t)rsv_rng_next(g); break; /* sparse */
        case 2: b = rsv_rng_below(g, 16) ? 0 : (uint8_t)(0x80u >> rsv_rng_below(g, 8)); break;
        case 3: b = 0; break;
        case 4: b = rsv_rng_below(g, 8) ? 0xFF : (uint8_t)rsv_rng_next(g); break; /* ones */
        default: b = (uint8_t)rsv_rng_next(g); break; /* runs are painted below */
        }
        buf[i] = b;
    }
    if (shape >= 5) { /* paint zero runs of 0..140 bits at random places */
        uint64_t nbits = (uint64_t)nb * 8;
        unsigned runs = 1 + (unsigned)rsv_rng_below(g, 6);
        for (unsigned r = 0; r < runs; r++) {
            uint64_t at = rsv_rng_below(g, nbits), n = rsv_rng_below(g, 141);
            for (uint64_t j = 0; j < n && at + j < nbits; j++) rsv_set_bit(buf, at + j, 0);
            if (at + n < nbits && rsv_rng_below(g, 2)) rsv_set_bit(buf, at + n, 1);
        }
    }
}

static unsigned pick_k(rsv_rng *g)
{
    uint64_t c = rsv_rng_below(g, 20);
    if (c < 10) return (unsigned)rsv_rng_below(g, 4);
    if (c < 18) return (unsigned)rsv_rng_below(g, 65); /* 0..64, 64 invalid */
    static const unsigned odd[] = {63, 64, 65, 200, 0xFFFFFFFFu};
    return odd[rsv_rng_below(g, 5)];
}

static uint64_t pick_m(rsv_rng *g)
{
    switch (rsv_rng_below(g, 8)) {
    case 0: return 1;
    case 1: return 2 + rsv_rng_below(g, 19);                 /* small */
    case 2: return UINT64_C(1) << rsv_rng_below(g, 64);      /* 2^j */
    case 3: return UINT64_MAX;
    case 4: return rsv_rng_next(g) | 1;                      /* random 64-bit */
    case 5: return rsv_rng_next(g) >> rsv_rng_below(g, 64);  /* random width */
    case 6: return rsv_rng_below(g, 16) == 0 ? 0 : 3 + rsv_rng_below(g, 5); /* rarely 0 */
    default: return (UINT64_C(1) << rsv_rng_below(g, 64)) + rsv_rng_below(g, 3) - 1;
    }
}

static uint64_t pick_span(rsv_rng *g, uint64_t remaining)
{
    switch (rsv_rng_below(g, 6)) {
    case 0: return rsv_rng_below(g, 20);
    case 1: return rsv_rng_below(g, remaining + 3);
    case 2: return remaining;
    case 3: return remaining + 1;
    case 4: return rsv_rng_below(g, 130);
    default: {
        static const uint64_t huge[] = {UINT64_MAX, UINT64_MAX - 1, UINT64_C(1) << 63,
                                        UINT64_C(1) << 32};
        return huge[rsv_rng_below(g, 4)];
    }
    }
}

static void one_op(rsv_diff_run *t, rsv_rng *g)
{
    uint64_t remaining = t->v.len - t->p;
    switch (rsv_rng_below(g, 16)) {
    case 0:
    case 1: rsv_diff_read(t, (unsigned)rsv_rng_below(g, 67)); break;
    case 2: rsv_diff_read_bit(t); break;
    case 3:
    case 4: rsv_diff_read_eg(t, pick_k(g)); break;
    case 5: rsv_diff_read_eg0(t); break;
    case 6:
    case 7: rsv_diff_read_golomb(t, pick_m(g)); break;
    case 8: rsv_diff_read_golomb_m(t, pick_m(g)); break;
    case 9: rsv_diff_take(t, pick_span(g, remaining)); break;
    case 10: rsv_diff_skip(t, pick_span(g, remaining)); break;
    case 11: rsv_diff_read_n(t, (unsigned)rsv_rng_below(g, 67), (size_t)rsv_rng_below(g, 41)); break;
    case 12: rsv_diff_read_eg_n(t, pick_k(g), (size_t)rsv_rng_below(g, 41)); break;
    case 13: rsv_diff_read_golomb_n(t, pick_m(g), (size_t)rsv_rng_below(g, 41)); break;
    case 14: rsv_diff_seek(t, rsv_rng_below(g, t->v.len + 3)); break;
    default: rsv_diff_read(t, (unsigned)rsv_rng_below(g, 14)); break;
    }
}

void rsv_diff_suite_random(rsv_diff *d, const rsv_diff_opts *o)
{
    rsv_diff_run t;
    for (uint64_t trial = 0; trial < o->trials; trial++) {
        rsv_rng g = {trial_seed(o->seed, trial)};
        uint64_t len = rsv_rng_below(&g, 769), off = rsv_rng_below(&g, 80);
        if (rsv_rng_below(&g, 8) == 0) len = rsv_rng_below(&g, 40); /* short views too */
        size_t nb = rsv_diff_nbytes(off, len);
        uint8_t *buf = rsv_diff_alloc(nb);
        fill(&g, buf, nb);
        rsv_view v = rsv_view_make(buf, off, len);
        unsigned nops = 30 + (unsigned)rsv_rng_below(&g, 41);
        rsv_diff_begin(&t, d, v, "random",
                       "seed=%llu (0x%llx) trial=%llu of %llu; replay with RSV_TEST_SEED=<seed>",
                       o->seed, o->seed, trial, o->trials);
        for (unsigned i = 0; i < nops; i++) one_op(&t, &g);
        rsv_diff_drain(&t);
        free(buf);
    }
}
