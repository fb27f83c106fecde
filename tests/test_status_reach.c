/* Every status, reached on purpose (issue 9 part 3), v1-reachable rows.
 *
 * File rows (status_reach.h): each crafts one file from the §12.3 file with
 * the surgeon and must fail EXACTLY at the named §9.1 check / §9.2 step (the
 * oracle reports the step number that fired, and the row asserts it), with
 * the spec's status, record and bit on the oracle, the codec and every
 * codec read level, and is a checked-in seed of corpus/kv03_parse/
 * regressions/ (replayed by ctest's fuzz_replay_kv03_parse). Each row's
 * comment names the check and why no earlier check fires.
 * Single-bit flips with resealed CRCs (test_kv03_diff_corrupt.c) never reach
 * open 18, 23 or 26: those need a resized body or a moved section.
 *
 * Rows that need format revision v2 (dictionary, seeds, transitions) are
 * in tests/v2/test_status_reach_v2.c.
 *
 * The writer, merge and record-stream tests at the end reach the argument,
 * state and poisoning statuses (§10, §11) with codec-vs-oracle comparisons
 * where the oracle defines the same operation.
 *
 * Seeds: RSV_STATUS_REACH_WRITE_SEEDS=1 rewrites them (then commit). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "kv03_diff.h"
#include "kv03_surgeon.h"
#include "kv03_vectors.h"
#include "kv03_vectors_v2.h"
#include "reservoir/merge.h"
#include "reservoir/stream.h"
#include "status_reach.h"
#include "testutil.h"

/* §12.1: the four records of the §12.3 data stream (97 bits). */
#define R0 "010 0001001 01100001 1 010 01111000"       /* "a"->"x", bits 0-29 */
#define R1 "1 0001001 01100010 0"                      /* "ab"->tombstone, 30-46 */
#define R2 "0001011 011 10 11"                         /* "b"->"", 47-60 */
#define R3 "1 0001001 01100001 1 011 01111001 01111010" /* "ba"->"yz", 61-96 */

static void data(rsv_surgeon *s, const char *bits, uint64_t n, uint64_t terminal)
{
    cr_assert_eq(rsv_sg_set_data(s, bits, n, terminal, NULL, 0), RSV_OK);
}

static void replace(rsv_surgeon *s, const uint8_t *b, size_t n)
{
    rsv_sg_free(s);
    rsv_sg_init(s, b, n);
}

/* ---- §9.1 open ------------------------------------------------------------ */

/* 1: 95 bytes, nothing else can be read */
static void o01(rsv_surgeon *s) { rsv_sg_resize(s, 95); }
/* 2: index magic; 2: other magic (check 1 passes: 360 bytes) */
static void o02a(rsv_surgeon *s) { memcpy(s->b, "EVRT.IX\0", 8); }
static void o02b(rsv_surgeon *s) { s->b[0] ^= 1; }
/* 3: version 2 / header length 97 (before the CRC, so no reseal needed) */
static void o03a(rsv_surgeon *s) { rsv_sg_set(s, RSV_SG_VERSION, 2, 2); }
static void o03b(rsv_surgeon *s) { rsv_sg_set(s, RSV_SG_HLEN, 2, 97); }
/* 4: header CRC field wrong; 1-3 see a valid magic/version */
static void o04(rsv_surgeon *s) { s->b[RSV_SG_HDR_CRC] ^= 0x80; }
/* 5-10: one header field out of range, header resealed so 4 passes; every
 * earlier field keeps its §12.3 value */
static void o05(rsv_surgeon *s) { rsv_sg_set(s, RSV_SG_FLAGS, 4, 4); rsv_sg_reseal(s); }
static void o06(rsv_surgeon *s) { rsv_sg_set(s, RSV_SG_UNIT, 1, 0); rsv_sg_reseal(s); }
static void o07(rsv_surgeon *s) { rsv_sg_set(s, RSV_SG_CSUM, 1, 2); rsv_sg_reseal(s); }
static void o08(rsv_surgeon *s) { rsv_sg_set(s, RSV_SG_HRES, 1, 1); rsv_sg_reseal(s); }
static void o09a(rsv_surgeon *s) { rsv_sg_set(s, RSV_SG_BSCODE, 1, 2); rsv_sg_reseal(s); }
static void o09b(rsv_surgeon *s) { rsv_sg_set(s, RSV_SG_BSPARAM, 8, 64); rsv_sg_reseal(s); }
static void o09c(rsv_surgeon *s)
{
    rsv_sg_set(s, RSV_SG_BSCODE, 1, 1); /* Golomb with m = 0 */
    rsv_sg_set(s, RSV_SG_BSPARAM, 8, 0);
    rsv_sg_reseal(s);
}
static void o10a(rsv_surgeon *s) { rsv_sg_set(s, RSV_SG_W, 4, 0); rsv_sg_reseal(s); }
static void o10b(rsv_surgeon *s) { rsv_sg_set(s, RSV_SG_K, 8, 4); rsv_sg_reseal(s); }
/* 11: the file is valid; the caller expects W = 16 (row flag) */
static void o11(rsv_surgeon *s) { (void)s; }
/* 12-14: flag bit 0 / policy width / cw without flag bit 1 (9-11 pass) */
static void o12(rsv_surgeon *s) { rsv_sg_set(s, RSV_SG_FLAGS, 4, 1); rsv_sg_reseal(s); }
static void o13(rsv_surgeon *s) { rsv_sg_set(s, RSV_SG_PWIDTH, 8, 1); rsv_sg_reseal(s); }
static void o14(rsv_surgeon *s) { rsv_sg_set(s, RSV_SG_CW, 8, 5); rsv_sg_reseal(s); }
/* 15: cw present, 529: floor(2112 / 529) = 3 < N = 4 (14 passes: flag set) */
static void o15(rsv_surgeon *s)
{
    rsv_sg_set(s, RSV_SG_FLAGS, 4, 2);
    rsv_sg_set(s, RSV_SG_CW, 8, 529);
    rsv_sg_reseal(s);
}
/* 16: body offset 97 / extent not a multiple of 8 / total 361 */
static void o16a(rsv_surgeon *s) { rsv_sg_set(s, RSV_SG_BODY_OFF, 8, 97); rsv_sg_reseal(s); }
static void o16b(rsv_surgeon *s) { rsv_sg_set(s, RSV_SG_EXTENT, 8, 2113); rsv_sg_reseal(s); }
static void o16c(rsv_surgeon *s) { rsv_sg_set(s, RSV_SG_TOTAL, 8, 361); rsv_sg_reseal(s); }
/* 17: one trailing byte; the header (and its CRC) is untouched */
static void o17(rsv_surgeon *s) { rsv_sg_resize(s, 361); }
/* 18: a 184-byte body whose header is consistent (16: extent 1472, total
 * 280; 17: 280 bytes): only the directory length check can fail */
static void o18(rsv_surgeon *s) { rsv_sg_set_body(s, 184); rsv_sg_reseal(s); }
/* 19-21: directory magic / revision / count / reserved byte 49 */
static void o19(rsv_surgeon *s) { rsv_sg_set(s, RSV_SG_D_MAGIC, 1, 'k'); rsv_sg_reseal(s); }
static void o20a(rsv_surgeon *s) { rsv_sg_set(s, RSV_SG_D_REV, 2, 2); rsv_sg_reseal(s); }
static void o20b(rsv_surgeon *s) { rsv_sg_set(s, RSV_SG_D_COUNT, 2, 7); rsv_sg_reseal(s); }
static void o21(rsv_surgeon *s) { rsv_sg_set(s, RSV_SG_DIR(49), 1, 1); rsv_sg_reseal(s); }
/* 22: section 1 at 209, not align8(205) = 208 / section 7 one byte past the body */
static void o22a(rsv_surgeon *s) { rsv_sg_set(s, RSV_SG_SEC_OFF(1), 8, 209); rsv_sg_reseal(s); }
static void o22b(rsv_surgeon *s) { rsv_sg_set(s, RSV_SG_SEC_LEN(7), 8, 1); rsv_sg_reseal(s); }
/* 22: a body of exactly the 192-byte directory, header consistent (16:
 * extent 1536, total 288): 18 passes at its bound (B = 192 is not below it),
 * 19-21 see the directory unchanged, and section 0 (13 bytes) starts at 192,
 * the body's end */
static void o22c(rsv_surgeon *s) { rsv_sg_set_body(s, 192); rsv_sg_reseal(s); }
/* 23: 8 zero bytes appended to the body, header extent/total updated (16, 17
 * pass); every section still starts where 22 wants it, inside the body */
static void o23(rsv_surgeon *s) { rsv_sg_set_body(s, 272); rsv_sg_reseal(s); }
/* 24: data extent 105 needs 14 section-0 bytes, 13 stored (22-23 pass) */
static void o24(rsv_surgeon *s) { rsv_sg_set(s, RSV_SG_D_EXTENT, 8, 105); rsv_sg_reseal(s); }
/* 25: L = 4, canonical L for U = 97, n = 2 is 5 */
static void o25(rsv_surgeon *s) { rsv_sg_set(s, RSV_SG_D_L, 1, 4); rsv_sg_reseal(s); }
/* 25: section 4 (sparse samples) 4 bytes longer, so its length is not a
 * multiple of 8; sections 5-7 move up to the next multiple of 8 with their
 * bytes and the body grows to match (16, 17, 22-24 pass, and L and the
 * lengths of sections 1-3 are canonical as in the §12.3 file) */
static void o25b(rsv_surgeon *s)
{
    uint64_t body = s->n - 96, end4 = rsv_sg_get(s, RSV_SG_SEC_OFF(4), 8) + rsv_sg_get(s, RSV_SG_SEC_LEN(4), 8);
    uint64_t shift = ((end4 + 4 + 7) & ~(uint64_t)7) - rsv_sg_get(s, RSV_SG_SEC_OFF(5), 8);
    uint64_t from = rsv_sg_get(s, RSV_SG_SEC_OFF(5), 8);
    rsv_sg_set_body(s, (size_t)(body + shift));
    memmove(s->b + 96 + from + shift, s->b + 96 + from, (size_t)(body - from));
    memset(s->b + 96 + from, 0, (size_t)shift);
    rsv_sg_set(s, RSV_SG_SEC_LEN(4), 8, rsv_sg_get(s, RSV_SG_SEC_LEN(4), 8) + 4);
    for (int i = 5; i < 8; i++) rsv_sg_set(s, RSV_SG_SEC_OFF(i), 8, rsv_sg_get(s, RSV_SG_SEC_OFF(i), 8) + shift);
    rsv_sg_reseal(s);
}
/* 26: section 6 of 12 bytes: section 7 still starts at align8(260) = 264
 * and ends the body (22, 23 pass; 24, 25 do not look at section 6) */
static void o26a(rsv_surgeon *s) { rsv_sg_set(s, RSV_SG_SEC_LEN(6), 8, 12); rsv_sg_reseal(s); }
/* 26: section 6 empty: section 7 moves to 248 and the body ends there */
static void o26b(rsv_surgeon *s)
{
    rsv_sg_set(s, RSV_SG_SEC_LEN(6), 8, 0);
    rsv_sg_set(s, RSV_SG_SEC_OFF(7), 8, 248);
    rsv_sg_set_body(s, 248);
    rsv_sg_reseal(s);
}
/* 27: the empty file with terminal key length 1 (24-26 do not read it) */
static void o27(rsv_surgeon *s)
{
    replace(s, FILE_EMPTY, 320);
    rsv_sg_set(s, RSV_SG_D_TERMINAL, 8, 1);
    rsv_sg_reseal(s);
}
/* 28: U = 96 ≠ extent − N·cw = 97; canonical L for (96, 2) is still 5 and
 * the EF section lengths do not change, so 25 passes */
static void o28a(rsv_surgeon *s) { rsv_sg_set(s, RSV_SG_D_U, 8, 96); rsv_sg_reseal(s); }
/* 28: the empty file (N = 0) with m = 1: section 6 of 16 bytes, section 7
 * and the body end moved by 8 (22-27 pass: 26 sees a multiple of 8) */
static void o28b(rsv_surgeon *s)
{
    replace(s, FILE_EMPTY, 320);
    rsv_sg_set(s, RSV_SG_SEC_LEN(6), 8, 16);
    rsv_sg_set(s, RSV_SG_SEC_OFF(7), 8, 232);
    rsv_sg_set_body(s, 232);
    rsv_sg_reseal(s);
}
/* 28: the §12.5 file (m = 3, w = 2, nb = 2: seed bits 4) with seed bits 3:
 * section 7 still needs ⌈3/8⌉ = 1 byte (24 passes); v1 and v2 both check
 * 28 before anything reads the dictionary (v1's 29 comes after) */
static void o28c(rsv_surgeon *s)
{
    replace(s, FILE_12_5, FILE_12_5_SIZE);
    rsv_sg_set(s, RSV_SG_D_SEEDS, 8, 3);
    rsv_sg_reseal(s);
}

/* 28: the empty file with U = 2^63 and L = 63: for n = nb + 1 = 1 entry the
 * canonical L is bitlen(2^63) - 1 = 63 (§4), so check 25 passes with
 * section 1 grown to 8 bytes (⌈63/64⌉ words; sections 2-7 and the body end
 * moved by 8); 26-27 pass (m = 0, extent and terminal 0); 28 fails on
 * U ≠ extent − N·cw = 0. The largest L check 25 accepts. */
static void o28d(rsv_surgeon *s)
{
    replace(s, FILE_EMPTY, 320);
    rsv_sg_set_body(s, 232);
    memmove(s->b + 96 + 200, s->b + 96 + 192, 32); /* sections 2, 3 and 6 */
    memset(s->b + 96 + 192, 0, 8);                  /* section 1: low bits of r_0 = 0 */
    rsv_sg_set(s, RSV_SG_SEC_LEN(1), 8, 8);
    rsv_sg_set(s, RSV_SG_SEC_OFF(2), 8, 200);
    rsv_sg_set(s, RSV_SG_SEC_OFF(3), 8, 208);
    for (unsigned i = 4; i <= 6; i++) rsv_sg_set(s, RSV_SG_SEC_OFF(i), 8, 224);
    rsv_sg_set(s, RSV_SG_SEC_OFF(7), 8, 232);
    rsv_sg_set(s, RSV_SG_D_U, 8, UINT64_C(1) << 63);
    rsv_sg_set(s, RSV_SG_D_L, 1, 63);
    rsv_sg_reseal(s);
}

/* 3a with m = 2, the least m at which the step applies: §12.3 (one code,
 * C0 = `0`, no record with R < c, so its records parse unchanged as code 0
 * of a multi-code file) with sections 5-7 rewritten as the dictionary
 * {`0`, `1`}: section 5 `01` (1 byte), section 6 [0, 1, 2] (24 bytes),
 * section 7 one seed bit `0` (1 byte, the body's end); dictionary bits 2,
 * seed bits 1. Open passes (22-28), steps 1-2 pass, the walk reads four
 * code-0 records: code 1 is never used. */
static void s3a2(rsv_surgeon *s)
{
    size_t o5 = (size_t)rsv_sg_get(s, RSV_SG_SEC_OFF(5), 8);
    size_t body = o5 + 8 + 24 + 1;
    rsv_sg_set_body(s, body);
    memset(s->b + 96 + o5, 0, body - o5);
    s->b[96 + o5] = 0x40;
    rsv_sg_set(s, 96 + o5 + 8 + 8, 8, 1);
    rsv_sg_set(s, 96 + o5 + 8 + 16, 8, 2);
    rsv_sg_set(s, RSV_SG_SEC_LEN(5), 8, 1);
    rsv_sg_set(s, RSV_SG_SEC_OFF(6), 8, o5 + 8);
    rsv_sg_set(s, RSV_SG_SEC_LEN(6), 8, 24);
    rsv_sg_set(s, RSV_SG_SEC_OFF(7), 8, o5 + 32);
    rsv_sg_set(s, RSV_SG_SEC_LEN(7), 8, 1);
    rsv_sg_set(s, RSV_SG_D_DICT, 8, 2);
    rsv_sg_set(s, RSV_SG_D_SEEDS, 8, 1);
    rsv_sg_reseal(s);
}

/* ---- §9.2 scan, steps other than the walk ---------------------------------- */

/* 1: a gap byte after section 0 (file 96 + 205) changed, CRCs kept: open
 * never reads it, so the body CRC is the first check to see it */
static void s01(rsv_surgeon *s) { s->b[96 + 205] = 1; }
/* 2: section 6 = [0, 2] with dictionary bits 1 (resealed) */
static void s02a(rsv_surgeon *s) { rsv_sg_set(s, 96 + 248 + 8, 8, 2); rsv_sg_reseal(s); }
/* 2: low field 0 = 1: select(0) = 1 ≠ 0 (a valid select, v ≤ U) */
static void s02b(rsv_surgeon *s) { s->b[96 + 208] = 0x21; rsv_sg_reseal(s); }
/* 2: high word 0: the dense group has no set bit, select(0) is corrupt */
static void s02c(rsv_surgeon *s) { s->b[96 + 216] = 0; rsv_sg_reseal(s); }
/* 4: "a"→⊥, "b"→⊥ with flags 0: both widths are 1, so cw must be present
 * (the walk passes: records and terminal 9 are right) */
static void s04(rsv_surgeon *s)
{
    data(s, "010 0001001 01100001 0  011 011 10 0", 2, 9);
    rsv_sg_reseal(s);
}
/* 5: the same gap byte as s01, resealed */
static void s05(rsv_surgeon *s) { s->b[96 + 205] = 1; rsv_sg_reseal(s); }
/* 6: data byte 12 holds bit 96 (the last data bit, 0) and 7 padding bits */
static void s06(rsv_surgeon *s) { s->b[96 + 192 + 12] = 0x01; rsv_sg_reseal(s); }
/* 7: high word 0x91: bit 7 lies beyond H = 5, select never reads it */
static void s07(rsv_surgeon *s) { s->b[96 + 216] = 0x91; rsv_sg_reseal(s); }
/* 7: section 4 (sparse list) 8 zero bytes longer than §4's layout gives (no
 * group of §12.3 is sparse, so no select reads it): open check 25 only asks
 * for a multiple of 8, the later sections and the body end move by 8 (22,
 * 23 pass), and steps 1-6 see nothing wrong; step 7's canonical EF is 8
 * bytes shorter than sections 1-4 */
static void s07b(rsv_surgeon *s)
{
    size_t old = s->n, ins = 96 + (size_t)(rsv_sg_get(s, RSV_SG_SEC_OFF(4), 8) + rsv_sg_get(s, RSV_SG_SEC_LEN(4), 8));
    rsv_sg_set_body(s, old - 96 + 8);
    memmove(s->b + ins + 8, s->b + ins, old - ins);
    memset(s->b + ins, 0, 8);
    rsv_sg_set(s, RSV_SG_SEC_LEN(4), 8, rsv_sg_get(s, RSV_SG_SEC_LEN(4), 8) + 8);
    for (unsigned i = 5; i < 8; i++) rsv_sg_set(s, RSV_SG_SEC_OFF(i), 8, rsv_sg_get(s, RSV_SG_SEC_OFF(i), 8) + 8);
    rsv_sg_reseal(s);
}

/* ---- §9.2 step 3: the §3.3 walk (file re-laid out by rsv_sg_set_data) ------- */

/* 36: data bit 0 flipped: record 0's control EG0 reads `1` = 0 < c = 1 */
static void w36(rsv_surgeon *s) { rsv_sg_flip_data_bit(s, 0); rsv_sg_reseal(s); }
/* 33: record 1's backspace EG0(10) = `0001011` > cont_prev = 9 */
static void w33(rsv_surgeon *s) { data(s, R0 " 0001011 0001001 01100010 0", 2, 17); rsv_sg_reseal(s); }
/* 38: record 1's backspace EG0(9) = `0001010`: R = 0 < c = 1, m = 1 */
static void w38(rsv_surgeon *s) { data(s, R0 " 0001010 0001001 01100010 0", 2, 17); rsv_sg_reseal(s); }
/* 34: record 0's key S = 7 (`0001000`), local 0: 7 mod 8 ≠ 0 */
static void w34(rsv_surgeon *s) { data(s, "010 0001000 0110000 1 010 01111000", 1, 8); rsv_sg_reseal(s); }
/* 35: record 0's value claims 3 bytes (`1 00100`), 16 bits follow */
static void w35(rsv_surgeon *s) { data(s, "010 0001001 01100001 1 00100 01111001 01111010", 1, 9); rsv_sg_reseal(s); }
/* 39: cw present = 12, record 1 ("b"→⊥) has width 1; U = 39 − 2·12 */
static void w39(rsv_surgeon *s)
{
    rsv_sg_set(s, RSV_SG_FLAGS, 4, 2);
    rsv_sg_set(s, RSV_SG_CW, 8, 12);
    data(s, R0 " 011 011 10 0", 2, 9);
    rsv_sg_reseal(s);
}
/* 37: record 0's control R = 2 > c = 1 (local 1, S = 7 keeps the key
 * byte-aligned, step 3 passes); step 6 compares R with c for record 0 */
static void w37(rsv_surgeon *s) { data(s, "011 0001000 1100001 1 010 01111000", 1, 9); rsv_sg_reseal(s); }
/* 32: record 1 repeats "a" (backspace 0, S = 0) */
static void w32(rsv_surgeon *s) { data(s, R0 " 1 1 0", 2, 9); rsv_sg_reseal(s); }
/* 40: W = 2 (§12.4 data: record 2 a block start with EG0(7)), EF built from
 * block offsets {0, 48} instead of {0, 47}; scan step 2 only checks blocks
 * 0 and nb = 2 */
static void w40(rsv_surgeon *s)
{
    static const uint64_t blocks[2] = {0, 48};
    rsv_sg_set(s, RSV_SG_W, 4, 2);
    rsv_sg_set(s, RSV_SG_K, 8, 3);
    cr_assert_eq(rsv_sg_set_data(s, R0 " " R1 " 0001000 011 10 11 " R3, 4, 17, blocks, 2), RSV_OK);
    rsv_sg_reseal(s);
}
/* 41: directory terminal 18 (records parse, cont_prev = 17) */
static void w41(rsv_surgeon *s) { rsv_sg_set(s, RSV_SG_D_TERMINAL, 8, 18); rsv_sg_reseal(s); }
/* CODES.md errors propagate (§3.3), positions per CODES.md §6.3: */
/* 9: record 0 ends with its key: read(1) of the value at the extent */
static void w09(rsv_surgeon *s) { data(s, "010 0001001 01100001", 1, 9); rsv_sg_reseal(s); }
/* 10: record 0's literal of 8 bits has 4 left */
static void w10(rsv_surgeon *s) { data(s, "010 0001001 0110", 1, 9); rsv_sg_reseal(s); }
/* 11: the value length EG0 `00` runs into the extent */
static void w11(rsv_surgeon *s) { data(s, "010 0001001 01100001 1 00", 1, 9); rsv_sg_reseal(s); }
/* 12: record 0's control has 65 leading zeros (CODES.md §6.3: at p + 65) */
static void w12(rsv_surgeon *s) { data(s, "0^65 1 0^8", 1, 1); rsv_sg_reseal(s); }
/* A two-record file whose record 1 control is `bits` under backspace code
 * (kind, param): record 0 is §12.3's (a block start, always EG0). */
static void backspace_rows(rsv_surgeon *s, unsigned kind, uint64_t param, const char *bits)
{
    rsv_sg_set(s, RSV_SG_BSCODE, 1, kind);
    rsv_sg_set(s, RSV_SG_BSPARAM, 8, param);
    data(s, bits, 2, 9);
    rsv_sg_reseal(s);
}
/* 15: Golomb m = 7 backspace; record 1's quotient `0000` reaches the extent */
static void w15(rsv_surgeon *s) { backspace_rows(s, 1, 7, R0 " 0000"); }
/* 16: Golomb m = 7; quotient `1`, the 2-bit remainder has 1 bit */
static void w16(rsv_surgeon *s) { backspace_rows(s, 1, 7, R0 " 1 0"); }
/* 14: EG k = 63 backspace; record 1's remainder of 63 bits has 10 */
static void w14(rsv_surgeon *s) { backspace_rows(s, 0, 63, R0 " 1 0101010101"); }
/* 13: EG k = 63; quotient 2 (`001`): (2^2 − 1)·2^63 overflows */
static void w13(rsv_surgeon *s) { backspace_rows(s, 0, 63, R0 " 001 0^70"); }
/* 17: Golomb m = 2^63; quotient 2 (`001`): 2·2^63 overflows */
static void w17(rsv_surgeon *s) { backspace_rows(s, 1, UINT64_C(1) << 63, R0 " 001 0^70"); }
/* 18: Golomb m = 2^64 − 1; quotient 1 (`01`) then remainder ≥ 1 overflows */
static void w18(rsv_surgeon *s) { backspace_rows(s, 1, UINT64_MAX, R0 " 01 1^64 0^8"); }

#define OPEN RSV_ORACLE_PHASE_OPEN
#define SCAN RSV_ORACLE_PHASE_SCAN
#define ANY RSV_SR_ANY
#define E(x) RSV_ERR_##x

static const rsv_sr_row k_rows[] = {
    {"status_open01_truncated_header", OPEN, 1, E(TRUNCATED_HEADER), ANY, ANY, 0, o01},
    {"status_open02_wrong_kind", OPEN, 2, E(WRONG_KIND), ANY, ANY, 0, o02a},
    {"status_open02_bad_magic", OPEN, 2, E(BAD_MAGIC), ANY, ANY, 0, o02b},
    {"status_open03_version", OPEN, 3, E(BAD_VERSION), ANY, ANY, 0, o03a},
    {"status_open03_header_length", OPEN, 3, E(BAD_VERSION), ANY, ANY, 0, o03b},
    {"status_open04_header_crc", OPEN, 4, E(HEADER_CRC), ANY, ANY, 0, o04},
    {"status_open05_flags", OPEN, 5, E(BAD_FLAGS), ANY, ANY, 0, o05},
    {"status_open06_unit", OPEN, 6, E(BAD_UNIT), ANY, ANY, 0, o06},
    {"status_open07_checksum_kind", OPEN, 7, E(BAD_CHECKSUM_KIND), ANY, ANY, 0, o07},
    {"status_open08_reserved", OPEN, 8, E(RESERVED), ANY, ANY, 0, o08},
    {"status_open09_backspace_code", OPEN, 9, E(BAD_BACKSPACE), ANY, ANY, 0, o09a},
    {"status_open09_eg_order", OPEN, 9, E(BAD_BACKSPACE), ANY, ANY, 0, o09b},
    {"status_open09_golomb_zero", OPEN, 9, E(BAD_BACKSPACE), ANY, ANY, 0, o09c},
    {"status_open10_w_zero", OPEN, 10, E(BAD_POLICY), ANY, ANY, 0, o10a},
    {"status_open10_k_four", OPEN, 10, E(BAD_POLICY), ANY, ANY, 0, o10b},
    /* no seed: kv03_parse opens every file a second time with an expected
     * policy W + 1, so every seed passing checks 1-10 reaches check 11 */
    {NULL, OPEN, 11, E(POLICY_MISMATCH), ANY, ANY, 1, o11},
    {"status_open12_value_policy", OPEN, 12, E(UNSUPPORTED_VALUE_POLICY), ANY, ANY, 0, o12},
    {"status_open13_policy_width", OPEN, 13, E(POLICY_WIDTH), ANY, ANY, 0, o13},
    {"status_open14_common_width", OPEN, 14, E(COMMON_WIDTH), ANY, ANY, 0, o14},
    {"status_open15_value_slots", OPEN, 15, E(VALUE_SLOTS), ANY, ANY, 0, o15},
    {"status_open16_body_offset", OPEN, 16, E(BAD_EXTENT), ANY, ANY, 0, o16a},
    {"status_open16_extent_bits", OPEN, 16, E(BAD_EXTENT), ANY, ANY, 0, o16b},
    {"status_open16_total", OPEN, 16, E(BAD_EXTENT), ANY, ANY, 0, o16c},
    {"status_open17_file_size", OPEN, 17, E(FILE_SIZE), ANY, ANY, 0, o17},
    {"status_open18_directory_truncated", OPEN, 18, E(DIRECTORY_TRUNCATED), ANY, ANY, 0, o18},
    {"status_open19_directory_magic", OPEN, 19, E(BAD_DIRECTORY_MAGIC), ANY, ANY, 0, o19},
    {"status_open20_revision", OPEN, 20, E(BAD_DIRECTORY_REVISION), ANY, ANY, 0, o20a},
    {"status_open20_count", OPEN, 20, E(BAD_DIRECTORY_REVISION), ANY, ANY, 0, o20b},
    {"status_open21_directory_reserved", OPEN, 21, E(RESERVED), ANY, ANY, 0, o21},
    {"status_open22_misaligned", OPEN, 22, E(SECTION_RANGE), ANY, ANY, 0, o22a},
    {"status_open22_past_body", OPEN, 22, E(SECTION_RANGE), ANY, ANY, 0, o22b},
    {"status_open22_directory_only_body", OPEN, 22, E(SECTION_RANGE), ANY, ANY, 0, o22c},
    {"status_open23_trailing_sections", OPEN, 23, E(TRAILING_SECTIONS), ANY, ANY, 0, o23},
    {"status_open24_bit_section_extent", OPEN, 24, E(BIT_SECTION_EXTENT), ANY, ANY, 0, o24},
    {"status_open25_ef_shape", OPEN, 25, E(EF_SHAPE), ANY, ANY, 0, o25},
    {"status_open25_sparse_length", OPEN, 25, E(EF_SHAPE), ANY, ANY, 0, o25b},
    {"status_open26_dictionary_shape_12", OPEN, 26, E(DICTIONARY_SHAPE), ANY, ANY, 0, o26a},
    {"status_open26_dictionary_shape_0", OPEN, 26, E(DICTIONARY_SHAPE), ANY, ANY, 0, o26b},
    {"status_open27_metadata", OPEN, 27, E(METADATA), ANY, ANY, 0, o27},
    {"status_open28_universe", OPEN, 28, E(SECTION_SHAPE), ANY, ANY, 0, o28a},
    {"status_open28_empty_with_code", OPEN, 28, E(SECTION_SHAPE), ANY, ANY, 0, o28b},
    {"status_open28_seed_bits_m3", OPEN, 28, E(SECTION_SHAPE), ANY, ANY, 0, o28c},
    {"status_open28_universe_at_l_63", OPEN, 28, E(SECTION_SHAPE), ANY, ANY, 0, o28d},

    {"status_scan1_body_crc", SCAN, 1, E(BODY_CRC), ANY, ANY, 0, s01},
    {"status_scan2_dictionary_endpoints", SCAN, 2, E(SECTION_ENDPOINTS), ANY, ANY, 0, s02a},
    {"status_scan2_block_offset0", SCAN, 2, E(SECTION_ENDPOINTS), ANY, ANY, 0, s02b},
    {"status_scan2_ef_corrupt", SCAN, 2, E(EF_CORRUPT), ANY, ANY, 0, s02c},
    {"status_scan4_cw_noncanonical", SCAN, 4, E(COMMON_WIDTH_NONCANONICAL), ANY, ANY, 0, s04},
    {"status_scan5_nonzero_gap", SCAN, 5, E(NONZERO_GAP), ANY, ANY, 0, s05},
    {"status_scan6_nonzero_padding", SCAN, 6, E(NONZERO_PADDING), ANY, ANY, 0, s06},
    {"status_scan3a_unused_selector_m2", SCAN, 0, E(UNUSED_SELECTOR), ANY, ANY, 0, s3a2},
    {"status_scan7_ef_noncanonical", SCAN, 7, E(EF_NONCANONICAL), ANY, ANY, 0, s07},
    {"status_scan7_sparse_section_length", SCAN, 7, E(EF_NONCANONICAL), ANY, ANY, 0, s07b},

    {"status_walk_retained_precedes_code", SCAN, 3, E(RETAINED_PRECEDES_CODE), 0, 1, 0, w36},
    {"status_walk_backspace_exceeds_key", SCAN, 3, E(BACKSPACE_EXCEEDS_KEY), 1, 37, 0, w33},
    {"status_walk_sort_transition_m1", SCAN, 3, E(SORT_TRANSITION), 1, 37, 0, w38},
    {"status_walk_key_ends_inside_byte", SCAN, 3, E(KEY_ENDS_INSIDE_BYTE), 0, 17, 0, w34},
    {"status_walk_truncated_value", SCAN, 3, E(TRUNCATED_VALUE), 0, 24, 0, w35},
    {"status_walk_value_width", SCAN, 3, E(VALUE_WIDTH), 1, 39, 0, w39},
    {"status_walk_missing_prefix", SCAN, 3, E(MISSING_PREFIX), 0, 29, 0, w37},
    {"status_walk_unsorted", SCAN, 3, E(UNSORTED), 1, 33, 0, w32},
    {"status_walk_block_offset", SCAN, 3, E(BLOCK_OFFSET), 2, 47, 0, w40},
    {"status_walk_terminal_mismatch", SCAN, 3, E(TERMINAL_MISMATCH), 4, 97, 0, w41},
    {"status_walk_truncated_field", SCAN, 3, E(TRUNCATED_FIELD), 0, 18, 0, w09},
    {"status_walk_truncated_span", SCAN, 3, E(TRUNCATED_SPAN), 0, 10, 0, w10},
    {"status_walk_eg_truncated", SCAN, 3, E(EG_TRUNCATED), 0, ANY, 0, w11},
    {"status_walk_eg_overflow", SCAN, 3, E(EG_OVERFLOW), 0, 65, 0, w12},
    {"status_walk_eg_quotient_overflow", SCAN, 3, E(EG_QUOTIENT_OVERFLOW), 1, ANY, 0, w13},
    {"status_walk_eg_truncated_remainder", SCAN, 3, E(EG_TRUNCATED_REMAINDER), 1, ANY, 0, w14},
    {"status_walk_golomb_truncated", SCAN, 3, E(GOLOMB_TRUNCATED), 1, ANY, 0, w15},
    {"status_walk_golomb_truncated_remainder", SCAN, 3, E(GOLOMB_TRUNCATED_REMAINDER), 1, ANY, 0, w16},
    {"status_walk_golomb_quotient_overflow", SCAN, 3, E(GOLOMB_QUOTIENT_OVERFLOW), 1, ANY, 0, w17},
    {"status_walk_golomb_sum_overflow", SCAN, 3, E(GOLOMB_SUM_OVERFLOW), 1, ANY, 0, w18},
};

Test(status_reach, file_rows)
{
    size_t n = sizeof k_rows / sizeof k_rows[0], failed = 0;
    cr_assert_gt(n, 0, "the table ran zero rows");
    for (size_t i = 0; i < n; i++) {
        char msg[1024];
        if (!rsv_sr_run(&k_rows[i], FILE_12_3, 360, msg, sizeof msg)) {
            cr_log_error("row %zu (%s): %s", i, k_rows[i].seed ? k_rows[i].seed : "no seed", msg);
            failed++;
        }
    }
    cr_assert_eq(failed, 0, "%zu of %zu rows failed", failed, n);
}

/* The surgeon's re-layout is exact: the §12.1 data stream of the §12.3
 * records laid out again gives the §12.3 bytes (so a row that edits the data
 * stream changes nothing else). */
Test(status_reach, surgeon_relayout_is_exact)
{
    rsv_surgeon s;
    rsv_sg_init(&s, FILE_12_3, 360);
    memset(s.b + 96 + 192, 0, 248 - 192); /* sections 0-4 rebuilt (5-7 kept) */
    cr_assert_eq(rsv_sg_set_data(&s, R0 " " R1 " " R2 " " R3, 4, 17, NULL, 0), RSV_OK);
    rsv_sg_reseal(&s);
    cr_assert_eq(s.n, 360);
    cr_assert(memcmp(s.b, FILE_12_3, 360) == 0, "re-laid §12.3 differs");
    rsv_sg_free(&s);
}

/* ---- §11.1 writer: argument, policy, order, poisoning and state ------------ */

/* The oracle encoder's status for the same policy / code / records. */
static rsv_status oracle_encode_status(const rsv_kv03_policy *p, uint64_t code_bits, const rsv_record *r, size_t n,
                                       size_t *bad)
{
    rsv_oracle_record o[4];
    rsv_kv03d_to_oracle(r, n, o);
    rsv_oracle_kv03_policy op = rsv_kv03d_policy(p);
    static const uint8_t code[65] = {0};
    uint8_t *out = NULL;
    size_t len = 0;
    rsv_status st = rsv_oracle_kv03_encode(o, n, &op, code, code_bits, &out, &len, bad);
    free(out);
    return st;
}

Test(status_reach, writer_statuses)
{
    rsv_kv03_writer w;
    rsv_kv03_policy p = rsv_kv03_policy_default();
    static const uint8_t code[65] = {0};
    size_t bad = 0;
    /* §3.1: invalid B → BAD_BACKSPACE (checked first), invalid W → BAD_POLICY */
    rsv_kv03_policy bp = p;
    bp.param = 64;
    cr_assert_eq(rsv_kv03_writer_init(&w, &bp, NULL, 0), RSV_ERR_BAD_BACKSPACE);
    cr_assert_eq(oracle_encode_status(&bp, 1, RECS, 4, &bad), RSV_ERR_BAD_BACKSPACE);
    bp = p;
    bp.W = 0;
    cr_assert_eq(rsv_kv03_writer_init(&w, &bp, NULL, 0), RSV_ERR_BAD_POLICY);
    cr_assert_eq(oracle_encode_status(&bp, 1, RECS, 4, &bad), RSV_ERR_BAD_POLICY);
    /* §1.2 / §11.1 step 1: a 513-bit code may be rejected; both do */
    cr_assert_eq(rsv_kv03_writer_init(&w, &p, code, 513), RSV_ERR_TOO_LARGE);
    cr_assert_eq(oracle_encode_status(&p, 513, RECS, 4, &bad), RSV_ERR_TOO_LARGE);
    cr_assert_eq(rsv_kv03_writer_init(&w, NULL, NULL, 0), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_writer_init(NULL, &p, NULL, 0), RSV_ERR_INVALID_ARGUMENT);

    /* §11.1 step 3: "ab" after "b" → UNSORTED at record 1 (the oracle's
     * bad index too); then the writer is poisoned (§9.2 last paragraph) */
    const rsv_record swapped[2] = {RECS[2], RECS[1]};
    cr_assert_eq(oracle_encode_status(&p, 1, swapped, 2, &bad), RSV_ERR_UNSORTED);
    cr_assert_eq(bad, 1);
    cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_add(&w, swapped[0].key, swapped[0].key_len, swapped[0].value), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_add(&w, swapped[1].key, swapped[1].key_len, swapped[1].value), RSV_ERR_UNSORTED);
    cr_assert_eq(rsv_kv03_writer_diag(&w).record, 1);
    cr_assert_eq(rsv_kv03_writer_add(&w, "c", 1, rsv_value_tombstone()), RSV_ERR_POISONED);
    uint8_t *out = NULL;
    size_t n = 0;
    cr_assert_eq(rsv_kv03_writer_finish(&w, &out, &n), RSV_ERR_POISONED);
    rsv_kv03_writer_free(&w);

    /* a NULL key with a length fails and poisons */
    cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_add(&w, NULL, 1, rsv_value_tombstone()), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_writer_add(&w, "a", 1, rsv_value_tombstone()), RSV_ERR_POISONED);
    rsv_kv03_writer_free(&w);

    /* after finish: adds and finishes are STATE; the file is §12.3 */
    cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_set_flush_bytes(&w, 4096), RSV_ERR_STATE); /* no file sink */
    for (int i = 0; i < 4; i++) cr_assert_eq(rsv_kv03_writer_add(&w, RECS[i].key, RECS[i].key_len, RECS[i].value), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_finish(&w, &out, &n), RSV_OK);
    cr_assert(n == 360 && memcmp(out, FILE_12_3, 360) == 0);
    free(out);
    cr_assert_eq(rsv_kv03_writer_add(&w, "c", 1, rsv_value_tombstone()), RSV_ERR_STATE);
    cr_assert_eq(rsv_kv03_writer_finish(&w, &out, &n), RSV_ERR_STATE);
    rsv_kv03_writer_free(&w);
}

/* ---- §11.2 merge ------------------------------------------------------------- */

static uint8_t *crafted(void (*make)(rsv_surgeon *), size_t *n)
{
    rsv_surgeon s;
    rsv_sg_init(&s, FILE_12_3, 360);
    make(&s);
    *n = s.n;
    return s.b; /* owned by the caller */
}

/* codec vs oracle merge of two inputs (older a, newer b): both give want */
static void merge_pair(const uint8_t *a, size_t na, const uint8_t *b, size_t nb, rsv_status want, const char *what)
{
    const uint8_t *files[2] = {a, b};
    size_t sizes[2] = {na, nb};
    rsv_kv03d_report rep;
    rsv_kv03d_report_init(&rep);
    rsv_status st = RSV_OK;
    cr_assert(rsv_kv03d_merge(files, sizes, 2, 0, NULL, 0, &st, &rep), "%s: %s", what, rep.msg);
    cr_assert_eq(st, want, "%s: %s, want %s", what, rsv_status_name(st), rsv_status_name(want));
}

static uint8_t *encode_code(const uint8_t *code, uint64_t bits, size_t *n)
{
    rsv_kv03_policy p = rsv_kv03_policy_default();
    uint8_t *out = NULL;
    cr_assert_eq(rsv_kv03_encode(&p, code, bits, RECS, 4, &out, n), RSV_OK);
    return out;
}

Test(status_reach, merge_statuses)
{
    /* fewer than two inputs → INVALID_ARGUMENT (both sides) */
    {
        const uint8_t *files[1] = {FILE_12_3};
        size_t sizes[1] = {360};
        rsv_kv03d_report rep;
        rsv_kv03d_report_init(&rep);
        rsv_status st = RSV_OK;
        cr_assert(rsv_kv03d_merge(files, sizes, 1, 0, NULL, 0, &st, &rep), "%s", rep.msg);
        cr_assert_eq(st, RSV_ERR_INVALID_ARGUMENT);
    }
    /* policies differ (§12.3 vs its W = 2 variant) → MERGE_MISMATCH */
    uint8_t w2[360];
    make_w2k3(w2);
    merge_pair(FILE_12_3, 360, w2, 360, RSV_ERR_MERGE_MISMATCH, "policy W 15 vs 2");
    /* codes `0` and `01`: not prefix-free together → MERGE_MISMATCH: the
     * union of the dictionaries is not prefix-free (§11.2) */
    size_t n01;
    uint8_t *c01 = encode_code((const uint8_t *)"\x40", 2, &n01);
    merge_pair(FILE_12_3, 360, c01, n01, RSV_ERR_MERGE_MISMATCH, "codes 0 and 01");
    /* an input's open failure (one trailing byte) and walk failures: the
     * engine compares input, record and bit with that input's own walk */
    size_t n;
    uint8_t *f = crafted(o17, &n);
    merge_pair(FILE_12_3, 360, f, n, RSV_ERR_FILE_SIZE, "newer input one byte too long");
    free(f);
    f = crafted(w33, &n);
    merge_pair(f, n, FILE_12_3, 360, RSV_ERR_BACKSPACE_EXCEEDS_KEY, "older input's record 1 backspace");
    free(f);
    f = crafted(w32, &n);
    merge_pair(FILE_12_3, 360, f, n, RSV_ERR_UNSORTED, "newer input repeats a key");
    free(f);
    f = crafted(w37, &n);
    merge_pair(FILE_12_3, 360, f, n, RSV_ERR_MISSING_PREFIX, "newer input's record 0 R > c");
    free(f);

    /* state and poisoning (§9.2 last paragraph, §11.2 "Validation") */
    rsv_kv03_file a, b;
    cr_assert_eq(rsv_kv03_open(FILE_12_3, 360, NULL, &a), RSV_OK);
    cr_assert_eq(rsv_kv03_open(w2, 360, NULL, &b), RSV_OK);
    const rsv_kv03_file *in[2] = {&a, &a};
    rsv_merge m;
    uint8_t *out = NULL;
    size_t on = 0;
    int done = 0;
    cr_assert_eq(rsv_merge_init(&m, in, 2, 0), RSV_OK);
    cr_assert_eq(rsv_merge_finish(&m, &out, &on), RSV_ERR_STATE, "finish before the inputs are consumed");
    cr_assert_eq(rsv_merge_commit(&m), RSV_ERR_STATE, "commit of an in-memory merge");
    cr_assert_eq(rsv_merge_run(&m), RSV_OK);
    cr_assert_eq(rsv_merge_finish(&m, &out, &on), RSV_OK);
    cr_assert(on == 360 && memcmp(out, FILE_12_3, 360) == 0, "a file merged with itself is itself");
    free(out);
    cr_assert_eq(rsv_merge_step(&m, &done), RSV_ERR_STATE, "step after finish");
    cr_assert_eq(rsv_merge_finish(&m, &out, &on), RSV_ERR_STATE, "second finish");
    rsv_merge_free(&m);
    const rsv_kv03_file *mix[2] = {&a, &b};
    cr_assert_eq(rsv_merge_init(&m, mix, 2, 0), RSV_ERR_MERGE_MISMATCH);
    cr_assert_eq(rsv_merge_step(&m, &done), RSV_ERR_POISONED, "step after a failed init");
    cr_assert_eq(rsv_merge_finish(&m, &out, &on), RSV_ERR_POISONED);
    rsv_merge_free(&m);
    free(c01);
}

/* ---- §10 record stream reader -------------------------------------------------- */

typedef struct stream_row {
    const char *seed; /* corpus/stream_diff/regressions/<seed> */
    const char *bits; /* the stream (exactly these bits); code set {`0`} */
    rsv_status want;
    uint64_t record, bit;
} stream_row;

/* Record 0 "a"→⊥ is `1 0 1 0001001 01100001 0` (19 bits): selector
 * backspace 0, C0 `0`, key backspace 0, S = 8, "a", tombstone. */
#define S0 "1 0 1 0001001 01100001 0"
static const stream_row k_stream_rows[] = {
    /* step 1: record 0's selector backspace 1 > |Cc| = 0, after EG0(1) */
    {"status_stream_sort_backspace", "010 0 1 0001001 01100001 0", RSV_ERR_SORT_BACKSPACE, 0, 3},
    /* step 2: record 0 takes c = 1 bit `1`, no code has it: after that bit */
    {"status_stream_unknown_selector", "1 1 1 0001001 01100001 0", RSV_ERR_UNKNOWN_SELECTOR, 0, 2},
    /* §2.1: record 1's key backspace 9 > 8|P| = 8, after its EG0 */
    {"status_stream_backspace_exceeds_key", S0 " 1 0001010 1 0", RSV_ERR_BACKSPACE_EXCEEDS_KEY, 1, 27},
    /* §2.1: S = 7 after kept 0: after the literal */
    {"status_stream_key_ends_inside_byte", "1 0 1 0001000 0110000 0", RSV_ERR_KEY_ENDS_INSIDE_BYTE, 0, 17},
    /* §2.1: S = 8 with 4 bits left: position unchanged */
    {"status_stream_truncated_span", "1 0 1 0001001 0110", RSV_ERR_TRUNCATED_SPAN, 0, 10},
    /* §1.3: a 3-byte value with 2 bytes left: after EG0(n) */
    {"status_stream_truncated_value", "1 0 1 0001001 01100001 1 00100 01111001 01111010", RSV_ERR_TRUNCATED_VALUE,
     0, 24},
    /* §1.3: the value's first bit at the end: read(1) fails in place */
    {"status_stream_truncated_field", "1 0 1 0001001 01100001", RSV_ERR_TRUNCATED_FIELD, 0, 18},
    /* step 5: record 1 repeats "a" (backspace 0, S = 0): after the record */
    {"status_stream_unsorted", S0 " 1 1 1 0", RSV_ERR_UNSORTED, 1, 23},
};

Test(status_reach, stream_statuses)
{
    size_t rows = sizeof k_stream_rows / sizeof k_stream_rows[0];
    cr_assert_gt(rows, 0);
    for (size_t i = 0; i < rows; i++) {
        const stream_row *r = &k_stream_rows[i];
        uint8_t buf[64] = {0};
        uint64_t e = rsv_parse_bits(r->bits, buf, sizeof buf, 0);
        cr_assert_neq(e, UINT64_MAX);
        size_t nb = (size_t)((e + 7) / 8);
        /* the oracle, held to the row */
        rsv_oracle_stream_result o;
        rsv_oracle_stream_decode(rsv_view_make(buf, 0, e), (const uint8_t *)"\0", 1, &o);
        cr_assert(o.status == r->want && o.record == r->record && o.bitpos == r->bit,
                  "%s: oracle %s record %llu bit %llu", r->seed, rsv_status_name(o.status),
                  (unsigned long long)o.record, (unsigned long long)o.bitpos);
        rsv_oracle_stream_result_free(&o);
        /* the codec against the oracle (status, record, bit, records) */
        rsv_kv03d_report rep;
        rsv_kv03d_report_init(&rep);
        cr_assert(rsv_kv03d_stream(buf, e, NULL, 0, NULL, 0, &rep), "%s: %s", r->seed, rep.msg);
        /* then poisoned */
        rsv_stream_reader sr;
        rsv_stream_record rec;
        int more = 0;
        rsv_status st = rsv_stream_reader_init(&sr, rsv_view_make(buf, 0, e), NULL, 0);
        while (st == RSV_OK && (st = rsv_stream_reader_next(&sr, &rec, &more)) == RSV_OK && more) {}
        cr_assert_eq(st, r->want, "%s: codec %s", r->seed, rsv_status_name(st));
        cr_assert_eq(rsv_stream_reader_next(&sr, &rec, &more), RSV_ERR_POISONED, "%s", r->seed);
        rsv_stream_reader_free(&sr);
        /* the stream_diff seed: payload, then C0 selector byte 0x00 (`0`),
         * then sel = padding bits << 5 (extent rule 0, offset 0) */
        uint8_t seed[80];
        memcpy(seed, buf, nb);
        seed[nb] = 0x00;
        seed[nb + 1] = (uint8_t)((8 * nb - e) << 5);
        char msg[512];
        cr_assert(rsv_sr_seed("stream_diff", r->seed, seed, nb + 2, msg, sizeof msg), "%s", msg);
    }
}
