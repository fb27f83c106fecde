/* Facts of the KV03.md §12.5 multi-code file used by the v2 reader tests
 * (Criterion suites): the bytes themselves, read from docs/spec/KV03.md with
 * spec_doc.h; section positions and the per-record table. */
#ifndef RSV_TEST_KV03_V2_FILE_H
#define RSV_TEST_KV03_V2_FILE_H

#include <criterion/criterion.h>
#include <stddef.h>
#include <stdint.h>

#include "reservoir/kv03.h"
#include "spec_doc.h"

/* The §12.5 hex dump of docs/spec/KV03.md (malloc'd, *n = 377). */
static inline uint8_t *spec_file(size_t *n)
{
    uint8_t *f = NULL;
    cr_assert_eq(rsv_spec_hexdump("12.5", &f, n), 0, "no hex dump under §12.5 in docs/spec/KV03.md");
    cr_assert_eq(*n, 377);
    return f;
}

/* spec_file, opened into *f (§9.1). */
static inline uint8_t *spec_open(size_t *n, rsv_kv03_file *f)
{
    uint8_t *b = spec_file(n);
    cr_assert_eq(rsv_kv03_open(b, *n, NULL, f), RSV_OK);
    return b;
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
