/* Bounded-exhaustive KV03 differential tests over the six-key universe
 * {"", "\x00", "a", "ab", "abc", "b"} (the empty key, a 0x00 byte, a prefix
 * chain, keys splitting inside a byte: "a"/"b" share 6 bits), each key
 * absent, a tombstone, present-empty or present "x": 4^6 = 4096 sets.
 * docs/testing.md ("The bounded-exhaustive KV03 enumeration") states the same.
 *
 * Policies: P1 = EG0, W = 2, K = 3 and P2 = Golomb m = 3, W = 1, K = 3.
 * A merge case is one tuple of sets (oldest first) and one drop-tombstones
 * mode (off, on); its expected output is the oracle's batch encoding of the
 * set computed here key by key (newest state wins unless absent;
 * drop-tombstones turns a winning tombstone into "absent"). "Both sides":
 * codec merge == oracle merge == that encoding (rsv_kv03d_merge). "Codec":
 * the codec merge (rsv_merge_files) == that encoding — which is what the
 * oracle merge outputs by definition (§11.2; oracle_kv03.h merge step 6), the
 * oracle merge itself being checked against it on every CI case — plus both
 * sides on every 97th case. Every enumeration counts its cases and fails
 * unless exactly 2 · 4^(nkeys · inputs) ran.
 *
 * CI (ctest; measured under ASan+UBSan: 25 s CPU, 1 min 54 s wall at load 9
 * on the shared 2-core box):
 *  - sets: EVERY set under W ∈ {1, 2, 3} × {EG0, Golomb m = 3} (K = 3, code
 *    `0`), and EVERY set under P1 with selector code C0 ∈ {empty, `0`,
 *    `101100111`} × K ∈ {3, 15, 2^64−1} (W = 2): codec batch and streaming
 *    writer bytes == oracle bytes, every decode level returns the set, and
 *    the record stream agrees (rsv_kv03d_roundtrip).
 *  - pairs, both sides: every ordered pair over a 4-key sub-universe, P1 over
 *    A = {"", "a", "ab", "b"} and B = {"\x00", "a", "abc", "b"}, P2 over A
 *    (65,536 pairs × 2 modes each).
 *  - triples, codec (both sides every 97th): every ordered triple over the
 *    3-key sub-universe T = {"a", "ab", "b"} (64³ = 262,144 triples × 2
 *    modes), P1 and P2. Both sides on every triple cost ~25 s CPU each.
 *
 * Nightly (RSV_KV03_EXHAUSTIVE_FULL=1, fuzz/lib/nightly.sh), "codec" checks:
 *  - pairs: EVERY ordered pair of the 4096 sets (16.7M pairs × 2 modes), P1
 *    and P2 (one test each);
 *  - triples: every ordered triple of 3-input merges over a 4-key
 *    sub-universe (256³ = 16.7M triples × 2 modes): P1 over A, P2 over B.
 *    All 4096³ triples (6.9·10^10) are out of reach, hence the sub-universes.
 *    Each of the four is ~33.5M codec merges at ~10 µs CPU each under
 *    ASan+UBSan (the CI triples' rate): ~6 min CPU, 10–15 min wall under
 *    load (the EG0 pair run alone measured 684 s wall at load ~7). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kv03_diff.h"
#include "kv03_diff_gen.h"

#define NSETS 4096u
#define MAX_INPUTS 3
static const unsigned k_all[RSV_KV03D_UNIVERSE] = {0, 1, 2, 3, 4, 5};
static const unsigned k_sub_a[4] = {0, 2, 3, 5}; /* "", "a", "ab", "b" */
static const unsigned k_sub_b[4] = {1, 2, 4, 5}; /* "\x00", "a", "abc", "b" */
static const unsigned k_sub_t[3] = {2, 3, 5};    /* "a", "ab", "b" */
static const rsv_kv03_policy k_p1 = {RSV_BACKSPACE_EG, 0, 2, 3};
static const rsv_kv03_policy k_p2 = {RSV_BACKSPACE_GOLOMB, 3, 1, 3};

static uint8_t *oracle_encode(const rsv_record *r, size_t n, const rsv_kv03_policy *p, size_t *len)
{
    rsv_oracle_record o[RSV_KV03D_UNIVERSE];
    rsv_kv03d_to_oracle(r, n, o);
    rsv_oracle_kv03_policy op = rsv_kv03d_policy(p);
    uint8_t *out = NULL;
    size_t bad;
    cr_assert_eq(rsv_oracle_kv03_encode(o, n, &op, (const uint8_t *)"\0", 1, &out, len, &bad), RSV_OK);
    return out;
}

static void roundtrip_every_set(const rsv_kv03_policy *p, const uint8_t *code, uint64_t code_bits, const char *what)
{
    rsv_record r[RSV_KV03D_UNIVERSE] = {0};
    unsigned done = 0;
    for (unsigned s = 0; s < NSETS; s++, done++) {
        size_t n = rsv_kv03d_universe_set(s, k_all, RSV_KV03D_UNIVERSE, r);
        rsv_kv03d_report rep;
        rsv_kv03d_report_init(&rep);
        cr_assert(rsv_kv03d_roundtrip(r, n, p, code, code_bits, &rep), "set %u, %s: %s", s, what, rep.msg);
        cr_assert_eq(rep.status, RSV_OK, "set %u, %s", s, what);
    }
    cr_assert_eq(done, NSETS);
}

Test(kv03_diff_exhaustive, every_set_roundtrips)
{
    static const rsv_kv03_policy pols[] = {
        {RSV_BACKSPACE_EG, 0, 1, 3}, {RSV_BACKSPACE_EG, 0, 2, 3}, {RSV_BACKSPACE_EG, 0, 3, 3},
        {RSV_BACKSPACE_GOLOMB, 3, 1, 3}, {RSV_BACKSPACE_GOLOMB, 3, 2, 3}, {RSV_BACKSPACE_GOLOMB, 3, 3, 3},
    };
    for (size_t pi = 0; pi < sizeof pols / sizeof pols[0]; pi++) roundtrip_every_set(&pols[pi], NULL, 0, "default code");
}

/* Selector code C0 and group size K: KV03.md §1.2 (C0 may be empty with one
 * code; codes of up to 512 bits) and §4 (K = 2^n − 1, n ≥ 2; stored, the
 * data stream does not depend on it). */
Test(kv03_diff_exhaustive, every_set_roundtrips_codes_and_k)
{
    static const uint8_t code9[2] = {0xB3, 0x80}; /* `101100111` */
    static const struct {
        const uint8_t *code;
        uint64_t bits;
        const char *name;
    } codes[] = {{(const uint8_t *)"", 0, "empty"}, {(const uint8_t *)"\0", 1, "`0`"}, {code9, 9, "`101100111`"}};
    static const uint64_t ks[] = {3, 15, UINT64_MAX};
    for (size_t c = 0; c < sizeof codes / sizeof codes[0]; c++)
        for (size_t k = 0; k < sizeof ks / sizeof ks[0]; k++) {
            rsv_kv03_policy p = k_p1;
            p.K = ks[k];
            char what[64];
            snprintf(what, sizeof what, "code %s, K %llu", codes[c].name, (unsigned long long)ks[k]);
            roundtrip_every_set(&p, codes[c].code, codes[c].bits, what);
        }
}

/* The expected merge of sets[0..n) (oldest first) over nkeys keys. */
static unsigned merged_set(const unsigned *sets, unsigned n, unsigned nkeys, int drop)
{
    unsigned m = 0;
    for (unsigned j = 0; j < nkeys; j++) {
        unsigned st = 0;
        for (unsigned i = 0; i < n; i++) {
            unsigned si = (sets[i] >> (2 * j)) & 3u;
            if (si) st = si;
        }
        if (drop && st == 1) st = 0;
        m |= st << (2 * j);
    }
    return m;
}

typedef struct universe {
    unsigned nsets;
    uint8_t **files;
    size_t *sizes;
    rsv_kv03_file *opened;
} universe;

static universe encode_all(const unsigned *keys, unsigned nkeys, const rsv_kv03_policy *p)
{
    universe u;
    u.nsets = 1u << (2 * nkeys);
    u.files = calloc(u.nsets, sizeof *u.files);
    u.sizes = calloc(u.nsets, sizeof *u.sizes);
    u.opened = calloc(u.nsets, sizeof *u.opened);
    cr_assert(u.files && u.sizes && u.opened);
    rsv_record r[RSV_KV03D_UNIVERSE] = {0};
    for (unsigned s = 0; s < u.nsets; s++) {
        size_t n = rsv_kv03d_universe_set(s, keys, nkeys, r);
        u.files[s] = oracle_encode(r, n, p, &u.sizes[s]);
        cr_assert_eq(rsv_kv03_open(u.files[s], u.sizes[s], p, &u.opened[s]), RSV_OK);
    }
    return u;
}

static void free_all(universe *u)
{
    for (unsigned s = 0; s < u->nsets; s++) free(u->files[s]);
    free(u->files);
    free(u->sizes);
    free(u->opened);
}

/* Codec vs oracle merge of the tuple (expected: the encoded set m). */
static void both_sides(const universe *u, const unsigned *t, unsigned n, int drop, unsigned m)
{
    const uint8_t *f[MAX_INPUTS];
    size_t z[MAX_INPUTS];
    for (unsigned i = 0; i < n; i++) {
        f[i] = u->files[t[i]];
        z[i] = u->sizes[t[i]];
    }
    rsv_kv03d_report rep;
    rsv_kv03d_report_init(&rep);
    rsv_status st;
    cr_assert(rsv_kv03d_merge(f, z, n, drop, u->files[m], u->sizes[m], &st, &rep),
              "sets %u + %u (+ %u) (drop %d): %s", t[0], t[1], n > 2 ? t[2] : 0, drop, rep.msg);
    cr_assert_eq(st, RSV_OK);
}

/* The codec merge alone against the expected encoding. */
static void codec_only(const universe *u, const unsigned *t, unsigned n, int drop, unsigned m)
{
    const rsv_kv03_file *in[MAX_INPUTS];
    for (unsigned i = 0; i < n; i++) in[i] = &u->opened[t[i]];
    uint8_t *out;
    size_t len;
    cr_assert_eq(rsv_merge_files(in, n, drop ? RSV_MERGE_DROP_TOMBSTONES : 0, &out, &len), RSV_OK,
                 "sets %u + %u (+ %u)", t[0], t[1], n > 2 ? t[2] : 0);
    cr_assert(len == u->sizes[m] && memcmp(out, u->files[m], len) == 0,
              "sets %u + %u (+ %u) (drop %d): codec merge differs", t[0], t[1], n > 2 ? t[2] : 0, drop);
    free(out);
}

/* Every ordered n-tuple of sets over keys, both modes. oracle_every = 1:
 * both sides on every case; else codec only, both sides every oracle_every-th. */
static void every_tuple(const unsigned *keys, unsigned nkeys, const rsv_kv03_policy *p, unsigned n, unsigned oracle_every)
{
    universe u = encode_all(keys, nkeys, p);
    uint64_t total = 1, count = 0;
    for (unsigned i = 0; i < n; i++) total *= u.nsets;
    unsigned t[MAX_INPUTS] = {0};
    for (uint64_t c = 0; c < total; c++) {
        uint64_t x = c;
        for (unsigned i = 0; i < n; i++, x /= u.nsets) t[n - 1 - i] = (unsigned)(x % u.nsets);
        for (int drop = 0; drop < 2; drop++, count++) {
            unsigned m = merged_set(t, n, nkeys, drop);
            if (count % oracle_every == 0)
                both_sides(&u, t, n, drop, m);
            else
                codec_only(&u, t, n, drop, m);
        }
    }
    /* 2 · 4^(nkeys · n), computed apart from the loop bounds */
    cr_assert_eq(count, 2ull << (2 * nkeys * n), "ran %llu merge cases", (unsigned long long)count);
    free_all(&u);
}

Test(kv03_diff_exhaustive, every_pair_subset_a) { every_tuple(k_sub_a, 4, &k_p1, 2, 1); }
Test(kv03_diff_exhaustive, every_pair_subset_b) { every_tuple(k_sub_b, 4, &k_p1, 2, 1); }
Test(kv03_diff_exhaustive, every_pair_subset_a_golomb3_w1) { every_tuple(k_sub_a, 4, &k_p2, 2, 1); }
Test(kv03_diff_exhaustive, every_triple_subset_t) { every_tuple(k_sub_t, 3, &k_p1, 3, 97); }
Test(kv03_diff_exhaustive, every_triple_subset_t_golomb3_w1) { every_tuple(k_sub_t, 3, &k_p2, 3, 97); }

/* Nightly (see the file comment). */
static void full_only(void)
{
    const char *env = getenv("RSV_KV03_EXHAUSTIVE_FULL");
    if (!env || strcmp(env, "1") != 0) cr_skip_test("set RSV_KV03_EXHAUSTIVE_FULL=1 (the nightly does)");
}

Test(kv03_diff_exhaustive, every_pair_full)
{
    full_only();
    every_tuple(k_all, RSV_KV03D_UNIVERSE, &k_p1, 2, 97);
}
Test(kv03_diff_exhaustive, every_pair_full_golomb3_w1)
{
    full_only();
    every_tuple(k_all, RSV_KV03D_UNIVERSE, &k_p2, 2, 97);
}
Test(kv03_diff_exhaustive, every_triple_full_subset_a)
{
    full_only();
    every_tuple(k_sub_a, 4, &k_p1, 3, 97);
}
Test(kv03_diff_exhaustive, every_triple_full_subset_b_golomb3_w1)
{
    full_only();
    every_tuple(k_sub_b, 4, &k_p2, 3, 97);
}
