/* Codec vs oracle: fixed fields at offsets 0-79 x widths 0-65 x view lengths
 * {0, w-1, w, w+1, 128}, and take/skip after warming the cache with 0-64 bits
 * (CODES.md §2, §5.3, §8). The engine is tests/support/diff*.c. */
#include "diff_suite_run.h"

Test(diff_fixed, offsets_widths_lengths) { run(rsv_diff_suite_fixed, 26000 * 10, 0); }

Test(diff_fixed, take_skip_after_warm_cache) { run(rsv_diff_suite_span, 65 * 11 * 4 * 10, 0); }
