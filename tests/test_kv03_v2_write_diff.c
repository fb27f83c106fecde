/* KV03 format revision v2, codec vs oracle (byte-identical outputs):
 *
 * random: code sets of 2-16 codes of 1-12 bits plus one code of 65-100 bits
 *   (prefix-free, generated at random), 0-4 keys per code over a small
 *   alphabet (shared prefixes, empty keys), random three-state values,
 *   W in {1, 2, 3, 16}, backspace EG0 / EG1 / Golomb 1 / Golomb 5. Per
 *   trial: rsv_kv03_encode = rsv_oracle_kv03_encode_v2 byte for byte; open +
 *   scan + cursor walk give the records with their codes back; the record
 *   stream writer = rsv_oracle_stream_encode_v2 (bytes and extent) and the
 *   set reader (set in generation order, unsorted) gives the records and
 *   the same code indices as rsv_oracle_stream_decode_v2; a merge of 2-3
 *   inputs holding random overlapping parts of the records (newer inputs
 *   with other values) equals rsv_oracle_kv03_merge_v2 (rsv_kv03d_merge),
 *   with and without drop-tombstones. Seed: RSV_TEST_SEED; trials:
 *   RSV_TEST_TRIALS / 10 (default 300).
 *
 * bounded-exhaustive: the universe of keys "", "a", "ab", "b" and the codes
 *   `0`, `10`, `11`: every assignment of a code to every subset of the keys
 *   (4^4 = 256 record lists; values depend on the list), W = 1, 2, 3: every
 *   list round-trips as above (file and stream) and every ordered pair of
 *   lists (65536) is merged for W = 2 (drop-tombstones on odd pairs), and
 *   for W = 1 and 3 every pair whose first list index is a multiple of 16
 *   (4096 each), both sides compared with the oracle. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "reservoir/kv03.h"
#include "reservoir/merge.h"
#include "reservoir/stream.h"

#include "diff.h"
#include "kv03_v2_util.h"
#include "testutil.h"

#define MAXC 17   /* codes per set */
#define MAXR 80   /* records per list */

typedef struct cset {
    uint8_t bits[MAXC * 16];
    uint64_t ends[MAXC];
    size_t m;
} cset;

static rsv_view cs_code(const cset *c, size_t j)
{
    uint64_t a = j ? c->ends[j - 1] : 0;
    return rsv_view_make(c->bits, a, c->ends[j] - a);
}

/* Append a random code of `len` bits if it keeps the set prefix-free. */
static int try_code(cset *c, rsv_rng *g, uint64_t len)
{
    uint64_t at = c->m ? c->ends[c->m - 1] : 0;
    for (uint64_t k = 0; k < len; k++) rsv_set_bit(c->bits, at + k, (unsigned)(rsv_rng_next(g) >> 63));
    rsv_view x = rsv_view_make(c->bits, at, len);
    for (size_t j = 0; j < c->m; j++) {
        uint64_t l;
        rsv_view y = cs_code(c, j);
        rsv_view_lcp(x, y, &l);
        if (l == x.len || l == y.len) return 0;
    }
    c->ends[c->m++] = at + len;
    return 1;
}

static void gen_set(cset *c, rsv_rng *g)
{
    memset(c, 0, sizeof *c);
    cr_assert(try_code(c, g, 65 + rsv_rng_below(g, 36))); /* the long code first: shorts cannot extend it */
    size_t want = 2 + (size_t)rsv_rng_below(g, 15);
    for (int tries = 0; c->m < want && tries < 400; tries++) try_code(c, g, 1 + rsv_rng_below(g, 12));
    cr_assert_geq(c->m, 2);
}

typedef struct list {
    rsv_record r[MAXR];
    uint8_t keys[MAXR][6];
    uint8_t vals[MAXR][20];
    size_t codeix[MAXR]; /* set index of r[i].code */
    size_t n;
} list;

static int cmp_rec(const void *a, const void *b)
{
    const rsv_record *x = a, *y = b;
    int c = rsv_view_compare(rsv_view_make(x->code, 0, x->code_bits), rsv_view_make(y->code, 0, y->code_bits));
    return c ? c : rsv_key_compare(x->key, x->key_len, y->key, y->key_len);
}

static rsv_value rand_value(rsv_rng *g, uint8_t *buf)
{
    unsigned k = (unsigned)rsv_rng_below(g, 4);
    if (k == 0) return rsv_value_tombstone();
    size_t n = k == 1 ? 0 : (size_t)rsv_rng_below(g, 20);
    for (size_t i = 0; i < n; i++) buf[i] = (uint8_t)rsv_rng_next(g);
    return rsv_value_present(n ? buf : NULL, n);
}

/* Codes are given as byte pointers at bit 0: each code is copied to its own
 * buffer (codebuf[j]) so rsv_record.code points at its first bit. */
static uint8_t codebuf[MAXC][16];

static void gen_list(list *L, const cset *c, rsv_rng *g)
{
    static const uint8_t alpha[4] = {0x00, 'a', 'b', 0xff};
    memset(L, 0, sizeof *L);
    for (size_t j = 0; j < c->m; j++) {
        memset(codebuf[j], 0, sizeof codebuf[j]);
        rsv_bits_store(codebuf[j], 0, cs_code(c, j));
    }
    for (size_t j = 0; j < c->m; j++) {
        size_t k = (size_t)rsv_rng_below(g, 5);
        for (size_t t = 0; t < k && L->n < MAXR; t++) {
            size_t i = L->n, len = (size_t)rsv_rng_below(g, 6);
            for (size_t b = 0; b < len; b++) L->keys[i][b] = alpha[rsv_rng_below(g, 4)];
            L->r[i].key = L->keys[i];
            L->r[i].key_len = len;
            L->r[i].code = codebuf[j];
            L->r[i].code_bits = cs_code(c, j).len;
            L->r[i].value = rand_value(g, L->vals[i]);
            L->n++;
        }
    }
    qsort(L->r, L->n, sizeof L->r[0], cmp_rec);
    size_t u = 0; /* drop duplicate logical keys */
    for (size_t i = 0; i < L->n; i++)
        if (u == 0 || cmp_rec(&L->r[u - 1], &L->r[i]) != 0) L->r[u++] = L->r[i];
    L->n = u;
    for (size_t i = 0; i < L->n; i++)
        for (size_t j = 0; j < c->m; j++)
            if (L->r[i].code == codebuf[j]) L->codeix[i] = j;
}

static void same_value(rsv_value got, rsv_value want, const char *what, size_t i)
{
    cr_assert_eq(got.kind, want.kind, "%s record %zu: value kind", what, i);
    cr_assert_eq(got.len, want.len, "%s record %zu: value length", what, i);
    if (want.len) cr_assert_eq(memcmp(got.data, want.data, want.len), 0, "%s record %zu: value bytes", what, i);
}

/* File: codec = oracle bytes; scan passes; the cursor gives the records. */
static void check_file(const rsv_record *r, size_t n, const rsv_kv03_policy *p, const char *what)
{
    uint8_t *cb, *ob;
    size_t cn, on;
    cr_assert_eq(rsv_kv03_encode(p, NULL, 0, r, n, &cb, &cn), RSV_OK, "%s: codec encode", what);
    cr_assert_eq(v2_oracle_encode(r, n, p, &ob, &on), RSV_OK, "%s: oracle encode", what);
    cr_assert_eq(cn, on, "%s: codec %zu bytes, oracle %zu", what, cn, on);
    cr_assert_eq(memcmp(cb, ob, cn), 0, "%s: codec and oracle files differ", what);
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(cb, cn, p, &f), RSV_OK, "%s: open", what);
    cr_assert_eq(rsv_kv03_scan(&f, NULL), RSV_OK, "%s: scan", what);
    rsv_kv03_cursor cur;
    cr_assert_eq(rsv_kv03_cursor_init(&cur, &f), RSV_OK);
    rsv_kv03_entry e;
    int more;
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(rsv_kv03_cursor_record(&cur, &e, &more), RSV_OK, "%s: cursor record %zu", what, i);
        cr_assert_eq(more, 1);
        cr_assert_eq(e.key_len, r[i].key_len, "%s record %zu: key length", what, i);
        cr_assert_eq(memcmp(e.key, r[i].key, r[i].key_len), 0, "%s record %zu: key", what, i);
        same_value(e.value, r[i].value, what, i);
        rsv_view code;
        cr_assert_eq(rsv_kv03_code(&f, e.code, &code), RSV_OK);
        cr_assert(rsv_view_bit_equal(code, rsv_view_make(r[i].code, 0, r[i].code_bits)), "%s record %zu: code", what, i);
    }
    cr_assert_eq(rsv_kv03_cursor_record(&cur, &e, &more), RSV_OK);
    cr_assert_eq(more, 0);
    rsv_kv03_cursor_free(&cur);
    free(cb);
    free(ob);
}

/* Stream: codec writer = oracle writer; set reader = oracle reader. */
static void check_stream(const rsv_record *r, const size_t *codeix, size_t n, const cset *c, const char *what)
{
    rsv_writer out;
    rsv_writer_init(&out);
    rsv_stream_writer sw;
    cr_assert_eq(rsv_stream_writer_init(&sw, &out, NULL, 0), RSV_OK);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(rsv_stream_writer_add_coded(&sw, r[i].code, r[i].code_bits, r[i].key, r[i].key_len, r[i].value),
                     RSV_OK, "%s: stream add %zu", what, i);
    uint64_t E = rsv_stream_writer_extent(&sw);
    rsv_oracle_crecord oc[MAXR];
    for (size_t i = 0; i < n; i++) {
        rsv_kv03d_to_oracle(&r[i], 1, &oc[i].rec);
        oc[i].code.bits = r[i].code;
        oc[i].code.nbits = r[i].code_bits;
    }
    uint8_t *ob = NULL;
    uint64_t oE;
    size_t bad;
    cr_assert_eq(rsv_oracle_stream_encode_v2(oc, n, &ob, &oE, &bad), RSV_OK, "%s: oracle stream", what);
    cr_assert_eq(E, oE, "%s: stream extent codec %lu, oracle %lu", what, (unsigned long)E, (unsigned long)oE);
    if (E) cr_assert_eq(memcmp(rsv_writer_data(&out), ob, (size_t)((E + 7) / 8)), 0, "%s: stream bytes differ", what);
    rsv_code_set set = {c->bits, c->ends, c->m};
    rsv_stream_reader sr;
    rsv_view v = rsv_view_make(rsv_writer_data(&out), 0, E);
    cr_assert_eq(rsv_stream_reader_init_set(&sr, v, &set), RSV_OK);
    rsv_oracle_code os[MAXC];
    uint8_t osb[MAXC][16];
    for (size_t j = 0; j < c->m; j++) {
        memset(osb[j], 0, 16);
        rsv_bits_store(osb[j], 0, cs_code(c, j));
        os[j].bits = osb[j];
        os[j].nbits = cs_code(c, j).len;
    }
    rsv_oracle_stream_v2_result res;
    cr_assert_eq(rsv_oracle_stream_decode_v2(v, os, c->m, &res), RSV_OK, "%s: oracle stream decode", what);
    rsv_stream_record rec;
    int more;
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(rsv_stream_reader_next(&sr, &rec, &more), RSV_OK, "%s: stream read %zu", what, i);
        cr_assert_eq(more, 1);
        cr_assert_eq(rec.key_len, r[i].key_len);
        cr_assert_eq(memcmp(rec.key, r[i].key, r[i].key_len), 0, "%s: stream key %zu", what, i);
        same_value(rec.value, r[i].value, what, i);
        cr_assert_eq(rec.code, codeix[i], "%s: stream record %zu code index", what, i);
        cr_assert_eq(res.code_index[i], codeix[i], "%s: oracle stream record %zu code index", what, i);
    }
    cr_assert_eq(rsv_stream_reader_next(&sr, &rec, &more), RSV_OK);
    cr_assert_eq(more, 0);
    rsv_oracle_stream_v2_result_free(&res);
    rsv_stream_reader_free(&sr);
    rsv_stream_writer_free(&sw);
    rsv_writer_free(&out);
    free(ob);
}

static void check_merge(const rsv_record *const *parts, const size_t *counts, size_t k, const rsv_kv03_policy *p,
                        int drop, const char *what)
{
    uint8_t *files[3];
    size_t sizes[3];
    for (size_t i = 0; i < k; i++)
        cr_assert_eq(v2_oracle_encode(parts[i], counts[i], p, &files[i], &sizes[i]), RSV_OK);
    rsv_kv03d_report rep;
    rsv_kv03d_report_init(&rep);
    rsv_status st;
    cr_assert(rsv_kv03d_merge((const uint8_t *const *)files, sizes, k, drop, NULL, 0, &st, &rep), "%s: %s", what,
              rep.msg);
    cr_assert_eq(st, RSV_OK, "%s: merge %s", what, rsv_status_name(st));
    for (size_t i = 0; i < k; i++) free(files[i]);
}

static const rsv_kv03_policy POLS[4] = {
    {RSV_BACKSPACE_EG, 0, 1, 3}, {RSV_BACKSPACE_EG, 1, 1, 3}, {RSV_BACKSPACE_GOLOMB, 1, 1, 3}, {RSV_BACKSPACE_GOLOMB, 5, 1, 3}};
static const uint64_t WS[4] = {1, 2, 3, 16};

Test(kv03_v2_write_diff, random_code_sets)
{
    rsv_diff_opts o;
    rsv_diff_opts_from_env(&o);
    uint64_t trials = getenv("RSV_TEST_TRIALS") ? o.trials / 10 : 300;
    rsv_rng g = {o.seed};
    list *L = malloc(sizeof *L), *parts = malloc(3 * sizeof *parts);
    cr_assert(L && parts);
    uint64_t ran = 0;
    for (uint64_t t = 0; t < trials; t++, ran++) {
        char what[96];
        snprintf(what, sizeof what, "seed 0x%llx trial %llu", (unsigned long long)o.seed, (unsigned long long)t);
        cset c;
        gen_set(&c, &g);
        gen_list(L, &c, &g);
        rsv_kv03_policy p = POLS[rsv_rng_below(&g, 4)];
        p.W = WS[rsv_rng_below(&g, 4)];
        check_file(L->r, L->n, &p, what);
        check_stream(L->r, L->codeix, L->n, &c, what);
        /* merge: each record goes to some inputs; newer copies get new values */
        size_t k = 2 + (size_t)rsv_rng_below(&g, 2), counts[3] = {0, 0, 0};
        for (size_t i = 0; i < L->n; i++) {
            unsigned mask = (unsigned)rsv_rng_below(&g, (1u << k) - 1) + 1;
            for (size_t q = 0; q < k; q++)
                if (mask & (1u << q)) {
                    size_t at = counts[q]++;
                    parts[q].r[at] = L->r[i];
                    if (rsv_rng_below(&g, 2)) parts[q].r[at].value = rand_value(&g, parts[q].vals[at]);
                }
        }
        const rsv_record *pr[3] = {parts[0].r, parts[1].r, parts[2].r};
        check_merge(pr, counts, k, &p, (int)(t & 1), what);
    }
    cr_assert_eq(ran, trials);
    cr_assert_gt(ran, 0);
    free(L);
    free(parts);
}

/* ---- bounded-exhaustive ---------------------------------------------------- */

static const uint8_t EX_CODES[3][1] = {{0x00}, {0x80}, {0xC0}}; /* `0`, `10`, `11` */
static const uint64_t EX_BITS[3] = {1, 2, 2};
static const char *const EX_KEYS[4] = {"", "a", "ab", "b"};

/* List number id (0..255): key k gets digit (id >> 2k) & 3: 0 = absent,
 * 1..3 = code `0`, `10`, `11`. Records in logical-key order. Values depend
 * on (id, k) so that newer bindings are visible in merges. */
static size_t ex_list(unsigned id, rsv_record *r, size_t *codeix, uint8_t vals[4][2])
{
    size_t n = 0;
    for (size_t code = 0; code < 3; code++)
        for (size_t k = 0; k < 4; k++) {
            if (((id >> (2 * k)) & 3u) != code + 1) continue;
            unsigned v = (id * 7u + (unsigned)k) % 5u;
            vals[k][0] = (uint8_t)id;
            vals[k][1] = (uint8_t)k;
            r[n].key = (const uint8_t *)EX_KEYS[k];
            r[n].key_len = strlen(EX_KEYS[k]);
            r[n].value = v == 0 ? rsv_value_tombstone() : rsv_value_present(vals[k], v == 1 ? 0 : v == 2 ? 1 : 2);
            r[n].code = EX_CODES[code];
            r[n].code_bits = EX_BITS[code];
            codeix[n] = code;
            n++;
        }
    return n;
}

Test(kv03_v2_write_diff, exhaustive_round_trips)
{
    cset c;
    memset(&c, 0, sizeof c);
    c.bits[0] = 0x58; /* `0 10 11` */
    c.ends[0] = 1, c.ends[1] = 3, c.ends[2] = 5, c.m = 3;
    unsigned ran = 0;
    for (unsigned w = 1; w <= 3; w++)
        for (unsigned id = 0; id < 256; id++) {
            rsv_record r[4] = {0};
            size_t ix[4];
            uint8_t vals[4][2];
            size_t n = ex_list(id, r, ix, vals);
            rsv_kv03_policy p = {RSV_BACKSPACE_EG, 0, w, 3};
            char what[48];
            snprintf(what, sizeof what, "list %u W %u", id, w);
            check_file(r, n, &p, what);
            check_stream(r, ix, n, &c, what);
            ran++;
        }
    cr_assert_eq(ran, 3 * 256);
}

Test(kv03_v2_write_diff, exhaustive_pair_merges)
{
    unsigned ran = 0;
    for (unsigned w = 1; w <= 3; w++)
        for (unsigned a = 0; a < 256; a += w == 2 ? 1 : 16)
            for (unsigned b = 0; b < 256; b++) {
                rsv_record ra[4] = {0}, rb[4] = {0};
                size_t ix[4];
                uint8_t va[4][2], vb[4][2];
                size_t counts[2] = {ex_list(a, ra, ix, va), ex_list(b, rb, ix, vb)};
                const rsv_record *parts[2] = {ra, rb};
                rsv_kv03_policy p = {RSV_BACKSPACE_EG, 0, w, 3};
                char what[48];
                snprintf(what, sizeof what, "lists %u + %u W %u", a, b, w);
                check_merge(parts, counts, 2, &p, (int)((a + b) & 1), what);
                ran++;
            }
    cr_assert_eq(ran, 65536 + 2 * 16 * 256);
}
