/* Codec vs oracle on malformed input and invalid parameters: every CODES.md
 * §7.2 row and zero runs of 0-140 bits at 8 placements, read on after the
 * failure (§5.3, §6.3); w > 64, k > 63, m = 0 through every entry point. */
#include "diff_suite_run.h"

Test(diff_malformed, spec_rows_7_2_and_zero_runs) { run(rsv_diff_suite_malformed, 100000, 0); }

Test(diff_malformed, invalid_parameters) { run(rsv_diff_suite_invalid, 10000, 0); }
