/* Private: the KV03 writer's entries for merges (format revision v2). */
#ifndef RSV_KV03_WRITER_H
#define RSV_KV03_WRITER_H

#include "reservoir/kv03.h"

/* Make `code` the code of the next record framed with
 * rsv__kv03_writer_add_framed (kv03_walk.h): §11.1 steps 1–3 for the code
 * (TOO_LARGE, SELECTOR_PREFIX, UNSORTED when it sorts before the last
 * record's code); a code other than the last record's starts a fresh key
 * (the caller then passes lcp = 0). The view is copied. Failures poison. */
rsv_status rsv__kv03_writer_code(rsv_kv03_writer *w, rsv_view code);

#endif
