/* Elias–Fano select with every corruption check of KV03.md §4. The sections
 * come from an untrusted file: sizes were validated at open, contents were
 * not, so each derived position is bounds-checked before it is used. */
#include <string.h>

#include "reservoir/ef.h"

static uint64_t le64(const uint8_t *p)
{
    uint64_t x;
    memcpy(&x, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    x = __builtin_bswap64(x);
#endif
    return x;
}

void rsv_ef_init(rsv_ef *ef, const rsv_ef_layout *lay, const uint8_t *low, const uint8_t *high,
                 const uint8_t *samples, const uint8_t *sparse, uint64_t sparse_bytes)
{
    ef->low = low;
    ef->high = high;
    ef->samples = samples;
    ef->sparse = sparse;
    ef->n = lay->n;
    ef->U = lay->U;
    ef->H = lay->H;
    ef->L = lay->L;
    ef->high_words = lay->high_bytes / 8;
    ef->nsparse = sparse_bytes / 8;
}

/* Position of the t-th (0-based) set bit of x; x has more than t set bits. */
static unsigned select_in_word(uint64_t x, unsigned t)
{
    while (t--) x &= x - 1;
    return (unsigned)__builtin_ctzll(x);
}

/* Dense group: the t-th set bit at or after `first`, within 4096 bits. */
static rsv_status dense_high(const rsv_ef *ef, uint64_t first, unsigned t, uint64_t *P)
{
    if (first >= ef->H) return RSV_ERR_EF_CORRUPT;
    uint64_t w = first / 64;
    if (w >= ef->high_words) return RSV_ERR_EF_CORRUPT;
    uint64_t bits = le64(ef->high + 8 * w) & (UINT64_MAX << (first & 63));
    unsigned need = t;
    for (;;) {
        unsigned pc = (unsigned)__builtin_popcountll(bits);
        if (need < pc) {
            *P = w * 64 + select_in_word(bits, need);
            break;
        }
        need -= pc;
        w++;
        /* A bit in word w sits at >= 64w; once 64w - first >= 4096 nothing
         * further can pass the distance check: stop (at most 65 words). */
        if (w >= ef->high_words || w * 64 - first >= 4096) return RSV_ERR_EF_CORRUPT;
        bits = le64(ef->high + 8 * w);
    }
    if (*P >= ef->H || *P - first >= 4096) return RSV_ERR_EF_CORRUPT;
    return RSV_OK;
}

static uint64_t low_field(const rsv_ef *ef, uint64_t i)
{
    unsigned L = ef->L;
    if (L == 0) return 0;
    uint64_t bit = i * L, w = bit / 64; /* n*L fits: checked by rsv_ef_shape */
    unsigned sh = (unsigned)(bit & 63);
    uint64_t x = le64(ef->low + 8 * w) >> sh;
    if (sh + L > 64) x |= le64(ef->low + 8 * (w + 1)) << (64 - sh); /* sh > 0 here */
    return x & (UINT64_MAX >> (64 - L));
}

rsv_status rsv_ef_select(const rsv_ef *ef, uint64_t i, uint64_t *out)
{
    if (i >= ef->n) return RSV_ERR_EF_ORDINAL;
    const uint8_t *s = ef->samples + 16 * (i / 256);
    uint64_t first = le64(s), sparse = le64(s + 8);
    unsigned t = (unsigned)(i % 256);
    uint64_t P;
    if (sparse != UINT64_MAX) {
        if (sparse >= ef->nsparse || t >= ef->nsparse - sparse) return RSV_ERR_EF_CORRUPT;
        P = le64(ef->sparse + 8 * (sparse + t));
        if (P >= ef->H) return RSV_ERR_EF_CORRUPT;
        /* P < H <= 64 * high_words: the word exists */
        if (!((le64(ef->high + 8 * (P / 64)) >> (P & 63)) & 1)) return RSV_ERR_EF_CORRUPT;
    } else {
        rsv_status st = dense_high(ef, first, t, &P);
        if (st) return st;
    }
    if (P < i) return RSV_ERR_EF_CORRUPT;
    uint64_t hi = P - i;
    if (hi > (ef->U >> ef->L)) return RSV_ERR_EF_CORRUPT;
    uint64_t v = (hi << ef->L) | low_field(ef, i); /* hi << L <= U: no overflow */
    if (v > ef->U) return RSV_ERR_EF_CORRUPT;
    *out = v;
    return RSV_OK;
}
