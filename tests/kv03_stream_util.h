/* Shared helpers of the streaming-output tests (test_kv03_stream_output.c,
 * test_kv03_stream_failures.c): random record sets, whole-file reads,
 * directory listings and the path writer loop. `static inline` so each test
 * file uses what it needs without unused-function warnings. */
#ifndef RSV_TEST_KV03_STREAM_UTIL_H
#define RSV_TEST_KV03_STREAM_UTIL_H

#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reservoir/kv03.h"
#include "kv03_diff_gen.h"
#include "testutil.h"

/* Largest framed record of the generated sets, by hand: keys <= 50 bytes
 * (S, literal <= 400 bits; EG0(S) <= 17 bits), control <= EG0 / EG3 /
 * Golomb(7) of a value <= 401 (<= 17, 14, 58 bits), value <= 1 + EG0(100)
 * + 800 bits = 814 bits: < 1300 bits = 163 bytes. The buffer holds at most the
 * flush bound before a record, plus that record, plus the carried byte. */
#define MAX_RECORD_BYTES 200u

/* ---- record sets -------------------------------------------------------- */

typedef struct recset {
    rsv_record *r;
    uint8_t *store; /* keys and values */
    size_t n;
} recset;

/* n random records: keys of exactly `klen` bytes (or 0..klen over a 2-letter
 * alphabet when short, so prefixes are shared), sorted, deduplicated; values
 * tombstone, present-empty or 1..100 random bytes. */
static inline recset gen(uint64_t seed, size_t n, size_t klen, int fixed_len)
{
    rsv_rng g = {seed};
    recset s;
    s.r = calloc(n ? n : 1, sizeof *s.r);
    s.store = malloc(n * (klen + 100) + 1);
    uint8_t *p = s.store;
    for (size_t i = 0; i < n; i++) {
        size_t kl = fixed_len ? klen : (size_t)rsv_rng_below(&g, klen + 1);
        for (size_t j = 0; j < kl; j++)
            p[j] = fixed_len ? (uint8_t)rsv_rng_next(&g) : (uint8_t)("ab"[rsv_rng_below(&g, 2)]);
        s.r[i].key = p;
        s.r[i].key_len = kl;
        p += kl;
        uint64_t kind = rsv_rng_below(&g, 5);
        size_t vl = 1 + (size_t)rsv_rng_below(&g, 100);
        for (size_t j = 0; j < vl; j++) p[j] = (uint8_t)rsv_rng_next(&g);
        s.r[i].value = kind == 0 ? rsv_value_tombstone()
                     : kind == 1 ? rsv_value_present(p, 0)
                                 : rsv_value_present(p, vl);
        p += vl;
    }
    s.n = rsv_kv03d_sort_unique(s.r, n);
    return s;
}

static inline void recset_free(recset *s)
{
    free(s->r);
    free(s->store);
}

/* ---- files and directories ---------------------------------------------- */

static inline uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)len + 1);
    cr_assert_eq(fread(b, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    *n = (size_t)len;
    return b;
}

/* Entries of dir other than . and ..; *tmps = how many contain ".tmp.". */
static inline int dir_entries(const char *dir, int *tmps)
{
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    int n = 0, t = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        n++;
        if (strstr(e->d_name, ".tmp.")) t++;
    }
    closedir(d);
    if (tmps) *tmps = t;
    return n;
}

static inline void make_dir(char *dir) { cr_assert_not_null(mkdtemp(dir)); }

static inline void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

static inline void expect_content(const char *path, const char *text)
{
    size_t n;
    uint8_t *b = slurp(path, &n);
    cr_assert_eq(n, strlen(text));
    cr_assert_eq(memcmp(b, text, n), 0);
    free(b);
}

/* ---- writing ------------------------------------------------------------ */

/* The path writer over s; flush = 0 keeps the default bound. */
static inline rsv_status write_path(const rsv_kv03_policy *p, const uint8_t *code, uint64_t cbits,
                             const recset *s, const char *path, size_t flush,
                             rsv_kv03_writer_stats *stats)
{
    rsv_kv03_writer w;
    rsv_status st = rsv_kv03_writer_init_path(&w, p, code, cbits, path);
    if (!st && flush) st = rsv_kv03_writer_set_flush_bytes(&w, flush);
    for (size_t i = 0; !st && i < s->n; i++)
        st = rsv_kv03_writer_add(&w, s->r[i].key, s->r[i].key_len, s->r[i].value);
    if (stats) rsv_kv03_writer_get_stats(&w, stats);
    if (!st) st = rsv_kv03_writer_commit(&w);
    rsv_kv03_writer_free(&w);
    return st;
}

static inline void expect_same_file(const char *path, const uint8_t *want, size_t nwant)
{
    size_t n;
    uint8_t *got = slurp(path, &n);
    cr_assert_eq(n, nwant, "%s: %zu bytes, want %zu", path, n, nwant);
    cr_assert_eq(memcmp(got, want, n), 0, "%s differs from the in-memory bytes", path);
    free(got);
}


#endif
