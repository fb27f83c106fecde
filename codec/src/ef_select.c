/* Elias–Fano select with every corruption check of KV03.md §4. The sections
 * come from an untrusted file: sizes were validated at open, contents were
 * not, so each derived position is bounds-checked before it is used. */
#include <string.h>

#include "reservoir/ef.h"

#include "bits.h"
#include "ef_select.h"
#include "mem.h"

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

/* Position of the t-th (0-based) set bit of x; x has more than t set bits.
 * Why not clear t bits one by one: t is up to 63 in dense groups, which made
 * select cost ~250 instructions. Byte-wise prefix popcounts find the byte in
 * a few word operations (Vigna, "Broadword implementation of rank/select
 * queries", 2008), then at most 7 bits are cleared inside it. */
static inline unsigned select_in_word(uint64_t x, unsigned t)
{
    const uint64_t L8 = UINT64_C(0x0101010101010101), H8 = UINT64_C(0x8080808080808080);
    uint64_t s = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    s = (s & UINT64_C(0x3333333333333333)) + ((s >> 2) & UINT64_C(0x3333333333333333));
    s = ((s + (s >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F)) * L8; /* byte j: set bits in bytes 0..j (<= 64) */
    /* byte j's high bit set iff bytes 0..j hold <= t set bits (0x80 + t - s_j >= 0x80, no borrow) */
    uint64_t below = ((((uint64_t)t * L8) | H8) - s) & H8;
    unsigned place = (unsigned)(((below >> 7) * L8) >> 56) * 8; /* the target byte's bit offset, <= 56 */
    unsigned rank = t - (unsigned)(((s << 8) >> place) & 0xFF);  /* set bits before that byte */
    unsigned byte = (unsigned)(x >> place) & 0xFF;
    while (rank--) byte &= byte - 1;
    return place + rsv__ctz64(byte); /* byte != 0: it holds the target bit */
}

/* Dense group: the t-th set bit at or after `first`, within 4096 bits. `hw`
 * is a compile-time constant: the hardware popcount instruction is used only
 * inside the target("popcnt") clone below. */
static inline rsv_status dense_high(const rsv_ef *ef, uint64_t first, unsigned t, uint64_t *P, int hw)
{
    if (first >= ef->H) return RSV_ERR_EF_CORRUPT;
    uint64_t w = first / 64;
    if (w >= ef->high_words) return RSV_ERR_EF_CORRUPT;
    uint64_t bits = rsv__load_le64(ef->high + 8 * w) & (UINT64_MAX << (first & 63));
    unsigned need = t;
    for (;;) {
        unsigned pc = hw ? rsv__popcount64_insn(bits) : rsv__popcount64(bits);
        if (need < pc) {
            *P = w * 64 + select_in_word(bits, need);
            break;
        }
        need -= pc;
        w++;
        /* A bit in word w sits at >= 64w; once 64w - first >= 4096 nothing
         * further can pass the distance check: stop (at most 65 words). */
        if (w >= ef->high_words || w * 64 - first >= 4096) return RSV_ERR_EF_CORRUPT;
        bits = rsv__load_le64(ef->high + 8 * w);
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
    uint64_t x = rsv__load_le64(ef->low + 8 * w) >> sh;
    if (sh + L > 64) x |= rsv__load_le64(ef->low + 8 * (w + 1)) << (64 - sh); /* sh > 0 here */
    return x & (UINT64_MAX >> (64 - L));
}

static inline rsv_status select_impl(const rsv_ef *ef, uint64_t i, uint64_t *out, int hw)
{
    if (i >= ef->n) return RSV_ERR_EF_ORDINAL;
    const uint8_t *s = ef->samples + 16 * (i / 256);
    uint64_t first = rsv__load_le64(s), sparse = rsv__load_le64(s + 8);
    unsigned t = (unsigned)(i % 256);
    uint64_t P;
    if (sparse != UINT64_MAX) {
        if (sparse >= ef->nsparse || t >= ef->nsparse - sparse) return RSV_ERR_EF_CORRUPT;
        P = rsv__load_le64(ef->sparse + 8 * (sparse + t));
        if (P >= ef->H) return RSV_ERR_EF_CORRUPT;
        /* P < H <= 64 * high_words: the word exists */
        if (!((rsv__load_le64(ef->high + 8 * (P / 64)) >> (P & 63)) & 1)) return RSV_ERR_EF_CORRUPT;
    } else {
        rsv_status st = dense_high(ef, first, t, &P, hw);
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

/* Hardware popcount when the CPU has it (as crc32c.c does for SSE4.2): a
 * function-level target clone, chosen per call by a CPUID-backed flag. */
#if defined(RSV__BITS_BUILTIN) && defined(__POPCNT__)
rsv_status rsv_ef_select(const rsv_ef *ef, uint64_t i, uint64_t *out) { return select_impl(ef, i, out, 1); }
#elif defined(RSV__CPU_DISPATCH)
__attribute__((target("popcnt"))) static rsv_status select_hw(const rsv_ef *ef, uint64_t i, uint64_t *out)
{
    return select_impl(ef, i, out, 1);
}

rsv_status rsv_ef_select(const rsv_ef *ef, uint64_t i, uint64_t *out)
{
    if (__builtin_cpu_supports("popcnt")) return select_hw(ef, i, out);
    return select_impl(ef, i, out, 0);
}
#else
rsv_status rsv_ef_select(const rsv_ef *ef, uint64_t i, uint64_t *out) { return select_impl(ef, i, out, 0); }
#endif

/* The portable-popcount path alone, whatever the CPU: on a CPU with POPCNT
 * the dispatch above never reaches it, so tests compare it with
 * rsv_ef_select (as rsv_crc32c_portable does for the CRC). */
rsv_status rsv__ef_select_portable(const rsv_ef *ef, uint64_t i, uint64_t *out) { return select_impl(ef, i, out, 0); }
