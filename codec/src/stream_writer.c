/* Record-stream writer (KV03.md §10): per record the selector backspace and
 * code bits, the §2.1 key and the §1.3 value. Record 0 writes `1` ‖ C_0; a
 * record with the previous record's code writes `1`; a code change writes
 * EG0(c_{i-1} - lcp) ‖ C_i[lcp, c_i) and front-codes its key against the
 * empty key. The codes used so far (code_list.h) serve the §11.1
 * SELECTOR_PREFIX check. */
#include <stdlib.h>
#include <string.h>

#include "reservoir/stream.h"

#include "code_list.h"

rsv_status rsv_stream_writer_init(rsv_stream_writer *sw, rsv_writer *out, const uint8_t *code,
                                  uint64_t code_bits)
{
    if (!sw) return RSV_ERR_INVALID_ARGUMENT;
    memset(sw, 0, sizeof *sw);
    sw->diag.status = RSV_ERR_INVALID_ARGUMENT; /* poisoned until init succeeds */
    if (!out) return RSV_ERR_INVALID_ARGUMENT;
    sw->out = out;
    sw->start = rsv_writer_bits(out);
    if (!code) {
        sw->c = 1;
    } else {
        if (code_bits > RSV_KV03_MAX_CODE_BITS) return sw->diag.status = RSV_ERR_TOO_LARGE;
        sw->c = code_bits;
        rsv_bits_store(sw->code, 0, rsv_view_make(code, 0, code_bits));
    }
    sw->diag.status = RSV_OK;
    return RSV_OK;
}

void rsv_stream_writer_free(rsv_stream_writer *sw)
{
    if (!sw) return;
    free(sw->prev);
    sw->prev = NULL;
    sw->prev_len = sw->prev_cap = 0;
    if (sw->codes) rsv__codes_free(sw->codes);
    free(sw->codes);
    sw->codes = NULL;
}

static rsv_status fail(rsv_stream_writer *sw, rsv_status st)
{
    sw->diag.status = st;
    sw->diag.bit = rsv_stream_writer_extent(sw);
    sw->diag.record = sw->N;
    return st;
}

static rsv_status add(rsv_stream_writer *sw, rsv_view x, const uint8_t *k, size_t key_len, rsv_value v)
{
    if (sw->diag.status) return RSV_ERR_POISONED;
    if (key_len && !k) return fail(sw, RSV_ERR_INVALID_ARGUMENT);
    if (x.len && !x.data) return fail(sw, RSV_ERR_INVALID_ARGUMENT);
    /* §11.1: TOO_LARGE, SELECTOR_PREFIX, UNSORTED */
    if (x.len > RSV_KV03_MAX_CODE_BITS) return fail(sw, RSV_ERR_TOO_LARGE);
    rsv_view cur = rsv_view_make(sw->cur, 0, sw->cur_bits);
    int same = sw->N > 0 && rsv_view_bit_equal(x, cur);
    uint64_t lcp = 0;
    if (!same) {
        if (!sw->codes && !(sw->codes = calloc(1, sizeof *sw->codes))) return fail(sw, RSV_ERR_NOMEM);
        uint64_t found;
        rsv_status st = rsv__codes_check(sw->codes, x, &found);
        if (st) return fail(sw, st);
        if (sw->N > 0 && rsv_view_lcp(x, cur, &lcp) < 0) return fail(sw, RSV_ERR_UNSORTED);
    } else if (rsv_key_compare(sw->prev, sw->prev_len, k, key_len) >= 0) {
        return fail(sw, RSV_ERR_UNSORTED);
    }
    if (key_len > sw->prev_cap) {
        size_t cap = sw->prev_cap < 64 ? 64 : sw->prev_cap;
        while (cap < key_len) cap = cap > SIZE_MAX / 2 ? key_len : cap * 2;
        uint8_t *p = realloc(sw->prev, cap);
        if (!p) return fail(sw, RSV_ERR_NOMEM);
        sw->prev = p;
        sw->prev_cap = cap;
    }
    rsv_status st;
    if (same) {
        st = rsv_put(sw->out, 1, 1); /* selector backspace EG0(0) */
        if (!st) st = rsv_put_key_fc(sw->out, sw->prev, sw->prev_len, k, key_len);
    } else {
        if ((st = rsv__codes_append(sw->codes, x, sw->N))) return fail(sw, st);
        /* record 0: b = 0 and all of C_0 (lcp = 0, |Cc| = 0) */
        st = rsv_put_eg(sw->out, sw->N ? sw->cur_bits - lcp : 0, 0);
        if (!st) st = rsv_put_view(sw->out, rsv_view_make(x.data, x.off + lcp, x.len - lcp));
        if (!st) st = rsv_put_key_fc(sw->out, NULL, 0, k, key_len);
    }
    if (!st) st = rsv_put_value(sw->out, v);
    if (st) return fail(sw, st);
    if (!same) {
        memset(sw->cur, 0, sizeof sw->cur);
        rsv_bits_store(sw->cur, 0, x);
        sw->cur_bits = x.len;
    }
    if (key_len) memcpy(sw->prev, k, key_len);
    sw->prev_len = key_len;
    sw->N++;
    return RSV_OK;
}

rsv_status rsv_stream_writer_add(rsv_stream_writer *sw, const void *key, size_t key_len,
                                 rsv_value v)
{
    if (!sw) return RSV_ERR_INVALID_ARGUMENT;
    return add(sw, rsv_view_make(sw->code, 0, sw->c), (const uint8_t *)key, key_len, v);
}

rsv_status rsv_stream_writer_add_coded(rsv_stream_writer *sw, const uint8_t *code, uint64_t code_bits,
                                       const void *key, size_t key_len, rsv_value v)
{
    if (!sw) return RSV_ERR_INVALID_ARGUMENT;
    rsv_view x = code ? rsv_view_make(code, 0, code_bits) : rsv_view_make(sw->code, 0, sw->c);
    return add(sw, x, (const uint8_t *)key, key_len, v);
}
