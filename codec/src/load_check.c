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

static _Thread_local struct {
    const uint8_t *lo, *hi;
} windows[MAX_WINDOWS];
static _Thread_local unsigned depth;
static _Thread_local unsigned long long checked;

static void die(const char *why, const void *first, size_t n, const void *lo, const void *hi, const char *file,
                int line)
{
    uintptr_t f = (uintptr_t)first;
    fprintf(stderr,
            "rsv load check: %s: load of %zu byte(s) [%#" PRIxPTR ", %#" PRIxPTR "] at %s:%d; allowed [%#" PRIxPTR
            ", %#" PRIxPTR ") (first byte %+" PRIdPTR ", last byte %+" PRIdPTR " from the allowed start)\n",
            why, n, f, f + n - 1, file, line, (uintptr_t)lo, (uintptr_t)hi, (intptr_t)(f - (uintptr_t)lo),
            (intptr_t)(f + n - 1 - (uintptr_t)lo));
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
    if (depth && !inside(f, n, windows[depth - 1].lo, windows[depth - 1].hi))
        die("outside the declared window", first, n, windows[depth - 1].lo, windows[depth - 1].hi, file, line);
}

void rsv__load_check_push(const void *lo, const void *hi)
{
    if (depth == MAX_WINDOWS || (uintptr_t)hi < (uintptr_t)lo) {
        fprintf(stderr, "rsv load check: bad window push (depth %u)\n", depth);
        abort();
    }
    windows[depth].lo = lo;
    windows[depth].hi = hi;
    depth++;
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
