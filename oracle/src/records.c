/* reservoir oracle — owned record lists, key order (KV03.md §1.1). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static void free_const(const uint8_t *p)
{
    free((void *)(uintptr_t)p); /* the list owns these copies */
}

void rsv_oracle_records_free(rsv_oracle_records *list)
{
    if (list == NULL)
        return;
    for (size_t i = 0; i < list->count; i++) {
        free_const(list->items[i].key);
        free_const(list->items[i].value);
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

static uint8_t *dup_bytes(const uint8_t *p, size_t n, int *fail)
{
    *fail = 0;
    if (n == 0)
        return NULL;
    uint8_t *q = malloc(n);
    if (q == NULL) {
        *fail = 1;
        return NULL;
    }
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
    int fail;
    uint8_t *k = dup_bytes(key, key_len, &fail);
    if (fail)
        return RSV_ERR_NOMEM;
    uint8_t *v = NULL;
    if (state == RSV_ORACLE_PRESENT) {
        v = dup_bytes(value, value_len, &fail);
        if (fail) {
            free(k);
            return RSV_ERR_NOMEM;
        }
    }
    rsv_status st = ob_records_push_owned(list, k, key_len, state, v,
                                          state == RSV_ORACLE_PRESENT ? value_len : 0);
    if (st != RSV_OK) {
        free(k);
        free(v);
    }
    return st;
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
