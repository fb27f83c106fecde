/* NULL pointer arguments of the stream and merge API: RSV_ERR_INVALID_ARGUMENT
 * (docs/status-coverage.md: "API (NULL pointers)"), never a crash, and a NULL
 * object is never written. Each call passes exactly one NULL where the API
 * needs an object; the other arguments are valid, so the NULL check is the
 * only thing that can reject the call. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "reservoir/merge.h"
#include "reservoir/stream.h"

#include "kv03_vectors.h"

#define INVALID RSV_ERR_INVALID_ARGUMENT

Test(api_null, stream_reader)
{
    static const uint8_t bytes[1] = {0};
    rsv_view v = rsv_view_make(bytes, 0, 8);
    static const uint64_t ends[1] = {1};
    rsv_code_set set = {bytes, ends, 1};
    cr_assert_eq(rsv_stream_reader_init(NULL, v, NULL, 0), INVALID);
    cr_assert_eq(rsv_stream_reader_init_set(NULL, v, &set), INVALID);
    cr_assert_eq(rsv_stream_reader_reset(NULL, v, NULL, 0), INVALID);
    cr_assert_eq(rsv_stream_reader_reset_set(NULL, v, &set), INVALID);

    rsv_stream_reader sr;
    cr_assert_eq(rsv_stream_reader_init(&sr, v, NULL, 0), RSV_OK);
    rsv_stream_record rec;
    int more = 0;
    cr_assert_eq(rsv_stream_reader_next(NULL, &rec, &more), INVALID);
    cr_assert_eq(rsv_stream_reader_next(&sr, NULL, &more), INVALID);
    cr_assert_eq(rsv_stream_reader_next(&sr, &rec, NULL), INVALID);
    /* kv03.md: set = NULL is INVALID_ARGUMENT too (and poisons the reader) */
    cr_assert_eq(rsv_stream_reader_init_set(&sr, v, NULL), INVALID);
    rsv_stream_reader_free(&sr);
}

Test(api_null, stream_writer)
{
    rsv_writer out;
    rsv_writer_init(&out);
    rsv_stream_writer sw;
    cr_assert_eq(rsv_stream_writer_init(NULL, &out, NULL, 0), INVALID);
    cr_assert_eq(rsv_stream_writer_init(&sw, NULL, NULL, 0), INVALID);
    cr_assert_eq(rsv_stream_writer_add(NULL, "a", 1, rsv_value_tombstone()), INVALID);
    cr_assert_eq(rsv_stream_writer_add_coded(NULL, NULL, 0, "a", 1, rsv_value_tombstone()), INVALID);
    rsv_writer_free(&out);
}

Test(api_null, merge)
{
    rsv_kv03_file a, b;
    cr_assert_eq(rsv_kv03_open(FILE_12_3, 360, NULL, &a), RSV_OK);
    cr_assert_eq(rsv_kv03_open(FILE_12_3, 360, NULL, &b), RSV_OK);
    const rsv_kv03_file *in[2] = {&a, &b};
    int done = 0;
    uint8_t *out = NULL;
    size_t n = 0;
    cr_assert_eq(rsv_merge_init(NULL, in, 2, 0), INVALID);
    cr_assert_eq(rsv_merge_step(NULL, &done), INVALID);
    cr_assert_eq(rsv_merge_finish(NULL, &out, &n), INVALID);
    cr_assert_eq(rsv_merge_finish_path(NULL, "/nonexistent/x.kv"), INVALID);
    cr_assert_eq(rsv_merge_commit(NULL), INVALID);

    rsv_merge m;
    cr_assert_eq(rsv_merge_init(&m, in, 2, 0), RSV_OK);
    cr_assert_eq(rsv_merge_step(&m, NULL), INVALID);
    cr_assert_eq(rsv_merge_run(&m), RSV_OK);
    cr_assert_eq(rsv_merge_finish(&m, NULL, &n), INVALID);
    cr_assert_eq(rsv_merge_finish(&m, &out, NULL), INVALID);
    cr_assert_eq(rsv_merge_finish_path(&m, NULL), INVALID);
    cr_assert_null(out);
    rsv_merge_free(&m);
    rsv_kv03_close(&a);
    rsv_kv03_close(&b);
}
