/* KV03 v2 reader statuses on crafted inputs (KV03.md §3.3 step 2, §6.3,
 * §9.2): each v2 status (and each v1 status with a new v2 cause) from a
 * resealed patch of the §12.5 file or a hand-built file (kv03_build.h),
 * with the status, record and data-stream bit computed by hand in the
 * comments. Both open + scan and a cursor walk are checked. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reservoir/kv03.h"

#include "../codec/src/kv03_frame_parse.h" /* rsv__kv03_parse_fast: the fast path's coverage */
#include "kv03_build.h"
#include "kv03_diff.h"
#include "kv03_v2_file.h"
#include "spec_doc.h"
#include "testutil.h"

#define NONE UINT64_MAX

typedef struct expect {
    rsv_status scan;        /* open + scan */
    uint64_t record, bit;   /* walk position for scan and cursor (NONE: not a walk error) */
    rsv_status cursor;      /* cursor walk to the end */
} expect;

static void check(const char *what, const uint8_t *b, size_t n, expect x)
{
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(b, n, NULL, &f), RSV_OK, "%s: open", what);
    rsv_kv03_diag d;
    rsv_status st = rsv_kv03_scan(&f, &d);
    cr_assert_eq(st, x.scan, "%s: scan gave %s", what, rsv_status_name(st));
    if (x.record != NONE) {
        cr_assert_eq(d.record, x.record, "%s: scan record %llu", what, (unsigned long long)d.record);
        cr_assert_eq(d.bit, x.bit, "%s: scan bit %llu", what, (unsigned long long)d.bit);
    }
    rsv_kv03_cursor c;
    rsv_kv03_entry e;
    int more = 1;
    st = rsv_kv03_cursor_init(&c, &f);
    while (st == RSV_OK && more) st = rsv_kv03_cursor_next(&c, &e, &more);
    cr_assert_eq(st, x.cursor, "%s: cursor gave %s", what, rsv_status_name(st));
    if (st) {
        d = rsv_kv03_cursor_diag(&c);
        cr_assert_eq(d.record, x.record == NONE ? 0 : x.record, "%s: cursor record", what);
        cr_assert_eq(d.bit, x.record == NONE ? 0 : x.bit, "%s: cursor bit %llu", what, (unsigned long long)d.bit);
    }
    rsv_kv03_cursor_free(&c);
}

/* check() on the file rsv_kv03b_build makes of s. */
static void check_built(const char *what, const rsv_kv03b_spec *s, expect x)
{
    uint8_t *b;
    size_t n;
    cr_assert_eq(rsv_kv03b_build(s, &b, &n), 0, "%s: build", what);
    check(what, b, n, x);
    free(b);
}

/* Data-stream bit `bit` of a §12.5 file. */
static void set_bit(uint8_t *b, uint64_t bit, int on) { rsv_set_bit(b + V2_DATA, bit, (unsigned)on); }

/* ---- §6.3 dictionary checks (before record 0: cursor at record 0, bit 0) */

Test(kv03_v2_crafted, dictionary_endpoints)
{
    size_t n;
    uint8_t *b = spec_file(&n);
    b[V2_OFFS + 24] = 4; /* [0, 1, 3, 4]: e_m != dictionary bits 5 */
    rsv_kv03d_reseal(b, n);
    check("e_m = 4", b, n, (expect){RSV_ERR_SECTION_ENDPOINTS, NONE, 0, RSV_ERR_SECTION_ENDPOINTS});
    b[V2_OFFS + 24] = 5;
    b[V2_OFFS] = 1; /* [1, 1, 3, 5]: step 1 (e_0) before step 2 (e_1 <= e_0) */
    rsv_kv03d_reseal(b, n);
    check("e_0 = 1", b, n, (expect){RSV_ERR_SECTION_ENDPOINTS, NONE, 0, RSV_ERR_SECTION_ENDPOINTS});
    free(b);
}

Test(kv03_v2_crafted, dictionary_order_prefix_and_equal)
{
    size_t n;
    uint8_t *b = spec_file(&n);
    b[V2_DICT] = 0x38; /* 00111: `0`, `01`, `11`: D_0 is a prefix of D_1 */
    rsv_kv03d_reseal(b, n);
    check("0 01 11", b, n, (expect){RSV_ERR_DICTIONARY_ORDER, NONE, 0, RSV_ERR_DICTIONARY_ORDER});
    b[V2_DICT] = 0x50; /* 01010: `0`, `10`, `10`: equal codes */
    rsv_kv03d_reseal(b, n);
    check("0 10 10", b, n, (expect){RSV_ERR_DICTIONARY_ORDER, NONE, 0, RSV_ERR_DICTIONARY_ORDER});
    free(b);
}

/* Scan step 2 runs the §6.3 dictionary checks before the block offsets
 * (KV03.md §9.2): a file whose dictionary is out of order (`0 01 11`, as
 * above) and whose EF high part is also broken (section 2's first byte
 * cleared, so block_offset(0) is no longer 0) scans to DICTIONARY_ORDER,
 * not to the EF's error; the oracle agrees (engine: status, record, bit).
 * A scan that skipped the dictionary's failure would report the EF's. */
Test(kv03_v2_crafted, dictionary_order_before_the_block_offsets)
{
    size_t n;
    uint8_t *b = spec_file(&n);
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(b, n, NULL, &f), RSV_OK);
    size_t high = (size_t)(96 + f.sec_off[2]);
    cr_assert(f.sec_len[2] > 0 && b[high] != 0);
    b[high] = 0;
    rsv_kv03d_reseal(b, n);
    cr_assert_eq(rsv_kv03_open(b, n, NULL, &f), RSV_OK);
    rsv_status ef_only = rsv_kv03_scan(&f, NULL);
    cr_assert(ef_only != RSV_OK && ef_only != RSV_ERR_DICTIONARY_ORDER, "the EF patch alone: %s",
              rsv_status_name(ef_only));
    b[V2_DICT] = 0x38; /* 00111: `0`, `01`, `11` */
    rsv_kv03d_reseal(b, n);
    check("0 01 11 and a broken EF", b, n, (expect){RSV_ERR_DICTIONARY_ORDER, NONE, 0, RSV_ERR_DICTIONARY_ORDER});
    rsv_kv03d_report rep;
    rsv_kv03d_report_init(&rep);
    cr_assert(rsv_kv03d_file(b, n, NULL, NULL, 0, &rep), "codec and oracle differ: %s", rep.msg);
    free(b);
}

/* The file the writer makes of two records, tombstones with key "a", of
 * codes D_0 (n0 bits) and D_1 (n1 bits), in that order. */
static void two_code_file(const uint8_t *d0, uint64_t n0, const uint8_t *d1, uint64_t n1, uint8_t **b, size_t *n)
{
    rsv_kv03_policy pol = rsv_kv03_policy_default();
    rsv_kv03_writer w;
    cr_assert_eq(rsv_kv03_writer_init(&w, &pol, NULL, 0), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_add_coded(&w, d0, n0, "a", 1, rsv_value_tombstone()), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_add_coded(&w, d1, n1, "a", 1, rsv_value_tombstone()), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_finish(&w, b, n), RSV_OK);
    rsv_kv03_writer_free(&w);
}

/* §6.3 step 4 with codes longer than 64 bits (the check compares them in
 * 64-bit pieces): D_0 = 0^100, D_1 = 0^50 1 0^59 1 0^9 (120 bits; first
 * difference at bit 50, inside both, 0 in D_0: in order), written by the
 * writer. Clearing D_1's bit 50 makes D_0 a proper prefix of D_1 (no first
 * difference inside both, n = 100): RSV_ERR_DICTIONARY_ORDER, although the
 * codes still differ at D_1's bit 110, beyond n. */
Test(kv03_v2_crafted, dictionary_order_prefix_beyond_64_bits)
{
    static const uint8_t d0[13] = {0}, d1[15] = {0, 0, 0, 0, 0, 0, 0x20, 0, 0, 0, 0, 0, 0, 0x02, 0};
    uint8_t *b;
    size_t n;
    two_code_file(d0, 100, d1, 120, &b, &n);
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(b, n, NULL, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_code_count(&f), 2);
    cr_assert_eq(f.dict_bits, 220);
    cr_assert_eq(rsv_kv03_dictionary_check(&f), RSV_OK);
    size_t at = (size_t)(f.dict - b) + (100 + 50) / 8; /* D_1 starts at dictionary bit 100 */
    cr_assert_eq(b[at], 0x02, "dictionary byte 18 holds D_1's bit 50 (bit 150, MSB-first)");
    b[at] = 0;
    rsv_kv03d_reseal(b, n);
    cr_assert_eq(rsv_kv03_open(b, n, NULL, &f), RSV_OK);
    rsv_status st = rsv_kv03_dictionary_check(&f);
    cr_assert_eq(st, RSV_ERR_DICTIONARY_ORDER, "dictionary_check gave %s", rsv_status_name(st));
    check("0^100, 0^110 1 0^9", b, n, (expect){RSV_ERR_DICTIONARY_ORDER, NONE, 0, RSV_ERR_DICTIONARY_ORDER});
    free(b);
}

/* §6.3 step 4 where the first difference sits at or beside a 64-bit piece
 * boundary of the check's compare: D_0 = 0^L 0 1^6 and D_1 = 0^L 1 1^6
 * (L + 7 bits each), L = 63, 64, 65, 127, 128. The first difference is bit
 * L, inside both, 0 in D_0: in order, and the file (one tombstone "a" per
 * code, written by the writer) scans clean. With D_0's bit L set and D_1's
 * cleared (resealed) the order is reversed: RSV_ERR_DICTIONARY_ORDER, as
 * dictionary_check, scan and cursor. A compare that stepped over bit L
 * (the pieces advanced by 65: kv03_dict_c.const.e741068b, seed-151 sample)
 * would see the codes equal after bit L and call the in-order pair a
 * prefix. */
Test(kv03_v2_crafted, dictionary_order_first_difference_at_a_64_bit_boundary)
{
    static const uint64_t Ls[] = {63, 64, 65, 127, 128};
    for (size_t t = 0; t < sizeof Ls / sizeof Ls[0]; t++) {
        uint64_t L = Ls[t], nb = L + 7;
        uint8_t d0[24] = {0}, d1[24] = {0};
        for (uint64_t k = L + 1; k < nb; k++) {
            rsv_set_bit(d0, k, 1);
            rsv_set_bit(d1, k, 1);
        }
        rsv_set_bit(d1, L, 1);
        uint8_t *b;
        size_t n;
        two_code_file(d0, nb, d1, nb, &b, &n);
        rsv_kv03_file f;
        cr_assert_eq(rsv_kv03_open(b, n, NULL, &f), RSV_OK);
        cr_assert_eq(rsv_kv03_code_count(&f), 2);
        cr_assert_eq(f.dict_bits, 2 * nb);
        rsv_status st = rsv_kv03_dictionary_check(&f);
        cr_assert_eq(st, RSV_OK, "L = %llu: dictionary_check gave %s", (unsigned long long)L, rsv_status_name(st));
        char what[64];
        snprintf(what, sizeof what, "0^%llu 0 1^6, 0^%llu 1 1^6", (unsigned long long)L, (unsigned long long)L);
        check(what, b, n, (expect){RSV_OK, NONE, 0, RSV_OK});
        rsv_kv03d_report rep;
        rsv_kv03d_report_init(&rep);
        cr_assert(rsv_kv03d_file(b, n, NULL, NULL, 0, &rep), "L = %llu: codec and oracle differ: %s",
                  (unsigned long long)L, rep.msg);
        uint8_t *dict = b + (f.dict - b);
        rsv_set_bit(dict, L, 1);      /* D_0's bit L */
        rsv_set_bit(dict, nb + L, 0); /* D_1's bit L */
        rsv_kv03d_reseal(b, n);
        cr_assert_eq(rsv_kv03_open(b, n, NULL, &f), RSV_OK);
        st = rsv_kv03_dictionary_check(&f);
        cr_assert_eq(st, RSV_ERR_DICTIONARY_ORDER, "L = %llu reversed: dictionary_check gave %s",
                     (unsigned long long)L, rsv_status_name(st));
        snprintf(what, sizeof what, "0^%llu 1 1^6, 0^%llu 0 1^6", (unsigned long long)L, (unsigned long long)L);
        check(what, b, n, (expect){RSV_ERR_DICTIONARY_ORDER, NONE, 0, RSV_ERR_DICTIONARY_ORDER});
        rsv_kv03d_report_init(&rep);
        cr_assert(rsv_kv03d_file(b, n, NULL, NULL, 0, &rep), "L = %llu: codec and oracle differ: %s",
                  (unsigned long long)L, rep.msg);
        free(b);
    }
}

/* §12.5's records with code 2 replaced by `11` ‖ 0^z (j = 2), or code 0 by
 * `0` ‖ 0^z (j = 0); the list stays sorted and prefix-free, and the data
 * stream is unchanged (block 1's control R = 2 now precedes the longer code
 * 2). */
static void long_code(unsigned j, unsigned z, uint8_t **b, size_t *n)
{
    static char code[600];
    memset(code, '0', sizeof code);
    code[0] = j == 2 ? '1' : '0';
    code[1] = j == 2 ? '1' : '0';
    code[(j == 2 ? 2 : 1) + z] = 0;
    const char *codes[3] = {j == 0 ? code : "0", "10", j == 2 ? code : "11"};
    static const uint64_t offs[2] = {0, 61}, seeds[2] = {0, 2};
    rsv_kv03b_spec s = {{RSV_BACKSPACE_EG, 0, 3, 3}, 6,
                        "010 0001001 01100001 1 010 01111000  1 0001001 01100010 0  000010010 10 1 11"
                        "011 0001001 01100001 1 011 01111001 01111010  011 011 10 0  1 0001001 01100001 11",
                        offs, 18, 0, 0, codes, 3, seeds};
    cr_assert_eq(rsv_kv03b_build(&s, b, n), 0);
}

/* The §6.3 length check (the spec's MAY, taken) covers every code, the first
 * included: code 2 or code 0 of 513 bits is TOO_LARGE. */
Test(kv03_v2_crafted, codes_over_512_bits_too_large)
{
    uint8_t *b;
    size_t n;
    long_code(2, 511, &b, &n); /* 513 bits: the spec's MAY, taken */
    check("513-bit code 2", b, n, (expect){RSV_ERR_TOO_LARGE, NONE, 0, RSV_ERR_TOO_LARGE});
    free(b);
    long_code(0, 512, &b, &n); /* code 0 = 0^513 */
    check("513-bit code 0", b, n, (expect){RSV_ERR_TOO_LARGE, NONE, 0, RSV_ERR_TOO_LARGE});
    rsv_kv03d_report rep;
    rsv_kv03d_report_init(&rep);
    cr_assert(rsv_kv03d_file(b, n, NULL, NULL, 0, &rep), "code 0: codec and oracle differ: %s", rep.msg);
    free(b);
    long_code(2, 510, &b, &n); /* 512 bits pass §6.3; block 1: R = 2 < 512 after EG0 `011` (61..63) */
    check("512-bit code", b, n, (expect){RSV_ERR_RETAINED_PRECEDES_CODE, 3, 64, RSV_ERR_RETAINED_PRECEDES_CODE});
    free(b);
}

/* ---- §3.3 step 2: block starts ------------------------------------------- */

Test(kv03_v2_crafted, retained_precedes_code_at_seeded_block)
{
    size_t n;
    uint8_t *b = spec_file(&n);
    set_bit(b, 63, 0); /* record 3 control `011` → `010`: R = 1 < |`11`| after bit 63 */
    rsv_kv03d_reseal(b, n);
    check("R = 1", b, n, (expect){RSV_ERR_RETAINED_PRECEDES_CODE, 3, 64, RSV_ERR_RETAINED_PRECEDES_CODE});
    free(b);
}

Test(kv03_v2_crafted, seed_to_a_smaller_code_unsorted)
{
    size_t n;
    uint8_t *b = spec_file(&n);
    b[V2_SEEDS] = 0x00; /* block 1 takes `0` (index 0 < record 2's 1) */
    set_bit(b, 63, 0);  /* R = 1 = |`0`|: no prefix crossing; record 3 keeps its 38 bits */
    rsv_kv03d_reseal(b, n);
    check("seed 0", b, n, (expect){RSV_ERR_UNSORTED, 3, 99, RSV_ERR_UNSORTED});
    /* with R = 2 the same seed crosses the code first (after EG0, bit 64) */
    set_bit(b, 63, 1);
    rsv_kv03d_reseal(b, n);
    check("seed 0, R = 2", b, n, (expect){RSV_ERR_PREFIX_CROSSES_CODE, 3, 64, RSV_ERR_PREFIX_CROSSES_CODE});
    free(b);
}

Test(kv03_v2_crafted, missing_prefix_at_record_0)
{
    /* codes {0, 1}; record 0: R = 2 > c_0 = 1 (EG0 `011`), S = 7 `0001000`,
     * 7 literal bits, tombstone: 18 bits; frames accept, the cursor's step 6
     * fails after the record. */
    static const char *codes[2] = {"0", "1"};
    static const uint64_t offs[1] = {0}, seeds[1] = {0};
    rsv_kv03b_spec s = {{RSV_BACKSPACE_EG, 0, 15, 15}, 1, "011 0001000 1100001 0", offs, 9, 1, 1, codes, 2, seeds};
    check_built("R = 2 at record 0", &s, (expect){RSV_ERR_MISSING_PREFIX, 0, 18, RSV_ERR_MISSING_PREFIX});
}

/* ---- §3.3 step 2: transitions ------------------------------------------- */

Test(kv03_v2_crafted, sort_transition_right_after_the_control)
{
    /* codes {00, 10}: record 0 `00` "a"⊥ = `011` `0001001` `01100001` `0`
     * (19 bits, cont 10); record 1 backspace 9 = EG0 `0001010` → R = 1,
     * P = `0`: no code but `00` has it → fails after the control, bit 26. */
    static const char *codes[2] = {"00", "10"};
    static const uint64_t offs[1] = {0}, seeds[1] = {0};
    rsv_kv03b_spec s = {{RSV_BACKSPACE_EG, 0, 15, 15}, 2, "011 0001001 01100001 0  0001010 1 0", offs, 10, 0, 0,
                        codes, 2, seeds};
    check_built("P = 0", &s, (expect){RSV_ERR_SORT_TRANSITION, 1, 26, RSV_ERR_SORT_TRANSITION});
}

Test(kv03_v2_crafted, unknown_selector_after_the_last_tail_bit)
{
    /* §12.5 with dictionary `0`, `10`, `110` (same byte 58, 6 bits, e_3 = 6)
     * and data bit 57 set: record 2's tail reads 56 `1`, 57 `1`, 58 `1`
     * (P = `111`, no code) → after bit 58, position 59. */
    size_t n;
    uint8_t *b = spec_file(&n);
    b[V2_DIR_DICT_BITS] = 6;
    b[V2_OFFS + 24] = 6;
    rsv_kv03d_reseal(b, n);
    /* unflipped, record 2 reads `10`; block 1 takes `110`: R = 2 < 3 */
    check("dictionary 0 10 110", b, n,
          (expect){RSV_ERR_RETAINED_PRECEDES_CODE, 3, 64, RSV_ERR_RETAINED_PRECEDES_CODE});
    set_bit(b, 57, 1);
    rsv_kv03d_reseal(b, n);
    check("tail 111", b, n, (expect){RSV_ERR_UNKNOWN_SELECTOR, 2, 59, RSV_ERR_UNKNOWN_SELECTOR});
    free(b);
}

Test(kv03_v2_crafted, transition_to_a_smaller_code_unsorted)
{
    /* §12.5 records 0-3, then record 4 as a transition `11` → `10`:
     * backspace 9 (EG0 `0001010`, R = 1, P = `1`), tail `0`, "b"⊥ at S = 8:
     * 7 + 1 + 7 + 8 + 1 = 24 bits from 99 → UNSORTED after it, bit 123. */
    static const char *codes[3] = {"0", "10", "11"};
    static const uint64_t offs[2] = {0, 61}, seeds[2] = {0, 2};
    rsv_kv03b_spec s = {{RSV_BACKSPACE_EG, 0, 3, 3}, 5,
                        "010 0001001 01100001 1 010 01111000  1 0001001 01100010 0  000010010 10 1 11"
                        "011 0001001 01100001 1 011 01111001 01111010  0001010 0 0001001 01100010 0",
                        offs, 10, 0, 0, codes, 3, seeds};
    check_built("11 -> 10", &s, (expect){RSV_ERR_UNSORTED, 4, 123, RSV_ERR_UNSORTED});
}

Test(kv03_v2_crafted, transition_back_to_code_0_sharing_the_retained_prefix)
{
    /* codes {0000, 0001}: section 5 is one byte 01 (7 zero gap bytes follow).
     * Record 0 (seed 1, C = `0001`): R = EG0 4 `00101`, S = 8 `0001001`,
     * "a" `01100001`, tombstone `0`: 21 bits, cont 12. Record 1: backspace 9
     * (EG0 `0001010`) → R = 3 < 4, P = `000`, which code 0 has too (its 4
     * bits are at least R long), so a tail bit is read: `0` → C = `0000`;
     * S = 8 `0001001`, "b" `01100010`, `0`: 24 bits → the codes decide step
     * 7, UNSORTED after the record, bit 45. With tail `1`, P = `0001` = Cp →
     * SORT_TRANSITION after the tail bit, 21 + 7 + 1 = 29. (Code 0 is the
     * first entry of the prefix range: a range search that misjudges whether
     * D_0 is long enough to hold P finds only Cp and fails at bit 28.) */
    static const char *codes[2] = {"0000", "0001"};
    static const uint64_t offs[1] = {0}, seeds[1] = {1};
    const char *data[2] = {"00101 0001001 01100001 0  0001010 0 0001001 01100010 0",
                           "00101 0001001 01100001 0  0001010 1 0001001 01100010 0"};
    const expect want[2] = {{RSV_ERR_UNSORTED, 1, 45, RSV_ERR_UNSORTED},
                            {RSV_ERR_SORT_TRANSITION, 1, 29, RSV_ERR_SORT_TRANSITION}};
    for (int k = 0; k < 2; k++) {
        rsv_kv03b_spec s = {{RSV_BACKSPACE_EG, 0, 15, 15}, 2, data[k], offs, 12, 0, 0, codes, 2, seeds};
        uint8_t *b;
        size_t n;
        cr_assert_eq(rsv_kv03b_build(&s, &b, &n), 0);
        check(data[k], b, n, want[k]);
        free(b);
    }
}

Test(kv03_v2_crafted, transition_skipping_a_code_unused_selector)
{
    /* §12.5 with data bit 57 set: record 2's tail `11` names code 2 directly;
     * records 2-5 are under `11` (keys "", "a", "b", "ba" increase), so the
     * walk passes and scan step 3a finds `10` unused. */
    size_t n;
    uint8_t *b = spec_file(&n);
    set_bit(b, 57, 1);
    rsv_kv03d_reseal(b, n);
    check("tail 11", b, n, (expect){RSV_ERR_UNUSED_SELECTOR, NONE, 0, RSV_OK});
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(b, n, NULL, &f), RSV_OK);
    rsv_kv03_frames fw;
    rsv_kv03_frame fr;
    int more;
    cr_assert_eq(rsv_kv03_frames_init(&fw, &f), RSV_OK);
    const uint64_t want[6] = {0, 0, 2, 2, 2, 2};
    for (int i = 0; i < 6; i++) {
        cr_assert_eq(rsv_kv03_frames_next(&fw, &fr, &more), RSV_OK);
        cr_assert_eq(fr.code, want[i], "record %d", i);
    }
    free(b);
}

Test(kv03_v2_crafted, tail_truncated_at_the_extent)
{
    /* codes {0, 10, 11}; record 0 `0` ""⊥ = `010 1 0`; record 1 backspace 1
     * (`010`, R = 0 < 1): the tail's first bit is at the extent 8 →
     * TRUNCATED_FIELD at 8 (position unchanged); one more bit `1`: at 9. */
    static const char *codes[3] = {"0", "10", "11"};
    static const uint64_t offs[1] = {0}, seeds[1] = {0};
    const char *data[2] = {"010 1 0 010", "010 1 0 010 1"};
    for (int k = 0; k < 2; k++) {
        rsv_kv03b_spec s = {{RSV_BACKSPACE_EG, 0, 15, 15}, 2, data[k], offs, 2, 0, 0, codes, 3, seeds};
        uint8_t *b;
        size_t n;
        cr_assert_eq(rsv_kv03b_build(&s, &b, &n), 0);
        check(data[k], b, n, (expect){RSV_ERR_TRUNCATED_FIELD, 1, 8 + (uint64_t)k, RSV_ERR_TRUNCATED_FIELD});
        free(b);
    }
}

/* codes `0`, `1 0^100`, `1 0^99 1` (101 bits each, longer than any cache);
 * record 0 `0` ""⊥ = `01010`; record 1 a transition R = 0 (`010`) with the
 * whole 101-bit tail of code 2 from bit 8, ""⊥ (`1 0`): 111 bits. */
static void long_tail(int flip50, uint8_t **b, size_t *n)
{
    static char c1[103], c2[103], data[200];
    c1[0] = c2[0] = '1';
    memset(c1 + 1, '0', 100);
    memset(c2 + 1, '0', 99);
    c2[100] = '1';
    c1[101] = c2[101] = 0;
    strcpy(data, "01010 010 ");
    strcat(data, c2);
    if (flip50) data[10 + 50] = '1';
    strcat(data, " 1 0");
    static const char *codes[3] = {"0", c1, c2};
    static const uint64_t offs[1] = {0}, seeds[1] = {0};
    rsv_kv03b_spec s = {{RSV_BACKSPACE_EG, 0, 15, 15}, 2, data, offs, 101, 0, 0, codes, 3, seeds};
    cr_assert_eq(rsv_kv03b_build(&s, b, n), 0);
}

Test(kv03_v2_crafted, tail_longer_than_the_cache)
{
    uint8_t *b;
    size_t n;
    long_tail(0, &b, &n); /* walk passes (code 1 unused: scan step 3a) */
    check("101-bit tail", b, n, (expect){RSV_ERR_UNUSED_SELECTOR, NONE, 0, RSV_OK});
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(b, n, NULL, &f), RSV_OK);
    rsv_kv03_frames fw;
    rsv_kv03_frame fr;
    int more;
    cr_assert_eq(rsv_kv03_frames_init(&fw, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_frames_next(&fw, &fr, &more), RSV_OK);
    cr_assert_eq(rsv_kv03_frames_next(&fw, &fr, &more), RSV_OK);
    cr_assert_eq(fr.code, 2);
    cr_assert_eq(fr.retained, 0);
    cr_assert_eq(fr.end, 111);
    free(b);
    long_tail(1, &b, &n); /* tail bit 50 (data bit 58) set: P = `1 0^49 1` → after bit 58 */
    check("tail bit 50", b, n, (expect){RSV_ERR_UNKNOWN_SELECTOR, 1, 59, RSV_ERR_UNKNOWN_SELECTOR});
    free(b);
}

/* ---- scan step 6: padding of sections 5 and 7 ---------------------------- */

Test(kv03_v2_crafted, dictionary_and_seed_padding)
{
    size_t n;
    uint8_t *b = spec_file(&n);
    b[V2_SEEDS] = 0x21; /* seed bits 4: bit 7 is padding */
    rsv_kv03d_reseal(b, n);
    check("seeds 21", b, n, (expect){RSV_ERR_NONZERO_PADDING, NONE, 0, RSV_OK});
    b[V2_SEEDS] = 0x20;
    b[V2_DICT] = 0x59; /* dictionary bits 5: bit 7 is padding */
    rsv_kv03d_reseal(b, n);
    check("dictionary 59", b, n, (expect){RSV_ERR_NONZERO_PADDING, NONE, 0, RSV_OK});
    free(b);
}

/* ---- the fast frame parse decodes transitions itself --------------------- */

Test(kv03_v2_crafted, fast_path_takes_the_12_5_transition)
{
    /* rsv__kv03_parse_fast declines (returns 0) only for tails longer than
     * its cache, refills near the extent and errors: §12.5 record 2 (tail at
     * bits 56-57, 70 bits before the extent) must be decoded by it. */
    size_t n;
    rsv_kv03_file f;
    uint8_t *b = spec_open(&n, &f);
    rsv_kv03_frames fw;
    rsv_kv03_frame fr;
    cr_assert_eq(rsv_kv03_frames_init(&fw, &f), RSV_OK);
    for (int i = 0; i < 3; i++) {
        int fast = rsv__kv03_parse_fast(&fw, &fr);
        if (i == 2) cr_assert(fast, "record 2 (a transition) left the fast path");
        if (!fast) cr_assert_eq(rsv__kv03_parse_generic(&fw, &fr), RSV_OK);
    }
    cr_assert_eq(fr.code, 1);
    cr_assert_eq(fr.end, 61);
    /* the generic parse alone gives the same frames */
    cr_assert_eq(rsv_kv03_frames_init(&fw, &f), RSV_OK);
    for (int i = 0; i < 6; i++) {
        cr_assert_eq(rsv__kv03_parse_generic(&fw, &fr), RSV_OK, "record %d", i);
        cr_assert_eq(fr.start, V2_RECS[i].start);
        cr_assert_eq(fr.end, V2_RECS[i].end);
        cr_assert_eq(fr.code, V2_RECS[i].code);
        cr_assert_eq(fr.retained, V2_RECS[i].R);
        cr_assert_eq(fr.local, V2_RECS[i].local);
    }
    cr_assert_eq(rsv__kv03_terminal(&fw), RSV_OK);
    free(b);
}

Test(kv03_v2_crafted, seek_past_the_only_record)
{
    /* N = 1, codes {`0`, `1`} (m = 2, w = 1), seed 0: record 0 under `0`,
     * key "a", tombstone = EG0(R = 1) `010`, EG0(S = 8) `0001001`, "a"
     * `01100001`, `0` (19 bits); terminal 1 + 8 = 9. No record uses `1`:
     * scan step 3a fails (UNUSED_SELECTOR), open and the walk accept it.
     * Seeking code 1 (kv03.h: the next call returns the first record whose
     * code is >= 1, or *more = 0): record 0's code is 0, so the walker ends;
     * seeking code 0 hands over record 0. */
    static const char *codes[2] = {"0", "1"};
    static const uint64_t offs[1] = {0}, seeds[1] = {0};
    rsv_kv03b_spec s = {{RSV_BACKSPACE_EG, 0, 15, 15}, 1, "010 0001001 01100001 0", offs, 9, 0, 0, codes, 2, seeds};
    uint8_t *b;
    size_t n;
    cr_assert_eq(rsv_kv03b_build(&s, &b, &n), 0);
    check("one record, code 1 unused", b, n, (expect){RSV_ERR_UNUSED_SELECTOR, NONE, 0, RSV_OK});
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(b, n, NULL, &f), RSV_OK);
    cr_assert(f.N == 1 && f.m == 2);
    rsv_kv03_frames fw;
    rsv_kv03_frame fr;
    int more = -1;
    cr_assert_eq(rsv_kv03_frames_init(&fw, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_frames_seek_code(&fw, 1), RSV_OK);
    cr_assert_eq(rsv_kv03_frames_next(&fw, &fr, &more), RSV_OK);
    cr_assert_eq(more, 0, "frames: a record after seeking code 1");
    cr_assert_eq(rsv_kv03_frames_seek_code(&fw, 0), RSV_OK);
    cr_assert_eq(rsv_kv03_frames_next(&fw, &fr, &more), RSV_OK);
    cr_assert(more == 1 && fr.code == 0 && fr.index == 0);
    rsv_kv03_cursor c;
    rsv_kv03_entry e;
    cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_cursor_seek_code(&c, 1), RSV_OK);
    more = -1;
    cr_assert_eq(rsv_kv03_cursor_next(&c, &e, &more), RSV_OK);
    cr_assert_eq(more, 0, "cursor: a record after seeking code 1");
    cr_assert_eq(rsv_kv03_cursor_seek_code(&c, 0), RSV_OK);
    cr_assert_eq(rsv_kv03_cursor_next(&c, &e, &more), RSV_OK);
    cr_assert(more == 1 && e.key_len == 1 && e.key[0] == 'a' && e.value_span.kind == RSV_VALUE_TOMBSTONE);
    rsv_kv03_cursor_free(&c);
    rsv_kv03_close(&f);
    free(b);
}
