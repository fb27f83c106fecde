/* Private: the merge's working state (not API). reservoir/merge.h publishes
 * only rsv_merge, storage of a fixed size and alignment; the codec keeps this
 * struct in it. Tests that inspect a merge's internals include this header
 * (they link the static library). */
#ifndef RSV_MERGE_STATE_H
#define RSV_MERGE_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "reservoir/merge.h"

/* One input's head record, never rebuilt: its key is the last chosen key's
 * first `lcp` bits followed by the literal's bits from lcp - fr.local on
 * (lcp >= fr.local always holds, see merge.c). */
typedef struct rsv__merge_head {
    rsv_kv03_frames fw;
    rsv_kv03_frame fr; /* current record: literal and value spans borrowed from the file */
    uint64_t lcp;      /* lcp(head key bits, last chosen key bits) */
    int live;          /* fr is valid */
    int hit;           /* holds the key being emitted */
    /* set while choosing: this head's lcp with head tie_with, learnt by
     * comparing the two (saves comparing them again when tie_with wins) */
    size_t tie_with;
    uint64_t tie_lcp;
    /* v2: the head's code as an index into the merge's code union (codes
     * order like their indices); lcp above is meaningful only between keys
     * of one code: a head whose code differs from E's has local = 0 and
     * lcp = 0 (its key is compared from bit 0 with other heads of its code). */
    uint64_t g;
    const uint64_t *map; /* input dictionary index -> union index */
} rsv__merge_head;

typedef struct rsv__merge {
    rsv__merge_head *heads;
    size_t n;
    /* n >= 3: a tree of losers over the heads (merge.c): tree[0] the
     * winner, tree[1..n-1] the loser of each internal node's last match,
     * leaf i under node (n + i) / 2; allocated with heads */
    size_t *tree;
    rsv_kv03_writer out;
    uint8_t *key;    /* the last chosen key E (materialized once per output key) */
    size_t key_len, key_cap;
    uint64_t lcp_xe; /* lcp(last emitted key, E): differs from |E| after a dropped tombstone */
    unsigned flags;
    int primed;   /* heads loaded */
    int done;     /* every input consumed */
    int finished; /* output handed out */
    uint64_t emitted;
    size_t failed_input; /* input index of an input failure, else n */
    rsv_kv03_diag diag;
    /* v2: the sorted union of the input dictionaries (views into the
     * inputs' section 5) and the per-input index maps (one allocation) */
    rsv_view *codes;
    uint64_t ncodes;
    uint64_t *code_map;
    uint64_t e_code;   /* union index of E's code (valid once a key was chosen) */
    uint64_t out_code; /* union index of the last emitted record's code (out.N > 0) */
} rsv__merge;

_Static_assert(sizeof(rsv__merge) <= sizeof(rsv_merge), "the merge state outgrew RSV_MERGE_STORAGE_BYTES");
_Static_assert(_Alignof(rsv__merge) <= _Alignof(rsv_merge), "the merge state needs a stricter alignment");

/* The state inside a caller's rsv_merge (NULL for NULL). Only the codec
 * reads or writes the storage, always through this type. */
static inline rsv__merge *rsv__merge_of(rsv_merge *m) { return (rsv__merge *)(void *)m; }
static inline const rsv__merge *rsv__merge_cof(const rsv_merge *m) { return (const rsv__merge *)(const void *)m; }

#endif
