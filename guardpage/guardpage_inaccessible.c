/* Take and skip load nothing (CODES.md §1.2 A3), and a decode never loads a
 * byte holding only bits before p (A4).
 *
 * Part 1: a 1,024-bit payload lying entirely in a PROT_NONE page is walked
 * with skip 129, take 257 and skip of the rest (and other span patterns);
 * at the end, zero-width read/take/skip succeed and every decode fails —
 * all without a fault and exactly as the oracle says.
 *
 * Part 2: a view whose first 1,032 bits are in a PROT_NONE page and whose
 * rest is readable: the inaccessible prefix is crossed with skip/take (and
 * the bit landing j = 0-7 bits into the first readable byte), then the
 * readable rest is decoded — so a reader that loaded the byte before p's
 * byte, or a block counted from the data pointer (which lies 129 bytes
 * inside the page), would fault. A load from p's address rounded down to a
 * multiple of 8 would NOT: the first readable byte is page-aligned, so the
 * rounding stays on it. Only the load-bounds oracle (RSV_LOAD_CHECK, on in
 * gp_pair) catches that; guardpage_align.c says what each placement can. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "gp_pair.h"
#include "guardpage.h"
#include "testutil.h"

#define PAYLOAD_BITS 1024u
#define PREFIX_BYTES 129u /* part 2: inaccessible bytes before the readable ones */
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* At p = len every decode must fail without loading; zero-width operations
 * succeed; and the batch decoders stop at once. */
static void at_end(gp_pair *x)
{
    rsv_diff_edge_ops(x);
    for (uint64_t k = 0; k <= 64; k++) rsv_diff_read_eg(x, k);
    static const uint64_t m[] = {0, 1, 3, 7, UINT64_C(1) << 63, UINT64_MAX};
    for (size_t i = 0; i < COUNT(m); i++) rsv_diff_read_golomb(x, m[i]);
    for (uint64_t w = 0; w <= 65; w++) rsv_diff_read(x, w);
    rsv_diff_read_n(x, 13, 3);
    rsv_diff_read_eg_n(x, 0, 3);
    rsv_diff_read_golomb_n(x, 7, 3);
    rsv_diff_read(x, 0);
    rsv_diff_take(x, 0);
    rsv_diff_skip(x, 0);
}

static void payload_in_none(const rsv_guard_buf *none)
{
    const uint8_t *bases[] = {none->ptr, none->ptr + 1000};
    for (size_t b = 0; b < COUNT(bases); b++) {
        for (uint64_t off = 0; off < 8; off++) {
            rsv_view v = rsv_view_make(bases[b], off, PAYLOAD_BITS);
            gp_pair x;
            rsv_view sub;

            rsv_guard_set_case("PROT_NONE payload base+%zu off=%" PRIu64 ": skip 129, take 257, skip rest",
                               (size_t)(bases[b] - none->ptr), off);
            gp_pair_init(&x, v);
            rsv_diff_skip(&x, 129);
            rsv_diff_take_sub(&x, 257, &sub);
            /* The sub-view is (data, off + 129, 257) by §1.3 (hand-computed). */
            gp_check(rsv_view_identical(sub, rsv_view_make(bases[b], off + 129, 257)),
                     "take(257) after skip(129) is not (data, off+129, 257)");
            rsv_diff_take_sub(&x, 0, &sub);
            rsv_diff_skip(&x, PAYLOAD_BITS - 129 - 257);
            at_end(&x);

            rsv_guard_set_case("PROT_NONE payload base+%zu off=%" PRIu64 ": failing spans, then the whole",
                               (size_t)(bases[b] - none->ptr), off);
            gp_pair_init(&x, v);
            rsv_diff_skip(&x, PAYLOAD_BITS + 1);
            rsv_diff_take_sub(&x, UINT64_MAX, &sub);
            rsv_diff_take_sub(&x, PAYLOAD_BITS, &sub);
            at_end(&x);

            rsv_guard_set_case("PROT_NONE payload base+%zu off=%" PRIu64 ": bit-by-bit take/skip",
                               (size_t)(bases[b] - none->ptr), off);
            gp_pair_init(&x, v);
            for (unsigned i = 0; i < PAYLOAD_BITS; i++) {
                if (i & 1)
                    rsv_diff_take_sub(&x, 1, &sub);
                else
                    rsv_diff_skip(&x, 1);
            }
            at_end(&x);

            rsv_guard_set_case("PROT_NONE payload base+%zu off=%" PRIu64 ": spans 0..64 bits",
                               (size_t)(bases[b] - none->ptr), off);
            gp_pair_init(&x, v);
            for (uint64_t n = 0; x.p < v.len; n = (n + 1) % 65)
                if (n % 3 == 0)
                    rsv_diff_take_sub(&x, n < v.len - x.p ? n : v.len - x.p, &sub);
                else
                    rsv_diff_skip(&x, n < v.len - x.p ? n : v.len - x.p);
            at_end(&x);
        }
    }
}

/* One decode kind over the readable rest, compared with the oracle. */
static void decode_rest(gp_pair *x, int kind)
{
    switch (kind) {
    case 0: while (rsv_diff_read(x, 13) == RSV_OK) {} rsv_diff_read(x, x->v.len - x->p); break;
    case 1: while (rsv_diff_read(x, 64) == RSV_OK) {} rsv_diff_read(x, x->v.len - x->p); break;
    case 2: while (rsv_diff_read_bit(x) == RSV_OK) {} break;
    case 3: rsv_diff_drain_code(x, 0, 0); break;
    case 4: rsv_diff_drain_code(x, 0, 3); break;
    case 5: rsv_diff_drain_code(x, 1, 7); break;
    case 6: rsv_diff_drain_code(x, 1, UINT64_MAX); break;
    default: while (rsv_diff_read_eg_n(x, 1, 1000) != RSV_OK && x->p < x->v.len) {} break;
    }
    rsv_diff_edge_ops(x);
}

static void prefix_then_readable(void)
{
    static const size_t lens[] = {1, 2, 3, 7, 8, 9, 16, 40};
    rsv_rng rng = {UINT64_C(0x534b4950)};
    for (size_t li = 0; li < COUNT(lens); li++) {
        for (int f = 0; f < 3; f++) {
            rsv_guard_buf g;
            if (rsv_guard_head(&g, lens[li]) != 0) {
                perror("guardpage: mapping failed");
                gp_check(0, "could not map");
                return;
            }
            for (size_t i = 0; i < lens[li]; i++)
                g.ptr[i] = f == 0 ? 0x00 : f == 1 ? 0xFF : (uint8_t)rsv_rng_next(&rng);
            rsv_guard_readonly(&g);
            const uint8_t *data = g.ptr - PREFIX_BYTES; /* inside the guard page */
            for (uint64_t off = 0; off < 8; off++) {
                for (uint64_t unused = 0; unused < 8; unused += 5) {
                    uint64_t readable = 8 * lens[li] - unused;
                    uint64_t hidden = 8 * PREFIX_BYTES - off;
                    rsv_view v = rsv_view_make(data, off, hidden + readable);
                    for (uint64_t j = 0; j < 8 && j < readable; j++) {
                        for (int kind = 0; kind < 8; kind++) {
                            for (int with_take = 0; with_take < 2; with_take++) {
                                rsv_guard_set_case(
                                    "%zu hidden + %zu readable bytes, off=%" PRIu64
                                    ", unused=%" PRIu64 ", fill=%d: %s to readable bit %" PRIu64
                                    ", decode kind %d",
                                    (size_t)PREFIX_BYTES, lens[li], off, unused, f,
                                    with_take ? "skip 129/take 257/skip" : "one skip", j, kind);
                                gp_pair x;
                                gp_pair_init(&x, v);
                                if (with_take) {
                                    rsv_view sub;
                                    rsv_diff_skip(&x, 129);
                                    rsv_diff_take_sub(&x, 257, &sub);
                                    rsv_diff_skip(&x, hidden - 386 + j);
                                } else {
                                    rsv_diff_skip(&x, hidden + j);
                                }
                                decode_rest(&x, kind);
                            }
                        }
                    }
                }
            }
            rsv_guard_release(&g);
        }
    }
}

int main(void)
{
    rsv_guard_install_fault_handler(); /* after the sanitizer runtime's init */
    rsv_guard_buf none;
    if (rsv_guard_none(&none, 4096) != 0) {
        perror("guardpage: mapping failed");
        return 2;
    }
    payload_in_none(&none);
    rsv_guard_release(&none);
    prefix_then_readable();
    rsv_guard_set_case("inaccessible: finished");
    return gp_report();
}
