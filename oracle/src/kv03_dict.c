/* reservoir oracle — reading the selector dictionary (KV03.md §6.1, §6.3):
 * sections 5 (codes, MSB-first) and 6 (m + 1 little-endian u64 offsets). */
#include <stdlib.h>

#include "internal.h"

static rsv_status dict_fail(rsv_oracle_kv03_result *res, rsv_status st, unsigned step)
{
    return ob_fail_at(res, st, RSV_ORACLE_PHASE_DICTIONARY, step, 0, 0);
}

rsv_status ob_kv03_read_dict(const uint8_t *file, rsv_oracle_kv03_result *res,
                             rsv_oracle_dict *dict)
{
    const uint8_t *body = file + OB_HDR;
    const uint8_t *s5 = body + ob_sec_off(body, 5);
    const uint8_t *s6 = body + ob_sec_off(body, 6);
    const uint64_t m = res->m, bits = res->c0_bits; /* c0_bits = dictionary bits */
    rsv_status st;

    rsv_oracle_dict_free(dict);
    /* m <= 1: C0 = section 5, c = dictionary bits; section 6 is not read. */
    if (m <= 1) {
        if (m == 1 && (st = ob_dict_push(dict, s5, 0, bits)) != RSV_OK)
            return ob_fail_at(res, st, RSV_ORACLE_PHASE_DICTIONARY, 0, 0, 0);
        return RSV_OK;
    }

    /* 1. e_0 != 0 or e_m != dictionary bits -> SECTION_ENDPOINTS */
    if (ob_le_get(s6, 8) != 0 || ob_le_get(s6 + 8 * m, 8) != bits)
        return dict_fail(res, RSV_ERR_SECTION_ENDPOINTS, 1);
    /* 2. for j = 1..m in order: e_j <= e_{j-1} -> DICTIONARY_SHAPE */
    for (uint64_t j = 1; j <= m; j++)
        if (ob_le_get(s6 + 8 * j, 8) <= ob_le_get(s6 + 8 * (j - 1), 8))
            return dict_fail(res, RSV_ERR_DICTIONARY_SHAPE, 2);
    /* Offsets now rise strictly from 0 to the dictionary bits: every code
     * lies inside section 5. */
    for (uint64_t j = 0; j < m; j++) {
        uint64_t e0 = ob_le_get(s6 + 8 * j, 8), e1 = ob_le_get(s6 + 8 * (j + 1), 8);
        if ((st = ob_dict_push(dict, s5, e0, e1 - e0)) != RSV_OK)
            return ob_fail_at(res, st, RSV_ORACLE_PHASE_DICTIONARY, 0, 0, 0);
    }
    /* 3. a code longer than 512 bits -> TOO_LARGE (the MAY, taken) */
    for (uint64_t j = 0; j < m; j++)
        if (dict->codes[j].nbits > RSV_ORACLE_MAX_CODE_BITS)
            return dict_fail(res, RSV_ERR_TOO_LARGE, 3);
    /* 4. for j = 1..m-1 in order: D_{j-1} and D_j must first differ at a bit
     * inside both codes where D_{j-1} has 0, else DICTIONARY_ORDER */
    for (uint64_t j = 1; j < m; j++) {
        rsv_oracle_code a = dict->codes[j - 1], b = dict->codes[j];
        uint64_t d = ob_code_lcp(a, b);
        if (!(d < a.nbits && d < b.nbits && ob_code_bit(a, d) == 0))
            return dict_fail(res, RSV_ERR_DICTIONARY_ORDER, 4);
    }
    return RSV_OK;
}
