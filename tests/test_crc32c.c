/* CRC32C (KV03.md §7) at every short length and alignment: rsv_crc32c (the
 * SSE4.2 path on x86-64 CPUs that have it) and rsv_crc32c_portable (the
 * slicing-by-8 tables, which the dispatch never selects on such a CPU) against
 * a bit-at-a-time CRC written here from the spec's definition (reflected
 * polynomial 0x82F63B78, initial value and final XOR 0xFFFFFFFF). Lengths
 * 0..80 cover the byte loop alone, the 8-byte loop plus every remainder, and
 * chaining from a non-zero CRC. In RSV_LOAD_CHECK builds each call may load
 * only its n bytes (load_window.h): a load past the last byte or before the
 * first aborts. */
#include <criterion/criterion.h>
#include <stdint.h>

#include "reservoir/crc32c.h"

#include "load_window.h"

static uint32_t crc_bitwise(uint32_t crc, const uint8_t *p, size_t n)
{
    uint32_t c = ~crc;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int b = 0; b < 8; b++) c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1u)));
    }
    return ~c;
}

Test(crc32c_lengths, reference_itself)
{
    /* the spec's check value and two well-known one-byte values */
    cr_assert_eq(crc_bitwise(0, (const uint8_t *)"123456789", 9), 0xE3069283u);
    cr_assert_eq(crc_bitwise(0, (const uint8_t *)"a", 1), 0xC1D04330u);
    cr_assert_eq(crc_bitwise(0, (const uint8_t *)"", 1), 0x527D5351u); /* one zero byte */
}

Test(crc32c_lengths, every_length_and_offset)
{
    uint8_t buf[96];
    for (int i = 0; i < 96; i++) buf[i] = (uint8_t)(i * 167 + 13);
    unsigned cases = 0;
    for (size_t off = 0; off < 8; off++)
        for (size_t n = 0; n <= 80; n++)
            for (int start = 0; start < 2; start++) {
                uint32_t crc0 = start ? 0x9A3C5E71u : 0u;
                uint32_t want = crc_bitwise(crc0, buf + off, n);
                rsv_lw_bytes(buf + off, n);
                uint32_t got = rsv_crc32c(crc0, buf + off, n), got_portable = rsv_crc32c_portable(crc0, buf + off, n);
                rsv_lw_end();
                cr_assert_eq(got, want, "dispatched: off %zu n %zu crc0 %08x", off, n, crc0);
                cr_assert_eq(got_portable, want, "portable: off %zu n %zu crc0 %08x", off, n, crc0);
                cases++;
            }
    cr_assert_eq(cases, 8u * 81u * 2u);
}

Test(crc32c_lengths, empty_returns_crc_unchanged)
{
    cr_assert_eq(rsv_crc32c(0x12345678u, NULL, 0), 0x12345678u);
    cr_assert_eq(rsv_crc32c_portable(0x12345678u, NULL, 0), 0x12345678u);
}
