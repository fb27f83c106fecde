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
        if (at > (uint64_t)INT64_MAX) return -1;
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
        if (at > (uint64_t)INT64_MAX) return -1;
        ssize_t k = pread(fd, p, n, (off_t)at);
        if (k < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (k == 0) return -1; /* the file is shorter than we wrote: fail */
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

int rsv__tmp_create(const char *path, char **tmp_out)
{
    *tmp_out = NULL;
    size_t plen = strlen(path);
    char *tmp = malloc(plen + sizeof ".tmp.XXXXXX");
    if (!tmp) return -1;
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp.XXXXXX", sizeof ".tmp.XXXXXX");
    int fd = mkostemp(tmp, O_CLOEXEC);
    if (fd < 0) {
        free(tmp);
        return -1;
    }
    if (fchmod(fd, default_file_mode()) != 0) {
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
        unlink(tmp); /* never leave the temporary behind */
        free(tmp);
        return -1;
    }
    free(tmp);
    return rsv__sync_dir(path);
}

int rsv__map_file(const char *path, void **map, size_t *len)
{
    *map = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat sb;
    if (fstat(fd, &sb) != 0 || sb.st_size < 0 || (uint64_t)sb.st_size > SIZE_MAX) {
        close(fd);
        return -1;
    }
    if (sb.st_size == 0) { /* mmap cannot map 0 bytes: an empty file is an empty view */
        close(fd);
        return 0;
    }
    void *p = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED) return -1;
    *map = p;
    *len = (size_t)sb.st_size;
    return 0;
}

void rsv__unmap_file(void *map, size_t len)
{
    if (map && len) munmap(map, len);
}
