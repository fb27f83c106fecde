/* reservoir — the bit writer (CODES.md §2, §3.1, §4.1, §6.2).
 *
 * Appends MSB-first bit fields and codes to a growable heap buffer, or to a
 * caller-owned fixed buffer. Invariant: bytes [0, ceil(nbits/8)) hold the bits
 * written so far and the unused low bits of the last byte are zero, so the
 * buffer is a finished byte string at every moment. Every put computes the
 * full code length first and reserves space before appending anything: a
 * rejected call leaves the contents unchanged and the writer usable. */
#ifndef RESERVOIR_WRITER_H
#define RESERVOIR_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "reservoir/export.h"
#include "reservoir/expgolomb.h"
#include "reservoir/golomb.h"
#include "reservoir/status.h"
#include "reservoir/view.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rsv_writer {
    uint8_t *buf;   /* storage; owned by the writer iff `owned` */
    size_t cap;     /* bytes of storage */
    uint64_t nbits; /* bits written */
    uint64_t limit; /* largest allowed nbits (RSV_ERR_TOO_LARGE beyond) */
    int owned;      /* 1: growable heap buffer; 0: caller's fixed buffer */
} rsv_writer;

/* The spec's ceiling on a writer's length: 2^64 - 8 bits. */
#define RSV_WRITER_MAX_BITS (UINT64_MAX - 7)

/* Growable writer; allocates on first use. Growth is geometric: the first
 * allocation holds at least 64 bytes and every later one at least doubles
 * cap (while cap <= SIZE_MAX / 2), so appending n bytes reallocates
 * O(log n) times. Exactly: when the bytes needed pass cap, the new cap is
 * the least max(cap, 64) * 2^k (k >= 0) that holds them plus 8 bytes of
 * store slack. */
RSV_API void rsv_writer_init(rsv_writer *w);
/* Fixed writer over buf[0..cap); overflowing it fails with RSV_ERR_TOO_LARGE
 * (the buffer is the implementation limit) and leaves the contents as they were. */
RSV_API void rsv_writer_init_fixed(rsv_writer *w, void *buf, size_t cap);
/* Lower the length limit (bits); useful to bound codes from untrusted values.
 * The limit becomes min(max_bits, the writer's ceiling): RSV_WRITER_MAX_BITS,
 * or for a fixed writer its buffer, 8 * cap bits. */
RSV_API void rsv_writer_set_limit(rsv_writer *w, uint64_t max_bits);
/* Free a growable writer's storage (no-op for fixed); the writer is then empty. */
RSV_API void rsv_writer_free(rsv_writer *w);
/* Forget the contents, keep the storage. */
RSV_API void rsv_writer_reset(rsv_writer *w);
/* Make sure `extra_bits` more bits fit without reallocating. */
RSV_API rsv_status rsv_writer_reserve(rsv_writer *w, uint64_t extra_bits);

static inline uint64_t rsv_writer_bits(const rsv_writer *w) { return w->nbits; }
static inline size_t rsv_writer_nbytes(const rsv_writer *w) { return (size_t)((w->nbits + 7) / 8); }
static inline const uint8_t *rsv_writer_data(const rsv_writer *w) { return w->buf; }
static inline rsv_view rsv_writer_view(const rsv_writer *w)
{
    return rsv_view_make(w->buf, 0, w->nbits);
}

/* Hand the finished bytes (ceil(nbits/8), zero padded) to the caller. For a
 * growable writer *out must be released with free() and the writer is left
 * empty; for a fixed writer *out is the caller's own buffer. A growable
 * writer that never allocated (nothing written) hands out a fresh 1-byte
 * block; if that allocation fails: RSV_ERR_NOMEM, the writer unchanged. */
RSV_API rsv_status rsv_writer_finish(rsv_writer *w, uint8_t **out, size_t *nbytes);

/* The put functions take the value first and the code's parameter after it
 * (as the spec's put(v, w)): rsv_put(w, v, width), rsv_put_eg(w, v, k),
 * rsv_put_golomb(w, v, g), rsv_put_golomb_m(w, v, m).
 *
 * put(v, width): RSV_ERR_WIDTH for width > 64, RSV_ERR_VALUE_TOO_WIDE when
 * width < 64 and v >= 2^width. */
RSV_API rsv_status rsv_put(rsv_writer *w, uint64_t v, unsigned width);
/* EG_k(v), 0 <= k <= 63 (RSV_ERR_BAD_ORDER otherwise); up to 129 bits. */
RSV_API rsv_status rsv_put_eg(rsv_writer *w, uint64_t v, unsigned k);
/* Golomb code of v; RSV_ERR_BAD_MODULUS for an invalid struct (m = 0);
 * RSV_ERR_TOO_LARGE / RSV_ERR_NOMEM, before appending anything, for a
 * quotient run that does not fit. */
RSV_API rsv_status rsv_put_golomb(rsv_writer *w, uint64_t v, const rsv_golomb *g);
/* The same for modulus m (RSV_ERR_BAD_MODULUS for m = 0); prefer
 * rsv_golomb_init once per modulus in loops. */
RSV_API rsv_status rsv_put_golomb_m(rsv_writer *w, uint64_t v, uint64_t m);
/* `count` zero bits. */
RSV_API rsv_status rsv_put_zeros(rsv_writer *w, uint64_t count);
/* Copy the bits of a view (loads only the view's bytes). */
RSV_API rsv_status rsv_put_view(rsv_writer *w, rsv_view v);
/* Append n whole bytes (8n bits) at the current, possibly unaligned, position. */
RSV_API rsv_status rsv_put_bytes(rsv_writer *w, const void *bytes, size_t n);

#ifdef __cplusplus
}
#endif
#endif
