/* The reader comparison engine: the fast reader (codec) against the oracle,
 * in lockstep (CODES.md §5.3, §8). The one place that compares them: the
 * differential suites (tests/support/diff_*.c, run by the Criterion tests
 * tests/test_diff_*.c and by the plain driver rsv_diffcheck for MSan and
 * valgrind), the guard-page tests (guardpage/gp_pair.h) and the reader_diff
 * fuzz target use it. docs/testing.md describes it.
 *
 * A "case" (rsv_diff_run) is one view with one rsv_reader and one oracle
 * position p. Every operation is applied to both, then compared: success or
 * failure, status, value, position, remaining, empty, the reader's view, its
 * cache state against reader.h's invariant (the view bits [pos, pos + n),
 * zero below them: bits taken from the view bytes) (and
 * for take the returned view: identical, untouched on failure; for batches
 * the done count and every decoded value; for Golomb rsv_golomb_init's
 * status). A mismatch is counted and, for the first few (or all, to a hook),
 * described in full (suite, case, operation history, view off/len, bytes in
 * hex, bits, start position, both results); the codec is then
 * re-synchronised to the oracle's position so one bug does not derail the
 * rest of the case. */
#ifndef RSV_DIFF_H
#define RSV_DIFF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "reservoir/golomb.h"
#include "reservoir/oracle.h"
#include "reservoir/reader.h"
#include "reservoir/view.h"
#include "testutil.h"

#define RSV_DIFF_MAX_MSGS 4
#define RSV_DIFF_MSG_LEN 2048
#define RSV_DIFF_HISTORY 8
/* Batch operations decode at most this many values (larger counts are
 * clamped): enough for the guard-page walks' long streams. */
#define RSV_DIFF_BATCH_LIMIT 1200

struct rsv_diff_run;

/* Optional harness hooks (guard-page tests, the reader_diff fuzz target).
 * before: called before each operation runs on either side (the fuzz target
 *   poisons every byte the operation must not load); after: called once both
 *   sides ran, before anything is compared or formatted (it unpoisons);
 * mismatch: called with every mismatch's full message (the guard-page tests
 *   print it with the current guard case, the fuzz target aborts). */
typedef struct rsv_diff_hooks {
    void *ctx;
    void (*before)(void *ctx, const struct rsv_diff_run *t);
    void (*after)(void *ctx, const struct rsv_diff_run *t);
    void (*mismatch)(void *ctx, const char *msg);
} rsv_diff_hooks;

/* Accumulated result of one or more suites. */
typedef struct rsv_diff {
    uint64_t cases;      /* cases (views) started */
    uint64_t ops;        /* operations compared */
    uint64_t mismatches; /* operations that disagreed (or broke a spec expectation) */
    unsigned nmsgs;      /* messages kept, at most RSV_DIFF_MAX_MSGS */
    char msgs[RSV_DIFF_MAX_MSGS][RSV_DIFF_MSG_LEN];
    const rsv_diff_hooks *hooks; /* NULL: none (rsv_diff_init) */
    FILE *trace;                 /* non-NULL: one line per compared operation */
    int opaque;                  /* views may be unreadable (PROT_NONE): messages omit bytes */
} rsv_diff;

/* Operation kinds (also used for the history shown in messages). */
typedef enum rsv_diff_op {
    RSV_DOP_READ,
    RSV_DOP_READ_BIT,
    RSV_DOP_READ_EG,
    RSV_DOP_READ_EG0,
    RSV_DOP_GOLOMB,   /* rsv_golomb_init + rsv_read_golomb */
    RSV_DOP_GOLOMB_M, /* rsv_read_golomb_m */
    RSV_DOP_TAKE,
    RSV_DOP_SKIP,
    RSV_DOP_SEEK,
    RSV_DOP_READ_N,
    RSV_DOP_EG_N,
    RSV_DOP_GOLOMB_N
} rsv_diff_op;

/* One scripted operation: op(param), count values for the batch decoders. */
typedef struct rsv_diff_step {
    rsv_diff_op op;
    uint64_t param; /* w, k, m, span length or seek target (unused: read_bit, eg0) */
    uint64_t count; /* batch decoders only */
} rsv_diff_step;

typedef struct rsv_diff_hist {
    rsv_diff_op op;
    uint64_t param;
    uint64_t count;
    uint64_t start;
} rsv_diff_hist;

/* One lockstep case. The description is kept as a printf format with four
 * unsigned long long arguments and formatted only on a mismatch, so starting
 * a case costs a few stores (the exhaustive suite starts millions). */
typedef struct rsv_diff_run {
    rsv_diff *d;
    rsv_view v;
    rsv_reader r;
    uint64_t p; /* oracle position */
    const char *suite;
    const char *fmt; /* case description: printf format taking 4 x unsigned long long */
    uint64_t a[4];
    uint64_t step; /* operations done in this case */
    rsv_diff_hist hist[RSV_DIFF_HISTORY];
    /* the oracle's result of the last operation, for spec expectations */
    rsv_status last_status;
    uint64_t last_value;
    uint64_t last_done; /* batch operations: values the oracle decoded */
} rsv_diff_run;

void rsv_diff_init(rsv_diff *d);
/* The first mismatch message, or "" when there was none. */
const char *rsv_diff_first(const rsv_diff *d);
/* Add b's counts and messages (as far as room allows) to a. */
void rsv_diff_merge(rsv_diff *a, const rsv_diff *b);
/* One-paragraph summary for an assertion message: counts, then the first
 * mismatch in full (or "no mismatches"). Returns buf. */
const char *rsv_diff_summary(const rsv_diff *d, char *buf, size_t cap);
/* Print the kept messages to f. */
void rsv_diff_print_msgs(const rsv_diff *d, FILE *f);
/* Record a mismatch with a free-form message (used by the suites for
 * encoder comparisons; the lockstep operations report their own). */
void rsv_diff_fail(rsv_diff *d, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Start a case on view v at position 0 (the fresh reader's position,
 * remaining, empty and view are checked; a mismatch there is reported but
 * not counted as an operation). fmt takes exactly four unsigned long long
 * arguments (a0..a3; unused ones may be left out of fmt). */
void rsv_diff_begin(rsv_diff_run *t, rsv_diff *d, rsv_view v, const char *suite,
                    const char *fmt, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3);

/* Lockstep operations. Each runs the operation on the codec reader and on
 * the oracle at the case's position, then compares success, status, value,
 * position, remaining, empty and the reader's view (and per operation:
 * take's sub-view, identical to the oracle's and to (data, off + p, n),
 * bit-equal, untouched on failure; a batch's done count, <= count, and every
 * value; rsv_golomb_init's status). Each returns the oracle's status (so
 * suites can drive loops on it). Parameters are as wide as the oracle's;
 * widths and orders above UINT_MAX reach the codec as UINT_MAX (still
 * invalid, same error). */
rsv_status rsv_diff_read(rsv_diff_run *t, uint64_t w);
rsv_status rsv_diff_read_bit(rsv_diff_run *t);
rsv_status rsv_diff_read_eg(rsv_diff_run *t, uint64_t k);
rsv_status rsv_diff_read_eg0(rsv_diff_run *t);
rsv_status rsv_diff_read_golomb(rsv_diff_run *t, uint64_t m);
rsv_status rsv_diff_read_golomb_m(rsv_diff_run *t, uint64_t m);
rsv_status rsv_diff_take(rsv_diff_run *t, uint64_t n);
/* take, also handing out the (oracle's) sub-view on success. */
rsv_status rsv_diff_take_sub(rsv_diff_run *t, uint64_t n, rsv_view *sub);
rsv_status rsv_diff_skip(rsv_diff_run *t, uint64_t n);
/* Seek has no oracle function: the model is "p <= len moves there, otherwise
 * RSV_ERR_TRUNCATED_SPAN with p unchanged" (reader.h). */
rsv_status rsv_diff_seek(rsv_diff_run *t, uint64_t p);
/* Batch decoders; count is clamped to RSV_DIFF_BATCH_LIMIT. */
rsv_status rsv_diff_read_n(rsv_diff_run *t, uint64_t w, size_t count);
rsv_status rsv_diff_read_eg_n(rsv_diff_run *t, uint64_t k, size_t count);
rsv_status rsv_diff_read_golomb_n(rsv_diff_run *t, uint64_t m, size_t count);

/* Scripts: one step, or n steps in order (every step runs, failed or not,
 * so each failure is followed by the next read). */
rsv_status rsv_diff_apply(rsv_diff_run *t, const rsv_diff_step *s);
void rsv_diff_script(rsv_diff_run *t, const rsv_diff_step *s, size_t n);

/* CODES.md §8 at the end of a script: read(0), take(0), skip(0); 13-bit
 * reads until one fails; read what is left; read(0), take(0), skip(0) again
 * and one read(1) at the end. */
void rsv_diff_drain(rsv_diff_run *t);

/* At the current position: read(0), take(0), skip(0), then read(1),
 * read_bit, take(1), skip(1), EG0, EG63, Golomb 1 and 2^64-1, each from a
 * copy of the case so the position is unchanged afterwards. At p = len this
 * is "nothing at all is loaded at the end" (A4) under a guard page. */
void rsv_diff_edge_ops(rsv_diff_run *t);

/* Decode EG k (golomb = 0; k = 0 alternates read_eg and read_eg0) or Golomb
 * m (alternating read_golomb and read_golomb_m) until the view is exhausted,
 * reading again after every failure, then once more at the end. A decode
 * that makes no progress is a mismatch (and ends the walk). */
void rsv_diff_drain_code(rsv_diff_run *t, int golomb, uint64_t param);

/* Spec expectation on the last operation (values from CODES.md, never from
 * the code under test): the oracle's status and position must be these (and
 * the value, when st is RSV_OK). Counted as a mismatch otherwise. */
void rsv_diff_expect(rsv_diff_run *t, rsv_status st, uint64_t value, uint64_t pos);
/* The last operation must have failed (any error): e.g. a proper prefix of a
 * valid code can never decode, since the codes are prefix-free. */
void rsv_diff_expect_failure(rsv_diff_run *t);

/* Test-only hook for the engine's own test: compare a made-up codec outcome
 * against the oracle's, exactly as the operations do. Lets a test prove that
 * a wrong value, status or position is reported. */
void rsv_diff_check_outcome(rsv_diff_run *t, rsv_diff_op op, uint64_t param, uint64_t start,
                            rsv_status cst, uint64_t cval, uint64_t cpos,
                            rsv_oracle_result o);

/* ---- suites ------------------------------------------------------------ */

typedef struct rsv_diff_opts {
    uint64_t seed;       /* random suite seed (RSV_TEST_SEED) */
    uint64_t trials;     /* random suite trials (RSV_TEST_TRIALS) */
    unsigned max_len;    /* exhaustive suite: bit strings of length 0..max_len */
    int quick;           /* smaller sizes (valgrind) */
} rsv_diff_opts;

#define RSV_DIFF_DEFAULT_SEED UINT64_C(0x5EED0C0DEC0FFEE5)
#define RSV_DIFF_DEFAULT_TRIALS 3000
#define RSV_DIFF_DEFAULT_MAX_LEN 16
#define RSV_DIFF_LIMIT_MAX_LEN 28

/* Defaults, overridden by RSV_TEST_SEED, RSV_TEST_TRIALS and
 * RSV_EXHAUSTIVE_MAX_LEN when set (decimal or 0x hex). */
void rsv_diff_opts_from_env(rsv_diff_opts *o);

/* Op-family masks for the exhaustive suite (diff_exhaustive.c; split across
 * test executables so they run in parallel). */
#define RSV_DIFF_EX_EG 1u
#define RSV_DIFF_EX_GOLOMB 2u
#define RSV_DIFF_EX_FIXED 4u  /* read_bit, read(0..64) */
#define RSV_DIFF_EX_SPAN 8u   /* skip, take, seek */
#define RSV_DIFF_EX_BATCH 16u /* read_n, read_eg_n, read_golomb_n */
#define RSV_DIFF_EX_ALL 31u

/* Placements the exhaustive suite enumerates for lengths 0..max_len (each
 * runs every operation of the selected families). */
uint64_t rsv_diff_exhaustive_places(unsigned max_len);
/* The cases (engine runs) those placements make for the given families. */
uint64_t rsv_diff_exhaustive_cases(unsigned max_len, unsigned families);

void rsv_diff_suite_fixed(rsv_diff *d, const rsv_diff_opts *o);
void rsv_diff_suite_span(rsv_diff *d, const rsv_diff_opts *o);
void rsv_diff_suite_codes(rsv_diff *d, const rsv_diff_opts *o);
void rsv_diff_suite_vectors(rsv_diff *d, const rsv_diff_opts *o);
void rsv_diff_suite_malformed(rsv_diff *d, const rsv_diff_opts *o);
void rsv_diff_suite_invalid(rsv_diff *d, const rsv_diff_opts *o);
void rsv_diff_suite_random(rsv_diff *d, const rsv_diff_opts *o);
void rsv_diff_suite_batch(rsv_diff *d, const rsv_diff_opts *o);
void rsv_diff_suite_exhaustive(rsv_diff *d, const rsv_diff_opts *o, unsigned families);

/* Registry used by the driver. */
typedef struct rsv_diff_suite_entry {
    const char *name;
    void (*run)(rsv_diff *d, const rsv_diff_opts *o);
} rsv_diff_suite_entry;
extern const rsv_diff_suite_entry rsv_diff_suites[];
extern const size_t rsv_diff_nsuites;

/* ---- small helpers shared by the suites (diff_util.c) -------------------- */

/* malloc exactly nbytes (at least 1) so ASan sees any load past the view's
 * last byte; aborts on allocation failure. */
uint8_t *rsv_diff_alloc(size_t nbytes);
/* Bytes holding view bits [0, off + len): ceil((off + len) / 8). */
size_t rsv_diff_nbytes(uint64_t off, uint64_t len);
/* Fill n bytes with random bits. */
void rsv_diff_fill_random(rsv_rng *g, uint8_t *buf, size_t n);
/* A view of `pre` random bits followed by the bits of a spec-notation string
 * ("0^64 1"), at view offset `off`, in a fresh exact-size buffer whose other
 * bits are random. *buf receives the buffer (free() it). Aborts on a bad
 * notation string (a bug in the suite's own table). */
rsv_view rsv_diff_build(rsv_rng *g, const char *spec, uint64_t off, uint64_t pre, uint8_t **buf);

#endif
