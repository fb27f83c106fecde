/* Shared by the KV03 v2 write-side tests (test_kv03_v2_write.c,
 * test_kv03_v2_merge.c, test_stream_v2.c): the §12.5 records. Expected bytes
 * come from docs/spec/KV03.md through spec_doc.h (rsv_spec_hexdump). */
#ifndef RSV_KV03_V2_UTIL_H
#define RSV_KV03_V2_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "reservoir/kv03.h"
#include "reservoir/oracle_kv03.h"
#include "reservoir/record.h"
#include "kv03_diff.h"
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

/* The oracle's v2 batch encoding of codec records (a NULL code is `0`):
 * the independent expectation for writer and merge outputs. Returns the
 * status; *out malloc'd on success. */
static inline rsv_status v2_oracle_encode(const rsv_record *r, size_t n, const rsv_kv03_policy *p, uint8_t **out,
                                          size_t *len)
{
    static const uint8_t zero[1] = {0};
    rsv_oracle_crecord *c = calloc(n ? n : 1, sizeof *c);
    if (!c) return RSV_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        rsv_kv03d_to_oracle(&r[i], 1, &c[i].rec);
        c[i].code.bits = r[i].code ? r[i].code : zero;
        c[i].code.nbits = r[i].code ? r[i].code_bits : 1;
    }
    rsv_oracle_kv03_policy op = rsv_kv03d_policy(p);
    size_t bad;
    rsv_status st = rsv_oracle_kv03_encode_v2(c, n, &op, out, len, &bad);
    free(c);
    return st;
}

#endif
