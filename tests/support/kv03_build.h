/* Hand-built KV03 files for reader tests (format revision v2): the test
 * writes the data stream in the spec's bit notation and states the block
 * offsets, terminal length, dictionary codes and seeds it computed by hand;
 * this assembles sections, directory and envelope (KV03.md §4, §5, §7) and
 * seals both CRCs with the oracle's CRC32C. No writer is involved, so files
 * the writer cannot produce (multi-code files before the v2 writer, crafted
 * corruptions that change section lengths) can be read. The EF sections are
 * the canonical ones for the given offsets (rsv_ef_plan/rsv_ef_encode, which
 * the §12.3/§12.5 tests check against the spec's bytes). */
#ifndef RSV_KV03_BUILD_H
#define RSV_KV03_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "reservoir/kv03.h"

typedef struct rsv_kv03b_spec {
    rsv_kv03_policy policy;
    uint64_t N;
    const char *data;        /* section 0 in bit notation (testutil.h); extent = its length */
    const uint64_t *offsets; /* bit offset of each block's first record, ceil(N/W) of them */
    uint64_t terminal;       /* directory terminal key length */
    uint64_t cw;             /* header cw (flag bit 1 set iff cw_present) */
    int cw_present;
    const char *const *codes; /* m dictionary codes in bit notation (m = 0: none) */
    size_t m;
    const uint64_t *seeds; /* ceil(N/W) seeds, written with bitlen(m-1) bits each when m >= 2 */
} rsv_kv03b_spec;

/* The sealed file in a malloc'd buffer (free() it); 0 on success, -1 on a
 * notation error or allocation failure. */
int rsv_kv03b_build(const rsv_kv03b_spec *s, uint8_t **out, size_t *n);

/* Flip data-stream bit `bit` of a file (section 0 at file byte 288) and
 * reseal it. */
void rsv_kv03b_flip_data_bit(uint8_t *file, size_t n, uint64_t bit);

#endif
