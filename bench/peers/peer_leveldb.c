#define _POSIX_C_SOURCE 200809L
/* Peer groups "<fixture>/scan" and "<fixture>/merge": LevelDB (C API) on the
 * fixture's records (prefix-6 and hash-6, WORKLOADS.md §4), in DIR.
 *
 * Storage: LevelDB has no tombstone value that an iterator returns, so every
 * record is stored as key -> tag ‖ bytes (tag 0 = tombstone, 1 = present);
 * options: no compression (only LevelDB's own prefix-compressed blocks, the
 * analogue of the codec's front coding), 4 KiB blocks, default block cache.
 * Each DB is written with one WriteBatch and then CompactRange'd, so the data
 * sits in sorted tables, not the memtable/log.
 *   scan:  a fresh iterator, SeekToFirst, Next over every record, key and value
 *          read; fold (key bytes, last key byte, value bytes, last value byte)
 *          vs rsv_kv03_cursor_record over <fixture>.kv (same fold), and
 *          "rsv-batch": rsv_kv03_cursor_batch, 128 records per call with
 *          values (reservoir/record_batch.h; same fold), the contender the
 *          scan target is judged against.
 *   merge: the disjoint halves (even / odd sorted positions) as two DBs; the body
 *          destroys and opens the output DB, iterates both inputs in key order,
 *          writes every record through WriteBatches of 4096 and ends with
 *          CompactRange (one compaction-style merge into new tables), closes;
 *          checksum = fold(records written). vs the codec's merge of the same
 *          halves as KV03 files (init, run, finish_unsealed, free; fold of N). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kv03_fixture.h"
#include "peer_groups.h"

#include "reservoir/merge.h"
#include "reservoir/record_batch.h"

#define SCAN_BATCH 128

#ifdef RSV_PEER_LEVELDB
#include <leveldb/c.h>
#endif

typedef struct scan_state {
    const kv03_fixture *fx;
    rsv_kv03_file halves[2];
    const rsv_kv03_file *inputs[2];
    uint8_t *key, *val;
    size_t key_cap, val_cap;
    /* rsv-batch: a warm cursor and the batch's arrays and arenas */
    rsv_kv03_cursor bc;
    size_t key_off[SCAN_BATCH], key_len[SCAN_BATCH], val_len[SCAN_BATCH];
    uint8_t kind[SCAN_BATCH];
    const uint8_t *vals[SCAN_BATCH];
    rsv_record_batch b;
#ifdef RSV_PEER_LEVELDB
    leveldb_options_t *opt;
    leveldb_readoptions_t *ro;
    leveldb_writeoptions_t *wo;
    leveldb_t *db, *older, *newer;
    char out_path[4096];
#endif
} scan_state;

static uint64_t fold_rec(uint64_t h, const uint8_t *k, size_t kl, const uint8_t *v, size_t vl)
{
    return kv03_fold(kv03_fold(kv03_fold(kv03_fold(h, kl), kl ? k[kl - 1] : 0), vl), vl ? v[vl - 1] : 0);
}

static uint64_t rsv_scan(void *state)
{
    scan_state *s = state;
    rsv_kv03_cursor c;
    rsv_kv03_entry e;
    int more;
    uint64_t h = 0;
    rsv_kv03_cursor_init(&c, &s->fx->file);
    c.key = s->key, c.key_cap = s->key_cap, c.val = s->val, c.val_cap = s->val_cap; /* warm buffers */
    for (;;) {
        if (rsv_kv03_cursor_record(&c, &e, &more) != RSV_OK) rsv_bench_fail("cursor");
        if (!more) break;
        h = fold_rec(h, e.key, e.key_len, e.value.data, e.value.len);
    }
    s->key = c.key, s->key_cap = c.key_cap, s->val = c.val, s->val_cap = c.val_cap;
    return h;
}

static uint64_t rsv_scan_batch(void *state)
{
    scan_state *s = state;
    rsv_record_batch *b = &s->b;
    uint64_t h = 0;
    if (rsv_kv03_cursor_reset(&s->bc, &s->fx->file) != RSV_OK) rsv_bench_fail("cursor reset");
    for (;;) {
        size_t done;
        if (rsv_kv03_cursor_batch(&s->bc, b, SCAN_BATCH, &done) != RSV_OK) rsv_bench_fail("cursor batch");
        for (size_t k = 0; k < done; k++)
            h = fold_rec(h, b->key_arena + b->key_off[k], b->key_len[k], b->val[k], b->val_len[k]);
        if (b->stop != RSV_BATCH_STOP_COUNT) break;
    }
    if (b->stop != RSV_BATCH_STOP_END) rsv_bench_fail("cursor batch stopped early");
    return h;
}

static uint64_t rsv_merge_body(void *state)
{
    const scan_state *s = state;
    rsv_merge m;
    uint8_t *out;
    size_t len;
    if (rsv_merge_init(&m, s->inputs, 2, 0) != RSV_OK || rsv_merge_run(&m) != RSV_OK ||
        rsv_merge_finish_unsealed(&m, &out, &len) != RSV_OK)
        rsv_bench_fail("merge");
    uint64_t n = rsv_merge_emitted(&m);
    free(out);
    rsv_merge_free(&m);
    return kv03_fold(0, n);
}

#ifdef RSV_PEER_LEVELDB
static void check(char *err, const char *what)
{
    if (err) rsv_bench_fail("leveldb %s: %s", what, err);
}

static leveldb_t *open_db(const scan_state *s, const char *path)
{
    char *err = NULL;
    leveldb_t *db = leveldb_open(s->opt, path, &err);
    check(err, "open");
    return db;
}

/* A DB holding the records at sorted positions p with p % step == rem. */
static leveldb_t *build_db(const scan_state *s, const char *path, unsigned step, unsigned rem)
{
    char *err = NULL;
    leveldb_destroy_db(s->opt, path, &err);
    leveldb_free(err);
    err = NULL;
    leveldb_t *db = open_db(s, path);
    leveldb_writebatch_t *b = leveldb_writebatch_create();
    uint8_t *tmp = malloc(s->fx->max_val + 1);
    for (uint64_t p = rem; p < s->fx->R; p += step) {
        const rsv_record *r = &s->fx->recs[p];
        tmp[0] = r->value.kind == RSV_VALUE_PRESENT;
        if (r->value.len) memcpy(tmp + 1, r->value.data, r->value.len);
        leveldb_writebatch_put(b, (const char *)r->key, r->key_len, (const char *)tmp, 1 + r->value.len);
    }
    leveldb_write(db, s->wo, b, &err);
    check(err, "write");
    leveldb_writebatch_destroy(b);
    leveldb_compact_range(db, NULL, 0, NULL, 0);
    free(tmp);
    return db;
}

static uint64_t ldb_scan(void *state)
{
    const scan_state *s = state;
    leveldb_iterator_t *it = leveldb_create_iterator(s->db, s->ro);
    uint64_t h = 0;
    size_t kl, vl;
    for (leveldb_iter_seek_to_first(it); leveldb_iter_valid(it); leveldb_iter_next(it)) {
        const uint8_t *k = (const uint8_t *)leveldb_iter_key(it, &kl);
        const uint8_t *v = (const uint8_t *)leveldb_iter_value(it, &vl);
        h = fold_rec(h, k, kl, v + 1, vl - 1);
    }
    leveldb_iter_destroy(it);
    return h;
}

static uint64_t ldb_merge(void *state)
{
    const scan_state *s = state;
    char *err = NULL;
    leveldb_destroy_db(s->opt, s->out_path, &err);
    leveldb_free(err);
    leveldb_t *out = open_db(s, s->out_path);
    leveldb_iterator_t *a = leveldb_create_iterator(s->older, s->ro), *b = leveldb_create_iterator(s->newer, s->ro);
    leveldb_iter_seek_to_first(a);
    leveldb_iter_seek_to_first(b);
    leveldb_writebatch_t *wb = leveldb_writebatch_create();
    uint64_t n = 0;
    for (;;) {
        int va = leveldb_iter_valid(a), vb = leveldb_iter_valid(b);
        if (!va && !vb) break;
        size_t ka = 0, kb = 0, vl;
        const char *pa = va ? leveldb_iter_key(a, &ka) : NULL, *pb = vb ? leveldb_iter_key(b, &kb) : NULL;
        int c = !va ? 1 : !vb ? -1 : 0;
        if (va && vb) {
            c = memcmp(pa, pb, ka < kb ? ka : kb);
            if (!c) c = (ka > kb) - (ka < kb);
        }
        leveldb_iterator_t *src = c < 0 ? a : b; /* equal keys: the newer input wins */
        const char *v = leveldb_iter_value(src, &vl);
        leveldb_writebatch_put(wb, c < 0 ? pa : pb, c < 0 ? ka : kb, v, vl);
        if (c <= 0) leveldb_iter_next(a);
        if (c >= 0) leveldb_iter_next(b);
        if (++n % 4096 == 0) {
            leveldb_write(out, s->wo, wb, &err);
            check(err, "write");
            leveldb_writebatch_clear(wb);
        }
    }
    leveldb_write(out, s->wo, wb, &err);
    check(err, "write");
    leveldb_writebatch_destroy(wb);
    leveldb_iter_destroy(a);
    leveldb_iter_destroy(b);
    leveldb_compact_range(out, NULL, 0, NULL, 0);
    leveldb_close(out);
    return kv03_fold(0, n);
}
#endif

static const kv03_shape k_shapes[] = {{"prefix-6", 0, 6}, {"hash-6", 1, 6}};

void peer_group_leveldb(const rsv_bench_params *p)
{
    for (size_t k = 0; k < sizeof k_shapes / sizeof k_shapes[0]; k++) {
        kv03_fixture fx;
        kv03_fixture_build(&fx, &k_shapes[k], p->dir, p->records);
        scan_state s;
        memset(&s, 0, sizeof s);
        s.fx = &fx;
        s.key_cap = s.val_cap = 1024;
        s.key = malloc(s.key_cap);
        s.val = malloc(s.val_cap);
        s.b.key_off = s.key_off, s.b.key_len = s.key_len, s.b.kind = s.kind, s.b.val_len = s.val_len;
        s.b.val = s.vals;
        s.b.key_cap = SCAN_BATCH * (fx.max_key ? fx.max_key : 1);
        s.b.val_cap = SCAN_BATCH * (fx.max_val ? fx.max_val : 1);
        s.b.key_arena = malloc(s.b.key_cap);
        s.b.val_arena = malloc(s.b.val_cap);
        if (!s.key || !s.val || !s.b.key_arena || !s.b.val_arena) rsv_bench_fail("out of memory");
        rsv_kv03_cursor_init(&s.bc, &fx.file);
        kv03_write_inputs(&fx, KV03_SPLIT_DISJOINT, 2, s.halves);
        s.inputs[0] = &s.halves[0];
        s.inputs[1] = &s.halves[1];
        char name[128];
        uint64_t expect_scan = rsv_scan(&s), expect_merge = kv03_fold(0, fx.R);
#ifdef RSV_PEER_LEVELDB
        char path[4096];
        s.opt = leveldb_options_create();
        leveldb_options_set_create_if_missing(s.opt, 1);
        leveldb_options_set_compression(s.opt, leveldb_no_compression);
        s.ro = leveldb_readoptions_create();
        s.wo = leveldb_writeoptions_create();
        kv03_fixture_path(&fx, ".leveldb", path, sizeof path);
        s.db = build_db(&s, path, 1, 0);
        kv03_fixture_path(&fx, "-older.leveldb", path, sizeof path);
        s.older = build_db(&s, path, 2, 0);
        kv03_fixture_path(&fx, "-newer.leveldb", path, sizeof path);
        s.newer = build_db(&s, path, 2, 1);
        kv03_fixture_path(&fx, "-merged.leveldb", s.out_path, sizeof s.out_path);
        snprintf(name, sizeof name, "peers/%s/scan/leveldb", fx.shape->name);
        peer_run(name, fx.R, 0, 1, ldb_scan, &s, expect_scan);
#else
        peer_skip("leveldb scan", "LevelDB (leveldb/c.h, libleveldb) not found at configure time");
#endif
        snprintf(name, sizeof name, "peers/%s/scan/rsv", fx.shape->name);
        peer_run(name, fx.R, fx.file.extent, 1, rsv_scan, &s, expect_scan);
        snprintf(name, sizeof name, "peers/%s/scan/rsv-batch", fx.shape->name);
        peer_run(name, fx.R, fx.file.extent, 1, rsv_scan_batch, &s, expect_scan);
#ifdef RSV_PEER_LEVELDB
        snprintf(name, sizeof name, "peers/%s/merge/leveldb", fx.shape->name);
        peer_run(name, fx.R, 0, 2, ldb_merge, &s, expect_merge);
        leveldb_close(s.db);
        leveldb_close(s.older);
        leveldb_close(s.newer);
        leveldb_options_destroy(s.opt);
        leveldb_readoptions_destroy(s.ro);
        leveldb_writeoptions_destroy(s.wo);
#else
        peer_skip("leveldb merge", "LevelDB not found at configure time");
#endif
        snprintf(name, sizeof name, "peers/%s/merge/rsv", fx.shape->name);
        peer_run(name, fx.R, s.halves[0].extent + s.halves[1].extent, 2, rsv_merge_body, &s, expect_merge);
        rsv_kv03_close(&s.halves[0]);
        rsv_kv03_close(&s.halves[1]);
        free(s.key);
        free(s.val);
        rsv_kv03_cursor_free(&s.bc);
        free(s.b.key_arena);
        free(s.b.val_arena);
        kv03_fixture_free(&fx);
    }
}
