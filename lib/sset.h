/* sset: a set of strings.
 *
 * Used wherever the code base keeps names: port names, interface types,
 * columns to monitor.  Each string is stored once, in its own node, copied
 * in on insert; lookups hash the string with hash_string().
 *
 * Memory: the set owns its nodes and their strings.  sset_add() copies the
 * string; sset_add_and_free() takes over a malloc'd string (and frees it).
 * Strings obtained from the set (SSET_FOR_EACH, sset_sort(), sset_find())
 * stay valid until that element is deleted or the set is destroyed.
 *
 * Iteration order is unspecified; use sset_sort() when output must be
 * stable.
 *
 * Usage:
 *     struct sset names = SSET_INITIALIZER(&names);
 *     sset_add(&names, "br0");
 *     SSET_FOR_EACH (name, &names) { ... }
 *     sset_destroy(&names);
 */
#ifndef SSET_H
#define SSET_H 1

#include <stdbool.h>
#include <stddef.h>
#include "hmap.h"
#include "util.h"

struct sset_node {
    struct hmap_node hmap_node;
    char name[];
};

struct sset {
    struct hmap map;
};

#define SSET_INITIALIZER(SSET) { HMAP_INITIALIZER(&(SSET)->map) }

void sset_init(struct sset *);
void sset_destroy(struct sset *);
/* Initializes SET as a copy of ORIG. */
void sset_clone(struct sset *set, const struct sset *orig);
void sset_swap(struct sset *, struct sset *);
void sset_moved(struct sset *);

void sset_clear(struct sset *);
bool sset_is_empty(const struct sset *);
size_t sset_count(const struct sset *);

/* Adds a copy of NAME.  Returns the new node, or NULL if NAME was already
 * present (the set is unchanged). */
struct sset_node *sset_add(struct sset *, const char *name);
/* Adds NAME, which must be malloc'd, and frees it. */
struct sset_node *sset_add_and_free(struct sset *, char *name);
/* Adds NAME, which must not already be present. */
void sset_add_assert(struct sset *, const char *name);
void sset_add_array(struct sset *, char **names, size_t n);

/* Removes NAME's node; NAME may point into that node. */
void sset_delete(struct sset *, struct sset_node *);
/* Returns whether NAME was present. */
bool sset_find_and_delete(struct sset *, const char *name);
void sset_find_and_delete_assert(struct sset *, const char *name);
/* Removes an arbitrary element and returns it, malloc'd (caller frees), or
 * NULL if the set is empty. */
char *sset_pop(struct sset *);

struct sset_node *sset_find(const struct sset *, const char *name);
bool sset_contains(const struct sset *, const char *name);
bool sset_equals(const struct sset *, const struct sset *);

/* Returns an array of the set's strings in strcmp() order, with
 * sset_count() entries.  The caller frees the array, not the strings. */
const char **sset_sort(const struct sset *);
/* Adds each token of S separated by any of DELIMITERS (empty tokens are
 * skipped). */
void sset_from_delimited_string(struct sset *, const char *s,
                                const char *delimiters);
/* Returns the sorted elements, each followed by DELIMITER except the last,
 * which is followed by TERMINATOR.  Newly allocated; an empty set gives "". */
char *sset_join(const struct sset *, const char *delimiter,
                const char *terminator);

/* Iteration helpers for the macros below. */
struct sset_node *sset_first(const struct sset *);
struct sset_node *sset_next(const struct sset *, const struct sset_node *);
static inline const char *
sset_node_name__(const struct sset_node *node)
{
    return node ? node->name : NULL;
}
static inline struct sset_node *
sset_node_of__(const char *name)
{
    return (struct sset_node *) (void *)
        (name - offsetof(struct sset_node, name));
}

/* NAME is a "const char *"; it is NULL after normal loop exit.  The body may
 * not add or delete elements except with SSET_FOR_EACH_SAFE, which allows
 * deleting NAME (sset_find_and_delete(set, NAME), sset_delete()). */
#define SSET_FOR_EACH(NAME, SSET)                                       \
    for ((NAME) = sset_node_name__(sset_first(SSET));                   \
         (NAME) != NULL;                                                \
         (NAME) = sset_node_name__(sset_next(SSET,                      \
                                             sset_node_of__(NAME))))

/* Also accepted: SSET_FOR_EACH_SAFE (NAME, NEXT, SSET), Open vSwitch's older
 * form, with NEXT a caller's "const char *". */
#define SSET_SAFE_NEXT__(NAME) NAME##__sset_next
#define SSET_FOR_EACH_SAFE_SHORT__(NAME, SSET)                          \
    for (struct sset_node *SSET_SAFE_NEXT__(NAME) = sset_first(SSET);   \
         ((NAME) = sset_node_name__(SSET_SAFE_NEXT__(NAME))) != NULL    \
         && (SSET_SAFE_NEXT__(NAME)                                     \
             = sset_next(SSET, SSET_SAFE_NEXT__(NAME)), 1);             \
         )
#define SSET_FOR_EACH_SAFE_LONG__(NAME, NEXT, SSET)                     \
    for ((NAME) = sset_node_name__(sset_first(SSET));                   \
         (NAME) != NULL                                                 \
         && ((NEXT) = sset_node_name__(                                 \
                 sset_next(SSET, sset_node_of__(NAME))), 1);            \
         (NAME) = (NEXT))
#define SSET_PICK_3__(A1, A2, A3, NAME, ...) NAME
#define SSET_FOR_EACH_SAFE(...)                                         \
    SSET_PICK_3__(__VA_ARGS__, SSET_FOR_EACH_SAFE_LONG__,               \
                  SSET_FOR_EACH_SAFE_SHORT__, unused)(__VA_ARGS__)

/* Removes the first element, exposing it as NAME (a malloc'd "char *" the
 * body must free). */
#define SSET_FOR_EACH_POP(NAME, SSET)                                   \
    while (((NAME) = sset_pop(SSET)) != NULL)

#endif /* sset.h */
