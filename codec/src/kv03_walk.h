/* Private: the frame parse shared by the frame walker, the cursor and merges
 * (KV03.md §3.3 steps 1–5 and the terminal check). */
#ifndef RSV_KV03_WALK_H
#define RSV_KV03_WALK_H

#include "reservoir/kv03.h"

/* Parse record fw->i (steps 1–5), advance fw->i and fw->cont_prev. On
 * failure nothing is recorded in fw->diag: callers poison themselves. */
rsv_status rsv__kv03_parse_frame(rsv_kv03_frames *fw, rsv_kv03_frame *out);
/* After record N-1: position = data extent and cont_prev = terminal length. */
rsv_status rsv__kv03_terminal(const rsv_kv03_frames *fw);

/* Writer entry for merges: key given as its exact lcp (bits) with the
 * previous key and the key bits [lcp, key_bits). */
rsv_status rsv__kv03_writer_add_framed(rsv_kv03_writer *w, uint64_t lcp, uint64_t key_bits,
                                       rsv_view suffix, const rsv_value_span *v);

/* Data-stream bits written so far: flushed to a file sink + still buffered. */
static inline uint64_t rsv__kv03_writer_bits(const rsv_kv03_writer *w)
{
    return w->flushed_bits + rsv_writer_bits(&w->data);
}

/* Poison the writer with st (unless already poisoned) and discard its file
 * sink's temporary, if any. Merges call it when their own input fails. */
void rsv__kv03_writer_abort(rsv_kv03_writer *w, rsv_status st);

#endif
