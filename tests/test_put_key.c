/* rsv_put_key_kv03 (KV03.md §2.2 form: EG0(S) ‖ key bits [local, 8|K|),
 * S = 8|K| - local) against bit strings written out by hand from CODES.md §3
 * (EG0(v): bitlen(v + 1) - 1 zeros, then v + 1 in binary). */
#include <criterion/criterion.h>
#include <string.h>

#include "reservoir/record.h"
#include "reservoir/writer.h"

static void expect_bits(const char *key, size_t nkey, uint64_t local, const char *want)
{
    rsv_writer w;
    rsv_writer_init(&w);
    cr_assert_eq(rsv_put_key_kv03(&w, (const uint8_t *)key, nkey, local), RSV_OK);
    size_t n = strlen(want);
    cr_assert_eq(rsv_writer_bits(&w), n, "key %s local %llu: %llu bits, want %zu", key, (unsigned long long)local,
                 (unsigned long long)rsv_writer_bits(&w), n);
    const uint8_t *d = rsv_writer_data(&w);
    for (size_t i = 0; i < n; i++)
        cr_assert_eq((d[i / 8] >> (7 - i % 8)) & 1, (unsigned)(want[i] - '0'), "key %s local %llu: bit %zu", key,
                     (unsigned long long)local, i);
    rsv_writer_free(&w);
}

Test(put_key, kv03_form_by_hand)
{
    /* "a" = 01100001, local 0: S = 8, EG0(8) = 000 1001 */
    expect_bits("a", 1, 0, "0001001" "01100001");
    /* "ab" = 01100001 01100010, local 12: S = 4, EG0(4) = 00 101, bits 12..15 = 0010 */
    expect_bits("ab", 2, 12, "00101" "0010");
    /* local 3 inside the first byte: S = 13, EG0(13) = 000 1110, bits 3..15 */
    expect_bits("ab", 2, 3, "0001110" "00001" "01100010");
    /* the whole key shared: S = 0, EG0(0) = 1 */
    expect_bits("ab", 2, 16, "1");
    /* empty key */
    expect_bits("", 0, 0, "1");
}

Test(put_key, kv03_form_arguments)
{
    rsv_writer w;
    rsv_writer_init(&w);
    /* local > 8|K| and a NULL key with a length: INVALID_ARGUMENT, nothing written */
    cr_assert_eq(rsv_put_key_kv03(&w, (const uint8_t *)"a", 1, 9), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_put_key_kv03(&w, NULL, 1, 0), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(rsv_writer_bits(&w), 0);
    rsv_writer_free(&w);
}
