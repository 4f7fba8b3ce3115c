#include <config.h>
#include "sset.h"

#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "hash.h"

static struct sset_node *
sset_find__(const struct sset *set, const char *name, size_t hash)
{
    struct sset_node *node;

    HMAP_FOR_EACH_WITH_HASH (node, hmap_node, hash, &set->map) {
        if (!strcmp(node->name, name)) {
            return node;
        }
    }
    return NULL;
}

static struct sset_node *
sset_add__(struct sset *set, const char *name, size_t length, size_t hash)
{
    struct sset_node *node = xmalloc(sizeof *node + length + 1);
    memcpy(node->name, name, length + 1);
    hmap_insert(&set->map, &node->hmap_node, hash);
    return node;
}

void
sset_init(struct sset *set)
{
    hmap_init(&set->map);
}

void
sset_destroy(struct sset *set)
{
    if (set) {
        sset_clear(set);
        hmap_destroy(&set->map);
    }
}

void
sset_clone(struct sset *set, const struct sset *orig)
{
    const struct sset_node *node;

    sset_init(set);
    hmap_reserve(&set->map, sset_count(orig));
    HMAP_FOR_EACH (node, hmap_node, &orig->map) {
        sset_add__(set, node->name, strlen(node->name),
                   node->hmap_node.hash);
    }
}

void
sset_swap(struct sset *a, struct sset *b)
{
    hmap_swap(&a->map, &b->map);
}

void
sset_moved(struct sset *set)
{
    hmap_moved(&set->map);
}

void
sset_clear(struct sset *set)
{
    struct sset_node *node;

    HMAP_FOR_EACH_POP (node, hmap_node, &set->map) {
        free(node);
    }
}

bool
sset_is_empty(const struct sset *set)
{
    return hmap_is_empty(&set->map);
}

size_t
sset_count(const struct sset *set)
{
    return hmap_count(&set->map);
}

struct sset_node *
sset_add(struct sset *set, const char *name)
{
    size_t length = strlen(name);
    size_t hash = hash_bytes(name, length, 0);

    return (sset_find__(set, name, hash)
            ? NULL
            : sset_add__(set, name, length, hash));
}

struct sset_node *
sset_add_and_free(struct sset *set, char *name)
{
    struct sset_node *node = sset_add(set, name);
    free(name);
    return node;
}

void
sset_add_assert(struct sset *set, const char *name)
{
    ovs_assert(sset_add(set, name) != NULL);
}

void
sset_add_array(struct sset *set, char **names, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        sset_add(set, names[i]);
    }
}

void
sset_delete(struct sset *set, struct sset_node *node)
{
    hmap_remove(&set->map, &node->hmap_node);
    free(node);
}

bool
sset_find_and_delete(struct sset *set, const char *name)
{
    struct sset_node *node = sset_find(set, name);
    if (node) {
        sset_delete(set, node);
    }
    return node != NULL;
}

void
sset_find_and_delete_assert(struct sset *set, const char *name)
{
    ovs_assert(sset_find_and_delete(set, name));
}

char *
sset_pop(struct sset *set)
{
    struct hmap_node *hnode = hmap_first(&set->map);
    if (!hnode) {
        return NULL;
    }

    struct sset_node *node = CONTAINER_OF(hnode, struct sset_node, hmap_node);
    char *name = xstrdup(node->name);
    sset_delete(set, node);
    return name;
}

struct sset_node *
sset_find(const struct sset *set, const char *name)
{
    return sset_find__(set, name, hash_string(name, 0));
}

bool
sset_contains(const struct sset *set, const char *name)
{
    return sset_find(set, name) != NULL;
}

bool
sset_equals(const struct sset *a, const struct sset *b)
{
    const struct sset_node *node;

    if (sset_count(a) != sset_count(b)) {
        return false;
    }
    HMAP_FOR_EACH (node, hmap_node, &a->map) {
        if (!sset_find__(b, node->name, node->hmap_node.hash)) {
            return false;
        }
    }
    return true;
}

static int
compare_string_pointers(const void *a_, const void *b_)
{
    const char *const *a = a_;
    const char *const *b = b_;
    return strcmp(*a, *b);
}

const char **
sset_sort(const struct sset *set)
{
    size_t n = sset_count(set);
    /* One spare slot keeps the allocation nonzero for an empty set, so the
     * caller always gets a pointer it can free. */
    const char **names = xmalloc((n + 1) * sizeof *names);
    const struct sset_node *node;
    size_t i = 0;

    HMAP_FOR_EACH (node, hmap_node, &set->map) {
        names[i++] = node->name;
    }
    names[n] = NULL;
    qsort(names, n, sizeof *names, compare_string_pointers);
    return names;
}

void
sset_from_delimited_string(struct sset *set, const char *s,
                           const char *delimiters)
{
    char *copy = xstrdup(s);
    char *save_ptr = NULL;

    for (char *token = strtok_r(copy, delimiters, &save_ptr); token;
         token = strtok_r(NULL, delimiters, &save_ptr)) {
        sset_add(set, token);
    }
    free(copy);
}

char *
sset_join(const struct sset *set, const char *delimiter,
          const char *terminator)
{
    const char **names = sset_sort(set);
    size_t n = sset_count(set);
    struct ds s = DS_EMPTY_INITIALIZER;

    for (size_t i = 0; i < n; i++) {
        ds_put_cstr(&s, names[i]);
        ds_put_cstr(&s, i + 1 < n ? delimiter : terminator);
    }
    free(names);
    return ds_steal_cstr(&s);
}

struct sset_node *
sset_first(const struct sset *set)
{
    struct hmap_node *hnode = hmap_first(&set->map);
    return hnode ? CONTAINER_OF(hnode, struct sset_node, hmap_node) : NULL;
}

struct sset_node *
sset_next(const struct sset *set, const struct sset_node *node)
{
    struct hmap_node *hnode = hmap_next(&set->map, &node->hmap_node);
    return hnode ? CONTAINER_OF(hnode, struct sset_node, hmap_node) : NULL;
}
