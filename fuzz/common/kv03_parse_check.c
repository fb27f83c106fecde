/* kv03_parse check: arbitrary bytes as a KV03 file, codec against oracle.
 *
 * The file is copied so that it ends flush against a PROT_NONE page
 * (guard_arena.h): any load past its last byte faults. Under ASan, open runs
 * with every byte outside the 96-byte header and the 192-byte directory
 * poisoned (§9.1: open MUST NOT touch any other body byte), and the walks
 * with every byte outside sections 0..4 poisoned (docs/kv03.md: frames,
 * cursor and records read the data stream and the EF sections only).
 *
 * What must agree (positions: oracle_kv03.h file comment, docs/kv03.md):
 *  - open (§9.1): status and every decoded header/directory field; the same
 *    file opened with an expected policy that differs (W + 1): status;
 *  - walks (§3.3; oracle WALK mode): records 0..j-1 (key bytes, three-state
 *    value), first error status, its data-stream bit and record index, for
 *    the records level (cursor_record) and the cursor level (cursor_next,
 *    value kind/length only); both are poisoned afterwards (RSV_ERR_POISONED).
 *    Documented difference: for RSV_ERR_TERMINAL_MISMATCH the oracle reports
 *    record = N, the codec the index of the last record, N - 1 (docs/kv03.md
 *    reading 3), and returns the error instead of that record;
 *  - frames (§3.3 steps 1-5 + terminal): the same as the cursor, except that
 *    steps 6-7 (MISSING_PREFIX, UNSORTED) are not frame checks: at such a
 *    record j the frame walker must deliver frames 0..j (frame j may fail
 *    only with TERMINAL_MISMATCH when j = N - 1) and is unconstrained after;
 *    each frame's key bits, literal (= key bits [local, 8|K|)) and value bytes
 *    must match the oracle's record;
 *  - scan (§9.2; oracle SCAN mode): status, and record/bit for step-3 errors;
 *  - after a clean scan: rsv_kv03_cursor_seek_code(j), j < max(m, 1),
 *    lands on the first record whose code index is >= j (oracle WALK
 *    indices) or on the end; the codec and oracle batch encoders give identical
 *    bytes for the decoded records, policy and C0 (m >= 2: each record with
 *    its code, oracle encode_v2 vs the codec's rsv_record.code) (not
 *    necessarily the input: readers accept retained lengths shorter than the
 *    exact lcp, §2.2). */
#include "kv03_parse_check.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guard_arena.h"
#include "kv03_fuzz.h"
#include "reservoir/kv03.h"
#include "reservoir/mem_impl.h" /* load-check windows (RSV_LOAD_CHECK) */
#include "reservoir/oracle_kv03.h"
#include "reservoir/status.h"

#define OPEN_BYTES (RSV_KV03_HEADER_BYTES + RSV_KV03_DIRECTORY_BYTES)

typedef struct pctx {
    const char *t;
    const uint8_t *file;
    size_t size;
    rsv_kv03_file f;
    rsv_oracle_kv03_result walk; /* oracle WALK result */
    uint64_t *codes;             /* its records' dictionary indices (v2) */
    uint8_t *vbuf;               /* frame value copies */
} pctx;

static const char *sn(rsv_status s) { return rsv_status_name((int)s); }

static _Noreturn void fail(const pctx *c, const char *what, rsv_status cs, rsv_status os)
{
    rsv_kvf_dump("file", c->file, c->size);
    rsv_kvf_fail(c->t, "%s: codec %s, oracle %s", what, sn(cs), sn(os));
}

/* The walk-error position both define: the oracle's (record, bitpos) vs the
 * codec's diag, with the documented TERMINAL_MISMATCH record mapping. */
static void check_pos(const pctx *c, const char *level, rsv_kv03_diag d, uint64_t orec, uint64_t obit)
{
    uint64_t want_rec = d.status == RSV_ERR_TERMINAL_MISMATCH && orec > 0 ? orec - 1 : orec;
    if (d.record != want_rec || d.bit != obit) {
        rsv_kvf_dump("file", c->file, c->size);
        rsv_kvf_fail(c->t,
                     "%s: error %s position: codec record %" PRIu64 " bit %" PRIu64 ", oracle record %" PRIu64
                     " bit %" PRIu64,
                     level, sn(d.status), d.record, d.bit, orec, obit);
    }
}

static void check_open_fields(const pctx *c, const rsv_oracle_kv03_result *o)
{
    const rsv_kv03_file *f = &c->f;
    const char *bad = NULL;
    if ((uint64_t)f->policy.code != o->policy.bs_kind || f->policy.param != o->policy.bs_param)
        bad = "backspace code";
    else if (f->policy.W != o->policy.W || f->policy.K != o->policy.K) bad = "W/K";
    else if (f->N != o->n_records) bad = "N";
    else if (!f->cw_present != !o->cw_present || f->cw != o->cw) bad = "cw";
    else if (f->extent != o->data_extent || f->terminal != o->terminal) bad = "extent/terminal";
    else if (f->U != o->ef_universe || f->L != o->ef_low_width) bad = "EF U/L";
    else if (f->seed_bits != o->seed_bits || f->m != o->m || f->dict_bits != o->c0_bits) bad = "seeds/m/dictionary";
    if (bad) fail(c, bad, RSV_OK, RSV_OK);
}

/* The oracle's format-revision-v2 decoder (the codec reads m >= 2 files:
 * v1's open check 29 is gone) with its result in the v1 shape: base is
 * taken over (free it with rsv_oracle_kv03_result_free), the records' code
 * indices handed to *codes (free()) or dropped (codes = NULL). */
static void oracle_decode(const uint8_t *bytes, size_t n, const rsv_oracle_kv03_policy *expected,
                          rsv_oracle_kv03_mode mode, rsv_oracle_kv03_result *o, uint64_t **codes)
{
    rsv_oracle_kv03_v2_result v;
    rsv_oracle_kv03_decode_v2(bytes, n, expected, mode, &v);
    *o = v.base;
    rsv_oracle_dict_free(&v.dict);
    if (codes) *codes = v.code_index;
    else free(v.code_index);
}

/* A walker's init failed: only a §6.3 dictionary failure may (m >= 2), with
 * the oracle's status at record 0, bit 0 (nothing of the stream read). */
static void check_init_failure(const pctx *c, const char *level, rsv_status st, rsv_kv03_diag d)
{
    const rsv_oracle_kv03_result *o = &c->walk;
    if (st != o->status || o->phase != RSV_ORACLE_PHASE_DICTIONARY) fail(c, level, st, o->status);
    check_pos(c, level, d, o->record, o->bitpos);
}

/* Open (§9.1) with only the header and the directory readable. */
static rsv_status check_open(pctx *c, const rsv_oracle_kv03_policy *oexp, const rsv_kv03_policy *cexp)
{
    size_t vis = c->size < OPEN_BYTES ? c->size : OPEN_BYTES;
    rsv_oracle_kv03_result o;
    rsv_fuzz_arena_poison_outside(c->file, c->file + vis);
    oracle_decode(c->file, c->size, oexp, RSV_ORACLE_KV03_OPEN, &o, NULL);
    rsv_kv03_file f;
    memset(&f, 0, sizeof f);
    rsv_status st = rsv_kv03_open(c->file, c->size, cexp, &f);
    rsv_fuzz_arena_unpoison();
    if (st != o.status) fail(c, cexp ? "open with expected policy: status" : "open: status", st, o.status);
    if (!cexp) {
        c->f = f;
        if (st == RSV_OK) check_open_fields(c, &o);
    }
    rsv_oracle_kv03_result_free(&o);
    return st;
}

/* Records level (full = 1, cursor_record) or cursor level (cursor_next). */
static void walk_cursor(pctx *c, int full)
{
    const char *level = full ? "records walk" : "cursor walk";
    const rsv_oracle_kv03_result *o = &c->walk;
    rsv_kv03_cursor cur;
    rsv_kv03_entry e;
    int more = 1;
    uint64_t i = 0;
    rsv_status st = rsv_kv03_cursor_init(&cur, &c->f);
    if (st) {
        check_init_failure(c, "cursor_init", st, rsv_kv03_cursor_diag(&cur));
        if (rsv_kv03_cursor_next(&cur, &e, &more) != RSV_ERR_POISONED) fail(c, "cursor after init failure", st, o->status);
        rsv_kv03_cursor_free(&cur);
        return;
    }
    for (;;) {
        st = full ? rsv_kv03_cursor_record(&cur, &e, &more) : rsv_kv03_cursor_next(&cur, &e, &more);
        if (st || !more) break;
        if (i >= o->records.count) fail(c, "walk: codec returned a record the oracle rejected", st, o->status);
        if (e.index != i) fail(c, "walk: entry index", st, o->status);
        const rsv_oracle_record *w = &o->records.items[i];
        const char *d;
        if (full) {
            d = rsv_kvf_record_diff(e.key, e.key_len, e.value.kind, e.value.data, e.value.len, w);
        } else {
            /* values skipped: kind and length only (value.len set, data unset) */
            rsv_oracle_record kl = *w; /* key and state here, the length below */
            kl.value_len = 0;
            d = rsv_kvf_record_diff(e.key, e.key_len, e.value_span.kind, NULL, 0, &kl);
            if (!d && e.value_span.kind == RSV_VALUE_PRESENT && e.value_span.len != w->value_len)
                d = "value length";
        }
        if (d) {
            fprintf(stderr, "  %s, record %" PRIu64 "\n", level, i);
            fail(c, d, st, o->status);
        }
        i++;
    }
    if (st != o->status) {
        fprintf(stderr, "  %s after %" PRIu64 " records\n", level, i);
        fail(c, "walk: first error", st, o->status);
    }
    if (st == RSV_OK) {
        if (i != o->records.count) fail(c, "walk: record count", st, o->status);
    } else {
        check_pos(c, level, rsv_kv03_cursor_diag(&cur), o->record, o->bitpos);
        uint64_t want = o->records.count - (st == RSV_ERR_TERMINAL_MISMATCH ? 1u : 0u);
        if (i != want) fail(c, "walk: records before the error", st, o->status);
        rsv_status again = full ? rsv_kv03_cursor_record(&cur, &e, &more) : rsv_kv03_cursor_next(&cur, &e, &more);
        if (again != RSV_ERR_POISONED) fail(c, "cursor after its first error (want POISONED)", again, o->status);
    }
    rsv_kv03_cursor_free(&cur);
}

/* The harness's own bit comparison (through the codec's rsv_view_bit_equal):
 * in RSV_LOAD_CHECK builds it may load the literal's and the oracle key's
 * bytes, not only the walk's window. */
static int bits_equal(rsv_view a, rsv_view b)
{
#ifdef RSV_LOAD_CHECK
    uintptr_t pa = (uintptr_t)a.data, pb = (uintptr_t)b.data;
    rsv__load_check_push((const void *)(pa + (uintptr_t)(a.off >> 3)), (const void *)(pa + (uintptr_t)((a.off + a.len + 7) >> 3)));
    rsv__load_check_also((const void *)(pb + (uintptr_t)(b.off >> 3)), (const void *)(pb + (uintptr_t)((b.off + b.len + 7) >> 3)));
    int eq = rsv_view_bit_equal(a, b);
    rsv__load_check_pop();
    return eq;
#else
    return rsv_view_bit_equal(a, b);
#endif
}

static void check_frame(pctx *c, const rsv_kv03_frame *fr, uint64_t i)
{
    const rsv_oracle_record *w = &c->walk.records.items[i];
    const char *bad = NULL;
    rsv_view cv;
    if (fr->index != i) bad = "frame index";
    else if (fr->key_bits != 8 * (uint64_t)w->key_len) bad = "frame key bits";
    else if (fr->local > fr->key_bits || fr->literal.len != fr->key_bits - fr->local) bad = "frame literal length";
    else if (fr->code != (c->codes ? c->codes[i] : 0)) bad = "frame code index";
    else if (rsv_kv03_code(&c->f, fr->code, &cv) != RSV_OK) bad = "frame code lookup";
    else if (fr->retained != fr->local + cv.len &&
             !(fr->local == 0 && fr->retained < cv.len && !fr->block_start)) /* only a transition: R < |C| */
        bad = "frame R != local + |C|";
    else if (fr->literal.len && !bits_equal(fr->literal, rsv_view_make(w->key, fr->local, fr->literal.len)))
        bad = "frame literal bits";
    else if ((fr->value.kind == RSV_VALUE_PRESENT) != (w->state == RSV_ORACLE_PRESENT)) bad = "frame value state";
    else if (fr->value.kind == RSV_VALUE_PRESENT) {
        if (fr->value.len != w->value_len) bad = "frame value length";
        else if (w->value_len) {
            uint8_t *nb = realloc(c->vbuf, w->value_len);
            if (!nb) abort();
            c->vbuf = nb;
            rsv_value_span_copy(&fr->value, c->vbuf);
            if (memcmp(c->vbuf, w->value, w->value_len) != 0) bad = "frame value bytes";
        }
    }
    if (bad) {
        fprintf(stderr, "  frames walk, record %" PRIu64 "\n", i);
        fail(c, bad, RSV_OK, c->walk.status);
    }
}

static void walk_frames(pctx *c)
{
    const rsv_oracle_kv03_result *o = &c->walk;
    int key_rule = o->status == RSV_ERR_MISSING_PREFIX || o->status == RSV_ERR_UNSORTED;
    uint64_t limit = key_rule ? o->record + 1 : UINT64_MAX; /* frames the oracle constrains */
    rsv_kv03_frames fw;
    rsv_kv03_frame fr;
    int more = 1;
    uint64_t i = 0;
    rsv_status st = rsv_kv03_frames_init(&fw, &c->f);
    if (st) {
        check_init_failure(c, "frames_init", st, rsv_kv03_frames_diag(&fw));
        if (rsv_kv03_frames_next(&fw, &fr, &more) != RSV_ERR_POISONED) fail(c, "frames after init failure", st, o->status);
        return;
    }
    for (;;) {
        st = rsv_kv03_frames_next(&fw, &fr, &more);
        if (st || !more) break;
        if (i < o->records.count) check_frame(c, &fr, i);
        else if (i >= limit) break; /* past a key-rule record: unconstrained */
        else if (!key_rule) fail(c, "frames: codec returned a frame the oracle rejected", st, o->status);
        i++;
        if (key_rule && i >= limit) break;
    }
    if (key_rule) {
        /* frames 0..j delivered, or frame j = N-1 failed its terminal check */
        if (i < limit && !(st == RSV_ERR_TERMINAL_MISMATCH && i == o->record && o->record + 1 == c->f.N))
            fail(c, "frames: stopped before the record the cursor rejects by key order", st, o->status);
    } else {
        if (st != o->status) fail(c, "frames: first error", st, o->status);
        if (st) {
            check_pos(c, "frames walk", rsv_kv03_frames_diag(&fw), o->record, o->bitpos);
            rsv_status again = rsv_kv03_frames_next(&fw, &fr, &more);
            if (again != RSV_ERR_POISONED) fail(c, "frames after the first error (want POISONED)", again, o->status);
        } else if (i != o->records.count) {
            fail(c, "frames: count", st, o->status);
        }
    }
}

static void walks(pctx *c)
{
    const rsv_kv03_file *f = &c->f;
    oracle_decode(c->file, c->size, NULL, RSV_ORACLE_KV03_WALK, &c->walk, &c->codes);
    if (c->walk.status != RSV_OK && c->walk.phase != RSV_ORACLE_PHASE_SCAN &&
        c->walk.phase != RSV_ORACLE_PHASE_DICTIONARY)
        fail(c, "oracle WALK failed outside the walk after a codec open", RSV_OK, c->walk.status);
    /* Walks may read sections 0..7 only (data stream, EF; dictionary,
     * offsets and seeds of a multi-code file, §6.3). */
    const uint8_t *lo = f->body + f->sec_off[0], *hi = f->body + f->sec_off[7] + f->sec_len[7];
    rsv_fuzz_arena_poison_outside(lo, hi);
    walk_cursor(c, 1);
    walk_cursor(c, 0);
    walk_frames(c);
    rsv_fuzz_arena_unpoison();
}

/* The decoded records re-encoded by both batch encoders: identical bytes. */
static void reencode(pctx *c, const rsv_oracle_kv03_result *s)
{
    rsv_kvf_recs r;
    rsv_kvf_policy pol;
    static const uint8_t none[1];
    const uint8_t *code = s->c0 ? s->c0 : none; /* never NULL: NULL means `0` to the codec */
    rsv_kvf_recs_from_oracle(&s->records, &r);
    rsv_kvf_policy_from_oracle(&s->policy, &pol);
    uint8_t *ob = NULL, *cb = NULL;
    size_t on = 0, cn = 0;
    rsv_status ost = rsv_oracle_kv03_encode(r.oracle, r.n, &pol.oracle, code, s->c0_bits, &ob, &on, NULL);
    rsv_status cst = rsv_kv03_encode(&pol.codec, code, s->c0_bits, r.codec, r.n, &cb, &cn);
    if (ost != cst) fail(c, "re-encode status", cst, ost);
    if (cst == RSV_OK && (on != cn || memcmp(ob, cb, cn) != 0)) {
        rsv_kvf_dump("codec re-encode", cb, cn);
        rsv_kvf_dump("oracle re-encode", ob, on);
        fail(c, "re-encode bytes differ", cst, ost);
    }
    free(ob);
    free(cb);
    rsv_kvf_recs_free(&r);
}

/* A file that scans clean: rsv_kv03_cursor_seek_code(j) for every code
 * index j < max(m, 1) lands on the first record whose code index is >= j
 * (the oracle's code indices), with that record's key and value, or on the
 * end (N = 0). */
static void seek_codes(pctx *c)
{
    const rsv_kv03_file *f = &c->f;
    const rsv_oracle_kv03_result *o = &c->walk;
    uint64_t m = rsv_kv03_code_count(f);
    if (m == 0) m = 1; /* the empty file: seek_code(0) reaches the end */
    rsv_kv03_cursor cur;
    rsv_kv03_entry e;
    int more = 1;
    if (o->status != RSV_OK) fail(c, "seek: oracle WALK after a clean scan", RSV_OK, o->status);
    rsv_fuzz_arena_poison_outside(f->body + f->sec_off[0], f->body + f->sec_off[7] + f->sec_len[7]);
    if (rsv_kv03_cursor_init(&cur, f) != RSV_OK) fail(c, "seek: cursor_init", RSV_OK, o->status);
    for (uint64_t j = 0; j < m; j++) {
        size_t i0 = 0;
        while (i0 < o->records.count && (c->codes ? c->codes[i0] : 0) < j) i0++;
        rsv_status st = rsv_kv03_cursor_seek_code(&cur, j);
        if (st == RSV_OK) st = rsv_kv03_cursor_record(&cur, &e, &more);
        const char *d = NULL;
        if (st != RSV_OK) d = "status";
        else if (i0 == o->records.count) d = more ? "a record past the last code" : NULL;
        else if (!more || e.index != i0) d = "landed on another record";
        else d = rsv_kvf_record_diff(e.key, e.key_len, e.value.kind, e.value.data, e.value.len, &o->records.items[i0]);
        if (d) {
            fprintf(stderr, "  seek_code(%" PRIu64 "): want record %zu, got %" PRIu64 " (more %d)\n", j, i0,
                    st == RSV_OK && more ? e.index : UINT64_MAX, more);
            fail(c, d, st, RSV_OK);
        }
    }
    rsv_kv03_cursor_free(&cur);
    rsv_fuzz_arena_unpoison();
}

/* A multi-code file that scans clean: its records with their codes
 * re-encoded by the oracle's v2 writer and the codec's batch encoder
 * (rsv_record.code): identical bytes. */
static void reencode_v2(pctx *c, const rsv_oracle_kv03_policy *pol)
{
    rsv_oracle_kv03_v2_result v;
    rsv_oracle_crecord *cr = NULL;
    rsv_oracle_kv03_decode_v2(c->file, c->size, NULL, RSV_ORACLE_KV03_SCAN, &v);
    if (v.base.status != RSV_OK) fail(c, "v2 re-decode", RSV_OK, v.base.status);
    if (rsv_oracle_kv03_v2_coded(&v, &cr) != RSV_OK) abort();
    size_t n = v.base.records.count;
    rsv_kvf_recs r;
    rsv_kvf_policy kp;
    rsv_kvf_recs_from_oracle(&v.base.records, &r);
    rsv_kvf_policy_from_oracle(pol, &kp);
    for (size_t i = 0; i < n; i++) {
        r.codec[i].code = cr[i].code.bits;
        r.codec[i].code_bits = cr[i].code.nbits;
    }
    uint8_t *ob = NULL, *cb = NULL;
    size_t on = 0, cn = 0;
    rsv_status ost = rsv_oracle_kv03_encode_v2(cr, n, pol, &ob, &on, NULL);
    rsv_status cst = rsv_kv03_encode(&kp.codec, NULL, 0, r.codec, n, &cb, &cn);
    if (ost != cst) fail(c, "v2 re-encode status", cst, ost);
    if (cst == RSV_OK && (on != cn || memcmp(ob, cb, cn) != 0)) {
        rsv_kvf_dump("codec re-encode", cb, cn);
        rsv_kvf_dump("oracle re-encode", ob, on);
        fail(c, "v2 re-encode bytes differ", cst, ost);
    }
    free(ob);
    free(cb);
    free(cr);
    rsv_kvf_recs_free(&r);
    rsv_oracle_kv03_v2_result_free(&v);
}

void rsv_kvf_parse_check(const char *target, const uint8_t *data, size_t size)
{
    pctx c;
    memset(&c, 0, sizeof c);
    c.t = target;
    if (size > RSV_FUZZ_ARENA_MAX) size = RSV_FUZZ_ARENA_MAX; /* never with the configured max_len */
    c.file = rsv_fuzz_arena_place(data, size);
    c.size = size;

    rsv_status ost = check_open(&c, NULL, NULL);
    if (ost == RSV_OK) {
        /* §9.1 check 11: an expected policy that differs in W */
        rsv_kvf_policy e;
        rsv_oracle_kv03_policy op = {(uint64_t)c.f.policy.code, c.f.policy.param, c.f.policy.W + 1, c.f.policy.K};
        rsv_kvf_policy_from_oracle(&op, &e);
        check_open(&c, &e.oracle, &e.codec);
        rsv_kvf_policy_from_oracle(&(rsv_oracle_kv03_policy){op.bs_kind, op.bs_param, c.f.policy.W, op.K}, &e);
        check_open(&c, &e.oracle, &e.codec);
        walks(&c);
    }

    rsv_oracle_kv03_result s;
    oracle_decode(c.file, c.size, NULL, RSV_ORACLE_KV03_SCAN, &s, NULL);
    if (ost != RSV_OK) {
        if (s.status != ost) fail(&c, "oracle SCAN vs OPEN status on a file that does not open", ost, s.status);
    } else {
        rsv_kv03_diag d;
        memset(&d, 0, sizeof d);
        rsv_status st = rsv_kv03_scan(&c.f, &d);
        if (st != s.status) fail(&c, "scan status", st, s.status);
        if (st && s.phase == RSV_ORACLE_PHASE_SCAN && s.step == 3) {
            d.status = st;
            check_pos(&c, "scan", d, s.record, s.bitpos);
        }
        if (st == RSV_OK) seek_codes(&c);
        if (st == RSV_OK && c.f.m <= 1) reencode(&c, &s);
        else if (st == RSV_OK) reencode_v2(&c, &s.policy);
        rsv_kv03_close(&c.f);
    }
    rsv_oracle_kv03_result_free(&s);
    rsv_oracle_kv03_result_free(&c.walk);
    free(c.codes);
    free(c.vbuf);
    rsv_fuzz_arena_unpoison();
}
