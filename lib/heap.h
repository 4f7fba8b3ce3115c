/* heap: a binary min-heap of intrusive nodes, keyed by a 64-bit priority.
 *
 * For timer schedules: the earliest deadline is at the top in O(1);
 * inserting, removing any node and changing a node's key cost O(log n).
 * Each node remembers its index in the heap's array, so removal and
 * re-keying need no search.  A node is in at most one heap at a time.
 *
 *     struct timer { struct heap_node node; ... };
 *     heap_insert(&h, &t->node, deadline);
 *     while (!heap_is_empty(&h) && heap_min(&h)->key <= now) { ... }
 *
 * Memory: the heap owns only its array of node pointers (heap_destroy()
 * frees it); the nodes belong to whoever embeds them.  Not thread-safe:
 * callers serialize access (the schedule that uses it holds a mutex). */
#ifndef HEAP_H
#define HEAP_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct heap_node {
    long long int key;
    size_t idx;                 /* Position in heap->nodes; SIZE_MAX if
                                 * the node is in no heap. */
};

struct heap {
    struct heap_node **nodes;
    size_t n, allocated;
};

#define HEAP_INITIALIZER { NULL, 0, 0 }

void heap_init(struct heap *);
void heap_destroy(struct heap *);

/* Marks NODE as in no heap (heap_node_in_heap() false). */
void heap_node_init(struct heap_node *);
static inline bool
heap_node_in_heap(const struct heap_node *node)
{
    return node->idx != SIZE_MAX;
}

static inline size_t heap_count(const struct heap *h) { return h->n; }
static inline bool heap_is_empty(const struct heap *h) { return !h->n; }
/* The node with the smallest key; the heap must not be empty. */
static inline struct heap_node *heap_min(const struct heap *h)
{
    return h->nodes[0];
}

/* Adds NODE (not in any heap) with KEY. */
void heap_insert(struct heap *, struct heap_node *, long long int key);
/* Removes NODE, which must be in H. */
void heap_remove(struct heap *, struct heap_node *);
/* Gives NODE, which must be in H, the new KEY. */
void heap_change(struct heap *, struct heap_node *, long long int key);

#endif /* heap.h */
