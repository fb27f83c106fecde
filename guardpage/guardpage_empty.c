/* Empty views whose data pointer is NULL or points into PROT_NONE memory
 * (CODES.md §1.1, A2): every operation and code, the batch decoders,
 * rsv_view_bit_equal and rsv_put_view must succeed or fail exactly like the
 * oracle — which runs on the same views — and nothing may be loaded. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "gp_pair.h"
#include "guardpage.h"
#include "reservoir/writer.h"

static const uint64_t k_moduli[] = {0, 1, 2, 3, 7, UINT64_C(1) << 63, UINT64_MAX};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Each operation on a fresh pair (p = 0 = len). */
static void single_ops(rsv_view v)
{
    gp_pair x;
    for (uint64_t w = 0; w <= 65; w++) {
        gp_pair_init(&x, v);
        rsv_diff_read(&x, w);
    }
    gp_pair_init(&x, v);
    rsv_diff_read_bit(&x);
    for (uint64_t k = 0; k <= 64; k++) {
        gp_pair_init(&x, v);
        rsv_diff_read_eg(&x, k);
    }
    gp_pair_init(&x, v);
    rsv_diff_read_eg0(&x);
    for (size_t i = 0; i < COUNT(k_moduli); i++) {
        gp_pair_init(&x, v);
        rsv_diff_read_golomb(&x, k_moduli[i]);
        gp_pair_init(&x, v);
        rsv_diff_read_golomb_m(&x, k_moduli[i]);
    }
    static const uint64_t spans[] = {0, 1, 2, UINT64_C(1) << 63, UINT64_MAX};
    for (size_t i = 0; i < COUNT(spans); i++) {
        rsv_view sub;
        gp_pair_init(&x, v);
        rsv_diff_take_sub(&x, spans[i], &sub);
        gp_pair_init(&x, v);
        rsv_diff_skip(&x, spans[i]);
    }
}

/* Everything on one reader in sequence: failures must leave it usable and
 * still untouched memory-wise. */
static void sequence(rsv_view v)
{
    gp_pair x;
    gp_pair_init(&x, v);
    for (uint64_t w = 0; w <= 65; w++) rsv_diff_read(&x, w);
    rsv_diff_read_bit(&x);
    for (uint64_t k = 0; k <= 64; k++) rsv_diff_read_eg(&x, k);
    rsv_diff_read_eg0(&x);
    for (size_t i = 0; i < COUNT(k_moduli); i++) {
        rsv_diff_read_golomb(&x, k_moduli[i]);
        rsv_diff_read_golomb_m(&x, k_moduli[i]);
    }
    rsv_view sub;
    rsv_diff_take_sub(&x, 0, &sub);
    rsv_diff_take_sub(&x, 1, &sub);
    rsv_diff_skip(&x, 0);
    rsv_diff_skip(&x, UINT64_MAX);
    rsv_diff_edge_ops(&x);
}

static void batches(rsv_view v)
{
    static const size_t counts[] = {0, 1, 5};
    static const uint64_t widths[] = {0, 1, 13, 64, 65};
    static const uint64_t orders[] = {0, 1, 3, 63, 64};
    gp_pair x;
    for (size_t c = 0; c < COUNT(counts); c++) {
        for (size_t i = 0; i < COUNT(widths); i++) {
            gp_pair_init(&x, v);
            rsv_diff_read_n(&x, widths[i], counts[c]);
        }
        for (size_t i = 0; i < COUNT(orders); i++) {
            gp_pair_init(&x, v);
            rsv_diff_read_eg_n(&x, orders[i], counts[c]);
        }
        for (size_t i = 0; i < COUNT(k_moduli); i++) {
            gp_pair_init(&x, v);
            rsv_diff_read_golomb_n(&x, k_moduli[i], counts[c]);
        }
    }
}

/* bit_equal and put_view. Expected values come from §1.1: two empty views
 * are bit-equal (same length, no bits to differ); an empty and a one-bit view
 * are not. Appending an empty view appends nothing. */
static void view_users(rsv_view v, const rsv_guard_buf *none)
{
    static const uint8_t one_byte = 0x80;
    rsv_view other_empty = rsv_view_make(none->ptr + 17, 3, 0);
    rsv_view null_empty = rsv_view_make(NULL, 0, 0);
    rsv_view one_bit = rsv_view_make(&one_byte, 0, 1);
    gp_check(rsv_view_bit_equal(v, v) == 1, "bit_equal(e, e) != 1");
    gp_check(rsv_view_bit_equal(v, other_empty) == 1, "bit_equal(e, other empty) != 1");
    gp_check(rsv_view_bit_equal(null_empty, v) == 1, "bit_equal(NULL empty, e) != 1");
    gp_check(rsv_view_bit_equal(v, one_bit) == 0, "bit_equal(e, 1-bit view) != 0");
    gp_check(rsv_view_bit_equal(one_bit, v) == 0, "bit_equal(1-bit view, e) != 0");

    /* The sub-view of take(0) from an empty reader is itself empty and carries
     * the same inaccessible pointer; it must be just as harmless. */
    rsv_reader r;
    rsv_reader_init(&r, v);
    rsv_view sub = rsv_view_make(NULL, 1, 1);
    gp_check(rsv_take(&r, 0, &sub) == RSV_OK && rsv_view_identical(sub, v),
             "take(0) of an empty view is not the view itself");

    rsv_writer w;
    rsv_writer_init(&w);
    rsv_status st = rsv_put(&w, 5, 3); /* `101` */
    gp_check(st == RSV_OK, "put(5, 3) failed: %s", rsv_status_name((int)st));
    st = rsv_put_view(&w, v);
    gp_check(st == RSV_OK && rsv_writer_bits(&w) == 3, "put_view(empty) into a 3-bit writer: %s, %" PRIu64 " bits",
             rsv_status_name((int)st), rsv_writer_bits(&w));
    st = rsv_put_view(&w, sub);
    gp_check(st == RSV_OK && rsv_writer_bits(&w) == 3 && rsv_writer_data(&w)[0] == 0xA0,
             "put_view(take(0)) changed the writer: %s, %" PRIu64 " bits",
             rsv_status_name((int)st), rsv_writer_bits(&w));
    rsv_writer_free(&w);

    /* A fixed writer of capacity 0 whose buffer is itself PROT_NONE: zero
     * bits fit, and nothing may be touched. */
    rsv_writer fw;
    rsv_writer_init_fixed(&fw, none->ptr, 0);
    st = rsv_put_view(&fw, v);
    gp_check(st == RSV_OK && rsv_writer_bits(&fw) == 0,
             "put_view(empty) into a 0-byte fixed writer: %s", rsv_status_name((int)st));
}

int main(void)
{
    rsv_guard_install_fault_handler(); /* after the sanitizer runtime's init */
    rsv_guard_buf none, tail;
    if (rsv_guard_none(&none, 4096) != 0 || rsv_guard_tail(&tail, 24) != 0) {
        perror("guardpage: mapping failed");
        return 2;
    }
    /* Data pointers an empty view might carry: NULL, inside a PROT_NONE
     * mapping (start and middle), and one past the end of a buffer, i.e. the
     * first byte of its guard page. */
    const struct {
        const uint8_t *data;
        const char *name;
    } ptrs[] = {{NULL, "NULL"},
                {none.ptr, "PROT_NONE page start"},
                {none.ptr + 2049, "PROT_NONE page middle"},
                {tail.ptr + tail.len, "one past a buffer (guard byte)"}};
    static const uint64_t offs[] = {0, 3, 7, 8, 1000, UINT64_C(1) << 40, UINT64_MAX};
    for (size_t i = 0; i < COUNT(ptrs); i++) {
        for (size_t j = 0; j < COUNT(offs); j++) {
            rsv_view v = rsv_view_make(ptrs[i].data, offs[j], 0);
            rsv_guard_set_case("empty view, data=%s, off=%" PRIu64 ": single operations",
                               ptrs[i].name, offs[j]);
            single_ops(v);
            rsv_guard_set_case("empty view, data=%s, off=%" PRIu64 ": one reader, every operation",
                               ptrs[i].name, offs[j]);
            sequence(v);
            rsv_guard_set_case("empty view, data=%s, off=%" PRIu64 ": batch decoders",
                               ptrs[i].name, offs[j]);
            batches(v);
            rsv_guard_set_case("empty view, data=%s, off=%" PRIu64 ": bit_equal / put_view",
                               ptrs[i].name, offs[j]);
            view_users(v, &none);
        }
    }
    /* The checked constructor accepts an empty view over zero bytes of any
     * pointer, and rejects a non-empty one (§1.1). */
    rsv_guard_set_case("rsv_view_from_bytes over zero bytes");
    rsv_view v;
    gp_check(rsv_view_from_bytes(none.ptr, 0, 0, 0, &v) == RSV_OK && v.data == none.ptr &&
                 v.len == 0,
             "view_from_bytes(PROT_NONE, 0, 0, 0) did not give the empty view");
    gp_check(rsv_view_from_bytes(NULL, 0, 0, 0, &v) == RSV_OK && v.len == 0,
             "view_from_bytes(NULL, 0, 0, 0) failed");
    gp_check(rsv_view_from_bytes(none.ptr, 0, 0, 1, &v) == RSV_ERR_VIEW_RANGE,
             "view_from_bytes(PROT_NONE, 0, 0, 1) was not VIEW_RANGE");
    rsv_guard_release(&tail);
    rsv_guard_release(&none);
    return gp_report();
}
