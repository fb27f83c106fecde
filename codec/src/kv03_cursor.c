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
#include "bits_fast.h"
#include "kv03_frame_parse.h"
#include "record_batch.h"

rsv_status rsv_kv03_cursor_init(rsv_kv03_cursor *c, const rsv_kv03_file *f)
{
    if (!c || !f) return RSV_ERR_INVALID_ARGUMENT;
    memset(c, 0, sizeof *c);
    rsv_status st = rsv_kv03_frames_init(&c->fw, f);
    c->diag = c->fw.diag; /* a dictionary failure poisons the cursor too */
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

/* Make the key buffer hold `need` key bytes plus the word stores' slack. */
static rsv_status key_room(uint8_t **buf, size_t *cap, uint64_t need)
{
    return rsv__grow_bytes(buf, cap, need + RSV__STORE_SLACK);
}

/* §3.3 steps 1–7 of record c->fw.i (frame parse, prefix and order checks
 * against the previous key); the key is not stored yet and the terminal
 * check is the caller's. On failure the cursor is poisoned (the single and
 * the batch calls share this, so their failures are the same). */
static RSV__ALWAYS_INLINE rsv_status check_record(rsv_kv03_cursor *c, rsv_kv03_frame *fr, uint64_t pend)
{
    uint64_t i = c->fw.i;
    uint64_t old_len = c->key_len, old_code = c->fw.code;
    if (RSV_UNLIKELY(!rsv__kv03_parse_fast(&c->fw, fr))) {
        rsv_status st = rsv__kv03_parse_generic(&c->fw, fr);
        if (st) return poison(c, st, i);
    }
    const uint8_t *src = fr->literal.data;
    uint64_t sb = fr->literal.off, S = fr->literal.len;
    if (RSV_LIKELY(i > 0 && fr->code == old_code)) { /* the record continues its code */
        /* Step 6: R <= cont_{i-1} = |C| + 8 key_len (|C| unchanged). Then
         * fr->local <= 8 * key_len: the keys share their first fr->local bits,
         * so step 7 compares the literal with the old key from there on. The
         * buffer holds key_len + RSV__STORE_SLACK bytes whenever key_len > 0. */
        if (fr->retained > c->fw.code_bits + 8 * old_len) return poison(c, RSV_ERR_MISSING_PREFIX, i);
        if (!rsv__key_greater(c->key, old_len, fr->local, S, src, sb, pend)) return poison(c, RSV_ERR_UNSORTED, i);
    } else { /* record 0 or a code change: the key starts fresh (local = 0) */
        if (fr->retained > c->fw.code_bits) return poison(c, RSV_ERR_MISSING_PREFIX, i); /* step 6: R <= |C| */
        if (i > 0 && fr->code < old_code) return poison(c, RSV_ERR_UNSORTED, i); /* step 7: indices decide */
    }
    return RSV_OK;
}

/* Store the checked record's key in the cursor's buffer. */
static RSV__ALWAYS_INLINE rsv_status store_key(rsv_kv03_cursor *c, const rsv_kv03_frame *fr, uint64_t pend)
{
    uint64_t nbytes = fr->key_bits / 8;
    rsv_status st = key_room(&c->key, &c->key_cap, nbytes);
    if (st) return poison(c, st, fr->index);
    rsv__key_store(c->key, fr->local, fr->literal.len, fr->literal.data, fr->literal.off, pend);
    c->key_len = (size_t)nbytes;
    return RSV_OK;
}

static rsv_status step(rsv_kv03_cursor *c, rsv_kv03_entry *out, int *more, int materialize)
{
    if (!c || !out || !more) return RSV_ERR_INVALID_ARGUMENT;
    *more = 0;
    if (c->diag.status) return RSV_ERR_POISONED;
    const rsv_kv03_file *f = c->fw.f;
    if (c->fw.i >= f->N) return RSV_OK;
    uint64_t i = c->fw.i;
    uint64_t pend = rsv__stream_hi(f->data);
    rsv_kv03_frame fr;
    rsv_status st = check_record(c, &fr, pend);
    if (st) return st;
    st = store_key(c, &fr, pend);
    if (st) return st;
    if (RSV_UNLIKELY(c->fw.i == f->N)) {
        st = rsv__kv03_terminal(&c->fw);
        if (st) return poison(c, st, i);
    }
    out->index = i;
    out->key = c->key;
    out->key_len = c->key_len;
    out->value_span = fr.value;
    out->end = fr.end;
    out->code = fr.code;
    out->value.kind = fr.value.kind;
    out->value.len = (size_t)fr.value.len;
    out->value.data = NULL; /* skipped: the state and length are known, the bytes are not copied */
    if (materialize) {
        st = rsv__value_bytes(&fr.value, pend, &c->val, &c->val_cap, &out->value.data);
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

/* ---- batch (reservoir/record_batch.h) ------------------------------------ */

rsv_status rsv_kv03_cursor_batch(rsv_kv03_cursor *c, rsv_record_batch *out, size_t n, size_t *done)
{
    if (done) *done = 0;
    if (!c) return RSV_ERR_INVALID_ARGUMENT;
    rsv_status st = rsv__batch_args(out, n);
    if (st) return st;
    rsv__batch_begin(out);
    /* A local copy whose address does not escape: the byte stores into the
     * caller's arrays cannot alias it, so the arena offsets stay in
     * registers instead of being reloaded after every byte store. */
    rsv_record_batch lb = *out, *b = &lb;
    if (c->diag.status) {
        out->stop = RSV_BATCH_STOP_ERROR;
        return RSV_ERR_POISONED;
    }
    const rsv_kv03_file *f = c->fw.f;
    uint64_t pend = rsv__stream_hi(f->data);
    size_t k = 0;
    int pending = 0; /* record k-1's key is in c->key, not yet in the arena (checks only read c->key) */
    for (; k < n; k++) {
        if (RSV_UNLIKELY(c->fw.i >= f->N)) {
            b->stop = RSV_BATCH_STOP_END;
            break;
        }
        /* What a frame parse advances, for a record that does not fit: the
         * reader goes back to fr.start by a seek (no loads), the record
         * index to fr.index; next_block moved only if fr was a block start. */
        uint64_t cont0 = c->fw.cont_prev, code0 = c->fw.code, bits0 = c->fw.code_bits;
        rsv_kv03_frame fr;
        st = check_record(c, &fr, pend);
        if (RSV_LIKELY(!st) && RSV_UNLIKELY(c->fw.i == f->N)) {
            st = rsv__kv03_terminal(&c->fw);
            if (st) poison(c, st, fr.index);
        }
        if (RSV_UNLIKELY(st)) {
            b->stop = RSV_BATCH_STOP_ERROR;
            break;
        }
        if (RSV_UNLIKELY(!rsv__batch_fits(b, fr.key_bits / 8, &fr.value))) {
            rsv_reader_seek(&c->fw.r, fr.start); /* fr.start <= the position: cannot fail */
            c->fw.i = fr.index, c->fw.cont_prev = cont0, c->fw.code = code0, c->fw.code_bits = bits0;
            if (fr.block_start) c->fw.next_block = fr.index;
            break;
        }
        if (pending) rsv__batch_key(b, k - 1, c->key), pending = 0;
        st = store_key(c, &fr, pend);
        if (RSV_UNLIKELY(st)) {
            b->stop = RSV_BATCH_STOP_ERROR;
            break;
        }
        rsv__batch_put(b, k, c->key_len, &fr.value, fr.code, fr.end, pend);
        pending = 1;
    }
    if (pending) rsv__batch_key(b, k - 1, c->key);
    out->key_used = lb.key_used, out->val_used = lb.val_used, out->stop = lb.stop, out->need = lb.need;
    if (done) *done = k;
    return st;
}
