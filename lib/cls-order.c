#include <config.h>
#include "classifier.h"

#include <stdlib.h>
#include <string.h>
#include "classifier-private.h"
#include "util.h"

/* The subtable order that lookups read (struct cls_subtable_vec): the
 * subtables sorted by their best priority, with the groups and the
 * bitmaps for bulk pruning by the prefix tries, rebuilt whole and
 * republished whenever any of it changes. */

/* Whether A comes before B in lookup order. */
static bool
order_before(const struct cls_subtable *a, const struct cls_subtable *b)
{
    return (a->max_priority > b->max_priority
            || (a->max_priority == b->max_priority && a->seq < b->seq));
}

void
cls_order_insert(struct classifier *cls, struct cls_subtable *st)
{
    if (cls->n_order >= cls->allocated_order) {
        cls->order = x2nrealloc(cls->order, &cls->allocated_order,
                                sizeof *cls->order);
    }
    size_t lo = 0, hi = cls->n_order;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (order_before(cls->order[mid], st)) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    memmove(&cls->order[lo + 1], &cls->order[lo],
            (cls->n_order - lo) * sizeof *cls->order);
    cls->order[lo] = st;
    cls->n_order++;
    cls_order_changed(cls);
}

void
cls_order_remove(struct classifier *cls, struct cls_subtable *st)
{
    size_t i = 0;
    while (cls->order[i] != st) {
        i++;
        ovs_assert(i < cls->n_order);
    }
    memmove(&cls->order[i], &cls->order[i + 1],
            (cls->n_order - i - 1) * sizeof *cls->order);
    cls->n_order--;
}

void
cls_order_reposition(struct classifier *cls, struct cls_subtable *st)
{
    cls_order_remove(cls, st);
    cls_order_insert(cls, st);
}

/* Groups and bulk pruning (see struct cls_group). */
#define CLS_MAX_GROUPS 16

/* Tries on fields of the L3 stage prune grouped subtables in bulk. */
static bool
is_bulk_field(enum cls_prefix_field field)
{
    unsigned int word = cls_prefix_field_defs[field].ofs / 8;
    return word >= FLOW_STAGE_L2_END && word < FLOW_STAGE_L3_END;
}

static uint8_t
bulk_fields(void)
{
    uint8_t fields = 0;
    for (int f = 0; f < CLS_N_PREFIX_FIELDS; f++) {
        if (is_bulk_field(f)) {
            fields |= 1u << f;
        }
    }
    return fields;
}

/* How many stages of ST come before L3, if each holds a single value and
 * a later stage exists; else -1. */
static int
subtable_n_pre_stages(const struct cls_subtable *st)
{
    unsigned int n = 0;
    while (n < st->n_stages && cls_stage_is_pre(st, &st->stages[n])) {
        if (!atomic_load_explicit(&st->stages[n].single,
                                  memory_order_relaxed)) {
            return -1;
        }
        n++;
    }
    return n < st->n_stages ? (int) n : -1;
}

static const struct cls_match *
subtable_any_match(const struct cls_subtable *st)
{
    const struct cls_rtable *t = ovsrcu_get_protected(&st->rules);
    for (size_t i = 0; i <= t->mask; i++) {
        const struct cls_match *m = ovsrcu_get_protected(&t->slots[i].head);
        if (m && m != CLS_TOMBSTONE) {
            return m;
        }
    }
    ovs_abort(0, "a subtable without rules");
}

static inline void
map_set(uint64_t *map, size_t i)
{
    map[i / 64] |= UINT64_C(1) << (i % 64);
}

/* Puts entry I of VEC in the group of its pre-L3 words, making one if
 * needed.  Returns false if it cannot be grouped. */
static bool
vec_group_entry(struct cls_subtable_vec *vec, size_t i)
{
    struct cls_subtable_entry *e = &vec->entries[i];
    const struct cls_subtable *st = e->subtable;
    int n_pre = subtable_n_pre_stages(st);
    if (n_pre < 0) {
        return false;
    }
    unsigned int n_words = n_pre ? st->stages[n_pre - 1].end : 0;
    const uint64_t *values = subtable_any_match(st)->values;

    struct cls_group *g = NULL;
    for (unsigned int j = 0; j < vec->n_groups; j++) {
        struct cls_group *cand = &vec->groups[j];
        if (cand->n_words == n_words
            && !memcmp(cand->word_idx, st->word_idx, n_words)
            && !memcmp(cand->mask, st->word_mask, n_words * 8)
            && !memcmp(cand->value, values, n_words * 8)) {
            g = cand;
            break;
        }
    }
    if (!g) {
        if (vec->n_groups >= CLS_MAX_GROUPS) {
            return false;
        }
        g = &vec->groups[vec->n_groups++];
        g->n_words = n_words;
        memcpy(g->word_idx, st->word_idx, n_words);
        memcpy(g->mask, st->word_mask, n_words * 8);
        memcpy(g->value, values, n_words * 8);
        g->members = xzalloc(vec->n_map_words * 8);
    }
    map_set(g->members, i);

    uint64_t h = 0;
    for (unsigned int w = 0; w < n_words; w++) {
        h = cls_hash_add(h, values[w]);
    }
    e->first_stage = n_pre;
    e->pre_hash = h;
    return true;
}

void
cls_order_free(struct cls_subtable_vec *vec)
{
    if (vec) {
        for (unsigned int i = 0; i < vec->n_groups; i++) {
            free(vec->groups[i].members);
        }
        for (unsigned int i = 0; i < vec->n_bulk; i++) {
            free(vec->plen_maps[i]);
        }
        free(vec->groups);
        free(vec->ungrouped);
        free(vec->entries);
        free(vec);
    }
}

static struct cls_subtable_vec *
vec_build(const struct classifier *cls)
{
    struct cls_subtable_vec *vec = xzalloc(sizeof *vec);
    size_t n = cls->n_order;
    vec->n = n;
    vec->n_map_words = DIV_ROUND_UP(n, 64);
    vec->entries = xzalloc(MAX(n, 1) * sizeof *vec->entries);
    vec->tries = ovsrcu_get_protected(&cls->tries);
    size_t i;
    for (i = 0; i < n; i++) {
        vec->entries[i].max_priority = cls->order[i]->max_priority;
        vec->entries[i].subtable = cls->order[i];
    }

    size_t map_bytes = MAX(vec->n_map_words, 1) * 8;
    vec->groups = xzalloc(CLS_MAX_GROUPS * sizeof *vec->groups);
    vec->ungrouped = xzalloc(map_bytes);
    bool *grouped = xzalloc(MAX(n, 1) * sizeof *grouped);
    for (i = 0; i < n; i++) {
        grouped[i] = vec_group_entry(vec, i);
        if (!grouped[i]) {
            map_set(vec->ungrouped, i);
        }
    }

    const struct cls_tries *tries = vec->tries;
    vec->other_trie_fields = tries ? tries->fields & ~bulk_fields() : 0;
    for (unsigned int t = 0; tries && t < tries->n; t++) {
        enum cls_prefix_field field = tries->tries[t].field;
        if (!is_bulk_field(field)) {
            continue;
        }
        unsigned int b = vec->n_bulk++;
        vec->bulk_trie[b] = t;
        vec->n_plens[b] = cls_prefix_field_defs[field].n_bytes * 8 + 1;
        vec->plen_maps[b] = xzalloc(vec->n_plens[b] * map_bytes);
        for (i = 0; i < n; i++) {
            unsigned int plen = grouped[i]
                                ? vec->entries[i].subtable->plen[field] : 0;
            map_set(&vec->plen_maps[b][plen * vec->n_map_words], i);
        }
    }
    free(grouped);
    return vec;
}

void
cls_order_publish(struct classifier *cls)
{
    struct cls_subtable_vec *old = ovsrcu_get_protected(&cls->subtables_vec);
    ovsrcu_set(&cls->subtables_vec, vec_build(cls));
    if (old) {
        ovsrcu_postpone(cls_order_free, old);
    }
    cls->vec_dirty = false;
}

void
cls_order_changed(struct classifier *cls)
{
    cls->vec_dirty = true;
    if (cls->publish) {
        cls_order_publish(cls);
    }
}

