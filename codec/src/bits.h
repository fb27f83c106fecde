/* Private: the bit-scan helpers (clz, ctz, bit length, popcount), the
 * attribute macros and the switch between GNU builtins and portable code —
 * the one place for them in codec/src. Byte order and bswap live in mem.h
 * (reservoir/mem_impl.h), under the same switch.
 *
 * RSV__BITS_BUILTIN is defined when the compiler is GCC or Clang and the
 * build did not ask for RSV_PORTABLE_BITS (CMake option of the same name).
 * Without it every helper takes its portable C path, the hardware paths that
 * are chosen at run time (SSE4.2 CRC, POPCNT select, BMI2 batch loops) are
 * not compiled, and the prefetch hint is a no-op: the build a compiler
 * without the builtins would get, testable on this one. The public inline
 * reader (reservoir/reader_impl.h: RSV_CLZ64, RSV_LIKELY) cannot include a
 * private header and makes the same choice from the same macro.
 *
 * The attribute macros (always_inline, noinline) follow the compiler only:
 * they change no result, so the portable build keeps them. */
#ifndef RSV_BITS_H
#define RSV_BITS_H

#include <stdint.h>

#include "debug_assert.h"

#if (defined(__GNUC__) || defined(__clang__)) && !defined(RSV_PORTABLE_BITS)
#define RSV__BITS_BUILTIN 1
#endif

/* Run-time CPU dispatch to a target("...") clone (crc32c.c, ef_select.c,
 * batch.c): x86-64 with the GNU builtins only. */
#if defined(RSV__BITS_BUILTIN) && defined(__x86_64__)
#define RSV__CPU_DISPATCH 1
#endif

/* ---- attribute macros ---------------------------------------------------- */

/* Same spelling and the same switch as reservoir/reader_impl.h, which defines
 * them when reservoir/reader.h came first. */
#ifndef RSV_LIKELY
#if defined(RSV__BITS_BUILTIN)
#define RSV_LIKELY(x) __builtin_expect(!!(x), 1)
#define RSV_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define RSV_LIKELY(x) (x)
#define RSV_UNLIKELY(x) (x)
#endif
#endif

#if defined(__GNUC__) || defined(__clang__)
#define RSV__ALWAYS_INLINE inline __attribute__((always_inline))
#define RSV__NOINLINE __attribute__((noinline))
#define RSV__UNUSED __attribute__((unused))
#else
#define RSV__ALWAYS_INLINE inline
#define RSV__NOINLINE
#define RSV__UNUSED
#endif

/* A read hint for the cache line holding *p. Loads nothing architecturally
 * and never faults; callers still issue it only for addresses inside their
 * view. A no-op without the builtin (p is not evaluated). */
#if defined(RSV__BITS_BUILTIN)
#define RSV__PREFETCH(p) __builtin_prefetch(p)
#else
#define RSV__PREFETCH(p) ((void)0)
#endif

/* The prefetch of a reader site, whose bounds lo/hi are those of a load
 * there (reservoir/mem_impl.h). In RSV_LOAD_CHECK builds its address is
 * checked like a 1-byte load, so "only inside the view" is checked too
 * (nothing is loaded); otherwise lo and hi are not evaluated. The caller
 * must have reservoir/mem_impl.h (through reader.h). */
#ifdef RSV_LOAD_CHECK
#define RSV__PREFETCH_IN(p, lo, hi) (rsv__load_check((p), 1, (lo), (hi), __FILE__, __LINE__), RSV__PREFETCH(p))
#else
#define RSV__PREFETCH_IN(p, lo, hi) RSV__PREFETCH(p)
#endif

/* ---- bit scans ----------------------------------------------------------- */

/* rsv__clz64(x): leading zeros of x; rsv__ctz64(x): trailing zeros of x.
 * Both need x != 0 (the builtins are undefined for 0). One #if for the pair,
 * so the builtin and the portable forms each stand in one place. */
#if defined(RSV__BITS_BUILTIN)
static inline unsigned rsv__clz64(uint64_t x) { RSV_ASSERT(x != 0); return (unsigned)__builtin_clzll(x); }
static inline unsigned rsv__ctz64(uint64_t x) { RSV_ASSERT(x != 0); return (unsigned)__builtin_ctzll(x); }
#else
static inline unsigned rsv__clz64(uint64_t x)
{
    RSV_ASSERT(x != 0);
    unsigned n = 0;
    if (!(x >> 32)) { n += 32; x <<= 32; }
    if (!(x >> 48)) { n += 16; x <<= 16; }
    if (!(x >> 56)) { n += 8; x <<= 8; }
    if (!(x >> 60)) { n += 4; x <<= 4; }
    if (!(x >> 62)) { n += 2; x <<= 2; }
    if (!(x >> 63)) n += 1;
    return n;
}
static inline unsigned rsv__ctz64(uint64_t x)
{
    return 63u - rsv__clz64(x & (0 - x)); /* x & -x: the lowest 1 alone; x != 0 asserted there */
}
#endif

/* Number of bits needed to write x: 0 for 0, else 1 + index of the top 1. */
static inline unsigned rsv__bitlen64(uint64_t x) { return x ? 64u - rsv__clz64(x) : 0; }

/* Set bits of x, SWAR, on every build: the library is built without
 * -mpopcnt, where __builtin_popcountll would call libgcc's __popcountdi2.
 * The instruction is used through rsv__popcount64_insn only. */
static inline unsigned rsv__popcount64(uint64_t x)
{
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
    return (unsigned)((x * UINT64_C(0x0101010101010101)) >> 56);
}

/* Set bits of x, for code compiled for a CPU with POPCNT only (the
 * target("popcnt") clone in ef_select.c, or -mpopcnt): there the builtin is
 * the instruction. */
static inline unsigned rsv__popcount64_insn(uint64_t x)
{
#if defined(RSV__BITS_BUILTIN)
    return (unsigned)__builtin_popcountll(x);
#else
    return rsv__popcount64(x);
#endif
}

#endif
