/* rsv_kv03check: the KV03 codec-vs-oracle differential checks
 * (tests/support/kv03_diff.h) without Criterion, for MSan and valgrind.
 *
 *   rsv_kv03check [--quick] [--seed S]
 *
 * Suites (one case = one rsv_kv03d_* comparison, kv03_diff.h says what each
 * compares):
 *   roundtrip  200 cases: W ∈ {1, 2, 15, 16, 1000} × 8 backspace codes × 5
 *              selector code lengths {0, 1, 7, 64, 512}, random records:
 *              codec and oracle encoders byte-identical, both decoders give
 *              the records back, record streams too (rsv_kv03d_roundtrip);
 *   merge      2 cases per round (without and with drop-tombstones), 200
 *              rounds (20 with --quick): 2–4 oracle-encoded random splits,
 *              codec merge == oracle merge == oracle encoding of a naive
 *              newest-wins merge (rsv_kv03d_merge);
 *   corrupt    6 oracle-encoded files (2 with --quick): every single-bit flip
 *              as is (must be rejected, same status on both sides) and
 *              resealed (same status/record/bit or same records), every
 *              truncation (rejected, same status); one case per file for the
 *              oracle encoding it (a failure counts as a failed case).
 * Prints one line per suite and "N passed, N failed" (cases); exits 1 on any
 * disagreement or when a suite ran zero cases, 2 on a usage error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kv03_diff.h"
#include "kv03_diff_gen.h"
#include "testutil.h"

static unsigned long g_pass, g_fail;

static void count(int ok, const char *suite, const char *msg)
{
    if (ok) {
        g_pass++;
        return;
    }
    if (g_fail < 10) fprintf(stderr, "FAIL %s: %s\n", suite, msg);
    g_fail++;
}

static uint8_t *oracle_encode(const rsv_record *r, size_t n, const rsv_kv03_policy *p, size_t *len)
{
    rsv_oracle_record *o = calloc(n ? n : 1, sizeof *o);
    if (!o) return NULL;
    rsv_kv03d_to_oracle(r, n, o);
    rsv_oracle_kv03_policy op = rsv_kv03d_policy(p);
    uint8_t *out = NULL;
    size_t bad;
    rsv_status st = rsv_oracle_kv03_encode(o, n, &op, (const uint8_t *)"\0", 1, &out, len, &bad);
    free(o);
    return st == RSV_OK ? out : NULL;
}

static const uint64_t k_W[] = {1, 2, 15, 16, 1000};
static const rsv_kv03_policy k_B[] = {
    {RSV_BACKSPACE_EG, 0, 0, 15},     {RSV_BACKSPACE_EG, 1, 0, 15},     {RSV_BACKSPACE_EG, 5, 0, 15},
    {RSV_BACKSPACE_EG, 63, 0, 15},    {RSV_BACKSPACE_GOLOMB, 1, 0, 15}, {RSV_BACKSPACE_GOLOMB, 3, 0, 15},
    {RSV_BACKSPACE_GOLOMB, 7, 0, 15}, {RSV_BACKSPACE_GOLOMB, UINT64_MAX, 0, 15},
};
static const uint64_t k_codes[] = {0, 1, 7, 64, 512};

static void suite_roundtrip(rsv_rng *g, int quick)
{
    uint8_t code[64];
    for (size_t wi = 0; wi < 5; wi++)
        for (size_t bi = 0; bi < 8; bi++)
            for (size_t ci = 0; ci < 5; ci++) {
                rsv_kv03_policy p = k_B[bi];
                p.W = k_W[wi];
                for (size_t j = 0; j < sizeof code; j++) code[j] = (uint8_t)rsv_rng_next(g);
                rsv_kv03d_set s = rsv_kv03d_gen(g, (size_t)rsv_rng_below(g, quick ? 12 : 60), quick ? 40 : 300,
                                                quick ? 40 : 600);
                rsv_kv03d_report rep;
                rsv_kv03d_report_init(&rep);
                count(rsv_kv03d_roundtrip(s.r, s.n, &p, code, k_codes[ci], &rep) && rep.status == RSV_OK, "roundtrip",
                      rep.msg);
                rsv_kv03d_set_free(&s);
            }
}

static void suite_merge(rsv_rng *g, int quick)
{
    for (int round = 0; round < (quick ? 20 : 200); round++) {
        rsv_kv03_policy p = k_B[round % 8];
        p.W = k_W[round % 5];
        rsv_kv03d_set s = rsv_kv03d_gen(g, (size_t)rsv_rng_below(g, 50), 20, 20);
        size_t k = 2 + (size_t)rsv_rng_below(g, 3), counts[4];
        rsv_record *lists[4];
        uint8_t *files[4];
        size_t sizes[4];
        for (size_t i = 0; i < k; i++) {
            lists[i] = calloc(s.n + 1, sizeof *lists[i]);
            counts[i] = 0;
            for (size_t j = 0; j < s.n; j++)
                if (rsv_rng_below(g, 2)) {
                    lists[i][counts[i]] = s.r[j];
                    if (rsv_rng_below(g, 4) == 0) lists[i][counts[i]].value = rsv_value_tombstone();
                    counts[i]++;
                }
            files[i] = oracle_encode(lists[i], counts[i], &p, &sizes[i]);
        }
        rsv_record *merged = calloc(s.n * k + 1, sizeof *merged);
        for (int drop = 0; drop < 2; drop++) {
            size_t m = rsv_kv03d_naive_merge((const rsv_record *const *)lists, counts, k, drop, merged);
            size_t wl;
            uint8_t *want = oracle_encode(merged, m, &p, &wl);
            rsv_kv03d_report rep;
            rsv_kv03d_report_init(&rep);
            rsv_status st;
            count(want && rsv_kv03d_merge((const uint8_t *const *)files, sizes, k, drop, want, wl, &st, &rep) &&
                      st == RSV_OK,
                  "merge", rep.msg);
            free(want);
        }
        free(merged);
        for (size_t i = 0; i < k; i++) {
            free(files[i]);
            free(lists[i]);
        }
        rsv_kv03d_set_free(&s);
    }
}

static void suite_corrupt(rsv_rng *g, int quick)
{
    for (int round = 0; round < (quick ? 2 : 6); round++) {
        rsv_kv03_policy p = k_B[(round * 3) % 8];
        p.W = k_W[round % 5];
        rsv_kv03d_set s = rsv_kv03d_gen(g, 20, 6, 5);
        size_t n;
        uint8_t *f = oracle_encode(s.r, s.n, &p, &n);
        /* an oracle encoder failure is a failed case, not zero silent cases */
        count(f != NULL, "corrupt", "the oracle encoder rejected the base file's records");
        uint8_t *x = f ? malloc(n) : NULL;
        for (size_t bit = 0; f && x && bit < 8 * n; bit++) {
            memcpy(x, f, n);
            x[bit / 8] ^= (uint8_t)(0x80u >> (bit % 8));
            for (int reseal = 0; reseal < 2; reseal++) {
                if (reseal) rsv_kv03d_reseal(x, n);
                rsv_kv03d_report rep;
                rsv_kv03d_report_init(&rep);
                count(rsv_kv03d_file(x, n, NULL, NULL, 0, &rep) && (reseal || rep.status != RSV_OK), "corrupt", rep.msg);
            }
        }
        for (size_t len = 0; f && len < n; len++) {
            uint8_t *t = malloc(len ? len : 1);
            memcpy(t, f, len);
            rsv_kv03d_report rep;
            rsv_kv03d_report_init(&rep);
            count(rsv_kv03d_file(len ? t : NULL, len, NULL, NULL, 0, &rep) && rep.status != RSV_OK, "truncate", rep.msg);
            free(t);
        }
        free(x);
        free(f);
        rsv_kv03d_set_free(&s);
    }
}

int main(int argc, char **argv)
{
    int quick = 0;
    uint64_t seed = 0x6B763033;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            quick = 1;
        } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            char *end;
            seed = strtoull(argv[++i], &end, 0);
            if (*end) return 2;
        } else {
            fprintf(stderr, "usage: %s [--quick] [--seed S]\n", argv[0]);
            return 2;
        }
    }
    rsv_rng g = {seed};
    static const struct {
        const char *name;
        void (*run)(rsv_rng *, int);
    } suites[] = {{"roundtrip", suite_roundtrip}, {"merge", suite_merge}, {"corrupt", suite_corrupt}};
    for (size_t i = 0; i < sizeof suites / sizeof suites[0]; i++) {
        unsigned long f0 = g_fail, p0 = g_pass;
        suites[i].run(&g, quick);
        printf("%-10s %lu passed, %lu failed\n", suites[i].name, g_pass - p0, g_fail - f0);
        /* a suite that ran no case is broken, not passing */
        if (g_pass == p0 && g_fail == f0) {
            fprintf(stderr, "FAIL %s: the suite ran zero cases\n", suites[i].name);
            g_fail++;
        }
    }
    printf("%lu passed, %lu failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
