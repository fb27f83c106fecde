/* Every status, reached on purpose: the rows that need KV03 format revision
 * v2 (KV03.md §13): dictionary (§6.3), seeds, transitions (§3.3) and scan
 * step 3a. A v1 reader stopped all of them at open check 29
 * (UNSUPPORTED_SELECTORS, 82), which v2 removed.
 *
 * Rows come from KV03.md §12.5 (its corruption table, positions as stated
 * there) and §6.3 / §9.1 / §9.2 / §11.2; the base file is the §12.5 file
 * copied from the spec (kv03_vectors_v2.h). Same runner as the v1 table
 * (status_reach.h): oracle held to the row, codec to the oracle, every read
 * level compared, seed byte-identical.
 *
 * Not here, because the surgeon edits files and these are not file
 * corruptions: record streams with a code set (tests/test_stream_v2.c:
 * SELECTOR_PREFIX, §12.6 UNKNOWN_SELECTOR at bits 61 and 54), the writer's
 * SELECTOR_PREFIX (tests/test_kv03_v2_write.c) and the §12.5 merges
 * (tests/test_kv03_v2_merge.c). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "kv03_diff.h"
#include "kv03_surgeon.h"
#include "kv03_vectors.h"
#include "kv03_vectors_v2.h"
#include "status_reach.h"

/* §12.5 body layout: data 192 (16 bytes), low 208, high 216, samples 224,
 * dictionary 240 (1 byte), offsets 248 (4 u64), seeds 280 (1 byte). */
#define DICT (96 + 240)
#define OFFS(j) (96 + 248 + 8 * (j))
#define SEEDS (96 + 280)

/* v2: the §12.5 file opens and scans clean (no check 29, 82 never returned) */
static void ok(rsv_surgeon *s) { (void)s; }
/* §12.5: data bit 56 (tail `10` → `00`) completes Cp = `0` → SORT_TRANSITION,
 * record 2, after the tail bit (57) */
static void sort_transition(rsv_surgeon *s) { rsv_sg_flip_data_bit(s, 56); rsv_sg_reseal(s); }
/* §12.5: data bit 62: record 3's R = 3 > |`11`|, Cp = `10` → PREFIX_CROSSES_CODE
 * after EG0(R) (66) */
static void prefix_crosses(rsv_surgeon *s) { rsv_sg_flip_data_bit(s, 62); rsv_sg_reseal(s); }
/* record 3's control `011` → `010`: R = 1 < |`11`| → RETAINED_PRECEDES_CODE
 * after EG0(R) (64) */
static void retained_precedes(rsv_surgeon *s) { rsv_sg_flip_data_bit(s, 63); rsv_sg_reseal(s); }
/* §12.5: seeds 20 → 30: seed_1 = 3 ≥ m → SEED_RANGE at record 3's start (61) */
static void seed_range(rsv_surgeon *s) { s->b[SEEDS] = 0x30; rsv_sg_reseal(s); }
/* §12.5: seeds 20 → 10: block 1 takes `10`, `11` is used by no record →
 * UNUSED_SELECTOR (scan step 3a; the cursor walk accepts the file) */
static void unused_selector(rsv_surgeon *s) { s->b[SEEDS] = 0x10; rsv_sg_reseal(s); }
/* §12.5: dictionary 58 → 68 (`0`, `11`, `01`) → DICTIONARY_ORDER (§6.3 step 4) */
static void dict_order(rsv_surgeon *s) { s->b[DICT] = 0x68; rsv_sg_reseal(s); }
/* §12.5: offsets [0, 1, 1, 5] → DICTIONARY_SHAPE (§6.3 step 2, an empty code) */
static void dict_shape(rsv_surgeon *s) { rsv_sg_set(s, OFFS(2), 8, 1); rsv_sg_reseal(s); }
/* §6.3 step 1: e_m = 4 ≠ dictionary bits 5 → SECTION_ENDPOINTS */
static void endpoints_end(rsv_surgeon *s) { rsv_sg_set(s, OFFS(3), 8, 4); rsv_sg_reseal(s); }
/* §6.3 step 1: e_0 = 1 → SECTION_ENDPOINTS (before step 2 sees e_1 = e_0) */
static void endpoints_start(rsv_surgeon *s) { rsv_sg_set(s, OFFS(0), 8, 1); rsv_sg_reseal(s); }
/* §9.2 step 6 for section 7: seeds byte 20 → 21, a padding bit (seed bits 4) */
static void seed_padding(rsv_surgeon *s) { s->b[SEEDS] = 0x21; rsv_sg_reseal(s); }

#define OPEN RSV_ORACLE_PHASE_OPEN
#define SCAN RSV_ORACLE_PHASE_SCAN
#define DICTIONARY RSV_ORACLE_PHASE_DICTIONARY /* scan step 2 runs §6.3: step = the §6.3 step */
#define ANY RSV_SR_ANY
#define E(x) RSV_ERR_##x

static const rsv_sr_row k_rows_v2[] = {
    /* no seed: the §12.5 file itself */
    {NULL, RSV_ORACLE_PHASE_NONE, 0, RSV_OK, ANY, ANY, 0, ok},
    {"status_v2_walk_sort_transition", SCAN, 3, E(SORT_TRANSITION), 2, 57, 0, sort_transition},
    {"status_v2_walk_prefix_crosses_code", SCAN, 3, E(PREFIX_CROSSES_CODE), 3, 66, 0, prefix_crosses},
    {"status_v2_walk_retained_precedes_code", SCAN, 3, E(RETAINED_PRECEDES_CODE), 3, 64, 0, retained_precedes},
    {"status_v2_walk_seed_range", SCAN, 3, E(SEED_RANGE), 3, 61, 0, seed_range},
    /* step 0 = not asserted: the oracle's number for step "3a" is its own */
    {"status_v2_scan3a_unused_selector", SCAN, 0, E(UNUSED_SELECTOR), ANY, ANY, 0, unused_selector},
    {"status_v2_scan2_dictionary_order", DICTIONARY, 4, E(DICTIONARY_ORDER), ANY, ANY, 0, dict_order},
    {"status_v2_scan2_dictionary_shape", DICTIONARY, 2, E(DICTIONARY_SHAPE), ANY, ANY, 0, dict_shape},
    {"status_v2_scan2_endpoints_end", DICTIONARY, 1, E(SECTION_ENDPOINTS), ANY, ANY, 0, endpoints_end},
    {"status_v2_scan2_endpoints_start", DICTIONARY, 1, E(SECTION_ENDPOINTS), ANY, ANY, 0, endpoints_start},
    {"status_v2_scan6_seed_padding", SCAN, 6, E(NONZERO_PADDING), ANY, ANY, 0, seed_padding},
};

Test(status_reach_v2, file_rows)
{
    size_t n = sizeof k_rows_v2 / sizeof k_rows_v2[0], failed = 0;
    cr_assert_gt(n, 0, "the table ran zero rows");
    for (size_t i = 0; i < n; i++) {
        char msg[1024];
        if (!rsv_sr_run(&k_rows_v2[i], FILE_12_5, FILE_12_5_SIZE, msg, sizeof msg)) {
            cr_log_error("row %zu (%s): %s", i, k_rows_v2[i].seed ? k_rows_v2[i].seed : "no seed", msg);
            failed++;
        }
    }
    cr_assert_eq(failed, 0, "%zu of %zu rows failed", failed, n);
}

/* §11.2 (v2): inputs with the single codes `0` and `1` (prefix-free
 * together) merge into a two-code file; codec and oracle outputs must be
 * byte-identical (rsv_kv03d_merge). v1 returned MERGE_MISMATCH. */
Test(status_reach_v2, merge_codes_0_and_1)
{
    rsv_kv03_policy p = rsv_kv03_policy_default();
    uint8_t *c1 = NULL;
    size_t n1 = 0;
    cr_assert_eq(rsv_kv03_encode(&p, (const uint8_t *)"\x80", 1, RECS, 4, &c1, &n1), RSV_OK);
    const uint8_t *files[2] = {FILE_12_3, c1};
    size_t sizes[2] = {360, n1};
    rsv_kv03d_report rep;
    rsv_kv03d_report_init(&rep);
    rsv_status st = RSV_ERR_STATE;
    cr_assert(rsv_kv03d_merge(files, sizes, 2, 0, NULL, 0, &st, &rep), "%s", rep.msg);
    cr_assert_eq(st, RSV_OK, "%s", rsv_status_name(st));
    free(c1);
}
