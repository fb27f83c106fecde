/* KV03 read workloads (WORKLOADS.md §4–§5): <fixture>/frames, /cursor,
 * /records, plus the non-normative /scan, the /cursor-batch and
 * /records-batch variants (--batch: the same walks and checksums through the
 * record batch API, reservoir/record_batch.h, KV03_BATCH records per call;
 * the baseline side runs its /cursor and /records walkers), and the module table that also
 * lists the merges (workloads_kv03_merge.c) and the non-normative
 * multi-code fixture prefix-6-c4 (--multicode, candidate only).
 *
 * candidate: rsv_kv03_frames_next / rsv_kv03_cursor_next over the mapped
 *            file, rsv_stream_reader_next over the in-memory stream,
 *            rsv_kv03_scanner_scan.
 * baseline:  the walkers of kv03_oracle_walk.c (oracle stateless decoders,
 *            one call per field), rsv_oracle_kv03_decode(SCAN).
 *
 * Each body run starts the cursor / stream reader / scanner over from record
 * 0 (§5) with their reset calls, which keep the buffers grown by earlier
 * runs: after the untimed reference run the timed loops allocate nothing. */
#include <stdlib.h>
#include <string.h>

#include "kv03_oracle_walk.h"
#include "kv03_workloads.h"
#include "side.h"

#include "reservoir/record_batch.h"
#include "reservoir/stream.h"

/* Records per batch call, and the batch's arrays and arenas. */
#define KV03_BATCH 128
typedef struct batch_bufs {
    size_t key_off[KV03_BATCH], key_len[KV03_BATCH], val_len[KV03_BATCH];
    uint8_t kind[KV03_BATCH];
    const uint8_t *val[KV03_BATCH];
    uint64_t end[KV03_BATCH];
} batch_bufs;

typedef struct read_state {
    const kv03_fixture *fx;
    rsv_oracle_ef_view ef;
    uint8_t *keybuf[2]; /* baseline: alternating key buffers */
    uint8_t *key, *val; /* scratch sized for the largest key and value */
    size_t key_cap, val_cap;
#if RSV_BENCH_CANDIDATE
    /* Reused across body runs (reset keeps their buffers): warm after the
     * untimed reference run, so the timed loops allocate nothing. */
    rsv_kv03_cursor cur;
    rsv_stream_reader sr;
    rsv_kv03_scanner scanner;
    batch_bufs *bb;
    rsv_record_batch batch; /* over bb and two arenas of KV03_BATCH max-size keys / values */
#endif
} read_state;

/* ---- timed bodies --------------------------------------------------------- */

#if RSV_BENCH_CANDIDATE

uint64_t rsv_bench_body_kv03_frames(void *state)
{
    const read_state *s = state;
    const rsv_kv03_file *f = &s->fx->file;
    rsv_kv03_frames fw;
    rsv_kv03_frame fr;
    int more;
    uint64_t h = 0, end = 0;
    rsv_kv03_frames_init(&fw, f);
    for (;;) {
        if (rsv_kv03_frames_next(&fw, &fr, &more) != RSV_OK) rsv_bench_fail("frames failed");
        if (!more) break;
        h = kv03_fold(kv03_fold(kv03_fold(kv03_fold(h, fr.end), fr.retained), fr.key_bits / 8),
                      fr.value.width);
        end = fr.end;
    }
    if (end != f->extent) rsv_bench_fail("frames: end %llu != extent", (unsigned long long)end);
    return h;
}

uint64_t rsv_bench_body_kv03_cursor(void *state)
{
    read_state *s = state;
    rsv_kv03_cursor *c = &s->cur;
    rsv_kv03_entry e;
    int more;
    uint64_t h = 0, n = 0;
    if (rsv_kv03_cursor_reset(c, &s->fx->file) != RSV_OK) rsv_bench_fail("cursor reset failed");
    for (;; n++) {
        if (rsv_kv03_cursor_next(c, &e, &more) != RSV_OK) rsv_bench_fail("cursor failed");
        if (!more) break;
        h = kv03_fold(kv03_fold(kv03_fold(h, e.key_len), e.key_len ? e.key[0] : 0), e.value_span.width);
    }
    if (n != s->fx->R) rsv_bench_fail("cursor: %llu records", (unsigned long long)n);
    return h;
}

/* The cursor workload's fold from the batch's arrays: the value's encoded
 * width (§1.3: 1 for a tombstone, else 1 + |EG0(len)| + 8 len) is derived
 * from its state and length, which is all the batch hands out. */
static inline uint64_t value_width(uint8_t kind, size_t len)
{
    if (kind == RSV_BATCH_TOMBSTONE) return 1;
    uint64_t x = (uint64_t)len + 1;
    return 1 + 2 * (uint64_t)(63 - __builtin_clzll(x)) + 1 + 8 * (uint64_t)len;
}

uint64_t rsv_bench_body_kv03_cursor_batch(void *state)
{
    read_state *s = state;
    rsv_kv03_cursor *c = &s->cur;
    rsv_record_batch *b = &s->batch;
    uint64_t h = 0, n = 0;
    if (rsv_kv03_cursor_reset(c, &s->fx->file) != RSV_OK) rsv_bench_fail("cursor reset failed");
    b->val = NULL; /* cursor_next form: state and length only */
    b->end = NULL;
    for (;;) {
        size_t done;
        if (rsv_kv03_cursor_batch(c, b, KV03_BATCH, &done) != RSV_OK) rsv_bench_fail("cursor batch failed");
        for (size_t k = 0; k < done; k++) {
            size_t kl = b->key_len[k];
            h = kv03_fold(kv03_fold(kv03_fold(h, kl), kl ? b->key_arena[b->key_off[k]] : 0),
                          value_width(b->kind[k], b->val_len[k]));
        }
        n += done;
        if (b->stop != RSV_BATCH_STOP_COUNT) break;
    }
    if (b->stop != RSV_BATCH_STOP_END || n != s->fx->R) rsv_bench_fail("cursor batch: %llu records", (unsigned long long)n);
    return h;
}

uint64_t rsv_bench_body_kv03_records_batch(void *state)
{
    read_state *s = state;
    rsv_record_batch *b = &s->batch;
    uint64_t h = 0, n = 0;
    if (rsv_stream_reader_reset(&s->sr, s->fx->stream, NULL, 0) != RSV_OK) rsv_bench_fail("stream reset failed");
    b->val = s->bb->val;
    b->end = s->bb->end;
    for (;;) {
        size_t done;
        if (rsv_stream_reader_batch(&s->sr, b, KV03_BATCH, &done) != RSV_OK) rsv_bench_fail("stream batch failed");
        for (size_t k = 0; k < done; k++) {
            size_t kl = b->key_len[k], vl = b->val_len[k];
            h = kv03_fold(kv03_fold(kv03_fold(kv03_fold(kv03_fold(h, kl), kl ? b->key_arena[b->key_off[k] + kl - 1] : 0), vl),
                                    vl ? b->val[k][vl - 1] : 0), b->end[k]);
        }
        n += done;
        if (b->stop != RSV_BATCH_STOP_COUNT) break;
    }
    if (b->stop != RSV_BATCH_STOP_END || n != s->fx->R) rsv_bench_fail("records batch: %llu records", (unsigned long long)n);
    return h;
}

/* The records body after the reader's reset: decode every record, fold
 * (inlined into both bodies below). */
static inline uint64_t records_fold(read_state *s)
{
    rsv_stream_reader *sr = &s->sr;
    rsv_stream_record r;
    int more;
    uint64_t h = 0, n = 0;
    for (;; n++) {
        if (rsv_stream_reader_next(sr, &r, &more) != RSV_OK) rsv_bench_fail("stream reader failed");
        if (!more) break;
        size_t kl = r.key_len, vl = r.value.len;
        h = kv03_fold(kv03_fold(kv03_fold(kv03_fold(kv03_fold(h, kl), kl ? r.key[kl - 1] : 0), vl),
                                vl ? r.value.data[vl - 1] : 0), r.end);
    }
    if (n != s->fx->R) rsv_bench_fail("records: %llu records", (unsigned long long)n);
    return h;
}

uint64_t rsv_bench_body_kv03_records(void *state)
{
    read_state *s = state;
    if (rsv_stream_reader_reset(&s->sr, s->fx->stream, NULL, 0) != RSV_OK) rsv_bench_fail("stream reset failed");
    return records_fold(s);
}

/* The multi-code fixture's stream: the same body with the fixture's code
 * set (a one-code reader would stop at the first code change). */
uint64_t rsv_bench_body_kv03_records_set(void *state)
{
    read_state *s = state;
    if (rsv_stream_reader_reset_set(&s->sr, s->fx->stream, &s->fx->set) != RSV_OK)
        rsv_bench_fail("stream reset failed");
    return records_fold(s);
}

uint64_t rsv_bench_body_kv03_scan(void *state)
{
    read_state *s = state;
    if (rsv_kv03_scanner_scan(&s->scanner, &s->fx->file, NULL) != RSV_OK) rsv_bench_fail("scan failed");
    return kv03_fold(kv03_fold(0, s->fx->file.N), s->fx->file.extent);
}

#else /* baseline */

uint64_t rsv_bench_body_kv03_records_set(void *state)
{
    (void)state; /* the multi-code fixture is candidate-only */
    rsv_bench_fail("multi-code workloads run on the candidate side only");
}

uint64_t rsv_bench_body_kv03_frames(void *state)
{
    const read_state *s = state;
    return kv03_oracle_frames(&s->fx->file, &s->ef);
}

uint64_t rsv_bench_body_kv03_cursor(void *state)
{
    const read_state *s = state;
    return kv03_oracle_cursor(&s->fx->file, &s->ef, s->keybuf);
}

uint64_t rsv_bench_body_kv03_records(void *state)
{
    const read_state *s = state;
    uint64_t n = 0, h = kv03_oracle_records(s->fx->stream, s->keybuf, s->val, &n);
    if (n != s->fx->R) rsv_bench_fail("records: %llu records", (unsigned long long)n);
    return h;
}

uint64_t rsv_bench_body_kv03_scan(void *state)
{
    const read_state *s = state;
    rsv_oracle_kv03_result res;
    rsv_oracle_kv03_decode(s->fx->file.bytes, (size_t)s->fx->file.size, NULL, RSV_ORACLE_KV03_SCAN, &res);
    if (res.status != RSV_OK || res.n_records != s->fx->R) rsv_bench_fail("oracle scan failed");
    uint64_t h = kv03_fold(kv03_fold(0, res.n_records), res.data_extent);
    rsv_oracle_kv03_result_free(&res);
    return h;
}

#endif

/* ---- untimed setup -------------------------------------------------------- */

const kv03_fixture *kv03_fixture_for(const rsv_bench_params *p, void *module_state,
                                     const kv03_shape *shape)
{
    kv03_module_state *ms = module_state;
    if (ms->have && ms->fx.shape == shape) return &ms->fx;
    if (ms->have) kv03_fixture_free(&ms->fx);
    kv03_fixture_build(&ms->fx, shape, p->dir, p->records);
    ms->have = 1;
    return &ms->fx;
}

static void read_teardown(void *state)
{
    read_state *s = state;
#if RSV_BENCH_CANDIDATE
    rsv_kv03_cursor_free(&s->cur);
    rsv_stream_reader_free(&s->sr);
    rsv_kv03_scanner_free(&s->scanner);
    free(s->bb);
    free(s->batch.key_arena);
    free(s->batch.val_arena);
#endif
    free(s->keybuf[0]);
    free(s->keybuf[1]);
    free(s->key);
    free(s->val);
    free(s);
}

static int read_prepare(const rsv_bench_params *p, void *module_state, const void *arg,
                        rsv_bench_workload *w)
{
    const kv03_case *kc = arg;
    const kv03_fixture *fx = kv03_fixture_for(p, module_state, kc->shape);
    read_state *s = calloc(1, sizeof *s);
    if (!s) return 1;
    s->fx = fx;
    s->ef = kv03_oracle_ef_view(&fx->file);
    /* Room for the largest key and value, rounded the way the codec grows
     * (64 bytes, doubling), so a lent buffer is never reallocated. */
    s->key_cap = 64;
    while (s->key_cap < fx->max_key) s->key_cap *= 2;
    s->val_cap = 64;
    while (s->val_cap < fx->max_val) s->val_cap *= 2;
    s->keybuf[0] = malloc(s->key_cap);
    s->keybuf[1] = malloc(s->key_cap);
    s->key = malloc(s->key_cap);
    s->val = malloc(s->val_cap);
    if (!s->keybuf[0] || !s->keybuf[1] || !s->key || !s->val) {
        read_teardown(s);
        return 1;
    }
#if RSV_BENCH_CANDIDATE
    if (kc->kind == KV03_CURSOR_BATCH || kc->kind == KV03_RECORDS_BATCH) {
        s->bb = malloc(sizeof *s->bb);
        rsv_record_batch *b = &s->batch;
        b->key_cap = KV03_BATCH * (fx->max_key ? fx->max_key : 1);
        b->val_cap = KV03_BATCH * (fx->max_val ? fx->max_val : 1);
        b->key_arena = malloc(b->key_cap);
        b->val_arena = malloc(b->val_cap);
        if (!s->bb || !b->key_arena || !b->val_arena) {
            read_teardown(s);
            return 1;
        }
        b->key_off = s->bb->key_off, b->key_len = s->bb->key_len, b->kind = s->bb->kind;
        b->val_len = s->bb->val_len;
    }
#endif
    w->items = fx->R;
    w->bits = kc->kind == KV03_RECORDS || kc->kind == KV03_RECORDS_BATCH ? fx->stream.len : fx->file.extent;
    w->state = s;
    w->teardown = read_teardown;
    switch (kc->kind) {
    case KV03_FRAMES: w->body = rsv_bench_body_kv03_frames; break;
    case KV03_CURSOR: w->body = rsv_bench_body_kv03_cursor; break;
#if RSV_BENCH_CANDIDATE
    case KV03_CURSOR_BATCH: w->body = rsv_bench_body_kv03_cursor_batch; break;
    case KV03_RECORDS_BATCH: w->body = rsv_bench_body_kv03_records_batch; break;
#else /* the same walks: the checksums must agree */
    case KV03_CURSOR_BATCH: w->body = rsv_bench_body_kv03_cursor; break;
    case KV03_RECORDS_BATCH: w->body = rsv_bench_body_kv03_records; break;
#endif
    case KV03_RECORDS:
        w->body = kc->shape->codes ? rsv_bench_body_kv03_records_set : rsv_bench_body_kv03_records;
        break;
    default: w->body = rsv_bench_body_kv03_scan; break;
    }
    return 0;
}

static int kv03_open(const rsv_bench_params *p, void **module_state)
{
    (void)p;
    *module_state = calloc(1, sizeof(kv03_module_state));
    return *module_state ? 0 : 1;
}

static void kv03_close(void *module_state)
{
    kv03_module_state *ms = module_state;
    if (ms->have) kv03_fixture_free(&ms->fx);
    free(ms);
}

static const kv03_shape k_p6 = {"prefix-6", 0, 6, 0}, k_p512 = {"prefix-512", 0, 512, 0},
                        k_h6 = {"hash-6", 1, 6, 0}, k_h512 = {"hash-512", 1, 512, 0};
#if RSV_BENCH_CANDIDATE
static const kv03_shape k_p6c4 = {"prefix-6-c4", 0, 6, 4}; /* non-normative, kv03_fixture.h */
#endif

#define CASES(id, sh)                                                                           \
    static const kv03_case id##_frames = {&sh, KV03_FRAMES, 0}, id##_cursor = {&sh, KV03_CURSOR, 0}, \
                           id##_records = {&sh, KV03_RECORDS, 0}, id##_scan = {&sh, KV03_SCAN, 0}, \
                           id##_md = {&sh, KV03_MERGE_DISJOINT, 2}, id##_mo = {&sh, KV03_MERGE_OVERLAP, 2}, \
                           id##_m4 = {&sh, KV03_MERGE_NWAY, 4}, id##_m8 = {&sh, KV03_MERGE_NWAY, 8}, \
                           id##_cb = {&sh, KV03_CURSOR_BATCH, 0}, id##_rb = {&sh, KV03_RECORDS_BATCH, 0};
CASES(p6, k_p6)
CASES(p512, k_p512)
CASES(h6, k_h6)
CASES(h512, k_h512)
#if RSV_BENCH_CANDIDATE
static const kv03_case p6c4_frames = {&k_p6c4, KV03_FRAMES, 0}, p6c4_cursor = {&k_p6c4, KV03_CURSOR, 0},
                       p6c4_records = {&k_p6c4, KV03_RECORDS, 0},
                       p6c4_md = {&k_p6c4, KV03_MERGE_DISJOINT, 2}, p6c4_mo = {&k_p6c4, KV03_MERGE_OVERLAP, 2};
#endif

/* Merges (and the oracle's scan) allocate by design: their counts are
 * reported, not gated. The codec's scan allocates too (see performance.md). */
#define MAYALLOC RSV_BENCH_ALLOCS_REPORTED
/* The five WORKLOADS.md §5 workloads of a fixture, of the given kind. */
#define SPECS5(id, name, kind)                                                                  \
    {name "/frames", kind, 1, &id##_frames, read_prepare},                                       \
    {name "/cursor", kind, 1, &id##_cursor, read_prepare},                                       \
    {name "/records", kind, 1, &id##_records, read_prepare},                                     \
    {name "/merge-disjoint", kind | MAYALLOC, 2, &id##_md, kv03_merge_prepare},                  \
    {name "/merge-overlap", kind | MAYALLOC, 2, &id##_mo, kv03_merge_prepare}
#define SPECS(id, name)                                                                         \
    SPECS5(id, name, RSV_BENCH_NORMATIVE),                                                       \
    {name "/scan", RSV_BENCH_EXTRA | MAYALLOC, 1, &id##_scan, read_prepare},                     \
    {name "/merge-n4", RSV_BENCH_EXTRA | MAYALLOC, 2, &id##_m4, kv03_merge_prepare},             \
    {name "/merge-n8", RSV_BENCH_EXTRA | MAYALLOC, 2, &id##_m8, kv03_merge_prepare},              \
    {name "/cursor-batch", RSV_BENCH_BATCH, 1, &id##_cb, read_prepare},                          \
    {name "/records-batch", RSV_BENCH_BATCH, 1, &id##_rb, read_prepare}

/* The multi-code fixture, next to its one-code equivalent prefix-6: the
 * frames, cursor, records and merge workloads of §5 on the same records
 * split over 4 codes (docs/performance.md). The baseline side (oracle v1
 * walkers) has no multi-code counterpart: candidate only. */
#define SPECS_MULTI(id, name) SPECS5(id, name, RSV_BENCH_MULTICODE)

static const rsv_bench_spec k_specs[] = {
    SPECS(p6, "prefix-6"), SPECS(p512, "prefix-512"), SPECS(h6, "hash-6"), SPECS(h512, "hash-512"),
#if RSV_BENCH_CANDIDATE
    SPECS_MULTI(p6c4, "prefix-6-c4"),
#endif
};

const rsv_bench_module rsv_bench_kv03_module = {
    "kv03", k_specs, sizeof k_specs / sizeof k_specs[0], kv03_open, kv03_close};
