/* Flush sweep driver (see gp_flush.h). */
#include "gp_flush.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp_battery.h"
#include "gp_pair.h"
#include "guardpage.h"
#include "testutil.h"

#define MAX_BYTES 40

static const char *const k_fill_names[] = {"0x00", "0xFF", "random"};

static void fill(uint8_t *p, size_t n, int kind, rsv_rng *rng)
{
    for (size_t i = 0; i < n; i++)
        p[i] = kind == 0 ? 0x00 : kind == 1 ? 0xFF : (uint8_t)rsv_rng_next(rng);
}

int gp_flush_run(enum gp_flush_side side)
{
    const int leading = side == GP_FLUSH_LEADING;
    rsv_rng rng = {leading ? UINT64_C(0x4c454144) : UINT64_C(0x5441494c)};
    char label[160];
    for (size_t nbytes = 1; nbytes <= MAX_BYTES; nbytes++) {
        for (int f = 0; f < 3; f++) {
            rsv_guard_buf g;
            int rc = leading ? rsv_guard_head(&g, nbytes) : rsv_guard_tail(&g, nbytes);
            if (rc != 0) {
                perror("guardpage: mapping failed");
                gp_check(0, "could not map %zu bytes", nbytes);
                return gp_report();
            }
            fill(g.ptr, nbytes, f, &rng);
            /* Read-only: a reader that stored into its input would fault too. */
            if (rsv_guard_readonly(&g) != 0) perror("guardpage: mprotect(PROT_READ)");
            for (uint64_t off = 0; off < 8; off++) {
                for (uint64_t unused = 0; unused < 8; unused++) {
                    /* The view must end in the last byte (unused <= 7) and
                     * start in the first (off <= 7), so it needs one bit. */
                    if (off + unused >= 8 * nbytes) continue;
                    uint64_t bits = 8 * nbytes - off - unused;
                    rsv_view v = rsv_view_make(g.ptr, off, bits);
                    /* Leading side, odd tails: the data pointer itself points
                     * 8 bytes into the guard page and off carries the
                     * distance — off >= 8 is legal (§1.1) and nothing may be
                     * loaded through the inaccessible bytes. */
                    int shifted = leading && (unused & 1);
                    if (shifted) v = rsv_view_make(g.ptr - 8, off + 64, bits);
                    snprintf(label, sizeof label,
                             "%s guard, %zu bytes, off=%" PRIu64 ", unused tail bits=%" PRIu64
                             ", fill=%s%s",
                             leading ? "leading" : "trailing", nbytes, v.off, unused,
                             k_fill_names[f], shifted ? ", data=ptr-8" : "");
                    gp_battery(v, label);
                }
            }
            rsv_guard_release(&g);
        }
    }
    rsv_guard_set_case("%s sweep finished", leading ? "leading" : "trailing");
    return gp_report();
}
