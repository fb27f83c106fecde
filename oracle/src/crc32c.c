/* reservoir oracle — CRC32C (Castagnoli), the bitwise definition (KV03.md §7):
 * reflected polynomial 0x82F63B78, initial value 0xFFFFFFFF, reflected input
 * and output, final XOR 0xFFFFFFFF. CRC32C("123456789") = 0xE3069283. */
#include "internal.h"

uint32_t rsv_oracle_crc32c(const uint8_t *bytes, size_t n)
{
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        crc ^= bytes[i];
        /* still one bit at a time; the polynomial is XORed in through a
         * mask (all ones iff the low bit is set) instead of a branch that
         * mispredicted on half the bits (8 % of merge_diff's fuzzing time) */
        for (int b = 0; b < 8; b++)
            crc = (crc >> 1) ^ (0x82F63B78u & (0u - (crc & 1u)));
    }
    return crc ^ 0xFFFFFFFFu;
}
