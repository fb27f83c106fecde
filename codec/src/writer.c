/* The bit writer. Reservation happens before any byte changes, so every
 * rejection (width, value, order, modulus, size, allocation) is atomic. */
#include <stdlib.h>
#include <string.h>

#include "reservoir/reader.h"
#include "reservoir/writer.h"

#include "bits.h"
#include "bits_fast.h"

void rsv_writer_init(rsv_writer *w)
{
    w->buf = NULL;
    w->cap = 0;
    w->nbits = 0;
    w->limit = RSV_WRITER_MAX_BITS;
    w->owned = 1;
}

void rsv_writer_init_fixed(rsv_writer *w, void *buf, size_t cap)
{
    w->buf = (uint8_t *)buf;
    w->cap = buf ? cap : 0;
    w->nbits = 0;
    w->limit = (uint64_t)w->cap > (RSV_WRITER_MAX_BITS >> 3) ? RSV_WRITER_MAX_BITS
                                                            : (uint64_t)w->cap * 8;
    w->owned = 0;
}

void rsv_writer_set_limit(rsv_writer *w, uint64_t max_bits)
{
    uint64_t hard = w->owned ? RSV_WRITER_MAX_BITS
                   : ((uint64_t)w->cap > (RSV_WRITER_MAX_BITS >> 3) ? RSV_WRITER_MAX_BITS
                                                                    : (uint64_t)w->cap * 8);
    w->limit = max_bits < hard ? max_bits : hard;
}

void rsv_writer_free(rsv_writer *w)
{
    if (w->owned) {
        free(w->buf);
        w->buf = NULL;
        w->cap = 0;
    }
    w->nbits = 0;
}

void rsv_writer_reset(rsv_writer *w) { w->nbits = 0; }

rsv_status rsv_writer_reserve(rsv_writer *w, uint64_t extra)
{
    if (extra > w->limit || w->nbits > w->limit - extra) return RSV_ERR_TOO_LARGE;
    uint64_t need_bits = w->nbits + extra;
    uint64_t need64 = need_bits / 8 + (need_bits % 8 != 0);
    if (need64 > SIZE_MAX) return RSV_ERR_TOO_LARGE;
    size_t need = (size_t)need64;
    if (need <= w->cap) return RSV_OK;
    if (!w->owned) return RSV_ERR_TOO_LARGE; /* the fixed buffer is the limit */
    /* Grow to hold `need` plus RSV__WRITER_SLACK bytes, so the word-at-a-time
     * paths (bits_fast.h), which store 8 bytes at a time, usually fit. */
    size_t want = need <= SIZE_MAX - RSV__WRITER_SLACK ? need + RSV__WRITER_SLACK : need;
    size_t ncap = w->cap < 64 ? 64 : w->cap;
    while (ncap < want) ncap = ncap > SIZE_MAX / 2 ? want : ncap * 2;
    uint8_t *nb = (uint8_t *)realloc(w->buf, ncap);
    if (!nb) return RSV_ERR_NOMEM; /* old buffer untouched */
    w->buf = nb;
    w->cap = ncap;
    return RSV_OK;
}

rsv_status rsv_writer_finish(rsv_writer *w, uint8_t **out, size_t *nbytes)
{
    if (!out || !nbytes) return RSV_ERR_INVALID_ARGUMENT;
    *nbytes = rsv_writer_nbytes(w);
    *out = w->buf;
    if (w->owned) {
        if (!w->buf) { /* nothing written: hand out a valid, freeable pointer */
            *out = (uint8_t *)malloc(1);
            if (!*out) return RSV_ERR_NOMEM;
        }
        w->buf = NULL;
        w->cap = 0;
        w->nbits = 0;
    }
    return RSV_OK;
}

/* Append the low `width` bits of v (v < 2^width, width <= 64); space reserved. */
static void append(rsv_writer *w, uint64_t v, unsigned width)
{
    RSV_ASSERT(width <= 64 && (width == 64 || (v >> width) == 0));
    if (width && width <= 57 && rsv__writer_has_slack(w, width)) { /* one 8-byte store */
        w->nbits = rsv__put_bits(w->buf, w->nbits, v, width);
        return;
    }
    uint64_t idx = w->nbits >> 3;
    unsigned used = (unsigned)(w->nbits & 7);
    w->nbits += width;
    if (used) { /* finish the partial byte; its free low bits are zero */
        unsigned room = 8 - used;
        if (width <= room) {
            w->buf[idx] |= (uint8_t)(v << (room - width));
            return;
        }
        width -= room;
        w->buf[idx++] |= (uint8_t)(v >> width); /* width >= 1 here, < 64 */
        v &= (UINT64_C(1) << width) - 1;
    }
    while (width >= 8) {
        width -= 8;
        w->buf[idx++] = (uint8_t)(v >> width);
    }
    if (width) w->buf[idx] = (uint8_t)(v << (8 - width));
}

static void append_zeros(rsv_writer *w, uint64_t count)
{
    /* Bits already past nbits in the partial byte are zero; whole new bytes
     * must be cleared. */
    uint64_t first_new = (w->nbits + 7) / 8;
    uint64_t end = (w->nbits + count + 7) / 8;
    if (end > first_new) memset(w->buf + first_new, 0, (size_t)(end - first_new));
    w->nbits += count;
}

rsv_status rsv_put(rsv_writer *w, uint64_t v, unsigned width)
{
    if (width > 64) return RSV_ERR_WIDTH;
    if (width < 64 && (v >> width) != 0) return RSV_ERR_VALUE_TOO_WIDE;
    rsv_status st = rsv_writer_reserve(w, width);
    if (st) return st;
    append(w, v, width);
    return RSV_OK;
}

rsv_status rsv_put_zeros(rsv_writer *w, uint64_t count)
{
    rsv_status st = rsv_writer_reserve(w, count);
    if (st) return st;
    append_zeros(w, count);
    return RSV_OK;
}

rsv_status rsv_put_eg(rsv_writer *w, uint64_t v, unsigned k)
{
    if (k > 63) return RSV_ERR_BAD_ORDER;
    rsv_status st = rsv_writer_reserve(w, rsv_eg_length(v, k));
    if (st) return st;
    uint64_t q = v >> k;
    if (q == UINT64_MAX) { /* k = 0, v = MAX: c = 2^64 needs 65 bits */
        append_zeros(w, 64);
        append(w, 1, 1);
        append_zeros(w, 64);
        return RSV_OK;
    }
    uint64_t c = q + 1;
    unsigned n = 64 - rsv__clz64(c);
    append_zeros(w, n - 1);
    append(w, c, n);
    if (k) append(w, v & (UINT64_MAX >> (64 - k)), k);
    return RSV_OK;
}

rsv_status rsv_put_golomb(rsv_writer *w, uint64_t v, const rsv_golomb *g)
{
    if (!g || g->m == 0) return RSV_ERR_BAD_MODULUS;
    uint64_t len;
    rsv_status st = rsv_golomb_length(g, v, &len);
    if (st) return st;
    st = rsv_writer_reserve(w, len);
    if (st) return st;
    uint64_t q = v / g->m, r = v % g->m;
    append_zeros(w, q);
    append(w, 1, 1);
    if (g->w == 0) return RSV_OK; /* m = 1: unary */
    if (r < g->cutoff)
        append(w, r, g->w - 1);
    else
        append(w, r + g->cutoff, g->w); /* < 2^w, wraps correctly for w = 64 */
    return RSV_OK;
}

rsv_status rsv_put_golomb_m(rsv_writer *w, uint64_t v, uint64_t m)
{
    rsv_golomb g;
    if (rsv_golomb_init(&g, m) != RSV_OK) return RSV_ERR_BAD_MODULUS;
    return rsv_put_golomb(w, v, &g);
}

rsv_status rsv_put_view(rsv_writer *w, rsv_view v)
{
    rsv_status st = rsv_writer_reserve(w, v.len);
    if (st) return st;
    if (v.len && rsv__writer_has_slack(w, v.len)) { /* word at a time */
        w->nbits = rsv__copy_bits(w->buf, w->nbits, v.data, v.off, rsv__view_lo(v.off), rsv__view_hi(v.off, v.len),
                                  v.len);
        return RSV_OK;
    }
    /* Near the end of a fixed buffer: 64 bits per read, one byte per store. */
    rsv_reader r;
    rsv_reader_init(&r, v);
    while (!rsv_reader_empty(&r)) {
        uint64_t rem = rsv_reader_remaining(&r);
        unsigned t = rem < 64 ? (unsigned)rem : 64;
        uint64_t x = 0;
        rsv_read(&r, t, &x);
        append(w, x, t);
    }
    return RSV_OK;
}

rsv_status rsv_put_bytes(rsv_writer *w, const void *bytes, size_t n)
{
    if (n && !bytes) return RSV_ERR_INVALID_ARGUMENT;
    if (n == 0) return RSV_OK;
    if ((uint64_t)n > (UINT64_MAX >> 3)) return RSV_ERR_TOO_LARGE;
    rsv_status st = rsv_writer_reserve(w, (uint64_t)n * 8);
    if (st) return st;
    const uint8_t *p = (const uint8_t *)bytes;
    if ((w->nbits & 7) == 0) { /* aligned: a plain copy */
        memcpy(w->buf + (w->nbits >> 3), p, n);
        w->nbits += (uint64_t)n * 8;
        return RSV_OK;
    }
    if (rsv__writer_has_slack(w, (uint64_t)n * 8)) {
        w->nbits = rsv__copy_bits(w->buf, w->nbits, p, 0, 0, n, (uint64_t)n * 8);
        return RSV_OK;
    }
    for (size_t i = 0; i < n; i++) append(w, p[i], 8);
    return RSV_OK;
}
