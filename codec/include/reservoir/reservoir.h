/* reservoir — umbrella header: bit views, the reservoir reader, the bit writer,
 * Golomb constants, status codes, and the KV03 layer (CRC32C, keys/values,
 * Elias–Fano, KV03 files, record streams, merges). */
#ifndef RESERVOIR_RESERVOIR_H
#define RESERVOIR_RESERVOIR_H

#include "reservoir/crc32c.h"
#include "reservoir/ef.h"
#include "reservoir/expgolomb.h"
#include "reservoir/file_io.h"
#include "reservoir/golomb.h"
#include "reservoir/kv03.h"
#include "reservoir/merge.h"
#include "reservoir/reader.h"
#include "reservoir/record.h"
#include "reservoir/status.h"
#include "reservoir/stream.h"
#include "reservoir/record_batch.h"
#include "reservoir/version.h"
#include "reservoir/view.h"
#include "reservoir/writer.h"

#endif
