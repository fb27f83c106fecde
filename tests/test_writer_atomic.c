/* Rejected calls change nothing, and inconsistent framing is refused:
 *  - rsv_put_key_fc on a fixed writer one byte short: RSV_ERR_TOO_LARGE and
 *    no bit written (writer.h: "a rejected call leaves the contents
 *    unchanged"); with room, the bits hand-encoded from CODES.md/KV03.md;
 *  - both key forms (rsv_put_key_fc, rsv_put_key_kv03) under a limit one bit
 *    short of their length (TOO_LARGE, nothing written) and exactly at it
 *    (the spec's bits), for 100 key pairs;
 *  - rsv__kv03_writer_add_framed (the merge's writer entry) rejects a suffix
 *    whose length is not key_bits - lcp, and an lcp > 0 on the first record,
 *    with RSV_ERR_INVALID_ARGUMENT (each condition alone), which poisons the
 *    writer: later framed adds, codes and finishes are RSV_ERR_POISONED;
 *  - after a framed add, the plain adds are refused with RSV_ERR_STATE;
 *  - after a finish, both merge entries are refused with RSV_ERR_STATE and
 *    the writer is not poisoned by them (kv03_writer.h). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../codec/src/kv03_writer.h" /* rsv__kv03_writer_add_framed: files with a given lcp */
#include "reservoir/kv03.h"
#include "reservoir/record.h"
#include "reservoir/writer.h"

/* prev = "", key = "ab": backspace EG0(0) = 1, suffix length EG0(16) =
 * 0000 10001, then 0x61 0x62: 26 bits = 84 58 58 80 (zero padded). */
Test(writer_atomic, put_key_fc_exact_fit_and_one_byte_short)
{
    uint8_t buf[4];
    rsv_writer w;
    memset(buf, 0, sizeof buf);
    rsv_writer_init_fixed(&w, buf, 3);
    cr_assert_eq(rsv_put_key_fc(&w, (const uint8_t *)"", 0, (const uint8_t *)"ab", 2), RSV_ERR_TOO_LARGE);
    cr_assert_eq(rsv_writer_bits(&w), 0, "a rejected key wrote %llu bits", (unsigned long long)rsv_writer_bits(&w));
    cr_assert_eq(buf[0], 0);

    rsv_writer_init_fixed(&w, buf, 4);
    cr_assert_eq(rsv_put_key_fc(&w, (const uint8_t *)"", 0, (const uint8_t *)"ab", 2), RSV_OK);
    cr_assert_eq(rsv_writer_bits(&w), 26);
    static const uint8_t want[4] = {0x84, 0x58, 0x58, 0x80};
    cr_assert_eq(memcmp(buf, want, 4), 0, "%02x %02x %02x %02x", buf[0], buf[1], buf[2], buf[3]);
}

/* Both key forms at a limit exact to the bit (record.h: "atomic on
 * failure"). For every pair of keys below, the expected bits come from the
 * spec written as plain loops: kept = the bit lcp, EG0(v) = bitlen(v + 1) - 1
 * zeros then v + 1 in binary (CODES.md §3), the fc form EG0(8|P| - kept)
 * EG0(8|K| - kept) K[kept, 8|K|) (KV03.md §2.1), the KV03 form with local =
 * kept, EG0(S) K[kept, 8|K|) (§2.2). A growable writer limited to the
 * length - 1 bits must refuse with TOO_LARGE and no bit written; limited to
 * the length it must write exactly those bits. The keys give backspaces
 * and suffix lengths from 0 to 24 bits, among them 1 (0x60 then 0x61: kept
 * 7), whose EG0 code (3 bits) is a bit longer than its EG1 code (2 bits). */
typedef struct {
    uint8_t b[200];
    size_t n;
} ref_bits;

/* Counts every bit but stores only what fits; the caller checks n against
 * the array (the longest string here is 42 bits). */
static void ref_put(ref_bits *r, uint64_t v, unsigned width)
{
    for (unsigned i = width; i-- > 0; r->n++)
        if (r->n < sizeof r->b) r->b[r->n] = (uint8_t)((v >> i) & 1);
}

static void ref_eg0(ref_bits *r, uint64_t v)
{
    unsigned len = 0;
    for (uint64_t x = v + 1; x; x >>= 1) len++;
    ref_put(r, 0, len - 1);
    ref_put(r, v + 1, len);
}

static uint64_t ref_lcp(const uint8_t *a, size_t na, const uint8_t *b, size_t nb)
{
    uint64_t i = 0;
    while (i < 8 * na && i < 8 * nb && ((a[i / 8] >> (7 - i % 8)) & 1) == ((b[i / 8] >> (7 - i % 8)) & 1)) i++;
    return i;
}

static void expect_at_limit(int fc, const uint8_t *prev, size_t np, const uint8_t *key, size_t nk)
{
    ref_bits r = {{0}, 0};
    uint64_t kept = ref_lcp(prev, np, key, nk);
    if (fc) ref_eg0(&r, 8 * np - kept);
    ref_eg0(&r, 8 * nk - kept);
    for (uint64_t i = kept; i < 8 * nk; i++) ref_put(&r, (key[i / 8] >> (7 - i % 8)) & 1, 1);
    cr_assert_leq(r.n, sizeof r.b);
    for (int fits = 0; fits <= 1; fits++) {
        rsv_writer w;
        rsv_writer_init(&w);
        rsv_writer_set_limit(&w, r.n - 1 + (uint64_t)fits);
        rsv_status st = fc ? rsv_put_key_fc(&w, prev, np, key, nk) : rsv_put_key_kv03(&w, key, nk, kept);
        cr_assert_eq(st, fits ? RSV_OK : RSV_ERR_TOO_LARGE, "%s |P| %zu |K| %zu kept %llu, limit %zu: status %d",
                     fc ? "fc" : "kv03", np, nk, (unsigned long long)kept, r.n - 1 + (size_t)fits, (int)st);
        cr_assert_eq(rsv_writer_bits(&w), fits ? r.n : 0, "%s |P| %zu |K| %zu kept %llu: %llu bits", fc ? "fc" : "kv03",
                     np, nk, (unsigned long long)kept, (unsigned long long)rsv_writer_bits(&w));
        const uint8_t *d = rsv_writer_data(&w);
        for (size_t i = 0; fits && i < r.n; i++)
            cr_assert_eq((d[i / 8] >> (7 - i % 8)) & 1, r.b[i], "%s |P| %zu |K| %zu: bit %zu", fc ? "fc" : "kv03", np,
                         nk, i);
        rsv_writer_free(&w);
    }
}

Test(writer_atomic, put_key_forms_at_a_bit_exact_limit)
{
    static const uint8_t keys[][3] = {{0}, {0x60}, {0x61}, {0x62}, {0x7f}, {0x80}, {0xff},
                                      {0x60, 0x00}, {0x61, 0x80}, {0x61, 0x62, 0x63}};
    static const size_t len[] = {0, 1, 1, 1, 1, 1, 1, 2, 2, 3};
    for (size_t a = 0; a < sizeof len / sizeof len[0]; a++)
        for (size_t b = 0; b < sizeof len / sizeof len[0]; b++)
            for (int fc = 0; fc <= 1; fc++) expect_at_limit(fc, keys[a], len[a], keys[b], len[b]);
}

static void framed_rejects(uint64_t nfirst, uint64_t lcp, uint64_t key_bits, uint64_t suffix_bits)
{
    rsv_kv03_policy p = rsv_kv03_policy_default();
    rsv_kv03_writer w;
    cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
    static const uint8_t key[4] = {'k', 'e', 'y', '1'};
    rsv_value_span tomb = {RSV_VALUE_TOMBSTONE, 0, rsv_view_make(NULL, 0, 0), 1};
    for (uint64_t i = 0; i < nfirst; i++) /* one valid record first: N = 1 */
        cr_assert_eq(rsv__kv03_writer_add_framed(&w, 0, 32, rsv_view_make(key, 0, 32), &tomb), RSV_OK);
    static const uint8_t suffix[8] = {'z', 'z', 'z', 'z', 'z', 'z', 'z', 'z'};
    cr_assert_eq(rsv__kv03_writer_add_framed(&w, lcp, key_bits, rsv_view_make(suffix, 0, suffix_bits), &tomb),
                 RSV_ERR_INVALID_ARGUMENT, "N %llu lcp %llu key_bits %llu suffix %llu", (unsigned long long)nfirst,
                 (unsigned long long)lcp, (unsigned long long)key_bits, (unsigned long long)suffix_bits);
    /* KV03.md §9.2 (end): the rejection poisons the writer; every later call
     * of either merge entry, and a finish, is RSV_ERR_POISONED */
    cr_assert_eq(rsv_kv03_writer_diag(&w).status, RSV_ERR_INVALID_ARGUMENT);
    static const uint8_t later[5] = {'k', 'e', 'y', '2', 'z'};
    cr_assert_eq(rsv__kv03_writer_add_framed(&w, 0, 40, rsv_view_make(later, 0, 40), &tomb), RSV_ERR_POISONED);
    cr_assert_eq(rsv__kv03_writer_code(&w, rsv_view_make(later, 0, 1)), RSV_ERR_POISONED);
    uint8_t *out = NULL;
    size_t n = 0;
    cr_assert_eq(rsv_kv03_writer_finish(&w, &out, &n), RSV_ERR_POISONED);
    cr_assert_null(out);
    rsv_kv03_writer_free(&w);
}

Test(writer_atomic, add_framed_inconsistent_arguments)
{
    framed_rejects(1, 8, 40, 8);  /* suffix 8 bits, key_bits - lcp = 32 (N > 0, lcp > 0) */
    framed_rejects(1, 0, 40, 32); /* suffix 32 bits, key_bits - lcp = 40 (lcp = 0) */
    framed_rejects(0, 8, 40, 32); /* first record with lcp 8 (suffix length consistent) */
    framed_rejects(1, 48, 40, 0); /* lcp > key_bits */
    framed_rejects(1, 0, 36, 36); /* key_bits not a whole number of bytes */
}

/* A writer fed by the merge's framed entry keeps no previous key bytes, so
 * the plain adds are refused afterwards: RSV_ERR_STATE (kv03.h, the writer's
 * `framed`: "plain adds refused"), whatever key comes next. */
Test(writer_atomic, plain_add_after_framed_add_refused)
{
    const rsv_kv03_policy p = rsv_kv03_policy_default();
    rsv_kv03_writer w;
    cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
    static const uint8_t key[4] = {'k', 'e', 'y', '1'};
    rsv_value_span tomb = {RSV_VALUE_TOMBSTONE, 0, rsv_view_make(NULL, 0, 0), 1};
    cr_assert_eq(rsv__kv03_writer_add_framed(&w, 0, 32, rsv_view_make(key, 0, 32), &tomb), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_add(&w, "key2", 4, rsv_value_present("v", 1)), RSV_ERR_STATE);
    static const uint8_t zero = 0x00;
    cr_assert_eq(rsv_kv03_writer_add_coded(&w, &zero, 1, "key3", 4, rsv_value_present("v", 1)), RSV_ERR_STATE);
    rsv_kv03_writer_free(&w);
}

Test(writer_atomic, merge_entries_after_finish_refused)
{
    const rsv_kv03_policy p = rsv_kv03_policy_default();
    rsv_kv03_writer w;
    cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
    static const uint8_t key[4] = {'k', 'e', 'y', '1'}, later[5] = {'k', 'e', 'y', '2', 'z'};
    rsv_value_span tomb = {RSV_VALUE_TOMBSTONE, 0, rsv_view_make(NULL, 0, 0), 1};
    cr_assert_eq(rsv__kv03_writer_add_framed(&w, 0, 32, rsv_view_make(key, 0, 32), &tomb), RSV_OK);
    uint8_t *out = NULL;
    size_t n = 0;
    cr_assert_eq(rsv_kv03_writer_finish(&w, &out, &n), RSV_OK);
    cr_assert_not_null(out);
    cr_assert_eq(rsv__kv03_writer_code(&w, rsv_view_make(later, 0, 1)), RSV_ERR_STATE);
    cr_assert_eq(rsv__kv03_writer_add_framed(&w, 0, 40, rsv_view_make(later, 0, 40), &tomb), RSV_ERR_STATE);
    cr_assert_eq(rsv_kv03_writer_diag(&w).status, RSV_OK, "a refused call does not poison");
    free(out);
    rsv_kv03_writer_free(&w);
}
