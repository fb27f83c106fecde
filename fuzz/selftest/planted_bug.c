/* Planted-bug self-test target (never part of RSV_FUZZ_TARGETS, never linked
 * into the library): proves that the fuzzing pipeline — engine, sanitizer,
 * artifact naming, reproduce command — finds a bug that hides behind a 4-byte
 * magic value. `fuzz/fuzz selftest` builds it directly with clang or
 * afl-clang-fast; ctest runs it as fuzz_selftest_libfuzzer / _afl.
 *
 * The magic is compared as one 32-bit value, so blind mutation has a 2^-32
 * chance per input: finding it within seconds requires the comparison
 * feedback (libFuzzer's -fsanitize=fuzzer trace-cmp / memcmp hooks, AFL++'s
 * CmpLog) or the dictionary planted_bug.dict. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4 || memcmp(data, "RSV!", 4) != 0) return 0;
    /* The planted bug: read one byte past a heap copy of the input. ASan
     * reports a heap-buffer-overflow here; a build without ASan (the AFL++
     * CmpLog binary) would read silently, so trap as well to crash anyway. */
    uint8_t *copy = malloc(size);
    if (!copy) return 0;
    memcpy(copy, data, size);
    volatile uint8_t past_end = copy[size];
    free(copy);
    (void)past_end;
    __builtin_trap();
}
