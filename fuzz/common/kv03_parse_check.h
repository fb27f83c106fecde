/* The kv03_parse check, shared by the kv03_parse and kv03_parse_structured
 * targets (same checks, different mutators). */
#ifndef RSV_FUZZ_KV03_PARSE_CHECK_H
#define RSV_FUZZ_KV03_PARSE_CHECK_H

#include <stddef.h>
#include <stdint.h>

/* Treat data[0..size) as a KV03 file and compare the codec with the oracle
 * (open, expected-policy open, frames/cursor/records walks, scan, re-encode).
 * Aborts with "<target> MISMATCH: ..." on any disagreement. */
void rsv_kvf_parse_check(const char *target, const uint8_t *data, size_t size);

#endif
