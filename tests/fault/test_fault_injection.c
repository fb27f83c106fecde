/* Allocation, write, pwrite/pread and fchmod failures (and short positioned
 * transfers), injected at link time (docs/mutation.md, "Fault injection").
 * This executable links the static codec with -Wl,--wrap=malloc,--wrap=calloc,
 * --wrap=realloc,--wrap=write,--wrap=pwrite,--wrap=pread,--wrap=fchmod, so every call
 * the codec's objects (and this file) make to those functions lands in the
 * __wrap_ functions below; nothing of this reaches the production library,
 * its API or any other test.
 *
 * Allocation sweep: for k = 0, 1, 2, ... the k-th allocation of one whole
 * operation fails (returns NULL), until an operation makes fewer than k + 1
 * allocations and therefore succeeds. A run whose operation fails must not
 * crash and must return RSV_ERR_NOMEM (status.h: "out of memory"), or, for a
 * path operation, RSV_ERR_IO from a step that could not get its buffer (the
 * commit's re-read buffer, the directory name of the final directory fsync);
 * a failed path operation leaves no temporary and no destination (kv03.h:
 * "On failure no file (temporary or final) is left behind"), except the
 * documented case of a failed directory fsync after the rename, where the
 * complete file is in place. A run that succeeds (no failure, or one the
 * codec absorbs: an optional larger reservation) gives the §12.3 file of
 * KV03.md, byte for byte. A sweep fails if no run returned RSV_ERR_NOMEM.
 * Swept: the path writer, the in-memory writer, the batch encoder, the merge
 * in memory (of §12.3, and of the §12.5 multi-code file, whose output is
 * §12.5 again) and to a path, and (read_sweep) the cursor with a scan and a
 * record stream written and read back.
 *
 * Leaks: the wrappers count live blocks (allocated and not freed), and every
 * run of every sweep must end with the count it started with, whether it
 * succeeded, failed or never reached the armed allocation (a returned file
 * is the caller's block and freed by the test). The mutation gate builds
 * without ASan, so LeakSanitizer cannot see a deleted free() there; this
 * count does, on the error paths too.
 *
 * Guarded heap: in the guarded_heap tests every allocation is its own
 * mapping whose last byte lies right before a PROT_NONE page (exact to the
 * byte; an object's size is a multiple of its alignment, so the placement is
 * aligned enough for what is stored there). A load of one byte past any
 * heap buffer the codec or the test allocated (the writer's buffers, copied
 * keys, the merge's code table, the caller's keys and values, which these
 * tests put in such buffers too) faults at once. Keys placed this way also
 * sit at odd addresses, so a copy from the key's address rounded down to 8
 * copies other bytes and the result differs from KV03.md §12.3. */
#define _DEFAULT_SOURCE /* mkdtemp */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "reservoir/kv03.h"
#include "reservoir/merge.h"
#include "reservoir/record_batch.h"
#include "reservoir/stream.h"

#include "../kv03_vectors.h"
#include "../kv03_vectors_v2.h"

/* codec/src/kv03_layout.h (internal): the retrying write of the file sink */
int rsv__write_all(int fd, const void *buf, size_t n);
int rsv__pwrite_all(int fd, const void *buf, size_t n, uint64_t at);
int rsv__pread_all(int fd, void *buf, size_t n, uint64_t at);
int rsv__tmp_create(const char *path, char **tmp);
int rsv__sync_dir(const char *path);

/* ---- the wrappers ---------------------------------------------------------- */

void *__real_malloc(size_t n);
void __real_free(void *p);
void *__real_calloc(size_t k, size_t n);
void *__real_realloc(void *p, size_t n);
ssize_t __real_write(int fd, const void *p, size_t n);
ssize_t __real_pwrite(int fd, const void *p, size_t n, off_t at);
ssize_t __real_pread(int fd, void *p, size_t n, off_t at);
int __real_fchmod(int fd, mode_t mode);

static long alloc_fail_at = -1; /* index of the allocation to fail; -1: none */
static long live_blocks;        /* blocks allocated through the wrappers and not freed */
static long alloc_count;        /* allocations since arm_alloc */
static int alloc_failed;        /* the armed failure happened */

static int alloc_fails(void)
{
    if (alloc_fail_at < 0) return 0;
    if (alloc_count++ != alloc_fail_at) return 0;
    alloc_failed = 1;
    return 1;
}

/* guarded mode (see the top): live blocks, found by address on free/realloc */
typedef struct gblock {
    uint8_t *p, *base;
    size_t n, len;
} gblock;
static gblock gblocks[4096];
static size_t ngblocks;
static int guarded;

static void *guarded_alloc(size_t n)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE), data = n ? (n + pg - 1) / pg * pg : pg;
    uint8_t *b = mmap(NULL, data + pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (b == MAP_FAILED || ngblocks == sizeof gblocks / sizeof *gblocks) abort();
    if (mprotect(b + data, pg, PROT_NONE) != 0) abort();
    gblocks[ngblocks] = (gblock){b + data - n, b, n, data + pg};
    return gblocks[ngblocks++].p;
}

static gblock *guarded_find(const void *p)
{
    for (size_t i = 0; i < ngblocks; i++)
        if (gblocks[i].p == p) return &gblocks[i];
    return NULL;
}

static void guarded_release(gblock *g)
{
    munmap(g->base, g->len);
    *g = gblocks[--ngblocks];
}

static void *counted(void *p)
{
    if (p) live_blocks++;
    return p;
}

void *__wrap_malloc(size_t n)
{
    if (alloc_fails()) return NULL;
    return counted(guarded ? guarded_alloc(n) : __real_malloc(n));
}

void *__wrap_calloc(size_t k, size_t n)
{
    if (alloc_fails()) return NULL;
    if (!guarded) return counted(__real_calloc(k, n));
    if (n && k > SIZE_MAX / n) return NULL;
    return counted(guarded_alloc(k * n)); /* fresh anonymous pages are zero */
}

static void *realloc_impl(void *p, size_t n);

/* realloc(NULL, n) allocates a block; realloc(p, 0) may free p (glibc
 * returns NULL then); a failed resize keeps p. */
void *__wrap_realloc(void *p, size_t n)
{
    if (alloc_fails()) return NULL;
    void *q = realloc_impl(p, n);
    if (!p && q) live_blocks++;
    else if (p && !q && n == 0) live_blocks--;
    return q;
}

static void *realloc_impl(void *p, size_t n)
{
    gblock *g = p ? guarded_find(p) : NULL;
    if (!guarded && !g) return __real_realloc(p, n);
    if (!g && p) abort(); /* a libc block resized in guarded mode: not expected */
    uint8_t *q = guarded_alloc(n);
    if (g) {
        g = guarded_find(p); /* guarded_alloc may not move entries, but be exact */
        memcpy(q, p, g->n < n ? g->n : n);
        guarded_release(g);
    }
    return q;
}

void __wrap_free(void *p)
{
    if (p) live_blocks--;
    gblock *g = p ? guarded_find(p) : NULL;
    if (g)
        guarded_release(g);
    else
        __real_free(p);
}

static void arm_alloc(long k)
{
    alloc_count = 0;
    alloc_failed = 0;
    alloc_fail_at = k;
}
static void disarm_alloc(void) { alloc_fail_at = -1; }

/* write: the next `write_zero` calls return 0 (no progress) with errno left
 * at EINTR, as a stale errno from an earlier interrupted call would be. */
static int write_zero;
static long write_calls;

ssize_t __wrap_write(int fd, const void *p, size_t n)
{
    write_calls++;
    if (write_zero > 0) {
        write_zero--;
        errno = EINTR;
        return 0;
    }
    return __real_write(fd, p, n);
}

/* pwrite/pread: `pio_fail` calls fail with EIO; `pio_short` caps each
 * transfer at that many bytes (a short transfer, as a signal may cause);
 * fchmod: `fchmod_fail` calls fail with EPERM. */
static int pio_fail, pio_short, fchmod_fail;
static long pio_calls;

/* One pwrite/pread call: 1 = fail it (errno EIO), else *n is capped at pio_short. */
static int pio_inject(size_t *n)
{
    pio_calls++;
    if (pio_fail > 0) {
        pio_fail--;
        errno = EIO;
        return 1;
    }
    if (pio_short > 0 && *n > (size_t)pio_short) *n = (size_t)pio_short;
    return 0;
}

ssize_t __wrap_pwrite(int fd, const void *p, size_t n, off_t at)
{
    return pio_inject(&n) ? -1 : __real_pwrite(fd, p, n, at);
}

ssize_t __wrap_pread(int fd, void *p, size_t n, off_t at)
{
    return pio_inject(&n) ? -1 : __real_pread(fd, p, n, at);
}

int __wrap_fchmod(int fd, mode_t mode)
{
    if (fchmod_fail > 0) {
        fchmod_fail--;
        errno = EPERM;
        return -1;
    }
    return __real_fchmod(fd, mode);
}

/* ---- helpers ------------------------------------------------------------- */

static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    return n;
}

/* The file every successful run must produce: KV03.md §12.3, or the §12.5
 * multi-code file for the v2 merge sweeps (set by them, reset after). */
static int want_12_5;

static void expect_file_12_3(const uint8_t *got, size_t n, const char *what)
{
    if (want_12_5) {
        cr_assert_eq(n, FILE_12_5_SIZE, "%s: %zu bytes, want the %d of KV03.md §12.5", what, n, FILE_12_5_SIZE);
        cr_assert(memcmp(got, FILE_12_5, FILE_12_5_SIZE) == 0, "%s: not the §12.5 file", what);
        return;
    }
    cr_assert_eq(n, 360, "%s: %zu bytes, want the 360 of KV03.md §12.3", what, n);
    cr_assert(memcmp(got, FILE_12_3, 360) == 0, "%s: not the §12.3 file", what);
}

static void expect_path_12_3(const char *path, const char *what)
{
    uint8_t buf[400];
    int fd = open(path, O_RDONLY);
    cr_assert(fd >= 0, "%s: %s missing", what, path);
    ssize_t n = read(fd, buf, sizeof buf);
    close(fd);
    cr_assert(n >= 0);
    expect_file_12_3(buf, (size_t)n, what);
}

typedef rsv_status (*operation)(const char *dir, uint8_t **out, size_t *n);

static int exists(const char *path) { return access(path, F_OK) == 0; }

/* The sweep itself. `path_op`: the operation writes dir/out.kv. */
static void sweep(operation op, int path_op, const char *what)
{
    char dir[] = "/tmp/rsv_fault_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/out.kv", dir);
    long nomem = 0, tolerated = 0;
    for (long k = 0;; k++) {
        cr_assert_lt(k, 10000, "%s: still allocating after 10000 allocations", what);
        uint8_t *out = NULL;
        size_t n = 0;
        long live = live_blocks;
        arm_alloc(k);
        rsv_status st = op(dir, &out, &n);
        int failed = alloc_failed;
        disarm_alloc();
        /* every block the operation allocated is freed, whatever the outcome
         * (a result is the caller's: it is freed below, and counted there) */
        cr_assert_eq(live_blocks - (out != NULL), live, "%s: allocation %ld %s: %ld blocks not freed", what, k,
                     failed ? "failed" : "not reached", live_blocks - (out != NULL) - live);
        if (st == RSV_OK) {
            /* with no failure, or one the codec may absorb (an optional
             * larger reservation whose fallback allocates again): the
             * result is the §12.3 file all the same */
            if (path_op) {
                expect_path_12_3(path, what);
                cr_assert_eq(unlink(path), 0);
                cr_assert_eq(entries(dir), 0, "%s: a temporary was left", what);
            } else {
                expect_file_12_3(out, n, what);
                free(out);
            }
            if (!failed) break; /* the operation made fewer than k + 1 allocations */
            tolerated++;
            continue;
        }
        cr_assert(failed, "%s: %s without a failed allocation", what, rsv_status_name(st));
        cr_assert_null(out, "%s: allocation %ld failed but a result was returned", what, k);
        if (st == RSV_ERR_NOMEM) {
            nomem++;
            if (path_op) cr_assert_eq(entries(dir), 0, "%s: allocation %ld failed, a file was left", what, k);
            continue;
        }
        /* path operations only: RSV_ERR_IO from a step whose buffer could
         * not be allocated. Either nothing is left, or (kv03.h: "the rename
         * succeeded but the directory fsync failed") the complete file is in
         * place and no temporary */
        cr_assert(path_op && st == RSV_ERR_IO, "%s: allocation %ld failed, status %s", what, k,
                  rsv_status_name(st));
        if (exists(path)) {
            expect_path_12_3(path, what);
            cr_assert_eq(unlink(path), 0);
        }
        cr_assert_eq(entries(dir), 0, "%s: allocation %ld failed, a temporary was left", what, k);
    }
    cr_assert_gt(nomem, 0, "%s: no allocation failure was reported as RSV_ERR_NOMEM", what);
    (void)tolerated;
    cr_assert_eq(rmdir(dir), 0);
}

/* The records the operations add: §12's, or copies of them in guarded
 * buffers (guarded_heap tests). */
static const rsv_record *recs;

static rsv_status add_12(rsv_kv03_writer *w)
{
    const rsv_record *r = recs ? recs : RECS;
    for (int i = 0; i < 4; i++) {
        rsv_status st = rsv_kv03_writer_add(w, r[i].key, r[i].key_len, r[i].value);
        if (st) return st;
    }
    return RSV_OK;
}

/* ---- operations ------------------------------------------------------------ */

static rsv_status op_path_writer(const char *dir, uint8_t **out, size_t *n)
{
    (void)out, (void)n;
    char path[64];
    snprintf(path, sizeof path, "%s/out.kv", dir);
    rsv_kv03_policy p = rsv_kv03_policy_default();
    rsv_kv03_writer w;
    rsv_status st = rsv_kv03_writer_init_path(&w, &p, NULL, 0, path);
    if (!st) st = add_12(&w);
    if (!st) st = rsv_kv03_writer_commit(&w);
    rsv_kv03_writer_free(&w);
    return st;
}

static rsv_status op_memory_writer(const char *dir, uint8_t **out, size_t *n)
{
    (void)dir;
    rsv_kv03_policy p = rsv_kv03_policy_default();
    rsv_kv03_writer w;
    rsv_status st = rsv_kv03_writer_init(&w, &p, NULL, 0);
    if (!st) st = add_12(&w);
    if (!st) st = rsv_kv03_writer_finish(&w, out, n);
    rsv_kv03_writer_free(&w);
    return st;
}

/* the §12.3 file merged with itself: the same four records (§11.2: the newer
 * input's record wins a tie, and both are the same), written with the same
 * policy and code, hence the §12.3 file again */
static rsv_status op_merge(const char *dir, uint8_t **out, size_t *n)
{
    (void)dir;
    rsv_kv03_file a, b;
    cr_assert_eq(rsv_kv03_open(FILE_12_3, 360, NULL, &a), RSV_OK);
    cr_assert_eq(rsv_kv03_open(FILE_12_3, 360, NULL, &b), RSV_OK);
    const rsv_kv03_file *in[2] = {&a, &b};
    rsv_status st = rsv_merge_files(in, 2, 0, out, n);
    rsv_kv03_close(&a);
    rsv_kv03_close(&b);
    return st;
}

/* the §12.5 multi-code file merged with itself: the same six records under
 * the same three codes (the dictionary union is the file's own, §11.2 ties
 * go to the newer input, equal here), written with the same policy: the
 * §12.5 file again (§11.1: the file is a pure function of the records, their
 * codes and the policy). The merge's code table and union, and the writer's
 * code list, allocate here. */
static rsv_status op_merge_v2(const char *dir, uint8_t **out, size_t *n)
{
    (void)dir;
    rsv_kv03_file a, b;
    cr_assert_eq(rsv_kv03_open(FILE_12_5, FILE_12_5_SIZE, NULL, &a), RSV_OK);
    cr_assert_eq(rsv_kv03_open(FILE_12_5, FILE_12_5_SIZE, NULL, &b), RSV_OK);
    const rsv_kv03_file *in[2] = {&a, &b};
    rsv_status st = rsv_merge_files(in, 2, 0, out, n);
    rsv_kv03_close(&a);
    rsv_kv03_close(&b);
    return st;
}

/* the same merge into a path writer */
static rsv_status op_merge_path(const char *dir, uint8_t **out, size_t *n)
{
    (void)out, (void)n;
    char path[64];
    snprintf(path, sizeof path, "%s/out.kv", dir);
    rsv_kv03_file a, b;
    cr_assert_eq(rsv_kv03_open(FILE_12_3, 360, NULL, &a), RSV_OK);
    cr_assert_eq(rsv_kv03_open(FILE_12_3, 360, NULL, &b), RSV_OK);
    const rsv_kv03_file *in[2] = {&a, &b};
    rsv_status st = rsv_merge_files_path(in, 2, 0, path);
    rsv_kv03_close(&a);
    rsv_kv03_close(&b);
    return st;
}

/* the batch encoder: §12's records, default policy and code */
static rsv_status op_encode(const char *dir, uint8_t **out, size_t *n)
{
    (void)dir;
    rsv_kv03_policy p = rsv_kv03_policy_default();
    return rsv_kv03_encode(&p, NULL, 0, recs ? recs : RECS, 4, out, n);
}

Test(fault_alloc, path_writer_every_allocation_fails_cleanly) { sweep(op_path_writer, 1, "path writer"); }
Test(fault_alloc, memory_writer_every_allocation_fails_cleanly) { sweep(op_memory_writer, 0, "in-memory writer"); }
Test(fault_alloc, merge_every_allocation_fails_cleanly) { sweep(op_merge, 0, "merge"); }
Test(fault_alloc, merge_path_every_allocation_fails_cleanly) { sweep(op_merge_path, 1, "merge to a path"); }
Test(fault_alloc, encode_every_allocation_fails_cleanly) { sweep(op_encode, 0, "batch encoder"); }
Test(fault_alloc, merge_v2_every_allocation_fails_cleanly)
{
    want_12_5 = 1;
    sweep(op_merge_v2, 0, "multi-code merge");
    want_12_5 = 0;
}

/* ---- readers: every allocation fails in turn, nothing leaks ----------------- */

/* A reading operation: RSV_OK after checking what it read (§12's records),
 * else the first failing status. */
typedef rsv_status (*read_operation)(void);

static int key_is(const uint8_t *key, size_t len, int i)
{
    return len == RECS[i].key_len && (len == 0 || memcmp(key, RECS[i].key, len) == 0);
}

/* the §12.3 file's records through the cursor (init, next until the end, free) */
static rsv_status op_cursor(void)
{
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(FILE_12_3, 360, NULL, &f), RSV_OK);
    rsv_kv03_cursor c;
    rsv_status st = rsv_kv03_cursor_init(&c, &f);
    int more = 1, i = 0;
    while (!st && more) {
        rsv_kv03_entry e;
        st = rsv_kv03_cursor_next(&c, &e, &more);
        if (!st && more) cr_assert(i < 4 && key_is(e.key, e.key_len, i++), "cursor: record %d differs", i);
    }
    if (!st) cr_assert_eq(i, 4);
    rsv_kv03_cursor_free(&c);
    if (!st) st = rsv_kv03_scan(&f, NULL); /* its scratch (the walked block offsets) */
    rsv_kv03_close(&f);
    return st;
}

/* §12's records written as a record stream and read back (stream writer,
 * stream reader) */
static rsv_status op_stream(void)
{
    rsv_writer out;
    rsv_writer_init(&out);
    rsv_stream_writer sw;
    rsv_status st = rsv_stream_writer_init(&sw, &out, NULL, 0);
    for (int i = 0; !st && i < 4; i++) st = rsv_stream_writer_add(&sw, RECS[i].key, RECS[i].key_len, RECS[i].value);
    if (!st) {
        rsv_stream_reader sr;
        rsv_view v = rsv_view_make(rsv_writer_data(&out), 0, rsv_stream_writer_extent(&sw));
        st = rsv_stream_reader_init(&sr, v, NULL, 0);
        int more = 1, i = 0;
        while (!st && more) {
            rsv_stream_record r;
            st = rsv_stream_reader_next(&sr, &r, &more);
            if (!st && more) cr_assert(i < 4 && key_is(r.key, r.key_len, i++), "stream: record %d differs", i);
        }
        if (!st) cr_assert_eq(i, 4);
        rsv_stream_reader_free(&sr);
    }
    rsv_stream_writer_free(&sw);
    rsv_writer_free(&out);
    return st;
}

/* For k = 0, 1, ...: the k-th allocation fails; the operation returns
 * RSV_ERR_NOMEM or (once it needs fewer than k + 1) succeeds, and in every
 * run the blocks it allocated are all freed. */
static void read_sweep(read_operation op, const char *what)
{
    long nomem = 0;
    for (long k = 0;; k++) {
        cr_assert_lt(k, 10000, "%s: still allocating after 10000 allocations", what);
        long live = live_blocks;
        arm_alloc(k);
        rsv_status st = op();
        int failed = alloc_failed;
        disarm_alloc();
        cr_assert_eq(live_blocks, live, "%s: allocation %ld %s: %ld blocks not freed", what, k,
                     failed ? "failed" : "not reached", live_blocks - live);
        if (st == RSV_OK && !failed) break;
        if (st == RSV_OK) continue; /* a failure the codec absorbed */
        cr_assert(failed, "%s: %s without a failed allocation", what, rsv_status_name(st));
        cr_assert_eq(st, RSV_ERR_NOMEM, "%s: allocation %ld failed, status %s", what, k, rsv_status_name(st));
        nomem++;
    }
    cr_assert_gt(nomem, 0, "%s: no allocation failure was reported as RSV_ERR_NOMEM", what);
}

Test(fault_alloc, cursor_every_allocation_fails_cleanly) { read_sweep(op_cursor, "cursor"); }
Test(fault_alloc, stream_every_allocation_fails_cleanly) { read_sweep(op_stream, "record stream"); }


/* ---- write(2) making no progress ------------------------------------------- */

/* A write that returns 0 for n > 0 makes no progress: rsv__write_all reports
 * it (-1) instead of calling write again, whatever errno holds (here a stale
 * EINTR, which for a real EINTR return (-1) would mean "retry"). */
/* KV03.md §9.2 (end): writers are poisoned by their first failure. A finish
 * that fails for want of memory (each allocation it makes failing in turn)
 * leaves the writer poisoned: finishing again is RSV_ERR_POISONED, not a
 * second attempt that succeeds now that memory is back.
 *
 * An in-memory finish allocates only when the file's tail does not fit the
 * data buffer, or when more than half of that buffer would be unused (the
 * buffer is then resized and handed out as the file). Which record counts
 * get there depends on the buffer's growth, so this runs the file of 1..96
 * records with 0..40-byte values and requires that finish failed (and was
 * checked) for some of them. A finish that succeeds under injection must
 * give the same bytes as one without it. */
static rsv_status add_n(rsv_kv03_writer *w, int n)
{
    static const uint8_t val[40] = {0};
    for (int i = 0; i < n; i++) {
        char key[16];
        int kl = snprintf(key, sizeof key, "key%05d", i);
        rsv_status st = rsv_kv03_writer_add(w, key, (size_t)kl, rsv_value_present(val, (size_t)(i * 7 % 41)));
        if (st) return st;
    }
    return RSV_OK;
}

Test(fault_alloc, memory_writer_failed_finish_poisons_the_writer)
{
    int failed = 0;
    for (int nrec = 1; nrec <= 96; nrec++) {
        uint8_t *ref = NULL;
        size_t nref = 0;
        {
            rsv_kv03_policy p = rsv_kv03_policy_default();
            rsv_kv03_writer w;
            cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
            cr_assert_eq(add_n(&w, nrec), RSV_OK);
            cr_assert_eq(rsv_kv03_writer_finish(&w, &ref, &nref), RSV_OK);
            rsv_kv03_writer_free(&w);
        }
        for (long k = 0;; k++) {
            rsv_kv03_policy p = rsv_kv03_policy_default();
            rsv_kv03_writer w;
            uint8_t *out = NULL;
            size_t n = 0;
            cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
            cr_assert_eq(add_n(&w, nrec), RSV_OK);
            arm_alloc(k);
            rsv_status st = rsv_kv03_writer_finish(&w, &out, &n);
            disarm_alloc();
            if (st == RSV_OK) { /* no failure left to inject (or one the codec absorbed) */
                cr_assert(n == nref && memcmp(out, ref, n) == 0, "%d records: finish output differs", nrec);
                free(out);
                rsv_kv03_writer_free(&w);
                if (!alloc_failed) break;
                continue;
            }
            cr_assert(alloc_failed);
            cr_assert_eq(st, RSV_ERR_NOMEM, "%d records, allocation %ld of finish failed: %s", nrec, k,
                         rsv_status_name(st));
            st = rsv_kv03_writer_finish(&w, &out, &n);
            cr_assert_eq(st, RSV_ERR_POISONED, "finish after a failed finish (%d records, allocation %ld): %s",
                         nrec, k, rsv_status_name(st));
            rsv_kv03_writer_free(&w);
            failed++;
        }
        free(ref);
    }
    cr_assert_gt(failed, 0);
}

Test(fault_write, zero_progress_is_an_error_not_a_retry)
{
    int fd = open("/dev/null", O_WRONLY);
    cr_assert(fd >= 0);
    write_calls = 0;
    write_zero = 1;
    int rc = rsv__write_all(fd, "abc", 3);
    write_zero = 0;
    cr_assert_eq(rc, -1, "a write returning 0 must be an error");
    cr_assert_eq(write_calls, 1, "write called %ld times: retried after no progress", write_calls);
    /* without the fault the same call succeeds in one write */
    write_calls = 0;
    cr_assert_eq(rsv__write_all(fd, "abc", 3), 0);
    cr_assert_eq(write_calls, 1);
    close(fd);
}

/* The positioned I/O of the file sink (file_io.c): an error ends the loop
 * with -1 after that one call; short transfers continue where they stopped,
 * so the bytes land (and are read back) in order. */
static int open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    cr_assert_not_null(d);
    int n = 0;
    while (readdir(d)) n++;
    closedir(d);
    return n;
}

Test(fault_write, positioned_io_errors_and_short_transfers)
{
    char dir[] = "/tmp/rsv_pio_XXXXXX", path[64];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/f", dir);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    cr_assert(fd >= 0);
    uint8_t msg[100], got[100];
    for (int i = 0; i < 100; i++) msg[i] = (uint8_t)(i * 7 + 1);

    pio_calls = 0;
    pio_fail = 1;
    cr_assert_eq(rsv__pwrite_all(fd, msg, 100, 5), -1, "a failing pwrite is an error");
    cr_assert_eq(errno, EIO);
    cr_assert_eq(pio_calls, 1, "pwrite called %ld times after an error", pio_calls);
    pio_fail = 0;

    pio_short = 7; /* 100 bytes in 15 transfers */
    pio_calls = 0;
    cr_assert_eq(rsv__pwrite_all(fd, msg, 100, 5), 0);
    cr_assert_eq(pio_calls, 15);
    pio_short = 0;
    memset(got, 0, sizeof got);
    cr_assert_eq(__real_pread(fd, got, 100, 5), 100);
    cr_assert(memcmp(got, msg, 100) == 0, "short pwrites: bytes out of place");

    pio_short = 3; /* 100 bytes in 34 transfers */
    pio_calls = 0;
    memset(got, 0, sizeof got);
    cr_assert_eq(rsv__pread_all(fd, got, 100, 5), 0);
    cr_assert_eq(pio_calls, 34);
    pio_short = 0;
    cr_assert(memcmp(got, msg, 100) == 0, "short preads: bytes out of place");

    pio_fail = 1;
    pio_calls = 0;
    cr_assert_eq(rsv__pread_all(fd, got, 100, 5), -1, "a failing pread is an error");
    cr_assert_eq(pio_calls, 1);
    pio_fail = 0;
    close(fd);

    /* the temporary's fchmod fails: -1, no temporary left, no descriptor leaked */
    int before = open_fds();
    char *tmp = NULL;
    fchmod_fail = 1;
    cr_assert_eq(rsv__tmp_create(path, &tmp), -1);
    fchmod_fail = 0;
    cr_assert_eq(errno, EPERM);
    cr_assert_eq(open_fds(), before, "a descriptor leaked");
    cr_assert_eq(entries(dir), 1, "a temporary was left next to %s", path);
    unlink(path);
    rmdir(dir);
}

/* The directory fsync after a rename, for each shape of path: no slash (the
 * working directory), a file in the root ("/" itself), a nested path; a
 * missing directory is -1, and so is a "directory" that is a regular file
 * (open with O_DIRECTORY: ENOTDIR; without it the file itself would be
 * opened and fsynced, and 0 returned). */
Test(fault_write, sync_dir_of_every_path_shape)
{
    cr_assert_eq(rsv__sync_dir("no-slash"), 0);
    cr_assert_eq(rsv__sync_dir("/in-the-root"), 0);
    cr_assert_eq(rsv__sync_dir("/tmp/nested"), 0);
    cr_assert_eq(rsv__sync_dir("/no-such-dir-rsv/x"), -1);
    char file[] = "/tmp/rsv-sync-dir-XXXXXX", path[64];
    int fd = mkstemp(file);
    cr_assert(fd >= 0);
    close(fd);
    snprintf(path, sizeof path, "%s/x", file);
    int rc = rsv__sync_dir(path);
    unlink(file);
    cr_assert_eq(rc, -1, "the parent %s is a regular file", file);
}

/* ---- guarded heap ------------------------------------------------------------ */

static rsv_record guarded_recs[4];

/* guarded mode on, and §12's records copied into guarded buffers */
static void guard_on(void)
{
    cr_assert_eq(ngblocks, 0);
    guarded = 1;
    for (int i = 0; i < 4; i++) {
        rsv_record r = RECS[i];
        uint8_t *k = malloc(r.key_len);
        memcpy(k, r.key, r.key_len);
        r.key = k;
        if (r.value.len) {
            uint8_t *v = malloc(r.value.len);
            memcpy(v, r.value.data, r.value.len);
            r.value.data = v;
        }
        guarded_recs[i] = r;
    }
    recs = guarded_recs;
}

static void guard_off(void)
{
    for (int i = 0; i < 4; i++) {
        free((void *)guarded_recs[i].key);
        if (guarded_recs[i].value.len) free((void *)guarded_recs[i].value.data);
    }
    recs = NULL;
    cr_assert_eq(ngblocks, 0, "%zu guarded blocks not freed", ngblocks);
    guarded = 0;
}

/* one operation, no failure injected, in guarded mode: the §12.3 file */
static void guarded_run(operation op, int path_op, const char *what)
{
    char dir[] = "/tmp/rsv_fault_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/out.kv", dir);
    guard_on();
    uint8_t *out = NULL;
    size_t n = 0;
    rsv_status st = op(dir, &out, &n);
    cr_assert_eq(st, RSV_OK, "%s: %s", what, rsv_status_name(st));
    if (path_op) {
        expect_path_12_3(path, what);
        cr_assert_eq(unlink(path), 0);
    } else {
        expect_file_12_3(out, n, what);
        free(out);
    }
    guard_off();
    cr_assert_eq(rmdir(dir), 0);
}

Test(guarded_heap, path_writer) { guarded_run(op_path_writer, 1, "path writer"); }
Test(guarded_heap, memory_writer) { guarded_run(op_memory_writer, 0, "in-memory writer"); }
Test(guarded_heap, merge) { guarded_run(op_merge, 0, "merge"); }
Test(guarded_heap, merge_path) { guarded_run(op_merge_path, 1, "merge to a path"); }

/* One record (key of L bytes, 1-byte value) through rsv_kv03_writer_add,
 * for L = 1…300: the data stream (KV03.md §3.2 with the default policy,
 * C0 = `0`, record 0: EG0(1) `010`, EG0(8L), 8L key bits, `1` EG0(1) `010`,
 * 8 value bits) takes 3 + eg0(8L) + 8L + 1 + 3 + 8 bits, so its byte length
 * runs through 4…305 (all but 7 and 68: eg0 grows by 2 there), 64, 128 and
 * 256 included, and at some L it fills the writer's growable buffer to its
 * last byte (with 64-byte first growth and doubling, the 64-byte stream). In guarded mode that buffer
 * ends right before a PROT_NONE page, so a copy of the data stream into the
 * file that reads one byte more faults. Each file reads back (open, scan,
 * cursor) as the record written. */
Test(guarded_heap, memory_writer_data_stream_of_every_length)
{
    int run = 0, pow2 = 0;
    for (size_t L = 1; L <= 300; L++) {
        guarded = 1;
        uint8_t *key = malloc(L), *val = malloc(1);
        cr_assert(key && val);
        for (size_t i = 0; i < L; i++) key[i] = (uint8_t)('a' + i % 26);
        val[0] = 0x5a;
        rsv_kv03_policy p = rsv_kv03_policy_default();
        rsv_kv03_writer w;
        uint8_t *out = NULL;
        size_t n = 0;
        cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
        rsv_value v = {RSV_VALUE_PRESENT, val, 1};
        cr_assert_eq(rsv_kv03_writer_add(&w, key, L, v), RSV_OK, "L = %zu", L);
        cr_assert_eq(rsv_kv03_writer_finish(&w, &out, &n), RSV_OK, "L = %zu", L);
        rsv_kv03_writer_free(&w);
        guarded = 0; /* the checks below allocate through libc */
        unsigned e = 1; /* eg0(8L) = 2 bitlen(8L + 1) - 1 */
        while ((UINT64_C(1) << e) <= 8 * L + 1) e++;
        uint64_t extent = 3 + (2 * e - 1) + 8 * L + 1 + 3 + 8;
        rsv_kv03_file f;
        cr_assert_eq(rsv_kv03_open(out, n, NULL, &f), RSV_OK, "L = %zu", L);
        cr_assert_eq(f.extent, extent, "L = %zu: extent %llu", L, (unsigned long long)f.extent);
        pow2 += (extent + 7) / 8 == 64 || (extent + 7) / 8 == 128 || (extent + 7) / 8 == 256;
        rsv_kv03_diag dg;
        cr_assert_eq(rsv_kv03_scan(&f, &dg), RSV_OK, "L = %zu", L);
        rsv_kv03_cursor c;
        rsv_kv03_entry en;
        int more = 0;
        cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
        cr_assert_eq(rsv_kv03_cursor_record(&c, &en, &more), RSV_OK);
        cr_assert(more);
        cr_assert_eq(en.key_len, L);
        cr_assert(memcmp(en.key, key, L) == 0, "L = %zu: key", L);
        cr_assert_eq(en.value.kind, RSV_VALUE_PRESENT);
        cr_assert_eq(en.value.len, 1);
        cr_assert_eq(en.value.data[0], 0x5a);
        cr_assert_eq(rsv_kv03_cursor_record(&c, &en, &more), RSV_OK);
        cr_assert(!more);
        rsv_kv03_cursor_free(&c);
        guarded = 1;
        free(out);
        free(key);
        free(val);
        guarded = 0;
        cr_assert_eq(ngblocks, 0, "L = %zu: %zu guarded blocks not freed", L, ngblocks);
        run++;
    }
    cr_assert_eq(run, 300);
    cr_assert_eq(pow2, 3);
}

/* N = nb·15 records (default policy, W = 15) for nb = 1…33 blocks, each a
 * distinct 2-byte big-endian key with a tombstone, written with every heap
 * allocation flush against a PROT_NONE page: the block-offset table grows by
 * doubling from 16 entries, so nb = 16 and 32 fill it exactly, and finish's
 * EF needs one entry more (r_nb, KV03.md §4) than the blocks: a store past
 * the table faults. Each file reads back (open, scan, cursor) as the
 * records written. */
Test(guarded_heap, memory_writer_block_counts_at_table_capacity)
{
    int run = 0;
    for (unsigned nb = 1; nb <= 33; nb++) {
        unsigned N = 15 * nb;
        guarded = 1;
        rsv_kv03_policy p = rsv_kv03_policy_default();
        rsv_kv03_writer w;
        uint8_t *out = NULL;
        size_t n = 0;
        cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
        for (unsigned i = 0; i < N; i++) {
            uint8_t key[2] = {(uint8_t)(i >> 8), (uint8_t)i};
            rsv_value v = {RSV_VALUE_TOMBSTONE, NULL, 0};
            cr_assert_eq(rsv_kv03_writer_add(&w, key, 2, v), RSV_OK, "nb = %u, record %u", nb, i);
        }
        cr_assert_eq(rsv_kv03_writer_finish(&w, &out, &n), RSV_OK, "nb = %u", nb);
        rsv_kv03_writer_free(&w);
        guarded = 0;
        rsv_kv03_file f;
        rsv_kv03_diag dg;
        cr_assert_eq(rsv_kv03_open(out, n, NULL, &f), RSV_OK, "nb = %u", nb);
        cr_assert_eq(rsv_kv03_scan(&f, &dg), RSV_OK, "nb = %u", nb);
        rsv_kv03_cursor c;
        rsv_kv03_entry en;
        int more = 0;
        unsigned i = 0;
        cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
        for (;; i++) {
            cr_assert_eq(rsv_kv03_cursor_next(&c, &en, &more), RSV_OK, "nb = %u, record %u", nb, i);
            if (!more) break;
            cr_assert_eq(en.key_len, 2);
            cr_assert(en.key[0] == (uint8_t)(i >> 8) && en.key[1] == (uint8_t)i, "nb = %u, record %u", nb, i);
            cr_assert_eq(en.value.kind, RSV_VALUE_TOMBSTONE);
        }
        cr_assert_eq(i, N, "nb = %u: %u records read", nb, i);
        rsv_kv03_cursor_free(&c);
        guarded = 1;
        free(out);
        guarded = 0;
        cr_assert_eq(ngblocks, 0, "nb = %u: %zu guarded blocks not freed", nb, ngblocks);
        run++;
    }
    cr_assert_eq(run, 33);
}

/* A stream (§10) of §12's records written from guarded keys and values and
 * read back: the same four records (the reader defines nothing here; a
 * wrong previous key in the writer shows as a different key read back, or
 * as RSV_ERR_UNSORTED). */
Test(guarded_heap, stream_writer_roundtrip)
{
    guard_on();
    rsv_writer out;
    rsv_writer_init(&out);
    rsv_stream_writer sw;
    cr_assert_eq(rsv_stream_writer_init(&sw, &out, NULL, 0), RSV_OK);
    for (int i = 0; i < 4; i++)
        cr_assert_eq(rsv_stream_writer_add(&sw, recs[i].key, recs[i].key_len, recs[i].value), RSV_OK);
    uint64_t E = rsv_stream_writer_extent(&sw);
    rsv_stream_writer_free(&sw);
    rsv_stream_reader sr;
    cr_assert_eq(rsv_stream_reader_init(&sr, rsv_view_make(rsv_writer_data(&out), 0, E), NULL, 0), RSV_OK);
    rsv_stream_record rec;
    int more = 0, i = 0;
    for (;; i++) {
        cr_assert_eq(rsv_stream_reader_next(&sr, &rec, &more), RSV_OK);
        if (!more) break;
        cr_assert_lt(i, 4);
        cr_assert_eq(rec.key_len, RECS[i].key_len, "record %d", i);
        cr_assert(memcmp(rec.key, RECS[i].key, rec.key_len) == 0, "record %d: key", i);
        cr_assert_eq(rec.value.kind, RECS[i].value.kind, "record %d", i);
        cr_assert_eq(rec.value.len, RECS[i].value.len, "record %d", i);
        if (rec.value.len) cr_assert(memcmp(rec.value.data, RECS[i].value.data, rec.value.len) == 0);
    }
    cr_assert_eq(i, 4);
    rsv_stream_reader_free(&sr);
    rsv_writer_free(&out);
    guard_off();
}

/* A writer's code list (codec/src/code_list.h) keeps its first code in the
 * rsv__codes struct itself (bits_in, ends_in, first_in; first_in is the
 * struct's last member) and moves the arrays to the heap when a second code
 * arrives. In guarded mode the struct (calloc) ends right before a PROT_NONE
 * page, so a move that reads one byte past an inline array faults. Two
 * records under two codes, for code lengths L = 1 and L = 300 (two 300-bit
 * codes need 76 dictionary bytes, more than bits_in's 72, so bits_in moves
 * too): A = L zeros, B = a one then L - 1 zeros (prefix-free, A < B), keys
 * "a" and "b", tombstones. Read back (open, scan, cursor), the records come
 * back with their keys and code indices 0 and 1 (KV03.md §6: the dictionary
 * in code order), and the dictionary holds 2 codes of 2L bits. */
Test(guarded_heap, memory_writer_second_code_moves_the_inline_code_list)
{
    static const uint64_t lens[] = {1, 300};
    int run = 0;
    for (size_t t = 0; t < sizeof lens / sizeof *lens; t++) {
        uint64_t L = lens[t];
        uint8_t a[64] = {0}, b[64] = {0x80};
        guarded = 1;
        rsv_kv03_policy p = rsv_kv03_policy_default();
        rsv_kv03_writer w;
        uint8_t *out = NULL;
        size_t n = 0;
        rsv_value v = {RSV_VALUE_TOMBSTONE, NULL, 0};
        cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
        cr_assert_eq(rsv_kv03_writer_add_coded(&w, a, L, "a", 1, v), RSV_OK, "L = %llu", (unsigned long long)L);
        cr_assert_eq(rsv_kv03_writer_add_coded(&w, b, L, "b", 1, v), RSV_OK, "L = %llu", (unsigned long long)L);
        cr_assert_eq(rsv_kv03_writer_finish(&w, &out, &n), RSV_OK, "L = %llu", (unsigned long long)L);
        rsv_kv03_writer_free(&w);
        guarded = 0;
        rsv_kv03_file f;
        rsv_kv03_diag dg;
        cr_assert_eq(rsv_kv03_open(out, n, NULL, &f), RSV_OK, "L = %llu", (unsigned long long)L);
        cr_assert_eq(f.m, 2);
        cr_assert_eq(f.dict_bits, 2 * L);
        cr_assert_eq(rsv_kv03_scan(&f, &dg), RSV_OK, "L = %llu", (unsigned long long)L);
        rsv_kv03_cursor c;
        rsv_kv03_entry en;
        int more = 0;
        cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
        for (uint64_t i = 0; i < 2; i++) {
            cr_assert_eq(rsv_kv03_cursor_next(&c, &en, &more), RSV_OK);
            cr_assert(more);
            cr_assert(en.key_len == 1 && en.key[0] == "ab"[i], "L = %llu, record %llu: key",
                      (unsigned long long)L, (unsigned long long)i);
            cr_assert_eq(en.code, i, "L = %llu, record %llu: code", (unsigned long long)L, (unsigned long long)i);
            cr_assert_eq(en.value.kind, RSV_VALUE_TOMBSTONE);
        }
        cr_assert_eq(rsv_kv03_cursor_next(&c, &en, &more), RSV_OK);
        cr_assert(!more);
        rsv_kv03_cursor_free(&c);
        guarded = 1;
        free(out);
        guarded = 0;
        cr_assert_eq(ngblocks, 0, "L = %llu: %zu guarded blocks not freed", (unsigned long long)L, ngblocks);
        run++;
    }
    cr_assert_eq(run, 2);
}

/* The writer's code list grows its heap arrays again past 16 codes
 * (code_list.c regrow: inline -> heap at the 2nd code, heap -> realloc at
 * the 17th and 33rd). 40 codes of 8 bits (bytes 0x00..0x27, prefix-free),
 * key i under code i, written on the guarded heap: every block must be
 * freed (a regrow that copies instead of resizing leaks the old array) and
 * the file reads back. */
Test(guarded_heap, memory_writer_code_list_regrows_on_the_heap)
{
    enum { M = 40 };
    guarded = 1;
    rsv_kv03_policy p = rsv_kv03_policy_default();
    rsv_kv03_writer w;
    uint8_t *out = NULL;
    size_t n = 0;
    rsv_value v = {RSV_VALUE_TOMBSTONE, NULL, 0};
    cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
    for (unsigned i = 0; i < M; i++) {
        uint8_t code[1] = {(uint8_t)i}, key[1] = {(uint8_t)('A' + i)};
        cr_assert_eq(rsv_kv03_writer_add_coded(&w, code, 8, (const char *)key, 1, v), RSV_OK, "code %u", i);
    }
    cr_assert_eq(rsv_kv03_writer_finish(&w, &out, &n), RSV_OK);
    rsv_kv03_writer_free(&w);
    guarded = 0;
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(out, n, NULL, &f), RSV_OK);
    cr_assert_eq(f.m, M);
    cr_assert_eq(f.dict_bits, 8 * M);
    rsv_kv03_cursor c;
    rsv_kv03_entry en;
    int more = 0;
    cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
    for (unsigned i = 0; i < M; i++) {
        cr_assert_eq(rsv_kv03_cursor_next(&c, &en, &more), RSV_OK);
        cr_assert(more);
        cr_assert(en.key_len == 1 && en.key[0] == 'A' + i, "record %u: key", i);
        cr_assert_eq(en.code, i, "record %u: code", i);
    }
    cr_assert_eq(rsv_kv03_cursor_next(&c, &en, &more), RSV_OK);
    cr_assert(!more);
    rsv_kv03_cursor_free(&c);
    guarded = 1;
    free(out);
    guarded = 0;
    cr_assert_eq(ngblocks, 0, "%zu guarded blocks not freed", ngblocks);
}

/* 40 codes of 64 bits (320 bytes of code bits: past the 72 inline bytes,
 * so the bits array moves to the heap and regrows) with each allocation
 * failing in turn (init, the code list's inline-to-heap moves and regrowths
 * of its bits, ends and first-record arrays, the key and data buffers):
 * every call returns OK until
 * the failed one, which is RSV_ERR_NOMEM, and freeing the writer then is
 * clean. Ends at the first k with no failure (all 40 added). */
Test(fault_alloc, memory_writer_code_list_growth_fails_in_turn)
{
    enum { M = 40 };
    rsv_kv03_policy p = rsv_kv03_policy_default();
    rsv_value v = {RSV_VALUE_TOMBSTONE, NULL, 0};
    long k;
    for (k = 0; k < 10000; k++) {
        rsv_kv03_writer w;
        arm_alloc(k);
        rsv_status st = rsv_kv03_writer_init(&w, &p, NULL, 0);
        unsigned i = 0;
        for (; st == RSV_OK && i < M; i++) {
            uint8_t code[8] = {(uint8_t)i}, key[1] = {(uint8_t)('A' + i)}; /* 64 bits each */
            st = rsv_kv03_writer_add_coded(&w, code, 64, (const char *)key, 1, v);
        }
        int failed = alloc_failed;
        disarm_alloc();
        if (st == RSV_OK || i > 0) rsv_kv03_writer_free(&w);
        if (!failed) {
            cr_assert_eq(st, RSV_OK, "k %ld: %s with no failed allocation", k, rsv_status_name(st));
            break;
        }
        cr_assert_eq(st, RSV_ERR_NOMEM, "k %ld: allocation failed, status %s (record %u)", k, rsv_status_name(st), i);
    }
    cr_assert(k > 0 && k < 10000, "k %ld", k);
}

/* The merge's code union (codec/src/merge_codes.c) sorts its entries on the
 * stack for up to 8 input codes and in one heap array of 2t entries (the
 * entries, then the sort's scratch) beyond. A file of 9 records under 9
 * codes (`0000` ... `1000`, key 'a' + j and a 1-byte value j under code j),
 * merged with itself in guarded mode: t = 18, the array ends right before a
 * PROT_NONE page, so a sort pass that reads past the scratch faults. The
 * output (read back: open, scan, cursor) holds the 9 records once each, in
 * code order, with dictionary indices 0..8 (KV03.md §6, §8). */
Test(guarded_heap, merge_of_more_codes_than_the_stack_sort_holds)
{
    uint8_t codes[9], keys[9], vals[9];
    rsv_record r[9];
    for (unsigned j = 0; j < 9; j++) {
        codes[j] = (uint8_t)(j << 4), keys[j] = (uint8_t)('a' + j), vals[j] = (uint8_t)j;
        r[j] = (rsv_record){keys + j, 1, {RSV_VALUE_PRESENT, vals + j, 1}, codes + j, 4};
    }
    rsv_kv03_policy p = rsv_kv03_policy_default();
    uint8_t *file = NULL, *out = NULL;
    size_t len = 0, n = 0;
    cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, r, 9, &file, &len), RSV_OK);
    rsv_kv03_file a, b;
    cr_assert_eq(rsv_kv03_open(file, len, NULL, &a), RSV_OK);
    cr_assert_eq(rsv_kv03_open(file, len, NULL, &b), RSV_OK);
    cr_assert_eq(a.m, 9);
    const rsv_kv03_file *in[2] = {&a, &b};
    guarded = 1;
    rsv_status st = rsv_merge_files(in, 2, 0, &out, &n);
    guarded = 0;
    cr_assert_eq(st, RSV_OK, "%s", rsv_status_name(st));
    rsv_kv03_file f;
    rsv_kv03_diag dg;
    cr_assert_eq(rsv_kv03_open(out, n, NULL, &f), RSV_OK);
    cr_assert_eq(f.m, 9);
    cr_assert_eq(f.N, 9);
    cr_assert_eq(rsv_kv03_scan(&f, &dg), RSV_OK);
    rsv_kv03_cursor c;
    rsv_kv03_entry en;
    int more = 0;
    cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
    for (unsigned j = 0; j < 9; j++) {
        cr_assert_eq(rsv_kv03_cursor_record(&c, &en, &more), RSV_OK);
        cr_assert(more);
        cr_assert(en.key_len == 1 && en.key[0] == 'a' + j, "record %u: key", j);
        cr_assert_eq(en.code, j, "record %u: code", j);
        cr_assert(en.value.kind == RSV_VALUE_PRESENT && en.value.len == 1 && en.value.data[0] == j, "record %u", j);
    }
    cr_assert_eq(rsv_kv03_cursor_record(&c, &en, &more), RSV_OK);
    cr_assert(!more);
    rsv_kv03_cursor_free(&c);
    rsv_kv03_close(&a);
    rsv_kv03_close(&b);
    guarded = 1;
    free(out);
    guarded = 0;
    cr_assert_eq(ngblocks, 0, "%zu guarded blocks not freed", ngblocks);
    free(file);
}

/* The same 9-code file merged with one whose 9 codes extend its codes
 * (`jjjj0` against `jjjj`): the union is not prefix-free, so the merge fails
 * with RSV_ERR_MERGE_MISMATCH (KV03.md §11.2) after sorting its 18 entries in
 * the heap array, which it must free on that path too (wrapper count); and
 * an allocation sweep of the 9-code self-merge, which must free that array
 * when a later allocation fails. */
Test(fault_alloc, merge_mismatch_of_many_codes_frees_its_sort_array)
{
    uint8_t codes[9], keys[9];
    rsv_record r[9], r5[9];
    for (unsigned j = 0; j < 9; j++) {
        codes[j] = (uint8_t)(j << 4), keys[j] = (uint8_t)('a' + j);
        r[j] = (rsv_record){keys + j, 1, {RSV_VALUE_TOMBSTONE, NULL, 0}, codes + j, 4};
        r5[j] = r[j];
        r5[j].code_bits = 5; /* bit 4 of j << 4 is 0: the code jjjj0 */
    }
    rsv_kv03_policy p = rsv_kv03_policy_default();
    uint8_t *f4 = NULL, *f5 = NULL, *out = NULL;
    size_t n4 = 0, n5 = 0, n = 0;
    cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, r, 9, &f4, &n4), RSV_OK);
    cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, r5, 9, &f5, &n5), RSV_OK);
    rsv_kv03_file a, b;
    cr_assert_eq(rsv_kv03_open(f4, n4, NULL, &a), RSV_OK);
    cr_assert_eq(rsv_kv03_open(f5, n5, NULL, &b), RSV_OK);
    cr_assert(a.m == 9 && b.m == 9);
    const rsv_kv03_file *in[2] = {&a, &b};
    long live = live_blocks;
    rsv_status st = rsv_merge_files(in, 2, 0, &out, &n);
    cr_assert_eq(st, RSV_ERR_MERGE_MISMATCH, "%s", rsv_status_name(st));
    cr_assert_null(out);
    cr_assert_eq(live_blocks, live, "%ld blocks not freed", live_blocks - live);
    /* and the 9-code file merged with itself, its k-th allocation failing
     * (the union's heap array exists before the merge's code table does) */
    const rsv_kv03_file *self[2] = {&a, &a};
    for (long k = 0;; k++) {
        cr_assert_lt(k, 10000);
        arm_alloc(k);
        st = rsv_merge_files(self, 2, 0, &out, &n);
        int failed = alloc_failed;
        disarm_alloc();
        if (st == RSV_OK) free(out);
        cr_assert_eq(live_blocks, live, "allocation %ld: %ld blocks not freed", k, live_blocks - live);
        if (!failed) {
            cr_assert_eq(st, RSV_OK, "%s", rsv_status_name(st));
            break;
        }
        if (st != RSV_OK) cr_assert_eq(st, RSV_ERR_NOMEM, "allocation %ld: %s", k, rsv_status_name(st));
    }
    rsv_kv03_close(&a);
    rsv_kv03_close(&b);
    free(f4);
    free(f5);
}

/* The record batch (reservoir/record_batch.h) makes no heap allocation of
 * its own: on a warm cursor / stream reader (reset keeps the buffers), with
 * every allocation armed to fail, batches of 1..5 records decode §12's four
 * records and no allocation was attempted. On a cold object the one
 * allocation it may make (the previous-key buffer) failing gives
 * RSV_ERR_NOMEM with no record decoded. */
static size_t batch_all(rsv_kv03_cursor *c, rsv_stream_reader *sr, size_t n)
{
    size_t off[5], kl[5], vl[5], done, total = 0;
    uint8_t kind[5], karena[64], varena[64];
    const uint8_t *val[5];
    rsv_record_batch b = {off, kl, kind, vl, val, NULL, NULL, karena, sizeof karena, varena, sizeof varena, 0, 0, 0, 0};
    for (;;) {
        rsv_status st = c ? rsv_kv03_cursor_batch(c, &b, n, &done) : rsv_stream_reader_batch(sr, &b, n, &done);
        cr_assert_eq(st, RSV_OK, "%s", rsv_status_name(st));
        for (size_t k = 0; k < done; k++) {
            const rsv_record *w = &RECS[total + k];
            cr_assert(kl[k] == w->key_len && !memcmp(karena + off[k], w->key, kl[k]), "record %zu", total + k);
            cr_assert(vl[k] == w->value.len && (!vl[k] || !memcmp(val[k], w->value.data, vl[k])));
        }
        total += done;
        if (b.stop == RSV_BATCH_STOP_END) return total;
        cr_assert_eq(b.stop, RSV_BATCH_STOP_COUNT);
    }
}

Test(fault_alloc, record_batch_allocates_nothing_when_warm)
{
    uint8_t *file;
    size_t len;
    rsv_kv03_policy p = rsv_kv03_policy_default();
    cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, RECS, 4, &file, &len), RSV_OK);
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(file, len, NULL, &f), RSV_OK);
    rsv_writer out;
    rsv_writer_init(&out);
    rsv_stream_writer sw;
    cr_assert_eq(rsv_stream_writer_init(&sw, &out, NULL, 0), RSV_OK);
    for (int i = 0; i < 4; i++) cr_assert_eq(rsv_stream_writer_add(&sw, RECS[i].key, RECS[i].key_len, RECS[i].value), RSV_OK);
    rsv_view sv = rsv_view_make(rsv_writer_data(&out), 0, rsv_stream_writer_extent(&sw));
    rsv_kv03_cursor c;
    rsv_stream_reader sr;
    size_t off[1], kl[1], vl[1], done = 9;
    uint8_t kind[1], karena[8];
    rsv_record_batch one = {off, kl, kind, vl, NULL, NULL, NULL, karena, sizeof karena, NULL, 0, 0, 0, 0, 0};
    /* cold: the previous-key buffer cannot be had */
    cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
    cr_assert_eq(rsv_stream_reader_init(&sr, sv, NULL, 0), RSV_OK);
    arm_alloc(0);
    cr_assert_eq(rsv_kv03_cursor_batch(&c, &one, 1, &done), RSV_ERR_NOMEM);
    cr_assert_eq(done, 0);
    arm_alloc(0);
    cr_assert_eq(rsv_stream_reader_batch(&sr, &one, 1, &done), RSV_ERR_NOMEM);
    cr_assert_eq(done, 0);
    disarm_alloc();
    rsv_kv03_cursor_free(&c);
    rsv_stream_reader_free(&sr);
    /* warm */
    cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
    cr_assert_eq(rsv_stream_reader_init(&sr, sv, NULL, 0), RSV_OK);
    cr_assert_eq(batch_all(&c, NULL, 4), 4);
    cr_assert_eq(batch_all(NULL, &sr, 4), 4);
    for (size_t n = 1; n <= 5; n++) {
        cr_assert_eq(rsv_kv03_cursor_reset(&c, &f), RSV_OK);
        cr_assert_eq(rsv_stream_reader_reset(&sr, sv, NULL, 0), RSV_OK);
        arm_alloc(0);
        cr_assert_eq(batch_all(&c, NULL, n), 4);
        cr_assert_eq(batch_all(NULL, &sr, n), 4);
        cr_assert_eq(alloc_count, 0, "n = %zu: %ld allocations", n, alloc_count);
        cr_assert(!alloc_failed);
        disarm_alloc();
    }
    rsv_kv03_cursor_free(&c);
    rsv_stream_reader_free(&sr);
    rsv_stream_writer_free(&sw);
    rsv_writer_free(&out);
    free(file);
}

/* The in-memory writer's buffers grow geometrically (kv03.h stats: the data
 * buffer, the block-offset table; the previous key's room likewise): 2000
 * records of 8-byte keys cost O(log N) allocations, not one per record.
 * Counted by the wrappers (armed at an index never reached). */
Test(fault_alloc, memory_writer_allocations_grow_logarithmically)
{
    enum { N = 2000 };
    rsv_kv03_policy p = rsv_kv03_policy_default();
    rsv_kv03_writer w;
    arm_alloc(LONG_MAX);
    cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
    for (unsigned i = 0; i < N; i++) {
        uint8_t key[8] = {0, 0, 0, 0, 0, 0, (uint8_t)(i >> 8), (uint8_t)i};
        cr_assert_eq(rsv_kv03_writer_add(&w, key, 8, rsv_value_present("v", 1)), RSV_OK, "record %u", i);
    }
    long n = alloc_count;
    cr_assert(!alloc_failed);
    disarm_alloc();
    rsv_kv03_writer_free(&w);
    cr_assert_leq(n, 64, "%ld allocations for %d records", n, (int)N);
}
