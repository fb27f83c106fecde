/* The record batch (reservoir/record_batch.h) against the oracle and the
 * single-record calls. Plain C (no Criterion): the Criterion test
 * (test_record_batch.c), the fuzz targets kv03_parse and stream_diff and the
 * guard-page harness share it.
 *
 * For one input (a KV03 file, or a record stream with its code set) and one
 * batch shape (records per call, arena capacities, values and codes stored or
 * not), three decodes are compared:
 *   oracle  the v2 oracle (rsv_oracle_kv03_decode_v2 WALK mode, or
 *           rsv_oracle_stream_decode_v2): records, code indices, the first
 *           error with its record and bit;
 *   single  rsv_kv03_cursor_record (values stored) / rsv_kv03_cursor_next
 *           (not stored), or rsv_stream_reader_next, until the end or the
 *           first error: every record and the error (status, record, bit)
 *           must be the oracle's;
 *   batch   rsv_kv03_cursor_batch / rsv_stream_reader_batch, n records per
 *           call, until the end or the first error, with every result
 *           checked: records [0, done) are the oracle's next ones (keys back to
 *           back in the key arena from offset 0, value state, length, bytes,
 *           code index, a value pointer inside the input or inside the value
 *           arena's used bytes), every array slot from done on and every
 *           arena byte past key_used / val_used still holds the sentinel
 *           written before the call; `stop` is COUNT iff done = n, END only
 *           at the oracle's end, an arena stop only when the next record's
 *           key (value) length is `need` and exceeds the room left — then, when
 *           done = 0, one single-record call takes that record (it must be
 *           the oracle's next and, for a value stop, not borrowed from the
 *           input) and batching resumes; an error has the oracle's status at
 *           the oracle's record (codec convention: TERMINAL_MISMATCH at N-1)
 *           and the single walk's diag (status, bit, record), and the next
 *           call returns RSV_ERR_POISONED with done = 0. Every call sets the
 *           results (key_used, val_used, stop and need are sentinels before
 *           it); need is 0 unless the call stopped on an arena.
 * Every single and batch call runs inside a load window (load_window.h):
 * in RSV_LOAD_CHECK builds a load of any byte outside the input (the file's
 * bytes; the stream view's bytes and its code set's bits and ends) aborts.
 * After every call the walker's reader must keep reader.h's state invariant
 * (rsv_test_reader_state_ok, testutil.h).
 * A file the codec cannot open is skipped (returns 1, nothing counted): the
 * open comparison is kv03_diff.h's. Returns 1 when everything held, else 0
 * with the first disagreement in msg. *tally (may be NULL) accumulates what
 * was compared, so that callers can require that each path ran. */
#ifndef RSV_RECORD_BATCH_DIFF_H
#define RSV_RECORD_BATCH_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "reservoir/oracle_kv03.h"
#include "reservoir/record_batch.h"

#define RSV_RBD_MSG 512

typedef struct rsv_rbd_shape {
    size_t n;              /* records per call (>= 1) */
    size_t key_cap, val_cap;
    int values;            /* store value bytes (b.val != NULL) */
    int codes;             /* store code indices and ends (b.code, b.end != NULL) */
    /* Optional: the arenas (key_cap / val_cap bytes) placed by the caller,
     * e.g. flush against a guard page; NULL: malloc'd here. */
    uint8_t *key_arena, *val_arena;
} rsv_rbd_shape;

typedef struct rsv_rbd_tally {
    size_t records;     /* batch records compared */
    size_t errors;      /* batch walks that ended in the oracle's error (poisoning checked) */
    size_t arena_stops; /* KEY_ARENA / VALUE_ARENA stops checked */
} rsv_rbd_tally;

int rsv_rbd_cursor(const uint8_t *file, size_t size, const rsv_rbd_shape *shape, rsv_rbd_tally *tally,
                   char msg[RSV_RBD_MSG]);

/* The stream `v` (exactly E bits); the code set set[0..nset) (oracle form;
 * the codec reader gets the same codes as an rsv_code_set). */
int rsv_rbd_stream(rsv_view v, const rsv_oracle_code *set, size_t nset, const rsv_rbd_shape *shape,
                   rsv_rbd_tally *tally, char msg[RSV_RBD_MSG]);

#endif
