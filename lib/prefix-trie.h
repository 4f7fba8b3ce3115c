/* prefix-trie: which prefix lengths of a set of addresses cover a given
 * address, and how many of its bits it took to say so.
 *
 * The classifier keeps one trie per prefix field (nw_src, nw_dst, ipv6_src,
 * ipv6_dst, ...) holding the prefix of every rule that matches that field
 * with a CIDR mask, and one per subtable over the transport ports.  A
 * lookup walks the trie once along the packet's address and returns:
 *
 *   - PLENS, a bitmap with bit L-1 set when some rule's prefix of length L
 *     equals the address's first L bits; a subtable whose rules all use
 *     length L on this field cannot match when bit L-1 is clear;
 *   - the number of leading bits of the address that decided this
 *     ("maskbits"): any address agreeing on those bits gets the same
 *     answer for every length >= maskbits, and for a length L < maskbits
 *     the first L bits already decide.  That is what lets the classifier
 *     add only those bits to a megaflow's mask.
 *
 * Keys are arrays of 32-bit words in host order, most significant bit
 * first (prefix_trie_key_from_be() converts a field in network order).
 * The trie is path-compressed: each node holds up to 32 bits of the edge
 * that leads to it and the number of rules whose prefix ends there.
 *
 * Concurrency: one writer (the classifier's owner) inserts and removes;
 * any number of threads look up at the same time, without locks.  Nodes
 * are never changed in a way a reader could see half of: a split or a
 * removal builds new nodes, publishes them with one pointer store and
 * frees the old ones through ovsrcu_postpone() (see ovs-rcu.h).  Rule
 * counts are atomics updated in place.
 *
 * Memory: the trie owns its nodes; prefix_trie_destroy() frees them at once
 * and so may only run when no reader can still be in the trie. */
#ifndef PREFIX_TRIE_H
#define PREFIX_TRIE_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ovs-rcu.h"

#define PREFIX_TRIE_MAX_BITS 128

struct trie_node;

struct prefix_trie {
    OVSRCU_TYPE(struct trie_node *) root;
};

/* Bit L-1 set: a prefix of length L matched.  128 bits for IPv6. */
struct prefix_plens {
    uint64_t bits[2];
};

static inline bool
prefix_plens_has(const struct prefix_plens *p, unsigned int plen)
{
    unsigned int b = plen - 1;
    return (p->bits[b / 64] >> (b % 64)) & 1;
}

void prefix_trie_init(struct prefix_trie *);
void prefix_trie_destroy(struct prefix_trie *);
bool prefix_trie_is_empty(const struct prefix_trie *);

/* Adds one rule's prefix: the first PLEN (1...128) bits of KEY. */
void prefix_trie_insert(struct prefix_trie *, const uint32_t key[],
                        unsigned int plen);
/* Removes one rule's prefix, which must have been inserted. */
void prefix_trie_remove(struct prefix_trie *, const uint32_t key[],
                        unsigned int plen);

/* Walks the first N_BITS bits of KEY.  Sets PLENS (which it first
 * clears) and returns maskbits, as described above. */
unsigned int prefix_trie_lookup(const struct prefix_trie *,
                                const uint32_t key[], unsigned int n_bits,
                                struct prefix_plens *plens);

/* The same for N (at most PREFIX_TRIE_MAX_MANY) keys of at most 32 bits
 * each, KEYS[I] in TRIES[I], walked side by side so that their memory
 * accesses overlap.  Results in MASKBITS[I] and PLENS[I]. */
#define PREFIX_TRIE_MAX_MANY 4
void prefix_trie_lookup_many32(const struct prefix_trie *const tries[],
                               const uint32_t keys[],
                               const unsigned int n_bits[], size_t n,
                               unsigned int maskbits[],
                               struct prefix_plens plens[]);

/* KEY from the N_BYTES bytes at P, in network order (N_BYTES a multiple
 * of 4, at most 16). */
void prefix_trie_key_from_be(uint32_t key[], const void *p,
                             unsigned int n_bytes);

#endif /* prefix-trie.h */
