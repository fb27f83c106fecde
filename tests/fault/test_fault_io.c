/* write(2) making no progress, positioned I/O errors and short transfers,
 * fchmod failures, the directory fsync of every path shape, fsync and close
 * failing in turn (fault.h). */
#define _DEFAULT_SOURCE /* mkdtemp */
#define _POSIX_C_SOURCE 200809L
#include "fault.h"
#include "reservoir/file_io.h"

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

/* A write that returns 0 for n > 0 makes no progress: rsv__write_all reports
 * it (-1) instead of calling write again, whatever errno holds (here a stale
 * EINTR, which for a real EINTR return (-1) would mean "retry"). */
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

/* rsv__write_all continues a short write from the first byte not yet
 * written: 100 bytes through writes capped at 7 bytes take 15 calls and
 * arrive in order (read back from a pipe). */
Test(fault_write, short_writes_continue_where_they_stopped)
{
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    uint8_t msg[100], got[101];
    for (unsigned i = 0; i < 100; i++) msg[i] = (uint8_t)(i * 5 + 3);
    write_calls = 0;
    write_short = 7;
    int rc = rsv__write_all(fds[1], msg, 100);
    write_short = 0;
    cr_assert_eq(rc, 0);
    cr_assert_eq(write_calls, 15, "write called %ld times for 100 bytes in pieces of 7", write_calls);
    close(fds[1]);
    size_t n = 0;
    for (ssize_t k; n < sizeof got && (k = read(fds[0], got + n, sizeof got - n)) > 0;) n += (size_t)k;
    close(fds[0]);
    cr_assert_eq(n, 100, "%zu bytes arrived", n);
    cr_assert(memcmp(got, msg, 100) == 0, "short writes: bytes out of place");
}

static int open_fds(void); /* below: the process's open descriptors */

/* rsv__write_all (file_io.c): a write that fails with EINTR (a signal
 * before any byte moved) is retried, so the bytes still arrive, in one
 * piece, through a pipe; any other failure (EIO) ends it with -1 after that
 * one call. (Found by the gate's coverage map: no test interrupted a write();
 * EFBIG failures do come from test_kv03_stream_failures.) */
Test(fault_write, interrupted_write_is_retried_other_errors_end_it)
{
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    write_calls = 0;
    write_fail = 2, write_fail_errno = EINTR;
    int rc = rsv__write_all(fds[1], "abc", 3);
    write_fail = 0;
    cr_assert_eq(rc, 0, "two EINTR failures, then the write: must succeed");
    cr_assert_eq(write_calls, 3, "write called %ld times", write_calls);
    char got[4] = {0};
    cr_assert_eq(read(fds[0], got, sizeof got), 3);
    cr_assert_str_eq(got, "abc");
    write_calls = 0;
    write_fail = 1, write_fail_errno = EIO;
    rc = rsv__write_all(fds[1], "abc", 3);
    write_fail = 0;
    cr_assert_eq(rc, -1, "a write failing with EIO must be an error");
    cr_assert_eq(write_calls, 1, "write called %ld times after EIO", write_calls);
    close(fds[0]);
    close(fds[1]);
}

/* rsv_kv03_writer_init_path (kv03.h: "Any failure — init I/O error ...
 * poisons the writer and unlinks the temporary at once"): the sink's first
 * write (the zeroed header and directory room) fails with EIO: init is
 * RSV_ERR_IO, the directory holds nothing, no descriptor and no block is
 * left. With the same write interrupted (EINTR) instead, init succeeds and
 * the committed file is §12's, byte for byte. */
Test(fault_write, path_writer_header_room_write_fails_or_is_interrupted)
{
    char dir[] = "/tmp/rsv_hdrw_XXXXXX", path[64];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/out.kv", dir);
    rsv_kv03_policy p = rsv_kv03_policy_default();
    int fds = open_fds();
    long live = live_blocks;
    rsv_kv03_writer w;
    write_fail = 1, write_fail_errno = EIO;
    rsv_status st = rsv_kv03_writer_init_path(&w, &p, NULL, 0, path);
    int left = write_fail;
    write_fail = 0;
    cr_assert_eq(left, 0, "init_path made no write()");
    cr_assert_eq(st, RSV_ERR_IO, "%s", rsv_status_name(st));
    rsv_kv03_writer_free(&w);
    cr_assert_eq(entries(dir), 0, "a temporary was left");
    cr_assert_eq(open_fds(), fds, "a descriptor was left open");
    cr_assert_eq(live_blocks, live, "%ld blocks not freed", live_blocks - live);

    write_fail = 1, write_fail_errno = EINTR;
    st = rsv_kv03_writer_init_path(&w, &p, NULL, 0, path);
    write_fail = 0;
    cr_assert_eq(st, RSV_OK, "%s", rsv_status_name(st));
    cr_assert_eq(add_12(&w), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_commit(&w), RSV_OK);
    rsv_kv03_writer_free(&w);
    expect_path_12_3(path, "path writer after an interrupted header write");
    cr_assert_eq(unlink(path), 0);
    cr_assert_eq(rmdir(dir), 0);
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

/* A new directory from the template dir, the file path = dir/f opened
 * read-write, and msg[i] = i * mul + add (100 bytes). */
static int scratch_file(char *dir, char *path, size_t cap, uint8_t msg[100], unsigned mul, unsigned add)
{
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, cap, "%s/f", dir);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    cr_assert(fd >= 0);
    for (unsigned i = 0; i < 100; i++) msg[i] = (uint8_t)(i * mul + add);
    return fd;
}

Test(fault_write, positioned_io_errors_and_short_transfers)
{
    char dir[] = "/tmp/rsv_pio_XXXXXX", path[64];
    uint8_t msg[100], got[100];
    int fd = scratch_file(dir, path, sizeof path, msg, 7, 1);

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

/* pwrite and pread that return 0 for n > 0 make no progress: like
 * rsv__write_all, rsv__pwrite_all and rsv__pread_all report it (-1; pread's
 * errno EIO) after that one call instead of calling again (kv03_layout.h),
 * whatever errno holds (a stale EINTR). Through the API: a path writer whose
 * header pwrite (or body re-read) makes no progress fails its commit with
 * RSV_ERR_IO and leaves no file (kv03.h). */
Test(fault_write, positioned_zero_progress_is_an_error_not_a_retry)
{
    char dir[] = "/tmp/rsv_pio0_XXXXXX", path[64];
    uint8_t msg[100], got[100];
    int fd = scratch_file(dir, path, sizeof path, msg, 5, 3);

    pio_calls = 0;
    pwrite_zero = 1;
    int rc = rsv__pwrite_all(fd, msg, 100, 5);
    pwrite_zero = 0;
    cr_assert_eq(rc, -1, "a pwrite returning 0 must be an error");
    cr_assert_eq(pio_calls, 1, "pwrite called %ld times: retried after no progress", pio_calls);
    /* without the fault the same call succeeds in one pwrite */
    pio_calls = 0;
    cr_assert_eq(rsv__pwrite_all(fd, msg, 100, 5), 0);
    cr_assert_eq(pio_calls, 1);

    pio_calls = 0;
    pread_zero = 1;
    errno = 0;
    rc = rsv__pread_all(fd, got, 100, 5);
    int err = errno;
    pread_zero = 0;
    cr_assert_eq(rc, -1, "a pread returning 0 must be an error");
    cr_assert_eq(err, EIO);
    cr_assert_eq(pio_calls, 1, "pread called %ld times: retried after no progress", pio_calls);
    pio_calls = 0;
    memset(got, 0, sizeof got);
    cr_assert_eq(rsv__pread_all(fd, got, 100, 5), 0);
    cr_assert_eq(pio_calls, 1);
    cr_assert(memcmp(got, msg, 100) == 0);
    close(fd);
    unlink(path);

    /* the path writer: its only pwrite is the commit's header and directory */
    pwrite_zero = 1;
    rsv_status st = op_path_writer(dir, NULL, NULL);
    int left = pwrite_zero;
    pwrite_zero = 0;
    cr_assert_eq(left, 0, "the commit made no pwrite");
    cr_assert_eq(st, RSV_ERR_IO, "commit after a pwrite of no progress: status %d", (int)st);
    cr_assert_eq(entries(dir), 0, "a file was left after the failed commit");
    /* its body re-read (the body CRC) */
    pread_zero = 1;
    st = op_path_writer(dir, NULL, NULL);
    left = pread_zero;
    pread_zero = 0;
    cr_assert_eq(left, 0, "the commit made no pread");
    cr_assert_eq(st, RSV_ERR_IO, "commit after a pread of no progress: status %d", (int)st);
    cr_assert_eq(entries(dir), 0, "a file was left after the failed commit");
    /* and without a fault it commits the §12.3 file */
    cr_assert_eq(op_path_writer(dir, NULL, NULL), RSV_OK);
    snprintf(path, sizeof path, "%s/out.kv", dir);
    expect_path_12_3(path, "path writer after the zero-progress runs");
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

/* rsv_file_write_atomic whose write fails (a write of no progress, as above):
 * RSV_ERR_IO, no temporary and no destination left (file_io.h), and every
 * block it allocated (the temporary's name) freed on that error path too:
 * the mutation gate builds without LeakSanitizer, so the wrappers' live-block
 * count is what sees a deleted free() there. */
Test(fault_write, atomic_write_failure_frees_and_leaves_nothing)
{
    char dir[] = "/tmp/rsv_fault_atomic_XXXXXX", path[64];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/out.bin", dir);
    long live = live_blocks;
    write_zero = 1;
    rsv_status st = rsv_file_write_atomic(path, "abc", 3);
    write_zero = 0;
    cr_assert_eq(st, RSV_ERR_IO);
    cr_assert_eq(live_blocks, live, "%ld blocks not freed after the failed write", live_blocks - live);
    cr_assert_eq(entries(dir), 0, "a temporary or the destination was left behind");
    /* the same call without the fault writes the file and frees the same way */
    cr_assert_eq(rsv_file_write_atomic(path, "abc", 3), RSV_OK);
    cr_assert_eq(live_blocks, live);
    cr_assert_eq(entries(dir), 1);
    cr_assert_eq(unlink(path), 0);
    cr_assert_eq(rmdir(dir), 0);
}

/* Every fsync, or every close, of a path write failing in turn (the k-th
 * call of the operation fails with EIO, for every k until one run makes
 * fewer than k calls): the path writer and rsv_file_write_atomic. Each makes
 * two: the temporary's and then, after the rename, the directory's
 * (rsv__sync_dir). The temporary's failing is RSV_ERR_IO with nothing left
 * (no temporary, no destination), so a call that is skipped, or whose
 * failure is ignored or cleared, shows as a missing failure there. After the
 * rename the complete file is in place (kv03.h, file_io.h): the directory's
 * fsync failing is RSV_ERR_IO; the directory's close failing is not an error
 * of the write (the directory was only read and its fsync succeeded), so the
 * run is RSV_OK. A run without a failure gives the §12.3 file. */
static void fail_in_turn(int atomic, const char *call, long *calls, long *fail_at, rsv_status after_rename)
{
    char dir[] = "/tmp/rsv_fault_turn_XXXXXX", path[64];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/out.kv", dir);
    const char *what = atomic ? "rsv_file_write_atomic" : "path writer";
    long k, made = 0;
    for (k = 1;; k++) {
        long live = live_blocks, ebadf = close_ebadf;
        *calls = 0;
        *fail_at = k;
        rsv_status st;
        if (atomic) st = rsv_file_write_atomic(path, FILE_12_3, 360); /* §12.3: 360 bytes */
        else st = op_path_writer(dir, NULL, NULL);
        int failed = *fail_at == 0;
        *fail_at = 0;
        cr_assert_eq(live_blocks, live, "%s %ld: %ld blocks not freed", call, k, live_blocks - live);
        cr_assert_eq(close_ebadf, ebadf, "%s %ld: a descriptor closed twice", call, k);
        if (!failed) { /* fewer than k calls: the run succeeded */
            cr_assert_eq(st, RSV_OK, "%s: %s with no failure", what, rsv_status_name(st));
            made = *calls;
            break;
        }
        if (k == 1) { /* the temporary's, before the rename */
            cr_assert_eq(st, RSV_ERR_IO, "%s: %s 1 (the temporary's) failed: %s", what, call, rsv_status_name(st));
            cr_assert_eq(entries(dir), 0, "%s: %s 1 (the temporary's) failed but a file was left", what, call);
            continue;
        }
        /* the directory's, after the rename: the complete file, no temporary */
        cr_assert_eq(st, after_rename, "%s: %s %ld (the directory's) failed: %s", what, call, k, rsv_status_name(st));
        cr_assert_eq(entries(dir), 1);
        expect_path_12_3(path, what);
        cr_assert_eq(unlink(path), 0);
    }
    cr_assert_eq(made, 2, "%s: %ld calls of %s: want the temporary's and the directory's", what, made, call);
    expect_path_12_3(path, what);
    cr_assert_eq(unlink(path), 0);
    cr_assert_eq(rmdir(dir), 0);
}

Test(fault_write, path_writer_fsyncs_the_temporary_before_the_rename)
{
    fail_in_turn(0, "fsync", &fsync_calls, &fsync_fail_at, RSV_ERR_IO);
}
Test(fault_write, atomic_write_fsyncs_the_temporary_before_the_rename)
{
    fail_in_turn(1, "fsync", &fsync_calls, &fsync_fail_at, RSV_ERR_IO);
}
Test(fault_write, path_writer_close_failure_of_the_temporary_is_an_io_error)
{
    fail_in_turn(0, "close", &close_calls, &close_fail_at, RSV_OK);
}
Test(fault_write, atomic_write_close_failure_of_the_temporary_is_an_io_error)
{
    fail_in_turn(1, "close", &close_calls, &close_fail_at, RSV_OK);
}

/* Permissions ("r--p") of the mapping of this process that holds address a,
 * from /proc/self/maps; 0 when none does. */
static int map_perms(const void *a, char perms[5])
{
    FILE *m = fopen("/proc/self/maps", "r");
    cr_assert_not_null(m);
    char line[1024];
    int found = 0;
    uintptr_t x = (uintptr_t)a;
    while (!found && fgets(line, sizeof line, m)) {
        unsigned long lo, hi;
        char p[5];
        if (sscanf(line, "%lx-%lx %4s", &lo, &hi, p) == 3 && lo <= x && x < hi) {
            memcpy(perms, p, 5);
            found = 1;
        }
    }
    fclose(m);
    return found;
}

/* A new directory from the mkdtemp template dir, holding a.kv = the §12.3
 * file (360 bytes); its path into path. */
static void write_12_3(char *dir, char *path, size_t cap)
{
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, cap, "%s/a.kv", dir);
    FILE *out = fopen(path, "wb");
    cr_assert_not_null(out);
    cr_assert_eq(fwrite(FILE_12_3, 1, 360, out), 360);
    cr_assert_eq(fclose(out), 0);
}

/* rsv_kv03_open_path_copy reads the file with pread into private memory
 * (kv03.h): "A file that shrinks during the read is RSV_ERR_IO (errno EIO)",
 * as is a failing pread, with no descriptor and no copy kept; a clean read
 * gives the file's bytes, "made read-only afterwards" (file_io.c,
 * rsv__copy_file). Here the file is KV03.md §12.3 (360 bytes, written by
 * the test); the first pread returns 0 (the file is empty by then, after
 * the open measured 360 bytes), or fails with EIO. Found by the seed-101
 * sample: with the success test of the mprotect inverted
 * (file_io_c.ror.bce4b84f) the failed read's copy was made read-only and
 * returned as a success, and a clean copy stayed writable. The failed
 * read's anonymous mapping is released (live_maps, the mmap/munmap
 * wrappers): with the munmap's test inverted (file_io_c.ror.52f955cb, the
 * ror run) it leaked one mapping per failure. */
Test(fault_write, copying_open_of_a_file_that_shrinks_is_an_io_error)
{
    char dir[] = "/tmp/rsv_copy_XXXXXX", path[64];
    write_12_3(dir, path, sizeof path);

    int before = open_fds();
    for (int fault = 0; fault < 2; fault++) {
        rsv_kv03_file f;
        memset(&f, 0, sizeof f);
        long live = live_blocks, maps = live_maps;
        pio_calls = 0;
        if (fault == 0) pread_zero = 1; /* the file shrank to 0 bytes */
        else pio_fail = 1;              /* the read failed */
        errno = 0;
        rsv_status st = rsv_kv03_open_path_copy(path, NULL, &f);
        int err = errno;
        int left = pread_zero + pio_fail;
        pread_zero = pio_fail = 0;
        cr_assert_eq(left, 0, "fault %d: open_path_copy made no pread", fault);
        cr_assert_eq(st, RSV_ERR_IO, "fault %d (%s): %s, want RSV_ERR_IO", fault,
                     fault ? "pread failed" : "the file shrank", rsv_status_name(st));
        cr_assert_eq(err, EIO, "fault %d: errno %d, want EIO", fault, err);
        cr_assert_eq(pio_calls, 1, "fault %d: pread called %ld times", fault, pio_calls);
        cr_assert_eq(open_fds(), before, "fault %d: a descriptor leaked", fault);
        cr_assert_eq(live_blocks, live, "fault %d: %ld blocks not freed", fault, live_blocks - live);
        cr_assert_eq(live_maps, maps, "fault %d: %ld mappings left behind", fault, live_maps - maps);
    }

    /* no fault: the §12.3 bytes, in a private copy that is read-only */
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open_path_copy(path, NULL, &f), RSV_OK);
    cr_assert_eq(f.size, 360);
    cr_assert(memcmp(f.bytes, FILE_12_3, 360) == 0, "the copy is not the §12.3 file");
    char perms[5];
    cr_assert(map_perms(f.bytes, perms), "the copy is in no mapping");
    cr_assert(perms[0] == 'r' && perms[1] == '-', "the copy is mapped \"%s\", want read-only", perms);
    rsv_kv03_close(&f);
    cr_assert_eq(open_fds(), before);
    cr_assert_eq(unlink(path), 0);
    cr_assert_eq(rmdir(dir), 0);
}

/* kv03.h: "A file whose size size_t cannot hold, or that reports a negative
 * size, is RSV_ERR_IO with errno EFBIG before anything is mapped or read",
 * for both opens (rsv__open_regular, file_io.c). fstat reports st_size = -1
 * (fault_wrap.c); without the check the size would read as 2^64 - 1 and the
 * open fail later, in mmap, with another errno (ENOMEM). Found by the
 * seed-151 sample (the check deleted: file_io_c.sdl.60da4292). */
Test(fault_write, open_of_a_file_of_negative_size_is_efbig)
{
    char dir[] = "/tmp/rsv_size_XXXXXX", path[64];
    write_12_3(dir, path, sizeof path);
    int before = open_fds();
    for (int copy = 0; copy < 2; copy++) {
        rsv_kv03_file f;
        memset(&f, 0, sizeof f);
        pio_calls = 0;
        fstat_negative = 1;
        errno = 0;
        rsv_status st = copy ? rsv_kv03_open_path_copy(path, NULL, &f) : rsv_kv03_open_path(path, NULL, &f);
        int err = errno, left = fstat_negative;
        fstat_negative = 0;
        cr_assert_eq(left, 0, "open %d made no fstat", copy);
        cr_assert_eq(st, RSV_ERR_IO, "open %d: %s, want RSV_ERR_IO", copy, rsv_status_name(st));
        cr_assert_eq(err, EFBIG, "open %d: errno %d (%s), want EFBIG", copy, err, strerror(err));
        cr_assert_eq(pio_calls, 0, "open %d read the file", copy);
        cr_assert_eq(open_fds(), before, "open %d: a descriptor leaked", copy);
        /* the same file without the fault opens */
        st = copy ? rsv_kv03_open_path_copy(path, NULL, &f) : rsv_kv03_open_path(path, NULL, &f);
        cr_assert_eq(st, RSV_OK, "open %d without the fault: %s", copy, rsv_status_name(st));
        cr_assert_eq(f.size, 360);
        rsv_kv03_close(&f);
    }
    cr_assert_eq(unlink(path), 0);
    cr_assert_eq(rmdir(dir), 0);
}

/* rsv__pwrite_all / rsv__pread_all (kv03_layout.h): "a transfer that would
 * start past INT64_MAX, off_t's largest value, is -1 with EFBIG before any
 * call". At INT64_MAX itself the call is made (here failed by the wrapper
 * with EIO, so nothing reaches the kernel); at INT64_MAX + 1 and 2^64 - 1 no
 * call is made. Found by the seed-157 sample (the check deleted:
 * file_io_c.sdl.b0d21a9a; pwrite then got a negative offset). */
Test(fault_write, positioned_io_past_the_largest_offset_is_efbig)
{
    int fd = open("/dev/null", O_RDWR);
    cr_assert(fd >= 0);
    static const uint64_t at[3] = {(uint64_t)INT64_MAX, (uint64_t)INT64_MAX + 1, UINT64_MAX};
    for (int rd = 0; rd < 2; rd++)
        for (int k = 0; k < 3; k++) {
            char buf[4] = "abc";
            pio_calls = 0;
            pio_fail = k == 0;
            errno = 0;
            int rc = rd ? rsv__pread_all(fd, buf, 3, at[k]) : rsv__pwrite_all(fd, buf, 3, at[k]);
            int err = errno;
            pio_fail = 0;
            cr_assert_eq(rc, -1, "%s at %llu: %d", rd ? "pread" : "pwrite", (unsigned long long)at[k], rc);
            cr_assert_eq(pio_calls, k == 0, "%s at %llu: %ld calls", rd ? "pread" : "pwrite",
                         (unsigned long long)at[k], pio_calls);
            cr_assert_eq(err, k == 0 ? EIO : EFBIG, "%s at %llu: errno %d", rd ? "pread" : "pwrite",
                         (unsigned long long)at[k], err);
        }
    close(fd);
}

/* merge.h: a failure of the output in finish or commit is not an input's
 * (failed_input = n), at the output's record count and bit 0, and poisons
 * the merge. §12.3 merged with itself (four output records): an in-memory
 * finish whose allocations fail in turn, and a path merge whose commit fails
 * at the temporary's fsync. */
static void expect_output_failure(rsv_merge *m, rsv_status want, const char *what)
{
    rsv_kv03_diag dg = rsv_merge_diag(m);
    cr_assert_eq(dg.status, want, "%s: %s", what, rsv_status_name(dg.status));
    cr_assert_eq(dg.record, 4, "%s: record %llu", what, (unsigned long long)dg.record);
    cr_assert_eq(dg.bit, 0, "%s: bit %llu", what, (unsigned long long)dg.bit);
    cr_assert_eq(rsv_merge_failed_input(m), 2, "%s", what);
    uint8_t *out = NULL;
    size_t n = 0;
    cr_assert_eq(rsv_merge_finish(m, &out, &n), RSV_ERR_POISONED, "%s", what);
    cr_assert_eq(rsv_merge_commit(m), RSV_ERR_POISONED, "%s", what);
}

Test(fault_write, merge_output_failures_are_the_outputs)
{
    rsv_kv03_file a;
    cr_assert_eq(rsv_kv03_open(FILE_12_3, 360, NULL, &a), RSV_OK);
    const rsv_kv03_file *in[2] = {&a, &a};
    long k, nomem = 0;
    for (k = 0; k < 100; k++) {
        rsv_merge m;
        cr_assert_eq(rsv_merge_init(&m, in, 2, 0), RSV_OK);
        cr_assert_eq(rsv_merge_run(&m), RSV_OK);
        uint8_t *out = NULL;
        size_t n = 0;
        arm_alloc(k);
        rsv_status st = rsv_merge_finish(&m, &out, &n);
        int failed = alloc_failed;
        disarm_alloc();
        if (st == RSV_OK) {
            expect_file_12_3(out, n, "merge finish");
            free(out);
            rsv_merge_free(&m);
            if (!failed) break;
            continue;
        }
        cr_assert_eq(st, RSV_ERR_NOMEM, "k %ld: %s", k, rsv_status_name(st));
        expect_output_failure(&m, RSV_ERR_NOMEM, "in-memory finish");
        rsv_merge_free(&m);
        nomem++;
    }
    cr_assert_lt(k, 100);
    cr_assert_gt(nomem, 0, "no allocation of the merge's finish failed");

    char dir[] = "/tmp/rsv_fault_mc_XXXXXX", path[64];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/out.kv", dir);
    rsv_merge m;
    cr_assert_eq(rsv_merge_init_path(&m, in, 2, 0, path), RSV_OK);
    cr_assert_eq(rsv_merge_run(&m), RSV_OK);
    fsync_calls = 0;
    fsync_fail_at = 1; /* the temporary's */
    rsv_status st = rsv_merge_commit(&m);
    int failed = fsync_fail_at == 0;
    fsync_fail_at = 0;
    cr_assert(failed && st == RSV_ERR_IO, "commit: %s", rsv_status_name(st));
    expect_output_failure(&m, RSV_ERR_IO, "commit");
    rsv_merge_free(&m);
    cr_assert_eq(entries(dir), 0, "a file was left after the failed commit");
    cr_assert_eq(rmdir(dir), 0);
    rsv_kv03_close(&a);
}
