/* rsv — writing a whole output file with no partial result: a temporary in
 * the same directory, fsync, rename over the target, fsync of the directory
 * (the same protocol as the codec's *_finish_path, for outputs that are not
 * KV03 files, e.g. gen-counts' bit streams). */
#ifndef RSV_OUTFILE_H
#define RSV_OUTFILE_H

#include <stddef.h>

#include "reservoir/status.h"

/* RSV_OK, or RSV_ERR_IO with errno set; on failure the target is untouched
 * and no temporary is left. */
rsv_status cli_write_file_atomic(const char *path, const void *bytes, size_t n);

#endif
