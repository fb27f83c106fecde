/* reservoir oracle — merge of KV03 files (KV03.md §11.2): newest binding wins,
 * optional drop-tombstones, output = the batch writer applied to the merged
 * record list with the inputs' common policy and C0.
 *
 * Validation (documented in oracle_kv03.h): all inputs are opened (§9.1) in
 * order, then policy / C0 agreement is checked, then every input is walked
 * (§3.3 + terminal) in order; the first failure wins. CRCs, gaps, padding,
 * EF canonicity, section-6 endpoints and cw canonicity are not checked. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int c0_equal(const rsv_oracle_kv03_result *a, const rsv_oracle_kv03_result *b)
{
    if (a->c0_bits != b->c0_bits)
        return 0;
    for (uint64_t j = 0; j < a->c0_bits; j++) /* compare the c code bits only */
        if (ob_key_bit(a->c0, j) != ob_key_bit(b->c0, j))
            return 0;
    return 1;
}

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

static void free_all(rsv_oracle_kv03_result *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        rsv_oracle_kv03_result_free(&r[i]);
    free(r);
}

rsv_status rsv_oracle_kv03_merge(const rsv_oracle_bytes *inputs, size_t ninputs,
                                 int drop_tombstones, rsv_oracle_merge_result *res)
{
    if (res == NULL)
        return RSV_ERR_INVALID_ARGUMENT;
    memset(res, 0, sizeof *res);
    res->input = SIZE_MAX;
    /* 1. fewer than two inputs -> INVALID_ARGUMENT */
    if (inputs == NULL || ninputs < 2) {
        res->status = RSV_ERR_INVALID_ARGUMENT;
        return res->status;
    }
    for (size_t i = 0; i < ninputs; i++) {
        if (inputs[i].data == NULL && inputs[i].size > 0) {
            res->status = RSV_ERR_INVALID_ARGUMENT;
            return res->status;
        }
    }
    rsv_oracle_kv03_result *d = calloc(ninputs, sizeof *d);
    if (d == NULL) {
        res->status = RSV_ERR_NOMEM;
        return res->status;
    }
    rsv_status st;

    /* 2. open every input in order (§9.1, no expected policy). */
    for (size_t i = 0; i < ninputs; i++) {
        st = rsv_oracle_kv03_decode(inputs[i].data, inputs[i].size, NULL, RSV_ORACLE_KV03_OPEN,
                                    &d[i]);
        if (st != RSV_OK) {
            mfail_from(res, i, &d[i]);
            free_all(d, ninputs);
            return st;
        }
        st = ob_kv03_load_c0(inputs[i].data, &d[i]);
        if (st != RSV_OK) {
            res->status = st;
            free_all(d, ninputs);
            return st;
        }
    }

    /* 3. identical policy (B, W, K); same C0 among non-empty inputs. */
    size_t first_nonempty = SIZE_MAX;
    for (size_t i = 0; i < ninputs; i++) {
        int bad = !policy_equal(&d[i].policy, &d[0].policy);
        if (!bad && d[i].n_records > 0) {
            if (first_nonempty == SIZE_MAX)
                first_nonempty = i;
            else if (!c0_equal(&d[i], &d[first_nonempty]))
                bad = 1;
        }
        if (bad) {
            res->status = RSV_ERR_MERGE_MISMATCH;
            res->input = i;
            free_all(d, ninputs);
            return res->status;
        }
    }
    const rsv_oracle_kv03_policy policy = d[0].policy;

    /* 4. walk every input (§3.3 + terminal) in order. */
    for (size_t i = 0; i < ninputs; i++) {
        rsv_oracle_kv03_result_free(&d[i]);
        st = rsv_oracle_kv03_decode(inputs[i].data, inputs[i].size, NULL, RSV_ORACLE_KV03_WALK,
                                    &d[i]);
        if (st != RSV_OK) {
            mfail_from(res, i, &d[i]);
            free_all(d, ninputs);
            return st;
        }
    }

    /* 5. merge: sorted union; per key the newest input's binding. */
    size_t total = 0;
    for (size_t i = 0; i < ninputs; i++)
        total += d[i].records.count;
    rsv_oracle_record *merged = malloc((total ? total : 1) * sizeof *merged);
    size_t *head = calloc(ninputs, sizeof *head);
    if (merged == NULL || head == NULL) {
        free(merged);
        free(head);
        free_all(d, ninputs);
        res->status = RSV_ERR_NOMEM;
        return res->status;
    }
    size_t nout = 0;
    for (;;) {
        /* The smallest head key; among inputs holding it, the newest wins. */
        const rsv_oracle_record *best = NULL;
        for (size_t i = 0; i < ninputs; i++) {
            if (head[i] == d[i].records.count)
                continue;
            const rsv_oracle_record *r = &d[i].records.items[head[i]];
            if (best == NULL)
                best = r;
            else {
                int cmp = rsv_oracle_key_compare(r->key, r->key_len, best->key, best->key_len);
                if (cmp <= 0) /* later (newer) input wins ties */
                    best = r;
            }
        }
        if (best == NULL)
            break;
        const rsv_oracle_record chosen = *best;
        /* Consume one record from each input holding that key. */
        for (size_t i = 0; i < ninputs; i++) {
            if (head[i] == d[i].records.count)
                continue;
            const rsv_oracle_record *r = &d[i].records.items[head[i]];
            if (rsv_oracle_key_compare(r->key, r->key_len, chosen.key, chosen.key_len) == 0)
                head[i]++;
        }
        if (drop_tombstones && chosen.state == RSV_ORACLE_TOMBSTONE)
            continue;
        merged[nout++] = chosen;
    }
    free(head);

    /* 6. batch-encode with the common policy and C0 (empty output -> the
     * empty file with that policy). */
    const uint8_t *c0 = first_nonempty != SIZE_MAX ? d[first_nonempty].c0 : NULL;
    uint64_t c0_bits = first_nonempty != SIZE_MAX ? d[first_nonempty].c0_bits : 0;
    if (nout == 0) {
        c0 = NULL;
        c0_bits = 0;
    }
    st = rsv_oracle_kv03_encode(merged, nout, &policy, c0, c0_bits, &res->out, &res->out_len,
                                NULL);
    free(merged);
    free_all(d, ninputs);
    res->status = st;
    return st;
}

void rsv_oracle_merge_result_free(rsv_oracle_merge_result *res)
{
    if (res == NULL)
        return;
    free(res->out);
    res->out = NULL;
    res->out_len = 0;
}
