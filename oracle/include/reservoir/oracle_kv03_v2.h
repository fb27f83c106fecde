/* reservoir oracle — KV03 format revision v2: selector codes per record,
 * multi-code files, record streams with a code set, merges across code sets
 * (KV03.md §1.2, §3.2-§3.3, §6, §9-§11).
 *
 * Included by reservoir/oracle_kv03.h. The v1 entry points there keep their
 * v1 behaviour exactly (one code C0 per call; open check 29 rejects m >= 2
 * with RSV_ERR_UNSUPPORTED_SELECTORS); the *_v2 entry points below are the
 * revision-v2 readers and writers (no check 29; 82 is never returned).
 * Both share one implementation: with m <= 1 the v2 walk, writer and stream
 * are the v1 ones (KV03.md §13).
 *
 * Diagnostics of rsv_oracle_kv03_decode_v2 are those of the v1 decoder (see
 * oracle_kv03.h) plus:
 *   - §6.3 dictionary failures (m >= 2): phase = RSV_ORACLE_PHASE_DICTIONARY,
 *     step = the §6.3 step (1..4), record = bitpos = 0, in every mode (in
 *     SCAN mode they happen inside §9.2 step 2, after the body CRC);
 *   - §9.2 step 3a (RSV_ERR_UNUSED_SELECTOR): phase = SCAN,
 *     step = RSV_ORACLE_STEP_3A, record = bitpos = 0;
 *   - walk positions of §3.3 "Positions": RSV_ERR_SEED_RANGE at the record's
 *     start; RSV_ERR_PREFIX_CROSSES_CODE after EG0(R); RSV_ERR_SORT_TRANSITION
 *     after the control when no other code has prefix P, else after the tail
 *     bit that completed Cp; RSV_ERR_UNKNOWN_SELECTOR after the tail bit that
 *     left no code with prefix P; a tail read at the data extent is
 *     RSV_ERR_TRUNCATED_FIELD with the position unchanged.
 *
 * Codes longer than 512 bits: the v2 writer, the v2 stream (writer and the
 * reader's code set) and the §6.3 dictionary read (step 3) reject them with
 * RSV_ERR_TOO_LARGE (the MAY of §1.2, taken). */
#ifndef RESERVOIR_ORACLE_KV03_V2_H
#define RESERVOIR_ORACLE_KV03_V2_H

#include "reservoir/oracle_kv03.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The longest selector code the v2 entry points accept (KV03.md §1.2). */
#define RSV_ORACLE_MAX_CODE_BITS 512u

/* Reported as `step` for §9.2 step 3a (UNUSED_SELECTOR). */
#define RSV_ORACLE_STEP_3A 0x3Au

/* A selector code: bits [0, nbits) of `bits`, MSB-first (bit j is bit
 * 7 - j%8 of bits[j/8]); bits may be NULL iff nbits = 0 (the empty code). */
typedef struct rsv_oracle_code {
    const uint8_t *bits;
    uint64_t nbits;
} rsv_oracle_code;

/* A record with its selector code (logical key = code || key bits). */
typedef struct rsv_oracle_crecord {
    rsv_oracle_code code;
    rsv_oracle_record rec;
} rsv_oracle_crecord;

/* An owned list of codes (a file's dictionary D_0..D_{m-1}). */
typedef struct rsv_oracle_dict {
    uint64_t m;
    rsv_oracle_code *codes; /* m entries; each bits buffer is malloc'd */
} rsv_oracle_dict;

void rsv_oracle_dict_free(rsv_oracle_dict *dict); /* NULL ok; leaves {0, NULL} */

/* Bit-string order (first differing bit decides, a proper prefix first):
 * <0, 0, >0. */
int rsv_oracle_code_compare(rsv_oracle_code a, rsv_oracle_code b);
/* Logical-key order of two records: code || key bits compared as one bit
 * string (KV03.md §1.2). */
int rsv_oracle_logical_compare(const rsv_oracle_crecord *a, const rsv_oracle_crecord *b);
/* A code set as §10 requires of a reader: RSV_ERR_TOO_LARGE if a code has
 * more than 512 bits (checked first, over all codes), RSV_ERR_SELECTOR_PREFIX
 * if some code is a prefix of another (equal codes included), else RSV_OK.
 * RSV_ERR_INVALID_ARGUMENT for NULL with n > 0 or a NULL code with bits. */
rsv_status rsv_oracle_code_set_check(const rsv_oracle_code *set, size_t n);

/* ------------------------------------------------------------------------ */
/* KV03 v2 decode (open §9.1 without check 29, §6.3, walk §3.3, scan §9.2)  */
/* ------------------------------------------------------------------------ */

typedef struct rsv_oracle_kv03_v2_result {
    /* Status, phase/step/record/bitpos, the header/directory fields and the
     * decoded keys/values (base.records); base.c0/c0_bits hold section 5 as
     * stored (the whole dictionary, D_0 || ... || D_{m-1}). */
    rsv_oracle_kv03_result base;
    /* m <= 1: [C0] (m = 1) or empty (m = 0), once open succeeded in a
     * non-OPEN mode; m >= 2: D_0..D_{m-1} once §6.3 step 2 passed (also
     * when steps 3-4 then fail), else empty. */
    rsv_oracle_dict dict;
    /* code_index[i] = dictionary index of base.records.items[i]'s code
     * (base.records.count entries; NULL when there are none). */
    uint64_t *code_index;
} rsv_oracle_kv03_v2_result;

/* Modes as rsv_oracle_kv03_decode: OPEN (§9.1 only), SCAN (§9.1 then §9.2
 * steps 1-7 with 3a), WALK = the cursor walk (§9.1, the §6.3 dictionary when
 * m >= 2, the §3.3 walk and the terminal check; no CRC/endpoint/3a/cw/gap/
 * padding/EF checks). Always initializes *res first. */
rsv_status rsv_oracle_kv03_decode_v2(const uint8_t *file, size_t size,
                                     const rsv_oracle_kv03_policy *expected,
                                     rsv_oracle_kv03_mode mode, rsv_oracle_kv03_v2_result *res);
void rsv_oracle_kv03_v2_result_free(rsv_oracle_kv03_v2_result *res);

/* A malloc'd array of res->base.records.count coded records borrowing keys,
 * values and codes from *res (valid until it is freed). *out = NULL when
 * there are no records. RSV_ERR_NOMEM. */
rsv_status rsv_oracle_kv03_v2_coded(const rsv_oracle_kv03_v2_result *res,
                                    rsv_oracle_crecord **out);

/* ------------------------------------------------------------------------ */
/* KV03 v2 batch writer (§11.1)                                              */
/* ------------------------------------------------------------------------ */

/* Check order: RSV_ERR_INVALID_ARGUMENT (NULL pointers, a NULL key/value/code
 * with a nonzero length, a bad value state), the policy (BAD_BACKSPACE, then
 * BAD_POLICY), then per record i = 0, 1, ... in order: c_i > 512 ->
 * RSV_ERR_TOO_LARGE; a new code that is a prefix of an earlier code or has one
 * as a prefix -> RSV_ERR_SELECTOR_PREFIX; i > 0 and logical key not above the
 * previous one -> RSV_ERR_UNSORTED. *bad_index (if non-NULL) receives the
 * failing record's index for those three. On success *out (malloc'd) holds
 * the file. N = 0 yields the empty file. */
rsv_status rsv_oracle_kv03_encode_v2(const rsv_oracle_crecord *records, size_t n,
                                     const rsv_oracle_kv03_policy *policy, uint8_t **out,
                                     size_t *out_len, size_t *bad_index);

/* ------------------------------------------------------------------------ */
/* Record stream with a code set (§10)                                       */
/* ------------------------------------------------------------------------ */

/* Writer: checks as rsv_oracle_kv03_encode_v2 (no policy); ceil(E/8) bytes
 * into *out (malloc'd; NULL when E = 0), E into *extent_bits. */
rsv_status rsv_oracle_stream_encode_v2(const rsv_oracle_crecord *records, size_t n,
                                       uint8_t **out, uint64_t *extent_bits, size_t *bad_index);

typedef struct rsv_oracle_stream_v2_result {
    /* status, failing record, position (§10 "Positions"; SELECTOR_PREFIX and
     * TOO_LARGE of the set: record = bitpos = 0), decoded keys/values. */
    rsv_oracle_stream_result base;
    uint64_t *code_index; /* per decoded record: index into the given set */
} rsv_oracle_stream_v2_result;

/* Reads a view of exactly E bits with code set set[0..nset-1] (checked with
 * rsv_oracle_code_set_check before anything is read). */
rsv_status rsv_oracle_stream_decode_v2(rsv_view v, const rsv_oracle_code *set, size_t nset,
                                       rsv_oracle_stream_v2_result *res);
void rsv_oracle_stream_v2_result_free(rsv_oracle_stream_v2_result *res);

/* ------------------------------------------------------------------------ */
/* Merge across code sets (§11.2)                                            */
/* ------------------------------------------------------------------------ */

/* Inputs oldest -> newest. Procedure (first failure wins):
 *  1. ninputs < 2 (or NULL pointers) -> RSV_ERR_INVALID_ARGUMENT;
 *  2. open (§9.1 v2, no expected policy) every input in order;
 *  3. every input's (B kind, param, W, K) equal to input 0's, else
 *     RSV_ERR_MERGE_MISMATCH (input = the first that differs);
 *  4. every input with m >= 2 reads its dictionary (§6.3), in input order
 *     (phase DICTIONARY);
 *  5. the union of the input dictionaries (m = 1: C0) prefix-free, else
 *     RSV_ERR_MERGE_MISMATCH (input = the first whose codes conflict with a
 *     code of an earlier input);
 *  6. walk every input (§3.3 + terminal) in order;
 *  7. newest binding per logical key; drop_tombstones != 0 removes logical
 *     keys whose newest binding is a tombstone;
 *  8. rsv_oracle_kv03_encode_v2 of the result with the common policy. */
rsv_status rsv_oracle_kv03_merge_v2(const rsv_oracle_bytes *inputs, size_t ninputs,
                                    int drop_tombstones, rsv_oracle_merge_result *res);

#ifdef __cplusplus
}
#endif
#endif
