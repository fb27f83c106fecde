/* File output with no partial results (temporary name in the same directory,
 * write, fsync, rename, fsync of the directory) and read-only mapping. */
#define _POSIX_C_SOURCE 200809L
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

static int write_all(int fd, const uint8_t *p, size_t n)
{
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* fsync the directory holding `path` so the rename itself is durable. */
static int sync_dir(const char *path)
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
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    free(dir);
    if (fd < 0) return -1;
    int rc = fsync(fd);
    close(fd);
    return rc;
}

int rsv__write_file_atomic(const char *path, const void *bytes, size_t n)
{
    size_t plen = strlen(path);
    char *tmp = malloc(plen + sizeof ".tmp.XXXXXX");
    if (!tmp) return -1;
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp.XXXXXX", sizeof ".tmp.XXXXXX");
    int fd = mkstemp(tmp);
    if (fd < 0) {
        free(tmp);
        return -1;
    }
    int rc = write_all(fd, (const uint8_t *)bytes, n);
    if (rc == 0) rc = fsync(fd);
    if (close(fd) != 0) rc = -1;
    if (rc == 0) rc = rename(tmp, path);
    if (rc != 0) {
        unlink(tmp); /* never leave the temporary behind */
        free(tmp);
        return -1;
    }
    free(tmp);
    return sync_dir(path);
}

int rsv__map_file(const char *path, void **map, size_t *len)
{
    *map = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY);
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
