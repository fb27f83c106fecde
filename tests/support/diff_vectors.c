/* CODES.md §7.1 valid vectors, verbatim: both encoders must produce exactly
 * the listed bits, and both readers must decode them to the listed value with
 * the position advanced by exactly the length, at 8 placements with random
 * bits before and after. Expected values come from the spec table. */
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "spec_vectors.h"
#include "reservoir/writer.h"

#define N_VECTORS rsv_sv_valid_count
typedef rsv_sv_valid vec; /* CODES.md §7.1, transcribed once in spec_vectors.c */

/* Spec notation -> '0'/'1' string (at most 160 bits in this table). */
static void spec_string(const char *spec, char *out, size_t cap)
{
    uint8_t tmp[32];
    memset(tmp, 0, sizeof tmp);
    uint64_t n = rsv_parse_bits(spec, tmp, sizeof tmp, 0);
    if (n == UINT64_MAX || n >= cap) abort();
    rsv_bits_to_string(tmp, 0, n, out);
}

static void check_encoders(rsv_diff *d, size_t idx)
{
    const vec *e = &rsv_sv_valid_rows[idx];
    char want[200], got[200];
    uint64_t n = 0;
    spec_string(e->bits, want, sizeof want);
    rsv_status st = e->code == RSV_SV_FIXED ? rsv_oracle_encode_fixed(e->value, e->param, got, 199, &n)
                    : e->code == RSV_SV_EG  ? rsv_oracle_encode_eg(e->value, e->param, got, 199, &n)
                                       : rsv_oracle_encode_golomb(e->value, e->param, got, 199, &n);
    if (st != RSV_OK || n != e->len || strcmp(got, want) != 0)
        rsv_diff_fail(d, "[vectors] §7.1 row %zu: oracle encoder gives %s, %llu bits \"%s\"; spec %s",
                      idx + 1, rsv_status_name((int)st), (unsigned long long)n,
                      st == RSV_OK ? got : "", want);

    rsv_writer w;
    rsv_writer_init(&w);
    (void)rsv_put(&w, 5, 3); /* start unaligned */
    st = e->code == RSV_SV_FIXED ? rsv_put(&w, e->value, (unsigned)e->param)
         : e->code == RSV_SV_EG  ? rsv_put_eg(&w, e->value, (unsigned)e->param)
                            : rsv_put_golomb_m(&w, e->value, e->param);
    uint64_t wn = rsv_writer_bits(&w) - 3;
    if (st == RSV_OK && wn == e->len && wn < sizeof got)
        rsv_bits_to_string(rsv_writer_data(&w), 3, wn, got);
    else
        got[0] = 0;
    if (st != RSV_OK || wn != e->len || strcmp(got, want) != 0)
        rsv_diff_fail(d, "[vectors] §7.1 row %zu: writer gives %s, %llu bits \"%s\"; spec %s",
                      idx + 1, rsv_status_name((int)st), (unsigned long long)wn, got, want);
    rsv_writer_free(&w);
}

static void decode_one(rsv_diff_run *t, const vec *e, unsigned variant)
{
    switch (e->code) {
    case RSV_SV_FIXED:
        rsv_diff_read(t, (unsigned)e->param);
        break;
    case RSV_SV_EG:
        if (e->param == 0 && (variant & 1))
            rsv_diff_read_eg0(t);
        else
            rsv_diff_read_eg(t, (unsigned)e->param);
        break;
    default:
        if (variant & 1)
            rsv_diff_read_golomb_m(t, e->param);
        else
            rsv_diff_read_golomb(t, e->param);
        break;
    }
}

void rsv_diff_suite_vectors(rsv_diff *d, const rsv_diff_opts *o)
{
    rsv_rng g = {o->seed ^ UINT64_C(0x7E1)};
    for (size_t idx = 0; idx < N_VECTORS; idx++) {
        const vec *e = &rsv_sv_valid_rows[idx];
        check_encoders(d, idx);
        for (unsigned i = 0; i < 8; i++) {
            uint64_t off = i, pre = (5 * i) % 11, post = rsv_rng_below(&g, 20);
            /* spec bits followed by `post` random bits: build with a '1'-free
             * notation for the tail by appending random bits after parsing */
            uint8_t *buf;
            rsv_view v = rsv_diff_build(&g, e->bits, off, pre, &buf);
            if (post) { /* re-build with room for the noise after the code */
                free(buf);
                char spec[256];
                snprintf(spec, sizeof spec, "%s 0^%llu", e->bits, (unsigned long long)post);
                v = rsv_diff_build(&g, spec, off, pre, &buf);
                for (uint64_t j = 0; j < post; j++)
                    rsv_set_bit(buf, off + pre + e->len + j, (unsigned)rsv_rng_below(&g, 2));
            }
            rsv_diff_run t;
            rsv_diff_begin(&t, d, v, "vectors", "§7.1 row %llu at view offset %llu, start %llu",
                           idx + 1, off, pre, 0);
            if (i & 2)
                rsv_diff_skip(&t, pre);
            else
                rsv_diff_read(&t, (unsigned)pre);
            decode_one(&t, e, i);
            rsv_diff_expect(&t, RSV_OK, e->value, pre + e->len);
            rsv_diff_drain(&t);
            free(buf);
        }
    }
}
