/* ofproto-groups: a bridge's OpenFlow groups: group_mod, the group desc,
 * stats and features replies, and the liveness fast failover and select
 * groups ask about.  ofproto.h says the semantics, ofproto-private.h the
 * threading: everything here is the main thread's except the functions
 * translators call with xlate_rwlock held (lookup, liveness, counters). */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include "coverage.h"
#include "hash.h"
#include "ofp-actions.h"
#include "ofp-group.h"
#include "ofp-msgs.h"
#include "ofp-port.h"
#include "ofproto-private.h"
#include "seq.h"
#include "timeval.h"
#include "util.h"
#include "vlog.h"
#include "xlate.h"

/* Open vSwitch logs how it builds a bridge's groups as "ofproto_dpif", the
 * module name operators and test harnesses set levels for. */
VLOG_DEFINE_THIS_MODULE(ofproto_dpif);

COVERAGE_DEFINE(ofproto_group_mod);

/* 3.1 announces this many groups of each type. */
#define OFPROTO_MAX_GROUPS OFPG_MAX

struct ofgroup *
ofproto_group_lookup(const struct ofproto *ofproto, uint32_t group_id)
{
    struct ofgroup *g;
    HMAP_FOR_EACH_WITH_HASH (g, hmap_node, hash_int(group_id, 0),
                             &ofproto->groups) {
        if (g->group_id == group_id) {
            return g;
        }
    }
    return NULL;
}

/* As 3.1: a bucket that watches nothing is live; one that watches is
 * live while its port or its group is. */
bool
ofgroup_bucket_is_live(const struct ofproto *ofproto,
                       const struct ofgroup_bucket *b, int depth)
{
    if (b->watch_port == OFPP_ANY && b->watch_group == OFPG_ANY) {
        return true;
    }
    if (b->watch_port != OFPP_ANY) {
        const struct ofport *port = ofproto_get_port(ofproto, b->watch_port);
        if (port && port->live) {
            return true;
        }
    }
    if (b->watch_group != OFPG_ANY) {
        const struct ofgroup *g = ofproto_group_lookup(ofproto,
                                                       b->watch_group);
        if (g && ofgroup_is_live(ofproto, g, depth + 1)) {
            return true;
        }
    }
    return false;
}

/* DEPTH bounds a chain of watched groups that loops back on itself. */
bool
ofgroup_is_live(const struct ofproto *ofproto, const struct ofgroup *g,
                int depth)
{
    if (depth > 32) {
        return false;
    }
    for (size_t i = 0; i < g->n_buckets; i++) {
        if (ofgroup_bucket_is_live(ofproto, &g->buckets[i], depth)) {
            return true;
        }
    }
    return false;
}

void
ofgroup_credit_stats(struct ofgroup *g, struct ofgroup_bucket *b,
                     uint64_t n_packets, uint64_t n_bytes)
{
    if (g) {
        atomic_fetch_add_explicit(&g->n_packets, n_packets,
                                  memory_order_relaxed);
        atomic_fetch_add_explicit(&g->n_bytes, n_bytes,
                                  memory_order_relaxed);
    }
    if (b) {
        atomic_fetch_add_explicit(&b->n_packets, n_packets,
                                  memory_order_relaxed);
        atomic_fetch_add_explicit(&b->n_bytes, n_bytes,
                                  memory_order_relaxed);
    }
}

static void
bucket_init(struct ofgroup_bucket *b, const struct ofputil_bucket *ub)
{
    b->bucket_id = ub->bucket_id;
    b->weight = ub->weight;
    b->watch_port = ub->watch_port;
    b->watch_group = ub->watch_group;
    b->ofpacts = xmemdup(ub->ofpacts, MAX(ub->ofpacts_len, 1));
    b->ofpacts_len = ub->ofpacts_len;
    atomic_init(&b->n_packets, 0);
    atomic_init(&b->n_bytes, 0);
}

/* A copy of OLD's bucket, counters included. */
static void
bucket_copy(struct ofgroup_bucket *b, const struct ofgroup_bucket *old)
{
    b->bucket_id = old->bucket_id;
    b->weight = old->weight;
    b->watch_port = old->watch_port;
    b->watch_group = old->watch_group;
    b->ofpacts = xmemdup(old->ofpacts, MAX(old->ofpacts_len, 1));
    b->ofpacts_len = old->ofpacts_len;
    atomic_init(&b->n_packets, atomic_load_explicit(
                    &((struct ofgroup_bucket *) old)->n_packets,
                    memory_order_relaxed));
    atomic_init(&b->n_bytes, atomic_load_explicit(
                    &((struct ofgroup_bucket *) old)->n_bytes,
                    memory_order_relaxed));
}

static struct ofgroup *
group_alloc(uint32_t group_id, uint8_t type,
            const struct ofputil_group_props *props, size_t n_buckets)
{
    struct ofgroup *g = xzalloc(sizeof *g);
    g->group_id = group_id;
    g->type = type;
    g->props = *props;
    g->created = time_msec();
    g->n_buckets = n_buckets;
    g->buckets = xcalloc(MAX(n_buckets, 1), sizeof *g->buckets);
    atomic_init(&g->n_packets, 0);
    atomic_init(&g->n_bytes, 0);
    return g;
}

static struct ofgroup *
group_create(const struct ofputil_group_mod *gm)
{
    struct ofgroup *g = group_alloc(gm->group_id, gm->type, &gm->props,
                                    ovs_list_size(&gm->buckets));
    const struct ofputil_bucket *ub;
    size_t i = 0;
    LIST_FOR_EACH (ub, list_node, &gm->buckets) {
        bucket_init(&g->buckets[i++], ub);
    }
    return g;
}

static void
group_free(struct ofgroup *g)
{
    for (size_t i = 0; i < g->n_buckets; i++) {
        free(g->buckets[i].ofpacts);
    }
    free(g->buckets);
    free(g);
}

/* A bundle's commit (ofproto.h's ofproto_txn): its group changes are made
 * in place, in order, with xlate_rwlock held for writing from begin to
 * commit or abort, so no translation sees part of them; the groups they
 * replace or delete are kept until then, to be freed or put back. */
struct group_change {
    struct ofgroup *old;        /* Taken out of the map, or NULL. */
    struct ofgroup *new;        /* Put in, or NULL. */
};

struct ofproto_txn {
    struct ofproto *ofproto;
    struct ofproto_batch *batch;
    struct group_change *changes;
    size_t n_changes, allocated;
};

/* Puts NEW in OLD's place (or in the map, if OLD is NULL; or takes OLD
 * out, if NEW is NULL).  Alone (TXN null), under the write lock and
 * freeing OLD at once: no translator can be looking at it any more. */
static void
group_change(struct ofproto *ofproto, struct ofproto_txn *txn,
             struct ofgroup *old, struct ofgroup *new)
{
    if (!txn) {
        ovs_rwlock_wrlock(&xlate_rwlock);
    }
    if (old && new) {
        hmap_replace(&ofproto->groups, &old->hmap_node, &new->hmap_node);
    } else if (new) {
        hmap_insert(&ofproto->groups, &new->hmap_node,
                    hash_int(new->group_id, 0));
    } else {
        hmap_remove(&ofproto->groups, &old->hmap_node);
    }
    if (txn) {
        if (txn->n_changes >= txn->allocated) {
            txn->changes = x2nrealloc(txn->changes, &txn->allocated,
                                      sizeof *txn->changes);
        }
        txn->changes[txn->n_changes++] = (struct group_change) {
            .old = old, .new = new,
        };
    } else {
        ovs_rwlock_unlock(&xlate_rwlock);
        if (old) {
            group_free(old);
        }
    }
    seq_change(ofproto->backer->reval_seq);
}

static void
group_delete(struct ofproto *ofproto, struct ofproto_txn *txn,
             struct ofgroup *g)
{
    if (txn) {
        ofproto_batch_delete_group_rules(txn->batch, g->group_id);
    } else {
        ofproto_delete_group_rules(ofproto, g->group_id);
    }
    group_change(ofproto, txn, g, NULL);
}

static enum ofperr
add_group(struct ofproto *ofproto, struct ofproto_txn *txn,
          const struct ofputil_group_mod *gm)
{
    if (ofproto_group_lookup(ofproto, gm->group_id)) {
        return OFPERR_OFPGMFC_GROUP_EXISTS;
    }
    if (hmap_count(&ofproto->groups) >= OFPROTO_MAX_GROUPS) {
        return OFPERR_OFPGMFC_OUT_OF_GROUPS;
    }
    group_change(ofproto, txn, NULL, group_create(gm));
    return 0;
}

static enum ofperr
modify_group(struct ofproto *ofproto, struct ofproto_txn *txn,
             const struct ofputil_group_mod *gm)
{
    struct ofgroup *old = ofproto_group_lookup(ofproto, gm->group_id);
    if (!old) {
        return (gm->command == OFPGC_ADD_OR_MOD ? add_group(ofproto, txn, gm)
                : OFPERR_OFPGMFC_UNKNOWN_GROUP);
    }
    struct ofgroup *new = group_create(gm);
    new->created = old->created;
    group_change(ofproto, txn, old, new);
    return 0;
}

static void
delete_groups(struct ofproto *ofproto, struct ofproto_txn *txn,
              uint32_t group_id)
{
    if (group_id == OFPG_ALL) {
        struct ofgroup *g;
        HMAP_FOR_EACH_SAFE (g, hmap_node, &ofproto->groups) {
            group_delete(ofproto, txn, g);
        }
    } else {
        struct ofgroup *g = ofproto_group_lookup(ofproto, group_id);
        if (g) {
            group_delete(ofproto, txn, g);
        }
    }
}

/* The index of the bucket whose id is BUCKET_ID in G, or SIZE_MAX. */
static size_t
find_bucket(const struct ofgroup *g, uint32_t bucket_id)
{
    for (size_t i = 0; i < g->n_buckets; i++) {
        if (g->buckets[i].bucket_id == bucket_id) {
            return i;
        }
    }
    return SIZE_MAX;
}

static enum ofperr
insert_buckets(struct ofproto *ofproto, struct ofproto_txn *txn,
               const struct ofputil_group_mod *gm)
{
    struct ofgroup *old = ofproto_group_lookup(ofproto, gm->group_id);
    if (!old) {
        return OFPERR_OFPGMFC_UNKNOWN_GROUP;
    }
    size_t pos;
    switch (gm->command_bucket_id) {
    case OFPG15_BUCKET_FIRST:
        pos = 0;
        break;
    case OFPG15_BUCKET_LAST:
        pos = old->n_buckets;
        break;
    default:
        pos = find_bucket(old, gm->command_bucket_id);
        if (pos == SIZE_MAX) {
            return OFPERR_OFPGMFC_UNKNOWN_BUCKET;
        }
        pos++;              /* After the bucket named. */
        break;
    }
    const struct ofputil_bucket *ub;
    LIST_FOR_EACH (ub, list_node, &gm->buckets) {
        if (find_bucket(old, ub->bucket_id) != SIZE_MAX) {
            return OFPERR_OFPGMFC_BUCKET_EXISTS;
        }
    }

    size_t n_new = ovs_list_size(&gm->buckets);
    struct ofgroup *new = group_alloc(old->group_id, old->type, &old->props,
                                      old->n_buckets + n_new);
    new->created = old->created;
    size_t j = 0;
    for (size_t i = 0; i < pos; i++) {
        bucket_copy(&new->buckets[j++], &old->buckets[i]);
    }
    LIST_FOR_EACH (ub, list_node, &gm->buckets) {
        bucket_init(&new->buckets[j++], ub);
    }
    for (size_t i = pos; i < old->n_buckets; i++) {
        bucket_copy(&new->buckets[j++], &old->buckets[i]);
    }
    group_change(ofproto, txn, old, new);
    return 0;
}

static enum ofperr
remove_buckets(struct ofproto *ofproto, struct ofproto_txn *txn,
               const struct ofputil_group_mod *gm)
{
    struct ofgroup *old = ofproto_group_lookup(ofproto, gm->group_id);
    if (!old) {
        return OFPERR_OFPGMFC_UNKNOWN_GROUP;
    }
    /* Which bucket goes: [first, last) of the old ones. */
    size_t first, last;
    switch (gm->command_bucket_id) {
    case OFPG15_BUCKET_ALL:
        first = 0;
        last = old->n_buckets;
        break;
    case OFPG15_BUCKET_FIRST:
        first = 0;
        last = MIN(1, old->n_buckets);
        break;
    case OFPG15_BUCKET_LAST:
        first = old->n_buckets ? old->n_buckets - 1 : 0;
        last = old->n_buckets;
        break;
    default:
        first = find_bucket(old, gm->command_bucket_id);
        if (first == SIZE_MAX) {
            return OFPERR_OFPGMFC_UNKNOWN_BUCKET;
        }
        last = first + 1;
        break;
    }

    struct ofgroup *new = group_alloc(old->group_id, old->type, &old->props,
                                      old->n_buckets - (last - first));
    new->created = old->created;
    size_t j = 0;
    for (size_t i = 0; i < old->n_buckets; i++) {
        if (i < first || i >= last) {
            bucket_copy(&new->buckets[j++], &old->buckets[i]);
        }
    }
    group_change(ofproto, txn, old, new);
    return 0;
}

/* Whether translation carries out every bucket's actions: a group is
 * refused rather than accepted with buckets that would drop what they
 * say. */
static enum ofperr
check_bucket_actions(const struct ofputil_group_mod *gm)
{
    const struct ofputil_bucket *b;
    LIST_FOR_EACH (b, list_node, &gm->buckets) {
        enum ofperr error = xlate_check_actions(b->ofpacts, b->ofpacts_len);
        if (error) {
            return error;
        }
    }
    return 0;
}

static enum ofperr
group_mod(struct ofproto *ofproto, struct ofproto_txn *txn,
          const struct ofputil_group_mod *gm)
{
    COVERAGE_INC(ofproto_group_mod);
    if (gm->command != OFPGC11_DELETE
        && gm->command != OFPGC15_REMOVE_BUCKET) {
        enum ofperr error = check_bucket_actions(gm);
        if (error) {
            return error;
        }
    }
    switch (gm->command) {
    case OFPGC11_ADD:
    case OFPGC11_MODIFY:
    case OFPGC_ADD_OR_MOD:
        if (gm->group_id > OFPG_MAX) {
            return OFPERR_OFPGMFC_INVALID_GROUP;
        }
        if (gm->type > OFPGT11_FF) {
            return OFPERR_OFPGMFC_BAD_TYPE;
        }
        return (gm->command == OFPGC11_ADD ? add_group(ofproto, txn, gm)
                : modify_group(ofproto, txn, gm));
    case OFPGC11_DELETE:
        delete_groups(ofproto, txn, gm->group_id);
        return 0;
    case OFPGC15_INSERT_BUCKET:
        return insert_buckets(ofproto, txn, gm);
    case OFPGC15_REMOVE_BUCKET:
        return remove_buckets(ofproto, txn, gm);
    default:
        return OFPERR_OFPGMFC_BAD_COMMAND;
    }
}

enum ofperr
ofproto_group_mod(struct ofproto *ofproto, const struct ofputil_group_mod *gm)
{
    return group_mod(ofproto, NULL, gm);
}

struct ofproto_txn *
ofproto_txn_begin(struct ofproto *ofproto)
{
    struct ofproto_txn *txn = xzalloc(sizeof *txn);
    txn->ofproto = ofproto;
    ovs_rwlock_wrlock(&xlate_rwlock);
    txn->batch = ofproto_batch_begin(ofproto);
    return txn;
}

enum ofperr
ofproto_txn_flow_mod(struct ofproto_txn *txn,
                     const struct ofputil_flow_mod *fm)
{
    return ofproto_batch_flow_mod(txn->batch, fm);
}

enum ofperr
ofproto_txn_group_mod(struct ofproto_txn *txn,
                      const struct ofputil_group_mod *gm)
{
    return group_mod(txn->ofproto, txn, gm);
}

void
ofproto_txn_commit(struct ofproto_txn *txn)
{
    ofproto_batch_commit(txn->batch);
    ovs_rwlock_unlock(&xlate_rwlock);
    for (size_t i = 0; i < txn->n_changes; i++) {
        if (txn->changes[i].old) {
            group_free(txn->changes[i].old);
        }
    }
    free(txn->changes);
    free(txn);
}

void
ofproto_txn_abort(struct ofproto_txn *txn)
{
    struct ofproto *ofproto = txn->ofproto;
    ofproto_batch_abort(txn->batch);
    /* Newest first, so a group changed twice gets its first self back. */
    for (size_t i = txn->n_changes; i-- > 0; ) {
        struct group_change *c = &txn->changes[i];
        if (c->old && c->new) {
            hmap_replace(&ofproto->groups, &c->new->hmap_node,
                         &c->old->hmap_node);
        } else if (c->new) {
            hmap_remove(&ofproto->groups, &c->new->hmap_node);
        } else {
            hmap_insert(&ofproto->groups, &c->old->hmap_node,
                        hash_int(c->old->group_id, 0));
        }
        if (c->new) {
            group_free(c->new);
        }
    }
    ovs_rwlock_unlock(&xlate_rwlock);
    if (txn->n_changes) {
        seq_change(ofproto->backer->reval_seq);
    }
    free(txn->changes);
    free(txn);
}

static int
compare_group_ids(const void *a_, const void *b_)
{
    const struct ofgroup *const *a = a_, *const *b = b_;
    return ((*a)->group_id < (*b)->group_id ? -1
            : (*a)->group_id > (*b)->group_id);
}

/* The groups GROUP_ID selects (OFPG_ALL: every one), by group id; the
 * caller frees the array. */
static struct ofgroup **
select_groups(const struct ofproto *ofproto, uint32_t group_id, size_t *np)
{
    size_t n = 0;
    struct ofgroup **groups;
    if (group_id == OFPG_ALL) {
        groups = xmalloc(MAX(hmap_count(&ofproto->groups), 1)
                         * sizeof *groups);
        struct ofgroup *g;
        HMAP_FOR_EACH (g, hmap_node, &ofproto->groups) {
            groups[n++] = g;
        }
        qsort(groups, n, sizeof *groups, compare_group_ids);
    } else {
        groups = xmalloc(sizeof *groups);
        struct ofgroup *g = ofproto_group_lookup(ofproto, group_id);
        if (g) {
            groups[n++] = g;
        }
    }
    *np = n;
    return groups;
}

void
ofproto_append_group_descs(struct ofproto *ofproto, uint32_t group_id,
                           struct ovs_list *replies)
{
    size_t n;
    struct ofgroup **groups = select_groups(ofproto, group_id, &n);
    for (size_t i = 0; i < n; i++) {
        const struct ofgroup *g = groups[i];
        struct ofputil_group_desc gd = {
            .type = g->type,
            .group_id = g->group_id,
            .props = g->props,
        };
        ovs_list_init(&gd.buckets);
        /* Borrowed actions: the list is freed by hand, not destroyed. */
        struct ofputil_bucket *ubs = xcalloc(MAX(g->n_buckets, 1),
                                             sizeof *ubs);
        for (size_t j = 0; j < g->n_buckets; j++) {
            const struct ofgroup_bucket *b = &g->buckets[j];
            ubs[j].weight = b->weight;
            ubs[j].watch_port = b->watch_port;
            ubs[j].watch_group = b->watch_group;
            ubs[j].bucket_id = b->bucket_id;
            ubs[j].ofpacts = b->ofpacts;
            ubs[j].ofpacts_len = b->ofpacts_len;
            ovs_list_push_back(&gd.buckets, &ubs[j].list_node);
        }
        ofputil_append_group_desc_reply(&gd, &gd.buckets, replies);
        free(ubs);
    }
    free(groups);
}

void
ofproto_append_group_stats(struct ofproto *ofproto, uint32_t group_id,
                           struct ovs_list *replies)
{
    size_t n;
    struct ofgroup **groups = select_groups(ofproto, group_id, &n);
    long long int now = time_msec();
    for (size_t i = 0; i < n; i++) {
        struct ofgroup *g = groups[i];
        long long int age = MAX(now - g->created, 0);
        struct ofputil_group_stats gs = {
            .group_id = g->group_id,
            .ref_count = ofproto_count_group_rules(ofproto, g->group_id),
            .packet_count = atomic_load_explicit(&g->n_packets,
                                                 memory_order_relaxed),
            .byte_count = atomic_load_explicit(&g->n_bytes,
                                               memory_order_relaxed),
            .duration_sec = age / 1000,
            .duration_nsec = (age % 1000) * 1000000,
            .n_buckets = g->n_buckets,
        };
        gs.bucket_stats = xcalloc(MAX(g->n_buckets, 1),
                                  sizeof *gs.bucket_stats);
        for (size_t j = 0; j < g->n_buckets; j++) {
            struct ofgroup_bucket *b = &g->buckets[j];
            gs.bucket_stats[j].packet_count = atomic_load_explicit(
                &b->n_packets, memory_order_relaxed);
            gs.bucket_stats[j].byte_count = atomic_load_explicit(
                &b->n_bytes, memory_order_relaxed);
        }
        ofputil_append_group_stats(replies, &gs);
        free(gs.bucket_stats);
    }
    free(groups);
}

void
ofproto_get_group(const struct ofproto *ofproto, uint32_t group_id,
                  uint8_t *type, struct ovs_list *buckets)
{
    const struct ofgroup *g = ofproto_group_lookup(ofproto, group_id);
    if (g) {
        *type = g->type;
    }
    for (size_t i = 0; g && i < g->n_buckets; i++) {
        const struct ofgroup_bucket *b = &g->buckets[i];
        struct ofputil_bucket *ub = xzalloc(sizeof *ub);
        ub->weight = b->weight;
        ub->watch_port = b->watch_port;
        ub->watch_group = b->watch_group;
        ub->bucket_id = b->bucket_id;
        ub->ofpacts = xmemdup(b->ofpacts, MAX(b->ofpacts_len, 1));
        ub->ofpacts_len = b->ofpacts_len;
        ovs_list_push_back(buckets, &ub->list_node);
    }
}

void
ofproto_get_group_features(struct ofputil_group_features *gf)
{
    memset(gf, 0, sizeof *gf);
    gf->types = ((1u << OFPGT11_ALL) | (1u << OFPGT11_SELECT)
                 | (1u << OFPGT11_INDIRECT) | (1u << OFPGT11_FF));
    gf->capabilities = (OFPGFC_SELECT_WEIGHT | OFPGFC_SELECT_LIVENESS
                        | OFPGFC_CHAINING);
    for (int i = 0; i < 4; i++) {
        gf->max_groups[i] = OFPROTO_MAX_GROUPS;
        /* Every action translation knows, as 3.1 announces; the encoder
         * keeps what the version can say. */
        gf->ofpacts[i] = (UINT64_C(1) << OFPUTIL_N_GA) - 1;
    }
}

void
ofproto_destroy_groups(struct ofproto *ofproto)
{
    struct ofgroup *g;
    ovs_rwlock_wrlock(&xlate_rwlock);
    HMAP_FOR_EACH_POP (g, hmap_node, &ofproto->groups) {
        group_free(g);
    }
    ovs_rwlock_unlock(&xlate_rwlock);
    hmap_destroy(&ofproto->groups);
}
