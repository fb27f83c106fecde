/* Shared body of the bounded-exhaustive Criterion files, one per operation
 * family (test_diff_exhaustive_<family>.c) so that ctest runs them in
 * parallel. Definition and counts: tests/support/diff_exhaustive.c and
 * docs/testing.md.
 *
 * ctest's lengths: 0..RSV_DIFF_CTEST_MAX_LEN (14) unless
 * RSV_EXHAUSTIVE_MAX_LEN says otherwise; the full 0..16 product runs in
 * rsv_diffcheck (its default; MSan in Makefile.sanitize, the nightly). The
 * test prints the enumerated length range and the case count, and fails
 * unless exactly the expected number of cases ran without a mismatch. */
#ifndef RSV_DIFF_EXHAUSTIVE_RUN_H
#define RSV_DIFF_EXHAUSTIVE_RUN_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "diff.h"

#define RSV_DIFF_CTEST_MAX_LEN 14

static rsv_diff d;
static char summary[RSV_DIFF_MSG_LEN + 256];

static void run(unsigned families, const char *name)
{
    rsv_diff_opts o;
    rsv_diff_opts_from_env(&o);
    if (getenv("RSV_EXHAUSTIVE_MAX_LEN") == NULL) o.max_len = RSV_DIFF_CTEST_MAX_LEN;
    rsv_diff_init(&d);
    rsv_diff_suite_exhaustive(&d, &o, families);
    uint64_t want = rsv_diff_exhaustive_cases(o.max_len, families);
    printf("exhaustive/%s: bit strings of length 0..%u: %llu placements, %llu cases, %llu "
           "operations compared, %llu mismatches\n",
           name, o.max_len, (unsigned long long)rsv_diff_exhaustive_places(o.max_len),
           (unsigned long long)d.cases, (unsigned long long)d.ops,
           (unsigned long long)d.mismatches);
    fflush(stdout);
    cr_assert(want > 0 && d.cases == want, "%llu cases ran, %llu expected",
              (unsigned long long)d.cases, (unsigned long long)want);
    cr_assert(d.mismatches == 0, "max-len %u: %s", o.max_len,
              rsv_diff_summary(&d, summary, sizeof summary));
}

#endif
