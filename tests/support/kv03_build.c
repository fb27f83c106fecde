/* Hand-built KV03 files for reader tests: see kv03_build.h. */
#include "kv03_build.h"

#include <stdlib.h>
#include <string.h>

#include "kv03_diff.h"
#include "testutil.h"

static void put(uint8_t *p, uint64_t x, unsigned n)
{
    for (unsigned i = 0; i < n; i++, x >>= 8) p[i] = (uint8_t)x;
}

static unsigned bitlen(uint64_t x) { return x ? 64u - (unsigned)__builtin_clzll(x) : 0; }

int rsv_kv03b_build(const rsv_kv03b_spec *s, uint8_t **out, size_t *n)
{
    uint64_t W = s->policy.W, nb = s->N / W + (s->N % W != 0);
    uint64_t extent = rsv_count_bits(s->data);
    if (extent == UINT64_MAX) return -1;
    uint64_t dict_bits = 0, e[64 + 1];
    if (s->m > 64) return -1;
    e[0] = 0;
    for (size_t j = 0; j < s->m; j++) {
        uint64_t b = rsv_count_bits(s->codes[j]);
        if (b == UINT64_MAX) return -1;
        dict_bits += b;
        e[j + 1] = dict_bits;
    }
    unsigned w = s->m >= 2 ? bitlen(s->m - 1) : 0;
    uint64_t seed_bits = nb * w;
    uint64_t *r = malloc((nb + 1) * sizeof *r);
    if (!r) return -1;
    for (uint64_t b = 0; b < nb; b++) r[b] = s->offsets[b] - b * W * s->cw;
    r[nb] = extent - s->N * s->cw;
    rsv_ef_layout lay;
    if (rsv_ef_plan(r, nb + 1, &lay) != RSV_OK) {
        free(r);
        return -1;
    }
    uint64_t len[8] = {(extent + 7) / 8, lay.low_bytes, lay.high_bytes, lay.samples_bytes, lay.sparse_bytes,
                       (dict_bits + 7) / 8, 8 * (s->m + 1), (seed_bits + 7) / 8};
    uint64_t off[8], end = 192;
    for (int i = 0; i < 8; i++) {
        off[i] = (end + 7) & ~(uint64_t)7;
        end = off[i] + len[i];
    }
    size_t total = 96 + (size_t)end;
    uint8_t *f = calloc(1, total);
    if (!f) {
        free(r);
        return -1;
    }
    uint8_t *body = f + 96;
    rsv_parse_bits(s->data, body + off[0], (size_t)len[0], 0);
    rsv_ef_encode(r, &lay, body + off[1]);
    free(r);
    uint64_t at = 0;
    for (size_t j = 0; j < s->m; j++) at += rsv_parse_bits(s->codes[j], body + off[5], (size_t)len[5], at);
    for (size_t j = 0; j <= s->m; j++) put(body + off[6] + 8 * j, e[j], 8);
    for (uint64_t b = 0; b < nb && w; b++)
        for (unsigned k = 0; k < w; k++) rsv_set_bit(body + off[7], b * w + k, (unsigned)(s->seeds[b] >> (w - 1 - k)) & 1u);
    /* directory (§5.1) */
    memcpy(body, "KV03", 4);
    put(body + 4, 3, 2);
    put(body + 6, 8, 2);
    put(body + 8, extent, 8);
    put(body + 16, s->terminal, 8);
    put(body + 24, lay.U, 8);
    put(body + 32, dict_bits, 8);
    put(body + 40, seed_bits, 8);
    body[48] = (uint8_t)lay.L;
    for (int i = 0; i < 8; i++) {
        put(body + 64 + 16 * i, off[i], 8);
        put(body + 72 + 16 * i, len[i], 8);
    }
    /* envelope (§7) */
    memcpy(f, "EVRT.KV\0", 8);
    put(f + 8, 1, 2);
    put(f + 10, 96, 2);
    put(f + 12, s->cw_present ? 2 : 0, 4);
    f[16] = 1;
    f[17] = 1;
    f[18] = (uint8_t)s->policy.code;
    put(f + 20, W, 4);
    put(f + 24, s->policy.K, 8);
    put(f + 40, s->cw, 8);
    put(f + 48, 8 * end, 8);
    put(f + 56, s->N, 8);
    put(f + 72, 96, 8);
    put(f + 80, total, 8);
    put(f + 88, s->policy.param, 8);
    rsv_kv03d_reseal(f, total);
    *out = f;
    *n = total;
    return 0;
}

void rsv_kv03b_flip_data_bit(uint8_t *file, size_t n, uint64_t bit)
{
    file[288 + bit / 8] ^= (uint8_t)(0x80u >> (bit % 8));
    rsv_kv03d_reseal(file, n);
}
