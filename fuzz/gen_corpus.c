/* Seed generator for the fuzz corpora: rsv_gen_corpus OUTDIR writes
 * OUTDIR/reader_diff/<name> and OUTDIR/codes_roundtrip/<name>.
 *
 * Seeds encode the interesting cases of CODES.md directly: every §7.1 valid
 * vector and §7.2 malformed input (the one transcription of the spec tables,
 * tests/support/spec_vectors.c, in the spec's bit notation), the 129-bit maximum code (also after a skip), zero runs of
 * 64/65/140 bits, m = 2^64-1, batch decodes, spans of 2^64-1 and empty views
 * pointing into the guard page. The generator builds the bits by hand and
 * shares nothing with codec/ or oracle/: the targets do the checking.
 *
 * The input formats are common/reader_script.h and common/roundtrip_script.h;
 * values are pushed here in the targets' consumption order and the byte
 * string is reversed at the end (the producer reads from the end, last byte
 * most significant). Output is deterministic: same binary, same files. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "reader_script.h"
#include "roundtrip_script.h"
#include "spec_vectors.h"
#include "testutil.h"

/* The three code families, in spec_vectors.h's order. */
typedef rsv_sv_code code_t;
#define FX RSV_SV_FIXED
#define EG RSV_SV_EG
#define GO RSV_SV_GOLOMB
static const char *const code_names[] = {"fixed", "eg", "golomb"};
#define MAX64 UINT64_MAX

#define MAXB 1024 /* bytes per section: every seed stays well under 1 KiB */

typedef struct seed {
    uint8_t payload[MAXB];
    size_t plen;
    uint8_t cons[MAXB]; /* script bytes in consumption order */
    size_t clen;
} seed;

static const char *g_outdir;
static unsigned g_files;

static void die(const char *what)
{
    fprintf(stderr, "rsv_gen_corpus: %s: %s\n", what, strerror(errno));
    exit(1);
}

/* ---- consumption-order pushes (mirror of data_producer.c) --------------- */

static void push_bytes(seed *s, uint64_t x, unsigned n)
{
    if (s->clen + n > MAXB) {
        fprintf(stderr, "rsv_gen_corpus: script too long\n");
        exit(1);
    }
    for (unsigned i = n; i-- > 0;) s->cons[s->clen++] = (uint8_t)(x >> (8 * i)); /* MSB first */
}
static void u8(seed *s, uint64_t x) { push_bytes(s, x, 1); }
static void u16(seed *s, uint64_t x) { push_bytes(s, x, 2); }
static void u64(seed *s, uint64_t x) { push_bytes(s, x, 8); }

/* Write payload ‖ reverse(prefix ‖ cons) where prefix is the u16 script
 * length for reader_diff (with_len) or nothing for codes_roundtrip. */
static void emit(const seed *s, const char *target, const char *name, int with_len)
{
    char path[512];
    uint8_t out[3 * MAXB];
    size_t n = 0;
    memcpy(out, s->payload, s->plen);
    n = s->plen;
    for (size_t i = s->clen; i-- > 0;) out[n++] = s->cons[i];
    if (with_len) { /* u16 script length, consumed first: file ends LSB, MSB */
        out[n++] = (uint8_t)(s->clen & 0xFF);
        out[n++] = (uint8_t)(s->clen >> 8);
    }
    snprintf(path, sizeof path, "%s/%s/%s", g_outdir, target, name);
    FILE *f = fopen(path, "wb");
    if (!f) die(path);
    if (fwrite(out, 1, n, f) != n || fclose(f) != 0) die(path);
    g_files++;
}

/* ---- payload bits -------------------------------------------------------- */

static void set_bit(seed *s, size_t i, unsigned b)
{
    if (i / 8 >= MAXB) {
        fprintf(stderr, "rsv_gen_corpus: payload too long\n");
        exit(1);
    }
    if (i / 8 >= s->plen) {
        while (s->plen <= i / 8) s->payload[s->plen++] = 0;
    }
    if (b)
        s->payload[i / 8] |= (uint8_t)(0x80u >> (i % 8));
    else
        s->payload[i / 8] &= (uint8_t)~(0x80u >> (i % 8));
}

/* Append the spec notation ("0^64 1 0^63") at bit *at (testutil.h's parser). */
static void put_notation(seed *s, size_t *at, const char *spec)
{
    uint64_t n = rsv_count_bits(spec);
    if (n == UINT64_MAX) {
        fprintf(stderr, "rsv_gen_corpus: bad bit notation \"%s\"\n", spec);
        exit(1);
    }
    if (n) set_bit(s, *at + n - 1, 0); /* grows the payload (zero bytes) to hold the bits */
    if (rsv_parse_bits(spec, s->payload, MAXB, *at) != n) exit(1);
    *at += n;
}

/* A reader_diff payload: `pre` bits of `fill` (outside the view), the
 * notation, then at least `tail` fill bits up to a byte boundary (outside the
 * view). Pushes the view header so that the view is exactly the notation's
 * bits, with its data pointer `shift` bytes before the payload. */
static void view_of(seed *s, unsigned pre, const char *bits, unsigned tail, unsigned fill, unsigned shift)
{
    size_t at = 0;
    memset(s, 0, sizeof *s);
    for (unsigned i = 0; i < pre; i++) set_bit(s, at++, fill);
    put_notation(s, &at, bits);
    size_t nb = at - pre;
    size_t end = at + tail;
    while (end % 8) end++;
    while (at < end) set_bit(s, at++, fill);
    size_t tail_bits = 8 * s->plen - pre - nb;
    if (pre > 255 || tail_bits > 255) {
        fprintf(stderr, "rsv_gen_corpus: view header field out of range\n");
        exit(1);
    }
    u8(s, shift);
    u8(s, pre);       /* off_in */
    u8(s, tail_bits); /* tail */
    u8(s, 0);         /* flags */
}

/* ---- reader_diff operations (common/reader_script.h) --------------------- */

static void modulus(seed *s, uint64_t m, int alt)
{
    unsigned a = alt ? RSV_FUZZ_M_ALT_API : 0u;
    if (m == 1) {
        u8(s, RSV_FUZZ_M_ONE | a);
    } else if (m == 0) {
        u8(s, RSV_FUZZ_M_ZERO | a);
    } else if (m == UINT64_MAX) {
        u8(s, RSV_FUZZ_M_MAX | a);
    } else if (m <= 257) {
        u8(s, RSV_FUZZ_M_SMALL | a);
        u8(s, m - 2);
    } else if ((m & (m - 1)) == 0) {
        unsigned j = 0;
        while ((UINT64_C(1) << j) != m) j++;
        u8(s, RSV_FUZZ_M_POW2 | a);
        u8(s, j - 1); /* 2^(1 + sel % 63) */
    } else {
        u8(s, RSV_FUZZ_M_U64 | a);
        u64(s, m);
    }
}

static void op_read(seed *s, unsigned w) /* w <= 66 */
{
    u8(s, RSV_RD_READ);
    u8(s, w);
}
static void op_read_bit(seed *s) { u8(s, RSV_RD_READ_BIT); }
static void op_eg(seed *s, unsigned k) /* k <= 64 */
{
    u8(s, RSV_RD_READ_EG);
    u8(s, k);
}
static void op_eg0(seed *s) { u8(s, RSV_RD_READ_EG0); }
static void op_golomb(seed *s, uint64_t m, int alt)
{
    u8(s, RSV_RD_READ_GOLOMB);
    modulus(s, m, alt);
}
static void op_seek(seed *s, uint64_t p)
{
    u8(s, RSV_RD_SEEK);
    u16(s, p == UINT64_MAX ? 0xFFFF : p); /* p <= len + 1 */
}
/* take or skip of n bits */
static void op_span(seed *s, enum rsv_rd_op op, uint64_t n)
{
    u8(s, op);
    if (n == UINT64_MAX) {
        u8(s, RSV_RD_SPAN_MAX);
    } else if (n <= 0xFF) {
        u8(s, RSV_RD_SPAN_U8);
        u8(s, n);
    } else if (n <= 0xFFFF) {
        u8(s, RSV_RD_SPAN_U16);
        u16(s, n);
    } else {
        u8(s, RSV_RD_SPAN_U64);
        u64(s, n);
    }
}
static void op_span_kind(seed *s, enum rsv_rd_op op, enum rsv_rd_span_kind kind)
{
    u8(s, op);
    u8(s, kind);
}
static void op_batch(seed *s, enum rsv_rd_op op, uint64_t param, unsigned count)
{
    u8(s, op);
    if (op == RSV_RD_READ_GOLOMB_N)
        modulus(s, param, 0);
    else
        u8(s, param); /* w <= 66 or k <= 64 */
    u8(s, count);     /* <= RSV_RD_MAX_BATCH */
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Deterministic filler for "random" payloads and scripts. */
static rsv_rng g_rng = {0x5EED5EED5EEDULL};
static uint64_t rng(void) { return rsv_rng_next(&g_rng); }

/* ---- reader_diff seeds ----------------------------------------------------- */

static void rd_decode_once(seed *s, code_t c, uint64_t param, int variant)
{
    switch (c) {
    case FX: op_read(s, (unsigned)param); break;
    case EG:
        if (param == 0 && variant)
            op_eg0(s);
        else
            op_eg(s, (unsigned)param);
        break;
    default: op_golomb(s, param, variant); break;
    }
}

static void gen_reader_vectors(void)
{
    char name[64];
    seed s;
    for (unsigned i = 0; i < rsv_sv_valid_count; i++) {
        const rsv_sv_valid *v = &rsv_sv_valid_rows[i];
        /* alignments and neighbours vary per row: pre 0..7 (+8 every third
         * row), data pointer 0..3 bytes early, tail 0..7, fill 0 or 1 */
        view_of(&s, i % 8 + (i % 3 == 0 ? 8 : 0), v->bits, (3 * i) % 8, i % 2, i % 4);
        rd_decode_once(&s, v->code, v->param, (int)(i % 2));
        /* then decode again from p = 1: a shifted, usually malformed, code */
        op_seek(&s, 1);
        rd_decode_once(&s, v->code, v->param, (int)(1 - i % 2));
        snprintf(name, sizeof name, "v71_%02u_%s", i + 1, code_names[v->code]);
        emit(&s, "reader_diff", name, 1);
    }
    for (size_t r = 0; r < rsv_sv_malformed_count; r++) {
        const rsv_sv_malformed *v = &rsv_sv_malformed_rows[r];
        /* row 29 is listed once per operation (take, skip): one seed does both */
        if (r > 0 && rsv_sv_malformed_rows[r - 1].id == v->id) continue;
        unsigned i = (unsigned)v->id - 1;
        view_of(&s, (5 * i) % 8, v->bits, (i + 3) % 8, (i + 1) % 2, i % 3);
        for (int again = 0; again < 2; again++) { /* §7.2: reading again after the failure */
            switch (v->op) {
            case RSV_SV_READ_EG: op_eg(&s, (unsigned)v->param); break;
            case RSV_SV_READ_GOLOMB: op_golomb(&s, v->param, again); break;
            case RSV_SV_READ: op_read(&s, (unsigned)v->param); break;
            default: op_span(&s, again ? RSV_RD_SKIP : RSV_RD_TAKE, v->param); break;
            }
        }
        op_read(&s, 1);
        snprintf(name, sizeof name, "v72_%02u", i + 1);
        emit(&s, "reader_diff", name, 1);
    }
}

/* Long streams for the batch decoders' fast loops (codec/src/batch.c): ~200
 * codes, mostly short, with a long one (z = 30..60) every 17th, so the
 * OR-refill loop runs, leaves for long codes, re-enters and hands over to the
 * single decoder in the last 16 bytes; batches of 64 until the end. Codes are
 * written by hand from CODES.md §3/§4 (bit notation), not by the codec. */
static size_t put_code_bits(char *b, size_t n, int golomb, unsigned k, uint64_t v)
{
    if (golomb) { /* m = 7: q zeros, 1, truncated binary (w = 3, cutoff = 1) */
        uint64_t q = v / 7, r = v % 7;
        for (uint64_t j = 0; j < q; j++) b[n++] = '0';
        b[n++] = '1';
        if (r < 1) {
            for (unsigned j = 2; j-- > 0;) b[n++] = (char)('0' + ((r >> j) & 1u));
        } else {
            for (unsigned j = 3; j-- > 0;) b[n++] = (char)('0' + (((r + 1) >> j) & 1u));
        }
        return n;
    }
    uint64_t c = (v >> k) + 1; /* q + 1, v < 2^62 here */
    unsigned z = 0;
    while ((c >> (z + 1)) != 0) z++;
    for (unsigned j = 0; j < z; j++) b[n++] = '0';
    for (unsigned j = z + 1; j-- > 0;) b[n++] = (char)('0' + ((c >> j) & 1u));
    for (unsigned j = k; j-- > 0;) b[n++] = (char)('0' + ((v >> j) & 1u));
    return n;
}

static void gen_reader_batch_streams(void)
{
    static const struct { const char *name; int golomb; unsigned k; } cases[] = {
        {"batch_stream_eg0", 0, 0}, {"batch_stream_eg3", 0, 3}, {"batch_stream_golomb7", 1, 0}};
    static char bits[7000];
    seed s;
    rsv_rng saved = g_rng; /* own sequence: the other generators' seeds stay as they were */
    g_rng.s = UINT64_C(0xBA7C5);
    for (size_t c = 0; c < COUNT(cases); c++) {
        for (unsigned pre = 0; pre < 8; pre += 5) {
            size_t n = 0;
            for (unsigned i = 0; i < 200 && n < 6000; i++) {
                uint64_t v = rng() & 63;
                if (!cases[c].golomb && i % 17 == 16) v = (UINT64_C(1) << (30 + i % 31)) | (rng() & 0xFFFF);
                n = put_code_bits(bits, n, cases[c].golomb, cases[c].k, v);
            }
            memcpy(bits + n, "0001", 5); /* the last code is cut short: a failure at the end */
            view_of(&s, pre, bits, 3, 1, 0);
            for (unsigned j = 0; j < 6; j++) {
                if (cases[c].golomb)
                    op_batch(&s, RSV_RD_READ_GOLOMB_N, 7, RSV_RD_MAX_BATCH);
                else
                    op_batch(&s, RSV_RD_READ_EG_N, cases[c].k, RSV_RD_MAX_BATCH);
            }
            op_seek(&s, 0);
            op_batch(&s, RSV_RD_READ_N, 13, RSV_RD_MAX_BATCH);
            op_batch(&s, RSV_RD_READ_N, 56, RSV_RD_MAX_BATCH);
            char name[64];
            snprintf(name, sizeof name, "%s_off%u", cases[c].name, pre);
            emit(&s, "reader_diff", name, 1);
        }
    }
    g_rng = saved;
}

static void gen_reader_specials(void)
{
    char name[64];
    seed s;

    /* the 129-bit maximum after a skip, a take and a seek (§8) */
    view_of(&s, 6, "10110 0^64 1 0^64 1", 2, 1, 0);
    op_span(&s, RSV_RD_SKIP, 5);
    op_eg0(&s);
    op_seek(&s, 5);
    op_eg(&s, 0);
    op_seek(&s, 0);
    op_span(&s, RSV_RD_TAKE, 5);
    op_batch(&s, RSV_RD_READ_EG_N, 0, 2);
    emit(&s, "reader_diff", "max129_after_skip", 1);

    /* zero runs of 64, 65 and 140 bits under every code */
    static const char *const runs[] = {"0^64", "0^65", "0^140"};
    for (unsigned i = 0; i < COUNT(runs); i++) {
        for (unsigned fill = 0; fill < 2; fill++) {
            view_of(&s, 3 + fill, runs[i], 5, fill, 1);
            op_eg0(&s);
            op_eg0(&s);
            op_seek(&s, 0);
            op_eg(&s, 1);
            op_seek(&s, 0);
            op_golomb(&s, 1, 0);
            op_seek(&s, 0);
            op_golomb(&s, MAX64, 1);
            op_golomb(&s, MAX64, 0);
            op_seek(&s, 0);
            op_golomb(&s, UINT64_C(1) << 62, 0); /* L = 3 */
            op_seek(&s, 0);
            op_batch(&s, RSV_RD_READ_N, 64, 3);
            snprintf(name, sizeof name, "zeros_%s_fill%u", runs[i] + 2, fill);
            emit(&s, "reader_diff", name, 1);
        }
    }

    /* m = 2^64-1: rows 36-39 back to back, batch-decoded, then one more */
    view_of(&s, 1, "1 0^63  1 0^62 10  1 1^64  01 0^63", 0, 1, 0);
    op_batch(&s, RSV_RD_READ_GOLOMB_N, MAX64, 5);
    op_seek(&s, 0);
    op_golomb(&s, MAX64, 1);
    op_golomb(&s, MAX64, 0);
    emit(&s, "reader_diff", "golomb_mmax_batch", 1);

    /* batch decodes: EG0 of 0..15 then a truncated code; m = 7 rows 31-35 */
    {
        char bits[512];
        size_t n = 0;
        for (unsigned v = 0; v < 16; v++) { /* EG0 by hand: z zeros, then v+1 in z+1 bits */
            unsigned c = v + 1, z = 0;
            while ((c >> (z + 1)) != 0) z++;
            for (unsigned j = 0; j < z; j++) bits[n++] = '0';
            for (unsigned j = z + 1; j-- > 0;) bits[n++] = (char)('0' + ((c >> j) & 1u));
        }
        memcpy(bits + n, "0001", 5); /* a code cut short */
        view_of(&s, 2, bits, 0, 1, 0);
        op_batch(&s, RSV_RD_READ_EG_N, 0, 17);
        op_seek(&s, 0);
        op_batch(&s, RSV_RD_READ_EG_N, 1, 64);
        op_seek(&s, 0);
        op_batch(&s, RSV_RD_READ_N, 13, 64);
        emit(&s, "reader_diff", "batch_eg0_0_to_15", 1);
    }
    view_of(&s, 7, "1 00  1 010  1 111  01 00  001 111  00", 1, 0, 2);
    op_batch(&s, RSV_RD_READ_GOLOMB_N, 7, 6);
    op_read(&s, 2);
    emit(&s, "reader_diff", "batch_golomb7", 1);

    /* spans: 2^64-1, over the end, 65-bit reads, seeks in and out of range */
    view_of(&s, 5, "1^3 0^100 1 0^52 1^40", 3, 0, 3);
    op_span(&s, RSV_RD_TAKE, MAX64);
    op_span(&s, RSV_RD_SKIP, MAX64);
    op_span(&s, RSV_RD_SKIP, 65);
    op_read(&s, 65);
    op_read(&s, 64);
    op_read_bit(&s);
    op_span(&s, RSV_RD_TAKE, 129);
    op_span_kind(&s, RSV_RD_TAKE, RSV_RD_SPAN_REM_PLUS1);
    op_span_kind(&s, RSV_RD_SKIP, RSV_RD_SPAN_REM);
    op_eg0(&s);
    op_read(&s, 0);
    op_seek(&s, 197); /* len + 1: must fail */
    op_seek(&s, MAX64);
    op_seek(&s, 3);
    op_span_kind(&s, RSV_RD_TAKE, RSV_RD_SPAN_LEN);
    op_eg(&s, 0);
    emit(&s, "reader_diff", "spans_and_seeks", 1);

    /* empty views: no payload at all, and len 0 with data in the guard page */
    memset(&s, 0, sizeof s);
    u8(&s, 0), u8(&s, 0), u8(&s, 0), u8(&s, 1);
    op_eg0(&s), op_golomb(&s, 1, 0), op_golomb(&s, 0, 0), op_read(&s, 0), op_read(&s, 65);
    op_span(&s, RSV_RD_SKIP, 0), op_span(&s, RSV_RD_TAKE, 1), op_batch(&s, RSV_RD_READ_EG_N, 0, 3);
    emit(&s, "reader_diff", "empty_view_no_payload", 1);
    view_of(&s, 0, "", 0, 1, 0);
    s.payload[0] = 0xFF, s.payload[1] = 0x00, s.plen = 2;
    s.cons[1] = 16; /* off_in: the whole payload lies before the view */
    s.cons[3] = 1;  /* flags: data = the guard page */
    op_eg(&s, 3), op_golomb(&s, MAX64, 1), op_read(&s, 1), op_span(&s, RSV_RD_SKIP, 1);
    emit(&s, "reader_diff", "empty_view_in_guard_page", 1);

    /* pseudo-random mixes: random payload, random script bytes */
    for (unsigned i = 0; i < 4; i++) {
        memset(&s, 0, sizeof s);
        s.plen = 24 + 40 * i;
        for (size_t j = 0; j < s.plen; j++) s.payload[j] = (uint8_t)rng();
        if (i == 1) memset(s.payload + 8, 0, 12); /* long zero runs */
        u8(&s, i), u8(&s, 3 * i + 1), u8(&s, 5 * i), u8(&s, 0);
        for (unsigned j = 0; j < 120; j++) u8(&s, rng() % 201u); /* plain selectors only */
        snprintf(name, sizeof name, "random_mix_%u", i);
        emit(&s, "reader_diff", name, 1);
    }
}

/* ---- codes_roundtrip seeds (common/roundtrip_script.h) --------------------- */

static void rt_begin(seed *s, uint64_t limit)
{
    memset(s, 0, sizeof *s);
    if (limit == RSV_RT_BIG_LIMIT) {
        u8(s, 0);
    } else {
        u8(s, 0xFF);
        u16(s, limit);
    }
}

static void rt_value(seed *s, uint64_t v)
{
    u8(s, RSV_RT_V_U64);
    u64(s, v);
}

/* param: w (<= 66), k (<= 64) or m */
static void rt_item(seed *s, code_t c, uint64_t param, uint64_t v, int alt)
{
    unsigned a = alt ? RSV_RT_ALT_API : 0u;
    switch (c) {
    case FX: u8(s, RSV_RT_FIXED | a), u8(s, param); break;
    case EG: u8(s, RSV_RT_EG | a), u8(s, param); break;
    default: u8(s, RSV_RT_GOLOMB | a), modulus(s, param, 0); break;
    }
    rt_value(s, v);
}

static void rt_zeros(seed *s, uint64_t n)
{
    u8(s, RSV_RT_ZEROS);
    u16(s, n);
}

static void gen_roundtrip(void)
{
    seed s;
    char name[64];

    for (int c = FX; c <= GO; c++) { /* §7.1 by family */
        rt_begin(&s, RSV_RT_BIG_LIMIT);
        for (unsigned i = 0; i < rsv_sv_valid_count; i++) {
            const rsv_sv_valid *v = &rsv_sv_valid_rows[i];
            if (v->code == (code_t)c) rt_item(&s, v->code, v->param, v->value, (int)(i % 2));
        }
        snprintf(name, sizeof name, "v71_%s", code_names[c]);
        emit(&s, "codes_roundtrip", name, 0);
    }

    rt_begin(&s, RSV_RT_BIG_LIMIT); /* the 129-bit maximum at every alignment */
    for (unsigned pre = 0; pre < 8; pre++) {
        rt_item(&s, FX, pre, 0, 0);
        rt_item(&s, EG, 0, MAX64, (int)(pre % 2));
    }
    rt_item(&s, EG, 1, MAX64, 0);
    rt_item(&s, EG, 63, MAX64, 0);
    emit(&s, "codes_roundtrip", "max129_all_alignments", 0);

    rt_begin(&s, RSV_RT_BIG_LIMIT); /* m = 2^64-1 and m = 2^63 */
    static const uint64_t vals[] = {0, 1, 2, MAX64 - 2, MAX64 - 1, MAX64};
    for (unsigned i = 0; i < COUNT(vals); i++) {
        rt_item(&s, GO, MAX64, vals[i], (int)(i % 2));
        rt_item(&s, GO, UINT64_C(1) << 63, vals[i], 0);
        rt_item(&s, GO, MAX64 - 1, vals[i], 1);
    }
    emit(&s, "codes_roundtrip", "golomb_mmax", 0);

    rt_begin(&s, RSV_RT_BIG_LIMIT); /* rejections, each followed by a valid item */
    rt_item(&s, FX, 65, 0, 0);
    rt_item(&s, FX, 3, 8, 0);  /* v >= 2^w */
    rt_item(&s, FX, 0, 1, 0);  /* w = 0 accepts only 0 */
    rt_item(&s, FX, 63, MAX64, 0);
    rt_item(&s, FX, 64, MAX64, 0);
    rt_item(&s, EG, 64, 0, 0); /* k > 63 */
    rt_item(&s, GO, 0, 5, 0);  /* m = 0, prepared struct */
    rt_item(&s, GO, 0, 5, 1);  /* m = 0, rsv_put_golomb_m */
    rt_item(&s, EG, 5, 1000, 0);
    emit(&s, "codes_roundtrip", "invalid_params", 0);

    rt_begin(&s, RSV_RT_BIG_LIMIT); /* huge quotients: over the limit or over u64 */
    rt_item(&s, GO, 1, MAX64, 0);          /* 2^64 bits: length overflows u64 */
    rt_item(&s, GO, 1, RSV_RT_BIG_LIMIT, 1); /* limit + 1 bits: one over the limit */
    rt_item(&s, GO, 2, MAX64, 0);
    rt_item(&s, GO, 3, 3000, 0);
    rt_item(&s, GO, 1, 4000, 1);
    /* 1002 + 4001 bits so far; this unary code fills the writer limit
     * exactly, so the next item must be rejected */
    rt_item(&s, GO, 1, RSV_RT_BIG_LIMIT - 5004, 0);
    rt_item(&s, FX, 1, 1, 0);
    emit(&s, "codes_roundtrip", "golomb_too_large", 0);

    rt_begin(&s, 100); /* a small limit: fill it, get rejected, still usable */
    rt_item(&s, FX, 64, 0x0123456789ABCDEFu, 0);
    rt_item(&s, EG, 0, MAX64, 0); /* 129 bits: over */
    rt_item(&s, FX, 30, 12345, 0);
    rt_zeros(&s, 7);
    rt_zeros(&s, 1);
    rt_item(&s, FX, 1, 1, 0);
    emit(&s, "codes_roundtrip", "small_limit", 0);

    rt_begin(&s, RSV_RT_BIG_LIMIT); /* zero runs around codes */
    static const unsigned runs[] = {64, 65, 140, 0, 1};
    for (unsigned i = 0; i < COUNT(runs); i++) {
        rt_zeros(&s, runs[i]);
        rt_item(&s, EG, 0, i, 1);
        rt_item(&s, GO, 1, runs[i], 0);
    }
    emit(&s, "codes_roundtrip", "zero_runs", 0);

    rt_begin(&s, RSV_RT_BIG_LIMIT); /* code-shaped values: q*m + r at the cutoff edges */
    static const uint64_t mods[] = {3, 5, 7, 1000, UINT64_C(1) << 63, MAX64, (UINT64_C(1) << 33) + 1};
    for (unsigned i = 0; i < COUNT(mods); i++) {
        for (unsigned rsel = 0; rsel < 5; rsel++) {
            u8(&s, RSV_RT_GOLOMB);
            modulus(&s, mods[i], 0);
            u8(&s, RSV_RT_V_CODE_SHAPED);
            u8(&s, i + rsel); /* q */
            u8(&s, rsel);
            if (rsel == 4) u64(&s, rng());
        }
    }
    emit(&s, "codes_roundtrip", "golomb_cutoff_edges", 0);

    for (unsigned i = 0; i < 3; i++) { /* pseudo-random items, plain selectors */
        rt_begin(&s, RSV_RT_BIG_LIMIT);
        for (unsigned j = 0; j < 40; j++) {
            u8(&s, rng() % 3u); /* fixed, EG, Golomb */
            u8(&s, rng() % 65u);
            u8(&s, rng() % 8u); /* value shape */
            u64(&s, rng());
        }
        snprintf(name, sizeof name, "random_items_%u", i);
        emit(&s, "codes_roundtrip", name, 0);
    }
    /* no items (after the random ones: the rng sequence above stays as it
     * was): rsv_writer_finish of an empty writer hands out a 1-byte
     * allocation and 0 bytes; with the default and with a 0-bit limit */
    rt_begin(&s, RSV_RT_BIG_LIMIT);
    emit(&s, "codes_roundtrip", "no_items", 0);
    rt_begin(&s, 0);
    emit(&s, "codes_roundtrip", "no_items_limit0", 0);
}

static void make_dir(const char *path)
{
    if (mkdir(path, 0777) != 0 && errno != EEXIST) die(path);
}

int main(int argc, char **argv)
{
    char path[512];
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUTDIR\n  writes OUTDIR/reader_diff/* and OUTDIR/codes_roundtrip/*\n", argv[0]);
        return 2;
    }
    g_outdir = argv[1];
    make_dir(g_outdir);
    snprintf(path, sizeof path, "%s/reader_diff", g_outdir);
    make_dir(path);
    snprintf(path, sizeof path, "%s/codes_roundtrip", g_outdir);
    make_dir(path);
    gen_reader_vectors();
    gen_reader_specials();
    gen_reader_batch_streams();
    gen_roundtrip();
    printf("rsv_gen_corpus: wrote %u seeds under %s\n", g_files, g_outdir);
    return 0;
}
