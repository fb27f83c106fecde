/* Finishing a KV03 writer: cw (§3.4), the EF entries (§4), dictionary and
 * seeds (§6.1), the body layout (§5) and the envelope with its CRCs (§7).
 * Writers fill every field, then the body CRC, then the header CRC. */
#include <stdlib.h>
#include <string.h>

#include "reservoir/crc32c.h"
#include "reservoir/kv03.h"

#include "bits.h"
#include "code_list.h"
#include "kv03_layout.h"
#include "kv03_sink.h"
#include "kv03_frame_parse.h"
#include "kv03_writer.h"

uint32_t rsv__kv03_header_crc(const uint8_t *hdr)
{
    uint32_t crc = rsv_crc32c(0, hdr, HDR_HEADER_CRC);
    crc = rsv__crc32c_zeros(crc, 4); /* the CRC field as zeros, without loading a constant */
    return rsv_crc32c(crc, hdr + HDR_HEADER_CRC + 4, RSV_KV03_HEADER_BYTES - HDR_HEADER_CRC - 4);
}

static uint64_t align8(uint64_t x) { return (x + 7) & ~(uint64_t)7; }

static rsv_status finish_fail(rsv_kv03_writer *w, rsv_status st)
{
    rsv__kv03_writer_abort(w, st);
    return st;
}

/* Section placement (§5): each section starts at the next multiple of 8
 * after the directory or the previous section. A bit position in the body
 * must fit in 64 bits, so every offset and the body end stay <= UINT64_MAX / 8
 * bytes; checked at each step, so no sum wraps. */
rsv_status rsv__kv03_place(const uint64_t len[8], uint64_t off[8], uint64_t *body)
{
    uint64_t end = RSV_KV03_DIRECTORY_BYTES;
    for (int i = 0; i < 8; i++) {
        if (end > UINT64_MAX / 8 - 7) return RSV_ERR_TOO_LARGE; /* align8(end) would pass the bound */
        off[i] = align8(end);
        if (len[i] > UINT64_MAX / 8 - off[i]) return RSV_ERR_TOO_LARGE;
        end = off[i] + len[i];
    }
    *body = end;
    return RSV_OK;
}

/* Everything finish needs besides the bytes themselves. The body is
 * [directory | section 0 | tail], tail = body[tail_start, body) holding the
 * gap after section 0 and sections 1–7; it is O(N/W) bytes. */
typedef struct layout {
    uint64_t N, extent, cw, m, dict_bits, terminal;
    uint64_t nb;        /* blocks */
    unsigned seed_w;    /* bits per seed: bitlen(m - 1) for m >= 2, else 0 */
    uint64_t seed_bits; /* nb * seed_w */
    int cw_present;
    rsv_ef_layout ef;
    uint64_t off[8], len[8];
    uint64_t tail_start, body, total;
} layout;

/* cw, the EF entries (rewritten in place over the block offsets: the writer
 * is finished or poisoned afterwards either way) and the section layout. */
static rsv_status plan(rsv_kv03_writer *w, layout *lay)
{
    uint64_t N = w->N, extent = rsv__kv03_writer_bits(w), W = w->policy.W;
    lay->N = N;
    lay->extent = extent;
    lay->cw_present = N == 0 || w->cw_uniform;
    uint64_t cw = lay->cw = (lay->cw_present && N) ? w->cw : 0;

    /* EF entries r_b = offset_b - b*W*cw, r_nb = extent - N*cw, rewritten in
     * place over the block offsets (one more slot for r_nb). Every record
     * holds its value, so offset_b >= b*W*cw and nothing underflows. */
    uint64_t nb = w->noffsets;
    uint64_t cap = w->offsets_cap;
    if (cap < nb + 1) {
        uint64_t *p = realloc(w->offsets, (size_t)(nb + 1) * sizeof *p);
        if (!p) return RSV_ERR_NOMEM;
        w->offsets = p;
        w->offsets_cap = nb + 1;
    }
    for (uint64_t b = 0; b < nb; b++) w->offsets[b] -= b * W * cw;
    w->offsets[nb] = extent - N * cw;
    rsv_status st = rsv_ef_plan(w->offsets, nb + 1, &lay->ef);
    if (st) return st;

    /* dictionary (§6.1): the codes in order of first appearance, kept by the
     * writer; seeds (§6.2): w = bitlen(m - 1) bits per block when m >= 2 */
    lay->m = N ? w->codes->m : 0;
    lay->dict_bits = N ? w->codes->nbits : 0;
    lay->terminal = N ? w->cur_bits + 8 * (uint64_t)w->prev_len : 0;
    lay->nb = nb;
    lay->seed_w = lay->m >= 2 ? rsv__bitlen64(lay->m - 1) : 0;
    if (lay->seed_w && nb > UINT64_MAX / lay->seed_w) return RSV_ERR_TOO_LARGE;
    lay->seed_bits = nb * lay->seed_w;
    uint64_t *len = lay->len, *off = lay->off;
    len[0] = rsv__ceil8(extent);
    len[1] = lay->ef.low_bytes;
    len[2] = lay->ef.high_bytes;
    len[3] = lay->ef.samples_bytes;
    len[4] = lay->ef.sparse_bytes;
    len[5] = rsv__ceil8(lay->dict_bits);
    len[6] = 8 * (lay->m + 1);
    len[7] = rsv__ceil8(lay->seed_bits);
    if ((st = rsv__kv03_place(len, off, &lay->body))) return st;
    lay->tail_start = off[0] + len[0];
    lay->total = RSV_KV03_HEADER_BYTES + lay->body;
#if SIZE_MAX < UINT64_MAX /* 32-bit size_t; on 64 bits total <= 288 + UINT64_MAX / 8 */
    if (lay->total > SIZE_MAX) return RSV_ERR_TOO_LARGE;
#endif
    return RSV_OK;
}

/* Header (CRC fields left zero) and directory into hd[0, 96 + 192), which
 * must be zeroed. */
static void fill_meta(const rsv_kv03_writer *w, const layout *lay, uint8_t *hd)
{
    uint8_t *h = hd, *d = hd + RSV_KV03_HEADER_BYTES;
    memcpy(d + DIR_MAGIC, "KV03", 4);
    rsv__put_le(d + DIR_REVISION, 3, 2);
    rsv__put_le(d + DIR_COUNT, 8, 2);
    rsv__put_le(d + DIR_EXTENT, lay->extent, 8);
    rsv__put_le(d + DIR_TERMINAL, lay->terminal, 8);
    rsv__put_le(d + DIR_UNIVERSE, lay->ef.U, 8);
    rsv__put_le(d + DIR_DICT_BITS, lay->dict_bits, 8);
    rsv__put_le(d + DIR_SEED_BITS, lay->seed_bits, 8);
    d[DIR_LOW_WIDTH] = (uint8_t)lay->ef.L;
    for (int i = 0; i < 8; i++) {
        rsv__put_le(d + DIR_SECTIONS + 16 * i, lay->off[i], 8);
        rsv__put_le(d + DIR_SECTIONS + 16 * i + 8, lay->len[i], 8);
    }

    memcpy(h + HDR_MAGIC, "EVRT.KV\0", 8);
    rsv__put_le(h + HDR_VERSION, 1, 2);
    rsv__put_le(h + HDR_LENGTH, RSV_KV03_HEADER_BYTES, 2);
    rsv__put_le(h + HDR_FLAGS, lay->cw_present ? FLAG_COMMON_WIDTH : 0, 4);
    h[HDR_UNIT] = 1;
    h[HDR_CHECKSUM] = 1;
    h[HDR_BACKSPACE] = (uint8_t)w->policy.code;
    rsv__put_le(h + HDR_W, w->policy.W, 4);
    rsv__put_le(h + HDR_K, w->policy.K, 8);
    rsv__put_le(h + HDR_CW, lay->cw, 8);
    rsv__put_le(h + HDR_BODY_EXTENT, 8 * lay->body, 8);
    rsv__put_le(h + HDR_N, lay->N, 8);
    rsv__put_le(h + HDR_BODY_OFFSET, RSV_KV03_HEADER_BYTES, 8);
    rsv__put_le(h + HDR_TOTAL, lay->total, 8);
    rsv__put_le(h + HDR_PARAM, w->policy.param, 8);
}

/* The tail body[tail_start, body) into t, which must be zeroed (gaps). */
static void fill_tail(const rsv_kv03_writer *w, const layout *lay, uint8_t *t)
{
    uint64_t base = lay->tail_start;
    rsv_ef_encode(w->offsets, &lay->ef, t + (lay->off[1] - base));
    if (!lay->m) return; /* N = 0: empty dictionary, offsets [0], no seeds */
    const rsv__codes *d = w->codes;
    if (lay->len[5]) memcpy(t + (lay->off[5] - base), d->bits, (size_t)lay->len[5]); /* zero padded */
    for (uint64_t j = 0; j <= lay->m; j++) rsv__put_le(t + (lay->off[6] - base) + 8 * j, d->ends[j], 8);
    /* seed_b = the code of record b·W, a w-bit field at bit b·w, MSB-first */
    uint8_t *seeds = t + (lay->off[7] - base);
    unsigned sw = lay->seed_w;
    uint64_t j = 0;
    for (uint64_t b = 0; sw && b < lay->nb; b++) {
        uint64_t s = rsv__codes_seed(d, b * w->policy.W, &j);
        for (unsigned k = 0; k < sw; k++) {
            uint64_t at = b * sw + k;
            if ((s >> (sw - 1 - k)) & 1u) seeds[at / 8] |= (uint8_t)(0x80u >> (at % 8));
        }
    }
}

static rsv_status assemble(rsv_kv03_writer *w, uint8_t **out, size_t *nbytes, int seal)
{
    if (!w || !out || !nbytes) return RSV_ERR_INVALID_ARGUMENT;
    if (w->diag.status) return RSV_ERR_POISONED;
    if (w->finished || w->sink) return RSV_ERR_STATE; /* a path writer has no in-memory result */
    /* Every in-memory writer keeps the header room (init sets data_at, or
     * poisons); a writer with none was never initialized. */
    if (!w->data_at) return RSV_ERR_STATE;
    layout lay;
    rsv_status st = plan(w, &lay);
    if (st) return finish_fail(w, st);
    size_t data_at = (size_t)(RSV_KV03_HEADER_BYTES + lay.off[0]), data_end = data_at + (size_t)lay.len[0];
    /* The stream already sits at its file offset: the buffer becomes the
     * file. It is resized only when too small for the tail or more than
     * half of it would be unused (the merge presizes it to the inputs'
     * total, 1.5 times the output for an overlap): shrinking every time
     * turned each output into a fresh mapping whose pages fault in again
     * (glibc: the next, larger request stays above the mmap threshold the
     * smaller free set), at ~50 ns per 512-byte record. The writer is
     * finished after this, its buffer handed out. */
    RSV_ASSERT(w->data_at == data_at && rsv_writer_nbytes(&w->data) == data_end);
    size_t cap = w->data.cap, total = (size_t)lay.total;
    uint8_t *f = cap < total || cap - total > total ? realloc(w->data.buf, total) : w->data.buf;
    if (!f) return finish_fail(w, RSV_ERR_NOMEM);
    w->data.buf = NULL;
    w->data.cap = 0;
    w->data.nbits = 0;
    w->data_at = 0;
    /* Zero everything but the data stream (its last byte's unused bits are
     * zero already); for 512-byte values clearing the whole file cost as
     * much as copying the stream. */
    uint8_t *d = f + RSV_KV03_HEADER_BYTES;
    memset(f, 0, data_at);
    memset(f + data_end, 0, (size_t)lay.total - data_end);
    fill_tail(w, &lay, d + lay.tail_start);
    fill_meta(w, &lay, f);
    if (seal) (void)rsv_kv03_seal(f, (size_t)lay.total); /* total >= 288: cannot fail */

    w->finished = 1;
    *out = f;
    *nbytes = (size_t)lay.total;
    return RSV_OK;
}

/* Path writer: the data stream is mostly in the temporary already; append
 * its buffered rest (zero padded), then the tail, and let the sink patch in
 * header and directory with their CRCs and publish the file. */
rsv_status rsv_kv03_writer_commit(rsv_kv03_writer *w)
{
    if (!w) return RSV_ERR_INVALID_ARGUMENT;
    if (w->diag.status) return RSV_ERR_POISONED;
    if (w->finished || !w->sink) return RSV_ERR_STATE;
    layout lay;
    rsv_status st = plan(w, &lay);
    if (st) return finish_fail(w, st);
    size_t rest = rsv_writer_nbytes(&w->data);
    if (rest && (st = rsv__sink_append(w->sink, rsv_writer_data(&w->data), rest)))
        return finish_fail(w, st);
    uint64_t ntail = lay.body - lay.tail_start; /* >= 8: section 6 is never empty */
    uint8_t *t = calloc(1, (size_t)ntail);
    if (!t) return finish_fail(w, RSV_ERR_NOMEM);
    fill_tail(w, &lay, t);
    st = rsv__sink_append(w->sink, t, (size_t)ntail);
    free(t);
    if (st) return finish_fail(w, st);
    uint8_t hd[RSV_KV03_HEADER_BYTES + RSV_KV03_DIRECTORY_BYTES] = {0};
    fill_meta(w, &lay, hd);
    struct rsv_kv03_sink *s = w->sink;
    w->sink = NULL; /* commit consumes the sink, success or not */
    st = rsv__sink_commit(s, hd, lay.total);
    if (st) return finish_fail(w, st);
    w->finished = 1;
    return RSV_OK;
}

rsv_status rsv_kv03_seal(uint8_t *file, size_t n)
{
    if (!file) return RSV_ERR_INVALID_ARGUMENT;
    if (n < RSV_KV03_HEADER_BYTES) return RSV_ERR_TRUNCATED_HEADER; /* nothing written */
    rsv__put_le(file + HDR_BODY_CRC, rsv_crc32c(0, file + RSV_KV03_HEADER_BYTES, n - RSV_KV03_HEADER_BYTES), 4);
    rsv__put_le(file + HDR_HEADER_CRC, rsv__kv03_header_crc(file), 4);
    return RSV_OK;
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
    if (w->sink && !w->diag.status && !w->finished) {
        if (strcmp(path, w->sink->path) != 0) return RSV_ERR_INVALID_ARGUMENT;
        return rsv_kv03_writer_commit(w);
    }
    uint8_t *bytes;
    size_t n;
    rsv_status st = rsv_kv03_writer_finish(w, &bytes, &n);
    if (st) return st;
    if (rsv__write_file_atomic(path, bytes, n) != 0) st = finish_fail(w, RSV_ERR_IO);
    free(bytes);
    return st;
}
