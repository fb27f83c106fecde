/* The baseline ("previous reader") for the KV03 read workloads: the oracle
 * has no frame/cursor/stream-reader API, so these walkers are built here on
 * the oracle's stateless decoders only (rsv_oracle_read / _read_eg /
 * _read_golomb / _take / _skip, rsv_oracle_ef_select, rsv_oracle_key_compare):
 * every field is one stateless call that re-derives its position. They run
 * the same checks as the codec (KV03.md §3.3 steps 1–7 and the terminal
 * check, §10 for streams) and fold the same fields, so the checksums of both
 * sides are identical. Buffers are caller-owned (no allocation). Any decode
 * or check failure aborts through rsv_bench_fail. */
#ifndef RSV_BENCH_KV03_ORACLE_WALK_H
#define RSV_BENCH_KV03_ORACLE_WALK_H

#include <stdint.h>

#include "reservoir/kv03.h"
#include "reservoir/oracle_kv03.h"

/* The EF sections of an opened file, described for rsv_oracle_ef_select. */
rsv_oracle_ef_view kv03_oracle_ef_view(const rsv_kv03_file *f);

/* frames: fold (end, R, key bytes, value width) per record. */
uint64_t kv03_oracle_frames(const rsv_kv03_file *f, const rsv_oracle_ef_view *ef);

/* cursor: keys rebuilt in keybuf[0] / keybuf[1] alternately (each max_key
 * bytes), order-checked, values skipped; fold (key bytes, first key byte,
 * value width). */
uint64_t kv03_oracle_cursor(const rsv_kv03_file *f, const rsv_oracle_ef_view *ef,
                            uint8_t *const keybuf[2]);

/* records: the §10 stream decoded fully with C0 = `0`, keys into keybuf[0/1],
 * values into valbuf; fold (key bytes, last key byte, value bytes, last
 * value byte, end position). *count receives the number of records. */
uint64_t kv03_oracle_records(rsv_view stream, uint8_t *const keybuf[2], uint8_t *valbuf,
                             uint64_t *count);

#endif
