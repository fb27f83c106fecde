/* rsv — a growable byte buffer (the storage behind parsed and generated
 * records: keys and values are kept as offsets into it, because it moves when
 * it grows). */
#ifndef RSV_BYTEBUF_H
#define RSV_BYTEBUF_H

#include <stddef.h>
#include <stdint.h>

#include "reservoir/status.h"

typedef struct cli_buf {
    uint8_t *p;
    size_t len, cap;
} cli_buf;

void cli_buf_init(cli_buf *b);
void cli_buf_free(cli_buf *b);
/* Make room for `extra` more bytes: RSV_ERR_NOMEM / RSV_ERR_TOO_LARGE. */
rsv_status cli_buf_reserve(cli_buf *b, size_t extra);
rsv_status cli_buf_put(cli_buf *b, const void *bytes, size_t n);
rsv_status cli_buf_byte(cli_buf *b, uint8_t c);

#endif
