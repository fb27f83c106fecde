/* Length limits (fault.h): at the largest length a bound admits, the call
 * goes on to its allocation (armed to fail here, so nothing is really
 * allocated: RSV_ERR_NOMEM), and one more is RSV_ERR_TOO_LARGE before any
 * allocation or read. */
#include "fault.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../codec/src/code_list.h"

/* record.h, rsv_put_key_fc / rsv_put_key_kv03: the length guard returns
 * RSV_ERR_TOO_LARGE exactly from 8|K| + 258 (+ 129 for the KV03 form) past
 * u64 on, before any key byte is read; at the largest length below it the
 * empty growable writer's reserve is asked for ~2^61 bytes, and its realloc,
 * armed to fail here (nothing is really allocated), gives RSV_ERR_NOMEM with
 * the writer unchanged (the writer's limit, 2^64 - 8 bits, still admits
 * both widths from an empty writer). The key pointer is a 1-byte buffer: with no previous key
 * (and local = 0) neither call reads it before the reserve fails. Kills
 * keys_c.ror.ef4e7d53 and keys_c.const.355eef0d (the guard moved below the
 * bound, which turns the NOMEM into TOO_LARGE). Lengths whose 8|K| wraps u64
 * are TOO_LARGE too (keys_c.const.999259a5: the KV03 guard's bound divided
 * by 7 lets 2^61 + 1 through). */
Test(fault_limits, key_length_guards_end_where_the_width_stops_fitting_u64)
{
    static const uint8_t one[1] = {0xA5};
    const uint64_t fc_max = (UINT64_MAX - 258) / 8, kv_max = (UINT64_MAX - 129) / 8;
    for (int form = 0; form < 2; form++) {
        uint64_t max = form ? kv_max : fc_max;
        for (int past = 0; past < 2; past++) {
            rsv_writer w; /* empty: at the KV03 bound the width leaves the limit 1 bit */
            rsv_writer_init(&w);
            long live = live_blocks;
            size_t nkey = (size_t)(max + (uint64_t)past);
            arm_alloc(0);
            rsv_status st = form ? rsv_put_key_kv03(&w, one, nkey, 0) : rsv_put_key_fc(&w, NULL, 0, one, nkey);
            int failed = alloc_failed;
            disarm_alloc();
            cr_assert_eq(st, past ? RSV_ERR_TOO_LARGE : RSV_ERR_NOMEM, "%s form, |K| = %s bound: %s",
                         form ? "KV03" : "stream", past ? "one past the" : "the", rsv_status_name(st));
            cr_assert_eq(failed, !past, "%s form, past %d: the reserve's realloc %s", form ? "KV03" : "stream", past,
                         failed ? "was tried" : "was not tried");
            cr_assert_eq(rsv_writer_bits(&w), 0);
            cr_assert_eq(live_blocks, live);
            rsv_writer_free(&w);
        }
    }
    /* lengths far past the bound whose 8|K| wraps u64 to a small number
     * (2^61 + 1 → 8, 2^61 + 3 → 24): TOO_LARGE all the same, with no
     * reserve tried and no key byte read (a guard checked against a wrapped
     * width would write EG0(8) and the key's first byte, or fail NOMEM) */
    static const uint64_t wrapping[2] = {(UINT64_C(1) << 61) + 1, (UINT64_C(1) << 61) + 3};
    for (int form = 0; form < 2; form++)
        for (int k = 0; k < 2; k++) {
            rsv_writer w;
            rsv_writer_init(&w);
            arm_alloc(0);
            rsv_status st = form ? rsv_put_key_kv03(&w, one, (size_t)wrapping[k], 0)
                                 : rsv_put_key_fc(&w, NULL, 0, one, (size_t)wrapping[k]);
            int failed = alloc_failed;
            disarm_alloc();
            cr_assert_eq(st, RSV_ERR_TOO_LARGE, "%s form, |K| = %llu: %s", form ? "KV03" : "stream",
                         (unsigned long long)wrapping[k], rsv_status_name(st));
            cr_assert_eq(failed, 0);
            cr_assert_eq(rsv_writer_bits(&w), 0);
            rsv_writer_free(&w);
        }
    /* the previous key's bound: 8|P| must fit u64, so |P| = UINT64_MAX / 8 is
     * accepted (the lcp reads min(|P|, |K|) = 1 byte of each; the backspace
     * 8|P| - 8 and the empty suffix need a small reserve, armed to fail) and
     * one more is RSV_ERR_TOO_LARGE before anything is read or reserved */
    for (int past = 0; past < 2; past++) {
        rsv_writer w;
        rsv_writer_init(&w);
        arm_alloc(0);
        rsv_status st = rsv_put_key_fc(&w, one, (size_t)(UINT64_MAX / 8 + (uint64_t)past), one, 1);
        int failed = alloc_failed;
        disarm_alloc();
        cr_assert_eq(st, past ? RSV_ERR_TOO_LARGE : RSV_ERR_NOMEM, "|P| %s the bound: %s", past ? "one past" : "at",
                     rsv_status_name(st));
        cr_assert_eq(failed, !past);
        cr_assert_eq(rsv_writer_bits(&w), 0);
        rsv_writer_free(&w);
    }
}

/* CODES.md §6.2: TOO_LARGE only when the new bit length would exceed
 * 2^64 - 8. rsv_put_bytes of n = 2^61 - 1 bytes into an empty growable
 * writer asks for exactly 2^64 - 8 bits: not TOO_LARGE, so the writer must
 * try to grow, and with that allocation armed to fail the status is NOMEM
 * (the bytes are never read: the reserve comes first). n = 2^61 would be
 * 2^64 bits: TOO_LARGE before any allocation. The writer stays empty. */
Test(fault_limits, put_bytes_at_the_ceiling_tries_to_grow)
{
    static const uint8_t byte[1] = {0x5A};
    const size_t n[2] = {(size_t)(UINT64_MAX >> 3), (size_t)(UINT64_MAX >> 3) + 1};
    const rsv_status want[2] = {RSV_ERR_NOMEM, RSV_ERR_TOO_LARGE};
    for (int k = 0; k < 2; k++) {
        rsv_writer w;
        rsv_writer_init(&w);
        arm_alloc(0);
        rsv_status st = rsv_put_bytes(&w, byte, n[k]);
        long made = alloc_count;
        int failed = alloc_failed;
        disarm_alloc();
        cr_assert_eq(st, want[k], "n = %zu: %s", n[k], rsv_status_name(st));
        cr_assert_eq(failed, k == 0, "n = %zu: the grow %s", n[k], failed ? "was tried" : "was not tried");
        cr_assert_eq(made, k == 0, "n = %zu: %ld allocations", n[k], made);
        cr_assert_eq(rsv_writer_bits(&w), 0);
        rsv_writer_free(&w);
    }
}

/* kv03.h, rsv_kv03_writer_add: "RSV_ERR_TOO_LARGE before the key is read
 * (so that 8 * key_len plus the bits of two codes fits in 64 bits)": two
 * codes of at most 512 bits, so key_len = (2^64 - 1 - 1024) / 8 =
 * 2^61 - 129 is accepted (8 key_len + 1024 = 2^64 - 8) and 2^61 - 128 is
 * not. After a first record "a", the long key {0xA5} compares above it on
 * its first byte (the only one read); the writer then grows its
 * previous-key room to the key's length, the allocation armed to fail:
 * RSV_ERR_NOMEM. One byte longer: RSV_ERR_TOO_LARGE with no allocation
 * tried. Either failure poisons the writer at record 1. Kills
 * kv03_writer_c.ror.55a9cfac (the --op ror run: the guard at the bound). */
Test(fault_limits, kv03_writer_key_length_guard_ends_where_the_width_stops_fitting_u64)
{
    static const uint8_t one[1] = {0xA5};
    const uint64_t max = (UINT64_MAX - 2 * RSV_KV03_MAX_CODE_BITS) / 8;
    cr_assert_eq(max, (UINT64_C(1) << 61) - 129);
    for (int past = 0; past < 2; past++) {
        rsv_kv03_policy p = rsv_kv03_policy_default();
        rsv_kv03_writer w;
        long live = live_blocks;
        cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
        cr_assert_eq(rsv_kv03_writer_add(&w, "a", 1, rsv_value_tombstone()), RSV_OK);
        arm_alloc(0);
        rsv_status st = rsv_kv03_writer_add(&w, one, (size_t)(max + (uint64_t)past), rsv_value_tombstone());
        int failed = alloc_failed;
        disarm_alloc();
        cr_assert_eq(st, past ? RSV_ERR_TOO_LARGE : RSV_ERR_NOMEM, "key_len %s the bound: %s",
                     past ? "one past" : "at", rsv_status_name(st));
        cr_assert_eq(failed, !past, "past %d: the key room's allocation %s", past,
                     failed ? "was tried" : "was not tried");
        rsv_kv03_diag d = rsv_kv03_writer_diag(&w);
        cr_assert_eq(d.status, st);
        cr_assert_eq(d.record, 1);
        cr_assert_eq(rsv_kv03_writer_add(&w, "b", 1, rsv_value_tombstone()), RSV_ERR_POISONED);
        rsv_kv03_writer_free(&w);
        cr_assert_eq(live_blocks, live, "%ld blocks not freed", live_blocks - live);
    }
}

/* stream.h, rsv_stream_writer_add: the previous-key room doubles from 64
 * bytes, and when the doubling would pass SIZE_MAX / 2 it asks for exactly
 * key_len bytes. After a first record "a", a record with key_len =
 * SIZE_MAX whose key pointer is the 1-byte buffer {0xA5}: the order check
 * reads one byte of each key (0xA5 > 'a'), the doublings reach 2^63, then
 * the room is SIZE_MAX bytes, and that allocation (armed to fail here, the
 * first one the record makes) gives RSV_ERR_NOMEM with nothing more written
 * to `out`; the writer is poisoned.
 * A doubling without the SIZE_MAX / 2 guard wraps to 0 and never ends (the
 * test's timeout). Kills stream_writer_c.const.f62e6869 (seed-269 sample). */
Test(fault_limits, stream_writer_key_room_past_half_the_address_space_is_nomem, .timeout = 30)
{
    static const uint8_t one[1] = {0xA5};
    rsv_writer out;
    rsv_writer_init(&out);
    rsv_stream_writer sw;
    long live = live_blocks;
    cr_assert_eq(rsv_stream_writer_init(&sw, &out, NULL, 0), RSV_OK);
    cr_assert_eq(rsv_stream_writer_add(&sw, "a", 1, rsv_value_tombstone()), RSV_OK);
    uint64_t bits = rsv_writer_bits(&out);
    cr_assert_eq(sw.prev_cap, 64);
    arm_alloc(0);
    rsv_status st = rsv_stream_writer_add(&sw, one, SIZE_MAX, rsv_value_tombstone());
    int failed = alloc_failed;
    disarm_alloc();
    cr_assert(failed, "the key room's allocation was not tried");
    cr_assert_eq(st, RSV_ERR_NOMEM, "%s", rsv_status_name(st));
    cr_assert_eq(sw.prev_cap, 64, "the key room changed to %zu bytes", sw.prev_cap);
    cr_assert_eq(rsv_writer_bits(&out), bits);
    cr_assert_eq(rsv_stream_writer_add(&sw, "a", 1, rsv_value_tombstone()), RSV_ERR_POISONED);
    rsv_stream_writer_free(&sw);
    rsv_writer_free(&out);
    cr_assert_eq(live_blocks, live, "%ld blocks not freed", live_blocks - live);
}

/* code_list.c: a full code list doubles its slots (first 8) while twice
 * them, plus the ends array's extra slot, still fits size_t bytes: at 2^59
 * slots the doubling is tried (its 2^63 + 8-byte resize, armed to fail:
 * RSV_ERR_NOMEM), at 2^60 it is RSV_ERR_NOMEM before any allocation, since
 * (2^61 + 1) · 8 bytes wraps to 8. The lists are white-box: m = cap slots
 * in use, the arrays fake (never read: the resize fails or is not made).
 * Kills code_list_c.aor.5f3327ba (the guard at SIZE_MAX / 16 + 1 lets 2^60
 * through to an 8-byte resize). */
Test(fault_limits, code_list_slots_past_2_60_are_nomem_before_any_allocation)
{
    static uint64_t fake[2];
    static const uint8_t code[1] = {0x80};
    for (int k = 59; k <= 60; k++) {
        rsv__codes d;
        memset(&d, 0, sizeof d);
        d.cap = d.m = (size_t)1 << k;
        d.ends = d.first = fake;
        arm_alloc(0);
        rsv_status st = rsv__codes_append(&d, rsv_view_make(code, 0, 1), 0);
        int failed = alloc_failed;
        disarm_alloc();
        cr_assert_eq(st, RSV_ERR_NOMEM, "2^%d slots: %s", k, rsv_status_name(st));
        cr_assert_eq(failed, k == 59, "2^%d slots: the resize %s", k, failed ? "was tried" : "was not tried");
        cr_assert(d.cap == (size_t)1 << k && d.m == d.cap && d.ends == fake, "2^%d slots: the list changed", k);
    }
}
