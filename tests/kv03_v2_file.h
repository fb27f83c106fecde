/* The KV03.md §12.5 multi-code file for the v2 reader tests, read from the
 * in-repo spec (docs/spec/KV03.md, located from this header's path) by a
 * minimal hex-dump parser: the first indented "OOOO  xx xx ..." block after
 * the heading. (A shared parser, tests/support/spec_doc.h, is being written
 * on another branch; this one can then be replaced by it.) Plus the spec's
 * per-record facts used by several tests. */
#ifndef RSV_TEST_KV03_V2_FILE_H
#define RSV_TEST_KV03_V2_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bytes of the first hex dump after the line starting with `heading`, in a
 * malloc'd buffer; NULL when the heading or the dump is missing. */
static inline uint8_t *kv03v2_spec_hexdump(const char *heading, size_t *n)
{
    char path[4096];
    const char *here = __FILE__, *slash = strrchr(here, '/');
    size_t dir = slash ? (size_t)(slash - here) : 0; /* .../tests */
    if (snprintf(path, sizeof path, "%.*s/../docs/spec/KV03.md", (int)dir, here) >= (int)sizeof path) return NULL;
    FILE *fp = fopen(path, "r");
    if (!fp) return NULL;
    char line[512];
    int found = 0, in_dump = 0;
    size_t cap = 1024, len = 0;
    uint8_t *out = malloc(cap);
    while (out && fgets(line, sizeof line, fp)) {
        if (!found) {
            found = strncmp(line, heading, strlen(heading)) == 0;
            continue;
        }
        unsigned offset;
        int used = 0;
        if (strncmp(line, "    ", 4) == 0 && sscanf(line + 4, "%4x%n", &offset, &used) == 1 && used == 4 &&
            offset == len) {
            in_dump = 1;
            const char *p = line + 8;
            unsigned byte;
            int k;
            while (sscanf(p, " %2x%n", &byte, &k) == 1 && len < cap) {
                out[len++] = (uint8_t)byte;
                p += k;
            }
        } else if (in_dump) {
            break;
        }
    }
    fclose(fp);
    if (!in_dump) {
        free(out);
        return NULL;
    }
    *n = len;
    return out;
}

/* §12.5: data section at file byte 96 + 192; dictionary (section 5) at body
 * 240, offsets (section 6) at body 248, seeds (section 7) at body 280. */
#define V2_DATA 288
#define V2_DICT (96 + 240)
#define V2_OFFS (96 + 248)
#define V2_SEEDS (96 + 280)
#define V2_DIR_DICT_BITS (96 + 32)

typedef struct v2_rec {
    uint64_t start, end, code, R, local;
    const char *key;
    size_t key_len;
    int tomb;
    const char *val;
    size_t val_len;
} v2_rec;

/* §12.5 table: bits 30, 17, 14, 38, 9, 18 from bit 0; R and local from the
 * controls (record 4: cont 10 − 2 = 8 = 2 + 6). */
static const v2_rec V2_RECS[6] = {
    {0, 30, 0, 1, 0, "a", 1, 0, "x", 1},   {30, 47, 0, 9, 8, "ab", 2, 1, NULL, 0},
    {47, 61, 1, 0, 0, "", 0, 0, "", 0},    {61, 99, 2, 2, 0, "a", 1, 0, "yz", 2},
    {99, 108, 2, 8, 6, "b", 1, 1, NULL, 0}, {108, 126, 2, 10, 8, "ba", 2, 0, "", 0},
};

#endif
