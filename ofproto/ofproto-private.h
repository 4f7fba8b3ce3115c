/* ofproto-private: the structures shared by ofproto's own files
 * (ofproto.c, xlate.c, upcall.c, ofproto-unixctl.c, ofproto-text.c).
 * Nothing outside ofproto/ includes this.
 *
 * Who may read what, from which thread
 * ------------------------------------
 *
 * The main thread is the only writer of everything here.  Upcall handler
 * and revalidator threads (and the main thread itself, for ofproto/trace)
 * translate packets and read:
 *
 *   - rules: through each table's classifier at the ofproto's current
 *     'tables_version' (an atomic), without locks.  A removed rule is made
 *     invisible in a new version, taken out of the classifier from an
 *     ovsrcu_postpone() callback and freed from a second one, so a
 *     translator that found it may use it until it next quiesces.  A
 *     rule's actions are an RCU pointer, replaced by modify; its counters
 *     and 'used' are relaxed atomics that translators add to.
 *
 *   - everything else a translation needs (the list of ofprotos, their
 *     ports and bundles, the backer's datapath-port map, each ofproto's
 *     configuration): under 'xlate_rwlock', taken for reading for a whole
 *     batch by a translator and for writing by the main thread around each
 *     change.  So a bundle pointer a translator got from the MAC table
 *     stays valid while it holds the read lock (bundles are flushed from
 *     the MAC table and freed under the write lock).
 *
 * The MAC learning table has its own lock (mac-learning.h). */
#ifndef OFPROTO_OFPROTO_PRIVATE_H
#define OFPROTO_OFPROTO_PRIVATE_H 1

#include <stdatomic.h>
#include "classifier.h"
#include "hmap.h"
#include "list.h"
#include "ofproto.h"
#include "ovs-rcu.h"
#include "ovs-thread.h"
#include "versions.h"

struct dpif;
struct mac_learning;
struct seq;
struct udpif;

extern struct ovs_rwlock xlate_rwlock;

/* One datapath shared by every bridge of its type. */
struct dpif_backer {
    char *type;                 /* "netdev". */
    struct dpif *dpif;
    unsigned int refcount;      /* Bridges on it. */
    struct hmap odp_to_ofport;  /* struct ofport's odp_node, by odp_port. */
    struct udpif *udpif;        /* Handlers and revalidators. */
    struct seq *reval_seq;      /* Changes when flows need re-checking. */
};

struct ofport {
    struct hmap_node hmap_node; /* In ofproto->ports, by ofp_port. */
    struct hmap_node odp_node;  /* In backer->odp_to_ofport. */
    struct ofproto *ofproto;
    struct netdev *netdev;      /* One reference of ours. */
    char *name;
    uint16_t ofp_port;
    uint32_t odp_port;
    bool may_enable;            /* Link up: NORMAL may use it. */
    struct ofbundle *bundle;    /* NULL if NORMAL does not know it. */
    struct ovs_list bundle_node;
};

struct ofbundle {
    struct hmap_node hmap_node; /* In ofproto->bundles, by aux. */
    struct ofproto *ofproto;
    void *aux;
    char *name;
    struct ovs_list ports;      /* struct ofport's bundle_node. */
    enum port_vlan_mode vlan_mode;
    int vlan;                   /* -1: none. */
    unsigned long *trunks;      /* NULL: every VLAN. */
};

struct oftable {
    struct classifier cls;
};

struct rule_actions {
    size_t n;
    struct ofpact ofpacts[];
};

struct rule {
    struct cls_rule cr;         /* In ofproto->tables[table_id].cls. */
    struct ofproto *ofproto;
    uint8_t table_id;
    uint64_t cookie;
    uint16_t idle_timeout, hard_timeout, flags;
    long long int created, modified;    /* time_msec(). */
    _Atomic uint64_t n_packets, n_bytes;
    _Atomic long long int used;         /* Last packet, 0 never. */
    OVSRCU_TYPE(const struct rule_actions *) actions;
    struct ovs_list expirable_node;     /* ofproto->expirable, if timed. */
    bool removed;                       /* Main thread only. */
};

struct ofproto {
    struct hmap_node hmap_node; /* In all_ofprotos, by name. */
    char *name;
    struct dpif_backer *backer;
    uint64_t datapath_id;
    enum ofproto_fail_mode fail_mode;

    struct oftable tables[OFPROTO_N_TABLES];
    _Atomic ovs_version_t tables_version;
    size_t n_rules;
    struct ovs_list expirable;  /* Rules with timeouts. */
    long long int next_expiry;  /* LLONG_MAX: none. */

    struct hmap ports;          /* struct ofport, by ofp_port. */
    struct hmap bundles;        /* struct ofbundle, by aux. */
    struct mac_learning *ml;
};

/* All bridges, by name (xlate_rwlock for other threads). */
extern struct hmap all_ofprotos;

static inline ovs_version_t
ofproto_tables_version(const struct ofproto *ofproto)
{
    return atomic_load_explicit(&((struct ofproto *) ofproto)->tables_version,
                                memory_order_acquire);
}

struct ofport *ofproto_get_port(const struct ofproto *, uint16_t ofp_port);
/* The port a datapath port number belongs to (xlate_rwlock held). */
struct ofport *backer_odp_to_ofport(const struct dpif_backer *,
                                    uint32_t odp_port);
struct dpif_backer *ofproto_get_backer(const char *type);
/* The backer of type netdev, or NULL if no bridge uses it. */
struct dpif_backer *ofproto_first_backer(void);

/* Adds packet and byte counts to RULE (any thread). */
void rule_credit_stats(struct rule *, uint64_t n_packets, uint64_t n_bytes,
                       long long int used);

/* Registers the unixctl commands (ofproto-unixctl.c). */
void ofproto_unixctl_init(void);

/* Port names for the datapath text (odp_port_names). */
const char *backer_port_name(void *backer, uint32_t odp_port);

#endif /* ofproto/ofproto-private.h */
