/* Table-driven "reach exactly this check" rows (tests/test_status_reach*.c).
 *
 * A row crafts one KV03 file from a valid base file with the surgeon
 * (kv03_surgeon.h) and states, from the spec, the status it must fail with
 * and where: the §9.1 open check or §9.2 scan step (the oracle reports the
 * step number that fired, so "no earlier check fires" is asserted, not just
 * the status) and, for §3.3 walk errors, the record and data-stream bit.
 * rsv_sr_run then requires:
 *   1. the oracle (SCAN mode): status, phase, step and (when given) record and
 *      bit equal the row's — the oracle held to the spec;
 *   2. the codec (open, then scan): the same status, and for walk errors the
 *      same record and bit (TERMINAL_MISMATCH: record N − 1, docs/kv03.md);
 *   3. rsv_kv03d_file (kv03_diff.h): codec and oracle agree on open, scan and
 *      the frames/cursor/records walks (status, record, bit, records before);
 *   4. the seed corpus/kv03_parse/regressions/<seed> exists and is
 *      byte-identical to the crafted file (RSV_STATUS_REACH_WRITE_SEEDS=1
 *      writes it instead), so ctest's fuzz_replay_kv03_parse replays exactly
 *      these inputs through the kv03_parse codec-vs-oracle check. */
#ifndef RSV_STATUS_REACH_H
#define RSV_STATUS_REACH_H

#include <stddef.h>
#include <stdint.h>

#include "kv03_surgeon.h"
#include "reservoir/kv03.h"
#include "reservoir/oracle_kv03.h"

#define RSV_SR_ANY UINT64_MAX /* record / bit not asserted (codec == oracle still is) */

typedef struct rsv_sr_row {
    const char *seed;          /* seed file name, NULL: no seed (see the row) */
    rsv_oracle_phase phase;    /* OPEN (§9.1) or SCAN (§9.2); NONE = accepted */
    unsigned step;             /* §9.1 check or §9.2 step number (0: not asserted) */
    rsv_status want;
    uint64_t record, bit;      /* walk errors (oracle convention: terminal = N) */
    int expect_other_policy;   /* open with the base policy but W + 1 (§9.1 check 11) */
    void (*make)(rsv_surgeon *s);
} rsv_sr_row;

/* Runs one row on a copy of base[0..n). Returns 1 when every requirement
 * holds, else 0 with the first failure in msg. */
int rsv_sr_run(const rsv_sr_row *row, const uint8_t *base, size_t n, char *msg, size_t cap);

/* The seed corpus/<target>/regressions/<name> must exist and equal b[0..n)
 * (RSV_STATUS_REACH_WRITE_SEEDS=1: write it). 1 = ok, else 0 and msg. */
int rsv_sr_seed(const char *target, const char *name, const uint8_t *b, size_t n, char *msg, size_t cap);

/* Where seeds live: $RSV_STATUS_REACH_CORPUS if set, else the compiled-in
 * RSV_CORPUS_DIR of the test (tests/CMakeLists.txt). */
void rsv_sr_set_corpus_dir(const char *dir);

#endif
