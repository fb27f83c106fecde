/* KV03 corruption sweeps, codec vs oracle (tests/support/kv03_diff.h), over
 * six small files: the §12.3 example, its W = 2 / Golomb m = 7 /
 * all-tombstone variants, the empty file (all copied from the spec via
 * kv03_vectors.h) and a ~20-record file encoded by the oracle.
 *   - every single-bit flip: rejected by open/scan (what `rsv verify` uses),
 *     with the status both sides agree on; expected codes hand-derived from
 *     §9.1 for the header (magic → BAD_MAGIC, version/length → BAD_VERSION,
 *     every other header bit incl. both CRC fields → HEADER_CRC) and BODY_CRC
 *     for every bit after the directory (open never reads it);
 *   - every truncation 0..n−1: TRUNCATED_HEADER below 96 bytes, else
 *     FILE_SIZE (§9.1 checks 1 and 17: nothing before 17 looks at the size);
 *   - every single-bit flip with both CRCs recomputed, so the structural
 *     checks behind the CRCs decide: both sides agree on the first error (and
 *     record/bit for walk errors), frames/cursor/records included — or both
 *     accept the file and decode the same records.
 * ASan/UBSan make "never crashes" part of every case. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "kv03_diff.h"
#include "kv03_diff_gen.h"
#include "kv03_sweep_suite.h"
#include "kv03_vectors.h"
#include "testutil.h"

typedef rsv_kv03d_named_file file;

#define NFILES 6

static void copy_12_3(uint8_t *b) { memcpy(b, FILE_12_3, 360); }
static void copy_empty(uint8_t *b) { memcpy(b, FILE_EMPTY, 320); }

static void load(file *f)
{
    /* the spec's files (kv03_vectors.h) */
    static const struct {
        const char *name;
        size_t n;
        void (*make)(uint8_t *);
    } spec[5] = {{"12.3", 360, copy_12_3}, {"W=2", 360, make_w2k3}, {"Golomb 7", 360, make_golomb7},
                 {"tombstones", 352, make_tombstones}, {"empty", 320, copy_empty}};
    for (int i = 0; i < 5; i++) {
        f[i].name = spec[i].name;
        f[i].n = spec[i].n;
        f[i].b = malloc(spec[i].n);
        cr_assert(f[i].b);
        spec[i].make(f[i].b);
    }
    /* ~20 records, W = 3 (7 blocks, block starts inheriting prefixes) */
    rsv_rng g = {2024};
    rsv_kv03d_set s = rsv_kv03d_gen(&g, 22, 6, 5);
    rsv_oracle_record o[22];
    for (size_t i = 0; i < s.n; i++) {
        o[i].key = s.r[i].key;
        o[i].key_len = s.r[i].key_len;
        o[i].state = s.r[i].value.kind == RSV_VALUE_PRESENT ? RSV_ORACLE_PRESENT : RSV_ORACLE_TOMBSTONE;
        o[i].value = s.r[i].value.data;
        o[i].value_len = s.r[i].value.len;
    }
    rsv_oracle_kv03_policy p = {RSV_ORACLE_BACKSPACE_EG, 1, 3, 7};
    size_t bad;
    cr_assert_eq(rsv_oracle_kv03_encode(o, s.n, &p, (const uint8_t *)"\x40", 2, &f[5].b, &f[5].n, &bad), RSV_OK);
    cr_assert_geq(s.n, 18);
    f[5].name = "random";
    rsv_kv03d_set_free(&s);
    /* the sweeps start from files both sides accept */
    rsv_kv03d_report rep;
    cr_assert(rsv_kv03d_files_accepted(f, NFILES, &rep), "%s", rep.msg);
}

RSV_KV03D_SWEEP_SUITE(kv03_diff_corrupt, load, NFILES)

Test(kv03_diff_corrupt, every_bit_flip_rejected) { sweep_all(rsv_kv03d_sweep_flips); }

Test(kv03_diff_corrupt, every_truncation_rejected) { sweep_all(rsv_kv03d_sweep_truncations); }

/* Flips with both CRCs recomputed: the structural checks decide. Counts of
 * accepted / open-rejected / scan-rejected / walk-rejected files are checked
 * to be nonzero so the sweep demonstrably reaches every layer. */
Test(kv03_diff_corrupt, every_bit_flip_resealed)
{
    rsv_kv03d_sweep st = {0};
    sweep_set(rsv_kv03d_sweep_resealed, 0, NFILES, &st);
    cr_assert(st.accepted && st.at_open && st.at_walk && st.at_scan_other,
              "accepted %zu, open %zu, walk %zu, other scan %zu", st.accepted, st.at_open, st.at_walk,
              st.at_scan_other);
}

/* Two resealed flips inside the data stream (section 0) of each non-empty
 * file: deeper framing states than one flip reaches. */
Test(kv03_diff_corrupt, data_stream_double_flips_resealed)
{
    file *f = g_files;
    rsv_rng g = {31337};
    for (int fi = 0; fi < NFILES; fi++) {
        uint64_t len0 = 0;
        for (int i = 0; i < 8; i++) len0 |= (uint64_t)f[fi].b[96 + 72 + i] << (8 * i);
        if (len0 == 0) continue;
        uint8_t *x = malloc(f[fi].n);
        for (int t = 0; t < 3000; t++) {
            memcpy(x, f[fi].b, f[fi].n);
            for (int k = 0; k < 2; k++) {
                uint64_t bit = rsv_rng_below(&g, 8 * len0);
                x[96 + 192 + bit / 8] ^= (uint8_t)(0x80u >> (bit % 8));
            }
            rsv_kv03d_reseal(x, f[fi].n);
            rsv_kv03d_report rep;
            rsv_kv03d_report_init(&rep);
            cr_assert(rsv_kv03d_file(x, f[fi].n, NULL, NULL, 0, &rep), "%s, double flip %d: %s", f[fi].name, t,
                      rep.msg);
        }
        free(x);
    }
}
