/* rsv — selector codes (KV03.md §1.2) as the tool handles them: text of
 * 0/1 characters (options, input columns, output), packed MSB-first bytes
 * (what the codec takes), the prefix relation of §11.1 step 2 and the
 * logical-key order (code ‖ key bits) of §1.2. */
#ifndef RSV_SELECTOR_H
#define RSV_SELECTOR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "reservoir/kv03.h"
#include "reservoir/view.h"

#define CLI_SELECTOR_BYTES (RSV_KV03_MAX_CODE_BITS / 8)

/* s[0, n) as a code: every character must be '0' or '1' (else
 * RSV_ERR_INVALID_ARGUMENT with *bad = the index of the first other one),
 * then n <= 512 (else RSV_ERR_TOO_LARGE, the codec's limit, KV03.md §1.2).
 * On success out[0, CLI_SELECTOR_BYTES) holds the bits, zero padded. */
rsv_status cli_selector_parse(const uint8_t *s, size_t n, uint8_t *out, size_t *bad);

/* The first `bits` bits of code as 0/1 characters (nothing for 0 bits). */
void cli_put_selector(FILE *out, const uint8_t *code, uint64_t bits);
/* The same for a bit view (a dictionary code of an opened file). */
void cli_put_selector_view(FILE *out, rsv_view code);
/* Write the code as 0/1 characters and a NUL to buf (bits + 1 bytes). */
void cli_selector_text(char *buf, const uint8_t *code, uint64_t bits);

/* The same for a bit view (at most 512 bits: the dictionary check's limit). */
void cli_selector_view_text(char *buf, rsv_view code);

/* Pack a view of at most 512 bits into out[0, CLI_SELECTOR_BYTES), zero padded. */
void cli_selector_from_view(uint8_t *out, rsv_view code);

/* KV03.md §11.1 step 2: a and b differ and one is a prefix of the other
 * (equal codes do not conflict: they are one code). */
int cli_selector_conflict(const uint8_t *a, uint64_t abits, const uint8_t *b, uint64_t bbits);

/* Compare the logical keys a = acode ‖ key bits of akey and b likewise as
 * bit strings (§1.2: first differing bit decides, a proper prefix is
 * smaller): <0, 0, >0. With prefix-free codes this is code order, then key
 * order within one code. */
int cli_logical_compare(const uint8_t *acode, uint64_t abits, const uint8_t *akey, size_t alen,
                        const uint8_t *bcode, uint64_t bbits, const uint8_t *bkey, size_t blen);

#endif
