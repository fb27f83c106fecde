/* reservoir oracle — CRC32C (Castagnoli), the bitwise definition (KV03.md §7):
 * reflected polynomial 0x82F63B78, initial value 0xFFFFFFFF, reflected input
 * and output, final XOR 0xFFFFFFFF. CRC32C("123456789") = 0xE3069283. */
#include "internal.h"

uint32_t rsv_oracle_crc32c(const uint8_t *bytes, size_t n)
{
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        crc ^= bytes[i];
        for (int b = 0; b < 8; b++) {
            if (crc & 1u)
                crc = (crc >> 1) ^ 0x82F63B78u;
            else
                crc >>= 1;
        }
    }
    return crc ^ 0xFFFFFFFFu;
}
