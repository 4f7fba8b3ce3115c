/* hmap: intrusive hash map with chained buckets.
 *
 * Each element embeds a "struct hmap_node" and the caller computes its hash
 * (usually with hash.h).  The map stores nodes, not keys: to look an element
 * up you walk the nodes with a given hash (HMAP_FOR_EACH_WITH_HASH) and
 * compare keys yourself.  This lets one generic table serve any key type
 * and lets one element sit in several maps at once, at no allocation cost.
 *
 * Memory: the map owns only its bucket array.  hmap_destroy() frees the
 * buckets, not the elements; free the elements first (HMAP_FOR_EACH_POP is
 * the usual way).  An empty map, and one set up with HMAP_INITIALIZER, uses
 * the inline "one" bucket and allocates nothing.
 *
 * Growth: hmap_insert() doubles the bucket array when the load gets too
 * high.  hmap_remove() never shrinks it; call hmap_shrink() when a table is
 * known to have become much smaller.  hmap_insert_fast() skips the growth
 * check, for loops that reserved room first with hmap_reserve().
 *
 * Iteration order is unspecified and changes as the table resizes.  A
 * "struct hmap" copied to a new address must be fixed with hmap_moved().
 *
 * Usage:
 *     struct elem { struct hmap_node node; int key; };
 *     struct hmap map = HMAP_INITIALIZER(&map);
 *     hmap_insert(&map, &e->node, hash_int(e->key, 0));
 *     HMAP_FOR_EACH_WITH_HASH (e, node, hash_int(k, 0), &map) {
 *         if (e->key == k) { ... }
 *     }
 */
#ifndef HMAP_H
#define HMAP_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util.h"

struct hmap_node {
    size_t hash;                /* Full hash, never reduced to a bucket. */
    struct hmap_node *next;     /* Next node in the same bucket. */
};

static inline size_t
hmap_node_hash(const struct hmap_node *node)
{
    return node->hash;
}

/* A "null" node marks an element known not to be in any map. */
#define HMAP_NODE_NULL ((struct hmap_node *) 1)
#define HMAP_NODE_NULL_INITIALIZER { 0, HMAP_NODE_NULL }

static inline void
hmap_node_nullify(struct hmap_node *node)
{
    node->next = HMAP_NODE_NULL;
}

static inline bool
hmap_node_is_null(const struct hmap_node *node)
{
    return node->next == HMAP_NODE_NULL;
}

struct hmap {
    struct hmap_node **buckets; /* MASK + 1 chains; &ONE when MASK is 0. */
    struct hmap_node *one;      /* The single bucket of a small map. */
    size_t mask;                /* Bucket count minus one (a power of 2). */
    size_t n;                   /* Number of nodes. */
};

#define HMAP_INITIALIZER(HMAP) \
    { (struct hmap_node **const) &(HMAP)->one, NULL, 0, 0 }

void hmap_init(struct hmap *);
void hmap_destroy(struct hmap *);
void hmap_clear(struct hmap *);
void hmap_swap(struct hmap *a, struct hmap *b);
void hmap_moved(struct hmap *);

static inline size_t
hmap_count(const struct hmap *hmap)
{
    return hmap->n;
}

static inline bool
hmap_is_empty(const struct hmap *hmap)
{
    return hmap->n == 0;
}

/* Resizing.  hmap_expand() grows if the load is too high, hmap_shrink()
 * shrinks if the load is low, hmap_reserve() sizes the table so that
 * CAPACITY nodes fit without further growth. */
void hmap_expand(struct hmap *);
void hmap_shrink(struct hmap *);
void hmap_reserve(struct hmap *, size_t capacity);

/* Inserts NODE with HASH without checking the load factor. */
static inline void
hmap_insert_fast(struct hmap *hmap, struct hmap_node *node, size_t hash)
{
    struct hmap_node **bucket = &hmap->buckets[hash & hmap->mask];
    node->hash = hash;
    node->next = *bucket;
    *bucket = node;
    hmap->n++;
}

/* Inserts NODE with HASH, growing the table if it has become crowded.  Does
 * not check for an equal key already present. */
static inline void
hmap_insert(struct hmap *hmap, struct hmap_node *node, size_t hash)
{
    hmap_insert_fast(hmap, node, hash);
    /* More than two nodes per bucket on average: time to grow. */
    if (hmap->n / 2 > hmap->mask) {
        hmap_expand(hmap);
    }
}

/* Removes NODE, which must be in HMAP.  Never resizes. */
static inline void
hmap_remove(struct hmap *hmap, struct hmap_node *node)
{
    struct hmap_node **bucket = &hmap->buckets[node->hash & hmap->mask];
    while (*bucket != node) {
        bucket = &(*bucket)->next;
    }
    *bucket = node->next;
    hmap->n--;
}

/* Puts NEW_NODE in OLD_NODE's place.  They must have the same hash; OLD_NODE
 * is left out of the map. */
static inline void
hmap_replace(struct hmap *hmap, const struct hmap_node *old_node,
             struct hmap_node *new_node)
{
    struct hmap_node **bucket = &hmap->buckets[old_node->hash & hmap->mask];
    while (*bucket != old_node) {
        bucket = &(*bucket)->next;
    }
    *bucket = new_node;
    new_node->hash = old_node->hash;
    new_node->next = old_node->next;
}

/* Lookup.  These return NULL at the end. */
static inline struct hmap_node *
hmap_next_with_hash__(const struct hmap_node *node, size_t hash)
{
    while (node && node->hash != hash) {
        node = node->next;
    }
    return (struct hmap_node *) node;
}

/* First node in HMAP with exactly HASH. */
static inline struct hmap_node *
hmap_first_with_hash(const struct hmap *hmap, size_t hash)
{
    return hmap_next_with_hash__(hmap->buckets[hash & hmap->mask], hash);
}

/* Next node after NODE with the same hash as NODE. */
static inline struct hmap_node *
hmap_next_with_hash(const struct hmap_node *node)
{
    return hmap_next_with_hash__(node->next, node->hash);
}

/* First node in HMAP's bucket for HASH, whatever its hash. */
static inline struct hmap_node *
hmap_first_in_bucket(const struct hmap *hmap, size_t hash)
{
    return hmap->buckets[hash & hmap->mask];
}

static inline struct hmap_node *
hmap_next_in_bucket(const struct hmap_node *node)
{
    return node->next;
}

/* Whole-map iteration in bucket order. */
struct hmap_node *hmap_first(const struct hmap *);
struct hmap_node *hmap_next(const struct hmap *, const struct hmap_node *);

/* Whether NODE is in HMAP. */
bool hmap_contains(const struct hmap *, const struct hmap_node *);

/* Returns some node of HMAP chosen uniformly-ish at random, or NULL. */
struct hmap_node *hmap_random_node(const struct hmap *);

/* Iteration macros.  NODE is a pointer to the element type, MEMBER its
 * struct hmap_node member.  Only the _SAFE and _POP forms may remove NODE
 * from the map in the body; none may insert.  On normal loop exit NODE is
 * NULL. */
static inline void *
hmap_node_to_obj__(const struct hmap_node *node, size_t offset)
{
    /* Testing for NULL before subtracting keeps the arithmetic defined. */
    return node ? (void *) ((char *) node - offset) : NULL;
}
#define HMAP_NODE_TO_OBJ__(NODE, HNODE, MEMBER)                         \
    ((__typeof__(NODE)) hmap_node_to_obj__(HNODE,                       \
                                           OBJECT_OFFSETOF(NODE, MEMBER)))

#define HMAP_FOR_EACH_WITH_HASH(NODE, MEMBER, HASH, HMAP)               \
    for ((NODE) = HMAP_NODE_TO_OBJ__(NODE,                              \
                      hmap_first_with_hash(HMAP, HASH), MEMBER);        \
         (NODE) != NULL;                                                \
         (NODE) = HMAP_NODE_TO_OBJ__(NODE,                              \
                      hmap_next_with_hash(&(NODE)->MEMBER), MEMBER))

/* Every node in HASH's bucket, including nodes with other hashes. */
#define HMAP_FOR_EACH_IN_BUCKET(NODE, MEMBER, HASH, HMAP)               \
    for ((NODE) = HMAP_NODE_TO_OBJ__(NODE,                              \
                      hmap_first_in_bucket(HMAP, HASH), MEMBER);        \
         (NODE) != NULL;                                                \
         (NODE) = HMAP_NODE_TO_OBJ__(NODE,                              \
                      hmap_next_in_bucket(&(NODE)->MEMBER), MEMBER))

#define HMAP_FOR_EACH(NODE, MEMBER, HMAP)                               \
    for ((NODE) = HMAP_NODE_TO_OBJ__(NODE, hmap_first(HMAP), MEMBER);   \
         (NODE) != NULL;                                                \
         (NODE) = HMAP_NODE_TO_OBJ__(NODE,                              \
                      hmap_next(HMAP, &(NODE)->MEMBER), MEMBER))

/* Continues after NODE. */
#define HMAP_FOR_EACH_CONTINUE(NODE, MEMBER, HMAP)                      \
    for ((NODE) = HMAP_NODE_TO_OBJ__(NODE,                              \
                      hmap_next(HMAP, &(NODE)->MEMBER), MEMBER);        \
         (NODE) != NULL;                                                \
         (NODE) = HMAP_NODE_TO_OBJ__(NODE,                              \
                      hmap_next(HMAP, &(NODE)->MEMBER), MEMBER))

/* The successor is computed before the body runs, so the body may remove
 * (and free) NODE.  Removal never resizes, so the saved successor stays
 * valid.  Two forms, as in Open vSwitch:
 *     HMAP_FOR_EACH_SAFE (NODE, MEMBER, HMAP)        successor kept hidden
 *     HMAP_FOR_EACH_SAFE (NODE, NEXT, MEMBER, HMAP)  in caller's NEXT */
#define HMAP_SAFE_NEXT__(NODE) NODE##__hmap_next
#define HMAP_FOR_EACH_SAFE_SHORT__(NODE, MEMBER, HMAP)                  \
    for (struct hmap_node *HMAP_SAFE_NEXT__(NODE) = hmap_first(HMAP);   \
         ((NODE) = HMAP_NODE_TO_OBJ__(NODE, HMAP_SAFE_NEXT__(NODE),     \
                                      MEMBER)) != NULL                  \
         && (HMAP_SAFE_NEXT__(NODE)                                     \
             = hmap_next(HMAP, HMAP_SAFE_NEXT__(NODE)), 1);             \
         )
#define HMAP_FOR_EACH_SAFE_LONG__(NODE, NEXT, MEMBER, HMAP)             \
    for ((NODE) = HMAP_NODE_TO_OBJ__(NODE, hmap_first(HMAP), MEMBER);   \
         (NODE) != NULL                                                 \
         && ((NEXT) = HMAP_NODE_TO_OBJ__(NEXT,                          \
                          hmap_next(HMAP, &(NODE)->MEMBER), MEMBER), 1); \
         (NODE) = (NEXT))
#define HMAP_PICK_4__(A1, A2, A3, A4, NAME, ...) NAME
#define HMAP_FOR_EACH_SAFE(...)                                         \
    HMAP_PICK_4__(__VA_ARGS__, HMAP_FOR_EACH_SAFE_LONG__,               \
                  HMAP_FOR_EACH_SAFE_SHORT__, unused)(__VA_ARGS__)

/* Removes each node before running the body on it. */
#define HMAP_FOR_EACH_POP(NODE, MEMBER, HMAP)                           \
    for (size_t hmap_pop_bucket__ = 0;                                  \
         ((NODE) = HMAP_NODE_TO_OBJ__(                                  \
              NODE, hmap_pop_next__(HMAP, &hmap_pop_bucket__),          \
              MEMBER)) != NULL; )

/* For HMAP_FOR_EACH_POP: removes and returns a node from the first
 * nonempty bucket at or after *BUCKET (which it advances), or NULL.
 * Resuming where the last pop left off keeps emptying a map linear: buckets
 * already emptied are not scanned again.  The loop body must not insert
 * into the map. */
struct hmap_node *hmap_pop_next__(struct hmap *, size_t *bucket);

#endif /* hmap.h */
