/* Files as callers treat them (docs/kv03.md "Files and paths", file_io.h):
 * what a path writer may replace and with which mode, temporary names at
 * NAME_MAX, the temporary-path accessors for signal cleanup, opening
 * non-regular files without blocking, the copying open that survives a
 * shrinking file, and scan scratch that follows the blocks actually walked
 * instead of the header's claim. Expected values: POSIX semantics (errno,
 * modes), the §12.3 file and its records (KV03.md §12), and the block count
 * the test itself chose. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reservoir/file_io.h"
#include "reservoir/kv03.h"
#include "reservoir/merge.h"

#include "kv03_vectors.h"

static char dir[] = "/tmp/rsv_files_XXXXXX";

static void setup(void)
{
    strcpy(dir, "/tmp/rsv_files_XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

static char *at(const char *name)
{
    static char buf[4][600];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

/* Number of directory entries other than . and .. */
static int entries(void)
{
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    return n;
}

static void put_file(const char *path, const void *b, size_t n, mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, b, n), (ssize_t)n);
    cr_assert_eq(fchmod(fd, mode), 0);
    close(fd);
}

TestSuite(kv03_files, .init = setup, .fini = teardown);

Test(kv03_files, only_a_regular_file_is_replaced)
{
    cr_assert_eq(mkdir(at("d"), 0755), 0);
    cr_assert_eq(mkfifo(at("fifo"), 0644), 0);
    cr_assert_eq(symlink("target", at("link")), 0); /* dangling */
    put_file(at("target2"), "x", 1, 0644);
    cr_assert_eq(symlink("target2", at("link2")), 0);
    errno = 0;
    cr_assert_eq(rsv_file_write_atomic(at("d"), "ab", 2), RSV_ERR_IO);
    cr_assert_eq(errno, EISDIR);
    const char *refused[] = {"fifo", "link", "link2"};
    for (int i = 0; i < 3; i++) {
        errno = 0;
        cr_assert_eq(rsv_file_write_atomic(at(refused[i]), "ab", 2), RSV_ERR_IO, "%s", refused[i]);
        cr_assert_eq(errno, EEXIST, "%s", refused[i]);
    }
    struct stat sb;
    cr_assert_eq(lstat(at("link2"), &sb), 0);
    cr_assert(S_ISLNK(sb.st_mode), "the link is still a link");
    cr_assert_eq(lstat(at("fifo"), &sb), 0);
    cr_assert(S_ISFIFO(sb.st_mode));
    /* the path writer refuses the same way, before creating anything */
    rsv_kv03_policy p = rsv_kv03_policy_default();
    rsv_kv03_writer w;
    cr_assert_eq(rsv_kv03_writer_init_path(&w, &p, NULL, 0, at("fifo")), RSV_ERR_IO);
    cr_assert_eq(errno, EEXIST);
    cr_assert_null(rsv_kv03_writer_temp_path(&w));
    rsv_kv03_writer_free(&w);
    cr_assert_eq(entries(), 5, "no temporary left");
}

Test(kv03_files, replaced_file_keeps_its_mode_new_file_follows_umask)
{
    put_file(at("private"), "old", 3, 0600);
    cr_assert_eq(rsv_file_write_atomic(at("private"), "new", 3), RSV_OK);
    struct stat sb;
    cr_assert_eq(stat(at("private"), &sb), 0);
    cr_assert_eq(sb.st_mode & 0777, 0600);
    cr_assert_eq(sb.st_size, 3);
    put_file(at("odd"), "old", 3, 0640);
    cr_assert_eq(rsv_file_write_atomic(at("odd"), "n", 1), RSV_OK);
    cr_assert_eq(stat(at("odd"), &sb), 0);
    cr_assert_eq(sb.st_mode & 0777, 0640);
    mode_t old = umask(027);
    cr_assert_eq(rsv_file_write_atomic(at("fresh"), "n", 1), RSV_OK);
    umask(old);
    cr_assert_eq(stat(at("fresh"), &sb), 0);
    cr_assert_eq(sb.st_mode & 0777, 0640, "0666 & ~027");
    /* the KV03 path writer too */
    put_file(at("p.kv"), "old", 3, 0600);
    rsv_kv03_policy p = rsv_kv03_policy_default();
    rsv_kv03_writer w;
    cr_assert_eq(rsv_kv03_writer_init_path(&w, &p, NULL, 0, at("p.kv")), RSV_OK);
    for (int i = 0; i < 4; i++)
        cr_assert_eq(rsv_kv03_writer_add(&w, RECS[i].key, RECS[i].key_len, RECS[i].value), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_commit(&w), RSV_OK);
    rsv_kv03_writer_free(&w);
    cr_assert_eq(stat(at("p.kv"), &sb), 0);
    cr_assert_eq(sb.st_mode & 0777, 0600);
    cr_assert_eq(sb.st_size, 360, "the §12.3 file");
}

Test(kv03_files, temporary_names_stay_within_name_max)
{
    for (size_t len = 240; len <= 255; len++) {
        char name[256];
        memset(name, 'n', len);
        name[len] = '\0';
        cr_assert_eq(rsv_file_write_atomic(at(name), "abc", 3), RSV_OK, "name of %zu bytes", len);
        struct stat sb;
        cr_assert_eq(stat(at(name), &sb), 0);
        cr_assert_eq(sb.st_size, 3);
        /* the streaming writer: its temporary exists under a valid name */
        rsv_kv03_policy p = rsv_kv03_policy_default();
        rsv_kv03_writer w;
        cr_assert_eq(rsv_kv03_writer_init_path(&w, &p, NULL, 0, at(name)), RSV_OK, "%zu", len);
        const char *tmp = rsv_kv03_writer_temp_path(&w);
        cr_assert_not_null(tmp);
        const char *base = strrchr(tmp, '/') + 1;
        /* stem = the name, cut to 255 - 11 = 244 bytes when needed */
        size_t stem = len <= 244 ? len : 244;
        cr_assert_eq(strlen(base), stem + 11, "name of %zu bytes", len);
        cr_assert_eq(memcmp(base, name, stem), 0);
        cr_assert_eq(strncmp(base + stem, ".tmp.", 5), 0);
        cr_assert_eq(access(tmp, F_OK), 0);
        cr_assert_eq(rsv_kv03_writer_commit(&w), RSV_OK);
        cr_assert_null(rsv_kv03_writer_temp_path(&w));
        rsv_kv03_writer_free(&w);
        cr_assert_eq(stat(at(name), &sb), 0);
        cr_assert_eq(sb.st_size, 320, "the empty file of KV03.md §12");
    }
    cr_assert_eq(entries(), 16, "one file per length, no temporaries");
}

/* file_io.h step 1: a last component over NAME_MAX bytes fails the check
 * of `path` (lstat: ENAMETOOLONG, POSIX), before any temporary exists, so a
 * path writer's init already fails; nothing is left in the directory. */
Test(kv03_files, name_over_name_max_fails_the_path_check)
{
    for (size_t len = 256; len <= 300; len += 44) {
        char name[301];
        memset(name, 'n', len);
        name[len] = '\0';
        errno = 0;
        cr_assert_eq(rsv_file_write_atomic(at(name), "abc", 3), RSV_ERR_IO, "name of %zu bytes", len);
        cr_assert_eq(errno, ENAMETOOLONG, "name of %zu bytes: errno %d", len, errno);
        rsv_kv03_policy p = rsv_kv03_policy_default();
        rsv_kv03_writer w;
        errno = 0;
        cr_assert_eq(rsv_kv03_writer_init_path(&w, &p, NULL, 0, at(name)), RSV_ERR_IO, "name of %zu bytes", len);
        cr_assert_eq(errno, ENAMETOOLONG, "name of %zu bytes: errno %d", len, errno);
        cr_assert_null(rsv_kv03_writer_temp_path(&w), "name of %zu bytes: a temporary exists", len);
        rsv_kv03_writer_free(&w);
        cr_assert_eq(entries(), 0, "name of %zu bytes: something was left", len);
    }
}

Test(kv03_files, temp_path_accessors_name_the_live_temporary)
{
    rsv_kv03_policy p = rsv_kv03_policy_default();
    rsv_kv03_writer w;
    cr_assert_eq(rsv_kv03_writer_init_path(&w, &p, NULL, 0, at("w.kv")), RSV_OK);
    const char *tmp = rsv_kv03_writer_temp_path(&w);
    cr_assert_not_null(tmp);
    cr_assert_eq(strncmp(tmp, at("w.kv.tmp."), strlen(at("w.kv.tmp."))), 0);
    cr_assert_eq(access(tmp, F_OK), 0);
    cr_assert_eq(rsv_kv03_writer_add(&w, "b", 1, rsv_value_tombstone()), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_temp_path(&w), tmp, "stable while writing");
    cr_assert_eq(rsv_kv03_writer_add(&w, "a", 1, rsv_value_tombstone()), RSV_ERR_UNSORTED);
    cr_assert_null(rsv_kv03_writer_temp_path(&w), "a failure removes it");
    rsv_kv03_writer_free(&w);
    cr_assert_eq(entries(), 0);

    put_file(at("a.kv"), FILE_12_3, 360, 0644);
    put_file(at("b.kv"), FILE_EMPTY, 320, 0644);
    rsv_kv03_file fa, fb;
    cr_assert_eq(rsv_kv03_open_path(at("a.kv"), NULL, &fa), RSV_OK);
    cr_assert_eq(rsv_kv03_open_path(at("b.kv"), NULL, &fb), RSV_OK);
    const rsv_kv03_file *in[2] = {&fa, &fb};
    rsv_merge m;
    cr_assert_eq(rsv_merge_init_path(&m, in, 2, 0, at("m.kv")), RSV_OK);
    const char *mt = rsv_merge_temp_path(&m);
    cr_assert_not_null(mt);
    cr_assert_eq(access(mt, F_OK), 0);
    cr_assert_eq(rsv_merge_run(&m), RSV_OK);
    cr_assert_eq(rsv_merge_commit(&m), RSV_OK);
    cr_assert_null(rsv_merge_temp_path(&m));
    rsv_merge_free(&m);
    rsv_kv03_close(&fa);
    rsv_kv03_close(&fb);
    cr_assert_eq(entries(), 3);
}

Test(kv03_files, open_refuses_non_regular_files_without_blocking)
{
    cr_assert_eq(mkdir(at("d"), 0755), 0);
    cr_assert_eq(mkfifo(at("fifo"), 0644), 0); /* no writer: a blocking open would hang */
    rsv_kv03_file f;
    errno = 0;
    cr_assert_eq(rsv_kv03_open_path(at("d"), NULL, &f), RSV_ERR_IO);
    cr_assert_eq(errno, EISDIR);
    errno = 0;
    cr_assert_eq(rsv_kv03_open_path(at("fifo"), NULL, &f), RSV_ERR_IO);
    cr_assert_eq(errno, EINVAL);
    errno = 0;
    cr_assert_eq(rsv_kv03_open_path_copy(at("fifo"), NULL, &f), RSV_ERR_IO);
    cr_assert_eq(errno, EINVAL);
    errno = 0;
    cr_assert_eq(rsv_kv03_open_path("/dev/null", NULL, &f), RSV_ERR_IO);
    cr_assert_eq(errno, EINVAL);
}

Test(kv03_files, copying_open_survives_the_file_shrinking)
{
    put_file(at("a.kv"), FILE_12_3, 360, 0644);
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open_path_copy(at("a.kv"), NULL, &f), RSV_OK);
    cr_assert_eq(truncate(at("a.kv"), 0), 0);
    cr_assert_eq(rsv_kv03_scan(&f, NULL), RSV_OK, "the copy is unaffected");
    rsv_kv03_cursor c;
    rsv_kv03_entry e;
    int more;
    cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(rsv_kv03_cursor_record(&c, &e, &more), RSV_OK);
        cr_assert_eq(more, 1);
        cr_assert_eq(e.key_len, RECS[i].key_len);
        cr_assert_eq(memcmp(e.key, RECS[i].key, e.key_len), 0);
    }
    cr_assert_eq(rsv_kv03_cursor_record(&c, &e, &more), RSV_OK);
    cr_assert_eq(more, 0);
    rsv_kv03_cursor_free(&c);
    rsv_kv03_close(&f);
    /* and an empty file is a truncated header, as with the mapping open */
    cr_assert_eq(rsv_kv03_open_path_copy(at("a.kv"), NULL, &f), RSV_ERR_TRUNCATED_HEADER);
}

/* A file with W = 1 and 2^18 blocks whose second record is damaged (CRCs
 * re-sealed): the scan must stop at the walk error with its offsets scratch
 * at the first growth step (16 entries), not at the header's nb + 1. */
Test(kv03_files, scan_scratch_follows_the_blocks_walked)
{
    const uint64_t n = UINT64_C(1) << 18;
    rsv_kv03_policy p = rsv_kv03_policy_default();
    p.W = 1;
    rsv_kv03_writer w;
    cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
    for (uint64_t i = 0; i < n; i++) {
        uint8_t k[4] = {(uint8_t)(i >> 24), (uint8_t)(i >> 16), (uint8_t)(i >> 8), (uint8_t)i};
        cr_assert_eq(rsv_kv03_writer_add(&w, k, 4, rsv_value_present(k, 1)), RSV_OK);
    }
    uint8_t *b;
    size_t nb;
    cr_assert_eq(rsv_kv03_writer_finish(&w, &b, &nb), RSV_OK);
    rsv_kv03_writer_free(&w);
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(b, nb, NULL, &f), RSV_OK);
    cr_assert_eq(f.nb, n);
    rsv_kv03_scanner s;
    rsv_kv03_scanner_init(&s);
    cr_assert_eq(rsv_kv03_scanner_scan(&s, &f, NULL), RSV_OK, "the intact file");
    cr_assert_geq(s.offsets_cap, n + 1);
    rsv_kv03_scanner_free(&s);
    /* damage: data-stream bytes 8..23 zeroed. A record starting in the first
     * 64 of those 128 zero bits reads an exp-Golomb backspace with more than
     * 64 leading zeros, which no record survives (CODES.md §3). */
    memset(b + 96 + f.sec_off[0] + 8, 0, 16);
    fix_crcs(b, nb);
    cr_assert_eq(rsv_kv03_open(b, nb, NULL, &f), RSV_OK);
    rsv_kv03_diag d;
    rsv_kv03_scanner_init(&s);
    rsv_status st = rsv_kv03_scanner_scan(&s, &f, &d);
    cr_assert_neq(st, RSV_OK);
    cr_assert_neq(st, RSV_ERR_NOMEM);
    cr_assert_eq(d.status, st, "a walk (step 3) error");
    cr_assert_lt(d.record, 16, "record %llu, status %d", (unsigned long long)d.record, (int)st);
    cr_assert_leq(s.offsets_cap, 16, "scratch for the blocks walked, not 2^18 + 1");
    cr_assert_eq(rsv_kv03_scan(&f, NULL), st, "one-shot scan agrees");
    rsv_kv03_scanner_free(&s);
    free(b);
}

/* file_io.h: path NULL, or bytes NULL with n > 0, is RSV_ERR_INVALID_ARGUMENT
 * and touches nothing; bytes NULL with n = 0 writes an empty file. */
Test(kv03_files, write_atomic_arguments)
{
    put_file(at("kept"), "old", 3, 0644);
    cr_assert_eq(rsv_file_write_atomic(NULL, "ab", 2), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_file_write_atomic(at("kept"), NULL, 1), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_file_write_atomic(at("new"), NULL, 1), RSV_ERR_INVALID_ARGUMENT);
    struct stat sb;
    cr_assert_eq(stat(at("kept"), &sb), 0);
    cr_assert_eq(sb.st_size, 3, "the file is untouched");
    cr_assert_eq(entries(), 1, "nothing created");
    cr_assert_eq(rsv_file_write_atomic(at("empty"), NULL, 0), RSV_OK);
    cr_assert_eq(stat(at("empty"), &sb), 0);
    cr_assert_eq(sb.st_size, 0);
    cr_assert_eq(entries(), 2);
}
