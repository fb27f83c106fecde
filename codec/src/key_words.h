/* Private: short key literals held as integers.
 *
 * Rebuilding a key means comparing the new literal with the old key's tail
 * (the order check) and storing it after the inherited prefix. For literals
 * of at most 64 bits that are already in the walking reader's cache, doing
 * both on integers avoids two short-lived readers per record, which
 * dominated the cursor and record-stream workloads (docs/performance.md). */
#ifndef RSV_KEY_WORDS_H
#define RSV_KEY_WORDS_H

#include <stddef.h>
#include <stdint.h>

#include "reservoir/reader.h"

/* Before take(S): if the S literal bits can be cached (S <= 57 or already
 * cached), return them as an integer in *word. A refill loads only bytes
 * holding bits >= p (CODES.md A4). Returns 0 when the literal is long. */
static inline int rsv__literal_peek(rsv_reader *r, uint64_t S, uint64_t *word)
{
    if (S <= 57 && S > r->n && S <= rsv_reader_remaining(r)) rsv__refill(r);
    if (S > r->n) return 0;
    *word = rsv__top(r->cache, (unsigned)S);
    return 1;
}

/* The key's bits [from, 8*len) as an integer; the caller guarantees at most
 * 64 of them. Reads only the key buffer. */
static inline uint64_t rsv__key_tail_word(const uint8_t *key, size_t len, uint64_t from)
{
    size_t b = (size_t)(from / 8);
    if (b >= len) return 0;
    uint64_t x = key[b] & (0xFFu >> (from % 8));
    for (b++; b < len; b++) x = (x << 8) | key[b]; /* total bits <= 64: no overflow */
    return x;
}

/* Bit-string order of two strings of at most 64 bits held as integers: the
 * first differing bit decides, a proper prefix is smaller (KV03.md §1.1). */
static inline int rsv__compare_words(uint64_t a, unsigned la, uint64_t b, unsigned lb)
{
    unsigned m = la < lb ? la : lb;
    if (m) {
        uint64_t x = a >> (la - m), y = b >> (lb - m); /* la - m, lb - m <= 63 */
        if (x != y) return x < y ? -1 : 1;
    }
    return la < lb ? -1 : la > lb;
}

/* Store the nbits-bit literal w so that it ends at key bit `end` (a byte
 * boundary), keeping the inherited bits of the first, partial byte. */
static inline void rsv__store_word(uint8_t *key, uint64_t end, uint64_t w, unsigned nbits)
{
    size_t b = (size_t)(end / 8);
    for (; nbits >= 8; nbits -= 8) {
        key[--b] = (uint8_t)w;
        w = nbits > 8 ? w >> 8 : 0;
    }
    if (nbits) {
        b--;
        key[b] = (uint8_t)((key[b] & (uint8_t)(0xFFu << nbits)) | (uint8_t)w);
    }
}

#endif
