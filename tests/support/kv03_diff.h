/* KV03 differential engine: the codec (codec/) against the oracle (oracle/)
 * on the same bytes. Plain C (no Criterion), so the Criterion tests
 * (tests/test_kv03_diff_*.c), fuzz targets and the plain driver
 * rsv_kv03check (MSan, valgrind) share it.
 *
 * Every entry point returns 1 when the two sides agree (and, where the
 * caller gave an expectation, match it) and 0 otherwise, with a one-line
 * description of the first disagreement in rep->msg.
 *
 * What is compared for a file (rsv_kv03d_file):
 *   open    codec rsv_kv03_open vs oracle OPEN mode: status.
 *   scan    codec rsv_kv03_scan vs oracle SCAN mode: status; for errors of
 *           the §3.3 walk (oracle scan step 3) also record index and bit.
 *   walk    codec open + cursor (rsv_kv03_cursor_record, and separately
 *           rsv_kv03_cursor_next) vs oracle WALK mode: status, record, bit
 *           and every record before the failure (key bytes, three-state
 *           value; cursor_next: value state and length only).
 *   frames  codec frame walker (§3.3 steps 1–5 + terminal only) against the
 *           oracle walk: with the walk clean, N frames whose key length,
 *           literal (= key bits [local, 8|K|)), value and block-start offset
 *           match the oracle's records; with a frame-level walk error, the
 *           same error at the same record and bit; with an order error
 *           (MISSING_PREFIX, UNSORTED: steps 6–7, which frames do not make)
 *           no frame error before that record.
 *
 * Positions the two sides define differently (documented, mapped here):
 *   - TERMINAL_MISMATCH: the oracle reports record = N, the codec (frames,
 *     cursor, scan, merge) the last record's index N−1 (docs/kv03.md,
 *     reading 3). Bits agree (the final position). Compared as codec+1.
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
 *     mode reports it. MERGE_MISMATCH: status only (the oracle's index is the
 *     first disagreeing input, which the codec also stores, but §11.2 defines
 *     none). Open failures of inputs are the engine's (the codec merge takes
 *     opened files): first failing input in order, as the oracle does.
 *   - Record streams: status, record index and bit all defined alike
 *     (oracle_kv03.h, codec stream.h) and compared. */
#ifndef RSV_KV03_DIFF_H
#define RSV_KV03_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "reservoir/kv03.h"
#include "reservoir/merge.h"
#include "reservoir/oracle_kv03.h"
#include "reservoir/record.h"
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

typedef struct rsv_kv03d_report {
    rsv_kv03d_side codec, oracle;
    rsv_status status;  /* first error of open + scan (both sides agree when ok) */
    size_t checks;      /* individual comparisons made */
    char msg[RSV_KV03D_MSG];
} rsv_kv03d_report;

void rsv_kv03d_report_init(rsv_kv03d_report *rep);

/* The codec policy as the oracle's struct. */
rsv_oracle_kv03_policy rsv_kv03d_policy(const rsv_kv03_policy *p);

/* The oracle's view of codec records (same key and value bytes, not copied). */
void rsv_kv03d_to_oracle(const rsv_record *r, size_t n, rsv_oracle_record *o);

/* Decode `bytes` with both sides as described above. expected (may be NULL)
 * is passed to both opens (§9.1 check 11). If want != NULL the walk must
 * also produce exactly want[0..nwant) (keys and three-state values). */
int rsv_kv03d_file(const uint8_t *bytes, size_t n, const rsv_kv03_policy *expected,
                   const rsv_record *want, size_t nwant, rsv_kv03d_report *rep);

/* Batch encode recs with the codec (rsv_kv03_encode and, separately, the
 * streaming writer add by add) and the oracle: same status; on success the
 * three files are byte-identical and decode (rsv_kv03d_file) to recs. Then
 * the record stream: codec stream writer bytes and extent == the oracle's,
 * and both stream decoders return recs. code = NULL: default C0 `0`. */
int rsv_kv03d_roundtrip(const rsv_record *recs, size_t n, const rsv_kv03_policy *policy,
                        const uint8_t *code, uint64_t code_bits, rsv_kv03d_report *rep);

/* Decode a record stream of exactly `bits` bits with both readers: status,
 * record index, bit position and records must agree (and equal want when
 * want != NULL). code = NULL: default C0 `0`. */
int rsv_kv03d_stream(const uint8_t *bytes, uint64_t bits, const uint8_t *code, uint64_t code_bits,
                     const rsv_record *want, size_t nwant, rsv_kv03d_report *rep);

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
