/* Byte-string keys (KV03.md §1.1, §2): order, bit-level lcp, the two
 * front-coding forms and the bit copies a cursor needs to rebuild a key in
 * place. */
#include <string.h>

#include "reservoir/expgolomb.h"
#include "reservoir/record.h"

#include "bits.h"
#include "mem.h"

int rsv_key_compare(const uint8_t *a, size_t na, const uint8_t *b, size_t nb)
{
    size_t n = na < nb ? na : nb;
    int c = n ? memcmp(a, b, n) : 0;
    if (c) return c;
    return na < nb ? -1 : na > nb ? 1 : 0;
}

uint64_t rsv_key_lcp_bits(const uint8_t *a, size_t na, const uint8_t *b, size_t nb)
{
    size_t n = na < nb ? na : nb, i = 0;
    while (i + 8 <= n && memcmp(a + i, b + i, 8) == 0) i += 8;
    while (i < n && a[i] == b[i]) i++;
    if (i == n) return (uint64_t)n * 8;
    unsigned x = (unsigned)(a[i] ^ b[i]); /* nonzero, < 256 */
    unsigned z = 0;
    while (!(x & 0x80u)) {
        x <<= 1;
        z++;
    }
    return (uint64_t)i * 8 + z;
}

rsv_status rsv_put_key_fc(rsv_writer *w, const uint8_t *prev, size_t nprev, const uint8_t *key,
                          size_t nkey)
{
    if ((nprev && !prev) || (nkey && !key)) return RSV_ERR_INVALID_ARGUMENT;
    if ((uint64_t)nprev > UINT64_MAX / 8 || (uint64_t)nkey > (UINT64_MAX - 258) / 8)
        return RSV_ERR_TOO_LARGE;
    uint64_t kept = rsv_key_lcp_bits(prev, nprev, key, nkey);
    uint64_t bk = (uint64_t)nprev * 8 - kept, s = (uint64_t)nkey * 8 - kept;
    rsv_status st = rsv_writer_reserve(w, rsv_eg_length(bk, 0) + rsv_eg_length(s, 0) + s);
    if (st) return st;
    rsv_put_eg(w, bk, 0);
    rsv_put_eg(w, s, 0);
    return rsv_put_view(w, rsv_view_make(key, kept, s));
}

rsv_status rsv_put_key_kv03(rsv_writer *w, const uint8_t *key, size_t nkey, uint64_t local)
{
    if (nkey && !key) return RSV_ERR_INVALID_ARGUMENT;
    if ((uint64_t)nkey > (UINT64_MAX - 129) / 8) return RSV_ERR_TOO_LARGE;
    if (local > (uint64_t)nkey * 8) return RSV_ERR_INVALID_ARGUMENT;
    uint64_t s = (uint64_t)nkey * 8 - local;
    rsv_status st = rsv_writer_reserve(w, rsv_eg_length(s, 0) + s);
    if (st) return st;
    rsv_put_eg(w, s, 0);
    return rsv_put_view(w, rsv_view_make(key, local, s));
}

int rsv_view_compare(rsv_view a, rsv_view b)
{
    uint64_t lcp;
    return rsv_view_lcp(a, b, &lcp);
}

int rsv_view_lcp(rsv_view a, rsv_view b, uint64_t *lcp)
{
    rsv_reader ra, rb;
    rsv_reader_init(&ra, a);
    rsv_reader_init(&rb, b);
    for (;;) {
        uint64_t ma = rsv_reader_remaining(&ra), mb = rsv_reader_remaining(&rb);
        uint64_t m = ma < mb ? ma : mb;
        if (m == 0) {
            *lcp = rsv_reader_position(&ra);
            return ma < mb ? -1 : ma > mb ? 1 : 0;
        }
        unsigned t = m < 64 ? (unsigned)m : 64;
        uint64_t x = 0, y = 0, p = rsv_reader_position(&ra);
        rsv_read(&ra, t, &x);
        rsv_read(&rb, t, &y);
        if (x != y) { /* x, y are t-bit fields: the first difference is at t - bitlen(x ^ y) */
            unsigned bl = 64u - rsv__clz64(x ^ y);
            *lcp = p + (t - bl);
            return x < y ? -1 : 1;
        }
    }
}

void rsv_bits_store(uint8_t *buf, uint64_t at, rsv_view v)
{
    if (v.len == 0) return;
    rsv_reader r;
    rsv_reader_init(&r, v);
    unsigned used = (unsigned)(at & 7);
    if (used) { /* complete the partial byte, keeping its first `used` bits */
        unsigned room = 8 - used;
        unsigned t = v.len < room ? (unsigned)v.len : room;
        uint64_t x = 0;
        rsv_read(&r, t, &x);
        uint8_t keep = (uint8_t)(0xFFu << room);
        buf[at >> 3] = (uint8_t)((buf[at >> 3] & keep) | (x << (room - t)));
        at += t;
    }
    uint8_t *dst = buf + (at >> 3); /* byte-aligned from here on */
    uint64_t rem = rsv_reader_remaining(&r);
    uint64_t src_bit = v.off + rsv_reader_position(&r);
    if ((src_bit & 7) == 0) { /* aligned source: plain copy */
        uint64_t nb = rem / 8;
        if (nb) rsv__load_copy_in(v.data + (src_bit >> 3), (size_t)nb, dst, RSV__READER_LO(&r), RSV__READER_HI(&r));
        dst += nb;
        rsv_skip(&r, nb * 8);
        rem -= nb * 8;
    }
    while (rem >= 64) {
        uint64_t x = 0;
        rsv_read(&r, 64, &x);
        rsv__store_be64(dst, x);
        dst += 8;
        rem -= 64;
    }
    while (rem >= 8) {
        uint64_t x = 0;
        rsv_read(&r, 8, &x);
        *dst++ = (uint8_t)x;
        rem -= 8;
    }
    if (rem) {
        uint64_t x = 0;
        rsv_read(&r, (unsigned)rem, &x);
        *dst = (uint8_t)(x << (8 - rem));
    }
}
