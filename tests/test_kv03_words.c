/* The word-wise key rebuild, order check and value copy of the cursor and the
 * record-stream reader (codec/src/bits_fast.h) and the register-local fast
 * frame parse (codec/src/kv03_frame_parse.h), against the oracle:
 *  - shapes: record pairs A < B whose lcp ends at every bit of a byte
 *    (u = 0..7) after 0, 1 or 9 shared bytes, B's literal 1..80 bytes (so
 *    1..11 word chunks), B an extension of A, a third key C sharing a long
 *    prefix with B; values of 0..80 bytes after them. The literals and values
 *    land at every bit offset of the stream (asserted). Round trips through
 *    both encoders and every decoder (kv03_diff.h), several policies;
 *  - every bit flip of the data stream of some of these files (resealed) and
 *    of their record streams, and every truncation of the record streams:
 *    corrupt controls change `local`, so literals are compared with old keys
 *    over long equal stretches and from every alignment — status, record and
 *    bit must match the oracle;
 *  - record streams in exact-size heap buffers (ASan catches any load past
 *    the stream's last byte);
 *  - retained lengths shorter than the exact lcp (long equal stretches);
 *  - guard pages: single-block files whose data stream ends flush against a
 *    PROT_NONE page and record streams flush against one, their last
 *    literal 1..80 bytes long: frames, cursor_next, cursor_record and the
 *    stream reader must not fault (a fault crashes the test) and must return
 *    the records. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../codec/src/kv03_frame_parse.h" /* rsv__kv03_frames_literal_words */
#include "../codec/src/kv03_writer.h" /* rsv__kv03_writer_add_framed: files with a given lcp */
#include "kv03_diff.h"
#include "reservoir/kv03.h"
#include "reservoir/merge.h"
#include "reservoir/oracle_kv03.h"
#include "reservoir/stream.h"
#include "testutil.h"

#define MAXK 100

typedef struct shape {
    uint8_t keys[3][MAXK];
    uint8_t vals[3][MAXK];
    rsv_record r[3];
    size_t n;
} shape;

static void fill(rsv_rng *g, uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)rsv_rng_next(g);
}

static void set_value(rsv_rng *g, shape *s, size_t i, size_t vlen)
{
    unsigned kind = (unsigned)rsv_rng_below(g, 4);
    if (kind == 0) {
        s->r[i].value = rsv_value_tombstone();
    } else {
        fill(g, s->vals[i], vlen);
        s->r[i].value = rsv_value_present(vlen ? s->vals[i] : NULL, kind == 1 ? 0 : vlen);
    }
}

/* A then B with lcp(A, B) = 8P + u bits (or B = A ‖ Lb bytes when extend),
 * B of P + Lb bytes; optionally C > B sharing B's first P + Lb/2 bytes. */
static void make_shape(rsv_rng *g, shape *s, size_t P, unsigned u, size_t Lb, int extend, int with_c)
{
    memset(s, 0, sizeof *s);
    fill(g, s->keys[0], P + 4);
    memcpy(s->keys[1], s->keys[0], P);
    size_t la;
    if (extend) {
        la = P;
        fill(g, s->keys[1] + P, Lb);
    } else {
        uint8_t top = (uint8_t)(s->keys[0][P] & (uint8_t)~(0xFFu >> u)); /* shared top u bits */
        unsigned bit = 0x80u >> u;
        s->keys[0][P] = (uint8_t)(top | (s->keys[0][P] & (bit - 1)));        /* bit u clear */
        fill(g, s->keys[1] + P, Lb);
        s->keys[1][P] = (uint8_t)(top | bit | (s->keys[1][P] & (bit - 1))); /* bit u set */
        la = P + 1 + (size_t)rsv_rng_below(g, 4);
    }
    size_t lb = P + Lb;
    s->r[0].key = s->keys[0], s->r[0].key_len = la;
    s->r[1].key = s->keys[1], s->r[1].key_len = lb;
    set_value(g, s, 0, (size_t)rsv_rng_below(g, 81));
    set_value(g, s, 1, (size_t)rsv_rng_below(g, 81));
    s->n = 2;
    if (with_c && Lb >= 2) {
        size_t keep = P + Lb / 2, lc = keep + 1 + (size_t)rsv_rng_below(g, MAXK - keep - 1);
        memcpy(s->keys[2], s->keys[1], keep);
        fill(g, s->keys[2] + keep, lc - keep);
        if (s->keys[1][keep] == 0xFF) { /* no greater byte: C extends B's prefix instead */
            lc = lb + 1;
            memcpy(s->keys[2], s->keys[1], lb);
        } else {
            s->keys[2][keep] = (uint8_t)(s->keys[1][keep] + 1 + rsv_rng_below(g, 0xFFu - s->keys[1][keep]));
        }
        s->r[2].key = s->keys[2], s->r[2].key_len = lc;
        set_value(g, s, 2, (size_t)rsv_rng_below(g, 81));
        s->n = 3;
    }
    cr_assert(rsv_key_compare(s->r[0].key, s->r[0].key_len, s->r[1].key, s->r[1].key_len) < 0);
    if (s->n == 3) cr_assert(rsv_key_compare(s->r[1].key, s->r[1].key_len, s->r[2].key, s->r[2].key_len) < 0);
}

/* Encodes r[0..n) with the default policy and opens the file; the caller
 * frees *bytes. */
static void encode_open_default(const rsv_record *r, size_t n, uint8_t **bytes, size_t *nb, rsv_kv03_file *f)
{
    rsv_kv03_policy p = rsv_kv03_policy_default();
    cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, r, n, bytes, nb), RSV_OK);
    cr_assert_eq(rsv_kv03_open(*bytes, *nb, NULL, f), RSV_OK);
}

/* Walks f with the cursor, both levels (cursor_next: keys and value spans;
 * cursor_record: the values' bytes too), and compares with r[0..n). */
static void check_cursor_walks(const rsv_kv03_file *f, const rsv_record *r, size_t n, const char *what)
{
    for (int level = 0; level < 2; level++) {
        rsv_kv03_cursor c;
        rsv_kv03_entry e;
        rsv_status st;
        int more;
        size_t i;
        rsv_kv03_cursor_init(&c, f);
        for (i = 0; (st = level ? rsv_kv03_cursor_record(&c, &e, &more) : rsv_kv03_cursor_next(&c, &e, &more)) ==
                        RSV_OK && more;
             i++) {
            cr_assert(i < n && e.key_len == r[i].key_len && !memcmp(e.key, r[i].key, e.key_len), "%s", what);
            cr_assert(e.value.kind == r[i].value.kind && e.value.len == r[i].value.len, "%s", what);
            if (level && e.value.len) cr_assert(!memcmp(e.value.data, r[i].value.data, e.value.len), "%s", what);
        }
        cr_assert(st == RSV_OK && i == n, "%s: %s after %zu records", what, rsv_status_name(st), i);
        rsv_kv03_cursor_free(&c);
    }
}

/* Bit offset (mod 8) of record 1's literal and value in a default-policy file. */
static void offsets(const rsv_record *r, size_t n, unsigned *lit, unsigned *val)
{
    uint8_t *bytes;
    size_t nb;
    rsv_kv03_file f;
    encode_open_default(r, n, &bytes, &nb, &f);
    rsv_kv03_frames fw;
    rsv_kv03_frame fr;
    int more;
    rsv_kv03_frames_init(&fw, &f);
    for (size_t i = 0; i < 2; i++) cr_assert_eq(rsv_kv03_frames_next(&fw, &fr, &more), RSV_OK);
    *lit = (unsigned)(fr.literal.off % 8);
    *val = fr.value.kind == RSV_VALUE_PRESENT && fr.value.len ? (unsigned)(fr.value.bytes.off % 8) : 8;
    free(bytes);
}

static const rsv_kv03_policy k_pol[] = {
    {RSV_BACKSPACE_EG, 0, 15, 15}, {RSV_BACKSPACE_EG, 0, 1, 3}, {RSV_BACKSPACE_GOLOMB, 7, 2, 3},
    {RSV_BACKSPACE_EG, 3, 1000, 15},
};

Test(kv03_words, literal_and_value_shapes_round_trip)
{
    rsv_rng g = {0x0A17E5};
    static const size_t Ps[] = {0, 1, 9};
    unsigned lit_seen[12] = {0}, val_seen[12] = {0}; /* per chunk count bucket: offsets seen (bit mask) */
    for (size_t Lb = 1; Lb <= 80; Lb++)
        for (unsigned u = 0; u < 8; u++)
            for (size_t pi = 0; pi < 3; pi++)
                for (int extend = 0; extend < 2; extend++) {
                    if (extend && u) continue; /* an extension's lcp is byte-aligned */
                    shape s = {0};
                    make_shape(&g, &s, Ps[pi], u, Lb, extend, (int)((Lb + u + pi) % 2));
                    const rsv_kv03_policy *p = &k_pol[(Lb + u + pi + (size_t)extend) % 4];
                    rsv_kv03d_report rep;
                    rsv_kv03d_report_init(&rep);
                    int ok = rsv_kv03d_roundtrip(s.r, s.n, p, NULL, 0, &rep);
                    cr_assert(ok && rep.status == RSV_OK, "Lb %zu u %u P %zu extend %d: %s", Lb, u, Ps[pi], extend,
                              rep.msg);
                    unsigned lo, vo;
                    offsets(s.r, s.n, &lo, &vo);
                    lit_seen[Lb / 8] |= 1u << lo;
                    val_seen[s.r[1].value.len / 8] |= 1u << vo;
                }
    for (int b = 0; b < 10; b++) {
        cr_assert_eq(lit_seen[b] & 0xFF, 0xFF, "literal offsets for %d..%d bytes: %#x", 8 * b, 8 * b + 7, lit_seen[b]);
        cr_assert_eq(val_seen[b] & 0xFF, 0xFF, "value offsets for %d..%d bytes: %#x", 8 * b, 8 * b + 7, val_seen[b]);
    }
}

/* Every bit of the data stream flipped (file resealed): both sides agree. */
Test(kv03_words, data_stream_flips_agree_with_oracle)
{
    rsv_rng g = {0xF11B5};
    for (int round = 0; round < 24; round++) {
        shape s = {0};
        size_t Lb = 1 + (size_t)rsv_rng_below(&g, 24);
        make_shape(&g, &s, (size_t)rsv_rng_below(&g, 10), (unsigned)rsv_rng_below(&g, 8), Lb, round % 5 == 4,
                   round % 2);
        rsv_kv03_policy p = k_pol[round % 4];
        uint8_t *bytes;
        size_t nb;
        cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, s.r, s.n, &bytes, &nb), RSV_OK);
        uint64_t len0 = 0;
        for (int i = 0; i < 8; i++) len0 |= (uint64_t)bytes[96 + 72 + i] << (8 * i);
        uint8_t *x = malloc(nb);
        for (uint64_t bit = 288 * 8; bit < (288 + len0) * 8; bit++) {
            memcpy(x, bytes, nb);
            x[bit / 8] ^= (uint8_t)(0x80u >> (bit % 8));
            rsv_kv03d_reseal(x, nb);
            rsv_kv03d_report rep;
            rsv_kv03d_report_init(&rep);
            cr_assert(rsv_kv03d_file(x, nb, NULL, NULL, 0, &rep), "round %d, flip of bit %llu: %s", round,
                      (unsigned long long)bit, rep.msg);
        }
        free(x);
        free(bytes);
    }
}

/* Record streams in exact-size heap buffers: intact, every bit flipped, and
 * every shorter extent; both readers agree on status, record and bit. */
Test(kv03_words, record_stream_flips_and_truncations_agree_with_oracle)
{
    rsv_rng g = {0x57AE4};
    for (int round = 0; round < 40; round++) {
        shape s = {0};
        size_t Lb = 1 + (size_t)rsv_rng_below(&g, round < 20 ? 12 : 80);
        make_shape(&g, &s, (size_t)rsv_rng_below(&g, 10), (unsigned)rsv_rng_below(&g, 8), Lb, round % 5 == 4,
                   round % 2);
        rsv_oracle_record o[3];
        rsv_kv03d_to_oracle(s.r, s.n, o);
        uint8_t *bytes = NULL;
        uint64_t E = 0;
        size_t bad;
        cr_assert_eq(rsv_oracle_stream_encode(o, s.n, (const uint8_t *)"\0", 1, &bytes, &E, &bad), RSV_OK);
        size_t nb = (size_t)((E + 7) / 8);
        uint8_t *x = malloc(nb ? nb : 1);
        rsv_kv03d_report rep;
        rsv_kv03d_report_init(&rep);
        memcpy(x, bytes, nb);
        cr_assert(rsv_kv03d_stream(x, E, NULL, 0, s.r, s.n, &rep), "round %d intact: %s", round, rep.msg);
        for (uint64_t bit = 0; bit < E; bit++) {
            memcpy(x, bytes, nb);
            x[bit / 8] ^= (uint8_t)(0x80u >> (bit % 8));
            rsv_kv03d_report_init(&rep);
            cr_assert(rsv_kv03d_stream(x, E, NULL, 0, NULL, 0, &rep), "round %d, flip of bit %llu: %s", round,
                      (unsigned long long)bit, rep.msg);
        }
        free(x);
        for (uint64_t e = 0; e < E; e++) { /* the view ends inside the last literal or value */
            size_t eb = (size_t)((e + 7) / 8);
            uint8_t *t = malloc(eb ? eb : 1);
            memcpy(t, bytes, eb);
            rsv_kv03d_report_init(&rep);
            cr_assert(rsv_kv03d_stream(eb ? t : NULL, e, NULL, 0, NULL, 0, &rep), "round %d, extent %llu: %s", round,
                      (unsigned long long)e, rep.msg);
            free(t);
        }
        free(bytes);
    }
}

/* ---- retained lengths shorter than the exact lcp (KV03.md §2 "Canonical
 * choice": readers MUST accept them) -------------------------------------
 * Then the literal repeats bits the old key already has, so the order check
 * compares long equal stretches before deciding: B = A with the byte at
 * position d raised, lowered or unchanged (a duplicate), kept = any
 * byte-compatible length up to lcp. Files through the writer's framed entry
 * (it takes the lcp as given), record streams encoded here; both sides must
 * agree, and the status must be OK exactly when B > A. */
static rsv_value_span span_of(const rsv_record *r)
{
    rsv_value_span v;
    memset(&v, 0, sizeof v);
    v.kind = r->value.kind;
    if (v.kind == RSV_VALUE_PRESENT) {
        v.len = r->value.len;
        v.bytes = rsv_view_make(r->value.data, 0, 8 * (uint64_t)r->value.len);
    }
    rsv_value_width(v.kind, v.len, &v.width);
    return v;
}

static void stream_of(const rsv_record *a, const rsv_record *b, uint64_t kept, rsv_writer *w)
{
    rsv_writer_init(w);
    rsv_put(w, 1, 1); /* selector backspace EG0(0) */
    rsv_put(w, 0, 1); /* C0 = `0` */
    rsv_put_eg(w, 0, 0);
    rsv_put_eg(w, 8 * (uint64_t)a->key_len, 0);
    rsv_put_view(w, rsv_view_make(a->key, 0, 8 * (uint64_t)a->key_len));
    rsv_put_value(w, a->value);
    rsv_put(w, 1, 1);
    rsv_put_eg(w, 8 * (uint64_t)a->key_len - kept, 0);
    rsv_put_eg(w, 8 * (uint64_t)b->key_len - kept, 0);
    rsv_put_view(w, rsv_view_make(b->key, kept, 8 * (uint64_t)b->key_len - kept));
    rsv_put_value(w, b->value);
}

Test(kv03_words, short_retained_lengths_compare_long_literals)
{
    rsv_rng g = {0x5407};
    uint8_t ka[MAXK], kb[MAXK], va[MAXK], vb[MAXK];
    for (int round = 0; round < 400; round++) {
        size_t la = 1 + (size_t)rsv_rng_below(&g, 90), d = (size_t)rsv_rng_below(&g, la);
        fill(&g, ka, la);
        memcpy(kb, ka, la);
        int how = (int)rsv_rng_below(&g, 4); /* 0 raise, 1 lower, 2 duplicate, 3 extend */
        size_t lb = la;
        if (how == 0 && kb[d] < 0xFF) kb[d] = (uint8_t)(kb[d] + 1 + rsv_rng_below(&g, 0xFFu - kb[d]));
        else if (how == 1 && kb[d] > 0) kb[d] = (uint8_t)rsv_rng_below(&g, kb[d]);
        else if (how == 3) lb = la + 1 + (size_t)rsv_rng_below(&g, MAXK - la - 1), fill(&g, kb + la, lb - la);
        fill(&g, va, 20);
        fill(&g, vb, 20);
        rsv_record r[2] = {{ka, la, rsv_value_present(va, (size_t)rsv_rng_below(&g, 20))},
                           {kb, lb, round % 3 ? rsv_value_present(vb, (size_t)rsv_rng_below(&g, 20))
                                              : rsv_value_tombstone()}};
        int greater = rsv_key_compare(kb, lb, ka, la) > 0;
        uint64_t lcp = rsv_key_lcp_bits(ka, la, kb, lb);
        uint64_t kept = lcp - (uint64_t)rsv_rng_below(&g, lcp + 1);
        /* KV03 file through the framed writer */
        rsv_kv03_policy p = k_pol[round % 4];
        rsv_kv03_writer w;
        cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
        rsv_value_span sa = span_of(&r[0]), sb = span_of(&r[1]);
        cr_assert_eq(rsv__kv03_writer_add_framed(&w, 0, 8 * la, rsv_view_make(ka, 0, 8 * la), &sa), RSV_OK);
        cr_assert_eq(rsv__kv03_writer_add_framed(&w, kept, 8 * lb, rsv_view_make(kb, kept, 8 * lb - kept), &sb),
                     RSV_OK);
        uint8_t *file;
        size_t n;
        cr_assert_eq(rsv_kv03_writer_finish(&w, &file, &n), RSV_OK);
        rsv_kv03_writer_free(&w);
        rsv_kv03d_report rep;
        rsv_kv03d_report_init(&rep);
        cr_assert(rsv_kv03d_file(file, n, NULL, greater ? r : NULL, greater ? 2 : 0, &rep), "round %d (how %d, d %zu, kept %llu): %s",
                  round, how, d, (unsigned long long)kept, rep.msg);
        rsv_kv03_file f;
        cr_assert_eq(rsv_kv03_open(file, n, NULL, &f), RSV_OK);
        rsv_kv03_cursor c;
        rsv_kv03_entry e;
        int more = 1;
        rsv_kv03_cursor_init(&c, &f);
        rsv_status st = RSV_OK;
        while (st == RSV_OK && more) st = rsv_kv03_cursor_record(&c, &e, &more);
        cr_assert_eq(st, greater ? RSV_OK : RSV_ERR_UNSORTED, "round %d: %s", round, rsv_status_name(st));
        rsv_kv03_cursor_free(&c);
        free(file);
        /* the same pair as a record stream, in an exact-size buffer */
        rsv_writer sw;
        stream_of(&r[0], &r[1], kept, &sw);
        uint64_t E = rsv_writer_bits(&sw);
        size_t nb = (size_t)((E + 7) / 8);
        uint8_t *x = malloc(nb);
        memcpy(x, rsv_writer_view(&sw).data, nb);
        rsv_writer_free(&sw);
        rsv_kv03d_report_init(&rep);
        cr_assert(rsv_kv03d_stream(x, E, NULL, 0, greater ? r : NULL, greater ? 2 : 0, &rep), "stream round %d: %s",
                  round, rep.msg);
        rsv_stream_reader sr;
        rsv_stream_record sr_rec;
        rsv_stream_reader_init(&sr, rsv_view_make(x, 0, E), NULL, 0);
        more = 1;
        st = RSV_OK;
        while (st == RSV_OK && more) st = rsv_stream_reader_next(&sr, &sr_rec, &more);
        cr_assert_eq(st, greater ? RSV_OK : RSV_ERR_UNSORTED, "stream round %d: %s", round, rsv_status_name(st));
        rsv_stream_reader_free(&sr);
        free(x);
    }
}

/* ---- guard pages ---------------------------------------------------------- */

/* n bytes whose first `readable` end at the end of a readable page, the rest
 * (intact) in PROT_NONE pages. */
typedef struct guarded {
    uint8_t *map, *p;
    size_t len;
} guarded;

static void guard_map(guarded *gd, const uint8_t *bytes, size_t n, size_t readable)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t rp = (readable + page - 1) / page + 1, rest = (n - readable + page - 1) / page + 1;
    gd->len = (rp + rest) * page;
    gd->map = mmap(NULL, gd->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    cr_assert(gd->map != MAP_FAILED);
    gd->p = gd->map + rp * page - readable;
    memcpy(gd->p, bytes, n);
    cr_assert_eq(mprotect(gd->map, rp * page, PROT_READ), 0);
    cr_assert_eq(mprotect(gd->map + rp * page, gd->len - rp * page, PROT_NONE), 0);
}

Test(kv03_words, streams_flush_against_guard_pages)
{
    rsv_rng g = {0x6A4D};
    for (size_t Lb = 1; Lb <= 80; Lb++)
        for (int variant = 0; variant < 6; variant++) {
            shape s = {0};
            make_shape(&g, &s, (size_t)rsv_rng_below(&g, 10), (unsigned)variant % 8, Lb, variant == 5, 0);
            if (variant % 2) s.r[1].value = rsv_value_tombstone(); /* the literal is (almost) the last thing */
            rsv_kv03_policy p = {RSV_BACKSPACE_EG, 0, 1000, 15};
            uint8_t *bytes;
            size_t n;
            cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, s.r, s.n, &bytes, &n), RSV_OK);
            uint64_t len0 = 0;
            for (int i = 0; i < 8; i++) len0 |= (uint64_t)bytes[96 + 72 + i] << (8 * i);
            guarded gd;
            guard_map(&gd, bytes, n, 288 + (size_t)len0);
            rsv_kv03_file f;
            cr_assert_eq(rsv_kv03_open(gd.p, n, NULL, &f), RSV_OK);
            rsv_kv03_frames fw;
            rsv_kv03_frame fr;
            int more;
            size_t i = 0;
            rsv_kv03_frames_init(&fw, &f);
            while (rsv_kv03_frames_next(&fw, &fr, &more) == RSV_OK && more) i++;
            cr_assert_eq(i, s.n);
            char what[32];
            snprintf(what, sizeof what, "Lb %zu", Lb);
            check_cursor_walks(&f, s.r, s.n, what);
            munmap(gd.map, gd.len);
            free(bytes);
            /* the record stream, its last byte flush against the guard */
            rsv_oracle_record o[3];
            rsv_kv03d_to_oracle(s.r, s.n, o);
            uint64_t E;
            size_t bad;
            cr_assert_eq(rsv_oracle_stream_encode(o, s.n, (const uint8_t *)"\0", 1, &bytes, &E, &bad), RSV_OK);
            size_t nb = (size_t)((E + 7) / 8);
            guard_map(&gd, bytes, nb, nb);
            rsv_kv03d_report rep;
            rsv_kv03d_report_init(&rep);
            cr_assert(rsv_kv03d_stream(gd.p, E, NULL, 0, s.r, s.n, &rep), "Lb %zu: %s", Lb, rep.msg);
            munmap(gd.map, gd.len);
            free(bytes);
        }
}

/* The merge's private short-literal option of the frame walker
 * (rsv__kv03_frames_literal_words): when rsv__literal_inline is set,
 * rsv__literal_word holds the literal's bits. */
Test(kv03_words, frames_literal_words_option)
{
    rsv_rng g = {0x11EE};
    for (size_t Lb = 1; Lb <= 12; Lb++)
        for (unsigned u = 0; u < 8; u++) {
            shape s = {0};
            make_shape(&g, &s, (size_t)rsv_rng_below(&g, 4), u, Lb, 0, 1);
            rsv_kv03_policy p = k_pol[(Lb + u) % 4];
            uint8_t *bytes;
            size_t n;
            cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, s.r, s.n, &bytes, &n), RSV_OK);
            rsv_kv03_file f;
            cr_assert_eq(rsv_kv03_open(bytes, n, NULL, &f), RSV_OK);
            rsv_kv03_frames fw;
            rsv_kv03_frame fr;
            int more;
            rsv_kv03_frames_init(&fw, &f);
            rsv__kv03_frames_literal_words(&fw);
            size_t i = 0, inl = 0;
            while (rsv_kv03_frames_next(&fw, &fr, &more) == RSV_OK && more) {
                if (fr.rsv__literal_inline) {
                    uint64_t want = 0;
                    for (uint64_t b = 0; b < fr.literal.len; b++) {
                        uint64_t at = fr.literal.off + b;
                        want = (want << 1) | ((fr.literal.data[at / 8] >> (7 - at % 8)) & 1);
                    }
                    cr_assert_eq(fr.rsv__literal_word, want, "record %zu, %llu bits", i, (unsigned long long)fr.literal.len);
                    inl++;
                } else {
                    cr_assert(fr.literal.len > 57, "short literal not inline");
                }
                i++;
            }
            cr_assert_eq(i, s.n);
            cr_assert(inl > 0);
            free(bytes);
        }
}

/* The merge's one-word order check (merge.c, advance: a literal of at most 57
 * bits compared with the previous key E in one word) at its limit: A = eight
 * zero bytes, B = A with its last bit set, B framed with a retained length of
 * 7 bits (KV03.md §2: readers accept any length up to the lcp, here 63). Then
 * the literal is S = 64 − 7 = 57 bits, E has le = 57 bits after the retained
 * part, and they differ only in the 57th: B > A, so the merge must accept the
 * input (and emit both records, as the oracle's merge does); a check that
 * compared only 56 bits would see two equal stretches of equal length and
 * call the input UNSORTED. The same with B's last bit clear (B = A): UNSORTED
 * from both. Then with every retained length 6..0 (literals of 58..64
 * bits, which the bit-wise compare decides: a literal comes as one word only
 * when the walker's 64-bit cache holds all of it after its EG0 length, at
 * least 11 bits for S >= 58, so never past 53 bits unless refilled, which
 * happens for S <= 57 only), each after 0..7 leading records (keys of 1..7
 * zero bytes, each a prefix of the next and of A), so B starts at 8
 * different positions. */
Test(kv03_words, merge_order_check_at_and_past_the_57th_literal_bit)
{
    static const uint8_t ka[8] = {0}, kb[2][8] = {{0, 0, 0, 0, 0, 0, 0, 1}, {0}};
    rsv_kv03_policy p = k_pol[0];
    uint8_t *empty;
    size_t ne;
    rsv_kv03_writer w;
    cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_finish(&w, &empty, &ne), RSV_OK);
    rsv_kv03_writer_free(&w);
    for (int t = 0; t < 8 * 8 * 2; t++) {
        int dup = t % 2;
        uint64_t kept = 7 - (uint64_t)(t / 16), lead = (uint64_t)(t / 2 % 8);
        cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
        rsv_value_span s = span_of(&(rsv_record){ka, 8, rsv_value_tombstone()});
        for (uint64_t j = 1; j <= lead; j++) /* keys of j zero bytes, each a prefix of the next and of A */
            cr_assert_eq(rsv__kv03_writer_add_framed(&w, 8 * (j - 1), 8 * j, rsv_view_make(ka, 8 * (j - 1), 8), &s),
                         RSV_OK);
        cr_assert_eq(rsv__kv03_writer_add_framed(&w, 8 * lead, 64, rsv_view_make(ka, 8 * lead, 64 - 8 * lead), &s),
                     RSV_OK);
        cr_assert_eq(rsv__kv03_writer_add_framed(&w, kept, 64, rsv_view_make(kb[dup], kept, 64 - kept), &s), RSV_OK);
        uint8_t *file, *out = NULL;
        size_t n, nout = 0;
        cr_assert_eq(rsv_kv03_writer_finish(&w, &file, &n), RSV_OK);
        rsv_kv03_writer_free(&w);
        rsv_kv03_file f, fe;
        cr_assert_eq(rsv_kv03_open(file, n, NULL, &f), RSV_OK);
        cr_assert_eq(rsv_kv03_open(empty, ne, NULL, &fe), RSV_OK);
        const rsv_kv03_file *in[2] = {&f, &fe};
        rsv_status st = rsv_merge_files(in, 2, 0, &out, &nout);
        rsv_oracle_bytes ob[2] = {{file, n}, {empty, ne}};
        rsv_oracle_merge_result o;
        rsv_status ost = rsv_oracle_kv03_merge(ob, 2, 0, &o);
        cr_assert_eq(ost, dup ? RSV_ERR_UNSORTED : RSV_OK, "kept %llu, lead %llu: oracle: %s",
                     (unsigned long long)kept, (unsigned long long)lead, rsv_status_name(ost));
        cr_assert_eq(st, ost, "kept %llu, lead %llu, dup %d: merge %s, oracle %s", (unsigned long long)kept,
                     (unsigned long long)lead, dup, rsv_status_name(st), rsv_status_name(ost));
        if (st == RSV_OK)
            cr_assert(nout == o.out_len && memcmp(out, o.out, nout) == 0, "merge output differs from the oracle's");
        rsv_oracle_merge_result_free(&o);
        free(out);
        rsv_kv03_close(&fe);
        rsv_kv03_close(&f);
        free(file);
    }
    free(empty);
}

/* The fast parse prefetches the next record's start after a value of >= 48
 * bytes, only while that start lies in the view (kv03_fast_read.h). Here a
 * 48..63-byte value ends the view on a byte boundary, so the byte after the
 * view is the first byte that holds no view bit: in RSV_LOAD_CHECK builds
 * (the ctest gate) a prefetch of it aborts like an out-of-view load. Files
 * and record streams with such an end are found by putting 0..15
 * tombstones before the last record (each moves the end by its own length);
 * the test asserts that it found some of each. */
Test(kv03_words, long_last_value_ends_the_view_on_a_byte_boundary)
{
    uint8_t keys[16][2], last[1] = {0x20}, val[64];
    for (size_t i = 0; i < sizeof val; i++) val[i] = (uint8_t)(0xA5 ^ i);
    int files = 0, streams = 0;
    for (size_t vlen = 48; vlen <= 63; vlen++)
        for (size_t t = 0; t < 16; t++) {
            rsv_record r[17];
            for (size_t j = 0; j < t; j++) {
                keys[j][0] = 0x10, keys[j][1] = (uint8_t)j;
                r[j] = (rsv_record){.key = keys[j], .key_len = 2, .value = rsv_value_tombstone()};
            }
            r[t] = (rsv_record){.key = last, .key_len = 1, .value = rsv_value_present(val, vlen)};
            size_t n = t + 1;
            uint8_t *bytes;
            size_t nb;
            rsv_kv03_file f;
            encode_open_default(r, n, &bytes, &nb, &f);
            if ((f.data.off + f.data.len) % 8 == 0) {
                files++;
                rsv_kv03_frames fw;
                rsv_kv03_frame fr;
                int more;
                size_t i = 0;
                rsv_kv03_frames_init(&fw, &f);
                while (rsv_kv03_frames_next(&fw, &fr, &more) == RSV_OK && more) {
                    if (i == t) /* the last value ends the view */
                        cr_assert(fr.value.len == vlen && fr.value.bytes.off + fr.value.bytes.len ==
                                                              f.data.off + f.data.len);
                    i++;
                }
                cr_assert_eq(i, n);
                char what[48];
                snprintf(what, sizeof what, "vlen %zu, %zu tombstones", vlen, t);
                check_cursor_walks(&f, r, n, what);
            }
            free(bytes);
            rsv_oracle_record o[17];
            rsv_kv03d_to_oracle(r, n, o);
            uint64_t E;
            size_t bad;
            cr_assert_eq(rsv_oracle_stream_encode(o, n, (const uint8_t *)"\0", 1, &bytes, &E, &bad), RSV_OK);
            if (E % 8 == 0) {
                streams++;
                rsv_kv03d_report rep;
                rsv_kv03d_report_init(&rep);
                cr_assert(rsv_kv03d_stream(bytes, E, NULL, 0, r, n, &rep), "vlen %zu, %zu tombstones: %s", vlen, t,
                          rep.msg);
            }
            free(bytes);
        }
    cr_assert(files > 0 && streams > 0, "%d files, %d streams ended on a byte boundary", files, streams);
}
