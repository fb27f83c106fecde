/* The record batch (reservoir/record_batch.h) loads only its input's bytes
 * and stores only into its arenas' first key_used / val_used bytes:
 *   - KV03 files (one code and four codes, oracle-encoded, random
 *     rsv_kv03d_gen records with 0..70-byte values, so borrowed and copied
 *     values) whose last byte lies right before a PROT_NONE page, and record
 *     streams (the same records, oracle-encoded) placed the same way, at bit
 *     offsets 0 and 5 of their first byte;
 *   - key and value arenas whose last byte lies right before a PROT_NONE
 *     page: capacities 1, 7 and exactly the input's total key (value) bytes;
 * each decoded with n = 1, 3, 8 and 64 records per call, values and codes
 * stored, and compared with the oracle and the single-record calls
 * (tests/support/record_batch_diff.h). A load or store past a boundary
 * faults and fails the run with the case named. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guardpage.h"

#include "kv03_diff.h"
#include "kv03_diff_gen.h"
#include "record_batch_diff.h"

static unsigned long failures;

static void gk_check(int ok, const char *what, const char *detail)
{
    if (!ok && failures++ < 10) fprintf(stderr, "FAIL: %s: %s\n", what, detail);
}

static const rsv_oracle_kv03_policy POL[2] = {{RSV_ORACLE_BACKSPACE_EG, 0, 15, 15}, {RSV_ORACLE_BACKSPACE_GOLOMB, 3, 4, 3}};

/* Arenas of cap bytes flush against a guard page (none for cap = 0). */
static uint8_t *arena(rsv_guard_buf *g, size_t cap)
{
    if (!cap) return NULL;
    if (rsv_guard_tail(g, cap) != 0) {
        perror("guard");
        exit(2);
    }
    return g->ptr;
}

static void run(const uint8_t *file, size_t flen, rsv_view stream, const rsv_oracle_code *codes, size_t ncodes,
                size_t key_bytes, size_t val_bytes, const char *what, rsv_rbd_tally *records)
{
    static const size_t NS[4] = {1, 3, 8, 64};
    size_t kcaps[3] = {1, 7, key_bytes}, vcaps[3] = {1, 7, val_bytes};
    char msg[RSV_RBD_MSG];
    for (int a = 0; a < 4; a++)
        for (int c = 0; c < 3; c++) {
            rsv_guard_buf kg = {0}, vg = {0};
            rsv_rbd_shape s = {NS[a], kcaps[c], vcaps[c], 1, 1, arena(&kg, kcaps[c]), arena(&vg, vcaps[c])};
            rsv_guard_set_case("%s: file, n %zu, arenas %zu / %zu", what, s.n, s.key_cap, s.val_cap);
            int ok = rsv_rbd_cursor(file, flen, &s, records, msg);
            gk_check(ok, what, msg);
            rsv_guard_set_case("%s: stream at bit %llu, n %zu, arenas %zu / %zu", what,
                               (unsigned long long)stream.off, s.n, s.key_cap, s.val_cap);
            ok = rsv_rbd_stream(stream, codes, ncodes, &s, records, msg);
            gk_check(ok, what, msg);
            rsv_guard_release(&kg);
            rsv_guard_release(&vg);
        }
}

int main(void)
{
    rsv_guard_install_fault_handler();
    static const uint8_t c0[1] = {0x00}, c1[1] = {0x80}, c2[1] = {0xC0}, c3[10] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                                                                      0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    const rsv_oracle_code codes[4] = {{c0, 1}, {c1, 2}, {c2, 3}, {c3, 73}};
    rsv_rng g = {0x6A7C4001};
    rsv_rbd_tally records = {0, 0, 0};
    for (int round = 0; round < 8; round++) {
        size_t ncodes = round % 2 ? 4 : 1;
        rsv_kv03d_set sets[4];
        rsv_oracle_crecord r[4 * 64];
        size_t n = 0, key_bytes = 0, val_bytes = 0;
        for (size_t j = 0; j < ncodes; j++) {
            sets[j] = rsv_kv03d_gen(&g, 10 + (size_t)rsv_rng_below(&g, 40), 1 + (size_t)rsv_rng_below(&g, 24), 70);
            for (size_t i = 0; i < sets[j].n && n < 4 * 64; i++, n++) {
                r[n].code = codes[j];
                rsv_kv03d_to_oracle(&sets[j].r[i], 1, &r[n].rec);
                key_bytes += r[n].rec.key_len;
                val_bytes += r[n].rec.value_len;
            }
        }
        uint8_t *file = NULL, *sbytes = NULL;
        size_t flen, bad;
        uint64_t sbits;
        if (rsv_oracle_kv03_encode_v2(r, n, &POL[round % 2], &file, &flen, &bad) != RSV_OK ||
            rsv_oracle_stream_encode_v2(r, n, &sbytes, &sbits, &bad) != RSV_OK) {
            fprintf(stderr, "encode failed\n");
            return 2;
        }
        /* the file, and the stream at bit offset 0 or 5, flush against a guard page */
        unsigned off = round % 4 < 2 ? 0 : 5;
        size_t slen = (size_t)((off + sbits + 7) / 8);
        rsv_guard_buf fg = {0}, sg = {0};
        if (rsv_guard_tail(&fg, flen) != 0 || rsv_guard_tail(&sg, slen ? slen : 1) != 0) return 2;
        memcpy(fg.ptr, file, flen);
        memset(sg.ptr, 0, slen ? slen : 1);
        for (uint64_t i = 0; i < sbits; i++)
            if ((sbytes[i / 8] >> (7 - i % 8)) & 1u) sg.ptr[(off + i) / 8] |= (uint8_t)(0x80u >> ((off + i) % 8));
        uint8_t *sp = slen ? sg.ptr : sg.ptr + 1; /* an empty stream: its (no) bytes end at the guard */
        if (rsv_guard_readonly(&fg) != 0 || rsv_guard_readonly(&sg) != 0) return 2;
        char what[64];
        snprintf(what, sizeof what, "round %d (%zu codes, %zu records)", round, ncodes, n);
        run(fg.ptr, flen, rsv_view_make(sp, slen ? off : 0, sbits), codes, ncodes, key_bytes, val_bytes, what,
            &records);
        rsv_guard_release(&fg);
        rsv_guard_release(&sg);
        free(file);
        free(sbytes);
        for (size_t j = 0; j < ncodes; j++) rsv_kv03d_set_free(&sets[j]);
    }
    gk_check(records.records > 1000, "all rounds", "fewer than 1000 records compared");
    gk_check(records.arena_stops > 10, "all rounds", "fewer than 10 arena stops");
    printf("%zu batch records compared, %zu arena stops, %lu failures\n", records.records, records.arena_stops,
           failures);
    return failures ? 1 : 0;
}
