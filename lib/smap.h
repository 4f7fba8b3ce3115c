/* smap: a map from strings to strings.
 *
 * This is the shape of OVSDB's "map of string to string" columns
 * (other_config, external_ids, options, status), so it shows up wherever
 * configuration flows between the database and the daemons.
 *
 * Memory: the map owns its nodes and their KEY and VALUE strings.
 * smap_add() and friends copy their arguments; the _nocopy variants take over
 * malloc'd strings.  Pointers returned by smap_get() stay valid until that
 * key is replaced or removed, or the map is destroyed.
 *
 * smap_add() does not check for an existing key (it is for building a map
 * known to be free of duplicates, e.g. from a database row).  Use
 * smap_replace() or smap_add_once() when the key may exist.
 *
 * Iteration order is unspecified; smap_sort() gives a stable order.
 */
#ifndef SMAP_H
#define SMAP_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>
#include "hmap.h"
#include "util.h"

struct smap_node {
    struct hmap_node node;      /* In struct smap's "map", by hash of key. */
    char *key;
    char *value;
};

struct smap {
    struct hmap map;
};

#define SMAP_INITIALIZER(SMAP) { HMAP_INITIALIZER(&(SMAP)->map) }

void smap_init(struct smap *);
void smap_destroy(struct smap *);
void smap_clear(struct smap *);
/* Initializes DST as a copy of SRC. */
void smap_clone(struct smap *dst, const struct smap *src);
void smap_swap(struct smap *, struct smap *);
void smap_moved(struct smap *);

struct smap_node *smap_add(struct smap *, const char *key, const char *value);
/* KEY and VALUE must be malloc'd; the map takes them over. */
struct smap_node *smap_add_nocopy(struct smap *, char *key, char *value);
/* Adds KEY=VALUE unless KEY is present; returns whether it added. */
bool smap_add_once(struct smap *, const char *key, const char *value);
void smap_add_format(struct smap *, const char *key, const char *format, ...)
    OVS_PRINTF_FORMAT(3, 4);
/* Sets KEY to VALUE, adding KEY if it is absent. */
void smap_replace(struct smap *, const char *key, const char *value);
/* Like smap_replace() but takes over malloc'd VALUE. */
void smap_replace_nocopy(struct smap *, const char *key, char *value);
/* Adds AMOUNT to the number stored under KEY (0 if absent), as counters
 * such as memory/show's are summed over several sources. */
void smap_increase_ullong(struct smap *, const char *key,
                          unsigned long long int amount);

/* Removes KEY; returns whether it was present. */
bool smap_remove(struct smap *, const char *key);
void smap_remove_node(struct smap *, struct smap_node *);
/* Removes NODE and returns its value, which the caller must free. */
char *smap_steal(struct smap *, struct smap_node *);

/* Returns KEY's value, or NULL (smap_get_def(): DEF) if absent. */
const char *smap_get(const struct smap *, const char *key);
const char *smap_get_def(const struct smap *, const char *key,
                         const char *def);
struct smap_node *smap_get_node(const struct smap *, const char *key);
/* Typed getters: DEF when KEY is absent or its value does not parse.
 * Booleans are "true" or "false", ignoring case. */
bool smap_get_bool(const struct smap *, const char *key, bool def);
int smap_get_int(const struct smap *, const char *key, int def);
unsigned int smap_get_uint(const struct smap *, const char *key,
                           unsigned int def);
unsigned long long int smap_get_ullong(const struct smap *, const char *key,
                                       unsigned long long def);
bool smap_contains(const struct smap *, const char *key);

bool smap_is_empty(const struct smap *);
size_t smap_count(const struct smap *);
/* Whether both maps have the same keys with the same values. */
bool smap_equals(const struct smap *, const struct smap *);

/* Returns an array of the nodes sorted by key, with smap_count() entries.
 * The caller frees the array, not the nodes; NULL for an empty map. */
const struct smap_node **smap_sort(const struct smap *);

/* Returns a new JSON object {"key": "value", ...}; the caller owns the
 * reference. */
json_t *smap_to_json(const struct smap *);
/* Initializes SMAP from JSON, which must be an object whose values are all
 * strings; other members are skipped. */
void smap_from_json(struct smap *, const json_t *);

/* NODE is a "struct smap_node *"; NULL after normal loop exit.  Only the
 * _SAFE form may remove NODE in the body. */
#define SMAP_FOR_EACH(SMAP_NODE, SMAP)                                  \
    HMAP_FOR_EACH (SMAP_NODE, node, &(SMAP)->map)

/* Also accepted: SMAP_FOR_EACH_SAFE (NODE, NEXT, SMAP), Open vSwitch's older
 * form, with NEXT a caller's "struct smap_node *". */
#define SMAP_FOR_EACH_SAFE_SHORT__(SMAP_NODE, SMAP)                     \
    HMAP_FOR_EACH_SAFE_SHORT__ (SMAP_NODE, node, &(SMAP)->map)
#define SMAP_FOR_EACH_SAFE_LONG__(SMAP_NODE, NEXT, SMAP)                \
    HMAP_FOR_EACH_SAFE_LONG__ (SMAP_NODE, NEXT, node, &(SMAP)->map)
#define SMAP_PICK_3__(A1, A2, A3, NAME, ...) NAME
#define SMAP_FOR_EACH_SAFE(...)                                         \
    SMAP_PICK_3__(__VA_ARGS__, SMAP_FOR_EACH_SAFE_LONG__,               \
                  SMAP_FOR_EACH_SAFE_SHORT__, unused)(__VA_ARGS__)

#endif /* smap.h */
