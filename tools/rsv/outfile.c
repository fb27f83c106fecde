/* rsv — output checks, the signal-safe KV03 path writer and output error
 * messages (see outfile.h). */
#define _GNU_SOURCE /* realpath */
#include "outfile.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "signals.h"

const char *cli_file_kind(unsigned mode)
{
    mode_t m = (mode_t)mode;
    if (S_ISDIR(m)) return "a directory";
    if (S_ISLNK(m)) return "a symbolic link";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISFIFO(m)) return "a pipe or FIFO";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

/* realpath of path's directory + "/" + its last component (the file itself
 * need not exist). NULL if the directory cannot be resolved. */
static char *canonical(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    char *dir;
    if (!slash) dir = strdup(".");
    else if (slash == path) dir = strdup("/");
    else dir = strndup(path, (size_t)(slash - path));
    if (!dir) return NULL;
    char *real = realpath(dir, NULL);
    free(dir);
    if (!real) return NULL;
    size_t n = strlen(real), b = strlen(base);
    char *out = malloc(n + b + 2);
    if (out) {
        memcpy(out, real, n);
        out[n] = '/';
        memcpy(out + n + 1, base, b + 1);
    }
    free(real);
    return out;
}

int cli_same_file(const char *a, const char *b)
{
    if (strcmp(a, b) == 0) return 1;
    struct stat sa, sb;
    int ha = stat(a, &sa) == 0, hb = stat(b, &sb) == 0;
    if (ha && hb) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (ha != hb) {
        /* A dangling symbolic link still names its target: compare by name. */
        struct stat la;
        const char *link = !ha ? a : b;
        if (lstat(link, &la) != 0 || !S_ISLNK(la.st_mode)) return 0;
    }
    char *ca = canonical(a), *cb = canonical(b);
    int same = ca && cb && strcmp(ca, cb) == 0;
    free(ca);
    free(cb);
    return same;
}

int cli_check_output(const char *prog, const char *out, int may_stream, const char *const *inputs,
                     const char *const *what, size_t n)
{
    if (strcmp(out, "-") == 0) {
        if (may_stream) return -1;
        return cli_usage_error(prog, "OUT '-': a KV03 file cannot be written to standard output "
                                     "(its header is written last); give a file name");
    }
    for (size_t i = 0; i < n; i++)
        if (inputs[i] && strcmp(inputs[i], "-") != 0 && cli_same_file(out, inputs[i]))
            return cli_usage_error(prog, "OUT '%s' is the same file as %s '%s'", out, what[i], inputs[i]);
    struct stat sb;
    if (lstat(out, &sb) == 0 && !S_ISREG(sb.st_mode))
        return cli_usage_error(prog, "OUT '%s' is %s: refusing to replace it (only a regular file "
                                     "is replaced)", out, cli_file_kind((unsigned)sb.st_mode));
    return -1;
}

void cli_output_error(const char *prog, const char *out, cli_out_op op, int err, rsv_status st)
{
    static const char *const ops[] = {"creating a temporary file beside it", "writing",
                                      "finishing (fsync, rename)"};
    if (st == RSV_ERR_IO)
        cli_error(st, "%s: output '%s': %s: %s", prog, out, ops[op], strerror(err));
    else
        cli_error(st, "%s: output '%s': %s", prog, out, ops[op]);
}

rsv_status cli_kvout_init(rsv_kv03_writer *w, const rsv_kv03_policy *policy, const uint8_t *code,
                          uint64_t code_bits, const char *path)
{
    cli_signals_block();
    rsv_status st = rsv_kv03_writer_init_path(w, policy, code, code_bits, path);
    int saved = errno;
    if (!st) cli_temp_arm(rsv_kv03_writer_temp_path(w));
    cli_signals_unblock();
    errno = saved;
    return st;
}

rsv_status cli_kvout_commit(rsv_kv03_writer *w)
{
    rsv_status st = rsv_kv03_writer_commit(w);
    cli_temp_disarm();
    return st;
}

void cli_kvout_free(rsv_kv03_writer *w)
{
    int saved = errno;
    rsv_kv03_writer_free(w);
    cli_temp_disarm();
    errno = saved;
}
