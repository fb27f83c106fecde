/* rsv — parsing one JSON line of `rsv write --from jsonl`:
 *
 *     {"key": BYTES, "value": BYTES | null [, "selector": "0/1 characters"]}
 *     BYTES = "JSON string" | {"hex": "hex digits"}
 *
 * The optional "selector" (KV03.md §1.2) is returned as the string's bytes;
 * the caller checks its characters (selector.h).
 * A JSON string stands for its UTF-8 encoding (so "\u00e9" is c3 a9; raw
 * bytes inside the quotes are taken as they are); {"hex": ...} gives raw
 * bytes. "key" and "value" are required, members come in any order, and
 * nothing else is allowed (a typo must not silently become a tombstone). */
#ifndef RSV_JSONL_H
#define RSV_JSONL_H

#include <stddef.h>
#include <stdint.h>

#include "bytebuf.h"
#include "reservoir/status.h"

typedef struct cli_json_record {
    size_t koff, klen; /* key bytes in the arena */
    int tombstone;     /* "value": null */
    size_t voff, vlen; /* value bytes (present values) */
    int has_selector;  /* "selector" given: its string's bytes in the arena */
    size_t soff, slen;
    size_t sat;        /* index in the line of the string's opening quote */
    int sraw;          /* the string had no escapes: byte k is at sat + 1 + k */
} cli_json_record;

/* Parse s[0, n). Appends the key and value bytes to arena. On a syntax error
 * RSV_ERR_INVALID_ARGUMENT with *why and *at (byte index in s); buffer errors
 * are passed through. */
rsv_status cli_jsonl_parse(const uint8_t *s, size_t n, cli_buf *arena, cli_json_record *out,
                           const char **why, size_t *at);

#endif
