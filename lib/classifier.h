/* classifier: the OpenFlow table's rule store, with megaflow wildcards.
 *
 * Given a packet's flow key, classifier_lookup() finds the highest-priority
 * rule that matches it and says which bits of the key that answer depended
 * on (the wildcard mask of the megaflow the datapath will install).  The
 * fewer bits a lookup examines, the wider the megaflow and the fewer upcalls
 * later packets cause, so the lookup is built to look at little.
 *
 * Rules
 * -----
 *
 * A rule is a match (a flow key and a mask over every bit of struct flow,
 * stored as two miniflows) and a priority.  The owner embeds a struct
 * cls_rule in its own rule struct (CONTAINER_OF gets back to it) and keeps
 * that memory alive until the rule is out of the classifier and no lookup
 * can still return it.  Among matching rules the highest priority wins; at
 * equal priority the one inserted first wins, so answers never depend on
 * hash order.
 *
 * How lookup works (docs/classifier.md has the long version)
 * --------------------------------------------------------
 *
 * Tuple space search: rules with the same mask share a subtable, a hash
 * table keyed by the masked flow.  Lookups visit subtables in order of the
 * highest priority each holds and stop when no remaining subtable can beat
 * the best rule found.  Within a subtable the lookup is staged along the
 * four stages of struct flow (metadata, L2, L3, L4): each stage but the last
 * has a set of the hashes its rules produce up to that stage, and a packet
 * whose hash is not in the set is ruled out having examined only the
 * stages so far.  Prefix tries (up to CLS_MAX_TRIES fields per classifier,
 * default nw_dst and nw_src) rule subtables out by looking at only the
 * address bits they needed.  When the last stage fails on the transport
 * ports, a per-subtable trie over the ports adds only the port bits that
 * decided it.
 *
 * Subtables whose metadata and L2 stages hold one value each (dl_type=IPv4,
 * say) form groups: a lookup compares the packet with each group once, lets
 * the tries on L3 fields prune the group's subtables in bulk over bitmaps,
 * visits only what is left, and adds at the end the bits the skipped
 * subtables would have added.  Same answer and mask, far fewer subtables
 * visited.  docs/classifier.md has the details and an example.
 *
 * Versions (versions.h)
 * ---------------------
 *
 * Every rule exists in a range of versions [added, removed).  A lookup at
 * version V sees the rules that exist at V.  To make a batch visible at
 * once, insert its rules at V+1, mark the rules it deletes with
 * cls_rule_make_invisible_in_version(rule, V+1), then let lookups use V+1.
 * Physical removal (classifier_remove()) makes a rule invisible in every
 * version at once, so an owner removes only rules no reader can still need
 * at an older version, typically from an ovsrcu_postpone() callback.
 *
 * Threads and memory
 * ------------------
 *
 * One thread at a time modifies a classifier (insert, replace, remove,
 * set_prefix_fields, defer/publish, destroy): the caller provides the
 * exclusion.  Lookups (classifier_lookup(), classifier_find_*(),
 * classifier_rule_overlaps(), the iterators) may run on any number of
 * threads at the same time as the writer, and never wait for it: every
 * structure a lookup reads is published with atomic pointer stores, and
 * whatever a writer unlinks (internal rule records, hash tables that were
 * resized, trie nodes, subtables, the subtable order) is freed through
 * RCU-style deferral (ovs-rcu.h) once every reader thread has quiesced.
 * Every lookup function makes its thread an RCU reader (ovsrcu_register(),
 * a thread-local test after the first time), so a thread that looks up
 * must call ovsrcu_quiesce() between lookups now and then, at a point
 * where it holds no rule pointer it got from the classifier, or
 * ovsrcu_quiesce_start() before it blocks.
 *
 * A rule taken out by classifier_remove(), or returned by
 * classifier_replace(), may still be in the hands of a lookup: its owner
 * frees it only after a grace period (ovsrcu_postpone()).
 * classifier_destroy() frees the classifier's own memory at once and so
 * needs no readers left; the rules still in it are only detached. */
#ifndef CLASSIFIER_H
#define CLASSIFIER_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "flow.h"
#include "hmap.h"
#include "ovs-rcu.h"
#include "versions.h"

struct cls_match;
struct cls_rtable;
struct cls_subtable_vec;
struct cls_tries;

/* Fields a classifier may keep prefix tries on. */
enum cls_prefix_field {
    CLS_PREFIX_NW_SRC,          /* "nw_src" or "ip_src". */
    CLS_PREFIX_NW_DST,          /* "nw_dst" or "ip_dst". */
    CLS_PREFIX_IPV6_SRC,        /* "ipv6_src". */
    CLS_PREFIX_IPV6_DST,        /* "ipv6_dst". */
    CLS_PREFIX_TUN_SRC,         /* "tun_src". */
    CLS_PREFIX_TUN_DST,         /* "tun_dst". */
    CLS_N_PREFIX_FIELDS
};
#define CLS_MAX_TRIES 3

/* A rule, embedded in its owner's struct. */
struct cls_rule {
    int priority;
    struct miniflow *flow;      /* Masked key: miniflow_create_masked(). */
    struct miniflow *mask;      /* The mask: miniflow_create() of it. */
    /* Internal record while the rule is in a classifier, else NULL. */
    OVSRCU_TYPE(struct cls_match *) cls_match;
};

void cls_rule_init(struct cls_rule *, const struct flow *,
                   const struct flow_wildcards *, int priority);
void cls_rule_clone(struct cls_rule *dst, const struct cls_rule *src);
/* Frees the rule's miniflows.  The rule must not be in a classifier. */
void cls_rule_destroy(struct cls_rule *);
/* The rule's match as a full flow and mask. */
void cls_rule_get_match(const struct cls_rule *, struct flow *,
                        struct flow_wildcards *);
/* Same match and priority. */
bool cls_rule_equal(const struct cls_rule *, const struct cls_rule *);
/* Same match, whatever the priority. */
bool cls_rule_same_match(const struct cls_rule *, const struct cls_rule *);
bool cls_rule_is_catchall(const struct cls_rule *);
/* Whether FLOW matches RULE (its version is not considered). */
bool cls_rule_matches_flow(const struct cls_rule *, const struct flow *);
/* Whether RULE matches only packets that CRITERIA matches too: CRITERIA's
 * mask is within RULE's and they agree on it.  OpenFlow's "loose" match
 * for modify and delete. */
bool cls_rule_is_loose_match(const struct cls_rule *rule,
                             const struct cls_rule *criteria);

/* Versions of a rule in a classifier. */
bool cls_rule_visible_in_version(const struct cls_rule *, ovs_version_t);
/* Where RULE (in a classifier) stands among rules of its priority in the
 * order 3.1 lists a table's rules: *SUBTABLE_SEQ names its subtable (rules
 * of one subtable come together) and *SEQ is its insertion order there (a
 * rule that replaces another takes over its place).  Writer only. */
void cls_rule_get_rank(const struct cls_rule *, uint64_t *subtable_seq,
                       uint64_t *seq);
void cls_rule_make_invisible_in_version(const struct cls_rule *,
                                        ovs_version_t);
void cls_rule_restore_visibility(const struct cls_rule *);

struct classifier {
    /* What lookups read. */
    OVSRCU_TYPE(struct cls_subtable_vec *) subtables_vec;
    OVSRCU_TYPE(struct cls_tries *) tries;

    /* Writer's state. */
    struct hmap subtables;      /* struct cls_subtable, by mask hash. */
    /* The same, best max_priority first (creation order in ties): what
     * the published order is copied from. */
    struct cls_subtable **order;
    size_t n_order, allocated_order;
    size_t n_rules;
    uint64_t next_seq;          /* Insertion order, for ties. */
    bool publish;               /* False between defer and publish. */
    bool vec_dirty;             /* Subtable order changed, not published. */
    unsigned int n_prefix_fields;
    enum cls_prefix_field prefix_fields[CLS_MAX_TRIES];
};

void classifier_init(struct classifier *);
void classifier_destroy(struct classifier *);

/* Chooses the fields to keep prefix tries on (at most CLS_MAX_TRIES,
 * no duplicates; none turns tries off).  Returns false, changing nothing,
 * if the list is not acceptable.  Default: nw_dst, nw_src. */
bool classifier_set_prefix_fields(struct classifier *,
                                  const enum cls_prefix_field *,
                                  unsigned int n);
/* Parses a field name as the Flow_Table prefixes column spells it. */
bool cls_prefix_field_from_name(const char *, enum cls_prefix_field *);
const char *cls_prefix_field_name(enum cls_prefix_field);

/* Adds RULE, visible from VERSION on.  No rule with the same match and
 * priority may be visible at VERSION. */
void classifier_insert(struct classifier *, const struct cls_rule *,
                       ovs_version_t);
/* Adds RULE, visible from VERSION on.  A rule with the same match and
 * priority that is visible at VERSION is removed from the classifier and
 * returned (its owner frees it after a grace period); else NULL. */
const struct cls_rule *classifier_replace(struct classifier *,
                                          const struct cls_rule *,
                                          ovs_version_t);
/* Takes RULE out of the classifier (every version).  Returns false if it
 * was not in it. */
bool classifier_remove(struct classifier *, const struct cls_rule *);

/* Between defer and publish, changes to the subtable order are collected
 * and made visible to lookups at once: a rule that creates a subtable or
 * raises one's best priority costs a republication of the order, O(number
 * of subtables), so a big batch costs one instead of one per rule.  Until publish, lookups may miss
 * rules inserted meanwhile: publish before making their version visible. */
void classifier_defer(struct classifier *);
void classifier_publish(struct classifier *);
/* While deferred: republishes the order now if a change needs it, so that
 * the writer's own finds and iterations see every rule inserted so far
 * (a batch that adds a rule and then looks for it), and stays deferred. */
void classifier_sync(struct classifier *);

/* The highest-priority rule visible at VERSION that matches FLOW, or NULL.
 * If WC is nonnull, ORs into it the bits of FLOW the answer depends on:
 * every flow that agrees with FLOW on WC's bits gets the same answer. */
const struct cls_rule *classifier_lookup(const struct classifier *,
                                         ovs_version_t, const struct flow *,
                                         struct flow_wildcards *wc);

/* The rule with exactly TARGET's match and priority, visible at VERSION. */
const struct cls_rule *classifier_find_rule_exactly(
    const struct classifier *, const struct cls_rule *target,
    ovs_version_t);
const struct cls_rule *classifier_find_match_exactly(
    const struct classifier *, const struct flow *,
    const struct flow_wildcards *, int priority, ovs_version_t);
/* Whether a rule of TARGET's priority, visible at VERSION, matches some
 * packet TARGET matches (OpenFlow's CHECK_OVERLAP). */
bool classifier_rule_overlaps(const struct classifier *,
                              const struct cls_rule *target, ovs_version_t);

/* Rules in the classifier, whichever versions they are visible in. */
size_t classifier_count(const struct classifier *);
bool classifier_is_empty(const struct classifier *);
size_t classifier_n_subtables(const struct classifier *);

/* Iteration over the rules visible at a version, optionally only those a
 * target loosely matches (see cls_rule_is_loose_match()); with a target
 * and CLS_ITER_STRICT, only the rule with exactly its match and priority.
 * The cursor fetches the next rule before returning one, so the caller may
 * remove the rule it was given (and only that one) before moving on.  Do
 * not quiesce while a cursor is open. */
enum cls_iter_mode { CLS_ITER_LOOSE, CLS_ITER_STRICT };
struct cls_cursor {
    const struct classifier *cls;
    const struct cls_subtable_vec *vec;
    const struct cls_rule *target;
    enum cls_iter_mode mode;
    ovs_version_t version;
    size_t subtable_idx;        /* Position in VEC. */
    const struct cls_rtable *table; /* That subtable's table, as of then. */
    size_t slot_idx;            /* Position in TABLE. */
    const struct cls_match *match;
    const struct cls_rule *next;
};

struct cls_cursor cls_cursor_start(const struct classifier *,
                                   const struct cls_rule *target,
                                   enum cls_iter_mode, ovs_version_t);
const struct cls_rule *cls_cursor_next(struct cls_cursor *);

#define CLS_FOR_EACH_TARGET(RULE, CLS, TARGET, MODE, VERSION)           \
    for (struct cls_cursor cursor__ =                                   \
             cls_cursor_start(CLS, TARGET, MODE, VERSION);              \
         ((RULE) = cls_cursor_next(&cursor__)) != NULL; )
#define CLS_FOR_EACH(RULE, CLS)                                         \
    CLS_FOR_EACH_TARGET(RULE, CLS, NULL, CLS_ITER_LOOSE, OVS_VERSION_MAX)

#endif /* classifier.h */
