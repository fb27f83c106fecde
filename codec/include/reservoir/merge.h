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
 * dictionaries (one view and one u64 per input code), the current output
 * key (its bytes + 8, in a buffer grown from 64 bytes by doubling to the
 * least capacity that holds them, only when they do not fit), plus the
 * writer (data stream, one u64 per output block and the output dictionary;
 * with rsv_merge_init_path only the unflushed tail of the data stream, see
 * below). Inputs are never modified.
 *
 * A failure poisons the merge (RSV_ERR_POISONED afterwards; diag keeps the
 * first error, the failing input and its record/bit; a failure of init itself
 * has record 0 and bit 0, with failed_input as above or n for an argument,
 * memory or output-writer failure) and discards the output:
 * no file is created. Finishing before the end or stepping after finishing
 * gives RSV_ERR_STATE, a misuse that does not poison the merge. "failed_input" above is rsv_merge_failed_input(m),
 * "diag" rsv_merge_diag(m). */
#ifndef RESERVOIR_MERGE_H
#define RESERVOIR_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "reservoir/export.h"
#include "reservoir/kv03.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RSV_MERGE_DROP_TOMBSTONES 1u

/* The merge's working state is private (codec/src/merge_state.h) and may
 * change in any release. rsv_merge is only storage for it, with a fixed size
 * and alignment, so that a caller keeps a merge in its own memory (stack or
 * struct) and rsv_merge_init needs no allocation for the state itself (the
 * pthread_mutex_t pattern). Its bytes are not API: use the functions below
 * (rsv_merge_diag, rsv_merge_failed_input, rsv_merge_emitted). The library
 * checks at compile time that its state fits; growing the storage would be
 * an ABI change. */
#define RSV_MERGE_STORAGE_BYTES 1024

typedef struct rsv_merge {
    union {
        unsigned char bytes[RSV_MERGE_STORAGE_BYTES];
        uint64_t align_u64; /* alignment only */
        void *align_ptr;
        double align_double;
    } rsv__storage;
} rsv_merge;

RSV_API rsv_status rsv_merge_init(rsv_merge *m, const rsv_kv03_file *const *inputs, size_t n,
                                  unsigned flags);
/* Emit one key (consuming it from every input that holds it). *done = 1 once
 * every input is consumed (then the output may be finished). */
RSV_API rsv_status rsv_merge_step(rsv_merge *m, int *done);
/* Step to completion. */
RSV_API rsv_status rsv_merge_run(rsv_merge *m);
/* The output file in a malloc'd buffer (free() it). */
RSV_API rsv_status rsv_merge_finish(rsv_merge *m, uint8_t **out, size_t *nbytes);
/* The output without CRCs (rsv_kv03_writer_finish_unsealed; seal with
 * rsv_kv03_seal before persisting). */
RSV_API rsv_status rsv_merge_finish_unsealed(rsv_merge *m, uint8_t **out, size_t *nbytes);
/* The output file via temporary + fsync + rename + directory fsync. For a
 * merge from rsv_merge_init the whole output is built in memory first (not
 * streaming); for one from rsv_merge_init_path it is rsv_merge_commit (path
 * must equal the init path, else RSV_ERR_INVALID_ARGUMENT). */
RSV_API rsv_status rsv_merge_finish_path(rsv_merge *m, const char *path);
/* Frees what the merge holds (NULL is a no-op). Afterwards the merge may only
 * be initialized again or freed again (a no-op). */
RSV_API void rsv_merge_free(rsv_merge *m);
/* The first error; status = RSV_OK while healthy. record and bit: for an
 * input's failure, the input's record and data-stream bit (as its cursor
 * would report them); for a failure of the output during a step (the writer
 * or the merge's key buffer), the output's record count and data-stream bit
 * count at that point (the writer's diag); for a failure in finish,
 * finish_path or commit, the output's record count and bit 0; for a failure
 * of init, record 0 and bit 0. */
RSV_API rsv_kv03_diag rsv_merge_diag(const rsv_merge *m);
/* The input a failure is attributed to (0..n-1), or n when the failure is not
 * an input's (argument, memory, output). */
RSV_API size_t rsv_merge_failed_input(const rsv_merge *m);
/* Output keys chosen so far (each consumed from every input that held it;
 * dropped tombstones included). */
RSV_API uint64_t rsv_merge_emitted(const rsv_merge *m);

/* One call: init, run, finish to memory, free. */
RSV_API rsv_status rsv_merge_files(const rsv_kv03_file *const *inputs, size_t n, unsigned flags,
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
RSV_API rsv_status rsv_merge_init_path(rsv_merge *m, const rsv_kv03_file *const *inputs, size_t n,
                                       unsigned flags, const char *path);
/* Publish a path merge's output. RSV_ERR_STATE before the merge is done, after
 * a commit, or for an in-memory merge. */
RSV_API rsv_status rsv_merge_commit(rsv_merge *m);
/* The temporary's name while a path merge has one (rsv_kv03_writer_temp_path
 * of the output writer), else NULL: stable until commit, failure or free, for
 * a signal handler to unlink (reservoir/file_io.h). */
RSV_API const char *rsv_merge_temp_path(const rsv_merge *m);
/* One call: init_path, run, commit, free. */
RSV_API rsv_status rsv_merge_files_path(const rsv_kv03_file *const *inputs, size_t n, unsigned flags,
                                        const char *path);

#ifdef __cplusplus
}
#endif
#endif
