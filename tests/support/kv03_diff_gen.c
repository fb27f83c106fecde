/* Record-set generators for the KV03 differential tests (kv03_diff_gen.h). */
#include "kv03_diff_gen.h"

#include <stdlib.h>
#include <string.h>

#include "reservoir/oracle_kv03.h"

static uint8_t *own(rsv_kv03d_set *s, size_t len)
{
    uint8_t *p = malloc(len ? len : 1);
    if (p) s->owned[s->nowned++] = p;
    return p;
}

static int cmp_rec(const void *a, const void *b)
{
    const rsv_record *x = a, *y = b;
    return rsv_oracle_key_compare(x->key, x->key_len, y->key, y->key_len);
}

size_t rsv_kv03d_sort_unique(rsv_record *r, size_t n)
{
    qsort(r, n, sizeof *r, cmp_rec);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || cmp_rec(&r[m - 1], &r[i]) != 0) r[m++] = r[i];
    return m;
}

/* A key derived from an earlier one so that neighbours share long prefixes:
 * a prefix of it (a proper prefix key), the prefix plus a byte differing from
 * the base's in one bit (keys that split inside a byte), or the prefix plus
 * 0x00 bytes or random bytes. */
static size_t derive(rsv_rng *g, const uint8_t *base, size_t blen, size_t max_key, uint8_t *k)
{
    size_t p = blen ? (size_t)rsv_rng_below(g, blen + 1) : 0;
    memcpy(k, base, p);
    size_t len = p;
    switch (rsv_rng_below(g, 4)) {
    case 0: /* proper prefix (or the empty key) */
        return len;
    case 1: /* split inside the byte after the prefix */
        if (len < max_key) {
            uint8_t b = p < blen ? base[p] : (uint8_t)rsv_rng_next(g);
            k[len++] = (uint8_t)(b ^ (1u << rsv_rng_below(g, 8)));
        }
        break;
    case 2: /* 0x00 bytes */
        for (size_t z = 1 + (size_t)rsv_rng_below(g, 3); z > 0 && len < max_key; z--) k[len++] = 0;
        break;
    default:
        break;
    }
    size_t tail = (size_t)rsv_rng_below(g, rsv_rng_below(g, 4) == 0 ? max_key + 1 : 6);
    while (tail-- > 0 && len < max_key) k[len++] = (uint8_t)(rsv_rng_below(g, 2) ? 'a' + rsv_rng_below(g, 3) : rsv_rng_next(g));
    return len;
}

rsv_kv03d_set rsv_kv03d_gen(rsv_rng *g, size_t n, size_t max_key, size_t max_val)
{
    rsv_kv03d_set s;
    memset(&s, 0, sizeof s);
    s.r = calloc(n ? n : 1, sizeof *s.r);
    s.owned = calloc(2 * n + 1, sizeof *s.owned);
    uint8_t *tmp = malloc(max_key + 1);
    if (!s.r || !s.owned || !tmp) {
        free(tmp);
        return s;
    }
    for (size_t i = 0; i < n; i++) {
        size_t len;
        if (i == 0 || rsv_rng_below(g, 8) == 0) {
            len = (size_t)rsv_rng_below(g, max_key + 1);
            for (size_t j = 0; j < len; j++) tmp[j] = (uint8_t)rsv_rng_next(g);
        } else {
            const rsv_record *b = &s.r[rsv_rng_below(g, i)];
            len = derive(g, b->key, b->key_len, max_key, tmp);
        }
        uint8_t *k = own(&s, len);
        memcpy(k, tmp, len);
        s.r[i].key = k;
        s.r[i].key_len = len;
        uint64_t kind = rsv_rng_below(g, 6);
        if (kind == 0) {
            s.r[i].value = rsv_value_tombstone();
        } else if (kind == 1) {
            s.r[i].value = rsv_value_present(NULL, 0);
        } else {
            size_t vl = 1 + (size_t)rsv_rng_below(g, rsv_rng_below(g, 4) == 0 ? max_val : (max_val < 16 ? max_val : 16));
            if (vl > max_val) vl = max_val;
            uint8_t *v = own(&s, vl);
            for (size_t j = 0; j < vl; j++) v[j] = (uint8_t)rsv_rng_next(g);
            s.r[i].value = rsv_value_present(v, vl);
        }
    }
    free(tmp);
    s.n = rsv_kv03d_sort_unique(s.r, n);
    return s;
}

void rsv_kv03d_set_free(rsv_kv03d_set *s)
{
    for (size_t i = 0; i < s->nowned; i++) free(s->owned[i]);
    free(s->owned);
    free(s->r);
    memset(s, 0, sizeof *s);
}

size_t rsv_kv03d_universe_set(unsigned s, const unsigned *keys, unsigned nkeys, rsv_record *out)
{
    static const struct {
        const char *k;
        size_t len;
    } u[RSV_KV03D_UNIVERSE] = {{"", 0}, {"\x00", 1}, {"a", 1}, {"ab", 2}, {"abc", 3}, {"b", 1}};
    size_t n = 0;
    for (unsigned j = 0; j < nkeys; j++) {
        unsigned st = (s >> (2 * j)) & 3u;
        if (st == 0) continue;
        out[n].key = (const uint8_t *)u[keys[j]].k;
        out[n].key_len = u[keys[j]].len;
        out[n].value = st == 1 ? rsv_value_tombstone()
                       : st == 2 ? rsv_value_present(NULL, 0)
                                 : rsv_value_present("x", 1);
        n++;
    }
    return n;
}
