/* rsv — byte strings as text (see textenc.h). */
#include "textenc.h"

static const char hexd[] = "0123456789abcdef";

static void put_xhh(FILE *out, uint8_t c)
{
    fputc('\\', out);
    fputc('x', out);
    fputc(hexd[c >> 4], out);
    fputc(hexd[c & 15], out);
}

/* "..." with " and \ escaped and printable ASCII as is; any other byte
 * as \xHH (json = 0) or \u00HH (json = 1). */
static void put_quoted(FILE *out, const uint8_t *p, size_t n, int json)
{
    fputc('"', out);
    for (size_t i = 0; i < n; i++) {
        uint8_t c = p[i];
        if (c == '"' || c == '\\') {
            fputc('\\', out);
            fputc(c, out);
        } else if (c >= 0x20 && c < 0x7F) {
            fputc(c, out);
        } else if (json) {
            fprintf(out, "\\u%04x", (unsigned)c);
        } else {
            put_xhh(out, c);
        }
    }
    fputc('"', out);
}

void cli_put_quoted(FILE *out, const uint8_t *p, size_t n) { put_quoted(out, p, n, 0); }

void cli_put_hex(FILE *out, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        fputc(hexd[p[i] >> 4], out);
        fputc(hexd[p[i] & 15], out);
    }
}

void cli_put_tsv(FILE *out, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint8_t c = p[i];
        switch (c) {
        case '\t': fputs("\\t", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\\': fputs("\\\\", out); break;
        default:
            if (c >= 0x20 && c < 0x7F) fputc(c, out);
            else put_xhh(out, c);
        }
    }
}

void cli_put_json(FILE *out, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] >= 0x80) { /* not ASCII: the unambiguous byte form */
            fputs("{\"hex\": \"", out);
            cli_put_hex(out, p, n);
            fputs("\"}", out);
            return;
        }
    }
    put_quoted(out, p, n, 1);
}

int cli_hex_digit(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

rsv_status cli_tsv_decode(const uint8_t *s, size_t n, cli_buf *out, const char **why, size_t *at)
{
    rsv_status st = cli_buf_reserve(out, n); /* decoding never grows a field */
    if (st) return st;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = s[i];
        if (c != '\\') {
            out->p[out->len++] = c;
            continue;
        }
        *at = i;
        if (i + 1 >= n) {
            *why = "backslash at the end of a field";
            return RSV_ERR_INVALID_ARGUMENT;
        }
        switch (s[++i]) {
        case 't': c = '\t'; break;
        case 'n': c = '\n'; break;
        case 'r': c = '\r'; break;
        case '\\': c = '\\'; break;
        case 'x': {
            int hi = i + 1 < n ? cli_hex_digit(s[i + 1]) : -1;
            int lo = i + 2 < n ? cli_hex_digit(s[i + 2]) : -1;
            if (hi < 0 || lo < 0) {
                *why = "\\x needs two hex digits";
                return RSV_ERR_INVALID_ARGUMENT;
            }
            c = (uint8_t)(hi << 4 | lo);
            i += 2;
            break;
        }
        case 'N':
            *why = "\\N (tombstone) is only valid as a whole value field";
            return RSV_ERR_INVALID_ARGUMENT;
        default:
            *why = "unknown escape (use \\t \\n \\r \\\\ or \\xHH)";
            return RSV_ERR_INVALID_ARGUMENT;
        }
        out->p[out->len++] = c;
    }
    return RSV_OK;
}
