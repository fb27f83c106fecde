/* The word-at-a-time paths of codec/src/bits_fast.h against bit-at-a-time
 * references: rsv_put_view / rsv_put_bytes / rsv_put (which use them when the
 * writer has slack, and the old loops when it has not), and the private
 * compare and copy helpers the merge uses, at every source and destination
 * bit offset 0..7, lengths 0..>128 bits, views flush with the start and the
 * end of exactly-sized heap buffers (ASan reports any byte loaded outside),
 * and fixed writers with and without room for 8-byte stores. Built twice:
 * test_bits_fast_portable compiles this file with RSV_PORTABLE_BITS, where
 * the 64-bit word loop of the long copy runs without the SSE2 loop before
 * it (tests/CMakeLists.txt). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "reservoir/reservoir.h"
#include "splitmix64.h"

#include "../codec/src/bits_fast.h"

static unsigned get_bit(const uint8_t *p, uint64_t i) { return (p[i >> 3] >> (7 - (i & 7))) & 1u; }
static void set_bit(uint8_t *p, uint64_t i, unsigned b)
{
    if (b) p[i >> 3] |= (uint8_t)(0x80u >> (i & 7));
    else p[i >> 3] &= (uint8_t)~(0x80u >> (i & 7));
}

static rsv_rng rng_state = {0x9E3779B97F4A7C15u};
static uint64_t rnd(void) { return rsv_rng_next(&rng_state); }

/* An exactly-sized heap copy of n random bytes (ASan's redzones follow it). */
static uint8_t *random_bytes(size_t n)
{
    uint8_t *p = malloc(n ? n : 1);
    cr_assert(p);
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)rnd();
    return p;
}

/* Writer holding `pre` random bits; returns them in ref (bit string). */
static void prefill(rsv_writer *w, unsigned pre, uint8_t *ref)
{
    for (unsigned i = 0; i < pre; i++) {
        unsigned b = (unsigned)(rnd() & 1);
        cr_assert_eq(rsv_put(w, b, 1), RSV_OK);
        set_bit(ref, i, b);
    }
}

/* Contents and the zero-padding invariant of the last byte. */
static void check_writer(const rsv_writer *w, const uint8_t *ref, uint64_t nbits, const char *what,
                         unsigned a, unsigned b, unsigned c)
{
    cr_assert_eq(rsv_writer_bits(w), nbits, "%s %u/%u/%u: %llu bits", what, a, b, c,
                 (unsigned long long)rsv_writer_bits(w));
    for (uint64_t i = 0; i < nbits; i++)
        cr_assert_eq(get_bit(w->buf, i), get_bit(ref, i), "%s %u/%u/%u: bit %llu", what, a, b, c,
                     (unsigned long long)i);
    for (uint64_t i = nbits; i % 8; i++)
        cr_assert_eq(get_bit(w->buf, i), 0, "%s %u/%u/%u: padding bit %llu", what, a, b, c,
                     (unsigned long long)i);
}

/* put_view: source offset 0..7 (and 13), destination offset 0..7 (and 67),
 * length 0..200; the view ends flush with its buffer, or starts flush with
 * it, and fixed writers get exactly the bytes needed (old loop) or slack. */
Test(bits_fast, put_view_every_offset)
{
    static const unsigned srcoffs[] = {0, 1, 2, 3, 4, 5, 6, 7, 13};
    static const unsigned pres[] = {0, 1, 2, 3, 4, 5, 6, 7, 67};
    for (unsigned so = 0; so < sizeof srcoffs / sizeof *srcoffs; so++)
        for (unsigned len = 0; len <= 200; len++) {
            unsigned off = srcoffs[so];
            size_t nb = (off + len + 7) / 8;
            uint8_t *src = random_bytes(nb + 2);
            for (unsigned flush = 0; flush < 2; flush++) {
                /* flush 0: view ends at the buffer's end; 1: starts at its first byte */
                const uint8_t *base = flush ? src : src + 2;
                rsv_view v = rsv_view_make(base, off, len);
                for (unsigned pi = 0; pi < sizeof pres / sizeof *pres; pi++) {
                    unsigned pre = pres[pi];
                    uint8_t ref[64] = {0};
                    for (int kind = 0; kind < 3; kind++) {
                        /* 0: growable; 1: fixed, exact size; 2: fixed with slack */
                        uint8_t store[64 + 16];
                        memset(store, 0xEE, sizeof store);
                        rsv_writer w;
                        size_t need = (pre + len + 7) / 8;
                        if (kind == 0) rsv_writer_init(&w);
                        else rsv_writer_init_fixed(&w, store, kind == 1 ? need : need + 9);
                        rng_state.s ^= len;
                        prefill(&w, pre, ref);
                        for (unsigned i = 0; i < len; i++) set_bit(ref, pre + i, get_bit(base, off + i));
                        cr_assert_eq(rsv_put_view(&w, v), RSV_OK);
                        check_writer(&w, ref, pre + len, "put_view", off, len, pre * 4 + (unsigned)kind);
                        if (kind == 1)
                            for (size_t i = need; i < sizeof store; i++)
                                cr_assert_eq(store[i], 0xEE, "byte %zu past a fixed buffer written", i);
                        rsv_writer_free(&w);
                    }
                }
            }
            free(src);
        }
}

Test(bits_fast, put_bytes_and_put_every_offset)
{
    for (unsigned pre = 0; pre < 8; pre++) {
        for (size_t n = 0; n <= 40; n++) {
            uint8_t *src = random_bytes(n);
            uint8_t ref[64] = {0};
            rsv_writer w;
            rsv_writer_init(&w);
            prefill(&w, pre, ref);
            for (size_t i = 0; i < 8 * n; i++) set_bit(ref, pre + i, get_bit(src, i));
            cr_assert_eq(rsv_put_bytes(&w, src, n), RSV_OK);
            check_writer(&w, ref, pre + 8 * n, "put_bytes", pre, (unsigned)n, 0);
            rsv_writer_free(&w);
            free(src);
        }
        for (unsigned width = 0; width <= 64; width++) {
            uint8_t ref[64] = {0};
            rsv_writer w;
            rsv_writer_init(&w);
            prefill(&w, pre, ref);
            uint64_t v = width == 64 ? rnd() : rnd() & ((UINT64_C(1) << width) - 1);
            for (unsigned i = 0; i < width; i++) set_bit(ref, pre + i, (unsigned)(v >> (width - 1 - i)) & 1u);
            /* twice: the second lands on the first one's offset */
            cr_assert_eq(rsv_put(&w, v, width), RSV_OK);
            for (unsigned i = 0; i < width; i++)
                set_bit(ref, pre + width + i, (unsigned)(v >> (width - 1 - i)) & 1u);
            cr_assert_eq(rsv_put(&w, v, width), RSV_OK);
            check_writer(&w, ref, pre + 2 * width, "put", pre, width, 0);
            rsv_writer_free(&w);
        }
    }
}

/* rsv__lcp_bits: both sides at offsets 0..7, common prefix 0..len, lengths
 * up to 150, equal strings and proper prefixes; sources exactly sized and
 * the compared range flush with the view's end or start. */
Test(bits_fast, lcp_every_offset)
{
    for (unsigned oa = 0; oa < 8; oa++)
        for (unsigned ob = 0; ob < 8; ob += (oa % 2) + 1)
            for (unsigned la = 0; la <= 150; la += 1 + (la > 70) * 3) {
                unsigned lbs[] = {la, la + 1, la > 0 ? la - 1 : 0, la + 9, 3};
                for (unsigned li = 0; li < 5; li++) {
                    unsigned lb = lbs[li];
                    unsigned m = la < lb ? la : lb;
                    for (unsigned cp = 0; cp <= m; cp += 1 + (m > 64) * 4) {
                        size_t na = (oa + la + 7) / 8, nb = (ob + lb + 7) / 8;
                        uint8_t *a = random_bytes(na), *b = random_bytes(nb);
                        for (unsigned i = 0; i < m; i++) set_bit(b, ob + i, get_bit(a, oa + i));
                        if (cp < m) set_bit(b, ob + cp, !get_bit(a, oa + cp)); /* first difference */
                        uint64_t ref_lcp = cp < m ? cp : m;
                        int ref = cp < m ? (get_bit(a, oa + cp) ? 1 : -1) : (la < lb ? -1 : la > lb);
                        rsv__src sa = {a, rsv__view_lo(oa), rsv__view_hi(oa, la)};
                        rsv__src sb = {b, rsv__view_lo(ob), rsv__view_hi(ob, lb)};
                        uint64_t got = 99;
                        int c = rsv__lcp_bits(sa, oa, la, sb, ob, lb, &got);
                        cr_assert_eq(c < 0 ? -1 : c > 0, ref, "%u %u %u %u %u", oa, ob, la, lb, cp);
                        cr_assert_eq(got, ref_lcp, "%u %u %u %u %u", oa, ob, la, lb, cp);
                        /* the public compare agrees */
                        uint64_t vl = 77;
                        int vc = rsv_view_lcp(rsv_view_make(a, oa, la), rsv_view_make(b, ob, lb), &vl);
                        cr_assert_eq(vc < 0 ? -1 : vc > 0, ref);
                        cr_assert_eq(vl, ref_lcp);
                        free(a);
                        free(b);
                        if (m == 0) break;
                    }
                }
            }
}

/* rsv__copy_bits from the middle of a view: the tail loads back up inside
 * the view (never before its first byte) when fewer than 8 bytes remain. */
Test(bits_fast, copy_from_inside_a_view)
{
    for (unsigned vbeg = 0; vbeg < 8; vbeg++)
        for (unsigned vlen = 0; vlen <= 700; vlen += 1 + (vlen > 140) * 5 + (vlen > 300) * 24) {
            size_t n = (vbeg + vlen + 7) / 8;
            uint8_t *src = random_bytes(n);
            for (unsigned skip = 0; skip <= vlen; skip += 1 + (vlen > 40) * 6)
                for (unsigned d = 0; d < 8; d++) {
                    uint8_t dst[128], ref[128]; /* 8 + 1 + 700 bits and the 8-byte store slack */
                    for (size_t i = 0; i < sizeof dst; i++) dst[i] = ref[i] = (uint8_t)rnd();
                    unsigned len = vlen - skip;
                    for (unsigned i = 0; i < len; i++) set_bit(ref, d + i, get_bit(src, vbeg + skip + i));
                    uint64_t lo = rsv__view_lo(vbeg), hi = rsv__view_hi(vbeg, vlen);
                    uint64_t end = rsv__copy_bits(dst, d, src, vbeg + skip, lo, hi, len);
                    cr_assert_eq(end, d + len);
                    for (unsigned i = 0; i < d + len; i++)
                        cr_assert_eq(get_bit(dst, i), get_bit(ref, i), "vbeg %u vlen %u skip %u d %u bit %u",
                                     vbeg, vlen, skip, d, i);
                    /* the merge writer's accumulator copy (bulk loops from
                     * 128 bits on: 128-bit SSE2 steps, then 64-bit steps),
                     * after d + 1 bits */
                    rsv__acc a = rsv__acc_begin(dst, d);
                    rsv__acc_bits(&a, 1, 1);
                    rsv__acc_copy(&a, src, vbeg + skip, lo, hi, len);
                    cr_assert_eq(rsv__acc_end(&a, dst), d + 1 + len);
                    set_bit(ref, d, 1);
                    for (unsigned i = 0; i < len; i++) set_bit(ref, d + 1 + i, get_bit(src, vbeg + skip + i));
                    for (unsigned i = 0; i < d + 1 + len; i++)
                        cr_assert_eq(get_bit(dst, i), get_bit(ref, i), "acc: vbeg %u vlen %u skip %u d %u bit %u",
                                     vbeg, vlen, skip, d, i);
                }
            free(src);
        }
}

/* Bits [0, n) of x and y equal? (bit-string compare of a reference built bit
 * by bit against the code's output) */
static int same_bits(const uint8_t *x, const uint8_t *y, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        if (get_bit(x, i) != get_bit(y, i)) return 0;
    return 1;
}

/* Every copy of the library, every length 0..700 bits x every source bit
 * offset 0..7 x every destination bit offset 0..7, against a bit-at-a-time
 * reference. The source view is its exactly-sized heap buffer's whole byte
 * range (ASan reports a load of the byte after it, or before it), and the
 * window passed is that view's, rsv__view_lo/rsv__view_hi:
 *  - rsv__copy_bits and rsv__acc_copy (after one accumulated bit, so the
 *    bulk and SSE2 loops start at every accumulator offset) write exactly
 *    the source bits after the kept destination bits; rsv__acc_copy also
 *    from a copy of the source whose window runs 16 bytes past the view;
 *  - rsv__key_store (lengths ending on a byte boundary of the destination)
 *    keeps the destination's first bits and stores the literal after them;
 *    rsv__key_greater agrees with a bit-at-a-time order of that key against
 *    the old one, for an equal old key and one with the last or first
 *    literal bit flipped;
 *  - rsv__copy_bytes (whole-byte lengths) copies the bytes. */
Test(bits_fast, every_copy_every_length_and_offset)
{
    unsigned cases = 0;
    for (unsigned len = 0; len <= 700; len++)
        for (unsigned so = 0; so < 8; so++) {
            size_t n = (so + len + 7) / 8;
            uint8_t *src = random_bytes(n), *wide = random_bytes(n + 16);
            uint64_t lo = rsv__view_lo(so), hi = rsv__view_hi(so, len);
            memcpy(wide, src, n); /* the same view inside a window 16 bytes longer */
            for (unsigned d = 0; d < 8; d++) {
                uint8_t dst[100], ref[100]; /* 8 + 1 + 700 bits and 8 bytes of store slack */
                for (size_t i = 0; i < sizeof dst; i++) dst[i] = ref[i] = (uint8_t)rnd();
                for (unsigned i = 0; i < len; i++) set_bit(ref, d + i, get_bit(src, so + i));
                cr_assert_eq(rsv__copy_bits(dst, d, src, so, lo, hi, len), d + len);
                cr_assert(same_bits(dst, ref, d + len), "copy_bits len %u so %u d %u", len, so, d);

                rsv__acc a = rsv__acc_begin(dst, d);
                rsv__acc_bits(&a, 1, 1);
                rsv__acc_copy(&a, src, so, lo, hi, len);
                cr_assert_eq(rsv__acc_end(&a, dst), d + 1 + len);
                set_bit(ref, d, 1);
                for (unsigned i = 0; i < len; i++) set_bit(ref, d + 1 + i, get_bit(src, so + i));
                cr_assert(same_bits(dst, ref, d + 1 + len), "acc_copy len %u so %u d %u", len, so, d);
                /* the same copy from a window 16 bytes longer than the view:
                 * the bulk loops must still stop at len (their step counts
                 * are clamped by the window only when it is short) */
                for (size_t i = 0; i < sizeof dst; i++) dst[i] = (uint8_t)~ref[i]; /* every bit from d on must be written */
                for (unsigned i = 0; i < d; i++) set_bit(dst, i, get_bit(ref, i));
                a = rsv__acc_begin(dst, d);
                rsv__acc_bits(&a, 1, 1);
                rsv__acc_copy(&a, wide, so, lo, hi + 16, len);
                cr_assert_eq(rsv__acc_end(&a, dst), d + 1 + len);
                cr_assert(same_bits(dst, ref, d + 1 + len), "acc_copy, wide window, len %u so %u d %u", len, so, d);

                if ((d + len) % 8 == 0) { /* a key literal after d inherited bits */
                    uint8_t key[100], old[100];
                    for (size_t i = 0; i < sizeof key; i++) key[i] = (uint8_t)rnd();
                    memcpy(ref, key, sizeof ref);
                    for (unsigned i = 0; i < len; i++) set_bit(ref, d + i, get_bit(src, so + i));
                    memcpy(old, ref, sizeof old);
                    rsv__key_store(key, d, len, src, so, hi);
                    cr_assert(same_bits(key, ref, d + len), "key_store len %u so %u d %u", len, so, d);
                    uint64_t old_len = (d + len) / 8;
                    /* K = old: not greater; flipping a literal bit of old
                     * makes K greater exactly when K's bit is 1 */
                    cr_assert_eq(rsv__key_greater(old, old_len, d, len, src, so, hi), 0);
                    for (unsigned f = 0; f < 2 && len; f++) {
                        uint64_t at = d + (f ? 0 : len - 1);
                        set_bit(old, at, !get_bit(ref, at));
                        cr_assert_eq(rsv__key_greater(old, old_len, d, len, src, so, hi), (int)get_bit(ref, at),
                                     "key_greater len %u so %u d %u flip %llu", len, so, d, (unsigned long long)at);
                        set_bit(old, at, get_bit(ref, at));
                    }
                    /* a one-byte-shorter old key is a proper prefix: K greater */
                    if (old_len && len >= 8) cr_assert_eq(rsv__key_greater(old, old_len - 1, d, len, src, so, hi), 1);
                }
                if (d == 0 && len % 8 == 0) {
                    for (size_t i = 0; i < sizeof dst; i++) dst[i] = (uint8_t)rnd();
                    rsv__copy_bytes(dst, src, so, len / 8, hi);
                    for (unsigned i = 0; i < len; i++) set_bit(ref, i, get_bit(src, so + i));
                    cr_assert(same_bits(dst, ref, len), "copy_bytes len %u so %u", len, so);
                }
                cases++;
            }
            free(src);
            free(wide);
        }
    cr_assert_eq(cases, 701u * 8 * 8);
}

#if defined(RSV_LOAD_CHECK) && defined(RSV__HAVE_V128)
#include <signal.h>

/* The load check sees the SSE2 loads too (mem.h rsv__load_v128_in): a
 * 256-bit copy from bit 0 of a 40-byte source into an empty accumulator
 * (no head bits, so no load before the SSE2 loop) makes two SSE2 steps,
 * whose first load is source bytes 0..15; the word loop has nothing left
 * (256 - 2 * 128 = 0 bits) and no tail load follows. Declaring a window
 * that starts at source byte 1 makes that first load out of bounds: the
 * check must abort. No other load of this copy touches byte 0, so without
 * the SSE2 load's check (mem_h.sdl.1f1725a2, the seed-157 sample) nothing
 * aborts and the test fails. Built only with the load check on x86-64. */
Test(bits_fast, load_check_sees_the_sse2_copy_loads, .signal = SIGABRT)
{
    uint8_t *src = random_bytes(40), dst[48];
    rsv__acc a = rsv__acc_begin(dst, 0);
    rsv__load_check_push(src + 1, src + 40);
    rsv__acc_copy(&a, src, 0, 0, 40, 256);
    rsv__load_check_pop();
    free(src);
}

/* The same check covers all 16 bytes of each SSE2 load: a 128-bit copy from
 * a 17-byte source (window [0, 17) passed to the copy) makes one SSE2 step,
 * loading bytes 0..15 and 1..16; byte 16 holds no copied bit but lies in
 * the copy's window, and no other load follows (128 - 128 = 0 bits left).
 * A declared window of bytes 0..15 leaves out only byte 16, the last byte
 * of the second load: the check must abort. A check of 15 bytes per load
 * (mem_h.const.7f26894c) would see bytes 0..15 only, and pass. */
Test(bits_fast, load_check_sees_the_last_byte_of_an_sse2_load, .signal = SIGABRT)
{
    uint8_t *src = random_bytes(17), dst[32];
    rsv__acc a = rsv__acc_begin(dst, 0);
    rsv__load_check_push(src, src + 16);
    rsv__acc_copy(&a, src, 0, 0, 17, 128);
    rsv__load_check_pop();
    free(src);
}
#endif
