/* rsv — what a signal may not leave behind (docs/rsv.md, SIGNALS):
 *
 *  - SIGINT, SIGTERM, SIGHUP, SIGXFSZ: the output temporary being written is
 *    unlinked (async-signal-safe unlink of a name recorded beforehand), then
 *    the signal is re-raised with its default action, so the exit status is
 *    the conventional "killed by signal" one. A signal that was ignored when
 *    rsv started stays ignored (nohup; `trap '' XFSZ` makes a file-size
 *    limit an EFBIG write error reported as "File too large", exit 1).
 *  - SIGBUS: KV03 inputs are mapped; a file that shrinks while mapped raises
 *    SIGBUS on the next read of a vanished page. The handler finds the input
 *    the address belongs to, prints "input changed while being read" for it
 *    as an RSV_ERR_IO error, unlinks the temporary and exits with 1 (no
 *    unwinding: nothing else runs, buffered standard output is dropped).
 *
 * The name is recorded with the cleanup signals blocked (cli_signals_block
 * ... cli_temp_arm ... cli_signals_unblock) so no window is left between
 * creating the temporary and recording it. */
#ifndef RSV_SIGNALS_H
#define RSV_SIGNALS_H

#include <stddef.h>

/* Install the handlers (once, from main). */
void cli_signals_install(void);
void cli_signals_block(void);
void cli_signals_unblock(void);
/* Record (copy) the temporary's name to unlink on a signal; NULL or a name
 * too long for the buffer records nothing. */
void cli_temp_arm(const char *tmp);
/* The temporary was renamed or removed: forget it. */
void cli_temp_disarm(void);
/* A mapped input [addr, addr + len) of command `prog`, named by `label`
 * ("'PATH'" or "input #K 'PATH'"), for the SIGBUS message. */
void cli_input_mapped(const void *addr, size_t len, const char *prog, const char *label);
void cli_input_unmapped(const void *addr);

/* Test hook (docs/rsv.md, TESTS; for the signal and truncation tests only):
 * when the environment variable RSV_TEST_PAUSE_AFTER_RECORDS equals
 * `records`, print "rsv: test pause" on standard error and wait until a
 * signal arrives: SIGUSR1 continues the command, any other signal has its
 * usual effect (SIGTERM & co. clean up and kill). Commands call it after each record (and with 0 once their inputs
 * are open and any temporary exists). */
void cli_test_pause(unsigned long long records);

#endif
