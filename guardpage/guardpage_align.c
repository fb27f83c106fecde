/* Guard placements at every address alignment 0-7 of the view's first byte
 * and of its last byte (CODES.md §1.2 A1).
 *
 * A PROT_NONE page starts and ends on a page boundary, a multiple of 8. So a
 * view flush against a guard page has its first byte at address alignment 0
 * (leading) or its last byte at alignment 7 (trailing), and:
 *
 *   - a load rounded DOWN to an 8-byte address never crosses a page boundary
 *     from above (the boundary is itself 8-aligned), and a whole aligned
 *     8-byte word never straddles one: no guard placement can catch "load the
 *     aligned word holding p" at either end. Only the load-bounds oracle
 *     (RSV_LOAD_CHECK, docs/design.md) sees those; it is on in this test in
 *     a build with RSV_LOAD_CHECK (the asan-ubsan preset), through gp_pair's declared windows.
 *
 * Here the view sits `gap` readable bytes (0-7) away from the page, the gap
 * bytes not part of the view:
 *
 *   leading,  gap g: first byte at address alignment g. The page faults on a
 *     load starting more than g bytes before the first byte (g = 0: any
 *     load before it — the byte before p at p = 0, or a block counted from a
 *     data pointer that lies in the page, which the odd-tail views use).
 *   trailing, gap g: last byte at address alignment 7 - g. The page faults on
 *     a load ending more than g bytes past the last byte (g = 0: any load
 *     past it; an unaligned 8-byte load from the last byte faults for g < 7).
 *
 * Loads into the gap itself (1..g bytes outside the view) do not fault: they
 * fail only in a RSV_LOAD_CHECK build. Each view gets the full gp_battery
 * (every fixed width, take/skip, every code family, batch decoders) against
 * the oracle, for sizes 1-17, 24 and 40 bytes, start offsets 0-7 and unused
 * tail bits 0 and 5. */
#include <inttypes.h>
#include <stdio.h>

#include "gp_battery.h"
#include "gp_pair.h"
#include "guardpage.h"
#include "testutil.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

int main(void)
{
    rsv_guard_install_fault_handler(); /* after the sanitizer runtime's init */
    static const size_t sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 24, 40};
    rsv_rng rng = {UINT64_C(0x414c49474e)};
    char label[200];
    unsigned placements = 0;
    for (int leading = 0; leading < 2; leading++) {
        for (size_t gap = 0; gap < 8; gap++) {
            for (size_t si = 0; si < COUNT(sizes); si++) {
                size_t nbytes = sizes[si];
                rsv_guard_buf g;
                int rc = leading ? rsv_guard_head(&g, nbytes + gap) : rsv_guard_tail(&g, nbytes + gap);
                if (rc != 0) {
                    perror("guardpage: mapping failed");
                    gp_check(0, "could not map %zu bytes", nbytes + gap);
                    return gp_report();
                }
                for (size_t i = 0; i < nbytes + gap; i++) g.ptr[i] = (uint8_t)rsv_rng_next(&rng);
                if (rsv_guard_readonly(&g) != 0) perror("guardpage: mprotect(PROT_READ)");
                uint8_t *first = leading ? g.ptr + gap : g.ptr; /* the view's first byte */
                uint8_t *last = first + nbytes - 1;
                gp_check(leading ? ((uintptr_t)first & 7) == gap : ((uintptr_t)last & 7) == 7 - gap,
                         "placement: %s gap %zu puts the %s byte at alignment %u", leading ? "leading" : "trailing",
                         gap, leading ? "first" : "last", (unsigned)((uintptr_t)(leading ? first : last) & 7));
                placements++;
                for (uint64_t off = 0; off < 8; off++) {
                    for (uint64_t unused = 0; unused < 8; unused += 5) {
                        if (off + unused >= 8 * nbytes) continue;
                        uint64_t bits = 8 * nbytes - off - unused;
                        rsv_view v = rsv_view_make(first, off, bits);
                        snprintf(label, sizeof label,
                                 "%s guard, gap %zu (%s byte at alignment %u), %zu bytes, off=%" PRIu64
                                 ", unused tail bits=%" PRIu64,
                                 leading ? "leading" : "trailing", gap, leading ? "first" : "last",
                                 (unsigned)((uintptr_t)(leading ? first : last) & 7), nbytes, off, unused);
                        gp_battery(v, label);
                    }
                }
                rsv_guard_release(&g);
            }
        }
    }
    gp_check(placements == 2 * 8 * COUNT(sizes), "ran %u placements", placements);
    rsv_guard_set_case("alignment sweep finished");
    return gp_report();
}
