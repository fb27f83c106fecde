/* reservoir oracle — the KV03 record walk (KV03.md §3.3): frames, seeds,
 * transitions, key rebuild, order and the terminal check, for any dictionary
 * (m <= 1 is the v1 walk: the only code is C0). One `if` per check, in the
 * spec's order; every data-stream and seed bit goes through the phase-1
 * decoders (cursor.c). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

rsv_oracle_ef_view ob_ef_view_of(const uint8_t *file, const rsv_oracle_kv03_result *res)
{
    const uint8_t *body = file + OB_HDR;
    rsv_oracle_ef_view ef;
    ef.n = ob_ceil_div(res->n_records, res->policy.W) + 1;
    ef.U = res->ef_universe;
    ef.L = res->ef_low_width;
    ef.low = body + ob_sec_off(body, 1);
    ef.low_len = ob_sec_len(body, 1);
    ef.high = body + ob_sec_off(body, 2);
    ef.high_len = ob_sec_len(body, 2);
    ef.samples = body + ob_sec_off(body, 3);
    ef.samples_len = ob_sec_len(body, 3);
    ef.sparse = body + ob_sec_off(body, 4);
    ef.sparse_len = ob_sec_len(body, 4);
    return ef;
}

void ob_walk_out_free(ob_walk_out *wo)
{
    free(wo->block_offsets);
    free(wo->code_index);
    free(wo->used);
    memset(wo, 0, sizeof *wo);
}

static rsv_status walk_fail(rsv_oracle_kv03_result *res, rsv_status st, uint64_t i, uint64_t pos)
{
    return ob_fail_at(res, st, RSV_ORACLE_PHASE_SCAN, 3, i, pos);
}

/* The transition prefix P: its bits and length. Its length never reaches the
 * longest dictionary code (P stays a proper prefix of some code). */
typedef struct prefix {
    uint8_t *bits;
    uint64_t len;
    size_t size; /* bytes of bits: longest code / 8 + 1 */
} prefix;

/* 1 iff code x has P as a prefix. */
static int has_prefix(rsv_oracle_code x, const prefix *P)
{
    rsv_oracle_code p = {P->bits, P->len};
    return ob_code_is_prefix(p, x);
}

static void prefix_append(prefix *P, unsigned bit)
{
    if (bit)
        P->bits[P->len / 8] |= (uint8_t)(0x80u >> (unsigned)(P->len % 8));
    P->len++;
}

/* §3.3 step 2 for a transition (R < |Cp|): completes P = Cp bits [0, R) from
 * the tail bits. *ci = the new code's index on success. */
static rsv_status transition(ob_cursor *cur, const rsv_oracle_dict *dict, uint64_t cp, uint64_t R,
                             prefix *P, uint64_t *ci)
{
    const uint64_t m = dict->m;
    memset(P->bits, 0, P->size);
    P->len = 0;
    for (uint64_t j = 0; j < R; j++)
        prefix_append(P, ob_code_bit(dict->codes[cp], j));

    /* No dictionary code other than Cp has P as a prefix -> SORT_TRANSITION
     * (after the control). */
    int other = 0;
    for (uint64_t j = 0; j < m; j++)
        if (j != cp && has_prefix(dict->codes[j], P))
            other = 1;
    if (!other)
        return RSV_ERR_SORT_TRANSITION;

    for (;;) {
        uint64_t bit;
        rsv_status st = ob_cur_read(cur, 1, &bit); /* TRUNCATED_FIELD at the extent */
        if (st != RSV_OK)
            return st;
        prefix_append(P, (unsigned)bit);
        /* P is a dictionary code: P = Cp -> SORT_TRANSITION, else done. */
        for (uint64_t j = 0; j < m; j++) {
            if (dict->codes[j].nbits == P->len && has_prefix(dict->codes[j], P)) {
                if (j == cp)
                    return RSV_ERR_SORT_TRANSITION;
                *ci = j;
                return RSV_OK;
            }
        }
        /* No dictionary code has P as a prefix -> UNKNOWN_SELECTOR. */
        int any = 0;
        for (uint64_t j = 0; j < m; j++)
            if (has_prefix(dict->codes[j], P))
                any = 1;
        if (!any)
            return RSV_ERR_UNKNOWN_SELECTOR;
    }
}

rsv_status ob_kv03_walk(const uint8_t *file, const rsv_oracle_dict *dict,
                        rsv_oracle_kv03_result *res, ob_walk_out *wo)
{
    const uint8_t *body = file + OB_HDR;
    const uint64_t N = res->n_records, W = res->policy.W;
    const uint64_t cw = res->cw; /* absent cw is stored (and counts) as 0 */
    const uint64_t m = dict->m;  /* >= 1: open check 28 gives m > 0 when N > 0 */
    const unsigned w = m >= 2 ? ob_bitlen(m - 1) : 0; /* seed width, §6.2 */
    rsv_oracle_ef_view ef = ob_ef_view_of(file, res);
    ob_cursor cur;
    cur.v = rsv_view_make(body + ob_sec_off(body, 0), 0, res->data_extent);
    cur.pos = 0;
    const rsv_view seeds = rsv_view_make(body + ob_sec_off(body, 7), 0, res->seed_bits);

    memset(wo, 0, sizeof *wo);
    wo->widths_equal = 1;
    uint64_t nb = ob_ceil_div(N, W);
    uint64_t maxc = 0; /* longest code: bounds the transition prefix */
    for (uint64_t j = 0; j < m; j++)
        if (dict->codes[j].nbits > maxc)
            maxc = dict->codes[j].nbits;
    if (nb > SIZE_MAX / sizeof(uint64_t) || m > SIZE_MAX || maxc / 8 + 1 > SIZE_MAX)
        return walk_fail(res, RSV_ERR_NOMEM, 0, 0);
    wo->block_offsets = malloc((size_t)(nb ? nb : 1) * sizeof(uint64_t));
    wo->used = calloc((size_t)m, 1);
    prefix P = {calloc((size_t)(maxc / 8 + 1), 1), 0, (size_t)(maxc / 8 + 1)};
    if (wo->block_offsets == NULL || wo->used == NULL || P.bits == NULL) {
        free(P.bits);
        return walk_fail(res, RSV_ERR_NOMEM, 0, 0);
    }

    uint64_t cont_prev = 0;          /* cont_{i-1} */
    uint64_t cp = 0;                 /* index of Cp (meaningless for i = 0) */
    const uint8_t *prev_key = NULL;  /* K_{i-1} (owned by res->records) */
    size_t prev_key_len = 0;
    rsv_status st = RSV_OK;

#define FAIL(code)                                                                                 \
    do {                                                                                           \
        st = walk_fail(res, (code), i, cur.pos);                                                   \
        goto out;                                                                                  \
    } while (0)

    for (uint64_t i = 0; i < N; i++) {
        const int block_start = (i % W) == 0;
        uint64_t R, S, b, ci, local;
        uint8_t *key = NULL, *vbytes = NULL; /* owned by res->records */

        /* 1. Block start with i > 0: block_offset(i/W) MUST equal the position. */
        if (block_start && i > 0) {
            uint64_t sel;
            rsv_status e = rsv_oracle_ef_select(&ef, i / W, &sel);
            if (e != RSV_OK)
                FAIL(e);
            /* block_offset(b) = select(b) + ord_b * cw, ord_b = b*W = i;
             * i*cw <= N*cw <= extent and select <= U: no overflow. */
            if (sel + i * cw != cur.pos)
                FAIL(RSV_ERR_BLOCK_OFFSET);
        }
        if (block_start)
            wo->block_offsets[wo->nblocks++] = cur.pos;

        /* 2. Control and code. */
        if (block_start) {
            uint64_t s = 0; /* seed_b, a w-bit field at bit b*w of section 7 */
            if (m >= 2) {
                rsv_oracle_result r = rsv_oracle_read(seeds, (i / W) * w, w);
                if (r.status != RSV_OK) /* unreachable: seed bits = nb*w (open 28) */
                    FAIL(r.status);
                s = r.value;
            }
            if (s >= m)
                FAIL(RSV_ERR_SEED_RANGE); /* at the record's start */
            ci = s;
            const uint64_t c = dict->codes[ci].nbits;
            rsv_status e = ob_cur_eg(&cur, 0, &R); /* always EG0 at a block start */
            if (e != RSV_OK)
                FAIL(e);
            if (R < c)
                FAIL(RSV_ERR_RETAINED_PRECEDES_CODE);
            if (R > c && i > 0 && ci != cp)
                FAIL(RSV_ERR_PREFIX_CROSSES_CODE);
            local = R - c;
        } else {
            rsv_status e;
            if (res->policy.bs_kind == RSV_ORACLE_BACKSPACE_EG)
                e = ob_cur_eg(&cur, res->policy.bs_param, &b);
            else
                e = ob_cur_golomb(&cur, res->policy.bs_param, &b);
            if (e != RSV_OK)
                FAIL(e);
            if (b > cont_prev)
                FAIL(RSV_ERR_BACKSPACE_EXCEEDS_KEY);
            R = cont_prev - b;
            if (R >= dict->codes[cp].nbits) {
                ci = cp;
                local = R - dict->codes[cp].nbits;
            } else {
                e = transition(&cur, dict, cp, R, &P, &ci);
                if (e != RSV_OK)
                    FAIL(e);
                local = 0;
            }
        }
        const int continues = i > 0 && ci == cp;
        const uint64_t c = dict->codes[ci].nbits;

        /* 3. S = EG0; literal = take(S); (local + S) mod 8 != 0. */
        rsv_view literal;
        {
            rsv_status e = ob_read_key_suffix(&cur, local, &S, &literal);
            if (e != RSV_OK)
                FAIL(e);
        }

        /* 4. Value (§1.3); with cw present, width != cw -> VALUE_WIDTH. */
        uint64_t vstart = cur.pos;
        rsv_oracle_value_state vstate;
        size_t vlen;
        {
            rsv_status e = ob_read_value(&cur, &res->records, &vstate, &vbytes, &vlen);
            if (e != RSV_OK)
                FAIL(e);
        }
        uint64_t width = cur.pos - vstart;
        if (res->cw_present && width != cw)
            FAIL(RSV_ERR_VALUE_WIDTH);
        if (i == 0)
            wo->width0 = width;
        else if (width != wo->width0)
            wo->widths_equal = 0;

        /* 5. cont_prev = |C| + local + S (kept aside: step 6 needs the old one). */
        const uint64_t cont_new = c + local + S;

        /* 6. R > the previous logical key length -> MISSING_PREFIX: cont_{i-1}
         * when the record continues its code, else c_i. */
        if (R > (continues ? cont_prev : c))
            FAIL(RSV_ERR_MISSING_PREFIX);
        /* K_i = K_{i-1} bits [0, local) || literal (local = 0 after a code
         * change). Now local <= 8|K_{i-1}| and S <= extent: no wrap. */
        uint64_t key_bits = local + S;
        uint64_t key_len = key_bits / 8;
        if (key_len > SIZE_MAX)
            FAIL(RSV_ERR_TOO_LARGE);
        {
            rsv_status e = ob_rebuild_key(&res->records, prev_key, local, literal, S, (size_t)key_len, &key);
            if (e != RSV_OK)
                FAIL(e);
        }

        /* 7. i > 0 and C_i || K_i <= C_{i-1} || K_{i-1} -> UNSORTED. */
        if (i > 0 && ob_logical_cmp(dict->codes[ci], key, (size_t)key_len, dict->codes[cp],
                                    prev_key, prev_key_len) <= 0)
            FAIL(RSV_ERR_UNSORTED);

        {
            rsv_status e = ob_u64_push(&wo->code_index, res->records.count, ci);
            if (e != RSV_OK)
                FAIL(e);
            e = ob_records_push_owned(&res->records, key, (size_t)key_len, vstate, vbytes, vlen);
            if (e != RSV_OK)
                FAIL(e);
        }
        wo->used[ci] = 1;
        prev_key = res->records.items[res->records.count - 1].key;
        prev_key_len = (size_t)key_len;
        cont_prev = cont_new;
        cp = ci;
    }
#undef FAIL

    /* Terminal: position MUST equal the data extent and cont_prev MUST equal
     * the terminal key length. */
    if (cur.pos != res->data_extent || cont_prev != res->terminal)
        st = walk_fail(res, RSV_ERR_TERMINAL_MISMATCH, N, cur.pos);
out:
    free(P.bits);
    return st;
}
