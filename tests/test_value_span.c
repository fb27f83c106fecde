/* rsv_value_span_borrow and rsv_value_span_copy (record.h): borrowing works
 * exactly for byte-aligned present values (a tombstone never borrows, an
 * empty present value borrows NULL), and a copy gives the value's bytes at
 * any bit offset. Expected bytes are written out by hand. */
#include <criterion/criterion.h>
#include <string.h>

#include "reservoir/record.h"

static rsv_value_span present(const uint8_t *data, uint64_t off, uint64_t len)
{
    rsv_value_span v = {RSV_VALUE_PRESENT, len, rsv_view_make(data, off, 8 * len), 0};
    return v;
}

Test(value_span, borrow)
{
    static const uint8_t data[4] = {0x12, 0x34, 0x56, 0x78};
    const uint8_t *p = (const uint8_t *)"sentinel";
    rsv_value_span tomb = {RSV_VALUE_TOMBSTONE, 0, rsv_view_make(NULL, 0, 0), 1};
    cr_assert_eq(rsv_value_span_borrow(&tomb, &p), 0);
    rsv_value_span v = present(data, 8, 2);
    cr_assert_eq(rsv_value_span_borrow(&v, &p), 1);
    cr_assert(p == data + 1);
    v = present(data, 4, 2);
    cr_assert_eq(rsv_value_span_borrow(&v, &p), 0, "a value at bit offset 4 cannot be borrowed");
    v = present(data, 5, 0);
    p = data;
    cr_assert_eq(rsv_value_span_borrow(&v, &p), 1);
    cr_assert(p == NULL);
}

Test(value_span, copy_unaligned)
{
    static const uint8_t data[4] = {0x12, 0x34, 0x56, 0x78};
    uint8_t out[4] = {0xEE, 0xEE, 0xEE, 0xEE};
    rsv_value_span v = present(data, 4, 2); /* bits 4..19: 0x23 0x45 */
    rsv_value_span_copy(&v, out);
    cr_assert_eq(out[0], 0x23);
    cr_assert_eq(out[1], 0x45);
}
