/* Fuzz target kv03_parse: arbitrary bytes as a KV03 file; the codec's open,
 * scan and three read levels (frames, cursor, records) against the oracle's
 * OPEN, WALK and SCAN decodes (checks: common/kv03_parse_check.c). The input
 * is the file itself, CRCs included: this target keeps the checksum paths
 * fuzzed (kv03_parse_structured re-seals them to get past them).
 *
 * Then the record batch (rsv_kv03_cursor_batch) against the oracle's WALK
 * and the single-record cursor (tests/support/record_batch_diff.h), in a
 * batch shape taken from the input's last two bytes XOR its header CRC's
 * first two (bytes 64, 65): n = 1..9 or 64,
 * key and value arenas of 0, 1, 7, 64 or 4096 bytes, values and codes
 * stored or not. */
#include <stddef.h>
#include <stdint.h>

#include "kv03_fuzz.h"
#include "kv03_parse_check.h"
#include "record_batch_diff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const size_t CAPS[5] = {0, 1, 7, 64, 4096};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rsv_kvf_parse_check("kv03_parse", data, size);
    /* the header CRC bytes (64, 65) vary between valid files; the last bytes alone are often zero padding */
    unsigned h = (size ? data[size - 1] : 0) ^ (size > 64 ? data[64] : 0);
    unsigned h2 = (size > 1 ? data[size - 2] : 0) ^ (size > 65 ? data[65] : 0);
    rsv_rbd_shape s = {h % 10 == 9 ? 64 : 1 + h % 10, CAPS[h2 % 5], CAPS[(h2 / 5) % 5], (h >> 4) & 1, (h >> 5) & 1,
                       NULL, NULL};
    char msg[RSV_RBD_MSG];
    if (!rsv_rbd_cursor(data, size, &s, NULL, msg)) rsv_kvf_fail("kv03_parse", "record batch: %s", msg);
    return 0;
}
