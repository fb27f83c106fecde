/* Selector code sets for the KV03 format-revision-v2 fuzz inputs (KV03.md
 * §1.2, §6, §10): a generated code set and the per-record code choice.
 *
 * Input layout of rsv_kvf_gen_code_set (consumption order from the END of
 * the input, data_producer.h; fuzz/gen_corpus_kv03.c writes the mirror):
 *   u8 a: target size m = 2 + a % 15 (2..16 codes)
 *   u8 b: longest split length L = 1 + b % 12 (bits)
 *   u8 f: bit 0 = make one code >= 65 bits; bit 1 = (only where the caller
 *         allows it) add one code that breaks prefix-freeness; bit 2 = list
 *         the codes in increasing bit-string order (else generation order)
 *   the tree: start from the root split into `0`, `1`; then while fewer
 *         than m codes (at most 4m steps) u8 x: leaf i = (x & 63) % count;
 *         x >> 6 = 3: extend leaf i by the bit x & 1 (an unused branch
 *         beside it), else split it into i‖0 (kept at i) and i‖1 (appended).
 *         Leaves already L bits long are left alone. Every step keeps the
 *         set prefix-free.
 *   f bit 0: u8 y, u64 s: leaf y % count grows to 65 + s % 64 bits, the new
 *         bits from rsv_mix64(s + k) (still prefix-free);
 *   f bit 1 (allowed): u8 z: code z % count gives a new last code: z >> 6 =
 *         0 a duplicate, 1 the code minus its last bit (the empty code from a
 *         1-bit code), 2 the code plus bit `0`, 3 the empty code.
 * Exhausted inputs read zeros: the set {`00…0` (L bits), `01`, …}, never
 * fewer than 2 codes. */
#ifndef RSV_FUZZ_KV03_CODES_H
#define RSV_FUZZ_KV03_CODES_H

#include <stddef.h>
#include <stdint.h>

#include "data_producer.h"
#include "kv03_fuzz.h"
#include "reservoir/oracle_kv03.h"
#include "reservoir/stream.h"

#define RSV_KVF_MAX_CODES 17 /* 16 + one prefix-breaking extra */

typedef struct rsv_kvf_set {
    size_t m;
    rsv_kvf_code code[RSV_KVF_MAX_CODES];
    rsv_oracle_code oracle[RSV_KVF_MAX_CODES]; /* views of code[] */
    uint8_t packed[RSV_KVF_MAX_CODES * (RSV_KV03_MAX_CODE_BITS / 8 + 1)];
    uint64_t ends[RSV_KVF_MAX_CODES];
    rsv_code_set codec; /* packed/ends, the codec's shape */
} rsv_kvf_set;

/* allow_broken != 0: flag bit 1 may add a prefix-breaking code. */
void rsv_kvf_gen_code_set(rsv_fuzz_producer *p, int allow_broken, rsv_kvf_set *s);

/* The one-code set {c} (both shapes). */
void rsv_kvf_set_single(const rsv_kvf_code *c, rsv_kvf_set *s);

/* Recompute oracle[] and the codec's packed form after code[] changed. */
void rsv_kvf_set_sync(rsv_kvf_set *s);

/* Per record u8 x: code x % m of s (prefix-free). The records get their
 * codes (codec[i].code/code_bits point into s, r->code_idx[i] = the index)
 * and, when sorted != 0, are reordered by logical key (code, then key:
 * KV03.md §1.2; the set being prefix-free, this is the code || key bit
 * order). */
void rsv_kvf_assign_codes(rsv_fuzz_producer *p, const rsv_kvf_set *s, int sorted, rsv_kvf_recs *r);

/* The records as oracle coded records (code from codec[i]). out: r->n. */
void rsv_kvf_crecords(const rsv_kvf_recs *r, rsv_oracle_crecord *out);

/* The longest code of s, in bits (for rsv_kvf_recs_cap). */
uint64_t rsv_kvf_set_max_bits(const rsv_kvf_set *s);

/* 1 when the bits of view v equal code c. */
int rsv_kvf_view_is_code(rsv_view v, const uint8_t *code, uint64_t bits);

#endif
