/* Codec vs oracle: random sequences of mixed operations (CODES.md §5.3, §8).
 * RSV_TEST_SEED / RSV_TEST_TRIALS override the fixed seed and the 3000 trials;
 * a failure message names the seed and the trial. */
#include "diff_suite_run.h"

Test(diff_random, mixed_operations) { run(rsv_diff_suite_random, 0, 30); }
