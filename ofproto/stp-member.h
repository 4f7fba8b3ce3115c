/* stp-member: 802.1D spanning tree (lib/stp.h) in the switch.
 *
 * A bridge with stp_enable has one struct stp_bridge, which holds its
 * engine, and each of its ports that takes part one member, a per-port
 * protocol attached to that port; ofproto/tree-member.h says how they run
 * (the same way as RSTP's) and provides what ofproto does with any member
 * (link changes, destruction).
 *
 * ovs-appctl stp/show [BRIDGE] and stp/tcn [BRIDGE], in 3.1's format and
 * words, list and act on the bridges with STP.
 *
 * Threads and memory: as tree-member.h; the main thread calls everything
 * here. */
#ifndef OFPROTO_STP_MEMBER_H
#define OFPROTO_STP_MEMBER_H 1

#include <stdbool.h>
#include <stdint.h>
#include "packets.h"

struct stp_bridge;
struct tree_bridge;
struct tree_member;

struct stp_bridge_settings {
    struct eth_addr system_id;
    int priority;               /* 0-65535. */
    int hello_time, max_age, forward_delay;     /* ms. */
};

/* Bridge NAME's spanning tree with settings S (a bad value is logged and
 * its default used). */
struct stp_bridge *stp_bridge_create(const char *name,
                                     const struct stp_bridge_settings *s);
void stp_bridge_configure(struct stp_bridge *,
                          const struct stp_bridge_settings *s);
void stp_bridge_destroy(struct stp_bridge *);

struct stp_port_settings {
    int port_num;               /* 1-255: the engine's port, unique. */
    int priority;               /* 0-255. */
    int path_cost;              /* 1-65535. */
};

/* Port NAME (whose frames come from MAC) in BRIDGE's tree with settings
 * S, or NULL (logged) if S->port_num is taken; OWNER is its change-queue
 * owner (the bridge's interface).  tree_member_destroy() frees it. */
struct tree_member *stp_member_create(struct stp_bridge *, const char *name,
                                      struct eth_addr mac,
                                      const struct stp_port_settings *s,
                                      void *owner);
/* Returns false (changing nothing) if M is not an STP member or S gives
 * it another number. */
bool stp_member_configure(struct tree_member *m,
                          const struct stp_port_settings *s);
/* The part of BRIDGE (NULL: none) its members belong to
 * (tree_member_in()). */
const struct tree_bridge *stp_bridge_tree(const struct stp_bridge *);

/* Status for the database (3.1's Bridge and Port status keys). */
struct stp_bridge_status {
    uint64_t bridge_id, designated_root;    /* Priority << 48 | MAC. */
    unsigned int root_path_cost;
};
void stp_bridge_get_status(struct stp_bridge *, struct stp_bridge_status *);

struct stp_port_status {
    int port_id;                /* Priority << 8 | number. */
    const char *state, *role;   /* As stp/show prints them. */
    long long int state_since;  /* time_msec() the state began. */
    uint64_t tx_bpdus, rx_bpdus, rx_errors;
};
/* False if M is not an STP member. */
bool stp_member_get_status(struct tree_member *m, struct stp_port_status *);

#endif /* ofproto/stp-member.h */
