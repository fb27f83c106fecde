/* reservoir — record streams (KV03.md §10): the same records as a KV03 file
 * without blocks, index, dictionary or envelope. Per record: the selector
 * backspace EG0(0) = `1` (plus C0's bits once, for record 0), the §2.1
 * front-coded key and the §1.3 value. The container must carry the extent E
 * in bits; the reader decodes while position < E.
 *
 * The reader keeps ONE rsv_reader across the whole stream and owns a key and
 * a value buffer (grown geometrically, reused). It is poisoned by its first
 * failure: later calls return RSV_ERR_POISONED and rsv_stream_reader_diag
 * keeps the first error, its bit position and the record index.
 *
 * Format revision v2 (§10): records may carry different selector codes. The
 * writer takes a code per record (rsv_stream_writer_add_coded): record 0
 * writes `1` and all of C_0; a record with the previous code `1`; a code
 * change EG0(c_{i-1} - lcp(C_{i-1}, C_i)), then C_i's bits from the lcp on,
 * and its key is front-coded against the empty key. The reader is given a
 * code set (rsv_stream_reader_init_set) that is prefix-free and holds every
 * code the stream uses; rsv_stream_reader_init(code) is the one-code set
 * {code} and reads exactly as v1. */
#ifndef RESERVOIR_STREAM_H
#define RESERVOIR_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "reservoir/export.h"
#include "reservoir/kv03.h"
#include "reservoir/reader.h"
#include "reservoir/record.h"
#include "reservoir/writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A code set (§10): m codes, code j = bits [ends[j-1] (0 for j = 0),
 * ends[j]) of `bits`, MSB-first; ends in host order, nondecreasing. The
 * arrays are borrowed for the reader's lifetime and must not change in it
 * (rsv_stream_reader_init_set checks the set once, before the first
 * record). Record indices refer to this order (which need not be sorted). */
typedef struct rsv_code_set {
    const uint8_t *bits;
    const uint64_t *ends;
    size_t m;
} rsv_code_set;

typedef struct rsv_stream_writer {
    rsv_writer *out; /* caller's writer; records are appended to it */
    uint64_t start;  /* out's bit count at init: the stream's bit 0 */
    uint8_t code[RSV_KV03_MAX_CODE_BITS / 8]; /* the init's C0 */
    uint64_t c;
    uint8_t *prev;
    size_t prev_len, prev_cap;
    uint64_t N;
    rsv_kv03_diag diag;
    /* v2: the last record's code and the codes used so far (private) */
    uint8_t cur[RSV_KV03_MAX_CODE_BITS / 8];
    uint64_t cur_bits;
    struct rsv__codes *codes;
} rsv_stream_writer;

/* code = NULL: default C0 = `0`. code_bits > 512 → RSV_ERR_TOO_LARGE. A
 * failed init (also out = NULL: RSV_ERR_INVALID_ARGUMENT) leaves the writer
 * poisoned with its status: every add returns RSV_ERR_POISONED and writes
 * nothing; freeing it is safe. */
RSV_API rsv_status rsv_stream_writer_init(rsv_stream_writer *sw, rsv_writer *out, const uint8_t *code,
                                          uint64_t code_bits);
/* Append one record (strictly increasing keys, else RSV_ERR_UNSORTED; any
 * failure poisons the writer). The previous key is kept in a buffer
 * (prev_cap bytes) that grows from 64 bytes by doubling to the least such
 * capacity that holds the key: a record whose key fits (a key as long as
 * the capacity included) and whose code was used before allocates nothing
 * but what `out` does. When that doubling would pass SIZE_MAX / 2 the
 * buffer is asked for exactly key_len bytes (a key that long cannot be
 * held: RSV_ERR_NOMEM, before the key is read or anything written). */
RSV_API rsv_status rsv_stream_writer_add(rsv_stream_writer *sw, const void *key, size_t key_len,
                                         rsv_value v);
/* Format revision v2: append one record with its own code (the first
 * code_bits bits of code, MSB-first; code = NULL: the init's C0). Checks in
 * the order of §11.1 after the argument checks: code_bits > 512 →
 * RSV_ERR_TOO_LARGE; a new code that is a prefix of a code used before or
 * has one as a prefix → RSV_ERR_SELECTOR_PREFIX; logical key (code ‖ key)
 * not increasing → RSV_ERR_UNSORTED. The stream is a pure function of the
 * records; a stream whose records all use C0 is the v1 stream. */
RSV_API rsv_status rsv_stream_writer_add_coded(rsv_stream_writer *sw, const uint8_t *code,
                                               uint64_t code_bits, const void *key, size_t key_len,
                                               rsv_value v);
/* Bits written so far: the extent E the container must carry. */
static inline uint64_t rsv_stream_writer_extent(const rsv_stream_writer *sw)
{
    return rsv_writer_bits(sw->out) - sw->start;
}
/* Release the writer's buffers (not `out`). A freed writer may only be
 * initialized again or freed again (a no-op); sw = NULL is ignored. */
RSV_API void rsv_stream_writer_free(rsv_stream_writer *sw);

typedef struct rsv_stream_record {
    uint64_t index;
    const uint8_t *key; /* reader-owned, valid until the next call */
    size_t key_len;
    rsv_value value;    /* data borrowed from the stream when byte-aligned, else reader-owned;
                         * NULL for a tombstone and for an empty value */
    rsv_value_span value_span;
    uint64_t end;       /* stream bit after the record */
    uint64_t code;      /* index of the record's code in the reader's code set (0 for one code) */
    rsv_view code_bits; /* that code's bits (borrowed from the set) */
} rsv_stream_record;

typedef struct rsv_stream_reader {
    rsv_reader r;
    const uint8_t *code; /* one-code reader: C0, borrowed */
    uint64_t c;
    uint8_t default_code[1];
    rsv_code_set set; /* set reader (set.ends != NULL), else the one code above */
    uint64_t cur;     /* index of the previous record's code */
    rsv_view cur_bits; /* its bits: set when the code is read, copied per record */
    uint8_t *key;
    size_t key_len, key_cap;
    uint8_t *val;
    size_t val_cap;
    uint64_t i;
    rsv_kv03_diag diag;
} rsv_stream_reader;

/* stream = exactly E bits. code = NULL: default C0 = `0`. The code bytes are
 * borrowed for the reader's lifetime. */
RSV_API rsv_status rsv_stream_reader_init(rsv_stream_reader *sr, rsv_view stream, const uint8_t *code,
                                          uint64_t code_bits);
/* Format revision v2: a reader with a code set. Before anything is read:
 * set = NULL, ends not nondecreasing or bits = NULL with a nonempty code →
 * RSV_ERR_INVALID_ARGUMENT; a code longer than 512 bits → RSV_ERR_TOO_LARGE
 * (the spec's MAY, as the writers); two codes of which one is a prefix of the
 * other (equal codes included) → RSV_ERR_SELECTOR_PREFIX. A failed init
 * poisons the reader (next returns RSV_ERR_POISONED). The prefix check
 * compares every pair (O(m^2) code comparisons, once). Per record §10
 * steps 1-5: selector backspace b > |previous code| →
 * RSV_ERR_SORT_BACKSPACE after the EG0; the code completed by the shortest
 * continuation, RSV_ERR_UNKNOWN_SELECTOR after the last bits taken; a code
 * change restarts the key; logical keys not increasing → RSV_ERR_UNSORTED
 * after the record. Each completion step scans the set (O(m) per step, only
 * on code changes and record 0); nothing is allocated for it. */
RSV_API rsv_status rsv_stream_reader_init_set(rsv_stream_reader *sr, rsv_view stream,
                                              const rsv_code_set *set);
/* rsv_stream_reader_reset with a code set. */
RSV_API rsv_status rsv_stream_reader_reset_set(rsv_stream_reader *sr, rsv_view stream,
                                               const rsv_code_set *set);
/* Next record fully decoded (key and value materialized): *more = 1, or
 * *more = 0 at position E. */
RSV_API rsv_status rsv_stream_reader_next(rsv_stream_reader *sr, rsv_stream_record *out, int *more);
RSV_API void rsv_stream_reader_free(rsv_stream_reader *sr);
/* Start over on another stream (or the same), keeping the key and value
 * buffers: a warm reader decodes a stream without allocating. */
RSV_API rsv_status rsv_stream_reader_reset(rsv_stream_reader *sr, rsv_view stream, const uint8_t *code,
                                           uint64_t code_bits);
static inline rsv_kv03_diag rsv_stream_reader_diag(const rsv_stream_reader *sr) { return sr->diag; }

#ifdef __cplusplus
}
#endif
#endif
