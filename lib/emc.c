#include <config.h>
#include "emc.h"

#include <stdlib.h>
#include <string.h>
#include "util.h"

#define EMC_MASK (EMC_ENTRIES - 1)

struct emc_cache *
emc_create(void (*unref)(void *flow), bool (*is_dead)(const void *flow))
{
    struct emc_cache *cache = xmalloc(sizeof *cache);
    cache->unref = unref;
    cache->is_dead = is_dead;
    cache->n_entries = 0;
    for (size_t i = 0; i < EMC_ENTRIES; i++) {
        cache->entries[i].flow = NULL;
    }
    return cache;
}

void
emc_destroy(struct emc_cache *cache)
{
    if (cache) {
        emc_flush(cache);
        free(cache);
    }
}

static void
entry_clear(struct emc_cache *cache, struct emc_entry *e)
{
    if (e->flow) {
        cache->unref(e->flow);
        e->flow = NULL;
        cache->n_entries--;
    }
}

/* The two entries KEY may occupy. */
static struct emc_entry *
slot(struct emc_cache *cache, uint32_t hash, int way)
{
    uint32_t idx = way ? (hash >> 16) ^ (hash << 3) : hash;
    return &cache->entries[idx & EMC_MASK];
}

void *
emc_lookup(struct emc_cache *cache, const struct flow *key, uint32_t hash)
{
    for (int way = 0; way < 2; way++) {
        struct emc_entry *e = slot(cache, hash, way);
        if (e->flow && e->hash == hash && flow_equal(&e->key, key)) {
            if (cache->is_dead(e->flow)) {
                entry_clear(cache, e);
                return NULL;
            }
            return e->flow;
        }
    }
    return NULL;
}

void
emc_insert(struct emc_cache *cache, const struct flow *key, uint32_t hash,
           void *flow)
{
    struct emc_entry *victim = NULL;

    for (int way = 0; way < 2; way++) {
        struct emc_entry *e = slot(cache, hash, way);
        if (e->flow && e->hash == hash && flow_equal(&e->key, key)) {
            victim = e;         /* Same key: replace its flow. */
            break;
        }
        if (!victim && !e->flow) {
            victim = e;
        }
    }
    if (!victim) {
        victim = slot(cache, hash, (hash >> 31) & 1);
    }
    entry_clear(cache, victim);
    victim->flow = flow;
    victim->hash = hash;
    victim->key = *key;
    cache->n_entries++;
}

void
emc_sweep(struct emc_cache *cache)
{
    for (size_t i = 0; i < EMC_ENTRIES && cache->n_entries; i++) {
        struct emc_entry *e = &cache->entries[i];
        if (e->flow && cache->is_dead(e->flow)) {
            entry_clear(cache, e);
        }
    }
}

void
emc_flush(struct emc_cache *cache)
{
    for (size_t i = 0; i < EMC_ENTRIES && cache->n_entries; i++) {
        entry_clear(cache, &cache->entries[i]);
    }
}
