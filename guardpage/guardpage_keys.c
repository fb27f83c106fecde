/* Byte-string key helpers on guard-flush keys (KV03.md §1.1, §2.1; CODES.md
 * §1.2 A1 for their loads): rsv_key_compare, rsv_key_lcp_bits and
 * rsv_put_key_fc read only the bytes [0, n) of each key.
 *
 * Each pair (a, b), |a| and |b| in 0..24, is placed four ways: a flush
 * after a PROT_NONE page (a[-1] faults) or flush before one (a[n] faults),
 * b likewise. b is a copy of a with its first difference at every bit of
 * every shared byte (one bit flipped), or a's prefix, or a's extension, or
 * equal. A load before a key's first byte or after its last faults in one
 * of the placements (a word compare that strays, e.g. to a - 8 once the
 * first 8 bytes agree, faults with a flush after the guard).
 * Expected values are computed here one bit at a time: the sign of the
 * first differing byte or the length order (§1.1), the lcp in bits, and the
 * bits EG0(8|P| − kept) ‖ EG0(8|K| − kept) ‖ K[kept, 8|K|) with EG0(v) =
 * bitlen(v + 1) − 1 zeros then v + 1 in binary (CODES.md §3). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gp_pair.h"
#include "guardpage.h"
#include "reservoir/record.h"
#include "reservoir/writer.h"

#define MAXK 24

static unsigned g_cases;

static unsigned bit_of(const uint8_t *p, uint64_t i)
{
    return (p[i / 8] >> (7 - i % 8)) & 1u;
}

static uint64_t naive_lcp(const uint8_t *a, size_t na, const uint8_t *b, size_t nb)
{
    uint64_t n = 8 * (uint64_t)(na < nb ? na : nb), i = 0;
    while (i < n && bit_of(a, i) == bit_of(b, i)) i++;
    return i;
}

static int naive_compare(const uint8_t *a, size_t na, const uint8_t *b, size_t nb)
{
    for (size_t i = 0; i < na && i < nb; i++)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return na < nb ? -1 : na > nb;
}

static int sign(int c)
{
    return (c > 0) - (c < 0);
}

/* Append EG0(v) to bits[*n...]. */
static void eg0(unsigned char *bits, size_t *n, uint64_t v)
{
    unsigned len = 0;
    for (uint64_t x = v + 1; x; x >>= 1) len++;
    for (unsigned i = 1; i < len; i++) bits[(*n)++] = 0;
    for (unsigned i = len; i-- > 0;) bits[(*n)++] = (unsigned char)(((v + 1) >> i) & 1);
}

/* One placement of the pair: a, b copied into guard buffers (head or tail). */
static void place(const uint8_t *ka, size_t na, const uint8_t *kb, size_t nb, int a_head, int b_head)
{
    rsv_guard_buf ga, gb;
    rsv_guard_set_case("keys |a|=%zu |b|=%zu a %s b %s", na, nb, a_head ? "head" : "tail", b_head ? "head" : "tail");
    if ((a_head ? rsv_guard_head(&ga, na) : rsv_guard_tail(&ga, na)) != 0) {
        gp_check(0, "could not map a");
        return;
    }
    if ((b_head ? rsv_guard_head(&gb, nb) : rsv_guard_tail(&gb, nb)) != 0) {
        gp_check(0, "could not map b");
        rsv_guard_release(&ga);
        return;
    }
    if (na) memcpy(ga.ptr, ka, na);
    if (nb) memcpy(gb.ptr, kb, nb);
    rsv_guard_readonly(&ga);
    rsv_guard_readonly(&gb);
    const uint8_t *a = ga.ptr, *b = gb.ptr;

    int want_c = naive_compare(ka, na, kb, nb);
    gp_check(sign(rsv_key_compare(a, na, b, nb)) == want_c, "compare(a, b) sign, want %d", want_c);
    gp_check(sign(rsv_key_compare(b, nb, a, na)) == -want_c, "compare(b, a) sign, want %d", -want_c);
    uint64_t want_l = naive_lcp(ka, na, kb, nb);
    uint64_t l = rsv_key_lcp_bits(a, na, b, nb), l2 = rsv_key_lcp_bits(b, nb, a, na);
    gp_check(l == want_l && l2 == want_l, "lcp %" PRIu64 " / %" PRIu64 ", want %" PRIu64, l, l2, want_l);

    /* rsv_put_key_fc(prev = a, key = b) after 3 bits already in the writer */
    unsigned char want[2 * 80 + 8 * MAXK + 8];
    size_t nw = 0;
    uint64_t bk = 8 * (uint64_t)na - want_l, s = 8 * (uint64_t)nb - want_l;
    eg0(want, &nw, bk);
    eg0(want, &nw, s);
    for (uint64_t i = want_l; i < 8 * (uint64_t)nb; i++) want[nw++] = (unsigned char)bit_of(kb, i);
    rsv_writer w;
    rsv_writer_init(&w);
    rsv_put(&w, 5, 3);
    rsv_status st = rsv_put_key_fc(&w, a, na, b, nb);
    gp_check(st == RSV_OK, "rsv_put_key_fc: %d", (int)st);
    gp_check(rsv_writer_bits(&w) == 3 + nw, "rsv_put_key_fc wrote %" PRIu64 " bits, want %zu",
             rsv_writer_bits(&w) - 3, nw);
    if (st == RSV_OK && rsv_writer_bits(&w) == 3 + nw) {
        const uint8_t *d = rsv_writer_data(&w);
        size_t bad = nw;
        for (size_t i = 0; i < nw && bad == nw; i++)
            if (bit_of(d, 3 + i) != want[i]) bad = i;
        gp_check(bad == nw, "rsv_put_key_fc bit %zu differs", bad);
    }
    rsv_writer_free(&w);
    rsv_guard_release(&ga);
    rsv_guard_release(&gb);
}

static void pair(const uint8_t *a, size_t na, const uint8_t *b, size_t nb)
{
    for (int m = 0; m < 4; m++) place(a, na, b, nb, m & 1, m >> 1);
    g_cases++;
}

int main(void)
{
    rsv_guard_install_fault_handler(); /* after the sanitizer runtime's init */
    uint8_t a[MAXK], b[MAXK];
    for (size_t na = 0; na <= MAXK; na++) {
        for (size_t i = 0; i < na; i++) a[i] = (uint8_t)(0x41 + 7 * i);
        /* b = a with bit t of byte d flipped: the first difference at every bit */
        for (size_t d = 0; d < na; d++)
            for (unsigned t = 0; t < 8; t++) {
                memcpy(b, a, na);
                b[d] = (uint8_t)(a[d] ^ (0x80u >> t));
                pair(a, na, b, na);
            }
        /* b = a's prefix of every length, and a = b's prefix (the swap) */
        for (size_t nb = 0; nb < na; nb++) pair(a, na, a, nb);
        /* b = a extended by one to three bytes; b = a */
        for (size_t e = 1; e <= 3 && na + e <= MAXK; e++) {
            memcpy(b, a, na);
            memset(b + na, 0x5A, e);
            pair(a, na, b, na + e);
        }
        pair(a, na, a, na);
    }
    rsv_guard_set_case("keys sweep finished");
    /* flips: sum over na of 8 na = 8 * 300; prefixes: 300; extensions: 3 per na
     * for na <= 21, then 2, 1, 0; equal: 25 */
    unsigned want = 8 * 300 + 300 + (3 * 22 + 2 + 1) + 25;
    gp_check(g_cases == want, "ran %u pairs, expected %u", g_cases, want);
    return gp_report();
}
