/* Code seeks (rsv_kv03_frames_seek_code, rsv_kv03_cursor_seek_code) and code
 * views (rsv_kv03_code) on files whose dictionary or seeds are corrupt: the
 * failure is the §6.3 status (kv03.h for rsv_kv03_code before the check), it
 * poisons the walker, and the cursor reports it too. Files: written by the
 * codec writer, then edited with the surgeon (tests/support/kv03_surgeon.h)
 * and resealed, so open succeeds (it reads neither section 5 nor 7, §6.3). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "kv03_build.h"
#include "kv03_diff.h"
#include "kv03_surgeon.h"
#include "reservoir/kv03.h"
#include "kv03_vectors.h"

static const rsv_kv03_policy k_pol = {RSV_BACKSPACE_EG, 0, 2, 3};

typedef struct rec {
    uint8_t code;      /* MSB-first */
    uint64_t code_bits;
    const char *key;
} rec;

static uint8_t *write_file(const rec *r, size_t n, size_t *len)
{
    rsv_kv03_writer w;
    cr_assert_eq(rsv_kv03_writer_init(&w, &k_pol, NULL, 0), RSV_OK);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(rsv_kv03_writer_add_coded(&w, &r[i].code, r[i].code_bits, r[i].key, strlen(r[i].key),
                                               rsv_value_present("x", 1)),
                     RSV_OK);
    uint8_t *out;
    cr_assert_eq(rsv_kv03_writer_finish(&w, &out, len), RSV_OK);
    rsv_kv03_writer_free(&w);
    return out;
}

/* File byte of section i's first byte (directory offsets are body offsets). */
static size_t section_byte(const rsv_surgeon *s, unsigned i) { return 96u + rsv_sg_get(s, RSV_SG_SEC_OFF(i), 8); }

/* The records of r written with codes `0`, `10`, `11` (seeds in one byte,
 * `written` by §6.2), the seeds byte replaced by `seeds`, resealed and opened
 * into *f (the surgeon *s owns the bytes; *base is the writer's buffer). */
static void open_reseeded(const rec *r, size_t nr, uint8_t written, uint8_t seeds, uint8_t **base,
                          rsv_surgeon *s, rsv_kv03_file *f)
{
    size_t n;
    *base = write_file(r, nr, &n);
    rsv_sg_init(s, *base, n);
    size_t sd = section_byte(s, 7);
    cr_assert_eq(s->b[sd], written);
    s->b[sd] = seeds;
    rsv_sg_reseal(s);
    cr_assert_eq(rsv_kv03_open(s->b, s->n, &k_pol, f), RSV_OK);
}

/* Codes `0`, `10` (§6.1: section 5 = `010` → byte 0x40). Rewritten to `110`:
 * D_0 = `1` is a prefix of D_1 = `10` → §6.3 step 4 DICTIONARY_ORDER. */
Test(kv03_seek_errors, dictionary_order)
{
    static const rec r[] = {{0x00, 1, "a"}, {0x00, 1, "b"}, {0x80, 2, "a"}};
    size_t n;
    uint8_t *base = write_file(r, 3, &n);
    rsv_surgeon s;
    rsv_sg_init(&s, base, n);
    size_t d = section_byte(&s, 5);
    cr_assert_eq(s.b[d], 0x40);
    s.b[d] = 0xC0;
    rsv_sg_reseal(&s);
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(s.b, s.n, &k_pol, &f), RSV_OK);

    rsv_kv03_frames fw;
    cr_assert_eq(rsv_kv03_frames_init(&fw, &f), RSV_ERR_DICTIONARY_ORDER);
    cr_assert_eq(rsv_kv03_frames_seek_code(&fw, 1), RSV_ERR_DICTIONARY_ORDER);
    rsv_kv03_cursor c;
    cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_ERR_DICTIONARY_ORDER);
    cr_assert_eq(rsv_kv03_cursor_seek_code(&c, 1), RSV_ERR_DICTIONARY_ORDER);
    cr_assert_eq(rsv_kv03_cursor_diag(&c).status, RSV_ERR_DICTIONARY_ORDER);
    rsv_kv03_cursor_free(&c);
    rsv_kv03_close(&f);
    rsv_sg_free(&s);
    free(base);
}

/* Codes `0`, `10`, `11` (m = 3, seed width 2), W = 2: blocks start with
 * records 0, 2, 4 of codes 0, 1, 2: seeds `00 01 10` = byte 0x18 (§6.2).
 * Block 1's seed set to 3 (`00 11 10` = 0x38): seeking code 2 finds
 * [first, last] = [0, 1] (seeds 0 < 2 ≤ 3), starts at block 0 and fails when
 * the skipped frames reach block 1: seed 3 ≥ m → SEED_RANGE (§6.3), at
 * record 2 (the block start), which poisons the walker. */
Test(kv03_seek_errors, seed_range_while_skipping)
{
    static const rec r[] = {{0x00, 1, "a"}, {0x00, 1, "b"}, {0x80, 2, "a"}, {0x80, 2, "b"}, {0xC0, 2, "a"}};
    uint8_t *base;
    rsv_surgeon s;
    rsv_kv03_file f;
    open_reseeded(r, 5, 0x18, 0x38, &base, &s, &f);
    uint64_t first, last;
    cr_assert_eq(rsv_kv03_first_block_of_code(&f, 2, &first, &last), RSV_OK);
    cr_assert(first == 0 && last == 1);

    rsv_kv03_frames fw;
    cr_assert_eq(rsv_kv03_frames_init(&fw, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_frames_seek_code(&fw, 2), RSV_ERR_SEED_RANGE);
    cr_assert_eq(fw.diag.status, RSV_ERR_SEED_RANGE);
    cr_assert_eq(fw.diag.record, 2);
    rsv_kv03_frame fr;
    int more;
    cr_assert_eq(rsv_kv03_frames_next(&fw, &fr, &more), RSV_ERR_POISONED);
    rsv_kv03_cursor c;
    cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_cursor_seek_code(&c, 2), RSV_ERR_SEED_RANGE);
    cr_assert_eq(rsv_kv03_cursor_diag(&c).status, RSV_ERR_SEED_RANGE);
    rsv_kv03_cursor_free(&c);
    rsv_kv03_close(&f);
    rsv_sg_free(&s);
    free(base);
}

/* Codes `0`, `10` (section 6 = [0, 1, 3]) with e_1 set to `e1`, resealed
 * and opened (open does not read sections 5-7). */
static void open_with_e1(uint64_t e1, uint8_t **base, rsv_surgeon *s, rsv_kv03_file *f)
{
    static const rec r[] = {{0x00, 1, "a"}, {0x80, 2, "a"}};
    size_t n;
    *base = write_file(r, 2, &n);
    rsv_sg_init(s, *base, n);
    size_t e = section_byte(s, 6);
    cr_assert(rsv_sg_get(s, e, 8) == 0 && rsv_sg_get(s, e + 8, 8) == 1 && rsv_sg_get(s, e + 16, 8) == 3);
    rsv_sg_set(s, e + 8, 8, e1);
    rsv_sg_reseal(s);
    cr_assert_eq(rsv_kv03_open(s->b, s->n, &k_pol, f), RSV_OK);
}

static void close_e1(uint8_t *base, rsv_surgeon *s, rsv_kv03_file *f)
{
    rsv_kv03_close(f);
    rsv_sg_free(s);
    free(base);
}

/* Codes `0`, `10`: section 6 = [0, 1, 3]. With e_1 = 5 > dictionary bits 3,
 * D_0 = [0, 5) and D_1 = [5, 3) leave section 5: rsv_kv03_code gives
 * SECTION_ENDPOINTS for both (kv03.h); the §6.3 check passes step 1 (e_0 = 0,
 * e_2 = 3 = dictionary bits) and fails step 2 (e_2 ≤ e_1): DICTIONARY_SHAPE. */
Test(kv03_seek_errors, code_offsets_outside_section_5)
{
    uint8_t *base;
    rsv_surgeon s;
    rsv_kv03_file f;
    open_with_e1(5, &base, &s, &f);
    rsv_view v;
    cr_assert_eq(rsv_kv03_code(&f, 0, &v), RSV_ERR_SECTION_ENDPOINTS);
    cr_assert_eq(rsv_kv03_code(&f, 1, &v), RSV_ERR_SECTION_ENDPOINTS);
    cr_assert_eq(rsv_kv03_dictionary_check(&f), RSV_ERR_DICTIONARY_SHAPE);
    close_e1(base, &s, &f);
}

/* The same file with e_1 = 0: D_0 = [0, 0) is empty and D_1 = [0, 3), both
 * inside section 5, so rsv_kv03_code returns them as they are (RSV_OK;
 * kv03.h: only offsets that leave section 5 give SECTION_ENDPOINTS before
 * the check), and the §6.3 check fails step 2 (e_1 <= e_0): DICTIONARY_SHAPE. */
Test(kv03_seek_errors, empty_code_inside_section_5)
{
    uint8_t *base;
    rsv_surgeon s;
    rsv_kv03_file f;
    open_with_e1(0, &base, &s, &f);
    rsv_view v;
    cr_assert_eq(rsv_kv03_code(&f, 0, &v), RSV_OK);
    cr_assert_eq(v.len, 0);
    cr_assert_eq(rsv_kv03_code(&f, 1, &v), RSV_OK);
    cr_assert(v.off == 0 && v.len == 3, "D_1 = [%llu, +%llu)", (unsigned long long)v.off, (unsigned long long)v.len);
    cr_assert_eq(rsv_kv03_dictionary_check(&f), RSV_ERR_DICTIONARY_SHAPE);
    close_e1(base, &s, &f);
}

/* The seek starts at block `first` (kv03.h): blocks before it are not read.
 * Codes `0`, `10`, `11` (m = 3, w = 2), W = 2, two records per code: blocks
 * 0, 1, 2 start with records 0, 2, 4, seeds `00 01 10` = byte 0x18 (§6.2).
 * Block 0's seed set to 3 (`11 01 10` = 0xD8). Seeking code 2: the lower
 * bound reads seeds 1 (1 < 2) and 2 (2 >= 2) only, so [first, last] = [1, 2];
 * the walk starts at block 1 and hands over record 4 (`11`, key "a") without
 * reading seed_0. A walk from record 0 reads seed_0 = 3 >= m at its first
 * block start: SEED_RANGE at record 0 (§6.3), so a seek that walked from
 * record 0 instead of block `first` would fail. */
Test(kv03_seek_errors, blocks_before_first_are_not_read)
{
    static const rec r[] = {{0x00, 1, "a"}, {0x00, 1, "b"}, {0x80, 2, "a"},
                            {0x80, 2, "b"}, {0xC0, 2, "a"}, {0xC0, 2, "b"}};
    uint8_t *base;
    rsv_surgeon s;
    rsv_kv03_file f;
    open_reseeded(r, 6, 0x18, 0xD8, &base, &s, &f);
    uint64_t first, last;
    cr_assert_eq(rsv_kv03_first_block_of_code(&f, 2, &first, &last), RSV_OK);
    cr_assert(first == 1 && last == 2);

    rsv_kv03_frames fw;
    rsv_kv03_frame fr;
    int more;
    cr_assert_eq(rsv_kv03_frames_init(&fw, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_frames_next(&fw, &fr, &more), RSV_ERR_SEED_RANGE); /* the walk from record 0 */
    cr_assert_eq(fw.diag.record, 0);
    cr_assert_eq(rsv_kv03_frames_seek_code(&fw, 2), RSV_OK);
    cr_assert_eq(rsv_kv03_frames_next(&fw, &fr, &more), RSV_OK);
    cr_assert(more);
    cr_assert_eq(fr.index, 4);
    cr_assert_eq(fr.code, 2);

    rsv_kv03_cursor c;
    rsv_kv03_entry e;
    cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_cursor_seek_code(&c, 2), RSV_OK);
    for (int i = 4; i < 6; i++) {
        cr_assert_eq(rsv_kv03_cursor_next(&c, &e, &more), RSV_OK, "record %d", i);
        cr_assert(more);
        cr_assert_eq(e.index, (uint64_t)i);
        cr_assert_eq(e.code, 2);
        cr_assert_eq(e.key_len, 1);
        cr_assert_eq(e.key[0], r[i].key[0]);
    }
    cr_assert_eq(rsv_kv03_cursor_next(&c, &e, &more), RSV_OK);
    cr_assert_eq(more, 0);
    rsv_kv03_cursor_free(&c);
    rsv_kv03_close(&f);
    rsv_sg_free(&s);
    free(base);
}

/* kv03.h: the lower bound bisects [a, b) = [0, nb) at mid = a + (b - a) / 2,
 * so its result is fixed for any seeds. Codes `0`, `10`, `11`, W = 2, eight
 * records (codes 0 0 1 1 2 2 2 2): blocks 0-3 start with codes 0, 1, 2, 2,
 * seeds `00 01 10 10` = byte 0x1A (§6.2). Rewritten to `00 10 00 00` = 0x20
 * (not nondecreasing). For j = 1 by hand: [0, 4) mid 2, seed 0 < 1 → [3, 4);
 * mid 3, seed 0 < 1 → [4, 4): b* = nb = 4, [first, last] = [3, 3]. For j = 2:
 * the same probes (seeds 0, 0 < 2): [3, 3]. For the written seeds (j = 1):
 * mid 2 (2 ≥ 1) → [0, 2); mid 1 (1 ≥ 1) → [0, 1); mid 0 (0 < 1) → b* = 1:
 * [0, 1]. */
Test(kv03_seek_errors, lower_bound_probes_are_fixed_for_any_seeds)
{
    static const rec r[] = {{0x00, 1, "a"}, {0x00, 1, "b"}, {0x80, 2, "a"}, {0x80, 2, "b"},
                            {0xC0, 2, "a"}, {0xC0, 2, "b"}, {0xC0, 2, "c"}, {0xC0, 2, "d"}};
    uint8_t *base;
    rsv_surgeon s;
    rsv_kv03_file f;
    uint64_t first, last;
    open_reseeded(r, 8, 0x1A, 0x1A, &base, &s, &f);
    cr_assert_eq(f.nb, 4);
    cr_assert_eq(rsv_kv03_first_block_of_code(&f, 1, &first, &last), RSV_OK);
    cr_assert(first == 0 && last == 1, "written seeds, j = 1: [%llu, %llu]", (unsigned long long)first,
              (unsigned long long)last);
    rsv_kv03_close(&f);
    rsv_sg_free(&s);
    free(base);

    open_reseeded(r, 8, 0x1A, 0x20, &base, &s, &f);
    for (uint64_t j = 1; j <= 2; j++) {
        cr_assert_eq(rsv_kv03_first_block_of_code(&f, j, &first, &last), RSV_OK);
        cr_assert(first == 3 && last == 3, "seeds 0 2 0 0, j = %llu: [%llu, %llu]", (unsigned long long)j,
                  (unsigned long long)first, (unsigned long long)last);
    }
    rsv_kv03_close(&f);
    rsv_sg_free(&s);
    free(base);
}

/* kv03.h: the seek parses the record it hands over (to learn its code), so a
 * failure of that record's §3.3 steps 1-5 is the seek's, with the walk's
 * status, record and bit, and poisons the walker. Every single-bit flip of
 * the data stream (resealed; open does not read section 0) whose walk from
 * record 0 fails first at record `target` is sought to code j: the frames
 * and cursor seeks must fail as that walk did. r: codes `0`, `10`; W = 2. */
static void seek_fails_as_the_walk(const rec *r, size_t nr, uint64_t j, uint64_t target)
{
    size_t n;
    uint8_t *base = write_file(r, nr, &n);
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(base, n, &k_pol, &f), RSV_OK);
    uint64_t extent = f.extent, cases = 0;
    rsv_kv03_close(&f);
    for (uint64_t p = 0; p < extent; p++) {
        rsv_surgeon s;
        rsv_sg_init(&s, base, n);
        rsv_sg_flip_data_bit(&s, p);
        rsv_sg_reseal(&s);
        cr_assert_eq(rsv_kv03_open(s.b, s.n, &k_pol, &f), RSV_OK, "bit %llu", (unsigned long long)p);
        rsv_kv03_frames fw;
        rsv_kv03_frame fr;
        int more = 1;
        rsv_status walk = RSV_OK;
        cr_assert_eq(rsv_kv03_frames_init(&fw, &f), RSV_OK);
        while (more && !(walk = rsv_kv03_frames_next(&fw, &fr, &more))) {}
        rsv_kv03_diag want = fw.diag;
        if (walk && want.record == target) {
            cases++;
            cr_assert_eq(rsv_kv03_frames_init(&fw, &f), RSV_OK);
            rsv_status st = rsv_kv03_frames_seek_code(&fw, j);
            cr_assert_eq(st, walk, "bit %llu: seek %s, the walk %s", (unsigned long long)p, rsv_status_name(st),
                         rsv_status_name(walk));
            cr_assert(fw.diag.status == walk && fw.diag.record == want.record && fw.diag.bit == want.bit,
                      "bit %llu: seek at record %llu bit %llu, the walk at %llu, %llu", (unsigned long long)p,
                      (unsigned long long)fw.diag.record, (unsigned long long)fw.diag.bit,
                      (unsigned long long)want.record, (unsigned long long)want.bit);
            cr_assert_eq(rsv_kv03_frames_next(&fw, &fr, &more), RSV_ERR_POISONED);
            rsv_kv03_cursor c;
            cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
            cr_assert_eq(rsv_kv03_cursor_seek_code(&c, j), walk, "bit %llu: cursor seek", (unsigned long long)p);
            rsv_kv03_diag cd = rsv_kv03_cursor_diag(&c);
            cr_assert(cd.status == walk && cd.record == want.record && cd.bit == want.bit, "bit %llu: cursor diag",
                      (unsigned long long)p);
            rsv_kv03_cursor_free(&c);
        }
        rsv_kv03_close(&f);
        rsv_sg_free(&s);
    }
    cr_assert_gt(cases, 0, "no flip fails the walk first at record %llu", (unsigned long long)target);
    free(base);
}

/* record 2 starts block 1 (seed 1 = code `10`): seeking code 1 walks from
 * block 0 and hands over record 2 */
Test(kv03_seek_errors, failure_of_the_block_start_handed_over)
{
    static const rec r[] = {{0x00, 1, "a"}, {0x00, 1, "b"}, {0x80, 2, "a"}};
    seek_fails_as_the_walk(r, 3, 1, 2);
}

/* record 1 changes to code `10` by a transition inside block 0 */
Test(kv03_seek_errors, failure_of_the_transition_record_handed_over)
{
    static const rec r[] = {{0x00, 1, "a"}, {0x80, 2, "a"}, {0x80, 2, "b"}};
    seek_fails_as_the_walk(r, 3, 1, 1);
}

/* kv03.h: rsv_kv03_dictionary_check is RSV_OK for m <= 1 and reads nothing.
 * The §12.3 file (m = 1) with section 6's end e_1 changed from its code's 8
 * bits (any value: nothing reads it) and resealed: still RSV_OK, and a
 * cursor still walks it. */
Test(kv03_seek_errors, one_code_dictionary_is_not_read)
{
    rsv_surgeon s;
    rsv_sg_init(&s, FILE_12_3, 360);
    size_t e1 = section_byte(&s, 6) + 8;
    for (uint64_t v = 0; v < 3; v++) {
        rsv_sg_set(&s, e1, 8, v == 2 ? UINT64_MAX : v * 1000);
        rsv_sg_reseal(&s);
        rsv_kv03_file f;
        cr_assert_eq(rsv_kv03_open(s.b, s.n, NULL, &f), RSV_OK);
        cr_assert_eq(f.m, 1);
        cr_assert_eq(rsv_kv03_dictionary_check(&f), RSV_OK, "e_1 variant %llu", (unsigned long long)v);
        rsv_kv03_cursor c;
        rsv_kv03_entry e;
        int more = 1, n = 0;
        cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
        while (more) {
            cr_assert_eq(rsv_kv03_cursor_next(&c, &e, &more), RSV_OK);
            n += more;
        }
        cr_assert_eq(n, 4);
        rsv_kv03_cursor_free(&c);
        rsv_kv03_close(&f);
    }
    rsv_sg_free(&s);
}

/* kv03.h: seeking code 0 hands over record 0, which a walk from record 0
 * parses without reading any block offset (§3.3 step 1 checks block starts
 * i > 0 only; block_offset(0) = 0 is scan step 2's check, not open's). Codes
 * `0`, `10`, W = 2: EF entry 0 (r_0 = 0) gets low bit 0 set, so
 * block_offset(0) = 1; the other entries keep their bits (entry 0's low bits
 * are section 1's bits [0, L), L >= 1 here). Open accepts it; the seek and a
 * walk from record 0 must give the same three records. A seek that restarted
 * at block_offset(0) would parse record 0 from bit 1. */
Test(kv03_seek_errors, seek_to_code_0_reads_no_block_offset)
{
    static const rec r[] = {{0x00, 1, "a"}, {0x00, 1, "b"}, {0x80, 2, "a"}};
    size_t n;
    uint8_t *base = write_file(r, 3, &n);
    rsv_surgeon s;
    rsv_sg_init(&s, base, n);
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(s.b, s.n, &k_pol, &f), RSV_OK);
    cr_assert_geq(f.L, 1, "the test needs low bits: L = %u", (unsigned)f.L);
    uint64_t bo;
    cr_assert_eq(rsv_kv03_block_offset(&f, 0, &bo), RSV_OK);
    cr_assert_eq(bo, 0);
    rsv_kv03_close(&f);
    size_t low = section_byte(&s, 1);
    cr_assert_eq(s.b[low] & 1, 0);
    rsv_sg_xor(&s, low, 1);
    rsv_sg_reseal(&s);
    cr_assert_eq(rsv_kv03_open(s.b, s.n, &k_pol, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_block_offset(&f, 0, &bo), RSV_OK);
    cr_assert_eq(bo, 1);

    for (int how = 0; how < 2; how++) { /* cursor: init only / init + seek to code 0 */
        rsv_kv03_cursor c;
        rsv_kv03_entry e;
        int more;
        cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
        if (how) cr_assert_eq(rsv_kv03_cursor_seek_code(&c, 0), RSV_OK);
        for (uint64_t i = 0; i < 3; i++) {
            cr_assert_eq(rsv_kv03_cursor_next(&c, &e, &more), RSV_OK, "how %d record %llu", how,
                         (unsigned long long)i);
            cr_assert(more);
            cr_assert_eq(e.index, i);
            cr_assert_eq(e.code, r[i].code_bits - 1); /* codes `0`, `10`: index = length - 1 */
            cr_assert(e.key_len == 1 && e.key[0] == r[i].key[0], "how %d record %llu", how, (unsigned long long)i);
        }
        cr_assert_eq(rsv_kv03_cursor_next(&c, &e, &more), RSV_OK);
        cr_assert_eq(more, 0);
        rsv_kv03_cursor_free(&c);

        rsv_kv03_frames fw;
        rsv_kv03_frame fr;
        cr_assert_eq(rsv_kv03_frames_init(&fw, &f), RSV_OK);
        if (how) cr_assert_eq(rsv_kv03_frames_seek_code(&fw, 0), RSV_OK);
        cr_assert_eq(rsv_kv03_frames_next(&fw, &fr, &more), RSV_OK);
        cr_assert(more && fr.index == 0 && fr.start == 0, "how %d: frame 0 starts at bit %llu", how,
                  (unsigned long long)fr.start);
    }
    rsv_kv03_close(&f);
    rsv_sg_free(&s);
    free(base);
}

/* kv03.h: a code index j >= max(m, 1) is RSV_ERR_INVALID_ARGUMENT, checked
 * before the walker is restarted, so it is not a failure of the walk: the
 * walker and the cursor go on from where they were, unpoisoned. Codes `0`,
 * `10` (m = 2); each is stopped after record 0 and asked for j = 2, 3 and
 * 2^64 - 1, then must hand over records 1 and 2 as a plain walk does. */
Test(kv03_seek_errors, code_past_the_dictionary_leaves_the_walk_alone)
{
    const rec r[] = {{0x00, 1, "a"}, {0x00, 1, "b"}, {0x80, 2, "a"}};
    const uint64_t bad[] = {2, 3, UINT64_MAX};
    size_t len;
    uint8_t *bytes = write_file(r, 3, &len);
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(bytes, len, &k_pol, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_code_count(&f), 2);
    int more;
    rsv_kv03_frames fw;
    rsv_kv03_frame fr;
    rsv_kv03_cursor c;
    rsv_kv03_entry e;
    cr_assert_eq(rsv_kv03_frames_init(&fw, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_frames_next(&fw, &fr, &more), RSV_OK);
    cr_assert(more && fr.index == 0);
    cr_assert_eq(rsv_kv03_cursor_next(&c, &e, &more), RSV_OK);
    cr_assert(more && e.index == 0);
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        cr_assert_eq(rsv_kv03_frames_seek_code(&fw, bad[k]), RSV_ERR_INVALID_ARGUMENT, "frames, j = %llu",
                     (unsigned long long)bad[k]);
        cr_assert_eq(rsv_kv03_cursor_seek_code(&c, bad[k]), RSV_ERR_INVALID_ARGUMENT, "cursor, j = %llu",
                     (unsigned long long)bad[k]);
    }
    cr_assert_eq(rsv_kv03_frames_diag(&fw).status, RSV_OK, "frames poisoned by an argument error");
    cr_assert_eq(rsv_kv03_cursor_diag(&c).status, RSV_OK, "cursor poisoned by an argument error");
    for (uint64_t i = 1; i < 3; i++) {
        cr_assert_eq(rsv_kv03_frames_next(&fw, &fr, &more), RSV_OK, "frames record %llu", (unsigned long long)i);
        cr_assert(more && fr.index == i && fr.code == r[i].code_bits - 1, "frames record %llu: index %llu",
                  (unsigned long long)i, (unsigned long long)fr.index);
        cr_assert_eq(rsv_kv03_cursor_next(&c, &e, &more), RSV_OK, "cursor record %llu", (unsigned long long)i);
        cr_assert(more && e.index == i && e.code == r[i].code_bits - 1);
        cr_assert(e.key_len == 1 && e.key[0] == r[i].key[0], "cursor record %llu: the key", (unsigned long long)i);
    }
    rsv_kv03_cursor_free(&c);
    rsv_kv03_close(&f);
    free(bytes);
}

/* A seek that walks to the end and fails the terminal check reports the
 * last record, as the walk does (seek.c: fw->i - 1), also when that record
 * is record 0. Hand-built (kv03_build.h): W = 2, codes `0`, `10` (m = 2),
 * one record "a"→"x" with code 0 (seed 0): block start R = 1 `010`, S = 8
 * `0001001`, `01100001`, value `1 010 01111000`: 30 bits, cont_0 = 1 + 8 = 9.
 * With terminal 9 seek_code(1) finds no record; with terminal 10 the walk
 * and both seeks fail TERMINAL_MISMATCH at record 0, bit 30, and the oracle
 * agrees with the codec's walk. */
Test(kv03_seek_errors, terminal_mismatch_of_a_one_record_file_is_record_0)
{
    static const char *codes[2] = {"0", "10"};
    static const uint64_t offs[1] = {0}, seeds[1] = {0};
    for (uint64_t terminal = 9; terminal <= 10; terminal++) {
        rsv_kv03b_spec sp = {{RSV_BACKSPACE_EG, 0, 2, 3}, 1, "010 0001001 01100001 1 010 01111000", offs,
                             terminal, 0, 0, codes, 2, seeds};
        uint8_t *b;
        size_t n;
        cr_assert_eq(rsv_kv03b_build(&sp, &b, &n), 0);
        rsv_kv03_file f;
        cr_assert_eq(rsv_kv03_open(b, n, NULL, &f), RSV_OK);
        cr_assert_eq(rsv_kv03_code_count(&f), 2);
        rsv_status want = terminal == 9 ? RSV_OK : RSV_ERR_TERMINAL_MISMATCH;
        rsv_kv03_frames fw;
        rsv_kv03_frame fr;
        int more = 1;
        cr_assert_eq(rsv_kv03_frames_init(&fw, &f), RSV_OK);
        cr_assert_eq(rsv_kv03_frames_next(&fw, &fr, &more), want, "terminal %llu: walk", (unsigned long long)terminal);
        if (want) {
            cr_assert(fw.diag.record == 0 && fw.diag.bit == 30, "walk at record %llu bit %llu",
                      (unsigned long long)fw.diag.record, (unsigned long long)fw.diag.bit);
            rsv_kv03d_report rep;
            rsv_kv03d_report_init(&rep);
            cr_assert(rsv_kv03d_file(b, n, NULL, NULL, 0, &rep), "codec and oracle differ: %s", rep.msg);
        }
        cr_assert_eq(rsv_kv03_frames_seek_code(&fw, 1), want, "terminal %llu: frames seek", (unsigned long long)terminal);
        if (want)
            cr_assert(fw.diag.status == want && fw.diag.record == 0 && fw.diag.bit == 30,
                      "frames seek at record %llu bit %llu", (unsigned long long)fw.diag.record,
                      (unsigned long long)fw.diag.bit);
        else {
            cr_assert_eq(rsv_kv03_frames_next(&fw, &fr, &more), RSV_OK);
            cr_assert_eq(more, 0, "no record has code 1");
        }
        rsv_kv03_cursor c;
        cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
        cr_assert_eq(rsv_kv03_cursor_seek_code(&c, 1), want, "terminal %llu: cursor seek", (unsigned long long)terminal);
        rsv_kv03_diag cd = rsv_kv03_cursor_diag(&c);
        if (want) cr_assert(cd.status == want && cd.record == 0 && cd.bit == 30, "cursor seek at record %llu bit %llu",
                            (unsigned long long)cd.record, (unsigned long long)cd.bit);
        rsv_kv03_cursor_free(&c);
        rsv_kv03_close(&f);
        free(b);
    }
}

/* The frames walker or the cursor behind one interface, so that one test
 * body checks both seeks. */
typedef struct walker {
    int cursor;
    rsv_kv03_frames fw;
    rsv_kv03_cursor c;
} walker;

static rsv_status w_init(walker *w, const rsv_kv03_file *f)
{
    return w->cursor ? rsv_kv03_cursor_init(&w->c, f) : rsv_kv03_frames_init(&w->fw, f);
}

/* The next record's index in *index when *more. */
static rsv_status w_next(walker *w, uint64_t *index, int *more)
{
    rsv_kv03_frame fr;
    rsv_kv03_entry e;
    rsv_status st = w->cursor ? rsv_kv03_cursor_next(&w->c, &e, more) : rsv_kv03_frames_next(&w->fw, &fr, more);
    if (st == RSV_OK && *more) *index = w->cursor ? e.index : fr.index;
    return st;
}

static rsv_status w_seek(walker *w, uint64_t j)
{
    return w->cursor ? rsv_kv03_cursor_seek_code(&w->c, j) : rsv_kv03_frames_seek_code(&w->fw, j);
}

static rsv_status w_status(walker *w)
{
    return w->cursor ? rsv_kv03_cursor_diag(&w->c).status : rsv_kv03_frames_diag(&w->fw).status;
}

/* kv03.h: on a one-code file (m = 1, the §12.3 file) and the empty file
 * (m = 0) the only code index is 0. Seeking code 0 (rsv_kv03_frames_seek_code
 * and rsv_kv03_cursor_seek_code) restarts the walk at record 0; j = 1 is
 * RSV_ERR_INVALID_ARGUMENT and leaves the walk where it was, unpoisoned (as
 * code_past_the_dictionary_leaves_the_walk_alone for m = 2). */
Test(kv03_seek_errors, one_code_files_seek_only_code_0)
{
    const uint8_t *files[2] = {FILE_12_3, FILE_EMPTY};
    const size_t sizes[2] = {360, 320};
    const uint64_t records[2] = {4, 0};
    for (int k = 0; k < 4; k++) {
        int file = k / 2;
        walker w;
        memset(&w, 0, sizeof w);
        w.cursor = k % 2;
        const char *what = w.cursor ? "cursor" : "frames";
        rsv_kv03_file f;
        cr_assert_eq(rsv_kv03_open(files[file], sizes[file], NULL, &f), RSV_OK);
        cr_assert_eq(f.m, (uint64_t)(1 - file), "file %d: m", file);
        uint64_t index = UINT64_MAX;
        int more = 1;
        cr_assert_eq(w_init(&w, &f), RSV_OK);
        if (records[file]) {
            cr_assert_eq(w_next(&w, &index, &more), RSV_OK);
            cr_assert(more && index == 0);
        }
        cr_assert_eq(w_seek(&w, 1), RSV_ERR_INVALID_ARGUMENT, "file %d, %s: seek 1", file, what);
        cr_assert_eq(w_status(&w), RSV_OK, "file %d, %s: poisoned by an argument error", file, what);
        if (records[file]) { /* the walk goes on at record 1 */
            cr_assert_eq(w_next(&w, &index, &more), RSV_OK);
            cr_assert(more && index == 1, "file %d, %s: record %llu after the refused seek", file, what,
                      (unsigned long long)index);
        }
        cr_assert_eq(w_seek(&w, 0), RSV_OK, "file %d, %s: seek 0", file, what);
        uint64_t i = 0;
        for (; w_next(&w, &index, &more) == RSV_OK && more; i++)
            cr_assert_eq(index, i, "file %d, %s: record %llu after seek 0", file, what, (unsigned long long)index);
        cr_assert_eq(w_status(&w), RSV_OK);
        cr_assert_eq(i, records[file], "file %d, %s: %llu records after seek 0", file, what, (unsigned long long)i);
        if (w.cursor) rsv_kv03_cursor_free(&w.c);
        rsv_kv03_close(&f);
    }
}
