/* rsv — a list of records held in memory (parsed from text or generated),
 * sorted if asked, and written as a KV03 file through the codec's streaming
 * writer and its temporary + fsync + rename file output. Keys and values
 * live in one arena and are addressed by offset while the list grows;
 * cli_records_resolve turns the offsets into pointers once it is complete. */
#ifndef RSV_RECORDS_H
#define RSV_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#include "bytebuf.h"
#include "outfile.h"
#include "selector.h"
#include "reservoir/kv03.h"

typedef struct cli_rec {
    size_t koff, klen, voff, vlen;
    int tombstone;
    uint64_t line; /* where it came from (input line, generation index) */
    /* The record's own selector code (KV03.md §1.2): CLI_SELECTOR_BYTES
     * packed bytes at coff, cbits bits, when has_code; else the default
     * code given to cli_records_resolve (the writer's C0). */
    int has_code;
    size_t coff;
    uint64_t cbits;
    const uint8_t *key, *val, *code; /* set by cli_records_resolve */
} cli_rec;

typedef struct cli_records {
    cli_buf arena;
    cli_rec *v;
    size_t n, cap;
} cli_records;

void cli_records_init(cli_records *rs);
void cli_records_free(cli_records *rs);
rsv_status cli_records_push(cli_records *rs, const cli_rec *r);
/* Point key/val/code into the arena (call after the last push); records
 * without a code of their own get `code`/`code_bits` (NULL: the default
 * C0 = `0`), the code the writer gives them. */
void cli_records_resolve(cli_records *rs, const uint8_t *code, uint64_t code_bits);
/* Sort by logical key (KV03.md §1.2: code ‖ key bits as a bit string; with
 * prefix-free codes, code order then key order); equal logical keys keep
 * their input order. Needs resolved records. */
void cli_records_sort(cli_records *rs);
/* First i > 0 whose code and key equal those of record i-1 (after
 * sorting), or rs->n. */
size_t cli_records_first_duplicate(const cli_records *rs);

/* Write records start, start+step, start+2*step, ... to `path` (signal-safe
 * path writer, outfile.h). On failure returns the codec's status with
 * *failed = the record index whose add failed for a reason of its own, or
 * rs->n for a failure of the output (init, an I/O error while writing, the
 * commit); *op and *err say which output step failed and its errno. No file
 * is left behind (codec guarantee). */
rsv_status cli_records_write(const cli_records *rs, const rsv_kv03_policy *policy,
                             const uint8_t *code, uint64_t code_bits, size_t start, size_t step,
                             const char *path, size_t *failed, cli_out_op *op, int *err);

#endif
