/* rsv — helpers shared by every subcommand: the subcommand table and its
 * dispatcher, option iteration, strict number parsing, reading a whole file or
 * stdin, and the one error format
 *
 *     rsv: <context>: <RSV_ERR_NAME>: <message>
 *
 * where <message> is always the spec's rsv_strerror() text, so scripts can
 * match either the name or the message and humans get the detail from the
 * context. */
#ifndef RSV_CLI_H
#define RSV_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "reservoir/status.h"

/* Exit statuses (docs/rsv.md, EXIT STATUS). */
enum {
    CLI_EXIT_OK = 0,    /* success */
    CLI_EXIT_FAIL = 1,  /* codec rejection, decode failure, I/O error */
    CLI_EXIT_USAGE = 2  /* malformed command line */
};

/* One entry of a dispatch table. `run` gets the arguments after the command's
 * own name; `prog` is the command path without the leading "rsv" ("codes",
 * "codes encode"), used as the context of messages and in help hints. */
typedef struct cli_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv, const char *prog);
} cli_command;

/* Look argv[0] up in `table` and run it with a prog of "<prog> <name>" (just
 * "<name>" when prog is empty).
 * argv[0] of "--help"/"-h" calls `help(stdout)` and returns 0; a missing or
 * unknown name is a usage error (2). */
int cli_dispatch(const cli_command *table, size_t n, int argc, char **argv, const char *prog,
                 void (*help)(FILE *out));

/* Print the command table as an indented two-column list (for --help). */
void cli_print_commands(FILE *out, const cli_command *table, size_t n);

/* ---- errors ------------------------------------------------------------- */

/* rsv: <context>: <name>: <message>, context printf-formatted. */
void cli_error(rsv_status st, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* A usage error of command `prog`: prints "rsv: <prog>: <detail>:
 * RSV_ERR_INVALID_ARGUMENT: invalid argument" plus a hint to run --help, and
 * returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *prog, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Flush stdout; on a write error report RSV_ERR_IO for `prog` and return
 * CLI_EXIT_FAIL, else return `status` unchanged. Call it on every exit path
 * that has printed results, so "disk full" or a closed pipe is not success. */
int cli_finish_stdout(const char *prog, int status);

/* ---- options ------------------------------------------------------------ */

/* Walks argv: options (arguments starting with "-" other than "-" itself and
 * "-<digit>", before a "--") and positionals, in any order. */
typedef struct cli_iter {
    int argc;
    char **argv;
    int i;
    int positional_only; /* after "--" */
} cli_iter;

void cli_iter_init(cli_iter *it, int argc, char **argv);
/* Next argument or NULL; *is_option tells which kind it is. */
const char *cli_next(cli_iter *it, int *is_option);
/* Is `arg` "--help" or "-h"? */
int cli_is_help(const char *arg);
/* Does option `arg` equal the flag `name` (no value)? */
int cli_flag(const char *arg, const char *name);
/* Option `name` with a value, as "--name VALUE" or "--name=VALUE": returns 1
 * and sets *val, 0 if `arg` is another option, -1 if the value is missing. */
int cli_value(cli_iter *it, const char *arg, const char *name, const char **val);

/* ---- numbers ------------------------------------------------------------ */

/* Parse an unsigned 64-bit number: decimal digits, or 0x / 0X followed by hex
 * digits. No sign, no spaces, no empty string, no overflow (unlike strtoull,
 * which accepts "-1" and leading blanks). Returns NULL on success or a short
 * reason for the error message. */
const char *cli_parse_u64(const char *s, uint64_t *out);

/* ---- input -------------------------------------------------------------- */

/* Open an input that is read as a stream: "-" = standard input (fd 0),
 * else the file, opened like cat would (a FIFO waits for its writer and is
 * read to its end). A directory is refused ("is a directory"). On failure
 * the error is printed ("rsv: <prog>: '<path>': open: <reason>") and -1
 * returned. */
int cli_open_input(const char *prog, const char *path);

/* Read all of `path` ("-" = stdin) into a malloc'ed buffer (*data may be NULL
 * when *n is 0). RSV_ERR_IO with errno set, or RSV_ERR_NOMEM / RSV_ERR_TOO_LARGE. */
rsv_status cli_read_all(const char *path, uint8_t **data, size_t *n);

#endif
