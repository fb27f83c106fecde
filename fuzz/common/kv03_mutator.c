/* Structure-aware KV03 mutator (see kv03_mutator.h). */
#include "kv03_mutator.h"

#include <stdlib.h>
#include <string.h>

#include "kv03_dict_edit.h"
#include "kv03_fuzz.h"
#include "splitmix64.h"
#include "reservoir/oracle_kv03.h"

/* libFuzzer's own byte mutator; weak so that the replay and AFL builds (which
 * never call the custom mutator) still link. */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
#if defined(__GNUC__) || defined(__clang__)
#pragma weak LLVMFuzzerMutate
#endif

#define MUT_MAX_RECORDS 1024
#define MUT_MAX_BYTES 48

typedef struct mrec {
    uint8_t key[MUT_MAX_BYTES];
    size_t klen;
    int present;
    uint8_t val[MUT_MAX_BYTES];
    size_t vlen;
    size_t code; /* index into mfile.codes */
} mrec;

/* Records with their selector codes (format revision v2: codes[0..m) is
 * the dictionary, or C0 alone for a one-code file; an empty file keeps the
 * default `0` as its only code). */
typedef struct mfile {
    mrec *r;
    size_t n;
    rsv_oracle_kv03_policy pol;
    rsv_kvf_code codes[RSV_KVF_DICT_MAX];
    size_t m;
} mfile;

static uint64_t next(rsv_rng *s) { return rsv_rng_next(s); }

static size_t below(rsv_rng *s, size_t n) { return n ? (size_t)(next(s) % n) : 0; }

/* Raw byte mutation: libFuzzer's when linked, else flip a few bytes. */
static size_t raw_mutate(uint8_t *d, size_t size, size_t max, rsv_rng *s)
{
    if (LLVMFuzzerMutate) return LLVMFuzzerMutate(d, size, max);
    for (int i = 0; i < 4 && size; i++) d[below(s, size)] ^= (uint8_t)(1u << below(s, 8));
    return size;
}

/* Decode with the oracle's v2 decoder (full scan); 1 and *out filled when it
 * parses and fits the editable shape. */
static int load(const uint8_t *d, size_t size, mfile *out)
{
    rsv_oracle_kv03_v2_result res;
    int ok = 0;
    memset(out, 0, sizeof *out);
    if (rsv_oracle_kv03_decode_v2(d, size, NULL, RSV_ORACLE_KV03_SCAN, &res) == RSV_OK &&
        res.base.records.count <= MUT_MAX_RECORDS && res.dict.m <= RSV_KVF_DICT_MAX) {
        out->r = calloc(MUT_MAX_RECORDS + 1, sizeof *out->r);
        if (!out->r) abort();
        ok = 1;
        for (size_t i = 0; i < res.base.records.count && ok; i++) {
            const rsv_oracle_record *o = &res.base.records.items[i];
            mrec *m = &out->r[i];
            if (o->key_len > MUT_MAX_BYTES || o->value_len > MUT_MAX_BYTES) ok = 0;
            else {
                if (o->key_len) memcpy(m->key, o->key, o->key_len);
                m->klen = o->key_len;
                m->present = o->state == RSV_ORACLE_PRESENT;
                if (o->value_len) memcpy(m->val, o->value, o->value_len);
                m->vlen = o->value_len;
                m->code = res.code_index ? (size_t)res.code_index[i] : 0;
            }
        }
        out->n = res.base.records.count;
        out->pol = res.base.policy;
        out->m = res.dict.m;
        for (size_t j = 0; j < res.dict.m; j++) {
            out->codes[j].bits = res.dict.codes[j].nbits;
            if (res.dict.codes[j].nbits)
                memcpy(out->codes[j].bytes, res.dict.codes[j].bits, (res.dict.codes[j].nbits + 7) / 8);
        }
        if (out->m == 0) { /* an empty file stores no code: start from `0` */
            out->m = 1;
            out->codes[0].bits = 1;
        }
        if (!ok) {
            free(out->r);
            out->r = NULL;
        }
    }
    rsv_oracle_kv03_v2_result_free(&res);
    return ok;
}

static const mfile *g_file; /* qsort context: the codes */

/* Logical-key order (code, then key; KV03.md §1.2 for a prefix-free set;
 * otherwise some total order: the encoder then rejects the set). */
static int mrec_cmp(const void *a, const void *b)
{
    const mrec *x = a, *y = b;
    if (x->code != y->code) {
        const rsv_kvf_code *cx = &g_file->codes[x->code], *cy = &g_file->codes[y->code];
        rsv_oracle_code ox = {cx->bytes, cx->bits}, oy = {cy->bytes, cy->bits};
        int c = rsv_oracle_code_compare(ox, oy);
        if (c) return c;
        return x->code < y->code ? -1 : 1;
    }
    return rsv_oracle_key_compare(x->key, x->klen, y->key, y->klen);
}

/* Sort, drop duplicate logical keys, encode with the oracle's v2 writer
 * (each record with its code; one code gives the v1 file) into out. 0 if it
 * does not fit or the policy / code set is rejected. */
static size_t store(mfile *m, uint8_t *out, size_t max)
{
    g_file = m;
    qsort(m->r, m->n, sizeof *m->r, mrec_cmp); /* equal keys: one survives */
    size_t k = 0;
    for (size_t i = 0; i < m->n; i++)
        if (k == 0 || mrec_cmp(&m->r[k - 1], &m->r[i]) != 0) m->r[k++] = m->r[i];
    m->n = k;
    rsv_oracle_crecord *o = calloc(k + 1, sizeof *o);
    if (!o) abort();
    for (size_t i = 0; i < k; i++) {
        o[i].rec.key = m->r[i].key;
        o[i].rec.key_len = m->r[i].klen;
        o[i].rec.state = m->r[i].present ? RSV_ORACLE_PRESENT : RSV_ORACLE_TOMBSTONE;
        o[i].rec.value = m->r[i].val;
        o[i].rec.value_len = m->r[i].present ? m->r[i].vlen : 0;
        o[i].code.bits = m->codes[m->r[i].code].bytes;
        o[i].code.nbits = m->codes[m->r[i].code].bits;
    }
    uint8_t *bytes = NULL;
    size_t n = 0;
    rsv_status st = rsv_oracle_kv03_encode_v2(o, k, &m->pol, &bytes, &n, NULL);
    free(o);
    if (st != RSV_OK || n > max) n = 0;
    else memcpy(out, bytes, n);
    free(bytes);
    return n;
}

static void mutate_key(mrec *r, rsv_rng *s)
{
    switch (below(s, 4)) {
    case 0: /* change a bit inside a byte: a split inside that byte */
        if (r->klen) r->key[below(s, r->klen)] ^= (uint8_t)(1u << below(s, 8));
        break;
    case 1: r->klen = below(s, r->klen + 1); break; /* truncate (maybe to empty) */
    case 2:                                         /* extend */
        while (r->klen < MUT_MAX_BYTES && below(s, 2)) r->key[r->klen++] = (uint8_t)next(s);
        break;
    default:
        if (r->klen) r->key[r->klen - 1]++;
        break;
    }
}

static void mutate_value(mrec *r, rsv_rng *s)
{
    switch (below(s, 4)) {
    case 0: r->present = !r->present; break; /* tombstone <-> present */
    case 1: r->present = 1; r->vlen = 0; break; /* present-empty */
    case 2:
        r->present = 1;
        r->vlen = below(s, MUT_MAX_BYTES + 1);
        for (size_t i = 0; i < r->vlen; i++) r->val[i] = (uint8_t)next(s);
        break;
    default:
        if (r->vlen) r->val[below(s, r->vlen)] ^= (uint8_t)next(s);
        break;
    }
}

static void mutate_policy(mfile *m, rsv_rng *s)
{
    static const uint64_t Ks[] = {3, 7, 15, 31, 255, UINT64_MAX};
    static const uint64_t ms[] = {1, 2, 3, 7, 64, 1000, UINT64_MAX, UINT64_MAX - 1, UINT64_C(1) << 63};
    switch (below(s, 4)) {
    case 0: m->pol.W = 1 + below(s, 16); break;
    case 1: m->pol.W = below(s, 2) ? UINT32_MAX : m->pol.W + 1; break;
    case 2: m->pol.K = Ks[below(s, sizeof Ks / sizeof Ks[0])]; break;
    default:
        if (below(s, 2)) {
            m->pol.bs_kind = RSV_ORACLE_BACKSPACE_EG;
            m->pol.bs_param = below(s, 4) ? below(s, 4) : below(s, 64);
        } else {
            m->pol.bs_kind = RSV_ORACLE_BACKSPACE_GOLOMB;
            m->pol.bs_param = ms[below(s, sizeof ms / sizeof ms[0])];
        }
        break;
    }
}

static void set_bit(uint8_t *b, uint64_t i, unsigned v)
{
    if (v) b[i / 8] |= (uint8_t)(0x80u >> (i % 8));
    else b[i / 8] &= (uint8_t)~(0x80u >> (i % 8));
}

/* Selector codes (format revision v2): new bits for one code; a record
 * moved to another code; a code split into code||0 and code||1 (its records
 * shared between them: more codes, still prefix-free); a code grown to
 * 65..144 bits; a new code for one record. The oracle's writer rejects sets
 * that are no longer prefix-free (the mutation then falls back to bytes). */
static void mutate_code(mfile *m, rsv_rng *s)
{
    static const uint64_t lens[] = {0, 1, 2, 7, 8, 9, 63, 64, 65, 511, 512};
    size_t j = below(s, m->m);
    rsv_kvf_code *c = &m->codes[j];
    switch (below(s, 5)) {
    case 0:
        c->bits = below(s, 2) ? lens[below(s, sizeof lens / sizeof lens[0])] : below(s, 20);
        memset(c->bytes, 0, sizeof c->bytes);
        for (uint64_t i = 0; i < (c->bits + 7) / 8; i++) c->bytes[i] = (uint8_t)next(s);
        if (c->bits % 8) c->bytes[c->bits / 8] &= (uint8_t)(0xFFu << (8 - c->bits % 8));
        break;
    case 1:
        if (m->n) m->r[below(s, m->n)].code = below(s, m->m);
        break;
    case 2:
        if (m->m < RSV_KVF_DICT_MAX && c->bits < RSV_KV03_MAX_CODE_BITS) {
            rsv_kvf_code one = *c;
            set_bit(c->bytes, c->bits++, 0);
            set_bit(one.bytes, one.bits++, 1);
            m->codes[m->m] = one;
            for (size_t i = 0; i < m->n; i++)
                if (m->r[i].code == j && below(s, 2)) m->r[i].code = m->m;
            m->m++;
        }
        break;
    case 3:
        for (uint64_t want = 65 + below(s, 80); c->bits < want;) set_bit(c->bytes, c->bits++, (unsigned)(next(s) & 1u));
        break;
    default:
        if (m->m < RSV_KVF_DICT_MAX && m->n) {
            rsv_kvf_code *n = &m->codes[m->m];
            memset(n, 0, sizeof *n);
            n->bits = 1 + below(s, 12);
            for (uint64_t i = 0; i < n->bits; i++) set_bit(n->bytes, i, (unsigned)(next(s) & 1u));
            m->r[below(s, m->n)].code = m->m++;
        }
        break;
    }
}

/* 1..4 record/policy/code edits, then re-encode. */
static size_t mutate_records(mfile *m, uint8_t *out, size_t max, rsv_rng *s)
{
    size_t edits = 1 + below(s, 4);
    for (size_t e = 0; e < edits; e++) {
        size_t op = below(s, 8);
        if (op == 0 && m->n < MUT_MAX_RECORDS) { /* insert near a neighbour */
            size_t at = below(s, m->n + 1);
            memmove(&m->r[at + 1], &m->r[at], (m->n - at) * sizeof *m->r);
            if (m->n && at > 0) m->r[at] = m->r[at - 1];
            else memset(&m->r[at], 0, sizeof m->r[at]);
            m->n++;
            mutate_key(&m->r[at], s);
            mutate_value(&m->r[at], s);
        } else if (op == 1 && m->n) {
            size_t at = below(s, m->n);
            memmove(&m->r[at], &m->r[at + 1], (m->n - at - 1) * sizeof *m->r);
            m->n--;
        } else if ((op == 2 || op == 3) && m->n) {
            mutate_key(&m->r[below(s, m->n)], s);
        } else if ((op == 4 || op == 5) && m->n) {
            mutate_value(&m->r[below(s, m->n)], s);
        } else if (op == 6) {
            mutate_policy(m, s);
        } else {
            mutate_code(m, s);
        }
    }
    return store(m, out, max);
}

static uint64_t get_le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = n; i-- > 0;) v = (v << 8) | p[i];
    return v;
}

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Nudge one header or directory field (W, K, N, cw, flags, extent, terminal,
 * U, dictionary/seed bits, L, a section offset or length). */
static void mutate_field(uint8_t *d, size_t size, rsv_rng *s)
{
    static const struct { unsigned at, n; } fld[] = {
        {12, 4}, {18, 1}, {20, 4}, {24, 8}, {40, 8}, {56, 8}, {88, 8},                /* header */
        {104, 8}, {112, 8}, {120, 8}, {128, 8}, {136, 8}, {144, 1},                   /* directory */
        {160, 8}, {168, 8}, {176, 8}, {184, 8}, {192, 8}, {200, 8}, {208, 8}, {216, 8}, /* sections */
        {224, 8}, {232, 8}, {240, 8}, {248, 8}, {256, 8}, {264, 8}, {272, 8}, {280, 8}};
    size_t i = below(s, sizeof fld / sizeof fld[0]);
    if (fld[i].at + fld[i].n > size) return;
    uint64_t v = get_le(d + fld[i].at, fld[i].n);
    switch (below(s, 4)) {
    case 0: v += 1 + below(s, 8); break;
    case 1: v -= 1 + below(s, 8); break;
    case 2: v ^= UINT64_C(1) << below(s, 8 * fld[i].n); break;
    default: v = below(s, 2) ? 0 : UINT64_MAX; break;
    }
    put_le(d + fld[i].at, v, fld[i].n);
}

/* Mutate the bytes of one body region in place (size kept): the data stream
 * (section 0) or the EF/dictionary sections behind it. */
static void mutate_region(uint8_t *d, size_t size, rsv_rng *s)
{
    size_t lo = 96 + 192, hi = size;
    if (size >= 96 + 192 + 16 && below(s, 2)) {
        uint64_t off = get_le(d + 96 + 64, 8), len = get_le(d + 96 + 72, 8);
        if (off + len <= size - 96 && len) {
            lo = 96 + (size_t)off;
            hi = lo + (size_t)len;
        }
    }
    if (lo >= hi) return;
    size_t n = hi - lo;
    uint8_t *tmp = malloc(n);
    if (!tmp) abort();
    memcpy(tmp, d + lo, n);
    size_t got = raw_mutate(tmp, n, n, s);
    memcpy(d + lo, tmp, got < n ? got : n);
    free(tmp);
}

/* Sections 5-7 rewritten from edited dictionary and seed lists
 * (kv03_dict_edit.h); 0 when the file has no usable shape. */
static size_t mutate_dictionary(uint8_t *data, size_t size, size_t max, rsv_rng *s)
{
    static rsv_kvf_dict d; /* large (seeds); the mutator runs on one thread */
    if (!rsv_kvf_dict_read(data, size, &d)) return 0;
    for (size_t e = 1 + below(s, 2); e > 0; e--) rsv_kvf_dict_mutate(&d, s);
    return rsv_kvf_dict_write(data, size, max, &d);
}

size_t rsv_kvf_mutate(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    rsv_rng s = {seed};
    mfile m;
    size_t out = 0;
    if (load(data, size, &m)) {
        size_t op = below(&s, 12);
        if (op < 6) out = mutate_records(&m, data, max_size, &s);
        else if (op < 8) {
            mutate_region(data, size, &s);
            out = size;
        } else if (op < 11) {
            out = mutate_dictionary(data, size, max_size, &s);
        } else {
            mutate_field(data, size, &s);
            out = size;
        }
        free(m.r);
    } else if (below(&s, 3) == 0) {
        out = mutate_dictionary(data, size, max_size, &s); /* a file the scan rejects: its dictionary again */
    }
    if (out == 0) out = raw_mutate(data, size, max_size, &s);
    rsv_kvf_reseal(data, out);
    return out;
}

size_t rsv_kvf_crossover(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2, uint8_t *out,
                         size_t max_out, unsigned int seed)
{
    rsv_rng s = {seed};
    mfile a, b;
    size_t n = 0;
    int la = load(d1, s1, &a), lb = la && load(d2, s2, &b);
    if (la && lb) { /* A's first records, B's last ones (with B's codes added), A's policy */
        size_t ka = below(&s, a.n + 1), kb = below(&s, b.n + 1);
        size_t take = b.n - kb;
        if (ka + take > MUT_MAX_RECORDS) take = MUT_MAX_RECORDS - ka;
        memcpy(&a.r[ka], &b.r[kb], take * sizeof *a.r);
        size_t map[RSV_KVF_DICT_MAX];
        for (size_t j = 0; j < b.m; j++) { /* B's codes: A's equal one, else appended (if room) */
            map[j] = 0;
            size_t k = 0;
            while (k < a.m && !(a.codes[k].bits == b.codes[j].bits &&
                                memcmp(a.codes[k].bytes, b.codes[j].bytes, sizeof a.codes[k].bytes) == 0))
                k++;
            if (k == a.m && a.m < RSV_KVF_DICT_MAX) a.codes[a.m++] = b.codes[j];
            map[j] = k < a.m ? k : 0;
        }
        for (size_t i = ka; i < ka + take; i++) a.r[i].code = map[a.r[i].code];
        a.n = ka + take;
        n = store(&a, out, max_out);
    }
    if (la) free(a.r);
    if (lb) free(b.r);
    if (n == 0) { /* splice: a prefix of one, a suffix of the other */
        size_t p1 = below(&s, s1 + 1), p2 = below(&s, s2 + 1);
        if (p1 > max_out) p1 = max_out;
        if (s2 - p2 > max_out - p1) p2 = s2 - (max_out - p1);
        if (p1) memcpy(out, d1, p1);
        if (s2 > p2) memcpy(out + p1, d2 + p2, s2 - p2);
        n = p1 + (s2 - p2);
    }
    rsv_kvf_reseal(out, n);
    return n;
}
