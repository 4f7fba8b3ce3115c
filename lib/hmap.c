#include <config.h>
#include "hmap.h"

#include <stdlib.h>
#include <string.h>
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(hmap);

void
hmap_init(struct hmap *hmap)
{
    hmap->buckets = &hmap->one;
    hmap->one = NULL;
    hmap->mask = 0;
    hmap->n = 0;
}

void
hmap_destroy(struct hmap *hmap)
{
    if (hmap && hmap->buckets != &hmap->one) {
        free(hmap->buckets);
    }
}

/* Forgets every node but keeps the bucket array, for a table about to be
 * refilled to a similar size. */
void
hmap_clear(struct hmap *hmap)
{
    if (hmap->n > 0) {
        hmap->n = 0;
        memset(hmap->buckets, 0, (hmap->mask + 1) * sizeof *hmap->buckets);
    }
}

void
hmap_swap(struct hmap *a, struct hmap *b)
{
    struct hmap tmp = *a;
    *a = *b;
    *b = tmp;
    hmap_moved(a);
    hmap_moved(b);
}

/* A small map's bucket pointer points into the struct itself, so a copied
 * struct must re-aim it. */
void
hmap_moved(struct hmap *hmap)
{
    if (!hmap->mask) {
        hmap->buckets = &hmap->one;
    }
}

static void
hmap_resize(struct hmap *hmap, size_t new_mask)
{
    struct hmap tmp;

    hmap_init(&tmp);
    if (new_mask) {
        tmp.buckets = xcalloc(new_mask + 1, sizeof *tmp.buckets);
        tmp.mask = new_mask;
    }

    /* Rehash bucket by bucket.  Pushing each node onto the front of its new
     * chain reverses chain order, which nothing depends on. */
    for (size_t i = 0; i <= hmap->mask; i++) {
        struct hmap_node *node = hmap->buckets[i];
        while (node) {
            struct hmap_node *next = node->next;
            hmap_insert_fast(&tmp, node, node->hash);
            node = next;
        }
    }

    hmap_swap(hmap, &tmp);
    hmap_destroy(&tmp);
}

/* The smallest bucket mask that keeps CAPACITY nodes at no more than two per
 * bucket on average (the growth trigger in hmap_insert()). */
static size_t
calc_mask(size_t capacity)
{
    size_t mask = 0;
    while (mask < capacity / 2) {
        mask = (mask << 1) | 1;
    }
    /* Once we allocate at all, a 2-bucket array would be outgrown almost
     * at once; start at 4. */
    return mask == 1 ? 3 : mask;
}

void
hmap_expand(struct hmap *hmap)
{
    size_t new_mask = calc_mask(hmap->n);
    if (new_mask > hmap->mask) {
        hmap_resize(hmap, new_mask);
    }
}

void
hmap_shrink(struct hmap *hmap)
{
    size_t new_mask = calc_mask(hmap->n);
    if (new_mask < hmap->mask) {
        hmap_resize(hmap, new_mask);
    }
}

void
hmap_reserve(struct hmap *hmap, size_t n)
{
    size_t new_mask = calc_mask(n);
    if (new_mask > hmap->mask) {
        hmap_resize(hmap, new_mask);
    }
}

static struct hmap_node *
hmap_next__(const struct hmap *hmap, size_t start)
{
    for (size_t i = start; i <= hmap->mask; i++) {
        if (hmap->buckets[i]) {
            return hmap->buckets[i];
        }
    }
    return NULL;
}

struct hmap_node *
hmap_first(const struct hmap *hmap)
{
    return hmap_next__(hmap, 0);
}

struct hmap_node *
hmap_pop_next__(struct hmap *hmap, size_t *bucket)
{
    for (; *bucket <= hmap->mask; (*bucket)++) {
        struct hmap_node *node = hmap->buckets[*bucket];
        if (node) {
            hmap->buckets[*bucket] = node->next;
            hmap->n--;
            return node;
        }
    }
    return NULL;
}

struct hmap_node *
hmap_next(const struct hmap *hmap, const struct hmap_node *node)
{
    return (node->next
            ? node->next
            : hmap_next__(hmap, (node->hash & hmap->mask) + 1));
}

bool
hmap_contains(const struct hmap *hmap, const struct hmap_node *node)
{
    for (const struct hmap_node *p = hmap_first_in_bucket(hmap, node->hash);
         p; p = p->next) {
        if (p == node) {
            return true;
        }
    }
    return false;
}

struct hmap_node *
hmap_random_node(const struct hmap *hmap)
{
    if (!hmap->n) {
        return NULL;
    }

    /* Pick a nonempty bucket, then a node in it.  Not perfectly uniform
     * when chain lengths differ, which is fine for its users (sampling). */
    struct hmap_node *bucket;
    do {
        bucket = hmap->buckets[(size_t) random() & hmap->mask];
    } while (!bucket);

    size_t n = 0;
    for (struct hmap_node *p = bucket; p; p = p->next) {
        n++;
    }
    size_t pick = (size_t) random() % n;
    while (pick--) {
        bucket = bucket->next;
    }
    return bucket;
}
