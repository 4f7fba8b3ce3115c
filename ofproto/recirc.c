/* recirc: see recirc.h. */
#include <config.h>
#include "recirc.h"

#include <stdlib.h>
#include <string.h>
#include "hash.h"
#include "hmap.h"
#include "list.h"
#include "ofpbuf.h"
#include "ovs-thread.h"
#include "timeval.h"
#include "util.h"

struct recirc_node {
    struct hmap_node id_node;       /* In 'by_id'. */
    struct hmap_node state_node;    /* In 'by_state' while referenced. */
    struct ovs_list expiring_node;  /* In 'expiring' while not. */
    uint32_t id;
    unsigned int refcount;
    long long int released;         /* time_msec() of the last release. */
    long long int released_real;    /* Real time of it, ms. */
    size_t len;
    uint8_t state[];
};

static struct ovs_mutex mutex = OVS_MUTEX_INITIALIZER;
static struct hmap by_id = HMAP_INITIALIZER(&by_id);
static struct hmap by_state = HMAP_INITIALIZER(&by_state);
/* Unreferenced nodes, oldest release first. */
static struct ovs_list expiring = OVS_LIST_INITIALIZER(&expiring);
static uint32_t next_id = 1;

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

/* Frees the nodes whose grace time is over.  With the mutex. */
static void
expire(void)
{
    long long int now = time_msec();
    long long int now_real = time_usec_real() / 1000;
    while (!ovs_list_is_empty(&expiring)) {
        struct recirc_node *node = CONTAINER_OF(ovs_list_front(&expiring),
                                                struct recirc_node,
                                                expiring_node);
        if (now - node->released < RECIRC_GRACE_MS
            || now_real - node->released_real < RECIRC_GRACE_MS) {
            break;
        }
        ovs_list_remove(&node->expiring_node);
        hmap_remove(&by_id, &node->id_node);
        free(node);
    }
}

/* Takes a reference to NODE.  With the mutex. */
static void
node_ref(struct recirc_node *node)
{
    if (!node->refcount++) {
        ovs_list_remove(&node->expiring_node);
        hmap_insert(&by_state, &node->state_node,
                    hash_bytes(node->state, node->len, 0));
    }
}

uint32_t
recirc_alloc_id(const void *state, size_t len)
{
    uint32_t hash = hash_bytes(state, len, 0);
    struct recirc_node *node;

    ovs_mutex_lock(&mutex);
    expire();
    HMAP_FOR_EACH_WITH_HASH (node, state_node, hash, &by_state) {
        if (node->len == len && !memcmp(node->state, state, len)) {
            node->refcount++;
            goto out;
        }
    }
    /* A fresh id: never 0 (no recirculation), never one still known. */
    while (!next_id || find_by_id(next_id)) {
        next_id++;
    }
    node = xmalloc(sizeof *node + len);
    node->id = next_id++;
    node->refcount = 1;
    node->released = 0;
    node->len = len;
    memcpy(node->state, state, len);
    hmap_insert(&by_id, &node->id_node, hash_int(node->id, 0));
    hmap_insert(&by_state, &node->state_node, hash);
out:;
    uint32_t id = node->id;
    ovs_mutex_unlock(&mutex);
    return id;
}

bool
recirc_ref_id(uint32_t id)
{
    ovs_mutex_lock(&mutex);
    struct recirc_node *node = find_by_id(id);
    if (node) {
        node_ref(node);
    }
    ovs_mutex_unlock(&mutex);
    return node != NULL;
}

void
recirc_unref_id(uint32_t id)
{
    ovs_mutex_lock(&mutex);
    struct recirc_node *node = find_by_id(id);
    if (node && node->refcount && !--node->refcount) {
        hmap_remove(&by_state, &node->state_node);
        node->released = time_msec();
        node->released_real = time_usec_real() / 1000;
        ovs_list_push_back(&expiring, &node->expiring_node);
    }
    expire();
    ovs_mutex_unlock(&mutex);
}

bool
recirc_find(uint32_t id, struct ofpbuf *out)
{
    ovs_mutex_lock(&mutex);
    struct recirc_node *node = find_by_id(id);
    if (node) {
        ofpbuf_put(out, node->state, node->len);
    }
    ovs_mutex_unlock(&mutex);
    return node != NULL;
}

size_t
recirc_count(void)
{
    ovs_mutex_lock(&mutex);
    size_t n = hmap_count(&by_id);
    ovs_mutex_unlock(&mutex);
    return n;
}

void
recirc_refs_add(struct recirc_refs *refs, uint32_t id)
{
    if (refs->n >= refs->allocated) {
        refs->allocated = refs->allocated ? 2 * refs->allocated : 2;
        refs->ids = xrealloc(refs->ids, refs->allocated * sizeof *refs->ids);
    }
    refs->ids[refs->n++] = id;
}

void
recirc_refs_release(struct recirc_refs *refs)
{
    for (size_t i = 0; i < refs->n; i++) {
        recirc_unref_id(refs->ids[i]);
    }
    free(refs->ids);
    recirc_refs_init(refs);
}

void
recirc_refs_move(struct recirc_refs *dst, struct recirc_refs *src)
{
    recirc_refs_release(dst);
    *dst = *src;
    recirc_refs_init(src);
}
