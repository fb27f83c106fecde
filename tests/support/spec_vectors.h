/* The test vectors of CODES.md §7, copied into the repository so that tests
 * never read the spec tree at run time. Bit strings keep the spec's notation
 * ("0^64 1 0^63"); parse them with rsv_parse_bits (testutil.h). */
#ifndef RSV_SPEC_VECTORS_H
#define RSV_SPEC_VECTORS_H

#include <stddef.h>
#include <stdint.h>

#include "reservoir/status.h"

typedef enum rsv_sv_code { RSV_SV_FIXED, RSV_SV_EG, RSV_SV_GOLOMB } rsv_sv_code;

/* CODES.md §7.1: (code, parameter, value) encodes to exactly `bits` (len bits). */
typedef struct rsv_sv_valid {
    int id;            /* row number in §7.1 */
    rsv_sv_code code;
    uint64_t param;    /* w, k or m */
    uint64_t value;
    uint64_t len;
    const char *bits;
} rsv_sv_valid;

typedef enum rsv_sv_op {
    RSV_SV_READ,
    RSV_SV_READ_EG,
    RSV_SV_READ_GOLOMB,
    RSV_SV_TAKE,
    RSV_SV_SKIP
} rsv_sv_op;

/* CODES.md §7.2: op(param) on a view of exactly `bits` fails with `error`
 * leaving the reader at `pos` (relative to the start position). Row 29
 * (take(9) / skip(9)) appears twice, once per operation. */
typedef struct rsv_sv_malformed {
    int id;
    rsv_sv_op op;
    uint64_t param;
    const char *bits;
    rsv_status error;
    uint64_t pos;
} rsv_sv_malformed;

extern const rsv_sv_valid rsv_sv_valid_rows[];
extern const size_t rsv_sv_valid_count;
extern const rsv_sv_malformed rsv_sv_malformed_rows[];
extern const size_t rsv_sv_malformed_count;

#endif
