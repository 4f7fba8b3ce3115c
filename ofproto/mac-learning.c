/* mac-learning: see mac-learning.h. */
#include <config.h>
#include "mac-learning.h"

#include <stdlib.h>
#include <string.h>
#include "coverage.h"
#include "dynamic-string.h"
#include "hash.h"
#include "hmap.h"
#include "list.h"
#include "ovs-thread.h"
#include "poll-loop.h"
#include "seq.h"
#include "timeval.h"
#include "util.h"

COVERAGE_DEFINE(mac_learning_learned);
COVERAGE_DEFINE(mac_learning_expired);
COVERAGE_DEFINE(mac_learning_evicted);
COVERAGE_DEFINE(mac_learning_moved);

struct mac_entry {
    struct hmap_node hmap_node;
    struct ovs_list lru_node;   /* Head: refreshed longest ago. */
    struct eth_addr mac;
    uint16_t vlan;
    void *port;
    long long int expires;      /* time_msec() at which it ages out. */
};

struct mac_learning {
    struct ovs_rwlock rwlock;
    struct hmap table;
    struct ovs_list lru;
    unsigned int idle_time;     /* Seconds. */
    size_t max_entries;
    struct seq *change_seq;
    struct mac_learning_stats stats;
};

static unsigned int
normalize_idle_time(unsigned int t)
{
    return t < MAC_MIN_IDLE_TIME ? MAC_MIN_IDLE_TIME
           : t > MAC_MAX_IDLE_TIME ? MAC_MAX_IDLE_TIME : t;
}

static uint32_t
mac_hash(struct eth_addr mac, uint16_t vlan)
{
    uint64_t word = 0;
    memcpy(&word, mac.ea, ETH_ADDR_LEN);
    return hash_words64(&word, 1, vlan);
}

struct mac_learning *
mac_learning_create(unsigned int idle_time, struct seq *change_seq)
{
    struct mac_learning *ml = xzalloc(sizeof *ml);
    ovs_rwlock_init(&ml->rwlock);
    hmap_init(&ml->table);
    ovs_list_init(&ml->lru);
    ml->idle_time = normalize_idle_time(idle_time);
    ml->max_entries = MAC_DEFAULT_MAX;
    ml->change_seq = change_seq;
    return ml;
}

static void
entry_remove(struct mac_learning *ml, struct mac_entry *e)
{
    hmap_remove(&ml->table, &e->hmap_node);
    ovs_list_remove(&e->lru_node);
    free(e);
}

void
mac_learning_destroy(struct mac_learning *ml)
{
    if (!ml) {
        return;
    }
    struct mac_entry *e;
    HMAP_FOR_EACH_SAFE (e, hmap_node, &ml->table) {
        entry_remove(ml, e);
    }
    hmap_destroy(&ml->table);
    ovs_rwlock_destroy(&ml->rwlock);
    free(ml);
}

/* Evicts the oldest entries until at most MAX remain; wrlock held. */
static size_t
evict_to(struct mac_learning *ml, size_t max)
{
    size_t n = 0;
    while (hmap_count(&ml->table) > max) {
        struct mac_entry *e = CONTAINER_OF(ovs_list_front(&ml->lru),
                                           struct mac_entry, lru_node);
        entry_remove(ml, e);
        ml->stats.n_evicted++;
        COVERAGE_INC(mac_learning_evicted);
        n++;
    }
    return n;
}

void
mac_learning_set_idle_time(struct mac_learning *ml, unsigned int idle_time)
{
    idle_time = normalize_idle_time(idle_time);
    ovs_rwlock_wrlock(&ml->rwlock);
    if (idle_time != ml->idle_time) {
        /* Keep each entry's last refresh time, move its deadline. */
        long long int delta = ((long long int) idle_time
                               - ml->idle_time) * 1000;
        struct mac_entry *e;
        LIST_FOR_EACH (e, lru_node, &ml->lru) {
            e->expires += delta;
        }
        ml->idle_time = idle_time;
    }
    ovs_rwlock_unlock(&ml->rwlock);
}

void
mac_learning_set_max_entries(struct mac_learning *ml, size_t max)
{
    ovs_rwlock_wrlock(&ml->rwlock);
    ml->max_entries = MAX(max, 1);
    size_t n = evict_to(ml, ml->max_entries);
    ovs_rwlock_unlock(&ml->rwlock);
    if (n) {
        seq_change(ml->change_seq);
    }
}

unsigned int
mac_learning_get_idle_time(const struct mac_learning *ml)
{
    return ml->idle_time;
}

size_t
mac_learning_get_max_entries(const struct mac_learning *ml)
{
    return ml->max_entries;
}

static struct mac_entry *
entry_find(const struct mac_learning *ml, struct eth_addr mac, uint16_t vlan)
{
    struct mac_entry *e;
    HMAP_FOR_EACH_WITH_HASH (e, hmap_node, mac_hash(mac, vlan), &ml->table) {
        if (e->vlan == vlan && eth_addr_equals(e->mac, mac)) {
            return e;
        }
    }
    return NULL;
}

void *
mac_learning_lookup(struct mac_learning *ml, struct eth_addr mac,
                    uint16_t vlan)
{
    ovs_rwlock_rdlock(&ml->rwlock);
    struct mac_entry *e = entry_find(ml, mac, vlan);
    void *port = e ? e->port : NULL;
    ovs_rwlock_unlock(&ml->rwlock);
    return port;
}

bool
mac_learning_learn(struct mac_learning *ml, struct eth_addr mac,
                   uint16_t vlan, void *port)
{
    long long int now = time_msec();
    bool changed = false;

    ovs_rwlock_wrlock(&ml->rwlock);
    struct mac_entry *e = entry_find(ml, mac, vlan);
    if (!e) {
        e = xzalloc(sizeof *e);
        e->mac = mac;
        e->vlan = vlan;
        e->port = port;
        hmap_insert(&ml->table, &e->hmap_node, mac_hash(mac, vlan));
        ovs_list_push_back(&ml->lru, &e->lru_node);
        ml->stats.n_learned++;
        COVERAGE_INC(mac_learning_learned);
        evict_to(ml, ml->max_entries);
        changed = true;
    } else {
        if (e->port != port) {
            e->port = port;
            ml->stats.n_moved++;
            COVERAGE_INC(mac_learning_moved);
            changed = true;
        }
        ovs_list_remove(&e->lru_node);
        ovs_list_push_back(&ml->lru, &e->lru_node);
    }
    e->expires = now + (long long int) ml->idle_time * 1000;
    ovs_rwlock_unlock(&ml->rwlock);

    if (changed) {
        seq_change(ml->change_seq);
    }
    return changed;
}

size_t
mac_learning_run(struct mac_learning *ml)
{
    long long int now = time_msec();
    size_t n = 0;

    ovs_rwlock_wrlock(&ml->rwlock);
    while (!ovs_list_is_empty(&ml->lru)) {
        struct mac_entry *e = CONTAINER_OF(ovs_list_front(&ml->lru),
                                           struct mac_entry, lru_node);
        if (e->expires > now) {
            break;
        }
        entry_remove(ml, e);
        ml->stats.n_expired++;
        COVERAGE_INC(mac_learning_expired);
        n++;
    }
    ovs_rwlock_unlock(&ml->rwlock);
    if (n) {
        seq_change(ml->change_seq);
    }
    return n;
}

void
mac_learning_wait(struct mac_learning *ml)
{
    ovs_rwlock_rdlock(&ml->rwlock);
    if (!ovs_list_is_empty(&ml->lru)) {
        const struct mac_entry *e = CONTAINER_OF(ovs_list_front(&ml->lru),
                                                 struct mac_entry, lru_node);
        poll_timer_wait_until(e->expires);
    }
    ovs_rwlock_unlock(&ml->rwlock);
}

void
mac_learning_flush(struct mac_learning *ml)
{
    ovs_rwlock_wrlock(&ml->rwlock);
    bool any = !hmap_is_empty(&ml->table);
    struct mac_entry *e;
    HMAP_FOR_EACH_SAFE (e, hmap_node, &ml->table) {
        entry_remove(ml, e);
    }
    ovs_rwlock_unlock(&ml->rwlock);
    if (any) {
        seq_change(ml->change_seq);
    }
}

void
mac_learning_flush_port(struct mac_learning *ml, void *port)
{
    bool any = false;
    ovs_rwlock_wrlock(&ml->rwlock);
    struct mac_entry *e;
    HMAP_FOR_EACH_SAFE (e, hmap_node, &ml->table) {
        if (e->port == port) {
            entry_remove(ml, e);
            any = true;
        }
    }
    ovs_rwlock_unlock(&ml->rwlock);
    if (any) {
        seq_change(ml->change_seq);
    }
}

size_t
mac_learning_count(struct mac_learning *ml)
{
    ovs_rwlock_rdlock(&ml->rwlock);
    size_t n = hmap_count(&ml->table);
    ovs_rwlock_unlock(&ml->rwlock);
    return n;
}

void
mac_learning_get_stats(struct mac_learning *ml,
                       struct mac_learning_stats *stats)
{
    ovs_rwlock_rdlock(&ml->rwlock);
    *stats = ml->stats;
    ovs_rwlock_unlock(&ml->rwlock);
}

size_t
mac_learning_collect(struct mac_learning *ml, const void *except,
                     struct eth_addr *macs, uint16_t *vlans, size_t max)
{
    size_t n = 0;
    ovs_rwlock_rdlock(&ml->rwlock);
    const struct mac_entry *e;
    LIST_FOR_EACH (e, lru_node, &ml->lru) {
        if (n >= max) {
            break;
        }
        if (e->port != except) {
            macs[n] = e->mac;
            vlans[n++] = e->vlan;
        }
    }
    ovs_rwlock_unlock(&ml->rwlock);
    return n;
}

void
mac_learning_format(struct mac_learning *ml, struct ds *out,
                    const char *(*port_name)(void *aux, void *port),
                    void *aux)
{
    long long int now = time_msec();

    ovs_rwlock_rdlock(&ml->rwlock);
    const struct mac_entry *e;
    LIST_FOR_EACH (e, lru_node, &ml->lru) {
        long long int learned = e->expires - (long long int) ml->idle_time
                                * 1000;
        long long int age = now > learned ? (now - learned) / 1000 : 0;
        ds_put_format(out, "%5s  %4d  "ETH_ADDR_FMT"  %3lld\n",
                      port_name(aux, e->port), e->vlan,
                      ETH_ADDR_ARGS(e->mac), age);
    }
    ovs_rwlock_unlock(&ml->rwlock);
}
