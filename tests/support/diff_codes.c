/* Differential suite for valid codes (CODES.md §3, §4, §8): boundary values
 * for exp-Golomb orders 0/1/3/63 and Golomb moduli 1/3/7/2^64-1 (plus a few
 * more moduli), encoded by the codec writer AND checked bit for bit against
 * the oracle encoder, placed at 8 start offsets with random bits around,
 * decoded by both readers; every proper prefix must fail identically; the
 * longest codes must decode after a skip of 0..70 bits. */
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "reservoir/expgolomb.h"
#include "reservoir/writer.h"

#define MAX_CODE 256 /* longest code this suite builds (bits) */

typedef struct code {
    int eg;         /* 1: EG order param, 0: Golomb modulus param */
    uint64_t param; /* k or m */
    uint64_t v;
    char bits[MAX_CODE + 1]; /* the oracle's encoding */
    uint64_t len;
} code;

static void put_noise(rsv_writer *w, rsv_rng *g, uint64_t n)
{
    while (n > 0) {
        unsigned c = n > 64 ? 64 : (unsigned)n;
        uint64_t x = rsv_rng_next(g);
        if (c < 64) x &= (UINT64_C(1) << c) - 1;
        (void)rsv_put(w, x, c);
        n -= c;
    }
}

/* Reach position `pre` either by one skip or by reads (which warm the cache). */
static void advance(rsv_diff_run *t, uint64_t pre, int by_read)
{
    if (!by_read) {
        rsv_diff_skip(t, pre);
        return;
    }
    while (pre > 0) {
        unsigned c = pre > 64 ? 64 : (unsigned)pre;
        rsv_diff_read(t, c);
        pre -= c;
    }
}

static void decode(rsv_diff_run *t, const code *c, unsigned variant)
{
    if (c->eg) {
        if (c->param == 0 && (variant & 1))
            rsv_diff_read_eg0(t);
        else
            rsv_diff_read_eg(t, (unsigned)c->param);
    } else {
        if (variant & 1)
            rsv_diff_read_golomb_m(t, c->param);
        else
            rsv_diff_read_golomb(t, c->param);
    }
}

/* One placement: `off` view offset, `pre` noise bits in the view before the
 * code, `post` after it. */
static void place(rsv_diff *d, rsv_rng *g, const code *c, uint64_t off, uint64_t pre,
                  uint64_t post, unsigned variant, int prefixes)
{
    rsv_writer w;
    rsv_writer_init(&w);
    put_noise(&w, g, off + pre);
    rsv_status st;
    rsv_golomb gm;
    if (c->eg) {
        st = rsv_put_eg(&w, c->v, (unsigned)c->param);
    } else {
        (void)rsv_golomb_init(&gm, c->param);
        st = rsv_put_golomb(&w, c->v, &gm);
    }
    uint64_t wlen = rsv_writer_bits(&w) - (off + pre);
    put_noise(&w, g, post);
    const char *kind = c->eg ? "EG k" : "Golomb m";
    if (st != RSV_OK || wlen != c->len) {
        rsv_diff_fail(d,
                      "[codes] writer: put %s=%llu v=%llu: status %s, %llu bits; oracle encoder "
                      "gives %llu bits %s",
                      kind, (unsigned long long)c->param, (unsigned long long)c->v,
                      rsv_status_name((int)st), (unsigned long long)wlen,
                      (unsigned long long)c->len, c->bits);
        rsv_writer_free(&w);
        return;
    }
    uint64_t total = off + pre + c->len + post;
    size_t nb = rsv_diff_nbytes(0, total);
    uint8_t *buf = rsv_diff_alloc(nb);
    memcpy(buf, rsv_writer_data(&w), nb);
    rsv_writer_free(&w);
    /* the writer zero-pads the last byte: put noise there instead, so a reader
     * that looks past the view's end sees wrong bits */
    unsigned pad = (unsigned)(8 * nb - total);
    if (pad) buf[nb - 1] |= (uint8_t)(rsv_rng_next(g) & ((1u << pad) - 1));

    for (uint64_t j = 0; j < c->len; j++) {
        if ((char)('0' + rsv_get_bit(buf, off + pre + j)) != c->bits[j]) {
            char got[MAX_CODE + 1];
            rsv_bits_to_string(buf, off + pre, c->len, got);
            rsv_diff_fail(d, "[codes] writer bits differ from the oracle encoder: %s=%llu v=%llu: "
                             "writer %s, oracle %s",
                          kind, (unsigned long long)c->param, (unsigned long long)c->v, got,
                          c->bits);
            free(buf);
            return;
        }
    }

    rsv_view v = rsv_view_make(buf, off, pre + c->len + post);
    const char *fmt = c->eg ? "EG k=%llu v=%llu, code at view bit %llu, post=%llu"
                            : "Golomb m=%llu v=%llu, code at view bit %llu, post=%llu";
    rsv_diff_run t;
    /* single decode, then the noise after it */
    rsv_diff_begin(&t, d, v, "codes", fmt, c->param, c->v, pre, post);
    advance(&t, pre, variant & 2);
    decode(&t, c, variant);
    rsv_diff_expect(&t, RSV_OK, c->v, pre + c->len);
    rsv_diff_read(&t, post < 13 ? (unsigned)post : 13);
    rsv_diff_read_eg(&t, 0);
    rsv_diff_drain(&t);

    /* batch of 2: the code, then whatever the noise makes of the next one */
    rsv_diff_begin(&t, d, v, "codes", fmt, c->param, c->v, pre, post);
    advance(&t, pre, !(variant & 2));
    if (c->eg)
        rsv_diff_read_eg_n(&t, (unsigned)c->param, 2);
    else
        rsv_diff_read_golomb_n(&t, c->param, 2);
    rsv_diff_read_golomb(&t, 3);
    rsv_diff_drain(&t);

    /* every proper prefix of the code (view truncated) fails in both */
    if (prefixes) {
        const char *pfmt = c->eg ? "EG k=%llu v=%llu, code at view bit %llu, prefix of %llu bits"
                                 : "Golomb m=%llu v=%llu, code at view bit %llu, prefix of %llu bits";
        for (uint64_t j = 0; j < c->len; j++) {
            rsv_view pv = rsv_view_make(buf, off, pre + j);
            rsv_diff_begin(&t, d, pv, "codes", pfmt, c->param, c->v, pre, j);
            advance(&t, pre, (j ^ variant) & 1);
            decode(&t, c, variant + (unsigned)j);
            rsv_diff_expect_failure(&t);
            rsv_diff_read_eg(&t, 0);
            rsv_diff_read(&t, 0);
            rsv_diff_skip(&t, 0);
            rsv_diff_take(&t, 0);
            rsv_diff_read_bit(&t);
        }
    }
    free(buf);
}

static int make_code(rsv_diff *d, code *c, int eg, uint64_t param, uint64_t v)
{
    c->eg = eg;
    c->param = param;
    c->v = v;
    rsv_status st = eg ? rsv_oracle_encode_eg(v, param, c->bits, MAX_CODE, &c->len)
                       : rsv_oracle_encode_golomb(v, param, c->bits, MAX_CODE, &c->len);
    if (st == RSV_ERR_TOO_LARGE) return 0; /* longer than this suite builds */
    if (st != RSV_OK) {
        rsv_diff_fail(d, "[codes] oracle encoder rejected %s=%llu v=%llu: %s",
                      eg ? "EG k" : "Golomb m", (unsigned long long)param, (unsigned long long)v,
                      rsv_status_name((int)st));
        return 0;
    }
    /* the codec's length functions must agree with the oracle's encoding */
    uint64_t clen = 0;
    if (eg) {
        clen = rsv_eg_length(v, (unsigned)param);
    } else {
        rsv_golomb gm;
        (void)rsv_golomb_init(&gm, param);
        if (rsv_golomb_length(&gm, v, &clen) != RSV_OK) clen = UINT64_MAX;
    }
    if (clen != c->len)
        rsv_diff_fail(d, "[codes] codec length %llu != oracle code length %llu for %s=%llu v=%llu",
                      (unsigned long long)clen, (unsigned long long)c->len,
                      eg ? "EG k" : "Golomb m", (unsigned long long)param, (unsigned long long)v);
    return 1;
}

/* 8 placements: the code starts at absolute bit 9i + 8j (so at every bit
 * position within a byte), split randomly between view offset and noise. */
static void code_all_offsets(rsv_diff *d, rsv_rng *g, const rsv_diff_opts *o, int eg,
                             uint64_t param, uint64_t v)
{
    code c;
    if (!make_code(d, &c, eg, param, v)) return;
    for (unsigned i = 0; i < 8; i++) {
        uint64_t start = 9 * i + 8 * rsv_rng_below(g, 4);
        uint64_t off = rsv_rng_below(g, start + 1);
        uint64_t post = rsv_rng_below(g, 24);
        int prefixes = o->quick ? i == 0 : 1;
        place(d, g, &c, off, start - off, post, i, prefixes);
    }
}

static const uint64_t small_values[] = {0, 1, 2, 3, 7, 8, 15, 16, 31, 63, 64, 65, 127};
#define N_SMALL (sizeof small_values / sizeof small_values[0])

static void boundary_values(rsv_diff *d, rsv_rng *g, const rsv_diff_opts *o, int eg,
                            uint64_t param)
{
    for (size_t i = 0; i < N_SMALL; i++) code_all_offsets(d, g, o, eg, param, small_values[i]);
    for (unsigned b = 1; b <= 63; b++) {
        uint64_t p2 = UINT64_C(1) << b;
        code_all_offsets(d, g, o, eg, param, p2 - 1);
        code_all_offsets(d, g, o, eg, param, p2);
        code_all_offsets(d, g, o, eg, param, p2 + 1);
    }
    code_all_offsets(d, g, o, eg, param, UINT64_MAX - 1);
    code_all_offsets(d, g, o, eg, param, UINT64_MAX);
}

/* Golomb cutoff = (2^w - m) mod 2^64 with w = bitlen(m - 1), from §4.1. */
static uint64_t golomb_cutoff(uint64_t m)
{
    unsigned w = 0;
    for (uint64_t x = m - 1; x; x >>= 1) w++;
    return w == 64 ? (uint64_t)0 - m : (UINT64_C(1) << w) - m;
}

static void golomb_grid(rsv_diff *d, rsv_rng *g, const rsv_diff_opts *o, uint64_t m)
{
    static const uint64_t qs[] = {0, 1, 2, 7, 63, 64, 65, 127};
    uint64_t cut = golomb_cutoff(m);
    uint64_t rs[4] = {0, m - 1, cut - 1, cut};
    for (size_t qi = 0; qi < sizeof qs / sizeof qs[0]; qi++) {
        for (unsigned ri = 0; ri < 4; ri++) {
            uint64_t q = qs[qi], r = rs[ri];
            if (ri == 2 && cut == 0) continue; /* cutoff - 1 does not exist */
            if (r >= m) continue;              /* not a remainder (cutoff = 0 for m = 1) */
            if (ri > 0 && r == 0) continue;    /* duplicate of r = 0 */
            if (q > (UINT64_MAX - r) / m) continue; /* q*m + r > MAX: no such value */
            code_all_offsets(d, g, o, 0, m, q * m + r);
        }
    }
}

void rsv_diff_suite_codes(rsv_diff *d, const rsv_diff_opts *o)
{
    rsv_rng g = {o->seed ^ UINT64_C(0xC0DE5)};
    static const unsigned orders[] = {0, 1, 3, 63};
    for (size_t i = 0; i < sizeof orders / sizeof orders[0]; i++)
        boundary_values(d, &g, o, 1, orders[i]);

    /* the required moduli, then a few more shapes (Rice, 2^32, 2^63, 2^63+1) */
    static const uint64_t moduli[] = {1, 3, 7, UINT64_MAX, 2, 5, 8, UINT64_C(1) << 32,
                                      UINT64_C(1) << 63, (UINT64_C(1) << 63) + 1};
    for (size_t i = 0; i < sizeof moduli / sizeof moduli[0]; i++) {
        golomb_grid(d, &g, o, moduli[i]);
        /* boundary values too, where the code is short enough to build */
        boundary_values(d, &g, o, 0, moduli[i]);
    }

    /* the longest codes after a skip (or reads) of 0..70 bits */
    static const struct {
        int eg;
        uint64_t param;
    } longest[] = {{1, 0}, {1, 1}, {1, 3}, {1, 63}, {0, UINT64_MAX}, {0, UINT64_C(1) << 63}};
    for (size_t i = 0; i < sizeof longest / sizeof longest[0]; i++) {
        code c;
        if (!make_code(d, &c, longest[i].eg, longest[i].param, UINT64_MAX)) continue;
        for (uint64_t s = 0; s <= 70; s++) {
            uint64_t off = rsv_rng_below(&g, 8) + 8 * rsv_rng_below(&g, 3);
            place(d, &g, &c, off, s, rsv_rng_below(&g, 10), (unsigned)s, 0);
        }
    }
}
