/* Private: byte order, the bounded loads and the stores — the one place for
 * them. The loads live in reservoir/mem_impl.h (the reader's inline hot path
 * needs them from a public header); this header adds the stores, which go to
 * codec-owned buffers and are never checked. Load call sites use only the
 * rsv__load_* family documented there. */
#ifndef RSV_MEM_H
#define RSV_MEM_H

#include <stdint.h>
#include <string.h>

#include "reservoir/mem_impl.h"

#include "debug_assert.h"

/* ---- the one vector load (x86-64 SSE2; private: it needs <emmintrin.h>,
 * which the public mem_impl.h does not pull into callers) -------------------
 * rsv__load_v128_in(p, lo, hi): the 16 bytes at p, [p, p + 16) within
 * [lo, hi); checked like every rsv__load_*_in under RSV_LOAD_CHECK. */
#if defined(__SSE2__) && !defined(RSV_PORTABLE_BITS)
#include <emmintrin.h>
#define RSV__HAVE_V128 1
static inline __m128i rsv__mem_v128(const uint8_t *p) { return _mm_loadu_si128((const __m128i *)(const void *)p); }
#ifdef RSV_LOAD_CHECK
static inline __m128i rsv__lc_v128(const uint8_t *p, const void *lo, const void *hi, const char *file, int line)
{
    rsv__load_check(p, 16, lo, hi, file, line);
    return rsv__mem_v128(p);
}
#define rsv__load_v128_in(p, lo, hi) rsv__lc_v128((p), (lo), (hi), __FILE__, __LINE__)
#else
#define rsv__load_v128_in(p, lo, hi) rsv__mem_v128(p)
#endif
#endif

/* x big-endian into p[0..8). */
static inline void rsv__store_be64(uint8_t *p, uint64_t x)
{
#if defined(RSV__MEM_LE)
    x = __builtin_bswap64(x);
    memcpy(p, &x, 8);
#elif defined(RSV__MEM_BE)
    memcpy(p, &x, 8);
#else
    for (int i = 7; i >= 0; i--, x >>= 8) p[i] = (uint8_t)x;
#endif
}

/* The low 8n bits of x little-endian into p[0..n), 0 <= n <= 8. */
static inline void rsv__store_le_n(uint8_t *p, uint64_t x, unsigned n)
{
    RSV_ASSERT(n <= 8);
    for (unsigned i = 0; i < n; i++, x >>= 8) p[i] = (uint8_t)x;
}

#endif
