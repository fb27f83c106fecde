/* KV03 v2: jumping to a selector code via the seeds (KV03.md §6.2, §3.2).
 *
 * Block starts are not key restarts: a block start that continues its code
 * inherits key bits from the record before it, so a cursor cannot simply
 * start at "the block whose seed is j". What the seeds do give: the first
 * record with code >= j is either inside block b*-1 (reached there by a
 * transition) or is the first record of block b*, where b* is the first
 * block whose seed is >= j. Starting the frame walk at block b*-1 (whose
 * seed is < j, so its records need no key) and skipping frames until the
 * code reaches j lands on a record that is record 0 or follows a code
 * change — its key starts fresh, so the cursor can rebuild keys from there. */
#include <string.h>

#include "reservoir/kv03.h"

#include "kv03_dict.h"
#include "kv03_frame_parse.h"

rsv_status rsv_kv03_first_block_of_code(const rsv_kv03_file *f, uint64_t j, uint64_t *first, uint64_t *last)
{
    if (!f || !first || !last || j >= (f->m > 1 ? f->m : 1)) return RSV_ERR_INVALID_ARGUMENT;
    uint64_t a = 0, b = f->nb; /* b* = the first block with seed >= j (nb: none) */
    while (a < b) {
        uint64_t mid = a + (b - a) / 2, s;
        rsv_kv03_seed(f, mid, &s); /* mid < nb */
        if (s >= j) b = mid;
        else a = mid + 1;
    }
    /* a > 0 implies seed_{a-1} < j was read: the lower bound's invariant,
     * which holds whatever the seeds are */
    if (a == 0) *first = *last = 0;
    else if (a == f->nb) *first = *last = a - 1;
    else *first = a - 1, *last = a;
    return RSV_OK;
}

/* Re-initialize fw at block b (b < nb, seed_b taken as the previous code:
 * the block start is parsed as one that continues its code, so
 * PREFIX_CROSSES_CODE is not checked there and its inherited key bits are
 * unknown — only frames are read until the code changes). */
static rsv_status at_block(rsv_kv03_frames *fw, uint64_t b)
{
    const rsv_kv03_file *f = fw->f;
    uint64_t i = b * f->policy.W, bit;
    fw->i = fw->next_block = i;
    rsv_status st = rsv_kv03_block_offset(f, b, &bit);
    if (st) return st;
    if (rsv_reader_seek(&fw->r, bit) != RSV_OK) return RSV_ERR_BLOCK_OFFSET;
    if (f->m >= 2) {
        st = rsv__kv03_block_code(f, b, &fw->code);
        if (st) return st;
        fw->code_bits = rsv__kv03_code_len(f, fw->code);
    }
    return RSV_OK;
}

static rsv_status seek(rsv_kv03_frames *fw, uint64_t j)
{
    const rsv_kv03_file *f = fw->f;
    uint64_t first, last;
    rsv_status st = rsv_kv03_first_block_of_code(f, j, &first, &last);
    if (st) return st;
    if (f->N == 0 || j == 0) return RSV_OK; /* already at record 0 */
    st = at_block(fw, first);
    while (st == RSV_OK && fw->i < f->N) {
        rsv_kv03_frames saved = *fw;
        rsv_kv03_frame fr;
        st = rsv__kv03_parse_frame(fw, &fr);
        if (st) break;
        if (fr.code >= j) { /* hand this record to the caller's next call */
            *fw = saved;
            return RSV_OK;
        }
        if (fw->i == f->N) st = rsv__kv03_terminal(fw);
    }
    return st;
}

/* The seek proper, on a walker just initialized (dictionary checked). */
static rsv_status seek_from_init(rsv_kv03_frames *fw, uint64_t j)
{
    const rsv_kv03_file *f = fw->f;
    rsv_status st = seek(fw, j);
    if (st) {
        if (fw->i > 0 && fw->i == f->N && st == RSV_ERR_TERMINAL_MISMATCH) fw->i--; /* the last record */
        return rsv__kv03_frames_poison(fw, st);
    }
    return RSV_OK;
}

rsv_status rsv_kv03_frames_seek_code(rsv_kv03_frames *fw, uint64_t j)
{
    if (!fw || !fw->f) return RSV_ERR_INVALID_ARGUMENT;
    const rsv_kv03_file *f = fw->f;
    if (j >= (f->m > 1 ? f->m : 1)) return RSV_ERR_INVALID_ARGUMENT;
    int words = fw->rsv__literal_words;
    rsv_status st = rsv_kv03_frames_init(fw, f); /* dictionary check (m >= 2) */
    fw->rsv__literal_words = words;
    if (st) return st;
    return seek_from_init(fw, j);
}

rsv_status rsv_kv03_cursor_seek_code(rsv_kv03_cursor *c, uint64_t j)
{
    if (!c || !c->fw.f) return RSV_ERR_INVALID_ARGUMENT;
    const rsv_kv03_file *f = c->fw.f;
    if (j >= (f->m > 1 ? f->m : 1)) return RSV_ERR_INVALID_ARGUMENT;
    /* The reset initializes the walker (dictionary check included), so the
     * seek starts from it: rsv_kv03_frames_seek_code would initialize it and
     * check the dictionary a second time. */
    rsv_status st = rsv_kv03_cursor_reset(c, f);
    if (st) return st;
    st = seek_from_init(&c->fw, j);
    c->key_len = 0; /* the next record starts fresh: record 0 or a code change */
    c->diag = c->fw.diag;
    return st;
}
