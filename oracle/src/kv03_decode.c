/* reservoir oracle — KV03 decoding: open (KV03.md §9.1), scan (§9.2) and the
 * record walk (§3.3). Checks are written in the spec's order, one `if` per
 * check, first failure wins. Envelope/directory/EF words are little-endian
 * and read byte by byte; every data-stream bit is read through the phase-1
 * decoders (cursor.c). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define U64_MAX_ UINT64_MAX

enum { HDR = OB_HDR, DIR = OB_DIR };

/* Header field offsets (§7). */
enum {
    H_MAGIC = 0, H_VERSION = 8, H_HLEN = 10, H_FLAGS = 12, H_UNIT = 16, H_CKSUM = 17,
    H_BSCODE = 18, H_RESERVED = 19, H_W = 20, H_K = 24, H_PWIDTH = 32, H_CW = 40,
    H_BODYEXT = 48, H_N = 56, H_BODYCRC = 64, H_HDRCRC = 68, H_BODYOFF = 72,
    H_TOTAL = 80, H_BSPARAM = 88
};
/* Directory field offsets (§5.1), relative to the body. */
enum {
    D_MAGIC = 0, D_REV = 4, D_COUNT = 6, D_EXTENT = 8, D_TERMINAL = 16, D_U = 24,
    D_DICTBITS = 32, D_SEEDBITS = 40, D_L = 48, D_SECTIONS = 64
};

uint64_t ob_sec_off(const uint8_t *body, unsigned i)
{
    return ob_le_get(body + D_SECTIONS + 16 * i, 8);
}

uint64_t ob_sec_len(const uint8_t *body, unsigned i)
{
    return ob_le_get(body + D_SECTIONS + 16 * i + 8, 8);
}

rsv_status ob_fail_at(rsv_oracle_kv03_result *res, rsv_status st, rsv_oracle_phase ph,
                          unsigned step, uint64_t record, uint64_t bitpos)
{
    res->status = st;
    res->phase = ph;
    res->step = step;
    res->record = record;
    res->bitpos = bitpos;
    return st;
}

static rsv_status open_fail(rsv_oracle_kv03_result *res, rsv_status st, unsigned step)
{
    return ob_fail_at(res, st, RSV_ORACLE_PHASE_OPEN, step, 0, 0);
}

static rsv_status scan_fail(rsv_oracle_kv03_result *res, rsv_status st, unsigned step)
{
    return ob_fail_at(res, st, RSV_ORACLE_PHASE_SCAN, step, 0, 0);
}

/* Canonical low width for (U, n), §4. */
static unsigned canonical_L(uint64_t U, uint64_t n)
{
    uint64_t q = U / n;
    return q > 0 ? ob_bitlen(q) - 1 : 0;
}

static int is_group_size(uint64_t K) /* K = 2^n - 1 with n >= 2 (n = 64 allowed) */
{
    return K >= 3 && (K & (K + 1)) == 0; /* K + 1 wraps to 0 for n = 64 */
}

/* ------------------------------------------------------------------------ */
/* §9.1 open                                                                */
/* ------------------------------------------------------------------------ */

rsv_status ob_kv03_open(const uint8_t *file, size_t size, const rsv_oracle_kv03_policy *expected,
                        int revision, rsv_oracle_kv03_result *res)
{
    const uint8_t *h = file;

    /* 1. file < 96 bytes -> TRUNCATED_HEADER */
    if (size < HDR)
        return open_fail(res, RSV_ERR_TRUNCATED_HEADER, 1);

    /* 2. magic EVRT.IX\0 -> WRONG_KIND; any other magic != EVRT.KV\0 -> BAD_MAGIC */
    if (memcmp(h + H_MAGIC, "EVRT.IX\0", 8) == 0)
        return open_fail(res, RSV_ERR_WRONG_KIND, 2);
    if (memcmp(h + H_MAGIC, "EVRT.KV\0", 8) != 0)
        return open_fail(res, RSV_ERR_BAD_MAGIC, 2);

    /* 3. version != 1 or header length != 96 -> BAD_VERSION */
    if (ob_le_get(h + H_VERSION, 2) != 1 || ob_le_get(h + H_HLEN, 2) != HDR)
        return open_fail(res, RSV_ERR_BAD_VERSION, 3);

    /* 4. header CRC (all 96 bytes, bytes 68-71 taken as zero) -> HEADER_CRC */
    {
        uint8_t copy[HDR];
        memcpy(copy, h, HDR);
        memset(copy + H_HDRCRC, 0, 4);
        if (rsv_oracle_crc32c(copy, HDR) != (uint32_t)ob_le_get(h + H_HDRCRC, 4))
            return open_fail(res, RSV_ERR_HEADER_CRC, 4);
    }

    uint64_t flags = ob_le_get(h + H_FLAGS, 4);
    /* 5. flag bits other than 0-1 -> BAD_FLAGS */
    if ((flags & ~(uint64_t)3) != 0)
        return open_fail(res, RSV_ERR_BAD_FLAGS, 5);
    /* 6. unit != 1 -> BAD_UNIT */
    if (h[H_UNIT] != 1)
        return open_fail(res, RSV_ERR_BAD_UNIT, 6);
    /* 7. checksum kind != 1 -> BAD_CHECKSUM_KIND */
    if (h[H_CKSUM] != 1)
        return open_fail(res, RSV_ERR_BAD_CHECKSUM_KIND, 7);
    /* 8. byte 19 != 0 -> RESERVED */
    if (h[H_RESERVED] != 0)
        return open_fail(res, RSV_ERR_RESERVED, 8);

    /* 9. backspace code > 1; EG with parameter > 63; Golomb with parameter 0 */
    uint64_t bs_kind = h[H_BSCODE];
    uint64_t bs_param = ob_le_get(h + H_BSPARAM, 8);
    if (bs_kind > 1 || (bs_kind == RSV_ORACLE_BACKSPACE_EG && bs_param > 63) ||
        (bs_kind == RSV_ORACLE_BACKSPACE_GOLOMB && bs_param == 0))
        return open_fail(res, RSV_ERR_BAD_BACKSPACE, 9);

    /* 10. W = 0, or K not 2^n - 1 with n >= 2 -> BAD_POLICY */
    uint64_t W = ob_le_get(h + H_W, 4);
    uint64_t K = ob_le_get(h + H_K, 8);
    if (W == 0 || !is_group_size(K))
        return open_fail(res, RSV_ERR_BAD_POLICY, 10);

    /* 11. expected policy differs -> POLICY_MISMATCH */
    if (expected != NULL &&
        (expected->bs_kind != bs_kind || expected->bs_param != bs_param || expected->W != W ||
         expected->K != K))
        return open_fail(res, RSV_ERR_POLICY_MISMATCH, 11);

    /* 12. flag bit 0 set -> UNSUPPORTED_VALUE_POLICY */
    if (flags & 1u)
        return open_fail(res, RSV_ERR_UNSUPPORTED_VALUE_POLICY, 12);
    /* 13. policy value width != 0 -> POLICY_WIDTH */
    if (ob_le_get(h + H_PWIDTH, 8) != 0)
        return open_fail(res, RSV_ERR_POLICY_WIDTH, 13);

    int cw_present = (flags & 2u) != 0;
    uint64_t cw = ob_le_get(h + H_CW, 8);
    uint64_t N = ob_le_get(h + H_N, 8);
    uint64_t body_extent = ob_le_get(h + H_BODYEXT, 8);
    /* 14. flag bit 1 clear and cw field != 0 -> COMMON_WIDTH */
    if (!cw_present && cw != 0)
        return open_fail(res, RSV_ERR_COMMON_WIDTH, 14);
    /* 15. cw present, cw > 0 and N > floor(body extent / cw) -> VALUE_SLOTS */
    if (cw_present && cw > 0 && N > body_extent / cw)
        return open_fail(res, RSV_ERR_VALUE_SLOTS, 15);

    /* 16. body offset != 96, body extent mod 8 != 0, or total != 96 + extent/8 */
    uint64_t total = ob_le_get(h + H_TOTAL, 8);
    if (ob_le_get(h + H_BODYOFF, 8) != HDR || body_extent % 8 != 0 ||
        total != HDR + body_extent / 8) /* body_extent/8 < 2^61: no overflow */
        return open_fail(res, RSV_ERR_BAD_EXTENT, 16);

    /* 17. actual file size != total -> FILE_SIZE */
    if ((uint64_t)size != total)
        return open_fail(res, RSV_ERR_FILE_SIZE, 17);

    /* 18. body < 192 bytes -> DIRECTORY_TRUNCATED */
    uint64_t body_size = (uint64_t)size - HDR;
    if (body_size < DIR)
        return open_fail(res, RSV_ERR_DIRECTORY_TRUNCATED, 18);
    const uint8_t *d = file + HDR;

    /* 19. directory magic != KV03 */
    if (memcmp(d + D_MAGIC, "KV03", 4) != 0)
        return open_fail(res, RSV_ERR_BAD_DIRECTORY_MAGIC, 19);
    /* 20. revision != 3 or count != 8 */
    if (ob_le_get(d + D_REV, 2) != 3 || ob_le_get(d + D_COUNT, 2) != 8)
        return open_fail(res, RSV_ERR_BAD_DIRECTORY_REVISION, 20);
    /* 21. directory bytes 49-63 nonzero -> RESERVED */
    for (unsigned i = 49; i < 64; i++)
        if (d[i] != 0)
            return open_fail(res, RSV_ERR_RESERVED, 21);

    /* 22. for i = 0..7 in order: offset != align8(previous end) (previous end
     * for section 0 is 192), offset > body size, or length > body size - offset */
    uint64_t prev_end = DIR;
    for (unsigned i = 0; i < 8; i++) {
        uint64_t off = ob_sec_off(d, i), len = ob_sec_len(d, i);
        if (off != ob_align8(prev_end) || off > body_size || len > body_size - off)
            return open_fail(res, RSV_ERR_SECTION_RANGE, 22);
        prev_end = off + len;
    }
    /* 23. end of section 7 != body size -> TRAILING_SECTIONS */
    if (prev_end != body_size)
        return open_fail(res, RSV_ERR_TRAILING_SECTIONS, 23);

    uint64_t extent = ob_le_get(d + D_EXTENT, 8);
    uint64_t terminal = ob_le_get(d + D_TERMINAL, 8);
    uint64_t U = ob_le_get(d + D_U, 8);
    uint64_t dict_bits = ob_le_get(d + D_DICTBITS, 8);
    uint64_t seed_bits = ob_le_get(d + D_SEEDBITS, 8);
    unsigned L = d[D_L];

    /* 24. section 0/5/7 lengths vs ceil(bits/8) -> BIT_SECTION_EXTENT */
    if (ob_sec_len(d, 0) != ob_ceil_div(extent, 8) || ob_sec_len(d, 5) != ob_ceil_div(dict_bits, 8) ||
        ob_sec_len(d, 7) != ob_ceil_div(seed_bits, 8))
        return open_fail(res, RSV_ERR_BIT_SECTION_EXTENT, 24);

    /* 25. EF shape, with n = ceil(N/W) + 1 */
    uint64_t nb = ob_ceil_div(N, W);
    if (nb == U64_MAX_) /* n = nb + 1 overflows (N = 2^64-1, W = 1) */
        return open_fail(res, RSV_ERR_EF_SHAPE, 25);
    uint64_t n = nb + 1;
    if (L > 63 || L != canonical_L(U, n))
        return open_fail(res, RSV_ERR_EF_SHAPE, 25);
    if (L > 0 && n > U64_MAX_ / L) /* n*L overflows */
        return open_fail(res, RSV_ERR_EF_SHAPE, 25);
    if ((U >> L) > U64_MAX_ - n) /* (U>>L) + n overflows */
        return open_fail(res, RSV_ERR_EF_SHAPE, 25);
    uint64_t H = (U >> L) + n;
    if (ob_sec_len(d, 1) != 8 * ob_ceil_div(n * L, 64) || ob_sec_len(d, 2) != 8 * ob_ceil_div(H, 64) ||
        ob_sec_len(d, 3) != 16 * ob_ceil_div(n, 256) || ob_sec_len(d, 4) % 8 != 0)
        return open_fail(res, RSV_ERR_EF_SHAPE, 25);

    /* 26. section 6 length = 0 or not a multiple of 8 -> DICTIONARY_SHAPE */
    uint64_t len6 = ob_sec_len(d, 6);
    if (len6 == 0 || len6 % 8 != 0)
        return open_fail(res, RSV_ERR_DICTIONARY_SHAPE, 26);
    uint64_t m = len6 / 8 - 1;

    /* 27. N = 0 and (data extent != 0 or terminal != 0) -> METADATA */
    if (N == 0 && (extent != 0 || terminal != 0))
        return open_fail(res, RSV_ERR_METADATA, 27);

    /* 28. (N > 0) != (m > 0); seed bits != ceil(N/W) * (m < 2 ? 0 : bitlen(m-1));
     * N*cw overflows or exceeds the data extent; U != extent - N*cw */
    if ((N > 0) != (m > 0))
        return open_fail(res, RSV_ERR_SECTION_SHAPE, 28);
    {
        uint64_t per = (m < 2) ? 0 : (uint64_t)ob_bitlen(m - 1);
        if (per != 0 && nb > U64_MAX_ / per) /* product overflows: cannot match */
            return open_fail(res, RSV_ERR_SECTION_SHAPE, 28);
        if (seed_bits != nb * per)
            return open_fail(res, RSV_ERR_SECTION_SHAPE, 28);
    }
    if (cw != 0 && N > U64_MAX_ / cw)
        return open_fail(res, RSV_ERR_SECTION_SHAPE, 28);
    if (N * cw > extent || U != extent - N * cw)
        return open_fail(res, RSV_ERR_SECTION_SHAPE, 28);

    /* 29 (revision 1 only; v2 has no step 29). m >= 2 -> UNSUPPORTED_SELECTORS */
    if (revision == 1 && m >= 2)
        return open_fail(res, RSV_ERR_UNSUPPORTED_SELECTORS, 29);

    res->opened = 1;
    res->policy.bs_kind = bs_kind;
    res->policy.bs_param = bs_param;
    res->policy.W = W;
    res->policy.K = K;
    res->n_records = N;
    res->cw_present = cw_present;
    res->cw = cw;
    res->data_extent = extent;
    res->terminal = terminal;
    res->ef_universe = U;
    res->ef_low_width = L;
    res->seed_bits = seed_bits;
    res->m = m;
    res->c0_bits = dict_bits; /* v1: c = dictionary bits, C0 = section 5 */
    res->status = RSV_OK;
    return RSV_OK;
}

rsv_status ob_kv03_load_c0(const uint8_t *file, rsv_oracle_kv03_result *res)
{
    const uint8_t *body = file + HDR;
    uint64_t nbytes = ob_ceil_div(res->c0_bits, 8); /* = section 5 length (check 24) */
    free(res->c0);
    res->c0 = NULL;
    if (nbytes == 0)
        return RSV_OK;
    if (nbytes > SIZE_MAX)
        return RSV_ERR_TOO_LARGE;
    res->c0 = malloc((size_t)nbytes);
    if (res->c0 == NULL)
        return RSV_ERR_NOMEM;
    memcpy(res->c0, body + ob_sec_off(body, 5), (size_t)nbytes);
    return RSV_OK;
}

/* ------------------------------------------------------------------------ */
/* §9.2 scan                                                                */
/* ------------------------------------------------------------------------ */

static int padding_nonzero(const uint8_t *body, unsigned sec, uint64_t bits)
{
    unsigned used = (unsigned)(bits % 8);
    if (used == 0)
        return 0; /* no partial last byte */
    uint8_t last = body[ob_sec_off(body, sec) + ob_sec_len(body, sec) - 1];
    unsigned mask = (1u << (8 - used)) - 1u; /* the unused low bits */
    return (last & mask) != 0;
}

static int bytes_equal(const uint8_t *a, uint64_t alen, const uint8_t *b, uint64_t blen)
{
    if (alen != blen)
        return 0;
    return alen == 0 || memcmp(a, b, (size_t)alen) == 0;
}

/* The v1 m <= 1 part of scan step 2 (section 6 endpoints). */
static int endpoints_v1_ok(const uint8_t *body, const rsv_oracle_kv03_result *res)
{
    const uint8_t *s6 = body + ob_sec_off(body, 6);
    if (res->m == 1) /* section 6 = [0, dictionary bits] */
        return ob_le_get(s6, 8) == 0 && ob_le_get(s6 + 8, 8) == res->c0_bits;
    return ob_le_get(s6, 8) == 0 && res->c0_bits == 0; /* m = 0: [0], no bits */
}

static rsv_status scan(const uint8_t *file, size_t size, rsv_oracle_kv03_mode mode,
                       rsv_oracle_kv03_result *res, rsv_oracle_dict *dict, ob_walk_out *wo)
{
    const uint8_t *h = file;
    const uint8_t *body = file + HDR;
    const uint64_t body_size = (uint64_t)size - HDR;
    const uint64_t N = res->n_records, W = res->policy.W, cw = res->cw;
    const uint64_t nb = ob_ceil_div(N, W);
    rsv_status st;

    if (mode == RSV_ORACLE_KV03_SCAN) {
        /* 1. body CRC -> BODY_CRC */
        if (rsv_oracle_crc32c(body, (size_t)body_size) != (uint32_t)ob_le_get(h + H_BODYCRC, 4))
            return scan_fail(res, RSV_ERR_BODY_CRC, 1);

        /* 2. section 6 != [0, dictionary bits] (m = 1), or != [0] with
         * dictionary bits 0 (m = 0) -> SECTION_ENDPOINTS; m >= 2: §6.3
         * steps 1-4 (phase DICTIONARY). (Revision 1 open rejected m >= 2.) */
        if (res->m <= 1) {
            if (!endpoints_v1_ok(body, res))
                return scan_fail(res, RSV_ERR_SECTION_ENDPOINTS, 2);
        }
        st = ob_kv03_read_dict(file, res, dict);
        if (st != RSV_OK)
            return st;
        /* block_offset(0) != 0 or block_offset(nb) != data extent ->
         * SECTION_ENDPOINTS (select failures -> EF_CORRUPT), evaluated in
         * that order. */
        rsv_oracle_ef_view ef = ob_ef_view_of(file, res);
        uint64_t sel;
        st = rsv_oracle_ef_select(&ef, 0, &sel);
        if (st != RSV_OK)
            return scan_fail(res, st, 2);
        if (sel != 0) /* block_offset(0) = select(0) + 0*cw */
            return scan_fail(res, RSV_ERR_SECTION_ENDPOINTS, 2);
        st = rsv_oracle_ef_select(&ef, nb, &sel);
        if (st != RSV_OK)
            return scan_fail(res, st, 2);
        if (sel + N * cw != res->data_extent) /* N*cw <= extent (open 28) */
            return scan_fail(res, RSV_ERR_SECTION_ENDPOINTS, 2);
    } else {
        /* Cursor walk: the dictionary is read before the first record. */
        st = ob_kv03_read_dict(file, res, dict);
        if (st != RSV_OK)
            return st;
    }

    /* 3. if N > 0: the §3.3 walk and the terminal check. */
    if (N > 0) {
        st = ob_kv03_walk(file, dict, res, wo);
        if (st != RSV_OK)
            return st;
    }
    if (mode != RSV_ORACLE_KV03_SCAN)
        return RSV_OK;

    /* 3a. m >= 2 and some dictionary code is the code of no walked record. */
    if (dict->m >= 2) {
        for (uint64_t j = 0; j < dict->m; j++)
            if (!wo->used[j])
                return scan_fail(res, RSV_ERR_UNUSED_SELECTOR, RSV_ORACLE_STEP_3A);
    }

    /* 4. cw presence and value as §3.4 prescribes. */
    {
        int want_present = (N == 0) || wo->widths_equal;
        uint64_t want_cw = (N == 0 || !want_present) ? 0 : wo->width0;
        if (want_present != res->cw_present || want_cw != cw)
            return scan_fail(res, RSV_ERR_COMMON_WIDTH_NONCANONICAL, 4);
    }

    /* 5. any nonzero byte between sections -> NONZERO_GAP */
    for (unsigned i = 1; i < 8; i++) {
        uint64_t end = ob_sec_off(body, i - 1) + ob_sec_len(body, i - 1);
        for (uint64_t p = end; p < ob_sec_off(body, i); p++)
            if (body[p] != 0)
                return scan_fail(res, RSV_ERR_NONZERO_GAP, 5);
    }

    /* 6. nonzero unused bits in the last byte of section 0, 5 or 7 */
    if (padding_nonzero(body, 0, res->data_extent) || padding_nonzero(body, 5, res->c0_bits) ||
        padding_nonzero(body, 7, res->seed_bits))
        return scan_fail(res, RSV_ERR_NONZERO_PADDING, 6);

    /* 7. sections 1-4 byte-identical to the EF built from the walked block
     * offsets: r_b = offset_b - b*W*cw (b < nb), r_nb = extent - N*cw. */
    {
        uint64_t n = nb + 1;
        if (n > SIZE_MAX / sizeof(uint64_t))
            return scan_fail(res, RSV_ERR_NOMEM, 7);
        uint64_t *r = malloc((size_t)n * sizeof(uint64_t));
        if (r == NULL)
            return scan_fail(res, RSV_ERR_NOMEM, 7);
        for (uint64_t b = 0; b < nb; b++)
            r[b] = wo->block_offsets[b] - b * W * cw;
        r[nb] = res->data_extent - N * cw;
        rsv_oracle_ef ef;
        st = rsv_oracle_ef_build(r, (size_t)n, &ef);
        free(r);
        if (st != RSV_OK) /* unreachable after a successful walk */
            return scan_fail(res, st == RSV_ERR_EF_NONMONOTONE ? RSV_ERR_EF_NONCANONICAL : st, 7);
        int same = bytes_equal(ef.low, ef.low_len, body + ob_sec_off(body, 1), ob_sec_len(body, 1)) &&
                   bytes_equal(ef.high, ef.high_len, body + ob_sec_off(body, 2), ob_sec_len(body, 2)) &&
                   bytes_equal(ef.samples, ef.samples_len, body + ob_sec_off(body, 3),
                               ob_sec_len(body, 3)) &&
                   bytes_equal(ef.sparse, ef.sparse_len, body + ob_sec_off(body, 4),
                               ob_sec_len(body, 4));
        rsv_oracle_ef_free(&ef);
        if (!same)
            return scan_fail(res, RSV_ERR_EF_NONCANONICAL, 7);
    }
    return RSV_OK;
}

/* ------------------------------------------------------------------------ */
/* Entry points                                                             */
/* ------------------------------------------------------------------------ */

rsv_status ob_kv03_decode(const uint8_t *file, size_t size, const rsv_oracle_kv03_policy *expected,
                          rsv_oracle_kv03_mode mode, int revision, rsv_oracle_kv03_result *res,
                          rsv_oracle_dict *dict, uint64_t **code_index)
{
    memset(res, 0, sizeof *res);
    if ((file == NULL && size > 0) ||
        (mode != RSV_ORACLE_KV03_OPEN && mode != RSV_ORACLE_KV03_SCAN &&
         mode != RSV_ORACLE_KV03_WALK)) {
        res->status = RSV_ERR_INVALID_ARGUMENT;
        return res->status;
    }
    rsv_status st = ob_kv03_open(file, size, expected, revision, res);
    if (st != RSV_OK || mode == RSV_ORACLE_KV03_OPEN)
        return st;
    st = ob_kv03_load_c0(file, res);
    if (st != RSV_OK) {
        res->status = st;
        return st;
    }
    ob_walk_out wo;
    memset(&wo, 0, sizeof wo);
    st = scan(file, size, mode, res, dict, &wo);
    if (code_index != NULL) {
        *code_index = wo.code_index; /* one entry per pushed record */
        wo.code_index = NULL;
    }
    ob_walk_out_free(&wo);
    if (st == RSV_OK) {
        res->status = RSV_OK;
        res->phase = RSV_ORACLE_PHASE_NONE;
        res->step = 0;
    }
    return st;
}

rsv_status rsv_oracle_kv03_decode(const uint8_t *file, size_t size,
                                  const rsv_oracle_kv03_policy *expected,
                                  rsv_oracle_kv03_mode mode, rsv_oracle_kv03_result *res)
{
    if (res == NULL)
        return RSV_ERR_INVALID_ARGUMENT;
    rsv_oracle_dict dict = {0, NULL};
    rsv_status st = ob_kv03_decode(file, size, expected, mode, 1, res, &dict, NULL);
    rsv_oracle_dict_free(&dict);
    return st;
}

void rsv_oracle_kv03_result_free(rsv_oracle_kv03_result *res)
{
    if (res == NULL)
        return;
    free(res->c0);
    res->c0 = NULL;
    rsv_oracle_records_free(&res->records);
}

rsv_status rsv_oracle_kv03_decode_v2(const uint8_t *file, size_t size,
                                     const rsv_oracle_kv03_policy *expected,
                                     rsv_oracle_kv03_mode mode, rsv_oracle_kv03_v2_result *res)
{
    if (res == NULL)
        return RSV_ERR_INVALID_ARGUMENT;
    memset(res, 0, sizeof *res);
    return ob_kv03_decode(file, size, expected, mode, 2, &res->base, &res->dict,
                          &res->code_index);
}

void rsv_oracle_kv03_v2_result_free(rsv_oracle_kv03_v2_result *res)
{
    if (res == NULL)
        return;
    rsv_oracle_kv03_result_free(&res->base);
    rsv_oracle_dict_free(&res->dict);
    free(res->code_index);
    res->code_index = NULL;
}

rsv_status rsv_oracle_kv03_v2_coded(const rsv_oracle_kv03_v2_result *res,
                                    rsv_oracle_crecord **out)
{
    if (res == NULL || out == NULL)
        return RSV_ERR_INVALID_ARGUMENT;
    *out = NULL;
    size_t n = res->base.records.count;
    if (n == 0)
        return RSV_OK;
    rsv_oracle_crecord *a = calloc(n, sizeof *a);
    if (a == NULL)
        return RSV_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        a[i].rec = res->base.records.items[i];
        a[i].code = res->dict.codes[res->code_index[i]];
    }
    *out = a;
    return RSV_OK;
}
