/* rsv — the KV03 write options shared by commands that create files:
 * --policy eg:K|golomb:M, --block W, --group K, --selector BITS
 * (KV03.md §3.1, §1.2). Parsing only checks syntax; the ranges are the
 * codec's (rsv_kv03_writer_init reports BAD_BACKSPACE, BAD_POLICY,
 * TOO_LARGE). */
#ifndef RSV_KVPOLICY_H
#define RSV_KVPOLICY_H

#include <stdint.h>

#include "cli.h"
#include "reservoir/kv03.h"

typedef struct cli_kv_opts {
    rsv_kv03_policy policy;
    int have_block;                            /* W given; else W = K */
    uint8_t code[RSV_KV03_MAX_CODE_BITS / 8];  /* --selector, MSB-first */
    uint64_t code_bits;
    int have_code;                             /* else the default C0 = `0` */
} cli_kv_opts;

/* EG0, W = K = 15, C0 = `0`. */
void cli_kv_opts_init(cli_kv_opts *o);
/* Try option `arg` (taking its value from `it`): 1 consumed, 0 not one of
 * these options, or minus the exit status of an error already printed
 * (-CLI_EXIT_USAGE for bad syntax, -CLI_EXIT_FAIL for a too-long selector). */
int cli_kv_opts_take(cli_kv_opts *o, cli_iter *it, const char *arg, const char *prog);
/* Apply W = K when --block was not given. */
void cli_kv_opts_finish(cli_kv_opts *o);
/* NULL for the default code, else o->code. */
const uint8_t *cli_kv_opts_code(const cli_kv_opts *o);

#endif
