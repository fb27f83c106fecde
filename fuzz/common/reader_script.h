/* Input format of the reader_diff fuzz target, shared with the seed
 * generator (fuzz/gen_corpus.c) so that seeds mean what they say.
 *
 * All fields are read with the data producer (data_producer.h), i.e. from the
 * END of the input backwards; the order below is the consumption order.
 *
 *   u16 script_len            the last script_len bytes before it are the
 *                             operation script; everything in front of the
 *                             script is the payload (at most
 *                             RSV_RD_MAX_PAYLOAD bytes are used)
 *   script, consumed from its own end:
 *     u8 shift                data = payload - shift % 16, off += 8 * (shift % 16)
 *     u8 off                  off_in = off % (8 * nbytes + 1)
 *     u8 tail                 tail = tail % (8 * nbytes - off_in + 1);
 *                             len = 8 * nbytes - off_in - tail
 *     u8 flags                bit 0: if len == 0, data = the guard page itself
 *     then operations until the script is exhausted:
 *     u8 opcode % RSV_RD_NOPS, followed by the operation's parameters:
 *       READ        u8 wsel                 w = rsv_fuzz_width(wsel)
 *       READ_BIT    -
 *       READ_EG     u8 ksel                 k = rsv_fuzz_order(ksel)
 *       READ_EG0    -
 *       READ_GOLOMB modulus (below)
 *       TAKE, SKIP  span (below)
 *       SEEK        u16 raw                 0xFFFF: 2^64-1, else raw % (len + 2)
 *       READ_N      u8 wsel, u8 count       count % (RSV_RD_MAX_BATCH + 1)
 *       READ_EG_N   u8 ksel, u8 count
 *       READ_GOLOMB_N modulus, u8 count
 *   modulus: rsv_fuzz_modulus (params.h); its API bit selects
 *     rsv_golomb_init + rsv_read_golomb (0) or rsv_read_golomb_m (1); batch
 *     decodes always use the prepared struct
 *   span: u8 ssel; ssel & 7 selects (rem = remaining bits, len = view length):
 *       0: u8   1: rem   2: rem + 1   3: 2^64-1   4: u64   5: u16
 *       6: rem - min(u8, rem)   7: len
 *
 * Every step runs through the reader comparison engine (tests/support/diff.h,
 * rsv_diff_apply). After the script the target drains the view with
 * rsv_diff_drain (CODES.md §8): read(0), take(0), skip(0), 13-bit reads until
 * one fails, read(remaining), the zero-width trio again, read(1). */
#ifndef RSV_FUZZ_READER_SCRIPT_H
#define RSV_FUZZ_READER_SCRIPT_H

#include <stdint.h>

#include "params.h"

#define RSV_RD_MAX_PAYLOAD 4096u
#define RSV_RD_MAX_BATCH 64u

enum rsv_rd_op {
    RSV_RD_READ = 0,
    RSV_RD_READ_BIT,
    RSV_RD_READ_EG,
    RSV_RD_READ_EG0,
    RSV_RD_READ_GOLOMB,
    RSV_RD_TAKE,
    RSV_RD_SKIP,
    RSV_RD_SEEK,
    RSV_RD_READ_N,
    RSV_RD_READ_EG_N,
    RSV_RD_READ_GOLOMB_N,
    RSV_RD_NOPS
};

enum rsv_rd_span_kind {
    RSV_RD_SPAN_U8 = 0,
    RSV_RD_SPAN_REM,
    RSV_RD_SPAN_REM_PLUS1,
    RSV_RD_SPAN_MAX,
    RSV_RD_SPAN_U64,
    RSV_RD_SPAN_U16,
    RSV_RD_SPAN_REM_MINUS_U8,
    RSV_RD_SPAN_LEN
};

#endif
