/* CSV output of the timing protocol (WORKLOADS.md §6): one header line, then
 * one row per trial: workload,phase,trial,items,bits,loops,ns_per_item,checksum */
#ifndef RSV_BENCH_REPORT_H
#define RSV_BENCH_REPORT_H

#include <stdint.h>
#include <stdio.h>

/* path NULL or "-": stdout. Returns NULL (errno set) if the file cannot be created. */
FILE *rsv_bench_report_open(const char *path);
void rsv_bench_report_row(FILE *f, const char *workload, int timed, unsigned trial, uint64_t items,
                          uint64_t bits, unsigned loops, double ns_per_item, uint64_t checksum);
/* Flushes; closes unless stdout. Nonzero if any write failed. */
int rsv_bench_report_close(FILE *f);

#endif
