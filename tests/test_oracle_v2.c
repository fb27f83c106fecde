/* The KV03 v2 oracle against the spec's worked examples (KV03.md §12.3-§12.6).
 * Every expected byte is read from docs/spec/KV03.md (spec_doc.h): the hex
 * dumps of §12.3, §12.4 (empty file) and §12.5, the stream hex of §12.4 and
 * §12.6. Statuses, record indices and bit positions are the ones the §12.5
 * and §12.6 text states. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "reservoir/oracle_kv03.h"

#include "oracle_v2_util.h"
#include "spec_doc.h"

/* ---- spec bytes -------------------------------------------------------- */

static uint8_t *dump(const char *heading, size_t *n)
{
    uint8_t *b = NULL;
    cr_assert_eq(rsv_spec_hexdump(heading, &b, n), 0, "no hex dump under %s in %s", heading,
                 rsv_spec_path());
    return b;
}

static uint8_t *hex_after(const char *heading, const char *anchor, size_t *n)
{
    uint8_t *b = NULL;
    cr_assert_eq(rsv_spec_hex_after(heading, anchor, &b, n), 0, "no hex after '%s' under %s",
                 anchor, heading);
    return b;
}

static void assert_bytes(const uint8_t *got, size_t ngot, const uint8_t *want, size_t nwant)
{
    cr_assert_eq(ngot, nwant, "length %zu, want %zu", ngot, nwant);
    for (size_t i = 0; i < nwant; i++)
        cr_assert_eq(got[i], want[i], "byte %zu: got %02x want %02x", i, got[i], want[i]);
}

/* ---- the §12.5 records and policy --------------------------------------- */

static void recs_12_5(rsv_oracle_crecord r[6])
{
    r[0] = rsv_ov2_rec("0", "a", "x");
    r[1] = rsv_ov2_rec("0", "ab", NULL);
    r[2] = rsv_ov2_rec("10", "", "");
    r[3] = rsv_ov2_rec("11", "a", "yz");
    r[4] = rsv_ov2_rec("11", "b", NULL);
    r[5] = rsv_ov2_rec("11", "ba", "");
}

static const rsv_oracle_kv03_policy POL_12_5 = {RSV_ORACLE_BACKSPACE_EG, 0, 3, 3};

static void assert_crec(const rsv_oracle_crecord *got, const rsv_oracle_crecord *want, size_t i)
{
    cr_assert(rsv_ov2_code_eq(got->code, want->code), "record %zu: code differs", i);
    cr_assert(rsv_oracle_record_equal(&got->rec, &want->rec), "record %zu: key/value differ", i);
}

/* Decodes `file` in `mode` and checks it yields exactly want[0..n-1]. */
static void decode_expect(const uint8_t *file, size_t size, rsv_oracle_kv03_mode mode,
                          const rsv_oracle_crecord *want, size_t n)
{
    rsv_oracle_kv03_v2_result res;
    cr_assert_eq(rsv_oracle_kv03_decode_v2(file, size, NULL, mode, &res), RSV_OK,
                 "status %d phase %d step %u record %llu bit %llu", res.base.status,
                 res.base.phase, res.base.step, (unsigned long long)res.base.record,
                 (unsigned long long)res.base.bitpos);
    cr_assert_eq(res.base.records.count, n);
    rsv_oracle_crecord *got = NULL;
    cr_assert_eq(rsv_oracle_kv03_v2_coded(&res, &got), RSV_OK);
    for (size_t i = 0; i < n; i++)
        assert_crec(&got[i], &want[i], i);
    free(got);
    rsv_oracle_kv03_v2_result_free(&res);
}

/* ---- §12.3 / §12.4: v1 vectors through both entry points ---------------- */

Test(oracle_v2_spec, v1_file_12_3_both_writers_and_v2_decode)
{
    size_t n;
    uint8_t *want = dump("12.3", &n);
    cr_assert_eq(n, 360);
    rsv_oracle_crecord r[4] = {rsv_ov2_rec("0", "a", "x"), rsv_ov2_rec("0", "ab", NULL),
                               rsv_ov2_rec("0", "b", ""), rsv_ov2_rec("0", "ba", "yz")};
    rsv_oracle_record plain[4] = {r[0].rec, r[1].rec, r[2].rec, r[3].rec};
    rsv_oracle_kv03_policy p = rsv_oracle_kv03_default_policy();
    uint8_t *out = NULL;
    size_t nout = 0;
    cr_assert_eq(rsv_oracle_kv03_encode_v2(r, 4, &p, &out, &nout, NULL), RSV_OK);
    assert_bytes(out, nout, want, n);
    free(out);
    const uint8_t c0 = 0x00;
    cr_assert_eq(rsv_oracle_kv03_encode(plain, 4, &p, &c0, 1, &out, &nout, NULL), RSV_OK);
    assert_bytes(out, nout, want, n);
    free(out);
    decode_expect(want, n, RSV_ORACLE_KV03_SCAN, r, 4);
    decode_expect(want, n, RSV_ORACLE_KV03_WALK, r, 4);
    rsv_oracle_kv03_v2_result res;
    cr_assert_eq(rsv_oracle_kv03_decode_v2(want, n, NULL, RSV_ORACLE_KV03_SCAN, &res), RSV_OK);
    cr_assert_eq(res.dict.m, 1);
    cr_assert(rsv_ov2_code_eq(res.dict.codes[0], rsv_ov2_code("0")));
    rsv_oracle_kv03_v2_result_free(&res);
    free(want);
}

/* §12.4 "W = 2, K = 3": the §12.3 dump with the differences the row states
 * (data byte 6 = 21, low word 0x5E0, high word 0x25, W = 2, K = 3, both
 * CRCs recomputed; the row's CRC values are then checked as stated). */
Test(oracle_v2_spec, v1_variant_w2_k3)
{
    size_t n;
    uint8_t *want = dump("12.3", &n);
    want[rsv_ov2_section(want, 0) + 6] = 0x21;
    want[rsv_ov2_section(want, 1) + 0] = 0xE0;
    want[rsv_ov2_section(want, 1) + 1] = 0x05;
    want[rsv_ov2_section(want, 2) + 0] = 0x25;
    want[20] = 2;
    want[24] = 3;
    rsv_ov2_fix_crcs(want, n);
    cr_assert_eq(want[64] | want[65] << 8 | want[66] << 16 | (uint32_t)want[67] << 24,
                 0x5B758CC6u);
    cr_assert_eq(want[68] | want[69] << 8 | want[70] << 16 | (uint32_t)want[71] << 24,
                 0x76639808u);
    rsv_oracle_crecord r[4] = {rsv_ov2_rec("0", "a", "x"), rsv_ov2_rec("0", "ab", NULL),
                               rsv_ov2_rec("0", "b", ""), rsv_ov2_rec("0", "ba", "yz")};
    rsv_oracle_kv03_policy p = {RSV_ORACLE_BACKSPACE_EG, 0, 2, 3};
    uint8_t *out = NULL;
    size_t nout = 0;
    cr_assert_eq(rsv_oracle_kv03_encode_v2(r, 4, &p, &out, &nout, NULL), RSV_OK);
    assert_bytes(out, nout, want, n);
    free(out);
    decode_expect(want, n, RSV_ORACLE_KV03_SCAN, r, 4);
    free(want);
}

Test(oracle_v2_spec, v1_empty_file_12_4)
{
    size_t n;
    uint8_t *want = dump("12.4", &n);
    cr_assert_eq(n, 320);
    rsv_oracle_kv03_policy p = rsv_oracle_kv03_default_policy();
    uint8_t *out = NULL;
    size_t nout = 0;
    cr_assert_eq(rsv_oracle_kv03_encode_v2(NULL, 0, &p, &out, &nout, NULL), RSV_OK);
    assert_bytes(out, nout, want, n);
    free(out);
    rsv_oracle_kv03_v2_result res;
    cr_assert_eq(rsv_oracle_kv03_decode_v2(want, n, NULL, RSV_ORACLE_KV03_SCAN, &res), RSV_OK);
    cr_assert_eq(res.dict.m, 0);
    cr_assert_eq(res.base.records.count, 0);
    rsv_oracle_kv03_v2_result_free(&res);
    free(want);
}

Test(oracle_v2_spec, v1_stream_12_4_both_ways)
{
    size_t n;
    uint8_t *want = hex_after("12.4", "| record stream |", &n);
    cr_assert_eq(n, 13); /* 100 bits */
    rsv_oracle_crecord r[4] = {rsv_ov2_rec("0", "a", "x"), rsv_ov2_rec("0", "ab", NULL),
                               rsv_ov2_rec("0", "b", ""), rsv_ov2_rec("0", "ba", "yz")};
    uint8_t *out = NULL;
    uint64_t E = 0;
    cr_assert_eq(rsv_oracle_stream_encode_v2(r, 4, &out, &E, NULL), RSV_OK);
    cr_assert_eq(E, 100);
    assert_bytes(out, (size_t)((E + 7) / 8), want, n);
    free(out);
    rsv_oracle_code set[1] = {rsv_ov2_code("0")};
    rsv_oracle_stream_v2_result res;
    cr_assert_eq(rsv_oracle_stream_decode_v2(rsv_view_make(want, 0, 100), set, 1, &res), RSV_OK);
    cr_assert_eq(res.base.records.count, 4);
    for (size_t i = 0; i < 4; i++) {
        cr_assert(rsv_oracle_record_equal(&res.base.records.items[i], &r[i].rec));
        cr_assert_eq(res.code_index[i], 0);
    }
    rsv_oracle_stream_v2_result_free(&res);
    free(want);
}

/* ---- §12.5 --------------------------------------------------------------- */

Test(oracle_v2_spec, file_12_5_encode_byte_for_byte)
{
    size_t n;
    uint8_t *want = dump("12.5", &n);
    cr_assert_eq(n, 377);
    rsv_oracle_crecord r[6];
    recs_12_5(r);
    uint8_t *out = NULL;
    size_t nout = 0;
    cr_assert_eq(rsv_oracle_kv03_encode_v2(r, 6, &POL_12_5, &out, &nout, NULL), RSV_OK);
    assert_bytes(out, nout, want, n);
    free(out);
    /* The data stream the prose gives ("Data extent 126 bits -> 16 bytes")
     * is section 0 of the dump. */
    size_t nd;
    uint8_t *data = hex_after("12.5", "Data extent 126 bits", &nd);
    assert_bytes(want + rsv_ov2_section(want, 0), 16, data, nd);
    free(data);
    free(want);
}

Test(oracle_v2_spec, file_12_5_decodes_to_six_records)
{
    size_t n;
    uint8_t *f = dump("12.5", &n);
    rsv_oracle_crecord r[6];
    recs_12_5(r);
    decode_expect(f, n, RSV_ORACLE_KV03_SCAN, r, 6);
    decode_expect(f, n, RSV_ORACLE_KV03_WALK, r, 6);
    rsv_oracle_kv03_v2_result res;
    cr_assert_eq(rsv_oracle_kv03_decode_v2(f, n, NULL, RSV_ORACLE_KV03_SCAN, &res), RSV_OK);
    cr_assert_eq(res.dict.m, 3);
    cr_assert(rsv_ov2_code_eq(res.dict.codes[0], rsv_ov2_code("0")));
    cr_assert(rsv_ov2_code_eq(res.dict.codes[1], rsv_ov2_code("10")));
    cr_assert(rsv_ov2_code_eq(res.dict.codes[2], rsv_ov2_code("11")));
    const uint64_t idx[6] = {0, 0, 1, 2, 2, 2};
    for (size_t i = 0; i < 6; i++)
        cr_assert_eq(res.code_index[i], idx[i]);
    cr_assert_eq(res.base.data_extent, 126);
    cr_assert_eq(res.base.terminal, 18);
    cr_assert_eq(res.base.seed_bits, 4);
    rsv_oracle_kv03_v2_result_free(&res);
    /* The v1 reader keeps open check 29 (KV03.md §9.1 note). */
    rsv_oracle_kv03_result v1;
    cr_assert_eq(rsv_oracle_kv03_decode(f, n, NULL, RSV_ORACLE_KV03_SCAN, &v1),
                 RSV_ERR_UNSUPPORTED_SELECTORS);
    cr_assert_eq(v1.step, 29);
    rsv_oracle_kv03_result_free(&v1);
    free(f);
}

/* The §12.5 corruption table, both columns. `where` picks the edited byte:
 * section s of the file, byte `at` of it; the edit is XOR `flip` or, when
 * flip = 0, the value `set`. Both CRCs are recomputed after the change. */
typedef struct corruption {
    const char *name;
    unsigned section;
    size_t at;
    uint8_t flip, set;
    /* open + scan */
    rsv_status scan_st;
    rsv_oracle_phase scan_phase;
    unsigned scan_step;
    uint64_t scan_record, scan_bit;
    /* cursor walk (RSV_OK: accepted) */
    rsv_status walk_st;
    rsv_oracle_phase walk_phase;
    unsigned walk_step;
    uint64_t walk_record, walk_bit;
} corruption;

#define SCAN RSV_ORACLE_PHASE_SCAN
#define DICT RSV_ORACLE_PHASE_DICTIONARY
static const corruption ROWS[] = {
    /* data bit 56 = bit 0 (MSB) of section-0 byte 7 */
    {"data bit 56 flipped", 0, 7, 0x80, 0, RSV_ERR_SORT_TRANSITION, SCAN, 3, 2, 57,
     RSV_ERR_SORT_TRANSITION, SCAN, 3, 2, 57},
    /* data bit 62 = bit 6 of byte 7: mask 0x80 >> 6 */
    {"data bit 62 flipped", 0, 7, 0x02, 0, RSV_ERR_PREFIX_CROSSES_CODE, SCAN, 3, 3, 66,
     RSV_ERR_PREFIX_CROSSES_CODE, SCAN, 3, 3, 66},
    {"seeds byte 20 -> 30", 7, 0, 0, 0x30, RSV_ERR_SEED_RANGE, SCAN, 3, 3, 61, RSV_ERR_SEED_RANGE,
     SCAN, 3, 3, 61},
    {"seeds byte 20 -> 10", 7, 0, 0, 0x10, RSV_ERR_UNUSED_SELECTOR, SCAN, RSV_ORACLE_STEP_3A, 0, 0,
     RSV_OK, RSV_ORACLE_PHASE_NONE, 0, 0, 0},
    {"dictionary byte 58 -> 68", 5, 0, 0, 0x68, RSV_ERR_DICTIONARY_ORDER, DICT, 4, 0, 0,
     RSV_ERR_DICTIONARY_ORDER, DICT, 4, 0, 0},
    /* offsets [0, 1, 1, 5]: e_2 is the third u64 of section 6 */
    {"offsets [0, 1, 1, 5]", 6, 16, 0, 0x01, RSV_ERR_DICTIONARY_SHAPE, DICT, 2, 0, 0,
     RSV_ERR_DICTIONARY_SHAPE, DICT, 2, 0, 0},
};

static void check_row(const uint8_t *f, size_t n, rsv_oracle_kv03_mode mode, const corruption *c,
                      rsv_status st, rsv_oracle_phase ph, unsigned step, uint64_t rec, uint64_t bit)
{
    rsv_oracle_kv03_v2_result res;
    rsv_status got = rsv_oracle_kv03_decode_v2(f, n, NULL, mode, &res);
    const char *m = mode == RSV_ORACLE_KV03_SCAN ? "scan" : "walk";
    cr_assert_eq(got, st, "%s (%s): status %d want %d", c->name, m, got, st);
    cr_assert_eq(res.base.phase, ph, "%s (%s): phase %d want %d", c->name, m, res.base.phase, ph);
    cr_assert_eq(res.base.step, step, "%s (%s): step %u want %u", c->name, m, res.base.step, step);
    if (st != RSV_OK && ph == SCAN && step == 3) {
        cr_assert_eq(res.base.record, rec, "%s (%s): record %llu", c->name, m,
                     (unsigned long long)res.base.record);
        cr_assert_eq(res.base.bitpos, bit, "%s (%s): bit %llu", c->name, m,
                     (unsigned long long)res.base.bitpos);
    }
    rsv_oracle_kv03_v2_result_free(&res);
}

Test(oracle_v2_spec, corruptions_12_5_both_columns)
{
    size_t n;
    uint8_t *orig = dump("12.5", &n);
    size_t rows = sizeof ROWS / sizeof ROWS[0];
    cr_assert_eq(rows, 6);
    for (size_t k = 0; k < rows; k++) {
        const corruption *c = &ROWS[k];
        uint8_t *f = malloc(n);
        memcpy(f, orig, n);
        size_t at = rsv_ov2_section(f, c->section) + c->at;
        if (c->flip)
            f[at] ^= c->flip;
        else
            f[at] = c->set;
        rsv_ov2_fix_crcs(f, n);
        check_row(f, n, RSV_ORACLE_KV03_SCAN, c, c->scan_st, c->scan_phase, c->scan_step,
                  c->scan_record, c->scan_bit);
        check_row(f, n, RSV_ORACLE_KV03_WALK, c, c->walk_st, c->walk_phase, c->walk_step,
                  c->walk_record, c->walk_bit);
        if (c->walk_st == RSV_OK) { /* "accepted: records 3-5 under `10`" */
            rsv_oracle_crecord r[6];
            recs_12_5(r);
            for (size_t i = 3; i < 6; i++)
                r[i].code = rsv_ov2_code("10");
            decode_expect(f, n, RSV_ORACLE_KV03_WALK, r, 6);
        }
        free(f);
    }
    free(orig);
}

/* ---- §12.5 merges -------------------------------------------------------- */

static uint8_t *encode(const rsv_oracle_crecord *r, size_t n, size_t *len)
{
    uint8_t *out = NULL;
    cr_assert_eq(rsv_oracle_kv03_encode_v2(r, n, &POL_12_5, &out, len, NULL), RSV_OK);
    return out;
}

static void merge2(const uint8_t *a, size_t na, const uint8_t *b, size_t nb, int drop,
                   rsv_oracle_merge_result *res)
{
    rsv_oracle_bytes in[2] = {{a, na}, {b, nb}};
    cr_assert_eq(rsv_oracle_kv03_merge_v2(in, 2, drop, res), RSV_OK, "merge status %d input %zu",
                 res->status, res->input);
}

Test(oracle_v2_spec, merges_12_5)
{
    size_t n;
    uint8_t *want = dump("12.5", &n);
    rsv_oracle_crecord r[6];
    recs_12_5(r);
    rsv_oracle_crecord a[3] = {r[0], r[1], r[3]}, b[3] = {r[2], r[4], r[5]};
    size_t na, nb;
    uint8_t *fa = encode(a, 3, &na), *fb = encode(b, 3, &nb);
    cr_assert_eq(na, 369); /* the sizes §12.5 states */
    cr_assert_eq(nb, 361);

    rsv_oracle_merge_result m;
    merge2(fa, na, fb, nb, 0, &m);
    assert_bytes(m.out, m.out_len, want, n);
    rsv_oracle_merge_result_free(&m);

    /* Drop-tombstones: records 0, 2, 3 and 5. */
    merge2(fa, na, fb, nb, 1, &m);
    rsv_oracle_crecord kept[4] = {r[0], r[2], r[3], r[5]};
    decode_expect(m.out, m.out_len, RSV_ORACLE_KV03_SCAN, kept, 4);
    size_t nk;
    uint8_t *fk = encode(kept, 4, &nk);
    assert_bytes(m.out, m.out_len, fk, nk);
    free(fk);
    rsv_oracle_merge_result_free(&m);

    /* This file merged with a newer file holding only `10` "" -> tombstone,
     * dropping tombstones: code `10` leaves, m = 2, dictionary `0`, `11`. */
    rsv_oracle_crecord t[1] = {rsv_ov2_rec("10", "", NULL)};
    size_t nt;
    uint8_t *ft = encode(t, 1, &nt);
    merge2(want, n, ft, nt, 1, &m);
    rsv_oracle_kv03_v2_result res;
    cr_assert_eq(rsv_oracle_kv03_decode_v2(m.out, m.out_len, NULL, RSV_ORACLE_KV03_SCAN, &res),
                 RSV_OK);
    cr_assert_eq(res.dict.m, 2);
    cr_assert(rsv_ov2_code_eq(res.dict.codes[0], rsv_ov2_code("0")));
    cr_assert(rsv_ov2_code_eq(res.dict.codes[1], rsv_ov2_code("11")));
    rsv_oracle_kv03_v2_result_free(&res);
    rsv_oracle_crecord left[3] = {r[0], r[3], r[5]};
    decode_expect(m.out, m.out_len, RSV_ORACLE_KV03_SCAN, left, 3);
    rsv_oracle_merge_result_free(&m);
    free(ft);
    free(fa);
    free(fb);
    free(want);
}

/* ---- §12.6 ---------------------------------------------------------------- */

static uint8_t *stream_12_6(size_t *n)
{
    uint8_t *s = hex_after("12.6", "E = 126 bits", n);
    cr_assert_eq(*n, 16);
    return s;
}

Test(oracle_v2_spec, stream_12_6_both_ways)
{
    size_t n;
    uint8_t *want = stream_12_6(&n);
    rsv_oracle_crecord r[6];
    recs_12_5(r);
    uint8_t *out = NULL;
    uint64_t E = 0;
    cr_assert_eq(rsv_oracle_stream_encode_v2(r, 6, &out, &E, NULL), RSV_OK);
    cr_assert_eq(E, 126);
    assert_bytes(out, (size_t)((E + 7) / 8), want, n);
    free(out);
    rsv_oracle_code set[3] = {rsv_ov2_code("0"), rsv_ov2_code("10"), rsv_ov2_code("11")};
    rsv_oracle_stream_v2_result res;
    cr_assert_eq(rsv_oracle_stream_decode_v2(rsv_view_make(want, 0, 126), set, 3, &res), RSV_OK);
    cr_assert_eq(res.base.records.count, 6);
    cr_assert_eq(res.base.bitpos, 126);
    for (size_t i = 0; i < 6; i++) {
        cr_assert(rsv_oracle_record_equal(&res.base.records.items[i], &r[i].rec));
        cr_assert(rsv_ov2_code_eq(set[res.code_index[i]], r[i].code), "record %zu", i);
    }
    rsv_oracle_stream_v2_result_free(&res);
    free(want);
}

static void stream_fail(const uint8_t *s, const char *const *codes, size_t ncodes,
                        rsv_status want, uint64_t record, uint64_t bit)
{
    rsv_oracle_code set[8];
    for (size_t j = 0; j < ncodes; j++)
        set[j] = rsv_ov2_code(codes[j]);
    rsv_oracle_stream_v2_result res;
    rsv_status st = rsv_oracle_stream_decode_v2(rsv_view_make(s, 0, 126), set, ncodes, &res);
    cr_assert_eq(st, want, "status %d want %d", st, want);
    cr_assert_eq(res.base.record, record, "record %llu", (unsigned long long)res.base.record);
    cr_assert_eq(res.base.bitpos, bit, "bit %llu", (unsigned long long)res.base.bitpos);
    cr_assert_eq(res.base.records.count, record); /* records before the failure */
    rsv_oracle_stream_v2_result_free(&res);
}

Test(oracle_v2_spec, stream_12_6_failures)
{
    size_t n;
    uint8_t *s = stream_12_6(&n);
    /* {0, 10}: record 3 takes 1 bit after P = `1` -> UNKNOWN_SELECTOR at 61. */
    const char *const s1[] = {"0", "10"};
    stream_fail(s, s1, 2, RSV_ERR_UNKNOWN_SELECTOR, 3, 61);
    /* {0, 100, 11}: record 2 takes `1`, `0`, the key's first bit -> at 54. */
    const char *const s2[] = {"0", "100", "11"};
    stream_fail(s, s2, 3, RSV_ERR_UNKNOWN_SELECTOR, 2, 54);
    /* {0, 10, 11, 011}: refused before reading. */
    const char *const s3[] = {"0", "10", "11", "011"};
    stream_fail(s, s3, 4, RSV_ERR_SELECTOR_PREFIX, 0, 0);
    /* bit 50 flipped: record 2's backspace `011` = 2 > 1 -> SORT_BACKSPACE at 51.
     * Bit 50 is bit 2 of byte 6 (mask 0x80 >> 2). */
    s[6] ^= 0x20;
    const char *const s4[] = {"0", "10", "11"};
    stream_fail(s, s4, 3, RSV_ERR_SORT_BACKSPACE, 2, 51);
    free(s);
}

/* The parser itself: missing headings and anchors fail, not crash. */
Test(oracle_v2_spec, spec_doc_misses_are_errors)
{
    uint8_t *b = (uint8_t *)"x";
    size_t n = 7;
    cr_assert_eq(rsv_spec_hexdump("99.9 no such heading", &b, &n), -1);
    cr_assert_null(b);
    cr_assert_eq(n, 0);
    cr_assert_eq(rsv_spec_hexdump("12.1", &b, &n), -1); /* §12.1 has no indented dump */
    cr_assert_eq(rsv_spec_hex_after("12.6", "no such anchor text", &b, &n), -1);
    /* §6.2's `00 10` is a bit string, not a hex run (fewer than 4 bytes). */
    cr_assert_eq(rsv_spec_hex_after("6.2", "seeds", &b, &n), -1);
}
