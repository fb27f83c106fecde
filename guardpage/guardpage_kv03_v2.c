/* KV03 v2 reads touch only their sections (KV03.md §6.3, §9.1, §3.3), on
 * the §12.5 multi-code file (read from docs/spec/KV03.md):
 *   1. rsv_kv03_dictionary_check and rsv_kv03_code with every byte before
 *      section 5 PROT_NONE (header, directory, data, EF) — plus the seed
 *      reads rsv_kv03_seed and rsv_kv03_first_block_of_code (section 7) —
 *      then with every byte from section 7 on PROT_NONE;
 *   2. frames, cursor (records and values), seeks to every code and
 *      rsv_kv03_first_block_of_code with the header and directory PROT_NONE
 *      (the walk reads sections 0-7 only);
 *   3. the same walks and a scan with the file's last byte against a
 *      PROT_NONE page (no load past section 7).
 * The file is opened while everything is readable; each run then revokes
 * the pages and must finish without a fault, with the spec's results. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "guardpage_kv03_common.h"
#include "spec_doc.h"

static void dictionary_reads(const rsv_kv03_file *f, const char *what)
{
    static const char *want[3] = {"0", "10", "11"};
    gk_check(rsv_kv03_dictionary_check(f) == RSV_OK, what, "dictionary check");
    for (uint64_t j = 0; j < 3; j++) {
        rsv_view v;
        int ok = rsv_kv03_code(f, j, &v) == RSV_OK && v.len == strlen(want[j]);
        for (uint64_t i = 0; ok && i < v.len; i++)
            ok = ((v.data[(v.off + i) / 8] >> (7 - (v.off + i) % 8)) & 1u) == (unsigned)(want[j][i] - '0');
        gk_check(ok, what, "code bits");
    }
}

/* Frames, cursor records and seeks: the §12.5 codes and keys. */
static void walks(const rsv_kv03_file *f, const char *what)
{
    static const uint64_t codes[6] = {0, 0, 1, 2, 2, 2};
    static const char *keys[6] = {"a", "ab", "", "a", "b", "ba"};
    rsv_kv03_frames fw;
    rsv_kv03_frame fr;
    int more, ok = rsv_kv03_frames_init(&fw, f) == RSV_OK;
    for (int i = 0; ok && i < 6; i++) ok = rsv_kv03_frames_next(&fw, &fr, &more) == RSV_OK && more && fr.code == codes[i];
    gk_check(ok, what, "frames");
    rsv_kv03_cursor c;
    rsv_kv03_entry e;
    ok = rsv_kv03_cursor_init(&c, f) == RSV_OK;
    for (int i = 0; ok && i < 6; i++)
        ok = rsv_kv03_cursor_record(&c, &e, &more) == RSV_OK && more && e.code == codes[i] &&
             e.key_len == strlen(keys[i]) && memcmp(e.key, keys[i], e.key_len) == 0;
    gk_check(ok, what, "cursor records");
    static const uint64_t first[3] = {0, 2, 3};
    for (uint64_t j = 0; j < 3; j++) {
        uint64_t lo, hi;
        ok = rsv_kv03_first_block_of_code(f, j, &lo, &hi) == RSV_OK && rsv_kv03_cursor_seek_code(&c, j) == RSV_OK &&
             rsv_kv03_cursor_next(&c, &e, &more) == RSV_OK && more && e.index == first[j];
        gk_check(ok, what, "seek");
    }
    rsv_kv03_cursor_free(&c);
}

int main(void)
{
    rsv_guard_install_fault_handler();
    (void)gk_encode;
    size_t n;
    uint8_t *bytes = NULL;
    if (rsv_spec_hexdump("12.5", &bytes, &n) != 0 || n != 377) return 2;
    const size_t sec5 = 96 + 240, sec7 = 96 + 280, sec0 = 96 + 192;
    gk_mapped m;
    size_t lead;
    rsv_kv03_file f;

    /* 1a: nothing before section 5 */
    if (gk_map_at(&m, bytes, n, sec5, &lead) != 0 || rsv_kv03_open(m.file, n, NULL, &f) != RSV_OK) return 2;
    if (mprotect(m.map, lead, PROT_NONE) != 0) return 2;
    rsv_guard_set_case("kv03 v2: dictionary and seed reads, bytes before section 5 PROT_NONE");
    dictionary_reads(&f, "dictionary, before section 5 revoked");
    uint64_t s0, s1, lo, hi;
    gk_check(rsv_kv03_seed(&f, 0, &s0) == RSV_OK && rsv_kv03_seed(&f, 1, &s1) == RSV_OK && s0 == 0 && s1 == 2,
             "seeds, before section 5 revoked", "seeds 0, 2");
    gk_check(rsv_kv03_first_block_of_code(&f, 2, &lo, &hi) == RSV_OK && lo == 0 && hi == 1,
             "first block of code 2, before section 5 revoked", "[0, 1]");
    gk_unmap(&m);
    /* 1b: nothing from section 7 on */
    if (gk_map_at(&m, bytes, n, sec7, &lead) != 0 || rsv_kv03_open(m.file, n, NULL, &f) != RSV_OK) return 2;
    if (mprotect(m.map + lead, m.len - lead, PROT_NONE) != 0) return 2;
    rsv_guard_set_case("kv03 v2: dictionary reads, section 7 on PROT_NONE");
    dictionary_reads(&f, "dictionary, section 7 revoked");
    gk_unmap(&m);
    /* 2: header and directory revoked during the walks */
    if (gk_map_at(&m, bytes, n, sec0, &lead) != 0 || rsv_kv03_open(m.file, n, NULL, &f) != RSV_OK) return 2;
    if (mprotect(m.map, lead, PROT_NONE) != 0) return 2;
    rsv_guard_set_case("kv03 v2: walks, header and directory PROT_NONE");
    walks(&f, "walks, header and directory revoked");
    gk_unmap(&m);
    /* 3: the file's end against a guard page */
    if (gk_map_split(&m, bytes, n, n) != 0 || rsv_kv03_open(m.file, n, NULL, &f) != RSV_OK) return 2;
    rsv_guard_set_case("kv03 v2: walks and scan, file end against PROT_NONE");
    walks(&f, "walks, end guarded");
    rsv_kv03_diag d;
    gk_check(rsv_kv03_scan(&f, &d) == RSV_OK, "scan, end guarded", "scan");
    gk_unmap(&m);
    free(bytes);
    rsv_guard_set_case("kv03 v2: finished");
    return gk_report();
}
