/* Argument, state and capacity checks of the public API: the paths a caller
 * reaches with a NULL pointer, an out-of-range index, a call in the wrong
 * state or a full fixed buffer. Expected statuses: the headers' contracts
 * (kv03.h, merge.h, stream.h, writer.h, record.h) — NULL where an object or
 * output is required and out-of-range indexes are RSV_ERR_INVALID_ARGUMENT,
 * calls after finish RSV_ERR_STATE, calls after a failure RSV_ERR_POISONED,
 * a fixed buffer's end RSV_ERR_TOO_LARGE (writer.h) — and KV03.md §1.2
 * (codes of at most 512 bits, longer → RSV_ERR_TOO_LARGE). */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "reservoir/golomb.h"
#include "reservoir/kv03.h"
#include "reservoir/merge.h"
#include "reservoir/reader.h"
#include "reservoir/record.h"
#include "reservoir/stream.h"
#include "reservoir/writer.h"

#include "load_window.h"

static const rsv_kv03_policy k_pol = {RSV_BACKSPACE_EG, 0, 2, 3};
static const uint8_t k_c0[1] = {0x00}; /* `0` */
static const uint8_t k_c1[1] = {0x80}; /* `10` with 2 bits */

/* A two-code file (codes `0`, `10`): keys "a", "b" under `0`, "a" under `10`. */
static uint8_t *two_code_file(size_t *n)
{
    rsv_kv03_writer w;
    cr_assert_eq(rsv_kv03_writer_init(&w, &k_pol, NULL, 0), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_add_coded(&w, k_c0, 1, "a", 1, rsv_value_present("x", 1)), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_add_coded(&w, k_c0, 1, "b", 1, rsv_value_tombstone()), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_add_coded(&w, k_c1, 2, "a", 1, rsv_value_present(NULL, 0)), RSV_OK);
    uint8_t *out;
    cr_assert_eq(rsv_kv03_writer_finish(&w, &out, n), RSV_OK);
    rsv_kv03_writer_free(&w);
    return out;
}

Test(api_arguments, policy_check)
{
    cr_assert_eq(rsv_kv03_policy_check(NULL), RSV_ERR_INVALID_ARGUMENT);
    rsv_kv03_policy g0 = {RSV_BACKSPACE_GOLOMB, 0, 2, 3}; /* §4: Golomb m >= 1 */
    cr_assert_eq(rsv_kv03_policy_check(&g0), RSV_ERR_BAD_BACKSPACE);
    rsv_kv03_policy unknown = {(rsv_backspace_code)9, 0, 2, 3}; /* neither EG nor Golomb */
    cr_assert_eq(rsv_kv03_policy_check(&unknown), RSV_ERR_BAD_BACKSPACE);
}

Test(api_arguments, golomb)
{
    rsv_golomb g;
    uint64_t nb;
    cr_assert_eq(rsv_golomb_init(NULL, 3), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_golomb_init(&g, 3), RSV_OK);
    cr_assert_eq(rsv_golomb_length(NULL, 1, &nb), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_golomb_length(&g, 1, NULL), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_golomb_length(&g, 7, &nb), RSV_OK);
    cr_assert_eq(nb, 5); /* CODES.md §4.1, m = 3: w = 2, cutoff 1; v = 7: q = 2, r = 1 ≥ 1 → 2 + 1 + 2 */
    cr_assert_eq(rsv_golomb_init(&g, 0), RSV_ERR_BAD_MODULUS);
    cr_assert_eq(rsv_golomb_length(&g, 1, &nb), RSV_ERR_BAD_MODULUS);
    cr_assert_eq(rsv_eg_length(5, 64), 0); /* golomb.h: 0 for k > 63 */
}

/* golomb.h's fields, hand-computed from their documented definitions:
 * w = bitlen(m - 1), cutoff = (2^w - m) mod 2^64, mask = 2^w - 1,
 * L = floor((2^64 - 1) / m), longcut (2^63 + cutoff * 2^(64-w); 0 for w = 0;
 * 2^63 for w = 64), qfast = min(L, 64); m = 0: every field 0, whatever the
 * struct held before. */
static void golomb_fields(uint64_t m, uint64_t cutoff, uint64_t mask, uint64_t L, uint64_t longcut, unsigned w,
                          unsigned qfast)
{
    rsv_golomb g;
    memset(&g, 0xAA, sizeof g);
    cr_assert_eq(rsv_golomb_init(&g, m), m ? RSV_OK : RSV_ERR_BAD_MODULUS);
    cr_assert_eq(g.m, m);
    cr_assert_eq(g.cutoff, cutoff, "m %" PRIu64 ": cutoff %" PRIu64, m, g.cutoff);
    cr_assert_eq(g.mask, mask, "m %" PRIu64 ": mask %" PRIx64, m, g.mask);
    cr_assert_eq(g.L, L, "m %" PRIu64 ": L %" PRIu64, m, g.L);
    cr_assert_eq(g.longcut, longcut, "m %" PRIu64 ": longcut %" PRIx64, m, g.longcut);
    cr_assert_eq(g.w, w, "m %" PRIu64 ": w %u", m, g.w);
    cr_assert_eq(g.qfast, qfast, "m %" PRIu64 ": qfast %u", m, g.qfast);
}

Test(api_arguments, golomb_init_fields)
{
    golomb_fields(0, 0, 0, 0, 0, 0, 0);
    golomb_fields(1, 0, 0, UINT64_MAX, 0, 0, 64);
    /* m = 3: w = 2, cutoff 1, longcut 2^63 + 2^62 */
    golomb_fields(3, 1, 3, UINT64_C(6148914691236517205), UINT64_C(0xC000000000000000), 2, 64);
    /* m = 2^63 + 1: w = 64, cutoff 2^64 - m = 2^63 - 1, L = 1 */
    golomb_fields((UINT64_C(1) << 63) + 1, (UINT64_C(1) << 63) - 1, UINT64_MAX, 1, UINT64_C(1) << 63, 64, 1);
}

Test(api_arguments, kv03_writer)
{
    rsv_kv03_writer w;
    rsv_kv03_writer_free(NULL); /* no-op */
    cr_assert_eq(rsv_kv03_writer_init_path(&w, &k_pol, NULL, 0, NULL), RSV_ERR_INVALID_ARGUMENT);
    rsv_kv03_writer_free(&w);
    cr_assert_eq(rsv_kv03_writer_set_flush_bytes(NULL, 1), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_writer_init(&w, &k_pol, NULL, 0), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_set_flush_bytes(&w, 0), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_writer_set_flush_bytes(&w, 1), RSV_ERR_STATE); /* in-memory writer */
    cr_assert_eq(rsv_kv03_writer_add_coded(NULL, NULL, 0, "a", 1, rsv_value_tombstone()), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_writer_add_coded_span(NULL, NULL, 0, "a", 1, NULL), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_writer_add_span(NULL, "a", 1, NULL), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_writer_add_span(&w, "a", 1, NULL), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_writer_finish(NULL, NULL, NULL), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_writer_add(NULL, "a", 1, rsv_value_tombstone()), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_null(rsv_kv03_writer_temp_path(NULL));
    cr_assert_null(rsv_kv03_writer_temp_path(&w)); /* in-memory writer */
    rsv_kv03_writer_stats s0;
    rsv_kv03_writer_get_stats(&w, &s0);
    cr_assert_eq(s0.code_bytes, 0); /* no record yet: no code list */
    /* code = NULL in add_coded_span: the init's C0; a span copied from a value */
    uint8_t vb[1] = {'v'};
    rsv_value_span sp = {RSV_VALUE_PRESENT, 1, rsv_view_make(vb, 0, 8), 12};
    cr_assert_eq(rsv_kv03_writer_add_coded_span(&w, NULL, 5, "a", 1, &sp), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_add_coded_span(&w, NULL, 0, "b", 1, NULL), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_writer_add_span(&w, "b", 1, &sp), RSV_OK);
    rsv_kv03_writer_stats s;
    rsv_kv03_writer_get_stats(&w, &s);
    cr_assert(s.code_bytes > 0); /* the code list exists after record 0 */
    /* a present value of length 1 without bytes poisons the writer */
    rsv_value bad = {RSV_VALUE_PRESENT, NULL, 1};
    cr_assert_eq(rsv_kv03_writer_add_coded(&w, NULL, 0, "c", 1, bad), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_writer_add(&w, "d", 1, rsv_value_tombstone()), RSV_ERR_POISONED);
    cr_assert_eq(rsv_kv03_writer_add_coded(&w, NULL, 0, "d", 1, rsv_value_tombstone()), RSV_ERR_POISONED);
    rsv_kv03_writer_free(&w);

    /* a key longer than any code stream can carry: TOO_LARGE before reading it */
    cr_assert_eq(rsv_kv03_writer_init(&w, &k_pol, NULL, 0), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_add_coded(&w, NULL, 0, "a", SIZE_MAX, rsv_value_tombstone()), RSV_ERR_TOO_LARGE);
    rsv_kv03_writer_free(&w);
#if SIZE_MAX >= UINT64_MAX
    /* the exact bound (kv03.h): key_len > (2^64 - 1 - 2 * 512) / 8 = 2^61 - 129
     * (2^64 - 1025 = 8 * (2^61 - 129) + 7). The first length refused is
     * 2^61 - 128, before the key is read or any room allocated; the accepted
     * side would allocate 2^61 bytes, so it is not called. */
    cr_assert_eq(rsv_kv03_writer_init(&w, &k_pol, NULL, 0), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_add(&w, "a", (size_t)((UINT64_C(1) << 61) - 128), rsv_value_tombstone()),
                 RSV_ERR_TOO_LARGE);
    cr_assert_eq(rsv_kv03_writer_add(&w, "a", 1, rsv_value_tombstone()), RSV_ERR_POISONED);
    rsv_kv03_writer_free(&w);
#endif

    /* after finish: STATE */
    cr_assert_eq(rsv_kv03_writer_init(&w, &k_pol, NULL, 0), RSV_OK);
    uint8_t *out;
    size_t n;
    cr_assert_eq(rsv_kv03_writer_finish(&w, &out, &n), RSV_OK);
    free(out);
    cr_assert_eq(rsv_kv03_writer_add_coded(&w, NULL, 0, "a", 1, rsv_value_tombstone()), RSV_ERR_STATE);
    cr_assert_eq(rsv_kv03_writer_add(&w, "a", 1, rsv_value_tombstone()), RSV_ERR_STATE);
    rsv_kv03_writer_free(&w);

    rsv_record r = {(const uint8_t *)"a", 1, rsv_value_tombstone(), NULL, 0};
    cr_assert_eq(rsv_kv03_encode(&k_pol, NULL, 0, NULL, 1, &out, &n), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_encode(&k_pol, NULL, 0, &r, 1, NULL, &n), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_encode(&k_pol, NULL, 0, &r, 1, &out, NULL), RSV_ERR_INVALID_ARGUMENT);
    /* the argument checks come first (kv03.h): a missing output is refused
     * before the policy (W = 0: BAD_POLICY) or the records (unsorted) are
     * looked at, and nothing is written */
    const rsv_record twice[2] = {r, r};
    rsv_kv03_policy w0 = k_pol;
    w0.W = 0;
    n = 7;
    out = (uint8_t *)&n;
    cr_assert_eq(rsv_kv03_encode(&k_pol, NULL, 0, twice, 2, NULL, &n), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_encode(&w0, NULL, 0, &r, 1, NULL, &n), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(n, 7);
    cr_assert_eq(rsv_kv03_encode(&k_pol, NULL, 0, twice, 2, &out, NULL), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_encode(&w0, NULL, 0, &r, 1, &out, NULL), RSV_ERR_INVALID_ARGUMENT);
    cr_assert(out == (uint8_t *)&n, "out untouched");
    /* the same calls with both outputs: the writer's statuses */
    cr_assert_eq(rsv_kv03_encode(&k_pol, NULL, 0, twice, 2, &out, &n), RSV_ERR_UNSORTED);
    cr_assert_eq(rsv_kv03_encode(&w0, NULL, 0, &r, 1, &out, &n), RSV_ERR_BAD_POLICY);
}

Test(api_arguments, stream_writer)
{
    rsv_stream_writer sw;
    rsv_writer out;
    rsv_writer_init(&out);
    rsv_stream_writer_free(NULL);
    cr_assert_eq(rsv_stream_writer_init(NULL, &out, NULL, 0), RSV_ERR_INVALID_ARGUMENT);
    /* stream.h: a failed init leaves the writer poisoned with its status */
    cr_assert_eq(rsv_stream_writer_init(&sw, NULL, NULL, 0), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(sw.diag.status, RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_stream_writer_add(&sw, "a", 1, rsv_value_tombstone()), RSV_ERR_POISONED);
    rsv_stream_writer_free(&sw);
    uint8_t big[65] = {0};
    cr_assert_eq(rsv_stream_writer_init(&sw, &out, big, 513), RSV_ERR_TOO_LARGE);
    cr_assert_eq(sw.diag.status, RSV_ERR_TOO_LARGE);
    cr_assert_eq(rsv_stream_writer_add(&sw, "a", 1, rsv_value_tombstone()), RSV_ERR_POISONED);
    cr_assert_eq(rsv_writer_bits(&out), 0);
    rsv_stream_writer_free(&sw);
    cr_assert_eq(rsv_stream_writer_add(NULL, "a", 1, rsv_value_tombstone()), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_stream_writer_add_coded(NULL, NULL, 0, "a", 1, rsv_value_tombstone()), RSV_ERR_INVALID_ARGUMENT);

    cr_assert_eq(rsv_stream_writer_init(&sw, &out, NULL, 0), RSV_OK);
    cr_assert_eq(rsv_stream_writer_add(&sw, NULL, 1, rsv_value_tombstone()), RSV_ERR_INVALID_ARGUMENT);
    rsv_stream_writer_free(&sw);
    cr_assert_eq(rsv_stream_writer_init(&sw, &out, NULL, 0), RSV_OK);
    rsv_value bad = {RSV_VALUE_PRESENT, NULL, 1};
    cr_assert_eq(rsv_stream_writer_add(&sw, "a", 1, bad), RSV_ERR_INVALID_ARGUMENT);
    rsv_stream_writer_free(&sw);
    /* code = NULL in add_coded: the init's C0 (`0`): `1 1 0 EG0(0) EG0(8) a 0`
     * = selector backspace EG0(0) `1`, code `0`, key EG0(0) `1`, EG0(8)
     * `0001001`, 0x61, tombstone `0` */
    rsv_writer_reset(&out);
    cr_assert_eq(rsv_stream_writer_init(&sw, &out, NULL, 0), RSV_OK);
    cr_assert_eq(rsv_stream_writer_add_coded(&sw, NULL, 99, "a", 1, rsv_value_tombstone()), RSV_OK);
    rsv_writer ref;
    rsv_stream_writer sr;
    rsv_writer_init(&ref);
    cr_assert_eq(rsv_stream_writer_init(&sr, &ref, k_c0, 1), RSV_OK);
    cr_assert_eq(rsv_stream_writer_add(&sr, "a", 1, rsv_value_tombstone()), RSV_OK);
    cr_assert_eq(rsv_stream_writer_extent(&sw), rsv_stream_writer_extent(&sr));
    rsv_stream_writer_free(&sr);
    rsv_writer_free(&ref);
    rsv_stream_writer_free(&sw);
    /* a full fixed output buffer: the add fails and poisons */
    uint8_t one[1];
    rsv_writer fx;
    rsv_writer_init_fixed(&fx, one, sizeof one);
    cr_assert_eq(rsv_stream_writer_init(&sw, &fx, NULL, 0), RSV_OK);
    cr_assert_eq(rsv_stream_writer_add(&sw, "abc", 3, rsv_value_present("xyz", 3)), RSV_ERR_TOO_LARGE);
    cr_assert_eq(rsv_stream_writer_add(&sw, "b", 1, rsv_value_tombstone()), RSV_ERR_POISONED);
    rsv_stream_writer_free(&sw);
    rsv_writer_free(&out);
}

Test(api_arguments, values_keys_writer)
{
    uint64_t wd;
    cr_assert_eq(rsv_value_width(RSV_VALUE_PRESENT, UINT64_MAX, &wd), RSV_ERR_TOO_LARGE);
    rsv_writer w;
    rsv_writer_init(&w);
    rsv_value odd = {(rsv_value_kind)7, NULL, 0};
    cr_assert_eq(rsv_put_value(&w, odd), RSV_ERR_INVALID_ARGUMENT);
    rsv_value nodata = {RSV_VALUE_PRESENT, NULL, 1};
    cr_assert_eq(rsv_put_value(&w, nodata), RSV_ERR_INVALID_ARGUMENT);
    uint8_t vb[2] = {'v', 'w'};
    rsv_value_span odd_span = {(rsv_value_kind)7, 0, rsv_view_make(vb, 0, 0), 1};
    cr_assert_eq(rsv_put_value_span(&w, &odd_span), RSV_ERR_INVALID_ARGUMENT);
    rsv_value_span short_bytes = {RSV_VALUE_PRESENT, 2, rsv_view_make(vb, 0, 8), 20};
    cr_assert_eq(rsv_put_value_span(&w, &short_bytes), RSV_ERR_INVALID_ARGUMENT);
    rsv_value_span huge = {RSV_VALUE_PRESENT, UINT64_MAX / 4, rsv_view_make(vb, 0, 8), 20};
    cr_assert_eq(rsv_put_value_span(&w, &huge), RSV_ERR_INVALID_ARGUMENT);
    /* the boundary of "8·len fits u64" (record.h): len = 2^61 makes 8·len wrap
     * to 0, so a 0-bit view must not pass as its bytes; len = 2^61 − 1 with
     * its 2^64 − 8 bits is a consistent span whose width (1 + |EG0| + 8·len)
     * does not fit: TOO_LARGE, before any bit of the view is read */
    rsv_value_span wraps = {RSV_VALUE_PRESENT, UINT64_MAX / 8 + 1, rsv_view_make(vb, 0, 0), 20};
    cr_assert_eq(rsv_put_value_span(&w, &wraps), RSV_ERR_INVALID_ARGUMENT);
    rsv_value_span widest = {RSV_VALUE_PRESENT, UINT64_MAX / 8, rsv_view_make(vb, 0, 8 * (UINT64_MAX / 8)), 20};
    cr_assert_eq(rsv_put_value_span(&w, &widest), RSV_ERR_TOO_LARGE);
    cr_assert_eq(rsv_writer_bits(&w), 0); /* nothing appended by the failures */

    /* span copy of a present-empty value writes nothing */
    uint8_t dst[1] = {0xAB};
    rsv_value_span empty = {RSV_VALUE_PRESENT, 0, rsv_view_make(vb, 0, 0), 2};
    rsv_value_span_copy(&empty, dst);
    cr_assert_eq(dst[0], 0xAB);

    cr_assert_eq(rsv_put_key_fc(&w, NULL, 1, (const uint8_t *)"a", 1), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_put_key_fc(&w, (const uint8_t *)"a", 1, NULL, 1), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_put_key_fc(&w, (const uint8_t *)"a", SIZE_MAX, (const uint8_t *)"a", 1), RSV_ERR_TOO_LARGE);
    cr_assert_eq(rsv_put_key_fc(&w, (const uint8_t *)"a", 1, (const uint8_t *)"a", SIZE_MAX), RSV_ERR_TOO_LARGE);
    cr_assert_eq(rsv_put_key_kv03(&w, NULL, 1, 0), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_put_key_kv03(&w, (const uint8_t *)"a", SIZE_MAX, 0), RSV_ERR_TOO_LARGE);
    cr_assert_eq(rsv_put_key_kv03(&w, (const uint8_t *)"a", 1, 9), RSV_ERR_INVALID_ARGUMENT); /* local > 8|K| */
    cr_assert_eq(rsv_writer_bits(&w), 0);
    /* §2: EG0(S = 8 − 0) ‖ literal: `0001001` then 0x61 */
    cr_assert_eq(rsv_put_key_kv03(&w, (const uint8_t *)"a", 1, 0), RSV_OK);
    cr_assert_eq(rsv_writer_bits(&w), 15);

    cr_assert_eq(rsv_put_golomb(&w, 1, NULL), RSV_ERR_BAD_MODULUS);
    cr_assert_eq(rsv_put_bytes(&w, NULL, 1), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_put_bytes(&w, vb, SIZE_MAX), RSV_ERR_TOO_LARGE);
#if SIZE_MAX > UINT32_MAX
    /* the first n refused by the length limit (writer.h: TOO_LARGE beyond
     * RSV_WRITER_MAX_BITS = 2^64 - 8): 8n = 2^64 bits; n - 1 would be the
     * limit itself. Refused before anything is read from vb (2 bytes). */
    cr_assert_eq(rsv_put_bytes(&w, vb, (size_t)1 << 61), RSV_ERR_TOO_LARGE);
#endif
    cr_assert_eq(rsv_writer_bits(&w), 15);
    uint8_t *out;
    size_t n;
    cr_assert_eq(rsv_writer_finish(&w, NULL, &n), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_writer_finish(&w, &out, NULL), RSV_ERR_INVALID_ARGUMENT);
    rsv_writer_free(&w);

    /* an owned writer that never wrote: a valid, freeable, empty buffer */
    rsv_writer_init(&w);
    cr_assert_eq(rsv_writer_finish(&w, &out, &n), RSV_OK);
    cr_assert_not_null(out);
    cr_assert_eq(n, 0);
    free(out);
    rsv_writer_free(&w);

    /* fixed buffers: NULL buffer = capacity 0; the end is TOO_LARGE */
    rsv_writer fx;
    rsv_writer_init_fixed(&fx, NULL, 5);
    cr_assert_eq(rsv_put(&fx, 1, 1), RSV_ERR_TOO_LARGE);
    uint8_t one[1];
    rsv_writer_init_fixed(&fx, one, 1);
    cr_assert_eq(rsv_put_value(&fx, rsv_value_present("xy", 2)), RSV_ERR_TOO_LARGE);
    cr_assert_eq(rsv_put_value_span(&fx, &short_bytes), RSV_ERR_INVALID_ARGUMENT);
    rsv_value_span two = {RSV_VALUE_PRESENT, 2, rsv_view_make(vb, 0, 16), 20};
    cr_assert_eq(rsv_put_value_span(&fx, &two), RSV_ERR_TOO_LARGE);
    cr_assert_eq(rsv_put_key_kv03(&fx, (const uint8_t *)"abc", 3, 0), RSV_ERR_TOO_LARGE);
    cr_assert_eq(rsv_writer_bits(&fx), 0); /* atomic */
}

Test(api_arguments, file_dictionary_seek)
{
    size_t n;
    uint8_t *bytes = two_code_file(&n);
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(bytes, n, &k_pol, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_code_count(&f), 2);
    cr_assert_eq(rsv_kv03_code_count(NULL), 0);
    cr_assert_eq(rsv_kv03_dictionary_check(NULL), RSV_ERR_INVALID_ARGUMENT);
    rsv_view v;
    uint64_t j, first, last;
    cr_assert_eq(rsv_kv03_code(NULL, 0, &v), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_code(&f, 0, NULL), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_code(&f, 2, &v), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_code(&f, 1, &v), RSV_OK);
    cr_assert_eq(v.len, 2);
    cr_assert_eq(rsv_kv03_seed(NULL, 0, &j), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_seed(&f, 0, NULL), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_seed(&f, 2, &j), RSV_ERR_INVALID_ARGUMENT); /* N = 3, W = 2: nb = 2 */
    cr_assert_eq(rsv_kv03_seed(&f, 1, &j), RSV_OK);
    cr_assert_eq(j, 1); /* W = 2: block 1 starts with record 2, code `10` = dictionary index 1 */
    cr_assert_eq(rsv_kv03_first_block_of_code(NULL, 0, &first, &last), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_first_block_of_code(&f, 0, NULL, &last), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_first_block_of_code(&f, 0, &first, NULL), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_first_block_of_code(&f, 2, &first, &last), RSV_ERR_INVALID_ARGUMENT);

    cr_assert_eq(rsv_kv03_frames_seek_code(NULL, 0), RSV_ERR_INVALID_ARGUMENT);
    rsv_kv03_frames fw;
    memset(&fw, 0, sizeof fw);
    cr_assert_eq(rsv_kv03_frames_seek_code(&fw, 0), RSV_ERR_INVALID_ARGUMENT); /* no file */
    cr_assert_eq(rsv_kv03_frames_init(NULL, &f), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_frames_init(&fw, NULL), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_frames_init(&fw, &f), RSV_OK);
    rsv_kv03_frame fr;
    int fmore = 7;
    cr_assert_eq(rsv_kv03_frames_next(NULL, &fr, &fmore), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_frames_next(&fw, NULL, &fmore), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_frames_next(&fw, &fr, NULL), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(fmore, 7, "nothing written on an argument error");
    cr_assert_eq(rsv_kv03_frames_seek_code(&fw, 2), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_cursor_seek_code(NULL, 0), RSV_ERR_INVALID_ARGUMENT);
    rsv_kv03_cursor c;
    memset(&c, 0, sizeof c);
    cr_assert_eq(rsv_kv03_cursor_seek_code(&c, 0), RSV_ERR_INVALID_ARGUMENT); /* no file */
    cr_assert_eq(rsv_kv03_cursor_init(NULL, &f), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_cursor_init(&c, NULL), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_cursor_seek_code(&c, 2), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_cursor_reset(NULL, &f), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_cursor_reset(&c, NULL), RSV_ERR_INVALID_ARGUMENT);
    rsv_kv03_entry e;
    int more;
    cr_assert_eq(rsv_kv03_cursor_next(NULL, &e, &more), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_cursor_next(&c, NULL, &more), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_cursor_next(&c, &e, NULL), RSV_ERR_INVALID_ARGUMENT);
    /* seek to code 1 (`10`): the next record is its first, key "a", present-empty */
    cr_assert_eq(rsv_kv03_cursor_seek_code(&c, 1), RSV_OK);
    cr_assert_eq(rsv_kv03_cursor_record(&c, &e, &more), RSV_OK);
    cr_assert(more);
    cr_assert(e.key_len == 1 && e.key[0] == 'a');
    cr_assert(e.value.kind == RSV_VALUE_PRESENT && e.value.len == 0);
    rsv_kv03_cursor_free(&c);
    rsv_kv03_cursor_free(NULL);
    rsv_kv03_close(&f);
    free(bytes);
}

Test(api_arguments, empty_file_seek)
{
    rsv_kv03_writer w;
    uint8_t *bytes;
    size_t n;
    cr_assert_eq(rsv_kv03_writer_init(&w, &k_pol, NULL, 0), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_finish(&w, &bytes, &n), RSV_OK);
    rsv_kv03_writer_free(&w);
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(bytes, n, &k_pol, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_code_count(&f), 0); /* §6: m = 0 for N = 0 */
    rsv_kv03_cursor c;
    cr_assert_eq(rsv_kv03_cursor_init(&c, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_cursor_seek_code(&c, 0), RSV_OK); /* j < max(m, 1) */
    rsv_kv03_entry e;
    int more = 1;
    cr_assert_eq(rsv_kv03_cursor_next(&c, &e, &more), RSV_OK);
    cr_assert_eq(more, 0);
    rsv_kv03_cursor_free(&c);
    rsv_kv03_close(&f);
    free(bytes);
}

/* merge.h: an init failure has record 0 and bit 0; an argument error is not
 * an input's (failed_input = n); the merge is poisoned. Frees m. */
static void expect_argument_failure(rsv_merge *m, size_t n)
{
    rsv_kv03_diag dg = rsv_merge_diag(m);
    cr_assert_eq(dg.status, RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(dg.record, 0, "record %llu", (unsigned long long)dg.record);
    cr_assert_eq(dg.bit, 0, "bit %llu", (unsigned long long)dg.bit);
    cr_assert_eq(rsv_merge_failed_input(m), n);
    int done;
    cr_assert_eq(rsv_merge_step(m, &done), RSV_ERR_POISONED);
    rsv_merge_free(m);
}

Test(api_arguments, merge)
{
    size_t n;
    uint8_t *bytes = two_code_file(&n);
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(bytes, n, &k_pol, &f), RSV_OK);
    const rsv_kv03_file *in[2] = {&f, &f}, *in_null[2] = {&f, NULL}, *null_in[2] = {NULL, &f};
    rsv_merge m;
    rsv_merge_free(NULL);
    cr_assert_eq(rsv_merge_init(NULL, in, 2, 0), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_merge_init(&m, NULL, 2, 0), RSV_ERR_INVALID_ARGUMENT);
    expect_argument_failure(&m, 2);
    cr_assert_eq(rsv_merge_init(&m, in, 1, 0), RSV_ERR_INVALID_ARGUMENT); /* §11.2: at least two */
    expect_argument_failure(&m, 1);
    cr_assert_eq(rsv_merge_init(&m, in, 2, 0x80), RSV_ERR_INVALID_ARGUMENT);
    expect_argument_failure(&m, 2);
    cr_assert_eq(rsv_merge_init(&m, in_null, 2, 0), RSV_ERR_INVALID_ARGUMENT);
    expect_argument_failure(&m, 2);
    cr_assert_eq(rsv_merge_init(&m, null_in, 2, 0), RSV_ERR_INVALID_ARGUMENT); /* the first input too */
    expect_argument_failure(&m, 2);
    cr_assert_eq(rsv_merge_init_path(&m, in, 2, 0, NULL), RSV_ERR_INVALID_ARGUMENT);
    expect_argument_failure(&m, 2);

    cr_assert_eq(rsv_merge_init(&m, in, 2, 0), RSV_OK);
    int done;
    uint8_t *out;
    size_t len;
    cr_assert_eq(rsv_merge_step(NULL, &done), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_merge_step(&m, NULL), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_merge_finish_path(NULL, "x"), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_merge_finish_path(&m, NULL), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_merge_finish_path(&m, "/nonexistent/never"), RSV_ERR_STATE); /* not done */
    cr_assert_eq(rsv_merge_commit(NULL), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_merge_run(&m), RSV_OK);
    cr_assert_eq(rsv_merge_commit(&m), RSV_ERR_STATE); /* an in-memory merge */
    cr_assert_eq(rsv_merge_finish(NULL, &out, &len), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_merge_finish(&m, NULL, &len), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_merge_finish(&m, &out, NULL), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_merge_finish(&m, &out, &len), RSV_OK);
    /* merging a file with itself gives the file (newest wins, same records) */
    cr_assert(len == n && memcmp(out, bytes, n) == 0);
    free(out);
    cr_assert_eq(rsv_merge_finish_path(&m, "/nonexistent/never"), RSV_ERR_STATE); /* finished */
    rsv_merge_free(&m);
    rsv_merge_free(&m); /* merge.h: freeing again is a no-op (ASan sees a double free) */
    cr_assert_eq(rsv_merge_init(&m, in, 2, 0), RSV_OK, "a freed merge initializes again");
    cr_assert_eq(rsv_merge_run(&m), RSV_OK);
    cr_assert_eq(rsv_merge_finish(&m, &out, &len), RSV_OK);
    cr_assert(len == n && memcmp(out, bytes, n) == 0);
    free(out);
    rsv_merge_free(&m);
    rsv_kv03_close(&f);
    free(bytes);
}

Test(api_arguments, stream_reader)
{
    rsv_stream_reader sr;
    uint8_t b[1] = {0};
    rsv_view sv = rsv_view_make(b, 0, 0);
    rsv_stream_reader_free(NULL);
    cr_assert_eq(rsv_stream_reader_init(NULL, sv, NULL, 0), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_stream_reader_reset(NULL, sv, NULL, 0), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_stream_reader_init_set(NULL, sv, NULL), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_stream_reader_reset_set(NULL, sv, NULL), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_stream_reader_init_set(&sr, sv, NULL), RSV_ERR_INVALID_ARGUMENT);
    rsv_stream_reader_free(&sr);
    rsv_code_set no_ends = {b, NULL, 2};
    cr_assert_eq(rsv_stream_reader_init_set(&sr, sv, &no_ends), RSV_ERR_INVALID_ARGUMENT);
    rsv_stream_reader_free(&sr);
    static const uint64_t down[2] = {2, 1};
    rsv_code_set decreasing = {b, down, 2};
    cr_assert_eq(rsv_stream_reader_init_set(&sr, sv, &decreasing), RSV_ERR_INVALID_ARGUMENT);
    rsv_stream_reader_free(&sr);
    static const uint64_t one[1] = {1};
    rsv_code_set no_bits = {NULL, one, 1};
    cr_assert_eq(rsv_stream_reader_init_set(&sr, sv, &no_bits), RSV_ERR_INVALID_ARGUMENT);
    rsv_stream_record rec;
    int more;
    cr_assert_eq(rsv_stream_reader_next(&sr, &rec, &more), RSV_ERR_POISONED); /* a failed init poisons */
    rsv_stream_reader_free(&sr);
    /* m = 0: an empty code set reads the empty stream (no record) */
    rsv_code_set none = {NULL, NULL, 0};
    cr_assert_eq(rsv_stream_reader_init_set(&sr, sv, &none), RSV_OK);
    cr_assert_eq(rsv_stream_reader_next(NULL, &rec, &more), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_stream_reader_next(&sr, NULL, &more), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_stream_reader_next(&sr, &rec, NULL), RSV_ERR_INVALID_ARGUMENT);
    more = 1;
    cr_assert_eq(rsv_stream_reader_next(&sr, &rec, &more), RSV_OK);
    cr_assert_eq(more, 0);
    rsv_stream_reader_free(&sr);
}

/* Paths: a relative path without a directory part (the temporary file and
 * the directory fsync use "."), an empty file (§9.1 step 1: fewer than 96
 * bytes → RSV_ERR_TRUNCATED_HEADER, whether mapped or copied). */
/* kv03.h, rsv_kv03_writer_free: the freed writer holds nothing — the stats'
 * buffer_capacity, offset_bytes and code_bytes are 0, streaming 0, no
 * temporary (its file unlinked) — and freeing it again is a no-op. The
 * writers first hold some of each (checked, so the zeros are a change). */
static void assert_holds_nothing(const rsv_kv03_writer *w, const char *when)
{
    rsv_kv03_writer_stats s;
    rsv_kv03_writer_get_stats(w, &s);
    cr_assert_eq(s.buffer_capacity, 0, "%s: buffer_capacity %llu", when, (unsigned long long)s.buffer_capacity);
    cr_assert_eq(s.offset_bytes, 0, "%s: offset_bytes %llu", when, (unsigned long long)s.offset_bytes);
    cr_assert_eq(s.code_bytes, 0, "%s: code_bytes %llu", when, (unsigned long long)s.code_bytes);
    cr_assert_eq(s.streaming, 0, "%s: streaming %d", when, s.streaming);
    cr_assert_null(rsv_kv03_writer_temp_path(w), "%s: a temporary is still named", when);
}

Test(api_arguments, freed_writer_holds_nothing)
{
    /* in memory: W = 2, three records with two codes (two blocks, a code list) */
    rsv_kv03_writer w;
    cr_assert_eq(rsv_kv03_writer_init(&w, &k_pol, NULL, 0), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_add_coded(&w, k_c0, 1, "a", 1, rsv_value_tombstone()), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_add_coded(&w, k_c0, 1, "b", 1, rsv_value_present("x", 1)), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_add_coded(&w, k_c1, 2, "a", 1, rsv_value_tombstone()), RSV_OK);
    rsv_kv03_writer_stats s;
    rsv_kv03_writer_get_stats(&w, &s);
    cr_assert(s.buffer_capacity > 0 && s.offset_bytes > 0 && s.code_bytes > 0 && !s.streaming);
    rsv_kv03_writer_free(&w);
    assert_holds_nothing(&w, "in-memory writer freed");
    rsv_kv03_writer_free(&w);
    assert_holds_nothing(&w, "in-memory writer freed twice");

    /* a path writer freed without a commit */
    char dir[] = "/tmp/rsv_api_free_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/out.kv03", dir);
    cr_assert_eq(rsv_kv03_writer_init_path(&w, &k_pol, NULL, 0, path), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_add(&w, "a", 1, rsv_value_present("x", 1)), RSV_OK);
    cr_assert_not_null(rsv_kv03_writer_temp_path(&w));
    char tmp[128];
    snprintf(tmp, sizeof tmp, "%s", rsv_kv03_writer_temp_path(&w));
    struct stat sb;
    cr_assert_eq(stat(tmp, &sb), 0);
    rsv_kv03_writer_get_stats(&w, &s);
    cr_assert(s.buffer_capacity > 0 && s.offset_bytes > 0 && s.code_bytes > 0 && s.streaming);
    rsv_kv03_writer_free(&w);
    assert_holds_nothing(&w, "path writer freed");
    cr_assert_neq(stat(tmp, &sb), 0, "the temporary %s is left", tmp);
    rsv_kv03_writer_free(&w);
    assert_holds_nothing(&w, "path writer freed twice");
    cr_assert_eq(rmdir(dir), 0); /* nothing (temporary or output) left behind */
}

/* kv03.h: rsv_kv03_code and rsv_kv03_first_block_of_code take j < max(m, 1)
 * and return RSV_ERR_INVALID_ARGUMENT from j = max(m, 1) on. For the empty
 * file (m = 0) and a one-code file (m = 1) that bound is 1: j = 0 is C0
 * ([0, 0] for N = 0; block 0 for the one-code file, whose every seed is 0),
 * j = 1 is out of range. Kills kv03_seek_c.const.516b4534 (a bound of 2 when
 * m <= 1). */
Test(api_arguments, code_index_bound_of_empty_and_one_code_files)
{
    static const rsv_record one[3] = {
        {(const uint8_t *)"a", 1, {RSV_VALUE_TOMBSTONE, NULL, 0}, NULL, 0},
        {(const uint8_t *)"b", 1, {RSV_VALUE_TOMBSTONE, NULL, 0}, NULL, 0},
        {(const uint8_t *)"c", 1, {RSV_VALUE_TOMBSTONE, NULL, 0}, NULL, 0},
    };
    for (size_t n = 0; n <= 3; n += 3) {
        uint8_t *bytes;
        size_t nb;
        cr_assert_eq(rsv_kv03_encode(&k_pol, NULL, 0, one, n, &bytes, &nb), RSV_OK);
        rsv_kv03_file f;
        cr_assert_eq(rsv_kv03_open(bytes, nb, &k_pol, &f), RSV_OK);
        cr_assert_eq(rsv_kv03_code_count(&f), n ? 1u : 0u);
        uint64_t first = 99, last = 99;
        cr_assert_eq(rsv_kv03_first_block_of_code(&f, 0, &first, &last), RSV_OK, "N = %zu", n);
        cr_assert(first == 0 && last == 0, "N = %zu: [%llu, %llu]", n, (unsigned long long)first,
                  (unsigned long long)last);
        rsv_status st = rsv_kv03_first_block_of_code(&f, 1, &first, &last);
        cr_assert_eq(st, RSV_ERR_INVALID_ARGUMENT, "N = %zu, j = 1: %s", n, rsv_status_name(st));
        rsv_view v;
        cr_assert_eq(rsv_kv03_code(&f, 0, &v), RSV_OK, "N = %zu", n);
        cr_assert_eq(rsv_kv03_code(&f, 1, &v), RSV_ERR_INVALID_ARGUMENT, "N = %zu", n);
        rsv_kv03_close(&f);
        free(bytes);
    }
}

/* kv03.h, rsv_kv03_writer_finish: after a successful finish the data buffer
 * is the caller's file, so the stats report buffered_bytes and
 * buffer_capacity 0; before it both were non-zero (288 header-room bytes
 * plus the stream). The same for finish_unsealed, the other in-memory
 * finish. Kills kv03_envelope_c.sdl.c53f58fd: a writer that keeps its
 * header-room offset after handing the buffer out reports 0 - 288 bytes. */
Test(api_arguments, finished_writer_holds_no_buffer)
{
    for (int sealed = 0; sealed < 2; sealed++) {
        rsv_kv03_writer w;
        cr_assert_eq(rsv_kv03_writer_init(&w, &k_pol, NULL, 0), RSV_OK);
        cr_assert_eq(rsv_kv03_writer_add(&w, "a", 1, rsv_value_present("xyz", 3)), RSV_OK);
        rsv_kv03_writer_stats s;
        rsv_kv03_writer_get_stats(&w, &s);
        cr_assert(s.buffered_bytes > 0 && s.buffer_capacity > 0);
        uint8_t *file;
        size_t n;
        cr_assert_eq(sealed ? rsv_kv03_writer_finish(&w, &file, &n) : rsv_kv03_writer_finish_unsealed(&w, &file, &n),
                     RSV_OK);
        rsv_kv03_writer_get_stats(&w, &s);
        cr_assert_eq(s.buffered_bytes, 0, "sealed %d: buffered_bytes %llu after finish", sealed,
                     (unsigned long long)s.buffered_bytes);
        cr_assert_eq(s.buffer_capacity, 0, "sealed %d: buffer_capacity %llu after finish", sealed,
                     (unsigned long long)s.buffer_capacity);
        free(file);
        rsv_kv03_writer_free(&w);
    }
}

/* kv03.h, rsv_kv03_writer_stats: code_bytes is 0 before the first record
 * and 72 + 16 + 8 = 96 while one code is used, whatever its length: the
 * default C0 `0`, `10` given to every add_coded, a 512-bit C0. */
Test(api_arguments, code_bytes_of_one_code)
{
    static const uint8_t long_code[64] = {0x5A, 0xA5}; /* 512 bits, the longest code */
    rsv_kv03_writer w;
    rsv_kv03_writer_stats s;
    for (int k = 0; k < 3; k++) {
        cr_assert_eq(rsv_kv03_writer_init(&w, &k_pol, k == 2 ? long_code : NULL, k == 2 ? 512 : 0), RSV_OK);
        rsv_kv03_writer_get_stats(&w, &s);
        cr_assert_eq(s.code_bytes, 0, "case %d before record 0", k);
        for (int i = 0; i < 5; i++) {
            char key = (char)('a' + i);
            rsv_status st = k == 1 ? rsv_kv03_writer_add_coded(&w, k_c1, 2, &key, 1, rsv_value_tombstone())
                                   : rsv_kv03_writer_add(&w, &key, 1, rsv_value_present("x", 1));
            cr_assert_eq(st, RSV_OK);
            rsv_kv03_writer_get_stats(&w, &s);
            cr_assert_eq(s.code_bytes, 96, "case %d after record %d: code_bytes %llu", k, i,
                         (unsigned long long)s.code_bytes);
        }
        rsv_kv03_writer_free(&w);
    }
}

Test(api_arguments, paths)
{
    char dir[] = "/tmp/rsv_api_args_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    cr_assert_eq(chdir(dir), 0); /* Criterion runs each test in its own process */
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open_path_copy(NULL, NULL, &f), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_open_path_copy("x", NULL, NULL), RSV_ERR_INVALID_ARGUMENT);

    rsv_kv03_writer w;
    cr_assert_eq(rsv_kv03_writer_init(&w, &k_pol, NULL, 0), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_add(&w, "a", 1, rsv_value_present("x", 1)), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_finish_path(&w, "rel.kv03"), RSV_OK);
    rsv_kv03_writer_free(&w);
    cr_assert_eq(rsv_kv03_open_path_copy("rel.kv03", &k_pol, &f), RSV_OK);
    struct stat sb;
    cr_assert_eq(stat("rel.kv03", &sb), 0);
    cr_assert_not_null(f.map); /* the copy, released by rsv_kv03_close */
    cr_assert_eq(f.map_len, (size_t)sb.st_size, "map_len %zu, the file has %lld bytes", f.map_len,
                 (long long)sb.st_size);
    cr_assert_eq(rsv_kv03_scan(&f, NULL), RSV_OK);
    rsv_kv03_close(&f);
    /* a closed file (kv03.h): no mapping, length 0; closing it again is a no-op */
    cr_assert_null(f.map);
    cr_assert_eq(f.map_len, 0, "map_len %zu after close", f.map_len);
    rsv_kv03_close(&f);
    rsv_kv03_close(NULL);

    FILE *e = fopen("empty.kv03", "wb");
    cr_assert_not_null(e);
    fclose(e);
    cr_assert_eq(rsv_kv03_open_path("empty.kv03", NULL, &f), RSV_ERR_TRUNCATED_HEADER);
    cr_assert_eq(rsv_kv03_open_path_copy("empty.kv03", NULL, &f), RSV_ERR_TRUNCATED_HEADER);
    unlink("rel.kv03");
    unlink("empty.kv03");
    cr_assert_eq(chdir("/"), 0);
    cr_assert_eq(rmdir(dir), 0); /* nothing else (no temporary) was left behind */
}

Test(api_arguments, open_scan_finish)
{
    rsv_kv03_file f;
    uint8_t *out;
    size_t n;
    uint64_t bit;
    cr_assert_eq(rsv_kv03_open(NULL, 1, NULL, &f), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_open(k_c0, 1, NULL, NULL), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_open(NULL, 0, NULL, &f), RSV_ERR_TRUNCATED_HEADER); /* 0 bytes: §9.1 step 1 */
    cr_assert_eq(rsv_kv03_open_path(NULL, NULL, &f), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_open_path("x", NULL, NULL), RSV_ERR_INVALID_ARGUMENT);
    rsv_kv03_close(NULL);

    rsv_kv03_writer w;
    cr_assert_eq(rsv_kv03_writer_init(&w, &k_pol, NULL, 0), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_finish(&w, NULL, &n), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_writer_finish(&w, &out, NULL), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_writer_finish_path(NULL, "x"), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_writer_finish_path(&w, NULL), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_writer_commit(NULL), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_writer_finish(&w, &out, &n), RSV_OK);
    rsv_kv03_writer_free(&w);

    /* a zero-filled writer was never initialized: a state error, not a file */
    rsv_kv03_writer z;
    memset(&z, 0, sizeof z);
    uint8_t *zout = NULL;
    size_t zn = 0;
    cr_assert_eq(rsv_kv03_writer_finish(&z, &zout, &zn), RSV_ERR_STATE);
    cr_assert_eq(rsv_kv03_writer_finish_unsealed(&z, &zout, &zn), RSV_ERR_STATE);
    cr_assert_null(zout);

    cr_assert_eq(rsv_kv03_open(out, n, &k_pol, &f), RSV_OK);
    cr_assert_eq(rsv_kv03_block_offset(NULL, 0, &bit), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_block_offset(&f, 0, NULL), RSV_ERR_INVALID_ARGUMENT);
    rsv_kv03_scanner sc;
    rsv_kv03_scanner_init(&sc);
    cr_assert_eq(rsv_kv03_scanner_scan(NULL, &f, NULL), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_scanner_scan(&sc, NULL, NULL), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_kv03_scanner_scan(&sc, &f, NULL), RSV_OK);
    rsv_kv03_scanner_free(&sc);
    rsv_kv03_scanner_free(NULL);
    rsv_kv03_close(&f);
    free(out);
}

/* Output paths: a directory that does not exist is RSV_ERR_IO (kv03.h: the
 * file cannot be created) and poisons a merge; a path merge publishes only at
 * the init path (merge.h: another path is RSV_ERR_INVALID_ARGUMENT). */
Test(api_arguments, output_paths)
{
    char dir[] = "/tmp/rsv_api_out_XXXXXX", p1[64], p2[64], bad[64];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(p1, sizeof p1, "%s/out.kv03", dir);
    snprintf(p2, sizeof p2, "%s/other.kv03", dir);
    snprintf(bad, sizeof bad, "%s/missing/x.kv03", dir);
    size_t n;
    uint8_t *bytes = two_code_file(&n);
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(bytes, n, &k_pol, &f), RSV_OK);
    const rsv_kv03_file *in[2] = {&f, &f};

    rsv_kv03_writer w;
    cr_assert_eq(rsv_kv03_writer_init(&w, &k_pol, NULL, 0), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_finish_path(&w, bad), RSV_ERR_IO);
    rsv_kv03_writer_free(&w);
    cr_assert_eq(rsv_kv03_writer_init_path(&w, &k_pol, NULL, 0, bad), RSV_ERR_IO);
    rsv_kv03_writer_free(&w);

    rsv_merge m;
    uint8_t *out;
    size_t len;
    cr_assert_eq(rsv_merge_init(&m, in, 2, 0), RSV_OK);
    cr_assert_eq(rsv_merge_run(&m), RSV_OK);
    cr_assert_eq(rsv_merge_finish_path(&m, bad), RSV_ERR_IO);
    /* an output failure (merge.h): not an input's (failed_input = n), the
     * output's record count, bit 0 */
    rsv_kv03_diag dg = rsv_merge_diag(&m);
    cr_assert_eq(dg.status, RSV_ERR_IO);
    cr_assert_eq(dg.bit, 0, "bit %llu", (unsigned long long)dg.bit);
    cr_assert_eq(dg.record, f.N, "record %llu, the output has %llu", (unsigned long long)dg.record,
                 (unsigned long long)f.N);
    cr_assert_eq(rsv_merge_failed_input(&m), 2);
    cr_assert_eq(rsv_merge_finish(&m, &out, &len), RSV_ERR_POISONED);
    rsv_merge_free(&m);

    cr_assert_eq(rsv_merge_init_path(&m, in, 2, 0, p1), RSV_OK);
    cr_assert_eq(rsv_merge_commit(&m), RSV_ERR_STATE); /* not done */
    cr_assert_eq(rsv_merge_run(&m), RSV_OK);
    cr_assert_eq(rsv_merge_finish_path(&m, p2), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_merge_finish(&m, &out, &len), RSV_ERR_STATE); /* a path merge */
    cr_assert_eq(rsv_merge_commit(&m), RSV_OK);
    cr_assert_eq(rsv_merge_commit(&m), RSV_ERR_STATE); /* after a commit */
    int cdone = -1; /* a committed merge takes no step either, and the misuses do not poison it */
    cr_assert_eq(rsv_merge_step(&m, &cdone), RSV_ERR_STATE);
    cr_assert_eq(cdone, 0);
    cr_assert_eq(rsv_merge_diag(&m).status, RSV_OK);
    rsv_merge_free(&m);
    rsv_kv03_file g;
    cr_assert_eq(rsv_kv03_open_path_copy(p1, &k_pol, &g), RSV_OK);
    cr_assert(g.size == n && memcmp(g.bytes, bytes, n) == 0); /* a file merged with itself */
    rsv_kv03_close(&g);
    cr_assert_eq(access(p2, F_OK), -1);

    /* an in-memory merge published with finish_path: a second finish is
     * RSV_ERR_STATE (merge.h), a misuse that does not poison the merge */
    cr_assert_eq(rsv_merge_init(&m, in, 2, 0), RSV_OK);
    cr_assert_eq(rsv_merge_run(&m), RSV_OK);
    cr_assert_eq(rsv_merge_finish_path(&m, p2), RSV_OK);
    cr_assert_eq(rsv_merge_finish_path(&m, p2), RSV_ERR_STATE);
    cr_assert_eq(rsv_merge_diag(&m).status, RSV_OK);
    cr_assert_eq(rsv_merge_finish(&m, &out, &len), RSV_ERR_STATE);
    rsv_merge_free(&m);
    cr_assert_eq(rsv_kv03_open_path_copy(p2, &k_pol, &g), RSV_OK);
    cr_assert(g.size == n && memcmp(g.bytes, bytes, n) == 0);
    rsv_kv03_close(&g);
    unlink(p2);
    unlink(p1);
    cr_assert_eq(rmdir(dir), 0); /* no temporary left behind */
    rsv_kv03_close(&f);
    free(bytes);
}

/* reader.h: a batch of count = 0 decodes and loads nothing, returns RSV_OK
 * with *done = 0, keeps the position, and accepts out = NULL (out[0..0) is
 * empty). The view is long enough (64 bytes) for each batch decoder's fast
 * loop, so a decoder that entered that loop for zero values would reload its
 * cache (the load check aborts) and form out + 0 from NULL (undefined;
 * clang's UBSan reports it). */
Test(api_arguments, batch_of_zero_values)
{
    uint8_t buf[64];
    for (unsigned i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)(0x5A ^ (i * 37));
    rsv_golomb g;
    cr_assert_eq(rsv_golomb_init(&g, 7), RSV_OK);
    for (unsigned start = 0; start < 9; start += 4) {
        for (int which = 0; which < 3; which++) {
            rsv_reader r;
            rsv_reader_init(&r, rsv_view_make(buf, 0, 8 * sizeof buf));
            uint64_t first = 0, again = 0;
            cr_assert_eq(rsv_read(&r, start, &first), RSV_OK);
            size_t done = 99;
            rsv_lw_none(); /* RSV_LOAD_CHECK builds: any load aborts */
            rsv_status st = which == 0   ? rsv_read_n(&r, 5, NULL, 0, &done)
                            : which == 1 ? rsv_read_eg_n(&r, 0, NULL, 0, &done)
                                         : rsv_read_golomb_n(&r, &g, NULL, 0, &done);
            rsv_lw_end();
            cr_assert_eq(st, RSV_OK, "decoder %d after %u bits", which, start);
            cr_assert_eq(done, 0, "decoder %d after %u bits", which, start);
            cr_assert_eq(rsv_reader_position(&r), start, "decoder %d after %u bits", which, start);
            /* The next 5 bits are still buf's bits start..start+4 (MSB first). */
            cr_assert_eq(rsv_read(&r, 5, &again), RSV_OK);
            uint64_t want = (((uint64_t)buf[start / 8] << 8 | buf[start / 8 + 1]) >> (11 - start % 8)) & 31;
            cr_assert_eq(again, want, "decoder %d after %u bits", which, start);
        }
    }
}
