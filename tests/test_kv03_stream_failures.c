/* Streaming KV03 file output (issue 3), failure paths: unsorted input, free
 * without commit, a missing directory, EFBIG from RLIMIT_FSIZE at init, during
 * a flush and during commit (in a forked child with SIGXFSZ ignored), and a
 * merge whose input is corrupt deep inside. Each leaves no temporary (the
 * directory is listed, before the writer is freed where possible) and never
 * creates or modifies the destination; a success replaces it atomically.
 * Merge inputs are mapped read-only and stay unchanged. */
#define _DEFAULT_SOURCE /* mkdtemp */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "reservoir/kv03.h"
#include "reservoir/merge.h"
#include "../codec/src/merge_state.h" /* the merge's private state (its output writer) */

#include "kv03_stream_util.h"
#include "kv03_vectors.h"

/* ---- failures leave nothing behind -------------------------------------- */

Test(kv03_stream_failures, unsorted_add_removes_temporary_keeps_destination)
{
    char dir[] = "/tmp/rsv_stream_XXXXXX";
    make_dir(dir);
    char path[96];
    snprintf(path, sizeof path, "%s/keep.kv", dir);
    put_file(path, "previous content");
    rsv_kv03_policy p = rsv_kv03_policy_default();
    recset s = gen(5, 3000, 50, 1);
    rsv_kv03_writer w;
    cr_assert_eq(rsv_kv03_writer_init_path(&w, &p, NULL, 0, path), RSV_OK);
    for (size_t i = 0; i < s.n; i++)
        cr_assert_eq(rsv_kv03_writer_add(&w, s.r[i].key, s.r[i].key_len, s.r[i].value), RSV_OK);
    rsv_kv03_writer_stats st;
    rsv_kv03_writer_get_stats(&w, &st);
    cr_assert_gt(st.flushed_bytes, 0); /* the temporary holds data now */
    int tmps;
    cr_assert_eq(dir_entries(dir, &tmps), 2);
    cr_assert_eq(tmps, 1);
    /* the first key again: not strictly increasing */
    cr_assert_eq(rsv_kv03_writer_add(&w, s.r[0].key, s.r[0].key_len, s.r[0].value), RSV_ERR_UNSORTED);
    cr_assert_eq(dir_entries(dir, &tmps), 1); /* gone at once, before free */
    cr_assert_eq(tmps, 0);
    cr_assert_eq(rsv_kv03_writer_commit(&w), RSV_ERR_POISONED);
    cr_assert_eq(rsv_kv03_writer_finish_path(&w, path), RSV_ERR_POISONED);
    rsv_kv03_writer_free(&w);
    expect_content(path, "previous content");
    cr_assert_eq(dir_entries(dir, NULL), 1);
    remove(path);
    cr_assert_eq(rmdir(dir), 0);
    recset_free(&s);
}

Test(kv03_stream_failures, free_without_commit_removes_temporary)
{
    char dir[] = "/tmp/rsv_stream_XXXXXX";
    make_dir(dir);
    char path[96];
    snprintf(path, sizeof path, "%s/never.kv", dir);
    rsv_kv03_policy p = rsv_kv03_policy_default();
    rsv_kv03_writer w;
    cr_assert_eq(rsv_kv03_writer_init_path(&w, &p, NULL, 0, path), RSV_OK);
    int tmps;
    cr_assert_eq(dir_entries(dir, &tmps), 1); /* the temporary exists from init on */
    cr_assert_eq(tmps, 1);
    for (int i = 0; i < 4; i++)
        cr_assert_eq(rsv_kv03_writer_add(&w, RECS[i].key, RECS[i].key_len, RECS[i].value), RSV_OK);
    rsv_kv03_writer_free(&w);
    cr_assert_eq(dir_entries(dir, NULL), 0);
    rsv_kv03_writer_free(&w); /* idempotent */
    cr_assert_eq(rmdir(dir), 0);
}

Test(kv03_stream_failures, missing_directory)
{
    char dir[] = "/tmp/rsv_stream_XXXXXX";
    make_dir(dir);
    char path[128];
    snprintf(path, sizeof path, "%s/missing/out.kv", dir);
    rsv_kv03_policy p = rsv_kv03_policy_default();
    rsv_kv03_writer w;
    cr_assert_eq(rsv_kv03_writer_init_path(&w, &p, NULL, 0, path), RSV_ERR_IO);
    cr_assert_eq(rsv_kv03_writer_add(&w, "a", 1, rsv_value_tombstone()), RSV_ERR_POISONED);
    cr_assert_eq(rsv_kv03_writer_diag(&w).status, RSV_ERR_IO);
    rsv_kv03_writer_free(&w);
    /* the merge: same failure at init */
    uint8_t *a, *b;
    size_t na, nb;
    cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, RECS, 2, &a, &na), RSV_OK);
    cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, RECS + 2, 2, &b, &nb), RSV_OK);
    rsv_kv03_file fa, fb;
    cr_assert_eq(rsv_kv03_open(a, na, &p, &fa), RSV_OK);
    cr_assert_eq(rsv_kv03_open(b, nb, &p, &fb), RSV_OK);
    const rsv_kv03_file *in[2] = {&fa, &fb};
    cr_assert_eq(rsv_merge_files_path(in, 2, 0, path), RSV_ERR_IO);
    rsv_merge m;
    cr_assert_eq(rsv_merge_init_path(&m, in, 2, 0, NULL), RSV_ERR_INVALID_ARGUMENT);
    rsv_merge_free(&m);
    /* the output could not be created: the failure is the output's (input
     * index n), before any record or bit of it */
    cr_assert_eq(rsv_merge_init_path(&m, in, 2, 0, path), RSV_ERR_IO);
    rsv_kv03_diag d = rsv_merge_diag(&m);
    cr_assert_eq(d.status, RSV_ERR_IO);
    cr_assert_eq(d.record, 0);
    cr_assert_eq(d.bit, 0);
    cr_assert_eq(rsv_merge_failed_input(&m), 2);
    rsv_merge_free(&m);
    cr_assert_eq(dir_entries(dir, NULL), 0);
    cr_assert_eq(rmdir(dir), 0);
    free(a);
    free(b);
}

/* Child process: RLIMIT_FSIZE = limit, SIGXFSZ ignored, so writes past the
 * limit fail with EFBIG. Exit codes: 0 = RSV_ERR_IO where expected and no
 * temporary left; 2 = wrong status; 3 = temporary left; 4 = setup; 5 =
 * errno is not the failing write's EFBIG (docs/kv03.md: "Every RSV_ERR_IO
 * keeps the failing call's errno"; kv03.h, rsv_kv03_writer_temp_path:
 * "errno kept for RSV_ERR_IO"). The errno check found the seed-101 survivor
 * kv03_envelope_c.sdl.4682715b: with the commit's check of the tail append
 * deleted, the commit went on to re-read the short temporary for the body
 * CRC and failed there with EIO instead. */
static int efbig_child(const char *dir, const char *path, rlim_t limit, const recset *s, int at_init)
{
    struct rlimit rl = {limit, limit};
    if (setrlimit(RLIMIT_FSIZE, &rl) != 0) return 4;
    signal(SIGXFSZ, SIG_IGN);
    rsv_kv03_policy p = rsv_kv03_policy_default();
    rsv_kv03_writer w;
    errno = 0;
    rsv_status st = rsv_kv03_writer_init_path(&w, &p, NULL, 0, path);
    int err = errno;
    if (at_init) {
        rsv_kv03_writer_free(&w);
        if (st != RSV_ERR_IO) return 2;
        if (err != EFBIG) return 5;
    } else {
        if (st) return 4;
        for (size_t i = 0; !st && i < s->n; i++)
            st = rsv_kv03_writer_add(&w, s->r[i].key, s->r[i].key_len, s->r[i].value);
        if (!st) st = rsv_kv03_writer_commit(&w);
        err = errno; /* of the call that failed: nothing has run since */
        rsv_kv03_diag d = rsv_kv03_writer_diag(&w);
        int tmps;
        dir_entries(dir, &tmps); /* before free: the failure itself must clean up */
        rsv_kv03_writer_free(&w);
        if (st != RSV_ERR_IO || d.status != RSV_ERR_IO) return 2;
        if (tmps) return 3;
        if (err != EFBIG) return 5;
    }
    return 0;
}

static void efbig_case(rlim_t limit, const recset *s, int at_init)
{
    char dir[] = "/tmp/rsv_stream_XXXXXX";
    make_dir(dir);
    char path[96];
    snprintf(path, sizeof path, "%s/dest.kv", dir);
    put_file(path, "old bytes");
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) _exit(efbig_child(dir, path, limit, s, at_init));
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status), "child died (signal %d)", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    cr_assert_eq(WEXITSTATUS(status), 0, "limit %llu: child exit %d", (unsigned long long)limit,
                 WEXITSTATUS(status));
    expect_content(path, "old bytes");
    int tmps;
    cr_assert_eq(dir_entries(dir, &tmps), 1);
    cr_assert_eq(tmps, 0);
    remove(path);
    cr_assert_eq(rmdir(dir), 0);
}

Test(kv03_stream_failures, efbig_at_every_stage, .timeout = 600)
{
    recset s = gen(77, 3000, 50, 1);
    rsv_kv03_policy p = rsv_kv03_policy_default();
    uint8_t *mem;
    size_t nmem;
    cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, s.r, s.n, &mem, &nmem), RSV_OK);
    cr_assert_gt(nmem, 3 * RSV_KV03_FLUSH_BYTES);
    free(mem);
    efbig_case(100, &s, 1);                         /* the 288-byte reservation at init */
    efbig_case(RSV_KV03_FLUSH_BYTES + 1000, &s, 0); /* a data flush during add */
    efbig_case((rlim_t)nmem - 1, &s, 0);            /* the tail during commit */
    recset_free(&s);
}

/* A pre-existing destination is replaced by rename: a descriptor opened on
 * the old file still reads the old bytes, the path now names a new inode. */
Test(kv03_stream_failures, success_replaces_atomically)
{
    char dir[] = "/tmp/rsv_stream_XXXXXX";
    make_dir(dir);
    char path[96];
    snprintf(path, sizeof path, "%s/dest.kv", dir);
    put_file(path, "old bytes");
    int old = open(path, O_RDONLY);
    cr_assert_geq(old, 0);
    struct stat before, after;
    cr_assert_eq(fstat(old, &before), 0);
    recset s = {(rsv_record *)RECS, NULL, 4};
    rsv_kv03_policy p = rsv_kv03_policy_default();
    cr_assert_eq(write_path(&p, NULL, 0, &s, path, 0, NULL), RSV_OK);
    expect_same_file(path, FILE_12_3, 360);
    cr_assert_eq(stat(path, &after), 0);
    cr_assert_neq(before.st_ino, after.st_ino);
    char buf[16] = {0};
    cr_assert_eq(pread(old, buf, sizeof buf, 0), 9);
    cr_assert_str_eq(buf, "old bytes");
    close(old);
    cr_assert_eq(dir_entries(dir, NULL), 1);
    remove(path);
    cr_assert_eq(rmdir(dir), 0);
}

static int mapping_perms(const void *addr, char perms[5])
{
    FILE *m = fopen("/proc/self/maps", "r");
    if (!m) return -1;
    char line[512];
    int found = -1;
    while (fgets(line, sizeof line, m)) {
        unsigned long lo, hi;
        char pr[5];
        if (sscanf(line, "%lx-%lx %4s", &lo, &hi, pr) != 3) continue;
        if ((unsigned long)(uintptr_t)addr >= lo && (unsigned long)(uintptr_t)addr < hi) {
            memcpy(perms, pr, 5);
            found = 0;
            break;
        }
    }
    fclose(m);
    return found;
}

/* A merge whose newest input is corrupt deep inside (block 1200 of 1334: its
 * block-start control's first bit set, so R = 0 < c) fails mid-way, after
 * output has been flushed; the temporary disappears with the failure, the
 * destination keeps its old bytes and both input files are unchanged. */
Test(kv03_stream_failures, merge_corrupt_input_mid_way, .timeout = 600)
{
    char dir[] = "/tmp/rsv_stream_XXXXXX";
    make_dir(dir);
    char path[96], pa[96], pb[96];
    snprintf(path, sizeof path, "%s/merged.kv", dir);
    snprintf(pa, sizeof pa, "%s/a.kv", dir);
    snprintf(pb, sizeof pb, "%s/b.kv", dir);
    put_file(path, "old merge output");
    rsv_kv03_policy p = rsv_kv03_policy_default();
    recset s = gen(1234, 20000, 50, 1);
    recset t = gen(4321, 500, 50, 1);
    uint8_t *a, *b;
    size_t na, nb;
    cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, t.r, t.n, &a, &na), RSV_OK);
    cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, s.r, s.n, &b, &nb), RSV_OK);
    rsv_kv03_file fb;
    cr_assert_eq(rsv_kv03_open(b, nb, &p, &fb), RSV_OK);
    uint64_t bit;
    cr_assert_eq(rsv_kv03_block_offset(&fb, 1200, &bit), RSV_OK);
    /* EG0(R) with R >= 1 starts with a 0; a 1 there reads R = 0 */
    size_t at = 96 + 192 + (size_t)(bit / 8);
    uint8_t mask = (uint8_t)(0x80u >> (bit % 8));
    cr_assert_eq(b[at] & mask, 0);
    b[at] |= mask;
    FILE *fo = fopen(pa, "wb");
    cr_assert_eq(fwrite(a, 1, na, fo), na);
    fclose(fo);
    fo = fopen(pb, "wb");
    cr_assert_eq(fwrite(b, 1, nb, fo), nb);
    fclose(fo);

    rsv_kv03_file fin[2];
    cr_assert_eq(rsv_kv03_open_path(pa, &p, &fin[0]), RSV_OK);
    cr_assert_eq(rsv_kv03_open_path(pb, &p, &fin[1]), RSV_OK); /* open reads no body CRC */
    char perms[5];
#ifdef __linux__
    cr_assert_eq(mapping_perms(fin[1].bytes, perms), 0);
    cr_assert_str_eq(perms, "r--p");
#else
    if (mapping_perms(fin[1].bytes, perms) == 0) cr_assert_str_eq(perms, "r--p");
#endif
    const rsv_kv03_file *in[2] = {&fin[0], &fin[1]};
    rsv_merge m;
    cr_assert_eq(rsv_merge_init_path(&m, in, 2, 0, path), RSV_OK);
    rsv_kv03_writer_stats st;
    int done = 0, tmps;
    do {
        cr_assert_eq(rsv_merge_step(&m, &done), RSV_OK);
        rsv_kv03_writer_get_stats(&rsv__merge_of(&m)->out, &st);
    } while (st.flushed_bytes == 0);
    cr_assert_eq(dir_entries(dir, &tmps), 4); /* a, b, old output, temporary */
    cr_assert_eq(tmps, 1);
    cr_assert_eq(rsv_merge_run(&m), RSV_ERR_RETAINED_PRECEDES_CODE);
    cr_assert_eq(rsv_merge_failed_input(&m), 1);
    cr_assert_eq(rsv_merge_diag(&m).record, 1200u * 15);
    cr_assert_eq(dir_entries(dir, &tmps), 3); /* gone with the failure */
    cr_assert_eq(tmps, 0);
    cr_assert_eq(rsv_merge_commit(&m), RSV_ERR_POISONED);
    cr_assert_eq(rsv_merge_finish_path(&m, path), RSV_ERR_POISONED);
    rsv_merge_free(&m);
    rsv_kv03_close(&fin[0]);
    rsv_kv03_close(&fin[1]);
    expect_content(path, "old merge output");
    expect_same_file(pa, a, na);
    expect_same_file(pb, b, nb);
    cr_assert_eq(dir_entries(dir, NULL), 3);
    remove(path);
    remove(pa);
    remove(pb);
    cr_assert_eq(rmdir(dir), 0);
    free(a);
    free(b);
    recset_free(&s);
    recset_free(&t);
}

