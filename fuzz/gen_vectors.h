/* CODES.md §7 test vectors, transcribed in the spec's bit notation for the
 * seed generator (fuzz/gen_corpus.c). Only that file includes this header. */
#ifndef RSV_FUZZ_GEN_VECTORS_H
#define RSV_FUZZ_GEN_VECTORS_H

#include <stdint.h>

enum code { FX, EG, GO };
static const char *const code_names[] = {"fixed", "eg", "golomb"};
#define MAX64 UINT64_MAX

/* §7.1 valid codes: code, parameter, value, exact bits (rows 1-40 in order). */
static const struct valid {
    enum code code;
    uint64_t param, value;
    const char *bits;
} v71[] = {
    {FX, 0, 0, ""},
    {FX, 3, 5, "101"},
    {FX, 64, MAX64, "1^64"},
    {EG, 0, 0, "1"},
    {EG, 0, 1, "010"},
    {EG, 0, 2, "011"},
    {EG, 0, 3, "00100"},
    {EG, 0, 6, "00111"},
    {EG, 0, 7, "0001000"},
    {EG, 0, 127, "0^7 1 0^7"},
    {EG, 0, (UINT64_C(1) << 63) - 1, "0^63 1 0^63"},
    {EG, 0, MAX64 - 1, "0^63 1^64"},
    {EG, 0, MAX64, "0^64 1 0^64"},
    {EG, 1, 0, "10"},
    {EG, 1, 5, "011 1"},
    {EG, 1, MAX64, "0^63 1 0^63 1"},
    {EG, 3, 0, "1 000"},
    {EG, 3, 9, "010 001"},
    {EG, 3, 1023, "0^7 1 0^7 111"},
    {EG, 63, 5, "1 0^60 101"},
    {EG, 63, MAX64, "010 1^63"},
    {GO, 1, 0, "1"},
    {GO, 1, 3, "0001"},
    {GO, 2, 5, "001 1"},
    {GO, 4, 6, "01 10"},
    {GO, 3, 0, "1 0"},
    {GO, 3, 4, "01 10"},
    {GO, 5, 2, "1 10"},
    {GO, 5, 3, "1 110"},
    {GO, 5, 4, "1 111"},
    {GO, 7, 0, "1 00"},
    {GO, 7, 1, "1 010"},
    {GO, 7, 6, "1 111"},
    {GO, 7, 7, "01 00"},
    {GO, 7, 20, "001 111"},
    {GO, MAX64, 0, "1 0^63"},
    {GO, MAX64, 1, "1 0^62 10"},
    {GO, MAX64, MAX64 - 1, "1 1^64"},
    {GO, MAX64, MAX64, "01 0^63"},
    {GO, UINT64_C(1) << 63, MAX64, "01 1^63"},
};

/* §7.2 malformed inputs: operation, parameter, input bits (rows 1-29 in
 * order; M_SPAN is take then skip). The expected error and position are not
 * needed here: the targets check the reader against the oracle. */
enum mop { M_EG, M_GO, M_READ, M_SPAN };
static const struct malformed {
    enum mop op;
    uint64_t param;
    const char *bits;
} v72[] = {
    {M_EG, 0, ""},
    {M_EG, 0, "000"},
    {M_EG, 0, "0^64"},
    {M_EG, 0, "0^65"},
    {M_EG, 0, "0^140"},
    {M_EG, 0, "0001 01"},
    {M_EG, 0, "0^64 1 0^63"},
    {M_EG, 0, "0^64 1 0^63 1"},
    {M_EG, 0, "0^64 1 1^64"},
    {M_EG, 1, "1"},
    {M_EG, 3, "010 01"},
    {M_EG, 1, "0^64 1 0^64"},
    {M_EG, 63, "011"},
    {M_EG, 63, "00100 1^70"},
    {M_EG, 64, "1"},
    {M_GO, MAX64, "001"},
    {M_GO, MAX64, "00"},
    {M_GO, MAX64, "0"},
    {M_GO, MAX64, "01 0^62 10"},
    {M_GO, MAX64, "01 0^62"},
    {M_GO, 7, "000"},
    {M_GO, 7, "1 0"},
    {M_GO, 7, "1 11"},
    {M_GO, 3, "01"},
    {M_GO, 1, "0^20"},
    {M_GO, 0, "1"},
    {M_READ, 65, "1^128"},
    {M_READ, 8, "1^7"},
    {M_SPAN, 9, "0^8"},
};

#endif
