/* Status codes (CODES.md §6.1, KV03.md §8): the numeric values are ABI, the
 * messages are normative text. The table below is copied from the two specs;
 * the enumerators are compared against the numbers written in the spec, not
 * against each other. */
#include <criterion/criterion.h>
#include <limits.h>

#include "reservoir/status.h"

typedef struct status_row {
    int enumerator; /* the value the header gives the enumerator */
    int number;     /* the value the spec gives it */
    const char *name;
    const char *message;
} status_row;

#define ROW(e, n, msg) {(int)(e), n, #e, msg}

static const status_row rows[] = {
    /* CODES.md §6.1 */
    ROW(RSV_OK, 0, "success"),
    ROW(RSV_ERR_INVALID_ARGUMENT, 1, "invalid argument"),
    ROW(RSV_ERR_NOMEM, 2, "out of memory"),
    ROW(RSV_ERR_TOO_LARGE, 3, "bit length overflow"),
    ROW(RSV_ERR_IO, 4, "I/O error"),
    ROW(RSV_ERR_STATE, 5, "operation invalid in current state"),
    ROW(RSV_ERR_POISONED, 6, "object failed earlier"),
    ROW(RSV_ERR_VIEW_RANGE, 7, "bit view exceeds storage"),
    ROW(RSV_ERR_WIDTH, 8, "bit field wider than 64"),
    ROW(RSV_ERR_TRUNCATED_FIELD, 9, "truncated bit field"),
    ROW(RSV_ERR_TRUNCATED_SPAN, 10, "truncated bit span"),
    ROW(RSV_ERR_EG_TRUNCATED, 11, "truncated exponential-Golomb count"),
    ROW(RSV_ERR_EG_OVERFLOW, 12, "overflowing exponential-Golomb count"),
    ROW(RSV_ERR_EG_QUOTIENT_OVERFLOW, 13, "overflowing exponential-Golomb quotient"),
    ROW(RSV_ERR_EG_TRUNCATED_REMAINDER, 14, "truncated exponential-Golomb remainder"),
    ROW(RSV_ERR_GOLOMB_TRUNCATED, 15, "truncated Golomb quotient"),
    ROW(RSV_ERR_GOLOMB_TRUNCATED_REMAINDER, 16, "truncated Golomb remainder"),
    ROW(RSV_ERR_GOLOMB_QUOTIENT_OVERFLOW, 17, "overflowing Golomb quotient"),
    ROW(RSV_ERR_GOLOMB_SUM_OVERFLOW, 18, "overflowing Golomb value"),
    ROW(RSV_ERR_BAD_ORDER, 19, "exponential-Golomb order exceeds 63"),
    ROW(RSV_ERR_BAD_MODULUS, 20, "Golomb modulus is zero"),
    ROW(RSV_ERR_VALUE_TOO_WIDE, 21, "value exceeds bit field"),
    /* KV03.md §8 */
    ROW(RSV_ERR_UNSORTED, 32, "keys are not strictly increasing"),
    ROW(RSV_ERR_BACKSPACE_EXCEEDS_KEY, 33, "backspace exceeds previous key"),
    ROW(RSV_ERR_KEY_ENDS_INSIDE_BYTE, 34, "string key ends inside a byte"),
    ROW(RSV_ERR_TRUNCATED_VALUE, 35, "truncated string value"),
    ROW(RSV_ERR_RETAINED_PRECEDES_CODE, 36, "retained prefix shorter than selector code"),
    ROW(RSV_ERR_MISSING_PREFIX, 37, "retained prefix longer than previous key"),
    ROW(RSV_ERR_SORT_TRANSITION, 38, "selector transition to the same code"),
    ROW(RSV_ERR_VALUE_WIDTH, 39, "value width differs from common width"),
    ROW(RSV_ERR_BLOCK_OFFSET, 40, "block offset mismatch"),
    ROW(RSV_ERR_TERMINAL_MISMATCH, 41, "terminal framing mismatch"),
    ROW(RSV_ERR_SORT_BACKSPACE, 42, "selector backspace exceeds code"),
    ROW(RSV_ERR_UNKNOWN_SELECTOR, 43, "unknown selector code"),
    ROW(RSV_ERR_MERGE_MISMATCH, 44, "merge inputs disagree on policy or selector"),
    ROW(RSV_ERR_DICTIONARY_ORDER, 45, "selector dictionary not increasing and prefix-free"),
    ROW(RSV_ERR_SEED_RANGE, 46, "block seed outside the selector dictionary"),
    ROW(RSV_ERR_PREFIX_CROSSES_CODE, 47, "retained prefix crosses a selector code"),
    ROW(RSV_ERR_TRUNCATED_HEADER, 48, "truncated file header"),
    ROW(RSV_ERR_BAD_MAGIC, 49, "unrecognized file magic"),
    ROW(RSV_ERR_WRONG_KIND, 50, "unsupported: index object, not a KV file"),
    ROW(RSV_ERR_BAD_VERSION, 51, "unsupported file version or header length"),
    ROW(RSV_ERR_HEADER_CRC, 52, "header CRC32C mismatch"),
    ROW(RSV_ERR_BAD_FLAGS, 53, "unsupported header flags"),
    ROW(RSV_ERR_BAD_UNIT, 54, "unsupported address unit"),
    ROW(RSV_ERR_BAD_CHECKSUM_KIND, 55, "unsupported checksum kind"),
    ROW(RSV_ERR_RESERVED, 56, "nonzero reserved bytes"),
    ROW(RSV_ERR_BAD_BACKSPACE, 57, "unsupported backspace descriptor"),
    ROW(RSV_ERR_BAD_POLICY, 58, "invalid block size or group size"),
    ROW(RSV_ERR_POLICY_MISMATCH, 59, "stored policy differs from the expected policy"),
    ROW(RSV_ERR_UNSUPPORTED_VALUE_POLICY, 60, "unsupported: fixed-width value policy"),
    ROW(RSV_ERR_POLICY_WIDTH, 61, "variable policy width must encode zero"),
    ROW(RSV_ERR_COMMON_WIDTH, 62, "absent common width must encode zero"),
    ROW(RSV_ERR_VALUE_SLOTS, 63, "common-width values exceed body extent"),
    ROW(RSV_ERR_BAD_EXTENT, 64, "noncanonical body offset or extent"),
    ROW(RSV_ERR_FILE_SIZE, 65, "truncated or trailing file bytes"),
    ROW(RSV_ERR_BODY_CRC, 66, "body CRC32C mismatch"),
    ROW(RSV_ERR_UNUSED_SELECTOR, 67, "selector dictionary code used by no record"),
    ROW(RSV_ERR_SELECTOR_PREFIX, 68, "selector code is a prefix of another code"),
    ROW(RSV_ERR_DIRECTORY_TRUNCATED, 72, "body shorter than the KV03 directory"),
    ROW(RSV_ERR_BAD_DIRECTORY_MAGIC, 73, "directory magic is not KV03"),
    ROW(RSV_ERR_BAD_DIRECTORY_REVISION, 74, "unsupported section revision or count"),
    ROW(RSV_ERR_SECTION_RANGE, 75, "section offset or length out of range"),
    ROW(RSV_ERR_TRAILING_SECTIONS, 76, "bytes after the last section"),
    ROW(RSV_ERR_BIT_SECTION_EXTENT, 77, "bit section length mismatch"),
    ROW(RSV_ERR_EF_SHAPE, 78, "Elias-Fano section shape mismatch"),
    ROW(RSV_ERR_DICTIONARY_SHAPE, 79, "dictionary offsets section malformed"),
    ROW(RSV_ERR_METADATA, 80, "noncanonical metadata for an empty file"),
    ROW(RSV_ERR_SECTION_SHAPE, 81, "section shape mismatch"),
    ROW(RSV_ERR_UNSUPPORTED_SELECTORS, 82, "unsupported: more than one selector code"),
    ROW(RSV_ERR_SECTION_ENDPOINTS, 83, "section endpoints mismatch"),
    ROW(RSV_ERR_EF_CORRUPT, 84, "corrupt Elias-Fano sections"),
    ROW(RSV_ERR_EF_ORDINAL, 85, "Elias-Fano ordinal out of range"),
    ROW(RSV_ERR_EF_NONMONOTONE, 86, "Elias-Fano input not monotone"),
    ROW(RSV_ERR_EF_NONCANONICAL, 87, "Elias-Fano sections not canonical"),
    ROW(RSV_ERR_COMMON_WIDTH_NONCANONICAL, 88, "common width presence not canonical"),
    ROW(RSV_ERR_NONZERO_GAP, 89, "nonzero section gap"),
    ROW(RSV_ERR_NONZERO_PADDING, 90, "nonzero bit-section padding"),
};
#define NROWS (sizeof rows / sizeof rows[0])

static const char UNKNOWN[] = "unknown reservoir error";

static const status_row *find(int code)
{
    for (size_t i = 0; i < NROWS; i++)
        if (rows[i].number == code) return &rows[i];
    return NULL;
}

/* The specs reserve 22–31 (CODES.md §6.1) and 69–71, 91–127 (KV03.md §8,
 * format revision v2); everything else in 0–90 is defined. */
static int reserved(int code)
{
    return (code >= 22 && code <= 31) || (code >= 69 && code <= 71) || (code >= 91 && code <= 127);
}

Test(status, table_covers_exactly_the_defined_codes)
{
    cr_assert_eq(NROWS, 22 + 16 + 21 + 19); /* 0–21, 32–47, 48–68, 72–90 */
    for (int c = 0; c <= 90; c++)
        cr_assert_eq(find(c) != NULL, !reserved(c), "code %d", c);
}

Test(status, enumerator_values_are_the_spec_numbers)
{
    for (size_t i = 0; i < NROWS; i++)
        cr_assert_eq(rows[i].enumerator, rows[i].number, "%s = %d, spec says %d", rows[i].name,
                     rows[i].enumerator, rows[i].number);
}

Test(status, strerror_exact_messages)
{
    for (size_t i = 0; i < NROWS; i++) {
        const char *m = rsv_strerror(rows[i].number);
        cr_assert_not_null(m, "code %d", rows[i].number);
        cr_assert_str_eq(m, rows[i].message, "code %d: \"%s\"", rows[i].number, m);
    }
}

Test(status, strerror_unknown_codes)
{
    static const int extra[] = {-1, -2, 128, 129, 255, 256, 1000, INT_MAX, INT_MIN};
    for (int c = 0; c <= 127; c++) {
        if (!reserved(c)) continue;
        cr_assert_str_eq(rsv_strerror(c), UNKNOWN, "code %d", c);
    }
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
        cr_assert_str_eq(rsv_strerror(extra[i]), UNKNOWN, "code %d", extra[i]);
    /* No defined code may use the unknown message. */
    for (size_t i = 0; i < NROWS; i++) cr_assert_str_neq(rsv_strerror(rows[i].number), UNKNOWN);
}

Test(status, names)
{
    for (size_t i = 0; i < NROWS; i++) {
        const char *n = rsv_status_name(rows[i].number);
        cr_assert_not_null(n);
        cr_assert_str_eq(n, rows[i].name, "code %d: \"%s\"", rows[i].number, n);
    }
    /* status.h documents "RSV_ERR_UNKNOWN" for anything undefined. */
    static const int extra[] = {-1, 1000, INT_MAX, INT_MIN};
    for (int c = 0; c <= 127; c++)
        if (reserved(c)) cr_assert_str_eq(rsv_status_name(c), "RSV_ERR_UNKNOWN", "code %d", c);
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
        cr_assert_str_eq(rsv_status_name(extra[i]), "RSV_ERR_UNKNOWN", "code %d", extra[i]);
}
