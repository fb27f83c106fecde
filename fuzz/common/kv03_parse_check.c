/* The fuzz targets' KV03 file check: the bytes are copied so that they end
 * flush against a PROT_NONE page (guard_arena.h), so any load past the last
 * byte faults, and the comparison engine (tests/support/kv03_diff.h, the
 * same one the tests and guard-page drivers use) runs with hooks that poison
 * every arena byte outside the window a codec call may load (open: the
 * 96-byte header and the 192-byte directory, §9.1; walkers: sections 0..7,
 * docs/kv03.md). The engine lists what is compared. */
#include "kv03_parse_check.h"

#include <string.h>

#include "guard_arena.h"
#include "kv03_diff.h"
#include "kv03_fuzz.h"

static void narrow(void *ctx, const uint8_t *lo, const uint8_t *hi)
{
    (void)ctx;
    rsv_fuzz_arena_poison_outside(lo, hi);
}

static void widen(void *ctx)
{
    (void)ctx;
    rsv_fuzz_arena_unpoison();
}

void rsv_kvf_file_check(const char *target, const uint8_t *data, size_t size, const rsv_record *want,
                        size_t nwant)
{
    static const rsv_kv03d_hooks hooks = {NULL, narrow, widen};
    static rsv_kv03d_report rep; /* its message buffer off the stack */
    rsv_kv03d_report_init(&rep);
    rep.hooks = &hooks;
    if (size > RSV_FUZZ_ARENA_MAX) size = RSV_FUZZ_ARENA_MAX; /* never with the configured max_len */
    const uint8_t *file = rsv_fuzz_arena_place(data, size);
    if (!rsv_kv03d_file(file, size, NULL, want, nwant, &rep)) {
        rsv_kvf_dump("file", file, size);
        rsv_kvf_fail(target, "%s", rep.msg);
    }
    rsv_fuzz_arena_unpoison();
}

void rsv_kvf_parse_check(const char *target, const uint8_t *data, size_t size)
{
    rsv_kvf_file_check(target, data, size, NULL, 0);
}
