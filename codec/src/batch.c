/* Batch decoders into caller-owned arrays.
 *
 * The inner loops keep the reader state (cache, n, pos) in locals so the
 * compiler can hold them in registers: the single-value decoders pass the
 * reader's address to their out-of-line slow paths, which forces the state
 * through memory on every value. Here the state is written back only when a
 * value needs the general path (view tail, long code, error), and that value
 * is then decoded by the single-value decoder itself, so positions after a
 * failure are exactly the single decoder's (CODES.md §6.3) by construction. */
#include "reservoir/reader.h"

/* Reload the cache from pos when 64 - s view bits remain (the inline refill's
 * in-bounds case, A1/A4). Returns 0 near the tail, where the general path
 * takes over. */
static inline int refill_local(const rsv_reader *r, uint64_t pos, uint64_t *cache, unsigned *n)
{
    uint64_t bit = r->off + pos;
    unsigned s = (unsigned)(bit & 7);
    if (r->len - pos < 64u - s) return 0;
    *cache = rsv__load_be64(r->data + (bit >> 3)) << s;
    *n = 64u - s;
    return 1;
}

static rsv_status finish(rsv_status st, size_t i, size_t *done)
{
    if (done) *done = i;
    return st;
}

rsv_status rsv_read_n(rsv_reader *r, unsigned w, uint64_t *out, size_t count, size_t *done)
{
    size_t i = 0;
    rsv_status st = RSV_OK;
    for (; i < count; i++) {
        st = rsv_read(r, w, &out[i]);
        if (RSV_UNLIKELY(st != RSV_OK)) break;
    }
    return finish(st, i, done);
}

rsv_status rsv_read_eg_n(rsv_reader *r, unsigned k, uint64_t *out, size_t count, size_t *done)
{
    size_t i = 0;
    rsv_status st = RSV_OK;
    if (k < 63) {
        uint64_t cache = r->cache, pos = r->pos;
        unsigned n = r->n;
        const uint64_t bias = UINT64_C(1) << k;
        while (i < count) {
            unsigned total = 64; /* "does not fit" unless computed below */
            if (RSV_LIKELY(cache != 0)) total = 2 * RSV_CLZ64(cache) + 1 + k;
            if (RSV_UNLIKELY(total > n || total >= 64)) {
                if (!refill_local(r, pos, &cache, &n) || cache == 0) break;
                total = 2 * RSV_CLZ64(cache) + 1 + k;
                if (total > n || total >= 64) break; /* long code: general path */
            }
            out[i++] = (cache >> (64u - total)) - bias; /* 1 <= 64 - total <= 63 */
            cache <<= total;
            n -= total;
            pos += total;
        }
        r->cache = cache;
        r->n = n;
        r->pos = pos;
    }
    for (; i < count; i++) { /* tail, long codes, errors, k >= 63 */
        st = rsv_read_eg(r, k, &out[i]);
        if (RSV_UNLIKELY(st != RSV_OK)) break;
    }
    return finish(st, i, done);
}

rsv_status rsv_read_golomb_n(rsv_reader *r, const rsv_golomb *g, uint64_t *out, size_t count,
                             size_t *done)
{
    size_t i = 0;
    rsv_status st = RSV_OK;
    if (g->m != 0 && g->w < 64) {
        uint64_t cache = r->cache, pos = r->pos;
        unsigned n = r->n;
        const uint64_t m = g->m, cutoff = g->cutoff, mask = g->mask;
        const unsigned w = g->w, qfast = g->qfast;
        while (i < count) {
            unsigned q = 64, total = 65;
            if (RSV_LIKELY(cache != 0)) {
                q = RSV_CLZ64(cache);
                total = q + 1 + w;
            }
            if (RSV_UNLIKELY(q >= qfast || total > n)) {
                if (!refill_local(r, pos, &cache, &n) || cache == 0) break;
                q = RSV_CLZ64(cache);
                total = q + 1 + w;
                if (q >= qfast || total > n) break;
            }
            uint64_t x = (cache >> (64u - total)) & mask; /* 1 <= total <= 64 */
            uint64_t shortr = x >> 1;
            unsigned longc = shortr >= cutoff;
            out[i++] = (uint64_t)q * m + (longc ? x - cutoff : shortr);
            unsigned used = total - 1 + longc; /* <= 64 */
            cache = used < 64 ? cache << used : 0;
            n -= used;
            pos += used;
        }
        r->cache = cache;
        r->n = n;
        r->pos = pos;
    }
    for (; i < count; i++) {
        st = rsv_read_golomb(r, g, &out[i]);
        if (RSV_UNLIKELY(st != RSV_OK)) break;
    }
    return finish(st, i, done);
}
