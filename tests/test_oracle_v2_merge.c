/* The KV03 v2 oracle: merges across code sets (§11.2) and randomized
 * round trips of multi-code record lists through the file writer/reader and
 * the record stream. Expected merge results are written out per case; the
 * round trip compares decode(encode(x)) with x and checks that an m <= 1 list
 * gives the v1 writer's bytes. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "reservoir/oracle_kv03.h"

#include "oracle_v2_util.h"
#include "testutil.h"

#define REC rsv_ov2_rec
static const rsv_oracle_kv03_policy POL = {RSV_ORACLE_BACKSPACE_EG, 0, 3, 3};

static uint8_t *encode(const rsv_oracle_crecord *r, size_t n, const rsv_oracle_kv03_policy *p,
                       size_t *len)
{
    uint8_t *out = NULL;
    rsv_status st = rsv_oracle_kv03_encode_v2(r, n, p, &out, len, NULL);
    cr_assert_eq(st, RSV_OK, "encode status %d", st);
    return out;
}

typedef struct input {
    uint8_t *b;
    size_t n;
} input;

static input mk(const rsv_oracle_crecord *r, size_t n)
{
    input in;
    in.b = encode(r, n, &POL, &in.n);
    return in;
}

static rsv_status merge(const input *in, size_t k, int drop, int v1, rsv_oracle_merge_result *res)
{
    rsv_oracle_bytes b[4];
    for (size_t i = 0; i < k; i++) {
        b[i].data = in[i].b;
        b[i].size = in[i].n;
    }
    return v1 ? rsv_oracle_kv03_merge(b, k, drop, res) : rsv_oracle_kv03_merge_v2(b, k, drop, res);
}

/* The merge output equals the writer's file for `want`. */
static void merge_expect(const input *in, size_t k, int drop, const rsv_oracle_crecord *want,
                         size_t nwant)
{
    rsv_oracle_merge_result res;
    cr_assert_eq(merge(in, k, drop, 0, &res), RSV_OK, "merge status %d input %zu", res.status,
                 res.input);
    size_t nw;
    uint8_t *w = encode(want, nwant, &POL, &nw);
    cr_assert_eq(res.out_len, nw);
    cr_assert_eq(memcmp(res.out, w, nw), 0);
    free(w);
    rsv_oracle_merge_result_free(&res);
}

static void free_inputs(input *in, size_t k)
{
    for (size_t i = 0; i < k; i++)
        free(in[i].b);
}

/* Single-code inputs with different codes `0` and `1` (prefix-free): v2
 * merges them into one two-code file; the v1 merge still refuses them. */
Test(oracle_v2_merge, different_single_codes_merge)
{
    rsv_oracle_crecord a[2] = {REC("0", "a", "1"), REC("0", "b", NULL)};
    rsv_oracle_crecord b[2] = {REC("1", "", "2"), REC("1", "a", "3")};
    input in[2] = {mk(a, 2), mk(b, 2)};
    rsv_oracle_crecord want[4] = {a[0], a[1], b[0], b[1]};
    merge_expect(in, 2, 0, want, 4);
    /* Inputs newest-first do not change a union of disjoint keys. */
    input rev[2] = {in[1], in[0]};
    merge_expect(rev, 2, 0, want, 4);
    rsv_oracle_merge_result res;
    cr_assert_eq(merge(in, 2, 0, 1, &res), RSV_ERR_MERGE_MISMATCH);
    cr_assert_eq(res.input, 1);
    rsv_oracle_merge_result_free(&res);
    free_inputs(in, 2);
}

/* The same key under two codes is two logical keys; the same logical key
 * takes the newest binding, also across three inputs. */
Test(oracle_v2_merge, newest_binding_per_logical_key)
{
    rsv_oracle_crecord a[2] = {REC("0", "k", "old"), REC("10", "k", "a10")};
    rsv_oracle_crecord b[1] = {REC("0", "k", NULL)};
    rsv_oracle_crecord c[2] = {REC("0", "k", "new"), REC("11", "k", NULL)};
    input in[3] = {mk(a, 2), mk(b, 1), mk(c, 2)};
    rsv_oracle_crecord want[3] = {c[0], a[1], c[1]};
    merge_expect(in, 3, 0, want, 3);
    /* Drop-tombstones: `11` "k" goes and with it code `11`. */
    rsv_oracle_crecord dropped[2] = {c[0], a[1]};
    merge_expect(in, 3, 1, dropped, 2);
    /* Without the newest input, the tombstone of b hides "old" and drops. */
    rsv_oracle_crecord only10[1] = {a[1]};
    merge_expect(in, 2, 1, only10, 1);
    free_inputs(in, 3);
}

/* Union not prefix-free: `0` in input 0, `01` in input 2 -> MERGE_MISMATCH
 * naming input 2 (input 1's `1` clashes with nothing). An empty code beside
 * `0` clashes too. Equal codes across inputs are fine. */
Test(oracle_v2_merge, union_must_be_prefix_free)
{
    rsv_oracle_crecord a[1] = {REC("0", "a", NULL)};
    rsv_oracle_crecord b[1] = {REC("1", "a", NULL)};
    rsv_oracle_crecord c[2] = {REC("01", "a", NULL), REC("1", "b", NULL)};
    input in[3] = {mk(a, 1), mk(b, 1), mk(c, 2)};
    rsv_oracle_merge_result res;
    cr_assert_eq(merge(in, 3, 0, 0, &res), RSV_ERR_MERGE_MISMATCH);
    cr_assert_eq(res.input, 2);
    cr_assert_eq(res.phase, RSV_ORACLE_PHASE_NONE);
    rsv_oracle_merge_result_free(&res);
    free_inputs(in, 3);

    rsv_oracle_crecord e[1] = {REC("", "z", NULL)};
    input in2[2] = {mk(a, 1), mk(e, 1)};
    cr_assert_eq(merge(in2, 2, 0, 0, &res), RSV_ERR_MERGE_MISMATCH);
    cr_assert_eq(res.input, 1);
    rsv_oracle_merge_result_free(&res);
    free_inputs(in2, 2);
}

/* Check order: policy before dictionaries; a bad dictionary (§6.3) names its
 * input with phase DICTIONARY; dictionaries before the union check. */
Test(oracle_v2_merge, init_check_order)
{
    rsv_oracle_crecord a[2] = {REC("0", "a", NULL), REC("10", "a", NULL)};
    rsv_oracle_crecord b[1] = {REC("00", "a", NULL)}; /* clashes with `0` */
    input in[2] = {mk(a, 2), mk(b, 1)};
    /* Input 0's dictionary `0`, `10` (byte 50, offsets [0, 1, 3]) made
     * `1`, `10`... by setting bit 0: D_0 = `1` is a prefix of D_1 -> ORDER. */
    uint8_t *d5 = in[0].b + rsv_ov2_section(in[0].b, 5);
    cr_assert_eq(d5[0], 0x40); /* `010`: `0` then `10` */
    d5[0] = 0xC0;
    rsv_ov2_fix_crcs(in[0].b, in[0].n);
    rsv_oracle_merge_result res;
    cr_assert_eq(merge(in, 2, 0, 0, &res), RSV_ERR_DICTIONARY_ORDER);
    cr_assert_eq(res.input, 0);
    cr_assert_eq(res.phase, RSV_ORACLE_PHASE_DICTIONARY);
    cr_assert_eq(res.step, 4);
    rsv_oracle_merge_result_free(&res);
    free_inputs(in, 2);

    /* Different W: MERGE_MISMATCH at input 1 before any dictionary is read. */
    rsv_oracle_kv03_policy p2 = {RSV_ORACLE_BACKSPACE_EG, 0, 2, 3};
    input in2[2] = {mk(a, 2), {NULL, 0}};
    in2[1].b = encode(b, 1, &p2, &in2[1].n);
    uint8_t *e5 = in2[0].b + rsv_ov2_section(in2[0].b, 5);
    e5[0] = 0xC0;
    rsv_ov2_fix_crcs(in2[0].b, in2[0].n);
    cr_assert_eq(merge(in2, 2, 0, 0, &res), RSV_ERR_MERGE_MISMATCH);
    cr_assert_eq(res.input, 1);
    rsv_oracle_merge_result_free(&res);
    free_inputs(in2, 2);

    /* Fewer than two inputs. */
    input one[1] = {mk(a, 2)};
    cr_assert_eq(merge(one, 1, 0, 0, &res), RSV_ERR_INVALID_ARGUMENT);
    rsv_oracle_merge_result_free(&res);
    free_inputs(one, 1);
}

/* Everything dropped, or all inputs empty: the empty file of the policy. */
Test(oracle_v2_merge, empty_results)
{
    rsv_oracle_crecord a[1] = {REC("10", "a", "v")};
    rsv_oracle_crecord b[1] = {REC("10", "a", NULL)};
    input in[2] = {mk(a, 1), mk(b, 1)};
    merge_expect(in, 2, 1, NULL, 0);
    free_inputs(in, 2);
    input e[2] = {mk(NULL, 0), mk(NULL, 0)};
    merge_expect(e, 2, 0, NULL, 0);
    free_inputs(e, 2);
}

/* ---- randomized round trips ---------------------------------------------- */

enum { MAXC = 12, MAXR = 40, CODE_BYTES = 24 };

typedef struct gen {
    uint8_t code[MAXC][CODE_BYTES];
    uint64_t clen[MAXC];
    size_t m;
    uint8_t keys[MAXR][3];
    uint8_t vals[MAXR][2];
    rsv_oracle_crecord r[MAXR];
    size_t n;
} gen;

static int code_cmp(const void *x, const void *y)
{
    return rsv_oracle_code_compare(*(const rsv_oracle_code *)x, *(const rsv_oracle_code *)y);
}

/* A prefix-free set: start from {""}, split random leaves (x -> x0, x1) and
 * extend random leaves by random bits; then keep a random nonempty subset. */
static void gen_codes(gen *g, rsv_rng *rng)
{
    memset(g->code, 0, sizeof g->code);
    g->m = 1;
    g->clen[0] = 0;
    size_t ops = rsv_rng_below(rng, 8);
    for (size_t k = 0; k < ops; k++) {
        size_t j = rsv_rng_below(rng, g->m);
        if (rsv_rng_below(rng, 3) != 0 && g->m < MAXC) { /* split */
            memcpy(g->code[g->m], g->code[j], CODE_BYTES);
            g->clen[g->m] = g->clen[j];
            rsv_set_bit(g->code[g->m], g->clen[g->m]++, 1);
            rsv_set_bit(g->code[j], g->clen[j]++, 0);
            g->m++;
        } else { /* extend by 1..20 random bits (stays below 192 bits) */
            uint64_t e = 1 + rsv_rng_below(rng, 20);
            for (uint64_t t = 0; t < e && g->clen[j] < 8 * CODE_BYTES; t++)
                rsv_set_bit(g->code[j], g->clen[j]++, (unsigned)rsv_rng_below(rng, 2));
        }
    }
    /* Random subset (at least one code), in increasing order. */
    size_t keep = 0;
    for (size_t j = 0; j < g->m; j++) {
        if (rsv_rng_below(rng, 4) == 0 && !(j + 1 == g->m && keep == 0))
            continue;
        memmove(g->code[keep], g->code[j], CODE_BYTES);
        g->clen[keep++] = g->clen[j];
    }
    g->m = keep;
}

static void gen_records(gen *g, rsv_rng *rng)
{
    rsv_oracle_code sorted[MAXC];
    for (size_t j = 0; j < g->m; j++) {
        sorted[j].bits = g->code[j];
        sorted[j].nbits = g->clen[j];
    }
    qsort(sorted, g->m, sizeof sorted[0], code_cmp);
    static const uint8_t alphabet[4] = {0x00, 'a', 'b', 0xff};
    g->n = 0;
    for (size_t j = 0; j < g->m; j++) {
        size_t k = rsv_rng_below(rng, 6);
        size_t start = g->n;
        for (size_t t = 0; t < k && g->n < MAXR; t++) {
            rsv_oracle_crecord *r = &g->r[g->n];
            memset(r, 0, sizeof *r);
            r->code = sorted[j];
            r->rec.key_len = rsv_rng_below(rng, 4);
            for (size_t b = 0; b < r->rec.key_len; b++)
                g->keys[g->n][b] = alphabet[rsv_rng_below(rng, 4)];
            r->rec.key = g->keys[g->n];
            if (rsv_rng_below(rng, 3) == 0) {
                r->rec.state = RSV_ORACLE_TOMBSTONE;
            } else {
                r->rec.state = RSV_ORACLE_PRESENT;
                r->rec.value_len = rsv_rng_below(rng, 3);
                for (size_t b = 0; b < r->rec.value_len; b++)
                    g->vals[g->n][b] = (uint8_t)rsv_rng_next(rng);
                r->rec.value = g->vals[g->n];
            }
            /* Keep keys of this code strictly increasing: insert in order,
             * skip duplicates. */
            size_t p = g->n;
            int dup = 0;
            while (p > start) {
                int c = rsv_oracle_key_compare(g->r[p - 1].rec.key, g->r[p - 1].rec.key_len,
                                               r->rec.key, r->rec.key_len);
                if (c == 0)
                    dup = 1;
                if (c <= 0)
                    break;
                p--;
            }
            if (dup)
                continue;
            /* Records point at their own key/value slots: move slots along. */
            rsv_oracle_crecord tmp = *r;
            uint8_t tk[3], tv[2];
            memcpy(tk, g->keys[g->n], 3);
            memcpy(tv, g->vals[g->n], 2);
            for (size_t q = g->n; q > p; q--) {
                g->r[q] = g->r[q - 1];
                memcpy(g->keys[q], g->keys[q - 1], 3);
                memcpy(g->vals[q], g->vals[q - 1], 2);
                g->r[q].rec.key = g->keys[q];
                g->r[q].rec.value = g->vals[q];
            }
            g->r[p] = tmp;
            memcpy(g->keys[p], tk, 3);
            memcpy(g->vals[p], tv, 2);
            g->r[p].rec.key = g->keys[p];
            g->r[p].rec.value = g->vals[p];
            g->n++;
        }
    }
}

static void check_same(const rsv_oracle_records *got, const uint64_t *idx,
                       const rsv_oracle_code *codes, const gen *g, const char *what, int it)
{
    cr_assert_eq(got->count, g->n, "%s (iteration %d): %zu records, want %zu", what, it,
                 got->count, g->n);
    for (size_t i = 0; i < g->n; i++) {
        cr_assert(rsv_oracle_record_equal(&got->items[i], &g->r[i].rec), "%s (%d): record %zu",
                  what, it, i);
        cr_assert(rsv_ov2_code_eq(codes[idx[i]], g->r[i].code), "%s (%d): code of %zu", what, it,
                  i);
    }
}

Test(oracle_v2_merge, random_round_trips)
{
    rsv_rng rng = {20261203};
    static const rsv_oracle_kv03_policy pols[5] = {{RSV_ORACLE_BACKSPACE_EG, 0, 15, 15},
                                                   {RSV_ORACLE_BACKSPACE_EG, 1, 1, 3},
                                                   {RSV_ORACLE_BACKSPACE_EG, 3, 2, 3},
                                                   {RSV_ORACLE_BACKSPACE_GOLOMB, 1, 3, 7},
                                                   {RSV_ORACLE_BACKSPACE_GOLOMB, 7, 4, 15}};
    int multi = 0;
    gen *g = malloc(sizeof *g);
    for (int it = 0; it < 400; it++) {
        gen_codes(g, &rng);
        gen_records(g, &rng);
        const rsv_oracle_kv03_policy *p = &pols[rsv_rng_below(&rng, 5)];
        size_t n;
        uint8_t *f = encode(g->r, g->n, p, &n);
        rsv_oracle_kv03_v2_result res;
        for (int mode = 1; mode <= 2; mode++) {
            cr_assert_eq(rsv_oracle_kv03_decode_v2(f, n, p, (rsv_oracle_kv03_mode)mode, &res),
                         RSV_OK, "iteration %d mode %d: status %d phase %d step %u", it, mode,
                         res.base.status, res.base.phase, res.base.step);
            check_same(&res.base.records, res.code_index, res.dict.codes, g, "file", it);
            if (res.dict.m >= 2)
                multi++;
            rsv_oracle_kv03_v2_result_free(&res);
        }
        /* m <= 1: the v1 writer with C0 gives the same bytes. */
        int one_code = 1;
        for (size_t i = 1; i < g->n; i++)
            if (!rsv_ov2_code_eq(g->r[i].code, g->r[0].code))
                one_code = 0;
        if (one_code && g->n > 0) {
            rsv_oracle_record plain[MAXR];
            for (size_t i = 0; i < g->n; i++)
                plain[i] = g->r[i].rec;
            uint8_t *v1 = NULL;
            size_t nv1 = 0;
            cr_assert_eq(rsv_oracle_kv03_encode(plain, g->n, p, g->r[0].code.bits,
                                                g->r[0].code.nbits, &v1, &nv1, NULL),
                         RSV_OK);
            cr_assert_eq(nv1, n);
            cr_assert_eq(memcmp(v1, f, n), 0, "iteration %d: v1 and v2 writers differ", it);
            free(v1);
        }
        free(f);
        /* Stream: read back with the whole generated set (a superset of the
         * codes used), in reverse order. */
        uint8_t *s = NULL;
        uint64_t E = 0;
        cr_assert_eq(rsv_oracle_stream_encode_v2(g->r, g->n, &s, &E, NULL), RSV_OK);
        rsv_oracle_code set[MAXC];
        for (size_t j = 0; j < g->m; j++) {
            set[g->m - 1 - j].bits = g->code[j];
            set[g->m - 1 - j].nbits = g->clen[j];
        }
        rsv_oracle_stream_v2_result sr;
        cr_assert_eq(rsv_oracle_stream_decode_v2(rsv_view_make(s, 0, E), set, g->m, &sr), RSV_OK,
                     "iteration %d: stream status %d record %llu bit %llu", it, sr.base.status,
                     (unsigned long long)sr.base.record, (unsigned long long)sr.base.bitpos);
        check_same(&sr.base.records, sr.code_index, set, g, "stream", it);
        rsv_oracle_stream_v2_result_free(&sr);
        free(s);
    }
    free(g);
    cr_assert_gt(multi, 200, "only %d multi-code decodes", multi);
}
