/* Guard-page buffers and fault reporting for the memory-access tests
 * (CODES.md §1.2, rules A1-A4).
 *
 * A guard buffer is an anonymous mapping of whole pages in which the bytes
 * around the caller's region are PROT_NONE, so a load of one byte too many
 * faults immediately instead of reading stale heap. The fault handler turns
 * that fault into a named test failure ("guardpage fault in case: ...") and a
 * non-zero exit, so an over-read can never hang a test or let it pass.
 *
 * POSIX only (mmap, mprotect, sigaction, sigaltstack). Single-threaded use. */
#ifndef RSV_GUARDPAGE_H
#define RSV_GUARDPAGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rsv_guard_buf {
    uint8_t *map;   /* the whole mapping (page aligned) */
    size_t map_len; /* its length in bytes (whole pages) */
    uint8_t *ptr;   /* the caller's region */
    size_t len;     /* its length in bytes */
    unsigned kind;  /* private: which constructor made it (0 = not mapped) */
} rsv_guard_buf;

/* ptr[0..len) readable+writable; ptr+len is the first byte of a PROT_NONE page
 * (len may be 0). 0 on success, -1 on failure (errno). */
int rsv_guard_tail(rsv_guard_buf *g, size_t len);
/* ptr[0..len) readable+writable; ptr[-1] is the last byte of a PROT_NONE page. */
int rsv_guard_head(rsv_guard_buf *g, size_t len);
/* ptr[0..len) lies entirely inside PROT_NONE memory (any access faults). */
int rsv_guard_none(rsv_guard_buf *g, size_t len);
/* Make the readable part read-only after filling it (0 / -1 with errno). */
int rsv_guard_readonly(rsv_guard_buf *g);
/* Make the readable part writable again (to refill it). 0 / -1 with errno. */
int rsv_guard_writable(rsv_guard_buf *g);
/* Unmap; *g becomes all zero. Safe on a zeroed or released buffer. */
void rsv_guard_release(rsv_guard_buf *g);

/* The system page size (cached). */
size_t rsv_guard_page_size(void);

/* Fault reporting: tests set a case description; if a SIGSEGV/SIGBUS happens,
 * the handler (installed by rsv_guard_install_fault_handler) writes
 * "guardpage fault in case: <desc>" to stderr with async-signal-safe write(2)
 * and _exit(1)s — so a fault fails the test with the case named, never hangs
 * or passes. A second line gives the signal and the faulting address.
 * Install it after the sanitizer runtime's own initialisation (e.g. at the
 * start of main) so that it replaces ASan's SEGV handler. */
void rsv_guard_install_fault_handler(void);
/* printf-style; formats into a static buffer (single-threaded tests).
 * Descriptions longer than the buffer (511 bytes) are truncated. */
void rsv_guard_set_case(const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* The current description ("" before the first rsv_guard_set_case). */
const char *rsv_guard_case(void);

#ifdef __cplusplus
}
#endif
#endif
