/* Finishing a KV03 writer: cw (§3.4), the EF entries (§4), dictionary and
 * seeds (§6.1), the body layout (§5) and the envelope with its CRCs (§7).
 * Writers fill every field, then the body CRC, then the header CRC. */
#include <stdlib.h>
#include <string.h>

#include "reservoir/crc32c.h"
#include "reservoir/kv03.h"

#include "kv03_layout.h"

uint32_t rsv__kv03_header_crc(const uint8_t *hdr)
{
    static const uint8_t zero4[4] = {0, 0, 0, 0};
    uint32_t crc = rsv_crc32c(0, hdr, HDR_HEADER_CRC);
    crc = rsv_crc32c(crc, zero4, 4);
    return rsv_crc32c(crc, hdr + HDR_HEADER_CRC + 4, RSV_KV03_HEADER_BYTES - HDR_HEADER_CRC - 4);
}

static uint64_t align8(uint64_t x) { return (x + 7) & ~(uint64_t)7; }

static rsv_status finish_fail(rsv_kv03_writer *w, rsv_status st)
{
    w->diag.status = st;
    w->diag.bit = rsv_writer_bits(&w->data);
    w->diag.record = w->N;
    return st;
}

static rsv_status assemble(rsv_kv03_writer *w, uint8_t **out, size_t *nbytes, int seal)
{
    if (!w || !out || !nbytes) return RSV_ERR_INVALID_ARGUMENT;
    if (w->diag.status) return RSV_ERR_POISONED;
    if (w->finished) return RSV_ERR_STATE;
    uint64_t N = w->N, extent = rsv_writer_bits(&w->data), W = w->policy.W;
    int cw_present = N == 0 || w->cw_uniform;
    uint64_t cw = (cw_present && N) ? w->cw : 0;

    /* EF entries r_b = offset_b - b*W*cw, r_nb = extent - N*cw, rewritten in
     * place over the block offsets (one more slot for r_nb). Every record
     * holds its value, so offset_b >= b*W*cw and nothing underflows. */
    uint64_t nb = w->noffsets;
    uint64_t cap = w->offsets_cap;
    if (cap < nb + 1) {
        uint64_t *p = realloc(w->offsets, (size_t)(nb + 1) * sizeof *p);
        if (!p) return finish_fail(w, RSV_ERR_NOMEM);
        w->offsets = p;
        w->offsets_cap = nb + 1;
    }
    for (uint64_t b = 0; b < nb; b++) w->offsets[b] -= b * W * cw;
    w->offsets[nb] = extent - N * cw;
    rsv_ef_layout ef;
    rsv_status st = rsv_ef_plan(w->offsets, nb + 1, &ef);
    if (st) return finish_fail(w, st);

    uint64_t m = N ? 1 : 0, dict_bits = N ? w->c : 0;
    uint64_t off[8], len[8];
    len[0] = rsv__ceil8(extent);
    len[1] = ef.low_bytes;
    len[2] = ef.high_bytes;
    len[3] = ef.samples_bytes;
    len[4] = ef.sparse_bytes;
    len[5] = rsv__ceil8(dict_bits);
    len[6] = 8 * (m + 1);
    len[7] = 0; /* seeds: 0 bits while m < 2 */
    uint64_t end = RSV_KV03_DIRECTORY_BYTES;
    for (int i = 0; i < 8; i++) {
        off[i] = align8(end);
        end = off[i] + len[i];
    }
    uint64_t body = end, total = RSV_KV03_HEADER_BYTES + body;
    if (total > SIZE_MAX || body > UINT64_MAX / 8) return finish_fail(w, RSV_ERR_TOO_LARGE);
    uint8_t *f = calloc(1, (size_t)total);
    if (!f) return finish_fail(w, RSV_ERR_NOMEM);
    uint8_t *h = f, *d = f + RSV_KV03_HEADER_BYTES;

    if (len[0]) memcpy(d + off[0], rsv_writer_data(&w->data), (size_t)len[0]); /* zero padded */
    rsv_ef_encode(w->offsets, &ef, d + off[1]);
    if (len[5]) memcpy(d + off[5], w->code, (size_t)len[5]);
    if (m) rsv__put_le(d + off[6] + 8, dict_bits, 8); /* offsets [0, c] */

    memcpy(d + DIR_MAGIC, "KV03", 4);
    rsv__put_le(d + DIR_REVISION, 3, 2);
    rsv__put_le(d + DIR_COUNT, 8, 2);
    rsv__put_le(d + DIR_EXTENT, extent, 8);
    rsv__put_le(d + DIR_TERMINAL, N ? w->c + 8 * (uint64_t)w->prev_len : 0, 8);
    rsv__put_le(d + DIR_UNIVERSE, ef.U, 8);
    rsv__put_le(d + DIR_DICT_BITS, dict_bits, 8);
    rsv__put_le(d + DIR_SEED_BITS, 0, 8);
    d[DIR_LOW_WIDTH] = (uint8_t)ef.L;
    for (int i = 0; i < 8; i++) {
        rsv__put_le(d + DIR_SECTIONS + 16 * i, off[i], 8);
        rsv__put_le(d + DIR_SECTIONS + 16 * i + 8, len[i], 8);
    }

    memcpy(h + HDR_MAGIC, "EVRT.KV\0", 8);
    rsv__put_le(h + HDR_VERSION, 1, 2);
    rsv__put_le(h + HDR_LENGTH, RSV_KV03_HEADER_BYTES, 2);
    rsv__put_le(h + HDR_FLAGS, cw_present ? FLAG_COMMON_WIDTH : 0, 4);
    h[HDR_UNIT] = 1;
    h[HDR_CHECKSUM] = 1;
    h[HDR_BACKSPACE] = (uint8_t)w->policy.code;
    rsv__put_le(h + HDR_W, W, 4);
    rsv__put_le(h + HDR_K, w->policy.K, 8);
    rsv__put_le(h + HDR_CW, cw, 8);
    rsv__put_le(h + HDR_BODY_EXTENT, 8 * body, 8);
    rsv__put_le(h + HDR_N, N, 8);
    rsv__put_le(h + HDR_BODY_OFFSET, RSV_KV03_HEADER_BYTES, 8);
    rsv__put_le(h + HDR_TOTAL, total, 8);
    rsv__put_le(h + HDR_PARAM, w->policy.param, 8);
    if (seal) rsv_kv03_seal(f, (size_t)total);

    w->finished = 1;
    *out = f;
    *nbytes = (size_t)total;
    return RSV_OK;
}

void rsv_kv03_seal(uint8_t *file, size_t n)
{
    rsv__put_le(file + HDR_BODY_CRC, rsv_crc32c(0, file + RSV_KV03_HEADER_BYTES, n - RSV_KV03_HEADER_BYTES), 4);
    rsv__put_le(file + HDR_HEADER_CRC, rsv__kv03_header_crc(file), 4);
}

rsv_status rsv_kv03_writer_finish(rsv_kv03_writer *w, uint8_t **out, size_t *nbytes)
{
    return assemble(w, out, nbytes, 1);
}

rsv_status rsv_kv03_writer_finish_unsealed(rsv_kv03_writer *w, uint8_t **out, size_t *nbytes)
{
    return assemble(w, out, nbytes, 0);
}

rsv_status rsv_kv03_writer_finish_path(rsv_kv03_writer *w, const char *path)
{
    if (!w || !path) return RSV_ERR_INVALID_ARGUMENT;
    uint8_t *bytes;
    size_t n;
    rsv_status st = rsv_kv03_writer_finish(w, &bytes, &n);
    if (st) return st;
    if (rsv__write_file_atomic(path, bytes, n) != 0) st = finish_fail(w, RSV_ERR_IO);
    free(bytes);
    return st;
}
