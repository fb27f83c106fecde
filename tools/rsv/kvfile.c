/* rsv — opening KV03 files with positioned diagnostics (see kvfile.h).
 *
 * rsv_kv03_open reports only the status, so after a failed open the file's
 * first 288 bytes (header and directory) are read once more and the failing
 * §9.1 check is located again here: the field it concerns is then named by
 * its file byte offset. Only the failure path pays for this. */
#define _POSIX_C_SOURCE 200809L
#include "kvfile.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "outfile.h"
#include "selector.h"
#include "signals.h"

#define HDR RSV_KV03_HEADER_BYTES
#define DIR_AT(off) (HDR + (off)) /* directory field at body offset `off` */

const char *const cli_kv_section_names[8] = {"data",       "ef-low",     "ef-high",
                                              "ef-samples", "ef-sparse",  "dictionary",
                                              "dict-offsets", "seeds"};

static uint64_t le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = n; i-- > 0;) v = v << 8 | p[i];
    return v;
}

typedef struct field {
    uint64_t off;
    const char *name;
} field;

/* The field behind open failure `st` in file b[0, n): 1 and *fd when the
 * failure has one field, else 0. */
static int open_field(rsv_status st, const uint8_t *b, size_t n, field *fd, char *secname,
                      size_t secname_size)
{
    if (n < HDR) return 0;
    /* The file may have changed since the open: never read past its end. */
    int have_dir = n >= HDR + RSV_KV03_DIRECTORY_BYTES;
    switch (st) {
    case RSV_ERR_WRONG_KIND:
    case RSV_ERR_BAD_MAGIC: *fd = (field){0, "magic"}; return 1;
    case RSV_ERR_BAD_VERSION:
        *fd = le(b + 8, 2) != 1 ? (field){8, "version"} : (field){10, "header length"};
        return 1;
    case RSV_ERR_HEADER_CRC: *fd = (field){68, "header CRC32C"}; return 1;
    case RSV_ERR_BAD_FLAGS:
    case RSV_ERR_UNSUPPORTED_VALUE_POLICY: *fd = (field){12, "flags"}; return 1;
    case RSV_ERR_BAD_UNIT: *fd = (field){16, "address unit"}; return 1;
    case RSV_ERR_BAD_CHECKSUM_KIND: *fd = (field){17, "checksum kind"}; return 1;
    case RSV_ERR_RESERVED:
        if (b[19] != 0) {
            *fd = (field){19, "reserved header byte"};
            return 1;
        }
        for (uint64_t i = 49; i < 64 && have_dir; i++)
            if (b[HDR + i]) {
                *fd = (field){HDR + i, "reserved directory bytes"};
                return 1;
            }
        return 0;
    case RSV_ERR_BAD_BACKSPACE:
        *fd = b[18] > 1 ? (field){18, "backspace code"} : (field){88, "backspace parameter"};
        return 1;
    case RSV_ERR_BAD_POLICY:
        *fd = le(b + 20, 4) == 0 ? (field){20, "codec block W"} : (field){24, "group K"};
        return 1;
    case RSV_ERR_POLICY_WIDTH: *fd = (field){32, "policy value width"}; return 1;
    case RSV_ERR_COMMON_WIDTH: *fd = (field){40, "common value width"}; return 1;
    case RSV_ERR_VALUE_SLOTS: *fd = (field){56, "record count"}; return 1;
    case RSV_ERR_BAD_EXTENT:
        if (le(b + 72, 8) != HDR) *fd = (field){72, "body offset"};
        else if (le(b + 48, 8) % 8) *fd = (field){48, "body extent"};
        else *fd = (field){80, "total file bytes"};
        return 1;
    case RSV_ERR_FILE_SIZE: *fd = (field){80, "total file bytes"}; return 1;
    case RSV_ERR_DIRECTORY_TRUNCATED: *fd = (field){HDR, "directory"}; return 1;
    case RSV_ERR_BAD_DIRECTORY_MAGIC: *fd = (field){DIR_AT(0), "directory magic"}; return 1;
    case RSV_ERR_BAD_DIRECTORY_REVISION:
        if (!have_dir) return 0;
        *fd = le(b + DIR_AT(4), 2) != 3 ? (field){DIR_AT(4), "section revision"}
                                        : (field){DIR_AT(6), "section count"};
        return 1;
    case RSV_ERR_SECTION_RANGE: {
        if (!have_dir) return 0;
        uint64_t body = (uint64_t)n - HDR, end = RSV_KV03_DIRECTORY_BYTES;
        for (int i = 0; i < 8; i++) {
            uint64_t off = le(b + DIR_AT(64 + 16 * i), 8), len = le(b + DIR_AT(72 + 16 * i), 8);
            if (off != ((end + 7) & ~(uint64_t)7) || off > body || len > body - off) {
                snprintf(secname, secname_size, "section %d (%s) offset/length", i,
                         cli_kv_section_names[i]);
                *fd = (field){DIR_AT(64 + 16 * (uint64_t)i), secname};
                return 1;
            }
            end = off + len;
        }
        return 0;
    }
    case RSV_ERR_TRAILING_SECTIONS: *fd = (field){DIR_AT(72 + 16 * 7), "section 7 length"}; return 1;
    case RSV_ERR_BIT_SECTION_EXTENT: {
        if (!have_dir) return 0;
        static const int secs[3] = {0, 5, 7};
        static const uint64_t bits_at[3] = {8, 32, 40};
        for (int k = 0; k < 3; k++) {
            uint64_t bits = le(b + DIR_AT(bits_at[k]), 8);
            uint64_t want = bits / 8 + (bits % 8 != 0);
            if (le(b + DIR_AT(72 + 16 * secs[k]), 8) != want) {
                snprintf(secname, secname_size, "section %d (%s) length", secs[k],
                         cli_kv_section_names[secs[k]]);
                *fd = (field){DIR_AT(72 + 16 * (uint64_t)secs[k]), secname};
                return 1;
            }
        }
        return 0;
    }
    case RSV_ERR_EF_SHAPE: *fd = (field){DIR_AT(48), "EF low width L and sections 1-4"}; return 1;
    case RSV_ERR_DICTIONARY_SHAPE:
    case RSV_ERR_UNSUPPORTED_SELECTORS: *fd = (field){DIR_AT(72 + 16 * 6), "section 6 length"}; return 1;
    case RSV_ERR_METADATA: *fd = (field){DIR_AT(8), "data extent / terminal key length"}; return 1;
    case RSV_ERR_SECTION_SHAPE: *fd = (field){DIR_AT(0), "directory (sections, seeds, extent, U)"}; return 1;
    default: return 0;
    }
}

/* The first bytes (header + directory) for locating an open failure: the
 * whole file is never read here (a sparse file may claim terabytes). */
static size_t read_head(const char *path, uint8_t *b, size_t cap)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return 0;
    size_t n = fread(b, 1, cap, fp);
    fclose(fp);
    return n;
}

int cli_kv_open(const char *prog, const char *label, const char *path, rsv_kv03_file *f)
{
    memset(f, 0, sizeof *f);
    if (strcmp(path, "-") == 0) {
        cli_error(RSV_ERR_IO, "%s: %s: standard input cannot be read as a KV03 file (it is mapped); "
                              "save it to a file first", prog, label);
        return CLI_EXIT_FAIL;
    }
    /* The kind of file first, without blocking (a FIFO with no writer would
     * hang a plain open): only a regular file can be mapped. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0) {
        cli_error(RSV_ERR_IO, "%s: %s: open: %s", prog, label, strerror(errno));
        if (fd >= 0) close(fd);
        return CLI_EXIT_FAIL;
    }
    close(fd);
    if (!S_ISREG(sb.st_mode)) {
        cli_error(RSV_ERR_IO, "%s: %s: is %s, not a regular file (KV03 files are mapped; save the "
                              "data to a file first)", prog, label, cli_file_kind((unsigned)sb.st_mode));
        return CLI_EXIT_FAIL;
    }
    rsv_status st = rsv_kv03_open_path(path, NULL, f);
    if (st == RSV_OK) {
        cli_input_mapped(f->map, f->map_len, prog, label);
        return -1;
    }
    if (st == RSV_ERR_IO) {
        cli_error(st, "%s: %s: open and map: %s", prog, label, strerror(errno));
        return CLI_EXIT_FAIL;
    }
    uint8_t b[HDR + RSV_KV03_DIRECTORY_BYTES];
    field fd_;
    char secname[64];
    if (st == RSV_ERR_TRUNCATED_HEADER) {
        cli_error(st, "%s: %s: open: file is %lld bytes, the header needs %d", prog, label,
                  (long long)sb.st_size, HDR);
        return CLI_EXIT_FAIL;
    }
    /* open_field sees the first 288 bytes and the file's size: what it
     * checks lies there (have_dir guards the directory). */
    size_t got = read_head(path, b, sizeof b);
    size_t n = (uint64_t)sb.st_size > SIZE_MAX ? SIZE_MAX : (size_t)sb.st_size;
    if (got < sizeof b) n = got; /* all of it (or it shrank meanwhile: judge what is there) */
    if (open_field(st, b, n, &fd_, secname, sizeof secname)) {
        if (st == RSV_ERR_FILE_SIZE)
            cli_error(st, "%s: %s: open: file byte %" PRIu64 " (%s = %" PRIu64 ", file has %zu bytes)",
                      prog, label, fd_.off, fd_.name, le(b + 80, 8), n);
        else
            cli_error(st, "%s: %s: open: file byte %" PRIu64 " (%s)", prog, label, fd_.off, fd_.name);
    } else {
        cli_error(st, "%s: %s: open", prog, label);
    }
    return CLI_EXIT_FAIL;
}

void cli_kv_close(rsv_kv03_file *f)
{
    cli_input_unmapped(f->map);
    rsv_kv03_close(f);
}

/* A failure st of a walker's or scan's dictionary read (KV03.md §6.3):
 * m >= 2 and rsv_kv03_dictionary_check fails the same way again. The
 * dictionary check reports no position; the two sections are named. */
static int dictionary_error(const char *prog, const char *label, const rsv_kv03_file *f, rsv_status st)
{
    if (st == RSV_OK || rsv_kv03_code_count(f) < 2 || rsv_kv03_dictionary_check(f) != st) return 0;
    cli_error(st, "%s: %s: dictionary: section 5 (%" PRIu64 " bits) at file byte %" PRIu64
                  ", section 6 (%" PRIu64 " codes) at file byte %" PRIu64, prog, label, f->dict_bits,
              HDR + f->sec_off[5], rsv_kv03_code_count(f), HDR + f->sec_off[6]);
    return 1;
}

/* Scan step 3a failed (RSV_ERR_UNUSED_SELECTOR): the first dictionary code
 * no record uses, found by walking the frames again (the walk itself passed
 * the scan). 0 if it cannot be named (memory, or the file changed). */
static int unused_code(const rsv_kv03_file *f, uint64_t *j, rsv_view *code)
{
    uint64_t m = rsv_kv03_code_count(f);
    uint8_t *used = m >= 2 ? calloc(m, 1) : NULL;
    rsv_kv03_frames fw;
    rsv_kv03_frame fr;
    int more = 1, found = 0;
    if (!used) return 0;
    rsv_status st = rsv_kv03_frames_init(&fw, f);
    while (!st && (st = rsv_kv03_frames_next(&fw, &fr, &more)) == RSV_OK && more)
        if (fr.code < m) used[fr.code] = 1;
    for (uint64_t i = 0; !st && !found && i < m; i++)
        if (!used[i] && rsv_kv03_code(f, i, code) == RSV_OK) *j = i, found = 1;
    free(used);
    return found;
}

void cli_kv_cursor_error(const char *prog, const char *label, const rsv_kv03_file *f, rsv_status st,
                         rsv_kv03_diag d)
{
    if (d.status == RSV_OK) cli_error(st, "%s: %s", prog, label);
    else cli_kv_walk_error(prog, label, f, d);
}

void cli_kv_walk_error(const char *prog, const char *label, const rsv_kv03_file *f,
                       rsv_kv03_diag d)
{
    if (d.record == 0 && d.bit == 0 && dictionary_error(prog, label, f, d.status)) return;
    cli_error(d.status, "%s: %s: record %" PRIu64 ", data-stream bit %" PRIu64 " (file byte %" PRIu64 ")",
              prog, label, d.record, d.bit, HDR + f->sec_off[0] + d.bit / 8);
}

/* First nonzero byte between sections (scan step 5), as a file offset. */
static uint64_t first_gap_byte(const rsv_kv03_file *f)
{
    uint64_t end = RSV_KV03_DIRECTORY_BYTES;
    for (int i = 0; i < 8; i++) {
        for (uint64_t p = end; p < f->sec_off[i]; p++)
            if (f->body[p]) return HDR + p;
        end = f->sec_off[i] + f->sec_len[i];
    }
    return 0;
}

void cli_kv_scan_error(const char *prog, const char *label, const rsv_kv03_file *f,
                       rsv_status st, rsv_kv03_diag d)
{
    if (d.status != RSV_OK) { /* the walk (step 3) failed */
        cli_kv_walk_error(prog, label, f, d);
        return;
    }
    if (dictionary_error(prog, label, f, st)) return;
    switch (st) {
    case RSV_ERR_UNUSED_SELECTOR: {
        uint64_t j;
        rsv_view code;
        if (!unused_code(f, &j, &code) || code.len > RSV_KV03_MAX_CODE_BITS) break;
        char text[RSV_KV03_MAX_CODE_BITS + 1];
        cli_selector_view_text(text, code);
        cli_error(st, "%s: %s: scan: dictionary code %" PRIu64 " '%s' (section 5 at file byte %" PRIu64 ")",
                  prog, label, j, text, HDR + f->sec_off[5]);
        return;
    }
    case RSV_ERR_BODY_CRC:
        cli_error(st, "%s: %s: scan: file byte 64 (body CRC32C over file bytes 96..%" PRIu64 ")", prog,
                  label, f->size);
        return;
    case RSV_ERR_SECTION_ENDPOINTS:
        cli_error(st, "%s: %s: scan: section 6 (dict-offsets) at file byte %" PRIu64
                      " or EF endpoints (sections 1-4)", prog, label, HDR + f->sec_off[6]);
        return;
    case RSV_ERR_EF_CORRUPT:
    case RSV_ERR_EF_NONCANONICAL:
        cli_error(st, "%s: %s: scan: EF sections 1-4 at file byte %" PRIu64, prog, label,
                  HDR + f->sec_off[1]);
        return;
    case RSV_ERR_COMMON_WIDTH_NONCANONICAL:
        cli_error(st, "%s: %s: scan: file byte 40 (common value width; flags at byte 12)", prog, label);
        return;
    case RSV_ERR_NONZERO_GAP:
        cli_error(st, "%s: %s: scan: file byte %" PRIu64 " (gap between sections)", prog, label,
                  first_gap_byte(f));
        return;
    case RSV_ERR_NONZERO_PADDING: {
        static const int secs[3] = {0, 5, 7};
        const uint64_t bits[3] = {f->extent, f->dict_bits, f->seed_bits};
        for (int k = 0; k < 3; k++) {
            unsigned used = (unsigned)(bits[k] % 8);
            uint64_t at = f->sec_off[secs[k]] + bits[k] / 8;
            if (used && (f->body[at] & (0xFFu >> used))) {
                cli_error(st, "%s: %s: scan: file byte %" PRIu64 " (last byte of section %d, %s)", prog,
                          label, HDR + at, secs[k], cli_kv_section_names[secs[k]]);
                return;
            }
        }
        break;
    }
    default: break;
    }
    cli_error(st, "%s: %s: scan", prog, label);
}

int cli_kv_cmd_args(cli_kv_cmd *c, int argc, char **argv, const char *prog, void (*help)(FILE *),
                    const char *const *flags, int nflags)
{
    const char *a;
    int is_opt;
    cli_iter it;
    memset(c, 0, sizeof *c);
    cli_iter_init(&it, argc, argv);
    while ((a = cli_next(&it, &is_opt)) != NULL) {
        if (!is_opt) {
            if (c->path) return cli_usage_error(prog, "more than one FILE ('%s', '%s')", c->path, a);
            c->path = a;
            continue;
        }
        if (cli_is_help(a)) {
            help(stdout);
            return cli_finish_stdout(prog, CLI_EXIT_OK);
        }
        int k = 0;
        while (k < nflags && !cli_flag(a, flags[k])) k++;
        if (k == nflags) return cli_usage_error(prog, "unknown option '%s'", a);
        c->flag[k]++;
        c->nflags_given++;
    }
    return -1;
}

int cli_kv_cmd_open(cli_kv_cmd *c, const char *prog)
{
    if (!c->path) return cli_usage_error(prog, "missing FILE");
    snprintf(c->label, sizeof c->label, "'%s'", c->path);
    return cli_kv_open(prog, c->label, c->path, &c->f);
}

int cli_kv_cmd_close(cli_kv_cmd *c, const char *prog, int rc)
{
    cli_kv_close(&c->f);
    return cli_finish_stdout(prog, rc);
}
