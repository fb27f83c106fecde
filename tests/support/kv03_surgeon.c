/* KV03 file surgeon (kv03_surgeon.h). CRCs and the EF sections come from the
 * oracle, so a crafted file never depends on the codec under test. */
#include "kv03_surgeon.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reservoir/oracle_kv03.h"
#include "testutil.h"

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fprintf(stderr, "kv03_surgeon: out of memory\n");
        abort();
    }
    return q;
}

void rsv_sg_init(rsv_surgeon *s, const uint8_t *base, size_t n)
{
    s->b = xrealloc(NULL, n);
    if (n) memcpy(s->b, base, n);
    s->n = n;
}

void rsv_sg_free(rsv_surgeon *s)
{
    free(s->b);
    s->b = NULL;
    s->n = 0;
}

uint64_t rsv_sg_get(const rsv_surgeon *s, size_t off, unsigned width)
{
    uint64_t v = 0;
    for (unsigned i = width; i-- > 0;)
        if (off + i < s->n) v = (v << 8) | s->b[off + i];
        else v <<= 8;
    return v;
}

void rsv_sg_set(rsv_surgeon *s, size_t off, unsigned width, uint64_t v)
{
    for (unsigned i = 0; i < width; i++, v >>= 8)
        if (off + i < s->n) s->b[off + i] = (uint8_t)v;
}

void rsv_sg_xor(rsv_surgeon *s, size_t off, uint8_t mask)
{
    if (off < s->n) s->b[off] ^= mask;
}

void rsv_sg_resize(rsv_surgeon *s, size_t n)
{
    s->b = xrealloc(s->b, n);
    if (n > s->n) memset(s->b + s->n, 0, n - s->n);
    s->n = n;
}

void rsv_sg_set_body(rsv_surgeon *s, size_t body)
{
    rsv_sg_resize(s, 96 + body);
    rsv_sg_set(s, RSV_SG_EXTENT, 8, 8 * (uint64_t)body);
    rsv_sg_set(s, RSV_SG_TOTAL, 8, 96 + (uint64_t)body);
}

static size_t align8(size_t x) { return (x + 7) & ~(size_t)7; }

rsv_status rsv_sg_set_data(rsv_surgeon *s, const char *bits, uint64_t n_records, uint64_t terminal,
                           const uint64_t *block_bits, size_t nb)
{
    uint64_t e = rsv_count_bits(bits);
    if (e == UINT64_MAX) return RSV_ERR_INVALID_ARGUMENT;
    size_t dlen = (size_t)((e + 7) / 8);
    uint8_t *data = calloc(dlen ? dlen : 1, 1);
    if (!data) abort();
    rsv_parse_bits(bits, data, dlen ? dlen : 1, 0);

    uint64_t W = rsv_sg_get(s, RSV_SG_W, 4);
    uint64_t cw = (rsv_sg_get(s, RSV_SG_FLAGS, 4) & 2u) ? rsv_sg_get(s, RSV_SG_CW, 8) : 0;
    static const uint64_t one_block[1] = {0};
    if (!block_bits) {
        block_bits = one_block;
        nb = 1;
    }
    /* §4 entries: r_b = block offset − b·W·cw, r_nb = extent − N·cw */
    uint64_t *r = xrealloc(NULL, (nb + 1) * sizeof *r);
    for (size_t b = 0; b < nb; b++) r[b] = block_bits[b] - (uint64_t)b * W * cw;
    r[nb] = e - n_records * cw;
    rsv_oracle_ef ef;
    rsv_status st = rsv_oracle_ef_build(r, nb + 1, &ef);
    free(r);
    if (st != RSV_OK) {
        free(data);
        return st;
    }

    /* sections 5-7 keep their bytes */
    const uint8_t *keep[3];
    size_t keep_len[3];
    uint8_t *old = s->b;
    for (unsigned i = 5; i < 8; i++) {
        uint64_t o = rsv_sg_get(s, RSV_SG_SEC_OFF(i), 8), l = rsv_sg_get(s, RSV_SG_SEC_LEN(i), 8);
        keep[i - 5] = 96 + o + l <= s->n ? old + 96 + o : NULL;
        keep_len[i - 5] = keep[i - 5] ? (size_t)l : 0;
    }
    const uint8_t *src[8] = {data, ef.low, ef.high, ef.samples, ef.sparse, keep[0], keep[1], keep[2]};
    size_t len[8] = {dlen, ef.low_len, ef.high_len, ef.samples_len, ef.sparse_len,
                     keep_len[0], keep_len[1], keep_len[2]};
    size_t off[8], at = 192;
    for (unsigned i = 0; i < 8; i++) {
        off[i] = i ? align8(at) : 192;
        at = off[i] + len[i];
    }
    uint8_t *nb_ = xrealloc(NULL, 96 + at);
    memset(nb_, 0, 96 + at);
    memcpy(nb_, old, 96 + 192);
    for (unsigned i = 0; i < 8; i++)
        if (len[i]) memcpy(nb_ + 96 + off[i], src[i], len[i]);
    s->b = nb_;
    s->n = 96 + at;
    free(old);
    for (unsigned i = 0; i < 8; i++) {
        rsv_sg_set(s, RSV_SG_SEC_OFF(i), 8, off[i]);
        rsv_sg_set(s, RSV_SG_SEC_LEN(i), 8, len[i]);
    }
    rsv_sg_set(s, RSV_SG_D_EXTENT, 8, e);
    rsv_sg_set(s, RSV_SG_D_TERMINAL, 8, terminal);
    rsv_sg_set(s, RSV_SG_D_U, 8, ef.U);
    rsv_sg_set(s, RSV_SG_D_L, 1, ef.L);
    rsv_sg_set(s, RSV_SG_N, 8, n_records);
    rsv_sg_set(s, RSV_SG_EXTENT, 8, 8 * (uint64_t)at);
    rsv_sg_set(s, RSV_SG_TOTAL, 8, 96 + (uint64_t)at);
    rsv_oracle_ef_free(&ef);
    free(data);
    return RSV_OK;
}

void rsv_sg_flip_data_bit(rsv_surgeon *s, uint64_t i)
{
    uint64_t o = rsv_sg_get(s, RSV_SG_SEC_OFF(0), 8);
    rsv_sg_xor(s, (size_t)(96 + o + i / 8), (uint8_t)(0x80u >> (i % 8)));
}

void rsv_sg_reseal_header(rsv_surgeon *s)
{
    if (s->n < 96) return;
    uint8_t h[96];
    memcpy(h, s->b, 96);
    memset(h + RSV_SG_HDR_CRC, 0, 4);
    rsv_sg_set(s, RSV_SG_HDR_CRC, 4, rsv_oracle_crc32c(h, 96));
}

void rsv_sg_reseal(rsv_surgeon *s)
{
    if (s->n < 96) return;
    rsv_sg_set(s, RSV_SG_BODY_CRC, 4, rsv_oracle_crc32c(s->b + 96, s->n - 96));
    rsv_sg_reseal_header(s);
}
