/* The operations of the allocation sweeps and guarded runs (fault.h), the
 * files they must produce, and the sweep itself. */
#define _DEFAULT_SOURCE /* mkdtemp */
#define _POSIX_C_SOURCE 200809L
#include "fault.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int entries(const char *dir)
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
int want_12_5;

void expect_file_12_3(const uint8_t *got, size_t n, const char *what)
{
    if (want_12_5) {
        cr_assert_eq(n, FILE_12_5_SIZE, "%s: %zu bytes, want the %d of KV03.md §12.5", what, n, FILE_12_5_SIZE);
        cr_assert(memcmp(got, FILE_12_5, FILE_12_5_SIZE) == 0, "%s: not the §12.5 file", what);
        return;
    }
    cr_assert_eq(n, 360, "%s: %zu bytes, want the 360 of KV03.md §12.3", what, n);
    cr_assert(memcmp(got, FILE_12_3, 360) == 0, "%s: not the §12.3 file", what);
}

void expect_path_12_3(const char *path, const char *what)
{
    uint8_t buf[400];
    int fd = open(path, O_RDONLY);
    cr_assert(fd >= 0, "%s: %s missing", what, path);
    ssize_t n = read(fd, buf, sizeof buf);
    close(fd);
    cr_assert(n >= 0);
    expect_file_12_3(buf, (size_t)n, what);
}

int exists(const char *path) { return access(path, F_OK) == 0; }

/* Descriptors 0-2 as an operation found them (each open or not, and which
 * file): a failure path that takes a descriptor it was never given (a
 * temporary "created" as 0) writes into, and then closes, the caller's. */
typedef struct std_fds {
    int open[3];
    dev_t dev[3];
    ino_t ino[3];
} std_fds;

static std_fds std_fds_now(void)
{
    std_fds s = {{0}};
    for (int i = 0; i < 3; i++) {
        struct stat sb;
        s.open[i] = fstat(i, &sb) == 0;
        s.dev[i] = s.open[i] ? sb.st_dev : 0;
        s.ino[i] = s.open[i] ? sb.st_ino : 0;
    }
    return s;
}

static void expect_std_fds(const std_fds *was, const char *what, long k)
{
    std_fds now = std_fds_now();
    for (int i = 0; i < 3; i++)
        cr_assert(now.open[i] == was->open[i] && now.dev[i] == was->dev[i] && now.ino[i] == was->ino[i],
                  "%s: allocation %ld: descriptor %d (the caller's) was closed or replaced", what, k, i);
}

/* The sweep itself. `path_op`: the operation writes dir/out.kv. */
void sweep(operation op, int path_op, const char *what)
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
        long live = live_blocks, zeros = zero_allocs, ebadf = close_ebadf;
        std_fds fds = std_fds_now();
        arm_alloc(k);
        rsv_status st = op(dir, &out, &n);
        int failed = alloc_failed;
        disarm_alloc();
        expect_std_fds(&fds, what, k);
        cr_assert_eq(zero_allocs, zeros, "%s: allocation %ld: a request for zero bytes (fault.h)", what, k);
        cr_assert_eq(close_ebadf, ebadf, "%s: allocation %ld: a descriptor closed twice (fault.h)", what, k);
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

void encode_open(const rsv_record *rec, size_t n, uint8_t **file, size_t *len, rsv_kv03_file *f)
{
    rsv_kv03_policy p = rsv_kv03_policy_default();
    cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, rec, n, file, len), RSV_OK);
    cr_assert_eq(rsv_kv03_open(*file, *len, NULL, f), RSV_OK);
}

void init_default_writer(rsv_kv03_writer *w)
{
    rsv_kv03_policy p = rsv_kv03_policy_default();
    cr_assert_eq(rsv_kv03_writer_init(w, &p, NULL, 0), RSV_OK);
    rsv_kv03_writer_stats s;
    rsv_kv03_writer_get_stats(w, &s);
    cr_assert_eq(s.buffer_capacity, 512, "first buffer of %llu bytes", (unsigned long long)s.buffer_capacity);
}

/* The records the operations add: §12's, or copies of them in guarded
 * buffers (guarded_heap tests). */
const rsv_record *recs;

rsv_status add_12(rsv_kv03_writer *w)
{
    const rsv_record *r = recs ? recs : RECS;
    for (int i = 0; i < 4; i++) {
        rsv_status st = rsv_kv03_writer_add(w, r[i].key, r[i].key_len, r[i].value);
        if (st) return st;
    }
    return RSV_OK;
}

void finish_12_3_and_free(rsv_kv03_writer *w, long live, const char *what)
{
    uint8_t *out = NULL;
    size_t n = 0;
    cr_assert_eq(add_12(w), RSV_OK, "%s: adding the records", what);
    cr_assert_eq(rsv_kv03_writer_finish(w, &out, &n), RSV_OK, "%s: finish", what);
    expect_file_12_3(out, n, what);
    free(out);
    rsv_kv03_writer_free(w);
    cr_assert_eq(live_blocks, live, "%s: %ld blocks not freed", what, live_blocks - live);
}

/* ---- operations ------------------------------------------------------------ */

rsv_status op_path_writer(const char *dir, uint8_t **out, size_t *n)
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

rsv_status op_memory_writer(const char *dir, uint8_t **out, size_t *n)
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
rsv_status op_merge(const char *dir, uint8_t **out, size_t *n)
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

/* the §12.3 file merged with itself three times: n >= 3 merges through the
 * tree of losers (merge.c), whose slots end the heads' block; the same four
 * records, hence the §12.3 file again */
rsv_status op_merge3(const char *dir, uint8_t **out, size_t *n)
{
    (void)dir;
    rsv_kv03_file f[3];
    const rsv_kv03_file *in[3];
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(rsv_kv03_open(FILE_12_3, 360, NULL, &f[i]), RSV_OK);
        in[i] = &f[i];
    }
    rsv_status st = rsv_merge_files(in, 3, 0, out, n);
    for (int i = 0; i < 3; i++) rsv_kv03_close(&f[i]);
    return st;
}

/* the §12.5 multi-code file merged with itself: the same six records under
 * the same three codes (the dictionary union is the file's own, §11.2 ties
 * go to the newer input, equal here), written with the same policy: the
 * §12.5 file again (§11.1: the file is a pure function of the records, their
 * codes and the policy). The merge's code table and union, and the writer's
 * code list, allocate here. */
rsv_status op_merge_v2(const char *dir, uint8_t **out, size_t *n)
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
rsv_status op_merge_path(const char *dir, uint8_t **out, size_t *n)
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
rsv_status op_encode(const char *dir, uint8_t **out, size_t *n)
{
    (void)dir;
    rsv_kv03_policy p = rsv_kv03_policy_default();
    return rsv_kv03_encode(&p, NULL, 0, recs ? recs : RECS, 4, out, n);
}

