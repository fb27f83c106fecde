/* Private: KV03 envelope/directory field offsets and little-endian helpers
 * shared by the writer, open and scan (KV03.md §5.1, §7). */
#ifndef RSV_KV03_LAYOUT_H
#define RSV_KV03_LAYOUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "reservoir/status.h"
#include "mem.h"

/* envelope (§7) */
#define HDR_MAGIC 0
#define HDR_VERSION 8
#define HDR_LENGTH 10
#define HDR_FLAGS 12
#define HDR_UNIT 16
#define HDR_CHECKSUM 17
#define HDR_BACKSPACE 18
#define HDR_RESERVED 19
#define HDR_W 20
#define HDR_K 24
#define HDR_POLICY_WIDTH 32
#define HDR_CW 40
#define HDR_BODY_EXTENT 48
#define HDR_N 56
#define HDR_BODY_CRC 64
#define HDR_HEADER_CRC 68
#define HDR_BODY_OFFSET 72
#define HDR_TOTAL 80
#define HDR_PARAM 88

/* directory (§5.1), body-relative */
#define DIR_MAGIC 0
#define DIR_REVISION 4
#define DIR_COUNT 6
#define DIR_EXTENT 8
#define DIR_TERMINAL 16
#define DIR_UNIVERSE 24
#define DIR_DICT_BITS 32
#define DIR_SEED_BITS 40
#define DIR_LOW_WIDTH 48
#define DIR_SECTIONS 64

#define FLAG_FIXED_WIDTH 1u
#define FLAG_COMMON_WIDTH 2u

/* Little-endian header and directory fields: mem.h's load and store. */
#define rsv__le(p, n) rsv__load_le_n((p), (n))
#define rsv__put_le(p, x, n) rsv__store_le_n((p), (x), (n))
static inline uint64_t rsv__ceil8(uint64_t bits) { return bits / 8 + (bits % 8 != 0); }
static inline uint64_t rsv__ceil_div(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

/* Section offsets of a body whose sections have these byte lengths, and the
 * body's end (kv03_envelope.c); RSV_ERR_TOO_LARGE past UINT64_MAX / 8 bytes. */
rsv_status rsv__kv03_place(const uint64_t len[8], uint64_t off[8], uint64_t *body);

/* Header CRC: all 96 bytes with bytes 68..71 taken as zero. */
uint32_t rsv__kv03_header_crc(const uint8_t *hdr);
/* rsv_crc32c(crc, n zero bytes) without a buffer (crc32c.c). */
uint32_t rsv__crc32c_zeros(uint32_t crc, size_t n);

/* Atomic file output and read-only mapping (file_io.c). */
int rsv__write_file_atomic(const char *path, const void *bytes, size_t n);
/* Primitives (0 or an fd on success, -1 with errno on failure): create
 * `path.tmp.XXXXXX` with O_CLOEXEC (*tmp malloc'd; the stem shortened to keep
 * the name within NAME_MAX; mode = an existing path's permission bits, else
 * 0666 & ~umask; an existing non-regular `path` refused with EISDIR/EEXIST), full write / pwrite /
 * pread with EINTR and short-transfer handling (a call that transfers 0 of n > 0 bytes is -1 at
 * once, never retried; pread's errno is then EIO; a transfer that would start
 * past INT64_MAX, off_t's largest value, is -1 with EFBIG before any call), fsync of
 * path's directory. */
int rsv__tmp_create(const char *path, char **tmp);
int rsv__write_all(int fd, const void *buf, size_t n);
int rsv__pwrite_all(int fd, const void *buf, size_t n, uint64_t at);
int rsv__pread_all(int fd, void *buf, size_t n, uint64_t at);
int rsv__sync_dir(const char *path);
int rsv__map_file(const char *path, void **map, size_t *len);
/* Regular files only (see file_io.c): an fd and the size, or -1 with errno
 * (EISDIR, EINVAL for a FIFO / device / socket, EFBIG for a size that is
 * negative or does not fit size_t). Never blocks on a FIFO. */
int rsv__open_regular(const char *path, uint64_t *size);
/* Like rsv__map_file, but the bytes are read (pread) into anonymous memory:
 * immune to the file shrinking afterwards. Released by rsv__unmap_file. */
int rsv__copy_file(const char *path, void **map, size_t *len);
void rsv__unmap_file(void *map, size_t len);

#endif
