#include <config.h>
#include "dp-bond.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "hash.h"
#include "hmap.h"
#include "ovs-thread.h"
#include "util.h"

struct dp_bond {
    struct hmap_node node;      /* In the table, by bond_id. */
    uint32_t bond_id;
    uint32_t ports[DP_BOND_N_BUCKETS];
    uint64_t n_bytes[DP_BOND_N_BUCKETS];
};

struct dp_bond_table {
    struct ovs_mutex mutex;
    struct hmap bonds;
};

struct dp_bond_table *
dp_bond_table_create(void)
{
    struct dp_bond_table *t = xzalloc(sizeof *t);
    ovs_mutex_init(&t->mutex);
    hmap_init(&t->bonds);
    return t;
}

void
dp_bond_table_destroy(struct dp_bond_table *t)
{
    if (!t) {
        return;
    }
    struct dp_bond *b;
    HMAP_FOR_EACH_POP (b, node, &t->bonds) {
        free(b);
    }
    hmap_destroy(&t->bonds);
    ovs_mutex_destroy(&t->mutex);
    free(t);
}

static struct dp_bond *
find(struct dp_bond_table *t, uint32_t bond_id)
{
    struct dp_bond *b;
    HMAP_FOR_EACH_WITH_HASH (b, node, hash_int(bond_id, 0), &t->bonds) {
        if (b->bond_id == bond_id) {
            return b;
        }
    }
    return NULL;
}

void
dp_bond_table_set(struct dp_bond_table *t, uint32_t bond_id,
                  const uint32_t ports[DP_BOND_N_BUCKETS])
{
    ovs_mutex_lock(&t->mutex);
    struct dp_bond *b = find(t, bond_id);
    if (!b) {
        b = xzalloc(sizeof *b);
        b->bond_id = bond_id;
        hmap_insert(&t->bonds, &b->node, hash_int(bond_id, 0));
    }
    memcpy(b->ports, ports, sizeof b->ports);
    ovs_mutex_unlock(&t->mutex);
}

int
dp_bond_table_del(struct dp_bond_table *t, uint32_t bond_id)
{
    ovs_mutex_lock(&t->mutex);
    struct dp_bond *b = find(t, bond_id);
    if (b) {
        hmap_remove(&t->bonds, &b->node);
        free(b);
    }
    ovs_mutex_unlock(&t->mutex);
    return b ? 0 : ENOENT;
}

int
dp_bond_table_stats(struct dp_bond_table *t, uint32_t bond_id,
                    uint64_t n_bytes[DP_BOND_N_BUCKETS])
{
    ovs_mutex_lock(&t->mutex);
    struct dp_bond *b = find(t, bond_id);
    if (b) {
        memcpy(n_bytes, b->n_bytes, sizeof b->n_bytes);
    }
    ovs_mutex_unlock(&t->mutex);
    return b ? 0 : ENOENT;
}

bool
dp_bond_table_output(struct dp_bond_table *t, uint32_t bond_id,
                     uint32_t hash, size_t n_bytes, uint32_t *port)
{
    bool ok = false;
    ovs_mutex_lock(&t->mutex);
    struct dp_bond *b = find(t, bond_id);
    if (b) {
        uint32_t bucket = hash % DP_BOND_N_BUCKETS;
        *port = b->ports[bucket];
        ok = *port != UINT32_MAX;
        if (ok) {
            b->n_bytes[bucket] += n_bytes;
        }
    }
    ovs_mutex_unlock(&t->mutex);
    return ok;
}

static int
compare_bond_ids(const void *a_, const void *b_)
{
    const struct dp_bond *const *a = a_, *const *b = b_;
    return (*a)->bond_id < (*b)->bond_id ? -1 : (*a)->bond_id > (*b)->bond_id;
}

void
dp_bond_table_format(struct dp_bond_table *t, struct ds *s)
{
    ovs_mutex_lock(&t->mutex);
    size_t n = hmap_count(&t->bonds), i = 0;
    if (n) {
        struct dp_bond **v = xmalloc(n * sizeof *v);
        struct dp_bond *b;
        HMAP_FOR_EACH (b, node, &t->bonds) {
            v[i++] = b;
        }
        qsort(v, n, sizeof *v, compare_bond_ids);
        ds_put_cstr(s, "Bonds:\n");
        for (i = 0; i < n; i++) {
            ds_put_format(s, "  bond-id %"PRIu32":\n", v[i]->bond_id);
            for (int j = 0; j < DP_BOND_N_BUCKETS; j++) {
                ds_put_format(s, "    bucket %d - member %"PRIu32"\n", j,
                              v[i]->ports[j]);
            }
        }
        free(v);
    }
    ovs_mutex_unlock(&t->mutex);
}
