/* Fuzz data producer (see data_producer.h for the byte layout). */
#include "data_producer.h"

#include <stdlib.h>

void rsv_fuzz_producer_init(rsv_fuzz_producer *p, const uint8_t *data, size_t size)
{
    static const uint8_t empty[1];
    /* never keep NULL: `data + 0` on a null pointer is undefined in C */
    p->data = data ? data : empty;
    p->size = data ? size : 0;
}

size_t rsv_fuzz_remaining(const rsv_fuzz_producer *p) { return p->size; }

unsigned rsv_fuzz_range_nbytes(uint64_t span)
{
    unsigned n = 0;
    while (span) {
        n++;
        span >>= 8;
    }
    return n;
}

/* Up to `nbytes` (<= 8) bytes from the end, the last byte most significant. */
RSV_FUZZ_NO_COVERAGE static uint64_t take_back(rsv_fuzz_producer *p, unsigned nbytes)
{
    uint64_t x = 0;
    for (unsigned i = 0; i < nbytes && p->size > 0; i++) {
        x = (x << 8) | p->data[p->size - 1];
        p->size--;
    }
    return x;
}

uint64_t rsv_fuzz_range(rsv_fuzz_producer *p, uint64_t min, uint64_t max)
{
    if (max <= min) return min;
    uint64_t span = max - min;
    uint64_t raw = take_back(p, rsv_fuzz_range_nbytes(span));
    /* span + 1 wraps to 0 for the full u64 range: then raw is already uniform */
    return span == UINT64_MAX ? raw : min + raw % (span + 1);
}

uint8_t rsv_fuzz_u8(rsv_fuzz_producer *p) { return (uint8_t)take_back(p, 1); }
uint16_t rsv_fuzz_u16(rsv_fuzz_producer *p) { return (uint16_t)take_back(p, 2); }
uint32_t rsv_fuzz_u32(rsv_fuzz_producer *p) { return (uint32_t)take_back(p, 4); }
uint64_t rsv_fuzz_u64(rsv_fuzz_producer *p) { return take_back(p, 8); }

rsv_fuzz_producer rsv_fuzz_split_tail(rsv_fuzz_producer *p, size_t n)
{
    rsv_fuzz_producer t;
    if (n > p->size) n = p->size;
    t.data = p->data + (p->size - n);
    t.size = n;
    p->size -= n;
    return t;
}

const uint8_t *rsv_fuzz_rest(rsv_fuzz_producer *p, size_t *n)
{
    *n = p->size;
    p->size = 0;
    return p->data;
}

RSV_FUZZ_NO_COVERAGE int rsv_fuzz_one_in(const uint8_t *data, size_t size, unsigned n)
{
    uint64_t h = 14695981039346656037u; /* FNV-1a 64 offset basis */
    for (size_t i = 0; i < size; i++) {
        h ^= data[i];
        h *= 1099511628211u; /* FNV 64 prime */
    }
    return n <= 1 || (uint32_t)(h >> 32) % n == 0;
}

int rsv_fuzz_tracing(void)
{
    static int t = -1;
    if (t < 0) {
        const char *e = getenv("RSV_FUZZ_TRACE");
        t = e && *e && *e != '0';
    }
    return t;
}
