/* rsv — KV03 write options (see kvpolicy.h). */
#include "kvpolicy.h"

#include <string.h>

#include "codespec.h"
#include "selector.h"

void cli_kv_opts_init(cli_kv_opts *o)
{
    memset(o, 0, sizeof *o);
    o->policy = rsv_kv03_policy_default();
}

static int take_selector(cli_kv_opts *o, const char *s, const char *prog)
{
    size_t n = strlen(s), bad;
    rsv_status st = cli_selector_parse((const uint8_t *)s, n, o->code, &bad);
    if (st == RSV_ERR_INVALID_ARGUMENT)
        return -cli_usage_error(prog, "--selector: character '%c' is not 0 or 1", s[bad]);
    if (st) {
        /* the codec's own limit (KV03.md §1.2 allows rejecting > 512 bits) */
        cli_error(st, "%s: --selector has %zu bits, at most %d are supported", prog, n,
                  RSV_KV03_MAX_CODE_BITS);
        return -CLI_EXIT_FAIL;
    }
    o->code_bits = n;
    o->have_code = 1;
    return 1;
}

int cli_kv_opts_take(cli_kv_opts *o, cli_iter *it, const char *arg, const char *prog)
{
    const char *val, *why;
    int got;
    if ((got = cli_value(it, arg, "--policy", &val)) != 0) {
        cli_code c;
        if (got < 0) return -cli_usage_error(prog, "--policy needs a value");
        why = cli_code_parse(val, &c);
        if (!why && c.kind == CLI_CODE_FIXED) why = "fixed:W is not a backspace code";
        if (why) return -cli_usage_error(prog, "--policy '%s': %s (expected eg:K or golomb:M)", val, why);
        o->policy.code = c.kind == CLI_CODE_EG ? RSV_BACKSPACE_EG : RSV_BACKSPACE_GOLOMB;
        o->policy.param = c.param;
        return 1;
    }
    if ((got = cli_value(it, arg, "--block", &val)) != 0) {
        why = got < 0 ? "needs a value" : cli_parse_u64(val, &o->policy.W);
        if (why) return -cli_usage_error(prog, "--block: %s", why);
        o->have_block = 1;
        return 1;
    }
    if ((got = cli_value(it, arg, "--group", &val)) != 0) {
        why = got < 0 ? "needs a value" : cli_parse_u64(val, &o->policy.K);
        if (why) return -cli_usage_error(prog, "--group: %s", why);
        return 1;
    }
    if ((got = cli_value(it, arg, "--selector", &val)) != 0) {
        if (got < 0) return -cli_usage_error(prog, "--selector needs a value");
        return take_selector(o, val, prog);
    }
    return 0;
}

void cli_kv_opts_finish(cli_kv_opts *o)
{
    if (!o->have_block) o->policy.W = o->policy.K;
}

const uint8_t *cli_kv_opts_code(const cli_kv_opts *o)
{
    return o->have_code ? o->code : NULL;
}
