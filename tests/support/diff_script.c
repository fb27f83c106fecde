/* The reader comparison engine's scripts and composite walks, built only
 * from the lockstep operations of diff.c (see diff.h). */
#include "diff.h"

rsv_status rsv_diff_apply(rsv_diff_run *t, const rsv_diff_step *s)
{
    switch (s->op) {
    case RSV_DOP_READ: return rsv_diff_read(t, s->param);
    case RSV_DOP_READ_BIT: return rsv_diff_read_bit(t);
    case RSV_DOP_READ_EG: return rsv_diff_read_eg(t, s->param);
    case RSV_DOP_READ_EG0: return rsv_diff_read_eg0(t);
    case RSV_DOP_GOLOMB: return rsv_diff_read_golomb(t, s->param);
    case RSV_DOP_GOLOMB_M: return rsv_diff_read_golomb_m(t, s->param);
    case RSV_DOP_TAKE: return rsv_diff_take(t, s->param);
    case RSV_DOP_SKIP: return rsv_diff_skip(t, s->param);
    case RSV_DOP_SEEK: return rsv_diff_seek(t, s->param);
    case RSV_DOP_READ_N: return rsv_diff_read_n(t, s->param, (size_t)s->count);
    case RSV_DOP_EG_N: return rsv_diff_read_eg_n(t, s->param, (size_t)s->count);
    case RSV_DOP_GOLOMB_N: return rsv_diff_read_golomb_n(t, s->param, (size_t)s->count);
    }
    rsv_diff_fail(t->d, "[%s] script step with unknown operation %d", t->suite ? t->suite : "?",
                  (int)s->op);
    return RSV_OK;
}

void rsv_diff_script(rsv_diff_run *t, const rsv_diff_step *s, size_t n)
{
    for (size_t i = 0; i < n; i++) (void)rsv_diff_apply(t, &s[i]);
}

static void zero_ops(rsv_diff_run *t)
{
    rsv_diff_read(t, 0);
    rsv_diff_take(t, 0);
    rsv_diff_skip(t, 0);
}

void rsv_diff_drain(rsv_diff_run *t)
{
    zero_ops(t);
    while (rsv_diff_read(t, 13) == RSV_OK) {
    }
    rsv_diff_read(t, t->v.len - t->p); /* < 13 after the failed read */
    zero_ops(t);
    rsv_diff_read(t, 1);
}

void rsv_diff_edge_ops(rsv_diff_run *t)
{
    rsv_diff_run y;
    y = *t; rsv_diff_read(&y, 0);
    y = *t; rsv_diff_take(&y, 0);
    y = *t; rsv_diff_skip(&y, 0);
    y = *t; rsv_diff_read(&y, 1);
    y = *t; rsv_diff_read_bit(&y);
    y = *t; rsv_diff_take(&y, 1);
    y = *t; rsv_diff_skip(&y, 1);
    y = *t; rsv_diff_read_eg0(&y);
    y = *t; rsv_diff_read_eg(&y, 63);
    y = *t; rsv_diff_read_golomb(&y, 1);
    y = *t; rsv_diff_read_golomb(&y, UINT64_MAX);
}

void rsv_diff_drain_code(rsv_diff_run *t, int golomb, uint64_t param)
{
    unsigned i = 0;
    while (t->p < t->v.len) {
        uint64_t before = t->p;
        /* Alternate the two entry points so both the inline decoder and its
         * sibling (eg0 / golomb_m) meet every tail situation. */
        if (golomb && (i & 1))
            rsv_diff_read_golomb_m(t, param);
        else if (golomb)
            rsv_diff_read_golomb(t, param);
        else if (param == 0 && (i & 1))
            rsv_diff_read_eg0(t);
        else
            rsv_diff_read_eg(t, param);
        i++;
        if (t->p <= before) {
            rsv_diff_fail(t->d, "[%s] %s(%llu) made no progress at p=%llu (view off=%llu len=%llu)",
                          t->suite ? t->suite : "?", golomb ? "golomb" : "eg",
                          (unsigned long long)param, (unsigned long long)before,
                          (unsigned long long)t->v.off, (unsigned long long)t->v.len);
            return;
        }
    }
    /* At p = len: nothing may be loaded, and the decode must fail. */
    if (golomb)
        rsv_diff_read_golomb(t, param);
    else
        rsv_diff_read_eg(t, param);
}
