/* Record sets for the KV03 differential tests (kv03_diff.h): random sorted
 * sets whose keys share long prefixes, split inside a byte, are prefixes of
 * each other, hold 0x00 bytes or are empty, with tombstone, present-empty and
 * 1..max_val-byte values; and the six-key universe of the bounded-exhaustive
 * tests. Keys and values are owned by the set. */
#ifndef RSV_KV03_DIFF_GEN_H
#define RSV_KV03_DIFF_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "reservoir/record.h"
#include "testutil.h"

typedef struct rsv_kv03d_set {
    rsv_record *r;
    size_t n;
    uint8_t **owned; /* every key and value buffer */
    size_t nowned;
} rsv_kv03d_set;

/* About n records (fewer after removing duplicate keys), keys of 0..max_key
 * bytes, values of 0..max_val bytes (1 in 6 a tombstone, 1 in 6 present-empty). */
/* Sort records by key (the oracle's order) and drop repeated keys, keeping
 * the first of each; returns the new count. */
size_t rsv_kv03d_sort_unique(rsv_record *r, size_t n);

rsv_kv03d_set rsv_kv03d_gen(rsv_rng *g, size_t n, size_t max_key, size_t max_val);
void rsv_kv03d_set_free(rsv_kv03d_set *s);

/* The universe {"", "\x00", "a", "ab", "abc", "b"} (sorted). Set s in
 * 0..4^nkeys−1 gives key j the state (s >> 2j) & 3: 0 absent, 1 tombstone,
 * 2 present-empty, 3 present "x". keys selects which universe keys are used
 * (indexes into the universe, increasing). Returns the record count. */
#define RSV_KV03D_UNIVERSE 6
size_t rsv_kv03d_universe_set(unsigned s, const unsigned *keys, unsigned nkeys, rsv_record *out);

#endif
