/* reservoir — IMPLEMENTATION, NOT API: the reader's inline building blocks.
 *
 * Included by reservoir/reader.h (after struct rsv_reader), because the
 * reader's hot paths (rsv_read, rsv_read_eg, rsv_read_golomb, ...) are
 * inline. Nothing declared here is part of the public interface: every name
 * may change or go away in any release. The four out-of-line rsv__ functions
 * are exported from the shared library only because the inline code above
 * calls them (tests/abi/check_exports.sh checks that every exported rsv__
 * name is used by the headers' inline code). Include reservoir/reader.h, not
 * this file. See reader.h for the reader's state and invariant. */
#ifndef RESERVOIR_READER_IMPL_H
#define RESERVOIR_READER_IMPL_H

#ifndef RESERVOIR_READER_H
#error "reservoir/reader_impl.h is implementation, not API: include reservoir/reader.h"
#endif

#include <stddef.h>
#include <stdint.h>

#include "reservoir/export.h"
#include "reservoir/golomb.h"
#include "reservoir/mem_impl.h" /* implementation, not API: the bounded loads */
#include "reservoir/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* GNU builtins unless the build defines RSV_PORTABLE_BITS (CMake option of
 * that name), which selects the portable fallback here exactly as it does
 * for the codec's private bit helpers (codec/src/bits.h, same spellings). */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(RSV_PORTABLE_BITS)
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

/* `unsigned z = leading zeros of c`, or `return 0` (not decoded) for c = 0,
 * for the code fast paths below. With LZCNT (-mlzcnt, CMake
 * RSV_X86_LZCNT_BMI2) z is the bare instruction, defined as 64 for 0, and
 * the fast paths' length tests reject that (an EG code of 2*64+1 bits, a
 * Golomb quotient 64 >= qfast), so the zero test goes off every code.
 * Without LZCNT, __builtin_clzll (BSR) is undefined for 0, so c is tested
 * first: that predicted branch cost less than `c | 1` on the chain (+1.6 Ir
 * per EG0 code, no faster; docs/performance.md, "Round 2"). */
#if defined(__LZCNT__) && (defined(__GNUC__) || defined(__clang__)) && !defined(RSV_PORTABLE_BITS)
#define RSV__CLZ64_OR_FAIL(z, c) unsigned z = (unsigned)__builtin_ia32_lzcnt_u64(c)
#else
#define RSV__CLZ64_OR_FAIL(z, c)          \
    if (RSV_UNLIKELY((c) == 0)) return 0; \
    unsigned z = RSV_CLZ64(c)
#endif

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

RSV_API rsv__fill rsv__refill_tail(rsv_reader r);
RSV_API rsv__slow_ret rsv__read_slow(rsv_reader r, unsigned w);
RSV_API rsv__slow_ret rsv__read_eg_slow(rsv_reader r, unsigned k);
RSV_API rsv__slow_ret rsv__read_golomb_slow(rsv_reader r, const rsv_golomb *g);

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

/* One extraction: the top 2z+1+k bits of the cache are z zeros, c = q+1 in
 * z+1 bits and the k-bit remainder, i.e. the integer (q+1)*2^k + r = v + 2^k.
 * Decode straight from the cache first and refill only when the code does
 * not fit (a refill per value would put the load on every value's dependency
 * chain). The fast path needs the whole code cached with total <= 63 so that
 * every shift stays below 64; longer codes, errors and k > 63 go slow. */
static inline int rsv__eg_try(rsv_reader *r, unsigned k, uint64_t *out)
{
    uint64_t c = r->cache;
    RSV__CLZ64_OR_FAIL(z, c);
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

/* Order 0, the common case, with the constant folded in. */
static inline int rsv__eg0_try(rsv_reader *r, uint64_t *out)
{
    uint64_t c = r->cache;
    RSV__CLZ64_OR_FAIL(z, c);
    unsigned total = 2 * z + 1; /* odd, so <= 63 whenever <= n */
    if (RSV_UNLIKELY(total > r->n)) return 0;
    uint64_t c1 = c << z; /* as in rsv__eg_try, z <= 31 */
    *out = (c1 >> (63u - z)) - 1;
    r->cache = c1 << (z + 1);
    r->n -= total;
    r->pos += total;
    return 1;
}

/* The remainder of the w-bit window x for a small modulus m (1 <= m <= 16,
 * w = bitlen(m - 1) <= 4, x < 2^w): x >> 1 when the remainder is short
 * ((x >> 1) < cutoff = 2^w - m), else x - cutoff (CODES.md, Golomb). One
 * load instead of the compare-free select's six instructions on the value
 * path; the cache's chain still takes the long/short bit from the compare. */
#define RSV__GOLOMB_TAB_M 16u
#define RSV__GW(m) ((m) <= 1 ? 0 : (m) <= 2 ? 1 : (m) <= 4 ? 2 : (m) <= 8 ? 3 : 4)
#define RSV__GCUT(m) ((1u << RSV__GW(m)) - (m))
#define RSV__GREM(m, x) \
    ((x) >= (1u << RSV__GW(m)) ? 0u : ((x) >> 1) < RSV__GCUT(m) ? (x) >> 1 : (x) - RSV__GCUT(m))
#define RSV__GROW(m)                                                                            \
    { RSV__GREM(m, 0u), RSV__GREM(m, 1u), RSV__GREM(m, 2u), RSV__GREM(m, 3u), RSV__GREM(m, 4u),   \
      RSV__GREM(m, 5u), RSV__GREM(m, 6u), RSV__GREM(m, 7u), RSV__GREM(m, 8u), RSV__GREM(m, 9u),   \
      RSV__GREM(m, 10u), RSV__GREM(m, 11u), RSV__GREM(m, 12u), RSV__GREM(m, 13u),                 \
      RSV__GREM(m, 14u), RSV__GREM(m, 15u) }
static inline unsigned rsv__golomb_rem_small(unsigned m, unsigned x)
{
    static const uint8_t tab[RSV__GOLOMB_TAB_M + 1][16] = {
        {0},           RSV__GROW(1u),  RSV__GROW(2u),  RSV__GROW(3u),  RSV__GROW(4u),  RSV__GROW(5u),
        RSV__GROW(6u), RSV__GROW(7u),  RSV__GROW(8u),  RSV__GROW(9u),  RSV__GROW(10u), RSV__GROW(11u),
        RSV__GROW(12u), RSV__GROW(13u), RSV__GROW(14u), RSV__GROW(15u), RSV__GROW(16u)};
    return tab[m][x]; /* m <= 16, x < 2^w <= 16 */
}
#undef RSV__GROW
#undef RSV__GREM
#undef RSV__GCUT
#undef RSV__GW

/* Quotient = leading zeros, then a w-bit window whose top w-1 bits are the
 * short remainder. With the marker bit shifted to the top (c1 = cache << q),
 * "long remainder" is the single compare c1 >= g->longcut, and the
 * long/short choice is a select, not a (mispredicted) branch. Needs the
 * quotient below g->qfast (so neither the quotient nor the sum can overflow)
 * and q + 1 + w cached bits, which also bounds w <= 63 - q. */
static inline int rsv__golomb_try(rsv_reader *r, const rsv_golomb *g, uint64_t *out)
{
    uint64_t c = r->cache;
    RSV__CLZ64_OR_FAIL(q, c);
    unsigned total = q + 1 + g->w; /* <= 129: no wrap */
    if (RSV_UNLIKELY(q >= g->qfast || total > r->n)) return 0;
    uint64_t c1 = c << q;                            /* q <= 63 */
    unsigned longc = c1 >= g->longcut;
    uint64_t x = (c1 >> (63u - g->w)) & g->mask;     /* w <= 63 */
    uint64_t rem = g->m <= RSV__GOLOMB_TAB_M ? rsv__golomb_rem_small((unsigned)g->m, (unsigned)x)
                                             : rsv__select(longc, x - g->cutoff, x >> 1);
    *out = (uint64_t)q * g->m + rem;
    r->cache = (c1 << 1) << (g->w - 1u + longc);     /* w = 0 implies longc = 1: 0..63 */
    unsigned used = total - 1 + longc;
    r->n -= used;
    r->pos += used;
    return 1;
}

#ifdef __cplusplus
}
#endif
#endif
