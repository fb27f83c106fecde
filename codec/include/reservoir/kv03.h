/* reservoir — KV03 files (KV03.md §3–§9, §11.1).
 *
 * Writer: streaming append of records with strictly increasing logical keys
 * (code ‖ key), then finish to file bytes in memory or to a path (temporary
 * file, fsync, rename, fsync of the directory). The file is a pure function
 * of (records with their codes, policy); one code throughout is the v1 file.
 *
 * Reader: open (§9.1: header + directory only, nothing else is touched), scan
 * (§9.2: full verification) and three access levels over the data stream:
 *   frames  — record framing only (control, key header, literal span, value
 *             span and width, block-offset check at block starts); no key.
 *   cursor  — frames + the logical key rebuilt in a reusable buffer and the
 *             order check; values are skipped (span only).
 *   records — cursor + the value materialized (borrowed when byte-aligned,
 *             else copied into a cursor-owned buffer).
 * All three keep ONE rsv_reader over the data stream across records and
 * allocate nothing per record once their buffers are warm. They are poisoned
 * by their first failure: later calls return RSV_ERR_POISONED, and
 * rsv_kv03_*_diag reports the first error with its bit position and record. */
#ifndef RESERVOIR_KV03_H
#define RESERVOIR_KV03_H

#include <stddef.h>
#include <stdint.h>

#include "reservoir/ef.h"
#include "reservoir/export.h"
#include "reservoir/golomb.h"
#include "reservoir/reader.h"
#include "reservoir/record.h"
#include "reservoir/status.h"
#include "reservoir/view.h"
#include "reservoir/writer.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RSV_KV03_HEADER_BYTES 96
#define RSV_KV03_DIRECTORY_BYTES 192
#define RSV_KV03_MAX_CODE_BITS 512

typedef enum rsv_backspace_code {
    RSV_BACKSPACE_EG = 0,    /* exp-Golomb order k = param, 0..63 */
    RSV_BACKSPACE_GOLOMB = 1 /* Golomb modulus m = param, >= 1 */
} rsv_backspace_code;

typedef struct rsv_kv03_policy {
    rsv_backspace_code code; /* backspace code B of non-block-start records */
    uint64_t param;          /* k or m */
    uint64_t W;              /* records per codec block, 1 .. 2^32-1 */
    uint64_t K;              /* group size, 2^n - 1 with n >= 2 */
} rsv_kv03_policy;

/* EG0, W = K = 15 (the fixtures' policy). */
RSV_API rsv_kv03_policy rsv_kv03_policy_default(void);
/* RSV_ERR_BAD_BACKSPACE, then RSV_ERR_BAD_POLICY (the order of §9.1 9–10). */
RSV_API rsv_status rsv_kv03_policy_check(const rsv_kv03_policy *p);
RSV_API int rsv_kv03_policy_equal(const rsv_kv03_policy *a, const rsv_kv03_policy *b);

/* Where and when an object failed: the first error, the data-stream bit
 * position the failing operation left the reader at (or the output bit count
 * for writers) and the record index. status = RSV_OK while healthy. */
typedef struct rsv_kv03_diag {
    rsv_status status;
    uint64_t bit;
    uint64_t record;
} rsv_kv03_diag;

/* ---- writer (§3, §5–§7, §11.1) ------------------------------------------ */

typedef struct rsv_kv03_writer {
    rsv_kv03_policy policy;
    rsv_golomb golomb;
    uint8_t code[RSV_KV03_MAX_CODE_BITS / 8]; /* C0, MSB-first */
    uint64_t c;                                /* |C0| in bits */
    rsv_writer data;                           /* section 0 */
    uint64_t *offsets;                         /* bit offset of each block start */
    uint64_t noffsets, offsets_cap;
    uint8_t *prev; /* previous key: room grown from 16 bytes by doubling to the
                    * least capacity that holds the key, only when it does not fit */
    size_t prev_len, prev_cap;
    uint64_t N;
    uint64_t cw; /* width of every value so far (valid when cw_uniform) */
    int cw_uniform;
    int framed; /* fed by a merge (prev key bytes not kept): plain adds refused */
    int finished;
    rsv_kv03_diag diag;
    /* Streaming file output (rsv_kv03_writer_init_path), else NULL. While it
     * is set, `data` holds only the data-stream bits after the first
     * `flushed_bits` (a multiple of 8), which are already in the file. */
    struct rsv_kv03_sink *sink;
    uint64_t flushed_bits;
    uint64_t buffered_max; /* high-water mark of rsv_writer_nbytes(&data) */
    /* Format revision v2 (§3.2, §6): the code of the last record and the
     * codes used so far (private, allocated at the first record: see
     * code_list.h; O(dictionary bits / 8 + 16 per code)). */
    uint8_t cur[RSV_KV03_MAX_CODE_BITS / 8]; /* last record's code, zero padded */
    uint64_t cur_bits;
    int fresh;           /* the next record starts its code: record 0 or a code change */
    uint64_t trans_R;    /* fresh and N > 0: lcp(previous code, new code) */
    uint64_t trans_cont; /* fresh and N > 0: the previous record's logical length */
    struct rsv__codes *codes;
    /* In-memory writers: `data` starts with this many zero bytes, the room
     * for the envelope header and directory in front of section 0 (which
     * always starts at file byte 288), so finish hands out `data`'s buffer
     * as the file instead of copying the stream. 0 with a file sink. */
    uint64_t data_at;
} rsv_kv03_writer;

/* code = NULL selects the default C0 = `0` (code_bits ignored); otherwise C0
 * is the first code_bits bits (MSB-first) of code, 0..512 bits, longer →
 * RSV_ERR_TOO_LARGE. Policy errors: RSV_ERR_BAD_BACKSPACE, RSV_ERR_BAD_POLICY;
 * RSV_ERR_NOMEM when the data buffer (with the header room, see data_at)
 * cannot be allocated. */
RSV_API rsv_status rsv_kv03_writer_init(rsv_kv03_writer *w, const rsv_kv03_policy *policy,
                                        const uint8_t *code, uint64_t code_bits);
/* Append one record. Keys must strictly increase (RSV_ERR_UNSORTED); any
 * failure poisons the writer (RSV_ERR_POISONED afterwards). A key_len above
 * (2^64 - 1 - 2 * RSV_KV03_MAX_CODE_BITS) / 8 = 2^61 - 129 bytes is
 * RSV_ERR_TOO_LARGE before the key is read (so that 8 * key_len plus the
 * bits of two codes fits in 64 bits). */
RSV_API rsv_status rsv_kv03_writer_add(rsv_kv03_writer *w, const void *key, size_t key_len, rsv_value v);
/* Same with the value given as an encoded span (merges copy values this way).
 * A span whose bytes view is not 8 * len bits is RSV_ERR_INVALID_ARGUMENT
 * (rsv_put_value_span, record.h), and poisons the writer. */
RSV_API rsv_status rsv_kv03_writer_add_span(rsv_kv03_writer *w, const void *key, size_t key_len,
                                            const rsv_value_span *v);
/* Format revision v2: append one record with its own selector code, the
 * first code_bits bits (MSB-first) of code; code = NULL means the init's C0
 * (code_bits ignored). Checks in the order of §11.1, after the argument
 * checks (key = NULL with key_len > 0, code = NULL is fine):
 *   1. code_bits > 512                                  → RSV_ERR_TOO_LARGE
 *   2. a code not used before that is a prefix of a code used before, or has
 *      one as a prefix (an empty code beside any other) → RSV_ERR_SELECTOR_PREFIX
 *   3. logical key (code ‖ key bits) not above the previous record's
 *      (so also any return to an earlier code)         → RSV_ERR_UNSORTED
 * then the value checks of rsv_kv03_writer_add. A file whose records all use
 * one code is the v1 file of that C0, byte for byte; with m >= 2 codes the
 * writer emits transitions, seeds and the dictionary (§3.2, §6). Mixing
 * rsv_kv03_writer_add (the init's C0) and add_coded is allowed. */
RSV_API rsv_status rsv_kv03_writer_add_coded(rsv_kv03_writer *w, const uint8_t *code,
                                             uint64_t code_bits, const void *key, size_t key_len,
                                             rsv_value v);
/* The same with the value given as an encoded span. */
RSV_API rsv_status rsv_kv03_writer_add_coded_span(rsv_kv03_writer *w, const uint8_t *code,
                                                  uint64_t code_bits, const void *key,
                                                  size_t key_len, const rsv_value_span *v);
/* Finish: the complete file in a malloc'd buffer (free() it). The writer is
 * then finished (RSV_ERR_STATE for further adds/finishes). The buffer is the
 * writer's data buffer itself (buffer_capacity bytes, the stream already at
 * its file offset), reallocated to the file's size only when it is smaller
 * than the file or more than twice it: with a buffer_capacity of at least
 * the file's size and at most twice it, that step allocates nothing (and
 * cannot fail with RSV_ERR_NOMEM). After a successful finish the buffer is
 * the caller's: rsv_kv03_writer_get_stats reports buffered_bytes and
 * buffer_capacity 0 (its other data counters are not meaningful then). */
RSV_API rsv_status rsv_kv03_writer_finish(rsv_kv03_writer *w, uint8_t **out, size_t *nbytes);
/* Same bytes but both CRC fields left zero (no CRC32C computed): for
 * in-memory consumers that never persist the file (WORKLOADS.md §5 merges).
 * rsv_kv03_seal fills the body CRC, then the header CRC, in place. */
RSV_API rsv_status rsv_kv03_writer_finish_unsealed(rsv_kv03_writer *w, uint8_t **out, size_t *nbytes);
/* Seal an unsealed file of nbytes bytes in place: RSV_ERR_INVALID_ARGUMENT
 * for file = NULL, RSV_ERR_TRUNCATED_HEADER when nbytes < 96 (no header to
 * fill); nothing is written on failure. */
RSV_API rsv_status rsv_kv03_seal(uint8_t *file, size_t nbytes);
/* Finish to a file: written to a temporary name in the same directory,
 * fsync'd, renamed over `path`, then the directory is fsync'd. On failure no
 * file (temporary or final) is left behind and an existing `path` is kept.
 * For an in-memory writer the whole file is built in memory first; for a path
 * writer (rsv_kv03_writer_init_path) this is rsv_kv03_writer_commit. */
RSV_API rsv_status rsv_kv03_writer_finish_path(rsv_kv03_writer *w, const char *path);
/* Releases everything the writer holds (data buffer, block-offset table,
 * previous key, the v2 code list, a path writer's uncommitted temporary,
 * which is unlinked) and leaves it holding nothing: rsv_kv03_writer_get_stats
 * then reports buffer_capacity, offset_bytes and code_bytes 0 and streaming
 * 0 (its data counters are not meaningful), rsv_kv03_writer_temp_path NULL,
 * and freeing it again is a no-op. w = NULL is ignored. A freed writer is
 * used again only through rsv_kv03_writer_init(_path). */
RSV_API void rsv_kv03_writer_free(rsv_kv03_writer *w);
static inline rsv_kv03_diag rsv_kv03_writer_diag(const rsv_kv03_writer *w) { return w->diag; }

/* ---- streaming file output ----------------------------------------------
 *
 * rsv_kv03_writer_init_path = rsv_kv03_writer_init + a file sink: it creates
 * `path.tmp.XXXXXX` (mkostemp, O_CLOEXEC, mode 0600) in path's directory and
 * writes 288 zero bytes (header + directory, filled in at the end). Every add
 * frames the record in memory as usual; once more than the flush bound
 * (RSV_KV03_FLUSH_BYTES unless changed) of data-stream bytes are buffered, the
 * whole bytes are appended to the temporary and only the trailing partial
 * byte stays. Memory is therefore O(bound + largest record + N/W): one u64
 * block offset per block (needed for the EF index at the end) remains, plus
 * (format revision v2) the codes used so far: their bits and two u64 per
 * distinct code (≤ 80 bytes per code, the size of the dictionary the file
 * stores; the seeds are derived from it at commit, not kept per block).
 *
 * rsv_kv03_writer_commit writes the last data bytes, the gap, EF sections
 * 1–4, dictionary, offsets and seeds, computes the body CRC by re-reading the
 * body from the temporary in 64 KiB chunks, writes header and directory at
 * offset 0 (pwrite), fsyncs, renames over `path` and fsyncs the directory.
 * The file is byte-identical to rsv_kv03_writer_finish's output.
 *
 * Any failure — init I/O error (e.g. missing directory), write error
 * (ENOSPC, EFBIG: RSV_ERR_IO), an add error such as RSV_ERR_UNSORTED, a
 * commit error — poisons the writer and unlinks the temporary at once;
 * rsv_kv03_writer_free without a commit unlinks it too. `path` is created or
 * replaced only by the final rename, so it is never touched on failure
 * (exception: the rename succeeded but the directory fsync failed — the new
 * file is in place and RSV_ERR_IO is returned).
 *
 * A path writer has no in-memory result: rsv_kv03_writer_finish and
 * _finish_unsealed return RSV_ERR_STATE (no poisoning); finish_path(w, p)
 * commits when p equals the init path (strcmp) and returns
 * RSV_ERR_INVALID_ARGUMENT otherwise. */
#define RSV_KV03_FLUSH_BYTES 65536u

RSV_API rsv_status rsv_kv03_writer_init_path(rsv_kv03_writer *w, const rsv_kv03_policy *policy,
                                             const uint8_t *code, uint64_t code_bits, const char *path);
/* Change a path writer's flush bound (bytes >= 1; smaller values only make
 * the writer flush more often). RSV_ERR_STATE for an in-memory writer. */
RSV_API rsv_status rsv_kv03_writer_set_flush_bytes(rsv_kv03_writer *w, size_t bytes);
/* Finish a path writer (see above). RSV_ERR_STATE for an in-memory writer. */
RSV_API rsv_status rsv_kv03_writer_commit(rsv_kv03_writer *w);
/* The name of a path writer's temporary while it exists (from init until the
 * commit renames it, a failure unlinks it, or free), else NULL. The string is
 * owned by the writer and does not move, so a caller may copy it once after
 * init and unlink that copy from a signal handler (reservoir/file_io.h). The
 * rules for `path` itself (only a regular file is replaced, its permission
 * bits kept; NAME_MAX-safe temporary names; errno kept for RSV_ERR_IO) are
 * those of reservoir/file_io.h. */
RSV_API const char *rsv_kv03_writer_temp_path(const rsv_kv03_writer *w);

/* Memory observation for tests and tools. "Buffered" = data-stream bytes
 * held in memory (rsv_writer_nbytes of the in-memory part); the high-water
 * mark is taken after each record, before flushing, so it is the true peak.
 * For an in-memory writer everything stays buffered. */
typedef struct rsv_kv03_writer_stats {
    uint64_t data_bits;       /* data-stream bits so far (flushed + buffered) */
    uint64_t flushed_bytes;   /* data-stream bytes already written to the file */
    uint64_t buffered_bytes;  /* data-stream bytes in memory now */
    uint64_t buffered_max;    /* high-water mark of buffered_bytes */
    uint64_t buffer_capacity; /* bytes allocated for them (geometric growth, below) */
    uint64_t offset_bytes;    /* block-offset table: 8 per slot (below) */
    int streaming;            /* 1 while a file sink is attached */
    uint64_t code_bytes;      /* v2: the codes used so far (bits + 16 per code), allocated */
} rsv_kv03_writer_stats;
/* buffer_capacity grows by doubling from 64 bytes, only when a record does
 * not fit, so without a size hint (the merge presizes its output) it stays
 * at most twice the most the buffer has had to hold: buffered_max bytes of
 * data, an in-memory writer's 288-byte header room and 16 bytes of slack for
 * 8-byte stores. code_bytes is 0 before the first record, then the room of the code list's
 * three arrays: the code bits' capacity in bytes + 8 per slot of the
 * first-record array (c slots) + 8 per slot of the code-end array (c + 1),
 * i.e. bits + 16 c + 8. While one code is used they are the list's own
 * fixed room: RSV_KV03_MAX_CODE_BITS / 8 + 8 = 72 bytes of bits and c = 1,
 * so code_bytes = 96. offset_bytes is 8 per slot of the block-offset table,
 * which holds one slot per block and grows from 16 slots by doubling; finish
 * rewrites it in place into the nb + 1 EF entries, so a table with no free
 * slot grows by exactly one then (16 blocks: 128 bytes, 136 after finish). */
RSV_API void rsv_kv03_writer_get_stats(const rsv_kv03_writer *w, rsv_kv03_writer_stats *out);

/* One-shot batch encoder (§11.1) over an array of records. A record's code
 * is recs[i].code/code_bits, or the call's code (NULL: `0`) when
 * recs[i].code is NULL. RSV_ERR_INVALID_ARGUMENT when recs is NULL with
 * n > 0, or out or nbytes is NULL, checked before the policy or any record
 * is looked at; otherwise the statuses of rsv_kv03_writer_init, _add_coded
 * and _finish, in that order. */
RSV_API rsv_status rsv_kv03_encode(const rsv_kv03_policy *policy, const uint8_t *code, uint64_t code_bits,
                                   const rsv_record *recs, size_t n, uint8_t **out, size_t *nbytes);

/* ---- opened file (§9.1) -------------------------------------------------- */

typedef struct rsv_kv03_file {
    const uint8_t *bytes; /* whole file */
    uint64_t size;
    const uint8_t *body; /* bytes + 96 */
    uint64_t body_size;
    rsv_kv03_policy policy;
    uint32_t flags;
    uint64_t N;
    uint64_t cw; /* common width (0 when absent) */
    int cw_present;
    /* directory */
    uint64_t extent, terminal, U, dict_bits, seed_bits;
    unsigned L;
    uint64_t sec_off[8], sec_len[8];
    /* derived */
    uint64_t nb; /* blocks, ceil(N / W) */
    uint64_t m;  /* selector codes: section 6 length / 8 - 1 */
    rsv_ef ef;
    rsv_view data;        /* section 0, `extent` bits */
    const uint8_t *code;  /* C0 = the first dict_bits bits of section 5 */
    void *map;            /* set by rsv_kv03_open_path; NULL (map_len 0) after rsv_kv03_open */
    size_t map_len;
    /* v2 (KV03.md §6): pointers only, set by open, read by nobody at open */
    const uint8_t *dict;     /* section 5 bytes (dict_bits bits) */
    const uint8_t *dict_off; /* section 6 bytes: m+1 little-endian u64 */
    const uint8_t *seeds;    /* section 7 bytes */
    unsigned seed_w;         /* bits per seed: bitlen(m-1) when m >= 2, else 0 */
} rsv_kv03_file;

/* §9.1 checks 1–28 in order, first failure wins; reads only the 96-byte
 * header and the 192-byte directory. expected = NULL skips check 11. Format
 * revision v2: m >= 2 files open (v1's check 29 is gone); their dictionary
 * is read by the walkers and scan (§6.3), never by open. */
RSV_API rsv_status rsv_kv03_open(const void *bytes, size_t n, const rsv_kv03_policy *expected,
                                 rsv_kv03_file *out);
/* mmap the file read-only and open it. RSV_ERR_IO if it cannot be opened or
 * mapped; the mapping is released by rsv_kv03_close (also on open failure).
 * Only regular files are opened: a directory (errno EISDIR) or a FIFO,
 * device or socket (errno EINVAL) is RSV_ERR_IO without blocking (the open
 * uses O_NONBLOCK, so a FIFO with no writer does not hang). A file whose
 * size size_t cannot hold, or that reports a negative size, is RSV_ERR_IO
 * with errno EFBIG before anything is mapped or read.
 *
 * The mapping contract (docs/kv03.md, "Mapped files"): the file must not
 * shrink while it is open. Every later read of the mapping (scan, frames,
 * cursor, merge) touches the file's pages directly; a page beyond a new,
 * shorter end of file raises SIGBUS in the reading thread, which the library
 * cannot turn into a status. Content rewritten in place is read as it is
 * (the CRCs of a scan catch it only if the scan runs after the change).
 * Callers that cannot promise a stable file use rsv_kv03_open_path_copy. */
RSV_API rsv_status rsv_kv03_open_path(const char *path, const rsv_kv03_policy *expected,
                                      rsv_kv03_file *out);
/* Same, but the file is read (pread) into private memory once: no SIGBUS
 * whatever happens to the file later, at the cost of file-size memory. A
 * file that shrinks during the read is RSV_ERR_IO (errno EIO). Released by
 * rsv_kv03_close like a mapping. */
RSV_API rsv_status rsv_kv03_open_path_copy(const char *path, const rsv_kv03_policy *expected,
                                           rsv_kv03_file *out);
/* Releases the mapping or copy of rsv_kv03_open_path(_copy) (nothing for
 * rsv_kv03_open, whose bytes are the caller's) and leaves map = NULL and
 * map_len = 0, so closing again is a no-op. f = NULL is ignored. */
RSV_API void rsv_kv03_close(rsv_kv03_file *f);

/* block_offset(b) = select(b) + ord_b * cw (§4), b in 0..nb. */
RSV_API rsv_status rsv_kv03_block_offset(const rsv_kv03_file *f, uint64_t b, uint64_t *bit);

/* ---- selector dictionary and seeds (§6, format revision v2) -------------
 *
 * m = rsv_kv03_code_count(f): 0 for the empty file, 1 for a single-code (v1)
 * file, >= 2 for a multi-code file. Open does not read sections 5-7;
 * frames, cursors and scan run rsv_kv03_dictionary_check before record 0
 * when m >= 2. Codes are numbered by their dictionary index j (0..m-1),
 * which is also their bit-string order. */

/* §6.3 steps 1-4 in order: RSV_ERR_SECTION_ENDPOINTS, RSV_ERR_DICTIONARY_SHAPE,
 * RSV_ERR_TOO_LARGE (a code longer than 512 bits: the spec's MAY, taken),
 * RSV_ERR_DICTIONARY_ORDER. RSV_OK for m <= 1 (nothing read). Reads sections
 * 5 and 6 only; allocates nothing. */
RSV_API rsv_status rsv_kv03_dictionary_check(const rsv_kv03_file *f);
/* m (1 for a v1 file, 0 for the empty file). */
RSV_API uint64_t rsv_kv03_code_count(const rsv_kv03_file *f);
/* Dictionary code j as a bit view into section 5 (j = 0 is C0 when m <= 1).
 * RSV_ERR_INVALID_ARGUMENT when j >= max(m, 1). Meaningful (in bounds and
 * ordered) only after rsv_kv03_dictionary_check returned RSV_OK; before it a
 * code whose offsets leave section 5 gives RSV_ERR_SECTION_ENDPOINTS. */
RSV_API rsv_status rsv_kv03_code(const rsv_kv03_file *f, uint64_t j, rsv_view *code);
/* seed_b, the dictionary index of block b's first record (0 when m <= 1).
 * RSV_ERR_INVALID_ARGUMENT when b >= nb. Not range-checked against m. */
RSV_API rsv_status rsv_kv03_seed(const rsv_kv03_file *f, uint64_t b, uint64_t *j);

/* Jumping to a code. Block starts are NOT key restarts (§3.2: a block start
 * that continues its code inherits key bits), so a block cannot be decoded
 * on its own; the seeds only bound where a code begins.
 *
 * rsv_kv03_first_block_of_code: with b* = the first block whose seed is
 * >= j (nb if none), binary search over the seeds (O(log nb) seed reads,
 * nothing else read): [first, last] = [0, 0] when b* = 0, [nb-1, nb-1] when
 * b* = nb, else [b*-1, b*]. Guarantee, for a file whose seeds are the ones
 * the walk implies (every file the §3.3 walk accepts has nondecreasing
 * seeds): the first record whose code is >= j lies in block `first`, or is
 * the first record of block `last`; when no record has a code >= j, there
 * is none. When first > 0, seed_first < j holds for any seeds. The search
 * bisects [a, b) = [0, nb) at mid = a + (b - a) / 2 (seed_mid >= j: b = mid,
 * else a = mid + 1) until a = b = b*, so its result is fixed for any seeds,
 * nondecreasing or not. N = 0 gives
 * [0, 0] (no block). RSV_ERR_INVALID_ARGUMENT when j >= max(m, 1). */
RSV_API rsv_status rsv_kv03_first_block_of_code(const rsv_kv03_file *f, uint64_t j, uint64_t *first,
                                                uint64_t *last);

/* §9.2 full verification after a successful open, first failure wins.
 * diag (may be NULL) receives the failing record and bit for walk errors. */
RSV_API rsv_status rsv_kv03_scan(const rsv_kv03_file *f, rsv_kv03_diag *diag);

/* ---- frames (§3.3 steps 1–5 and the terminal check) ---------------------- */

typedef struct rsv_kv03_frame {
    uint64_t index;    /* record i */
    uint64_t start;    /* data-stream bit of the record */
    uint64_t end;      /* bit after the record */
    int block_start;   /* i mod W == 0 */
    uint64_t retained; /* R, logical bits inherited (incl. the code) */
    uint64_t local;    /* R - c: key bits inherited from the previous key */
    uint64_t key_bits; /* local + S = 8 * key length */
    rsv_view literal;  /* the S literal bits */
    rsv_value_span value;
    /* Private (implementation, not API): filled only for the library's own
     * merge, which turns the option on (codec/src/kv03_frame_parse.h); otherwise
     * rsv__literal_inline is 0. */
    uint64_t rsv__literal_word;
    int rsv__literal_inline;
    uint64_t code; /* dictionary index of the record's code (0 when m <= 1) */
} rsv_kv03_frame;

typedef struct rsv_kv03_frames {
    const rsv_kv03_file *f;
    rsv_reader r;
    rsv_golomb golomb;
    uint64_t i;         /* next record */
    uint64_t cont_prev; /* logical length of the previous key (c initially) */
    rsv_kv03_diag diag;
    int done;
    int rsv__literal_words; /* private: the merge's short-literal option (kv03_frame_parse.h) */
    uint64_t next_block; /* index of the next block-start record (saves i mod W) */
    uint64_t code;       /* Cp: dictionary index of the previous record's code */
    uint64_t code_bits;  /* |Cp| (c = dict_bits when m <= 1) */
} rsv_kv03_frames;

/* With m >= 2 init reads the dictionary (§6.3, rsv_kv03_dictionary_check):
 * on failure it returns that status and the walker is poisoned at record 0,
 * bit 0 (later calls: RSV_ERR_POISONED). The cursor's init/reset likewise.
 * A NULL fw or f (and, for next, a NULL out or more) is
 * RSV_ERR_INVALID_ARGUMENT with nothing written. */
RSV_API rsv_status rsv_kv03_frames_init(rsv_kv03_frames *fw, const rsv_kv03_file *f);
/* Next frame: *more = 1 and *out filled, or *more = 0 at the end. After the
 * last record the terminal check (§3.3) is made before returning it. */
RSV_API rsv_status rsv_kv03_frames_next(rsv_kv03_frames *fw, rsv_kv03_frame *out, int *more);
static inline rsv_kv03_diag rsv_kv03_frames_diag(const rsv_kv03_frames *fw) { return fw->diag; }

/* ---- cursor and full records (§3.3 steps 1–7) ---------------------------- */

typedef struct rsv_kv03_entry {
    uint64_t index;
    const uint8_t *key; /* cursor-owned, valid until the next call */
    size_t key_len;
    rsv_value_span value_span; /* the value's encoding (bytes not copied) */
    rsv_value value;           /* kind and len always; data only from rsv_kv03_cursor_record */
    uint64_t end;              /* data-stream bit after the record */
    uint64_t code;             /* dictionary index of the record's code (0 when m <= 1) */
} rsv_kv03_entry;

typedef struct rsv_kv03_cursor {
    rsv_kv03_frames fw;
    uint8_t *key;
    size_t key_len, key_cap;
    uint8_t *val;
    size_t val_cap;
    rsv_kv03_diag diag;
} rsv_kv03_cursor;

RSV_API rsv_status rsv_kv03_cursor_init(rsv_kv03_cursor *c, const rsv_kv03_file *f);
/* Key rebuilt, value skipped: value_span describes it, out->value holds its
 * kind and length with data NULL (nothing is copied, borrowed or allocated
 * for it). */
RSV_API rsv_status rsv_kv03_cursor_next(rsv_kv03_cursor *c, rsv_kv03_entry *out, int *more);
/* Key rebuilt and value materialized in out->value (three states kept); a
 * present value's data is borrowed from the file when the value starts on a
 * byte boundary (value_span.bytes.off % 8 == 0), else it is cursor-owned,
 * valid until the next call. data is NULL for a tombstone and for an empty
 * value (nothing is borrowed, copied or allocated for them). */
RSV_API rsv_status rsv_kv03_cursor_record(rsv_kv03_cursor *c, rsv_kv03_entry *out, int *more);
RSV_API void rsv_kv03_cursor_free(rsv_kv03_cursor *c);
/* Start over on file f (the same or another), keeping the cursor's key and
 * value buffers: a warm cursor walks a file without allocating. */
RSV_API rsv_status rsv_kv03_cursor_reset(rsv_kv03_cursor *c, const rsv_kv03_file *f);
static inline rsv_kv03_diag rsv_kv03_cursor_diag(const rsv_kv03_cursor *c) { return c->diag; }

/* rsv_kv03_frames_seek_code / rsv_kv03_cursor_seek_code: restart the walker
 * on its file (dictionary read again, §6.3) so that its next call returns
 * the first record whose code is >= j (or *more = 0 when there is none):
 * the walk starts at block `first` above — the block start there is parsed
 * as continuing its seed's code (its key bits are unknown and not needed:
 * its code is < j) — and frames are skipped until the code reaches j. The
 * record handed over is record 0 or follows a code change, so its key
 * starts fresh and the cursor rebuilds every key from it exactly as a walk
 * from record 0 would. Checks made on the skipped records: §3.3 steps 1-5
 * (block offsets, seeds, transitions, framing) and the terminal check when
 * the end is reached; not made: step 6-7 (keys, order) of the skipped
 * records and PREFIX_CROSSES_CODE at block `first`. The record handed over
 * is parsed too (to learn its code), so a failure of its steps 1-5 is the
 * seek's. A failure poisons the walker (diag: record and bit as in a walk
 * from record 0 that failed there). j >= max(m, 1) is an argument error
 * (RSV_ERR_INVALID_ARGUMENT), checked first: the walker is then neither
 * restarted nor poisoned. Cost: one block of frames at
 * most before code j's first record when the seeds are monotone. */
RSV_API rsv_status rsv_kv03_frames_seek_code(rsv_kv03_frames *fw, uint64_t j);
RSV_API rsv_status rsv_kv03_cursor_seek_code(rsv_kv03_cursor *c, uint64_t j);

/* ---- reusable full verification ----------------------------------------- */

/* rsv_kv03_scan with caller-held scratch: the walked block offsets, the
 * rebuilt Elias-Fano sections (scan step 7) and the walking cursor's buffers
 * are kept between scans, so scanning again allocates nothing once the
 * buffers are large enough (a need equal to the capacity included). Each
 * grows from 16 entries by doubling to the least such capacity that holds
 * the need (nb + 1 offsets; the bytes of sections 1-4). */
typedef struct rsv_kv03_scanner {
    rsv_kv03_cursor cur;
    uint64_t *offsets; /* one per block + 1 */
    size_t offsets_cap;
    uint8_t *ef; /* sections 1-4 as the canonical builder makes them */
    size_t ef_cap;
} rsv_kv03_scanner;

RSV_API void rsv_kv03_scanner_init(rsv_kv03_scanner *s);
RSV_API rsv_status rsv_kv03_scanner_scan(rsv_kv03_scanner *s, const rsv_kv03_file *f, rsv_kv03_diag *diag);
RSV_API void rsv_kv03_scanner_free(rsv_kv03_scanner *s);

#ifdef __cplusplus
}
#endif
#endif
