/* Reusable readers: rsv_kv03_scanner, rsv_kv03_cursor_reset and
 * rsv_stream_reader_reset keep their buffers between files, and every result
 * must equal a fresh object's: the spec's §12.3 records (KV03.md §12), the
 * §12.4 record-stream bits, and the scan errors of hand-corrupted copies. */
#include <criterion/criterion.h>
#include <string.h>

#include "reservoir/kv03.h"
#include "reservoir/stream.h"

#include "kv03_vectors.h"

/* One corrupted copy per scan step, each re-sealed so the CRCs pass:
 * padding after the 97 data bits (file byte 96+192+12) must be zero. */
static void corrupt_padding(uint8_t *f)
{
    f[96 + 192 + 12] |= 0x01;
    fix_crcs(f, 360);
}

Test(kv03_reuse, scanner_matches_fresh_scan_across_files)
{
    uint8_t good[360], bad[360], empty[320];
    memcpy(good, FILE_12_3, 360);
    memcpy(bad, FILE_12_3, 360);
    corrupt_padding(bad);
    memcpy(empty, FILE_EMPTY, 320);
    rsv_kv03_file fg, fb, fe;
    cr_assert_eq(rsv_kv03_open(good, 360, NULL, &fg), RSV_OK);
    cr_assert_eq(rsv_kv03_open(bad, 360, NULL, &fb), RSV_OK);
    cr_assert_eq(rsv_kv03_open(empty, 320, NULL, &fe), RSV_OK);
    rsv_kv03_scanner s;
    rsv_kv03_scanner_init(&s);
    const rsv_kv03_file *order[] = {&fg, &fb, &fe, &fg, &fb, &fg};
    const rsv_status want[] = {RSV_OK, RSV_ERR_NONZERO_PADDING, RSV_OK, RSV_OK,
                               RSV_ERR_NONZERO_PADDING, RSV_OK};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        cr_assert_eq(rsv_kv03_scanner_scan(&s, order[i], NULL), want[i], "scan #%zu", i);
        cr_assert_eq(rsv_kv03_scan(order[i], NULL), want[i], "fresh scan #%zu", i);
    }
    /* after the first scans the scratch is large enough: no further growth */
    size_t oc = s.offsets_cap, ec = s.ef_cap, kc = s.cur.key_cap;
    cr_assert_eq(rsv_kv03_scanner_scan(&s, &fg, NULL), RSV_OK);
    cr_assert_eq(s.offsets_cap, oc);
    cr_assert_eq(s.ef_cap, ec);
    cr_assert_eq(s.cur.key_cap, kc);
    rsv_kv03_scanner_free(&s);
    cr_assert_null(s.offsets);
    rsv_kv03_close(&fg);
    rsv_kv03_close(&fb);
    rsv_kv03_close(&fe);
}

typedef rsv_status (*walk_fn)(rsv_kv03_cursor *, rsv_kv03_entry *, int *);

/* Walks the §12.3 file with `walk` and checks each record against RECS (the
 * spec's records): key, kind and length always; the value bytes when the
 * walk is rsv_kv03_cursor_record, value.data NULL when it is
 * rsv_kv03_cursor_next (kv03.h: next skips the value). */
static void expect_spec_records(rsv_kv03_cursor *c, walk_fn walk)
{
    rsv_kv03_entry e;
    int more;
    for (size_t i = 0; i < 4; i++) {
        cr_assert_eq(walk(c, &e, &more), RSV_OK, "record %zu", i);
        cr_assert_eq(more, 1);
        cr_assert_eq(e.key_len, RECS[i].key_len);
        cr_assert_eq(memcmp(e.key, RECS[i].key, e.key_len), 0, "key %zu", i);
        cr_assert_eq(e.value.kind, RECS[i].value.kind, "state %zu", i);
        cr_assert_eq(e.value.len, RECS[i].value.len, "value length %zu", i);
        if (walk == rsv_kv03_cursor_next)
            cr_assert_null(e.value.data, "record %zu: cursor_next set value.data", i);
        else if (e.value.len)
            cr_assert_eq(memcmp(e.value.data, RECS[i].value.data, e.value.len), 0);
    }
    cr_assert_eq(walk(c, &e, &more), RSV_OK);
    cr_assert_eq(more, 0);
}

/* kv03.h: rsv_kv03_cursor_next skips the value. For each §12.3 record it
 * gives the key, kind and length of RECS with value.data NULL, and the walk
 * leaves the cursor without a value buffer (val NULL, val_cap 0): no value
 * byte was copied or borrowed. Records 0 and 3 are present values of 1 and
 * 2 bytes ("x", "yz"), so materializing them would set data. */
Test(kv03_reuse, cursor_next_copies_no_value)
{
    size_t present = 0;
    for (size_t i = 0; i < 4; i++)
        present += RECS[i].value.kind == RSV_VALUE_PRESENT && RECS[i].value.len > 0;
    cr_assert_eq(present, 2, "RECS holds two non-empty present values");
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(FILE_12_3, 360, NULL, &f), RSV_OK);
    rsv_kv03_cursor c;
    cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
    expect_spec_records(&c, rsv_kv03_cursor_next);
    cr_assert_null(c.val);
    cr_assert_eq(c.val_cap, 0);
    rsv_kv03_cursor_free(&c);
    rsv_kv03_close(&f);
}

Test(kv03_reuse, cursor_reset_keeps_buffers_and_restarts)
{
    rsv_kv03_file f, fe;
    cr_assert_eq(rsv_kv03_open(FILE_12_3, 360, NULL, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_open(FILE_EMPTY, 320, NULL, &fe), RSV_OK);
    rsv_kv03_cursor c;
    cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
    expect_spec_records(&c, rsv_kv03_cursor_record);
    uint8_t *key = c.key;
    size_t cap = c.key_cap;
    cr_assert_eq(rsv_kv03_cursor_reset(&c, &fe), RSV_OK); /* another file */
    rsv_kv03_entry e;
    int more;
    cr_assert_eq(rsv_kv03_cursor_next(&c, &e, &more), RSV_OK);
    cr_assert_eq(more, 0);
    cr_assert_eq(rsv_kv03_cursor_reset(&c, &f), RSV_OK); /* and back */
    cr_assert_eq(c.key, key);
    cr_assert_eq(c.key_cap, cap);
    expect_spec_records(&c, rsv_kv03_cursor_record);
    rsv_kv03_cursor_free(&c);
    rsv_kv03_close(&f);
    rsv_kv03_close(&fe);
}

Test(kv03_reuse, stream_reader_reset_restarts)
{
    /* KV03.md §12.4: the four records as a record stream, 100 bits */
    static const uint8_t bits[13] = {0xa2, 0x58, 0x69, 0xe3, 0x12, 0xc4, 0x8b,
                                     0x77, 0x89, 0x61, 0xb7, 0x97, 0xa0};
    rsv_stream_reader sr;
    rsv_stream_record r;
    int more;
    cr_assert_eq(rsv_stream_reader_init(&sr, rsv_view_make(bits, 0, 100), NULL, 0), RSV_OK);
    for (int pass = 0; pass < 3; pass++) {
        for (size_t i = 0; i < 4; i++) {
            cr_assert_eq(rsv_stream_reader_next(&sr, &r, &more), RSV_OK, "pass %d record %zu", pass, i);
            cr_assert_eq(more, 1);
            cr_assert_eq(r.key_len, RECS[i].key_len);
            cr_assert_eq(memcmp(r.key, RECS[i].key, r.key_len), 0);
            cr_assert_eq(r.value.kind, RECS[i].value.kind);
            cr_assert_eq(r.value.len, RECS[i].value.len);
        }
        cr_assert_eq(rsv_stream_reader_next(&sr, &r, &more), RSV_OK);
        cr_assert_eq(more, 0);
        cr_assert_eq(r.end, 100);
        cr_assert_eq(rsv_stream_reader_reset(&sr, rsv_view_make(bits, 0, 100), NULL, 0), RSV_OK);
    }
    /* a truncated stream fails and poisons; reset recovers */
    cr_assert_eq(rsv_stream_reader_reset(&sr, rsv_view_make(bits, 0, 40), NULL, 0), RSV_OK);
    rsv_status st = RSV_OK;
    for (int i = 0; i < 4 && st == RSV_OK; i++) st = rsv_stream_reader_next(&sr, &r, &more);
    cr_assert_neq(st, RSV_OK);
    cr_assert_eq(rsv_stream_reader_next(&sr, &r, &more), RSV_ERR_POISONED);
    cr_assert_eq(rsv_stream_reader_reset(&sr, rsv_view_make(bits, 0, 100), NULL, 0), RSV_OK);
    cr_assert_eq(rsv_stream_reader_next(&sr, &r, &more), RSV_OK);
    cr_assert_eq(more, 1);
    rsv_stream_reader_free(&sr);
}
