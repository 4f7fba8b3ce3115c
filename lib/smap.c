#include <config.h>
#include "smap.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "hash.h"

static struct smap_node *
smap_find__(const struct smap *smap, const char *key, size_t key_len,
            size_t hash)
{
    struct smap_node *node;

    HMAP_FOR_EACH_WITH_HASH (node, node, hash, &smap->map) {
        if (!strncmp(node->key, key, key_len) && !node->key[key_len]) {
            return node;
        }
    }
    return NULL;
}

static struct smap_node *
smap_add__(struct smap *smap, char *key, char *value, size_t hash)
{
    struct smap_node *node = xmalloc(sizeof *node);
    node->key = key;
    node->value = value;
    hmap_insert(&smap->map, &node->node, hash);
    return node;
}

void
smap_init(struct smap *smap)
{
    hmap_init(&smap->map);
}

void
smap_destroy(struct smap *smap)
{
    if (smap) {
        smap_clear(smap);
        hmap_destroy(&smap->map);
    }
}

void
smap_clear(struct smap *smap)
{
    struct smap_node *node;

    HMAP_FOR_EACH_POP (node, node, &smap->map) {
        free(node->key);
        free(node->value);
        free(node);
    }
}

void
smap_clone(struct smap *dst, const struct smap *src)
{
    const struct smap_node *node;

    smap_init(dst);
    hmap_reserve(&dst->map, smap_count(src));
    SMAP_FOR_EACH (node, src) {
        smap_add__(dst, xstrdup(node->key), xstrdup(node->value),
                   node->node.hash);
    }
}

void
smap_swap(struct smap *a, struct smap *b)
{
    hmap_swap(&a->map, &b->map);
}

void
smap_moved(struct smap *smap)
{
    hmap_moved(&smap->map);
}

struct smap_node *
smap_add(struct smap *smap, const char *key, const char *value)
{
    return smap_add__(smap, xstrdup(key), xstrdup(value),
                      hash_string(key, 0));
}

struct smap_node *
smap_add_nocopy(struct smap *smap, char *key, char *value)
{
    return smap_add__(smap, key, value, hash_string(key, 0));
}

bool
smap_add_once(struct smap *smap, const char *key, const char *value)
{
    if (smap_get_node(smap, key)) {
        return false;
    }
    smap_add(smap, key, value);
    return true;
}

void
smap_add_format(struct smap *smap, const char *key, const char *format, ...)
{
    va_list args;

    va_start(args, format);
    char *value = xvasprintf(format, args);
    va_end(args);

    smap_add_nocopy(smap, xstrdup(key), value);
}

void
smap_replace_nocopy(struct smap *smap, const char *key, char *value)
{
    size_t key_len = strlen(key);
    size_t hash = hash_bytes(key, key_len, 0);
    struct smap_node *node = smap_find__(smap, key, key_len, hash);

    if (node) {
        free(node->value);
        node->value = value;
    } else {
        smap_add__(smap, xmemdup0(key, key_len), value, hash);
    }
}

void
smap_replace(struct smap *smap, const char *key, const char *value)
{
    smap_replace_nocopy(smap, key, xstrdup(value));
}

bool
smap_remove(struct smap *smap, const char *key)
{
    struct smap_node *node = smap_get_node(smap, key);
    if (node) {
        smap_remove_node(smap, node);
    }
    return node != NULL;
}

void
smap_remove_node(struct smap *smap, struct smap_node *node)
{
    free(smap_steal(smap, node));
}

char *
smap_steal(struct smap *smap, struct smap_node *node)
{
    char *value = node->value;

    hmap_remove(&smap->map, &node->node);
    free(node->key);
    free(node);
    return value;
}

struct smap_node *
smap_get_node(const struct smap *smap, const char *key)
{
    size_t key_len = strlen(key);
    return smap_find__(smap, key, key_len, hash_bytes(key, key_len, 0));
}

const char *
smap_get(const struct smap *smap, const char *key)
{
    return smap_get_def(smap, key, NULL);
}

const char *
smap_get_def(const struct smap *smap, const char *key, const char *def)
{
    const struct smap_node *node = smap_get_node(smap, key);
    return node ? node->value : def;
}

bool
smap_get_bool(const struct smap *smap, const char *key, bool def)
{
    const char *value = smap_get(smap, key);

    if (value && !strcasecmp(value, "true")) {
        return true;
    } else if (value && !strcasecmp(value, "false")) {
        return false;
    }
    return def;
}

int
smap_get_int(const struct smap *smap, const char *key, int def)
{
    const char *value = smap_get(smap, key);
    int i;

    return value && str_to_int(value, 10, &i) ? i : def;
}

unsigned int
smap_get_uint(const struct smap *smap, const char *key, unsigned int def)
{
    const char *value = smap_get(smap, key);
    unsigned int u;

    return value && str_to_uint(value, 10, &u) ? u : def;
}

unsigned long long int
smap_get_ullong(const struct smap *smap, const char *key,
                unsigned long long int def)
{
    const char *value = smap_get(smap, key);
    if (!value || !*value || *value == '-') {
        return def;
    }

    char *tail;
    errno = 0;
    unsigned long long int ull = strtoull(value, &tail, 10);
    return errno || *tail ? def : ull;
}

void
smap_increase_ullong(struct smap *smap, const char *key,
                     unsigned long long int amount)
{
    unsigned long long int sum = amount + smap_get_ullong(smap, key, 0);
    smap_replace_nocopy(smap, key, xasprintf("%llu", sum));
}

bool
smap_contains(const struct smap *smap, const char *key)
{
    return smap_get_node(smap, key) != NULL;
}

bool
smap_is_empty(const struct smap *smap)
{
    return hmap_is_empty(&smap->map);
}

size_t
smap_count(const struct smap *smap)
{
    return hmap_count(&smap->map);
}

bool
smap_equals(const struct smap *a, const struct smap *b)
{
    const struct smap_node *node;

    if (smap_count(a) != smap_count(b)) {
        return false;
    }
    SMAP_FOR_EACH (node, a) {
        const struct smap_node *other
            = smap_find__(b, node->key, strlen(node->key), node->node.hash);
        if (!other || strcmp(node->value, other->value)) {
            return false;
        }
    }
    return true;
}

static int
compare_nodes_by_key(const void *a_, const void *b_)
{
    const struct smap_node *const *a = a_;
    const struct smap_node *const *b = b_;
    return strcmp((*a)->key, (*b)->key);
}

const struct smap_node **
smap_sort(const struct smap *smap)
{
    size_t n = smap_count(smap);
    if (!n) {
        return NULL;
    }

    const struct smap_node **nodes = xmalloc(n * sizeof *nodes);
    const struct smap_node *node;
    size_t i = 0;

    SMAP_FOR_EACH (node, smap) {
        nodes[i++] = node;
    }
    qsort(nodes, n, sizeof *nodes, compare_nodes_by_key);
    return nodes;
}

json_t *
smap_to_json(const struct smap *smap)
{
    json_t *object = json_object();
    const struct smap_node *node;

    SMAP_FOR_EACH (node, smap) {
        json_object_set_new(object, node->key, json_string(node->value));
    }
    return object;
}

void
smap_from_json(struct smap *smap, const json_t *json)
{
    const char *key;
    json_t *value;

    smap_init(smap);
    /* jansson's iteration macro wants a non-const object; it only reads. */
    json_object_foreach ((json_t *) json, key, value) {
        if (json_is_string(value)) {
            smap_add(smap, key, json_string_value(value));
        }
    }
}
