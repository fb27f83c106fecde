/* KV03 differential engine (see kv03_diff.h for what is compared and the
 * positions the two sides define differently). */
#include "kv03_diff.h"

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

/* Record the first disagreement; always returns 0 so callers can `return fail(...)`. */
static int fail(rsv_kv03d_report *rep, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static int fail(rsv_kv03d_report *rep, const char *fmt, ...)
{
    if (rep->msg[0] == '\0') {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(rep->msg, sizeof rep->msg, fmt, ap);
        va_end(ap);
    }
    return 0;
}

static const char *sn(rsv_status s) { return rsv_status_name((int)s); }
typedef unsigned long long ull;

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
static int same_record(const uint8_t *key, size_t key_len, rsv_value_kind kind, size_t vlen,
                       const uint8_t *vdata, int bytes, const rsv_oracle_record *o)
{
    if (key_len != o->key_len || (key_len && memcmp(key, o->key, key_len) != 0)) return 0;
    int present = kind == RSV_VALUE_PRESENT;
    if (present != (o->state == RSV_ORACLE_PRESENT)) return 0;
    if (!present) return 1;
    if (vlen != o->value_len) return 0;
    return !bytes || vlen == 0 || memcmp(vdata, o->value, vlen) == 0;
}

static int want_equal(const rsv_oracle_records *got, const rsv_record *want, size_t nwant,
                      rsv_kv03d_report *rep, const char *what)
{
    if (got->count != nwant)
        return fail(rep, "%s: %zu records decoded, %zu expected", what, got->count, nwant);
    for (size_t i = 0; i < nwant; i++) {
        const rsv_record *w = &want[i];
        if (!same_record(w->key, w->key_len, w->value.kind, w->value.len, w->value.data, 1, &got->items[i]))
            return fail(rep, "%s: record %zu differs from the input (key len %zu vs %zu, state %d vs %d)", what,
                        i, got->items[i].key_len, w->key_len, (int)got->items[i].state, (int)w->value.kind);
    }
    return 1;
}

/* The oracle's walk position of a codec walk error (TERMINAL: N−1 → N). */
static uint64_t oracle_record(rsv_status st, uint64_t codec_record)
{
    return st == RSV_ERR_TERMINAL_MISMATCH ? codec_record + 1 : codec_record;
}

/* ---- file: walk levels --------------------------------------------------- */

static int walk_cursor(const rsv_kv03_file *f, const rsv_oracle_kv03_result *ow, int materialize,
                       rsv_kv03d_report *rep)
{
    const char *what = materialize ? "cursor_record" : "cursor_next";
    rsv_kv03_cursor c;
    rsv_kv03_entry e;
    int more = 0, ok = 1;
    uint64_t i = 0;
    rsv_lw_bytes(f->bytes, (size_t)f->size); /* the codec loads only file bytes (A1) */
    rsv_status st = rsv_kv03_cursor_init(&c, f);
    rsv_lw_end();
    while (st == RSV_OK) {
        rsv_lw_bytes(f->bytes, (size_t)f->size);
        st = materialize ? rsv_kv03_cursor_record(&c, &e, &more) : rsv_kv03_cursor_next(&c, &e, &more);
        rsv_lw_end();
        if (st || !more) break;
        rep->checks++;
        if (i >= ow->records.count) {
            ok = fail(rep, "%s returned record %llu; oracle walk stopped there with %s", what, (ull)i,
                      sn(ow->status));
            break;
        }
        if (e.index != i ||
            !same_record(e.key, e.key_len, e.value.kind, e.value.len, e.value.data, materialize, &ow->records.items[i])) {
            ok = fail(rep, "%s record %llu differs from the oracle's (key len %zu vs %zu, value state %d vs %d, len %zu vs %zu)",
                      what, (ull)i, e.key_len, ow->records.items[i].key_len, (int)e.value.kind,
                      (int)ow->records.items[i].state, e.value.len, ow->records.items[i].value_len);
            break;
        }
        i++;
    }
    if (ok) {
        rsv_kv03_diag dg = rsv_kv03_cursor_diag(&c);
        rep->checks++;
        if (st != ow->status) {
            ok = fail(rep, "%s: codec %s (record %llu, bit %llu), oracle walk %s (record %llu, bit %llu)", what,
                      sn(st), (ull)dg.record, (ull)dg.bit, sn(ow->status), (ull)ow->record, (ull)ow->bitpos);
        } else if (st) {
            if (oracle_record(st, dg.record) != ow->record || dg.bit != ow->bitpos)
                ok = fail(rep, "%s: both %s but codec at record %llu bit %llu, oracle record %llu bit %llu", what,
                          sn(st), (ull)dg.record, (ull)dg.bit, (ull)ow->record, (ull)ow->bitpos);
            else if (rsv_kv03_cursor_next(&c, &e, &more) != RSV_ERR_POISONED)
                ok = fail(rep, "%s: not poisoned after %s", what, sn(st));
        } else if (i != f->N || i != ow->records.count) {
            ok = fail(rep, "%s: %llu records, N = %llu, oracle %zu", what, (ull)i, (ull)f->N, ow->records.count);
        }
    }
    if (materialize) {
        rep->codec.walk = st;
        rep->codec.nrecords = (size_t)i;
        rep->codec.record = st ? oracle_record(st, rsv_kv03_cursor_diag(&c).record) : 0;
        rep->codec.bit = st ? rsv_kv03_cursor_diag(&c).bit : 0;
    }
    rsv_kv03_cursor_free(&c);
    return ok;
}

/* One frame against the oracle's record i. */
static int frame_matches(const rsv_kv03_file *f, const rsv_kv03_frame *fr, uint64_t i,
                         const rsv_oracle_record *o)
{
    if (fr->index != i || fr->key_bits != 8 * (uint64_t)o->key_len || fr->local > fr->key_bits) return 0;
    if (!rsv_view_bit_equal(fr->literal, rsv_view_make(o->key, fr->local, fr->key_bits - fr->local))) return 0;
    if (fr->block_start != (i % f->policy.W == 0)) return 0;
    if (fr->block_start && i > 0) {
        uint64_t bo;
        if (rsv_kv03_block_offset(f, i / f->policy.W, &bo) != RSV_OK || bo != fr->start) return 0;
    }
    int present = fr->value.kind == RSV_VALUE_PRESENT;
    if (present != (o->state == RSV_ORACLE_PRESENT)) return 0;
    if (!present) return fr->value.width == 1;
    if (fr->value.len != o->value_len) return 0;
    if (o->value_len == 0) return 1;
    uint8_t *buf = malloc(o->value_len);
    if (!buf) return 0;
    rsv_value_span_copy(&fr->value, buf);
    int same = memcmp(buf, o->value, o->value_len) == 0;
    free(buf);
    return same;
}

static int walk_frames(const rsv_kv03_file *f, const rsv_oracle_kv03_result *ow, rsv_kv03d_report *rep)
{
    rsv_kv03_frames fw;
    rsv_kv03_frame fr;
    int more = 0;
    uint64_t i = 0;
    rsv_lw_bytes(f->bytes, (size_t)f->size);
    rsv_status st = rsv_kv03_frames_init(&fw, f);
    rsv_lw_end();
    while (st == RSV_OK) {
        rsv_lw_bytes(f->bytes, (size_t)f->size);
        st = rsv_kv03_frames_next(&fw, &fr, &more);
        rsv_lw_end();
        if (st || !more) break;
        rep->checks++;
        if (i < ow->records.count && !frame_matches(f, &fr, i, &ow->records.items[i]))
            return fail(rep, "frame %llu (start %llu, local %llu, key bits %llu) differs from the oracle's record",
                        (ull)i, (ull)fr.start, (ull)fr.local, (ull)fr.key_bits);
        i++;
    }
    rsv_kv03_diag dg = rsv_kv03_frames_diag(&fw);
    uint64_t orec = st ? oracle_record(st, dg.record) : 0;
    rep->checks++;
    if (ow->status == RSV_OK) {
        if (st || i != f->N) return fail(rep, "frames: %s at record %llu on a file the oracle walks cleanly", sn(st), (ull)dg.record);
        return 1;
    }
    if (ow->status == RSV_ERR_MISSING_PREFIX || ow->status == RSV_ERR_UNSORTED) {
        /* steps 6–7 are not frame checks: frames get past record r, except
         * that the last record's terminal check may fail in the same call */
        if (st && (dg.record < ow->record ||
                   (dg.record == ow->record && !(st == RSV_ERR_TERMINAL_MISMATCH && ow->record + 1 == f->N))))
            return fail(rep, "frames: %s at record %llu before the oracle's %s at record %llu", sn(st),
                        (ull)dg.record, sn(ow->status), (ull)ow->record);
        return 1;
    }
    if (st != ow->status || orec != ow->record || dg.bit != ow->bitpos)
        return fail(rep, "frames: %s at record %llu bit %llu, oracle walk %s at record %llu bit %llu", sn(st),
                    (ull)dg.record, (ull)dg.bit, sn(ow->status), (ull)ow->record, (ull)ow->bitpos);
    return 1;
}

/* ---- file ------------------------------------------------------------------ */

/* The oracle's format-revision-v2 decoder (the codec reads m >= 2 files:
 * v1's open check 29 is gone) with its result in the v1 shape: base is
 * taken over (free it with rsv_oracle_kv03_result_free), the dictionary and
 * code indices are dropped. */
static void oracle_decode(const uint8_t *bytes, size_t n, const rsv_oracle_kv03_policy *expected,
                          rsv_oracle_kv03_mode mode, rsv_oracle_kv03_result *o)
{
    rsv_oracle_kv03_v2_result v;
    rsv_oracle_kv03_decode_v2(bytes, n, expected, mode, &v);
    *o = v.base;
    rsv_oracle_dict_free(&v.dict);
    free(v.code_index);
}


int rsv_kv03d_file(const uint8_t *bytes, size_t n, const rsv_kv03_policy *expected,
                   const rsv_record *want, size_t nwant, rsv_kv03d_report *rep)
{
    rsv_oracle_kv03_policy oe, *poe = NULL;
    if (expected) {
        oe = rsv_kv03d_policy(expected);
        poe = &oe;
    }
    rsv_kv03_file f;
    rsv_oracle_kv03_result o;
    rsv_lw_bytes(bytes, n); /* open, scan and walks load only file bytes (A1) */
    rsv_status co = rsv_kv03_open(bytes, n, expected, &f);
    rsv_lw_end();
    oracle_decode(bytes, n, poe, RSV_ORACLE_KV03_OPEN, &o);
    rep->codec.open = co;
    rep->oracle.open = o.status;
    rep->checks++;
    rsv_oracle_kv03_result_free(&o);
    if (co != rep->oracle.open) return fail(rep, "open: codec %s, oracle %s", sn(co), sn(rep->oracle.open));
    rep->status = co;
    if (co) return want ? fail(rep, "open: both reject an encoded file with %s", sn(co)) : 1;

    /* scan */
    rsv_kv03_diag dg;
    rsv_lw_bytes(bytes, n);
    rsv_status cs = rsv_kv03_scan(&f, &dg);
    rsv_lw_end();
    oracle_decode(bytes, n, poe, RSV_ORACLE_KV03_SCAN, &o);
    rep->codec.scan = cs;
    rep->oracle.scan = o.status;
    rep->status = cs;
    rep->checks++;
    int ok = 1;
    if (cs != o.status) {
        ok = fail(rep, "scan: codec %s (record %llu, bit %llu), oracle %s (step %u, record %llu, bit %llu)", sn(cs),
                  (ull)dg.record, (ull)dg.bit, sn(o.status), o.step, (ull)o.record, (ull)o.bitpos);
    } else if (cs && o.phase == RSV_ORACLE_PHASE_SCAN && o.step == 3 &&
               (oracle_record(cs, dg.record) != o.record || dg.bit != o.bitpos)) {
        ok = fail(rep, "scan: both %s, codec record %llu bit %llu, oracle record %llu bit %llu", sn(cs),
                  (ull)dg.record, (ull)dg.bit, (ull)o.record, (ull)o.bitpos);
    }
    rsv_oracle_kv03_result_free(&o);
    if (!ok) return 0;

    /* walk: cursor (records, keys only) and frames against the oracle walk */
    oracle_decode(bytes, n, poe, RSV_ORACLE_KV03_WALK, &o);
    rep->oracle.walk = o.status;
    rep->oracle.record = o.record;
    rep->oracle.bit = o.bitpos;
    rep->oracle.nrecords = o.records.count;
    ok = walk_cursor(&f, &o, 1, rep) && walk_cursor(&f, &o, 0, rep) && walk_frames(&f, &o, rep);
    if (ok && want) {
        if (cs || o.status) ok = fail(rep, "an encoded file fails: scan %s, walk %s", sn(cs), sn(o.status));
        else ok = want_equal(&o.records, want, nwant, rep, "decode");
    }
    rsv_oracle_kv03_result_free(&o);
    return ok;
}

/* ---- record streams -------------------------------------------------------- */

static const uint8_t k_default_code[1] = {0x00}; /* C0 = `0` */

int rsv_kv03d_stream(const uint8_t *bytes, uint64_t bits, const uint8_t *code, uint64_t code_bits,
                     const rsv_record *want, size_t nwant, rsv_kv03d_report *rep)
{
    const uint8_t *oc = code ? code : k_default_code;
    uint64_t ocb = code ? code_bits : 1;
    rsv_view v = rsv_view_make(bytes, 0, bits);
    rsv_oracle_stream_result o;
    rsv_oracle_stream_decode(v, oc, ocb, &o);
    rsv_stream_reader sr;
    rsv_stream_record r;
    int more = 0, ok = 1;
    uint64_t i = 0;
    rsv_status st = rsv_stream_reader_init(&sr, v, code, code_bits);
    while (st == RSV_OK) {
        rsv_lw_view(v); /* the record stream's and the code's bytes only (A1) */
        rsv_lw_also_view(rsv_view_make(sr.code, 0, sr.c)); /* the caller's code, or the reader's own `0` */
        st = rsv_stream_reader_next(&sr, &r, &more);
        rsv_lw_end();
        if (st || !more) break;
        rep->checks++;
        if (i >= o.records.count || r.index != i ||
            !same_record(r.key, r.key_len, r.value.kind, r.value.len, r.value.data, 1, &o.records.items[i])) {
            ok = fail(rep, "stream record %llu differs (oracle: %zu records, %s)", (ull)i, o.records.count,
                      sn(o.status));
            break;
        }
        i++;
    }
    if (ok) {
        rsv_kv03_diag dg = rsv_stream_reader_diag(&sr);
        rep->checks++;
        if (st != o.status)
            ok = fail(rep, "stream: codec %s (record %llu, bit %llu), oracle %s (record %llu, bit %llu)", sn(st),
                      (ull)dg.record, (ull)dg.bit, sn(o.status), (ull)o.record, (ull)o.bitpos);
        else if (st && (dg.record != o.record || dg.bit != o.bitpos))
            ok = fail(rep, "stream: both %s, codec record %llu bit %llu, oracle record %llu bit %llu", sn(st),
                      (ull)dg.record, (ull)dg.bit, (ull)o.record, (ull)o.bitpos);
        else if (!st && i != o.records.count)
            ok = fail(rep, "stream: codec %llu records, oracle %zu", (ull)i, o.records.count);
    }
    if (ok && want) {
        if (st) ok = fail(rep, "stream of the input fails with %s", sn(st));
        else ok = want_equal(&o.records, want, nwant, rep, "stream decode");
    }
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
    rsv_oracle_kv03_result o;
    oracle_decode(file, size, NULL, RSV_ORACLE_KV03_WALK, &o);
    int ok = 1;
    if (o.status != st || o.phase != RSV_ORACLE_PHASE_SCAN || o.record != oracle_record(st, codec_record) ||
        o.bitpos != bit)
        ok = fail(rep, "merge: codec input %zu fails with %s at record %llu bit %llu; that input's own walk: %s at record %llu bit %llu",
                  input, sn(st), (ull)codec_record, (ull)bit, sn(o.status), (ull)o.record, (ull)o.bitpos);
    rsv_oracle_kv03_result_free(&o);
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
