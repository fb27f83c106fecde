/* Runner of the "reach exactly this check" rows (status_reach.h). */
#include "status_reach.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kv03_diff.h"

#ifndef RSV_CORPUS_DIR
#define RSV_CORPUS_DIR "corpus"
#endif

static const char *g_corpus = NULL;

void rsv_sr_set_corpus_dir(const char *dir) { g_corpus = dir; }

static const char *corpus_dir(void)
{
    const char *e = getenv("RSV_STATUS_REACH_CORPUS");
    if (e && *e) return e;
    return g_corpus ? g_corpus : RSV_CORPUS_DIR;
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 3, 4)))
#endif
static int bad(char *msg, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, cap, fmt, ap);
    va_end(ap);
    return 0;
}

static const char *sn(rsv_status s) { return rsv_status_name((int)s); }

/* The checked-in seed must equal the crafted bytes (or be written). */
int rsv_sr_seed(const char *target, const char *name, const uint8_t *b, size_t n, char *msg, size_t cap)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/regressions/%s", corpus_dir(), target, name);
    const char *w = getenv("RSV_STATUS_REACH_WRITE_SEEDS");
    if (w && *w && strcmp(w, "0") != 0) {
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(b, 1, n, f) != n || fclose(f) != 0) return bad(msg, cap, "cannot write seed %s", path);
        return 1;
    }
    FILE *f = fopen(path, "rb");
    if (!f) return bad(msg, cap, "seed %s missing (RSV_STATUS_REACH_WRITE_SEEDS=1 writes it)", path);
    uint8_t *got = malloc(n + 1);
    size_t k = got ? fread(got, 1, n + 1, f) : 0;
    fclose(f);
    int same = got && k == n && memcmp(got, b, n) == 0;
    free(got);
    if (!same) return bad(msg, cap, "seed %s differs from the crafted file (%zu vs %zu bytes)", path, k, n);
    return 1;
}

int rsv_sr_run(const rsv_sr_row *row, const uint8_t *base, size_t n, char *msg, size_t cap)
{
    rsv_surgeon s;
    rsv_sg_init(&s, base, n);
    row->make(&s);
    int ok = 1;

    /* the expected policy (check 11): the base file's, with W + 1 */
    rsv_kv03_policy exp = {0}, *pexp = NULL;
    if (row->expect_other_policy) {
        exp.code = (rsv_backspace_code)rsv_sg_get(&s, RSV_SG_BSCODE, 1);
        exp.param = rsv_sg_get(&s, RSV_SG_BSPARAM, 8);
        exp.W = rsv_sg_get(&s, RSV_SG_W, 4) + 1;
        exp.K = rsv_sg_get(&s, RSV_SG_K, 8);
        pexp = &exp;
    }

    /* 1. the oracle, held to the row (the spec) */
    rsv_oracle_kv03_policy oexp;
    if (pexp) oexp = rsv_kv03d_policy(pexp);
    /* the format-revision-v2 oracle (v1 files are v2 files with one code);
     * its result in the v1 shape, dictionary and code indices dropped */
    rsv_oracle_kv03_v2_result v2;
    rsv_oracle_kv03_decode_v2(s.n ? s.b : NULL, s.n, pexp ? &oexp : NULL, RSV_ORACLE_KV03_SCAN, &v2);
    rsv_oracle_kv03_result o = v2.base;
    rsv_oracle_dict_free(&v2.dict);
    free(v2.code_index);
    if (o.status != row->want || o.phase != row->phase || (row->phase != RSV_ORACLE_PHASE_NONE && row->step != 0 && o.step != row->step))
        ok = bad(msg, cap, "oracle: %s at phase %d step %u, the row wants %s at phase %d step %u", sn(o.status),
                 (int)o.phase, o.step, sn(row->want), (int)row->phase, row->step);
    else if ((row->record != RSV_SR_ANY && o.record != row->record) || (row->bit != RSV_SR_ANY && o.bitpos != row->bit))
        ok = bad(msg, cap, "oracle: %s at record %llu bit %llu, the row wants record %llu bit %llu", sn(o.status),
                 (unsigned long long)o.record, (unsigned long long)o.bitpos, (unsigned long long)row->record,
                 (unsigned long long)row->bit);
    int walk_error = o.phase == RSV_ORACLE_PHASE_SCAN && o.step == 3;
    uint64_t orec = o.record, obit = o.bitpos;
    rsv_oracle_kv03_result_free(&o);

    /* 2. the codec: open, then scan */
    if (ok) {
        rsv_kv03_file f;
        rsv_kv03_diag dg = {RSV_OK, 0, 0};
        rsv_status st = rsv_kv03_open(s.n ? s.b : NULL, s.n, pexp, &f);
        if (st == RSV_OK) st = rsv_kv03_scan(&f, &dg);
        uint64_t crec = st == RSV_ERR_TERMINAL_MISMATCH ? dg.record + 1 : dg.record;
        if (st != row->want)
            ok = bad(msg, cap, "codec: %s, the row (and the oracle) want %s", sn(st), sn(row->want));
        else if (walk_error && (crec != orec || dg.bit != obit))
            ok = bad(msg, cap, "codec: %s at record %llu bit %llu, oracle record %llu bit %llu", sn(st),
                     (unsigned long long)dg.record, (unsigned long long)dg.bit, (unsigned long long)orec,
                     (unsigned long long)obit);
    }

    /* 3. every read level, codec against oracle */
    if (ok) {
        rsv_kv03d_report rep;
        rsv_kv03d_report_init(&rep);
        if (!rsv_kv03d_file(s.n ? s.b : NULL, s.n, pexp, NULL, 0, &rep))
            ok = bad(msg, cap, "codec/oracle disagree: %s", rep.msg);
        else if (rep.status != row->want)
            ok = bad(msg, cap, "kv03d: %s, the row wants %s", sn(rep.status), sn(row->want));
    }

    /* 4. the seed (written even when a check failed: the v2 rows' seeds are
     * written before the v2 reader exists) */
    const char *w = getenv("RSV_STATUS_REACH_WRITE_SEEDS");
    int writing = w && *w && strcmp(w, "0") != 0;
    if ((ok || writing) && row->seed) {
        char m2[512];
        if (!rsv_sr_seed("kv03_parse", row->seed, s.b, s.n, m2, sizeof m2) && ok) ok = bad(msg, cap, "%s", m2);
    }
    rsv_sg_free(&s);
    return ok;
}
