/* KV03 format revision v2, write side (KV03.md §3.2, §6, §11.1, §12.5): the
 * writer reproduces the §12.5 multi-code file byte for byte (read from the
 * spec's hex dump, both CRCs included) through rsv_kv03_encode with
 * rsv_record.code, the streaming writer's add_coded / add_coded_span and the
 * path writer; a one-code writer still gives the §12.3 v1 bytes; the §11.1
 * checks (TOO_LARGE, SELECTOR_PREFIX, UNSORTED) fail in their order with
 * hand-derived statuses and positions. */
#define _DEFAULT_SOURCE /* mkdtemp */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reservoir/kv03.h"

#include "kv03_stream_util.h" /* slurp */
#include "kv03_v2_util.h"
#include "testutil.h"
#include "kv03_vectors.h"

static const rsv_kv03_policy P33 = {RSV_BACKSPACE_EG, 0, 3, 3};

static void expect_bytes(const uint8_t *got, size_t ngot, const uint8_t *want, size_t nwant)
{
    cr_assert_eq(ngot, nwant, "length %zu, want %zu", ngot, nwant);
    for (size_t i = 0; i < nwant; i++)
        cr_assert_eq(got[i], want[i], "byte %zu: got %02x want %02x", i, got[i], want[i]);
}

static void spec_file(const char *heading, uint8_t **want, size_t *n)
{
    cr_assert_eq(rsv_spec_hexdump(heading, want, n), 0, "no hex dump after %s in docs/spec/KV03.md", heading);
}

Test(kv03_v2_write, spec_dump_12_5_matches_the_prose)
{
    uint8_t *want;
    size_t n;
    spec_file("12.5", &want, &n);
    cr_assert_eq(n, 377);
    /* spot checks against the prose of §12.5: magic, body CRC 0x834EE891,
     * header CRC 0xD9051186, seeds byte 20 last */
    cr_assert_eq(memcmp(want, "EVRT.KV", 8), 0);
    uint8_t crcs[8] = {0x91, 0xe8, 0x4e, 0x83, 0x86, 0x11, 0x05, 0xd9};
    cr_assert_eq(memcmp(want + 64, crcs, 8), 0);
    cr_assert_eq(want[376], 0x20);
    free(want);
}

Test(kv03_v2_write, encode_12_5_file)
{
    uint8_t *want, *out;
    size_t n, nout;
    spec_file("12.5", &want, &n);
    cr_assert_eq(rsv_kv03_encode(&P33, NULL, 0, v2_recs_12_5(), 6, &out, &nout), RSV_OK);
    expect_bytes(out, nout, want, n);
    free(out);
    free(want);
}

/* The streaming writer, values as bytes (add_coded) or as encoded spans
 * (add_coded_span: the merge's form), gives the same file. */
static void write_12_5(rsv_kv03_writer *w, int spans)
{
    const rsv_record *r = v2_recs_12_5();
    uint8_t vbuf[6][4];
    for (size_t i = 0; i < 6; i++) {
        if (!spans) {
            cr_assert_eq(rsv_kv03_writer_add_coded(w, r[i].code, r[i].code_bits, r[i].key, r[i].key_len, r[i].value),
                         RSV_OK, "record %zu", i);
            continue;
        }
        rsv_value_span s = {r[i].value.kind, r[i].value.len, rsv_view_make(NULL, 0, 0), 0};
        if (r[i].value.len) {
            /* the value bytes start 3 bits into a buffer: spans need not be aligned */
            memset(vbuf[i], 0, sizeof vbuf[i]);
            rsv_bits_store(vbuf[i], 3, rsv_view_make(r[i].value.data, 0, 8 * r[i].value.len));
            s.bytes = rsv_view_make(vbuf[i], 3, 8 * r[i].value.len);
        }
        cr_assert_eq(rsv_kv03_writer_add_coded_span(w, r[i].code, r[i].code_bits, r[i].key, r[i].key_len, &s),
                     RSV_OK, "record %zu", i);
    }
}

Test(kv03_v2_write, writer_add_coded_12_5)
{
    uint8_t *want;
    size_t n;
    spec_file("12.5", &want, &n);
    for (int spans = 0; spans < 2; spans++) {
        rsv_kv03_writer w;
        cr_assert_eq(rsv_kv03_writer_init(&w, &P33, NULL, 0), RSV_OK);
        write_12_5(&w, spans);
        uint8_t *out;
        size_t nout;
        cr_assert_eq(rsv_kv03_writer_finish(&w, &out, &nout), RSV_OK);
        expect_bytes(out, nout, want, n);
        free(out);
        rsv_kv03_writer_free(&w);
    }
    free(want);
}

Test(kv03_v2_write, path_writer_12_5)
{
    uint8_t *want;
    size_t n;
    spec_file("12.5", &want, &n);
    char dir[] = "/tmp/rsv_v2w_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/f.kv", dir);
    /* flush bound 1: every record's whole bytes go to the file at once */
    for (size_t flush = 1; flush <= 65536; flush *= 65536) {
        rsv_kv03_writer w;
        cr_assert_eq(rsv_kv03_writer_init_path(&w, &P33, NULL, 0, path), RSV_OK);
        cr_assert_eq(rsv_kv03_writer_set_flush_bytes(&w, flush), RSV_OK);
        write_12_5(&w, 0);
        cr_assert_eq(rsv_kv03_writer_commit(&w), RSV_OK);
        rsv_kv03_writer_free(&w);
        size_t nf;
        uint8_t *got = slurp(path, &nf);
        expect_bytes(got, nf, want, n);
        free(got);
        unlink(path);
    }
    rmdir(dir);
    free(want);
}

/* v1 stays v1: the §12.3 records given with an explicit code `0` per record
 * (add_coded and rsv_record.code) are the §12.3 file. */
Test(kv03_v2_write, one_code_is_v1_12_3)
{
    uint8_t *want;
    size_t n;
    spec_file("12.3", &want, &n);
    cr_assert_eq(n, 360);
    rsv_record r[4];
    memcpy(r, RECS, sizeof r);
    for (int i = 0; i < 4; i++) r[i].code = V2_C0, r[i].code_bits = 1;
    rsv_kv03_policy p = rsv_kv03_policy_default();
    uint8_t *out;
    size_t nout;
    /* the call's code (`1`) is not used: every record names its own */
    cr_assert_eq(rsv_kv03_encode(&p, V2_C10, 1, r, 4, &out, &nout), RSV_OK);
    expect_bytes(out, nout, want, n);
    free(out);
    rsv_kv03_writer w;
    cr_assert_eq(rsv_kv03_writer_init(&w, &p, V2_C10, 1), RSV_OK); /* C0 = `1`, unused */
    for (int i = 0; i < 4; i++)
        cr_assert_eq(rsv_kv03_writer_add_coded(&w, V2_C0, 1, r[i].key, r[i].key_len, r[i].value), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_finish(&w, &out, &nout), RSV_OK);
    expect_bytes(out, nout, want, n);
    free(out);
    rsv_kv03_writer_free(&w);
    free(want);
}

/* Directory fields read directly (§5.1), so these checks do not depend on
 * the reader: body offset 96 + field offset. */
static uint64_t le_at(const uint8_t *p)
{
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--) x = (x << 8) | p[i];
    return x;
}
typedef struct dirinfo {
    uint64_t extent, terminal, dict_bits, seed_bits, off[8], len[8];
} dirinfo;
static dirinfo dir_of(const uint8_t *file)
{
    const uint8_t *d = file + 96;
    dirinfo r;
    r.extent = le_at(d + 8);
    r.terminal = le_at(d + 16);
    r.dict_bits = le_at(d + 32);
    r.seed_bits = le_at(d + 40);
    for (int i = 0; i < 8; i++) r.off[i] = le_at(d + 64 + 16 * i), r.len[i] = le_at(d + 72 + 16 * i);
    return r;
}

/* ---- §11.1 checks --------------------------------------------------------- */

typedef struct step {
    const char *code; /* bit string, "" = empty code */
    const char *key;
    rsv_status want;
} step;

/* Feed steps until the first expected failure; check status, diag (record
 * index = records accepted so far) and poisoning. */
static void run_steps(const step *s, size_t n)
{
    rsv_kv03_writer w;
    cr_assert_eq(rsv_kv03_writer_init(&w, &P33, NULL, 0), RSV_OK);
    for (size_t i = 0; i < n; i++) {
        uint8_t code[80] = {0};
        uint64_t bits = rsv_parse_bits(s[i].code, code, sizeof code, 0);
        cr_assert_neq(bits, UINT64_MAX);
        rsv_status st = rsv_kv03_writer_add_coded(&w, code, bits, s[i].key, strlen(s[i].key), rsv_value_tombstone());
        cr_assert_eq(st, s[i].want, "step %zu (%s \"%s\"): %d, want %d", i, s[i].code, s[i].key, st, s[i].want);
        if (st) {
            cr_assert_eq(rsv_kv03_writer_diag(&w).status, st);
            cr_assert_eq(rsv_kv03_writer_diag(&w).record, i);
            cr_assert_eq(rsv_kv03_writer_add_coded(&w, code, bits, "zz", 2, rsv_value_tombstone()), RSV_ERR_POISONED);
            break;
        }
    }
    rsv_kv03_writer_free(&w);
}

Test(kv03_v2_write, selector_prefix_new_code_extends_an_old_one)
{
    step s[] = {{"0", "a", RSV_OK}, {"01", "a", RSV_ERR_SELECTOR_PREFIX}};
    run_steps(s, 2);
}

Test(kv03_v2_write, selector_prefix_new_code_is_prefix_of_an_old_one)
{
    /* `1` is a prefix of `10` (and sorts before it: the prefix check comes first) */
    step s[] = {{"0", "a", RSV_OK}, {"10", "a", RSV_OK}, {"1", "z", RSV_ERR_SELECTOR_PREFIX}};
    run_steps(s, 3);
}

Test(kv03_v2_write, selector_prefix_against_a_non_adjacent_code)
{
    /* `0` is a prefix of `01`, two codes back; `0` also sorts before `1` */
    step s[] = {{"01", "a", RSV_OK}, {"10", "a", RSV_OK}, {"110", "", RSV_OK}, {"0", "zz", RSV_ERR_SELECTOR_PREFIX}};
    run_steps(s, 4);
}

Test(kv03_v2_write, selector_prefix_empty_code)
{
    step a[] = {{"", "a", RSV_OK}, {"0", "b", RSV_ERR_SELECTOR_PREFIX}};
    run_steps(a, 2);
    step b[] = {{"0", "a", RSV_OK}, {"", "b", RSV_ERR_SELECTOR_PREFIX}};
    run_steps(b, 2);
    /* one empty code alone is a v1 file with c = 0 */
    step c[] = {{"", "a", RSV_OK}, {"", "b", RSV_OK}};
    run_steps(c, 2);
}

Test(kv03_v2_write, unsorted_codes)
{
    /* `10` then `0`: no prefix relation, `0` < `10` */
    step a[] = {{"10", "a", RSV_OK}, {"0", "z", RSV_ERR_UNSORTED}};
    run_steps(a, 2);
    /* a return to an earlier, non-adjacent code */
    step b[] = {{"0", "a", RSV_OK}, {"10", "", RSV_OK}, {"11", "a", RSV_OK}, {"0", "b", RSV_ERR_UNSORTED}};
    run_steps(b, 4);
    /* same code, key not increasing */
    step c[] = {{"0", "b", RSV_OK}, {"10", "b", RSV_OK}, {"10", "a", RSV_ERR_UNSORTED}};
    run_steps(c, 3);
    step d[] = {{"0", "b", RSV_OK}, {"0", "b", RSV_ERR_UNSORTED}};
    run_steps(d, 2);
    /* a new code whose keys are smaller is fine: the code decides */
    step e[] = {{"0", "zz", RSV_OK}, {"10", "", RSV_OK}, {"110", "", RSV_OK}};
    run_steps(e, 3);
}

Test(kv03_v2_write, too_large_513_fails_512_works)
{
    uint8_t code[65];
    memset(code, 0xA5, sizeof code);
    rsv_kv03_writer w;
    cr_assert_eq(rsv_kv03_writer_init(&w, &P33, NULL, 0), RSV_OK);
    /* TOO_LARGE comes before SELECTOR_PREFIX and UNSORTED (§11.1 order) */
    cr_assert_eq(rsv_kv03_writer_add_coded(&w, code, 513, "a", 1, rsv_value_tombstone()), RSV_ERR_TOO_LARGE);
    cr_assert_eq(rsv_kv03_writer_diag(&w).record, 0);
    rsv_kv03_writer_free(&w);

    /* 512 bits: a one-code file, section 5 = the 64 code bytes, dictionary
     * bits 512, terminal 512 + 8 */
    cr_assert_eq(rsv_kv03_writer_init(&w, &P33, NULL, 0), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_add_coded(&w, code, 512, "a", 1, rsv_value_tombstone()), RSV_OK);
    uint8_t *out;
    size_t n;
    cr_assert_eq(rsv_kv03_writer_finish(&w, &out, &n), RSV_OK);
    rsv_kv03_writer_free(&w);
    dirinfo f = dir_of(out);
    cr_assert_eq(f.dict_bits, 512);
    cr_assert_eq(f.terminal, 520);
    cr_assert_eq(f.len[6], 16); /* m = 1 */
    cr_assert_eq(le_at(out + 96 + f.off[6] + 8), 512);
    cr_assert_eq(memcmp(out + 96 + f.off[5], code, 64), 0);
    free(out);

    /* a second code after a 512-bit one: 513 still fails first */
    cr_assert_eq(rsv_kv03_writer_init(&w, &P33, NULL, 0), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_add_coded(&w, code, 512, "a", 1, rsv_value_tombstone()), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_add_coded(&w, code, 513, "a", 1, rsv_value_tombstone()), RSV_ERR_TOO_LARGE);
    rsv_kv03_writer_free(&w);
}

/* Hand-derived two-code file with W = 1 (every record a block start): codes
 * `0` "a"→⊥ and `1` "a"→⊥. Records: EG0(1) `010` S=8 `0001001` `01100001`
 * `0` (19 bits); block start after a code change: R = |`1`| = 1, the same 19
 * bits. Data = 38 bits: 0100001001 011000010 | 0100001001 011000010.
 * Dictionary `01` (byte 40), offsets [0, 1, 2], m = 2, w = 1, seeds `01`
 * (byte 40), terminal 1 + 8 = 9. */
Test(kv03_v2_write, two_codes_w1_sections)
{
    rsv_kv03_policy p = {RSV_BACKSPACE_EG, 0, 1, 3};
    uint8_t one[1] = {0x80};
    rsv_record r[2] = {{(const uint8_t *)"a", 1, {RSV_VALUE_TOMBSTONE, NULL, 0}, V2_C0, 1},
                       {(const uint8_t *)"a", 1, {RSV_VALUE_TOMBSTONE, NULL, 0}, one, 1}};
    uint8_t *out;
    size_t n;
    cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, r, 2, &out, &n), RSV_OK);
    dirinfo f = dir_of(out);
    cr_assert_eq(f.extent, 38);
    cr_assert_eq(f.terminal, 9);
    cr_assert_eq(f.dict_bits, 2);
    cr_assert_eq(f.seed_bits, 2);
    const uint8_t *body = out + 96;
    uint8_t data[5];
    memset(data, 0, sizeof data);
    cr_assert_eq(rsv_parse_bits("010 0001001 01100001 0  010 0001001 01100001 0", data, sizeof data, 0), 38);
    cr_assert_eq(memcmp(body + f.off[0], data, 5), 0);
    cr_assert_eq(body[f.off[5]], 0x40);
    uint8_t offs[24] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0};
    cr_assert_eq(f.len[6], 24);
    cr_assert_eq(memcmp(body + f.off[6], offs, 24), 0);
    cr_assert_eq(f.len[7], 1);
    cr_assert_eq(body[f.off[7]], 0x40);
    free(out);
}

/* Hand-derived transition with a Golomb backspace (m = 2, W = 15): `0` "a"→⊥
 * then `1` ""→⊥. Record 1 is a transition: cont 9 − R 0 = 9, Golomb m = 2:
 * q = 4, r = 1: `0000` `1` `1` (CODES.md §4.1, Rice); tail `1`; S = 0 `1`;
 * value `0`. Data: record 0 (19 bits) then `000011 1 1 0` = 28 bits. */
Test(kv03_v2_write, transition_golomb)
{
    rsv_kv03_policy p = {RSV_BACKSPACE_GOLOMB, 2, 15, 15};
    uint8_t one[1] = {0x80};
    rsv_record r[2] = {{(const uint8_t *)"a", 1, {RSV_VALUE_TOMBSTONE, NULL, 0}, V2_C0, 1},
                       {(const uint8_t *)"", 0, {RSV_VALUE_TOMBSTONE, NULL, 0}, one, 1}};
    uint8_t *out;
    size_t n;
    cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, r, 2, &out, &n), RSV_OK);
    dirinfo f = dir_of(out);
    cr_assert_eq(f.extent, 28);
    cr_assert_eq(f.terminal, 1);
    uint8_t data[4] = {0};
    cr_assert_eq(rsv_parse_bits("010 0001001 01100001 0  000011 1 1 0", data, sizeof data, 0), 28);
    cr_assert_eq(memcmp(out + 96 + f.off[0], data, 4), 0);
    /* one block: seeds = one 1-bit field `0` */
    cr_assert_eq(f.seed_bits, 1);
    cr_assert_eq(out[96 + f.off[7]], 0x00);
    free(out);
}

/* Path writer memory with codes: the data stream stays within the flush
 * bound plus one record, and the code list depends on the number of
 * distinct codes only (the same after 2000 and 20000 records). Three codes
 * `0`, `10`, `11`, keys 4-byte big-endian counters restarting per code. */
Test(kv03_v2_write, path_writer_memory_with_codes)
{
    char dir[] = "/tmp/rsv_v2w_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/mem.kv", dir);
    uint64_t code_bytes[2];
    for (int run = 0; run < 2; run++) {
        uint32_t n = run ? 20000 : 2000;
        rsv_kv03_writer w;
        cr_assert_eq(rsv_kv03_writer_init_path(&w, &P33, NULL, 0, path), RSV_OK);
        cr_assert_eq(rsv_kv03_writer_set_flush_bytes(&w, 256), RSV_OK);
        const uint8_t *codes[3] = {V2_C0, V2_C10, V2_C11};
        const uint64_t bits[3] = {1, 2, 2};
        for (int c = 0; c < 3; c++)
            for (uint32_t i = 0; i < n; i++) {
                uint8_t k[4] = {(uint8_t)(i >> 24), (uint8_t)(i >> 16), (uint8_t)(i >> 8), (uint8_t)i};
                cr_assert_eq(rsv_kv03_writer_add_coded(&w, codes[c], bits[c], k, 4, rsv_value_present("v", 1)), RSV_OK);
            }
        rsv_kv03_writer_stats st;
        rsv_kv03_writer_get_stats(&w, &st);
        /* a record is at most ~60 bits here: 256 + 8 bytes bound the buffer */
        cr_assert_leq(st.buffered_max, 264);
        cr_assert_gt(st.code_bytes, 0);
        code_bytes[run] = st.code_bytes;
        cr_assert_eq(rsv_kv03_writer_commit(&w), RSV_OK);
        rsv_kv03_writer_free(&w);
        if (run == 0) { /* the file is the oracle's encoding of the same records */
            rsv_record *r = calloc(3 * (size_t)n, sizeof *r);
            uint8_t(*keys)[4] = malloc(3 * (size_t)n * 4);
            cr_assert(r && keys);
            for (size_t j = 0; j < 3 * (size_t)n; j++) {
                uint32_t i = (uint32_t)(j % n);
                keys[j][0] = (uint8_t)(i >> 24), keys[j][1] = (uint8_t)(i >> 16);
                keys[j][2] = (uint8_t)(i >> 8), keys[j][3] = (uint8_t)i;
                r[j].key = keys[j];
                r[j].key_len = 4;
                r[j].value = rsv_value_present("v", 1);
                r[j].code = codes[j / n];
                r[j].code_bits = bits[j / n];
            }
            uint8_t *want;
            size_t nwant, ngot;
            cr_assert_eq(v2_oracle_encode(r, 3 * (size_t)n, &P33, &want, &nwant), RSV_OK);
            uint8_t *got = slurp(path, &ngot);
            expect_bytes(got, ngot, want, nwant);
            free(got), free(want), free(r), free(keys);
        }
        unlink(path);
    }
    cr_assert_eq(code_bytes[0], code_bytes[1]);
    rmdir(dir);
}
