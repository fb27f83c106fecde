/* File output with no partial results (temporary name in the same directory,
 * write, fsync, rename, fsync of the directory), the primitives the streaming
 * KV03 sink is built from, and read-only mapping. */
#define _GNU_SOURCE /* mkostemp: O_CLOEXEC set atomically at creation */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reservoir/file_io.h"

#include "kv03_layout.h"

/* A short write is retried, so a file-size limit or a full disk surfaces as
 * -1 (EFBIG / ENOSPC) on the next call. */
int rsv__write_all(int fd, const void *buf, size_t n)
{
    const uint8_t *p = (const uint8_t *)buf;
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (k == 0) return -1; /* no progress: treat as an error, never spin */
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

int rsv__pwrite_all(int fd, const void *buf, size_t n, uint64_t at)
{
    const uint8_t *p = (const uint8_t *)buf;
    while (n) {
        if (at > (uint64_t)INT64_MAX) { /* not an off_t: no call, errno as a too-large file's */
            errno = EFBIG;
            return -1;
        }
        ssize_t k = pwrite(fd, p, n, (off_t)at);
        if (k < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (k == 0) return -1;
        p += k;
        n -= (size_t)k;
        at += (uint64_t)k;
    }
    return 0;
}

int rsv__pread_all(int fd, void *buf, size_t n, uint64_t at)
{
    uint8_t *p = (uint8_t *)buf;
    while (n) {
        if (at > (uint64_t)INT64_MAX) { /* not an off_t: no call, errno as a too-large file's */
            errno = EFBIG;
            return -1;
        }
        ssize_t k = pread(fd, p, n, (off_t)at);
        if (k < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (k == 0) { /* the file is shorter than expected (it shrank): fail */
            errno = EIO;
            return -1;
        }
        p += k;
        n -= (size_t)k;
        at += (uint64_t)k;
    }
    return 0;
}

/* The mode an ordinary open(..., 0666) would give: mkostemp creates 0600.
 * umask(2) cannot be read without changing it (process-wide state, racy in a
 * library), so read it from /proc/self/status; fall back to 022. */
static mode_t default_file_mode(void)
{
    unsigned um = 022;
    FILE *f = fopen("/proc/self/status", "re");
    if (f) {
        char line[128];
        while (fgets(line, sizeof line, f)) {
            unsigned v;
            if (sscanf(line, "Umask: %o", &v) == 1) {
                um = v & 0777;
                break;
            }
        }
        fclose(f);
    }
    return (mode_t)(0666 & ~um);
}

/* What may be replaced: nothing yet (*mode = the umask-governed default) or
 * a regular file (*mode = its permission bits, so a private 0600 file stays
 * private). A directory (EISDIR), a symbolic link, device node, FIFO or
 * socket (EEXIST) is refused: renaming over it would silently turn it into a
 * regular file. lstat, not stat: a link is refused, never followed. */
static int target_mode(const char *path, mode_t *mode)
{
    struct stat sb;
    if (lstat(path, &sb) == 0) {
        if (S_ISREG(sb.st_mode)) {
            *mode = sb.st_mode & 0777;
            return 0;
        }
        errno = S_ISDIR(sb.st_mode) ? EISDIR : EEXIST;
        return -1;
    }
    if (errno != ENOENT) return -1; /* EACCES, ENOTDIR, ELOOP, ...: as lstat said */
    *mode = default_file_mode();
    return 0;
}

#define TMP_SUFFIX ".tmp.XXXXXX"
#ifndef NAME_MAX
#define NAME_MAX 255
#endif

/* `path` + TMP_SUFFIX, the last component's stem cut so that the temporary's
 * name stays within NAME_MAX bytes (an OUT name of 245..255 bytes is valid,
 * its temporary must be too). */
static char *tmp_name(const char *path)
{
    size_t plen = strlen(path);
    const char *slash = strrchr(path, '/');
    size_t base = slash ? plen - (size_t)(slash + 1 - path) : plen;
    size_t keep = plen;
    if (base + sizeof TMP_SUFFIX - 1 > NAME_MAX) keep -= base + sizeof TMP_SUFFIX - 1 - NAME_MAX;
    char *tmp = malloc(keep + sizeof TMP_SUFFIX);
    if (!tmp) return NULL;
    memcpy(tmp, path, keep);
    memcpy(tmp + keep, TMP_SUFFIX, sizeof TMP_SUFFIX);
    return tmp;
}

int rsv__tmp_create(const char *path, char **tmp_out)
{
    *tmp_out = NULL;
    mode_t mode;
    if (target_mode(path, &mode) != 0) return -1;
    char *tmp = tmp_name(path);
    if (!tmp) return -1;
    int fd = mkostemp(tmp, O_CLOEXEC);
    if (fd < 0) {
        int saved = errno;
        free(tmp);
        errno = saved;
        return -1;
    }
    if (fchmod(fd, mode) != 0) {
        int saved = errno;
        close(fd);
        unlink(tmp);
        free(tmp);
        errno = saved;
        return -1;
    }
    *tmp_out = tmp;
    return fd;
}

/* fsync the directory holding `path` so the rename itself is durable. */
int rsv__sync_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir;
    if (!slash) {
        dir = strdup(".");
    } else if (slash == path) {
        dir = strdup("/");
    } else {
        dir = malloc((size_t)(slash - path) + 1);
        if (dir) {
            memcpy(dir, path, (size_t)(slash - path));
            dir[slash - path] = '\0';
        }
    }
    if (!dir) return -1;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    free(dir);
    if (fd < 0) return -1;
    int rc = fsync(fd);
    close(fd);
    return rc;
}

int rsv__write_file_atomic(const char *path, const void *bytes, size_t n)
{
    char *tmp;
    int fd = rsv__tmp_create(path, &tmp);
    if (fd < 0) return -1;
    int rc = rsv__write_all(fd, bytes, n);
    if (rc == 0) rc = fsync(fd);
    if (close(fd) != 0) rc = -1;
    if (rc == 0) rc = rename(tmp, path);
    if (rc != 0) {
        int saved = errno;
        unlink(tmp); /* never leave the temporary behind */
        free(tmp);
        errno = saved;
        return -1;
    }
    free(tmp);
    return rsv__sync_dir(path);
}

rsv_status rsv_file_write_atomic(const char *path, const void *bytes, size_t n)
{
    if (!path || (!bytes && n)) return RSV_ERR_INVALID_ARGUMENT;
    return rsv__write_file_atomic(path, bytes, n) == 0 ? RSV_OK : RSV_ERR_IO;
}

/* Open `path` for reading, regular files only. O_NONBLOCK: opening a FIFO
 * with no writer would otherwise block forever; it is refused after fstat
 * like every other non-regular file (EISDIR for a directory, else EINVAL).
 * The flag does not matter for regular files. */
int rsv__open_regular(const char *path, uint64_t *size)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat sb;
    int err = 0;
    if (fstat(fd, &sb) != 0) err = errno;
    else if (S_ISDIR(sb.st_mode)) err = EISDIR;
    else if (!S_ISREG(sb.st_mode)) err = EINVAL;
    else if (sb.st_size < 0 || (uint64_t)sb.st_size > SIZE_MAX) err = EFBIG;
    if (err) {
        close(fd);
        errno = err;
        return -1;
    }
    *size = (uint64_t)sb.st_size;
    return fd;
}

int rsv__map_file(const char *path, void **map, size_t *len)
{
    *map = NULL;
    *len = 0;
    uint64_t size;
    int fd = rsv__open_regular(path, &size);
    if (fd < 0) return -1;
    struct stat sb;
    sb.st_size = (off_t)size;
    if (sb.st_size == 0) { /* mmap cannot map 0 bytes: an empty file is an empty view */
        close(fd);
        return 0;
    }
    void *p = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    int saved = errno;
    close(fd);
    errno = saved;
    if (p == MAP_FAILED) return -1;
    *map = p;
    *len = (size_t)sb.st_size;
    return 0;
}

/* The file's bytes in private anonymous memory (so rsv__unmap_file releases
 * them like a mapping), read with pread: a file that shrinks meanwhile is an
 * error (EIO), never a SIGBUS. The copy is made read-only afterwards. */
int rsv__copy_file(const char *path, void **map, size_t *len)
{
    *map = NULL;
    *len = 0;
    uint64_t size;
    int fd = rsv__open_regular(path, &size);
    if (fd < 0) return -1;
    if (size == 0) {
        close(fd);
        return 0;
    }
    void *p = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    int rc = p == MAP_FAILED ? -1 : 0;
    if (rc == 0) rc = rsv__pread_all(fd, p, (size_t)size, 0);
    if (rc == 0) rc = mprotect(p, (size_t)size, PROT_READ);
    int saved = errno;
    close(fd);
    if (rc != 0) {
        if (p != MAP_FAILED) munmap(p, (size_t)size);
        errno = saved;
        return -1;
    }
    *map = p;
    *len = (size_t)size;
    return 0;
}

void rsv__unmap_file(void *map, size_t len)
{
    if (map && len) munmap(map, len);
}
