/* Fuzz target codes_roundtrip: values and code parameters from the input are
 * written with rsv_writer, checked against the spec's length formulas
 * (computed here from CODES.md §3.1 and §4.1) and against the oracle
 * encoder's bit string, then read back by the reservoir reader AND the oracle,
 * which must both return exactly the written values at exactly the expected
 * positions (CODES.md §3.2 last paragraph, §4, §6.2, §7.1).
 *
 * Invalid parameters (w > 64, k > 63, m = 0), too-wide values and codes over
 * the writer's limit must be rejected with the spec's error, leave the
 * writer's contents unchanged (§6.2) and agree with the oracle encoder's
 * verdict. Input format: common/roundtrip_script.h. Aborts on any mismatch. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data_producer.h"
#include "guard_arena.h"
#include "params.h"
#include "reservoir/expgolomb.h"
#include "reservoir/golomb.h"
#include "reservoir/oracle.h"
#include "reservoir/reader.h"
#include "reservoir/status.h"
#include "reservoir/writer.h"
#include "roundtrip_script.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct rt_item {
    enum rsv_rt_kind kind;
    int alt;
    uint64_t param; /* w, k, m or the zero count */
    uint64_t value;
    uint64_t start; /* bit position in the stream */
    uint64_t len;   /* code length by the spec's formula */
} rt_item;

/* Expected stream, built independently from the oracle encoder's '0'/'1'
 * strings (and hand-made zero runs); compared with the writer at the end. */
static uint8_t g_expect[RSV_RT_BIG_LIMIT / 8 + 8];
static char g_bits[RSV_RT_BIG_LIMIT + 1];
static rt_item g_items[RSV_RT_MAX_ITEMS];

static const char *const kind_names[] = {"fixed", "eg", "golomb", "zeros"};

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 3, 4)))
#endif
static _Noreturn void fail_item(const rt_item *it, unsigned idx, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr,
            "codes_roundtrip MISMATCH at item #%u: %s param=%" PRIu64 " (0x%" PRIx64 ") value=%" PRIu64
            " (0x%" PRIx64 ") alt=%d start=%" PRIu64 " len=%" PRIu64 "\n  ",
            idx, kind_names[it->kind], it->param, it->param, it->value, it->value, it->alt, it->start,
            it->len);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    abort();
}

/* ---- the spec's formulas, written here from CODES.md ------------------- */

/* bitlen(x), CODES.md §0. */
static unsigned bitlen(uint64_t x)
{
    unsigned n = 0;
    for (; x; x >>= 1) n++;
    return n;
}

/* §3.1: 2·bitlen(q+1) − 1 + k with q = v >> k; bitlen(2^64) = 65. */
static uint64_t eg_len(uint64_t v, unsigned k)
{
    uint64_t q = v >> k;
    unsigned b = q == UINT64_MAX ? 65u : bitlen(q + 1);
    return 2u * b - 1u + k;
}

/* §4.1 Golomb constants: w = bitlen(m − 1), cutoff = (2^w − m) mod 2^64. */
static void golomb_consts(uint64_t m, unsigned *w, uint64_t *cutoff)
{
    *w = bitlen(m - 1);
    *cutoff = (*w < 64 ? UINT64_C(1) << *w : 0) - m;
}

/* §4.1: q + 1 + (w − 1 if r < cutoff else w); 0 if it overflows u64. */
static int golomb_len(uint64_t v, uint64_t m, uint64_t *len)
{
    unsigned w;
    uint64_t cutoff;
    golomb_consts(m, &w, &cutoff);
    uint64_t q = v / m, r = v % m;
    uint64_t tail = r < cutoff ? w - 1u : w; /* w = 0 only for m = 1, where cutoff = 0 */
    if (q > UINT64_MAX - 1 - tail) return 0;
    *len = q + 1 + tail;
    return 1;
}


/* ---- input decoding ----------------------------------------------------- */

static uint64_t pick_value(rsv_fuzz_producer *s, uint64_t M, int M_valid)
{
    switch ((enum rsv_rt_value_shape)(rsv_fuzz_u8(s) % 8u)) {
    case RSV_RT_V_U64: return rsv_fuzz_u64(s);
    case RSV_RT_V_U8: return rsv_fuzz_u8(s);
    case RSV_RT_V_MAX: return UINT64_MAX;
    case RSV_RT_V_NEAR_MAX: return UINT64_MAX - rsv_fuzz_u8(s);
    case RSV_RT_V_NEAR_POW2: {
        uint64_t base = UINT64_C(1) << (rsv_fuzz_u8(s) % 64u);
        return base + rsv_fuzz_u8(s) % 5u - 2u; /* mod 2^64 by design */
    }
    case RSV_RT_V_SHIFTED: {
        uint64_t x = rsv_fuzz_u64(s);
        return x >> (rsv_fuzz_u8(s) % 64u);
    }
    case RSV_RT_V_U32: return rsv_fuzz_u32(s);
    default: {
        if (!M_valid || M == 0) return rsv_fuzz_u64(s);
        unsigned w;
        uint64_t cutoff, q = rsv_fuzz_u8(s), r;
        golomb_consts(M, &w, &cutoff);
        switch (rsv_fuzz_u8(s) % 5u) {
        case 0: r = 0; break;
        case 1: r = M - 1; break;
        case 2: r = cutoff - 1; break; /* wraps for cutoff = 0: any value is valid */
        case 3: r = cutoff; break;
        default: r = rsv_fuzz_u64(s) % M; break;
        }
        return q * M + r; /* mod 2^64 */
    }
    }
}

/* ---- writing ------------------------------------------------------------ */

/* Append an oracle bit string (or `n` zeros when bits is NULL) to g_expect. */
static void expect_append(uint64_t *nbits, const char *bits, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++, (*nbits)++) {
        uint64_t at = *nbits;
        if (at % 8 == 0) g_expect[at / 8] = 0;
        if (bits && bits[i] == '1') g_expect[at / 8] |= (uint8_t)(0x80u >> (at % 8));
    }
}

/* Write one item with the writer and the oracle encoder; both must give the
 * status and length the spec demands. Returns 1 if the item was written. */
static int write_item(rsv_writer *w, rt_item *it, unsigned idx, uint64_t limit, uint64_t *exp_nbits)
{
    uint64_t before = rsv_writer_bits(w);
    uint64_t room = limit - before; /* the writer never exceeds its limit */
    rsv_status want = RSV_OK, st, ost = RSV_OK;
    uint64_t onb = 0;
    int len_known = 1; /* 0: the code length overflows u64 */

    it->start = before;
    switch (it->kind) {
    case RSV_RT_FIXED: {
        uint64_t wd = it->param;
        it->len = wd;
        if (wd > 64)
            want = RSV_ERR_WIDTH;
        else if (wd < 64 && (it->value >> wd) != 0)
            want = RSV_ERR_VALUE_TOO_WIDE;
        st = rsv_put(w, it->value, (unsigned)wd);
        ost = rsv_oracle_encode_fixed(it->value, wd, g_bits, room, &onb);
        break;
    }
    case RSV_RT_EG: {
        unsigned k = (unsigned)it->param;
        if (k > 63) {
            want = RSV_ERR_BAD_ORDER;
            it->len = 0;
        } else {
            it->len = eg_len(it->value, k);
            uint64_t olen = 0, clen = rsv_eg_length(it->value, k);
            if (rsv_oracle_eg_length(it->value, k, &olen) != RSV_OK || olen != it->len || clen != it->len)
                fail_item(it, idx, "EG length: spec %" PRIu64 ", oracle %" PRIu64 ", codec %" PRIu64, it->len,
                          olen, clen);
        }
        st = rsv_put_eg(w, it->value, k);
        ost = rsv_oracle_encode_eg(it->value, k, g_bits, room, &onb);
        break;
    }
    case RSV_RT_GOLOMB: {
        uint64_t m = it->param;
        if (m == 0) {
            want = RSV_ERR_BAD_MODULUS;
            it->len = 0;
        } else {
            len_known = golomb_len(it->value, m, &it->len);
            if (!len_known) it->len = UINT64_MAX;
            uint64_t olen = 0, clen = 0;
            rsv_golomb g;
            rsv_golomb_init(&g, m);
            rsv_status os = rsv_oracle_golomb_length(it->value, m, &olen);
            rsv_status cs = rsv_golomb_length(&g, it->value, &clen);
            rsv_status ls = len_known ? RSV_OK : RSV_ERR_TOO_LARGE;
            if (os != ls || cs != ls || (len_known && (olen != it->len || clen != it->len)))
                fail_item(it, idx, "Golomb length: spec %s %" PRIu64 ", oracle %s %" PRIu64 ", codec %s %" PRIu64,
                          rsv_status_name((int)ls), it->len, rsv_status_name((int)os), olen,
                          rsv_status_name((int)cs), clen);
        }
        if (it->alt) {
            st = rsv_put_golomb_m(w, it->value, m);
        } else {
            rsv_golomb g;
            rsv_golomb_init(&g, m); /* m = 0: an invalid struct the writer must reject */
            st = rsv_put_golomb(w, it->value, &g);
        }
        ost = rsv_oracle_encode_golomb(it->value, m, g_bits, room, &onb);
        break;
    }
    default:
        it->len = it->param;
        st = rsv_put_zeros(w, it->param);
        ost = it->len > room ? RSV_ERR_TOO_LARGE : RSV_OK; /* no oracle encoder for a run */
        onb = it->len;
        break;
    }
    if (want == RSV_OK && (!len_known || it->len > room)) want = RSV_ERR_TOO_LARGE;

    if (st != want)
        fail_item(it, idx, "writer status %s, spec expects %s (room %" PRIu64 " bits)", rsv_status_name((int)st),
                  rsv_status_name((int)want), room);
    if (ost != want)
        fail_item(it, idx, "oracle encoder status %s, spec expects %s (room %" PRIu64 " bits)",
                  rsv_status_name((int)ost), rsv_status_name((int)want), room);
    /* The oracle reports the true length also when it is over the limit. */
    if ((want == RSV_OK || want == RSV_ERR_TOO_LARGE) && onb != it->len)
        fail_item(it, idx, "oracle encoder length %" PRIu64 ", spec %" PRIu64, onb, it->len);
    if (want == RSV_ERR_TOO_LARGE && len_known && it->len <= room)
        fail_item(it, idx, "rejected as too large but fits the room %" PRIu64, room);
    if (rsv_fuzz_tracing())
        fprintf(stderr, "  item #%u %s(%" PRIu64 ") value=%" PRIu64 "%s at %" PRIu64 " -> %s len=%" PRIu64 "\n", idx,
                kind_names[it->kind], it->param, it->value, it->alt ? " alt" : "", before,
                rsv_status_name((int)st), it->len);
    uint64_t after = rsv_writer_bits(w);
    if (want != RSV_OK) {
        if (after != before) fail_item(it, idx, "rejected put changed the length to %" PRIu64, after);
        return 0;
    }
    if (after != before + it->len)
        fail_item(it, idx, "writer length %" PRIu64 ", expected %" PRIu64, after, before + it->len);
    expect_append(exp_nbits, it->kind == RSV_RT_ZEROS ? NULL : g_bits, it->len);
    return 1;
}

/* ---- reading back --------------------------------------------------------- */

static void read_item(rsv_reader *r, rsv_view v, const rt_item *it, unsigned idx)
{
    uint64_t p = rsv_reader_position(r);
    uint64_t cv = 0;
    rsv_status cs;
    rsv_oracle_result o;
    if (p != it->start) fail_item(it, idx, "reader at %" PRIu64 " before the item", p);
    switch (it->kind) {
    case RSV_RT_FIXED:
        cs = rsv_read(r, (unsigned)it->param, &cv);
        o = rsv_oracle_read(v, p, it->param);
        break;
    case RSV_RT_EG:
        cs = it->alt && it->param == 0 ? rsv_read_eg0(r, &cv) : rsv_read_eg(r, (unsigned)it->param, &cv);
        o = rsv_oracle_read_eg(v, p, it->param);
        break;
    case RSV_RT_GOLOMB:
        if (it->alt) {
            cs = rsv_read_golomb_m(r, it->param, &cv);
        } else {
            rsv_golomb g;
            rsv_golomb_init(&g, it->param);
            cs = rsv_read_golomb(r, &g, &cv);
        }
        o = rsv_oracle_read_golomb(v, p, it->param);
        break;
    default:
        cs = rsv_skip(r, it->param);
        cv = 0;
        o = rsv_oracle_skip(v, p, it->param);
        break;
    }
    uint64_t want_v = it->kind == RSV_RT_ZEROS ? 0 : it->value;
    uint64_t want_p = it->start + it->len;
    if (cs != RSV_OK || cv != want_v || rsv_reader_position(r) != want_p)
        fail_item(it, idx, "reader: %s value %" PRIu64 " pos %" PRIu64 "; expected value %" PRIu64 " pos %" PRIu64,
                  rsv_status_name((int)cs), cv, rsv_reader_position(r), want_v, want_p);
    if (o.status != RSV_OK || o.value != want_v || o.pos != want_p)
        fail_item(it, idx, "oracle: %s value %" PRIu64 " pos %" PRIu64 "; expected value %" PRIu64 " pos %" PRIu64,
                  rsv_status_name((int)o.status), o.value, o.pos, want_v, want_p);
}

/* First differing bit between the writer's bytes and g_expect, mapped to the
 * item that wrote it, for the report. */
static _Noreturn void fail_bits(const uint8_t *got, uint64_t nbits, unsigned nitems)
{
    uint64_t i = 0;
    while (i < nbits && ((got[i / 8] ^ g_expect[i / 8]) & (0x80u >> (i % 8))) == 0) i++;
    for (unsigned j = 0; j < nitems; j++)
        if (i >= g_items[j].start && i < g_items[j].start + g_items[j].len)
            fail_item(&g_items[j], j, "writer bit %" PRIu64 " differs from the oracle encoder's string", i);
    fprintf(stderr, "codes_roundtrip MISMATCH: writer bytes differ from the oracle encoding at bit %" PRIu64
                    " of %" PRIu64 " (padding or outside any item)\n", i, nbits);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rsv_fuzz_producer in;
    rsv_writer w;
    unsigned nitems = 0;
    uint64_t exp_nbits = 0;

    rsv_fuzz_producer_init(&in, data, size);
    uint64_t limit = rsv_fuzz_u8(&in) < RSV_RT_LIMSEL_SMALL ? RSV_RT_BIG_LIMIT : rsv_fuzz_u16(&in);
    rsv_writer_init(&w);
    rsv_writer_set_limit(&w, limit);
    if (rsv_fuzz_tracing()) fprintf(stderr, "codes_roundtrip: writer limit %" PRIu64 " bits\n", limit);

    for (unsigned idx = 0; rsv_fuzz_remaining(&in) > 0 && nitems < RSV_RT_MAX_ITEMS; idx++) {
        rt_item it;
        uint8_t isel = rsv_fuzz_u8(&in);
        int ignored;
        memset(&it, 0, sizeof it);
        it.kind = (enum rsv_rt_kind)(isel % RSV_RT_NKINDS);
        it.alt = (isel & RSV_RT_ALT_API) != 0;
        switch (it.kind) {
        case RSV_RT_FIXED:
            it.param = rsv_fuzz_width(rsv_fuzz_u8(&in));
            it.value = pick_value(&in, it.param < 64 ? UINT64_C(1) << it.param : 0, it.param < 64);
            break;
        case RSV_RT_EG:
            it.param = rsv_fuzz_order(rsv_fuzz_u8(&in));
            it.value = pick_value(&in, it.param < 64 ? UINT64_C(1) << it.param : 0, it.param < 64);
            break;
        case RSV_RT_GOLOMB:
            it.param = rsv_fuzz_modulus(&in, &ignored);
            it.value = pick_value(&in, it.param, it.param != 0);
            break;
        default:
            it.param = rsv_fuzz_u16(&in);
            break;
        }
        if (write_item(&w, &it, idx, limit, &exp_nbits)) g_items[nitems++] = it;
    }

    uint64_t total = rsv_writer_bits(&w);
    if (total != exp_nbits) {
        fprintf(stderr, "codes_roundtrip MISMATCH: writer has %" PRIu64 " bits, expected %" PRIu64 "\n", total,
                exp_nbits);
        abort();
    }
    uint8_t *bytes = NULL;
    size_t nbytes = 0;
    rsv_status st = rsv_writer_finish(&w, &bytes, &nbytes);
    if (st != RSV_OK || nbytes != (total + 7) / 8 || (nbytes && !bytes)) {
        fprintf(stderr, "codes_roundtrip MISMATCH: finish gave %s, %zu bytes for %" PRIu64 " bits\n",
                rsv_status_name((int)st), nbytes, total);
        abort();
    }
    /* §6.2: ceil(n/8) bytes, unused low bits of the last byte zero (g_expect
     * has them zero by construction). */
    if (nbytes && memcmp(bytes, g_expect, nbytes) != 0) fail_bits(bytes, 8 * (uint64_t)nbytes, nitems);

    /* Read back from a copy that ends flush against the guard page. */
    uint8_t *copy = rsv_fuzz_arena_place(bytes, nbytes);
    free(bytes);
    rsv_writer_free(&w);
    rsv_view v = rsv_view_make(copy, 0, total);
    rsv_reader r;
    rsv_reader_init(&r, v);
    for (unsigned j = 0; j < nitems; j++) read_item(&r, v, &g_items[j], j);
    if (!rsv_reader_empty(&r) || rsv_reader_position(&r) != total) {
        fprintf(stderr, "codes_roundtrip MISMATCH: reader at %" PRIu64 " of %" PRIu64 " after the last item\n",
                rsv_reader_position(&r), total);
        abort();
    }
    return 0;
}
