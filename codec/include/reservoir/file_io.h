/* reservoir — whole-file output with no partial result, the protocol every
 * path writer of the library uses (rsv_kv03_writer_init_path, the merge's
 * rsv_merge_init_path, *_finish_path):
 *
 *   1. `path` is checked: if it exists it must be a regular file. A
 *      directory (errno EISDIR), a symbolic link, device node, FIFO or socket
 *      (errno EEXIST) is refused with RSV_ERR_IO and left alone, because the
 *      final rename would replace it by a regular file. A check that fails
 *      for another reason than a missing `path` (errno ENAMETOOLONG for a
 *      last component over NAME_MAX bytes, ENOTDIR, ELOOP, ...) is
 *      RSV_ERR_IO with that errno too, before any temporary exists (a path
 *      writer's init fails).
 *   2. A temporary `path.tmp.XXXXXX` is created in path's directory (mkostemp,
 *      O_CLOEXEC). When path's last component is so long that the temporary's
 *      name would exceed NAME_MAX (255) bytes, the stem is shortened: the
 *      temporary is `<first 244 bytes of the name>.tmp.XXXXXX`.
 *   3. Its mode: the permission bits of the file being replaced (a private
 *      0600 file stays 0600), else 0666 & ~umask like a plain open().
 *   4. write, fsync, close, rename over `path`, fsync of the directory.
 *
 * Every failure unlinks the temporary and returns RSV_ERR_IO with errno from
 * the failing call (so callers can print strerror(errno)); `path` is then
 * untouched. Exception: the rename succeeded but the directory fsync failed
 * (the new file is in place, RSV_ERR_IO is returned).
 *
 * Signals: a process killed between steps 2 and 4 leaves the temporary
 * behind. A caller that wants to remove it from a signal handler records the
 * temporary's name (rsv_kv03_writer_temp_path, rsv_merge_temp_path: a stable
 * string owned by the object, valid until commit, failure or free) and
 * unlinks it there (unlink is async-signal-safe), then re-raises the signal
 * with its default action. Block the signals while the writer is created and
 * the name recorded so no window is left. rsv (tools/rsv/cleanup.c) does this. */
#ifndef RESERVOIR_FILE_IO_H
#define RESERVOIR_FILE_IO_H

#include <stddef.h>

#include "reservoir/export.h"
#include "reservoir/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Write bytes[0, n) to `path` by the protocol above. RSV_OK, RSV_ERR_IO
 * (errno set) or RSV_ERR_INVALID_ARGUMENT (path NULL, or bytes NULL with n > 0). */
RSV_API rsv_status rsv_file_write_atomic(const char *path, const void *bytes, size_t n);

#ifdef __cplusplus
}
#endif
#endif
