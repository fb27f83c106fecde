/* reservoir oracle — selector codes (KV03.md §1.2): bit-string order,
 * prefixes, logical keys, code sets, owned dictionaries. Bit at a time. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

unsigned ob_code_bit(rsv_oracle_code c, uint64_t j)
{
    return ob_key_bit(c.bits, j);
}

uint64_t ob_code_lcp(rsv_oracle_code a, rsv_oracle_code b)
{
    uint64_t n = a.nbits < b.nbits ? a.nbits : b.nbits;
    uint64_t j = 0;
    while (j < n && ob_code_bit(a, j) == ob_code_bit(b, j))
        j++;
    return j;
}

/* 1 iff bits [0, n) of a and b are equal: whole bytes, then the first n % 8
 * bits of the next one (codes are compared on every record of a merge and an
 * encode; bit at a time, ob_code_lcp was 4 % of merge_diff's time). */
static int bits_equal(const uint8_t *a, const uint8_t *b, uint64_t n)
{
    if (n == 0)
        return 1; /* a and b may be NULL */
    if (memcmp(a, b, (size_t)(n / 8)) != 0)
        return 0;
    unsigned r = (unsigned)(n % 8);
    return r == 0 || ((a[n / 8] ^ b[n / 8]) & (0xFFu << (8 - r)) & 0xFFu) == 0;
}

int ob_code_is_prefix(rsv_oracle_code p, rsv_oracle_code c)
{
    return p.nbits <= c.nbits && bits_equal(p.bits, c.bits, p.nbits);
}

int ob_code_equal(rsv_oracle_code a, rsv_oracle_code b)
{
    return a.nbits == b.nbits && bits_equal(a.bits, b.bits, a.nbits);
}

int rsv_oracle_code_compare(rsv_oracle_code a, rsv_oracle_code b)
{
    uint64_t j = ob_code_lcp(a, b);
    if (j < a.nbits && j < b.nbits)
        return ob_code_bit(a, j) < ob_code_bit(b, j) ? -1 : 1;
    if (a.nbits == b.nbits)
        return 0;
    return a.nbits < b.nbits ? -1 : 1; /* a proper prefix is smaller */
}

/* Bit j of code || key bits. */
static unsigned logical_bit(const rsv_oracle_crecord *r, uint64_t j)
{
    if (j < r->code.nbits)
        return ob_code_bit(r->code, j);
    return ob_key_bit(r->rec.key, j - r->code.nbits);
}

int rsv_oracle_logical_compare(const rsv_oracle_crecord *a, const rsv_oracle_crecord *b)
{
    /* Same code: C || Ka against C || Kb is Ka against Kb, and the bit order
     * of byte strings is their unsigned byte order (a proper prefix first).
     * Merges compare mostly records of one code; this skips their bit loop. */
    if (ob_code_equal(a->code, b->code))
        return rsv_oracle_key_compare(a->rec.key, a->rec.key_len, b->rec.key, b->rec.key_len);
    uint64_t la = a->code.nbits + 8 * (uint64_t)a->rec.key_len;
    uint64_t lb = b->code.nbits + 8 * (uint64_t)b->rec.key_len;
    uint64_t n = la < lb ? la : lb;
    for (uint64_t j = 0; j < n; j++) {
        unsigned x = logical_bit(a, j), y = logical_bit(b, j);
        if (x != y)
            return x < y ? -1 : 1;
    }
    if (la == lb)
        return 0;
    return la < lb ? -1 : 1;
}

int ob_logical_cmp(rsv_oracle_code ca, const uint8_t *ka, size_t kalen, rsv_oracle_code cb,
                   const uint8_t *kb, size_t kblen)
{
    rsv_oracle_crecord a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.code = ca;
    a.rec.key = ka;
    a.rec.key_len = kalen;
    b.code = cb;
    b.rec.key = kb;
    b.rec.key_len = kblen;
    return rsv_oracle_logical_compare(&a, &b);
}

rsv_oracle_crecord *ob_with_code(const rsv_oracle_record *records, size_t n, const uint8_t *c0,
                                 uint64_t c0_bits)
{
    rsv_oracle_crecord *coded = calloc(n ? n : 1, sizeof *coded);
    if (coded == NULL)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        coded[i].code.bits = c0;
        coded[i].code.nbits = c0_bits;
        coded[i].rec = records[i];
    }
    return coded;
}

rsv_status rsv_oracle_code_set_check(const rsv_oracle_code *set, size_t n)
{
    if (set == NULL && n > 0)
        return RSV_ERR_INVALID_ARGUMENT;
    for (size_t i = 0; i < n; i++)
        if (set[i].bits == NULL && set[i].nbits > 0)
            return RSV_ERR_INVALID_ARGUMENT;
    for (size_t i = 0; i < n; i++)
        if (set[i].nbits > RSV_ORACLE_MAX_CODE_BITS)
            return RSV_ERR_TOO_LARGE;
    /* Every ordered pair: equal codes count as prefixes. */
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            if (i != j && ob_code_is_prefix(set[i], set[j]))
                return RSV_ERR_SELECTOR_PREFIX;
    return RSV_OK;
}

rsv_status ob_code_copy(rsv_oracle_code *dst, const uint8_t *src, uint64_t from, uint64_t nbits)
{
    dst->bits = NULL;
    dst->nbits = 0;
    if (nbits == 0)
        return RSV_OK;
    uint64_t nbytes = ob_ceil_div(nbits, 8);
    if (nbytes > SIZE_MAX)
        return RSV_ERR_TOO_LARGE;
    uint8_t *b = calloc((size_t)nbytes, 1);
    if (b == NULL)
        return RSV_ERR_NOMEM;
    for (uint64_t j = 0; j < nbits; j++)
        if (ob_key_bit(src, from + j))
            b[j / 8] |= (uint8_t)(0x80u >> (unsigned)(j % 8));
    dst->bits = b;
    dst->nbits = nbits;
    return RSV_OK;
}

rsv_status ob_dict_push(rsv_oracle_dict *d, const uint8_t *src, uint64_t from, uint64_t nbits)
{
    /* Capacity: powers of two, reallocated when m is 0 or a power of two. */
    if (d->m == 0 || (d->m & (d->m - 1)) == 0) {
        if (d->m > SIZE_MAX / 2 / sizeof *d->codes)
            return RSV_ERR_NOMEM;
        rsv_oracle_code *p = realloc(d->codes, (size_t)(d->m ? 2 * d->m : 1) * sizeof *p);
        if (p == NULL)
            return RSV_ERR_NOMEM;
        d->codes = p;
    }
    rsv_status st = ob_code_copy(&d->codes[d->m], src, from, nbits);
    if (st != RSV_OK)
        return st;
    d->m++;
    return RSV_OK;
}

void rsv_oracle_dict_free(rsv_oracle_dict *d)
{
    if (d == NULL)
        return;
    for (uint64_t j = 0; j < d->m; j++)
        free((void *)(uintptr_t)d->codes[j].bits);
    free(d->codes);
    d->codes = NULL;
    d->m = 0;
}

rsv_status ob_u64_push(uint64_t **arr, size_t count, uint64_t v)
{
    /* Capacity 16, then powers of two: reallocate when count is 0 or a power
     * of two of 16 or more (every smaller power of two used to reallocate
     * too, shrinking the first 16 to 2 and growing it back four times). */
    if (count == 0 || (count >= 16 && (count & (count - 1)) == 0)) {
        size_t cap = count ? count * 2 : 16;
        if (cap > SIZE_MAX / sizeof(uint64_t))
            return RSV_ERR_NOMEM;
        uint64_t *p = realloc(*arr, cap * sizeof(uint64_t));
        if (p == NULL)
            return RSV_ERR_NOMEM;
        *arr = p;
    }
    (*arr)[count] = v;
    return RSV_OK;
}
