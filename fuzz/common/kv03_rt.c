/* The round-trip targets' input (kv03_rt.h). */
#include "kv03_rt.h"

#include <stdlib.h>

void rsv_kvf_rt_read(rsv_fuzz_producer *in, rsv_kvf_rt *t)
{
    t->flags = rsv_fuzz_u8(in);
    int raw_order = (t->flags & 7u) == 7u;
    t->multi = (t->flags >> 3) & 1u;
    rsv_kvf_gen_policy(in, &t->pol);
    rsv_kvf_gen_code(in, &t->code);
    rsv_kvf_gen_records_max(in, !raw_order, RSV_KVF_CAP_MAX, &t->r);
    if (t->multi) {
        rsv_kvf_gen_code_set(in, 0, &t->set);
        rsv_kvf_recs_cap(&t->r, rsv_kvf_set_max_bits(&t->set)); /* a bulk list: kv03_fuzz.h */
        rsv_kvf_assign_codes(in, &t->set, !raw_order, &t->r);
    } else {
        /* the oracle's decoders compare C0 || K bit by bit per record: a bulk
         * list with a long C0 is capped alike (kv03_fuzz.h) */
        rsv_kvf_recs_cap(&t->r, t->code.bits);
        rsv_kvf_set_single(&t->code, &t->set);
    }
}

void rsv_kvf_rt_free(rsv_kvf_rt *t)
{
    rsv_kvf_recs_free(&t->r);
}

rsv_oracle_crecord *rsv_kvf_rt_crecords(const rsv_kvf_rt *t)
{
    rsv_oracle_crecord *c = calloc(t->r.n + 1, sizeof *c);
    if (!c) abort();
    rsv_kvf_crecords(&t->r, c);
    return c;
}
