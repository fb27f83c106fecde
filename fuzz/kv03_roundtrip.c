/* Fuzz target kv03_roundtrip: records, a policy and a selector code from the
 * input (layout: common/kv03_rt.h, shared with stream_roundtrip, which writes
 * and reads the same records as a record stream) are
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
 *   3. for one input in 16 (rsv_fuzz_one_in: a hash of the whole input, so
 *      the share of executions stays 1/16 however many path-writer inputs
 *      the corpus keeps; the flag it replaced reached 11-22 %, docs/fuzzing.md round 6): written again by
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
#include "kv03_diff.h"
#include "kv03_fuzz.h"
#include "kv03_rt.h"
#include "kv03_parse_check.h"
#include "reservoir/crc32c.h"
#include "reservoir/kv03.h"
#include "reservoir/oracle_kv03.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define T "kv03_roundtrip"

static const char *sn(rsv_status s) { return rsv_status_name((int)s); }

/* A record's add through the codec writer (plain add for v1). */
static rsv_status codec_write(const rsv_kvf_rt *t, uint8_t **out, size_t *n, size_t *bad)
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

static void path_write(const rsv_kvf_rt *t, uint8_t knob, rsv_status want, size_t want_bad, const uint8_t *file, size_t n)
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
        if (rsv_fuzz_tracing()) fprintf(stderr, "kv03_roundtrip: path writer compared: %s, no file left\n", sn(st));
        return;
    }
    rsv_kv03_file f;
    rsv_status ost = (knob & 64u) ? rsv_kv03_open_path_copy(path, NULL, &f) : rsv_kv03_open_path(path, NULL, &f);
    if (ost != RSV_OK) rsv_kvf_fail(T, "path writer's file does not open: %s", sn(ost));
    if (f.size != n || memcmp(f.bytes, file, n) != 0)
        rsv_kvf_fail(T, "path writer's file differs from the oracle's (%" PRIu64 " vs %zu bytes)", f.size, n);
    rsv_kv03_close(&f);
    unlink(path);
    if (rsv_fuzz_tracing()) fprintf(stderr, "kv03_roundtrip: path writer compared: %zu bytes on disk\n", n);
}

/* The oracle's batch encoding (v1 with C0, or v2 with each record's code). */
static rsv_status oracle_encode(const rsv_kvf_rt *t, uint8_t **out, size_t *n, size_t *bad)
{
    *bad = SIZE_MAX;
    if (!t->multi)
        return rsv_oracle_kv03_encode(t->r.oracle, t->r.n, &t->pol.oracle, t->code.bytes, t->code.bits, out, n, bad);
    rsv_oracle_crecord *c = rsv_kvf_rt_crecords(t);
    rsv_status st = rsv_oracle_kv03_encode_v2(c, t->r.n, &t->pol.oracle, out, n, bad);
    free(c);
    return st;
}

/* The file decodes, through the comparison engine (codec == oracle on open,
 * walks, frames, scan, seek_code), to exactly the input records with their
 * codes (v1: C0). The records the codec's cursor returns equal the oracle's
 * (engine), which equal the input, whose codec encoding is this file (step
 * 1): re-encoding them would repeat step 1. */
static void read_back(const rsv_kvf_rt *t, const uint8_t *file, size_t n)
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rsv_fuzz_producer in;
    rsv_kvf_rt t;
    rsv_fuzz_producer_init(&in, data, size);
    rsv_kvf_rt_read(&in, &t);

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
        fprintf(stderr, "kv03_roundtrip: %zu records, %s, encode %s, file %zu bytes, CRC32C %08" PRIx32 "\n", t.r.n,
                t.multi ? "code set" : "one code", sn(ost), on, ost == RSV_OK ? rsv_crc32c(0, ob, on) : 0u);
    if (ost == RSV_OK) {
        if (wn != on || bn != on || memcmp(wb, ob, on) != 0 || memcmp(bb, ob, on) != 0) {
            rsv_kvf_dump("codec writer", wb, wn);
            rsv_kvf_dump("oracle encoder", ob, on);
            rsv_kvf_fail(T, "encoded files differ (writer %zu, batch %zu, oracle %zu bytes)", wn, bn, on);
        }
        read_back(&t, ob, on);
    }
    int path = rsv_fuzz_one_in(data, size, 16);
    uint8_t knob = path ? rsv_fuzz_u8(&in) : 0;
    if (rsv_fuzz_tracing())
        fprintf(stderr, "kv03_roundtrip: path writer %s (flush bound %u bytes, %s), %zu input bytes not read\n",
                path ? "on" : "off", 1u + (knob & 63u), (knob & 64u) ? "open_path_copy" : "open_path",
                rsv_fuzz_remaining(&in));
    if (path) path_write(&t, knob, wst, wbad, ob, on);
    free(ob);
    free(wb);
    free(bb);
    rsv_kvf_rt_free(&t);
    rsv_fuzz_arena_unpoison();
    return 0;
}
