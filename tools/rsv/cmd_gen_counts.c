/* rsv gen-counts — the count-case buffers of WORKLOADS.md §3: the 3-bit
 * lead-in `101`, then the V codes of the case with no separators, finished
 * (zero padded to a byte). The benchmark reads it from bit 3. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "outfile.h"
#include "reservoir/file_io.h"
#include "reservoir/writer.h"
#include "signals.h"
#include "workloads.h"

#define MAX_VALUES (UINT64_C(1) << 32)

static void gen_counts_help(FILE *out)
{
    fputs("Usage: rsv gen-counts [--values V] {eg0-small|eg0-wide|eg3|g7} OUT\n"
          "\n"
          "Write the WORKLOADS.md section 3 count-case buffer to OUT ('-' = standard\n"
          "output; the summary line then goes to standard error): the bits 101,\n"
          "then the codes of v_0 .. v_{V-1} with no separators, zero padded to a\n"
          "whole byte. For i = 0 .. V-1:\n"
          "  eg0-small  v_i = mix(i) AND 127                     exp-Golomb order 0\n"
          "  eg0-wide   v_i = mix(i) AND (2^(i mod 65) - 1)      exp-Golomb order 0\n"
          "             (all 64 bits when i mod 65 = 64)\n"
          "  eg3        v_i = mix(i) AND 1023                    exp-Golomb order 3\n"
          "  g7         v_i = mix(i) AND 127                     Golomb m = 7\n"
          "\n"
          "Prints one line on standard output:\n"
          "  bits=L offset=3 total=T values=V bytes=B\n"
          "L = T - 3 is the benchmark view length (the case's reported bits), T the\n"
          "bits written including the lead-in, B the file size.\n"
          "\n"
          "Options:\n"
          "  --values V   number of values (default 262144 = 8 x 32768, at most 2^32)\n"
          "  -h, --help   show this help and exit\n"
          "\n"
          "Exit status: 0 written, 1 I/O or memory error, 2 usage error.\n",
          out);
}

int cmd_gen_counts(int argc, char **argv, const char *prog)
{
    const char *pos[2] = {NULL, NULL}, *a, *val;
    uint64_t nvalues = 262144;
    int npos = 0, is_opt, got;
    cli_iter it;
    cli_iter_init(&it, argc, argv);
    while ((a = cli_next(&it, &is_opt)) != NULL) {
        if (!is_opt) {
            if (npos == 2) return cli_usage_error(prog, "unexpected argument '%s'", a);
            pos[npos++] = a;
        } else if (cli_is_help(a)) {
            gen_counts_help(stdout);
            return cli_finish_stdout(prog, CLI_EXIT_OK);
        } else if ((got = cli_value(&it, a, "--values", &val)) != 0) {
            const char *why = got < 0 ? "needs a value" : cli_parse_u64(val, &nvalues);
            if (!why && nvalues > MAX_VALUES) why = "more than 2^32";
            if (why) return cli_usage_error(prog, "--values: %s", why);
        } else {
            return cli_usage_error(prog, "unknown option '%s'", a);
        }
    }
    if (npos < 2) return cli_usage_error(prog, "expected CASE OUT");
    int c = -1;
    for (int k = 0; k < RSV_WL_COUNT_CASES; k++)
        if (strcmp(pos[0], rsv_wl_count_case_name((rsv_wl_count_case)k)) == 0) c = k;
    if (c < 0) return cli_usage_error(prog, "case '%s': expected eg0-small, eg0-wide, eg3 or g7", pos[0]);
    int rc = cli_check_output(prog, pos[1], 1, NULL, NULL, 0);
    if (rc >= 0) return rc;

    rsv_writer w;
    rsv_golomb g7;
    rsv_writer_init(&w);
    rsv_status st = rsv_golomb_init(&g7, 7);
    if (!st) st = rsv_put(&w, 5, 3); /* the lead-in `101` */
    for (uint64_t i = 0; !st && i < nvalues; i++) {
        uint64_t v = rsv_wl_count_value((rsv_wl_count_case)c, i);
        switch ((rsv_wl_count_case)c) {
        case RSV_WL_EG0_SMALL:
        case RSV_WL_EG0_WIDE: st = rsv_put_eg(&w, v, 0); break;
        case RSV_WL_EG3: st = rsv_put_eg(&w, v, 3); break;
        case RSV_WL_G7: st = rsv_put_golomb(&w, v, &g7); break;
        case RSV_WL_COUNT_CASES: break;
        }
    }
    uint64_t total = rsv_writer_bits(&w);
    uint8_t *bytes = NULL;
    size_t nbytes = 0;
    if (!st) st = rsv_writer_finish(&w, &bytes, &nbytes);
    rsv_writer_free(&w);
    if (st) {
        cli_error(st, "%s: encoding %s", prog, pos[0]);
        free(bytes);
        return CLI_EXIT_FAIL;
    }
    int to_stdout = strcmp(pos[1], "-") == 0;
    if (to_stdout) {
        st = fwrite(bytes, 1, nbytes, stdout) == nbytes ? RSV_OK : RSV_ERR_IO;
        free(bytes);
        if (st) return cli_finish_stdout(prog, CLI_EXIT_FAIL);
    } else {
        /* The codec's atomic write, with the cleanup signals held back: its
         * temporary is never left behind (a pending signal acts after it). */
        cli_signals_block();
        st = rsv_file_write_atomic(pos[1], bytes, nbytes);
        int err = errno;
        cli_signals_unblock();
        free(bytes);
        if (st) {
            cli_output_error(prog, pos[1], CLI_OUT_WRITE, err, st);
            return CLI_EXIT_FAIL;
        }
    }
    /* With OUT = '-' the data is on standard output: the summary goes to
     * standard error. */
    fprintf(to_stdout ? stderr : stdout, "bits=%" PRIu64 " offset=3 total=%" PRIu64 " values=%" PRIu64
            " bytes=%zu\n", total - 3, total, nvalues, nbytes);
    return cli_finish_stdout(prog, CLI_EXIT_OK);
}
