/* KV03 differential merges (codec vs oracle, tests/support/kv03_diff.h):
 * every merge shape — disjoint, overlapping, one side empty, both empty,
 * identical inputs, tombstone over value, value over tombstone, 3 and 8
 * inputs — with and without drop-tombstones, under several policies and
 * selector codes. Inputs are encoded by the ORACLE; the codec merge output
 * must equal the oracle merge output byte for byte and both must equal the
 * oracle's batch encoding of a naive newest-wins merge computed here. Error
 * cases: policy mismatch (each field), selector mismatch, fewer than two
 * inputs, corrupt inputs (open and walk failures): both sides fail with the
 * same status (see kv03_diff.h for the lazy-vs-eager input order rule). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "kv03_diff.h"
#include "kv03_diff_gen.h"
#include "testutil.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define MAXIN 8

static const rsv_kv03_policy k_pol[] = {
    {RSV_BACKSPACE_EG, 0, 15, 15},    {RSV_BACKSPACE_EG, 1, 1, 3},
    {RSV_BACKSPACE_EG, 63, 2, 7},     {RSV_BACKSPACE_GOLOMB, 3, 16, 15},
    {RSV_BACKSPACE_GOLOMB, 1, 1000, 255}, {RSV_BACKSPACE_GOLOMB, UINT64_MAX, 2, 3},
};
static const uint64_t k_codes[] = {1, 0, 7, 64, 512};

/* The oracle's encoding (an independent encoder for the inputs and the expectation). */
static uint8_t *oracle_encode(const rsv_record *r, size_t n, const rsv_kv03_policy *p, const uint8_t *code,
                              uint64_t c, size_t *len)
{
    rsv_oracle_record *o = calloc(n ? n : 1, sizeof *o);
    cr_assert_not_null(o);
    rsv_kv03d_to_oracle(r, n, o);
    rsv_oracle_kv03_policy op = rsv_kv03d_policy(p);
    uint8_t *out = NULL;
    size_t bad;
    static const uint8_t def[1] = {0};
    cr_assert_eq(rsv_oracle_kv03_encode(o, n, &op, code ? code : def, code ? c : 1, &out, len, &bad), RSV_OK);
    free(o);
    return out;
}

/* Merge lists[0..k) (oldest first) both ways and against the naive merge. */
static void merge_case(const rsv_record *const *lists, const size_t *counts, size_t k, const rsv_kv03_policy *p,
                       const uint8_t *code, uint64_t c, const char *what)
{
    uint8_t *files[MAXIN];
    size_t sizes[MAXIN], total = 0;
    for (size_t i = 0; i < k; i++) {
        files[i] = oracle_encode(lists[i], counts[i], p, code, c, &sizes[i]);
        total += counts[i];
    }
    rsv_record *merged = calloc(total ? total : 1, sizeof *merged);
    cr_assert_not_null(merged);
    for (int drop = 0; drop < 2; drop++) {
        size_t m = rsv_kv03d_naive_merge(lists, counts, k, drop, merged);
        size_t wl;
        /* every input empty: the output has no C0 (KV03.md §11.2) */
        uint8_t *want = oracle_encode(merged, m, p, code, c, &wl);
        rsv_kv03d_report rep;
        rsv_kv03d_report_init(&rep);
        rsv_status st;
        int ok = rsv_kv03d_merge((const uint8_t *const *)files, sizes, k, drop, want, wl, &st, &rep);
        cr_assert(ok, "%s (k %zu, drop %d, W %llu, c %llu): %s", what, k, drop, (unsigned long long)p->W,
                  (unsigned long long)c, rep.msg);
        cr_assert_eq(st, RSV_OK, "%s: %s", what, rsv_status_name(st));
        free(want);
    }
    free(merged);
    for (size_t i = 0; i < k; i++) free(files[i]);
}

static void two(const rsv_kv03d_set *a, const rsv_kv03d_set *b, const rsv_kv03_policy *p, const uint8_t *code,
                uint64_t c, const char *what)
{
    const rsv_record *l[2] = {a->r, b->r};
    size_t n[2] = {a->n, b->n};
    merge_case(l, n, 2, p, code, c, what);
}

/* Split a set into two by a per-record choice: 0 → a only, 1 → b only, 2 → both. */
static void split(const rsv_kv03d_set *s, rsv_rng *g, unsigned both_pct, rsv_kv03d_set *a, rsv_kv03d_set *b)
{
    memset(a, 0, sizeof *a);
    memset(b, 0, sizeof *b);
    a->r = calloc(s->n + 1, sizeof *a->r);
    b->r = calloc(s->n + 1, sizeof *b->r);
    for (size_t i = 0; i < s->n; i++) {
        uint64_t x = rsv_rng_below(g, 100);
        if (x < both_pct) {
            a->r[a->n++] = s->r[i];
            b->r[b->n] = s->r[i];
            /* b's binding differs from a's in state or bytes sometimes */
            if (rsv_rng_below(g, 2)) b->r[b->n].value = rsv_rng_below(g, 2) ? rsv_value_tombstone() : rsv_value_present("new", 3);
            b->n++;
        } else if (x % 2) {
            a->r[a->n++] = s->r[i];
        } else {
            b->r[b->n++] = s->r[i];
        }
    }
}

Test(kv03_diff_merge, two_input_shapes)
{
    rsv_rng g = {0xD1FF};
    uint8_t code[64];
    for (size_t pi = 0; pi < COUNT(k_pol); pi++)
        for (size_t ci = 0; ci < COUNT(k_codes); ci++)
            for (int round = 0; round < 3; round++) {
                for (size_t j = 0; j < sizeof code; j++) code[j] = (uint8_t)rsv_rng_next(&g);
                const rsv_kv03_policy *p = &k_pol[pi];
                uint64_t c = k_codes[ci];
                rsv_kv03d_set s = rsv_kv03d_gen(&g, 10 + rsv_rng_below(&g, 60), round ? 40 : 300, round ? 20 : 600);
                rsv_kv03d_set a, b, none = {0};
                split(&s, &g, 0, &a, &b);
                two(&a, &b, p, code, c, "disjoint");
                two(&b, &a, p, code, c, "disjoint, swapped");
                free(a.r);
                free(b.r);
                split(&s, &g, 40, &a, &b);
                two(&a, &b, p, code, c, "overlap");
                two(&b, &a, p, code, c, "overlap, swapped");
                two(&s, &none, p, code, c, "newer side empty");
                two(&none, &s, p, code, c, "older side empty");
                two(&none, &none, p, code, c, "both empty");
                two(&s, &s, p, code, c, "identical");
                free(a.r);
                free(b.r);
                rsv_kv03d_set_free(&s);
            }
}

/* Same keys, value vs tombstone in each direction (and present-empty vs
 * tombstone, which must never collapse). */
Test(kv03_diff_merge, tombstone_over_value_and_back)
{
    rsv_rng g = {11};
    for (size_t pi = 0; pi < COUNT(k_pol); pi++) {
        rsv_kv03d_set s = rsv_kv03d_gen(&g, 40, 30, 50);
        rsv_record *t = calloc(s.n + 1, sizeof *t), *v = calloc(s.n + 1, sizeof *v), *e = calloc(s.n + 1, sizeof *e);
        for (size_t i = 0; i < s.n; i++) {
            t[i] = v[i] = e[i] = s.r[i];
            t[i].value = rsv_value_tombstone();
            v[i].value = rsv_value_present("value", 5);
            e[i].value = rsv_value_present(NULL, 0);
        }
        const rsv_record *l[2];
        size_t n[2] = {s.n, s.n};
        l[0] = v, l[1] = t;
        merge_case(l, n, 2, &k_pol[pi], NULL, 0, "tombstone over value");
        l[0] = t, l[1] = v;
        merge_case(l, n, 2, &k_pol[pi], NULL, 0, "value over tombstone");
        l[0] = e, l[1] = t;
        merge_case(l, n, 2, &k_pol[pi], NULL, 0, "tombstone over present-empty");
        l[0] = t, l[1] = e;
        merge_case(l, n, 2, &k_pol[pi], NULL, 0, "present-empty over tombstone");
        /* every other key only in the older input */
        n[1] = 0;
        for (size_t i = 0; i < s.n; i += 2) t[n[1]++] = t[i];
        l[0] = v, l[1] = t;
        merge_case(l, n, 2, &k_pol[pi], NULL, 0, "partial tombstones");
        free(t);
        free(v);
        free(e);
        rsv_kv03d_set_free(&s);
    }
}

/* N = 3 and N = 8 inputs drawn from one key pool (so keys recur across many
 * inputs), some inputs empty. */
Test(kv03_diff_merge, three_and_eight_inputs)
{
    rsv_rng g = {38};
    for (size_t pi = 0; pi < COUNT(k_pol); pi++)
        for (size_t k = 3; k <= 8; k += 5)
            for (int round = 0; round < 4; round++) {
                rsv_kv03d_set pool = rsv_kv03d_gen(&g, 60, 24, 40);
                rsv_record *lists[MAXIN];
                size_t counts[MAXIN];
                for (size_t i = 0; i < k; i++) {
                    lists[i] = calloc(pool.n + 1, sizeof *lists[i]);
                    counts[i] = 0;
                    unsigned pct = round == 3 && i % 3 == 1 ? 0 : (unsigned)rsv_rng_below(&g, 70);
                    for (size_t j = 0; j < pool.n; j++)
                        if (rsv_rng_below(&g, 100) < pct) {
                            lists[i][counts[i]] = pool.r[j];
                            if (rsv_rng_below(&g, 3) == 0)
                                lists[i][counts[i]].value = rsv_rng_below(&g, 2) ? rsv_value_tombstone()
                                                                                  : rsv_value_present(&"01234567"[i], 1);
                            counts[i]++;
                        }
                }
                merge_case((const rsv_record *const *)lists, counts, k, &k_pol[pi], (const uint8_t *)"\x5a\xa5", 13,
                           k == 3 ? "3 inputs" : "8 inputs");
                for (size_t i = 0; i < k; i++) free(lists[i]);
                rsv_kv03d_set_free(&pool);
            }
}

/* ---- errors ---------------------------------------------------------------- */

static void merge_err(const uint8_t *const *files, const size_t *sizes, size_t n, rsv_status want, const char *what)
{
    for (int drop = 0; drop < 2; drop++) {
        rsv_kv03d_report rep;
        rsv_kv03d_report_init(&rep);
        rsv_status st = RSV_OK;
        cr_assert(rsv_kv03d_merge(files, sizes, n, drop, NULL, 0, &st, &rep), "%s: %s", what, rep.msg);
        if (want != RSV_OK) cr_assert_eq(st, want, "%s: %s, expected %s", what, rsv_status_name(st), rsv_status_name(want));
        else cr_assert_neq(st, RSV_OK, "%s: merged", what);
    }
}

Test(kv03_diff_merge, mismatches_and_argument_errors)
{
    rsv_rng g = {5};
    rsv_kv03d_set s = rsv_kv03d_gen(&g, 20, 10, 10);
    rsv_kv03_policy p = {RSV_BACKSPACE_EG, 0, 15, 15};
    size_t na, nb, ne;
    uint8_t *a = oracle_encode(s.r, s.n, &p, NULL, 0, &na);
    uint8_t *empty = oracle_encode(s.r, 0, &p, NULL, 0, &ne);
    static const rsv_kv03_policy other[] = {
        {RSV_BACKSPACE_GOLOMB, 1, 15, 15}, {RSV_BACKSPACE_EG, 1, 15, 15},
        {RSV_BACKSPACE_EG, 0, 14, 15},     {RSV_BACKSPACE_EG, 0, 15, 31},
    };
    for (size_t i = 0; i < COUNT(other); i++) {
        uint8_t *b = oracle_encode(s.r + 1, s.n - 1, &other[i], NULL, 0, &nb);
        const uint8_t *f[2] = {a, b};
        size_t z[2] = {na, nb};
        merge_err(f, z, 2, RSV_ERR_MERGE_MISMATCH, "policy mismatch");
        f[0] = b, f[1] = a, z[0] = nb, z[1] = na;
        merge_err(f, z, 2, RSV_ERR_MERGE_MISMATCH, "policy mismatch, swapped");
        free(b);
        /* an EMPTY input with another policy is a mismatch too */
        b = oracle_encode(s.r, 0, &other[i], NULL, 0, &nb);
        const uint8_t *f3[3] = {a, b, a};
        size_t z3[3] = {na, nb, na};
        merge_err(f3, z3, 3, RSV_ERR_MERGE_MISMATCH, "policy mismatch of an empty input");
        free(b);
    }
    /* selector codes (format revision v2: the union must be prefix-free):
     * `0` vs `1` merge into a two-code file (the helper compares it with the
     * v2 oracle's); `0` vs `00`, 0 bits vs `0`, `0` vs `0^63 1` do not */
    static const struct {
        const char *code;
        uint64_t bits;
    } codes[] = {{"\x80", 1}, {"\x00", 2}, {"", 0}, {"\x00\x00\x00\x00\x00\x00\x00\x01", 64}};
    for (size_t i = 0; i < COUNT(codes); i++) {
        uint8_t *b = oracle_encode(s.r, s.n, &p, (const uint8_t *)codes[i].code, codes[i].bits, &nb);
        const uint8_t *f[3] = {empty, a, b};
        size_t z[3] = {ne, na, nb};
        if (i == 0) {
            for (int drop = 0; drop < 2; drop++) {
                rsv_kv03d_report rep;
                rsv_kv03d_report_init(&rep);
                rsv_status st;
                cr_assert(rsv_kv03d_merge(f, z, 3, drop, NULL, 0, &st, &rep), "`0` and `1`: %s", rep.msg);
                cr_assert_eq(st, RSV_OK);
            }
        } else {
            merge_err(f, z, 3, RSV_ERR_MERGE_MISMATCH, "selector mismatch");
        }
        free(b);
        /* an empty input carries no C0: no mismatch */
        b = oracle_encode(s.r, 0, &p, (const uint8_t *)codes[i].code, codes[i].bits, &nb);
        size_t ml;
        uint8_t *want = oracle_encode(s.r, s.n, &p, NULL, 0, &ml);
        const uint8_t *f2[2] = {a, b};
        size_t z2[2] = {na, nb};
        rsv_kv03d_report rep;
        rsv_kv03d_report_init(&rep);
        rsv_status st;
        cr_assert(rsv_kv03d_merge(f2, z2, 2, 0, want, ml, &st, &rep), "empty with other code: %s", rep.msg);
        cr_assert_eq(st, RSV_OK);
        free(want);
        free(b);
    }
    const uint8_t *f[1] = {a};
    size_t z[1] = {na};
    merge_err(f, z, 1, RSV_ERR_INVALID_ARGUMENT, "one input");
    merge_err(f, z, 0, RSV_ERR_INVALID_ARGUMENT, "no input");
    free(a);
    free(empty);
    rsv_kv03d_set_free(&s);
}

/* Corrupt inputs (CRCs resealed so only §3.3 or §9.1 can catch them): each
 * resealed single-bit flip of a 30-record input's data stream or directory,
 * merged as the older and as the newer of two, and next to another corrupt
 * input. Both sides must agree (status, or the lazy-order rule). */
Test(kv03_diff_merge, corrupt_inputs)
{
    rsv_rng g = {77};
    rsv_kv03_policy p = {RSV_BACKSPACE_GOLOMB, 3, 4, 15};
    rsv_kv03d_set s = rsv_kv03d_gen(&g, 30, 6, 4);
    size_t na, nb;
    uint8_t *a = oracle_encode(s.r, s.n, &p, NULL, 0, &na);
    uint8_t *b = oracle_encode(s.r + 3, s.n - 3, &p, NULL, 0, &nb);
    uint8_t *x = malloc(na), *y = malloc(nb);
    size_t failures = 0, runs = 0;
    uint64_t extent_bytes = 0;
    for (int i = 0; i < 8; i++) extent_bytes |= (uint64_t)a[96 + 72 + i] << (8 * i); /* section 0 length */
    for (size_t bit = 0; bit < 8 * (192 + extent_bytes); bit++) {
        memcpy(x, a, na);
        x[96 + bit / 8] ^= (uint8_t)(0x80u >> (bit % 8));
        rsv_kv03d_reseal(x, na);
        const uint8_t *f[2] = {x, b};
        size_t z[2] = {na, nb};
        for (int swap = 0; swap < 2; swap++) {
            if (swap) f[0] = b, f[1] = x, z[0] = nb, z[1] = na;
            rsv_kv03d_report rep;
            rsv_kv03d_report_init(&rep);
            rsv_status st;
            cr_assert(rsv_kv03d_merge(f, z, 2, (int)(bit & 1), NULL, 0, &st, &rep), "flip of body bit %zu: %s", bit,
                      rep.msg);
            failures += st != RSV_OK;
            runs++;
        }
        /* two corrupt inputs: the other one flipped at a fixed data bit */
        memcpy(y, b, nb);
        y[96 + 192 + 1 + bit % 3] ^= 0x10;
        rsv_kv03d_reseal(y, nb);
        const uint8_t *f2[3] = {x, b, y};
        size_t z2[3] = {na, nb, nb};
        rsv_kv03d_report rep;
        rsv_kv03d_report_init(&rep);
        rsv_status st;
        cr_assert(rsv_kv03d_merge(f2, z2, 3, 0, NULL, 0, &st, &rep), "two corrupt inputs, bit %zu: %s", bit, rep.msg);
    }
    /* most flips break the input (some only change a value's bytes) */
    cr_assert_gt(failures, runs / 2, "%zu of %zu corrupt merges failed", failures, runs);
    free(x);
    free(y);
    free(a);
    free(b);
    rsv_kv03d_set_free(&s);
}
