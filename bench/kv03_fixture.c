#define _POSIX_C_SOURCE 200809L
/* WORKLOADS.md §4: fixture generation, encodings and their untimed checks. */
#include "kv03_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mix.h"
#include "workload.h"

#include "reservoir/stream.h"

static const char k_prefix[] = "documents/persistent/shared/string/prefix/"; /* 42 bytes */
#define PREFIX_LEN 42
#define PREFIX_KEY_LEN (PREFIX_LEN + 8)
#define HASH_KEY_LEN 16

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

static void put_be64(uint8_t *p, uint64_t x)
{
    for (int b = 7; b >= 0; b--, x >>= 8) p[b] = (uint8_t)x;
}

static int rec_cmp(const void *a, const void *b)
{
    const rsv_record *x = a, *y = b;
    size_t n = x->key_len < y->key_len ? x->key_len : y->key_len;
    int c = memcmp(x->key, y->key, n);
    if (c) return c;
    return (x->key_len > y->key_len) - (x->key_len < y->key_len);
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

static void generate(kv03_fixture *fx)
{
    uint64_t R = fx->R;
    size_t klen = fx->shape->hash ? HASH_KEY_LEN : PREFIX_KEY_LEN;
    fx->recs = calloc((size_t)R, sizeof *fx->recs);
    fx->keys = malloc((size_t)R * klen);
    size_t vbytes = 0;
    for (uint64_t i = 0; i < R; i++)
        if (i % 17 != 0) vbytes += (size_t)(rsv_bench_mix(i + 3) % (fx->shape->max + 1));
    fx->vals = malloc(vbytes ? vbytes : 1);
    if (!fx->recs || !fx->keys || !fx->vals) rsv_bench_fail("out of memory (fixture)");
    size_t vat = 0;
    fx->max_key = klen;
    fx->max_val = 0;
    for (uint64_t i = 0; i < R; i++) {
        uint8_t *k = fx->keys + i * klen;
        if (fx->shape->hash) {
            put_be64(k, rsv_bench_mix(i));
            put_be64(k + 8, rsv_bench_mix(i + 0x12345678));
        } else {
            memcpy(k, k_prefix, PREFIX_LEN);
            put_be64(k + PREFIX_LEN, i);
        }
        rsv_record *r = &fx->recs[i];
        r->key = k;
        r->key_len = klen;
        if (i % 17 == 0) {
            r->value = rsv_value_tombstone();
            continue;
        }
        size_t len = (size_t)(rsv_bench_mix(i + 3) % (fx->shape->max + 1));
        uint8_t *v = fx->vals + vat;
        for (size_t j = 0; j < len; j++) v[j] = (uint8_t)rsv_bench_mix(i * 65537 + j);
        vat += len;
        r->value = rsv_value_present(len ? v : NULL, len);
        if (len > fx->max_val) fx->max_val = len;
    }
    qsort(fx->recs, (size_t)R, sizeof *fx->recs, rec_cmp);
    for (uint64_t p = 1; p < R; p++)
        if (rec_cmp(&fx->recs[p - 1], &fx->recs[p]) >= 0) rsv_bench_fail("fixture keys not unique");
    if (fx->shape->codes) {
        if (fx->shape->codes != 4) rsv_bench_fail("only the 4-code split is defined");
        for (uint64_t p = 0; p < R; p++) {
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
    free(fx->recs);
    free(fx->keys);
    free(fx->vals);
    memset(fx, 0, sizeof *fx);
}

static int pick(int split, unsigned n, unsigned j, uint64_t p)
{
    switch (split) {
    case KV03_SPLIT_DISJOINT: return j == 0 ? p % 2 == 0 : p % 2 == 1;
    case KV03_SPLIT_OVERLAP: return j == 0 ? 1 : p % 2 == 1;
    default: return p % n == j;
    }
}

void kv03_write_inputs(const kv03_fixture *fx, int split, unsigned n, rsv_kv03_file *files)
{
    rsv_kv03_policy pol = rsv_kv03_policy_default();
    rsv_record *sub = malloc((size_t)fx->R * sizeof *sub);
    if (!sub) rsv_bench_fail("out of memory");
    for (unsigned j = 0; j < n; j++) {
        size_t k = 0;
        for (uint64_t p = 0; p < fx->R; p++)
            if (pick(split, n, j, p)) sub[k++] = fx->recs[p];
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
