/* KV03 format revision v2, read side (KV03.md §3.3, §6.3, §9, §12.5): the
 * §12.5 multi-code file opens, scans and walks (frames, cursor, scanner);
 * every row of the §12.5 corruption table gives the spec's status, record
 * and bit in both columns (open + scan, cursor walk). Expected bytes come
 * from docs/spec/KV03.md (spec_doc.h), records and positions from the
 * spec's tables; crafted inputs for the other v2 statuses are in
 * test_kv03_v2_crafted.c. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "reservoir/kv03.h"
#include "../codec/src/kv03_frame_parse.h" /* rsv__kv03_frames_literal_words (private) */

#include "kv03_build.h"
#include "kv03_diff.h"
#include "kv03_v2_file.h"
#include "spec_doc.h"

static void expect_bits(rsv_view v, const char *bits)
{
    cr_assert_eq(v.len, strlen(bits));
    for (uint64_t i = 0; i < v.len; i++) {
        uint64_t p = v.off + i;
        unsigned b = (v.data[p / 8] >> (7 - p % 8)) & 1u;
        cr_assert_eq(b, (unsigned)(bits[i] - '0'), "bit %llu of %s", (unsigned long long)i, bits);
    }
}

/* C0 = the first dict_bits bits of section 5 (kv03.h, rsv_kv03_file.code)
 * also when section 4 is not empty (in the §12 vectors sections 4 and 5
 * start at the same byte). One code C0 = `101`, W = 1: N = 8000 records,
 * keys the 4-byte big-endian index, record 100's key followed by 10^6 zero
 * bytes, tombstones. Record 100 is J >= 8·10^6 bits, every other one < 64
 * (EG0(R), R <= 35; EG0(S), S <= 32; S; 1), so U <= J + 8000·64. §4: 2^L <=
 * q = floor(U / n), n = 8001, and group 0 (entries 0-255) holds the step
 * r_101 - r_100 >= J, so it spans at least J / 2^L - 1 >= n·J / U - 1 > 7000
 * >= 4096 high positions: sparse, section 4 not empty. Its first entry is
 * (r_0 >> L) + 0 = 0, whose first byte (0x00) is not C0's. */
Test(kv03_v2_read, c0_is_section_5_with_sparse_entries)
{
    enum { N = 8000, JUMP = 100, TAIL = 1000000 };
    const rsv_kv03_policy p = {RSV_BACKSPACE_EG, 0, 1, 15};
    static const uint8_t c0 = 0xA0; /* `101` */
    rsv_kv03_writer w;
    cr_assert_eq(rsv_kv03_writer_init(&w, &p, &c0, 3), RSV_OK);
    uint8_t *key = calloc(1, 4 + TAIL);
    cr_assert(key);
    for (uint32_t i = 0; i < N; i++) {
        key[0] = (uint8_t)(i >> 24), key[1] = (uint8_t)(i >> 16), key[2] = (uint8_t)(i >> 8), key[3] = (uint8_t)i;
        cr_assert_eq(rsv_kv03_writer_add(&w, key, i == JUMP ? 4 + TAIL : 4, rsv_value_tombstone()), RSV_OK);
    }
    uint8_t *out;
    size_t n;
    cr_assert_eq(rsv_kv03_writer_finish(&w, &out, &n), RSV_OK);
    rsv_kv03_writer_free(&w);
    free(key);
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(out, n, NULL, &f), RSV_OK);
    cr_assert_eq(f.nb, N);
    cr_assert_eq(f.dict_bits, 3);
    cr_assert_gt(f.sec_len[4], 0, "group 0 is sparse: section 4 holds its entries");
    cr_assert_eq(f.code, f.dict, "C0 starts section 5 (kv03.h)");
    cr_assert_eq(f.code[0] >> 5, 5u, "C0 = 101");
    rsv_kv03_close(&f);
    free(out);
}

Test(kv03_v2_read, open_exposes_dictionary_and_seeds)
{
    size_t n;
    uint8_t *b = spec_file(&n);
    rsv_kv03_file f;
    rsv_status st = rsv_kv03_open(b, n, NULL, &f);
    cr_assert_neq(st, RSV_ERR_UNSUPPORTED_SELECTORS, "v1's open step 29 is gone in v2");
    cr_assert_eq(st, RSV_OK);
    cr_assert_eq(rsv_kv03_code_count(&f), 3);
    cr_assert_eq(f.seed_w, 2);
    cr_assert_eq(f.dict_bits, 5);
    cr_assert_eq(f.nb, 2);
    cr_assert_eq(f.dict, b + V2_DICT);
    cr_assert_eq(f.code, b + V2_DICT, "C0 starts section 5 (kv03.h)");
    cr_assert_eq(f.dict_off, b + V2_OFFS);
    cr_assert_eq(f.seeds, b + V2_SEEDS);
    cr_assert_eq(rsv_kv03_dictionary_check(&f), RSV_OK);
    const char *want[3] = {"0", "10", "11"};
    for (uint64_t j = 0; j < 3; j++) {
        rsv_view v;
        cr_assert_eq(rsv_kv03_code(&f, j, &v), RSV_OK);
        expect_bits(v, want[j]);
    }
    rsv_view v;
    cr_assert_eq(rsv_kv03_code(&f, 3, &v), RSV_ERR_INVALID_ARGUMENT);
    uint64_t s;
    cr_assert_eq(rsv_kv03_seed(&f, 0, &s), RSV_OK);
    cr_assert_eq(s, 0);
    cr_assert_eq(rsv_kv03_seed(&f, 1, &s), RSV_OK);
    cr_assert_eq(s, 2);
    cr_assert_eq(rsv_kv03_seed(&f, 2, &s), RSV_ERR_INVALID_ARGUMENT);
    free(b);
}

Test(kv03_v2_read, v1_file_api_is_the_one_code_case)
{
    /* §12.3 (m = 1): code 0 is C0 = section 5, seeds are 0, no check needed */
    size_t n;
    uint8_t *b = NULL;
    cr_assert_eq(rsv_spec_hexdump("12.3", &b, &n), 0);
    cr_assert_eq(n, 360);
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(b, n, NULL, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_code_count(&f), 1);
    cr_assert_eq(f.seed_w, 0);
    cr_assert_eq(rsv_kv03_dictionary_check(&f), RSV_OK);
    rsv_view v;
    cr_assert_eq(rsv_kv03_code(&f, 0, &v), RSV_OK);
    expect_bits(v, "0");
    cr_assert_eq(rsv_kv03_code(&f, 1, &v), RSV_ERR_INVALID_ARGUMENT);
    uint64_t s = 9;
    cr_assert_eq(rsv_kv03_seed(&f, 0, &s), RSV_OK);
    cr_assert_eq(s, 0);
    rsv_kv03_frames fw;
    rsv_kv03_frame fr;
    int more;
    cr_assert_eq(rsv_kv03_frames_init(&fw, &f), RSV_OK);
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(rsv_kv03_frames_next(&fw, &fr, &more), RSV_OK);
        cr_assert(more);
        cr_assert_eq(fr.code, 0);
    }
    free(b);
}

Test(kv03_v2_read, scan_ok)
{
    size_t n;
    rsv_kv03_file f;
    uint8_t *b = spec_open(&n, &f);
    rsv_kv03_diag d;
    cr_assert_eq(rsv_kv03_scan(&f, &d), RSV_OK);
    /* the scanner twice: the second scan reuses its buffers */
    rsv_kv03_scanner s;
    rsv_kv03_scanner_init(&s);
    cr_assert_eq(rsv_kv03_scanner_scan(&s, &f, &d), RSV_OK);
    uint64_t *off = s.offsets;
    uint8_t *ef = s.ef, *key = s.cur.key;
    cr_assert_eq(rsv_kv03_scanner_scan(&s, &f, &d), RSV_OK);
    cr_assert(off == s.offsets && ef == s.ef && key == s.cur.key, "a warm scanner reallocated");
    /* block offsets walked: 0 and 61 (§12.5) */
    cr_assert_eq(s.offsets[0], 0);
    cr_assert_eq(s.offsets[1], 61);
    rsv_kv03_scanner_free(&s);
    free(b);
}

Test(kv03_v2_read, frames_walk)
{
    size_t n;
    rsv_kv03_file f;
    uint8_t *b = spec_open(&n, &f);
    for (int words = 0; words < 2; words++) {
        rsv_kv03_frames fw;
        rsv_kv03_frame fr;
        int more;
        cr_assert_eq(rsv_kv03_frames_init(&fw, &f), RSV_OK);
        if (words) rsv__kv03_frames_literal_words(&fw); /* the merge's private option */
        for (int i = 0; i < 6; i++) {
            const v2_rec *w = &V2_RECS[i];
            cr_assert_eq(rsv_kv03_frames_next(&fw, &fr, &more), RSV_OK, "record %d", i);
            cr_assert(more);
            cr_assert_eq(fr.index, (uint64_t)i);
            cr_assert_eq(fr.start, w->start, "record %d start %llu", i, (unsigned long long)fr.start);
            cr_assert_eq(fr.end, w->end, "record %d end %llu", i, (unsigned long long)fr.end);
            cr_assert_eq(fr.code, w->code, "record %d code", i);
            cr_assert_eq(fr.retained, w->R, "record %d R", i);
            cr_assert_eq(fr.local, w->local, "record %d local", i);
            cr_assert_eq(fr.key_bits, 8 * w->key_len);
            cr_assert_eq(fr.block_start, i % 3 == 0);
            cr_assert_eq(fr.value.kind, w->tomb ? RSV_VALUE_TOMBSTONE : RSV_VALUE_PRESENT);
        }
        cr_assert_eq(rsv_kv03_frames_next(&fw, &fr, &more), RSV_OK);
        cr_assert_eq(more, 0);
    }
    free(b);
}

Test(kv03_v2_read, cursor_walk)
{
    size_t n;
    rsv_kv03_file f;
    uint8_t *b = spec_open(&n, &f);
    rsv_kv03_cursor c;
    rsv_kv03_entry e;
    int more;
    cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
    for (int i = 0; i < 6; i++) {
        const v2_rec *w = &V2_RECS[i];
        cr_assert_eq(rsv_kv03_cursor_record(&c, &e, &more), RSV_OK, "record %d", i);
        cr_assert(more);
        cr_assert_eq(e.index, (uint64_t)i);
        cr_assert_eq(e.code, w->code);
        cr_assert_eq(e.end, w->end);
        cr_assert_eq(e.key_len, w->key_len, "record %d key length", i);
        cr_assert_eq(memcmp(e.key, w->key, w->key_len), 0, "record %d key", i);
        cr_assert_eq(e.value.kind, w->tomb ? RSV_VALUE_TOMBSTONE : RSV_VALUE_PRESENT);
        cr_assert_eq(e.value.len, w->val_len);
        if (w->val_len) cr_assert_eq(memcmp(e.value.data, w->val, w->val_len), 0);
    }
    cr_assert_eq(rsv_kv03_cursor_next(&c, &e, &more), RSV_OK);
    cr_assert_eq(more, 0);
    rsv_kv03_cursor_free(&c);
    free(b);
}

/* ---- §12.5 corruption table ---------------------------------------------- */

enum { WALK_OK = -1 };

typedef struct corruption {
    const char *what;
    size_t at;   /* file byte */
    uint8_t xor; /* applied to it */
    size_t at2;  /* a second byte (0: none) */
    uint8_t xor2;
    rsv_status scan; /* open + scan */
    int walk_record; /* scan diag and cursor: record and bit (WALK_OK: none) */
    uint64_t walk_bit;
    rsv_status cursor; /* cursor walk (RSV_OK: accepted) */
} corruption;

static const corruption TABLE[] = {
    {"data bit 56 flipped", V2_DATA + 7, 0x80, 0, 0, RSV_ERR_SORT_TRANSITION, 2, 57, RSV_ERR_SORT_TRANSITION},
    {"data bit 62 flipped", V2_DATA + 7, 0x02, 0, 0, RSV_ERR_PREFIX_CROSSES_CODE, 3, 66, RSV_ERR_PREFIX_CROSSES_CODE},
    {"seeds 20 -> 30", V2_SEEDS, 0x20 ^ 0x30, 0, 0, RSV_ERR_SEED_RANGE, 3, 61, RSV_ERR_SEED_RANGE},
    {"seeds 20 -> 10", V2_SEEDS, 0x20 ^ 0x10, 0, 0, RSV_ERR_UNUSED_SELECTOR, WALK_OK, 0, RSV_OK},
    {"dictionary 58 -> 68", V2_DICT, 0x58 ^ 0x68, 0, 0, RSV_ERR_DICTIONARY_ORDER, WALK_OK, 0, RSV_ERR_DICTIONARY_ORDER},
    {"offsets [0, 1, 1, 5]", V2_OFFS + 16, 0x03 ^ 0x01, 0, 0, RSV_ERR_DICTIONARY_SHAPE, WALK_OK, 0,
     RSV_ERR_DICTIONARY_SHAPE},
};

/* Walk with the cursor to the end; the first failure, its diag. */
static rsv_status cursor_walk(const rsv_kv03_file *f, rsv_kv03_diag *d, uint64_t *codes)
{
    rsv_kv03_cursor c;
    rsv_kv03_entry e;
    int more = 1;
    rsv_status st = rsv_kv03_cursor_init(&c, f);
    for (uint64_t i = 0; st == RSV_OK; i++) {
        st = rsv_kv03_cursor_next(&c, &e, &more);
        if (st || !more) break;
        if (codes) codes[i] = e.code;
    }
    *d = rsv_kv03_cursor_diag(&c);
    rsv_kv03_cursor_free(&c);
    return st;
}

Test(kv03_v2_read, corruption_table)
{
    size_t n;
    uint8_t *orig = spec_file(&n);
    for (size_t k = 0; k < sizeof TABLE / sizeof TABLE[0]; k++) {
        const corruption *t = &TABLE[k];
        uint8_t *b = malloc(n);
        memcpy(b, orig, n);
        b[t->at] ^= t->xor;
        if (t->at2) b[t->at2] ^= t->xor2;
        rsv_kv03d_reseal(b, n);
        rsv_kv03_file f;
        cr_assert_eq(rsv_kv03_open(b, n, NULL, &f), RSV_OK, "%s: open", t->what);
        rsv_kv03_diag d;
        rsv_status st = rsv_kv03_scan(&f, &d);
        cr_assert_eq(st, t->scan, "%s: scan %s", t->what, rsv_status_name(st));
        if (t->walk_record != WALK_OK) {
            cr_assert_eq(d.status, t->scan, "%s", t->what);
            cr_assert_eq(d.record, (uint64_t)t->walk_record, "%s: record %llu", t->what,
                         (unsigned long long)d.record);
            cr_assert_eq(d.bit, t->walk_bit, "%s: bit %llu", t->what, (unsigned long long)d.bit);
        }
        st = cursor_walk(&f, &d, NULL);
        cr_assert_eq(st, t->cursor, "%s: cursor %s", t->what, rsv_status_name(st));
        if (t->cursor != RSV_OK) {
            cr_assert_eq(d.status, t->cursor);
            /* dictionary failures: before record 0, nothing of the stream read */
            uint64_t rec = t->walk_record == WALK_OK ? 0 : (uint64_t)t->walk_record;
            cr_assert_eq(d.record, rec, "%s: cursor record", t->what);
            cr_assert_eq(d.bit, t->walk_record == WALK_OK ? 0 : t->walk_bit, "%s: cursor bit", t->what);
        }
        free(b);
    }
    free(orig);
}

Test(kv03_v2_read, seed_10_cursor_reads_block_1_under_code_10)
{
    size_t n;
    uint8_t *b = spec_file(&n);
    b[V2_SEEDS] = 0x10;
    rsv_kv03d_reseal(b, n);
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(b, n, NULL, &f), RSV_OK);
    rsv_kv03_cursor c;
    rsv_kv03_entry e;
    int more;
    cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
    const uint64_t want_code[6] = {0, 0, 1, 1, 1, 1};
    for (int i = 0; i < 6; i++) {
        cr_assert_eq(rsv_kv03_cursor_record(&c, &e, &more), RSV_OK, "record %d", i);
        cr_assert(more);
        cr_assert_eq(e.code, want_code[i], "record %d", i);
        cr_assert_eq(e.key_len, V2_RECS[i].key_len);
        cr_assert_eq(memcmp(e.key, V2_RECS[i].key, e.key_len), 0);
    }
    cr_assert_eq(rsv_kv03_cursor_next(&c, &e, &more), RSV_OK);
    cr_assert_eq(more, 0);
    rsv_kv03_cursor_free(&c);
    /* frames agree */
    rsv_kv03_frames fw;
    rsv_kv03_frame fr;
    cr_assert_eq(rsv_kv03_frames_init(&fw, &f), RSV_OK);
    for (int i = 0; i < 6; i++) {
        cr_assert_eq(rsv_kv03_frames_next(&fw, &fr, &more), RSV_OK);
        cr_assert_eq(fr.code, want_code[i]);
    }
    free(b);
}

Test(kv03_v2_read, builder_reproduces_12_5)
{
    /* kv03_build.c from the §12.5 tables alone gives the spec's 377 bytes */
    size_t n, bn;
    uint8_t *want = spec_file(&n), *got;
    static const char *codes[3] = {"0", "10", "11"};
    static const uint64_t offs[2] = {0, 61}, seeds[2] = {0, 2};
    rsv_kv03b_spec s = {{RSV_BACKSPACE_EG, 0, 3, 3}, 6,
                        "010 0001001 01100001 1 010 01111000"
                        "1 0001001 01100010 0"
                        "000010010 10 1 11"
                        "011 0001001 01100001 1 011 01111001 01111010"
                        "011 011 10 0"
                        "1 0001001 01100001 11",
                        offs, 18, 0, 0, codes, 3, seeds};
    cr_assert_eq(rsv_kv03b_build(&s, &got, &bn), 0);
    cr_assert_eq(bn, n);
    for (size_t i = 0; i < n; i++) cr_assert_eq(got[i], want[i], "byte %zu: %02x vs %02x", i, got[i], want[i]);
    free(got);
    free(want);
}

/* ---- jumping to a code (kv03.h: rsv_kv03_first_block_of_code, *_seek_code) */

Test(kv03_v2_read, first_block_of_code_12_5)
{
    /* seeds 0, 2: code 1 begins by a transition inside block 0 (record 2),
     * code 2 at block 1's first record (record 3); both get [0, 1] */
    size_t n;
    rsv_kv03_file f;
    uint8_t *b = spec_open(&n, &f);
    const uint64_t want[3][2] = {{0, 0}, {0, 1}, {0, 1}};
    for (uint64_t j = 0; j < 3; j++) {
        uint64_t lo = 9, hi = 9;
        cr_assert_eq(rsv_kv03_first_block_of_code(&f, j, &lo, &hi), RSV_OK);
        cr_assert(lo == want[j][0] && hi == want[j][1], "code %llu: [%llu, %llu]", (unsigned long long)j,
                  (unsigned long long)lo, (unsigned long long)hi);
    }
    uint64_t lo, hi;
    cr_assert_eq(rsv_kv03_first_block_of_code(&f, 3, &lo, &hi), RSV_ERR_INVALID_ARGUMENT);
    /* seeds 0, 1 (byte 10): code 2 has no block with seed >= 2: [1, 1] */
    b[V2_SEEDS] = 0x10;
    rsv_kv03d_reseal(b, n);
    cr_assert_eq(rsv_kv03_open(b, n, NULL, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_first_block_of_code(&f, 2, &lo, &hi), RSV_OK);
    cr_assert(lo == 1 && hi == 1);
    free(b);
}

Test(kv03_v2_read, cursor_seek_code_12_5)
{
    size_t n;
    rsv_kv03_file f;
    uint8_t *b = spec_open(&n, &f);
    rsv_kv03_cursor c;
    rsv_kv03_entry e;
    int more;
    cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
    const int first_of[3] = {0, 2, 3}; /* the first record of codes 0, 1, 2 */
    for (int pass = 0; pass < 2; pass++) /* a second pass re-seeks a used cursor */
        for (uint64_t j = 0; j < 3; j++) {
            cr_assert_eq(rsv_kv03_cursor_seek_code(&c, j), RSV_OK);
            for (int i = first_of[j]; i < 6; i++) {
                const v2_rec *w = &V2_RECS[i];
                cr_assert_eq(rsv_kv03_cursor_record(&c, &e, &more), RSV_OK, "code %d record %d", (int)j, i);
                cr_assert(more);
                cr_assert_eq(e.index, (uint64_t)i);
                cr_assert_eq(e.code, w->code);
                cr_assert_eq(e.key_len, w->key_len);
                cr_assert_eq(memcmp(e.key, w->key, w->key_len), 0);
                cr_assert_eq(e.value.len, w->val_len);
            }
            cr_assert_eq(rsv_kv03_cursor_next(&c, &e, &more), RSV_OK);
            cr_assert_eq(more, 0);
        }
    cr_assert_eq(rsv_kv03_cursor_seek_code(&c, 3), RSV_ERR_INVALID_ARGUMENT);
    rsv_kv03_cursor_free(&c);
    /* frames: the same landing records */
    rsv_kv03_frames fw;
    rsv_kv03_frame fr;
    cr_assert_eq(rsv_kv03_frames_init(&fw, &f), RSV_OK);
    for (uint64_t j = 0; j < 3; j++) {
        cr_assert_eq(rsv_kv03_frames_seek_code(&fw, j), RSV_OK);
        cr_assert_eq(rsv_kv03_frames_next(&fw, &fr, &more), RSV_OK);
        cr_assert_eq(fr.index, (uint64_t)first_of[j]);
        cr_assert_eq(fr.start, V2_RECS[first_of[j]].start);
    }
    free(b);
}

Test(kv03_v2_read, seek_past_the_last_code_ends_the_walk)
{
    /* seeds 0, 1 (byte 10): records 2-5 are under `10`, none under `11`:
     * the walk from block 1 skips records 3-5 and ends (terminal checked) */
    size_t n;
    uint8_t *b = spec_file(&n);
    b[V2_SEEDS] = 0x10;
    rsv_kv03d_reseal(b, n);
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(b, n, NULL, &f), RSV_OK);
    rsv_kv03_cursor c;
    rsv_kv03_entry e;
    int more = 1;
    cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_cursor_seek_code(&c, 2), RSV_OK);
    cr_assert_eq(rsv_kv03_cursor_next(&c, &e, &more), RSV_OK);
    cr_assert_eq(more, 0);
    /* a broken terminal length is found by the skip: directory terminal 18 → 19 */
    b[96 + 16] = 19;
    rsv_kv03d_reseal(b, n);
    cr_assert_eq(rsv_kv03_open(b, n, NULL, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_cursor_reset(&c, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_cursor_seek_code(&c, 2), RSV_ERR_TERMINAL_MISMATCH);
    rsv_kv03_diag d = rsv_kv03_cursor_diag(&c);
    cr_assert_eq(d.record, 5);
    cr_assert_eq(d.bit, 126);
    cr_assert_eq(rsv_kv03_cursor_next(&c, &e, &more), RSV_ERR_POISONED);
    rsv_kv03_cursor_free(&c);
    free(b);
}

/* A two-code file (m = 2: the smallest set with a code per block), W = 1:
 * `0` "a", `0` "b", `1` "a", `1` "c", one record per block, so code 1 starts
 * exactly at block 2 and its seed (KV03.md §6.4) is what names the block's
 * code. A fresh cursor (its code still 0) and a used one land, for code 1,
 * on record 2 with code 1 and key "a", and for code 0 on record 0 (the
 * records as written, not a decode). Seeking in an m = 2 file had no test:
 * the §12.5 file has m = 3. (Here the seed of the landing block is 0, the
 * code a fresh walker starts from: equivalent.txt, kv03_seek_c.ror.ca750de4.) */
static const uint8_t TWO_C0[1] = {0x00}, TWO_C1[1] = {0x80};
static const char TWO_KEYS[4] = {'a', 'b', 'a', 'c'};

static void two_code_walk_from(rsv_kv03_cursor *c, uint64_t j)
{
    const uint64_t first = j ? 2 : 0;
    rsv_kv03_entry e;
    int more;
    cr_assert_eq(rsv_kv03_cursor_seek_code(c, j), RSV_OK);
    for (uint64_t i = first; i < 4; i++) {
        cr_assert_eq(rsv_kv03_cursor_next(c, &e, &more), RSV_OK, "code %d record %d", (int)j, (int)i);
        cr_assert(more);
        cr_assert_eq(e.index, i);
        cr_assert_eq(e.code, i >= 2 ? 1u : 0u, "code %d record %d: code %llu", (int)j, (int)i,
                     (unsigned long long)e.code);
        cr_assert_eq(e.key_len, 1);
        cr_assert_eq(e.key[0], (uint8_t)TWO_KEYS[i]);
    }
    cr_assert_eq(rsv_kv03_cursor_next(c, &e, &more), RSV_OK);
    cr_assert_eq(more, 0);
}

Test(kv03_v2_read, seek_code_in_a_two_code_file)
{
    rsv_kv03_policy p = {RSV_BACKSPACE_EG, 0, 1, 3};
    const rsv_value tomb = {RSV_VALUE_TOMBSTONE, NULL, 0};
    rsv_record r[4];
    for (int i = 0; i < 4; i++)
        r[i] = (rsv_record){(const uint8_t *)&TWO_KEYS[i], 1, tomb, i >= 2 ? TWO_C1 : TWO_C0, 1};
    uint8_t *out;
    size_t n;
    cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, r, 4, &out, &n), RSV_OK);
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(out, n, NULL, &f), RSV_OK);
    cr_assert_eq(f.m, 2);
    rsv_kv03_cursor c;
    for (uint64_t j = 0; j < 2; j++) { /* fresh cursors */
        cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
        two_code_walk_from(&c, j);
        rsv_kv03_cursor_free(&c);
    }
    cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK); /* one cursor, reused */
    two_code_walk_from(&c, 0);
    two_code_walk_from(&c, 1);
    two_code_walk_from(&c, 0);
    rsv_kv03_cursor_free(&c);
    free(out);
}
