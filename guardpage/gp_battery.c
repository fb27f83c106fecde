/* Operation battery for one guard-flush view (see gp_battery.h). */
#include "gp_battery.h"

#include <inttypes.h>

#include "gp_pair.h"
#include "guardpage.h"

/* The codes of CODES.md §8: EG orders and Golomb moduli. */
static const uint64_t k_orders[] = {0, 1, 3, 63};
static const uint64_t k_moduli[] = {1, 3, 7, UINT64_MAX};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* After a failing read(w): read exactly what is left (the load that ends at
 * the view's last byte), then the zero-width and failing edge operations at
 * the end of the view. */
static void finish_at_end(gp_pair *x)
{
    rsv_diff_read(x, x->v.len - x->p);
    rsv_diff_edge_ops(x);
}

static void widths(rsv_view v, const char *label)
{
    gp_pair x;
    for (uint64_t w = 0; w <= 65; w++) {
        rsv_guard_set_case("%s: read(%" PRIu64 ") until failure", label, w);
        gp_pair_init(&x, v);
        if (w == 0) {
            for (int i = 0; i < 3; i++) rsv_diff_read(&x, 0);
            rsv_diff_read(&x, v.len < 64 ? v.len : 64);
        }
        while (rsv_diff_read(&x, w) == RSV_OK && w != 0) {
        }
        finish_at_end(&x);
    }
    rsv_guard_set_case("%s: read_bit until failure", label);
    gp_pair_init(&x, v);
    while (rsv_diff_read_bit(&x) == RSV_OK) {
    }
    rsv_diff_edge_ops(&x);
}

static void spans(rsv_view v, const char *label)
{
    const uint64_t len = v.len;
    const uint64_t lens[] = {0,       1,       7,       8,   9,       31,        56,
                             57,      63,      64,      65,  127,     128,       129,
                             len - 1, len,     len + 1, len / 2, UINT64_C(1) << 63, UINT64_MAX};
    static const uint64_t warm[] = {0, 5, 64};
    for (size_t i = 0; i < COUNT(lens); i++) {
        /* One description per length (formatting one per sequence costs as
         * much as the sequence); mismatch messages carry the operation. */
        rsv_guard_set_case("%s: read(0|5|64), then take or skip(%" PRIu64 "), then read(13)...",
                           label, lens[i]);
        for (size_t j = 0; j < COUNT(warm); j++) {
            for (int take = 0; take < 2; take++) {
                gp_pair x;
                gp_pair_init(&x, v);
                rsv_diff_read(&x, warm[j]);
                if (take) {
                    rsv_view sub;
                    rsv_diff_take_sub(&x, lens[i], &sub);
                } else {
                    rsv_diff_skip(&x, lens[i]);
                }
                /* The reads right after the span meet the cache state it
                 * left; after three of them jump to the last 80 bits, whose
                 * reads meet the guard. */
                for (int n = 0; n < 3 && rsv_diff_read(&x, 13) == RSV_OK; n++) {
                }
                if (x.v.len - x.p > 80) rsv_diff_skip(&x, x.v.len - x.p - 80 + lens[i] % 13);
                while (rsv_diff_read(&x, 13) == RSV_OK) {
                }
                finish_at_end(&x);
            }
        }
    }
}

/* Position the pair at `start`, either by one skip (cache dropped, the next
 * decode refills from `start`) or ending with a read (the decode starts from
 * a warm cache, which may already hold the view's last bits). */
static void go_to(gp_pair *x, uint64_t start, int by_reads)
{
    if (!by_reads) {
        rsv_diff_skip(x, start);
        return;
    }
    /* Skip to a little before `start`, then read the rest: a read of 1..60
     * bits (varied with start) leaves cached bits behind, as in real use. */
    uint64_t r = 1 + start * 7 % 60;
    if (r > start) r = start;
    rsv_diff_skip(x, start - r);
    rsv_diff_read(x, r);
}

static void codes(rsv_view v, const char *label)
{
    gp_pair x;
    for (int golomb = 0; golomb < 2; golomb++) {
        for (size_t i = 0; i < 4; i++) {
            uint64_t param = golomb ? k_moduli[i] : k_orders[i];
            const char *name = golomb ? "golomb" : "eg";
            rsv_guard_set_case("%s: %s(%" PRIu64 ") from 0 until exhausted", label, name, param);
            gp_pair_init(&x, v);
            rsv_diff_drain_code(&x, golomb, param);
            rsv_diff_edge_ops(&x);
            /* Each of the last 72 start positions: every code whose bits
             * reach the guard-adjacent byte, from both cache states. */
            uint64_t jmax = v.len < 72 ? v.len : 72;
            for (int by_reads = 0; by_reads < 2; by_reads++) {
                /* One description for all j: formatting one per start would
                 * cost more than the decodes. Mismatch messages give p. */
                rsv_guard_set_case("%s: %s(%" PRIu64 ") from each of len-1..len-%" PRIu64
                                   " (reached by %s)",
                                   label, name, param, jmax, by_reads ? "a read" : "skip");
                for (uint64_t j = 1; j <= jmax; j++) {
                    gp_pair_init(&x, v);
                    go_to(&x, v.len - j, by_reads);
                    /* Two decodes: the one starting here and the one after it
                     * (also after a failure). Later starts are other j's. */
                    for (int n = 0; n < 2; n++) {
                        if (golomb)
                            rsv_diff_read_golomb(&x, param);
                        else
                            rsv_diff_read_eg(&x, param);
                    }
                }
            }
        }
    }
}

static void batches(rsv_view v, const char *label)
{
    static const uint64_t bw[] = {1, 7, 13, 33, 64};
    static const uint64_t starts_back[] = {0, 1, 7, 8, 9, 57, 63, 64, 65}; /* 0 = from p = 0 */
    size_t count = (size_t)v.len + 2; /* enough values to reach the end and fail */
    gp_pair x;
    for (size_t s = 0; s < COUNT(starts_back); s++) {
        uint64_t back = starts_back[s];
        if (back > v.len) continue;
        uint64_t start = back ? v.len - back : 0;
        for (size_t i = 0; i < COUNT(bw); i++) {
            rsv_guard_set_case("%s: read_n(%" PRIu64 ") from %" PRIu64, label, bw[i], start);
            gp_pair_init(&x, v);
            rsv_diff_skip(&x, start);
            rsv_diff_read_n(&x, bw[i], count);
            rsv_diff_read_n(&x, bw[i], count); /* again, at the failure position */
            rsv_diff_read_n(&x, 0, 3);
        }
        for (size_t i = 0; i < COUNT(k_orders); i++) {
            rsv_guard_set_case("%s: read_eg_n(%" PRIu64 ") from %" PRIu64, label, k_orders[i],
                               start);
            gp_pair_init(&x, v);
            rsv_diff_skip(&x, start);
            while (rsv_diff_read_eg_n(&x, k_orders[i], count) != RSV_OK && x.p < v.len) {
            }
            rsv_diff_read_eg_n(&x, k_orders[i], 1);
        }
        for (size_t i = 0; i < COUNT(k_moduli); i++) {
            rsv_guard_set_case("%s: read_golomb_n(%" PRIu64 ") from %" PRIu64, label, k_moduli[i],
                               start);
            gp_pair_init(&x, v);
            rsv_diff_skip(&x, start);
            while (rsv_diff_read_golomb_n(&x, k_moduli[i], count) != RSV_OK && x.p < v.len) {
            }
            rsv_diff_read_golomb_n(&x, k_moduli[i], 1);
        }
    }
}

void gp_battery(rsv_view v, const char *label)
{
    widths(v, label);
    spans(v, label);
    codes(v, label);
    batches(v, label);
}
