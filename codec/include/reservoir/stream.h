/* reservoir — record streams (KV03.md §10): the same records as a KV03 file
 * without blocks, index, dictionary or envelope. Per record: the selector
 * backspace EG0(0) = `1` (plus C0's bits once, for record 0), the §2.1
 * front-coded key and the §1.3 value. The container must carry the extent E
 * in bits; the reader decodes while position < E.
 *
 * The reader keeps ONE rsv_reader across the whole stream and owns a key and
 * a value buffer (grown geometrically, reused). It is poisoned by its first
 * failure: later calls return RSV_ERR_POISONED and rsv_stream_reader_diag
 * keeps the first error, its bit position and the record index. */
#ifndef RESERVOIR_STREAM_H
#define RESERVOIR_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "reservoir/kv03.h"
#include "reservoir/reader.h"
#include "reservoir/record.h"
#include "reservoir/writer.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rsv_stream_writer {
    rsv_writer *out; /* caller's writer; records are appended to it */
    uint64_t start;  /* out's bit count at init: the stream's bit 0 */
    uint8_t code[RSV_KV03_MAX_CODE_BITS / 8];
    uint64_t c;
    uint8_t *prev;
    size_t prev_len, prev_cap;
    uint64_t N;
    rsv_kv03_diag diag;
} rsv_stream_writer;

/* code = NULL: default C0 = `0`. code_bits > 512 → RSV_ERR_TOO_LARGE. */
rsv_status rsv_stream_writer_init(rsv_stream_writer *sw, rsv_writer *out, const uint8_t *code,
                                  uint64_t code_bits);
/* Append one record (strictly increasing keys, else RSV_ERR_UNSORTED; any
 * failure poisons the writer). */
rsv_status rsv_stream_writer_add(rsv_stream_writer *sw, const void *key, size_t key_len,
                                 rsv_value v);
/* Bits written so far: the extent E the container must carry. */
static inline uint64_t rsv_stream_writer_extent(const rsv_stream_writer *sw)
{
    return rsv_writer_bits(sw->out) - sw->start;
}
void rsv_stream_writer_free(rsv_stream_writer *sw);

typedef struct rsv_stream_record {
    uint64_t index;
    const uint8_t *key; /* reader-owned, valid until the next call */
    size_t key_len;
    rsv_value value;    /* data borrowed from the stream when byte-aligned, else reader-owned */
    rsv_value_span value_span;
    uint64_t end;       /* stream bit after the record */
} rsv_stream_record;

typedef struct rsv_stream_reader {
    rsv_reader r;
    const uint8_t *code; /* C0, borrowed */
    uint64_t c;
    uint8_t default_code[1];
    uint8_t *key;
    size_t key_len, key_cap;
    uint8_t *val;
    size_t val_cap;
    uint64_t i;
    rsv_kv03_diag diag;
} rsv_stream_reader;

/* stream = exactly E bits. code = NULL: default C0 = `0`. The code bytes are
 * borrowed for the reader's lifetime. */
rsv_status rsv_stream_reader_init(rsv_stream_reader *sr, rsv_view stream, const uint8_t *code,
                                  uint64_t code_bits);
/* Next record fully decoded (key and value materialized): *more = 1, or
 * *more = 0 at position E. */
rsv_status rsv_stream_reader_next(rsv_stream_reader *sr, rsv_stream_record *out, int *more);
void rsv_stream_reader_free(rsv_stream_reader *sr);
/* Start over on another stream (or the same), keeping the key and value
 * buffers: a warm reader decodes a stream without allocating. */
rsv_status rsv_stream_reader_reset(rsv_stream_reader *sr, rsv_view stream, const uint8_t *code,
                                   uint64_t code_bits);
static inline rsv_kv03_diag rsv_stream_reader_diag(const rsv_stream_reader *sr) { return sr->diag; }

#ifdef __cplusplus
}
#endif
#endif
