/* KV03 comparison engine, files: rsv_kv03d_file (kv03_diff.h lists what is
 * compared and the positions the two sides define differently). The one
 * engine behind the Criterion tests, the guard-page drivers and the KV03
 * fuzz targets (fuzz/common/kv03_parse_check.c only places the bytes and
 * poisons through rsv_kv03d_hooks).
 *
 * Loads: open may read only the 96-byte header and the 192-byte directory
 * (§9.1), the walkers and seek_code only sections 0..7 (data stream, EF,
 * dictionary, offsets, seeds: docs/kv03.md). Each codec call runs inside
 * that window: the caller's narrow hook (a fuzz target poisons the rest of
 * its guard arena) and, in RSV_LOAD_CHECK builds, the load-bounds oracle's
 * window (load_window.h). Scan reads the whole file (CRCs). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kv03_diff_impl.h"
#include "load_window.h"

typedef rsv_kv03d_ull ull;
#define sn rsv_kv03d_sn
#define fail rsv_kv03d_fail

#define OPEN_BYTES ((size_t)RSV_KV03_HEADER_BYTES + RSV_KV03_DIRECTORY_BYTES)

typedef struct fctx {
    const uint8_t *bytes;
    size_t n;
    rsv_kv03d_report *rep;
    rsv_kv03_file f;
    const uint8_t *lo, *hi;          /* the walkers' window: sections 0..7 */
    rsv_oracle_kv03_v2_result walk;  /* oracle WALK, with code indices */
    int walk_is_scan;                /* walk is a copy of the clean SCAN's result, not owned */
    uint8_t *vbuf;                   /* frame value copies */
    size_t vcap;
    uint64_t code_seen[2];           /* codes 0..127 whose rsv_kv03_code bits matched the oracle's */
} fctx;

void rsv_kv03d_narrow(const rsv_kv03d_report *rep, const uint8_t *lo, const uint8_t *hi)
{
    if (rep->hooks && rep->hooks->narrow) rep->hooks->narrow(rep->hooks->ctx, lo, hi);
}

void rsv_kv03d_widen(const rsv_kv03d_report *rep)
{
    if (rep->hooks && rep->hooks->widen) rep->hooks->widen(rep->hooks->ctx);
}

rsv_kv03_policy rsv_kv03d_codec_policy(const rsv_oracle_kv03_policy *o)
{
    rsv_kv03_policy p = {.code = o->bs_kind == RSV_ORACLE_BACKSPACE_GOLOMB ? RSV_BACKSPACE_GOLOMB : RSV_BACKSPACE_EG,
                         .param = o->bs_param, .W = o->W, .K = o->K};
    return p;
}

/* ---- open (§9.1) ------------------------------------------------------------ */

static int check_fields(fctx *c, const rsv_kv03_file *f, const rsv_oracle_kv03_result *o, const char *what)
{
    const char *bad = NULL;
    if ((uint64_t)f->policy.code != o->policy.bs_kind || f->policy.param != o->policy.bs_param)
        bad = "backspace code";
    else if (f->policy.W != o->policy.W || f->policy.K != o->policy.K) bad = "W/K";
    else if (f->N != o->n_records) bad = "N";
    else if (!f->cw_present != !o->cw_present || f->cw != o->cw) bad = "cw";
    else if (f->extent != o->data_extent || f->terminal != o->terminal) bad = "extent/terminal";
    else if (f->U != o->ef_universe || f->L != o->ef_low_width) bad = "EF U/L";
    else if (f->seed_bits != o->seed_bits || f->m != o->m || f->dict_bits != o->c0_bits) bad = "seeds/m/dictionary";
    c->rep->checks++;
    return bad ? fail(c->rep, "%s: both succeed but the decoded %s differ", what, bad) : 1;
}

/* One open with only the header and the directory readable, against the
 * oracle's OPEN mode: status and every decoded field. keep: the opened file
 * goes to c->f (closed by the caller), else it is closed here. */
static int check_open(fctx *c, const rsv_kv03_policy *expected, const char *what, rsv_status *out, int keep)
{
    size_t vis = c->n < OPEN_BYTES ? c->n : OPEN_BYTES;
    rsv_oracle_kv03_policy oe;
    if (expected) oe = rsv_kv03d_policy(expected);
    rsv_oracle_kv03_v2_result o;
    rsv_oracle_kv03_decode_v2(c->bytes, c->n, expected ? &oe : NULL, RSV_ORACLE_KV03_OPEN, &o);
    rsv_kv03_file f;
    memset(&f, 0, sizeof f);
    rsv_kv03d_narrow(c->rep, c->bytes, vis ? c->bytes + vis : c->bytes); /* bytes may be NULL when n = 0 */
    rsv_lw_bytes(c->bytes, vis);
    rsv_status st = rsv_kv03_open(c->bytes, c->n, expected, &f);
    rsv_lw_end();
    rsv_kv03d_widen(c->rep);
    c->rep->checks++;
    int ok = st == o.base.status ? 1 : fail(c->rep, "%s: codec %s, oracle %s", what, sn(st), sn(o.base.status));
    if (ok && st == RSV_OK) ok = check_fields(c, &f, &o.base, what);
    if (keep) c->f = f;
    else if (st == RSV_OK) rsv_kv03_close(&f);
    *out = st;
    rsv_oracle_kv03_v2_result_free(&o);
    return ok;
}

/* ---- walks (§3.3; oracle WALK mode) ----------------------------------------- */

/* A walker's init failed: only a §6.3 dictionary failure may (m >= 2), with
 * the oracle's status at the oracle's position (record 0, bit 0). */
static int init_failure(fctx *c, const char *what, rsv_status st, rsv_kv03_diag d)
{
    const rsv_oracle_kv03_result *o = &c->walk.base;
    c->rep->checks++;
    if (st != o->status || o->phase != RSV_ORACLE_PHASE_DICTIONARY)
        return fail(c->rep, "%s init: codec %s, oracle walk %s (phase %d)", what, sn(st), sn(o->status), (int)o->phase);
    if (!rsv_kv03d_same_pos(st, d.record, d.bit, o->record, o->bitpos))
        return fail(c->rep, "%s init: both %s, codec record %llu bit %llu, oracle record %llu bit %llu", what, sn(st),
                    (ull)d.record, (ull)d.bit, (ull)o->record, (ull)o->bitpos);
    return 1;
}

/* The first error of a walk that ran: status and (record, bit), mapped. */
static int first_error(fctx *c, const char *what, rsv_status st, rsv_kv03_diag d)
{
    const rsv_oracle_kv03_result *o = &c->walk.base;
    c->rep->checks++;
    if (st != o->status)
        return fail(c->rep, "%s: codec %s (record %llu, bit %llu), oracle walk %s (record %llu, bit %llu)", what,
                    sn(st), (ull)d.record, (ull)d.bit, sn(o->status), (ull)o->record, (ull)o->bitpos);
    if (st && !rsv_kv03d_same_pos(st, d.record, d.bit, o->record, o->bitpos))
        return fail(c->rep, "%s: both %s but codec at record %llu bit %llu, oracle record %llu bit %llu", what, sn(st),
                    (ull)d.record, (ull)d.bit, (ull)o->record, (ull)o->bitpos);
    return 1;
}

static uint64_t walk_code(const fctx *c, uint64_t i) { return c->walk.code_index ? c->walk.code_index[i] : 0; }

static rsv_status cursor_call(fctx *c, rsv_kv03_cursor *cur, int full, rsv_kv03_entry *e, int *more)
{
    rsv_lw_bytes(c->lo, (size_t)(c->hi - c->lo));
    rsv_status st = full ? rsv_kv03_cursor_record(cur, e, more) : rsv_kv03_cursor_next(cur, e, more);
    rsv_lw_end();
    return st;
}

/* Records level (full: rsv_kv03_cursor_record, key and three-state value
 * bytes) or cursor level (rsv_kv03_cursor_next: value kind and length). */
static int walk_cursor(fctx *c, int full)
{
    const char *what = full ? "cursor_record" : "cursor_next";
    const rsv_oracle_kv03_result *o = &c->walk.base;
    rsv_kv03d_report *rep = c->rep;
    rsv_kv03_cursor cur;
    rsv_kv03_entry e;
    int more = 1, ok = 1;
    uint64_t i = 0;
    rsv_lw_bytes(c->lo, (size_t)(c->hi - c->lo));
    rsv_status st = rsv_kv03_cursor_init(&cur, &c->f);
    rsv_lw_end();
    if (st) {
        ok = init_failure(c, what, st, rsv_kv03_cursor_diag(&cur));
        if (ok && cursor_call(c, &cur, full, &e, &more) != RSV_ERR_POISONED)
            ok = fail(rep, "%s: not poisoned after an init failure", what);
        rsv_kv03_cursor_free(&cur);
        return ok;
    }
    for (;;) {
        st = cursor_call(c, &cur, full, &e, &more);
        if (!rsv_test_reader_state_ok(&cur.fw.r)) {
            ok = fail(rep, "%s: after record %llu (%s) the walker's cache breaks reader.h's invariant (the view bits "
                      "[pos, pos + n), zero below): pos %llu n %u", what, (ull)i, sn(st),
                      (ull)rsv_reader_position(&cur.fw.r), cur.fw.r.n);
            break;
        }
        if (st || !more) break;
        rep->checks++;
        if (i >= o->records.count) {
            ok = fail(rep, "%s returned record %llu; oracle walk stopped there with %s", what, (ull)i, sn(o->status));
            break;
        }
        const rsv_oracle_record *w = &o->records.items[i];
        int same = e.index == i && e.code == walk_code(c, i) &&
                   rsv_kv03d_same_record(e.key, e.key_len, e.value.kind, e.value.len, e.value.data, full, w);
        if (same && !full) /* the value's encoding: kind and length */
            same = rsv_kv03d_same_record(e.key, e.key_len, e.value_span.kind, e.value_span.len, NULL, 0, w);
        const char *td = e.value_span.kind == RSV_VALUE_TOMBSTONE ? rsv_kv03d_tombstone_span(&e.value_span) : NULL;
        if (same && td) {
            ok = fail(rep, "%s record %llu: %s", what, (ull)i, td);
            break;
        }
        if (!same) {
            ok = fail(rep, "%s record %llu differs from the oracle's (index %llu, code %llu vs %llu, key len %zu vs %zu, "
                      "value state %d vs %d, len %zu vs %zu)",
                      what, (ull)i, (ull)e.index, (ull)e.code, (ull)walk_code(c, i), e.key_len, w->key_len,
                      (int)e.value.kind, (int)w->state, e.value.len, w->value_len);
            break;
        }
        i++;
    }
    rsv_kv03_diag dg = rsv_kv03_cursor_diag(&cur);
    if (ok) ok = first_error(c, what, st, dg);
    if (ok && st) {
        /* records before the error: all the oracle's, less the last one for
         * TERMINAL_MISMATCH (the codec returns the error instead of it) */
        uint64_t want = o->records.count - (st == RSV_ERR_TERMINAL_MISMATCH ? 1u : 0u);
        if (i != want) ok = fail(rep, "%s: %llu records before %s, oracle %llu", what, (ull)i, sn(st), (ull)want);
        else if (cursor_call(c, &cur, full, &e, &more) != RSV_ERR_POISONED)
            ok = fail(rep, "%s: not poisoned after %s", what, sn(st));
    } else if (ok && (i != c->f.N || i != o->records.count)) {
        ok = fail(rep, "%s: %llu records, N = %llu, oracle %zu", what, (ull)i, (ull)c->f.N, o->records.count);
    }
    if (full) {
        rep->codec.walk = st;
        rep->codec.nrecords = (size_t)i;
        rep->codec.record = st ? rsv_kv03d_oracle_record(st, dg.record) : 0;
        rep->codec.bit = st ? dg.bit : 0;
    }
    rsv_kv03_cursor_free(&cur);
    return ok;
}

/* The harness's own bit comparison (through the codec's rsv_view_bit_equal):
 * in RSV_LOAD_CHECK builds it loads the literal's and the oracle key's bytes. */
static int bits_equal(rsv_view a, rsv_view b)
{
    rsv_lw_view(a);
    rsv_lw_also_view(b);
    int eq = rsv_view_bit_equal(a, b);
    rsv_lw_end();
    return eq;
}

/* One frame against the oracle's record i: NULL when it matches. */
static const char *frame_diff(fctx *c, const rsv_kv03_frame *fr, uint64_t i)
{
    const rsv_kv03_file *f = &c->f;
    const rsv_oracle_record *w = &c->walk.base.records.items[i];
    rsv_view cv;
    uint64_t bo;
    if (fr->index != i) return "frame index";
    if (fr->key_bits != 8 * (uint64_t)w->key_len) return "key bits";
    if (fr->local > fr->key_bits || fr->literal.len != fr->key_bits - fr->local) return "literal length";
    if (fr->code != walk_code(c, i)) return "code index";
    if (rsv_kv03_code(f, fr->code, &cv) != RSV_OK) return "code lookup";
    /* rsv_kv03_code is a function of the file and the index alone: its bits
     * are compared once per code (codes below 128; the rest every frame). */
    int seen = fr->code < 128 && (c->code_seen[fr->code / 64] >> (fr->code % 64) & 1u);
    if (fr->code < c->walk.dict.m && !seen) {
        rsv_oracle_code oc = c->walk.dict.codes[fr->code];
        if (!bits_equal(cv, rsv_view_make(oc.bits, 0, oc.nbits))) return "code bits (rsv_kv03_code)";
        if (fr->code < 128) c->code_seen[fr->code / 64] |= UINT64_C(1) << (fr->code % 64);
    }
    if (fr->retained != fr->local + cv.len && !(fr->local == 0 && fr->retained < cv.len && !fr->block_start))
        return "R != local + |C| (only a code transition has R < |C|)";
    if (fr->literal.len && !bits_equal(fr->literal, rsv_view_make(w->key, fr->local, fr->literal.len)))
        return "literal bits";
    if (fr->block_start != (i % f->policy.W == 0)) return "block start";
    if (fr->block_start && i > 0 && (rsv_kv03_block_offset(f, i / f->policy.W, &bo) != RSV_OK || bo != fr->start))
        return "block offset";
    int present = fr->value.kind == RSV_VALUE_PRESENT;
    if (present != (w->state == RSV_ORACLE_PRESENT)) return "value state";
    if (!present) return rsv_kv03d_tombstone_span(&fr->value);
    if (fr->value.len != w->value_len) return "value length";
    if (w->value_len == 0) return NULL;
    if (c->vcap < w->value_len) {
        uint8_t *nb = realloc(c->vbuf, w->value_len);
        if (!nb) return "out of memory";
        c->vbuf = nb;
        c->vcap = w->value_len;
    }
    rsv_value_span_copy(&fr->value, c->vbuf);
    return memcmp(c->vbuf, w->value, w->value_len) != 0 ? "value bytes" : NULL;
}

static rsv_status frames_call(fctx *c, rsv_kv03_frames *fw, rsv_kv03_frame *fr, int *more)
{
    rsv_lw_bytes(c->lo, (size_t)(c->hi - c->lo));
    rsv_status st = rsv_kv03_frames_next(fw, fr, more);
    rsv_lw_end();
    return st;
}

/* Frames (§3.3 steps 1-5 + terminal): the cursor's checks, except that steps
 * 6-7 (MISSING_PREFIX, UNSORTED at record r) are not frame checks: frames
 * 0..r come, frame r may fail only with TERMINAL_MISMATCH when r = N - 1,
 * and frames after r are unconstrained. */
static int walk_frames(fctx *c)
{
    const rsv_oracle_kv03_result *o = &c->walk.base;
    rsv_kv03d_report *rep = c->rep;
    int key_rule = o->status == RSV_ERR_MISSING_PREFIX || o->status == RSV_ERR_UNSORTED;
    rsv_kv03_frames fw;
    rsv_kv03_frame fr;
    int more = 1;
    uint64_t i = 0;
    rsv_lw_bytes(c->lo, (size_t)(c->hi - c->lo));
    rsv_status st = rsv_kv03_frames_init(&fw, &c->f);
    rsv_lw_end();
    if (st) {
        if (!init_failure(c, "frames", st, rsv_kv03_frames_diag(&fw))) return 0;
        if (frames_call(c, &fw, &fr, &more) != RSV_ERR_POISONED)
            return fail(rep, "frames: not poisoned after an init failure");
        return 1;
    }
    for (;;) {
        st = frames_call(c, &fw, &fr, &more);
        if (!rsv_test_reader_state_ok(&fw.r))
            return fail(rep, "frames: after frame %llu (%s) the walker's cache breaks reader.h's invariant (the view "
                        "bits [pos, pos + n), zero below): pos %llu n %u", (ull)i, sn(st),
                        (ull)rsv_reader_position(&fw.r), fw.r.n);
        if (st || !more) break;
        rep->checks++;
        if (i < o->records.count) {
            const char *d = frame_diff(c, &fr, i);
            if (d)
                return fail(rep, "frame %llu (start %llu, local %llu, key bits %llu): %s differs from the oracle's record",
                            (ull)i, (ull)fr.start, (ull)fr.local, (ull)fr.key_bits, d);
        } else if (!key_rule) {
            return fail(rep, "frames: frame %llu returned; oracle walk stopped there with %s", (ull)i, sn(o->status));
        }
        i++;
    }
    rsv_kv03_diag dg = rsv_kv03_frames_diag(&fw);
    rep->checks++;
    if (key_rule) {
        if (i <= o->record && !(st == RSV_ERR_TERMINAL_MISMATCH && i == o->record && o->record + 1 == c->f.N))
            return fail(rep, "frames: %s at record %llu before the oracle's %s at record %llu", sn(st), (ull)dg.record,
                        sn(o->status), (ull)o->record);
        return 1;
    }
    if (!first_error(c, "frames", st, dg)) return 0;
    if (st && frames_call(c, &fw, &fr, &more) != RSV_ERR_POISONED)
        return fail(rep, "frames: not poisoned after %s", sn(st));
    if (!st && i != o->records.count) return fail(rep, "frames: %llu frames, oracle %zu records", (ull)i, o->records.count);
    return 1;
}

/* ---- after a clean scan ------------------------------------------------------ */

/* rsv_kv03_cursor_seek_code(j) for every code index j < max(m, 1) lands on
 * the first record whose code index is >= j (the oracle's), with that
 * record's key and value, or on the end. */
static int seek_codes(fctx *c)
{
    const rsv_oracle_kv03_result *o = &c->walk.base;
    uint64_t m = rsv_kv03_code_count(&c->f);
    if (m == 0) m = 1; /* the empty file: seek_code(0) reaches the end */
    rsv_kv03_cursor cur;
    rsv_kv03_entry e;
    int more = 1, ok = 1;
    if (rsv_kv03_cursor_init(&cur, &c->f) != RSV_OK) return fail(c->rep, "seek: cursor_init on a clean file");
    size_t i0 = 0;
    for (uint64_t j = 0; j < m && ok; j++) {
        while (i0 < o->records.count && walk_code(c, i0) < j) i0++;
        rsv_lw_bytes(c->lo, (size_t)(c->hi - c->lo));
        rsv_status st = rsv_kv03_cursor_seek_code(&cur, j);
        rsv_lw_end();
        if (st == RSV_OK) st = cursor_call(c, &cur, 1, &e, &more);
        c->rep->checks++;
        const char *d = NULL;
        if (st != RSV_OK) d = sn(st);
        else if (i0 == o->records.count) d = more ? "a record past the last code" : NULL;
        else if (!more || e.index != i0) d = "landed on another record";
        else if (!rsv_kv03d_same_record(e.key, e.key_len, e.value.kind, e.value.len, e.value.data, 1, &o->records.items[i0]))
            d = "record differs from the oracle's";
        if (d)
            ok = fail(c->rep, "seek_code(%llu): %s (want record %zu, got %llu, more %d)", (ull)j, d, i0,
                      (ull)(st == RSV_OK && more ? e.index : UINT64_MAX), more);
    }
    rsv_kv03_cursor_free(&cur);
    return ok;
}

/* The decoded records (with their codes when m >= 2) re-encoded by the
 * oracle's and the codec's batch encoders: identical bytes (not necessarily
 * the input: readers accept retained lengths shorter than the exact lcp,
 * §2.2). */
static int reencode(fctx *c, const rsv_oracle_kv03_v2_result *s)
{
    const rsv_oracle_records *recs = &s->base.records;
    size_t n = recs->count;
    rsv_oracle_crecord *cr = NULL;
    rsv_record *r = calloc(n ? n : 1, sizeof *r);
    if (!r || rsv_oracle_kv03_v2_coded(s, &cr) != RSV_OK) {
        free(r);
        return fail(c->rep, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        const rsv_oracle_record *o = &recs->items[i];
        r[i].key = o->key;
        r[i].key_len = o->key_len;
        r[i].value = o->state == RSV_ORACLE_PRESENT ? rsv_value_present(o->value, o->value_len) : rsv_value_tombstone();
        if (c->f.m >= 2) {
            r[i].code = cr[i].code.bits;
            r[i].code_bits = cr[i].code.nbits;
        }
    }
    rsv_kv03_policy p = rsv_kv03d_codec_policy(&s->base.policy);
    static const uint8_t none[1];
    const uint8_t *c0 = s->base.c0 ? s->base.c0 : none; /* never NULL: NULL means `0` to the codec */
    uint8_t *ob = NULL, *cb = NULL;
    size_t on = 0, cn = 0;
    rsv_status ost = c->f.m >= 2 ? rsv_oracle_kv03_encode_v2(cr, n, &s->base.policy, &ob, &on, NULL)
                                 : rsv_oracle_kv03_encode(recs->items, n, &s->base.policy, c0, s->base.c0_bits, &ob, &on, NULL);
    rsv_status cst = c->f.m >= 2 ? rsv_kv03_encode(&p, NULL, 0, r, n, &cb, &cn)
                                 : rsv_kv03_encode(&p, c0, s->base.c0_bits, r, n, &cb, &cn);
    c->rep->checks++;
    int ok = 1;
    if (ost != cst) ok = fail(c->rep, "re-encode of the decoded records: codec %s, oracle %s", sn(cst), sn(ost));
    else if (cst == RSV_OK && (on != cn || memcmp(ob, cb, cn) != 0))
        ok = fail(c->rep, "re-encode of the decoded records: codec %zu bytes, oracle %zu bytes differ", cn, on);
    free(ob);
    free(cb);
    free(cr);
    free(r);
    return ok;
}

/* want[i]: key and three-state value; with want[i].code set also the code
 * (the oracle's dictionary code of record i). */
static int want_equal(fctx *c, const rsv_oracle_kv03_v2_result *s, const rsv_record *want, size_t nwant)
{
    c->rep->checks++;
    if (!rsv_kv03d_want_equal(&s->base.records, want, nwant, c->rep, "decode")) return 0;
    for (size_t i = 0; i < nwant; i++) {
        if (!want[i].code) continue;
        uint64_t ci = s->code_index ? s->code_index[i] : 0;
        rsv_oracle_code wc = {want[i].code, want[i].code_bits};
        /* the records come grouped by code: a pair (index, input code) that
         * matched for the record before needs no second bit-wise compare */
        if (i > 0 && want[i - 1].code == want[i].code && want[i - 1].code_bits == want[i].code_bits &&
            (s->code_index ? s->code_index[i - 1] : 0) == ci)
            continue;
        if (ci >= s->dict.m || rsv_oracle_code_compare(s->dict.codes[ci], wc) != 0)
            return fail(c->rep, "decode: record %zu has another code than the input's (index %llu)", i, (ull)ci);
    }
    return 1;
}

/* ---- the file ---------------------------------------------------------------- */

static int file_checks(fctx *c, const rsv_kv03_policy *expected, const rsv_record *want, size_t nwant)
{
    rsv_kv03d_report *rep = c->rep;
    rsv_oracle_kv03_policy oe;
    if (expected) oe = rsv_kv03d_policy(expected);
    const rsv_oracle_kv03_policy *poe = expected ? &oe : NULL;
    rsv_status co, other;
    if (!check_open(c, expected, "open", &co, 1)) return 0;
    rep->codec.open = rep->oracle.open = rep->status = co;
    if (co == RSV_OK && !expected) {
        /* §9.1 check 11: an expected policy that differs in W, and the file's own */
        rsv_kv03_policy e = c->f.policy;
        e.W += 1;
        if (!check_open(c, &e, "open, expected policy with W + 1", &other, 0) ||
            !check_open(c, &c->f.policy, "open, the file's own policy expected", &other, 0))
            return 0;
    }

    rsv_oracle_kv03_v2_result s;
    rsv_oracle_kv03_decode_v2(c->bytes, c->n, poe, RSV_ORACLE_KV03_SCAN, &s);
    int ok = 1;
    if (co != RSV_OK) {
        rep->checks++;
        if (s.base.status != co) ok = fail(rep, "oracle SCAN %s vs OPEN %s on a file that does not open", sn(s.base.status), sn(co));
        else if (want) ok = fail(rep, "open: both reject an encoded file with %s", sn(co));
        rsv_oracle_kv03_v2_result_free(&s);
        return ok;
    }

    /* walks */
    const rsv_oracle_kv03_result *o = &c->walk.base;
    /* A clean SCAN ran the WALK mode's steps (dictionary, §3.3 walk,
     * terminal) on the same bytes, and then more checks: its records, code
     * indices and dictionary are the WALK's. Only a failing SCAN needs its
     * own WALK decode (the walk may go further than the scan's first error). */
    if (s.base.status == RSV_OK) {
        c->walk = s;
        c->walk_is_scan = 1;
    } else {
        rsv_oracle_kv03_decode_v2(c->bytes, c->n, poe, RSV_ORACLE_KV03_WALK, &c->walk);
    }
    rep->oracle.walk = o->status;
    rep->oracle.record = o->record;
    rep->oracle.bit = o->bitpos;
    rep->oracle.nrecords = o->records.count;
    rep->checks++;
    if (o->status != RSV_OK && o->phase != RSV_ORACLE_PHASE_SCAN && o->phase != RSV_ORACLE_PHASE_DICTIONARY)
        ok = fail(rep, "oracle WALK fails with %s outside the walk after both opened the file", sn(o->status));
    c->lo = c->f.body + c->f.sec_off[0];
    c->hi = c->f.body + c->f.sec_off[7] + c->f.sec_len[7];
    if (ok) {
        rsv_kv03d_narrow(rep, c->lo, c->hi);
        ok = walk_cursor(c, 1) && walk_cursor(c, 0) && walk_frames(c);
        rsv_kv03d_widen(rep);
    }

    /* scan (§9.2): status, and record/bit for the §3.3 walk's errors (step 3) */
    if (ok) {
        rsv_kv03_diag dg;
        memset(&dg, 0, sizeof dg);
        rsv_lw_bytes(c->bytes, c->n);
        rsv_status cs = rsv_kv03_scan(&c->f, &dg);
        rsv_lw_end();
        rep->codec.scan = cs;
        rep->oracle.scan = s.base.status;
        rep->status = cs;
        rep->checks++;
        if (cs != s.base.status)
            ok = fail(rep, "scan: codec %s (record %llu, bit %llu), oracle %s (step %u, record %llu, bit %llu)", sn(cs),
                      (ull)dg.record, (ull)dg.bit, sn(s.base.status), s.base.step, (ull)s.base.record,
                      (ull)s.base.bitpos);
        else if (cs && s.base.phase == RSV_ORACLE_PHASE_SCAN && s.base.step == 3 &&
                 !rsv_kv03d_same_pos(cs, dg.record, dg.bit, s.base.record, s.base.bitpos))
            ok = fail(rep, "scan: both %s, codec record %llu bit %llu, oracle record %llu bit %llu", sn(cs),
                      (ull)dg.record, (ull)dg.bit, (ull)s.base.record, (ull)s.base.bitpos);
        else if (want && (cs || o->status))
            ok = fail(rep, "an encoded file fails: scan %s, walk %s", sn(cs), sn(o->status));
        if (ok && cs == RSV_OK) {
            if (o->status != RSV_OK) ok = fail(rep, "oracle WALK %s on a file that scans clean", sn(o->status));
            if (ok) {
                rsv_kv03d_narrow(rep, c->lo, c->hi);
                ok = seek_codes(c);
                rsv_kv03d_widen(rep);
            }
            /* with want, the caller encoded want itself (both encoders) and
             * decode == want closes the loop: re-encoding would repeat it */
            if (ok) ok = want ? want_equal(c, &s, want, nwant) : reencode(c, &s);
        }
    }
    rsv_oracle_kv03_v2_result_free(&s);
    return ok;
}

int rsv_kv03d_file(const uint8_t *bytes, size_t n, const rsv_kv03_policy *expected, const rsv_record *want,
                   size_t nwant, rsv_kv03d_report *rep)
{
    fctx c;
    memset(&c, 0, sizeof c);
    c.bytes = bytes;
    c.n = n;
    c.rep = rep;
    int ok = file_checks(&c, expected, want, nwant);
    if (rep->codec.open == RSV_OK) rsv_kv03_close(&c.f);
    if (!c.walk_is_scan) rsv_oracle_kv03_v2_result_free(&c.walk);
    free(c.vbuf);
    return ok;
}
