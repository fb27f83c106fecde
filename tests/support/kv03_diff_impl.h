/* Internals shared by the KV03 comparison engine's files (kv03_diff.c:
 * streams, round trips, merges; kv03_diff_file.c: files). Not for callers. */
#ifndef RSV_KV03_DIFF_IMPL_H
#define RSV_KV03_DIFF_IMPL_H

#include "kv03_diff.h"
#include "testutil.h"

typedef unsigned long long rsv_kv03d_ull;

/* Record the first disagreement in rep->msg; always returns 0 so callers can
 * `return rsv_kv03d_fail(...)`. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
int rsv_kv03d_fail(rsv_kv03d_report *rep, const char *fmt, ...);

static inline const char *rsv_kv03d_sn(rsv_status s) { return rsv_status_name((int)s); }

/* Walk-error positions (kv03_diff.h): for TERMINAL_MISMATCH the codec
 * names the last record, N - 1, the oracle N; bits agree. The one place this
 * mapping lives: rsv_kv03d_same_pos compares, rsv_kv03d_oracle_record
 * converts a codec record for reports. */
static inline int rsv_kv03d_same_pos(rsv_status st, uint64_t codec_record, uint64_t codec_bit,
                                     uint64_t oracle_record, uint64_t oracle_bit)
{
    uint64_t want = st == RSV_ERR_TERMINAL_MISMATCH && oracle_record > 0 ? oracle_record - 1 : oracle_record;
    return codec_record == want && codec_bit == oracle_bit;
}
static inline uint64_t rsv_kv03d_oracle_record(rsv_status st, uint64_t codec_record)
{
    return st == RSV_ERR_TERMINAL_MISMATCH ? codec_record + 1 : codec_record;
}

/* Codec key + value (value bytes compared only when `bytes`) vs an oracle
 * record: 1 when equal. */
int rsv_kv03d_same_record(const uint8_t *key, size_t key_len, rsv_value_kind kind, size_t vlen,
                          const uint8_t *vdata, int bytes, const rsv_oracle_record *o);

/* record.h: a tombstone's span is 1 bit wide with len 0 and the empty view
 * {NULL, 0, 0} as its bytes (rsv_read_value's, so every decode path gives
 * the same span). NULL when v is such a span, else what differs. */
const char *rsv_kv03d_tombstone_span(const rsv_value_span *v);

/* got == want[0..nwant): keys and three-state values. */
int rsv_kv03d_want_equal(const rsv_oracle_records *got, const rsv_record *want, size_t nwant,
                         rsv_kv03d_report *rep, const char *what);

/* The harness hooks around codec calls that may read only [lo, hi): the
 * caller's narrow hook (a fuzz target poisons the rest) and, in
 * RSV_LOAD_CHECK builds, nothing else (load windows are per call). */
void rsv_kv03d_narrow(const rsv_kv03d_report *rep, const uint8_t *lo, const uint8_t *hi);
void rsv_kv03d_widen(const rsv_kv03d_report *rep);

#endif
