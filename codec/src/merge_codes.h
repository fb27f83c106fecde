/* Private: the union of the merge inputs' selector dictionaries (KV03.md
 * §11.2 init, format revision v2). */
#ifndef RSV_MERGE_CODES_H
#define RSV_MERGE_CODES_H

#include "merge_state.h"

/* Build m->codes (sorted, duplicates once; one allocation that also holds
 * m->code_map, so only m->codes is freed), m->ncodes and m->code_map, and
 * set heads[i].map for every input (an input with N = 0 has no codes). Every
 * input with m >= 2 must have passed rsv_kv03_dictionary_check. Returns
 * RSV_ERR_MERGE_MISMATCH when the union is not prefix-free, with *bad = the
 * first input whose codes conflict with a code of an earlier input;
 * RSV_ERR_NOMEM. */
rsv_status rsv__merge_codes(rsv__merge *m, const rsv_kv03_file *const *inputs, size_t n, size_t *bad);

#endif
