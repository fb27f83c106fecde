/* Fuzz target stream_roundtrip: the records and selector codes of
 * kv03_roundtrip's input (layout: common/kv03_rt.h; the policy is read and
 * not used, so the two corpora seed each other) written as a record stream
 * (KV03.md §10) and read back:
 *   1. written by the codec (rsv_stream_writer_add, or add_coded with each
 *      record's code) and the oracle (rsv_oracle_stream_encode, or
 *      rsv_oracle_stream_encode_v2): same status (UNSORTED / SELECTOR_PREFIX
 *      / TOO_LARGE and the failing record), and on success the same extent E
 *      and bytes;
 *   2. on success read back over exactly E bits, flush against a PROT_NONE
 *      page (common/guard_arena.h), by the codec's reader (one code:
 *      rsv_stream_reader_init; v2: rsv_stream_reader_init_set with the
 *      generated set, in its generated order, unused codes included) and the
 *      oracle's (v1 / rsv_oracle_stream_decode_v2 with that set), compared by
 *      the engine (tests/support/kv03_diff.h, rsv_kv03d_stream_reader):
 *      every record, its code index and the end at E agree, and both decode
 *      to exactly the input records and their code indices.
 * This was step 3 of kv03_roundtrip until 2026-12-05; it is its own target so
 * that each of the two round trips runs at its own rate (docs/fuzzing.md,
 * "Round 4").
 * Aborts with "stream_roundtrip MISMATCH: ..." on any disagreement. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data_producer.h"
#include "guard_arena.h"
#include "kv03_diff.h"
#include "kv03_fuzz.h"
#include "kv03_rt.h"
#include "reservoir/oracle_kv03.h"
#include "reservoir/stream.h"
#include "reservoir/writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define T "stream_roundtrip"

static const char *sn(rsv_status s) { return rsv_status_name((int)s); }

static void stream(const rsv_kvf_rt *t)
{
    const rsv_kvf_recs *r = &t->r;
    rsv_writer w;
    rsv_stream_writer sw;
    rsv_writer_init(&w);
    size_t cbad = SIZE_MAX, obad = SIZE_MAX;
    rsv_status cst = rsv_stream_writer_init(&sw, &w, t->code.bytes, t->code.bits);
    for (size_t i = 0; cst == RSV_OK && i < r->n; i++) {
        const rsv_record *x = &r->codec[i];
        cst = t->multi ? rsv_stream_writer_add_coded(&sw, x->code, x->code_bits, x->key, x->key_len, x->value)
                       : rsv_stream_writer_add(&sw, x->key, x->key_len, x->value);
        if (cst) cbad = i;
    }
    uint64_t cext = cst == RSV_OK ? rsv_stream_writer_extent(&sw) : 0;
    uint8_t *ob = NULL;
    uint64_t oext = 0;
    rsv_status ost;
    if (t->multi) {
        rsv_oracle_crecord *c = rsv_kvf_rt_crecords(t);
        ost = rsv_oracle_stream_encode_v2(c, r->n, &ob, &oext, &obad);
        free(c);
    } else {
        ost = rsv_oracle_stream_encode(r->oracle, r->n, t->code.bytes, t->code.bits, &ob, &oext, &obad);
    }
    if (cst != ost || (cst != RSV_OK && cbad != obad && (t->multi || cst == RSV_ERR_UNSORTED)))
        rsv_kvf_fail(T, "stream writer status: codec %s (record %zu), oracle %s (record %zu)", sn(cst), cbad,
                     sn(ost), obad);
    if (cst == RSV_OK) {
        size_t nb = (size_t)((cext + 7) / 8);
        if (cext != oext || (nb && memcmp(rsv_writer_data(&w), ob, nb) != 0)) {
            rsv_kvf_dump("codec stream", rsv_writer_data(&w), nb);
            rsv_kvf_dump("oracle stream", ob, (size_t)((oext + 7) / 8));
            rsv_kvf_fail(T, "stream bytes: codec %" PRIu64 " bits, oracle %" PRIu64 " bits", cext, oext);
        }
        /* both readers over exactly E bits, flush against the guard page,
         * compared by the engine (rsv_kv03d_stream_reader): the records, the
         * codec's code indices == the oracle's == the input's, the end at E */
        const uint8_t *p = rsv_fuzz_arena_place(ob, nb);
        rsv_view v = rsv_view_make(p, 0, cext);
        rsv_stream_reader sr;
        rsv_oracle_stream_v2_result res;
        uint64_t *want_code = calloc(r->n + 1, sizeof *want_code);
        if (!want_code) abort();
        for (size_t i = 0; t->multi && i < r->n; i++) want_code[i] = r->code_idx[i];
        if (t->multi) {
            rsv_oracle_stream_decode_v2(v, t->set.oracle, t->set.m, &res);
        } else {
            rsv_oracle_stream_decode(v, t->code.bytes, t->code.bits, &res.base);
            res.code_index = NULL;
        }
        rsv_status st = t->multi ? rsv_stream_reader_init_set(&sr, v, &t->set.codec)
                                 : rsv_stream_reader_init(&sr, v, t->code.bytes, t->code.bits);
        static rsv_kv03d_report rep; /* its message buffer off the stack */
        rsv_kv03d_report_init(&rep);
        if (!rsv_kv03d_stream_reader(&sr, st, v, &res.base, res.code_index, r->codec, want_code, r->n, &rep))
            rsv_kvf_fail(T, "stream read back: %s", rep.msg);
        rsv_stream_reader_free(&sr);
        free(want_code);
        if (t->multi) rsv_oracle_stream_v2_result_free(&res);
        else rsv_oracle_stream_result_free(&res.base);
    }
    free(ob);
    rsv_stream_writer_free(&sw);
    rsv_writer_free(&w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rsv_fuzz_producer in;
    rsv_kvf_rt t;
    rsv_fuzz_producer_init(&in, data, size);
    rsv_kvf_rt_read(&in, &t);
    if (rsv_fuzz_tracing())
        fprintf(stderr, "stream_roundtrip: %zu records, %s\n", t.r.n, t.multi ? "code set" : "one code");
    stream(&t);
    rsv_kvf_rt_free(&t);
    rsv_fuzz_arena_unpoison();
    return 0;
}
