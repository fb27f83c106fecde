/* rsv codes — encode values as count codes and decode them back, one code
 * choice (--code eg:K | golomb:M | fixed:W) per invocation. A thin layer over
 * the codec's writer and reader: every rejection it reports is the codec's
 * own status, and decode positions are the reader's (CODES.md section 6.3) shifted
 * to absolute input bit positions. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "codespec.h"
#include "commands.h"
#include "reservoir/reader.h"
#include "reservoir/view.h"
#include "reservoir/writer.h"

/* Default ceiling on the bits one encode may produce. Golomb codes with a
 * small modulus grow linearly with the value (golomb:1 of 2^40 is 2^40 bits),
 * so without a bound a typo would try to allocate and print terabytes. */
#define ENCODE_DEFAULT_MAX_BITS (UINT64_C(1) << 26)

/* ---- help ----------------------------------------------------------------- */

static void codes_help(FILE *out);
static int codes_encode(int argc, char **argv, const char *prog);
static int codes_decode(int argc, char **argv, const char *prog);

static const cli_command subcommands[] = {
    {"encode", "print the code bits of values as a 0/1 string", codes_encode},
    {"decode", "decode values from bytes or a 0/1 string", codes_decode},
};

static const char code_help[] =
    "Codes (CODES.md):\n"
    "  eg:K       exponential-Golomb of order K, 0 <= K <= 63\n"
    "  golomb:M   Golomb with modulus M, 1 <= M <= 2^64-1 (M = 2^j is Rice)\n"
    "  fixed:W    W-bit big-endian field, 0 <= W <= 64\n"
    "Numbers are unsigned 64-bit, decimal or 0x hex.\n";

static void codes_help(FILE *out)
{
    fputs("Usage: rsv codes SUBCOMMAND --code CODE [OPTIONS] ...\n"
          "\n"
          "Encode or decode single count codes of the reservoir codec.\n"
          "\n"
          "Subcommands:\n",
          out);
    cli_print_commands(out, subcommands, sizeof subcommands / sizeof subcommands[0]);
    fputs("\n", out);
    fputs(code_help, out);
    fputs("\nRun 'rsv codes SUBCOMMAND --help' for details.\n", out);
}

static void encode_help(FILE *out)
{
    fputs("Usage: rsv codes encode --code CODE [--separate] [--max-bits N] VALUE...\n"
          "\n"
          "Print the codes of the VALUEs as one string of 0 and 1 characters (the\n"
          "concatenation, in order, followed by a newline).\n"
          "\n"
          "Options:\n"
          "  --code CODE     eg:K, golomb:M or fixed:W (required)\n"
          "  --separate      print each value's code on its own line\n"
          "  --max-bits N    refuse (RSV_ERR_TOO_LARGE) output longer than N bits\n"
          "                  in total; default 67108864 (2^26)\n"
          "  -h, --help      show this help and exit\n"
          "\n",
          out);
    fputs(code_help, out);
    fputs("\nNothing is printed unless every value encodes. Exit status: 0 success,\n"
          "1 codec rejection (K > 63, M = 0, W > 64, value too wide, too long),\n"
          "2 usage error (unknown option, missing --code, malformed number).\n",
          out);
}

static void decode_help(FILE *out)
{
    fputs("Usage: rsv codes decode --code CODE [--offset BITS] [--count N]\n"
          "                        [--bits STRING | FILE | -]\n"
          "\n"
          "Decode values, one per line, from the raw bytes of FILE (or standard input\n"
          "for '-' or no FILE; bits are read MSB-first), or from the 0/1 characters\n"
          "of --bits (blanks ignored; the input is exactly those bits, no padding).\n"
          "Decoding starts at bit --offset and stops when the input is used up, at\n"
          "the first failure or after --count values. The input is streamed: memory\n"
          "does not grow with it (one code may be at most 2^29 bits long).\n"
          "\n"
          "Options:\n"
          "  --code CODE     eg:K, golomb:M or fixed:W (required)\n"
          "  --offset BITS   first bit to decode (default 0)\n"
          "  --count N       decode exactly N values (required for fixed:0)\n"
          "  --bits STRING   decode these bits instead of a file\n"
          "  -h, --help      show this help and exit\n"
          "\n",
          out);
    fputs(code_help, out);
    fputs("\nOn a decode failure the values decoded so far are on standard output and\n"
          "standard error says\n"
          "  rsv: codes decode: code #I (from bit S): failed at bit P: NAME: MESSAGE\n"
          "where S and P are absolute bit positions in the input (the offset\n"
          "included) and P is the reader position after the failure (CODES.md section 6.3).\n"
          "Exit status: 0 success, 1 decode failure, bad code parameter or I/O error,\n"
          "2 usage error.\n",
          out);
}

int cmd_codes(int argc, char **argv, const char *prog)
{
    return cli_dispatch(subcommands, sizeof subcommands / sizeof subcommands[0], argc, argv, prog,
                        codes_help);
}

/* ---- shared option handling ------------------------------------------------ */

/* Parse and range-check --code. Returns -1 when fine, else the exit status
 * (usage error for bad syntax, failure for a spec-rejected parameter). */
static int take_code(const char *prog, const char *arg, cli_code *code)
{
    const char *why = cli_code_parse(arg, code);
    if (why) return cli_usage_error(prog, "--code '%s': %s", arg, why);
    rsv_status st = cli_code_check(code);
    if (st != RSV_OK) {
        cli_error(st, "%s: --code %s", prog, arg);
        return CLI_EXIT_FAIL;
    }
    return -1;
}

/* ---- encode ---------------------------------------------------------------- */

/* Print bits [from, to) of the writer's buffer as characters. */
static void print_bits(const uint8_t *buf, uint64_t from, uint64_t to)
{
    char chunk[4096];
    size_t n = 0;
    for (uint64_t i = from; i < to; i++) {
        chunk[n++] = (char)('0' + ((buf[i >> 3] >> (7 - (i & 7))) & 1));
        if (n == sizeof chunk) {
            fwrite(chunk, 1, n, stdout);
            n = 0;
        }
    }
    fwrite(chunk, 1, n, stdout);
}

static int codes_encode(int argc, char **argv, const char *prog)
{
    const char *code_arg = NULL;
    int separate = 0;
    uint64_t max_bits = ENCODE_DEFAULT_MAX_BITS;
    uint64_t *values = calloc((size_t)argc + 1, sizeof *values);
    uint64_t *ends = calloc((size_t)argc + 1, sizeof *ends);
    size_t nvalues = 0;
    int rc = -1;
    cli_iter it;
    const char *a, *val;
    int is_opt, got;

    if (!values || !ends) {
        cli_error(RSV_ERR_NOMEM, "%s", prog);
        rc = CLI_EXIT_FAIL;
        goto out;
    }
    /* Parse everything before encoding anything: a usage error never leaves
     * partial output behind. */
    cli_iter_init(&it, argc, argv);
    while (rc < 0 && (a = cli_next(&it, &is_opt)) != NULL) {
        if (!is_opt) {
            const char *why = cli_parse_u64(a, &values[nvalues]);
            if (why) rc = cli_usage_error(prog, "value '%s': %s", a, why);
            nvalues++;
        } else if (cli_is_help(a)) {
            encode_help(stdout);
            rc = cli_finish_stdout(prog, CLI_EXIT_OK);
        } else if (cli_flag(a, "--separate")) {
            separate = 1;
        } else if ((got = cli_value(&it, a, "--code", &val)) != 0) {
            if (got < 0) rc = cli_usage_error(prog, "--code needs a value");
            else code_arg = val;
        } else if ((got = cli_value(&it, a, "--max-bits", &val)) != 0) {
            const char *why = got < 0 ? "needs a value" : cli_parse_u64(val, &max_bits);
            if (why) rc = cli_usage_error(prog, "--max-bits: %s", why);
        } else {
            rc = cli_usage_error(prog, "unknown option '%s'", a);
        }
    }
    if (rc >= 0) goto out;
    if (!code_arg) {
        rc = cli_usage_error(prog, "--code is required");
        goto out;
    }
    if (nvalues == 0) {
        rc = cli_usage_error(prog, "no values to encode");
        goto out;
    }
    cli_code code;
    if ((rc = take_code(prog, code_arg, &code)) >= 0) goto out;

    rsv_writer w;
    rsv_writer_init(&w);
    rsv_writer_set_limit(&w, max_bits);
    for (size_t i = 0; i < nvalues; i++) {
        rsv_status st = cli_code_put(&code, &w, values[i]);
        if (st != RSV_OK) {
            cli_error(st, "%s: value %" PRIu64 " (#%zu) as %s", prog, values[i], i + 1, code_arg);
            rsv_writer_free(&w);
            rc = CLI_EXIT_FAIL;
            goto out;
        }
        ends[i] = rsv_writer_bits(&w);
    }
    uint64_t from = 0;
    for (size_t i = 0; i < nvalues; i++) {
        print_bits(rsv_writer_data(&w), from, ends[i]);
        if (separate || i + 1 == nvalues) putchar('\n');
        from = ends[i];
    }
    rsv_writer_free(&w);
    rc = cli_finish_stdout(prog, CLI_EXIT_OK);
out:
    free(values);
    free(ends);
    return rc;
}

/* ---- decode ---------------------------------------------------------------- */

/* The input of a decode, held as a sliding window: bytes [base, base + len)
 * of the input are in buf. Values are decoded from the window; the bytes
 * before the current code are dropped as decoding moves on, so memory is the
 * window, not the input. --bits input is one complete window (eof set,
 * tail_bits = bits in a final partial byte, stored as one more byte). */
typedef struct bitsrc {
    int fd; /* -1: no more to read */
    uint8_t *buf;
    size_t len, cap;
    uint64_t base;
    int eof;
    unsigned tail_bits;
} bitsrc;

#define DECODE_CHUNK 65536u
/* No code's verdict depends on input bits more than this far past the
 * position where it failed (an exp-Golomb code is at most 129 bits long, the
 * Golomb remainder at most 64): a failure that far from the window's end is
 * final; one closer to it is retried with more input. */
#define DECODE_LOOKAHEAD 256u
/* A single code longer than this (only Golomb codes with a small modulus,
 * whose zero run can be 2^64 - 1 bits) is refused: RSV_ERR_TOO_LARGE. */
#define DECODE_MAX_WINDOW ((size_t)64 << 20)

static uint64_t src_end_bits(const bitsrc *in)
{
    uint64_t bits = ((uint64_t)in->base + in->len) * 8;
    return in->tail_bits ? bits + in->tail_bits : bits;
}

/* Read until the window holds input bytes up to absolute byte `want` (or
 * the input ends); bytes before absolute byte `keep` may be dropped to make
 * room (only when that frees a whole chunk, so copying stays linear in the
 * input). 0, -1 read error (errno), -2 the window would pass
 * DECODE_MAX_WINDOW. */
static int src_fill(bitsrc *in, uint64_t want, uint64_t keep)
{
    while (!in->eof && in->base + in->len < want) {
        if (in->cap - in->len < DECODE_CHUNK) {
            size_t k = keep > in->base ? (size_t)(keep - in->base) : 0;
            if (k > in->len) k = in->len;
            if (in->cap - in->len + k >= DECODE_CHUNK) {
                memmove(in->buf, in->buf + k, in->len - k);
                in->len -= k;
                in->base += k;
                continue;
            }
            if (in->len + DECODE_CHUNK > DECODE_MAX_WINDOW) return -2;
            size_t ncap = in->cap ? in->cap * 2 : 2 * DECODE_CHUNK;
            if (ncap < in->len + DECODE_CHUNK) ncap = in->len + DECODE_CHUNK;
            if (ncap > DECODE_MAX_WINDOW) ncap = DECODE_MAX_WINDOW;
            uint8_t *nb = realloc(in->buf, ncap);
            if (!nb) {
                errno = ENOMEM;
                return -1;
            }
            in->buf = nb;
            in->cap = ncap;
        }
        ssize_t k = read(in->fd, in->buf + in->len, in->cap - in->len);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) return -1;
        if (k == 0) in->eof = 1;
        in->len += (size_t)k;
    }
    return 0;
}

static int read_error(const char *prog, const char *path, int r)
{
    if (r == -2) cli_error(RSV_ERR_TOO_LARGE, "%s: '%s': a code longer than %zu bits (the decode window)",
                           prog, path, DECODE_MAX_WINDOW * 8);
    else cli_error(errno == ENOMEM ? RSV_ERR_NOMEM : RSV_ERR_IO, "%s: '%s': read: %s", prog, path,
                   strerror(errno));
    return CLI_EXIT_FAIL;
}

/* Decode from absolute bit `offset` on; values go to standard output. */
static int decode_stream(const char *prog, const char *path, const cli_code *code, bitsrc *in,
                         uint64_t offset, int have_count, uint64_t count)
{
    uint64_t pos = offset;
    int r;
    /* Skip to the offset without keeping what lies before it. */
    if ((r = src_fill(in, pos / 8 + 1, pos / 8)) != 0) return read_error(prog, path, r);
    if (in->eof && offset > src_end_bits(in)) {
        cli_error(RSV_ERR_VIEW_RANGE, "%s: --offset %" PRIu64 " is past the input's %" PRIu64 " bits",
                  prog, offset, src_end_bits(in));
        return CLI_EXIT_FAIL;
    }
    for (uint64_t i = 0; !have_count || i < count; i++) {
        if ((r = src_fill(in, (pos + DECODE_LOOKAHEAD) / 8 + 1, pos / 8)) != 0)
            return read_error(prog, path, r);
        if (!have_count && in->eof && pos == src_end_bits(in)) break;
        rsv_reader rd;
        uint64_t v;
        rsv_status st;
        for (;;) {
            uint64_t at = pos - in->base * 8;
            rsv_reader_init(&rd, rsv_view_make(in->buf, at, src_end_bits(in) - pos));
            st = cli_code_get(code, &rd, &v);
            if (st == RSV_OK || in->eof) break;
            uint64_t fail = pos + rsv_reader_position(&rd);
            if (src_end_bits(in) - fail >= DECODE_LOOKAHEAD) break;
            if ((r = src_fill(in, (fail + DECODE_LOOKAHEAD) / 8 + 1 + DECODE_CHUNK, pos / 8)) != 0) {
                if (r == -2) {
                    fflush(stdout);
                    cli_error(RSV_ERR_TOO_LARGE, "%s: code #%" PRIu64 " (from bit %" PRIu64 "): longer than "
                              "%zu bits, the decode window", prog, i + 1, pos, DECODE_MAX_WINDOW * 8);
                    return CLI_EXIT_FAIL;
                }
                return read_error(prog, path, r);
            }
        }
        if (st != RSV_OK) {
            fflush(stdout); /* the values before the failure come first */
            cli_error(st, "%s: code #%" PRIu64 " (from bit %" PRIu64 "): failed at bit %" PRIu64, prog,
                      i + 1, pos, pos + rsv_reader_position(&rd));
            return CLI_EXIT_FAIL;
        }
        pos += rsv_reader_position(&rd);
        printf("%" PRIu64 "\n", v);
    }
    return CLI_EXIT_OK;
}

/* Pack a --bits string into MSB-first bytes. Returns the bit count, or
 * UINT64_MAX after reporting a bad character / allocation failure (the exit
 * status goes to *rc). */
static uint64_t pack_bits(const char *prog, const char *s, uint8_t **out, int *rc)
{
    uint64_t n = 0;
    for (const char *c = s; *c; c++) {
        if (*c == '0' || *c == '1') {
            n++;
        } else if (!(*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r')) {
            *rc = cli_usage_error(prog, "--bits: character '%c' at index %zu is not 0, 1 or a blank",
                                  *c, (size_t)(c - s));
            return UINT64_MAX;
        }
    }
    uint8_t *buf = calloc((size_t)(n / 8 + 1), 1);
    if (!buf) {
        cli_error(RSV_ERR_NOMEM, "%s: --bits", prog);
        *rc = CLI_EXIT_FAIL;
        return UINT64_MAX;
    }
    uint64_t i = 0;
    for (const char *c = s; *c; c++) {
        if (*c != '0' && *c != '1') continue;
        if (*c == '1') buf[i >> 3] |= (uint8_t)(0x80u >> (i & 7));
        i++;
    }
    *out = buf;
    return n;
}

static int codes_decode(int argc, char **argv, const char *prog)
{
    const char *code_arg = NULL, *bits_arg = NULL, *file = NULL;
    uint64_t offset = 0, count = 0;
    int have_count = 0, rc = -1;
    uint8_t *data = NULL;
    cli_iter it;
    const char *a, *val;
    int is_opt, got;

    cli_iter_init(&it, argc, argv);
    while (rc < 0 && (a = cli_next(&it, &is_opt)) != NULL) {
        const char *why = NULL;
        if (!is_opt) {
            if (file) rc = cli_usage_error(prog, "more than one input ('%s', '%s')", file, a);
            file = a;
        } else if (cli_is_help(a)) {
            decode_help(stdout);
            rc = cli_finish_stdout(prog, CLI_EXIT_OK);
        } else if ((got = cli_value(&it, a, "--code", &val)) != 0) {
            if (got < 0) rc = cli_usage_error(prog, "--code needs a value");
            else code_arg = val;
        } else if ((got = cli_value(&it, a, "--bits", &val)) != 0) {
            if (got < 0) rc = cli_usage_error(prog, "--bits needs a value");
            else bits_arg = val;
        } else if ((got = cli_value(&it, a, "--offset", &val)) != 0) {
            why = got < 0 ? "needs a value" : cli_parse_u64(val, &offset);
            if (why) rc = cli_usage_error(prog, "--offset: %s", why);
        } else if ((got = cli_value(&it, a, "--count", &val)) != 0) {
            why = got < 0 ? "needs a value" : cli_parse_u64(val, &count);
            if (why) rc = cli_usage_error(prog, "--count: %s", why);
            have_count = 1;
        } else {
            rc = cli_usage_error(prog, "unknown option '%s'", a);
        }
    }
    if (rc >= 0) return rc;
    if (!code_arg) return cli_usage_error(prog, "--code is required");
    if (bits_arg && file) return cli_usage_error(prog, "give --bits or an input file, not both");
    cli_code code;
    if ((rc = take_code(prog, code_arg, &code)) >= 0) return rc;
    if (code.kind == CLI_CODE_FIXED && code.param == 0 && !have_count) {
        /* read(0) never advances, so "until the input ends" would not end. */
        return cli_usage_error(prog, "fixed:0 consumes no bits; give --count");
    }

    bitsrc in = {-1, NULL, 0, 0, 0, 0, 0};
    const char *path = file ? file : "-";
    if (bits_arg) {
        uint64_t nbits = pack_bits(prog, bits_arg, &data, &rc);
        if (nbits == UINT64_MAX) return rc;
        in.buf = data, in.len = (size_t)(nbits / 8), in.eof = 1, in.tail_bits = nbits % 8;
        data = NULL;
    } else {
        in.fd = cli_open_input(prog, path);
        if (in.fd < 0) return CLI_EXIT_FAIL;
    }
    rc = decode_stream(prog, path, &code, &in, offset, have_count, count);
    if (in.fd > 0) close(in.fd);
    free(in.buf);
    return cli_finish_stdout(prog, rc);
}
