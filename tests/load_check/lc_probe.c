/* Load-check self-test probe: decodes one view with the REAL codec (or a copy
 * of it built with a planted load defect, tests/load_check/CMakeLists.txt)
 * and checks every value and position against the oracle.
 *
 *   lc_probe <case> <alignment 0..7>
 *
 * case  align-down  the view's first byte at address alignment a, a long
 *                   view read in 13-bit fields (every refill in the middle
 *                   of the view too)
 *       align-down-end  first a view of exactly 8 bytes (off 0, 64 bits)
 *                   at an 8-aligned address, read to its end: its one
 *                   refill is aligned and its 8 bytes end on the view's last
 *                   byte, so the align-down plant loads exactly the allowed
 *                   bytes and must not be caught there (nor may the refill
 *                   load a byte past the view); then the align-down view
 *       head        the same view (the first byte's alignment is a)
 *       tail        a view whose LAST byte is at address alignment a, read
 *                   in 13-bit fields to its end (the tail refill)
 *       skipped     read 5 bits, skip 100, read on (the byte holding bits
 *                   5..7 of the view is skipped entirely)
 *       skipped-edge  read 12 bits, skip 100, read on: the skip starts on
 *                   the last bit of the view's second byte, so the plant
 *                   reloads exactly that byte (a skip that starts one bit
 *                   later would reload the next one: the message's distance
 *                   tells the two apart)
 *       eg-plant1   not a load defect: the planted copies are built with
 *                   RSV_SELFTEST_PLANT=1, which also compiles in the
 *                   `fuzz selftest --plant 1` divergence of reader.c. One
 *                   read_eg(5) of `001 01 1010` (9 bits at alignment a, off
 *                   0): z = 2, four of the five remainder bits, so
 *                   EG_TRUNCATED_REMAINDER at p + 2z + 1 = 5 (CODES.md §3.2
 *                   step 8, §6.3 table). Prints "eg-plant1 status S pos P";
 *                   run_selftest.py wants pos 5 from the real codec and 6
 *                   from both planted copies (the plant, docs/fuzzing.md:
 *                   "leaves the position one bit on"), so a plant that no
 *                   longer diverges fails here, not only after a fuzz run
 *
 * The view is embedded in a larger heap buffer (as a KV03 section is in its
 * file): the bytes around it are addressable, so AddressSanitizer cannot see
 * a load that leaves the view by a few bytes. Like the differential harness,
 * the probe declares per operation the bytes CODES.md §1.2 allows
 * (tests/support/load_window.h). Which planted defect is live is chosen by
 * the case (rsv__selftest_plant); a probe linked with the real codec plants
 * nothing.
 *
 * Exit 0 and "ok ..." when every value and position matched the oracle; 1 on
 * a mismatch; the load check aborts (SIGABRT) on a load outside the bytes. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_window.h"
#include "reservoir/oracle.h"
#include "reservoir/reader.h"

#define VIEW_BITS 403u /* off 3: bytes 0..50 of the view's data */

static int fails;

static void check(const char *what, rsv_status cs, uint64_t cv, uint64_t cpos, rsv_oracle_result o)
{
    if (cs != o.status || cpos != o.pos || (cs == RSV_OK && cv != o.value)) {
        fprintf(stderr, "lc_probe: %s: codec %d value %" PRIu64 " pos %" PRIu64 ", oracle %d value %" PRIu64
                        " pos %" PRIu64 "\n",
                what, (int)cs, cv, cpos, (int)o.status, o.value, o.pos);
        fails++;
    }
}

static void read13(rsv_reader *r, rsv_view v, unsigned w)
{
    uint64_t p = rsv_reader_position(r), x = 0;
    rsv_lw_decode(v, p);
    rsv_status st = rsv_read(r, w, &x);
    rsv_lw_end();
    check("read", st, x, rsv_reader_position(r), rsv_oracle_read(v, p, w));
}

/* The eg-plant1 case (see the top comment). Always exits 0: the runner
 * judges the printed position per binary. */
static int eg_plant1(unsigned a)
{
    uint8_t *buf = malloc(32);
    if (!buf) return 2;
    uint8_t *first = (uint8_t *)(((uintptr_t)buf + 15) & ~(uintptr_t)7) + a; /* inside buf */
    first[0] = 0x2d; /* 0010 1101: 001 01 101 */
    first[1] = 0x00; /* 0 (the ninth bit), then bits past the view */
    rsv_view v = rsv_view_make(first, 0, 9);
    rsv_reader r;
    uint64_t x = 0;
    rsv_lw_none();
    rsv_reader_init(&r, v);
    rsv_lw_end();
    rsv_lw_decode(v, 0);
    rsv_status st = rsv_read_eg(&r, 5, &x);
    rsv_lw_end();
    printf("eg-plant1 status %d pos %" PRIu64 "\n", (int)st, rsv_reader_position(&r));
    /* Two near misses the plant must leave alone (it fires only for k >= 5,
     * exactly one bit short, z >= 2): k = 5, z = 1, one bit short
     * (`01 1 1010`, 7 bits: EG_TRUNCATED_REMAINDER at 2z + 1 = 3), and
     * k = 3, z = 2, one bit short (`001 01 10`, 7 bits: at 2z + 1 = 5). */
    static const struct { unsigned k; uint8_t byte; } near[2] = {{5, 0x74}, {3, 0x2c}};
    for (int j = 0; j < 2; j++) {
        first[0] = near[j].byte;
        v = rsv_view_make(first, 0, 7);
        rsv_lw_none();
        rsv_reader_init(&r, v);
        rsv_lw_end();
        rsv_lw_decode(v, 0);
        st = rsv_read_eg(&r, near[j].k, &x);
        rsv_lw_end();
        printf("eg-plant1 near k %u status %d pos %" PRIu64 "\n", near[j].k, (int)st, rsv_reader_position(&r));
    }
    free(buf);
    return 0;
}

/* The checker itself on a window of two ranges (push + also, as the
 * harness declares a stream and its selector code): `also-in` loads the
 * second range's 8 bytes (must pass; an empty third range, as for a 0-bit
 * code, is accepted beside it), `also-gap` the byte just below it, between
 * the two ranges (must abort). The slots are used once before by a window
 * of three ranges: slot 1 with a range starting lower, so a checker that
 * kept a stale start for it would let the gap through, and slot 2 with
 * [24, 32), which holds the gap byte, so a checker that looked one slot past
 * the window's ranges would let it through too. */
static int also_window(int gap)
{
#ifdef RSV_LOAD_CHECK
    static uint8_t buf[64];
    rsv__load_check_push(buf + 56, buf + 64);
    rsv__load_check_also(buf, buf + 8);
    rsv__load_check_also(buf + 24, buf + 32);
    rsv__load_check_pop();
    rsv__load_check_push(buf + 56, buf + 64);
    rsv__load_check_also(buf + 32, buf + 40);
    if (gap) {
        rsv__load_check(buf + 31, 1, NULL, NULL, __FILE__, __LINE__);
    } else {
        rsv__load_check_also(buf + 48, buf + 48); /* empty: holds no byte */
        rsv__load_check(buf + 32, 8, NULL, NULL, __FILE__, __LINE__);
    }
    rsv__load_check_pop();
    printf("ok also-%s passed\n", gap ? "gap" : "in");
    return 0;
#else
    (void)gap;
    printf("no load check in this build\n");
    return 3;
#endif
}

/* An empty window (push with lo = hi: no byte may be loaded, as for a
 * zero-length view): a load of its one boundary byte must abort, and the
 * message tags the range "empty: no load allowed" (run_selftest.py). */
static int empty_window(void)
{
#ifdef RSV_LOAD_CHECK
    static uint8_t buf[16];
    rsv__load_check_push(buf + 8, buf + 8);
    rsv__load_check(buf + 8, 1, NULL, NULL, __FILE__, __LINE__);
    rsv__load_check_pop();
    printf("empty window: load not caught\n");
    return 0;
#else
    printf("no load check in this build\n");
    return 3;
#endif
}

/* The checker's guards against its own misuse (load_check.c): each case
 * must abort with its message (run_selftest.py); `nest-limits` is the
 * control at the limits, which must pass: 16 nested windows, the innermost
 * with 4 ranges, then all popped (a guard one step early aborts it). */
static int misuse(const char *c)
{
#ifdef RSV_LOAD_CHECK
    static uint8_t buf[64];
    if (!strcmp(c, "push-deep")) { /* a 17th nested window */
        for (int i = 0; i < 17; i++) rsv__load_check_push(buf, buf + 64);
    } else if (!strcmp(c, "push-reversed")) { /* hi below lo */
        rsv__load_check_push(buf + 8, buf + 7);
    } else if (!strcmp(c, "also-none")) { /* a range without a window */
        rsv__load_check_also(buf, buf + 8);
    } else if (!strcmp(c, "also-full")) { /* a fifth range */
        rsv__load_check_push(buf, buf + 8);
        for (int i = 1; i < 5; i++) rsv__load_check_also(buf + 8 * i, buf + 8 * i + 8);
    } else if (!strcmp(c, "also-reversed")) {
        rsv__load_check_push(buf, buf + 8);
        rsv__load_check_also(buf + 16, buf + 15);
    } else if (!strcmp(c, "pop-empty")) { /* a pop without a push */
        rsv__load_check_pop();
    } else if (!strcmp(c, "nest-limits")) {
        for (int i = 0; i < 16; i++) rsv__load_check_push(buf + i, buf + i + 1);
        for (int i = 1; i < 4; i++) rsv__load_check_also(buf + 16 + 8 * i, buf + 24 + 8 * i);
        rsv__load_check(buf + 15, 1, NULL, NULL, __FILE__, __LINE__); /* the innermost window's first range, [15, 16) */
        rsv__load_check(buf + 40, 8, NULL, NULL, __FILE__, __LINE__); /* its fourth range, [40, 48) */
        for (int i = 0; i < 16; i++) rsv__load_check_pop();
        printf("ok nest-limits passed\n");
        return 0;
    } else {
        fprintf(stderr, "lc_probe: unknown case %s\n", c);
        return 2;
    }
    printf("misuse %s not caught\n", c);
    return 0;
#else
    (void)c;
    printf("no load check in this build\n");
    return 3;
#endif
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: lc_probe align-down|align-down-end|head|tail|skipped|skipped-edge|eg-plant1|also-in|also-gap|empty-window|misuse-CASE ALIGN\n");
        return 2;
    }
    const char *c = argv[1];
    unsigned a = (unsigned)atoi(argv[2]) & 7;
    if (!strcmp(c, "eg-plant1")) return eg_plant1(a);
    if (!strcmp(c, "also-in") || !strcmp(c, "also-gap")) return also_window(!strcmp(c, "also-gap"));
    if (!strcmp(c, "empty-window")) return empty_window();
    if (!strncmp(c, "misuse-", 7)) return misuse(c + 7);
    int end_first = !strcmp(c, "align-down-end");
    int plant = !strcmp(c, "align-down") || end_first ? 1 : !strcmp(c, "head") ? 2 : !strcmp(c, "tail") ? 3
              : !strcmp(c, "skipped") || !strcmp(c, "skipped-edge") ? 4 : 0;
    if (!plant) {
        fprintf(stderr, "lc_probe: unknown case %s\n", c);
        return 2;
    }
#ifdef RSV_SELFTEST_PLANT
    rsv__selftest_plant = plant;
#endif
    /* 64 + 51 + 64 bytes: 64 addressable bytes on each side of the view */
    uint8_t *buf = malloc(256);
    if (!buf) return 2;
    uintptr_t base = ((uintptr_t)buf + 64 + 15) & ~(uintptr_t)15; /* 16-aligned, inside buf */
    uint64_t nbytes = (3 + VIEW_BITS + 7) / 8;                   /* 51 */
    uint8_t *first;
    if (plant == 3) /* the last byte at alignment a */
        first = (uint8_t *)(base + 64 + a - (nbytes - 1));
    else
        first = (uint8_t *)(base + a);
    for (unsigned i = 0; i < 256; i++) buf[i] = (uint8_t)(i * 37u + 11u); /* ones and zeros everywhere */
    if (end_first) {
        /* bytes base .. base + 7 (8-aligned); base + 8 is addressable, so only
         * the load check sees a load of it */
        rsv_view e = rsv_view_make((const uint8_t *)base, 0, 64);
        rsv_reader re;
        rsv_lw_none();
        rsv_reader_init(&re, e);
        rsv_lw_end();
        while (rsv_reader_remaining(&re) >= 13) read13(&re, e, 13);
        read13(&re, e, (unsigned)rsv_reader_remaining(&re));
    }
    rsv_view v = rsv_view_make(first, 3, VIEW_BITS);
    rsv_reader r;
    rsv_lw_none();
    rsv_reader_init(&r, v);
    rsv_lw_end();
    if (plant == 4) {
        read13(&r, v, !strcmp(c, "skipped-edge") ? 12 : 5); /* view bits 0..11: bytes 0..1 up to bit 14 */
        uint64_t p = rsv_reader_position(&r);
        rsv_lw_none(); /* skip loads nothing (A3) */
        rsv_status st = rsv_skip(&r, 100);
        rsv_lw_end();
        check("skip", st, 0, rsv_reader_position(&r), rsv_oracle_skip(v, p, 100));
    }
    while (rsv_reader_remaining(&r) >= 13) read13(&r, v, 13);
    read13(&r, v, (unsigned)rsv_reader_remaining(&r));
#ifdef RSV_LOAD_CHECK
    unsigned long long loads = rsv__load_check_count();
#else
    unsigned long long loads = 0;
#endif
    printf("ok %s alignment %u: first byte %p (address mod 8 = %u), last byte mod 8 = %u, %llu loads checked\n", c,
           a, (void *)first, (unsigned)((uintptr_t)first & 7), (unsigned)((uintptr_t)(first + nbytes - 1) & 7),
           loads);
    free(buf);
    return fails ? 1 : 0;
}
