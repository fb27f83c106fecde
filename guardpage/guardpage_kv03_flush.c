/* KV03 readers against guard pages (KV03.md §9, CODES.md §1.2 A1):
 *  - tail: the whole file ends flush against a PROT_NONE page (its last byte
 *    is the last readable byte) — open, scan, frames, cursor_next,
 *    cursor_record (codec) and SCAN/WALK (oracle) through the differential
 *    engine, which also checks the records against the input; also every
 *    resealed single-bit flip of the last 64 bytes and of the first 16 and
 *    last 48 bytes of section 0;
 *  - head: the file starts right after a PROT_NONE page (nothing before
 *    byte 0 is loaded);
 *  - data stream flush: single-block files (W >= N: the walk needs no EF
 *    select) mapped so that everything after section 0's last byte is
 *    PROT_NONE; frames, cursor_next and cursor_record must walk every record
 *    touching only the header, directory and section 0;
 *  - record streams whose ⌈E/8⌉ bytes end flush against a guard page,
 *    decoded by both stream readers.
 * Inputs are encoded by the oracle. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <inttypes.h>

#include "guardpage_kv03_common.h"
#include "reservoir/kv03.h"

static char g_detail[RSV_KV03D_MSG + 64];

static void engine_on(const uint8_t *file, size_t n, const rsv_record *want, size_t nwant, const char *what)
{
    rsv_kv03d_report rep;
    rsv_kv03d_report_init(&rep);
    int ok = rsv_kv03d_file(file, n, NULL, want, nwant, &rep);
    snprintf(g_detail, sizeof g_detail, "%s", rep.msg);
    gk_check(ok, what, g_detail);
}

static void tail_and_head(const uint8_t *file, size_t n, const rsv_record *want, size_t nwant, const char *name)
{
    rsv_guard_buf g;
    if (rsv_guard_tail(&g, n) != 0) exit(2);
    memcpy(g.ptr, file, n);
    rsv_guard_readonly(&g);
    rsv_guard_set_case("kv03 flush: %s, %zu bytes, trailing guard", name, n);
    engine_on(g.ptr, n, want, nwant, name);
    rsv_guard_release(&g);
    if (rsv_guard_head(&g, n) != 0) exit(2);
    memcpy(g.ptr, file, n);
    rsv_guard_readonly(&g);
    rsv_guard_set_case("kv03 flush: %s, %zu bytes, leading guard", name, n);
    engine_on(g.ptr, n, want, nwant, name);
    rsv_guard_release(&g);
}

/* Resealed flips of the last 64 bytes and of both ends of section 0, file flush at the tail. */
static void flips_flush(const uint8_t *file, size_t n, const char *name)
{
    uint64_t len0 = 0;
    for (int i = 0; i < 8; i++) len0 |= (uint64_t)file[96 + 72 + i] << (8 * i);
    rsv_guard_buf g;
    if (rsv_guard_tail(&g, n) != 0) exit(2);
    for (size_t bit = 0; bit < 8 * n; bit++) {
        size_t at = bit / 8;
        int last = at + 64 >= n;                                     /* flush against the guard */
        int data = at >= 288 && at < 288 + len0 && (at < 288 + 16 || at + 48 >= 288 + len0); /* section 0 ends */
        if (!last && !data) continue;
        rsv_guard_writable(&g);
        memcpy(g.ptr, file, n);
        g.ptr[at] ^= (uint8_t)(0x80u >> (bit % 8));
        rsv_kv03d_reseal(g.ptr, n);
        rsv_guard_readonly(&g);
        rsv_guard_set_case("kv03 flush: %s, resealed flip of bit %zu, trailing guard", name, bit);
        engine_on(g.ptr, n, NULL, 0, name);
    }
    rsv_guard_release(&g);
}

/* Walk a single-block file with everything after section 0 PROT_NONE. */
static void data_stream_flush(const uint8_t *file, size_t n, const rsv_record *want, size_t nwant, const char *name)
{
    uint64_t len0 = 0;
    for (int i = 0; i < 8; i++) len0 |= (uint64_t)file[96 + 72 + i] << (8 * i);
    gk_mapped m;
    if (gk_map_split(&m, file, n, 288 + (size_t)len0) != 0) exit(2);
    rsv_guard_set_case("kv03 flush: %s, data stream flush against the guard", name);
    rsv_kv03_file f;
    rsv_status st = rsv_kv03_open(m.file, n, NULL, &f);
    gk_check(st == RSV_OK && f.N == nwant && f.nb <= 1, name, "open of a single-block file");
    if (st == RSV_OK) {
        for (int level = 0; level < 3; level++) {
            int more = 0;
            size_t i = 0, bad = 0;
            if (level == 0) {
                rsv_kv03_frames fw;
                rsv_kv03_frame fr;
                rsv_kv03_frames_init(&fw, &f);
                while ((st = rsv_kv03_frames_next(&fw, &fr, &more)) == RSV_OK && more) {
                    bad += i >= nwant || fr.key_bits != 8 * (uint64_t)want[i].key_len;
                    i++;
                }
            } else {
                rsv_kv03_cursor c;
                rsv_kv03_entry e;
                rsv_kv03_cursor_init(&c, &f);
                while ((st = level == 1 ? rsv_kv03_cursor_next(&c, &e, &more) : rsv_kv03_cursor_record(&c, &e, &more)) ==
                           RSV_OK && more) {
                    if (i >= nwant || e.key_len != want[i].key_len || memcmp(e.key, want[i].key, e.key_len) != 0 ||
                        e.value.kind != want[i].value.kind || e.value.len != want[i].value.len ||
                        (level == 2 && e.value.len && memcmp(e.value.data, want[i].value.data, e.value.len) != 0))
                        bad++;
                    i++;
                }
                rsv_kv03_cursor_free(&c);
            }
            snprintf(g_detail, sizeof g_detail, "level %d: %s, %zu records of %zu, %zu wrong", level,
                     rsv_status_name(st), i, nwant, bad);
            gk_check(st == RSV_OK && i == nwant && bad == 0, name, g_detail);
        }
    }
    gk_unmap(&m);
}

/* A record stream whose bytes end flush against the guard. */
static void stream_flush(const rsv_record *r, size_t n, const char *name)
{
    rsv_oracle_record *o = calloc(n ? n : 1, sizeof *o);
    rsv_kv03d_to_oracle(r, n, o);
    uint8_t *bytes = NULL;
    uint64_t E = 0;
    size_t bad;
    if (rsv_oracle_stream_encode(o, n, (const uint8_t *)"\0", 1, &bytes, &E, &bad) != RSV_OK) exit(2);
    size_t nb = (size_t)((E + 7) / 8);
    rsv_guard_buf g;
    if (rsv_guard_tail(&g, nb) != 0) exit(2);
    if (nb) memcpy(g.ptr, bytes, nb);
    rsv_guard_readonly(&g);
    rsv_guard_set_case("kv03 flush: %s, record stream of %" PRIu64 " bits, trailing guard", name, E);
    rsv_kv03d_report rep;
    rsv_kv03d_report_init(&rep);
    int ok = rsv_kv03d_stream(nb ? g.ptr : NULL, E, NULL, 0, r, n, &rep);
    gk_check(ok, name, rep.msg);
    /* every shorter extent of the same bytes, the view still ending in the last byte when E' > 8(nb-1) */
    for (uint64_t e = E > 64 ? E - 64 : 0; e < E; e++) {
        rsv_kv03d_report_init(&rep);
        ok = rsv_kv03d_stream(nb ? g.ptr : NULL, e, NULL, 0, NULL, 0, &rep);
        gk_check(ok, name, rep.msg);
    }
    rsv_guard_release(&g);
    free(bytes);
    free(o);
}

int main(void)
{
    rsv_guard_install_fault_handler();
    static const rsv_oracle_kv03_policy pols[] = {
        {RSV_ORACLE_BACKSPACE_EG, 0, 15, 15}, {RSV_ORACLE_BACKSPACE_EG, 0, 2, 3},
        {RSV_ORACLE_BACKSPACE_GOLOMB, 7, 15, 15}, {RSV_ORACLE_BACKSPACE_EG, 1, 1, 3},
        {RSV_ORACLE_BACKSPACE_GOLOMB, 1, 1000, 255}, {RSV_ORACLE_BACKSPACE_GOLOMB, UINT64_MAX, 16, 7},
    };
    rsv_rng g = {0xF1A5};
    for (size_t pi = 0; pi < sizeof pols / sizeof pols[0]; pi++) {
        size_t n;
        uint8_t *f = gk_encode(gk_recs12, 4, &pols[pi], &n);
        if (!f) return 2;
        tail_and_head(f, n, gk_recs12, 4, "section 12 records");
        flips_flush(f, n, "section 12 records");
        if (pols[pi].W >= 4) data_stream_flush(f, n, gk_recs12, 4, "section 12 records");
        free(f);
        f = gk_encode(gk_recs12, 0, &pols[pi], &n);
        if (!f) return 2;
        tail_and_head(f, n, gk_recs12, 0, "empty file");
        flips_flush(f, n, "empty file");
        free(f);
        for (int round = 0; round < 4; round++) {
            rsv_kv03d_set s = rsv_kv03d_gen(&g, (size_t)rsv_rng_below(&g, 120), round ? 30 : 300, round ? 20 : 600);
            f = gk_encode(s.r, s.n, &pols[pi], &n);
            if (!f) return 2;
            tail_and_head(f, n, s.r, s.n, "random file");
            if (round == 1) flips_flush(f, n, "random file"); /* small keys: many flips stay cheap */
            if (pols[pi].W >= s.n) data_stream_flush(f, n, s.r, s.n, "random file");
            free(f);
            stream_flush(s.r, s.n, "random set");
            rsv_kv03d_set_free(&s);
        }
    }
    stream_flush(gk_recs12, 4, "section 12 records");
    stream_flush(gk_recs12, 0, "no records");
    rsv_guard_set_case("kv03 flush: finished");
    return gk_report();
}
