/* recirc: see recirc.h. */
#include <config.h>
#include "recirc.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "hash.h"
#include "hmap.h"
#include "list.h"
#include "ovs-thread.h"
#include "timeval.h"
#include "util.h"

struct recirc_node {
    struct hmap_node id_node;       /* In 'by_id'. */
    struct hmap_node state_node;    /* In 'by_state' while referenced. */
    struct ovs_list unused_node;    /* In 'unused' while not. */
    uint32_t id;
    unsigned int refcount;
    long long int unused_since;     /* Real time, ms. */
    struct frozen_state state;      /* Owns its userdata. */
};

static struct ovs_mutex mutex = OVS_MUTEX_INITIALIZER;
static struct hmap by_id = HMAP_INITIALIZER(&by_id);
static struct hmap by_state = HMAP_INITIALIZER(&by_state);
static struct ovs_list unused = OVS_LIST_INITIALIZER(&unused);
static uint32_t next_id = 1;

void
frozen_metadata_init(struct flow *md, const struct flow *flow)
{
    memset(md, 0, sizeof *md);
    md->in_port = flow->in_port;
    md->packet_type = flow->packet_type;
    md->tunnel = flow->tunnel;
    md->metadata = flow->metadata;
    memcpy(md->regs, flow->regs, sizeof md->regs);
    md->pkt_mark = flow->pkt_mark;
}

static uint32_t
state_hash(const struct frozen_state *s)
{
    uint32_t hash = hash_int(s->ofproto_id, s->table_id);
    hash = hash_bytes(&s->rule_cookie, sizeof s->rule_cookie, hash);
    hash = hash_bytes(&s->metadata, sizeof s->metadata, hash);
    return hash_bytes(s->userdata, s->userdata_len, hash);
}

static bool
state_equal(const struct frozen_state *a, const struct frozen_state *b)
{
    return (a->ofproto_id == b->ofproto_id
            && a->table_id == b->table_id
            && a->rule_cookie == b->rule_cookie
            && !memcmp(&a->metadata, &b->metadata, sizeof a->metadata)
            && a->userdata_len == b->userdata_len
            && (!a->userdata_len
                || !memcmp(a->userdata, b->userdata, a->userdata_len)));
}

static struct recirc_node *
find_by_id(uint32_t id)
{
    struct recirc_node *node;
    HMAP_FOR_EACH_WITH_HASH (node, id_node, hash_int(id, 0), &by_id) {
        if (node->id == id) {
            return node;
        }
    }
    return NULL;
}

/* The next id no node holds; ids go up and wrap, skipping 0. */
static uint32_t
new_id(void)
{
    for (;;) {
        uint32_t id = next_id++;
        if (!next_id) {
            next_id = 1;
        }
        if (id && !find_by_id(id)) {
            return id;
        }
    }
}

uint32_t
recirc_alloc(const struct frozen_state *state)
{
    uint32_t hash = state_hash(state);
    ovs_mutex_lock(&mutex);
    struct recirc_node *node;
    HMAP_FOR_EACH_WITH_HASH (node, state_node, hash, &by_state) {
        if (state_equal(&node->state, state)) {
            node->refcount++;
            ovs_mutex_unlock(&mutex);
            return node->id;
        }
    }
    node = xzalloc(sizeof *node);
    node->id = new_id();
    node->refcount = 1;
    node->state = *state;
    node->state.userdata = (state->userdata_len
                            ? xmemdup(state->userdata, state->userdata_len)
                            : NULL);
    hmap_insert(&by_id, &node->id_node, hash_int(node->id, 0));
    hmap_insert(&by_state, &node->state_node, hash);
    uint32_t id = node->id;
    ovs_mutex_unlock(&mutex);
    return id;
}

void
recirc_ref(uint32_t id)
{
    ovs_mutex_lock(&mutex);
    struct recirc_node *node = find_by_id(id);
    /* Only a referenced node: a reference is taken from another one. */
    ovs_assert(node && node->refcount);
    node->refcount++;
    ovs_mutex_unlock(&mutex);
}

void
recirc_unref(uint32_t id)
{
    ovs_mutex_lock(&mutex);
    struct recirc_node *node = find_by_id(id);
    ovs_assert(node && node->refcount);
    if (!--node->refcount) {
        hmap_remove(&by_state, &node->state_node);
        node->unused_since = time_usec_real() / 1000;
        ovs_list_push_back(&unused, &node->unused_node);
    }
    ovs_mutex_unlock(&mutex);
}

bool
recirc_get(uint32_t id, struct frozen_state *state)
{
    ovs_mutex_lock(&mutex);
    struct recirc_node *node = find_by_id(id);
    if (node) {
        *state = node->state;
        state->userdata = (node->state.userdata_len
                           ? xmemdup(node->state.userdata,
                                     node->state.userdata_len)
                           : NULL);
    }
    ovs_mutex_unlock(&mutex);
    return node != NULL;
}

static void
free_unused(long long int before)
{
    ovs_mutex_lock(&mutex);
    struct recirc_node *node;
    LIST_FOR_EACH_SAFE (node, unused_node, &unused) {
        if (node->unused_since > before) {
            break;              /* The list is in order of time. */
        }
        ovs_list_remove(&node->unused_node);
        hmap_remove(&by_id, &node->id_node);
        free((void *) node->state.userdata);
        free(node);
    }
    ovs_mutex_unlock(&mutex);
}

void
recirc_run(void)
{
    free_unused(time_usec_real() / 1000 - RECIRC_LINGER_MS);
}

void
recirc_flush(void)
{
    free_unused(LLONG_MAX);
}
