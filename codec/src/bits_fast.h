/* Private: the one word-at-a-time bit library — loads, compares, copies
 * and appends of bit strings for the writer, the merge and the key/value
 * rebuild of the cursor, the record-stream reader and the record batch.
 *
 * Why: copying or comparing a short sub-view through a fresh rsv_reader costs
 * a slow-path read and a byte-wise tail refill per view, and a byte-wise
 * append or key rebuild costs ~1000 instructions per 14-byte hash literal
 * (docs/performance.md). Here a source is read with one unaligned 8-byte
 * load per 56 bits and a destination written with one 8-byte store per 56
 * bits.
 *
 * Loads: the one bound convention. Every source comes with a byte window
 * [lo, hi) of `data`, chosen by the caller: the bytes this library may load.
 * Every load goes through the rsv__load_*_in helpers (mem.h) with exactly
 * that window, so RSV_LOAD_CHECK sees each one. An 8-byte load is made only
 * when all 8 bytes lie inside the window; otherwise exactly the bytes up to
 * hi are loaded (backing up inside the window, never below lo). No load
 * starts before lo, none ends after hi. Bits outside the requested ones that
 * a load brings in are masked off here or by the caller. The caller picks
 * the window so that every byte in it holds a bit of the view it reads
 * (CODES.md A1-A4):
 *  - a copied or compared view: its own bytes, rsv__view_lo/rsv__view_hi;
 *  - a key literal or value inside a stream being walked: from the literal's
 *    or value's first byte to the stream's end byte (rsv__stream_hi), the
 *    bytes the walker's own 8-byte refills may load (A1 for the stream, and
 *    no byte before the bits being read: A4).
 *
 * Stores: every store writes the 8 bytes at the destination byte, so the
 * destination needs RSV__STORE_SLACK bytes of slack after the byte that
 * holds the last written bit (callers check capacity first). Bits before the
 * destination bit inside its byte are kept; bits after the written ones, up
 * to the end of the 8 stored bytes, become zero (the rsv_writer invariant
 * wants them zero inside the last byte; later bytes are not content), except
 * in rsv__copy_bytes / rsv__key_store, whose slack bytes are unspecified. */
#ifndef RSV_BITS_FAST_H
#define RSV_BITS_FAST_H

#include <stdint.h>
#include <string.h>

#include "reservoir/reader.h"
#include "reservoir/writer.h"

#include "bits.h"
#include "mem.h"

/* Out of line on purpose (keeps the callers small enough to inline). */
#define RSV__OUT_OF_LINE RSV__NOINLINE RSV__UNUSED static

/* Destination buffers hold this many bytes beyond the last meant byte (the
 * 8-byte stores write up to 7 more); growable writers allocate it beyond
 * what was asked for, so the stores usually have room. */
#define RSV__STORE_SLACK 8u
#define RSV__WRITER_SLACK RSV__STORE_SLACK

/* The byte window of the view of bits [off, off + len): [off / 8,
 * ceil((off + len) / 8)). With len = 0 it may hold one byte; nothing is
 * loaded for an empty view. */
static inline uint64_t rsv__view_lo(uint64_t off) { return off >> 3; }
static inline uint64_t rsv__view_hi(uint64_t off, uint64_t len) { return (off + len + 7) >> 3; }

/* Exclusive end byte of a stream view (0 for an empty one): the hi of the
 * window of a literal or value inside the stream. */
static inline uint64_t rsv__stream_hi(rsv_view stream)
{
    return stream.len ? (stream.off + stream.len - 1) / 8 + 1 : 0;
}

/* Space for `extra` more bits is reserved; can they be appended with the
 * 8-byte stores? (No store starts after byte (nbits + extra) / 8.) */
static inline int rsv__writer_has_slack(const rsv_writer *w, uint64_t extra)
{
    return w->cap >= 8 && ((w->nbits + extra) >> 3) <= (uint64_t)(w->cap - 8);
}

/* Mask keeping the top t bits, 1 <= t <= 64 (t = 0 would shift by 64). */
static inline uint64_t rsv__top_mask(unsigned t) { return ~(UINT64_MAX >> (t - 1) >> 1); }

/* Bits [bit, bit + 57) of data (at least 57 of them, fewer only at the
 * window's end), left-aligned; lo <= bit / 8 < hi, [lo, hi) being the
 * source window. One 8-byte load at bit's byte when 8 bytes remain in the
 * window, else 8 bytes ending at hi when the window is that long (bytes
 * before `bit` are still window bytes), else one or two overlapping 4-, 2-
 * or 1-byte loads of exactly the remaining bytes. The low bits may hold
 * source bits past what the caller wants: mask them. */
static inline uint64_t rsv__load_bits(const uint8_t *data, uint64_t bit, uint64_t lo, uint64_t hi)
{
    uint64_t byte = bit >> 3;
    uint64_t nb = hi - byte, x;
#define RSV__SRC_LO (data + lo)
#define RSV__SRC_HI (data + hi)
    if (RSV_LIKELY(nb >= 8)) {
        x = rsv__load_be64_in(data + byte, RSV__SRC_LO, RSV__SRC_HI);
    } else if (hi - lo >= 8) { /* back up inside the window */
        x = rsv__load_be64_in(data + hi - 8, RSV__SRC_LO, RSV__SRC_HI) << (8 * (8 - nb)); /* nb >= 1: shift <= 56 */
    } else {
        /* nb in 1..7 bytes: first and last k bytes (k = 4, 2 or 1), ORed
         * into place; overlapping bytes are the same bytes */
        const uint8_t *p = data + byte;
        unsigned sh = (unsigned)(64 - 8 * nb); /* where the last byte's low bit goes */
        if (nb >= 4) {
            x = ((uint64_t)rsv__load_be32_in(p, RSV__SRC_LO, RSV__SRC_HI) << 32) |
                ((uint64_t)rsv__load_be32_in(p + nb - 4, RSV__SRC_LO, RSV__SRC_HI) << sh);
        } else if (nb >= 2) {
            x = ((uint64_t)rsv__load_be16_in(p, RSV__SRC_LO, RSV__SRC_HI) << 48) |
                ((uint64_t)rsv__load_be16_in(p + nb - 2, RSV__SRC_LO, RSV__SRC_HI) << sh);
        } else {
            x = (uint64_t)rsv__load_u8_in(p, RSV__SRC_LO, RSV__SRC_HI) << 56;
        }
    }
#undef RSV__SRC_LO
#undef RSV__SRC_HI
    return x << (bit & 7);
}

/* Write the top t bits of x (1 <= t <= 57, lower bits of x zero) at
 * destination bit dbit; returns dbit + t. Needs 8 bytes from dbit's byte. */
static inline uint64_t rsv__put_word(uint8_t *buf, uint64_t dbit, uint64_t x, unsigned t)
{
    uint8_t *d = buf + (dbit >> 3);
    unsigned u = (unsigned)(dbit & 7);
    /* keep the first u bits of the partial byte; with u = 0 the byte is not
     * content yet (it may hold anything), so keep nothing */
    uint64_t head = (uint64_t)(*d & (uint8_t)(0xFF00u >> u)) << 56;
    rsv__store_be64(d, head | (x >> u));
    return dbit + t;
}

/* Append the low `width` bits of v (1 <= width <= 57, v < 2^width). */
static inline uint64_t rsv__put_bits(uint8_t *buf, uint64_t dbit, uint64_t v, unsigned width)
{
    return rsv__put_word(buf, dbit, v << (64 - width), width);
}

/* EG0(v) for v < 2^28 - 1, whose code (2n - 1 <= 55 bits, n = bitlen(v + 1))
 * is the integer v + 1 written in 2n - 1 bits. */
#define RSV__EG0_FAST_MAX ((UINT64_C(1) << 28) - 2)
static inline unsigned rsv__eg0_len_fast(uint64_t v)
{
    return 2 * (64 - rsv__clz64(v + 1)) - 1;
}
static inline uint64_t rsv__put_eg0_fast(uint8_t *buf, uint64_t dbit, uint64_t v)
{
    return rsv__put_bits(buf, dbit, v + 1, rsv__eg0_len_fast(v));
}

/* Copy len bits of src from sbit (source window [lo, hi), sbit + len <=
 * 8 hi) to buf at dbit; returns dbit + len. Needs 8 bytes of slack after the
 * byte holding the last written bit. */
static inline uint64_t rsv__copy_bits(uint8_t *buf, uint64_t dbit, const uint8_t *src, uint64_t sbit,
                                      uint64_t lo, uint64_t hi, uint64_t len)
{
    while (len >= 56) {
        dbit = rsv__put_word(buf, dbit, rsv__load_bits(src, sbit, lo, hi) & rsv__top_mask(56), 56);
        sbit += 56;
        len -= 56;
    }
    if (len)
        dbit = rsv__put_word(buf, dbit, rsv__load_bits(src, sbit, lo, hi) & rsv__top_mask((unsigned)len),
                             (unsigned)len);
    return dbit;
}

/* A bit accumulator for several appends in a row (one record of a merge):
 * acc holds n pending bits, left-aligned, that start at byte p; it is
 * stored only when the next field would not fit, so consecutive short fields
 * cost a shift and an OR each. Same slack rule as the stores above. */
typedef struct rsv__acc {
    uint8_t *p;
    uint64_t acc;
    unsigned n; /* 0..64 */
} rsv__acc;

static inline rsv__acc rsv__acc_begin(uint8_t *buf, uint64_t dbit)
{
    rsv__acc a;
    unsigned u = (unsigned)(dbit & 7);
    a.p = buf + (dbit >> 3);
    a.acc = (uint64_t)(*a.p & (uint8_t)(0xFF00u >> u)) << 56; /* see rsv__put_word */
    a.n = u;
    return a;
}

/* Append the top t bits of x (1 <= t <= 57, lower bits of x zero). */
static inline void rsv__acc_put(rsv__acc *a, uint64_t x, unsigned t)
{
    RSV_ASSERT(t >= 1 && t <= 57 && (x & (UINT64_MAX >> t)) == 0);
    if (a->n + t > 64) { /* n >= 8 here: move the whole bytes out */
        rsv__store_be64(a->p, a->acc);
        unsigned k = a->n >> 3; /* 1..8 */
        a->p += k;
        a->acc = (a->acc << 1) << (8 * k - 1); /* 8k may be 64: two shifts */
        a->n -= 8 * k;
    }
    a->acc |= x >> a->n; /* n <= 63 */
    a->n += t;
}

static inline void rsv__acc_bits(rsv__acc *a, uint64_t v, unsigned width) /* 1..57, v < 2^width */
{
    RSV_ASSERT(width >= 1 && width <= 57 && (v >> width) == 0);
    rsv__acc_put(a, v << (64 - width), width);
}

/* The bulk of a long copy. First the accumulator is brought to a byte
 * boundary (its whole bytes stored, then 8 - n source bits appended and that
 * byte stored too), so the destination is written in whole bytes; output
 * byte j is then source bytes j and j + 1 funnel-shifted by the source's bit
 * offset sh. With SSE2, 16 output bytes per step: two 16-byte loads (at j
 * and j + 1), each shifted within its 16-bit lanes and masked back to its
 * byte's share ((x << sh) & 0xFF.. and (y >> (8 - sh)) & (0xFF >> (8 - sh))
 * per byte; sh = 0 gives the plain copy). Then 64 bits per step: each
 * big-endian word one funnel shift of two consecutive source words (the
 * earlier word carried over, one load per step). Every load starts at or
 * after the first source byte still needed and ends at or before the
 * window's last byte (the loop bounds), so it stays inside the window; every
 * store writes only output bytes. Returns how many source bits were
 * consumed (0 when the source is too short for the loops); the caller
 * appends the rest. */
RSV__OUT_OF_LINE uint64_t rsv__acc_copy_bulk(rsv__acc *a, const uint8_t *src, uint64_t sbit, uint64_t lo,
                                              uint64_t hi, uint64_t len)
{
    /* whole bytes of the accumulator out: n <= 7 pending bits remain */
    rsv__store_be64(a->p, a->acc);
    unsigned k = a->n >> 3;
    a->p += k;
    if (k) a->acc = (a->acc << 1) << (8 * k - 1); /* 8k may be 64 */
    a->n -= 8 * k;
    uint64_t head = 0;
    if (a->n) { /* complete the partial byte from the source */
        head = 8 - a->n;
        rsv__acc_put(a, rsv__load_bits(src, sbit, lo, hi) & rsv__top_mask((unsigned)head), (unsigned)head);
        rsv__store_be64(a->p, a->acc); /* n = 8: one whole byte */
        a->p += 1;
        a->acc = 0;
        a->n = 0;
    }
    uint64_t q = sbit + head;
    const uint8_t *sp = src + (q >> 3);
    unsigned sh = (unsigned)(q & 7);
    uint64_t avail = hi - (q >> 3); /* bytes from sp to the window's end */
    uint64_t done = head;                 /* source bits consumed */
    uint8_t *d = a->p;
#if defined(RSV__HAVE_V128)
    {
        /* step i loads sp[16i .. 16i+15] and sp[16i+1 .. 16i+16]: needs
         * 16 * steps + 1 <= avail; it writes 128 meant bits */
        uint64_t steps = (len - head) / 128, fit = avail ? (avail - 1) / 16 : 0;
        if (steps > fit) steps = fit;
        __m128i c1 = _mm_cvtsi32_si128((int)sh), c2 = _mm_cvtsi32_si128((int)(8 - sh));
        __m128i m1 = _mm_set1_epi8((char)(uint8_t)(0xFFu << sh)), m2 = _mm_set1_epi8((char)(uint8_t)(0xFFu >> (8 - sh)));
        for (uint64_t i = 0; i < steps; i++) {
            __m128i x = rsv__load_v128_in(sp + 16 * i, src + lo, src + hi);
            __m128i y = rsv__load_v128_in(sp + 16 * i + 1, src + lo, src + hi);
            x = _mm_or_si128(_mm_and_si128(_mm_sll_epi16(x, c1), m1), _mm_and_si128(_mm_srl_epi16(y, c2), m2));
            _mm_storeu_si128((__m128i *)(void *)(d + 16 * i), x);
        }
        sp += 16 * steps;
        d += 16 * steps;
        avail -= 16 * steps;
        done += 128 * steps;
    }
#endif
    uint64_t steps = (len - done) / 64;
    /* step i loads sp[8(i+1) .. 8(i+1)+7]: needs 8 * steps + 8 <= avail */
    if (avail >= 16 && steps) {
        if (steps > avail / 8 - 1) steps = avail / 8 - 1;
        uint64_t w0 = rsv__load_be64_in(sp, src + lo, src + hi);
        for (uint64_t i = 0; i < steps; i++) {
            uint64_t w1 = rsv__load_be64_in(sp + 8 * (i + 1), src + lo, src + hi);
            rsv__store_be64(d + 8 * i, (w0 << sh) | ((w1 >> 1) >> (63 - sh))); /* sh = 0: second part 0 */
            w0 = w1;
        }
        d += 8 * steps;
        done += 64 * steps;
    }
    a->p = d;
    return done;
}

static inline void rsv__acc_copy(rsv__acc *a, const uint8_t *src, uint64_t sbit, uint64_t lo, uint64_t hi,
                                 uint64_t len)
{
    if (RSV_UNLIKELY(len >= 128)) { /* long (values): 64 bits per step, see rsv__acc_copy_bulk */
        uint64_t done = rsv__acc_copy_bulk(a, src, sbit, lo, hi, len);
        sbit += done;
        len -= done;
    }
    for (; len >= 56; sbit += 56, len -= 56)
        rsv__acc_put(a, rsv__load_bits(src, sbit, lo, hi) & rsv__top_mask(56), 56);
    if (len) rsv__acc_put(a, rsv__load_bits(src, sbit, lo, hi) & rsv__top_mask((unsigned)len), (unsigned)len);
}

/* Store what is pending; returns the destination bit position. */
static inline uint64_t rsv__acc_end(rsv__acc *a, const uint8_t *buf)
{
    rsv__store_be64(a->p, a->acc);
    return 8 * (uint64_t)(a->p - buf) + a->n;
}

/* A source for the compare below: data and its byte window [lo, hi). */
typedef struct rsv__src {
    const uint8_t *data;
    uint64_t lo, hi;
} rsv__src;

/* Bit-string lcp and order of a = bits [abit, abit + la) of view `a` and b
 * likewise: returns <0, 0, >0 like rsv_view_lcp and sets *lcp. */
static inline int rsv__lcp_bits(rsv__src a, uint64_t abit, uint64_t la, rsv__src b, uint64_t bbit,
                                uint64_t lb, uint64_t *lcp)
{
    uint64_t m = la < lb ? la : lb;
    for (uint64_t i = 0; i < m; i += 56) {
        unsigned t = m - i < 56 ? (unsigned)(m - i) : 56;
        uint64_t x = rsv__load_bits(a.data, abit + i, a.lo, a.hi);
        uint64_t d = (x ^ rsv__load_bits(b.data, bbit + i, b.lo, b.hi)) & rsv__top_mask(t);
        if (d) {
            unsigned z = rsv__clz64(d);
            *lcp = i + z;
            /* the differing bit is set in exactly one of them: a's if a is larger */
            return (x << z) >> 63 ? 1 : -1;
        }
    }
    *lcp = m;
    return la < lb ? -1 : la > lb;
}

/* ---- key and value rebuild (cursor, record-stream reader, record batch) --
 * The literal or value is S bits of data at absolute bit sb; the window is
 * [sb / 8, hi), hi = the stream's end byte (rsv__stream_hi), see the top. */

/* The new key K = old[0, local) ‖ literal against the old key (old_len
 * bytes, in key): 1 if K is greater (KV03.md §1.1 order), else 0. Both share
 * their first local bits, so the literal is compared with the old key's bits
 * [local, 8 old_len), 56 bits at a time; if one is a prefix of the other the
 * longer is greater. Needs local <= 8 * old_len and key readable to
 * old_len + 7. Reads the literal's bytes only as far as the comparison goes. */
static inline int rsv__key_greater(const uint8_t *key, uint64_t old_len, uint64_t local, uint64_t S,
                                   const uint8_t *data, uint64_t sb, uint64_t hi)
{
    uint64_t T = 8 * old_len - local, L = S < T ? S : T;
    const uint8_t *k = key + (local >> 3);
    unsigned u = (unsigned)(local & 7);
    for (uint64_t j = 0; j < L; j += 56) {
        unsigned b = (unsigned)(L - j < 56 ? L - j : 56); /* 1..56: shifts 8..63 */
        uint64_t x = rsv__load_bits(data, sb + j, sb >> 3, hi) >> (64 - b);
        uint64_t y = (rsv__load_be64_owned(k + j / 8) << u) >> (64 - b); /* key bytes < old_len + 7 */
        if (x != y) return x > y;
    }
    return S > T;
}

/* Store the literal at key bit `local`, keeping the first local % 8 bits of
 * byte local / 8. Needs (local + S) % 8 == 0 and key readable and writable
 * to (local + S) / 8 + 7. */
static inline void rsv__key_store(uint8_t *key, uint64_t local, uint64_t S, const uint8_t *data, uint64_t sb,
                                  uint64_t hi)
{
    uint64_t d0 = local >> 3, n = ((local + S) >> 3) - d0; /* bytes to write */
    if (n == 0) return;
    unsigned u = (unsigned)(local & 7);
    uint64_t lo = sb >> 3;
    uint64_t keep = ~(UINT64_MAX >> u); /* the inherited top u bits; 0 for u = 0 */
    rsv__store_be64(key + d0, (rsv__load_be64_owned(key + d0) & keep) | (rsv__load_bits(data, sb, lo, hi) >> u));
    for (uint64_t j = 1; 7 * j < n; j++)
        rsv__store_be64(key + d0 + 7 * j, rsv__load_bits(data, sb - u + 56 * j, lo, hi));
}

/* Copy nbytes whole bytes from data bit sb (any alignment) to dst; dst
 * writable to nbytes + 7. Long unaligned copies go 8 bytes per load through
 * a 2-word shift window while both words are inside the window; aligned ones
 * copy the whole words of value bytes at once. */
static inline void rsv__copy_bytes(uint8_t *dst, const uint8_t *data, uint64_t sb, uint64_t nbytes, uint64_t hi)
{
    if (nbytes == 0) return;
    uint64_t lo = sb >> 3, j = 0;
    unsigned s = (unsigned)(sb & 7);
    if (s) {
        /* words at lo + j and lo + j + 8 both inside the window, and the pair
         * still needed: 8 output bytes need bits up to lo + j + 8 */
        while (j + 8 <= nbytes && lo + j + 16 <= hi) {
            uint64_t a = rsv__load_be64_in(data + lo + j, data + lo, data + hi),
                     b = rsv__load_be64_in(data + lo + j + 8, data + lo, data + hi);
            rsv__store_be64(dst + j, (a << s) | (b >> (64 - s))); /* 1 <= s <= 7 */
            j += 8;
        }
    } else {
        uint64_t whole = nbytes & ~(uint64_t)7; /* every byte is a value byte: inside the window */
        if (whole) rsv__load_copy_in(data + lo, (size_t)whole, dst, data + lo, data + hi);
        j = whole;
    }
    for (; j < nbytes; j += 7) rsv__store_be64(dst + j, rsv__load_bits(data, sb + 8 * j, lo, hi));
}

#endif
