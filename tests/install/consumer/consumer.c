/* Downstream smoke test: write EG0 and Golomb codes, read them back. The
 * expected bits are CODES.md §7.1 rows 9 and 35. */
#include <reservoir/reservoir.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    rsv_writer w;
    rsv_writer_init(&w);
    if (rsv_put_eg(&w, 7, 0) || rsv_put_golomb_m(&w, 20, 7)) return 1;
    /* 0001000 001111 -> 00010000 01111000 = 0x10 0x78 */
    const uint8_t *b = rsv_writer_data(&w);
    if (rsv_writer_bits(&w) != 13 || b[0] != 0x10 || b[1] != 0x78) {
        fprintf(stderr, "consumer: unexpected encoding\n");
        return 1;
    }
    rsv_reader r;
    rsv_reader_init(&r, rsv_writer_view(&w));
    uint64_t a = 0, c = 0;
    if (rsv_read_eg0(&r, &a) || rsv_read_golomb_m(&r, 7, &c) || a != 7 || c != 20 || !rsv_reader_empty(&r)) {
        fprintf(stderr, "consumer: decode mismatch\n");
        return 1;
    }
    printf("consumer ok (%s): %s\n", RSV_VERSION_STRING, rsv_strerror(RSV_ERR_EG_TRUNCATED));
    rsv_writer_free(&w);
    return 0;
}
