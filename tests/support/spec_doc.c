/* Expected bytes read from docs/spec/KV03.md (see spec_doc.h). */
#include "spec_doc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef RSV_SPEC_DIR
#error "RSV_SPEC_DIR must name the docs/spec directory"
#endif

const char *rsv_spec_path(void)
{
    return RSV_SPEC_DIR "/KV03.md";
}

/* The whole file, NUL-terminated, or NULL. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf != NULL) {
        if (n + 1 >= cap) {
            char *p = realloc(buf, cap * 2);
            if (p == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = p;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - 1 - n, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    if (buf != NULL)
        buf[n] = '\0';
    return buf;
}

static int is_heading(const char *line)
{
    return line[0] == '#';
}

/* [*begin, *end) = the body of the section whose heading text starts with
 * prefix (from the line after the heading to the next heading line). */
static int find_section(const char *doc, const char *prefix, const char **begin, const char **end)
{
    size_t plen = strlen(prefix);
    for (const char *line = doc; *line != '\0';) {
        const char *next = strchr(line, '\n');
        next = next ? next + 1 : line + strlen(line);
        if (is_heading(line)) {
            const char *t = line;
            while (*t == '#')
                t++;
            while (*t == ' ')
                t++;
            if (strncmp(t, prefix, plen) == 0) {
                *begin = next;
                const char *l = next;
                while (*l != '\0' && !is_heading(l)) {
                    const char *nl = strchr(l, '\n');
                    l = nl ? nl + 1 : l + strlen(l);
                }
                *end = l;
                return 0;
            }
        }
        line = next;
    }
    return -1;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = (char)tolower((unsigned char)c);
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

static int push(uint8_t **bytes, size_t *n, size_t *cap, uint8_t b)
{
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 64;
        uint8_t *p = realloc(*bytes, c);
        if (p == NULL)
            return -1;
        *bytes = p;
        *cap = c;
    }
    (*bytes)[(*n)++] = b;
    return 0;
}

/* One dump line at l: "    OOOO  hh hh ...". Appends its bytes; -1 if l is
 * not a dump line or its offset is not *n. */
static int dump_line(const char *l, const char *eol, uint8_t **bytes, size_t *n, size_t *cap)
{
    if (eol - l < 10 || strncmp(l, "    ", 4) != 0)
        return -1;
    const char *p = l + 4;
    unsigned long off = 0;
    int digits = 0;
    while (p < eol && hexval(*p) >= 0) {
        off = off * 16 + (unsigned long)hexval(*p++);
        digits++;
    }
    if (digits < 4 || p + 2 > eol || p[0] != ' ' || p[1] != ' ' || off != *n)
        return -1;
    p += 2;
    int count = 0;
    while (p < eol) {
        if (p + 2 > eol || hexval(p[0]) < 0 || hexval(p[1]) < 0)
            return -1;
        if (push(bytes, n, cap, (uint8_t)(hexval(p[0]) * 16 + hexval(p[1]))) != 0)
            return -1;
        count++;
        p += 2;
        if (p < eol && *p == ' ')
            p++;
    }
    return count > 0 && count <= 16 ? 0 : -1;
}

int rsv_spec_hexdump(const char *heading_prefix, uint8_t **bytes, size_t *n)
{
    *bytes = NULL;
    *n = 0;
    char *doc = slurp(rsv_spec_path());
    if (doc == NULL)
        return -1;
    const char *b, *e;
    int rc = -1;
    size_t cap = 0;
    if (find_section(doc, heading_prefix, &b, &e) == 0) {
        int in_dump = 0;
        for (const char *l = b; l < e;) {
            const char *eol = memchr(l, '\n', (size_t)(e - l));
            if (eol == NULL)
                eol = e;
            size_t before = *n;
            if (dump_line(l, eol, bytes, n, &cap) == 0) {
                in_dump = 1;
            } else {
                *n = before;
                if (in_dump)
                    break; /* the first dump ended */
            }
            l = eol < e ? eol + 1 : e;
        }
        rc = in_dump ? 0 : -1;
    }
    free(doc);
    if (rc != 0) {
        free(*bytes);
        *bytes = NULL;
        *n = 0;
    }
    return rc;
}

/* Parses a backticked run [p, q) as >= 4 hex bytes; -1 if it is not one. */
static int hex_run(const char *p, const char *q, uint8_t **bytes, size_t *n)
{
    size_t cap = 0;
    *n = 0;
    while (p < q) {
        if (q - p < 2 || hexval(p[0]) < 0 || hexval(p[1]) < 0 || (q - p > 2 && p[2] != ' '))
            goto bad;
        if (push(bytes, n, &cap, (uint8_t)(hexval(p[0]) * 16 + hexval(p[1]))) != 0)
            goto bad;
        p += q - p > 2 ? 3 : 2;
    }
    if (*n >= 4)
        return 0;
bad:
    free(*bytes);
    *bytes = NULL;
    *n = 0;
    return -1;
}

int rsv_spec_hex_after(const char *heading_prefix, const char *anchor, uint8_t **bytes, size_t *n)
{
    *bytes = NULL;
    *n = 0;
    char *doc = slurp(rsv_spec_path());
    if (doc == NULL)
        return -1;
    const char *b, *e;
    int rc = -1;
    if (find_section(doc, heading_prefix, &b, &e) == 0) {
        const char *a = strstr(b, anchor);
        if (a != NULL && a < e) {
            for (const char *p = a + strlen(anchor); p < e && rc != 0; p++) {
                if (*p != '`')
                    continue;
                const char *q = memchr(p + 1, '`', (size_t)(e - p - 1));
                if (q == NULL)
                    break;
                rc = hex_run(p + 1, q, bytes, n);
                p = q; /* continue after the closing backtick */
            }
        }
    }
    free(doc);
    return rc;
}
