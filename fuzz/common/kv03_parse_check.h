/* The KV03 file check of the fuzz targets (kv03_parse, kv03_parse_structured,
 * kv03_roundtrip): the comparison engine tests/support/kv03_diff.h
 * (rsv_kv03d_file) on bytes placed flush against the guard page, with the
 * bytes each codec call must not load poisoned. */
#ifndef RSV_FUZZ_KV03_PARSE_CHECK_H
#define RSV_FUZZ_KV03_PARSE_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "reservoir/record.h"

/* Treat data[0..size) as a KV03 file and compare the codec with the oracle
 * (everything rsv_kv03d_file compares, re-encode included). Aborts with
 * "<target> MISMATCH: ..." on any disagreement. */
void rsv_kvf_parse_check(const char *target, const uint8_t *data, size_t size);

/* The same for a file encoded from want[0..nwant): it must scan clean and
 * decode to want (keys, values, and codes where want[i].code is set). */
void rsv_kvf_file_check(const char *target, const uint8_t *data, size_t size, const rsv_record *want,
                        size_t nwant);

#endif
