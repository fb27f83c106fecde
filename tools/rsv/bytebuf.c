/* rsv — growable byte buffer (see bytebuf.h). */
#include "bytebuf.h"

#include <stdlib.h>
#include <string.h>

void cli_buf_init(cli_buf *b)
{
    b->p = NULL;
    b->len = b->cap = 0;
}

void cli_buf_free(cli_buf *b)
{
    free(b->p);
    cli_buf_init(b);
}

rsv_status cli_buf_reserve(cli_buf *b, size_t extra)
{
    if (extra > SIZE_MAX - b->len) return RSV_ERR_TOO_LARGE;
    if (b->len + extra <= b->cap) return RSV_OK;
    size_t ncap = b->cap ? b->cap : 256;
    while (ncap < b->len + extra) {
        if (ncap > SIZE_MAX / 2) {
            ncap = b->len + extra;
            break;
        }
        ncap *= 2;
    }
    uint8_t *np = realloc(b->p, ncap);
    if (!np) return RSV_ERR_NOMEM;
    b->p = np;
    b->cap = ncap;
    return RSV_OK;
}

rsv_status cli_buf_put(cli_buf *b, const void *bytes, size_t n)
{
    if (n == 0) return RSV_OK;
    rsv_status st = cli_buf_reserve(b, n);
    if (st) return st;
    memcpy(b->p + b->len, bytes, n);
    b->len += n;
    return RSV_OK;
}

rsv_status cli_buf_byte(cli_buf *b, uint8_t c)
{
    return cli_buf_put(b, &c, 1);
}
