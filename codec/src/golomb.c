/* Golomb constants and code lengths (CODES.md §3.1, §4.1): rsv_golomb_*
 * (golomb.h) and the exp-Golomb length rsv_eg_length (expgolomb.h), which
 * share rsv__bitlen64 (bits.h). */
#include "reservoir/expgolomb.h"
#include "reservoir/golomb.h"

#include "bits.h"

rsv_status rsv_golomb_init(rsv_golomb *g, uint64_t m)
{
    if (!g) return RSV_ERR_INVALID_ARGUMENT;
    if (m == 0) {
        g->m = 0;
        g->cutoff = g->mask = g->L = g->longcut = 0;
        g->w = 0;
        g->qfast = 0; /* forces every decode onto the checked slow path */
        return RSV_ERR_BAD_MODULUS;
    }
    g->m = m;
    g->w = rsv__bitlen64(m - 1);
    /* 2^w does not fit when w = 64; mod 2^64 the cutoff is then 0 - m. */
    uint64_t pow = g->w < 64 ? UINT64_C(1) << g->w : 0;
    g->cutoff = pow - m;
    g->mask = pow - 1; /* w = 64: 0 - 1 = all ones */
    g->L = UINT64_MAX / m;
    /* w-bit window x after the marker: long iff x >= 2 * cutoff. cutoff <
     * 2^(w-1) (or 0 for w = 0, where every remainder is "long" and empty),
     * so the product stays below 2^63. */
    if (g->w == 0)
        g->longcut = 0;
    else if (g->w < 64)
        g->longcut = (UINT64_C(1) << 63) + (g->cutoff << (64u - g->w));
    else
        g->longcut = UINT64_C(1) << 63; /* w = 64: no code fits the inline paths */
    g->qfast = g->L < 64 ? (unsigned)g->L : 64;
    return RSV_OK;
}

rsv_status rsv_golomb_length(const rsv_golomb *g, uint64_t v, uint64_t *nbits)
{
    if (!g || !nbits) return RSV_ERR_INVALID_ARGUMENT;
    if (g->m == 0) return RSV_ERR_BAD_MODULUS;
    uint64_t q = v / g->m, r = v % g->m;
    uint64_t tail = (r < g->cutoff) ? g->w - 1u : g->w; /* w = 0 implies r >= cutoff = 0 */
    if (q > UINT64_MAX - 1 - tail) return RSV_ERR_TOO_LARGE;
    *nbits = q + 1 + tail;
    return RSV_OK;
}

unsigned rsv_eg_length(uint64_t v, unsigned k)
{
    if (k > 63) return 0;
    uint64_t q = v >> k;
    /* bitlen(q + 1) with q + 1 = 2^64 when q = MAX */
    unsigned b = q == UINT64_MAX ? 65 : rsv__bitlen64(q + 1);
    return 2 * b - 1 + k;
}
