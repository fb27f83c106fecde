/* The streaming file sink of the KV03 writer. The temporary lives in the
 * destination's directory so the final rename is atomic (same file system);
 * every failure path unlinks it, so a failed write leaves nothing behind and
 * the destination is only ever changed by that rename. */
#define _POSIX_C_SOURCE 200809L /* fsync, unlink */
#include <errno.h>
#include <stdio.h>               /* rename */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reservoir/crc32c.h"
#include "reservoir/kv03.h"

#include "kv03_layout.h"
#include "kv03_sink.h"

#define CRC_CHUNK 65536u /* bounded re-read buffer for the body CRC */

rsv_status rsv__sink_open(struct rsv_kv03_sink **out, const char *path)
{
    *out = NULL;
    struct rsv_kv03_sink *s = calloc(1, sizeof *s);
    if (!s) return RSV_ERR_NOMEM;
    s->flush_bytes = RSV_KV03_FLUSH_BYTES;
    s->path = malloc(strlen(path) + 1);
    if (!s->path) {
        free(s);
        return RSV_ERR_NOMEM;
    }
    strcpy(s->path, path);
    s->fd = rsv__tmp_create(path, &s->tmp);
    if (s->fd < 0) {
        free(s->path);
        free(s);
        return RSV_ERR_IO;
    }
    static const uint8_t zeros[RSV_KV03_HEADER_BYTES + RSV_KV03_DIRECTORY_BYTES];
    if (rsv__write_all(s->fd, zeros, sizeof zeros) != 0) {
        rsv__sink_abort(s);
        return RSV_ERR_IO;
    }
    *out = s;
    return RSV_OK;
}

rsv_status rsv__sink_append(struct rsv_kv03_sink *s, const void *p, size_t n)
{
    return rsv__write_all(s->fd, p, n) == 0 ? RSV_OK : RSV_ERR_IO;
}

/* errno is kept: the caller reports the failing call's errno after this. */
void rsv__sink_abort(struct rsv_kv03_sink *s)
{
    if (!s) return;
    int saved = errno;
    if (s->fd >= 0) close(s->fd);
    if (s->tmp) unlink(s->tmp);
    free(s->tmp);
    free(s->path);
    free(s);
    errno = saved;
}

const char *rsv_kv03_writer_temp_path(const rsv_kv03_writer *w)
{
    return w && w->sink ? w->sink->tmp : NULL;
}

/* Body CRC: the directory from memory, then the body after it re-read from
 * the temporary (what was written, not what we think we wrote). */
static int body_crc(int fd, const uint8_t *dir, uint64_t total, uint32_t *crc)
{
    uint8_t *buf = malloc(CRC_CHUNK);
    if (!buf) return -1;
    uint32_t c = rsv_crc32c(0, dir, RSV_KV03_DIRECTORY_BYTES);
    uint64_t at = RSV_KV03_HEADER_BYTES + RSV_KV03_DIRECTORY_BYTES;
    int rc = 0;
    while (at < total) {
        size_t k = total - at < CRC_CHUNK ? (size_t)(total - at) : CRC_CHUNK;
        if ((rc = rsv__pread_all(fd, buf, k, at)) != 0) break;
        c = rsv_crc32c(c, buf, k);
        at += k;
    }
    free(buf);
    *crc = c;
    return rc;
}

rsv_status rsv__sink_commit(struct rsv_kv03_sink *s, uint8_t *hd, uint64_t total)
{
    uint32_t crc = 0;
    rsv_status st = RSV_ERR_IO;
    if (body_crc(s->fd, hd + RSV_KV03_HEADER_BYTES, total, &crc) != 0) goto fail;
    rsv__put_le(hd + HDR_BODY_CRC, crc, 4);
    rsv__put_le(hd + HDR_HEADER_CRC, rsv__kv03_header_crc(hd), 4);
    if (rsv__pwrite_all(s->fd, hd, RSV_KV03_HEADER_BYTES + RSV_KV03_DIRECTORY_BYTES, 0) != 0) goto fail;
    if (fsync(s->fd) != 0) goto fail;
    int fd = s->fd;
    s->fd = -1;
    if (close(fd) != 0) goto fail; /* NFS & co. report deferred write errors here */
    if (rename(s->tmp, s->path) != 0) goto fail;
    free(s->tmp);
    s->tmp = NULL; /* renamed: nothing to unlink any more */
    st = rsv__sync_dir(s->path) == 0 ? RSV_OK : RSV_ERR_IO;
    rsv__sink_abort(s);
    return st;
fail:
    rsv__sink_abort(s);
    return st;
}
