/* The load-bounds oracle behind RSV_LOAD_CHECK (test builds only; see
 * reservoir/mem_impl.h and docs/design.md). Every rsv__load_* call lands
 * here first in those builds. State is per thread: the windows the harness
 * declared and a count of checked loads. Normal builds compile this file to
 * nothing. */
#include "reservoir/reader.h"

#ifdef RSV_SELFTEST_PLANT
/* Which planted defect is live (load-check self-test libraries only). */
int rsv__selftest_plant;
volatile uint8_t rsv__selftest_sink;
uint64_t rsv__selftest_stale;
#endif

#ifdef RSV_LOAD_CHECK
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_WINDOWS 16
#define MAX_RANGES 4

/* A window is up to MAX_RANGES byte ranges (a decode may read two inputs,
 * e.g. a record stream and its selector code). */
static _Thread_local struct {
    const uint8_t *lo[MAX_RANGES], *hi[MAX_RANGES];
    unsigned n;
} windows[MAX_WINDOWS];
static _Thread_local unsigned depth;
static _Thread_local unsigned long long checked;

/* The message names the load, the allowed range and how far each end of the
 * load lies from the range's first and last byte (-1 = the byte before the
 * first, +1 = the byte after the last). */
static void die(const char *why, const void *first, size_t n, const void *lo, const void *hi, const char *file,
                int line)
{
    uintptr_t f = (uintptr_t)first, l = (uintptr_t)lo, h = (uintptr_t)hi;
    fprintf(stderr,
            "rsv load check: %s at %s:%d: load of %zu byte(s) [%#" PRIxPTR ", %#" PRIxPTR "], allowed [%#" PRIxPTR
            ", %#" PRIxPTR "] (%s); first byte %+" PRIdPTR " from the first allowed, last byte %+" PRIdPTR
            " from the last allowed\n",
            why, file, line, n, f, f + n - 1, l, h - 1, h == l ? "empty: no load allowed" : "inclusive",
            (intptr_t)(f - l), (intptr_t)(f + n - 1 - (h - 1)));
    fflush(stderr);
    abort();
}

static int inside(uintptr_t f, size_t n, const void *lo, const void *hi)
{
    uintptr_t l = (uintptr_t)lo, h = (uintptr_t)hi;
    return f >= l && f <= h && n <= h - f;
}

void rsv__load_check(const void *first, size_t n, const void *lo, const void *hi, const char *file, int line)
{
    uintptr_t f = (uintptr_t)first;
    checked++;
    if (lo && !inside(f, n, lo, hi)) die("outside the site's bound (A1/A4 at p)", first, n, lo, hi, file, line);
    if (depth) {
        unsigned k, w = depth - 1;
        for (k = 0; k < windows[w].n; k++)
            if (inside(f, n, windows[w].lo[k], windows[w].hi[k])) return;
        die("outside the declared window", first, n, windows[w].lo[0], windows[w].hi[0], file, line);
    }
}

void rsv__load_check_push(const void *lo, const void *hi)
{
    if (depth == MAX_WINDOWS || (uintptr_t)hi < (uintptr_t)lo) {
        fprintf(stderr, "rsv load check: bad window push (depth %u)\n", depth);
        abort();
    }
    windows[depth].lo[0] = lo;
    windows[depth].hi[0] = hi;
    windows[depth].n = 1;
    depth++;
}

void rsv__load_check_also(const void *lo, const void *hi)
{
    if (depth == 0 || windows[depth - 1].n == MAX_RANGES || (uintptr_t)hi < (uintptr_t)lo) {
        fprintf(stderr, "rsv load check: bad window range (depth %u)\n", depth);
        abort();
    }
    windows[depth - 1].lo[windows[depth - 1].n] = lo;
    windows[depth - 1].hi[windows[depth - 1].n] = hi;
    windows[depth - 1].n++;
}

void rsv__load_check_pop(void)
{
    if (depth == 0) {
        fprintf(stderr, "rsv load check: window pop without push\n");
        abort();
    }
    depth--;
}

unsigned long long rsv__load_check_count(void) { return checked; }

#else
typedef int rsv__load_check_off; /* ISO C: no empty translation unit */
#endif
