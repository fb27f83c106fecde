/* Private: RSV_ASSERT(cond), a debug-only check of a stated precondition
 * (a comment's "x != 0", "<= 63", "must"). Compiled out under NDEBUG, so
 * Release and RelWithDebInfo builds carry no trace of it and `cond` is not
 * evaluated: it must have no side effects. In other builds (Debug) a false
 * condition prints the file, line and condition and aborts.
 *
 * It is for the codec's own invariants only: bad input is never an
 * assertion, it is an RSV_ERR_* status (CODES.md §6). */
#ifndef RSV_DEBUG_ASSERT_H
#define RSV_DEBUG_ASSERT_H

#ifdef NDEBUG
#define RSV_ASSERT(cond) ((void)0)
#else
#include <stdio.h>
#include <stdlib.h>
#define RSV_ASSERT(cond)                                                                           \
    ((cond) ? (void)0                                                                              \
            : (fprintf(stderr, "%s:%d: RSV_ASSERT(%s) failed\n", __FILE__, __LINE__, #cond),     \
               abort()))
#endif

#endif
