/* The operation battery run on every guard-flush view (CODES.md §8, guard
 * pages): fixed widths 0-65 read until failure, take/skip of many lengths
 * followed by reads, every code decoded from the start until the view is
 * exhausted and twice from each of the last 72 positions (reached by a skip
 * and by a read), and the batch decoders from the start and from near the
 * end — each step compared with the oracle by the comparison engine (gp_pair.h).
 *
 * `label` names the view in fault reports and failure messages. */
#ifndef RSV_GP_BATTERY_H
#define RSV_GP_BATTERY_H

#include "reservoir/view.h"

void gp_battery(rsv_view v, const char *label);

#endif
