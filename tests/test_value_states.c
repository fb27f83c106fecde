/* The three value states as the record readers hand them out (kv03.h
 * rsv_kv03_cursor_record, stream.h rsv_stream_reader_next): a tombstone
 * and a present empty value both come back with data = NULL, whether the
 * value's position in the stream is byte-aligned or not (an empty value has
 * no bytes to borrow or copy); a present value with bytes comes back with
 * them. Records written here, expected values from the records themselves. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "reservoir/kv03.h"
#include "reservoir/stream.h"

/* key i: its index as 2 big-endian bytes, then i % 7 bytes 'z' (strictly
 * increasing; the varying lengths move the values across byte
 * alignments); every third value a tombstone, every fifth "xyz", the rest
 * empty */
#define NREC 40
static rsv_value rec_value(size_t i)
{
    if (i % 3 == 0) return rsv_value_tombstone();
    if (i % 5 == 0) return rsv_value_present("xyz", 3);
    return rsv_value_present(NULL, 0);
}
static size_t rec_key(size_t i, uint8_t *key)
{
    key[0] = (uint8_t)(i >> 8);
    key[1] = (uint8_t)i;
    for (size_t j = 0; j < i % 7; j++) key[2 + j] = 'z';
    return 2 + i % 7;
}

/* seen[0]: an empty value at a byte-aligned stream position, seen[1]: at an
 * unaligned one (the test needs both) */
static void check(size_t i, const uint8_t *key, size_t key_len, rsv_value v, rsv_value_span span, int seen[2])
{
    uint8_t want_key[16];
    size_t wl = rec_key(i, want_key);
    rsv_value want = rec_value(i);
    cr_assert_eq(key_len, wl, "record %zu key length", i);
    cr_assert_eq(memcmp(key, want_key, wl), 0, "record %zu key", i);
    cr_assert_eq(v.kind, want.kind, "record %zu kind", i);
    cr_assert_eq(v.len, want.len, "record %zu length", i);
    if (want.kind == RSV_VALUE_PRESENT && want.len) {
        cr_assert_not_null(v.data, "record %zu", i);
        cr_assert_eq(memcmp(v.data, want.data, want.len), 0, "record %zu value", i);
    } else {
        cr_assert_null(v.data, "record %zu: a %s has no data", i, want.kind ? "present empty value" : "tombstone");
    }
    if (want.kind == RSV_VALUE_PRESENT && !want.len) seen[(span.bytes.off & 7) != 0] = 1;
}

Test(value_states, stream_reader_empty_and_tombstone_data_null)
{
    rsv_writer w;
    rsv_writer_init(&w);
    rsv_stream_writer sw;
    cr_assert_eq(rsv_stream_writer_init(&sw, &w, NULL, 0), RSV_OK);
    uint8_t key[16];
    for (size_t i = 0; i < NREC; i++) {
        size_t kl = rec_key(i, key);
        cr_assert_eq(rsv_stream_writer_add(&sw, key, kl, rec_value(i)), RSV_OK, "add %zu", i);
    }
    uint64_t extent = rsv_stream_writer_extent(&sw);
    rsv_stream_reader sr;
    cr_assert_eq(rsv_stream_reader_init(&sr, rsv_view_make(rsv_writer_data(&w), 0, extent), NULL, 0), RSV_OK);
    int seen[2] = {0, 0}, more = 0;
    rsv_stream_record r;
    for (size_t i = 0; i < NREC; i++) {
        cr_assert_eq(rsv_stream_reader_next(&sr, &r, &more), RSV_OK, "record %zu", i);
        cr_assert_eq(more, 1);
        check(i, r.key, r.key_len, r.value, r.value_span, seen);
    }
    cr_assert_eq(rsv_stream_reader_next(&sr, &r, &more), RSV_OK);
    cr_assert_eq(more, 0);
    cr_assert(seen[0] && seen[1], "empty values at aligned (%d) and unaligned (%d) positions", seen[0], seen[1]);
    rsv_stream_reader_free(&sr);
    rsv_stream_writer_free(&sw);
    rsv_writer_free(&w);
}

Test(value_states, cursor_record_empty_and_tombstone_data_null)
{
    rsv_record recs[NREC];
    uint8_t keys[NREC][16];
    for (size_t i = 0; i < NREC; i++) {
        recs[i] = (rsv_record){0};
        recs[i].key = keys[i];
        recs[i].key_len = rec_key(i, keys[i]);
        recs[i].value = rec_value(i);
    }
    rsv_kv03_policy p = rsv_kv03_policy_default();
    uint8_t *file = NULL;
    size_t n = 0;
    cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, recs, NREC, &file, &n), RSV_OK);
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(file, n, NULL, &f), RSV_OK);
    rsv_kv03_cursor c;
    cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
    int seen[2] = {0, 0}, more = 0;
    rsv_kv03_entry e;
    for (size_t i = 0; i < NREC; i++) {
        cr_assert_eq(rsv_kv03_cursor_record(&c, &e, &more), RSV_OK, "record %zu", i);
        cr_assert_eq(more, 1);
        check(i, e.key, e.key_len, e.value, e.value_span, seen);
    }
    cr_assert_eq(rsv_kv03_cursor_record(&c, &e, &more), RSV_OK);
    cr_assert_eq(more, 0);
    cr_assert(seen[0] && seen[1], "empty values at aligned (%d) and unaligned (%d) positions", seen[0], seen[1]);
    rsv_kv03_cursor_free(&c);
    rsv_kv03_close(&f);
    free(file);
}
