/* reservoir oracle — internal helpers shared by the KV03 oracle sources. */
#ifndef RESERVOIR_ORACLE_INTERNAL_H
#define RESERVOIR_ORACLE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "reservoir/oracle.h"
#include "reservoir/oracle_kv03.h"

/* ---- little-endian words (envelope, directory, EF sections) ---- */
uint64_t ob_le_get(const uint8_t *p, unsigned nbytes);
void ob_le_put(uint8_t *p, uint64_t v, unsigned nbytes);

/* ---- small arithmetic ---- */
unsigned ob_bitlen(uint64_t x);          /* bitlen(0) = 0 */
uint64_t ob_ceil_div(uint64_t a, uint64_t b); /* b > 0, no overflow */
uint64_t ob_align8(uint64_t x);          /* x <= 2^64 - 8 */

/* Key bit j (MSB-first, byte 0 first). j < 8*len. Inline: every key and
 * code comparison of the oracle goes through it, one call per bit. */
static inline unsigned ob_key_bit(const uint8_t *key, uint64_t j)
{
    unsigned byte = key[j / 8];
    return (byte >> (7u - (unsigned)(j % 8))) & 1u;
}
/* Number of leading bits two byte strings share (KV03.md §1.1 lcp). */
uint64_t ob_lcp_bits(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen);

/* ---- bit writer: appends MSB-first bits through the phase-1 encoders ---- */
typedef struct ob_bitbuf {
    uint8_t *bytes;
    size_t cap;      /* bytes allocated */
    uint64_t nbits;  /* bits written */
    rsv_status err;  /* sticky first error (NOMEM / TOO_LARGE / codec rejection) */
} ob_bitbuf;

void ob_bb_init(ob_bitbuf *bb);
void ob_bb_free(ob_bitbuf *bb);
void ob_bb_bit(ob_bitbuf *bb, unsigned bit);
/* Appends a '0'/'1' string of n characters. */
void ob_bb_chars(ob_bitbuf *bb, const char *chars, uint64_t n);
void ob_bb_fixed(ob_bitbuf *bb, uint64_t v, unsigned w);
void ob_bb_eg(ob_bitbuf *bb, uint64_t v, uint64_t k);
void ob_bb_golomb(ob_bitbuf *bb, uint64_t v, uint64_t m);
/* Appends bits [from, to) of a byte string, MSB-first. */
void ob_bb_key_bits(ob_bitbuf *bb, const uint8_t *key, uint64_t from, uint64_t to);
/* Appends a §1.3 value; returns its width in bits. */
uint64_t ob_bb_value(ob_bitbuf *bb, const rsv_oracle_record *rec);

/* ---- reading cursor over a view, built only on the phase-1 decoders ----
 * Every operation sets cur->pos to the position the phase-1 decoder reports
 * (CODES.md §6.3 on failure). */
typedef struct ob_cursor {
    rsv_view v;
    uint64_t pos;
} ob_cursor;

rsv_status ob_cur_read(ob_cursor *cur, uint64_t w, uint64_t *value);
rsv_status ob_cur_eg(ob_cursor *cur, uint64_t k, uint64_t *value);
rsv_status ob_cur_golomb(ob_cursor *cur, uint64_t m, uint64_t *value);
rsv_status ob_cur_take(ob_cursor *cur, uint64_t n, rsv_view *sub);

/* Copies bits [0, nbits) of view `sub` (read one bit at a time with
 * rsv_oracle_read) into dst starting at dst bit `at` (dst pre-zeroed). */
void ob_copy_view_bits(uint8_t *dst, uint64_t at, rsv_view sub, uint64_t nbits);

/* The key suffix of §2.1/§2.2: S = EG0; literal = take(S);
 * (kept + S) mod 8 != 0 -> RSV_ERR_KEY_ENDS_INSIDE_BYTE (after the take).
 * Codec errors propagate at their position. */
rsv_status ob_read_key_suffix(ob_cursor *cur, uint64_t kept, uint64_t *S, rsv_view *literal);

/* K = prev bits [0, kept) || bits [0, S) of literal, as key_len bytes
 * (kept + S = 8 * key_len); *key is owned by `owner` (ob_records_bytes),
 * NULL when key_len = 0. RSV_ERR_NOMEM. */
rsv_status ob_rebuild_key(rsv_oracle_records *owner, const uint8_t *prev, uint64_t kept,
                          rsv_view literal, uint64_t S, size_t key_len, uint8_t **key);

/* Reads a §1.3 value at the cursor. On success *state is set, for present
 * values *bytes (owned by `owner`, NULL when n = 0) and *n are set. Errors:
 * codec errors of read(1)/EG0, RSV_ERR_TRUNCATED_VALUE (cursor after the
 * EG0), RSV_ERR_NOMEM. */
rsv_status ob_read_value(ob_cursor *cur, rsv_oracle_records *owner,
                         rsv_oracle_value_state *state, uint8_t **bytes, size_t *n);

/* Validates record fields: RSV_ERR_INVALID_ARGUMENT (NULL data with nonzero
 * length, bad state), RSV_ERR_TOO_LARGE (absurd lengths), else RSV_OK. */
rsv_status ob_check_records(const rsv_oracle_record *records, size_t n);

/* Checks that records[0..n-1] have strictly increasing keys. */
rsv_status ob_check_sorted(const rsv_oracle_record *records, size_t n, size_t *bad_index);

/* n zeroed bytes owned by the list (freed with it), NULL when n = 0 or when
 * out of memory (*fail = 1). Under ASan the bytes after them are poisoned, so
 * a read past a key's or a value's end is reported as with a malloc of its own. */
uint8_t *ob_records_bytes(rsv_oracle_records *list, size_t n, int *fail);

/* Pushes without copying: key and value are bytes of the list's own
 * (ob_records_bytes) or NULL. */
rsv_status ob_records_push_owned(rsv_oracle_records *list, uint8_t *key, size_t key_len,
                                 rsv_oracle_value_state state, uint8_t *value, size_t value_len);

/* ---- selector codes (selector.c) ---- */
unsigned ob_code_bit(rsv_oracle_code c, uint64_t j);
uint64_t ob_code_lcp(rsv_oracle_code a, rsv_oracle_code b);
int ob_code_is_prefix(rsv_oracle_code p, rsv_oracle_code c); /* equal counts */
int ob_code_equal(rsv_oracle_code a, rsv_oracle_code b);
/* Copies bits [from, from + nbits) of src into a new buffer (NULL if 0 bits). */
rsv_status ob_code_copy(rsv_oracle_code *dst, const uint8_t *src, uint64_t from, uint64_t nbits);
/* Appends a copy of bits [from, from + nbits) of src to the dictionary, which
 * must hold only codes pushed here (its capacity follows from m). */
rsv_status ob_dict_push(rsv_oracle_dict *d, const uint8_t *src, uint64_t from, uint64_t nbits);
/* Logical-key order of (ca || ka) and (cb || kb): <0, 0, >0. */
int ob_logical_cmp(rsv_oracle_code ca, const uint8_t *ka, size_t kalen, rsv_oracle_code cb,
                   const uint8_t *kb, size_t kblen);
/* A malloc'd copy of records[0..n-1] as coded records, every code = C0
 * (the v1 entry points). NULL on allocation failure. */
rsv_oracle_crecord *ob_with_code(const rsv_oracle_record *records, size_t n, const uint8_t *c0,
                                 uint64_t c0_bits);
/* Appends v to a malloc'd array holding `count` values, grown by this
 * function only (its capacity follows from count). */
rsv_status ob_u64_push(uint64_t **arr, size_t count, uint64_t v);

/* ---- KV03 decode internals (kv03_decode.c, kv03_walk.c, kv03_dict.c) ---- */
enum { OB_HDR = 96, OB_DIR = 192 };
uint64_t ob_sec_off(const uint8_t *body, unsigned i); /* section i offset (body-relative) */
uint64_t ob_sec_len(const uint8_t *body, unsigned i);
rsv_oracle_ef_view ob_ef_view_of(const uint8_t *file, const rsv_oracle_kv03_result *res);
rsv_status ob_fail_at(rsv_oracle_kv03_result *res, rsv_status st, rsv_oracle_phase ph,
                      unsigned step, uint64_t record, uint64_t bitpos);

/* §9.1 open; revision 1 applies check 29 (m >= 2 -> UNSUPPORTED_SELECTORS),
 * revision 2 does not. */
rsv_status ob_kv03_open(const uint8_t *file, size_t size, const rsv_oracle_kv03_policy *expected,
                        int revision, rsv_oracle_kv03_result *res);
rsv_status ob_kv03_load_c0(const uint8_t *file, rsv_oracle_kv03_result *res);

/* The dictionary after a successful open: m <= 1 -> [C0 = section 5] or [];
 * m >= 2 -> §6.3 steps 1-4 (on failure phase DICTIONARY, step = §6.3 step). */
rsv_status ob_kv03_read_dict(const uint8_t *file, rsv_oracle_kv03_result *res,
                             rsv_oracle_dict *dict);

/* What the §3.3 walk leaves for the rest of the scan. */
typedef struct ob_walk_out {
    uint64_t *block_offsets; /* bit offset of each block's first record */
    uint64_t nblocks;
    int widths_equal;        /* all value widths equal (N > 0) */
    uint64_t width0;         /* width of record 0's value */
    uint64_t *code_index;    /* per pushed record: dictionary index */
    unsigned char *used;     /* per dictionary code: some walked record has it */
} ob_walk_out;
void ob_walk_out_free(ob_walk_out *wo);

/* §3.3 steps 1-7 for records 0..N-1 and the terminal check (N > 0); failures
 * at phase SCAN, step 3. Records go to res->records. */
rsv_status ob_kv03_walk(const uint8_t *file, const rsv_oracle_dict *dict,
                        rsv_oracle_kv03_result *res, ob_walk_out *wo);

/* Open, dictionary and scan/walk as the mode says (both revisions). On
 * success or failure *dict and *code_index (may be NULL: not wanted) hold what
 * was read. */
rsv_status ob_kv03_decode(const uint8_t *file, size_t size, const rsv_oracle_kv03_policy *expected,
                          rsv_oracle_kv03_mode mode, int revision, rsv_oracle_kv03_result *res,
                          rsv_oracle_dict *dict, uint64_t **code_index);

/* The §11.1 output for records that passed the §11.1 checks. */
rsv_status ob_kv03_build(const rsv_oracle_crecord *records, size_t n,
                         const rsv_oracle_kv03_policy *policy, uint8_t **out, size_t *out_len);
/* §11.1 steps 1-3 for every record in order (revision 2 writers). */
rsv_status ob_check_coded(const rsv_oracle_crecord *records, size_t n, size_t *bad_index);
/* Field checks of ob_check_records applied to coded records, plus NULL code
 * bits with nbits > 0 -> RSV_ERR_INVALID_ARGUMENT. */
rsv_status ob_check_crecord_fields(const rsv_oracle_crecord *records, size_t n);

#endif
