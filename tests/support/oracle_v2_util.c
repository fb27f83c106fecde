/* Helpers for the KV03 v2 oracle tests (oracle_v2_util.h). */
#include "oracle_v2_util.h"

#include <stdlib.h>
#include <string.h>

#include "testutil.h"

enum { POOL = 64, POOL_BYTES = 128 };

rsv_oracle_code rsv_ov2_code(const char *notation)
{
    static uint8_t pool[POOL][POOL_BYTES];
    static unsigned next;
    uint8_t *buf = pool[next++ % POOL];
    memset(buf, 0, POOL_BYTES);
    uint64_t n = rsv_parse_bits(notation, buf, POOL_BYTES, 0);
    rsv_oracle_code c = {buf, n == UINT64_MAX ? 0 : n};
    if (n == UINT64_MAX)
        abort(); /* a typo in a test's notation */
    return c;
}

rsv_oracle_crecord rsv_ov2_rec(const char *code, const char *key, const char *value)
{
    rsv_oracle_crecord r;
    memset(&r, 0, sizeof r);
    r.code = rsv_ov2_code(code);
    r.rec.key = (const uint8_t *)key;
    r.rec.key_len = key ? strlen(key) : 0;
    r.rec.state = value ? RSV_ORACLE_PRESENT : RSV_ORACLE_TOMBSTONE;
    r.rec.value = (const uint8_t *)value;
    r.rec.value_len = value ? strlen(value) : 0;
    return r;
}

uint64_t rsv_ov2_le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = n; i > 0; i--)
        v = (v << 8) | p[i - 1];
    return v;
}

void rsv_ov2_put_le(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++, v >>= 8)
        p[i] = (uint8_t)v;
}

size_t rsv_ov2_section(const uint8_t *file, unsigned i)
{
    return 96 + (size_t)rsv_ov2_le(file + 96 + 64 + 16 * i, 8);
}

void rsv_ov2_fix_crcs(uint8_t *f, size_t n)
{
    rsv_ov2_put_le(f + 64, rsv_oracle_crc32c(f + 96, n - 96), 4);
    uint8_t h[96];
    memcpy(h, f, 96);
    memset(h + 68, 0, 4);
    rsv_ov2_put_le(f + 68, rsv_oracle_crc32c(h, 96), 4);
}

int rsv_ov2_code_eq(rsv_oracle_code a, rsv_oracle_code b)
{
    return rsv_oracle_code_compare(a, b) == 0;
}
