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
 * (oracle/src/ef.c, written from the spec text). Then select on a damaged
 * high section that ends at a PROT_NONE page (select_last_bit_cleared). */
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

/* Select stops at the high section's end (§4 select on a damaged section).
 * The high section alone is copied flush against a PROT_NONE page and the
 * last entry's bit is cleared: select(n - 1) then finds no t-th set bit in
 * the last group's words, less than 4096 positions on, and must stop at the
 * section's last word with EF_CORRUPT; a search that loaded the word after
 * it would fault here (in a file that word is the samples section's first,
 * readable, so only this placement sees it). Every other entry still
 * selects its value. */
static unsigned g_select_cases;

static void select_last_bit_cleared(uint64_t n)
{
    rsv_guard_set_case("ef select n=%" PRIu64 ", the last entry's high bit cleared", n);
    uint64_t *vals = malloc((size_t)n * 8);
    if (!vals) {
        gp_check(0, "out of memory");
        return;
    }
    for (uint64_t i = 0; i < n; i++) vals[i] = value(0, i, n);
    rsv_ef_layout lay;
    rsv_status st = rsv_ef_plan(vals, n, &lay);
    size_t total = (size_t)(lay.low_bytes + lay.high_bytes + lay.samples_bytes + lay.sparse_bytes);
    uint8_t *buf = st == RSV_OK ? malloc(total) : NULL;
    rsv_guard_buf hb;
    if (st != RSV_OK || !buf || lay.high_bytes % 8 != 0 || rsv_guard_tail(&hb, (size_t)lay.high_bytes) != 0) {
        gp_check(0, "plan %d, %" PRIu64 " high bytes: no guarded high section", (int)st, lay.high_bytes);
        free(buf);
        free(vals);
        return;
    }
    rsv_ef_encode(vals, &lay, buf);
    memcpy(hb.ptr, buf + lay.low_bytes, (size_t)lay.high_bytes);
    uint64_t p = (vals[n - 1] >> lay.L) + (n - 1); /* §4: entry i's high bit */
    gp_check((hb.ptr[p / 8] >> (p % 8)) & 1, "bit %" PRIu64 " (the last entry's) is not set", p);
    hb.ptr[p / 8] = (uint8_t)(hb.ptr[p / 8] & ~(1u << (p % 8)));
    rsv_ef ef;
    const uint8_t *samples = buf + lay.low_bytes + lay.high_bytes;
    rsv_ef_init(&ef, &lay, buf, hb.ptr, samples, samples + lay.samples_bytes, lay.sparse_bytes);
    uint64_t x = 7;
    st = rsv_ef_select(&ef, n - 1, &x);
    gp_check(st == RSV_ERR_EF_CORRUPT, "select(%" PRIu64 ") = %d, want EF_CORRUPT (%d)", n - 1, (int)st,
             (int)RSV_ERR_EF_CORRUPT);
    for (uint64_t i = 0; i + 1 < n; i++) {
        st = rsv_ef_select(&ef, i, &x);
        gp_check(st == RSV_OK && x == vals[i], "select(%" PRIu64 ") = %d, %" PRIu64 ", want %" PRIu64, i, (int)st,
                 x, vals[i]);
    }
    rsv_guard_release(&hb);
    free(buf);
    free(vals);
    g_select_cases++;
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
    const uint64_t sel_n[] = {1, 2, 3, 64, 255, 256, 257, 513};
    for (size_t k = 0; k < sizeof sel_n / sizeof sel_n[0]; k++) select_last_bit_cleared(sel_n[k]);
    rsv_guard_set_case("ef select finished");
    gp_check(g_select_cases == 8, "ran %u select cases, expected 8", g_select_cases);
    return gp_report();
}
