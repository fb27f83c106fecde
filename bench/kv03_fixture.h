/* The native record fixtures of WORKLOADS.md §4 (prefix-6, prefix-512,
 * hash-6, hash-512; and the non-normative multi-code prefix-6-c4, see
 * kv03_shape.codes) and everything derived from them outside the timers:
 * generation and sorting, the KV03 file in DIR (batch writer, EG0,
 * W = K = 15, C0 = `0`), mapped, opened, scanned and verified through a
 * cursor; the record stream in memory, verified by a full decode; and the
 * merge inputs. The same code runs in both executables (side.h), so both
 * sides see bit-identical inputs. */
#ifndef RSV_BENCH_KV03_FIXTURE_H
#define RSV_BENCH_KV03_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "reservoir/kv03.h"
#include "reservoir/stream.h"
#include "reservoir/writer.h"
#include "workloads.h" /* the shared WORKLOADS.md generator */

typedef struct kv03_shape {
    const char *name; /* "prefix-6" ... */
    int hash;         /* 0: prefix key, 1: hash key */
    unsigned max;     /* maximum value length */
    /* 0: one code, C0 = `0` (WORKLOADS.md §4). 4: the non-normative
     * multi-code fixture: the sorted records split into quarters by sorted
     * position, quarter q under code q of {`0`, `10`, `110`, `111`} (ordered
     * like the codes, so the logical order is the key order). */
    unsigned codes;
} kv03_shape;

typedef struct kv03_fixture {
    const kv03_shape *shape;
    const char *dir;
    uint64_t R;
    rsv_wl_fixture gen;   /* the generated records and their arenas */
    rsv_record *recs;     /* = gen.recs: sorted by key bytes */
    size_t max_key, max_val;
    uint8_t *full;        /* <fixture>.kv bytes (as written) */
    size_t full_len;
    rsv_kv03_file file;   /* <fixture>.kv, mmap'd and opened */
    rsv_writer stream_w;  /* owns the record stream bytes */
    rsv_view stream;      /* exactly E bits */
    rsv_code_set set;     /* multi-code: the stream's code set (m = 0 for one code) */
} kv03_fixture;

/* Build everything above (aborts through rsv_bench_fail on any mismatch). */
void kv03_fixture_build(kv03_fixture *fx, const kv03_shape *shape, const char *dir, uint64_t R);
void kv03_fixture_free(kv03_fixture *fx);

/* "<dir>/<fixture><suffix>" into buf (aborts if it does not fit). */
void kv03_fixture_path(const kv03_fixture *fx, const char *suffix, char *buf, size_t cap);

/* Merge inputs (WORKLOADS.md §4 split table, and the N-way extra): input j of
 * n receives the records of rsv_wl_split_range (workloads.h); written with
 * the fixture's policy to <fixture><suffix_j>.kv and opened (mapped). */
enum {
    KV03_SPLIT_DISJOINT = RSV_WL_SPLIT_DISJOINT,
    KV03_SPLIT_OVERLAP = RSV_WL_SPLIT_OVERLAP,
    KV03_SPLIT_ROUND_ROBIN = RSV_WL_SPLIT_ROUND_ROBIN
};
void kv03_write_inputs(const kv03_fixture *fx, int split, unsigned n, rsv_kv03_file *files);

/* The checksum fold shared by both sides (order-sensitive, wraps mod 2^64). */
static inline uint64_t kv03_fold(uint64_t h, uint64_t x)
{
    return (h ^ x) * UINT64_C(0x100000001B3) + UINT64_C(0x9E3779B97F4A7C15);
}

/* Fold of a merge's output file (enveloped or not, the CRC fields are not
 * read): output data-stream bit length, record count, last data byte. */
uint64_t kv03_fold_output(const uint8_t *file, size_t n);

#endif
