/* Fuzz target reader_diff: the reservoir reader (codec) against the oracle,
 * operation by operation (CODES.md §5.3 equivalence contract).
 *
 * The input is an operation script plus a payload (format in
 * common/reader_script.h). The payload is copied so that it ends flush
 * against a PROT_NONE page (A1) and, under ASan, every byte that the next
 * operation must not load (below the byte holding the position, past the
 * view's last byte) is poisoned before it runs (A1, A2, A4), so an
 * out-of-view load crashes instead of passing silently.
 *
 * After every operation the two must agree on status, value, position,
 * remaining and empty (take: identical sub-views; batch decodes: count done,
 * values, status, position). A disagreement prints both sides and aborts. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data_producer.h"
#include "guard_arena.h"
#include "reader_script.h"
#include "reservoir/golomb.h"
#include "reservoir/oracle.h"
#include "reservoir/reader.h"
#include "reservoir/status.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* All per-input state; rebuilt from scratch for every input. */
typedef struct diff_ctx {
    rsv_view view;
    rsv_reader r;
    uint64_t opos;          /* the oracle's position */
    const uint8_t *payload; /* first payload byte in the arena */
    size_t nbytes;          /* payload bytes; payload + nbytes is the guard page */
    unsigned opno;          /* operations done, for the report */
    const char *opname;     /* the operation under test, for the report */
    uint64_t param;
    uint64_t count;
    uint64_t p_before;
} diff_ctx;

static void dump_payload(const diff_ctx *c)
{
    /* the payload's bytes outside the view are poisoned: reporting a
     * mismatch must not turn it into a use-after-poison finding (found by
     * the RSV_SELFTEST_PLANT 1 self-test) */
    rsv_fuzz_arena_unpoison();
    size_t n = c->nbytes < 64 ? c->nbytes : 64;
    fprintf(stderr, "  payload (%zu bytes%s):", c->nbytes, n < c->nbytes ? ", first 64" : "");
    for (size_t i = 0; i < n; i++) fprintf(stderr, "%s%02x", i % 16 ? " " : "\n    ", c->payload[i]);
    fprintf(stderr, "\n");
}

static void header(const diff_ctx *c, const char *what)
{
    fprintf(stderr,
            "reader_diff MISMATCH (%s) at operation #%u %s(param=%" PRIu64 " / 0x%" PRIx64
            ", count=%" PRIu64 ") from p=%" PRIu64 "\n"
            "  view: data=payload%+td off=%" PRIu64 " len=%" PRIu64 "\n",
            what, c->opno, c->opname, c->param, c->param, c->count, c->p_before,
            c->view.data - c->payload, c->view.off, c->view.len);
}

static void side(const char *who, rsv_status st, uint64_t value, uint64_t pos)
{
    fprintf(stderr, "  %-6s status=%s value=%" PRIu64 " (0x%" PRIx64 ") pos=%" PRIu64 "\n", who,
            rsv_status_name((int)st), value, value, pos);
}

static _Noreturn void mismatch(const diff_ctx *c, const char *what, rsv_status cst, uint64_t cval,
                               const rsv_oracle_result *o)
{
    header(c, what);
    side("codec", cst, cval, rsv_reader_position(&c->r));
    side("oracle", o->status, o->value, o->pos);
    dump_payload(c);
    abort();
}

/* Queries and the invariant "the reader still describes the same view". */
static void check_state(diff_ctx *c)
{
    const char *bad = NULL;
    if (rsv_reader_position(&c->r) != c->opos)
        bad = "position";
    else if (rsv_reader_remaining(&c->r) != c->view.len - c->opos)
        bad = "remaining";
    else if (!rsv_reader_empty(&c->r) != (c->opos != c->view.len))
        bad = "empty";
    else if (!rsv_view_identical(rsv_reader_view(&c->r), c->view))
        bad = "reader view changed";
    if (bad) {
        header(c, bad);
        fprintf(stderr, "  codec pos=%" PRIu64 " remaining=%" PRIu64 " empty=%d; oracle pos=%" PRIu64 "\n",
                rsv_reader_position(&c->r), rsv_reader_remaining(&c->r), rsv_reader_empty(&c->r),
                c->opos);
        dump_payload(c);
        abort();
    }
}

/* Before an operation: remember where it starts and poison every byte
 * outside the ones an operation at p may load: bytes holding view bits at
 * positions >= p (A1, A4); none at all for an empty or fully consumed view
 * (A2, A4). */
static void begin(diff_ctx *c, const char *name, uint64_t param, uint64_t count)
{
    c->opname = name;
    c->param = param;
    c->count = count;
    c->p_before = c->opos;
    if (c->view.len == 0) {
        const uint8_t *guard = c->payload + c->nbytes;
        rsv_fuzz_arena_poison_outside(guard, guard);
        return;
    }
    const uint8_t *end = c->view.data + (c->view.off + c->view.len + 7) / 8; /* past the last view byte */
    const uint8_t *first = c->opos == c->view.len ? end : c->view.data + (c->view.off + c->opos) / 8;
    rsv_fuzz_arena_poison_outside(first, end);
}

/* RSV_FUZZ_TRACE=1 in the environment prints every operation (to read what
 * a seed or a crash input does); checked once. */
static int tracing(void)
{
    static int t = -1;
    if (t < 0) {
        const char *e = getenv("RSV_FUZZ_TRACE");
        t = e && *e && *e != '0';
    }
    return t;
}

static void trace(const diff_ctx *c, rsv_status st, uint64_t value, uint64_t done)
{
    fprintf(stderr, "  #%u %s(%" PRIu64 ")", c->opno, c->opname, c->param);
    if (c->count) fprintf(stderr, " x%" PRIu64 " done=%" PRIu64, c->count, done);
    fprintf(stderr, " p=%" PRIu64 " -> %s", c->p_before, rsv_status_name((int)st));
    if (st == RSV_OK && !c->count) fprintf(stderr, " value=%" PRIu64, value);
    fprintf(stderr, " p=%" PRIu64 "\n", c->opos);
}

/* A single-value operation's outcome against the oracle's. */
static void compare(diff_ctx *c, rsv_status st, uint64_t value, rsv_oracle_result o)
{
    if (st != o.status) mismatch(c, "status", st, value, &o);
    if (st == RSV_OK && value != o.value) mismatch(c, "value", st, value, &o);
    if (rsv_reader_position(&c->r) != o.pos) mismatch(c, "position", st, value, &o);
    c->opos = o.pos;
    check_state(c);
    if (tracing()) trace(c, st, value, 0);
    c->opno++;
}

static void op_read(diff_ctx *c, unsigned w)
{
    uint64_t v = 0;
    begin(c, "read", w, 0);
    rsv_status st = rsv_read(&c->r, w, &v);
    compare(c, st, v, rsv_oracle_read(c->view, c->opos, w));
}

static void op_read_bit(diff_ctx *c)
{
    unsigned b = 0;
    begin(c, "read_bit", 1, 0);
    rsv_status st = rsv_read_bit(&c->r, &b);
    compare(c, st, b, rsv_oracle_read(c->view, c->opos, 1));
}

static void op_read_eg(diff_ctx *c, unsigned k)
{
    uint64_t v = 0;
    begin(c, "read_eg", k, 0);
    rsv_status st = rsv_read_eg(&c->r, k, &v);
    compare(c, st, v, rsv_oracle_read_eg(c->view, c->opos, k));
}

static void op_read_eg0(diff_ctx *c)
{
    uint64_t v = 0;
    begin(c, "read_eg0", 0, 0);
    rsv_status st = rsv_read_eg0(&c->r, &v);
    compare(c, st, v, rsv_oracle_read_eg(c->view, c->opos, 0));
}

/* rsv_golomb_init must accept every m >= 1 and mark m = 0 invalid (§4.2 step 1). */
static void golomb_prepare(diff_ctx *c, rsv_golomb *g, uint64_t m)
{
    rsv_status st = rsv_golomb_init(g, m);
    rsv_status want = m == 0 ? RSV_ERR_BAD_MODULUS : RSV_OK;
    if (st != want) {
        header(c, "rsv_golomb_init status");
        fprintf(stderr, "  m=%" PRIu64 " gave %s, expected %s\n", m, rsv_status_name((int)st),
                rsv_status_name((int)want));
        abort();
    }
}

static void op_read_golomb(diff_ctx *c, uint64_t m, int oneshot)
{
    uint64_t v = 0;
    rsv_status st;
    begin(c, oneshot ? "read_golomb_m" : "read_golomb", m, 0);
    if (oneshot) {
        st = rsv_read_golomb_m(&c->r, m, &v);
    } else {
        rsv_golomb g;
        golomb_prepare(c, &g, m);
        st = rsv_read_golomb(&c->r, &g, &v);
    }
    compare(c, st, v, rsv_oracle_read_golomb(c->view, c->opos, m));
}

static void op_take(diff_ctx *c, uint64_t n)
{
    rsv_view sc = rsv_view_make(NULL, 0, 0), so = rsv_view_make(NULL, 0, 0);
    begin(c, "take", n, 0);
    rsv_status st = rsv_take(&c->r, n, &sc);
    rsv_oracle_result o = rsv_oracle_take(c->view, c->opos, n, &so);
    if (st == RSV_OK && o.status == RSV_OK && !rsv_view_identical(sc, so)) {
        header(c, "take: sub-views not identical");
        fprintf(stderr, "  codec  data=payload%+td off=%" PRIu64 " len=%" PRIu64 "\n", sc.data - c->payload,
                sc.off, sc.len);
        fprintf(stderr, "  oracle data=payload%+td off=%" PRIu64 " len=%" PRIu64 "\n", so.data - c->payload,
                so.off, so.len);
        abort();
    }
    compare(c, st, 0, o);
}

static void op_skip(diff_ctx *c, uint64_t n)
{
    begin(c, "skip", n, 0);
    rsv_status st = rsv_skip(&c->r, n);
    compare(c, st, 0, rsv_oracle_skip(c->view, c->opos, n));
}

/* seek is not a CODES.md operation; reader.h defines it: p <= len moves
 * there, anything else fails with RSV_ERR_TRUNCATED_SPAN, reader unchanged. */
static void op_seek(diff_ctx *c, uint64_t p)
{
    begin(c, "seek", p, 0);
    rsv_status st = rsv_reader_seek(&c->r, p);
    rsv_oracle_result want;
    want.status = p <= c->view.len ? RSV_OK : RSV_ERR_TRUNCATED_SPAN;
    want.value = 0;
    want.pos = p <= c->view.len ? p : c->opos;
    compare(c, st, 0, want);
}

enum batch_kind { BATCH_FIXED, BATCH_EG, BATCH_GOLOMB };

static void op_batch(diff_ctx *c, enum batch_kind kind, uint64_t param, size_t count)
{
    static const char *const names[] = {"read_n", "read_eg_n", "read_golomb_n"};
    uint64_t oc[RSV_RD_MAX_BATCH], oo[RSV_RD_MAX_BATCH];
    size_t dc = (size_t)-1, dn = (size_t)-1;
    rsv_status st;
    rsv_oracle_result o;
    memset(oc, 0xA5, sizeof oc);
    memset(oo, 0x5A, sizeof oo);
    begin(c, names[kind], param, count);
    switch (kind) {
    case BATCH_FIXED:
        st = rsv_read_n(&c->r, (unsigned)param, oc, count, &dc);
        o = rsv_oracle_read_n(c->view, c->opos, param, oo, count, &dn);
        break;
    case BATCH_EG:
        st = rsv_read_eg_n(&c->r, (unsigned)param, oc, count, &dc);
        o = rsv_oracle_read_eg_n(c->view, c->opos, param, oo, count, &dn);
        break;
    default: {
        rsv_golomb g;
        golomb_prepare(c, &g, param);
        st = rsv_read_golomb_n(&c->r, &g, oc, count, &dc);
        o = rsv_oracle_read_golomb_n(c->view, c->opos, param, oo, count, &dn);
        break;
    }
    }
    if (dc != dn || dc > count) {
        header(c, "batch: values decoded");
        fprintf(stderr, "  codec done=%zu oracle done=%zu\n", dc, dn);
        side("codec", st, 0, rsv_reader_position(&c->r));
        side("oracle", o.status, 0, o.pos);
        abort();
    }
    for (size_t i = 0; i < dc; i++) {
        if (oc[i] != oo[i]) {
            header(c, "batch: value");
            fprintf(stderr, "  index %zu: codec %" PRIu64 " oracle %" PRIu64 "\n", i, oc[i], oo[i]);
            abort();
        }
    }
    if (st != o.status) mismatch(c, "batch status", st, 0, &o);
    if (rsv_reader_position(&c->r) != o.pos) mismatch(c, "batch position", st, 0, &o);
    c->opos = o.pos;
    check_state(c);
    if (tracing()) {
        trace(c, st, 0, dc);
        for (size_t i = 0; i < dc; i++) fprintf(stderr, "     [%zu] %" PRIu64 "\n", i, oc[i]);
    }
    c->opno++;
}

static uint64_t pick_span(rsv_fuzz_producer *s, const diff_ctx *c)
{
    uint64_t rem = c->view.len - c->opos;
    switch ((enum rsv_rd_span_kind)(rsv_fuzz_u8(s) & 7u)) {
    case RSV_RD_SPAN_U8: return rsv_fuzz_u8(s);
    case RSV_RD_SPAN_REM: return rem;
    case RSV_RD_SPAN_REM_PLUS1: return rem + 1; /* len < 2^64 - 1: no wrap */
    case RSV_RD_SPAN_MAX: return UINT64_MAX;
    case RSV_RD_SPAN_U64: return rsv_fuzz_u64(s);
    case RSV_RD_SPAN_U16: return rsv_fuzz_u16(s);
    case RSV_RD_SPAN_REM_MINUS_U8: {
        uint64_t d = rsv_fuzz_u8(s);
        return rem - (d < rem ? d : rem);
    }
    default: return c->view.len;
    }
}

static void run_op(diff_ctx *c, rsv_fuzz_producer *s)
{
    int oneshot;
    uint64_t m;
    switch ((enum rsv_rd_op)(rsv_fuzz_u8(s) % RSV_RD_NOPS)) {
    case RSV_RD_READ: op_read(c, rsv_fuzz_width(rsv_fuzz_u8(s))); break;
    case RSV_RD_READ_BIT: op_read_bit(c); break;
    case RSV_RD_READ_EG: op_read_eg(c, rsv_fuzz_order(rsv_fuzz_u8(s))); break;
    case RSV_RD_READ_EG0: op_read_eg0(c); break;
    case RSV_RD_READ_GOLOMB:
        m = rsv_fuzz_modulus(s, &oneshot);
        op_read_golomb(c, m, oneshot);
        break;
    case RSV_RD_TAKE: op_take(c, pick_span(s, c)); break;
    case RSV_RD_SKIP: op_skip(c, pick_span(s, c)); break;
    case RSV_RD_SEEK: {
        uint16_t raw = rsv_fuzz_u16(s);
        op_seek(c, raw == 0xFFFFu ? UINT64_MAX : raw % (c->view.len + 2));
        break;
    }
    case RSV_RD_READ_N: {
        unsigned w = rsv_fuzz_width(rsv_fuzz_u8(s));
        op_batch(c, BATCH_FIXED, w, rsv_fuzz_u8(s) % (RSV_RD_MAX_BATCH + 1u));
        break;
    }
    case RSV_RD_READ_EG_N: {
        unsigned k = rsv_fuzz_order(rsv_fuzz_u8(s));
        op_batch(c, BATCH_EG, k, rsv_fuzz_u8(s) % (RSV_RD_MAX_BATCH + 1u));
        break;
    }
    default:
        m = rsv_fuzz_modulus(s, &oneshot);
        op_batch(c, BATCH_GOLOMB, m, rsv_fuzz_u8(s) % (RSV_RD_MAX_BATCH + 1u));
        break;
    }
}

/* CODES.md §8: zero-width operations at wherever the script left the reader,
 * then drain in 13-bit reads and finish with the remainder. */
static void drain(diff_ctx *c)
{
    op_read(c, 0);
    op_take(c, 0);
    op_skip(c, 0);
    while (c->view.len - c->opos >= 13) op_read(c, 13);
    op_read(c, 13); /* fewer than 13 remain: must fail, position unchanged */
    op_read(c, (unsigned)(c->view.len - c->opos));
    op_read(c, 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    diff_ctx c;
    rsv_fuzz_producer in, script;
    memset(&c, 0, sizeof c);

    rsv_fuzz_producer_init(&in, data, size);
    size_t script_len = rsv_fuzz_u16(&in);
    script = rsv_fuzz_split_tail(&in, script_len);
    size_t nbytes;
    const uint8_t *payload = rsv_fuzz_rest(&in, &nbytes);
    if (nbytes > RSV_RD_MAX_PAYLOAD) nbytes = RSV_RD_MAX_PAYLOAD;
    c.payload = rsv_fuzz_arena_place(payload, nbytes);
    c.nbytes = nbytes;

    /* The view: data may sit up to 15 bytes before the payload (off >= 8);
     * bits come only from the payload; unused tail bits are allowed. */
    uint64_t shift = rsv_fuzz_u8(&script) % 16u;
    uint64_t nbits = 8 * (uint64_t)nbytes;
    uint64_t off_in = rsv_fuzz_u8(&script) % (nbits + 1);
    uint64_t tail = rsv_fuzz_u8(&script) % (nbits - off_in + 1);
    uint8_t flags = rsv_fuzz_u8(&script);
    uint64_t len = nbits - off_in - tail;
    if (len == 0 && (flags & 1u))
        c.view = rsv_view_make(c.payload + nbytes, off_in, 0); /* empty view into PROT_NONE (A2) */
    else
        c.view = rsv_view_make(c.payload - shift, 8 * shift + off_in, len);

    if (tracing())
        fprintf(stderr, "reader_diff: payload %zu bytes, view off=%" PRIu64 " len=%" PRIu64 "%s\n", nbytes,
                c.view.off, c.view.len, c.view.data == c.payload + nbytes ? " (data = guard page)" : "");
    rsv_reader_init(&c.r, c.view);
    c.opos = 0;
    c.opname = "init";
    check_state(&c);
    while (rsv_fuzz_remaining(&script) > 0) run_op(&c, &script);
    drain(&c);
    rsv_fuzz_arena_unpoison();
    return 0;
}
