/* The KV03 comparison engine: the codec (codec/) against the oracle
 * (oracle/) on the same bytes. Plain C (no Criterion); the one engine behind
 * the Criterion tests (tests/test_kv03_*.c), the plain driver rsv_kv03check
 * (MSan, valgrind), the guard-page drivers (guardpage/) and the KV03 fuzz
 * targets (fuzz/common/kv03_parse_check.c, fuzz/merge_diff.c): none of them
 * compares codec and oracle results itself.
 *
 * Every entry point returns 1 when the two sides agree (and, where the
 * caller gave an expectation, match it) and 0 otherwise, with a one-line
 * description of the first disagreement in rep->msg.
 *
 * What is compared for a file (rsv_kv03d_file, kv03_diff_file.c):
 *   open    codec rsv_kv03_open (only the header and directory readable)
 *           vs oracle OPEN mode: status and every decoded header/directory
 *           field; with no expected policy also the opens with an expected
 *           policy that differs in W and with the file's own (§9.1 check
 *           11): status. A file that does not open: the oracle's SCAN status
 *           equals its OPEN status.
 *   walk    codec cursor (rsv_kv03_cursor_record, and separately
 *           rsv_kv03_cursor_next) vs oracle WALK mode: status, record, bit
 *           and every record before the failure (index, code index, key
 *           bytes, three-state value; cursor_next: value kind and length;
 *           a tombstone's span: width 1, len 0, bytes {NULL, 0, 0}), the
 *           records before the error, RSV_ERR_POISONED after it; an init
 *           failure only as the oracle's §6.3 dictionary failure. After
 *           every call, failures included, the walker's reader state
 *           against reader.h's invariant (rsv_test_reader_state_ok: the
 *           cache is the view bits [pos, pos + n), zero below them).
 *   frames  codec frame walker (§3.3 steps 1–5 + terminal only) against the
 *           oracle walk: each frame's index, key length, literal (= key bits
 *           [local, 8|K|)), code index, R = local + |C| (R < |C| only at a
 *           code transition), block start and block offset, value; with a
 *           frame-level walk error, the same error at the same record and
 *           bit, then POISONED; with an order error (MISSING_PREFIX,
 *           UNSORTED: steps 6–7, which frames do not make) frames 0..r come.
 *           The walker's reader state after every call, as for the cursor.
 *   scan    codec rsv_kv03_scan vs oracle SCAN mode: status; for errors of
 *           the §3.3 walk (oracle scan step 3) also record index and bit.
 *   after a clean scan: rsv_kv03_cursor_seek_code(j) for every code j lands
 *           on the oracle's first record with code >= j; then either the
 *           decoded records equal `want` (keys, values, and codes where
 *           want[i].code is set) or, without want, the decoded records
 *           re-encoded by both batch encoders (v2: with their codes) give
 *           identical bytes.
 *
 * Positions the two sides define differently (documented, mapped in one
 * place, kv03_diff_impl.h):
 *   - TERMINAL_MISMATCH: the oracle reports record = N, the codec (frames,
 *     cursor, scan, merge) the last record's index N−1 (docs/kv03.md,
 *     reading 3). Bits agree (the final position).
 *   - Open (§9.1) and non-walk scan errors: the oracle reports record =
 *     bitpos = 0 with the §9.1/§9.2 step number; the codec reports no
 *     position. Only the status is compared.
 *   - Merges: the oracle opens and then walks every input completely, in
 *     input order, before merging; the codec reads inputs lazily and
 *     interleaved. With several corrupt inputs each may therefore report a
 *     different input's error, both being "first failures" of their order
 *     (§11.2 does not fix an order). Compared: both fail; when exactly one
 *     input is bad, same status; the codec's (failed input, status, record,
 *     bit) must be that input's own first walk error as the oracle's WALK
 *     mode reports it; a merge step after any failure returns POISONED.
 *     With opts RSV_KV03D_ONE_BAD_INPUT (the caller corrupted at most one
 *     input) also: same status and failing input as the oracle's merge
 *     (except INVALID_ARGUMENT), and for §3.3 walk errors its record and
 *     bit. Open failures of inputs are the engine's (the codec merge takes
 *     opened files): first failing input in order, as the oracle does.
 *   - Record streams: status, record index and bit all defined alike
 *     (oracle_kv03.h, codec stream.h) and compared; every record as for the
 *     cursor (index, code index, key, three-state value and bytes, a
 *     tombstone's span) and the reader's state after every call. */
#ifndef RSV_KV03_DIFF_H
#define RSV_KV03_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "reservoir/kv03.h"
#include "reservoir/merge.h"
#include "reservoir/oracle_kv03.h"
#include "reservoir/record.h"
#include "reservoir/stream.h"
#include "reservoir/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RSV_KV03D_MSG 768

/* Where a side stopped. */
typedef struct rsv_kv03d_side {
    rsv_status open;  /* §9.1 */
    rsv_status scan;  /* §9.2 (RSV_OK also when open failed) */
    rsv_status walk;  /* §3.3 walk after open */
    uint64_t record;  /* walk error: record (oracle convention: N for terminal) */
    uint64_t bit;     /* walk error: data-stream bit */
    size_t nrecords;  /* records that passed the walk */
} rsv_kv03d_side;

/* Optional harness hooks (the KV03 fuzz targets): narrow(ctx, lo, hi) is
 * called before codec calls that may load only bytes [lo, hi) of the file
 * (open: header + directory; walkers and seek_code: sections 0..7), widen(ctx)
 * after them (the fuzz targets poison the rest of their guard arena, see
 * fuzz/common/guard_arena.h). RSV_LOAD_CHECK builds enforce the same windows
 * through load_window.h without hooks. */
typedef struct rsv_kv03d_hooks {
    void *ctx;
    void (*narrow)(void *ctx, const uint8_t *lo, const uint8_t *hi);
    void (*widen)(void *ctx);
} rsv_kv03d_hooks;

/* rsv_kv03d_report.opts */
#define RSV_KV03D_ONE_BAD_INPUT 1u /* merge: at most one input is corrupt (see rsv_kv03d_merge) */

typedef struct rsv_kv03d_report {
    rsv_kv03d_side codec, oracle;
    rsv_status status;  /* first error of open + scan (both sides agree when ok) */
    size_t checks;      /* individual comparisons made */
    const rsv_kv03d_hooks *hooks; /* NULL (report_init): none */
    unsigned opts;      /* RSV_KV03D_* (report_init: 0) */
    char msg[RSV_KV03D_MSG];
} rsv_kv03d_report;

void rsv_kv03d_report_init(rsv_kv03d_report *rep);

/* The codec policy as the oracle's struct. */
rsv_oracle_kv03_policy rsv_kv03d_policy(const rsv_kv03_policy *p);
/* And back. */
rsv_kv03_policy rsv_kv03d_codec_policy(const rsv_oracle_kv03_policy *o);

/* The oracle's view of codec records (same key and value bytes, not copied). */
void rsv_kv03d_to_oracle(const rsv_record *r, size_t n, rsv_oracle_record *o);

/* Decode `bytes` with both sides as described above. expected (may be NULL)
 * is passed to both opens (§9.1 check 11). If want != NULL the file must
 * scan clean and decode to exactly want[0..nwant) (keys, three-state values,
 * and the code of every record whose want[i].code is set). */
int rsv_kv03d_file(const uint8_t *bytes, size_t n, const rsv_kv03_policy *expected,
                   const rsv_record *want, size_t nwant, rsv_kv03d_report *rep);

/* Batch encode recs with the codec (rsv_kv03_encode and, separately, the
 * streaming writer add by add) and the oracle: same status; on success the
 * three files are byte-identical and decode (rsv_kv03d_file) to recs. Then
 * the record stream: codec stream writer bytes and extent == the oracle's,
 * and both stream decoders return recs. code = NULL: default C0 `0`. */
int rsv_kv03d_roundtrip(const rsv_record *recs, size_t n, const rsv_kv03_policy *policy,
                        const uint8_t *code, uint64_t code_bits, rsv_kv03d_report *rep);

/* Decode a record stream of exactly `bits` bits with both one-code readers
 * (rsv_kv03d_stream_reader's comparisons; records equal want when want !=
 * NULL). code = NULL: default C0 `0`. */
int rsv_kv03d_stream(const uint8_t *bytes, uint64_t bits, const uint8_t *code, uint64_t code_bits,
                     const rsv_record *want, size_t nwant, rsv_kv03d_report *rep);

/* A codec stream reader sr over v (just initialized by rsv_stream_reader_init
 * or _init_set, which returned init_status) against the oracle's decode o of
 * the same bits (code_index: each record's index into the same code set;
 * NULL = all 0): every record (key, three-state value, index, code index),
 * the first error with its record and bit (the codec's diag), the record
 * count, a success ending at bit v.len, RSV_ERR_POISONED on the two calls
 * after an error; an init failure only where the oracle fails at record 0,
 * bit 0. want != NULL: the stream must decode to want[0..nwant) and, when
 * want_code != NULL, record j have code index want_code[j]. The caller
 * frees sr and o. */
int rsv_kv03d_stream_reader(rsv_stream_reader *sr, rsv_status init_status, rsv_view v,
                            const rsv_oracle_stream_result *o, const uint64_t *code_index,
                            const rsv_record *want, const uint64_t *want_code, size_t nwant,
                            rsv_kv03d_report *rep);

/* Merge inputs (oldest first) with both sides. Codec: open each input (no
 * expected policy; first open failure wins), then rsv_merge_init/run/finish.
 * Oracle: rsv_oracle_kv03_merge_v2 (merges across code sets). Same status (see the merge note above) and,
 * on success, byte-identical outputs. If want != NULL (a file) the output
 * must also equal it byte for byte. out_status (may be NULL) receives the
 * agreed status. */
int rsv_kv03d_merge(const uint8_t *const *files, const size_t *sizes, size_t n, int drop_tombstones,
                    const uint8_t *want, size_t want_len, rsv_status *out_status,
                    rsv_kv03d_report *rep);

/* Naive newest-wins merge computed here, independent of both sides:
 * lists[0] oldest; each list sorted. Writes the merged list to out (capacity
 * sum of the counts) and returns its length. Records are shallow copies. */
size_t rsv_kv03d_naive_merge(const rsv_record *const *lists, const size_t *counts, size_t nlists,
                             int drop_tombstones, rsv_record *out);

/* Both CRCs recomputed in place (bitwise oracle CRC32C, §7). */
void rsv_kv03d_reseal(uint8_t *file, size_t n);

#ifdef __cplusplus
}
#endif
#endif
