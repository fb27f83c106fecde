/* KV03 differential round trips (codec vs oracle, tests/support/kv03_diff.h):
 * random record sets under W ∈ {1, 2, 15, 16, 1000}, both backspace code
 * kinds (EG k ∈ {0, 1, 5, 63}, Golomb m ∈ {1, 3, 7, 2^64−1}) and selector
 * codes of 0, 1, 7, 64 and 512 bits. For each: codec batch bytes == codec
 * streaming-writer bytes == oracle encoder bytes; codec open/scan/frames/
 * cursor/records and the oracle decode all return the input; record streams:
 * codec bytes == oracle bytes and both decoders return the input. Expected
 * values are the generated input itself. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "kv03_diff.h"
#include "kv03_diff_gen.h"
#include "testutil.h"

static const uint64_t k_W[] = {1, 2, 15, 16, 1000};
static const rsv_kv03_policy k_B[] = {
    {RSV_BACKSPACE_EG, 0, 0, 0},     {RSV_BACKSPACE_EG, 1, 0, 0},     {RSV_BACKSPACE_EG, 5, 0, 0},
    {RSV_BACKSPACE_EG, 63, 0, 0},    {RSV_BACKSPACE_GOLOMB, 1, 0, 0}, {RSV_BACKSPACE_GOLOMB, 3, 0, 0},
    {RSV_BACKSPACE_GOLOMB, 7, 0, 0}, {RSV_BACKSPACE_GOLOMB, UINT64_MAX, 0, 0},
};
static const uint64_t k_codes[] = {0, 1, 7, 64, 512};
static const uint64_t k_K[] = {3, 15, 255, 4095, UINT64_MAX};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void check(const rsv_record *r, size_t n, const rsv_kv03_policy *p, const uint8_t *code, uint64_t c,
                  const char *what)
{
    rsv_kv03d_report rep;
    rsv_kv03d_report_init(&rep);
    int ok = rsv_kv03d_roundtrip(r, n, p, code, c, &rep);
    cr_assert(ok, "%s (n %zu, B %d/%llu, W %llu, K %llu, c %llu): %s", what, n, (int)p->code,
              (unsigned long long)p->param, (unsigned long long)p->W, (unsigned long long)p->K,
              (unsigned long long)c, rep.msg);
    cr_assert_eq(rep.status, RSV_OK, "%s: %s", what, rsv_status_name(rep.status));
}

/* Every (W, B, code) combination with a fresh random set: keys 0–300 bytes,
 * values 0–600 bytes. */
Test(kv03_diff_roundtrip, random_sets_all_policies_and_codes)
{
    rsv_rng g = {0x5EED03};
    uint8_t code[64];
    for (size_t wi = 0; wi < COUNT(k_W); wi++)
        for (size_t bi = 0; bi < COUNT(k_B); bi++)
            for (size_t ci = 0; ci < COUNT(k_codes); ci++) {
                rsv_kv03_policy p = k_B[bi];
                p.W = k_W[wi];
                p.K = k_K[(wi + bi + ci) % COUNT(k_K)];
                for (size_t j = 0; j < sizeof code; j++) code[j] = (uint8_t)rsv_rng_next(&g);
                size_t n = (size_t)rsv_rng_below(&g, 80);
                rsv_kv03d_set s = rsv_kv03d_gen(&g, n, 300, 600);
                check(s.r, s.n, &p, code, k_codes[ci], "random set");
                rsv_kv03d_set_free(&s);
            }
}

/* More records per file (several blocks for every W but 1000, W = 1000 over
 * a file of > 1000 records once) with the default code. */
Test(kv03_diff_roundtrip, larger_sets)
{
    rsv_rng g = {99};
    for (size_t wi = 0; wi < COUNT(k_W); wi++) {
        rsv_kv03_policy p = k_B[(wi * 3) % COUNT(k_B)];
        p.W = k_W[wi];
        p.K = 15;
        size_t n = wi == COUNT(k_W) - 1 ? 1300 : 150;
        rsv_kv03d_set s = rsv_kv03d_gen(&g, n, wi == COUNT(k_W) - 1 ? 12 : 40, 30);
        check(s.r, s.n, &p, NULL, 0, "larger set");
        rsv_kv03d_set_free(&s);
    }
}

/* Hand-picked keys: the empty key, 0x00 bytes, prefixes of each other, keys
 * splitting inside a byte ("a" 0x61 / "b" 0x62 share 6 bits, 0x00 / 0x80
 * none, 0x7f / 0x80 none, 0xfe / 0xff seven), one 300-byte key; values of
 * every interesting length (EG0 length-code boundaries 0, 1, 2, 3, 6, 7, 14,
 * 15, 127, 128, 255, 256, 600) and tombstones. */
Test(kv03_diff_roundtrip, edge_keys_and_values)
{
    static uint8_t longkey[300];
    static uint8_t longval[600];
    for (size_t i = 0; i < sizeof longkey; i++) longkey[i] = (uint8_t)(i % 3 == 0 ? 'a' : i);
    for (size_t i = 0; i < sizeof longval; i++) longval[i] = (uint8_t)(i * 7);
    /* sorted; NULL stands for the 300-byte key "a\x01\x02a\x04\x05a..." */
    static const struct {
        const char *k;
        size_t len;
    } keys[] = {
        {"", 0},     {"\x00", 1}, {"\x00\x00", 2}, {"\x00\x00\x00", 3}, {"\x00\x01", 2}, {"\x00\x80", 2},
        {"a", 1},    {"a\x00", 2}, {NULL, 300},   {"ab", 2},          {"abc", 3},      {"abd", 3},
        {"b", 1},    {"ba", 2},    {"\x7f", 1},    {"\x80", 1},        {"\xfe", 1},     {"\xff", 1},
        {"\xff\xff", 2},
    };
    static const size_t vlen[] = {0, 1, 2, 3, 6, 7, 14, 15, 127, 128, 255, 256, 600};
    size_t n = COUNT(keys);
    rsv_record r[COUNT(keys)] = {0};
    for (size_t rot = 0; rot < 16; rot++) {
        for (size_t i = 0; i < n; i++) {
            r[i].key = keys[i].k ? (const uint8_t *)keys[i].k : longkey;
            r[i].key_len = keys[i].len;
            size_t sel = (i + rot) % (COUNT(vlen) + 1);
            r[i].value = sel == COUNT(vlen) ? rsv_value_tombstone() : rsv_value_present(longval, vlen[sel]);
        }
        rsv_kv03_policy p = k_B[rot % COUNT(k_B)];
        p.W = k_W[rot % COUNT(k_W)];
        p.K = 15;
        check(r, n, &p, NULL, 0, "edge keys");
        uint8_t code[64];
        memset(code, rot & 1 ? 0xff : 0x00, sizeof code);
        check(r, n, &p, code, k_codes[rot % COUNT(k_codes)], "edge keys, coded");
        /* a prefix of the list, and the list without its first record */
        check(r, 1 + rot % n, &p, NULL, 0, "edge keys prefix");
        check(r + 1, n - 1, &p, NULL, 0, "edge keys tail");
    }
}

/* Single-record and empty files; all-tombstone and all-equal-width files
 * (common width present) under every W. */
Test(kv03_diff_roundtrip, tiny_and_uniform_width)
{
    rsv_record r[40] = {0};
    uint8_t keys[40][2];
    for (size_t wi = 0; wi < COUNT(k_W); wi++)
        for (size_t bi = 0; bi < COUNT(k_B); bi++) {
            rsv_kv03_policy p = k_B[bi];
            p.W = k_W[wi];
            p.K = 3;
            check(r, 0, &p, NULL, 0, "empty");
            for (size_t i = 0; i < 40; i++) {
                keys[i][0] = (uint8_t)(i / 8);
                keys[i][1] = (uint8_t)(i * 32);
                r[i].key = keys[i];
                r[i].key_len = 2; /* 00 00, 00 20, ..., 00 e0, 01 00, ...: increasing */
                r[i].value = rsv_value_tombstone();
            }
            check(r, 1, &p, NULL, 0, "one tombstone");
            check(r, 40, &p, NULL, 0, "all tombstones");
            for (size_t i = 0; i < 40; i++) r[i].value = rsv_value_present("xy", 2);
            check(r, 40, &p, NULL, 0, "equal widths");
            for (size_t i = 0; i < 40; i++) r[i].value = rsv_value_present(NULL, 0);
            check(r, 40, &p, (const uint8_t *)"\xA5", 3, "all present-empty");
        }
}

/* Inputs both encoders reject: unsorted and duplicate keys (same status), a
 * selector code over 512 bits, invalid policies; and opening a valid file
 * with a different expected policy (POLICY_MISMATCH on both sides). */
Test(kv03_diff_roundtrip, rejected_inputs_and_expected_policy)
{
    rsv_record r[3] = {
        {(const uint8_t *)"b", 1, {RSV_VALUE_PRESENT, (const uint8_t *)"v", 1}},
        {(const uint8_t *)"a", 1, {RSV_VALUE_TOMBSTONE, NULL, 0}},
        {(const uint8_t *)"a", 1, {RSV_VALUE_TOMBSTONE, NULL, 0}},
    };
    rsv_kv03_policy p = {RSV_BACKSPACE_EG, 0, 15, 15};
    rsv_kv03d_report rep;
    rsv_kv03d_report_init(&rep);
    cr_assert(rsv_kv03d_roundtrip(r, 2, &p, NULL, 0, &rep), "%s", rep.msg);
    cr_assert_eq(rep.status, RSV_ERR_UNSORTED);
    rsv_kv03d_report_init(&rep);
    cr_assert(rsv_kv03d_roundtrip(r + 1, 2, &p, NULL, 0, &rep), "%s", rep.msg);
    cr_assert_eq(rep.status, RSV_ERR_UNSORTED);
    uint8_t code[65] = {0};
    rsv_kv03d_report_init(&rep);
    cr_assert(rsv_kv03d_roundtrip(r + 2, 1, &p, code, 513, &rep), "%s", rep.msg);
    cr_assert_eq(rep.status, RSV_ERR_TOO_LARGE);
    static const rsv_kv03_policy bad[] = {
        {RSV_BACKSPACE_EG, 64, 15, 15}, {RSV_BACKSPACE_GOLOMB, 0, 15, 15}, {RSV_BACKSPACE_EG, 0, 0, 15},
        {RSV_BACKSPACE_EG, 0, 15, 4},   {RSV_BACKSPACE_EG, 0, 15, 1},     {RSV_BACKSPACE_EG, 0, UINT64_C(1) << 32, 15},
    };
    static const rsv_status want[] = {RSV_ERR_BAD_BACKSPACE, RSV_ERR_BAD_BACKSPACE, RSV_ERR_BAD_POLICY,
                                      RSV_ERR_BAD_POLICY,    RSV_ERR_BAD_POLICY,    RSV_ERR_BAD_POLICY};
    for (size_t i = 0; i < COUNT(bad); i++) {
        rsv_kv03d_report_init(&rep);
        cr_assert(rsv_kv03d_roundtrip(r + 2, 1, &bad[i], NULL, 0, &rep), "policy %zu: %s", i, rep.msg);
        cr_assert_eq(rep.status, want[i], "policy %zu: %s", i, rsv_status_name(rep.status));
    }
    /* valid file, other expected policy: each field in turn */
    uint8_t *bytes;
    size_t nb;
    cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, r + 2, 1, &bytes, &nb), RSV_OK);
    static const rsv_kv03_policy other[] = {
        {RSV_BACKSPACE_GOLOMB, 0 + 1, 15, 15}, {RSV_BACKSPACE_EG, 1, 15, 15},
        {RSV_BACKSPACE_EG, 0, 16, 15},         {RSV_BACKSPACE_EG, 0, 15, 7},
    };
    for (size_t i = 0; i < COUNT(other); i++) {
        rsv_kv03d_report_init(&rep);
        cr_assert(rsv_kv03d_file(bytes, nb, &other[i], NULL, 0, &rep), "expected %zu: %s", i, rep.msg);
        cr_assert_eq(rep.status, RSV_ERR_POLICY_MISMATCH);
    }
    rsv_kv03d_report_init(&rep);
    cr_assert(rsv_kv03d_file(bytes, nb, &p, r + 2, 1, &rep), "%s", rep.msg);
    free(bytes);
}
