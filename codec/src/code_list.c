/* The codes used so far by a writer (see code_list.h for the invariants). */
#include <stdlib.h>
#include <string.h>

#include "reservoir/record.h"

#include "code_list.h"

rsv_status rsv__codes_check(const rsv__codes *d, rsv_view x, uint64_t *found)
{
    /* lo = the first code >= x (bit-string order, a proper prefix first) */
    uint64_t lo = 0, hi = d->m;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (rsv_view_compare(rsv__codes_get(d, mid), x) < 0) lo = mid + 1;
        else hi = mid;
    }
    *found = d->m;
    uint64_t l;
    if (lo < d->m) { /* x == D_lo, or x a prefix of D_lo */
        rsv_view c = rsv__codes_get(d, lo);
        int cmp = rsv_view_lcp(x, c, &l);
        if (cmp == 0) {
            *found = lo;
            return RSV_OK;
        }
        if (l == x.len) return RSV_ERR_SELECTOR_PREFIX;
    }
    if (lo > 0) { /* D_{lo-1} a prefix of x */
        rsv_view c = rsv__codes_get(d, lo - 1);
        rsv_view_lcp(x, c, &l);
        if (l == c.len) return RSV_ERR_SELECTOR_PREFIX;
    }
    return RSV_OK;
}

/* realloc for an array that may still be the struct's inline one. */
static void *regrow(void *p, const void *in, size_t used, size_t bytes)
{
    if (p != in) return realloc(p, bytes);
    void *q = malloc(bytes);
    if (q && used) memcpy(q, p, used);
    return q;
}

rsv_status rsv__codes_append(rsv__codes *d, rsv_view x, uint64_t record)
{
    if (d->cap == 0) {
        d->ends = d->ends_in;
        d->first = d->first_in;
        d->cap = 1;
    }
    if (d->m == d->cap) {
        size_t cap = d->cap < 8 ? 8 : d->cap;
        if (cap > SIZE_MAX / 2 / sizeof(uint64_t) - 1) return RSV_ERR_NOMEM;
        cap *= 2;
        uint64_t *e = regrow(d->ends, d->ends_in, (d->m + 1) * sizeof *e, (cap + 1) * sizeof *e);
        if (!e) return RSV_ERR_NOMEM;
        d->ends = e;
        uint64_t *f = regrow(d->first, d->first_in, d->m * sizeof *f, cap * sizeof *f);
        if (!f) return RSV_ERR_NOMEM;
        d->first = f;
        d->cap = cap;
    }
    if (d->m == 0) d->ends[0] = 0;
    /* one spare byte: rsv_bits_store clears the rest of the last byte it touches */
    uint64_t need = (d->nbits + x.len + 7) / 8 + 1;
    if (d->bits_cap == 0) { /* zeroed by the struct's calloc */
        d->bits = d->bits_in;
        d->bits_cap = sizeof d->bits_in;
    }
    if (need > d->bits_cap) {
        size_t cap = d->bits_cap < 64 ? 64 : d->bits_cap;
        while (cap < need) cap *= 2;
        uint8_t *b = regrow(d->bits, d->bits_in, d->bits_cap, cap);
        if (!b) return RSV_ERR_NOMEM;
        memset(b + d->bits_cap, 0, cap - d->bits_cap);
        d->bits = b;
        d->bits_cap = cap;
    }
    rsv_bits_store(d->bits, d->nbits, x);
    d->nbits += x.len;
    d->first[d->m] = record;
    d->ends[++d->m] = d->nbits;
    return RSV_OK;
}

void rsv__codes_free(rsv__codes *d)
{
    if (d->bits != d->bits_in) free(d->bits);
    if (d->ends != d->ends_in) free(d->ends);
    if (d->first != d->first_in) free(d->first);
    memset(d, 0, sizeof *d);
}
