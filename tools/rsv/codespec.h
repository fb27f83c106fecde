/* rsv — the --code argument: "eg:K", "golomb:M" or "fixed:W" (CODES.md §2-§4),
 * parsed once and then used to put or read values of that code. Shared by
 * every command that takes a code choice. */
#ifndef RSV_CODESPEC_H
#define RSV_CODESPEC_H

#include <stdint.h>

#include "reservoir/golomb.h"
#include "reservoir/reader.h"
#include "reservoir/status.h"
#include "reservoir/writer.h"

typedef enum cli_code_kind { CLI_CODE_EG, CLI_CODE_GOLOMB, CLI_CODE_FIXED } cli_code_kind;

typedef struct cli_code {
    cli_code_kind kind;
    uint64_t param; /* K, M or W as written */
    rsv_golomb g;   /* Golomb constants, valid when kind = GOLOMB and M != 0 */
} cli_code;

/* Parse the syntax "eg:K" | "golomb:M" | "fixed:W" (numbers as cli_parse_u64).
 * Returns NULL on success or a reason; does not judge the parameter's range. */
const char *cli_code_parse(const char *s, cli_code *c);

/* The spec's parameter check, as the codec itself would report it:
 * K > 63 → RSV_ERR_BAD_ORDER, M = 0 → RSV_ERR_BAD_MODULUS,
 * W > 64 → RSV_ERR_WIDTH, otherwise RSV_OK (and the Golomb constants are set). */
rsv_status cli_code_check(cli_code *c);

/* Append / read one value. Only valid after cli_code_check returned RSV_OK. */
rsv_status cli_code_put(const cli_code *c, rsv_writer *w, uint64_t v);
rsv_status cli_code_get(const cli_code *c, rsv_reader *r, uint64_t *v);

#endif
