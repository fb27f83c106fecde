/* The KV03 v2 oracle on selector codes: writer checks (§11.1), code sets
 * (§10), the §6.3 dictionary order, seeds, transitions and the accepted
 * non-canonical encodings (§3.3). Every expected value is hand-computed from
 * KV03.md; the derivation is in the comment above each case. Data streams
 * are written in the spec's bit notation (testutil.h). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "reservoir/oracle_kv03.h"

#include "oracle_v2_util.h"
#include "spec_doc.h"
#include "testutil.h"

#define REC rsv_ov2_rec
static const rsv_oracle_kv03_policy EG0_W15 = {RSV_ORACLE_BACKSPACE_EG, 0, 15, 15};

/* ---- helpers ------------------------------------------------------------ */

static uint8_t *encode(const rsv_oracle_crecord *r, size_t n, const rsv_oracle_kv03_policy *p,
                       size_t *len)
{
    uint8_t *out = NULL;
    size_t bad = 99;
    rsv_status st = rsv_oracle_kv03_encode_v2(r, n, p, &out, len, &bad);
    cr_assert_eq(st, RSV_OK, "encode: status %d at record %zu", st, bad);
    return out;
}

/* Section 0 of f as a '0'/'1' string (caller frees). */
static char *data_bits(const uint8_t *f)
{
    uint64_t extent = rsv_ov2_le(f + 96 + 8, 8);
    char *s = malloc(extent + 1);
    rsv_bits_to_string(f + rsv_ov2_section(f, 0), 0, extent, s);
    return s;
}

/* The notation string without spaces (for comparing with data_bits). */
static char *squeeze(const char *notation)
{
    uint8_t buf[256] = {0};
    uint64_t n = rsv_parse_bits(notation, buf, sizeof buf, 0);
    cr_assert_neq(n, UINT64_MAX);
    char *s = malloc(n + 1);
    rsv_bits_to_string(buf, 0, n, s);
    return s;
}

static void assert_data(const uint8_t *f, const char *notation)
{
    char *got = data_bits(f), *want = squeeze(notation);
    cr_assert_str_eq(got, want);
    free(got);
    free(want);
}

/* Replaces section 0 of an oracle-written file by `notation` (same section
 * byte length), then makes the rest consistent: directory extent and U
 * (= extent - N*cw), the EF sections rebuilt from the given block offsets
 * (r_b = offset_b - b*W*cw, r_nb = U) and both CRCs. Sections 1-4 must keep
 * their lengths. */
static void reframe(uint8_t *f, size_t n, const char *notation, const uint64_t *blocks, size_t nb)
{
    uint8_t *body = f + 96;
    uint64_t N = rsv_ov2_le(f + 56, 8), W = rsv_ov2_le(f + 20, 4), cw = rsv_ov2_le(f + 40, 8);
    uint64_t extent = rsv_count_bits(notation);
    cr_assert_eq(rsv_ov2_le(body + 72, 8), (extent + 7) / 8, "section 0 length would change");
    uint8_t *s0 = f + rsv_ov2_section(f, 0);
    memset(s0, 0, (size_t)rsv_ov2_le(body + 72, 8));
    rsv_parse_bits(notation, s0, (size_t)rsv_ov2_le(body + 72, 8), 0);
    uint64_t U = extent - N * cw;
    rsv_ov2_put_le(body + 8, extent, 8);
    rsv_ov2_put_le(body + 24, U, 8);
    uint64_t r[8];
    cr_assert(nb + 1 <= 8);
    for (size_t b = 0; b < nb; b++)
        r[b] = blocks[b] - b * W * cw;
    r[nb] = U;
    rsv_oracle_ef ef;
    cr_assert_eq(rsv_oracle_ef_build(r, nb + 1, &ef), RSV_OK);
    body[48] = (uint8_t)ef.L;
    const uint8_t *src[4] = {ef.low, ef.high, ef.samples, ef.sparse};
    size_t lens[4] = {ef.low_len, ef.high_len, ef.samples_len, ef.sparse_len};
    for (unsigned i = 0; i < 4; i++) {
        cr_assert_eq(rsv_ov2_le(body + 72 + 16 * (i + 1), 8), lens[i], "EF section %u length", i + 1);
        if (lens[i])
            memcpy(f + rsv_ov2_section(f, i + 1), src[i], lens[i]);
    }
    rsv_oracle_ef_free(&ef);
    rsv_ov2_fix_crcs(f, n);
}

/* The writer's file for r[0..k-1] under p, whose data stream must be
 * `canonical`, with the data stream then replaced by `variant` (reframe). */
static uint8_t *rewritten(const rsv_oracle_crecord *r, size_t k, const rsv_oracle_kv03_policy *p,
                          const char *canonical, const char *variant, const uint64_t *blocks,
                          size_t nb, size_t *n)
{
    uint8_t *f = encode(r, k, p, n);
    assert_data(f, canonical);
    reframe(f, *n, variant, blocks, nb);
    return f;
}

/* Decode in `mode`; expect `st` (phase/step/record/bit checked as given). */
static void expect_fail(const uint8_t *f, size_t n, rsv_oracle_kv03_mode mode, rsv_status st,
                        rsv_oracle_phase ph, unsigned step, uint64_t record, uint64_t bit)
{
    rsv_oracle_kv03_v2_result res;
    rsv_status got = rsv_oracle_kv03_decode_v2(f, n, NULL, mode, &res);
    cr_assert_eq(got, st, "status %d want %d (phase %d step %u record %llu bit %llu)", got, st,
                 res.base.phase, res.base.step, (unsigned long long)res.base.record,
                 (unsigned long long)res.base.bitpos);
    cr_assert_eq(res.base.phase, ph, "phase %d want %d", res.base.phase, ph);
    cr_assert_eq(res.base.step, step, "step %u want %u", res.base.step, step);
    cr_assert_eq(res.base.record, record, "record %llu want %llu",
                 (unsigned long long)res.base.record, (unsigned long long)record);
    cr_assert_eq(res.base.bitpos, bit, "bit %llu want %llu", (unsigned long long)res.base.bitpos,
                 (unsigned long long)bit);
    rsv_oracle_kv03_v2_result_free(&res);
}

static void expect_walk_fail_both(const uint8_t *f, size_t n, rsv_status st, uint64_t record,
                                  uint64_t bit)
{
    expect_fail(f, n, RSV_ORACLE_KV03_SCAN, st, RSV_ORACLE_PHASE_SCAN, 3, record, bit);
    expect_fail(f, n, RSV_ORACLE_KV03_WALK, st, RSV_ORACLE_PHASE_SCAN, 3, record, bit);
}

static void expect_dict_fail_both(const uint8_t *f, size_t n, rsv_status st, unsigned step)
{
    expect_fail(f, n, RSV_ORACLE_KV03_SCAN, st, RSV_ORACLE_PHASE_DICTIONARY, step, 0, 0);
    expect_fail(f, n, RSV_ORACLE_KV03_WALK, st, RSV_ORACLE_PHASE_DICTIONARY, step, 0, 0);
}

/* Both modes decode f to exactly want[0..k-1]. */
static void expect_records(const uint8_t *f, size_t n, const rsv_oracle_crecord *want, size_t k)
{
    const rsv_oracle_kv03_mode modes[2] = {RSV_ORACLE_KV03_SCAN, RSV_ORACLE_KV03_WALK};
    for (int m = 0; m < 2; m++) {
        rsv_oracle_kv03_v2_result res;
        rsv_status st = rsv_oracle_kv03_decode_v2(f, n, NULL, modes[m], &res);
        cr_assert_eq(st, RSV_OK, "mode %d: status %d phase %d step %u record %llu bit %llu",
                     modes[m], st, res.base.phase, res.base.step,
                     (unsigned long long)res.base.record, (unsigned long long)res.base.bitpos);
        cr_assert_eq(res.base.records.count, k);
        rsv_oracle_crecord *got = NULL;
        cr_assert_eq(rsv_oracle_kv03_v2_coded(&res, &got), RSV_OK);
        for (size_t i = 0; i < k; i++) {
            cr_assert(rsv_ov2_code_eq(got[i].code, want[i].code), "record %zu code", i);
            cr_assert(rsv_oracle_record_equal(&got[i].rec, &want[i].rec), "record %zu", i);
        }
        free(got);
        rsv_oracle_kv03_v2_result_free(&res);
    }
}

/* Writer and stream writer both refuse records with `st` at record `bad`. */
static void writers_refuse(const rsv_oracle_crecord *r, size_t n, rsv_status st, size_t bad)
{
    uint8_t *out = NULL;
    size_t len = 0, got_bad = 99;
    cr_assert_eq(rsv_oracle_kv03_encode_v2(r, n, &EG0_W15, &out, &len, &got_bad), st);
    cr_assert_eq(got_bad, bad, "file writer: record %zu want %zu", got_bad, bad);
    cr_assert_null(out);
    uint64_t E = 0;
    got_bad = 99;
    cr_assert_eq(rsv_oracle_stream_encode_v2(r, n, &out, &E, &got_bad), st);
    cr_assert_eq(got_bad, bad, "stream writer: record %zu want %zu", got_bad, bad);
    cr_assert_null(out);
}

static uint8_t *spec_12_5(size_t *n)
{
    uint8_t *b = NULL;
    cr_assert_eq(rsv_spec_hexdump("12.5", &b, n), 0);
    return b;
}

/* ---- §11.1 writer checks and §10 code sets ------------------------------- */

/* §1.2 / §11.1 step 1: 513 bits fail TOO_LARGE (checked before step 2:
 * `0^513` also has `0` as a prefix); 512 bits work. */
Test(oracle_v2_codes, too_large_at_513_bits)
{
    rsv_oracle_crecord a[1] = {REC("0^513", "a", NULL)};
    writers_refuse(a, 1, RSV_ERR_TOO_LARGE, 0);
    rsv_oracle_crecord b[2] = {REC("0", "a", NULL), REC("0^513", "b", NULL)};
    writers_refuse(b, 2, RSV_ERR_TOO_LARGE, 1);
    rsv_oracle_code set[2] = {rsv_ov2_code("0"), rsv_ov2_code("1^513")};
    rsv_oracle_stream_v2_result res;
    uint8_t byte = 0x80;
    cr_assert_eq(rsv_oracle_stream_decode_v2(rsv_view_make(&byte, 0, 1), set, 2, &res),
                 RSV_ERR_TOO_LARGE);
    cr_assert_eq(res.base.records.count, 0);
    rsv_oracle_stream_v2_result_free(&res);
}

/* Codes `0` and 1^512 (W = 15, EG0):
 *   r0 (`0`, "a" -> "x"): EG0(1) `010`, S = 8 `0001001`, "a", `1 010 01111000`
 *      = 3 + 7 + 8 + 12 = 30 bits;
 *   r1 (1^512, "" -> "v"): transition, cont_0 = 9, R = lcp = 0, EG0(9)
 *      `0001010`, tail 1^512, S = 0 `1`, `1 010 01110110` = 7 + 512 + 1 + 12
 *      = 532 bits;
 *   r2 (1^512, "b" -> tombstone): continues, cont_1 = 512, R = 512 + lcp("",
 *      "b") = 512, `1`, S = 8 `0001001`, "b", `0` = 17 bits.
 * Extent 579, terminal 512 + 8 = 520, dictionary bits 513, seed bits 1. */
Test(oracle_v2_codes, code_of_512_bits_works)
{
    rsv_oracle_crecord r[3] = {REC("0", "a", "x"), REC("1^512", "", "v"), REC("1^512", "b", NULL)};
    size_t n;
    uint8_t *f = encode(r, 3, &EG0_W15, &n);
    assert_data(f, "010 0001001 01100001 1 010 01111000"
                   "0001010 1^512 1 1 010 01110110"
                   "1 0001001 01100010 0");
    cr_assert_eq(rsv_ov2_le(f + 96 + 8, 8), 579);
    cr_assert_eq(rsv_ov2_le(f + 96 + 16, 8), 520);
    cr_assert_eq(rsv_ov2_le(f + 96 + 32, 8), 513);
    cr_assert_eq(rsv_ov2_le(f + 96 + 40, 8), 1);
    expect_records(f, n, r, 3);
    free(f);
    uint64_t E;
    uint8_t *s = NULL;
    cr_assert_eq(rsv_oracle_stream_encode_v2(r, 3, &s, &E, NULL), RSV_OK);
    rsv_oracle_code set[2] = {rsv_ov2_code("1^512"), rsv_ov2_code("0")};
    rsv_oracle_stream_v2_result res;
    cr_assert_eq(rsv_oracle_stream_decode_v2(rsv_view_make(s, 0, E), set, 2, &res), RSV_OK);
    cr_assert_eq(res.base.records.count, 3);
    cr_assert_eq(res.code_index[0], 1);
    cr_assert_eq(res.code_index[1], 0);
    cr_assert_eq(res.code_index[2], 0);
    rsv_oracle_stream_v2_result_free(&res);
    free(s);
}

/* §11.1 step 2: a new code that is a prefix of an earlier code or has one as
 * a prefix; the empty code beside any other code; equal codes are fine. */
Test(oracle_v2_codes, selector_prefix_cases)
{
    rsv_oracle_crecord a[2] = {REC("0", "a", NULL), REC("01", "b", NULL)};
    writers_refuse(a, 2, RSV_ERR_SELECTOR_PREFIX, 1);
    rsv_oracle_crecord b[2] = {REC("01", "a", NULL), REC("0", "b", NULL)};
    writers_refuse(b, 2, RSV_ERR_SELECTOR_PREFIX, 1);
    rsv_oracle_crecord c[2] = {REC("", "a", NULL), REC("1", "b", NULL)};
    writers_refuse(c, 2, RSV_ERR_SELECTOR_PREFIX, 1);
    rsv_oracle_crecord d[2] = {REC("0", "a", NULL), REC("", "b", NULL)};
    writers_refuse(d, 2, RSV_ERR_SELECTOR_PREFIX, 1);
    /* Step 2 before step 3: `1` after `10` is also out of order. */
    rsv_oracle_crecord e[2] = {REC("10", "a", NULL), REC("1", "", NULL)};
    writers_refuse(e, 2, RSV_ERR_SELECTOR_PREFIX, 1);
    /* A non-adjacent earlier code counts: `0`, `10`, `11`, then `01` (its
     * prefix `0` was used two records earlier). */
    rsv_oracle_crecord g[4] = {REC("0", "a", NULL), REC("10", "a", NULL), REC("11", "a", NULL),
                               REC("01", "b", NULL)};
    writers_refuse(g, 4, RSV_ERR_SELECTOR_PREFIX, 3);

    /* Reader code sets (§10), checked before anything is read. */
    const char *const bad_sets[][3] = {{"", "0", NULL}, {"0", "0", NULL}, {"10", "0", "1"}};
    for (size_t k = 0; k < 3; k++) {
        rsv_oracle_code set[3];
        size_t ns = 0;
        for (; ns < 3 && bad_sets[k][ns]; ns++)
            set[ns] = rsv_ov2_code(bad_sets[k][ns]);
        cr_assert_eq(rsv_oracle_code_set_check(set, ns), RSV_ERR_SELECTOR_PREFIX, "set %zu", k);
    }
    rsv_oracle_code one_empty[1] = {rsv_ov2_code("")};
    cr_assert_eq(rsv_oracle_code_set_check(one_empty, 1), RSV_OK);
    /* m = 1 with the empty code writes and reads (a v1 file with c = 0). */
    rsv_oracle_crecord h[2] = {REC("", "a", NULL), REC("", "b", "")};
    size_t n;
    uint8_t *f = encode(h, 2, &EG0_W15, &n);
    expect_records(f, n, h, 2);
    free(f);
}

/* §11.1 step 3: returning to an earlier, non-adjacent code is UNSORTED
 * (`0`"b" < `10`"a" because `0` < `10`); so is a key that does not rise. */
Test(oracle_v2_codes, return_to_earlier_code_is_unsorted)
{
    rsv_oracle_crecord a[3] = {REC("0", "a", NULL), REC("10", "a", NULL), REC("0", "b", NULL)};
    writers_refuse(a, 3, RSV_ERR_UNSORTED, 2);
    rsv_oracle_crecord b[2] = {REC("10", "b", NULL), REC("10", "b", NULL)};
    writers_refuse(b, 2, RSV_ERR_UNSORTED, 1);
    rsv_oracle_crecord c[2] = {REC("11", "", NULL), REC("10", "zz", NULL)};
    writers_refuse(c, 2, RSV_ERR_UNSORTED, 1);
}

/* ---- §6.3 on the §12.5 file (offsets [0, 1, 3, 5], bits `01011`) ---------- */

static void set_offset(uint8_t *f, unsigned j, uint64_t v)
{
    rsv_ov2_put_le(f + rsv_ov2_section(f, 6) + 8 * j, v, 8);
}

/* Step order 1 < 2 < 3 < 4, first failure wins, the same in scan (after the
 * body CRC) and in the cursor walk. */
Test(oracle_v2_codes, dictionary_checks_in_order)
{
    size_t n;
    uint8_t *orig = spec_12_5(&n);
    uint8_t *f = malloc(n);

    /* e_0 = 1: step 1 (SECTION_ENDPOINTS) although e_1 <= e_0 too (step 2). */
    memcpy(f, orig, n);
    set_offset(f, 0, 1);
    rsv_ov2_fix_crcs(f, n);
    expect_dict_fail_both(f, n, RSV_ERR_SECTION_ENDPOINTS, 1);
    /* e_3 = 4 != dictionary bits 5: step 1. */
    memcpy(f, orig, n);
    set_offset(f, 3, 4);
    rsv_ov2_fix_crcs(f, n);
    expect_dict_fail_both(f, n, RSV_ERR_SECTION_ENDPOINTS, 1);
    /* Offsets [0, 3, 1, 5]: e_2 = 1 <= e_1 = 3 -> step 2 (endpoints pass). */
    memcpy(f, orig, n);
    set_offset(f, 1, 3);
    set_offset(f, 2, 1);
    rsv_ov2_fix_crcs(f, n);
    expect_dict_fail_both(f, n, RSV_ERR_DICTIONARY_SHAPE, 2);
    /* Bits `0 01 11` (byte 38): D_0 = `0` is a prefix of D_1 = `01`: step 4. */
    memcpy(f, orig, n);
    f[rsv_ov2_section(f, 5)] = 0x38;
    rsv_ov2_fix_crcs(f, n);
    expect_dict_fail_both(f, n, RSV_ERR_DICTIONARY_ORDER, 4);
    /* Bits `1 10 11` (byte D8): D_0 = `1` is a prefix of D_1 = `10` -> step 4. */
    memcpy(f, orig, n);
    f[rsv_ov2_section(f, 5)] = 0xD8;
    rsv_ov2_fix_crcs(f, n);
    expect_dict_fail_both(f, n, RSV_ERR_DICTIONARY_ORDER, 4);
    /* Equal neighbours: bits `0 10 10` (byte 50): D_1 = D_2 = `10` -> step 4. */
    memcpy(f, orig, n);
    f[rsv_ov2_section(f, 5)] = 0x50;
    rsv_ov2_fix_crcs(f, n);
    expect_dict_fail_both(f, n, RSV_ERR_DICTIONARY_ORDER, 4);
    /* Shape and order both broken (byte 68 and [0, 1, 1, 5]): step 2 wins. */
    memcpy(f, orig, n);
    f[rsv_ov2_section(f, 5)] = 0x68;
    set_offset(f, 2, 1);
    rsv_ov2_fix_crcs(f, n);
    expect_dict_fail_both(f, n, RSV_ERR_DICTIONARY_SHAPE, 2);
    /* Scan reads the dictionary only after the body CRC (scan step 1); the
     * cursor walk checks no CRC and meets the bad order. (The header CRC does
     * not cover body bytes, so open passes.) */
    memcpy(f, orig, n);
    f[rsv_ov2_section(f, 5)] = 0x68;
    expect_fail(f, n, RSV_ORACLE_KV03_SCAN, RSV_ERR_BODY_CRC, RSV_ORACLE_PHASE_SCAN, 1, 0, 0);
    expect_fail(f, n, RSV_ORACLE_KV03_WALK, RSV_ERR_DICTIONARY_ORDER, RSV_ORACLE_PHASE_DICTIONARY,
                4, 0, 0);
    free(f);
    free(orig);
}

/* Step 3: codes `0`, `10`, 1^512 written (offsets [0, 1, 3, 515]); moving
 * e_2 to 2 gives D_1 = `1` and D_2 = 513 bits: offsets still rise (step 2
 * passes), step 3 fails TOO_LARGE before step 4 would see `1` < ... */
Test(oracle_v2_codes, dictionary_code_over_512_bits)
{
    rsv_oracle_crecord r[3] = {REC("0", "a", NULL), REC("10", "b", NULL), REC("1^512", "c", NULL)};
    size_t n;
    uint8_t *f = encode(r, 3, &EG0_W15, &n);
    cr_assert_eq(rsv_ov2_le(f + rsv_ov2_section(f, 6) + 16, 8), 3);
    cr_assert_eq(rsv_ov2_le(f + rsv_ov2_section(f, 6) + 24, 8), 515);
    set_offset(f, 2, 2);
    rsv_ov2_fix_crcs(f, n);
    expect_dict_fail_both(f, n, RSV_ERR_TOO_LARGE, 3);
    free(f);
}

/* ---- seeds ------------------------------------------------------------------ */

/* §12.5 seeds `00 10` -> `11 10` (byte E0): seed_0 = 3 >= m = 3, SEED_RANGE
 * at record 0's start, bit 0. */
Test(oracle_v2_codes, seed_range_first_block)
{
    size_t n;
    uint8_t *f = spec_12_5(&n);
    f[rsv_ov2_section(f, 7)] = 0xE0;
    rsv_ov2_fix_crcs(f, n);
    expect_walk_fail_both(f, n, RSV_ERR_SEED_RANGE, 0, 0);
    free(f);
}

/* m = 5 (not a power of two), w = bitlen(4) = 3, one block: seed_0 = `000`.
 * Seeds 5, 6, 7 (`101`, `110`, `111`) fail SEED_RANGE at bit 0; seed 4
 * (`100`, code `111`, c = 3) is in range and then fails later (record 0's
 * R = EG0 `011` = 2 < 3: RETAINED_PRECEDES_CODE after the EG0, bit 3). */
Test(oracle_v2_codes, seed_range_m5)
{
    rsv_oracle_crecord r[5] = {REC("00", "a", NULL), REC("01", "a", NULL), REC("10", "a", NULL),
                               REC("110", "a", NULL), REC("111", "a", NULL)};
    size_t n;
    uint8_t *orig = encode(r, 5, &EG0_W15, &n);
    cr_assert_eq(rsv_ov2_le(orig + 96 + 40, 8), 3); /* seed bits = 1 block * 3 */
    expect_records(orig, n, r, 5);
    uint8_t *f = malloc(n);
    const uint8_t seeds[3] = {0xA0, 0xC0, 0xE0};
    for (int k = 0; k < 3; k++) {
        memcpy(f, orig, n);
        f[rsv_ov2_section(f, 7)] = seeds[k];
        rsv_ov2_fix_crcs(f, n);
        expect_walk_fail_both(f, n, RSV_ERR_SEED_RANGE, 0, 0);
    }
    memcpy(f, orig, n);
    f[rsv_ov2_section(f, 7)] = 0x80;
    rsv_ov2_fix_crcs(f, n);
    expect_walk_fail_both(f, n, RSV_ERR_RETAINED_PRECEDES_CODE, 0, 3);
    free(f);
    free(orig);
}

/* ---- block starts ------------------------------------------------------------ */

/* §12.5 record 3 (block start, `11`) has R = `011` at bits 61-63; bit 63
 * flipped gives `010`, R = 1 < |`11`| = 2: RETAINED_PRECEDES_CODE after the
 * EG0, bit 64. */
Test(oracle_v2_codes, retained_precedes_multibit_code)
{
    size_t n;
    uint8_t *f = spec_12_5(&n);
    f[rsv_ov2_section(f, 0) + 7] ^= 0x01;
    rsv_ov2_fix_crcs(f, n);
    expect_walk_fail_both(f, n, RSV_ERR_RETAINED_PRECEDES_CODE, 3, 64);
    free(f);
}

/* W = 2, records (`0`,"a",⊥), (`0`,"b",⊥), (`1`,"a",⊥); seeds `0 1`:
 *   r0: `010` `0001001` `01100001` `0`  (19 bits, 0-18)
 *   r1: cont 9 - R (1 + lcp("a","b") = 7) = 2: `011`, S = 2 `011`, `10`, `0`
 *       (9 bits, 19-27)
 *   r2: block start, code `1`, R = 1: `010` at 28-30, `0001001`, `01100001`, `0`.
 * Bit 30 set: R = `011` = 2 > |`1`| with previous code `0`:
 * PREFIX_CROSSES_CODE after the EG0, bit 31. Record 0 with R > c is not a
 * crossing (i = 0): bit 2 set makes R = 2, local = 1, S = 8, and the walk
 * goes on to KEY_ENDS_INSIDE_BYTE after the literal (3 + 7 + 8 = bit 18). */
Test(oracle_v2_codes, prefix_crosses_code)
{
    rsv_oracle_crecord r[3] = {REC("0", "a", NULL), REC("0", "b", NULL), REC("1", "a", NULL)};
    rsv_oracle_kv03_policy p = {RSV_ORACLE_BACKSPACE_EG, 0, 2, 3};
    size_t n;
    uint8_t *f = encode(r, 3, &p, &n);
    assert_data(f, "010 0001001 01100001 0  011 011 10 0  010 0001001 01100001 0");
    uint8_t *g = malloc(n);
    memcpy(g, f, n);
    rsv_set_bit(g + rsv_ov2_section(g, 0), 30, 1);
    rsv_ov2_fix_crcs(g, n);
    expect_walk_fail_both(g, n, RSV_ERR_PREFIX_CROSSES_CODE, 2, 31);
    memcpy(g, f, n);
    rsv_set_bit(g + rsv_ov2_section(g, 0), 2, 1);
    rsv_ov2_fix_crcs(g, n);
    expect_walk_fail_both(g, n, RSV_ERR_KEY_ENDS_INSIDE_BYTE, 0, 18);
    free(g);
    free(f);
}

/* ---- transitions --------------------------------------------------------------- */

/* Dictionary `0`, `10` (W = 15), records (`0`,"a",⊥), (`10`,"a",⊥), (`10`,"b",⊥):
 *   r0: `010` `0001001` `01100001` `0`                       bits 0-18
 *   r1: transition, cont 9 - R 0: EG0(9) `0001010` (19-25), tail `10`
 *       (26-27), `0001001` (28-34), `01100001` (35-42), `0` (43)
 *   r2: cont 10 - R (2 + 6) = 2: `011` (44-46), `011` `10` `0`  -> extent 53
 * Cases:
 *   - tail bit 26 cleared: P = `0` = Cp -> SORT_TRANSITION after that tail
 *     bit (27), record 1;
 *   - tail bit 27 set: P = `1` (code `10` has it), then `11` (no code) ->
 *     UNKNOWN_SELECTOR after bit 27 (28), record 1;
 *   - r2's control replaced by EG0(9) `0001010` at 44-50: R = 10 - 9 = 1 <
 *     |`10`|, P = `1`, no code but Cp has it -> SORT_TRANSITION right after
 *     the control, bit 51, record 2. */
Test(oracle_v2_codes, sort_transition_and_unknown_selector_positions)
{
    rsv_oracle_crecord r[3] = {REC("0", "a", NULL), REC("10", "a", NULL), REC("10", "b", NULL)};
    size_t n;
    uint8_t *f = encode(r, 3, &EG0_W15, &n);
    assert_data(f, "010 0001001 01100001 0  0001010 10 0001001 01100001 0  011 011 10 0");
    expect_records(f, n, r, 3);
    uint8_t *g = malloc(n);

    memcpy(g, f, n);
    rsv_set_bit(g + rsv_ov2_section(g, 0), 26, 0);
    rsv_ov2_fix_crcs(g, n);
    expect_walk_fail_both(g, n, RSV_ERR_SORT_TRANSITION, 1, 27);

    memcpy(g, f, n);
    rsv_set_bit(g + rsv_ov2_section(g, 0), 27, 1);
    rsv_ov2_fix_crcs(g, n);
    expect_walk_fail_both(g, n, RSV_ERR_UNKNOWN_SELECTOR, 1, 28);

    memcpy(g, f, n);
    rsv_parse_bits("0001010", g + rsv_ov2_section(g, 0), 7, 44);
    rsv_ov2_fix_crcs(g, n);
    expect_walk_fail_both(g, n, RSV_ERR_SORT_TRANSITION, 2, 51);
    free(g);
    free(f);
}

/* ---- accepted non-canonical encodings (§2, §3.3) -------------------------------- */

/* Codes `10`, `11`, records (`10`,"a",⊥), (`11`,"a",⊥), one block:
 *   canonical r1: cont 10 - R (lcp 1) = 9: `0001010`, tail `1`, ...
 *   R = 0 instead: b = 10 `0001011`, tail `11` (one bit longer, 44 bits,
 *   still 6 bytes). Both modes accept it and read the same records. */
Test(oracle_v2_codes, transition_below_lcp_accepted)
{
    rsv_oracle_crecord r[2] = {REC("10", "a", NULL), REC("11", "a", NULL)};
    size_t n;
    const uint64_t blocks[1] = {0};
    uint8_t *f = rewritten(r, 2, &EG0_W15, "011 0001001 01100001 0  0001010 1 0001001 01100001 0",
                           "011 0001001 01100001 0  0001011 11 0001001 01100001 0", blocks, 1, &n);
    expect_records(f, n, r, 2);
    free(f);
}

/* Records (`0`,"a",⊥), (`0`,"ab",⊥):
 *   canonical r1: cont 9 - R 9 = 0 `1`, S = 8 `0001001`, `01100010`, `0`
 *   (extent 36);
 *   R = 8 (local 7, one bit below the lcp): b = 1 `010`, S = 9 `0001010`,
 *   literal "ab" bits [7, 16) = `1 01100010`, `0` (extent 39, still 5 bytes).
 *   (local + S = 16, a multiple of 8: the byte rule holds.)
 * With W = 1 every record is a block start; canonical r1 = EG0(9)
 * `0001010` ...; R = 1 instead (`010`, local 0, S = 16) is accepted too
 * (R <= c + lcp at a block start); block 1 then starts at bit 19. */
Test(oracle_v2_codes, longer_literal_accepted)
{
    rsv_oracle_crecord r[2] = {REC("0", "a", NULL), REC("0", "ab", NULL)};
    size_t n;
    const uint64_t one[1] = {0};
    uint8_t *f = rewritten(r, 2, &EG0_W15, "010 0001001 01100001 0  1 0001001 01100010 0",
                           "010 0001001 01100001 0  010 0001010 1 01100010 0", one, 1, &n);
    expect_records(f, n, r, 2);
    free(f);

    rsv_oracle_kv03_policy w1 = {RSV_ORACLE_BACKSPACE_EG, 0, 1, 3};
    const uint64_t two[2] = {0, 19};
    f = rewritten(r, 2, &w1, "010 0001001 01100001 0  0001010 0001001 01100010 0",
                  "010 0001001 01100001 0  010 000010001 01100001 01100010 0", two, 2, &n);
    expect_records(f, n, r, 2);
    free(f);
}

/* Codes `0`, `10`, records (`0`,"a",⊥), (`10`,"",⊥), one block:
 *   r0: `010` `0001001` `01100001` `0` (19 bits); r1: transition, cont 9 - R 0:
 *   `0001010`, tail `10`, S = 0 `1`, `0` (11 bits): extent 30.
 * Cut after the first tail bit (extent 27, still 4 bytes): P = `1` is a
 * prefix of `10` only, the next read(1) is at the extent -> TRUNCATED_FIELD
 * with the position unchanged, bit 27, record 1. */
Test(oracle_v2_codes, transition_tail_at_extent)
{
    rsv_oracle_crecord r[2] = {REC("0", "a", NULL), REC("10", "", NULL)};
    size_t n;
    const uint64_t blocks[1] = {0};
    uint8_t *f = rewritten(r, 2, &EG0_W15, "010 0001001 01100001 0  0001010 10 1 0",
                           "010 0001001 01100001 0  0001010 1", blocks, 1, &n);
    expect_walk_fail_both(f, n, RSV_ERR_TRUNCATED_FIELD, 1, 27);
    free(f);
}

/* ---- the logical-key order (§1.2: C || K as a bit string) ---------------- */

static int lcmp(const uint8_t *ca, uint64_t na, const char *ka, size_t kla, const uint8_t *cb, uint64_t nb,
                const char *kb, size_t klb)
{
    rsv_oracle_crecord a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.code = (rsv_oracle_code){ca, na};
    a.rec.key = (const uint8_t *)ka;
    a.rec.key_len = kla;
    b.code = (rsv_oracle_code){cb, nb};
    b.rec.key = (const uint8_t *)kb;
    b.rec.key_len = klb;
    int ab = rsv_oracle_logical_compare(&a, &b), ba = rsv_oracle_logical_compare(&b, &a);
    cr_assert(ab == -ba, "antisymmetry: %d and %d", ab, ba);
    return ab;
}

/* Same code (one record family): the keys' bytes decide, unsigned, a proper
 * prefix first; bits of a code's last byte past its length are not part of it
 * (0x80 and 0xFF are both the 1-bit code `1`). */
Test(oracle_v2_order, same_code_orders_by_key_bytes)
{
    static const uint8_t one[] = {0x80}, one_dirty[] = {0xFF}, c9[] = {0xA5, 0x00}, c9_dirty[] = {0xA5, 0x7F};
    cr_assert_eq(lcmp(one, 1, "a", 1, one, 1, "b", 1), -1);
    cr_assert_eq(lcmp(one, 1, "a", 1, one_dirty, 1, "a", 1), 0);
    cr_assert_eq(lcmp(one, 1, "a", 1, one, 1, "ab", 2), -1);
    cr_assert_eq(lcmp(one, 1, "b", 1, one_dirty, 1, "ab", 2), 1);
    cr_assert_eq(lcmp(one, 1, "", 0, one, 1, "\0", 1), -1);
    cr_assert_eq(lcmp(one, 1, "\x80", 1, one, 1, "\x7f", 1), 1);
    cr_assert_eq(lcmp(c9, 9, "\x80", 1, c9_dirty, 9, "\x80\x00", 2), -1);
    cr_assert_eq(lcmp(NULL, 0, "k", 1, NULL, 0, "k", 1), 0);
}

/* Different codes: bit by bit over C || K.
 *   `0` || ff (0 11111111) < `1` || 00 (1 00000000): bit 0.
 *   `10` || 00 (10 00000000) < `1` || 7f (1 01111111): bit 2 is 0 against 1.
 *   `1` || 40 (1 01000000) > `10` || 00 (10 00000000): bit 2 is 1 against 0.
 *   `10101011` || (empty) = (empty code) || ab: the same 8 bits, equal.
 *   `1` || (empty) < `10` || (empty): a proper prefix first. */
Test(oracle_v2_order, different_codes_compare_bit_by_bit)
{
    static const uint8_t c0[] = {0x00}, c1[] = {0x80}, c10[] = {0x80}, cab[] = {0xAB};
    cr_assert_eq(lcmp(c0, 1, "\xff", 1, c1, 1, "\x00", 1), -1);
    cr_assert_eq(lcmp(c10, 2, "\x00", 1, c1, 1, "\x7f", 1), -1);
    cr_assert_eq(lcmp(c1, 1, "\x40", 1, c10, 2, "\x00", 1), 1);
    cr_assert_eq(lcmp(cab, 8, "", 0, NULL, 0, "\xab", 1), 0);
    cr_assert_eq(lcmp(c1, 1, "", 0, c10, 2, "", 0), -1);
}
