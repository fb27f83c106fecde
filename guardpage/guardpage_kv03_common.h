/* Shared by the KV03 guard-page tests: a tiny pass/fail counter and file
 * builders (files are encoded by the oracle, so the codec under test never
 * produces its own inputs). */
#ifndef RSV_GUARDPAGE_KV03_COMMON_H
#define RSV_GUARDPAGE_KV03_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "guardpage.h"

#include "kv03_diff.h"
#include "kv03_diff_gen.h"
#include "reservoir/oracle_kv03.h"

static unsigned long gk_pass, gk_fail;

static void gk_check(int ok, const char *what, const char *detail)
{
    if (ok) {
        gk_pass++;
    } else {
        if (gk_fail < 10) fprintf(stderr, "FAIL: %s: %s\n", what, detail);
        gk_fail++;
    }
}

static int gk_report(void)
{
    printf("%lu passed, %lu failed\n", gk_pass, gk_fail);
    return gk_fail ? 1 : 0;
}

/* Oracle-encoded file of a generated set (NULL on failure). */
static uint8_t *gk_encode(const rsv_record *r, size_t n, const rsv_oracle_kv03_policy *p, size_t *len)
{
    rsv_oracle_record *o = calloc(n ? n : 1, sizeof *o);
    if (!o) return NULL;
    rsv_kv03d_to_oracle(r, n, o);
    uint8_t *out = NULL;
    size_t bad;
    rsv_status st = rsv_oracle_kv03_encode(o, n, p, (const uint8_t *)"\0", 1, &out, len, &bad);
    free(o);
    return st == RSV_OK ? out : NULL;
}

/* The §12 records: "a"→"x", "ab"→⊥, "b"→"", "ba"→"yz". */
static const rsv_record gk_recs12[4] = {
    {(const uint8_t *)"a", 1, {RSV_VALUE_PRESENT, (const uint8_t *)"x", 1}},
    {(const uint8_t *)"ab", 2, {RSV_VALUE_TOMBSTONE, NULL, 0}},
    {(const uint8_t *)"b", 1, {RSV_VALUE_PRESENT, NULL, 0}},
    {(const uint8_t *)"ba", 2, {RSV_VALUE_PRESENT, (const uint8_t *)"yz", 2}},
};

/* A file mapped so that file[0..readable) ends exactly at the end of a
 * readable page and file[readable..n) lies, intact, in PROT_NONE pages. */
typedef struct gk_mapped {
    uint8_t *map;
    size_t len;
    uint8_t *file;
} gk_mapped;

/* Map a copy of bytes[0..n) into fresh read-write pages so that bytes[cut]
 * is the first byte of a page, with at least one whole page after the copy;
 * *lead = the bytes of the pages before that page. */
static int gk_map_at(gk_mapped *m, const uint8_t *bytes, size_t n, size_t cut, size_t *lead)
{
    size_t page = rsv_guard_page_size();
    size_t lp = (cut + page - 1) / page, rest = n > cut ? n - cut : 0;
    if (lp == 0) lp = 1;
    size_t pages = lp + (rest + page - 1) / page + 1;
    m->len = pages * page;
    m->map = mmap(NULL, m->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m->map == MAP_FAILED) return -1;
    m->file = m->map + lp * page - cut;
    memcpy(m->file, bytes, n);
    *lead = lp * page;
    return 0;
}

static int gk_map_split(gk_mapped *m, const uint8_t *bytes, size_t n, size_t readable)
{
    size_t lead;
    if (gk_map_at(m, bytes, n, readable, &lead) != 0) return -1;
    if (mprotect(m->map, lead, PROT_READ) != 0) return -1;
    return mprotect(m->map + lead, m->len - lead, PROT_NONE);
}

static void gk_unmap(gk_mapped *m) { munmap(m->map, m->len); }

#endif
