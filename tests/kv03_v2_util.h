/* Shared by the KV03 v2 write-side tests (test_kv03_v2_write.c,
 * test_kv03_v2_merge.c, test_stream_v2.c): the §12.5 records and a minimal
 * reader of the spec's hex dumps, so expected bytes come from
 * docs/spec/KV03.md itself and not from the code under test.
 *
 * spec_hexdump(heading_prefix) finds the first line starting with the prefix
 * (e.g. "### 12.5"), then the first hex dump after it (lines "    0000  45 56
 * …": four spaces, a 4-digit hex offset, two spaces, bytes) and returns its
 * bytes (malloc'd). The spec is located from this header's own path
 * (__FILE__ is absolute under CMake): <tests>/../docs/spec/KV03.md. */
#ifndef RSV_KV03_V2_UTIL_H
#define RSV_KV03_V2_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reservoir/record.h"

static inline FILE *v2_spec_open(void)
{
    const char *self = __FILE__;
    const char *slash = strrchr(self, '/');
    size_t dir = slash ? (size_t)(slash - self) : 0;
    char path[4096];
    snprintf(path, sizeof path, "%.*s/../docs/spec/KV03.md", (int)dir, self);
    return fopen(path, "r");
}

static inline int v2_hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

/* A dump line: "    XXXX  hh hh …"; returns the number of bytes parsed into
 * out (at most 16), -1 when the line is not a dump line. */
static inline int v2_dump_line(const char *s, uint8_t *out, size_t *offset)
{
    if (strncmp(s, "    ", 4) != 0) return -1;
    size_t off = 0;
    for (int i = 4; i < 8; i++) {
        int v = v2_hexval(s[i]);
        if (v < 0) return -1;
        off = off * 16 + (size_t)v;
    }
    if (s[8] != ' ' || s[9] != ' ') return -1;
    int n = 0;
    const char *p = s + 10;
    while (n < 16 && v2_hexval(p[0]) >= 0 && v2_hexval(p[1]) >= 0) {
        out[n++] = (uint8_t)(v2_hexval(p[0]) * 16 + v2_hexval(p[1]));
        p += 2;
        if (*p != ' ') break;
        p++;
    }
    *offset = off;
    return n;
}

/* 0 on success (*bytes malloc'd, *n bytes), -1 when the heading or the dump
 * is missing or the dump's offsets are not consecutive. */
static inline int spec_hexdump(const char *heading_prefix, uint8_t **bytes, size_t *n)
{
    FILE *f = v2_spec_open();
    if (!f) return -1;
    char line[512];
    int found = 0, in_dump = 0;
    size_t cap = 0, len = 0;
    uint8_t *buf = NULL;
    while (fgets(line, sizeof line, f)) {
        if (!found) {
            found = strncmp(line, heading_prefix, strlen(heading_prefix)) == 0;
            continue;
        }
        uint8_t row[16];
        size_t off;
        int k = v2_dump_line(line, row, &off);
        if (k < 0) {
            if (in_dump) break;
            continue;
        }
        if (off != len) break; /* not consecutive: stop */
        in_dump = 1;
        if (len + (size_t)k > cap) {
            cap = cap ? cap * 2 : 512;
            uint8_t *q = realloc(buf, cap);
            if (!q) break;
            buf = q;
        }
        memcpy(buf + len, row, (size_t)k);
        len += (size_t)k;
    }
    fclose(f);
    if (!in_dump) {
        free(buf);
        return -1;
    }
    *bytes = buf;
    *n = len;
    return 0;
}

/* §12.5 records: code, key, value (W = 3, K = 3, EG0). Codes as bytes. */
static const uint8_t V2_C0[1] = {0x00};  /* `0` */
static const uint8_t V2_C10[1] = {0x80}; /* `10` */
static const uint8_t V2_C11[1] = {0xC0}; /* `11` */

static inline const rsv_record *v2_recs_12_5(void)
{
    static const rsv_record r[6] = {
        {(const uint8_t *)"a", 1, {RSV_VALUE_PRESENT, (const uint8_t *)"x", 1}, V2_C0, 1},
        {(const uint8_t *)"ab", 2, {RSV_VALUE_TOMBSTONE, NULL, 0}, V2_C0, 1},
        {(const uint8_t *)"", 0, {RSV_VALUE_PRESENT, NULL, 0}, V2_C10, 2},
        {(const uint8_t *)"a", 1, {RSV_VALUE_PRESENT, (const uint8_t *)"yz", 2}, V2_C11, 2},
        {(const uint8_t *)"b", 1, {RSV_VALUE_TOMBSTONE, NULL, 0}, V2_C11, 2},
        {(const uint8_t *)"ba", 2, {RSV_VALUE_PRESENT, NULL, 0}, V2_C11, 2},
    };
    return r;
}

#endif
