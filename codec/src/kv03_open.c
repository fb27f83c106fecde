/* KV03 open (KV03.md §9.1): checks 1–28 in order, first failure wins. Only
 * the 96-byte header and the 192-byte directory are read; every other body
 * byte (data, EF, dictionary, seeds) stays untouched, so open is O(1) and
 * works on a mapping whose payload is PROT_NONE. */
#include <string.h>

#include "reservoir/crc32c.h"
#include "reservoir/kv03.h"

#include "bits.h"
#include "kv03_layout.h"

static rsv_status check_header(const uint8_t *h, uint64_t size, const rsv_kv03_policy *expected,
                               rsv_kv03_file *f)
{
    if (size < RSV_KV03_HEADER_BYTES) return RSV_ERR_TRUNCATED_HEADER; /* 1 */
    if (memcmp(h, "EVRT.IX\0", 8) == 0) return RSV_ERR_WRONG_KIND;     /* 2 */
    if (memcmp(h, "EVRT.KV\0", 8) != 0) return RSV_ERR_BAD_MAGIC;
    if (rsv__le(h + HDR_VERSION, 2) != 1 || rsv__le(h + HDR_LENGTH, 2) != RSV_KV03_HEADER_BYTES)
        return RSV_ERR_BAD_VERSION; /* 3 */
    if (rsv__le(h + HDR_HEADER_CRC, 4) != rsv__kv03_header_crc(h)) return RSV_ERR_HEADER_CRC; /* 4 */
    uint32_t flags = (uint32_t)rsv__le(h + HDR_FLAGS, 4);
    if (flags & ~(FLAG_FIXED_WIDTH | FLAG_COMMON_WIDTH)) return RSV_ERR_BAD_FLAGS; /* 5 */
    if (h[HDR_UNIT] != 1) return RSV_ERR_BAD_UNIT;                                /* 6 */
    if (h[HDR_CHECKSUM] != 1) return RSV_ERR_BAD_CHECKSUM_KIND;                   /* 7 */
    if (h[HDR_RESERVED] != 0) return RSV_ERR_RESERVED;                            /* 8 */
    uint64_t param = rsv__le(h + HDR_PARAM, 8);
    unsigned code = h[HDR_BACKSPACE];
    if (code > 1 || (code == 0 && param > 63) || (code == 1 && param == 0))
        return RSV_ERR_BAD_BACKSPACE; /* 9 */
    uint64_t W = rsv__le(h + HDR_W, 4), K = rsv__le(h + HDR_K, 8);
    if (W == 0 || K < 3 || (K & (K + 1)) != 0) return RSV_ERR_BAD_POLICY; /* 10 */
    f->policy.code = (rsv_backspace_code)code;
    f->policy.param = param;
    f->policy.W = W;
    f->policy.K = K;
    if (expected && !rsv_kv03_policy_equal(expected, &f->policy)) return RSV_ERR_POLICY_MISMATCH; /* 11 */
    if (flags & FLAG_FIXED_WIDTH) return RSV_ERR_UNSUPPORTED_VALUE_POLICY;                        /* 12 */
    if (rsv__le(h + HDR_POLICY_WIDTH, 8) != 0) return RSV_ERR_POLICY_WIDTH;                       /* 13 */
    uint64_t cw = rsv__le(h + HDR_CW, 8), N = rsv__le(h + HDR_N, 8);
    uint64_t body_ext = rsv__le(h + HDR_BODY_EXTENT, 8);
    int cw_present = (flags & FLAG_COMMON_WIDTH) != 0;
    if (!cw_present && cw != 0) return RSV_ERR_COMMON_WIDTH;                  /* 14 */
    if (cw_present && cw > 0 && N > body_ext / cw) return RSV_ERR_VALUE_SLOTS; /* 15 */
    uint64_t body_off = rsv__le(h + HDR_BODY_OFFSET, 8), total = rsv__le(h + HDR_TOTAL, 8);
    /* 96 + body_ext/8 cannot overflow: body_ext/8 < 2^61 */
    if (body_off != RSV_KV03_HEADER_BYTES || body_ext % 8 != 0 ||
        total != RSV_KV03_HEADER_BYTES + body_ext / 8)
        return RSV_ERR_BAD_EXTENT; /* 16 */
    if (size != total) return RSV_ERR_FILE_SIZE; /* 17 */
    f->flags = flags;
    f->N = N;
    f->cw = cw;
    f->cw_present = cw_present;
    f->body_size = body_ext / 8;
    return RSV_OK;
}

static rsv_status check_directory(const uint8_t *d, rsv_kv03_file *f)
{
    uint64_t B = f->body_size;
    if (B < RSV_KV03_DIRECTORY_BYTES) return RSV_ERR_DIRECTORY_TRUNCATED; /* 18 */
    if (memcmp(d + DIR_MAGIC, "KV03", 4) != 0) return RSV_ERR_BAD_DIRECTORY_MAGIC; /* 19 */
    if (rsv__le(d + DIR_REVISION, 2) != 3 || rsv__le(d + DIR_COUNT, 2) != 8)
        return RSV_ERR_BAD_DIRECTORY_REVISION; /* 20 */
    for (int i = DIR_LOW_WIDTH + 1; i < DIR_SECTIONS; i++)
        if (d[i]) return RSV_ERR_RESERVED; /* 21 */
    uint64_t end = RSV_KV03_DIRECTORY_BYTES;
    for (int i = 0; i < 8; i++) { /* 22 */
        uint64_t off = rsv__le(d + DIR_SECTIONS + 16 * i, 8), len = rsv__le(d + DIR_SECTIONS + 16 * i + 8, 8);
        uint64_t want = (end + 7) & ~(uint64_t)7; /* end <= B < 2^61: no overflow */
        if (off != want || off > B || len > B - off) return RSV_ERR_SECTION_RANGE;
        f->sec_off[i] = off;
        f->sec_len[i] = len;
        end = off + len;
    }
    if (end != B) return RSV_ERR_TRAILING_SECTIONS; /* 23 */
    f->extent = rsv__le(d + DIR_EXTENT, 8);
    f->terminal = rsv__le(d + DIR_TERMINAL, 8);
    f->U = rsv__le(d + DIR_UNIVERSE, 8);
    f->dict_bits = rsv__le(d + DIR_DICT_BITS, 8);
    f->seed_bits = rsv__le(d + DIR_SEED_BITS, 8);
    f->L = d[DIR_LOW_WIDTH];
    if (f->sec_len[0] != rsv__ceil8(f->extent) || f->sec_len[5] != rsv__ceil8(f->dict_bits) ||
        f->sec_len[7] != rsv__ceil8(f->seed_bits))
        return RSV_ERR_BIT_SECTION_EXTENT; /* 24 */

    /* 25: n = ceil(N/W) + 1 entries; W >= 1 so ceil(N/W) = MAX only for W = 1 */
    uint64_t N = f->N, W = f->policy.W;
    f->nb = rsv__ceil_div(N, W);
    if (f->nb == UINT64_MAX || f->L > 63) return RSV_ERR_EF_SHAPE;
    rsv_ef_layout lay;
    rsv_status st = rsv_ef_shape(f->U, f->nb + 1, &lay); /* overflow → EF_SHAPE */
    if (st) return st;
    if (lay.L != f->L || f->sec_len[1] != lay.low_bytes || f->sec_len[2] != lay.high_bytes ||
        f->sec_len[3] != lay.samples_bytes || f->sec_len[4] % 8 != 0)
        return RSV_ERR_EF_SHAPE;
#if defined(RSV_SELFTEST_PLANT) && RSV_SELFTEST_PLANT == 2
    /* RSV_SELFTEST_PLANT 2: planted bug for `fuzz/fuzz selftest` only: check
     * 26 reports the wrong status for a section 6 length of 9..15 bytes. */
    if (f->sec_len[6] > 8 && f->sec_len[6] < 16) return RSV_ERR_SECTION_SHAPE;
#endif
    if (f->sec_len[6] == 0 || f->sec_len[6] % 8 != 0) return RSV_ERR_DICTIONARY_SHAPE; /* 26 */
    f->m = f->sec_len[6] / 8 - 1;
    if (N == 0 && (f->extent != 0 || f->terminal != 0)) return RSV_ERR_METADATA; /* 27 */
    /* 28 */
    if ((N > 0) != (f->m > 0)) return RSV_ERR_SECTION_SHAPE;
    unsigned per_block = f->m < 2 ? 0 : rsv__bitlen64(f->m - 1);
    if (per_block && f->nb > UINT64_MAX / per_block) return RSV_ERR_SECTION_SHAPE;
    if (f->seed_bits != f->nb * per_block) return RSV_ERR_SECTION_SHAPE;
    if (f->cw && N > UINT64_MAX / f->cw) return RSV_ERR_SECTION_SHAPE;
    uint64_t slots = N * f->cw;
    if (slots > f->extent || f->U != f->extent - slots) return RSV_ERR_SECTION_SHAPE;
    /* v1's step 29 (m >= 2 → UNSUPPORTED_SELECTORS) is gone in v2: the
     * dictionary is read later, before record 0 (§6.3). */

    const uint8_t *body = f->body;
    rsv_ef_init(&f->ef, &lay, body + f->sec_off[1], body + f->sec_off[2], body + f->sec_off[3],
                body + f->sec_off[4], f->sec_len[4]);
    f->data = rsv_view_make(body + f->sec_off[0], 0, f->extent);
    f->code = body + f->sec_off[5];
    f->dict = body + f->sec_off[5];
    f->dict_off = body + f->sec_off[6];
    f->seeds = body + f->sec_off[7];
    f->seed_w = per_block;
    return RSV_OK;
}

rsv_status rsv_kv03_open(const void *bytes, size_t n, const rsv_kv03_policy *expected,
                         rsv_kv03_file *out)
{
    if (!out || (!bytes && n)) return RSV_ERR_INVALID_ARGUMENT;
    rsv_kv03_file f;
    memset(&f, 0, sizeof f);
    f.bytes = (const uint8_t *)bytes;
    f.size = n;
    rsv_status st = check_header(f.bytes, n, expected, &f);
    if (st) return st;
    f.body = f.bytes + RSV_KV03_HEADER_BYTES;
    st = check_directory(f.body, &f);
    if (st) return st;
    *out = f;
    return RSV_OK;
}

rsv_status rsv_kv03_open_path(const char *path, const rsv_kv03_policy *expected,
                              rsv_kv03_file *out)
{
    if (!path || !out) return RSV_ERR_INVALID_ARGUMENT;
    void *map = NULL; /* set by rsv__map_file too; not relied on */
    size_t len = 0;
    if (rsv__map_file(path, &map, &len) != 0) return RSV_ERR_IO;
    rsv_status st = rsv_kv03_open(map, len, expected, out);
    if (st) {
        rsv__unmap_file(map, len);
        return st;
    }
    out->map = map;
    out->map_len = len;
    return RSV_OK;
}

void rsv_kv03_close(rsv_kv03_file *f)
{
    if (!f) return;
    rsv__unmap_file(f->map, f->map_len);
    f->map = NULL;
    f->map_len = 0;
}

rsv_status rsv_kv03_block_offset(const rsv_kv03_file *f, uint64_t b, uint64_t *bit)
{
    if (!f || !bit) return RSV_ERR_INVALID_ARGUMENT;
    if (b > f->nb) return RSV_ERR_EF_ORDINAL;
    uint64_t r;
    rsv_status st = rsv_ef_select(&f->ef, b, &r);
    if (st) return st;
    /* r <= U = extent - N*cw and ord*cw <= N*cw (checked at open): no overflow */
    uint64_t ord = b < f->nb ? b * f->policy.W : f->N;
    *bit = r + ord * f->cw;
    return RSV_OK;
}
