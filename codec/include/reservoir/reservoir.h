/* reservoir — umbrella header: bit views, the reservoir reader, the bit writer,
 * Golomb constants and status codes. */
#ifndef RESERVOIR_RESERVOIR_H
#define RESERVOIR_RESERVOIR_H

#include "reservoir/golomb.h"
#include "reservoir/reader.h"
#include "reservoir/status.h"
#include "reservoir/version.h"
#include "reservoir/view.h"
#include "reservoir/writer.h"

#endif
