/* ofproto-eviction: which rule a full table gives up (ofproto-private.h).
 *
 * As Open vSwitch documents it for Flow_Table: only rules with an idle or
 * hard timeout are candidates.  With eviction "groups" (subfields), the
 * candidates are divided by the values those subfields have in each
 * rule's match (0 where the match does not set them) and only the largest
 * groups are considered; then only the lowest importance; then the rule
 * that would expire soonest goes.  Main thread only. */
#include <config.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "hash.h"
#include "hmap.h"
#include "ofp-fields.h"
#include "ofproto-private.h"
#include "util.h"

/* When RULE would expire by its timeouts (LLONG_MAX: never). */
static long long int
rule_expiration(struct rule *rule)
{
    long long int expiration = LLONG_MAX;
    if (rule->hard_timeout) {
        expiration = rule->modified + rule->hard_timeout * 1000LL;
    }
    if (rule->idle_timeout) {
        long long int used = atomic_load(&rule->used);
        used = MAX(used, rule->created);
        expiration = MIN(expiration, used + rule->idle_timeout * 1000LL);
    }
    return expiration;
}

/* One eviction group: the rules whose subfields have the same values. */
struct eviction_group {
    struct hmap_node hmap_node;
    uint8_t *key;               /* The subfields' bits, packed. */
    size_t n_rules;
};

/* Packs the values that TABLE's eviction subfields have in RULE's match
 * into KEY (KEY_LEN bytes, zeroed by the caller). */
static void
eviction_key(const struct oftable *table, const struct rule *rule,
             uint8_t *key, size_t key_len)
{
    struct flow flow;
    struct flow_wildcards wc;
    cls_rule_get_match(&rule->cr, &flow, &wc);
    unsigned int ofs = 0;
    for (size_t i = 0; i < table->n_groups; i++) {
        const struct mf_subfield *sf = &table->groups[i];
        union mf_value value, mask;
        mf_get_value(sf->field, &flow, &value);
        mf_get_mask(sf->field, &wc, &mask);
        for (size_t j = 0; j < sf->field->n_bytes; j++) {
            value.b[j] &= mask.b[j];
        }
        bitwise_copy(&value, sf->field->n_bytes, sf->ofs,
                     key, key_len, ofs, sf->n_bits);
        ofs += sf->n_bits;
    }
}

static size_t
eviction_key_len(const struct oftable *table)
{
    size_t n_bits = 0;
    for (size_t i = 0; i < table->n_groups; i++) {
        n_bits += table->groups[i].n_bits;
    }
    return DIV_ROUND_UP(n_bits, 8);
}

/* Finds or adds the group of KEY in GROUPS. */
static struct eviction_group *
eviction_group_find(struct hmap *groups, const uint8_t *key, size_t key_len)
{
    uint32_t hash = hash_bytes(key, key_len, 0);
    struct eviction_group *g;
    HMAP_FOR_EACH_WITH_HASH (g, hmap_node, hash, groups) {
        if (!memcmp(g->key, key, key_len)) {
            return g;
        }
    }
    g = xzalloc(sizeof *g);
    g->key = xmemdup(key, key_len);
    hmap_insert(groups, &g->hmap_node, hash);
    return g;
}

struct rule *
ofproto_eviction_victim(struct ofproto *ofproto, uint8_t table_id,
                        ovs_version_t version)
{
    struct oftable *table = &ofproto->tables[table_id];

    struct rule **candidates = NULL;
    size_t n = 0, allocated = 0;
    const struct cls_rule *cr;
    CLS_FOR_EACH_TARGET (cr, &table->cls, NULL, CLS_ITER_LOOSE, version) {
        struct rule *rule = CONTAINER_OF(cr, struct rule, cr);
        if (!rule->removed && !rule->hidden
            && (rule->idle_timeout || rule->hard_timeout)) {
            if (n >= allocated) {
                candidates = x2nrealloc(candidates, &allocated,
                                        sizeof *candidates);
            }
            candidates[n++] = rule;
        }
    }

    /* Each candidate's group, and the size of the largest groups. */
    struct hmap groups = HMAP_INITIALIZER(&groups);
    struct eviction_group **group_of = NULL;
    size_t largest = 0;
    if (table->n_groups && n) {
        size_t key_len = eviction_key_len(table);
        uint8_t *key = xmalloc(MAX(key_len, 1));
        group_of = xmalloc(n * sizeof *group_of);
        for (size_t i = 0; i < n; i++) {
            memset(key, 0, key_len);
            eviction_key(table, candidates[i], key, key_len);
            group_of[i] = eviction_group_find(&groups, key, key_len);
            largest = MAX(largest, ++group_of[i]->n_rules);
        }
        free(key);
    }

    struct rule *victim = NULL;
    long long int victim_expiration = LLONG_MAX;
    for (size_t i = 0; i < n; i++) {
        if (group_of && group_of[i]->n_rules != largest) {
            continue;
        }
        struct rule *rule = candidates[i];
        long long int expiration = rule_expiration(rule);
        if (!victim
            || rule->importance < victim->importance
            || (rule->importance == victim->importance
                && expiration < victim_expiration)) {
            victim = rule;
            victim_expiration = expiration;
        }
    }

    struct eviction_group *g;
    HMAP_FOR_EACH_POP (g, hmap_node, &groups) {
        free(g->key);
        free(g);
    }
    hmap_destroy(&groups);
    free(group_of);
    free(candidates);
    return victim;
}
