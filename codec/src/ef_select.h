/* reservoir — private: the Elias-Fano select paths (not API, not exported). */
#ifndef RSV_EF_SELECT_H
#define RSV_EF_SELECT_H

#include "reservoir/ef.h"

/* rsv_ef_select with the portable popcount, which the dispatch never selects
 * on a CPU that has POPCNT (tests compare the two). */
rsv_status rsv__ef_select_portable(const rsv_ef *ef, uint64_t i, uint64_t *out);

#endif
