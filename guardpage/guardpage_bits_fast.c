/* The word-at-a-time loads of codec/src/bits_fast.h (used by the writer's
 * rsv_put_view / rsv_put_bytes and by the merge) on views flush against
 * PROT_NONE pages (CODES.md §1.2 A1): a view whose last byte is the last
 * readable byte before a guard page, and one whose first byte follows a
 * guard page, 0..64 bytes, bit offsets 0..7 at both ends. For each:
 *  - rsv_put_view into a growable writer (after 0..7 bits), also with the
 *    view's data pointer 64 bytes before its first byte;
 *  - rsv__acc_copy (the merge writer's copy, with its bulk loops: 128-bit
 *    SSE2 steps whose second load ends one byte further, then 64-bit) and
 *    rsv__copy_bits of the view's bits from every start inside it (the tail
 *    loads back up inside the view, never before its first byte);
 *  - rsv__copy_bytes of the whole bytes from every start, rsv__key_store of
 *    the bits from every start after 0..7 inherited bits and rsv__key_greater
 *    of the stored key against the view (the key rebuild's loads), also with
 *    the data pointer 64 bytes before the view's first byte;
 *  - rsv__lcp_bits of the view against an equal copy and against copies with
 *    one bit flipped, from every start.
 * Expected bits come from a bit-at-a-time reference. Any load outside the
 * view faults and fails the test with the case named. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../codec/src/bits_fast.h"
#include "gp_pair.h"
#include "guardpage.h"
#include "reservoir/writer.h"

#define MAX_BYTES 64

static unsigned bit_at(const uint8_t *p, uint64_t i) { return (p[i >> 3] >> (7 - (i & 7))) & 1u; }

static rsv_rng rng = {0x2545F4914F6CDD1Du};
static uint8_t rnd8(void) { return (uint8_t)rsv_rng_next(&rng); }

/* One view [off, off + len) of data (flush with a guard on one side). */
static void check_view(const uint8_t *data, uint64_t off, uint64_t len, const char *side)
{
    /* put_view after 0..7 bits; then the same view with its data pointer 64
     * bytes before its first byte (off + 512, a view taken from a larger
     * buffer): the copy's window is the view's own bytes either way
     * (rsv__view_lo/hi of the offset), so behind a head guard a tail load
     * that backs up before the first byte faults */
    for (unsigned back = 0; back < 2; back++)
        for (unsigned pre = 0; pre < 8; pre++) {
            const uint8_t *vd = back ? data - 64 : data;
            uint64_t vo = back ? 512 + off : off;
            rsv_guard_set_case("%s: put_view off %" PRIu64 " len %" PRIu64 " after %u bits%s", side, off, len, pre,
                               back ? ", data pointer 64 bytes back" : "");
            rsv_writer w;
            rsv_writer_init(&w);
            int ok = pre == 0 || rsv_put(&w, 0, pre) == RSV_OK;
            ok = ok && rsv_put_view(&w, rsv_view_make(vd, vo, len)) == RSV_OK && rsv_writer_bits(&w) == pre + len;
            for (uint64_t i = 0; ok && i < len; i++) ok = bit_at(w.buf, pre + i) == bit_at(data, off + i);
            gp_check(ok, "%s: put_view off %" PRIu64 " len %" PRIu64 " after %u bits%s", side, off, len, pre,
                     back ? ", data pointer 64 bytes back" : "");
            rsv_writer_free(&w);
        }
    /* copies and compares from every start inside the view */
    static uint8_t dst[MAX_BYTES + 32], other[MAX_BYTES + 8];
    for (uint64_t skip = 0; skip <= len; skip++) {
        uint64_t n = len - skip;
        unsigned d = (unsigned)(skip % 8);
        rsv_guard_set_case("%s: acc_copy off %" PRIu64 " len %" PRIu64 " skip %" PRIu64, side, off, len, skip);
        memset(dst, 0xA5, sizeof dst);
        rsv__acc a = rsv__acc_begin(dst, d);
        rsv__acc_bits(&a, 1, 1);
        rsv__acc_copy(&a, data, off + skip, rsv__view_lo(off), rsv__view_hi(off, len), n);
        uint64_t end = rsv__acc_end(&a, dst);
        int ok = end == d + 1 + n && bit_at(dst, d) == 1;
        for (uint64_t i = 0; ok && i < n; i++) ok = bit_at(dst, d + 1 + i) == bit_at(data, off + skip + i);
        gp_check(ok, "%s: acc_copy off %" PRIu64 " len %" PRIu64 " skip %" PRIu64, side, off, len, skip);

        rsv_guard_set_case("%s: copy_bits off %" PRIu64 " len %" PRIu64 " skip %" PRIu64, side, off, len, skip);
        end = rsv__copy_bits(dst, d, data, off + skip, rsv__view_lo(off), rsv__view_hi(off, len), n);
        ok = end == d + n;
        for (uint64_t i = 0; ok && i < n; i++) ok = bit_at(dst, d + i) == bit_at(data, off + skip + i);
        gp_check(ok, "%s: copy_bits off %" PRIu64 " len %" PRIu64 " skip %" PRIu64, side, off, len, skip);

        /* the key rebuild's copies: the whole bytes from off + skip, and the
         * bits stored as a key literal after u inherited bits (u + n a whole
         * number of bytes), then compared with that key */
        rsv_guard_set_case("%s: copy_bytes off %" PRIu64 " len %" PRIu64 " skip %" PRIu64, side, off, len, skip);
        uint64_t hi = rsv__view_hi(off, len);
        rsv__copy_bytes(dst, data, off + skip, n / 8, hi);
        ok = 1;
        for (uint64_t i = 0; ok && i < n / 8 * 8; i++) ok = bit_at(dst, i) == bit_at(data, off + skip + i);
        gp_check(ok, "%s: copy_bytes off %" PRIu64 " len %" PRIu64 " skip %" PRIu64, side, off, len, skip);
        rsv_guard_set_case("%s: key_store off %" PRIu64 " len %" PRIu64 " skip %" PRIu64, side, off, len, skip);
        unsigned u = (unsigned)((8 - n % 8) % 8);
        memset(dst, 0x5A, sizeof dst);
        rsv__key_store(dst, u, n, data, off + skip, hi);
        ok = (dst[0] >> (8 - u)) == (0x5A >> (8 - u)) || u == 0;
        for (uint64_t i = 0; ok && i < n; i++) ok = bit_at(dst, u + i) == bit_at(data, off + skip + i);
        ok = ok && rsv__key_greater(dst, (u + n) / 8, u, n, data, off + skip, hi) == 0;
        gp_check(ok, "%s: key_store/key_greater off %" PRIu64 " len %" PRIu64 " skip %" PRIu64, side, off, len,
                 skip);
        /* the same compare with the view's data pointer 64 bytes before its
         * first byte (a view (p, off) with off >= 512, as callers pass the
         * stream's data pointer and a bit offset): the window is still
         * [first byte of the literal, hi), so nothing before `data` is read
         * (A4); behind a head guard a load that backs up further faults */
        rsv_guard_set_case("%s: key_greater, data pointer 64 bytes back, off %" PRIu64 " len %" PRIu64
                           " skip %" PRIu64, side, off, len, skip);
        ok = rsv__key_greater(dst, (u + n) / 8, u, n, data - 64, 512 + off + skip, 64 + hi) == 0;
        gp_check(ok, "%s: key_greater, data pointer 64 bytes back, off %" PRIu64 " len %" PRIu64 " skip %" PRIu64,
                 side, off, len, skip);

        /* other = the same bits at offset 3; then flip one bit at a time */
        rsv_guard_set_case("%s: lcp off %" PRIu64 " len %" PRIu64 " skip %" PRIu64, side, off, len, skip);
        memset(other, 0, sizeof other);
        for (uint64_t i = 0; i < n; i++)
            if (bit_at(data, off + skip + i)) other[(3 + i) >> 3] |= (uint8_t)(0x80u >> ((3 + i) & 7));
        rsv__src sv = {data, rsv__view_lo(off), rsv__view_hi(off, len)}, so = {other, 0, rsv__view_hi(3, n)};
        uint64_t lcp = 99;
        int c = rsv__lcp_bits(sv, off + skip, n, so, 3, n, &lcp);
        gp_check(c == 0 && lcp == n, "%s: lcp equal off %" PRIu64 " len %" PRIu64 " skip %" PRIu64, side, off,
                 len, skip);
        for (uint64_t f = 0; f < n; f += 1 + n / 16) {
            other[(3 + f) >> 3] ^= (uint8_t)(0x80u >> ((3 + f) & 7));
            c = rsv__lcp_bits(sv, off + skip, n, so, 3, n, &lcp);
            int want = bit_at(data, off + skip + f) ? 1 : -1;
            gp_check((c < 0 ? -1 : 1) == want && lcp == f, "%s: lcp flip %" PRIu64 " off %" PRIu64 " len %" PRIu64,
                     side, f, off, len);
            other[(3 + f) >> 3] ^= (uint8_t)(0x80u >> ((3 + f) & 7));
        }
    }
}

int main(void)
{
    rsv_guard_install_fault_handler();
    for (unsigned nbytes = 0; nbytes <= MAX_BYTES; nbytes++)
        for (int head = 0; head < 2; head++) {
            rsv_guard_buf g;
            int r = head ? rsv_guard_head(&g, nbytes) : rsv_guard_tail(&g, nbytes);
            if (r != 0) {
                perror("guard buffer");
                return 2;
            }
            for (unsigned i = 0; i < nbytes; i++) g.ptr[i] = rnd8();
            if (rsv_guard_readonly(&g) != 0) {
                perror("mprotect");
                return 2;
            }
            /* bit offsets 0..7 at the start and 0..7 unused bits at the end */
            for (unsigned lo = 0; nbytes && lo < 8; lo++)
                for (unsigned hi = 0; hi < 8; hi++) {
                    if (8 * (uint64_t)nbytes < (uint64_t)lo + hi) continue;
                    uint64_t len = 8 * (uint64_t)nbytes - lo - hi;
                    if (nbytes > 1 && (lo + hi == 8 * nbytes || len == 0)) continue;
                    check_view(g.ptr, lo, len, head ? "head guard" : "tail guard");
                }
            rsv_guard_release(&g);
        }
    return gp_report();
}
