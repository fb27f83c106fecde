/* Codec vs oracle, bounded-exhaustive: every bit string of length
 * 0..RSV_EXHAUSTIVE_MAX_LEN (default 16) at view offsets 0-7, every small
 * operation, each followed by a second one (CODES.md §5.3). This file: fixed
 * fields, take and skip; test_diff_exhaustive_codes.c has the count codes. */
#include "diff_exhaustive_run.h"

Test(diff_exhaustive, fixed) { run(RSV_DIFF_EX_FIXED); }
Test(diff_exhaustive, take_skip) { run(RSV_DIFF_EX_SPAN); }
