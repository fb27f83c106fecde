/* rsv — parsing and using the --code argument (see codespec.h). */
#include "codespec.h"

#include <string.h>

#include "cli.h"

const char *cli_code_parse(const char *s, cli_code *c)
{
    static const struct {
        const char *prefix;
        cli_code_kind kind;
    } kinds[] = {{"eg:", CLI_CODE_EG}, {"golomb:", CLI_CODE_GOLOMB}, {"fixed:", CLI_CODE_FIXED}};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        size_t n = strlen(kinds[i].prefix);
        if (strncmp(s, kinds[i].prefix, n) != 0) continue;
        const char *why = cli_parse_u64(s + n, &c->param);
        if (why) return why;
        c->kind = kinds[i].kind;
        memset(&c->g, 0, sizeof c->g);
        return NULL;
    }
    return "expected eg:K, golomb:M or fixed:W";
}

rsv_status cli_code_check(cli_code *c)
{
    switch (c->kind) {
    case CLI_CODE_EG: return c->param > 63 ? RSV_ERR_BAD_ORDER : RSV_OK;
    case CLI_CODE_FIXED: return c->param > 64 ? RSV_ERR_WIDTH : RSV_OK;
    case CLI_CODE_GOLOMB: return rsv_golomb_init(&c->g, c->param);
    }
    return RSV_ERR_INVALID_ARGUMENT;
}

rsv_status cli_code_put(const cli_code *c, rsv_writer *w, uint64_t v)
{
    switch (c->kind) {
    case CLI_CODE_EG: return rsv_put_eg(w, v, (unsigned)c->param);
    case CLI_CODE_FIXED: return rsv_put(w, v, (unsigned)c->param);
    case CLI_CODE_GOLOMB: return rsv_put_golomb(w, v, &c->g);
    }
    return RSV_ERR_INVALID_ARGUMENT;
}

rsv_status cli_code_get(const cli_code *c, rsv_reader *r, uint64_t *v)
{
    switch (c->kind) {
    case CLI_CODE_EG: return rsv_read_eg(r, (unsigned)c->param, v);
    case CLI_CODE_FIXED: return rsv_read(r, (unsigned)c->param, v);
    case CLI_CODE_GOLOMB: return rsv_read_golomb(r, &c->g, v);
    }
    return RSV_ERR_INVALID_ARGUMENT;
}
