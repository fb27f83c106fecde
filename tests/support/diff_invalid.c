/* Invalid parameters (CODES.md §2, §3.2 step 1, §4.2 step 1, §6.1 precedence,
 * §6.3): w > 64, k > 63 and m = 0 through every entry point (single decoder,
 * rsv_read_golomb_m, the invalid rsv_golomb struct, batch decoders), on empty
 * and non-empty views, cold and warm caches, at the start, middle and end.
 * The parameter check comes first, so the result is the parameter error with
 * the position unchanged, whatever the bits; reading then continues. */
#include <limits.h>
#include <stdlib.h>

#include "diff.h"

static const unsigned bad_w[] = {65, 66, 100, 127, 128, 129, 255, 256, 1000, 65535,
                                 0x80000000u, UINT_MAX - 1, UINT_MAX};
static const unsigned bad_k[] = {64, 65, 96, 100, 127, 128, 1000, 0x7FFFFFFFu,
                                 0x80000000u, UINT_MAX - 1, UINT_MAX};

/* Position the reader: cold at p, or warm (a bit read just before p). */
static void go_to(rsv_diff_run *t, uint64_t p, int warm)
{
    if (warm && p > 0) {
        rsv_diff_skip(t, p - 1);
        rsv_diff_read_bit(t);
    } else {
        rsv_diff_skip(t, p);
    }
}

static void after(rsv_diff_run *t)
{
    rsv_diff_read_eg(t, 0);
    rsv_diff_read(t, 5);
    rsv_diff_read_golomb(t, 7);
    rsv_diff_read_eg(t, 2);
    rsv_diff_drain(t);
}

static void invalid_at(rsv_diff *d, rsv_view v, uint64_t p, int warm, int fill)
{
    static const size_t counts[] = {0, 1, 5};
    static const char *const FMT_W = "read(w=%llu) at p=%llu warm=%llu fill=%llu";
    static const char *const FMT_K = "read_eg(k=%llu) at p=%llu warm=%llu fill=%llu";
    static const char *const FMT_M = "read_golomb(m=0) at p=%llu warm=%llu fill=%llu";
    rsv_diff_run t;
    for (size_t i = 0; i < sizeof bad_w / sizeof *bad_w; i++) {
        rsv_diff_begin(&t, d, v, "invalid", FMT_W, bad_w[i], p, (uint64_t)warm, (uint64_t)fill);
        go_to(&t, p, warm);
        rsv_diff_read(&t, bad_w[i]);
        rsv_diff_expect(&t, RSV_ERR_WIDTH, 0, p);
        for (size_t c = 0; c < 3; c++) { /* a batch of 0 decodes nothing and succeeds */
            rsv_diff_read_n(&t, bad_w[i], counts[c]);
            rsv_diff_expect(&t, counts[c] ? RSV_ERR_WIDTH : RSV_OK, 0, p);
        }
        after(&t);
    }
    for (size_t i = 0; i < sizeof bad_k / sizeof *bad_k; i++) {
        rsv_diff_begin(&t, d, v, "invalid", FMT_K, bad_k[i], p, (uint64_t)warm, (uint64_t)fill);
        go_to(&t, p, warm);
        rsv_diff_read_eg(&t, bad_k[i]);
        rsv_diff_expect(&t, RSV_ERR_BAD_ORDER, 0, p);
        for (size_t c = 0; c < 3; c++) {
            rsv_diff_read_eg_n(&t, bad_k[i], counts[c]);
            rsv_diff_expect(&t, counts[c] ? RSV_ERR_BAD_ORDER : RSV_OK, 0, p);
        }
        after(&t);
    }
    rsv_diff_begin(&t, d, v, "invalid", FMT_M, p, (uint64_t)warm, (uint64_t)fill, 0);
    go_to(&t, p, warm);
    rsv_diff_read_golomb(&t, 0); /* rsv_golomb_init(0) leaves the invalid struct */
    rsv_diff_expect(&t, RSV_ERR_BAD_MODULUS, 0, p);
    rsv_diff_read_golomb_m(&t, 0);
    rsv_diff_expect(&t, RSV_ERR_BAD_MODULUS, 0, p);
    for (size_t c = 0; c < 3; c++) {
        rsv_diff_read_golomb_n(&t, 0, counts[c]);
        rsv_diff_expect(&t, counts[c] ? RSV_ERR_BAD_MODULUS : RSV_OK, 0, p);
    }
    after(&t);
}

void rsv_diff_suite_invalid(rsv_diff *d, const rsv_diff_opts *o)
{
    static const uint64_t lens[] = {0, 1, 7, 64, 65, 200};
    static const uint64_t offs[] = {0, 3, 77};
    rsv_rng g = {o->seed ^ UINT64_C(0x1BAD)};
    for (size_t li = 0; li < sizeof lens / sizeof *lens; li++) {
        for (size_t oi = 0; oi < sizeof offs / sizeof *offs; oi++) {
            uint64_t len = lens[li], off = offs[oi];
            size_t nb = rsv_diff_nbytes(off, len);
            uint8_t *buf = rsv_diff_alloc(nb);
            /* zeros make every code's zero run as long as possible; random
             * bits the opposite: neither may matter for a parameter error */
            for (int fill = 0; fill < 2; fill++) {
                if (fill)
                    rsv_diff_fill_random(&g, buf, nb);
                else
                    for (size_t i = 0; i < nb; i++) buf[i] = 0;
                rsv_view v = rsv_view_make(len ? buf : NULL, off, len);
                uint64_t ps[3] = {0, len / 2, len};
                for (unsigned pi = 0; pi < 3; pi++)
                    for (int warm = 0; warm < 2; warm++) invalid_at(d, v, ps[pi], warm, fill);
            }
            free(buf);
        }
    }
}
