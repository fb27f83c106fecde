/* reservoir — batched record decoding into caller-owned arrays: the record
 * counterpart of the count batch decoders (rsv_read_n & co., reader.h).
 *
 * One call decodes up to n records of a KV03 cursor (rsv_kv03_cursor_batch)
 * or a record stream reader (rsv_stream_reader_batch) into a caller-owned
 * struct of arrays: per record the key as (offset, length) into a caller-owned
 * key arena, the value's state (tombstone / present-empty / present), its
 * length, its bytes (borrowed from the file or stream when byte-aligned, else
 * copied into a caller-owned value arena) and the record's code index.
 *
 * Results. The status is that of the single-record call on the same record
 * (rsv_kv03_cursor_next / _record, rsv_stream_reader_next), and *done the
 * number of records decoded:
 *   RSV_OK, *done = n             n records; stop = RSV_BATCH_STOP_COUNT.
 *   RSV_OK, *done < n             stopped early without error; `stop` says why:
 *     RSV_BATCH_STOP_END          no record left (the single call's *more = 0);
 *     RSV_BATCH_STOP_KEY_ARENA    the next record's key does not fit in what is
 *                                 left of the key arena (`need`: its length);
 *     RSV_BATCH_STOP_VALUE_ARENA  its value must be copied and does not fit in
 *                                 what is left of the value arena (`need`: its
 *                                 length).
 *     An arena stop leaves the cursor / reader exactly before that record, so
 *     the next call (with the arena emptied or larger) or a single-record call
 *     resumes with it. The record is fully checked before it is found unfit: a
 *     record that fails is reported as a failure whatever the arenas' sizes.
 *     *done = 0 with an arena stop means the record needs more than the whole
 *     arena (key_cap or val_cap below `need`).
 *   an error, *done < n          records [0, *done) are decoded and kept; the
 *                                 failing record's slots, and every slot after
 *                                 it, are not written; stop = RSV_BATCH_STOP_ERROR.
 *                                 The cursor / reader is poisoned exactly as by
 *                                 the single-record call (same status, same diag
 *                                 bit and record): later calls give
 *                                 RSV_ERR_POISONED.
 * An arena stop is not a failure (nothing is poisoned), which is why it is not
 * an RSV_ERR_* status: every RSV_ERR_* of a walker poisons it.
 *
 * Arguments: RSV_ERR_INVALID_ARGUMENT (nothing read, nothing written, no
 * poisoning; *done = 0 when done != NULL) for a NULL cursor / reader or batch,
 * and, when n > 0, for a NULL key_off, key_len, kind or val_len, a NULL arena
 * with a nonzero capacity. done may be NULL. n = 0 decodes nothing (RSV_OK,
 * stop = RSV_BATCH_STOP_COUNT; a poisoned object still gives RSV_ERR_POISONED).
 *
 * Each call fills the arenas from offset 0: keys and copied values of the
 * previous call are overwritten. Borrowed value pointers stay valid as long as
 * the file mapping / stream bytes do.
 *
 * Memory: the calls allocate nothing themselves. The cursor / reader keeps the
 * previous key in its own buffer (the single-record calls' state, needed to
 * rebuild the next key); that buffer grows (geometrically, as in the single
 * calls) only when a key longer than every earlier key of this cursor / reader
 * arrives. A warm object (rsv_kv03_cursor_reset, rsv_stream_reader_reset keep
 * the buffers) decodes a file or stream it has decoded before with zero heap
 * allocations. Mixing batch and single-record calls on one object is allowed. */
#ifndef RESERVOIR_RECORD_BATCH_H
#define RESERVOIR_RECORD_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "reservoir/export.h"
#include "reservoir/kv03.h"
#include "reservoir/status.h"
#include "reservoir/stream.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The three value states (record.h), one byte per record. */
enum {
    RSV_BATCH_TOMBSTONE = 0, /* absent: val_len 0, val NULL */
    RSV_BATCH_EMPTY = 1,     /* present, empty: val_len 0, val NULL */
    RSV_BATCH_PRESENT = 2    /* present, val_len >= 1 bytes at val */
};

/* Why a call returned fewer than n records (or RSV_BATCH_STOP_COUNT). */
typedef enum rsv_batch_stop {
    RSV_BATCH_STOP_COUNT = 0,       /* n records decoded */
    RSV_BATCH_STOP_END = 1,         /* no record left */
    RSV_BATCH_STOP_KEY_ARENA = 2,   /* the next key does not fit (need = its length) */
    RSV_BATCH_STOP_VALUE_ARENA = 3, /* the next value does not fit (need = its length) */
    RSV_BATCH_STOP_ERROR = 4        /* the call failed (status != RSV_OK) */
} rsv_batch_stop;

/* Caller-owned arrays (n entries each) and arenas; the library writes the
 * arrays' first *done entries, the arenas' first key_used / val_used bytes
 * and the result fields, nothing else. Keys are stored back to back in
 * record order from arena offset 0 (key_off[0] = 0, key_off[k] =
 * key_off[k-1] + key_len[k-1]); copied values likewise in the value arena. */
typedef struct rsv_record_batch {
    size_t *key_off;        /* key k = key_arena[key_off[k], key_off[k] + key_len[k]) */
    size_t *key_len;
    uint8_t *kind;          /* RSV_BATCH_TOMBSTONE / _EMPTY / _PRESENT */
    size_t *val_len;        /* bytes (0 unless PRESENT) */
    const uint8_t **val;    /* NULL: values not materialized (the cursor_next form);
                               else val[k] = the bytes (NULL unless PRESENT) */
    uint64_t *code;         /* NULL: not stored; else the record's code index
                               (dictionary index j, or the stream set's index) */
    uint64_t *end;          /* NULL: not stored; else the data-stream / stream bit
                               after the record (the single calls' `end`) */
    uint8_t *key_arena;     /* key_cap bytes */
    size_t key_cap;
    uint8_t *val_arena;     /* val_cap bytes: values that are not byte-aligned */
    size_t val_cap;
    /* results of the last call (every call with valid arguments sets all
       four, RSV_ERR_POISONED included) */
    size_t key_used, val_used; /* arena bytes written */
    rsv_batch_stop stop;
    size_t need; /* arena stops: the bytes the unfit record needs; else 0 */
} rsv_record_batch;

/* Up to n records of the cursor: rsv_kv03_cursor_next per record when
 * b->val is NULL (value state and length only), rsv_kv03_cursor_record
 * otherwise (bytes borrowed from the mapped file when byte-aligned, else
 * copied into val_arena). */
RSV_API rsv_status rsv_kv03_cursor_batch(rsv_kv03_cursor *c, rsv_record_batch *b, size_t n, size_t *done);
/* Up to n records of the stream reader (rsv_stream_reader_next per record;
 * b->val = NULL skips the bytes, which the single call always hands out). */
RSV_API rsv_status rsv_stream_reader_batch(rsv_stream_reader *sr, rsv_record_batch *b, size_t n, size_t *done);

#ifdef __cplusplus
}
#endif
#endif
