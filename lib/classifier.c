#include <config.h>
#include "classifier.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include "classifier-private.h"
#include "util.h"

/* Rules, subtables and the writer's side: insert, replace, remove, the
 * prefix trie configuration.  Lookups are in cls-lookup.c, the order they
 * visit subtables in is built in cls-order.c, exact finds and iteration
 * are in cls-find.c. */

const struct cls_prefix_field_def cls_prefix_field_defs[CLS_N_PREFIX_FIELDS]
= {
    [CLS_PREFIX_NW_SRC] = { "nw_src", "ip_src",
                            offsetof(struct flow, nw_src), 4 },
    [CLS_PREFIX_NW_DST] = { "nw_dst", "ip_dst",
                            offsetof(struct flow, nw_dst), 4 },
    [CLS_PREFIX_IPV6_SRC] = { "ipv6_src", NULL,
                              offsetof(struct flow, ipv6_src), 16 },
    [CLS_PREFIX_IPV6_DST] = { "ipv6_dst", NULL,
                              offsetof(struct flow, ipv6_dst), 16 },
    [CLS_PREFIX_TUN_SRC] = { "tun_src", NULL,
                             offsetof(struct flow, tunnel.ip_src), 4 },
    [CLS_PREFIX_TUN_DST] = { "tun_dst", NULL,
                             offsetof(struct flow, tunnel.ip_dst), 4 },
};

/* Rules. */

void
cls_rule_init(struct cls_rule *rule, const struct flow *flow,
              const struct flow_wildcards *wc, int priority)
{
    rule->priority = priority;
    rule->flow = miniflow_create_masked(flow, wc);
    rule->mask = miniflow_create(&wc->masks);
    atomic_init(&rule->cls_match, NULL);
}

void
cls_rule_clone(struct cls_rule *dst, const struct cls_rule *src)
{
    dst->priority = src->priority;
    dst->flow = xmemdup(src->flow, miniflow_size(miniflow_n_values(src->flow)));
    dst->mask = xmemdup(src->mask, miniflow_size(miniflow_n_values(src->mask)));
    atomic_init(&dst->cls_match, NULL);
}

void
cls_rule_destroy(struct cls_rule *rule)
{
    ovs_assert(!ovsrcu_get_protected(&rule->cls_match));
    free(rule->flow);
    free(rule->mask);
    rule->flow = rule->mask = NULL;
}

void
cls_rule_get_match(const struct cls_rule *rule, struct flow *flow,
                   struct flow_wildcards *wc)
{
    miniflow_expand(rule->flow, flow);
    miniflow_expand(rule->mask, &wc->masks);
}

bool
cls_rule_same_match(const struct cls_rule *a, const struct cls_rule *b)
{
    return miniflow_equal(a->mask, b->mask) && miniflow_equal(a->flow, b->flow);
}

bool
cls_rule_equal(const struct cls_rule *a, const struct cls_rule *b)
{
    return a->priority == b->priority && cls_rule_same_match(a, b);
}

bool
cls_rule_is_catchall(const struct cls_rule *rule)
{
    for (unsigned int i = 0; i < miniflow_n_values(rule->mask); i++) {
        if (rule->mask->values[i]) {
            return false;
        }
    }
    return true;
}

bool
cls_rule_matches_flow(const struct cls_rule *rule, const struct flow *flow)
{
    return flow_equal_in_minimask(flow, rule->mask, rule->flow);
}

bool
cls_rule_is_loose_match(const struct cls_rule *rule,
                        const struct cls_rule *criteria)
{
    unsigned int n = 0;
    size_t unit;
    uint64_t bits;
    unsigned int w;
    FLOWMAP_FOR_EACH_INDEX (w, unit, bits, &criteria->mask->map) {
        uint64_t cmask = criteria->mask->values[n++];
        if (cmask & ~miniflow_get(rule->mask, w)) {
            return false;
        }
        if ((miniflow_get(rule->flow, w) & cmask)
            != miniflow_get(criteria->flow, w)) {
            return false;
        }
    }
    return true;
}

bool
cls_rule_visible_in_version(const struct cls_rule *rule,
                            ovs_version_t version)
{
    ovsrcu_register();
    const struct cls_match *m = ovsrcu_get(&rule->cls_match);
    return m && cls_match_visible(m, version);
}

void
cls_rule_get_rank(const struct cls_rule *rule, uint64_t *subtable_seq,
                  uint64_t *seq)
{
    const struct cls_match *m = ovsrcu_get_protected(&rule->cls_match);
    ovs_assert(m);
    *subtable_seq = m->subtable->seq;
    *seq = m->seq;
}

void
cls_rule_make_invisible_in_version(const struct cls_rule *rule,
                                   ovs_version_t version)
{
    struct cls_match *m = ovsrcu_get_protected(&rule->cls_match);
    /* At its own add version: a rule added and deleted in one batch. */
    ovs_assert(m && version >= m->add_version);
    atomic_store_explicit(&m->remove_version, version, memory_order_relaxed);
}

void
cls_rule_restore_visibility(const struct cls_rule *rule)
{
    struct cls_match *m = ovsrcu_get_protected(&rule->cls_match);
    ovs_assert(m);
    atomic_store_explicit(&m->remove_version, OVS_VERSION_NOT_REMOVED,
                          memory_order_relaxed);
}

/* Prefix fields. */

bool
cls_prefix_field_from_name(const char *name, enum cls_prefix_field *field)
{
    for (int i = 0; i < CLS_N_PREFIX_FIELDS; i++) {
        const struct cls_prefix_field_def *d = &cls_prefix_field_defs[i];
        if (!strcmp(name, d->name) || (d->alias && !strcmp(name, d->alias))) {
            *field = i;
            return true;
        }
    }
    return false;
}

const char *
cls_prefix_field_name(enum cls_prefix_field field)
{
    return field < CLS_N_PREFIX_FIELDS ? cls_prefix_field_defs[field].name
                                       : "<unknown>";
}

/* Copies the N bytes at byte offset OFS of the flow MF stands for. */
static void
miniflow_read_bytes(const struct miniflow *mf, size_t ofs, size_t n,
                    void *dst_)
{
    uint8_t *dst = dst_;
    for (size_t i = 0; i < n; i++) {
        uint64_t word = miniflow_get(mf, (ofs + i) / 8);
        memcpy(&dst[i], (uint8_t *) &word + (ofs + i) % 8, 1);
    }
}

/* The length of the CIDR mask of FIELD in MASK, or 0 if FIELD is not
 * matched or not on a prefix. */
static unsigned int
mask_prefix_len(const struct miniflow *mask, enum cls_prefix_field field)
{
    const struct cls_prefix_field_def *d = &cls_prefix_field_defs[field];
    uint8_t bytes[16];
    uint32_t words[4];
    miniflow_read_bytes(mask, d->ofs, d->n_bytes, bytes);
    prefix_trie_key_from_be(words, bytes, d->n_bytes);
    unsigned int plen = 0;
    unsigned int i = 0;
    for (; i < d->n_bytes / 4 && words[i] == UINT32_MAX; i++) {
        plen += 32;
    }
    if (i < d->n_bytes / 4) {
        uint32_t w = words[i];
        unsigned int ones = w ? __builtin_clz(~w) : 0;
        if (ones < 32 && (w << ones)) {
            return 0;           /* Not contiguous. */
        }
        plen += ones;
        for (i++; i < d->n_bytes / 4; i++) {
            if (words[i]) {
                return 0;
            }
        }
    }
    return plen;
}

static void
rule_prefix_key(const struct cls_rule *rule, enum cls_prefix_field field,
                uint32_t key[4])
{
    const struct cls_prefix_field_def *d = &cls_prefix_field_defs[field];
    uint8_t bytes[16];
    miniflow_read_bytes(rule->flow, d->ofs, d->n_bytes, bytes);
    prefix_trie_key_from_be(key, bytes, d->n_bytes);
}

static uint32_t
rule_ports_key(const struct cls_rule *rule, uint32_t ports_mask)
{
    uint32_t key;
    uint8_t bytes[4];
    miniflow_read_bytes(rule->flow, PORTS_OFS, 4, bytes);
    prefix_trie_key_from_be(&key, bytes, 4);
    return key & ports_mask;
}

/* Adds (ADD) or removes RULE's prefixes in every trie that applies. */
static void
tries_update_rule(struct cls_tries *tries, const struct cls_subtable *st,
                  const struct cls_rule *rule, bool add)
{
    for (unsigned int i = 0; tries && i < tries->n; i++) {
        struct cls_trie *t = &tries->tries[i];
        unsigned int plen = st->plen[t->field];
        if (plen) {
            uint32_t key[4];
            rule_prefix_key(rule, t->field, key);
            if (add) {
                prefix_trie_insert(&t->trie, key, plen);
            } else {
                prefix_trie_remove(&t->trie, key, plen);
            }
        }
    }
}

/* Subtables. */

void
cls_stage_hashes(const struct cls_subtable *st, const uint64_t values[],
             uint32_t stage_hash[FLOW_N_STAGES], uint32_t *full)
{
    uint64_t h = 0;
    for (unsigned int s = 0; s < st->n_stages; s++) {
        const struct cls_stage *stage = &st->stages[s];
        for (unsigned int w = stage->start; w < stage->end; w++) {
            h = cls_hash_add(h, values[w]);
        }
        stage_hash[s] = cls_hash_finish(h, stage->end);
    }
    *full = st->n_stages ? stage_hash[st->n_stages - 1] : cls_hash_finish(0, 0);
}

static struct cls_subtable *
subtable_create(struct classifier *cls, const struct miniflow *mask,
                uint32_t mask_hash)
{
    struct cls_subtable *st = xzalloc(sizeof *st);
    st->mask = xmemdup(mask, miniflow_size(miniflow_n_values(mask)));
    st->seq = cls->next_seq++;
    st->max_priority = INT_MIN;

    /* Words with mask bits (a miniflow_create() mask has no zero words),
     * grouped into the stages of struct flow. */
    unsigned int n = 0;
    size_t unit;
    uint64_t bits;
    unsigned int idx;
    FLOWMAP_FOR_EACH_INDEX (idx, unit, bits, &mask->map) {
        st->word_idx[n] = idx;
        st->word_mask[n] = mask->values[n];
        n++;
    }
    st->n_words = n;
    unsigned int w = 0, stage_start = 0;
    for (int s = 0; s < FLOW_N_STAGES; s++) {
        unsigned int start = w;
        while (w < n && st->word_idx[w] < flow_stage_end[s]) {
            w++;
        }
        if (w > start) {
            struct cls_stage *stage = &st->stages[st->n_stages++];
            stage->start = start;
            stage->end = w;
            for (int f = 0; f < CLS_N_PREFIX_FIELDS; f++) {
                unsigned int word = cls_prefix_field_defs[f].ofs / 8;
                if (word >= stage_start && word < flow_stage_end[s]) {
                    st->plen[f] = mask_prefix_len(mask, f);
                    if (st->plen[f]) {
                        stage->trie_fields |= 1u << f;
                    }
                }
            }
        }
        stage_start = flow_stage_end[s];
    }
    for (unsigned int s = 0; s + 1 < st->n_stages; s++) {
        ovsrcu_set_hidden(&st->stages[s].index, cls_hset_create(8));
    }
    ovsrcu_set_hidden(&st->rules, cls_rtable_create(8));

    /* A ports trie pays off only when the ports are all the last stage
     * holds: then a miss there can be explained by port bits alone. */
    if (st->n_stages) {
        const struct cls_stage *last = &st->stages[st->n_stages - 1];
        unsigned int ports_word = PORTS_OFS / 8;
        if (last->end - last->start == 1
            && st->word_idx[last->start] == ports_word) {
            struct flow mflow;
            miniflow_expand(mask, &mflow);
            uint64_t word = flow_u64s_const(&mflow)[ports_word];
            uint32_t ports;
            prefix_trie_key_from_be(&ports, (uint8_t *) &mflow + PORTS_OFS,
                                    4);
            uint64_t ports_only = 0;
            memcpy((uint8_t *) &ports_only + PORTS_OFS % 8,
                   (uint8_t *) &mflow + PORTS_OFS, 4);
            if (ports && word == ports_only) {
                st->ports_mask = ports;
                st->ports_plen = 32 - __builtin_ctz(ports);
            }
        }
    }
    prefix_trie_init(&st->ports_trie);

    hmap_insert(&cls->subtables, &st->hmap_node, mask_hash);
    return st;
}

static void
subtable_free(struct cls_subtable *st)
{
    for (unsigned int s = 0; s < st->n_stages; s++) {
        free(ovsrcu_get_protected(&st->stages[s].index));
    }
    free(ovsrcu_get_protected(&st->rules));
    prefix_trie_destroy(&st->ports_trie);
    free(st->mask);
    free(st);
}

static struct cls_subtable *
find_subtable(const struct classifier *cls, const struct miniflow *mask,
              uint32_t mask_hash)
{
    struct cls_subtable *st;
    HMAP_FOR_EACH_WITH_HASH (st, hmap_node, mask_hash, &cls->subtables) {
        if (miniflow_equal(st->mask, mask)) {
            return st;
        }
    }
    return NULL;
}

/* Classifier. */

void
classifier_init(struct classifier *cls)
{
    ovsrcu_set_hidden(&cls->subtables_vec, NULL);
    ovsrcu_set_hidden(&cls->tries, NULL);
    cls->order = NULL;
    cls->n_order = cls->allocated_order = 0;
    hmap_init(&cls->subtables);
    cls->n_rules = 0;
    cls->next_seq = 0;
    cls->publish = true;
    cls->vec_dirty = false;
    cls->n_prefix_fields = 0;
    static const enum cls_prefix_field defaults[] = {
        CLS_PREFIX_NW_DST, CLS_PREFIX_NW_SRC
    };
    classifier_set_prefix_fields(cls, defaults, ARRAY_SIZE(defaults));
    if (!ovsrcu_get_protected(&cls->subtables_vec)) {
        cls_order_publish(cls);
    }
}

static void
tries_free(struct cls_tries *tries)
{
    if (tries) {
        for (unsigned int i = 0; i < tries->n; i++) {
            prefix_trie_destroy(&tries->tries[i].trie);
        }
        free(tries);
    }
}

void
classifier_destroy(struct classifier *cls)
{
    struct cls_subtable *st;
    HMAP_FOR_EACH_POP (st, hmap_node, &cls->subtables) {
        struct cls_rtable *t = ovsrcu_get_protected(&st->rules);
        for (size_t i = 0; i <= t->mask; i++) {
            struct cls_match *m = ovsrcu_get_protected(&t->slots[i].head);
            if (m == CLS_TOMBSTONE) {
                continue;
            }
            while (m) {
                struct cls_match *next = ovsrcu_get_protected(&m->next);
                atomic_store(&((struct cls_rule *) m->cls_rule)->cls_match,
                             NULL);
                free(m);
                m = next;
            }
        }
        subtable_free(st);
    }
    hmap_destroy(&cls->subtables);
    free(cls->order);
    cls->order = NULL;
    cls->n_order = cls->allocated_order = 0;
    cls_order_free(ovsrcu_get_protected(&cls->subtables_vec));
    tries_free(ovsrcu_get_protected(&cls->tries));
    cls->n_rules = 0;
}

/* Calls FUNC(M, AUX) for the rule records in ST until one call returns
 * true, and returns whether one did.  For readers and the writer alike. */
bool
cls_subtable_for_each_match(const struct cls_subtable *st,
                        bool (*func)(const struct cls_match *, void *),
                        void *aux)
{
    const struct cls_rtable *t = ovsrcu_get(&st->rules);
    for (size_t i = 0; i <= t->mask; i++) {
        const struct cls_match *m = ovsrcu_get(&t->slots[i].head);
        if (m == CLS_TOMBSTONE) {
            continue;
        }
        for (; m; m = ovsrcu_get(&m->next)) {
            if (func(m, aux)) {
                return true;
            }
        }
    }
    return false;
}

struct fill_tries_aux {
    struct cls_tries *tries;
    const struct cls_subtable *st;
};

static bool
fill_tries_cb(const struct cls_match *m, void *aux_)
{
    struct fill_tries_aux *aux = aux_;
    tries_update_rule(aux->tries, aux->st, m->cls_rule, true);
    return false;
}

bool
classifier_set_prefix_fields(struct classifier *cls,
                             const enum cls_prefix_field *fields,
                             unsigned int n)
{
    if (n > CLS_MAX_TRIES) {
        return false;
    }
    uint8_t seen = 0;
    for (unsigned int i = 0; i < n; i++) {
        if (fields[i] >= CLS_N_PREFIX_FIELDS || seen & (1u << fields[i])) {
            return false;
        }
        seen |= 1u << fields[i];
    }
    if (n == cls->n_prefix_fields
        && (!n || !memcmp(fields, cls->prefix_fields, n * sizeof *fields))) {
        return true;
    }

    struct cls_tries *tries = NULL;
    if (n) {
        tries = xzalloc(sizeof *tries);
        tries->n = n;
        tries->fields = seen;
        for (unsigned int i = 0; i < n; i++) {
            tries->tries[i].field = fields[i];
            prefix_trie_init(&tries->tries[i].trie);
        }
        struct cls_subtable *st;
        HMAP_FOR_EACH (st, hmap_node, &cls->subtables) {
            struct fill_tries_aux aux = { tries, st };
            cls_subtable_for_each_match(st, fill_tries_cb, &aux);
        }
    }
    /* Lookups find the tries through the subtable order, which also holds
     * the bulk-pruning maps for them: republish it with the new tries. */
    struct cls_tries *old = ovsrcu_get_protected(&cls->tries);
    ovsrcu_set(&cls->tries, tries);
    cls_order_publish(cls);
    if (old) {
        ovsrcu_postpone(tries_free, old);
    }
    for (unsigned int i = 0; i < n; i++) {
        cls->prefix_fields[i] = fields[i];
    }
    cls->n_prefix_fields = n;
    return true;
}

static struct cls_match *
match_create(const struct cls_subtable *st, const struct cls_rule *rule,
             ovs_version_t version)
{
    struct cls_match *m = xzalloc(sizeof *m + st->n_words * sizeof(uint64_t));
    for (unsigned int i = 0; i < st->n_words; i++) {
        m->values[i] = miniflow_get(rule->flow, st->word_idx[i])
                       & st->word_mask[i];
    }
    cls_stage_hashes(st, m->values, m->stage_hash, &m->hash);
    m->cls_rule = rule;
    m->priority = rule->priority;
    m->add_version = version;
    atomic_init(&m->remove_version, OVS_VERSION_NOT_REMOVED);
    m->subtable = (struct cls_subtable *) st;
    atomic_init(&m->next, NULL);
    return m;
}

static void
subtable_update_max_on_insert(struct classifier *cls, struct cls_subtable *st,
                              int priority)
{
    if (priority > st->max_priority) {
        st->max_priority = priority;
        st->max_count = 1;
        cls_order_reposition(cls, st);
    } else if (priority == st->max_priority) {
        st->max_count++;
    }
}

static const struct cls_rule *
insert__(struct classifier *cls, const struct cls_rule *rule,
         ovs_version_t version, bool replace)
{
    ovs_assert(!ovsrcu_get_protected(&rule->cls_match));
    uint32_t mask_hash = miniflow_hash(rule->mask, 0);
    struct cls_subtable *st = find_subtable(cls, rule->mask, mask_hash);
    bool new_subtable = !st;
    if (!st) {
        st = subtable_create(cls, rule->mask, mask_hash);
    }
    struct cls_match *m = match_create(st, rule, version);
    struct cls_rtable *t = ovsrcu_get_protected(&st->rules);
    struct cls_match *head = cls_rtable_find_head(t, m->hash, m->values,
                                                  st->n_words);
    if (head) {
        /* Find where M goes in the list, and a rule it replaces. */
        OVSRCU_TYPE(struct cls_match *) *prevp = NULL;
        struct cls_match *iter = head, *prev = NULL;
        for (; iter; prev = iter, iter = ovsrcu_get_protected(&iter->next)) {
            if (iter->priority == rule->priority
                && cls_match_visible(iter, version)) {
                ovs_assert(replace);
                /* M takes ITER's place, including its rank in ties. */
                m->seq = iter->seq;
                atomic_init(&m->next, ovsrcu_get_protected(&iter->next));
                if (prev) {
                    ovsrcu_set(&prev->next, m);
                } else {
                    cls_rtable_replace_head(t, iter, m);
                }
                atomic_store(&((struct cls_rule *) rule)->cls_match, m);
                const struct cls_rule *old = iter->cls_rule;
                atomic_store(&((struct cls_rule *) old)->cls_match, NULL);
                ovsrcu_postpone(free, iter);
                return old;
            }
        }
        m->seq = cls->next_seq++;
        prev = NULL;
        for (iter = head; iter && cls_match_outranks(iter, m);
             prev = iter, iter = ovsrcu_get_protected(&iter->next)) {
            continue;
        }
        atomic_init(&m->next, iter);
        prevp = prev ? &prev->next : NULL;
        if (prevp) {
            ovsrcu_set(prevp, m);
        } else {
            cls_rtable_replace_head(t, head, m);
        }
    } else {
        m->seq = cls->next_seq++;
        bool regroup = false;
        for (unsigned int s = 0; s + 1 < st->n_stages; s++) {
            regroup |= (cls_hset_add(&st->stages[s], m->stage_hash[s])
                        && cls_stage_is_pre(st, &st->stages[s]));
        }
        cls_rtable_insert(&st->rules, m);
        if (regroup && !new_subtable) {
            cls_order_changed(cls);
        }
    }
    atomic_store(&((struct cls_rule *) rule)->cls_match, m);

    tries_update_rule(ovsrcu_get_protected(&cls->tries), st, rule, true);
    if (st->ports_plen) {
        uint32_t key = rule_ports_key(rule, st->ports_mask);
        prefix_trie_insert(&st->ports_trie, &key, st->ports_plen);
    }
    st->n_rules++;
    cls->n_rules++;
    if (new_subtable) {
        st->max_priority = rule->priority;
        st->max_count = 1;
        cls_order_insert(cls, st);
    } else {
        subtable_update_max_on_insert(cls, st, rule->priority);
    }
    return NULL;
}

void
classifier_insert(struct classifier *cls, const struct cls_rule *rule,
                  ovs_version_t version)
{
    insert__(cls, rule, version, false);
}

const struct cls_rule *
classifier_replace(struct classifier *cls, const struct cls_rule *rule,
                   ovs_version_t version)
{
    return insert__(cls, rule, version, true);
}

struct max_aux {
    int max;
    unsigned int count;
};

static bool
max_cb(const struct cls_match *m, void *aux_)
{
    struct max_aux *aux = aux_;
    if (m->priority > aux->max) {
        aux->max = m->priority;
        aux->count = 1;
    } else if (m->priority == aux->max) {
        aux->count++;
    }
    return false;
}

bool
classifier_remove(struct classifier *cls, const struct cls_rule *rule)
{
    struct cls_match *m = ovsrcu_get_protected(&rule->cls_match);
    if (!m) {
        return false;
    }
    struct cls_subtable *st = m->subtable;
    struct cls_rtable *t = ovsrcu_get_protected(&st->rules);
    struct cls_match *head = cls_rtable_find_head(t, m->hash, m->values,
                                                  st->n_words);
    ovs_assert(head);
    bool regroup = false;
    struct cls_match *next = ovsrcu_get_protected(&m->next);
    if (head == m) {
        if (next) {
            cls_rtable_replace_head(t, m, next);
        } else {
            cls_rtable_remove(&st->rules, m);
            for (unsigned int s = 0; s + 1 < st->n_stages; s++) {
                regroup |= (cls_hset_sub(&st->stages[s], m->stage_hash[s])
                            && cls_stage_is_pre(st, &st->stages[s]));
            }
        }
    } else {
        struct cls_match *prev = head;
        while (ovsrcu_get_protected(&prev->next) != m) {
            prev = ovsrcu_get_protected(&prev->next);
            ovs_assert(prev);
        }
        ovsrcu_set(&prev->next, next);
    }
    atomic_store(&((struct cls_rule *) rule)->cls_match, NULL);
    ovsrcu_postpone(free, m);

    tries_update_rule(ovsrcu_get_protected(&cls->tries), st, rule, false);
    if (st->ports_plen) {
        uint32_t key = rule_ports_key(rule, st->ports_mask);
        prefix_trie_remove(&st->ports_trie, &key, st->ports_plen);
    }
    cls->n_rules--;
    if (!--st->n_rules) {
        hmap_remove(&cls->subtables, &st->hmap_node);
        cls_order_remove(cls, st);
        /* Lookups find subtables only through the published order, so it
         * must be republished now, before the subtable goes. */
        cls_order_publish(cls);
        ovsrcu_postpone(subtable_free, st);
    } else if (rule->priority == st->max_priority && !--st->max_count) {
        struct max_aux aux = { INT_MIN, 0 };
        cls_subtable_for_each_match(st, max_cb, &aux);
        st->max_priority = aux.max;
        st->max_count = aux.count;
        cls_order_reposition(cls, st);
    } else if (regroup) {
        cls_order_changed(cls);
    }
    return true;
}

void
classifier_defer(struct classifier *cls)
{
    cls->publish = false;
}

void
classifier_publish(struct classifier *cls)
{
    cls->publish = true;
    if (cls->vec_dirty) {
        cls_order_publish(cls);
    }
}

void
classifier_sync(struct classifier *cls)
{
    if (cls->vec_dirty) {
        cls_order_publish(cls);
    }
}

size_t
classifier_count(const struct classifier *cls)
{
    return cls->n_rules;
}

bool
classifier_is_empty(const struct classifier *cls)
{
    return !cls->n_rules;
}

size_t
classifier_n_subtables(const struct classifier *cls)
{
    return hmap_count(&cls->subtables);
}

