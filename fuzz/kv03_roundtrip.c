/* Fuzz target kv03_roundtrip: records, a policy and a selector code from the
 * input (layout: common/kv03_fuzz.h; one leading u8 of flags, bit 0-2 all set
 * = keep the generated key order, usually unsorted) are
 *   1. encoded by the codec's streaming writer, its batch encoder and the
 *      oracle encoder: same status (invalid policy, UNSORTED and its record
 *      index) and byte-identical files (§11.1: the file is a pure function
 *      of records, policy and C0);
 *   2. read back: the kv03_parse checks (codec open/walks/scan == oracle),
 *      the oracle's scan must return exactly the input records, and the
 *      records read by the codec cursor re-encode to the identical file;
 *   3. written as a record stream (§10) by the codec and the oracle: same
 *      extent and bytes; both readers decode it back to the input records.
 * Aborts with "kv03_roundtrip MISMATCH: ..." on any disagreement. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data_producer.h"
#include "guard_arena.h"
#include "kv03_fuzz.h"
#include "kv03_parse_check.h"
#include "reservoir/kv03.h"
#include "reservoir/oracle_kv03.h"
#include "reservoir/stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define T "kv03_roundtrip"

static const char *sn(rsv_status s) { return rsv_status_name((int)s); }

/* The codec's streaming writer: status and, for a failing add, its index. */
static rsv_status codec_write(const rsv_kvf_policy *p, const rsv_kvf_code *code, const rsv_kvf_recs *r,
                              uint8_t **out, size_t *n, size_t *bad)
{
    rsv_kv03_writer w;
    *bad = SIZE_MAX;
    rsv_status st = rsv_kv03_writer_init(&w, &p->codec, code->bytes, code->bits);
    for (size_t i = 0; st == RSV_OK && i < r->n; i++) {
        st = rsv_kv03_writer_add(&w, r->codec[i].key, r->codec[i].key_len, r->codec[i].value);
        if (st) *bad = i;
    }
    if (st == RSV_OK) st = rsv_kv03_writer_finish(&w, out, n);
    rsv_kv03_writer_free(&w);
    return st;
}

/* The oracle's full decode returns exactly the input records; the codec's
 * records re-encode to the same bytes. */
static void read_back(const rsv_kvf_policy *p, const rsv_kvf_code *code, const rsv_kvf_recs *r,
                      const uint8_t *file, size_t n)
{
    rsv_kvf_parse_check(T, file, n); /* codec == oracle on this file */
    rsv_oracle_kv03_result res;
    rsv_oracle_kv03_decode(file, n, &p->oracle, RSV_ORACLE_KV03_SCAN, &res);
    if (res.status != RSV_OK) rsv_kvf_fail(T, "oracle rejects the encoded file: %s", sn(res.status));
    if (res.records.count != r->n)
        rsv_kvf_fail(T, "decoded %zu records, wrote %zu", res.records.count, r->n);
    for (size_t i = 0; i < r->n; i++) {
        const rsv_oracle_record *g = &res.records.items[i];
        const char *d = rsv_kvf_record_diff(g->key, g->key_len, g->state == RSV_ORACLE_PRESENT ? RSV_VALUE_PRESENT
                                                                                             : RSV_VALUE_TOMBSTONE,
                                            g->value, g->value_len, &r->oracle[i]);
        if (d) rsv_kvf_fail(T, "record %zu read back: %s", i, d);
    }
    rsv_oracle_kv03_result_free(&res);

    /* codec cursor -> list -> codec encode == file */
    rsv_kv03_file f;
    rsv_kv03_cursor cur;
    rsv_kv03_entry e;
    rsv_oracle_records got = {0};
    int more = 1;
    const uint8_t *placed = rsv_fuzz_arena_place(file, n);
    if (rsv_kv03_open(placed, n, &p->codec, &f) != RSV_OK) rsv_kvf_fail(T, "codec open with the policy");
    if (rsv_kv03_cursor_init(&cur, &f) != RSV_OK) rsv_kvf_fail(T, "cursor_init");
    while (rsv_kv03_cursor_record(&cur, &e, &more) == RSV_OK && more)
        if (rsv_oracle_records_push(&got, e.key, e.key_len, e.value.kind == RSV_VALUE_PRESENT ? RSV_ORACLE_PRESENT
                                                                                               : RSV_ORACLE_TOMBSTONE,
                                    e.value.data, e.value.len) != RSV_OK)
            abort();
    rsv_kv03_cursor_free(&cur);
    rsv_kvf_recs again;
    rsv_kvf_recs_from_oracle(&got, &again);
    uint8_t *b = NULL;
    size_t bn = 0;
    rsv_status st = rsv_kv03_encode(&p->codec, code->bytes, code->bits, again.codec, again.n, &b, &bn);
    if (st != RSV_OK || bn != n || memcmp(b, file, n) != 0)
        rsv_kvf_fail(T, "re-encode of the codec's records: %s, %zu bytes vs %zu", sn(st), bn, n);
    free(b);
    rsv_kvf_recs_free(&again);
    rsv_oracle_records_free(&got);
    rsv_kv03_close(&f);
}

static void check_stream_records(const char *who, const rsv_kvf_recs *r, size_t i, const uint8_t *key, size_t klen,
                                 rsv_value_kind kind, const uint8_t *val, size_t vlen)
{
    if (i >= r->n) rsv_kvf_fail(T, "%s stream reader: more records than written", who);
    const char *d = rsv_kvf_record_diff(key, klen, kind, val, vlen, &r->oracle[i]);
    if (d) rsv_kvf_fail(T, "%s stream reader, record %zu: %s", who, i, d);
}

static void stream(const rsv_kvf_code *code, const rsv_kvf_recs *r)
{
    rsv_writer w;
    rsv_stream_writer sw;
    rsv_writer_init(&w);
    size_t cbad = SIZE_MAX, obad = SIZE_MAX;
    rsv_status cst = rsv_stream_writer_init(&sw, &w, code->bytes, code->bits);
    for (size_t i = 0; cst == RSV_OK && i < r->n; i++) {
        cst = rsv_stream_writer_add(&sw, r->codec[i].key, r->codec[i].key_len, r->codec[i].value);
        if (cst) cbad = i;
    }
    uint64_t cext = cst == RSV_OK ? rsv_stream_writer_extent(&sw) : 0;
    uint8_t *ob = NULL;
    uint64_t oext = 0;
    rsv_status ost = rsv_oracle_stream_encode(r->oracle, r->n, code->bytes, code->bits, &ob, &oext, &obad);
    if (cst != ost || (cst == RSV_ERR_UNSORTED && cbad != obad))
        rsv_kvf_fail(T, "stream writer status: codec %s (record %zu), oracle %s (record %zu)", sn(cst), cbad,
                     sn(ost), obad);
    if (cst == RSV_OK) {
        size_t nb = (size_t)((cext + 7) / 8);
        if (cext != oext || (nb && memcmp(rsv_writer_data(&w), ob, nb) != 0)) {
            rsv_kvf_dump("codec stream", rsv_writer_data(&w), nb);
            rsv_kvf_dump("oracle stream", ob, (size_t)((oext + 7) / 8));
            rsv_kvf_fail(T, "stream bytes: codec %" PRIu64 " bits, oracle %" PRIu64 " bits", cext, oext);
        }
        /* both readers over exactly E bits, flush against the guard page */
        const uint8_t *p = rsv_fuzz_arena_place(ob, nb);
        rsv_view v = rsv_view_make(p, 0, cext);
        rsv_stream_reader sr;
        rsv_stream_record rec;
        int more = 1;
        size_t i = 0;
        rsv_status st = rsv_stream_reader_init(&sr, v, code->bytes, code->bits);
        while (st == RSV_OK && (st = rsv_stream_reader_next(&sr, &rec, &more)) == RSV_OK && more)
            check_stream_records("codec", r, i++, rec.key, rec.key_len, rec.value.kind, rec.value.data,
                                 rec.value.len);
        if (st != RSV_OK || i != r->n) rsv_kvf_fail(T, "codec stream reader: %s after %zu records", sn(st), i);
        rsv_stream_reader_free(&sr);
        rsv_oracle_stream_result res;
        rsv_oracle_stream_decode(v, code->bytes, code->bits, &res);
        if (res.status != RSV_OK || res.records.count != r->n || res.bitpos != cext)
            rsv_kvf_fail(T, "oracle stream decode: %s, %zu records", sn(res.status), res.records.count);
        for (size_t j = 0; j < r->n; j++) {
            const rsv_oracle_record *g = &res.records.items[j];
            check_stream_records("oracle", r, j, g->key, g->key_len,
                                 g->state == RSV_ORACLE_PRESENT ? RSV_VALUE_PRESENT : RSV_VALUE_TOMBSTONE, g->value,
                                 g->value_len);
        }
        rsv_oracle_stream_result_free(&res);
    }
    free(ob);
    rsv_stream_writer_free(&sw);
    rsv_writer_free(&w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rsv_fuzz_producer in;
    rsv_kvf_policy pol;
    rsv_kvf_code code;
    rsv_kvf_recs r;
    rsv_fuzz_producer_init(&in, data, size);
    int raw_order = (rsv_fuzz_u8(&in) & 7u) == 7u;
    rsv_kvf_gen_policy(&in, &pol);
    rsv_kvf_gen_code(&in, &code);
    rsv_kvf_gen_records(&in, !raw_order, &r);

    uint8_t *ob = NULL, *wb = NULL, *bb = NULL;
    size_t on = 0, wn = 0, bn = 0, obad = SIZE_MAX, wbad;
    rsv_status ost = rsv_oracle_kv03_encode(r.oracle, r.n, &pol.oracle, code.bytes, code.bits, &ob, &on, &obad);
    rsv_status wst = codec_write(&pol, &code, &r, &wb, &wn, &wbad);
    rsv_status bst = rsv_kv03_encode(&pol.codec, code.bytes, code.bits, r.codec, r.n, &bb, &bn);
    if (wst != ost || bst != ost || (ost == RSV_ERR_UNSORTED && wbad != obad))
        rsv_kvf_fail(T, "encode status: writer %s (record %zu), batch %s, oracle %s (record %zu)", sn(wst), wbad,
                     sn(bst), sn(ost), obad);
    if (ost == RSV_OK) {
        if (wn != on || bn != on || memcmp(wb, ob, on) != 0 || memcmp(bb, ob, on) != 0) {
            rsv_kvf_dump("codec writer", wb, wn);
            rsv_kvf_dump("oracle encoder", ob, on);
            rsv_kvf_fail(T, "encoded files differ (writer %zu, batch %zu, oracle %zu bytes)", wn, bn, on);
        }
        read_back(&pol, &code, &r, ob, on);
    }
    stream(&code, &r);
    free(ob);
    free(wb);
    free(bb);
    rsv_kvf_recs_free(&r);
    rsv_fuzz_arena_unpoison();
    return 0;
}
