/* Private: the KV03 writer's entries for merges (format revision v2). */
#ifndef RSV_KV03_WRITER_H
#define RSV_KV03_WRITER_H

#include "reservoir/kv03.h"

/* Make `code` the code of the next record framed with
 * rsv__kv03_writer_add_framed (below): §11.1 steps 1–3 for the code
 * (TOO_LARGE, SELECTOR_PREFIX, UNSORTED when it sorts before the last
 * record's code); a code other than the last record's starts a fresh key
 * (the caller then passes lcp = 0). The view is copied. Failures poison.
 * Both merge entries, like the public adds: RSV_ERR_POISONED on a poisoned
 * writer, RSV_ERR_STATE after a finish (nothing changed, not poisoned). */
rsv_status rsv__kv03_writer_code(rsv_kv03_writer *w, rsv_view code);

/* Writer entry for merges: key given as its exact lcp (bits) with the
 * previous key and the key bits [lcp, key_bits). */
rsv_status rsv__kv03_writer_add_framed(rsv_kv03_writer *w, uint64_t lcp, uint64_t key_bits,
                                       rsv_view suffix, const rsv_value_span *v);

/* File byte where section 0 (the data stream) starts: the envelope header,
 * then the directory, whose length is a multiple of 8 (KV03.md §5.1, §7). An
 * in-memory writer's buffer keeps this many bytes in front of the stream
 * (rsv_kv03_writer.data_at). */
#define RSV__KV03_DATA_AT (RSV_KV03_HEADER_BYTES + RSV_KV03_DIRECTORY_BYTES)
_Static_assert(RSV_KV03_DIRECTORY_BYTES % 8 == 0, "section 0 follows the directory without a gap");

/* Data-stream bits written so far: flushed to a file sink + still buffered
 * (the front room of an in-memory writer is not stream). */
static inline uint64_t rsv__kv03_writer_bits(const rsv_kv03_writer *w)
{
    return w->flushed_bits + rsv_writer_bits(&w->data) - 8 * w->data_at;
}

/* An in-memory writer's data buffer resized to exactly the header room,
 * `bytes` and the store slack when it is smaller (it grows geometrically
 * from there if needed): a caller that knows the output's size avoids the
 * growth copies and the doubling's slack. RSV_ERR_NOMEM leaves the buffer as
 * it was (the writer stays usable). */
rsv_status rsv__kv03_writer_presize(rsv_kv03_writer *w, uint64_t bytes);

/* Poison the writer with st (unless already poisoned) and discard its file
 * sink's temporary, if any. Merges call it when their own input fails. */
void rsv__kv03_writer_abort(rsv_kv03_writer *w, rsv_status st);

#endif
