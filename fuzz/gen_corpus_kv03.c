/* Seed generator for the KV03 fuzz corpora: rsv_gen_corpus_kv03 OUTDIR writes
 * OUTDIR/{kv03_parse,kv03_parse_structured,kv03_roundtrip,merge_diff,stream_diff}/.
 *
 * Files: the §12.3 file and the empty file transcribed from KV03.md; the
 * §12.4 variants and the other fixtures are built with the ORACLE encoder
 * (the reference implementation), and the §12.4 variants are checked against
 * the body/header CRCs the spec states, so a wrong oracle stops the
 * generator instead of seeding nonsense. Script seeds (roundtrip, merge,
 * stream) follow common/kv03_fuzz.h: values are pushed in consumption order
 * and the byte string is reversed at the end (the data producer reads from
 * the end, last byte most significant). Output is deterministic. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "reservoir/oracle_kv03.h"

static const char *g_outdir;
static unsigned g_files;

static void die(const char *what)
{
    fprintf(stderr, "rsv_gen_corpus_kv03: %s: %s\n", what, errno ? strerror(errno) : "failed");
    exit(1);
}

static void write_file(const char *target, const char *name, const uint8_t *p, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s/%s", g_outdir, target, name);
    FILE *f = fopen(path, "wb");
    if (!f) die(path);
    if ((n && fwrite(p, 1, n, f) != n) || fclose(f) != 0) die(path);
    g_files++;
}

/* A valid file goes to both parse corpora. */
static void write_parse(const char *name, const uint8_t *p, size_t n)
{
    write_file("kv03_parse", name, p, n);
    write_file("kv03_parse_structured", name, p, n);
}

/* ---- spec files ---------------------------------------------------------- */

/* §12.3, 360 bytes (KV03.md, hex dump rows without offsets). */
static const char *const hex_12_3 =
    "45565254 2e4b5600 01006000 00000000 01010000 0f000000 0f000000 00000000"
    "00000000 00000000 00000000 00000000 40080000 00000000 04000000 00000000"
    "fca0b325 372cb593 60000000 00000000 68010000 00000000 00000000 00000000"
    "4b563033 03000800 61000000 00000000 11000000 00000000 61000000 00000000"
    "01000000 00000000 00000000 00000000 05000000 00000000 00000000 00000000"
    "c0000000 00000000 0d000000 00000000 d0000000 00000000 08000000 00000000"
    "d8000000 00000000 08000000 00000000 e0000000 00000000 10000000 00000000"
    "f0000000 00000000 00000000 00000000 f0000000 00000000 01000000 00000000"
    "f8000000 00000000 10000000 00000000 08010000 00000000 00000000 00000000"
    "425869e2 25882ddc 4b0dbcbd 00000000 20000000 00000000 11000000 00000000"
    "00000000 00000000 ffffffff ffffffff 00000000 00000000 00000000 00000000"
    "01000000 00000000";

/* §12.4 empty file, 320 bytes. */
static const char *const hex_empty =
    "45565254 2e4b5600 01006000 02000000 01010000 0f000000 0f000000 00000000"
    "00000000 00000000 00000000 00000000 00070000 00000000 00000000 00000000"
    "f3d7ad50 0a500f61 60000000 00000000 40010000 00000000 00000000 00000000"
    "4b563033 03000800 00000000 00000000 00000000 00000000 00000000 00000000"
    "00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000"
    "c0000000 00000000 00000000 00000000 c0000000 00000000 00000000 00000000"
    "c0000000 00000000 08000000 00000000 c8000000 00000000 10000000 00000000"
    "d8000000 00000000 00000000 00000000 d8000000 00000000 00000000 00000000"
    "d8000000 00000000 08000000 00000000 e0000000 00000000 00000000 00000000"
    "01000000 00000000 00000000 00000000 ffffffff ffffffff 00000000 00000000";

static size_t unhex(const char *h, uint8_t *out)
{
    size_t n = 0;
    int hi = -1;
    for (; *h; h++) {
        int v = *h >= '0' && *h <= '9' ? *h - '0' : *h >= 'a' && *h <= 'f' ? *h - 'a' + 10 : -1;
        if (v < 0) continue;
        if (hi < 0) hi = v;
        else {
            out[n++] = (uint8_t)(hi << 4 | v);
            hi = -1;
        }
    }
    return n;
}

static uint64_t le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = n; i-- > 0;) v = (v << 8) | p[i];
    return v;
}

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static void reseal(uint8_t *f, size_t n)
{
    put_le(f + 64, rsv_oracle_crc32c(f + 96, n - 96), 4);
    uint8_t h[96];
    memcpy(h, f, 96);
    memset(h + 68, 0, 4);
    put_le(f + 68, rsv_oracle_crc32c(h, 96), 4);
}

/* ---- oracle-built files -------------------------------------------------- */

static const rsv_oracle_record ex12[] = {
    {(const uint8_t *)"a", 1, RSV_ORACLE_PRESENT, (const uint8_t *)"x", 1},
    {(const uint8_t *)"ab", 2, RSV_ORACLE_TOMBSTONE, NULL, 0},
    {(const uint8_t *)"b", 1, RSV_ORACLE_PRESENT, NULL, 0},
    {(const uint8_t *)"ba", 2, RSV_ORACLE_PRESENT, (const uint8_t *)"yz", 2},
};
static const uint8_t c0_default[1] = {0};

static uint8_t *encode(const rsv_oracle_record *r, size_t n, uint64_t kind, uint64_t param, uint64_t W, uint64_t K,
                       const uint8_t *c0, uint64_t c, size_t *len)
{
    rsv_oracle_kv03_policy p = {kind, param, W, K};
    uint8_t *out = NULL;
    if (rsv_oracle_kv03_encode(r, n, &p, c0, c, &out, len, NULL) != RSV_OK) die("oracle encode");
    return out;
}

static void spec_variant(const char *name, const rsv_oracle_record *r, size_t n, uint64_t kind, uint64_t param,
                         uint64_t W, uint64_t K, uint32_t body_crc, uint32_t header_crc)
{
    size_t len;
    uint8_t *f = encode(r, n, kind, param, W, K, c0_default, 1, &len);
    if (le(f + 64, 4) != body_crc || le(f + 68, 4) != header_crc) {
        fprintf(stderr, "rsv_gen_corpus_kv03: %s: CRCs %08llx/%08llx differ from KV03.md §12.4\n", name,
                (unsigned long long)le(f + 64, 4), (unsigned long long)le(f + 68, 4));
        exit(1);
    }
    write_parse(name, f, len);
    free(f);
}

/* n records with shared prefixes, keys split inside bytes, three value states. */
static rsv_oracle_record *fixture(size_t n, uint8_t (*keys)[4], uint8_t (*vals)[3])
{
    rsv_oracle_record *r = calloc(n, sizeof *r);
    if (!r) die("calloc");
    for (size_t i = 0; i < n; i++) {
        keys[i][0] = (uint8_t)('a' + i / 8);
        keys[i][1] = (uint8_t)(0x40 + (i % 8) * 5); /* 0x40, 0x45, ...: differences inside the byte */
        keys[i][2] = (uint8_t)i;
        vals[i][0] = (uint8_t)i;
        vals[i][1] = 0xA5;
        vals[i][2] = 0;
        r[i].key = keys[i];
        r[i].key_len = i % 8 == 0 ? 1 : 2 + i % 2; /* byte 1 rises inside a group: sorted */
        r[i].state = i % 4 == 3 ? RSV_ORACLE_TOMBSTONE : RSV_ORACLE_PRESENT;
        r[i].value = i % 4 == 3 ? NULL : vals[i];
        r[i].value_len = i % 4 == 3 ? 0 : i % 4;
    }
    return r;
}

static void gen_sparse(void)
{
    /* W = 1: one EF entry per record. 4200 tiny records and one large value in
     * the middle: the high positions of one group jump by > 4096 (§4 sparse). */
    size_t n = 4200;
    rsv_oracle_record *r = calloc(n, sizeof *r);
    uint8_t *keys = malloc(2 * n), *big = calloc(1, 65536);
    if (!r || !keys || !big) die("calloc");
    for (size_t vb = 2048; vb <= 65536; vb *= 2) {
        for (size_t i = 0; i < n; i++) {
            keys[2 * i] = (uint8_t)(i >> 8);
            keys[2 * i + 1] = (uint8_t)i;
            r[i].key = keys + 2 * i;
            r[i].key_len = 2;
            r[i].state = i == 2100 ? RSV_ORACLE_PRESENT : RSV_ORACLE_TOMBSTONE;
            r[i].value = i == 2100 ? big : NULL;
            r[i].value_len = i == 2100 ? vb : 0;
        }
        size_t len;
        uint8_t *f = encode(r, n, 0, 0, 1, 15, c0_default, 1, &len);
        if (le(f + 96 + 64 + 16 * 4 + 8, 8) > 0) { /* section 4 length */
            write_parse("sparse_ef_w1", f, len);
            free(f);
            break;
        }
        free(f);
        if (vb == 65536) die("no sparse EF group");
    }
    free(r);
    free(keys);
    free(big);
}

static void gen_parse(void)
{
    uint8_t f[4096];
    size_t n = unhex(hex_12_3, f);
    if (n != 360) die("§12.3 transcription");
    write_parse("spec_12_3", f, n);

    /* corrupted §12.3 copies (kv03_parse only: the structured target re-seals) */
    uint8_t g[360];
    memcpy(g, f, 360);
    g[96 + 192 + 3] ^= 0x10; /* data byte: BODY_CRC */
    write_file("kv03_parse", "bad_body_crc", g, 360);
    reseal(g, 360); /* same byte, CRCs fixed: a record-walk error */
    write_file("kv03_parse", "bad_data_resealed", g, 360);
    memcpy(g, f, 360);
    g[20] = 2; /* W = 2 without re-sealing: HEADER_CRC */
    write_file("kv03_parse", "bad_header_crc", g, 360);
    reseal(g, 360); /* W = 2 with the W = 15 EF: BLOCK_OFFSET or EF errors */
    write_file("kv03_parse", "w2_with_w15_body_resealed", g, 360);
    memcpy(g, f, 360);
    memcpy(g, "EVRT.IX", 7);
    write_file("kv03_parse", "index_magic", g, 360);
    write_file("kv03_parse", "truncated_359", f, 359);
    write_file("kv03_parse", "truncated_95", f, 95);
    memcpy(g, f, 360);
    g[96 + 8] = 0x62; /* extent 98 resealed: TERMINAL or EF endpoint */
    reseal(g, 360);
    write_file("kv03_parse", "extent_plus1_resealed", g, 360);
    memcpy(g, f, 360);
    g[96 + 144] = 4; /* L = 4: EF_SHAPE */
    reseal(g, 360);
    write_file("kv03_parse", "ef_low_width_resealed", g, 360);

    n = unhex(hex_empty, f);
    if (n != 320) die("empty file transcription");
    write_parse("spec_empty", f, n);
    write_file("kv03_parse", "zero_bytes", f, 0);

    spec_variant("spec_w2_k3", ex12, 4, 0, 0, 2, 3, 0x5B758CC6u, 0x76639808u);
    spec_variant("spec_golomb7", ex12, 4, 1, 7, 15, 15, 0x0A558B11u, 0x9E07BBCEu);
    const rsv_oracle_record tomb[] = {{(const uint8_t *)"a", 1, RSV_ORACLE_TOMBSTONE, NULL, 0},
                                      {(const uint8_t *)"b", 1, RSV_ORACLE_TOMBSTONE, NULL, 0}};
    spec_variant("spec_all_tombstone", tomb, 2, 0, 0, 15, 15, 0x1FD0AED9u, 0xBD494EACu);

    uint8_t keys[40][4], vals[40][3];
    rsv_oracle_record *r = fixture(40, keys, vals);
    static const uint64_t Ws[] = {1, 2, 15};
    for (size_t i = 0; i < 3; i++) {
        char name[64];
        size_t len;
        uint8_t *x = encode(r, 20, 0, 0, Ws[i], Ws[i] < 3 ? 3 : 15, c0_default, 1, &len);
        snprintf(name, sizeof name, "fixture20_w%llu", (unsigned long long)Ws[i]);
        write_parse(name, x, len);
        free(x);
    }
    size_t len;
    uint8_t *x = encode(r, 12, 1, UINT64_MAX, 3, 7, c0_default, 1, &len);
    write_parse("fixture12_golomb_mmax", x, len);
    free(x);
    x = encode(r, 12, 0, 5, 4, UINT64_MAX, c0_default, 1, &len);
    write_parse("fixture12_eg5_kmax", x, len);
    free(x);
    static const uint8_t code512[64] = {0xC3, 0x5A, 0xFF, 0x00, 0x81};
    x = encode(r, 6, 0, 0, 2, 3, code512, 0, &len);
    write_parse("fixture6_code0", x, len);
    free(x);
    x = encode(r, 6, 0, 1, 2, 3, code512, 512, &len);
    write_parse("fixture6_code512", x, len);
    free(x);
    x = encode(r, 6, 0, 0, 5, 15, code512, 13, &len);
    write_parse("fixture6_code13", x, len);
    free(x);
    x = encode(r, 40, 1, 2, 7, 7, c0_default, 1, &len);
    write_parse("fixture40_golomb2_w7", x, len);
    free(x);
    free(r);
    gen_sparse();
}

/* ---- script seeds (common/kv03_fuzz.h) ----------------------------------- */

typedef struct script {
    uint8_t front[2048]; /* payload (stream_diff) */
    size_t nfront;
    uint8_t cons[4096]; /* consumption order */
    size_t n;
} script;

static void push(script *s, uint64_t x, unsigned nbytes)
{
    if (s->n + nbytes > sizeof s->cons) die("script too long");
    for (unsigned i = nbytes; i-- > 0;) s->cons[s->n++] = (uint8_t)(x >> (8 * i)); /* MSB first */
}
static void u8(script *s, uint64_t x) { push(s, x, 1); }

static void emit(const script *s, const char *target, const char *name)
{
    uint8_t out[sizeof s->front + sizeof s->cons];
    memcpy(out, s->front, s->nfront);
    size_t n = s->nfront;
    for (size_t i = s->n; i-- > 0;) out[n++] = s->cons[i];
    write_file(target, name, out, n);
}

/* policy: EG k (kind 0) or Golomb m (kind 1; m = 1, 2 + small, 2^64-1); W 1..16; K = 2^(2+kk)-1 */
static void policy(script *s, int golomb, uint64_t km, unsigned W, unsigned kk)
{
    u8(s, golomb ? 1 : 0);
    if (!golomb) u8(s, km);
    else if (km == 1) u8(s, 0);
    else if (km == UINT64_MAX) u8(s, 3);
    else {
        u8(s, 1);
        u8(s, km - 2);
    }
    u8(s, W - 1);
    u8(s, kk);
}

static void code_default(script *s) { u8(s, 0); }
static void code_bytes(script *s, unsigned c, const uint8_t *b)
{
    u8(s, 128);
    push(s, c, 2);
    for (unsigned i = 0; i < (c + 7) / 8; i++) u8(s, b[i]);
}

static void code_bits(script *s, unsigned c, uint8_t fill)
{
    uint8_t b[64];
    for (unsigned i = 0; i < 64; i++) b[i] = (uint8_t)(fill + 37 * i);
    code_bytes(s, c, b);
}

/* one generated record: keep bytes of the previous key, new bytes (mode 0),
 * value state 0/1/2 with bytes */
static void rec(script *s, unsigned keep, const char *add, unsigned vstate, const char *val)
{
    u8(s, keep);
    u8(s, strlen(add));
    for (const char *p = add; *p; p++) {
        u8(s, 0);
        u8(s, (uint8_t)*p);
    }
    u8(s, vstate);
    if (vstate == 2) {
        u8(s, strlen(val));
        for (const char *p = val; *p; p++) u8(s, (uint8_t)*p);
    }
}

static void ex12_records(script *s)
{
    u8(s, 4);
    rec(s, 0, "a", 2, "x");
    rec(s, 1, "b", 0, "");
    rec(s, 0, "b", 1, "");
    rec(s, 1, "a", 2, "yz");
}

/* 30 records: byte-splitting siblings (mode 1: XOR one bit) and prefixes */
static void split_records(script *s, unsigned n)
{
    u8(s, n);
    for (unsigned i = 0; i < n; i++) {
        u8(s, i % 3);     /* keep */
        u8(s, 1 + i % 3); /* add */
        for (unsigned j = 0; j < 1 + i % 3; j++) {
            u8(s, j == 0 ? 1 : 0); /* first added byte: flip bit i % 8 of the old byte */
            u8(s, j == 0 ? i : 'a' + i);
        }
        u8(s, i % 3);
        if (i % 3 == 2) {
            u8(s, i % 5);
            for (unsigned k = 0; k < i % 5; k++) u8(s, i * 7 + k);
        }
    }
}

static void gen_roundtrip(void)
{
    static const char *const T = "kv03_roundtrip";
    script s;
    struct { const char *name; int golomb; uint64_t km; unsigned W, kk; } pols[] = {
        {"ex12_eg0_w15", 0, 0, 15, 2},  {"ex12_w2_k3", 0, 0, 2, 0},      {"ex12_golomb7", 1, 7, 15, 2},
        {"ex12_w1", 0, 0, 1, 0},        {"ex12_golomb_mmax", 1, UINT64_MAX, 3, 1}, {"ex12_eg9_w16", 0, 9, 16, 5},
        {"ex12_golomb1", 1, 1, 4, 61},
    };
    for (size_t i = 0; i < sizeof pols / sizeof pols[0]; i++) {
        memset(&s, 0, sizeof s);
        u8(&s, 0);
        policy(&s, pols[i].golomb, pols[i].km, pols[i].W, pols[i].kk);
        code_default(&s);
        ex12_records(&s);
        emit(&s, T, pols[i].name);
    }
    static const unsigned codes[] = {0, 7, 64, 512};
    for (size_t i = 0; i < 4; i++) {
        char name[64];
        memset(&s, 0, sizeof s);
        u8(&s, 0);
        policy(&s, 0, i, 1 + (unsigned)i, (unsigned)i);
        code_bits(&s, codes[i], (uint8_t)(0x5A + i));
        split_records(&s, 30);
        snprintf(name, sizeof name, "split30_code%u", codes[i]);
        emit(&s, T, name);
    }
    memset(&s, 0, sizeof s); /* bulk: 250 records, W = 1 (EF sample groups) */
    u8(&s, 0);
    policy(&s, 0, 0, 1, 2);
    code_default(&s);
    u8(&s, 240);
    emit(&s, T, "bulk250_w1");
    memset(&s, 0, sizeof s); /* unsorted order kept: UNSORTED at record 2 */
    u8(&s, 7);
    policy(&s, 0, 0, 15, 2);
    code_default(&s);
    u8(&s, 3);
    rec(&s, 0, "b", 1, "");
    rec(&s, 1, "b", 0, "");
    rec(&s, 0, "a", 2, "q");
    emit(&s, T, "unsorted");
    memset(&s, 0, sizeof s); /* W = 0: BAD_POLICY */
    u8(&s, 0);
    u8(&s, 0);
    u8(&s, 0);
    u8(&s, 203);
    u8(&s, 2);
    code_default(&s);
    ex12_records(&s);
    emit(&s, T, "bad_policy_w0");
}

static void gen_merge(void)
{
    static const char *const T = "merge_diff";
    script s;
    for (unsigned v = 0; v < 8; v++) { /* flags: inputs 2..4, drop, modes 0 and 5..7 */
        static const unsigned modes[] = {0, 0, 1, 2, 5, 6, 7, 7};
        char name[64];
        memset(&s, 0, sizeof s);
        unsigned flags = (v % 3) | ((v & 1) << 2) | (modes[v] << 3);
        u8(&s, flags);
        policy(&s, v == 3, v == 3 ? 7 : 0, v < 4 ? 15 : 2, v < 4 ? 2 : 0);
        code_default(&s);
        split_records(&s, 24);
        for (unsigned j = 0; j < 2 + v % 3; j++) {
            push(&s, UINT64_C(0x9E3779B97F4A7C15) * (j + 1 + v), 8);
            u8(&s, 0x21u * (j + v));
        }
        if (modes[v] >= 5) {
            u8(&s, v);
            u8(&s, v * 3);
            if (modes[v] == 7) push(&s, 17u * v + 3, 2);
        }
        snprintf(name, sizeof name, "pool24_v%u_in%u%s_mode%u", v, 2 + v % 3, v & 1 ? "_drop" : "", modes[v]);
        emit(&s, T, name);
    }
    memset(&s, 0, sizeof s); /* §12 split in two inputs */
    u8(&s, 0);
    policy(&s, 0, 0, 15, 2);
    code_default(&s);
    ex12_records(&s);
    push(&s, 0x5, 8);
    u8(&s, 0);
    push(&s, 0xA, 8);
    u8(&s, 0xFF);
    emit(&s, T, "ex12_two_inputs");
}

static void gen_stream(void)
{
    static const char *const T = "stream_diff";
    script s;
    memset(&s, 0, sizeof s); /* §12.4 record stream, E = 104 - 4 */
    s.nfront = unhex("a2 58 69 e3 12 c4 8b 77 89 61 b7 97 a0", s.front);
    u8(&s, 4u << 5);
    code_default(&s);
    emit(&s, T, "spec_12_4_stream");
    s.n = 0; /* same bytes, E = 99: truncated last value */
    u8(&s, 5u << 5);
    code_default(&s);
    emit(&s, T, "spec_12_4_stream_e99");

    uint8_t keys[40][4], vals[40][3];
    rsv_oracle_record *r = fixture(40, keys, vals);
    static const unsigned cs[] = {1, 0, 9, 512};
    static const uint8_t code[64] = {0x80, 0x33, 0xF0};
    for (unsigned i = 0; i < 4; i++) {
        uint8_t *b = NULL;
        uint64_t e = 0;
        const uint8_t *c0 = cs[i] == 1 ? c0_default : code;
        if (rsv_oracle_stream_encode(r, 10 + 10 * i, c0, cs[i], &b, &e, NULL) != RSV_OK) die("stream encode");
        for (unsigned off = 0; off < 2; off++) {
            char name[64];
            memset(&s, 0, sizeof s);
            size_t nb = (size_t)((e + 7) / 8);
            s.nfront = (size_t)((e + off + 7) / 8);
            /* off = 1: the stream one bit into its first byte */
            for (size_t k = 0; k < s.nfront; k++) {
                unsigned hi = k < nb ? b[k] : 0, lo = k ? b[k - 1] : 0;
                s.front[k] = off ? (uint8_t)((hi >> 1) | ((lo & 1u) << 7)) : (uint8_t)hi;
            }
            unsigned tail = (unsigned)(8 * s.nfront - off - e); /* drop exactly the padding */
            u8(&s, off | (tail << 5));
            if (cs[i] == 1) code_default(&s);
            else code_bytes(&s, cs[i], code);
            snprintf(name, sizeof name, "fixture%u_code%u_off%u", 10 + 10 * i, cs[i], off);
            emit(&s, T, name);
        }
        free(b);
    }
    free(r);
}

static void make_dir(const char *a, const char *b)
{
    char path[512];
    snprintf(path, sizeof path, "%s%s%s", a, b ? "/" : "", b ? b : "");
    if (mkdir(path, 0777) != 0 && errno != EEXIST) die(path);
}

int main(int argc, char **argv)
{
    static const char *const dirs[] = {"kv03_parse", "kv03_parse_structured", "kv03_roundtrip", "merge_diff",
                                       "stream_diff"};
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUTDIR\n  writes OUTDIR/{kv03_parse,kv03_parse_structured,kv03_roundtrip,"
                        "merge_diff,stream_diff}/*\n", argv[0]);
        return 2;
    }
    g_outdir = argv[1];
    make_dir(g_outdir, NULL);
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) make_dir(g_outdir, dirs[i]);
    gen_parse();
    gen_roundtrip();
    gen_merge();
    gen_stream();
    printf("rsv_gen_corpus_kv03: wrote %u seeds under %s\n", g_files, g_outdir);
    return 0;
}
