/* reservoir oracle — small shared helpers: little-endian words, bit lengths,
 * key bits and lcp (KV03.md §1.1). */
#include "internal.h"

uint64_t ob_le_get(const uint8_t *p, unsigned nbytes)
{
    uint64_t v = 0;
    for (unsigned i = nbytes; i > 0; i--)
        v = (v << 8) | (uint64_t)p[i - 1]; /* byte 0 is least significant */
    return v;
}

void ob_le_put(uint8_t *p, uint64_t v, unsigned nbytes)
{
    for (unsigned i = 0; i < nbytes; i++) {
        p[i] = (uint8_t)(v & 0xFFu);
        v >>= 8;
    }
}

unsigned ob_bitlen(uint64_t x)
{
    unsigned n = 0;
    while (x != 0) {
        n++;
        x >>= 1;
    }
    return n;
}

uint64_t ob_ceil_div(uint64_t a, uint64_t b)
{
    return a / b + (a % b != 0 ? 1u : 0u);
}

uint64_t ob_align8(uint64_t x)
{
    return ob_ceil_div(x, 8) * 8;
}

uint64_t ob_lcp_bits(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
    uint64_t na = 8 * (uint64_t)alen, nb = 8 * (uint64_t)blen;
    uint64_t n = na < nb ? na : nb;
    uint64_t j = 0;
    while (j < n && ob_key_bit(a, j) == ob_key_bit(b, j))
        j++;
    return j;
}
