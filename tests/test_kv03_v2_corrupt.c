/* KV03 format revision v2 corruption sweeps, codec vs the v2 oracle
 * (tests/support/kv03_diff.h: rsv_kv03d_file decodes with
 * rsv_oracle_kv03_decode_v2), over the §12.5 multi-code file (377 bytes,
 * copied from KV03.md, kv03_vectors_v2.h) and three random multi-code files
 * encoded by the oracle's v2 writer (random records from kv03_diff_gen.h;
 * 2..7 codes: the unary set `0`, `10`, `110`, ..., `1^(m-1)`, each code then
 * extended by 0..3 random bits and one by 60..100, which keeps the set
 * prefix-free and its order, so records sorted by (code index, key) are in
 * logical-key order):
 *   - every single-bit flip: rejected by open/scan with the status both sides
 *     agree on; expected codes from §9.1 for the header (magic -> BAD_MAGIC,
 *     version/length -> BAD_VERSION, every other header bit -> HEADER_CRC)
 *     and BODY_CRC for every bit after the directory (open never reads it);
 *   - every truncation 0..n-1: TRUNCATED_HEADER below 96 bytes, else
 *     FILE_SIZE (§9.1 checks 1 and 17);
 *   - every single-bit flip outside the CRC fields with both CRCs
 *     recomputed, so the structural
 *     checks decide: both sides agree on the first error (and record/bit for
 *     walk errors; frames/cursor/records included), or both accept the file
 *     and decode the same records (sweeps: tests/support/kv03_sweep.h).
 *     For §12.5 this must reach
 *     DICTIONARY_ORDER (flip of section 5 bit 0: `1`, `10`, `11`) and
 *     SEED_RANGE (seeds `00 10` -> `00 11`, 3 >= m = 3), hand-derived from
 *     §6.3 and §12.5.
 * ASan/UBSan make "never crashes" part of every case. Each test fails if it
 * ran no case. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "kv03_diff.h"
#include "kv03_diff_gen.h"
#include "kv03_sweep_suite.h"
#include "kv03_vectors_v2.h"
#include "reservoir/oracle_kv03.h"
#include "testutil.h"

#define NFILES 4
#define CODE_BYTES 16

typedef rsv_kv03d_named_file file;

/* A random multi-code file from the oracle's v2 writer. */
static void random_file(uint64_t seed, file *f)
{
    rsv_rng g = {seed};
    size_t m = 2 + (size_t)rsv_rng_below(&g, 6);
    uint8_t codes[8][CODE_BYTES];
    uint64_t bits[8];
    size_t long_one = (size_t)rsv_rng_below(&g, m);
    memset(codes, 0, sizeof codes);
    for (size_t j = 0; j < m; j++) { /* 1^j 0, the last 1^(m-1) */
        bits[j] = j + 1 < m ? j + 1 : m - 1;
        for (size_t k = 0; k < j && k < bits[j]; k++) rsv_set_bit(codes[j], k, 1);
        uint64_t extra = j == long_one ? 60 + rsv_rng_below(&g, 41) : rsv_rng_below(&g, 4);
        for (uint64_t k = 0; k < extra; k++) rsv_set_bit(codes[j], bits[j] + k, (unsigned)(rsv_rng_next(&g) & 1u));
        bits[j] += extra;
        cr_assert_leq(bits[j], 8 * CODE_BYTES);
    }
    rsv_kv03d_set s = rsv_kv03d_gen(&g, 30, 5, 4);
    size_t n = s.n;
    rsv_oracle_crecord *c = calloc(n + 1, sizeof *c);
    size_t *ci = calloc(n + 1, sizeof *ci);
    cr_assert(c && ci);
    /* codes by increasing segments of the sorted keys: (code, key) increases */
    size_t k = 0;
    for (size_t j = 0; j < m; j++) {
        size_t end = (j + 1) * n / m;
        for (; k < end; k++) ci[k] = j;
    }
    for (size_t i = 0; i < n; i++) {
        rsv_kv03d_to_oracle(&s.r[i], 1, &c[i].rec);
        c[i].code.bits = codes[ci[i]];
        c[i].code.nbits = bits[ci[i]];
    }
    rsv_oracle_kv03_policy p = {RSV_ORACLE_BACKSPACE_EG, rsv_rng_below(&g, 3), 1 + rsv_rng_below(&g, 4), 7};
    size_t bad;
    cr_assert_eq(rsv_oracle_kv03_encode_v2(c, n, &p, &f->b, &f->n, &bad), RSV_OK);
    cr_assert_geq(n, 10);
    free(c);
    free(ci);
    rsv_kv03d_set_free(&s);
}

static void load(file *f)
{
    f[0].name = "12.5";
    f[0].n = FILE_12_5_SIZE;
    f[0].b = malloc(FILE_12_5_SIZE);
    memcpy(f[0].b, FILE_12_5, FILE_12_5_SIZE);
    static const char *const names[] = {"random 1", "random 2", "random 3"};
    for (int i = 1; i < NFILES; i++) {
        f[i].name = names[i - 1];
        random_file(0x5EED0000u + (uint64_t)i, &f[i]);
    }
    /* the sweeps start from files both sides accept, and that are multi-code */
    rsv_kv03d_report rep;
    cr_assert(rsv_kv03d_files_accepted(f, NFILES, &rep), "%s", rep.msg);
    for (int i = 0; i < NFILES; i++) {
        rsv_kv03_file kf;
        cr_assert_eq(rsv_kv03_open(f[i].b, f[i].n, NULL, &kf), RSV_OK);
        cr_assert_geq(rsv_kv03_code_count(&kf), 2, "%s is not multi-code", f[i].name);
        rsv_kv03_close(&kf);
    }
}

RSV_KV03D_SWEEP_SUITE(kv03_v2_corrupt, load, NFILES)

Test(kv03_v2_corrupt, every_bit_flip_rejected) { sweep_all(rsv_kv03d_sweep_flips); }

Test(kv03_v2_corrupt, every_truncation_rejected) { sweep_all(rsv_kv03d_sweep_truncations); }

Test(kv03_v2_corrupt, every_resealed_bit_flip_agrees)
{
    rsv_kv03d_sweep st = {0}, st125 = {0};
    sweep_set(rsv_kv03d_sweep_resealed, 0, 1, &st125);
    sweep_set(rsv_kv03d_sweep_resealed, 1, NFILES - 1, &st);
    cr_assert_gt(st125.status[RSV_ERR_DICTIONARY_ORDER], 0, "no resealed flip of §12.5 reached DICTIONARY_ORDER");
    cr_assert_gt(st125.status[RSV_ERR_SEED_RANGE], 0, "no resealed flip of §12.5 reached SEED_RANGE");
}
