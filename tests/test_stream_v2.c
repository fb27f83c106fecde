/* Record streams, format revision v2 (KV03.md §10, §12.6): the writer gives
 * the §12.6 bytes for the §12.5 records; the reader with the code set
 * {`0`, `10`, `11`} (in any order) gives them back with their code indices;
 * every §12.6 failure with its status, bit position and record; a one-code
 * set reads the §12.4 v1 stream exactly as the one-code reader; the writer's
 * §11.1 checks. Expected bytes and positions are the spec's. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "reservoir/stream.h"

#include "kv03_v2_util.h"
#include "kv03_vectors.h"
#include "spec_doc.h"
#include "testutil.h"

/* The §12.6 stream (E = 126 bits, 16 bytes) and the §12.4 v1 record stream
 * (100 bits, 13 bytes), read from docs/spec/KV03.md. */
static uint8_t STREAM_12_6[16], STREAM_12_4[13];

static void load_spec(void)
{
    uint8_t *b;
    size_t n;
    cr_assert_eq(rsv_spec_hex_after("12.6", "E = 126 bits", &b, &n), 0);
    cr_assert_eq(n, 16);
    memcpy(STREAM_12_6, b, 16);
    free(b);
    cr_assert_eq(rsv_spec_hex_after("12.4", "| record stream |", &b, &n), 0);
    cr_assert_eq(n, 13);
    memcpy(STREAM_12_4, b, 13);
    free(b);
}

TestSuite(stream_v2, .init = load_spec);

/* A code set from a notation string per code ("0", "10", …). */
typedef struct cset {
    uint8_t bits[64];
    uint64_t ends[8];
    rsv_code_set set;
} cset;

static void make_set(cset *c, const char *const *codes, size_t m)
{
    memset(c, 0, sizeof *c);
    uint64_t at = 0;
    for (size_t j = 0; j < m; j++) {
        uint64_t n = rsv_parse_bits(codes[j], c->bits, sizeof c->bits, at);
        cr_assert_neq(n, UINT64_MAX);
        at += n;
        c->ends[j] = at;
    }
    c->set.bits = c->bits;
    c->set.ends = c->ends;
    c->set.m = m;
}

Test(stream_v2, writer_12_6)
{
    const rsv_record *r = v2_recs_12_5();
    rsv_writer out;
    rsv_writer_init(&out);
    rsv_stream_writer sw;
    cr_assert_eq(rsv_stream_writer_init(&sw, &out, NULL, 0), RSV_OK);
    for (size_t i = 0; i < 6; i++)
        cr_assert_eq(rsv_stream_writer_add_coded(&sw, r[i].code, r[i].code_bits, r[i].key, r[i].key_len, r[i].value),
                     RSV_OK, "record %zu", i);
    cr_assert_eq(rsv_stream_writer_extent(&sw), 126);
    cr_assert_eq(rsv_writer_nbytes(&out), 16);
    cr_assert_eq(memcmp(rsv_writer_data(&out), STREAM_12_6, 16), 0);
    rsv_stream_writer_free(&sw);
    rsv_writer_free(&out);
}

/* The §12.6 records from sr, then its end; want[i] = the set index of record i's code. */
static void expect_12_6(rsv_stream_reader *sr, const uint64_t *want)
{
    const rsv_record *r = v2_recs_12_5();
    rsv_stream_record rec;
    int more;
    for (size_t i = 0; i < 6; i++) {
        cr_assert_eq(rsv_stream_reader_next(sr, &rec, &more), RSV_OK, "record %zu", i);
        cr_assert_eq(more, 1);
        cr_assert_eq(rec.key_len, r[i].key_len);
        cr_assert_eq(memcmp(rec.key, r[i].key, r[i].key_len), 0);
        cr_assert_eq(rec.value.kind, r[i].value.kind);
        cr_assert_eq(rec.value.len, r[i].value.len);
        if (r[i].value.len) cr_assert_eq(memcmp(rec.value.data, r[i].value.data, r[i].value.len), 0);
        cr_assert_eq(rec.code, want[i], "record %zu code %lu", i, (unsigned long)rec.code);
        cr_assert(rsv_view_bit_equal(rec.code_bits, rsv_view_make(r[i].code, 0, r[i].code_bits)));
    }
    /* record ends: 30, 48, 57, 97, 107, 126 (§12.6 table) */
    cr_assert_eq(rec.end, 126);
    cr_assert_eq(rsv_stream_reader_next(sr, &rec, &more), RSV_OK);
    cr_assert_eq(more, 0);
}

/* Read the §12.6 stream with `codes`. */
static void read_12_6(const char *const *codes, const uint64_t *want)
{
    cset c;
    make_set(&c, codes, 3);
    rsv_stream_reader sr;
    cr_assert_eq(rsv_stream_reader_init_set(&sr, rsv_view_make(STREAM_12_6, 0, 126), &c.set), RSV_OK);
    expect_12_6(&sr, want);
    rsv_stream_reader_free(&sr);
}

Test(stream_v2, reader_12_6_any_set_order)
{
    const char *a[3] = {"0", "10", "11"};
    const uint64_t wa[6] = {0, 0, 1, 2, 2, 2};
    read_12_6(a, wa);
    const char *b[3] = {"11", "0", "10"};
    const uint64_t wb[6] = {1, 1, 2, 0, 0, 0};
    read_12_6(b, wb);
}

/* stream.h: rsv_stream_reader_reset_set is "rsv_stream_reader_reset with a
 * code set", and reset keeps the key and value buffers ("a warm reader
 * decodes a stream without allocating"): after a pass over §12.6 with one
 * set order, reset_set with the other order leaves sr.key/key_cap and
 * sr.val/val_cap as they were (the key buffer exists: keys are
 * materialized), and the second pass reads the same records with the new
 * set's indices. (Found by the gate's coverage map: no test called
 * reset_set.) */
Test(stream_v2, reset_set_keeps_the_buffers_and_takes_the_new_set)
{
    const char *a[3] = {"0", "10", "11"}, *b[3] = {"11", "0", "10"};
    const uint64_t wa[6] = {0, 0, 1, 2, 2, 2}, wb[6] = {1, 1, 2, 0, 0, 0};
    cset ca, cb;
    make_set(&ca, a, 3);
    make_set(&cb, b, 3);
    rsv_stream_reader sr;
    cr_assert_eq(rsv_stream_reader_init_set(&sr, rsv_view_make(STREAM_12_6, 0, 126), &ca.set), RSV_OK);
    expect_12_6(&sr, wa);
    uint8_t *key = sr.key, *val = sr.val;
    size_t key_cap = sr.key_cap, val_cap = sr.val_cap;
    cr_assert(key != NULL && key_cap > 0, "no key buffer after a pass");
    cr_assert_eq(rsv_stream_reader_reset_set(&sr, rsv_view_make(STREAM_12_6, 0, 126), &cb.set), RSV_OK);
    cr_assert(sr.key == key && sr.key_cap == key_cap, "reset_set dropped the key buffer");
    cr_assert(sr.val == val && sr.val_cap == val_cap, "reset_set dropped the value buffer");
    expect_12_6(&sr, wb);
    rsv_stream_reader_free(&sr);
}

static void expect_failure(const uint8_t *bytes, uint64_t E, const char *const *codes, size_t m,
                           rsv_status want, uint64_t bit, uint64_t record)
{
    cset c;
    make_set(&c, codes, m);
    rsv_stream_reader sr;
    cr_assert_eq(rsv_stream_reader_init_set(&sr, rsv_view_make(bytes, 0, E), &c.set), RSV_OK);
    rsv_stream_record rec;
    int more = 1;
    rsv_status st = RSV_OK;
    uint64_t n = 0;
    while (!st && more) {
        st = rsv_stream_reader_next(&sr, &rec, &more);
        n += !st && more;
    }
    cr_assert_eq(st, want, "status %d, want %d", st, want);
    cr_assert_eq(n, record, "records read %lu", (unsigned long)n);
    rsv_kv03_diag d = rsv_stream_reader_diag(&sr);
    cr_assert_eq(d.status, want);
    cr_assert_eq(d.bit, bit, "bit %lu, want %lu", (unsigned long)d.bit, (unsigned long)bit);
    cr_assert_eq(d.record, record);
    cr_assert_eq(rsv_stream_reader_next(&sr, &rec, &more), RSV_ERR_POISONED);
    rsv_stream_reader_free(&sr);
}

Test(stream_v2, failures_12_6)
{
    /* {0, 10}: record 3 takes 1 bit after P = `1` → UNKNOWN_SELECTOR at 61 */
    const char *a[2] = {"0", "10"};
    expect_failure(STREAM_12_6, 126, a, 2, RSV_ERR_UNKNOWN_SELECTOR, 61, 3);
    /* {0, 100, 11}: record 2 takes `1`, `0`, then the key's first bit → 54 */
    const char *b[3] = {"0", "100", "11"};
    expect_failure(STREAM_12_6, 126, b, 3, RSV_ERR_UNKNOWN_SELECTOR, 54, 2);
    /* bit 50 flipped: record 2's backspace `011` = 2 > 1 → SORT_BACKSPACE at 51 */
    uint8_t f[16];
    memcpy(f, STREAM_12_6, 16);
    f[50 / 8] ^= (uint8_t)(0x80u >> (50 % 8));
    const char *c[3] = {"0", "10", "11"};
    expect_failure(f, 126, c, 3, RSV_ERR_SORT_BACKSPACE, 51, 2);
}

/* stream.h: a set with a code that is a prefix of another (equal codes
 * included) is RSV_ERR_SELECTOR_PREFIX, in whichever order they come. In
 * {`11`, `1`} the later code is the prefix, and the bits stored after it (the
 * zero padding) do not continue the earlier one: a compare that ran past
 * the later code's end would miss it. */
Test(stream_v2, set_not_prefix_free)
{
    const char *const sets[][4] = {{"0", "10", "11", "011"}, {"0", "0"}, {"", "1"}, {"10", "1"}, {"11", "1"}};
    const size_t ms[] = {4, 2, 2, 2, 2};
    for (size_t k = 0; k < 5; k++) {
        cset c;
        make_set(&c, sets[k], ms[k]);
        rsv_stream_reader sr;
        cr_assert_eq(rsv_stream_reader_init_set(&sr, rsv_view_make(STREAM_12_6, 0, 126), &c.set),
                     RSV_ERR_SELECTOR_PREFIX, "set %zu", k);
        rsv_stream_record rec;
        int more;
        cr_assert_eq(rsv_stream_reader_next(&sr, &rec, &more), RSV_ERR_POISONED);
        rsv_stream_reader_free(&sr);
    }
}

Test(stream_v2, set_too_large_code)
{
    uint8_t bits[66] = {0};
    uint64_t ends[2] = {1, 1 + 513}; /* `0`, then 513 bits `1 0^512` */
    bits[0] = 0x40;
    rsv_code_set s = {bits, ends, 2};
    rsv_stream_reader sr;
    cr_assert_eq(rsv_stream_reader_init_set(&sr, rsv_view_make(STREAM_12_6, 0, 126), &s), RSV_ERR_TOO_LARGE);
    rsv_stream_reader_free(&sr);
    ends[1] = 1 + 512;
    cr_assert_eq(rsv_stream_reader_init_set(&sr, rsv_view_make(STREAM_12_6, 0, 126), &s), RSV_OK);
    rsv_stream_reader_free(&sr);
}

/* The set checks' order (docs/kv03.md, v2 readings): TOO_LARGE over all codes
 * before SELECTOR_PREFIX over the pairs. {`0`, `0`, `1^513`}: codes 0 and 1
 * are equal (SELECTOR_PREFIX) and code 2 has 513 bits (TOO_LARGE); bits
 * `0 0 1^513` = 0x3F, 63 bytes 0xFF, then 0xE0 (bits 512-514). */
Test(stream_v2, set_too_large_before_selector_prefix)
{
    uint8_t bits[66] = {0};
    memset(bits, 0xFF, 64);
    bits[0] = 0x3F;
    bits[64] = 0xE0;
    uint64_t ends[3] = {1, 2, 2 + 513};
    rsv_code_set s = {bits, ends, 3};
    rsv_stream_reader sr;
    cr_assert_eq(rsv_stream_reader_init_set(&sr, rsv_view_make(STREAM_12_6, 0, 126), &s), RSV_ERR_TOO_LARGE);
    rsv_stream_reader_free(&sr);
    ends[2] = 2 + 512; /* within the limit: the equal pair decides */
    cr_assert_eq(rsv_stream_reader_init_set(&sr, rsv_view_make(STREAM_12_6, 0, 126), &s), RSV_ERR_SELECTOR_PREFIX);
    rsv_stream_reader_free(&sr);
}

/* The empty set (m = 0) is accepted; record 0's EG0 `1` (b = 0) leaves P
 * empty with no code extending it: UNKNOWN_SELECTOR after the EG0, bit 1. */
Test(stream_v2, empty_set_fails_record_0)
{
    expect_failure(STREAM_12_6, 126, NULL, 0, RSV_ERR_UNKNOWN_SELECTOR, 1, 0);
}

/* A one-code set reads the §12.4 v1 stream exactly as the one-code reader. */
Test(stream_v2, one_code_set_is_v1)
{
    const char *a[1] = {"0"};
    cset c;
    make_set(&c, a, 1);
    rsv_stream_reader sr;
    cr_assert_eq(rsv_stream_reader_init_set(&sr, rsv_view_make(STREAM_12_4, 0, 100), &c.set), RSV_OK);
    rsv_stream_record rec;
    int more;
    for (size_t i = 0; i < 4; i++) {
        cr_assert_eq(rsv_stream_reader_next(&sr, &rec, &more), RSV_OK);
        cr_assert_eq(more, 1);
        cr_assert_eq(rec.key_len, RECS[i].key_len);
        cr_assert_eq(memcmp(rec.key, RECS[i].key, RECS[i].key_len), 0);
        cr_assert_eq(rec.value.kind, RECS[i].value.kind);
        cr_assert_eq(rec.code, 0);
        cr_assert_eq(rec.code_bits.len, 1);
    }
    cr_assert_eq(rsv_stream_reader_next(&sr, &rec, &more), RSV_OK);
    cr_assert_eq(more, 0);
    rsv_stream_reader_free(&sr);
    /* {`1`}: record 0 takes 1 bit (`0`), which is not `1` → UNKNOWN_SELECTOR
     * at bit 2, the v1 one-code reader's position too */
    const char *b[1] = {"1"};
    expect_failure(STREAM_12_4, 100, b, 1, RSV_ERR_UNKNOWN_SELECTOR, 2, 0);
    cr_assert_eq(rsv_stream_reader_init(&sr, rsv_view_make(STREAM_12_4, 0, 100), (const uint8_t *)"\x80", 1), RSV_OK);
    cr_assert_eq(rsv_stream_reader_next(&sr, &rec, &more), RSV_ERR_UNKNOWN_SELECTOR);
    cr_assert_eq(rsv_stream_reader_diag(&sr).bit, 2);
    rsv_stream_reader_free(&sr);
}

/* A code change that completes the same code again (b > 0, not what writers
 * emit) keys against the previous key (§10 step 3): `1 0 …` "a", then
 * backspace 1 (`010`) and `0` again, key "b" against "a": kept 6, bk 2,
 * S 2, `10`, value ⊥. */
Test(stream_v2, same_code_again_keys_against_previous)
{
    uint8_t s[8] = {0};
    uint64_t E = rsv_parse_bits("1 0 1 0001001 01100001 0   010 0 011 011 10 0", s, sizeof s, 0);
    const char *a[2] = {"0", "1"};
    cset c;
    make_set(&c, a, 2);
    rsv_stream_reader sr;
    cr_assert_eq(rsv_stream_reader_init_set(&sr, rsv_view_make(s, 0, E), &c.set), RSV_OK);
    rsv_stream_record rec;
    int more;
    cr_assert_eq(rsv_stream_reader_next(&sr, &rec, &more), RSV_OK);
    cr_assert_eq(rsv_stream_reader_next(&sr, &rec, &more), RSV_OK);
    cr_assert_eq(rec.key_len, 1);
    cr_assert_eq(rec.key[0], 'b');
    cr_assert_eq(rec.code, 0);
    rsv_stream_reader_free(&sr);
}

/* A code change to a smaller code: `1 10` "" then backspace 2 (`011`) and
 * `0`, key "" → UNSORTED after the whole record. Bits: 1 10 1 1 0 (6) then
 * 011 0 1 1 0 = 12 bits at the end. */
Test(stream_v2, code_change_down_is_unsorted)
{
    uint8_t s[4] = {0};
    uint64_t E = rsv_parse_bits("1 10 1 1 0  011 0 1 1 0", s, sizeof s, 0);
    const char *a[2] = {"0", "10"};
    expect_failure(s, E, a, 2, RSV_ERR_UNSORTED, E, 1);
    /* the set in the other order: indices would rise (0 → 1), the codes do not */
    const char *b[2] = {"10", "0"};
    expect_failure(s, E, b, 2, RSV_ERR_UNSORTED, E, 1);
}

/* ---- writer checks (§11.1 order) ----------------------------------------- */

static rsv_status add_bits(rsv_stream_writer *sw, const char *code, const char *key)
{
    uint8_t c[80] = {0};
    uint64_t n = rsv_parse_bits(code, c, sizeof c, 0);
    cr_assert_neq(n, UINT64_MAX);
    return rsv_stream_writer_add_coded(sw, c, n, key, strlen(key), rsv_value_tombstone());
}

/* stream.h: add_coded with code = NULL uses the init's C0. For C0 = `1`,
 * `10`, `0110` (not the default `0`, whose bits past its end are zeros too)
 * two records through add_coded(NULL) give the bits of the same records
 * through add, and record 0 starts with b = EG0(0) `1` and all of C0
 * (KV03.md §12.4, the stream's record 0). */
Test(stream_v2, add_coded_null_is_the_init_code)
{
    static const char *const c0[3] = {"1", "10", "0110"};
    for (int k = 0; k < 3; k++) {
        uint8_t code[8] = {0};
        uint64_t c = rsv_parse_bits(c0[k], code, sizeof code, 0);
        cr_assert_neq(c, UINT64_MAX);
        rsv_writer oa, ob;
        rsv_writer_init(&oa);
        rsv_writer_init(&ob);
        rsv_stream_writer a, b;
        cr_assert_eq(rsv_stream_writer_init(&a, &oa, code, c), RSV_OK);
        cr_assert_eq(rsv_stream_writer_init(&b, &ob, code, c), RSV_OK);
        cr_assert_eq(rsv_stream_writer_add_coded(&a, NULL, 0, "a", 1, rsv_value_tombstone()), RSV_OK);
        cr_assert_eq(rsv_stream_writer_add_coded(&a, NULL, 0, "b", 1, rsv_value_present("x", 1)), RSV_OK);
        cr_assert_eq(rsv_stream_writer_add(&b, "a", 1, rsv_value_tombstone()), RSV_OK);
        cr_assert_eq(rsv_stream_writer_add(&b, "b", 1, rsv_value_present("x", 1)), RSV_OK);
        uint64_t e = rsv_stream_writer_extent(&a);
        cr_assert_eq(e, rsv_stream_writer_extent(&b), "C0 %s: extents", c0[k]);
        cr_assert_eq(memcmp(rsv_writer_data(&oa), rsv_writer_data(&ob), (size_t)((e + 7) / 8)), 0, "C0 %s: bits",
                     c0[k]);
        const uint8_t *d = rsv_writer_data(&oa);
        cr_assert_eq(rsv_get_bit(d, 0), 1, "C0 %s: record 0's b = EG0(0)", c0[k]);
        for (uint64_t i = 0; i < c; i++)
            cr_assert_eq(rsv_get_bit(d, 1 + i), rsv_get_bit(code, i), "C0 %s: code bit %llu", c0[k],
                         (unsigned long long)i);
        rsv_stream_writer_free(&a);
        rsv_stream_writer_free(&b);
        rsv_writer_free(&oa);
        rsv_writer_free(&ob);
    }
}

Test(stream_v2, writer_checks)
{
    rsv_writer out;
    rsv_writer_init(&out);
    rsv_stream_writer sw;
    /* SELECTOR_PREFIX before UNSORTED: `1` is a prefix of `10` and sorts before it */
    cr_assert_eq(rsv_stream_writer_init(&sw, &out, NULL, 0), RSV_OK);
    cr_assert_eq(add_bits(&sw, "0", "a"), RSV_OK);
    cr_assert_eq(add_bits(&sw, "10", "a"), RSV_OK);
    cr_assert_eq(add_bits(&sw, "1", "z"), RSV_ERR_SELECTOR_PREFIX);
    cr_assert_eq(sw.diag.record, 2);
    cr_assert_eq(add_bits(&sw, "11", "z"), RSV_ERR_POISONED);
    rsv_stream_writer_free(&sw);
    /* return to an earlier code: UNSORTED */
    cr_assert_eq(rsv_stream_writer_init(&sw, &out, NULL, 0), RSV_OK);
    cr_assert_eq(add_bits(&sw, "0", "a"), RSV_OK);
    cr_assert_eq(add_bits(&sw, "10", ""), RSV_OK);
    cr_assert_eq(add_bits(&sw, "0", "b"), RSV_ERR_UNSORTED);
    rsv_stream_writer_free(&sw);
    /* an empty code beside another */
    cr_assert_eq(rsv_stream_writer_init(&sw, &out, NULL, 0), RSV_OK);
    cr_assert_eq(add_bits(&sw, "", "a"), RSV_OK);
    cr_assert_eq(add_bits(&sw, "1", "a"), RSV_ERR_SELECTOR_PREFIX);
    rsv_stream_writer_free(&sw);
    /* 513 bits fail, 512 work */
    uint8_t big[65];
    memset(big, 0x5a, sizeof big);
    cr_assert_eq(rsv_stream_writer_init(&sw, &out, NULL, 0), RSV_OK);
    cr_assert_eq(rsv_stream_writer_add_coded(&sw, big, 513, "a", 1, rsv_value_tombstone()), RSV_ERR_TOO_LARGE);
    rsv_stream_writer_free(&sw);
    cr_assert_eq(rsv_stream_writer_init(&sw, &out, NULL, 0), RSV_OK);
    uint64_t before = rsv_writer_bits(&out);
    cr_assert_eq(rsv_stream_writer_add_coded(&sw, big, 512, "a", 1, rsv_value_tombstone()), RSV_OK);
    /* `1`, 512 code bits, key "a" (`1 0001001` + 8), value `0` */
    cr_assert_eq(rsv_writer_bits(&out) - before, 1 + 512 + 1 + 7 + 8 + 1);
    rsv_stream_writer_free(&sw);
    rsv_writer_free(&out);
}
