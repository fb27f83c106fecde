/* Counting malloc/calloc/realloc/free (glibc only: forwards to __libc_*).
 * Linked into the *_allocs executables only; the timing executables use the
 * plain allocator. Not thread-safe on purpose: the harness is single-threaded
 * and an atomic would only add cost to setup code. */
#include "alloc_count.h"

#include <stddef.h>

/* glibc's exported internal entry points; declared here because no header does. */
extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);

/* Our replacements of the C library's functions; prototypes come from the
 * declarations below so -Wmissing-prototypes stays quiet without <stdlib.h>
 * (whose attributes differ between libc versions). */
void *malloc(size_t n);
void *calloc(size_t n, size_t size);
void *realloc(void *p, size_t n);
void free(void *p);

static uint64_t g_allocs;
static uint64_t g_frees;

void *malloc(size_t n)
{
    g_allocs++;
    return __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
    g_allocs++;
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
    g_allocs++;
    return __libc_realloc(p, n);
}

void free(void *p)
{
    if (p) g_frees++;
    __libc_free(p);
}

uint64_t rsv_bench_alloc_events(void) { return g_allocs; }
uint64_t rsv_bench_free_events(void) { return g_frees; }
