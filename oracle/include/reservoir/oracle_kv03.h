/* reservoir oracle — KV03 files, record streams and merges (KV03.md).
 *
 * The reference implementation that tests compare the fast codec against.
 * Written for obviousness, not speed: everything is decoded into malloc'd
 * record lists, every data-stream bit is read through the stateless phase-1
 * decoders of reservoir/oracle.h (envelope, directory and EF word sections are
 * little-endian words read byte by byte), and every writer emits bits through
 * the phase-1 reference encoders.
 *
 * Ownership: every pointer returned inside a result/record list is owned by
 * that object and released by the matching *_free function. Output byte
 * buffers (*out) are malloc'd and released with free().
 *
 * Diagnostics (where an error was detected):
 *   - §9.1 open errors: phase = RSV_ORACLE_PHASE_OPEN, step = the §9.1 check
 *     number (1..29); record = bitpos = 0.
 *   - §9.2 scan errors: phase = RSV_ORACLE_PHASE_SCAN, step = the §9.2 step
 *     number (1..7). For errors of step 3 (the §3.3 record walk) `record` is
 *     the index of the record being parsed (N for the terminal check) and
 *     `bitpos` the data-stream bit position (relative to bit 0 of section 0)
 *     where the failing operation left the reader:
 *       * codec errors (EG/Golomb/read/take): the CODES.md §6.3 position;
 *       * RSV_ERR_BLOCK_OFFSET: the record's start position (checked before
 *         anything of the record is read); EF select failures met while
 *         computing block_offset(i/W) propagate (RSV_ERR_EF_CORRUPT) at the
 *         same position;
 *       * RSV_ERR_RETAINED_PRECEDES_CODE: after EG0(R);
 *       * RSV_ERR_BACKSPACE_EXCEEDS_KEY, RSV_ERR_SORT_TRANSITION: after the
 *         backspace code;
 *       * RSV_ERR_KEY_ENDS_INSIDE_BYTE: after the key literal (the take);
 *       * RSV_ERR_TRUNCATED_VALUE: after EG0(n) of the value (nothing taken);
 *       * RSV_ERR_VALUE_WIDTH: after the value;
 *       * RSV_ERR_MISSING_PREFIX, RSV_ERR_UNSORTED: after the whole record;
 *       * RSV_ERR_TERMINAL_MISMATCH: record = N, bitpos = final position.
 *     For other scan steps record = bitpos = 0.
 */
#ifndef RESERVOIR_ORACLE_KV03_H
#define RESERVOIR_ORACLE_KV03_H

#include <stddef.h>
#include <stdint.h>

#include "reservoir/oracle.h"
#include "reservoir/status.h"
#include "reservoir/view.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Records                                                                  */
/* ------------------------------------------------------------------------ */

/* Three value states: tombstone; present with value_len = 0 (present-empty,
 * coded `11`); present with value_len > 0. Never collapsed into one another. */
typedef enum rsv_oracle_value_state {
    RSV_ORACLE_TOMBSTONE = 0,
    RSV_ORACLE_PRESENT = 1
} rsv_oracle_value_state;

/* A record. key may be NULL when key_len == 0; value may be NULL when
 * value_len == 0 or state == RSV_ORACLE_TOMBSTONE (value/value_len are
 * ignored for tombstones and are NULL/0 in decoded lists). */
typedef struct rsv_oracle_record {
    const uint8_t *key;
    size_t key_len;
    rsv_oracle_value_state state;
    const uint8_t *value;
    size_t value_len;
} rsv_oracle_record;

/* An owned list of records. The list owns the bytes of its keys and values:
 * they live in blocks the list allocates (`blocks`), and a record's key and
 * value stay valid until the list is freed. Zero-initialize before use. */
struct rsv_oracle_bytes_block;
typedef struct rsv_oracle_records {
    rsv_oracle_record *items;
    size_t count;
    size_t cap;
    struct rsv_oracle_bytes_block *blocks; /* the key and value bytes */
} rsv_oracle_records;

/* Frees the keys' and values' bytes and the array; leaves *list all zero.
 * NULL ok. */
void rsv_oracle_records_free(rsv_oracle_records *list);
/* Appends a deep copy. RSV_ERR_NOMEM / RSV_ERR_INVALID_ARGUMENT (NULL list,
 * NULL key with key_len > 0, NULL value with value_len > 0 when present). */
rsv_status rsv_oracle_records_push(rsv_oracle_records *list, const uint8_t *key, size_t key_len,
                                   rsv_oracle_value_state state, const uint8_t *value,
                                   size_t value_len);
/* Unsigned lexicographic key order, a proper prefix first: <0, 0, >0. */
int rsv_oracle_key_compare(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen);
/* 1 iff both records have equal keys, equal states and (when present) equal
 * value bytes and lengths. */
int rsv_oracle_record_equal(const rsv_oracle_record *a, const rsv_oracle_record *b);

/* ------------------------------------------------------------------------ */
/* Policy (KV03.md §3.1)                                                     */
/* ------------------------------------------------------------------------ */

#define RSV_ORACLE_BACKSPACE_EG 0u
#define RSV_ORACLE_BACKSPACE_GOLOMB 1u

/* Fields are u64 so that invalid policies can be expressed and rejected. */
typedef struct rsv_oracle_kv03_policy {
    uint64_t bs_kind;  /* RSV_ORACLE_BACKSPACE_EG (param = k 0..63) or _GOLOMB (m >= 1) */
    uint64_t bs_param; /* k or m */
    uint64_t W;        /* records per codec block, 1 .. 2^32-1 */
    uint64_t K;        /* group size, 2^n - 1 with n >= 2 */
} rsv_oracle_kv03_policy;

/* EG0, W = K = 15. */
rsv_oracle_kv03_policy rsv_oracle_kv03_default_policy(void);
/* RSV_OK, RSV_ERR_BAD_BACKSPACE (checked first) or RSV_ERR_BAD_POLICY. */
rsv_status rsv_oracle_kv03_policy_check(const rsv_oracle_kv03_policy *policy);

/* ------------------------------------------------------------------------ */
/* CRC32C (KV03.md §7) — the bitwise definition                              */
/* ------------------------------------------------------------------------ */

uint32_t rsv_oracle_crc32c(const uint8_t *bytes, size_t n); /* bytes may be NULL if n = 0 */

/* ------------------------------------------------------------------------ */
/* Elias–Fano block offsets (KV03.md §4)                                     */
/* ------------------------------------------------------------------------ */

/* Sections 1-4 exactly as stored (byte arrays, little-endian words). */
typedef struct rsv_oracle_ef {
    uint64_t n; /* entries */
    uint64_t U; /* universe = last entry */
    unsigned L; /* low width */
    uint8_t *low;     size_t low_len;     /* 8*ceil(nL/64) bytes */
    uint8_t *high;    size_t high_len;    /* 8*ceil(H/64) bytes, H = (U>>L)+n */
    uint8_t *samples; size_t samples_len; /* 16*ceil(n/256) bytes */
    uint8_t *sparse;  size_t sparse_len;  /* 8*count bytes */
} rsv_oracle_ef;

/* Builds the canonical sections from r[0..n-1] (n >= 1, nondecreasing, else
 * RSV_ERR_EF_NONMONOTONE; n = 0 -> RSV_ERR_INVALID_ARGUMENT). */
rsv_status rsv_oracle_ef_build(const uint64_t *r, size_t n, rsv_oracle_ef *out);
void rsv_oracle_ef_free(rsv_oracle_ef *ef);

/* Read-only description of stored sections for select (KV03.md §4 "Select").
 * The caller guarantees the section lengths have the §4 shape for (n, U, L)
 * (open check 25); select itself only trusts those lengths for bounds. */
typedef struct rsv_oracle_ef_view {
    uint64_t n, U;
    unsigned L; /* <= 63 */
    const uint8_t *low;     uint64_t low_len;
    const uint8_t *high;    uint64_t high_len;
    const uint8_t *samples; uint64_t samples_len;
    const uint8_t *sparse;  uint64_t sparse_len;
} rsv_oracle_ef_view;

/* select(i): RSV_ERR_EF_ORDINAL (i >= n), RSV_ERR_EF_CORRUPT, or RSV_OK. */
rsv_status rsv_oracle_ef_select(const rsv_oracle_ef_view *ef, uint64_t i, uint64_t *value);

/* ------------------------------------------------------------------------ */
/* KV03 decode (open §9.1, scan §9.2)                                        */
/* ------------------------------------------------------------------------ */

typedef enum rsv_oracle_kv03_mode {
    /* §9.1 only. Reads only file bytes 0..95 and the 192-byte directory
     * (never a section byte); no records, c0 stays NULL. */
    RSV_ORACLE_KV03_OPEN = 0,
    /* §9.1, then the full §9.2 scan (steps 1-7 in order). */
    RSV_ORACLE_KV03_SCAN = 1,
    /* §9.1, then only the §3.3 walk and terminal check (scan step 3), as the
     * merge validates its inputs (KV03.md §11.2): no CRC, endpoints, cw
     * canonicity, gap, padding or EF canonicity checks. */
    RSV_ORACLE_KV03_WALK = 2
} rsv_oracle_kv03_mode;

typedef enum rsv_oracle_phase {
    RSV_ORACLE_PHASE_NONE = 0, /* success */
    RSV_ORACLE_PHASE_OPEN = 1, /* KV03.md §9.1 */
    RSV_ORACLE_PHASE_SCAN = 2, /* KV03.md §9.2 (the WALK mode reports step 3) */
    RSV_ORACLE_PHASE_DICTIONARY = 3 /* KV03.md §6.3 (v2 decoders, m >= 2) */
} rsv_oracle_phase;

typedef struct rsv_oracle_kv03_result {
    rsv_status status;     /* first error, or RSV_OK */
    rsv_oracle_phase phase; /* see the file comment */
    unsigned step;
    uint64_t record;
    uint64_t bitpos;

    /* Filled once open succeeded (opened = 1): */
    int opened;
    rsv_oracle_kv03_policy policy; /* B kind + param, W, K from the header */
    uint64_t n_records;            /* N */
    int cw_present;                /* header flag bit 1 */
    uint64_t cw;                   /* header cw field */
    uint64_t data_extent;          /* directory: bits of section 0 */
    uint64_t terminal;             /* directory: terminal key length */
    uint64_t ef_universe;          /* directory: U */
    unsigned ef_low_width;         /* directory: L */
    uint64_t seed_bits;            /* directory */
    uint64_t m;                    /* dictionary codes: section 6 length / 8 - 1 */
    uint64_t c0_bits;              /* c = dictionary bits */
    uint8_t *c0;                   /* C0 = section 5 (ceil(c/8) bytes, MSB-first;
                                      copied in SCAN/WALK modes, NULL if c = 0 or OPEN) */

    /* SCAN/WALK: records that passed §3.3 steps 1-7 (all N on success). */
    rsv_oracle_records records;
} rsv_oracle_kv03_result;

/* Decodes arbitrary file bytes. `expected` (may be NULL) is the caller's
 * expected policy for §9.1 check 11. `file` may be NULL only if size == 0.
 * Returns res->status (RSV_ERR_INVALID_ARGUMENT for NULL res or bad mode,
 * RSV_ERR_NOMEM if allocation fails). Always initializes *res first. */
rsv_status rsv_oracle_kv03_decode(const uint8_t *file, size_t size,
                                  const rsv_oracle_kv03_policy *expected,
                                  rsv_oracle_kv03_mode mode, rsv_oracle_kv03_result *res);
void rsv_oracle_kv03_result_free(rsv_oracle_kv03_result *res);

/* ------------------------------------------------------------------------ */
/* KV03 batch writer (§11.1)                                                 */
/* ------------------------------------------------------------------------ */

/* records[0..n-1] with strictly increasing keys; policy; C0 of c0_bits bits
 * (MSB-first in c0, ceil(c0_bits/8) bytes, unused low bits ignored).
 * Check order: RSV_ERR_INVALID_ARGUMENT (NULL pointers), policy
 * (RSV_ERR_BAD_BACKSPACE, then RSV_ERR_BAD_POLICY), c0_bits > 512
 * (RSV_ERR_TOO_LARGE), then key order (RSV_ERR_UNSORTED; *bad_index, if
 * non-NULL, receives the index i of the first record with K_i <= K_{i-1}).
 * On success *out (malloc'd) holds the complete file of *out_len bytes.
 * N = 0 yields the empty file (C0 is then not stored anywhere). */
rsv_status rsv_oracle_kv03_encode(const rsv_oracle_record *records, size_t n,
                                  const rsv_oracle_kv03_policy *policy, const uint8_t *c0,
                                  uint64_t c0_bits, uint8_t **out, size_t *out_len,
                                  size_t *bad_index);

/* ------------------------------------------------------------------------ */
/* Record stream (§10)                                                      */
/* ------------------------------------------------------------------------ */

/* Encodes the stream: ceil(E/8) bytes (zero padding) into *out (malloc'd;
 * NULL when E = 0) and E into *extent_bits. Errors as for the KV03 encoder
 * (no policy). */
rsv_status rsv_oracle_stream_encode(const rsv_oracle_record *records, size_t n,
                                    const uint8_t *c0, uint64_t c0_bits, uint8_t **out,
                                    uint64_t *extent_bits, size_t *bad_index);

typedef struct rsv_oracle_stream_result {
    rsv_status status;
    uint64_t record; /* index of the failing record */
    uint64_t bitpos; /* view position where the failing operation left the reader
                        (same conventions as KV03; SORT_BACKSPACE after the EG0;
                        the code-completing bits are read with take(n), so a
                        short stream gives RSV_ERR_TRUNCATED_SPAN with the
                        position unchanged; UNKNOWN_SELECTOR after those bits).
                        On success: record = count, bitpos = E. */
    rsv_oracle_records records; /* records fully decoded before the failure */
} rsv_oracle_stream_result;

/* Decodes a view of exactly E bits while position < E. */
rsv_status rsv_oracle_stream_decode(rsv_view v, const uint8_t *c0, uint64_t c0_bits,
                                    rsv_oracle_stream_result *res);
void rsv_oracle_stream_result_free(rsv_oracle_stream_result *res);

/* ------------------------------------------------------------------------ */
/* Merge (§11.2)                                                            */
/* ------------------------------------------------------------------------ */

typedef struct rsv_oracle_bytes {
    const uint8_t *data;
    size_t size;
} rsv_oracle_bytes;

typedef struct rsv_oracle_merge_result {
    rsv_status status;
    size_t input;          /* failing input for open/walk errors, the first
                              disagreeing input for MERGE_MISMATCH, else SIZE_MAX */
    rsv_oracle_phase phase; /* of that input's failure (OPEN, or SCAN step 3);
                               NONE for merge-level errors */
    unsigned step;
    uint64_t record;
    uint64_t bitpos;
    uint8_t *out;          /* the output file on success (malloc'd) */
    size_t out_len;
} rsv_oracle_merge_result;

/* Inputs oldest -> newest. Procedure (first failure wins):
 *  1. ninputs < 2 (or NULL pointers) -> RSV_ERR_INVALID_ARGUMENT;
 *  2. open (§9.1, no expected policy) every input in order;
 *  3. every input's (B kind, param, W, K) must equal input 0's, and every
 *     non-empty (N > 0) input's C0 must equal the first non-empty input's
 *     -> else RSV_ERR_MERGE_MISMATCH;
 *  4. walk (§3.3 + terminal, i.e. RSV_ORACLE_KV03_WALK) every input in order;
 *  5. newest binding wins per key; drop_tombstones != 0 removes keys whose
 *     newest binding is a tombstone;
 *  6. batch-encode the result with the common policy and C0 (all inputs
 *     empty, or everything dropped -> the empty file with that policy). */
rsv_status rsv_oracle_kv03_merge(const rsv_oracle_bytes *inputs, size_t ninputs,
                                 int drop_tombstones, rsv_oracle_merge_result *res);
void rsv_oracle_merge_result_free(rsv_oracle_merge_result *res);

#ifdef __cplusplus
}
#endif

/* Format revision v2 (multi-code) entry points. */
#include "reservoir/oracle_kv03_v2.h"

#endif
