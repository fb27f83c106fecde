/* The peer groups of rsv_bench_peers (peers.c) and the runner they share. */
#ifndef RSV_BENCH_PEER_GROUPS_H
#define RSV_BENCH_PEER_GROUPS_H

#include <stdint.h>

#include "../workload.h"

/* Time body(state) with the harness protocol as CSV workload `name`; its
 * reference checksum must equal `expect` (the group's common checksum). */
void peer_run(const char *name, uint64_t items, uint64_t bits, unsigned loops_div,
              uint64_t (*body)(void *), void *state, uint64_t expect);
/* Report a group that cannot run (peer library not built in). */
void peer_skip(const char *group, const char *why);

void peer_group_bits(const rsv_bench_params *p);    /* GStreamer: fixed13, eg0 */
void peer_group_sdsl(const rsv_bench_params *p);    /* sdsl: gamma, ef-select */
void peer_group_leveldb(const rsv_bench_params *p); /* LevelDB: <fx>/scan, <fx>/merge */

#endif
