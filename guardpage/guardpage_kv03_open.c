/* KV03 open touches only the 96-byte header and the 192-byte directory
 * (KV03.md §9.1: "it MUST NOT touch any other body byte").
 *
 * Each file is mapped so that file offset 288 (the first section byte) is
 * the first byte of a PROT_NONE page: the header and directory end exactly
 * at the end of a readable page, the rest of the file sits, intact, in
 * PROT_NONE pages after it. Codec rsv_kv03_open and the oracle's OPEN mode
 * (documented to read the same 288 bytes) must both complete without a
 * fault and agree on the status — for valid files (§12 example under
 * several policies, the empty file, random files up to tens of KB so the
 * payload spans several pages) and for every single-bit flip of the 288
 * readable bytes, with the header CRC left stale and with both CRCs
 * recomputed (so checks 5–28 are reached), with and without an expected
 * policy. The §12.5 multi-code file (read from docs/spec/KV03.md) is swept
 * the same way: open reads no dictionary, offsets or seeds (§6.3). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <inttypes.h>

#include "guardpage_kv03_common.h"
#include "spec_doc.h"

#define HEAD 288

/* Open the mapped file with both sides: no fault, same status. */
static void open_both(const uint8_t *file, size_t n, const rsv_kv03_policy *expected, const char *what)
{
    rsv_kv03_file f;
    rsv_status c = rsv_kv03_open(file, n, expected, &f);
    /* the v2 oracle: open without v1's check 29, as the codec (KV03.md §9.1) */
    rsv_oracle_kv03_v2_result o;
    rsv_oracle_kv03_policy op;
    if (expected) op = rsv_kv03d_policy(expected);
    rsv_oracle_kv03_decode_v2(file, n, expected ? &op : NULL, RSV_ORACLE_KV03_OPEN, &o);
    char detail[256];
    snprintf(detail, sizeof detail, "codec %s, oracle %s", rsv_status_name(c), rsv_status_name(o.base.status));
    gk_check(c == o.base.status, what, detail);
    rsv_oracle_kv03_v2_result_free(&o);
}

/* One mapping per file; each case rewrites only the 288 readable bytes (the
 * header and directory stay writable: the test is about loads beyond them). */
static void sweep(const char *name, const uint8_t *file, size_t n, const rsv_kv03_policy *p)
{
    gk_mapped m;
    if (gk_map_split(&m, file, n, HEAD) != 0 || mprotect(m.map, rsv_guard_page_size(), PROT_READ | PROT_WRITE) != 0) {
        perror("guardpage_kv03_open: mapping");
        exit(2);
    }
    rsv_guard_set_case("kv03 open: %s, %zu bytes, intact", name, n);
    open_both(m.file, n, NULL, name);
    open_both(m.file, n, p, name);
    uint8_t *x = malloc(n);
    for (size_t bit = 0; bit < 8 * HEAD; bit++) {
        for (int reseal = 0; reseal < 2; reseal++) {
            memcpy(x, file, n);
            x[bit / 8] ^= (uint8_t)(0x80u >> (bit % 8));
            if (reseal) rsv_kv03d_reseal(x, n); /* on the scratch copy: the CRC reads the whole body */
            memcpy(m.file, x, HEAD);
            rsv_guard_set_case("kv03 open: %s, flip of bit %zu%s", name, bit, reseal ? ", resealed" : "");
            open_both(m.file, n, bit % 3 ? NULL : p, name);
        }
    }
    free(x);
    gk_unmap(&m);
}

int main(void)
{
    rsv_guard_install_fault_handler();
    static const rsv_oracle_kv03_policy pols[] = {
        {RSV_ORACLE_BACKSPACE_EG, 0, 15, 15}, {RSV_ORACLE_BACKSPACE_EG, 0, 2, 3},
        {RSV_ORACLE_BACKSPACE_GOLOMB, 7, 15, 15}, {RSV_ORACLE_BACKSPACE_EG, 63, 1, 3},
        {RSV_ORACLE_BACKSPACE_GOLOMB, UINT64_MAX, 16, 255},
    };
    rsv_rng g = {0x0BE9};
    for (size_t pi = 0; pi < sizeof pols / sizeof pols[0]; pi++) {
        rsv_kv03_policy p = {pols[pi].bs_kind == RSV_ORACLE_BACKSPACE_GOLOMB ? RSV_BACKSPACE_GOLOMB : RSV_BACKSPACE_EG,
                             pols[pi].bs_param, pols[pi].W, pols[pi].K};
        size_t n;
        uint8_t *f = gk_encode(gk_recs12, 4, &pols[pi], &n);
        if (!f) return 2;
        sweep("section 12 records", f, n, &p);
        free(f);
        f = gk_encode(gk_recs12, 0, &pols[pi], &n);
        if (!f) return 2;
        sweep("empty file", f, n, &p);
        free(f);
        rsv_kv03d_set s = rsv_kv03d_gen(&g, 20 + 100 * pi, 40, 300);
        f = gk_encode(s.r, s.n, &pols[pi], &n);
        if (!f) return 2;
        sweep("random file", f, n, &p);
        free(f);
        rsv_kv03d_set_free(&s);
    }
    size_t n;
    uint8_t *f = NULL;
    if (rsv_spec_hexdump("12.5", &f, &n) != 0) return 2;
    rsv_kv03_policy p125 = {RSV_BACKSPACE_EG, 0, 3, 3};
    sweep("section 12.5 multi-code file", f, n, &p125);
    free(f);
    rsv_guard_set_case("kv03 open: finished");
    return gk_report();
}
