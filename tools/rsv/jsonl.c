/* rsv — one JSON line of `rsv write --from jsonl` (see jsonl.h). A small
 * recursive-descent parser for exactly this shape: the tool never needs
 * general JSON, and a strict parser reports typos instead of guessing. */
#include "jsonl.h"

#include <string.h>

#include "textenc.h"

typedef struct parser {
    const uint8_t *s;
    size_t n, i;
    cli_buf *arena;
    const char *why;
} parser;

static rsv_status fail(parser *p, const char *why)
{
    p->why = why;
    return RSV_ERR_INVALID_ARGUMENT;
}

static void skip_ws(parser *p)
{
    while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\r' || p->s[p->i] == '\n'))
        p->i++;
}

static int eat(parser *p, uint8_t c)
{
    skip_ws(p);
    if (p->i < p->n && p->s[p->i] == c) {
        p->i++;
        return 1;
    }
    return 0;
}

static int hex4(parser *p, unsigned *v)
{
    if (p->n - p->i < 4) return 0;
    *v = 0;
    for (int k = 0; k < 4; k++) {
        int d = cli_hex_digit(p->s[p->i + (size_t)k]);
        if (d < 0) return 0;
        *v = *v << 4 | (unsigned)d;
    }
    p->i += 4;
    return 1;
}

static rsv_status put_utf8(cli_buf *b, unsigned cp)
{
    uint8_t u[4];
    size_t k;
    if (cp < 0x80) {
        u[0] = (uint8_t)cp;
        k = 1;
    } else if (cp < 0x800) {
        u[0] = (uint8_t)(0xC0 | cp >> 6);
        u[1] = (uint8_t)(0x80 | (cp & 0x3F));
        k = 2;
    } else if (cp < 0x10000) {
        u[0] = (uint8_t)(0xE0 | cp >> 12);
        u[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
        u[2] = (uint8_t)(0x80 | (cp & 0x3F));
        k = 3;
    } else {
        u[0] = (uint8_t)(0xF0 | cp >> 18);
        u[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3F));
        u[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
        u[3] = (uint8_t)(0x80 | (cp & 0x3F));
        k = 4;
    }
    return cli_buf_put(b, u, k);
}

/* A JSON string at the current position (after blanks); its bytes go to the
 * arena. */
static rsv_status string(parser *p)
{
    if (!eat(p, '"')) return fail(p, "expected a string");
    rsv_status st;
    for (;;) {
        if (p->i >= p->n) return fail(p, "unterminated string");
        uint8_t c = p->s[p->i++];
        if (c == '"') return RSV_OK;
        if (c < 0x20) return fail(p, "raw control character in a string (escape it)");
        if (c != '\\') {
            if ((st = cli_buf_byte(p->arena, c))) return st;
            continue;
        }
        if (p->i >= p->n) return fail(p, "unterminated string");
        c = p->s[p->i++];
        unsigned cp;
        switch (c) {
        case '"': case '\\': case '/': break;
        case 'b': c = '\b'; break;
        case 'f': c = '\f'; break;
        case 'n': c = '\n'; break;
        case 'r': c = '\r'; break;
        case 't': c = '\t'; break;
        case 'u':
            if (!hex4(p, &cp)) return fail(p, "\\u needs four hex digits");
            if (cp >= 0xDC00 && cp < 0xE000) return fail(p, "unpaired low surrogate");
            if (cp >= 0xD800 && cp < 0xDC00) {
                unsigned lo;
                if (p->n - p->i < 2 || p->s[p->i] != '\\' || p->s[p->i + 1] != 'u')
                    return fail(p, "unpaired high surrogate");
                p->i += 2;
                if (!hex4(p, &lo) || lo < 0xDC00 || lo >= 0xE000) return fail(p, "unpaired high surrogate");
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            }
            if ((st = put_utf8(p->arena, cp))) return st;
            continue;
        default: return fail(p, "unknown escape in a string");
        }
        if ((st = cli_buf_byte(p->arena, c))) return st;
    }
}

/* BYTES: a string or {"hex": "..."}; off and len locate the bytes. */
static rsv_status bytes(parser *p, size_t *off, size_t *len)
{
    rsv_status st;
    *off = p->arena->len;
    skip_ws(p);
    if (!eat(p, '{')) {
        if ((st = string(p))) return st;
        *len = p->arena->len - *off;
        return RSV_OK;
    }
    size_t name = p->arena->len;
    if ((st = string(p))) return st;
    if (p->arena->len - name != 3 || memcmp(p->arena->p + name, "hex", 3) != 0)
        return fail(p, "expected {\"hex\": \"...\"}");
    p->arena->len = name;
    if (!eat(p, ':')) return fail(p, "expected ':'");
    size_t digits = p->arena->len;
    if ((st = string(p))) return st;
    size_t nd = p->arena->len - digits;
    if (nd % 2) return fail(p, "odd number of hex digits");
    /* Decode in place: the bytes land over the first half of the digits. */
    for (size_t k = 0; k < nd / 2; k++) {
        int hi = cli_hex_digit(p->arena->p[digits + 2 * k]);
        int lo = cli_hex_digit(p->arena->p[digits + 2 * k + 1]);
        if (hi < 0 || lo < 0) return fail(p, "not a hex digit in {\"hex\": ...}");
        p->arena->p[digits + k] = (uint8_t)(hi << 4 | lo);
    }
    p->arena->len = digits + nd / 2;
    if (!eat(p, '}')) return fail(p, "expected '}' after the hex string");
    *len = p->arena->len - *off;
    return RSV_OK;
}

static int null_literal(parser *p)
{
    skip_ws(p);
    if (p->n - p->i >= 4 && memcmp(p->s + p->i, "null", 4) == 0) {
        p->i += 4;
        return 1;
    }
    return 0;
}

rsv_status cli_jsonl_parse(const uint8_t *s, size_t n, cli_buf *arena, cli_json_record *out,
                           const char **why, size_t *at)
{
    parser p = {s, n, 0, arena, NULL};
    int have_key = 0, have_value = 0;
    rsv_status st = RSV_OK;
    memset(out, 0, sizeof *out);
    if (!eat(&p, '{')) {
        st = fail(&p, "expected '{'");
        goto out;
    }
    for (;;) {
        size_t name = arena->len;
        if ((st = string(&p))) goto out;
        size_t nlen = arena->len - name;
        int is_key = nlen == 3 && memcmp(arena->p + name, "key", 3) == 0;
        int is_value = nlen == 5 && memcmp(arena->p + name, "value", 5) == 0;
        int is_sel = nlen == 8 && memcmp(arena->p + name, "selector", 8) == 0;
        arena->len = name;
        if (!is_key && !is_value && !is_sel) {
            st = fail(&p, "unknown member (expected \"key\", \"value\" and optionally \"selector\")");
            goto out;
        }
        if ((is_key && have_key) || (is_value && have_value) || (is_sel && out->has_selector)) {
            st = fail(&p, "duplicate member");
            goto out;
        }
        if (!eat(&p, ':')) {
            st = fail(&p, "expected ':'");
            goto out;
        }
        if (is_sel) {
            out->has_selector = 1;
            skip_ws(&p);
            out->sat = p.i;
            out->soff = arena->len;
            if ((st = string(&p))) goto out;
            out->slen = arena->len - out->soff;
            out->sraw = p.i - out->sat == out->slen + 2; /* escapes make the text longer */
        } else if (is_key) {
            have_key = 1;
            if ((st = bytes(&p, &out->koff, &out->klen))) goto out;
        } else {
            have_value = 1;
            if (null_literal(&p)) out->tombstone = 1;
            else if ((st = bytes(&p, &out->voff, &out->vlen))) goto out;
        }
        if (eat(&p, ',')) continue;
        if (eat(&p, '}')) break;
        st = fail(&p, "expected ',' or '}'");
        goto out;
    }
    skip_ws(&p);
    if (p.i != n) st = fail(&p, "text after the object");
    else if (!have_key) st = fail(&p, "missing \"key\"");
    else if (!have_value) st = fail(&p, "missing \"value\" (use null for a tombstone)");
out:
    *why = p.why;
    *at = p.i;
    return st;
}
