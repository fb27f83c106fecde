/* rsv_value_span_borrow and rsv_value_span_copy (record.h): borrowing works
 * exactly for byte-aligned present values (a tombstone never borrows, an
 * empty present value borrows NULL), and a copy gives the value's bytes at
 * any bit offset. Expected bytes are written out by hand. The cursor's
 * single-record call keeps the same rule (kv03.h, rsv_kv03_cursor_record);
 * the stream reader's is checked in test_record_batch.c
 * (value_borrowed_or_copied). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reservoir/kv03.h"
#include "reservoir/record.h"

static rsv_value_span present(const uint8_t *data, uint64_t off, uint64_t len)
{
    rsv_value_span v = {RSV_VALUE_PRESENT, len, rsv_view_make(data, off, 8 * len), 0};
    return v;
}

Test(value_span, borrow)
{
    static const uint8_t data[4] = {0x12, 0x34, 0x56, 0x78};
    const uint8_t *p = (const uint8_t *)"sentinel";
    rsv_value_span tomb = {RSV_VALUE_TOMBSTONE, 0, rsv_view_make(NULL, 0, 0), 1};
    cr_assert_eq(rsv_value_span_borrow(&tomb, &p), 0);
    rsv_value_span v = present(data, 8, 2);
    cr_assert_eq(rsv_value_span_borrow(&v, &p), 1);
    cr_assert(p == data + 1);
    /* every bit offset 0..15 of a 1-byte value: borrowed exactly at 0 and 8 */
    for (uint64_t off = 0; off < 16; off++) {
        v = present(data, off, 1);
        p = NULL;
        int got = rsv_value_span_borrow(&v, &p);
        cr_assert_eq(got, off % 8 == 0, "a value at bit offset %llu: borrow %d", (unsigned long long)off, got);
        if (got) cr_assert(p == data + off / 8, "bit offset %llu: pointer off by %td", (unsigned long long)off,
                           p - data);
    }
    v = present(data, 5, 0);
    p = data;
    cr_assert_eq(rsv_value_span_borrow(&v, &p), 1);
    cr_assert(p == NULL);
}

Test(value_span, copy_unaligned)
{
    static const uint8_t data[4] = {0x12, 0x34, 0x56, 0x78};
    uint8_t out[4] = {0xEE, 0xEE, 0xEE, 0xEE};
    rsv_value_span v = present(data, 4, 2); /* bits 4..19: 0x23 0x45 */
    rsv_value_span_copy(&v, out);
    cr_assert_eq(out[0], 0x23);
    cr_assert_eq(out[1], 0x45);
}

/* rsv_kv03_cursor_record over a file of 40 records whose keys ("k0".."k39")
 * and values (1..40 bytes of 'a' + i) shift the value offsets through
 * every alignment: each present value's data is the file's own bytes at
 * value_span.bytes.off / 8 when that offset is a multiple of 8, else a
 * buffer outside the file; either way its bytes are the value written. Both
 * cases must occur. */
Test(value_span, cursor_record_borrows_aligned_values)
{
    rsv_kv03_policy pol = rsv_kv03_policy_default();
    rsv_kv03_writer w;
    cr_assert_eq(rsv_kv03_writer_init(&w, &pol, NULL, 0), RSV_OK);
    char key[8], val[40][40];
    for (int i = 0; i < 40; i++) {
        snprintf(key, sizeof key, "k%02d", i);
        memset(val[i], 'a' + i % 26, sizeof val[i]);
        cr_assert_eq(rsv_kv03_writer_add(&w, key, 3, rsv_value_present(val[i], (size_t)i + 1)), RSV_OK);
    }
    uint8_t *b;
    size_t n;
    cr_assert_eq(rsv_kv03_writer_finish(&w, &b, &n), RSV_OK);
    rsv_kv03_writer_free(&w);
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(b, n, NULL, &f), RSV_OK);
    rsv_kv03_cursor c;
    cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
    int seen[2] = {0, 0}, more = 1;
    for (size_t i = 0;; i++) {
        rsv_kv03_entry e;
        cr_assert_eq(rsv_kv03_cursor_record(&c, &e, &more), RSV_OK);
        if (!more) break;
        cr_assert(i < 40 && e.value.kind == RSV_VALUE_PRESENT && e.value.len == i + 1);
        cr_assert(memcmp(e.value.data, val[i], i + 1) == 0, "record %zu: wrong value bytes", i);
        uint64_t off = e.value_span.bytes.off;
        int aligned = off % 8 == 0;
        seen[aligned]++;
        if (aligned)
            cr_assert(e.value.data == e.value_span.bytes.data + off / 8,
                      "record %zu: the value at bit %llu is not borrowed", i, (unsigned long long)off);
        else
            cr_assert(e.value.data < b || e.value.data >= b + n, "record %zu: a copied value points into the file", i);
    }
    cr_assert(seen[0] > 0 && seen[1] > 0, "aligned %d, unaligned %d: both cases needed", seen[1], seen[0]);
    rsv_kv03_cursor_free(&c);
    free(b);
}

/* record.h, rsv_put_value_span: RSV_ERR_INVALID_ARGUMENT when 8 * len
 * "differs from v->bytes.len"; the KV03 writer's span adds write values
 * through the same rule (kv03.h, rsv_kv03_writer_add_span), whichever of its
 * framing paths takes the record. Spans of len 2 with 15 and 17 bits, and
 * len 1 with 16 bits: INVALID_ARGUMENT from both, nothing written by
 * rsv_put_value_span, and the KV03 writer poisoned at record 1 (after a
 * good record "a"). The same spans made consistent are accepted. */
Test(value_span, a_span_whose_bits_disagree_with_its_length_is_refused)
{
    static const uint8_t bytes[4] = {0xA5, 0x5A, 0xC3, 0x3C};
    static const struct { uint64_t len, bits; } bad[3] = {{2, 15}, {2, 17}, {1, 16}};
    for (int i = 0; i < 3; i++) {
        rsv_value_span v = {RSV_VALUE_PRESENT, bad[i].len, rsv_view_make(bytes, 1, bad[i].bits), 0};
        rsv_writer pw;
        rsv_writer_init(&pw);
        cr_assert_eq(rsv_put_value_span(&pw, &v), RSV_ERR_INVALID_ARGUMENT, "len %llu, %llu bits",
                     (unsigned long long)bad[i].len, (unsigned long long)bad[i].bits);
        cr_assert_eq(rsv_writer_bits(&pw), 0);
        rsv_writer_free(&pw);

        rsv_kv03_policy p = rsv_kv03_policy_default();
        rsv_kv03_writer w;
        cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
        cr_assert_eq(rsv_kv03_writer_add(&w, "a", 1, rsv_value_tombstone()), RSV_OK);
        rsv_status st = rsv_kv03_writer_add_span(&w, "b", 1, &v);
        cr_assert_eq(st, RSV_ERR_INVALID_ARGUMENT, "len %llu, %llu bits: %s", (unsigned long long)bad[i].len,
                     (unsigned long long)bad[i].bits, rsv_status_name(st));
        rsv_kv03_diag d = rsv_kv03_writer_diag(&w);
        cr_assert_eq(d.status, RSV_ERR_INVALID_ARGUMENT);
        cr_assert_eq(d.record, 1);
        cr_assert_eq(rsv_kv03_writer_add(&w, "c", 1, rsv_value_tombstone()), RSV_ERR_POISONED);
        rsv_kv03_writer_free(&w);

        /* the same bytes with a consistent length */
        v.bytes = rsv_view_make(bytes, 1, 8 * bad[i].len);
        cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
        cr_assert_eq(rsv_kv03_writer_add(&w, "a", 1, rsv_value_tombstone()), RSV_OK);
        cr_assert_eq(rsv_kv03_writer_add_span(&w, "b", 1, &v), RSV_OK);
        rsv_kv03_writer_free(&w);
    }
}
