/* Seed generator for the KV03 fuzz corpora: rsv_gen_corpus_kv03 OUTDIR writes
 * OUTDIR/{kv03_parse,kv03_parse_structured,kv03_roundtrip,merge_diff,stream_diff,stream_roundtrip}/.
 *
 * Files: the §12.3 file and the empty file transcribed from KV03.md; the
 * §12.4 variants and the other fixtures are built with the ORACLE encoder
 * (the reference implementation), and the §12.4 variants are checked against
 * the body/header CRCs the spec states, so a wrong oracle stops the
 * generator instead of seeding nonsense. --sweep writes merge candidates
 * (resealed one-byte variants of given files; see sweep()). Script seeds (roundtrip, merge,
 * stream) follow common/kv03_fuzz.h: values are pushed in consumption order
 * and the byte string is reversed at the end (the data producer reads from
 * the end, last byte most significant). Output is deterministic. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "data_producer.h"
#include "kv03_codes.h"
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

/* W = 1: one EF entry per record. 4200 tiny records and one large value at
 * record `big_at`: the high positions of that record's group jump by > 4096
 * (§4 sparse). 2100: a group in the middle; 4150: the last, partial group
 * (records 4096..4199). */
static void gen_sparse(const char *name, size_t big_at)
{
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
            r[i].state = i == big_at ? RSV_ORACLE_PRESENT : RSV_ORACLE_TOMBSTONE;
            r[i].value = i == big_at ? big : NULL;
            r[i].value_len = i == big_at ? vb : 0;
        }
        size_t len;
        uint8_t *f = encode(r, n, 0, 0, 1, 15, c0_default, 1, &len);
        if (le(f + 96 + 64 + 16 * 4 + 8, 8) > 0) { /* section 4 length */
            write_parse(name, f, len);
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
    gen_sparse("sparse_ef_w1", 2100);
    gen_sparse("sparse_ef_w1_last_group", 4150);
}


/* ---- format revision v2 (multi-code) files ------------------------------- */

/* Codes as bit strings ("0", "10", ...) or NULL. */
static void code_from_str(const char *bits, uint8_t *out, uint64_t *n)
{
    memset(out, 0, 65);
    *n = 0;
    for (const char *p = bits; *p; p++, (*n)++)
        if (*p == '1') out[*n / 8] |= (uint8_t)(0x80u >> (*n % 8));
}

/* Records r[0..n) split into consecutive segments, segment j using code j;
 * the fixture's keys rise within every segment, so logical keys increase. */
static uint8_t *encode_v2(const rsv_oracle_record *r, size_t n, const size_t *seg_end, uint8_t (*codes)[65],
                          const uint64_t *code_bits, uint64_t kind, uint64_t param, uint64_t W, uint64_t K,
                          size_t *len)
{
    rsv_oracle_crecord *c = calloc(n + 1, sizeof *c);
    if (!c) die("calloc");
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        while (i >= seg_end[j]) j++;
        c[i].rec = r[i];
        c[i].code.bits = codes[j];
        c[i].code.nbits = code_bits[j];
    }
    rsv_oracle_kv03_policy p = {kind, param, W, K};
    uint8_t *out = NULL;
    size_t bad = 0;
    if (rsv_oracle_kv03_encode_v2(c, n, &p, &out, len, &bad) != RSV_OK) die("oracle encode_v2");
    free(c);
    return out;
}

static void v2_file(const char *name, const rsv_oracle_record *r, size_t n, const char *const *codes, size_t m,
                    uint64_t kind, uint64_t param, uint64_t W, uint64_t K)
{
    uint8_t cb[16][65];
    uint64_t bits[16];
    size_t ends[16];
    for (size_t j = 0; j < m; j++) {
        code_from_str(codes[j], cb[j], &bits[j]);
        ends[j] = (j + 1) * n / m; /* equal segments, the last ends at n */
    }
    size_t len;
    uint8_t *f = encode_v2(r, n, ends, cb, bits, kind, param, W, K, &len);
    write_parse(name, f, len);
    free(f);
}

static void gen_parse_v2(void)
{
    /* §12.5, built with the oracle and checked against the CRCs it states */
    static const rsv_oracle_record r125[] = {
        {(const uint8_t *)"a", 1, RSV_ORACLE_PRESENT, (const uint8_t *)"x", 1},
        {(const uint8_t *)"ab", 2, RSV_ORACLE_TOMBSTONE, NULL, 0},
        {(const uint8_t *)"", 0, RSV_ORACLE_PRESENT, NULL, 0},
        {(const uint8_t *)"a", 1, RSV_ORACLE_PRESENT, (const uint8_t *)"yz", 2},
        {(const uint8_t *)"b", 1, RSV_ORACLE_TOMBSTONE, NULL, 0},
        {(const uint8_t *)"ba", 2, RSV_ORACLE_PRESENT, NULL, 0},
    };
    uint8_t cb[3][65];
    uint64_t bits[3];
    static const size_t ends125[] = {2, 3, 6};
    code_from_str("0", cb[0], &bits[0]);
    code_from_str("10", cb[1], &bits[1]);
    code_from_str("11", cb[2], &bits[2]);
    size_t len;
    uint8_t *f = encode_v2(r125, 6, ends125, cb, bits, 0, 0, 3, 3, &len);
    if (len != 377 || le(f + 64, 4) != 0x834EE891u || le(f + 68, 4) != 0xD9051186u)
        die("§12.5: the oracle's file differs from KV03.md (size or CRCs)");
    write_parse("v2_spec_12_5", f, len);
    free(f);

    uint8_t keys[40][4], vals[40][3];
    rsv_oracle_record *r = fixture(40, keys, vals);
    static const char *const m3[] = {"0", "10", "11"};
    v2_file("v2_fixture40_m3_w4", r, 40, m3, 3, 0, 0, 4, 15);
    static const char *const m5[] = {"00", "01", "100", "101", "11"}; /* m not a power of two: SEED_RANGE */
    v2_file("v2_fixture40_m5_w3", r, 40, m5, 5, 0, 1, 3, 7);
    static const char *const m16[] = {"0000", "0001", "0010", "0011", "0100", "0101", "0110", "0111",
                                      "1000", "1001", "1010", "1011", "1100", "1101", "1110", "1111"};
    v2_file("v2_fixture32_m16_w1", r, 32, m16, 16, 0, 0, 1, 3);
    static const char *const mlong[] = {
        "0", "10",
        "1100110011110000101010100101010111111111000000001100110011110000101010100101010111111111000000001010"};
    v2_file("v2_fixture20_long100_w2", r, 20, mlong, 3, 1, 3, 2, 7);
    static const char *const m2[] = {"0", "1"};
    v2_file("v2_fixture24_m2_golomb7_w5", r, 24, m2, 2, 1, 7, 5, 15);
    static const char *const mgap[] = {"001", "01", "1101"}; /* unused branches between codes */
    v2_file("v2_fixture30_m3_gaps_w15", r, 30, mgap, 3, 0, 2, 15, 15);
    /* the same 8 keys under three codes: transitions between equal keys */
    rsv_oracle_record same[24];
    for (size_t i = 0; i < 24; i++) same[i] = r[i % 8];
    static const char *const m3b[] = {"00", "011", "1"};
    v2_file("v2_same_keys_m3_w2", same, 24, m3b, 3, 0, 0, 2, 3);
    free(r);
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

/* ---- v2 script pieces (common/kv03_codes.h) ------------------------------ */

/* A producer over cons[from, n) as the target would read it. */
static rsv_fuzz_producer script_producer(const script *s, size_t from, uint8_t *buf)
{
    size_t k = s->n - from;
    for (size_t i = 0; i < k; i++) buf[i] = s->cons[s->n - 1 - i];
    rsv_fuzz_producer p;
    rsv_fuzz_producer_init(&p, buf, k);
    return p;
}

/* Records the target generates from cons[from, n) (after sorting). */
static size_t count_records(const script *s, size_t from)
{
    uint8_t buf[sizeof s->cons];
    rsv_fuzz_producer p = script_producer(s, from, buf);
    rsv_kvf_recs r;
    rsv_kvf_gen_records(&p, 1, &r);
    size_t n = r.n;
    rsv_kvf_recs_free(&r);
    return n;
}

/* Push a code set (kv03_codes.h layout): target size, split length, flags
 * f, tree steps from `steps` (only as many as the target reads), then the
 * long-code bytes (f bit 0) and the prefix-breaking byte (f bit 1). *out
 * receives the set the target reads; the script is checked to be consumed
 * exactly. */
static void set_script(script *s, unsigned target, unsigned L, unsigned f, const uint8_t *steps, size_t nsteps,
                       unsigned long_leaf, uint64_t long_seed, unsigned broken, int allow_broken, rsv_kvf_set *out)
{
    uint8_t buf[sizeof s->cons];
    size_t start = s->n;
    u8(s, target - 2);
    u8(s, L - 1);
    u8(s, 0); /* phase 1: count the steps read */
    for (size_t i = 0; i < nsteps; i++) u8(s, steps[i]);
    rsv_fuzz_producer p = script_producer(s, start, buf);
    rsv_kvf_gen_code_set(&p, 0, out);
    size_t used = nsteps - rsv_fuzz_remaining(&p);
    s->n = start + 2;
    u8(s, f);
    for (size_t i = 0; i < used; i++) u8(s, steps[i]);
    if (f & 1u) {
        u8(s, long_leaf);
        push(s, long_seed, 8);
    }
    if ((f & 2u) && allow_broken) u8(s, broken);
    p = script_producer(s, start, buf);
    rsv_kvf_gen_code_set(&p, allow_broken, out);
    if (rsv_fuzz_remaining(&p) != 0) die("set script not consumed exactly");
}

static const uint8_t k_steps[] = {0x01, 0x02, 0x00, 0x05, 0x03, 0x07, 0x04, 0x0b, 0xc1, 0x06, 0x09, 0x0d,
                                  0x08, 0x02, 0x0e, 0x11, 0xc0, 0x13, 0x0a, 0x01, 0x10, 0x05, 0x0c, 0x03,
                                  0x12, 0x07, 0x0f, 0x04, 0x14, 0x09, 0x06, 0x15, 0x02, 0x08, 0x0b, 0x01};

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

/* kv03_roundtrip and stream_roundtrip read one input layout (common/kv03_rt.h):
 * every round-trip seed goes to both. */
static void emit_rt(const script *s, const char *name)
{
    emit(s, "kv03_roundtrip", name);
    emit(s, "stream_roundtrip", name);
}

static void gen_roundtrip(void)
{
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
        emit_rt(&s, pols[i].name);
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
        emit_rt(&s, name);
    }
    memset(&s, 0, sizeof s); /* bulk: 250 records, W = 1 (EF sample groups) */
    u8(&s, 0);
    policy(&s, 0, 0, 1, 2);
    code_default(&s);
    u8(&s, 240);
    emit_rt(&s, "bulk250_w1");
    memset(&s, 0, sizeof s); /* unsorted order kept: UNSORTED at record 2 */
    u8(&s, 7);
    policy(&s, 0, 0, 15, 2);
    code_default(&s);
    u8(&s, 3);
    rec(&s, 0, "b", 1, "");
    rec(&s, 1, "b", 0, "");
    rec(&s, 0, "a", 2, "q");
    emit_rt(&s, "unsorted");
    /* format revision v2: flag bit 3, a code set and a code per record */
    struct { const char *name; unsigned flags, target, L, f, recs; } v2[] = {
        {"v2_split30_set3", 8, 3, 2, 0, 30},          {"v2_split30_set16_long", 8, 16, 6, 1, 30},
        {"v2_ex12_set5_sorted_w1", 8, 5, 4, 4, 4},    {"v2_split30_set9_raw_order", 15, 9, 5, 0, 30},
        {"v2_bulk250_set4", 8, 4, 3, 0, 250},
    };
    for (size_t i = 0; i < sizeof v2 / sizeof v2[0]; i++) {
        rsv_kvf_set set;
        memset(&s, 0, sizeof s);
        u8(&s, v2[i].flags);
        policy(&s, i == 2, i == 2 ? 3 : i, i == 2 ? 1 : 2 + (unsigned)i, 2);
        code_default(&s);
        if (v2[i].recs == 4) ex12_records(&s);
        else if (v2[i].recs == 250) u8(&s, 240);
        else split_records(&s, v2[i].recs);
        set_script(&s, v2[i].target, v2[i].L, v2[i].f, k_steps, sizeof k_steps, 1, 0x0123456789ABCDEFu, 0, 0, &set);
        for (unsigned k = 0; k < v2[i].recs; k++) u8(&s, (k * 7 + k / 5) % 251); /* extra choices stay unread */
        emit_rt(&s, v2[i].name);
    }
    memset(&s, 0, sizeof s); /* W = 0: BAD_POLICY */
    u8(&s, 0);
    u8(&s, 0);
    u8(&s, 0);
    u8(&s, 203);
    u8(&s, 2);
    code_default(&s);
    ex12_records(&s);
    emit_rt(&s, "bad_policy_w0");
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
    /* format revision v2 (flag bit 6): per-input code sets from one set */
    struct { const char *name; unsigned ninputs, drop, mode, target, L, f, tomb; } v2[] = {
        {"v2_pool24_in3_m4", 3, 0, 0, 4, 3, 0, 255},
        {"v2_pool24_in2_drop_tombcode", 2, 1, 0, 3, 2, 0, 1},
        {"v2_pool24_in4_m8_long", 4, 0, 1, 8, 4, 1, 255},
        {"v2_pool24_in3_mode6_longer", 3, 0, 6, 5, 3, 0, 255},
        {"v2_pool24_in2_drop_mode6_longer1", 2, 1, 6, 6, 4, 0, 255},
        {"v2_pool24_in3_mode7", 3, 0, 7, 3, 2, 0, 255},
    };
    for (size_t v = 0; v < sizeof v2 / sizeof v2[0]; v++) {
        rsv_kvf_set set;
        memset(&s, 0, sizeof s);
        unsigned flags = (v2[v].ninputs - 2) | (v2[v].drop << 2) | (v2[v].mode << 3) | (1u << 6);
        u8(&s, flags);
        policy(&s, v == 2, v == 2 ? 7 : 0, 3 + (unsigned)v, 2);
        code_default(&s);
        size_t from = s.n;
        split_records(&s, 24);
        size_t npool = count_records(&s, from);
        set_script(&s, v2[v].target, v2[v].L, v2[v].f, k_steps, sizeof k_steps, 2, 0xFEDCBA9876543210u, 0, 0, &set);
        for (size_t k = 0; k < npool; k++) u8(&s, (k * 3) / 4); /* runs of equal codes */
        u8(&s, v2[v].tomb);
        for (unsigned j = 0; j < v2[v].ninputs; j++) {
            push(&s, UINT64_C(0x9E3779B97F4A7C15) * (j + 3 + v), 8);
            u8(&s, 0x11u * (j + v));
        }
        if (v2[v].mode >= 5) {
            u8(&s, v % v2[v].ninputs);
            u8(&s, v2[v].mode == 6 ? (v == 3 ? 0x05 : 0x03) : v * 5); /* odd: one bit longer */
            if (v2[v].mode == 7) push(&s, 41u * v + 5, 2);
        }
        emit(&s, T, v2[v].name);
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

    /* Long selector codes: mode 6 gives one input C0 with one bit flipped
     * (how odd) or one bit longer (how even), so the output holds two codes
     * of 512 bits (the 511-bit one: C0 a prefix of the other, MERGE_MISMATCH):
     * more code bits than the writer's inline code store
     * (RSV_KV03_MAX_CODE_BITS / 8 + 8 bytes), which must grow. */
    struct { const char *name; unsigned c, ninputs, how; } lc[] = {
        {"code512_in2_mode6_flip", 512, 2, 0x0B}, {"code511_in3_mode6_longer_mismatch", 511, 3, 0x02},
        {"code512_in4_drop_mode6_flip_last", 512, 4, 0x7F},
    };
    for (size_t v = 0; v < sizeof lc / sizeof lc[0]; v++) {
        memset(&s, 0, sizeof s);
        u8(&s, (lc[v].ninputs - 2) | (v == 2 ? 1u << 2 : 0) | (6u << 3));
        policy(&s, v == 1, v == 1 ? 5 : 0, 2 + (unsigned)v, 1);
        code_bits(&s, lc[v].c, (uint8_t)(0x3C + v));
        split_records(&s, 20);
        for (unsigned j = 0; j < lc[v].ninputs; j++) {
            push(&s, UINT64_C(0xC2B2AE3D27D4EB4F) * (j + 1 + v), 8);
            u8(&s, 0x35u * (j + v));
        }
        u8(&s, (unsigned)v % lc[v].ninputs); /* victim */
        u8(&s, lc[v].how);
        emit(&s, T, lc[v].name);
    }
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
    /* format revision v2: csel 64 = a code set; the stream is the oracle's
     * v2 encoding of the fixture, codes by segments in increasing code order */
    struct { const char *name; unsigned n, target, L, f, broken; } v2[] = {
        {"v2_fixture24_set3", 24, 3, 2, 4, 0},     {"v2_fixture40_set16", 40, 16, 5, 4, 0},
        {"v2_fixture30_set6_long", 30, 6, 3, 5, 0}, {"v2_fixture12_set4_unsorted_order", 12, 4, 3, 0, 0},
        {"v2_fixture12_set4_duplicate", 12, 4, 3, 6, 0x01}, {"v2_fixture12_set4_prefix", 12, 4, 3, 6, 0x42},
    };
    for (size_t v = 0; v < sizeof v2 / sizeof v2[0]; v++) {
        rsv_kvf_set set;
        memset(&s, 0, sizeof s);
        u8(&s, 2u << 3); /* all bits of the payload */
        u8(&s, 64);
        set_script(&s, v2[v].target, v2[v].L, v2[v].f, k_steps, sizeof k_steps, 0, 0x5555AAAA3333CCCCu,
                   v2[v].broken, 1, &set);
        /* sorted indices of the set's first prefix-free m codes (the extra
         * prefix-breaking one is never used by records) */
        size_t m = v2[v].f & 2u ? set.m - 1 : set.m, ord[RSV_KVF_MAX_CODES];
        for (size_t j = 0; j < m; j++) ord[j] = j;
        for (size_t a = 1; a < m; a++)
            for (size_t b = a; b > 0 && rsv_oracle_code_compare(set.oracle[ord[b - 1]], set.oracle[ord[b]]) > 0; b--) {
                size_t t = ord[b];
                ord[b] = ord[b - 1];
                ord[b - 1] = t;
            }
        rsv_oracle_crecord c[40];
        for (size_t i = 0; i < v2[v].n; i++) {
            c[i].rec = r[i];
            c[i].code = set.oracle[ord[i * m / v2[v].n]];
        }
        uint8_t *b = NULL;
        uint64_t e = 0;
        if (rsv_oracle_stream_encode_v2(c, v2[v].n, &b, &e, NULL) != RSV_OK) die("stream encode_v2");
        s.nfront = (size_t)((e + 7) / 8);
        if (s.nfront > sizeof s.front) die("stream too long");
        memcpy(s.front, b, s.nfront);
        if (e % 8) s.cons[0] = (uint8_t)((8 - e % 8) << 5); /* rule 0: drop exactly the padding */
        emit(&s, T, v2[v].name);
        free(b);
    }
    free(r);
}

/* ---- merge candidates: resealed one-byte variants (--sweep) ---------------
 *
 * rsv_gen_corpus_kv03 --sweep OUTDIR FILE...: for every byte of each KV03 FILE
 * except the two CRC fields (bytes 64..71), the file with that byte set to
 * 0x00, 0x01, 0xFF, x^0x01, x^0x80, x+1 and x-1 (x = the byte; values equal to
 * x or to an earlier one are skipped), both CRCs re-sealed, written as
 * OUTDIR/<file basename>.<offset>.<value in hex>; and every 8-aligned u64 of
 * the header and directory set to 0, 1, 2^64-1, 2^63, (2^64-1)/8 and x+1, x-1,
 * x+8, x-8, 2x, x/2, x+96 (OUTDIR/<basename>.u64_<offset>.<value>). Every header and directory
 * field and every dictionary, EF and data byte thus takes values just beside
 * its valid one, past the CRC checks that stop random mutations. These are
 * candidates, not seeds: `-merge=1` (fuzz/fuzz minimize, docs/fuzzing.md
 * "Growing the corpora") keeps the few that add coverage. */
static int sweep(const char *outdir, const char *path)
{
    FILE *in = fopen(path, "rb");
    if (!in) die(path);
    static uint8_t f[1 << 16], g[1 << 16];
    size_t n = fread(f, 1, sizeof f, in);
    if (ferror(in) || !feof(in) || fclose(in) != 0) die(path);
    if (n < 96) {
        fprintf(stderr, "rsv_gen_corpus_kv03: %s: %zu bytes, not a KV03 file\n", path, n);
        return 1;
    }
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    g_outdir = outdir;
    for (size_t i = 0; i < n; i++) {
        if (i >= 64 && i < 72) continue;
        uint8_t x = f[i], vals[7] = {0x00, 0x01, 0xFF, (uint8_t)(x ^ 1), (uint8_t)(x ^ 0x80), (uint8_t)(x + 1),
                                     (uint8_t)(x - 1)};
        for (size_t v = 0; v < 7; v++) {
            int seen = vals[v] == x;
            for (size_t u = 0; u < v; u++) seen |= vals[u] == vals[v];
            if (seen) continue;
            memcpy(g, f, n);
            g[i] = vals[v];
            reseal(g, n);
            char name[256];
            snprintf(name, sizeof name, "%s.%zu.%02x", base, i, vals[v]);
            write_file(".", name, g, n);
        }
    }
    /* whole little-endian u64 fields of the header and directory (8-aligned,
     * the CRC word excepted): values one step or a power of two away */
    for (size_t i = 0; i + 8 <= n && i < 288; i += 8) {
        if (i == 64) continue;
        uint64_t x = le(f + i, 8), vals[] = {0, 1, UINT64_MAX, UINT64_C(1) << 63, x + 1, x - 1, x + 8, x - 8,
                                             x * 2, x / 2, x + 96, UINT64_MAX / 8};
        for (size_t v = 0; v < sizeof vals / sizeof vals[0]; v++) {
            int seen = vals[v] == x;
            for (size_t u = 0; u < v; u++) seen |= vals[u] == vals[v];
            if (seen) continue;
            memcpy(g, f, n);
            put_le(g + i, vals[v], 8);
            reseal(g, n);
            char name[256];
            snprintf(name, sizeof name, "%s.u64_%zu.%llx", base, i, (unsigned long long)vals[v]);
            write_file(".", name, g, n);
        }
    }
    return 0;
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
                                       "stream_diff", "stream_roundtrip"};
    if (argc >= 4 && strcmp(argv[1], "--sweep") == 0) {
        make_dir(argv[2], NULL);
        int rc = 0;
        for (int i = 3; i < argc; i++) rc |= sweep(argv[2], argv[i]);
        printf("rsv_gen_corpus_kv03: wrote %u merge candidates under %s\n", g_files, argv[2]);
        return rc;
    }
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUTDIR\n  writes OUTDIR/{kv03_parse,kv03_parse_structured,kv03_roundtrip,"
                        "merge_diff,stream_diff,stream_roundtrip}/*\n"
                        "       %s --sweep OUTDIR KV03_FILE...\n  writes resealed one-byte variants of each "
                        "file into OUTDIR (merge candidates)\n", argv[0], argv[0]);
        return 2;
    }
    g_outdir = argv[1];
    make_dir(g_outdir, NULL);
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) make_dir(g_outdir, dirs[i]);
    gen_parse();
    gen_parse_v2();
    gen_roundtrip();
    gen_merge();
    gen_stream();
    printf("rsv_gen_corpus_kv03: wrote %u seeds under %s\n", g_files, g_outdir);
    return 0;
}
