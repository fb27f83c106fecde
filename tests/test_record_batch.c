/* The record batch (reservoir/record_batch.h): rsv_kv03_cursor_batch and
 * rsv_stream_reader_batch against the v2 oracle and the single-record calls
 * through tests/support/record_batch_diff.h, which checks every field of
 * every call (see there), on
 *   - random one-code files and streams (rsv_kv03d_gen keys: shared
 *     prefixes, splits inside a byte, 0x00 bytes, empty keys; tombstone,
 *     present-empty and 1..max-byte values, so borrowed and copied values)
 *     under six policies;
 *   - random multi-code files and streams over a fixed prefix-free set of
 *     four codes, one longer than 64 bits (transition tails outrunning the
 *     reader's cache);
 *   - the same inputs with single-bit flips after the directory (files: the
 *     walk reads no CRC, so flips reach the walk) or anywhere (streams), and
 *     streams cut short;
 * each with n = 1..9 and 64 records per call, key and value arenas of 0, 1,
 * 7 bytes, the input's total key (value) bytes and 4096, values and codes
 * stored or not. Plus hand-checked cases: argument errors, n = 0, a stop
 * before a key that does not fit and the resume, values borrowed vs copied.
 * Every table-driven test fails when it compared no record. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "reservoir/kv03.h"
#include "reservoir/oracle_kv03.h"
#include "reservoir/record_batch.h"
#include "reservoir/stream.h"

#include "kv03_diff.h"
#include "kv03_diff_gen.h"
#include "record_batch_diff.h"
#include "testutil.h"

/* ---- inputs ---------------------------------------------------------------- */

/* The fixed code set of the multi-code inputs: `0`, `10`, `110`, `111‖1^70`. */
static uint8_t LONG_CODE[10];
static rsv_oracle_code CODES[4];
static void codes_init(void)
{
    static const uint8_t c0[1] = {0x00}, c1[1] = {0x80}, c2[1] = {0xC0};
    memset(LONG_CODE, 0xFF, sizeof LONG_CODE); /* 73 ones: `111` then 70 ones */
    CODES[0] = (rsv_oracle_code){c0, 1};
    CODES[1] = (rsv_oracle_code){c1, 2};
    CODES[2] = (rsv_oracle_code){c2, 3};
    CODES[3] = (rsv_oracle_code){LONG_CODE, 73};
}

typedef struct input {
    rsv_kv03d_set sets[4]; /* records per code */
    rsv_oracle_crecord *r;
    size_t n;
    size_t key_bytes, val_bytes;
    uint8_t *file;
    size_t file_len;
    uint8_t *stream;
    uint64_t stream_bits;
    size_t ncodes; /* codes used: the stream's set is CODES[0, ncodes) */
} input;

static const rsv_oracle_kv03_policy POLICIES[] = {
    {RSV_ORACLE_BACKSPACE_EG, 0, 15, 15}, {RSV_ORACLE_BACKSPACE_EG, 1, 3, 7}, {RSV_ORACLE_BACKSPACE_EG, 3, 1, 3},
    {RSV_ORACLE_BACKSPACE_GOLOMB, 1, 2, 3}, {RSV_ORACLE_BACKSPACE_GOLOMB, 7, 5, 3}, {RSV_ORACLE_BACKSPACE_EG, 0, 4, 3},
};
#define NPOL (sizeof POLICIES / sizeof POLICIES[0])

/* ncodes codes, about n records per code; keys up to max_key, values up to max_val. */
static void make_input(input *in, rsv_rng *g, size_t ncodes, size_t n, size_t max_key, size_t max_val,
                       const rsv_oracle_kv03_policy *p)
{
    memset(in, 0, sizeof *in);
    in->ncodes = ncodes;
    size_t total = 0;
    for (size_t j = 0; j < ncodes; j++) {
        in->sets[j] = rsv_kv03d_gen(g, n, max_key, max_val);
        total += in->sets[j].n;
    }
    in->r = calloc(total ? total : 1, sizeof *in->r);
    cr_assert_not_null(in->r);
    for (size_t j = 0; j < ncodes; j++)
        for (size_t i = 0; i < in->sets[j].n; i++) {
            rsv_oracle_crecord *c = &in->r[in->n++];
            c->code = CODES[j];
            rsv_kv03d_to_oracle(&in->sets[j].r[i], 1, &c->rec);
            in->key_bytes += c->rec.key_len;
            in->val_bytes += c->rec.value_len;
        }
    size_t bad;
    cr_assert_eq(rsv_oracle_kv03_encode_v2(in->r, in->n, p, &in->file, &in->file_len, &bad), RSV_OK);
    cr_assert_eq(rsv_oracle_stream_encode_v2(in->r, in->n, &in->stream, &in->stream_bits, &bad), RSV_OK);
}

static void free_input(input *in)
{
    for (size_t j = 0; j < in->ncodes; j++) rsv_kv03d_set_free(&in->sets[j]);
    free(in->r);
    free(in->file);
    free(in->stream);
}

/* ---- the shape sweep --------------------------------------------------------- */

typedef struct tally {
    size_t runs;
    rsv_rbd_tally t;
} tally;

static void sweep_file(const uint8_t *file, size_t len, const input *in, tally *t, const char *what)
{
    static const size_t NS[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 64};
    size_t kcaps[] = {0, 1, 7, in->key_bytes, 4096}, vcaps[] = {0, 1, 7, in->val_bytes, 4096};
    char msg[RSV_RBD_MSG];
    for (size_t a = 0; a < sizeof NS / sizeof NS[0]; a++)
        for (size_t kc = 0; kc < 5; kc++)
            for (size_t vc = 0; vc < 5; vc++)
                for (int flags = 0; flags < 4; flags++) {
                    if (!(flags & 1) && vc) continue; /* no values: the value arena is unused */
                    rsv_rbd_shape s = {NS[a], kcaps[kc], vcaps[vc], flags & 1, flags >> 1, NULL, NULL};
                    cr_assert(rsv_rbd_cursor(file, len, &s, &t->t, msg),
                              "%s cursor n %zu key_cap %zu val_cap %zu values %d codes %d: %s", what, s.n, s.key_cap,
                              s.val_cap, s.values, s.codes, msg);
                    t->runs++;
                }
}

static void sweep_stream(const uint8_t *bytes, uint64_t bits, const input *in, tally *t, const char *what)
{
    static const size_t NS[] = {1, 2, 3, 5, 8, 9, 64};
    size_t kcaps[] = {0, 7, in->key_bytes, 4096}, vcaps[] = {0, 1, in->val_bytes, 4096};
    char msg[RSV_RBD_MSG];
    for (size_t a = 0; a < sizeof NS / sizeof NS[0]; a++)
        for (size_t kc = 0; kc < 4; kc++)
            for (size_t vc = 0; vc < 4; vc++)
                for (int flags = 0; flags < 4; flags++) {
                    if (!(flags & 1) && vc) continue;
                    rsv_rbd_shape s = {NS[a], kcaps[kc], vcaps[vc], flags & 1, flags >> 1, NULL, NULL};
                    cr_assert(rsv_rbd_stream(rsv_view_make(bytes, 0, bits), CODES, in->ncodes, &s, &t->t, msg),
                              "%s stream n %zu key_cap %zu val_cap %zu values %d codes %d: %s", what, s.n, s.key_cap,
                              s.val_cap, s.values, s.codes, msg);
                    t->runs++;
                }
}

static void valid_inputs(size_t ncodes, uint64_t seed, int rounds)
{
    codes_init();
    rsv_rng g = {seed};
    tally t = {0, {0, 0, 0}};
    for (int round = 0; round < rounds; round++) {
        input in;
        size_t max_key = round % 3 == 0 ? 3 : round % 3 == 1 ? 12 : 40;
        size_t max_val = round % 2 ? 5 : 70;
        make_input(&in, &g, ncodes, 6 + (size_t)rsv_rng_below(&g, 30), max_key, max_val, &POLICIES[round % NPOL]);
        sweep_file(in.file, in.file_len, &in, &t, "valid");
        sweep_stream(in.stream, in.stream_bits, &in, &t, "valid");
        free_input(&in);
    }
    cr_assert_gt(t.t.records, 1000, "compared %zu records in %zu runs", t.t.records, t.runs);
    cr_assert_gt(t.t.arena_stops, 100, "%zu arena stops", t.t.arena_stops);
    cr_assert_eq(t.t.errors, 0, "valid inputs: %zu walks failed", t.t.errors);
}

Test(record_batch, one_code_valid) { valid_inputs(1, 0xBA7C4001, 8); }
Test(record_batch, multi_code_valid) { valid_inputs(4, 0xBA7C4002, 8); }

/* Corrupt inputs: the file's bytes after the directory (open reads only
 * header and directory, so the flips reach the walk: data stream, EF
 * sections, dictionary, seeds) and the stream's bits, flipped one at a time
 * at random; streams also cut at random lengths. A smaller shape sweep. */
static void corrupt_inputs(size_t ncodes, uint64_t seed)
{
    codes_init();
    rsv_rng g = {seed};
    tally t = {0, {0, 0, 0}};
    static const size_t NS[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 64};
    char msg[RSV_RBD_MSG];
    for (int round = 0; round < 6; round++) {
        input in;
        make_input(&in, &g, ncodes, 8 + (size_t)rsv_rng_below(&g, 20), round % 2 ? 4 : 16, 20, &POLICIES[round % NPOL]);
        uint8_t *f = malloc(in.file_len);
        size_t sbytes = (size_t)((in.stream_bits + 7) / 8);
        uint8_t *st = malloc(sbytes ? sbytes : 1);
        cr_assert(f && st);
        for (int flip = 0; flip < 30; flip++) {
            memcpy(f, in.file, in.file_len);
            size_t at = 288 + (size_t)rsv_rng_below(&g, in.file_len - 288);
            f[at] ^= (uint8_t)(1u << rsv_rng_below(&g, 8));
            memcpy(st, in.stream, sbytes);
            uint64_t bit = rsv_rng_below(&g, in.stream_bits);
            st[bit / 8] ^= (uint8_t)(0x80u >> (bit % 8));
            uint64_t cut = rsv_rng_below(&g, in.stream_bits + 1);
            for (size_t a = 0; a < sizeof NS / sizeof NS[0]; a++) {
                size_t caps[] = {0, 5, in.key_bytes, 4096};
                for (int c = 0; c < 4; c++) {
                    rsv_rbd_shape s = {NS[a], caps[c], caps[c], (a + (size_t)c) % 2 == 0, a % 3 == 0, NULL, NULL};
                    cr_assert(rsv_rbd_cursor(f, in.file_len, &s, &t.t, msg), "flip at byte %zu, n %zu cap %zu: %s",
                              at, s.n, caps[c], msg);
                    cr_assert(rsv_rbd_stream(rsv_view_make(st, 0, in.stream_bits), CODES, in.ncodes, &s, &t.t, msg),
                              "stream flip at bit %llu, n %zu: %s", (unsigned long long)bit, s.n, msg);
                    cr_assert(rsv_rbd_stream(rsv_view_make(in.stream, 0, cut), CODES, in.ncodes, &s, &t.t, msg),
                              "stream cut at %llu, n %zu: %s", (unsigned long long)cut, s.n, msg);
                    t.runs += 3;
                }
            }
        }
        free(f);
        free(st);
        free_input(&in);
    }
    cr_assert_gt(t.t.records, 1000, "compared %zu records in %zu runs", t.t.records, t.runs);
    /* the flips and cuts must reach the walks' failure paths, not only pass clean */
    cr_assert_gt(t.t.errors, 100, "%zu failing walks in %zu runs", t.t.errors, t.runs);
    cr_assert_gt(t.t.arena_stops, 100, "%zu arena stops", t.t.arena_stops);
}

Test(record_batch, one_code_corrupt) { corrupt_inputs(1, 0xBA7C4003); }
Test(record_batch, multi_code_corrupt) { corrupt_inputs(4, 0xBA7C4004); }

/* Short streams (one or two records, keys of 0..2 bytes, values of 1..3
 * bytes: a few bytes each, more than 20 placements shorter than 8 bytes,
 * checked) inside a larger buffer: the view starts at
 * byte 24 + bit k of its base pointer, k = 0..7, and the 24 bytes before it
 * are not the stream's. A value that is not byte-aligned is copied into the
 * value arena, its last bytes loaded either exactly or by one 8-byte load
 * ending at the stream's last byte; that load must stay inside the view
 * (CODES.md §1.2 A1), which in a stream shorter than 8 bytes it cannot. The
 * record batch diff declares the view (and the code set) as the only
 * loadable bytes, so a load-checked build fails on a load before the view. */
Test(record_batch, short_streams_inside_a_larger_buffer)
{
    codes_init();
    static const uint8_t KEY[2] = {0x61, 0x00}, VAL[3] = {0xFF, 0x01, 0x80};
    enum { BASE = 24 };
    tally t = {0, {0, 0, 0}};
    char msg[RSV_RBD_MSG];
    size_t short_ones = 0;
    for (size_t nrec = 1; nrec <= 2; nrec++)
        for (size_t kl = 0; kl <= 2; kl++)
            for (size_t vl = 1; vl <= 3; vl++) {
                /* record 0: key KEY[0, kl); record 1 (nrec = 2): that key then 0x62 */
                uint8_t key1[3] = {0};
                memcpy(key1, KEY, kl);
                key1[kl] = 0x62;
                rsv_oracle_crecord r[2] = {
                    {CODES[0], {KEY, kl, RSV_ORACLE_PRESENT, VAL, vl}},
                    {CODES[0], {key1, kl + 1, RSV_ORACLE_PRESENT, VAL, vl}},
                };
                uint8_t *st = NULL;
                uint64_t bits = 0;
                size_t bad;
                cr_assert_eq(rsv_oracle_stream_encode_v2(r, nrec, &st, &bits, &bad), RSV_OK);
                for (unsigned k = 0; k < 8; k++) {
                    uint8_t buf[BASE + 16];
                    memset(buf, 0xA5, sizeof buf);
                    for (uint64_t i = 0; i < bits; i++) rsv_set_bit(buf, 8 * BASE + k + i, rsv_get_bit(st, i));
                    short_ones += (k + bits + 7) / 8 < 8;
                    for (size_t n = 1; n <= 2; n++) {
                        rsv_rbd_shape s = {n, 16, 16, 1, 1, NULL, NULL};
                        cr_assert(rsv_rbd_stream(rsv_view_make(buf, 8 * BASE + k, bits), CODES, 1, &s, &t.t, msg),
                                  "%zu records, key %zu value %zu bytes, at bit %u of byte %d, n %zu: %s", nrec, kl,
                                  vl, k, BASE, n, msg);
                        t.runs++;
                    }
                }
                free(st);
            }
    cr_assert_eq(t.t.records, 8 * 2 * 3 * 3 * (1 + 2), "compared %zu records", t.t.records); /* k, n, kl, vl, records */
    cr_assert_gt(short_ones, 20, "only %zu streams shorter than 8 bytes", short_ones);
}

/* ---- hand-checked cases --------------------------------------------------- */

/* Records "a" -> "x" (value bits start right after the 1-byte key's
 * framing, generally not byte-aligned), "ab" tombstone, "abc" present-empty,
 * "b" -> "yz": written by the codec writer, expectations from this list. */
static uint8_t *small_file(size_t *len)
{
    rsv_kv03_policy p = rsv_kv03_policy_default();
    rsv_record r[4] = {
        {(const uint8_t *)"a", 1, {RSV_VALUE_PRESENT, (const uint8_t *)"x", 1}, NULL, 0},
        {(const uint8_t *)"ab", 2, {RSV_VALUE_TOMBSTONE, NULL, 0}, NULL, 0},
        {(const uint8_t *)"abc", 3, {RSV_VALUE_PRESENT, NULL, 0}, NULL, 0},
        {(const uint8_t *)"b", 1, {RSV_VALUE_PRESENT, (const uint8_t *)"yz", 2}, NULL, 0},
    };
    uint8_t *out;
    cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, r, 4, &out, len), RSV_OK);
    return out;
}

Test(record_batch, arguments)
{
    size_t len, done = 7;
    uint8_t *bytes = small_file(&len);
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(bytes, len, NULL, &f), RSV_OK);
    rsv_kv03_cursor c;
    cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
    size_t off[4], kl[4], vl[4];
    uint8_t kind[4], arena[16];
    rsv_record_batch b = {off, kl, kind, vl, NULL, NULL, NULL, arena, sizeof arena, NULL, 0, 0, 0, 0, 0};
    cr_assert_eq(rsv_kv03_cursor_batch(NULL, &b, 4, &done), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(done, 0);
    cr_assert_eq(rsv_kv03_cursor_batch(&c, NULL, 4, &done), RSV_ERR_INVALID_ARGUMENT);
    rsv_record_batch bad;
    for (int which = 0; which < 4; which++) { /* each required array NULL alone */
        bad = b;
        if (which == 0) bad.key_off = NULL;
        if (which == 1) bad.key_len = NULL;
        if (which == 2) bad.kind = NULL;
        if (which == 3) bad.val_len = NULL;
        cr_assert_eq(rsv_kv03_cursor_batch(&c, &bad, 4, &done), RSV_ERR_INVALID_ARGUMENT, "array %d NULL", which);
    }
    bad = b;
    bad.key_arena = NULL; /* with key_cap 16 */
    cr_assert_eq(rsv_kv03_cursor_batch(&c, &bad, 4, &done), RSV_ERR_INVALID_ARGUMENT);
    bad = b;
    bad.val_cap = 1; /* val_arena NULL */
    cr_assert_eq(rsv_kv03_cursor_batch(&c, &bad, 4, &done), RSV_ERR_INVALID_ARGUMENT);
    /* n = 0: nothing read, not poisoned; NULL arrays allowed */
    rsv_record_batch empty = {0};
    cr_assert_eq(rsv_kv03_cursor_batch(&c, &empty, 0, &done), RSV_OK);
    cr_assert_eq(done, 0);
    cr_assert_eq(empty.stop, RSV_BATCH_STOP_COUNT);
    /* none of the above consumed a record: the whole file in one call */
    cr_assert_eq(rsv_kv03_cursor_batch(&c, &b, 4, NULL), RSV_OK);
    cr_assert_eq(b.stop, RSV_BATCH_STOP_COUNT);
    cr_assert_eq(b.key_used, 7);
    cr_assert_eq(memcmp(arena, "aababcb", 7), 0);
    cr_assert_eq(rsv_stream_reader_batch(NULL, &b, 4, &done), RSV_ERR_INVALID_ARGUMENT);
    rsv_kv03_cursor_free(&c);
    free(bytes);
}

Test(record_batch, key_arena_stop_and_resume)
{
    size_t len, done;
    uint8_t *bytes = small_file(&len);
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(bytes, len, NULL, &f), RSV_OK);
    rsv_kv03_cursor c;
    cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
    size_t off[4], kl[4], vl[4];
    uint8_t kind[4], arena[5];
    const uint8_t *val[4];
    uint64_t code[4];
    uint8_t varena[4];
    /* 5 key bytes: "a" + "ab" fit (3), "abc" (3 more) does not */
    rsv_record_batch b = {off, kl, kind, vl, val, code, NULL, arena, 5, varena, sizeof varena, 0, 0, 0, 0};
    cr_assert_eq(rsv_kv03_cursor_batch(&c, &b, 4, &done), RSV_OK);
    cr_assert_eq(done, 2);
    cr_assert_eq(b.stop, RSV_BATCH_STOP_KEY_ARENA);
    cr_assert_eq(b.need, 3);
    cr_assert_eq(b.key_used, 3);
    cr_assert(off[0] == 0 && kl[0] == 1 && off[1] == 1 && kl[1] == 2 && !memcmp(arena, "aab", 3));
    cr_assert(kind[0] == RSV_BATCH_PRESENT && vl[0] == 1 && val[0][0] == 'x');
    cr_assert(kind[1] == RSV_BATCH_TOMBSTONE && vl[1] == 0 && val[1] == NULL);
    cr_assert(code[0] == 0 && code[1] == 0);
    /* the cursor stands before "abc": a single call returns it */
    rsv_kv03_entry e;
    int more;
    cr_assert_eq(rsv_kv03_cursor_record(&c, &e, &more), RSV_OK);
    cr_assert(more && e.index == 2 && e.key_len == 3 && !memcmp(e.key, "abc", 3));
    cr_assert(e.value.kind == RSV_VALUE_PRESENT && e.value.len == 0);
    /* the rest in a batch, then the end */
    cr_assert_eq(rsv_kv03_cursor_batch(&c, &b, 4, &done), RSV_OK);
    cr_assert_eq(done, 1);
    cr_assert_eq(b.stop, RSV_BATCH_STOP_END);
    cr_assert(kl[0] == 1 && arena[0] == 'b' && kind[0] == RSV_BATCH_PRESENT && vl[0] == 2 && !memcmp(val[0], "yz", 2));
    cr_assert_eq(rsv_kv03_cursor_batch(&c, &b, 4, &done), RSV_OK);
    cr_assert(done == 0 && b.stop == RSV_BATCH_STOP_END);
    rsv_kv03_cursor_free(&c);
    free(bytes);
}

/* A value that is not byte-aligned needs the value arena; one that is
 * byte-aligned is borrowed from the file. Stream "k" -> 3 bytes: the
 * record's framing (selector `1` + C0 `0`, EG0(0), EG0(8), 8 key bits, `1`,
 * EG0(3) = `00100`) puts the value at bit 2+1+7+8+1+5 = 24: aligned. With
 * C0 = `00` it starts at bit 25: copied. The single-record call,
 * rsv_stream_reader_next, keeps the same rule (stream.h: "data borrowed
 * from the stream when byte-aligned, else reader-owned"); found by the
 * seed-157 sample: with the borrow's return deleted (buffer_h.sdl.ee164232)
 * it copied aligned values too, and only the batch's borrowing was tested. */
Test(record_batch, value_borrowed_or_copied)
{
    for (int shift = 0; shift < 2; shift++) {
        rsv_writer w;
        rsv_writer_init(&w);
        rsv_stream_writer sw;
        uint8_t code = 0;
        cr_assert_eq(rsv_stream_writer_init(&sw, &w, &code, 1 + (uint64_t)shift), RSV_OK);
        cr_assert_eq(rsv_stream_writer_add(&sw, "k", 1, rsv_value_present("abc", 3)), RSV_OK);
        uint64_t bits = rsv_stream_writer_extent(&sw);
        rsv_stream_reader r;
        rsv_view v = rsv_view_make(rsv_writer_data(&w), 0, bits);
        cr_assert_eq(rsv_stream_reader_init(&r, v, &code, 1 + (uint64_t)shift), RSV_OK);
        size_t off[1], kl[1], vl[1], done;
        uint8_t kind[1], karena[1], varena[3];
        const uint8_t *val[1];
        rsv_record_batch b = {off, kl, kind, vl, val, NULL, NULL, karena, 1, varena, 2, 0, 0, 0, 0};
        cr_assert_eq(rsv_stream_reader_batch(&r, &b, 1, &done), RSV_OK);
        if (shift == 0) { /* aligned: borrowed, the 2-byte arena is not needed */
            cr_assert_eq(done, 1);
            cr_assert(val[0] == v.data + 3 && b.val_used == 0);
        } else { /* copied: 3 bytes do not fit in 2 */
            cr_assert_eq(done, 0);
            cr_assert(b.stop == RSV_BATCH_STOP_VALUE_ARENA && b.need == 3);
            b.val_cap = 3;
            cr_assert_eq(rsv_stream_reader_batch(&r, &b, 1, &done), RSV_OK);
            cr_assert_eq(done, 1);
            cr_assert(val[0] == varena && b.val_used == 3 && !memcmp(varena, "abc", 3));
        }
        cr_assert(kl[0] == 1 && karena[0] == 'k');
        cr_assert_eq(rsv_stream_reader_reset(&r, v, &code, 1 + (uint64_t)shift), RSV_OK);
        rsv_stream_record rec;
        int more = 0;
        cr_assert_eq(rsv_stream_reader_next(&r, &rec, &more), RSV_OK);
        cr_assert(more && rec.value.kind == RSV_VALUE_PRESENT && rec.value.len == 3);
        cr_assert_eq(rec.value_span.bytes.off, 24 + (uint64_t)shift);
        cr_assert(memcmp(rec.value.data, "abc", 3) == 0);
        if (shift == 0)
            cr_assert(rec.value.data == v.data + 3, "next: an aligned value is not borrowed from the stream");
        else
            cr_assert(rec.value.data < v.data || rec.value.data >= v.data + 8,
                      "next: an unaligned value points into the stream");
        rsv_stream_reader_free(&r);
        rsv_stream_writer_free(&sw);
        rsv_writer_free(&w);
    }
}
