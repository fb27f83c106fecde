/* The guard-page tests' use of the reader comparison engine
 * (tests/support/diff.h): the fast reader (codec/) and the oracle (oracle/)
 * walking the same guarded view side by side, through the same lockstep
 * operations every differential suite uses (rsv_diff_read, rsv_diff_take_sub,
 * rsv_diff_edge_ops, rsv_diff_drain_code, ...). Both readers run on the
 * guarded memory, so an out-of-range load by either faults and the fault
 * handler names the case.
 *
 * A gp_pair is an engine case on this process's accumulator; every
 * comparison counts as one check and every mismatch is printed at once,
 * prefixed with the current guard case (rsv_guard_case()). gp_check and
 * gp_pass count the harness's own checks (writers, fault reports) on the
 * same tally. */
#ifndef RSV_GP_PAIR_H
#define RSV_GP_PAIR_H

#include <stddef.h>
#include <stdint.h>

#include "diff.h"

typedef rsv_diff_run gp_pair; /* v: the view, r: fast reader, p: oracle position */

/* Start a case on view v at position 0. */
void gp_pair_init(gp_pair *x, rsv_view v);

/* Counters and reporting. gp_check counts one check and prints the message
 * (prefixed with the current case) when it fails; gp_pass counts a check
 * known to have passed, for hot paths that skip building the message. */
void gp_pass(void);
void gp_check(int ok, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Failed checks and engine mismatches so far. */
uint64_t gp_failures(void);
/* Prints "N passed, N failed" (own checks plus engine comparisons) and
 * returns the process exit status: 1 on any failure or when nothing at all
 * was checked. */
int gp_report(void);

#endif
