/* rsv stat — the numbers of a KV03 file: header and directory fields as
 * opened (§9.1) plus value-state counts from one cursor walk (keys rebuilt,
 * values skipped). Like dump it checks framing and order, not CRCs. */
#include <inttypes.h>
#include <stdlib.h>

#include "cli.h"
#include "commands.h"
#include "kvfile.h"
#include "selector.h"
#include "signals.h"

static void stat_help(FILE *out)
{
    fputs("Usage: rsv stat [--json] FILE\n"
          "\n"
          "Print the statistics of the KV03 file FILE as 'name: value' lines (or one\n"
          "JSON object with --json): records, blocks, tombstones, present-empty and\n"
          "present values, data extent (bits), bits per record (data extent / records),\n"
          "policy (backspace code B, block W, group K), selector code (bits and the\n"
          "code itself; with two or more codes instead their number, dictionary and\n"
          "seed bits and one 'selector J: CODE records N' line per dictionary code),\n"
          "common value width cw, terminal key length, EF universe and\n"
          "low width, and the 8 sections with their body-relative offset and length\n"
          "in bytes (file offset = body offset + 96), as in KV03.md 5.\n"
          "\n"
          "Options:\n"
          "  --json      one JSON object instead of lines\n"
          "  -h, --help  show this help and exit\n"
          "\n"
          "stat walks the data stream (framing and key order are checked) but not\n"
          "the CRCs or index sections: use 'rsv verify'. Exit status: 0 success,\n"
          "1 open or walk failure, 2 usage error.\n",
          out);
}

typedef struct counts {
    uint64_t tombstones, empty, present;
    uint64_t m;          /* dictionary codes (0 for the empty file) */
    uint64_t *per_code;  /* records of dictionary code j, j < m */
} counts;

static void put_code(const rsv_kv03_file *f)
{
    cli_put_selector(stdout, f->code, f->dict_bits);
}

/* Dictionary code j (valid: the walk's dictionary check passed). */
static void put_dict_code(const rsv_kv03_file *f, uint64_t j)
{
    rsv_view v;
    if (rsv_kv03_code(f, j, &v) == RSV_OK) cli_put_selector_view(stdout, v);
}

static void put_policy(const rsv_kv03_file *f)
{
    printf("%s:%" PRIu64, f->policy.code == RSV_BACKSPACE_EG ? "eg" : "golomb", f->policy.param);
}

static void print_text(const char *path, const rsv_kv03_file *f, const counts *c)
{
    printf("file: %s\n", path);
    printf("file-bytes: %" PRIu64 "\n", f->size);
    printf("records: %" PRIu64 "\n", f->N);
    printf("blocks: %" PRIu64 "\n", f->nb);
    printf("tombstones: %" PRIu64 "\n", c->tombstones);
    printf("present-empty: %" PRIu64 "\n", c->empty);
    printf("present-nonempty: %" PRIu64 "\n", c->present);
    printf("data-extent-bits: %" PRIu64 "\n", f->extent);
    if (f->N) printf("bits-per-record: %.3f\n", (double)f->extent / (double)f->N);
    else printf("bits-per-record: -\n");
    fputs("policy: B=", stdout);
    put_policy(f);
    printf(" W=%" PRIu64 " K=%" PRIu64 "\n", f->policy.W, f->policy.K);
    if (c->m >= 2) {
        /* no single C0: the dictionary (§6.1), one line per code */
        printf("selectors: %" PRIu64 "\n", c->m);
        printf("dictionary-bits: %" PRIu64 "\n", f->dict_bits);
        printf("seed-bits: %" PRIu64 "\n", f->seed_bits);
        for (uint64_t j = 0; j < c->m; j++) {
            printf("selector %" PRIu64 ": ", j);
            put_dict_code(f, j);
            printf(" records %" PRIu64 "\n", c->per_code[j]);
        }
    } else {
        printf("selector-bits: %" PRIu64 "\n", f->dict_bits);
        fputs("selector: ", stdout);
        put_code(f);
        putchar('\n');
    }
    if (f->cw_present) printf("common-width: %" PRIu64 "\n", f->cw);
    else printf("common-width: absent\n");
    printf("terminal-key-bits: %" PRIu64 "\n", f->terminal);
    printf("ef-universe: %" PRIu64 "\n", f->U);
    printf("ef-low-width: %u\n", f->L);
    for (int i = 0; i < 8; i++)
        printf("section %d %s: offset %" PRIu64 " length %" PRIu64 "\n", i, cli_kv_section_names[i],
               f->sec_off[i], f->sec_len[i]);
}

static void print_json(const rsv_kv03_file *f, const counts *c)
{
    printf("{\"file_bytes\": %" PRIu64 ", \"records\": %" PRIu64 ", \"blocks\": %" PRIu64, f->size, f->N, f->nb);
    printf(", \"tombstones\": %" PRIu64 ", \"present_empty\": %" PRIu64 ", \"present_nonempty\": %" PRIu64,
           c->tombstones, c->empty, c->present);
    printf(", \"data_extent_bits\": %" PRIu64, f->extent);
    if (f->N) printf(", \"bits_per_record\": %.3f", (double)f->extent / (double)f->N);
    else printf(", \"bits_per_record\": null");
    fputs(", \"policy\": {\"B\": \"", stdout);
    put_policy(f);
    printf("\", \"W\": %" PRIu64 ", \"K\": %" PRIu64 "}", f->policy.W, f->policy.K);
    if (c->m >= 2) {
        fputs(", \"selector_bits\": null, \"selector\": null", stdout);
    } else {
        printf(", \"selector_bits\": %" PRIu64 ", \"selector\": \"", f->dict_bits);
        put_code(f);
        putchar('"');
    }
    printf(", \"dictionary_bits\": %" PRIu64 ", \"seed_bits\": %" PRIu64 ", \"selectors\": [", f->dict_bits,
           f->seed_bits);
    for (uint64_t j = 0; j < c->m; j++) {
        rsv_view v = {NULL, 0, 0};
        (void)rsv_kv03_code(f, j, &v);
        printf("%s{\"index\": %" PRIu64 ", \"code\": \"", j ? ", " : "", j);
        cli_put_selector_view(stdout, v);
        printf("\", \"bits\": %" PRIu64 ", \"records\": %" PRIu64 "}", v.len, c->per_code[j]);
    }
    putchar(']');
    if (f->cw_present) printf(", \"common_width\": %" PRIu64, f->cw);
    else printf(", \"common_width\": null");
    printf(", \"terminal_key_bits\": %" PRIu64 ", \"ef_universe\": %" PRIu64 ", \"ef_low_width\": %u",
           f->terminal, f->U, f->L);
    fputs(", \"sections\": [", stdout);
    for (int i = 0; i < 8; i++)
        printf("%s{\"index\": %d, \"name\": \"%s\", \"offset\": %" PRIu64 ", \"length\": %" PRIu64 "}",
               i ? ", " : "", i, cli_kv_section_names[i], f->sec_off[i], f->sec_len[i]);
    fputs("]}\n", stdout);
}

int cmd_stat(int argc, char **argv, const char *prog)
{
    static const char *const flags[] = {"--json"};
    cli_kv_cmd kc;
    int rc = cli_kv_cmd_args(&kc, argc, argv, prog, stat_help, flags, 1);
    if (rc >= 0) return rc;
    int json = kc.flag[0] != 0;
    if ((rc = cli_kv_cmd_open(&kc, prog)) >= 0) return rc;
    const rsv_kv03_file *f = &kc.f;
    counts c = {0, 0, 0, rsv_kv03_code_count(f), NULL};
    rsv_kv03_cursor cur;
    rsv_kv03_entry e;
    int more = 1;
    rsv_status st = rsv_kv03_cursor_init(&cur, f); /* reads the dictionary (§6.3) */
    /* m <= section 6 length / 8: the counts take no more memory than it */
    c.per_code = calloc(c.m ? c.m : 1, sizeof *c.per_code);
    if (!c.per_code) {
        cli_error(RSV_ERR_NOMEM, "%s: %s: %" PRIu64 " selector codes", prog, kc.label, c.m);
        rsv_kv03_cursor_free(&cur);
        cli_kv_close(&kc.f);
        return CLI_EXIT_FAIL;
    }
    unsigned long long done = 0;
    cli_test_pause(done);
    while (!st && (st = rsv_kv03_cursor_next(&cur, &e, &more)) == RSV_OK && more) {
        cli_test_pause(++done);
        if (e.value_span.kind == RSV_VALUE_TOMBSTONE) c.tombstones++;
        else if (e.value_span.len == 0) c.empty++;
        else c.present++;
        if (e.code < c.m) c.per_code[e.code]++; /* always (seeds and transitions are checked) */
    }
    if (st) {
        cli_kv_cursor_error(prog, kc.label, f, st, rsv_kv03_cursor_diag(&cur));
        rc = CLI_EXIT_FAIL;
    } else {
        if (json) print_json(f, &c);
        else print_text(kc.path, f, &c);
        rc = CLI_EXIT_OK;
    }
    free(c.per_code);
    rsv_kv03_cursor_free(&cur);
    return cli_kv_cmd_close(&kc, prog, rc);
}
