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
 * miss drops, or goes to the controller when the connection manager says
 * a controller wants misses (OpenFlow 1.0-1.2; 1.3+ drop).
 *
 * Rules
 * -----
 *
 * A rule is what a flow_mod made it: lib's decoded form (struct
 * ofputil_flow_mod, lib/ofp-flow.h) with lib's actions and instructions
 * (lib/ofp-actions.h), so the connection manager hands decoded messages
 * straight to ofproto_flow_mod().  Loose matching is OpenFlow's: a rule is
 * selected if the flow_mod's match is at least as general as the rule's
 * (classifier.h, cls_rule_is_loose_match()).  A rule keeps packet and
 * byte counters and the time it was last used (pushed up from the
 * datapath by the revalidators), and expires by its timeouts in
 * ofproto_run().  ofproto_packet_out() runs an action list on a packet,
 * as OpenFlow's packet_out does.
 *
 * Translation (xlate.h) runs instructions as OpenFlow 1.3 says:
 * apply_actions at once, write_actions into the action set that runs at
 * the end of the pipeline, clear_actions, write_metadata, goto_table.
 *
 * Events
 * ------
 *
 * Removed rules that asked (flow_removed) and packets for the controller
 * (packet_in) queue up in the ofproto for the connection manager, which
 * waits on ofproto_events_seq().  Packet-ins are produced on the handler
 * threads, so their queue has a mutex; flow_removed events are the main
 * thread's.
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
 * port); ofproto_port_del() removes it.  The port is announced (port
 * status ADD) without OFPPS_LIVE: the caller attaches the port's
 * protocols, then calls ofproto_port_changed(), which announces it live
 * if it is.  ofproto_port_changed() also tells the
 * switch that a port's device changed (carrier, flags): the caller queues
 * ports whose device moved and calls this for each, so nothing here sweeps
 * every port.  ofproto_bundle_register() gives
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
#include "list.h"
#include "match.h"
#include "ofp-errors.h"
#include "ofp-phy-port.h"
#include "ofp-table.h"
#include "openflow.h"
#include "packets.h"

struct ds;
struct netdev;
struct ofpact;
struct ofproto;
struct ofputil_flow_mod;
struct ofputil_group_features;
struct ofputil_group_mod;
struct ofputil_meter_features;
struct ofputil_meter_mod;
struct seq;
struct smap;

/* Registers the unixctl commands (ofproto/trace, fdb/show, dpif/show...).
 * Once, before the first ofproto_create(). */
void ofproto_init(void);

/* Connection tracking timeout policies of datapath type DP_TYPE's zones
 * (ofproto/ct-zones.h): the N in ZONES replace what was set before. */
struct ct_zone_policy;
void ofproto_set_ct_zone_policies(const char *dp_type,
                                  const struct ct_zone_policy *zones,
                                  size_t n);

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
/* A change of mode empties every table and deletes every group and meter,
 * as Open vSwitch 3.1 does, and a bridge that becomes standalone gets its
 * priority-0 NORMAL rule back.
 * Setting the mode it already has changes nothing. */
void ofproto_set_fail_mode(struct ofproto *, enum ofproto_fail_mode);
enum ofproto_fail_mode ofproto_get_fail_mode(const struct ofproto *);
/* Whether the bridge has controllers configured.  Gaining the first or
 * losing the last empties the tables and deletes the groups and meters
 * (as Open vSwitch 3.1 does), and a
 * standalone bridge without controllers gets its NORMAL rule back. */
void ofproto_set_has_controllers(struct ofproto *, bool);
/* Fail-open: while on, a hidden rule (table 0, priority 0xf0f0f0, above
 * any OpenFlow priority) forwards everything with NORMAL.  It appears in
 * no dump or query and no flow_mod touches it. */
#define OFPROTO_FAIL_OPEN_PRIORITY 0xf0f0f0
void ofproto_set_fail_open(struct ofproto *, bool);
void ofproto_set_datapath_id(struct ofproto *, uint64_t);
uint64_t ofproto_get_datapath_id(const struct ofproto *);
/* Spanning tree (ofproto/stp-member.h): S turns STP on for the bridge or
 * reconfigures it, NULL turns it off.  Then per port: S makes the port
 * take part, NULL leaves it out; OWNER is the port's change-queue owner
 * (the caller's interface, port-protocol.h). */
struct stp_bridge_settings;
struct stp_port_settings;
void ofproto_set_stp(struct ofproto *, const struct stp_bridge_settings *);
bool ofproto_has_stp(const struct ofproto *);
/* The bridge's and a port's spanning tree status; false if there is no
 * tree (or the port takes no part). */
struct stp_bridge_status;
struct stp_port_status;
bool ofproto_get_stp_status(const struct ofproto *,
                            struct stp_bridge_status *);
bool ofproto_port_get_stp_status(const struct ofproto *, uint16_t ofp_port,
                                 struct stp_port_status *);
void ofproto_port_set_stp(struct ofproto *, uint16_t ofp_port,
                          const struct stp_port_settings *, void *owner);
/* The same for RSTP (ofproto/rstp-member.h).  A bridge runs one tree at a
 * time: the caller turns one off before it turns the other on. */
struct rstp_bridge_settings;
struct rstp_port_settings;
struct rstp_status;
struct rstp_port_status;
void ofproto_set_rstp(struct ofproto *, const struct rstp_bridge_settings *);
bool ofproto_has_rstp(const struct ofproto *);
bool ofproto_get_rstp_status(const struct ofproto *, struct rstp_status *);
bool ofproto_port_get_rstp_status(const struct ofproto *, uint16_t ofp_port,
                                  struct rstp_port_status *);
void ofproto_port_set_rstp(struct ofproto *, uint16_t ofp_port,
                           const struct rstp_port_settings *, void *owner);
/* Bridge other_config:forward-bpdu: whether NORMAL forwards frames to
 * reserved group addresses (802.1D's 01:80:c2:00:00:0x, ...) instead of
 * dropping them, as a bridge must (off by default). */
void ofproto_set_forward_bpdu(struct ofproto *, bool);
void ofproto_set_mac_table_config(struct ofproto *, unsigned int idle_time,
                                  size_t max_entries);
/* Global settings (Open_vSwitch other_config): handler and revalidator
 * thread counts (0: the default for this machine), the datapath flow
 * limit and the idle time of datapath flows (ms). */
void ofproto_set_threads(unsigned int n_handlers,
                         unsigned int n_revalidators);
void ofproto_set_flow_limit(unsigned int);
void ofproto_set_max_idle(unsigned int max_idle_ms);
/* How long an OpenFlow bundle may stay idle before it is discarded
 * (other_config:bundle-idle-timeout, seconds; 0: 3.1's default, 10). */
void ofproto_set_bundle_idle_timeout(unsigned int seconds);
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
/* OpenFlow's port_mod: changes the config bits of PM->mask to PM->config
 * (PORT_DOWN turns the device administratively down or up; NO_RECV drops
 * what the port receives, NO_FWD skips outputs to it, NO_FLOOD keeps it out
 * of FLOOD and NORMAL's flooding, NO_PACKET_IN keeps its table misses
 * from the controller; NO_STP and NO_RECV_STP are only recorded, there
 * being no STP).  A change queues a port_status (OFPPR_MODIFY) carrying
 * SOURCE, the connection that asked (see struct ofproto_port_status), and
 * makes the revalidators re-check the datapath flows.  Errors:
 * OFPPMFC_BAD_PORT (no such port), OFPPMFC_BAD_HW_ADDR (PM->hw_addr is
 * not the port's). */
enum ofperr ofproto_port_mod(struct ofproto *, const struct ofputil_port_mod *,
                             const void *source);
/* Why the port does not work although it exists (a patch port whose peer
 * is missing, in 3.1's words), malloc'd, or NULL: for the Interface's
 * error column. */
char *ofproto_port_get_error(const struct ofproto *, uint16_t ofp_port);
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
struct bond_settings;
struct lacp_settings;
struct lacp_member_settings;
struct ofproto_bundle_settings {
    const char *name;
    const uint16_t *members;    /* OpenFlow port numbers. */
    size_t n_members;
    enum port_vlan_mode vlan_mode;
    int vlan;                   /* Access or native VLAN, -1 if none. */
    const unsigned long *trunks; /* 4096-bit bitmap, or NULL for all. */
    /* With more than one member: how they make a bond (ofproto/bond.h;
     * NULL: NORMAL uses the first member whose link is up). */
    const struct bond_settings *bond;
    /* LACP on the members (lib/lacp.h; NULL: none): the port's settings,
     * one member setting per member, and each member's change-queue owner
     * (the caller's interface, port-protocol.h's owner): a change of a
     * member's LACP state comes back to the caller as a change of that
     * owner, and the caller then calls ofproto_port_changed(). */
    const struct lacp_settings *lacp;
    const struct lacp_member_settings *lacp_members;
    void *const *member_owners;
};
void ofproto_bundle_register(struct ofproto *, void *aux,
                             const struct ofproto_bundle_settings *);
void ofproto_bundle_unregister(struct ofproto *, void *aux);
/* Empties the list of bundles (their AUX) whose bond's active member
 * changed since last asked into a malloc'd array in *AUXES (caller frees);
 * returns their number. */
size_t ofproto_take_bond_changes(struct ofproto *, void ***auxes);
/* Port OFP_PORT, just added, will run LACP once its bundle is registered:
 * it is not live until LACP says so (rather than live from its carrier,
 * then not, then live again). */
void ofproto_port_await_lacp(struct ofproto *, uint16_t ofp_port);
/* Whether port OFP_PORT runs LACP, and if so whether its partner is
 * current (Interface lacp_current) in *CURRENT. */
bool ofproto_port_get_lacp_current(const struct ofproto *, uint16_t ofp_port,
                                   bool *current);
/* The MAC of the bond AUX's active member (zero if none, or no bond), for
 * Port bond_active_slave. */
struct eth_addr ofproto_bundle_get_active_member_mac(struct ofproto *,
                                                     void *aux);

/* Rules.
 *
 * ofproto_flow_mod() applies what a decoded OpenFlow flow_mod says (struct
 * ofputil_flow_mod, lib/ofp-flow.h; the actions are lib's ofpacts and are
 * copied):
 *
 *   ADD             table OFPTT_ALL means table 0.  A rule with the same
 *                   match and priority is replaced; it keeps its counters
 *                   unless RESET_COUNTS.  Otherwise CHECK_OVERLAP refuses
 *                   a rule of the same priority that a packet could match
 *                   along with an existing one (OFPFMFC_OVERLAP).
 *   MODIFY[_STRICT] replaces the actions of the selected rules (new_cookie
 *                   too unless UINT64_MAX; RESET_COUNTS zeroes counters);
 *                   selecting nothing adds the flow if new_cookie is not
 *                   UINT64_MAX and there is no cookie mask (OpenFlow 1.0
 *                   and 1.1, as 3.1 does), else changes nothing.
 *   DELETE[_STRICT] removes them; those with SEND_FLOW_REM queue a
 *                   flow_removed event with reason OFPRR_DELETE.
 *
 * Loose selection takes every rule whose match is at least as specific as
 * the flow_mod's; strict ones need the same match and priority.  Both are
 * filtered by cookie/cookie_mask, out_port and out_group (an output,
 * enqueue or controller action to that port, a group action to that
 * group, in the apply or write actions).  Errors: OFPFMFC_OVERLAP,
 * OFPBRC_BAD_TABLE_ID, OFPFMFC_BAD_PRIORITY, OFPFMFC_BAD_COMMAND,
 * OFPBAC_BAD_OUT_PORT for an output to a port no switch has, or
 * OFPBAC_BAD_OUT_GROUP for a group action naming a group the bridge does
 * not have. */
#define OFPROTO_N_TABLES 255    /* Tables 0 to 254; 255 is OFPTT_ALL. */
/* The last table, 3.1's internal one: only the switch's own hidden rules
 * (ofproto_internal_rule_add()) are there. */
#define OFPROTO_INTERNAL_TABLE (OFPROTO_N_TABLES - 1)

enum ofperr ofproto_flow_mod(struct ofproto *,
                             const struct ofputil_flow_mod *);
/* The flow_mod check that needs no tables, made when a bundle takes the
 * flow_mod: OFPBRC_EPERM for the last table (3.1's internal one),
 * OFPBRC_BAD_TABLE_ID for none. */
enum ofperr ofproto_check_flow_mod_table(uint8_t table_id);
/* Applies the N flow_mods of FMS as one atomic change (an OpenFlow
 * bundle's commit): each sees the effect of those before it, readers see
 * all of them at once or, if one fails, none.  On failure returns its
 * error with its index in *FAILED and changes nothing.  Unlike
 * ofproto_flow_mod(), a modify replaces each rule it changes by a new one
 * with the new actions (counters kept unless RESET_COUNTS). */
enum ofperr ofproto_flow_mod_batch(struct ofproto *,
                                   const struct ofputil_flow_mod *fms,
                                   size_t n, size_t *failed);
/* A flow_mod for programs: ADD in table 0, catch-all match, priority
 * 32768, no timeouts or flags, cookie 0, no out_port/out_group filter, no
 * buffer, no actions (drop). */
void ofproto_flow_mod_init(struct ofputil_flow_mod *);
/* Deletes every rule of every table (no flow_removed events). */
void ofproto_flush_flows(struct ofproto *);

/* Groups (ofproto-groups.c; main thread).
 *
 * ofproto_group_mod() applies a decoded group_mod, as 3.1 does:
 *   ADD            a new group (OFPGMFC_GROUP_EXISTS if it is there,
 *                  OFPGMFC_INVALID_GROUP beyond OFPG_MAX, OFPGMFC_BAD_TYPE);
 *   MODIFY         replaces type and buckets (OFPGMFC_UNKNOWN_GROUP if
 *                  missing; OFPGC_ADD_OR_MOD adds it instead);
 *   DELETE         removes the group, or every group for OFPG_ALL, and the
 *                  rules whose actions use it; a missing one is no error;
 *   INSERT_BUCKET  adds the buckets before the first, after the last or
 *                  after the bucket command_bucket_id (OFPGMFC_UNKNOWN_BUCKET,
 *                  OFPGMFC_BUCKET_EXISTS for a bucket id already there);
 *   REMOVE_BUCKET  removes the first, the last, all, or one bucket.
 * Buckets may name groups that do not exist (3.1 checks no chaining);
 * translation stops loops at its depth limit.  Every change makes the
 * revalidators check the datapath flows.
 *
 * The reply helpers append a group desc or group stats reply's entries
 * (GROUP_ID or OFPG_ALL, in group id order) to REPLIES (ofpmp_init()'d). */
enum ofperr ofproto_group_mod(struct ofproto *,
                              const struct ofputil_group_mod *);
/* An OpenFlow bundle's commit: flow_mods and group_mods applied in order,
 * each seeing those before it (a flow may use a group the bundle added),
 * and seen by packets all at once or, after an abort, not at all.  A
 * group delete deletes, in the transaction, the rules that use the group.
 * Between begin and commit or abort the translators' lock is held for
 * writing: nothing else may run in between (no packet_out, no port_mod).
 * Commit and abort free the transaction. */
struct ofproto_txn;
struct ofproto_txn *ofproto_txn_begin(struct ofproto *);
enum ofperr ofproto_txn_flow_mod(struct ofproto_txn *,
                                 const struct ofputil_flow_mod *);
enum ofperr ofproto_txn_group_mod(struct ofproto_txn *,
                                  const struct ofputil_group_mod *);
void ofproto_txn_commit(struct ofproto_txn *);
void ofproto_txn_abort(struct ofproto_txn *);
void ofproto_append_group_descs(struct ofproto *, uint32_t group_id,
                                struct ovs_list *replies);
void ofproto_append_group_stats(struct ofproto *, uint32_t group_id,
                                struct ovs_list *replies);
void ofproto_get_group_features(struct ofputil_group_features *);
/* GROUP_ID's type into *TYPE and copies of its buckets (as a group desc
 * has them) appended to BUCKETS, which the caller frees with
 * ofputil_bucket_list_destroy(); nothing if there is no such group. */
void ofproto_get_group(const struct ofproto *, uint32_t group_id,
                       uint8_t *type, struct ovs_list *buckets);

/* Meters (ofproto-meters.c; main thread).
 *
 * ofproto_meter_mod() applies a decoded meter_mod, as 3.1 does on the
 * userspace datapath: ADD (OFPMMFC_METER_EXISTS; OFPMMFC_INVALID_METER for
 * id 0 or above OFPM13_MAX but the slowpath and controller ones;
 * OFPMMFC_OUT_OF_BANDS beyond 8 bands; OFPMMFC_BAD_BAND for a band other
 * than drop; OFPMMFC_BAD_RATE for a rate of 0), MODIFY (the same checks,
 * OFPMMFC_UNKNOWN_METER if missing; counters and buckets start again) and
 * DELETE (one meter or OFPM13_ALL, and the rules that use it, with
 * flow_removed reason meter_delete; a missing one is no error).
 *
 * The reply helpers append meter config or meter stats entries (METER_ID
 * or OFPM13_ALL, in meter id order) to REPLIES (ofpmp_init()'d); a meter
 * named that does not exist is OFPMMFC_UNKNOWN_METER. */
enum ofperr ofproto_meter_mod(struct ofproto *,
                              const struct ofputil_meter_mod *);
enum ofperr ofproto_append_meter_configs(struct ofproto *, uint32_t meter_id,
                                         struct ovs_list *replies);
enum ofperr ofproto_append_meter_stats(struct ofproto *, uint32_t meter_id,
                                       struct ovs_list *replies);
void ofproto_get_meter_features(struct ofputil_meter_features *);

/* Which rules a flow stats or aggregate request selects: the same filters
 * as a flow_mod's delete. */
struct ofproto_flow_query {
    struct match match;
    int priority;               /* STRICT only. */
    bool strict;
    uint8_t table_id;           /* OFPTT_ALL: every table. */
    uint32_t out_port;          /* OFPP_NONE: any. */
    uint32_t out_group;         /* OFPG_ANY: any. */
    ovs_be64 cookie, cookie_mask;
    /* Also the hidden rules of the internal table (OFPROTO_INTERNAL_TABLE,
     * e.g. a bond's after recirculation), which OpenFlow never sees;
     * bridge/dump-flows shows them, as 3.1 does. */
    bool with_internal;
};
/* Every rule of every table. */
void ofproto_flow_query_init(struct ofproto_flow_query *);

/* A rule as ofproto_query_rules() reports it. */
struct ofproto_rule_info {
    uint8_t table_id;
    int priority;
    struct match match;
    ovs_be64 cookie;
    uint16_t idle_timeout, hard_timeout, flags, importance;
    long long int created;      /* time_msec(). */
    long long int modified;     /* Last modify, or created. */
    long long int used;         /* Last packet (time_msec()), or created. */
    uint64_t add_seqno;         /* ofproto_get_change_seqno() when added */
    uint64_t modify_seqno;      /* ... and when last added or modified. */
    uint64_t n_packets, n_bytes;    /* Counted even under NO_PKT_COUNTS
                                     * and NO_BYT_COUNTS, as 3.1. */
    const struct ofpact *ofpacts;   /* Owned by the info (but see
                                     * ofproto_query_rules_each()). */
    size_t ofpacts_len;         /* Bytes. */
};
/* The rules Q selects, table by table, highest priority first, then in
 * the order 3.1 lists a small table's (subtable by subtable, each in
 * insertion order) (the caller frees with ofproto_rule_infos_free()). */
void ofproto_query_rules(struct ofproto *, const struct ofproto_flow_query *,
                         struct ofproto_rule_info **, size_t *n);
/* The same rules in the same order, each handed to CB in an info that lives
 * only for the call: its 'ofpacts' are the rule's own, not a copy, and CB
 * must not change the tables (main thread, as every writer). */
void ofproto_query_rules_each(struct ofproto *,
                              const struct ofproto_flow_query *,
                              void (*cb)(const struct ofproto_rule_info *,
                                         void *aux),
                              void *aux);
/* Every rule. */
void ofproto_dump_rules(struct ofproto *, struct ofproto_rule_info **,
                        size_t *n);
void ofproto_rule_infos_free(struct ofproto_rule_info *, size_t n);
size_t ofproto_count_rules(const struct ofproto *);

/* Flow table changes as flow monitors see them (ofproto/ofmonitor.h).
 * Every change to a visible rule (a flow_mod or bundle commit, expiry,
 * the deletion of a group or meter it uses, learned flows) is handed to
 * the callback set with ofproto_set_flow_change_cb(), in the main thread,
 * when it is decided and before the new tables are published; RULE and
 * the actions live only for the call.  After the changes of one
 * operation (a flow_mod, a bundle commit, a group's deletion, one round
 * of expiry) the callback gets a null CHANGE: "send them now". */
struct ofproto_flow_change {
    int event;                  /* OFPFME_ADDED, _REMOVED or _MODIFIED
                                 * (lib/ofp-monitor.h). */
    uint8_t reason;             /* OFPRR_*, for REMOVED. */
    const struct ofproto_rule_info *rule;   /* MODIFIED: new actions. */
    const struct ofpact *old_ofpacts;       /* MODIFIED: the old ones. */
    size_t old_ofpacts_len;
    const void *origin;         /* Who asked (ofproto_set_change_origin()),
                                 * or NULL. */
    ovs_be32 xid;               /* The request of ORIGIN that did it. */
    uint64_t origin_serial;     /* Different for each request. */
};
void ofproto_set_flow_change_cb(struct ofproto *,
                                void (*cb)(const struct ofproto_flow_change *,
                                           void *aux),
                                void *aux);
/* Counts rule additions and modifications (main thread). */
uint64_t ofproto_get_change_seqno(const struct ofproto *);
/* Changes until the next call are made for ORIGIN's request XID (ORIGIN
 * NULL: for nobody, e.g. expiry).  Main thread. */
void ofproto_set_change_origin(struct ofproto *, const void *origin,
                               ovs_be32 xid);

/* One table's rules and the packets translated through it (looked up,
 * matched), as table stats report them. */
struct ofproto_table_stats {
    size_t n_rules;
    uint64_t n_lookups, n_matched;
};
void ofproto_get_table_stats(struct ofproto *, uint8_t table_id,
                             struct ofproto_table_stats *);

/* OpenFlow's table_mod (lib/ofp-table.h) on one table or OFPTT_ALL, as
 * 3.1 does it: a 1.1/1.2 miss config other than "default" sets what a
 * miss in the table does (controller: a packet_in with reason no_match to
 * every connection that takes them, whatever its version; continue: the
 * next table; drop); 1.4+ sets eviction (see ofproto_configure_table())
 * and vacancy events with their thresholds (see struct
 * ofproto_table_status; an eviction property's flags are ignored, as in
 * 3.1).  Error: OFPTMFC_EPERM for table 254 (it exists but is not
 * OpenFlow's, as in 3.1). */
struct ofputil_table_mod;
struct ofputil_table_desc;
enum ofperr ofproto_table_mod(struct ofproto *,
                              const struct ofputil_table_mod *);
/* TABLE_ID's settings as a 1.4 table desc reply reports them. */
void ofproto_get_table_desc(const struct ofproto *, uint8_t table_id,
                            struct ofputil_table_desc *);

/* A table's settings from the database (a Flow_Table row), as 3.1 takes
 * them.  A name from here wins over one OpenFlow gives (which is then
 * refused, OFPTFFC_EPERM).  At MAX_FLOWS rules a table refuses a new rule
 * with OFPFMFC_TABLE_FULL, or, with ENABLE_EVICTION (or eviction turned on
 * by a 1.4 table_mod), evicts a rule that has a timeout: of the largest
 * group of rules whose GROUPS subfields have the same values in their
 * match, the least important, then the one that would expire soonest
 * (flow_removed reason eviction).  Lowering the limit evicts at once.
 * PREFIXES are the fields the classifier keeps prefix tries on (the
 * caller checked them; classifier.h); USE_DEFAULT_PREFIXES keeps
 * the classifier's default. */
struct mf_subfield;
enum cls_prefix_field;
struct ofproto_table_settings {
    const char *name;                   /* NULL: none. */
    unsigned int max_flows;             /* UINT_MAX: no limit. */
    bool enable_eviction;
    const struct mf_subfield *groups;
    size_t n_groups;
    bool use_default_prefixes;
    const enum cls_prefix_field *prefixes;
    size_t n_prefixes;
};
void ofproto_configure_table(struct ofproto *, uint8_t table_id,
                             const struct ofproto_table_settings *);
/* The table's name (the database's, else OpenFlow's), or NULL. */
const char *ofproto_get_table_name(const struct ofproto *, uint8_t table_id);
/* OpenFlow names a table (NAME "": no name) unless the database did: then
 * only its own name is accepted (a no-op), as 3.1 ranks them.  The first
 * says whether the second would take NAME. */
bool ofproto_may_set_table_name(const struct ofproto *, uint8_t table_id,
                                const char *name);
void ofproto_set_table_name(struct ofproto *, uint8_t table_id,
                            const char *name);
/* The table's flow limit for OpenFlow's max_entries. */
unsigned int ofproto_get_table_max_flows(const struct ofproto *,
                                         uint8_t table_id);

/* Runs PO's actions on its packet as received on its in_port (an
 * OpenFlow port number, or OFPP_NONE / OFPP_CONTROLLER for none) with its
 * pipeline fields (1.5's tun_id, metadata, registers...), as packet_out
 * does.  Its packet_type says what the packet starts with (PT_ETH, the
 * default: an Ethernet frame; PT_IPV4: an IPv4 header, and so on).
 * EINVAL if an Ethernet frame is shorter than its header. */
struct ofputil_packet_out;
int ofproto_packet_out(struct ofproto *, const struct ofputil_packet_out *);
/* Whether OFPACTS (a packet_out's, a flow's) can run on OFPROTO as it is
 * now: OFPBAC_BAD_OUT_GROUP for a group it does not have,
 * OFPMMFC_INVALID_METER for a meter, OFPBAC_BAD_OUT_PORT for an output no
 * switch has (write_actions included). */
enum ofperr ofproto_check_actions(const struct ofproto *,
                                  const struct ofpact *, size_t ofpacts_len);

/* Events for the connection manager.
 *
 * A rule removed by a delete or a timeout that carries SEND_FLOW_REM
 * queues a flow_removed event.  The queue holds at most OFPROTO_MAX_EVENTS
 * (more are dropped and counted: with no controller nobody drains it).
 * ofproto_events_seq() changes whenever an event is queued, so a waiter
 * needs no timer. */
#define OFPROTO_MAX_EVENTS 1024
struct ofproto_flow_removed {
    struct ovs_list list_node;  /* Private to ofproto. */
    struct match match;
    int priority;
    ovs_be64 cookie;
    uint8_t table_id;
    uint8_t reason;             /* OFPRR_*. */
    uint32_t duration_sec, duration_nsec;
    uint16_t idle_timeout, hard_timeout;
    uint64_t packet_count, byte_count;
};
/* Ports added, deleted, or whose OpenFlow description (config, state)
 * changed, in order, for port_status messages. */
struct ofproto_port_status {
    struct ovs_list list_node;  /* Private to ofproto. */
    uint8_t reason;             /* OFPPR_ADD, OFPPR_DELETE, OFPPR_MODIFY. */
    /* The connection whose port_mod caused it (only compared, never
     * dereferenced: before OpenFlow 1.5 the requester is not told), or
     * NULL. */
    const void *source;
    /* For OFPPR_MODIFY, the description before the change: a connection
     * whose version shows no difference is not told (as 3.1 does). */
    bool has_old_desc;
    struct ofputil_phy_port old_desc;
    struct ofputil_phy_port desc;
};
bool ofproto_pop_port_status(struct ofproto *, struct ofproto_port_status *);

/* Vacancy events (1.4+ table_mod "vacancy:DOWN,UP") of a table with a
 * flow limit: its vacancy (the share of the limit still free, in percent)
 * fell below DOWN or rose above UP.  As in 3.1 they alternate: turning
 * them on arms VACANCY_DOWN if the vacancy is at least UP, else
 * VACANCY_UP, and each event arms the other.  Checked after each
 * operation on the tables (a flow_mod or a bundle, expiry, a group or
 * meter deletion), so a crossing and its return within one operation
 * send nothing. */
struct ofproto_table_status {
    struct ovs_list list_node;  /* Private to ofproto. */
    struct ofputil_table_status ts;
};
bool ofproto_pop_table_status(struct ofproto *,
                              struct ofproto_table_status *);

/* Packets sent to the controller (an output to CONTROLLER, a controller
 * action, a table miss when ofproto_set_miss_to_controller() said so, a
 * dec_ttl at TTL 1), queued by the handler threads in arrival order. */
struct ofproto_packet_in {
    struct ovs_list list_node;  /* Private to ofproto. */
    void *packet;               /* The frame as the actions left it, and
                                 * after it, in the same allocation, the
                                 * userdata. */
    size_t packet_len;
    uint8_t reason;             /* OFPR_*, OFPR_IMPLICIT_MISS for a miss. */
    uint8_t table_id;           /* 0 for a packet-out. */
    ovs_be64 cookie;            /* The rule's; all ones for a miss or a
                                 * packet-out. */
    uint16_t max_len;           /* Bytes to send; UINT16_MAX for a miss or
                                 * an invalid TTL: the connection's
                                 * miss_send_len decides. */
    uint16_t controller_id;     /* Only connections with this id get it. */
    uint32_t in_port;           /* OpenFlow port number. */
    struct match flow_metadata; /* What the packet_in reports of the
                                 * pipeline fields (in_port, tunnel,
                                 * metadata, registers, pkt_mark). */
    const void *userdata;       /* controller(userdata=...), or NULL. */
    size_t userdata_len;
};
/* Moves the oldest packet-in into *PIN (the caller frees PIN->packet,
 * which holds the userdata too);
 * false if there is none. */
bool ofproto_pop_packet_in(struct ofproto *, struct ofproto_packet_in *);
/* Whether a table miss sends the packet to the controller (OpenFlow
 * 1.0-1.2 controllers want that; 1.3+ drop): the connection manager
 * says. */
void ofproto_set_miss_to_controller(struct ofproto *, bool);

/* Moves the oldest flow_removed event into *FR; false if there is none. */
bool ofproto_pop_flow_removed(struct ofproto *, struct ofproto_flow_removed *);
/* Drops every queued event of both kinds. */
void ofproto_flush_flow_removed(struct ofproto *);
struct seq *ofproto_events_seq(const struct ofproto *);

/* Statistics for Interface:statistics: the port's device counters. */
struct netdev *ofproto_port_get_netdev(const struct ofproto *, uint16_t);

/* "memory/show" contributions: "handlers:N ports:N revalidators:N
 * rules:N udpif keys:N". */
void ofproto_get_memory_usage(struct ds *);

#endif /* ofproto/ofproto.h */
