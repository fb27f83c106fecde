/* Fuzz target kv03_parse_structured: the kv03_parse checks
 * (common/kv03_parse_check.c) driven by a structure-aware mutator
 * (common/kv03_mutator.c): decodable files are mutated as records, values,
 * policy and selector codes (format revision v2: one code per record) and
 * re-encoded, or have body bytes and header / directory fields changed, or
 * their dictionary and seeds (sections 5-7) rewritten from edited lists;
 * then both CRCs are re-sealed so inputs reach deep record decoding and the
 * v2 dictionary, seed and transition checks. The replay and AFL engines run the same checks and never
 * call the mutator. */
#include <stddef.h>
#include <stdint.h>

#include "kv03_mutator.h"
#include "kv03_parse_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2, size_t size2,
                                 uint8_t *out, size_t max_out_size, unsigned int seed);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rsv_kvf_parse_check("kv03_parse_structured", data, size);
    return 0;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    return rsv_kvf_mutate(data, size, max_size, seed);
}

size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2, size_t size2,
                                 uint8_t *out, size_t max_out_size, unsigned int seed)
{
    return rsv_kvf_crossover(data1, size1, data2, size2, out, max_out_size, seed);
}
