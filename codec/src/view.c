/* Checked view construction and bit equality (CODES.md §1.1). */
#include "reservoir/reader.h"
#include "reservoir/view.h"

rsv_status rsv_view_from_bytes(const void *bytes, size_t nbytes, uint64_t off, uint64_t len,
                               rsv_view *out)
{
    if (!out || (!bytes && nbytes > 0)) return RSV_ERR_INVALID_ARGUMENT;
    /* 8 * nbytes saturates at 2^64 - 1: a view's end can never exceed that. */
    uint64_t cap = (uint64_t)nbytes > (UINT64_MAX >> 3) ? UINT64_MAX : (uint64_t)nbytes * 8;
    if (off > cap || len > cap - off) return RSV_ERR_VIEW_RANGE;
    *out = rsv_view_make(bytes, off, len);
    return RSV_OK;
}

int rsv_view_bit_equal(rsv_view a, rsv_view b)
{
    if (a.len != b.len) return 0;
    rsv_reader ra, rb;
    rsv_reader_init(&ra, a);
    rsv_reader_init(&rb, b);
    while (!rsv_reader_empty(&ra)) {
        uint64_t rem = rsv_reader_remaining(&ra);
        unsigned w = rem < 64 ? (unsigned)rem : 64;
        uint64_t x = 0, y = 0;
        rsv_read(&ra, w, &x);
        rsv_read(&rb, w, &y);
        if (x != y) return 0;
    }
    return 1;
}
