/* codec/src/bits.h against the definitions, written as plain bit loops:
 * rsv__clz64, rsv__ctz64 (x != 0), rsv__bitlen64 and the two popcounts for
 * every single-bit and two-bit word (64 + 64*64 values), every all-ones
 * prefix and suffix (UINT64_MAX >> s, UINT64_MAX << s, s = 0..63), 0 where
 * defined, and 200000 SplitMix64 words thinned by a random mask. Which paths
 * run depends on how this file is compiled: the GNU builtins in test_bits,
 * the portable fallbacks in test_bits_portable (this file again with
 * RSV_PORTABLE_BITS defined; tests/CMakeLists.txt), so every build of the
 * gate runs both. In builds without NDEBUG, RSV_ASSERT's abort on a broken
 * precondition is checked too (rsv__clz64(0)). */
#include <criterion/criterion.h>
#include <signal.h>

#include "../codec/src/bits.h" /* private */
#include "testutil.h"

static unsigned ref_clz(uint64_t x)
{
    unsigned n = 0;
    for (int b = 63; b >= 0 && !((x >> b) & 1); b--) n++;
    return n;
}

static unsigned ref_ctz(uint64_t x)
{
    unsigned n = 0;
    for (unsigned b = 0; b < 64 && !((x >> b) & 1); b++) n++;
    return n;
}

static unsigned ref_pop(uint64_t x)
{
    unsigned n = 0;
    for (unsigned b = 0; b < 64; b++) n += (unsigned)((x >> b) & 1);
    return n;
}

static unsigned long checked;

static void check(uint64_t x)
{
    unsigned want_bitlen = 64 - ref_clz(x); /* ref_clz(0) = 64 */
    cr_assert_eq(rsv__bitlen64(x), want_bitlen, "bitlen64(0x%016llx)", (unsigned long long)x);
    cr_assert_eq(rsv__popcount64(x), ref_pop(x), "popcount64(0x%016llx)", (unsigned long long)x);
    cr_assert_eq(rsv__popcount64_insn(x), ref_pop(x), "popcount64_insn(0x%016llx)", (unsigned long long)x);
    if (x) {
        cr_assert_eq(rsv__clz64(x), ref_clz(x), "clz64(0x%016llx)", (unsigned long long)x);
        cr_assert_eq(rsv__ctz64(x), ref_ctz(x), "ctz64(0x%016llx)", (unsigned long long)x);
    }
    checked++;
}

Test(bits, scans_and_counts_match_the_definitions)
{
    checked = 0;
    check(0);
    for (unsigned i = 0; i < 64; i++) {
        check(UINT64_C(1) << i);
        check(UINT64_MAX >> i);
        check(UINT64_MAX << i);
        for (unsigned j = 0; j < 64; j++) check((UINT64_C(1) << i) | (UINT64_C(1) << j));
    }
    rsv_rng rng = {42};
    for (unsigned t = 0; t < 200000; t++) {
        uint64_t x = rsv_rng_next(&rng);
        check(x & (UINT64_MAX >> rsv_rng_below(&rng, 64)) & (UINT64_MAX << rsv_rng_below(&rng, 64)));
    }
    cr_assert_eq(checked, 1 + 64 * 3 + 64 * 64 + 200000);
}

#ifndef NDEBUG
/* The precondition x != 0 is stated, and checked in debug builds. */
Test(bits, rsv_assert_aborts_on_a_broken_precondition, .signal = SIGABRT)
{
    volatile uint64_t zero = 0;
    unsigned n = rsv__clz64(zero);
    cr_log_error("rsv__clz64(0) returned %u instead of aborting", n);
}
#endif
