/* The code union of a merge: every input code (m >= 2: D_0..D_{m-1}; m = 1:
 * C0 = section 5; N = 0: none) sorted by bit-string order with a bottom-up
 * merge sort, equal codes merged into one union index. In a sorted list a
 * code x is a prefix of exactly the codes in the run right after it (any
 * code between x and an extension of x extends x too), so scanning each
 * code's run finds every conflicting pair. */
#include <stdlib.h>
#include <string.h>

#include "reservoir/record.h"

#include "merge_codes.h"

typedef struct entry {
    rsv_view v;
    size_t input;
    size_t slot; /* position in m->code_map: the input's base + its dictionary index */
} entry;

static void sort_entries(entry *a, entry *tmp, size_t n)
{
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) tmp[k++] = rsv_view_compare(a[j].v, a[i].v) < 0 ? a[j++] : a[i++];
            while (i < mid) tmp[k++] = a[i++];
            while (j < hi) tmp[k++] = a[j++];
        }
        memcpy(a, tmp, n * sizeof *a);
    }
}

static uint64_t codes_of(const rsv_kv03_file *f) { return f->N == 0 ? 0 : f->m >= 2 ? f->m : 1; }

rsv_status rsv__merge_codes(rsv__merge *m, const rsv_kv03_file *const *inputs, size_t n, size_t *bad)
{
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) total += codes_of(inputs[i]);
    if (total > SIZE_MAX / sizeof(entry) / 2) return RSV_ERR_NOMEM;
    size_t t = (size_t)total ? (size_t)total : 1;
    /* one block: the union (at most t codes), then the index map (freed
     * through m->codes); the sort's entries on the stack for a few codes */
    entry small[2 * 8];
    entry *e = t <= 8 ? small : malloc(2 * t * sizeof *e);
    m->codes = malloc(t * (sizeof *m->codes + sizeof *m->code_map));
    if (!e || !m->codes) {
        if (e != small) free(e);
        return RSV_ERR_NOMEM;
    }
    m->code_map = (uint64_t *)(m->codes + t);
    size_t k = 0, base = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t c = codes_of(inputs[i]);
        m->heads[i].map = m->code_map + base;
        for (uint64_t j = 0; j < c; j++, k++) {
            rsv_kv03_code(inputs[i], j, &e[k].v); /* in range: dictionary checked */
            e[k].input = i;
            e[k].slot = k;
        }
        base += (size_t)c;
    }
    sort_entries(e, e + t, k);
    /* conflicts: x and each later code of its run of extensions; the failing
     * input of a pair is the later of the two inputs */
    size_t first_bad = n;
    for (size_t a = 0; a < k; a++) {
        for (size_t b = a + 1; b < k; b++) {
            uint64_t l;
            int cmp = rsv_view_lcp(e[a].v, e[b].v, &l);
            if (cmp == 0) continue; /* the same code in another input */
            if (l < e[a].v.len) break; /* e[b] does not extend e[a]: the run ends */
            size_t later = e[a].input > e[b].input ? e[a].input : e[b].input;
            if (later < first_bad) first_bad = later;
        }
    }
    if (first_bad < n) {
        if (e != small) free(e);
        *bad = first_bad;
        return RSV_ERR_MERGE_MISMATCH;
    }
    uint64_t g = 0;
    for (size_t a = 0; a < k; a++) {
        if (a > 0 && rsv_view_compare(e[a - 1].v, e[a].v) != 0) g++;
        m->codes[g] = e[a].v;
        m->code_map[e[a].slot] = g;
    }
    m->ncodes = k ? g + 1 : 0;
    if (e != small) free(e);
    return RSV_OK;
}
