/* Codec vs oracle on malformed input and invalid parameters: every CODES.md
 * §7.2 row and zero runs of 0-140 bits at 8 placements, read on after the
 * failure (§5.3, §6.3); w > 64, k > 63, m = 0 through every entry point. */
#include <criterion/criterion.h>

#include "diff.h"

static rsv_diff d;
static char summary[RSV_DIFF_MSG_LEN + 256];

static void run(void (*suite)(rsv_diff *, const rsv_diff_opts *), uint64_t min_ops)
{
    rsv_diff_opts o;
    rsv_diff_opts_from_env(&o);
    rsv_diff_init(&d);
    suite(&d, &o);
    cr_assert(d.ops >= min_ops, "only %llu operations compared", (unsigned long long)d.ops);
    cr_assert(d.mismatches == 0, "%s", rsv_diff_summary(&d, summary, sizeof summary));
}

Test(diff_malformed, spec_rows_7_2_and_zero_runs) { run(rsv_diff_suite_malformed, 100000); }

Test(diff_malformed, invalid_parameters) { run(rsv_diff_suite_invalid, 10000); }
