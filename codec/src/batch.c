/* Batch decoders into caller-owned arrays.
 *
 * Far from the end of the view the loops use a branch-free "OR" refill once
 * per group of values: the cache's valid region always ends on a byte boundary
 * (`ptr`), so the next 8 bytes can be ORed in right below the n valid bits
 * and n topped up to 56..63 without a branch. The load's address depends
 * only on `ptr`, which changed at the previous refill, so the CPU issues it
 * while the previous group is still being decoded: the loop-carried chain is
 * clz -> shift -> shift per code plus one OR per group, with no load and no
 * data-dependent "refill now?" branch on it.
 *
 * The bits below n are then true view bits (the partial byte past the
 * counted ones), not the zeros the reader's invariant demands; they are
 * cleared when the state goes back into the rsv_reader. A value is accepted
 * only if its whole code lies in the n counted bits, and the loop runs only
 * while all 8 loaded bytes lie before the view's last (partial) byte, so no
 * load touches a byte outside the view (CODES.md A1) and no counted bit lies
 * past its end.
 *
 * Everything else (the last 16 bytes of the view, codes longer than the
 * cache, errors, exotic parameters) is decoded by the single-value decoder,
 * so positions and statuses after a failure are exactly the single decoder's
 * (CODES.md §6.3) by construction.
 *
 * Each loop is compiled twice, plain and with BMI2 (three-operand shifts that
 * need no CL register moves), and chosen per call from the CPU-feature word
 * the compiler runtime fills before main (as crc32c.c does). */
#include "reservoir/reader.h"

#include "bits.h"

#define ALWAYS_INLINE RSV__ALWAYS_INLINE

#if defined(RSV__CPU_DISPATCH)
#define HAVE_BMI2_VARIANT 1
#define TARGET_BMI2 __attribute__((target("bmi2")))
static int cpu_has_bmi2(void)
{
#ifdef RSV_BATCH_PLAIN_ONLY /* tests only: the plain loops on a BMI2 CPU (test_diff_batch_plain) */
    return 0;
#else
    return __builtin_cpu_supports("bmi2");
#endif
}
#else
#define HAVE_BMI2_VARIANT 0
#endif

/* Index of the highest 1 of x (63 - clz), or 0 when x = 0, which makes
 * every code length exceed n, so the value is rejected. On x86-64, BSR
 * leaves its destination unchanged for a zero source (documented by AMD;
 * Linux's fls64 relies on the same for Intel), which keeps an `x | 1` off the
 * decode chain. */
static ALWAYS_INLINE unsigned msb_or0(uint64_t x)
{
#if defined(RSV__BITS_BUILTIN) && defined(__x86_64__)
    uint64_t b = 0;
    __asm__("bsrq %1, %0" : "+r"(b) : "rm"(x) : "cc");
    return (unsigned)b;
#else
    return 63u - rsv__clz64(x | 1);
#endif
}

typedef struct fast_state {
    uint64_t cache; /* top n bits valid; below them true view bits or zeros */
    uint64_t ptr;   /* byte index (from data) where the valid region ends */
    uint64_t lim;   /* loads at ptr are allowed while ptr <= lim */
    unsigned n;
} fast_state;

/* Enter the fast loop at r->pos. Returns 0 when fewer than 16 whole bytes of
 * the view remain (the single-value decoders take those). The first load
 * starts at pos's byte; only 7 bytes minus the leading s bits are counted so
 * that n <= 56 and the OR refill's shift stays below 64. Invariant from here
 * on: pos + n = 8 * ptr - off. */
static ALWAYS_INLINE int fast_enter(const rsv_reader *r, fast_state *f)
{
    uint64_t bit = r->off + r->pos;
    uint64_t end = (r->off + r->len) >> 3; /* first byte that is not whole */
    uint64_t b = bit >> 3;
    if (end < 16 || b > end - 16) return 0;
    unsigned s = (unsigned)(bit & 7);
    f->cache = rsv__load_be64_in(r->data + b, RSV__READER_LO(r), RSV__READER_HI(r)) << s; /* s <= 7 */
    f->n = 56u - s;
    f->ptr = b + 7;
    f->lim = end - 8;
    return 1;
}

/* Back into the reader, restoring "bits below n are zero". */
static ALWAYS_INLINE void fast_leave(rsv_reader *r, const fast_state *f)
{
    r->pos = 8 * f->ptr - r->off - f->n;
    r->n = f->n;
    r->cache = f->n ? f->cache & ~(UINT64_MAX >> f->n) : 0; /* 1 <= n <= 63 */
}

/* Refills that are certainly in bounds from here: each one advances ptr by
 * at most 7 bytes, so (lim - ptr) / 7 + 1 of them stay at or below lim. One
 * trip counter then replaces the per-iteration bounds test. */
static ALWAYS_INLINE uint64_t safe_refills(uint64_t ptr, uint64_t lim, uint64_t most)
{
    uint64_t t = ptr <= lim ? (lim - ptr) / 7 + 1 : 0;
    return t < most ? t : most;
}

/* The OR refill (the loops pass their register copies of the state; r only
 * gives the load-check bound: from the byte holding p = 8 ptr - off - n (A4)
 * to the view's end). */
static ALWAYS_INLINE void or_refill(const uint8_t *data, uint64_t *cache, uint64_t *ptr, unsigned *n,
                                    const rsv_reader *r)
{
    (void)r;
    *cache |= rsv__load_be64_in(data + *ptr, RSV__VIEW_LO(data, 0, 8 * *ptr - *n), RSV__READER_HI(r)) >> *n; /* n <= 63 */
    *ptr += (63u - *n) >> 3;
    *n |= 56u; /* n + 8 * (whole bytes added) */
}

static rsv_status finish(rsv_status st, size_t i, size_t *done)
{
    if (done) *done = i;
    return st;
}

/* ---- fixed-width fields ------------------------------------------------- */

static ALWAYS_INLINE size_t fixed_run(rsv_reader *r, unsigned w, uint64_t *out, size_t count)
{
    fast_state f;
    size_t i = 0;
    if (!fast_enter(r, &f)) return 0;
    for (;;) {
        uint64_t trips = safe_refills(f.ptr, f.lim, count - i);
        if (trips == 0) break;
        for (; trips; trips--) {
            or_refill(r->data, &f.cache, &f.ptr, &f.n, r);
            out[i++] = f.cache >> (64u - w); /* 1 <= w <= 56 <= n */
            f.cache <<= w;
            f.n -= w;
        }
    }
    fast_leave(r, &f);
    return i;
}

static size_t fixed_run_plain(rsv_reader *r, unsigned w, uint64_t *out, size_t count)
{
    return fixed_run(r, w, out, count);
}
#if HAVE_BMI2_VARIANT
TARGET_BMI2 static size_t fixed_run_bmi2(rsv_reader *r, unsigned w, uint64_t *out, size_t count)
{
    return fixed_run(r, w, out, count);
}
#endif

rsv_status rsv_read_n(rsv_reader *r, unsigned w, uint64_t *out, size_t count, size_t *done)
{
    size_t i = 0;
    rsv_status st = RSV_OK;
    if (w >= 1 && w <= 56 && count > 0) {
#if HAVE_BMI2_VARIANT
        i = cpu_has_bmi2() ? fixed_run_bmi2(r, w, out, count) : fixed_run_plain(r, w, out, count);
#else
        i = fixed_run_plain(r, w, out, count);
#endif
    }
    for (; i < count; i++) {
        st = rsv_read(r, w, &out[i]);
        if (RSV_UNLIKELY(st != RSV_OK)) break;
    }
    return finish(st, i, done);
}

/* ---- exponential-Golomb ------------------------------------------------- */

/* One code from `cache`: z zeros, then c = (q+1)*2^k + rem in z+1+k bits.
 * Shifting by z first puts the code's marker bit on top, so the next code is
 * one more shift away and the length arithmetic stays off the cache's
 * dependency chain. b = 63 - z is the marker's bit index, so the value is
 * c1 >> (b - k). Shift counts are masked: they leave 0..63 only for a code
 * longer than the cache, whose results the caller discards. */
#define EG_STEP(cache, k, bias, z, v, rest)                                                  \
    do {                                                                                     \
        unsigned b_ = msb_or0(cache);                                                        \
        (z) = 63u ^ b_;                                                                      \
        uint64_t c1_ = (cache) << (z);                                                       \
        (v) = (c1_ >> ((b_ - (k)) & 63u)) - (bias);                                          \
        (rest) = c1_ << (((z) + 1u + (k)) & 63u);                                            \
    } while (0)

/* Decodes into out[*pi..count) until fewer than three values are wanted,
 * the view's last 16 bytes are near, or a code does not fit the cache
 * (returns 1 then, with the reader at that code). Three codes per refill:
 * n >= 56 after it, and the triple is accepted with one test when all three
 * lie in the n valid bits (otherwise the first two or the first alone, if
 * they fit). The trip count leaves room for whole triples, so the hot loop
 * has no count or bounds test. Inlined with
 * k = 0 and with a variable k, so the order-0 loop folds its constants. */
static ALWAYS_INLINE int eg_run(rsv_reader *r, unsigned k, uint64_t *out, size_t count, size_t *pi)
{
    fast_state f;
    if (!fast_enter(r, &f)) return 0;
    const uint8_t *data = r->data;
    const uint64_t bias = UINT64_C(1) << k;
    uint64_t *o = out + *pi, *const end = out + count;
    uint64_t cache = f.cache, ptr = f.ptr;
    unsigned n = f.n;
    int long_code = 0;
    for (;;) {
        uint64_t trips = safe_refills(ptr, f.lim, (uint64_t)(end - o) / 3);
        if (trips == 0) break;
        for (; trips; trips--) {
            or_refill(data, &cache, &ptr, &n, r);
            unsigned z1, z2, z3;
            uint64_t v1, v2, v3, d1, d2, d3;
            EG_STEP(cache, k, bias, z1, v1, d1);
            EG_STEP(d1, k, bias, z2, v2, d2);
            EG_STEP(d2, k, bias, z3, v3, d3);
            unsigned t1 = 2 * z1 + 1 + k, t12 = t1 + 2 * z2 + 1 + k, t = t12 + 2 * z3 + 1 + k;
            if (RSV_LIKELY(t <= n)) {
                o[0] = v1;
                o[1] = v2;
                o[2] = v3;
                o += 3;
                cache = d3;
                n -= t;
            } else if (t12 <= n) {
                o[0] = v1;
                o[1] = v2;
                o += 2;
                cache = d2;
                n -= t12;
            } else if (t1 <= n) {
                *o++ = v1;
                cache = d1;
                n -= t1;
            } else {
                long_code = 1;
                goto out;
            }
        }
    }
out:
    f.cache = cache, f.ptr = ptr, f.n = n;
    fast_leave(r, &f);
    *pi = (size_t)(o - out);
    return long_code;
}

static int eg_run_plain(rsv_reader *r, unsigned k, uint64_t *out, size_t count, size_t *pi)
{
    return k == 0 ? eg_run(r, 0, out, count, pi) : eg_run(r, k, out, count, pi);
}
#if HAVE_BMI2_VARIANT
TARGET_BMI2 static int eg_run_bmi2(rsv_reader *r, unsigned k, uint64_t *out, size_t count, size_t *pi)
{
    return k == 0 ? eg_run(r, 0, out, count, pi) : eg_run(r, k, out, count, pi);
}
#endif

/* Single decodes on a local copy of the reader: through the caller's
 * pointer, every store to out[] could alias the reader's fields and would
 * force them back to memory on each value. */
static size_t eg_singles(rsv_reader *r, unsigned k, uint64_t *out, size_t i, size_t stop,
                         rsv_status *st)
{
    rsv_reader l = *r;
    for (; i < stop; i++) {
        *st = rsv_read_eg(&l, k, &out[i]);
        if (RSV_UNLIKELY(*st != RSV_OK)) break;
    }
    *r = l;
    return i;
}

rsv_status rsv_read_eg_n(rsv_reader *r, unsigned k, uint64_t *out, size_t count, size_t *done)
{
    size_t i = 0;
    rsv_status st = RSV_OK;
    if (k < 63) {
#if HAVE_BMI2_VARIANT
        int (*run)(rsv_reader *, unsigned, uint64_t *, size_t, size_t *) =
            cpu_has_bmi2() ? eg_run_bmi2 : eg_run_plain;
#else
        int (*run)(rsv_reader *, unsigned, uint64_t *, size_t, size_t *) = eg_run_plain;
#endif
        while (i < count && run(r, k, out, count, &i)) {
            /* A code longer than the cache. Long codes come in runs (wide
             * values): decode it and the next 16 singly before re-entering,
             * which keeps the entry cost off most of them. */
            size_t stop = count - i > 17 ? i + 17 : count;
            i = eg_singles(r, k, out, i, stop, &st);
            if (RSV_UNLIKELY(st != RSV_OK)) return finish(st, i, done);
        }
    }
    i = eg_singles(r, k, out, i, count, &st); /* the view's tail, errors, k >= 63 */
    return finish(st, i, done);
}

/* ---- Golomb ------------------------------------------------------------- */

/* Per-modulus constants for the fast loop (1 <= w <= 55), copied into
 * locals. With the marker bit on top of c1 = cache << q, the w-bit window
 * after it is x = (c1 >> (63 - w)) & mask, and the long case is the single
 * compare c1 >= longcut (golomb.h). */
typedef struct golomb_fast {
    uint64_t m, cutoff, mask, longcut;
    unsigned w, qfast;
} golomb_fast;

#define GOLOMB_STEP(cache, g, q, v, used, rest)                                              \
    do {                                                                                     \
        (q) = 63u ^ msb_or0(cache);                                                             \
        uint64_t c1_ = (cache) << (q);                                                       \
        unsigned longc_ = c1_ >= (g).longcut;                                                \
        uint64_t x_ = (c1_ >> (63u - (g).w)) & (g).mask;                                     \
        (v) = (uint64_t)(q) * (g).m + (longc_ ? x_ - (g).cutoff : x_ >> 1);                  \
        (used) = (q) + (g).w + longc_;                                                       \
        (rest) = c1_ << (((g).w + longc_) & 63u);                                            \
    } while (0)

/* One code per refill: the Golomb step needs more constants than the EG one
 * (m, cutoff, mask, longcut, w), and a pair per refill spilled them. */
static ALWAYS_INLINE int golomb_run(rsv_reader *r, const golomb_fast *gp, uint64_t *out, size_t count,
                                    size_t *pi)
{
    const golomb_fast g = *gp; /* locals: stores to out cannot alias them */
    fast_state f;
    if (!fast_enter(r, &f)) return 0;
    const uint8_t *data = r->data;
    uint64_t *o = out + *pi, *const end = out + count;
    uint64_t cache = f.cache, ptr = f.ptr;
    unsigned n = f.n;
    int long_code = 0;
    for (;;) {
        uint64_t trips = safe_refills(ptr, f.lim, (uint64_t)(end - o));
        if (trips == 0) break;
        for (; trips; trips--) {
            or_refill(data, &cache, &ptr, &n, r);
            unsigned q, u;
            uint64_t v, d;
            GOLOMB_STEP(cache, g, q, v, u, d);
            /* q < qfast: no quotient overflow and no sum overflow */
            if (RSV_UNLIKELY(u > n || q >= g.qfast)) {
                long_code = 1;
                goto out;
            }
            *o++ = v;
            cache = d;
            n -= u;
        }
    }
out:
    f.cache = cache, f.ptr = ptr, f.n = n;
    fast_leave(r, &f);
    *pi = (size_t)(o - out);
    return long_code;
}

static int golomb_run_plain(rsv_reader *r, const golomb_fast *g, uint64_t *out, size_t count,
                            size_t *pi)
{
    return golomb_run(r, g, out, count, pi);
}
#if HAVE_BMI2_VARIANT
TARGET_BMI2 static int golomb_run_bmi2(rsv_reader *r, const golomb_fast *g, uint64_t *out,
                                       size_t count, size_t *pi)
{
    return golomb_run(r, g, out, count, pi);
}
#endif

rsv_status rsv_read_golomb_n(rsv_reader *r, const rsv_golomb *g, uint64_t *out, size_t count,
                             size_t *done)
{
    size_t i = 0;
    rsv_status st = RSV_OK;
    if (g->m != 0 && g->w >= 1 && g->w <= 55) {
        golomb_fast gf = {g->m, g->cutoff, g->mask, g->longcut, g->w, g->qfast};
#if HAVE_BMI2_VARIANT
        int (*run)(rsv_reader *, const golomb_fast *, uint64_t *, size_t, size_t *) =
            cpu_has_bmi2() ? golomb_run_bmi2 : golomb_run_plain;
#else
        int (*run)(rsv_reader *, const golomb_fast *, uint64_t *, size_t, size_t *) = golomb_run_plain;
#endif
        while (i < count && run(r, &gf, out, count, &i)) {
            st = rsv_read_golomb(r, g, &out[i]);
            if (RSV_UNLIKELY(st != RSV_OK)) return finish(st, i, done);
            i++;
        }
    }
    for (; i < count; i++) {
        st = rsv_read_golomb(r, g, &out[i]);
        if (RSV_UNLIKELY(st != RSV_OK)) break;
    }
    return finish(st, i, done);
}
