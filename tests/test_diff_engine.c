/* The differential engine itself must be able to fail: made-up codec
 * outcomes that differ from the oracle's in status, value, position or
 * success are counted and described (operation, parameter, view, bits,
 * start position, both sides); agreeing ones are not; spec expectations
 * that the oracle does not meet are reported too. Expected oracle outcomes
 * here are hand-computed from CODES.md. */
#include <string.h>

#include <criterion/criterion.h>

#include "diff.h"

static rsv_diff d;
/* A5 0F: 10100101 00001111; the view (data, 3, 9) holds 00101 0000 (§1.1) */
static const uint8_t bytes[2] = {0xA5, 0x0F};

static rsv_oracle_result res(rsv_status st, uint64_t value, uint64_t pos)
{
    rsv_oracle_result r = {st, value, pos};
    return r;
}

Test(diff_engine, agreeing_outcome_is_not_a_mismatch)
{
    rsv_diff_run t;
    rsv_diff_init(&d);
    rsv_diff_begin(&t, &d, rsv_view_make(bytes, 3, 9), "engine", "hand case %llu", 1, 0, 0, 0);
    /* §1.1 example: the 9-bit field is 0x050 = 80 */
    rsv_oracle_result o = rsv_oracle_read(t.v, 0, 9);
    cr_assert_eq(o.status, RSV_OK);
    cr_assert_eq(o.value, 80);
    rsv_diff_check_outcome(&t, RSV_DOP_READ, 9, 0, RSV_OK, 80, 9, o);
    cr_assert_eq(d.mismatches, 0, "%s", rsv_diff_first(&d));
    cr_assert_eq(d.ops, 1);
    /* and the real lockstep operation agrees as well */
    rsv_diff_begin(&t, &d, rsv_view_make(bytes, 3, 9), "engine", "hand case %llu", 2, 0, 0, 0);
    cr_assert_eq(rsv_diff_read(&t, 9), RSV_OK);
    cr_assert_eq(d.mismatches, 0, "%s", rsv_diff_first(&d));
    rsv_diff_expect(&t, RSV_OK, 80, 9);
    cr_assert_eq(d.mismatches, 0, "%s", rsv_diff_first(&d));
}

Test(diff_engine, wrong_value_is_reported_with_context)
{
    rsv_diff_run t;
    rsv_diff_init(&d);
    rsv_diff_begin(&t, &d, rsv_view_make(bytes, 3, 9), "engine", "hand case %llu", 7, 0, 0, 0);
    rsv_diff_check_outcome(&t, RSV_DOP_READ, 9, 0, RSV_OK, 81, 9, res(RSV_OK, 80, 9));
    cr_assert_eq(d.mismatches, 1);
    const char *m = rsv_diff_first(&d);
    cr_assert(strstr(m, "VALUE MISMATCH") != NULL, "%s", m);
    cr_assert(strstr(m, "read(9)@0") != NULL, "%s", m);
    cr_assert(strstr(m, "off=3 len=9") != NULL, "%s", m);
    cr_assert(strstr(m, "a50f") != NULL, "%s", m);        /* bytes in hex */
    cr_assert(strstr(m, "bits: 001010000") != NULL, "%s", m); /* the view's bits */
    cr_assert(strstr(m, "hand case 7") != NULL, "%s", m);
    cr_assert(strstr(m, "value=81") != NULL && strstr(m, "value=80") != NULL, "%s", m);
}

Test(diff_engine, wrong_status_position_and_success_are_reported)
{
    rsv_diff_run t;
    rsv_diff_init(&d);
    rsv_view v = rsv_view_make(bytes, 3, 9);
    rsv_diff_begin(&t, &d, v, "engine", "status", 0, 0, 0, 0);
    /* `00101 0000`: EG0 reads `00101` = 4 at position 5 */
    rsv_diff_check_outcome(&t, RSV_DOP_READ_EG, 0, 0, RSV_ERR_EG_TRUNCATED, 0, 9,
                           res(RSV_OK, 4, 5));
    cr_assert_eq(d.mismatches, 1);
    cr_assert(strstr(rsv_diff_first(&d), "SUCCESS/FAILURE MISMATCH") != NULL, "%s",
              rsv_diff_first(&d));

    rsv_diff_begin(&t, &d, v, "engine", "status", 0, 0, 0, 0);
    rsv_diff_check_outcome(&t, RSV_DOP_READ_EG, 0, 0, RSV_ERR_EG_OVERFLOW, 0, 9,
                           res(RSV_ERR_EG_TRUNCATED, 0, 9));
    cr_assert_eq(d.mismatches, 2);
    cr_assert(strstr(d.msgs[1], "STATUS MISMATCH") != NULL, "%s", d.msgs[1]);

    rsv_diff_begin(&t, &d, v, "engine", "position", 0, 0, 0, 0);
    rsv_diff_check_outcome(&t, RSV_DOP_SKIP, 3, 0, RSV_OK, 0, 4, res(RSV_OK, 0, 3));
    cr_assert_eq(d.mismatches, 3);
    cr_assert(strstr(d.msgs[2], "POSITION MISMATCH") != NULL, "%s", d.msgs[2]);
    cr_assert_eq(t.p, 3, "the case follows the oracle's position");
}

Test(diff_engine, spec_expectations_are_checked)
{
    rsv_diff_run t;
    rsv_diff_init(&d);
    rsv_diff_begin(&t, &d, rsv_view_make(bytes, 3, 9), "engine", "expect", 0, 0, 0, 0);
    rsv_diff_read_eg(&t, 0); /* 4 at position 5 (hand-decoded above) */
    cr_assert_eq(d.mismatches, 0, "%s", rsv_diff_first(&d));
    rsv_diff_expect(&t, RSV_OK, 4, 6); /* wrong position on purpose */
    cr_assert_eq(d.mismatches, 1);
    cr_assert(strstr(rsv_diff_first(&d), "SPEC EXPECTATION FAILED") != NULL, "%s",
              rsv_diff_first(&d));
    rsv_diff_expect_failure(&t); /* it succeeded, so this is a failure too */
    cr_assert_eq(d.mismatches, 2);
}

Test(diff_engine, messages_are_capped_but_all_mismatches_counted)
{
    rsv_diff_run t;
    rsv_diff_init(&d);
    rsv_diff_begin(&t, &d, rsv_view_make(bytes, 0, 16), "engine", "cap", 0, 0, 0, 0);
    for (int i = 0; i < 10; i++)
        rsv_diff_check_outcome(&t, RSV_DOP_READ, 1, 0, RSV_OK, 0, 1, res(RSV_OK, 1, 1));
    cr_assert_eq(d.mismatches, 10);
    cr_assert_eq(d.nmsgs, RSV_DIFF_MAX_MSGS);
}

/* The harness hooks see every operation and every mismatch (the guard-page
 * tests print from the mismatch hook, the fuzz target aborts there). */
typedef struct hook_log {
    int before, after, mismatches;
    char first[RSV_DIFF_MSG_LEN];
} hook_log;

static void h_before(void *ctx, const rsv_diff_run *t)
{
    (void)t;
    ((hook_log *)ctx)->before++;
}
static void h_after(void *ctx, const rsv_diff_run *t)
{
    (void)t;
    ((hook_log *)ctx)->after++;
}
static void h_mismatch(void *ctx, const char *msg)
{
    hook_log *l = ctx;
    if (l->mismatches++ == 0) snprintf(l->first, sizeof l->first, "%s", msg);
}

Test(diff_engine, hooks_see_operations_and_mismatches)
{
    static hook_log log;
    const rsv_diff_hooks hooks = {&log, h_before, h_after, h_mismatch};
    rsv_diff_run t;
    rsv_diff_init(&d);
    d.hooks = &hooks;
    rsv_diff_begin(&t, &d, rsv_view_make(bytes, 3, 9), "engine", "hooks", 0, 0, 0, 0);
    /* a script: read(3) = 001 = 1, EG0 of `01 0000` = `010` = 1, then a
     * read past the end (fails), then read(3) of the 3 bits left */
    const rsv_diff_step script[] = {
        {RSV_DOP_READ, 3, 0}, {RSV_DOP_READ_EG0, 0, 0}, {RSV_DOP_READ, 13, 0}, {RSV_DOP_READ, 3, 0}};
    rsv_diff_script(&t, script, 4);
    cr_assert_eq(d.mismatches, 0, "%s", rsv_diff_first(&d));
    cr_assert_eq(d.ops, 4);
    cr_assert_eq(log.before, 4);
    cr_assert_eq(log.after, 4);
    cr_assert_eq(t.p, 9, "read 3 + EG0 3 + failed read + read 3 = 9 bits");
    rsv_diff_check_outcome(&t, RSV_DOP_READ, 1, 9, RSV_OK, 0, 9, res(RSV_ERR_TRUNCATED_FIELD, 0, 9));
    cr_assert_eq(log.mismatches, 1);
    cr_assert(strstr(log.first, "SUCCESS/FAILURE MISMATCH") != NULL, "%s", log.first);
}
