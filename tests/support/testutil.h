/* Shared helpers for tests, drivers, fuzz seed generators: the seeded PRNG
 * (splitmix64.h), the one parser for the spec's bit-string notation
 * ("0^64 1 0^63") and the one check of a reader's state invariant. */
#ifndef RSV_TESTUTIL_H
#define RSV_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "reservoir/reader.h"

#include "splitmix64.h" /* rsv_rng: the one PRNG */

/* Parse the spec notation into bits: '0' and '1' are bits, "x^n" repeats bit x
 * n times, spaces are ignored. Writes the bits MSB-first starting at bit
 * offset `off` of buf (other bits of buf are left as they are). Returns the
 * number of bits, or UINT64_MAX on a syntax error or when they would not fit
 * in `cap` bytes. */
uint64_t rsv_parse_bits(const char *spec, uint8_t *buf, size_t cap, uint64_t off);

/* Count the bits of a notation string without writing (UINT64_MAX on error). */
uint64_t rsv_count_bits(const char *spec);

/* Set / get bit i (MSB-first addressing, like a view with off = 0). */
void rsv_set_bit(uint8_t *buf, uint64_t i, unsigned b);
unsigned rsv_get_bit(const uint8_t *buf, uint64_t i);

/* Render `n` bits of buf starting at `off` as a '0'/'1' string (out must hold n+1). */
void rsv_bits_to_string(const uint8_t *buf, uint64_t off, uint64_t n, char *out);

/* reader.h's state invariant, which every reader exit keeps, failures
 * included: n <= 64, n <= the view bits left after pos, and the cache holds
 * the view bits [pos, pos + n) left-aligned and is zero below them (bits
 * taken from the view's bytes). The public calls read the same through a
 * stray cache bit below n (a refill overwrites it), so this is the one check
 * of the state itself: the reader comparison engine (diff.c) after every
 * operation, the KV03 and stream walks (kv03_diff.c, kv03_diff_file.c)
 * on their walkers' readers after every call. Loads only the bytes that hold
 * bits [pos, pos + n). */
int rsv_test_reader_state_ok(const rsv_reader *r);

#endif
