/* Warm reuse allocates nothing (fault.h): the reusable scanner
 * (rsv_kv03_scanner, kv03.h: "scanning again allocates nothing once the
 * buffers are large enough"), counted by the allocation wrappers. */
#include "fault.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

/* A file of 15 records with W = 1: nb = 15 blocks, so scan step 7 rebuilds
 * nb + 1 = 16 block offsets, exactly the scratch's first capacity (16
 * entries), and 32 bytes of EF sections: the boundary of "large enough". */
Test(fault_reuse, scanner_rescan_at_exact_capacity_allocates_nothing)
{
    enum { N = 15 };
    char kname[N][4];
    rsv_record rec[N];
    for (int i = 0; i < N; i++) {
        snprintf(kname[i], sizeof kname[i], "k%02d", i);
        rec[i] = (rsv_record){(const uint8_t *)kname[i], 3, rsv_value_tombstone(), NULL, 0};
    }
    rsv_kv03_policy p = rsv_kv03_policy_default();
    p.W = 1;
    uint8_t *file;
    size_t len;
    cr_assert_eq(rsv_kv03_encode(&p, NULL, 0, rec, N, &file, &len), RSV_OK);
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(file, len, NULL, &f), RSV_OK);
    rsv_kv03_scanner s;
    rsv_kv03_scanner_init(&s);
    cr_assert_eq(rsv_kv03_scanner_scan(&s, &f, NULL), RSV_OK);
    /* the premise, and kv03.h's growth rule (from 16 by doubling to the
     * least capacity that holds the need): 16 offsets in a scratch of 16,
     * and the rebuilt sections 1-4 (8 + 8 + 16 + 0 = 32 bytes here) in a
     * scratch of 32, both exactly full */
    cr_assert_eq(s.offsets_cap, 16, "offsets capacity %zu", s.offsets_cap);
    uint64_t ef_bytes = f.sec_len[1] + f.sec_len[2] + f.sec_len[3] + f.sec_len[4];
    cr_assert_eq(ef_bytes, 32, "EF sections of %llu bytes", (unsigned long long)ef_bytes);
    cr_assert_eq(s.ef_cap, 32, "EF scratch of %zu bytes", s.ef_cap);
    for (int round = 0; round < 2; round++) {
        arm_alloc(0); /* any allocation fails, and is counted */
        rsv_status st = rsv_kv03_scanner_scan(&s, &f, NULL);
        long n = alloc_count;
        int failed = alloc_failed;
        disarm_alloc();
        cr_assert_eq(st, RSV_OK, "rescan %d: %s", round, rsv_status_name(st));
        cr_assert_eq(n, 0, "rescan %d: %ld allocations", round, n);
        cr_assert(!failed);
    }
    rsv_kv03_scanner_free(&s);
    rsv_kv03_close(&f);
    free(file);
}
