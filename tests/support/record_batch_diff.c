/* Record batch vs single-record calls vs oracle (record_batch_diff.h). */
#include "record_batch_diff.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reservoir/kv03.h"
#include "reservoir/stream.h"

#include "load_window.h"
#include "testutil.h"

/* The oracle's decode: records, code indices, first error (codec record
 * convention). */
typedef struct expect {
    const rsv_oracle_record *rec;
    const uint64_t *code;
    uint64_t *end; /* the single walk's `end` per record (filled by single_walk) */
    size_t count;
    rsv_status status;
    uint64_t record, bit;
} expect;

/* One record as a single-record call returns it. */
typedef struct one {
    const uint8_t *key;
    size_t key_len;
    rsv_value value;
    uint64_t code;
    uint64_t end;
} one;

/* A walker seen through the two call forms, and the bytes its calls may
 * load (CODES.md §1.2 A1): its input (the file, or the stream view) and, for
 * a stream, its code set's bits and ends (empty views: nothing). */
typedef struct walker {
    void *obj;
    rsv_status (*batch)(void *obj, rsv_record_batch *b, size_t n, size_t *done);
    rsv_status (*single)(void *obj, int values, one *out, int *more);
    rsv_kv03_diag (*diag)(const void *obj);
    rsv_view in, also[2];
    const rsv_reader *rd; /* the walker's reader (its state is checked after every call) */
} walker;

/* In RSV_LOAD_CHECK builds a load outside those bytes aborts with the
 * offending address (load_window.h); elsewhere these are empty. */
static void window_open(const walker *w)
{
    rsv_lw_view(w->in);
    rsv_lw_also_view(w->also[0]);
    rsv_lw_also_view(w->also[1]);
}

/* A call, then reader.h's state invariant on the walker's reader
 * (rsv_test_reader_state_ok); *state_ok = 0 when it broke. */
static rsv_status call_batch(walker *w, rsv_record_batch *b, size_t n, size_t *done, int *state_ok)
{
    window_open(w);
    rsv_status st = w->batch(w->obj, b, n, done);
    rsv_lw_end();
    *state_ok = rsv_test_reader_state_ok(w->rd);
    return st;
}

static rsv_status call_single(walker *w, int values, one *out, int *more, int *state_ok)
{
    window_open(w);
    rsv_status st = w->single(w->obj, values, out, more);
    rsv_lw_end();
    *state_ok = rsv_test_reader_state_ok(w->rd);
    return st;
}

#define STATE_MSG "the reader's cache breaks reader.h's invariant (the view bits [pos, pos + n), zero below)"

static rsv_status cur_batch(void *o, rsv_record_batch *b, size_t n, size_t *done)
{
    return rsv_kv03_cursor_batch(o, b, n, done);
}
static rsv_status cur_single(void *o, int values, one *out, int *more)
{
    rsv_kv03_entry e;
    rsv_status st = values ? rsv_kv03_cursor_record(o, &e, more) : rsv_kv03_cursor_next(o, &e, more);
    out->key = e.key, out->key_len = e.key_len, out->value = e.value, out->code = e.code, out->end = e.end;
    return st;
}
static rsv_kv03_diag cur_diag(const void *o) { return rsv_kv03_cursor_diag(o); }
static rsv_status str_batch(void *o, rsv_record_batch *b, size_t n, size_t *done)
{
    return rsv_stream_reader_batch(o, b, n, done);
}
static rsv_status str_single(void *o, int values, one *out, int *more)
{
    (void)values; /* the stream reader always hands out the bytes */
    rsv_stream_record r;
    rsv_status st = rsv_stream_reader_next(o, &r, more);
    out->key = r.key, out->key_len = r.key_len, out->value = r.value, out->code = r.code, out->end = r.end;
    return st;
}
static rsv_kv03_diag str_diag(const void *o) { return rsv_stream_reader_diag(o); }

static int failf(char *msg, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, RSV_RBD_MSG, fmt, ap);
    va_end(ap);
    return 0;
}

#define SENT 0xA5u
static const uint8_t *const SENT_PTR = (const uint8_t *)(uintptr_t)0xA5A5A5A5u;
static const size_t SENT_SIZE = (size_t)0xA5A5A5A5A5A5A5A5ull;
static const uint64_t SENT_U64 = 0xA5A5A5A5A5A5A5A5ull;

typedef struct arrays {
    rsv_record_batch b;
    size_t n;
    int own_key, own_val;
} arrays;

static int arrays_alloc(arrays *a, const rsv_rbd_shape *s)
{
    memset(a, 0, sizeof *a);
    a->n = s->n;
    a->b.key_off = malloc(s->n * sizeof(size_t));
    a->b.key_len = malloc(s->n * sizeof(size_t));
    a->b.kind = malloc(s->n);
    a->b.val_len = malloc(s->n * sizeof(size_t));
    a->b.val = s->values ? malloc(s->n * sizeof(const uint8_t *)) : NULL;
    a->b.code = s->codes ? malloc(s->n * sizeof(uint64_t)) : NULL;
    a->b.end = s->codes ? malloc(s->n * sizeof(uint64_t)) : NULL;
    a->b.key_cap = s->key_cap;
    a->b.val_cap = s->val_cap;
    a->own_key = !s->key_arena, a->own_val = !s->val_arena;
    a->b.key_arena = s->key_arena ? s->key_arena : s->key_cap ? malloc(s->key_cap) : NULL;
    a->b.val_arena = s->val_arena ? s->val_arena : s->val_cap ? malloc(s->val_cap) : NULL;
    return a->b.key_off && a->b.key_len && a->b.kind && a->b.val_len && (!s->values || a->b.val) &&
           (!s->codes || (a->b.code && a->b.end)) && (!s->key_cap || a->b.key_arena) && (!s->val_cap || a->b.val_arena);
}

static void arrays_free(arrays *a)
{
    free(a->b.key_off), free(a->b.key_len), free(a->b.kind), free(a->b.val_len);
    free((void *)a->b.val), free(a->b.code), free(a->b.end);
    if (a->own_key) free(a->b.key_arena);
    if (a->own_val) free(a->b.val_arena);
}

static void arrays_fill(arrays *a)
{
    rsv_record_batch *b = &a->b;
    for (size_t k = 0; k < a->n; k++) {
        b->key_off[k] = b->key_len[k] = b->val_len[k] = SENT_SIZE;
        b->kind[k] = SENT;
        if (b->val) b->val[k] = SENT_PTR;
        if (b->code) b->code[k] = SENT_U64;
        if (b->end) b->end[k] = SENT_U64;
    }
    if (b->key_cap) memset(b->key_arena, SENT, b->key_cap);
    if (b->val_cap) memset(b->val_arena, SENT, b->val_cap);
    b->key_used = b->val_used = b->need = SENT_SIZE; /* results: every call sets them */
    b->stop = (rsv_batch_stop)SENT;
}

/* Slots [done, n) and the arenas past the used bytes still hold the
 * sentinel; `need` is set, 0 unless the call stopped on an arena
 * (record_batch.h). */
static int untouched(const arrays *a, size_t done, char *msg)
{
    const rsv_record_batch *b = &a->b;
    for (size_t k = done; k < a->n; k++)
        if (b->key_off[k] != SENT_SIZE || b->key_len[k] != SENT_SIZE || b->val_len[k] != SENT_SIZE ||
            b->kind[k] != SENT || (b->val && b->val[k] != SENT_PTR) || (b->code && b->code[k] != SENT_U64) || (b->end && b->end[k] != SENT_U64))
            return failf(msg, "slot %zu (done %zu) was written", k, done);
    if (b->key_used > b->key_cap || b->val_used > b->val_cap) return failf(msg, "arena use past capacity");
    for (size_t i = b->key_used; i < b->key_cap; i++)
        if (b->key_arena[i] != SENT) return failf(msg, "key arena byte %zu past key_used %zu written", i, b->key_used);
    for (size_t i = b->val_used; i < b->val_cap; i++)
        if (b->val_arena[i] != SENT) return failf(msg, "value arena byte %zu past val_used %zu written", i, b->val_used);
    int arena = b->stop == RSV_BATCH_STOP_KEY_ARENA || b->stop == RSV_BATCH_STOP_VALUE_ARENA;
    if (!arena && b->need != 0) return failf(msg, "need %zu after stop %d: 0 unless an arena stop", b->need, (int)b->stop);
    return 1;
}

static int value_matches(const rsv_value *v, const rsv_oracle_record *w, int bytes)
{
    if ((v->kind == RSV_VALUE_PRESENT) != (w->state == RSV_ORACLE_PRESENT)) return 0;
    if (w->state == RSV_ORACLE_TOMBSTONE) return v->len == 0;
    if (v->len != w->value_len) return 0;
    return !bytes || !w->value_len || (v->data && memcmp(v->data, w->value, w->value_len) == 0);
}

static int one_matches(const one *r, const rsv_oracle_record *w, uint64_t code, int values)
{
    return r->key_len == w->key_len && (!w->key_len || memcmp(r->key, w->key, w->key_len) == 0) &&
           value_matches(&r->value, w, values) && r->code == code;
}

static int inside(const uint8_t *p, const uint8_t *base, size_t len) { return base && p >= base && p < base + len; }

/* Batch record k against oracle record w (index i). */
static int check_slot(const arrays *a, size_t k, const expect *e, size_t i, const uint8_t *input, size_t input_len,
                      char *msg)
{
    const rsv_record_batch *b = &a->b;
    const rsv_oracle_record *w = &e->rec[i];
    size_t want_off = k ? b->key_off[k - 1] + b->key_len[k - 1] : 0;
    if (b->key_off[k] != want_off || b->key_len[k] != w->key_len || b->key_off[k] + w->key_len > b->key_used)
        return failf(msg, "record %zu: key at %zu+%zu, expected %zu+%zu", i, b->key_off[k], b->key_len[k], want_off,
                     w->key_len);
    if (w->key_len && memcmp(b->key_arena + b->key_off[k], w->key, w->key_len) != 0)
        return failf(msg, "record %zu: key bytes differ", i);
    unsigned kind = w->state == RSV_ORACLE_TOMBSTONE ? RSV_BATCH_TOMBSTONE
                    : w->value_len                   ? RSV_BATCH_PRESENT
                                                     : RSV_BATCH_EMPTY;
    if (b->kind[k] != kind || b->val_len[k] != (kind == RSV_BATCH_PRESENT ? w->value_len : 0))
        return failf(msg, "record %zu: kind %u len %zu, expected %u len %zu", i, b->kind[k], b->val_len[k], kind,
                     w->value_len);
    if (b->val) {
        const uint8_t *p = b->val[k];
        if (kind != RSV_BATCH_PRESENT) {
            if (p) return failf(msg, "record %zu: value pointer set for a value without bytes", i);
        } else if (!inside(p, input, input_len) && !inside(p, b->val_arena, b->val_used)) {
            return failf(msg, "record %zu: value neither borrowed from the input nor in the used arena", i);
        } else if (inside(p, b->val_arena, b->val_used) && p + w->value_len > b->val_arena + b->val_used) {
            return failf(msg, "record %zu: copied value ends past val_used", i);
        } else if (memcmp(p, w->value, w->value_len) != 0) {
            return failf(msg, "record %zu: value bytes differ", i);
        }
    }
    if (b->code && b->code[k] != e->code[i]) return failf(msg, "record %zu: code %llu, expected %llu", i,
                                                         (unsigned long long)b->code[k], (unsigned long long)e->code[i]);
    if (b->end && b->end[k] != e->end[i])
        return failf(msg, "record %zu: end %llu, the single call's %llu", i, (unsigned long long)b->end[k],
                     (unsigned long long)e->end[i]);
    return 1;
}

/* The single-record walk against the oracle; *d = its diag at the end. */
static int single_walk(walker *w, expect *e, int values, rsv_kv03_diag *d, char *msg)
{
    size_t i = 0;
    for (;; i++) {
        one r;
        int more = 0;
        int state_ok;
        rsv_status st = call_single(w, values, &r, &more, &state_ok);
        if (!state_ok) return failf(msg, "single: after record %zu (%s) " STATE_MSG, i, rsv_status_name(st));
        if (st) {
            *d = w->diag(w->obj);
            if (st != e->status || i != e->record || d->bit != e->bit || d->record != e->record)
                return failf(msg, "single: %s at record %zu bit %llu; oracle %s at %llu bit %llu after %zu records",
                             rsv_status_name(st), i, (unsigned long long)d->bit, rsv_status_name(e->status),
                             (unsigned long long)e->record, (unsigned long long)e->bit, e->count);
            return 1;
        }
        if (!more) break;
        if (i >= e->count || !one_matches(&r, &e->rec[i], e->code[i], values))
            return failf(msg, "single: record %zu differs from the oracle's", i);
        e->end[i] = r.end;
    }
    *d = w->diag(w->obj);
    if (e->status != RSV_OK || i != e->count)
        return failf(msg, "single: end after %zu records; oracle %s after %zu", i, rsv_status_name(e->status), e->count);
    return 1;
}

/* The batch walk (record_batch_diff.h). single_d: the single walk's diag. */
static int batch_walk(walker *w, const expect *e, const rsv_rbd_shape *s, rsv_kv03_diag single_d, int poisoned0,
                      const uint8_t *input, size_t input_len, rsv_rbd_tally *tally, char *msg)
{
    arrays a;
    if (!arrays_alloc(&a, s)) {
        arrays_free(&a);
        return failf(msg, "out of memory");
    }
    int ok = 0;
    size_t pos = 0, calls = 0, limit = 4 * (e->count + 2) + 4;
    for (;;) {
        if (++calls > limit) {
            failf(msg, "no progress after %zu calls at record %zu", calls, pos);
            goto out;
        }
        arrays_fill(&a);
        size_t done = SENT_SIZE;
        int state_ok;
        rsv_status st = call_batch(w, &a.b, s->n, &done, &state_ok);
        if (!state_ok) {
            failf(msg, "batch: after records [%zu, %zu) (%s) " STATE_MSG, pos, pos + done, rsv_status_name(st));
            goto out;
        }
        if (done > s->n) {
            failf(msg, "done %zu > n %zu", done, s->n);
            goto out;
        }
        if (!untouched(&a, done, msg)) goto out;
        for (size_t k = 0; k < done; k++) {
            if (pos + k >= e->count) {
                failf(msg, "batch record %zu past the oracle's %zu", pos + k, e->count);
                goto out;
            }
            if (!check_slot(&a, k, e, pos + k, input, input_len, msg)) goto out;
        }
        pos += done;
        if (tally) tally->records += done;
        if (poisoned0) { /* init failed (dictionary): the first call is POISONED */
            if (st != RSV_ERR_POISONED || done || a.b.stop != RSV_BATCH_STOP_ERROR) {
                failf(msg, "after a failed init: %s done %zu", rsv_status_name(st), done);
                goto out;
            }
            break;
        }
        if (st) {
            rsv_kv03_diag d = w->diag(w->obj);
            if (st != e->status || pos != e->record || a.b.stop != RSV_BATCH_STOP_ERROR || d.status != single_d.status ||
                d.bit != single_d.bit || d.record != single_d.record) {
                failf(msg, "batch: %s at record %zu bit %llu; oracle %s at %llu bit %llu (single bit %llu)",
                      rsv_status_name(st), pos, (unsigned long long)d.bit, rsv_status_name(e->status),
                      (unsigned long long)e->record, (unsigned long long)e->bit, (unsigned long long)single_d.bit);
                goto out;
            }
            arrays_fill(&a);
            st = call_batch(w, &a.b, s->n, &done, &state_ok);
            if (st != RSV_ERR_POISONED || done != 0 || !state_ok || !untouched(&a, 0, msg)) {
                failf(msg, "after the failure: %s done %zu%s", rsv_status_name(st), done,
                      state_ok ? "" : "; " STATE_MSG);
                goto out;
            }
            if (tally) tally->errors++;
            break;
        }
        if (a.b.stop == RSV_BATCH_STOP_COUNT) {
            if (done != s->n) {
                failf(msg, "stop COUNT with done %zu < n %zu", done, s->n);
                goto out;
            }
            continue;
        }
        if (done == s->n) {
            failf(msg, "done = n with stop %d", (int)a.b.stop);
            goto out;
        }
        if (a.b.stop == RSV_BATCH_STOP_END) {
            if (pos != e->count || e->status != RSV_OK) {
                failf(msg, "END after %zu records; oracle %s after %zu", pos, rsv_status_name(e->status), e->count);
                goto out;
            }
            ok = 1;
            goto out;
        }
        /* an arena stop: the next record exists, is valid and is too large */
        if (pos >= e->count) {
            failf(msg, "arena stop %d at record %zu, the oracle has %zu", (int)a.b.stop, pos, e->count);
            goto out;
        }
        const rsv_oracle_record *nx = &e->rec[pos];
        if (a.b.stop == RSV_BATCH_STOP_KEY_ARENA) {
            if (a.b.need != nx->key_len || nx->key_len <= s->key_cap - a.b.key_used) {
                failf(msg, "key stop at record %zu: need %zu, key %zu, room %zu", pos, a.b.need, nx->key_len,
                      s->key_cap - a.b.key_used);
                goto out;
            }
        } else if (a.b.stop == RSV_BATCH_STOP_VALUE_ARENA) {
            if (!s->values || nx->state != RSV_ORACLE_PRESENT || a.b.need != nx->value_len ||
                nx->value_len <= s->val_cap - a.b.val_used || nx->key_len > s->key_cap - a.b.key_used) {
                failf(msg, "value stop at record %zu: need %zu, value %zu, room %zu", pos, a.b.need, nx->value_len,
                      s->val_cap - a.b.val_used);
                goto out;
            }
        } else {
            failf(msg, "stop %d with status OK", (int)a.b.stop);
            goto out;
        }
        if (tally) tally->arena_stops++;
        if (done == 0) { /* larger than the whole arena: one single-record call takes it */
            one r;
            int more = 0;
            st = call_single(w, s->values, &r, &more, &state_ok);
            if (!state_ok) {
                failf(msg, "single after an arena stop at record %zu: " STATE_MSG, pos);
                goto out;
            }
            if (st || !more || !one_matches(&r, nx, e->code[pos], s->values)) {
                failf(msg, "single call after an arena stop at record %zu: %s", pos, rsv_status_name(st));
                goto out;
            }
            if (a.b.stop == RSV_BATCH_STOP_VALUE_ARENA && inside(r.value.data, input, input_len)) {
                failf(msg, "value stop at record %zu for a value borrowed from the input", pos);
                goto out;
            }
            pos++;
        }
    }
    ok = pos == e->count || (e->status != RSV_OK && pos == e->record) || poisoned0;
    if (!ok) failf(msg, "batch walk ended at %zu of %zu", pos, e->count);
out:
    arrays_free(&a);
    return ok;
}

int rsv_rbd_cursor(const uint8_t *file, size_t size, const rsv_rbd_shape *s, rsv_rbd_tally *tally, char msg[RSV_RBD_MSG])
{
    msg[0] = 0;
    rsv_kv03_file f;
    if (rsv_kv03_open(file, size, NULL, &f) != RSV_OK) return 1;
    rsv_oracle_kv03_v2_result o;
    rsv_oracle_kv03_decode_v2(file, size, NULL, RSV_ORACLE_KV03_WALK, &o);
    int ok = 0;
    expect e = {o.base.records.items, o.code_index, NULL, o.base.records.count, o.base.status, o.base.record,
                o.base.bitpos};
    if (o.base.phase == RSV_ORACLE_PHASE_OPEN) {
        failf(msg, "the codec opens, the oracle does not (%s)", rsv_status_name(o.base.status));
        goto out;
    }
    e.end = calloc(e.count + 1, sizeof *e.end);
    if (!e.end) {
        failf(msg, "out of memory");
        goto out;
    }
    if (e.status == RSV_ERR_TERMINAL_MISMATCH) e.record--; /* the codec's convention (kv03_diff.h) */
    if (o.base.phase == RSV_ORACLE_PHASE_DICTIONARY) e.record = e.bit = 0; /* init failure: record 0, bit 0 */
    rsv_kv03_cursor c1, c2;
    rsv_status init1 = rsv_kv03_cursor_init(&c1, &f), init2 = rsv_kv03_cursor_init(&c2, &f);
    rsv_view fv = rsv_view_make(file, 0, 8 * (uint64_t)size), none = rsv_view_make(NULL, 0, 0);
    walker w1 = {&c1, cur_batch, cur_single, cur_diag, fv, {none, none}, &c1.fw.r};
    walker w2 = {&c2, cur_batch, cur_single, cur_diag, fv, {none, none}, &c2.fw.r};
    rsv_kv03_diag d1 = {RSV_OK, 0, 0};
    if (init1 != init2) {
        failf(msg, "two inits differ");
    } else if (init1) {
        d1 = rsv_kv03_cursor_diag(&c1);
        if (init1 != e.status || d1.bit != 0 || d1.record != 0)
            failf(msg, "init %s, oracle %s", rsv_status_name(init1), rsv_status_name(e.status));
        else
            ok = batch_walk(&w2, &e, s, d1, 1, file, size, tally, msg);
    } else if (single_walk(&w1, &e, s->values, &d1, msg)) {
        ok = batch_walk(&w2, &e, s, d1, 0, file, size, tally, msg);
    }
    rsv_kv03_cursor_free(&c1);
    rsv_kv03_cursor_free(&c2);
out:
    free(e.end);
    rsv_oracle_kv03_v2_result_free(&o);
    return ok;
}

int rsv_rbd_stream(rsv_view v, const rsv_oracle_code *set, size_t nset, const rsv_rbd_shape *s, rsv_rbd_tally *tally,
                   char msg[RSV_RBD_MSG])
{
    msg[0] = 0;
    /* the codec's form of the set: the codes back to back */
    uint64_t total = 0;
    for (size_t j = 0; j < nset; j++) total += set[j].nbits;
    uint8_t *cb = calloc((size_t)(total / 8 + 1), 1);
    uint64_t *ends = malloc((nset ? nset : 1) * sizeof *ends);
    if (!cb || !ends) {
        free(cb), free(ends);
        return failf(msg, "out of memory");
    }
    uint64_t at = 0;
    for (size_t j = 0; j < nset; j++) {
        for (uint64_t i = 0; i < set[j].nbits; i++, at++)
            if ((set[j].bits[i / 8] >> (7 - i % 8)) & 1u) cb[at / 8] |= (uint8_t)(0x80u >> (at % 8));
        ends[j] = at;
    }
    rsv_code_set cs = {cb, ends, nset};
    const uint8_t *bytes = v.data;
    size_t nbytes = v.len ? (size_t)((v.off + v.len + 7) / 8) : 0;
    rsv_oracle_stream_v2_result o;
    rsv_oracle_stream_decode_v2(v, set, nset, &o);
    expect e = {o.base.records.items, o.code_index, calloc(o.base.records.count + 1, sizeof(uint64_t)),
                o.base.records.count, o.base.status, o.base.record, o.base.bitpos};
    rsv_stream_reader r1, r2;
    rsv_status init1 = rsv_stream_reader_init_set(&r1, v, &cs), init2 = rsv_stream_reader_init_set(&r2, v, &cs);
    rsv_view cv = rsv_view_make(cb, 0, total), ev = rsv_view_make(ends, 0, 64 * (uint64_t)nset);
    walker w1 = {&r1, str_batch, str_single, str_diag, v, {cv, ev}, &r1.r};
    walker w2 = {&r2, str_batch, str_single, str_diag, v, {cv, ev}, &r2.r};
    rsv_kv03_diag d1 = {RSV_OK, 0, 0};
    int ok = 0;
    if (!e.end) {
        failf(msg, "out of memory");
    } else if (init1 != init2) {
        failf(msg, "two inits differ");
    } else if (init1) {
        d1 = rsv_stream_reader_diag(&r1);
        if (init1 != e.status) failf(msg, "init %s, oracle %s", rsv_status_name(init1), rsv_status_name(e.status));
        else ok = batch_walk(&w2, &e, s, d1, 1, bytes, nbytes, tally, msg);
    } else if (single_walk(&w1, &e, 1, &d1, msg)) {
        ok = batch_walk(&w2, &e, s, d1, 0, bytes, nbytes, tally, msg);
    }
    rsv_stream_reader_free(&r1);
    rsv_stream_reader_free(&r2);
    rsv_oracle_stream_v2_result_free(&o);
    free(e.end);
    free(cb), free(ends);
    return ok;
}
