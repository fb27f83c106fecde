/* Record-stream reader (KV03.md §10): one persistent reader over exactly E
 * bits; per record the selector backspace and code check, the §2.1 key
 * rebuilt in place (only the literal is compared against the previous key's
 * tail for the order check), and the value materialized. */
#include <stdlib.h>
#include <string.h>

#include "reservoir/stream.h"

#include "buffer.h"
#include "key_words.h"
#include "kv03_walk.h"

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

/* Selector part: b = EG0; b > current code length → SORT_BACKSPACE; record 0
 * reads c bits, a later b > 0 reads b bits replacing C0's last b bits; the
 * result must be C0 (UNKNOWN_SELECTOR). */
static rsv_status selector(rsv_stream_reader *sr)
{
    uint64_t b;
    rsv_status st = rsv_read_eg0(&sr->r, &b);
    if (st) return st;
    uint64_t cur = sr->i == 0 ? 0 : sr->c;
    if (b > cur) return RSV_ERR_SORT_BACKSPACE;
    uint64_t nbits = sr->i == 0 ? sr->c : b;
    if (nbits == 0) return RSV_OK;
    rsv_view got;
    st = rsv_take(&sr->r, nbits, &got);
    if (st) return st;
    if (rsv_view_compare(got, rsv_view_make(sr->code, sr->c - nbits, nbits)) != 0)
        return RSV_ERR_UNKNOWN_SELECTOR;
    return RSV_OK;
}

/* One record's fields up to the end of its value (§10, §2.1, §1.3). */
typedef struct parsed {
    uint64_t kept, S; /* key bits kept from the previous key, literal bits */
    rsv_view lit;
    rsv_value_span v;
} parsed;

static rsv_status parse_generic(rsv_stream_reader *sr, parsed *p)
{
    rsv_status st = selector(sr);
    if (st) return st;
    uint64_t prev_bits = 8 * (uint64_t)sr->key_len, bk; /* §2.1 */
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
 * The generic parse then runs from the same state (kv03_walk.h explains). */
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
    sr->r = r;
    return 1;
}

static rsv_status record(rsv_stream_reader *sr, rsv_stream_record *out)
{
    parsed p;
    if (RSV_UNLIKELY(!parse_fast(sr, &p))) {
        parsed slow; /* p's address never escapes: it stays in registers */
        rsv_status st = parse_generic(sr, &slow);
        if (st) return st;
        p = slow;
    }
    /* order (i > 0): the new key shares [0, kept) with the old one, so only
     * the literal is compared with the old key from there on. The key buffer
     * holds key_len + RSV_KW_SLACK bytes whenever key_len > 0. */
    uint64_t pend = rsv__kw_end_byte(rsv_reader_view(&sr->r));
    if (sr->i > 0 && !rsv__kw_key_greater(sr->key, sr->key_len, p.kept, p.S, p.lit.data, p.lit.off, pend))
        return RSV_ERR_UNSORTED;
    uint64_t nbytes = (p.kept + p.S) / 8; /* kept <= prev_bits and S <= E: no wrap */
    rsv_status st = rsv__grow_bytes(&sr->key, &sr->key_cap, nbytes + RSV_KW_SLACK);
    if (st) return st;
    rsv__kw_key_store(sr->key, p.kept, p.S, p.lit.data, p.lit.off, pend);
    sr->key_len = (size_t)nbytes;
    out->value.kind = p.v.kind;
    out->value.len = (size_t)p.v.len;
    st = rsv__value_bytes(&p.v, pend, &sr->val, &sr->val_cap, &out->value.data);
    if (st) return st;
    out->value_span = p.v;
    out->index = sr->i;
    out->key = sr->key;
    out->key_len = sr->key_len;
    out->end = rsv_reader_position(&sr->r);
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
