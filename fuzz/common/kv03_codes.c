/* Selector code sets for the KV03 v2 fuzz inputs (see kv03_codes.h). */
#include "kv03_codes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "splitmix64.h"

static unsigned getb(const uint8_t *b, uint64_t i) { return (b[i / 8] >> (7 - i % 8)) & 1u; }

static void setb(uint8_t *b, uint64_t i, unsigned v)
{
    if (v) b[i / 8] |= (uint8_t)(0x80u >> (i % 8));
    else b[i / 8] &= (uint8_t)~(0x80u >> (i % 8));
}

static void push_bit(rsv_kvf_code *c, unsigned v)
{
    setb(c->bytes, c->bits, v);
    c->bits++;
}

void rsv_kvf_set_sync(rsv_kvf_set *s)
{
    uint64_t at = 0;
    memset(s->packed, 0, sizeof s->packed);
    for (size_t j = 0; j < s->m; j++) {
        s->oracle[j].bits = s->code[j].bytes;
        s->oracle[j].nbits = s->code[j].bits;
        for (uint64_t k = 0; k < s->code[j].bits; k++) setb(s->packed, at++, getb(s->code[j].bytes, k));
        s->ends[j] = at;
    }
    s->codec.bits = s->packed;
    s->codec.ends = s->ends;
    s->codec.m = s->m;
}

void rsv_kvf_set_single(const rsv_kvf_code *c, rsv_kvf_set *s)
{
    memset(s, 0, sizeof *s);
    s->m = 1;
    s->code[0] = *c;
    rsv_kvf_set_sync(s);
}

static int code_cmp(const void *a, const void *b)
{
    const rsv_kvf_code *x = a, *y = b;
    rsv_oracle_code cx = {x->bytes, x->bits}, cy = {y->bytes, y->bits};
    return rsv_oracle_code_compare(cx, cy);
}

void rsv_kvf_gen_code_set(rsv_fuzz_producer *p, int allow_broken, rsv_kvf_set *s)
{
    memset(s, 0, sizeof *s);
    size_t target = 2 + rsv_fuzz_u8(p) % 15u;
    uint64_t L = 1 + rsv_fuzz_u8(p) % 12u;
    uint8_t f = rsv_fuzz_u8(p);
    s->m = 2; /* the root split: `0`, `1` */
    push_bit(&s->code[0], 0);
    push_bit(&s->code[1], 1);
    for (size_t step = 0; step < 4 * target && s->m < target; step++) {
        uint8_t x = rsv_fuzz_u8(p);
        size_t i = (x & 63u) % s->m;
        if (s->code[i].bits >= L) continue;
        if (x >> 6 == 3) {
            push_bit(&s->code[i], x & 1u);
        } else {
            s->code[s->m] = s->code[i];
            push_bit(&s->code[i], 0);
            push_bit(&s->code[s->m], 1);
            s->m++;
        }
    }
    if (f & 1u) { /* one code of 65..128 bits */
        size_t i = rsv_fuzz_u8(p) % s->m;
        uint64_t seed = rsv_fuzz_u64(p), want = 65 + seed % 64u;
        for (uint64_t k = 0; s->code[i].bits < want; k++) push_bit(&s->code[i], (unsigned)(rsv_mix64(seed + k) & 1u));
    }
    if (f & 4u) qsort(s->code, s->m, sizeof s->code[0], code_cmp);
    if ((f & 2u) && allow_broken) {
        uint8_t z = rsv_fuzz_u8(p);
        rsv_kvf_code c = s->code[z % s->m];
        switch (z >> 6) {
        case 0: break; /* duplicate */
        case 1:
            if (c.bits) {
                c.bits--;
                setb(c.bytes, c.bits, 0);
            }
            break;
        case 2: push_bit(&c, 0); break;
        default: memset(&c, 0, sizeof c); break;
        }
        s->code[s->m++] = c;
    }
    rsv_kvf_set_sync(s);
}

/* sort context (qsort has none): the records and each set code's rank, the
 * number of set codes the oracle orders strictly before it (equal codes get
 * equal ranks), so that the comparator compares two integers where it
 * compared two codes bit by bit: m^2 code compares per input instead of
 * n log n (the sort was ~6 % of this target's instructions). */
static const rsv_kvf_recs *g_recs;
static size_t g_rank[RSV_KVF_MAX_CODES];

RSV_FUZZ_NO_COVERAGE static int logical_cmp(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    size_t ri = g_rank[g_recs->code_idx[i]], rj = g_rank[g_recs->code_idx[j]];
    int c = ri < rj ? -1 : ri > rj;
    if (!c) {
        const rsv_record *x = &g_recs->codec[i], *y = &g_recs->codec[j];
        c = rsv_oracle_key_compare(x->key, x->key_len, y->key, y->key_len);
    }
    return c ? c : (i < j ? -1 : i > j);
}

void rsv_kvf_assign_codes(rsv_fuzz_producer *p, const rsv_kvf_set *s, int sorted, rsv_kvf_recs *r)
{
    size_t n = r->n;
    free(r->code_idx);
    r->code_idx = malloc((n ? n : 1) * sizeof *r->code_idx);
    if (!r->code_idx) abort();
    for (size_t i = 0; i < n; i++) {
        size_t j = rsv_fuzz_u8(p) % s->m;
        r->code_idx[i] = j;
        r->codec[i].code = s->code[j].bytes;
        r->codec[i].code_bits = s->code[j].bits;
    }
    if (!sorted || n < 2) return;
    size_t *perm = malloc(n * sizeof *perm);
    rsv_record *c = malloc(n * sizeof *c);
    rsv_oracle_record *o = malloc(n * sizeof *o);
    size_t *ci = malloc(n * sizeof *ci);
    if (!perm || !c || !o || !ci) abort();
    for (size_t i = 0; i < n; i++) perm[i] = i;
    for (size_t j = 0; j < s->m; j++) {
        rsv_oracle_code cj = {s->code[j].bytes, s->code[j].bits};
        g_rank[j] = 0;
        for (size_t k = 0; k < s->m; k++) {
            rsv_oracle_code ck = {s->code[k].bytes, s->code[k].bits};
            g_rank[j] += rsv_oracle_code_compare(ck, cj) < 0;
        }
    }
    g_recs = r;
    qsort(perm, n, sizeof *perm, logical_cmp);
    for (size_t i = 0; i < n; i++) {
        c[i] = r->codec[perm[i]];
        o[i] = r->oracle[perm[i]];
        ci[i] = r->code_idx[perm[i]];
    }
    memcpy(r->codec, c, n * sizeof *c);
    memcpy(r->oracle, o, n * sizeof *o);
    memcpy(r->code_idx, ci, n * sizeof *ci);
    free(perm);
    free(c);
    free(o);
    free(ci);
}

void rsv_kvf_crecords(const rsv_kvf_recs *r, rsv_oracle_crecord *out)
{
    static const uint8_t zero[1] = {0};
    for (size_t i = 0; i < r->n; i++) {
        out[i].rec = r->oracle[i];
        out[i].code.bits = r->codec[i].code ? r->codec[i].code : zero;
        out[i].code.nbits = r->codec[i].code ? r->codec[i].code_bits : 1;
    }
}

int rsv_kvf_view_is_code(rsv_view v, const uint8_t *code, uint64_t bits)
{
    if (v.len != bits) return 0;
    for (uint64_t k = 0; k < bits; k++)
        if (((v.data[(v.off + k) / 8] >> (7 - (v.off + k) % 8)) & 1u) != getb(code, k)) return 0;
    return 1;
}

uint64_t rsv_kvf_set_max_bits(const rsv_kvf_set *s)
{
    uint64_t b = 0;
    for (size_t j = 0; j < s->m; j++)
        if (s->code[j].bits > b) b = s->code[j].bits;
    return b;
}
