/* Reading expected bytes straight out of the in-repo spec copy
 * (docs/spec/KV03.md), so that vectors are never transcribed by hand.
 *
 * A "section" is the text from a Markdown heading line (one or more '#',
 * a space, then the heading text) up to the next heading line. Headings are
 * matched by prefix of their text, e.g. "12.5" or "12.5 Multi-code file".
 * All functions return 0 on success and -1 when the file cannot be read, the
 * heading/anchor/bytes are not found, or the text is malformed; on success
 * *bytes is malloc'd (release with free) and *n > 0. */
#ifndef RSV_SPEC_DOC_H
#define RSV_SPEC_DOC_H

#include <stddef.h>
#include <stdint.h>

/* Path of KV03.md: RSV_SPEC_DIR "/KV03.md" (RSV_SPEC_DIR is a compile
 * definition of rsv_test_support, set by tests/CMakeLists.txt). */
const char *rsv_spec_path(void);

/* The first indented hex dump in the section whose heading starts with
 * `heading_prefix`: consecutive lines of the form
 *     "    0000  45 56 52 54 ..."
 * (4 spaces, a hex offset, 2 spaces, up to 16 two-digit hex bytes). Each
 * line's offset must equal the number of bytes read so far. */
int rsv_spec_hexdump(const char *heading_prefix, uint8_t **bytes, size_t *n);

/* The first backticked run of at least 4 space-separated two-digit hex bytes
 * (e.g. `a2 58 69 e3`) that follows the first occurrence of `anchor` inside
 * the section whose heading starts with `heading_prefix`. Shorter runs are
 * skipped: `00 10` could be bit strings. */
int rsv_spec_hex_after(const char *heading_prefix, const char *anchor, uint8_t **bytes, size_t *n);

#endif
