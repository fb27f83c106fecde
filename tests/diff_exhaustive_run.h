/* Shared body of the two bounded-exhaustive Criterion files (split so each
 * executable stays well under a minute under ASan): run one family of
 * operations over every small view and assert that nothing differed. */
#ifndef RSV_DIFF_EXHAUSTIVE_RUN_H
#define RSV_DIFF_EXHAUSTIVE_RUN_H

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

#endif
