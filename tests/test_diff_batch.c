/* Codec vs oracle: the batch decoders over long streams (encoded codes of
 * every length, raw and malformed bits), every view offset, batch sizes 1, 7
 * and 64, failures mid-stream (tests/support/diff_batch.c). */
#include <criterion/criterion.h>

#include "diff.h"

static rsv_diff d;
static char summary[RSV_DIFF_MSG_LEN + 256];

Test(diff_batch, long_streams)
{
    rsv_diff_opts o;
    rsv_diff_opts_from_env(&o);
    rsv_diff_init(&d);
    rsv_diff_suite_batch(&d, &o);
    cr_assert(d.ops >= 100000, "only %llu operations compared", (unsigned long long)d.ops);
    cr_assert(d.mismatches == 0, "%s", rsv_diff_summary(&d, summary, sizeof summary));
}
