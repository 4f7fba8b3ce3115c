/* heap: see heap.h. */
#include <config.h>
#include "heap.h"

#include <stdlib.h>
#include "util.h"

void
heap_init(struct heap *h)
{
    h->nodes = NULL;
    h->n = h->allocated = 0;
}

void
heap_destroy(struct heap *h)
{
    for (size_t i = 0; i < h->n; i++) {
        h->nodes[i]->idx = SIZE_MAX;
    }
    free(h->nodes);
    heap_init(h);
}

void
heap_node_init(struct heap_node *node)
{
    node->key = 0;
    node->idx = SIZE_MAX;
}

static void
heap_place(struct heap *h, struct heap_node *node, size_t idx)
{
    h->nodes[idx] = node;
    node->idx = idx;
}

/* Moves the node at IDX towards the root while its parent is later. */
static void
heap_sift_up(struct heap *h, size_t idx)
{
    struct heap_node *node = h->nodes[idx];
    while (idx > 0) {
        size_t parent = (idx - 1) / 2;
        if (h->nodes[parent]->key <= node->key) {
            break;
        }
        heap_place(h, h->nodes[parent], idx);
        idx = parent;
    }
    heap_place(h, node, idx);
}

/* Moves the node at IDX towards the leaves while a child is earlier. */
static void
heap_sift_down(struct heap *h, size_t idx)
{
    struct heap_node *node = h->nodes[idx];
    for (;;) {
        size_t child = 2 * idx + 1;
        if (child >= h->n) {
            break;
        }
        if (child + 1 < h->n
            && h->nodes[child + 1]->key < h->nodes[child]->key) {
            child++;
        }
        if (node->key <= h->nodes[child]->key) {
            break;
        }
        heap_place(h, h->nodes[child], idx);
        idx = child;
    }
    heap_place(h, node, idx);
}

void
heap_insert(struct heap *h, struct heap_node *node, long long int key)
{
    ovs_assert(!heap_node_in_heap(node));
    if (h->n >= h->allocated) {
        h->nodes = x2nrealloc(h->nodes, &h->allocated, sizeof *h->nodes);
    }
    node->key = key;
    heap_place(h, node, h->n++);
    heap_sift_up(h, node->idx);
}

void
heap_remove(struct heap *h, struct heap_node *node)
{
    size_t idx = node->idx;
    ovs_assert(idx < h->n && h->nodes[idx] == node);
    node->idx = SIZE_MAX;
    struct heap_node *last = h->nodes[--h->n];
    if (last != node) {
        heap_place(h, last, idx);
        heap_sift_up(h, idx);
        heap_sift_down(h, last->idx);
    }
}

void
heap_change(struct heap *h, struct heap_node *node, long long int key)
{
    ovs_assert(node->idx < h->n && h->nodes[node->idx] == node);
    long long int old = node->key;
    node->key = key;
    if (key < old) {
        heap_sift_up(h, node->idx);
    } else if (key > old) {
        heap_sift_down(h, node->idx);
    }
}
