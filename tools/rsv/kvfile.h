/* rsv — opening KV03 files and reporting where they are wrong. Every file
 * command opens through here so open failures always name the header or
 * directory field (as a file byte offset) and walk failures the record and
 * the data-stream bit, in one format (docs/rsv.md, DIAGNOSTICS):
 *
 *   rsv: <cmd>: <label>: open: file byte <B> (<field>): <NAME>: <message>
 *   rsv: <cmd>: <label>: record <I>, data-stream bit <P> (file byte <B>): <NAME>: <message>
 *   rsv: <cmd>: <label>: scan: file byte <B> (<what>): <NAME>: <message>
 *   rsv: <cmd>: <label>: dictionary: section 5 (<D> bits) at file byte <B5>, section 6 (<M> codes) at file byte <B6>: <NAME>: <message>
 *
 * <label> is "'PATH'" or, for merges, "input #K 'PATH'". */
#ifndef RSV_KVFILE_H
#define RSV_KVFILE_H

#include <stdio.h>

#include "reservoir/kv03.h"

/* Open (KV03.md §9.1, mapped). Returns -1 on success, else CLI_EXIT_FAIL
 * after printing the error. A path that is not a regular file (directory,
 * FIFO — checked without blocking —, device, "-") is refused with a message
 * naming its kind; I/O errors carry strerror. The mapping is registered for
 * the SIGBUS report (signals.h). Close with cli_kv_close. */
int cli_kv_open(const char *prog, const char *label, const char *path, rsv_kv03_file *f);
void cli_kv_close(rsv_kv03_file *f);

/* A cursor walk failed with st: the walk error with its position, or just
 * the status when the cursor has no diagnosis. */
void cli_kv_cursor_error(const char *prog, const char *label, const rsv_kv03_file *f, rsv_status st,
                         rsv_kv03_diag d);

/* A failure of a cursor / frame walk (diag from the cursor, scan or merge). */
void cli_kv_walk_error(const char *prog, const char *label, const rsv_kv03_file *f,
                       rsv_kv03_diag d);

/* A failure of rsv_kv03_scan: walk errors as above, the other §9.2 checks
 * with the file byte (or section) they concern. */
void cli_kv_scan_error(const char *prog, const char *label, const rsv_kv03_file *f,
                       rsv_status st, rsv_kv03_diag d);

/* ---- the frame of the one-file commands (dump, stat, verify) ----------- */

#define CLI_KV_CMD_FLAGS 4

typedef struct cli_kv_cmd {
    const char *path;             /* FILE (NULL until given) */
    char label[1100];             /* "'PATH'" */
    int flag[CLI_KV_CMD_FLAGS];   /* flag[k]: flags[k] was given (count) */
    int nflags_given;             /* all flags given, with repeats */
    rsv_kv03_file f;              /* open after cli_kv_cmd_open */
} cli_kv_cmd;

/* Parse "[FLAG...] FILE" where each FLAG is one of flags[0..nflags)
 * (nflags <= CLI_KV_CMD_FLAGS) or -h/--help (prints help, exit 0). Returns
 * -1 to go on, else the exit status after the usage error or the help. The
 * command checks its flag combinations next, then calls cli_kv_cmd_open. */
int cli_kv_cmd_args(cli_kv_cmd *c, int argc, char **argv, const char *prog, void (*help)(FILE *),
                    const char *const *flags, int nflags);
/* "missing FILE", else open c->path (cli_kv_open, label "'PATH'"). Returns
 * -1 with c->f open, else the exit status (the error printed). */
int cli_kv_cmd_open(cli_kv_cmd *c, const char *prog);
/* Close c->f and finish standard output: the command's exit status. */
int cli_kv_cmd_close(cli_kv_cmd *c, const char *prog, int rc);

/* The section names used by stat and the messages: "data", "ef-low", ... */
extern const char *const cli_kv_section_names[8];

#endif
