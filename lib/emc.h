/* emc: the exact-match cache in front of the megaflow classifier.
 *
 * Each receive thread keeps one.  It maps a packet's whole flow key (every
 * field, as parsed) to the datapath flow that last matched a packet with
 * that key, so that a stream of packets of one connection skips the
 * classifier's subtable probes: one hash (which the parser computed
 * anyway), one or two key comparisons.
 *
 * The cache is two-way set associative: a key may live in one of two
 * entries chosen by two halves of its hash; inserting into a full pair
 * replaces the entry chosen by another hash bit.  EMC_ENTRIES entries in
 * all (about 2.3 MB for today's struct flow).
 *
 * Entries hold flows by reference: the cache calls the owner's UNREF on
 * a flow when its entry is replaced, swept or flushed, and the owner takes
 * a reference before emc_insert().  So an entry never points to freed
 * memory, whatever the cache's thread is doing when the flow is deleted;
 * a deleted flow is recognized by the owner's IS_DEAD and swept away.
 *
 * Threads: a cache belongs to one thread; nothing here locks. */
#ifndef EMC_H
#define EMC_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "flow.h"

#define EMC_ENTRIES 8192        /* Power of 2. */

struct emc_entry {
    void *flow;                 /* Referenced owner's flow, or NULL. */
    uint32_t hash;
    struct flow key;
};

struct emc_cache {
    void (*unref)(void *flow);
    bool (*is_dead)(const void *flow);
    size_t n_entries;           /* Entries in use. */
    struct emc_entry entries[EMC_ENTRIES];
};

/* Allocates an empty cache. */
struct emc_cache *emc_create(void (*unref)(void *flow),
                             bool (*is_dead)(const void *flow));
/* Drops every reference and frees the cache. */
void emc_destroy(struct emc_cache *);

/* The flow cached for KEY (whose flow_hash() is HASH), or NULL.  A flow
 * that is dead is dropped from the cache and not returned. */
void *emc_lookup(struct emc_cache *, const struct flow *key, uint32_t hash);
/* Caches FLOW (already referenced for the cache) for KEY. */
void emc_insert(struct emc_cache *, const struct flow *key, uint32_t hash,
                void *flow);
/* Drops every entry whose flow is dead. */
void emc_sweep(struct emc_cache *);
/* Drops every entry. */
void emc_flush(struct emc_cache *);

#endif /* emc.h */
