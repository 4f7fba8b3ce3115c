#include <config.h>
#include "classifier.h"

#include "classifier-private.h"
#include "util.h"

/* The OpenFlow-table queries besides lookup: exact finds (strict
 * modify/delete), overlap checks (CHECK_OVERLAP) and the cursor behind
 * CLS_FOR_EACH_TARGET (loose and strict).  Readers, like lookups. */

/* Exact finds. */

static const struct cls_match *
find_exact(const struct classifier *cls, const struct miniflow *flow,
           const struct miniflow *mask, int priority, ovs_version_t version)
{
    ovsrcu_register();
    const struct cls_subtable_vec *vec = ovsrcu_get(&cls->subtables_vec);
    for (size_t i = 0; i < vec->n; i++) {
        const struct cls_subtable *st = vec->entries[i].subtable;
        if (vec->entries[i].max_priority < priority
            || !miniflow_equal(st->mask, mask)) {
            continue;
        }
        uint64_t values[FLOW_U64S];
        for (unsigned int w = 0; w < st->n_words; w++) {
            values[w] = miniflow_get(flow, st->word_idx[w]) & st->word_mask[w];
        }
        uint32_t stage_hash[FLOW_N_STAGES], hash;
        cls_stage_hashes(st, values, stage_hash, &hash);
        const struct cls_match *m = cls_rtable_find_head(
            ovsrcu_get(&st->rules), hash, values, st->n_words);
        for (; m; m = ovsrcu_get(&m->next)) {
            if (m->priority == priority && cls_match_visible(m, version)) {
                return m;
            }
        }
        return NULL;
    }
    return NULL;
}

const struct cls_rule *
classifier_find_rule_exactly(const struct classifier *cls,
                             const struct cls_rule *target,
                             ovs_version_t version)
{
    const struct cls_match *m = find_exact(cls, target->flow, target->mask,
                                           target->priority, version);
    return m ? m->cls_rule : NULL;
}

const struct cls_rule *
classifier_find_match_exactly(const struct classifier *cls,
                              const struct flow *flow,
                              const struct flow_wildcards *wc, int priority,
                              ovs_version_t version)
{
    struct cls_rule target;
    cls_rule_init(&target, flow, wc, priority);
    const struct cls_rule *r = classifier_find_rule_exactly(cls, &target,
                                                            version);
    cls_rule_destroy(&target);
    return r;
}

/* Whether two matches can both match one packet: they agree wherever both
 * masks care. */
static bool
matches_overlap(const struct cls_rule *a, const struct cls_rule *b)
{
    unsigned int n = 0;
    size_t unit;
    uint64_t bits;
    unsigned int w;
    FLOWMAP_FOR_EACH_INDEX (w, unit, bits, &a->mask->map) {
        uint64_t both = a->mask->values[n++] & miniflow_get(b->mask, w);
        if ((miniflow_get(a->flow, w) ^ miniflow_get(b->flow, w)) & both) {
            return false;
        }
    }
    return true;
}

/* Iteration. */

static bool
cursor_wants(const struct cls_cursor *c, const struct cls_match *m)
{
    return cls_match_visible(m, c->version)
           && (!c->target || cls_rule_is_loose_match(m->cls_rule, c->target));
}

/* Whether ST's mask covers all of the target's, a precondition for any of
 * its rules to be a loose match. */
static bool
subtable_may_match_target(const struct cls_subtable *st,
                          const struct cls_rule *target)
{
    if (!target) {
        return true;
    }
    unsigned int n = 0;
    size_t unit;
    uint64_t bits;
    unsigned int w;
    FLOWMAP_FOR_EACH_INDEX (w, unit, bits, &target->mask->map) {
        if (target->mask->values[n++] & ~miniflow_get(st->mask, w)) {
            return false;
        }
    }
    return true;
}

static const struct cls_rule *
cursor_advance(struct cls_cursor *c)
{
    /* Rest of the current list first. */
    if (c->match) {
        for (c->match = ovsrcu_get(&c->match->next); c->match;
             c->match = ovsrcu_get(&c->match->next)) {
            if (cursor_wants(c, c->match)) {
                return c->match->cls_rule;
            }
        }
        c->slot_idx++;
    }
    for (; c->subtable_idx < c->vec->n;
         c->subtable_idx++, c->slot_idx = 0, c->table = NULL) {
        const struct cls_subtable *st = c->vec->entries[c->subtable_idx].subtable;
        if (!subtable_may_match_target(st, c->target)) {
            continue;
        }
        /* The table as it was when the subtable was reached: a removal
         * may rebuild the subtable's table, but this one stays intact
         * until the caller quiesces. */
        if (!c->table) {
            c->table = ovsrcu_get(&st->rules);
        }
        const struct cls_rtable *t = c->table;
        for (; c->slot_idx <= t->mask; c->slot_idx++) {
            const struct cls_match *m = ovsrcu_get(&t->slots[c->slot_idx].head);
            if (!m || m == CLS_TOMBSTONE) {
                continue;
            }
            for (; m; m = ovsrcu_get(&m->next)) {
                if (cursor_wants(c, m)) {
                    c->match = m;
                    return m->cls_rule;
                }
            }
        }
    }
    c->match = NULL;
    return NULL;
}

struct cls_cursor
cls_cursor_start(const struct classifier *cls, const struct cls_rule *target,
                 enum cls_iter_mode mode, ovs_version_t version)
{
    ovsrcu_register();
    /* A catch-all target loosely matches every rule: no filter needed. */
    bool filter = target && (mode == CLS_ITER_STRICT
                             || !cls_rule_is_catchall(target));
    struct cls_cursor c = {
        .cls = cls,
        .vec = ovsrcu_get(&cls->subtables_vec),
        .target = filter ? target : NULL,
        .mode = mode,
        .version = version,
    };
    if (mode == CLS_ITER_STRICT && target) {
        c.next = classifier_find_rule_exactly(cls, target, version);
        c.subtable_idx = c.vec->n;
    } else {
        c.next = cursor_advance(&c);
    }
    return c;
}

const struct cls_rule *
cls_cursor_next(struct cls_cursor *c)
{
    const struct cls_rule *rule = c->next;
    if (rule) {
        c->next = (c->mode == CLS_ITER_STRICT && c->target) || !c->match
                  ? NULL : cursor_advance(c);
    }
    return rule;
}

struct overlap_aux {
    const struct cls_rule *target;
    ovs_version_t version;
};

static bool
overlap_cb(const struct cls_match *m, void *aux_)
{
    const struct overlap_aux *aux = aux_;
    return (m->priority == aux->target->priority
            && cls_match_visible(m, aux->version)
            && matches_overlap(m->cls_rule, aux->target));
}

bool
classifier_rule_overlaps(const struct classifier *cls,
                         const struct cls_rule *target,
                         ovs_version_t version)
{
    ovsrcu_register();
    const struct cls_subtable_vec *vec = ovsrcu_get(&cls->subtables_vec);
    struct overlap_aux aux = { target, version };
    for (size_t i = 0; i < vec->n; i++) {
        if (vec->entries[i].max_priority < target->priority) {
            break;
        }
        if (cls_subtable_for_each_match(vec->entries[i].subtable, overlap_cb,
                                    &aux)) {
            return true;
        }
    }
    return false;
}

