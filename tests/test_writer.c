/* The bit writer (CODES.md §2, §3.1, §4.1, §6.2): random round trips through
 * the codec reader and the oracle, code lengths against the spec's formulas
 * (computed here independently), bits against the oracle encoder, every
 * rejection leaving the contents unchanged, fixed buffers, finish(), and the
 * bulk appenders (zeros, views, bytes) at unaligned positions. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "reservoir/expgolomb.h"
#include "reservoir/oracle.h"
#include "reservoir/reader.h"
#include "reservoir/record.h"
#include "reservoir/writer.h"
#include "testutil.h"

#define MAX64 UINT64_MAX
#define ENC_CAP 1024 /* longest code used below: quotients <= 300 plus 64 bits */

typedef enum code_kind { K_FIXED, K_EG, K_GOLOMB } code_kind;

typedef struct item {
    code_kind kind;
    uint64_t param;
    uint64_t value;
    uint64_t start; /* bit position in the writer */
    uint64_t len;   /* expected length by the spec's formula */
} item;

/* bitlen(x) of CODES.md §0, written as a loop on purpose (no clz). */
static unsigned bitlen(uint64_t x)
{
    unsigned n = 0;
    for (; x; x >>= 1) n++;
    return n;
}

/* §3.1: 2·bitlen(q+1) − 1 + k, with bitlen(2^64) = 65. */
static uint64_t spec_eg_len(uint64_t v, unsigned k)
{
    uint64_t q = k ? v >> k : v;
    unsigned b = q == MAX64 ? 65 : bitlen(q + 1);
    return 2u * b - 1u + k;
}

/* §4.1: q + 1 + (w−1 if r < cutoff else w); caller keeps q small. */
static uint64_t spec_golomb_len(uint64_t v, uint64_t m)
{
    unsigned w = bitlen(m - 1);
    uint64_t cutoff = w == 64 ? 0 - m : (UINT64_C(1) << w) - m;
    uint64_t q = v / m, r = v % m;
    return q + 1 + (r < cutoff ? w - 1u : w);
}

static uint64_t rand_bits(rsv_rng *rng, unsigned w)
{
    return w == 0 ? 0 : rsv_rng_next(rng) >> (64 - w);
}

/* A value with a random bit length, so that short and long codes both occur. */
static uint64_t rand_value(rsv_rng *rng)
{
    return rand_bits(rng, (unsigned)rsv_rng_below(rng, 65));
}

/* One item through the writer, the codec reader, the oracle decoder and the
 * oracle encoder (the `kind` picks the fixed, EG or Golomb entry point). */
static rsv_status put_item(rsv_writer *w, const item *it)
{
    unsigned u = (unsigned)it->param;
    return it->kind == K_FIXED ? rsv_put(w, it->value, u)
           : it->kind == K_EG  ? rsv_put_eg(w, it->value, u)
                               : rsv_put_golomb_m(w, it->value, it->param);
}

static rsv_status codec_get(rsv_reader *r, const item *it, uint64_t *out)
{
    unsigned u = (unsigned)it->param;
    return it->kind == K_FIXED ? rsv_read(r, u, out)
           : it->kind == K_EG  ? rsv_read_eg(r, u, out)
                               : rsv_read_golomb_m(r, it->param, out);
}

static rsv_oracle_result oracle_get(rsv_view v, uint64_t p, const item *it)
{
    return it->kind == K_FIXED ? rsv_oracle_read(v, p, it->param)
           : it->kind == K_EG  ? rsv_oracle_read_eg(v, p, it->param)
                               : rsv_oracle_read_golomb(v, p, it->param);
}

static rsv_status oracle_encode(const item *it, char *bits, uint64_t *n)
{
    return it->kind == K_FIXED ? rsv_oracle_encode_fixed(it->value, it->param, bits, ENC_CAP, n)
           : it->kind == K_EG  ? rsv_oracle_encode_eg(it->value, it->param, bits, ENC_CAP, n)
                               : rsv_oracle_encode_golomb(it->value, it->param, bits, ENC_CAP, n);
}

#define ITEM_FMT "kind %d param %llu value %llu"
#define ITEM_ARGS(it) \
    (int)(it)->kind, (unsigned long long)(it)->param, (unsigned long long)(it)->value

/* Write all items into one writer, then check lengths, the bits against the
 * oracle encoder, and read everything back with both readers. */
static void round_trip(item *items, size_t count)
{
    static char want[ENC_CAP + 1], got[ENC_CAP + 1];
    rsv_writer w;
    rsv_writer_init(&w);
    for (size_t i = 0; i < count; i++) {
        item *it = &items[i];
        it->start = rsv_writer_bits(&w);
        cr_assert_eq(put_item(&w, it), RSV_OK, ITEM_FMT, ITEM_ARGS(it));
        cr_assert_eq(rsv_writer_bits(&w) - it->start, it->len, ITEM_FMT ": length %llu, spec %llu",
                     ITEM_ARGS(it), (unsigned long long)(rsv_writer_bits(&w) - it->start),
                     (unsigned long long)it->len);
    }
    const uint8_t *d = rsv_writer_data(&w);
    for (size_t i = 0; i < count; i++) {
        const item *it = &items[i];
        uint64_t n = 0;
        cr_assert_eq(oracle_encode(it, want, &n), RSV_OK);
        cr_assert_eq(n, it->len);
        rsv_bits_to_string(d, it->start, it->len, got);
        cr_assert_str_eq(got, want, ITEM_FMT, ITEM_ARGS(it));
    }
    rsv_view v = rsv_writer_view(&w);
    rsv_reader r;
    rsv_reader_init(&r, v);
    uint64_t p = 0;
    for (size_t i = 0; i < count; i++) {
        const item *it = &items[i];
        uint64_t x = ~it->value;
        cr_assert_eq(codec_get(&r, it, &x), RSV_OK, ITEM_FMT, ITEM_ARGS(it));
        cr_assert_eq(x, it->value, ITEM_FMT ": read %llu", ITEM_ARGS(it), (unsigned long long)x);
        cr_assert_eq(rsv_reader_position(&r), it->start + it->len);
        rsv_oracle_result o = oracle_get(v, p, it);
        cr_assert_eq(o.status, RSV_OK, "oracle: " ITEM_FMT, ITEM_ARGS(it));
        cr_assert_eq(o.value, it->value, "oracle: " ITEM_FMT, ITEM_ARGS(it));
        cr_assert_eq(o.pos, it->start + it->len);
        p = o.pos;
    }
    cr_assert(rsv_reader_empty(&r));
    rsv_writer_free(&w);
}

#define PER_PARAM 48

Test(writer_round_trip, fixed_widths_0_to_64)
{
    rsv_rng rng = {1};
    static item items[65 * PER_PARAM];
    size_t n = 0;
    for (unsigned wd = 0; wd <= 64; wd++) {
        for (int i = 0; i < PER_PARAM; i++) {
            /* 0 and 2^w − 1 first: w = 0 must accept 0, w = 64 must accept MAX */
            uint64_t v = i == 0 ? 0 : i == 1 ? (wd ? MAX64 >> (64 - wd) : 0) : rand_bits(&rng, wd);
            items[n++] = (item){K_FIXED, wd, v, 0, wd};
        }
    }
    /* Shuffle so that every width meets every alignment. */
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)rsv_rng_below(&rng, i + 1);
        item t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
    round_trip(items, n);
}

Test(writer_round_trip, eg_orders_0_to_63)
{
    rsv_rng rng = {2};
    static item items[64 * PER_PARAM];
    size_t n = 0;
    for (unsigned k = 0; k <= 63; k++) {
        for (int i = 0; i < PER_PARAM; i++) {
            uint64_t v = i == 0 ? 0 : i == 1 ? MAX64 : i == 2 ? MAX64 - 1 : rand_value(&rng);
            items[n++] = (item){K_EG, k, v, 0, spec_eg_len(v, k)};
            cr_assert_eq(rsv_eg_length(v, k), spec_eg_len(v, k), "k %u v %llu", k,
                         (unsigned long long)v);
            uint64_t ol = 0;
            cr_assert_eq(rsv_oracle_eg_length(v, k, &ol), RSV_OK);
            cr_assert_eq(ol, spec_eg_len(v, k));
        }
    }
    round_trip(items, n);
}

/* Values q·m + r with small random quotients (the run stays short), plus the
 * remainder boundaries 0, cutoff−1, cutoff, m−1 and MAX when its quotient is
 * small. */
static size_t golomb_items(rsv_rng *rng, uint64_t m, item *out)
{
    unsigned w = bitlen(m - 1);
    uint64_t cutoff = w == 64 ? 0 - m : (UINT64_C(1) << w) - m;
    uint64_t L = MAX64 / m;
    uint64_t rs[6] = {0, m - 1, cutoff ? cutoff - 1 : 0, cutoff < m ? cutoff : 0,
                      rsv_rng_below(rng, m), rsv_rng_below(rng, m)};
    size_t n = 0;
    for (int i = 0; i < PER_PARAM; i++) {
        uint64_t qmax = L < 300 ? L : 300;
        uint64_t q = i < 6 ? (uint64_t)i % 3 : rsv_rng_below(rng, qmax + 1);
        if (q > L) q = L; /* m > MAX/2 allows only quotients 0 and 1 */
        uint64_t r = rs[i % 6];
        if (q == L && r > MAX64 - q * m) r = MAX64 - q * m; /* stay <= MAX */
        out[n++] = (item){K_GOLOMB, m, q * m + r, 0, 0};
    }
    if (L <= 300) out[n++] = (item){K_GOLOMB, m, MAX64, 0, 0};
    for (size_t i = 0; i < n; i++) {
        out[i].len = spec_golomb_len(out[i].value, m);
        rsv_golomb g;
        uint64_t gl = 0, ol = 0;
        cr_assert_eq(rsv_golomb_init(&g, m), RSV_OK);
        cr_assert_eq(rsv_golomb_length(&g, out[i].value, &gl), RSV_OK);
        cr_assert_eq(gl, out[i].len, ITEM_FMT, ITEM_ARGS(&out[i]));
        cr_assert_eq(rsv_oracle_golomb_length(out[i].value, m, &ol), RSV_OK);
        cr_assert_eq(ol, out[i].len);
    }
    return n;
}

Test(writer_round_trip, golomb_moduli)
{
    rsv_rng rng = {3};
    uint64_t moduli[96] = {1, 3, 5, 7, MAX64, MAX64 - 1, (UINT64_C(1) << 63) + 1};
    size_t nm = 7;
    for (unsigned j = 1; j <= 63; j++) moduli[nm++] = UINT64_C(1) << j; /* Rice, incl. 2^63 */
    while (nm < 96) moduli[nm++] = rand_value(&rng) | 1; /* random, never 0 */
    static item items[96 * (PER_PARAM + 1)];
    size_t n = 0;
    for (size_t i = 0; i < nm; i++) n += golomb_items(&rng, moduli[i], items + n);
    round_trip(items, n);
}

/* All three kinds interleaved, so every code starts at every alignment. */
Test(writer_round_trip, mixed_sequence)
{
    rsv_rng rng = {4};
    static item items[3000];
    for (size_t i = 0; i < 3000; i++) {
        unsigned kind = (unsigned)rsv_rng_below(&rng, 3);
        if (kind == 0) {
            unsigned wd = (unsigned)rsv_rng_below(&rng, 65);
            items[i] = (item){K_FIXED, wd, rand_bits(&rng, wd), 0, wd};
        } else if (kind == 1) {
            unsigned k = (unsigned)rsv_rng_below(&rng, 64);
            uint64_t v = rand_value(&rng);
            items[i] = (item){K_EG, k, v, 0, spec_eg_len(v, k)};
        } else {
            uint64_t m = rand_value(&rng);
            if (m == 0) m = 7;
            uint64_t q = rsv_rng_below(&rng, 20), L = MAX64 / m;
            if (q > L) q = L;
            uint64_t r = rsv_rng_below(&rng, m);
            if (r > MAX64 - q * m) r = MAX64 - q * m;
            uint64_t v = q * m + r;
            items[i] = (item){K_GOLOMB, m, v, 0, spec_golomb_len(v, m)};
        }
    }
    round_trip(items, 3000);
}

/* ---- rejections (§2, §4.1, §6.2) ---------------------------------------- */

typedef struct snapshot {
    uint64_t bits;
    size_t nbytes;
    uint8_t bytes[64];
} snapshot;

static void take_snapshot(const rsv_writer *w, snapshot *s)
{
    s->bits = rsv_writer_bits(w);
    s->nbytes = rsv_writer_nbytes(w);
    cr_assert_leq(s->nbytes, sizeof s->bytes);
    if (s->nbytes) memcpy(s->bytes, rsv_writer_data(w), s->nbytes);
}

static void assert_unchanged(const rsv_writer *w, const snapshot *s, const char *what)
{
    cr_assert_eq(rsv_writer_bits(w), s->bits, "%s changed the bit count", what);
    cr_assert_eq(rsv_writer_nbytes(w), s->nbytes, "%s", what);
    if (s->nbytes)
        cr_assert_eq(memcmp(rsv_writer_data(w), s->bytes, s->nbytes), 0, "%s changed bytes", what);
}

/* After a rejection: the writer still appends correctly (a 5-bit field). */
static void assert_usable(rsv_writer *w, const snapshot *s)
{
    cr_assert_eq(rsv_put(w, 0x15, 5), RSV_OK);
    cr_assert_eq(rsv_writer_bits(w), s->bits + 5);
    const uint8_t *d = rsv_writer_data(w);
    for (uint64_t i = 0; i < s->bits; i++)
        cr_assert_eq(rsv_get_bit(d, i), rsv_get_bit(s->bytes, i));
    for (unsigned i = 0; i < 5; i++)
        cr_assert_eq(rsv_get_bit(d, s->bits + i), (0x15u >> (4 - i)) & 1u);
}

/* Rejected puts: (kind, param, value) as in `item`; K_ZEROS is put_zeros(value). */
#define K_ZEROS ((code_kind)3)
static const struct {
    item it;
    rsv_status want;
} reject_cases[] = {
    {{K_FIXED, 65, 0, 0, 0}, RSV_ERR_WIDTH},
    {{K_FIXED, 1000, 1, 0, 0}, RSV_ERR_WIDTH},
    {{K_FIXED, 0xFFFFFFFFu, 1, 0, 0}, RSV_ERR_WIDTH},
    {{K_FIXED, 0, 1, 0, 0}, RSV_ERR_VALUE_TOO_WIDE}, /* w = 0 accepts only 0 */
    {{K_FIXED, 0, MAX64, 0, 0}, RSV_ERR_VALUE_TOO_WIDE},
    {{K_FIXED, 1, 2, 0, 0}, RSV_ERR_VALUE_TOO_WIDE},
    {{K_FIXED, 63, UINT64_C(1) << 63, 0, 0}, RSV_ERR_VALUE_TOO_WIDE},
    {{K_FIXED, 63, MAX64, 0, 0}, RSV_ERR_VALUE_TOO_WIDE},
    {{K_EG, 64, 0, 0, 0}, RSV_ERR_BAD_ORDER},
    {{K_EG, 1000, 5, 0, 0}, RSV_ERR_BAD_ORDER},
    {{K_GOLOMB, 0, 0, 0, 0}, RSV_ERR_BAD_MODULUS},
    {{K_GOLOMB, 0, MAX64, 0, 0}, RSV_ERR_BAD_MODULUS},
    {{K_GOLOMB, 1, MAX64, 0, 0}, RSV_ERR_TOO_LARGE}, /* 2^64 bits: does not fit u64 */
    {{K_ZEROS, 0, MAX64, 0, 0}, RSV_ERR_TOO_LARGE},
    {{K_ZEROS, 0, MAX64 - 6, 0, 0}, RSV_ERR_TOO_LARGE}, /* > 2^64 − 8 */
};

Test(writer_reject, contents_unchanged_and_usable)
{
    rsv_rng rng = {5};
    for (size_t c = 0; c < sizeof reject_cases / sizeof reject_cases[0]; c++) {
        const item *it = &reject_cases[c].it;
        for (unsigned pre = 0; pre < 24; pre += 5) { /* 0, 5, 10, 15, 20 prefix bits */
            rsv_writer w;
            rsv_writer_init(&w);
            cr_assert_eq(rsv_put(&w, rand_bits(&rng, pre), pre), RSV_OK);
            snapshot s;
            take_snapshot(&w, &s);
            rsv_status st = it->kind == K_ZEROS ? rsv_put_zeros(&w, it->value) : put_item(&w, it);
            cr_assert_eq(st, reject_cases[c].want, "case %zu: got %d", c, (int)st);
            assert_unchanged(&w, &s, "a rejected put");
            assert_usable(&w, &s);
            rsv_writer_free(&w);
        }
    }
}

/* After one bit, 2^64 − 8 more bits exceed the §6.2 ceiling; an invalid
 * Golomb struct (m = 0) is BAD_MODULUS for rsv_put_golomb too. */
Test(writer_reject, ceiling_and_invalid_struct)
{
    rsv_writer w;
    rsv_golomb g;
    snapshot s;
    rsv_writer_init(&w);
    cr_assert_eq(rsv_put(&w, 1, 1), RSV_OK);
    take_snapshot(&w, &s);
    cr_assert_eq(rsv_put_zeros(&w, MAX64 - 7), RSV_ERR_TOO_LARGE);
    assert_unchanged(&w, &s, "put_zeros(2^64-8) after 1 bit");
    cr_assert_eq(rsv_golomb_init(&g, 0), RSV_ERR_BAD_MODULUS);
    cr_assert_eq(rsv_put_golomb(&w, 0, &g), RSV_ERR_BAD_MODULUS);
    assert_unchanged(&w, &s, "put_golomb with m = 0");
    assert_usable(&w, &s);
    rsv_writer_free(&w);
}

/* golomb.h, rsv_golomb_length: RSV_ERR_TOO_LARGE only when the length does
 * not fit in u64. CODES.md §4.1: length = q + 1 + (w - 1 or w); for m = 1
 * (w = 0, cutoff 0: unary) it is v + 1, so v = 2^64 - 2 is the longest code
 * whose length fits (2^64 - 1 bits) and v = 2^64 - 1 the first that does not.
 * For m >= 2 the quotient is at most (2^64 - 1) / 2, far from the edge. */
Test(writer_reject, golomb_length_at_the_u64_edge)
{
    rsv_golomb g;
    uint64_t nb = 0;
    cr_assert_eq(rsv_golomb_init(&g, 1), RSV_OK);
    cr_assert_eq(rsv_golomb_length(&g, MAX64 - 2, &nb), RSV_OK);
    cr_assert_eq(nb, MAX64 - 1);
    cr_assert_eq(rsv_golomb_length(&g, MAX64 - 1, &nb), RSV_OK, "2^64 - 1 bits fit in u64");
    cr_assert_eq(nb, MAX64);
    cr_assert_eq(rsv_golomb_length(&g, MAX64, &nb), RSV_ERR_TOO_LARGE, "2^64 bits do not fit");
}

/* rsv_writer_set_limit: a code that would cross the limit fails TOO_LARGE,
 * one that ends exactly on it succeeds. */
Test(writer_reject, limit)
{
    rsv_writer w;
    rsv_writer_init(&w);
    cr_assert_eq(rsv_put(&w, 3, 3), RSV_OK);
    rsv_writer_set_limit(&w, 3 + 129);
    snapshot s;
    take_snapshot(&w, &s);
    cr_assert_eq(rsv_put_eg(&w, MAX64, 0), RSV_OK); /* 129 bits: ends exactly at the limit */
    cr_assert_eq(rsv_writer_bits(&w), 132);
    take_snapshot(&w, &s);
    cr_assert_eq(rsv_put(&w, 0, 1), RSV_ERR_TOO_LARGE);
    assert_unchanged(&w, &s, "put past limit");
    cr_assert_eq(rsv_put(&w, 0, 0), RSV_OK); /* zero bits always fit */

    rsv_writer_set_limit(&w, 132 + 128);
    cr_assert_eq(rsv_put_eg(&w, MAX64, 0), RSV_ERR_TOO_LARGE); /* 129 > 128 */
    assert_unchanged(&w, &s, "put_eg past limit");
    cr_assert_eq(rsv_put_golomb_m(&w, MAX64, 2), RSV_ERR_TOO_LARGE); /* 2^63 + 1 bits */
    assert_unchanged(&w, &s, "put_golomb_m past limit");
    cr_assert_eq(rsv_put_golomb_m(&w, 128, 1), RSV_ERR_TOO_LARGE); /* 129 bits */
    assert_unchanged(&w, &s, "unary past limit");
    cr_assert_eq(rsv_put_zeros(&w, 129), RSV_ERR_TOO_LARGE);
    assert_unchanged(&w, &s, "put_zeros past limit");
    uint8_t bytes[17] = {0};
    cr_assert_eq(rsv_put_bytes(&w, bytes, 17), RSV_ERR_TOO_LARGE);
    assert_unchanged(&w, &s, "put_bytes past limit");
    cr_assert_eq(rsv_put_view(&w, rsv_view_make(bytes, 0, 129)), RSV_ERR_TOO_LARGE);
    assert_unchanged(&w, &s, "put_view past limit");
    cr_assert_eq(rsv_put_golomb_m(&w, 127, 1), RSV_OK); /* exactly 128 bits */
    cr_assert_eq(rsv_writer_bits(&w), 260);
    rsv_writer_free(&w);
}

/* ---- fixed buffers and finish ------------------------------------------- */

Test(writer_fixed, exact_capacity_then_overflow)
{
    for (size_t cap = 0; cap <= 9; cap++) {
        uint8_t store[16];
        memset(store, 0xEE, sizeof store); /* bytes past cap must stay 0xEE */
        rsv_writer w;
        rsv_writer_init_fixed(&w, store, cap);
        uint64_t total = 8 * (uint64_t)cap;
        /* Fill with 7-bit fields, then the rest, to land exactly on cap. */
        while (rsv_writer_bits(&w) + 7 <= total) cr_assert_eq(rsv_put(&w, 0x55, 7), RSV_OK);
        unsigned rest = (unsigned)(total - rsv_writer_bits(&w));
        cr_assert_eq(rsv_put(&w, (UINT64_C(1) << rest) - 1, rest), RSV_OK);
        cr_assert_eq(rsv_writer_bits(&w), total);
        snapshot s;
        take_snapshot(&w, &s);
        cr_assert_eq(rsv_put(&w, 1, 1), RSV_ERR_TOO_LARGE, "cap %zu", cap);
        assert_unchanged(&w, &s, "one bit past a fixed buffer");
        cr_assert_eq(rsv_put_eg(&w, 0, 0), RSV_ERR_TOO_LARGE);
        cr_assert_eq(rsv_put_zeros(&w, 1), RSV_ERR_TOO_LARGE);
        cr_assert_eq(rsv_put_bytes(&w, "x", 1), RSV_ERR_TOO_LARGE);
        assert_unchanged(&w, &s, "appends past a fixed buffer");
        cr_assert_eq(rsv_put_zeros(&w, 0), RSV_OK);
        for (size_t i = cap; i < sizeof store; i++)
            cr_assert_eq(store[i], 0xEE, "cap %zu: byte %zu written", cap, i);
        uint8_t *out = NULL;
        size_t nb = 99;
        cr_assert_eq(rsv_writer_finish(&w, &out, &nb), RSV_OK);
        cr_assert_eq(nb, cap);
        if (cap) cr_assert_eq(out, store);
    }
}

/* finish() yields ceil(n/8) bytes holding the bits with zero padding, also
 * when the storage held ones before (reset growable, or a dirty fixed buffer). */
Test(writer_fixed, finish_pads_with_zeros)
{
    rsv_rng rng = {6};
    for (int fixed = 0; fixed < 2; fixed++) {
        for (uint64_t n = 0; n <= 80; n++) {
            uint8_t want[16] = {0}, store[16];
            memset(store, 0xFF, sizeof store);
            rsv_writer w;
            if (fixed) {
                rsv_writer_init_fixed(&w, store, sizeof store);
            } else {
                rsv_writer_init(&w);
                cr_assert_eq(rsv_put_zeros(&w, 100), RSV_OK);
                cr_assert_eq(rsv_put(&w, MAX64, 64), RSV_OK);
                rsv_writer_reset(&w); /* storage now dirty with ones */
            }
            for (uint64_t i = 0; i < n;) { /* mix of field writes and zero runs */
                unsigned t = (unsigned)rsv_rng_below(&rng, 12);
                if (t > n - i) t = (unsigned)(n - i);
                if (rsv_rng_below(&rng, 3) == 0) {
                    cr_assert_eq(rsv_put_zeros(&w, t), RSV_OK);
                } else {
                    uint64_t v = rand_bits(&rng, t);
                    cr_assert_eq(rsv_put(&w, v, t), RSV_OK);
                    for (unsigned j = 0; j < t; j++)
                        rsv_set_bit(want, i + j, (v >> (t - 1 - j)) & 1);
                }
                i += t;
            }
            uint8_t *out = NULL;
            size_t nb = 0;
            cr_assert_eq(rsv_writer_finish(&w, &out, &nb), RSV_OK);
            cr_assert_eq(nb, (size_t)((n + 7) / 8), "n %llu", (unsigned long long)n);
            cr_assert_not_null(out);
            if (nb)
                cr_assert_eq(memcmp(out, want, nb), 0, "fixed %d n %llu", fixed,
                             (unsigned long long)n);
            if (fixed)
                cr_assert_eq(out, store);
            else
                free(out);
            rsv_writer_free(&w);
        }
    }
}

/* writer.h, rsv_writer_finish: a growable writer "is left empty" (the bytes
 * now belong to the caller), so it takes puts again like a fresh one. One
 * bit after the finish is the byte 0x80 (CODES.md §2: MSB first, zero
 * padded); also after a finish of a writer that never wrote. */
Test(writer_fixed, growable_writer_is_empty_after_finish)
{
    for (int wrote = 0; wrote < 2; wrote++) {
        rsv_writer w;
        rsv_writer_init(&w);
        if (wrote) cr_assert_eq(rsv_put(&w, 0x5A5A, 16), RSV_OK);
        uint8_t *out = NULL;
        size_t nb = 0;
        cr_assert_eq(rsv_writer_finish(&w, &out, &nb), RSV_OK);
        cr_assert_eq(nb, wrote ? 2u : 0u);
        free(out);
        cr_assert_eq(rsv_writer_bits(&w), 0);
        cr_assert_eq(rsv_put(&w, 1, 1), RSV_OK);
        cr_assert_eq(rsv_writer_bits(&w), 1);
        cr_assert_eq(rsv_writer_data(&w)[0], 0x80);
        cr_assert_eq(rsv_writer_finish(&w, &out, &nb), RSV_OK);
        cr_assert_eq(nb, 1);
        cr_assert_eq(out[0], 0x80);
        free(out);
        rsv_writer_free(&w);
    }
}

/* writer.h, rsv_writer_free: "the writer is then empty" — 0 bits, growable
 * or fixed (whose storage stays the caller's). A fixed writer freed after
 * 16 bits takes one bit again at bit 0 (byte 0x80, MSB first). Kills
 * writer_c.const.4f81906c (free leaving 1 bit). */
Test(writer_fixed, freed_writer_is_empty)
{
    for (int fixed = 0; fixed < 2; fixed++) {
        uint8_t store[4] = {0};
        rsv_writer w;
        if (fixed) rsv_writer_init_fixed(&w, store, sizeof store);
        else rsv_writer_init(&w);
        cr_assert_eq(rsv_put(&w, 0x5A5A, 16), RSV_OK);
        rsv_writer_free(&w);
        cr_assert_eq(rsv_writer_bits(&w), 0, "fixed %d: %llu bits after free", fixed,
                     (unsigned long long)rsv_writer_bits(&w));
        cr_assert_eq(rsv_writer_nbytes(&w), 0, "fixed %d", fixed);
        if (fixed) {
            store[0] = 0;
            cr_assert_eq(rsv_put(&w, 1, 1), RSV_OK);
            cr_assert_eq(rsv_writer_bits(&w), 1);
            cr_assert_eq(store[0], 0x80, "fixed: the bit after free went to 0x%02x", store[0]);
        }
    }
}

/* writer.h, rsv_writer_set_limit: the limit is min(max_bits, ceiling), the
 * ceiling of a fixed writer being its buffer, 8 * cap bits. A fixed writer
 * of cap bytes given a limit of 8 * cap or more (or UINT64_MAX) takes
 * exactly 8 * cap bits and rejects the next one; given 8 * cap - 3 it stops
 * there. The public `limit` field ("largest allowed nbits") is that min,
 * after init_fixed (max_bits = infinity) and after each set_limit: a
 * ceiling above 8 * cap is invisible to the puts (the fixed buffer's own
 * check rejects the bit after it too), so only the field shows it. Kills
 * writer_c.const.f373e8a4 (a ceiling of 7 * cap) and, by the field,
 * writer_c.const.99a052e3 (9 * cap, seed-139 sample). */
Test(writer_fixed, set_limit_of_a_fixed_writer_is_capped_by_its_buffer)
{
    for (size_t cap = 1; cap <= 9; cap++) {
        const uint64_t bits = 8 * (uint64_t)cap, asked[] = {UINT64_MAX, bits, bits + 1, bits - 3};
        for (size_t a = 0; a < sizeof asked / sizeof asked[0]; a++) {
            uint64_t lim = asked[a];
            uint64_t room = lim < bits ? lim : bits;
            uint8_t store[9];
            rsv_writer w;
            rsv_writer_init_fixed(&w, store, cap);
            cr_assert_eq(w.limit, bits, "cap %zu: limit %llu after init_fixed", cap, (unsigned long long)w.limit);
            rsv_writer_set_limit(&w, lim);
            cr_assert_eq(w.limit, room, "cap %zu, asked %llu: limit %llu", cap, (unsigned long long)lim,
                         (unsigned long long)w.limit);
            cr_assert_eq(rsv_put_zeros(&w, room), RSV_OK, "cap %zu, limit %llu: %llu bits", cap,
                         (unsigned long long)lim, (unsigned long long)room);
            cr_assert_eq(rsv_put(&w, 1, 1), RSV_ERR_TOO_LARGE, "cap %zu, limit %llu: bit %llu", cap,
                         (unsigned long long)lim, (unsigned long long)room + 1);
            cr_assert_eq(rsv_writer_bits(&w), room);
        }
    }
}

/* writer.h: the ceiling is RSV_WRITER_MAX_BITS (2^64 - 8) when 8 * cap
 * would pass it. Buffers of such sizes are only claimed here, never written:
 * the limit is computed from cap alone. Hand values: cap 2^61 - 2 bytes is
 * 2^64 - 16 bits; 2^61 - 1 bytes is exactly 2^64 - 8; 2^61 bytes and
 * SIZE_MAX bytes (8 * cap wraps mod 2^64) get 2^64 - 8. The limit after
 * init_fixed and after set_limit(UINT64_MAX) is that; set_limit(5) gives 5. */
Test(writer_fixed, fixed_writer_ceiling_of_huge_buffers_is_the_spec_maximum)
{
    if (SIZE_MAX < UINT64_MAX) cr_skip_test("needs a 64-bit size_t");
    static const struct { uint64_t cap, limit; } k[] = {
        {UINT64_C(0x1FFFFFFFFFFFFFFE), UINT64_C(0xFFFFFFFFFFFFFFF0)},
        {UINT64_C(0x1FFFFFFFFFFFFFFF), UINT64_C(0xFFFFFFFFFFFFFFF8)},
        {UINT64_C(0x2000000000000000), UINT64_C(0xFFFFFFFFFFFFFFF8)},
        {UINT64_MAX, UINT64_C(0xFFFFFFFFFFFFFFF8)},
    };
    uint8_t store[1];
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        rsv_writer w;
        rsv_writer_init_fixed(&w, store, (size_t)k[i].cap);
        cr_assert_eq(w.limit, k[i].limit, "cap %llx: limit %llx after init_fixed", (unsigned long long)k[i].cap,
                     (unsigned long long)w.limit);
        rsv_writer_set_limit(&w, 5);
        cr_assert_eq(w.limit, 5);
        rsv_writer_set_limit(&w, UINT64_MAX);
        cr_assert_eq(w.limit, k[i].limit, "cap %llx: limit %llx after set_limit(max)",
                     (unsigned long long)k[i].cap, (unsigned long long)w.limit);
    }
}

/* record.h, rsv_value_width and rsv_put_value (KV03.md §1.3: a tombstone is
 * `0`, a present value `1` EG0(n) and n bytes). Widths by hand: |EG0(n)| =
 * 2 floor(log2(n + 1)) + 1 is 1, 3, 3, 5, 5, 7, 15, 17 for n = 0, 1, 2, 3,
 * 6, 7, 254, 255. rsv_put_value reserves that width first (atomic): a 300-byte
 * fixed writer whose limit (rsv_writer_set_limit) leaves exactly width bits
 * after the pad takes the value; a limit one bit less rejects it with
 * RSV_ERR_TOO_LARGE and nothing written. Kills value_c.const.45ed45c0 (the
 * width with EG1's length). */
Test(writer_fixed, value_width_by_hand_and_put_value_in_exactly_that_room)
{
    static const struct { uint64_t n, width; } k[] = {
        {0, 2}, {1, 12}, {2, 20}, {3, 30}, {6, 54}, {7, 64}, {254, 2048}, {255, 2058},
    };
    uint64_t wd = 0;
    cr_assert_eq(rsv_value_width(RSV_VALUE_TOMBSTONE, 0, &wd), RSV_OK);
    cr_assert_eq(wd, 1);
    static uint8_t bytes[255], store[300];
    memset(bytes, 0xA7, sizeof bytes);
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        cr_assert_eq(rsv_value_width(RSV_VALUE_PRESENT, k[i].n, &wd), RSV_OK);
        cr_assert_eq(wd, k[i].width, "n %llu: width %llu, by hand %llu", (unsigned long long)k[i].n,
                     (unsigned long long)wd, (unsigned long long)k[i].width);
        for (uint64_t pad = 0; pad < 8; pad++) { /* the value starts at bit pad */
            for (int short_by = 0; short_by < 2; short_by++) {
                rsv_writer w;
                rsv_writer_init_fixed(&w, store, sizeof store);
                rsv_writer_set_limit(&w, pad + k[i].width - (uint64_t)short_by);
                cr_assert_eq(rsv_put_zeros(&w, pad), RSV_OK);
                rsv_status st = rsv_put_value(&w, rsv_value_present(bytes, (size_t)k[i].n));
                cr_assert_eq(st, short_by ? RSV_ERR_TOO_LARGE : RSV_OK, "n %llu pad %llu short by %d: %s",
                             (unsigned long long)k[i].n, (unsigned long long)pad, short_by, rsv_status_name(st));
                cr_assert_eq(rsv_writer_bits(&w), short_by ? pad : pad + k[i].width);
            }
        }
    }
}

/* record.h, rsv_value_width's limit: a present value of up to
 * (2^64 - 131) / 8 = 2^61 - 17 bytes has a width, one byte more is
 * RSV_ERR_TOO_LARGE. By hand at L = 2^61 - 17: L + 1 = 2^61 - 16 lies in
 * [2^60, 2^61), so |EG0(L)| = 2 * 60 + 1 = 121 and the width is
 * 1 + 121 + 8L = 122 + 2^64 - 136 = 2^64 - 14. Lengths past the limit
 * (2^61 - 16, 2^61, 2^64 - 1) fail with the width left untouched. */
Test(writer_fixed, value_width_at_its_limit)
{
    const uint64_t L = (UINT64_C(1) << 61) - 17;
    cr_assert_eq(L, (UINT64_MAX - 130) / 8, "the limit by hand");
    uint64_t wd = 0;
    cr_assert_eq(rsv_value_width(RSV_VALUE_PRESENT, L, &wd), RSV_OK);
    cr_assert_eq(wd, UINT64_MAX - 13, "width %llu, by hand 2^64 - 14", (unsigned long long)wd);
    const uint64_t past[] = {L + 1, UINT64_C(1) << 61, UINT64_MAX};
    for (size_t i = 0; i < sizeof past / sizeof past[0]; i++) {
        wd = 7;
        cr_assert_eq(rsv_value_width(RSV_VALUE_PRESENT, past[i], &wd), RSV_ERR_TOO_LARGE, "len %llu",
                     (unsigned long long)past[i]);
        cr_assert_eq(wd, 7, "len %llu: width written on failure", (unsigned long long)past[i]);
    }
    cr_assert_eq(rsv_value_width(RSV_VALUE_TOMBSTONE, UINT64_MAX, &wd), RSV_OK, "a tombstone's len is not read");
    cr_assert_eq(wd, 1);
}

/* writer.h: a growable writer allocates on first use, at least 64 bytes,
 * and every later growth at least doubles cap. One bit first, then 64-bit
 * words up to 64 KiB: cap is 0 before the first put, >= 64 after it, and
 * each change of cap at least doubles it. */
Test(writer_fixed, growable_writer_grows_from_64_bytes_doubling)
{
    rsv_writer w;
    rsv_writer_init(&w);
    cr_assert_eq(w.cap, 0, "cap %zu before the first put", w.cap);
    cr_assert_eq(rsv_put(&w, 1, 1), RSV_OK);
    cr_assert_geq(w.cap, 64, "first allocation of %zu bytes", w.cap);
    size_t cap = w.cap;
    int grew = 0;
    while (rsv_writer_nbytes(&w) < 65536) {
        cr_assert_eq(rsv_put(&w, UINT64_C(0x0123456789ABCDEF), 64), RSV_OK);
        if (w.cap != cap) {
            cr_assert_geq(w.cap, 2 * cap, "cap %zu after %zu: less than doubled", w.cap, cap);
            cap = w.cap;
            grew++;
        }
    }
    cr_assert_gt(grew, 0);
    rsv_writer_free(&w);
}

/* writer.h, exactly: a growth (when the bytes needed pass cap) gives the
 * least max(cap, 64) * 2^k that holds them plus 8 bytes of slack. By hand:
 * 64 bits need 8 + 8 = 16 bytes: the first allocation is 64. 960 zero bits
 * need 120 bytes, + 8 = 128 = 64 * 2, so cap is 128 (not 256). 1032 bits
 * need 129 > 128 bytes, + 8 = 137: the next growth gives 256. Where the
 * slack alone decides: from 64 bytes, 1000 bits need 125 bytes, which 128
 * would hold but 125 + 8 = 133 not: 256. */
Test(writer_fixed, growable_writer_grows_to_the_least_doubling_that_holds_the_slack)
{
    rsv_writer w;
    rsv_writer_init(&w);
    cr_assert_eq(rsv_put_zeros(&w, 64), RSV_OK);
    cr_assert_eq(w.cap, 64, "cap %zu after 64 bits", w.cap);
    cr_assert_eq(rsv_put_zeros(&w, 896), RSV_OK);
    cr_assert_eq(w.cap, 128, "cap %zu after 960 bits (120 bytes + 8 of slack)", w.cap);
    cr_assert_eq(rsv_put_zeros(&w, 72), RSV_OK);
    cr_assert_eq(w.cap, 256, "cap %zu after 1032 bits (129 bytes + 8 of slack)", w.cap);
    rsv_writer_free(&w);
    rsv_writer_init(&w);
    cr_assert_eq(rsv_put_zeros(&w, 64), RSV_OK);
    cr_assert_eq(rsv_put_zeros(&w, 936), RSV_OK);
    cr_assert_eq(w.cap, 256, "cap %zu after 1000 bits (125 bytes + 8 of slack)", w.cap);
    rsv_writer_free(&w);
}

/* ---- bulk appenders ------------------------------------------------------ */

/* A growable writer holding `pre` prefix bits pv. */
static void begin(rsv_writer *w, uint64_t pv, unsigned pre)
{
    rsv_writer_init(w);
    cr_assert_eq(rsv_put(w, pv, pre), RSV_OK);
}

/* The prefix from begin() is intact and the bits after the last one are zero. */
static void check_frame(const rsv_writer *w, uint64_t pv, unsigned pre)
{
    const uint8_t *d = rsv_writer_data(w);
    uint64_t total = rsv_writer_bits(w);
    for (unsigned i = 0; i < pre; i++)
        cr_assert_eq(rsv_get_bit(d, i), (unsigned)(pv >> (pre - 1 - i)) & 1u, "prefix bit %u", i);
    if (total % 8) cr_assert_eq(d[total / 8] & ((1u << (8 - total % 8)) - 1), 0, "padding");
}

Test(writer_bulk, put_zeros_at_every_alignment)
{
    for (unsigned pre = 0; pre < 8; pre++) {
        for (uint64_t cnt = 0; cnt <= 140; cnt++) {
            rsv_writer w;
            uint64_t pv = (UINT64_C(1) << pre) - 1; /* ones, so a clobbered prefix shows */
            begin(&w, pv, pre);
            cr_assert_eq(rsv_put_zeros(&w, cnt), RSV_OK);
            cr_assert_eq(rsv_put(&w, 1, 1), RSV_OK); /* a marker after the run */
            cr_assert_eq(rsv_writer_bits(&w), pre + cnt + 1);
            check_frame(&w, pv, pre);
            const uint8_t *d = rsv_writer_data(&w);
            for (uint64_t i = 0; i < cnt; i++) cr_assert_eq(rsv_get_bit(d, pre + i), 0);
            cr_assert_eq(rsv_get_bit(d, pre + cnt), 1);
            rsv_writer_free(&w);
        }
    }
}

Test(writer_bulk, put_view_from_odd_offsets)
{
    rsv_rng rng = {8};
    uint8_t src[40];
    for (size_t i = 0; i < sizeof src; i++) src[i] = (uint8_t)rsv_rng_next(&rng);
    for (unsigned pre = 0; pre < 8; pre++) {
        for (uint64_t off = 0; off < 19; off++) {
            for (uint64_t len = 0; len <= 8 * sizeof src - off; len += 1 + len / 8) {
                rsv_writer w;
                uint64_t pv = rand_bits(&rng, pre);
                begin(&w, pv, pre);
                cr_assert_eq(rsv_put_view(&w, rsv_view_make(src, off, len)), RSV_OK);
                cr_assert_eq(rsv_writer_bits(&w), pre + len);
                check_frame(&w, pv, pre);
                const uint8_t *d = rsv_writer_data(&w);
                for (uint64_t i = 0; i < len; i++)
                    cr_assert_eq(rsv_get_bit(d, pre + i), rsv_get_bit(src, off + i),
                                 "pre %u off %llu len %llu bit %llu", pre, (unsigned long long)off,
                                 (unsigned long long)len, (unsigned long long)i);
                rsv_writer_free(&w);
            }
        }
    }
    /* An empty view may carry a NULL pointer (§1.1). */
    rsv_writer w;
    rsv_writer_init(&w);
    cr_assert_eq(rsv_put_view(&w, rsv_view_make(NULL, 0, 0)), RSV_OK);
    cr_assert_eq(rsv_writer_bits(&w), 0);
    rsv_writer_free(&w);
}

Test(writer_bulk, put_bytes_unaligned)
{
    rsv_rng rng = {9};
    uint8_t src[33];
    for (size_t i = 0; i < sizeof src; i++) src[i] = (uint8_t)rsv_rng_next(&rng);
    for (unsigned pre = 0; pre < 8; pre++) {
        for (size_t n = 0; n <= sizeof src; n++) {
            rsv_writer w;
            uint64_t pv = rand_bits(&rng, pre);
            begin(&w, pv, pre);
            cr_assert_eq(rsv_put_bytes(&w, src, n), RSV_OK);
            cr_assert_eq(rsv_put(&w, 1, 1), RSV_OK);
            cr_assert_eq(rsv_writer_bits(&w), pre + 8 * n + 1);
            check_frame(&w, pv, pre);
            const uint8_t *d = rsv_writer_data(&w);
            for (uint64_t i = 0; i < 8 * n; i++)
                cr_assert_eq(rsv_get_bit(d, pre + i), rsv_get_bit(src, i), "pre %u n %zu bit %llu",
                             pre, n, (unsigned long long)i);
            cr_assert_eq(rsv_get_bit(d, pre + 8 * n), 1);
            rsv_writer_free(&w);
        }
    }
}

/* The 129-bit maximum EG0 code (§3.1) after 0..7 prefix bits. */
Test(writer_bulk, max_code_every_alignment)
{
    rsv_rng rng = {10};
    for (unsigned pre = 0; pre < 8; pre++) {
        rsv_writer w;
        uint64_t pv = rand_bits(&rng, pre);
        begin(&w, pv, pre);
        cr_assert_eq(rsv_put_eg(&w, MAX64, 0), RSV_OK);
        cr_assert_eq(rsv_writer_bits(&w), pre + 129);
        check_frame(&w, pv, pre);
        const uint8_t *d = rsv_writer_data(&w);
        for (unsigned i = 0; i < 129; i++)
            cr_assert_eq(rsv_get_bit(d, pre + i), i == 64 ? 1u : 0u, "pre %u bit %u", pre, i);

        rsv_view v = rsv_writer_view(&w);
        rsv_reader r;
        uint64_t x = 0;
        rsv_reader_init(&r, v);
        cr_assert_eq(rsv_skip(&r, pre), RSV_OK);
        cr_assert_eq(rsv_read_eg(&r, 0, &x), RSV_OK);
        cr_assert_eq(x, MAX64);
        cr_assert(rsv_reader_empty(&r));
        rsv_oracle_result o = rsv_oracle_read_eg(v, pre, 0);
        cr_assert_eq(o.status, RSV_OK);
        cr_assert_eq(o.value, MAX64);
        cr_assert_eq(o.pos, pre + 129);
        rsv_writer_free(&w);
    }
}
