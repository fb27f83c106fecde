/* Record-stream reader (KV03.md §10): one persistent reader over exactly E
 * bits; per record the selector backspace and code completion, the §2.1 key
 * rebuilt in place (only the literal is compared against the previous key's
 * tail for the order check), and the value materialized.
 *
 * Codes: a one-code reader (rsv_stream_reader_init) is the set {C0}; a set
 * reader borrows the caller's rsv_code_set. Code completion (§10 step 2)
 * scans the set per step: it runs only for record 0 and for a selector
 * backspace b > 0, so the common record (b = 0) never looks at the set. */
#include <stdlib.h>
#include <string.h>

#include "reservoir/stream.h"

#include "buffer.h"
#include "bits_fast.h"
#include "kv03_frame_parse.h"
#include "record_batch.h"

static size_t set_size(const rsv_stream_reader *sr) { return sr->set.ends ? sr->set.m : 1; }

/* Code j of the reader's set. */
static rsv_view code_at(const rsv_stream_reader *sr, uint64_t j)
{
    if (!sr->set.ends) return rsv_view_make(sr->code, 0, sr->c);
    uint64_t a = j ? sr->set.ends[j - 1] : 0;
    return rsv_view_make(sr->set.bits, a, sr->set.ends[j] - a);
}

rsv_status rsv_stream_reader_init(rsv_stream_reader *sr, rsv_view stream, const uint8_t *code,
                                  uint64_t code_bits)
{
    if (!sr) return RSV_ERR_INVALID_ARGUMENT;
    memset(sr, 0, sizeof *sr);
    rsv_reader_init(&sr->r, stream);
    if (!code) {
        sr->code = sr->default_code; /* `0` */
        sr->c = 1;
    } else {
        sr->code = code;
        sr->c = code_bits;
    }
    return RSV_OK;
}

/* The set checks of rsv_stream_reader_init_set, in their documented order. */
static rsv_status check_set(const rsv_code_set *set)
{
    if (!set || (set->m && !set->ends)) return RSV_ERR_INVALID_ARGUMENT;
    uint64_t prev = 0;
    for (size_t j = 0; j < set->m; j++) {
        if (set->ends[j] < prev) return RSV_ERR_INVALID_ARGUMENT;
        prev = set->ends[j];
    }
    if (prev && !set->bits) return RSV_ERR_INVALID_ARGUMENT;
    prev = 0;
    for (size_t j = 0; j < set->m; j++) {
        if (set->ends[j] - prev > RSV_KV03_MAX_CODE_BITS) return RSV_ERR_TOO_LARGE;
        prev = set->ends[j];
    }
    for (size_t a = 0; a < set->m; a++)
        for (size_t b = a + 1; b < set->m; b++) {
            uint64_t sa = a ? set->ends[a - 1] : 0, sb = b ? set->ends[b - 1] : 0, l;
            rsv_view x = rsv_view_make(set->bits, sa, set->ends[a] - sa);
            rsv_view y = rsv_view_make(set->bits, sb, set->ends[b] - sb);
            rsv_view_lcp(x, y, &l);
            if (l == x.len || l == y.len) return RSV_ERR_SELECTOR_PREFIX; /* one is a prefix of the other */
        }
    return RSV_OK;
}

rsv_status rsv_stream_reader_init_set(rsv_stream_reader *sr, rsv_view stream, const rsv_code_set *set)
{
    if (!sr) return RSV_ERR_INVALID_ARGUMENT;
    rsv_stream_reader_init(sr, stream, NULL, 0);
    rsv_status st = check_set(set);
    if (st) {
        sr->diag.status = st; /* poisoned: nothing was read */
        return st;
    }
    sr->set = *set;
    if (!sr->set.ends) { /* m = 0: an empty set, not the one-code form */
        static const uint64_t none[1] = {0};
        sr->set.ends = none;
    }
    return RSV_OK;
}

rsv_status rsv_stream_reader_reset(rsv_stream_reader *sr, rsv_view stream, const uint8_t *code,
                                   uint64_t code_bits)
{
    if (!sr) return RSV_ERR_INVALID_ARGUMENT;
    uint8_t *key = sr->key, *val = sr->val;
    size_t key_cap = sr->key_cap, val_cap = sr->val_cap;
    rsv_status st = rsv_stream_reader_init(sr, stream, code, code_bits);
    sr->key = key, sr->key_cap = key_cap, sr->val = val, sr->val_cap = val_cap;
    return st;
}

rsv_status rsv_stream_reader_reset_set(rsv_stream_reader *sr, rsv_view stream, const rsv_code_set *set)
{
    if (!sr) return RSV_ERR_INVALID_ARGUMENT;
    uint8_t *key = sr->key, *val = sr->val;
    size_t key_cap = sr->key_cap, val_cap = sr->val_cap;
    rsv_status st = rsv_stream_reader_init_set(sr, stream, set);
    sr->key = key, sr->key_cap = key_cap, sr->val = val, sr->val_cap = val_cap;
    return st;
}

void rsv_stream_reader_free(rsv_stream_reader *sr)
{
    if (!sr) return;
    free(sr->key);
    free(sr->val);
    sr->key = sr->val = NULL;
    sr->key_cap = sr->val_cap = 0;
}

static rsv_status fail(rsv_stream_reader *sr, rsv_status st)
{
    sr->diag.status = st;
    sr->diag.bit = rsv_reader_position(&sr->r);
    sr->diag.record = sr->i;
    return st;
}

/* Does code x start with P = cc[0, r) ‖ tail? */
static int has_prefix(rsv_view x, rsv_view cc, uint64_t r, rsv_view tail)
{
    if (x.len < r + tail.len) return 0;
    return rsv_view_bit_equal(rsv_view_make(x.data, x.off, r), rsv_view_make(cc.data, cc.off, r)) &&
           rsv_view_bit_equal(rsv_view_make(x.data, x.off + r, tail.len), tail);
}

/* §10 steps 1-2: b = EG0; b > |Cc| → SORT_BACKSPACE; record 0 or b > 0:
 * P = Cc[0, |Cc| - b), completed by the shortest continuation until it is a
 * code of the set (UNKNOWN_SELECTOR when no code extends it; take's
 * TRUNCATED_SPAN leaves the position unchanged). *code = its index. */
static rsv_status selector(rsv_stream_reader *sr, uint64_t *code)
{
    uint64_t b;
    rsv_status st = rsv_read_eg0(&sr->r, &b);
    if (st) return st;
    rsv_view cc = sr->i == 0 ? rsv_view_make(NULL, 0, 0) : code_at(sr, sr->cur);
    if (b > cc.len) return RSV_ERR_SORT_BACKSPACE;
    if (sr->i > 0 && b == 0) {
        *code = sr->cur;
        return RSV_OK;
    }
    uint64_t r = cc.len - b;
    rsv_view tail = rsv_view_make(sr->r.data, sr->r.off + sr->r.pos, 0);
    size_t m = set_size(sr);
    for (;;) {
        uint64_t plen = r + tail.len, dmin = UINT64_MAX;
        for (size_t j = 0; j < m; j++) {
            rsv_view x = code_at(sr, j);
            if (!has_prefix(x, cc, r, tail)) continue;
            if (x.len == plen) {
                *code = j;
                return RSV_OK;
            }
            if (x.len - plen < dmin) dmin = x.len - plen;
        }
        if (dmin == UINT64_MAX) return RSV_ERR_UNKNOWN_SELECTOR;
        rsv_view got;
        if ((st = rsv_take(&sr->r, dmin, &got))) return st;
        tail.len += dmin;
    }
}

/* One record's fields up to the end of its value (§10, §2.1, §1.3). */
typedef struct parsed {
    uint64_t code;    /* index of the record's code */
    uint64_t kept, S; /* key bits kept from the previous key, literal bits */
    rsv_view lit;
    rsv_value_span v;
} parsed;

static rsv_status parse_generic(rsv_stream_reader *sr, parsed *p)
{
    rsv_status st = selector(sr, &p->code);
    if (st) return st;
    /* §2.1 against the previous key for the same code, else the empty key */
    uint64_t prev_bits = sr->i > 0 && p->code == sr->cur ? 8 * (uint64_t)sr->key_len : 0, bk;
    st = rsv_read_eg0(&sr->r, &bk);
    if (st) return st;
    if (bk > prev_bits) return RSV_ERR_BACKSPACE_EXCEEDS_KEY;
    p->kept = prev_bits - bk;
    st = rsv_read_eg0(&sr->r, &p->S);
    if (st) return st;
    st = rsv_take(&sr->r, p->S, &p->lit);
    if (st) return st;
    if ((p->kept + p->S) % 8 != 0) return RSV_ERR_KEY_ENDS_INSIDE_BYTE;
    return rsv_read_value(&sr->r, &p->v);
}

/* The common record i > 0 with selector backspace 0, on a local copy of the
 * reader (registers, not memory) with in-bounds 8-byte refills only; 0, with
 * nothing changed, for anything else: record 0, a selector backspace > 0, a
 * code longer than the cache, the last bytes of the stream, every error.
 * The generic parse then runs from the same state (kv03_frame_parse.h explains). */
static inline int parse_fast(rsv_stream_reader *sr, parsed *p)
{
    if (RSV_UNLIKELY(sr->i == 0)) return 0;
    rsv_reader r = sr->r;
    uint64_t b, bk, prev_bits = 8 * (uint64_t)sr->key_len;
    if (!rsv__fast_eg0(&r, &b) || b != 0) return 0;
    if (!rsv__fast_eg0(&r, &bk) || bk > prev_bits) return 0;
    p->kept = prev_bits - bk;
    if (!rsv__fast_eg0(&r, &p->S)) return 0;
    p->lit = rsv_view_make(r.data, r.off + r.pos, p->S);
    if (!rsv__fast_skip(&r, p->S) || (p->kept + p->S) % 8 != 0) return 0;
    if (!rsv__fast_value(&r, &p->v)) return 0;
    sr->r = r; /* the code is unchanged: sr->cur */
    return 1;
}

/* Parse record sr->i and check its order against the previous key (the
 * key is not stored yet); on a code change sr->cur and sr->cur_bits are
 * updated (the key buffer then holds a key of the previous code, which a
 * code change never reads). Shared by the single and the batch calls. */
static RSV__ALWAYS_INLINE rsv_status check_record(rsv_stream_reader *sr, parsed *p, uint64_t pend)
{
    /* order (i > 0): the new key shares [0, kept) with the old one, so only
     * the literal is compared with the old key from there on. The key buffer
     * holds key_len + RSV__STORE_SLACK bytes whenever key_len > 0. */
    if (RSV_LIKELY(parse_fast(sr, p))) {
        /* i > 0 and the same code (selector backspace 0): the key order
         * alone, without the v2 code test (one-code streams pay nothing) */
        if (!rsv__key_greater(sr->key, sr->key_len, p->kept, p->S, p->lit.data, p->lit.off, pend))
            return RSV_ERR_UNSORTED;
    } else {
        parsed slow; /* p's address never escapes: it stays in registers */
        rsv_status st = parse_generic(sr, &slow);
        if (st) return st;
        *p = slow;
        if (sr->i > 0 && p->code != sr->cur) {
            /* a code change: distinct codes of a prefix-free set order by the codes alone */
            if (rsv_view_compare(code_at(sr, p->code), code_at(sr, sr->cur)) < 0) return RSV_ERR_UNSORTED;
        } else if (sr->i > 0 &&
                   !rsv__key_greater(sr->key, sr->key_len, p->kept, p->S, p->lit.data, p->lit.off, pend)) {
            return RSV_ERR_UNSORTED;
        }
        /* a later failure poisons the reader: cur is not read again */
        sr->cur = p->code;
        sr->cur_bits = code_at(sr, p->code);
    }
    return RSV_OK;
}

/* Store the checked record's key in the reader's buffer. */
static RSV__ALWAYS_INLINE rsv_status store_key(rsv_stream_reader *sr, const parsed *p, uint64_t pend)
{
    uint64_t nbytes = (p->kept + p->S) / 8; /* kept <= prev_bits and S <= E: no wrap */
    rsv_status st = rsv__grow_bytes(&sr->key, &sr->key_cap, nbytes + RSV__STORE_SLACK);
    if (st) return st;
    rsv__key_store(sr->key, p->kept, p->S, p->lit.data, p->lit.off, pend);
    sr->key_len = (size_t)nbytes;
    return RSV_OK;
}

static rsv_status record(rsv_stream_reader *sr, rsv_stream_record *out)
{
    parsed p;
    uint64_t pend = rsv__stream_hi(rsv_reader_view(&sr->r));
    rsv_status st = check_record(sr, &p, pend);
    if (st) return st;
    st = store_key(sr, &p, pend);
    if (st) return st;
    out->value.kind = p.v.kind;
    out->value.len = (size_t)p.v.len;
    st = rsv__value_bytes(&p.v, pend, &sr->val, &sr->val_cap, &out->value.data);
    if (st) return st;
    out->value_span = p.v;
    out->index = sr->i;
    out->key = sr->key;
    out->key_len = sr->key_len;
    out->end = rsv_reader_position(&sr->r);
    out->code = sr->cur;
    out->code_bits = sr->cur_bits;
    return RSV_OK;
}

rsv_status rsv_stream_reader_next(rsv_stream_reader *sr, rsv_stream_record *out, int *more)
{
    if (!sr || !out || !more) return RSV_ERR_INVALID_ARGUMENT;
    *more = 0;
    if (sr->diag.status) return RSV_ERR_POISONED;
    if (rsv_reader_empty(&sr->r)) return RSV_OK;
    rsv_status st = record(sr, out);
    if (st) return fail(sr, st);
    sr->i++;
    *more = 1;
    return RSV_OK;
}

/* ---- batch (reservoir/record_batch.h) ------------------------------------ */

rsv_status rsv_stream_reader_batch(rsv_stream_reader *sr, rsv_record_batch *out, size_t n, size_t *done)
{
    if (done) *done = 0;
    if (!sr) return RSV_ERR_INVALID_ARGUMENT;
    rsv_status st = rsv__batch_args(out, n);
    if (st) return st;
    rsv__batch_begin(out);
    /* A local copy whose address does not escape: the byte stores into the
     * caller's arrays cannot alias it, so the arena offsets stay in
     * registers instead of being reloaded after every byte store. */
    rsv_record_batch lb = *out, *b = &lb;
    if (sr->diag.status) {
        out->stop = RSV_BATCH_STOP_ERROR;
        return RSV_ERR_POISONED;
    }
    uint64_t pend = rsv__stream_hi(rsv_reader_view(&sr->r));
    size_t k = 0;
    int pending = 0; /* record k-1's key is in sr->key, not yet in the arena (checks only read sr->key) */
    for (; k < n; k++) {
        if (RSV_UNLIKELY(rsv_reader_empty(&sr->r))) {
            b->stop = RSV_BATCH_STOP_END;
            break;
        }
        /* what a record advances, restored when it does not fit */
        uint64_t p0 = rsv_reader_position(&sr->r), cur0 = sr->cur;
        rsv_view bits0 = sr->cur_bits;
        parsed p;
        st = check_record(sr, &p, pend);
        if (RSV_UNLIKELY(st)) break;
        if (RSV_UNLIKELY(!rsv__batch_fits(b, (p.kept + p.S) / 8, &p.v))) {
            rsv_reader_seek(&sr->r, p0); /* back to the record's start (no loads) */
            sr->cur = cur0, sr->cur_bits = bits0;
            break;
        }
        if (pending) rsv__batch_key(b, k - 1, sr->key), pending = 0;
        st = store_key(sr, &p, pend);
        if (RSV_UNLIKELY(st)) break;
        rsv__batch_put(b, k, sr->key_len, &p.v, sr->cur, rsv_reader_position(&sr->r), pend);
        pending = 1;
        sr->i++;
    }
    if (pending) rsv__batch_key(b, k - 1, sr->key);
    if (st) {
        fail(sr, st);
        b->stop = RSV_BATCH_STOP_ERROR;
    }
    out->key_used = lb.key_used, out->val_used = lb.val_used, out->stop = lb.stop, out->need = lb.need;
    if (done) *done = k;
    return st;
}
