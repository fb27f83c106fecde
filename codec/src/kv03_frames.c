/* The KV03 frame walker (KV03.md §3.3 steps 1–5, WORKLOADS.md §5 "frames"):
 * one persistent reader over the data stream visits each record's control,
 * key header, literal span and value span; block starts are checked against
 * the Elias–Fano index. No key is rebuilt. */
#include <string.h>

#include "reservoir/kv03.h"

#include "kv03_dict.h"
#include "kv03_frame_parse.h"

/* Before take(S): if the S literal bits can be cached (S <= 57 or already
 * cached), return them as an integer in *word. A refill loads only bytes
 * holding bits >= p (CODES.md A4). Returns 0 when the literal is long.
 * (For the merge's private short-literal option, rsv__kv03_frames_literal_words.) */
static inline int rsv__literal_peek(rsv_reader *r, uint64_t S, uint64_t *word)
{
    if (S <= 57 && S > r->n && S <= rsv_reader_remaining(r)) rsv__refill(r);
    if (S > r->n) return 0;
    *word = rsv__top(r->cache, (unsigned)S);
    return 1;
}

rsv_status rsv_kv03_frames_init(rsv_kv03_frames *fw, const rsv_kv03_file *f)
{
    if (!fw || !f) return RSV_ERR_INVALID_ARGUMENT;
    memset(fw, 0, sizeof *fw);
    fw->f = f;
    rsv_reader_init(&fw->r, f->data);
    if (f->policy.code == RSV_BACKSPACE_GOLOMB) rsv_golomb_init(&fw->golomb, f->policy.param);
    fw->cont_prev = f->dict_bits; /* cont_{-1} = c */
    fw->code_bits = f->dict_bits;
    if (f->m >= 2) { /* §6.3: the dictionary is read before record 0 */
        rsv_status st = rsv_kv03_dictionary_check(f);
        if (st) { /* poisoned at record 0, bit 0: nothing of the stream read */
            fw->diag.status = st;
            return st;
        }
    }
    return RSV_OK;
}

rsv_status rsv__kv03_parse_generic(rsv_kv03_frames *fw, rsv_kv03_frame *out)
{
    const rsv_kv03_file *f = fw->f;
    rsv_reader *r = &fw->r;
    uint64_t i = fw->i, W = f->policy.W;
    uint64_t c = fw->code_bits, code = fw->code; /* the record's code C, |C| */
    uint64_t start = rsv_reader_position(r);
    int block_start = i == fw->next_block; /* i mod W == 0 on a sequential walk */
    rsv_status st;
    uint64_t R, local;
    if (block_start) {
        if (i > 0) { /* step 1 */
            uint64_t bo;
            st = rsv_kv03_block_offset(f, i / W, &bo);
            if (st) return st;
            if (bo != start) return RSV_ERR_BLOCK_OFFSET;
        }
        if (f->m >= 2) { /* step 2, block start: C = D[seed_b], nothing read on failure */
            st = rsv__kv03_block_code(f, i / W, &code);
            if (st) return st;
            c = rsv__kv03_code_len(f, code);
        }
        st = rsv_read_eg0(r, &R); /* always EG0 */
        if (st) return st;
        if (R < c) return RSV_ERR_RETAINED_PRECEDES_CODE;
        if (R > c && i > 0 && code != fw->code) return RSV_ERR_PREFIX_CROSSES_CODE;
        local = R - c;
    } else {
        uint64_t b;
        if (f->policy.code == RSV_BACKSPACE_EG)
            st = f->policy.param == 0 ? rsv_read_eg0(r, &b) : rsv_read_eg(r, (unsigned)f->policy.param, &b);
        else
            st = rsv_read_golomb(r, &fw->golomb, &b);
        if (st) return st;
        if (b > fw->cont_prev) return RSV_ERR_BACKSPACE_EXCEEDS_KEY;
        R = fw->cont_prev - b;
        if (R < c) { /* a transition (m <= 1: Cp is the only code) */
            if (f->m < 2) return RSV_ERR_SORT_TRANSITION;
            st = rsv__kv03_transition(f, r, fw->code, R, &code);
            if (st) return st;
            c = rsv__kv03_code_len(f, code);
            local = 0;
        } else {
            local = R - c;
        }
    }
    uint64_t S; /* step 3 */
    st = rsv_read_eg0(r, &S);
    if (st) return st;
    out->rsv__literal_inline = fw->rsv__literal_words && rsv__literal_peek(r, S, &out->rsv__literal_word);
    st = rsv_take(r, S, &out->literal);
    if (st) return st;
    if ((local + S) % 8 != 0) return RSV_ERR_KEY_ENDS_INSIDE_BYTE; /* mod 2^64 keeps mod 8 */
    st = rsv_read_value(r, &out->value); /* step 4 */
    if (st) return st;
    if (f->cw_present && out->value.width != f->cw) return RSV_ERR_VALUE_WIDTH;
    fw->cont_prev = c + local + S; /* step 5 (u64, wraps only for corrupt input) */
    fw->code = code;
    fw->code_bits = c;
    if (block_start) fw->next_block = i + W < i ? UINT64_MAX : i + W; /* no block start past 2^64 - 1 */
    out->index = i;
    out->start = start;
    out->end = rsv_reader_position(r);
    out->block_start = block_start;
    out->retained = R;
    out->local = local;
    out->key_bits = local + S;
    out->code = code;
    fw->i = i + 1;
    return RSV_OK;
}

rsv_status rsv__kv03_parse_frame(rsv_kv03_frames *fw, rsv_kv03_frame *out)
{
    if (RSV_LIKELY(rsv__kv03_parse_fast(fw, out))) return RSV_OK;
    return rsv__kv03_parse_generic(fw, out);
}

rsv_status rsv__kv03_terminal(const rsv_kv03_frames *fw)
{
    if (rsv_reader_position(&fw->r) != fw->f->extent || fw->cont_prev != fw->f->terminal)
        return RSV_ERR_TERMINAL_MISMATCH;
    return RSV_OK;
}

rsv_status rsv__kv03_frames_poison(rsv_kv03_frames *fw, rsv_status st)
{
    fw->diag.status = st;
    fw->diag.bit = rsv_reader_position(&fw->r);
    fw->diag.record = fw->i;
    return st;
}

rsv_status rsv_kv03_frames_next(rsv_kv03_frames *fw, rsv_kv03_frame *out, int *more)
{
    if (!fw || !out || !more) return RSV_ERR_INVALID_ARGUMENT;
    *more = 0;
    if (fw->diag.status) return RSV_ERR_POISONED;
    if (fw->i >= fw->f->N) return RSV_OK;
    rsv_status st;
    if (RSV_UNLIKELY(!rsv__kv03_parse_fast(fw, out))) { /* inline here: one call per record */
        st = rsv__kv03_parse_generic(fw, out);
        if (st) return rsv__kv03_frames_poison(fw, st);
    }
    if (RSV_UNLIKELY(fw->i == fw->f->N)) {
        st = rsv__kv03_terminal(fw);
        if (st) {
            fw->i--; /* report the last record's index */
            st = rsv__kv03_frames_poison(fw, st);
            fw->i++;
            return st;
        }
    }
    *more = 1;
    return RSV_OK;
}
