/* Peer group "fixed13" and "eg0": GStreamer's GstBitReader (MSB-first, like
 * the codec) over the same buffers as the codec's reader.
 *   fixed13: a bit writer writes `101`, then V fields of 13 bits (mix(i) & 8191);
 *            both sides skip the 3-bit lead-in and read V fields; checksum Σ + end.
 *   eg0:     the counts/eg0-small buffer (EG0 of mix(i) & 127 after `101`); the
 *            GStreamer decoder is the usual one built on peek/skip: peek up to 32
 *            bits, count leading zeros z, skip z, read z + 1 bits, minus 1. */
#include <stdlib.h>

#include "../mix.h"
#include "peer_groups.h"

#include "reservoir/reservoir.h"

#ifdef RSV_PEER_GST
#include <gst/base/gstbitreader.h>
#endif

typedef struct bits_state {
    rsv_writer w;
    uint64_t n, width; /* width 0: EG0 */
    uint64_t expect;   /* checksum: Σ values + bits consumed after the lead-in */
} bits_state;

static uint64_t rsv_fixed(void *state)
{
    const bits_state *s = state;
    rsv_reader r;
    rsv_reader_init(&r, rsv_view_make(rsv_writer_data(&s->w), 3, rsv_writer_bits(&s->w) - 3));
    uint64_t sum = 0, x;
    for (uint64_t i = 0; i < s->n; i++) {
        if (rsv_read(&r, 13, &x) != RSV_OK) rsv_bench_fail("rsv_read");
        sum += x;
    }
    return sum + rsv_reader_position(&r);
}

static uint64_t rsv_eg0(void *state)
{
    const bits_state *s = state;
    rsv_reader r;
    rsv_reader_init(&r, rsv_view_make(rsv_writer_data(&s->w), 3, rsv_writer_bits(&s->w) - 3));
    uint64_t sum = 0, x;
    for (uint64_t i = 0; i < s->n; i++) {
        if (rsv_read_eg0(&r, &x) != RSV_OK) rsv_bench_fail("rsv_read_eg0");
        sum += x;
    }
    return sum + rsv_reader_position(&r);
}

#ifdef RSV_PEER_GST
static void gst_begin(const bits_state *s, GstBitReader *br)
{
    gst_bit_reader_init(br, rsv_writer_data(&s->w), (guint)rsv_writer_nbytes(&s->w));
    if (!gst_bit_reader_skip(br, 3)) rsv_bench_fail("gst skip");
}

static uint64_t gst_fixed(void *state)
{
    const bits_state *s = state;
    GstBitReader br;
    gst_begin(s, &br);
    uint64_t sum = 0;
    for (uint64_t i = 0; i < s->n; i++) {
        guint16 x;
        if (!gst_bit_reader_get_bits_uint16(&br, &x, 13)) rsv_bench_fail("gst get_bits");
        sum += x;
    }
    return sum + gst_bit_reader_get_pos(&br) - 3;
}

static uint64_t gst_eg0(void *state)
{
    const bits_state *s = state;
    GstBitReader br;
    gst_begin(s, &br);
    uint64_t sum = 0;
    for (uint64_t i = 0; i < s->n; i++) {
        guint rem = gst_bit_reader_get_remaining(&br), w = rem < 32 ? rem : 32;
        guint32 x, y;
        if (w == 0 || !gst_bit_reader_peek_bits_uint32(&br, &x, w)) rsv_bench_fail("gst peek");
        x <<= 32 - w;
        if (x == 0) rsv_bench_fail("gst eg0: code longer than 32 bits");
        unsigned z = (unsigned)__builtin_clz(x);
        if (!gst_bit_reader_skip(&br, z) || !gst_bit_reader_get_bits_uint32(&br, &y, z + 1))
            rsv_bench_fail("gst eg0 read");
        sum += y - 1;
    }
    return sum + gst_bit_reader_get_pos(&br) - 3;
}
#endif

static void build(bits_state *s, uint64_t n, unsigned width)
{
    s->n = n;
    s->width = width;
    rsv_writer_init(&s->w);
    if (rsv_put(&s->w, 5, 3) != RSV_OK) rsv_bench_fail("writer");
    uint64_t sum = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t v = rsv_bench_mix(i) & (width ? 8191 : 127);
        sum += v;
        if ((width ? rsv_put(&s->w, v, width) : rsv_put_eg(&s->w, v, 0)) != RSV_OK) rsv_bench_fail("writer");
    }
    s->expect = sum + rsv_writer_bits(&s->w) - 3;
}

void peer_group_bits(const rsv_bench_params *p)
{
    bits_state f, e;
    build(&f, p->values, 13);
    build(&e, p->values, 0);
#ifdef RSV_PEER_GST
    peer_run("peers/fixed13/gst", f.n, rsv_writer_bits(&f.w) - 3, 1, gst_fixed, &f, f.expect);
#else
    peer_skip("fixed13/gst", "GStreamer (gstreamer-base-1.0) not found at configure time");
#endif
    peer_run("peers/fixed13/rsv", f.n, rsv_writer_bits(&f.w) - 3, 1, rsv_fixed, &f, f.expect);
#ifdef RSV_PEER_GST
    peer_run("peers/eg0/gst", e.n, rsv_writer_bits(&e.w) - 3, 1, gst_eg0, &e, e.expect);
#else
    peer_skip("eg0/gst", "GStreamer (gstreamer-base-1.0) not found at configure time");
#endif
    peer_run("peers/eg0/rsv", e.n, rsv_writer_bits(&e.w) - 3, 1, rsv_eg0, &e, e.expect);
    rsv_writer_free(&f.w);
    rsv_writer_free(&e.w);
}
