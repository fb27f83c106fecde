/* Elias–Fano builder (KV03.md §4): canonical shape, sparse-group planning and
 * the exact bytes of sections 1–4. */
#include <string.h>

#include "reservoir/ef.h"

#include "bits.h"
#include "mem.h"

static uint64_t ceil_div(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

rsv_status rsv_ef_shape(uint64_t U, uint64_t n, rsv_ef_layout *lay)
{
    if (n == 0) return RSV_ERR_EF_SHAPE;
    uint64_t q = U / n;
    unsigned L = q ? rsv__bitlen64(q) - 1 : 0; /* <= 63 */
    if (L && n > UINT64_MAX / L) return RSV_ERR_EF_SHAPE;
    uint64_t hi = U >> L;
    if (hi > UINT64_MAX - n) return RSV_ERR_EF_SHAPE;
    lay->n = n;
    lay->U = U;
    lay->L = L;
    lay->H = hi + n;
    lay->low_bytes = 8 * ceil_div(n * L, 64);
    lay->high_bytes = 8 * ceil_div(lay->H, 64);
    lay->samples_bytes = 16 * ceil_div(n, 256);
    lay->sparse_bytes = 0;
    return RSV_OK;
}

/* High position of entry i: (r_i >> L) + i. */
static uint64_t high_pos(const uint64_t *v, uint64_t i, unsigned L) { return (v[i] >> L) + i; }

static int group_sparse(const uint64_t *v, uint64_t g, const rsv_ef_layout *lay)
{
    uint64_t s = g * 256, e = s + 256 < lay->n ? s + 256 : lay->n;
    return high_pos(v, e - 1, lay->L) - high_pos(v, s, lay->L) >= 4096;
}

rsv_status rsv_ef_plan(const uint64_t *vals, uint64_t n, rsv_ef_layout *lay)
{
    if (n == 0 || !vals) return RSV_ERR_INVALID_ARGUMENT;
    for (uint64_t i = 1; i < n; i++)
        if (vals[i] < vals[i - 1]) return RSV_ERR_EF_NONMONOTONE;
    rsv_status st = rsv_ef_shape(vals[n - 1], n, lay);
    if (st) return st;
    uint64_t groups = ceil_div(n, 256), count = 0;
    for (uint64_t g = 0; g < groups; g++) {
        if (group_sparse(vals, g, lay)) {
            uint64_t s = g * 256, e = s + 256 < n ? s + 256 : n;
            count += e - s;
        }
    }
    lay->sparse_bytes = 8 * count;
    return RSV_OK;
}

/* EF words are little-endian u64 (KV03.md §4): mem.h's store. */
#define put_le64(p, x) rsv__store_le_n((p), (x), 8)

/* OR the low `w` bits of v into the LSB-first bit array at bit `pos`. */
static void or_bits(uint8_t *a, uint64_t pos, uint64_t v, unsigned w)
{
    while (w) {
        unsigned sh = (unsigned)(pos & 7), take = 8 - sh < w ? 8 - sh : w;
        a[pos >> 3] |= (uint8_t)((v & ((1u << take) - 1)) << sh);
        v >>= take; /* take <= 8 */
        pos += take;
        w -= take;
    }
}

void rsv_ef_encode(const uint64_t *vals, const rsv_ef_layout *lay, uint8_t *out)
{
    uint8_t *low = out, *high = low + lay->low_bytes, *samples = high + lay->high_bytes;
    uint8_t *sparse = samples + lay->samples_bytes;
    memset(out, 0, (size_t)(lay->low_bytes + lay->high_bytes + lay->samples_bytes + lay->sparse_bytes));
    unsigned L = lay->L;
    uint64_t lmask = L ? (UINT64_MAX >> (64 - L)) : 0; /* L <= 63 */
    for (uint64_t i = 0; i < lay->n; i++) {
        if (L) or_bits(low, i * L, vals[i] & lmask, L);
        uint64_t p = high_pos(vals, i, L);
        high[p >> 3] |= (uint8_t)(1u << (p & 7));
    }
    uint64_t groups = ceil_div(lay->n, 256), nsparse = 0;
    for (uint64_t g = 0; g < groups; g++) {
        uint64_t s = g * 256, e = s + 256 < lay->n ? s + 256 : lay->n;
        put_le64(samples + 16 * g, high_pos(vals, s, L));
        if (group_sparse(vals, g, lay)) {
            put_le64(samples + 16 * g + 8, nsparse);
            for (uint64_t i = s; i < e; i++) put_le64(sparse + 8 * nsparse++, high_pos(vals, i, L));
        } else {
            put_le64(samples + 16 * g + 8, UINT64_MAX);
        }
    }
}
