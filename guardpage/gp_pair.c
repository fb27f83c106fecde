/* Differential pair: fast reader vs oracle on the same (guarded) view. */
#include "gp_pair.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "guardpage.h"
#include "load_window.h"
#include "reservoir/golomb.h"

static uint64_t g_passed, g_failed;

void gp_pass(void) { g_passed++; }

void gp_check(int ok, const char *fmt, ...)
{
    if (ok) {
        g_passed++;
        return;
    }
    g_failed++;
    if (g_failed > 40) return; /* the first few name the problem; the rest only count */
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FAIL [%s] ", rsv_guard_case());
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

uint64_t gp_failures(void) { return g_failed; }

int gp_report(void)
{
    printf("%" PRIu64 " passed, %" PRIu64 " failed\n", g_passed, g_failed);
    fflush(stdout);
    return g_failed ? 1 : 0;
}

void gp_pair_init(gp_pair *x, rsv_view v)
{
    x->v = v;
    x->p = 0;
    rsv_lw_none(); /* construction loads nothing (A3) */
    rsv_reader_init(&x->r, v);
    rsv_lw_end();
}

/* Compare the fast reader's outcome with the oracle's and move the oracle on.
 * On a position mismatch the fast reader is re-seated at the oracle position
 * so one disagreement does not cascade into every later comparison. */
static void compare(gp_pair *x, const char *op, uint64_t param, uint64_t p_before,
                    rsv_oracle_result o, rsv_status fst, uint64_t fval)
{
    uint64_t fp = rsv_reader_position(&x->r);
    int ok = fst == o.status && (o.status != RSV_OK || fval == o.value) && fp == o.pos &&
             rsv_reader_remaining(&x->r) == x->v.len - o.pos &&
             rsv_reader_empty(&x->r) == (o.pos == x->v.len);
    x->p = o.pos;
    if (ok) { /* the common case, without evaluating the message's arguments */
        gp_pass();
        return;
    }
    gp_check(0,
             "%s(%" PRIu64 ") at p=%" PRIu64 " (view off=%" PRIu64 " len=%" PRIu64
             "): oracle %s value=%" PRIu64 " pos=%" PRIu64 "; fast %s value=%" PRIu64
             " pos=%" PRIu64,
             op, param, p_before, x->v.off, x->v.len, rsv_status_name((int)o.status), o.value,
             o.pos, rsv_status_name((int)fst), fst == RSV_OK ? fval : 0, fp);
    if (fp != o.pos) rsv_reader_seek(&x->r, o.pos);
}

/* The fast API takes `unsigned` widths and orders; values that do not fit are
 * clamped to one that is still invalid, keeping the expected error the same. */
static unsigned clamp_u(uint64_t v) { return v > 1000 ? 1000u : (unsigned)v; }

rsv_status gp_read(gp_pair *x, uint64_t w)
{
    uint64_t p0 = x->p;
    rsv_oracle_result o = rsv_oracle_read(x->v, p0, w);
    uint64_t val = 0;
    rsv_lw_decode(x->v, x->p);
    rsv_status st = rsv_read(&x->r, clamp_u(w), &val);
    rsv_lw_end();
    compare(x, "read", w, p0, o, st, val);
    return o.status;
}

rsv_status gp_read_bit(gp_pair *x)
{
    uint64_t p0 = x->p;
    rsv_oracle_result o = rsv_oracle_read(x->v, p0, 1);
    unsigned bit = 0;
    rsv_lw_decode(x->v, x->p);
    rsv_status st = rsv_read_bit(&x->r, &bit);
    rsv_lw_end();
    compare(x, "read_bit", 1, p0, o, st, bit);
    return o.status;
}

rsv_status gp_read_eg(gp_pair *x, uint64_t k)
{
    uint64_t p0 = x->p;
    rsv_oracle_result o = rsv_oracle_read_eg(x->v, p0, k);
    uint64_t val = 0;
    rsv_lw_decode(x->v, x->p);
    rsv_status st = rsv_read_eg(&x->r, clamp_u(k), &val);
    rsv_lw_end();
    compare(x, "read_eg", k, p0, o, st, val);
    return o.status;
}

rsv_status gp_read_eg0(gp_pair *x)
{
    uint64_t p0 = x->p;
    rsv_oracle_result o = rsv_oracle_read_eg(x->v, p0, 0);
    uint64_t val = 0;
    rsv_lw_decode(x->v, x->p);
    rsv_status st = rsv_read_eg0(&x->r, &val);
    rsv_lw_end();
    compare(x, "read_eg0", 0, p0, o, st, val);
    return o.status;
}

rsv_status gp_read_golomb(gp_pair *x, uint64_t m)
{
    uint64_t p0 = x->p;
    rsv_oracle_result o = rsv_oracle_read_golomb(x->v, p0, m);
    rsv_golomb g;
    rsv_golomb_init(&g, m); /* m = 0 leaves an invalid struct: BAD_MODULUS on use */
    uint64_t val = 0;
    rsv_lw_decode(x->v, x->p);
    rsv_status st = rsv_read_golomb(&x->r, &g, &val);
    rsv_lw_end();
    compare(x, "read_golomb", m, p0, o, st, val);
    return o.status;
}

rsv_status gp_read_golomb_m(gp_pair *x, uint64_t m)
{
    uint64_t p0 = x->p;
    rsv_oracle_result o = rsv_oracle_read_golomb(x->v, p0, m);
    uint64_t val = 0;
    rsv_lw_decode(x->v, x->p);
    rsv_status st = rsv_read_golomb_m(&x->r, m, &val);
    rsv_lw_end();
    compare(x, "read_golomb_m", m, p0, o, st, val);
    return o.status;
}

rsv_status gp_skip(gp_pair *x, uint64_t n)
{
    uint64_t p0 = x->p;
    rsv_oracle_result o = rsv_oracle_skip(x->v, p0, n);
    rsv_lw_none();
    rsv_status st = rsv_skip(&x->r, n);
    rsv_lw_end();
    compare(x, "skip", n, p0, o, st, 0);
    return o.status;
}

rsv_status gp_take(gp_pair *x, uint64_t n, rsv_view *sub)
{
    uint64_t p0 = x->p;
    rsv_view so = rsv_view_make(NULL, 0, 0);
    rsv_oracle_result o = rsv_oracle_take(x->v, p0, n, &so);
    /* A sentinel the fast reader must leave alone on failure. */
    static const uint8_t marker;
    rsv_view sentinel = rsv_view_make(&marker, 12345, 678);
    rsv_view sf = sentinel;
    rsv_lw_none();
    rsv_status st = rsv_take(&x->r, n, &sf);
    rsv_lw_end();
    compare(x, "take", n, p0, o, st, 0);
    if (o.status == RSV_OK && st == RSV_OK) {
        gp_check(rsv_view_identical(sf, so),
                 "take(%" PRIu64 ") at p=%" PRIu64 ": sub-view (%p,%" PRIu64 ",%" PRIu64
                 ") not identical to oracle (%p,%" PRIu64 ",%" PRIu64 ")",
                 n, p0, (const void *)sf.data, sf.off, sf.len, (const void *)so.data, so.off,
                 so.len);
        if (sub) *sub = so;
    } else if (st != RSV_OK) {
        gp_check(rsv_view_identical(sf, sentinel),
                 "take(%" PRIu64 ") at p=%" PRIu64 " failed but wrote the sub-view", n, p0);
    }
    return o.status;
}

/* ---- batch decoders ------------------------------------------------------- */

static uint64_t g_out_o[GP_BATCH_MAX], g_out_f[GP_BATCH_MAX];

static void compare_batch(gp_pair *x, const char *op, uint64_t param, uint64_t p0,
                          rsv_oracle_result o, size_t done_o, rsv_status st, size_t done_f)
{
    compare(x, op, param, p0, o, st, 0); /* value unused for batches */
    int same = done_o == done_f;
    size_t bad = 0;
    for (size_t i = 0; same && i < done_o; i++)
        if (g_out_o[i] != g_out_f[i]) {
            same = 0;
            bad = i;
        }
    gp_check(same,
             "%s(%" PRIu64 ") at p=%" PRIu64 ": oracle done=%zu, fast done=%zu, first differing "
             "value index %zu",
             op, param, p0, done_o, done_f, bad);
}

static size_t clamp_count(size_t count) { return count > GP_BATCH_MAX ? GP_BATCH_MAX : count; }

rsv_status gp_read_n(gp_pair *x, uint64_t w, size_t count)
{
    count = clamp_count(count);
    uint64_t p0 = x->p;
    size_t dono = 0, donf = (size_t)-1;
    rsv_oracle_result o = rsv_oracle_read_n(x->v, p0, w, g_out_o, count, &dono);
    rsv_lw_decode(x->v, x->p);
    rsv_status st = rsv_read_n(&x->r, clamp_u(w), g_out_f, count, &donf);
    rsv_lw_end();
    compare_batch(x, "read_n", w, p0, o, dono, st, donf);
    return o.status;
}

rsv_status gp_read_eg_n(gp_pair *x, uint64_t k, size_t count)
{
    count = clamp_count(count);
    uint64_t p0 = x->p;
    size_t dono = 0, donf = (size_t)-1;
    rsv_oracle_result o = rsv_oracle_read_eg_n(x->v, p0, k, g_out_o, count, &dono);
    rsv_lw_decode(x->v, x->p);
    rsv_status st = rsv_read_eg_n(&x->r, clamp_u(k), g_out_f, count, &donf);
    rsv_lw_end();
    compare_batch(x, "read_eg_n", k, p0, o, dono, st, donf);
    return o.status;
}

rsv_status gp_read_golomb_n(gp_pair *x, uint64_t m, size_t count)
{
    count = clamp_count(count);
    uint64_t p0 = x->p;
    size_t dono = 0, donf = (size_t)-1;
    rsv_oracle_result o = rsv_oracle_read_golomb_n(x->v, p0, m, g_out_o, count, &dono);
    rsv_golomb g;
    rsv_golomb_init(&g, m);
    rsv_lw_decode(x->v, x->p);
    rsv_status st = rsv_read_golomb_n(&x->r, &g, g_out_f, count, &donf);
    rsv_lw_end();
    compare_batch(x, "read_golomb_n", m, p0, o, dono, st, donf);
    return o.status;
}

/* ---- composite walks ------------------------------------------------------ */

void gp_edge_ops(gp_pair *x)
{
    gp_pair y;
    y = *x; gp_read(&y, 0);
    y = *x; gp_take(&y, 0, NULL);
    y = *x; gp_skip(&y, 0);
    y = *x; gp_read(&y, 1);
    y = *x; gp_read_bit(&y);
    y = *x; gp_take(&y, 1, NULL);
    y = *x; gp_skip(&y, 1);
    y = *x; gp_read_eg0(&y);
    y = *x; gp_read_eg(&y, 63);
    y = *x; gp_read_golomb(&y, 1);
    y = *x; gp_read_golomb(&y, UINT64_MAX);
}

void gp_drain_code(gp_pair *x, int golomb, uint64_t param)
{
    unsigned i = 0;
    while (x->p < x->v.len) {
        uint64_t before = x->p;
        /* Alternate the two entry points so both the inline decoder and its
         * sibling (eg0 / golomb_m) meet every tail situation. */
        if (golomb && (i & 1))
            gp_read_golomb_m(x, param);
        else if (golomb)
            gp_read_golomb(x, param);
        else if (param == 0 && (i & 1))
            gp_read_eg0(x);
        else
            gp_read_eg(x, param);
        i++;
        if (x->p <= before) {
            gp_check(0, "%s(%" PRIu64 ") made no progress at p=%" PRIu64,
                     golomb ? "golomb" : "eg", param, before);
            return;
        }
    }
    /* At p = len: nothing may be loaded, and the decode must fail. */
    if (golomb)
        gp_read_golomb(x, param);
    else
        gp_read_eg(x, param);
}
