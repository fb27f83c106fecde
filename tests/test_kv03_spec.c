/* KV03.md §12 acceptance vectors, byte for byte (CRCs included): the writer,
 * open + scan + cursor + frames on every vector, the §12.4 record stream and
 * §11.2 merges. Expected bytes are copied from the spec or assembled from its
 * stated differences (kv03_vectors.h); nothing is produced by the code under
 * test. Error paths live in test_kv03_errors.c. */
#define _DEFAULT_SOURCE /* mkdtemp */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "reservoir/crc32c.h"
#include "reservoir/kv03.h"
#include "reservoir/merge.h"
#include "reservoir/stream.h"

#include "kv03_vectors.h"

static void encode_expect(const rsv_kv03_policy *p, const rsv_record *recs, size_t n,
                          const uint8_t *want, size_t want_n)
{
    uint8_t *out = NULL;
    size_t nout = 0;
    cr_assert_eq(rsv_kv03_encode(p, NULL, 0, recs, n, &out, &nout), RSV_OK);
    cr_assert_eq(nout, want_n);
    for (size_t i = 0; i < want_n; i++)
        cr_assert_eq(out[i], want[i], "byte %zu: got %02x want %02x", i, out[i], want[i]);
    free(out);
}

Test(crc32c, check_value)
{
    cr_assert_eq(rsv_crc32c(0, "123456789", 9), 0xE3069283u);
    cr_assert_eq(rsv_crc32c_portable(0, "123456789", 9), 0xE3069283u);
    cr_assert_eq(rsv_crc32c(rsv_crc32c(0, "1234", 4), "56789", 5), 0xE3069283u);
    uint8_t buf[1000];
    for (int i = 0; i < 1000; i++) buf[i] = (uint8_t)(i * 131 + 7);
    for (size_t n = 0; n + 3 <= 1000; n += 37)
        cr_assert_eq(rsv_crc32c(0, buf + 3, n), rsv_crc32c_portable(0, buf + 3, n));
}

Test(kv03_spec, file_12_3)
{
    rsv_kv03_policy p = rsv_kv03_policy_default();
    encode_expect(&p, RECS, 4, FILE_12_3, 360);
}

Test(kv03_spec, variant_w2_k3)
{
    uint8_t want[360];
    make_w2k3(want);
    rsv_kv03_policy p = {RSV_BACKSPACE_EG, 0, 2, 3};
    encode_expect(&p, RECS, 4, want, 360);
}

Test(kv03_spec, variant_golomb7)
{
    uint8_t want[360];
    make_golomb7(want);
    rsv_kv03_policy p = {RSV_BACKSPACE_GOLOMB, 7, 15, 15};
    encode_expect(&p, RECS, 4, want, 360);
}

Test(kv03_spec, variant_tombstones)
{
    uint8_t want[352];
    make_tombstones(want);
    rsv_record r[2] = {{(const uint8_t *)"a", 1, {RSV_VALUE_TOMBSTONE, NULL, 0}},
                       {(const uint8_t *)"b", 1, {RSV_VALUE_TOMBSTONE, NULL, 0}}};
    rsv_kv03_policy p = rsv_kv03_policy_default();
    encode_expect(&p, r, 2, want, 352);
}

Test(kv03_spec, empty_file)
{
    rsv_kv03_policy p = rsv_kv03_policy_default();
    encode_expect(&p, NULL, 0, FILE_EMPTY, 320);
}

/* ---- open, scan, cursor ------------------------------------------------ */

/* Open + scan succeed; the cursor yields `n` records equal to `want`. */
static void read_back(const uint8_t *bytes, size_t n, const rsv_record *want, size_t nwant)
{
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(bytes, n, NULL, &f), RSV_OK);
    cr_assert_eq(f.N, nwant);
    rsv_kv03_diag dg;
    cr_assert_eq(rsv_kv03_scan(&f, &dg), RSV_OK);
    rsv_kv03_cursor c;
    cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
    rsv_kv03_entry e;
    int more;
    for (size_t i = 0; i < nwant; i++) {
        cr_assert_eq(rsv_kv03_cursor_record(&c, &e, &more), RSV_OK);
        cr_assert_eq(more, 1);
        cr_assert_eq(e.key_len, want[i].key_len);
        cr_assert_eq(memcmp(e.key, want[i].key, e.key_len), 0);
        cr_assert_eq(e.value.kind, want[i].value.kind, "record %zu", i);
        cr_assert_eq(e.value.len, want[i].value.len);
        if (e.value.len) cr_assert_eq(memcmp(e.value.data, want[i].value.data, e.value.len), 0);
    }
    cr_assert_eq(rsv_kv03_cursor_record(&c, &e, &more), RSV_OK);
    cr_assert_eq(more, 0);
    rsv_kv03_cursor_free(&c);
    /* frame walker: same count, ends at the data extent */
    rsv_kv03_frames fw;
    rsv_kv03_frame fr;
    cr_assert_eq(rsv_kv03_frames_init(&fw, &f), RSV_OK);
    uint64_t count = 0, end = 0;
    while (rsv_kv03_frames_next(&fw, &fr, &more) == RSV_OK && more) {
        count++;
        end = fr.end;
    }
    cr_assert_eq(rsv_kv03_frames_diag(&fw).status, RSV_OK);
    cr_assert_eq(count, nwant);
    cr_assert_eq(end, f.extent);
}

Test(kv03_read, all_vectors)
{
    read_back(FILE_12_3, 360, RECS, 4);
    uint8_t v[360];
    make_w2k3(v);
    read_back(v, 360, RECS, 4);
    make_golomb7(v);
    read_back(v, 360, RECS, 4);
    uint8_t t[352];
    make_tombstones(t);
    rsv_record r[2] = {{(const uint8_t *)"a", 1, {RSV_VALUE_TOMBSTONE, NULL, 0}},
                       {(const uint8_t *)"b", 1, {RSV_VALUE_TOMBSTONE, NULL, 0}}};
    read_back(t, 352, r, 2);
    read_back(FILE_EMPTY, 320, NULL, 0);
}

/* The header fields open copies into rsv_kv03_file (kv03.h), against the
 * values KV03.md §12 lists for each vector: §12.3 "value widths 12, 1, 2, 20
 * → cw absent, flags 0", N = 4; the all-tombstone variant "cw = 1 (flags 2)",
 * N = 2; the empty file "flags 2 (cw present, 0)", N = 0; all three with the
 * default policy (EG0 backspaces, W = K = 15). */
Test(kv03_read, header_fields)
{
    uint8_t t[352];
    make_tombstones(t);
    const struct {
        const uint8_t *bytes;
        size_t n;
        uint32_t flags;
        int cw_present;
        uint64_t cw, N;
    } v[] = {{FILE_12_3, 360, 0, 0, 0, 4}, {t, 352, 2, 1, 1, 2}, {FILE_EMPTY, 320, 2, 1, 0, 0}};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        rsv_kv03_file f;
        cr_assert_eq(rsv_kv03_open(v[i].bytes, v[i].n, NULL, &f), RSV_OK, "vector %zu", i);
        cr_assert_eq(f.flags, v[i].flags, "vector %zu: flags %u", i, (unsigned)f.flags);
        cr_assert_eq(f.cw_present, v[i].cw_present, "vector %zu", i);
        cr_assert_eq(f.cw, v[i].cw, "vector %zu", i);
        cr_assert_eq(f.N, v[i].N, "vector %zu", i);
        cr_assert(f.policy.code == RSV_BACKSPACE_EG && f.policy.param == 0 && f.policy.W == 15 && f.policy.K == 15,
                  "vector %zu: policy", i);
        rsv_kv03_close(&f);
    }
}

Test(kv03_read, block_offsets)
{
    uint8_t v[360];
    make_w2k3(v);
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(v, 360, NULL, &f), RSV_OK);
    uint64_t bit;
    /* §12.4: EF entries [0, 47, 97], cw absent: offsets are the entries */
    cr_assert_eq(rsv_kv03_block_offset(&f, 0, &bit), RSV_OK);
    cr_assert_eq(bit, 0);
    cr_assert_eq(rsv_kv03_block_offset(&f, 1, &bit), RSV_OK);
    cr_assert_eq(bit, 47);
    cr_assert_eq(rsv_kv03_block_offset(&f, 2, &bit), RSV_OK);
    cr_assert_eq(bit, 97);
    cr_assert_eq(rsv_kv03_block_offset(&f, 3, &bit), RSV_ERR_EF_ORDINAL);
    /* all-tombstone variant: r = [0, 26], cw = 1, N = 2 → offset(1) = 26 + 2 */
    uint8_t t[352];
    make_tombstones(t);
    cr_assert_eq(rsv_kv03_open(t, 352, NULL, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_block_offset(&f, 1, &bit), RSV_OK);
    cr_assert_eq(bit, 28);
}

Test(kv03_writer, file_output)
{
    char dir[] = "/tmp/rsv_kv03_XXXXXX";
    cr_assert_neq(mkdtemp(dir), NULL);
    char path[64];
    snprintf(path, sizeof path, "%s/out.kv", dir);
    rsv_kv03_writer w;
    rsv_kv03_policy p = rsv_kv03_policy_default();
    cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
    for (int i = 0; i < 4; i++)
        cr_assert_eq(rsv_kv03_writer_add(&w, RECS[i].key, RECS[i].key_len, RECS[i].value), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_finish_path(&w, path), RSV_OK);
    rsv_kv03_writer_free(&w);
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open_path(path, &p, &f), RSV_OK);
    cr_assert_eq(f.size, 360);
    cr_assert_eq(memcmp(f.bytes, FILE_12_3, 360), 0);
    cr_assert_eq(rsv_kv03_scan(&f, NULL), RSV_OK);
    rsv_kv03_close(&f);
    /* a path in a missing directory: RSV_ERR_IO and nothing created */
    char bad[96];
    snprintf(bad, sizeof bad, "%s/missing/out.kv", dir);
    cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_finish_path(&w, bad), RSV_ERR_IO);
    rsv_kv03_writer_free(&w);
    remove(path);
    cr_assert_eq(rmdir(dir), 0); /* empty: no temporary left behind */
}

/* ---- §12.4 record stream ----------------------------------------------- */

static const uint8_t STREAM[13] = {0xa2, 0x58, 0x69, 0xe3, 0x12, 0xc4, 0x8b,
                                   0x77, 0x89, 0x61, 0xb7, 0x97, 0xa0};

Test(record_stream, vector)
{
    rsv_writer out;
    rsv_writer_init(&out);
    rsv_stream_writer sw;
    cr_assert_eq(rsv_stream_writer_init(&sw, &out, NULL, 0), RSV_OK);
    for (int i = 0; i < 4; i++)
        cr_assert_eq(rsv_stream_writer_add(&sw, RECS[i].key, RECS[i].key_len, RECS[i].value), RSV_OK);
    cr_assert_eq(rsv_stream_writer_extent(&sw), 100);
    cr_assert_eq(rsv_writer_nbytes(&out), 13);
    cr_assert_eq(memcmp(rsv_writer_data(&out), STREAM, 13), 0);
    cr_assert_eq(rsv_stream_writer_add(&sw, "b", 1, rsv_value_tombstone()), RSV_ERR_UNSORTED);
    cr_assert_eq(rsv_stream_writer_add(&sw, "c", 1, rsv_value_tombstone()), RSV_ERR_POISONED);
    rsv_stream_writer_free(&sw);
    rsv_writer_free(&out);

    /* stream.h: the stream starts at out's bit count at init (start). Into a
     * writer already holding 5 bits `10110`, the same 100 bits follow them
     * and the extent is still 100. */
    rsv_writer_init(&out);
    cr_assert_eq(rsv_put(&out, 0x16, 5), RSV_OK);
    cr_assert_eq(rsv_stream_writer_init(&sw, &out, NULL, 0), RSV_OK);
    for (int i = 0; i < 4; i++)
        cr_assert_eq(rsv_stream_writer_add(&sw, RECS[i].key, RECS[i].key_len, RECS[i].value), RSV_OK);
    cr_assert_eq(rsv_stream_writer_extent(&sw), 100, "extent %llu after a 5-bit prefix",
                 (unsigned long long)rsv_stream_writer_extent(&sw));
    cr_assert_eq(rsv_writer_bits(&out), 105);
    const uint8_t *d = rsv_writer_data(&out);
    cr_assert_eq(d[0] >> 3, 0x16, "the prefix");
    for (unsigned i = 0; i < 100; i++) {
        unsigned want = (STREAM[i / 8] >> (7 - i % 8)) & 1u, j = i + 5;
        cr_assert_eq((d[j / 8] >> (7 - j % 8)) & 1u, want, "stream bit %u after the prefix", i);
    }
    rsv_stream_writer_free(&sw);
    rsv_writer_free(&out);

    rsv_stream_reader sr;
    rsv_stream_record rec;
    int more;
    cr_assert_eq(rsv_stream_reader_init(&sr, rsv_view_make(STREAM, 0, 100), NULL, 0), RSV_OK);
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(rsv_stream_reader_next(&sr, &rec, &more), RSV_OK);
        cr_assert_eq(more, 1);
        cr_assert_eq(rec.key_len, RECS[i].key_len);
        cr_assert_eq(memcmp(rec.key, RECS[i].key, rec.key_len), 0);
        cr_assert_eq(rec.value.kind, RECS[i].value.kind);
        cr_assert_eq(rec.value.len, RECS[i].value.len);
        if (rec.value.len) cr_assert_eq(memcmp(rec.value.data, RECS[i].value.data, rec.value.len), 0);
    }
    cr_assert_eq(rec.end, 100);
    cr_assert_eq(rsv_stream_reader_next(&sr, &rec, &more), RSV_OK);
    cr_assert_eq(more, 0);
    rsv_stream_reader_free(&sr);
}

Test(record_stream, errors_poison)
{
    rsv_stream_reader sr;
    rsv_stream_record rec;
    int more;
    /* cut after 99 bits: record 3's value "yz" (20 bits from bit 80) needs
     * 16 byte bits after `1 011` at bit 84, only 15 remain → TRUNCATED_VALUE */
    cr_assert_eq(rsv_stream_reader_init(&sr, rsv_view_make(STREAM, 0, 99), NULL, 0), RSV_OK);
    for (int i = 0; i < 3; i++) cr_assert_eq(rsv_stream_reader_next(&sr, &rec, &more), RSV_OK);
    cr_assert_eq(rsv_stream_reader_next(&sr, &rec, &more), RSV_ERR_TRUNCATED_VALUE);
    cr_assert_eq(rsv_stream_reader_diag(&sr).bit, 84);
    cr_assert_eq(rsv_stream_reader_diag(&sr).record, 3);
    cr_assert_eq(rsv_stream_reader_next(&sr, &rec, &more), RSV_ERR_POISONED);
    rsv_stream_reader_free(&sr);
    /* the wrong code: C0 = `1` instead of `0` → UNKNOWN_SELECTOR at bit 2 */
    static const uint8_t one[1] = {0x80};
    cr_assert_eq(rsv_stream_reader_init(&sr, rsv_view_make(STREAM, 0, 100), one, 1), RSV_OK);
    cr_assert_eq(rsv_stream_reader_next(&sr, &rec, &more), RSV_ERR_UNKNOWN_SELECTOR);
    cr_assert_eq(rsv_stream_reader_diag(&sr).bit, 2);
    rsv_stream_reader_free(&sr);
}

/* ---- §11.2 merge ------------------------------------------------------- */

/* A merge input: r encoded with the default policy into *bytes and opened. */
static void encode_open(const rsv_record *r, size_t n, uint8_t **bytes, rsv_kv03_file *f)
{
    rsv_kv03_policy p = rsv_kv03_policy_default();
    size_t len;
    cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, r, n, bytes, &len), RSV_OK);
    cr_assert_eq(rsv_kv03_open(*bytes, len, NULL, f), RSV_OK);
}

/* The two inputs of the §12.3 merge, each encoded and opened: older
 * {"a"→"x", "b"→""} and newer {"ab"→⊥, "ba"→"yz"} (RECS[1], RECS[3]). */
static void open_12_3_inputs(uint8_t **a, uint8_t **b, rsv_kv03_file *fa, rsv_kv03_file *fb)
{
    rsv_record older[2] = {RECS[0], {(const uint8_t *)"b", 1, {RSV_VALUE_PRESENT, NULL, 0}}};
    rsv_record newer[2] = {RECS[1], RECS[3]};
    encode_open(older, 2, a, fa);
    encode_open(newer, 2, b, fb);
}

Test(merge, equals_12_3)
{
    uint8_t *a, *b, *out;
    size_t nout;
    rsv_kv03_file fa, fb;
    open_12_3_inputs(&a, &b, &fa, &fb);
    const rsv_kv03_file *in[2] = {&fa, &fb};
    cr_assert_eq(rsv_merge_files(in, 2, 0, &out, &nout), RSV_OK);
    cr_assert_eq(nout, 360);
    cr_assert_eq(memcmp(out, FILE_12_3, 360), 0);
    free(out);
    /* unsealed output: same bytes with both CRC fields zero, seal restores them */
    rsv_merge um;
    cr_assert_eq(rsv_merge_init(&um, in, 2, 0), RSV_OK);
    cr_assert_eq(rsv_merge_run(&um), RSV_OK);
    cr_assert_eq(rsv_merge_finish_unsealed(&um, &out, &nout), RSV_OK);
    rsv_merge_free(&um);
    cr_assert_eq(nout, 360);
    cr_assert_eq(memcmp(out, FILE_12_3, 64), 0);
    cr_assert_eq(memcmp(out + 64, "\0\0\0\0\0\0\0\0", 8), 0);
    cr_assert_eq(memcmp(out + 72, FILE_12_3 + 72, 360 - 72), 0);
    cr_assert_eq(rsv_kv03_seal(out, nout), RSV_OK);
    cr_assert_eq(memcmp(out, FILE_12_3, 360), 0);
    free(out);
    /* step API: STATE before the end and after finishing */
    rsv_merge m;
    int done = 0;
    cr_assert_eq(rsv_merge_init(&m, in, 2, 0), RSV_OK);
    cr_assert_eq(rsv_merge_step(&m, &done), RSV_OK);
    cr_assert_eq(rsv_merge_finish(&m, &out, &nout), RSV_ERR_STATE);
    cr_assert_eq(rsv_merge_run(&m), RSV_OK);
    cr_assert_eq(rsv_merge_finish(&m, &out, &nout), RSV_OK);
    free(out);
    cr_assert_eq(rsv_merge_step(&m, &done), RSV_ERR_STATE);
    rsv_merge_free(&m);
    /* fewer than two inputs */
    cr_assert_eq(rsv_merge_files(in, 1, 0, &out, &nout), RSV_ERR_INVALID_ARGUMENT);
    free(a);
    free(b);
}

/* merge.h: rsv_merge_step sets *done = 1 once every input is consumed, and
 * 0 before. The two inputs of equals_12_3 hold four distinct keys, so steps
 * 1-4 each emit one record with done 0 and step 5 emits none with done
 * exactly 1; the output is the §12.3 file. With an empty third input
 * (FILE_EMPTY) the merge runs through the tree of losers (n >= 3) instead
 * of the head scan, with the same steps and file. */
Test(merge, step_sets_done_to_1_after_the_last_key)
{
    uint8_t *a, *b, *out;
    size_t nout;
    rsv_kv03_file fa, fb, fe;
    open_12_3_inputs(&a, &b, &fa, &fb);
    cr_assert_eq(rsv_kv03_open(FILE_EMPTY, 320, NULL, &fe), RSV_OK);
    const rsv_kv03_file *in[3] = {&fa, &fb, &fe};
    for (size_t n = 2; n <= 3; n++) {
        rsv_merge m;
        cr_assert_eq(rsv_merge_init(&m, in, n, 0), RSV_OK);
        for (int k = 1; k <= 5; k++) {
            int done = -1;
            cr_assert_eq(rsv_merge_step(&m, &done), RSV_OK, "n %zu, step %d", n, k);
            cr_assert_eq(done, k == 5, "n %zu, step %d: done %d", n, k, done);
            cr_assert_eq(rsv_merge_emitted(&m), (uint64_t)(k < 5 ? k : 4), "n %zu, step %d", n, k);
        }
        cr_assert_eq(rsv_merge_finish(&m, &out, &nout), RSV_OK);
        cr_assert_eq(nout, 360);
        cr_assert_eq(memcmp(out, FILE_12_3, 360), 0, "n %zu", n);
        free(out);
        rsv_merge_free(&m);
    }
    rsv_kv03_close(&fa);
    rsv_kv03_close(&fb);
    rsv_kv03_close(&fe);
    free(a);
    free(b);
}

/* rsv_kv03_seal checks its arguments: a buffer shorter than the 96-byte header
 * is RSV_ERR_TRUNCATED_HEADER and stays unwritten; NULL is INVALID_ARGUMENT.
 * At exactly 96 bytes the body is empty, so the body CRC field becomes
 * CRC32C("") = 0 (KV03.md §7: initial value and final XOR cancel). */
Test(kv03_writer, seal_checks_size)
{
    uint8_t buf[96];
    memset(buf, 0xAA, sizeof buf);
    cr_assert_eq(rsv_kv03_seal(NULL, 360), RSV_ERR_INVALID_ARGUMENT);
    for (size_t n = 0; n < 96; n++) {
        cr_assert_eq(rsv_kv03_seal(buf, n), RSV_ERR_TRUNCATED_HEADER, "n = %zu", n);
        for (size_t i = 0; i < sizeof buf; i++) cr_assert_eq(buf[i], 0xAA, "n = %zu wrote byte %zu", n, i);
    }
    cr_assert_eq(rsv_kv03_seal(buf, 96), RSV_OK);
    cr_assert_eq(memcmp(buf + 64, "\0\0\0\0", 4), 0);
}

Test(merge, newest_wins_and_drop_tombstones)
{
    /* newer input hides "a"→"x" with a tombstone and rebinds "b" */
    rsv_record older[2] = {RECS[0], {(const uint8_t *)"b", 1, {RSV_VALUE_PRESENT, NULL, 0}}};
    rsv_record newer[2] = {{(const uint8_t *)"a", 1, {RSV_VALUE_TOMBSTONE, NULL, 0}},
                           {(const uint8_t *)"b", 1, {RSV_VALUE_TOMBSTONE, NULL, 0}}};
    uint8_t *a, *b, *out, *want;
    size_t nout, nwant;
    rsv_kv03_file fa, fb;
    encode_open(older, 2, &a, &fa);
    encode_open(newer, 2, &b, &fb);
    const rsv_kv03_file *in[2] = {&fa, &fb};
    cr_assert_eq(rsv_merge_files(in, 2, 0, &out, &nout), RSV_OK);
    uint8_t t[352];
    make_tombstones(t); /* "a"→⊥, "b"→⊥: the §12.4 variant */
    cr_assert_eq(nout, 352);
    cr_assert_eq(memcmp(out, t, 352), 0);
    free(out);
    cr_assert_eq(rsv_merge_files(in, 2, RSV_MERGE_DROP_TOMBSTONES, &out, &nout), RSV_OK);
    cr_assert_eq(nout, 320);
    cr_assert_eq(memcmp(out, FILE_EMPTY, 320), 0);
    free(out);
    /* policy mismatch */
    rsv_kv03_policy p = {RSV_BACKSPACE_EG, 0, 2, 3};
    cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, newer, 2, &want, &nwant), RSV_OK);
    rsv_kv03_file fc;
    cr_assert_eq(rsv_kv03_open(want, nwant, NULL, &fc), RSV_OK);
    const rsv_kv03_file *in2[2] = {&fa, &fc};
    cr_assert_eq(rsv_merge_files(in2, 2, 0, &out, &nout), RSV_ERR_MERGE_MISMATCH);
    free(want);
    free(a);
    free(b);
}


