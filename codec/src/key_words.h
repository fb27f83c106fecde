/* Private: keys and values rebuilt with 64-bit words.
 *
 * Rebuilding a key means comparing the new literal with the old key's tail
 * (the order check) and storing it after the inherited prefix; a record
 * reader also copies the value bytes out of the stream. Done through short-
 * lived rsv_readers over the literal (fresh cache, byte-wise tail refills)
 * or byte by byte, this cost ~1000 instructions per 14-byte hash literal
 * (docs/performance.md); here it is a few shifted 8-byte loads and stores.
 *
 * Loads (CODES.md §1.2). The literal and value views lie inside the stream
 * the walker decodes (a KV03 data stream or a record stream), whose byte
 * range ends before byte `pend` (exclusive) of `data`. An 8-byte load at
 * byte q is made only when q + 8 <= pend, i.e. when all 8 bytes hold bits of
 * that stream — the same bytes the walker's own 8-byte refill may load.
 * Otherwise (the last bytes of the stream) exactly the bytes that hold bits
 * of the literal or value are loaded, one at a time, so a stream that ends
 * flush against a PROT_NONE page is never overrun. No load starts before the
 * literal's or value's first byte.
 *
 * Stores go to reader-owned buffers with RSV_KW_SLACK bytes of slack: each
 * store writes 8 bytes of which 7 are meant, so a buffer must hold the last
 * meant byte + 7 more. Buffers are grown with rsv__grow_bytes(need + slack). */
#ifndef RSV_KEY_WORDS_H
#define RSV_KEY_WORDS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "reservoir/reader.h"

#include "mem.h"

#define RSV_KW_SLACK 8u

/* Before take(S): if the S literal bits can be cached (S <= 57 or already
 * cached), return them as an integer in *word. A refill loads only bytes
 * holding bits >= p (CODES.md A4). Returns 0 when the literal is long.
 * (For the merge's private short-literal option, rsv__kv03_frames_literal_words.) */
static inline int rsv__literal_peek(rsv_reader *r, uint64_t S, uint64_t *word)
{
    if (S <= 57 && S > r->n && S <= rsv_reader_remaining(r)) rsv__refill(r);
    if (S > r->n) return 0;
    *word = rsv__top(r->cache, (unsigned)S);
    return 1;
}

/* Exclusive end byte of a stream view: the bytes 8-byte loads may touch. */
static inline uint64_t rsv__kw_end_byte(rsv_view stream)
{
    return stream.len ? (stream.off + stream.len - 1) / 8 + 1 : 0;
}

/* 64 bits of data from absolute bit x, MSB first; at least the top 56 are
 * valid whenever they lie before bit 8*lend. lend (<= pend) is the exclusive
 * end byte of the literal or value being read: the tail path loads only
 * bytes q .. lend-1 and leaves the rest zero. Needs x / 8 < lend. lbeg is the
 * literal's or value's first byte: with pend, the load-check bound (the
 * stream, from the bytes being read on: KV03 A1 for word loads). */
static inline uint64_t rsv__kw_window(const uint8_t *data, uint64_t x, uint64_t lbeg, uint64_t lend, uint64_t pend)
{
    uint64_t q = x >> 3, w = 0;
    (void)lbeg;
    if (RSV_LIKELY(q + 8 <= pend)) {
        w = rsv__load_be64_in(data + q, data + lbeg, data + pend);
    } else {
        uint64_t nb = lend - q < 8 ? lend - q : 8;
        w = rsv__load_be_n_in(data + q, (unsigned)nb, data + lbeg, data + lend);
    }
    return w << (x & 7); /* < 8 */
}

/* The new key K = old[0, local) ‖ literal, literal = the S bits of data at
 * absolute bit sb, against the old key (old_len bytes, in key): 1 if K is
 * greater (KV03.md §1.1 order), else 0. Both share their first local bits,
 * so the literal is compared with the old key's bits [local, 8 old_len),
 * 56 bits at a time; if one is a prefix of the other the longer is greater.
 * Needs local <= 8 * old_len and key readable to old_len + 7. Reads the
 * literal's bytes only as far as the comparison goes. */
static inline int rsv__kw_key_greater(const uint8_t *key, uint64_t old_len, uint64_t local, uint64_t S,
                                      const uint8_t *data, uint64_t sb, uint64_t pend)
{
    uint64_t T = 8 * old_len - local, L = S < T ? S : T;
    const uint8_t *k = key + (local >> 3);
    unsigned u = (unsigned)(local & 7);
    uint64_t lend = (sb + S + 7) >> 3;
    for (uint64_t j = 0; j < L; j += 56) {
        unsigned b = (unsigned)(L - j < 56 ? L - j : 56); /* 1..56: shifts 8..63 */
        uint64_t x = rsv__kw_window(data, sb + j, sb >> 3, lend, pend) >> (64 - b);
        uint64_t y = (rsv__load_be64_owned(k + j / 8) << u) >> (64 - b); /* key bytes < old_len + 7 */
        if (x != y) return x > y;
    }
    return S > T;
}

/* Store the literal (S bits of data at absolute bit sb) at key bit `local`,
 * keeping the first local % 8 bits of byte local / 8. Needs
 * (local + S) % 8 == 0 and key readable and writable to (local + S) / 8 + 7. */
static inline void rsv__kw_key_store(uint8_t *key, uint64_t local, uint64_t S, const uint8_t *data, uint64_t sb,
                                     uint64_t pend)
{
    uint64_t d0 = local >> 3, n = ((local + S) >> 3) - d0; /* bytes to write */
    if (n == 0) return;
    unsigned u = (unsigned)(local & 7);
    uint64_t lend = (sb + S + 7) >> 3;
    uint64_t keep = ~(UINT64_MAX >> u); /* the inherited top u bits; 0 for u = 0 */
    rsv__store_be64(key + d0, (rsv__load_be64_owned(key + d0) & keep) | (rsv__kw_window(data, sb, sb >> 3, lend, pend) >> u));
    for (uint64_t j = 1; 7 * j < n; j++)
        rsv__store_be64(key + d0 + 7 * j, rsv__kw_window(data, sb - u + 56 * j, sb >> 3, lend, pend));
}

/* Copy nbytes whole bytes from data bit sb (any alignment) to dst; dst
 * writable to nbytes + 7. Long copies go 8 bytes per load through a 2-word
 * shift window while both words are inside the stream. */
static inline void rsv__kw_copy_bytes(uint8_t *dst, const uint8_t *data, uint64_t sb, uint64_t nbytes,
                                      uint64_t pend)
{
    if (nbytes == 0) return;
    uint64_t lend = (sb + 8 * nbytes + 7) >> 3, j = 0;
    unsigned s = (unsigned)(sb & 7);
    if (s) {
        uint64_t q = sb >> 3;
        /* words at q + j and q + j + 8 both inside the stream, and the pair
         * still needed: 8 output bytes need bits up to q + j + 8 */
        while (j + 8 <= nbytes && q + j + 16 <= pend) {
            uint64_t a = rsv__load_be64_in(data + q + j, data + q, data + pend),
                     b = rsv__load_be64_in(data + q + j + 8, data + q, data + pend);
            rsv__store_be64(dst + j, (a << s) | (b >> (64 - s))); /* 1 <= s <= 7 */
            j += 8;
        }
    } else {
        uint64_t q = sb >> 3;
        uint64_t whole = nbytes & ~(uint64_t)7;
        if (whole) rsv__load_copy_in(data + q, (size_t)whole, dst, data + q, data + lend); /* every byte is a value byte */
        j = whole;
    }
    for (; j < nbytes; j += 7) rsv__store_be64(dst + j, rsv__kw_window(data, sb + 8 * j, sb >> 3, lend, pend));
}

#endif
