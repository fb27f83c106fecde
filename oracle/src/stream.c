/* reservoir oracle — record streams (KV03.md §10): the sequential format with
 * one selector code C0 supplied out of band, keys front-coded per §2.1. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

rsv_status rsv_oracle_stream_encode(const rsv_oracle_record *records, size_t n,
                                    const uint8_t *c0, uint64_t c0_bits, uint8_t **out,
                                    uint64_t *extent_bits, size_t *bad_index)
{
    if (out == NULL || extent_bits == NULL || (c0 == NULL && c0_bits > 0))
        return RSV_ERR_INVALID_ARGUMENT;
    *out = NULL;
    *extent_bits = 0;
    rsv_status st = ob_check_records(records, n);
    if (st == RSV_ERR_INVALID_ARGUMENT)
        return st;
    if (c0_bits > 512) /* §1.2: codes > 512 bits MAY be rejected */
        return RSV_ERR_TOO_LARGE;
    if (st != RSV_OK)
        return st;
    st = ob_check_sorted(records, n, bad_index);
    if (st != RSV_OK)
        return st;

    ob_bitbuf bb;
    ob_bb_init(&bb);
    for (size_t i = 0; i < n; i++) {
        const rsv_oracle_record *k = &records[i];
        /* Selector backspace EG0(0) = `1` for every record. */
        ob_bb_eg(&bb, 0, 0);
        /* Record 0: the selector code bits C0. */
        if (i == 0)
            ob_bb_key_bits(&bb, c0, 0, c0_bits);
        /* Key §2.1 against P (the empty key for record 0):
         * EG0(8|P| - kept) || EG0(8|K| - kept) || K bits [kept, 8|K|). */
        const uint8_t *P = i > 0 ? records[i - 1].key : NULL;
        size_t plen = i > 0 ? records[i - 1].key_len : 0;
        uint64_t kept = ob_lcp_bits(P, plen, k->key, k->key_len);
        ob_bb_eg(&bb, 8 * (uint64_t)plen - kept, 0);
        ob_bb_eg(&bb, 8 * (uint64_t)k->key_len - kept, 0);
        ob_bb_key_bits(&bb, k->key, kept, 8 * (uint64_t)k->key_len);
        /* Value §1.3. */
        (void)ob_bb_value(&bb, k);
    }
    if (bb.err != RSV_OK) {
        st = bb.err;
        ob_bb_free(&bb);
        return st;
    }
    *extent_bits = bb.nbits;
    if (bb.nbits == 0) {
        ob_bb_free(&bb);
        return RSV_OK;
    }
    *out = bb.bytes; /* ceil(E/8) bytes used, zero padded; capacity may be larger */
    return RSV_OK;
}

static rsv_status sfail(rsv_oracle_stream_result *res, rsv_status st, uint64_t i, uint64_t pos)
{
    res->status = st;
    res->record = i;
    res->bitpos = pos;
    return st;
}

rsv_status rsv_oracle_stream_decode(rsv_view v, const uint8_t *c0, uint64_t c0_bits,
                                    rsv_oracle_stream_result *res)
{
    if (res == NULL)
        return RSV_ERR_INVALID_ARGUMENT;
    memset(res, 0, sizeof *res);
    if (c0 == NULL && c0_bits > 0)
        return sfail(res, RSV_ERR_INVALID_ARGUMENT, 0, 0);

    ob_cursor cur;
    cur.v = v;
    cur.pos = 0;
    const uint64_t c = c0_bits;
    uint64_t code_len = 0; /* 0 before record 0, c afterwards */
    const uint8_t *prev = NULL;
    size_t prev_len = 0;
    rsv_status st;

    /* Decode while position < E; stop at position = E. */
    for (uint64_t i = 0; cur.pos < v.len; i++) {
        uint64_t b, bk, S;

        /* Selector backspace b = EG0; b > current code length -> SORT_BACKSPACE. */
        st = ob_cur_eg(&cur, 0, &b);
        if (st != RSV_OK)
            return sfail(res, st, i, cur.pos);
        if (b > code_len)
            return sfail(res, RSV_ERR_SORT_BACKSPACE, i, cur.pos);
        /* Record 0, or b > 0: read the bits completing the code (c bits for
         * record 0, else b bits replacing the last b bits of C0); the result
         * MUST equal C0. Read as take(nbits) then compared bit by bit. */
        if (i == 0 || b > 0) {
            uint64_t nbits = (i == 0) ? c : b;
            uint64_t from = c - nbits; /* first replaced bit of C0 */
            rsv_view code;
            st = ob_cur_take(&cur, nbits, &code);
            if (st != RSV_OK)
                return sfail(res, st, i, cur.pos);
            for (uint64_t j = 0; j < nbits; j++) {
                rsv_oracle_result r = rsv_oracle_read(code, j, 1);
                if (r.value != ob_key_bit(c0, from + j))
                    return sfail(res, RSV_ERR_UNKNOWN_SELECTOR, i, cur.pos);
            }
        }

        /* Key §2.1: bk = EG0; bk > 8|P| -> BACKSPACE_EXCEEDS_KEY; kept = 8|P| - bk;
         * S = EG0; literal = take(S); (kept + S) mod 8 != 0 -> KEY_ENDS_INSIDE_BYTE. */
        st = ob_cur_eg(&cur, 0, &bk);
        if (st != RSV_OK)
            return sfail(res, st, i, cur.pos);
        if (bk > 8 * (uint64_t)prev_len)
            return sfail(res, RSV_ERR_BACKSPACE_EXCEEDS_KEY, i, cur.pos);
        uint64_t kept = 8 * (uint64_t)prev_len - bk;
        st = ob_cur_eg(&cur, 0, &S);
        if (st != RSV_OK)
            return sfail(res, st, i, cur.pos);
        rsv_view literal;
        st = ob_cur_take(&cur, S, &literal);
        if (st != RSV_OK)
            return sfail(res, st, i, cur.pos);
        if ((kept + S) % 8 != 0)
            return sfail(res, RSV_ERR_KEY_ENDS_INSIDE_BYTE, i, cur.pos);
        uint64_t key_len = (kept + S) / 8; /* kept <= 8|P|, S <= E: no overflow */
        if (key_len > SIZE_MAX)
            return sfail(res, RSV_ERR_TOO_LARGE, i, cur.pos);

        /* Value §1.3. */
        rsv_oracle_value_state vstate;
        uint8_t *vbytes;
        size_t vlen;
        st = ob_read_value(&cur, &vstate, &vbytes, &vlen);
        if (st != RSV_OK)
            return sfail(res, st, i, cur.pos);

        /* K = P bits [0, kept) || literal. */
        uint8_t *key = NULL;
        if (key_len > 0) {
            key = calloc((size_t)key_len, 1);
            if (key == NULL) {
                free(vbytes);
                return sfail(res, RSV_ERR_NOMEM, i, cur.pos);
            }
            for (uint64_t j = 0; j < kept; j++)
                if (ob_key_bit(prev, j))
                    key[j / 8] |= (uint8_t)(0x80u >> (unsigned)(j % 8));
            ob_copy_view_bits(key, kept, literal, S);
        }

        /* For i > 0 the order check. */
        if (i > 0 && rsv_oracle_key_compare(key, (size_t)key_len, prev, prev_len) <= 0) {
            free(key);
            free(vbytes);
            return sfail(res, RSV_ERR_UNSORTED, i, cur.pos);
        }
        st = ob_records_push_owned(&res->records, key, (size_t)key_len, vstate, vbytes, vlen);
        if (st != RSV_OK) {
            free(key);
            free(vbytes);
            return sfail(res, st, i, cur.pos);
        }
        prev = key;
        prev_len = (size_t)key_len;
        code_len = c;
    }
    res->status = RSV_OK;
    res->record = res->records.count;
    res->bitpos = cur.pos;
    return RSV_OK;
}

void rsv_oracle_stream_result_free(rsv_oracle_stream_result *res)
{
    if (res == NULL)
        return;
    rsv_oracle_records_free(&res->records);
}
