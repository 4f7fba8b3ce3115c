#include <config.h>
#include "dpcls.h"

#include <stdlib.h>
#include <string.h>
#include "dp-epoch.h"
#include "hash.h"
#include "util.h"

/* A subtable's hash table: open addressing with linear probing over an
 * array of slots, each a rule pointer and that rule's hash.  A removed rule
 * leaves a tombstone so that probes for rules placed after it keep going; a
 * rebuild (a new array, published atomically) drops the tombstones.
 *
 * The hash sits in the slot so that a probe compares it without touching
 * the rule: a lookup that misses (every packet of a new flow) walks its
 * probe sequence without a cache miss per slot.  The table is kept at most
 * half full, so that walk is short.
 *
 * The one writer stores a slot's hash before publishing its rule (release);
 * a reader loads the rule (acquire), then the hash.  A slot rewritten in
 * between can pair a removed rule with a newer hash, which only means a
 * full comparison against that removed rule, as a concurrent removal
 * allows. */
#define TOMBSTONE ((struct dpcls_rule *) 1)

struct rule_slot {
    _Atomic(struct dpcls_rule *) rule;
    _Atomic uint32_t hash;
};

struct rule_table {
    uint32_t mask;                      /* Number of slots - 1. */
    uint32_t n_used;                    /* Rules. */
    uint32_t n_tombstones;
    struct rule_slot slots[];
};

struct dpcls_subtable {
    struct miniflow *mask;              /* Owned. */
    _Atomic(struct rule_table *) table;
    _Atomic uint64_t hits;              /* Bumped by readers. */
    uint64_t hits_at_rank;              /* 'hits' at the last rerank. */
};

struct dpcls_vector {
    size_t n;
    struct dpcls_subtable *subtables[];
};

static struct dpcls_vector *
vector_alloc(size_t n)
{
    struct dpcls_vector *v = xmalloc(sizeof *v + n * sizeof v->subtables[0]);
    v->n = n;
    return v;
}

static struct dpcls_vector *
get_vector(const struct dpcls *cls)
{
    return atomic_load_explicit(&((struct dpcls *) cls)->vector,
                                memory_order_acquire);
}

static void
publish_vector(struct dpcls *cls, struct dpcls_vector *v)
{
    struct dpcls_vector *old = atomic_exchange_explicit(
        &cls->vector, v, memory_order_acq_rel);
    dp_epoch_postpone(free, old);
}

static struct rule_table *
table_alloc(uint32_t n_slots)
{
    struct rule_table *t = xzalloc(sizeof *t + n_slots * sizeof t->slots[0]);
    t->mask = n_slots - 1;
    return t;
}

static struct rule_table *
get_table(const struct dpcls_subtable *st)
{
    return atomic_load_explicit(&((struct dpcls_subtable *) st)->table,
                                memory_order_acquire);
}

void
dpcls_init(struct dpcls *cls)
{
    atomic_init(&cls->vector, vector_alloc(0));
    cls->n_rules = 0;
}

static void
subtable_free(void *st_)
{
    struct dpcls_subtable *st = st_;
    free(atomic_load_explicit(&st->table, memory_order_relaxed));
    free(st->mask);
    free(st);
}

void
dpcls_destroy(struct dpcls *cls)
{
    if (cls) {
        ovs_assert(!cls->n_rules);
        struct dpcls_vector *v = atomic_load(&cls->vector);
        for (size_t i = 0; i < v->n; i++) {
            subtable_free(v->subtables[i]);
        }
        free(v);
    }
}

static struct dpcls_subtable *
find_subtable(const struct dpcls *cls, const struct miniflow *mask)
{
    struct dpcls_vector *v = get_vector(cls);
    for (size_t i = 0; i < v->n; i++) {
        if (miniflow_equal(v->subtables[i]->mask, mask)) {
            return v->subtables[i];
        }
    }
    return NULL;
}

static struct dpcls_subtable *
add_subtable(struct dpcls *cls, struct miniflow *mask)
{
    struct dpcls_subtable *st = xzalloc(sizeof *st);
    st->mask = mask;
    atomic_init(&st->table, table_alloc(8));
    atomic_init(&st->hits, 0);

    /* A new subtable goes last: it has no hits yet. */
    struct dpcls_vector *old = get_vector(cls);
    struct dpcls_vector *v = vector_alloc(old->n + 1);
    memcpy(v->subtables, old->subtables, old->n * sizeof old->subtables[0]);
    v->subtables[old->n] = st;
    publish_vector(cls, v);
    return st;
}

static void
remove_subtable(struct dpcls *cls, struct dpcls_subtable *st)
{
    struct dpcls_vector *old = get_vector(cls);
    struct dpcls_vector *v = vector_alloc(old->n - 1);
    size_t j = 0;
    for (size_t i = 0; i < old->n; i++) {
        if (old->subtables[i] != st) {
            v->subtables[j++] = old->subtables[i];
        }
    }
    ovs_assert(j == v->n);
    publish_vector(cls, v);
    dp_epoch_postpone(subtable_free, st);
}

/* Places RULE in T's first free or tombstone slot on its probe path. */
static void
table_place(struct rule_table *t, struct dpcls_rule *rule)
{
    for (uint32_t i = rule->hash; ; i++) {
        struct rule_slot *slot = &t->slots[i & t->mask];
        struct dpcls_rule *r = atomic_load_explicit(&slot->rule,
                                                    memory_order_relaxed);
        if (!r || r == TOMBSTONE) {
            if (r == TOMBSTONE) {
                t->n_tombstones--;
            }
            atomic_store_explicit(&slot->hash, rule->hash,
                                  memory_order_relaxed);
            atomic_store_explicit(&slot->rule, rule, memory_order_release);
            t->n_used++;
            return;
        }
    }
}

/* Replaces ST's table by one sized for N_RULES rules, without tombstones,
 * built before readers can see it. */
static void
table_rebuild(struct dpcls_subtable *st, uint32_t n_rules)
{
    struct rule_table *old = get_table(st);
    uint32_t n_slots = 8;
    while (n_slots < n_rules * 4) {
        n_slots *= 2;
    }
    struct rule_table *t = table_alloc(n_slots);
    for (uint32_t i = 0; i <= old->mask; i++) {
        struct dpcls_rule *r = atomic_load_explicit(&old->slots[i].rule,
                                                    memory_order_relaxed);
        if (r && r != TOMBSTONE) {
            table_place(t, r);
        }
    }
    atomic_store_explicit(&st->table, t, memory_order_release);
    dp_epoch_postpone(free, old);
}

void
dpcls_insert(struct dpcls *cls, struct dpcls_rule *rule,
             const struct flow_wildcards *mask, const struct miniflow *match)
{
    struct miniflow *mf_mask = miniflow_create(&mask->masks);
    ovs_assert(flowmap_equal(&mf_mask->map, &match->map));

    struct dpcls_subtable *st = find_subtable(cls, mf_mask);
    if (st) {
        free(mf_mask);
    } else {
        st = add_subtable(cls, mf_mask);
    }

    rule->match = match;
    rule->hash = miniflow_hash(match, 0);
    rule->subtable = st;

    struct rule_table *t = get_table(st);
    /* Keep at least half of the slots empty, so probes end soon.  (A
     * rebuild makes the table four times the rules: it stays between a
     * quarter and half full.) */
    if ((t->n_used + t->n_tombstones + 1) * 2 > t->mask + 1) {
        table_rebuild(st, t->n_used + 1);
        t = get_table(st);
    }
    table_place(t, rule);
    cls->n_rules++;
}

void
dpcls_remove(struct dpcls *cls, struct dpcls_rule *rule)
{
    struct dpcls_subtable *st = rule->subtable;
    struct rule_table *t = get_table(st);

    for (uint32_t i = rule->hash; ; i++) {
        struct rule_slot *slot = &t->slots[i & t->mask];
        struct dpcls_rule *r = atomic_load_explicit(&slot->rule,
                                                    memory_order_relaxed);
        ovs_assert(r);          /* The rule must be in its subtable. */
        if (r == rule) {
            atomic_store_explicit(&slot->rule, TOMBSTONE,
                                  memory_order_release);
            t->n_used--;
            t->n_tombstones++;
            break;
        }
    }
    cls->n_rules--;
    rule->subtable = NULL;

    if (!t->n_used) {
        remove_subtable(cls, st);
    } else if (t->n_tombstones > (t->mask + 1) / 4) {
        table_rebuild(st, t->n_used);
    }
}

/* The rule in ST matching FLOW, with FLOW's HASH under ST's mask. */
static const struct dpcls_rule *
subtable_lookup(const struct dpcls_subtable *st, const struct flow *flow,
                uint32_t hash)
{
    struct rule_table *t = get_table(st);
    for (uint32_t i = hash; ; i++) {
        struct rule_slot *slot = &t->slots[i & t->mask];
        const struct dpcls_rule *r = atomic_load_explicit(
            &slot->rule, memory_order_acquire);
        if (!r) {
            return NULL;
        }
        if (r != TOMBSTONE
            && atomic_load_explicit(&slot->hash,
                                    memory_order_relaxed) == hash
            && flow_equal_in_minimask(flow, st->mask, r->match)) {
            return r;
        }
    }
}

struct dpcls_rule *
dpcls_find(const struct dpcls *cls, const struct flow_wildcards *mask,
           const struct miniflow *match)
{
    struct miniflow *mf_mask = miniflow_create(&mask->masks);
    struct dpcls_subtable *st = find_subtable(cls, mf_mask);
    free(mf_mask);
    if (!st) {
        return NULL;
    }

    struct flow flow;
    miniflow_expand(match, &flow);
    return (struct dpcls_rule *) subtable_lookup(st, &flow,
                                                 miniflow_hash(match, 0));
}

static void
count_hits(struct dpcls_subtable *st, uint64_t n)
{
    atomic_fetch_add_explicit(&st->hits, n, memory_order_relaxed);
}

const struct dpcls_rule *
dpcls_lookup(const struct dpcls *cls, const struct flow *flow,
             unsigned int *n_probed)
{
    const struct dpcls_rule *rule;
    size_t n = dpcls_lookup_batch(cls, &flow, &rule, 1, n_probed);
    return n ? rule : NULL;
}

size_t
dpcls_lookup_batch(const struct dpcls *cls, const struct flow *flows[],
                   const struct dpcls_rule *rules[], size_t n,
                   unsigned int *n_probed)
{
    const struct dpcls_vector *v = get_vector(cls);
    size_t n_found = 0;
    unsigned int probes = 0;

    for (size_t i = 0; i < n; i++) {
        rules[i] = NULL;
    }
    for (size_t s = 0; s < v->n && n_found < n; s++) {
        struct dpcls_subtable *st = v->subtables[s];
        uint64_t hits = 0;
        for (size_t i = 0; i < n; i++) {
            if (!rules[i]) {
                uint32_t hash = flow_hash_in_minimask(flows[i], st->mask, 0);
                probes++;
                rules[i] = subtable_lookup(st, flows[i], hash);
                if (rules[i]) {
                    hits++;
                }
            }
        }
        if (hits) {
            count_hits(st, hits);
            n_found += hits;
        }
    }
    if (n_probed) {
        *n_probed += probes;
    }
    return n_found;
}

bool
dpcls_rerank(struct dpcls *cls)
{
    struct dpcls_vector *old = get_vector(cls);
    if (old->n < 2) {
        for (size_t i = 0; i < old->n; i++) {
            old->subtables[i]->hits_at_rank = atomic_load(
                &old->subtables[i]->hits);
        }
        return false;
    }

    /* Readers keep counting while we sort: sort on one snapshot. */
    struct ranked {
        struct dpcls_subtable *st;
        uint64_t now, recent;
    } *r = xmalloc(old->n * sizeof *r);
    for (size_t i = 0; i < old->n; i++) {
        r[i].st = old->subtables[i];
        r[i].now = atomic_load(&r[i].st->hits);
        r[i].recent = r[i].now - r[i].st->hits_at_rank;
    }
    /* Insertion sort, stable for equal counts: few subtables. */
    for (size_t i = 1; i < old->n; i++) {
        struct ranked x = r[i];
        size_t j = i;
        while (j > 0 && r[j - 1].recent < x.recent) {
            r[j] = r[j - 1];
            j--;
        }
        r[j] = x;
    }
    struct dpcls_vector *v = vector_alloc(old->n);
    for (size_t i = 0; i < old->n; i++) {
        v->subtables[i] = r[i].st;
        r[i].st->hits_at_rank = r[i].now;
    }
    free(r);

    bool changed = memcmp(v->subtables, old->subtables,
                          v->n * sizeof v->subtables[0]) != 0;
    if (changed) {
        publish_vector(cls, v);
    } else {
        free(v);
    }
    return changed;
}

size_t
dpcls_n_subtables(const struct dpcls *cls)
{
    return get_vector(cls)->n;
}

const struct miniflow *
dpcls_subtable_mask(const struct dpcls *cls, size_t idx)
{
    struct dpcls_vector *v = get_vector(cls);
    return idx < v->n ? v->subtables[idx]->mask : NULL;
}
