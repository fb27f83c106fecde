/* KV03 v2 selector dictionary and seeds (KV03.md §6): the §6.3 check, code
 * and seed lookups, and the transition decode of §3.3 step 2. Sections 5-7
 * are read in place (no allocation): a code is a bit range of section 5,
 * located by two section-6 words. Transitions use the dictionary's order:
 * in a sorted prefix-free list the codes sharing a prefix P form one index
 * range, and appending a bit to P splits that range at one point, so each
 * tail bit is a binary search (O(log m) code reads) instead of a scan. */
#include "reservoir/kv03.h"

#include "bits.h"
#include "kv03_dict.h"
#include "kv03_layout.h"

/* One 8-byte load: the n-byte loop behind rsv__le is not folded into a load by
 * every compiler (gcc -O2 kept it, ~50 instructions), and the transition
 * decode reads two section-6 words per binary-search step. */
uint64_t rsv__kv03_dict_end(const rsv_kv03_file *f, uint64_t k) { return rsv__load_le64(f->dict_off + 8 * k); }

uint64_t rsv__kv03_code_len(const rsv_kv03_file *f, uint64_t j)
{
    return rsv__kv03_dict_end(f, j + 1) - rsv__kv03_dict_end(f, j);
}

/* n <= 64 bits at bit pos of an MSB-first section, right-aligned. Byte loads
 * only inside [pos/8, (pos+n-1)/8]. */
static uint64_t bits_at(const uint8_t *d, uint64_t pos, unsigned n)
{
    uint64_t x = 0;
    unsigned got = 0;
    while (got < n) {
        unsigned s = (unsigned)(pos % 8), take = 8 - s;
        if (take > n - got) take = n - got;
        unsigned byte = d[pos / 8];
        x = (x << take) | ((byte >> (8 - s - take)) & ((1u << take) - 1)); /* take <= 8 */
        got += take;
        pos += take;
    }
    return x;
}

/* lcp of section-5 bit ranges [a, a+n) and [b, b+n). */
static uint64_t lcp_bits(const uint8_t *d, uint64_t a, uint64_t b, uint64_t n)
{
    for (uint64_t off = 0; off < n; off += 64) {
        unsigned k = n - off < 64 ? (unsigned)(n - off) : 64;
        uint64_t x = bits_at(d, a + off, k) ^ bits_at(d, b + off, k);
        if (x) return off + (k - 1 - (63 - rsv__clz64(x)));
    }
    return n;
}

static unsigned bit_at(const uint8_t *d, uint64_t pos) { return (d[pos / 8] >> (7 - pos % 8)) & 1u; }

rsv_status rsv_kv03_dictionary_check(const rsv_kv03_file *f)
{
    if (!f) return RSV_ERR_INVALID_ARGUMENT;
    uint64_t m = f->m;
    if (m <= 1) return RSV_OK;
    if (rsv__kv03_dict_end(f, 0) != 0 || rsv__kv03_dict_end(f, m) != f->dict_bits)
        return RSV_ERR_SECTION_ENDPOINTS; /* 1 */
    for (uint64_t j = 1; j <= m; j++)     /* 2 */
        if (rsv__kv03_dict_end(f, j) <= rsv__kv03_dict_end(f, j - 1)) return RSV_ERR_DICTIONARY_SHAPE;
    for (uint64_t j = 0; j < m; j++) /* 3: the spec's MAY, taken (as the oracle) */
        if (rsv__kv03_code_len(f, j) > RSV_KV03_MAX_CODE_BITS) return RSV_ERR_TOO_LARGE;
    for (uint64_t j = 1; j < m; j++) { /* 4: first difference inside both, 0 in D_{j-1} */
        uint64_t a = rsv__kv03_dict_end(f, j - 1), b = rsv__kv03_dict_end(f, j);
        uint64_t la = b - a, lb = rsv__kv03_dict_end(f, j + 1) - b, n = la < lb ? la : lb;
        uint64_t l = lcp_bits(f->dict, a, b, n);
        if (l == n || bit_at(f->dict, a + l) != 0) return RSV_ERR_DICTIONARY_ORDER;
    }
    return RSV_OK;
}

uint64_t rsv_kv03_code_count(const rsv_kv03_file *f) { return f ? f->m : 0; }

rsv_status rsv_kv03_code(const rsv_kv03_file *f, uint64_t j, rsv_view *code)
{
    if (!f || !code || j >= (f->m > 1 ? f->m : 1)) return RSV_ERR_INVALID_ARGUMENT;
    if (f->m <= 1) {
        *code = rsv_view_make(f->dict, 0, f->dict_bits);
        return RSV_OK;
    }
    uint64_t a = rsv__kv03_dict_end(f, j), b = rsv__kv03_dict_end(f, j + 1);
    if (a > b || b > f->dict_bits) return RSV_ERR_SECTION_ENDPOINTS;
    *code = rsv_view_make(f->dict, a, b - a);
    return RSV_OK;
}

rsv_status rsv_kv03_seed(const rsv_kv03_file *f, uint64_t b, uint64_t *j)
{
    if (!f || !j || b >= f->nb) return RSV_ERR_INVALID_ARGUMENT;
    /* b * w <= seed_bits (open step 28), inside section 7 */
    *j = f->seed_w ? bits_at(f->seeds, b * f->seed_w, f->seed_w) : 0;
    return RSV_OK;
}

rsv_status rsv__kv03_block_code(const rsv_kv03_file *f, uint64_t b, uint64_t *j)
{
    uint64_t s = bits_at(f->seeds, b * f->seed_w, f->seed_w);
    if (s >= f->m) return RSV_ERR_SEED_RANGE;
    *j = s;
    return RSV_OK;
}

/* Does D_j start with D_cp[0, R)? (For j != cp in a prefix-free list a
 * code of length <= R cannot.) */
static int shares(const rsv_kv03_file *f, uint64_t j, uint64_t cp, uint64_t R)
{
    uint64_t a = rsv__kv03_dict_end(f, j);
    if (rsv__kv03_dict_end(f, j + 1) - a < R) return 0;
    return lcp_bits(f->dict, a, rsv__kv03_dict_end(f, cp), R) == R;
}

/* The range [lo, hi) of codes sharing D_cp[0, R): lcp(D_j, D_cp) only grows
 * as j approaches cp in a sorted list, so both ends are binary searches. */
static void prefix_range(const rsv_kv03_file *f, uint64_t cp, uint64_t R, uint64_t *lo, uint64_t *hi)
{
    uint64_t a = 0, b = cp; /* smallest j in [a, b] that shares */
    while (a < b) {
        uint64_t mid = a + (b - a) / 2;
        if (shares(f, mid, cp, R)) b = mid;
        else a = mid + 1;
    }
    *lo = a;
    a = cp + 1, b = f->m; /* smallest j in [a, b] that does not share (b = m: none) */
    while (a < b) {
        uint64_t mid = a + (b - a) / 2;
        if (shares(f, mid, cp, R)) a = mid + 1;
        else b = mid;
    }
    *hi = a;
}

/* Codes [lo, hi) share a d-bit prefix P and all are longer than d: keep
 * those whose bit d is x (the 0s precede the 1s). Returns 1 when P ‖ x is a
 * code (then *lo is it), 0 while incomplete, -1 when no code is left. */
static int narrow(const rsv_kv03_file *f, uint64_t *lo, uint64_t *hi, uint64_t d, unsigned x)
{
    uint64_t a = *lo, b = *hi; /* first j in [lo, hi) with bit d = 1 */
    while (a < b) {
        uint64_t mid = a + (b - a) / 2;
        if (bit_at(f->dict, rsv__kv03_dict_end(f, mid) + d)) b = mid;
        else a = mid + 1;
    }
    if (x) *lo = a;
    else *hi = a;
    if (*lo == *hi) return -1;
    return *hi - *lo == 1 && rsv__kv03_code_len(f, *lo) == d + 1;
}

rsv_status rsv__kv03_transition(const rsv_kv03_file *f, rsv_reader *r, uint64_t cp, uint64_t R,
                                uint64_t *j)
{
    uint64_t lo, hi;
    prefix_range(f, cp, R, &lo, &hi);
    if (hi - lo == 1) return RSV_ERR_SORT_TRANSITION; /* only Cp has prefix P */
    for (uint64_t d = R;; d++) {
        unsigned x;
        rsv_status st = rsv_read_bit(r, &x);
        if (st) return st;
        int k = narrow(f, &lo, &hi, d, x);
        if (k < 0) return RSV_ERR_UNKNOWN_SELECTOR;
        if (k > 0) {
            if (lo == cp) return RSV_ERR_SORT_TRANSITION;
            *j = lo;
            return RSV_OK;
        }
    }
}

int rsv__kv03_transition_word(const rsv_kv03_file *f, uint64_t cp, uint64_t R, uint64_t word,
                              unsigned avail, uint64_t *j, unsigned *used)
{
    uint64_t lo, hi;
    prefix_range(f, cp, R, &lo, &hi);
    if (hi - lo == 1) return 0;
    for (unsigned t = 0; t < avail; t++) {
        int k = narrow(f, &lo, &hi, R + t, (unsigned)(word >> (63 - t)) & 1u);
        if (k < 0) return 0;
        if (k > 0) {
            if (lo == cp) return 0;
            *j = lo;
            *used = t + 1;
            return 1;
        }
    }
    return 0;
}
