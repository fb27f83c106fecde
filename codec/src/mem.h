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
