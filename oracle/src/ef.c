/* reservoir oracle — Elias–Fano block offsets (KV03.md §4): the canonical
 * builder and select(i), both written directly from the spec text.
 *
 * Bit arrays (low, high) are LSB-first: bit p is bit (p mod 8) of byte p div 8
 * (= bit p mod 64 of little-endian word p div 64). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define U64_MAX_ UINT64_MAX

static unsigned arr_bit(const uint8_t *a, uint64_t p)
{
    unsigned byte = a[p / 8];
    return (byte >> (unsigned)(p % 8)) & 1u;
}

static void arr_set(uint8_t *a, uint64_t p)
{
    a[p / 8] |= (uint8_t)(1u << (unsigned)(p % 8));
}

/* Low width for (U, n): q = floor(U / n); L = bitlen(q) - 1 if q > 0, else 0. */
static unsigned canonical_L(uint64_t U, uint64_t n)
{
    uint64_t q = U / n;
    return q > 0 ? ob_bitlen(q) - 1 : 0;
}

static uint64_t low_mask(unsigned L) /* 2^L - 1, L <= 63 */
{
    return ((uint64_t)1 << L) - 1;
}

void rsv_oracle_ef_free(rsv_oracle_ef *ef)
{
    if (ef == NULL)
        return;
    free(ef->low);
    free(ef->high);
    free(ef->samples);
    free(ef->sparse);
    memset(ef, 0, sizeof *ef);
}

static uint8_t *zalloc(size_t n, int *fail)
{
    *fail = 0;
    if (n == 0)
        return NULL;
    uint8_t *p = calloc(n, 1);
    if (p == NULL)
        *fail = 1;
    return p;
}

rsv_status rsv_oracle_ef_build(const uint64_t *r, size_t n_entries, rsv_oracle_ef *out)
{
    if (out == NULL)
        return RSV_ERR_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    if (r == NULL || n_entries == 0)
        return RSV_ERR_INVALID_ARGUMENT;
    /* "The EF builder rejects a decreasing input with EF_NONMONOTONE." */
    for (size_t i = 1; i < n_entries; i++)
        if (r[i] < r[i - 1])
            return RSV_ERR_EF_NONMONOTONE;

    uint64_t n = (uint64_t)n_entries;
    uint64_t U = r[n - 1]; /* universe = last entry */
    unsigned L = canonical_L(U, n);
    /* Sizes, with overflow checks (n*L, (U>>L)+n). */
    if (L > 0 && n > U64_MAX_ / L)
        return RSV_ERR_TOO_LARGE;
    uint64_t low_bits = n * L;
    if ((U >> L) > U64_MAX_ - n)
        return RSV_ERR_TOO_LARGE;
    uint64_t H = (U >> L) + n;
    uint64_t low_len = 8 * ob_ceil_div(low_bits, 64);
    uint64_t high_len = 8 * ob_ceil_div(H, 64);
    uint64_t ngroups = ob_ceil_div(n, 256);
    uint64_t samples_len = 16 * ngroups;
    if (low_len > SIZE_MAX || high_len > SIZE_MAX || samples_len > SIZE_MAX)
        return RSV_ERR_TOO_LARGE;

    int f1, f2, f3;
    out->low = zalloc((size_t)low_len, &f1);
    out->high = zalloc((size_t)high_len, &f2);
    out->samples = zalloc((size_t)samples_len, &f3);
    if (f1 || f2 || f3) {
        rsv_oracle_ef_free(out);
        return RSV_ERR_NOMEM;
    }
    out->n = n;
    out->U = U;
    out->L = L;
    out->low_len = (size_t)low_len;
    out->high_len = (size_t)high_len;
    out->samples_len = (size_t)samples_len;

    for (uint64_t i = 0; i < n; i++) {
        /* Section 1: field i = r_i mod 2^L at bits [iL, iL+L), LSB lowest. */
        uint64_t field = r[i] & low_mask(L);
        for (unsigned j = 0; j < L; j++)
            if ((field >> j) & 1u)
                arr_set(out->low, i * L + j);
        /* Section 2: bit (r_i >> L) + i set. */
        arr_set(out->high, (r[i] >> L) + i);
    }

    /* Sections 3 and 4: one sample per group of 256 entries. */
    uint64_t count4 = 0;
    for (uint64_t g = 0; g < ngroups; g++) {
        uint64_t s = 256 * g;
        uint64_t e = s + 256 < n ? s + 256 : n;
        uint64_t first = (r[s] >> L) + s;
        uint64_t last = (r[e - 1] >> L) + e - 1;
        uint64_t sparse;
        if (last - first < 4096) {
            sparse = U64_MAX_; /* dense */
        } else {
            sparse = count4; /* element index into section 4 */
            uint64_t add = e - s;
            if (8 * (count4 + add) > SIZE_MAX) {
                rsv_oracle_ef_free(out);
                return RSV_ERR_TOO_LARGE;
            }
            uint8_t *p = realloc(out->sparse, (size_t)(8 * (count4 + add)));
            if (p == NULL) {
                rsv_oracle_ef_free(out);
                return RSV_ERR_NOMEM;
            }
            out->sparse = p;
            for (uint64_t i = s; i < e; i++) {
                ob_le_put(out->sparse + 8 * count4, (r[i] >> L) + i, 8);
                count4++;
            }
            out->sparse_len = (size_t)(8 * count4);
        }
        ob_le_put(out->samples + 16 * g, first, 8);
        ob_le_put(out->samples + 16 * g + 8, sparse, 8);
    }
    return RSV_OK;
}

rsv_status rsv_oracle_ef_select(const rsv_oracle_ef_view *ef, uint64_t i, uint64_t *value)
{
    if (ef == NULL || value == NULL || ef->L > 63)
        return RSV_ERR_INVALID_ARGUMENT;
    /* i >= n -> EF_ORDINAL. */
    if (i >= ef->n)
        return RSV_ERR_EF_ORDINAL;
    unsigned L = ef->L;
    uint64_t U = ef->U;
    /* H = (U >> L) + n (the open shape check guarantees no overflow). */
    if ((U >> L) > U64_MAX_ - ef->n)
        return RSV_ERR_EF_CORRUPT;
    uint64_t H = (U >> L) + ef->n;
    uint64_t high_bits = 8 * ef->high_len; /* every bit of the high words */

    /* Sample (first, sparse) = samples[i div 256]; t = i mod 256. */
    uint64_t g = i / 256, t = i % 256;
    if (ef->samples_len / 16 <= g)
        return RSV_ERR_EF_CORRUPT; /* cannot happen for a §4-shaped file */
    uint64_t first = ob_le_get(ef->samples + 16 * g, 8);
    uint64_t sparse = ob_le_get(ef->samples + 16 * g + 8, 8);
    uint64_t count4 = ef->sparse_len / 8;
    uint64_t P;

    if (sparse != U64_MAX_) {
        /* Sparse group: P = section4[sparse + t]; corrupt if sparse + t >=
         * count, P >= H, or high bit P is clear. */
        if (sparse >= count4 || t >= count4 - sparse)
            return RSV_ERR_EF_CORRUPT;
        P = ob_le_get(ef->sparse + 8 * (sparse + t), 8);
        if (P >= H)
            return RSV_ERR_EF_CORRUPT;
        if (P >= high_bits || arr_bit(ef->high, P) == 0)
            return RSV_ERR_EF_CORRUPT;
    } else {
        /* Dense group: corrupt if first >= H; P = the t-th (0-based) set bit
         * at or after `first`, counting every bit of the high words; corrupt
         * if none exists, P >= H, or P - first >= 4096. */
        if (first >= H)
            return RSV_ERR_EF_CORRUPT;
        uint64_t seen = 0;
        int found = 0;
        P = 0;
        for (uint64_t q = first; q < high_bits && q - first < 4096; q++) {
            if (arr_bit(ef->high, q)) {
                if (seen == t) {
                    P = q;
                    found = 1;
                    break;
                }
                seen++;
            }
        }
        /* Not found within 4096 positions: either none exists or the t-th
         * set bit is at P - first >= 4096; both are corrupt. */
        if (!found || P >= H || P - first >= 4096)
            return RSV_ERR_EF_CORRUPT;
    }

    /* Corrupt if P < i or hi = P - i > U >> L. */
    if (P < i)
        return RSV_ERR_EF_CORRUPT;
    uint64_t hi = P - i;
    if (hi > (U >> L))
        return RSV_ERR_EF_CORRUPT;
    /* Low field i at bits [iL, iL + L). */
    uint64_t low = 0;
    for (unsigned j = 0; j < L; j++) {
        uint64_t p = i * L + j; /* n*L does not overflow (open check 25) */
        if (p / 8 >= ef->low_len)
            return RSV_ERR_EF_CORRUPT; /* cannot happen for a §4-shaped file */
        low |= (uint64_t)arr_bit(ef->low, p) << j;
    }
    /* v = (hi << L) | low; corrupt if v > U. hi <= U >> L so no overflow. */
    uint64_t v = (hi << L) | low;
    if (v > U)
        return RSV_ERR_EF_CORRUPT;
    *value = v;
    return RSV_OK;
}
