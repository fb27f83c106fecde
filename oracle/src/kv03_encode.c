/* reservoir oracle — KV03 batch writer (KV03.md §11.1): data stream (§3),
 * common width (§3.4), EF (§4), body layout (§5), dictionary and seeds (§6),
 * envelope (§7). The file is a pure function of (records, policy, C0). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

enum { HDR = 96, DIR = 192 };

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
    if (c0_bits > 512) /* §1.2: codes > 512 bits MAY be rejected */
        return RSV_ERR_TOO_LARGE;
    if (st != RSV_OK)
        return st;
    st = ob_check_sorted(records, n_records, bad_index);
    if (st != RSV_OK)
        return st;

    const uint64_t N = (uint64_t)n_records, W = policy->W, c = c0_bits;
    const uint64_t nb = ob_ceil_div(N, W);

    /* ---- §3.2 data stream ---- */
    ob_bitbuf bb;
    ob_bb_init(&bb);
    uint64_t *block_off = malloc((size_t)(nb + 1) * sizeof(uint64_t));
    if (block_off == NULL)
        return RSV_ERR_NOMEM;
    uint64_t cont_prev = c; /* cont_{-1} = c */
    int widths_equal = 1;
    uint64_t width0 = 0;
    for (uint64_t i = 0; i < N; i++) {
        const rsv_oracle_record *k = &records[i];
        uint64_t key_bits = 8 * (uint64_t)k->key_len;
        /* R_0 = c; R_i = c + lcp(K_{i-1}, K_i) (exact lcp, also at block starts). */
        uint64_t R = c;
        if (i > 0)
            R = c + ob_lcp_bits(records[i - 1].key, records[i - 1].key_len, k->key, k->key_len);
        uint64_t local = R - c;
        uint64_t S = key_bits - local;
        if (i % W == 0) {
            block_off[i / W] = bb.nbits;
            ob_bb_eg(&bb, R, 0); /* block start control: EG0(R) */
        } else if (policy->bs_kind == RSV_ORACLE_BACKSPACE_EG) {
            ob_bb_eg(&bb, cont_prev - R, policy->bs_param); /* B(cont_{i-1} - R_i) */
        } else {
            ob_bb_golomb(&bb, cont_prev - R, policy->bs_param);
        }
        ob_bb_eg(&bb, S, 0);                          /* key header EG0(S) */
        ob_bb_key_bits(&bb, k->key, local, key_bits); /* key literal */
        uint64_t width = ob_bb_value(&bb, k);         /* value §1.3 */
        if (i == 0)
            width0 = width;
        else if (width != width0)
            widths_equal = 0;
        cont_prev = c + key_bits;
    }
    if (bb.err != RSV_OK) {
        st = bb.err;
        free(block_off);
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
        ob_bb_free(&bb);
        return st;
    }

    /* ---- §6.1 dictionary and seeds ---- */
    const uint64_t dict_bits = N > 0 ? c : 0;
    const uint64_t m = N > 0 ? 1 : 0;
    const uint64_t seed_bits = 0;

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
    if (dict_bits > 0) { /* C0, MSB-first, unused low bits zero */
        for (uint64_t j = 0; j < dict_bits; j++)
            if (ob_key_bit(c0, j))
                body[off[5] + j / 8] |= (uint8_t)(0x80u >> (unsigned)(j % 8));
    }
    ob_le_put(body + off[6], 0, 8); /* offsets [0] or [0, c] */
    if (m == 1)
        ob_le_put(body + off[6] + 8, c, 8);
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
