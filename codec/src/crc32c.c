/* CRC32C: slicing-by-8 over compile-time tables, plus the SSE4.2 crc32
 * instruction selected at run time. Both compute the same function; the
 * dispatch reads only the CPU-feature word the compiler runtime fills before
 * main, so this file has no state of its own. */
#include <string.h>

#include "reservoir/crc32c.h"

#include "crc32c_table.h"

#include "bits.h" /* RSV__CPU_DISPATCH */
#include "kv03_layout.h" /* rsv__crc32c_zeros */
#include "mem.h"

static uint32_t crc_tables(uint32_t c, const uint8_t *p, size_t n)
{
    while (n >= 8) {
        uint64_t x = rsv__load_le64(p) ^ c;
        c = rsv_crc32c_tab[7][x & 0xff] ^ rsv_crc32c_tab[6][(x >> 8) & 0xff] ^
            rsv_crc32c_tab[5][(x >> 16) & 0xff] ^ rsv_crc32c_tab[4][(x >> 24) & 0xff] ^
            rsv_crc32c_tab[3][(x >> 32) & 0xff] ^ rsv_crc32c_tab[2][(x >> 40) & 0xff] ^
            rsv_crc32c_tab[1][(x >> 48) & 0xff] ^ rsv_crc32c_tab[0][x >> 56];
        p += 8;
        n -= 8;
    }
    while (n--) c = (c >> 8) ^ rsv_crc32c_tab[0][(c ^ rsv__load_u8(p++)) & 0xff];
    return c;
}

/* The CRC of n zero bytes appended: the table step with a zero byte. Loads
 * nothing but the table (no caller or constant buffer to check). */
uint32_t rsv__crc32c_zeros(uint32_t crc, size_t n)
{
    uint32_t c = ~crc;
    while (n--) c = (c >> 8) ^ rsv_crc32c_tab[0][c & 0xff];
    return ~c;
}

uint32_t rsv_crc32c_portable(uint32_t crc, const void *p, size_t n)
{
    if (n == 0) return crc;
    return ~crc_tables(~crc, (const uint8_t *)p, n);
}

#if defined(RSV__CPU_DISPATCH)
#define RSV_CRC_HW 1
#include <nmmintrin.h>

__attribute__((target("sse4.2"))) static uint32_t crc_hw(uint32_t c, const uint8_t *p, size_t n)
{
    uint64_t c64 = c;
    while (n >= 8) {
        c64 = _mm_crc32_u64(c64, rsv__load_le64(p));
        p += 8;
        n -= 8;
    }
    uint32_t c32 = (uint32_t)c64;
    while (n--) c32 = _mm_crc32_u8(c32, rsv__load_u8(p++));
    return c32;
}

static int have_sse42(void)
{
#if defined(__SSE4_2__)
    return 1;
#else
    return __builtin_cpu_supports("sse4.2");
#endif
}
#endif

uint32_t rsv_crc32c(uint32_t crc, const void *p, size_t n)
{
    if (n == 0) return crc;
#ifdef RSV_CRC_HW
    if (have_sse42()) return ~crc_hw(~crc, (const uint8_t *)p, n);
#endif
    return ~crc_tables(~crc, (const uint8_t *)p, n);
}
