/* Fuzz target stream_diff: arbitrary bytes as a record stream (§10), the
 * codec's reader (rsv_stream_reader_*) against the oracle's decoder.
 *
 * Input: the payload at the front; from the end (data_producer.h):
 *   u8 sel: bits 0-2 = bit offset of the stream inside its first byte,
 *           bits 3-4 = extent rule: 0 all bits but u8 % 8 at the end,
 *           1 u16 % (bits + 1), 2 all bits, 3 all but u8 % 64 (clamped)
 *   the selector code C0 (common/kv03_fuzz.h layout)
 * The bytes holding the stream are copied flush against a PROT_NONE page
 * (the view's last byte is the last mapped byte).
 *
 * Must agree: every record (key bytes, three-state value), the first error,
 * its record index and bit position (oracle_kv03.h conventions; the codec's
 * rsv_stream_reader_diag), the record count; after its first failure the
 * codec reader returns RSV_ERR_POISONED (§9.2 last paragraph, docs/kv03.md
 * reading 1), twice in a row. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data_producer.h"
#include "guard_arena.h"
#include "kv03_fuzz.h"
#include "reservoir/oracle_kv03.h"
#include "reservoir/stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define T "stream_diff"
#define MAX_PAYLOAD 8192

static const char *sn(rsv_status s) { return rsv_status_name((int)s); }

static _Noreturn void fail(const uint8_t *p, size_t n, rsv_view v, const char *fmt, const char *a, const char *b,
                           uint64_t x, uint64_t y)
{
    fprintf(stderr, "  view off=%" PRIu64 " len=%" PRIu64 "\n", v.off, v.len);
    rsv_kvf_dump("stream bytes", p, n);
    rsv_kvf_fail(T, fmt, a, b, x, y);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rsv_fuzz_producer in;
    rsv_kvf_code code;
    rsv_fuzz_producer_init(&in, data, size);
    uint8_t sel = rsv_fuzz_u8(&in);
    rsv_kvf_gen_code(&in, &code);
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
    size_t used = e ? (size_t)((off + e + 7) / 8) : 0;
    const uint8_t *p = rsv_fuzz_arena_place(payload, used);
    rsv_view v = rsv_view_make(p, e ? off : 0, e);

    rsv_oracle_stream_result o;
    rsv_oracle_stream_decode(v, code.bytes, code.bits, &o);
    rsv_stream_reader sr;
    rsv_stream_record rec;
    int more = 1;
    uint64_t i = 0;
    rsv_status st = rsv_stream_reader_init(&sr, v, code.bytes, code.bits);
    if (st) fail(p, used, v, "init: %s (oracle %s) %" PRIu64 "%" PRIu64, sn(st), sn(o.status), 0, 0);
    while ((st = rsv_stream_reader_next(&sr, &rec, &more)) == RSV_OK && more) {
        if (i >= o.records.count)
            fail(p, used, v, "codec returned record %s%s%" PRIu64 " beyond the oracle's %" PRIu64, "", "", i,
                 (uint64_t)o.records.count);
        const char *d = rsv_kvf_record_diff(rec.key, rec.key_len, rec.value.kind, rec.value.data, rec.value.len,
                                            &o.records.items[i]);
        if (d || rec.index != i)
            fail(p, used, v, "record %s%s %" PRIu64 " (index %" PRIu64 ")", d ? d : "index", "", i, rec.index);
        i++;
    }
    if (st != o.status)
        fail(p, used, v, "first error: codec %s, oracle %s (codec record %" PRIu64 ", oracle %" PRIu64 ")", sn(st),
             sn(o.status), i, o.record);
    if (i != o.records.count)
        fail(p, used, v, "record count (%s%s) codec %" PRIu64 ", oracle %" PRIu64, sn(st), "", i,
             (uint64_t)o.records.count);
    if (st == RSV_OK) {
        if (o.bitpos != e || o.record != i)
            fail(p, used, v, "oracle success at %s%sbit %" PRIu64 " record %" PRIu64, "", "", o.bitpos, o.record);
    } else {
        rsv_kv03_diag dg = rsv_stream_reader_diag(&sr);
        if (dg.status != st || dg.record != o.record || dg.bit != o.bitpos) {
            fprintf(stderr, "  codec diag %s record %" PRIu64 " bit %" PRIu64 "\n", sn(dg.status), dg.record,
                    dg.bit);
            fail(p, used, v, "%s position: %s oracle record %" PRIu64 " bit %" PRIu64, sn(st), "", o.record,
                 o.bitpos);
        }
        for (int k = 0; k < 2; k++) {
            rsv_status again = rsv_stream_reader_next(&sr, &rec, &more);
            if (again != RSV_ERR_POISONED)
                fail(p, used, v, "after %s: %s (want POISONED) %" PRIu64 "%" PRIu64, sn(st), sn(again), 0, 0);
        }
    }
    rsv_stream_reader_free(&sr);
    rsv_oracle_stream_result_free(&o);
    rsv_fuzz_arena_unpoison();
    return 0;
}
