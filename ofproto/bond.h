/* bond: several links that NORMAL uses as one port.
 *
 * A bundle (ofproto.h) with more than one member is a bond.  The bond
 * decides which member a packet leaves by and which members may receive:
 *
 *   active-backup  one member, the active one, carries everything; it
 *                  stays active while it is enabled, except that the
 *                  configured primary takes over whenever it is enabled.
 *   balance-slb    each source MAC and VLAN hashes to one of 256 buckets,
 *                  each bucket to an enabled member; every rebalance
 *                  interval, buckets move from the most to the least loaded
 *                  member (load: bytes sent, halved after each rebalance).
 *   balance-tcp    the L2-L4 5-tuple hashes to a bucket, as for slb; it
 *                  needs LACP (or lacp-fallback-ab, which makes it
 *                  active-backup while LACP has not negotiated).  With a
 *                  recirculation id (bond_set_recirc_id(), from the
 *                  owner), it hashes in the datapath as 3.1 does:
 *                  translation ends with hash(l4(BASIS)),recirc(ID), and
 *                  the owner keeps one internal rule per bucket
 *                  (recirc_id=ID,dp_hash=BUCKET/0xff actions=output:MEMBER,
 *                  bond-rules.h) that follows bond_get_buckets(); the
 *                  rules' byte counters are the buckets' loads
 *                  (bond_account_buckets()).
 *
 * A member is enabled when its link has been up (may_enable: carrier,
 * liveness, LACP) for bond_updelay ms, and disabled when it has been down
 * for bond_downdelay ms.  On receive, as 3.1 does: packets on a disabled
 * member are dropped; an active-backup bond accepts only on its active
 * member; an slb bond takes multicast only on its active member (unless
 * all-members-active says the upstream switch sends each copy once) and drops
 * a packet whose source it learned on another port (its own flood coming
 * back).  When the active member changes, the bond asks its owner to send
 * learning packets (bond_take_learning_needed()) so that the upstream
 * switch moves its addresses to the new member.
 *
 * Threads and memory
 * ------------------
 *
 * The main thread creates, configures, runs and destroys a bond, and
 * registers its members; translators (handlers, revalidators, the main
 * thread's ofproto/trace) call bond_choose_output(),
 * bond_check_admissibility() and bond_account() concurrently.  The bond's
 * rwlock guards its state: translators take it for reading, the main
 * thread for writing when it changes something (bond_get_recirc() is a
 * translator's call too; the other recirculation calls are the main
 * thread's).  Loads are relaxed atomic counters.  Member handles (AUX) are the owner's pointers: it unregisters
 * a member before freeing it.  The bond copies its name and settings. */
#ifndef OFPROTO_BOND_H
#define OFPROTO_BOND_H 1

#include <stdbool.h>
#include <stdint.h>
#include "packets.h"

struct bond;
struct ds;
struct flow;
struct flow_wildcards;

enum bond_mode {
    BM_AB,                      /* active-backup */
    BM_SLB,                     /* balance-slb */
    BM_TCP,                     /* balance-tcp */
};

/* "active-backup", "balance-slb", "balance-tcp"; false for anything else. */
bool bond_mode_from_string(const char *, enum bond_mode *);
const char *bond_mode_to_string(enum bond_mode);

/* What LACP says of the bond (lacp.h's status, as the bond sees it). */
enum bond_lacp_status {
    BOND_LACP_OFF,              /* "off" */
    BOND_LACP_CONFIGURED,       /* "configured": no partner yet */
    BOND_LACP_NEGOTIATED,       /* "negotiated" */
};

struct bond_settings {
    enum bond_mode mode;
    uint32_t basis;             /* bond-hash-basis. */
    int rebalance_interval;     /* ms; 0: never. */
    int up_delay, down_delay;   /* ms. */
    bool lacp_fallback_ab;
    bool all_members_active;    /* Take multicast on every member. */
    /* balance-tcp: the datapath's lb_output action picks the member
     * instead of a recirculation (other_config:lb-output-action). */
    bool use_lb_output;
    const char *primary;        /* Member name, or NULL. */
    /* Port bond_active_slave as last written: the member with this MAC
     * starts out active (a restart keeps the choice). */
    struct eth_addr active_member_mac;
};

struct bond *bond_create(const char *name, const struct bond_settings *);
/* Returns true if forwarding may change (the caller revalidates). */
bool bond_reconfigure(struct bond *, const struct bond_settings *);
void bond_destroy(struct bond *);
const char *bond_get_name(const struct bond *);

/* Members.  AUX is the owner's handle, NAME its interface name, MAC its
 * Ethernet address (for bond_active_slave). */
void bond_member_register(struct bond *, void *aux, const char *name,
                          struct eth_addr mac);
void bond_member_unregister(struct bond *, void *aux);
/* Whether the member's link is usable (carrier, liveness, LACP). */
void bond_member_set_may_enable(struct bond *, void *aux, bool may_enable);
void bond_set_lacp_status(struct bond *, enum bond_lacp_status);

/* Main thread: applies due updelays and downdelays and the rebalance
 * (if loads moved) at NOW.  Returns the next time it has something to do
 * (LLONG_MAX: nothing).  Sets *CHANGED if forwarding changed. */
long long int bond_run(struct bond *, long long int now, bool *changed);
/* Main thread: whether the active member changed since last asked, and
 * which member that is now (NULL: none); the owner then sends learning
 * packets out of it. */
bool bond_take_learning_needed(struct bond *, void **active_aux);
/* Makes PACKET (empty) the learning packet 3.1 sends for MAC in VLAN
 * after a failover: a broadcast RARP from MAC, tagged with VLAN unless it
 * is 0, so that switches on the way learn MAC on the new member. */
struct dp_packet;
void bond_compose_learning_packet(struct dp_packet *, struct eth_addr mac,
                                  uint16_t vlan);

/* Main thread: whether the active member's MAC changed since last asked
 * (the owner then writes Port bond_active_slave). */
bool bond_take_active_mac_changed(struct bond *);
/* The active member's MAC (zero if none), for Port bond_active_slave. */
struct eth_addr bond_get_active_member_mac(const struct bond *);

/* Translation. */

/* The member (AUX) a packet of FLOW in VLAN leaves by, NULL if none is
 * enabled.  Marks in WC the fields the choice read. */
void *bond_choose_output(struct bond *, const struct flow *,
                         struct flow_wildcards *, uint16_t vlan);

enum bond_verdict {
    BV_ACCEPT,
    BV_DROP,
    BV_DROP_IF_MOVED,           /* Drop unless the source was learned on
                                 * this bond (slb). */
};
enum bond_verdict bond_check_admissibility(struct bond *, const void *aux,
                                           const struct flow *,
                                           struct flow_wildcards *);

/* Credits N_BYTES sent by FLOW in VLAN to its bucket (translations that
 * push statistics). */
void bond_account(struct bond *, const struct flow *, uint16_t vlan,
                  uint64_t n_bytes);

/* Recirculation (balance-tcp in the datapath). */

#define BOND_N_BUCKETS 256

/* Main thread: the recirculation id the owner allocated for the bond's
 * internal rules (0: none, the bond hashes in translation). */
void bond_set_recirc_id(struct bond *, uint32_t recirc_id);
/* Translators: whether output to the bond is hash(l4(*BASIS)) then
 * recirc(*RECIRC_ID): balance-tcp (not falling back to active-backup)
 * with a recirculation id.  bond/show says so ("bond may use
 * recirculation").  *LB_OUTPUT: lb_output(*RECIRC_ID) instead, the
 * datapath holding the bucket map (the owner's job, bond-rules.h). */
bool bond_get_recirc(struct bond *, uint32_t *recirc_id, uint32_t *basis,
                     bool *lb_output);
/* Main thread: each bucket's member (its AUX, NULL for none) into
 * MEMBERS; returns a number that changes whenever the bucket map does,
 * so the owner updates its rules only then. */
uint64_t bond_get_buckets(struct bond *, void *members[BOND_N_BUCKETS]);
/* Main thread: credits each bucket with the bytes in DELTA (what its
 * internal rule counted since last time), as bond_account() does in
 * translation without recirculation. */
void bond_account_buckets(struct bond *, const uint64_t delta[BOND_N_BUCKETS]);

/* Moves when an ovs-appctl command changed a bond's forwarding: the owner
 * waits on it and revalidates. */
struct seq *bond_get_changed_seq(void);

/* Registers bond/list, bond/show, bond/set-active-member (and the 3.1
 * alias set-active-slave), bond/enable-member, bond/disable-member,
 * bond/hash, bond/migrate.  Main thread. */
void bond_init(void);

#endif /* ofproto/bond.h */
