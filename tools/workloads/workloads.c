/* WORKLOADS.md §1, §3 and §4 (see workloads.h). */
#include "workloads.h"

#include <stdlib.h>
#include <string.h>

int rsv_wl_mix_selftest(void)
{
    return rsv_wl_mix(0) == 0 && rsv_wl_mix(1) == UINT64_C(0x5692161D100B05E5) &&
           rsv_wl_mix(2) == UINT64_C(0xDBD238973A2B148A) &&
           rsv_wl_mix(0x12345678) == UINT64_C(0x99A584650FAE6A61);
}

const char *rsv_wl_count_case_name(rsv_wl_count_case c)
{
    static const char *const names[RSV_WL_COUNT_CASES] = {"eg0-small", "eg0-wide", "eg3", "g7"};
    return (unsigned)c < RSV_WL_COUNT_CASES ? names[c] : NULL;
}

uint64_t rsv_wl_count_value(rsv_wl_count_case c, uint64_t i)
{
    uint64_t m = rsv_wl_mix(i);
    switch (c) {
    case RSV_WL_EG0_SMALL:
    case RSV_WL_G7: return m & 127;
    case RSV_WL_EG3: return m & 1023;
    case RSV_WL_EG0_WIDE: {
        unsigned w = (unsigned)(i % 65);
        return w == 64 ? m : m & ((UINT64_C(1) << w) - 1); /* never shift by 64 */
    }
    case RSV_WL_COUNT_CASES: break;
    }
    return 0;
}

static void put_be64(uint8_t *p, uint64_t x)
{
    for (int b = 7; b >= 0; b--, x >>= 8) p[b] = (uint8_t)x;
}

/* Keys of one fixture all have the same length: byte order alone. */
static int rec_cmp(const void *a, const void *b)
{
    const rsv_record *x = a, *y = b;
    size_t n = x->key_len < y->key_len ? x->key_len : y->key_len;
    int c = memcmp(x->key, y->key, n);
    if (c) return c;
    return (x->key_len > y->key_len) - (x->key_len < y->key_len);
}

/* §4: value length of generation index i (tombstone when i mod 17 = 0). */
static size_t value_len(unsigned max, uint64_t i)
{
    return (size_t)(rsv_wl_mix(i + 3) % ((uint64_t)max + 1));
}

rsv_status rsv_wl_fixture_generate(rsv_wl_fixture *fx, int hash, unsigned max, uint64_t n)
{
    memset(fx, 0, sizeof *fx);
    size_t klen = hash ? RSV_WL_HASH_KEY_LEN : RSV_WL_PREFIX_KEY_LEN;
    if (n > SIZE_MAX / RSV_WL_PREFIX_KEY_LEN || n > SIZE_MAX / sizeof *fx->recs) return RSV_ERR_NOMEM;
    size_t vbytes = 0;
    for (uint64_t i = 0; i < n; i++)
        if (i % 17 != 0) {
            size_t len = value_len(max, i);
            if (vbytes > SIZE_MAX - len) return RSV_ERR_NOMEM;
            vbytes += len;
        }
    fx->n = n;
    fx->key_len = klen;
    fx->recs = calloc(n ? (size_t)n : 1, sizeof *fx->recs);
    fx->keys = malloc(n ? (size_t)n * klen : 1);
    fx->vals = malloc(vbytes ? vbytes : 1);
    if (!fx->recs || !fx->keys || !fx->vals) return RSV_ERR_NOMEM;
    size_t vat = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint8_t *k = fx->keys + i * klen;
        if (hash) {
            put_be64(k, rsv_wl_mix(i));
            put_be64(k + 8, rsv_wl_mix(i + 0x12345678));
        } else {
            memcpy(k, RSV_WL_PREFIX, RSV_WL_PREFIX_LEN);
            put_be64(k + RSV_WL_PREFIX_LEN, i);
        }
        rsv_record *r = &fx->recs[i];
        r->key = k;
        r->key_len = klen;
        if (i % 17 == 0) {
            r->value = rsv_value_tombstone();
            continue;
        }
        size_t len = value_len(max, i);
        uint8_t *v = fx->vals + vat;
        for (size_t j = 0; j < len; j++) v[j] = (uint8_t)rsv_wl_mix(i * 65537 + j);
        vat += len;
        r->value = rsv_value_present(len ? v : NULL, len);
        if (len > fx->max_val) fx->max_val = len;
    }
    qsort(fx->recs, (size_t)n, sizeof *fx->recs, rec_cmp);
    for (uint64_t p = 1; p < n; p++)
        if (rec_cmp(&fx->recs[p - 1], &fx->recs[p]) >= 0) return RSV_ERR_UNSORTED;
    return RSV_OK;
}

void rsv_wl_fixture_free(rsv_wl_fixture *fx)
{
    free(fx->recs);
    free(fx->keys);
    free(fx->vals);
    memset(fx, 0, sizeof *fx);
}

void rsv_wl_split_range(int split, unsigned n, unsigned j, uint64_t *start, uint64_t *step)
{
    switch (split) {
    case RSV_WL_SPLIT_DISJOINT: *start = j, *step = 2; break;
    case RSV_WL_SPLIT_OVERLAP: *start = j, *step = j + 1; break; /* older: all; newer: odd */
    default: *start = j, *step = n; break;
    }
}
