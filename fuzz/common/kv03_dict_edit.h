/* In-place edits of a KV03 file's selector dictionary and seeds (sections
 * 5-7, KV03.md §6) for the structure-aware mutator (kv03_mutator.c).
 *
 * rsv_kvf_dict_read takes the codes and seeds out of a file whose directory
 * is readable; rsv_kvf_dict_write rewrites sections 5-7 from the (edited)
 * lists with consistent shapes: section 5 = the codes' bits, section 6 =
 * their offsets, section 7 = nb seeds of w = bitlen(m - 1) bits, the
 * directory's dictionary/seed bits and section 5-7 offsets and lengths, and
 * the header's body extent and total size (the caller re-seals the CRCs).
 * So the edits reach the v2 checks behind the shapes: §6.3 step 4
 * (DICTIONARY_ORDER), SEED_RANGE, UNUSED_SELECTOR (§9.2 step 3a) and the
 * walk's code checks (PREFIX_CROSSES_CODE, SORT_TRANSITION,
 * RETAINED_PRECEDES_CODE, UNKNOWN_SELECTOR); an empty code gives
 * DICTIONARY_SHAPE (§6.3 step 2). */
#ifndef RSV_FUZZ_KV03_DICT_EDIT_H
#define RSV_FUZZ_KV03_DICT_EDIT_H

#include <stddef.h>
#include <stdint.h>

#include "kv03_fuzz.h"
#include "splitmix64.h"

#define RSV_KVF_DICT_MAX 32    /* codes */
#define RSV_KVF_SEEDS_MAX 4096 /* blocks */

typedef struct rsv_kvf_dict {
    size_t m;
    rsv_kvf_code code[RSV_KVF_DICT_MAX];
    uint64_t nb; /* blocks: ceil(N / W) from the header */
    uint64_t seed[RSV_KVF_SEEDS_MAX];
} rsv_kvf_dict;

/* 1 and *d filled when the header, the directory and sections 5-7 have a
 * usable shape (offsets nondecreasing inside the section, codes <= 512 bits,
 * at most RSV_KVF_DICT_MAX codes and RSV_KVF_SEEDS_MAX blocks); m <= 1 gives
 * no seeds. */
int rsv_kvf_dict_read(const uint8_t *file, size_t size, rsv_kvf_dict *d);

/* Rewrite sections 5-7 (and the fields above) in place; returns the new file
 * size, or 0 when it would exceed max (file left unchanged then). */
size_t rsv_kvf_dict_write(uint8_t *file, size_t size, size_t max, const rsv_kvf_dict *d);

/* One random edit of the lists: swap two codes, add an unused code (kept
 * prefix-free and in order, seeds renumbered), remove a code, flip / add /
 * drop one bit of a code, grow a code past 64 bits, duplicate a code, empty
 * a code, or set a seed to any w-bit value (>= m included). */
void rsv_kvf_dict_mutate(rsv_kvf_dict *d, rsv_rng *s);

#endif
