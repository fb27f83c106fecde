/* Codec vs oracle: the batch decoders over long streams (encoded codes of
 * every length, raw and malformed bits), every view offset, batch sizes 1, 7
 * and 64, failures mid-stream (tests/support/diff_batch.c). */
#include "diff_suite_run.h"

Test(diff_batch, long_streams) { run(rsv_diff_suite_batch, 100000, 0); }
