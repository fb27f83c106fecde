/* Record-stream reader (KV03.md §10): one persistent reader over exactly E
 * bits; per record the selector backspace and code check, the §2.1 key
 * rebuilt in place (only the literal is compared against the previous key's
 * tail for the order check), and the value materialized. */
#include <stdlib.h>
#include <string.h>

#include "reservoir/stream.h"

#include "buffer.h"
#include "key_words.h"

rsv_status rsv_stream_reader_init(rsv_stream_reader *sr, rsv_view stream, const uint8_t *code,
                                  uint64_t code_bits)
{
    if (!sr) return RSV_ERR_INVALID_ARGUMENT;
    memset(sr, 0, sizeof *sr);
    rsv_reader_init(&sr->r, stream);
    if (!code) {
        sr->code = sr->default_code; /* `0` */
        sr->c = 1;
    } else {
        sr->code = code;
        sr->c = code_bits;
    }
    return RSV_OK;
}

rsv_status rsv_stream_reader_reset(rsv_stream_reader *sr, rsv_view stream, const uint8_t *code,
                                   uint64_t code_bits)
{
    if (!sr) return RSV_ERR_INVALID_ARGUMENT;
    uint8_t *key = sr->key, *val = sr->val;
    size_t key_cap = sr->key_cap, val_cap = sr->val_cap;
    rsv_status st = rsv_stream_reader_init(sr, stream, code, code_bits);
    sr->key = key, sr->key_cap = key_cap, sr->val = val, sr->val_cap = val_cap;
    return st;
}

void rsv_stream_reader_free(rsv_stream_reader *sr)
{
    if (!sr) return;
    free(sr->key);
    free(sr->val);
    sr->key = sr->val = NULL;
    sr->key_cap = sr->val_cap = 0;
}

static rsv_status fail(rsv_stream_reader *sr, rsv_status st)
{
    sr->diag.status = st;
    sr->diag.bit = rsv_reader_position(&sr->r);
    sr->diag.record = sr->i;
    return st;
}

/* Selector part: b = EG0; b > current code length → SORT_BACKSPACE; record 0
 * reads c bits, a later b > 0 reads b bits replacing C0's last b bits; the
 * result must be C0 (UNKNOWN_SELECTOR). */
static rsv_status selector(rsv_stream_reader *sr)
{
    uint64_t b;
    rsv_status st = rsv_read_eg0(&sr->r, &b);
    if (st) return st;
    uint64_t cur = sr->i == 0 ? 0 : sr->c;
    if (b > cur) return RSV_ERR_SORT_BACKSPACE;
    uint64_t nbits = sr->i == 0 ? sr->c : b;
    if (nbits == 0) return RSV_OK;
    rsv_view got;
    st = rsv_take(&sr->r, nbits, &got);
    if (st) return st;
    if (rsv_view_compare(got, rsv_view_make(sr->code, sr->c - nbits, nbits)) != 0)
        return RSV_ERR_UNKNOWN_SELECTOR;
    return RSV_OK;
}

static rsv_status record(rsv_stream_reader *sr, rsv_stream_record *out)
{
    rsv_status st = selector(sr);
    if (st) return st;
    uint64_t prev_bits = 8 * (uint64_t)sr->key_len, bk, S; /* §2.1 */
    st = rsv_read_eg0(&sr->r, &bk);
    if (st) return st;
    if (bk > prev_bits) return RSV_ERR_BACKSPACE_EXCEEDS_KEY;
    uint64_t kept = prev_bits - bk;
    st = rsv_read_eg0(&sr->r, &S);
    if (st) return st;
    rsv_view lit;
    uint64_t word = 0;
    int inline_lit = rsv__literal_peek(&sr->r, S, &word);
    st = rsv_take(&sr->r, S, &lit);
    if (st) return st;
    if ((kept + S) % 8 != 0) return RSV_ERR_KEY_ENDS_INSIDE_BYTE;
    rsv_value_span v;
    st = rsv_read_value(&sr->r, &v);
    if (st) return st;
    /* order (i > 0): the new key shares [0, kept) with the old one */
    if (sr->i > 0) {
        uint64_t tail = prev_bits - kept;
        int cmp = inline_lit && tail <= 64
                      ? rsv__compare_words(word, (unsigned)S, rsv__key_tail_word(sr->key, sr->key_len, kept),
                                           (unsigned)tail)
                      : rsv_view_compare(lit, rsv_view_make(sr->key, kept, tail));
        if (cmp <= 0) return RSV_ERR_UNSORTED;
    }
    uint64_t nbytes = (kept + S) / 8; /* kept <= prev_bits and S <= E: no wrap */
    st = rsv__grow_bytes(&sr->key, &sr->key_cap, nbytes ? nbytes : 1);
    if (st) return st;
    if (inline_lit)
        rsv__store_word(sr->key, kept + S, word, (unsigned)S);
    else
        rsv_bits_store(sr->key, kept, lit);
    sr->key_len = (size_t)nbytes;
    out->value.kind = v.kind;
    out->value.len = (size_t)v.len;
    st = rsv__value_bytes(&v, &sr->val, &sr->val_cap, &out->value.data);
    if (st) return st;
    out->value_span = v;
    out->index = sr->i;
    out->key = sr->key;
    out->key_len = sr->key_len;
    out->end = rsv_reader_position(&sr->r);
    return RSV_OK;
}

rsv_status rsv_stream_reader_next(rsv_stream_reader *sr, rsv_stream_record *out, int *more)
{
    if (!sr || !out || !more) return RSV_ERR_INVALID_ARGUMENT;
    *more = 0;
    if (sr->diag.status) return RSV_ERR_POISONED;
    if (rsv_reader_empty(&sr->r)) return RSV_OK;
    rsv_status st = record(sr, out);
    if (st) return fail(sr, st);
    sr->i++;
    *more = 1;
    return RSV_OK;
}
