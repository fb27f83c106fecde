#define _POSIX_C_SOURCE 200809L
/* WORKLOADS.md §4: fixture generation, encodings and their untimed checks. */
#include "kv03_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

#include "reservoir/stream.h"

/* The multi-code fixture's codes {`0`, `10`, `110`, `111`}, MSB-first: one
 * byte each, and concatenated (`010110111`) with their ends for the stream
 * reader's code set. */
static const uint8_t k_code_bytes[4][1] = {{0x00}, {0x80}, {0xC0}, {0xE0}};
static const uint64_t k_code_len[4] = {1, 2, 3, 3};
static const uint8_t k_set_bits[2] = {0x5B, 0x80};
static const uint64_t k_set_ends[4] = {1, 3, 6, 9};

/* Code index of sorted position p (quarters by position). */
static unsigned code_of(const kv03_fixture *fx, uint64_t p)
{
    return fx->shape->codes ? (unsigned)(p * fx->shape->codes / fx->R) : 0;
}

void kv03_fixture_path(const kv03_fixture *fx, const char *suffix, char *buf, size_t cap)
{
    int n = snprintf(buf, cap, "%s/%s%s", fx->dir, fx->shape->name, suffix);
    if (n < 0 || (size_t)n >= cap) rsv_bench_fail("fixture path too long");
}

static void write_file(const char *path, const uint8_t *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0) rsv_bench_fail("cannot write %s", path);
}

/* The shared §4 generator (tools/workloads), then the multi-code split. */
static void generate(kv03_fixture *fx)
{
    rsv_status st = rsv_wl_fixture_generate(&fx->gen, fx->shape->hash, fx->shape->max, fx->R);
    if (st == RSV_ERR_UNSORTED) rsv_bench_fail("fixture keys not unique");
    if (st != RSV_OK) rsv_bench_fail("out of memory (fixture)");
    fx->recs = fx->gen.recs;
    fx->max_key = fx->gen.key_len;
    fx->max_val = fx->gen.max_val;
    if (fx->shape->codes) {
        if (fx->shape->codes != 4) rsv_bench_fail("only the 4-code split is defined");
        for (uint64_t p = 0; p < fx->R; p++) {
            unsigned q = code_of(fx, p);
            fx->recs[p].code = k_code_bytes[q];
            fx->recs[p].code_bits = k_code_len[q];
        }
        fx->set.bits = k_set_bits;
        fx->set.ends = k_set_ends;
        fx->set.m = 4;
    }
}

static int value_equal(rsv_value a, rsv_value b)
{
    if (a.kind != b.kind) return 0;
    if (a.kind == RSV_VALUE_TOMBSTONE) return 1;
    return a.len == b.len && (a.len == 0 || memcmp(a.data, b.data, a.len) == 0);
}

/* Full scan (§9.2) and every key and value through a cursor. */
static void verify_file(const kv03_fixture *fx, const rsv_kv03_file *f, const char *what)
{
    if (rsv_kv03_scan(f, NULL) != RSV_OK) rsv_bench_fail("%s: scan failed", what);
    if (f->N != fx->R) rsv_bench_fail("%s: N = %llu", what, (unsigned long long)f->N);
    if (rsv_kv03_code_count(f) != (fx->shape->codes ? fx->shape->codes : 1))
        rsv_bench_fail("%s: %llu codes", what, (unsigned long long)rsv_kv03_code_count(f));
    rsv_kv03_cursor c;
    rsv_kv03_entry e;
    int more = 1;
    if (rsv_kv03_cursor_init(&c, f) != RSV_OK) rsv_bench_fail("%s: cursor init", what);
    for (uint64_t p = 0;; p++) {
        if (rsv_kv03_cursor_record(&c, &e, &more) != RSV_OK) rsv_bench_fail("%s: cursor", what);
        if (!more) {
            if (p != fx->R) rsv_bench_fail("%s: %llu records", what, (unsigned long long)p);
            break;
        }
        const rsv_record *r = &fx->recs[p];
        if (p >= fx->R || e.key_len != r->key_len || memcmp(e.key, r->key, r->key_len) != 0 ||
            !value_equal(e.value, r->value) || e.code != code_of(fx, p))
            rsv_bench_fail("%s: record %llu differs", what, (unsigned long long)p);
    }
    rsv_kv03_cursor_free(&c);
}

static void build_stream(kv03_fixture *fx)
{
    rsv_stream_writer sw;
    rsv_writer_init(&fx->stream_w);
    if (rsv_stream_writer_init(&sw, &fx->stream_w, NULL, 0) != RSV_OK) rsv_bench_fail("stream init");
    for (uint64_t p = 0; p < fx->R; p++) {
        const rsv_record *r = &fx->recs[p];
        rsv_status st = fx->shape->codes
                            ? rsv_stream_writer_add_coded(&sw, r->code, r->code_bits, r->key, r->key_len, r->value)
                            : rsv_stream_writer_add(&sw, r->key, r->key_len, r->value);
        if (st != RSV_OK) rsv_bench_fail("stream add %llu", (unsigned long long)p);
    }
    uint64_t E = rsv_stream_writer_extent(&sw);
    rsv_stream_writer_free(&sw);
    fx->stream = rsv_view_make(rsv_writer_data(&fx->stream_w), 0, E);
    /* full decode: every key and value and the count */
    rsv_stream_reader sr;
    rsv_stream_record rec;
    int more = 1;
    if ((fx->shape->codes ? rsv_stream_reader_init_set(&sr, fx->stream, &fx->set)
                          : rsv_stream_reader_init(&sr, fx->stream, NULL, 0)) != RSV_OK)
        rsv_bench_fail("stream reader init");
    uint64_t p = 0;
    for (;; p++) {
        if (rsv_stream_reader_next(&sr, &rec, &more) != RSV_OK) rsv_bench_fail("stream decode");
        if (!more) break;
        const rsv_record *r = &fx->recs[p];
        if (p >= fx->R || rec.key_len != r->key_len || memcmp(rec.key, r->key, r->key_len) != 0 ||
            !value_equal(rec.value, r->value) || rec.code != code_of(fx, p))
            rsv_bench_fail("stream: record %llu differs", (unsigned long long)p);
    }
    rsv_stream_reader_free(&sr);
    if (p != fx->R) rsv_bench_fail("stream: %llu records", (unsigned long long)p);
}

void kv03_fixture_build(kv03_fixture *fx, const kv03_shape *shape, const char *dir, uint64_t R)
{
    memset(fx, 0, sizeof *fx);
    fx->shape = shape;
    fx->dir = dir;
    fx->R = R;
    generate(fx);
    rsv_kv03_policy pol = rsv_kv03_policy_default(); /* EG0, W = K = 15 */
    if (rsv_kv03_encode(&pol, NULL, 0, fx->recs, (size_t)R, &fx->full, &fx->full_len) != RSV_OK)
        rsv_bench_fail("%s: encode", shape->name);
    char path[4096];
    kv03_fixture_path(fx, ".kv", path, sizeof path);
    write_file(path, fx->full, fx->full_len);
    if (rsv_kv03_open_path(path, &pol, &fx->file) != RSV_OK) rsv_bench_fail("%s: open", path);
    if (fx->file.size != fx->full_len || memcmp(fx->file.bytes, fx->full, fx->full_len) != 0)
        rsv_bench_fail("%s: mapped bytes differ", path);
    verify_file(fx, &fx->file, shape->name);
    build_stream(fx);
}

void kv03_fixture_free(kv03_fixture *fx)
{
    rsv_kv03_close(&fx->file);
    rsv_writer_free(&fx->stream_w);
    free(fx->full);
    rsv_wl_fixture_free(&fx->gen);
    memset(fx, 0, sizeof *fx);
}

void kv03_write_inputs(const kv03_fixture *fx, int split, unsigned n, rsv_kv03_file *files)
{
    rsv_kv03_policy pol = rsv_kv03_policy_default();
    rsv_record *sub = malloc((size_t)fx->R * sizeof *sub);
    if (!sub) rsv_bench_fail("out of memory");
    for (unsigned j = 0; j < n; j++) {
        size_t k = 0;
        uint64_t start, step;
        rsv_wl_split_range(split, n, j, &start, &step);
        for (uint64_t p = start; p < fx->R; p += step) sub[k++] = fx->recs[p];
        uint8_t *bytes;
        size_t len;
        if (rsv_kv03_encode(&pol, NULL, 0, sub, k, &bytes, &len) != RSV_OK)
            rsv_bench_fail("%s: encode merge input", fx->shape->name);
        char suffix[32], path[4096];
        if (split == KV03_SPLIT_ROUND_ROBIN) snprintf(suffix, sizeof suffix, "-n%u-%u.kv", n, j);
        else snprintf(suffix, sizeof suffix, j == 0 ? "-older.kv" : "-newer.kv");
        kv03_fixture_path(fx, suffix, path, sizeof path);
        write_file(path, bytes, len);
        free(bytes);
        if (rsv_kv03_open_path(path, &pol, &files[j]) != RSV_OK) rsv_bench_fail("%s: open", path);
        if (rsv_kv03_scan(&files[j], NULL) != RSV_OK) rsv_bench_fail("%s: scan", path);
    }
    free(sub);
}

static uint64_t le64(const uint8_t *p)
{
    uint64_t x = 0;
    for (int b = 7; b >= 0; b--) x = x << 8 | p[b];
    return x;
}

uint64_t kv03_fold_output(const uint8_t *file, size_t n)
{
    if (n < RSV_KV03_HEADER_BYTES + RSV_KV03_DIRECTORY_BYTES) rsv_bench_fail("merge output too short");
    const uint8_t *body = file + RSV_KV03_HEADER_BYTES;
    uint64_t N = le64(file + 56), extent = le64(body + 8), off0 = le64(body + 64);
    uint64_t last = extent ? body[off0 + (extent + 7) / 8 - 1] : 0;
    return kv03_fold(kv03_fold(kv03_fold(0, extent), N), last);
}
