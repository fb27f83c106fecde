/* KV03 property tests: random record sets under many policies and selector
 * codes round-trip through the writer, open, scan, frames, cursor, record
 * streams and merges; Elias–Fano select returns its input, including sparse
 * groups, and rejects the corruptions of KV03.md §4. Expected values come
 * from the generated input (or a merge computed naively here), never from the
 * code under test. */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "reservoir/ef.h"
#include "reservoir/kv03.h"
#include "reservoir/merge.h"
#include "reservoir/stream.h"
#include "kv03_diff_gen.h"
#include "testutil.h"

typedef struct recset {
    rsv_record *r;
    uint8_t **keys, **vals;
    size_t n;
} recset;

static int cmp_key(const void *a, const void *b)
{
    const rsv_record *x = a, *y = b;
    return rsv_key_compare(x->key, x->key_len, y->key, y->key_len);
}

/* n random keys over a 3-letter alphabet (long shared prefixes, the empty key
 * possible, bytes 0x00 included), sorted and deduplicated; values: tombstone,
 * present-empty or 1..maxv random bytes (fixed length `fixed` if > 0). */
static recset gen(rsv_rng *g, size_t n, size_t maxv, size_t fixed)
{
    recset s;
    s.r = calloc(n ? n : 1, sizeof *s.r);
    s.keys = calloc(n ? n : 1, sizeof *s.keys);
    s.vals = calloc(n ? n : 1, sizeof *s.vals);
    static const uint8_t alpha[3] = {0x00, 'a', 0xff};
    for (size_t i = 0; i < n; i++) {
        size_t kl = (size_t)rsv_rng_below(g, 12);
        s.keys[i] = malloc(kl + 1);
        for (size_t j = 0; j < kl; j++) s.keys[i][j] = alpha[rsv_rng_below(g, 3)];
        s.r[i].key = s.keys[i];
        s.r[i].key_len = kl;
        uint64_t kind = rsv_rng_below(g, 4);
        size_t vl = fixed ? fixed : (size_t)rsv_rng_below(g, maxv + 1);
        s.vals[i] = malloc(vl + 1);
        for (size_t j = 0; j < vl; j++) s.vals[i][j] = (uint8_t)rsv_rng_next(g);
        if (!fixed && kind == 0) s.r[i].value = rsv_value_tombstone();
        else if (!fixed && kind == 1) s.r[i].value = rsv_value_present(s.vals[i], 0);
        else s.r[i].value = rsv_value_present(s.vals[i], vl);
    }
    s.n = rsv_kv03d_sort_unique(s.r, n);
    return s;
}

static void drop(recset *s, size_t n_alloc)
{
    for (size_t i = 0; i < n_alloc; i++) {
        free(s->keys[i]);
        free(s->vals[i]);
    }
    free(s->keys);
    free(s->vals);
    free(s->r);
}

static void same_value(rsv_value a, rsv_value b)
{
    cr_assert_eq(a.kind, b.kind);
    if (a.kind == RSV_VALUE_PRESENT) {
        cr_assert_eq(a.len, b.len);
        if (a.len) cr_assert_eq(memcmp(a.data, b.data, a.len), 0);
    }
}

static void check_file(const uint8_t *bytes, size_t nb, const rsv_kv03_policy *p, const recset *s)
{
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(bytes, nb, p, &f), RSV_OK);
    cr_assert_eq(f.N, s->n);
    rsv_kv03_diag dg;
    cr_assert_eq(rsv_kv03_scan(&f, &dg), RSV_OK, "scan: %s at record %llu", rsv_status_name(dg.status),
                 (unsigned long long)dg.record);
    rsv_kv03_cursor c;
    rsv_kv03_entry e;
    int more;
    rsv_kv03_cursor_init(&c, &f);
    for (size_t i = 0; i < s->n; i++) {
        cr_assert_eq(rsv_kv03_cursor_record(&c, &e, &more), RSV_OK);
        cr_assert_eq(more, 1);
        cr_assert_eq(rsv_key_compare(e.key, e.key_len, s->r[i].key, s->r[i].key_len), 0);
        same_value(e.value, s->r[i].value);
    }
    cr_assert_eq(rsv_kv03_cursor_record(&c, &e, &more), RSV_OK);
    cr_assert_eq(more, 0);
    rsv_kv03_cursor_free(&c);
    rsv_kv03_frames fw;
    rsv_kv03_frame fr;
    rsv_kv03_frames_init(&fw, &f);
    uint64_t count = 0;
    while (rsv_kv03_frames_next(&fw, &fr, &more) == RSV_OK && more) {
        cr_assert_eq(fr.key_bits, 8 * (uint64_t)s->r[count].key_len);
        if (fr.block_start) {
            uint64_t bit;
            cr_assert_eq(rsv_kv03_block_offset(&f, fr.index / p->W, &bit), RSV_OK);
            cr_assert_eq(bit, fr.start);
        }
        count++;
    }
    cr_assert_eq(rsv_kv03_frames_diag(&fw).status, RSV_OK);
    cr_assert_eq(count, s->n);
}

static void check_stream(const recset *s, const uint8_t *code, uint64_t c)
{
    rsv_writer out;
    rsv_writer_init(&out);
    rsv_stream_writer sw;
    cr_assert_eq(rsv_stream_writer_init(&sw, &out, code, c), RSV_OK);
    for (size_t i = 0; i < s->n; i++)
        cr_assert_eq(rsv_stream_writer_add(&sw, s->r[i].key, s->r[i].key_len, s->r[i].value), RSV_OK);
    uint64_t E = rsv_stream_writer_extent(&sw);
    rsv_stream_reader sr;
    rsv_stream_record rec;
    int more;
    rsv_stream_reader_init(&sr, rsv_view_make(rsv_writer_data(&out), 0, E), code, c);
    for (size_t i = 0; i < s->n; i++) {
        cr_assert_eq(rsv_stream_reader_next(&sr, &rec, &more), RSV_OK);
        cr_assert_eq(more, 1);
        cr_assert_eq(rsv_key_compare(rec.key, rec.key_len, s->r[i].key, s->r[i].key_len), 0);
        same_value(rec.value, s->r[i].value);
    }
    cr_assert_eq(rsv_stream_reader_next(&sr, &rec, &more), RSV_OK);
    cr_assert_eq(more, 0);
    rsv_stream_reader_free(&sr);
    rsv_stream_writer_free(&sw);
    rsv_writer_free(&out);
}

Test(kv03_roundtrip, policies_and_codes)
{
    rsv_rng g = {42};
    static const rsv_kv03_policy pols[] = {
        {RSV_BACKSPACE_EG, 0, 15, 15},     {RSV_BACKSPACE_EG, 1, 1, 3},
        {RSV_BACKSPACE_EG, 63, 2, 7},      {RSV_BACKSPACE_GOLOMB, 1, 3, 15},
        {RSV_BACKSPACE_GOLOMB, 7, 4, 255}, {RSV_BACKSPACE_GOLOMB, UINT64_MAX, 1000, 15},
    };
    static const uint64_t codes[] = {0, 1, 7, 64, 512};
    uint8_t code[64];
    for (size_t pi = 0; pi < sizeof pols / sizeof pols[0]; pi++) {
        for (size_t ci = 0; ci < 5; ci++) {
            for (size_t j = 0; j < 64; j++) code[j] = (uint8_t)rsv_rng_next(&g);
            size_t n = (size_t)rsv_rng_below(&g, 300);
            recset s = gen(&g, n, 20, pi == 2 ? 3 : 0);
            uint8_t *bytes;
            size_t nb;
            cr_assert_eq(rsv_kv03_encode(&pols[pi], code, codes[ci], s.r, s.n, &bytes, &nb), RSV_OK);
            check_file(bytes, nb, &pols[pi], &s);
            rsv_kv03_file f;
            rsv_kv03_open(bytes, nb, NULL, &f);
            /* fixed-length values: cw present = 1 + |EG0(3)| + 24 = 30 */
            if (pi == 2 && s.n) cr_assert(f.cw_present && f.cw == 30);
            if (s.n) cr_assert_eq(f.dict_bits, codes[ci]);
            check_stream(&s, code, codes[ci]);
            free(bytes);
            drop(&s, n);
        }
    }
}

/* Naive newest-wins merge of k record lists, then batch-encode it and compare
 * with rsv_merge's output byte for byte. */
Test(kv03_roundtrip, merge_equals_batch)
{
    rsv_rng g = {7};
    rsv_kv03_policy p = {RSV_BACKSPACE_EG, 0, 3, 15};
    for (int round = 0; round < 40; round++) {
        size_t k = 2 + (size_t)rsv_rng_below(&g, 3), alloc[4];
        recset in[4];
        uint8_t *bytes[4];
        size_t nbytes[4];
        rsv_kv03_file f[4];
        const rsv_kv03_file *pf[4];
        size_t total = 0;
        for (size_t i = 0; i < k; i++) {
            alloc[i] = (size_t)rsv_rng_below(&g, 60);
            in[i] = gen(&g, alloc[i], 6, 0);
            cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, in[i].r, in[i].n, &bytes[i], &nbytes[i]), RSV_OK);
            cr_assert_eq(rsv_kv03_open(bytes[i], nbytes[i], &p, &f[i]), RSV_OK);
            pf[i] = &f[i];
            total += in[i].n;
        }
        for (int drop_t = 0; drop_t < 2; drop_t++) {
            rsv_record *all = calloc(total ? total : 1, sizeof *all);
            size_t m = 0;
            /* newest first, stable sort by key, keep the first of each key */
            for (size_t i = k; i-- > 0;)
                for (size_t j = 0; j < in[i].n; j++) all[m++] = in[i].r[j];
            for (size_t a = 1; a < m; a++) { /* insertion sort: stable */
                rsv_record x = all[a];
                size_t b = a;
                while (b > 0 && cmp_key(&all[b - 1], &x) > 0) {
                    all[b] = all[b - 1];
                    b--;
                }
                all[b] = x;
            }
            size_t u = 0;
            for (size_t a = 0; a < m; a++) {
                if (a > 0 && cmp_key(&all[a - 1], &all[a]) == 0) continue;
                all[u++] = all[a];
            }
            if (drop_t) {
                size_t v = 0;
                for (size_t a = 0; a < u; a++)
                    if (all[a].value.kind == RSV_VALUE_PRESENT) all[v++] = all[a];
                u = v;
            }
            uint8_t *want, *got;
            size_t nwant, ngot;
            cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, all, u, &want, &nwant), RSV_OK);
            cr_assert_eq(rsv_merge_files(pf, k, drop_t ? RSV_MERGE_DROP_TOMBSTONES : 0, &got, &ngot), RSV_OK);
            cr_assert_eq(ngot, nwant);
            cr_assert_eq(memcmp(got, want, nwant), 0, "round %d", round);
            free(want);
            free(got);
            free(all);
        }
        for (size_t i = 0; i < k; i++) {
            free(bytes[i]);
            drop(&in[i], alloc[i]);
        }
    }
}

/* A merge input with a corrupt data stream fails with the walk's error,
 * poisons the merge and writes no file. */
Test(kv03_roundtrip, merge_failure_leaves_no_file)
{
    rsv_rng g = {9};
    rsv_kv03_policy p = rsv_kv03_policy_default();
    recset s = gen(&g, 50, 4, 0);
    uint8_t *a, *b;
    size_t na, nb;
    cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, s.r, s.n, &a, &na), RSV_OK);
    cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, s.r, s.n, &b, &nb), RSV_OK);
    b[96 + 192] |= 0x80; /* record 0's control becomes `1`: R = 0 < c */
    rsv_kv03_file fa, fb;
    cr_assert_eq(rsv_kv03_open(a, na, NULL, &fa), RSV_OK);
    cr_assert_eq(rsv_kv03_open(b, nb, NULL, &fb), RSV_OK); /* open does not check CRCs of the body */
    const rsv_kv03_file *in[2] = {&fa, &fb};
    rsv_merge m;
    cr_assert_eq(rsv_merge_init(&m, in, 2, 0), RSV_OK);
    cr_assert_eq(rsv_merge_run(&m), RSV_ERR_RETAINED_PRECEDES_CODE);
    cr_assert_eq(rsv_merge_diag(&m).status, RSV_ERR_RETAINED_PRECEDES_CODE);
    cr_assert_eq(rsv_merge_failed_input(&m), 1);
    int done;
    cr_assert_eq(rsv_merge_step(&m, &done), RSV_ERR_POISONED);
    char path[] = "/tmp/rsv_merge_fail_XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    remove(path);
    cr_assert_eq(rsv_merge_finish_path(&m, path), RSV_ERR_POISONED);
    cr_assert_eq(access(path, F_OK), -1);
    rsv_merge_free(&m);
    free(a);
    free(b);
    drop(&s, 50);
}

/* ---- Elias–Fano ---------------------------------------------------------- */

static void ef_roundtrip(const uint64_t *v, uint64_t n, int expect_sparse)
{
    rsv_ef_layout lay;
    cr_assert_eq(rsv_ef_plan(v, n, &lay), RSV_OK);
    cr_assert_eq(lay.sparse_bytes != 0, expect_sparse);
    uint64_t total = lay.low_bytes + lay.high_bytes + lay.samples_bytes + lay.sparse_bytes;
    uint8_t *buf = malloc((size_t)total);
    rsv_ef_encode(v, &lay, buf);
    rsv_ef ef;
    uint8_t *lo = buf, *hi = lo + lay.low_bytes, *sa = hi + lay.high_bytes, *sp = sa + lay.samples_bytes;
    rsv_ef_init(&ef, &lay, lo, hi, sa, sp, lay.sparse_bytes);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t x;
        cr_assert_eq(rsv_ef_select(&ef, i, &x), RSV_OK);
        cr_assert_eq(x, v[i], "i=%llu", (unsigned long long)i);
    }
    uint64_t x;
    cr_assert_eq(rsv_ef_select(&ef, n, &x), RSV_ERR_EF_ORDINAL);
    /* dense sample 0 pointed past H, or a sparse index past section 4 */
    uint8_t save[8];
    memcpy(save, sa + 8, 8);
    if (memcmp(save, "\xff\xff\xff\xff\xff\xff\xff\xff", 8) == 0) {
        uint64_t H = lay.H;
        for (int b = 0; b < 8; b++) sa[b] = (uint8_t)(H >> (8 * b));
    } else {
        uint64_t cnt = lay.sparse_bytes / 8;
        for (int b = 0; b < 8; b++) sa[8 + b] = (uint8_t)(cnt >> (8 * b));
    }
    cr_assert_eq(rsv_ef_select(&ef, 0, &x), RSV_ERR_EF_CORRUPT);
    free(buf);
}

Test(ef, spec_12_3_and_properties)
{
    /* §12.1: entries [0, 97] → L 5, low 0x20, high 0x11, sample {0, MAX} */
    uint64_t v[2] = {0, 97};
    rsv_ef_layout lay;
    cr_assert_eq(rsv_ef_plan(v, 2, &lay), RSV_OK);
    cr_assert_eq(lay.L, 5);
    cr_assert_eq(lay.H, 5);
    uint8_t buf[32];
    rsv_ef_encode(v, &lay, buf);
    static const uint8_t want[32] = {0x20, 0, 0, 0, 0, 0, 0, 0, 0x11, 0, 0, 0, 0, 0, 0, 0,
                                     0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    cr_assert_eq(memcmp(buf, want, 32), 0);
    uint64_t bad[3] = {5, 4, 9};
    cr_assert_eq(rsv_ef_plan(bad, 3, &lay), RSV_ERR_EF_NONMONOTONE);
    uint64_t one[1] = {0};
    ef_roundtrip(one, 1, 0);
    /* 10000 small steps then 300 huge ones: U/n ~ 300*step/10300, so 2^L is
     * about step/34 and 256 huge steps spread the high positions by
     * ~256*34/2 > 4096 inside one group: those groups are sparse */
    uint64_t *s = malloc(10300 * sizeof *s);
    uint64_t acc = 0;
    rsv_rng g = {3};
    for (int i = 0; i < 10300; i++) {
        acc += i < 10000 ? rsv_rng_below(&g, 20) : 100000 + rsv_rng_below(&g, 1000);
        s[i] = acc;
    }
    ef_roundtrip(s, 10300, 1);
    for (int i = 0; i < 2300; i++) s[i] = (uint64_t)i * 37;
    ef_roundtrip(s, 2300, 0);
    for (int i = 0; i < 2300; i++) s[i] = UINT64_MAX - 5000 + (uint64_t)i;
    ef_roundtrip(s, 2300, 0);
    free(s);
}

/* A file whose EF has sparse groups end to end (W = 1: one block per record;
 * 10000 tiny records then 300 records of 12.5 KB, as in the EF test above). */
Test(kv03_roundtrip, sparse_ef_file)
{
    size_t n = 10300;
    rsv_record *r = calloc(n, sizeof *r);
    uint8_t *keys = malloc(4 * n);
    uint8_t *big = calloc(12500, 1);
    for (size_t i = 0; i < n; i++) {
        keys[4 * i] = (uint8_t)(i >> 24);
        keys[4 * i + 1] = (uint8_t)(i >> 16);
        keys[4 * i + 2] = (uint8_t)(i >> 8);
        keys[4 * i + 3] = (uint8_t)i;
        r[i].key = keys + 4 * i;
        r[i].key_len = 4;
        r[i].value = i < 10000 ? rsv_value_tombstone() : rsv_value_present(big, 12500);
    }
    rsv_kv03_policy p = {RSV_BACKSPACE_EG, 0, 1, 15};
    uint8_t *bytes;
    size_t nb;
    cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, r, n, &bytes, &nb), RSV_OK);
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(bytes, nb, &p, &f), RSV_OK);
    cr_assert_gt(f.sec_len[4], 0); /* some group is sparse */
    cr_assert_eq(rsv_kv03_scan(&f, NULL), RSV_OK);
    recset s = {r, NULL, NULL, n};
    check_file(bytes, nb, &p, &s);
    free(bytes);
    free(big);
    free(keys);
    free(r);
}

/* A present value just past the writer's inline width path (values up to
 * 2^28 - 2 bytes take it): n = 2^28 - 1 bytes. Its width by hand (KV03.md
 * §1.3): 1 + |EG0(n)| + 8n with |EG0(n)| = 2 bitlen(n + 1) - 1 = 2 * 29 - 1
 * = 57, so 1 + 57 + 2,147,483,640 = 2,147,483,698 bits. One record, so the
 * header's common width (§4) is that width. The file opens and scans, and
 * the cursor reads the record back: key, kind, length, width and every
 * byte. (Found by the gate's coverage map: no test wrote a value this long,
 * so the writer's general width computation never ran.) */
Test(kv03_roundtrip, value_past_the_inline_width_path)
{
    const uint64_t n = (UINT64_C(1) << 28) - 1, width = UINT64_C(2147483698);
    uint8_t *val = malloc((size_t)n), *back = malloc((size_t)n);
    cr_assert(val && back);
    for (uint64_t i = 0; i < n; i++) val[i] = (uint8_t)(i * 131 + (i >> 16));
    rsv_kv03_policy p = rsv_kv03_policy_default();
    rsv_kv03_writer w;
    cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_add(&w, "big", 3, rsv_value_present(val, (size_t)n)), RSV_OK);
    uint8_t *file = NULL;
    size_t nbytes = 0;
    cr_assert_eq(rsv_kv03_writer_finish(&w, &file, &nbytes), RSV_OK);
    rsv_kv03_writer_free(&w);
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(file, nbytes, NULL, &f), RSV_OK);
    cr_assert_eq(f.N, 1);
    cr_assert(f.cw_present, "one record: the common width is present");
    cr_assert_eq(f.cw, width, "common width %llu, by hand %llu", (unsigned long long)f.cw,
                 (unsigned long long)width);
    cr_assert_eq(rsv_kv03_scan(&f, NULL), RSV_OK);
    rsv_kv03_cursor c;
    rsv_kv03_entry e;
    int more = 0;
    cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_cursor_next(&c, &e, &more), RSV_OK);
    cr_assert_eq(more, 1);
    cr_assert(e.key_len == 3 && memcmp(e.key, "big", 3) == 0);
    cr_assert_eq(e.value_span.kind, RSV_VALUE_PRESENT);
    cr_assert_eq(e.value_span.len, n);
    cr_assert_eq(e.value_span.width, width);
    rsv_value_span_copy(&e.value_span, back);
    cr_assert(memcmp(back, val, (size_t)n) == 0, "the value read back differs");
    cr_assert_eq(rsv_kv03_cursor_next(&c, &e, &more), RSV_OK);
    cr_assert_eq(more, 0);
    rsv_kv03_cursor_free(&c);
    rsv_kv03_close(&f);
    free(file);
    free(val);
    free(back);
}

/* §11: merged with an empty file of the same policy, file f (bytes `file`)
 * comes out byte for byte as the writer wrote it: the writer frames every
 * field from the record's bytes, the merge from the input's spans. The
 * messages name the policy's EG order k. */
static void expect_merge_with_empty_is_identity(const rsv_kv03_policy *p, const rsv_kv03_file *f,
                                                const uint8_t *file, size_t nbytes)
{
    unsigned long long k = (unsigned long long)p->param;
    rsv_kv03_writer w;
    uint8_t *empty = NULL, *merged = NULL;
    size_t nempty = 0, nmerged = 0;
    cr_assert_eq(rsv_kv03_writer_init(&w, p, NULL, 0), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_finish(&w, &empty, &nempty), RSV_OK);
    rsv_kv03_writer_free(&w);
    rsv_kv03_file fe;
    cr_assert_eq(rsv_kv03_open(empty, nempty, NULL, &fe), RSV_OK);
    const rsv_kv03_file *in[2] = {f, &fe};
    rsv_merge m;
    cr_assert_eq(rsv_merge_init(&m, in, 2, 0), RSV_OK);
    cr_assert_eq(rsv_merge_run(&m), RSV_OK);
    cr_assert_eq(rsv_merge_finish(&m, &merged, &nmerged), RSV_OK);
    rsv_merge_free(&m);
    cr_assert_eq(nmerged, nbytes, "k = %llu", k);
    cr_assert(memcmp(merged, file, nbytes) == 0, "k = %llu: the merged file differs from the written one", k);
    free(merged);
    rsv_kv03_close(&fe);
    free(empty);
}

/* The merge frames each record from its span, on the writer's inline path
 * for values up to 2^28 - 2 bytes; a longer one takes the field-by-field
 * path. Value "q" → n = 2^28 bytes (|EG0(n)| = 57, so its `1` ‖ EG0(n) head is
 * 58 bits, more than one inline store takes) placed by hand so that its head
 * starts on a byte's last bit (KV03.md §3.3, default policy: EG0 backspaces):
 *   record 0, key "a", value "xyz": EG0(R = 1) 3 + EG0(S = 8) 7 + 8 literal
 *     + value 1 + EG0(3) 5 + 24 = 48 bits;
 *   record 1, key "q" (lcp with "a" 3 bits: R = 4, backspace 9 - 4 = 5):
 *     EG0(5) 5 + EG0(S = 5) 5 + 5 literal = 15 bits, so its value starts at
 *     bit 63 (data stream; the stream starts on a byte) and its width is
 *     1 + 57 + 8n = 2,147,483,706 bits.
 * Merged with an empty file, the output is the canonical file of the same
 * records (§11): byte-identical to the writer's, which wrote the value
 * field by field from its bytes. */
Test(kv03_roundtrip, merge_of_a_value_past_the_inline_width_path)
{
    const uint64_t n = UINT64_C(1) << 28, width = UINT64_C(2147483706);
    uint8_t *val = malloc((size_t)n);
    cr_assert(val);
    for (uint64_t i = 0; i < n; i++) val[i] = (uint8_t)(i * 29 + (i >> 13));
    rsv_kv03_policy p = rsv_kv03_policy_default();
    cr_assert(p.code == RSV_BACKSPACE_EG && p.param == 0 && p.W >= 2, "the bit counts above need EG0 and W >= 2");
    rsv_kv03_writer w;
    uint8_t *file = NULL;
    size_t nbytes = 0;
    cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_add(&w, "a", 1, rsv_value_present("xyz", 3)), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_add(&w, "q", 1, rsv_value_present(val, (size_t)n)), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_finish(&w, &file, &nbytes), RSV_OK);
    rsv_kv03_writer_free(&w);

    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(file, nbytes, NULL, &f), RSV_OK);
    rsv_kv03_cursor c;
    rsv_kv03_entry e;
    int more = 0;
    cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_cursor_next(&c, &e, &more), RSV_OK);
    cr_assert(more && e.end == 48, "record 0 ends at bit %llu, by hand 48", (unsigned long long)e.end);
    cr_assert_eq(rsv_kv03_cursor_next(&c, &e, &more), RSV_OK);
    cr_assert(more && e.key_len == 1 && e.key[0] == 'q');
    cr_assert(e.value_span.len == n && e.value_span.width == width);
    cr_assert_eq(e.end, 63 + width);
    rsv_kv03_cursor_free(&c);

    expect_merge_with_empty_is_identity(&p, &f, file, nbytes);
    rsv_kv03_close(&f);
    free(file);
    free(val);
}

/* The merge's inline path appends a record's control code as one integer of
 * at most 57 bits (kv03_writer.c control_word) and the field-by-field path
 * takes the rest. An order-k EG backspace of v < 2^k is k + 1 bits (q = 0:
 * `1` then the low k bits), so k = 55, 56, 57 put the control just below, at
 * and just past that limit (KV03.md §3.3):
 *   record 0, key "a", value "xyz": 48 bits (as in the test above: EG0 block
 *     start);
 *   record 1, key "b" (lcp with "a" 6 bits, backspace 8 - 6 = 2), tombstone:
 *     EGk(2) k + 1 + EG0(S = 2) 3 + 2 literal + 1 = k + 7 bits;
 *   record 2, key "c" (lcp with "b" 7 bits, backspace 1), tombstone:
 *     EGk(1) k + 1 + EG0(S = 1) 3 + 1 literal + 1 = k + 6 bits.
 * With k = 56, record 2's 57-bit control starts at bit 48 + 63 = 111, on a
 * byte's last bit: the bit accumulator then holds 7 bits and takes 57, which
 * fill its 64 exactly (rsv__acc_put, bits_fast.h). Merged with an empty
 * file, the output is byte-identical to the writer's (§11), which writes
 * every field from the record's bytes. */
Test(kv03_roundtrip, merge_of_a_control_code_at_the_inline_limit)
{
    for (uint64_t k = 55; k <= 57; k++) {
        rsv_kv03_policy p = rsv_kv03_policy_default();
        p.param = k;
        cr_assert(p.code == RSV_BACKSPACE_EG && p.W >= 2);
        rsv_kv03_writer w;
        uint8_t *file = NULL;
        size_t nbytes = 0;
        cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
        cr_assert_eq(rsv_kv03_writer_add(&w, "a", 1, rsv_value_present("xyz", 3)), RSV_OK);
        cr_assert_eq(rsv_kv03_writer_add(&w, "b", 1, rsv_value_tombstone()), RSV_OK);
        cr_assert_eq(rsv_kv03_writer_add(&w, "c", 1, rsv_value_tombstone()), RSV_OK);
        cr_assert_eq(rsv_kv03_writer_finish(&w, &file, &nbytes), RSV_OK);
        rsv_kv03_writer_free(&w);

        rsv_kv03_file f;
        cr_assert_eq(rsv_kv03_open(file, nbytes, NULL, &f), RSV_OK);
        rsv_kv03_cursor c;
        rsv_kv03_entry e;
        int more = 0;
        cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
        cr_assert_eq(rsv_kv03_cursor_next(&c, &e, &more), RSV_OK);
        cr_assert(more && e.end == 48, "k = %llu: record 0 ends at bit %llu, by hand 48", (unsigned long long)k,
                  (unsigned long long)e.end);
        cr_assert_eq(rsv_kv03_cursor_next(&c, &e, &more), RSV_OK);
        cr_assert(more && e.key_len == 1 && e.key[0] == 'b' && e.value_span.kind == RSV_VALUE_TOMBSTONE);
        cr_assert_eq(e.end, 48 + k + 7, "k = %llu: record 1 ends at bit %llu", (unsigned long long)k,
                     (unsigned long long)e.end);
        cr_assert_eq(rsv_kv03_cursor_next(&c, &e, &more), RSV_OK);
        cr_assert(more && e.key_len == 1 && e.key[0] == 'c' && e.value_span.kind == RSV_VALUE_TOMBSTONE);
        cr_assert_eq(e.end, 48 + (k + 7) + (k + 6), "k = %llu: record 2 ends at bit %llu", (unsigned long long)k,
                     (unsigned long long)e.end);
        rsv_kv03_cursor_free(&c);

        expect_merge_with_empty_is_identity(&p, &f, file, nbytes);
        rsv_kv03_close(&f);
        free(file);
    }
}
