/* rsv merge — merge KV03 files (KV03.md §11.2) into a new file with the
 * codec's merge and its temporary + fsync + rename output. Inputs are mapped
 * read-only and, by default, fully verified first (the merge itself does not
 * re-check CRCs, gaps, padding or EF canonicity, §11.2). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "kvfile.h"
#include "outfile.h"
#include "selector.h"
#include "signals.h"
#include "reservoir/merge.h"

static void merge_help(FILE *out)
{
    fputs("Usage: rsv merge [--drop-tombstones] [--no-verify] OUT IN...\n"
          "\n"
          "Merge the KV03 files IN... (at least two, oldest first, newest last) into\n"
          "OUT: the sorted union of their (selector, key) pairs, each with the\n"
          "binding of the newest input holding it (a newer tombstone hides an older\n"
          "value). Inputs may have different selector codes as long as all their\n"
          "codes together are prefix-free (inputs coded 0 and 1 give a two-code file).\n"
          "OUT is written to a temporary file, fsync'd and renamed: on any failure\n"
          "no new file is left and an existing OUT is kept. Inputs are only read.\n"
          "\n"
          "Options:\n"
          "  --drop-tombstones  remove keys whose newest binding is a tombstone; only\n"
          "                     valid when IN... hold the complete data set\n"
          "  --no-verify        skip the full verification (rsv verify) of each input\n"
          "                     before merging; the merge still checks the framing,\n"
          "                     key order and block offsets it reads\n"
          "  -h, --help         show this help and exit\n"
          "\n"
          "Errors name the input: rsv: merge: input #K 'PATH': ...: NAME: MESSAGE\n"
          "(K counts from 1 = oldest). Exit status: 0 merged, 1 an input is invalid,\n"
          "the inputs disagree on policy or their selector codes are not prefix-free\n"
          "(RSV_ERR_MERGE_MISMATCH) or an I/O error, 2 usage error (fewer than two\n"
          "inputs, OUT is an input or an existing non-regular file such as a\n"
          "directory, device or symbolic link).\n",
          out);
}

/* The codes of an opened file (none for the empty file; C0 for m = 1). */
static uint64_t codes_of(const rsv_kv03_file *f)
{
    return f->N ? (rsv_kv03_code_count(f) ? rsv_kv03_code_count(f) : 1) : 0;
}

/* MERGE_MISMATCH at input k whose policy equals the first input's: its
 * codes and an earlier input's are not prefix-free (KV03.md §11.2). Names a
 * conflicting pair (a search over the dictionaries, on this failure only). */
static int code_conflict(const char *prog, rsv_kv03_file *files, char (*labels)[1100], size_t k)
{
    for (uint64_t a = 0; a < codes_of(&files[k]); a++) {
        rsv_view x, y;
        if (rsv_kv03_code(&files[k], a, &x) || x.len > RSV_KV03_MAX_CODE_BITS) continue;
        for (size_t i = 0; i < k; i++)
            for (uint64_t b = 0; b < codes_of(&files[i]); b++) {
                if (rsv_kv03_code(&files[i], b, &y) || y.len > RSV_KV03_MAX_CODE_BITS) continue;
                uint8_t xb[CLI_SELECTOR_BYTES], yb[CLI_SELECTOR_BYTES];
                cli_selector_from_view(xb, x);
                cli_selector_from_view(yb, y);
                if (!cli_selector_conflict(xb, x.len, yb, y.len)) continue;
                char xt[RSV_KV03_MAX_CODE_BITS + 1], yt[RSV_KV03_MAX_CODE_BITS + 1];
                cli_selector_view_text(xt, x);
                cli_selector_view_text(yt, y);
                cli_error(RSV_ERR_MERGE_MISMATCH, "%s: %s: selector '%s' and selector '%s' of %s are not "
                          "prefix-free (one is a prefix of the other)", prog, labels[k], xt, yt, labels[i]);
                return 1;
            }
    }
    return 0;
}

int cmd_merge(int argc, char **argv, const char *prog)
{
    const char *a;
    const char **paths = calloc((size_t)argc + 1, sizeof *paths);
    size_t npaths = 0;
    unsigned flags = 0;
    int verify = 1, is_opt, rc = -1;
    cli_iter it;
    if (!paths) {
        cli_error(RSV_ERR_NOMEM, "%s", prog);
        return CLI_EXIT_FAIL;
    }
    cli_iter_init(&it, argc, argv);
    while (rc < 0 && (a = cli_next(&it, &is_opt)) != NULL) {
        if (!is_opt) paths[npaths++] = a;
        else if (cli_is_help(a)) {
            merge_help(stdout);
            rc = cli_finish_stdout(prog, CLI_EXIT_OK);
        } else if (cli_flag(a, "--drop-tombstones")) flags |= RSV_MERGE_DROP_TOMBSTONES;
        else if (cli_flag(a, "--no-verify")) verify = 0;
        else rc = cli_usage_error(prog, "unknown option '%s'", a);
    }
    if (rc < 0 && npaths < 3)
        rc = cli_usage_error(prog, npaths ? "need at least two inputs after OUT" : "missing OUT and inputs");
    for (size_t i = 1; rc < 0 && i < npaths; i++)
        if (cli_same_file(paths[0], paths[i]))
            rc = cli_usage_error(prog, "OUT '%s' is also input #%zu", paths[0], i);
    if (rc < 0) rc = cli_check_output(prog, paths[0], 0, NULL, NULL, 0);
    if (rc >= 0) {
        free(paths);
        return rc;
    }

    const char *out = paths[0];
    size_t n = npaths - 1;
    rsv_kv03_file *files = calloc(n, sizeof *files);
    const rsv_kv03_file **inputs = calloc(n, sizeof *inputs);
    char (*labels)[1100] = calloc(n, sizeof *labels);
    size_t opened = 0;
    rc = CLI_EXIT_FAIL;
    if (!files || !inputs || !labels) {
        cli_error(RSV_ERR_NOMEM, "%s", prog);
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        snprintf(labels[i], sizeof labels[i], "input #%zu '%s'", i + 1, paths[i + 1]);
        if (cli_kv_open(prog, labels[i], paths[i + 1], &files[i]) >= 0) goto out;
        opened++;
        inputs[i] = &files[i];
        if (verify) {
            rsv_kv03_diag d;
            rsv_status st = rsv_kv03_scan(&files[i], &d);
            if (st) {
                cli_kv_scan_error(prog, labels[i], &files[i], st, d);
                goto out;
            }
        }
    }
    rsv_merge m;
    /* Streaming: output records go to a temporary next to OUT as they are
     * merged (bounded memory); OUT appears only on success. The temporary is
     * recorded for the signal handlers before any signal can see it. */
    cli_signals_block();
    rsv_status st = rsv_merge_init_path(&m, inputs, n, flags, out);
    int err = errno;
    cli_out_op op = CLI_OUT_CREATE;
    if (!st) cli_temp_arm(rsv_merge_temp_path(&m));
    cli_signals_unblock();
    if (!st) {
        cli_test_pause(0);
        op = CLI_OUT_WRITE;
        int done = 0;
        while (!st && !done) {
            st = rsv_merge_step(&m, &done);
            err = errno;
            if (!st && !done) cli_test_pause(rsv_merge_emitted(&m));
        }
    }
    if (!st) {
        op = CLI_OUT_COMMIT;
        st = rsv_merge_commit(&m);
        err = errno;
        cli_temp_disarm();
    }
    if (st) {
        rsv_kv03_diag d = rsv_merge_diag(&m);
        size_t k = rsv_merge_failed_input(&m);
        if (st == RSV_ERR_MERGE_MISMATCH && k < n) {
            if (!rsv_kv03_policy_equal(&files[k].policy, &files[0].policy) ||
                !code_conflict(prog, files, labels, k))
                cli_error(st, "%s: %s differs from the earlier inputs", prog, labels[k]);
        }
        else if (k < n && d.status != RSV_OK)
            cli_kv_walk_error(prog, labels[k], &files[k], d);
        else
            cli_output_error(prog, out, op, err, st);
    } else {
        rc = CLI_EXIT_OK;
    }
    rsv_merge_free(&m);
    cli_temp_disarm();
out:
    for (size_t i = 0; i < opened; i++) cli_kv_close(&files[i]);
    free(files);
    free(inputs);
    free(labels);
    free(paths);
    return rc;
}
