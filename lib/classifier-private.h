/* classifier-private: the classifier's internal records, shared by
 * classifier.c (rules, lookups) and cls-table.c (its hash tables).
 * Nothing outside lib/classifier*.c includes this.
 *
 * Lock-free reading: every pointer below that a lookup follows is an
 * atomic published with a release store; what a writer unlinks is freed
 * with ovsrcu_postpone(). */
#ifndef CLASSIFIER_PRIVATE_H
#define CLASSIFIER_PRIVATE_H 1

#include "classifier.h"
#include "flow.h"
#include "hash.h"
#include "prefix-trie.h"

/* One rule as a subtable holds it.  Rules with the same match in one
 * subtable form a list, highest rank first (priority, then insertion
 * order); the hash table points to its head. */
struct cls_match {
    OVSRCU_TYPE(struct cls_match *) next;
    const struct cls_rule *cls_rule;
    int priority;
    uint64_t seq;
    ovs_version_t add_version;
    _Atomic ovs_version_t remove_version;
    struct cls_subtable *subtable;      /* Writer only. */
    uint32_t hash;                      /* Over all of the subtable's words. */
    uint32_t stage_hash[FLOW_N_STAGES]; /* Writer only: index keys. */
    uint64_t values[];                  /* Masked words, subtable order. */
};

/* The hash of a subtable's masked words, built word by word so that a
 * lookup can take it stage by stage: cls_hash_finish() of the running
 * state after a stage is that stage's index key.  One multiply and one
 * shift per word (this runs for every stage of every subtable a lookup
 * visits); the shift folds the product's high half back down, without
 * which words that differ only in their high bits (nw_proto next to
 * nw_dst) would collide.  A full avalanche at the end, since the tables
 * index by the low bits. */
static inline uint64_t
cls_hash_add(uint64_t state, uint64_t word)
{
    state = (state ^ word) * UINT64_C(0x9e3779b97f4a7c15);
    return state ^ (state >> 32);
}

static inline uint32_t
cls_hash_finish(uint64_t state, unsigned int n_words)
{
    state ^= n_words;
    state ^= state >> 33;
    state *= UINT64_C(0xff51afd7ed558ccd);
    state ^= state >> 33;
    state *= UINT64_C(0xc4ceb9fe1a85ec53);
    state ^= state >> 33;
    return (uint32_t) state;
}

static inline bool
cls_match_visible(const struct cls_match *m, ovs_version_t version)
{
    return ovs_version_visible(m->add_version,
                               atomic_load_explicit(&m->remove_version,
                                                    memory_order_relaxed),
                               version);
}

/* Whether A outranks B: higher priority, or as high and inserted first. */
static inline bool
cls_match_outranks(const struct cls_match *a, const struct cls_match *b)
{
    return a->priority > b->priority
           || (a->priority == b->priority && a->seq < b->seq);
}

/* Open-addressed hash table of list heads (linear probing).  A slot is
 * empty (NULL: probing stops), a tombstone (CLS_TOMBSTONE: probing goes
 * on) or a head.  Slots are only ever filled or tombstoned in place; a
 * table that fills up is rebuilt whole and swapped in. */
#define CLS_TOMBSTONE ((struct cls_match *) (uintptr_t) 1)
struct cls_slot {
    _Atomic uint32_t hash;
    OVSRCU_TYPE(struct cls_match *) head;
};
struct cls_rtable {
    size_t mask;                /* Number of slots minus one. */
    size_t n_heads, n_used;     /* Heads; heads plus tombstones. */
    struct cls_slot slots[];
};

/* A set of stage hashes with a count of the rules behind each, in one
 * 64-bit word per slot (hash << 32 | state): state 0 is empty, 1 a
 * tombstone, N >= 2 a hash that N - 1 rules have. */
struct cls_hset {
    size_t mask;
    size_t n_hashes, n_used;
    _Atomic uint64_t slots[];
};

struct cls_stage {
    uint8_t start, end;         /* Positions in the subtable's words. */
    uint8_t trie_fields;        /* 1 << CLS_PREFIX_* usable in this stage. */
    /* For every stage but the last: which hashes the rules have.  When
     * there is exactly one, SINGLE is hash << 32 | 1 and lookups compare
     * instead of probing (all of ClassBench's rules share one dl_type). */
    _Atomic uint64_t single;
    OVSRCU_TYPE(struct cls_hset *) index;
};

struct cls_subtable {
    uint8_t n_stages;           /* Stages with mask bits, in order. */
    uint8_t n_words;
    uint8_t ports_plen;         /* Ports trie key length, 0 if none. */
    uint32_t ports_mask;        /* tp_src:tp_dst mask, host order. */
    uint8_t plen[CLS_N_PREFIX_FIELDS];  /* CIDR length, 0 if none. */
    struct cls_stage stages[FLOW_N_STAGES];
    uint8_t word_idx[FLOW_U64S];
    uint64_t word_mask[FLOW_U64S];
    OVSRCU_TYPE(struct cls_rtable *) rules;
    struct prefix_trie ports_trie;

    /* Writer only. */
    struct hmap_node hmap_node; /* In classifier's 'subtables'. */
    struct miniflow *mask;
    uint64_t seq;               /* Creation order, for a stable order. */
    size_t n_rules;
    int max_priority;
    unsigned int max_count;     /* Rules at max_priority. */
};

struct cls_subtable_entry {
    int max_priority;
    struct cls_subtable *subtable;
    /* For a subtable in a group (below): where its lookup resumes once the
     * group's words matched, and the running hash of those words. */
    uint8_t first_stage;
    uint64_t pre_hash;
};

/* Subtables whose metadata and L2 stages each hold one value (all of
 * ClassBench's rules: dl_type=0x0800) form a group per distinct value.
 * A lookup compares the packet with each group once instead of with each
 * subtable, and prunes the group's subtables with the prefix tries in bulk
 * before visiting any of them. */
struct cls_group {
    unsigned int n_words;
    uint8_t word_idx[FLOW_STAGE_L2_END];
    uint64_t mask[FLOW_STAGE_L2_END];
    uint64_t value[FLOW_STAGE_L2_END];
    uint64_t *members;          /* Bitmap over the vec's entries. */
};

/* What lookups read, replaced whole on any change to it.
 *
 * ENTRIES is the order lookups visit subtables in: max_priority,
 * descending.  Bitmaps have one bit per entry, N_MAP_WORDS words. */
struct cls_subtable_vec {
    size_t n;
    size_t n_map_words;
    struct cls_subtable_entry *entries;
    const struct cls_tries *tries;
    unsigned int n_groups;
    struct cls_group *groups;
    uint64_t *ungrouped;        /* Entries in no group. */
    /* Bulk pruning by the tries on L3 fields: for trie BULK_TRIE[i],
     * PLEN_MAPS[i] holds N_PLENS[i] bitmaps, the L'th of the grouped
     * entries whose prefix length on the field is L (L = 0: the trie
     * cannot rule them out). */
    unsigned int n_bulk;
    uint8_t other_trie_fields;  /* The configured fields not pruned so. */
    uint8_t bulk_trie[CLS_MAX_TRIES];
    unsigned int n_plens[CLS_MAX_TRIES];
    uint64_t *plen_maps[CLS_MAX_TRIES];
};

struct cls_trie {
    enum cls_prefix_field field;
    struct prefix_trie trie;
};

struct cls_tries {
    unsigned int n;
    uint8_t fields;             /* 1 << field for each trie. */
    struct cls_trie tries[CLS_MAX_TRIES];
};

/* Where a prefix field lives in struct flow. */
struct cls_prefix_field_def {
    const char *name, *alias;
    uint16_t ofs;               /* Byte offset in struct flow. */
    uint8_t n_bytes;            /* 4 or 16. */
};
extern const struct cls_prefix_field_def
    cls_prefix_field_defs[CLS_N_PREFIX_FIELDS];

/* The transport ports, as one 32-bit big-endian value (tp_src first). */
#define PORTS_OFS offsetof(struct flow, tp_src)
_Static_assert(offsetof(struct flow, tp_dst) == PORTS_OFS + 2,
               "tp_dst follows tp_src");

/* Whether STAGE of ST lies before L3 (metadata or L2). */
static inline bool
cls_stage_is_pre(const struct cls_subtable *st, const struct cls_stage *stage)
{
    return st->word_idx[stage->start] < FLOW_STAGE_L2_END;
}

/* classifier.c. */
void cls_stage_hashes(const struct cls_subtable *, const uint64_t values[],
                      uint32_t stage_hash[FLOW_N_STAGES], uint32_t *full);
/* Calls FUNC(M, AUX) for the rule records in ST until one call returns
 * true, and returns whether one did.  For readers and the writer alike. */
bool cls_subtable_for_each_match(const struct cls_subtable *,
                                 bool (*func)(const struct cls_match *,
                                              void *),
                                 void *aux);

/* cls-order.c: the subtable order.  cls_order_changed() republishes it, or
 * marks it for classifier_publish() while deferred; cls_order_publish()
 * republishes it now. */
void cls_order_changed(struct classifier *);
void cls_order_publish(struct classifier *);
void cls_order_free(struct cls_subtable_vec *);
/* The writer's sorted list: a new subtable, one whose max_priority
 * changed, one that goes.  The first two also call cls_order_changed(). */
void cls_order_insert(struct classifier *, struct cls_subtable *);
void cls_order_reposition(struct classifier *, struct cls_subtable *);
void cls_order_remove(struct classifier *, struct cls_subtable *);

/* cls-table.c: the two hash tables. */
struct cls_rtable *cls_rtable_create(size_t n_slots);
struct cls_match *cls_rtable_find_head(const struct cls_rtable *,
                                       uint32_t hash,
                                       const uint64_t values[],
                                       unsigned int n_words);
void cls_rtable_insert(OVSRCU_TYPE(struct cls_rtable *) *,
                       struct cls_match *head);
void cls_rtable_replace_head(struct cls_rtable *, struct cls_match *old,
                             struct cls_match *new_head);
void cls_rtable_remove(OVSRCU_TYPE(struct cls_rtable *) *,
                       struct cls_match *head);

struct cls_hset *cls_hset_create(size_t n_slots);
bool cls_hset_contains(const struct cls_hset *, uint32_t hash);
/* Both return true if the stage went from one hash to several or back. */
bool cls_hset_add(struct cls_stage *, uint32_t hash);
bool cls_hset_sub(struct cls_stage *, uint32_t hash);

static inline bool
cls_stage_contains(const struct cls_stage *stage, uint32_t hash)
{
    uint64_t single = atomic_load_explicit(&stage->single,
                                           memory_order_acquire);
    if (single) {
        return (uint32_t) (single >> 32) == hash;
    }
    return cls_hset_contains(ovsrcu_get(&stage->index), hash);
}

#endif /* classifier-private.h */
