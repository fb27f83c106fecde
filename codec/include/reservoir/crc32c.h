/* reservoir — CRC32C (Castagnoli), KV03.md §7.
 *
 * Reflected polynomial 0x82F63B78, initial value 0xFFFFFFFF, final XOR
 * 0xFFFFFFFF. The pre- and post-inversion happen inside, so calls chain:
 * rsv_crc32c(rsv_crc32c(0, a, na), b, nb) == rsv_crc32c(0, a ‖ b, na + nb),
 * and rsv_crc32c(0, "123456789", 9) == 0xE3069283. */
#ifndef RESERVOIR_CRC32C_H
#define RESERVOIR_CRC32C_H

#include <stddef.h>
#include <stdint.h>

#include "reservoir/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Continue CRC `crc` (0 to start) over n bytes at p (p may be NULL if n = 0).
 * Uses the SSE4.2 crc32 instruction when the CPU has it, else slicing-by-8. */
RSV_API uint32_t rsv_crc32c(uint32_t crc, const void *p, size_t n);

/* The portable table path alone (tests compare it with the dispatched one). */
RSV_API uint32_t rsv_crc32c_portable(uint32_t crc, const void *p, size_t n);

#ifdef __cplusplus
}
#endif
#endif
