/* The oracle's record lists own their keys' and values' bytes in blocks
 * (oracle/src/records.c): what a pointer handed out keeps, across many pushes
 * and blocks, and (under ASan) that a read past a key's end is still reported
 * at its first byte, as it was when every key had a malloc of its own. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "reservoir/oracle_kv03.h"

/* Record i: key of i % 37 + 1 bytes, value of (i * 7) % 300 bytes (0 = present
 * and empty), every fifth a tombstone, one value of 200,000 bytes (more than a
 * whole block); byte j of record i is (i * 31 + j) & 0xFF. */
static size_t klen(size_t i) { return i % 37 + 1; }
static size_t vlen(size_t i) { return i == 500 ? 200000 : (i * 7) % 300; }
static uint8_t byte_of(size_t i, size_t j) { return (uint8_t)((i * 31 + j) & 0xFFu); }

Test(oracle_records, copies_stay_put_across_blocks)
{
    enum { N = 1200 };
    static uint8_t kbuf[64], *vbuf;
    vbuf = malloc(200000);
    cr_assert_not_null(vbuf);
    rsv_oracle_records l = {0};
    const uint8_t *first_key = NULL;
    for (size_t i = 0; i < N; i++) {
        for (size_t j = 0; j < klen(i); j++) kbuf[j] = byte_of(i, j);
        for (size_t j = 0; j < vlen(i); j++) vbuf[j] = byte_of(i, j + 1);
        rsv_oracle_value_state st = i % 5 == 4 ? RSV_ORACLE_TOMBSTONE : RSV_ORACLE_PRESENT;
        cr_assert_eq(rsv_oracle_records_push(&l, kbuf, klen(i), st, vbuf, vlen(i)), RSV_OK);
        if (i == 0) first_key = l.items[0].key;
        memset(kbuf, 0xEE, sizeof kbuf); /* the list holds copies, not these buffers */
        memset(vbuf, 0xEE, vlen(i));
    }
    cr_assert_eq(l.count, N);
    cr_assert_eq(l.items[0].key, first_key, "a key moved when the list grew");
    for (size_t i = 0; i < N; i++) {
        const rsv_oracle_record *r = &l.items[i];
        cr_assert_eq(r->key_len, klen(i));
        for (size_t j = 0; j < klen(i); j++) cr_assert_eq(r->key[j], byte_of(i, j), "record %zu key byte %zu", i, j);
        if (i % 5 == 4) {
            cr_assert_eq(r->state, RSV_ORACLE_TOMBSTONE);
            cr_assert_null(r->value);
            cr_assert_eq(r->value_len, 0);
            continue;
        }
        cr_assert_eq(r->state, RSV_ORACLE_PRESENT);
        cr_assert_eq(r->value_len, vlen(i));
        if (vlen(i) == 0) cr_assert_null(r->value);
        for (size_t j = 0; j < vlen(i); j++)
            cr_assert_eq(r->value[j], byte_of(i, j + 1), "record %zu value byte %zu", i, j);
    }
    rsv_oracle_records_free(&l);
    cr_assert_null(l.items);
    cr_assert_null(l.blocks);
    cr_assert_eq(l.count, 0);
    cr_assert_eq(l.cap, 0);
    rsv_oracle_records_free(&l); /* twice: a freed list is an empty one */
    free(vbuf);
}

Test(oracle_records, empty_key_and_value_are_null)
{
    rsv_oracle_records l = {0};
    cr_assert_eq(rsv_oracle_records_push(&l, NULL, 0, RSV_ORACLE_PRESENT, NULL, 0), RSV_OK);
    cr_assert_eq(rsv_oracle_records_push(&l, (const uint8_t *)"k", 1, RSV_ORACLE_PRESENT, NULL, 0), RSV_OK);
    cr_assert_null(l.items[0].key);
    cr_assert_null(l.items[0].value);
    cr_assert_eq(l.items[1].key[0], 'k');
    cr_assert_null(l.items[1].value);
    cr_assert_eq(rsv_oracle_records_push(&l, NULL, 1, RSV_ORACLE_PRESENT, NULL, 0), RSV_ERR_INVALID_ARGUMENT);
    cr_assert_eq(l.count, 2);
    rsv_oracle_records_free(&l);
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HAVE_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(HAVE_ASAN)
#define HAVE_ASAN 1
#endif

#ifdef HAVE_ASAN
/* In a child: push three records, read byte `at` of record 1's key (length
 * 3). The parent wants a clean exit for 0..2 and an ASan report otherwise. */
static int read_key_byte(long at, char *report, size_t cap)
{
    int fd[2];
    cr_assert_eq(pipe(fd), 0);
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        dup2(fd[1], 2);
        close(fd[0]);
        rsv_oracle_records l = {0};
        rsv_oracle_records_push(&l, (const uint8_t *)"abcdefgh", 8, RSV_ORACLE_PRESENT, (const uint8_t *)"v", 1);
        rsv_oracle_records_push(&l, (const uint8_t *)"abc", 3, RSV_ORACLE_PRESENT, (const uint8_t *)"xyz", 3);
        rsv_oracle_records_push(&l, (const uint8_t *)"abd", 3, RSV_ORACLE_TOMBSTONE, NULL, 0);
        volatile uint8_t x = l.items[1].key[at];
        (void)x;
        rsv_oracle_records_free(&l);
        _exit(0);
    }
    close(fd[1]);
    size_t got = 0;
    ssize_t r;
    while (got + 1 < cap && (r = read(fd[0], report + got, cap - 1 - got)) > 0) got += (size_t)r;
    report[got] = 0;
    close(fd[0]);
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    return status;
}

Test(oracle_records, read_past_a_key_is_reported_at_its_first_byte)
{
    static char report[16384];
    for (long at = 0; at < 3; at++) {
        int status = read_key_byte(at, report, sizeof report);
        cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "byte %ld of a 3-byte key: %s", at, report);
    }
    for (long at = 3; at <= 8; at++) { /* the byte after it, up to the next piece */
        int status = read_key_byte(at, report, sizeof report);
        cr_assert(!(WIFEXITED(status) && WEXITSTATUS(status) == 0), "byte %ld of a 3-byte key was read", at);
        cr_assert_not_null(strstr(report, "AddressSanitizer"), "byte %ld: %s", at, report);
    }
    int status = read_key_byte(-1, report, sizeof report); /* the byte before it */
    cr_assert(!(WIFEXITED(status) && WEXITSTATUS(status) == 0), "byte -1 of a key was read");
    cr_assert_not_null(strstr(report, "AddressSanitizer"), "byte -1: %s", report);
}
#endif
