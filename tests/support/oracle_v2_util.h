/* Small helpers for the KV03 v2 oracle tests: codes from the spec's bit
 * notation, coded records, section addresses and CRC refresh. */
#ifndef RSV_ORACLE_V2_UTIL_H
#define RSV_ORACLE_V2_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "reservoir/oracle_kv03.h"

/* A code from the spec's notation ("10", "0^513"); the bits live in a static
 * pool that holds 64 codes of up to 1024 bits each (reused round-robin). */
rsv_oracle_code rsv_ov2_code(const char *notation);

/* A coded record: key = NUL-terminated string (NULL = empty key);
 * value NULL = tombstone, else present with strlen(value) bytes. */
rsv_oracle_crecord rsv_ov2_rec(const char *code, const char *key, const char *value);

/* Little-endian words (envelope, directory, section 6). */
uint64_t rsv_ov2_le(const uint8_t *p, unsigned nbytes);
void rsv_ov2_put_le(uint8_t *p, uint64_t v, unsigned nbytes);

/* File offset of section i (header + the directory's body offset). */
size_t rsv_ov2_section(const uint8_t *file, unsigned i);

/* Recompute the body CRC, then the header CRC (KV03.md §7) with the oracle's
 * bitwise CRC32C. */
void rsv_ov2_fix_crcs(uint8_t *file, size_t n);

/* 1 iff two codes have the same bits. */
int rsv_ov2_code_eq(rsv_oracle_code a, rsv_oracle_code b);

#endif
