/* KV03 cursor (KV03.md §3.3 steps 6–7 on top of the frame parse): the key is
 * rebuilt in place in one cursor-owned buffer — the new key shares its first
 * `local` bits with the previous one, so only the literal is compared (order
 * check) and then stored. Values are skipped, or materialized by
 * rsv_kv03_cursor_record (borrowed when byte-aligned, else copied into a
 * cursor-owned buffer). Buffers grow geometrically; once warm no record
 * allocates. */
#include <stdlib.h>
#include <string.h>

#include "reservoir/kv03.h"

#include "buffer.h"
#include "key_words.h"
#include "kv03_walk.h"

rsv_status rsv_kv03_cursor_init(rsv_kv03_cursor *c, const rsv_kv03_file *f)
{
    if (!c || !f) return RSV_ERR_INVALID_ARGUMENT;
    memset(c, 0, sizeof *c);
    rsv_status st = rsv_kv03_frames_init(&c->fw, f);
    c->fw.literal_words = 1; /* the key rebuild uses short literals as words */
    return st;
}

rsv_status rsv_kv03_cursor_reset(rsv_kv03_cursor *c, const rsv_kv03_file *f)
{
    if (!c || !f) return RSV_ERR_INVALID_ARGUMENT;
    uint8_t *key = c->key, *val = c->val;
    size_t key_cap = c->key_cap, val_cap = c->val_cap;
    rsv_status st = rsv_kv03_cursor_init(c, f);
    c->key = key, c->key_cap = key_cap, c->val = val, c->val_cap = val_cap;
    return st;
}

void rsv_kv03_cursor_free(rsv_kv03_cursor *c)
{
    if (!c) return;
    free(c->key);
    free(c->val);
    c->key = c->val = NULL;
    c->key_cap = c->val_cap = 0;
}

static rsv_status poison(rsv_kv03_cursor *c, rsv_status st, uint64_t record)
{
    c->diag.status = st;
    c->diag.bit = rsv_reader_position(&c->fw.r);
    c->diag.record = record;
    c->fw.diag = c->diag;
    return st;
}

static rsv_status step(rsv_kv03_cursor *c, rsv_kv03_entry *out, int *more, int materialize)
{
    if (!c || !out || !more) return RSV_ERR_INVALID_ARGUMENT;
    *more = 0;
    if (c->diag.status) return RSV_ERR_POISONED;
    const rsv_kv03_file *f = c->fw.f;
    if (c->fw.i >= f->N) return RSV_OK;
    uint64_t i = c->fw.i;
    uint64_t prev_logical = i == 0 ? f->dict_bits : f->dict_bits + 8 * (uint64_t)c->key_len;
    rsv_kv03_frame fr;
    rsv_status st = rsv__kv03_parse_frame(&c->fw, &fr);
    if (st) return poison(c, st, i);
    if (fr.retained > prev_logical) return poison(c, RSV_ERR_MISSING_PREFIX, i); /* step 6 */
    /* fr.local <= 8 * key_len now; compare literal with the old tail (step 7) */
    uint64_t tail_bits = 8 * (uint64_t)c->key_len - fr.local;
    int words = fr.literal_inline && tail_bits <= 64; /* the common short-literal case */
    if (i > 0) {
        int cmp = words ? rsv__compare_words(fr.literal_word, (unsigned)fr.literal.len,
                                        rsv__key_tail_word(c->key, c->key_len, fr.local), (unsigned)tail_bits)
                        : rsv_view_compare(fr.literal, rsv_view_make(c->key, fr.local, tail_bits));
        if (cmp <= 0) return poison(c, RSV_ERR_UNSORTED, i);
    }
    uint64_t nbytes = fr.key_bits / 8;
    st = rsv__grow_bytes(&c->key, &c->key_cap, nbytes ? nbytes : 1);
    if (st) return poison(c, st, i);
    if (fr.literal_inline)
        rsv__store_word(c->key, fr.key_bits, fr.literal_word, (unsigned)fr.literal.len);
    else
        rsv_bits_store(c->key, fr.local, fr.literal);
    c->key_len = (size_t)nbytes;
    if (c->fw.i == f->N) {
        st = rsv__kv03_terminal(&c->fw);
        if (st) return poison(c, st, i);
    }
    out->index = i;
    out->key = c->key;
    out->key_len = c->key_len;
    out->value_span = fr.value;
    out->end = fr.end;
    out->value.kind = fr.value.kind;
    out->value.len = (size_t)fr.value.len;
    out->value.data = NULL; /* skipped: the state and length are known, the bytes are not copied */
    if (materialize) {
        st = rsv__value_bytes(&fr.value, &c->val, &c->val_cap, &out->value.data);
        if (st) return poison(c, st, i);
    }
    *more = 1;
    return RSV_OK;
}

rsv_status rsv_kv03_cursor_next(rsv_kv03_cursor *c, rsv_kv03_entry *out, int *more)
{
    return step(c, out, more, 0);
}

rsv_status rsv_kv03_cursor_record(rsv_kv03_cursor *c, rsv_kv03_entry *out, int *more)
{
    return step(c, out, more, 1);
}
