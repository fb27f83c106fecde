/* Streaming KV03 file output (issue 3), success paths: the path writer and
 * the path merge write files byte-identical to the in-memory writer / merge
 * (and to the KV03.md §12.3 vector) while keeping a bounded amount of the
 * data stream in memory; state rules of path writers and merges. Failure
 * paths: test_kv03_stream_failures.c. Expected bytes come from the spec
 * vector or the in-memory path; bounds are computed by hand
 * (kv03_stream_util.h). */
#define _DEFAULT_SOURCE /* mkdtemp */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reservoir/kv03.h"
#include "reservoir/merge.h"
#include "../codec/src/merge_state.h" /* the merge's private state (its output writer) */

#include "kv03_stream_util.h"
#include "kv03_vectors.h"

/* ---- byte identity and the memory bound --------------------------------- */

Test(kv03_stream_output, spec_vector_and_empty_file)
{
    char dir[] = "/tmp/rsv_stream_XXXXXX";
    make_dir(dir);
    char path[96];
    snprintf(path, sizeof path, "%s/spec.kv", dir);
    recset s = {(rsv_record *)RECS, NULL, 4};
    rsv_kv03_policy p = rsv_kv03_policy_default();
    /* default bound (nothing flushed before commit) and bound 1 (flush after
     * every record, carrying partial bytes at bits 30, 47, 61) */
    size_t flushes[2] = {0, 1};
    for (int k = 0; k < 2; k++) {
        rsv_kv03_writer_stats st;
        cr_assert_eq(write_path(&p, NULL, 0, &s, path, flushes[k], &st), RSV_OK);
        expect_same_file(path, FILE_12_3, 360);
        cr_assert_eq(st.data_bits, 97);
        cr_assert_eq(st.streaming, 1);
        /* bound 1: every record flushed all but its partial byte: 12 of the
         * 13 data bytes (97 bits) are in the file before commit */
        cr_assert_eq(st.flushed_bytes, k ? 12u : 0u);
    }
    recset e = {NULL, NULL, 0};
    cr_assert_eq(write_path(&p, NULL, 0, &e, path, 0, NULL), RSV_OK);
    expect_same_file(path, FILE_EMPTY, 320);
    int tmps;
    cr_assert_eq(dir_entries(dir, &tmps), 1);
    cr_assert_eq(tmps, 0);
    remove(path);
    cr_assert_eq(rmdir(dir), 0);
}

static void identity_case(const char *dir, uint64_t seed, size_t n, size_t klen, int fixed,
                          const rsv_kv03_policy *p, const uint8_t *code, uint64_t cbits)
{
    recset s = gen(seed, n, klen, fixed);
    uint8_t *mem;
    size_t nmem;
    cr_assert_eq(rsv_kv03_encode(p, code, cbits, s.r, s.n, &mem, &nmem), RSV_OK);
    char path[128];
    snprintf(path, sizeof path, "%s/set.kv", dir);
    size_t flushes[4] = {0, 1, 7, 4096};
    for (int k = 0; k < 4; k++) {
        rsv_kv03_writer_stats st;
        cr_assert_eq(write_path(p, code, cbits, &s, path, flushes[k], &st), RSV_OK);
        expect_same_file(path, mem, nmem);
        size_t bound = flushes[k] ? flushes[k] : RSV_KV03_FLUSH_BYTES;
        cr_assert_leq(st.buffered_max, bound + MAX_RECORD_BYTES, "seed %llu flush %zu: %llu buffered",
                      (unsigned long long)seed, bound, (unsigned long long)st.buffered_max);
        cr_assert_leq(st.buffer_capacity, 2 * (bound + MAX_RECORD_BYTES) > 64 ? 2 * (bound + MAX_RECORD_BYTES) : 64);
        uint64_t data_bytes = (st.data_bits + 7) / 8;
        if (data_bytes > bound + MAX_RECORD_BYTES) cr_assert_gt(st.flushed_bytes, 0);
        cr_assert_leq(st.flushed_bytes, data_bytes);
    }
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open_path(path, p, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_scan(&f, NULL), RSV_OK);
    cr_assert_eq(f.N, s.n);
    rsv_kv03_close(&f);
    remove(path);
    free(mem);
    recset_free(&s);
}

Test(kv03_stream_output, random_sets_identical, .timeout = 600)
{
    char dir[] = "/tmp/rsv_stream_XXXXXX";
    make_dir(dir);
    rsv_kv03_policy pols[4] = {rsv_kv03_policy_default(), {RSV_BACKSPACE_GOLOMB, 7, 2, 3},
                               {RSV_BACKSPACE_EG, 3, 1, 7}, {RSV_BACKSPACE_EG, 0, 64, 63}};
    static const uint8_t code9[2] = {0xa5, 0x80};
    for (int pi = 0; pi < 4; pi++) {
        identity_case(dir, 11 + (uint64_t)pi, 1, 50, 1, &pols[pi], NULL, 0);
        identity_case(dir, 21 + (uint64_t)pi, 300, 12, 0, &pols[pi], code9, 9);
        identity_case(dir, 31 + (uint64_t)pi, 2000, 50, 1, &pols[pi], NULL, 0);
    }
    identity_case(dir, 41, 5000, 6, 0, &pols[0], NULL, 0); /* many duplicates, short keys */
    int tmps;
    cr_assert_eq(dir_entries(dir, &tmps), 0);
    cr_assert_eq(rmdir(dir), 0);
}

/* 20,000 records, 50-byte keys, values up to 100 bytes: a ~2.3 MB data
 * stream of which at most the bound + one record is ever buffered, while the
 * in-memory writer buffers all of it (so the bound assertion can fail). */
Test(kv03_stream_output, large_stream_bounded, .timeout = 600)
{
    char dir[] = "/tmp/rsv_stream_XXXXXX";
    make_dir(dir);
    char path[96];
    snprintf(path, sizeof path, "%s/big.kv", dir);
    rsv_kv03_policy p = rsv_kv03_policy_default();
    recset s = gen(2024, 20000, 50, 1);
    cr_assert_eq(s.n, 20000); /* random 50-byte keys do not collide */
    rsv_kv03_writer mw;
    cr_assert_eq(rsv_kv03_writer_init(&mw, &p, NULL, 0), RSV_OK);
    for (size_t i = 0; i < s.n; i++)
        cr_assert_eq(rsv_kv03_writer_add(&mw, s.r[i].key, s.r[i].key_len, s.r[i].value), RSV_OK);
    rsv_kv03_writer_stats ms;
    rsv_kv03_writer_get_stats(&mw, &ms);
    cr_assert_eq(ms.streaming, 0);
    cr_assert_eq(ms.flushed_bytes, 0);
    cr_assert_gt(ms.buffered_max, 1000000); /* in memory: the whole stream */
    uint8_t *mem;
    size_t nmem;
    cr_assert_eq(rsv_kv03_writer_finish(&mw, &mem, &nmem), RSV_OK);
    rsv_kv03_writer_free(&mw);

    rsv_kv03_writer_stats st;
    cr_assert_eq(write_path(&p, NULL, 0, &s, path, 0, &st), RSV_OK);
    expect_same_file(path, mem, nmem);
    cr_assert_eq(st.data_bits, ms.data_bits);
    cr_assert_leq(st.buffered_max, RSV_KV03_FLUSH_BYTES + MAX_RECORD_BYTES);
    cr_assert_gt(st.buffered_max, RSV_KV03_FLUSH_BYTES); /* it did fill up to the bound */
    cr_assert_leq(st.buffer_capacity, 2 * (RSV_KV03_FLUSH_BYTES + MAX_RECORD_BYTES));
    cr_assert_geq(st.flushed_bytes, (st.data_bits + 7) / 8 - RSV_KV03_FLUSH_BYTES - MAX_RECORD_BYTES);
    /* one u64 per block: ceil(20000 / 15) = 1334 blocks, capacity doubled from 16 */
    cr_assert_geq(st.offset_bytes, 8u * 1334);
    cr_assert_leq(st.offset_bytes, 8u * 2048);
    remove(path);
    cr_assert_eq(rmdir(dir), 0);
    free(mem);
    recset_free(&s);
}

/* The block-offset table (kv03.h stats: 8 bytes per block) grows
 * geometrically from 16 slots and only when it is full: after b blocks it
 * holds at least b slots and, past 16, fewer than 2b (a doubling from a full
 * table of c < b slots gives 2c < 2b). W = 1: one block per record. */
Test(kv03_stream_output, offset_table_grows_only_when_full)
{
    const rsv_kv03_policy p = {RSV_BACKSPACE_EG, 0, 1, 3};
    rsv_kv03_writer w;
    cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
    for (uint64_t b = 1; b <= 70; b++) {
        uint8_t key[2] = {(uint8_t)(b >> 8), (uint8_t)b};
        cr_assert_eq(rsv_kv03_writer_add(&w, key, 2, rsv_value_present("v", 1)), RSV_OK);
        rsv_kv03_writer_stats st;
        rsv_kv03_writer_get_stats(&w, &st);
        uint64_t most = b <= 16 ? 16 : 2 * b - 1;
        cr_assert(st.offset_bytes >= 8 * b && st.offset_bytes <= 8 * most, "%llu blocks: %llu offset bytes",
                  (unsigned long long)b, (unsigned long long)st.offset_bytes);
    }
    rsv_kv03_writer_free(&w);
}

/* kv03.h: "once more than the flush bound ... of data-stream bytes are
 * buffered, the whole bytes are appended to the temporary and only the
 * trailing partial byte stays". The §12.3 records end at data bits 30, 47,
 * 61 and 97. Bound 4: after record 0 exactly 4 bytes are buffered (not more
 * than 4: nothing flushed); record 1 makes 6 (47 bits: 5 whole bytes
 * flushed, 7 bits kept); record 2 makes 3 (bits 40..61); record 3 makes 8
 * (bits 40..97: 12 whole bytes flushed in all). Bound 3: 4 > 3 after record
 * 0 (3 bytes flushed), 3 after record 1 (bits 24..47), 5 after record 2
 * (7 flushed), 6 after record 3 (12 flushed). flushed_bytes after each
 * record, by hand, and buffered_bytes (what stays: bound 4 {4, 1, 3, 1},
 * bound 3 {1, 3, 1, 1}) and buffered_max (the peak before flushing: {4, 6,
 * 6, 8} and {4, 4, 5, 6}); the committed file is §12.3's either way. */
Test(kv03_stream_output, flush_only_past_the_bound)
{
    static const uint64_t want[2][4] = {{0, 5, 5, 12}, {3, 3, 7, 12}};
    static const uint64_t kept[2][4] = {{4, 1, 3, 1}, {1, 3, 1, 1}}, peak[2][4] = {{4, 6, 6, 8}, {4, 4, 5, 6}};
    char dir[] = "/tmp/rsv_stream_XXXXXX";
    make_dir(dir);
    char path[96];
    snprintf(path, sizeof path, "%s/bound.kv", dir);
    rsv_kv03_policy p = rsv_kv03_policy_default();
    for (int k = 0; k < 2; k++) {
        size_t bound = k ? 3 : 4;
        rsv_kv03_writer w;
        cr_assert_eq(rsv_kv03_writer_init_path(&w, &p, NULL, 0, path), RSV_OK);
        cr_assert_eq(rsv_kv03_writer_set_flush_bytes(&w, bound), RSV_OK);
        for (int i = 0; i < 4; i++) {
            cr_assert_eq(rsv_kv03_writer_add(&w, RECS[i].key, RECS[i].key_len, RECS[i].value), RSV_OK);
            rsv_kv03_writer_stats st;
            rsv_kv03_writer_get_stats(&w, &st);
            cr_assert_eq(st.flushed_bytes, want[k][i], "bound %zu, record %d: %llu bytes flushed, want %llu",
                         bound, i, (unsigned long long)st.flushed_bytes, (unsigned long long)want[k][i]);
            cr_assert(st.buffered_bytes == kept[k][i] && st.buffered_max == peak[k][i],
                      "bound %zu, record %d: %llu bytes buffered (peak %llu), want %llu (%llu)", bound, i,
                      (unsigned long long)st.buffered_bytes, (unsigned long long)st.buffered_max,
                      (unsigned long long)kept[k][i], (unsigned long long)peak[k][i]);
        }
        cr_assert_eq(rsv_kv03_writer_commit(&w), RSV_OK);
        rsv_kv03_writer_free(&w);
        expect_same_file(path, FILE_12_3, 360);
    }
    remove(path);
    cr_assert_eq(rmdir(dir), 0);
}

/* kv03.h: "For an in-memory writer everything stays buffered." The §12.3
 * records end at data bits 30, 47, 61 and 97, so buffered_bytes and
 * buffered_max are 4, 6, 8 and 13 after them (the header room the writer
 * keeps in front of the data is not data), and nothing is flushed. */
Test(kv03_stream_output, in_memory_writer_buffers_every_data_byte)
{
    static const uint64_t bits[4] = {30, 47, 61, 97}, bytes[4] = {4, 6, 8, 13};
    rsv_kv03_policy p = rsv_kv03_policy_default();
    rsv_kv03_writer w;
    cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(rsv_kv03_writer_add(&w, RECS[i].key, RECS[i].key_len, RECS[i].value), RSV_OK);
        rsv_kv03_writer_stats st;
        rsv_kv03_writer_get_stats(&w, &st);
        cr_assert(st.data_bits == bits[i] && st.flushed_bytes == 0 && st.buffered_bytes == bytes[i] &&
                      st.buffered_max == bytes[i] && !st.streaming,
                  "record %d: %llu bits, %llu flushed, %llu buffered (peak %llu), want %llu bits, %llu bytes", i,
                  (unsigned long long)st.data_bits, (unsigned long long)st.flushed_bytes,
                  (unsigned long long)st.buffered_bytes, (unsigned long long)st.buffered_max,
                  (unsigned long long)bits[i], (unsigned long long)bytes[i]);
    }
    uint8_t *out = NULL;
    size_t n = 0;
    cr_assert_eq(rsv_kv03_writer_finish(&w, &out, &n), RSV_OK);
    cr_assert(n == 360 && memcmp(out, FILE_12_3, 360) == 0, "the file is not §12.3");
    free(out);
    rsv_kv03_writer_free(&w);
}

/* ---- states ------------------------------------------------------------- */

Test(kv03_stream_output, states)
{
    char dir[] = "/tmp/rsv_stream_XXXXXX";
    make_dir(dir);
    char path[96], other[96];
    snprintf(path, sizeof path, "%s/s.kv", dir);
    snprintf(other, sizeof other, "%s/other.kv", dir);
    rsv_kv03_policy p = rsv_kv03_policy_default();
    rsv_kv03_writer w;
    cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_commit(&w), RSV_ERR_STATE);         /* in-memory writer */
    cr_assert_eq(rsv_kv03_writer_set_flush_bytes(&w, 10), RSV_ERR_STATE);
    rsv_kv03_writer_free(&w);

    cr_assert_eq(rsv_kv03_writer_init_path(&w, &p, NULL, 0, path), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_set_flush_bytes(&w, 0), RSV_ERR_INVALID_ARGUMENT);
    for (int i = 0; i < 4; i++)
        cr_assert_eq(rsv_kv03_writer_add(&w, RECS[i].key, RECS[i].key_len, RECS[i].value), RSV_OK);
    uint8_t *out;
    size_t n;
    cr_assert_eq(rsv_kv03_writer_finish(&w, &out, &n), RSV_ERR_STATE);  /* no in-memory result */
    cr_assert_eq(rsv_kv03_writer_finish_unsealed(&w, &out, &n), RSV_ERR_STATE);
    cr_assert_eq(rsv_kv03_writer_finish_path(&w, other), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_writer_diag(&w).status, RSV_OK);             /* not poisoned */
    cr_assert_eq(access(path, F_OK), -1);                              /* not yet published */
    cr_assert_eq(rsv_kv03_writer_finish_path(&w, path), RSV_OK);       /* = commit */
    cr_assert_eq(rsv_kv03_writer_commit(&w), RSV_ERR_STATE);
    cr_assert_eq(rsv_kv03_writer_add(&w, "z", 1, rsv_value_tombstone()), RSV_ERR_STATE);
    rsv_kv03_writer_free(&w);
    expect_same_file(path, FILE_12_3, 360);
    cr_assert_eq(access(other, F_OK), -1);
    int tmps;
    cr_assert_eq(dir_entries(dir, &tmps), 1);
    cr_assert_eq(tmps, 0);
    remove(path);
    cr_assert_eq(rmdir(dir), 0);
}

/* ---- merges ------------------------------------------------------------- */

Test(kv03_stream_output, merge_spec_halves)
{
    char dir[] = "/tmp/rsv_stream_XXXXXX";
    make_dir(dir);
    char path[96];
    snprintf(path, sizeof path, "%s/merged.kv", dir);
    rsv_kv03_policy p = rsv_kv03_policy_default();
    /* {"a"→"x", "b"→""} and {"ab"→⊥, "ba"→"yz"} (KV03.md §12, §11.2) */
    rsv_record older[2] = {RECS[0], RECS[2]}, newer[2] = {RECS[1], RECS[3]};
    uint8_t *a, *b, *mem;
    size_t na, nb, nmem;
    cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, older, 2, &a, &na), RSV_OK);
    cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, newer, 2, &b, &nb), RSV_OK);
    rsv_kv03_file fa, fb;
    cr_assert_eq(rsv_kv03_open(a, na, &p, &fa), RSV_OK);
    cr_assert_eq(rsv_kv03_open(b, nb, &p, &fb), RSV_OK);
    const rsv_kv03_file *in[2] = {&fa, &fb};
    cr_assert_eq(rsv_merge_files(in, 2, 0, &mem, &nmem), RSV_OK);
    cr_assert_eq(nmem, 360);
    cr_assert_eq(memcmp(mem, FILE_12_3, 360), 0);

    rsv_merge m;
    cr_assert_eq(rsv_merge_init_path(&m, in, 2, 0, path), RSV_OK);
    cr_assert_eq(rsv_merge_commit(&m), RSV_ERR_STATE); /* not run yet */
    cr_assert_eq(rsv_merge_run(&m), RSV_OK);
    uint8_t *out;
    size_t nout;
    cr_assert_eq(rsv_merge_finish(&m, &out, &nout), RSV_ERR_STATE); /* a path merge */
    cr_assert_eq(rsv_merge_commit(&m), RSV_OK);
    cr_assert_eq(rsv_merge_commit(&m), RSV_ERR_STATE);
    rsv_merge_free(&m);
    expect_same_file(path, FILE_12_3, 360);
    /* the one-call form and finish_path with the init path */
    remove(path);
    cr_assert_eq(rsv_merge_files_path(in, 2, 0, path), RSV_OK);
    expect_same_file(path, FILE_12_3, 360);
    remove(path);
    cr_assert_eq(rsv_merge_init_path(&m, in, 2, 0, path), RSV_OK);
    cr_assert_eq(rsv_merge_run(&m), RSV_OK);
    cr_assert_eq(rsv_merge_finish_path(&m, "/nonexistent/elsewhere.kv"), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_merge_finish_path(&m, path), RSV_OK);
    rsv_merge_free(&m);
    expect_same_file(path, FILE_12_3, 360);
    remove(path);
    cr_assert_eq(rmdir(dir), 0);
    free(a);
    free(b);
    free(mem);
}

Test(kv03_stream_output, merge_random_identical_and_bounded, .timeout = 600)
{
    char dir[] = "/tmp/rsv_stream_XXXXXX";
    make_dir(dir);
    char path[96];
    snprintf(path, sizeof path, "%s/merged.kv", dir);
    rsv_kv03_policy p = rsv_kv03_policy_default();
    /* three inputs of 50-byte keys drawn from a shared pool, so keys repeat
     * across inputs (newest wins) and the output stream is > 64 KiB */
    recset pool = gen(99, 9000, 50, 1);
    rsv_rng g = {7};
    uint8_t *bytes[3];
    size_t nbytes[3];
    rsv_kv03_file f[3];
    for (int k = 0; k < 3; k++) {
        rsv_record *sub = malloc(pool.n * sizeof *sub);
        size_t ns = 0;
        for (size_t i = 0; i < pool.n; i++)
            if (rsv_rng_below(&g, 2)) sub[ns++] = pool.r[i];
        cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, sub, ns, &bytes[k], &nbytes[k]), RSV_OK);
        cr_assert_eq(rsv_kv03_open(bytes[k], nbytes[k], &p, &f[k]), RSV_OK);
        free(sub);
    }
    const rsv_kv03_file *in[3] = {&f[0], &f[1], &f[2]};
    for (unsigned flags = 0; flags <= RSV_MERGE_DROP_TOMBSTONES; flags++) {
        uint8_t *mem;
        size_t nmem;
        cr_assert_eq(rsv_merge_files(in, 3, flags, &mem, &nmem), RSV_OK);
        cr_assert_gt(nmem, 2 * RSV_KV03_FLUSH_BYTES);
        rsv_merge m;
        cr_assert_eq(rsv_merge_init_path(&m, in, 3, flags, path), RSV_OK);
        cr_assert_eq(rsv_merge_run(&m), RSV_OK);
        rsv_kv03_writer_stats st;
        rsv_kv03_writer_get_stats(&rsv__merge_of(&m)->out, &st);
        cr_assert_eq(st.streaming, 1);
        cr_assert_leq(st.buffered_max, RSV_KV03_FLUSH_BYTES + MAX_RECORD_BYTES);
        cr_assert_gt(st.flushed_bytes, RSV_KV03_FLUSH_BYTES);
        cr_assert_eq(rsv_merge_commit(&m), RSV_OK);
        rsv_merge_free(&m);
        expect_same_file(path, mem, nmem);
        free(mem);
    }
    remove(path);
    cr_assert_eq(rmdir(dir), 0);
    for (int k = 0; k < 3; k++) free(bytes[k]);
    recset_free(&pool);
}

/* The mapping of rsv_kv03_open_path is read-only and private: its line in
 * /proc/self/maps carries "r--p". */

/* Merging into the path of one of its (mapped, read-only) inputs: the rename
 * replaces the name only, the mapping keeps the old file readable, and the
 * result equals the in-memory merge. */
Test(kv03_stream_output, merge_over_an_input)
{
    char dir[] = "/tmp/rsv_stream_XXXXXX";
    make_dir(dir);
    char pa[96], pb[96];
    snprintf(pa, sizeof pa, "%s/a.kv", dir);
    snprintf(pb, sizeof pb, "%s/b.kv", dir);
    rsv_kv03_policy p = rsv_kv03_policy_default();
    recset s = gen(555, 4000, 50, 1), t = gen(556, 4000, 50, 1);
    cr_assert_eq(write_path(&p, NULL, 0, &s, pa, 0, NULL), RSV_OK);
    cr_assert_eq(write_path(&p, NULL, 0, &t, pb, 0, NULL), RSV_OK);
    size_t na;
    uint8_t *a = slurp(pa, &na);
    rsv_kv03_file f[2];
    cr_assert_eq(rsv_kv03_open_path(pa, &p, &f[0]), RSV_OK);
    cr_assert_eq(rsv_kv03_open_path(pb, &p, &f[1]), RSV_OK);
    const rsv_kv03_file *in[2] = {&f[0], &f[1]};
    uint8_t *mem;
    size_t nmem;
    cr_assert_eq(rsv_merge_files(in, 2, 0, &mem, &nmem), RSV_OK);
    cr_assert_eq(rsv_merge_files_path(in, 2, 0, pa), RSV_OK);
    expect_same_file(pa, mem, nmem);
    cr_assert_eq(f[0].size, na);
    cr_assert_eq(memcmp(f[0].bytes, a, na), 0); /* the old a.kv, still mapped */
    rsv_kv03_close(&f[0]);
    rsv_kv03_close(&f[1]);
    int tmps;
    cr_assert_eq(dir_entries(dir, &tmps), 2);
    cr_assert_eq(tmps, 0);
    remove(pa);
    remove(pb);
    cr_assert_eq(rmdir(dir), 0);
    free(a);
    free(mem);
    recset_free(&s);
    recset_free(&t);
}
