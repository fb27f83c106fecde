/* N-way merges, N = 3..9 (the tree of losers in merge.c), differential:
 * random multi-code inputs (codes `0`, `10`, `11`; keys of 0..2 bytes over
 * {a, b} plus two 9-byte keys, so most keys are held by several inputs; in
 * odd rounds every input holds input 0's keys, so bad inputs often fail
 * right after the same key), encoded by the oracle, a quarter of them with a
 * resealed single-bit flip.
 *  1. against the oracle (kv03_diff.h rsv_kv03d_merge): byte-identical
 *     output, or the same failure under its lazy-order rule (exactly one bad
 *     input: same input, status, record and bit);
 *  2. against the head scan the codec uses for two inputs, run on the same
 *     N inputs by taking the tree away after init (merge_state.h): status,
 *     failed input, diag bit and record, emitted count and output bytes must
 *     be identical, with any number of bad inputs. The scan advances the
 *     inputs holding a key in input order; this pins the tree to that order. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "reservoir/merge.h"
#include "../codec/src/merge_state.h" /* the merge's private state (its tree) */

#include "kv03_build.h"
#include "kv03_diff.h"
#include "kv03_v2_util.h"
#include "splitmix64.h"

#define MAXIN 9
#define UNIVERSE 27

static const uint8_t C0[1] = {0x00}, C10[1] = {0x80}, C11[1] = {0xC0};
static const char *const k_keys[9] = {"", "a", "aa", "aaaaaaaaa", "aaaaaaaab", "ab", "b", "ba", "bb"};

/* The (code, key) universe in logical-key order: codes `0` < `10` < `11`
 * (prefix-free, so the code decides first), keys in byte order. */
static void universe(rsv_record *u)
{
    const uint8_t *codes[3] = {C0, C10, C11};
    const uint64_t bits[3] = {1, 2, 2};
    for (size_t c = 0; c < 3; c++)
        for (size_t k = 0; k < 9; k++) {
            rsv_record *r = &u[9 * c + k];
            r->key = (const uint8_t *)k_keys[k];
            r->key_len = strlen(k_keys[k]);
            r->code = codes[c];
            r->code_bits = bits[c];
        }
}

/* Merge with the tree (scan = 0) or the head scan; the merge is kept in *m. */
static rsv_status run(const rsv_kv03_file *const *pf, size_t n, unsigned flags, int scan, rsv_merge *m,
                      uint8_t **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    rsv_status st = rsv_merge_init(m, pf, n, flags);
    if (!st) {
        rsv__merge *s = rsv__merge_of(m);
        cr_assert_not_null(s->tree, "n = %zu >= 3 merges through the tree", n);
        if (scan) s->tree = NULL; /* its slots stay in the heads' block, freed with it */
        st = rsv_merge_run(m);
    }
    if (!st) st = rsv_merge_finish(m, out, len);
    return st;
}

Test(kv03_nway_merge, tree_equals_oracle_and_scan)
{
    static const rsv_kv03_policy pol[] = {
        {RSV_BACKSPACE_EG, 0, 3, 3}, {RSV_BACKSPACE_EG, 1, 1, 7}, {RSV_BACKSPACE_GOLOMB, 2, 2, 15}};
    rsv_record u[UNIVERSE];
    universe(u);
    rsv_rng g = {0x6e77617925ull};
    static const uint8_t vbytes[3] = {'x', 'y', 'z'};
    size_t cases = 0, ok = 0, failed = 0, multi_bad_failed = 0, tree_runs = 0, tree_multi_bad = 0;
    for (size_t round = 0; round < 1400; round++) {
        size_t n = 3 + round % 7;
        const rsv_kv03_policy *p = &pol[rsv_rng_below(&g, 3)];
        uint8_t *files[MAXIN];
        size_t sizes[MAXIN], nbad = 0;
        uint64_t sel0 = 0; /* input 0's keys: odd rounds give every input these (ties everywhere) */
        for (size_t i = 0; i < n; i++) {
            rsv_record r[UNIVERSE];
            size_t k = 0;
            unsigned codes = 1 + (unsigned)rsv_rng_below(&g, 7); /* which of the 3 codes this input uses */
            for (size_t j = 0; j < UNIVERSE; j++) {
                if (i > 0 && round % 2 ? !(sel0 >> j & 1) : !(codes >> (j / 9) & 1) || rsv_rng_below(&g, 3) == 0)
                    continue;
                if (i == 0) sel0 |= 1ull << j;
                r[k] = u[j];
                size_t vl = rsv_rng_below(&g, 4);
                r[k].value.kind = vl == 3 ? RSV_VALUE_TOMBSTONE : RSV_VALUE_PRESENT;
                r[k].value.data = vl == 3 || vl == 0 ? NULL : vbytes + rsv_rng_below(&g, 2);
                r[k].value.len = vl == 3 ? 0 : vl;
                k++;
            }
            cr_assert_eq(v2_oracle_encode(r, k, p, &files[i], &sizes[i]), RSV_OK);
            if (rsv_rng_below(&g, 4) == 0 && sizes[i] > 96) { /* a resealed flip after the header's first 96 bytes */
                uint64_t bit = 8 * 96 + rsv_rng_below(&g, 8 * (sizes[i] - 96));
                files[i][bit / 8] ^= (uint8_t)(0x80u >> (bit % 8));
                rsv_kv03d_reseal(files[i], sizes[i]);
                nbad++;
            }
        }
        for (int drop = 0; drop < 2; drop++) {
            rsv_kv03d_report rep;
            rsv_kv03d_report_init(&rep);
            rsv_status st;
            cr_assert(rsv_kv03d_merge((const uint8_t *const *)files, sizes, n, drop, NULL, 0, &st, &rep),
                      "round %zu, n %zu, drop %d, %zu bad: %s", round, n, drop, nbad, rep.msg);
            cases++;
            ok += st == RSV_OK;
            failed += st != RSV_OK;
            multi_bad_failed += st != RSV_OK && nbad >= 2;
            /* tree against scan, when every input opens */
            rsv_kv03_file f[MAXIN];
            const rsv_kv03_file *pf[MAXIN];
            int opened = 1;
            for (size_t i = 0; i < n && opened; i++) {
                opened = rsv_kv03_open(files[i], sizes[i], NULL, &f[i]) == RSV_OK;
                pf[i] = &f[i];
            }
            if (!opened) continue;
            rsv_merge mt, ms;
            uint8_t *ot, *os;
            size_t lt, ls;
            unsigned fl = drop ? RSV_MERGE_DROP_TOMBSTONES : 0;
            rsv_status stt = run(pf, n, fl, 0, &mt, &ot, &lt), sts = run(pf, n, fl, 1, &ms, &os, &ls);
            tree_runs++;
            tree_multi_bad += stt != RSV_OK && nbad >= 2;
            cr_assert_eq(stt, sts, "round %zu: tree %s, scan %s", round, rsv_status_name(stt), rsv_status_name(sts));
            cr_assert_eq(rsv_merge_failed_input(&mt), rsv_merge_failed_input(&ms), "round %zu: failed input", round);
            rsv_kv03_diag dt = rsv_merge_diag(&mt), ds = rsv_merge_diag(&ms);
            cr_assert_eq(dt.status, ds.status, "round %zu", round);
            cr_assert_eq(dt.bit, ds.bit, "round %zu: bit %llu vs %llu", round, (unsigned long long)dt.bit,
                         (unsigned long long)ds.bit);
            cr_assert_eq(dt.record, ds.record, "round %zu: record", round);
            cr_assert_eq(rsv_merge_emitted(&mt), rsv_merge_emitted(&ms), "round %zu: emitted", round);
            cr_assert_eq(lt, ls, "round %zu: output length", round);
            cr_assert(lt == 0 || memcmp(ot, os, lt) == 0, "round %zu: output bytes", round);
            free(ot);
            free(os);
            rsv_merge_free(&mt);
            rsv_merge_free(&ms);
        }
        for (size_t i = 0; i < n; i++) free(files[i]);
    }
    /* the mix really has successes, failures and failures with several bad inputs */
    cr_assert_gt(ok, cases / 4, "%zu of %zu merges succeeded", ok, cases);
    cr_assert_gt(failed, 50, "%zu of %zu merges failed", failed, cases);
    cr_assert_gt(multi_bad_failed, 20, "%zu failures with several bad inputs", multi_bad_failed);
    cr_assert_gt(tree_runs, cases / 4, "%zu tree/scan comparisons of %zu", tree_runs, cases);
    cr_assert_gt(tree_multi_bad, 20, "%zu tree/scan failures with several bad inputs", tree_multi_bad);
}

/* Two inputs that fail right after the same key, through the tree. The
 * inputs holding the chosen key advance in input order (the scan's order,
 * merge.c), so the lower of the two is the failed input. Input i holds
 * "b" then a bad record, input j > i holds "a", "b" then a bad record, the
 * third input "z". The tree first emits j's "a"; j's next head, "b", comes
 * up its path and meets i's "b" at their common node (i's head beat "z" and
 * lost only to "a"): an equal-key match in which the head coming up has the
 * larger index. The bad record is a "c" (after "b") whose one suffix bit,
 * by hand from §3 (C0 = `0`, EG backspace order 0, tombstones), is flipped
 * to 0: the key "b" again, RSV_ERR_UNSORTED. Input i's "c" starts at data
 * bit 19 (record "b": `010` R = 1, `0001001` S = 8, 8 key bits, `0`), input
 * j's at 28 ("a" 19 bits, then "b": `011` back 2, `011` S = 2, `10`, `0`);
 * "c" is `010` (back 1) `010` (S = 1) then its suffix bit: +6. Each flipped
 * file is first checked to scan as UNSORTED at that record. The failure is
 * input i's at its record 1, with "a" and "b" emitted, as the scan has it. */
Test(kv03_nway_merge, equal_keys_coming_up_the_tree_advance_in_input_order)
{
    static const size_t pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    const rsv_kv03_policy p = rsv_kv03_policy_default();
    const rsv_value t = rsv_value_tombstone();
    const rsv_record ri[2] = {{(const uint8_t *)"b", 1, t, NULL, 0}, {(const uint8_t *)"c", 1, t, NULL, 0}};
    const rsv_record rj[3] = {
        {(const uint8_t *)"a", 1, t, NULL, 0}, {(const uint8_t *)"b", 1, t, NULL, 0}, {(const uint8_t *)"c", 1, t, NULL, 0}};
    const rsv_record rz[1] = {{(const uint8_t *)"z", 1, t, NULL, 0}};
    for (size_t c = 0; c < 3; c++) {
        size_t i = pairs[c][0], j = pairs[c][1];
        uint8_t *files[3];
        size_t sizes[3];
        rsv_kv03_file f[3];
        const rsv_kv03_file *pf[3];
        for (size_t k = 0; k < 3; k++) {
            const rsv_record *r = k == i ? ri : k == j ? rj : rz;
            size_t nr = k == i ? 2 : k == j ? 3 : 1;
            cr_assert_eq(v2_oracle_encode(r, nr, &p, &files[k], &sizes[k]), RSV_OK);
            if (k == i || k == j) rsv_kv03b_flip_data_bit(files[k], sizes[k], (k == i ? 19 : 28) + 6);
            cr_assert_eq(rsv_kv03_open(files[k], sizes[k], NULL, &f[k]), RSV_OK);
            if (k == i || k == j) {
                rsv_kv03_diag d;
                cr_assert_eq(rsv_kv03_scan(&f[k], &d), RSV_ERR_UNSORTED, "input %zu: the flip is not the bad \"c\"", k);
                cr_assert_eq(d.record, nr - 1, "input %zu: UNSORTED at record %llu", k, (unsigned long long)d.record);
            }
            pf[k] = &f[k];
        }
        for (int scan = 0; scan < 2; scan++) {
            rsv_merge m;
            uint8_t *out;
            size_t len;
            rsv_status st = run(pf, 3, 0, scan, &m, &out, &len);
            cr_assert_eq(st, RSV_ERR_UNSORTED, "inputs %zu, %zu, %s: %s", i, j, scan ? "scan" : "tree",
                         rsv_status_name(st));
            cr_assert_eq(rsv_merge_failed_input(&m), i, "inputs %zu, %zu, %s: input %zu failed", i, j,
                         scan ? "scan" : "tree", rsv_merge_failed_input(&m));
            cr_assert_eq(rsv_merge_diag(&m).record, 1, "inputs %zu, %zu, %s: record %llu", i, j,
                         scan ? "scan" : "tree", (unsigned long long)rsv_merge_diag(&m).record);
            cr_assert_eq(rsv_merge_emitted(&m), 2);
            free(out);
            rsv_merge_free(&m);
        }
        for (size_t k = 0; k < 3; k++) free(files[k]);
    }
}
