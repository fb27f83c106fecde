/* Guard-page buffers (mmap + mprotect) and the fault reporter.
 *
 * Every buffer is one anonymous mapping of whole pages; the guard is a page of
 * the same mapping turned PROT_NONE, so the guard is always adjacent to the
 * region and cannot be taken by another allocation. */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS, sigaltstack, SA_ONSTACK under -std=c17 */

#include "guardpage.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if !defined(MAP_ANONYMOUS) && defined(MAP_ANON)
#define MAP_ANONYMOUS MAP_ANON
#endif

enum { KIND_TAIL = 1, KIND_HEAD = 2, KIND_NONE = 3 };

size_t rsv_guard_page_size(void)
{
    static size_t page;
    if (page == 0) {
        long ps = sysconf(_SC_PAGESIZE);
        page = ps > 0 ? (size_t)ps : 4096;
    }
    return page;
}

/* Whole pages needed for len bytes; -1 (with errno) if that overflows. */
static int pages_for(size_t len, size_t *pages)
{
    size_t page = rsv_guard_page_size();
    if (len > SIZE_MAX - page) {
        errno = ENOMEM;
        return -1;
    }
    *pages = (len + page - 1) / page;
    return 0;
}

/* Map `pages` pages read+write and turn pages [guard, guard + nguard) PROT_NONE. */
static int map_with_guard(rsv_guard_buf *g, size_t pages, size_t guard, size_t nguard)
{
    size_t page = rsv_guard_page_size();
    memset(g, 0, sizeof *g);
    if (pages > SIZE_MAX / page) {
        errno = ENOMEM;
        return -1;
    }
    void *m = mmap(NULL, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return -1;
    if (nguard && mprotect((uint8_t *)m + guard * page, nguard * page, PROT_NONE) != 0) {
        int e = errno;
        munmap(m, pages * page);
        errno = e;
        return -1;
    }
    g->map = (uint8_t *)m;
    g->map_len = pages * page;
    return 0;
}

int rsv_guard_tail(rsv_guard_buf *g, size_t len)
{
    size_t dp;
    if (pages_for(len, &dp) != 0) return -1;
    if (map_with_guard(g, dp + 1, dp, 1) != 0) return -1;
    g->ptr = g->map + dp * rsv_guard_page_size() - len; /* ends flush with the guard */
    g->len = len;
    g->kind = KIND_TAIL;
    return 0;
}

int rsv_guard_head(rsv_guard_buf *g, size_t len)
{
    size_t dp;
    if (pages_for(len, &dp) != 0) return -1;
    if (dp == 0) dp = 1; /* keep ptr inside the mapping even for len = 0 */
    if (map_with_guard(g, dp + 1, 0, 1) != 0) return -1;
    g->ptr = g->map + rsv_guard_page_size(); /* starts flush after the guard */
    g->len = len;
    g->kind = KIND_HEAD;
    return 0;
}

int rsv_guard_none(rsv_guard_buf *g, size_t len)
{
    size_t dp;
    if (pages_for(len, &dp) != 0) return -1;
    if (dp == 0) dp = 1;
    if (map_with_guard(g, dp, 0, dp) != 0) return -1;
    g->ptr = g->map;
    g->len = len;
    g->kind = KIND_NONE;
    return 0;
}

/* Change the protection of the pages holding ptr[0..len). A PROT_NONE buffer
 * has no readable part, so there is nothing to change. */
static int protect_region(rsv_guard_buf *g, int prot)
{
    if (g->kind != KIND_TAIL && g->kind != KIND_HEAD) {
        if (g->kind == KIND_NONE) return 0;
        errno = EINVAL;
        return -1;
    }
    if (g->len == 0) return 0;
    size_t page = rsv_guard_page_size();
    uintptr_t lo = (uintptr_t)g->ptr / page * page;
    uintptr_t hi = ((uintptr_t)g->ptr + g->len + page - 1) / page * page;
    return mprotect((void *)lo, hi - lo, prot);
}

int rsv_guard_readonly(rsv_guard_buf *g) { return protect_region(g, PROT_READ); }
int rsv_guard_writable(rsv_guard_buf *g) { return protect_region(g, PROT_READ | PROT_WRITE); }

void rsv_guard_release(rsv_guard_buf *g)
{
    if (g->map) munmap(g->map, g->map_len);
    memset(g, 0, sizeof *g);
}

/* ---- fault reporting ------------------------------------------------------ */

static char g_case[512];

void rsv_guard_set_case(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_case, sizeof g_case, fmt, ap);
    va_end(ap);
}

const char *rsv_guard_case(void) { return g_case; }

/* Async-signal-safe output: only write(2), no stdio, no allocation. */
static void put_str(const char *s)
{
    size_t n = 0;
    while (s[n]) n++;
    while (n > 0) {
        ssize_t k = write(2, s, n);
        if (k <= 0) return;
        s += k;
        n -= (size_t)k;
    }
}

static void put_hex(uintptr_t x)
{
    char buf[2 + 2 * sizeof x + 1];
    size_t i = sizeof buf - 1;
    buf[i] = '\0';
    do {
        buf[--i] = "0123456789abcdef"[x & 15u];
        x >>= 4;
    } while (x && i > 2);
    buf[--i] = 'x';
    buf[--i] = '0';
    put_str(buf + i);
}

static void on_fault(int sig, siginfo_t *si, void *uctx)
{
    (void)uctx;
    put_str("guardpage fault in case: ");
    put_str(g_case);
    put_str("\nguardpage: ");
    put_str(sig == SIGBUS ? "SIGBUS" : "SIGSEGV");
    put_str(" at address ");
    put_hex(si ? (uintptr_t)si->si_addr : 0);
    put_str("\n");
    _exit(1);
}

/* The handler runs on an alternate stack so that even a fault caused by stack
 * exhaustion reports. If one is already set up (ASan installs its own) it is
 * kept: replacing it would make ASan later unmap memory it does not own. */
static void ensure_altstack(void)
{
    static _Alignas(16) uint8_t stack[64 * 1024];
    stack_t cur;
    if (sigaltstack(NULL, &cur) == 0 && !(cur.ss_flags & SS_DISABLE) && cur.ss_size >= 16 * 1024)
        return;
    stack_t ss;
    memset(&ss, 0, sizeof ss);
    ss.ss_sp = stack;
    ss.ss_size = sizeof stack;
    ss.ss_flags = 0;
    if (sigaltstack(&ss, NULL) != 0) put_str("guardpage: sigaltstack failed (continuing)\n");
}

void rsv_guard_install_fault_handler(void)
{
    ensure_altstack();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    /* SA_RESETHAND: a fault inside the handler itself gets the default action
     * (death by signal), which is still a failure, never a loop. */
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGSEGV, &sa, NULL) != 0 || sigaction(SIGBUS, &sa, NULL) != 0)
        put_str("guardpage: sigaction failed; faults will not name their case\n");
}
