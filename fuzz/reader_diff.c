/* Fuzz target reader_diff: the reservoir reader (codec) against the oracle,
 * operation by operation (CODES.md §5.3 equivalence contract), through the
 * one reader comparison engine (tests/support/diff.h) that the differential
 * suites and the guard-page tests use.
 *
 * The input is an operation script plus a payload (format in
 * common/reader_script.h). The payload is copied so that it ends flush
 * against a PROT_NONE page (A1) and, under ASan, every byte that the next
 * operation must not load (below the byte holding the position, past the
 * view's last byte) is poisoned while it runs (the engine's before/after
 * hooks; A1, A2, A4), so an out-of-view load crashes instead of passing
 * silently.
 *
 * The engine compares every operation (status, value, position, remaining,
 * empty, the reader's view; take's sub-view; a batch's count done and
 * values; rsv_golomb_init's status) and keeps going after failures; any
 * mismatch prints the engine's report and the payload, then aborts.
 * RSV_FUZZ_TRACE=1 prints every operation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data_producer.h"
#include "diff.h"
#include "guard_arena.h"
#include "reader_script.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct arena_ctx {
    const uint8_t *payload; /* first payload byte in the arena */
    size_t nbytes;          /* payload bytes; payload + nbytes is the guard page */
} arena_ctx;

/* Before an operation at p: poison every byte outside the ones it may load,
 * the bytes holding view bits at positions >= p (A1, A4); none at all for
 * an empty or fully consumed view (A2, A4). */
static void poison(void *ctx, const rsv_diff_run *t)
{
    const arena_ctx *a = ctx;
    if (t->v.len == 0) {
        const uint8_t *guard = a->payload + a->nbytes;
        rsv_fuzz_arena_poison_outside(guard, guard);
        return;
    }
    const uint8_t *end = t->v.data + (t->v.off + t->v.len + 7) / 8; /* past the last view byte */
    const uint8_t *first = t->p == t->v.len ? end : t->v.data + (t->v.off + t->p) / 8;
    rsv_fuzz_arena_poison_outside(first, end);
}

/* Both sides ran: the comparison and any report may read the view. */
static void unpoison(void *ctx, const rsv_diff_run *t)
{
    (void)ctx;
    (void)t;
    rsv_fuzz_arena_unpoison();
}

static _Noreturn void mismatch(void *ctx, const char *msg)
{
    const arena_ctx *a = ctx;
    /* the payload's bytes outside the view may be poisoned: the report must
     * not turn a divergence into a use-after-poison finding (found by the
     * RSV_SELFTEST_PLANT 1 self-test) */
    rsv_fuzz_arena_unpoison();
    size_t n = a->nbytes < 64 ? a->nbytes : 64;
    fprintf(stderr, "reader_diff MISMATCH: %s\n", msg);
    fprintf(stderr, "  payload (%zu bytes%s):", a->nbytes, n < a->nbytes ? ", first 64" : "");
    for (size_t i = 0; i < n; i++) fprintf(stderr, "%s%02x", i % 16 ? " " : "\n    ", a->payload[i]);
    fprintf(stderr, "\n");
    abort();
}


static uint64_t pick_span(rsv_fuzz_producer *s, const rsv_diff_run *t)
{
    uint64_t rem = t->v.len - t->p;
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
    default: return t->v.len;
    }
}

static uint64_t pick_count(rsv_fuzz_producer *s) { return rsv_fuzz_u8(s) % (RSV_RD_MAX_BATCH + 1u); }

/* Decode the next step of the script (reader_script.h). Spans depend on the
 * current position, so steps are decoded one at a time. */
static rsv_diff_step next_step(rsv_fuzz_producer *s, const rsv_diff_run *t)
{
    rsv_diff_step st = {RSV_DOP_READ, 0, 0};
    int oneshot;
    switch ((enum rsv_rd_op)(rsv_fuzz_u8(s) % RSV_RD_NOPS)) {
    case RSV_RD_READ: st.param = rsv_fuzz_width(rsv_fuzz_u8(s)); break;
    case RSV_RD_READ_BIT: st.op = RSV_DOP_READ_BIT; break;
    case RSV_RD_READ_EG: st.op = RSV_DOP_READ_EG; st.param = rsv_fuzz_order(rsv_fuzz_u8(s)); break;
    case RSV_RD_READ_EG0: st.op = RSV_DOP_READ_EG0; break;
    case RSV_RD_READ_GOLOMB:
        st.param = rsv_fuzz_modulus(s, &oneshot);
        st.op = oneshot ? RSV_DOP_GOLOMB_M : RSV_DOP_GOLOMB;
        break;
    case RSV_RD_TAKE: st.op = RSV_DOP_TAKE; st.param = pick_span(s, t); break;
    case RSV_RD_SKIP: st.op = RSV_DOP_SKIP; st.param = pick_span(s, t); break;
    case RSV_RD_SEEK: {
        uint16_t raw = rsv_fuzz_u16(s);
        st.op = RSV_DOP_SEEK;
        st.param = raw == 0xFFFFu ? UINT64_MAX : raw % (t->v.len + 2);
        break;
    }
    case RSV_RD_READ_N:
        st.op = RSV_DOP_READ_N;
        st.param = rsv_fuzz_width(rsv_fuzz_u8(s));
        st.count = pick_count(s);
        break;
    case RSV_RD_READ_EG_N:
        st.op = RSV_DOP_EG_N;
        st.param = rsv_fuzz_order(rsv_fuzz_u8(s));
        st.count = pick_count(s);
        break;
    default:
        st.op = RSV_DOP_GOLOMB_N;
        st.param = rsv_fuzz_modulus(s, &oneshot); /* batches always use the prepared struct */
        st.count = pick_count(s);
        break;
    }
    return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static rsv_diff d; /* 8 KiB of message room: off the stack */
    arena_ctx a;
    rsv_fuzz_producer in, script;

    rsv_fuzz_producer_init(&in, data, size);
    size_t script_len = rsv_fuzz_u16(&in);
    script = rsv_fuzz_split_tail(&in, script_len);
    size_t nbytes;
    const uint8_t *payload = rsv_fuzz_rest(&in, &nbytes);
    if (nbytes > RSV_RD_MAX_PAYLOAD) nbytes = RSV_RD_MAX_PAYLOAD;
    a.payload = rsv_fuzz_arena_place(payload, nbytes);
    a.nbytes = nbytes;

    /* The view: data may sit up to 15 bytes before the payload (off >= 8);
     * bits come only from the payload; unused tail bits are allowed. */
    uint64_t shift = rsv_fuzz_u8(&script) % 16u;
    uint64_t nbits = 8 * (uint64_t)nbytes;
    uint64_t off_in = rsv_fuzz_u8(&script) % (nbits + 1);
    uint64_t tail = rsv_fuzz_u8(&script) % (nbits - off_in + 1);
    uint8_t flags = rsv_fuzz_u8(&script);
    uint64_t len = nbits - off_in - tail;
    rsv_view v;
    if (len == 0 && (flags & 1u))
        v = rsv_view_make(a.payload + nbytes, off_in, 0); /* empty view into PROT_NONE (A2) */
    else
        v = rsv_view_make(a.payload - shift, 8 * shift + off_in, len);

    const rsv_diff_hooks hooks = {&a, poison, unpoison, mismatch};
    rsv_diff_init(&d);
    d.hooks = &hooks;
    if (rsv_fuzz_tracing()) {
        d.trace = stderr;
        fprintf(stderr, "reader_diff: payload %zu bytes, view off=%llu len=%llu%s\n", nbytes,
                (unsigned long long)v.off, (unsigned long long)v.len,
                v.data == a.payload + nbytes ? " (data = guard page)" : "");
    }
    rsv_diff_run t;
    rsv_diff_begin(&t, &d, v, "reader_diff", "payload %llu bytes, script %llu bytes", nbytes,
                   script_len, 0, 0);
    while (rsv_fuzz_remaining(&script) > 0) {
        rsv_diff_step st = next_step(&script, &t);
        rsv_diff_apply(&t, &st);
    }
    rsv_diff_drain(&t);
    rsv_fuzz_arena_unpoison();
    return 0;
}
