/* The fault-injection test executable (ctest test_fault_injection):
 * allocation, write, pwrite/pread and fchmod failures (and short positioned
 * transfers, calls of no progress), injected at link time (docs/mutation.md, "Fault injection").
 * It links the static codec with -Wl,--wrap=malloc,--wrap=calloc,
 * --wrap=realloc,--wrap=free,--wrap=write,--wrap=pwrite,--wrap=pread,
 * --wrap=fchmod, --wrap=fsync, --wrap=fstat, --wrap=close, --wrap=mmap,
 * --wrap=munmap, so every call the codec's objects (and these files) make to
 * those functions lands in the __wrap_ functions of fault_wrap.c; nothing of
 * this reaches the production library, its API or any other test.
 *
 * Files: fault_wrap.c (the wrappers and their counters), fault_ops.c (the
 * operations, the expected files and the allocation sweep),
 * test_fault_alloc.c (allocation sweeps, leaks, growth), test_fault_io.c
 * (write, positioned I/O, the copying open, fchmod, directory fsync), test_fault_reuse.c
 * (a buffer at exactly its capacity is not grown: warm rescans, code list,
 * keys, block offsets, size hints, the merge's key and code sort), test_fault_finish.c (the in-memory
 * finish keeps a buffer of the file's size to twice it),
 * test_fault_limits.c (length limits: the largest admitted length tries its
 * allocation, one more is TOO_LARGE), test_guarded_heap.c (every allocation
 * flush against a PROT_NONE page).
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
 * KV03.md, byte for byte. A sweep fails if no run returned RSV_ERR_NOMEM,
 * and a run fails if it asked for zero bytes (zero_allocs, below).
 * Swept: the path writer, the in-memory writer, the batch encoder, the merge
 * in memory (of §12.3, and of the §12.5 multi-code file, whose output is
 * §12.5 again) and to a path, and (read_sweep) the cursor with a scan and a
 * record stream written and read back, each record's key and value bytes
 * checked (a value copied out of an unaligned position needs an allocation).
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
#ifndef RSV_TEST_FAULT_H
#define RSV_TEST_FAULT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

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
/* codec/src/kv03_writer.h (internal): the merge's output-size hint; a failed
 * realloc is RSV_ERR_NOMEM and leaves the buffer as it was */
rsv_status rsv__kv03_writer_presize(rsv_kv03_writer *w, uint64_t bytes);

/* ---- fault_wrap.c ---- */
ssize_t __real_pread(int fd, void *p, size_t n, off_t at); /* the unwrapped call, for checks */
extern long alloc_count;   /* allocations since arm_alloc */
extern int alloc_failed;   /* the armed failure happened */
extern long live_blocks;   /* blocks allocated through the wrappers and not freed */
/* Requests for zero bytes: C17 7.22.3 leaves their result to the
 * implementation (NULL or a unique pointer), so the codec never makes one
 * (a NULL would read as RSV_ERR_NOMEM on some C libraries only). */
extern long zero_allocs;
/* close() calls that failed with EBADF (a descriptor closed twice): every
 * sweep run requires none. */
extern long close_ebadf;
extern long live_maps; /* mappings made by mmap through the wrappers and not yet unmapped */
extern int guarded;        /* guarded mode: every allocation flush against a PROT_NONE page */
extern size_t ngblocks;    /* live guarded blocks */
extern int write_zero;     /* the next write_zero write calls return 0 (errno EINTR) */
extern int write_fail, write_fail_errno; /* the next write_fail write calls fail: -1, errno write_fail_errno */
extern int write_short;    /* > 0: each write moves at most that many bytes */
extern long write_calls;
extern int pio_fail, pio_short, fchmod_fail; /* pwrite/pread failures, short transfers; fchmod failures */
extern int pwrite_zero, pread_zero; /* the next pwrite / pread calls return 0 (errno EINTR) */
extern long pio_calls;
extern int fstat_negative; /* the next fstat_negative fstat calls report st_size = -1 */
extern long fsync_calls, fsync_fail_at; /* fsync: calls made; the fsync_fail_at-th from now fails (EIO) */
extern long close_calls, close_fail_at; /* close: calls made; the close_fail_at-th from now fails (EIO), the
                                        * descriptor released all the same, as Linux does */
/* The k-th allocation from now on fails (k < 0: none); disarm: none. */
void arm_alloc(long k);
void disarm_alloc(void);

/* ---- fault_ops.c ---- */
/* An operation that writes §12's records (or merges §12.3 with itself): an
 * in-memory result in *out / *n, or dir/out.kv for a path operation. */
typedef rsv_status (*operation)(const char *dir, uint8_t **out, size_t *n);
rsv_status op_path_writer(const char *dir, uint8_t **out, size_t *n);
rsv_status op_memory_writer(const char *dir, uint8_t **out, size_t *n);
rsv_status op_merge(const char *dir, uint8_t **out, size_t *n);
rsv_status op_merge_v2(const char *dir, uint8_t **out, size_t *n);
rsv_status op_merge3(const char *dir, uint8_t **out, size_t *n);
rsv_status op_merge_path(const char *dir, uint8_t **out, size_t *n);
rsv_status op_encode(const char *dir, uint8_t **out, size_t *n);
/* The allocation sweep of an operation (above). path_op: it writes dir/out.kv. */
void sweep(operation op, int path_op, const char *what);
/* The records the operations add: §12's (NULL), or copies (guarded heap). */
extern const rsv_record *recs;
rsv_status add_12(rsv_kv03_writer *w);
/* 1: successful runs must give the §12.5 file instead of §12.3 */
extern int want_12_5;
void expect_file_12_3(const uint8_t *got, size_t n, const char *what);
/* Add §12's records to the in-memory writer w, finish it, require the §12.3
 * file, free both, and require the live block count back at `live`. */
void finish_12_3_and_free(rsv_kv03_writer *w, long live, const char *what);
void expect_path_12_3(const char *path, const char *what);
int entries(const char *dir); /* directory entries but . and .. */
/* rec[0..n) batch-encoded with the default policy and C0 into *file (free()
 * it), opened into f. */
void encode_open(const rsv_record *rec, size_t n, uint8_t **file, size_t *len, rsv_kv03_file *f);
/* A default in-memory writer, its first data buffer checked to be 512 bytes
 * (the capacity the exact-capacity tests count from). */
void init_default_writer(rsv_kv03_writer *w);
int exists(const char *path);

#endif
