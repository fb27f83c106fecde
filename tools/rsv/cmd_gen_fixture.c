/* rsv gen-fixture — the native record fixtures of WORKLOADS.md §4 as KV03
 * files: keys, values and tombstones from mix(), sorted by key bytes, batch
 * written with EG0, W = K = 15, C0 = `0`; optionally the merge inputs of a
 * §4 split (by sorted position p), so that merging them can be compared with
 * the full file byte for byte. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "outfile.h"
#include "records.h"
#include "workloads.h"

#define MAX_RECORDS (UINT64_C(1) << 32)

static void gen_fixture_help(FILE *out)
{
    fputs("Usage: rsv gen-fixture [--records N] [--split disjoint|overlap\n"
          "                        [--older FILE --newer FILE]] {prefix|hash} {6|512} OUT\n"
          "\n"
          "Generate the WORKLOADS.md section 4 fixture <key shape>-<max> with N records\n"
          "and write it to OUT as a KV03 file (EG0, W = K = 15, C0 = 0):\n"
          "  prefix key  \"documents/persistent/shared/string/prefix/\" + BE64(i)\n"
          "  hash key    BE64(mix(i)) + BE64(mix(i + 0x12345678))\n"
          "  value       tombstone if i mod 17 = 0, else mix(i + 3) mod (max + 1)\n"
          "              bytes, byte j = low byte of mix(i * 65537 + j)\n"
          "for generation index i = 0..N-1, records sorted by key bytes.\n"
          "\n"
          "Options:\n"
          "  --records N      records (default 32768, at most 2^32)\n"
          "  --split S        also write the two merge inputs of split S, by sorted\n"
          "                   position p: disjoint = (even p, odd p), overlap =\n"
          "                   (all records, odd p); merging older then newer gives OUT\n"
          "  --older FILE     the older input's path (default: OUT without a final\n"
          "                   '.kv', plus '-older.kv')\n"
          "  --newer FILE     the newer input's path (default: ... '-newer.kv')\n"
          "  -h, --help       show this help and exit\n"
          "\n"
          "Prints one line 'PATH: N records' per file written. Exit status: 0 written,\n"
          "1 I/O or memory error, 2 usage error (including OUT, --older and --newer\n"
          "naming the same file, or an existing non-regular file).\n",
          out);
}

/* The shared §4 generator (tools/workloads), copied into the record list
 * the file writer takes; already in key order. */
static rsv_status generate(cli_records *rs, int hash, unsigned max, uint64_t n)
{
    rsv_wl_fixture fx;
    rsv_status st = rsv_wl_fixture_generate(&fx, hash, max, n);
    for (uint64_t p = 0; !st && p < n; p++) {
        const rsv_record *src = &fx.recs[p];
        cli_rec r;
        memset(&r, 0, sizeof r);
        r.line = p;
        r.koff = rs->arena.len;
        r.klen = src->key_len;
        if ((st = cli_buf_put(&rs->arena, src->key, r.klen))) break;
        r.voff = rs->arena.len;
        if (src->value.kind == RSV_VALUE_TOMBSTONE) {
            r.tombstone = 1;
        } else {
            r.vlen = src->value.len;
            if (r.vlen && (st = cli_buf_put(&rs->arena, src->value.data, r.vlen))) break;
        }
        st = cli_records_push(rs, &r);
    }
    rsv_wl_fixture_free(&fx);
    if (!st) cli_records_resolve(rs, NULL, 0);
    return st;
}

static int write_one(const char *prog, const cli_records *rs, size_t start, size_t step,
                     const char *path)
{
    rsv_kv03_policy p = rsv_kv03_policy_default();
    size_t failed;
    cli_out_op op;
    int err;
    rsv_status st = cli_records_write(rs, &p, NULL, 0, start, step, path, &failed, &op, &err);
    if (st) {
        cli_output_error(prog, path, op, err, st);
        return CLI_EXIT_FAIL;
    }
    size_t count = rs->n > start ? (rs->n - start + step - 1) / step : 0;
    printf("%s: %zu records\n", path, count);
    return -1;
}

/* OUT without a final ".kv", plus suffix (malloc'd). */
static char *derived(const char *out, const char *suffix)
{
    size_t n = strlen(out);
    if (n > 3 && strcmp(out + n - 3, ".kv") == 0) n -= 3;
    char *s = malloc(n + strlen(suffix) + 1);
    if (!s) return NULL;
    memcpy(s, out, n);
    strcpy(s + n, suffix);
    return s;
}

int cmd_gen_fixture(int argc, char **argv, const char *prog)
{
    const char *pos[3] = {NULL, NULL, NULL}, *a, *val, *split = NULL, *older = NULL, *newer = NULL;
    uint64_t n = 32768;
    int npos = 0, is_opt, got;
    cli_iter it;
    cli_iter_init(&it, argc, argv);
    while ((a = cli_next(&it, &is_opt)) != NULL) {
        const char *why;
        if (!is_opt) {
            if (npos == 3) return cli_usage_error(prog, "unexpected argument '%s'", a);
            pos[npos++] = a;
        } else if (cli_is_help(a)) {
            gen_fixture_help(stdout);
            return cli_finish_stdout(prog, CLI_EXIT_OK);
        } else if ((got = cli_value(&it, a, "--records", &val)) != 0) {
            why = got < 0 ? "needs a value" : cli_parse_u64(val, &n);
            if (!why && n > MAX_RECORDS) why = "more than 2^32";
            if (why) return cli_usage_error(prog, "--records: %s", why);
        } else if ((got = cli_value(&it, a, "--split", &val)) != 0) {
            if (got < 0) return cli_usage_error(prog, "--split needs a value");
            if (strcmp(val, "disjoint") != 0 && strcmp(val, "overlap") != 0)
                return cli_usage_error(prog, "--split '%s': expected disjoint or overlap", val);
            split = val;
        } else if ((got = cli_value(&it, a, "--older", &val)) != 0) {
            if (got < 0) return cli_usage_error(prog, "--older needs a value");
            older = val;
        } else if ((got = cli_value(&it, a, "--newer", &val)) != 0) {
            if (got < 0) return cli_usage_error(prog, "--newer needs a value");
            newer = val;
        } else {
            return cli_usage_error(prog, "unknown option '%s'", a);
        }
    }
    if (npos < 3) return cli_usage_error(prog, "expected {prefix|hash} {6|512} OUT");
    int hash;
    if (strcmp(pos[0], "prefix") == 0) hash = 0;
    else if (strcmp(pos[0], "hash") == 0) hash = 1;
    else return cli_usage_error(prog, "key shape '%s': expected prefix or hash", pos[0]);
    unsigned max;
    if (strcmp(pos[1], "6") == 0) max = 6;
    else if (strcmp(pos[1], "512") == 0) max = 512;
    else return cli_usage_error(prog, "max '%s': expected 6 or 512", pos[1]);
    if ((older || newer) && !split) return cli_usage_error(prog, "--older/--newer need --split");

    cli_records rs;
    cli_records_init(&rs);
    char *older_path = NULL, *newer_path = NULL;
    int rc = CLI_EXIT_FAIL;
    if (split) {
        older_path = older ? NULL : derived(pos[2], "-older.kv");
        newer_path = newer ? NULL : derived(pos[2], "-newer.kv");
        if ((!older && !older_path) || (!newer && !newer_path)) {
            cli_error(RSV_ERR_NOMEM, "%s", prog);
            goto out;
        }
        if (!older) older = older_path;
        if (!newer) newer = newer_path;
    }
    /* Every output checked before any is written: none may alias another
     * (the later write would replace the earlier one's result). */
    const char *outs[3] = {pos[2], older, newer};
    const char *names[3] = {"OUT", "--older", "--newer"};
    for (int i = 0; i < (split ? 3 : 1); i++) {
        if ((rc = cli_check_output(prog, outs[i], 0, outs, names, (size_t)i)) >= 0) goto out;
    }
    rc = CLI_EXIT_FAIL;
    rsv_status st = generate(&rs, hash, max, n);
    if (st) {
        cli_error(st, "%s: generating %" PRIu64 " records", prog, n);
        goto out;
    }
    if ((rc = write_one(prog, &rs, 0, 1, pos[2])) >= 0) goto out;
    if (split) {
        int kind = strcmp(split, "overlap") == 0 ? RSV_WL_SPLIT_OVERLAP : RSV_WL_SPLIT_DISJOINT;
        const char *in[2] = {older, newer};
        for (unsigned j = 0; j < 2; j++) {
            uint64_t start, step;
            rsv_wl_split_range(kind, 2, j, &start, &step);
            if ((rc = write_one(prog, &rs, (size_t)start, (size_t)step, in[j])) >= 0) goto out;
        }
    }
    rc = CLI_EXIT_OK;
out:
    free(older_path);
    free(newer_path);
    cli_records_free(&rs);
    return cli_finish_stdout(prog, rc);
}
