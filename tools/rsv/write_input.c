/* rsv write — input lines as records (see write_input.h). */
#define _POSIX_C_SOURCE 200809L /* getline */
#include "write_input.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "cli.h"
#include "jsonl.h"
#include "selector.h"
#include "textenc.h"

/* Parse one TSV line (KEY<TAB>VALUE) into a record. Returns RSV_OK or the
 * status after setting *why / *col (1-based column within s). */
static rsv_status tsv_line(const uint8_t *s, size_t n, cli_records *rs, cli_rec *r,
                           const char **why, size_t *col)
{
    const uint8_t *tab = memchr(s, '\t', n);
    if (!tab) {
        *why = "no TAB between key and value";
        *col = n + 1;
        return RSV_ERR_INVALID_ARGUMENT;
    }
    size_t klen = (size_t)(tab - s), at = 0;
    const uint8_t *v = tab + 1;
    size_t vlen = n - klen - 1;
    if (memchr(v, '\t', vlen)) {
        *why = "more than one TAB (write a TAB inside a field as \\t; a first column of "
               "selectors needs --selector-column)";
        *col = klen + 2 + (size_t)((const uint8_t *)memchr(v, '\t', vlen) - v);
        return RSV_ERR_INVALID_ARGUMENT;
    }
    r->koff = rs->arena.len;
    rsv_status st = cli_tsv_decode(s, klen, &rs->arena, why, &at);
    if (st) {
        *col = at + 1;
        return st;
    }
    r->klen = rs->arena.len - r->koff;
    r->voff = rs->arena.len;
    if (vlen == 2 && v[0] == '\\' && v[1] == 'N') {
        r->tombstone = 1;
        r->vlen = 0;
        return RSV_OK;
    }
    st = cli_tsv_decode(v, vlen, &rs->arena, why, &at);
    if (st) {
        *col = klen + 2 + at;
        return st;
    }
    r->vlen = rs->arena.len - r->voff;
    return RSV_OK;
}

static int only_blanks(const uint8_t *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r') return 0;
    return 1;
}

/* The selector text t[0, tn) of the record on `line`: checked (selector.h),
 * packed and recorded in *r. Columns for messages: with col_exact the text's
 * character k is at column col0 + k, else col0 names where the text starts.
 * The packed code (at most tn bytes) goes over the text itself at dst_off
 * when in_place (JSON: the string's bytes are already in the arena), else
 * it is appended to the arena. Returns -1, or the exit status after the
 * error was printed. */
static int take_code(const cli_input *in, uint64_t line, const uint8_t *t, size_t tn, size_t col0,
                     int col_exact, cli_records *rs, cli_rec *r, size_t dst_off, int in_place)
{
    uint8_t code[CLI_SELECTOR_BYTES];
    size_t bad = 0;
    rsv_status st = cli_selector_parse(t, tn, code, &bad);
    if (st == RSV_ERR_INVALID_ARGUMENT) {
        char what[16];
        if (t[bad] > 0x20 && t[bad] < 0x7F) snprintf(what, sizeof what, "'%c'", t[bad]);
        else snprintf(what, sizeof what, "byte 0x%02x", t[bad]);
        cli_error(st, "%s: '%s' line %" PRIu64 " column %zu: selector character %s is not 0 or 1",
                  in->prog, in->path, line, col_exact ? col0 + bad : col0, what);
        return CLI_EXIT_FAIL;
    }
    if (st) {
        cli_error(st, "%s: '%s' line %" PRIu64 " column %zu: selector has %zu bits, at most %d are supported",
                  in->prog, in->path, line, col0, tn, RSV_KV03_MAX_CODE_BITS);
        return CLI_EXIT_FAIL;
    }
    size_t nb = (tn + 7) / 8;
    r->has_code = 1;
    r->cbits = tn;
    if (in_place) {
        r->coff = dst_off;
        if (nb) memcpy(rs->arena.p + dst_off, code, nb);
        return -1;
    }
    r->coff = rs->arena.len;
    st = cli_buf_put(&rs->arena, code, nb);
    if (st) {
        cli_error(st, "%s: '%s' line %" PRIu64, in->prog, in->path, line);
        return CLI_EXIT_FAIL;
    }
    return -1;
}

int cli_input_line(const cli_input *in, const uint8_t *s, size_t n, uint64_t line, cli_records *rs,
                   cli_rec *r, const char *note)
{
    if (in->form == CLI_FROM_JSONL && only_blanks(s, n)) return 0;
    memset(r, 0, sizeof *r);
    r->line = line;
    const char *why = NULL;
    size_t col = 0, skip = 0; /* skip: bytes before the KEY<TAB>VALUE part */
    rsv_status st;
    int rc;
    if (line == 1 && n >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF) {
        cli_error(RSV_ERR_INVALID_ARGUMENT,
                  "%s: '%s' line 1 column 1: the input starts with a UTF-8 byte order mark (EF BB BF); "
                  "save it without one (in TSV, write \\xef\\xbb\\xbf if the key really starts with "
                  "those bytes)", in->prog, in->path);
        return CLI_EXIT_FAIL;
    }
    if (in->form == CLI_FROM_TSV) {
        if (in->selector_column) {
            const uint8_t *tab = memchr(s, '\t', n);
            if (!tab) {
                cli_error(RSV_ERR_INVALID_ARGUMENT, "%s: '%s' line %" PRIu64 " column %zu: no TAB after "
                          "the selector column (--selector-column)", in->prog, in->path, line, n + 1);
                return CLI_EXIT_FAIL;
            }
            skip = (size_t)(tab - s) + 1;
            if ((rc = take_code(in, line, s, skip - 1, 1, 1, rs, r, 0, 0)) >= 0) return rc;
        }
        st = tsv_line(s + skip, n - skip, rs, r, &why, &col);
        col += skip;
    } else {
        cli_json_record j;
        st = cli_jsonl_parse(s, n, &rs->arena, &j, &why, &col);
        col++;
        r->koff = j.koff, r->klen = j.klen, r->tombstone = j.tombstone, r->voff = j.voff, r->vlen = j.vlen;
        if (!st && j.has_selector &&
            (rc = take_code(in, line, rs->arena.p + j.soff, j.slen, j.sat + 1 + j.sraw, j.sraw, rs, r,
                            j.soff, 1)) >= 0)
            return rc;
    }
    if (st && why) {
        cli_error(st, "%s: '%s' line %" PRIu64 " column %zu: %s", in->prog, in->path, line, col, why);
        return CLI_EXIT_FAIL;
    }
    if (st) {
        cli_error(st, "%s: '%s' line %" PRIu64 "%s", in->prog, in->path, line, note);
        return CLI_EXIT_FAIL;
    }
    return -1;
}

int cli_input_next(FILE *fp, char **buf, size_t *cap, const uint8_t **s, size_t *n)
{
    errno = 0;
    ssize_t k = getline(buf, cap, fp);
    if (k < 0) return ferror(fp) ? -1 : 0;
    size_t len = (size_t)k;
    if (len && (*buf)[len - 1] == '\n') len--;
    if (len && (*buf)[len - 1] == '\r') len--;
    *s = (const uint8_t *)*buf;
    *n = len;
    return 1;
}
