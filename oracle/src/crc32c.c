/* reservoir oracle — CRC32C (Castagnoli), the bitwise definition (KV03.md §7):
 * reflected polynomial 0x82F63B78, initial value 0xFFFFFFFF, reflected input
 * and output, final XOR 0xFFFFFFFF. CRC32C("123456789") = 0xE3069283. */
#include "internal.h"

uint32_t rsv_oracle_crc32c(const uint8_t *bytes, size_t n)
{
    /* The bitwise loop, four bits at a time: the loop is linear over GF(2),
     * so four steps of it on crc are (crc >> 4) XOR four steps on its low
     * nibble alone, T[crc & 15]. T comes from the bitwise step itself, on
     * every call (no table to mistype). Bit at a time, this function was 7 %
     * of merge_diff's fuzzing time (docs/fuzzing.md, round 5). */
    uint32_t T[16];
    for (uint32_t x = 0; x < 16; x++) {
        uint32_t c = x;
        for (int b = 0; b < 4; b++)
            c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1u)));
        T[x] = c;
    }
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        crc ^= bytes[i];
        crc = (crc >> 4) ^ T[crc & 15u];
        crc = (crc >> 4) ^ T[crc & 15u];
    }
    return crc ^ 0xFFFFFFFFu;
}
