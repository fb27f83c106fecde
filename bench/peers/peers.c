#define _POSIX_C_SOURCE 200809L
/* rsv_bench_peers — other libraries on the same data as the reservoir codec
 * (optional; see bench/peers/README.md). Each group times a peer and the
 * codec ("rsv") on identical inputs in the same process, with the harness's
 * protocol (reference run, warmup, T timed trials of `loops` runs, checksum
 * = loops × reference) and CSV; rows are named peers/<group>/<contender>.
 * Contenders of one group fold the same checksum.
 *
 *   rsv_bench_peers DIR RECORDS TRIALS LOOPS      (same meaning as the harness)
 *
 * Groups (V = 8R values, R records; each compiled only when its peer is found):
 *   fixed13         V 13-bit fields at bit offset 3: GstBitReader get_bits vs rsv_read
 *   eg0             counts/eg0-small data: EG0 on gst_bit_reader_peek/skip vs rsv_read_eg0
 *   gamma           same values: sdsl coder::elias_gamma decode (and its table-driven
 *                   decode_prefix_sum) on sdsl's own encoding of gamma(v+1) vs rsv_read_eg0
 *                   and the bulk rsv_read_eg_n (rsv-batch, the counterpart of a bulk decode)
 *   ef-select       R strictly increasing positions, R pseudo-random select queries:
 *                   sdsl sd_vector select_1 vs rsv_ef_select
 *   <fx>/scan       LevelDB iterator over the fixture's records vs rsv_kv03_cursor_record
 *   <fx>/merge      LevelDB merge of the disjoint halves into a new DB vs rsv_merge */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../kv03_fixture.h"
#include "../mix.h"
#include "../report.h"
#include "../timing.h"
#include "../workload.h"
#include "peer_groups.h"

#include "reservoir/reservoir.h"

void rsv_bench_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("rsv_bench_peers: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

static unsigned g_trials, g_loops;
static FILE *g_csv;

void peer_run(const char *name, uint64_t items, uint64_t bits, unsigned loops_div,
              uint64_t (*body)(void *), void *state, uint64_t expect)
{
    unsigned loops = g_loops / loops_div ? g_loops / loops_div : 1;
    uint64_t ref = body(state);
    if (ref != expect)
        rsv_bench_fail("%s: checksum %llu differs from the group's %llu", name, (unsigned long long)ref,
                       (unsigned long long)expect);
    double *ns = malloc(g_trials * sizeof *ns);
    if (!ns) rsv_bench_fail("out of memory");
    for (unsigned t = 0; t <= g_trials; t++) {
        uint64_t sum = 0, t0 = rsv_bench_now_ns();
        for (unsigned l = 0; l < loops; l++) {
            RSV_BENCH_BARRIER();
            sum += body(state);
        }
        RSV_BENCH_BARRIER();
        uint64_t dt = rsv_bench_now_ns() - t0;
        if (sum != ref * loops) rsv_bench_fail("%s: trial checksum", name);
        double per = (double)dt / ((double)items * loops);
        rsv_bench_report_row(g_csv, name, t > 0, t, items, bits, loops, per, sum);
        if (t > 0) ns[t - 1] = per;
    }
    fprintf(stderr, "peers %-36s %10.3f ns/item\n", name, rsv_bench_median(ns, g_trials));
    free(ns);
}

void peer_skip(const char *group, const char *why)
{
    fprintf(stderr, "peers: skipping %s: %s\n", group, why);
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: %s DIR RECORDS TRIALS LOOPS\n", argv[0]);
        return 2;
    }
    rsv_bench_params p;
    p.dir = argv[1];
    p.records = strtoull(argv[2], NULL, 10);
    p.values = 8 * p.records;
    g_trials = (unsigned)strtoul(argv[3], NULL, 10);
    g_loops = (unsigned)strtoul(argv[4], NULL, 10);
    if (p.records < 16 || g_trials == 0 || g_loops == 0) {
        fprintf(stderr, "%s: need RECORDS >= 16, TRIALS >= 1, LOOPS >= 1\n", argv[0]);
        return 2;
    }
    p.trials = g_trials;
    p.loops = g_loops;
    if (!rsv_bench_mix_selftest()) rsv_bench_fail("mix()");
    mkdir(p.dir, 0777); /* may exist; a real failure shows up when the fixtures are written */
    g_csv = rsv_bench_report_open(NULL);
    peer_group_bits(&p);
    peer_group_sdsl(&p);
    peer_group_leveldb(&p);
    return rsv_bench_report_close(g_csv);
}
