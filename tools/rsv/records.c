/* rsv — records in memory, sorted and written as KV03 (see records.h). */
#include "records.h"

#include <errno.h>

#include <stdlib.h>
#include <string.h>

#include "reservoir/record.h"
#include "signals.h"

void cli_records_init(cli_records *rs)
{
    cli_buf_init(&rs->arena);
    rs->v = NULL;
    rs->n = rs->cap = 0;
}

void cli_records_free(cli_records *rs)
{
    cli_buf_free(&rs->arena);
    free(rs->v);
    rs->v = NULL;
    rs->n = rs->cap = 0;
}

rsv_status cli_records_push(cli_records *rs, const cli_rec *r)
{
    if (rs->n == rs->cap) {
        size_t ncap = rs->cap ? rs->cap * 2 : 1024;
        if (ncap > SIZE_MAX / sizeof *rs->v) return RSV_ERR_TOO_LARGE;
        cli_rec *nv = realloc(rs->v, ncap * sizeof *nv);
        if (!nv) return RSV_ERR_NOMEM;
        rs->v = nv;
        rs->cap = ncap;
    }
    rs->v[rs->n++] = *r;
    return RSV_OK;
}

void cli_records_resolve(cli_records *rs, const uint8_t *code, uint64_t code_bits)
{
    static const uint8_t c0[1] = {0}; /* the default C0 = `0` */
    if (!code) code = c0, code_bits = 1;
    for (size_t i = 0; i < rs->n; i++) {
        cli_rec *r = &rs->v[i];
        r->key = rs->arena.p ? rs->arena.p + r->koff : NULL;
        r->val = rs->arena.p ? rs->arena.p + r->voff : NULL;
        if (r->has_code) {
            r->code = rs->arena.p ? rs->arena.p + r->coff : code; /* 0 bits: not read */
        } else {
            r->code = code;
            r->cbits = code_bits;
        }
    }
}

static int rec_cmp(const void *pa, const void *pb)
{
    const cli_rec *a = pa, *b = pb;
    int c = cli_logical_compare(a->code, a->cbits, a->key, a->klen, b->code, b->cbits, b->key, b->klen);
    if (c) return c;
    return (a->line > b->line) - (a->line < b->line); /* stable: input order */
}

void cli_records_sort(cli_records *rs)
{
    if (rs->n > 1) qsort(rs->v, rs->n, sizeof *rs->v, rec_cmp);
}

size_t cli_records_first_duplicate(const cli_records *rs)
{
    for (size_t i = 1; i < rs->n; i++) {
        const cli_rec *a = &rs->v[i - 1], *b = &rs->v[i];
        if (a->cbits == b->cbits && memcmp(a->code, b->code, (size_t)(a->cbits + 7) / 8) == 0 &&
            rsv_key_compare(a->key, a->klen, b->key, b->klen) == 0)
            return i;
    }
    return rs->n;
}

rsv_status cli_records_write(const cli_records *rs, const rsv_kv03_policy *policy,
                             const uint8_t *code, uint64_t code_bits, size_t start, size_t step,
                             const char *path, size_t *failed, cli_out_op *op, int *err)
{
    rsv_kv03_writer w;
    *failed = rs->n;
    *op = CLI_OUT_CREATE;
    rsv_status st = cli_kvout_init(&w, policy, code, code_bits, path);
    *err = errno;
    if (!st) {
        *op = CLI_OUT_WRITE;
        cli_test_pause(0);
    }
    unsigned long long done = 0;
    for (size_t i = start; !st && i < rs->n; i += step) {
        const cli_rec *r = &rs->v[i];
        rsv_value v = r->tombstone ? rsv_value_tombstone() : rsv_value_present(r->val, r->vlen);
        st = rsv_kv03_writer_add_coded(&w, r->has_code ? r->code : NULL, r->cbits, r->key, r->klen, v);
        *err = errno;
        if (st && st != RSV_ERR_IO) *failed = i; /* an I/O error is the output's, not record i's */
        if (!st) cli_test_pause(++done);
    }
    if (!st) {
        *op = CLI_OUT_COMMIT;
        st = cli_kvout_commit(&w);
        *err = errno;
    }
    cli_kvout_free(&w); /* removes the temporary after a failure */
    return st;
}
