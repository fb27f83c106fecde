/* rsv — output files: the checks every command makes before creating one,
 * the KV03 path writer wrapped with signal cleanup, and output error
 * messages that name the path, the operation and the reason.
 *
 * The writing itself is the codec's (reservoir/file_io.h: temporary in the
 * same directory, fsync, rename; only a regular file is replaced, its
 * permission bits kept; NAME_MAX-safe temporary names) — there is one
 * atomic-write path, not a second copy here. */
#ifndef RSV_OUTFILE_H
#define RSV_OUTFILE_H

#include <stddef.h>

#include "reservoir/kv03.h"
#include "reservoir/status.h"

/* Before creating OUT: OUT = "-" when the command cannot stream
 * (may_stream = 0), an existing OUT that is not a regular file (directory,
 * symbolic link, device, FIFO, socket), or OUT aliasing one of inputs[0..n)
 * (same path, symbolic or hard link, same inode) is a usage error: printed,
 * and CLI_EXIT_USAGE returned. Else -1. `what` names the inputs in messages
 * ("input", "--older"). */
int cli_check_output(const char *prog, const char *out, int may_stream, const char *const *inputs,
                     const char *const *what, size_t n);

/* "a directory", "a FIFO (named pipe)", ... for a stat mode. */
const char *cli_file_kind(unsigned mode);

/* Do paths a and b name the same file: both exist and have the same device
 * and inode, or (one does not exist yet) the same directory and name. */
int cli_same_file(const char *a, const char *b);

/* What failed while producing OUT, for cli_output_error. */
typedef enum cli_out_op {
    CLI_OUT_CREATE, /* creating the temporary beside OUT */
    CLI_OUT_WRITE,  /* writing the temporary */
    CLI_OUT_COMMIT  /* finishing: header, fsync, rename over OUT */
} cli_out_op;

/* "rsv: <prog>: output 'OUT': <operation>: <strerror(err)>: NAME: MESSAGE".
 * err = the errno saved right after the failure. */
void cli_output_error(const char *prog, const char *out, cli_out_op op, int err, rsv_status st);

/* rsv_kv03_writer_init_path with the temporary recorded for signal cleanup
 * (signals blocked in between). */
rsv_status cli_kvout_init(rsv_kv03_writer *w, const rsv_kv03_policy *policy, const uint8_t *code,
                          uint64_t code_bits, const char *path);
/* rsv_kv03_writer_commit, then the cleanup record is dropped. */
rsv_status cli_kvout_commit(rsv_kv03_writer *w);
/* rsv_kv03_writer_free (unlinks an uncommitted temporary), record dropped. */
void cli_kvout_free(rsv_kv03_writer *w);

#endif
