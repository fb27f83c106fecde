/* reservoir oracle — growable MSB-first bit writer. Codes are produced by the
 * phase-1 reference encoders ('0'/'1' strings) and appended bit by bit. The
 * unused low bits of the last byte stay zero (CODES.md §6.2 finish). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Implementation limit of the oracle writer: 2^40 bits (128 GiB). */
#define OB_MAX_BITS ((uint64_t)1 << 40)

void ob_bb_init(ob_bitbuf *bb)
{
    bb->bytes = NULL;
    bb->cap = 0;
    bb->nbits = 0;
    bb->err = RSV_OK;
}

void ob_bb_free(ob_bitbuf *bb)
{
    free(bb->bytes);
    ob_bb_init(bb);
}

static int reserve(ob_bitbuf *bb, uint64_t extra_bits)
{
    if (bb->err != RSV_OK)
        return 0;
    if (extra_bits > OB_MAX_BITS - bb->nbits) {
        bb->err = RSV_ERR_TOO_LARGE;
        return 0;
    }
    uint64_t need = ob_ceil_div(bb->nbits + extra_bits, 8);
    if (need <= bb->cap)
        return 1;
    uint64_t cap = bb->cap ? (uint64_t)bb->cap : 64;
    while (cap < need)
        cap *= 2;
    if (cap > SIZE_MAX) {
        bb->err = RSV_ERR_TOO_LARGE;
        return 0;
    }
    uint8_t *p = realloc(bb->bytes, (size_t)cap);
    if (p == NULL) {
        bb->err = RSV_ERR_NOMEM;
        return 0;
    }
    memset(p + bb->cap, 0, (size_t)cap - bb->cap);
    bb->bytes = p;
    bb->cap = (size_t)cap;
    return 1;
}

static void put_bit(ob_bitbuf *bb, unsigned bit)
{
    if (bit)
        bb->bytes[bb->nbits / 8] |= (uint8_t)(0x80u >> (unsigned)(bb->nbits % 8));
    bb->nbits++;
}

void ob_bb_bit(ob_bitbuf *bb, unsigned bit)
{
    if (!reserve(bb, 1))
        return;
    put_bit(bb, bit & 1u);
}

void ob_bb_chars(ob_bitbuf *bb, const char *chars, uint64_t n)
{
    if (!reserve(bb, n))
        return;
    for (uint64_t i = 0; i < n; i++)
        put_bit(bb, chars[i] == '1');
}

void ob_bb_fixed(ob_bitbuf *bb, uint64_t v, unsigned w)
{
    char s[65];
    uint64_t nbits;
    if (bb->err != RSV_OK)
        return;
    rsv_status st = rsv_oracle_encode_fixed(v, w, s, 64, &nbits);
    if (st != RSV_OK) {
        bb->err = st;
        return;
    }
    ob_bb_chars(bb, s, nbits);
}

void ob_bb_eg(ob_bitbuf *bb, uint64_t v, uint64_t k)
{
    char s[130];
    uint64_t nbits;
    if (bb->err != RSV_OK)
        return;
    rsv_status st = rsv_oracle_encode_eg(v, k, s, 129, &nbits);
    if (st != RSV_OK) {
        bb->err = st;
        return;
    }
    ob_bb_chars(bb, s, nbits);
}

void ob_bb_golomb(ob_bitbuf *bb, uint64_t v, uint64_t m)
{
    uint64_t len;
    if (bb->err != RSV_OK)
        return;
    rsv_status st = rsv_oracle_golomb_length(v, m, &len);
    if (st != RSV_OK) {
        bb->err = st;
        return;
    }
    if (len > OB_MAX_BITS - bb->nbits || len >= SIZE_MAX) {
        bb->err = RSV_ERR_TOO_LARGE;
        return;
    }
    /* Most codes are short: their characters on the stack (a malloc per
     * code was the oracle writer's most frequent allocation under fuzzing). */
    char small[256];
    char *s = len < sizeof small ? small : malloc((size_t)len + 1);
    if (s == NULL) {
        bb->err = RSV_ERR_NOMEM;
        return;
    }
    uint64_t nbits;
    st = rsv_oracle_encode_golomb(v, m, s, (size_t)len, &nbits);
    if (st != RSV_OK)
        bb->err = st;
    else
        ob_bb_chars(bb, s, nbits);
    if (s != small)
        free(s);
}

void ob_bb_key_bits(ob_bitbuf *bb, const uint8_t *key, uint64_t from, uint64_t to)
{
    if (to <= from || !reserve(bb, to - from))
        return;
    for (uint64_t j = from; j < to; j++)
        put_bit(bb, ob_key_bit(key, j));
}

uint64_t ob_bb_value(ob_bitbuf *bb, const rsv_oracle_record *rec)
{
    uint64_t start = bb->nbits;
    if (rec->state == RSV_ORACLE_TOMBSTONE) {
        ob_bb_bit(bb, 0); /* tombstone: `0` */
    } else {
        ob_bb_bit(bb, 1);                          /* `1` */
        ob_bb_eg(bb, (uint64_t)rec->value_len, 0); /* EG0(n) */
        ob_bb_key_bits(bb, rec->value, 0, 8 * (uint64_t)rec->value_len); /* n bytes */
    }
    return bb->nbits - start;
}
