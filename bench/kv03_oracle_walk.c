/* Baseline KV03 walkers on the oracle's stateless decoders (see the header). */
#include "kv03_oracle_walk.h"

#include <string.h>

#include "kv03_fixture.h"
#include "workload.h"

rsv_oracle_ef_view kv03_oracle_ef_view(const rsv_kv03_file *f)
{
    rsv_oracle_ef_view v;
    memset(&v, 0, sizeof v);
    v.n = f->ef.n;
    v.U = f->ef.U;
    v.L = f->ef.L;
    v.low = f->ef.low;
    v.low_len = f->sec_len[1];
    v.high = f->ef.high;
    v.high_len = f->sec_len[2];
    v.samples = f->ef.samples;
    v.samples_len = f->sec_len[3];
    v.sparse = f->ef.sparse;
    v.sparse_len = f->sec_len[4];
    return v;
}

/* One stateless call; abort on failure, else advance *p and return the value. */
static uint64_t must(rsv_oracle_result r, uint64_t *p, const char *what)
{
    if (r.status != RSV_OK) rsv_bench_fail("baseline: %s failed at bit %llu", what, (unsigned long long)r.pos);
    *p = r.pos;
    return r.value;
}

typedef struct frame {
    uint64_t R, local, S, lit, width, vlen, vpos, end; /* lit/vpos: bit positions */
    int present;
} frame;

/* §3.3 steps 1–5 for record i at *p; cont_prev updated. */
static void parse_frame(const rsv_kv03_file *f, const rsv_oracle_ef_view *ef, uint64_t i,
                        uint64_t *p, uint64_t *cont_prev, frame *fr)
{
    rsv_view v = f->data;
    uint64_t c = f->dict_bits, W = f->policy.W;
    if (i % W == 0) {
        if (i > 0) {
            uint64_t sel;
            if (rsv_oracle_ef_select(ef, i / W, &sel) != RSV_OK) rsv_bench_fail("baseline: select");
            if (sel + i * f->cw != *p) rsv_bench_fail("baseline: block offset at %llu", (unsigned long long)i);
        }
        fr->R = must(rsv_oracle_read_eg(v, *p, 0), p, "EG0(R)");
        if (fr->R < c) rsv_bench_fail("baseline: retained precedes code");
    } else {
        uint64_t b = f->policy.code == RSV_BACKSPACE_EG
                         ? must(rsv_oracle_read_eg(v, *p, f->policy.param), p, "backspace")
                         : must(rsv_oracle_read_golomb(v, *p, f->policy.param), p, "backspace");
        if (b > *cont_prev) rsv_bench_fail("baseline: backspace exceeds key");
        fr->R = *cont_prev - b;
        if (fr->R < c) rsv_bench_fail("baseline: sort transition");
    }
    fr->local = fr->R - c;
    fr->S = must(rsv_oracle_read_eg(v, *p, 0), p, "EG0(S)");
    fr->lit = *p;
    rsv_view lit;
    must(rsv_oracle_take(v, *p, fr->S, &lit), p, "literal");
    if ((fr->local + fr->S) % 8 != 0) rsv_bench_fail("baseline: key ends inside a byte");
    uint64_t vstart = *p;
    fr->present = (int)must(rsv_oracle_read(v, *p, 1), p, "value bit");
    fr->vlen = 0;
    if (fr->present) {
        fr->vlen = must(rsv_oracle_read_eg(v, *p, 0), p, "value length");
        if (fr->vlen > (v.len - *p) / 8) rsv_bench_fail("baseline: truncated value");
    }
    fr->vpos = *p;
    fr->width = *p - vstart + 8 * fr->vlen;
    if (fr->vlen) must(rsv_oracle_skip(v, *p, 8 * fr->vlen), p, "value bytes");
    if (f->cw_present && fr->width != f->cw) rsv_bench_fail("baseline: value width");
    *cont_prev = fr->R + fr->S;
    fr->end = *p;
}

static void terminal(const rsv_kv03_file *f, uint64_t p, uint64_t cont_prev)
{
    if (p != f->extent || cont_prev != f->terminal) rsv_bench_fail("baseline: terminal mismatch");
}

uint64_t kv03_oracle_frames(const rsv_kv03_file *f, const rsv_oracle_ef_view *ef)
{
    uint64_t p = 0, cont = f->dict_bits, h = 0;
    frame fr;
    for (uint64_t i = 0; i < f->N; i++) {
        parse_frame(f, ef, i, &p, &cont, &fr);
        h = kv03_fold(kv03_fold(kv03_fold(kv03_fold(h, fr.end), fr.R), (fr.local + fr.S) / 8), fr.width);
    }
    terminal(f, p, cont);
    return h;
}

/* Write key bits [at, at + n) of dst from view bits starting at q; (at + n) is a
 * multiple of 8. The partial first byte keeps its bits before `at`. */
static void load_bits(uint8_t *dst, uint64_t at, rsv_view v, uint64_t q, uint64_t n)
{
    uint64_t byte = at / 8;
    unsigned head = (unsigned)((8 - at % 8) % 8);
    if (head > n) head = (unsigned)n; /* cannot happen for valid input (byte rule) */
    if (head) {
        uint64_t x = must(rsv_oracle_read(v, q, head), &q, "literal head");
        dst[byte] = (uint8_t)((dst[byte] & (0xFFu << head)) | x);
        byte++;
        n -= head;
    }
    for (; n >= 8; n -= 8) dst[byte++] = (uint8_t)must(rsv_oracle_read(v, q, 8), &q, "literal byte");
}

/* K = prev bits [0, local) ‖ literal into cur. */
static void rebuild(uint8_t *cur, const uint8_t *prev, uint64_t local, rsv_view v, uint64_t lit,
                    uint64_t S)
{
    memcpy(cur, prev, (size_t)((local + 7) / 8));
    load_bits(cur, local, v, lit, S);
}

uint64_t kv03_oracle_cursor(const rsv_kv03_file *f, const rsv_oracle_ef_view *ef,
                            uint8_t *const keybuf[2])
{
    uint64_t p = 0, cont = f->dict_bits, h = 0, prev_len = 0, c = f->dict_bits;
    frame fr;
    for (uint64_t i = 0; i < f->N; i++) {
        parse_frame(f, ef, i, &p, &cont, &fr);
        uint8_t *cur = keybuf[i & 1];
        const uint8_t *prev = keybuf[(i & 1) ^ 1];
        if (fr.R > c + 8 * prev_len) rsv_bench_fail("baseline: missing prefix"); /* step 6 */
        uint64_t len = (fr.local + fr.S) / 8;
        rebuild(cur, prev, fr.local, f->data, fr.lit, fr.S);
        if (i > 0 && rsv_oracle_key_compare(cur, len, prev, prev_len) <= 0)
            rsv_bench_fail("baseline: unsorted at %llu", (unsigned long long)i);
        prev_len = len;
        h = kv03_fold(kv03_fold(kv03_fold(h, len), len ? cur[0] : 0), fr.width);
    }
    terminal(f, p, cont);
    return h;
}

uint64_t kv03_oracle_records(rsv_view v, uint8_t *const keybuf[2], uint8_t *valbuf, uint64_t *count)
{
    const uint64_t c = 1, c0 = 0; /* C0 = `0` */
    uint64_t p = 0, h = 0, prev_len = 0, i = 0;
    for (; p < v.len; i++) {
        uint64_t b = must(rsv_oracle_read_eg(v, p, 0), &p, "selector backspace");
        if (b > (i == 0 ? 0 : c)) rsv_bench_fail("baseline: sort backspace");
        if (i == 0 && must(rsv_oracle_read(v, p, c), &p, "C0") != c0) rsv_bench_fail("baseline: selector");
        if (i > 0 && b > 0 && must(rsv_oracle_read(v, p, b), &p, "C0 tail") != (c0 & ((UINT64_C(1) << b) - 1)))
            rsv_bench_fail("baseline: selector");
        uint8_t *cur = keybuf[i & 1];
        const uint8_t *prev = keybuf[(i & 1) ^ 1];
        uint64_t bk = must(rsv_oracle_read_eg(v, p, 0), &p, "key backspace");
        if (bk > 8 * prev_len) rsv_bench_fail("baseline: backspace exceeds key");
        uint64_t kept = 8 * prev_len - bk;
        uint64_t S = must(rsv_oracle_read_eg(v, p, 0), &p, "suffix length");
        uint64_t lit = p;
        rsv_view sub;
        must(rsv_oracle_take(v, p, S, &sub), &p, "suffix");
        if ((kept + S) % 8 != 0) rsv_bench_fail("baseline: key ends inside a byte");
        uint64_t len = (kept + S) / 8;
        rebuild(cur, prev, kept, v, lit, S);
        uint64_t vlen = 0;
        if (must(rsv_oracle_read(v, p, 1), &p, "value bit")) {
            vlen = must(rsv_oracle_read_eg(v, p, 0), &p, "value length");
            if (vlen > (v.len - p) / 8) rsv_bench_fail("baseline: truncated value");
            for (uint64_t j = 0; j < vlen; j++) valbuf[j] = (uint8_t)must(rsv_oracle_read(v, p, 8), &p, "value byte");
        }
        if (i > 0 && rsv_oracle_key_compare(cur, len, prev, prev_len) <= 0) rsv_bench_fail("baseline: unsorted");
        prev_len = len;
        h = kv03_fold(kv03_fold(kv03_fold(kv03_fold(kv03_fold(h, len), len ? cur[len - 1] : 0), vlen),
                                vlen ? valbuf[vlen - 1] : 0), p);
    }
    *count = i;
    return h;
}
