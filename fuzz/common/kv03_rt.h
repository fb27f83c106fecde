/* The input of the round-trip targets kv03_roundtrip (a KV03 file) and
 * stream_roundtrip (a §10 record stream): one layout, so that each corpus
 * seeds the other and fuzz/gen_corpus_kv03.c writes one set of seeds for both.
 *
 * Layout (consumed from the END of the input, data_producer.h):
 *   u8 flags: bits 0-2 all set = keep the generated key order (usually
 *     unsorted); bit 3 = format revision v2 (a code set and a code per
 *     record); bits 4-7 unused (kv03_roundtrip's path writer is chosen by a
 *     hash of the whole input, rsv_fuzz_one_in, not by a flag)
 *   the policy, the one code C0 and the records (kv03_fuzz.h)
 *   v2 only: the code set (kv03_codes.h: 2-16 prefix-free codes of 1-12 bits,
 *     sometimes one of 65-128 bits) and per record a u8 choosing its code; the
 *     records are then ordered by logical key code || key unless the raw order
 *     is kept.
 * A bulk list keeps its first rsv_kvf_quadratic_cap records (kv03_fuzz.h). */
#ifndef RSV_FUZZ_KV03_RT_H
#define RSV_FUZZ_KV03_RT_H

#include <stdint.h>

#include "data_producer.h"
#include "kv03_codes.h"
#include "kv03_fuzz.h"

typedef struct rsv_kvf_rt {
    uint8_t flags;
    int multi;          /* flags bit 3: v2, per-record codes from set */
    rsv_kvf_policy pol;
    rsv_kvf_code code;  /* C0 (v1); v2 files ignore it */
    rsv_kvf_set set;    /* v2: the generated set; v1: {C0} */
    rsv_kvf_recs r;
} rsv_kvf_rt;

/* Read one input's records, policy and codes (never fails: exhausted input
 * reads zeros). Free with rsv_kvf_rt_free. */
void rsv_kvf_rt_read(rsv_fuzz_producer *in, rsv_kvf_rt *t);
void rsv_kvf_rt_free(rsv_kvf_rt *t);

/* The records as oracle coded records, each with its code (v2 only):
 * calloc'd (r.n + 1 entries), the caller frees. */
rsv_oracle_crecord *rsv_kvf_rt_crecords(const rsv_kvf_rt *t);

#endif
