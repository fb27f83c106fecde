/* The guard-page tests' tally and their hook into the comparison engine. */
#include "gp_pair.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "guardpage.h"

#define GP_MAX_PRINTED 40 /* the first few name the problem; the rest only count */

static uint64_t g_passed, g_failed, g_printed;

static void vprint_failure(const char *fmt, va_list ap)
{
    if (++g_printed > GP_MAX_PRINTED) return;
    fprintf(stderr, "FAIL [%s] ", rsv_guard_case());
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

static void on_mismatch(void *ctx, const char *msg)
{
    (void)ctx;
    if (++g_printed > GP_MAX_PRINTED) return;
    fprintf(stderr, "FAIL [%s] %s\n", rsv_guard_case(), msg);
}

static const rsv_diff_hooks g_hooks = {NULL, NULL, NULL, on_mismatch};

/* One accumulator for the whole process (the tests are single-threaded). */
static rsv_diff *engine(void)
{
    static rsv_diff d;
    static int ready;
    if (!ready) {
        rsv_diff_init(&d);
        d.hooks = &g_hooks;
        d.opaque = 1; /* views may lie in PROT_NONE pages */
        ready = 1;
    }
    return &d;
}

void gp_pair_init(gp_pair *x, rsv_view v)
{
    rsv_diff_begin(x, engine(), v, "guardpage", NULL, 0, 0, 0, 0);
}

void gp_pass(void) { g_passed++; }

void gp_check(int ok, const char *fmt, ...)
{
    if (ok) {
        g_passed++;
        return;
    }
    g_failed++;
    va_list ap;
    va_start(ap, fmt);
    vprint_failure(fmt, ap);
    va_end(ap);
}

uint64_t gp_failures(void) { return g_failed + engine()->mismatches; }

int gp_report(void)
{
    const rsv_diff *d = engine();
    uint64_t failed = g_failed + d->mismatches;
    uint64_t passed = g_passed + (d->ops > d->mismatches ? d->ops - d->mismatches : 0);
    printf("%" PRIu64 " passed, %" PRIu64 " failed (%" PRIu64 " of the checks are codec-vs-oracle "
           "comparisons over %" PRIu64 " cases)\n",
           passed, failed, d->ops, d->cases);
    fflush(stdout);
    return failed || passed == 0 ? 1 : 0;
}
