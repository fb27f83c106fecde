/* Linked into every executable of the mutation runner's coverage tree only
 * (tests/mutation/engine.py, CoverageWorker; docs/mutation.md, "Test
 * selection by coverage"). Never part of a normal build.
 *
 * The coverage map holds what a test's processes write to their .gcda files
 * when they exit normally. Processes that end otherwise wrote nothing, so a
 * test could run a line and still not be selected for its mutants. Two ends
 * are caught here:
 *   - _exit (a forked child's usual end): linked with -Wl,--wrap=_exit, so
 *     the program's own calls flush first;
 *   - death by a signal whose default action ends the process (abort() from
 *     the load checker, a trap, a fault, SIGXFSZ, SIGTERM/SIGINT sent by a
 *     test): a handler installed at start-up flushes, restores the default
 *     action and raises the signal again, so the process still ends by that
 *     signal. A program that installs its own handler (the guard-page tests,
 *     rsv's cleanup handlers) replaces this one;
 *   - raise() of such a signal by the program itself (rsv re-raises after
 *     its cleanup): linked with -Wl,--wrap=raise, flushes first.
 * What remains (a write that fails, e.g. under a low RLIMIT_FSIZE; SIGKILL)
 * leaves libgcov's "profiling:" message or a failed test, and the runner
 * selects such a test for every mutant. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stddef.h>
#include <string.h>

extern void __gcov_dump(void);
extern void __real__exit(int status) __attribute__((noreturn));
void __wrap__exit(int status) __attribute__((noreturn));

void __wrap__exit(int status)
{
    __gcov_dump();
    __real__exit(status);
}

extern int __real_raise(int sig);
int __wrap_raise(int sig);

int __wrap_raise(int sig)
{
    __gcov_dump(); /* at worst a flush too many: counters are only summed */
    return __real_raise(sig);
}

static void flush_and_die(int sig)
{
    /* SA_RESETHAND has restored SIG_DFL: the raise takes effect when the
     * handler returns (a fault re-executes and dies the same way). */
    __gcov_dump();
    raise(sig);
}

__attribute__((constructor)) static void install(void)
{
    static const int sigs[] = {SIGABRT, SIGALRM, SIGBUS, SIGFPE, SIGHUP, SIGILL, SIGINT, SIGPIPE, SIGQUIT,
                               SIGSEGV, SIGSYS, SIGTERM, SIGTRAP, SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old, sa;
        if (sigaction(sigs[i], NULL, &old) || old.sa_handler != SIG_DFL) continue; /* ignored or handled: leave it */
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = flush_and_die;
        sa.sa_flags = SA_RESETHAND;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
}
