/* reservoir — keys and values shared by KV03 files and record streams
 * (KV03.md §1, §2).
 *
 * A value has three states and the API never collapses them:
 *   tombstone          kind = RSV_VALUE_TOMBSTONE            bits `0`
 *   present, empty     kind = RSV_VALUE_PRESENT, len = 0     bits `11`
 *   present, n bytes   kind = RSV_VALUE_PRESENT, len = n     `1` EG0(n) bytes
 * Keys are byte strings compared as unsigned bytes (a proper prefix first),
 * which equals comparing their MSB-first key bits. */
#ifndef RESERVOIR_RECORD_H
#define RESERVOIR_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "reservoir/export.h"
#include "reservoir/reader.h"
#include "reservoir/status.h"
#include "reservoir/view.h"
#include "reservoir/writer.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum rsv_value_kind {
    RSV_VALUE_TOMBSTONE = 0, /* absent: the 1-bit value `0` */
    RSV_VALUE_PRESENT = 1    /* present, possibly empty */
} rsv_value_kind;

/* A value in memory. For a tombstone data/len are ignored (0/NULL by
 * convention); a present value may have len = 0 and data = NULL. */
typedef struct rsv_value {
    rsv_value_kind kind;
    const uint8_t *data;
    size_t len;
} rsv_value;

static inline rsv_value rsv_value_tombstone(void)
{
    rsv_value v = {RSV_VALUE_TOMBSTONE, NULL, 0};
    return v;
}
static inline rsv_value rsv_value_present(const void *data, size_t len)
{
    rsv_value v = {RSV_VALUE_PRESENT, (const uint8_t *)data, len};
    return v;
}

/* A decoded value as it sits in a bit stream: its bytes are a view of 8*len
 * bits that may start inside a byte (nothing is copied). */
typedef struct rsv_value_span {
    rsv_value_kind kind;
    uint64_t len;   /* bytes (0 for a tombstone) */
    rsv_view bytes; /* 8*len bits; for a tombstone the empty view {NULL, 0, 0} */
    uint64_t width; /* encoded bits: 1 for a tombstone, else 1 + |EG0(len)| + 8*len */
} rsv_value_span;

/* One record handed to batch encoders. */
typedef struct rsv_record {
    const uint8_t *key;
    size_t key_len;
    rsv_value value;
    /* Format revision v2 (appended: positional initializers keep working). */
    const uint8_t *code; /* selector code, MSB-first; NULL = the call's default code (C0) */
    uint64_t code_bits;  /* its length in bits (ignored when code == NULL) */
} rsv_record;

/* ---- values (§1.3) ------------------------------------------------------ */

/* Encoded width of a value with `len` bytes (or a tombstone when !present);
 * RSV_ERR_TOO_LARGE for a present value with len > (2^64 - 131) / 8 =
 * 2^61 - 17, the implementation limit (CODES.md §6's TOO_LARGE: "does not
 * fit u64 or the implementation limit"): up to it 1 + |EG0(len)| + 8 len
 * always fits u64 (at most 2^64 - 14); above it the call refuses even the
 * one length whose width would still fit (2^61 - 16: 2^64 - 6). */
RSV_API rsv_status rsv_value_width(rsv_value_kind kind, uint64_t len, uint64_t *width);
/* Append a value. Atomic: on failure nothing was appended. */
RSV_API rsv_status rsv_put_value(rsv_writer *w, rsv_value v);
/* Append a value whose bytes are the 8*len bits of a view (used by merges to
 * copy values without materializing them). Atomic. RSV_ERR_INVALID_ARGUMENT,
 * nothing read, for a kind that is neither, or a present value whose 8*len
 * does not fit u64 or differs from v->bytes.len; RSV_ERR_TOO_LARGE when
 * rsv_value_width refuses the length; past that the writer's reserve
 * decides. */
RSV_API rsv_status rsv_put_value_span(rsv_writer *w, const rsv_value_span *v);
/* Decode a value (§1.3): RSV_ERR_TRUNCATED_FIELD with no bit left, EG0 codec
 * errors unchanged, RSV_ERR_TRUNCATED_VALUE when n > floor(remaining / 8).
 * The reader is left where the failing operation left it. */
RSV_API rsv_status rsv_read_value(rsv_reader *r, rsv_value_span *out);
/* Copy the bytes of a value span into dst (span->len bytes). If they are
 * byte-aligned they could be borrowed instead: see rsv_value_span_borrow. */
RSV_API void rsv_value_span_copy(const rsv_value_span *v, uint8_t *dst);
/* Borrow the bytes in place when the span is byte-aligned: returns 1 and sets
 * *p, else 0. */
RSV_API int rsv_value_span_borrow(const rsv_value_span *v, const uint8_t **p);

/* ---- keys (§1.1, §2) ---------------------------------------------------- */

/* <0, 0, >0 as a is less than, equal to, greater than b. */
RSV_API int rsv_key_compare(const uint8_t *a, size_t na, const uint8_t *b, size_t nb);
/* Leading bits shared by the key bits of a and b (may stop inside a byte). */
RSV_API uint64_t rsv_key_lcp_bits(const uint8_t *a, size_t na, const uint8_t *b, size_t nb);

/* Record-stream form (§2.1): EG0(8|P| - kept) EG0(8|K| - kept) K[kept, 8|K|),
 * kept = exact lcp. Atomic on failure. RSV_ERR_TOO_LARGE, before either key
 * is read, when 8|P| or 8|K| + 258 (the two EG0 codes' longest lengths)
 * does not fit u64; past that the writer's reserve decides (RSV_ERR_TOO_LARGE
 * past its limit, RSV_ERR_NOMEM when a growable writer cannot grow). */
RSV_API rsv_status rsv_put_key_fc(rsv_writer *w, const uint8_t *prev, size_t nprev, const uint8_t *key,
                                  size_t nkey);
/* KV03 form (§2.2): EG0(S) ‖ key bits [local, 8|K|), S = 8|K| - local,
 * local <= 8|K|. Atomic on failure. RSV_ERR_TOO_LARGE, before the key is
 * read, when 8|K| + 129 does not fit u64; past that the writer's reserve
 * decides, as for rsv_put_key_fc. */
RSV_API rsv_status rsv_put_key_kv03(rsv_writer *w, const uint8_t *key, size_t nkey, uint64_t local);

/* Bit-level helpers for rebuilding keys in place. */
/* Compare the bit strings of two views (first differing bit, then length):
 * exactly -1, 0 or 1 as a is less than, equal to, greater than b. */
RSV_API int rsv_view_compare(rsv_view a, rsv_view b);
/* The same value as rsv_view_compare, and *lcp = the number of leading bits
 * the two views share. */
RSV_API int rsv_view_lcp(rsv_view a, rsv_view b, uint64_t *lcp);
/* Write the bits of v into buf starting at bit `at` (MSB-first); bits of buf
 * before `at` in the same byte are kept, later bits of the last touched byte
 * are cleared. buf must hold ceil((at + v.len) / 8) bytes. */
RSV_API void rsv_bits_store(uint8_t *buf, uint64_t at, rsv_view v);

#ifdef __cplusplus
}
#endif
#endif
