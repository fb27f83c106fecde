/* KV03 merges across code sets (KV03.md §11.2, §12.5, format revision v2):
 * the §12.5 merges give exactly the spec's file (hex dump read from the
 * spec), in memory and streamed to a path; drop-tombstones results and the
 * removal of a code; inputs with different single codes merge; the init
 * checks in their order (policy, dictionaries, prefix-free union) with the
 * failing input; control codes too long for the writer's fast path.
 * Expected outputs are the spec's bytes or the oracle's v2 batch encoding
 * of the expected record list; merge inputs are encoded by the oracle too. */
#define _DEFAULT_SOURCE /* mkdtemp */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reservoir/kv03.h"
#include "reservoir/merge.h"
#include "../codec/src/merge_state.h" /* the merge's private state (its output writer) */

#include "kv03_v2_util.h"

static const rsv_kv03_policy P33 = {RSV_BACKSPACE_EG, 0, 3, 3};

typedef struct blob {
    uint8_t *b;
    size_t n;
} blob;

/* The oracle's encoding of records idx[0..k) of the §12.5 list. */
static blob input_of(const size_t *idx, size_t k, const rsv_kv03_policy *p)
{
    rsv_record r[6];
    for (size_t i = 0; i < k; i++) r[i] = v2_recs_12_5()[idx[i]];
    blob x;
    cr_assert_eq(v2_oracle_encode(r, k, p, &x.b, &x.n), RSV_OK);
    return x;
}

/* One assertion at the first differing byte (outputs run to 32 MiB). */
static void expect_bytes(const uint8_t *got, size_t ngot, const uint8_t *want, size_t nwant)
{
    cr_assert_eq(ngot, nwant, "length %zu, want %zu", ngot, nwant);
    size_t i = 0;
    while (i < nwant && got[i] == want[i]) i++;
    cr_assert_eq(i, nwant, "byte %zu: got %02x want %02x", i, i < nwant ? got[i] : 0, i < nwant ? want[i] : 0);
}

/* Merge blobs (oldest first) in memory; returns the status, output in *out. */
static rsv_status merge(const blob *in, size_t n, unsigned flags, blob *out, rsv_merge *keep)
{
    rsv_kv03_file f[4];
    const rsv_kv03_file *pf[4];
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(rsv_kv03_open(in[i].b, in[i].n, NULL, &f[i]), RSV_OK, "open input %zu", i);
        pf[i] = &f[i];
    }
    rsv_merge m;
    rsv_status st = rsv_merge_init(&m, pf, n, flags);
    if (!st) st = rsv_merge_run(&m);
    if (!st) st = rsv_merge_finish(&m, &out->b, &out->n);
    if (keep) *keep = m;
    rsv_merge_free(&m);
    return st;
}

static blob spec_12_5(void)
{
    blob x;
    cr_assert_eq(rsv_spec_hexdump("12.5", &x.b, &x.n), 0);
    cr_assert_eq(x.n, 377);
    return x;
}

Test(kv03_v2_merge, merge_12_5_inputs_give_the_12_5_file)
{
    const size_t ia[3] = {0, 1, 3}, ib[3] = {2, 4, 5};
    blob in[2] = {input_of(ia, 3, &P33), input_of(ib, 3, &P33)};
    cr_assert_eq(in[0].n, 369); /* §12.5: 369 and 361 bytes */
    cr_assert_eq(in[1].n, 361);
    blob want = spec_12_5(), out;
    cr_assert_eq(merge(in, 2, 0, &out, NULL), RSV_OK);
    expect_bytes(out.b, out.n, want.b, want.n);
    free(out.b);
    /* no shared keys: either order gives the same file */
    blob sw[2] = {in[1], in[0]};
    cr_assert_eq(merge(sw, 2, 0, &out, NULL), RSV_OK);
    expect_bytes(out.b, out.n, want.b, want.n);
    free(out.b);

    /* streamed to a path (flushing at every record) */
    char dir[] = "/tmp/rsv_v2m_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/m.kv", dir);
    rsv_kv03_file f[2];
    const rsv_kv03_file *pf[2] = {&f[0], &f[1]};
    for (int i = 0; i < 2; i++) cr_assert_eq(rsv_kv03_open(in[i].b, in[i].n, NULL, &f[i]), RSV_OK);
    rsv_merge m;
    cr_assert_eq(rsv_merge_init_path(&m, pf, 2, 0, path), RSV_OK);
    cr_assert_eq(rsv_kv03_writer_set_flush_bytes(&rsv__merge_of(&m)->out, 1), RSV_OK);
    cr_assert_eq(rsv_merge_run(&m), RSV_OK);
    cr_assert_eq(rsv_merge_commit(&m), RSV_OK);
    rsv_merge_free(&m);
    FILE *fp = fopen(path, "rb");
    cr_assert_not_null(fp);
    uint8_t buf[512];
    size_t got = fread(buf, 1, sizeof buf, fp);
    fclose(fp);
    expect_bytes(buf, got, want.b, want.n);
    unlink(path);
    rmdir(dir);
    free(want.b);
    free(in[0].b);
    free(in[1].b);
}

Test(kv03_v2_merge, drop_tombstones_12_5)
{
    const size_t ia[3] = {0, 1, 3}, ib[3] = {2, 4, 5}, keep[4] = {0, 2, 3, 5};
    blob in[2] = {input_of(ia, 3, &P33), input_of(ib, 3, &P33)};
    blob want = input_of(keep, 4, &P33), out;
    cr_assert_eq(merge(in, 2, RSV_MERGE_DROP_TOMBSTONES, &out, NULL), RSV_OK);
    expect_bytes(out.b, out.n, want.b, want.n);
    free(out.b);
    free(want.b);
    free(in[0].b);
    free(in[1].b);
}

/* §12.5 file + a newer file holding only `10` ""→⊥, drop-tombstones: `10`
 * leaves the dictionary (m = 2: `0`, `11`) with records 0, 3, 5 left. */
Test(kv03_v2_merge, drop_tombstones_removes_a_code)
{
    rsv_record newer = v2_recs_12_5()[2];
    newer.value = rsv_value_tombstone();
    blob in[2] = {spec_12_5(), {NULL, 0}};
    cr_assert_eq(v2_oracle_encode(&newer, 1, &P33, &in[1].b, &in[1].n), RSV_OK);
    const size_t keep[3] = {0, 3, 5};
    blob want = input_of(keep, 3, &P33), out;
    cr_assert_eq(merge(in, 2, RSV_MERGE_DROP_TOMBSTONES, &out, NULL), RSV_OK);
    expect_bytes(out.b, out.n, want.b, want.n);
    /* the dictionary, read directly: 3 bits `0 11` = byte 60, offsets [0, 1, 3] */
    rsv_kv03_file f;
    cr_assert_eq(rsv_kv03_open(out.b, out.n, NULL, &f), RSV_OK);
    cr_assert_eq(f.m, 2);
    cr_assert_eq(f.dict_bits, 3);
    cr_assert_eq(out.b[96 + f.sec_off[5]], 0x60);
    cr_assert_eq(out.b[96 + f.sec_off[6] + 16], 3);
    /* without dropping, the newer tombstone replaces `10` ""→"" and stays */
    free(out.b);
    cr_assert_eq(merge(in, 2, 0, &out, NULL), RSV_OK);
    rsv_record all[6];
    memcpy(all, v2_recs_12_5(), sizeof all);
    all[2].value = rsv_value_tombstone();
    free(want.b);
    cr_assert_eq(v2_oracle_encode(all, 6, &P33, &want.b, &want.n), RSV_OK);
    expect_bytes(out.b, out.n, want.b, want.n);
    free(out.b);
    free(want.b);
    free(in[0].b);
    free(in[1].b);
}

static const uint8_t B0[1] = {0x00}, B1[1] = {0x80}, B01[1] = {0x40};

/* The merge writes a record through the writer's word-at-a-time fast path
 * only when its control code (EG0 of R at a block start, else EG(k) of the
 * backspace, KV03.md §3.2) has a quotient of at most 2^28 - 2 (kv03_writer.c,
 * control_word); a longer one must take the field-by-field path, which
 * writes the whole code. Key A = 2^25 + 1 bytes of 'a' (2^28 + 8 bits).
 *  - policy EG0, W = 15: A then "b" (lcp 6 bits: 'a' = 01100001, 'b' =
 *    01100010), so record 1's backspace is 2^28 + 8 - 6 = 2^28 + 2;
 *  - policy EG0, W = 1: A then A + "b", so record 1 starts a block with
 *    R = 1 (the code) + 2^28 + 8.
 * Merging the oracle's file with itself (both inputs hold the same
 * records) must give exactly that file. */
Test(kv03_v2_merge, control_codes_past_the_fast_paths_limit)
{
    const size_t na = ((size_t)1 << 25) + 1;
    uint8_t *a = malloc(na + 1);
    cr_assert_not_null(a);
    memset(a, 'a', na);
    a[na] = 'b';
    for (int pass = 0; pass < 2; pass++) {
        rsv_kv03_policy p = {RSV_BACKSPACE_EG, 0, pass ? 1 : 15, 15};
        rsv_record r[2] = {{a, na, rsv_value_present("x", 1), NULL, 0},
                           {pass ? a : (const uint8_t *)"b", pass ? na + 1 : 1, rsv_value_tombstone(), NULL, 0}};
        blob in[2], out;
        cr_assert_eq(v2_oracle_encode(r, 2, &p, &in[0].b, &in[0].n), RSV_OK);
        in[1] = in[0];
        cr_assert_eq(merge(in, 2, 0, &out, NULL), RSV_OK, "W = %u", (unsigned)p.W);
        expect_bytes(out.b, out.n, in[0].b, in[0].n);
        free(out.b);
        free(in[0].b);
    }
    free(a);
}

/* Inputs coded `0` and `1` (v1: MERGE_MISMATCH) merge into a two-code file;
 * a key present under both codes stays twice (different logical keys), a
 * key present twice under one code takes the newest binding. */
Test(kv03_v2_merge, different_single_codes_merge)
{
    rsv_kv03_policy p = {RSV_BACKSPACE_EG, 0, 2, 3};
    rsv_record a[3] = {{(const uint8_t *)"a", 1, rsv_value_present("old", 3), B0, 1},
                       {(const uint8_t *)"b", 1, rsv_value_tombstone(), B0, 1},
                       {(const uint8_t *)"c", 1, rsv_value_present("c0", 2), B0, 1}};
    rsv_record b[3] = {{(const uint8_t *)"", 0, rsv_value_present("e", 1), B1, 1},
                       {(const uint8_t *)"a", 1, rsv_value_present("new", 3), B1, 1},
                       {(const uint8_t *)"z", 1, rsv_value_tombstone(), B1, 1}};
    rsv_record c[1] = {{(const uint8_t *)"a", 1, rsv_value_present("newest", 6), B0, 1}};
    blob in[3];
    cr_assert_eq(v2_oracle_encode(a, 3, &p, &in[0].b, &in[0].n), RSV_OK);
    cr_assert_eq(v2_oracle_encode(b, 3, &p, &in[1].b, &in[1].n), RSV_OK);
    cr_assert_eq(v2_oracle_encode(c, 1, &p, &in[2].b, &in[2].n), RSV_OK);
    rsv_record all[6] = {c[0], a[1], a[2], b[0], b[1], b[2]};
    blob want, out;
    cr_assert_eq(v2_oracle_encode(all, 6, &p, &want.b, &want.n), RSV_OK);
    cr_assert_eq(merge(in, 3, 0, &out, NULL), RSV_OK);
    expect_bytes(out.b, out.n, want.b, want.n);
    free(out.b);
    free(want.b);
    rsv_record kept[4] = {c[0], a[2], b[0], b[1]};
    cr_assert_eq(v2_oracle_encode(kept, 4, &p, &want.b, &want.n), RSV_OK);
    cr_assert_eq(merge(in, 3, RSV_MERGE_DROP_TOMBSTONES, &out, NULL), RSV_OK);
    expect_bytes(out.b, out.n, want.b, want.n);
    free(out.b);
    free(want.b);
    for (int i = 0; i < 3; i++) free(in[i].b);
}

static void expect_init_failure(const blob *in, size_t n, rsv_status want, size_t input)
{
    blob out = {NULL, 0};
    rsv_merge m;
    rsv_status st = merge(in, n, 0, &out, &m);
    cr_assert_eq(st, want, "status %d, want %d", st, want);
    cr_assert_eq(rsv_merge_failed_input(&m), input, "failed input %zu, want %zu", rsv_merge_failed_input(&m), input);
    /* merge.h: an init failure is at record 0, bit 0 */
    rsv_kv03_diag dg = rsv_merge_diag(&m);
    cr_assert_eq(dg.status, want);
    cr_assert_eq(dg.record, 0, "record %llu", (unsigned long long)dg.record);
    cr_assert_eq(dg.bit, 0, "bit %llu", (unsigned long long)dg.bit);
    cr_assert_null(out.b);
}

Test(kv03_v2_merge, union_not_prefix_free)
{
    rsv_record r0 = {(const uint8_t *)"a", 1, rsv_value_tombstone(), B0, 1};
    rsv_record r01 = {(const uint8_t *)"a", 1, rsv_value_tombstone(), B01, 2};
    rsv_record r1 = {(const uint8_t *)"a", 1, rsv_value_tombstone(), B1, 1};
    rsv_record re = {(const uint8_t *)"a", 1, rsv_value_tombstone(), B1, 0}; /* the empty code */
    blob c0, c01, c1, ce, s = spec_12_5(), empty;
    cr_assert_eq(v2_oracle_encode(&r0, 1, &P33, &c0.b, &c0.n), RSV_OK);
    cr_assert_eq(v2_oracle_encode(&r01, 1, &P33, &c01.b, &c01.n), RSV_OK);
    cr_assert_eq(v2_oracle_encode(&r1, 1, &P33, &c1.b, &c1.n), RSV_OK);
    cr_assert_eq(v2_oracle_encode(&re, 1, &P33, &ce.b, &ce.n), RSV_OK);
    cr_assert_eq(v2_oracle_encode(NULL, 0, &P33, &empty.b, &empty.n), RSV_OK);
    /* `0` and `01` */
    blob a[2] = {c0, c01};
    expect_init_failure(a, 2, RSV_ERR_MERGE_MISMATCH, 1);
    /* the empty code beside `1` (an empty input in front contributes nothing) */
    blob b[3] = {empty, ce, c1};
    expect_init_failure(b, 3, RSV_ERR_MERGE_MISMATCH, 2);
    /* {0, 10, 11} (§12.5) and `1`: `1` is a prefix of `10`; then `01` after
     * them: the first conflicting input is still input 1 */
    blob c[3] = {s, c1, c01};
    expect_init_failure(c, 3, RSV_ERR_MERGE_MISMATCH, 1);
    blob d[3] = {c1, c0, s}; /* `1` and `0` agree; §12.5's `10` conflicts with `1` */
    expect_init_failure(d, 3, RSV_ERR_MERGE_MISMATCH, 2);
    /* the same codes in several inputs are no conflict */
    blob e[3] = {s, c0, s};
    blob out;
    cr_assert_eq(merge(e, 3, 0, &out, NULL), RSV_OK);
    free(out.b);
    free(c0.b), free(c01.b), free(c1.b), free(ce.b), free(s.b), free(empty.b);
}

/* Init order: policy mismatch first, then each m >= 2 dictionary in input
 * order (§6.3 statuses, e.g. §12.5's dictionary byte 58 → 68:
 * DICTIONARY_ORDER), then the union. */
Test(kv03_v2_merge, init_check_order)
{
    blob s = spec_12_5(), bad = spec_12_5(), other, c01;
    /* dictionary byte 58 → 68 (`0`, `11`, `01`): file offset 96 + 240 */
    cr_assert_eq(bad.b[96 + 240], 0x58);
    bad.b[96 + 240] = 0x68;
    cr_assert_eq(rsv_kv03_seal(bad.b, bad.n), RSV_OK);
    rsv_kv03_policy q = {RSV_BACKSPACE_EG, 0, 15, 15};
    rsv_record r = {(const uint8_t *)"a", 1, rsv_value_tombstone(), B0, 1};
    rsv_record r01 = {(const uint8_t *)"a", 1, rsv_value_tombstone(), B01, 2};
    cr_assert_eq(v2_oracle_encode(&r, 1, &q, &other.b, &other.n), RSV_OK);
    cr_assert_eq(v2_oracle_encode(&r01, 1, &P33, &c01.b, &c01.n), RSV_OK);
    blob a[3] = {bad, s, other}; /* policy mismatch of input 2 beats input 0's dictionary */
    expect_init_failure(a, 3, RSV_ERR_MERGE_MISMATCH, 2);
    blob b[3] = {c01, s, bad}; /* dictionary of input 2 beats the union conflict of input 1 */
    expect_init_failure(b, 3, RSV_ERR_DICTIONARY_ORDER, 2);
    blob c[2] = {s, bad};
    expect_init_failure(c, 2, RSV_ERR_DICTIONARY_ORDER, 1);
    /* input 0's dictionary is checked too, and first: offsets [0, 1, 1, 5]
     * (file byte 96 + 248 + 16 → 1) make input 2's DICTIONARY_SHAPE */
    blob shape = spec_12_5();
    shape.b[96 + 248 + 16] = 1;
    cr_assert_eq(rsv_kv03_seal(shape.b, shape.n), RSV_OK);
    blob d[3] = {bad, s, shape};
    expect_init_failure(d, 3, RSV_ERR_DICTIONARY_ORDER, 0);
    blob e[2] = {s, shape};
    expect_init_failure(e, 2, RSV_ERR_DICTIONARY_SHAPE, 1);
    free(s.b), free(bad.b), free(other.b), free(c01.b), free(shape.b);
}

/* §12.5 corruption table, cursor-walk column, seen through a merge (the
 * damaged file as input 1 after an empty input 0): status, failing input,
 * record and data-stream bit. */
static void corrupt_case(void (*edit)(uint8_t *), rsv_status want, uint64_t record, uint64_t bit)
{
    blob in[2] = {{NULL, 0}, spec_12_5()};
    cr_assert_eq(v2_oracle_encode(NULL, 0, &P33, &in[0].b, &in[0].n), RSV_OK);
    edit(in[1].b);
    cr_assert_eq(rsv_kv03_seal(in[1].b, in[1].n), RSV_OK);
    blob out = {NULL, 0};
    rsv_merge m;
    cr_assert_eq(merge(in, 2, 0, &out, &m), want);
    cr_assert_eq(rsv_merge_failed_input(&m), 1);
    cr_assert_eq(rsv_merge_diag(&m).record, record, "record %lu", (unsigned long)rsv_merge_diag(&m).record);
    cr_assert_eq(rsv_merge_diag(&m).bit, bit, "bit %lu", (unsigned long)rsv_merge_diag(&m).bit);
    free(in[0].b);
    free(in[1].b);
}

#define DATA 288 /* file offset of section 0 (body offset 192) */
static void flip56(uint8_t *f) { f[DATA + 7] ^= 0x80; }
static void flip62(uint8_t *f) { f[DATA + 7] ^= 0x02; }
static void seeds30(uint8_t *f) { f[96 + 280] = 0x30; }
static void offsets_0115(uint8_t *f) { f[96 + 248 + 16] = 1; }

Test(kv03_v2_merge, corrupt_multi_code_inputs)
{
    corrupt_case(flip56, RSV_ERR_SORT_TRANSITION, 2, 57);
    corrupt_case(flip62, RSV_ERR_PREFIX_CROSSES_CODE, 3, 66);
    corrupt_case(seeds30, RSV_ERR_SEED_RANGE, 3, 61);
    corrupt_case(offsets_0115, RSV_ERR_DICTIONARY_SHAPE, 0, 0);
}

/* seeds byte 20 → 10: the walk accepts records 3-5 under `10` (§12.5 table);
 * merging it with an empty file re-encodes exactly that list (m = 2). */
Test(kv03_v2_merge, seed_to_10_is_walked_under_10)
{
    blob in[2] = {spec_12_5(), {NULL, 0}};
    cr_assert_eq(v2_oracle_encode(NULL, 0, &P33, &in[1].b, &in[1].n), RSV_OK);
    in[0].b[96 + 280] = 0x10;
    cr_assert_eq(rsv_kv03_seal(in[0].b, in[0].n), RSV_OK);
    rsv_record r[6];
    memcpy(r, v2_recs_12_5(), sizeof r);
    for (int i = 3; i < 6; i++) r[i].code = V2_C10, r[i].code_bits = 2;
    blob want, out;
    cr_assert_eq(v2_oracle_encode(r, 6, &P33, &want.b, &want.n), RSV_OK);
    cr_assert_eq(merge(in, 2, 0, &out, NULL), RSV_OK);
    expect_bytes(out.b, out.n, want.b, want.n);
    free(out.b), free(want.b), free(in[0].b), free(in[1].b);
}
