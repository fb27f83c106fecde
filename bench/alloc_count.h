/* Heap-allocation counter for the zero-allocation executables
 * (rsv_bench_{candidate,baseline}_allocs, built with RSV_BENCH_ALLOC_COUNT).
 * alloc_count.c replaces malloc/calloc/realloc/free for the whole process
 * (the executable's definitions interpose on glibc's) and forwards to glibc's
 * __libc_* entry points. */
#ifndef RSV_BENCH_ALLOC_COUNT_H
#define RSV_BENCH_ALLOC_COUNT_H

#include <stdint.h>

/* Calls of malloc, calloc and realloc so far (each is one allocation event;
 * free is counted separately). */
uint64_t rsv_bench_alloc_events(void);
uint64_t rsv_bench_free_events(void);

#endif
