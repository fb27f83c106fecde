#define _POSIX_C_SOURCE 200809L
/* Count-code micro-benchmark: the WORKLOADS.md §3 count cases decoded by the
 * reservoir reader (single-value and batch) and by the stateless oracle (the
 * baseline "previous reader"), in the same process, same buffer.
 *
 *   rsv_bench_codes [VALUES] [TRIALS] [LOOPS]     (defaults 262144 5 4)
 *
 * Prints ns per count (median of TRIALS timed trials after one warmup) for
 * every side and the ratio baseline / candidate. Checksums must agree. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "reservoir/oracle.h"
#include "reservoir/reservoir.h"

static uint64_t mix(uint64_t x)
{
    x = (x ^ (x >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94D049BB133111EB);
    return x ^ (x >> 31);
}

enum kind { EG, GOLOMB };
struct kase {
    const char *name;
    enum kind kind;
    uint64_t param;
    int wide;
    uint64_t mask;
};

static uint64_t value_of(const struct kase *c, uint64_t i)
{
    if (c->wide) {
        unsigned w = (unsigned)(i % 65);
        uint64_t m = w < 64 ? (UINT64_C(1) << w) - 1 : UINT64_MAX;
        return mix(i) & m;
    }
    return mix(i) & c->mask;
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define BARRIER() __asm__ __volatile__("" ::: "memory")

/* One timed body per side; each returns sum + final position (WORKLOADS §3). */
static uint64_t body_single(const struct kase *c, rsv_view v, uint64_t nvals, const rsv_golomb *g)
{
    rsv_reader r;
    rsv_reader_init(&r, v);
    uint64_t sum = 0, x = 0;
    for (uint64_t i = 0; i < nvals; i++) {
        rsv_status st = c->kind == GOLOMB ? rsv_read_golomb(&r, g, &x)
                        : c->param == 0  ? rsv_read_eg0(&r, &x)
                                         : rsv_read_eg(&r, (unsigned)c->param, &x);
        if (st) abort();
        sum += x;
    }
    if (!rsv_reader_empty(&r)) abort();
    return sum + rsv_reader_position(&r);
}

static uint64_t body_batch(const struct kase *c, rsv_view v, uint64_t nvals, const rsv_golomb *g,
                           uint64_t *buf)
{
    rsv_reader r;
    rsv_reader_init(&r, v);
    uint64_t sum = 0;
    size_t chunk = 1024;
    for (uint64_t i = 0; i < nvals; i += chunk) {
        size_t n = nvals - i < chunk ? (size_t)(nvals - i) : chunk, done = 0;
        rsv_status st = c->kind == GOLOMB ? rsv_read_golomb_n(&r, g, buf, n, &done)
                                          : rsv_read_eg_n(&r, (unsigned)c->param, buf, n, &done);
        if (st) abort();
        for (size_t j = 0; j < n; j++) sum += buf[j];
    }
    if (!rsv_reader_empty(&r)) abort();
    return sum + rsv_reader_position(&r);
}

static uint64_t body_oracle(const struct kase *c, rsv_view v, uint64_t nvals)
{
    uint64_t p = 0, sum = 0;
    for (uint64_t i = 0; i < nvals; i++) {
        rsv_oracle_result res = c->kind == GOLOMB ? rsv_oracle_read_golomb(v, p, c->param)
                                                  : rsv_oracle_read_eg(v, p, c->param);
        if (res.status) abort();
        sum += res.value;
        p = res.pos;
    }
    if (p != v.len) abort();
    return sum + p;
}

int main(int argc, char **argv)
{
    uint64_t nvals = argc > 1 ? strtoull(argv[1], NULL, 10) : 262144;
    int trials = argc > 2 ? atoi(argv[2]) : 5;
    int loops = argc > 3 ? atoi(argv[3]) : 4;
    if (nvals == 0 || trials <= 0 || loops <= 0) {
        fprintf(stderr, "usage: %s [VALUES] [TRIALS] [LOOPS]\n", argv[0]);
        return 2;
    }
    const struct kase cases[] = {
        {"counts/eg0-small", EG, 0, 0, 127},
        {"counts/eg0-wide", EG, 0, 1, 0},
        {"counts/eg3", EG, 3, 0, 1023},
        {"counts/g7", GOLOMB, 7, 0, 127},
    };
    uint64_t *buf = malloc(1024 * sizeof *buf);
    if (!buf) return 1;
    printf("%-18s %-8s %12s %10s\n", "workload", "side", "ns/count", "ratio");
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        const struct kase *c = &cases[ci];
        rsv_golomb g;
        rsv_golomb_init(&g, c->kind == GOLOMB ? c->param : 1);
        rsv_writer w;
        rsv_writer_init(&w);
        rsv_put(&w, 5, 3);
        uint64_t expect = 0;
        for (uint64_t i = 0; i < nvals; i++) {
            uint64_t v = value_of(c, i);
            expect += v;
            if (c->kind == GOLOMB ? rsv_put_golomb(&w, &g, v) : rsv_put_eg(&w, v, (unsigned)c->param))
                abort();
        }
        rsv_view view = rsv_view_make(rsv_writer_data(&w), 3, rsv_writer_bits(&w) - 3);
        uint64_t ref = expect + view.len;
        const char *sides[] = {"oracle", "single", "batch"};
        double med[3];
        for (int s = 0; s < 3; s++) {
            double *t = malloc((size_t)trials * sizeof *t);
            for (int tr = 0; tr <= trials; tr++) {
                uint64_t sum = 0;
                double t0 = now_ns();
                for (int l = 0; l < loops; l++) {
                    BARRIER();
                    sum += s == 0 ? body_oracle(c, view, nvals)
                         : s == 1 ? body_single(c, view, nvals, &g)
                                  : body_batch(c, view, nvals, &g, buf);
                }
                double dt = now_ns() - t0;
                if (sum != ref * (uint64_t)loops) {
                    fprintf(stderr, "%s %s: checksum mismatch\n", c->name, sides[s]);
                    return 1;
                }
                if (tr > 0) t[tr - 1] = dt / ((double)nvals * loops); /* trial 0 warms up */
            }
            qsort(t, (size_t)trials, sizeof *t, cmp_double);
            med[s] = t[trials / 2];
            free(t);
            printf("%-18s %-8s %12.3f %10s\n", c->name, sides[s], med[s], "");
        }
        printf("%-18s %-8s %12s %9.2fx %9.2fx (oracle/single, oracle/batch)\n", c->name, "ratio", "",
               med[0] / med[1], med[0] / med[2]);
        rsv_writer_free(&w);
    }
    free(buf);
    return 0;
}
