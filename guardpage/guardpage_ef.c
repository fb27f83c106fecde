/* Elias–Fano builder bounds (KV03.md §4): rsv_ef_plan and rsv_ef_encode read
 * only vals[0..n) and write only the planned low ‖ high ‖ samples ‖ sparse
 * bytes. Both the value array and the output end flush against a PROT_NONE
 * page, so one entry read or one byte written past the end faults and names
 * the case. n runs over every count whose last group is full, short by one,
 * or one entry long around 1..4 groups of 256 (where a group count off by
 * one would touch the entry after the last) with dense values (no sparse
 * group), and around 16 and 17 groups with the last one or two entries huge
 * (groups spanning >= 4096 high positions: sparse; fewer entries cannot make
 * a sparse group, as H = (U >> L) + n < 3n). With two huge entries the group
 * before a lone last entry is sparse, so a group bound off by one lists one
 * entry too many (a write past the planned bytes) or counts the next
 * group's first entry in the span. The
 * planned sizes and the bytes are compared with the oracle's builder
 * (oracle/src/ef.c, written from the spec text). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gp_pair.h"
#include "guardpage.h"
#include "reservoir/ef.h"
#include "reservoir/oracle_kv03.h"

static unsigned g_cases, g_sparse_cases;

/* mode 0, dense: vals[i] = 3i; modes 1 and 2: vals[i] = i but the last
 * `mode` entries are 2^40. */
static uint64_t value(int mode, uint64_t i, uint64_t n)
{
    return mode == 0 ? 3 * i : (i + (uint64_t)mode >= n ? UINT64_C(1) << 40 : i);
}

static void one(uint64_t n, int mode)
{
    rsv_guard_buf vb, ob;
    rsv_guard_set_case("ef n=%" PRIu64 " mode %d", n, mode);
    if (rsv_guard_tail(&vb, (size_t)n * 8) != 0) {
        gp_check(0, "could not map %" PRIu64 " values", n);
        return;
    }
    uint64_t *vals = (uint64_t *)(void *)vb.ptr; /* page offset of ptr is a multiple of 8 */
    for (uint64_t i = 0; i < n; i++) vals[i] = value(mode, i, n);
    rsv_oracle_ef want;
    rsv_status ost = rsv_oracle_ef_build(vals, (size_t)n, &want);
    gp_check(ost == RSV_OK, "oracle build: %d", (int)ost);
    rsv_ef_layout lay;
    rsv_status st = rsv_ef_plan(vals, n, &lay);
    gp_check(st == RSV_OK, "rsv_ef_plan: %d", (int)st);
    if (st == RSV_OK && ost == RSV_OK) {
        gp_check(lay.L == want.L && lay.low_bytes == want.low_len && lay.high_bytes == want.high_len &&
                     lay.samples_bytes == want.samples_len && lay.sparse_bytes == want.sparse_len,
                 "layout L=%u %" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64 ", oracle L=%u %zu/%zu/%zu/%zu", lay.L,
                 lay.low_bytes, lay.high_bytes, lay.samples_bytes, lay.sparse_bytes, want.L, want.low_len,
                 want.high_len, want.samples_len, want.sparse_len);
        gp_check(mode || want.sparse_len == 0, "fixture: dense values with %zu sparse bytes", want.sparse_len);
        g_sparse_cases += want.sparse_len > 0;
        size_t total = want.low_len + want.high_len + want.samples_len + want.sparse_len;
        if (lay.sparse_bytes == want.sparse_len && rsv_guard_tail(&ob, total) == 0) {
            rsv_ef_encode(vals, &lay, ob.ptr);
            size_t at = 0;
            const uint8_t *sec[4] = {want.low, want.high, want.samples, want.sparse};
            size_t len[4] = {want.low_len, want.high_len, want.samples_len, want.sparse_len};
            for (int s = 0; s < 4; s++) {
                gp_check(len[s] == 0 || memcmp(ob.ptr + at, sec[s], len[s]) == 0, "section %d differs", s + 1);
                at += len[s];
            }
            rsv_guard_release(&ob);
        }
    }
    rsv_oracle_ef_free(&want);
    rsv_guard_release(&vb);
    g_cases++;
}

int main(void)
{
    rsv_guard_install_fault_handler(); /* after the sanitizer runtime's init */
    for (uint64_t n = 1; n <= 3; n++) one(n, 0);
    for (uint64_t g = 1; g <= 4; g++)
        for (uint64_t d = 0; d < 3; d++) one(256 * g - 1 + d, 0); /* 256g - 1, 256g, 256g + 1 */
    for (int mode = 1; mode <= 2; mode++)
        for (uint64_t g = 16; g <= 17; g++)
            for (uint64_t d = 0; d < 3; d++) one(256 * g - 1 + d, mode);
    rsv_guard_set_case("ef sweep finished");
    gp_check(g_cases == 27, "ran %u cases, expected 27", g_cases);
    /* mode 1: 256g - 1 and 256g for g = 16, 17 (at 256g + 1 the huge entry
     * is alone in its group); mode 2: all six */
    gp_check(g_sparse_cases == 10, "%u cases with a sparse group, expected 10", g_sparse_cases);
    return gp_report();
}
