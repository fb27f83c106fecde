/* Warm reuse allocates nothing (fault.h): the cursor's value buffer, the
 * writer's code list and the reusable scanner
 * (rsv_kv03_scanner, kv03.h: "scanning again allocates nothing once the
 * buffers are large enough"), counted by the allocation wrappers. */
#include "fault.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* After arm_alloc(0) and one call whose status is st: the call succeeded
 * and made no allocation at all (disarms). */
static void expect_made_none(rsv_status st, const char *what)
{
    long n = alloc_count;
    int failed = alloc_failed;
    disarm_alloc();
    cr_assert_eq(st, RSV_OK, "%s: %s", what, rsv_status_name(st));
    cr_assert_eq(n, 0, "%s: %ld allocations", what, n);
    cr_assert(!failed, "%s: an allocation was tried", what);
}

/* A file of 15 records with W = 1: nb = 15 blocks, so scan step 7 rebuilds
 * nb + 1 = 16 block offsets, exactly the scratch's first capacity (16
 * entries), and 32 bytes of EF sections: the boundary of "large enough". */
Test(fault_reuse, scanner_rescan_at_exact_capacity_allocates_nothing)
{
    enum { N = 15 };
    char kname[N][4];
    rsv_record rec[N];
    for (int i = 0; i < N; i++) {
        snprintf(kname[i], sizeof kname[i], "k%02d", i);
        rec[i] = (rsv_record){(const uint8_t *)kname[i], 3, rsv_value_tombstone(), NULL, 0};
    }
    rsv_kv03_policy p = rsv_kv03_policy_default();
    p.W = 1;
    uint8_t *file;
    size_t len;
    cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, rec, N, &file, &len), RSV_OK);
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(file, len, NULL, &f), RSV_OK);
    rsv_kv03_scanner s;
    rsv_kv03_scanner_init(&s);
    cr_assert_eq(rsv_kv03_scanner_scan(&s, &f, NULL), RSV_OK);
    /* the premise, and kv03.h's growth rule (from 16 by doubling to the
     * least capacity that holds the need): 16 offsets in a scratch of 16,
     * and the rebuilt sections 1-4 (8 + 8 + 16 + 0 = 32 bytes here) in a
     * scratch of 32, both exactly full */
    cr_assert_eq(s.offsets_cap, 16, "offsets capacity %zu", s.offsets_cap);
    uint64_t ef_bytes = f.sec_len[1] + f.sec_len[2] + f.sec_len[3] + f.sec_len[4];
    cr_assert_eq(ef_bytes, 32, "EF sections of %llu bytes", (unsigned long long)ef_bytes);
    cr_assert_eq(s.ef_cap, 32, "EF scratch of %zu bytes", s.ef_cap);
    for (int round = 0; round < 2; round++) {
        arm_alloc(0); /* any allocation fails, and is counted */
        rsv_status st = rsv_kv03_scanner_scan(&s, &f, NULL);
        long n = alloc_count;
        int failed = alloc_failed;
        disarm_alloc();
        cr_assert_eq(st, RSV_OK, "rescan %d: %s", round, rsv_status_name(st));
        cr_assert_eq(n, 0, "rescan %d: %ld allocations", round, n);
        cr_assert(!failed);
    }
    rsv_kv03_scanner_free(&s);
    rsv_kv03_close(&f);
    free(file);
}

/* kv03.h: the cursor allocates nothing per record once its buffers are
 * warm, a need equal to the capacity included (buffer.h grows from 64 bytes
 * by doubling). Two records, keys "a" and "b", each with a 56-byte value
 * that starts off a byte boundary (checked: value_span.bytes.off % 8 != 0),
 * so rsv_kv03_cursor_record copies it into the cursor's value buffer with
 * 8 bytes of store slack: a need of 56 + 8 = 64. Record 0 grows the buffer
 * to exactly 64 (val_cap, checked); record 1 needs 64 again and, with every
 * allocation armed to fail, must make none and return its bytes. */
Test(fault_reuse, cursor_value_at_exact_capacity_allocates_nothing)
{
    uint8_t val[2][56];
    for (int r = 0; r < 2; r++)
        for (int i = 0; i < 56; i++) val[r][i] = (uint8_t)(31 * r + 5 * i + 1);
    rsv_record rec[2] = {
        {(const uint8_t *)"a", 1, rsv_value_present(val[0], 56), NULL, 0},
        {(const uint8_t *)"b", 1, rsv_value_present(val[1], 56), NULL, 0},
    };
    uint8_t *file;
    size_t len;
    rsv_kv03_file f;
    encode_open(rec, 2, &file, &len, &f);
    rsv_kv03_cursor c;
    cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
    rsv_kv03_entry e;
    int more = 0;
    for (int r = 0; r < 2; r++) {
        if (r == 1) {
            cr_assert_eq(c.val_cap, 64, "value buffer of %zu bytes after record 0", c.val_cap);
            arm_alloc(0);
        }
        rsv_status st = rsv_kv03_cursor_record(&c, &e, &more);
        long n = alloc_count;
        int failed = alloc_failed;
        if (r == 1) disarm_alloc();
        cr_assert_eq(st, RSV_OK, "record %d: %s", r, rsv_status_name(st));
        cr_assert(more && e.index == (uint64_t)r);
        cr_assert_neq(e.value_span.bytes.off % 8, 0, "record %d: the value must be copied, not borrowed", r);
        cr_assert(e.value.kind == RSV_VALUE_PRESENT && e.value.len == 56);
        cr_assert(memcmp(e.value.data, val[r], 56) == 0, "record %d: value bytes", r);
        if (r == 1) {
            cr_assert_eq(n, 0, "record 1: %ld allocations with a need equal to the capacity", n);
            cr_assert(!failed);
        }
    }
    rsv_kv03_cursor_free(&c);
    rsv_kv03_close(&f);
    free(file);
}

/* The writer's code list (kv03.h, code_bytes: the code bits' room, grown
 * by doubling from its own 72 bytes) grows only when the next code does not
 * fit. Codes 0^400, 1 0^399 and 11 0^338 (prefix-free, increasing; 400 +
 * 400 + 340 = 1140 bits), one record each, key "a". The first two move the
 * bits to the heap at 144 bytes (801 bits need ceil(800/8) + 1 = 101 > 72:
 * 72 doubles once) and the slots to 16; the third needs ceil(1140/8) + 1 =
 * 144 bytes (one spare byte, code_list.c), exactly the room, so with every
 * allocation armed to fail (the data buffer presized, no block start at
 * record 2 with W = 15) its add must make none. code_bytes = 144 + 16 * 16
 * + 8 = 408 before and after (by hand, from kv03.h's formula). */
Test(fault_reuse, writer_code_list_at_exact_capacity_allocates_nothing)
{
    uint8_t a[50] = {0}, b[50] = {0x80}, c[43] = {0xC0};
    rsv_kv03_policy p = rsv_kv03_policy_default();
    rsv_kv03_writer w;
    long live = live_blocks;
    cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
    cr_assert_eq(rsv__kv03_writer_presize(&w, 4096), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_add_coded(&w, a, 400, "a", 1, rsv_value_tombstone()), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_add_coded(&w, b, 400, "a", 1, rsv_value_tombstone()), RSV_OK);
    rsv_kv03_writer_stats s;
    rsv_kv03_writer_get_stats(&w, &s);
    cr_assert_eq(s.code_bytes, 408, "code_bytes %llu after two codes", (unsigned long long)s.code_bytes);
    arm_alloc(0);
    expect_made_none(rsv_kv03_writer_add_coded(&w, c, 340, "a", 1, rsv_value_tombstone()),
                     "a third code whose bits fill the room exactly");
    rsv_kv03_writer_get_stats(&w, &s);
    cr_assert_eq(s.code_bytes, 408, "code_bytes %llu after three codes", (unsigned long long)s.code_bytes);
    rsv_kv03_writer_free(&w);
    cr_assert_eq(live_blocks, live, "%ld blocks not freed", live_blocks - live);
}

/* stream.h: the stream writer's previous-key buffer grows from 64 bytes by
 * doubling to the least capacity that holds the key, and a record whose key
 * fits (as long as the capacity included) under a code used before
 * allocates nothing but what `out` does. `out` is a fixed 4 KiB writer (it
 * never allocates). Keys of 64 bytes: the first grows the buffer to exactly
 * 64 (prev_cap, checked); the second, with every allocation armed to fail,
 * must make none. A 65-byte key then doubles it to 128. */
Test(fault_reuse, stream_writer_key_at_exact_capacity_allocates_nothing)
{
    static uint8_t buf[4096];
    uint8_t k[65];
    memset(k, 'k', sizeof k);
    rsv_writer out;
    rsv_writer_init_fixed(&out, buf, sizeof buf);
    rsv_stream_writer sw;
    long live = live_blocks;
    cr_assert_eq(rsv_stream_writer_init(&sw, &out, NULL, 0), RSV_OK);
    k[63] = 1;
    cr_assert_eq(rsv_stream_writer_add(&sw, k, 64, rsv_value_tombstone()), RSV_OK);
    cr_assert_eq(sw.prev_cap, 64, "key buffer of %zu bytes after a 64-byte key", sw.prev_cap);
    k[63] = 2;
    arm_alloc(0);
    expect_made_none(rsv_stream_writer_add(&sw, k, 64, rsv_value_tombstone()), "a second 64-byte key");
    cr_assert_eq(rsv_stream_writer_add(&sw, k, 65, rsv_value_tombstone()), RSV_OK);
    cr_assert_eq(sw.prev_cap, 128, "key buffer of %zu bytes after a 65-byte key", sw.prev_cap);
    rsv_stream_writer_free(&sw);
    cr_assert_eq(live_blocks, live, "%ld blocks not freed", live_blocks - live);
}

/* rsv__kv03_writer_presize (kv03_writer.h, internal; the merge's size hint)
 * resizes the data buffer to the header room (288 bytes) + `bytes` + the
 * store slack (8 bytes) "when it is smaller": a hint whose total equals the
 * capacity allocates nothing. The first buffer is 512 bytes
 * (buffer_capacity, checked), so a hint of 512 - 288 - 8 = 216 bytes must
 * make no allocation, and 217 must grow it to exactly 513 (armed to fail
 * first: RSV_ERR_NOMEM, the capacity unchanged). The writer then writes
 * the §12.3 file of KV03.md. */
Test(fault_reuse, writer_presize_to_its_capacity_allocates_nothing)
{
    rsv_kv03_writer w;
    long live = live_blocks;
    init_default_writer(&w);
    arm_alloc(0);
    expect_made_none(rsv__kv03_writer_presize(&w, 512 - 288 - 8), "a hint that fills the buffer exactly");
    arm_alloc(0);
    rsv_status st = rsv__kv03_writer_presize(&w, 512 - 288 - 8 + 1);
    int failed = alloc_failed;
    disarm_alloc();
    cr_assert(failed, "a hint one byte past the buffer made no allocation");
    cr_assert_eq(st, RSV_ERR_NOMEM, "%s", rsv_status_name(st));
    rsv_kv03_writer_stats s;
    rsv_kv03_writer_get_stats(&w, &s);
    cr_assert_eq(s.buffer_capacity, 512, "buffer of %llu bytes after a failed hint",
                 (unsigned long long)s.buffer_capacity);
    cr_assert_eq(rsv__kv03_writer_presize(&w, 512 - 288 - 8 + 1), RSV_OK);
    rsv_kv03_writer_get_stats(&w, &s);
    cr_assert_eq(s.buffer_capacity, 513, "buffer of %llu bytes, want 513", (unsigned long long)s.buffer_capacity);
    finish_12_3_and_free(&w, live, "writer after its hints");
}

/* A hint whose total (the header room, 288 bytes, + `bytes` + the 8-byte
 * slack) does not fit size_t: RSV_ERR_NOMEM with no allocation tried and
 * the buffer as it was (kv03_writer.h), not a total wrapped past SIZE_MAX
 * that "fits" the 512-byte buffer. UINT64_MAX, and SIZE_MAX - 295, whose
 * total is exactly SIZE_MAX + 1 (0 after the wrap). */
Test(fault_reuse, writer_presize_past_size_max_is_nomem)
{
    const uint64_t hints[] = {UINT64_MAX, (uint64_t)SIZE_MAX - 295};
    rsv_kv03_writer w;
    long live = live_blocks;
    init_default_writer(&w);
    for (size_t i = 0; i < sizeof hints / sizeof hints[0]; i++) {
        arm_alloc(0);
        rsv_status st = rsv__kv03_writer_presize(&w, hints[i]);
        long n = alloc_count;
        disarm_alloc();
        cr_assert_eq(st, RSV_ERR_NOMEM, "hint %llu: %s", (unsigned long long)hints[i], rsv_status_name(st));
        cr_assert_eq(n, 0, "hint %llu: %ld allocations", (unsigned long long)hints[i], n);
        rsv_kv03_writer_stats s;
        rsv_kv03_writer_get_stats(&w, &s);
        cr_assert_eq(s.buffer_capacity, 512, "buffer of %llu bytes after hint %llu",
                     (unsigned long long)s.buffer_capacity, (unsigned long long)hints[i]);
    }
    finish_12_3_and_free(&w, live, "writer after its hints past SIZE_MAX");
}

/* The KV03 writer's block-offset table and previous-key buffer (kv03.h,
 * offset_bytes: 8 per slot; prev) grow from 16 slots / 16 bytes by doubling
 * to the least capacity that holds the need, and only when the next record
 * does not fit. With W = 1 every record starts a block: records 0..15 take
 * the 16 slots, so record 15's offset fits exactly; keys of 16 bytes fill
 * the key buffer exactly (prev_cap 16 from record 0 on, 32 after a 17-byte
 * key). With every allocation armed to fail (the data buffer presized, one
 * code), record 15 must make none; offset_bytes is 128 before and after it,
 * 256 after record 16. */
Test(fault_reuse, writer_offsets_and_key_at_exact_capacity_allocate_nothing)
{
    rsv_kv03_policy p = rsv_kv03_policy_default();
    p.W = 1;
    rsv_kv03_writer w;
    long live = live_blocks;
    cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
    cr_assert_eq(rsv__kv03_writer_presize(&w, 4096), RSV_OK);
    char key[17];
    for (int i = 0; i < 17; i++) {
        snprintf(key, sizeof key, "key-%012d", i); /* 16 bytes */
        if (i == 15) arm_alloc(0);
        rsv_status st = rsv_kv03_writer_add(&w, key, 16, rsv_value_tombstone());
        if (i == 15) expect_made_none(st, "record 15: its block offset and key fit exactly");
        else cr_assert_eq(st, RSV_OK, "record %d: %s", i, rsv_status_name(st));
        rsv_kv03_writer_stats s;
        rsv_kv03_writer_get_stats(&w, &s);
        uint64_t want = i < 16 ? 128 : 256;
        cr_assert_eq(s.offset_bytes, want, "after record %d: offset_bytes %llu, want %llu", i,
                     (unsigned long long)s.offset_bytes, (unsigned long long)want);
        cr_assert_eq(w.prev_cap, 16, "after record %d: key buffer of %zu bytes", i, w.prev_cap);
    }
    cr_assert_eq(rsv_kv03_writer_add(&w, "key-000000000016x", 17, rsv_value_tombstone()), RSV_OK);
    cr_assert_eq(w.prev_cap, 32, "key buffer of %zu bytes after a 17-byte key", w.prev_cap);
    rsv_kv03_writer_free(&w);
    cr_assert_eq(live_blocks, live, "%ld blocks not freed", live_blocks - live);
}

/* kv03.h, offset_bytes: finish rewrites the block offsets in place into the
 * EF entries r_0..r_nb (KV03.md §5: nb + 1 of them), so a table with no
 * free slot grows by exactly one, and offset_bytes reports it until the
 * writer is freed. W = 1: 16 records fill the 16 slots (128 bytes, then 136
 * after finish); 15 records leave one slot free (128 before and after). */
Test(fault_reuse, finish_grows_a_full_offset_table_by_one_slot)
{
    for (int n = 15; n <= 16; n++) {
        rsv_kv03_policy p = rsv_kv03_policy_default();
        p.W = 1;
        rsv_kv03_writer w;
        long live = live_blocks;
        cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
        char key[8];
        for (int i = 0; i < n; i++) {
            snprintf(key, sizeof key, "k%02d", i);
            cr_assert_eq(rsv_kv03_writer_add(&w, key, 3, rsv_value_tombstone()), RSV_OK);
        }
        rsv_kv03_writer_stats s;
        rsv_kv03_writer_get_stats(&w, &s);
        cr_assert_eq(s.offset_bytes, 128, "%d records: offset_bytes %llu before finish", n,
                     (unsigned long long)s.offset_bytes);
        uint8_t *out = NULL;
        size_t nbytes = 0;
        cr_assert_eq(rsv_kv03_writer_finish(&w, &out, &nbytes), RSV_OK);
        rsv_kv03_writer_get_stats(&w, &s);
        uint64_t want = n == 16 ? 136 : 128;
        cr_assert_eq(s.offset_bytes, want, "%d records: offset_bytes %llu after finish, want %llu", n,
                     (unsigned long long)s.offset_bytes, (unsigned long long)want);
        free(out);
        rsv_kv03_writer_free(&w);
        cr_assert_eq(live_blocks, live, "%d records: %ld blocks not freed", n, live_blocks - live);
    }
}

/* merge.h, memory: the current output key's buffer holds its bytes + 8 and
 * grows from 64 bytes by doubling to the least capacity that holds them,
 * only when they do not fit. A file of three records, keys of 56, 56 and
 * 57 bytes (increasing), merged with itself (each step consumes a key from
 * both). Step 1 needs 56 + 8 = 64 bytes: exactly the
 * first capacity. Step 2 (56 bytes again) fits: with every allocation armed
 * to fail it must make none. Step 3 needs 65: the buffer doubles to 128,
 * the allocation armed to fail: RSV_ERR_NOMEM, attributed to no input (the
 * output's key buffer, merge.h), at output record 2. */
Test(fault_reuse, merge_key_buffer_grows_only_past_its_least_doubling)
{
    char k[3][58];
    rsv_record rec[3];
    for (int i = 0; i < 3; i++) {
        memset(k[i], 'k', sizeof k[i]);
        k[i][55] = (char)('0' + i);
        rec[i] = (rsv_record){(const uint8_t *)k[i], i < 2 ? 56 : 57, rsv_value_tombstone(), NULL, 0};
    }
    uint8_t *file;
    size_t len;
    rsv_kv03_file f;
    encode_open(rec, 3, &file, &len, &f);
    const rsv_kv03_file *in[2] = {&f, &f};
    long live = live_blocks;
    rsv_merge m;
    int done = 0;
    cr_assert_eq(rsv_merge_init(&m, in, 2, 0), RSV_OK);
    cr_assert_eq(rsv_merge_step(&m, &done), RSV_OK);
    arm_alloc(0);
    expect_made_none(rsv_merge_step(&m, &done), "a second 56-byte key (64 bytes of buffer)");
    arm_alloc(0);
    rsv_status st = rsv_merge_step(&m, &done);
    int failed = alloc_failed;
    disarm_alloc();
    cr_assert(failed, "a 57-byte key made no allocation");
    cr_assert_eq(st, RSV_ERR_NOMEM, "%s", rsv_status_name(st));
    cr_assert_eq(rsv_merge_failed_input(&m), 2);
    cr_assert_eq(rsv_merge_diag(&m).record, 2);
    rsv_merge_free(&m);
    cr_assert_eq(live_blocks, live, "%ld blocks not freed", live_blocks - live);
    free(file);
}

/* merge_codes.c sorts the merge's code union on the stack for up to 8 codes
 * (its array holds 2 * 8 entries) and allocates the sort's entries beyond.
 * Inputs with a and b codes (`0000`, `0001`, ... one record each, built by
 * the batch encoder), so the union's sort sees t = a + b codes:
 * (4, 3) → 7, (4, 4) → 8, (4, 5) → 9. rsv_merge_init, counted with an
 * armed index no allocation reaches: t = 7 and t = 8 make the same number
 * of allocations, t = 9 exactly one more. */
static long merge_init_allocations(unsigned a, unsigned b)
{
    uint8_t codes[5], keys[5];
    rsv_record r[5];
    for (unsigned j = 0; j < 5; j++) {
        codes[j] = (uint8_t)(j << 4), keys[j] = (uint8_t)('a' + j);
        r[j] = (rsv_record){keys + j, 1, rsv_value_tombstone(), codes + j, 4};
    }
    uint8_t *fa, *fb;
    size_t la, lb;
    rsv_kv03_file x, y;
    encode_open(r, a, &fa, &la, &x);
    encode_open(r, b, &fb, &lb, &y);
    cr_assert(x.m == a && y.m == b, "dictionaries of %llu and %llu codes", (unsigned long long)x.m,
              (unsigned long long)y.m);
    const rsv_kv03_file *in[2] = {&x, &y};
    rsv_merge m;
    long live = live_blocks;
    arm_alloc(1000000);
    rsv_status st = rsv_merge_init(&m, in, 2, 0);
    long n = alloc_count;
    disarm_alloc();
    cr_assert_eq(st, RSV_OK, "%s", rsv_status_name(st));
    rsv_merge_free(&m);
    cr_assert_eq(live_blocks, live, "%ld blocks not freed", live_blocks - live);
    free(fa);
    free(fb);
    return n;
}

Test(fault_reuse, merge_sorts_up_to_eight_codes_without_allocating)
{
    long n7 = merge_init_allocations(4, 3), n8 = merge_init_allocations(4, 4), n9 = merge_init_allocations(4, 5);
    cr_assert_eq(n8, n7, "8 codes: %ld allocations, 7 codes: %ld", n8, n7);
    cr_assert_eq(n9, n8 + 1, "9 codes: %ld allocations, 8 codes: %ld", n9, n8);
}
