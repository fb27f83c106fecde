/* KV03 v2 reader against the v2 oracle (oracle_kv03_v2.h) on random
 * multi-code files: random prefix-free code sets (2..9 codes, some longer
 * than 64 bits so that transition tails outrun the reader's cache), random
 * sorted records per code, random policies (W 1..5 or 15; EG0/1/3, Golomb
 * 1/3/7). The oracle encodes; the codec must then
 *   - open and scan OK, walk with frames (fast path), the generic parse
 *     alone and the cursor to exactly the input records and code indices;
 *   - land every rsv_kv03_cursor_seek_code(j) on the first record whose code
 *     index is >= j (computed here from the input);
 * and on single-bit flips of the data stream, dictionary, offsets and seeds
 * (resealed) agree with the oracle's SCAN and WALK modes on the status and,
 * for walk errors, the record and bit. Each test fails if it ran no case. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "reservoir/kv03.h"
#include "reservoir/oracle_kv03.h"

#include "../codec/src/kv03_frame_parse.h" /* rsv__kv03_parse_generic */
#include "kv03_diff.h"
#include "testutil.h"

#define MAXC 9
#define MAXBITS 160

typedef struct codeset {
    uint8_t bits[MAXC][MAXBITS / 8];
    uint64_t len[MAXC];
    size_t m;
} codeset;

static unsigned getb(const uint8_t *b, uint64_t i) { return (b[i / 8] >> (7 - i % 8)) & 1u; }
static void setb(uint8_t *b, uint64_t i, unsigned v)
{
    if (v) b[i / 8] |= (uint8_t)(0x80u >> (i % 8));
    else b[i / 8] &= (uint8_t)~(0x80u >> (i % 8));
}

/* A random prefix-free set in increasing bit-string order: split leaves of
 * a binary tree, drop some, extend some by random bits (long ones too). */
static void random_codes(rsv_rng *g, codeset *cs)
{
    memset(cs, 0, sizeof *cs);
    cs->m = 1; /* the empty code, split below */
    size_t want = 2 + (size_t)rsv_rng_below(g, MAXC - 1);
    while (cs->m < want) {
        size_t k = (size_t)rsv_rng_below(g, cs->m);
        if (cs->len[k] >= 40) continue;
        /* replace k by k‖0 and k‖1 (kept in order) */
        memmove(&cs->bits[k + 2], &cs->bits[k + 1], (cs->m - k - 1) * sizeof cs->bits[0]);
        memmove(&cs->len[k + 2], &cs->len[k + 1], (cs->m - k - 1) * sizeof cs->len[0]);
        memcpy(cs->bits[k + 1], cs->bits[k], sizeof cs->bits[0]);
        cs->len[k + 1] = cs->len[k];
        setb(cs->bits[k], cs->len[k]++, 0);
        setb(cs->bits[k + 1], cs->len[k + 1]++, 1);
        cs->m++;
    }
    for (size_t k = 0; k < cs->m; k++) { /* extensions keep the set prefix-free and ordered */
        uint64_t ext = rsv_rng_below(g, 4) == 0 ? rsv_rng_below(g, 100) : rsv_rng_below(g, 3);
        for (uint64_t e = 0; e < ext && cs->len[k] < MAXBITS; e++) setb(cs->bits[k], cs->len[k]++, (unsigned)rsv_rng_below(g, 2));
    }
    if (cs->m > 2 && rsv_rng_below(g, 3) == 0) { /* drop one code (an incomplete set) */
        size_t k = (size_t)rsv_rng_below(g, cs->m);
        memmove(&cs->bits[k], &cs->bits[k + 1], (cs->m - k - 1) * sizeof cs->bits[0]);
        memmove(&cs->len[k], &cs->len[k + 1], (cs->m - k - 1) * sizeof cs->len[0]);
        cs->m--;
    }
}

static const char *const KEYS[] = {"", "\0", "a", "ab", "abc", "abd", "b", "ba", "bzzzzzzzzzz", "c"};
#define NKEYS (sizeof KEYS / sizeof KEYS[0])
static const size_t KLEN[NKEYS] = {0, 1, 1, 2, 3, 3, 1, 2, 11, 1};

typedef struct fileset {
    rsv_oracle_crecord r[MAXC * NKEYS];
    uint64_t rank[MAXC * NKEYS]; /* dictionary index: rank among the codes used */
    size_t n, used;
    rsv_oracle_kv03_policy p;
} fileset;

static void random_file(rsv_rng *g, const codeset *cs, fileset *fs)
{
    static const uint8_t vals[] = "xyzw";
    fs->n = fs->used = 0;
    for (size_t k = 0; k < cs->m; k++) {
        size_t before = fs->n;
        for (size_t key = 0; key < NKEYS; key++) {
            if (rsv_rng_below(g, 3) != 0) continue;
            rsv_oracle_crecord *c = &fs->r[fs->n];
            c->code.bits = cs->bits[k];
            c->code.nbits = cs->len[k];
            c->rec.key = (const uint8_t *)KEYS[key];
            c->rec.key_len = KLEN[key];
            unsigned v = (unsigned)rsv_rng_below(g, 3);
            c->rec.state = v == 0 ? RSV_ORACLE_TOMBSTONE : RSV_ORACLE_PRESENT;
            c->rec.value = v == 0 ? NULL : vals;
            c->rec.value_len = v == 2 ? (size_t)rsv_rng_below(g, 4) : 0;
            fs->rank[fs->n] = fs->used;
            fs->n++;
        }
        if (fs->n > before) fs->used++;
    }
    static const uint64_t W[] = {1, 2, 3, 4, 5, 15};
    static const uint64_t kind[] = {0, 0, 0, 1, 1, 1}, param[] = {0, 1, 3, 1, 3, 7};
    unsigned b = (unsigned)rsv_rng_below(g, 6);
    fs->p.bs_kind = kind[b];
    fs->p.bs_param = param[b];
    fs->p.W = W[rsv_rng_below(g, 6)];
    fs->p.K = 3;
}

static int same_bits(rsv_view v, const rsv_oracle_code *c)
{
    if (v.len != c->nbits) return 0;
    for (uint64_t i = 0; i < v.len; i++)
        if (getb(v.data, v.off + i) != getb(c->bits, i)) return 0;
    return 1;
}

static void check_frame_fields(const rsv_kv03_frame *a, const rsv_kv03_frame *b)
{
    cr_assert(a->index == b->index && a->start == b->start && a->end == b->end && a->code == b->code &&
              a->retained == b->retained && a->local == b->local && a->key_bits == b->key_bits &&
              a->block_start == b->block_start && a->value.width == b->value.width,
              "fast and generic frames differ at record %llu", (unsigned long long)a->index);
}

/* Walk a valid file every way; returns the number of records compared. */
static size_t check_valid(const uint8_t *file, size_t size, const fileset *fs)
{
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(file, size, NULL, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_code_count(&f), fs->used);
    rsv_kv03_diag d;
    rsv_status st = rsv_kv03_scan(&f, &d);
    cr_assert_eq(st, RSV_OK, "scan %s at record %llu bit %llu", rsv_status_name(st), (unsigned long long)d.record,
                 (unsigned long long)d.bit);
    /* frames (fast path) against the generic parse alone */
    rsv_kv03_frames a, b;
    rsv_kv03_frame fa, fb;
    int more;
    cr_assert_eq(rsv_kv03_frames_init(&a, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_frames_init(&b, &f), RSV_OK);
    for (size_t i = 0; i < fs->n; i++) {
        cr_assert_eq(rsv_kv03_frames_next(&a, &fa, &more), RSV_OK);
        cr_assert(more);
        cr_assert_eq(rsv__kv03_parse_generic(&b, &fb), RSV_OK);
        check_frame_fields(&fa, &fb);
        cr_assert_eq(fa.code, fs->rank[i]);
        rsv_view v;
        cr_assert_eq(rsv_kv03_code(&f, fa.code, &v), RSV_OK);
        cr_assert(same_bits(v, &fs->r[i].code), "record %zu: code bits", i);
    }
    /* cursor: keys and values */
    rsv_kv03_cursor c;
    rsv_kv03_entry e;
    cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
    for (size_t i = 0; i < fs->n; i++) {
        const rsv_oracle_record *w = &fs->r[i].rec;
        cr_assert_eq(rsv_kv03_cursor_record(&c, &e, &more), RSV_OK);
        cr_assert(more);
        cr_assert_eq(e.code, fs->rank[i]);
        cr_assert(e.key_len == w->key_len && memcmp(e.key, w->key, w->key_len) == 0, "record %zu key", i);
        cr_assert_eq(e.value.kind == RSV_VALUE_PRESENT, w->state == RSV_ORACLE_PRESENT);
        cr_assert(e.value.len == w->value_len && (!w->value_len || !memcmp(e.value.data, w->value, w->value_len)));
    }
    cr_assert_eq(rsv_kv03_cursor_next(&c, &e, &more), RSV_OK);
    cr_assert_eq(more, 0);
    /* seek to every code: the first record with rank >= j, then the rest */
    for (uint64_t j = 0; j < fs->used; j++) {
        size_t i0 = 0;
        while (fs->rank[i0] < j) i0++;
        cr_assert_eq(rsv_kv03_cursor_seek_code(&c, j), RSV_OK);
        for (size_t i = i0; i < fs->n; i++) {
            cr_assert_eq(rsv_kv03_cursor_next(&c, &e, &more), RSV_OK, "seek %llu record %zu", (unsigned long long)j, i);
            cr_assert(more);
            cr_assert_eq(e.index, i);
            cr_assert(e.key_len == fs->r[i].rec.key_len && !memcmp(e.key, fs->r[i].rec.key, e.key_len));
        }
        cr_assert_eq(rsv_kv03_cursor_next(&c, &e, &more), RSV_OK);
        cr_assert_eq(more, 0);
        uint64_t lo, hi;
        cr_assert_eq(rsv_kv03_first_block_of_code(&f, j, &lo, &hi), RSV_OK);
        cr_assert(i0 / fs->p.W == lo || i0 == hi * fs->p.W, "code %llu first record %zu outside [%llu, %llu]",
                  (unsigned long long)j, i0, (unsigned long long)lo, (unsigned long long)hi);
    }
    rsv_kv03_cursor_free(&c);
    return fs->n;
}

/* The codec's walk-error position in the oracle's convention (TERMINAL:
 * the codec reports record N-1, the oracle N). */
static uint64_t as_oracle(rsv_status st, uint64_t rec) { return st == RSV_ERR_TERMINAL_MISMATCH ? rec + 1 : rec; }

static void check_corrupt(const uint8_t *file, size_t size)
{
    rsv_oracle_kv03_v2_result o;
    rsv_kv03_file f;
    rsv_status st = rsv_kv03_open(file, size, NULL, &f);
    rsv_oracle_kv03_decode_v2(file, size, NULL, RSV_ORACLE_KV03_SCAN, &o);
    if (st) { /* open: same status */
        cr_assert_eq(st, o.base.status, "open: codec %s oracle %s", rsv_status_name(st), rsv_status_name(o.base.status));
        rsv_oracle_kv03_v2_result_free(&o);
        return;
    }
    rsv_kv03_diag d;
    st = rsv_kv03_scan(&f, &d);
    cr_assert_eq(st, o.base.status, "scan: codec %s oracle %s (oracle phase %d step %u)", rsv_status_name(st),
                 rsv_status_name(o.base.status), (int)o.base.phase, o.base.step);
    if (st && o.base.phase == RSV_ORACLE_PHASE_SCAN && o.base.step == 3) {
        cr_assert_eq(as_oracle(st, d.record), o.base.record, "scan %s record", rsv_status_name(st));
        cr_assert_eq(d.bit, o.base.bitpos, "scan %s bit", rsv_status_name(st));
    }
    rsv_oracle_kv03_v2_result_free(&o);
    rsv_oracle_kv03_decode_v2(file, size, NULL, RSV_ORACLE_KV03_WALK, &o);
    rsv_kv03_cursor c;
    rsv_kv03_entry e;
    int more = 1;
    st = rsv_kv03_cursor_init(&c, &f);
    while (st == RSV_OK && more) st = rsv_kv03_cursor_next(&c, &e, &more);
    cr_assert_eq(st, o.base.status, "walk: codec %s oracle %s", rsv_status_name(st), rsv_status_name(o.base.status));
    if (st) {
        d = rsv_kv03_cursor_diag(&c);
        cr_assert_eq(as_oracle(st, d.record), o.base.record, "walk %s record %llu vs %llu", rsv_status_name(st),
                     (unsigned long long)d.record, (unsigned long long)o.base.record);
        cr_assert_eq(d.bit, o.base.bitpos, "walk %s bit %llu vs %llu", rsv_status_name(st), (unsigned long long)d.bit,
                     (unsigned long long)o.base.bitpos);
    }
    rsv_kv03_cursor_free(&c);
    rsv_oracle_kv03_v2_result_free(&o);
}

static uint64_t le(const uint8_t *p)
{
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--) x = (x << 8) | p[i];
    return x;
}

Test(kv03_v2_diff, random_files_and_bit_flips)
{
    rsv_rng g = {0x5EED0002};
    size_t files = 0, records = 0, flips = 0;
    for (int t = 0; t < 300; t++) {
        codeset cs;
        fileset fs;
        random_codes(&g, &cs);
        random_file(&g, &cs, &fs);
        if (fs.used < 2) continue;
        uint8_t *file;
        size_t size, bad;
        rsv_status st = rsv_oracle_kv03_encode_v2(fs.r, fs.n, &fs.p, &file, &size, &bad);
        cr_assert_eq(st, RSV_OK, "oracle encode %s", rsv_status_name(st));
        records += check_valid(file, size, &fs);
        files++;
        /* flips inside sections 0 (data), 5 (dictionary), 6 (offsets), 7 (seeds) */
        const uint8_t *body = file + 96;
        for (int k = 0; k < 24; k++) {
            int sec = k % 4 == 0 ? 0 : k % 4 == 1 ? 5 : k % 4 == 2 ? 6 : 7;
            uint64_t off = le(body + 64 + 16 * sec), len = le(body + 72 + 16 * sec);
            if (len == 0) continue;
            uint8_t *b = malloc(size);
            memcpy(b, file, size);
            uint64_t bit = rsv_rng_below(&g, 8 * len);
            if (sec == 6) bit = 8 * (8 * rsv_rng_below(&g, len / 8)) + rsv_rng_below(&g, 8); /* low byte of a word */
            b[96 + off + bit / 8] ^= (uint8_t)(0x80u >> (bit % 8));
            rsv_kv03d_reseal(b, size);
            check_corrupt(b, size);
            flips++;
            free(b);
        }
        free(file);
    }
    cr_assert_gt(files, 100, "only %zu multi-code files", files);
    cr_assert_gt(records, 1000);
    cr_assert_gt(flips, 2000);
}
