/* Private: the frame parse shared by the frame walker, the cursor, the
 * stream reader and merges (KV03.md §3.3 steps 1–5 and the terminal check). */
#ifndef RSV_KV03_FRAME_PARSE_H
#define RSV_KV03_FRAME_PARSE_H

#include "reservoir/kv03.h"

#include "bits.h"
#include "kv03_dict.h"
#include "kv03_fast_read.h"

/* The merge's option (set after rsv_kv03_frames_init; kept by seek_code):
 * frames also carry a literal that fits the walker's cache (S <= 57, or
 * already cached) as an S-bit integer, rsv__literal_word, with
 * rsv__literal_inline = 1. Not API: the merge compares short literals
 * without loads this way. */
static inline void rsv__kv03_frames_literal_words(rsv_kv03_frames *fw) { fw->rsv__literal_words = 1; }

/* Parse record fw->i (steps 1–5), advance fw->i and fw->cont_prev. On
 * failure nothing is recorded in fw->diag: callers poison themselves. */
rsv_status rsv__kv03_parse_frame(rsv_kv03_frames *fw, rsv_kv03_frame *out);
/* The same without trying rsv__kv03_parse_fast first (its fallback). */
rsv_status rsv__kv03_parse_generic(rsv_kv03_frames *fw, rsv_kv03_frame *out);

/* ---- the fast frame parse ------------------------------------------------
 *
 * Why: the generic parse works on fw->r through a pointer and calls
 * out-of-line decoders (rsv_read_value), so the reader's pos/cache/n go
 * through memory for every field. Here the reader is copied into a local
 * that never escapes (the compiler keeps it in registers), the codes are
 * decoded with the inline cache decoders, and refills are only the 8-byte
 * in-bounds form. Anything else — a code longer than the cache, a refill
 * within 8 bytes of the stream's end, and every error — makes it return 0
 * having changed nothing, and the caller runs the generic parse from the
 * same state. Success therefore gives exactly the generic parse's result
 * and the failure paths are the generic ones by construction. */

/* Transitions (KV03.md §3.3 step 2, m >= 2) are decoded here too, from
 * the cached bits passed by value (the local reader never escapes): R < |Cp|
 * was the SORT_TRANSITION error branch of the one-code walk, so one-code
 * files take exactly the branches they took before, and a multi-code file
 * stays on this path except for tails longer than the cache. Block starts
 * of a multi-code file read their seed out of line (once per W records). */
#define RSV__KV03_FAST_INLINE static RSV__ALWAYS_INLINE
/* Always inlined into its callers (frames, cursor, merge heads): with the
 * transition branch the body is past the compilers' inlining budget, and a
 * call would put the local reader back in memory. */
RSV__KV03_FAST_INLINE int rsv__kv03_parse_fast(rsv_kv03_frames *fw, rsv_kv03_frame *out)
{
    /* Register budget of the one-code path as in v1: the record's code goes
     * to out->code at once (rewritten only by block starts of multi-code
     * files and transitions), out->retained is stored as soon as R is known
     * so that R can then serve as "the bits before the key" (|C| after a
     * transition), and one end branch (`moved`) covers block starts and
     * transitions; index, start and block_start are stored first so that
 * nothing but `moved` stays live for the end. out may be partly written when
 * this returns 0. */
    const rsv_kv03_file *f = fw->f;
    rsv_reader r = fw->r; /* local: registers, not memory */
    uint64_t i = fw->i, c = fw->code_bits, start = r.pos, R, S;
    int block_start = i == fw->next_block;
    int moved = block_start; /* the rare end branch: block start or transition */
    out->code = fw->code;
    out->index = i;
    out->start = start;
    out->block_start = block_start;
    if (block_start) {
        if (i > 0) { /* step 1: one EF select per block */
            uint64_t bo = UINT64_MAX; /* written only on RSV_OK: never compare an indeterminate value */
            if (rsv_kv03_block_offset(f, i / f->policy.W, &bo) != RSV_OK || bo != start) return 0;
        }
        if (f->m >= 2) {
            uint64_t s;
            if (rsv__kv03_block_code(f, i / f->policy.W, &s) != RSV_OK) return 0;
            out->code = s;
            c = rsv__kv03_code_len(f, s);
        }
        if (!rsv__fast_eg0(&r, &R) || R < c) return 0;
        if (R > c && i > 0 && out->code != fw->code) return 0; /* PREFIX_CROSSES_CODE */
        out->retained = R;
    } else {
        uint64_t b;
        int ok;
        if (f->policy.code == RSV_BACKSPACE_EG) {
            if (f->policy.param == 0) ok = rsv__fast_eg0(&r, &b);
            else ok = rsv__eg_try(&r, (unsigned)f->policy.param, &b) ||
                      (rsv__fast_fill(&r) && rsv__eg_try(&r, (unsigned)f->policy.param, &b));
        } else {
            ok = rsv__golomb_try(&r, &fw->golomb, &b) || (rsv__fast_fill(&r) && rsv__golomb_try(&r, &fw->golomb, &b));
        }
        if (!ok || b > fw->cont_prev) return 0;
        R = fw->cont_prev - b;
        out->retained = R;
        if (RSV_UNLIKELY(R < c)) { /* a transition: the tail names the new code */
            uint64_t j;
            unsigned used;
            if (f->m < 2 || (r.n == 0 && !rsv__fast_fill(&r)) ||
                !rsv__kv03_transition_word(f, fw->code, R, r.cache, r.n, &j, &used))
                return 0;
            rsv__consume(&r, used); /* used <= r.n */
            out->code = j;
            c = rsv__kv03_code_len(f, j);
            R = c; /* local = 0: the key restarts */
            moved = 1;
        }
    }
    uint64_t local = R - c;
    if (!rsv__fast_eg0(&r, &S)) return 0;
    out->rsv__literal_inline = 0;
    if (fw->rsv__literal_words) { /* the merge's short-literal option, as rsv__literal_peek */
        if (S <= 57 && S > r.n && S <= r.len - r.pos && !rsv__fast_fill(&r)) return 0;
        if (S <= r.n) {
            out->rsv__literal_word = rsv__top(r.cache, (unsigned)S);
            out->rsv__literal_inline = 1;
        }
    }
    out->literal = rsv_view_make(r.data, r.off + r.pos, S);
    if (!rsv__fast_skip(&r, S) || (local + S) % 8 != 0) return 0;
    if (!rsv__fast_value(&r, &out->value)) return 0;
    if (f->cw_present && out->value.width != f->cw) return 0;
    fw->r = r;
    fw->cont_prev = R + S;
    if (moved) { /* one branch per record, as v1's block-start branch */
        if (out->block_start) fw->next_block = i + f->policy.W < i ? UINT64_MAX : i + f->policy.W;
        fw->code = out->code;
        fw->code_bits = c;
    }
    out->end = r.pos;
    out->local = local;
    out->key_bits = local + S;
    fw->i = i + 1;
    return 1;
}

/* After record N-1: position = data extent and cont_prev = terminal length. */
rsv_status rsv__kv03_terminal(const rsv_kv03_frames *fw);

/* Record st as the walk's diagnosis (status, reader bit, record index) and
 * return it: the failure path of the frame walk and of seeks into it. */
rsv_status rsv__kv03_frames_poison(rsv_kv03_frames *fw, rsv_status st);

#endif
