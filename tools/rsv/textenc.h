/* rsv — byte strings (keys and values) as text, in the forms documented in
 * docs/rsv.md (TEXT FORMATS):
 *   quoted  "..." : bytes 0x20-0x7E as themselves except " and \ (written \"
 *                   and \\), every other byte as \xHH (lowercase hex);
 *   hex           : two lowercase hex digits per byte;
 *   TSV field     : bytes as themselves except TAB \t, LF \n, CR \r,
 *                   backslash \\ and other bytes < 0x20 or >= 0x7F as \xHH;
 *   JSON          : a JSON string when every byte is ASCII (controls and
 *                   0x7F as \u00XX, " and \ escaped), else {"hex": "..."}.
 * Decoding of TSV fields is here too; JSON lines are parsed in jsonl.c. */
#ifndef RSV_TEXTENC_H
#define RSV_TEXTENC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bytebuf.h"
#include "reservoir/status.h"

void cli_put_quoted(FILE *out, const uint8_t *p, size_t n);
void cli_put_hex(FILE *out, const uint8_t *p, size_t n);
void cli_put_tsv(FILE *out, const uint8_t *p, size_t n);
void cli_put_json(FILE *out, const uint8_t *p, size_t n);

/* Value of one hex digit, or -1. */
int cli_hex_digit(int c);

/* Decode a TSV field s[0, n) (escapes \t \n \r \\ \xHH) and append the bytes
 * to out. RSV_ERR_INVALID_ARGUMENT with *why and *at (index in s) for a bad
 * escape; RSV_ERR_NOMEM / RSV_ERR_TOO_LARGE from the buffer. The tombstone
 * marker \N is recognised by the caller, not here. */
rsv_status cli_tsv_decode(const uint8_t *s, size_t n, cli_buf *out, const char **why, size_t *at);

#endif
