/* Private: the KV03 v2 selector dictionary as the frame parse uses it
 * (KV03.md §3.3 step 2, §6). Everything reads sections 5-7 in place; nothing
 * allocates. All functions except rsv__kv03_dict_* readers assume
 * rsv_kv03_dictionary_check passed (offsets in range, codes sorted and
 * prefix-free). */
#ifndef RSV_KV03_DICT_H
#define RSV_KV03_DICT_H

#include "reservoir/kv03.h"

/* e_k, the k-th section-6 offset (k <= m). */
uint64_t rsv__kv03_dict_end(const rsv_kv03_file *f, uint64_t k);
/* |D_j| (m >= 2) */
uint64_t rsv__kv03_code_len(const rsv_kv03_file *f, uint64_t j);

/* Block b's code (§3.3 step 2, block start, m >= 2): seed_b, or
 * RSV_ERR_SEED_RANGE when seed_b >= m. */
rsv_status rsv__kv03_block_code(const rsv_kv03_file *f, uint64_t b, uint64_t *j);

/* A transition from code cp with R < |D_cp| retained bits (m >= 2): reads the
 * code tail bit by bit from r. RSV_ERR_SORT_TRANSITION (no other code has
 * prefix D_cp[0,R): nothing read; or the tail completed D_cp),
 * RSV_ERR_UNKNOWN_SELECTOR (after the bit that left no code), the reader's
 * RSV_ERR_TRUNCATED_FIELD (position unchanged), else the new code in *j. */
rsv_status rsv__kv03_transition(const rsv_kv03_file *f, rsv_reader *r, uint64_t cp, uint64_t R,
                                uint64_t *j);
/* The same over the next `avail` stream bits given MSB-first in `word`: 1
 * with *j and *used (tail bits, <= avail) when the transition completes to a
 * code other than cp; 0 for every error or when the tail is longer than
 * avail (the caller then runs rsv__kv03_transition). Reads no stream bytes. */
int rsv__kv03_transition_word(const rsv_kv03_file *f, uint64_t cp, uint64_t R, uint64_t word,
                              unsigned avail, uint64_t *j, unsigned *used);

#endif
