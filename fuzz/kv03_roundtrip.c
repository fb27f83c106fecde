/* Fuzz target kv03_roundtrip: records, a policy and a selector code from the
 * input (layout: common/kv03_fuzz.h; one leading u8 of flags: bits 0-2 all
 * set = keep the generated key order, usually unsorted; bit 3 = format
 * revision v2: after the records a code set (common/kv03_codes.h, 2-16
 * prefix-free codes of 1-12 bits, sometimes one of 65-128 bits) and per
 * record a u8 choosing its code; the records are then ordered by logical key
 * code || key unless the raw order is kept) are
 *   1. encoded by the codec's streaming writer (add, or add_coded with each
 *      record's code), its batch encoder (rsv_record.code) and the oracle
 *      encoder (v1, or rsv_oracle_kv03_encode_v2): same status (invalid
 *      policy, UNSORTED / SELECTOR_PREFIX / TOO_LARGE and the record index)
 *      and byte-identical files (§11.1: the file is a pure function of the
 *      records, their codes and the policy);
 *   2. read back through the comparison engine (tests/support/kv03_diff.h,
 *      common/kv03_parse_check.h): codec == oracle on open, walks (with
 *      each record's code index), frames (with rsv_kv03_code's bits),
 *      scan and seek_code, and the file decodes to exactly the input
 *      records with their codes (v1: C0);
 *   3. written as a record stream (§10) by the codec (add / add_coded) and
 *      the oracle (v1 / rsv_oracle_stream_encode_v2): same status, extent and
 *      bytes; the codec's reader (one code: rsv_stream_reader_init; v2:
 *      init_set with the generated set, in its generated order, unused codes
 *      included) and the oracle's (v1 / stream_decode_v2 with that set)
 *      agree (the comparison engine, rsv_kv03d_stream_reader) and decode it
 *      back to the input records and their code indices;
 *   4. when the flags' high nibble is 0xF (1 input in 16): written again by
 *      a path writer (rsv_kv03_writer_init_path, a flush bound of 1-64 bytes
 *      from the input, so the sink flushes many times) into $TMPDIR (else
 *      /dev/shm, else /tmp): same status and failing record as the in-memory
 *      writer; on success the file equals the oracle's bytes, read back by
 *      rsv_kv03_open_path or rsv_kv03_open_path_copy; on failure neither the
 *      file nor the temporary exists (no partial output).
 * Aborts with "kv03_roundtrip MISMATCH: ..." on any disagreement. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data_producer.h"
#include "guard_arena.h"
#include "kv03_codes.h"
#include "kv03_diff.h"
#include "kv03_fuzz.h"
#include "kv03_parse_check.h"
#include "reservoir/kv03.h"
#include "reservoir/oracle_kv03.h"
#include "reservoir/stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define T "kv03_roundtrip"

static const char *sn(rsv_status s) { return rsv_status_name((int)s); }

/* One input: policy, the one code (v1) or the set (v2), the records. */
typedef struct rt {
    rsv_kvf_policy pol;
    rsv_kvf_code code;
    rsv_kvf_set set; /* v2: the generated set; v1: {code} */
    int multi;
    rsv_kvf_recs r;
} rt;

/* A record's add through the codec writer (plain add for v1). */
static rsv_status codec_write(const rt *t, uint8_t **out, size_t *n, size_t *bad)
{
    rsv_kv03_writer w;
    const rsv_kvf_recs *r = &t->r;
    *bad = SIZE_MAX;
    rsv_status st = rsv_kv03_writer_init(&w, &t->pol.codec, t->code.bytes, t->code.bits);
    for (size_t i = 0; st == RSV_OK && i < r->n; i++) {
        const rsv_record *x = &r->codec[i];
        st = t->multi ? rsv_kv03_writer_add_coded(&w, x->code, x->code_bits, x->key, x->key_len, x->value)
                      : rsv_kv03_writer_add(&w, x->key, x->key_len, x->value);
        if (st) *bad = i;
    }
    if (st == RSV_OK) st = rsv_kv03_writer_finish(&w, out, n);
    rsv_kv03_writer_free(&w);
    return st;
}

/* Step 4: the path writer. A directory on tmpfs keeps the fsyncs cheap. */
static const char *tmp_dir(void)
{
    const char *d = getenv("TMPDIR");
    struct stat st;
    if (d && *d) return d;
    return stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? "/dev/shm" : "/tmp";
}

static void path_write(const rt *t, uint8_t knob, rsv_status want, size_t want_bad, const uint8_t *file, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/rsv_fuzz_kv03_roundtrip.%ld.kv", tmp_dir(), (long)getpid());
    unlink(path);
    rsv_kv03_writer w;
    const rsv_kvf_recs *r = &t->r;
    size_t bad = SIZE_MAX;
    rsv_status st = rsv_kv03_writer_init_path(&w, &t->pol.codec, t->code.bytes, t->code.bits, path);
    if (st == RSV_ERR_IO) return; /* no usable temporary directory here: nothing to compare */
    if (st == RSV_OK) st = rsv_kv03_writer_set_flush_bytes(&w, 1u + (knob & 63u));
    for (size_t i = 0; st == RSV_OK && i < r->n; i++) {
        const rsv_record *x = &r->codec[i];
        st = t->multi ? rsv_kv03_writer_add_coded(&w, x->code, x->code_bits, x->key, x->key_len, x->value)
                      : rsv_kv03_writer_add(&w, x->key, x->key_len, x->value);
        if (st) bad = i;
    }
    if (st == RSV_OK) st = rsv_kv03_writer_commit(&w);
    const char *tmp = rsv_kv03_writer_temp_path(&w);
    if (st != RSV_OK && tmp) rsv_kvf_fail(T, "path writer: temporary %s still named after %s", tmp, sn(st));
    rsv_kv03_writer_free(&w);
    if (st != want || (st != RSV_OK && bad != want_bad))
        rsv_kvf_fail(T, "path writer %s (record %zu), in-memory writer %s (record %zu)", sn(st), bad, sn(want),
                     want_bad);
    if (st != RSV_OK) {
        if (access(path, F_OK) == 0) rsv_kvf_fail(T, "path writer failed with %s but %s exists", sn(st), path);
        return;
    }
    rsv_kv03_file f;
    rsv_status ost = (knob & 64u) ? rsv_kv03_open_path_copy(path, NULL, &f) : rsv_kv03_open_path(path, NULL, &f);
    if (ost != RSV_OK) rsv_kvf_fail(T, "path writer's file does not open: %s", sn(ost));
    if (f.size != n || memcmp(f.bytes, file, n) != 0)
        rsv_kvf_fail(T, "path writer's file differs from the oracle's (%" PRIu64 " vs %zu bytes)", f.size, n);
    rsv_kv03_close(&f);
    unlink(path);
}

/* The oracle's batch encoding (v1 with C0, or v2 with each record's code). */
static rsv_status oracle_encode(const rt *t, uint8_t **out, size_t *n, size_t *bad)
{
    *bad = SIZE_MAX;
    if (!t->multi)
        return rsv_oracle_kv03_encode(t->r.oracle, t->r.n, &t->pol.oracle, t->code.bytes, t->code.bits, out, n, bad);
    rsv_oracle_crecord *c = calloc(t->r.n + 1, sizeof *c);
    if (!c) abort();
    rsv_kvf_crecords(&t->r, c);
    rsv_status st = rsv_oracle_kv03_encode_v2(c, t->r.n, &t->pol.oracle, out, n, bad);
    free(c);
    return st;
}

/* The file decodes, through the comparison engine (codec == oracle on open,
 * walks, frames, scan, seek_code), to exactly the input records with their
 * codes (v1: C0). The records the codec's cursor returns equal the oracle's
 * (engine), which equal the input, whose codec encoding is this file (step
 * 1): re-encoding them would repeat step 1. */
static void read_back(const rt *t, const uint8_t *file, size_t n)
{
    const rsv_kvf_recs *r = &t->r;
    if (t->multi) {
        rsv_kvf_file_check(T, file, n, r->codec, r->n);
        return;
    }
    rsv_record *want = malloc((r->n ? r->n : 1) * sizeof *want);
    if (!want) abort();
    for (size_t i = 0; i < r->n; i++) {
        want[i] = r->codec[i];
        want[i].code = t->code.bytes;
        want[i].code_bits = t->code.bits;
    }
    rsv_kvf_file_check(T, file, n, want, r->n);
    free(want);
}

static void stream(const rt *t)
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
        rsv_oracle_crecord *c = calloc(r->n + 1, sizeof *c);
        if (!c) abort();
        rsv_kvf_crecords(r, c);
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
    rt t;
    rsv_fuzz_producer_init(&in, data, size);
    uint8_t flags = rsv_fuzz_u8(&in);
    int raw_order = (flags & 7u) == 7u;
    t.multi = (flags >> 3) & 1u;
    rsv_kvf_gen_policy(&in, &t.pol);
    rsv_kvf_gen_code(&in, &t.code);
    rsv_kvf_gen_records_max(&in, !raw_order, RSV_KVF_CAP_MAX, &t.r);
    if (t.multi) {
        rsv_kvf_gen_code_set(&in, 0, &t.set);
        rsv_kvf_recs_cap(&t.r, rsv_kvf_set_max_bits(&t.set)); /* a bulk list: kv03_fuzz.h */
        rsv_kvf_assign_codes(&in, &t.set, !raw_order, &t.r);
    } else {
        /* the oracle's decoders compare C0 || K bit by bit per record: a bulk
         * list with a long C0 is capped alike (kv03_fuzz.h) */
        rsv_kvf_recs_cap(&t.r, t.code.bits);
        rsv_kvf_set_single(&t.code, &t.set);
    }

    uint8_t *ob = NULL, *wb = NULL, *bb = NULL;
    size_t on = 0, wn = 0, bn = 0, obad, wbad;
    rsv_status ost = oracle_encode(&t, &ob, &on, &obad);
    rsv_status wst = codec_write(&t, &wb, &wn, &wbad);
    rsv_status bst = rsv_kv03_encode(&t.pol.codec, t.code.bytes, t.code.bits, t.r.codec, t.r.n, &bb, &bn);
    int indexed = ost == RSV_ERR_UNSORTED || (t.multi && (ost == RSV_ERR_SELECTOR_PREFIX || ost == RSV_ERR_TOO_LARGE));
    if (wst != ost || bst != ost || (indexed && wbad != obad))
        rsv_kvf_fail(T, "encode status: writer %s (record %zu), batch %s, oracle %s (record %zu)", sn(wst), wbad,
                     sn(bst), sn(ost), obad);
    if (rsv_fuzz_tracing())
        fprintf(stderr, "kv03_roundtrip: %zu records, %s, encode %s\n", t.r.n, t.multi ? "code set" : "one code",
                sn(ost));
    if (ost == RSV_OK) {
        if (wn != on || bn != on || memcmp(wb, ob, on) != 0 || memcmp(bb, ob, on) != 0) {
            rsv_kvf_dump("codec writer", wb, wn);
            rsv_kvf_dump("oracle encoder", ob, on);
            rsv_kvf_fail(T, "encoded files differ (writer %zu, batch %zu, oracle %zu bytes)", wn, bn, on);
        }
        read_back(&t, ob, on);
    }
    if ((flags >> 4) == 0xFu) path_write(&t, rsv_fuzz_u8(&in), wst, wbad, ob, on);
    stream(&t);
    free(ob);
    free(wb);
    free(bb);
    rsv_kvf_recs_free(&t.r);
    rsv_fuzz_arena_unpoison();
    return 0;
}
