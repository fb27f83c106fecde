/* reservoir — the bit reservoir reader (CODES.md §1.3, §2–§4, §5.2).
 *
 * State: the view, the position p and a 64-bit cache holding the next n view
 * bits, left-aligned (the bit at p is the cache MSB), every bit below them
 * zero. The cache is a pure function of p: a refill reloads it from p with a
 * bounded load, so any operation may drop the cache (n = 0) and the reader is
 * still consistent. That is what makes "after a failure the reader behaves
 * like the oracle started at the failure position" cheap to guarantee.
 *
 * Hot paths (fixed fields, exp-Golomb and Golomb codes that fit in the cache)
 * are inline here; everything rare (refill at the view's tail, codes longer
 * than the cache, the 129-bit maximum, every error) lives out of line in
 * reader.c. Shift amounts are commented where they may reach 64. */
#ifndef RESERVOIR_READER_H
#define RESERVOIR_READER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "reservoir/golomb.h"
#include "reservoir/mem_impl.h" /* implementation, not API: the bounded loads */
#include "reservoir/status.h"
#include "reservoir/view.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define RSV_LIKELY(x) __builtin_expect(!!(x), 1)
#define RSV_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define RSV_CLZ64(x) ((unsigned)__builtin_clzll(x)) /* x != 0 */
#else
#define RSV_LIKELY(x) (x)
#define RSV_UNLIKELY(x) (x)
static inline unsigned rsv__clz64_portable(uint64_t x)
{
    unsigned n = 0;
    while (!(x & (UINT64_C(1) << 63))) { x <<= 1; n++; }
    return n;
}
#define RSV_CLZ64(x) rsv__clz64_portable(x)
#endif

typedef struct rsv_reader {
    const uint8_t *data; /* view data pointer (never re-based) */
    uint64_t off;        /* view bit offset */
    uint64_t len;        /* view bit length */
    uint64_t pos;        /* bits consumed, 0 <= pos <= len */
    uint64_t cache;      /* view bits [pos, pos + n), left-aligned, rest zero */
    unsigned n;          /* cached bits, 0..64 */
} rsv_reader;

/* ---- construction and queries (no loads: CODES.md A3) ------------------- */

static inline void rsv_reader_init(rsv_reader *r, rsv_view v)
{
    r->data = v.data;
    r->off = v.off;
    r->len = v.len;
    r->pos = 0;
    r->cache = 0;
    r->n = 0;
}

static inline uint64_t rsv_reader_position(const rsv_reader *r) { return r->pos; }
static inline uint64_t rsv_reader_remaining(const rsv_reader *r) { return r->len - r->pos; }
static inline int rsv_reader_empty(const rsv_reader *r) { return r->pos == r->len; }
static inline rsv_view rsv_reader_view(const rsv_reader *r)
{
    return rsv_view_make(r->data, r->off, r->len);
}

/* Move to absolute position p (<= len, else RSV_ERR_TRUNCATED_SPAN and the
 * reader is unchanged). No loads. */
rsv_status rsv_reader_seek(rsv_reader *r, uint64_t p);

/* ---- out-of-line paths (reader.c) -------------------------------------- */

/* The out-of-line paths take the reader by value and return the new state,
 * so the caller's reader never escapes: inlined into a decode loop, its pos,
 * cache and n stay in registers instead of being stored and reloaded around
 * every value (store-forwarding latency on the decode chain). */
typedef struct rsv__fill {
    uint64_t cache;
    unsigned n;
} rsv__fill; /* returned in two registers */

typedef struct rsv__slow_ret {
    uint64_t pos, cache, value;
    unsigned n;
    rsv_status st;
} rsv__slow_ret;

rsv__fill rsv__refill_tail(rsv_reader r);
rsv__slow_ret rsv__read_slow(rsv_reader r, unsigned w);
rsv__slow_ret rsv__read_eg_slow(rsv_reader r, unsigned k);
rsv__slow_ret rsv__read_golomb_slow(rsv_reader r, const rsv_golomb *g);

/* Take a slow path's result: the new state always, the value on success. */
static inline rsv_status rsv__commit(rsv_reader *r, rsv__slow_ret s, uint64_t *out)
{
    r->pos = s.pos;
    r->cache = s.cache;
    r->n = s.n;
    if (s.st == RSV_OK) *out = s.value;
    return s.st;
}

/* ---- primitives --------------------------------------------------------- */

#ifdef RSV_SELFTEST_PLANT
/* LOAD-CHECK SELF-TEST ONLY (tests/load_check/): planted load defects, live
 * when rsv__selftest_plant names one. RSV_SELFTEST_PLANT is defined only for
 * the self-test's private copies of the codec, never in a normal build. Each
 * keeps the decoded values right (so differential tests pass) and breaks
 * only CODES.md §1.2. */
enum { RSV__PLANT_ALIGN_DOWN = 1, RSV__PLANT_HEAD = 2, RSV__PLANT_TAIL = 3, RSV__PLANT_SKIPPED = 4 };
extern int rsv__selftest_plant;
extern volatile uint8_t rsv__selftest_sink; /* keeps a planted load alive */
extern uint64_t rsv__selftest_stale;        /* 1 + the bit a planted skip left behind */

/* ALIGN_DOWN: the 8-byte refill from pos's byte rounded down to an 8-byte
 * address; HEAD: from the byte before pos's byte. Both shift the extra bytes
 * out (n shrinks). SKIPPED: first loads the byte of the position before the
 * last long skip. */
static inline void rsv__planted_refill(rsv_reader *r, uint64_t bit)
{
    const uint8_t *a = r->data + (bit >> 3), *b = a;
    if (rsv__selftest_plant == RSV__PLANT_ALIGN_DOWN) b = (const uint8_t *)((uintptr_t)a & ~(uintptr_t)7);
    if (rsv__selftest_plant == RSV__PLANT_HEAD) b = a - 1;
    if (rsv__selftest_plant == RSV__PLANT_SKIPPED && rsv__selftest_stale) {
        rsv__selftest_sink =
            rsv__load_u8_in(r->data + ((rsv__selftest_stale - 1) >> 3), RSV__READER_LO(r), RSV__READER_HI(r));
        rsv__selftest_stale = 0;
    }
    unsigned sh = (unsigned)(a - b) * 8 + (unsigned)(bit & 7); /* <= 63 */
    r->cache = rsv__load_be64_in(b, RSV__READER_LO(r), RSV__READER_HI(r)) << sh;
    r->n = 64u - sh;
}

static inline void rsv__planted_skip(const rsv_reader *r, uint64_t nbits)
{
    (void)nbits;
    if (rsv__selftest_plant == RSV__PLANT_SKIPPED) rsv__selftest_stale = r->off + r->pos + 1;
}
#endif

/* Reload the cache from pos. When at least 64 - s view bits remain (s = the
 * bit offset of pos inside its byte) the 8 bytes from pos's byte all hold view
 * bits at positions >= pos, so one unaligned 8-byte load is in bounds (A1,
 * A4); otherwise the tail path loads exactly the bytes that remain. Leaves
 * n >= min(57, remaining). */
static inline void rsv__refill(rsv_reader *r)
{
    uint64_t bit = r->off + r->pos; /* no overflow: off + len <= 2^64 - 1 */
    unsigned s = (unsigned)(bit & 7);
    if (RSV_LIKELY(r->len - r->pos >= 64u - s)) {
#ifdef RSV_SELFTEST_PLANT
        if (rsv__selftest_plant) { rsv__planted_refill(r, bit); return; }
#endif
        r->cache = rsv__load_be64_in(r->data + (bit >> 3), RSV__READER_LO(r), RSV__READER_HI(r)) << s; /* s <= 7 */
        r->n = 64u - s;
    } else {
        rsv__fill f = rsv__refill_tail(*r);
        r->cache = f.cache;
        r->n = f.n;
    }
}

/* c ? a : b for c in {0, 1}, without a branch: the Golomb long/short choice
 * is data-dependent, and a mispredicted branch costs more than both sides. */
static inline uint64_t rsv__select(unsigned c, uint64_t a, uint64_t b)
{
    uint64_t m = (uint64_t)0 - c;
    return (a & m) | (b & ~m);
}

/* Top w bits of the cache, 0 <= w <= 64 (w = 0 would shift by 64). */
static inline uint64_t rsv__top(uint64_t cache, unsigned w)
{
    return w ? cache >> (64u - w) : 0;
}

/* Drop k cached bits, 0 <= k <= n (k = 64 would be an undefined shift). */
static inline void rsv__consume(rsv_reader *r, unsigned k)
{
    r->cache = k < 64 ? r->cache << k : 0;
    r->n -= k;
    r->pos += k;
}

/* Drop k < 64 cached bits (the code fast paths prove k <= 63). */
static inline void rsv__consume_lt64(rsv_reader *r, unsigned k)
{
    r->cache <<= k;
    r->n -= k;
    r->pos += k;
}

/* ---- fixed fields, take, skip (CODES.md §2) ----------------------------- */

/* read(w): the w-bit field at p, 0 <= w <= 64. */
static inline rsv_status rsv_read(rsv_reader *r, unsigned w, uint64_t *out)
{
    if (RSV_LIKELY(w <= r->n)) {
        *out = rsv__top(r->cache, w);
        rsv__consume(r, w);
        return RSV_OK;
    }
    /* A fresh or drained cache: one inline refill serves any field of up to
     * 57 bits (and every field that fits the rest of the view). */
    if (RSV_LIKELY(w <= r->len - r->pos)) {
        rsv__refill(r);
        if (RSV_LIKELY(w <= r->n)) {
            *out = rsv__top(r->cache, w);
            rsv__consume(r, w);
            return RSV_OK;
        }
    }
    return rsv__commit(r, rsv__read_slow(*r, w), out);
}

/* Read one bit (the most frequent field in KV03 framing). */
static inline rsv_status rsv_read_bit(rsv_reader *r, unsigned *bit)
{
    if (RSV_UNLIKELY(r->n == 0)) {
        if (r->pos == r->len) return RSV_ERR_TRUNCATED_FIELD;
        rsv__refill(r);
    }
    *bit = (unsigned)(r->cache >> 63);
    rsv__consume(r, 1);
    return RSV_OK;
}

/* skip(n): advance without loading the skipped bytes (A3). */
static inline rsv_status rsv_skip(rsv_reader *r, uint64_t nbits)
{
    if (RSV_LIKELY(nbits <= r->n)) {
        rsv__consume(r, (unsigned)nbits);
        return RSV_OK;
    }
    if (nbits > r->len - r->pos) return RSV_ERR_TRUNCATED_SPAN;
#ifdef RSV_SELFTEST_PLANT
    rsv__planted_skip(r, nbits);
#endif
    r->pos += nbits;
    r->cache = 0;
    r->n = 0;
    return RSV_OK;
}

/* take(n): the borrowed sub-view (data, off + p, n), then skip(n). */
static inline rsv_status rsv_take(rsv_reader *r, uint64_t nbits, rsv_view *sub)
{
    rsv_view v = rsv_view_make(r->data, r->off + r->pos, nbits);
    rsv_status st = rsv_skip(r, nbits);
    if (st == RSV_OK) *sub = v;
    return st;
}

/* ---- exponential-Golomb order k (CODES.md §3) --------------------------- */

/* One extraction: the top 2z+1+k bits of the cache are z zeros, c = q+1 in
 * z+1 bits and the k-bit remainder, i.e. the integer (q+1)*2^k + r = v + 2^k.
 * Decode straight from the cache first and refill only when the code does
 * not fit (a refill per value would put the load on every value's dependency
 * chain). The fast path needs the whole code cached with total <= 63 so that
 * every shift stays below 64; longer codes, errors and k > 63 go slow. */
static inline int rsv__eg_try(rsv_reader *r, unsigned k, uint64_t *out)
{
    uint64_t c = r->cache;
    if (RSV_UNLIKELY(c == 0)) return 0;
    unsigned z = RSV_CLZ64(c);
    unsigned total = 2 * z + 1 + k; /* k < 64 is checked first below: no wrap */
    if (RSV_UNLIKELY(k >= 64 || total > r->n || total >= 64)) return 0;
    /* Shift the zeros out first: the marker bit is then on top, the value is
     * its top z+1+k bits and the rest of the cache one more shift away, so
     * the length sum stays off the cache's dependency chain. */
    uint64_t c1 = c << z;                                     /* z <= 31 */
    *out = (c1 >> (63u - z - k)) - (UINT64_C(1) << k);        /* 63-z-k >= z+1 >= 1 */
    r->cache = c1 << (z + 1 + k);                             /* z+1+k <= 63 - z */
    r->n -= total;
    r->pos += total;
    return 1;
}

/* The 64 view bits from p, when at least 72 view bits remain from p: the
 * 9 bytes holding bits [p - s, p - s + 72) all hold view bits (A1). */
static inline uint64_t rsv__peek64_far(const rsv_reader *r, uint64_t p)
{
    uint64_t bit = r->off + p;
    unsigned s = (unsigned)(bit & 7);
    const uint8_t *b = r->data + (bit >> 3);
    /* branch-free: for s = 0 the ninth byte contributes (b[8] << 0) >> 8 = 0 */
    return (rsv__load_be64_in(b, RSV__READER_LO(r), RSV__READER_HI(r)) << s) |
           (((uint64_t)rsv__load_u8_in(b + 8, RSV__READER_LO(r), RSV__READER_HI(r)) << s) >> 8); /* s <= 7 */
}

/* A valid code too long for the one-extraction path (2z+1+k > 63) whose
 * c = v + 2^k has at most 64 bits, at least 136 bits before the view's end:
 * two direct peeks instead of the out-of-line bit walk (inline, so a run of
 * long codes keeps the reader in registers). No overflow is possible
 * (c < 2^64, so q <= MAX >> k): the value is the only outcome. The cache is
 * dropped, which the invariant allows at any time. Returns 0 to fall back. */
static inline int rsv__eg_long_far(rsv_reader *r, unsigned k, uint64_t *out)
{
    if (k > 63 || r->len - r->pos < 72 + 64) return 0;
    uint64_t w0 = rsv__peek64_far(r, r->pos);
    if (w0 == 0) return 0; /* 64 or more zeros: the walk decides */
    unsigned z = RSV_CLZ64(w0), L = z + 1 + k;
    if (L > 64) return 0;
    uint64_t c = rsv__peek64_far(r, r->pos + z) >> (64u - L); /* 1 <= L <= 64 */
    *out = c - (UINT64_C(1) << k);                            /* c >= 2^k: the marker */
    r->pos += z + L;
    r->cache = 0;
    r->n = 0;
    return 1;
}

static inline rsv_status rsv_read_eg(rsv_reader *r, unsigned k, uint64_t *out)
{
    if (RSV_LIKELY(rsv__eg_try(r, k, out))) return RSV_OK;
    rsv__refill(r);
    if (RSV_LIKELY(rsv__eg_try(r, k, out))) return RSV_OK;
    if (rsv__eg_long_far(r, k, out)) return RSV_OK;
    return rsv__commit(r, rsv__read_eg_slow(*r, k), out);
}

/* Order 0, the common case, with the constant folded in. */
static inline int rsv__eg0_try(rsv_reader *r, uint64_t *out)
{
    uint64_t c = r->cache;
    if (RSV_UNLIKELY(c == 0)) return 0;
    unsigned z = RSV_CLZ64(c);
    unsigned total = 2 * z + 1; /* odd, so <= 63 whenever <= n */
    if (RSV_UNLIKELY(total > r->n)) return 0;
    uint64_t c1 = c << z; /* as in rsv__eg_try, z <= 31 */
    *out = (c1 >> (63u - z)) - 1;
    r->cache = c1 << (z + 1);
    r->n -= total;
    r->pos += total;
    return 1;
}

static inline rsv_status rsv_read_eg0(rsv_reader *r, uint64_t *out)
{
    if (RSV_LIKELY(rsv__eg0_try(r, out))) return RSV_OK;
    rsv__refill(r);
    if (RSV_LIKELY(rsv__eg0_try(r, out))) return RSV_OK;
    if (rsv__eg_long_far(r, 0, out)) return RSV_OK;
    return rsv__commit(r, rsv__read_eg_slow(*r, 0), out);
}

/* ---- Golomb modulus m (CODES.md §4) ------------------------------------- */

/* Quotient = leading zeros, then a w-bit window whose top w-1 bits are the
 * short remainder. With the marker bit shifted to the top (c1 = cache << q),
 * "long remainder" is the single compare c1 >= g->longcut, and the
 * long/short choice is a select, not a (mispredicted) branch. Needs the
 * quotient below g->qfast (so neither the quotient nor the sum can overflow)
 * and q + 1 + w cached bits, which also bounds w <= 63 - q. */
static inline int rsv__golomb_try(rsv_reader *r, const rsv_golomb *g, uint64_t *out)
{
    uint64_t c = r->cache;
    if (RSV_UNLIKELY(c == 0)) return 0;
    unsigned q = RSV_CLZ64(c);
    unsigned total = q + 1 + g->w;
    if (RSV_UNLIKELY(q >= g->qfast || total > r->n)) return 0;
    uint64_t c1 = c << q;                            /* q <= 63 */
    unsigned longc = c1 >= g->longcut;
    uint64_t x = (c1 >> (63u - g->w)) & g->mask;     /* w <= 63 */
    *out = (uint64_t)q * g->m + rsv__select(longc, x - g->cutoff, x >> 1);
    r->cache = (c1 << 1) << (g->w - 1u + longc);     /* w = 0 implies longc = 1: 0..63 */
    unsigned used = total - 1 + longc;
    r->n -= used;
    r->pos += used;
    return 1;
}

static inline rsv_status rsv_read_golomb(rsv_reader *r, const rsv_golomb *g, uint64_t *out)
{
    if (RSV_LIKELY(rsv__golomb_try(r, g, out))) return RSV_OK;
    rsv__refill(r);
    if (RSV_LIKELY(rsv__golomb_try(r, g, out))) return RSV_OK;
    return rsv__commit(r, rsv__read_golomb_slow(*r, g), out);
}

/* Convenience: build the constants and decode once (m = 0 gives
 * RSV_ERR_BAD_MODULUS at the unchanged position). Prefer rsv_golomb_init once
 * per modulus in loops. */
rsv_status rsv_read_golomb_m(rsv_reader *r, uint64_t m, uint64_t *out);

/* ---- batch decoders into caller-owned arrays ---------------------------- */

/* Decode `count` values into out[0..count). On failure *done is the number of
 * values decoded (kept in out), the status is the failing decode's and the
 * position is exactly where the single-value decoder leaves it. `done` may be
 * NULL. No heap allocation. */
rsv_status rsv_read_n(rsv_reader *r, unsigned w, uint64_t *out, size_t count, size_t *done);
rsv_status rsv_read_eg_n(rsv_reader *r, unsigned k, uint64_t *out, size_t count, size_t *done);
rsv_status rsv_read_golomb_n(rsv_reader *r, const rsv_golomb *g, uint64_t *out, size_t count,
                             size_t *done);

#ifdef __cplusplus
}
#endif
#endif
