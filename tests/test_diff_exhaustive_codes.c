/* Codec vs oracle, bounded-exhaustive: every bit string of length
 * 0..RSV_EXHAUSTIVE_MAX_LEN (default 16) at view offsets 0-7, every small
 * operation, each followed by a second one (CODES.md §5.3). This file: the
 * count codes; test_diff_exhaustive_fields.c has fixed fields, take and skip
 * (split so that each executable stays well under a minute under ASan). */
#include "diff_exhaustive_run.h"

Test(diff_exhaustive, exp_golomb) { run(RSV_DIFF_EX_EG); }
Test(diff_exhaustive, golomb) { run(RSV_DIFF_EX_GOLOMB); }
