/* Optional byte-string values (KV03.md §1.3): `0` is a tombstone, `1` EG0(n)
 * and n bytes a present value, so present-empty (`11`) never collapses into
 * the tombstone. */
#include <string.h>

#include "reservoir/expgolomb.h"
#include "reservoir/record.h"

rsv_status rsv_value_width(rsv_value_kind kind, uint64_t len, uint64_t *width)
{
    if (kind == RSV_VALUE_TOMBSTONE) {
        *width = 1;
        return RSV_OK;
    }
    /* 1 + |EG0(len)| <= 130, so 8*len must leave that much headroom. */
    if (len > (UINT64_MAX - 130) / 8) return RSV_ERR_TOO_LARGE;
    *width = 1 + rsv_eg_length(len, 0) + 8 * len;
    return RSV_OK;
}

rsv_status rsv_put_value(rsv_writer *w, rsv_value v)
{
    if (v.kind != RSV_VALUE_TOMBSTONE && v.kind != RSV_VALUE_PRESENT) return RSV_ERR_INVALID_ARGUMENT;
    if (v.kind == RSV_VALUE_PRESENT && v.len && !v.data) return RSV_ERR_INVALID_ARGUMENT;
    uint64_t width;
    rsv_status st = rsv_value_width(v.kind, v.len, &width);
    if (st) return st;
    /* Reserve the whole value first so the three appends below cannot fail
     * half-way (the writer must stay unchanged on rejection). */
    st = rsv_writer_reserve(w, width);
    if (st) return st;
    if (v.kind == RSV_VALUE_TOMBSTONE) return rsv_put(w, 0, 1);
    rsv_put(w, 1, 1);
    rsv_put_eg(w, v.len, 0);
    return rsv_put_bytes(w, v.data, v.len);
}

rsv_status rsv_put_value_span(rsv_writer *w, const rsv_value_span *v)
{
    if (v->kind == RSV_VALUE_TOMBSTONE) return rsv_put(w, 0, 1);
    if (v->kind != RSV_VALUE_PRESENT) return RSV_ERR_INVALID_ARGUMENT;
    if (v->len > UINT64_MAX / 8 || v->bytes.len != 8 * v->len) return RSV_ERR_INVALID_ARGUMENT;
    uint64_t width;
    rsv_status st = rsv_value_width(v->kind, v->len, &width);
    if (st) return st;
    st = rsv_writer_reserve(w, width);
    if (st) return st;
    rsv_put(w, 1, 1);
    rsv_put_eg(w, v->len, 0);
    return rsv_put_view(w, v->bytes);
}

rsv_status rsv_read_value(rsv_reader *r, rsv_value_span *out)
{
    uint64_t start = rsv_reader_position(r);
    unsigned bit;
    rsv_status st = rsv_read_bit(r, &bit);
    if (st) return st; /* RSV_ERR_TRUNCATED_FIELD at the end */
    if (!bit) {
        out->kind = RSV_VALUE_TOMBSTONE;
        out->len = 0;
        out->bytes = rsv_view_make(NULL, 0, 0);
        out->width = 1;
        return RSV_OK;
    }
    uint64_t n;
    st = rsv_read_eg0(r, &n);
    if (st) return st;
    if (n > rsv_reader_remaining(r) / 8) return RSV_ERR_TRUNCATED_VALUE;
    st = rsv_take(r, 8 * n, &out->bytes); /* cannot fail: checked above */
    if (st) return st;
    out->kind = RSV_VALUE_PRESENT;
    out->len = n;
    out->width = rsv_reader_position(r) - start;
    return RSV_OK;
}

void rsv_value_span_copy(const rsv_value_span *v, uint8_t *dst)
{
    if (v->kind == RSV_VALUE_PRESENT && v->len) rsv_bits_store(dst, 0, v->bytes);
}

int rsv_value_span_borrow(const rsv_value_span *v, const uint8_t **p)
{
    if (v->kind != RSV_VALUE_PRESENT) return 0;
    if (v->len == 0) {
        *p = NULL;
        return 1;
    }
    if (v->bytes.off & 7) return 0;
    *p = v->bytes.data + (v->bytes.off >> 3);
    return 1;
}
