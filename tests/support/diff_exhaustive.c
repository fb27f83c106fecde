/* Bounded-exhaustive small scope (CODES.md §5.3): EVERY bit string of length
 * 0..max_len as a view starting at bit offset 0..7 of an exact-size heap
 * buffer (so ASan sees any load past the view's last byte), with the bits
 * around the view inside its first and last byte set to the complement of
 * the neighbouring view bit (a reader that misreads them extends or ends a
 * run wrongly) or to noise. Each view is built once and every operation runs
 * on it: exp-Golomb orders 0-3 and 63 (and the eg0 entry), Golomb moduli 1-9
 * and 2^64-1, fixed widths 0-17, take and skip 0-17; each as: the operation,
 * the same operation again, then read_eg(0). No allocation per case. */
#include <stdlib.h>

#include "diff.h"

#define MAXV UINT64_MAX

static const unsigned ex_orders[] = {0, 1, 2, 3, 63};
static const uint64_t ex_moduli[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, MAXV};

static const char *const FMT =
    "bit string of length %llu = 0x%llx (MSB first) at view offset %llu, fill %llu "
    "(0 complement, 1 noise)";

/* Write the view bits x (L bits, MSB first) at bit o of buf[0..nb), the rest
 * of the bytes per the fill mode. nb <= 8. */
static void paint(uint8_t *buf, size_t nb, unsigned o, unsigned L, uint64_t x, int noise,
                  uint64_t rnd)
{
    unsigned total = (unsigned)nb * 8; /* <= 64 */
    uint64_t word;                      /* bit i of the buffer = bit (63 - i) of word */
    if (noise) {
        word = rnd;
    } else {
        unsigned first = L ? (unsigned)(x >> (L - 1)) & 1u : 0;
        unsigned last = L ? (unsigned)x & 1u : 0;
        uint64_t before = first ? 0 : MAXV; /* complement of view bit 0 */
        uint64_t after = last ? 0 : MAXV;   /* complement of the last view bit */
        /* before covers [0, o), after covers [o + L, 64) */
        uint64_t mask_before = o ? MAXV << (64 - o) : 0;
        uint64_t mask_after = (o + L) < 64 ? MAXV >> (o + L) : 0;
        word = (before & mask_before) | (after & mask_after);
    }
    /* clear the view bits and insert x */
    if (L) {
        uint64_t vmask = (MAXV >> (64 - L)) << (64 - o - L);
        word = (word & ~vmask) | (x << (64 - o - L));
    }
    for (unsigned i = 0; i < total / 8; i++) buf[i] = (uint8_t)(word >> (56 - 8 * i));
}

static void run_ops(rsv_diff *d, rsv_view v, unsigned families, uint64_t L, uint64_t x,
                    uint64_t o, uint64_t noise)
{
    rsv_diff_run t;
    if (families & RSV_DIFF_EX_EG) {
        for (size_t i = 0; i < sizeof ex_orders / sizeof *ex_orders; i++) {
            rsv_diff_begin(&t, d, v, "exhaustive/eg", FMT, L, x, o, noise);
            rsv_diff_read_eg(&t, ex_orders[i]);
            rsv_diff_read_eg(&t, ex_orders[i]);
            rsv_diff_read_eg(&t, 0);
        }
        rsv_diff_begin(&t, d, v, "exhaustive/eg", FMT, L, x, o, noise);
        rsv_diff_read_eg0(&t);
        rsv_diff_read_eg0(&t);
        rsv_diff_read_eg(&t, 0);
    }
    if (families & RSV_DIFF_EX_GOLOMB) {
        for (size_t i = 0; i < sizeof ex_moduli / sizeof *ex_moduli; i++) {
            rsv_diff_begin(&t, d, v, "exhaustive/golomb", FMT, L, x, o, noise);
            rsv_diff_read_golomb(&t, ex_moduli[i]);
            rsv_diff_read_golomb(&t, ex_moduli[i]);
            rsv_diff_read_eg(&t, 0);
        }
    }
    if (families & RSV_DIFF_EX_FIXED) {
        for (unsigned w = 0; w <= 17; w++) {
            rsv_diff_begin(&t, d, v, "exhaustive/fixed", FMT, L, x, o, noise);
            rsv_diff_read(&t, w);
            rsv_diff_read(&t, w);
            rsv_diff_read_eg(&t, 0);
        }
    }
    if (families & RSV_DIFF_EX_SPAN) {
        for (uint64_t n = 0; n <= 17; n++) {
            rsv_diff_begin(&t, d, v, "exhaustive/take", FMT, L, x, o, noise);
            rsv_diff_take(&t, n);
            rsv_diff_take(&t, n);
            rsv_diff_read_eg(&t, 0);
            rsv_diff_begin(&t, d, v, "exhaustive/skip", FMT, L, x, o, noise);
            rsv_diff_skip(&t, n);
            rsv_diff_skip(&t, n);
            rsv_diff_read_eg(&t, 0);
        }
    }
}

void rsv_diff_suite_exhaustive(rsv_diff *d, const rsv_diff_opts *o, unsigned families)
{
    unsigned max_len = o->max_len > RSV_DIFF_LIMIT_MAX_LEN ? RSV_DIFF_LIMIT_MAX_LEN : o->max_len;
    rsv_rng g = {o->seed ^ UINT64_C(0xE4A5)};
    for (unsigned L = 0; L <= max_len; L++) {
        for (unsigned off = 0; off < 8; off++) {
            size_t nb = rsv_diff_nbytes(off, L); /* <= 5 bytes for L <= 28 */
            uint8_t *buf = rsv_diff_alloc(nb);
            /* empty view: point at the end of the block, so any load at all
             * (A2) is a heap overflow under ASan */
            const uint8_t *data = L ? buf : buf + (nb ? nb : 1);
            rsv_view v = rsv_view_make(data, off, L);
            uint64_t count = UINT64_C(1) << L;
            for (uint64_t x = 0; x < count; x++) {
                uint64_t rnd = rsv_rng_next(&g);
                int noise = (int)(rnd >> 63) & (int)(rnd >> 62); /* a quarter of the views */
                if (nb) paint(buf, nb, off, L, x, noise, rnd);
                run_ops(d, v, families, L, x, off, (uint64_t)noise);
            }
            free(buf);
        }
    }
}
