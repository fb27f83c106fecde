/* In-place dictionary and seed edits (see kv03_dict_edit.h). */
#include "kv03_dict_edit.h"

#include <string.h>

#include "reservoir/oracle_kv03.h"

#define HDR 96u

static uint64_t get_le(const uint8_t *p) /* 8 bytes */
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}

static void put_le(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static unsigned getb(const uint8_t *b, uint64_t i) { return (b[i / 8] >> (7 - i % 8)) & 1u; }

static void setb(uint8_t *b, uint64_t i, unsigned v)
{
    if (v) b[i / 8] |= (uint8_t)(0x80u >> (i % 8));
    else b[i / 8] &= (uint8_t)~(0x80u >> (i % 8));
}

static unsigned bitlen(uint64_t x)
{
    unsigned n = 0;
    while (x) {
        n++;
        x >>= 1;
    }
    return n;
}

static unsigned seed_width(size_t m) { return m >= 2 ? bitlen(m - 1) : 0; }

int rsv_kvf_dict_read(const uint8_t *f, size_t size, rsv_kvf_dict *d)
{
    memset(d, 0, sizeof *d);
    if (size < HDR + 192) return 0;
    const uint8_t *body = f + HDR, *dir = body;
    size_t blen = size - HDR;
    uint64_t W = (uint64_t)f[20] | (uint64_t)f[21] << 8 | (uint64_t)f[22] << 16 | (uint64_t)f[23] << 24;
    uint64_t N = get_le(f + 56);
    if (W == 0) return 0;
    d->nb = N ? (N - 1) / W + 1 : 0;
    if (d->nb > RSV_KVF_SEEDS_MAX) return 0;
    uint64_t off5 = get_le(dir + 64 + 16 * 5), len5 = get_le(dir + 72 + 16 * 5);
    uint64_t off6 = get_le(dir + 64 + 16 * 6), len6 = get_le(dir + 72 + 16 * 6);
    uint64_t off7 = get_le(dir + 64 + 16 * 7), len7 = get_le(dir + 72 + 16 * 7);
    uint64_t dbits = get_le(dir + 32);
    if (off5 > blen || len5 > blen - off5 || off6 > blen || len6 > blen - off6 || off7 > blen ||
        len7 > blen - off7 || len6 % 8 || len6 < 8 || dbits > 8 * len5)
        return 0;
    size_t m = (size_t)(len6 / 8 - 1);
    if (m > RSV_KVF_DICT_MAX) return 0;
    d->m = m;
    uint64_t prev = get_le(body + off6);
    for (size_t j = 0; j < m; j++) {
        uint64_t e = get_le(body + off6 + 8 * (j + 1));
        if (e < prev || e > dbits || e - prev > RSV_KV03_MAX_CODE_BITS) return 0;
        for (uint64_t k = prev; k < e; k++) setb(d->code[j].bytes, k - prev, getb(body + off5, k));
        d->code[j].bits = e - prev;
        prev = e;
    }
    if (m == 0 && N > 0) { /* no offsets to speak of: keep the stored bits as one code */
        return 0;
    }
    unsigned w = seed_width(m);
    if ((d->nb * w + 7) / 8 > len7) return w == 0;
    for (uint64_t b = 0; b < d->nb; b++) {
        uint64_t v = 0;
        for (unsigned k = 0; k < w; k++) v = (v << 1) | getb(body + off7, b * w + k);
        d->seed[b] = v;
    }
    return 1;
}

size_t rsv_kvf_dict_write(uint8_t *f, size_t size, size_t max, const rsv_kvf_dict *d)
{
    uint8_t *body = f + HDR, *dir = body;
    uint64_t off5 = get_le(dir + 64 + 16 * 5);
    uint64_t dbits = 0;
    for (size_t j = 0; j < d->m; j++) dbits += d->code[j].bits;
    unsigned w = seed_width(d->m);
    uint64_t len5 = (dbits + 7) / 8, off6 = (off5 + len5 + 7) / 8 * 8, len6 = 8 * (d->m + 1);
    uint64_t off7 = (off6 + len6 + 7) / 8 * 8, len7 = (d->nb * w + 7) / 8, blen = off7 + len7;
    if (off5 < 192 || off5 > size - HDR || HDR + blen > max) return 0; /* never over the directory */
    memset(body + off5, 0, (size_t)(blen - off5));
    uint64_t at = 0;
    for (size_t j = 0; j < d->m; j++) {
        for (uint64_t k = 0; k < d->code[j].bits; k++) setb(body + off5, at + k, getb(d->code[j].bytes, k));
        put_le(body + off6 + 8 * j, at);
        at += d->code[j].bits;
    }
    put_le(body + off6 + 8 * d->m, at);
    for (uint64_t b = 0; b < d->nb && w; b++)
        for (unsigned k = 0; k < w; k++) setb(body + off7, b * w + k, (unsigned)(d->seed[b] >> (w - 1 - k)) & 1u);
    put_le(dir + 32, dbits);
    put_le(dir + 40, d->nb * w);
    put_le(dir + 64 + 16 * 5, off5);
    put_le(dir + 72 + 16 * 5, len5);
    put_le(dir + 64 + 16 * 6, off6);
    put_le(dir + 72 + 16 * 6, len6);
    put_le(dir + 64 + 16 * 7, off7);
    put_le(dir + 72 + 16 * 7, len7);
    put_le(f + 48, 8 * blen);
    put_le(f + 80, HDR + blen);
    return (size_t)(HDR + blen);
}

static uint64_t below(rsv_rng *s, uint64_t n) { return rsv_rng_below(s, n); }

static int cmp(const rsv_kvf_code *a, const rsv_kvf_code *b)
{
    rsv_oracle_code x = {a->bytes, a->bits}, y = {b->bytes, b->bits};
    return rsv_oracle_code_compare(x, y);
}

/* Would c join the dictionary prefix-free? Its sorted position in *at. */
static int fits(const rsv_kvf_dict *d, const rsv_kvf_code *c, size_t *at)
{
    *at = d->m;
    for (size_t j = 0; j < d->m; j++) {
        uint64_t n = c->bits < d->code[j].bits ? c->bits : d->code[j].bits;
        uint64_t k = 0;
        while (k < n && getb(c->bytes, k) == getb(d->code[j].bytes, k)) k++;
        if (k == n) return 0; /* one is a prefix of the other */
        if (*at == d->m && cmp(c, &d->code[j]) < 0) *at = j;
    }
    return 1;
}

static void insert_code(rsv_kvf_dict *d, const rsv_kvf_code *c, size_t at)
{
    memmove(&d->code[at + 1], &d->code[at], (d->m - at) * sizeof d->code[0]);
    d->code[at] = *c;
    if (d->m == 1 && d->nb) /* v1 -> m = 2: every block starts with the old C0 */
        for (uint64_t b = 0; b < d->nb; b++) d->seed[b] = 0;
    d->m++;
    for (uint64_t b = 0; b < d->nb; b++)
        if (d->seed[b] >= at) d->seed[b]++;
}

static void random_bits(rsv_kvf_code *c, uint64_t from, uint64_t to, rsv_rng *s)
{
    for (uint64_t k = from; k < to; k++) setb(c->bytes, k, (unsigned)(rsv_rng_next(s) & 1u));
    c->bits = to;
}

void rsv_kvf_dict_mutate(rsv_kvf_dict *d, rsv_rng *s)
{
    size_t j = (size_t)below(s, d->m ? d->m : 1);
    rsv_kvf_code *c = &d->code[j];
    switch (below(s, 10)) {
    case 0: /* swap two codes (neighbours usually) */
        if (d->m >= 2) {
            size_t k = below(s, 2) ? (j + 1) % d->m : (size_t)below(s, d->m);
            rsv_kvf_code t = d->code[j];
            d->code[j] = d->code[k];
            d->code[k] = t;
        }
        break;
    case 1:
    case 2: /* an unused code, prefix-free and in order */
        if (d->m && d->m < RSV_KVF_DICT_MAX)
            for (int tries = 0; tries < 8; tries++) {
                rsv_kvf_code n = d->code[below(s, d->m)];
                uint64_t cut = n.bits ? below(s, n.bits) : 0; /* differ from it at bit cut */
                if (n.bits) setb(n.bytes, cut, !getb(n.bytes, cut));
                random_bits(&n, n.bits ? cut + 1 : 0, (n.bits ? cut + 1 : 0) + below(s, 5), s);
                size_t at;
                if (n.bits && fits(d, &n, &at)) {
                    insert_code(d, &n, at);
                    break;
                }
            }
        break;
    case 3: /* remove a code; its blocks' seeds point elsewhere */
        if (d->m >= 2) {
            memmove(&d->code[j], &d->code[j + 1], (d->m - j - 1) * sizeof d->code[0]);
            d->m--;
            for (uint64_t b = 0; b < d->nb; b++)
                if (d->seed[b] > j || (d->seed[b] == j && j == d->m)) d->seed[b]--;
        }
        break;
    case 4: /* flip one bit */
        if (c->bits) {
            uint64_t k = below(s, c->bits);
            setb(c->bytes, k, !getb(c->bytes, k));
        }
        break;
    case 5: /* one bit longer or shorter */
        if (below(s, 2) && c->bits < RSV_KV03_MAX_CODE_BITS) random_bits(c, c->bits, c->bits + 1, s);
        else if (c->bits) setb(c->bytes, --c->bits, 0);
        break;
    case 6: /* past 64 bits */
        if (c->bits < 65) random_bits(c, c->bits, 65 + below(s, 80), s);
        break;
    case 7: /* duplicate or empty a code */
        if (below(s, 2) && j + 1 < d->m) d->code[j + 1] = *c;
        else memset(c, 0, sizeof *c);
        break;
    default: /* a seed: any w-bit value (>= m when m is not a power of two) */
        if (d->nb && d->m >= 2) {
            unsigned w = seed_width(d->m);
            d->seed[below(s, d->nb)] = below(s, UINT64_C(1) << w);
        }
        break;
    }
}
