/* Corruption sweeps of one KV03 file, codec against oracle through
 * rsv_kv03d_file (kv03_diff.h; the oracle side is the v2 decoder, so v1 and
 * multi-code files alike). Plain C: the Criterion tests
 * (test_kv03_diff_corrupt.c, test_kv03_v2_corrupt.c) assert on the result.
 *
 * Each sweep returns 1 when every case agreed and met its expectation, else
 * 0 with rep->msg naming the first failing case; *st accumulates counts. */
#ifndef RSV_KV03_SWEEP_H
#define RSV_KV03_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "kv03_diff.h"

#define RSV_KV03D_SWEEP_STATUSES 128

typedef struct rsv_kv03d_sweep {
    size_t cases;
    /* resealed flips: where the agreed outcome was decided */
    size_t accepted, at_open, at_walk, at_scan_other;
    size_t status[RSV_KV03D_SWEEP_STATUSES]; /* agreed first error -> count */
} rsv_kv03d_sweep;

/* The §9.1 status of a flip of header byte `at` (CRC not recomputed):
 * magic -> BAD_MAGIC, version/length -> BAD_VERSION, else HEADER_CRC. */
rsv_status rsv_kv03d_header_flip_status(size_t at);

/* Every single-bit flip as is: rejected; header bits with
 * rsv_kv03d_header_flip_status, every bit after the directory BODY_CRC. */
int rsv_kv03d_sweep_flips(const uint8_t *file, size_t n, rsv_kv03d_sweep *st, rsv_kv03d_report *rep);

/* Every truncation to 0..n-1 bytes (a copy of exactly that many bytes):
 * TRUNCATED_HEADER below 96 bytes, else FILE_SIZE (§9.1 checks 1, 17). */
int rsv_kv03d_sweep_truncations(const uint8_t *file, size_t n, rsv_kv03d_sweep *st, rsv_kv03d_report *rep);

/* Every single-bit flip outside the CRC fields (bytes 64..71: resealing
 * would undo it) with both CRCs recomputed: the two sides agree (statuses,
 * walk positions, records). */
int rsv_kv03d_sweep_resealed(const uint8_t *file, size_t n, rsv_kv03d_sweep *st, rsv_kv03d_report *rep);

/* A named file of a sweep set (bytes owned, malloc'd). */
typedef struct rsv_kv03d_named_file {
    const char *name;
    uint8_t *b;
    size_t n;
} rsv_kv03d_named_file;

typedef int (*rsv_kv03d_sweep_fn)(const uint8_t *file, size_t n, rsv_kv03d_sweep *st, rsv_kv03d_report *rep);

/* Both sides accept every file of the set (the sweeps start from valid
 * files): 1, else 0 with rep->msg "<name>: ..." for the first that is not. */
int rsv_kv03d_files_accepted(const rsv_kv03d_named_file *f, size_t nfiles, rsv_kv03d_report *rep);

/* `sweep` over every file of the set, counts into *st: 1 when every case of
 * every file passed and at least one case ran, else 0 with rep->msg
 * "<name>: ..." naming the first failing case. */
int rsv_kv03d_sweep_files(rsv_kv03d_sweep_fn sweep, const rsv_kv03d_named_file *f, size_t nfiles,
                          rsv_kv03d_sweep *st, rsv_kv03d_report *rep);

void rsv_kv03d_files_free(rsv_kv03d_named_file *f, size_t nfiles);

#endif
