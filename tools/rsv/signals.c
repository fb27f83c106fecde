/* rsv — temporary cleanup and mapped-input faults on signals (signals.h). */
#define _POSIX_C_SOURCE 200809L
#include "signals.h"

#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const int cleanup_sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGXFSZ};
#define NSIGS (sizeof cleanup_sigs / sizeof cleanup_sigs[0])

/* Written only with the signals blocked (or before any temporary exists);
 * read by the handlers. */
static char temp_name[PATH_MAX + 64];
static volatile sig_atomic_t temp_armed;

typedef struct mapped {
    uintptr_t lo, hi;
    char *msg; /* the complete error line */
    size_t len;
} mapped;
static mapped *maps;
static size_t nmaps, maps_cap;

static void put(const char *s, size_t n)
{
    while (n) {
        ssize_t k = write(2, s, n);
        if (k <= 0) return;
        s += k;
        n -= (size_t)k;
    }
}

static void unlink_temp(void)
{
    if (temp_armed) unlink(temp_name);
}

static void reraise(int sig)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, sig);
    raise(sig);
    sigprocmask(SIG_UNBLOCK, &one, NULL); /* delivered here: default action */
    _exit(128 + sig);                     /* not reached for fatal signals */
}

static void on_cleanup_signal(int sig)
{
    unlink_temp();
    reraise(sig);
}

static void on_sigbus(int sig, siginfo_t *si, void *ctx)
{
    (void)ctx;
    uintptr_t a = (uintptr_t)si->si_addr;
    for (size_t i = 0; i < nmaps; i++) {
        if (a >= maps[i].lo && a < maps[i].hi) {
            put(maps[i].msg, maps[i].len);
            unlink_temp();
            _exit(1);
        }
    }
    unlink_temp(); /* not one of our inputs: a genuine fault */
    reraise(sig);
}

void cli_signals_install(void)
{
    struct sigaction sa, old;
    for (size_t i = 0; i < NSIGS; i++) {
        if (sigaction(cleanup_sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_cleanup_signal;
        sigfillset(&sa.sa_mask); /* no other handler interleaves */
        sigaction(cleanup_sigs[i], &sa, NULL);
    }
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO;
    sigfillset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, NULL);
}

static void mask(int how)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < NSIGS; i++) sigaddset(&set, cleanup_sigs[i]);
    sigprocmask(how, &set, NULL);
}

void cli_signals_block(void) { mask(SIG_BLOCK); }
void cli_signals_unblock(void) { mask(SIG_UNBLOCK); }

void cli_temp_arm(const char *tmp)
{
    if (!tmp || strlen(tmp) >= sizeof temp_name) return;
    temp_armed = 0;
    strcpy(temp_name, tmp);
    temp_armed = 1;
}

void cli_temp_disarm(void) { temp_armed = 0; }

void cli_input_mapped(const void *addr, size_t len, const char *prog, const char *label)
{
    if (!addr || !len) return;
    if (nmaps == maps_cap) {
        size_t ncap = maps_cap ? 2 * maps_cap : 8;
        mapped *nm = realloc(maps, ncap * sizeof *nm);
        if (!nm) return; /* then a fault is reported as a plain SIGBUS */
        maps = nm;
        maps_cap = ncap;
    }
    char line[1400];
    int n = snprintf(line, sizeof line,
                     "rsv: %s: %s: input changed while being read (the file shrank under its "
                     "mapping): RSV_ERR_IO: I/O error\n",
                     prog, label);
    if (n < 0) return;
    size_t len_msg = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    char *msg = malloc(len_msg + 1);
    if (!msg) return;
    memcpy(msg, line, len_msg + 1);
    msg[len_msg] = '\0';
    /* Filled in before it is counted: the handler reads only counted rows. */
    maps[nmaps] = (mapped){(uintptr_t)addr, (uintptr_t)addr + len, msg, len_msg};
    nmaps++;
}

void cli_input_unmapped(const void *addr)
{
    for (size_t i = 0; i < nmaps; i++) {
        if (maps[i].lo != (uintptr_t)addr) continue;
        char *msg = maps[i].msg;
        maps[i] = maps[nmaps - 1];
        nmaps--;
        free(msg);
        return;
    }
}

static volatile sig_atomic_t continued;
static void on_continue(int sig)
{
    (void)sig;
    continued = 1;
}

void cli_test_pause(unsigned long long records)
{
    static int read_env;
    static unsigned long long at;
    static int enabled;
    if (!read_env) {
        read_env = 1;
        const char *e = getenv("RSV_TEST_PAUSE_AFTER_RECORDS");
        char *end;
        if (e && *e) {
            at = strtoull(e, &end, 10);
            enabled = *end == '\0';
        }
    }
    if (!enabled || records != at) return;
    /* Wait for SIGUSR1 (continue) or any other signal (its usual effect):
     * SIGUSR1 stays blocked outside sigsuspend, so it cannot slip in between
     * the flag check and the wait. */
    struct sigaction sa, old_sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_continue;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR1, &sa, &old_sa);
    sigset_t usr1, old;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    sigprocmask(SIG_BLOCK, &usr1, &old);
    continued = 0;
    put("rsv: test pause\n", 16);
    while (!continued) {
        sigset_t wait = old;
        sigdelset(&wait, SIGUSR1);
        sigsuspend(&wait);
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    sigaction(SIGUSR1, &old_sa, NULL);
}
