/* Private: the streaming file sink behind rsv_kv03_writer_init_path
 * (temporary file next to the destination, sequential appends, header and
 * directory patched in at the end, fsync + rename + directory fsync). */
#ifndef RSV_KV03_SINK_H
#define RSV_KV03_SINK_H

#include <stddef.h>
#include <stdint.h>

#include "reservoir/status.h"

struct rsv_kv03_sink {
    int fd;             /* the temporary, open for reading and writing */
    char *path;         /* destination */
    char *tmp;          /* temporary name (unlinked by abort) */
    size_t flush_bytes; /* flush once more data-stream bytes than this are buffered */
};

/* Create the temporary and reserve the 96 + 192 header/directory bytes.
 * RSV_ERR_IO (nothing left behind) or RSV_ERR_NOMEM. */
rsv_status rsv__sink_open(struct rsv_kv03_sink **out, const char *path);
/* Append at the current end. RSV_ERR_IO on any write error. */
rsv_status rsv__sink_append(struct rsv_kv03_sink *s, const void *p, size_t n);
/* Close and unlink the temporary, free the sink (NULL is a no-op). */
void rsv__sink_abort(struct rsv_kv03_sink *s);
/* hd = the 288 header + directory bytes with both CRC fields zero; the file
 * must already hold every body byte after the directory (total bytes in
 * all). Computes the body CRC (directory from hd, the rest re-read from the
 * file), then the header CRC, writes hd at offset 0, fsyncs, renames over
 * the destination and fsyncs the directory. Always consumes the sink: on
 * failure the temporary is unlinked first. */
rsv_status rsv__sink_commit(struct rsv_kv03_sink *s, uint8_t *hd, uint64_t total);

#endif
