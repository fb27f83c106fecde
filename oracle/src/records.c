/* reservoir oracle — owned record lists, key order (KV03.md §1.1). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The keys' and values' bytes live in blocks owned by the list: one malloc
 * per block instead of one per key and one per value. Fuzz targets decode
 * dozens of records per input under ASan, where every malloc pays for a
 * stack trace, a fill and a quarantine slot (the oracle's per-record copies
 * were two thirds of `kv03_roundtrip`'s mallocs, docs/fuzzing.md round 5).
 * Each piece starts 8-aligned and is followed by at least 8 poisoned bytes,
 * so under ASan a read past its end is still reported at the first byte. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OB_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(OB_ASAN)
#define OB_ASAN 1
#endif
#ifdef OB_ASAN
#include <sanitizer/asan_interface.h>
#define OB_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define OB_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define OB_POISON(p, n) ((void)(p), (void)(n))
#define OB_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

struct rsv_oracle_bytes_block {
    struct rsv_oracle_bytes_block *next;
    size_t used, size;
    _Alignas(8) uint8_t bytes[]; /* size bytes */
};

enum { OB_GAP = 8, OB_FIRST_BLOCK = 512, OB_MAX_BLOCK = 64 * 1024 };

uint8_t *ob_records_bytes(rsv_oracle_records *list, size_t n, int *fail)
{
    *fail = 0;
    if (n == 0)
        return NULL;
    if (n > SIZE_MAX / 2) {
        *fail = 1;
        return NULL;
    }
    const size_t need = (n + 7) / 8 * 8 + OB_GAP;
    struct rsv_oracle_bytes_block *b = list->blocks;
    if (b == NULL || b->size - b->used < need) {
        size_t size = b == NULL ? OB_FIRST_BLOCK : b->size < OB_MAX_BLOCK ? 2 * b->size : b->size;
        if (size < need)
            size = need;
        if (size > SIZE_MAX - sizeof *b) {
            *fail = 1;
            return NULL;
        }
        b = calloc(1, sizeof *b + size); /* zeroed: keys are built by OR-ing bits in */
        if (b == NULL) {
            *fail = 1;
            return NULL;
        }
        b->size = size;
        b->next = list->blocks;
        list->blocks = b;
        OB_POISON(b->bytes, size);
    }
    uint8_t *p = b->bytes + b->used;
    b->used += need;
    OB_UNPOISON(p, n);
    return p;
}

void rsv_oracle_records_free(rsv_oracle_records *list)
{
    if (list == NULL)
        return;
    while (list->blocks != NULL) {
        struct rsv_oracle_bytes_block *b = list->blocks;
        list->blocks = b->next;
        OB_UNPOISON(b->bytes, b->size);
        free(b);
    }
    free(list->items);
    list->items = NULL;
    list->count = 0;
    list->cap = 0;
}

rsv_status ob_records_push_owned(rsv_oracle_records *list, uint8_t *key, size_t key_len,
                                 rsv_oracle_value_state state, uint8_t *value, size_t value_len)
{
    if (list->count == list->cap) {
        size_t cap = list->cap ? list->cap * 2 : 16;
        if (cap > SIZE_MAX / sizeof(rsv_oracle_record))
            return RSV_ERR_NOMEM;
        rsv_oracle_record *p = realloc(list->items, cap * sizeof(rsv_oracle_record));
        if (p == NULL)
            return RSV_ERR_NOMEM;
        list->items = p;
        list->cap = cap;
    }
    rsv_oracle_record *r = &list->items[list->count++];
    r->key = key;
    r->key_len = key_len;
    r->state = state;
    r->value = (state == RSV_ORACLE_PRESENT) ? value : NULL;
    r->value_len = (state == RSV_ORACLE_PRESENT) ? value_len : 0;
    return RSV_OK;
}

static uint8_t *dup_bytes(rsv_oracle_records *list, const uint8_t *p, size_t n, int *fail)
{
    uint8_t *q = ob_records_bytes(list, n, fail);
    if (q != NULL)
        memcpy(q, p, n);
    return q;
}

rsv_status rsv_oracle_records_push(rsv_oracle_records *list, const uint8_t *key, size_t key_len,
                                   rsv_oracle_value_state state, const uint8_t *value,
                                   size_t value_len)
{
    if (list == NULL || (key == NULL && key_len > 0) ||
        (state != RSV_ORACLE_TOMBSTONE && state != RSV_ORACLE_PRESENT) ||
        (state == RSV_ORACLE_PRESENT && value == NULL && value_len > 0))
        return RSV_ERR_INVALID_ARGUMENT;
    /* On failure the copies stay in the list's blocks, freed with it. */
    int fail;
    uint8_t *k = dup_bytes(list, key, key_len, &fail);
    if (fail)
        return RSV_ERR_NOMEM;
    uint8_t *v = NULL;
    if (state == RSV_ORACLE_PRESENT) {
        v = dup_bytes(list, value, value_len, &fail);
        if (fail)
            return RSV_ERR_NOMEM;
    }
    return ob_records_push_owned(list, k, key_len, state, v,
                                 state == RSV_ORACLE_PRESENT ? value_len : 0);
}

int rsv_oracle_key_compare(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
    size_t n = alen < blen ? alen : blen;
    for (size_t i = 0; i < n; i++) {
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1; /* unsigned bytes */
    }
    if (alen == blen)
        return 0;
    return alen < blen ? -1 : 1; /* a proper prefix is smaller */
}

int rsv_oracle_record_equal(const rsv_oracle_record *a, const rsv_oracle_record *b)
{
    if (rsv_oracle_key_compare(a->key, a->key_len, b->key, b->key_len) != 0)
        return 0;
    if (a->state != b->state)
        return 0;
    if (a->state == RSV_ORACLE_TOMBSTONE)
        return 1;
    if (a->value_len != b->value_len)
        return 0;
    return a->value_len == 0 || memcmp(a->value, b->value, a->value_len) == 0;
}

rsv_status ob_check_sorted(const rsv_oracle_record *records, size_t n, size_t *bad_index)
{
    for (size_t i = 1; i < n; i++) {
        if (rsv_oracle_key_compare(records[i - 1].key, records[i - 1].key_len, records[i].key,
                                   records[i].key_len) >= 0) {
            if (bad_index != NULL)
                *bad_index = i;
            return RSV_ERR_UNSORTED;
        }
    }
    return RSV_OK;
}
