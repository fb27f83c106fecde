/* Codec vs oracle, bounded-exhaustive (tests/support/diff_exhaustive.c,
 * docs/testing.md): every bit string of length 0..14 (ctest; 0..16 in
 * rsv_diffcheck) at every start alignment 0..7, inside context and at the
 * view's end, reached by seek, skip or a read, each operation run twice and
 * followed by read_eg(0). This file: read_golomb(m) and read_golomb_m(m) for the 24 moduli of diff_exhaustive.c. */
#include "diff_exhaustive_run.h"

Test(diff_exhaustive, golomb) { run(RSV_DIFF_EX_GOLOMB, "golomb"); }
