/* rsv_kv03_writer_finish hands the writer's data buffer over as the file
 * (kv03.h): "reallocated to the file's size only when it is smaller than the
 * file or more than twice it: with a buffer_capacity of at least the file's
 * size and at most twice it, that step allocates nothing (and cannot fail
 * with RSV_ERR_NOMEM)". Both ends of that range, each from both sides, with
 * the next allocation armed to fail (fault.h). */
#include "fault.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "reservoir/oracle_kv03.h"

/* rsv_kv03_writer_finish with the next allocation armed to fail; *failed
 * says whether finish reached it. */
static rsv_status finish_armed(rsv_kv03_writer *w, uint8_t **out, size_t *n, int *failed)
{
    arm_alloc(0);
    rsv_status st = rsv_kv03_writer_finish(w, out, n);
    *failed = alloc_failed;
    disarm_alloc();
    return st;
}

/* kv03.h, rsv_kv03_writer_finish: the file is the writer's data buffer
 * itself, reallocated to the file's size only when that buffer is smaller
 * than the file or more than twice it. The §12.3 file of KV03.md is 360
 * bytes; the merge's size hint (rsv__kv03_writer_presize) grows the buffer to
 * the 288 bytes of header room + the hint + 8 bytes of store slack, checked
 * here through buffer_capacity. With a buffer of exactly 720 = 2 * 360 bytes
 * that step allocates nothing, and for §12.3's records nothing else in finish
 * does either (the block-offset table already has its extra slot): the next
 * allocation armed to fail is never reached and the file is §12.3's. One byte more (721) is more than twice
 * the file: finish shrinks the buffer, and that realloc failing is
 * RSV_ERR_NOMEM. Nothing leaks either way. */
Test(fault_alloc, memory_finish_keeps_a_buffer_of_at_most_twice_the_file)
{
    for (uint64_t extra = 0; extra <= 1; extra++) {
        rsv_kv03_policy p = rsv_kv03_policy_default();
        rsv_kv03_writer w;
        long live = live_blocks;
        cr_assert_eq(rsv_kv03_writer_init(&w, &p, NULL, 0), RSV_OK);
        cr_assert_eq(add_12(&w), RSV_OK);
        rsv_kv03_writer_stats s;
        rsv_kv03_writer_get_stats(&w, &s);
        cr_assert_lt(s.buffer_capacity, 720, "buffer of %llu bytes before the hint",
                     (unsigned long long)s.buffer_capacity);
        cr_assert_eq(rsv__kv03_writer_presize(&w, 720 - 288 - 8 + extra), RSV_OK);
        rsv_kv03_writer_get_stats(&w, &s);
        cr_assert_eq(s.buffer_capacity, 720 + extra, "buffer of %llu bytes, want %llu",
                     (unsigned long long)s.buffer_capacity, (unsigned long long)(720 + extra));
        uint8_t *out = NULL;
        size_t n = 0;
        int failed;
        rsv_status st = finish_armed(&w, &out, &n, &failed);
        if (extra == 0) {
            cr_assert(!failed, "finish allocated with a buffer of twice the file");
            cr_assert_eq(st, RSV_OK, "finish: %s", rsv_status_name(st));
            expect_file_12_3(out, n, "finish from a buffer of twice the file");
            free(out);
        } else {
            cr_assert(failed, "finish did not shrink a buffer of more than twice the file");
            cr_assert_eq(st, RSV_ERR_NOMEM, "finish with its shrink failed: %s", rsv_status_name(st));
        }
        rsv_kv03_writer_free(&w);
        cr_assert_eq(live_blocks, live, "%ld blocks not freed", live_blocks - live);
    }
}

/* The lower end: a buffer of exactly the file's size is kept, one byte less
 * must grow. §12.3's file (360 bytes) is smaller than the writer's first
 * buffer (512 bytes: buffer_capacity, checked), so this writes one record,
 * key "k" with a 300-byte value, whose file T comes from the oracle's
 * encoder (rsv_oracle_kv03_encode: EG0, W = K = 15, C0 = `0`, the codec's
 * defaults) and is larger than 512 bytes. The hint is given before the record
 * is added, so the buffer is exactly T or T - 1 bytes when finish runs
 * (buffer_capacity, checked). At T nothing is allocated and the file is the
 * oracle's; at T - 1 the grow is the armed allocation: RSV_ERR_NOMEM. */
Test(fault_alloc, memory_finish_keeps_a_buffer_of_exactly_the_file)
{
    uint8_t val[300];
    for (size_t i = 0; i < sizeof val; i++) val[i] = (uint8_t)(7 * i + 1);
    const rsv_oracle_record orec = {(const uint8_t *)"k", 1, RSV_ORACLE_PRESENT, val, sizeof val};
    const rsv_oracle_kv03_policy op = rsv_oracle_kv03_default_policy();
    static const uint8_t c0[1] = {0};
    uint8_t *want = NULL;
    size_t T = 0, bad = 0;
    cr_assert_eq(rsv_oracle_kv03_encode(&orec, 1, &op, c0, 1, &want, &T, &bad), RSV_OK);
    cr_assert_gt(T, 512, "the oracle's file of %zu bytes must exceed the first buffer", T);
    for (size_t cap = T - 1; cap <= T; cap++) {
        rsv_kv03_writer w;
        long live = live_blocks;
        init_default_writer(&w);
        cr_assert_eq(rsv__kv03_writer_presize(&w, cap - 288 - 8), RSV_OK);
        cr_assert_eq(rsv_kv03_writer_add(&w, "k", 1, rsv_value_present(val, sizeof val)), RSV_OK);
        rsv_kv03_writer_stats s;
        rsv_kv03_writer_get_stats(&w, &s);
        cr_assert_eq(s.buffer_capacity, cap, "buffer of %llu bytes, want %zu", (unsigned long long)s.buffer_capacity,
                     cap);
        uint8_t *out = NULL;
        size_t n = 0;
        int failed;
        rsv_status st = finish_armed(&w, &out, &n, &failed);
        if (cap == T) {
            cr_assert(!failed, "finish allocated with a buffer of exactly the file (%zu bytes)", T);
            cr_assert_eq(st, RSV_OK, "finish: %s", rsv_status_name(st));
            cr_assert_eq(n, T);
            cr_assert(memcmp(out, want, T) == 0, "not the oracle's file");
            free(out);
        } else {
            cr_assert(failed, "finish kept a buffer of %zu bytes for a %zu-byte file", cap, T);
            cr_assert_eq(st, RSV_ERR_NOMEM, "finish with its grow failed: %s", rsv_status_name(st));
        }
        rsv_kv03_writer_free(&w);
        cr_assert_eq(live_blocks, live, "%ld blocks not freed", live_blocks - live);
    }
    free(want);
}
