/* rstp-member: 802.1w rapid spanning tree (lib/rstp.h) in the switch.
 *
 * A bridge with rstp_enable has one struct rstp_bridge, which holds its
 * engine, and each of its ports that takes part one member, a per-port
 * protocol attached to that port; ofproto/tree-member.h says how they run
 * (the same way as STP's) and provides what ofproto does with any member
 * (link changes, destruction).
 *
 * As in 3.1, a port in the tree whose link is down is Discarding (its role
 * Disabled): "Disabled" as a state means a port outside the tree.
 *
 * ovs-appctl rstp/show [BRIDGE] and rstp/tcn [BRIDGE], in 3.1's format and
 * words, list and act on the bridges with RSTP.
 *
 * Threads and memory: as tree-member.h; the main thread calls everything
 * here. */
#ifndef OFPROTO_RSTP_MEMBER_H
#define OFPROTO_RSTP_MEMBER_H 1

#include <stdbool.h>
#include <stdint.h>
#include "packets.h"
#include "rstp.h"

struct rstp_bridge;
struct tree_bridge;
struct tree_member;

/* Bridge other_config rstp-*, in the units of lib/rstp.h.  A bad value is
 * logged and the previous one (at first the default) kept. */
struct rstp_bridge_settings {
    struct eth_addr address;
    int priority;
    int ageing_time;                /* s. */
    int force_protocol_version;
    int max_age, forward_delay;     /* s. */
    int transmit_hold_count;
};

struct rstp_bridge *rstp_bridge_create(const char *name,
                                       const struct rstp_bridge_settings *);
void rstp_bridge_configure(struct rstp_bridge *,
                           const struct rstp_bridge_settings *);
void rstp_bridge_destroy(struct rstp_bridge *);
void rstp_bridge_get_status(struct rstp_bridge *, struct rstp_status *);

/* Port other_config rstp-*. */
struct rstp_port_settings {
    int port_num;           /* 1 to RSTP_MAX_PORT_NUMBER, 0: any free. */
    int preferred_num;      /* With 0: tried first (if in range). */
    int priority;
    uint32_t path_cost;
    bool admin_edge, auto_edge;
    bool mcheck;            /* Applied when it becomes true. */
};

/* Port NAME (whose frames come from MAC) in BRIDGE's tree with settings S,
 * or NULL (logged) if S->port_num is taken or none is free; OWNER is its
 * change-queue owner (the bridge's interface).  tree_member_destroy()
 * frees it. */
struct tree_member *rstp_member_create(struct rstp_bridge *,
                                       const char *name, struct eth_addr mac,
                                       const struct rstp_port_settings *s,
                                       void *owner);
/* Returns false (changing nothing) if M is not an RSTP member or S gives
 * it another number than it has (0 keeps any). */
bool rstp_member_configure(struct tree_member *m,
                           const struct rstp_port_settings *s);
/* The part of BRIDGE (NULL: none) its members belong to
 * (tree_member_in()). */
const struct tree_bridge *rstp_bridge_tree(const struct rstp_bridge *);
/* False if M is not an RSTP member. */
bool rstp_member_get_status(struct tree_member *m, struct rstp_port_status *);

#endif /* ofproto/rstp-member.h */
