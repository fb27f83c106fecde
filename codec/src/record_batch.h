/* Private: the parts of the record batch (reservoir/record_batch.h) shared by
 * the KV03 cursor and the stream reader: argument checks, the arena fit test
 * made before a record is stored, and the store into the caller's arrays. */
#ifndef RSV_RECORD_BATCH_PRIV_H
#define RSV_RECORD_BATCH_PRIV_H

#include <string.h>

#include "reservoir/record_batch.h"

#include "bits_fast.h"

static inline rsv_status rsv__batch_args(const rsv_record_batch *b, size_t n)
{
    if (!b) return RSV_ERR_INVALID_ARGUMENT;
    if (n == 0) return RSV_OK;
    if (!b->key_off || !b->key_len || !b->kind || !b->val_len) return RSV_ERR_INVALID_ARGUMENT;
    if ((!b->key_arena && b->key_cap) || (!b->val_arena && b->val_cap)) return RSV_ERR_INVALID_ARGUMENT;
    return RSV_OK;
}

/* Start of a call: results cleared (the arenas are filled from 0). */
static inline void rsv__batch_begin(rsv_record_batch *b)
{
    b->key_used = b->val_used = 0;
    b->stop = RSV_BATCH_STOP_COUNT;
    b->need = 0;
}

/* Does a record with a key of key_bytes bytes and value v fit in what is
 * left of the arenas? If not, b->stop and b->need say which and how much.
 * A value needs the value arena only when it is materialized, present,
 * nonempty and not byte-aligned (else it is borrowed or has no bytes). */
static inline int rsv__batch_fits(rsv_record_batch *b, uint64_t key_bytes, const rsv_value_span *v)
{
    if (RSV_UNLIKELY(key_bytes > b->key_cap - b->key_used)) {
        b->stop = RSV_BATCH_STOP_KEY_ARENA;
        b->need = (size_t)key_bytes;
        return 0;
    }
    if (b->val && v->kind == RSV_VALUE_PRESENT && (v->bytes.off & 7) && v->len > b->val_cap - b->val_used) {
        b->stop = RSV_BATCH_STOP_VALUE_ARENA;
        b->need = (size_t)v->len;
        return 0;
    }
    return 1;
}

/* Copy n bytes exactly (dst[0, n) only): short keys with two overlapping
 * word or half-word moves instead of a memcpy call. */
static inline void rsv__batch_copy(uint8_t *dst, const uint8_t *src, size_t n)
{
    if (n >= 8 && n <= 16) {
        uint64_t a, z;
        memcpy(&a, src, 8);
        memcpy(&z, src + n - 8, 8);
        memcpy(dst, &a, 8);
        memcpy(dst + n - 8, &z, 8);
    } else if (n >= 4 && n < 8) {
        uint32_t a, z;
        memcpy(&a, src, 4);
        memcpy(&z, src + n - 4, 4);
        memcpy(dst, &a, 4);
        memcpy(dst + n - 4, &z, 4);
    } else if (n && n < 4) {
        dst[0] = src[0];
        dst[n / 2] = src[n / 2];
        dst[n - 1] = src[n - 1];
    } else if (n) {
        memcpy(dst, src, n);
    }
}

/* Copy nbytes value bytes from stream bit sb to dst, writing dst[0, nbytes)
 * only (rsv__copy_bytes writes 7 bytes of slack: the caller's arena may
 * end at the value's last byte). All but the last up to 7 bytes by
 * rsv__copy_bytes, whose slack then ends at the value's end; those last
 * bytes from one window in a register, stored byte by byte (no load of
 * bytes just stored: no store-forwarding stall). Loads as
 * rsv__copy_bytes (from the value's first byte, below the stream's end
 * byte pend). */
static inline void rsv__batch_copy_exact(uint8_t *dst, const uint8_t *data, uint64_t sb, uint64_t nbytes,
                                         uint64_t pend)
{
    uint64_t head = nbytes > 7 ? nbytes - 7 : 0; /* writes dst[0, head + 7) = dst[0, nbytes) */
    rsv__copy_bytes(dst, data, sb, head, pend);
    uint64_t w = rsv__load_bits(data, sb + 8 * head, sb >> 3, pend); /* top 56 bits valid */
    for (uint64_t i = 0; head + i < nbytes; i++) dst[head + i] = (uint8_t)(w >> (56 - 8 * i));
}

/* Store record k (it fits): its key's place in the key arena, the value v
 * (bytes borrowed when byte-aligned, else copied into the value arena),
 * code and end. The key bytes are copied by rsv__batch_key one record later
 * (before the walker's buffer is overwritten, or when the call ends): the
 * walker has just stored them word by word at other offsets, and loading
 * them at once would stall on store forwarding. */
static inline void rsv__batch_key(rsv_record_batch *b, size_t k, const uint8_t *key)
{
    if (b->key_len[k]) rsv__batch_copy(b->key_arena + b->key_off[k], key, b->key_len[k]); /* the arena may be NULL */
}


static inline void rsv__batch_put(rsv_record_batch *b, size_t k, size_t key_len, const rsv_value_span *v,
                                  uint64_t code, uint64_t end, uint64_t pend)
{
    b->key_off[k] = b->key_used; /* the bytes: rsv__batch_key, later */
    b->key_len[k] = key_len;
    b->key_used += key_len;
    int present = v->kind == RSV_VALUE_PRESENT;
    b->kind[k] = (uint8_t)(present + (present & (v->len != 0))); /* TOMBSTONE 0, EMPTY 1, PRESENT 2 */
    b->val_len[k] = (size_t)v->len;
    if (b->val) {
        const uint8_t *d = NULL;
        if (present && v->len) {
            if ((v->bytes.off & 7) == 0) {
                d = v->bytes.data + (v->bytes.off >> 3);
            } else {
                uint8_t *dst = b->val_arena + b->val_used;
                rsv__batch_copy_exact(dst, v->bytes.data, v->bytes.off, v->len, pend);
                b->val_used += (size_t)v->len;
                d = dst;
            }
        }
        b->val[k] = d;
    }
    if (b->code) b->code[k] = code;
    if (b->end) b->end[k] = end;
}

#endif
