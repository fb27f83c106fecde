/* rsv write — build a KV03 file from records given as TSV or JSON lines.
 * Without --sort each line is parsed and streamed to the codec's path writer
 * at once (bounded memory); with --sort the input is held, sorted, then
 * written. Either way the output is a temporary + fsync + rename, so a
 * syntax error anywhere leaves no output (the temporary is removed). */
#define _POSIX_C_SOURCE 200809L /* getline, fdopen */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "jsonl.h"
#include "kvpolicy.h"
#include "outfile.h"
#include "records.h"
#include "signals.h"
#include "textenc.h"

#include <unistd.h>

static void write_help(FILE *out)
{
    fputs("Usage: rsv write --from tsv|jsonl [--sort] [--policy eg:K|golomb:M]\n"
          "                 [--block W] [--group K] [--selector BITS] IN OUT\n"
          "       rsv write --from FILE.tsv|FILE.jsonl [options] OUT\n"
          "\n"
          "Write the records of IN ('-' = standard input) as the KV03 file OUT\n"
          "(temporary file, fsync, rename: OUT is complete or untouched).\n"
          "\n"
          "Input forms (one record per line, keys in strictly increasing byte order\n"
          "unless --sort):\n"
          "  tsv    KEY<TAB>VALUE; escapes \\t \\n \\r \\\\ \\xHH in both fields; a value\n"
          "         field of exactly \\N is a tombstone, an empty value field is a\n"
          "         present-empty value; exactly one raw TAB per line\n"
          "  jsonl  {\"key\": K, \"value\": V} with K, V a JSON string (its UTF-8\n"
          "         bytes) or {\"hex\": \"...\"} (raw bytes), V = null for a\n"
          "         tombstone; blank lines are skipped ('rsv dump --json' output)\n"
          "\n"
          "Options:\n"
          "  --from FORM       tsv or jsonl (required); or an input file whose name\n"
          "                    ends in .tsv or .jsonl/.json (then only OUT follows)\n"
          "  --sort            sort the records by key first (duplicate keys are still\n"
          "                    rejected)\n"
          "  --policy CODE     backspace code B: eg:K (0..63) or golomb:M; default eg:0\n"
          "  --block W         records per codec block, 1..2^32-1; default W = K\n"
          "  --group K         group size, 2^n-1 with n >= 2; default 15\n"
          "  --selector BITS   selector code C0 as 0/1 characters, 0..512 bits\n"
          "                    (--selector '' is the empty code); default 0\n"
          "  -h, --help        show this help and exit\n"
          "\n"
          "Lines end in LF or CR LF (the CR is not data; write a real CR as \\r). A\n"
          "UTF-8 byte order mark at the start is an error. Without --sort records\n"
          "stream to OUT (memory independent of the input size); --sort holds the\n"
          "whole input (about 2.5 x its size). OUT must not be an input, '-' or an\n"
          "existing non-regular file (directory, symbolic link, device, FIFO).\n"
          "\n"
          "Exit status: 0 written; 1 malformed input (RSV_ERR_INVALID_ARGUMENT with\n"
          "the line), unsorted or duplicate keys (RSV_ERR_UNSORTED), a policy the\n"
          "codec rejects (RSV_ERR_BAD_BACKSPACE, RSV_ERR_BAD_POLICY, RSV_ERR_TOO_LARGE)\n"
          "or an I/O error; 2 usage error.\n",
          out);
}

typedef enum { FROM_NONE, FROM_TSV, FROM_JSONL } from;

/* Parse one TSV line into a record. Returns RSV_OK or the status after
 * setting *why / *col (1-based column). */
static rsv_status tsv_line(const uint8_t *s, size_t n, cli_records *rs, cli_rec *r,
                           const char **why, size_t *col)
{
    const uint8_t *tab = memchr(s, '\t', n);
    if (!tab) {
        *why = "no TAB between key and value";
        *col = n + 1;
        return RSV_ERR_INVALID_ARGUMENT;
    }
    size_t klen = (size_t)(tab - s), at = 0;
    const uint8_t *v = tab + 1;
    size_t vlen = n - klen - 1;
    if (memchr(v, '\t', vlen)) {
        *why = "more than one TAB (write a TAB inside a field as \\t)";
        *col = klen + 2 + (size_t)((const uint8_t *)memchr(v, '\t', vlen) - v);
        return RSV_ERR_INVALID_ARGUMENT;
    }
    r->koff = rs->arena.len;
    rsv_status st = cli_tsv_decode(s, klen, &rs->arena, why, &at);
    if (st) {
        *col = at + 1;
        return st;
    }
    r->klen = rs->arena.len - r->koff;
    r->voff = rs->arena.len;
    if (vlen == 2 && v[0] == '\\' && v[1] == 'N') {
        r->tombstone = 1;
        r->vlen = 0;
        return RSV_OK;
    }
    st = cli_tsv_decode(v, vlen, &rs->arena, why, &at);
    if (st) {
        *col = klen + 2 + at;
        return st;
    }
    r->vlen = rs->arena.len - r->voff;
    return RSV_OK;
}

static int only_blanks(const uint8_t *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r') return 0;
    return 1;
}

/* One input line s[0, n) (its LF and a CR before it already removed) as a
 * record whose bytes go to `arena`. Returns -1 for a record (*r filled), 0
 * for a skipped blank JSONL line, else the exit status after the error. */
static int parse_line(const char *prog, const char *in, from fm, const uint8_t *s, size_t n,
                      uint64_t line, cli_records *rs, cli_rec *r, const char *note)
{
    if (fm == FROM_JSONL && only_blanks(s, n)) return 0;
    memset(r, 0, sizeof *r);
    r->line = line;
    const char *why = "malformed line";
    size_t col = 0;
    rsv_status st;
    if (line == 1 && n >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF) {
        cli_error(RSV_ERR_INVALID_ARGUMENT,
                  "%s: '%s' line 1 column 1: the input starts with a UTF-8 byte order mark (EF BB BF); "
                  "save it without one (in TSV, write \\xef\\xbb\\xbf if the key really starts with "
                  "those bytes)", prog, in);
        return CLI_EXIT_FAIL;
    }
    if (fm == FROM_TSV) {
        st = tsv_line(s, n, rs, r, &why, &col);
    } else {
        cli_json_record j;
        st = cli_jsonl_parse(s, n, &rs->arena, &j, &why, &col);
        col++;
        r->koff = j.koff, r->klen = j.klen, r->tombstone = j.tombstone, r->voff = j.voff, r->vlen = j.vlen;
    }
    if (st == RSV_ERR_INVALID_ARGUMENT) {
        cli_error(st, "%s: '%s' line %" PRIu64 " column %zu: %s", prog, in, line, col, why);
        return CLI_EXIT_FAIL;
    }
    if (st) {
        cli_error(st, "%s: '%s' line %" PRIu64 "%s", prog, in, line, note);
        return CLI_EXIT_FAIL;
    }
    return -1;
}

/* Next line of fp without its line ending: LF, or CR LF (a CR right before
 * the LF, or at the very end of the input, ends the line and is not data).
 * Returns 1 with *s, *n set, 0 at the end, -1 on a read error (errno). */
static int next_line(FILE *fp, char **buf, size_t *cap, const uint8_t **s, size_t *n)
{
    errno = 0;
    ssize_t k = getline(buf, cap, fp);
    if (k < 0) return ferror(fp) ? -1 : 0;
    size_t len = (size_t)k;
    if (len && (*buf)[len - 1] == '\n') len--;
    if (len && (*buf)[len - 1] == '\r') len--;
    *s = (const uint8_t *)*buf;
    *n = len;
    return 1;
}

static void policy_error(const char *prog, rsv_status st, const cli_kv_opts *o)
{
    cli_error(st, "%s: policy B=%s:%" PRIu64 " W=%" PRIu64 " K=%" PRIu64 ", selector %" PRIu64 " bits", prog,
              o->policy.code == RSV_BACKSPACE_EG ? "eg" : "golomb", o->policy.param, o->policy.W,
              o->policy.K, o->have_code ? o->code_bits : 1);
}

static int is_policy_error(rsv_status st)
{
    return st == RSV_ERR_BAD_BACKSPACE || st == RSV_ERR_BAD_POLICY || st == RSV_ERR_TOO_LARGE;
}

/* Without --sort: every record goes to the path writer as soon as it is
 * parsed (memory: the longest line plus the writer's bound), so a syntax
 * error or an unsorted key stops the write and removes the temporary. */
static int write_streaming(const char *prog, const char *in, const char *out, from fm, FILE *fp,
                           const cli_kv_opts *o)
{
    rsv_kv03_writer w;
    rsv_status st = cli_kvout_init(&w, &o->policy, cli_kv_opts_code(o), o->code_bits, out);
    if (st) {
        if (is_policy_error(st)) policy_error(prog, st, o);
        else cli_output_error(prog, out, CLI_OUT_CREATE, errno, st);
        cli_kvout_free(&w);
        return CLI_EXIT_FAIL;
    }
    cli_test_pause(0);
    cli_records rs; /* one record at a time: the arena is reused per line */
    cli_records_init(&rs);
    char *buf = NULL;
    size_t cap = 0, n;
    const uint8_t *s;
    uint64_t line = 0, prev_line = 0;
    unsigned long long done = 0;
    int rc = -1, got;
    while (rc < 0 && (got = next_line(fp, &buf, &cap, &s, &n)) > 0) {
        cli_rec r;
        rs.arena.len = 0;
        int pr = parse_line(prog, in, fm, s, n, ++line, &rs, &r, "");
        if (pr >= 0) {
            if (pr) rc = pr;
            continue;
        }
        rsv_value v = r.tombstone ? rsv_value_tombstone() : rsv_value_present(rs.arena.p + r.voff, r.vlen);
        st = rsv_kv03_writer_add(&w, rs.arena.p + r.koff, r.klen, v);
        if (st == RSV_ERR_IO) {
            cli_output_error(prog, out, CLI_OUT_WRITE, errno, st);
            rc = CLI_EXIT_FAIL;
        } else if (st == RSV_ERR_UNSORTED) {
            cli_error(st, "%s: '%s' line %" PRIu64 ": key is not greater than the key on line %" PRIu64
                          " (use --sort to sort the input)", prog, in, line, prev_line);
            rc = CLI_EXIT_FAIL;
        } else if (st) {
            cli_error(st, "%s: '%s' line %" PRIu64, prog, in, line);
            rc = CLI_EXIT_FAIL;
        } else {
            prev_line = line;
            cli_test_pause(++done);
        }
    }
    if (rc < 0 && got < 0) {
        cli_error(RSV_ERR_IO, "%s: '%s': read: %s", prog, in, strerror(errno));
        rc = CLI_EXIT_FAIL;
    }
    if (rc < 0) {
        st = cli_kvout_commit(&w);
        if (st) cli_output_error(prog, out, CLI_OUT_COMMIT, errno, st);
        rc = st ? CLI_EXIT_FAIL : CLI_EXIT_OK;
    }
    cli_kvout_free(&w);
    free(buf);
    cli_records_free(&rs);
    return rc;
}

#define HOLDS " (--sort holds the whole input in memory)"

/* With --sort: the whole input is parsed into memory, sorted, checked for
 * duplicate keys, then written. */
static int write_sorted(const char *prog, const char *in, const char *out, from fm, FILE *fp,
                        const cli_kv_opts *o)
{
    cli_records rs;
    cli_records_init(&rs);
    char *buf = NULL;
    size_t cap = 0, n;
    const uint8_t *s;
    uint64_t line = 0;
    int rc = -1, got;
    while (rc < 0 && (got = next_line(fp, &buf, &cap, &s, &n)) > 0) {
        cli_rec r;
        int pr = parse_line(prog, in, fm, s, n, ++line, &rs, &r, HOLDS);
        if (pr >= 0) {
            if (pr) rc = pr;
            continue;
        }
        rsv_status st = cli_records_push(&rs, &r);
        if (st) {
            cli_error(st, "%s: '%s' line %" PRIu64 "%s", prog, in, line, HOLDS);
            rc = CLI_EXIT_FAIL;
        }
    }
    free(buf);
    if (rc < 0 && got < 0) {
        cli_error(RSV_ERR_IO, "%s: '%s': read: %s", prog, in, strerror(errno));
        rc = CLI_EXIT_FAIL;
    }
    if (rc >= 0) goto done;
    cli_records_resolve(&rs);
    cli_records_sort(&rs);
    size_t d = cli_records_first_duplicate(&rs);
    if (d < rs.n) {
        cli_error(RSV_ERR_UNSORTED, "%s: '%s' line %" PRIu64 ": duplicate key (also on line %" PRIu64 ")",
                  prog, in, rs.v[d].line, rs.v[d - 1].line);
        rc = CLI_EXIT_FAIL;
        goto done;
    }
    size_t failed;
    cli_out_op op;
    int err;
    rsv_status st = cli_records_write(&rs, &o->policy, cli_kv_opts_code(o), o->code_bits, 0, 1, out,
                                      &failed, &op, &err);
    if (st && failed < rs.n) cli_error(st, "%s: '%s' line %" PRIu64, prog, in, rs.v[failed].line);
    else if (is_policy_error(st) && op == CLI_OUT_CREATE) policy_error(prog, st, o);
    else if (st) cli_output_error(prog, out, op, err, st);
    rc = st ? CLI_EXIT_FAIL : CLI_EXIT_OK;
done:
    cli_records_free(&rs);
    return rc;
}

/* `--from records.tsv OUT` names the input and its form at once. */
static from form_of_path(const char *path)
{
    size_t n = strlen(path);
    if (n > 4 && strcmp(path + n - 4, ".tsv") == 0) return FROM_TSV;
    if (n > 6 && strcmp(path + n - 6, ".jsonl") == 0) return FROM_JSONL;
    if (n > 5 && strcmp(path + n - 5, ".json") == 0) return FROM_JSONL;
    return FROM_NONE;
}

int cmd_write(int argc, char **argv, const char *prog)
{
    const char *pos[2] = {NULL, NULL}, *a, *val;
    int npos = 0, sort = 0, is_opt, got;
    from fm = FROM_NONE;
    const char *from_path = NULL; /* --from FILE.tsv|FILE.jsonl: IN given by --from */
    cli_kv_opts o;
    cli_iter it;
    cli_kv_opts_init(&o);
    cli_iter_init(&it, argc, argv);
    while ((a = cli_next(&it, &is_opt)) != NULL) {
        if (!is_opt) {
            if (npos == 2) return cli_usage_error(prog, "unexpected argument '%s' (give IN OUT)", a);
            pos[npos++] = a;
        } else if (cli_is_help(a)) {
            write_help(stdout);
            return cli_finish_stdout(prog, CLI_EXIT_OK);
        } else if (cli_flag(a, "--sort")) {
            sort = 1;
        } else if ((got = cli_value(&it, a, "--from", &val)) != 0) {
            if (got < 0) return cli_usage_error(prog, "--from needs a value");
            if (strcmp(val, "tsv") == 0) fm = FROM_TSV;
            else if (strcmp(val, "jsonl") == 0) fm = FROM_JSONL;
            else if ((fm = form_of_path(val)) != FROM_NONE) from_path = val;
            else return cli_usage_error(prog, "--from '%s': expected tsv, jsonl or a .tsv/.jsonl file", val);
        } else if ((got = cli_kv_opts_take(&o, &it, a, prog)) != 0) {
            if (got < 0) return -got;
        } else {
            return cli_usage_error(prog, "unknown option '%s'", a);
        }
    }
    if (fm == FROM_NONE) return cli_usage_error(prog, "--from is required");
    if (from_path) {
        if (npos != 1) return cli_usage_error(prog, npos ? "with --from FILE give only OUT" : "missing OUT");
        pos[1] = pos[0];
        pos[0] = from_path;
    } else if (npos < 2) {
        return cli_usage_error(prog, "missing %s", npos ? "OUT" : "IN and OUT");
    }
    cli_kv_opts_finish(&o);
    const char *in = pos[0], *out = pos[1];

    const char *what = "input";
    int rc = cli_check_output(prog, out, 0, &in, &what, 1);
    if (rc >= 0) return rc;
    int fd = cli_open_input(prog, in);
    if (fd < 0) return CLI_EXIT_FAIL;
    FILE *fp = fd == 0 ? stdin : fdopen(fd, "rb");
    if (!fp) {
        cli_error(RSV_ERR_IO, "%s: '%s': open: %s", prog, in, strerror(errno));
        close(fd);
        return CLI_EXIT_FAIL;
    }
    rc = sort ? write_sorted(prog, in, out, fm, fp, &o) : write_streaming(prog, in, out, fm, fp, &o);
    if (fp != stdin) fclose(fp);
    return rc;
}
