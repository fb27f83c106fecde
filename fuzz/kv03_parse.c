/* Fuzz target kv03_parse: arbitrary bytes as a KV03 file; the codec's open,
 * scan and three read levels (frames, cursor, records) against the oracle's
 * OPEN, WALK and SCAN decodes (checks: common/kv03_parse_check.c). The input
 * is the file itself, CRCs included: this target keeps the checksum paths
 * fuzzed (kv03_parse_structured re-seals them to get past them). */
#include <stddef.h>
#include <stdint.h>

#include "kv03_parse_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rsv_kvf_parse_check("kv03_parse", data, size);
    return 0;
}
