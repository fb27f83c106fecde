/* KV03 corruption sweeps (see kv03_sweep.h). */
#include "kv03_sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

rsv_status rsv_kv03d_header_flip_status(size_t at)
{
    if (at < 8) return RSV_ERR_BAD_MAGIC; /* one bit cannot turn KV into IX */
    if (at < 12) return RSV_ERR_BAD_VERSION;
    return RSV_ERR_HEADER_CRC;
}

static void count(rsv_kv03d_sweep *st, const rsv_kv03d_report *rep)
{
    st->cases++;
    if ((unsigned)rep->status < RSV_KV03D_SWEEP_STATUSES) st->status[rep->status]++;
    if (rep->status == RSV_OK) st->accepted++;
    else if (rep->codec.open) st->at_open++;
    else if (rep->oracle.walk) st->at_walk++;
    else st->at_scan_other++;
}

/* "<prefix>: " in front of the report's message, cut to fit. */
static void prefix_msg(rsv_kv03d_report *rep, const char *prefix)
{
    char m[RSV_KV03D_MSG];
    int k = snprintf(m, sizeof m, "%s: ", prefix);
    size_t used = k < 0 ? 0 : (size_t)k < sizeof m ? (size_t)k : sizeof m - 1;
    const char *z = memchr(rep->msg, 0, sizeof rep->msg);
    size_t rest = z ? (size_t)(z - rep->msg) : sizeof rep->msg;
    if (rest > sizeof m - 1 - used) rest = sizeof m - 1 - used;
    memcpy(m + used, rep->msg, rest);
    m[used + rest] = 0;
    memcpy(rep->msg, m, sizeof m);
}

static int one(const uint8_t *x, size_t n, const char *what, size_t at, rsv_kv03d_sweep *st,
               rsv_kv03d_report *rep)
{
    rsv_kv03d_report_init(rep);
    if (!rsv_kv03d_file(n ? x : NULL, n, NULL, NULL, 0, rep)) {
        char what_at[RSV_KV03D_MSG];
        snprintf(what_at, sizeof what_at, "%s %zu", what, at);
        prefix_msg(rep, what_at);
        return 0;
    }
    count(st, rep);
    return 1;
}

static int expect(rsv_kv03d_report *rep, const char *what, size_t at, rsv_status want)
{
    if (rep->status == want) return 1;
    snprintf(rep->msg, sizeof rep->msg, "%s %zu: %s, want %s", what, at, rsv_status_name(rep->status),
             rsv_status_name(want));
    return 0;
}

int rsv_kv03d_sweep_flips(const uint8_t *file, size_t n, rsv_kv03d_sweep *st, rsv_kv03d_report *rep)
{
    uint8_t *x = malloc(n ? n : 1);
    int ok = x != NULL;
    for (size_t bit = 0; ok && bit < 8 * n; bit++) {
        size_t at = bit / 8;
        memcpy(x, file, n);
        x[at] ^= (uint8_t)(0x80u >> (bit % 8));
        ok = one(x, n, "flip of bit", bit, st, rep);
        if (ok && rep->status == RSV_OK) {
            snprintf(rep->msg, sizeof rep->msg, "flip of bit %zu accepted", bit);
            ok = 0;
        } else if (ok && at < 96) ok = expect(rep, "header flip of bit", bit, rsv_kv03d_header_flip_status(at));
        else if (ok && at >= 96 + 192) ok = expect(rep, "body flip of bit", bit, RSV_ERR_BODY_CRC);
    }
    free(x);
    return ok;
}

int rsv_kv03d_sweep_truncations(const uint8_t *file, size_t n, rsv_kv03d_sweep *st, rsv_kv03d_report *rep)
{
    int ok = 1;
    for (size_t len = 0; ok && len < n; len++) {
        uint8_t *x = malloc(len ? len : 1); /* exactly len bytes: ASan sees any read past them */
        if (!x) return 0;
        memcpy(x, file, len);
        ok = one(x, len, "truncation to", len, st, rep) &&
             expect(rep, "truncation to", len, len < 96 ? RSV_ERR_TRUNCATED_HEADER : RSV_ERR_FILE_SIZE);
        free(x);
    }
    return ok;
}

int rsv_kv03d_sweep_resealed(const uint8_t *file, size_t n, rsv_kv03d_sweep *st, rsv_kv03d_report *rep)
{
    uint8_t *x = malloc(n ? n : 1);
    int ok = x != NULL;
    for (size_t bit = 0; ok && bit < 8 * n; bit++) {
        size_t at = bit / 8;
        if (at >= 64 && at < 72) continue; /* the CRC fields themselves */
        memcpy(x, file, n);
        x[at] ^= (uint8_t)(0x80u >> (bit % 8));
        rsv_kv03d_reseal(x, n);
        ok = one(x, n, "resealed flip of bit", bit, st, rep);
    }
    free(x);
    return ok;
}

int rsv_kv03d_files_accepted(const rsv_kv03d_named_file *f, size_t nfiles, rsv_kv03d_report *rep)
{
    for (size_t i = 0; i < nfiles; i++) {
        rsv_kv03d_report_init(rep);
        if (!rsv_kv03d_file(f[i].b, f[i].n, NULL, NULL, 0, rep)) {
            prefix_msg(rep, f[i].name);
            return 0;
        }
        if (rep->status != RSV_OK) {
            snprintf(rep->msg, sizeof rep->msg, "%s: %s", f[i].name, rsv_status_name(rep->status));
            return 0;
        }
    }
    return 1;
}

int rsv_kv03d_sweep_files(rsv_kv03d_sweep_fn sweep, const rsv_kv03d_named_file *f, size_t nfiles,
                          rsv_kv03d_sweep *st, rsv_kv03d_report *rep)
{
    size_t before = st->cases;
    for (size_t i = 0; i < nfiles; i++) {
        if (!sweep(f[i].b, f[i].n, st, rep)) {
            prefix_msg(rep, f[i].name);
            return 0;
        }
    }
    if (st->cases == before) {
        snprintf(rep->msg, sizeof rep->msg, "the sweep ran no case");
        return 0;
    }
    return 1;
}

void rsv_kv03d_files_free(rsv_kv03d_named_file *f, size_t nfiles)
{
    for (size_t i = 0; i < nfiles; i++) {
        free(f[i].b);
        f[i].b = NULL;
    }
}
