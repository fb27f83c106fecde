/* The harness's side of the load-bounds oracle (docs/design.md, "The
 * load-bounds oracle"). In RSV_LOAD_CHECK builds these declare, per thread,
 * the bytes the codec may load during the next call; every rsv__load_* in
 * the codec aborts with a precise message if it leaves them. In other builds
 * they compile to nothing.
 *
 * Exactly CODES.md §1.2, at byte granularity:
 *   rsv_lw_decode(v, p)   a decode at position p: the bytes holding a view
 *                         bit at a position >= p (A1 + A4); none when p = len
 *                         (A2, and A4's "nothing at all when p = len")
 *   rsv_lw_none()         construction, position, take, skip, seek: no load
 *                         at all (A3)
 *   rsv_lw_view(v)        a whole view (A1 only: non-reader decoders)
 *   rsv_lw_also_view(v)   adds a second input's bytes to the window
 * Each is closed by rsv_lw_end(). */
#ifndef RSV_TEST_LOAD_WINDOW_H
#define RSV_TEST_LOAD_WINDOW_H

#include <stddef.h>
#include <stdint.h>

#include "reservoir/mem_impl.h"
#include "reservoir/view.h"

#ifdef RSV_LOAD_CHECK
static inline void rsv_lw_decode(rsv_view v, uint64_t p)
{
    /* integer arithmetic: an empty view's data may be NULL */
    uintptr_t lo = (uintptr_t)v.data + (uintptr_t)((v.off + p) >> 3);
    if (p >= v.len) {
        rsv__load_check_push((const void *)lo, (const void *)lo);
        return;
    }
    rsv__load_check_push((const void *)lo, (const void *)((uintptr_t)v.data + (uintptr_t)((v.off + v.len - 1) >> 3) + 1));
}
static inline void rsv_lw_view(rsv_view v) { rsv_lw_decode(v, 0); }
/* Add the bytes of a second input (e.g. a selector code) to the window just
 * declared. */
static inline void rsv_lw_also_view(rsv_view v)
{
    if (v.len == 0) return;
    uintptr_t b = (uintptr_t)v.data;
    rsv__load_check_also((const void *)(b + (uintptr_t)(v.off >> 3)),
                         (const void *)(b + (uintptr_t)((v.off + v.len - 1) >> 3) + 1));
}
static inline void rsv_lw_bytes(const void *p, size_t n)
{
    rsv__load_check_push(p, (const void *)((uintptr_t)p + n)); /* p may be NULL when n = 0 */
}
static inline void rsv_lw_none(void)
{
    static const uint8_t nowhere;
    rsv__load_check_push(&nowhere, &nowhere);
}
static inline void rsv_lw_end(void) { rsv__load_check_pop(); }
#else
static inline void rsv_lw_decode(rsv_view v, uint64_t p) { (void)v, (void)p; }
static inline void rsv_lw_view(rsv_view v) { (void)v; }
static inline void rsv_lw_also_view(rsv_view v) { (void)v; }
static inline void rsv_lw_bytes(const void *p, size_t n) { (void)p, (void)n; }
static inline void rsv_lw_none(void) {}
static inline void rsv_lw_end(void) {}
#endif

#endif
