/* KV03 scan (KV03.md §9.2): full verification after open, in the spec's
 * order, first failure wins. The walk uses the cursor (steps 1–7 and the
 * terminal check); the walked block offsets are kept (one u64 per block) to
 * rebuild the canonical Elias–Fano sections for the final comparison. */
#include <stdlib.h>
#include <string.h>

#include "reservoir/crc32c.h"
#include "reservoir/kv03.h"

#include "kv03_layout.h"

static rsv_status check_endpoints(const rsv_kv03_file *f)
{
    const uint8_t *s6 = f->body + f->sec_off[6];
    if (f->m >= 2) { /* §6.3 steps 1-4 */
        rsv_status st = rsv_kv03_dictionary_check(f);
        if (st) return st;
    } else if (f->m == 1) {
        if (rsv__le(s6, 8) != 0 || rsv__le(s6 + 8, 8) != f->dict_bits) return RSV_ERR_SECTION_ENDPOINTS;
    } else { /* m = 0 */
        if (rsv__le(s6, 8) != 0 || f->dict_bits != 0) return RSV_ERR_SECTION_ENDPOINTS;
    }
    /* Left to right as §9.2 step 2 reads: block_offset(0) is decoded and
     * compared before block_offset(nb) is decoded (the oracle does the same;
     * see docs/kv03.md). */
    uint64_t first, last;
    if (rsv_kv03_block_offset(f, 0, &first)) return RSV_ERR_EF_CORRUPT;
    if (first != 0) return RSV_ERR_SECTION_ENDPOINTS;
    if (rsv_kv03_block_offset(f, f->nb, &last)) return RSV_ERR_EF_CORRUPT;
    if (last != f->extent) return RSV_ERR_SECTION_ENDPOINTS;
    return RSV_OK;
}

/* Grow a scratch array of elem-sized items to hold n (contents kept: realloc). */
static rsv_status scratch(void **p, size_t *cap, uint64_t n, size_t elem)
{
    if (n <= *cap) return RSV_OK;
    if (n > SIZE_MAX / elem / 2) return RSV_ERR_NOMEM;
    size_t ncap = *cap < 16 ? 16 : *cap;
    while (ncap < n) ncap *= 2;
    void *q = realloc(*p, ncap * elem);
    if (!q) return RSV_ERR_NOMEM;
    *p = q;
    *cap = ncap;
    return RSV_OK;
}

/* Walk every record; collect r_b = offset_b - b*W*cw, the width summary and
 * the number of distinct codes (a walk that passed step 7 visits the codes
 * in increasing index order, so counting changes counts codes: no set).
 * The offsets array grows as blocks are walked (geometrically), not to the
 * header's nb up front: its size follows the records the file really holds
 * (each takes at least one data-stream bit), so a small file claiming 2^32
 * blocks fails with its walk error, not RSV_ERR_NOMEM after asking for GiBs. */
static rsv_status walk(rsv_kv03_scanner *s, const rsv_kv03_file *f, int *uniform,
                       uint64_t *width, uint64_t *codes, rsv_kv03_diag *diag)
{
    rsv_kv03_cursor *cur = &s->cur;
    rsv_kv03_entry e;
    int more;
    rsv_status st = rsv_kv03_cursor_reset(cur, f);
    if (st) return st;
    uint64_t W = f->policy.W, start = 0, b = 0, left = 0, last = 0; /* block b starts when left = 0 (no division per record) */
    *uniform = 1;
    *codes = 0;
    for (uint64_t i = 0;; i++) {
        st = rsv_kv03_cursor_next(cur, &e, &more);
        if (st || !more) break;
        if (left == 0) {
            if (b >= s->offsets_cap) {
                void *mem = s->offsets;
                st = scratch(&mem, &s->offsets_cap, b + 1, sizeof *s->offsets);
                s->offsets = mem;
                if (st) break;
            }
            s->offsets[b] = start - b * W * f->cw;
            b++;
            left = W;
        }
        left--;
        if (i == 0) *width = e.value_span.width;
        else if (e.value_span.width != *width) *uniform = 0;
        if (i == 0 || e.code != last) (*codes)++;
        last = e.code;
        start = e.end;
    }
    if (st && diag) *diag = rsv_kv03_cursor_diag(cur);
    return st;
}

static int nonzero(const uint8_t *p, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        if (p[i]) return 1;
    return 0;
}

static int bad_padding(const uint8_t *sec, uint64_t bits)
{
    unsigned used = (unsigned)(bits % 8);
    return used && (sec[bits / 8] & (0xFFu >> used)) != 0;
}

void rsv_kv03_scanner_init(rsv_kv03_scanner *s) { memset(s, 0, sizeof *s); }

void rsv_kv03_scanner_free(rsv_kv03_scanner *s)
{
    if (!s) return;
    rsv_kv03_cursor_free(&s->cur);
    free(s->offsets);
    free(s->ef);
    rsv_kv03_scanner_init(s);
}

rsv_status rsv_kv03_scan(const rsv_kv03_file *f, rsv_kv03_diag *diag)
{
    rsv_kv03_scanner s;
    rsv_kv03_scanner_init(&s);
    rsv_status st = rsv_kv03_scanner_scan(&s, f, diag);
    rsv_kv03_scanner_free(&s);
    return st;
}

rsv_status rsv_kv03_scanner_scan(rsv_kv03_scanner *s, const rsv_kv03_file *f, rsv_kv03_diag *diag)
{
    if (!s || !f) return RSV_ERR_INVALID_ARGUMENT;
    if (diag) memset(diag, 0, sizeof *diag);
    const uint8_t *body = f->body;
    if (rsv__le(f->bytes + 64, 4) != rsv_crc32c(0, body, (size_t)f->body_size)) return RSV_ERR_BODY_CRC; /* 1 */
    rsv_status st = check_endpoints(f); /* 2 */
    if (st) return st;

    uint64_t n = f->nb + 1;
    int uniform = 1;
    uint64_t width = 0, codes = 0;
    if (f->N > 0) { /* 3 */
        st = walk(s, f, &uniform, &width, &codes, diag);
        if (st) return st;
    }
    if (f->m >= 2 && codes < f->m) return RSV_ERR_UNUSED_SELECTOR; /* 3a */
    /* The walk succeeded, so all nb blocks exist: nb + 1 entries are bounded
     * by the file's size now. */
    void *mem = s->offsets;
    st = scratch(&mem, &s->offsets_cap, n, sizeof *s->offsets);
    s->offsets = mem;
    if (st) return st;
    uint64_t *r = s->offsets;
    r[f->nb] = f->extent - f->N * f->cw;
    /* 4: cw present iff N = 0 or all widths agree, and then equal to them */
    int want_present = f->N == 0 || uniform;
    uint64_t want_cw = (want_present && f->N) ? width : 0;
    if (want_present != f->cw_present || want_cw != f->cw) {
        return RSV_ERR_COMMON_WIDTH_NONCANONICAL;
    }
    uint64_t end = RSV_KV03_DIRECTORY_BYTES; /* 5: gaps before each section */
    for (int i = 0; i < 8; i++) {
        if (nonzero(body + end, f->sec_off[i] - end)) return RSV_ERR_NONZERO_GAP;
        end = f->sec_off[i] + f->sec_len[i];
    }
    if (bad_padding(body + f->sec_off[0], f->extent) || bad_padding(body + f->sec_off[5], f->dict_bits) ||
        bad_padding(body + f->sec_off[7], f->seed_bits)) /* 6 */
        return RSV_ERR_NONZERO_PADDING;
    rsv_ef_layout lay; /* 7 */
    st = rsv_ef_plan(r, n, &lay);
    if (st == RSV_ERR_EF_NONMONOTONE || st == RSV_ERR_EF_SHAPE) return RSV_ERR_EF_NONCANONICAL;
    if (st) return st;
    uint64_t total = lay.low_bytes + lay.high_bytes + lay.samples_bytes + lay.sparse_bytes;
    uint64_t have = f->sec_len[1] + f->sec_len[2] + f->sec_len[3] + f->sec_len[4];
    if (total != have || lay.L != f->L || lay.U != f->U) return RSV_ERR_EF_NONCANONICAL;
    mem = s->ef;
    st = scratch(&mem, &s->ef_cap, total ? total : 1, 1);
    s->ef = mem;
    if (st) return st;
    rsv_ef_encode(r, &lay, s->ef);
    /* sections 1..4 are contiguous: their lengths are multiples of 8 */
    if (memcmp(s->ef, body + f->sec_off[1], (size_t)total) != 0) return RSV_ERR_EF_NONCANONICAL;
    return RSV_OK;
}
