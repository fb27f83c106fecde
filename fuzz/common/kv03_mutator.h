/* Structure-aware mutator for KV03 files (kv03_parse_structured).
 *
 * A file the oracle's v2 decoder scans clean is mutated as data (records,
 * values, policy, selector codes: every record keeps its code, codes get new
 * bits, split, grow past 64 bits, records move between codes) and
 * re-encoded with rsv_oracle_kv03_encode_v2, or its body bytes / header and
 * directory fields are mutated in place, or its sections 5-7 (dictionary,
 * offsets, seeds) are rewritten from edited lists (kv03_dict_edit.h); a file
 * that does not decode gets the dictionary rewrite (1 in 3) or is mutated as
 * raw bytes. Every result gets BOTH CRCs recomputed (body, then header), so
 * the fuzzer reaches record decoding and the v2 checks instead of stopping
 * at HEADER_CRC/BODY_CRC. The CRC checks themselves stay fuzzed by the plain
 * kv03_parse target. */
#ifndef RSV_FUZZ_KV03_MUTATOR_H
#define RSV_FUZZ_KV03_MUTATOR_H

#include <stddef.h>
#include <stdint.h>

/* LLVMFuzzerCustomMutator semantics: mutate data[0..size) in place within
 * max_size bytes, return the new size; deterministic for a given seed. */
size_t rsv_kvf_mutate(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

/* LLVMFuzzerCustomCrossOver semantics: combine two files into out. */
size_t rsv_kvf_crossover(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2, uint8_t *out,
                         size_t max_out, unsigned int seed);

#endif
