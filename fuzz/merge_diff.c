/* Fuzz target merge_diff: 2-4 KV03 files built from one key pool, merged by
 * the codec (rsv_merge_*) and by the oracle (rsv_oracle_kv03_merge_v2): same
 * status and byte-identical output (§11.2: the output equals the batch
 * encoding of the merged list).
 *
 * Input (consumption order from the end, common/kv03_fuzz.h for the pieces):
 *   u8 flags: bits 0-1 -> 2 + (x % 3) inputs; bit 2 -> drop tombstones;
 *             bits 3-5 -> mode: 0-4 plain, 5 one input gets another policy,
 *             6 one input gets another selector code (format revision v2:
 *             they merge while the union stays prefix-free), 7 one input
 *             gets a flipped data-stream bit (a §3.3 walk error or other records);
 *             bit 6 -> multi-code inputs (format revision v2, below)
 *   policy, code, a record list (the key pool)
 *   bit 6 only: a prefix-free code set (common/kv03_codes.h: 2-16 codes of
 *             1-12 bits, sometimes one of 65-128 bits), per pool record a u8
 *             choosing its code (the pool is then in logical-key order), and
 *             u8 t: when t % (m + 1) < m, every record of code t % (m + 1) is
 *             a tombstone in every input (with drop tombstones the output
 *             loses that code). Each input's dictionary is the set of codes
 *             its records use, so inputs have different code sets. Mode 6
 *             then replaces, in the victim input only, code how % m by that
 *             code plus the bit (how >> 1) & 1 (how odd) or minus its last
 *             bit (how even): the union is not prefix-free
 *             (MERGE_MISMATCH) when another input uses the old code, and a
 *             shortened code may make the victim's own set invalid (then
 *             there is nothing to merge);
 *   per input: u64 mask (pool key i is in the input iff bit i % 64), u8 vsel
 *             (value of key i in input j: tombstone if bit (i + j) % 8 of vsel,
 *             else present with (i + j) % 3 bytes {j, i, 0x5a}: the three
 *             states, different in every input so newest-wins is visible)
 *   mode 5-7: u8 victim input, u8/u16 details (see below).
 * Compared by the comparison engine (rsv_kv03d_merge, tests/support/
 * kv03_diff.h, with RSV_KV03D_ONE_BAD_INPUT): status, output bytes; for
 * input errors the failing input and, for §3.3 walk errors, the record index
 * and data-stream bit (the engine maps TERMINAL_MISMATCH's record); a merge
 * step after a failure returns POISONED. Only one input is ever corrupted:
 * the codec walks its inputs interleaved and the oracle one after the
 * other, so with two bad inputs the first error found may legitimately
 * differ. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data_producer.h"
#include "kv03_codes.h"
#include "kv03_diff.h"
#include "kv03_fuzz.h"
#include "reservoir/kv03.h"
#include "reservoir/oracle_kv03.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define T "merge_diff"
#define MAX_INPUTS 4

static const char *sn(rsv_status s) { return rsv_status_name((int)s); }

/* Input j's records: the pool keys its mask selects, values per j. */
static void build_input(const rsv_kvf_recs *pool, uint64_t mask, uint8_t vsel, size_t j,
                        rsv_oracle_crecord *cout, uint8_t (*vbytes)[3], size_t *n)
{
    size_t k = 0;
    rsv_oracle_crecord *all = calloc(pool->n + 1, sizeof *all);
    if (!all) abort();
    rsv_kvf_crecords(pool, all);
    for (size_t i = 0; i < pool->n; i++) {
        if (!((mask >> (i % 64)) & 1u)) continue;
        cout[k] = all[i];
        rsv_oracle_record *out = &cout[k].rec;
        vbytes[k][0] = (uint8_t)j;
        vbytes[k][1] = (uint8_t)i;
        vbytes[k][2] = 0x5a;
        if ((vsel >> ((i + j) % 8)) & 1u) {
            out->state = RSV_ORACLE_TOMBSTONE;
            out->value = NULL;
            out->value_len = 0;
        } else {
            out->state = RSV_ORACLE_PRESENT;
            out->value = vbytes[k];
            out->value_len = (i + j) % 3;
        }
        k++;
    }
    free(all);
    *n = k;
}

/* Index in s of the code c points at (codes are s's own buffers). */
static size_t code_of(const rsv_kvf_set *s, rsv_oracle_code c)
{
    for (size_t j = 0; j < s->m; j++)
        if (c.bits == s->code[j].bytes) return j;
    return SIZE_MAX;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rsv_fuzz_producer in;
    rsv_kvf_policy pol;
    rsv_kvf_code code;
    rsv_kvf_recs pool;
    rsv_fuzz_producer_init(&in, data, size);
    uint8_t flags = rsv_fuzz_u8(&in);
    size_t n = 2 + (flags & 3u) % 3u;
    int drop = (flags >> 2) & 1u;
    unsigned mode = (flags >> 3) & 7u;
    rsv_kvf_gen_policy(&in, &pol);
    rsv_kvf_gen_code(&in, &code);
    rsv_kvf_gen_records_max(&in, 1, RSV_KVF_CAP_MAX, &pool);
    int multi = (flags >> 6) & 1u;
    rsv_kvf_set set;
    size_t tomb_code = SIZE_MAX;
    /* A bulk pool is capped, the more the longer its codes (kv03_fuzz.h):
     * every record is encoded, decoded and merged by both sides. */
    if (!multi) rsv_kvf_recs_cap(&pool, code.bits + 1); /* + 1: mode 6 may lengthen C0 */
    if (multi) {
        rsv_kvf_gen_code_set(&in, 0, &set);
        rsv_kvf_recs_cap(&pool, rsv_kvf_set_max_bits(&set) + 1); /* + 1: mode 6 may lengthen one */
        rsv_kvf_assign_codes(&in, &set, 1, &pool);
        size_t t = rsv_fuzz_u8(&in) % (set.m + 1);
        if (t < set.m) tomb_code = t;
    }

    uint8_t *files[MAX_INPUTS] = {0};
    size_t sizes[MAX_INPUTS] = {0};
    rsv_oracle_crecord *recs = calloc(pool.n + 1, sizeof *recs);
    uint8_t(*vb)[3] = calloc(pool.n + 1, sizeof *vb);
    uint64_t masks[MAX_INPUTS];
    uint8_t vsels[MAX_INPUTS];
    if (!recs || !vb) abort();
    for (size_t j = 0; j < n; j++) {
        masks[j] = rsv_fuzz_u64(&in);
        vsels[j] = rsv_fuzz_u8(&in);
    }
    size_t victim = n, vbit = 0;
    uint8_t how6 = 0;
    rsv_kvf_policy vpol = pol;
    rsv_kvf_code vcode = code;
    if (mode >= 5) {
        victim = rsv_fuzz_u8(&in) % n;
        uint8_t how = rsv_fuzz_u8(&in);
        how6 = how;
        if (mode == 5) { /* another policy: W, K, kind or parameter */
            rsv_oracle_kv03_policy o = pol.oracle;
            switch (how % 4u) {
            case 0: o.W = o.W == 1 ? 2 : o.W - 1; break;
            case 1: o.K = o.K == 3 ? 7 : 3; break;
            case 2: o.bs_kind ^= 1u; o.bs_param = 1; break;
            default: o.bs_param = o.bs_kind == RSV_ORACLE_BACKSPACE_EG ? (o.bs_param + 1) % 64 : o.bs_param ^ 1u; break;
            }
            rsv_kvf_policy_from_oracle(&o, &vpol);
        } else if (mode == 6 && multi) { /* one code of the set, one bit longer or shorter */
            vcode = set.code[how % set.m];
            if (how & 1u) {
                if (vcode.bits < RSV_KV03_MAX_CODE_BITS) {
                    if ((how >> 1) & 1u) vcode.bytes[vcode.bits / 8] |= (uint8_t)(0x80u >> (vcode.bits % 8));
                    vcode.bits++;
                }
            } else if (vcode.bits > 0) {
                vcode.bits--;
                vcode.bytes[vcode.bits / 8] &= (uint8_t)~(0x80u >> (vcode.bits % 8));
            }
        } else if (mode == 6) { /* another C0: one bit flipped, or one bit longer/shorter */
            if (how % 2u && vcode.bits > 0) vcode.bytes[(how / 2u) % ((vcode.bits + 7) / 8)] ^= 0x80u >> ((how / 2u) % 8u);
            else vcode.bits = vcode.bits < 512 ? vcode.bits + 1 : vcode.bits - 1;
            if (vcode.bits % 8) vcode.bytes[vcode.bits / 8] &= (uint8_t)(0xFFu << (8 - vcode.bits % 8));
        } else {
            vbit = rsv_fuzz_u16(&in);
        }
    }
    for (size_t j = 0; j < n; j++) {
        size_t k;
        build_input(&pool, masks[j], vsels[j], j, recs, vb, &k);
        const rsv_kvf_policy *p = j == victim && mode == 5 ? &vpol : &pol;
        const rsv_kvf_code *c = j == victim && mode == 6 ? &vcode : &code;
        rsv_status est;
        if (multi) {
            for (size_t i = 0; i < k; i++) {
                size_t ci = code_of(&set, recs[i].code);
                if (ci == tomb_code) {
                    recs[i].rec.state = RSV_ORACLE_TOMBSTONE;
                    recs[i].rec.value = NULL;
                    recs[i].rec.value_len = 0;
                }
                if (j == victim && mode == 6 && ci == (size_t)(how6 % set.m)) {
                    recs[i].code.bits = vcode.bytes;
                    recs[i].code.nbits = vcode.bits;
                }
            }
            est = rsv_oracle_kv03_encode_v2(recs, k, &p->oracle, &files[j], &sizes[j], NULL);
        } else {
            for (size_t i = 0; i < k; i++) recs[i].code = (rsv_oracle_code){c->bytes, c->bits};
            rsv_oracle_record *plain = calloc(k + 1, sizeof *plain);
            if (!plain) abort();
            for (size_t i = 0; i < k; i++) plain[i] = recs[i].rec;
            est = rsv_oracle_kv03_encode(plain, k, &p->oracle, c->bytes, c->bits, &files[j], &sizes[j], NULL);
            free(plain);
        }
        if (est != RSV_OK)
            goto out; /* invalid policy or code set: nothing to merge (kv03_roundtrip covers rejections) */
        if (j == victim && mode == 7 && sizes[j] > 288) {
            uint64_t ext = 0;
            for (int b = 7; b >= 0; b--) ext = (ext << 8) | files[j][96 + 8 + b]; /* directory: data extent */
            if (ext) {
                uint64_t bit = vbit % ext;
                files[j][288 + bit / 8] ^= (uint8_t)(0x80u >> (bit % 8));
            }
        }
    }

    /* the comparison engine (tests/support/kv03_diff.h): the codec merge
     * (open, rsv_merge_init/run/finish) against rsv_oracle_kv03_merge_v2,
     * which merges across code sets (format revision v2) */
    static rsv_kv03d_report rep; /* its message buffer off the stack */
    rsv_kv03d_report_init(&rep);
    rep.opts = RSV_KV03D_ONE_BAD_INPUT; /* only the victim is ever corrupted */
    rsv_status agreed = RSV_OK;
    int ok = rsv_kv03d_merge((const uint8_t *const *)files, sizes, n, drop, NULL, 0, &agreed, &rep);
    if (rsv_fuzz_tracing())
        fprintf(stderr, "merge_diff: %zu inputs, codes %zu, drop %d, mode %u: %s\n", n, multi ? set.m : 1, drop,
                mode, sn(agreed));
    if (!ok) rsv_kvf_fail(T, "%s", rep.msg);
out:
    for (size_t j = 0; j < n; j++) free(files[j]);
    free(recs);
    free(vb);
    rsv_kvf_recs_free(&pool);
    return 0;
}
