/* Bounded-exhaustive KV03 differential tests over the six-key universe
 * {"", "\x00", "a", "ab", "abc", "b"} (the empty key, a 0x00 byte, a prefix
 * chain, keys splitting inside a byte: "a"/"b" share 6 bits), each key
 * absent, a tombstone, present-empty or present "x": 4^6 = 4096 sets.
 *
 *  - sets: EVERY set under W ∈ {1, 2, 3} × {EG0, Golomb m = 3} (K = 3):
 *    codec bytes == oracle bytes, and every decode level returns the set
 *    (rsv_kv03d_roundtrip).
 *  - pairs (CI): EVERY ordered pair of sets over a 4-key sub-universe
 *    (256² = 65,536 pairs, with and without drop-tombstones) for EG0 W = 2:
 *    codec merge == oracle merge == the oracle's batch encoding of the
 *    expected set, computed here key by key (newer state wins unless absent;
 *    drop-tombstones turns a winning tombstone into "absent"). Two subsets:
 *    {"", "a", "ab", "b"} and {"\x00", "a", "abc", "b"}.
 *  - pairs (nightly, RSV_KV03_EXHAUSTIVE_FULL=1): EVERY ordered pair of the
 *    4096 sets (16.7M pairs × 2 modes) through the codec merge, compared with
 *    the oracle encoding of the expected set — which is what the oracle merge
 *    outputs by definition (§11.2; oracle_kv03.h merge step 6), the oracle
 *    merge itself being checked against it on every CI pair — plus the real
 *    oracle merge on every 97th pair. Measured under ASan+UBSan on the shared
 *    2-core machine (load ~7): this full run took 684 s; both sides on every
 *    pair cost ~100 µs per merge (the CI subsets: ~13 s per 131,072 merges),
 *    i.e. ~1 h for all pairs. Both are far over the 90 s CI budget, hence the
 *    subsets in CI (each subset keeps the empty key or 0x00, a prefix chain
 *    and the in-byte split "a"/"b"). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "kv03_diff.h"
#include "kv03_diff_gen.h"

#define NSETS 4096u
static const unsigned k_all[RSV_KV03D_UNIVERSE] = {0, 1, 2, 3, 4, 5};

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

Test(kv03_diff_exhaustive, every_set_roundtrips)
{
    static const rsv_kv03_policy pols[] = {
        {RSV_BACKSPACE_EG, 0, 1, 3}, {RSV_BACKSPACE_EG, 0, 2, 3}, {RSV_BACKSPACE_EG, 0, 3, 3},
        {RSV_BACKSPACE_GOLOMB, 3, 1, 3}, {RSV_BACKSPACE_GOLOMB, 3, 2, 3}, {RSV_BACKSPACE_GOLOMB, 3, 3, 3},
    };
    rsv_record r[RSV_KV03D_UNIVERSE] = {0};
    for (unsigned s = 0; s < NSETS; s++) {
        size_t n = rsv_kv03d_universe_set(s, k_all, RSV_KV03D_UNIVERSE, r);
        for (size_t pi = 0; pi < sizeof pols / sizeof pols[0]; pi++) {
            rsv_kv03d_report rep;
            rsv_kv03d_report_init(&rep);
            cr_assert(rsv_kv03d_roundtrip(r, n, &pols[pi], NULL, 0, &rep), "set %u, policy %zu: %s", s, pi, rep.msg);
            cr_assert_eq(rep.status, RSV_OK);
        }
    }
}

/* The expected merge of sets a (older) and b over nkeys keys. */
static unsigned merged_set(unsigned a, unsigned b, unsigned nkeys, int drop)
{
    unsigned m = 0;
    for (unsigned j = 0; j < nkeys; j++) {
        unsigned sa = (a >> (2 * j)) & 3u, sb = (b >> (2 * j)) & 3u;
        unsigned st = sb ? sb : sa;
        if (drop && st == 1) st = 0;
        m |= st << (2 * j);
    }
    return m;
}

typedef struct universe {
    unsigned nsets;
    uint8_t **files;
    size_t *sizes;
} universe;

static universe encode_all(const unsigned *keys, unsigned nkeys, const rsv_kv03_policy *p)
{
    universe u;
    u.nsets = 1u << (2 * nkeys);
    u.files = calloc(u.nsets, sizeof *u.files);
    u.sizes = calloc(u.nsets, sizeof *u.sizes);
    rsv_record r[RSV_KV03D_UNIVERSE] = {0};
    for (unsigned s = 0; s < u.nsets; s++) {
        size_t n = rsv_kv03d_universe_set(s, keys, nkeys, r);
        u.files[s] = oracle_encode(r, n, p, &u.sizes[s]);
    }
    return u;
}

static void free_all(universe *u)
{
    for (unsigned s = 0; s < u->nsets; s++) free(u->files[s]);
    free(u->files);
    free(u->sizes);
}

/* Codec vs oracle merge of sets a and b (expected: the encoded set m); a
 * mismatch fails the test. Returns the merge status. */
static rsv_status diff_merge_pair(const universe *u, unsigned a, unsigned b, int drop, unsigned m)
{
    const uint8_t *f[2] = {u->files[a], u->files[b]};
    size_t z[2] = {u->sizes[a], u->sizes[b]};
    rsv_kv03d_report rep;
    rsv_kv03d_report_init(&rep);
    rsv_status st;
    cr_assert(rsv_kv03d_merge(f, z, 2, drop, u->files[m], u->sizes[m], &st, &rep),
              "sets %u + %u (drop %d): %s", a, b, drop, rep.msg);
    return st;
}

static void all_pairs_both_sides(const unsigned *keys, unsigned nkeys)
{
    rsv_kv03_policy p = {RSV_BACKSPACE_EG, 0, 2, 3};
    universe u = encode_all(keys, nkeys, &p);
    for (unsigned a = 0; a < u.nsets; a++)
        for (unsigned b = 0; b < u.nsets; b++)
            for (int drop = 0; drop < 2; drop++) {
                unsigned m = merged_set(a, b, nkeys, drop);
                cr_assert_eq(diff_merge_pair(&u, a, b, drop, m), RSV_OK);
            }
    free_all(&u);
}

Test(kv03_diff_exhaustive, every_pair_subset_a)
{
    static const unsigned keys[4] = {0, 2, 3, 5}; /* "", "a", "ab", "b" */
    all_pairs_both_sides(keys, 4);
}

Test(kv03_diff_exhaustive, every_pair_subset_b)
{
    static const unsigned keys[4] = {1, 2, 4, 5}; /* "\x00", "a", "abc", "b" */
    all_pairs_both_sides(keys, 4);
}

/* Nightly: all 4096² ordered pairs (see the file comment). */
Test(kv03_diff_exhaustive, every_pair_full)
{
    const char *env = getenv("RSV_KV03_EXHAUSTIVE_FULL");
    if (!env || strcmp(env, "1") != 0) cr_skip_test("set RSV_KV03_EXHAUSTIVE_FULL=1 for all 4096^2 pairs");
    rsv_kv03_policy p = {RSV_BACKSPACE_EG, 0, 2, 3};
    universe u = encode_all(k_all, RSV_KV03D_UNIVERSE, &p);
    rsv_kv03_file *fs = calloc(u.nsets, sizeof *fs);
    for (unsigned s = 0; s < u.nsets; s++) cr_assert_eq(rsv_kv03_open(u.files[s], u.sizes[s], &p, &fs[s]), RSV_OK);
    uint64_t count = 0;
    for (unsigned a = 0; a < u.nsets; a++)
        for (unsigned b = 0; b < u.nsets; b++)
            for (int drop = 0; drop < 2; drop++, count++) {
                unsigned m = merged_set(a, b, RSV_KV03D_UNIVERSE, drop);
                if (count % 97 == 0) {
                    diff_merge_pair(&u, a, b, drop, m);
                    continue;
                }
                const rsv_kv03_file *in[2] = {&fs[a], &fs[b]};
                uint8_t *out;
                size_t len;
                cr_assert_eq(rsv_merge_files(in, 2, drop ? RSV_MERGE_DROP_TOMBSTONES : 0, &out, &len), RSV_OK,
                             "sets %u + %u", a, b);
                cr_assert(len == u.sizes[m] && memcmp(out, u.files[m], len) == 0, "sets %u + %u (drop %d): codec merge differs",
                          a, b, drop);
                free(out);
            }
    free(fs);
    free_all(&u);
}
