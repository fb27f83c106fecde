#include "testutil.h"

#include <ctype.h>
#include <stdlib.h>

void rsv_set_bit(uint8_t *buf, uint64_t i, unsigned b)
{
    uint8_t m = (uint8_t)(0x80u >> (i & 7));
    if (b)
        buf[i >> 3] |= m;
    else
        buf[i >> 3] &= (uint8_t)~m;
}

unsigned rsv_get_bit(const uint8_t *buf, uint64_t i) { return (buf[i >> 3] >> (7 - (i & 7))) & 1u; }

static uint64_t parse(const char *s, uint8_t *buf, size_t cap, uint64_t off, int write)
{
    uint64_t n = 0;
    while (*s) {
        if (isspace((unsigned char)*s)) {
            s++;
            continue;
        }
        if (*s != '0' && *s != '1') return UINT64_MAX;
        unsigned b = (unsigned)(*s - '0');
        s++;
        uint64_t rep = 1;
        if (*s == '^') {
            char *end;
            s++;
            if (!isdigit((unsigned char)*s)) return UINT64_MAX;
            rep = strtoull(s, &end, 10);
            s = end;
        }
        for (uint64_t i = 0; i < rep; i++) {
            if (write) {
                if ((off + n) / 8 >= cap) return UINT64_MAX;
                rsv_set_bit(buf, off + n, b);
            }
            n++;
        }
    }
    return n;
}

uint64_t rsv_parse_bits(const char *spec, uint8_t *buf, size_t cap, uint64_t off)
{
    return parse(spec, buf, cap, off, 1);
}

uint64_t rsv_count_bits(const char *spec) { return parse(spec, NULL, 0, 0, 0); }

void rsv_bits_to_string(const uint8_t *buf, uint64_t off, uint64_t n, char *out)
{
    for (uint64_t i = 0; i < n; i++) out[i] = (char)('0' + rsv_get_bit(buf, off + i));
    out[n] = 0;
}

/* The n view bits from pos, left-aligned, zero below (1 <= n <= 64,
 * pos + n <= len): CODES.md §1's MSB-first bit order, byte by byte, loading
 * only the bytes that hold them (cheaper than the oracle's bit walk, which
 * would slow every suite by a fifth to two fifths). */
static uint64_t view_top_bits(rsv_view v, uint64_t pos, unsigned n)
{
    uint64_t bit = v.off + pos, b0 = bit >> 3, b1 = (bit + n - 1) >> 3, x = 0;
    unsigned have = 0;
    for (uint64_t b = b0; b <= b1; b++) {
        unsigned skip = b == b0 ? (unsigned)(bit & 7) : 0, bits = 8 - skip;
        uint64_t part = v.data[b] & (0xFFu >> skip);
        int sh = 64 - (int)have - (int)bits; /* -7 .. 63 */
        x |= sh >= 0 ? part << sh : part >> -sh;
        have += bits;
    }
    return n == 64 ? x : x & ~(UINT64_MAX >> n);
}

int rsv_test_reader_state_ok(const rsv_reader *r)
{
    rsv_view v = rsv_reader_view(r);
    uint64_t pos = rsv_reader_position(r);
    if (r->n > 64 || pos > v.len || r->n > v.len - pos) return 0;
    if (r->n == 0) return r->cache == 0;
    return r->cache == view_top_bits(v, pos, r->n);
}
