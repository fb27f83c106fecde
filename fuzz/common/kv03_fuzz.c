/* Shared pieces of the KV03 fuzz targets (see kv03_fuzz.h for the layout). */
#include "kv03_fuzz.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guard_arena.h"
#include "kv03_diff.h"
#include "params.h"

_Noreturn void rsv_kvf_fail(const char *target, const char *fmt, ...)
{
    va_list ap;
    rsv_fuzz_arena_unpoison(); /* the report may dump arena bytes */
    fprintf(stderr, "%s MISMATCH: ", target);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    abort();
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "kv03 fuzz: out of memory (%zu bytes)\n", n);
        abort();
    }
    return p;
}

void rsv_kvf_policy_from_oracle(const rsv_oracle_kv03_policy *o, rsv_kvf_policy *out)
{
    out->oracle = *o;
    out->codec = rsv_kv03d_codec_policy(o);
}

void rsv_kvf_gen_policy(rsv_fuzz_producer *p, rsv_kvf_policy *out)
{
    rsv_oracle_kv03_policy o;
    uint8_t sel = rsv_fuzz_u8(p);
    o.bs_kind = sel & 1u;
    if (o.bs_kind == RSV_ORACLE_BACKSPACE_EG) {
        uint8_t k = rsv_fuzz_u8(p);
        o.bs_param = k <= 200 ? k % 64u : (k & 1u ? 64u : 255u);
    } else {
        int alt;
        o.bs_param = rsv_fuzz_modulus(p, &alt);
    }
    uint8_t w = rsv_fuzz_u8(p);
    if (w < 16)
        o.W = w + 1u;
    else if (w < 200)
        o.W = 15;
    else {
        switch ((w - 200u) % 8u) {
        case 0: o.W = UINT32_MAX; break;
        case 1: o.W = rsv_fuzz_u32(p); break;
        case 2: o.W = UINT64_C(1) << 32; break;
        case 3: o.W = 0; break;
        case 4: o.W = 256; break;
        case 5: o.W = 4096; break;
        case 6: o.W = 2; break;
        default: o.W = 3; break;
        }
    }
    uint8_t k = rsv_fuzz_u8(p);
    if (k < 200) {
        o.K = (UINT64_C(1) << (2u + k % 62u)) - 1u;
    } else {
        static const uint64_t odd[] = {UINT64_MAX, 15, 3, 0, 1, 2, 4, UINT64_C(1) << 63};
        o.K = odd[(k - 200u) % 8u];
    }
    rsv_kvf_policy_from_oracle(&o, out);
}

void rsv_kvf_gen_code(rsv_fuzz_producer *p, rsv_kvf_code *out)
{
    rsv_kvf_gen_code_sel(p, rsv_fuzz_u8(p), out);
}

void rsv_kvf_gen_code_sel(rsv_fuzz_producer *p, uint8_t sel, rsv_kvf_code *out)
{
    memset(out, 0, sizeof *out);
    if (sel < 128) {
        out->bits = 1; /* `0` */
        return;
    }
    out->bits = rsv_fuzz_u16(p) % (RSV_KV03_MAX_CODE_BITS + 1u);
    for (uint64_t i = 0; i < (out->bits + 7) / 8; i++) out->bytes[i] = rsv_fuzz_u8(p);
    if (out->bits % 8) /* unused low bits: zero, so both sides see one C0 */
        out->bytes[out->bits / 8] &= (uint8_t)(0xFFu << (8 - out->bits % 8));
}

/* One generated record before sorting: offsets into the storage arrays. */
typedef struct gen_rec {
    size_t koff, klen, voff, vlen;
    int state;
    size_t seq; /* generation order, to let the later duplicate win */
} gen_rec;

static const uint8_t *g_sort_keys; /* qsort has no context argument */

RSV_FUZZ_NO_COVERAGE static int gen_cmp(const void *a, const void *b)
{
    const gen_rec *x = a, *y = b;
    int c = rsv_oracle_key_compare(g_sort_keys + x->koff, x->klen, g_sort_keys + y->koff, y->klen);
    if (c) return c;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void finish_list(gen_rec *g, size_t n, int sorted, uint8_t *keys, uint8_t *vals,
                        rsv_kvf_recs *out)
{
    if (sorted && n > 1) {
        g_sort_keys = keys;
        qsort(g, n, sizeof *g, gen_cmp);
        size_t m = 0;
        for (size_t i = 0; i < n; i++) {
            if (m > 0 && rsv_oracle_key_compare(keys + g[m - 1].koff, g[m - 1].klen, keys + g[i].koff,
                                                g[i].klen) == 0)
                g[m - 1] = g[i]; /* same key: the later (higher seq) binding wins */
            else
                g[m++] = g[i];
        }
        n = m;
    }
    out->n = n;
    out->code_idx = NULL;
    out->keys = keys;
    out->vals = vals;
    out->codec = xmalloc(n * sizeof *out->codec);
    out->oracle = xmalloc(n * sizeof *out->oracle);
    for (size_t i = 0; i < n; i++) {
        const uint8_t *k = g[i].klen ? keys + g[i].koff : NULL;
        const uint8_t *v = g[i].vlen ? vals + g[i].voff : NULL;
        out->codec[i].code = NULL; /* KV03 v2 field: the call's code */
        out->codec[i].code_bits = 0;
        out->codec[i].key = k;
        out->codec[i].key_len = g[i].klen;
        out->codec[i].value = g[i].state ? rsv_value_present(v, g[i].vlen) : rsv_value_tombstone();
        out->oracle[i].key = k;
        out->oracle[i].key_len = g[i].klen;
        out->oracle[i].state = g[i].state ? RSV_ORACLE_PRESENT : RSV_ORACLE_TOMBSTONE;
        out->oracle[i].value = v;
        out->oracle[i].value_len = g[i].vlen;
    }
}

/* Keys 3i (i < 850, so below 2^16) as 2 big-endian bytes: already strictly
 * increasing and distinct, so the list is the same sorted or not, and the
 * qsort of up to 850 records (the callers keep at most 96) is skipped. */
static void gen_bulk(size_t n, rsv_kvf_recs *out)
{
    gen_rec *g = xmalloc(n * sizeof *g);
    uint8_t *keys = xmalloc(2 * n), *vals = xmalloc(n);
    for (size_t i = 0; i < n; i++) {
        keys[2 * i] = (uint8_t)((3 * i) >> 8);
        keys[2 * i + 1] = (uint8_t)(3 * i);
        vals[i] = (uint8_t)i;
        g[i].koff = 2 * i;
        g[i].klen = 2;
        g[i].state = i % 7 == 0;
        g[i].voff = i;
        g[i].vlen = i % 7 == 0 ? 1 : 0;
        g[i].seq = i;
    }
    finish_list(g, n, 0, keys, vals, out);
    free(g);
}

void rsv_kvf_gen_records(rsv_fuzz_producer *p, int sorted, rsv_kvf_recs *out)
{
    rsv_kvf_gen_records_max(p, sorted, SIZE_MAX, out);
}

void rsv_kvf_gen_records_max(rsv_fuzz_producer *p, int sorted, size_t bulk_max, rsv_kvf_recs *out)
{
    memset(out, 0, sizeof *out);
    uint8_t nsel = rsv_fuzz_u8(p);
    if (nsel >= RSV_KVF_BULK_SEL) {
        size_t n = 250u + 40u * (nsel - RSV_KVF_BULK_SEL);
        gen_bulk(n < bulk_max ? n : bulk_max, out);
        return;
    }
    size_t n = nsel % (RSV_KVF_MAX_RECORDS + 1u);
    gen_rec *g = xmalloc(n * sizeof *g);
    uint8_t *keys = xmalloc(n * RSV_KVF_MAX_KEY), *vals = xmalloc(n * RSV_KVF_MAX_VALUE);
    uint8_t prev[RSV_KVF_MAX_KEY];
    size_t prev_len = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t *k = keys + i * RSV_KVF_MAX_KEY;
        size_t keep = rsv_fuzz_u8(p) % (prev_len + 1);
        size_t add = rsv_fuzz_u8(p) % 9u;
        if (keep + add > RSV_KVF_MAX_KEY) add = RSV_KVF_MAX_KEY - keep;
        memcpy(k, prev, keep);
        for (size_t j = 0; j < add; j++) {
            size_t at = keep + j;
            uint8_t mode = rsv_fuzz_u8(p), b = rsv_fuzz_u8(p);
            uint8_t old = at < prev_len ? prev[at] : 0;
            switch (mode % 4u) {
            case 0: k[at] = b; break;
            case 1: k[at] = (uint8_t)(old ^ (1u << (b % 8u))); break;
            case 2: k[at] = (uint8_t)(old + 1u); break;
            default: k[at] = 0; break;
            }
        }
        size_t klen = keep + add;
        memcpy(prev, k, klen);
        prev_len = klen;
        g[i].koff = i * RSV_KVF_MAX_KEY;
        g[i].klen = klen;
        g[i].voff = i * RSV_KVF_MAX_VALUE;
        g[i].seq = i;
        uint8_t vsel = rsv_fuzz_u8(p) % 3u;
        g[i].state = vsel != 0;
        g[i].vlen = 0;
        if (vsel == 2) {
            g[i].vlen = rsv_fuzz_u8(p) % (RSV_KVF_MAX_VALUE + 1u);
            for (size_t j = 0; j < g[i].vlen; j++) vals[g[i].voff + j] = rsv_fuzz_u8(p);
        }
    }
    finish_list(g, n, sorted, keys, vals, out);
    free(g);
}

size_t rsv_kvf_quadratic_cap(uint64_t code_bits)
{
    const uint64_t budget = (uint64_t)RSV_KVF_CAP_MAX * RSV_KVF_CAP_MAX * 16u, c = code_bits > 16 ? code_bits : 16;
    uint64_t n = RSV_KVF_CAP_MAX;
    while (n > RSV_KVF_MAX_RECORDS && n * n * c > budget) n--;
    return (size_t)n;
}

void rsv_kvf_recs_cap(rsv_kvf_recs *r, uint64_t code_bits)
{
    size_t cap = rsv_kvf_quadratic_cap(code_bits);
    if (r->n > cap) r->n = cap; /* the arrays keep their size; free() is unchanged */
}

void rsv_kvf_recs_from_oracle(const rsv_oracle_records *in, rsv_kvf_recs *out)
{
    size_t n = in->count, kbytes = 0, vbytes = 0;
    for (size_t i = 0; i < n; i++) {
        kbytes += in->items[i].key_len;
        vbytes += in->items[i].value_len;
    }
    gen_rec *g = xmalloc(n * sizeof *g);
    uint8_t *keys = xmalloc(kbytes), *vals = xmalloc(vbytes);
    size_t ko = 0, vo = 0;
    for (size_t i = 0; i < n; i++) {
        const rsv_oracle_record *r = &in->items[i];
        if (r->key_len) memcpy(keys + ko, r->key, r->key_len);
        g[i].koff = ko;
        g[i].klen = r->key_len;
        ko += r->key_len;
        g[i].state = r->state == RSV_ORACLE_PRESENT;
        g[i].vlen = g[i].state ? r->value_len : 0;
        if (g[i].vlen) memcpy(vals + vo, r->value, g[i].vlen);
        g[i].voff = vo;
        vo += g[i].vlen;
        g[i].seq = i;
    }
    finish_list(g, n, 0, keys, vals, out);
    free(g);
}

void rsv_kvf_recs_free(rsv_kvf_recs *r)
{
    free(r->codec);
    free(r->oracle);
    free(r->keys);
    free(r->vals);
    free(r->code_idx);
    memset(r, 0, sizeof *r);
}

static void put_le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

void rsv_kvf_reseal(uint8_t *file, size_t n)
{
    if (n < RSV_KV03_HEADER_BYTES) return;
    put_le32(file + 64, rsv_oracle_crc32c(file + RSV_KV03_HEADER_BYTES, n - RSV_KV03_HEADER_BYTES));
    uint8_t h[RSV_KV03_HEADER_BYTES];
    memcpy(h, file, sizeof h);
    memset(h + 68, 0, 4);
    put_le32(file + 68, rsv_oracle_crc32c(h, sizeof h));
}

const char *rsv_kvf_record_diff(const uint8_t *key, size_t key_len, rsv_value_kind kind,
                                const uint8_t *val, size_t val_len, const rsv_oracle_record *want)
{
    if (key_len != want->key_len) return "key length";
    if (key_len && memcmp(key, want->key, key_len) != 0) return "key bytes";
    int present = kind == RSV_VALUE_PRESENT;
    if (present != (want->state == RSV_ORACLE_PRESENT)) return "value state (tombstone vs present)";
    if (!present) return NULL;
    if (val_len != want->value_len) return "value length";
    if (val_len && memcmp(val, want->value, val_len) != 0) return "value bytes";
    return NULL;
}

void rsv_kvf_dump(const char *what, const uint8_t *p, size_t n)
{
    size_t k = n < 64 ? n : 64;
    rsv_fuzz_arena_unpoison();
    fprintf(stderr, "  %s (%zu bytes%s):", what, n, k < n ? ", first 64" : "");
    for (size_t i = 0; i < k; i++) fprintf(stderr, "%s%02x", i % 16 ? " " : "\n    ", p[i]);
    fprintf(stderr, "\n");
}
