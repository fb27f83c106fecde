/* Elias–Fano builder API (KV03.md §4): rsv_ef_shape's canonical sizes and
 * overflow limit, rsv_ef_plan's argument and order statuses. Expected sizes
 * are computed by hand from §4: q = floor(U / n), L = bitlen(q) - 1 (0 when
 * q = 0), H = (U >> L) + n, low = 8 ceil(nL / 64), high = 8 ceil(H / 64),
 * samples = 16 ceil(n / 256); sparse groups: last - first >= 4096, with
 * the samples and section 4 of two layouts written out by hand (a partial
 * last group that is sparse; two sparse groups). */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reservoir/ef.h"

static void shape(uint64_t U, uint64_t n, unsigned L, uint64_t H, uint64_t low, uint64_t high, uint64_t samples)
{
    rsv_ef_layout lay;
    memset(&lay, 0xA5, sizeof lay);
    cr_assert_eq(rsv_ef_shape(U, n, &lay), RSV_OK, "U %llu n %llu", (unsigned long long)U, (unsigned long long)n);
    cr_assert_eq(lay.n, n);
    cr_assert_eq(lay.U, U);
    cr_assert_eq(lay.L, L, "L: got %u want %u", lay.L, L);
    cr_assert_eq(lay.H, H);
    cr_assert_eq(lay.low_bytes, low);
    cr_assert_eq(lay.high_bytes, high);
    cr_assert_eq(lay.samples_bytes, samples);
    cr_assert_eq(lay.sparse_bytes, 0);
}

Test(ef_build, shape_by_hand)
{
    shape(100, 10, 3, 12 + 10, 8, 8, 16); /* q = 10, bitlen 4; nL = 30 bits */
    shape(0, 1, 0, 1, 0, 8, 16);          /* q = 0 */
    shape(UINT64_MAX, 1, 63, 2, 8, 8, 16); /* q = 2^64 - 1: L = 63, U >> 63 = 1 */
    shape(1000, 257, 1, 500 + 257, 8 * 5, 8 * 12, 32); /* q = 3: L = 1; nL = 257 bits; H = 757 */
    /* the largest H: U = 2^63, n = 2^63 - 1, q = 1, L = 0, H = 2^64 - 1 */
    shape(UINT64_C(1) << 63, (UINT64_C(1) << 63) - 1, 0, UINT64_MAX, 0, UINT64_C(1) << 61, UINT64_C(1) << 59);
}

Test(ef_build, shape_errors)
{
    rsv_ef_layout lay;
    cr_assert_eq(rsv_ef_shape(5, 0, &lay), RSV_ERR_EF_SHAPE);
    /* (U >> L) + n one past 2^64 - 1 */
    cr_assert_eq(rsv_ef_shape((UINT64_C(1) << 63) + 1, (UINT64_C(1) << 63) - 1, &lay), RSV_ERR_EF_SHAPE);
    cr_assert_eq(rsv_ef_shape(UINT64_MAX, UINT64_C(1) << 63, &lay), RSV_ERR_EF_SHAPE);
}

Test(ef_build, plan_statuses)
{
    rsv_ef_layout lay;
    const uint64_t ok[] = {1, 1, 5, 9};
    const uint64_t down[] = {1, 5, 4, 9};
    cr_assert_eq(rsv_ef_plan(NULL, 4, &lay), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_ef_plan(ok, 0, &lay), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_ef_plan(down, 4, &lay), RSV_ERR_EF_NONMONOTONE);
    cr_assert_eq(rsv_ef_plan(ok, 4, &lay), RSV_OK);
    /* U = 9, n = 4: q = 2, L = 1, H = 4 + 4 */
    cr_assert_eq(lay.L, 1);
    cr_assert_eq(lay.H, 8);
    cr_assert_eq(lay.sparse_bytes, 0);
}

static uint64_t le64(const uint8_t *p)
{
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--) x = x << 8 | p[i];
    return x;
}

/* Plans and encodes v (every test below then reads the encoding back by
 * hand): the sections of one calloc'd buffer, freed with free(e.out). */
typedef struct {
    rsv_ef_layout lay;
    uint8_t *out;
    const uint8_t *high, *samples, *sparse;
} encoded;

static encoded encode(const uint64_t *v, uint64_t n)
{
    encoded e;
    cr_assert_eq(rsv_ef_plan(v, n, &e.lay), RSV_OK);
    size_t total = (size_t)(e.lay.low_bytes + e.lay.high_bytes + e.lay.samples_bytes + e.lay.sparse_bytes);
    e.out = calloc(1, total);
    cr_assert_not_null(e.out);
    rsv_ef_encode(v, &e.lay, e.out);
    e.high = e.out + e.lay.low_bytes;
    e.samples = e.high + e.lay.high_bytes;
    e.sparse = e.samples + e.lay.samples_bytes;
    return e;
}

/* The last group is partial and sparse. n = 2056 = 8 * 256 + 8: r_0..r_2054
 * = 0, r_2055 = U = 4111 (q = floor(4111 / 2056) = 1, L = 0, H = 6167).
 * Groups 0-7 hold zeros (span 255, dense); group 8 holds entries 2048..2055
 * with first = 0 + 2048 and last = 4111 + 2055 = 6166: 4118 >= 4096, sparse,
 * so section 4 holds its 8 entries (positions 2048..2054, then 6166). The
 * group count is ceil(n / 256) = 9: a count that drops the partial group
 * would plan no sparse section for it. */
Test(ef_build, partial_last_group_sparse)
{
    static uint64_t v[2056];
    for (int i = 0; i < 2056; i++) v[i] = i < 2055 ? 0 : 4111;
    encoded e = encode(v, 2056);
    const uint8_t *samples = e.samples, *sparse = e.sparse;
    cr_assert_eq(e.lay.L, 0);
    cr_assert_eq(e.lay.H, 4111 + 2056);
    cr_assert_eq(e.lay.samples_bytes, 16 * 9);
    cr_assert_eq(e.lay.sparse_bytes, 8 * 8, "sparse_bytes %llu", (unsigned long long)e.lay.sparse_bytes);
    for (int g = 0; g < 8; g++) {
        cr_assert_eq(le64(samples + 16 * g), 256 * (uint64_t)g);
        cr_assert_eq(le64(samples + 16 * g + 8), UINT64_MAX, "group %d dense", g);
    }
    cr_assert_eq(le64(samples + 16 * 8), 2048);
    cr_assert_eq(le64(samples + 16 * 8 + 8), 0, "group 8 sparse from section-4 entry 0");
    for (int i = 0; i < 8; i++) cr_assert_eq(le64(sparse + 8 * i), i < 7 ? 2048 + (uint64_t)i : 6166);
    free(e.out);
}

/* Two sparse groups, the second after the first's entries. n = 4096:
 * r = 0 for entries 0..510, 3900 for 511..766, 7800 from 767 on (U = 7800,
 * q = 1, L = 0). Group 1 (256..511) spans 3900 + 255 = 4155 and group 2
 * (512..767) spans 4155 too: both sparse, group 1 at section-4 entry 0 and
 * group 2 at entry 256 (§4: "the number of u64 entries already in section
 * 4"); groups 0 and 3..15 span 255. Every field of the samples and of
 * section 4 is checked by hand, then every entry is selected back. */
Test(ef_build, two_sparse_groups)
{
    static uint64_t v[4096];
    for (int i = 0; i < 4096; i++) v[i] = i < 511 ? 0 : i < 767 ? 3900 : 7800;
    encoded e = encode(v, 4096);
    const uint8_t *samples = e.samples, *sparse = e.sparse;
    cr_assert_eq(e.lay.L, 0);
    cr_assert_eq(e.lay.H, 7800 + 4096);
    cr_assert_eq(e.lay.samples_bytes, 16 * 16);
    cr_assert_eq(e.lay.sparse_bytes, 8 * 512);
    for (uint64_t g = 0; g < 16; g++) {
        uint64_t first = (g == 0 || g == 1 ? 0 : g == 2 ? 3900 : 7800) + 256 * g;
        uint64_t sp = g == 1 ? 0 : g == 2 ? 256 : UINT64_MAX;
        cr_assert_eq(le64(samples + 16 * g), first, "group %llu: first", (unsigned long long)g);
        cr_assert_eq(le64(samples + 16 * g + 8), sp, "group %llu: sparse field", (unsigned long long)g);
    }
    for (uint64_t i = 256; i < 768; i++) /* (r_i >> L) + i for both groups' entries, in order */
        cr_assert_eq(le64(sparse + 8 * (i - 256)), v[i] + i, "section-4 entry %llu", (unsigned long long)(i - 256));
    rsv_ef ef;
    rsv_ef_init(&ef, &e.lay, e.out, e.high, samples, sparse, e.lay.sparse_bytes);
    for (uint64_t i = 0; i < 4096; i++) {
        uint64_t x = ~v[i];
        cr_assert_eq(rsv_ef_select(&ef, i, &x), RSV_OK, "select %llu", (unsigned long long)i);
        cr_assert_eq(x, v[i], "select %llu", (unsigned long long)i);
    }
    free(e.out);
}

/* §4 "Samples": a group is sparse when last - first >= 4096, dense below.
 * n = 2048 entries (8 groups): r_0..r_254 = 0, r_255 = r_256 = ... = U.
 * U = 3841: q = floor(3841 / 2048) = 1, L = 0; group 0 has first = 0 and
 * last = 3841 + 255 = 4096, so it is sparse (exactly the bound); groups
 * 1..7 span 255 (dense). U = 3840: L = 0 still, group 0 spans 4095: dense. */
Test(ef_build, sparse_at_exactly_4096)
{
    static uint64_t v[2048];
    for (uint64_t U = 3840; U <= 3841; U++) {
        for (int i = 0; i < 2048; i++) v[i] = i < 255 ? 0 : U;
        encoded e = encode(v, 2048);
        const rsv_ef_layout lay = e.lay;
        const uint8_t *samples = e.samples, *sparse = e.sparse;
        cr_assert_eq(lay.L, 0);
        cr_assert_eq(lay.H, U + 2048);
        cr_assert_eq(lay.low_bytes, 0);
        cr_assert_eq(lay.high_bytes, 8 * ((U + 2048 + 63) / 64));
        cr_assert_eq(lay.samples_bytes, 16 * 8);
        cr_assert_eq(lay.sparse_bytes, U == 3841 ? 8 * 256 : 0, "U %llu: sparse_bytes %llu", (unsigned long long)U,
                     (unsigned long long)lay.sparse_bytes);
        cr_assert_eq(le64(samples), 0); /* group 0: first */
        cr_assert_eq(le64(samples + 8), U == 3841 ? 0 : UINT64_MAX, "U %llu: group 0's sparse field",
                     (unsigned long long)U);
        for (int g = 1; g < 8; g++) {
            cr_assert_eq(le64(samples + 16 * g), U + 256 * (uint64_t)g); /* first = (U >> 0) + 256g */
            cr_assert_eq(le64(samples + 16 * g + 8), UINT64_MAX);
        }
        if (U == 3841) /* section 4: (r_i >> L) + i for i in group 0 */
            for (int i = 0; i < 256; i++) cr_assert_eq(le64(sparse + 8 * i), i < 255 ? (uint64_t)i : 4096);
        free(e.out);
    }
}
