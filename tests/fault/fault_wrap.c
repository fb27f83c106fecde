/* The link-time wrappers of the fault-injection executable (fault.h) and
 * their counters. */
#define _DEFAULT_SOURCE /* mkdtemp */
#define _POSIX_C_SOURCE 200809L
#include "fault.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the wrappers ---------------------------------------------------------- */

void *__real_malloc(size_t n);
void __real_free(void *p);
void *__real_calloc(size_t k, size_t n);
void *__real_realloc(void *p, size_t n);
ssize_t __real_write(int fd, const void *p, size_t n);
ssize_t __real_pwrite(int fd, const void *p, size_t n, off_t at);
ssize_t __real_pread(int fd, void *p, size_t n, off_t at);
int __real_fchmod(int fd, mode_t mode);
int __real_fstat(int fd, struct stat *sb);

static long alloc_fail_at = -1; /* index of the allocation to fail; -1: none */
long live_blocks;               /* blocks allocated through the wrappers and not freed */
long alloc_count;               /* allocations since arm_alloc */
int alloc_failed;               /* the armed failure happened */

long zero_allocs; /* requests for zero bytes (malloc(0), calloc with k·n = 0, realloc(p, 0)) */

static int alloc_fails(void)
{
    if (alloc_fail_at < 0) return 0;
    if (alloc_count++ != alloc_fail_at) return 0;
    alloc_failed = 1;
    return 1;
}

/* guarded mode (see the top): live blocks, found by address on free/realloc */
typedef struct gblock {
    uint8_t *p, *base;
    size_t n, len;
} gblock;
static gblock gblocks[4096];
size_t ngblocks;
int guarded;

static void *guarded_alloc(size_t n)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE), data = n ? (n + pg - 1) / pg * pg : pg;
    uint8_t *b = mmap(NULL, data + pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (b == MAP_FAILED || ngblocks == sizeof gblocks / sizeof *gblocks) abort();
    if (mprotect(b + data, pg, PROT_NONE) != 0) abort();
    gblocks[ngblocks] = (gblock){b + data - n, b, n, data + pg};
    return gblocks[ngblocks++].p;
}

static gblock *guarded_find(const void *p)
{
    for (size_t i = 0; i < ngblocks; i++)
        if (gblocks[i].p == p) return &gblocks[i];
    return NULL;
}

static void guarded_release(gblock *g)
{
    munmap(g->base, g->len);
    *g = gblocks[--ngblocks];
}

static void *counted(void *p)
{
    if (p) live_blocks++;
    return p;
}

void *__wrap_malloc(size_t n)
{
    zero_allocs += n == 0;
    if (alloc_fails()) return NULL;
    return counted(guarded ? guarded_alloc(n) : __real_malloc(n));
}

void *__wrap_calloc(size_t k, size_t n)
{
    zero_allocs += k == 0 || n == 0;
    if (alloc_fails()) return NULL;
    if (!guarded) return counted(__real_calloc(k, n));
    if (n && k > SIZE_MAX / n) return NULL;
    return counted(guarded_alloc(k * n)); /* fresh anonymous pages are zero */
}

static void *realloc_impl(void *p, size_t n);

/* realloc(NULL, n) allocates a block; realloc(p, 0) may free p (glibc
 * returns NULL then); a failed resize keeps p. */
void *__wrap_realloc(void *p, size_t n)
{
    zero_allocs += n == 0;
    if (alloc_fails()) return NULL;
    void *q = realloc_impl(p, n);
    if (!p && q) live_blocks++;
    else if (p && !q && n == 0) live_blocks--;
    return q;
}

static void *realloc_impl(void *p, size_t n)
{
    gblock *g = p ? guarded_find(p) : NULL;
    if (!guarded && !g) return __real_realloc(p, n);
    if (!g && p) abort(); /* a libc block resized in guarded mode: not expected */
    uint8_t *q = guarded_alloc(n);
    if (g) {
        g = guarded_find(p); /* guarded_alloc may not move entries, but be exact */
        memcpy(q, p, g->n < n ? g->n : n);
        guarded_release(g);
    }
    return q;
}

void __wrap_free(void *p)
{
    if (p) live_blocks--;
    gblock *g = p ? guarded_find(p) : NULL;
    if (g)
        guarded_release(g);
    else
        __real_free(p);
}

void arm_alloc(long k)
{
    alloc_count = 0;
    alloc_failed = 0;
    alloc_fail_at = k;
}
void disarm_alloc(void) { alloc_fail_at = -1; }

/* write: the next `write_zero` calls return 0 (no progress) with errno left
 * at EINTR, as a stale errno from an earlier interrupted call would be. */
int write_zero;
long write_calls;
/* the next `write_fail` calls fail: -1 with errno write_fail_errno */
int write_fail, write_fail_errno;
/* `write_short` > 0 caps each write at that many bytes (a short write, as a
 * pipe, a signal or a file-size limit may cause) */
int write_short;

ssize_t __wrap_write(int fd, const void *p, size_t n)
{
    write_calls++;
    if (write_fail > 0) {
        write_fail--;
        errno = write_fail_errno;
        return -1;
    }
    if (write_zero > 0) {
        write_zero--;
        errno = EINTR;
        return 0;
    }
    if (write_short > 0 && n > (size_t)write_short) n = (size_t)write_short;
    return __real_write(fd, p, n);
}

/* pwrite/pread: `pio_fail` calls fail with EIO; `pio_short` caps each
 * transfer at that many bytes (a short transfer, as a signal may cause);
 * the next `pwrite_zero` pwrite calls and `pread_zero` pread calls return 0
 * (no progress) with errno left at EINTR, as write_zero does;
 * fchmod: `fchmod_fail` calls fail with EPERM;
 * fsync: counted in `fsync_calls`; the call numbered `fsync_fail_at` (1 =
 * the next one, 0 = none) fails with EIO. */
int pio_fail, pio_short, pwrite_zero, pread_zero, fchmod_fail;
long fsync_calls, fsync_fail_at;
long pio_calls;

/* One pwrite/pread call: 1 = fail it (errno EIO), else *n is capped at pio_short. */
static int pio_inject(size_t *n)
{
    pio_calls++;
    if (pio_fail > 0) {
        pio_fail--;
        errno = EIO;
        return 1;
    }
    if (pio_short > 0 && *n > (size_t)pio_short) *n = (size_t)pio_short;
    return 0;
}

/* 1 when *zero asks for one more call that returns 0 (errno EINTR). */
static int pio_zero(int *zero)
{
    if (*zero <= 0) return 0;
    (*zero)--;
    errno = EINTR;
    return 1;
}

ssize_t __wrap_pwrite(int fd, const void *p, size_t n, off_t at)
{
    if (pio_inject(&n)) return -1;
    return pio_zero(&pwrite_zero) ? 0 : __real_pwrite(fd, p, n, at);
}

ssize_t __wrap_pread(int fd, void *p, size_t n, off_t at)
{
    if (pio_inject(&n)) return -1;
    return pio_zero(&pread_zero) ? 0 : __real_pread(fd, p, n, at);
}

int __real_fsync(int fd);
int __wrap_fsync(int fd)
{
    fsync_calls++;
    if (fsync_fail_at > 0 && --fsync_fail_at == 0) {
        errno = EIO;
        return -1;
    }
    return __real_fsync(fd);
}

/* fstat: the next `fstat_negative` successful calls report st_size = -1.
 * On a 64-bit ABI no real file fails rsv__open_regular's size check (a file
 * larger than size_t holds needs a 32-bit size_t); a negative size, which
 * an unusual file system could report, is the way to reach it here. */
int fstat_negative;

/* close: counts calls that fail with EBADF, i.e. of a descriptor that is
 * not open (a second close of the same number; in a process with threads it
 * could have closed someone else's file). Counted in `close_calls`; the call
 * numbered `close_fail_at` (1 = the next one, 0 = none) fails with EIO after
 * the real close: on Linux the descriptor is released even when close
 * reports an error (NFS reports deferred write errors there), so a retry
 * would be a second close. */
int __real_close(int fd);
long close_ebadf, close_calls, close_fail_at;

int __wrap_close(int fd)
{
    close_calls++;
    int rc = __real_close(fd);
    if (rc != 0 && errno == EBADF) close_ebadf++;
    if (close_fail_at > 0 && --close_fail_at == 0 && rc == 0) {
        errno = EIO;
        return -1;
    }
    return rc;
}

/* mmap / munmap: counted, so a test sees a mapping that a failure path
 * leaves behind (munmap of an address no successful mmap returned, e.g.
 * MAP_FAILED, fails and counts nothing). */
void *__real_mmap(void *a, size_t n, int prot, int flags, int fd, off_t at);
int __real_munmap(void *a, size_t n);
long live_maps;

void *__wrap_mmap(void *a, size_t n, int prot, int flags, int fd, off_t at)
{
    void *p = __real_mmap(a, n, prot, flags, fd, at);
    if (p != MAP_FAILED) live_maps++;
    return p;
}

int __wrap_munmap(void *a, size_t n)
{
    int rc = __real_munmap(a, n);
    if (rc == 0) live_maps--;
    return rc;
}

int __wrap_fstat(int fd, struct stat *sb)
{
    int rc = __real_fstat(fd, sb);
    if (rc == 0 && fstat_negative > 0) {
        fstat_negative--;
        sb->st_size = -1;
    }
    return rc;
}

int __wrap_fchmod(int fd, mode_t mode)
{
    if (fchmod_fail > 0) {
        fchmod_fail--;
        errno = EPERM;
        return -1;
    }
    return __real_fchmod(fd, mode);
}

