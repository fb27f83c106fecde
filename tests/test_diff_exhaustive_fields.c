/* Codec vs oracle, bounded-exhaustive: every bit string of length
 * 0..RSV_EXHAUSTIVE_MAX_LEN (default 16) at view offsets 0-7, every small
 * operation, each followed by a second one (CODES.md §5.3). This file: fixed
 * fields, take and skip; test_diff_exhaustive_codes.c has the count codes. */
#include <criterion/criterion.h>

#include "diff.h"

static rsv_diff d;
static char summary[RSV_DIFF_MSG_LEN + 256];

static void run(unsigned families)
{
    rsv_diff_opts o;
    rsv_diff_opts_from_env(&o);
    rsv_diff_init(&d);
    rsv_diff_suite_exhaustive(&d, &o, families);
    /* 8 offsets x (2^(max_len+1) - 1) views, at least 3 operations each */
    uint64_t views = 8 * ((UINT64_C(2) << o.max_len) - 1);
    cr_assert(d.ops >= views * 3, "only %llu operations compared", (unsigned long long)d.ops);
    cr_assert(d.mismatches == 0, "max-len %u: %s", o.max_len,
              rsv_diff_summary(&d, summary, sizeof summary));
}

Test(diff_exhaustive, fixed) { run(RSV_DIFF_EX_FIXED); }
Test(diff_exhaustive, take_skip) { run(RSV_DIFF_EX_SPAN); }
