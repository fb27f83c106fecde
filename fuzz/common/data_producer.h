/* Fuzz data producer: turns the fuzzer's byte string into parameters and a
 * payload (modelled on zstd's FUZZ_dataProducer).
 *
 * Parameters are consumed from the END of the input and the payload is what
 * is left at the FRONT. Mutations of the payload then leave the parameters
 * alone and vice versa, and a truncated input still yields parameters (an
 * exhausted producer returns the minimum of every range: 0 for the fixed-size
 * getters), so every input is valid and every run is deterministic.
 *
 * Byte order: a k-byte value is assembled from the last byte backwards, the
 * last byte being the most significant. fuzz/gen_corpus.c writes seeds with
 * the exact mirror of these rules (rsv_fuzz_range_nbytes is shared). */
#ifndef RSV_FUZZ_DATA_PRODUCER_H
#define RSV_FUZZ_DATA_PRODUCER_H

#include <stddef.h>
#include <stdint.h>

typedef struct rsv_fuzz_producer {
    const uint8_t *data; /* front of the unconsumed bytes */
    size_t size;         /* unconsumed bytes; parameters shrink it from the end */
} rsv_fuzz_producer;

void rsv_fuzz_producer_init(rsv_fuzz_producer *p, const uint8_t *data, size_t size);

/* Bytes not consumed yet. */
size_t rsv_fuzz_remaining(const rsv_fuzz_producer *p);

/* Bytes a range of width `span` = max - min consumes: ceil(bitlen(span) / 8),
 * 0 for span 0 (a one-value range needs no input). */
unsigned rsv_fuzz_range_nbytes(uint64_t span);

/* A value in [min, max] (min <= max): rsv_fuzz_range_nbytes(max - min) bytes
 * from the end, raw, giving min + raw % (max - min + 1). */
uint64_t rsv_fuzz_range(rsv_fuzz_producer *p, uint64_t min, uint64_t max);

/* Fixed-size getters: 1, 2, 4, 8 bytes from the end (fewer if exhausted). */
uint8_t rsv_fuzz_u8(rsv_fuzz_producer *p);
uint16_t rsv_fuzz_u16(rsv_fuzz_producer *p);
uint32_t rsv_fuzz_u32(rsv_fuzz_producer *p);
uint64_t rsv_fuzz_u64(rsv_fuzz_producer *p);

/* Split off the last `n` bytes (n clamped to what remains) as a producer of
 * their own; `p` keeps the front. Used to separate an operation script (the
 * split-off part) from the payload (what stays in front). */
rsv_fuzz_producer rsv_fuzz_split_tail(rsv_fuzz_producer *p, size_t n);

/* Take all remaining bytes as the payload: returns the front pointer and sets
 * *n; the producer is empty afterwards. */
const uint8_t *rsv_fuzz_rest(rsv_fuzz_producer *p, size_t *n);

/* On a helper whose comparisons say nothing about the input's bytes (a sort
 * comparator's index tie-break, a hash loop, the producer's own byte
 * counting): no coverage instrumentation, so no trace-cmp call per compare
 * and no edge features for libFuzzer to keep books on. Clang only (the AFL++
 * and OSS-Fuzz builds are clang too; gcc builds have no such pass). */
#if defined(__clang__)
#define RSV_FUZZ_NO_COVERAGE __attribute__((no_sanitize("coverage")))
#else
#define RSV_FUZZ_NO_COVERAGE
#endif

/* 1 for one input in n (n >= 1), chosen by a hash of all `size` bytes
 * (64-bit FNV-1a, high 32 bits modulo n == 0): deterministic, and, unlike a
 * flag read from the input, independent of what the corpus holds. libFuzzer
 * keeps the inputs that reach new code, so a flag that turns on a costly
 * step (kv03_roundtrip's path writer) ends up set in far more than its share
 * of the mutated inputs; a mutant's hash is uniform whatever its parent's. */
int rsv_fuzz_one_in(const uint8_t *data, size_t size, unsigned n);

/* RSV_FUZZ_TRACE=1 (non-empty, not "0") in the environment: the targets
 * print what every input does (to read a seed or a crash input). Checked
 * once per process. */
int rsv_fuzz_tracing(void);

#endif
