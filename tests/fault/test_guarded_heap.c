/* The guarded heap (fault.h): every allocation is its own mapping whose
 * last byte lies right before a PROT_NONE page. */
#define _DEFAULT_SOURCE /* mkdtemp */
#define _POSIX_C_SOURCE 200809L
#include "fault.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>


static rsv_record guarded_recs[4];

/* guarded mode on, and §12's records copied into guarded buffers */
static void guard_on(void)
{
    cr_assert_eq(ngblocks, 0);
    guarded = 1;
    for (int i = 0; i < 4; i++) {
        rsv_record r = RECS[i];
        uint8_t *k = malloc(r.key_len);
        memcpy(k, r.key, r.key_len);
        r.key = k;
        if (r.value.len) {
            uint8_t *v = malloc(r.value.len);
            memcpy(v, r.value.data, r.value.len);
            r.value.data = v;
        }
        guarded_recs[i] = r;
    }
    recs = guarded_recs;
}

static void guard_off(void)
{
    for (int i = 0; i < 4; i++) {
        free((void *)guarded_recs[i].key);
        if (guarded_recs[i].value.len) free((void *)guarded_recs[i].value.data);
    }
    recs = NULL;
    cr_assert_eq(ngblocks, 0, "%zu guarded blocks not freed", ngblocks);
    guarded = 0;
}

/* one operation, no failure injected, in guarded mode: the §12.3 file */
static void guarded_run(operation op, int path_op, const char *what)
{
    char dir[] = "/tmp/rsv_fault_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/out.kv", dir);
    guard_on();
    uint8_t *out = NULL;
    size_t n = 0;
    rsv_status st = op(dir, &out, &n);
    cr_assert_eq(st, RSV_OK, "%s: %s", what, rsv_status_name(st));
    if (path_op) {
        expect_path_12_3(path, what);
        cr_assert_eq(unlink(path), 0);
    } else {
        expect_file_12_3(out, n, what);
        free(out);
    }
    guard_off();
    cr_assert_eq(rmdir(dir), 0);
}

Test(guarded_heap, path_writer) { guarded_run(op_path_writer, 1, "path writer"); }
Test(guarded_heap, memory_writer) { guarded_run(op_memory_writer, 0, "in-memory writer"); }
Test(guarded_heap, merge) { guarded_run(op_merge, 0, "merge"); }
Test(guarded_heap, merge_path) { guarded_run(op_merge_path, 1, "merge to a path"); }
/* three inputs: the tree's n slots end the heads' block, right before the
 * PROT_NONE page, so a slot written past them faults */
Test(guarded_heap, merge_tree) { guarded_run(op_merge3, 0, "three-way merge (tree of losers)"); }

/* One record (key of L bytes, 1-byte value) through rsv_kv03_writer_add,
 * for L = 1…300: the data stream (KV03.md §3.2 with the default policy,
 * C0 = `0`, record 0: EG0(1) `010`, EG0(8L), 8L key bits, `1` EG0(1) `010`,
 * 8 value bits) takes 3 + eg0(8L) + 8L + 1 + 3 + 8 bits, so its byte length
 * runs through 4…305 (all but 7 and 68: eg0 grows by 2 there), 64, 128 and
 * 256 included, and at some L it fills the writer's growable buffer to its
 * last byte (with 64-byte first growth and doubling, the 64-byte stream). In guarded mode that buffer
 * ends right before a PROT_NONE page, so a copy of the data stream into the
 * file that reads one byte more faults. Each length is written twice: by
 * rsv_kv03_writer_add (the field-by-field path) and by _add_span (the fast
 * path of spans, which reserves the record's length computed in advance and
 * stores 8 bytes at a time: a length computed short lets those stores run
 * past the buffer's end at the lengths whose record ends in its last 8
 * bytes, 512 − 288 − 8 past the header room). The buffer's capacity after
 * the record holds the header room and the data, and is at most twice
 * that plus 16 bytes of slack (kv03.h, buffer_capacity). Each file reads
 * back (open, scan, cursor) as the record written. */
Test(guarded_heap, memory_writer_data_stream_of_every_length)
{
    int run = 0, pow2 = 0;
    for (size_t t = 0; t < 600; t++) {
        size_t L = 1 + t / 2;
        int span = t % 2;
        guarded = 1;
        uint8_t *key = malloc(L), *val = malloc(1);
        cr_assert(key && val);
        for (size_t i = 0; i < L; i++) key[i] = (uint8_t)('a' + i % 26);
        val[0] = 0x5a;
        rsv_kv03_policy p = rsv_kv03_policy_default();
        rsv_kv03_writer w;
        uint8_t *out = NULL;
        size_t n = 0;
        cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
        rsv_value v = {RSV_VALUE_PRESENT, val, 1};
        rsv_value_span vs = {RSV_VALUE_PRESENT, 1, rsv_view_make(val, 0, 8)};
        rsv_status st = span ? rsv_kv03_writer_add_span(&w, key, L, &vs) : rsv_kv03_writer_add(&w, key, L, v);
        cr_assert_eq(st, RSV_OK, "L = %zu, span %d", L, span);
        unsigned e = 1; /* eg0(8L) = 2 bitlen(8L + 1) - 1 */
        while ((UINT64_C(1) << e) <= 8 * L + 1) e++;
        uint64_t extent = 3 + (2 * e - 1) + 8 * L + 1 + 3 + 8;
        rsv_kv03_writer_stats ws;
        rsv_kv03_writer_get_stats(&w, &ws);
        uint64_t must = 288 + (extent + 7) / 8 + 16; /* kv03.h, buffer_capacity */
        cr_assert(ws.buffer_capacity >= must - 16 && ws.buffer_capacity <= 2 * must,
                  "L = %zu, span %d: a buffer of %llu bytes for %llu", L, span,
                  (unsigned long long)ws.buffer_capacity, (unsigned long long)must);
        cr_assert_eq(rsv_kv03_writer_finish(&w, &out, &n), RSV_OK, "L = %zu", L);
        rsv_kv03_writer_free(&w);
        guarded = 0; /* the checks below allocate through libc */
        rsv_kv03_file f;
        cr_assert_eq(rsv_kv03_open(out, n, NULL, &f), RSV_OK, "L = %zu", L);
        cr_assert_eq(f.extent, extent, "L = %zu: extent %llu", L, (unsigned long long)f.extent);
        pow2 += (extent + 7) / 8 == 64 || (extent + 7) / 8 == 128 || (extent + 7) / 8 == 256;
        rsv_kv03_diag dg;
        cr_assert_eq(rsv_kv03_scan(&f, &dg), RSV_OK, "L = %zu", L);
        rsv_kv03_cursor c;
        rsv_kv03_entry en;
        int more = 0;
        cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
        cr_assert_eq(rsv_kv03_cursor_record(&c, &en, &more), RSV_OK);
        cr_assert(more);
        cr_assert_eq(en.key_len, L);
        cr_assert(memcmp(en.key, key, L) == 0, "L = %zu: key", L);
        cr_assert_eq(en.value.kind, RSV_VALUE_PRESENT);
        cr_assert_eq(en.value.len, 1);
        cr_assert_eq(en.value.data[0], 0x5a);
        cr_assert_eq(rsv_kv03_cursor_record(&c, &en, &more), RSV_OK);
        cr_assert(!more);
        rsv_kv03_cursor_free(&c);
        guarded = 1;
        free(out);
        free(key);
        free(val);
        guarded = 0;
        cr_assert_eq(ngblocks, 0, "L = %zu: %zu guarded blocks not freed", L, ngblocks);
        run++;
    }
    cr_assert_eq(run, 600);
    cr_assert_eq(pow2, 6);
}

/* N = nb·15 records (default policy, W = 15) for nb = 1…33 blocks, each a
 * distinct 2-byte big-endian key with a tombstone, written with every heap
 * allocation flush against a PROT_NONE page: the block-offset table grows by
 * doubling from 16 entries, so nb = 16 and 32 fill it exactly, and finish's
 * EF needs one entry more (r_nb, KV03.md §4) than the blocks: a store past
 * the table faults. Each file reads back (open, scan, cursor) as the
 * records written. */
Test(guarded_heap, memory_writer_block_counts_at_table_capacity)
{
    int run = 0;
    for (unsigned nb = 1; nb <= 33; nb++) {
        unsigned N = 15 * nb;
        guarded = 1;
        rsv_kv03_policy p = rsv_kv03_policy_default();
        rsv_kv03_writer w;
        uint8_t *out = NULL;
        size_t n = 0;
        cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
        for (unsigned i = 0; i < N; i++) {
            uint8_t key[2] = {(uint8_t)(i >> 8), (uint8_t)i};
            rsv_value v = {RSV_VALUE_TOMBSTONE, NULL, 0};
            cr_assert_eq(rsv_kv03_writer_add(&w, key, 2, v), RSV_OK, "nb = %u, record %u", nb, i);
        }
        cr_assert_eq(rsv_kv03_writer_finish(&w, &out, &n), RSV_OK, "nb = %u", nb);
        rsv_kv03_writer_free(&w);
        guarded = 0;
        rsv_kv03_file f;
        rsv_kv03_diag dg;
        cr_assert_eq(rsv_kv03_open(out, n, NULL, &f), RSV_OK, "nb = %u", nb);
        cr_assert_eq(rsv_kv03_scan(&f, &dg), RSV_OK, "nb = %u", nb);
        rsv_kv03_cursor c;
        rsv_kv03_entry en;
        int more = 0;
        unsigned i = 0;
        cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
        for (;; i++) {
            cr_assert_eq(rsv_kv03_cursor_next(&c, &en, &more), RSV_OK, "nb = %u, record %u", nb, i);
            if (!more) break;
            cr_assert_eq(en.key_len, 2);
            cr_assert(en.key[0] == (uint8_t)(i >> 8) && en.key[1] == (uint8_t)i, "nb = %u, record %u", nb, i);
            cr_assert_eq(en.value.kind, RSV_VALUE_TOMBSTONE);
        }
        cr_assert_eq(i, N, "nb = %u: %u records read", nb, i);
        rsv_kv03_cursor_free(&c);
        guarded = 1;
        free(out);
        guarded = 0;
        cr_assert_eq(ngblocks, 0, "nb = %u: %zu guarded blocks not freed", nb, ngblocks);
        run++;
    }
    cr_assert_eq(run, 33);
}

/* A stream (§10) of §12's records written from guarded keys and values and
 * read back: the same four records (the reader defines nothing here; a
 * wrong previous key in the writer shows as a different key read back, or
 * as RSV_ERR_UNSORTED). */
Test(guarded_heap, stream_writer_roundtrip)
{
    guard_on();
    rsv_writer out;
    rsv_writer_init(&out);
    rsv_stream_writer sw;
    cr_assert_eq(rsv_stream_writer_init(&sw, &out, NULL, 0), RSV_OK);
    for (int i = 0; i < 4; i++)
        cr_assert_eq(rsv_stream_writer_add(&sw, recs[i].key, recs[i].key_len, recs[i].value), RSV_OK);
    uint64_t E = rsv_stream_writer_extent(&sw);
    rsv_stream_writer_free(&sw);
    rsv_stream_reader sr;
    cr_assert_eq(rsv_stream_reader_init(&sr, rsv_view_make(rsv_writer_data(&out), 0, E), NULL, 0), RSV_OK);
    rsv_stream_record rec;
    int more = 0, i = 0;
    for (;; i++) {
        cr_assert_eq(rsv_stream_reader_next(&sr, &rec, &more), RSV_OK);
        if (!more) break;
        cr_assert_lt(i, 4);
        cr_assert_eq(rec.key_len, RECS[i].key_len, "record %d", i);
        cr_assert(memcmp(rec.key, RECS[i].key, rec.key_len) == 0, "record %d: key", i);
        cr_assert_eq(rec.value.kind, RECS[i].value.kind, "record %d", i);
        cr_assert_eq(rec.value.len, RECS[i].value.len, "record %d", i);
        if (rec.value.len) cr_assert(memcmp(rec.value.data, RECS[i].value.data, rec.value.len) == 0);
    }
    cr_assert_eq(i, 4);
    rsv_stream_reader_free(&sr);
    rsv_writer_free(&out);
    guard_off();
}

/* A writer's code list (codec/src/code_list.h) keeps its first code in the
 * rsv__codes struct itself (bits_in, ends_in, first_in; first_in is the
 * struct's last member) and moves the arrays to the heap when a second code
 * arrives. In guarded mode the struct (calloc) ends right before a PROT_NONE
 * page, so a move that reads one byte past an inline array faults. Two
 * records under two codes, for code lengths L = 1 and L = 300 (two 300-bit
 * codes need 76 dictionary bytes, more than bits_in's 72, so bits_in moves
 * too): A = L zeros, B = a one then L - 1 zeros (prefix-free, A < B), keys
 * "a" and "b", tombstones. Read back (open, scan, cursor), the records come
 * back with their keys and code indices 0 and 1 (KV03.md §6: the dictionary
 * in code order), and the dictionary holds 2 codes of 2L bits. */
Test(guarded_heap, memory_writer_second_code_moves_the_inline_code_list)
{
    static const uint64_t lens[] = {1, 300};
    int run = 0;
    for (size_t t = 0; t < sizeof lens / sizeof *lens; t++) {
        uint64_t L = lens[t];
        uint8_t a[64] = {0}, b[64] = {0x80};
        guarded = 1;
        rsv_kv03_policy p = rsv_kv03_policy_default();
        rsv_kv03_writer w;
        uint8_t *out = NULL;
        size_t n = 0;
        rsv_value v = {RSV_VALUE_TOMBSTONE, NULL, 0};
        cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
        cr_assert_eq(rsv_kv03_writer_add_coded(&w, a, L, "a", 1, v), RSV_OK, "L = %llu", (unsigned long long)L);
        cr_assert_eq(rsv_kv03_writer_add_coded(&w, b, L, "b", 1, v), RSV_OK, "L = %llu", (unsigned long long)L);
        cr_assert_eq(rsv_kv03_writer_finish(&w, &out, &n), RSV_OK, "L = %llu", (unsigned long long)L);
        rsv_kv03_writer_free(&w);
        guarded = 0;
        rsv_kv03_file f;
        rsv_kv03_diag dg;
        cr_assert_eq(rsv_kv03_open(out, n, NULL, &f), RSV_OK, "L = %llu", (unsigned long long)L);
        cr_assert_eq(f.m, 2);
        cr_assert_eq(f.dict_bits, 2 * L);
        cr_assert_eq(rsv_kv03_scan(&f, &dg), RSV_OK, "L = %llu", (unsigned long long)L);
        rsv_kv03_cursor c;
        rsv_kv03_entry en;
        int more = 0;
        cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
        for (uint64_t i = 0; i < 2; i++) {
            cr_assert_eq(rsv_kv03_cursor_next(&c, &en, &more), RSV_OK);
            cr_assert(more);
            cr_assert(en.key_len == 1 && en.key[0] == "ab"[i], "L = %llu, record %llu: key",
                      (unsigned long long)L, (unsigned long long)i);
            cr_assert_eq(en.code, i, "L = %llu, record %llu: code", (unsigned long long)L, (unsigned long long)i);
            cr_assert_eq(en.value.kind, RSV_VALUE_TOMBSTONE);
        }
        cr_assert_eq(rsv_kv03_cursor_next(&c, &en, &more), RSV_OK);
        cr_assert(!more);
        rsv_kv03_cursor_free(&c);
        guarded = 1;
        free(out);
        guarded = 0;
        cr_assert_eq(ngblocks, 0, "L = %llu: %zu guarded blocks not freed", (unsigned long long)L, ngblocks);
        run++;
    }
    cr_assert_eq(run, 2);
}

/* The writer's code list grows its heap arrays again past 16 codes
 * (code_list.c regrow: inline -> heap at the 2nd code, heap -> realloc at
 * the 17th and 33rd). 40 codes of 8 bits (bytes 0x00..0x27, prefix-free),
 * key i under code i, written on the guarded heap: every block must be
 * freed (a regrow that copies instead of resizing leaks the old array) and
 * the file reads back. */
Test(guarded_heap, memory_writer_code_list_regrows_on_the_heap)
{
    enum { M = 40 };
    guarded = 1;
    rsv_kv03_policy p = rsv_kv03_policy_default();
    rsv_kv03_writer w;
    uint8_t *out = NULL;
    size_t n = 0;
    rsv_value v = {RSV_VALUE_TOMBSTONE, NULL, 0};
    cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
    for (unsigned i = 0; i < M; i++) {
        uint8_t code[1] = {(uint8_t)i}, key[1] = {(uint8_t)('A' + i)};
        cr_assert_eq(rsv_kv03_writer_add_coded(&w, code, 8, (const char *)key, 1, v), RSV_OK, "code %u", i);
    }
    cr_assert_eq(rsv_kv03_writer_finish(&w, &out, &n), RSV_OK);
    rsv_kv03_writer_free(&w);
    guarded = 0;
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(out, n, NULL, &f), RSV_OK);
    cr_assert_eq(f.m, M);
    cr_assert_eq(f.dict_bits, 8 * M);
    rsv_kv03_cursor c;
    rsv_kv03_entry en;
    int more = 0;
    cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
    for (unsigned i = 0; i < M; i++) {
        cr_assert_eq(rsv_kv03_cursor_next(&c, &en, &more), RSV_OK);
        cr_assert(more);
        cr_assert(en.key_len == 1 && en.key[0] == 'A' + i, "record %u: key", i);
        cr_assert_eq(en.code, i, "record %u: code", i);
    }
    cr_assert_eq(rsv_kv03_cursor_next(&c, &en, &more), RSV_OK);
    cr_assert(!more);
    rsv_kv03_cursor_free(&c);
    guarded = 1;
    free(out);
    guarded = 0;
    cr_assert_eq(ngblocks, 0, "%zu guarded blocks not freed", ngblocks);
}

/* The merge's code union (codec/src/merge_codes.c) sorts its entries on the
 * stack for up to 8 input codes and in one heap array of 2t entries (the
 * entries, then the sort's scratch) beyond. A file of 9 records under 9
 * codes (`0000` ... `1000`, key 'a' + j and a 1-byte value j under code j),
 * merged with itself in guarded mode: t = 18, the array ends right before a
 * PROT_NONE page, so a sort pass that reads past the scratch faults. The
 * output (read back: open, scan, cursor) holds the 9 records once each, in
 * code order, with dictionary indices 0..8 (KV03.md §6, §8). */
Test(guarded_heap, merge_of_more_codes_than_the_stack_sort_holds)
{
    uint8_t codes[9], keys[9], vals[9];
    rsv_record r[9];
    for (unsigned j = 0; j < 9; j++) {
        codes[j] = (uint8_t)(j << 4), keys[j] = (uint8_t)('a' + j), vals[j] = (uint8_t)j;
        r[j] = (rsv_record){keys + j, 1, {RSV_VALUE_PRESENT, vals + j, 1}, codes + j, 4};
    }
    rsv_kv03_policy p = rsv_kv03_policy_default();
    uint8_t *file = NULL, *out = NULL;
    size_t len = 0, n = 0;
    cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, r, 9, &file, &len), RSV_OK);
    rsv_kv03_file a, b;
    cr_assert_eq(rsv_kv03_open(file, len, NULL, &a), RSV_OK);
    cr_assert_eq(rsv_kv03_open(file, len, NULL, &b), RSV_OK);
    cr_assert_eq(a.m, 9);
    const rsv_kv03_file *in[2] = {&a, &b};
    guarded = 1;
    rsv_status st = rsv_merge_files(in, 2, 0, &out, &n);
    guarded = 0;
    cr_assert_eq(st, RSV_OK, "%s", rsv_status_name(st));
    rsv_kv03_file f;
    rsv_kv03_diag dg;
    cr_assert_eq(rsv_kv03_open(out, n, NULL, &f), RSV_OK);
    cr_assert_eq(f.m, 9);
    cr_assert_eq(f.N, 9);
    cr_assert_eq(rsv_kv03_scan(&f, &dg), RSV_OK);
    rsv_kv03_cursor c;
    rsv_kv03_entry en;
    int more = 0;
    cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
    for (unsigned j = 0; j < 9; j++) {
        cr_assert_eq(rsv_kv03_cursor_record(&c, &en, &more), RSV_OK);
        cr_assert(more);
        cr_assert(en.key_len == 1 && en.key[0] == 'a' + j, "record %u: key", j);
        cr_assert_eq(en.code, j, "record %u: code", j);
        cr_assert(en.value.kind == RSV_VALUE_PRESENT && en.value.len == 1 && en.value.data[0] == j, "record %u", j);
    }
    cr_assert_eq(rsv_kv03_cursor_record(&c, &en, &more), RSV_OK);
    cr_assert(!more);
    rsv_kv03_cursor_free(&c);
    rsv_kv03_close(&a);
    rsv_kv03_close(&b);
    guarded = 1;
    free(out);
    guarded = 0;
    cr_assert_eq(ngblocks, 0, "%zu guarded blocks not freed", ngblocks);
    free(file);
}
