/* Fuzz target stream_diff: arbitrary bytes as a record stream (§10), the
 * codec's reader (rsv_stream_reader_*) against the oracle's decoder.
 *
 * Input: the payload at the front; from the end (data_producer.h):
 *   u8 sel: bits 0-2 = bit offset of the stream inside its first byte,
 *           bits 3-4 = extent rule: 0 all bits but sel >> 5 at the end,
 *           1 (sel << 8 | first payload byte) % (bits + 1), 2 all bits,
 *           3 all but (sel >> 2) % 64 (clamped)
 *   u8 csel: 64..127 -> format revision v2: a code set (common/kv03_codes.h
 *           layout, 2-16 prefix-free codes of 1-12 bits, sometimes one of
 *           65-128 bits, sometimes one extra code breaking prefix-freeness);
 *           otherwise the one code C0 (common/kv03_fuzz.h: < 64 or < 128
 *           `0`, >= 128 a u16 length and the code bytes)
 * The bytes holding the stream are copied flush against a PROT_NONE page
 * (the view's last byte is the last mapped byte).
 *
 * Runs and what must agree in each (every record's key bytes, three-state
 * value and code index, the first error, its record index and bit position
 * (oracle_kv03.h conventions; the codec's rsv_stream_reader_diag), the
 * record count; after its first failure the codec reader returns
 * RSV_ERR_POISONED (§9.2 last paragraph, docs/kv03.md reading 1), twice):
 *   one code: codec rsv_stream_reader_init(C0) vs oracle v1 decode; codec
 *     init_set({C0}) vs oracle rsv_oracle_stream_decode_v2({C0}); and the
 *     oracle's v1 and v2 results are identical (a one-code set reads exactly
 *     as v1, §10);
 *   code set: codec init_set(set) vs oracle stream_decode_v2(set), the
 *     set's own failures (TOO_LARGE is impossible here, SELECTOR_PREFIX)
 *     included: same status before anything is read;
 *   record batch: rsv_stream_reader_batch with the same set against the
 *     oracle and the single reader (tests/support/record_batch_diff.h), in
 *     a shape taken from sel, csel and E (n = 1..9 or 64; arenas of 0, 1, 7,
 *     64 or 4096 bytes; values and codes stored or not). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data_producer.h"
#include "guard_arena.h"
#include "kv03_codes.h"
#include "kv03_diff.h"
#include "kv03_fuzz.h"
#include "reservoir/oracle_kv03.h"
#include "reservoir/stream.h"
#include "record_batch_diff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define T "stream_diff"
#define MAX_PAYLOAD 8192

static const char *sn(rsv_status s) { return rsv_status_name((int)s); }

typedef struct sctx {
    const uint8_t *p;
    size_t used;
    rsv_view v;
    const char *run;
} sctx;

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
static _Noreturn void fail(const sctx *c, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "  run: %s; view off=%" PRIu64 " len=%" PRIu64 "\n", c->run, c->v.off, c->v.len);
    rsv_kvf_dump("stream bytes", c->p, c->used);
    rsv_kvf_fail(T, "%s", msg);
}

/* The codec reader sr (init status st) against the oracle result o
 * (code_index NULL: every record has code 0), by the comparison engine
 * (rsv_kv03d_stream_reader, tests/support/kv03_diff.h). */
static void compare(const sctx *c, rsv_stream_reader *sr, rsv_status st, const rsv_oracle_stream_result *o,
                    const uint64_t *code_index)
{
    static rsv_kv03d_report rep; /* its message buffer off the stack */
    rsv_kv03d_report_init(&rep);
    if (!rsv_kv03d_stream_reader(sr, st, c->v, o, code_index, NULL, NULL, 0, &rep))
        fail(c, "%s", rep.msg);
}

/* The two oracle results of a one-code stream must be identical. */
static void same_oracle(const sctx *c, const rsv_oracle_stream_result *a, const rsv_oracle_stream_v2_result *b)
{
    const rsv_oracle_stream_result *o = &b->base;
    if (a->status != o->status || a->record != o->record || a->bitpos != o->bitpos ||
        a->records.count != o->records.count)
        fail(c, "oracle v1 %s, v2 with {C0} %s (records %zu vs %zu)", sn(a->status), sn(o->status),
             a->records.count, o->records.count);
    for (size_t i = 0; i < a->records.count; i++) {
        const char *d = rsv_kvf_record_diff(o->records.items[i].key, o->records.items[i].key_len,
                                            o->records.items[i].state == RSV_ORACLE_PRESENT ? RSV_VALUE_PRESENT
                                                                                            : RSV_VALUE_TOMBSTONE,
                                            o->records.items[i].value, o->records.items[i].value_len,
                                            &a->records.items[i]);
        if (!d && b->code_index && b->code_index[i] != 0) d = "code index";
        if (d) fail(c, "oracle v1 vs v2 with {C0}: record %zu: %s", i, d);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rsv_fuzz_producer in;
    rsv_kvf_code code;
    rsv_kvf_set set;
    sctx c;
    rsv_fuzz_producer_init(&in, data, size);
    uint8_t sel = rsv_fuzz_u8(&in);
    uint8_t csel = rsv_fuzz_u8(&in);
    int multi = csel >= 64 && csel < 128;
    if (multi) rsv_kvf_gen_code_set(&in, 1, &set);
    else {
        rsv_kvf_gen_code_sel(&in, csel, &code);
        rsv_kvf_set_single(&code, &set);
    }
    uint64_t off = sel & 7u, e;
    size_t nb;
    const uint8_t *payload = rsv_fuzz_rest(&in, &nb);
    if (nb > MAX_PAYLOAD) nb = MAX_PAYLOAD;
    uint64_t avail = 8 * (uint64_t)nb > off ? 8 * (uint64_t)nb - off : 0;
    switch ((sel >> 3) & 3u) {
    case 0: e = avail - (avail < (uint64_t)(sel >> 5) ? avail : (uint64_t)(sel >> 5)); break;
    case 1: e = (((uint64_t)sel << 8) | (nb ? payload[0] : 0)) % (avail + 1); break;
    case 2: e = avail; break;
    default: {
        uint64_t cut = (uint64_t)(sel >> 2) % 64u;
        e = avail - (avail < cut ? avail : cut);
        break;
    }
    }
    /* keep only the bytes that hold view bits, so the guard page follows */
    c.used = e ? (size_t)((off + e + 7) / 8) : 0;
    c.p = rsv_fuzz_arena_place(payload, c.used);
    c.v = rsv_view_make(c.p, e ? off : 0, e);

    rsv_stream_reader sr;
    rsv_oracle_stream_v2_result o2;
    rsv_oracle_stream_decode_v2(c.v, set.oracle, set.m, &o2);
    if (!multi) {
        rsv_oracle_stream_result o1;
        rsv_oracle_stream_decode(c.v, code.bytes, code.bits, &o1);
        c.run = "one code, v1 reader";
        compare(&c, &sr, rsv_stream_reader_init(&sr, c.v, code.bytes, code.bits), &o1, NULL);
        rsv_stream_reader_free(&sr);
        c.run = "one code, oracle v1 vs v2";
        same_oracle(&c, &o1, &o2);
        rsv_oracle_stream_result_free(&o1);
    }
    if (rsv_fuzz_tracing())
        fprintf(stderr, "stream_diff: %zu codes, %" PRIu64 " bits: %s after %zu records\n", set.m, e,
                sn(o2.base.status), o2.base.records.count);
    c.run = multi ? "code set" : "one-code set";
    compare(&c, &sr, rsv_stream_reader_init_set(&sr, c.v, &set.codec), &o2.base, o2.code_index);
    rsv_stream_reader_free(&sr);
    rsv_oracle_stream_v2_result_free(&o2);
    static const size_t caps[5] = {0, 1, 7, 64, 4096};
    rsv_rbd_shape bs = {e % 10 == 9 ? 64 : 1 + (size_t)(e % 10), caps[(sel ^ csel) % 5], caps[(csel / 5u) % 5],
                        (csel >> 1) & 1, (sel >> 7) & 1, NULL, NULL};
    char msg[RSV_RBD_MSG];
    c.run = "record batch";
    if (!rsv_rbd_stream(c.v, set.oracle, set.m, &bs, NULL, msg)) fail(&c, "record batch: %s", msg);
    rsv_fuzz_arena_unpoison();
    return 0;
}
