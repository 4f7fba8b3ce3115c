#include <config.h>
#include "classifier.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include "classifier-private.h"
#include "hash.h"
#include "util.h"

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

/* The transport ports, as one 32-bit big-endian value (tp_src first). */
#define PORTS_OFS offsetof(struct flow, tp_src)
_Static_assert(offsetof(struct flow, tp_dst) == PORTS_OFS + 2,
               "tp_dst follows tp_src");

static void publish_subtables(struct classifier *);
static bool subtable_for_each_match(const struct cls_subtable *,
                                    bool (*)(const struct cls_match *, void *),
                                    void *aux);

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
    for (uint64_t m = criteria->mask->map; m; m &= m - 1, n++) {
        unsigned int w = __builtin_ctzll(m);
        uint64_t cmask = criteria->mask->values[n];
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

static void
stage_hashes(const struct cls_subtable *st, const uint64_t values[],
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
    for (uint64_t m = mask->map; m; m &= m - 1, n++) {
        st->word_idx[n] = __builtin_ctzll(m);
        st->word_mask[n] = mask->values[n];
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

static int
compare_entries(const void *a_, const void *b_)
{
    const struct cls_subtable_entry *a = a_, *b = b_;
    if (a->max_priority != b->max_priority) {
        return a->max_priority > b->max_priority ? -1 : 1;
    }
    return a->subtable->seq < b->subtable->seq ? -1 : 1;
}

/* Groups and bulk pruning (see struct cls_group). */
#define CLS_MAX_GROUPS 16

static bool
stage_is_pre(const struct cls_subtable *st, const struct cls_stage *stage)
{
    return st->word_idx[stage->start] < FLOW_STAGE_L2_END;
}

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
    while (n < st->n_stages && stage_is_pre(st, &st->stages[n])) {
        if (!atomic_load_explicit(&st->stages[n].single,
                                  memory_order_relaxed)) {
            return -1;
        }
        n++;
    }
    return n < st->n_stages ? (int) n : -1;
}

static bool
first_match_cb(const struct cls_match *m, void *first_)
{
    const struct cls_match **first = first_;
    *first = m;
    return true;
}

static const struct cls_match *
subtable_any_match(const struct cls_subtable *st)
{
    const struct cls_match *first = NULL;
    subtable_for_each_match(st, first_match_cb, &first);
    ovs_assert(first);
    return first;
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

static void
vec_free(struct cls_subtable_vec *vec)
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
    size_t n = hmap_count(&cls->subtables);
    vec->n = n;
    vec->n_map_words = DIV_ROUND_UP(n, 64);
    vec->entries = xzalloc(MAX(n, 1) * sizeof *vec->entries);
    vec->tries = ovsrcu_get_protected(&cls->tries);
    struct cls_subtable *st;
    size_t i = 0;
    HMAP_FOR_EACH (st, hmap_node, &cls->subtables) {
        vec->entries[i].max_priority = st->max_priority;
        vec->entries[i].subtable = st;
        i++;
    }
    qsort(vec->entries, n, sizeof *vec->entries, compare_entries);

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

static void
publish_subtables(struct classifier *cls)
{
    struct cls_subtable_vec *old = ovsrcu_get_protected(&cls->subtables_vec);
    ovsrcu_set(&cls->subtables_vec, vec_build(cls));
    if (old) {
        ovsrcu_postpone(vec_free, old);
    }
    cls->vec_dirty = false;
}

static void
subtables_changed(struct classifier *cls)
{
    cls->vec_dirty = true;
    if (cls->publish) {
        publish_subtables(cls);
    }
}

/* Classifier. */

void
classifier_init(struct classifier *cls)
{
    ovsrcu_set_hidden(&cls->subtables_vec, NULL);
    ovsrcu_set_hidden(&cls->tries, NULL);
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
        publish_subtables(cls);
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
    vec_free(ovsrcu_get_protected(&cls->subtables_vec));
    tries_free(ovsrcu_get_protected(&cls->tries));
    cls->n_rules = 0;
}

/* Calls FUNC(M, AUX) for the rule records in ST until one call returns
 * true, and returns whether one did.  For readers and the writer alike. */
static bool
subtable_for_each_match(const struct cls_subtable *st,
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
            subtable_for_each_match(st, fill_tries_cb, &aux);
        }
    }
    /* Lookups find the tries through the subtable order, which also holds
     * the bulk-pruning maps for them: republish it with the new tries. */
    struct cls_tries *old = ovsrcu_get_protected(&cls->tries);
    ovsrcu_set(&cls->tries, tries);
    publish_subtables(cls);
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
    stage_hashes(st, m->values, m->stage_hash, &m->hash);
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
        subtables_changed(cls);
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
                        && stage_is_pre(st, &st->stages[s]));
        }
        cls_rtable_insert(&st->rules, m);
        if (regroup && !new_subtable) {
            subtables_changed(cls);
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
        subtables_changed(cls);
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
                            && stage_is_pre(st, &st->stages[s]));
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
        /* Lookups find subtables only through the published order, so it
         * must be republished now, before the subtable goes. */
        publish_subtables(cls);
        ovsrcu_postpone(subtable_free, st);
    } else if (rule->priority == st->max_priority && !--st->max_count) {
        struct max_aux aux = { INT_MIN, 0 };
        subtable_for_each_match(st, max_cb, &aux);
        st->max_priority = aux.max;
        st->max_count = aux.count;
        subtables_changed(cls);
    } else if (regroup) {
        subtables_changed(cls);
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
        publish_subtables(cls);
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

/* Lookup. */

struct trie_ctx {
    bool done;
    unsigned int maskbits;
    struct prefix_plens plens;
};

/* ORs into WC the subtable's mask words at positions [0, END). */
static inline void
fold_mask(uint64_t *wc, const struct cls_subtable *st, unsigned int end)
{
    for (unsigned int i = 0; i < end; i++) {
        wc[st->word_idx[i]] |= st->word_mask[i];
    }
}

/* ORs the first N_BITS bits of prefix field D into WC. */
static void
wc_set_prefix(struct flow_wildcards *wc, const struct cls_prefix_field_def *d,
              unsigned int n_bits)
{
    uint8_t *p = (uint8_t *) &wc->masks + d->ofs;
    unsigned int full = n_bits / 8;
    memset(p, 0xff, full);
    if (n_bits % 8) {
        p[full] |= (uint8_t) (0xff << (8 - n_bits % 8));
    }
}

/* Looks FLOW up in trie I of TRIES, once per lookup. */
static inline struct trie_ctx *
trie_ctx_get(const struct cls_tries *tries, unsigned int i,
             struct trie_ctx ctx[], const struct flow *flow)
{
    if (!ctx[i].done) {
        const struct cls_trie *t = &tries->tries[i];
        const struct cls_prefix_field_def *d = &cls_prefix_field_defs[t->field];
        uint32_t key[4];
        prefix_trie_key_from_be(key, (const uint8_t *) flow + d->ofs,
                                d->n_bytes);
        ctx[i].maskbits = prefix_trie_lookup(&t->trie, key, d->n_bytes * 8,
                                             &ctx[i].plens);
        ctx[i].done = true;
    }
    return &ctx[i];
}

/* Whether a trie on one of FIELDS rules ST out in STAGE; if so, ORs into
 * WC the address bits that showed it.  A subtable whose prefix length L on
 * the field is not among the lengths matching the packet cannot match, and
 * the trie's first maskbits bits say so (see prefix-trie.h).  The first
 * min(L, maskbits) would do too, but maskbits is the same for every
 * subtable the trie rules out, which keeps the number of distinct
 * megaflow masks down. */
static inline bool
tries_rule_out(const struct cls_subtable *st, const struct cls_stage *stage,
               const struct cls_tries *tries, uint8_t fields,
               struct trie_ctx ctx[], const struct flow *flow,
               struct flow_wildcards *wc)
{
    if (!(stage->trie_fields & fields)) {
        return false;
    }
    for (unsigned int i = 0; i < tries->n; i++) {
        const struct cls_trie *t = &tries->tries[i];
        unsigned int plen = st->plen[t->field];
        if (!plen || !(stage->trie_fields & fields & (1u << t->field))) {
            continue;
        }
        const struct trie_ctx *c = trie_ctx_get(tries, i, ctx, flow);
        if (!prefix_plens_has(&c->plens, plen)) {
            wc_set_prefix(wc, &cls_prefix_field_defs[t->field],
                          c->maskbits);
            return true;
        }
    }
    return false;
}

static inline bool
match_values_equal(const struct cls_subtable *st, const uint64_t *fw,
                   const struct cls_match *m)
{
    for (unsigned int i = 0; i < st->n_words; i++) {
        if ((fw[st->word_idx[i]] & st->word_mask[i]) != m->values[i]) {
            return false;
        }
    }
    return true;
}

/* The first rule visible at VERSION in the list whose match equals FLOW's
 * under ST's mask, given the hash of those words. */
static inline const struct cls_match *
find_visible(const struct cls_subtable *st, const uint64_t *fw,
             uint32_t hash, ovs_version_t version)
{
    const struct cls_rtable *t = ovsrcu_get(&st->rules);
    for (size_t i = hash & t->mask;; i = (i + 1) & t->mask) {
        const struct cls_match *head = ovsrcu_get(&t->slots[i].head);
        if (!head) {
            return NULL;
        }
        if (head != CLS_TOMBSTONE
            && atomic_load_explicit(&t->slots[i].hash,
                                    memory_order_relaxed) == hash
            && match_values_equal(st, fw, head)) {
            for (const struct cls_match *m = head; m;
                 m = ovsrcu_get(&m->next)) {
                if (cls_match_visible(m, version)) {
                    return m;
                }
            }
            return NULL;
        }
    }
}

static inline uint64_t
hash_range(const struct cls_subtable *st, const uint64_t *fw,
           unsigned int start, unsigned int end, uint64_t h)
{
    for (unsigned int w = start; w < end; w++) {
        h = cls_hash_add(h, fw[st->word_idx[w]] & st->word_mask[w]);
    }
    return h;
}

static const struct cls_match *
find_match(const struct cls_subtable *st, const struct flow *flow,
           ovs_version_t version)
{
    const uint64_t *fw = flow_u64s_const(flow);
    uint32_t hash = cls_hash_finish(hash_range(st, fw, 0, st->n_words, 0),
                                    st->n_words);
    return find_visible(st, fw, hash, version);
}

/* Staged lookup in ST, from stage FIRST on (the stages before it are known
 * to match, H being the running hash of their words), consulting the tries
 * on TRIE_FIELDS. */
static const struct cls_match *
find_match_wc(const struct cls_subtable *st, unsigned int first, uint64_t h,
              const struct flow *flow, ovs_version_t version,
              const struct cls_tries *tries, uint8_t trie_fields,
              struct trie_ctx ctx[], struct flow_wildcards *wc)
{
    const uint64_t *fw = flow_u64s_const(flow);
    uint64_t *ww = flow_u64s(&wc->masks);
    unsigned int last = st->n_stages - 1;

    for (unsigned int s = first;; s++) {
        const struct cls_stage *stage = &st->stages[s];
        if (tries && tries_rule_out(st, stage, tries, trie_fields, ctx, flow,
                                    wc)) {
            fold_mask(ww, st, stage->start);
            return NULL;
        }
        h = hash_range(st, fw, stage->start, stage->end, h);
        if (s == last) {
            break;
        }
        if (!cls_stage_contains(stage, cls_hash_finish(h, stage->end))) {
            fold_mask(ww, st, stage->end);
            return NULL;
        }
    }

    const struct cls_match *m = find_visible(st, fw,
                                             cls_hash_finish(h, st->n_words),
                                             version);
    if (!m && st->ports_plen) {
        /* Only the port bits that the rules' ports disagree on. */
        const struct cls_stage *stage = &st->stages[last];
        uint32_t key;
        struct prefix_plens plens;
        prefix_trie_key_from_be(&key, (const uint8_t *) flow + PORTS_OFS, 4);
        key &= st->ports_mask;
        unsigned int mbits = prefix_trie_lookup(&st->ports_trie, &key,
                                                st->ports_plen, &plens);
        uint32_t bits = htonl(st->ports_mask
                              & (mbits ? UINT32_MAX << (32 - mbits) : 0));
        uint32_t cur;
        memcpy(&cur, (uint8_t *) &wc->masks + PORTS_OFS, 4);
        cur |= bits;
        memcpy((uint8_t *) &wc->masks + PORTS_OFS, &cur, 4);
        fold_mask(ww, st, stage->start);
        return NULL;
    }
    fold_mask(ww, st, st->n_words);
    return m;
}

/* One subtable, from its first stage, any tries. */
static inline const struct cls_match *
visit_subtable(const struct cls_subtable *st, const struct flow *flow,
               ovs_version_t version, const struct cls_tries *tries,
               uint8_t trie_fields, struct trie_ctx ctx[],
               struct flow_wildcards *wc)
{
    if (!st->n_stages) {
        return find_visible(st, flow_u64s_const(flow), cls_hash_finish(0, 0),
                            version);
    } else if (wc) {
        return find_match_wc(st, 0, 0, flow, version, tries, trie_fields,
                             ctx, wc);
    } else {
        return find_match(st, flow, version);
    }
}

/* The lookup that visits every subtable in turn until none can do better:
 * without wildcards, and for very many subtables. */
static const struct cls_match *
lookup_each(const struct cls_subtable_vec *vec, ovs_version_t version,
            const struct flow *flow, struct flow_wildcards *wc)
{
    const struct cls_tries *tries = wc ? vec->tries : NULL;
    struct trie_ctx ctx[CLS_MAX_TRIES];
    memset(ctx, 0, sizeof ctx);
    const struct cls_match *best = NULL;
    for (size_t i = 0; i < vec->n; i++) {
        const struct cls_subtable_entry *e = &vec->entries[i];
        /* At equal priority an earlier rule may still be ahead. */
        if (best && e->max_priority < best->priority) {
            break;
        }
        const struct cls_match *m = visit_subtable(
            e->subtable, flow, version, tries, tries ? tries->fields : 0,
            ctx, wc);
        if (m && (!best || cls_match_outranks(m, best))) {
            best = m;
        }
    }
    return best;
}

#define MAX_MAP_WORDS 64        /* Bulk lookups up to 4096 subtables. */

static inline bool
group_matches(const struct cls_group *g, const uint64_t *fw)
{
    for (unsigned int i = 0; i < g->n_words; i++) {
        if ((fw[g->word_idx[i]] & g->mask[i]) != g->value[i]) {
            return false;
        }
    }
    return true;
}

/* Whether MAP has a bit below K. */
static inline bool
map_any_below(const uint64_t *map, size_t k)
{
    size_t w = 0;
    for (; w < k / 64; w++) {
        if (map[w]) {
            return true;
        }
    }
    return k % 64 && (map[w] & ((UINT64_C(1) << (k % 64)) - 1));
}

/* The first entry of VEC that cannot hold a rule of PRIORITY. */
static size_t
first_below_priority(const struct cls_subtable_vec *vec, int priority)
{
    size_t lo = 0, hi = vec->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (vec->entries[mid].max_priority < priority) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    return lo;
}

/* The lookup with wildcards: the same answer and the same bits as
 * lookup_each(), but grouped subtables are compared with the packet once
 * per group and pruned by the L3 tries in bulk, so that only the subtables
 * the tries leave are visited.  The bits the skipped subtables would have
 * added are added at the end, for those that come before the point where
 * the visit stopped. */
static const struct cls_match *
lookup_bulk(const struct cls_subtable_vec *vec, ovs_version_t version,
            const struct flow *flow, struct flow_wildcards *wc)
{
    const size_t n_words = vec->n_map_words;
    const struct cls_tries *tries = vec->tries;
    const uint64_t *fw = flow_u64s_const(flow);
    struct trie_ctx ctx[CLS_MAX_TRIES];
    uint64_t cand[MAX_MAP_WORDS];
    uint64_t pruned[CLS_MAX_TRIES][MAX_MAP_WORDS];

    memset(ctx, 0, sizeof ctx);
    memcpy(cand, vec->ungrouped, n_words * 8);
    for (unsigned int g = 0; g < vec->n_groups; g++) {
        if (group_matches(&vec->groups[g], fw)) {
            const uint64_t *members = vec->groups[g].members;
            for (size_t w = 0; w < n_words; w++) {
                cand[w] |= members[w];
            }
        }
    }

    for (unsigned int b = 0; b < vec->n_bulk; b++) {
        const uint64_t *maps = vec->plen_maps[b];
        const uint64_t *unprunable = maps;
        bool any = false;
        for (size_t w = 0; w < n_words; w++) {
            if (cand[w] & ~unprunable[w]) {
                any = true;
                break;
            }
        }
        if (!any) {
            memset(pruned[b], 0, n_words * 8);
            continue;
        }
        const struct trie_ctx *c = trie_ctx_get(tries, vec->bulk_trie[b], ctx,
                                                flow);
        uint64_t viable[MAX_MAP_WORDS];
        memcpy(viable, unprunable, n_words * 8);
        for (int half = 0; half < 2; half++) {
            for (uint64_t bits = c->plens.bits[half]; bits; bits &= bits - 1) {
                unsigned int plen = half * 64 + __builtin_ctzll(bits) + 1;
                if (plen < vec->n_plens[b]) {
                    const uint64_t *map = &maps[plen * n_words];
                    for (size_t w = 0; w < n_words; w++) {
                        viable[w] |= map[w];
                    }
                }
            }
        }
        for (size_t w = 0; w < n_words; w++) {
            pruned[b][w] = cand[w] & ~viable[w];
            cand[w] &= viable[w];
        }
    }

    const struct cls_match *best = NULL;
    /* Grouped subtables start past their L2 stage: only tries on fields
     * of later stages that were not used in bulk can still apply. */
    const uint8_t other_fields = vec->other_trie_fields;
    for (size_t w = 0; w < n_words; w++) {
        for (uint64_t bits = cand[w]; bits; bits &= bits - 1) {
            size_t i = w * 64 + __builtin_ctzll(bits);
            const struct cls_subtable_entry *e = &vec->entries[i];
            if (best && e->max_priority < best->priority) {
                goto done;
            }
            const struct cls_subtable *st = e->subtable;
            const struct cls_match *m;
            if (!(vec->ungrouped[w] & (UINT64_C(1) << (i % 64)))) {
                m = find_match_wc(st, e->first_stage, e->pre_hash, flow,
                                  version, tries, other_fields, ctx, wc);
            } else {
                m = visit_subtable(st, flow, version, tries,
                                   tries ? tries->fields : 0, ctx, wc);
            }
            if (m && (!best || cls_match_outranks(m, best))) {
                best = m;
            }
        }
    }
done:;
    /* What the subtables that were not visited, before the stop, would
     * have added. */
    size_t k = best ? first_below_priority(vec, best->priority) : vec->n;
    for (unsigned int b = 0; b < vec->n_bulk; b++) {
        if (!map_any_below(pruned[b], k)) {
            continue;
        }
        const struct trie_ctx *c = &ctx[vec->bulk_trie[b]];
        const struct cls_trie *t = &tries->tries[vec->bulk_trie[b]];
        wc_set_prefix(wc, &cls_prefix_field_defs[t->field], c->maskbits);
    }
    uint64_t *ww = flow_u64s(&wc->masks);
    for (unsigned int g = 0; g < vec->n_groups; g++) {
        const struct cls_group *group = &vec->groups[g];
        if (group->n_words && map_any_below(group->members, k)) {
            for (unsigned int i = 0; i < group->n_words; i++) {
                ww[group->word_idx[i]] |= group->mask[i];
            }
        }
    }
    return best;
}

const struct cls_rule *
classifier_lookup(const struct classifier *cls, ovs_version_t version,
                  const struct flow *flow, struct flow_wildcards *wc)
{
    ovsrcu_register();
    const struct cls_subtable_vec *vec = ovsrcu_get(&cls->subtables_vec);
    const struct cls_match *best
        = (wc && vec->n_map_words <= MAX_MAP_WORDS
           ? lookup_bulk(vec, version, flow, wc)
           : lookup_each(vec, version, flow, wc));
    return best ? best->cls_rule : NULL;
}

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
            || st->mask->map != mask->map
            || !miniflow_equal(st->mask, mask)) {
            continue;
        }
        uint64_t values[FLOW_U64S];
        for (unsigned int w = 0; w < st->n_words; w++) {
            values[w] = miniflow_get(flow, st->word_idx[w]) & st->word_mask[w];
        }
        uint32_t stage_hash[FLOW_N_STAGES], hash;
        stage_hashes(st, values, stage_hash, &hash);
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
    for (uint64_t m = a->mask->map; m; m &= m - 1, n++) {
        unsigned int w = __builtin_ctzll(m);
        uint64_t both = a->mask->values[n] & miniflow_get(b->mask, w);
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
    for (uint64_t m = target->mask->map; m; m &= m - 1, n++) {
        if (target->mask->values[n]
            & ~miniflow_get(st->mask, __builtin_ctzll(m))) {
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
        if (subtable_for_each_match(vec->entries[i].subtable, overlap_cb,
                                    &aux)) {
            return true;
        }
    }
    return false;
}
