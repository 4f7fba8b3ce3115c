#include <config.h>
#include "prefix-trie.h"

#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include "util.h"

/* A node stands for the N_BITS bits of the edge that leads to it (left-
 * aligned in PREFIX), so its depth is the sum of N_BITS from the root.
 * N_RULES counts the rules whose prefix ends exactly at that depth. */
struct trie_node {
    uint32_t prefix;
    uint8_t n_bits;             /* 1...32. */
    _Atomic unsigned int n_rules;
    OVSRCU_TYPE(struct trie_node *) edges[2];
};

static inline uint32_t
high_mask(unsigned int n)       /* The N leading bits of a word, N <= 32. */
{
    return n ? UINT32_MAX << (32 - n) : 0;
}

static inline unsigned int
key_bit(const uint32_t key[], unsigned int ofs)
{
    return (key[ofs / 32] >> (31 - ofs % 32)) & 1;
}

/* N (1...32) bits of KEY from bit OFS, left-aligned; never reads past the
 * word holding bit OFS + N - 1. */
static inline uint32_t
key_bits(const uint32_t key[], unsigned int ofs, unsigned int n)
{
    unsigned int w = ofs / 32, b = ofs % 32;
    uint32_t v = key[w] << b;
    if (b && b + n > 32) {
        v |= key[w + 1] >> (32 - b);
    }
    return v & high_mask(n);
}

void
prefix_trie_key_from_be(uint32_t key[], const void *p, unsigned int n_bytes)
{
    const uint8_t *bytes = p;
    for (unsigned int i = 0; i < n_bytes / 4; i++) {
        uint32_t be;
        memcpy(&be, bytes + 4 * i, 4);
        key[i] = ntohl(be);
    }
}

void
prefix_trie_init(struct prefix_trie *trie)
{
    ovsrcu_set_hidden(&trie->root, NULL);
}

static void
free_subtrie(struct trie_node *node)
{
    if (node) {
        free_subtrie(ovsrcu_get_protected(&node->edges[0]));
        free_subtrie(ovsrcu_get_protected(&node->edges[1]));
        free(node);
    }
}

void
prefix_trie_destroy(struct prefix_trie *trie)
{
    free_subtrie(ovsrcu_get_protected(&trie->root));
    ovsrcu_set_hidden(&trie->root, NULL);
}

bool
prefix_trie_is_empty(const struct prefix_trie *trie)
{
    return !ovsrcu_get(&trie->root);
}

/* The root is a node like any other except that its edge is taken
 * whatever the key's first bit; it may therefore disagree with the key
 * from bit 0 on, which the split below handles by giving the new parent an
 * empty edge (N_BITS 0) only there. */
static struct trie_node *
node_new(uint32_t prefix, unsigned int n_bits, unsigned int n_rules)
{
    struct trie_node *node = xmalloc(sizeof *node);
    node->prefix = prefix & high_mask(n_bits);
    node->n_bits = n_bits;
    atomic_init(&node->n_rules, n_rules);
    atomic_init(&node->edges[0], NULL);
    atomic_init(&node->edges[1], NULL);
    return node;
}

/* A chain of new nodes for bits [OFS, PLEN) of KEY ending in one rule.
 * Built from the tail up, so nothing is reachable before it is complete. */
static struct trie_node *
new_chain(const uint32_t key[], unsigned int ofs, unsigned int plen)
{
    struct trie_node *chain = NULL;
    unsigned int n_nodes = DIV_ROUND_UP(plen - ofs, 32);
    for (unsigned int i = n_nodes; i-- > 0;) {
        unsigned int start = ofs + 32 * i;
        unsigned int n = MIN(32, plen - start);
        struct trie_node *node = node_new(key_bits(key, start, n), n,
                                          chain ? 0 : 1);
        if (chain) {
            atomic_init(&node->edges[key_bit(key, start + n)], chain);
        }
        chain = node;
    }
    return chain;
}

static void
free_node(struct trie_node *node)
{
    free(node);
}

void
prefix_trie_insert(struct prefix_trie *trie, const uint32_t key[],
                   unsigned int plen)
{
    ovs_assert(plen >= 1 && plen <= PREFIX_TRIE_MAX_BITS);
    OVSRCU_TYPE(struct trie_node *) *edge = &trie->root;
    unsigned int ofs = 0;
    for (;;) {
        struct trie_node *node = ovsrcu_get_protected(edge);
        if (!node) {
            ovsrcu_set(edge, new_chain(key, ofs, plen));
            return;
        }
        unsigned int avail = MIN(node->n_bits, plen - ofs);
        uint32_t diff = (node->prefix ^ key_bits(key, ofs, avail))
                        & high_mask(avail);
        unsigned int eq = diff ? __builtin_clz(diff) : avail;
        if (eq == node->n_bits) {
            ofs += eq;
            if (ofs == plen) {
                atomic_fetch_add_explicit(&node->n_rules, 1,
                                          memory_order_relaxed);
                return;
            }
            edge = &node->edges[key_bit(key, ofs)];
            continue;
        }

        /* Split NODE after its first EQ bits: a new parent keeps those,
         * a copy of NODE keeps the rest.  Only the root's edge can
         * disagree at its first bit (EQ == 0), and then the parent is an
         * empty edge that just branches. */
        struct trie_node *tail = node_new(node->prefix << eq,
                                          node->n_bits - eq,
                                          atomic_load(&node->n_rules));
        atomic_init(&tail->edges[0], ovsrcu_get_protected(&node->edges[0]));
        atomic_init(&tail->edges[1], ovsrcu_get_protected(&node->edges[1]));
        struct trie_node *parent = node_new(node->prefix, eq, 0);
        unsigned int tail_bit = (node->prefix >> (31 - eq)) & 1;
        atomic_init(&parent->edges[tail_bit], tail);
        if (ofs + eq == plen) {
            atomic_init(&parent->n_rules, 1);
        } else {
            atomic_init(&parent->edges[!tail_bit],
                        new_chain(key, ofs + eq, plen));
        }
        ovsrcu_set(edge, parent);
        ovsrcu_postpone(free_node, node);
        return;
    }
}

static unsigned int
n_children(const struct trie_node *node)
{
    return (ovsrcu_get_protected(&node->edges[0]) != NULL)
           + (ovsrcu_get_protected(&node->edges[1]) != NULL);
}

void
prefix_trie_remove(struct prefix_trie *trie, const uint32_t key[],
                   unsigned int plen)
{
    /* The edges followed from the root, to clean up on the way back. */
    OVSRCU_TYPE(struct trie_node *) *path[PREFIX_TRIE_MAX_BITS + 1];
    unsigned int depth = 0;
    OVSRCU_TYPE(struct trie_node *) *edge = &trie->root;
    unsigned int ofs = 0;
    struct trie_node *node;
    for (;;) {
        node = ovsrcu_get_protected(edge);
        ovs_assert(node && ofs + node->n_bits <= plen);
        ovs_assert(!((node->prefix ^ key_bits(key, ofs, node->n_bits))
                     & high_mask(node->n_bits)));
        path[depth++] = edge;
        ofs += node->n_bits;
        if (ofs == plen) {
            break;
        }
        edge = &node->edges[key_bit(key, ofs)];
    }
    ovs_assert(atomic_load(&node->n_rules) > 0);
    if (atomic_fetch_sub_explicit(&node->n_rules, 1, memory_order_relaxed)
        > 1) {
        return;
    }

    /* Drop rule-less leaves, then fold a rule-less node with one child
     * into that child, so that the trie stays as small as its rules. */
    while (depth > 0) {
        edge = path[--depth];
        node = ovsrcu_get_protected(edge);
        if (atomic_load(&node->n_rules)) {
            return;
        }
        unsigned int n = n_children(node);
        if (n == 0) {
            ovsrcu_set(edge, NULL);
            ovsrcu_postpone(free_node, node);
            continue;
        }
        if (n == 1) {
            struct trie_node *child = ovsrcu_get_protected(&node->edges[0]);
            if (!child) {
                child = ovsrcu_get_protected(&node->edges[1]);
            }
            if (node->n_bits + child->n_bits <= 32) {
                struct trie_node *merged = node_new(
                    node->prefix | (child->prefix >> node->n_bits),
                    node->n_bits + child->n_bits,
                    atomic_load(&child->n_rules));
                for (int i = 0; i < 2; i++) {
                    atomic_init(&merged->edges[i],
                                ovsrcu_get_protected(&child->edges[i]));
                }
                ovsrcu_set(edge, merged);
                ovsrcu_postpone(free_node, node);
                ovsrcu_postpone(free_node, child);
            }
        }
        return;
    }
}

/* prefix_trie_lookup() for keys of at most 32 bits (IPv4, the ports), as
 * a walk that advances one node per step, so that several walks can be
 * interleaved: their node loads are independent and their cache misses
 * overlap.  No branch on rule counts, since this is a lookup's hottest
 * loop. */
struct walk32 {
    const struct trie_node *node, *prev;
    uint32_t key;
    unsigned int ofs, n_bits;
    uint64_t found;
    int result;                 /* maskbits, or -1 while walking. */
};

static inline void
walk32_init(struct walk32 *w, const struct prefix_trie *trie, uint32_t key,
            unsigned int n_bits)
{
    w->node = ovsrcu_get(&trie->root);
    w->prev = NULL;
    w->key = key & high_mask(n_bits);
    w->ofs = 0;
    w->n_bits = n_bits;
    w->found = 0;
    w->result = -1;
}

static inline void
walk32_step(struct walk32 *w)
{
    const struct trie_node *node = w->node;
    if (!node) {
        /* Fell off after OFS bits.  The bit at OFS chose the empty branch;
         * it mattered only if the other branch exists. */
        w->result = (w->prev
                     && ovsrcu_get(&w->prev->edges[!((w->key >> (31 - w->ofs))
                                                     & 1)])
                     ? w->ofs + 1 : w->ofs);
        return;
    }
    /* The key's next N bits, left-aligned.  A label that reaches past the
     * key (a trie of longer prefixes than N_BITS) is compared only as far
     * as the key goes. */
    unsigned int n = MIN(node->n_bits, w->n_bits - w->ofs);
    uint32_t next = w->key << w->ofs;
    uint32_t diff = (node->prefix ^ next) & high_mask(n);
    if (diff) {
        w->result = w->ofs + __builtin_clz(diff) + 1;
        return;
    }
    if (n < node->n_bits) {
        w->result = w->n_bits;
        return;
    }
    w->ofs += n;
    uint64_t has_rules = atomic_load_explicit(&node->n_rules,
                                              memory_order_relaxed) != 0;
    w->found |= has_rules << ((w->ofs - 1) & 63);
    if (w->ofs >= w->n_bits) {
        w->result = w->n_bits;
        return;
    }
    w->prev = node;
    w->node = ovsrcu_get(&node->edges[(w->key >> (31 - w->ofs)) & 1]);
}

void
prefix_trie_lookup_many32(const struct prefix_trie *const tries[],
                          const uint32_t keys[], const unsigned int n_bits[],
                          size_t n, unsigned int maskbits[],
                          struct prefix_plens plens[])
{
    struct walk32 walks[PREFIX_TRIE_MAX_MANY];
    ovs_assert(n <= PREFIX_TRIE_MAX_MANY);
    for (size_t i = 0; i < n; i++) {
        walk32_init(&walks[i], tries[i], keys[i], n_bits[i]);
    }
    for (size_t left = n; left;) {
        left = 0;
        for (size_t i = 0; i < n; i++) {
            if (walks[i].result < 0) {
                walk32_step(&walks[i]);
                left += walks[i].result < 0;
            }
        }
    }
    for (size_t i = 0; i < n; i++) {
        maskbits[i] = walks[i].result;
        plens[i].bits[0] = walks[i].found;
        plens[i].bits[1] = 0;
    }
}

unsigned int
prefix_trie_lookup(const struct prefix_trie *trie, const uint32_t key[],
                   unsigned int n_bits, struct prefix_plens *plens)
{
    plens->bits[0] = plens->bits[1] = 0;
    if (n_bits <= 32) {
        unsigned int maskbits;
        prefix_trie_lookup_many32(&trie, key, &n_bits, 1, &maskbits, plens);
        return maskbits;
    }
    const struct trie_node *prev = NULL;
    const struct trie_node *node = ovsrcu_get(&trie->root);
    unsigned int ofs = 0;
    while (node) {
        unsigned int avail = MIN(node->n_bits, n_bits - ofs);
        uint32_t diff = (node->prefix ^ key_bits(key, ofs, avail))
                        & high_mask(avail);
        if (diff) {
            /* Every longer prefix on this path differs at that bit. */
            return ofs + __builtin_clz(diff) + 1;
        }
        ofs += avail;
        if (avail < node->n_bits) {
            return n_bits;
        }
        if (atomic_load_explicit(&node->n_rules, memory_order_relaxed)) {
            unsigned int b = ofs - 1;
            plens->bits[b / 64] |= UINT64_C(1) << (b % 64);
        }
        if (ofs >= n_bits) {
            return n_bits;
        }
        prev = node;
        node = ovsrcu_get(&prev->edges[key_bit(key, ofs)]);
    }
    /* Fell off the trie after OFS bits.  The bit at OFS chose the empty
     * branch; it mattered only if the other branch exists. */
    if (!prev) {
        return 0;
    }
    return ovsrcu_get(&prev->edges[!key_bit(key, ofs)]) ? ofs + 1 : ofs;
}
