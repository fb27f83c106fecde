/* reservoir oracle — stateless reference decoders and encoders.
 *
 * Written directly from CODES.md §1.1, §2, §3, §4 and §6.3, one bit at a time,
 * for obviousness rather than speed. Nothing here is shared with codec/.
 *
 * Memory rules (CODES.md §1.2): every load goes through view_bit(), which
 * loads exactly the one byte containing the requested view bit, and every
 * caller checks that the bit index is < v.len before calling it. Hence:
 *   A1 - no byte outside the view's byte range is ever loaded;
 *   A2 - an empty view is never dereferenced (no index < 0 = len exists);
 *   A3 - take/skip never call view_bit();
 *   A4 - a decode starting at p only reads bits at indices >= p.
 *
 * No shift count is ever >= 64 (shifts are by 1, by j < 64, or by k <= 63 /
 * z < 64 with the bound checked right before). */
#include "reservoir/oracle.h"

#define U64_MAX_ UINT64_MAX

/* View bit i (CODES.md §1.1): q = off + i; bit = (data[q div 8] >> (7 - q mod 8)) & 1.
 * Precondition: i < v.len (so off + i cannot overflow: off + len <= 2^64 - 1). */
static unsigned view_bit(rsv_view v, uint64_t i)
{
    uint64_t q = v.off + i;
    unsigned byte = v.data[q / 8u];
    return (byte >> (7u - (unsigned)(q % 8u))) & 1u;
}

static rsv_oracle_result make_result(rsv_status st, uint64_t value, uint64_t pos)
{
    rsv_oracle_result r;
    r.status = st;
    r.value = (st == RSV_OK) ? value : 0;
    r.pos = pos;
    return r;
}

/* bitlen(x): number of binary digits, bitlen(0) = 0 (CODES.md §0). */
static unsigned bitlen64(uint64_t x)
{
    unsigned n = 0;
    while (x != 0) {
        n++;
        x >>= 1;
    }
    return n;
}

/* Read a w-bit big-endian field (0 <= w <= 64) starting at view bit i.
 * Precondition: w <= v.len - i (checked by the caller). Bit at a time. */
static uint64_t field_at(rsv_view v, uint64_t i, uint64_t w)
{
    uint64_t x = 0;
    for (uint64_t j = 0; j < w; j++)
        x = (x << 1) | (uint64_t)view_bit(v, i + j); /* shift by 1 only */
    return x;
}

/* ------------------------------------------------------------------------ */
/* §2 fixed-width fields, take and skip                                     */
/* ------------------------------------------------------------------------ */

rsv_oracle_result rsv_oracle_read(rsv_view v, uint64_t p, uint64_t w)
{
    if (p > v.len)
        return make_result(RSV_ERR_INVALID_ARGUMENT, 0, p);
    /* §2: w > 64 fails with WIDTH (parameter check first, §6.1 precedence). */
    if (w > 64)
        return make_result(RSV_ERR_WIDTH, 0, p);
    /* §2: w > remaining fails with TRUNCATED_FIELD; p unchanged. */
    if (w > v.len - p)
        return make_result(RSV_ERR_TRUNCATED_FIELD, 0, p);
    /* read(0) always succeeds with 0, also at the end (no load). */
    return make_result(RSV_OK, field_at(v, p, w), p + w);
}

rsv_oracle_result rsv_oracle_skip(rsv_view v, uint64_t p, uint64_t n)
{
    if (p > v.len)
        return make_result(RSV_ERR_INVALID_ARGUMENT, 0, p);
    /* §2: n > remaining fails with TRUNCATED_SPAN, p unchanged. No loads (A3). */
    if (n > v.len - p)
        return make_result(RSV_ERR_TRUNCATED_SPAN, 0, p);
    return make_result(RSV_OK, 0, p + n);
}

rsv_oracle_result rsv_oracle_take(rsv_view v, uint64_t p, uint64_t n, rsv_view *sub)
{
    if (p > v.len || sub == NULL)
        return make_result(RSV_ERR_INVALID_ARGUMENT, 0, p);
    /* §2: n > remaining fails with TRUNCATED_SPAN, p unchanged. No loads (A3). */
    if (n > v.len - p)
        return make_result(RSV_ERR_TRUNCATED_SPAN, 0, p);
    /* §1.3: the sub-view is (data, off + p, n), same data pointer, not re-based. */
    sub->data = v.data;
    sub->off = v.off + p;
    sub->len = n;
    return make_result(RSV_OK, 0, p + n);
}

/* ------------------------------------------------------------------------ */
/* §3.2 exponential-Golomb decoding                                         */
/* ------------------------------------------------------------------------ */

rsv_oracle_result rsv_oracle_read_eg(rsv_view v, uint64_t p, uint64_t k)
{
    if (p > v.len)
        return make_result(RSV_ERR_INVALID_ARGUMENT, 0, p);

    /* Step 1: k > 63 -> BAD_ORDER at p. */
    if (k > 63)
        return make_result(RSV_ERR_BAD_ORDER, 0, p);

    /* Step 2: zero run. i is the index of the next bit to examine. */
    uint64_t i = p;
    uint64_t z = 0;
    for (;;) {
        if (i == v.len) /* view ends before a '1' (at most 64 zeros seen) */
            return make_result(RSV_ERR_EG_TRUNCATED, 0, v.len);
        if (view_bit(v, i) == 1u)
            break;
        i++;
        z++;
        if (z == 65) /* the 65th zero exists inside the view: precedence */
            return make_result(RSV_ERR_EG_OVERFLOW, 0, p + 65);
    }

    /* Step 3: 0 <= z <= 64; consume the terminating '1'. */
    i++;

    /* Step 4: suffix of z bits; fewer than z remaining -> EG_TRUNCATED at len. */
    if (v.len - i < z)
        return make_result(RSV_ERR_EG_TRUNCATED, 0, v.len);
    uint64_t s = field_at(v, i, z);
    i += z;

    /* Step 5: z = 64 needs s = 0 (q = MAX), else EG_OVERFLOW at p + 129. */
    uint64_t q;
    if (z == 64) {
        if (s != 0)
            return make_result(RSV_ERR_EG_OVERFLOW, 0, p + 129);
        q = U64_MAX_;
    } else {
        q = (((uint64_t)1 << z) - 1) + s; /* z < 64; s < 2^z so no overflow */
    }

    /* Step 6: order 0 returns q. */
    if (k == 0)
        return make_result(RSV_OK, q, i);

    /* Step 7: q > MAX >> k -> EG_QUOTIENT_OVERFLOW after the quotient code
     * (i = p + 2z + 1 here). */
    if (q > (U64_MAX_ >> k))
        return make_result(RSV_ERR_EG_QUOTIENT_OVERFLOW, 0, i);

    /* Step 8: fewer than k bits remain -> EG_TRUNCATED_REMAINDER, position
     * unchanged (after the quotient code). */
    if (v.len - i < k)
        return make_result(RSV_ERR_EG_TRUNCATED_REMAINDER, 0, i);

    /* Step 9: k-bit remainder; (q << k) | r. 1 <= k <= 63 and q <= MAX >> k. */
    uint64_t r = field_at(v, i, k);
    i += k;
    return make_result(RSV_OK, (q << k) | r, i);
}

/* ------------------------------------------------------------------------ */
/* §4.2 Golomb decoding                                                     */
/* ------------------------------------------------------------------------ */

/* w = bitlen(m - 1) and cutoff = (2^w - m) mod 2^64 (§4.1). m >= 1. */
static void golomb_params(uint64_t m, unsigned *w_out, uint64_t *cutoff_out)
{
    unsigned w = bitlen64(m - 1);
    uint64_t cutoff;
    if (w == 64)
        cutoff = (uint64_t)0 - m; /* 2^64 - m, evaluated mod 2^64 */
    else
        cutoff = ((uint64_t)1 << w) - m; /* w < 64; 2^w >= m */
    *w_out = w;
    *cutoff_out = cutoff;
}

rsv_oracle_result rsv_oracle_read_golomb(rsv_view v, uint64_t p, uint64_t m)
{
    if (p > v.len)
        return make_result(RSV_ERR_INVALID_ARGUMENT, 0, p);

    /* Step 1: m = 0 -> BAD_MODULUS at p. */
    if (m == 0)
        return make_result(RSV_ERR_BAD_MODULUS, 0, p);

    /* Step 2: quotient. L = floor(MAX / m), the largest non-overflowing q. */
    uint64_t L = U64_MAX_ / m;
    uint64_t i = p;
    uint64_t z = 0;
    for (;;) {
        if (i == v.len) /* view ends before a '1' (at most L zeros) */
            return make_result(RSV_ERR_GOLOMB_TRUNCATED, 0, v.len);
        if (view_bit(v, i) == 1u)
            break;
        i++;
        z++; /* z <= i - p < 2^64, never wraps */
        if (z > L) /* z == L + 1 zeros present (never for m = 1, L = MAX) */
            return make_result(RSV_ERR_GOLOMB_QUOTIENT_OVERFLOW, 0, p + L + 1);
    }
    uint64_t q = z;
    i++; /* consume the '1'; i = p + q + 1 */

    /* Step 3: remainder in truncated binary (skipped when m = 1: w = 0, r = 0). */
    uint64_t r = 0;
    if (m != 1) {
        unsigned w;
        uint64_t cutoff;
        golomb_params(m, &w, &cutoff);
        /* 3a: need w - 1 bits after the '1'. */
        if (v.len - i < (uint64_t)(w - 1))
            return make_result(RSV_ERR_GOLOMB_TRUNCATED_REMAINDER, 0, i);
        r = field_at(v, i, (uint64_t)(w - 1));
        i += (uint64_t)(w - 1);
        /* 3b: r >= cutoff needs one extension bit. */
        if (r >= cutoff) {
            if (i == v.len) /* = p + q + w = len */
                return make_result(RSV_ERR_GOLOMB_TRUNCATED_REMAINDER, 0, i);
            uint64_t b = (uint64_t)view_bit(v, i);
            i++;
            /* r < 2^(w-1) so 2r + b < 2^w <= 2^64: no overflow; 2r + b >= cutoff. */
            r = 2 * r + b - cutoff;
        }
    }

    /* Step 4: q*m <= MAX since q <= L; fail if q*m + r > MAX. */
    uint64_t qm = q * m;
    if (r > U64_MAX_ - qm)
        return make_result(RSV_ERR_GOLOMB_SUM_OVERFLOW, 0, i);

    /* Step 5. */
    return make_result(RSV_OK, qm + r, i);
}

/* ------------------------------------------------------------------------ */
/* Batch forms: loop the single decoder, stop at the first failure.         */
/* ------------------------------------------------------------------------ */

typedef rsv_oracle_result (*single_fn)(rsv_view, uint64_t, uint64_t);

static rsv_oracle_result batch(single_fn fn, rsv_view v, uint64_t p, uint64_t param,
                               uint64_t *out, size_t count, size_t *done)
{
    if (done != NULL)
        *done = 0;
    if (done == NULL || (out == NULL && count > 0) || p > v.len)
        return make_result(RSV_ERR_INVALID_ARGUMENT, 0, p);
    uint64_t pos = p;
    for (size_t j = 0; j < count; j++) {
        rsv_oracle_result r = fn(v, pos, param);
        if (r.status != RSV_OK)
            return make_result(r.status, 0, r.pos);
        out[j] = r.value;
        pos = r.pos;
        *done = j + 1;
    }
    return make_result(RSV_OK, 0, pos);
}

rsv_oracle_result rsv_oracle_read_n(rsv_view v, uint64_t p, uint64_t w,
                                    uint64_t *out, size_t count, size_t *done)
{
    return batch(rsv_oracle_read, v, p, w, out, count, done);
}

rsv_oracle_result rsv_oracle_read_eg_n(rsv_view v, uint64_t p, uint64_t k,
                                       uint64_t *out, size_t count, size_t *done)
{
    return batch(rsv_oracle_read_eg, v, p, k, out, count, done);
}

rsv_oracle_result rsv_oracle_read_golomb_n(rsv_view v, uint64_t p, uint64_t m,
                                           uint64_t *out, size_t count, size_t *done)
{
    return batch(rsv_oracle_read_golomb, v, p, m, out, count, done);
}

/* ------------------------------------------------------------------------ */
/* Reference encoders into '0'/'1' strings                                   */
/* ------------------------------------------------------------------------ */

/* Appends `w` (<= 64) low bits of x, most significant first, at bits[*at]. */
static void emit_field(char *bits, uint64_t *at, uint64_t x, unsigned w)
{
    for (unsigned j = w; j > 0; j--) {
        bits[*at] = ((x >> (j - 1)) & 1u) ? '1' : '0'; /* shift j-1 <= 63 */
        (*at)++;
    }
}

static void emit_run(char *bits, uint64_t *at, char c, uint64_t n)
{
    for (uint64_t j = 0; j < n; j++) {
        bits[*at] = c;
        (*at)++;
    }
}

/* Common prologue/epilogue: NUL-terminates on failure (bits has cap + 1 chars). */
static rsv_status enc_fail(rsv_status st, char *bits, uint64_t *nbits, uint64_t len)
{
    if (bits != NULL)
        bits[0] = '\0';
    if (nbits != NULL)
        *nbits = len;
    return st;
}

rsv_status rsv_oracle_encode_fixed(uint64_t v, uint64_t w, char *bits, size_t cap, uint64_t *nbits)
{
    if (bits == NULL)
        return enc_fail(RSV_ERR_INVALID_ARGUMENT, bits, nbits, 0);
    /* §2 put(v, w): w > 64 -> WIDTH; w < 64 and v >= 2^w -> VALUE_TOO_WIDE. */
    if (w > 64)
        return enc_fail(RSV_ERR_WIDTH, bits, nbits, 0);
    if (w < 64 && (v >> w) != 0) /* w < 64 here: shift is defined */
        return enc_fail(RSV_ERR_VALUE_TOO_WIDE, bits, nbits, 0);
    if (w > (uint64_t)cap)
        return enc_fail(RSV_ERR_TOO_LARGE, bits, nbits, w);
    uint64_t at = 0;
    emit_field(bits, &at, v, (unsigned)w);
    bits[at] = '\0';
    if (nbits != NULL)
        *nbits = at;
    return RSV_OK;
}

rsv_status rsv_oracle_eg_length(uint64_t v, uint64_t k, uint64_t *nbits)
{
    if (k > 63) {
        if (nbits != NULL)
            *nbits = 0;
        return RSV_ERR_BAD_ORDER;
    }
    uint64_t q = v >> k;
    /* Length = 2*bitlen(q+1) - 1 + k; q + 1 = 2^64 has bitlen 65 (only k = 0). */
    uint64_t n = (q == U64_MAX_) ? 65u : (uint64_t)bitlen64(q + 1);
    if (nbits != NULL)
        *nbits = 2 * n - 1 + k;
    return RSV_OK;
}

rsv_status rsv_oracle_encode_eg(uint64_t v, uint64_t k, char *bits, size_t cap, uint64_t *nbits)
{
    if (bits == NULL)
        return enc_fail(RSV_ERR_INVALID_ARGUMENT, bits, nbits, 0);
    uint64_t len;
    rsv_status st = rsv_oracle_eg_length(v, k, &len);
    if (st != RSV_OK)
        return enc_fail(st, bits, nbits, 0);
    if (len > (uint64_t)cap)
        return enc_fail(RSV_ERR_TOO_LARGE, bits, nbits, len);

    uint64_t at = 0;
    uint64_t q = v >> k; /* §3.1: q = v >> k, c = q + 1, n = bitlen(c) */
    if (q == U64_MAX_) {
        /* Maximum code (k = 0, v = MAX): c = 2^64 -> 0^64 1 0^64. */
        emit_run(bits, &at, '0', 64);
        emit_run(bits, &at, '1', 1);
        emit_run(bits, &at, '0', 64);
    } else {
        uint64_t c = q + 1;
        unsigned n = bitlen64(c);
        emit_run(bits, &at, '0', (uint64_t)(n - 1)); /* (n - 1) zeros */
        emit_field(bits, &at, c, n);                 /* c in n bits */
    }
    emit_field(bits, &at, v, (unsigned)k); /* low k bits of v */
    bits[at] = '\0';
    if (nbits != NULL)
        *nbits = at;
    return RSV_OK;
}

rsv_status rsv_oracle_golomb_length(uint64_t v, uint64_t m, uint64_t *nbits)
{
    if (m == 0) {
        if (nbits != NULL)
            *nbits = 0;
        return RSV_ERR_BAD_MODULUS;
    }
    uint64_t q = v / m, r = v % m;
    unsigned w;
    uint64_t cutoff;
    golomb_params(m, &w, &cutoff);
    uint64_t rem_len = (r < cutoff) ? (uint64_t)(w - 1) : (uint64_t)w;
    /* Length = q + 1 + rem_len, with overflow checks. */
    if (q == U64_MAX_ || rem_len > U64_MAX_ - (q + 1)) {
        if (nbits != NULL)
            *nbits = U64_MAX_;
        return RSV_ERR_TOO_LARGE;
    }
    if (nbits != NULL)
        *nbits = q + 1 + rem_len;
    return RSV_OK;
}

rsv_status rsv_oracle_encode_golomb(uint64_t v, uint64_t m, char *bits, size_t cap, uint64_t *nbits)
{
    if (bits == NULL)
        return enc_fail(RSV_ERR_INVALID_ARGUMENT, bits, nbits, 0);
    uint64_t len;
    rsv_status st = rsv_oracle_golomb_length(v, m, &len);
    if (st == RSV_ERR_BAD_MODULUS)
        return enc_fail(st, bits, nbits, 0);
    if (st != RSV_OK) /* TOO_LARGE: length does not fit u64 */
        return enc_fail(st, bits, nbits, U64_MAX_);
    if (len > (uint64_t)cap)
        return enc_fail(RSV_ERR_TOO_LARGE, bits, nbits, len);

    /* §4.1: q zeros, '1', truncated-binary remainder. */
    uint64_t q = v / m, r = v % m;
    unsigned w;
    uint64_t cutoff;
    golomb_params(m, &w, &cutoff);
    uint64_t at = 0;
    emit_run(bits, &at, '0', q);
    emit_run(bits, &at, '1', 1);
    if (r < cutoff)
        emit_field(bits, &at, r, w - 1); /* r < cutoff implies w >= 1 */
    else
        emit_field(bits, &at, r + cutoff, w); /* r + cutoff < 2^w */
    bits[at] = '\0';
    if (nbits != NULL)
        *nbits = at;
    return RSV_OK;
}
