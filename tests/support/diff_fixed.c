/* Differential suites for fixed fields, take and skip (CODES.md §2, §8).
 *
 * Every view lives in a buffer of exactly the bytes it needs, so under ASan a
 * load past the view's last byte (A1) is caught as well as any wrong bit. */
#include <stdlib.h>

#include "diff.h"

/* fixed fields: offsets 0-79 x widths 0-65 x lengths {0, w-1, w, w+1, 128},
 * random contents; read(w), drain in 13-bit reads, zero-width ops. A second
 * pass does the same through the batch decoder with a warm cache. */
void rsv_diff_suite_fixed(rsv_diff *d, const rsv_diff_opts *o)
{
    rsv_rng g = {o->seed ^ UINT64_C(0xF1CED)};
    rsv_diff_run t;
    for (uint64_t off = 0; off < 80; off++) {
        for (unsigned w = 0; w <= 65; w++) {
            uint64_t lens[5] = {0, w ? w - 1u : 0, w, w + 1u, 128};
            for (unsigned li = 0; li < 5; li++) {
                uint64_t len = lens[li];
                if (li == 1 && w == 0) continue; /* w-1 does not exist */
                size_t nb = rsv_diff_nbytes(off, len);
                uint8_t *buf = rsv_diff_alloc(nb);
                rsv_diff_fill_random(&g, buf, nb);
                /* A2: an empty view may carry a NULL pointer; try both */
                const uint8_t *data = (len == 0 && (off & 1)) ? NULL : buf;
                rsv_view v = rsv_view_make(data, off, len);

                rsv_diff_begin(&t, d, v, "fixed", "off=%llu w=%llu len=%llu (cold read)", off, w,
                               len, 0);
                rsv_diff_read(&t, w);
                rsv_diff_drain(&t);

                /* warm: read one bit first, then w through read and read_n */
                rsv_diff_begin(&t, d, v, "fixed", "off=%llu w=%llu len=%llu (warm, batch)", off,
                               w, len, 0);
                rsv_diff_read_bit(&t);
                rsv_diff_read(&t, w);
                rsv_diff_seek(&t, 0);
                rsv_diff_read_n(&t, w, 3);
                rsv_diff_seek(&t, len > 5 ? 5 : len);
                rsv_diff_read(&t, w);
                rsv_diff_drain(&t);
                free(buf);
            }
        }
    }
}

/* take/skip after warming the cache with 0-64 bits. */
static const uint64_t span_lens[] = {0, 1, 7, 8, 31, 63, 64, 65, 127, 128, UINT64_MAX};
#define N_SPAN_LENS (sizeof span_lens / sizeof span_lens[0])

static void span_case(rsv_diff *d, rsv_rng *g, uint64_t off, uint64_t len, unsigned warm,
                      unsigned mode, uint64_t n, int take)
{
    size_t nb = rsv_diff_nbytes(off, len);
    uint8_t *buf = rsv_diff_alloc(nb);
    rsv_diff_fill_random(g, buf, nb);
    rsv_view v = rsv_view_make(buf, off, len);
    rsv_diff_run t;
    rsv_diff_begin(&t, d, v, "span",
                   take ? "take n=%llu after warm=%llu (mode %llu), off=%llu"
                        : "skip n=%llu after warm=%llu (mode %llu), off=%llu",
                   n, warm, mode, off);
    /* mode 0: one read of `warm` bits; mode 1: a bit, then warm-1 bits, so the
     * cache is refilled at a different point */
    if (mode == 0 || warm == 0) {
        rsv_diff_read(&t, warm);
    } else {
        rsv_diff_read_bit(&t);
        rsv_diff_read(&t, warm - 1);
    }
    if (take)
        rsv_diff_take(&t, n);
    else
        rsv_diff_skip(&t, n);
    rsv_diff_read(&t, 13); /* the cache must match the new position */
    rsv_diff_skip(&t, 65);
    /* RSV_ERR_WIDTH, position unchanged (CODES.md §2). The expected position
     * is the one both sides agreed on before the read (it used to be t.p after
     * the read, i.e. the oracle compared with itself). rsv_diff_read reports
     * a codec/oracle position disagreement; rsv_diff_expect holds the oracle to
     * the spec; the last check holds the codec to the spec directly. */
    uint64_t before_wide = t.p;
    rsv_diff_read(&t, 65);
    rsv_diff_expect(&t, RSV_ERR_WIDTH, 0, before_wide);
    if (rsv_reader_position(&t.r) != before_wide)
        rsv_diff_fail(t.d, "read(65) moved the codec reader from %llu to %llu",
                      (unsigned long long)before_wide, (unsigned long long)rsv_reader_position(&t.r));
    rsv_diff_take(&t, UINT64_MAX);
    rsv_diff_skip(&t, UINT64_MAX);
    rsv_diff_read_eg(&t, 0);
    rsv_diff_drain(&t);
    free(buf);
}

void rsv_diff_suite_span(rsv_diff *d, const rsv_diff_opts *o)
{
    static const uint64_t offs_full[] = {0, 1, 3, 5, 7, 8, 13, 63, 77};
    static const uint64_t offs_quick[] = {0, 3, 7, 13};
    const uint64_t *offs = o->quick ? offs_quick : offs_full;
    size_t noffs = o->quick ? sizeof offs_quick / sizeof *offs_quick
                            : sizeof offs_full / sizeof *offs_full;
    rsv_rng g = {o->seed ^ UINT64_C(0x5BA4)};
    for (unsigned warm = 0; warm <= 64; warm++) {
        for (size_t ni = 0; ni < N_SPAN_LENS; ni++) {
            uint64_t n = span_lens[ni];
            /* view lengths around warm + n (remaining exactly n, n-1, n+1) and long */
            uint64_t lens[4] = {400, 0, 0, 0};
            unsigned nl = 1;
            if (n != UINT64_MAX) {
                if (warm + n > 0) lens[nl++] = warm + n - 1;
                lens[nl++] = warm + n;
                lens[nl++] = warm + n + 1;
            }
            for (size_t oi = 0; oi < noffs; oi++)
                for (unsigned li = 0; li < nl; li++)
                    for (unsigned mode = 0; mode < 2; mode++)
                        for (int take = 0; take < 2; take++)
                            span_case(d, &g, offs[oi], lens[li], warm, mode, n, take);
        }
    }
}
