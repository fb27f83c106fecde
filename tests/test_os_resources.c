/* Operating-system resources: every descriptor and mapping the path APIs
 * take is given back.
 *
 * kv03.h: rsv_kv03_open_path maps the file ("the mapping is released by
 * rsv_kv03_close (also on open failure)"), rsv_kv03_open_path_copy reads it
 * into private memory released the same way; the path writer and the merge
 * to a path hold one descriptor (the temporary) until commit, failure or
 * free; rsv_file_write_atomic (file_io.h) holds none afterwards. What is
 * checked, before and after each call: the number of open descriptors
 * (/proc/self/fd), and whether the file (by path, /proc/self/maps) or the
 * returned bytes (by address, msync: ENOMEM for an unmapped page) are still
 * mapped. The mutation gate builds without ASan, which would not see a
 * leaked descriptor or mapping anyway: a deleted close() or munmap() is
 * caught only here and in test_fault_injection's descriptor check. */
#define _DEFAULT_SOURCE /* mkdtemp */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "reservoir/file_io.h"
#include "reservoir/kv03.h"
#include "reservoir/merge.h"

#include "kv03_vectors.h"

static int open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    cr_assert_not_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n; /* includes the directory's own descriptor, every time */
}

/* 1 when some mapping of this process is of `path` */
static int maps_file(const char *path)
{
    FILE *m = fopen("/proc/self/maps", "r");
    cr_assert_not_null(m);
    char line[1024];
    int found = 0;
    while (!found && fgets(line, sizeof line, m)) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        size_t ll = strlen(line), pl = strlen(path);
        found = ll >= pl && strcmp(line + ll - pl, path) == 0;
    }
    fclose(m);
    return found;
}

/* 1 when the page holding p is mapped */
static int page_mapped(const void *p)
{
    long pg = sysconf(_SC_PAGESIZE);
    void *base = (void *)((uintptr_t)p & ~(uintptr_t)(pg - 1));
    if (msync(base, (size_t)pg, MS_ASYNC) == 0) return 1;
    cr_assert_eq(errno, ENOMEM, "msync: %s", strerror(errno));
    return 0;
}

static char dir[] = "/tmp/rsv_osres_XXXXXX";
static char path[96], out[96];

static void setup(void)
{
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/in.kv", dir);
    snprintf(out, sizeof out, "%s/out.kv", dir);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(FILE_12_3, 1, 360, f), 360);
    cr_assert_eq(fclose(f), 0);
}

static void teardown(void)
{
    unlink(path);
    unlink(out);
    cr_assert_eq(rmdir(dir), 0, "%s not empty: a temporary was left", dir);
}

TestSuite(os_resources, .init = setup, .fini = teardown);

Test(os_resources, open_path_maps_until_close_and_keeps_no_descriptor)
{
    int fds = open_fds();
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open_path(path, NULL, &f), RSV_OK);
    cr_assert_eq(open_fds(), fds, "the descriptor is closed once the file is mapped");
    cr_assert(maps_file(path));
    cr_assert(f.size == 360 && memcmp(f.bytes, FILE_12_3, 360) == 0);
    const uint8_t *at = f.bytes;
    rsv_kv03_close(&f);
    cr_assert(!maps_file(path), "still mapped after rsv_kv03_close");
    cr_assert(!page_mapped(at));
    cr_assert_eq(open_fds(), fds);
}

Test(os_resources, open_path_copy_releases_its_copy)
{
    int fds = open_fds();
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open_path_copy(path, NULL, &f), RSV_OK);
    cr_assert_eq(open_fds(), fds);
    cr_assert(!maps_file(path), "a copy, not a mapping of the file");
    cr_assert(f.size == 360 && memcmp(f.bytes, FILE_12_3, 360) == 0);
    const uint8_t *at = f.bytes;
    cr_assert(page_mapped(at));
    rsv_kv03_close(&f);
    cr_assert(!page_mapped(at), "the copy is still mapped after rsv_kv03_close");
    cr_assert_eq(open_fds(), fds);
}

/* Failures after the open(2): an empty file (opens, nothing to map), a
 * directory, a FIFO (refused after fstat), a file that is not KV03 (mapped,
 * then rejected: the mapping goes with the failure, kv03.h). */
Test(os_resources, failed_and_empty_opens_keep_nothing)
{
    char empty[128], fifo[128], bad[128];
    snprintf(empty, sizeof empty, "%s/empty", dir);
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    snprintf(bad, sizeof bad, "%s/bad.kv", dir);
    FILE *e = fopen(empty, "wb");
    cr_assert_not_null(e);
    cr_assert_eq(fclose(e), 0);
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    FILE *b = fopen(bad, "wb");
    cr_assert_not_null(b);
    cr_assert_eq(fwrite(FILE_12_3, 1, 359, b), 359); /* one byte short */
    cr_assert_eq(fclose(b), 0);
    int fds = open_fds();
    for (int copy = 0; copy < 2; copy++) {
        const char *paths[] = {empty, dir, fifo, bad};
        for (int i = 0; i < 4; i++) {
            rsv_kv03_file f;
            rsv_status st = copy ? rsv_kv03_open_path_copy(paths[i], NULL, &f) : rsv_kv03_open_path(paths[i], NULL, &f);
            cr_assert_neq(st, RSV_OK, "%s opened", paths[i]);
            cr_assert_eq(open_fds(), fds, "%s (copy %d): a descriptor leaked", paths[i], copy);
            cr_assert(!maps_file(paths[i]), "%s (copy %d): still mapped", paths[i], copy);
            rsv_kv03_close(&f);
        }
    }
    cr_assert_eq(unlink(empty), 0);
    cr_assert_eq(unlink(fifo), 0);
    cr_assert_eq(unlink(bad), 0);
}

/* kv03.h, rsv_kv03_open_path: "RSV_ERR_IO if it cannot be opened or mapped".
 * A file that opens but cannot be mapped: in a child whose address-space
 * limit (RLIMIT_AS) is lowered to 0, mmap(2) fails with ENOMEM for the
 * 360-byte §12.3 file, which opens (RSV_OK) without the limit. The child
 * makes only the one call under the limit (no allocation) and reports the
 * status as its exit code. */
Test(os_resources, unmappable_file_is_an_io_error)
{
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open_path(path, NULL, &f), RSV_OK); /* the file itself is fine */
    rsv_kv03_close(&f);
    fflush(NULL);
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        struct rlimit rl;
        if (getrlimit(RLIMIT_AS, &rl) != 0) _exit(100);
        rl.rlim_cur = 0;
        if (setrlimit(RLIMIT_AS, &rl) != 0) _exit(101);
        rsv_kv03_file g;
        rsv_status st = rsv_kv03_open_path(path, NULL, &g);
        _exit(st == RSV_ERR_IO ? 0 : 102);
    }
    int ws = 0;
    cr_assert_eq(waitpid(pid, &ws, 0), pid);
    cr_assert(WIFEXITED(ws), "the child did not exit (status %d)", ws);
    cr_assert_eq(WEXITSTATUS(ws), 0, "exit %d: 100/101 rlimit, 102 the open was not RSV_ERR_IO",
                 WEXITSTATUS(ws));
}

/* The path writer holds the temporary's descriptor while it writes, and none
 * after a commit, a failed add (UNSORTED) or a free without commit. */
Test(os_resources, path_writer_gives_its_descriptor_back)
{
    int fds = open_fds();
    rsv_kv03_policy p = rsv_kv03_policy_default();
    for (int how = 0; how < 3; how++) {
        rsv_kv03_writer w;
        cr_assert_eq(rsv_kv03_writer_init_path(&w, &p, NULL, 0, out), RSV_OK);
        cr_assert_eq(open_fds(), fds + 1, "the temporary");
        const rsv_record *r = RECS;
        for (int i = 0; i < 4; i++)
            cr_assert_eq(rsv_kv03_writer_add(&w, r[i].key, r[i].key_len, r[i].value), RSV_OK);
        if (how == 0) cr_assert_eq(rsv_kv03_writer_commit(&w), RSV_OK);
        if (how == 1) cr_assert_eq(rsv_kv03_writer_add(&w, r[0].key, r[0].key_len, r[0].value), RSV_ERR_UNSORTED);
        rsv_kv03_writer_free(&w);
        cr_assert_eq(open_fds(), fds, "how %d: a descriptor leaked", how);
        if (how == 0) cr_assert_eq(unlink(out), 0);
    }
}

/* The merge to a path, clean (§12.3 with itself) and failing (a file of
 * another policy, Golomb 7: RSV_ERR_MERGE_MISMATCH, merge.h), and
 * the atomic whole-file write. */
Test(os_resources, merge_to_a_path_and_atomic_write_give_descriptors_back)
{
    rsv_kv03_file a, g;
    cr_assert_eq(rsv_kv03_open(FILE_12_3, 360, NULL, &a), RSV_OK);
    uint8_t g7[360];
    make_golomb7(g7);
    cr_assert_eq(rsv_kv03_open(g7, 360, NULL, &g), RSV_OK);
    int fds = open_fds();
    const rsv_kv03_file *same[2] = {&a, &a}, *mixed[2] = {&a, &g};
    cr_assert_eq(rsv_merge_files_path(same, 2, 0, out), RSV_OK);
    cr_assert_eq(open_fds(), fds);
    cr_assert_eq(unlink(out), 0);
    rsv_status st = rsv_merge_files_path(mixed, 2, 0, out);
    cr_assert_eq(st, RSV_ERR_MERGE_MISMATCH, "%s", rsv_status_name(st));
    cr_assert_eq(open_fds(), fds, "failed merge (%s): a descriptor leaked", rsv_status_name(st));
    cr_assert_eq(access(out, F_OK), -1);
    cr_assert_eq(rsv_file_write_atomic(out, FILE_12_3, 360), RSV_OK);
    cr_assert_eq(open_fds(), fds);
    cr_assert_eq(unlink(out), 0);
    rsv_kv03_close(&a);
    rsv_kv03_close(&g);
}

/* Tests that take over descriptor 0 give it back as they found it (a
 * duplicate of the caller's, or closed when the test runner had none). */
static int stdin_save(void)
{
    return dup(0); /* -1 when stdin is closed already */
}

static void stdin_restore(int saved)
{
    if (saved >= 0) {
        dup2(saved, 0);
        close(saved);
    } else {
        close(0);
    }
}

/* open(2), mkostemp(3) and the directory open return the lowest free
 * descriptor, and 0 is one when stdin is closed (a daemon, a test runner
 * without input). Every path API must take descriptor 0 as a descriptor:
 * open it, use it, give it back. Each step starts with 0 free (checked), so
 * its first descriptor is 0. */
Test(os_resources, descriptor_0_is_a_descriptor)
{
    int saved = stdin_save();
    close(0);
    errno = 0;
    cr_assert(fcntl(0, F_GETFD) == -1 && errno == EBADF, "descriptor 0 is free");
    int fds = open_fds();
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open_path(path, NULL, &f), RSV_OK);
    cr_assert(f.size == 360 && memcmp(f.bytes, FILE_12_3, 360) == 0);
    rsv_kv03_close(&f);
    cr_assert_eq(open_fds(), fds, "open_path kept a descriptor");
    cr_assert_eq(rsv_kv03_open_path_copy(path, NULL, &f), RSV_OK);
    cr_assert(f.size == 360 && memcmp(f.bytes, FILE_12_3, 360) == 0);
    rsv_kv03_close(&f);
    cr_assert_eq(open_fds(), fds, "open_path_copy kept a descriptor");

    /* the atomic write (temporary on 0, then the directory's fsync on 0) */
    cr_assert_eq(rsv_file_write_atomic(out, FILE_12_3, 360), RSV_OK);
    cr_assert_eq(open_fds(), fds, "write_atomic kept a descriptor");
    cr_assert_eq(rsv_kv03_open_path_copy(out, NULL, &f), RSV_OK);
    cr_assert(f.size == 360 && memcmp(f.bytes, FILE_12_3, 360) == 0);
    rsv_kv03_close(&f);
    cr_assert_eq(unlink(out), 0);

    /* the path writer's temporary on 0, committed: the file is the writer's */
    rsv_kv03_policy p = rsv_kv03_policy_default();
    rsv_kv03_writer w;
    uint8_t *mem = NULL;
    size_t nmem = 0;
    cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
    for (int i = 0; i < 4; i++) cr_assert_eq(rsv_kv03_writer_add(&w, RECS[i].key, RECS[i].key_len, RECS[i].value), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_finish(&w, &mem, &nmem), RSV_OK);
    rsv_kv03_writer_free(&w);
    cr_assert_eq(rsv_kv03_writer_init_path(&w, &p, NULL, 0, out), RSV_OK);
    cr_assert_eq(fcntl(0, F_GETFD) != -1, 1, "the temporary took descriptor 0");
    for (int i = 0; i < 4; i++) cr_assert_eq(rsv_kv03_writer_add(&w, RECS[i].key, RECS[i].key_len, RECS[i].value), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_commit(&w), RSV_OK);
    rsv_kv03_writer_free(&w);
    cr_assert_eq(open_fds(), fds, "the path writer kept a descriptor");
    cr_assert_eq(rsv_kv03_open_path_copy(out, NULL, &f), RSV_OK);
    cr_assert(f.size == nmem && memcmp(f.bytes, mem, nmem) == 0, "the committed file differs from the writer's");
    rsv_kv03_close(&f);
    cr_assert_eq(unlink(out), 0);
    free(mem);

    /* a path writer on 0 freed without a commit: descriptor and temporary go
     * (teardown fails on a leftover temporary) */
    cr_assert_eq(rsv_kv03_writer_init_path(&w, &p, NULL, 0, out), RSV_OK);
    cr_assert_eq(fcntl(0, F_GETFD) != -1, 1, "the temporary took descriptor 0");
    cr_assert_eq(rsv_kv03_writer_add(&w, RECS[0].key, RECS[0].key_len, RECS[0].value), RSV_OK);
    rsv_kv03_writer_free(&w);
    cr_assert_eq(open_fds(), fds, "the freed path writer kept a descriptor");
    cr_assert_eq(access(out, F_OK), -1);
    stdin_restore(saved);
}

/* A path that cannot be opened (it does not exist) is RSV_ERR_IO, and the
 * descriptor the failed open(2) did not return is nobody's to use: here 0
 * holds a valid KV03 file (§12.3), so an open that took "descriptor 0" for
 * its failure would map or copy it and report RSV_OK. Descriptor 0 is still
 * that file afterwards. */
Test(os_resources, unopenable_path_is_an_io_error_whatever_descriptor_0_holds)
{
    int saved = stdin_save();
    int fd = open(path, O_RDONLY);
    cr_assert(fd >= 0);
    cr_assert_eq(dup2(fd, 0), 0);
    close(fd);
    struct stat before, after;
    cr_assert_eq(fstat(0, &before), 0);
    char missing[128];
    snprintf(missing, sizeof missing, "%s/missing.kv", dir);
    int fds = open_fds();
    for (int copy = 0; copy < 2; copy++) {
        rsv_kv03_file f;
        rsv_status st = copy ? rsv_kv03_open_path_copy(missing, NULL, &f) : rsv_kv03_open_path(missing, NULL, &f);
        cr_assert_eq(st, RSV_ERR_IO, "copy %d: %s opened as %s", copy, missing, rsv_status_name(st));
        cr_assert_eq(open_fds(), fds, "copy %d: a descriptor was taken or closed", copy);
        cr_assert_eq(fstat(0, &after), 0, "copy %d: descriptor 0 was closed", copy);
        cr_assert(after.st_dev == before.st_dev && after.st_ino == before.st_ino, "copy %d: descriptor 0 replaced", copy);
        rsv_kv03_close(&f);
    }
    stdin_restore(saved);
}
