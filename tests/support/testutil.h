/* Shared helpers for tests, drivers, fuzz seed generators: the seeded PRNG
 * (splitmix64.h) and the one parser for the spec's bit-string notation
 * ("0^64 1 0^63"). */
#ifndef RSV_TESTUTIL_H
#define RSV_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

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

#endif
