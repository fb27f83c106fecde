/* rsv write — one input line as a record: the TSV form (optionally with a
 * first column of selector codes) and the JSON-lines form (with an
 * optional "selector" member), see docs/rsv.md "Record text forms". Errors
 * are printed here, naming the input line and column. */
#ifndef RSV_WRITE_INPUT_H
#define RSV_WRITE_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "records.h"

typedef enum cli_from { CLI_FROM_NONE, CLI_FROM_TSV, CLI_FROM_JSONL } cli_from;

typedef struct cli_input {
    const char *prog, *path; /* for messages */
    cli_from form;
    int selector_column; /* TSV: SELECTOR<TAB>KEY<TAB>VALUE */
} cli_input;

/* Line s[0, n) (line ending removed) as record *r, its bytes appended to
 * rs->arena (key, value and a code of its own, packed, when the line gives
 * one). Returns -1 for a record, 0 for a skipped blank JSONL line, else the
 * exit status after printing the error (`note` is appended to errors that
 * are not about the text, such as an allocation failure). */
int cli_input_line(const cli_input *in, const uint8_t *s, size_t n, uint64_t line, cli_records *rs,
                   cli_rec *r, const char *note);

/* Next line of fp without its line ending: LF, or CR LF (a CR right before
 * the LF, or at the very end of the input, ends the line and is not data).
 * Returns 1 with *s, *n set, 0 at the end, -1 on a read error (errno). */
int cli_input_next(FILE *fp, char **buf, size_t *cap, const uint8_t **s, size_t *n);

#endif
