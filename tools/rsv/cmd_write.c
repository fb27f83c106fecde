/* rsv write — build a KV03 file from records given as TSV or JSON lines.
 * Without --sort each line is parsed and streamed to the codec's path writer
 * at once (bounded memory); with --sort the input is held, sorted, then
 * written. Either way the output is a temporary + fsync + rename, so a
 * syntax error anywhere leaves no output (the temporary is removed). */
#define _POSIX_C_SOURCE 200809L /* fdopen */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "kvpolicy.h"
#include "outfile.h"
#include "records.h"
#include "signals.h"
#include "selector.h"
#include "write_input.h"

#include <unistd.h>

static void write_help(FILE *out)
{
    fputs("Usage: rsv write --from tsv|jsonl [--sort] [--policy eg:K|golomb:M]\n"
          "                 [--block W] [--group K] [--selector BITS | --selector-column]\n"
          "                 IN OUT\n"
          "       rsv write --from FILE.tsv|FILE.jsonl [options] OUT\n"
          "\n"
          "Write the records of IN ('-' = standard input) as the KV03 file OUT\n"
          "(temporary file, fsync, rename: OUT is complete or untouched).\n"
          "\n"
          "Input forms (one record per line, in strictly increasing order of\n"
          "(selector, key) unless --sort):\n"
          "  tsv    KEY<TAB>VALUE; escapes \\t \\n \\r \\\\ \\xHH in both fields; a value\n"
          "         field of exactly \\N is a tombstone, an empty value field is a\n"
          "         present-empty value; exactly one raw TAB per line. With\n"
          "         --selector-column: SELECTOR<TAB>KEY<TAB>VALUE\n"
          "  jsonl  {\"key\": K, \"value\": V} with K, V a JSON string (its UTF-8\n"
          "         bytes) or {\"hex\": \"...\"} (raw bytes), V = null for a\n"
          "         tombstone, and optionally \"selector\": \"0110\" (the record's\n"
          "         selector code; absent: --selector); blank lines are skipped\n"
          "         ('rsv dump --json' output)\n"
          "\n"
          "Options:\n"
          "  --from FORM       tsv or jsonl (required); or an input file whose name\n"
          "                    ends in .tsv or .jsonl/.json (then only OUT follows)\n"
          "  --sort            sort the records by (selector, key) first (duplicate\n"
          "                    pairs are still rejected)\n"
          "  --policy CODE     backspace code B: eg:K (0..63) or golomb:M; default eg:0\n"
          "  --block W         records per codec block, 1..2^32-1; default W = K\n"
          "  --group K         group size, 2^n-1 with n >= 2; default 15\n"
          "  --selector BITS   selector code of records without their own, as 0/1\n"
          "                    characters, 0..512 bits ('' is the empty code);\n"
          "                    default 0\n"
          "  --selector-column TSV lines start with a column holding the record's\n"
          "                    selector code as 0/1 characters\n"
          "  -h, --help        show this help and exit\n"
          "\n"
          "Records are ordered by selector code (as a bit string), then by key; the\n"
          "codes of a file must be prefix-free (KV03.md 1.2). Lines end in LF or\n"
          "CR LF (the CR is not data; write a real CR as \\r). A UTF-8 byte order\n"
          "mark at the start is an error. Without --sort records stream to OUT\n"
          "(memory independent of the input size); --sort holds the whole input\n"
          "(about 2.5 x its size). OUT must not be an input, '-' or an existing\n"
          "non-regular file (directory, symbolic link, device, FIFO).\n"
          "\n"
          "Exit status: 0 written; 1 malformed input or selector text\n"
          "(RSV_ERR_INVALID_ARGUMENT with the line and column), a selector over 512\n"
          "bits (RSV_ERR_TOO_LARGE), selectors that are not prefix-free\n"
          "(RSV_ERR_SELECTOR_PREFIX), unsorted or duplicate (selector, key) pairs\n"
          "(RSV_ERR_UNSORTED), a policy the codec rejects (RSV_ERR_BAD_BACKSPACE,\n"
          "RSV_ERR_BAD_POLICY) or an I/O error; 2 usage error.\n",
          out);
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

/* The code a record is written with: its own, or the default (--selector,
 * else C0 = `0`). */
static const uint8_t c0_default[1] = {0};

/* Bytes at offset off of the arena (an arena that never grew has no
 * buffer: empty keys, values and codes then point at a static byte). */
static const uint8_t *arena_at(const cli_buf *arena, size_t off)
{
    static const uint8_t none[1] = {0};
    return arena->p ? arena->p + off : none;
}

static void effective_code(const cli_kv_opts *o, const cli_rec *r, const cli_buf *arena,
                           const uint8_t **code, uint64_t *bits)
{
    if (r->has_code) *code = arena_at(arena, r->coff), *bits = r->cbits;
    else if (o->have_code) *code = o->code, *bits = o->code_bits;
    else *code = c0_default, *bits = 1;
}

/* RSV_ERR_SELECTOR_PREFIX (KV03.md §11.1 step 2) naming both codes. */
static void prefix_error(const char *prog, const char *in, uint64_t line, const uint8_t *code,
                         uint64_t bits, const uint8_t *other, uint64_t obits, uint64_t oline)
{
    char a[RSV_KV03_MAX_CODE_BITS + 1], b[RSV_KV03_MAX_CODE_BITS + 1];
    cli_selector_text(a, code, bits);
    cli_selector_text(b, other, obits);
    cli_error(RSV_ERR_SELECTOR_PREFIX, "%s: '%s' line %" PRIu64 ": selector '%s' and selector '%s' of line %" PRIu64
              " are not prefix-free (one is a prefix of the other)", prog, in, line, a, b, oline);
}

/* The codes written so far, each with the line of its first record (codes
 * that were accepted are contiguous runs: a return to an earlier code is
 * UNSORTED), for naming the earlier code of a SELECTOR_PREFIX failure. */
typedef struct seen_code {
    uint8_t code[CLI_SELECTOR_BYTES];
    uint64_t bits, line;
} seen_code;

typedef struct code_log {
    seen_code *v;
    size_t n, cap;
} code_log;

static rsv_status log_code(code_log *l, const uint8_t *code, uint64_t bits, uint64_t line)
{
    if (l->n) {
        const seen_code *t = &l->v[l->n - 1];
        if (t->bits == bits && memcmp(t->code, code, (size_t)(bits + 7) / 8) == 0) return RSV_OK;
    }
    if (l->n == l->cap) {
        size_t ncap = l->cap ? l->cap * 2 : 8;
        seen_code *nv = realloc(l->v, ncap * sizeof *nv);
        if (!nv) return RSV_ERR_NOMEM;
        l->v = nv;
        l->cap = ncap;
    }
    seen_code *t = &l->v[l->n++];
    memset(t->code, 0, sizeof t->code);
    memcpy(t->code, code, (size_t)(bits + 7) / 8);
    t->bits = bits;
    t->line = line;
    return RSV_OK;
}

/* Why record `line` (code, bits) could not be added after `prev_line`. */
static void add_error(const char *prog, const char *in, rsv_status st, uint64_t line, uint64_t prev_line,
                      const uint8_t *code, uint64_t bits, const code_log *l)
{
    if (st == RSV_ERR_SELECTOR_PREFIX) {
        for (size_t i = 0; i < l->n; i++)
            if (cli_selector_conflict(code, bits, l->v[i].code, l->v[i].bits)) {
                prefix_error(prog, in, line, code, bits, l->v[i].code, l->v[i].bits, l->v[i].line);
                return;
            }
    } else if (st == RSV_ERR_UNSORTED && l->n) {
        const seen_code *t = &l->v[l->n - 1]; /* the previous record's code */
        if (t->bits == bits && memcmp(t->code, code, (size_t)(bits + 7) / 8) == 0) {
            cli_error(st, "%s: '%s' line %" PRIu64 ": key is not greater than the key on line %" PRIu64
                          " (use --sort to sort the input)", prog, in, line, prev_line);
        } else {
            char a[RSV_KV03_MAX_CODE_BITS + 1], b[RSV_KV03_MAX_CODE_BITS + 1];
            cli_selector_text(a, code, bits);
            cli_selector_text(b, t->code, t->bits);
            cli_error(st, "%s: '%s' line %" PRIu64 ": selector '%s' is not greater than selector '%s' on line %"
                          PRIu64 " (records are ordered by selector, then key; use --sort to sort the input)",
                      prog, in, line, a, b, prev_line);
        }
        return;
    }
    cli_error(st, "%s: '%s' line %" PRIu64, prog, in, line);
}

/* Without --sort: every record goes to the path writer as soon as it is
 * parsed (memory: the longest line plus the writer's bound), so a syntax
 * error or an unsorted key stops the write and removes the temporary. */
static int write_streaming(const cli_input *inp, const char *out, FILE *fp, const cli_kv_opts *o)
{
    const char *prog = inp->prog, *in = inp->path;
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
    code_log seen = {NULL, 0, 0};
    char *buf = NULL;
    size_t cap = 0, n;
    const uint8_t *s, *code;
    uint64_t line = 0, prev_line = 0, bits;
    unsigned long long done = 0;
    int rc = -1, got;
    while (rc < 0 && (got = cli_input_next(fp, &buf, &cap, &s, &n)) > 0) {
        cli_rec r;
        rs.arena.len = 0;
        int pr = cli_input_line(inp, s, n, ++line, &rs, &r, "");
        if (pr >= 0) {
            if (pr) rc = pr;
            continue;
        }
        effective_code(o, &r, &rs.arena, &code, &bits);
        rsv_value v = r.tombstone ? rsv_value_tombstone() : rsv_value_present(arena_at(&rs.arena, r.voff), r.vlen);
        st = rsv_kv03_writer_add_coded(&w, r.has_code ? code : NULL, bits, arena_at(&rs.arena, r.koff), r.klen, v);
        if (!st) st = log_code(&seen, code, bits, line);
        if (st == RSV_ERR_IO) {
            cli_output_error(prog, out, CLI_OUT_WRITE, errno, st);
            rc = CLI_EXIT_FAIL;
        } else if (st) {
            add_error(prog, in, st, line, prev_line, code, bits, &seen);
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
    free(seen.v);
    cli_records_free(&rs);
    return rc;
}

#define HOLDS " (--sort holds the whole input in memory)"

/* With --sort: the whole input is parsed into memory, sorted by logical
 * key, checked for duplicate (selector, key) pairs, then written. */
static int write_sorted(const cli_input *inp, const char *out, FILE *fp, const cli_kv_opts *o)
{
    const char *prog = inp->prog, *in = inp->path;
    cli_records rs;
    cli_records_init(&rs);
    char *buf = NULL;
    size_t cap = 0, n;
    const uint8_t *s;
    uint64_t line = 0;
    int rc = -1, got;
    while (rc < 0 && (got = cli_input_next(fp, &buf, &cap, &s, &n)) > 0) {
        cli_rec r;
        int pr = cli_input_line(inp, s, n, ++line, &rs, &r, HOLDS);
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
    cli_records_resolve(&rs, cli_kv_opts_code(o), o->code_bits);
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
    if (st == RSV_ERR_SELECTOR_PREFIX && failed < rs.n) {
        /* the first record in sorted order whose code conflicts */
        const cli_rec *f = &rs.v[failed];
        for (size_t j = 0; j < failed; j++)
            if (cli_selector_conflict(f->code, f->cbits, rs.v[j].code, rs.v[j].cbits)) {
                prefix_error(prog, in, f->line, f->code, f->cbits, rs.v[j].code, rs.v[j].cbits, rs.v[j].line);
                break;
            }
    } else if (st && failed < rs.n) {
        cli_error(st, "%s: '%s' line %" PRIu64, prog, in, rs.v[failed].line);
    } else if (is_policy_error(st) && op == CLI_OUT_CREATE) {
        policy_error(prog, st, o);
    } else if (st) {
        cli_output_error(prog, out, op, err, st);
    }
    rc = st ? CLI_EXIT_FAIL : CLI_EXIT_OK;
done:
    cli_records_free(&rs);
    return rc;
}

/* `--from records.tsv OUT` names the input and its form at once. */
static cli_from form_of_path(const char *path)
{
    size_t n = strlen(path);
    if (n > 4 && strcmp(path + n - 4, ".tsv") == 0) return CLI_FROM_TSV;
    if (n > 6 && strcmp(path + n - 6, ".jsonl") == 0) return CLI_FROM_JSONL;
    if (n > 5 && strcmp(path + n - 5, ".json") == 0) return CLI_FROM_JSONL;
    return CLI_FROM_NONE;
}

int cmd_write(int argc, char **argv, const char *prog)
{
    const char *pos[2] = {NULL, NULL}, *a, *val;
    int npos = 0, sort = 0, is_opt, got;
    cli_from fm = CLI_FROM_NONE;
    int selector_column = 0;
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
        } else if (cli_flag(a, "--selector-column")) {
            selector_column = 1;
        } else if ((got = cli_value(&it, a, "--from", &val)) != 0) {
            if (got < 0) return cli_usage_error(prog, "--from needs a value");
            if (strcmp(val, "tsv") == 0) fm = CLI_FROM_TSV;
            else if (strcmp(val, "jsonl") == 0) fm = CLI_FROM_JSONL;
            else if ((fm = form_of_path(val)) != CLI_FROM_NONE) from_path = val;
            else return cli_usage_error(prog, "--from '%s': expected tsv, jsonl or a .tsv/.jsonl file", val);
        } else if ((got = cli_kv_opts_take(&o, &it, a, prog)) != 0) {
            if (got < 0) return -got;
        } else {
            return cli_usage_error(prog, "unknown option '%s'", a);
        }
    }
    if (fm == CLI_FROM_NONE) return cli_usage_error(prog, "--from is required");
    if (selector_column && fm != CLI_FROM_TSV)
        return cli_usage_error(prog, "--selector-column needs TSV input (JSON lines carry \"selector\")");
    if (selector_column && o.have_code)
        return cli_usage_error(prog, "--selector and --selector-column exclude each other");
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
    cli_input inp = {prog, in, fm, selector_column};
    rc = sort ? write_sorted(&inp, out, fp, &o) : write_streaming(&inp, out, fp, &o);
    if (fp != stdin) fclose(fp);
    return rc;
}
