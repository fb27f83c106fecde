/* Bounded-exhaustive reader enumeration (CODES.md §5.3; docs/testing.md has
 * the exact definition and the case counts).
 *
 * Every bit string x of length L = 0..max_len, at every start alignment
 * s = 0..7 (the string's first bit is bit s of its byte), in two placements:
 *   mid: the view holds A = 72..135 context bits, x, then B = 72..327
 *        context bits (so the string is at least 9 bytes from both ends);
 *   end: A context bits, then x ends the view (B = 0): every view whose last
 *        0..max_len bits are arbitrary, i.e. every truncation inside or
 *        right after a string of that length.
 * The view's offset (0..7), A, B and the context bits vary deterministically
 * per placement (SplitMix64 of the placement): random, runs of the
 * complement of the string's edge bits, a zero run after the string (long
 * quotients, overflows), or zeros before and ones after. The view's last
 * byte is the last byte of an exact-size heap block (ASan sees any load past
 * it).
 *
 * Each operation is one engine case on that view: reach the string's start
 * (seek(A); skip(A) from 0; or seek(A - d) then read(d), d = 1..63, so the
 * cache already holds the string's first bits), run the operation, run it
 * again, then read_eg(0): the second and third reads continue after any
 * failure. Operations (families, for splitting the run):
 *   FIXED:  read_bit; read(w), w = 0..64
 *   EG:     read_eg(k), k = 0, 1, 2, 3, 7, 31, 62, 63; read_eg0
 *   GOLOMB: read_golomb(m) and read_golomb_m(m), m in k_moduli below
 *   SPAN:   skip(n) and take(n), n = 0..L+1; seek(A + j), j = 0..L+1, and
 *           seek(len + 1) (fails)
 *   BATCH:  read_n, read_eg_n and read_golomb_n with counts 1..9 and 64; the
 *           width / order / modulus cycles per placement over 1..64, the EG
 *           orders and the moduli above.
 * No allocation per case. */
#include <stdlib.h>
#include <string.h>

#include "diff.h"

#define BUF_BYTES 80 /* off + A + L + B <= 7 + 135 + 28 + 327 bits */
#define NORDERS (sizeof ex_orders / sizeof *ex_orders)
#define NMODULI (sizeof ex_moduli / sizeof *ex_moduli)
#define P2(k) (UINT64_C(1) << (k))

static const uint64_t ex_orders[] = {0, 1, 2, 3, 7, 31, 62, 63};
/* every m in 1..17 (1..16 is the reader's per-modulus remainder table, 17 the
 * first modulus past it), 2^k and 2^k +- 1 for k = 32, 63, and 2^64 - 1 */
static const uint64_t ex_moduli[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12,
                                     13, 14, 15, 16, 17, P2(32) - 1, P2(32), P2(32) + 1,
                                     P2(63) - 1, P2(63), P2(63) + 1, UINT64_MAX};
static const size_t ex_counts[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 64};
#define NCOUNTS (sizeof ex_counts / sizeof *ex_counts)

static const char *const FMT =
    "bit string of length %llu = 0x%llx (MSB first) at start alignment %llu; placement "
    "0x%llx = end<<24 | A<<12 | B (A context bits before it, B after)";

/* One placement: the view and where the string starts in it. */
typedef struct place {
    rsv_view v;
    uint64_t a; /* position of the string's first bit (context bits before it) */
    uint64_t L, x, s, tag;
} place;

typedef struct walker {
    rsv_diff *d;
    unsigned families;
    uint64_t ncase; /* varies the approach deterministically */
    uint64_t nplace;
} walker;

static void put_bit(uint8_t *buf, uint64_t i, unsigned b)
{
    uint8_t m = (uint8_t)(0x80u >> (i & 7));
    buf[i >> 3] = (uint8_t)(b ? buf[i >> 3] | m : buf[i >> 3] & ~m);
}

/* Fill buf[0..BUF_BYTES) with the placement's context and x, and return the
 * view (its last byte is buf[BUF_BYTES - 1]). */
static place build(uint8_t *buf, uint64_t seed, unsigned L, uint64_t x, unsigned s, int end)
{
    rsv_rng g = {seed};
    uint64_t r0 = rsv_rng_next(&g);
    unsigned o = (unsigned)(r0 & 7), q = (unsigned)((r0 >> 3) & 7);
    uint64_t a = 72 + ((s - o) & 7u) + 8 * q; /* (o + a) % 8 == s */
    uint64_t b = end ? 0 : 72 + ((r0 >> 6) & 255);
    uint64_t len = a + L + b;
    size_t nb = (size_t)((o + len + 7) / 8);
    uint8_t *data = buf + BUF_BYTES - nb;
    for (size_t i = 0; i < BUF_BYTES; i += 8) {
        uint64_t w = rsv_rng_next(&g);
        memcpy(buf + i, &w, 8);
    }
    uint64_t s0 = 8 * (uint64_t)(BUF_BYTES - nb) + o + a; /* buffer bit of x's first bit */
    unsigned first = L ? (unsigned)(x >> (L - 1)) & 1u : 0, last = L ? (unsigned)x & 1u : 1;
    unsigned run = 1 + (unsigned)((r0 >> 14) % 70);
    switch ((r0 >> 24) & 3) {
    case 1: /* complement runs at both edges */
        for (unsigned i = 1; i <= run && i <= s0; i++) put_bit(buf, s0 - i, !first);
        for (unsigned i = 0; i < run && s0 + L + i < 8 * BUF_BYTES; i++) put_bit(buf, s0 + L + i, !last);
        break;
    case 2: /* a zero run after the string */
        for (unsigned i = 0; i < run && s0 + L + i < 8 * BUF_BYTES; i++) put_bit(buf, s0 + L + i, 0);
        break;
    case 3: /* zeros before, ones after */
        for (unsigned i = 1; i <= run && i <= s0; i++) put_bit(buf, s0 - i, 0);
        for (unsigned i = 0; i < run && s0 + L + i < 8 * BUF_BYTES; i++) put_bit(buf, s0 + L + i, 1);
        break;
    default: break; /* random */
    }
    for (unsigned i = 0; i < L; i++) put_bit(buf, s0 + i, (unsigned)(x >> (L - 1 - i)) & 1u);
    place p;
    p.v = rsv_view_make(data, o, len);
    p.a = a;
    p.L = L;
    p.x = x;
    p.s = s;
    p.tag = ((uint64_t)end << 24) | (a << 12) | b;
    return p;
}

/* Start a case and bring the reader to the string's start. */
static void approach(walker *w, rsv_diff_run *t, const place *p, const char *suite)
{
    uint64_t c = w->ncase++;
    rsv_diff_begin(t, w->d, p->v, suite, FMT, p->L, p->x, p->s, p->tag);
    switch (c % 3) {
    case 0: rsv_diff_seek(t, p->a); break;
    case 1: rsv_diff_skip(t, p->a); break;
    default: {
        uint64_t dd = 1 + (c / 3) % 63;
        rsv_diff_seek(t, p->a - dd);
        rsv_diff_read(t, dd);
        break;
    }
    }
}

/* The operation, again, then read_eg(0). */
static void twice(walker *w, const place *p, const char *suite, rsv_diff_step st)
{
    rsv_diff_run t;
    approach(w, &t, p, suite);
    rsv_diff_apply(&t, &st);
    rsv_diff_apply(&t, &st);
    rsv_diff_read_eg(&t, 0);
}

static rsv_diff_step step(rsv_diff_op op, uint64_t param, uint64_t count)
{
    rsv_diff_step st = {op, param, count};
    return st;
}

static void run_place(walker *w, const place *p)
{
    const unsigned f = w->families;
    if (f & RSV_DIFF_EX_FIXED) {
        twice(w, p, "exhaustive/fixed", step(RSV_DOP_READ_BIT, 1, 0));
        for (uint64_t wd = 0; wd <= 64; wd++) twice(w, p, "exhaustive/fixed", step(RSV_DOP_READ, wd, 0));
    }
    if (f & RSV_DIFF_EX_EG) {
        for (size_t i = 0; i < NORDERS; i++)
            twice(w, p, "exhaustive/eg", step(RSV_DOP_READ_EG, ex_orders[i], 0));
        twice(w, p, "exhaustive/eg", step(RSV_DOP_READ_EG0, 0, 0));
    }
    if (f & RSV_DIFF_EX_GOLOMB) {
        for (size_t i = 0; i < NMODULI; i++) {
            twice(w, p, "exhaustive/golomb", step(RSV_DOP_GOLOMB, ex_moduli[i], 0));
            twice(w, p, "exhaustive/golomb", step(RSV_DOP_GOLOMB_M, ex_moduli[i], 0));
        }
    }
    if (f & RSV_DIFF_EX_SPAN) {
        for (uint64_t n = 0; n <= p->L + 1; n++) {
            twice(w, p, "exhaustive/skip", step(RSV_DOP_SKIP, n, 0));
            twice(w, p, "exhaustive/take", step(RSV_DOP_TAKE, n, 0));
            twice(w, p, "exhaustive/seek", step(RSV_DOP_SEEK, p->a + n, 0));
        }
        twice(w, p, "exhaustive/seek", step(RSV_DOP_SEEK, p->v.len + 1, 0));
    }
    if (f & RSV_DIFF_EX_BATCH) {
        uint64_t k = w->nplace;
        for (size_t i = 0; i < NCOUNTS; i++) {
            twice(w, p, "exhaustive/batch", step(RSV_DOP_READ_N, 1 + k % 64, ex_counts[i]));
            twice(w, p, "exhaustive/batch", step(RSV_DOP_EG_N, ex_orders[k % NORDERS], ex_counts[i]));
            twice(w, p, "exhaustive/batch",
                  step(RSV_DOP_GOLOMB_N, ex_moduli[k % NMODULI], ex_counts[i]));
        }
    }
    w->nplace++;
}

uint64_t rsv_diff_exhaustive_places(unsigned max_len)
{
    return 2 * 8 * ((UINT64_C(2) << max_len) - 1); /* 2 placements x 8 alignments x 2^(L+1) - 1 strings */
}

/* Cases per placement by family, written out from the list at the top (not
 * counted by running the loops), so a test can insist all of them ran. */
uint64_t rsv_diff_exhaustive_cases(unsigned max_len, unsigned families)
{
    uint64_t per = 0, total = 0;
    if (families & RSV_DIFF_EX_FIXED) per += 1 + 65;
    if (families & RSV_DIFF_EX_EG) per += 8 + 1;
    if (families & RSV_DIFF_EX_GOLOMB) per += 2 * 24;
    if (families & RSV_DIFF_EX_BATCH) per += 3 * 10;
    total = per * rsv_diff_exhaustive_places(max_len);
    if (families & RSV_DIFF_EX_SPAN) /* 3 (L + 2) + 1 per placement of a length-L string */
        for (unsigned L = 0; L <= max_len; L++) total += 2 * 8 * (UINT64_C(1) << L) * (3 * (L + 2) + 1);
    return total;
}

void rsv_diff_suite_exhaustive(rsv_diff *d, const rsv_diff_opts *o, unsigned families)
{
    unsigned max_len = o->max_len > RSV_DIFF_LIMIT_MAX_LEN ? RSV_DIFF_LIMIT_MAX_LEN : o->max_len;
    uint8_t *buf = rsv_diff_alloc(BUF_BYTES);
    walker w = {d, families, 0, 0};
    for (unsigned L = 0; L <= max_len; L++) {
        for (unsigned s = 0; s < 8; s++) {
            for (uint64_t x = 0; x < (UINT64_C(1) << L); x++) {
                for (int end = 0; end < 2; end++) {
                    uint64_t seed = o->seed ^ rsv_mix64(((uint64_t)L << 40) ^ ((uint64_t)s << 36) ^
                                                        ((uint64_t)end << 34) ^ x);
                    place p = build(buf, seed, L, x, s, end);
                    run_place(&w, &p);
                }
            }
        }
    }
    free(buf);
}
