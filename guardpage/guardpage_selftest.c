/* Proof that the harness catches what it claims to: each case runs in a
 * forked child that deliberately touches guarded memory (or, as a control,
 * only its readable bytes). The parent captures the child's stderr and
 * requires a non-zero exit with "guardpage fault in case: <that case>" for
 * every faulting case, and a clean exit with no such message for the
 * controls. Without this, a broken guard (say, a region that was not really
 * PROT_NONE) would let every other guardpage test pass silently. */
#define _DEFAULT_SOURCE 1 /* fork, pipe, alarm under -std=c17 */

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gp_pair.h"
#include "guardpage.h"
#include "reservoir/oracle.h"
#include "reservoir/reader.h"

#define BUF_LEN 5

enum action {
    TAIL_GUARD_READ,     /* ptr[len] of a tail buffer */
    HEAD_GUARD_READ,     /* ptr[-1] of a head buffer */
    NONE_READ,           /* ptr[0] of a PROT_NONE buffer */
    TAIL_ZERO_LEN_READ,  /* ptr[0] of a zero-length tail buffer */
    READONLY_WRITE,      /* store into a buffer made read-only */
    FAST_READER_OVERRUN, /* the codec reading a view one bit longer than its bytes */
    ORACLE_OVERRUN,      /* the oracle doing the same */
    RAISE_SIGBUS,        /* the SIGBUS path of the handler */
    CONTROL_READABLE,    /* reads every readable byte: must NOT fault */
    CONTROL_EXACT_VIEW,  /* the codec reading an exactly flush view: must NOT fault */
    N_ACTIONS
};

static const char *const k_names[N_ACTIONS] = {
    "tail guard byte read", "head guard byte read", "PROT_NONE read", "zero-length tail read",
    "write to read-only",   "fast reader overrun",  "oracle overrun", "raised SIGBUS",
    "control: readable bytes", "control: exact flush view"};

static int expect_fault(enum action a) { return a != CONTROL_READABLE && a != CONTROL_EXACT_VIEW; }

/* Runs in the child. Returns only if nothing faulted. */
static void child_body(enum action a)
{
    rsv_guard_buf g;
    volatile uint8_t sink = 0;
    int rc;
    switch (a) {
    case HEAD_GUARD_READ: rc = rsv_guard_head(&g, BUF_LEN); break;
    case NONE_READ: rc = rsv_guard_none(&g, BUF_LEN); break;
    case TAIL_ZERO_LEN_READ: rc = rsv_guard_tail(&g, 0); break;
    default: rc = rsv_guard_tail(&g, BUF_LEN); break;
    }
    if (rc != 0) _exit(3);
    if (a != NONE_READ)
        for (size_t i = 0; i < g.len; i++) g.ptr[i] = (uint8_t)(0xA5 ^ i);
    volatile uint8_t *vp = g.ptr;
    rsv_view over = rsv_view_make(g.ptr, 0, 8 * (uint64_t)g.len + 1);
    rsv_reader r;
    uint64_t val;
    switch (a) {
    case TAIL_GUARD_READ: sink = vp[g.len]; break;
    case HEAD_GUARD_READ: sink = vp[-1]; break;
    case NONE_READ: sink = vp[0]; break;
    case TAIL_ZERO_LEN_READ: sink = vp[0]; break;
    case READONLY_WRITE:
        if (rsv_guard_readonly(&g) != 0) _exit(4);
        vp[0] = 1;
        break;
    case FAST_READER_OVERRUN:
        rsv_reader_init(&r, over);
        while (rsv_read(&r, 1, &val) == RSV_OK) sink = (uint8_t)(sink + val);
        break;
    case ORACLE_OVERRUN:
        for (uint64_t p = 0; p < over.len; p++) sink = (uint8_t)(sink + rsv_oracle_read(over, p, 1).value);
        break;
    case RAISE_SIGBUS: raise(SIGBUS); break;
    case CONTROL_READABLE:
        for (size_t i = 0; i < g.len; i++) sink = (uint8_t)(sink + vp[i]);
        break;
    case CONTROL_EXACT_VIEW:
        rsv_guard_readonly(&g);
        rsv_reader_init(&r, rsv_view_make(g.ptr, 0, 8 * (uint64_t)g.len));
        while (rsv_read(&r, 1, &val) == RSV_OK) sink = (uint8_t)(sink + val);
        rsv_reader_init(&r, rsv_view_make(g.ptr, 3, 8 * (uint64_t)g.len - 3));
        while (rsv_read_eg(&r, 0, &val) == RSV_OK) sink = (uint8_t)(sink + val);
        break;
    default: break;
    }
    (void)sink;
    rsv_guard_release(&g);
}

/* Fork, run the action with stderr into a pipe, collect output and status. */
static int run_child(enum action a, char *out, size_t cap, int *status)
{
    int fds[2];
    if (pipe(fds) != 0) return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], 2);
        close(fds[1]);
        alarm(20); /* a hang becomes a death by SIGALRM, never a stuck test */
        rsv_guard_install_fault_handler();
        rsv_guard_set_case("selftest: %s", k_names[a]);
        child_body(a);
        _exit(0);
    }
    close(fds[1]);
    size_t n = 0;
    for (;;) {
        ssize_t k = read(fds[0], out + n, cap - 1 - n);
        if (k > 0) {
            n += (size_t)k;
            if (n == cap - 1) break;
        } else if (k == 0 || errno != EINTR) {
            break;
        }
    }
    out[n] = '\0';
    close(fds[0]);
    while (waitpid(pid, status, 0) < 0)
        if (errno != EINTR) return -1;
    return 0;
}

int main(void)
{
    rsv_guard_install_fault_handler(); /* after the sanitizer runtime's init */
    static char out[8192];
    for (int a = 0; a < N_ACTIONS; a++) {
        int status = 0;
        rsv_guard_set_case("selftest parent: %s", k_names[a]);
        if (run_child((enum action)a, out, sizeof out, &status) != 0) {
            gp_check(0, "could not run the child for '%s': %s", k_names[a], strerror(errno));
            continue;
        }
        char want[256];
        snprintf(want, sizeof want, "guardpage fault in case: selftest: %s\n", k_names[a]);
        int exited = WIFEXITED(status);
        int code = exited ? WEXITSTATUS(status) : -1;
        if (expect_fault((enum action)a)) {
            gp_check(exited && code == 1 && strstr(out, want) != NULL,
                     "'%s': expected exit 1 with \"%.*s\"; got %s %d, stderr:\n%s", k_names[a],
                     (int)strlen(want) - 1, want, exited ? "exit" : "signal",
                     exited ? code : (WIFSIGNALED(status) ? WTERMSIG(status) : -1), out);
        } else {
            gp_check(exited && code == 0 && strstr(out, "guardpage fault") == NULL,
                     "control '%s' did not exit cleanly: %s %d, stderr:\n%s", k_names[a],
                     exited ? "exit" : "signal",
                     exited ? code : (WIFSIGNALED(status) ? WTERMSIG(status) : -1), out);
        }
    }
    rsv_guard_set_case("selftest: finished");
    return gp_report();
}
