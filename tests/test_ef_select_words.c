/* rsv_ef_select after the broadword select-in-word and the hardware
 * popcount dispatch (codec/src/ef_select.c): monotone sequences whose high
 * words hold anywhere from one to 64 set bits (gaps 0..2^g for g = 0..20,
 * runs of equal values), so the target bit sits in every byte of a word at
 * every rank; every entry selected and compared with the input. Then
 * damaged sections, each failure compared with the oracle. In every test
 * the four sections lie at an odd offset (1..7, by n) with an 8-byte gap
 * between them, and in RSV_LOAD_CHECK builds each select may load only the
 * sections' bytes (load_window.h): a load one byte or one word past a
 * section, or from an address rounded down to 8, is caught, not just a
 * wrong value. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "reservoir/ef.h"
#include "reservoir/oracle_kv03.h"
#include "../codec/src/ef_select.h" /* rsv__ef_select_portable (private) */
#include "load_window.h"
#include "testutil.h"

/* One encoded EF, its four sections (low, high, samples, sparse) at an odd
 * offset (1..7, by n) in one zeroed buffer with an 8-byte gap before and
 * after each, with the codec's and the oracle's views of the same bytes, so
 * a test can damage a section and compare both. The gaps matter: a load one
 * word past the high or the sparse section would otherwise read the next
 * section's bytes, inside the window sel() declares. The oracle view takes n
 * and U = v[n - 1] from the input and L from the plan: the tests that depend
 * on L check it against a hand-computed value. */
typedef struct {
    rsv_ef_layout lay;
    uint8_t *buf, *lo, *hi, *sa, *sp;
    rsv_ef ef;
    rsv_oracle_ef_view ov;
} encoded_ef;

static void encode_ef(encoded_ef *e, const uint64_t *v, uint64_t n)
{
    cr_assert_eq(rsv_ef_plan(v, n, &e->lay), RSV_OK);
    const rsv_ef_layout *lay = &e->lay;
    uint64_t total = lay->low_bytes + lay->high_bytes + lay->samples_bytes + lay->sparse_bytes;
    size_t off = 1 + (size_t)(n % 7), gap = 8;
    uint8_t *sec = malloc((size_t)total);
    e->buf = calloc(1, (size_t)total + off + 4 * gap);
    cr_assert(sec && e->buf);
    rsv_ef_encode(v, lay, sec);
    e->lo = e->buf + off;
    e->hi = e->lo + lay->low_bytes + gap;
    e->sa = e->hi + lay->high_bytes + gap;
    e->sp = e->sa + lay->samples_bytes + gap;
    memcpy(e->lo, sec, (size_t)lay->low_bytes);
    memcpy(e->hi, sec + lay->low_bytes, (size_t)lay->high_bytes);
    memcpy(e->sa, sec + lay->low_bytes + lay->high_bytes, (size_t)lay->samples_bytes);
    memcpy(e->sp, sec + lay->low_bytes + lay->high_bytes + lay->samples_bytes, (size_t)lay->sparse_bytes);
    free(sec);
    rsv_ef_init(&e->ef, lay, e->lo, e->hi, e->sa, e->sp, lay->sparse_bytes);
    e->ov = (rsv_oracle_ef_view){.n = n, .U = v[n - 1], .L = lay->L,
                                 .low = e->lo, .low_len = lay->low_bytes,
                                 .high = e->hi, .high_len = lay->high_bytes,
                                 .samples = e->sa, .samples_len = lay->samples_bytes,
                                 .sparse = e->sp, .sparse_len = lay->sparse_bytes};
}

/* select(i) (the dispatched path, or the portable-popcount one) with a load
 * window of exactly the four sections' bytes in RSV_LOAD_CHECK builds. */
static rsv_status sel_path(const encoded_ef *e, uint64_t i, uint64_t *x, int portable)
{
    const rsv_ef_layout *lay = &e->lay;
    rsv_lw_bytes(e->lo, (size_t)lay->low_bytes);
    rsv_lw_also_view(rsv_view_make(e->hi, 0, 8 * lay->high_bytes));
    rsv_lw_also_view(rsv_view_make(e->sa, 0, 8 * lay->samples_bytes));
    rsv_lw_also_view(rsv_view_make(e->sp, 0, 8 * lay->sparse_bytes));
    rsv_status st = portable ? rsv__ef_select_portable(&e->ef, i, x) : rsv_ef_select(&e->ef, i, x);
    rsv_lw_end();
    return st;
}
static rsv_status sel(const encoded_ef *e, uint64_t i, uint64_t *x) { return sel_path(e, i, x, 0); }
static rsv_status sel_portable(const encoded_ef *e, uint64_t i, uint64_t *x) { return sel_path(e, i, x, 1); }

static void check_all(const uint64_t *v, uint64_t n)
{
    encoded_ef e;
    encode_ef(&e, v, n);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t x = ~v[i];
        rsv_status st = sel(&e, i, &x);
        cr_assert_eq(st, RSV_OK, "i=%llu", (unsigned long long)i);
        cr_assert_eq(x, v[i], "i=%llu of %llu", (unsigned long long)i, (unsigned long long)n);
        x = ~v[i]; /* the portable popcount path, unreachable through the dispatch on a POPCNT CPU */
        st = sel_portable(&e, i, &x);
        cr_assert_eq(st, RSV_OK, "portable i=%llu", (unsigned long long)i);
        cr_assert_eq(x, v[i], "portable i=%llu of %llu", (unsigned long long)i, (unsigned long long)n);
    }
    free(e.buf);
}

Test(ef_select_words, every_density)
{
    rsv_rng g = {0xEF5E1};
    uint64_t *v = malloc(5000 * sizeof *v);
    for (unsigned gb = 0; gb <= 20; gb++)
        for (int round = 0; round < 6; round++) {
            uint64_t n = 1 + rsv_rng_below(&g, 5000), x = rsv_rng_below(&g, 100);
            for (uint64_t i = 0; i < n; i++) {
                if (round % 3 == 2 && rsv_rng_below(&g, 4) == 0) { /* runs of equal entries */
                    v[i] = x;
                    continue;
                }
                x += rsv_rng_below(&g, (UINT64_C(1) << gb) + 1);
                v[i] = x;
            }
            check_all(v, n);
        }
    free(v);
}

/* A dense group at the §4 limit: last - first = 4095 (4096 is sparse; see
 * ef_build::sparse_at_exactly_4096). n = 2048, r_0..r_254 = f, r_255.. = U
 * with U = 3840 + f: q = floor(U / 2048) = 1, L = 0, so group 0's first
 * position is f and its last entry's high bit is U + 255 = first + 4095,
 * the farthest a dense select may go. With f = 1 that bit is 4096, the first
 * bit of word 64, which the search loads because 64 * 64 - first = 4095 is
 * still under the limit; with f = 0 it is bit 4095, the last bit of word 63.
 * Every entry is selected (check_all: both popcount paths). */
Test(ef_select_words, dense_group_spanning_4095)
{
    uint64_t *v = malloc(2048 * sizeof *v);
    cr_assert_not_null(v);
    for (uint64_t f = 0; f <= 1; f++) {
        for (uint64_t i = 0; i < 2048; i++) v[i] = i < 255 ? f : 3840 + f;
        encoded_ef e;
        encode_ef(&e, v, 2048);
        cr_assert_eq(e.lay.L, 0);
        cr_assert_eq(e.lay.sparse_bytes, 0, "f %llu: group 0 is dense", (unsigned long long)f);
        uint64_t first = 0, sparse = 0;
        for (int b = 7; b >= 0; b--) first = first << 8 | e.sa[b], sparse = sparse << 8 | e.sa[8 + b];
        cr_assert_eq(first, f);
        cr_assert_eq(sparse, UINT64_MAX);
        uint64_t last = 3840 + f + 255;
        cr_assert_eq((e.hi[last / 8] >> (last % 8)) & 1, 1, "entry 255's high bit at first + 4095");
        free(e.buf);
        check_all(v, 2048);
    }
    free(v);
}

/* The sparse fixture of the tests below (n = 4096): 3840 zeros, then
 * v[i] = (i - 3839) << 20. */
static uint64_t *sparse_fixture(uint64_t n)
{
    uint64_t *v = malloc(n * sizeof *v);
    cr_assert_not_null(v);
    for (uint64_t i = 0; i < n; i++) v[i] = i < 3840 ? 0 : (i - 3839) << 20;
    return v;
}

/* Sparse groups (KV03.md §4): 3840 zeros, then 256 entries spread to 2^28.
 * L = bitlen(2^28 / 4096) - 1 = 16, so the last group's high bits span
 * (2^28 >> 16) + 256 > 4096 positions: it is stored sparse, and selecting
 * its last entry loads the sparse section's last word. */
Test(ef_select_words, sparse_group)
{
    uint64_t n = 4096, *v = sparse_fixture(n);
    rsv_ef_layout lay;
    cr_assert_eq(rsv_ef_plan(v, n, &lay), RSV_OK);
    cr_assert_eq(lay.L, 16);
    cr_assert_eq(lay.sparse_bytes, 8 * 256, "the last group must be sparse (all 256 entries listed)");
    check_all(v, n);
    free(v);
}

/* KV03.md §4: the sparse list comes from the file unchecked, so an entry
 * naming a high-bits position at or past H is EF_CORRUPT (not an ordinal
 * error: the ordinal is in range), and so is one naming a clear bit. */
Test(ef_select_words, sparse_entry_past_h_is_corrupt)
{
    uint64_t n = 4096, *v = sparse_fixture(n);
    encoded_ef e;
    encode_ef(&e, v, n);
    const rsv_ef_layout lay = e.lay;
    uint8_t *hi = e.hi, *sp = e.sp;
    cr_assert_eq(lay.sparse_bytes, 8 * 256);
    uint64_t x;
    cr_assert_eq(sel(&e, 3841, &x), RSV_OK);
    cr_assert_eq(x, v[3841]);
    const uint64_t bad[] = {lay.H, lay.H + 1, UINT64_MAX};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        for (int b = 0; b < 8; b++) sp[8 + b] = (uint8_t)(bad[k] >> (8 * b)); /* entry t = 1, little-endian */
        x = 7;
        cr_assert_eq(sel(&e, 3841, &x), RSV_ERR_EF_CORRUPT, "entry %llu", (unsigned long long)bad[k]);
        cr_assert_eq(x, 7, "no output on failure");
        cr_assert_eq(sel_portable(&e, 3841, &x), RSV_ERR_EF_CORRUPT);
        cr_assert_eq(sel(&e, 3840, &x), RSV_OK, "entry t = 0 untouched");
    }
    /* an entry below H naming a clear high bit: entry 1's own position minus
     * one. Entries 0 and 1 (values 2^20 and 2^21, L = 16) sit at high
     * positions 16 + 3840 = 3856 and 32 + 3841 = 3873; 3857..3872 are clear. */
    uint64_t own = (v[3841] >> lay.L) + 3841, clear = own - 1;
    cr_assert_eq(own, 3873);
    cr_assert_eq((hi[clear / 8] >> (clear % 8)) & 1, 0, "bit %llu must be clear", (unsigned long long)clear);
    for (int b = 0; b < 8; b++) sp[8 + b] = (uint8_t)(clear >> (8 * b));
    x = 7;
    cr_assert_eq(sel(&e, 3841, &x), RSV_ERR_EF_CORRUPT, "a clear bit");
    cr_assert_eq(x, 7, "no output on failure");
    cr_assert_eq(sel_portable(&e, 3841, &x), RSV_ERR_EF_CORRUPT, "a clear bit, portable");
    for (int b = 0; b < 8; b++) sp[8 + b] = (uint8_t)(own >> (8 * b));
    cr_assert_eq(sel(&e, 3841, &x), RSV_OK, "restored");
    cr_assert_eq(x, v[3841]);
    free(e.buf);
    free(v);
}

/* KV03.md §4: a sparse group's sample names where its entries start in
 * section 4, unchecked, and "sparse + t >= count" is EF_CORRUPT. With the
 * fixture above (count = 256, group 15 sparse from entry 0), moving group
 * 15's start to s puts t = 256 - s exactly one entry past the list: select
 * must fail there without loading it (the window ends at section 4's last
 * byte, and an 8-byte gap follows). Every ordinal of the group is compared
 * with the oracle, on both popcount paths. */
Test(ef_select_words, sparse_start_past_the_list_is_corrupt)
{
    uint64_t n = 4096, *v = sparse_fixture(n);
    encoded_ef e;
    encode_ef(&e, v, n);
    cr_assert_eq(e.lay.sparse_bytes, 8 * 256);
    uint8_t *start = e.sa + 16 * 15 + 8; /* group 15's sparse field, little-endian */
    cr_assert_eq(start[0], 0, "group 15 starts at entry 0");
    const uint64_t starts[] = {1, 2, 255, 256, 257, UINT64_MAX - 1};
    for (size_t k = 0; k < sizeof starts / sizeof starts[0]; k++) {
        uint64_t s = starts[k];
        for (int b = 0; b < 8; b++) start[b] = (uint8_t)(s >> (8 * b));
        if (s < 256) {
            uint64_t x = 7, i = 4096 - s; /* t = 256 - s: sparse + t = 256 = count */
            cr_assert_eq(sel(&e, i, &x), RSV_ERR_EF_CORRUPT, "start %llu, t = %llu", (unsigned long long)s,
                         (unsigned long long)(i - 3840));
            cr_assert_eq(sel_portable(&e, i, &x), RSV_ERR_EF_CORRUPT);
            cr_assert_eq(x, 7, "no output on failure");
        }
        for (uint64_t i = 3840; i < n; i++) {
            uint64_t x = 7, y = 7, z = 7;
            rsv_status want = rsv_oracle_ef_select(&e.ov, i, &y);
            cr_assert_eq(sel(&e, i, &x), want, "start %llu, i = %llu", (unsigned long long)s, (unsigned long long)i);
            cr_assert_eq(x, y);
            cr_assert_eq(sel_portable(&e, i, &z), want);
            cr_assert_eq(z, y);
            if (s >= 256 || i - 3840 >= 256 - s) cr_assert_eq(want, RSV_ERR_EF_CORRUPT, "oracle, start %llu, i = %llu",
                                            (unsigned long long)s, (unsigned long long)i);
        }
    }
    free(e.buf);
    free(v);
}

/* KV03.md §4 select: "corrupt if P < i or hi = P − i > U >> L". With U near
 * 2^64 that check is the only one that sees a too-large high part: hi << L
 * wraps, and the later "v > U" test then passes a small v. Hand-computed for
 * r = {0, 2^64 − 1}: L = bitlen(floor(U / 2)) − 1 = 62, U >> L = 3,
 * H = 3 + 2 = 5; the valid high bits are 0 (entry 0) and 3 + 1 = 4 (entry 1).
 * With only bit 4 set, select(0) finds P = 4, hi = 4 > 3: EF_CORRUPT, though
 * (4 << 62) | 0 wraps to 0 <= U. The oracle (rsv_oracle_ef_select) agrees. */
Test(ef_select_words, high_part_past_u_is_corrupt_where_the_value_wraps)
{
    const uint64_t v[2] = {0, UINT64_MAX};
    encoded_ef e;
    encode_ef(&e, v, 2);
    cr_assert_eq(e.lay.L, 62);
    cr_assert_eq(e.lay.H, 5);
    uint8_t *hi = e.hi;
    cr_assert_eq(hi[0], 0x11, "the encoder's high bits 0 and 4");
    const rsv_oracle_ef_view ov = e.ov;
    uint64_t x = 7, y = 7;
    cr_assert_eq(sel(&e, 0, &x), RSV_OK);
    cr_assert_eq(x, 0);
    hi[0] = 0x10; /* only bit 4: entry 0's P = 4 */
    x = 7;
    cr_assert_eq(rsv_oracle_ef_select(&ov, 0, &y), RSV_ERR_EF_CORRUPT);
    cr_assert_eq(sel(&e, 0, &x), RSV_ERR_EF_CORRUPT);
    cr_assert_eq(x, 7, "no output on failure");
    cr_assert_eq(sel_portable(&e, 0, &x), RSV_ERR_EF_CORRUPT);
    free(e.buf);
}

/* KV03.md §4 select of a dense group: "the t-th set bit at or after the
 * sample's first position; corrupt when there is none within 4096 bits, or
 * when it lies at or past H". Each failure of dense_high, hand-built and
 * compared with the oracle (rsv_oracle_ef_select): EF_CORRUPT, not the
 * ordinal status (the ordinal is in range), and no output. */
static void expect_dense_corrupt(const encoded_ef *e, uint64_t i, const char *what)
{
    uint64_t x = 7, y = 7;
    cr_assert_eq(rsv_oracle_ef_select(&e->ov, i, &y), RSV_ERR_EF_CORRUPT, "oracle: %s", what);
    cr_assert_eq(sel(e, i, &x), RSV_ERR_EF_CORRUPT, "%s", what);
    cr_assert_eq(x, 7, "%s: no output on failure", what);
    cr_assert_eq(sel_portable(e, i, &x), RSV_ERR_EF_CORRUPT, "%s, portable", what);
    cr_assert_eq(x, 7, "%s: no output on failure, portable", what);
}

Test(ef_select_words, dense_group_failures_are_corrupt)
{
    /* P >= H. r = {0, 2^64 - 1}: L = 62, H = 5, high bits 0 and 4 (as above).
     * With bits 0 and 5 set, select(1) finds P = 5 = H. */
    {
        const uint64_t v[2] = {0, UINT64_MAX};
        encoded_ef e;
        encode_ef(&e, v, 2);
        cr_assert_eq(e.lay.L, 62);
        cr_assert_eq(e.lay.H, 5);
        e.hi[0] = 0x21;
        expect_dense_corrupt(&e, 1, "t-th set bit at H");
        uint64_t x = 7;
        cr_assert_eq(sel(&e, 0, &x), RSV_OK, "entry 0 untouched");
        cr_assert_eq(x, 0);
        free(e.buf);
    }
    /* P - first >= 4096, and no t-th bit within 4096. r_i = i + 1 for
     * i < 4096: U = 4096, L = bitlen(1) - 1 = 0, H = 8192, entry i's high
     * bit at 2i + 1, group 0's first position 1. Clearing entries 1..2047
     * (bits 3, 5, ..., 4095) leaves bit 4097 (entry 2048) as the second set
     * bit from 1: in word 64, loaded because 64 * 64 - 1 < 4096, and
     * 4097 - 1 = 4096. Clearing entries 2048..2079 as well (word 64's bits)
     * leaves no second bit in words 0..64, and word 65 starts 4159 bits past
     * first: the search stops. A sample's first position that puts P below
     * the ordinal (P < i), or at or past H, is corrupt too. */
    {
        uint64_t n = 4096, *v = malloc(n * sizeof *v);
        for (uint64_t i = 0; i < n; i++) v[i] = i + 1;
        encoded_ef e;
        encode_ef(&e, v, n);
        cr_assert_eq(e.lay.L, 0);
        cr_assert_eq(e.lay.H, 8192);
        cr_assert_eq(e.lay.sparse_bytes, 0);
        uint8_t *hi = e.hi, *sa = e.sa;
        cr_assert_eq(sa[0], 1, "group 0's first position");
            const rsv_oracle_ef_view ov = e.ov;
        for (uint64_t i = 1; i < 2048; i++) {
            uint64_t p = 2 * i + 1;
            cr_assert_eq((hi[p / 8] >> (p % 8)) & 1, 1, "bit %llu set", (unsigned long long)p);
            hi[p / 8] = (uint8_t)(hi[p / 8] & ~(1u << (p % 8)));
        }
        expect_dense_corrupt(&e, 1, "t-th set bit 4096 past first");
        for (uint64_t p = 4097; p < 4160; p += 2) hi[p / 8] = (uint8_t)(hi[p / 8] & ~(1u << (p % 8)));
        expect_dense_corrupt(&e, 1, "no t-th set bit within 4096");
        uint64_t x = 7;
        cr_assert_eq(sel(&e, 0, &x), RSV_OK, "entry 0 untouched");
        cr_assert_eq(x, 1);
        cr_assert_eq(sel(&e, 3000, &x), RSV_OK, "a later group untouched");
        cr_assert_eq(x, 3001);
        /* every ordinal of the damaged sequence: the codec's status and value are the oracle's */
        for (uint64_t i = 0; i < n; i++) {
            uint64_t y = 7;
            x = 7;
            rsv_status want = rsv_oracle_ef_select(&ov, i, &y), st = sel(&e, i, &x);
            cr_assert_eq(st, want, "i=%llu: %d, oracle %d", (unsigned long long)i, (int)st, (int)want);
            cr_assert_eq(x, y, "i=%llu", (unsigned long long)i);
        }
        for (int b = 0; b < 8; b++) sa[16 + b] = 0; /* group 1's first = 0: select(256) finds P = 1 < 256 */
        expect_dense_corrupt(&e, 256, "P below the ordinal");
        for (int b = 0; b < 8; b++) sa[16 + b] = (uint8_t)(UINT64_C(8192) >> (8 * b)); /* group 1's first = H */
        expect_dense_corrupt(&e, 300, "the sample's first position at H");
        free(e.buf);
        free(v);
    }
}
