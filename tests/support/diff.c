/* The reader comparison engine's core: lockstep operations, comparison and
 * mismatch reports (see diff.h). The hot path (no mismatch) does no
 * formatting. Scripts and composite walks are in diff_script.c. */
#include "diff.h"

#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <string.h>

#include "reservoir/status.h"

#include "load_window.h"

/* ---- result bookkeeping -------------------------------------------------- */

void rsv_diff_init(rsv_diff *d) { memset(d, 0, sizeof *d); }

const char *rsv_diff_first(const rsv_diff *d) { return d->nmsgs ? d->msgs[0] : ""; }

static void keep_msg(rsv_diff *d, const char *text)
{
    if (d->nmsgs >= RSV_DIFF_MAX_MSGS) return;
    snprintf(d->msgs[d->nmsgs], RSV_DIFF_MSG_LEN, "%s", text);
    d->nmsgs++;
}

void rsv_diff_merge(rsv_diff *a, const rsv_diff *b)
{
    a->cases += b->cases;
    a->ops += b->ops;
    a->mismatches += b->mismatches;
    for (unsigned i = 0; i < b->nmsgs; i++) keep_msg(a, b->msgs[i]);
}

const char *rsv_diff_summary(const rsv_diff *d, char *buf, size_t cap)
{
    snprintf(buf, cap, "%" PRIu64 " mismatches in %" PRIu64 " operations over %" PRIu64
                       " cases; first:\n%s",
             d->mismatches, d->ops, d->cases, d->nmsgs ? d->msgs[0] : "(no mismatches)");
    return buf;
}

void rsv_diff_print_msgs(const rsv_diff *d, FILE *f)
{
    for (unsigned i = 0; i < d->nmsgs; i++) fprintf(f, "mismatch %u: %s\n", i + 1, d->msgs[i]);
    if (d->mismatches > d->nmsgs)
        fprintf(f, "(%" PRIu64 " more mismatches not shown)\n", d->mismatches - d->nmsgs);
}

/* Every mismatch ends here: counted, kept while there is room, and handed
 * to the harness's hook. */
static void record(rsv_diff *d, const char *text)
{
    d->mismatches++;
    keep_msg(d, text);
    if (d->hooks && d->hooks->mismatch) d->hooks->mismatch(d->hooks->ctx, text);
}

static int wants_text(const rsv_diff *d)
{
    return d->nmsgs < RSV_DIFF_MAX_MSGS || (d->hooks && d->hooks->mismatch);
}

void rsv_diff_fail(rsv_diff *d, const char *fmt, ...)
{
    if (!wants_text(d)) {
        d->mismatches++;
        return;
    }
    char text[RSV_DIFF_MSG_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    record(d, text);
}

/* ---- message formatting (mismatch path only) ------------------------------ */

/* Bounded appender: never overruns, silently truncates. */
typedef struct sbuf {
    char *s;
    size_t cap, n;
} sbuf;

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
static void sb_add(sbuf *b, const char *fmt, ...)
{
    if (b->n + 1 >= b->cap) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
    va_end(ap);
    if (k < 0) return;
    b->n += (size_t)k;
    if (b->n >= b->cap) b->n = b->cap - 1;
}

static const char *op_name(rsv_diff_op op)
{
    switch (op) {
    case RSV_DOP_READ: return "read";
    case RSV_DOP_READ_BIT: return "read_bit";
    case RSV_DOP_READ_EG: return "read_eg";
    case RSV_DOP_READ_EG0: return "read_eg0";
    case RSV_DOP_GOLOMB: return "read_golomb";
    case RSV_DOP_GOLOMB_M: return "read_golomb_m";
    case RSV_DOP_TAKE: return "take";
    case RSV_DOP_SKIP: return "skip";
    case RSV_DOP_SEEK: return "seek";
    case RSV_DOP_READ_N: return "read_n";
    case RSV_DOP_EG_N: return "read_eg_n";
    case RSV_DOP_GOLOMB_N: return "read_golomb_n";
    }
    return "?";
}

static int is_batch(rsv_diff_op op)
{
    return op == RSV_DOP_READ_N || op == RSV_DOP_EG_N || op == RSV_DOP_GOLOMB_N;
}

static void add_op(sbuf *b, const rsv_diff_hist *h)
{
    if (is_batch(h->op))
        sb_add(b, "%s(%" PRIu64 ", count=%" PRIu64 ")@%" PRIu64, op_name(h->op), h->param,
               h->count, h->start);
    else if (h->op == RSV_DOP_READ_BIT || h->op == RSV_DOP_READ_EG0)
        sb_add(b, "%s()@%" PRIu64, op_name(h->op), h->start);
    else
        sb_add(b, "%s(%" PRIu64 ")@%" PRIu64, op_name(h->op), h->param, h->start);
}

/* Case header, history and the view (offset, length, bytes in hex, bits). */
static void add_context(sbuf *b, const rsv_diff_run *t)
{
    sb_add(b, "[%s] case: ", t->suite ? t->suite : "?");
    if (t->fmt) {
        char tmp[320];
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wformat-nonliteral"
#elif defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#endif
        snprintf(tmp, sizeof tmp, t->fmt, (unsigned long long)t->a[0], (unsigned long long)t->a[1],
                 (unsigned long long)t->a[2], (unsigned long long)t->a[3]);
#if defined(__clang__)
#pragma clang diagnostic pop
#elif defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
        sb_add(b, "%s", tmp);
    }
    sb_add(b, "\n  view: off=%" PRIu64 " len=%" PRIu64, t->v.off, t->v.len);
    if (t->v.len > 0 && t->v.data != NULL && !t->d->opaque) {
        uint64_t first = t->v.off / 8, last = (t->v.off + t->v.len - 1) / 8;
        uint64_t shown = last - first + 1 > 96 ? 96 : last - first + 1;
        sb_add(b, " bytes[%" PRIu64 "..%" PRIu64 "]=", first, last);
        for (uint64_t i = 0; i < shown; i++) sb_add(b, "%02x", t->v.data[first + i]);
        if (shown < last - first + 1) sb_add(b, "...");
        uint64_t nb = t->v.len > 200 ? 200 : t->v.len;
        sb_add(b, "\n  bits: ");
        for (uint64_t i = 0; i < nb; i++) {
            uint64_t q = t->v.off + i;
            sb_add(b, "%c", '0' + ((t->v.data[q / 8] >> (7 - q % 8)) & 1));
        }
        if (nb < t->v.len) sb_add(b, "...");
    } else if (t->v.len > 0) {
        sb_add(b, t->d->opaque ? " (bytes not shown: may be unreadable)" : " (no data pointer)");
    }
    uint64_t nh = t->step + 1 < RSV_DIFF_HISTORY ? t->step + 1 : RSV_DIFF_HISTORY;
    sb_add(b, "\n  ops (last %" PRIu64 " of %" PRIu64 ", op@start pos): ", nh, t->step + 1);
    for (uint64_t i = t->step + 1 - nh; i <= t->step; i++) {
        add_op(b, &t->hist[i % RSV_DIFF_HISTORY]);
        if (i < t->step) sb_add(b, " ; ");
    }
}

typedef struct side {
    rsv_status st;
    uint64_t val, pos, rem;
    int empty;
} side;

static void add_side(sbuf *b, const char *who, side s)
{
    sb_add(b, "\n  %-6s: %s (%d)", who, rsv_status_name((int)s.st), (int)s.st);
    if (s.st == RSV_OK) sb_add(b, " value=%" PRIu64 " (0x%" PRIx64 ")", s.val, s.val);
    sb_add(b, " pos=%" PRIu64 " remaining=%" PRIu64 " empty=%d", s.pos, s.rem, s.empty);
}

/* Out of line: the 2 KiB message buffer must not sit in settle()'s frame. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void report(rsv_diff_run *t, const char *what, side c, side o, const char *extra)
{
    if (!wants_text(t->d)) {
        t->d->mismatches++;
        return;
    }
    char text[RSV_DIFF_MSG_LEN];
    sbuf b = {text, sizeof text, 0};
    text[0] = 0;
    const rsv_diff_hist *h = &t->hist[t->step % RSV_DIFF_HISTORY];
    sb_add(&b, "%s in op #%" PRIu64 " ", what, t->step);
    add_op(&b, h);
    sb_add(&b, " (start pos %" PRIu64 ")\n  ", h->start);
    add_context(&b, t);
    add_side(&b, "codec", c);
    add_side(&b, "oracle", o);
    if (extra && *extra) sb_add(&b, "\n  %s", extra);
    record(t->d, text);
}

/* ---- comparison ---------------------------------------------------------- */

/* Every operation starts here: its history entry, then the harness's
 * "before" hook (which may poison memory). */
static void start_op(rsv_diff_run *t, rsv_diff_op op, uint64_t param, uint64_t count,
                     uint64_t start)
{
    rsv_diff_hist *h = &t->hist[t->step % RSV_DIFF_HISTORY];
    h->op = op;
    h->param = param;
    h->count = count;
    h->start = start;
    if (t->d->hooks && t->d->hooks->before) t->d->hooks->before(t->d->hooks->ctx, t);
}

/* Both sides ran: the harness's "after" hook, before any comparison. */
static void ran(const rsv_diff_run *t)
{
    if (t->d->hooks && t->d->hooks->after) t->d->hooks->after(t->d->hooks->ctx, t);
}

static side codec_side(const rsv_diff_run *t, rsv_status st, uint64_t val)
{
    side s;
    s.st = st;
    s.val = val;
    s.pos = rsv_reader_position(&t->r);
    s.rem = rsv_reader_remaining(&t->r);
    s.empty = rsv_reader_empty(&t->r);
    return s;
}

static side oracle_side(const rsv_diff_run *t, rsv_oracle_result o)
{
    side s;
    s.st = o.status;
    s.val = o.value;
    s.pos = o.pos;
    s.rem = o.pos <= t->v.len ? t->v.len - o.pos : 0;
    s.empty = o.pos == t->v.len;
    return s;
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void trace_op(const rsv_diff_run *t, side c, int agree)
{
    const rsv_diff_hist *h = &t->hist[t->step % RSV_DIFF_HISTORY];
    char text[160];
    sbuf b = {text, sizeof text, 0};
    text[0] = 0;
    add_op(&b, h);
    fprintf(t->d->trace, "  #%llu %s -> %s", (unsigned long long)t->step, text,
            rsv_status_name((int)t->last_status));
    if (t->last_status == RSV_OK && !is_batch(h->op))
        fprintf(t->d->trace, " value=%llu", (unsigned long long)t->last_value);
    if (is_batch(h->op)) fprintf(t->d->trace, " done=%llu", (unsigned long long)t->last_done);
    fprintf(t->d->trace, " p=%llu%s\n", (unsigned long long)t->p,
            agree ? "" : "  <-- MISMATCH");
    (void)c;
}

/* Compare one operation's outcome; returns 1 when they agree. `extra` lets
 * batch/take comparisons add detail. Afterwards the oracle's position is the
 * case's position and the codec is re-synchronised to it on a mismatch. */
static int settle(rsv_diff_run *t, side c, side o, int ok_extra, const char *extra)
{
    const char *what = NULL;
    if (c.st != o.st)
        what = (c.st == RSV_OK) != (o.st == RSV_OK) ? "SUCCESS/FAILURE MISMATCH" : "STATUS MISMATCH";
    else if (c.st == RSV_OK && c.val != o.val)
        what = "VALUE MISMATCH";
    else if (c.pos != o.pos)
        what = "POSITION MISMATCH";
    else if (c.rem != o.rem || c.empty != o.empty)
        what = "REMAINING/EMPTY MISMATCH";
    else if (!rsv_view_identical(rsv_reader_view(&t->r), t->v))
        what = "READER VIEW CHANGED";
    else if (!rsv_test_reader_state_ok(&t->r)) /* the view: identical (checked above) */
        what = "READER CACHE STATE (reader.h: view bits [pos, pos + n), rest zero)";
    else if (!ok_extra)
        what = "DETAIL MISMATCH";
    t->d->ops++;
    int agree = what == NULL;
    if (!agree) {
        report(t, what, c, o, extra);
        if (rsv_reader_position(&t->r) != o.pos && o.pos <= t->v.len)
            {
                rsv_lw_none();
                (void)rsv_reader_seek(&t->r, o.pos);
                rsv_lw_end();
            }
    }
    t->p = o.pos;
    t->last_status = o.st;
    t->last_value = o.val;
    if (t->d->trace) trace_op(t, c, agree);
    t->step++;
    return agree;
}

void rsv_diff_check_outcome(rsv_diff_run *t, rsv_diff_op op, uint64_t param, uint64_t start,
                            rsv_status cst, uint64_t cval, uint64_t cpos, rsv_oracle_result o)
{
    start_op(t, op, param, 0, start);
    ran(t);
    side c;
    c.st = cst;
    c.val = cval;
    c.pos = cpos;
    c.rem = cpos <= t->v.len ? t->v.len - cpos : 0;
    c.empty = cpos == t->v.len;
    (void)settle(t, c, oracle_side(t, o), 1, NULL);
}

/* A fresh reader is at 0 with the whole view remaining (not an operation:
 * reported on a mismatch, never counted in ops). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void initial_mismatch(rsv_diff_run *t)
{
    char extra[160];
    snprintf(extra, sizeof extra, "fresh reader: pos=%" PRIu64 " remaining=%" PRIu64 " empty=%d",
             rsv_reader_position(&t->r), rsv_reader_remaining(&t->r), rsv_reader_empty(&t->r));
    rsv_diff_fail(t->d, "[%s] INITIAL STATE MISMATCH (view off=%" PRIu64 " len=%" PRIu64 "): %s",
                  t->suite ? t->suite : "?", t->v.off, t->v.len, extra);
}

void rsv_diff_begin(rsv_diff_run *t, rsv_diff *d, rsv_view v, const char *suite,
                    const char *fmt, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
    t->d = d;
    t->v = v;
    rsv_lw_none(); /* construction loads nothing (A3) */
    rsv_reader_init(&t->r, v);
    rsv_lw_end();
    t->p = 0;
    t->suite = suite;
    t->fmt = fmt;
    t->a[0] = a0;
    t->a[1] = a1;
    t->a[2] = a2;
    t->a[3] = a3;
    t->step = 0;
    t->last_status = RSV_OK;
    t->last_value = 0;
    t->last_done = 0;
    d->cases++;
    if (rsv_reader_position(&t->r) != 0 || rsv_reader_remaining(&t->r) != v.len ||
        rsv_reader_empty(&t->r) != (v.len == 0) || !rsv_view_identical(rsv_reader_view(&t->r), v))
        initial_mismatch(t);
}

/* The codec API takes unsigned widths and orders; a larger parameter is
 * passed as UINT_MAX, which is just as invalid (same error, same position). */
static unsigned clamp_u(uint64_t x) { return x > UINT_MAX ? UINT_MAX : (unsigned)x; }

/* ---- single-value operations --------------------------------------------- */

static rsv_status single(rsv_diff_run *t, rsv_status cst, uint64_t cval, rsv_oracle_result o)
{
    ran(t);
    settle(t, codec_side(t, cst, cval), oracle_side(t, o), 1, NULL);
    return o.status;
}

rsv_status rsv_diff_read(rsv_diff_run *t, uint64_t w)
{
    uint64_t start = t->p, cv = 0;
    start_op(t, RSV_DOP_READ, w, 0, start);
    rsv_lw_decode(t->v, rsv_reader_position(&t->r));
    rsv_status cs = rsv_read(&t->r, clamp_u(w), &cv);
    rsv_lw_end();
    return single(t, cs, cv, rsv_oracle_read(t->v, start, w));
}

rsv_status rsv_diff_read_bit(rsv_diff_run *t)
{
    uint64_t start = t->p;
    unsigned bit = 0;
    start_op(t, RSV_DOP_READ_BIT, 1, 0, start);
    rsv_lw_decode(t->v, rsv_reader_position(&t->r));
    rsv_status cs = rsv_read_bit(&t->r, &bit);
    rsv_lw_end();
    return single(t, cs, bit, rsv_oracle_read(t->v, start, 1));
}

rsv_status rsv_diff_read_eg(rsv_diff_run *t, uint64_t k)
{
    uint64_t start = t->p, cv = 0;
    start_op(t, RSV_DOP_READ_EG, k, 0, start);
    rsv_lw_decode(t->v, rsv_reader_position(&t->r));
    rsv_status cs = rsv_read_eg(&t->r, clamp_u(k), &cv);
    rsv_lw_end();
    return single(t, cs, cv, rsv_oracle_read_eg(t->v, start, k));
}

rsv_status rsv_diff_read_eg0(rsv_diff_run *t)
{
    uint64_t start = t->p, cv = 0;
    start_op(t, RSV_DOP_READ_EG0, 0, 0, start);
    rsv_lw_decode(t->v, rsv_reader_position(&t->r));
    rsv_status cs = rsv_read_eg0(&t->r, &cv);
    rsv_lw_end();
    return single(t, cs, cv, rsv_oracle_read_eg(t->v, start, 0));
}

/* rsv_golomb_init must accept every m >= 1 and refuse m = 0 (CODES.md §4.2
 * step 1); the refused struct must then fail with RSV_ERR_BAD_MODULUS. */
static int golomb_init_ok(rsv_golomb *g, uint64_t m, char *extra, size_t cap)
{
    rsv_status st = rsv_golomb_init(g, m);
    rsv_status want = m == 0 ? RSV_ERR_BAD_MODULUS : RSV_OK;
    if (st == want) return 1;
    snprintf(extra, cap, "rsv_golomb_init(%" PRIu64 ") gave %s, expected %s", m,
             rsv_status_name((int)st), rsv_status_name((int)want));
    return 0;
}

rsv_status rsv_diff_read_golomb(rsv_diff_run *t, uint64_t m)
{
    uint64_t start = t->p, cv = 0;
    rsv_golomb g;
    char extra[160];
    start_op(t, RSV_DOP_GOLOMB, m, 0, start);
    int init_ok = golomb_init_ok(&g, m, extra, sizeof extra);
    rsv_lw_decode(t->v, rsv_reader_position(&t->r));
    rsv_status cs = rsv_read_golomb(&t->r, &g, &cv);
    rsv_lw_end();
    rsv_oracle_result o = rsv_oracle_read_golomb(t->v, start, m);
    ran(t);
    settle(t, codec_side(t, cs, cv), oracle_side(t, o), init_ok, init_ok ? NULL : extra);
    return o.status;
}

rsv_status rsv_diff_read_golomb_m(rsv_diff_run *t, uint64_t m)
{
    uint64_t start = t->p, cv = 0;
    start_op(t, RSV_DOP_GOLOMB_M, m, 0, start);
    rsv_lw_decode(t->v, rsv_reader_position(&t->r));
    rsv_status cs = rsv_read_golomb_m(&t->r, m, &cv);
    rsv_lw_end();
    return single(t, cs, cv, rsv_oracle_read_golomb(t->v, start, m));
}

rsv_status rsv_diff_skip(rsv_diff_run *t, uint64_t n)
{
    uint64_t start = t->p;
    start_op(t, RSV_DOP_SKIP, n, 0, start);
    rsv_lw_none(); /* A3: skip, seek and take load nothing */
    rsv_status cs = rsv_skip(&t->r, n);
    rsv_lw_end();
    return single(t, cs, 0, rsv_oracle_skip(t->v, start, n));
}

rsv_status rsv_diff_seek(rsv_diff_run *t, uint64_t p)
{
    uint64_t start = t->p;
    start_op(t, RSV_DOP_SEEK, p, 0, start);
    rsv_lw_decode(t->v, rsv_reader_position(&t->r));
    rsv_status cs = rsv_reader_seek(&t->r, p);
    rsv_lw_end();
    rsv_oracle_result o;
    o.status = p <= t->v.len ? RSV_OK : RSV_ERR_TRUNCATED_SPAN;
    o.value = 0;
    o.pos = p <= t->v.len ? p : start;
    return single(t, cs, 0, o);
}

/* Mismatch path of take, out of line: keeps the formatting buffer off the
 * hot path's stack frame (the exhaustive suite does millions of takes). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void take_mismatch(rsv_diff_run *t, rsv_status cs, rsv_oracle_result o, rsv_view cv,
                          rsv_view ov, rsv_view want)
{
    char extra[320];
    snprintf(extra, sizeof extra,
             "taken views: codec (data=%p off=%" PRIu64 " len=%" PRIu64 ") oracle (data=%p off=%" PRIu64
             " len=%" PRIu64 ") spec (data=%p off=%" PRIu64 " len=%" PRIu64 ")%s",
             (const void *)cv.data, cv.off, cv.len, (const void *)ov.data, ov.off, ov.len,
             (const void *)want.data, want.off, want.len,
             cs == RSV_OK ? "" : "; the failed take wrote its sub-view");
    settle(t, codec_side(t, cs, 0), oracle_side(t, o), 0, extra);
}

rsv_status rsv_diff_take_sub(rsv_diff_run *t, uint64_t n, rsv_view *sub)
{
    static const uint8_t marker = 0;
    uint64_t start = t->p;
    start_op(t, RSV_DOP_TAKE, n, 0, start);
    /* a sentinel the codec must leave alone when the take fails */
    const rsv_view sentinel = rsv_view_make(&marker, 12345, 678);
    rsv_view cv = sentinel, ov = rsv_view_make(NULL, 0, 0);
    rsv_lw_none(); /* A3: skip, seek and take load nothing */
    rsv_status cs = rsv_take(&t->r, n, &cv);
    rsv_lw_end();
    rsv_oracle_result o = rsv_oracle_take(t->v, start, n, &ov);
    ran(t);
    /* §2: the returned view is (data, off + p_before, n), identical in both
     * (identical views are bit-equal, so no byte needs to be loaded: the
     * guard-page tests take from PROT_NONE memory) */
    rsv_view want = rsv_view_make(t->v.data, t->v.off + start, n);
    int bad = cs == RSV_OK && o.status == RSV_OK
                  ? !rsv_view_identical(cv, ov) || !rsv_view_identical(ov, want)
                  : cs != RSV_OK && !rsv_view_identical(cv, sentinel);
    if (bad) {
        take_mismatch(t, cs, o, cv, ov, want);
        return o.status;
    }
    settle(t, codec_side(t, cs, 0), oracle_side(t, o), 1, NULL);
    if (sub && o.status == RSV_OK) *sub = ov;
    return o.status;
}

rsv_status rsv_diff_take(rsv_diff_run *t, uint64_t n) { return rsv_diff_take_sub(t, n, NULL); }

/* ---- batch decoders ------------------------------------------------------ */

#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void batch_mismatch(rsv_diff_run *t, rsv_status cs, rsv_oracle_result o, size_t cdone,
                           size_t odone, size_t i, uint64_t cval, uint64_t oval)
{
    char extra[200];
    if (cdone != odone)
        snprintf(extra, sizeof extra, "done: codec %zu, oracle %zu", cdone, odone);
    else
        snprintf(extra, sizeof extra,
                 "values[%zu]: codec %" PRIu64 " (0x%" PRIx64 "), oracle %" PRIu64 " (0x%" PRIx64 ")",
                 i, cval, cval, oval, oval);
    settle(t, codec_side(t, cs, 0), oracle_side(t, o), 0, extra);
}

/* done must be written, equal and at most count; values [0, done) equal;
 * then status and position as for a single value. */
static rsv_status batch_settle(rsv_diff_run *t, rsv_status cs, const uint64_t *cout, size_t cdone,
                               rsv_oracle_result o, const uint64_t *oout, size_t odone,
                               size_t count, int ok_extra, const char *extra)
{
    ran(t);
    t->last_done = odone;
    if (cdone != odone || cdone > count) {
        batch_mismatch(t, cs, o, cdone, odone, 0, 0, 0);
        return o.status;
    }
    for (size_t i = 0; i < odone; i++) {
        if (cout[i] != oout[i]) {
            batch_mismatch(t, cs, o, cdone, odone, i, cout[i], oout[i]);
            return o.status;
        }
    }
    /* the batch value field is unused: compare statuses and positions */
    settle(t, codec_side(t, cs, 0), oracle_side(t, o), ok_extra, extra);
    return o.status;
}

static size_t clamp_count(size_t count)
{
    return count > RSV_DIFF_BATCH_LIMIT ? RSV_DIFF_BATCH_LIMIT : count;
}

/* One batch call on both sides (op is READ_N, EG_N or GOLOMB_N). */
static rsv_status batch(rsv_diff_run *t, rsv_diff_op op, uint64_t param, size_t count)
{
    uint64_t start = t->p, cout[RSV_DIFF_BATCH_LIMIT], oout[RSV_DIFF_BATCH_LIMIT];
    size_t cdone = (size_t)-1, odone = (size_t)-1;
    rsv_status cs;
    rsv_oracle_result o;
    rsv_golomb g;
    char extra[160];
    int init_ok = 1;
    count = clamp_count(count);
    start_op(t, op, param, count, start);
    if (op == RSV_DOP_READ_N) {
        rsv_lw_decode(t->v, rsv_reader_position(&t->r));
        cs = rsv_read_n(&t->r, clamp_u(param), cout, count, &cdone);
        rsv_lw_end();
        o = rsv_oracle_read_n(t->v, start, param, oout, count, &odone);
    } else if (op == RSV_DOP_EG_N) {
        rsv_lw_decode(t->v, rsv_reader_position(&t->r));
        cs = rsv_read_eg_n(&t->r, clamp_u(param), cout, count, &cdone);
        rsv_lw_end();
        o = rsv_oracle_read_eg_n(t->v, start, param, oout, count, &odone);
    } else {
        init_ok = golomb_init_ok(&g, param, extra, sizeof extra);
        rsv_lw_decode(t->v, rsv_reader_position(&t->r));
        cs = rsv_read_golomb_n(&t->r, &g, cout, count, &cdone);
        rsv_lw_end();
        o = rsv_oracle_read_golomb_n(t->v, start, param, oout, count, &odone);
    }
    return batch_settle(t, cs, cout, cdone, o, oout, odone, count, init_ok, init_ok ? NULL : extra);
}

rsv_status rsv_diff_read_n(rsv_diff_run *t, uint64_t w, size_t count)
{
    return batch(t, RSV_DOP_READ_N, w, count);
}

rsv_status rsv_diff_read_eg_n(rsv_diff_run *t, uint64_t k, size_t count)
{
    return batch(t, RSV_DOP_EG_N, k, count);
}

rsv_status rsv_diff_read_golomb_n(rsv_diff_run *t, uint64_t m, size_t count)
{
    return batch(t, RSV_DOP_GOLOMB_N, m, count);
}

/* ---- spec expectations ---------------------------------------------------- */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void expect_report(rsv_diff_run *t, int any_error, rsv_status st, uint64_t value,
                          uint64_t pos)
{
    if (!wants_text(t->d)) {
        t->d->mismatches++;
        return;
    }
    char text[RSV_DIFF_MSG_LEN];
    sbuf b = {text, sizeof text, 0};
    text[0] = 0;
    /* the expectation concerns the last operation (step - 1) */
    rsv_diff_run copy = *t;
    if (copy.step) copy.step--;
    sb_add(&b, "SPEC EXPECTATION FAILED (oracle vs CODES.md) after op #%" PRIu64 "\n  ", copy.step);
    add_context(&b, &copy);
    if (any_error) {
        sb_add(&b, "\n  spec  : any error (a proper prefix of a prefix-free code)");
    } else {
        sb_add(&b, "\n  spec  : %s", rsv_status_name((int)st));
        if (st == RSV_OK) sb_add(&b, " value=%" PRIu64, value);
        sb_add(&b, " pos=%" PRIu64, pos);
    }
    sb_add(&b, "\n  oracle: %s", rsv_status_name((int)t->last_status));
    if (t->last_status == RSV_OK) sb_add(&b, " value=%" PRIu64, t->last_value);
    sb_add(&b, " pos=%" PRIu64, t->p);
    record(t->d, text);
}

void rsv_diff_expect(rsv_diff_run *t, rsv_status st, uint64_t value, uint64_t pos)
{
    if (t->last_status == st && t->p == pos && (st != RSV_OK || t->last_value == value)) return;
    expect_report(t, 0, st, value, pos);
}

void rsv_diff_expect_failure(rsv_diff_run *t)
{
    if (t->last_status != RSV_OK) return;
    expect_report(t, 1, RSV_OK, 0, 0);
}
