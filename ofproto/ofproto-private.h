/* ofproto-private: the structures shared by ofproto's own files
 * (ofproto.c, ofproto-rules.c, xlate.c, upcall.c, ofproto-unixctl.c).
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
 * Groups (ofproto-groups.c) are in the second class: the main thread
 * changes a bridge's 'groups' map, and replaces or frees a group, only
 * under the write lock, so a group a translator looked up stays valid
 * while it holds the read lock.  Their counters are relaxed atomics.
 *
 * The MAC learning table has its own lock (mac-learning.h).
 *
 * Learned flows: a translator that runs a learn action with side effects
 * on (XIN->may_learn) queues the flow_mod under 'learn_mutex' and wakes
 * the main thread through 'events_seq'; the main thread applies the queue
 * (ofproto-learn.c). */
#ifndef OFPROTO_OFPROTO_PRIVATE_H
#define OFPROTO_OFPROTO_PRIVATE_H 1

#include <stdatomic.h>
#include "classifier.h"
#include "heap.h"
#include "hmap.h"
#include "list.h"
#include "ofp-actions.h"
#include "ofp-group.h"
#include "ofp-meter.h"
#include "ofp-phy-port.h"
#include "ofproto.h"
#include "ovs-rcu.h"
#include "ovs-thread.h"
#include "tun-metadata.h"
#include "versions.h"

struct dpif;
struct mac_learning;
struct seq;
struct udpif;
struct flow;
struct frozen_packet_in;
struct odp_cookie;
struct tnl_port;

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

/* BFD, CFM, LACP, STP or RSTP, LLDP: at most one of each per port. */
#define OFPORT_MAX_PROTOCOLS 6

struct ofport {
    struct hmap_node hmap_node; /* In ofproto->ports, by ofp_port. */
    struct hmap_node odp_node;  /* In backer->odp_to_ofport. */
    struct ofproto *ofproto;
    struct netdev *netdev;      /* One reference of ours. */
    char *name;
    uint16_t ofp_port;
    uint32_t odp_port;
    bool may_enable;            /* Link up: NORMAL may use it. */
    /* The OpenFlow config bits a port_mod set that are not the device's
     * (OFPUTIL_PC_NO_RECV, NO_FWD, NO_FLOOD, NO_PACKET_IN, NO_STP,
     * NO_RECV_STP); PORT_DOWN is the netdev's own flag.  Translators read
     * it under the xlate lock. */
    uint32_t config;
    bool live;                  /* Link up and admin up: fast failover
                                 * may use it (xlate_rwlock). */
    long long int created;      /* time_msec() it was added. */
    struct ofputil_phy_port pp; /* As last reported in a port_status. */
    struct ofbundle *bundle;    /* NULL if NORMAL does not know it. */
    struct ovs_list bundle_node;
    /* Per-port protocols attached (port-protocol.h), which translation
     * hands their packets and whose link_ok() is part of 'may_enable' and
     * 'live' (xlate_rwlock). */
    struct port_protocol *protocols[OFPORT_MAX_PROTOCOLS];
    size_t n_protocols;
    /* The spanning tree port state its protocols set (may_forward(),
     * may_learn()): 'fwd_blocker' names the protocol that keeps the port
     * from carrying data (NULL: none), 'learns' whether NORMAL may learn
     * from what it receives (xlate_rwlock). */
    const char *fwd_blocker;
    bool learns;
    /* LACP on this port (its bundle's, lacp-member.h), or NULL; and
     * whether LACP lets it carry traffic (true without LACP;
     * xlate_rwlock). */
    struct lacp_member *lacp_member;
    bool lacp_enabled;
    /* Spanning tree (STP or RSTP) on this port: its bridge's member
     * (tree-member.h), or NULL (main thread). */
    struct tree_member *tree;

    /* Patch ports (ofport-patch.h): no datapath port ('odp_port' is
     * DPIF_PORT_NONE); 'peer' is the other end while paired (xlate_rwlock),
     * 'patch_peer' the peer name it was paired by (main thread). */
    bool is_patch;
    struct ofport *peer;
    char *patch_peer;
    struct hmap_node patch_node;    /* In ofport-patch.c's map, by name. */
    /* Its entry in the tunnel map (tunnel.h), NULL for a port that is no
     * tunnel.  A tunnel port shares 'odp_port' with the other tunnels of
     * its type and UDP port and is not in the backer's odp_to_ofport. */
    struct tnl_port *tnl;
};

struct ofbundle {
    struct hmap_node hmap_node; /* In ofproto->bundles, by aux. */
    struct ofproto *ofproto;
    void *aux;
    char *name;
    /* The main loop round it was created in (ofproto_run_round): NORMAL
     * floods to older bundles first, as 3.1 floods in creation order, and
     * to those of one round (one reconfiguration) by port number. */
    uint64_t created_round;
    struct ovs_list ports;      /* struct ofport's bundle_node. */
    enum port_vlan_mode vlan_mode;
    int vlan;                   /* -1: none. */
    unsigned long *trunks;      /* NULL: every VLAN. */
    /* A bond (bond.h) when the bundle has several members and bond
     * settings, else NULL; its members are the ports' struct ofport. */
    struct bond *bond;
    struct heap_node bond_node; /* In ofproto->bond_timers with a bond. */
    /* A balance-tcp bond's recirculation id and internal rules
     * (bond-rules.h), else NULL. */
    struct bond_rules *bond_rules;
    bool bond_mac_queued;       /* In ofproto->bond_mac_changed. */
    struct lacp_bond *lacp;     /* LACP on the members, or NULL. */
};

struct oftable {
    struct classifier cls;
    size_t n_rules;             /* Visible rules (main thread). */
    /* Packets looked up here and those that matched, added to by the
     * translations that credit statistics (relaxed atomics). */
    _Atomic uint64_t n_lookups, n_matched;
    /* What a miss does (enum ofputil_table_miss, set by a 1.1/1.2
     * table_mod; translators read it without a lock). */
    _Atomic uint8_t miss_config;
    /* 1.4+ table_mod settings, reported in table desc (main thread). */
    bool eviction;
    bool vacancy_events;
    uint8_t vacancy_down, vacancy_up;
    uint8_t vacancy_next;       /* OFPTR_VACANCY_*: the event armed. */

    /* The database's Flow_Table settings (ofproto_configure_table()) and
     * the name OpenFlow gave it (main thread). */
    char *name;                 /* NULL: none configured. */
    char *of_name;              /* NULL: none given over OpenFlow. */
    unsigned int max_flows;     /* UINT_MAX: no limit. */
    bool evict_config;          /* overflow_policy=evict. */
    struct mf_subfield *groups; /* Eviction fairness (owned). */
    size_t n_groups;
};

/* Whether a full table evicts (the database or a 1.4 table_mod says so)
 * rather than refusing new rules. */
static inline bool
oftable_evicts(const struct oftable *table)
{
    return table->evict_config || table->eviction;
}

/* A rule's actions: lib ofpacts (ofp-actions.h), OFPACTS_LEN bytes. */
struct rule_actions {
    size_t ofpacts_len;
    struct ofpact ofpacts[];
};

struct rule {
    struct cls_rule cr;         /* In ofproto->tables[table_id].cls. */
    struct ofproto *ofproto;
    uint8_t table_id;
    ovs_be64 cookie;
    uint16_t idle_timeout, hard_timeout, flags, importance;
    long long int created, modified;    /* time_msec(). */
    _Atomic uint64_t n_packets, n_bytes;
    _Atomic long long int used;         /* Last packet, 0 never. */
    OVSRCU_TYPE(const struct rule_actions *) actions;
    struct ovs_list expirable_node;     /* ofproto->expirable, if timed. */
    bool removed;                       /* Main thread only. */
    bool hidden;                        /* Fail-open's: in no dump, query
                                         * or flow_mod. */
    /* ofproto->change_seqno when the flow was added (kept across
     * modifies) and last added or modified, for paused flow monitors. */
    uint64_t add_seqno, modify_seqno;
};

struct ofproto {
    struct hmap_node hmap_node; /* In all_ofprotos, by name. */
    char *name;
    uint32_t id;                /* Unique in the process (packet-ins). */
    struct dpif_backer *backer;
    uint64_t datapath_id;
    enum ofproto_fail_mode fail_mode;

    struct oftable tables[OFPROTO_N_TABLES];
    _Atomic ovs_version_t tables_version;
    size_t n_rules;
    struct ovs_list expirable;  /* Rules with timeouts. */
    struct ovs_list flow_removed;   /* struct ofproto_flow_removed. */
    struct ovs_list port_status;    /* struct ofproto_port_status. */
    struct ovs_list table_status;   /* struct ofproto_table_status. */
    struct seq *events_seq;     /* Changes when an event is queued. */
    /* Packet-ins come from handler threads: the list is under its own
     * mutex, taken briefly by a handler to append and by the main thread
     * to take everything at once into 'packet_ins_taken' (main thread
     * only), which it pops without the lock. */
    struct ovs_mutex pin_mutex;
    struct ovs_list packet_ins;
    size_t n_packet_ins;
    struct ovs_list packet_ins_taken;
    /* Whether a table miss goes to the controller (a connected controller
     * speaks OpenFlow 1.0-1.2); read by translators without a lock. */
    _Atomic bool miss_to_controller;
    bool has_controllers;       /* Some Bridge:controller is configured. */
    struct rule *fail_open_rule;    /* Hidden NORMAL rule, or NULL. */
    long long int next_expiry;  /* LLONG_MAX: none. */

    /* Flows learn actions asked for (ofproto-learn.c): queued by any
     * thread under 'learn_mutex', applied by the main thread. */
    struct ovs_mutex learn_mutex;
    struct ovs_list learned;    /* struct learned_flow. */
    size_t n_learned;
    uint64_t events_seen;       /* events_seq when last run (main). */
    struct ovs_list unlearn;    /* delete_learned work (main thread). */

    struct hmap ports;          /* struct ofport, by ofp_port. */
    struct hmap bundles;        /* struct ofbundle, by aux. */
    /* Spanning tree, at most one, or NULL (main thread). */
    struct stp_bridge *stp;
    struct rstp_bridge *rstp;
    /* The bundles with bonds, by when their bond next has something to do
     * (bond_run()): the main loop runs only those that are due. */
    struct heap bond_timers;
    /* The auxes of bundles whose bond's active member changed, for the
     * caller's bond_active_slave (ofproto_take_bond_changes()). */
    void **bond_mac_changed;
    size_t n_bond_mac_changed, allocated_bond_mac_changed;
    struct mac_learning *ml;
    /* Whether NORMAL forwards frames to reserved group addresses
     * (eth_addr_is_reserved(): BPDUs, LACPDUs, ...), which it otherwise
     * drops (xlate_rwlock). */
    bool forward_bpdu;
    struct hmap groups;         /* struct ofgroup, by group_id. */
    struct hmap meters;         /* struct ofmeter, by meter_id. */
    struct tun_table tun_table; /* TLV map (ofproto-tlv.c). */
    /* tun_metadata0..63 with the map's length in their NXM headers: the
     * sub-fields of flows' actions point here (ofproto-tlv.c). */
    struct mf_field tlv_fields[TUN_METADATA_NUM_OPTS];

    /* Flow monitors' view of table changes (main thread). */
    void (*flow_change_cb)(const struct ofproto_flow_change *, void *aux);
    void *flow_change_aux;
    const void *change_origin;
    ovs_be32 change_xid;
    uint64_t change_serial;
    uint64_t change_seqno;      /* Counts rule adds and modifies. */
};

/* An OpenFlow meter: its configuration here, its token buckets and
 * counters in the datapath under 'dp_meter_id' (unique in the process:
 * bridges share the datapath).  Under xlate_rwlock like groups. */
struct ofmeter {
    struct hmap_node hmap_node; /* In ofproto->meters, by meter_id. */
    uint32_t meter_id;
    uint32_t dp_meter_id;
    uint16_t flags;             /* OFPMF13_*. */
    uint16_t n_bands;
    struct ofputil_meter_band *bands;   /* Owned. */
    long long int created;      /* time_msec(). */
};

/* A group's bucket: its actions and, for select and fast failover
 * groups, its weight and what it watches. */
struct ofgroup_bucket {
    uint32_t bucket_id;
    uint16_t weight;
    uint32_t watch_port;        /* OFPP_ANY: none. */
    uint32_t watch_group;       /* OFPG_ANY: none. */
    struct ofpact *ofpacts;     /* Owned. */
    size_t ofpacts_len;
    _Atomic uint64_t n_packets, n_bytes;
};

/* An OpenFlow group (OFPGT11_*).  Replaced whole by a modify, so that the
 * buckets a translator walks never change under it (see above). */
struct ofgroup {
    struct hmap_node hmap_node; /* In ofproto->groups, by group_id. */
    uint32_t group_id;
    uint8_t type;
    long long int created;      /* time_msec(). */
    size_t n_buckets;
    struct ofgroup_bucket *buckets;
    struct ofputil_group_props props;   /* Select groups' method. */
    _Atomic uint64_t n_packets, n_bytes;
};

/* Counts main loop rounds (ofproto_run_global()). */
extern uint64_t ofproto_run_round;

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
/* The port a packet of FLOW (in_port a datapath port number) arrived on:
 * for a packet with tunnel metadata the tunnel port its outer header
 * names (tunnel.h), otherwise the port of its datapath port; NULL if none
 * (xlate_rwlock held). */
struct ofport *backer_flow_to_ofport(const struct dpif_backer *,
                                     const struct flow *);
struct dpif_backer *ofproto_get_backer(const char *type);
/* The backer of type netdev, or NULL if no bridge uses it. */
struct dpif_backer *ofproto_first_backer(void);

/* Sends PACKET out of PORT through translation, as a packet_out with
 * in_port NONE and one output action would (so a patch port or a tunnel
 * does its part), xlate_rwlock held for reading.  For the monitor's
 * protocol transmissions; the caller keeps PACKET. */
struct dp_packet;
int ofport_send_packet(struct ofport *, struct dp_packet *);
/* Runs PACKET through PORT's bridge as received on PORT (output:TABLE with
 * in_port PORT), xlate_rwlock held for reading; translation may call it
 * (native tunneling's ARP requests and neighbour solicitations).  The
 * caller keeps PACKET. */
int ofport_inject_packet(const struct ofport *, struct dp_packet *);

/* The monitor (monitor.c).  ofport_detach_protocols() detaches what is
 * attached to PORT, which is going (xlate_rwlock held for writing);
 * ofproto_monitor_stop_if_idle() then stops the monitor thread if no
 * protocol is left anywhere (main thread, without the lock). */
void ofport_detach_protocols(struct ofport *);
/* The same for one protocol P of PORT (xlate_rwlock held for writing). */
void ofport_detach_protocol_locked(struct ofport *, struct port_protocol *);
void ofproto_monitor_stop_if_idle(void);
/* The monitor's control-packet sink (dpif.h) on BACKER's datapath: takes
 * the per-port protocols' packets of slow-pathed flows on the datapath
 * thread, without an upcall.  Added when the backer is made, removed
 * before it is torn down (main thread; on return the sink runs no more). */
void ofproto_monitor_add_backer(struct dpif_backer *);
void ofproto_monitor_remove_backer(struct dpif_backer *);

/* PORT as OpenFlow describes it (features, port desc, port_status). */
void ofport_get_phy_port(const struct ofport *, struct ofputil_phy_port *);

/* The bridge whose 'id' is ID (xlate_rwlock held), or NULL. */
struct ofproto *ofproto_lookup_by_id(uint32_t id);
/* Queues a packet-in for the controller (any thread; copies PACKET and
 * what it needs of STATE): the packet that came up through the controller
 * COOKIE (odp-util.h) naming STATE (xlate.h). */
void ofproto_queue_packet_in(struct ofproto *, const void *packet,
                             size_t size, const struct odp_cookie *,
                             const struct frozen_packet_in *);

/* Adds packet and byte counts to RULE (any thread). */
void rule_credit_stats(struct rule *, uint64_t n_packets, uint64_t n_bytes,
                       long long int used);

/* The group GROUP_ID of OFPROTO, or NULL (main thread, or xlate_rwlock
 * held for reading). */
struct ofgroup *ofproto_group_lookup(const struct ofproto *,
                                     uint32_t group_id);
/* Whether GROUP may be used by a fast failover bucket's watch, or a
 * select bucket (xlate_rwlock held): some bucket of it is live. */
bool ofgroup_is_live(const struct ofproto *, const struct ofgroup *,
                     int depth);
/* Whether BUCKET's watched port and group are live (xlate_rwlock). */
bool ofgroup_bucket_is_live(const struct ofproto *,
                            const struct ofgroup_bucket *, int depth);
/* Adds packet and byte counts to GROUP and BUCKET, each if nonnull (any
 * thread). */
void ofgroup_credit_stats(struct ofgroup *, struct ofgroup_bucket *,
                          uint64_t n_packets, uint64_t n_bytes);
/* Frees every group of OFPROTO (ofproto_destroy()). */
void ofproto_destroy_groups(struct ofproto *);

/* The meter METER_ID of OFPROTO, or NULL (main thread, or xlate_rwlock
 * held for reading). */
struct ofmeter *ofproto_meter_lookup(const struct ofproto *,
                                     uint32_t meter_id);
/* Frees every meter of OFPROTO (ofproto_destroy()). */
void ofproto_destroy_meters(struct ofproto *);

/* Rules (ofproto-rules.c). */
/* Whether the actions (nested write_actions included) send to PORT (an
 * output, enqueue or controller action) or to GROUP. */
bool ofproto_ofpacts_reference(const struct ofpact *, size_t len,
                               uint32_t port, uint32_t group);
/* Deletes the rules that use meter METER_ID, with flow_removed events of
 * reason OFPRR_METER_DELETE; counts them (main thread). */
void ofproto_delete_meter_rules(struct ofproto *, uint32_t meter_id);
uint32_t ofproto_count_meter_rules(struct ofproto *, uint32_t meter_id);
/* Deletes the rules whose actions use group GROUP_ID, with flow_removed
 * events of reason OFPRR_GROUP_DELETE (main thread). */
void ofproto_delete_group_rules(struct ofproto *, uint32_t group_id);
/* A batch of flow_mods (ofproto_flow_mod_batch()'s) driven step by step,
 * for a bundle commit that changes groups between its flow_mods (main
 * thread): each step sees those before it; commit makes them all visible
 * at once (and does their bookkeeping), abort takes them all back.  Both
 * free the batch.  delete_group_rules deletes, in the batch, the rules
 * visible in it that use GROUP_ID (flow_removed reason GROUP_DELETE). */
struct ofproto_batch;
struct ofproto_batch *ofproto_batch_begin(struct ofproto *);
enum ofperr ofproto_batch_flow_mod(struct ofproto_batch *,
                                   const struct ofputil_flow_mod *);
void ofproto_batch_delete_group_rules(struct ofproto_batch *,
                                      uint32_t group_id);
void ofproto_batch_commit(struct ofproto_batch *);
void ofproto_batch_abort(struct ofproto_batch *);
/* How many rules use group GROUP_ID (main thread). */
uint32_t ofproto_count_group_rules(struct ofproto *, uint32_t group_id);
void ofproto_expire_rules(struct ofproto *);
/* The rule a full TABLE_ID gives up at VERSION (ofproto-eviction.c), or
 * NULL if none may go (no rule there has a timeout). */
struct rule *ofproto_eviction_victim(struct ofproto *, uint8_t table_id,
                                     ovs_version_t version);
/* Evicts rules of TABLE_ID, if it evicts, until it holds no more than its
 * limit (after the limit shrank or eviction was turned on). */
void ofproto_table_evict_excess(struct ofproto *, uint8_t table_id);
/* Queues the vacancy events the tables' rule counts call for (see struct
 * ofproto_table_status), after an operation on the tables. */
void ofproto_check_vacancy(struct ofproto *);
/* Table 0, priority 0, actions=NORMAL (fail-mode standalone). */
void ofproto_add_default_rule(struct ofproto *);

/* Internal rules: the switch's own, in OFPROTO_INTERNAL_TABLE, hidden from
 * OpenFlow (no dump, flow_mod, flush or table count sees them), looked up
 * by translations that get there (a bond's recirculation, bond.h).  Main
 * thread only.  Changes are made in a version: begin returns the next
 * one, add and delete prepare changes in it, commit makes them visible at
 * once and revalidates.  set_actions replaces a rule's actions in place
 * (RCU: translations under way keep the old ones), keeping its counters,
 * and needs no version (the caller revalidates).  The ofproto owns the
 * rules: delete hands one back to it (freed after an RCU grace period);
 * a rule must be deleted before its ofproto goes. */
ovs_version_t ofproto_internal_begin(struct ofproto *);
struct rule *ofproto_internal_rule_add(struct ofproto *, ovs_version_t,
                                       const struct match *,
                                       uint16_t priority,
                                       const struct ofpact *ofpacts,
                                       size_t ofpacts_len);
void ofproto_internal_rule_set_actions(struct rule *,
                                       const struct ofpact *ofpacts,
                                       size_t ofpacts_len);
void ofproto_internal_rule_delete(struct ofproto *, ovs_version_t,
                                  struct rule *);
void ofproto_internal_commit(struct ofproto *, ovs_version_t);
/* Bytes the rule's packets carried so far (any thread). */
uint64_t ofproto_rule_get_n_bytes(const struct rule *);

/* Learned flows (ofproto-learn.c). */
struct ofpact_learn;
void ofproto_learn_init(struct ofproto *);
void ofproto_learn_destroy(struct ofproto *);
/* Any thread: whether LEARN learns from FLOW, which is what its result_dst
 * receives: false if LEARN's limit stops it (the table has that many flows
 * with its cookie, counting those queued, and the flow is not one of them)
 * or if the queue is full.  With SIDE_EFFECTS the flow is queued for the
 * main thread to apply. */
bool ofproto_learn(struct ofproto *, const struct ofpact_learn *,
                   const struct flow *, bool side_effects);
/* Main thread: applies the queued flows. */
void ofproto_run_learn(struct ofproto *);
/* Main thread: RULE is going; remembers its delete_learned work, which
 * ofproto_unlearn() does once the change is published. */
void ofproto_learn_rule_removed(struct ofproto *, const struct rule *);
void ofproto_unlearn(struct ofproto *);

/* The TLV map (ofproto-tlv.c), main thread.  A flow_mod's match and
 * actions may use only mapped tun_metadata fields, within their length:
 * ofproto_tlv_check_flow_mod() lays FM's match out as the map says
 * (NXFMFC_INVALID_TLV_FIELD, OFPBMC_BAD_LEN) and checks its actions
 * (NXFMFC_INVALID_TLV_FIELD, OFPBAC_BAD_SET_LEN); if they have
 * tun_metadata sub-fields or set_fields, FM->ofpacts becomes a malloc'd
 * copy (its set_fields fitted to the mapped widths as 3.1's are), returned
 * in *OFPACTS_COPY (else NULL) for the caller to free once done with FM,
 * whose sub-fields point to OFPROTO's tlv_fields, so that they encode with
 * the map's length as 3.1's do.  ofproto_tlv_check_match() does the first
 * for a query's match.  ofproto_rule_get_match() gives RULE's match
 * described by the map, ready to encode or print. */
struct ofputil_tlv_table_mod;
void ofproto_tlv_init(struct ofproto *);
enum ofperr ofproto_tlv_check_flow_mod(const struct ofproto *,
                                       struct ofputil_flow_mod *,
                                       struct ofpact **ofpacts_copy);
enum ofperr ofproto_tlv_check_match(const struct ofproto *, struct match *);
void ofproto_rule_get_match(const struct rule *, struct match *);
/* NXT_TLV_TABLE_MOD (NXTTMFC_INVALID_TLV_DEL for a mapping a flow uses)
 * and the reply to NXT_TLV_TABLE_REQUEST. */
enum ofperr ofproto_tlv_table_mod(struct ofproto *,
                                  const struct ofputil_tlv_table_mod *);
struct ofpbuf *ofproto_tlv_table_reply(const struct ofproto *,
                                       const struct ofp_header *request);

/* Registers the unixctl commands (ofproto-unixctl.c). */
void ofproto_unixctl_init(void);

/* Port names for the datapath text (odp_port_names). */
const char *backer_port_name(void *backer, uint32_t odp_port);

#endif /* ofproto/ofproto-private.h */
