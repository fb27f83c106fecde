/* rsv_diffcheck: every codec-vs-oracle differential suite (tests/support/diff*.c)
 * without Criterion, so it runs under MSan and valgrind.
 *
 *   rsv_diffcheck [--max-len N] [--seed S] [--trials T] [--quick] [--suite NAME]
 *
 * Defaults come from RSV_TEST_SEED, RSV_TEST_TRIALS and RSV_EXHAUSTIVE_MAX_LEN
 * (see diff.h); --quick shrinks the heavy suites for valgrind (max-len 10,
 * 200 trials, fewer placements) unless --max-len / --trials say otherwise.
 * Prints one line per suite and finally "N passed, N failed" (suites); exits
 * 1 on any mismatch or when a suite ran zero cases or zero operations, 2 on a
 * usage error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diff.h"

static int parse_u64(const char *s, uint64_t *out)
{
    char *end;
    if (s == NULL || *s == '\0') return 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (*end != '\0') return 0;
    *out = (uint64_t)v;
    return 1;
}

static int usage(const char *argv0)
{
    fprintf(stderr,
            "usage: %s [--max-len N] [--seed S] [--trials T] [--quick] [--suite NAME]\n"
            "suites:",
            argv0);
    for (size_t i = 0; i < rsv_diff_nsuites; i++) fprintf(stderr, " %s", rsv_diff_suites[i].name);
    fprintf(stderr, "\n");
    return 2;
}

int main(int argc, char **argv)
{
    rsv_diff_opts o;
    rsv_diff_opts_from_env(&o);
    int quick = 0, have_len = 0, have_trials = 0;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        uint64_t v;
        if (strcmp(argv[i], "--quick") == 0) {
            quick = 1;
        } else if (strcmp(argv[i], "--max-len") == 0 && i + 1 < argc && parse_u64(argv[i + 1], &v)) {
            if (v > RSV_DIFF_LIMIT_MAX_LEN) {
                fprintf(stderr, "--max-len is at most %d\n", RSV_DIFF_LIMIT_MAX_LEN);
                return 2;
            }
            o.max_len = (unsigned)v;
            have_len = 1;
            i++;
        } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc && parse_u64(argv[i + 1], &v)) {
            o.seed = v;
            i++;
        } else if (strcmp(argv[i], "--trials") == 0 && i + 1 < argc && parse_u64(argv[i + 1], &v)) {
            o.trials = v;
            have_trials = 1;
            i++;
        } else if (strcmp(argv[i], "--suite") == 0 && i + 1 < argc) {
            only = argv[++i];
        } else {
            return usage(argv[0]);
        }
    }
    if (quick) {
        o.quick = 1;
        if (!have_len) o.max_len = 10;
        if (!have_trials) o.trials = 200;
    }
    printf("rsv_diffcheck: seed=%llu (0x%llx) trials=%llu max-len=%u%s\n",
           (unsigned long long)o.seed, (unsigned long long)o.seed, (unsigned long long)o.trials,
           o.max_len, o.quick ? " quick" : "");
    fflush(stdout);

    static rsv_diff d; /* 8 KiB of messages: keep it off the stack */
    unsigned passed = 0, failed = 0, matched = 0;
    for (size_t i = 0; i < rsv_diff_nsuites; i++) {
        if (only && strcmp(only, rsv_diff_suites[i].name) != 0) continue;
        matched++;
        rsv_diff_init(&d);
        clock_t c0 = clock();
        rsv_diff_suites[i].run(&d, &o);
        double secs = (double)(clock() - c0) / CLOCKS_PER_SEC;
        /* a suite that ran no case or compared nothing is broken, not passing */
        int ok = d.mismatches == 0 && d.cases > 0 && d.ops > 0;
        if (d.cases == 0 || d.ops == 0)
            printf("suite %s ran %llu cases and %llu operations: a suite that compares nothing fails\n",
                   rsv_diff_suites[i].name, (unsigned long long)d.cases, (unsigned long long)d.ops);
        printf("suite %-10s: %10llu cases %11llu ops %6llu mismatches %7.1f s  %s\n",
               rsv_diff_suites[i].name, (unsigned long long)d.cases, (unsigned long long)d.ops,
               (unsigned long long)d.mismatches, secs, ok ? "PASS" : "FAIL");
        if (!ok) {
            rsv_diff_print_msgs(&d, stdout);
            if (strcmp(rsv_diff_suites[i].name, "random") == 0)
                printf("random suite seed: %llu (0x%llx)\n", (unsigned long long)o.seed,
                       (unsigned long long)o.seed);
            failed++;
        } else {
            passed++;
        }
        fflush(stdout);
    }
    if (only && matched == 0) return usage(argv[0]);
    printf("%u passed, %u failed\n", passed, failed);
    return failed ? 1 : 0;
}
