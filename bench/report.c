#include "report.h"

#include <inttypes.h>
#include <string.h>

FILE *rsv_bench_report_open(const char *path)
{
    FILE *f = (!path || strcmp(path, "-") == 0) ? stdout : fopen(path, "w");
    if (f) fputs("workload,phase,trial,items,bits,loops,ns_per_item,checksum\n", f);
    return f;
}

void rsv_bench_report_row(FILE *f, const char *workload, int timed, unsigned trial, uint64_t items,
                          uint64_t bits, unsigned loops, double ns_per_item, uint64_t checksum)
{
    /* Rows are flushed one by one so that an abort later still leaves every
     * completed trial on disk. */
    fprintf(f, "%s,%s,%u,%" PRIu64 ",%" PRIu64 ",%u,%.4f,%" PRIu64 "\n", workload,
            timed ? "timed" : "warmup", trial, items, bits, loops, ns_per_item, checksum);
    fflush(f);
}

int rsv_bench_report_close(FILE *f)
{
    int bad = fflush(f) != 0 || ferror(f);
    if (f != stdout && fclose(f) != 0) bad = 1;
    return bad;
}
