/* The WORKLOADS.md generators, kept once: mix() (§1), the count-case values
 * (§3) and the native record fixtures with their merge splits (§4). An
 * internal static library (rsv_workloads) linked by the rsv tool's gen-*
 * commands and by the benchmark, so that a fixture file written by
 * `rsv gen-fixture` and the benchmark's in-memory fixture are the same
 * records in the same order. Not part of the codec API. */
#ifndef RSV_WORKLOADS_H
#define RSV_WORKLOADS_H

#include <stddef.h>
#include <stdint.h>

#include "../../tests/support/splitmix64.h" /* the project's one SplitMix64 */
#include "reservoir/kv03.h"

/* mix(): the SplitMix64 output finalizer applied to its argument, no state
 * and no increment (§1). */
static inline uint64_t rsv_wl_mix(uint64_t x) { return rsv_mix64(x); }

/* The sanity values of §1 (1 when mix() matches them). */
int rsv_wl_mix_selftest(void);

/* ---- §3 count cases ---------------------------------------------------- */

typedef enum rsv_wl_count_case {
    RSV_WL_EG0_SMALL, /* mix(i) AND 127, exp-Golomb order 0 */
    RSV_WL_EG0_WIDE,  /* mix(i) AND (2^(i mod 65) - 1), all 64 bits at 64 */
    RSV_WL_EG3,       /* mix(i) AND 1023, exp-Golomb order 3 */
    RSV_WL_G7,        /* mix(i) AND 127, Golomb m = 7 */
    RSV_WL_COUNT_CASES
} rsv_wl_count_case;

/* "eg0-small", "eg0-wide", "eg3", "g7" (NULL for anything else). */
const char *rsv_wl_count_case_name(rsv_wl_count_case c);
/* v_i of case c. */
uint64_t rsv_wl_count_value(rsv_wl_count_case c, uint64_t i);

/* ---- §4 native record fixtures ----------------------------------------- */

#define RSV_WL_PREFIX "documents/persistent/shared/string/prefix/" /* 42 bytes, no NUL */
#define RSV_WL_PREFIX_LEN 42
#define RSV_WL_PREFIX_KEY_LEN (RSV_WL_PREFIX_LEN + 8)
#define RSV_WL_HASH_KEY_LEN 16

/* The records of fixture <prefix|hash>-<max> with generation indexes
 * 0..n-1, sorted by key bytes (= KV03 logical order under one code). */
typedef struct rsv_wl_fixture {
    uint64_t n;
    rsv_record *recs;     /* n records sorted by key bytes; code = NULL */
    uint8_t *keys, *vals; /* the arenas recs point into (owned) */
    size_t key_len;       /* every key's length */
    size_t max_val;       /* the longest present value */
} rsv_wl_fixture;

/* Generate and sort. RSV_ERR_NOMEM when an allocation fails (or n does not
 * fit size_t); RSV_ERR_UNSORTED if two keys were equal (impossible for the
 * prefix shape; a mix() collision for the hash shape). *fx is valid for
 * rsv_wl_fixture_free either way. */
rsv_status rsv_wl_fixture_generate(rsv_wl_fixture *fx, int hash, unsigned max, uint64_t n);
void rsv_wl_fixture_free(rsv_wl_fixture *fx);

/* Merge inputs (§4 split table, and the benchmark's N-way extra): input j of
 * n receives the records at sorted positions p = start, start + step, ...
 *   DISJOINT:    n = 2, older (j = 0) = even p, newer (j = 1) = odd p
 *   OVERLAP:     n = 2, older = all p,          newer = odd p
 *   ROUND_ROBIN: input j = records with p mod n = j
 * Every split is such a progression, so one pair of numbers says it. */
enum { RSV_WL_SPLIT_DISJOINT = 0, RSV_WL_SPLIT_OVERLAP = 1, RSV_WL_SPLIT_ROUND_ROBIN = 2 };
void rsv_wl_split_range(int split, unsigned n, unsigned j, uint64_t *start, uint64_t *step);

#endif
