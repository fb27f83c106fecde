/* rsv — shared command-line helpers (see cli.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- errors ------------------------------------------------------------- */

static void verror(rsv_status st, const char *fmt, va_list ap)
{
    fputs("rsv: ", stderr);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, ": %s: %s\n", rsv_status_name((int)st), rsv_strerror((int)st));
}

void cli_error(rsv_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(st, fmt, ap);
    va_end(ap);
}

int cli_usage_error(const char *prog, const char *fmt, ...)
{
    char detail[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    cli_error(RSV_ERR_INVALID_ARGUMENT, "%s: %s", prog, detail);
    fprintf(stderr, "Try 'rsv %s --help'.\n", prog);
    return CLI_EXIT_USAGE;
}

int cli_finish_stdout(const char *prog, int status)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_error(RSV_ERR_IO, "%s: writing standard output: %s", prog, strerror(errno));
        return CLI_EXIT_FAIL;
    }
    return status;
}

/* ---- dispatch ----------------------------------------------------------- */

void cli_print_commands(FILE *out, const cli_command *table, size_t n)
{
    for (size_t i = 0; i < n; i++) fprintf(out, "  %-10s %s\n", table[i].name, table[i].summary);
}

int cli_dispatch(const cli_command *table, size_t n, int argc, char **argv, const char *prog,
                 void (*help)(FILE *out))
{
    /* Messages read "rsv: codes: ..." below the top level, "rsv: ..." at it. */
    const char *sep = prog[0] ? ": " : "";
    if (argc < 1) {
        cli_error(RSV_ERR_INVALID_ARGUMENT, "%s%smissing command", prog, sep);
        fprintf(stderr, "Try 'rsv%s%s --help'.\n", prog[0] ? " " : "", prog);
        return CLI_EXIT_USAGE;
    }
    if (cli_is_help(argv[0])) {
        help(stdout);
        return cli_finish_stdout(prog[0] ? prog : "--help", CLI_EXIT_OK);
    }
    for (size_t i = 0; i < n; i++) {
        if (strcmp(argv[0], table[i].name) != 0) continue;
        char path[128];
        snprintf(path, sizeof path, "%s%s%s", prog, prog[0] ? " " : "", table[i].name);
        return table[i].run(argc - 1, argv + 1, path);
    }
    if (argv[0][0] == '-') {
        cli_error(RSV_ERR_INVALID_ARGUMENT, "%s%sunknown option '%s'", prog, sep, argv[0]);
    } else {
        cli_error(RSV_ERR_INVALID_ARGUMENT, "%s%sunknown command '%s'", prog, sep, argv[0]);
    }
    fprintf(stderr, "Try 'rsv%s%s --help'.\n", prog[0] ? " " : "", prog);
    return CLI_EXIT_USAGE;
}

/* ---- options ------------------------------------------------------------ */

void cli_iter_init(cli_iter *it, int argc, char **argv)
{
    it->argc = argc;
    it->argv = argv;
    it->i = 0;
    it->positional_only = 0;
}

const char *cli_next(cli_iter *it, int *is_option)
{
    while (it->i < it->argc) {
        const char *a = it->argv[it->i++];
        if (!it->positional_only && strcmp(a, "--") == 0) {
            it->positional_only = 1;
            continue;
        }
        /* "-" names stdin and "-1" is a (rejected) number, not an option:
         * both go to the command as positionals so the error is accurate. */
        *is_option = !it->positional_only && a[0] == '-' && a[1] != '\0' &&
                     !(a[1] >= '0' && a[1] <= '9');
        return a;
    }
    return NULL;
}

int cli_is_help(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

int cli_flag(const char *arg, const char *name)
{
    return strcmp(arg, name) == 0;
}

int cli_value(cli_iter *it, const char *arg, const char *name, const char **val)
{
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0) return 0;
    if (arg[n] == '=') {
        *val = arg + n + 1;
        return 1;
    }
    if (arg[n] != '\0') return 0;
    if (it->i >= it->argc) return -1;
    *val = it->argv[it->i++];
    return 1;
}

/* ---- numbers ------------------------------------------------------------ */

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

const char *cli_parse_u64(const char *s, uint64_t *out)
{
    unsigned base = 10;
    uint64_t v = 0;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    if (*s == '\0') return "not a number (expected decimal or 0x hex)";
    for (; *s; s++) {
        int d = hexval(*s);
        if (d < 0 || (unsigned)d >= base) return "not a number (expected decimal or 0x hex)";
        if (v > (UINT64_MAX - (unsigned)d) / base) return "exceeds 2^64-1";
        v = v * base + (unsigned)d;
    }
    *out = v;
    return NULL;
}

/* ---- input -------------------------------------------------------------- */

int cli_open_input(const char *prog, const char *path)
{
    if (strcmp(path, "-") == 0) return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0) {
        cli_error(RSV_ERR_IO, "%s: '%s': open: %s", prog, path, strerror(errno));
        if (fd >= 0) close(fd);
        return -1;
    }
    if (S_ISDIR(sb.st_mode)) {
        close(fd);
        cli_error(RSV_ERR_IO, "%s: '%s': is a directory, not an input file", prog, path);
        return -1;
    }
    return fd;
}

rsv_status cli_read_all(const char *path, uint8_t **data, size_t *n)
{
    int is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    rsv_status st = RSV_OK;
    if (!f) return RSV_ERR_IO;
    for (;;) {
        if (len == cap) {
            size_t ncap = cap ? cap * 2 : 65536;
            if (ncap < cap) {
                st = RSV_ERR_TOO_LARGE;
                break;
            }
            uint8_t *nb = realloc(buf, ncap);
            if (!nb) {
                st = RSV_ERR_NOMEM;
                break;
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) {
            if (ferror(f)) st = RSV_ERR_IO;
            break;
        }
    }
    int saved = errno;
    if (!is_stdin) fclose(f);
    errno = saved;
    if (st != RSV_OK) {
        free(buf);
        return st;
    }
    *data = buf;
    *n = len;
    return RSV_OK;
}
