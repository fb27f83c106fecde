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
 *      PROT_NONE page (no load past section 7);
 *   4. frames and cursor over a second file, codes 000000, 000001 and 1000,
 *      with its section 5 (the two bytes of the dictionary's 16 bits) copied
 *      against a PROT_NONE page and the opened file's `dict` pointed there:
 *      in a file, section 6 follows section 5, so a load past section 5 is
 *      only visible this way. The transition 000000 -> 000001 keeps R = 5
 *      bits; its binary search for the codes with prefix 00000 asks first
 *      whether D_2 = 1000 has it. D_2 is shorter than R, and reading R bits
 *      of it would run one byte past section 5 (§6: a code is the bit range
 *      [e_j, e_{j+1}) of section 5, and nothing beyond it is read).
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

/* Case 4: records (000000, "a"), (000001, "a"), (1000, "a") in one block. */
static int relocated_dictionary(void)
{
    static const uint8_t c0[1] = {0x00}, c1[1] = {0x04}, c2[1] = {0x80};
    static const rsv_oracle_kv03_policy pol = {RSV_ORACLE_BACKSPACE_EG, 0, 15, 15};
    rsv_oracle_crecord r[3];
    const uint8_t *bits[3] = {c0, c1, c2};
    const uint64_t nbits[3] = {6, 6, 4};
    for (int i = 0; i < 3; i++)
        r[i] = (rsv_oracle_crecord){{bits[i], nbits[i]}, {(const uint8_t *)"a", 1, RSV_ORACLE_PRESENT, (const uint8_t *)"v", 1}};
    uint8_t *file = NULL;
    size_t n, bad;
    if (rsv_oracle_kv03_encode_v2(r, 3, &pol, &file, &n, &bad) != RSV_OK) return 2;
    rsv_kv03_file f;
    if (rsv_kv03_open(file, n, NULL, &f) != RSV_OK || f.m != 3 || f.dict_bits != 16) return 2;
    rsv_guard_buf g;
    if (rsv_guard_tail(&g, 2) != 0) return 2;
    memcpy(g.ptr, f.dict, 2);
    f.dict = g.ptr;
    rsv_guard_set_case("kv03 v2: section 5 alone against PROT_NONE (transition with R = 5)");
    rsv_kv03_frames fw;
    rsv_kv03_frame fr;
    int more, ok = rsv_kv03_frames_init(&fw, &f) == RSV_OK;
    for (uint64_t i = 0; ok && i < 3; i++) ok = rsv_kv03_frames_next(&fw, &fr, &more) == RSV_OK && more && fr.code == i;
    gk_check(ok, "frames, section 5 relocated", "codes 0, 1, 2");
    rsv_kv03_cursor c;
    rsv_kv03_entry e;
    ok = rsv_kv03_cursor_init(&c, &f) == RSV_OK;
    for (uint64_t i = 0; ok && i < 3; i++)
        ok = rsv_kv03_cursor_record(&c, &e, &more) == RSV_OK && more && e.code == i && e.key_len == 1 && e.key[0] == 'a';
    gk_check(ok, "cursor records, section 5 relocated", "codes 0, 1, 2, keys \"a\"");
    rsv_kv03_cursor_free(&c);
    rsv_guard_release(&g);
    free(file);
    return 0;
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
    if (relocated_dictionary() != 0) return 2;
    rsv_guard_set_case("kv03 v2: finished");
    return gk_report();
}
