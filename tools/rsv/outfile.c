/* rsv — atomic whole-file output (see outfile.h). */
#define _POSIX_C_SOURCE 200809L
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

static int sync_parent(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 0;
    char *dir = malloc(n + 2);
    if (!dir) return -1;
    if (!slash) strcpy(dir, ".");
    else if (n == 0) strcpy(dir, "/");
    else {
        memcpy(dir, path, n);
        dir[n] = '\0';
    }
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    free(dir);
    if (fd < 0) return -1;
    int rc = fsync(fd);
    close(fd);
    return rc;
}

rsv_status cli_write_file_atomic(const char *path, const void *bytes, size_t n)
{
    size_t plen = strlen(path);
    char *tmp = malloc(plen + sizeof ".tmp.XXXXXX");
    if (!tmp) return RSV_ERR_NOMEM;
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp.XXXXXX", sizeof ".tmp.XXXXXX");
    int fd = mkstemp(tmp);
    if (fd < 0) {
        free(tmp);
        return RSV_ERR_IO;
    }
    /* mkstemp creates 0600; give the file the usual umask-governed mode. */
    mode_t um = umask(0);
    umask(um);
    int rc = fchmod(fd, 0666 & ~um);
    if (rc == 0) rc = write_all(fd, (const uint8_t *)bytes, n);
    if (rc == 0) rc = fsync(fd);
    if (close(fd) != 0) rc = -1;
    if (rc == 0) rc = rename(tmp, path);
    if (rc != 0) {
        int saved = errno;
        unlink(tmp);
        free(tmp);
        errno = saved;
        return RSV_ERR_IO;
    }
    free(tmp);
    return sync_parent(path) == 0 ? RSV_OK : RSV_ERR_IO;
}
