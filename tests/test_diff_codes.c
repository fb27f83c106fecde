/* Codec vs oracle on valid codes: the CODES.md §7.1 vectors verbatim, then
 * exp-Golomb orders 0/1/3/63 and Golomb moduli 1/3/7/2^64-1 (and more) over
 * boundary values, encoded by both encoders, at 8 placements, with every
 * proper prefix and the longest codes after skips of 0-70 bits (§3, §4, §8). */
#include "diff_suite_run.h"

Test(diff_codes, spec_vectors_7_1) { run(rsv_diff_suite_vectors, 40 * 8 * 5, 0); }

Test(diff_codes, boundary_values_prefixes_and_longest) { run(rsv_diff_suite_codes, 1000000, 0); }
