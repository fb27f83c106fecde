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
