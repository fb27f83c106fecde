/* Malformed inputs (CODES.md §3.2, §4.2, §6.3, §7.2): every §7.2 row verbatim
 * and zero runs of length 0-140, each at 8 placements, compared in lockstep
 * and against the spec's error and position, then read on after the failure
 * (§5.3: a failure never poisons the reader). */
#include <stdlib.h>

#include "diff.h"

#define MAXV UINT64_MAX

enum { M_EG, M_GOLOMB, M_READ, M_TAKE, M_SKIP };

/* follow-up checks stated in §7.2's closing paragraph */
enum { F_NONE, F_REPEAT, F_READ1 };

static const struct row {
    int op;
    uint64_t param;
    const char *bits;
    rsv_status st;
    uint64_t pos;
    int follow;
    rsv_status fst;
    uint64_t fval, fpos;
} rows[] = {
    {M_EG, 0, "", RSV_ERR_EG_TRUNCATED, 0, F_NONE, RSV_OK, 0, 0},
    {M_EG, 0, "000", RSV_ERR_EG_TRUNCATED, 3, F_NONE, RSV_OK, 0, 0},
    {M_EG, 0, "0^64", RSV_ERR_EG_TRUNCATED, 64, F_NONE, RSV_OK, 0, 0},
    {M_EG, 0, "0^65", RSV_ERR_EG_OVERFLOW, 65, F_NONE, RSV_OK, 0, 0},
    /* "after #4 on 0^140, a second read_eg(0) fails again with position 130" */
    {M_EG, 0, "0^140", RSV_ERR_EG_OVERFLOW, 65, F_REPEAT, RSV_ERR_EG_OVERFLOW, 0, 130},
    {M_EG, 0, "0001 01", RSV_ERR_EG_TRUNCATED, 6, F_NONE, RSV_OK, 0, 0},
    {M_EG, 0, "0^64 1 0^63", RSV_ERR_EG_TRUNCATED, 128, F_NONE, RSV_OK, 0, 0},
    {M_EG, 0, "0^64 1 0^63 1", RSV_ERR_EG_OVERFLOW, 129, F_NONE, RSV_OK, 0, 0},
    {M_EG, 0, "0^64 1 1^64", RSV_ERR_EG_OVERFLOW, 129, F_NONE, RSV_OK, 0, 0},
    {M_EG, 1, "1", RSV_ERR_EG_TRUNCATED_REMAINDER, 1, F_NONE, RSV_OK, 0, 0},
    {M_EG, 3, "010 01", RSV_ERR_EG_TRUNCATED_REMAINDER, 3, F_NONE, RSV_OK, 0, 0},
    {M_EG, 1, "0^64 1 0^64", RSV_ERR_EG_QUOTIENT_OVERFLOW, 129, F_NONE, RSV_OK, 0, 0},
    {M_EG, 63, "011", RSV_ERR_EG_QUOTIENT_OVERFLOW, 3, F_NONE, RSV_OK, 0, 0},
    {M_EG, 63, "00100 1^70", RSV_ERR_EG_QUOTIENT_OVERFLOW, 5, F_NONE, RSV_OK, 0, 0},
    {M_EG, 64, "1", RSV_ERR_BAD_ORDER, 0, F_NONE, RSV_OK, 0, 0},
    /* "after #16 a read(1) returns 1 at position 3" */
    {M_GOLOMB, MAXV, "001", RSV_ERR_GOLOMB_QUOTIENT_OVERFLOW, 2, F_READ1, RSV_OK, 1, 3},
    {M_GOLOMB, MAXV, "00", RSV_ERR_GOLOMB_QUOTIENT_OVERFLOW, 2, F_NONE, RSV_OK, 0, 0},
    {M_GOLOMB, MAXV, "0", RSV_ERR_GOLOMB_TRUNCATED, 1, F_NONE, RSV_OK, 0, 0},
    {M_GOLOMB, MAXV, "01 0^62 10", RSV_ERR_GOLOMB_SUM_OVERFLOW, 66, F_NONE, RSV_OK, 0, 0},
    {M_GOLOMB, MAXV, "01 0^62", RSV_ERR_GOLOMB_TRUNCATED_REMAINDER, 2, F_NONE, RSV_OK, 0, 0},
    {M_GOLOMB, 7, "000", RSV_ERR_GOLOMB_TRUNCATED, 3, F_NONE, RSV_OK, 0, 0},
    {M_GOLOMB, 7, "1 0", RSV_ERR_GOLOMB_TRUNCATED_REMAINDER, 1, F_NONE, RSV_OK, 0, 0},
    {M_GOLOMB, 7, "1 11", RSV_ERR_GOLOMB_TRUNCATED_REMAINDER, 3, F_NONE, RSV_OK, 0, 0},
    {M_GOLOMB, 3, "01", RSV_ERR_GOLOMB_TRUNCATED_REMAINDER, 2, F_NONE, RSV_OK, 0, 0},
    {M_GOLOMB, 1, "0^20", RSV_ERR_GOLOMB_TRUNCATED, 20, F_NONE, RSV_OK, 0, 0},
    {M_GOLOMB, 0, "1", RSV_ERR_BAD_MODULUS, 0, F_NONE, RSV_OK, 0, 0},
    {M_READ, 65, "1^128", RSV_ERR_WIDTH, 0, F_NONE, RSV_OK, 0, 0},
    {M_READ, 8, "1^7", RSV_ERR_TRUNCATED_FIELD, 0, F_NONE, RSV_OK, 0, 0},
    {M_TAKE, 9, "0^8", RSV_ERR_TRUNCATED_SPAN, 0, F_NONE, RSV_OK, 0, 0},
    {M_SKIP, 9, "0^8", RSV_ERR_TRUNCATED_SPAN, 0, F_NONE, RSV_OK, 0, 0},
};
#define N_ROWS (sizeof rows / sizeof rows[0])

static void do_op(rsv_diff_run *t, int op, uint64_t param, unsigned variant)
{
    switch (op) {
    case M_EG:
        if (param == 0 && (variant & 1))
            rsv_diff_read_eg0(t);
        else if (variant & 4)
            rsv_diff_read_eg_n(t, (unsigned)param, 1);
        else
            rsv_diff_read_eg(t, (unsigned)param);
        break;
    case M_GOLOMB:
        if (variant & 4)
            rsv_diff_read_golomb_n(t, param, 1);
        else if (variant & 1)
            rsv_diff_read_golomb_m(t, param);
        else
            rsv_diff_read_golomb(t, param);
        break;
    case M_READ:
        if (variant & 4)
            rsv_diff_read_n(t, (unsigned)param, 1);
        else
            rsv_diff_read(t, (unsigned)param);
        break;
    case M_TAKE:
        rsv_diff_take(t, param);
        break;
    default:
        rsv_diff_skip(t, param);
        break;
    }
}

/* Several mixed operations after a failure, all in lockstep. */
static void keep_reading(rsv_diff_run *t)
{
    rsv_diff_read_eg(t, 0);
    rsv_diff_read(t, 1);
    rsv_diff_read_golomb(t, 3);
    rsv_diff_skip(t, 1);
    rsv_diff_take(t, 2);
    rsv_diff_read_eg(t, 63);
    rsv_diff_read_golomb(t, MAXV);
    rsv_diff_read_eg_n(t, 0, 3);
    rsv_diff_read_bit(t);
    rsv_diff_drain(t);
}

/* Reach `pre` by a skip or by reads (warming the cache differently). */
static void advance(rsv_diff_run *t, uint64_t pre, unsigned variant)
{
    if (variant & 2)
        rsv_diff_skip(t, pre);
    else
        rsv_diff_read(t, (unsigned)pre); /* pre < 64 here */
}

static void spec_rows(rsv_diff *d, rsv_rng *g, unsigned nplace)
{
    for (size_t i = 0; i < N_ROWS; i++) {
        const struct row *e = &rows[i];
        for (unsigned pl = 0; pl < nplace; pl++) {
            /* view offsets 0..7 (+8 on odd placements), 0..10 bits before p */
            uint64_t off = pl + 8 * (pl & 1), pre = (3 * pl) % 11;
            uint8_t *buf;
            rsv_view v = rsv_diff_build(g, e->bits, off, pre, &buf);
            rsv_diff_run t;
            rsv_diff_begin(&t, d, v, "malformed", "§7.2 row %llu at view offset %llu, p=%llu",
                           i + 1, off, pre, 0);
            advance(&t, pre, pl);
            do_op(&t, e->op, e->param, pl);
            rsv_diff_expect(&t, e->st, 0, pre + e->pos);
            if (e->follow == F_REPEAT) {
                do_op(&t, e->op, e->param, pl);
                rsv_diff_expect(&t, e->fst, e->fval, pre + e->fpos);
            } else if (e->follow == F_READ1) {
                rsv_diff_read(&t, 1);
                rsv_diff_expect(&t, e->fst, e->fval, pre + e->fpos);
            }
            keep_reading(&t);
            free(buf);
        }
    }
}

/* Zero runs: `0^n` exactly (spec result computable: §3.2/§4.2 step 2), and
 * `0^n 1` plus up to 3 random bits (long or truncated codes). */
static void zero_runs(rsv_diff *d, rsv_rng *g, unsigned nplace)
{
    static const unsigned orders[] = {0, 1, 3, 63};
    static const uint64_t moduli[] = {1, 2, 3, 7, MAXV, UINT64_C(1) << 63, UINT64_C(1) << 58};
    char spec[64];
    for (uint64_t n = 0; n <= 140; n++) {
        for (unsigned shape = 0; shape < 2; shape++) {
            uint64_t tail = shape ? rsv_rng_below(g, 4) : 0;
            if (shape)
                snprintf(spec, sizeof spec, "0^%llu 1 0^%llu", (unsigned long long)n,
                         (unsigned long long)tail);
            else
                snprintf(spec, sizeof spec, "0^%llu", (unsigned long long)n);
            for (unsigned pl = 0; pl < nplace; pl++) {
                uint64_t off = pl + 8 * (pl & 1), pre = (3 * pl) % 11;
                uint8_t *buf;
                rsv_view v = rsv_diff_build(g, spec, off, pre, &buf);
                /* random tail bits after the '1' */
                for (uint64_t j = 0; j < tail; j++)
                    rsv_set_bit(buf, off + pre + n + 1 + j, (unsigned)rsv_rng_below(g, 2));
                rsv_diff_run t;
                for (size_t k = 0; k < sizeof orders / sizeof orders[0]; k++) {
                    rsv_diff_begin(&t, d, v, "malformed",
                                   "zero run n=%llu shape=%llu (0: 0^n, 1: 0^n 1 + %llu bits), "
                                   "read_eg(k=%llu)",
                                   n, shape, tail, orders[k]);
                    advance(&t, pre, pl);
                    do_op(&t, M_EG, orders[k], pl);
                    if (!shape) /* 65 zeros: OVERFLOW at p+65; fewer: TRUNCATED at len */
                        rsv_diff_expect(&t, n >= 65 ? RSV_ERR_EG_OVERFLOW : RSV_ERR_EG_TRUNCATED,
                                        0, pre + (n >= 65 ? 65 : n));
                    keep_reading(&t);
                }
                for (size_t k = 0; k < sizeof moduli / sizeof moduli[0]; k++) {
                    rsv_diff_begin(&t, d, v, "malformed",
                                   "zero run n=%llu shape=%llu (0: 0^n, 1: 0^n 1 + %llu bits), "
                                   "read_golomb(m=%llu)",
                                   n, shape, tail, moduli[k]);
                    advance(&t, pre, pl);
                    do_op(&t, M_GOLOMB, moduli[k], pl);
                    if (!shape) { /* L+1 zeros: QUOTIENT_OVERFLOW at p+L+1; fewer: TRUNCATED */
                        uint64_t L = MAXV / moduli[k];
                        int ovf = L < MAXV && n >= L + 1;
                        rsv_diff_expect(&t,
                                        ovf ? RSV_ERR_GOLOMB_QUOTIENT_OVERFLOW
                                            : RSV_ERR_GOLOMB_TRUNCATED,
                                        0, pre + (ovf ? L + 1 : n));
                    }
                    keep_reading(&t);
                }
                free(buf);
            }
        }
    }
}

void rsv_diff_suite_malformed(rsv_diff *d, const rsv_diff_opts *o)
{
    rsv_rng g = {o->seed ^ UINT64_C(0xBAD)};
    unsigned nplace = o->quick ? 3 : 8;
    spec_rows(d, &g, nplace);
    zero_runs(d, &g, nplace);
}
