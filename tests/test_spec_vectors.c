/* CODES.md §7: every valid vector (§7.1) written by the codec writer and read
 * by the codec reader and the oracle, and every malformed vector (§7.2) failing
 * with the spec's code and position in both readers, at all 8 bit alignments,
 * followed by reads that must continue exactly like the oracle started at the
 * failure position (§5.3 "after any codec-level failure the reader stays
 * usable"). Expected values come from the transcribed tables only. */
#include <criterion/criterion.h>
#include <string.h>

#include "reservoir/expgolomb.h"
#include "reservoir/oracle.h"
#include "reservoir/reader.h"
#include "reservoir/writer.h"
#include "spec_vectors.h"
#include "testutil.h"

#define BUF_BYTES 64 /* longest vector: 7 + 8 + 140 bits, plus noise after */

/* Fill buf with noise and lay the notation `bits` down at bit `at`. */
static uint64_t layout(uint8_t *buf, rsv_rng *rng, uint64_t at, const char *bits)
{
    for (size_t i = 0; i < BUF_BYTES; i++) buf[i] = (uint8_t)rsv_rng_next(rng);
    uint64_t n = rsv_parse_bits(bits, buf, BUF_BYTES, at);
    cr_assert_neq(n, UINT64_MAX, "notation does not parse: %s", bits);
    return n;
}

/* ---- §7.1 valid codes --------------------------------------------------- */

static rsv_status put_row(rsv_writer *w, const rsv_sv_valid *row)
{
    switch (row->code) {
    case RSV_SV_FIXED: return rsv_put(w, row->value, (unsigned)row->param);
    case RSV_SV_EG: return rsv_put_eg(w, row->value, (unsigned)row->param);
    default: return rsv_put_golomb_m(w, row->value, row->param);
    }
}

/* Decode one value of the row's code with the codec reader; `variant` picks
 * between the equivalent entry points (all must agree). */
#define N_VARIANTS 3
static rsv_status codec_decode(rsv_reader *r, rsv_sv_code code, uint64_t param, int variant,
                               uint64_t *out)
{
    size_t done = 0;
    rsv_golomb g;
    switch (code) {
    case RSV_SV_FIXED:
        if (variant == 1 && param == 1) {
            unsigned b = 0;
            rsv_status st = rsv_read_bit(r, &b);
            *out = b;
            return st;
        }
        if (variant == 2) return rsv_read_n(r, (unsigned)param, out, 1, &done);
        return rsv_read(r, (unsigned)param, out);
    case RSV_SV_EG:
        if (variant == 1 && param == 0) return rsv_read_eg0(r, out);
        if (variant == 2) return rsv_read_eg_n(r, (unsigned)param, out, 1, &done);
        return rsv_read_eg(r, (unsigned)param, out);
    default:
        if (variant == 1) return rsv_read_golomb_m(r, param, out);
        (void)rsv_golomb_init(&g, param); /* m = 0 stores an invalid struct */
        if (variant == 2) return rsv_read_golomb_n(r, &g, out, 1, &done);
        return rsv_read_golomb(r, &g, out);
    }
}

static rsv_oracle_result oracle_decode(rsv_view v, uint64_t p, rsv_sv_code code, uint64_t param)
{
    switch (code) {
    case RSV_SV_FIXED: return rsv_oracle_read(v, p, param);
    case RSV_SV_EG: return rsv_oracle_read_eg(v, p, param);
    default: return rsv_oracle_read_golomb(v, p, param);
    }
}

Test(spec_valid, table_lengths_match_notation)
{
    cr_assert_eq(rsv_sv_valid_count, 40);
    for (size_t i = 0; i < rsv_sv_valid_count; i++) {
        const rsv_sv_valid *row = &rsv_sv_valid_rows[i];
        cr_assert_eq(row->id, (int)i + 1);
        cr_assert_eq(rsv_count_bits(row->bits), row->len, "row %d", row->id);
    }
}

Test(spec_valid, writer_produces_exact_bits)
{
    rsv_rng rng = {0x5EC71};
    for (size_t i = 0; i < rsv_sv_valid_count; i++) {
        const rsv_sv_valid *row = &rsv_sv_valid_rows[i];
        uint8_t exp[BUF_BYTES] = {0};
        cr_assert_eq(rsv_parse_bits(row->bits, exp, sizeof exp, 0), row->len);
        for (unsigned s = 0; s < 8; s++) { /* s prefix bits shift the code's alignment */
            rsv_writer w;
            rsv_writer_init(&w);
            uint64_t prefix = rsv_rng_next(&rng) & ((UINT64_C(1) << s) - 1);
            cr_assert_eq(rsv_put(&w, prefix, s), RSV_OK);
            cr_assert_eq(put_row(&w, row), RSV_OK, "row %d s %u", row->id, s);
            uint64_t total = s + row->len;
            cr_assert_eq(rsv_writer_bits(&w), total, "row %d s %u", row->id, s);
            const uint8_t *d = rsv_writer_data(&w);
            for (unsigned j = 0; j < s; j++)
                cr_assert_eq(rsv_get_bit(d, j), (unsigned)(prefix >> (s - 1 - j)) & 1u);
            for (uint64_t j = 0; j < row->len; j++)
                cr_assert_eq(rsv_get_bit(d, s + j), rsv_get_bit(exp, j),
                             "row %d s %u bit %llu", row->id, s, (unsigned long long)j);
            cr_assert_eq(rsv_writer_nbytes(&w), (size_t)((total + 7) / 8));
            if (total % 8) {
                uint8_t pad = (uint8_t)((1u << (8 - total % 8)) - 1);
                cr_assert_eq(d[total / 8] & pad, 0, "row %d s %u: padding not zero", row->id, s);
            }
            rsv_writer_free(&w);
        }
    }
}

Test(spec_valid, length_functions_and_oracle_encoder)
{
    for (size_t i = 0; i < rsv_sv_valid_count; i++) {
        const rsv_sv_valid *row = &rsv_sv_valid_rows[i];
        uint8_t exp[BUF_BYTES] = {0};
        char want[200], got[200];
        rsv_parse_bits(row->bits, exp, sizeof exp, 0);
        rsv_bits_to_string(exp, 0, row->len, want);
        uint64_t n = 0, olen = 0;
        rsv_status st;
        if (row->code == RSV_SV_FIXED) {
            st = rsv_oracle_encode_fixed(row->value, row->param, got, sizeof got - 1, &n);
        } else if (row->code == RSV_SV_EG) {
            st = rsv_oracle_encode_eg(row->value, row->param, got, sizeof got - 1, &n);
            cr_assert_eq(rsv_eg_length(row->value, (unsigned)row->param), row->len, "row %d",
                         row->id);
            cr_assert_eq(rsv_oracle_eg_length(row->value, row->param, &olen), RSV_OK);
            cr_assert_eq(olen, row->len, "row %d", row->id);
        } else {
            rsv_golomb g;
            uint64_t glen = 0;
            st = rsv_oracle_encode_golomb(row->value, row->param, got, sizeof got - 1, &n);
            cr_assert_eq(rsv_golomb_init(&g, row->param), RSV_OK);
            cr_assert_eq(rsv_golomb_length(&g, row->value, &glen), RSV_OK);
            cr_assert_eq(glen, row->len, "row %d", row->id);
            cr_assert_eq(rsv_oracle_golomb_length(row->value, row->param, &olen), RSV_OK);
            cr_assert_eq(olen, row->len, "row %d", row->id);
        }
        cr_assert_eq(st, RSV_OK, "row %d", row->id);
        cr_assert_eq(n, row->len, "row %d", row->id);
        cr_assert_str_eq(got, want, "row %d", row->id);
    }
}

/* The view is exactly the code, at bit offset 8 + s inside noise, so nothing
 * outside it may influence the result. */
Test(spec_valid, decode_exact_view_all_offsets)
{
    rsv_rng rng = {0xDEC0DE};
    uint8_t buf[BUF_BYTES];
    for (size_t i = 0; i < rsv_sv_valid_count; i++) {
        const rsv_sv_valid *row = &rsv_sv_valid_rows[i];
        for (unsigned s = 0; s < 8; s++) {
            for (int variant = 0; variant < N_VARIANTS; variant++) {
                layout(buf, &rng, 8 + s, row->bits);
                rsv_view v = rsv_view_make(buf, 8 + s, row->len);
                rsv_reader r;
                rsv_reader_init(&r, v);
                uint64_t x = ~row->value;
                cr_assert_eq(codec_decode(&r, row->code, row->param, variant, &x), RSV_OK,
                             "row %d s %u variant %d", row->id, s, variant);
                cr_assert_eq(x, row->value, "row %d s %u variant %d", row->id, s, variant);
                cr_assert_eq(rsv_reader_position(&r), row->len, "row %d s %u", row->id, s);
                cr_assert_eq(rsv_reader_remaining(&r), 0);
                cr_assert(rsv_reader_empty(&r));

                rsv_oracle_result o = oracle_decode(v, 0, row->code, row->param);
                cr_assert_eq(o.status, RSV_OK, "oracle row %d s %u", row->id, s);
                cr_assert_eq(o.value, row->value, "oracle row %d s %u", row->id, s);
                cr_assert_eq(o.pos, row->len, "oracle row %d s %u", row->id, s);
            }
        }
    }
}

/* The code inside a wider view: noise before (consumed by a skip or by a
 * read that warms the cache) and 40 noise bits after it. */
Test(spec_valid, decode_inside_noise)
{
    rsv_rng rng = {0xA11CE};
    uint8_t buf[BUF_BYTES];
    for (size_t i = 0; i < rsv_sv_valid_count; i++) {
        const rsv_sv_valid *row = &rsv_sv_valid_rows[i];
        for (unsigned pre = 0; pre < 16; pre++) {
            for (int variant = 0; variant < N_VARIANTS; variant++) {
                layout(buf, &rng, 3 + pre, row->bits);
                rsv_view v = rsv_view_make(buf, 3, pre + row->len + 40);
                rsv_reader r;
                rsv_reader_init(&r, v);
                uint64_t x = 0;
                if (variant & 1)
                    cr_assert_eq(rsv_read(&r, pre, &x), RSV_OK);
                else
                    cr_assert_eq(rsv_skip(&r, pre), RSV_OK);
                cr_assert_eq(codec_decode(&r, row->code, row->param, variant, &x), RSV_OK,
                             "row %d pre %u", row->id, pre);
                cr_assert_eq(x, row->value, "row %d pre %u variant %d", row->id, pre, variant);
                cr_assert_eq(rsv_reader_position(&r), pre + row->len, "row %d pre %u", row->id,
                             pre);
                cr_assert_eq(rsv_reader_remaining(&r), 40);

                rsv_oracle_result o = oracle_decode(v, pre, row->code, row->param);
                cr_assert_eq(o.status, RSV_OK);
                cr_assert_eq(o.value, row->value, "oracle row %d pre %u", row->id, pre);
                cr_assert_eq(o.pos, pre + row->len);
            }
        }
    }
}

/* ---- §7.2 malformed inputs ---------------------------------------------- */

typedef struct op_result {
    rsv_status status;
    uint64_t value;
    rsv_view sub;
} op_result;

static op_result codec_op(rsv_reader *r, rsv_sv_op op, uint64_t param, int variant)
{
    op_result o;
    memset(&o, 0, sizeof o);
    o.sub = rsv_view_make(NULL, 0xBAD, 0xBAD); /* take must leave it alone on failure */
    switch (op) {
    case RSV_SV_READ: o.status = codec_decode(r, RSV_SV_FIXED, param, variant, &o.value); break;
    case RSV_SV_READ_EG: o.status = codec_decode(r, RSV_SV_EG, param, variant, &o.value); break;
    case RSV_SV_READ_GOLOMB:
        o.status = codec_decode(r, RSV_SV_GOLOMB, param, variant, &o.value);
        break;
    case RSV_SV_TAKE: o.status = rsv_take(r, param, &o.sub); break;
    case RSV_SV_SKIP: o.status = rsv_skip(r, param); break;
    }
    if (o.status != RSV_OK) o.value = 0;
    return o;
}

static rsv_oracle_result oracle_op(rsv_view v, uint64_t p, rsv_sv_op op, uint64_t param,
                                   rsv_view *sub)
{
    switch (op) {
    case RSV_SV_READ: return rsv_oracle_read(v, p, param);
    case RSV_SV_READ_EG: return rsv_oracle_read_eg(v, p, param);
    case RSV_SV_READ_GOLOMB: return rsv_oracle_read_golomb(v, p, param);
    case RSV_SV_TAKE: return rsv_oracle_take(v, p, param, sub);
    default: return rsv_oracle_skip(v, p, param);
    }
}

/* Start a reader at p over `v`: either skipping (cold cache) or reading the
 * prefix bits (warm cache), so both cache states meet the malformed code. */
static void start_at(rsv_reader *r, rsv_view v, uint64_t p, int warm)
{
    uint64_t x;
    rsv_reader_init(r, v);
    if (warm)
        cr_assert_eq(rsv_read(r, (unsigned)p, &x), RSV_OK);
    else
        cr_assert_eq(rsv_skip(r, p), RSV_OK);
}

Test(spec_malformed, table_sanity)
{
    cr_assert_eq(rsv_sv_malformed_count, 30);
    for (size_t i = 0; i < rsv_sv_malformed_count; i++)
        cr_assert_neq(rsv_count_bits(rsv_sv_malformed_rows[i].bits), UINT64_MAX);
}

/* Each row at 8 start positions p (random bits before the input, the view
 * ending exactly at the input's end) and two base offsets; the codec reader
 * (every entry point, cold and warm cache) and the oracle must give the row's
 * error at p + position. */
Test(spec_malformed, error_and_position_all_offsets)
{
    rsv_rng rng = {0xBADC0DE};
    uint8_t buf[BUF_BYTES];
    static const uint64_t bases[] = {0, 11};
    for (size_t i = 0; i < rsv_sv_malformed_count; i++) {
        const rsv_sv_malformed *row = &rsv_sv_malformed_rows[i];
        for (size_t b = 0; b < 2; b++) {
            for (uint64_t p = 0; p < 8; p++) {
                for (int variant = 0; variant < N_VARIANTS * 2; variant++) {
                    uint64_t n = layout(buf, &rng, bases[b] + p, row->bits);
                    rsv_view v = rsv_view_make(buf, bases[b], p + n);
                    rsv_reader r;
                    start_at(&r, v, p, variant & 1);
                    op_result c = codec_op(&r, row->op, row->param, variant / 2);
                    cr_assert_eq(c.status, row->error, "row %d p %llu base %llu variant %d: got %d",
                                 row->id, (unsigned long long)p, (unsigned long long)bases[b],
                                 variant, (int)c.status);
                    cr_assert_eq(rsv_reader_position(&r), p + row->pos,
                                 "row %d p %llu variant %d: position %llu", row->id,
                                 (unsigned long long)p, variant,
                                 (unsigned long long)rsv_reader_position(&r));
                    cr_assert_eq(rsv_reader_remaining(&r), v.len - (p + row->pos));
                    cr_assert_eq(rsv_reader_empty(&r), p + row->pos == v.len);
                    if (row->op == RSV_SV_TAKE) {
                        cr_assert_eq(c.sub.data, NULL, "failed take wrote its output");
                        cr_assert_eq(c.sub.off, 0xBAD);
                        cr_assert_eq(c.sub.len, 0xBAD);
                    }

                    rsv_view osub = rsv_view_make(NULL, 0xBAD, 0xBAD);
                    rsv_oracle_result o = oracle_op(v, p, row->op, row->param, &osub);
                    cr_assert_eq(o.status, row->error, "oracle row %d p %llu", row->id,
                                 (unsigned long long)p);
                    cr_assert_eq(o.pos, p + row->pos, "oracle row %d p %llu: position %llu",
                                 row->id, (unsigned long long)p, (unsigned long long)o.pos);
                    cr_assert_eq(osub.off, 0xBAD);
                }
            }
        }
    }
}

/* Follow-up operations after each failure: every one must match the oracle
 * started at the failure position, including the state afterwards. */
typedef struct follow_op {
    rsv_sv_op op;
    uint64_t param;
} follow_op;

static const follow_op follow_ops[] = {
    {RSV_SV_READ, 0},         {RSV_SV_READ, 1},          {RSV_SV_READ, 7},
    {RSV_SV_READ, 13},        {RSV_SV_READ, 64},         {RSV_SV_READ, 65},
    {RSV_SV_READ_EG, 0},      {RSV_SV_READ_EG, 1},       {RSV_SV_READ_EG, 3},
    {RSV_SV_READ_EG, 63},     {RSV_SV_READ_EG, 64},      {RSV_SV_READ_GOLOMB, 1},
    {RSV_SV_READ_GOLOMB, 3},  {RSV_SV_READ_GOLOMB, 7},   {RSV_SV_READ_GOLOMB, UINT64_MAX},
    {RSV_SV_READ_GOLOMB, 0},  {RSV_SV_TAKE, 0},          {RSV_SV_TAKE, 5},
    {RSV_SV_SKIP, 1},         {RSV_SV_SKIP, UINT64_MAX},
};

Test(spec_malformed, follow_up_matches_oracle)
{
    rsv_rng rng = {0xF0110};
    uint8_t buf[BUF_BYTES];
    for (size_t i = 0; i < rsv_sv_malformed_count; i++) {
        const rsv_sv_malformed *row = &rsv_sv_malformed_rows[i];
        for (uint64_t p = 0; p < 8; p++) {
            for (size_t f = 0; f < sizeof follow_ops / sizeof follow_ops[0]; f++) {
                for (int variant = 0; variant < N_VARIANTS * 2; variant++) {
                    const follow_op *fo = &follow_ops[f];
                    /* 5 + p: another set of alignments than the test above */
                    uint64_t n = layout(buf, &rng, 5 + p, row->bits);
                    rsv_view v = rsv_view_make(buf, 5, p + n);
                    rsv_reader r;
                    start_at(&r, v, p, variant & 1);
                    op_result c = codec_op(&r, row->op, row->param, variant / 2);
                    cr_assert_eq(c.status, row->error);
                    uint64_t fail_pos = p + row->pos;
                    cr_assert_eq(rsv_reader_position(&r), fail_pos);

                    c = codec_op(&r, fo->op, fo->param, variant / 2);
                    rsv_view osub = rsv_view_make(NULL, 0xBAD, 0xBAD);
                    rsv_oracle_result o = oracle_op(v, fail_pos, fo->op, fo->param, &osub);
                    cr_assert_eq(c.status, o.status,
                                 "row %d p %llu follow-up %zu variant %d: codec %d oracle %d",
                                 row->id, (unsigned long long)p, f, variant, (int)c.status,
                                 (int)o.status);
                    cr_assert_eq(c.value, o.value, "row %d p %llu follow-up %zu", row->id,
                                 (unsigned long long)p, f);
                    cr_assert_eq(rsv_reader_position(&r), o.pos, "row %d p %llu follow-up %zu",
                                 row->id, (unsigned long long)p, f);
                    cr_assert_eq(rsv_reader_remaining(&r), v.len - o.pos);
                    cr_assert_eq(rsv_reader_empty(&r), o.pos == v.len);
                    if (fo->op == RSV_SV_TAKE && o.status == RSV_OK)
                        cr_assert(rsv_view_identical(c.sub, osub), "take views differ");

                    /* Drain in 13-bit reads (then the rest) against the oracle. */
                    uint64_t pos = o.pos;
                    while (pos < v.len) {
                        uint64_t w = v.len - pos < 13 ? v.len - pos : 13;
                        uint64_t x = 0;
                        rsv_oracle_result od = rsv_oracle_read(v, pos, w);
                        cr_assert_eq(rsv_read(&r, (unsigned)w, &x), RSV_OK);
                        cr_assert_eq(x, od.value, "row %d p %llu follow-up %zu drain at %llu",
                                     row->id, (unsigned long long)p, f, (unsigned long long)pos);
                        pos = od.pos;
                        cr_assert_eq(rsv_reader_position(&r), pos);
                    }
                    cr_assert(rsv_reader_empty(&r));
                }
            }
        }
    }
}

/* The two examples spelled out after the §7.2 table. */
Test(spec_malformed, reading_again_examples)
{
    rsv_rng rng = {0xE7A};
    uint8_t buf[BUF_BYTES];
    for (uint64_t p = 0; p < 8; p++) {
        for (int warm = 0; warm < 2; warm++) {
            /* #5: 0^140, read_eg(0) twice -> EG_OVERFLOW at 65, then at 130. */
            uint64_t n = layout(buf, &rng, 2 + p, "0^140");
            rsv_view v = rsv_view_make(buf, 2, p + n);
            rsv_reader r;
            uint64_t x = 0;
            start_at(&r, v, p, warm);
            cr_assert_eq(rsv_read_eg(&r, 0, &x), RSV_ERR_EG_OVERFLOW);
            cr_assert_eq(rsv_reader_position(&r), p + 65);
            cr_assert_eq(rsv_read_eg(&r, 0, &x), RSV_ERR_EG_OVERFLOW);
            cr_assert_eq(rsv_reader_position(&r), p + 130, "p %llu: %llu", (unsigned long long)p,
                         (unsigned long long)rsv_reader_position(&r));
            rsv_oracle_result o = rsv_oracle_read_eg(v, p + 65, 0);
            cr_assert_eq(o.status, RSV_ERR_EG_OVERFLOW);
            cr_assert_eq(o.pos, p + 130);
            /* A third attempt: 10 zeros left, the view ends in the zero run. */
            cr_assert_eq(rsv_read_eg0(&r, &x), RSV_ERR_EG_TRUNCATED);
            cr_assert_eq(rsv_reader_position(&r), p + 140);

            /* #16: read_golomb(MAX) on 001 fails at 2; read(1) then gives 1 at 3. */
            n = layout(buf, &rng, 2 + p, "001");
            v = rsv_view_make(buf, 2, p + n);
            start_at(&r, v, p, warm);
            cr_assert_eq(rsv_read_golomb_m(&r, UINT64_MAX, &x), RSV_ERR_GOLOMB_QUOTIENT_OVERFLOW);
            cr_assert_eq(rsv_reader_position(&r), p + 2);
            x = 0;
            cr_assert_eq(rsv_read(&r, 1, &x), RSV_OK);
            cr_assert_eq(x, 1);
            cr_assert_eq(rsv_reader_position(&r), p + 3);
            cr_assert(rsv_reader_empty(&r));
            o = rsv_oracle_read(v, p + 2, 1);
            cr_assert_eq(o.status, RSV_OK);
            cr_assert_eq(o.value, 1);
            cr_assert_eq(o.pos, p + 3);
        }
    }
}
