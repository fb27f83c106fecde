/* rsv_kv03_open_path_copy: rsv_kv03_open_path for callers that cannot
 * promise the file stays whole while it is open (kv03.h, docs/kv03.md
 * "Mapped files"): the bytes are read into private memory once. */
#include "reservoir/kv03.h"

#include "kv03_layout.h"

rsv_status rsv_kv03_open_path_copy(const char *path, const rsv_kv03_policy *expected,
                                   rsv_kv03_file *out)
{
    if (!path || !out) return RSV_ERR_INVALID_ARGUMENT;
    void *mem = NULL; /* set by rsv__copy_file too; not relied on */
    size_t len = 0;
    if (rsv__copy_file(path, &mem, &len) != 0) return RSV_ERR_IO;
    rsv_status st = rsv_kv03_open(mem, len, expected, out);
    if (st) {
        rsv__unmap_file(mem, len);
        return st;
    }
    out->map = mem; /* rsv_kv03_close releases it with munmap, like a mapping */
    out->map_len = len;
    return RSV_OK;
}
