/* rsv — selector codes as text and bit strings (see selector.h). */
#include "selector.h"

#include <string.h>

#include "reservoir/record.h"

static unsigned bit_at(const uint8_t *p, uint64_t i)
{
    return (unsigned)(p[i / 8] >> (7 - i % 8)) & 1u;
}

rsv_status cli_selector_parse(const uint8_t *s, size_t n, uint8_t *out, size_t *bad)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != '0' && s[i] != '1') {
            *bad = i;
            return RSV_ERR_INVALID_ARGUMENT;
        }
    if (n > RSV_KV03_MAX_CODE_BITS) {
        *bad = RSV_KV03_MAX_CODE_BITS;
        return RSV_ERR_TOO_LARGE;
    }
    memset(out, 0, CLI_SELECTOR_BYTES);
    for (size_t i = 0; i < n; i++)
        if (s[i] == '1') out[i / 8] |= (uint8_t)(0x80u >> (i % 8));
    return RSV_OK;
}

void cli_put_selector(FILE *out, const uint8_t *code, uint64_t bits)
{
    for (uint64_t i = 0; i < bits; i++) putc('0' + (int)bit_at(code, i), out);
}

void cli_put_selector_view(FILE *out, rsv_view code)
{
    for (uint64_t i = 0; i < code.len; i++) putc('0' + (int)bit_at(code.data, code.off + i), out);
}

void cli_selector_text(char *buf, const uint8_t *code, uint64_t bits)
{
    for (uint64_t i = 0; i < bits; i++) buf[i] = (char)('0' + bit_at(code, i));
    buf[bits] = '\0';
}

void cli_selector_view_text(char *buf, rsv_view code)
{
    for (uint64_t i = 0; i < code.len; i++) buf[i] = (char)('0' + bit_at(code.data, code.off + i));
    buf[code.len] = '\0';
}

void cli_selector_from_view(uint8_t *out, rsv_view code)
{
    memset(out, 0, CLI_SELECTOR_BYTES);
    for (uint64_t i = 0; i < code.len; i++)
        out[i / 8] |= (uint8_t)(bit_at(code.data, code.off + i) << (7 - i % 8));
}

/* Length of the common prefix of the first n bits of a and b. */
static uint64_t common_bits(const uint8_t *a, const uint8_t *b, uint64_t n)
{
    uint64_t i = 0;
    while (i + 8 <= n && a[i / 8] == b[i / 8]) i += 8;
    while (i < n && bit_at(a, i) == bit_at(b, i)) i++;
    return i;
}

int cli_selector_conflict(const uint8_t *a, uint64_t abits, const uint8_t *b, uint64_t bbits)
{
    uint64_t n = abits < bbits ? abits : bbits;
    return abits != bbits && common_bits(a, b, n) == n;
}

/* Bit i of the logical key code ‖ key bits. */
static unsigned logical_bit(const uint8_t *code, uint64_t cbits, const uint8_t *key, uint64_t i)
{
    return i < cbits ? bit_at(code, i) : bit_at(key, i - cbits);
}

int cli_logical_compare(const uint8_t *acode, uint64_t abits, const uint8_t *akey, size_t alen,
                        const uint8_t *bcode, uint64_t bbits, const uint8_t *bkey, size_t blen)
{
    uint64_t n = abits < bbits ? abits : bbits;
    uint64_t same = common_bits(acode, bcode, n);
    if (same < n) return (int)bit_at(acode, same) - (int)bit_at(bcode, same);
    if (abits == bbits) return rsv_key_compare(akey, alen, bkey, blen);
    /* One code is a proper prefix of the other (codes that are not
     * prefix-free; the writer rejects them, but the order stays §1.2's):
     * compare the rest bit by bit. */
    uint64_t la = abits + 8 * (uint64_t)alen, lb = bbits + 8 * (uint64_t)blen;
    uint64_t end = la < lb ? la : lb;
    for (uint64_t i = n; i < end; i++) {
        unsigned x = logical_bit(acode, abits, akey, i), y = logical_bit(bcode, bbits, bkey, i);
        if (x != y) return (int)x - (int)y;
    }
    return (la > lb) - (la < lb);
}
