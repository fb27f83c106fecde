/* reservoir — IMPLEMENTATION, NOT API. Byte order and bounded loads.
 *
 * Included by reader.h because the reader's hot path is inline; nothing here
 * is part of the public interface and every name may change. Private codec
 * code includes it through codec/src/mem.h, which adds the stores.
 *
 * This is the one set of load helpers for every load the codec makes from a
 * caller's bytes (CODES.md §1.2 A1–A4). All of them are spelled
 *
 *     rsv__load_<kind>(p [, n])              p = first byte loaded
 *     rsv__load_<kind>_in(p [, n], lo, hi)   ... and [p, p + size) must lie
 *                                            in [lo, hi) (hi exclusive)
 *
 * with kind = be64, le64, be32, be16, u8, be_n (n bytes, first byte in bits
 * 63..56), le_n (n bytes, little-endian value) or copy (n bytes into a
 * buffer: rsv__load_copy(p, n, dst)). The `_in` bound is what A1/A4 allow at
 * that site, computed from the site's own view and position (for a reader:
 * RSV__READER_LO(r), RSV__READER_HI(r)) independently of the address
 * expression, so a mutated address is caught. rsv__load_be64_owned loads
 * from memory the codec owns (a cursor's key buffer): not a view, never
 * checked.
 *
 * Normal builds: each macro is the plain memcpy-based load below; `lo` and
 * `hi` are not evaluated, so the generated code is what it was before.
 *
 * RSV_LOAD_CHECK builds (CMake option RSV_LOAD_CHECK, tests only): every
 * load first calls rsv__load_check, which aborts with the address, length,
 * allowed range and call site unless the bytes lie inside the site's bound
 * (for `_in`) and inside the innermost window the test harness declared
 * (rsv__load_check_push; none declared = no window constraint). See
 * docs/design.md "The load-bounds oracle". */
#ifndef RESERVOIR_MEM_IMPL_H
#define RESERVOIR_MEM_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "reservoir/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Byte order known (and __builtin_bswap available) on GCC and Clang, unless
 * the build defines RSV_PORTABLE_BITS: then the byte-wise loads below. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(RSV_PORTABLE_BITS)
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define RSV__MEM_LE 1
#elif __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define RSV__MEM_BE 1
#endif
#endif

/* ---- the loads themselves (only the macros below call these) ------------ */

static inline uint64_t rsv__mem_be64(const uint8_t *p)
{
#if defined(RSV__MEM_LE)
    uint64_t x;
    memcpy(&x, p, 8);
    return __builtin_bswap64(x);
#elif defined(RSV__MEM_BE)
    uint64_t x;
    memcpy(&x, p, 8);
    return x;
#else
    return ((uint64_t)p[0] << 56) | ((uint64_t)p[1] << 48) | ((uint64_t)p[2] << 40) |
           ((uint64_t)p[3] << 32) | ((uint64_t)p[4] << 24) | ((uint64_t)p[5] << 16) |
           ((uint64_t)p[6] << 8) | (uint64_t)p[7];
#endif
}

static inline uint64_t rsv__mem_le64(const uint8_t *p)
{
#if defined(RSV__MEM_LE)
    uint64_t x;
    memcpy(&x, p, 8);
    return x;
#elif defined(RSV__MEM_BE)
    uint64_t x;
    memcpy(&x, p, 8);
    return __builtin_bswap64(x);
#else
    uint64_t x = 0;
    for (unsigned i = 8; i-- > 0;) x = (x << 8) | p[i];
    return x;
#endif
}

static inline uint32_t rsv__mem_be32(const uint8_t *p)
{
#if defined(RSV__MEM_LE)
    uint32_t x;
    memcpy(&x, p, 4);
    return __builtin_bswap32(x);
#elif defined(RSV__MEM_BE)
    uint32_t x;
    memcpy(&x, p, 4);
    return x;
#else
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
#endif
}

static inline uint32_t rsv__mem_be16(const uint8_t *p) { return ((uint32_t)p[0] << 8) | p[1]; }

static inline uint8_t rsv__mem_u8(const uint8_t *p) { return p[0]; }

/* n bytes (0 <= n <= 8) big-endian into the top n bytes; the rest zero. */
static inline uint64_t rsv__mem_be_n(const uint8_t *p, unsigned n)
{
    uint64_t x = 0;
    for (unsigned i = 0; i < n; i++) x |= (uint64_t)p[i] << (56 - 8 * i);
    return x;
}

/* n bytes (0 <= n <= 8) as a little-endian integer. */
static inline uint64_t rsv__mem_le_n(const uint8_t *p, unsigned n)
{
    uint64_t x = 0;
    for (unsigned i = n; i-- > 0;) x = (x << 8) | p[i];
    return x;
}

/* ---- the bounds a reader site passes (A1 and A4 at position pos) ------- */

/* First byte holding a view bit at a position >= pos, and one past the
 * view's last byte. Only evaluated in RSV_LOAD_CHECK builds. */
#define RSV__VIEW_LO(data, off, pos) ((const uint8_t *)(data) + (((off) + (pos)) >> 3))
#define RSV__VIEW_HI(data, off, len) ((const uint8_t *)(data) + (((off) + (len) + 7) >> 3))
#define RSV__READER_LO(r) RSV__VIEW_LO((r)->data, (r)->off, (r)->pos)
#define RSV__READER_HI(r) RSV__VIEW_HI((r)->data, (r)->off, (r)->len)

#ifdef RSV_LOAD_CHECK

/* Abort unless [first, first + n) lies in [lo, hi) (when lo is not NULL) and
 * in one of the innermost declared window's ranges (when one is declared);
 * the message names the window's first range. */
RSV_API void rsv__load_check(const void *first, size_t n, const void *lo, const void *hi, const char *file,
                             int line);
/* The harness's windows, innermost last, per thread: [lo, hi), hi
 * exclusive; lo == hi declares "no load at all" (A2, A3). These four are
 * the test harness's hooks, not called by inline code: not exported from
 * the shared library (the harnesses link the static one). */
void rsv__load_check_push(const void *lo, const void *hi);
void rsv__load_check_pop(void);
/* Add a range to the innermost window (a second input of the same call). */
void rsv__load_check_also(const void *lo, const void *hi);
/* Loads checked so far on this thread (a harness can show it checked any). */
unsigned long long rsv__load_check_count(void);

#define RSV__LC(p, n, lo, hi) rsv__load_check((p), (n), (lo), (hi), file, line)
#define RSV__LC_FN(name, T, sz, body)                                                                      \
    static inline T name(const uint8_t *p, const void *lo, const void *hi, const char *file, int line)     \
    {                                                                                                      \
        RSV__LC(p, sz, lo, hi);                                                                            \
        return body(p);                                                                                    \
    }
RSV__LC_FN(rsv__lc_be64, uint64_t, 8, rsv__mem_be64)
RSV__LC_FN(rsv__lc_le64, uint64_t, 8, rsv__mem_le64)
RSV__LC_FN(rsv__lc_be32, uint32_t, 4, rsv__mem_be32)
RSV__LC_FN(rsv__lc_be16, uint32_t, 2, rsv__mem_be16)
RSV__LC_FN(rsv__lc_u8, uint8_t, 1, rsv__mem_u8)
#undef RSV__LC_FN
static inline uint64_t rsv__lc_be_n(const uint8_t *p, unsigned n, const void *lo, const void *hi,
                                    const char *file, int line)
{
    if (n) RSV__LC(p, n, lo, hi);
    return rsv__mem_be_n(p, n);
}
static inline uint64_t rsv__lc_le_n(const uint8_t *p, unsigned n, const void *lo, const void *hi,
                                    const char *file, int line)
{
    if (n) RSV__LC(p, n, lo, hi);
    return rsv__mem_le_n(p, n);
}
static inline void rsv__lc_copy(const uint8_t *p, size_t n, void *dst, const void *lo, const void *hi,
                                const char *file, int line)
{
    if (n) RSV__LC(p, n, lo, hi);
    memcpy(dst, p, n);
}

#define rsv__load_be64(p) rsv__lc_be64((p), NULL, NULL, __FILE__, __LINE__)
#define rsv__load_le64(p) rsv__lc_le64((p), NULL, NULL, __FILE__, __LINE__)
#define rsv__load_be32(p) rsv__lc_be32((p), NULL, NULL, __FILE__, __LINE__)
#define rsv__load_be16(p) rsv__lc_be16((p), NULL, NULL, __FILE__, __LINE__)
#define rsv__load_u8(p) rsv__lc_u8((p), NULL, NULL, __FILE__, __LINE__)
#define rsv__load_be_n(p, n) rsv__lc_be_n((p), (n), NULL, NULL, __FILE__, __LINE__)
#define rsv__load_le_n(p, n) rsv__lc_le_n((p), (n), NULL, NULL, __FILE__, __LINE__)
#define rsv__load_copy(p, n, dst) rsv__lc_copy((p), (n), (dst), NULL, NULL, __FILE__, __LINE__)
#define rsv__load_be64_in(p, lo, hi) rsv__lc_be64((p), (lo), (hi), __FILE__, __LINE__)
#define rsv__load_le64_in(p, lo, hi) rsv__lc_le64((p), (lo), (hi), __FILE__, __LINE__)
#define rsv__load_be32_in(p, lo, hi) rsv__lc_be32((p), (lo), (hi), __FILE__, __LINE__)
#define rsv__load_be16_in(p, lo, hi) rsv__lc_be16((p), (lo), (hi), __FILE__, __LINE__)
#define rsv__load_u8_in(p, lo, hi) rsv__lc_u8((p), (lo), (hi), __FILE__, __LINE__)
#define rsv__load_be_n_in(p, n, lo, hi) rsv__lc_be_n((p), (n), (lo), (hi), __FILE__, __LINE__)
#define rsv__load_copy_in(p, n, dst, lo, hi) rsv__lc_copy((p), (n), (dst), (lo), (hi), __FILE__, __LINE__)

#else /* !RSV_LOAD_CHECK: exactly the plain loads */

#define rsv__load_be64(p) rsv__mem_be64(p)
#define rsv__load_le64(p) rsv__mem_le64(p)
#define rsv__load_be32(p) rsv__mem_be32(p)
#define rsv__load_be16(p) rsv__mem_be16(p)
#define rsv__load_u8(p) rsv__mem_u8(p)
#define rsv__load_be_n(p, n) rsv__mem_be_n((p), (n))
#define rsv__load_le_n(p, n) rsv__mem_le_n((p), (n))
#define rsv__load_copy(p, n, dst) ((void)memcpy((dst), (p), (n)))
#define rsv__load_be64_in(p, lo, hi) rsv__mem_be64(p)
#define rsv__load_le64_in(p, lo, hi) rsv__mem_le64(p)
#define rsv__load_be32_in(p, lo, hi) rsv__mem_be32(p)
#define rsv__load_be16_in(p, lo, hi) rsv__mem_be16(p)
#define rsv__load_u8_in(p, lo, hi) rsv__mem_u8(p)
#define rsv__load_be_n_in(p, n, lo, hi) rsv__mem_be_n((p), (n))
#define rsv__load_copy_in(p, n, dst, lo, hi) ((void)memcpy((dst), (p), (n)))

#endif /* RSV_LOAD_CHECK */

/* Codec-owned memory (not a view): never checked, never mutated. */
#define rsv__load_be64_owned(p) rsv__mem_be64(p)

#ifdef __cplusplus
}
#endif
#endif
