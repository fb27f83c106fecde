/* The body every Criterion file of the reader comparison shares
 * (test_diff_codes, _fixed, _malformed, _batch, _random): run one suite of
 * tests/support/diff*.c with the options of the environment, and fail unless
 * it compared at least min_ops + per_trial * trials operations with no
 * mismatch (the seed and trials in the message for a rerun). */
#ifndef RSV_DIFF_SUITE_RUN_H
#define RSV_DIFF_SUITE_RUN_H

#include <criterion/criterion.h>

#include "diff.h"

static rsv_diff d; /* static: large, and one suite runs at a time */
static char summary[RSV_DIFF_MSG_LEN + 256];

static inline void run(void (*suite)(rsv_diff *, const rsv_diff_opts *), uint64_t min_ops, uint64_t per_trial)
{
    rsv_diff_opts o;
    rsv_diff_opts_from_env(&o);
    rsv_diff_init(&d);
    suite(&d, &o);
    uint64_t want = min_ops + per_trial * o.trials;
    cr_assert(d.ops >= want, "only %llu operations compared, want %llu", (unsigned long long)d.ops,
              (unsigned long long)want);
    cr_assert(d.mismatches == 0, "seed %llu (0x%llx), %llu trials: %s", (unsigned long long)o.seed,
              (unsigned long long)o.seed, (unsigned long long)o.trials,
              rsv_diff_summary(&d, summary, sizeof summary));
}

#endif
