/* Shared by the KV03 v2 write-side tests (test_kv03_v2_write.c,
 * test_kv03_v2_merge.c, test_stream_v2.c): the §12.5 records. Expected bytes
 * come from docs/spec/KV03.md through spec_doc.h (rsv_spec_hexdump). */
#ifndef RSV_KV03_V2_UTIL_H
#define RSV_KV03_V2_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "reservoir/record.h"
#include "spec_doc.h"

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
