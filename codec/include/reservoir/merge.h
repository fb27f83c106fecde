/* reservoir — merging KV03 files (KV03.md §11.2).
 *
 * Inputs are opened files, oldest to newest (at least two, else
 * RSV_ERR_INVALID_ARGUMENT). Init checks, in this order (format revision v2):
 * identical policy (else RSV_ERR_MERGE_MISMATCH, failed_input = the first
 * input that differs from input 0); every input with m >= 2 reads its
 * dictionary (rsv_kv03_dictionary_check: SECTION_ENDPOINTS,
 * DICTIONARY_SHAPE, TOO_LARGE, DICTIONARY_ORDER; failed_input = that input);
 * the union of all input dictionaries (m = 1: C0; empty inputs contribute
 * nothing) prefix-free, else RSV_ERR_MERGE_MISMATCH with failed_input = the
 * first input whose codes conflict with a code of an earlier input. Inputs
 * may thus have different code sets: inputs coded `0` and `1` merge into a
 * two-code file. The output is the sorted union of logical keys (code ‖
 * key), each taking its newest binding (tombstones stay encoded unless
 * RSV_MERGE_DROP_TOMBSTONES, which may remove a code from the output's
 * dictionary), written through the streaming KV03 writer, so it is
 * byte-identical to batch-encoding the merged list (dictionary = the codes
 * of the output records). Inputs are read with §3.3 only (dictionary, seeds,
 * transitions, block offsets, framing, order, terminal); scan untrusted
 * inputs first. Memory: one frame walker per input, the union of the input
 * dictionaries (one view and one u64 per input code), plus the writer (data
 * stream, one u64 per output block and the output dictionary; with
 * rsv_merge_init_path only the unflushed tail of the data stream, see
 * below). Inputs are never modified.
 *
 * A failure poisons the merge (RSV_ERR_POISONED afterwards; diag keeps the
 * first error, the failing input and its record/bit) and discards the output:
 * no file is created. Finishing before the end or stepping after finishing
 * gives RSV_ERR_STATE. */
#ifndef RESERVOIR_MERGE_H
#define RESERVOIR_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "reservoir/kv03.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RSV_MERGE_DROP_TOMBSTONES 1u

/* One input's head record, never rebuilt: its key is the last chosen key's
 * first `lcp` bits followed by the literal's bits from lcp - fr.local on
 * (lcp >= fr.local always holds, see merge.c). */
typedef struct rsv_merge_head {
    rsv_kv03_frames fw;
    rsv_kv03_frame fr; /* current record: literal and value spans borrowed from the file */
    uint64_t lcp;      /* lcp(head key bits, last chosen key bits) */
    int live;          /* fr is valid */
    int hit;           /* holds the key being emitted */
    /* set while choosing: this head's lcp with head tie_with, learnt by
     * comparing the two (saves comparing them again when tie_with wins) */
    size_t tie_with;
    uint64_t tie_lcp;
    /* v2: the head's code as an index into the merge's code union (codes
     * order like their indices); lcp above is meaningful only between keys
     * of one code: a head whose code differs from E's has local = 0 and
     * lcp = 0 (its key is compared from bit 0 with other heads of its code). */
    uint64_t g;
    const uint64_t *map; /* input dictionary index -> union index */
} rsv_merge_head;

typedef struct rsv_merge {
    rsv_merge_head *heads;
    size_t n;
    rsv_kv03_writer out;
    uint8_t *key;    /* the last chosen key E (materialized once per output key) */
    size_t key_len, key_cap;
    uint64_t lcp_xe; /* lcp(last emitted key, E): differs from |E| after a dropped tombstone */
    unsigned flags;
    int primed;   /* heads loaded */
    int done;     /* every input consumed */
    int finished; /* output handed out */
    uint64_t emitted;
    size_t failed_input; /* input index of an input failure, else n */
    rsv_kv03_diag diag;
    /* v2: the sorted union of the input dictionaries (views into the
     * inputs' section 5) and the per-input index maps (one allocation) */
    rsv_view *codes;
    uint64_t ncodes;
    uint64_t *code_map;
    uint64_t e_code;   /* union index of E's code (valid once a key was chosen) */
    uint64_t out_code; /* union index of the last emitted record's code (out.N > 0) */
} rsv_merge;

rsv_status rsv_merge_init(rsv_merge *m, const rsv_kv03_file *const *inputs, size_t n,
                          unsigned flags);
/* Emit one key (consuming it from every input that holds it). *done = 1 once
 * every input is consumed (then the output may be finished). */
rsv_status rsv_merge_step(rsv_merge *m, int *done);
/* Step to completion. */
rsv_status rsv_merge_run(rsv_merge *m);
/* The output file in a malloc'd buffer (free() it). */
rsv_status rsv_merge_finish(rsv_merge *m, uint8_t **out, size_t *nbytes);
/* The output without CRCs (rsv_kv03_writer_finish_unsealed; seal with
 * rsv_kv03_seal before persisting). */
rsv_status rsv_merge_finish_unsealed(rsv_merge *m, uint8_t **out, size_t *nbytes);
/* The output file via temporary + fsync + rename + directory fsync. For a
 * merge from rsv_merge_init the whole output is built in memory first (not
 * streaming); for one from rsv_merge_init_path it is rsv_merge_commit (path
 * must equal the init path, else RSV_ERR_INVALID_ARGUMENT). */
rsv_status rsv_merge_finish_path(rsv_merge *m, const char *path);
void rsv_merge_free(rsv_merge *m);
static inline rsv_kv03_diag rsv_merge_diag(const rsv_merge *m) { return m->diag; }

/* One call: init, run, finish to memory, free. */
rsv_status rsv_merge_files(const rsv_kv03_file *const *inputs, size_t n, unsigned flags,
                           uint8_t **out, size_t *nbytes);

/* ---- streaming output to a file -------------------------------------------
 *
 * rsv_merge_init_path: like rsv_merge_init, but the output writer is a path
 * writer (rsv_kv03_writer_init_path): output records stream into a temporary
 * `path.tmp.XXXXXX` next to `path`, so memory is bounded by the flush bound
 * plus the largest record plus one u64 per output block (plus the per-input
 * heads and the last key) — never the whole output. Init failures include
 * RSV_ERR_IO when the temporary cannot be created (e.g. missing directory);
 * path = NULL is RSV_ERR_INVALID_ARGUMENT. rsv_merge_commit (after
 * rsv_merge_run) publishes it: body CRC, header, fsync, rename over `path`,
 * directory fsync. The file is byte-identical to rsv_merge_finish's bytes.
 *
 * Any failure (an input's walk error, an I/O error, a commit error) poisons
 * the merge and unlinks the temporary immediately; rsv_merge_free without a
 * commit unlinks it too. `path` is never created or modified on failure, and
 * the inputs (read-only: open_path maps PROT_READ, MAP_PRIVATE from an
 * O_RDONLY descriptor) are never written, so merging into the path of one of
 * the inputs is safe: the mapping keeps the old file alive. rsv_merge_finish
 * and _finish_unsealed return RSV_ERR_STATE for such a merge. */
rsv_status rsv_merge_init_path(rsv_merge *m, const rsv_kv03_file *const *inputs, size_t n,
                               unsigned flags, const char *path);
/* Publish a path merge's output. RSV_ERR_STATE before the merge is done, after
 * a commit, or for an in-memory merge. */
rsv_status rsv_merge_commit(rsv_merge *m);
/* The temporary's name while a path merge has one (rsv_kv03_writer_temp_path
 * of the output writer), else NULL: stable until commit, failure or free, for
 * a signal handler to unlink (reservoir/file_io.h). */
static inline const char *rsv_merge_temp_path(const rsv_merge *m)
{
    return rsv_kv03_writer_temp_path(&m->out);
}
/* One call: init_path, run, commit, free. */
rsv_status rsv_merge_files_path(const rsv_kv03_file *const *inputs, size_t n, unsigned flags,
                                const char *path);

#ifdef __cplusplus
}
#endif
#endif
