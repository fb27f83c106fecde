/* `crc32c` — a hook, not a WORKLOADS.md workload (selected only with
 * --crc32c). KV03 files carry CRC32C envelopes whose checks are outside every
 * normative timer; this row just tracks the checksum routine itself.
 *
 * Input: V bytes, byte i = low byte of mix(i). Body: CRC32C of the buffer;
 * returns crc + byte count. candidate: rsv_crc32c (SSE4.2 or slicing-by-8);
 * baseline: rsv_oracle_crc32c (bitwise). */
#include <stdlib.h>

#include "mix.h"
#include "side.h"
#include "workload.h"

#include "reservoir/crc32c.h"
#include "reservoir/oracle_kv03.h"

typedef struct crc_state {
    uint8_t *buf;
    size_t n;
    uint32_t expect;
} crc_state;

static uint32_t side_crc(const uint8_t *p, size_t n)
{
#if RSV_BENCH_CANDIDATE
    return rsv_crc32c(0, p, n);
#else
    return rsv_oracle_crc32c(p, n);
#endif
}

uint64_t rsv_bench_body_crc32c(void *state)
{
    const crc_state *s = state;
    uint32_t crc = side_crc(s->buf, s->n);
    if (crc != s->expect) rsv_bench_fail("crc32c body: wrong CRC");
    return (uint64_t)crc + s->n;
}

static void crc_teardown(void *state)
{
    crc_state *s = state;
    free(s->buf);
    free(s);
}

static int crc_prepare(const rsv_bench_params *p, void *module_state, const void *arg,
                       rsv_bench_workload *w)
{
    (void)module_state;
    (void)arg;
    /* KV03.md §7 check value: both sides must agree with it before timing. */
    if (side_crc((const uint8_t *)"123456789", 9) != UINT32_C(0xE3069283))
        rsv_bench_fail("crc32c: check value 0xE3069283 not reproduced");
    crc_state *s = calloc(1, sizeof *s);
    if (!s) return 1;
    s->n = (size_t)p->values;
    s->buf = malloc(s->n);
    if (!s->buf) { free(s); return 1; }
    for (size_t i = 0; i < s->n; i++) s->buf[i] = (uint8_t)rsv_bench_mix(i);
    /* The expected CRC comes from the other implementation (chained in two
     * halves), so a body that merely agrees with itself cannot pass. */
#if RSV_BENCH_CANDIDATE
    s->expect = rsv_oracle_crc32c(s->buf, s->n);
#else
    s->expect = rsv_crc32c(rsv_crc32c(0, s->buf, s->n / 2), s->buf + s->n / 2, s->n - s->n / 2);
#endif
    w->items = s->n;
    w->bits = (uint64_t)s->n * 8;
    w->state = s;
    w->body = rsv_bench_body_crc32c;
    w->teardown = crc_teardown;
    return 0;
}

static const rsv_bench_spec k_specs[] = {
    {"crc32c", RSV_BENCH_EXTRA, 1, NULL, crc_prepare},
};

const rsv_bench_module rsv_bench_crc32c_module = {"crc32c", k_specs, 1, NULL, NULL};
