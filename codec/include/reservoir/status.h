/* reservoir — status codes (CODES.md §6.1, KV03.md §8; docs/spec/).
 *
 * The numeric values are ABI: they are fixed by the spec and never renumbered.
 * Every function of the library returns one of these; RSV_OK is 0 and every
 * error is positive.
 *
 * RSV_STATUS_LIST is the one list of codes: X(NAME, number, "spec message").
 * The enum below, rsv_strerror and rsv_status_name are all generated from it,
 * so a code added here has its name and message everywhere at once. */
#ifndef RESERVOIR_STATUS_H
#define RESERVOIR_STATUS_H

#include "reservoir/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* clang-format off */
#define RSV_STATUS_LIST(X) \
    X(OK,                                 0, "success") \
    X(ERR_INVALID_ARGUMENT,               1, "invalid argument") \
    X(ERR_NOMEM,                          2, "out of memory") \
    X(ERR_TOO_LARGE,                      3, "bit length overflow") \
    X(ERR_IO,                             4, "I/O error") \
    X(ERR_STATE,                          5, "operation invalid in current state") \
    X(ERR_POISONED,                       6, "object failed earlier") \
    X(ERR_VIEW_RANGE,                     7, "bit view exceeds storage") \
    X(ERR_WIDTH,                          8, "bit field wider than 64") \
    X(ERR_TRUNCATED_FIELD,                9, "truncated bit field") \
    X(ERR_TRUNCATED_SPAN,                10, "truncated bit span") \
    X(ERR_EG_TRUNCATED,                  11, "truncated exponential-Golomb count") \
    X(ERR_EG_OVERFLOW,                   12, "overflowing exponential-Golomb count") \
    X(ERR_EG_QUOTIENT_OVERFLOW,          13, "overflowing exponential-Golomb quotient") \
    X(ERR_EG_TRUNCATED_REMAINDER,        14, "truncated exponential-Golomb remainder") \
    X(ERR_GOLOMB_TRUNCATED,              15, "truncated Golomb quotient") \
    X(ERR_GOLOMB_TRUNCATED_REMAINDER,    16, "truncated Golomb remainder") \
    X(ERR_GOLOMB_QUOTIENT_OVERFLOW,      17, "overflowing Golomb quotient") \
    X(ERR_GOLOMB_SUM_OVERFLOW,           18, "overflowing Golomb value") \
    X(ERR_BAD_ORDER,                     19, "exponential-Golomb order exceeds 63") \
    X(ERR_BAD_MODULUS,                   20, "Golomb modulus is zero") \
    X(ERR_VALUE_TOO_WIDE,                21, "value exceeds bit field") \
    X(ERR_UNSORTED,                      32, "keys are not strictly increasing") \
    X(ERR_BACKSPACE_EXCEEDS_KEY,         33, "backspace exceeds previous key") \
    X(ERR_KEY_ENDS_INSIDE_BYTE,          34, "string key ends inside a byte") \
    X(ERR_TRUNCATED_VALUE,               35, "truncated string value") \
    X(ERR_RETAINED_PRECEDES_CODE,        36, "retained prefix shorter than selector code") \
    X(ERR_MISSING_PREFIX,                37, "retained prefix longer than previous key") \
    X(ERR_SORT_TRANSITION,               38, "selector transition to the same code") \
    X(ERR_VALUE_WIDTH,                   39, "value width differs from common width") \
    X(ERR_BLOCK_OFFSET,                  40, "block offset mismatch") \
    X(ERR_TERMINAL_MISMATCH,             41, "terminal framing mismatch") \
    X(ERR_SORT_BACKSPACE,                42, "selector backspace exceeds code") \
    X(ERR_UNKNOWN_SELECTOR,              43, "unknown selector code") \
    X(ERR_MERGE_MISMATCH,                44, "merge inputs disagree on policy or selector") \
    X(ERR_DICTIONARY_ORDER,              45, "selector dictionary not increasing and prefix-free") \
    X(ERR_SEED_RANGE,                    46, "block seed outside the selector dictionary") \
    X(ERR_PREFIX_CROSSES_CODE,           47, "retained prefix crosses a selector code") \
    X(ERR_TRUNCATED_HEADER,              48, "truncated file header") \
    X(ERR_BAD_MAGIC,                     49, "unrecognized file magic") \
    X(ERR_WRONG_KIND,                    50, "unsupported: index object, not a KV file") \
    X(ERR_BAD_VERSION,                   51, "unsupported file version or header length") \
    X(ERR_HEADER_CRC,                    52, "header CRC32C mismatch") \
    X(ERR_BAD_FLAGS,                     53, "unsupported header flags") \
    X(ERR_BAD_UNIT,                      54, "unsupported address unit") \
    X(ERR_BAD_CHECKSUM_KIND,             55, "unsupported checksum kind") \
    X(ERR_RESERVED,                      56, "nonzero reserved bytes") \
    X(ERR_BAD_BACKSPACE,                 57, "unsupported backspace descriptor") \
    X(ERR_BAD_POLICY,                    58, "invalid block size or group size") \
    X(ERR_POLICY_MISMATCH,               59, "stored policy differs from the expected policy") \
    X(ERR_UNSUPPORTED_VALUE_POLICY,      60, "unsupported: fixed-width value policy") \
    X(ERR_POLICY_WIDTH,                  61, "variable policy width must encode zero") \
    X(ERR_COMMON_WIDTH,                  62, "absent common width must encode zero") \
    X(ERR_VALUE_SLOTS,                   63, "common-width values exceed body extent") \
    X(ERR_BAD_EXTENT,                    64, "noncanonical body offset or extent") \
    X(ERR_FILE_SIZE,                     65, "truncated or trailing file bytes") \
    X(ERR_BODY_CRC,                      66, "body CRC32C mismatch") \
    X(ERR_UNUSED_SELECTOR,               67, "selector dictionary code used by no record") \
    X(ERR_SELECTOR_PREFIX,               68, "selector code is a prefix of another code") \
    X(ERR_DIRECTORY_TRUNCATED,           72, "body shorter than the KV03 directory") \
    X(ERR_BAD_DIRECTORY_MAGIC,           73, "directory magic is not KV03") \
    X(ERR_BAD_DIRECTORY_REVISION,        74, "unsupported section revision or count") \
    X(ERR_SECTION_RANGE,                 75, "section offset or length out of range") \
    X(ERR_TRAILING_SECTIONS,             76, "bytes after the last section") \
    X(ERR_BIT_SECTION_EXTENT,            77, "bit section length mismatch") \
    X(ERR_EF_SHAPE,                      78, "Elias-Fano section shape mismatch") \
    X(ERR_DICTIONARY_SHAPE,              79, "dictionary offsets section malformed") \
    X(ERR_METADATA,                      80, "noncanonical metadata for an empty file") \
    X(ERR_SECTION_SHAPE,                 81, "section shape mismatch") \
    X(ERR_UNSUPPORTED_SELECTORS,         82, "unsupported: more than one selector code") \
    X(ERR_SECTION_ENDPOINTS,             83, "section endpoints mismatch") \
    X(ERR_EF_CORRUPT,                    84, "corrupt Elias-Fano sections") \
    X(ERR_EF_ORDINAL,                    85, "Elias-Fano ordinal out of range") \
    X(ERR_EF_NONMONOTONE,                86, "Elias-Fano input not monotone") \
    X(ERR_EF_NONCANONICAL,               87, "Elias-Fano sections not canonical") \
    X(ERR_COMMON_WIDTH_NONCANONICAL,     88, "common width presence not canonical") \
    X(ERR_NONZERO_GAP,                   89, "nonzero section gap") \
    X(ERR_NONZERO_PADDING,               90, "nonzero bit-section padding")
/* clang-format on */

/* RSV_ERR_UNSUPPORTED_SELECTORS (82) is v1 only: a v2 reader never returns it
 * (KV03.md §8). The enumerator stays so that its number is never reused. */
typedef enum rsv_status {
#define RSV_STATUS_ENUM_(name, num, msg) RSV_##name = num,
    RSV_STATUS_LIST(RSV_STATUS_ENUM_)
#undef RSV_STATUS_ENUM_
} rsv_status;

/* The spec's message for `code` ("unknown reservoir error" for anything else).
 * Returns a static string: no allocation, no global state, thread-safe. */
RSV_API const char *rsv_strerror(int code);

/* The enumerator's name, e.g. "RSV_ERR_EG_TRUNCATED" ("RSV_ERR_UNKNOWN" for an
 * unknown code). Meant for diagnostics and command-line tools. */
RSV_API const char *rsv_status_name(int code);

#ifdef __cplusplus
}
#endif
#endif
