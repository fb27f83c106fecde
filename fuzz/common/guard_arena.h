/* One large tail-guarded region per process for the fuzz targets
 * (CODES.md §1.2 A1: "the view may end immediately before an unmapped page").
 *
 * Mapping a fresh guard page per input would dominate the run time, so the
 * arena is mapped once, lazily, and every input's bytes are copied to its END:
 * the copy ends flush against a PROT_NONE page, and any load past the last
 * payload byte faults at once (the fuzzer records the crash).
 *
 * Under AddressSanitizer the arena can also poison the bytes around a range,
 * so a load below the reader position (A4) or past the view's last byte
 * while unused payload bytes follow it (A1) is reported too. Above the range
 * the check is exact; below it ASan can only poison whole 8-byte granules,
 * so it is exact to within 7 bytes (never a false alarm). Without ASan the
 * poison calls do nothing. In RSV_LOAD_CHECK builds the same range is also
 * declared as the load-bounds oracle's window (docs/design.md), which is
 * exact to the byte on both sides and also covers loads the codec makes
 * outside the arena. */
#ifndef RSV_FUZZ_GUARD_ARENA_H
#define RSV_FUZZ_GUARD_ARENA_H

#include <stddef.h>
#include <stdint.h>

/* Largest payload the arena accepts. Bytes below the payload stay mapped
 * (at least RSV_FUZZ_ARENA_SLACK of them), so targets may place a view's data
 * pointer a few bytes before the payload. */
#define RSV_FUZZ_ARENA_MAX ((size_t)1 << 20)
#define RSV_FUZZ_ARENA_SLACK ((size_t)4096)

/* Copy bytes[0..n) (n <= RSV_FUZZ_ARENA_MAX) so that it ends flush against
 * the guard page; returns the copy's first byte (== the guard page when
 * n = 0). Clears all poisoning first. Aborts if the arena cannot be mapped. */
uint8_t *rsv_fuzz_arena_place(const void *bytes, size_t n);

/* Poison the arena outside [lo, hi) (lo <= hi, both inside the arena or at
 * the guard page address): the RSV_FUZZ_ARENA_SLACK bytes below lo and every
 * byte from hi up to the guard page. Any earlier poisoning is removed first.
 * No-op without ASan. */
void rsv_fuzz_arena_poison_outside(const void *lo, const void *hi);

/* Remove all poisoning. */
void rsv_fuzz_arena_unpoison(void);

#endif
