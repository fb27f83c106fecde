/* Streaming KV03 writer (KV03.md §3.2, §11.1): each record is framed as soon
 * as it arrives; only what cannot be known before the end — cw, the EF index,
 * the envelope — waits for finish (kv03_envelope.c). Memory: the data stream
 * (or, with a file sink, only its unflushed tail), one u64 per block, the
 * previous key and (format revision v2) the codes used so far, code_list.h.
 *
 * Codes (§3.2): the writer keeps the last record's code `cur`. A record with
 * another code is "fresh": its key inherits nothing (local = 0); at a block
 * start it writes R = |code|, elsewhere it is a transition, B(cont_{i-1} - R)
 * with R = lcp(previous code, code) and then the code's bits [R, |code|). */
#include <stdlib.h>
#include <string.h>

#include "reservoir/kv03.h"

#include "bits.h"
#include "bits_fast.h"
#include "code_list.h"
#include "kv03_sink.h"
#include "kv03_frame_parse.h"
#include "kv03_writer.h"

rsv_kv03_policy rsv_kv03_policy_default(void)
{
    rsv_kv03_policy p = {RSV_BACKSPACE_EG, 0, 15, 15};
    return p;
}

rsv_status rsv_kv03_policy_check(const rsv_kv03_policy *p)
{
    if (!p) return RSV_ERR_INVALID_ARGUMENT;
    if (p->code == RSV_BACKSPACE_EG) {
        if (p->param > 63) return RSV_ERR_BAD_BACKSPACE;
    } else if (p->code == RSV_BACKSPACE_GOLOMB) {
        if (p->param == 0) return RSV_ERR_BAD_BACKSPACE;
    } else {
        return RSV_ERR_BAD_BACKSPACE;
    }
    if (p->W == 0 || p->W > UINT32_MAX) return RSV_ERR_BAD_POLICY;
    /* K = 2^n - 1, n >= 2: K >= 3 and K + 1 a power of two (K = MAX wraps to 0). */
    if (p->K < 3 || (p->K & (p->K + 1)) != 0) return RSV_ERR_BAD_POLICY;
    return RSV_OK;
}

int rsv_kv03_policy_equal(const rsv_kv03_policy *a, const rsv_kv03_policy *b)
{
    return a->code == b->code && a->param == b->param && a->W == b->W && a->K == b->K;
}

/* in_memory: keep the room for header and directory in front of the data
 * stream (finish then adopts the buffer as the file; one allocation here). */
static rsv_status init(rsv_kv03_writer *w, const rsv_kv03_policy *policy, const uint8_t *code,
                       uint64_t code_bits, int in_memory)
{
    if (!w) return RSV_ERR_INVALID_ARGUMENT;
    memset(w, 0, sizeof *w);
    rsv_writer_init(&w->data);
    w->cw_uniform = 1;
    /* A failed init leaves the writer poisoned, so a later add cannot run
     * with a half-set policy (W = 0 would divide by zero). */
    w->diag.status = RSV_ERR_INVALID_ARGUMENT;
    if (!policy) return RSV_ERR_INVALID_ARGUMENT;
    rsv_status st = rsv_kv03_policy_check(policy);
    if (st) return w->diag.status = st;
    w->policy = *policy;
    if (policy->code == RSV_BACKSPACE_GOLOMB) rsv_golomb_init(&w->golomb, policy->param);
    if (!code) {
        w->c = 1; /* default C0 = `0`: code[0] is already zero */
    } else {
        if (code_bits > RSV_KV03_MAX_CODE_BITS) return w->diag.status = RSV_ERR_TOO_LARGE;
        w->c = code_bits;
        /* keep the code canonical: bits after c in its last byte are zero */
        rsv_bits_store(w->code, 0, rsv_view_make(code, 0, code_bits));
    }
    if (in_memory) {
        if (rsv_put_zeros(&w->data, 8 * RSV__KV03_DATA_AT)) return w->diag.status = RSV_ERR_NOMEM;
        w->data_at = RSV__KV03_DATA_AT;
    }
    w->diag.status = RSV_OK;
    return RSV_OK;
}

rsv_status rsv_kv03_writer_init(rsv_kv03_writer *w, const rsv_kv03_policy *policy,
                                const uint8_t *code, uint64_t code_bits)
{
    return init(w, policy, code, code_bits, 1);
}

rsv_status rsv_kv03_writer_init_path(rsv_kv03_writer *w, const rsv_kv03_policy *policy,
                                     const uint8_t *code, uint64_t code_bits, const char *path)
{
    rsv_status st = init(w, policy, code, code_bits, 0);
    if (st) return st;
    if (!path) return w->diag.status = RSV_ERR_INVALID_ARGUMENT;
    st = rsv__sink_open(&w->sink, path);
    if (st) return w->diag.status = st; /* poisoned like any failed init */
    return RSV_OK;
}

rsv_status rsv__kv03_writer_presize(rsv_kv03_writer *w, uint64_t bytes)
{
    if (w->sink || !w->data.owned) return RSV_OK;
    if (bytes > SIZE_MAX / 2) return RSV_ERR_NOMEM;
    size_t want = (size_t)(w->data_at + bytes) + RSV__WRITER_SLACK;
    if (want <= w->data.cap) return RSV_OK;
    uint8_t *p = realloc(w->data.buf, want);
    if (!p) return RSV_ERR_NOMEM;
    w->data.buf = p;
    w->data.cap = want;
    return RSV_OK;
}

rsv_status rsv_kv03_writer_set_flush_bytes(rsv_kv03_writer *w, size_t bytes)
{
    if (!w || bytes == 0) return RSV_ERR_INVALID_ARGUMENT;
    if (!w->sink) return RSV_ERR_STATE;
    w->sink->flush_bytes = bytes;
    return RSV_OK;
}

void rsv_kv03_writer_get_stats(const rsv_kv03_writer *w, rsv_kv03_writer_stats *out)
{
    memset(out, 0, sizeof *out);
    out->data_bits = rsv__kv03_writer_bits(w);
    out->flushed_bytes = w->flushed_bits / 8;
    out->buffered_bytes = rsv_writer_nbytes(&w->data) - w->data_at;
    out->buffered_max = w->buffered_max;
    out->buffer_capacity = w->data.cap;
    out->offset_bytes = 8 * w->offsets_cap;
    out->streaming = w->sink != NULL;
    if (w->codes) out->code_bytes = w->codes->bits_cap + 16 * (uint64_t)w->codes->cap + 8;
}

void rsv__kv03_writer_abort(rsv_kv03_writer *w, rsv_status st)
{
    if (!w->diag.status) {
        w->diag.status = st;
        w->diag.bit = rsv__kv03_writer_bits(w);
        w->diag.record = w->N;
    }
    rsv__sink_abort(w->sink);
    w->sink = NULL;
}

void rsv_kv03_writer_free(rsv_kv03_writer *w)
{
    if (!w) return;
    if (w->codes) rsv__codes_free(w->codes);
    free(w->codes);
    w->codes = NULL;
    rsv__sink_abort(w->sink); /* not committed: the temporary goes */
    w->sink = NULL;
    rsv_writer_free(&w->data);
    free(w->offsets);
    free(w->prev);
    w->offsets = NULL;
    w->prev = NULL;
    w->noffsets = w->offsets_cap = 0;
    w->prev_len = w->prev_cap = 0;
}

/* Any failure poisons the writer and discards a file sink's temporary. */
static rsv_status fail(rsv_kv03_writer *w, rsv_status st)
{
    rsv__kv03_writer_abort(w, st);
    return st;
}

/* After each record: note the buffered peak, and with a sink hand every
 * whole byte to the file once the bound is exceeded, keeping the partial
 * last byte (its unused low bits are zero, the rsv_writer invariant). */
static rsv_status after_record(rsv_kv03_writer *w)
{
    size_t nbytes = rsv_writer_nbytes(&w->data) - (size_t)w->data_at;
    if (nbytes > w->buffered_max) w->buffered_max = nbytes;
    if (!w->sink || nbytes <= w->sink->flush_bytes) return RSV_OK;
    size_t whole = (size_t)(w->data.nbits / 8);
    rsv_status st = rsv__sink_append(w->sink, w->data.buf, whole);
    if (st) return st;
    if (w->data.nbits % 8) w->data.buf[0] = w->data.buf[whole];
    w->data.nbits %= 8;
    w->flushed_bits += 8 * (uint64_t)whole;
    /* keep the total stream within the writer's 2^64 - 8 bit ceiling */
    rsv_writer_set_limit(&w->data, RSV_WRITER_MAX_BITS - w->flushed_bits);
    return RSV_OK;
}

static rsv_status grow(void **p, uint64_t *cap, uint64_t need, size_t elem)
{
    if (need <= *cap) return RSV_OK;
    uint64_t ncap = *cap < 16 ? 16 : *cap;
    while (ncap < need) ncap *= 2;
    if (ncap > SIZE_MAX / elem) return RSV_ERR_NOMEM;
    void *q = realloc(*p, (size_t)(ncap * elem));
    if (!q) return RSV_ERR_NOMEM;
    *p = q;
    *cap = ncap;
    return RSV_OK;
}

/* §11.1 steps 1–3 for the code of the next record, and the switch to it: a
 * code other than the last record's makes the next record fresh. Step 3 is
 * decided here when the code changes (distinct codes of a prefix-free set
 * order by the codes alone); for the same code the caller compares keys. */
static rsv_status use_code(rsv_kv03_writer *w, rsv_view x)
{
    if (x.len > RSV_KV03_MAX_CODE_BITS) return RSV_ERR_TOO_LARGE;
    rsv_view cur = rsv_view_make(w->cur, 0, w->cur_bits);
    if (w->N > 0 && rsv_view_bit_equal(x, cur)) return RSV_OK;
    if (!w->codes && !(w->codes = calloc(1, sizeof *w->codes))) return RSV_ERR_NOMEM;
    uint64_t found, l = 0;
    rsv_status st = rsv__codes_check(w->codes, x, &found);
    if (st) return st;
    if (w->N > 0) {
        if (rsv_view_lcp(x, cur, &l) < 0) return RSV_ERR_UNSORTED;
        w->trans_R = l;
        w->trans_cont = w->cur_bits + 8 * (uint64_t)w->prev_len;
    }
    if ((st = rsv__codes_append(w->codes, x, w->N))) return st;
    memset(w->cur, 0, sizeof w->cur);
    rsv_bits_store(w->cur, 0, x);
    w->cur_bits = x.len;
    w->fresh = 1;
    return RSV_OK;
}

rsv_status rsv__kv03_writer_code(rsv_kv03_writer *w, rsv_view code)
{
    if (w->diag.status) return RSV_ERR_POISONED;
    if (w->finished) return RSV_ERR_STATE;
    rsv_status st = use_code(w, code);
    return st ? fail(w, st) : RSV_OK;
}

/* The init's C0 as a view. */
static rsv_view init_code(const rsv_kv03_writer *w) { return rsv_view_make(w->code, 0, w->c); }

static rsv_status frame(rsv_kv03_writer *w, uint64_t lcp, uint64_t key_bits, rsv_view suffix,
                        const rsv_value *val, const rsv_value_span *v);

/* Frame one record with code x (value given either as bytes or as an
 * encoded span). */
static rsv_status add(rsv_kv03_writer *w, rsv_view x, const uint8_t *key, size_t klen, const rsv_value *v,
                      const rsv_value_span *span)
{
    if (!w) return RSV_ERR_INVALID_ARGUMENT;
    if (w->diag.status) return RSV_ERR_POISONED;
    if (w->finished || w->framed) return RSV_ERR_STATE;
    if (klen && !key) return fail(w, RSV_ERR_INVALID_ARGUMENT);
    if (x.len && !x.data) return fail(w, RSV_ERR_INVALID_ARGUMENT);
    if ((uint64_t)klen > (UINT64_MAX - 2 * RSV_KV03_MAX_CODE_BITS) / 8) return fail(w, RSV_ERR_TOO_LARGE);
    rsv_status st = use_code(w, x);
    if (st) return fail(w, st);
    uint64_t lcp = 0;
    if (!w->fresh) {
        if (rsv_key_compare(w->prev, w->prev_len, key, klen) >= 0) return fail(w, RSV_ERR_UNSORTED);
        lcp = rsv_key_lcp_bits(w->prev, w->prev_len, key, klen);
    }
    uint64_t vkind_len = v ? v->len : span->len;
    rsv_value_kind kind = v ? v->kind : span->kind;
    uint64_t width;
    st = rsv_value_width(kind, vkind_len, &width);
    if (st) return fail(w, st);
    /* the previous key's room first: frame() must be the last step that can fail */
    uint64_t cap = w->prev_cap;
    st = grow((void **)&w->prev, &cap, klen ? klen : 1, 1);
    if (st) return fail(w, st);
    w->prev_cap = (size_t)cap;
    st = frame(w, lcp, 8 * (uint64_t)klen, rsv_view_make(key, lcp, 8 * (uint64_t)klen - lcp), v, span);
    if (st) return st;
    if (klen) memcpy(w->prev, key, klen);
    return RSV_OK;
}

/* The control code of a record (EG0 of R at a block start, else the
 * backspace code) as one integer when it is at most 57 bits: returns its
 * length, 0 when it is longer or Golomb-coded (then the generic put runs). */
static unsigned control_word(const rsv_kv03_writer *w, int block_start, uint64_t v, uint64_t *word)
{
    unsigned k = block_start ? 0 : (unsigned)w->policy.param;
    if (!block_start && w->policy.code != RSV_BACKSPACE_EG) return 0;
    RSV_ASSERT(k <= 63); /* the EG order, checked when the writer was opened */
    uint64_t q = v >> k;
    if (q > RSV__EG0_FAST_MAX) return 0;
    unsigned n = 64 - rsv__clz64(q + 1), len = 2 * n - 1 + k; /* k <= 63: no wrap */
    if (len > 57) return 0;
    /* n - 1 zeros, then q + 1 in n bits, then the low k bits of v */
    *word = k ? ((q + 1) << k) | (v & (UINT64_MAX >> (64 - k))) : q + 1;
    return len;
}

/* Frame one record: the key is given as its exact lcp (bits) with the
 * previous key (0 for a fresh record) and the key bits after it; the value
 * as bytes (val) or as an encoded span (v). add() and the merge path share
 * it, hence the same bytes.
 *
 * Fast path (spans only): the whole record's length is computed first and
 * reserved once (plus 64 bits for the 8-byte stores of bits_fast.h), then
 * every field is appended word at a time with the bit position held in a
 * local. Anything unusual (transitions, Golomb backspaces, huge lengths, a
 * reservation that fails only because of the extra 64 bits) takes the
 * field-by-field path, which reports the exact error; both write the same
 * bits. */
static inline rsv_status frame_impl(rsv_kv03_writer *w, uint64_t lcp, uint64_t key_bits, rsv_view suffix,
                                   const rsv_value *val, const rsv_value_span *v)
{
    uint64_t width;
    rsv_status st;
    rsv_value_kind vkind = val ? val->kind : v->kind;
    uint64_t vlen = val ? val->len : v->len;
    if (vkind == RSV_VALUE_TOMBSTONE) /* rsv_value_width, inline for the usual cases */
        width = 1;
    else if (vkind == RSV_VALUE_PRESENT && vlen <= RSV__EG0_FAST_MAX)
        width = 1 + rsv__eg0_len_fast(vlen) + 8 * vlen;
    else if ((st = rsv_value_width(vkind, vlen, &width)))
        return fail(w, st);
    /* N mod W == 0 without a division: noffsets = ceil(N / W) */
    int block_start = w->N == w->noffsets * w->policy.W;
    int transition = w->fresh && !block_start;
    uint64_t R, ctrl_v;
    if (!w->fresh) {
        R = w->cur_bits + lcp;
        ctrl_v = w->cur_bits + (uint64_t)w->prev_len * 8 - R;
    } else if (block_start) {
        R = ctrl_v = w->cur_bits;
    } else {
        R = w->trans_R;
        ctrl_v = w->trans_cont - R;
    }
    if (block_start) ctrl_v = R;
    uint64_t ctrl_w = 0;
    unsigned ctrl_len = control_word(w, block_start, ctrl_v, &ctrl_w);
    uint64_t S = suffix.len;
    int present = vkind == RSV_VALUE_PRESENT;
    int fast = v && !transition && ctrl_len && (present || vkind == RSV_VALUE_TOMBSTONE) && S <= RSV__EG0_FAST_MAX &&
               (!present || (v->len <= RSV__EG0_FAST_MAX && v->bytes.len == 8 * v->len));
    if (fast) {
        uint64_t total = ctrl_len + rsv__eg0_len_fast(S) + S + width; /* all < 2^32 */
        const rsv_writer *d = &w->data;
        /* room already (usual), else grow with the 64 bits of store slack */
        fast = (d->nbits <= d->limit && total <= d->limit - d->nbits && rsv__writer_has_slack(d, total)) ||
               (rsv_writer_reserve(&w->data, total + 64) == RSV_OK && rsv__writer_has_slack(d, total));
    }
    if (block_start) {
        st = grow((void **)&w->offsets, &w->offsets_cap, w->noffsets + 1, sizeof(uint64_t));
        if (st) return fail(w, st);
        w->offsets[w->noffsets++] = rsv__kv03_writer_bits(w);
    }
    if (fast) {
        uint8_t *buf = w->data.buf;
        rsv__acc a = rsv__acc_begin(buf, w->data.nbits);
        rsv__acc_bits(&a, ctrl_w, ctrl_len);
        rsv__acc_bits(&a, S + 1, rsv__eg0_len_fast(S));
        if (S) rsv__acc_copy(&a, suffix.data, suffix.off, rsv__view_lo(suffix.off), rsv__view_hi(suffix.off, S), S);
        if (!present) {
            rsv__acc_bits(&a, 0, 1);
        } else {
            /* `1` then EG0(len): the integer 2^(2n-1) + len + 1 in 2n bits */
            unsigned el = rsv__eg0_len_fast(v->len);
            rsv__acc_bits(&a, (UINT64_C(1) << el) | (v->len + 1), el + 1);
            if (v->len)
                rsv__acc_copy(&a, v->bytes.data, v->bytes.off, rsv__view_lo(v->bytes.off),
                              rsv__view_hi(v->bytes.off, v->bytes.len), v->bytes.len);
        }
        uint64_t nb = rsv__acc_end(&a, buf);
        w->data.nbits = nb;
    } else {
        if (block_start)
            st = rsv_put_eg(&w->data, R, 0); /* block starts always use EG0 */
        else if (w->policy.code == RSV_BACKSPACE_EG)
            st = rsv_put_eg(&w->data, ctrl_v, (unsigned)w->policy.param);
        else
            st = rsv_put_golomb(&w->data, ctrl_v, &w->golomb);
        if (!st && transition) st = rsv_put_view(&w->data, rsv_view_make(w->cur, R, w->cur_bits - R));
        if (!st) st = rsv_put_eg(&w->data, S, 0);
        if (!st) st = rsv_put_view(&w->data, suffix);
        if (!st) st = val ? rsv_put_value(&w->data, *val) : rsv_put_value_span(&w->data, v);
        if (st) return fail(w, st);
    }
    if (w->N == 0) w->cw = width;
    else if (width != w->cw) w->cw_uniform = 0;
    w->prev_len = (size_t)(key_bits / 8);
    w->fresh = 0;
    w->N++;
    st = after_record(w);
    return st ? fail(w, st) : RSV_OK;
}

static rsv_status frame(rsv_kv03_writer *w, uint64_t lcp, uint64_t key_bits, rsv_view suffix,
                        const rsv_value *val, const rsv_value_span *v)
{
    return frame_impl(w, lcp, key_bits, suffix, val, v);
}

/* The merge's form: a span value (val = NULL folded away). Kept out of
 * line: inlined into rsv__kv03_writer_add_framed (its only caller) the
 * merge paid ~14 Ir per record more (callgrind, prefix-6 merges). */
#if defined(__GNUC__) || defined(__clang__)
#define RSV__NOINLINE __attribute__((noinline))
#else
#define RSV__NOINLINE
#endif
RSV__NOINLINE static rsv_status frame_span(rsv_kv03_writer *w, uint64_t lcp, uint64_t key_bits,
                                          rsv_view suffix, const rsv_value_span *v)
{
    return frame_impl(w, lcp, key_bits, suffix, NULL, v);
}

/* Merge path: the caller knows the exact lcp with the previous key and hands
 * over only the key bits after it, so no key is compared or copied here (the
 * code, when it changes, comes first through rsv__kv03_writer_code; without
 * one the first record takes the init's C0). */
rsv_status rsv__kv03_writer_add_framed(rsv_kv03_writer *w, uint64_t lcp, uint64_t key_bits,
                                       rsv_view suffix, const rsv_value_span *v)
{
    if (w->diag.status) return RSV_ERR_POISONED;
    if (w->finished) return RSV_ERR_STATE;
    if (w->N == 0 && !w->fresh) {
        rsv_status st = use_code(w, init_code(w));
        if (st) return fail(w, st);
    }
    if (key_bits % 8 || lcp > key_bits || suffix.len != key_bits - lcp || (w->fresh && lcp))
        return fail(w, RSV_ERR_INVALID_ARGUMENT);
    w->framed = 1;
    return frame_span(w, lcp, key_bits, suffix, v);
}

rsv_status rsv_kv03_writer_add(rsv_kv03_writer *w, const void *key, size_t key_len, rsv_value v)
{
    if (!w) return RSV_ERR_INVALID_ARGUMENT;
    return add(w, init_code(w), (const uint8_t *)key, key_len, &v, NULL);
}

rsv_status rsv_kv03_writer_add_span(rsv_kv03_writer *w, const void *key, size_t key_len,
                                    const rsv_value_span *v)
{
    if (!w || !v) return RSV_ERR_INVALID_ARGUMENT;
    return add(w, init_code(w), (const uint8_t *)key, key_len, NULL, v);
}

rsv_status rsv_kv03_writer_add_coded(rsv_kv03_writer *w, const uint8_t *code, uint64_t code_bits,
                                     const void *key, size_t key_len, rsv_value v)
{
    if (!w) return RSV_ERR_INVALID_ARGUMENT;
    rsv_view x = code ? rsv_view_make(code, 0, code_bits) : init_code(w);
    return add(w, x, (const uint8_t *)key, key_len, &v, NULL);
}

rsv_status rsv_kv03_writer_add_coded_span(rsv_kv03_writer *w, const uint8_t *code, uint64_t code_bits,
                                          const void *key, size_t key_len, const rsv_value_span *v)
{
    if (!w || !v) return RSV_ERR_INVALID_ARGUMENT;
    rsv_view x = code ? rsv_view_make(code, 0, code_bits) : init_code(w);
    return add(w, x, (const uint8_t *)key, key_len, NULL, v);
}

rsv_status rsv_kv03_encode(const rsv_kv03_policy *policy, const uint8_t *code, uint64_t code_bits,
                           const rsv_record *recs, size_t n, uint8_t **out, size_t *nbytes)
{
    if ((!recs && n) || !out || !nbytes) return RSV_ERR_INVALID_ARGUMENT;
    rsv_kv03_writer w;
    rsv_status st = rsv_kv03_writer_init(&w, policy, code, code_bits);
    for (size_t i = 0; !st && i < n; i++)
        st = rsv_kv03_writer_add_coded(&w, recs[i].code, recs[i].code_bits, recs[i].key, recs[i].key_len,
                                       recs[i].value);
    if (!st) st = rsv_kv03_writer_finish(&w, out, nbytes);
    rsv_kv03_writer_free(&w);
    return st;
}
