/* reservoir oracle — record streams (KV03.md §10): the sequential format with
 * a code set supplied out of band, keys front-coded per §2.1 against the
 * previous key of the same code. The v1 entry points are the one-code set
 * {C0}. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The stream of records that passed the §11.1 checks (§10 "Writer"). */
static rsv_status stream_build(const rsv_oracle_crecord *records, size_t n, uint8_t **out,
                               uint64_t *extent_bits)
{
    ob_bitbuf bb;
    ob_bb_init(&bb);
    for (size_t i = 0; i < n; i++) {
        const rsv_oracle_crecord *k = &records[i];
        const int same = i > 0 && ob_code_equal(records[i - 1].code, k->code);
        if (i == 0) { /* b = 0 (`1`), then all of C_0 */
            ob_bb_eg(&bb, 0, 0);
            ob_bb_key_bits(&bb, k->code.bits, 0, k->code.nbits);
        } else if (same) { /* b = 0 */
            ob_bb_eg(&bb, 0, 0);
        } else { /* b = c_{i-1} - lcp, then C_i bits [lcp, c_i) */
            uint64_t l = ob_code_lcp(records[i - 1].code, k->code);
            ob_bb_eg(&bb, records[i - 1].code.nbits - l, 0);
            ob_bb_key_bits(&bb, k->code.bits, l, k->code.nbits);
        }
        /* Key §2.1 against P = K_{i-1} (same code) or the empty key:
         * EG0(8|P| - kept) || EG0(8|K| - kept) || K bits [kept, 8|K|). */
        const uint8_t *P = same ? records[i - 1].rec.key : NULL;
        size_t plen = same ? records[i - 1].rec.key_len : 0;
        uint64_t kept = ob_lcp_bits(P, plen, k->rec.key, k->rec.key_len);
        ob_bb_eg(&bb, 8 * (uint64_t)plen - kept, 0);
        ob_bb_eg(&bb, 8 * (uint64_t)k->rec.key_len - kept, 0);
        ob_bb_key_bits(&bb, k->rec.key, kept, 8 * (uint64_t)k->rec.key_len);
        (void)ob_bb_value(&bb, &k->rec); /* value §1.3 */
    }
    if (bb.err != RSV_OK) {
        rsv_status st = bb.err;
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
    if (c0_bits > RSV_ORACLE_MAX_CODE_BITS) /* §1.2: codes > 512 bits MAY be rejected */
        return RSV_ERR_TOO_LARGE;
    if (st != RSV_OK)
        return st;
    st = ob_check_sorted(records, n, bad_index);
    if (st != RSV_OK)
        return st;
    rsv_oracle_crecord *coded = ob_with_code(records, n, c0, c0_bits);
    if (coded == NULL)
        return RSV_ERR_NOMEM;
    st = stream_build(coded, n, out, extent_bits);
    free(coded);
    return st;
}

rsv_status rsv_oracle_stream_encode_v2(const rsv_oracle_crecord *records, size_t n,
                                       uint8_t **out, uint64_t *extent_bits, size_t *bad_index)
{
    if (out == NULL || extent_bits == NULL)
        return RSV_ERR_INVALID_ARGUMENT;
    *out = NULL;
    *extent_bits = 0;
    rsv_status st = ob_check_crecord_fields(records, n);
    if (st != RSV_OK)
        return st;
    st = ob_check_coded(records, n, bad_index);
    if (st != RSV_OK)
        return st;
    return stream_build(records, n, out, extent_bits);
}

static rsv_status sfail(rsv_oracle_stream_result *res, rsv_status st, uint64_t i, uint64_t pos)
{
    res->status = st;
    res->record = i;
    res->bitpos = pos;
    return st;
}

/* Index of the set code equal to P (bits, len), or nset. */
static size_t set_find(const rsv_oracle_code *set, size_t nset, rsv_oracle_code P)
{
    for (size_t j = 0; j < nset; j++)
        if (ob_code_equal(set[j], P))
            return j;
    return nset;
}

/* §10 "Reader" with a set already checked (prefix-free). */
static rsv_status stream_decode(rsv_view v, const rsv_oracle_code *set, size_t nset,
                                rsv_oracle_stream_result *res, uint64_t **code_index)
{
    ob_cursor cur;
    cur.v = v;
    cur.pos = 0;
    uint64_t maxc = 0;
    for (size_t j = 0; j < nset; j++)
        if (set[j].nbits > maxc)
            maxc = set[j].nbits;
    if (maxc / 8 + 1 > SIZE_MAX)
        return sfail(res, RSV_ERR_NOMEM, 0, 0);
    const size_t psize = (size_t)(maxc / 8 + 1);
    uint8_t *pbits = malloc(psize); /* the code being completed, P */
    if (pbits == NULL)
        return sfail(res, RSV_ERR_NOMEM, 0, 0);
    size_t cc = nset;      /* index of Cc; none before record 0 */
    uint64_t cc_len = 0;   /* |Cc| (0 before record 0) */
    const uint8_t *prev = NULL;
    size_t prev_len = 0;
    rsv_status st = RSV_OK;

#define FAIL(code)                                                                                 \
    do {                                                                                           \
        st = sfail(res, (code), i, cur.pos);                                                       \
        goto out;                                                                                  \
    } while (0)

    /* Decode while position < E; stop at position = E. */
    for (uint64_t i = 0; cur.pos < v.len; i++) {
        uint64_t b, bk, S;
        size_t ci;
        uint8_t *key = NULL, *vbytes = NULL; /* owned by res->records */

        /* 1. b = EG0; b > |Cc| -> SORT_BACKSPACE. */
        {
            rsv_status e = ob_cur_eg(&cur, 0, &b);
            if (e != RSV_OK)
                FAIL(e);
        }
        if (b > cc_len)
            FAIL(RSV_ERR_SORT_BACKSPACE);

        /* 2. Record 0, or b > 0: P = Cc bits [0, |Cc| - b), then complete P
         * with the shortest possible continuation at each step. */
        if (i == 0 || b > 0) {
            rsv_oracle_code P = {pbits, 0};
            memset(pbits, 0, psize);
            for (uint64_t j = 0; j < cc_len - b; j++)
                if (ob_code_bit(set[cc], j))
                    pbits[j / 8] |= (uint8_t)(0x80u >> (unsigned)(j % 8));
            P.nbits = cc_len - b;
            while ((ci = set_find(set, nset, P)) == nset) {
                /* X = codes with P as a proper prefix; d = min |x| - |P|. */
                uint64_t d = UINT64_MAX;
                for (size_t j = 0; j < nset; j++)
                    if (set[j].nbits > P.nbits && ob_code_is_prefix(P, set[j]) &&
                        set[j].nbits - P.nbits < d)
                        d = set[j].nbits - P.nbits;
                if (d == UINT64_MAX)
                    FAIL(RSV_ERR_UNKNOWN_SELECTOR); /* after the last bits taken */
                rsv_view tail;
                rsv_status e = ob_cur_take(&cur, d, &tail); /* TRUNCATED_SPAN, pos unchanged */
                if (e != RSV_OK)
                    FAIL(e);
                ob_copy_view_bits(pbits, P.nbits, tail, d); /* P + d <= maxc bits */
                P.nbits += d;
            }
        } else {
            ci = cc;
        }
        const int same = i > 0 && ci == cc;

        /* 3. Key §2.1 against K_{i-1} (same code) or the empty key:
         * bk = EG0; bk > 8|P| -> BACKSPACE_EXCEEDS_KEY; kept = 8|P| - bk;
         * S = EG0; literal = take(S); (kept + S) mod 8 != 0 -> KEY_ENDS_INSIDE_BYTE. */
        const uint8_t *pk = same ? prev : NULL;
        const size_t pk_len = same ? prev_len : 0;
        {
            rsv_status e = ob_cur_eg(&cur, 0, &bk);
            if (e != RSV_OK)
                FAIL(e);
        }
        if (bk > 8 * (uint64_t)pk_len)
            FAIL(RSV_ERR_BACKSPACE_EXCEEDS_KEY);
        uint64_t kept = 8 * (uint64_t)pk_len - bk;
        rsv_view literal;
        {
            rsv_status e = ob_read_key_suffix(&cur, kept, &S, &literal);
            if (e != RSV_OK)
                FAIL(e);
        }
        uint64_t key_len = (kept + S) / 8; /* kept <= 8|P|, S <= E: no overflow */
        if (key_len > SIZE_MAX)
            FAIL(RSV_ERR_TOO_LARGE);

        /* 4. Value §1.3. */
        rsv_oracle_value_state vstate;
        size_t vlen;
        {
            rsv_status e = ob_read_value(&cur, &res->records, &vstate, &vbytes, &vlen);
            if (e != RSV_OK)
                FAIL(e);
        }

        /* K = P bits [0, kept) || literal. */
        {
            rsv_status e = ob_rebuild_key(&res->records, pk, kept, literal, S, (size_t)key_len, &key);
            if (e != RSV_OK)
                FAIL(e);
        }

        /* 5. i > 0 and C || K_i <= Cc || K_{i-1} -> UNSORTED. */
        if (i > 0 &&
            ob_logical_cmp(set[ci], key, (size_t)key_len, set[cc], prev, prev_len) <= 0)
            FAIL(RSV_ERR_UNSORTED);
        if (code_index != NULL) {
            rsv_status e = ob_u64_push(code_index, res->records.count, ci);
            if (e != RSV_OK)
                FAIL(e);
        }
        {
            rsv_status e =
                ob_records_push_owned(&res->records, key, (size_t)key_len, vstate, vbytes, vlen);
            if (e != RSV_OK)
                FAIL(e);
        }
        prev = key;
        prev_len = (size_t)key_len;
        cc = ci;
        cc_len = set[ci].nbits;
    }
#undef FAIL
    res->status = RSV_OK;
    res->record = res->records.count;
    res->bitpos = cur.pos;
out:
    free(pbits);
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
    const rsv_oracle_code set = {c0, c0_bits}; /* v1: S = {C0} */
    return stream_decode(v, &set, 1, res, NULL);
}

rsv_status rsv_oracle_stream_decode_v2(rsv_view v, const rsv_oracle_code *set, size_t nset,
                                       rsv_oracle_stream_v2_result *res)
{
    if (res == NULL)
        return RSV_ERR_INVALID_ARGUMENT;
    memset(res, 0, sizeof *res);
    /* The set is checked before anything is read. */
    rsv_status st = rsv_oracle_code_set_check(set, nset);
    if (st != RSV_OK)
        return sfail(&res->base, st, 0, 0);
    return stream_decode(v, set, nset, &res->base, &res->code_index);
}

void rsv_oracle_stream_v2_result_free(rsv_oracle_stream_v2_result *res)
{
    if (res == NULL)
        return;
    rsv_oracle_records_free(&res->base.records);
    free(res->code_index);
    res->code_index = NULL;
}

void rsv_oracle_stream_result_free(rsv_oracle_stream_result *res)
{
    if (res == NULL)
        return;
    rsv_oracle_records_free(&res->records);
}
