/* KV03 error paths: §9.1 open checks in order, §9.2 scan failures with the
 * hand-derived record and bit position, writer rejections and poisoning, and
 * open touching nothing but the header and directory (payload PROT_NONE).
 * Corrupted files start from the §12.3 bytes; CRC fix-ups after a deliberate
 * edit use rsv_crc32c, itself checked against the spec's check value. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "reservoir/crc32c.h"
#include "reservoir/kv03.h"
#include "../codec/src/kv03_layout.h" /* rsv__kv03_place: the writer's section placement */

#include "kv03_vectors.h"

/* kv03.h: a file opened from memory owns no mapping (map NULL, map_len 0),
 * whatever the caller's struct held before, so rsv_kv03_close unmaps
 * nothing. */
Test(kv03_read, memory_open_owns_no_mapping)
{
    rsv_kv03_file f;
    memset(&f, 0xab, sizeof f);
    cr_assert_eq(rsv_kv03_open(FILE_12_3, 360, NULL, &f), RSV_OK);
    cr_assert_null(f.map);
    cr_assert_eq(f.map_len, 0);
    rsv_kv03_close(&f);
    cr_assert_null(f.map);
}

Test(kv03_read, open_errors)
{
    uint8_t v[360];
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(FILE_12_3, 95, NULL, &f), RSV_ERR_TRUNCATED_HEADER);
    memcpy(v, FILE_12_3, 360);
    v[0] ^= 1;
    cr_assert_eq(rsv_kv03_open(v, 360, NULL, &f), RSV_ERR_BAD_MAGIC);
    memcpy(v, FILE_12_3, 360);
    memcpy(v, "EVRT.IX\0", 8);
    cr_assert_eq(rsv_kv03_open(v, 360, NULL, &f), RSV_ERR_WRONG_KIND);
    /* both magics are 8 bytes, the NUL included: a different byte 7 is
     * neither an index object nor a KV file */
    memcpy(v, "EVRT.IX\1", 8);
    cr_assert_eq(rsv_kv03_open(v, 360, NULL, &f), RSV_ERR_BAD_MAGIC);
    memcpy(v, "EVRT.KV\1", 8);
    cr_assert_eq(rsv_kv03_open(v, 360, NULL, &f), RSV_ERR_BAD_MAGIC);
    memcpy(v, FILE_12_3, 360);
    v[68] ^= 0x80;
    cr_assert_eq(rsv_kv03_open(v, 360, NULL, &f), RSV_ERR_HEADER_CRC);
    memcpy(v, FILE_12_3, 360);
    v[8] = 2; /* version: checked before the CRC */
    cr_assert_eq(rsv_kv03_open(v, 360, NULL, &f), RSV_ERR_BAD_VERSION);
    cr_assert_eq(rsv_kv03_open(FILE_12_3, 359, NULL, &f), RSV_ERR_FILE_SIZE);
    rsv_kv03_policy p = {RSV_BACKSPACE_EG, 1, 15, 15};
    cr_assert_eq(rsv_kv03_open(FILE_12_3, 360, &p, &f), RSV_ERR_POLICY_MISMATCH);
    p = rsv_kv03_policy_default();
    cr_assert_eq(rsv_kv03_open(FILE_12_3, 360, &p, &f), RSV_OK);
}

Test(kv03_read, scan_errors)
{
    uint8_t v[360];
    rsv_kv03_file f;
    rsv_kv03_diag dg;
    /* a body byte changed without fixing the CRC */
    memcpy(v, FILE_12_3, 360);
    v[96 + 192] ^= 0x80;
    cr_assert_eq(rsv_kv03_open(v, 360, NULL, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_scan(&f, &dg), RSV_ERR_BODY_CRC);
    /* first data bit 0 → 1: record 0's control EG0 reads `1` = 0 < c = 1
     * (§3.3 step 2) with the reader after that one bit */
    fix_crcs(v, 360);
    cr_assert_eq(rsv_kv03_open(v, 360, NULL, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_scan(&f, &dg), RSV_ERR_RETAINED_PRECEDES_CODE);
    cr_assert_eq(dg.record, 0);
    cr_assert_eq(dg.bit, 1);
    /* record 2 starts at bit 47 with control `0001011` (backspace 10); data
     * byte 6 = 0x2d holds bits 48..55, bit 53 is the control's last bit.
     * Clearing it gives backspace 9: R = 17 - 9 = 8, local 7, S = 2, and
     * (7 + 2) mod 8 != 0 → KEY_ENDS_INSIDE_BYTE after the literal (bit 59). */
    memcpy(v, FILE_12_3, 360);
    v[96 + 192 + 6] = 0x29;
    fix_crcs(v, 360);
    cr_assert_eq(rsv_kv03_open(v, 360, NULL, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_scan(&f, &dg), RSV_ERR_KEY_ENDS_INSIDE_BYTE);
    cr_assert_eq(dg.record, 2);
    cr_assert_eq(dg.bit, 59);
    /* the cursor reports the same and is poisoned afterwards */
    rsv_kv03_cursor c;
    rsv_kv03_entry e;
    int more;
    rsv_kv03_cursor_init(&c, &f);
    cr_assert_eq(rsv_kv03_cursor_next(&c, &e, &more), RSV_OK);
    cr_assert_eq(rsv_kv03_cursor_next(&c, &e, &more), RSV_OK);
    cr_assert_eq(rsv_kv03_cursor_next(&c, &e, &more), RSV_ERR_KEY_ENDS_INSIDE_BYTE);
    cr_assert_eq(rsv_kv03_cursor_next(&c, &e, &more), RSV_ERR_POISONED);
    rsv_kv03_cursor_free(&c);
    /* a nonzero padding bit after the 97-bit data stream (byte 12, bit 97) */
    memcpy(v, FILE_12_3, 360);
    v[96 + 192 + 12] = 0x40;
    fix_crcs(v, 360);
    cr_assert_eq(rsv_kv03_open(v, 360, NULL, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_scan(&f, &dg), RSV_ERR_NONZERO_PADDING);
    /* a nonzero gap byte after section 0 (body 205) */
    memcpy(v, FILE_12_3, 360);
    v[96 + 205] = 1;
    fix_crcs(v, 360);
    cr_assert_eq(rsv_kv03_open(v, 360, NULL, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_scan(&f, &dg), RSV_ERR_NONZERO_GAP);
}

Test(kv03_writer, errors_and_poison)
{
    rsv_kv03_writer w;
    rsv_kv03_policy p = {RSV_BACKSPACE_EG, 64, 15, 15};
    cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_ERR_BAD_BACKSPACE);
    rsv_kv03_writer_free(&w);
    p = (rsv_kv03_policy){RSV_BACKSPACE_GOLOMB, 0, 15, 15};
    cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_ERR_BAD_BACKSPACE);
    rsv_kv03_writer_free(&w);
    p = (rsv_kv03_policy){RSV_BACKSPACE_EG, 0, 0, 15};
    cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_ERR_BAD_POLICY);
    rsv_kv03_writer_free(&w);
    p = (rsv_kv03_policy){RSV_BACKSPACE_EG, 0, 15, 4};
    cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_ERR_BAD_POLICY);
    rsv_kv03_writer_free(&w);
    uint8_t code[65] = {0};
    p = rsv_kv03_policy_default();
    cr_assert_eq(rsv_kv03_writer_init(&w, &p, code, 513), RSV_ERR_TOO_LARGE);
    rsv_kv03_writer_free(&w);
    cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_add(&w, "b", 1, rsv_value_tombstone()), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_add(&w, "b", 1, rsv_value_tombstone()), RSV_ERR_UNSORTED);
    cr_assert_eq(rsv_kv03_writer_add(&w, "c", 1, rsv_value_tombstone()), RSV_ERR_POISONED);
    uint8_t *out;
    size_t n;
    cr_assert_eq(rsv_kv03_writer_finish(&w, &out, &n), RSV_ERR_POISONED);
    rsv_kv03_writer_free(&w);
}

/* rsv_kv03_writer_diag after a rejected add (kv03.h: "the output bit count
 * for writers"): the data-stream bits of the records accepted so far. With
 * §12's records the counts are KV03.md §12.1's, summed by hand: 30, 47, 61
 * and 97 bits after records 0..3; adding the last key again is UNSORTED
 * (§11.1 step 3) at record k, with nothing written for it. Found by the
 * seed-101 sample: with the store of diag.bit deleted
 * (kv03_writer_c.sdl.52362259) no test looked at the bit. */
Test(kv03_writer, diag_reports_the_output_bits_at_the_failure)
{
    static const uint64_t bits[4] = {30, 30 + 17, 30 + 17 + 14, 30 + 17 + 14 + 36};
    rsv_kv03_policy p = rsv_kv03_policy_default();
    for (size_t k = 1; k <= 4; k++) {
        rsv_kv03_writer w;
        cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
        for (size_t i = 0; i < k; i++)
            cr_assert_eq(rsv_kv03_writer_add(&w, RECS[i].key, RECS[i].key_len, RECS[i].value), RSV_OK);
        cr_assert_eq(rsv_kv03_writer_add(&w, RECS[k - 1].key, RECS[k - 1].key_len, rsv_value_tombstone()),
                     RSV_ERR_UNSORTED);
        rsv_kv03_diag d = rsv_kv03_writer_diag(&w);
        cr_assert_eq(d.status, RSV_ERR_UNSORTED);
        cr_assert_eq(d.record, k, "after %zu records: diag record %llu", k, (unsigned long long)d.record);
        cr_assert_eq(d.bit, bits[k - 1], "after %zu records: diag bit %llu, want %llu (§12.1)", k,
                     (unsigned long long)d.bit, (unsigned long long)bits[k - 1]);
        /* poisoned: the diag keeps the first failure */
        cr_assert_eq(rsv_kv03_writer_add(&w, "c", 1, rsv_value_tombstone()), RSV_ERR_POISONED);
        cr_assert_eq(rsv_kv03_writer_diag(&w).bit, bits[k - 1]);
        rsv_kv03_writer_free(&w);
    }
}

/* The writer's section placement (KV03.md §5): 8-aligned offsets after the
 * 192-byte directory, and the bound that keeps every body bit position in
 * 64 bits (body <= UINT64_MAX / 8 bytes). No file can get near the bound, so
 * the placement is called directly with made-up section lengths. */
Test(kv03_writer, section_placement_and_its_64_bit_bound)
{
    uint64_t off[8], body = 0;
    /* by hand: 192 | 192+10=202 -> 208 | 208+3=211 -> 216 | 216 | 216+9=225
     * -> 232 | 232+8=240 | 240 | 240+1=241 -> 248, body 248+5 = 253 */
    const uint64_t len[8] = {10, 3, 0, 9, 8, 0, 1, 5};
    const uint64_t want[8] = {192, 208, 216, 216, 232, 240, 240, 248};
    cr_assert_eq(rsv__kv03_place(len, off, &body), RSV_OK);
    cr_assert_arr_eq(off, want, sizeof want);
    cr_assert_eq(body, 253);

    /* section 0 as long as it can be: sections 1-7 (empty) start at
     * align8(body end), which must stay <= 0x1FFF FFFF FFFF FFFF */
    const uint64_t lim = UINT64_MAX / 8, top = lim & ~(uint64_t)7; /* 0x1FFF...F8 */
    uint64_t big[8] = {top - 192, 0, 0, 0, 0, 0, 0, 0};
    cr_assert_eq(rsv__kv03_place(big, off, &body), RSV_OK);
    cr_assert_eq(body, top);
    cr_assert_eq(off[7], top);
    big[0]++; /* section 1 would start at 0x2000 0000 0000 0000 */
    cr_assert_eq(rsv__kv03_place(big, off, &body), RSV_ERR_TOO_LARGE);
    /* the same at the last section's start: section 6 ending at
     * 0x1FFF...F8, then one byte later (section 7 would start at 2^61) */
    uint64_t six[8] = {0, 0, 0, 0, 0, 0, top - 192, 0};
    cr_assert_eq(rsv__kv03_place(six, off, &body), RSV_OK);
    cr_assert_eq(off[7], top);
    cr_assert_eq(body, top);
    six[6]++;
    cr_assert_eq(rsv__kv03_place(six, off, &body), RSV_ERR_TOO_LARGE);
    /* the last section ending exactly at the bound, and one byte past it */
    uint64_t last[8] = {0, 0, 0, 0, 0, 0, 0, lim - 192};
    cr_assert_eq(rsv__kv03_place(last, off, &body), RSV_OK);
    cr_assert_eq(body, lim);
    last[7]++;
    cr_assert_eq(rsv__kv03_place(last, off, &body), RSV_ERR_TOO_LARGE);
    /* lengths whose sum wraps 64 bits are refused, not wrapped */
    uint64_t wrap[8] = {UINT64_MAX - 100, 0, 0, 0, 0, 0, 0, 0};
    cr_assert_eq(rsv__kv03_place(wrap, off, &body), RSV_ERR_TOO_LARGE);
    uint64_t wrap7[8] = {8, 0, 0, 0, 0, 0, 0, UINT64_MAX};
    cr_assert_eq(rsv__kv03_place(wrap7, off, &body), RSV_ERR_TOO_LARGE);
}

Test(kv03_read, open_touches_only_header_and_directory)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    uint8_t *map = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    cr_assert_neq(map, MAP_FAILED);
    /* the 288 bytes of header + directory end exactly at the page boundary */
    uint8_t *file = map + pg - 288;
    memcpy(file, FILE_12_3, 360);
    cr_assert_eq(mprotect(map + pg, 2 * pg, PROT_NONE), 0);
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(file, 360, NULL, &f), RSV_OK);
    cr_assert_eq(f.N, 4);
    cr_assert_eq(f.extent, 97);
    /* failures late in §9.1 read nothing else either */
    cr_assert_eq(rsv_kv03_open(file, 361, NULL, &f), RSV_ERR_FILE_SIZE);
    munmap(map, 3 * pg);
}

/* §9.1 order: one field edited in §12.3 (header edits get a fresh header
 * CRC; open never checks the body CRC, so directory edits need none). */
typedef struct edit {
    unsigned off, width;
    uint64_t value;
    rsv_status want;
} edit;

Test(kv03_read, open_check_order)
{
    static const edit hdr[] = {
        {12, 4, 4, RSV_ERR_BAD_FLAGS},
        {16, 1, 0, RSV_ERR_BAD_UNIT},
        {17, 1, 2, RSV_ERR_BAD_CHECKSUM_KIND},
        {19, 1, 1, RSV_ERR_RESERVED},
        {18, 1, 2, RSV_ERR_BAD_BACKSPACE},
        {88, 8, 64, RSV_ERR_BAD_BACKSPACE},
        {20, 4, 0, RSV_ERR_BAD_POLICY},
        {24, 8, 4, RSV_ERR_BAD_POLICY},
        {12, 4, 1, RSV_ERR_UNSUPPORTED_VALUE_POLICY},
        {32, 8, 1, RSV_ERR_POLICY_WIDTH},
        {40, 8, 5, RSV_ERR_COMMON_WIDTH},
        {72, 8, 97, RSV_ERR_BAD_EXTENT},
        {80, 8, 361, RSV_ERR_BAD_EXTENT},
        {48, 8, 2113, RSV_ERR_BAD_EXTENT},
    };
    uint8_t v[360];
    rsv_kv03_file f;
    for (size_t i = 0; i < sizeof hdr / sizeof hdr[0]; i++) {
        memcpy(v, FILE_12_3, 360);
        put_le(v + hdr[i].off, hdr[i].value, hdr[i].width);
        uint8_t h[96];
        memcpy(h, v, 96);
        memset(h + 68, 0, 4);
        put_le(v + 68, rsv_crc32c(0, h, 96), 4);
        cr_assert_eq(rsv_kv03_open(v, 360, NULL, &f), hdr[i].want, "header edit %zu", i);
    }
    /* cw present (flags 2) with cw 2000: N = 4 > floor(2112 / 2000) */
    memcpy(v, FILE_12_3, 360);
    put_le(v + 12, 2, 4);
    put_le(v + 40, 2000, 8);
    uint8_t h[96];
    memcpy(h, v, 96);
    memset(h + 68, 0, 4);
    put_le(v + 68, rsv_crc32c(0, h, 96), 4);
    cr_assert_eq(rsv_kv03_open(v, 360, NULL, &f), RSV_ERR_VALUE_SLOTS);

    static const edit dir[] = {
        {0, 1, 'k', RSV_ERR_BAD_DIRECTORY_MAGIC},
        {4, 2, 4, RSV_ERR_BAD_DIRECTORY_REVISION},
        {50, 1, 1, RSV_ERR_RESERVED},
        {64 + 16, 8, 209, RSV_ERR_SECTION_RANGE},      /* section 1 not at align8(205) */
        {72, 8, 14, RSV_ERR_BIT_SECTION_EXTENT},       /* section 0: 14 != ceil(97/8) */
        {48, 1, 4, RSV_ERR_EF_SHAPE},                  /* L != canonical 5 */
        {24, 8, 96, RSV_ERR_SECTION_SHAPE},            /* U != extent - N*cw */
        {8, 8, 98, RSV_ERR_SECTION_SHAPE},             /* extent 98: still 13 bytes, U 97 != 98 */
    };
    for (size_t i = 0; i < sizeof dir / sizeof dir[0]; i++) {
        memcpy(v, FILE_12_3, 360);
        put_le(v + 96 + dir[i].off, dir[i].value, dir[i].width);
        cr_assert_eq(rsv_kv03_open(v, 360, NULL, &f), dir[i].want, "directory edit %zu", i);
    }
}
