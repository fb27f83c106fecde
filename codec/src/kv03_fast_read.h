/* Private: register-local reader steps of the fast frame parse
 * (kv03_frame_parse.h): the in-bounds 8-byte refill, EG0, skip/take and a
 * §1.3 value, each returning 0 (state unspecified) where the generic
 * decoders must run instead. */
#ifndef RSV_KV03_FAST_READ_H
#define RSV_KV03_FAST_READ_H

#include "reservoir/kv03.h"

#include "bits.h"

/* Refill with the 8-byte load only (CODES.md §5.2): 0 when fewer than 64 - s
 * bits remain, where only the exact tail load would be in bounds. */
static inline int rsv__fast_fill(rsv_reader *r)
{
    uint64_t bit = r->off + r->pos;
    unsigned s = (unsigned)(bit & 7);
    if (RSV_UNLIKELY(r->len - r->pos < 64u - s)) return 0;
    r->cache = rsv__load_be64_in(r->data + (bit >> 3), RSV__READER_LO(r), RSV__READER_HI(r)) << s;
    r->n = 64u - s;
    return 1;
}

static inline int rsv__fast_eg0(rsv_reader *r, uint64_t *v)
{
    return rsv__eg0_try(r, v) || (rsv__fast_fill(r) && rsv__eg0_try(r, v));
}

/* take(n)/skip(n) without loads (A3); 0 when n passes the end. */
static inline int rsv__fast_skip(rsv_reader *r, uint64_t nbits)
{
    if (nbits <= r->n) {
        rsv__consume(r, (unsigned)nbits);
        return 1;
    }
    if (nbits > r->len - r->pos) return 0;
    r->pos += nbits;
    r->cache = 0;
    r->n = 0;
    return 1;
}

/* A value (KV03.md §1.3) as rsv_read_value decodes it; 0 on anything else. */
static inline int rsv__fast_value(rsv_reader *r, rsv_value_span *v)
{
    uint64_t start = r->pos, n;
    if (r->n == 0 && !rsv__fast_fill(r)) return 0;
    unsigned tag = (unsigned)(r->cache >> 63);
    rsv__consume_lt64(r, 1);
    if (!tag) {
        v->kind = RSV_VALUE_TOMBSTONE;
        v->len = 0;
        v->bytes = rsv_view_make(NULL, 0, 0);
        v->width = 1;
        return 1;
    }
    if (!rsv__fast_eg0(r, &n) || n > (r->len - r->pos) / 8) return 0;
    v->bytes = rsv_view_make(r->data, r->off + r->pos, 8 * n);
    rsv__fast_skip(r, 8 * n); /* in range: checked above */
    /* A long skipped value puts the next record in a cold cache line: start
     * fetching it now. A prefetch loads nothing architecturally and never
     * faults, and it is only issued for an address inside the view (checked
     * as a load in RSV_LOAD_CHECK builds). */
    if (n >= 48 && r->pos < r->len)
        RSV__PREFETCH_IN(r->data + ((r->off + r->pos) >> 3), RSV__READER_LO(r), RSV__READER_HI(r));
    v->kind = RSV_VALUE_PRESENT;
    v->len = n;
    v->width = r->pos - start;
    return 1;
}

#endif
