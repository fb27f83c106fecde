/* Long exp-Golomb codes near a trailing PROT_NONE page (CODES.md §1.2 A1).
 *
 * reader.c reads a valid code too long for the inline path (2z+1+k > 63,
 * c = v + 2^k of at most 64 bits) with two 9-byte peeks when at least 136
 * bits remain; the batch decoders reach that path from their fast loop. This
 * sweeps the boundary of that rule: views that end flush against the guard
 * page and hold a few short codes, then one long code (z = 28..63, orders
 * 0/1/3/7), then 0..87 bits of slack, at view offsets 0..7. Each view is
 * decoded value by value and in batches, by the codec and the oracle on the
 * same bytes (gp_pair compares value, status and position); a load of a
 * byte past the view's last one faults and names the case. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gp_pair.h"
#include "guardpage.h"
#include "reservoir/writer.h"
#include "testutil.h"

static const unsigned k_orders[] = {0, 1, 3, 7};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* q + 1 with bit length z + 1, so the code has z leading zeros. */
static uint64_t value_with_zeros(unsigned z, unsigned k, rsv_rng *g)
{
    uint64_t qp1 = (UINT64_C(1) << z) | (rsv_rng_next(g) & ((UINT64_C(1) << z) - 1)); /* z <= 63 */
    uint64_t rem = k ? rsv_rng_next(g) & ((UINT64_C(1) << k) - 1) : 0;
    return ((qp1 - 1) << k) | rem; /* (q << k) | rem, z + k <= 70: kept to 64 bits by the caller */
}

/* One mapping for every view: each view's bytes are copied to its end, so
 * the view's last byte is the last byte before the guard page. */
#define MAP_BYTES 128

static void one_view(uint8_t *map_end, rsv_rng *g, unsigned k, unsigned z, unsigned nshort,
                     unsigned off, unsigned slack, int batch)
{
    rsv_writer w;
    rsv_writer_init(&w);
    if (off) rsv_put(&w, 0, off);
    for (unsigned i = 0; i < nshort; i++) rsv_put_eg(&w, rsv_rng_below(g, 100), k);
    rsv_put_eg(&w, value_with_zeros(z, k, g), k);
    for (unsigned s = slack; s > 0;) { /* slack bits: random */
        unsigned t = s > 64 ? 64 : s;
        rsv_put(&w, rsv_rng_next(g) >> (64 - t), t);
        s -= t;
    }
    uint64_t bits = rsv_writer_bits(&w);
    size_t nbytes = (size_t)((bits + 7) / 8);
    if (nbytes > MAP_BYTES) {
        gp_check(0, "view of %zu bytes does not fit the mapping", nbytes);
        rsv_writer_free(&w);
        return;
    }
    uint8_t *p = map_end - nbytes;
    memcpy(p, rsv_writer_data(&w), nbytes);
    /* The view ends at the last written bit; the rest of its last byte is
     * outside the view but inside the mapping. */
    rsv_view v = rsv_view_make(p, off, bits - off);
    rsv_guard_set_case("long code: k=%u z=%u after %u short codes, off=%u, slack=%u bits, %s", k,
                       z, nshort, off, slack, batch ? "batch" : "single");
    gp_pair x;
    gp_pair_init(&x, v);
    if (batch) {
        rsv_diff_read_eg_n(&x, k, nshort + 1);
    } else {
        for (unsigned i = 0; i <= nshort; i++) rsv_diff_read_eg(&x, k);
    }
    rsv_diff_read_eg(&x, k); /* into the slack: any outcome, compared */
    rsv_diff_edge_ops(&x);
    rsv_writer_free(&w);
}

int main(void)
{
    rsv_guard_install_fault_handler(); /* after the sanitizer runtime's init */
    rsv_rng g = {UINT64_C(0x10C0DE5)};
    rsv_guard_buf gb;
    if (rsv_guard_tail(&gb, MAP_BYTES) != 0) {
        gp_check(0, "could not map %d bytes", MAP_BYTES);
        return gp_report();
    }
    uint8_t *map_end = gb.ptr + MAP_BYTES;
    static const unsigned shorts[] = {0, 1, 24};
    for (size_t ki = 0; ki < COUNT(k_orders); ki++) {
        unsigned k = k_orders[ki];
        for (unsigned z = 28; z <= 63; z++) {
            if (z + 1 + k > 64) continue; /* c would not fit in 64 bits: the walk's case */
            for (size_t si = 0; si < COUNT(shorts); si++)
                for (unsigned off = 0; off < 8; off++)
                    for (unsigned slack = 0; slack < 88; slack++)
                        for (int batch = 0; batch < 2; batch++)
                            one_view(map_end, &g, k, z, shorts[si], off, slack, batch);
        }
    }
    rsv_guard_release(&gb);
    rsv_guard_set_case("long-code sweep finished");
    return gp_report();
}
