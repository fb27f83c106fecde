/* Differential suites: options, buffers and the suite registry. */
#include <stdlib.h>

#include "diff.h"

static int env_u64(const char *name, uint64_t *out)
{
    const char *s = getenv(name);
    if (s == NULL || *s == '\0') return 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 0);
    if (*end != '\0') {
        fprintf(stderr, "diff: ignoring %s=%s (not a number)\n", name, s);
        return 0;
    }
    *out = (uint64_t)v;
    return 1;
}

void rsv_diff_opts_from_env(rsv_diff_opts *o)
{
    uint64_t v;
    o->seed = RSV_DIFF_DEFAULT_SEED;
    o->trials = RSV_DIFF_DEFAULT_TRIALS;
    o->max_len = RSV_DIFF_DEFAULT_MAX_LEN;
    o->quick = 0;
    if (env_u64("RSV_TEST_SEED", &v)) o->seed = v;
    if (env_u64("RSV_TEST_TRIALS", &v)) o->trials = v;
    if (env_u64("RSV_EXHAUSTIVE_MAX_LEN", &v))
        o->max_len = v > RSV_DIFF_LIMIT_MAX_LEN ? RSV_DIFF_LIMIT_MAX_LEN : (unsigned)v;
}

uint8_t *rsv_diff_alloc(size_t nbytes)
{
    uint8_t *p = (uint8_t *)malloc(nbytes ? nbytes : 1);
    if (p == NULL) {
        fprintf(stderr, "diff: out of memory (%zu bytes)\n", nbytes);
        abort();
    }
    return p;
}

size_t rsv_diff_nbytes(uint64_t off, uint64_t len) { return (size_t)((off + len + 7) / 8); }

void rsv_diff_fill_random(rsv_rng *g, uint8_t *buf, size_t n)
{
    for (size_t i = 0; i < n; i++) buf[i] = (uint8_t)rsv_rng_next(g);
}

rsv_view rsv_diff_build(rsv_rng *g, const char *spec, uint64_t off, uint64_t pre, uint8_t **buf)
{
    uint64_t n = rsv_count_bits(spec);
    if (n == UINT64_MAX) {
        fprintf(stderr, "diff: bad bit notation \"%s\"\n", spec);
        abort();
    }
    size_t nb = rsv_diff_nbytes(off, pre + n);
    uint8_t *b = rsv_diff_alloc(nb);
    rsv_diff_fill_random(g, b, nb);
    if (rsv_parse_bits(spec, b, nb, off + pre) != n) abort();
    *buf = b;
    return rsv_view_make(b, off, pre + n);
}

static void run_exhaustive_all(rsv_diff *d, const rsv_diff_opts *o)
{
    rsv_diff_suite_exhaustive(d, o, RSV_DIFF_EX_ALL);
}

const rsv_diff_suite_entry rsv_diff_suites[] = {
    {"fixed", rsv_diff_suite_fixed},
    {"span", rsv_diff_suite_span},
    {"vectors", rsv_diff_suite_vectors},
    {"codes", rsv_diff_suite_codes},
    {"malformed", rsv_diff_suite_malformed},
    {"invalid", rsv_diff_suite_invalid},
    {"random", rsv_diff_suite_random},
    {"batch", rsv_diff_suite_batch},
    {"exhaustive", run_exhaustive_all},
};
const size_t rsv_diff_nsuites = sizeof rsv_diff_suites / sizeof rsv_diff_suites[0];
