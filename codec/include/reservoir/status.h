/* reservoir — status codes (CODES.md §6.1, KV03.md §8).
 *
 * The numeric values are ABI: they are fixed by the spec and never renumbered.
 * Every function of the library returns one of these; RSV_OK is 0 and every
 * error is positive. */
#ifndef RESERVOIR_STATUS_H
#define RESERVOIR_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum rsv_status {
    RSV_OK                                   = 0,
    RSV_ERR_INVALID_ARGUMENT                 = 1,
    RSV_ERR_NOMEM                            = 2,
    RSV_ERR_TOO_LARGE                        = 3,
    RSV_ERR_IO                               = 4,
    RSV_ERR_STATE                            = 5,
    RSV_ERR_POISONED                         = 6,
    RSV_ERR_VIEW_RANGE                       = 7,
    RSV_ERR_WIDTH                            = 8,
    RSV_ERR_TRUNCATED_FIELD                  = 9,
    RSV_ERR_TRUNCATED_SPAN                   = 10,
    RSV_ERR_EG_TRUNCATED                     = 11,
    RSV_ERR_EG_OVERFLOW                      = 12,
    RSV_ERR_EG_QUOTIENT_OVERFLOW             = 13,
    RSV_ERR_EG_TRUNCATED_REMAINDER           = 14,
    RSV_ERR_GOLOMB_TRUNCATED                 = 15,
    RSV_ERR_GOLOMB_TRUNCATED_REMAINDER       = 16,
    RSV_ERR_GOLOMB_QUOTIENT_OVERFLOW         = 17,
    RSV_ERR_GOLOMB_SUM_OVERFLOW              = 18,
    RSV_ERR_BAD_ORDER                        = 19,
    RSV_ERR_BAD_MODULUS                      = 20,
    RSV_ERR_VALUE_TOO_WIDE                   = 21,
    RSV_ERR_UNSORTED                         = 32,
    RSV_ERR_BACKSPACE_EXCEEDS_KEY            = 33,
    RSV_ERR_KEY_ENDS_INSIDE_BYTE             = 34,
    RSV_ERR_TRUNCATED_VALUE                  = 35,
    RSV_ERR_RETAINED_PRECEDES_CODE           = 36,
    RSV_ERR_MISSING_PREFIX                   = 37,
    RSV_ERR_SORT_TRANSITION                  = 38,
    RSV_ERR_VALUE_WIDTH                      = 39,
    RSV_ERR_BLOCK_OFFSET                     = 40,
    RSV_ERR_TERMINAL_MISMATCH                = 41,
    RSV_ERR_SORT_BACKSPACE                   = 42,
    RSV_ERR_UNKNOWN_SELECTOR                 = 43,
    RSV_ERR_MERGE_MISMATCH                   = 44,
    RSV_ERR_TRUNCATED_HEADER                 = 48,
    RSV_ERR_BAD_MAGIC                        = 49,
    RSV_ERR_WRONG_KIND                       = 50,
    RSV_ERR_BAD_VERSION                      = 51,
    RSV_ERR_HEADER_CRC                       = 52,
    RSV_ERR_BAD_FLAGS                        = 53,
    RSV_ERR_BAD_UNIT                         = 54,
    RSV_ERR_BAD_CHECKSUM_KIND                = 55,
    RSV_ERR_RESERVED                         = 56,
    RSV_ERR_BAD_BACKSPACE                    = 57,
    RSV_ERR_BAD_POLICY                       = 58,
    RSV_ERR_POLICY_MISMATCH                  = 59,
    RSV_ERR_UNSUPPORTED_VALUE_POLICY         = 60,
    RSV_ERR_POLICY_WIDTH                     = 61,
    RSV_ERR_COMMON_WIDTH                     = 62,
    RSV_ERR_VALUE_SLOTS                      = 63,
    RSV_ERR_BAD_EXTENT                       = 64,
    RSV_ERR_FILE_SIZE                        = 65,
    RSV_ERR_BODY_CRC                         = 66,
    RSV_ERR_DIRECTORY_TRUNCATED              = 72,
    RSV_ERR_BAD_DIRECTORY_MAGIC              = 73,
    RSV_ERR_BAD_DIRECTORY_REVISION           = 74,
    RSV_ERR_SECTION_RANGE                    = 75,
    RSV_ERR_TRAILING_SECTIONS                = 76,
    RSV_ERR_BIT_SECTION_EXTENT               = 77,
    RSV_ERR_EF_SHAPE                         = 78,
    RSV_ERR_DICTIONARY_SHAPE                 = 79,
    RSV_ERR_METADATA                         = 80,
    RSV_ERR_SECTION_SHAPE                    = 81,
    RSV_ERR_UNSUPPORTED_SELECTORS            = 82,
    RSV_ERR_SECTION_ENDPOINTS                = 83,
    RSV_ERR_EF_CORRUPT                       = 84,
    RSV_ERR_EF_ORDINAL                       = 85,
    RSV_ERR_EF_NONMONOTONE                   = 86,
    RSV_ERR_EF_NONCANONICAL                  = 87,
    RSV_ERR_COMMON_WIDTH_NONCANONICAL        = 88,
    RSV_ERR_NONZERO_GAP                      = 89,
    RSV_ERR_NONZERO_PADDING                  = 90,} rsv_status;

/* The spec's message for `code` ("unknown reservoir error" for anything else).
 * Returns a static string: no allocation, no global state, thread-safe. */
const char *rsv_strerror(int code);

/* The enumerator's name, e.g. "RSV_ERR_EG_TRUNCATED" ("RSV_ERR_UNKNOWN" for an
 * unknown code). Meant for diagnostics and command-line tools. */
const char *rsv_status_name(int code);

#ifdef __cplusplus
}
#endif
#endif
