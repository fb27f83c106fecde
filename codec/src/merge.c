/* KV03 merge (KV03.md §11.2), comparing keys through lcp lengths.
 *
 * E is the last chosen key; every head keeps lcp(head, E) and its literal as
 * a borrowed span. Facts used (all keys sorted, heads > E):
 *  - a head's previous key P satisfies P <= E < head, so lcp(head, E) >=
 *    lcp(head, P) >= local: the head's bits from lcp(head, E) on lie in its
 *    literal — no head key is ever rebuilt;
 *  - the head with the larger lcp with E is the smaller; equal lcps compare
 *    from that bit on (the only bit-level comparison);
 *  - the new E' is the winner; other heads keep their lcp unless it equalled
 *    the winner's, in which case the tie comparison gave the new lcp;
 *  - for X <= E <= E', lcp(X, E') = min(lcp(X, E), lcp(E, E')): the output
 *    R after dropped tombstones without looking at X.
 * E itself is materialized once per chosen key (its bits after lcp(E, E')
 * copied from the winner's literal) because an advancing input's order check
 * compares its new literal with E, and the writer takes its suffix from E.
 * Inputs are walked with §3.3 steps 1–7 and the terminal check.
 *
 * Codes (format revision v2): each head carries its code's index g in the
 * union of the input dictionaries (merge_codes.c), and indices order like
 * the codes. The smallest g wins outright; among heads of one code the lcp
 * rules above apply, E being "the empty key" for a code E does not have. A
 * head whose code differs from E's starts its code in its input (a record
 * with local > 0 continues the code of its input's previous record, which was
 * consumed, so that code is <= E's), hence local = 0 and lcp = 0 are exact. */
#include <stdlib.h>
#include <string.h>

#include "reservoir/merge.h"

#include "bits_fast.h"
#include "kv03_sink.h"
#include "kv03_frame_parse.h"
#include "kv03_writer.h"
#include "merge_codes.h"
#include "merge_state.h"

/* A failed merge discards its output: with a streaming file output the
 * writer's temporary is unlinked right here. */
static rsv_status poison(rsv__merge *m, rsv_status st, size_t input, uint64_t bit, uint64_t record)
{
    if (m->out.sink) rsv__kv03_writer_abort(&m->out, st);
    m->diag.status = st;
    m->diag.bit = bit;
    m->diag.record = record;
    m->failed_input = input;
    return st;
}

static rsv_status poison_input(rsv__merge *m, rsv_status st, size_t i)
{
    rsv__merge_head *h = &m->heads[i];
    return poison(m, st, i, rsv_reader_position(&h->fw.r), h->fw.i);
}

/* A check after a successful frame parse (steps 6–7) fails: the parse has
 * already moved fw.i past the record, so report the record itself. */
static rsv_status poison_parsed(rsv__merge *m, rsv_status st, size_t i)
{
    rsv__merge_head *h = &m->heads[i];
    return poison(m, st, i, rsv_reader_position(&h->fw.r), h->fw.i - 1);
}

/* to_path: stream the output to `path` (which must then be non-NULL). */
static rsv_status init(rsv__merge *m, const rsv_kv03_file *const *inputs, size_t n,
                       unsigned flags, int to_path, const char *path)
{
    if (!m) return RSV_ERR_INVALID_ARGUMENT;
    memset(m, 0, sizeof *m);
    m->failed_input = n;
    if (!inputs || n < 2 || (flags & ~RSV_MERGE_DROP_TOMBSTONES) || (to_path && !path))
        return poison(m, RSV_ERR_INVALID_ARGUMENT, n, 0, 0);
    for (size_t i = 0; i < n; i++)
        if (!inputs[i]) return poison(m, RSV_ERR_INVALID_ARGUMENT, n, 0, 0);
    /* §11.2 init order: policies, then each m >= 2 dictionary, then the union */
    for (size_t i = 0; i < n; i++)
        if (!rsv_kv03_policy_equal(&inputs[i]->policy, &inputs[0]->policy))
            return poison(m, RSV_ERR_MERGE_MISMATCH, i, 0, 0);
    for (size_t i = 0; i < n; i++) {
        rsv_status st = inputs[i]->m >= 2 ? rsv_kv03_dictionary_check(inputs[i]) : RSV_OK;
        if (st) return poison(m, st, i, 0, 0);
    }
    /* heads, then (n >= 3) the tree's n slots, in one block (sizeof a head
     * is a multiple of 8, so the slots are aligned) */
    if (n > SIZE_MAX / (sizeof *m->heads + sizeof *m->tree)) return poison(m, RSV_ERR_NOMEM, n, 0, 0);
    m->heads = calloc(1, n * sizeof *m->heads + (n >= 3 ? n * sizeof *m->tree : 0));
    if (!m->heads) return poison(m, RSV_ERR_NOMEM, n, 0, 0);
    if (n >= 3) m->tree = (size_t *)(void *)(m->heads + n);
    size_t bad = n;
    rsv_status st = rsv__merge_codes(m, inputs, n, &bad);
    if (st) return poison(m, st, bad, 0, 0);
    st = to_path ? rsv_kv03_writer_init_path(&m->out, &inputs[0]->policy, NULL, 0, path)
                 : rsv_kv03_writer_init(&m->out, &inputs[0]->policy, NULL, 0);
    if (st) return poison(m, st, n, 0, 0);
    if (!to_path) {
        /* The output rarely outgrows the inputs together (every record of it
         * is one of theirs, framed against a neighbour at least as close):
         * size the buffer to that up front, so growth never moves the stream
         * and finish adopts the buffer as the file without copying it
         * (kv03_envelope.c; an overlap's buffer keeps up to half its size
         * unused). Only a hint: a failure is absorbed (the buffer then grows
         * as usual). */
        uint64_t bytes = 0;
        for (size_t i = 0; i < n; i++) bytes += inputs[i]->size < UINT64_MAX / 16 - bytes ? inputs[i]->size : 0;
        (void)rsv__kv03_writer_presize(&m->out, bytes);
    }
    m->n = n;
    m->flags = flags;
    for (size_t i = 0; i < n; i++) {
        st = rsv_kv03_frames_init(&m->heads[i].fw, inputs[i]); /* dictionaries already checked */
        if (st) return poison(m, st, i, 0, 0);
        rsv__kv03_frames_literal_words(&m->heads[i].fw); /* short literals as integers: see head_word */
    }
    return RSV_OK;
}

rsv_status rsv_merge_init(rsv_merge *pub, const rsv_kv03_file *const *inputs, size_t n,
                          unsigned flags)
{
    rsv__merge *m = rsv__merge_of(pub);
    return init(m, inputs, n, flags, 0, NULL);
}

rsv_status rsv_merge_init_path(rsv_merge *pub, const rsv_kv03_file *const *inputs, size_t n,
                               unsigned flags, const char *path)
{
    rsv__merge *m = rsv__merge_of(pub);
    return init(m, inputs, n, flags, 1, path);
}

void rsv_merge_free(rsv_merge *pub)
{
    rsv__merge *m = rsv__merge_of(pub);
    if (!m) return;
    free(m->heads); /* the tree lies in the same block */
    free(m->key);
    free(m->codes); /* code_map lies in the same block (merge_codes.c) */
    m->heads = NULL;
    m->tree = NULL;
    m->key = NULL;
    m->codes = NULL;
    m->code_map = NULL;
    m->key_cap = 0;
    rsv_kv03_writer_free(&m->out);
}

/* Bits of head h from key bit `from` (>= its local) to its end. */
static rsv_view head_from(const rsv__merge_head *h, uint64_t from)
{
    uint64_t skip = from - h->fr.local;
    return rsv_view_make(h->fr.literal.data, h->fr.literal.off + skip, h->fr.key_bits - from);
}

/* lcp and order of heads a and b from key bit `from` (>= both locals) on.
 * Word-at-a-time (bits_fast.h) instead of two fresh readers per call; loads
 * stay inside each literal's bytes. */
static rsv__src literal_src(const rsv__merge_head *h)
{
    const rsv_view *l = &h->fr.literal;
    rsv__src s = {l->data, rsv__view_lo(l->off), rsv__view_hi(l->off, l->len)};
    return s;
}

/* Head h's key bits [from, key_bits) left-aligned, when its literal came as
 * an integer from the walker's cache (short literals: no load at all). */
static int head_word(const rsv__merge_head *h, uint64_t from, uint64_t *x)
{
    if (!h->fr.rsv__literal_inline) return 0;
    uint64_t S = h->fr.key_bits - h->fr.local; /* <= 64, >= key_bits - from */
    unsigned drop = (unsigned)(64 - S + (from - h->fr.local)); /* leading bits to drop, may be 64 */
    *x = drop < 64 ? h->fr.rsv__literal_word << drop : 0;
    return 1;
}

static int heads_lcp(const rsv__merge_head *a, const rsv__merge_head *b, uint64_t from, uint64_t *lcp)
{
    uint64_t xa, xb;
    if (head_word(a, from, &xa) && head_word(b, from, &xb)) {
        uint64_t la = a->fr.key_bits - from, lb = b->fr.key_bits - from, m = la < lb ? la : lb;
        uint64_t d = m ? (xa ^ xb) & rsv__top_mask((unsigned)m) : 0;
        if (d) {
            unsigned z = RSV_CLZ64(d);
            *lcp = z;
            return (xa << z) >> 63 ? 1 : -1;
        }
        *lcp = m;
        return la < lb ? -1 : la > lb;
    }
    return rsv__lcp_bits(literal_src(a), a->fr.literal.off + (from - a->fr.local), a->fr.key_bits - from,
                         literal_src(b), b->fr.literal.off + (from - b->fr.local), b->fr.key_bits - from, lcp);
}

/* Load input i's next record: §3.3 steps 1–5 (frame), 6 (retained prefix),
 * 7 (order against E, which is the input's previous key) and the terminal
 * check after its last record; sets the head's lcp with E.
 *
 * one: the code union has at most one code (a constant at each call site,
 * decided once per step by one_code()). Then every input has m <= 1 (an
 * m >= 2 dictionary holds two distinct codes), so every record's code index
 * is 0, the code never changes within an input and every head's g stays 0
 * (heads are zeroed at init): nothing is looked up or compared, as in v1. */
RSV__KV03_FAST_INLINE rsv_status advance(rsv__merge *m, size_t i, int one)
{
    rsv__merge_head *h = &m->heads[i];
    const rsv_kv03_file *f = h->fw.f;
    if (h->fw.i >= f->N) {
        h->live = 0;
        return RSV_OK;
    }
    uint64_t first = h->fw.i == 0, old_code = h->fw.code;
    uint64_t prev_logical = h->fw.cont_prev; /* |Cp| + |previous key| bits */
    rsv_status st = rsv__kv03_parse_frame(&h->fw, &h->fr);
    if (st) return poison_input(m, st, i);
    /* step 6: against the previous logical key when the code continues, else
     * (record 0, a code change) against the new code alone */
    int same = !first && (one || h->fr.code == old_code);
    if (h->fr.retained > (same ? prev_logical : h->fw.code_bits)) return poison_parsed(m, RSV_ERR_MISSING_PREFIX, i);
    if (!one) h->g = h->map[h->fr.code];
    h->lcp = 0;
    if (!first && !same) { /* step 7 across a code change: the dictionary indices decide */
        if (h->fr.code < old_code) return poison_parsed(m, RSV_ERR_UNSORTED, i);
    } else if (!first) { /* previous key of this input = E; fr.local <= |E| by step 6 */
        uint64_t ebits = 8 * (uint64_t)m->key_len, d;
        /* E's buffer is ours and fully initialized up to key_cap: load freely */
        rsv__src e = {m->key, 0, m->key_cap};
        uint64_t x, S = h->fr.literal.len, le = ebits - h->fr.local;
        int cmp;
        if (head_word(h, h->fr.local, &x)) { /* S <= 64: one word against E's */
            uint64_t mm = S < le ? S : le, y = rsv__load_bits(m->key, h->fr.local, 0, e.hi);
            uint64_t diff = mm ? (x ^ y) & rsv__top_mask((unsigned)(mm < 57 ? mm : 57)) : 0;
            if (diff || mm <= 57) {
                unsigned z = diff ? RSV_CLZ64(diff) : 0;
                d = diff ? z : mm;
                cmp = diff ? ((x << z) >> 63 ? 1 : -1) : (S < le ? -1 : S > le);
            } else { /* 58..64 equal bits: let the general compare finish */
                cmp = rsv__lcp_bits(literal_src(h), h->fr.literal.off, S, e, h->fr.local, le, &d);
            }
        } else {
            cmp = rsv__lcp_bits(literal_src(h), h->fr.literal.off, S, e, h->fr.local, le, &d);
        }
        if (cmp <= 0) return poison_parsed(m, RSV_ERR_UNSORTED, i);
        h->lcp = h->fr.local + d;
    }
    if (h->fw.i == f->N && (st = rsv__kv03_terminal(&h->fw))) return poison_parsed(m, st, i);
    h->live = 1;
    return RSV_OK;
}

/* advance's two compiled forms, called per head record (out of line, as in
 * v1: inlined into both step forms it would be four copies). */
static rsv_status advance_one(rsv__merge *m, size_t i) { return advance(m, i, 1); }
static rsv_status advance_multi(rsv__merge *m, size_t i) { return advance(m, i, 0); }

/* E's buffer: `need` bytes plus 8 for the 8-byte stores of bits_fast.h.
 * New bytes are zeroed so word loads over the whole buffer read only
 * initialized memory. */
static rsv_status grow_key(rsv__merge *m, uint64_t need)
{
    if (need > SIZE_MAX / 4) return RSV_ERR_NOMEM;
    need += 8;
    if (need <= m->key_cap) return RSV_OK;
    size_t cap = m->key_cap < 64 ? 64 : m->key_cap;
    while (cap < need) cap *= 2;
    uint8_t *p = realloc(m->key, cap);
    if (!p) return RSV_ERR_NOMEM;
    memset(p + m->key_cap, 0, cap - m->key_cap);
    m->key = p;
    m->key_cap = cap;
    return RSV_OK;
}

/* Every input's first record, once, before the first output key (the scan
 * and the tree share it; a failing input is reported in input order). */
static rsv_status prime(rsv__merge *m, int one)
{
    rsv_status st;
    for (size_t i = 0; i < m->n; i++)
        if ((st = one ? advance_one(m, i) : advance_multi(m, i))) return st;
    return RSV_OK;
}

/* Writes the chosen key E' = E[0, b) ‖ winner w's bits [b, kbits), b = w's
 * lcp with E, bound to `value` (w's own, or the newest equal head's). The
 * scan and the tree share it; no head advances before it returns. */
RSV__KV03_FAST_INLINE rsv_status emit(rsv__merge *m, const rsv__merge_head *w, const rsv_value_span *value,
                                      int one)
{
    rsv_status st;
    uint64_t b = w->lcp, kbits = w->fr.key_bits, g = w->g;
    st = grow_key(m, kbits / 8 ? kbits / 8 : 1);
    if (st) return poison(m, st, m->n, rsv__kv03_writer_bits(&m->out), m->out.N);
    if (kbits > b) {
        rsv_view src = head_from(w, b);
        rsv__copy_bits(m->key, b, src.data, src.off, rsv__view_lo(w->fr.literal.off),
                       rsv__view_hi(w->fr.literal.off, w->fr.literal.len), src.len);
    }
    m->key_len = (size_t)(kbits / 8);
    if (!one) m->e_code = g; /* one code: e_code and out_code stay 0 */
    /* the output's previous record: same code → exact lcp with it; else the
     * key restarts (r = 0) and the code is handed to the writer first */
    int out_same = m->out.N > 0 && (one || m->out_code == g);
    uint64_t r = !out_same ? 0 : (m->lcp_xe < b ? m->lcp_xe : b);
    if (value->kind == RSV_VALUE_TOMBSTONE && (m->flags & RSV_MERGE_DROP_TOMBSTONES)) {
        m->lcp_xe = r;
        return RSV_OK;
    }
    if (!out_same && (st = rsv__kv03_writer_code(&m->out, m->codes[g]))) {
        rsv_kv03_diag d = rsv_kv03_writer_diag(&m->out);
        return poison(m, st, m->n, d.bit, d.record);
    }
    if (!one) m->out_code = g;
    st = rsv__kv03_writer_add_framed(&m->out, r, kbits, rsv_view_make(m->key, r, kbits - r), value);
    if (st) {
        rsv_kv03_diag d = rsv_kv03_writer_diag(&m->out);
        return poison(m, st, m->n, d.bit, d.record);
    }
    m->lcp_xe = kbits;
    m->emitted++;
    return RSV_OK;
}

/* One output key; `one` as in advance. Inlined into rsv_merge_step's two
 * calls (a call would save and restore six registers per output key). */
RSV__KV03_FAST_INLINE rsv_status step(rsv__merge *m, int *done, int one)
{
    rsv_status st;
    if (!m->primed) {
        if ((st = prime(m, one))) return st;
        m->primed = 1;
    }
    /* smallest head: larger lcp with E wins; equal lcps compare the bits
     * after it; on equal keys the later (newer) input's binding wins */
    size_t win = m->n;
    for (size_t i = 0; i < m->n; i++) {
        rsv__merge_head *h = &m->heads[i];
        h->hit = 0;
        h->tie_with = m->n;
        if (!h->live) continue;
        int cmp;
        if (win == m->n) {
            cmp = -1;
        } else {
            rsv__merge_head *cur = &m->heads[win];
            if (!one && h->g != cur->g) {
                cmp = h->g < cur->g ? -1 : 1; /* different codes: the code decides */
            } else if (h->lcp != cur->lcp) {
                cmp = h->lcp > cur->lcp ? -1 : 1;
            } else {
                uint64_t d;
                cmp = heads_lcp(h, cur, h->lcp, &d);
                /* the loser now knows its lcp with the other head, which is
                 * its lcp with E' if that head ends up the winner */
                rsv__merge_head *loser = cmp < 0 ? cur : h;
                loser->tie_with = cmp < 0 ? i : win;
                loser->tie_lcp = h->lcp + d;
            }
        }
#if defined(RSV_SELFTEST_PLANT) && RSV_SELFTEST_PLANT == 3
        /* RSV_SELFTEST_PLANT 3: planted bug for `fuzz/fuzz selftest` only: a
         * tie on an 8-byte key among 3 or more inputs keeps the older
         * binding instead of the newer one. */
        if (cmp == 0 && m->n >= 3 && h->fr.key_bits == 64) {
            h->hit = 1;
            continue;
        }
#endif
        if (cmp < 0)
            for (size_t j = 0; j < i; j++) m->heads[j].hit = 0;
        if (cmp <= 0) {
            win = i;
            h->hit = 1;
        }
    }
    if (win == m->n) {
        m->done = 1;
        *done = 1;
        return RSV_OK;
    }
    rsv__merge_head *w = &m->heads[win];
    uint64_t b = w->lcp;
    /* losers of the winner's code tied with its lcp learn their lcp with E'
     * now (heads of other codes keep lcp 0: E' is not of their code) */
    for (size_t i = 0; i < m->n; i++) {
        rsv__merge_head *h = &m->heads[i];
        if (h->live && !h->hit && (one || h->g == w->g) && h->lcp == b) {
            if (h->tie_with == win) {
                h->lcp = h->tie_lcp;
            } else {
                uint64_t d;
                heads_lcp(h, w, b, &d);
                h->lcp = b + d;
            }
        }
    }
    if ((st = emit(m, w, &w->fr.value, one))) return st;
    for (size_t i = 0; i < m->n; i++)
        if (m->heads[i].hit && (st = one ? advance_one(m, i) : advance_multi(m, i))) return st;
    return RSV_OK;
}

/* ---- n >= 3: a tree of losers with lcp ("offset-value") coding ----------
 *
 * Every head's lcp is taken against one reference: the winner keeps its lcp
 * with E, a stored loser holds its lcp with the head that beat it. The heads
 * on the last winner's path all lost to that winner, which is E once it is
 * chosen, so a new head of its input (lcp with E, from advance) meets heads
 * whose lcp is with E too: a match is decided like one step of the scan
 * above, and its loser's lcp with the winner is its lcp with E when the lcps
 * differ (the loser is the one further from E) or the tie compare's result.
 * Across codes the smaller code wins and the loser gets lcp 0, the value
 * every head of a code other than E's carries (see the file comment; a
 * winner's code is >= E's, so the loser's code differs from E's too).
 *
 * Equal keys: the smaller input index wins the match, so the heads holding
 * the chosen key come out of the tree one after another in input order, and
 * each is advanced as it comes out — the same inputs in the same order as
 * the scan's advance loop, so a failing input is reported exactly as there.
 * As in the scan the record is written before any of them advances; the
 * newest binding is found in the tree first (newest_equal). */

/* The match of heads a (coming up) and b (stored): returns the winner and
 * leaves the loser's lcp against it. Exhausted heads lose to every live one. */
RSV__KV03_FAST_INLINE size_t play(rsv__merge *m, size_t a, size_t b, int one)
{
    rsv__merge_head *ha = &m->heads[a], *hb = &m->heads[b];
    if (!ha->live || !hb->live) {
        if (ha->live != hb->live) return ha->live ? a : b;
        return a < b ? a : b;
    }
    if (!one && ha->g != hb->g) {
        size_t win = ha->g < hb->g ? a : b;
        m->heads[win == a ? b : a].lcp = 0;
        return win;
    }
    if (ha->lcp != hb->lcp) return ha->lcp > hb->lcp ? a : b;
    uint64_t d;
    int cmp = heads_lcp(ha, hb, ha->lcp, &d);
    size_t win = cmp < 0 || (cmp == 0 && a < b) ? a : b;
    m->heads[win == a ? b : a].lcp = ha->lcp + d;
    return win;
}

/* Head i changed (advanced or exhausted) while it was the winner: replay its
 * path to the root. */
RSV__KV03_FAST_INLINE void replay(rsv__merge *m, size_t i, int one)
{
    size_t c = i;
    for (size_t p = (m->n + i) / 2; p > 0; p /= 2) {
        size_t s = m->tree[p], w = play(m, c, s, one);
        m->tree[p] = w == c ? s : c;
        c = w;
    }
    m->tree[0] = c;
}

/* Initial tournament over the loaded heads (every lcp against the empty
 * key). Slot value n marks a node no head reached yet. */
static void build(rsv__merge *m, int one)
{
    size_t n = m->n;
    for (size_t p = 0; p < n; p++) m->tree[p] = n;
    for (size_t i = 0; i < n; i++) {
        size_t c = i;
        for (size_t p = (n + i) / 2; p > 0 && c < n; p /= 2) {
            if (m->tree[p] == n) {
                m->tree[p] = c;
                c = n;
            } else {
                size_t s = m->tree[p], w = play(m, c, s, one);
                m->tree[p] = w == c ? s : c;
                c = w;
            }
        }
        if (c < n) m->tree[0] = c;
    }
}

/* The newest input holding the chosen key (kbits bits, code g) of winner
 * h, found without touching the tree: every other head equal to it lost to
 * an equal head, so it is stored, with lcp kbits, on the path of h (or of
 * such a head, below the node storing that head), where the winner of the
 * node's last match is that equal head. Searched from h's leaf up to node
 * `stop` (0: the root). Depth at most the tree's height. */
static size_t newest_equal(const rsv__merge *m, size_t h, size_t stop, uint64_t kbits, uint64_t g, int one)
{
    size_t best = h;
    for (size_t p = (m->n + h) / 2; p != stop; p /= 2) {
        size_t s = m->tree[p];
        const rsv__merge_head *hs = &m->heads[s];
        if (hs->live && hs->lcp == kbits && hs->fr.key_bits == kbits && (one || hs->g == g)) {
            size_t x = newest_equal(m, s, p, kbits, g, one);
            if (x > best) best = x;
        }
    }
    return best;
}

RSV__KV03_FAST_INLINE rsv_status step_tree(rsv__merge *m, int *done, int one)
{
    rsv_status st;
    if (!m->primed) {
        if ((st = prime(m, one))) return st;
        build(m, one);
        m->primed = 1;
    }
    size_t win = m->tree[0];
    rsv__merge_head *w = &m->heads[win];
    if (!w->live) {
        m->done = 1;
        *done = 1;
        return RSV_OK;
    }
    uint64_t kbits = w->fr.key_bits, g = w->g;
    size_t newest = newest_equal(m, win, 0, kbits, g, one);
#if defined(RSV_SELFTEST_PLANT) && RSV_SELFTEST_PLANT == 3
    /* RSV_SELFTEST_PLANT 3 (see step): keep the older binding of an 8-byte
     * key held by several inputs */
    if (kbits == 64) newest = win;
#endif
    if ((st = emit(m, w, &m->heads[newest].fr.value, one))) return st;
    /* the heads holding E leave the tree in input order */
    for (;;) {
        if ((st = one ? advance_one(m, win) : advance_multi(m, win))) return st;
        replay(m, win, one);
        win = m->tree[0];
        w = &m->heads[win];
        if (!w->live || (!one && w->g != g) || w->lcp != kbits || w->fr.key_bits != kbits) return RSV_OK;
    }
}

rsv_status rsv_merge_step(rsv_merge *pub, int *done)
{
    rsv__merge *m = rsv__merge_of(pub);
    if (!m || !done) return RSV_ERR_INVALID_ARGUMENT;
    *done = 0;
    if (m->diag.status) return RSV_ERR_POISONED;
    if (m->finished) return RSV_ERR_STATE;
    /* ncodes <= 1 (one code, or none: every input empty) */
    if (m->tree) return m->ncodes <= 1 ? step_tree(m, done, 1) : step_tree(m, done, 0);
    return m->ncodes <= 1 ? step(m, done, 1) : step(m, done, 0);
}

rsv_status rsv_merge_run(rsv_merge *pub)
{
    int done = 0;
    rsv_status st;
    while (!done)
        if ((st = rsv_merge_step(pub, &done))) return st;
    return RSV_OK;
}

static rsv_status finish(rsv__merge *m, uint8_t **out, size_t *nbytes, int seal)
{
    if (!m || !out || !nbytes) return RSV_ERR_INVALID_ARGUMENT;
    if (m->diag.status) return RSV_ERR_POISONED;
    if (m->finished || !m->done || m->out.sink) return RSV_ERR_STATE;
    rsv_status st = seal ? rsv_kv03_writer_finish(&m->out, out, nbytes)
                         : rsv_kv03_writer_finish_unsealed(&m->out, out, nbytes);
    if (st) return poison(m, st, m->n, 0, m->out.N);
    m->finished = 1;
    return RSV_OK;
}

rsv_status rsv_merge_finish(rsv_merge *pub, uint8_t **out, size_t *nbytes)
{
    rsv__merge *m = rsv__merge_of(pub);
    return finish(m, out, nbytes, 1);
}

rsv_status rsv_merge_finish_unsealed(rsv_merge *pub, uint8_t **out, size_t *nbytes)
{
    rsv__merge *m = rsv__merge_of(pub);
    return finish(m, out, nbytes, 0);
}

rsv_status rsv_merge_finish_path(rsv_merge *pub, const char *path)
{
    rsv__merge *m = rsv__merge_of(pub);
    if (!m || !path) return RSV_ERR_INVALID_ARGUMENT;
    if (m->diag.status) return RSV_ERR_POISONED;
    if (m->finished || !m->done) return RSV_ERR_STATE;
    if (m->out.sink && strcmp(path, m->out.sink->path) != 0) return RSV_ERR_INVALID_ARGUMENT;
    rsv_status st = rsv_kv03_writer_finish_path(&m->out, path);
    if (st) return poison(m, st, m->n, 0, m->out.N);
    m->finished = 1;
    return RSV_OK;
}

rsv_status rsv_merge_commit(rsv_merge *pub)
{
    rsv__merge *m = rsv__merge_of(pub);
    if (!m) return RSV_ERR_INVALID_ARGUMENT;
    if (m->diag.status) return RSV_ERR_POISONED;
    if (m->finished || !m->done || !m->out.sink) return RSV_ERR_STATE;
    rsv_status st = rsv_kv03_writer_commit(&m->out);
    if (st) return poison(m, st, m->n, 0, m->out.N);
    m->finished = 1;
    return RSV_OK;
}

rsv_status rsv_merge_files_path(const rsv_kv03_file *const *inputs, size_t n, unsigned flags,
                                const char *path)
{
    rsv_merge m;
    rsv_status st = rsv_merge_init_path(&m, inputs, n, flags, path);
    if (!st) st = rsv_merge_run(&m);
    if (!st) st = rsv_merge_commit(&m);
    rsv_merge_free(&m); /* unlinks the temporary unless committed */
    return st;
}

rsv_status rsv_merge_files(const rsv_kv03_file *const *inputs, size_t n, unsigned flags,
                           uint8_t **out, size_t *nbytes)
{
    rsv_merge m;
    rsv_status st = rsv_merge_init(&m, inputs, n, flags);
    if (!st) st = rsv_merge_run(&m);
    if (!st) st = rsv_merge_finish(&m, out, nbytes);
    rsv_merge_free(&m);
    return st;
}

/* ---- accessors (the state is private: merge_state.h) ------------------- */

rsv_kv03_diag rsv_merge_diag(const rsv_merge *pub) { return rsv__merge_cof(pub)->diag; }
size_t rsv_merge_failed_input(const rsv_merge *pub) { return rsv__merge_cof(pub)->failed_input; }
uint64_t rsv_merge_emitted(const rsv_merge *pub) { return rsv__merge_cof(pub)->emitted; }
const char *rsv_merge_temp_path(const rsv_merge *pub) { return rsv_kv03_writer_temp_path(&rsv__merge_cof(pub)->out); }
