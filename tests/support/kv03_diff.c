/* KV03 comparison engine: record streams, round trips, merges (files:
 * kv03_diff_file.c; kv03_diff.h lists what is compared and the positions
 * the two sides define differently). */
#include "kv03_diff_impl.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reservoir/stream.h"
#include "reservoir/writer.h"

#include "load_window.h"

void rsv_kv03d_report_init(rsv_kv03d_report *rep)
{
    memset(rep, 0, sizeof *rep);
}

int rsv_kv03d_fail(rsv_kv03d_report *rep, const char *fmt, ...)
{
    if (rep->msg[0] == '\0') {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(rep->msg, sizeof rep->msg, fmt, ap);
        va_end(ap);
    }
    return 0;
}

#define fail rsv_kv03d_fail
#define sn rsv_kv03d_sn
typedef rsv_kv03d_ull ull;

rsv_oracle_kv03_policy rsv_kv03d_policy(const rsv_kv03_policy *p)
{
    rsv_oracle_kv03_policy o;
    o.bs_kind = p->code == RSV_BACKSPACE_GOLOMB ? RSV_ORACLE_BACKSPACE_GOLOMB : RSV_ORACLE_BACKSPACE_EG;
    o.bs_param = p->param;
    o.W = p->W;
    o.K = p->K;
    return o;
}

void rsv_kv03d_reseal(uint8_t *f, size_t n)
{
    if (n < 96) return;
    uint32_t b = rsv_oracle_crc32c(f + 96, n - 96);
    for (int i = 0; i < 4; i++) f[64 + i] = (uint8_t)(b >> (8 * i));
    memset(f + 68, 0, 4);
    uint32_t h = rsv_oracle_crc32c(f, 96);
    for (int i = 0; i < 4; i++) f[68 + i] = (uint8_t)(h >> (8 * i));
}

/* ---- record comparisons -------------------------------------------------- */

/* Codec key + value (value bytes compared only when `bytes`) vs an oracle record. */
int rsv_kv03d_same_record(const uint8_t *key, size_t key_len, rsv_value_kind kind, size_t vlen,
                          const uint8_t *vdata, int bytes, const rsv_oracle_record *o)
{
    if (key_len != o->key_len || (key_len && memcmp(key, o->key, key_len) != 0)) return 0;
    int present = kind == RSV_VALUE_PRESENT;
    if (present != (o->state == RSV_ORACLE_PRESENT)) return 0;
    if (!present) return 1;
    if (vlen != o->value_len) return 0;
    return !bytes || vlen == 0 || memcmp(vdata, o->value, vlen) == 0;
}

const char *rsv_kv03d_tombstone_span(const rsv_value_span *v)
{
    if (v->width != 1) return "tombstone width";
    if (v->len != 0 || v->bytes.len != 0) return "tombstone with value bytes";
    if (v->bytes.data != NULL || v->bytes.off != 0) return "tombstone bytes view other than {NULL, 0, 0}";
    return NULL;
}

int rsv_kv03d_want_equal(const rsv_oracle_records *got, const rsv_record *want, size_t nwant,
                         rsv_kv03d_report *rep, const char *what)
{
    if (got->count != nwant)
        return fail(rep, "%s: %zu records decoded, %zu expected", what, got->count, nwant);
    for (size_t i = 0; i < nwant; i++) {
        const rsv_record *w = &want[i];
        if (!rsv_kv03d_same_record(w->key, w->key_len, w->value.kind, w->value.len, w->value.data, 1, &got->items[i]))
            return fail(rep, "%s: record %zu differs from the input (key len %zu vs %zu, state %d vs %d)", what,
                        i, got->items[i].key_len, w->key_len, (int)got->items[i].state, (int)w->value.kind);
    }
    return 1;
}


/* ---- record streams -------------------------------------------------------- */

static const uint8_t k_default_code[1] = {0x00}; /* C0 = `0` */

int rsv_kv03d_stream_reader(rsv_stream_reader *sr, rsv_status st, rsv_view v, const rsv_oracle_stream_result *o,
                            const uint64_t *code_index, const rsv_record *want, const uint64_t *want_code,
                            size_t nwant, rsv_kv03d_report *rep)
{
    rsv_stream_record r;
    int more = 1, ok = 1;
    uint64_t i = 0;
    rep->checks++;
    if (st != RSV_OK && (o->record != 0 || o->bitpos != 0))
        return fail(rep, "stream: init failed (%s) but the oracle's error is at record %llu bit %llu", sn(st),
                    (ull)o->record, (ull)o->bitpos);
    while (st == RSV_OK) {
        /* the stream's bytes and the reader's codes only (A1): a one-code
         * reader's code (the caller's or its own `0`), a set reader's code
         * bits and ends (the caller's arrays) */
        rsv_lw_view(v);
        if (!sr->set.ends) {
            rsv_lw_also_view(rsv_view_make(sr->code, 0, sr->c));
        } else if (sr->set.m) {
            rsv_lw_also_view(rsv_view_make(sr->set.bits, 0, sr->set.ends[sr->set.m - 1]));
            rsv_lw_also_view(rsv_view_make((const uint8_t *)sr->set.ends, 0, 64 * (uint64_t)sr->set.m));
        }
        st = rsv_stream_reader_next(sr, &r, &more);
        rsv_lw_end();
        if (!rsv_test_reader_state_ok(&sr->r))
            return fail(rep, "stream: after record %llu (%s) the reader's cache breaks reader.h's invariant (the view "
                        "bits [pos, pos + n), zero below): pos %llu n %u", (ull)i, sn(st),
                        (ull)rsv_reader_position(&sr->r), sr->r.n);
        if (st || !more) break;
        rep->checks++;
        uint64_t oc = code_index ? code_index[i] : 0;
        if (i >= o->records.count || r.index != i || r.code != oc ||
            !rsv_kv03d_same_record(r.key, r.key_len, r.value.kind, r.value.len, r.value.data, 1, &o->records.items[i]))
            return fail(rep, "stream record %llu differs (index %llu, code %llu vs %llu; oracle: %zu records, %s)",
                        (ull)i, (ull)r.index, (ull)r.code, (ull)oc, o->records.count, sn(o->status));
        const char *td = r.value_span.kind == RSV_VALUE_TOMBSTONE ? rsv_kv03d_tombstone_span(&r.value_span) : NULL;
        if (td) return fail(rep, "stream record %llu: %s", (ull)i, td);
        i++;
    }
    rsv_kv03_diag dg = rsv_stream_reader_diag(sr);
    rep->checks++;
    if (st != o->status)
        ok = fail(rep, "stream: codec %s (record %llu, bit %llu), oracle %s (record %llu, bit %llu)", sn(st),
                  (ull)dg.record, (ull)dg.bit, sn(o->status), (ull)o->record, (ull)o->bitpos);
    else if (i != o->records.count)
        ok = fail(rep, "stream: codec %llu records, oracle %zu (%s)", (ull)i, o->records.count, sn(st));
    else if (!st && (o->bitpos != v.len || o->record != i))
        ok = fail(rep, "stream: oracle success at bit %llu record %llu, stream %llu bits", (ull)o->bitpos,
                  (ull)o->record, (ull)v.len);
    else if (st && (dg.status != st || dg.record != o->record || dg.bit != o->bitpos))
        ok = fail(rep, "stream: both %s, codec diag %s record %llu bit %llu, oracle record %llu bit %llu", sn(st),
                  sn(dg.status), (ull)dg.record, (ull)dg.bit, (ull)o->record, (ull)o->bitpos);
    for (int k = 0; ok && st && k < 2; k++) {
        rsv_status again = rsv_stream_reader_next(sr, &r, &more);
        if (again != RSV_ERR_POISONED) ok = fail(rep, "stream: after %s a next call returned %s, not POISONED", sn(st), sn(again));
    }
    if (ok && want) {
        if (st) return fail(rep, "stream of the input fails with %s", sn(st));
        ok = rsv_kv03d_want_equal(&o->records, want, nwant, rep, "stream decode");
        for (size_t j = 0; ok && want_code && j < nwant; j++)
            if ((code_index ? code_index[j] : 0) != want_code[j])
                ok = fail(rep, "stream decode: record %zu has code %llu, the input %llu", j,
                          (ull)(code_index ? code_index[j] : 0), (ull)want_code[j]);
    }
    return ok;
}

int rsv_kv03d_stream(const uint8_t *bytes, uint64_t bits, const uint8_t *code, uint64_t code_bits,
                     const rsv_record *want, size_t nwant, rsv_kv03d_report *rep)
{
    const uint8_t *oc = code ? code : k_default_code;
    uint64_t ocb = code ? code_bits : 1;
    rsv_view v = rsv_view_make(bytes, 0, bits);
    rsv_oracle_stream_result o;
    rsv_oracle_stream_decode(v, oc, ocb, &o);
    rsv_stream_reader sr;
    rsv_status st = rsv_stream_reader_init(&sr, v, code, code_bits);
    int ok = rsv_kv03d_stream_reader(&sr, st, v, &o, NULL, want, NULL, nwant, rep);
    rsv_stream_reader_free(&sr);
    rsv_oracle_stream_result_free(&o);
    return ok;
}

/* ---- round trip ------------------------------------------------------------ */

static rsv_oracle_record *to_oracle(const rsv_record *recs, size_t n)
{
    rsv_oracle_record *o = calloc(n ? n : 1, sizeof *o);
    if (!o) return NULL;
    for (size_t i = 0; i < n; i++) {
        o[i].key = recs[i].key;
        o[i].key_len = recs[i].key_len;
        o[i].state = recs[i].value.kind == RSV_VALUE_PRESENT ? RSV_ORACLE_PRESENT : RSV_ORACLE_TOMBSTONE;
        o[i].value = recs[i].value.data;
        o[i].value_len = recs[i].value.kind == RSV_VALUE_PRESENT ? recs[i].value.len : 0;
    }
    return o;
}

/* The streaming writer, one add per record. */
static rsv_status write_streaming(const rsv_record *recs, size_t n, const rsv_kv03_policy *p,
                                  const uint8_t *code, uint64_t code_bits, uint8_t **out, size_t *len)
{
    rsv_kv03_writer w;
    rsv_status st = rsv_kv03_writer_init(&w, p, code, code_bits);
    for (size_t i = 0; i < n && !st; i++) st = rsv_kv03_writer_add(&w, recs[i].key, recs[i].key_len, recs[i].value);
    if (!st) st = rsv_kv03_writer_finish(&w, out, len);
    rsv_kv03_writer_free(&w);
    return st;
}

static int roundtrip_stream(const rsv_record *recs, const rsv_oracle_record *orecs, size_t n,
                            const uint8_t *code, uint64_t code_bits, rsv_kv03d_report *rep)
{
    const uint8_t *oc = code ? code : k_default_code;
    uint64_t ocb = code ? code_bits : 1;
    rsv_writer w;
    rsv_writer_init(&w);
    rsv_stream_writer sw;
    rsv_status cst = rsv_stream_writer_init(&sw, &w, code, code_bits);
    for (size_t i = 0; i < n && !cst; i++) cst = rsv_stream_writer_add(&sw, recs[i].key, recs[i].key_len, recs[i].value);
    uint64_t cE = cst ? 0 : rsv_stream_writer_extent(&sw);
    uint8_t *ob = NULL;
    uint64_t oE = 0;
    size_t bad = 0;
    rsv_status ost = rsv_oracle_stream_encode(orecs, n, oc, ocb, &ob, &oE, &bad);
    int ok = 1;
    rep->checks++;
    if (cst != ost) {
        ok = fail(rep, "stream encode: codec %s, oracle %s", sn(cst), sn(ost));
    } else if (!cst) {
        size_t nb = (size_t)((oE + 7) / 8);
        if (cE != oE || (nb && memcmp(rsv_writer_data(&w), ob, nb) != 0))
            ok = fail(rep, "stream bytes differ: codec %llu bits, oracle %llu bits", (ull)cE, (ull)oE);
        else
            ok = rsv_kv03d_stream(ob, oE, code, code_bits, recs, n, rep);
    }
    free(ob);
    rsv_stream_writer_free(&sw);
    rsv_writer_free(&w);
    return ok;
}

int rsv_kv03d_roundtrip(const rsv_record *recs, size_t n, const rsv_kv03_policy *policy,
                        const uint8_t *code, uint64_t code_bits, rsv_kv03d_report *rep)
{
    rsv_oracle_record *orecs = to_oracle(recs, n);
    if (!orecs) return fail(rep, "out of memory");
    rsv_oracle_kv03_policy op = rsv_kv03d_policy(policy);
    uint8_t *cb = NULL, *wb = NULL, *ob = NULL;
    size_t cn = 0, wn = 0, on = 0, bad = 0;
    rsv_status cst = rsv_kv03_encode(policy, code, code_bits, recs, n, &cb, &cn);
    rsv_status wst = write_streaming(recs, n, policy, code, code_bits, &wb, &wn);
    rsv_status ost = rsv_oracle_kv03_encode(orecs, n, &op, code ? code : k_default_code, code ? code_bits : 1,
                                            &ob, &on, &bad);
    int ok = 1;
    rep->checks++;
    rep->status = cst;
    if (cst != ost || wst != ost) {
        ok = fail(rep, "encode: codec batch %s, codec writer %s, oracle %s", sn(cst), sn(wst), sn(ost));
    } else if (!cst) {
        size_t at = 0;
        while (at < cn && at < on && cb[at] == ob[at]) at++;
        if (cn != on || at != cn)
            ok = fail(rep, "encode: codec %zu bytes, oracle %zu bytes, first difference at byte %zu", cn, on, at);
        else if (wn != on || memcmp(wb, ob, on) != 0)
            ok = fail(rep, "encode: streaming writer bytes differ from the batch encoder's");
        else
            ok = rsv_kv03d_file(cb, cn, policy, recs, n, rep) && roundtrip_stream(recs, orecs, n, code, code_bits, rep);
    }
    free(cb);
    free(wb);
    free(ob);
    free(orecs);
    return ok;
}

/* ---- merge ----------------------------------------------------------------- */

/* The oracle's own first walk error of one input (open + WALK). */
static int input_error_matches(const uint8_t *file, size_t size, rsv_status st, uint64_t codec_record,
                               uint64_t bit, rsv_kv03d_report *rep, size_t input)
{
    rsv_oracle_kv03_v2_result v;
    rsv_oracle_kv03_decode_v2(file, size, NULL, RSV_ORACLE_KV03_WALK, &v);
    const rsv_oracle_kv03_result o = v.base;
    int ok = 1;
    if (o.status != st || o.phase != RSV_ORACLE_PHASE_SCAN || !rsv_kv03d_same_pos(st, codec_record, bit, o.record, o.bitpos))
        ok = fail(rep, "merge: codec input %zu fails with %s at record %llu bit %llu; that input's own walk: %s at record %llu bit %llu",
                  input, sn(st), (ull)codec_record, (ull)bit, sn(o.status), (ull)o.record, (ull)o.bitpos);
    rsv_oracle_kv03_v2_result_free(&v);
    return ok;
}

int rsv_kv03d_merge(const uint8_t *const *files, const size_t *sizes, size_t n, int drop_tombstones,
                    const uint8_t *want, size_t want_len, rsv_status *out_status, rsv_kv03d_report *rep)
{
    rsv_oracle_bytes *ins = calloc(n ? n : 1, sizeof *ins);
    rsv_kv03_file *fs = calloc(n ? n : 1, sizeof *fs);
    const rsv_kv03_file **pf = calloc(n ? n : 1, sizeof *pf);
    if (!ins || !fs || !pf) {
        free(ins);
        free(fs);
        free(pf);
        return fail(rep, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        ins[i].data = files[i];
        ins[i].size = sizes[i];
        pf[i] = &fs[i];
    }
    rsv_oracle_merge_result om;
    /* the codec merges across code sets (format revision v2, §11.2) */
    rsv_oracle_kv03_merge_v2(ins, n, drop_tombstones, &om);

    /* codec: inputs opened in order by the engine (the codec merge takes
     * opened files), then init / run / finish */
    rsv_status cst = RSV_OK;
    size_t cin = SIZE_MAX;
    int walk_failure = 0;
    rsv_status poisoned = RSV_ERR_POISONED; /* what a step after the failure returned */
    rsv_kv03_diag dg = {RSV_OK, 0, 0};
    uint8_t *out = NULL;
    size_t out_len = 0;
    for (size_t i = 0; n >= 2 && i < n && !cst; i++)
        if ((cst = rsv_kv03_open(files[i], sizes[i], NULL, &fs[i])) != RSV_OK) cin = i;
    if (!cst) {
        rsv_merge m;
        cst = rsv_merge_init(&m, pf, n, drop_tombstones ? RSV_MERGE_DROP_TOMBSTONES : 0);
        if (!cst) {
            cst = rsv_merge_run(&m);
            walk_failure = cst != RSV_OK;
        }
        if (!cst) cst = rsv_merge_finish(&m, &out, &out_len);
        if (cst) {
            dg = rsv_merge_diag(&m);
            cin = rsv_merge_failed_input(&m);
            int done;
            rsv_status again = rsv_merge_step(&m, &done);
            if (again != RSV_ERR_POISONED) poisoned = again;
        }
        rsv_merge_free(&m);
    }

    int ok = 1;
    rep->checks++;
    rep->status = om.status;
    if (cst == RSV_OK && om.status == RSV_OK) {
        size_t at = 0;
        while (at < out_len && at < om.out_len && out[at] == om.out[at]) at++;
        if (out_len != om.out_len || at != out_len)
            ok = fail(rep, "merge output: codec %zu bytes, oracle %zu bytes, first difference at byte %zu", out_len,
                      om.out_len, at);
        else if (want && (want_len != out_len || memcmp(want, out, out_len) != 0))
            ok = fail(rep, "merge output (%zu bytes, both sides) differs from the expected %zu bytes", out_len, want_len);
    } else if (cst == RSV_OK || om.status == RSV_OK) {
        ok = fail(rep, "merge: codec %s (input %zu), oracle %s (input %zu)", sn(cst), cin, sn(om.status), om.input);
    } else if (walk_failure) {
        /* the codec's error must be its input's own first walk error; with a
         * single bad input the oracle names the same one */
        if (cin >= n) {
            ok = fail(rep, "merge: codec walk failure %s names no input", sn(cst));
        } else {
            ok = input_error_matches(files[cin], sizes[cin], cst, dg.record, dg.bit, rep, cin);
            if (ok && cst != om.status && (om.phase != RSV_ORACLE_PHASE_SCAN || om.input == cin))
                ok = fail(rep, "merge: codec %s (input %zu), oracle %s (input %zu)", sn(cst), cin, sn(om.status),
                          om.input);
        }
    } else if (cst != om.status) {
        ok = fail(rep, "merge: codec %s (input %zu), oracle %s (input %zu)", sn(cst), cin, sn(om.status), om.input);
    }
    if (ok && poisoned != RSV_ERR_POISONED) {
        ok = fail(rep, "merge: a step after %s returned %s, not POISONED", sn(cst), sn(poisoned));
    } else if (ok && cst != RSV_OK && cst != RSV_ERR_INVALID_ARGUMENT && (rep->opts & RSV_KV03D_ONE_BAD_INPUT)) {
        /* one corrupt input: both sides must name it, with the same error
         * and, for a §3.3 walk error (oracle scan step 3), its position */
        size_t ci = cin < n ? cin : SIZE_MAX;
        rep->checks++;
        if (cst != om.status || ci != om.input)
            ok = fail(rep, "merge (one bad input): codec %s (input %zu), oracle %s (input %zu)", sn(cst), ci,
                      sn(om.status), om.input);
        else if (om.phase == RSV_ORACLE_PHASE_SCAN && om.step == 3 &&
                 !rsv_kv03d_same_pos(cst, dg.record, dg.bit, om.record, om.bitpos))
            ok = fail(rep, "merge: %s in input %zu: codec record %llu bit %llu, oracle record %llu bit %llu", sn(cst), ci,
                      (ull)dg.record, (ull)dg.bit, (ull)om.record, (ull)om.bitpos);
    }
    rep->codec.walk = cst;
    rep->oracle.walk = om.status;
    if (out_status) *out_status = om.status;
    free(out);
    rsv_oracle_merge_result_free(&om);
    free(ins);
    free(fs);
    free(pf);
    return ok;
}

/* ---- naive merge ------------------------------------------------------------ */

typedef struct tagged {
    rsv_record r;
    size_t src;
} tagged;

static int cmp_tagged(const void *a, const void *b)
{
    const tagged *x = a, *y = b;
    int c = rsv_oracle_key_compare(x->r.key, x->r.key_len, y->r.key, y->r.key_len);
    if (c) return c;
    return x->src < y->src ? 1 : x->src > y->src ? -1 : 0; /* newest first */
}

size_t rsv_kv03d_naive_merge(const rsv_record *const *lists, const size_t *counts, size_t nlists,
                             int drop_tombstones, rsv_record *out)
{
    size_t total = 0;
    for (size_t i = 0; i < nlists; i++) total += counts[i];
    tagged *t = malloc((total ? total : 1) * sizeof *t);
    if (!t) return 0;
    size_t m = 0;
    for (size_t i = 0; i < nlists; i++)
        for (size_t j = 0; j < counts[i]; j++) {
            t[m].r = lists[i][j];
            t[m++].src = i;
        }
    qsort(t, m, sizeof *t, cmp_tagged);
    size_t u = 0;
    for (size_t a = 0; a < m; a++) {
        if (a > 0 && rsv_oracle_key_compare(t[a - 1].r.key, t[a - 1].r.key_len, t[a].r.key, t[a].r.key_len) == 0)
            continue; /* an older binding of the key just taken */
        if (drop_tombstones && t[a].r.value.kind != RSV_VALUE_PRESENT) continue;
        out[u++] = t[a].r;
    }
    free(t);
    return u;
}

void rsv_kv03d_to_oracle(const rsv_record *r, size_t n, rsv_oracle_record *o)
{
    for (size_t i = 0; i < n; i++) {
        o[i].key = r[i].key;
        o[i].key_len = r[i].key_len;
        o[i].state = r[i].value.kind == RSV_VALUE_PRESENT ? RSV_ORACLE_PRESENT : RSV_ORACLE_TOMBSTONE;
        o[i].value = r[i].value.data;
        o[i].value_len = r[i].value.len;
    }
}
