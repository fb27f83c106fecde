/* The writer and rsv_view_bit_equal on guard-flush views (CODES.md §1.2 A1
 * for the loads of rsv_put_view / rsv_view_bit_equal; §6.2 for the writer).
 *
 * For views ending at the last byte before a PROT_NONE page (1-40 bytes x
 * off 0-7 x unused tail bits 0-7 x fills 0x00/0xFF/random):
 *  - rsv_put_view into a growable writer holding 0 or 3 bits appends exactly
 *    the view's bits (expected bits read one at a time by the oracle) and
 *    leaves the unused low bits of the last byte zero;
 *  - rsv_put_view of the last 1..72 bits (a take near the guard);
 *  - rsv_view_bit_equal between the view and its copy is 1, and 0 once the
 *    copy's first or last bit is flipped (both argument orders);
 *  - a fixed writer whose own buffer is flush against a guard page receives
 *    the view exactly filling it; one more bit is accepted only while it fits
 *    in the buffer, otherwise rejected with RSV_ERR_TOO_LARGE, contents kept.
 *  - rsv_put_bytes from a guard-flush byte buffer at an unaligned position;
 *  - rsv_put_bytes of 1..80 bytes after 1..7 bits into a fixed writer whose
 *    buffer they fill exactly, flush against a guard page: the 8-byte
 *    stores of the word-at-a-time copy must not run past the buffer (the
 *    copy is taken only with 8 bytes of slack after the last byte written),
 *    and one more byte is rejected with RSV_ERR_TOO_LARGE, contents kept. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp_pair.h"
#include "guardpage.h"
#include "reservoir/oracle.h"
#include "reservoir/reader.h"
#include "reservoir/writer.h"
#include "testutil.h"

#define MAX_BYTES 40
#define MAX_BITS (8 * MAX_BYTES + 8)

/* The view's bits, one oracle read(1) each (independent of the codec). */
static void oracle_bits(rsv_view v, unsigned char *bits)
{
    for (uint64_t i = 0; i < v.len; i++) bits[i] = (unsigned char)rsv_oracle_read(v, i, 1).value;
}

/* Writer bits [at, at + n) equal `bits`, bits before `at` equal the prefix
 * `101` pattern, and the unused low bits of the last byte are zero. */
static int writer_holds(const rsv_writer *w, uint64_t at, const unsigned char *bits, uint64_t n)
{
    const uint8_t *buf = rsv_writer_data(w);
    if (rsv_writer_bits(w) != at + n) return 0;
    for (uint64_t i = 0; i < at; i++)
        if (rsv_get_bit(buf, i) != (unsigned)(i % 2 == 0)) return 0;
    for (uint64_t i = 0; i < n; i++)
        if (rsv_get_bit(buf, at + i) != bits[i]) return 0;
    for (uint64_t i = at + n; i % 8 != 0; i++)
        if (rsv_get_bit(buf, i) != 0) return 0;
    return 1;
}

static void put_prefix(rsv_writer *w, unsigned pre)
{
    /* `101` for pre = 3, nothing for pre = 0 */
    if (pre) rsv_put(w, 5, 3);
}

static void growable(rsv_view v, const unsigned char *bits, unsigned pre)
{
    rsv_writer w;
    rsv_writer_init(&w);
    put_prefix(&w, pre);
    rsv_status st = rsv_put_view(&w, v);
    gp_check(st == RSV_OK && writer_holds(&w, pre, bits, v.len),
             "put_view after %u bits: %s, %" PRIu64 " bits, contents %s", pre,
             rsv_status_name((int)st), rsv_writer_bits(&w),
             writer_holds(&w, pre, bits, v.len) ? "ok" : "wrong");

    /* bit_equal against the copy; the expected 1 rests on the oracle's bits
     * having been checked equal just above. */
    rsv_view copy = rsv_view_make(rsv_writer_data(&w), pre, v.len);
    gp_check(rsv_view_bit_equal(v, copy) == 1 && rsv_view_bit_equal(copy, v) == 1,
             "bit_equal(view, its copy) != 1");
    uint8_t *buf = w.buf;
    for (int which = 0; which < 2; which++) {
        uint64_t i = pre + (which ? v.len - 1 : 0);
        buf[i / 8] ^= (uint8_t)(0x80u >> (i % 8));
        gp_check(rsv_view_bit_equal(v, copy) == 0 && rsv_view_bit_equal(copy, v) == 0,
                 "bit_equal(view, copy with bit %" PRIu64 " flipped) != 0", i - pre);
        buf[i / 8] ^= (uint8_t)(0x80u >> (i % 8));
    }
    rsv_writer_free(&w);

    /* The last j bits, taken by a reader (no load) and appended: the copy's
     * final load is the guard-adjacent byte. */
    uint64_t jmax = v.len < 72 ? v.len : 72;
    for (uint64_t j = 1; j <= jmax; j++) {
        rsv_reader r;
        rsv_reader_init(&r, v);
        rsv_view sub;
        rsv_skip(&r, v.len - j);
        if (rsv_take(&r, j, &sub) != RSV_OK) {
            gp_check(0, "take(%" PRIu64 ") of the last bits failed", j);
            continue;
        }
        rsv_writer_init(&w);
        put_prefix(&w, pre);
        st = rsv_put_view(&w, sub);
        gp_check(st == RSV_OK && writer_holds(&w, pre, bits + (v.len - j), j),
                 "put_view(last %" PRIu64 " bits) after %u bits: %s", j, pre,
                 rsv_status_name((int)st));
        rsv_writer_free(&w);
    }
}

/* A fixed writer over an nbytes buffer that ends flush against its own
 * guard page, filled with 0xEE (the writer must clear what it does not
 * set). 0 (a failed check) when the mapping fails. */
static int fixed_writer_at_guard(rsv_guard_buf *wg, rsv_writer *w, size_t nbytes)
{
    if (rsv_guard_tail(wg, nbytes) != 0) {
        gp_check(0, "could not map the writer's buffer");
        return 0;
    }
    memset(wg->ptr, 0xEE, nbytes);
    rsv_writer_init_fixed(w, wg->ptr, nbytes);
    return 1;
}

/* A fixed writer whose buffer ends flush against its own guard page. */
static void fixed_flush(rsv_view v, const unsigned char *bits, unsigned pre)
{
    uint64_t total = pre + v.len;
    size_t nbytes = (size_t)((total + 7) / 8);
    rsv_guard_buf wg;
    rsv_writer w;
    if (!fixed_writer_at_guard(&wg, &w, nbytes)) return;
    put_prefix(&w, pre);
    rsv_status st = rsv_put_view(&w, v);
    gp_check(st == RSV_OK && writer_holds(&w, pre, bits, v.len),
             "fixed writer (%zu bytes) put_view after %u bits: %s", nbytes, pre,
             rsv_status_name((int)st));
    uint8_t before[MAX_BYTES + 2];
    memcpy(before, wg.ptr, nbytes);
    /* One more bit fits iff total + 1 <= 8 * nbytes (§6.2: TOO_LARGE beyond
     * the implementation limit, here the buffer; contents unchanged). */
    int fits = total + 1 <= 8 * (uint64_t)nbytes;
    st = rsv_put(&w, 1, 1);
    gp_check(fits ? st == RSV_OK && rsv_writer_bits(&w) == total + 1
                  : st == RSV_ERR_TOO_LARGE && rsv_writer_bits(&w) == total &&
                        memcmp(before, wg.ptr, nbytes) == 0,
             "fixed writer full at %" PRIu64 "/%zu bits: put(1,1) gave %s", total, 8 * nbytes,
             rsv_status_name((int)st));
    /* The whole view again fits only if it is no longer than the spare bits
     * of the last byte; otherwise it is rejected and nothing changes. */
    uint64_t now = rsv_writer_bits(&w);
    fits = now + v.len <= 8 * (uint64_t)nbytes;
    memcpy(before, wg.ptr, nbytes);
    st = rsv_put_view(&w, v);
    gp_check(fits ? st == RSV_OK : st == RSV_ERR_TOO_LARGE && rsv_writer_bits(&w) == now &&
                                       memcmp(before, wg.ptr, nbytes) == 0,
             "fixed writer at %" PRIu64 "/%zu bits: put_view(%" PRIu64 " bits) gave %s", now,
             8 * nbytes, v.len, rsv_status_name((int)st));
    rsv_guard_release(&wg);
}

static void put_bytes_flush(const rsv_guard_buf *g)
{
    for (unsigned pre = 0; pre < 8; pre++) {
        rsv_writer w;
        rsv_writer_init(&w);
        for (unsigned i = 0; i < pre; i++) rsv_put(&w, 0, 1);
        rsv_status st = rsv_put_bytes(&w, g->ptr, g->len);
        int ok = st == RSV_OK && rsv_writer_bits(&w) == pre + 8 * (uint64_t)g->len;
        for (size_t i = 0; ok && i < 8 * g->len; i++)
            ok = rsv_get_bit(rsv_writer_data(&w), pre + i) == rsv_get_bit(g->ptr, i);
        gp_check(ok, "put_bytes(%zu flush bytes) after %u bits: %s", g->len, pre,
                 rsv_status_name((int)st));
        rsv_writer_free(&w);
    }
}

/* rsv_put_bytes into a fixed writer flush against a guard page, at an
 * unaligned position: the writer's buffer is exactly ceil((pre + 8n) / 8)
 * bytes. Expected bits: the pre zero bits, then the source's bits, read one
 * at a time by the oracle. */
static void put_bytes_fixed_flush(const uint8_t *src, size_t n, unsigned pre)
{
    size_t nbytes = (size_t)((pre + 8 * (uint64_t)n + 7) / 8);
    rsv_guard_buf wg;
    rsv_writer w;
    if (!fixed_writer_at_guard(&wg, &w, nbytes)) return;
    for (unsigned i = 0; i < pre; i++) rsv_put(&w, 0, 1);
    rsv_status st = rsv_put_bytes(&w, src, n);
    int ok = st == RSV_OK && rsv_writer_bits(&w) == pre + 8 * (uint64_t)n;
    rsv_view sv = rsv_view_make(src, 0, 8 * (uint64_t)n);
    for (uint64_t i = 0; ok && i < pre + 8 * (uint64_t)n; i++)
        ok = rsv_get_bit(wg.ptr, i) == (i < pre ? 0u : (unsigned)rsv_oracle_read(sv, i - pre, 1).value);
    for (uint64_t i = pre + 8 * (uint64_t)n; ok && i % 8 != 0; i++) ok = rsv_get_bit(wg.ptr, i) == 0;
    gp_check(ok, "fixed writer (%zu bytes): put_bytes(%zu) after %u bits: %s", nbytes, n, pre,
             rsv_status_name((int)st));
    uint8_t before[88];
    memcpy(before, wg.ptr, nbytes);
    uint64_t now = rsv_writer_bits(&w);
    st = rsv_put_bytes(&w, src, 1); /* fewer than 8 bits are left */
    gp_check(st == RSV_ERR_TOO_LARGE && rsv_writer_bits(&w) == now && memcmp(before, wg.ptr, nbytes) == 0,
             "fixed writer full (%zu bytes): put_bytes(1) gave %s", nbytes, rsv_status_name((int)st));
    rsv_guard_release(&wg);
}

int main(void)
{
    rsv_guard_install_fault_handler(); /* after the sanitizer runtime's init */
    static const char *const fills[] = {"0x00", "0xFF", "random"};
    unsigned char bits[MAX_BITS];
    rsv_rng rng = {UINT64_C(0x57524954)};
    uint8_t src[80];
    rsv_rng srng = {UINT64_C(0x50555442)}; /* its own stream: the other cases' fills stay as they were */
    for (size_t i = 0; i < sizeof src; i++) src[i] = (uint8_t)rsv_rng_next(&srng);
    for (size_t n = 1; n <= sizeof src; n++)
        for (unsigned pre = 1; pre < 8; pre++) {
            rsv_guard_set_case("writer: put_bytes of %zu bytes after %u bits, fixed writer flush", n, pre);
            put_bytes_fixed_flush(src, n, pre);
        }
    for (size_t nbytes = 1; nbytes <= MAX_BYTES; nbytes++) {
        for (int f = 0; f < 3; f++) {
            rsv_guard_buf g;
            if (rsv_guard_tail(&g, nbytes) != 0) {
                perror("guardpage: mapping failed");
                return 2;
            }
            for (size_t i = 0; i < nbytes; i++)
                g.ptr[i] = f == 0 ? 0x00 : f == 1 ? 0xFF : (uint8_t)rsv_rng_next(&rng);
            rsv_guard_readonly(&g);
            rsv_guard_set_case("writer: put_bytes of %zu flush bytes, fill=%s", nbytes, fills[f]);
            put_bytes_flush(&g);
            for (uint64_t off = 0; off < 8; off++) {
                for (uint64_t unused = 0; unused < 8; unused++) {
                    if (off + unused >= 8 * nbytes) continue;
                    rsv_view v = rsv_view_make(g.ptr, off, 8 * nbytes - off - unused);
                    oracle_bits(v, bits);
                    for (unsigned pre = 0; pre <= 3; pre += 3) {
                        rsv_guard_set_case("writer: trailing guard, %zu bytes, off=%" PRIu64
                                           ", unused=%" PRIu64 ", fill=%s, %u bits before",
                                           nbytes, off, unused, fills[f], pre);
                        growable(v, bits, pre);
                        fixed_flush(v, bits, pre);
                    }
                }
            }
            rsv_guard_release(&g);
        }
    }
    rsv_guard_set_case("writer: finished");
    return gp_report();
}
