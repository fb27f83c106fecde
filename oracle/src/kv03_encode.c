/* reservoir oracle — KV03 batch writer (KV03.md §11.1): data stream (§3),
 * common width (§3.4), EF (§4), body layout (§5), dictionary and seeds (§6),
 * envelope (§7). The file is a pure function of (records with their codes,
 * policy); the v1 entry point gives every record the one code C0. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

enum { HDR = OB_HDR, DIR = OB_DIR };

rsv_oracle_kv03_policy rsv_oracle_kv03_default_policy(void)
{
    rsv_oracle_kv03_policy p;
    p.bs_kind = RSV_ORACLE_BACKSPACE_EG;
    p.bs_param = 0;
    p.W = 15;
    p.K = 15;
    return p;
}

rsv_status rsv_oracle_kv03_policy_check(const rsv_oracle_kv03_policy *p)
{
    if (p == NULL)
        return RSV_ERR_INVALID_ARGUMENT;
    /* §3.1: B is EG order 0..63 or Golomb m >= 1, else BAD_BACKSPACE. */
    if (p->bs_kind > 1 || (p->bs_kind == RSV_ORACLE_BACKSPACE_EG && p->bs_param > 63) ||
        (p->bs_kind == RSV_ORACLE_BACKSPACE_GOLOMB && p->bs_param == 0))
        return RSV_ERR_BAD_BACKSPACE;
    /* W in 1 .. 2^32-1, K = 2^n - 1 with n >= 2, else BAD_POLICY. */
    if (p->W == 0 || p->W > 0xFFFFFFFFu)
        return RSV_ERR_BAD_POLICY;
    if (!(p->K >= 3 && (p->K & (p->K + 1)) == 0))
        return RSV_ERR_BAD_POLICY;
    return RSV_OK;
}

/* Shared argument validation for the batch writers. */
rsv_status ob_check_records(const rsv_oracle_record *records, size_t n)
{
    if (records == NULL && n > 0)
        return RSV_ERR_INVALID_ARGUMENT;
    for (size_t i = 0; i < n; i++) {
        const rsv_oracle_record *r = &records[i];
        if (r->key == NULL && r->key_len > 0)
            return RSV_ERR_INVALID_ARGUMENT;
        if (r->state != RSV_ORACLE_TOMBSTONE && r->state != RSV_ORACLE_PRESENT)
            return RSV_ERR_INVALID_ARGUMENT;
        if (r->state == RSV_ORACLE_PRESENT && r->value == NULL && r->value_len > 0)
            return RSV_ERR_INVALID_ARGUMENT;
        if (r->key_len > (SIZE_MAX >> 4) || r->value_len > (SIZE_MAX >> 4))
            return RSV_ERR_TOO_LARGE;
    }
    return RSV_OK;
}

static void put_bytes(uint8_t *dst, const uint8_t *src, uint64_t n)
{
    if (n > 0)
        memcpy(dst, src, (size_t)n);
}

/* §11.1 checks of the revision-2 writers, record by record. */
rsv_status ob_check_crecord_fields(const rsv_oracle_crecord *records, size_t n)
{
    if (records == NULL && n > 0)
        return RSV_ERR_INVALID_ARGUMENT;
    rsv_status too_large = RSV_OK;
    for (size_t i = 0; i < n; i++) {
        if (records[i].code.bits == NULL && records[i].code.nbits > 0)
            return RSV_ERR_INVALID_ARGUMENT;
        rsv_status st = ob_check_records(&records[i].rec, 1);
        if (st == RSV_ERR_INVALID_ARGUMENT)
            return st;
        if (st != RSV_OK && too_large == RSV_OK)
            too_large = st;
    }
    return too_large;
}

rsv_status ob_check_coded(const rsv_oracle_crecord *records, size_t n, size_t *bad_index)
{
    for (size_t i = 0; i < n; i++) {
        rsv_status st = RSV_OK;
        /* 1. c_i > 512 -> TOO_LARGE (the MAY of §1.2, taken). */
        if (records[i].code.nbits > RSV_ORACLE_MAX_CODE_BITS)
            st = RSV_ERR_TOO_LARGE;
        /* 2. C_i differs from every code of earlier records and is a prefix
         * of one of them or has one as a prefix -> SELECTOR_PREFIX. */
        /* C_i == C_{i-1} means "seen": no clash can matter, and the scan
         * over all earlier records (n²/2 · |C| bit compares for a list
         * under one code) is skipped. The result is the same. */
        if (st == RSV_OK && !(i > 0 && ob_code_equal(records[i - 1].code, records[i].code))) {
            int seen = 0, clash = 0;
            for (size_t j = 0; j < i; j++) {
                if (ob_code_equal(records[j].code, records[i].code))
                    seen = 1;
                else if (ob_code_is_prefix(records[j].code, records[i].code) ||
                         ob_code_is_prefix(records[i].code, records[j].code))
                    clash = 1;
            }
            if (!seen && clash)
                st = RSV_ERR_SELECTOR_PREFIX;
        }
        /* 3. i > 0 and C_i || K_i <= C_{i-1} || K_{i-1} -> UNSORTED. */
        if (st == RSV_OK && i > 0 && rsv_oracle_logical_compare(&records[i], &records[i - 1]) <= 0)
            st = RSV_ERR_UNSORTED;
        if (st != RSV_OK) {
            if (bad_index != NULL)
                *bad_index = i;
            return st;
        }
    }
    return RSV_OK;
}

rsv_status rsv_oracle_kv03_encode(const rsv_oracle_record *records, size_t n_records,
                                  const rsv_oracle_kv03_policy *policy, const uint8_t *c0,
                                  uint64_t c0_bits, uint8_t **out, size_t *out_len,
                                  size_t *bad_index)
{
    if (out == NULL || out_len == NULL || policy == NULL || (c0 == NULL && c0_bits > 0))
        return RSV_ERR_INVALID_ARGUMENT;
    *out = NULL;
    *out_len = 0;
    rsv_status st = ob_check_records(records, n_records);
    if (st == RSV_ERR_INVALID_ARGUMENT)
        return st;
    rsv_status pst = rsv_oracle_kv03_policy_check(policy);
    if (pst != RSV_OK)
        return pst;
    if (c0_bits > RSV_ORACLE_MAX_CODE_BITS) /* §1.2: codes > 512 bits MAY be rejected */
        return RSV_ERR_TOO_LARGE;
    if (st != RSV_OK)
        return st;
    st = ob_check_sorted(records, n_records, bad_index);
    if (st != RSV_OK)
        return st;
    /* Every record carries C0: the m <= 1 case of the revision-2 writer. */
    rsv_oracle_crecord *coded = ob_with_code(records, n_records, c0, c0_bits);
    if (coded == NULL)
        return RSV_ERR_NOMEM;
    st = ob_kv03_build(coded, n_records, policy, out, out_len);
    free(coded);
    return st;
}

rsv_status rsv_oracle_kv03_encode_v2(const rsv_oracle_crecord *records, size_t n,
                                     const rsv_oracle_kv03_policy *policy, uint8_t **out,
                                     size_t *out_len, size_t *bad_index)
{
    if (out == NULL || out_len == NULL || policy == NULL)
        return RSV_ERR_INVALID_ARGUMENT;
    *out = NULL;
    *out_len = 0;
    rsv_status st = ob_check_crecord_fields(records, n);
    if (st == RSV_ERR_INVALID_ARGUMENT)
        return st;
    rsv_status pst = rsv_oracle_kv03_policy_check(policy);
    if (pst != RSV_OK)
        return pst;
    if (st != RSV_OK) /* absurd key/value lengths */
        return st;
    st = ob_check_coded(records, n, bad_index);
    if (st != RSV_OK)
        return st;
    return ob_kv03_build(records, n, policy, out, out_len);
}

rsv_status ob_kv03_build(const rsv_oracle_crecord *records, size_t n_records,
                         const rsv_oracle_kv03_policy *policy, uint8_t **out, size_t *out_len)
{
    const uint64_t N = (uint64_t)n_records, W = policy->W;
    const uint64_t nb = ob_ceil_div(N, W);
    rsv_status st;

    /* ---- §6.1 dictionary: codes in order of first appearance (records are
     * sorted by logical key, so a new code starts where the code changes) ---- */
    rsv_oracle_dict dict = {0, NULL};
    uint64_t *index = malloc((size_t)(N ? N : 1) * sizeof(uint64_t));
    uint64_t *block_off = malloc((size_t)(nb + 1) * sizeof(uint64_t));
    if (index == NULL || block_off == NULL) {
        free(index);
        free(block_off);
        return RSV_ERR_NOMEM;
    }
    for (uint64_t i = 0; i < N; i++) {
        if (i == 0 || !ob_code_equal(records[i].code, records[i - 1].code)) {
            st = ob_dict_push(&dict, records[i].code.bits, 0, records[i].code.nbits);
            if (st != RSV_OK) {
                free(index);
                free(block_off);
                rsv_oracle_dict_free(&dict);
                return st;
            }
        }
        index[i] = dict.m - 1;
    }
    const uint64_t m = dict.m;

    /* ---- §3.2 data stream ---- */
    ob_bitbuf bb;
    ob_bb_init(&bb);
    uint64_t cont_prev = 0;
    int widths_equal = 1;
    uint64_t width0 = 0;
    for (uint64_t i = 0; i < N; i++) {
        const rsv_oracle_crecord *k = &records[i];
        const rsv_oracle_code C = k->code;
        const uint64_t c = C.nbits, key_bits = 8 * (uint64_t)k->rec.key_len;
        const int block_start = (i % W) == 0;
        const int continues = i > 0 && index[i] == index[i - 1];
        uint64_t R, local;
        if (continues) { /* R = c + lcp(K_{i-1}, K_i), local = lcp */
            local = ob_lcp_bits(records[i - 1].rec.key, records[i - 1].rec.key_len, k->rec.key,
                                k->rec.key_len);
            R = c + local;
        } else if (block_start) { /* record 0, or a code change at a block start */
            R = c;
            local = 0;
        } else { /* transition: R = lcp(C_{i-1}, C_i) */
            R = ob_code_lcp(records[i - 1].code, C);
            local = 0;
        }
        const uint64_t S = key_bits - local;
        if (block_start) {
            block_off[i / W] = bb.nbits;
            ob_bb_eg(&bb, R, 0); /* block start control: EG0(R) */
        } else if (policy->bs_kind == RSV_ORACLE_BACKSPACE_EG) {
            ob_bb_eg(&bb, cont_prev - R, policy->bs_param); /* B(cont_{i-1} - R_i) */
        } else {
            ob_bb_golomb(&bb, cont_prev - R, policy->bs_param);
        }
        if (!block_start && !continues)
            ob_bb_key_bits(&bb, C.bits, R, c);            /* transition tail C bits [R, c) */
        ob_bb_eg(&bb, S, 0);                              /* key header EG0(S) */
        ob_bb_key_bits(&bb, k->rec.key, local, key_bits); /* key literal */
        uint64_t width = ob_bb_value(&bb, &k->rec);       /* value §1.3 */
        if (i == 0)
            width0 = width;
        else if (width != width0)
            widths_equal = 0;
        cont_prev = c + key_bits;
    }
    if (bb.err != RSV_OK) {
        st = bb.err;
        free(index);
        free(block_off);
        rsv_oracle_dict_free(&dict);
        ob_bb_free(&bb);
        return st;
    }
    const uint64_t extent = bb.nbits;
    const uint64_t terminal = N > 0 ? cont_prev : 0;

    /* ---- §3.4 common width ---- */
    const int cw_present = (N == 0) || widths_equal;
    const uint64_t cw = (N > 0 && cw_present) ? width0 : 0;

    /* ---- §4 EF of r_b = offset_b - b*W*cw, r_nb = extent - N*cw ---- */
    for (uint64_t b = 0; b < nb; b++)
        block_off[b] -= b * W * cw;
    block_off[nb] = extent - N * cw;
    rsv_oracle_ef ef;
    st = rsv_oracle_ef_build(block_off, (size_t)(nb + 1), &ef);
    free(block_off);
    if (st != RSV_OK) {
        free(index);
        rsv_oracle_dict_free(&dict);
        ob_bb_free(&bb);
        return st;
    }

    /* ---- §6 dictionary bits, seeds: w = bitlen(m - 1) bits per block ---- */
    uint64_t dict_bits = 0;
    for (uint64_t j = 0; j < m; j++)
        dict_bits += dict.codes[j].nbits;
    const unsigned w = m >= 2 ? ob_bitlen(m - 1) : 0;
    const uint64_t seed_bits = nb * w;

    /* ---- §5 layout ---- */
    uint64_t off[8], len[8];
    len[0] = ob_ceil_div(extent, 8);
    len[1] = ef.low_len;
    len[2] = ef.high_len;
    len[3] = ef.samples_len;
    len[4] = ef.sparse_len;
    len[5] = ob_ceil_div(dict_bits, 8);
    len[6] = 8 * (m + 1);
    len[7] = ob_ceil_div(seed_bits, 8);
    uint64_t end = DIR;
    for (unsigned i = 0; i < 8; i++) {
        off[i] = ob_align8(end); /* section 0 at 192, later ones at align8(prev end) */
        end = off[i] + len[i];
    }
    const uint64_t body_size = end; /* no trailing padding */
    const uint64_t total = HDR + body_size;
    uint8_t *file = calloc((size_t)total, 1); /* gaps and padding are zero */
    if (file == NULL) {
        free(index);
        rsv_oracle_dict_free(&dict);
        rsv_oracle_ef_free(&ef);
        ob_bb_free(&bb);
        return RSV_ERR_NOMEM;
    }
    uint8_t *body = file + HDR;

    /* Directory (§5.1). */
    memcpy(body + 0, "KV03", 4);
    ob_le_put(body + 4, 3, 2);
    ob_le_put(body + 6, 8, 2);
    ob_le_put(body + 8, extent, 8);
    ob_le_put(body + 16, terminal, 8);
    ob_le_put(body + 24, ef.U, 8);
    ob_le_put(body + 32, dict_bits, 8);
    ob_le_put(body + 40, seed_bits, 8);
    body[48] = (uint8_t)ef.L; /* bytes 49-63 stay zero */
    for (unsigned i = 0; i < 8; i++) {
        ob_le_put(body + 64 + 16 * i, off[i], 8);
        ob_le_put(body + 72 + 16 * i, len[i], 8);
    }

    /* Sections. */
    put_bytes(body + off[0], bb.bytes, len[0]); /* bitbuf pads with zero bits */
    put_bytes(body + off[1], ef.low, len[1]);
    put_bytes(body + off[2], ef.high, len[2]);
    put_bytes(body + off[3], ef.samples, len[3]);
    put_bytes(body + off[4], ef.sparse, len[4]);
    /* Section 5: D_0 || ... || D_{m-1}, MSB-first; section 6: offsets
     * e_0 = 0, e_{j+1} = e_j + |D_j|; section 7: seed_b = index of block b's
     * first record's code, w bits at bit b*w, MSB-first. */
    {
        uint64_t e = 0;
        ob_le_put(body + off[6], 0, 8);
        for (uint64_t j = 0; j < m; j++) {
            for (uint64_t t = 0; t < dict.codes[j].nbits; t++, e++)
                if (ob_code_bit(dict.codes[j], t))
                    body[off[5] + e / 8] |= (uint8_t)(0x80u >> (unsigned)(e % 8));
            ob_le_put(body + off[6] + 8 * (j + 1), e, 8);
        }
        for (uint64_t b = 0; b < nb && w > 0; b++) {
            uint64_t s = index[b * W];
            for (unsigned t = 0; t < w; t++) {
                uint64_t p = b * w + t;
                if ((s >> (w - 1 - t)) & 1u)
                    body[off[7] + p / 8] |= (uint8_t)(0x80u >> (unsigned)(p % 8));
            }
        }
    }
    free(index);
    rsv_oracle_dict_free(&dict);
    rsv_oracle_ef_free(&ef);
    ob_bb_free(&bb);

    /* Envelope (§7). */
    memcpy(file + 0, "EVRT.KV\0", 8);
    ob_le_put(file + 8, 1, 2);
    ob_le_put(file + 10, HDR, 2);
    ob_le_put(file + 12, cw_present ? 2u : 0u, 4);
    file[16] = 1; /* address unit: bit */
    file[17] = 1; /* checksum kind: CRC32C */
    file[18] = (uint8_t)policy->bs_kind;
    file[19] = 0;
    ob_le_put(file + 20, W, 4);
    ob_le_put(file + 24, policy->K, 8);
    ob_le_put(file + 32, 0, 8); /* policy value width */
    ob_le_put(file + 40, cw, 8);
    ob_le_put(file + 48, 8 * body_size, 8);
    ob_le_put(file + 56, N, 8);
    ob_le_put(file + 72, HDR, 8);
    ob_le_put(file + 80, total, 8);
    ob_le_put(file + 88, policy->bs_param, 8);
    /* Every field, then the body CRC, then the header CRC (bytes 68-71 zero). */
    ob_le_put(file + 64, rsv_oracle_crc32c(body, (size_t)body_size), 4);
    ob_le_put(file + 68, rsv_oracle_crc32c(file, HDR), 4);

    *out = file;
    *out_len = (size_t)total;
    return RSV_OK;
}
