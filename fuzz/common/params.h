/* Code parameters drawn from fuzz input, shared by the targets and the seed
 * generator (fuzz/gen_corpus.c) so that a seed byte means the same to both.
 *
 * Every selector reaches the ordinary values directly (a selector byte
 * 0..200 is the width/order itself, modulo the range) and reserves the rest
 * for out-of-range and extreme parameters, which the spec says must be
 * rejected (CODES.md §6.1: RSV_ERR_WIDTH, RSV_ERR_BAD_ORDER,
 * RSV_ERR_BAD_MODULUS). */
#ifndef RSV_FUZZ_PARAMS_H
#define RSV_FUZZ_PARAMS_H

#include <limits.h>
#include <stdint.h>

#include "data_producer.h"

#define RSV_FUZZ_SEL_PLAIN_MAX 200u

/* Field width: 0..66 (65, 66 invalid), or an odd one. */
static inline unsigned rsv_fuzz_width(uint8_t sel)
{
    static const unsigned odd[] = {65, 66, 67, 100, 127, 128, 255, 256, 1000, 65535, UINT_MAX};
    if (sel <= RSV_FUZZ_SEL_PLAIN_MAX) return sel % 67u;
    return odd[(sel - RSV_FUZZ_SEL_PLAIN_MAX - 1u) % (sizeof odd / sizeof odd[0])];
}

/* Exp-Golomb order: 0..64 (64 invalid), or an odd one. */
static inline unsigned rsv_fuzz_order(uint8_t sel)
{
    static const unsigned odd[] = {63, 64, 65, 100, 127, 128, 255, 256, 65535, UINT_MAX};
    if (sel <= RSV_FUZZ_SEL_PLAIN_MAX) return sel % 65u;
    return odd[(sel - RSV_FUZZ_SEL_PLAIN_MAX - 1u) % (sizeof odd / sizeof odd[0])];
}

/* Golomb modulus: u8 msel; msel & 7 is the kind, then its parameters:
 *   0: 1                      1: 2 + u8                  2: 2^(1 + u8 % 63)
 *   3: 2^64-1                 4: u64 (0 included)        5: 0 (invalid)
 *   6: 2^(u8 % 64) + u8 % 5 - 2 (mod 2^64)               7: 2^64-1 - u16
 * Bit 3 of msel is returned in *alt_api (which API variant to exercise). */
enum rsv_fuzz_modulus_kind {
    RSV_FUZZ_M_ONE = 0,
    RSV_FUZZ_M_SMALL,
    RSV_FUZZ_M_POW2,
    RSV_FUZZ_M_MAX,
    RSV_FUZZ_M_U64,
    RSV_FUZZ_M_ZERO,
    RSV_FUZZ_M_NEAR_POW2,
    RSV_FUZZ_M_NEAR_MAX
};
#define RSV_FUZZ_M_ALT_API 8u

static inline uint64_t rsv_fuzz_modulus(rsv_fuzz_producer *s, int *alt_api)
{
    uint8_t sel = rsv_fuzz_u8(s);
    *alt_api = (sel & RSV_FUZZ_M_ALT_API) != 0;
    switch ((enum rsv_fuzz_modulus_kind)(sel & 7u)) {
    case RSV_FUZZ_M_ONE: return 1;
    case RSV_FUZZ_M_SMALL: return 2u + rsv_fuzz_u8(s);
    case RSV_FUZZ_M_POW2: return UINT64_C(1) << (1u + rsv_fuzz_u8(s) % 63u);
    case RSV_FUZZ_M_MAX: return UINT64_MAX;
    case RSV_FUZZ_M_U64: return rsv_fuzz_u64(s);
    case RSV_FUZZ_M_ZERO: return 0;
    case RSV_FUZZ_M_NEAR_POW2: {
        uint64_t base = UINT64_C(1) << (rsv_fuzz_u8(s) % 64u);
        return base + rsv_fuzz_u8(s) % 5u - 2u; /* mod 2^64 by design */
    }
    default: return UINT64_MAX - rsv_fuzz_u16(s);
    }
}

#endif
