/* rsv write — build a KV03 file from records given as TSV or JSON lines.
 * The whole input is parsed first (so a syntax error anywhere leaves no
 * output), optionally sorted, then fed to the codec's streaming writer and
 * written with its temporary + fsync + rename file output. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "jsonl.h"
#include "kvpolicy.h"
#include "records.h"
#include "textenc.h"

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

/* Parse the whole input. Returns -1 on success, else the exit status. */
static int parse_input(const char *prog, const char *in, from fm, const uint8_t *data, size_t n,
                       cli_records *rs)
{
    uint64_t line = 0;
    for (size_t pos = 0; pos < n;) {
        const uint8_t *nl = memchr(data + pos, '\n', n - pos);
        size_t len = nl ? (size_t)(nl - (data + pos)) : n - pos;
        const uint8_t *s = data + pos;
        pos += len + (nl != NULL);
        line++;
        if (fm == FROM_JSONL && only_blanks(s, len)) continue;
        cli_rec r;
        memset(&r, 0, sizeof r);
        r.line = line;
        const char *why = "malformed line";
        size_t col = 0;
        rsv_status st;
        if (fm == FROM_TSV) {
            st = tsv_line(s, len, rs, &r, &why, &col);
        } else {
            cli_json_record j;
            st = cli_jsonl_parse(s, len, &rs->arena, &j, &why, &col);
            col++;
            r.koff = j.koff, r.klen = j.klen, r.tombstone = j.tombstone, r.voff = j.voff, r.vlen = j.vlen;
        }
        if (st == RSV_OK) st = cli_records_push(rs, &r);
        if (st == RSV_ERR_INVALID_ARGUMENT) {
            cli_error(st, "%s: '%s' line %" PRIu64 " column %zu: %s", prog, in, line, col, why);
            return CLI_EXIT_FAIL;
        }
        if (st) {
            cli_error(st, "%s: '%s' line %" PRIu64, prog, in, line);
            return CLI_EXIT_FAIL;
        }
    }
    return -1;
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

    uint8_t *data = NULL;
    size_t n = 0;
    rsv_status st = cli_read_all(in, &data, &n);
    if (st) {
        if (st == RSV_ERR_IO) cli_error(st, "%s: '%s': %s", prog, in, strerror(errno));
        else cli_error(st, "%s: '%s'", prog, in);
        return CLI_EXIT_FAIL;
    }
    cli_records rs;
    cli_records_init(&rs);
    int rc = parse_input(prog, in, fm, data, n, &rs);
    free(data);
    if (rc >= 0) goto done;
    cli_records_resolve(&rs);
    if (sort) {
        cli_records_sort(&rs);
        size_t d = cli_records_first_duplicate(&rs);
        if (d < rs.n) {
            cli_error(RSV_ERR_UNSORTED, "%s: '%s' line %" PRIu64 ": duplicate key (also on line %" PRIu64 ")",
                      prog, in, rs.v[d].line, rs.v[d - 1].line);
            rc = CLI_EXIT_FAIL;
            goto done;
        }
    }
    size_t failed;
    st = cli_records_write(&rs, &o.policy, cli_kv_opts_code(&o), o.code_bits, 0, 1, out, &failed);
    if (st == RSV_ERR_UNSORTED && failed < rs.n && failed > 0) {
        cli_error(st, "%s: '%s' line %" PRIu64 ": key is not greater than the key on line %" PRIu64
                      " (use --sort to sort the input)",
                  prog, in, rs.v[failed].line, rs.v[failed - 1].line);
    } else if (st && failed < rs.n) {
        cli_error(st, "%s: '%s' line %" PRIu64, prog, in, rs.v[failed].line);
    } else if (st == RSV_ERR_BAD_BACKSPACE || st == RSV_ERR_BAD_POLICY || st == RSV_ERR_TOO_LARGE) {
        cli_error(st, "%s: policy B=%s:%" PRIu64 " W=%" PRIu64 " K=%" PRIu64 ", selector %" PRIu64 " bits",
                  prog, o.policy.code == RSV_BACKSPACE_EG ? "eg" : "golomb", o.policy.param, o.policy.W,
                  o.policy.K, o.have_code ? o.code_bits : 1);
    } else if (st == RSV_ERR_IO) {
        cli_error(st, "%s: writing '%s'", prog, out);
    } else if (st) {
        cli_error(st, "%s: '%s'", prog, out);
    }
    rc = st ? CLI_EXIT_FAIL : CLI_EXIT_OK;
done:
    cli_records_free(&rs);
    return rc;
}
