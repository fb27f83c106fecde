/* A differential pair for the guard-page tests: the fast reader (codec/) and
 * the oracle (oracle/) walking the same view side by side.
 *
 * Every gp_* operation runs the oracle at the pair's oracle position, then the
 * fast reader, and checks that they agree on status, value, new position,
 * remaining and empty (CODES.md §5.3) — for take also that the sub-views are
 * identical. Each comparison counts as one check; a mismatch prints the
 * current case (rsv_guard_case()) and the operation. Both readers run on the
 * guarded memory, so an out-of-range load by either faults and the fault
 * handler names the case. */
#ifndef RSV_GP_PAIR_H
#define RSV_GP_PAIR_H

#include <stddef.h>
#include <stdint.h>

#include "reservoir/oracle.h"
#include "reservoir/reader.h"

typedef struct gp_pair {
    rsv_view v;   /* the view both readers walk */
    rsv_reader r; /* fast reader */
    uint64_t p;   /* oracle position */
} gp_pair;

void gp_pair_init(gp_pair *x, rsv_view v);

/* Each returns the oracle's status (the expected one). */
rsv_status gp_read(gp_pair *x, uint64_t w);          /* rsv_read; w > 64 allowed */
rsv_status gp_read_bit(gp_pair *x);                  /* rsv_read_bit vs oracle read(1) */
rsv_status gp_read_eg(gp_pair *x, uint64_t k);       /* rsv_read_eg; k > 63 allowed */
rsv_status gp_read_eg0(gp_pair *x);                  /* rsv_read_eg0 vs oracle k = 0 */
rsv_status gp_read_golomb(gp_pair *x, uint64_t m);   /* rsv_golomb_init + rsv_read_golomb */
rsv_status gp_read_golomb_m(gp_pair *x, uint64_t m); /* rsv_read_golomb_m */
rsv_status gp_skip(gp_pair *x, uint64_t n);
rsv_status gp_take(gp_pair *x, uint64_t n, rsv_view *sub); /* *sub set on success */
/* Batch decoders with `count` values (count <= GP_BATCH_MAX). */
#define GP_BATCH_MAX 1200
rsv_status gp_read_n(gp_pair *x, uint64_t w, size_t count);
rsv_status gp_read_eg_n(gp_pair *x, uint64_t k, size_t count);
rsv_status gp_read_golomb_n(gp_pair *x, uint64_t m, size_t count);

/* At the current position: read(0), take(0), skip(0) (always succeed), then a
 * failing or succeeding one-of-each of read(1), read_bit, take(1), skip(1),
 * EG0, EG63, Golomb 1 and 2^64-1 — compared with the oracle, each from a fresh
 * copy of the pair so the position is unchanged afterwards. At p = len this
 * is the "nothing at all is loaded at the end" check of A4. */
void gp_edge_ops(gp_pair *x);

/* Decode with `op` (0 = EG k, 1 = Golomb m) until the view is exhausted,
 * reading again after every failure; then once more at the end. Stops with a
 * failed check if a decode makes no progress. */
void gp_drain_code(gp_pair *x, int golomb, uint64_t param);

/* Counters and reporting. gp_check counts one check and prints the message
 * (prefixed with the current case) when it fails; gp_pass counts a check
 * known to have passed, for hot paths that skip building the message. */
void gp_pass(void);
void gp_check(int ok, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
uint64_t gp_failures(void);
/* Prints "N passed, N failed" and returns the process exit status. */
int gp_report(void);

#endif
