#include <config.h>
#include "shash.h"

#include <stdlib.h>
#include <string.h>
#include "hash.h"
#include "util.h"

static size_t
hash_name(const char *name)
{
    return hash_string(name, 0);
}

static struct shash_node *
shash_find__(const struct shash *sh, const char *name, size_t name_len,
             size_t hash)
{
    struct shash_node *node;

    HMAP_FOR_EACH_WITH_HASH (node, node, hash, &sh->map) {
        if (!strncmp(node->name, name, name_len) && !node->name[name_len]) {
            return node;
        }
    }
    return NULL;
}

void
shash_init(struct shash *sh)
{
    hmap_init(&sh->map);
}

void
shash_destroy(struct shash *sh)
{
    if (sh) {
        shash_clear(sh);
        hmap_destroy(&sh->map);
    }
}

void
shash_destroy_free_data(struct shash *sh)
{
    if (sh) {
        shash_clear_free_data(sh);
        hmap_destroy(&sh->map);
    }
}

void
shash_swap(struct shash *a, struct shash *b)
{
    hmap_swap(&a->map, &b->map);
}

void
shash_moved(struct shash *sh)
{
    hmap_moved(&sh->map);
}

void
shash_clear(struct shash *sh)
{
    struct shash_node *node;

    HMAP_FOR_EACH_POP (node, node, &sh->map) {
        free(node->name);
        free(node);
    }
}

void
shash_clear_free_data(struct shash *sh)
{
    struct shash_node *node;

    HMAP_FOR_EACH_POP (node, node, &sh->map) {
        free(node->data);
        free(node->name);
        free(node);
    }
}

bool
shash_is_empty(const struct shash *sh)
{
    return hmap_is_empty(&sh->map);
}

size_t
shash_count(const struct shash *sh)
{
    return hmap_count(&sh->map);
}

static struct shash_node *
shash_add_nocopy__(struct shash *sh, char *name, const void *data,
                   size_t hash)
{
    struct shash_node *node = xmalloc(sizeof *node);
    node->name = name;
    node->data = (void *) data;
    hmap_insert(&sh->map, &node->node, hash);
    return node;
}

struct shash_node *
shash_add_nocopy(struct shash *sh, char *name, const void *data)
{
    return shash_add_nocopy__(sh, name, data, hash_name(name));
}

struct shash_node *
shash_add(struct shash *sh, const char *name, const void *data)
{
    return shash_add_nocopy(sh, xstrdup(name), data);
}

bool
shash_add_once(struct shash *sh, const char *name, const void *data)
{
    if (shash_find(sh, name)) {
        return false;
    }
    shash_add(sh, name, data);
    return true;
}

void
shash_add_assert(struct shash *sh, const char *name, const void *data)
{
    bool added = shash_add_once(sh, name, data);
    ovs_assert(added);
}

void *
shash_replace(struct shash *sh, const char *name, const void *data)
{
    size_t hash = hash_name(name);
    struct shash_node *node = shash_find__(sh, name, strlen(name), hash);

    if (!node) {
        shash_add_nocopy__(sh, xstrdup(name), data, hash);
        return NULL;
    }
    void *old = node->data;
    node->data = (void *) data;
    return old;
}

void *
shash_delete(struct shash *sh, struct shash_node *node)
{
    void *data = node->data;
    free(shash_steal(sh, node));
    return data;
}

char *
shash_steal(struct shash *sh, struct shash_node *node)
{
    char *name = node->name;
    hmap_remove(&sh->map, &node->node);
    free(node);
    return name;
}

struct shash_node *
shash_find(const struct shash *sh, const char *name)
{
    size_t len = strlen(name);
    return shash_find__(sh, name, len, hash_name(name));
}

struct shash_node *
shash_find_len(const struct shash *sh, const char *name, size_t len)
{
    return shash_find__(sh, name, len, hash_bytes(name, len, 0));
}

void *
shash_find_data(const struct shash *sh, const char *name)
{
    struct shash_node *node = shash_find(sh, name);
    return node ? node->data : NULL;
}

void *
shash_find_and_delete(struct shash *sh, const char *name)
{
    struct shash_node *node = shash_find(sh, name);
    return node ? shash_delete(sh, node) : NULL;
}

void *
shash_find_and_delete_assert(struct shash *sh, const char *name)
{
    struct shash_node *node = shash_find(sh, name);
    ovs_assert(node);
    return shash_delete(sh, node);
}

struct shash_node *
shash_first(const struct shash *sh)
{
    if (shash_count(sh) != 1) {
        return NULL;
    }
    struct shash_node *node;
    INIT_CONTAINER(node, hmap_first(&sh->map), node);
    return node;
}

static int
compare_nodes_by_name(const void *a_, const void *b_)
{
    const struct shash_node *const *a = a_;
    const struct shash_node *const *b = b_;
    return strcmp((*a)->name, (*b)->name);
}

const struct shash_node **
shash_sort(const struct shash *sh)
{
    size_t n = shash_count(sh);
    if (!n) {
        return NULL;
    }

    const struct shash_node **nodes = xmalloc(n * sizeof *nodes);
    const struct shash_node *node;
    size_t i = 0;
    SHASH_FOR_EACH (node, sh) {
        nodes[i++] = node;
    }
    qsort(nodes, n, sizeof *nodes, compare_nodes_by_name);
    return nodes;
}

bool
shash_equal_keys(const struct shash *a, const struct shash *b)
{
    if (shash_count(a) != shash_count(b)) {
        return false;
    }

    const struct shash_node *node;
    SHASH_FOR_EACH (node, a) {
        if (!shash_find(b, node->name)) {
            return false;
        }
    }
    return true;
}
