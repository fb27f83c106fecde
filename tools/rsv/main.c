/* rsv — the reservoir command-line tool: global options and the table of
 * top-level commands. Adding a command = one cmd_<name>.c, one declaration in
 * commands.h, one row below, one section in docs/rsv.md. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "signals.h"
#include "reservoir/version.h"

static const cli_command commands[] = {
    {"codes", "encode or decode count codes (exp-Golomb, Golomb, fixed fields)", cmd_codes},
    {"dump", "print every record of a KV03 file", cmd_dump},
    {"verify", "fully verify a KV03 file (open + scan)", cmd_verify},
    {"stat", "print the statistics and layout of a KV03 file", cmd_stat},
    {"write", "write a KV03 file from TSV or JSON-lines records", cmd_write},
    {"merge", "merge KV03 files, oldest first, into a new file", cmd_merge},
    {"gen-fixture", "generate a WORKLOADS.md section 4 record fixture", cmd_gen_fixture},
    {"gen-counts", "generate a WORKLOADS.md section 3 count-case bit stream", cmd_gen_counts},
};

static void help(FILE *out)
{
    fputs("Usage: rsv COMMAND [ARGS...]\n"
          "       rsv --help | --version\n"
          "\n"
          "Command-line tool for the reservoir bit codec and its KV03 files.\n"
          "\n"
          "Commands:\n",
          out);
    cli_print_commands(out, commands, sizeof commands / sizeof commands[0]);
    fputs("\n"
          "Options:\n"
          "  -h, --help   show this help and exit\n"
          "  --version    show the version and exit\n"
          "\n"
          "Run 'rsv COMMAND --help' for a command's options.\n"
          "Exit status: 0 success, 1 rejected or malformed data or I/O error, 2 usage error.\n",
          out);
}

int main(int argc, char **argv)
{
    cli_signals_install();
    if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
        printf("rsv (reservoir) %s\n", RSV_VERSION_STRING);
        return cli_finish_stdout("--version", CLI_EXIT_OK);
    }
    return cli_dispatch(commands, sizeof commands / sizeof commands[0], argc - 1, argv + 1, "",
                        help);
}
