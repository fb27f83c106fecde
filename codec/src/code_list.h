/* Private: the selector codes a writer has used so far (KV03.md §1.2, §6.1,
 * §11.1 step 2), shared by the KV03 writer and the record-stream writer.
 *
 * Codes are appended in increasing bit-string order (a writer appends a code
 * only after its UNSORTED check passed), so the list is sorted and
 * prefix-free and one binary search answers "is x a prefix of, or prefixed
 * by, some code so far": in a sorted prefix-free list the only candidates
 * are x's two neighbours (a code P that is a prefix of x is x's immediate
 * predecessor: any code between P and x would extend P; likewise the codes
 * extending x start right at x's insertion point).
 *
 * Memory: the concatenated codes (the output's section 5) and two u64 per
 * code (section 6 and the first record of the code, from which the seeds are
 * derived) — O(dictionary bits / 8 + 16 m), proportional to the dictionary
 * the file stores anyway. */
#ifndef RSV_CODE_LIST_H
#define RSV_CODE_LIST_H

#include <stdint.h>

#include "reservoir/kv03.h"
#include "reservoir/status.h"
#include "reservoir/view.h"

typedef struct rsv__codes {
    uint8_t *bits;   /* D_0 ‖ D_1 ‖ …, MSB-first; bytes after nbits are zero */
    size_t bits_cap; /* bytes */
    uint64_t nbits;
    uint64_t *ends;  /* m + 1 entries: ends[0] = 0, D_j = bits [ends[j], ends[j+1]) */
    uint64_t *first; /* m entries: the record index where D_j first appeared */
    uint64_t m;
    size_t cap; /* entries allocated in first (ends has cap + 1) */
    /* The first code lives here (the arrays above point into the struct
     * until a second code needs more room): a one-code writer allocates
     * nothing beyond the struct. The struct is never copied. Zeroed (calloc)
     * = empty. */
    uint8_t bits_in[RSV_KV03_MAX_CODE_BITS / 8 + 8];
    uint64_t ends_in[2], first_in[1];
} rsv__codes;

static inline rsv_view rsv__codes_get(const rsv__codes *d, uint64_t j)
{
    return rsv_view_make(d->bits, d->ends[j], d->ends[j + 1] - d->ends[j]);
}

/* §11.1 step 2: RSV_ERR_SELECTOR_PREFIX when x differs from every code so far
 * and is a prefix of one of them or has one as a prefix (an empty x beside
 * any code, or any x beside an empty code, included). Else RSV_OK with
 * *found = the index of x when it is in the list, m when it is new. */
rsv_status rsv__codes_check(const rsv__codes *d, rsv_view x, uint64_t *found);
/* Append x (which must sort after every code so far) first used by record
 * `record`. RSV_ERR_NOMEM. */
rsv_status rsv__codes_append(rsv__codes *d, rsv_view x, uint64_t record);
void rsv__codes_free(rsv__codes *d);

/* The seed of block b (§6.2): the index of the code of record b·W, i.e. the
 * largest j with first[j] <= b·W. Walks j forward, so calling it for
 * b = 0, 1, 2, … costs O(nb + m) in all; *j must start at 0. */
static inline uint64_t rsv__codes_seed(const rsv__codes *d, uint64_t record, uint64_t *j)
{
    while (*j + 1 < d->m && d->first[*j + 1] <= record) ++*j;
    return *j;
}

#endif
