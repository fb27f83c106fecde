/* Out-of-line reader paths: tail refills, fields longer than the cache, codes
 * that do not fit the inline fast paths, and every failure (CODES.md §2–§4,
 * positions per §6.3). Each slow path walks the code with the same primitives
 * as the fast path, so the cache invariant holds at every exit, including the
 * failures: the reader stays usable exactly at the spec's position. */
#include "reservoir/reader.h"

#include "debug_assert.h"

static void refill_tail(rsv_reader *r)
{
    uint64_t rem = r->len - r->pos;
    if (rem == 0) { /* A2/A4: nothing at or after p, so no load at all */
        r->cache = 0;
        r->n = 0;
        return;
    }
    uint64_t bit = r->off + r->pos;
    unsigned s = (unsigned)(bit & 7);
    /* Caller guarantees rem < 64 - s, so s + rem < 64 and the bytes holding
     * bits [p, len) number at most 8: load exactly those, nothing after. */
    RSV_ASSERT(rem < 64u - s);
    unsigned nbytes = (unsigned)((s + rem + 7) / 8);
    const uint8_t *p = r->data + (bit >> 3);
    uint64_t x = rsv__load_be_n_in(p, nbytes, RSV__READER_LO(r), RSV__READER_HI(r));
#ifdef RSV_SELFTEST_PLANT
    if (rsv__selftest_plant == RSV__PLANT_TAIL) /* one byte past the bytes that remain */
        rsv__selftest_sink = rsv__load_u8_in(p + nbytes, RSV__READER_LO(r), RSV__READER_HI(r));
#endif
    x <<= s;                            /* s <= 7 */
    x &= ~(UINT64_MAX >> (unsigned)rem); /* 1 <= rem <= 63: clear bits past the view */
    r->cache = x;
    r->n = (unsigned)rem;
}

rsv_status rsv_reader_seek(rsv_reader *r, uint64_t p)
{
    if (p > r->len) return RSV_ERR_TRUNCATED_SPAN;
    r->pos = p;
    r->cache = 0;
    r->n = 0;
    return RSV_OK;
}

/* Drop everything up to the end of the view (the EG suffix failure consumes
 * to len, CODES.md §6.3). */
static void consume_to_end(rsv_reader *r)
{
    r->pos = r->len;
    r->cache = 0;
    r->n = 0;
}

static rsv_status read_slow(rsv_reader *r, unsigned w, uint64_t *out)
{
    if (w > 64) return RSV_ERR_WIDTH;
    if (w > r->len - r->pos) return RSV_ERR_TRUNCATED_FIELD;
    uint64_t v = 0;
    unsigned need = w;
    while (need) {
        if (r->n == 0) rsv__refill(r); /* remaining >= need > 0, so n > 0 after */
        unsigned t = need < r->n ? need : r->n;
        uint64_t part = rsv__top(r->cache, t);
        v = t < 64 ? (v << t) | part : part; /* t = 64 only on the first pass */
        rsv__consume(r, t);
        need -= t;
    }
    *out = v;
    return RSV_OK;
}

/* Consume zeros from p, at most `lim` of them; stop before a `1` or at the end
 * of the view. Returns how many were consumed. */
static uint64_t count_zeros(rsv_reader *r, uint64_t lim)
{
    uint64_t z = 0;
    while (z < lim) {
        if (r->n == 0) {
            if (r->pos == r->len) break;
            rsv__refill(r);
        }
        uint64_t t;
        int found_one = r->cache != 0; /* bits below the n cached ones are zero */
        t = found_one ? RSV_CLZ64(r->cache) : r->n;
        if (t > lim - z) t = lim - z;
        rsv__consume(r, (unsigned)t);
        z += t;
        if (found_one) break;
    }
    return z;
}

static rsv_status read_eg_slow(rsv_reader *r, unsigned k, uint64_t *out)
{
    if (k > 63) return RSV_ERR_BAD_ORDER; /* §3.2 step 1 */
    /* step 2: the zero run; a 65th zero wins over the end of the view */
    uint64_t z = count_zeros(r, 65);
    if (z == 65) return RSV_ERR_EG_OVERFLOW;      /* position p + 65 */
    if (r->pos == r->len) return RSV_ERR_EG_TRUNCATED; /* position len */
    uint64_t one = 0;
    rsv_read(r, 1, &one); /* step 3: the terminating 1 (present: pos < len) */
    /* step 4: the z-bit suffix, z <= 64 */
    if (z > r->len - r->pos) {
        consume_to_end(r);
        return RSV_ERR_EG_TRUNCATED;
    }
    uint64_t s = 0;
    rsv_read(r, (unsigned)z, &s);
    uint64_t q;
    if (z == 64) { /* step 5: only s = 0 (q = MAX) is representable */
        if (s != 0) return RSV_ERR_EG_OVERFLOW; /* position p + 129 */
        q = UINT64_MAX;
    } else {
        q = (UINT64_C(1) << z) - 1 + s; /* z <= 63 */
    }
    if (k == 0) { /* step 6 */
        *out = q;
        return RSV_OK;
    }
    if (q > (UINT64_MAX >> k)) return RSV_ERR_EG_QUOTIENT_OVERFLOW; /* step 7 */
    if (k > r->len - r->pos) { /* step 8 */
#if defined(RSV_SELFTEST_PLANT) && RSV_SELFTEST_PLANT == 1
        /* RSV_SELFTEST_PLANT 1: planted bug for `fuzz/fuzz selftest` only
         * (never in a normal build): a rare truncated remainder (k >= 5,
         * exactly one bit short, z >= 2) leaves the position one bit on. */
        if (k >= 5 && r->len - r->pos == k - 1 && z >= 2) (void)rsv_skip(r, 1);
#endif
        return RSV_ERR_EG_TRUNCATED_REMAINDER;
    }
    uint64_t rem = 0;
    rsv_read(r, k, &rem); /* step 9 */
    *out = (q << k) | rem; /* 1 <= k <= 63 */
    return RSV_OK;
}

static rsv_status read_golomb_slow(rsv_reader *r, const rsv_golomb *g, uint64_t *out)
{
    if (g->m == 0) return RSV_ERR_BAD_MODULUS; /* §4.2 step 1 */
    /* step 2: L + 1 zeros overflow; for m = 1, L = MAX and no view holds
     * MAX + 1 bits, so the limit MAX can never be mistaken for an overflow. */
    uint64_t lim = g->L == UINT64_MAX ? UINT64_MAX : g->L + 1;
    uint64_t q = count_zeros(r, lim);
    if (g->L != UINT64_MAX && q == lim) return RSV_ERR_GOLOMB_QUOTIENT_OVERFLOW;
    if (r->pos == r->len) return RSV_ERR_GOLOMB_TRUNCATED;
    uint64_t bit = 0;
    rsv_read(r, 1, &bit);
    uint64_t rem = 0;
    if (g->w > 0) { /* step 3 */
        unsigned sw = g->w - 1;
        if (sw > r->len - r->pos) return RSV_ERR_GOLOMB_TRUNCATED_REMAINDER; /* 3a */
        rsv_read(r, sw, &rem);
        if (rem >= g->cutoff) { /* 3b: the extension bit */
            if (r->pos == r->len) return RSV_ERR_GOLOMB_TRUNCATED_REMAINDER;
            rsv_read(r, 1, &bit);
            rem = 2 * rem + bit - g->cutoff; /* rem < 2^63 here, no wrap before the subtraction */
        }
    }
    uint64_t qm = q * g->m; /* q <= L: cannot overflow */
    if (rem > UINT64_MAX - qm) return RSV_ERR_GOLOMB_SUM_OVERFLOW; /* step 4 */
    *out = qm + rem;
    return RSV_OK;
}

rsv_status rsv_read_golomb_m(rsv_reader *r, uint64_t m, uint64_t *out)
{
    rsv_golomb g;
    if (rsv_golomb_init(&g, m) != RSV_OK) return RSV_ERR_BAD_MODULUS;
    return rsv_read_golomb(r, &g, out);
}

/* ---- the by-value entry points of reader.h ------------------------------ */

rsv__fill rsv__refill_tail(rsv_reader r)
{
    refill_tail(&r);
    rsv__fill f = {r.cache, r.n};
    return f;
}

static rsv__slow_ret slow_ret(const rsv_reader *r, rsv_status st, uint64_t value)
{
    rsv__slow_ret s = {r->pos, r->cache, value, r->n, st};
    return s;
}

rsv__slow_ret rsv__read_slow(rsv_reader r, unsigned w)
{
    uint64_t v = 0;
    rsv_status st = read_slow(&r, w, &v);
    return slow_ret(&r, st, v);
}

/* Both callers (rsv_read_eg, rsv_read_eg0 in reader.h) have already tried
 * the inline long-code path rsv__eg_long_far on this very state, and it is a
 * pure function of (state, k): only the bit walk remains. */
rsv__slow_ret rsv__read_eg_slow(rsv_reader r, unsigned k)
{
    uint64_t v = 0;
    rsv_status st = read_eg_slow(&r, k, &v);
    return slow_ret(&r, st, v);
}

rsv__slow_ret rsv__read_golomb_slow(rsv_reader r, const rsv_golomb *g)
{
    uint64_t v = 0;
    rsv_status st = read_golomb_slow(&r, g, &v);
    return slow_ret(&r, st, v);
}
