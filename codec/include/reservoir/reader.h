/* reservoir — the bit reservoir reader (CODES.md §1.3, §2–§4, §5.2).
 *
 * State: the view, the position p and a 64-bit cache holding the next n view
 * bits, left-aligned (the bit at p is the cache MSB), every bit below them
 * zero. The cache is a pure function of p: a refill reloads it from p with a
 * bounded load, so any operation may drop the cache (n = 0) and the reader is
 * still consistent. That is what makes "after a failure the reader behaves
 * like the oracle started at the failure position" cheap to guarantee.
 *
 * Hot paths (fixed fields, exp-Golomb and Golomb codes that fit in the cache)
 * are inline here (their building blocks are in reservoir/reader_impl.h,
 * implementation, not API); everything rare (refill at the view's tail, codes longer
 * than the cache, the 129-bit maximum, every error) lives out of line in
 * reader.c. Shift amounts are commented where they may reach 64. */
#ifndef RESERVOIR_READER_H
#define RESERVOIR_READER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "reservoir/export.h"
#include "reservoir/expgolomb.h"
#include "reservoir/golomb.h"
#include "reservoir/status.h"
#include "reservoir/view.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rsv_reader {
    const uint8_t *data; /* view data pointer (never re-based) */
    uint64_t off;        /* view bit offset */
    uint64_t len;        /* view bit length */
    uint64_t pos;        /* bits consumed, 0 <= pos <= len */
    uint64_t cache;      /* view bits [pos, pos + n), left-aligned, rest zero */
    unsigned n;          /* cached bits, 0..64 */
} rsv_reader;

#ifdef __cplusplus
}
#endif

/* The hot paths below are inline; their building blocks (rsv__ names and the
 * RSV_LIKELY/RSV_UNLIKELY/RSV_CLZ64 macros) are implementation, not API. */
#include "reservoir/reader_impl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- construction and queries (no loads: CODES.md A3) ------------------- */

static inline void rsv_reader_init(rsv_reader *r, rsv_view v)
{
    r->data = v.data;
    r->off = v.off;
    r->len = v.len;
    r->pos = 0;
    r->cache = 0;
    r->n = 0;
}

static inline uint64_t rsv_reader_position(const rsv_reader *r) { return r->pos; }
static inline uint64_t rsv_reader_remaining(const rsv_reader *r) { return r->len - r->pos; }
static inline int rsv_reader_empty(const rsv_reader *r) { return r->pos == r->len; }
static inline rsv_view rsv_reader_view(const rsv_reader *r)
{
    return rsv_view_make(r->data, r->off, r->len);
}

/* Move to absolute position p (<= len, else RSV_ERR_TRUNCATED_SPAN and the
 * reader is unchanged). No loads. */
RSV_API rsv_status rsv_reader_seek(rsv_reader *r, uint64_t p);

/* ---- fixed fields, take, skip (CODES.md §2) ----------------------------- */

/* read(w): the w-bit field at p, 0 <= w <= 64. */
static inline rsv_status rsv_read(rsv_reader *r, unsigned w, uint64_t *out)
{
    if (RSV_LIKELY(w <= r->n)) {
        *out = rsv__top(r->cache, w);
        rsv__consume(r, w);
        return RSV_OK;
    }
    /* A fresh or drained cache: one inline refill serves any field of up to
     * 57 bits (and every field that fits the rest of the view). */
    if (RSV_LIKELY(w <= r->len - r->pos)) {
        rsv__refill(r);
        if (RSV_LIKELY(w <= r->n)) {
            *out = rsv__top(r->cache, w);
            rsv__consume(r, w);
            return RSV_OK;
        }
    }
    return rsv__commit(r, rsv__read_slow(*r, w), out);
}

/* Read one bit (the most frequent field in KV03 framing). */
static inline rsv_status rsv_read_bit(rsv_reader *r, unsigned *bit)
{
    if (RSV_UNLIKELY(r->n == 0)) {
        if (r->pos == r->len) return RSV_ERR_TRUNCATED_FIELD;
        rsv__refill(r);
    }
    *bit = (unsigned)(r->cache >> 63);
    rsv__consume(r, 1);
    return RSV_OK;
}

/* skip(n): advance without loading the skipped bytes (A3). */
static inline rsv_status rsv_skip(rsv_reader *r, uint64_t nbits)
{
    if (RSV_LIKELY(nbits <= r->n)) {
        rsv__consume(r, (unsigned)nbits);
        return RSV_OK;
    }
    if (nbits > r->len - r->pos) return RSV_ERR_TRUNCATED_SPAN;
#ifdef RSV_SELFTEST_PLANT
    rsv__planted_skip(r, nbits);
#endif
    r->pos += nbits;
    r->cache = 0;
    r->n = 0;
    return RSV_OK;
}

/* take(n): the borrowed sub-view (data, off + p, n), then skip(n). */
static inline rsv_status rsv_take(rsv_reader *r, uint64_t nbits, rsv_view *sub)
{
    rsv_view v = rsv_view_make(r->data, r->off + r->pos, nbits);
    rsv_status st = rsv_skip(r, nbits);
    if (st == RSV_OK) *sub = v;
    return st;
}

/* ---- exponential-Golomb order k (CODES.md §3) --------------------------- */

static inline rsv_status rsv_read_eg(rsv_reader *r, unsigned k, uint64_t *out)
{
    if (RSV_LIKELY(rsv__eg_try(r, k, out))) return RSV_OK;
    rsv__refill(r);
    if (RSV_LIKELY(rsv__eg_try(r, k, out))) return RSV_OK;
    if (rsv__eg_long_far(r, k, out)) return RSV_OK;
    return rsv__commit(r, rsv__read_eg_slow(*r, k), out);
}

static inline rsv_status rsv_read_eg0(rsv_reader *r, uint64_t *out)
{
    if (RSV_LIKELY(rsv__eg0_try(r, out))) return RSV_OK;
    rsv__refill(r);
    if (RSV_LIKELY(rsv__eg0_try(r, out))) return RSV_OK;
    if (rsv__eg_long_far(r, 0, out)) return RSV_OK;
    return rsv__commit(r, rsv__read_eg_slow(*r, 0), out);
}

/* ---- Golomb modulus m (CODES.md §4) ------------------------------------- */

static inline rsv_status rsv_read_golomb(rsv_reader *r, const rsv_golomb *g, uint64_t *out)
{
    if (RSV_LIKELY(rsv__golomb_try(r, g, out))) return RSV_OK;
    rsv__refill(r);
    if (RSV_LIKELY(rsv__golomb_try(r, g, out))) return RSV_OK;
    return rsv__commit(r, rsv__read_golomb_slow(*r, g), out);
}

/* Convenience: build the constants and decode once (m = 0 gives
 * RSV_ERR_BAD_MODULUS at the unchanged position). Prefer rsv_golomb_init once
 * per modulus in loops. */
RSV_API rsv_status rsv_read_golomb_m(rsv_reader *r, uint64_t m, uint64_t *out);

/* ---- batch decoders into caller-owned arrays ---------------------------- */

/* Decode `count` values into out[0..count). On failure *done is the number of
 * values decoded (kept in out), the status is the failing decode's and the
 * position is exactly where the single-value decoder leaves it. `done` may be
 * NULL; `out` may be NULL when count is 0 (then nothing is decoded or
 * loaded, the status is RSV_OK and the position stays). No heap allocation. */
RSV_API rsv_status rsv_read_n(rsv_reader *r, unsigned w, uint64_t *out, size_t count, size_t *done);
RSV_API rsv_status rsv_read_eg_n(rsv_reader *r, unsigned k, uint64_t *out, size_t count, size_t *done);
RSV_API rsv_status rsv_read_golomb_n(rsv_reader *r, const rsv_golomb *g, uint64_t *out, size_t count,
                                     size_t *done);

#ifdef __cplusplus
}
#endif
#endif
