/* Codec vs oracle on valid codes: the CODES.md §7.1 vectors verbatim, then
 * exp-Golomb orders 0/1/3/63 and Golomb moduli 1/3/7/2^64-1 (and more) over
 * boundary values, encoded by both encoders, at 8 placements, with every
 * proper prefix and the longest codes after skips of 0-70 bits (§3, §4, §8). */
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

Test(diff_codes, spec_vectors_7_1) { run(rsv_diff_suite_vectors, 40 * 8 * 5); }

Test(diff_codes, boundary_values_prefixes_and_longest) { run(rsv_diff_suite_codes, 1000000); }
