/* The Criterion frame of a KV03 corruption-sweep file (test_kv03_diff_corrupt,
 * test_kv03_v2_corrupt): RSV_KV03D_SWEEP_SUITE(suite, load, nfiles) loads the
 * file's set once per test into g_files (load fills nfiles files and asserts
 * that both sides accept them) and frees it after; sweep_set(fn, first, n,
 * &st) runs one sweep of kv03_sweep.h over g_files[first..first+n) and fails
 * the test on the first failing case or when the sweep ran no case;
 * sweep_all(fn) runs it over the whole set. The
 * Test() declarations stay in the files, spelled out: the status coverage
 * check (tests/status_coverage) finds tests by that text. */
#ifndef RSV_KV03_SWEEP_SUITE_H
#define RSV_KV03_SWEEP_SUITE_H

#include <criterion/criterion.h>

#include "kv03_sweep.h"

#define RSV_KV03D_SWEEP_SUITE(suite, load, nfiles)                                                          \
    static rsv_kv03d_named_file g_files[nfiles];                                                            \
    static void setup(void) { load(g_files); }                                                              \
    static void teardown(void) { rsv_kv03d_files_free(g_files, nfiles); }                                   \
    TestSuite(suite, .init = setup, .fini = teardown);                                                      \
    static void sweep_set(rsv_kv03d_sweep_fn fn, size_t first, size_t n, rsv_kv03d_sweep *st)               \
    {                                                                                                       \
        rsv_kv03d_report rep;                                                                               \
        cr_assert(rsv_kv03d_sweep_files(fn, g_files + first, n, st, &rep), "%s", rep.msg);                  \
    }                                                                                                       \
    static void sweep_all(rsv_kv03d_sweep_fn fn)                                                            \
    {                                                                                                       \
        rsv_kv03d_sweep st = {0};                                                                           \
        sweep_set(fn, 0, nfiles, &st);                                                                      \
    }

#endif
