/* Codec vs oracle: fixed fields at offsets 0-79 x widths 0-65 x view lengths
 * {0, w-1, w, w+1, 128}, and take/skip after warming the cache with 0-64 bits
 * (CODES.md §2, §5.3, §8). The engine is tests/support/diff*.c. */
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

Test(diff_fixed, offsets_widths_lengths) { run(rsv_diff_suite_fixed, 26000 * 10); }

Test(diff_fixed, take_skip_after_warm_cache) { run(rsv_diff_suite_span, 65 * 11 * 4 * 10); }
