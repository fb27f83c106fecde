/* The fuzz targets' shared guard-page arena (see guard_arena.h). */
#include "guard_arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guardpage.h"
#include "reservoir/mem_impl.h" /* the load-bounds oracle's windows (RSV_LOAD_CHECK) */

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RSV_FUZZ_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define RSV_FUZZ_ASAN 1
#endif

#ifdef RSV_FUZZ_ASAN
#include <sanitizer/asan_interface.h>
#endif

/* The region never gets released: it lives as long as the fuzzing process
 * (mmap'd memory is invisible to the leak checker). */
static rsv_guard_buf g_arena;

static void arena_init(void)
{
    if (g_arena.map) return;
    if (rsv_guard_tail(&g_arena, RSV_FUZZ_ARENA_MAX + RSV_FUZZ_ARENA_SLACK) != 0) {
        perror("rsv_guard_tail");
        abort();
    }
}

/* First byte of the guard page. */
static uint8_t *arena_end(void) { return g_arena.ptr + g_arena.len; }

#ifdef RSV_FUZZ_ASAN
/* The currently poisoned ranges, so that un-poisoning touches only their
 * shadow (the arena is 1 MiB; clearing all of it per operation would be slow). */
static const uint8_t *g_below_lo, *g_below_hi, *g_above_lo;

static void poison(const uint8_t *lo, const uint8_t *hi)
{
    if (hi > lo) ASAN_POISON_MEMORY_REGION(lo, (size_t)(hi - lo));
}

static void unpoison(const uint8_t *lo, const uint8_t *hi)
{
    if (hi > lo) ASAN_UNPOISON_MEMORY_REGION(lo, (size_t)(hi - lo));
}
#endif

#ifdef RSV_LOAD_CHECK
/* The poisoned-outside range is also the load-check window, exact to the
 * byte where ASan's poisoning is exact only to 8 bytes (guard_arena.h). */
static int g_window;
#endif

void rsv_fuzz_arena_unpoison(void)
{
#ifdef RSV_LOAD_CHECK
    if (g_window) rsv__load_check_pop();
    g_window = 0;
#endif
#ifdef RSV_FUZZ_ASAN
    unpoison(g_below_lo, g_below_hi);
    if (g_above_lo) unpoison(g_above_lo, arena_end());
    g_below_lo = g_below_hi = g_above_lo = NULL;
#endif
}

void rsv_fuzz_arena_poison_outside(const void *lo, const void *hi)
{
#ifdef RSV_LOAD_CHECK
    rsv_fuzz_arena_unpoison();
    rsv__load_check_push(lo, hi);
    g_window = 1;
#endif
#ifdef RSV_FUZZ_ASAN
    const uint8_t *a = (const uint8_t *)lo, *b = (const uint8_t *)hi;
    unpoison(g_below_lo, g_below_hi);
    if (g_above_lo) unpoison(g_above_lo, arena_end());
    g_below_lo = g_below_hi = g_above_lo = NULL;
    if (!g_arena.map || a < g_arena.ptr || b > arena_end() || a > b) return;
    /* A window of SLACK bytes below keeps the shadow updates cheap; targets
     * never place a view's data pointer further below the payload. */
    g_below_lo = (size_t)(a - g_arena.ptr) > RSV_FUZZ_ARENA_SLACK ? a - RSV_FUZZ_ARENA_SLACK : g_arena.ptr;
    g_below_hi = a;
    g_above_lo = b;
    poison(g_below_lo, g_below_hi);
    poison(g_above_lo, arena_end());
#else
    (void)lo;
    (void)hi;
#endif
}

uint8_t *rsv_fuzz_arena_place(const void *bytes, size_t n)
{
    arena_init();
    if (n > RSV_FUZZ_ARENA_MAX) {
        fprintf(stderr, "guard arena: payload of %zu bytes exceeds %zu\n", n, RSV_FUZZ_ARENA_MAX);
        abort();
    }
    rsv_fuzz_arena_unpoison();
    uint8_t *dst = arena_end() - n;
    if (n) memcpy(dst, bytes, n);
    return dst;
}
