/* Record-stream writer (KV03.md §10): `1` ‖ C0 for record 0, `1` afterwards
 * (writers never change the code), then the §2.1 key and the §1.3 value. */
#include <stdlib.h>
#include <string.h>

#include "reservoir/stream.h"

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
}

static rsv_status fail(rsv_stream_writer *sw, rsv_status st)
{
    sw->diag.status = st;
    sw->diag.bit = rsv_stream_writer_extent(sw);
    sw->diag.record = sw->N;
    return st;
}

rsv_status rsv_stream_writer_add(rsv_stream_writer *sw, const void *key, size_t key_len,
                                 rsv_value v)
{
    if (!sw) return RSV_ERR_INVALID_ARGUMENT;
    if (sw->diag.status) return RSV_ERR_POISONED;
    const uint8_t *k = (const uint8_t *)key;
    if (key_len && !k) return fail(sw, RSV_ERR_INVALID_ARGUMENT);
    if (sw->N > 0 && rsv_key_compare(sw->prev, sw->prev_len, k, key_len) >= 0)
        return fail(sw, RSV_ERR_UNSORTED);
    rsv_status st = rsv_put(sw->out, 1, 1); /* selector backspace EG0(0) */
    if (!st && sw->N == 0) st = rsv_put_view(sw->out, rsv_view_make(sw->code, 0, sw->c));
    if (!st) st = rsv_put_key_fc(sw->out, sw->prev, sw->prev_len, k, key_len);
    if (!st) st = rsv_put_value(sw->out, v);
    if (st) return fail(sw, st);
    if (key_len > sw->prev_cap) {
        size_t cap = sw->prev_cap < 64 ? 64 : sw->prev_cap;
        while (cap < key_len) cap = cap > SIZE_MAX / 2 ? key_len : cap * 2;
        uint8_t *p = realloc(sw->prev, cap);
        if (!p) return fail(sw, RSV_ERR_NOMEM);
        sw->prev = p;
        sw->prev_cap = cap;
    }
    if (key_len) memcpy(sw->prev, k, key_len);
    sw->prev_len = key_len;
    sw->N++;
    return RSV_OK;
}
