/* KV03 file surgeon: edit a valid file field by field to craft inputs that
 * reach exactly one check (tests/test_status_reach*.c, their corpus seeds).
 *
 * Offsets are FILE offsets (the directory starts at file offset 96, KV03.md
 * §5.1 offsets + RSV_SG_DIR). Integers are little-endian (§7, §5.1). Nothing
 * here reseals implicitly: a row states whether its CRCs are recomputed
 * (rsv_sg_reseal: body CRC first, then the header CRC, as writers do, §7),
 * because "which CRC is wrong" is itself what some rows test. */
#ifndef RSV_KV03_SURGEON_H
#define RSV_KV03_SURGEON_H

#include <stddef.h>
#include <stdint.h>

#include "reservoir/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Header fields (§7). */
enum {
    RSV_SG_MAGIC = 0, RSV_SG_VERSION = 8, RSV_SG_HLEN = 10, RSV_SG_FLAGS = 12, RSV_SG_UNIT = 16,
    RSV_SG_CSUM = 17, RSV_SG_BSCODE = 18, RSV_SG_HRES = 19, RSV_SG_W = 20, RSV_SG_K = 24,
    RSV_SG_PWIDTH = 32, RSV_SG_CW = 40, RSV_SG_EXTENT = 48, RSV_SG_N = 56, RSV_SG_BODY_CRC = 64,
    RSV_SG_HDR_CRC = 68, RSV_SG_BODY_OFF = 72, RSV_SG_TOTAL = 80, RSV_SG_BSPARAM = 88
};
/* Directory fields (§5.1), as file offsets. */
#define RSV_SG_DIR(off) (96u + (off))
enum {
    RSV_SG_D_MAGIC = 96, RSV_SG_D_REV = 100, RSV_SG_D_COUNT = 102, RSV_SG_D_EXTENT = 104,
    RSV_SG_D_TERMINAL = 112, RSV_SG_D_U = 120, RSV_SG_D_DICT = 128, RSV_SG_D_SEEDS = 136,
    RSV_SG_D_L = 144
};
#define RSV_SG_SEC_OFF(i) (96u + 64u + 16u * (unsigned)(i))
#define RSV_SG_SEC_LEN(i) (96u + 72u + 16u * (unsigned)(i))

typedef struct rsv_surgeon {
    uint8_t *b;
    size_t n;
} rsv_surgeon;

/* A private copy of base[0..n). Aborts on allocation failure (tests only). */
void rsv_sg_init(rsv_surgeon *s, const uint8_t *base, size_t n);
void rsv_sg_free(rsv_surgeon *s);

/* Little-endian field of `width` bytes (1..8) at file offset `off`. */
uint64_t rsv_sg_get(const rsv_surgeon *s, size_t off, unsigned width);
void rsv_sg_set(rsv_surgeon *s, size_t off, unsigned width, uint64_t v);
/* Byte `off` ^= mask. */
void rsv_sg_xor(rsv_surgeon *s, size_t off, uint8_t mask);

/* File size n: cut or zero-extend. Header fields unchanged. */
void rsv_sg_resize(rsv_surgeon *s, size_t n);
/* Body of `body` bytes: resize the file to 96 + body and set the header's
 * body extent (8·body bits) and total (96 + body) to match (§7, open 16-17). */
void rsv_sg_set_body(rsv_surgeon *s, size_t body);

/* Replace section 0 by the data stream `bits` (testutil.h notation) and lay
 * every section out again (§5.2: section 0 at 192, each later one at the
 * previous end rounded up to 8; sections 5-7 keep their bytes): directory
 * extent, terminal, U = extent − N·cw, canonical L and EF sections (§4,
 * built by the oracle from the block offsets) and the header's N, body
 * extent and total. block_bits[0..nb) are the bit offsets of the block
 * starts (NULL: one block at 0); cw comes from the header fields as they
 * are. No CRC is touched. Returns RSV_OK or the oracle EF builder's error. */
rsv_status rsv_sg_set_data(rsv_surgeon *s, const char *bits, uint64_t n_records, uint64_t terminal,
                           const uint64_t *block_bits, size_t nb);

/* Data-stream bit i (MSB-first from section 0's first byte) ^= 1. */
void rsv_sg_flip_data_bit(rsv_surgeon *s, uint64_t i);

/* Body CRC32C, then header CRC32C (§7), computed by the oracle. */
void rsv_sg_reseal(rsv_surgeon *s);
/* Header CRC32C only (the body CRC field is kept as it is). */
void rsv_sg_reseal_header(rsv_surgeon *s);

#ifdef __cplusplus
}
#endif
#endif
