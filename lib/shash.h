/* shash: a hash map from strings to opaque pointers.
 *
 * The map owns a copy of each key (node->name) but never the data: the
 * caller frees what the data points to before shash_destroy() (or uses
 * shash_destroy_free_data() when each datum is a single malloc'd block).
 * Keys are unique in maps built with shash_add_once()/shash_replace();
 * shash_add() does not check, for callers that know.  Iteration order is
 * unspecified; shash_sort() gives a sorted view.
 */
#ifndef SHASH_H
#define SHASH_H 1

#include <stdbool.h>
#include <stddef.h>
#include "hmap.h"

struct shash_node {
    struct hmap_node node;
    char *name;
    void *data;
};

struct shash {
    struct hmap map;
};

#define SHASH_INITIALIZER(SHASH) { HMAP_INITIALIZER(&(SHASH)->map) }

#define SHASH_FOR_EACH(NODE, SHASH) \
    HMAP_FOR_EACH (NODE, node, &(SHASH)->map)

#define SHASH_FOR_EACH_SAFE(NODE, SHASH) \
    HMAP_FOR_EACH_SAFE (NODE, node, &(SHASH)->map)

void shash_init(struct shash *);
void shash_destroy(struct shash *);
void shash_destroy_free_data(struct shash *);
void shash_swap(struct shash *, struct shash *);
void shash_moved(struct shash *);
void shash_clear(struct shash *);
void shash_clear_free_data(struct shash *);
bool shash_is_empty(const struct shash *);
size_t shash_count(const struct shash *);

/* Adds NAME (copied) -> DATA without checking for an existing NAME. */
struct shash_node *shash_add(struct shash *, const char *name,
                             const void *data);
/* Same, but takes ownership of NAME. */
struct shash_node *shash_add_nocopy(struct shash *, char *name,
                                    const void *data);
/* Adds NAME -> DATA only if NAME is not there yet; returns false if it was
 * (and then adds nothing). */
bool shash_add_once(struct shash *, const char *name, const void *data);
void shash_add_assert(struct shash *, const char *name, const void *data);
/* Sets NAME -> DATA, returning the old data or NULL if NAME was new. */
void *shash_replace(struct shash *, const char *name, const void *data);

/* Removes NODE and frees it and its name; returns its data. */
void *shash_delete(struct shash *, struct shash_node *);
/* Removes NODE and returns its name (the caller frees it); frees NODE. */
char *shash_steal(struct shash *, struct shash_node *);

struct shash_node *shash_find(const struct shash *, const char *name);
struct shash_node *shash_find_len(const struct shash *, const char *name,
                                  size_t len);
void *shash_find_data(const struct shash *, const char *name);
/* Finds NAME, removes it and returns its data, or NULL. */
void *shash_find_and_delete(struct shash *, const char *name);
void *shash_find_and_delete_assert(struct shash *, const char *name);

/* Returns the single node of a one-node map, else NULL. */
struct shash_node *shash_first(const struct shash *);

/* Returns an array of the nodes sorted by name, which the caller frees (but
 * not the nodes), or NULL for an empty map. */
const struct shash_node **shash_sort(const struct shash *);

bool shash_equal_keys(const struct shash *, const struct shash *);

#endif /* shash.h */
