/* Input format of the codes_roundtrip fuzz target, shared with the seed
 * generator (fuzz/gen_corpus.c).
 *
 * Consumption order (data producer: from the END of the input backwards):
 *   u8 limsel                  < 192: writer limit RSV_RT_BIG_LIMIT (2^16) bits; else u16
 *   items until the input is exhausted (at most RSV_RT_MAX_ITEMS):
 *     u8 isel                  isel % RSV_RT_NKINDS is the kind; bit 7 picks the
 *                              alternate API (EG k = 0: rsv_read_eg0;
 *                              Golomb: rsv_put_golomb_m / rsv_read_golomb_m)
 *     FIXED   u8 wsel, value   w = rsv_fuzz_width(wsel)
 *     EG      u8 ksel, value   k = rsv_fuzz_order(ksel)
 *     GOLOMB  modulus, value   rsv_fuzz_modulus (its own API bit is ignored)
 *     ZEROS   u16 count
 *   value: u8 vsel, vsel % 8 is the shape, then its parameters:
 *     0: u64   1: u8   2: 2^64-1   3: 2^64-1 - u8
 *     4: 2^(u8 % 64) + u8 % 5 - 2 (mod 2^64)   5: u64 >> (u8 % 64)   6: u32
 *     7: code-shaped q*M + r (mod 2^64) with M the code's modulus (2^w, 2^k
 *        or m; raw u64 when M is 0 or does not fit): u8 q, then u8 rsel
 *        (rsel % 5: r = 0, M-1, cutoff-1, cutoff, u64 % M) */
#ifndef RSV_FUZZ_ROUNDTRIP_SCRIPT_H
#define RSV_FUZZ_ROUNDTRIP_SCRIPT_H

#define RSV_RT_MAX_ITEMS 256u
#define RSV_RT_BIG_LIMIT (UINT64_C(1) << 16) /* bits; larger codes slow every run */
#define RSV_RT_LIMSEL_SMALL 192u /* limsel >= this: limit = u16 */

enum rsv_rt_kind { RSV_RT_FIXED = 0, RSV_RT_EG, RSV_RT_GOLOMB, RSV_RT_ZEROS, RSV_RT_NKINDS };
#define RSV_RT_ALT_API 0x80u

enum rsv_rt_value_shape {
    RSV_RT_V_U64 = 0,
    RSV_RT_V_U8,
    RSV_RT_V_MAX,
    RSV_RT_V_NEAR_MAX,
    RSV_RT_V_NEAR_POW2,
    RSV_RT_V_SHIFTED,
    RSV_RT_V_U32,
    RSV_RT_V_CODE_SHAPED
};

#endif
