/* reservoir oracle — a position over a view; every data-stream bit goes
 * through the stateless phase-1 decoders (reservoir/oracle.h). Also the
 * §1.3 value decoder shared by the KV03 walk and the record stream. */
#include "internal.h"

static rsv_status finish(ob_cursor *cur, rsv_oracle_result r, uint64_t *value)
{
    cur->pos = r.pos; /* the §6.3 position, also on failure */
    if (value != NULL)
        *value = r.value;
    return r.status;
}

rsv_status ob_cur_read(ob_cursor *cur, uint64_t w, uint64_t *value)
{
    return finish(cur, rsv_oracle_read(cur->v, cur->pos, w), value);
}

rsv_status ob_cur_eg(ob_cursor *cur, uint64_t k, uint64_t *value)
{
    return finish(cur, rsv_oracle_read_eg(cur->v, cur->pos, k), value);
}

rsv_status ob_cur_golomb(ob_cursor *cur, uint64_t m, uint64_t *value)
{
    return finish(cur, rsv_oracle_read_golomb(cur->v, cur->pos, m), value);
}

rsv_status ob_cur_take(ob_cursor *cur, uint64_t n, rsv_view *sub)
{
    return finish(cur, rsv_oracle_take(cur->v, cur->pos, n, sub), NULL);
}

void ob_copy_view_bits(uint8_t *dst, uint64_t at, rsv_view sub, uint64_t nbits)
{
    for (uint64_t j = 0; j < nbits; j++) {
        rsv_oracle_result r = rsv_oracle_read(sub, j, 1); /* cannot fail: j < sub.len */
        if (r.value)
            dst[(at + j) / 8] |= (uint8_t)(0x80u >> (unsigned)((at + j) % 8));
    }
}

rsv_status ob_read_key_suffix(ob_cursor *cur, uint64_t kept, uint64_t *S, rsv_view *literal)
{
    rsv_status st = ob_cur_eg(cur, 0, S);
    if (st != RSV_OK)
        return st;
    st = ob_cur_take(cur, *S, literal);
    if (st != RSV_OK)
        return st;
    /* kept + S is evaluated mod 2^64 (8 divides 2^64, so mod 8 is exact). */
    if ((kept + *S) % 8 != 0)
        return RSV_ERR_KEY_ENDS_INSIDE_BYTE;
    return RSV_OK;
}

rsv_status ob_rebuild_key(rsv_oracle_records *owner, const uint8_t *prev, uint64_t kept,
                          rsv_view literal, uint64_t S, size_t key_len, uint8_t **key)
{
    *key = NULL;
    if (key_len == 0)
        return RSV_OK;
    int fail;
    uint8_t *k = ob_records_bytes(owner, key_len, &fail); /* zeroed */
    if (fail)
        return RSV_ERR_NOMEM;
    for (uint64_t j = 0; j < kept; j++)
        if (ob_key_bit(prev, j))
            k[j / 8] |= (uint8_t)(0x80u >> (unsigned)(j % 8));
    ob_copy_view_bits(k, kept, literal, S);
    *key = k;
    return RSV_OK;
}

rsv_status ob_read_value(ob_cursor *cur, rsv_oracle_records *owner,
                         rsv_oracle_value_state *state, uint8_t **bytes, size_t *n_out)
{
    uint64_t flag, n;
    rsv_status st;
    *state = RSV_ORACLE_TOMBSTONE;
    *bytes = NULL;
    *n_out = 0;
    /* §1.3: read(1) (RSV_ERR_TRUNCATED_FIELD at the end). */
    st = ob_cur_read(cur, 1, &flag);
    if (st != RSV_OK)
        return st;
    if (flag == 0)
        return RSV_OK; /* tombstone `0` */
    /* On `1`: n = EG0 (codec errors propagate). */
    st = ob_cur_eg(cur, 0, &n);
    if (st != RSV_OK)
        return st;
    /* n > floor(remaining / 8) -> TRUNCATED_VALUE (cursor stays after EG0). */
    if (n > (cur->v.len - cur->pos) / 8)
        return RSV_ERR_TRUNCATED_VALUE;
    /* Take 8n bits (cannot fail now). */
    rsv_view sub;
    st = ob_cur_take(cur, 8 * n, &sub);
    if (st != RSV_OK)
        return st;
    if (n > SIZE_MAX)
        return RSV_ERR_TOO_LARGE;
    int fail;
    uint8_t *buf = ob_records_bytes(owner, (size_t)n, &fail); /* zeroed, NULL for n = 0 */
    if (fail)
        return RSV_ERR_NOMEM;
    if (n > 0)
        ob_copy_view_bits(buf, 0, sub, 8 * n);
    *state = RSV_ORACLE_PRESENT;
    *bytes = buf;
    *n_out = (size_t)n;
    return RSV_OK;
}
