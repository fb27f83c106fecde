/* Codec vs oracle: random sequences of mixed operations (CODES.md §5.3, §8).
 * RSV_TEST_SEED / RSV_TEST_TRIALS override the fixed seed and the 3000 trials;
 * a failure message names the seed and the trial. */
#include <criterion/criterion.h>

#include "diff.h"

static rsv_diff d;
static char summary[RSV_DIFF_MSG_LEN + 256];

Test(diff_random, mixed_operations)
{
    rsv_diff_opts o;
    rsv_diff_opts_from_env(&o);
    rsv_diff_init(&d);
    rsv_diff_suite_random(&d, &o);
    cr_assert(d.ops >= o.trials * 30, "only %llu operations compared", (unsigned long long)d.ops);
    cr_assert(d.mismatches == 0, "seed %llu (0x%llx), %llu trials: %s", (unsigned long long)o.seed,
              (unsigned long long)o.seed, (unsigned long long)o.trials,
              rsv_diff_summary(&d, summary, sizeof summary));
}
