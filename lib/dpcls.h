/* dpcls: the datapath's megaflow classifier (tuple space search).
 *
 * A megaflow is a flow key under a mask: "every packet whose key agrees
 * with MATCH on the bits MASK requires".  The datapath's installed
 * megaflows use only a handful of distinct masks, so the classifier keeps
 * one subtable per mask, each a hash table of the masked keys of the rules
 * that use that mask.  A lookup hashes the packet's key under each
 * subtable's mask in turn and probes that subtable, stopping at the first
 * match.  Subtables are searched in order of how many hits each had since
 * the last dpcls_rerank(), so the busiest masks are tried first and a
 * typical packet costs one or two probes.
 *
 * Megaflows installed by one upcall handler never overlap in what they
 * match (the layer above guarantees it, as Open vSwitch's does); when two
 * do, a lookup returns either.  This is not the OpenFlow classifier (no
 * priorities, no versions): that one lives in ofproto.
 *
 * Memory: the caller owns each struct dpcls_rule (usually embedded in its
 * flow) and its MATCH miniflow, and keeps both alive, after
 * dpcls_remove(), until readers are done with them (dp_epoch_postpone()).
 * The classifier owns its subtables and their masks.
 *
 * Threads: dpcls_lookup() and dpcls_lookup_batch() run without locks
 * inside a dp-epoch section (dp-epoch.h), concurrently with one writer.
 * Writers (dpcls_insert(), dpcls_remove(), dpcls_find(), dpcls_rerank(),
 * dpcls_destroy()) must be serialized by the caller's mutex.  Readers see
 * each hash table and the subtable order through atomic pointers: a writer
 * fills a slot with a release store, replaces a table or the subtable
 * vector with a new copy and hands the old one to dp_epoch_postpone(). */
#ifndef DPCLS_H
#define DPCLS_H 1

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "flow.h"

struct dpcls_subtable;
struct dpcls_vector;

struct dpcls {
    _Atomic(struct dpcls_vector *) vector;  /* Subtables in search order. */
    size_t n_rules;
};

struct dpcls_rule {
    const struct miniflow *match;       /* Masked key, owned by the caller. */
    uint32_t hash;                      /* miniflow_hash(match, 0). */
    struct dpcls_subtable *subtable;    /* Subtable holding this rule. */
};

void dpcls_init(struct dpcls *);
/* Frees the subtables.  The classifier must hold no rules. */
void dpcls_destroy(struct dpcls *);

/* Adds RULE matching MATCH (a miniflow_create_masked() under MASK).  No
 * rule with the same mask and match may be present (use dpcls_find()). */
void dpcls_insert(struct dpcls *, struct dpcls_rule *,
                  const struct flow_wildcards *mask,
                  const struct miniflow *match);
/* Removes RULE; readers may still return it until their section ends. */
void dpcls_remove(struct dpcls *, struct dpcls_rule *);
/* The rule with exactly this mask and match, or NULL.  Writer side. */
struct dpcls_rule *dpcls_find(const struct dpcls *,
                              const struct flow_wildcards *mask,
                              const struct miniflow *match);

/* The first rule that FLOW matches, or NULL.  Adds the number of subtables
 * probed to *N_PROBED if it is nonnull.  Counts a hit on the subtable
 * that matched. */
const struct dpcls_rule *dpcls_lookup(const struct dpcls *,
                                      const struct flow *,
                                      unsigned int *n_probed);
/* The same for N flows at once (subtable by subtable, so each subtable's
 * mask and table stay in cache for the whole batch).  RULES[i] is the
 * match of FLOWS[i] or NULL.  Returns how many matched. */
size_t dpcls_lookup_batch(const struct dpcls *, const struct flow *flows[],
                          const struct dpcls_rule *rules[], size_t n,
                          unsigned int *n_probed);

/* Re-sorts the subtables by the hits each had since the last call, busiest
 * first.  Returns true if the order changed. */
bool dpcls_rerank(struct dpcls *);

size_t dpcls_n_subtables(const struct dpcls *);
static inline size_t
dpcls_n_rules(const struct dpcls *cls)
{
    return cls->n_rules;
}
/* The mask of subtable IDX in search order (0 = searched first), for
 * tests and dpctl/show.  Writer side. */
const struct miniflow *dpcls_subtable_mask(const struct dpcls *, size_t idx);

#endif /* dpcls.h */
