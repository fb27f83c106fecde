/* Shared pieces of the KV03 fuzz targets (kv03_parse, kv03_parse_structured,
 * kv03_roundtrip, stream_roundtrip, merge_diff, stream_diff) and of their seed
 * generator.
 *
 * Input layout (consumption order from the END of the input, see
 * data_producer.h; fuzz/gen_corpus_kv03.c writes seeds with the mirror rules):
 *
 *   policy  u8 sel: bit 0 = backspace kind (0 EG, 1 Golomb);
 *             EG:     u8 k: 0..200 -> k % 64, else an invalid order (64 or 255)
 *             Golomb: params.h rsv_fuzz_modulus (1, small, 2^n, 2^64-1, u64, 0, ...)
 *           u8 w: 0..15 -> W = w + 1; 16..199 -> W = 15; else one of
 *             {2^32-1, u32 (0 allowed), 2^32, 0, 256, 4096, 2, 3}
 *           u8 k: 0..199 -> K = 2^(2 + k % 62) - 1; else one of
 *             {2^64-1, 15, 3, 0, 1, 2, 4, 2^63}
 *   code    u8 sel: < 128 -> C0 = `0` (c = 1); else u16 -> c = u16 % 513, then
 *           ceil(c/8) u8 code bytes (MSB-first)
 *   records u8 nsel: < 240 -> N = nsel % 48 records, each
 *             u8 keep (the kept prefix: keep % (|prev| + 1) bytes of the previous key)
 *             u8 add  (add % 9 new bytes), each: u8 mode, u8 b:
 *               mode % 4 = 0: b; 1: the byte at that position of prev XOR (1 << b % 8)
 *               (a difference inside a byte); 2: that byte + 1; 3: 0x00
 *             u8 vsel: vsel % 3 = 0 tombstone, 1 present-empty,
 *               2 present, u8 len % 33 bytes, each u8
 *           else bulk: N = 250 + 40 (nsel - 240) records with 2-byte keys 3i,
 *             value every 7th present (1 byte = i), others tombstones
 *             (the round-trip targets and merge_diff keep a prefix:
 *             rsv_kvf_recs_cap).
 *           Generated keys are sorted and deduplicated (the last value wins)
 *           unless the caller asks for the raw order.
 * Exhausted inputs read zeros, so every input is valid and deterministic. */
#ifndef RSV_FUZZ_KV03_FUZZ_H
#define RSV_FUZZ_KV03_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "data_producer.h"
#include "reservoir/kv03.h"
#include "reservoir/oracle_kv03.h"
#include "reservoir/record.h"

#define RSV_KVF_MAX_KEY 64      /* bytes; keep + add stays below */
#define RSV_KVF_MAX_VALUE 32    /* bytes per generated value */
#define RSV_KVF_MAX_RECORDS 47  /* non-bulk records per list */
#define RSV_KVF_BULK_SEL 240u   /* nsel >= this: bulk list */

/* Print "<target> MISMATCH: <message>" and abort (the fuzzer's finding). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
_Noreturn void rsv_kvf_fail(const char *target, const char *fmt, ...);

/* A generated record list in both APIs' shapes (same storage). */
typedef struct rsv_kvf_recs {
    size_t n;
    rsv_record *codec;         /* n entries */
    rsv_oracle_record *oracle; /* n entries */
    uint8_t *keys;             /* key bytes storage */
    uint8_t *vals;             /* value bytes storage */
    size_t *code_idx;          /* v2 (kv03_codes.h): each record's code index, else NULL */
} rsv_kvf_recs;

/* Policies in both shapes (the codec keeps W in u64, too). */
typedef struct rsv_kvf_policy {
    rsv_kv03_policy codec;
    rsv_oracle_kv03_policy oracle;
} rsv_kvf_policy;

typedef struct rsv_kvf_code {
    uint8_t bytes[RSV_KV03_MAX_CODE_BITS / 8 + 1];
    uint64_t bits;
} rsv_kvf_code;

void rsv_kvf_gen_policy(rsv_fuzz_producer *p, rsv_kvf_policy *out);
void rsv_kvf_policy_from_oracle(const rsv_oracle_kv03_policy *o, rsv_kvf_policy *out);
void rsv_kvf_gen_code(rsv_fuzz_producer *p, rsv_kvf_code *out);
/* The same with the selector byte `sel` already read. */
void rsv_kvf_gen_code_sel(rsv_fuzz_producer *p, uint8_t sel, rsv_kvf_code *out);
/* sorted != 0: sort by key and drop duplicates (the later one wins). */
void rsv_kvf_gen_records(rsv_fuzz_producer *p, int sorted, rsv_kvf_recs *out);
/* The same, generating at most bulk_max records of a bulk list (its first
 * bulk_max; a bulk list's records do not depend on its length), so that a
 * caller that keeps a prefix of at most bulk_max (rsv_kvf_recs_cap) does not
 * allocate and fill the rest: up to 850 records of four arrays, whose fresh
 * pages (ASan's quarantine recycles no memory for a long time) cost page
 * faults and malloc fills on every bulk input. Consumes the same input
 * bytes as rsv_kvf_gen_records. */
void rsv_kvf_gen_records_max(rsv_fuzz_producer *p, int sorted, size_t bulk_max, rsv_kvf_recs *out);
/* The largest rsv_kvf_quadratic_cap: the bulk_max of callers of rsv_kvf_recs_cap. */
#define RSV_KVF_CAP_MAX 96u
/* A cap on a bulk list (250-850 records) for the round-trip targets
 * (common/kv03_rt.h) and merge_diff.
 * Every record costs about 20 us of checking per input under ASan+UBSan
 * (some 13 encode/decode passes, half of them the oracle's bit-at-a-time
 * ones, whose logical-key compares read up to |C| code bits each), so a bulk
 * input cost as much as ten normal ones, and bulk inputs (a quarter of a
 * grown corpus) took more than half of kv03_roundtrip's fuzzing time.
 * rsv_kvf_recs_cap keeps the first rsv_kvf_quadratic_cap(code_bits) records
 * (never fewer than RSV_KVF_MAX_RECORDS, so only bulk lists shrink): the
 * largest n with n² · max(code_bits, 16) <= 96² · 16, i.e. 96 records for
 * codes of up to 16 bits, 67 for 32, 48 for 64 and 47 beyond (the square
 * keeps the budget's old shape, from when the oracle's §11.1 selector check
 * compared every record's code with every earlier one's). 96 records still
 * change the key's high byte (keys 3i, i >= 86) and give W = 1 files of 96
 * blocks; no capped list had more than 256 blocks (a second EF sample group)
 * before either (the cap was 250). The checks on the kept records are
 * unchanged. Call it before rsv_kvf_assign_codes (which reads one byte per
 * record). */
size_t rsv_kvf_quadratic_cap(uint64_t code_bits);
void rsv_kvf_recs_cap(rsv_kvf_recs *r, uint64_t code_bits);

/* Copy an oracle list (e.g. a decoded file) into an owned rsv_kvf_recs. */
void rsv_kvf_recs_from_oracle(const rsv_oracle_records *in, rsv_kvf_recs *out);
void rsv_kvf_recs_free(rsv_kvf_recs *r);

/* Recompute the body CRC (bytes 96..n) and then the header CRC (bytes 0..95,
 * 68..71 as zero) with the oracle's CRC32C; no-op for n < 96. */
void rsv_kvf_reseal(uint8_t *file, size_t n);

/* Compare a decoded record (key, state, value bytes) with an expected one;
 * returns NULL when equal, else what differs. */
const char *rsv_kvf_record_diff(const uint8_t *key, size_t key_len, rsv_value_kind kind,
                                const uint8_t *val, size_t val_len, const rsv_oracle_record *want);

/* Hex dump of up to 64 bytes to stderr. */
void rsv_kvf_dump(const char *what, const uint8_t *p, size_t n);

#endif
