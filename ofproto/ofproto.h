/* ofproto: an OpenFlow switch (one per bridge) over a datapath.
 *
 * What it is
 * ----------
 *
 * A struct ofproto is one bridge's OpenFlow switch: OFPROTO_N_TABLES (255)
 * tables of rules on the classifier, a set of ports numbered as OpenFlow
 * numbers them, "bundles" (the ports as the NORMAL action sees them, with
 * their VLAN configuration), a MAC learning table, and the datapath the
 * bridge's packets go through.  Every bridge of one datapath type shares
 * one datapath (a "backer": "ovs-netdev" for type netdev, as in Open
 * vSwitch), and each backer has one pool of upcall handler threads and
 * revalidator threads (upcall.h).  A packet that misses in the datapath is
 * translated through its bridge's tables into datapath actions
 * (xlate.h); the resulting megaflow is installed, wildcarding every field
 * no decision looked at.
 *
 * With fail-mode standalone (the default) a new bridge gets one rule,
 * table 0 priority 0 "actions=NORMAL", so it is a learning switch until
 * someone changes its tables; secure leaves the tables empty.  A table
 * with no matching rule drops.
 *
 * Rules
 * -----
 *
 * struct ofproto_flow_mod says what OpenFlow's flow_mod says: add, modify
 * (loose or strict), delete (loose or strict), with priority, match,
 * cookie (and a cookie mask selecting what modify and delete touch),
 * idle and hard timeouts, flags, an out_port filter for delete, and the
 * actions (ofpact.h).  Loose matching is OpenFlow's: a rule is selected if
 * the flow_mod's match is at least as general as the rule's (classifier.h,
 * cls_rule_is_loose_match()).  A rule keeps packet and byte counters and
 * the time it was last used (pushed up from the datapath by the
 * revalidators), and expires by its timeouts in ofproto_run().
 * ofproto_packet_out() runs an action list on a packet, as OpenFlow's
 * packet_out does.
 *
 * Every change to the tables is made visible to translation at once (a
 * classifier version, versions.h) and signals the revalidators, which
 * re-check the datapath's flows against the new tables.
 *
 * Ports
 * -----
 *
 * ofproto_port_add() puts a netdev on the bridge's datapath under the
 * OpenFlow port number the caller chose (OFPP_LOCAL for the bridge's own
 * port); ofproto_port_del() removes it.  ofproto_port_changed() tells the
 * switch that a port's device changed (carrier, flags): the caller queues
 * ports whose device moved and calls this for each, so nothing here sweeps
 * every port (DESIGN.md, seeds/004).  ofproto_bundle_register() gives
 * NORMAL a port: its member ports (several make a bond; NORMAL sends on
 * the first member whose link is up) and its VLAN mode:
 *
 *   access            untagged on the wire, in VLAN 'vlan' inside;
 *   trunk             tagged with the VLANs in 'trunks' (all if NULL),
 *                     untagged packets are VLAN 0;
 *   native-tagged     like trunk, and untagged input is in 'vlan';
 *                     output in 'vlan' is tagged;
 *   native-untagged   the same, but output in 'vlan' is untagged.
 *
 * A bundle that is unregistered, or whose VLAN configuration changes,
 * loses its learned MAC addresses.
 *
 * Threads and memory
 * ------------------
 *
 * Everything in this header belongs to the main thread.  Upcall handlers
 * and revalidators translate packets on their own threads at the same
 * time; they read rules through the classifier without locks (classifier
 * versions plus RCU-style deferral, ovs-rcu.h: a removed rule is taken out
 * of the classifier and freed only after grace periods) and ports, bundles
 * and configuration under the xlate lock (ofproto-private.h), which the
 * main thread takes for writing around every change to them.  The main
 * loop must call ovsrcu_quiesce() (or quiesce_start/end around blocking)
 * once per iteration.  ofproto owns what it allocates; the caller keeps
 * ownership of netdevs it passes (ofproto takes its own reference) and of
 * flow_mod contents (copied). */
#ifndef OFPROTO_OFPROTO_H
#define OFPROTO_OFPROTO_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "flow.h"
#include "ofpact.h"
#include "packets.h"

struct ds;
struct netdev;
struct ofproto;
struct smap;

/* Registers the unixctl commands (ofproto/trace, fdb/show, dpif/show...).
 * Once, before the first ofproto_create(). */
void ofproto_init(void);

/* Creates bridge NAME on a datapath of DATAPATH_TYPE ("netdev" or "",
 * the same).  Errors: EAFNOSUPPORT for another type, EEXIST for a name in
 * use, or the datapath's error. */
int ofproto_create(const char *name, const char *datapath_type,
                   struct ofproto **);
void ofproto_destroy(struct ofproto *);
struct ofproto *ofproto_lookup(const char *name);
const char *ofproto_name(const struct ofproto *);
/* "ovs-netdev" for type netdev. */
const char *ofproto_datapath_name(const struct ofproto *);

/* Per-iteration work: rule timeouts, MAC aging, handler and revalidator
 * configuration, replies to revalidator/wait.  Cost follows what is due,
 * not the number of ports or rules. */
void ofproto_run(struct ofproto *);
void ofproto_wait(struct ofproto *);
/* Work shared by all bridges (the datapaths' housekeeping). */
void ofproto_run_global(void);
void ofproto_wait_global(void);
/* Stops every handler and revalidator thread (before exit). */
void ofproto_exit(void);

/* Configuration. */
enum ofproto_fail_mode {
    OFPROTO_FAIL_STANDALONE,    /* A learning switch when nothing else. */
    OFPROTO_FAIL_SECURE,        /* Only what the tables say. */
};
/* A change of mode empties every table, as Open vSwitch 3.1 does, and a
 * bridge that becomes standalone gets its priority-0 NORMAL rule back.
 * Setting the mode it already has changes nothing. */
void ofproto_set_fail_mode(struct ofproto *, enum ofproto_fail_mode);
void ofproto_set_datapath_id(struct ofproto *, uint64_t);
uint64_t ofproto_get_datapath_id(const struct ofproto *);
void ofproto_set_mac_table_config(struct ofproto *, unsigned int idle_time,
                                  size_t max_entries);
/* Global settings (Open_vSwitch other_config): handler and revalidator
 * thread counts (0: the default for this machine), the datapath flow
 * limit and the idle time of datapath flows (ms). */
void ofproto_set_threads(unsigned int n_handlers,
                         unsigned int n_revalidators);
void ofproto_set_flow_limit(unsigned int);
void ofproto_set_max_idle(unsigned int max_idle_ms);
/* The datapath's version string, for Bridge:datapath_version. */
const char *ofproto_datapath_version(void);

/* Ports. */
int ofproto_port_add(struct ofproto *, struct netdev *, uint16_t ofp_port);
void ofproto_port_del(struct ofproto *, uint16_t ofp_port);
/* Renumbers a port (ofport_request moved it). */
int ofproto_port_set_number(struct ofproto *, uint16_t old_ofp_port,
                            uint16_t new_ofp_port);
/* The port's device changed (carrier, flags): re-reads what NORMAL
 * depends on. */
void ofproto_port_changed(struct ofproto *, uint16_t ofp_port);
bool ofproto_port_exists(const struct ofproto *, uint16_t ofp_port);
/* The port's datapath port number, or UINT32_MAX. */
uint32_t ofproto_port_get_odp_port(const struct ofproto *, uint16_t);

/* Bundles: the ports NORMAL switches between.  AUX identifies the bundle
 * (the caller's port); registering an existing AUX reconfigures it. */
enum port_vlan_mode {
    PORT_VLAN_ACCESS,
    PORT_VLAN_TRUNK,
    PORT_VLAN_NATIVE_TAGGED,
    PORT_VLAN_NATIVE_UNTAGGED,
};
struct ofproto_bundle_settings {
    const char *name;
    const uint16_t *members;    /* OpenFlow port numbers. */
    size_t n_members;
    enum port_vlan_mode vlan_mode;
    int vlan;                   /* Access or native VLAN, -1 if none. */
    const unsigned long *trunks; /* 4096-bit bitmap, or NULL for all. */
};
void ofproto_bundle_register(struct ofproto *, void *aux,
                             const struct ofproto_bundle_settings *);
void ofproto_bundle_unregister(struct ofproto *, void *aux);

/* Rules. */
enum ofproto_fm_command {
    OFPROTO_FM_ADD,
    OFPROTO_FM_MODIFY,
    OFPROTO_FM_MODIFY_STRICT,
    OFPROTO_FM_DELETE,
    OFPROTO_FM_DELETE_STRICT,
};

/* Rule flags (OpenFlow's OFPFF_*). */
#define OFPROTO_FF_SEND_FLOW_REM (1 << 0)
#define OFPROTO_FF_CHECK_OVERLAP (1 << 1)
#define OFPROTO_FF_RESET_COUNTS  (1 << 2)
#define OFPROTO_FF_NO_PKT_COUNTS (1 << 3)
#define OFPROTO_FF_NO_BYT_COUNTS (1 << 4)

struct ofproto_flow_mod {
    enum ofproto_fm_command command;
    uint8_t table_id;           /* 255: every table (modify/delete). */
    struct flow match;          /* in_port is an OpenFlow port number. */
    struct flow_wildcards wc;
    int priority;
    uint64_t cookie;            /* For add: the new rule's cookie. */
    uint64_t cookie_mask;       /* Modify/delete: rules whose cookie
                                 * agrees on these bits (0: any). */
    uint16_t idle_timeout, hard_timeout;    /* Seconds, 0: none. */
    uint16_t flags;             /* OFPROTO_FF_*. */
    uint16_t out_port;          /* Delete: only rules that output here
                                 * (OFPP_NONE: any). */
    bool modify_may_add;        /* Modify with no match adds (OF1.0). */
    const struct ofpact *ofpacts;
    size_t n_ofpacts;
};
/* Initializes FM: command ADD in table 0, catch-all match, priority
 * 32768 (OpenFlow's default), no timeouts, out_port OFPP_NONE. */
void ofproto_flow_mod_init(struct ofproto_flow_mod *);
/* Applies FM.  Returns 0, EEXIST (CHECK_OVERLAP found an overlap),
 * EINVAL (bad table or priority), or ENOSPC. */
int ofproto_flow_mod(struct ofproto *, const struct ofproto_flow_mod *);
/* Deletes every rule of every table. */
void ofproto_flush_flows(struct ofproto *);

/* A rule as ofproto_dump_rules() reports it. */
struct ofproto_rule_info {
    uint8_t table_id;
    int priority;
    struct flow match;
    struct flow_wildcards wc;
    uint64_t cookie;
    uint16_t idle_timeout, hard_timeout, flags;
    long long int created;      /* time_msec(). */
    long long int used;         /* Last packet (time_msec()), or created. */
    uint64_t n_packets, n_bytes;
    struct ofpact *ofpacts;     /* Owned by the info. */
    size_t n_ofpacts;
};
/* Every rule, table by table, highest priority first (the caller frees
 * with ofproto_rule_infos_free()). */
void ofproto_dump_rules(struct ofproto *, struct ofproto_rule_info **,
                        size_t *n);
void ofproto_rule_infos_free(struct ofproto_rule_info *, size_t n);
size_t ofproto_count_rules(const struct ofproto *);

/* Runs OFPACTS on PACKET (SIZE bytes) as received on IN_PORT (an OpenFlow
 * port number, or OFPP_NONE/OFPP_CONTROLLER for none).  EINVAL if the
 * packet is not an Ethernet frame. */
int ofproto_packet_out(struct ofproto *, const void *packet, size_t size,
                       uint16_t in_port, const struct ofpact *,
                       size_t n_ofpacts);

/* Statistics for Interface:statistics: the port's device counters. */
struct netdev *ofproto_port_get_netdev(const struct ofproto *, uint16_t);

/* "memory/show" contributions: "handlers:N ports:N revalidators:N
 * rules:N udpif keys:N". */
void ofproto_get_memory_usage(struct ds *);

#endif /* ofproto/ofproto.h */
