/* reservoir oracle — merge of KV03 files (KV03.md §11.2): newest binding wins
 * per logical key (code, key), optional drop-tombstones, output = the batch
 * writer applied to the merged record list with the inputs' common policy.
 *
 * Validation (documented in oracle_kv03.h and oracle_kv03_v2.h): all inputs
 * are opened (§9.1) in order, then policy agreement (revision 1 also: one C0
 * among non-empty inputs; revision 2: every m >= 2 input's dictionary (§6.3),
 * then a prefix-free union of the dictionaries), then every input is walked
 * (§3.3 + terminal) in order; the first failure wins. CRCs, gaps, padding, EF
 * canonicity, section-6 endpoints (m <= 1), unused codes and cw canonicity
 * are not checked. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int policy_equal(const rsv_oracle_kv03_policy *a, const rsv_oracle_kv03_policy *b)
{
    return a->bs_kind == b->bs_kind && a->bs_param == b->bs_param && a->W == b->W &&
           a->K == b->K;
}

static rsv_status mfail_from(rsv_oracle_merge_result *res, size_t input,
                             const rsv_oracle_kv03_result *d)
{
    res->status = d->status;
    res->input = input;
    res->phase = d->phase;
    res->step = d->step;
    res->record = d->record;
    res->bitpos = d->bitpos;
    return d->status;
}

static rsv_status mfail(rsv_oracle_merge_result *res, rsv_status st, size_t input)
{
    res->status = st;
    res->input = input;
    return st;
}

static void free_all(rsv_oracle_kv03_v2_result *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        rsv_oracle_kv03_v2_result_free(&r[i]);
    free(r);
}

static rsv_oracle_code section5_code(const rsv_oracle_kv03_result *d)
{
    rsv_oracle_code c = {d->c0, d->c0_bits};
    return c;
}

/* Revision 2: 1 iff a code of input i clashes (a prefix, not equal) with a
 * code of an earlier input. */
static int union_clash(const rsv_oracle_kv03_v2_result *d, size_t i)
{
    for (uint64_t x = 0; x < d[i].dict.m; x++)
        for (size_t k = 0; k < i; k++)
            for (uint64_t y = 0; y < d[k].dict.m; y++) {
                rsv_oracle_code a = d[i].dict.codes[x], b = d[k].dict.codes[y];
                if (!ob_code_equal(a, b) && (ob_code_is_prefix(a, b) || ob_code_is_prefix(b, a)))
                    return 1;
            }
    return 0;
}

static rsv_status merge(const rsv_oracle_bytes *inputs, size_t ninputs, int drop_tombstones,
                        int revision, rsv_oracle_merge_result *res)
{
    if (res == NULL)
        return RSV_ERR_INVALID_ARGUMENT;
    memset(res, 0, sizeof *res);
    res->input = SIZE_MAX;
    /* 1. fewer than two inputs -> INVALID_ARGUMENT */
    if (inputs == NULL || ninputs < 2)
        return mfail(res, RSV_ERR_INVALID_ARGUMENT, SIZE_MAX);
    for (size_t i = 0; i < ninputs; i++)
        if (inputs[i].data == NULL && inputs[i].size > 0)
            return mfail(res, RSV_ERR_INVALID_ARGUMENT, SIZE_MAX);
    rsv_oracle_kv03_v2_result *d = calloc(ninputs, sizeof *d);
    if (d == NULL)
        return mfail(res, RSV_ERR_NOMEM, SIZE_MAX);
    rsv_status st;

    /* 2. open every input in order (§9.1, no expected policy). */
    for (size_t i = 0; i < ninputs; i++) {
        st = ob_kv03_decode(inputs[i].data, inputs[i].size, NULL, RSV_ORACLE_KV03_OPEN, revision,
                            &d[i].base, &d[i].dict, NULL);
        if (st != RSV_OK) {
            mfail_from(res, i, &d[i].base);
            free_all(d, ninputs);
            return st;
        }
        st = ob_kv03_load_c0(inputs[i].data, &d[i].base);
        if (st != RSV_OK) {
            free_all(d, ninputs);
            return mfail(res, st, SIZE_MAX);
        }
    }

    /* 3. identical policy (B, W, K); revision 1: the same C0 among non-empty
     * inputs. */
    size_t first_nonempty = SIZE_MAX;
    for (size_t i = 0; i < ninputs; i++) {
        int bad = !policy_equal(&d[i].base.policy, &d[0].base.policy);
        if (revision == 1 && !bad && d[i].base.n_records > 0) {
            if (first_nonempty == SIZE_MAX)
                first_nonempty = i;
            else if (!ob_code_equal(section5_code(&d[i].base), section5_code(&d[first_nonempty].base)))
                bad = 1;
        }
        if (bad) {
            free_all(d, ninputs);
            return mfail(res, RSV_ERR_MERGE_MISMATCH, i);
        }
    }
    const rsv_oracle_kv03_policy policy = d[0].base.policy;

    if (revision == 2) {
        /* 4. every input's dictionary (§6.3 when m >= 2), in input order. */
        for (size_t i = 0; i < ninputs; i++) {
            st = ob_kv03_read_dict(inputs[i].data, &d[i].base, &d[i].dict);
            if (st != RSV_OK) {
                mfail_from(res, i, &d[i].base);
                free_all(d, ninputs);
                return st;
            }
        }
        /* 5. the union of the dictionaries must be prefix-free. */
        for (size_t i = 1; i < ninputs; i++) {
            if (union_clash(d, i)) {
                free_all(d, ninputs);
                return mfail(res, RSV_ERR_MERGE_MISMATCH, i);
            }
        }
    }

    /* 6. walk every input (§3.3 + terminal) in order. */
    for (size_t i = 0; i < ninputs; i++) {
        rsv_oracle_kv03_v2_result_free(&d[i]);
        memset(&d[i], 0, sizeof d[i]);
        st = ob_kv03_decode(inputs[i].data, inputs[i].size, NULL, RSV_ORACLE_KV03_WALK, revision,
                            &d[i].base, &d[i].dict, &d[i].code_index);
        if (st != RSV_OK) {
            mfail_from(res, i, &d[i].base);
            free_all(d, ninputs);
            return st;
        }
    }

    /* 7. merge: sorted union of logical keys; per logical key the newest
     * input's binding. */
    size_t total = 0;
    for (size_t i = 0; i < ninputs; i++)
        total += d[i].base.records.count;
    rsv_oracle_crecord *merged = malloc((total ? total : 1) * sizeof *merged);
    size_t *head = calloc(ninputs, sizeof *head);
    if (merged == NULL || head == NULL) {
        free(merged);
        free(head);
        free_all(d, ninputs);
        return mfail(res, RSV_ERR_NOMEM, SIZE_MAX);
    }
    size_t nout = 0;
    for (;;) {
        /* The smallest head; among inputs holding it, the newest wins. */
        rsv_oracle_crecord best;
        int have = 0;
        for (size_t i = 0; i < ninputs; i++) {
            if (head[i] == d[i].base.records.count)
                continue;
            rsv_oracle_crecord r;
            r.rec = d[i].base.records.items[head[i]];
            r.code = d[i].dict.codes[d[i].code_index[head[i]]];
            if (!have || rsv_oracle_logical_compare(&r, &best) <= 0) /* later input wins ties */
                best = r;
            have = 1;
        }
        if (!have)
            break;
        /* Consume one record from each input holding that logical key. */
        for (size_t i = 0; i < ninputs; i++) {
            if (head[i] == d[i].base.records.count)
                continue;
            rsv_oracle_crecord r;
            r.rec = d[i].base.records.items[head[i]];
            r.code = d[i].dict.codes[d[i].code_index[head[i]]];
            if (rsv_oracle_logical_compare(&r, &best) == 0)
                head[i]++;
        }
        if (drop_tombstones && best.rec.state == RSV_ORACLE_TOMBSTONE)
            continue;
        merged[nout++] = best;
    }
    free(head);

    /* 8. batch-encode with the common policy (an empty result -> the empty
     * file with that policy). */
    st = rsv_oracle_kv03_encode_v2(merged, nout, &policy, &res->out, &res->out_len, NULL);
    free(merged);
    free_all(d, ninputs);
    res->status = st;
    return st;
}

rsv_status rsv_oracle_kv03_merge(const rsv_oracle_bytes *inputs, size_t ninputs,
                                 int drop_tombstones, rsv_oracle_merge_result *res)
{
    return merge(inputs, ninputs, drop_tombstones, 1, res);
}

rsv_status rsv_oracle_kv03_merge_v2(const rsv_oracle_bytes *inputs, size_t ninputs,
                                    int drop_tombstones, rsv_oracle_merge_result *res)
{
    return merge(inputs, ninputs, drop_tombstones, 2, res);
}

void rsv_oracle_merge_result_free(rsv_oracle_merge_result *res)
{
    if (res == NULL)
        return;
    free(res->out);
    res->out = NULL;
    res->out_len = 0;
}
