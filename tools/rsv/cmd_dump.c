/* rsv dump — print every record of a KV03 file (key and value, the three
 * value states kept apart) in one of four text forms. Reads through the
 * codec's cursor with values materialized (rsv_kv03_cursor_record); it checks
 * the framing and key order of the data stream but not the CRCs or the index
 * sections (that is `rsv verify`). */
#include <stdint.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "kvfile.h"
#include "selector.h"
#include "signals.h"
#include "textenc.h"

typedef enum { FORM_TEXT, FORM_HEX, FORM_JSON, FORM_TSV } form;

static void dump_help(FILE *out)
{
    fputs("Usage: rsv dump [--hex | --json | --tsv] FILE\n"
          "\n"
          "Print every record of the KV03 file FILE, one line per record, in order of\n"
          "(selector, key). In a file with two or more selector codes every line\n"
          "starts with the record's code as 0/1 characters: SELECTOR<TAB> before\n"
          "the forms below, or {\"selector\": \"0110\", \"key\": ...} with --json\n"
          "(the input forms of 'rsv write --from tsv --selector-column' and\n"
          "'--from jsonl'); one-code files print no selector.\n"
          "\n"
          "Forms:\n"
          "  (default)  \"KEY\"<TAB>\"VALUE\": bytes 0x20-0x7e as themselves (\\\" and \\\\\n"
          "             escaped), others as \\xHH; a tombstone is (tombstone), a\n"
          "             present-empty value \"\"\n"
          "  --hex      KEY<TAB>VALUE in lowercase hex; an empty string is \"\",\n"
          "             a tombstone (tombstone)\n"
          "  --json     JSON lines {\"key\": K, \"value\": V}: K and V are JSON strings\n"
          "             when all bytes are ASCII, else {\"hex\": \"...\"}; a tombstone\n"
          "             is null (input form of 'rsv write --from jsonl')\n"
          "  --tsv      the TSV input form of 'rsv write --from tsv' (escapes \\t \\n\n"
          "             \\r \\\\ \\xHH, tombstone \\N, present-empty = empty field)\n"
          "\n"
          "Options:\n"
          "  -h, --help  show this help and exit\n"
          "\n"
          "dump checks the data stream's framing and key order as it goes, not the\n"
          "CRCs or the index sections (use 'rsv verify'). Exit status: 0 success,\n"
          "1 open or walk failure (records before it are printed), 2 usage error.\n",
          out);
}

static void put_bytes(form fm, const uint8_t *p, size_t n)
{
    switch (fm) {
    case FORM_TEXT: cli_put_quoted(stdout, p, n); break;
    case FORM_HEX:
        if (n == 0) fputs("\"\"", stdout);
        else cli_put_hex(stdout, p, n);
        break;
    case FORM_JSON: cli_put_json(stdout, p, n); break;
    case FORM_TSV: cli_put_tsv(stdout, p, n); break;
    }
}

/* sel: the record's selector code as 0/1 characters in a file with two or
 * more codes, else NULL (one-code files print as they always did). */
static void put_record(form fm, const rsv_kv03_entry *e, const char *sel)
{
    int tomb = e->value.kind == RSV_VALUE_TOMBSTONE;
    if (sel && fm == FORM_JSON) printf("{\"selector\": \"%s\", ", sel);
    else if (sel) printf("%s\t", sel);
    if (fm == FORM_JSON) fputs(sel ? "\"key\": " : "{\"key\": ", stdout);
    put_bytes(fm, e->key, e->key_len);
    fputs(fm == FORM_JSON ? ", \"value\": " : "\t", stdout);
    if (!tomb) put_bytes(fm, e->value.data, e->value.len);
    else if (fm == FORM_JSON) fputs("null", stdout);
    else if (fm == FORM_TSV) fputs("\\N", stdout);
    else fputs("(tombstone)", stdout);
    fputs(fm == FORM_JSON ? "}\n" : "\n", stdout);
}

int cmd_dump(int argc, char **argv, const char *prog)
{
    static const char *const flags[] = {"--hex", "--json", "--tsv"};
    static const form forms[] = {FORM_HEX, FORM_JSON, FORM_TSV};
    cli_kv_cmd c;
    int rc = cli_kv_cmd_args(&c, argc, argv, prog, dump_help, flags, 3);
    if (rc >= 0) return rc;
    if (c.nflags_given > 1) return cli_usage_error(prog, "give at most one of --hex, --json, --tsv");
    form fm = FORM_TEXT;
    for (int k = 0; k < 3; k++)
        if (c.flag[k]) fm = forms[k];
    if ((rc = cli_kv_cmd_open(&c, prog)) >= 0) return rc;
    const rsv_kv03_file *f = &c.f;
    rsv_kv03_cursor cur;
    rsv_kv03_entry e;
    int more = 1;
    rsv_status st = rsv_kv03_cursor_init(&cur, f); /* reads the dictionary (§6.3) */
    /* Two or more codes: every line carries its code, cached per index. */
    int multi = rsv_kv03_code_count(f) >= 2;
    char sel[RSV_KV03_MAX_CODE_BITS + 1];
    uint64_t sel_index = UINT64_MAX;
    unsigned long long done = 0;
    cli_test_pause(done);
    while (!st && (st = rsv_kv03_cursor_record(&cur, &e, &more)) == RSV_OK && more) {
        if (multi && e.code != sel_index) {
            rsv_view v;
            st = rsv_kv03_code(f, e.code, &v);
            if (!st && v.len > RSV_KV03_MAX_CODE_BITS) st = RSV_ERR_TOO_LARGE;
            if (st) break; /* neither happens after the dictionary check passed */
            cli_selector_view_text(sel, v);
            sel_index = e.code;
        }
        put_record(fm, &e, multi ? sel : NULL);
        cli_test_pause(++done);
    }
    rc = CLI_EXIT_OK;
    if (st) {
        fflush(stdout); /* the records before the failure come first */
        cli_kv_cursor_error(prog, c.label, f, st, rsv_kv03_cursor_diag(&cur));
        rc = CLI_EXIT_FAIL;
    }
    rsv_kv03_cursor_free(&cur);
    return cli_kv_cmd_close(&c, prog, rc);
}
