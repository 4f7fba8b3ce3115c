/* stp-member: 802.1D spanning tree (lib/stp.h) in the switch, as per-port
 * protocols (lib/port-protocol.h).
 *
 * A bridge with stp_enable has one struct stp_bridge, which holds its
 * engine, and each of its ports that takes part one struct stp_member, a
 * per-port protocol attached to that port:
 *
 *   - translation (or the datapath's control-packet sink) hands the
 *     member the BPDUs that arrive on its port, whatever the port's state;
 *   - the monitor thread runs the engine's timers from the members (the
 *     engine tells when it next needs to run) and sends out of each port
 *     the BPDUs composed for it;
 *   - a port whose state changed is logged ("port P: STP state changed
 *     from A to B", module ofproto_dpif, as 3.1 does) and queued on the
 *     change queue; the main thread then rereads its state through the
 *     seam's may_forward()/may_learn() ("STP" in translation's notes), and
 *     a topology change makes it forget the learned addresses
 *     (take_mac_flush()).
 *
 * So a quiet tree costs a timer on the monitor thread per hello time per
 * bridge, and the main thread nothing.
 *
 * ovs-appctl stp/show [BRIDGE] and stp/tcn [BRIDGE], in 3.1's format and
 * words, list and act on the bridges with STP.
 *
 * Threads and memory: the main thread creates, configures and destroys
 * bridges and members (it detaches a member from its port before
 * destroying it, and destroys a bridge after its members).  The bridge's
 * mutex guards the engine, which the monitor, handler and datapath
 * threads drive through the members. */
#ifndef OFPROTO_STP_MEMBER_H
#define OFPROTO_STP_MEMBER_H 1

#include <stdbool.h>
#include <stdint.h>
#include "packets.h"

struct port_protocol;
struct stp_bridge;
struct stp_member;

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
 * owner (the bridge's interface). */
struct stp_member *stp_member_create(struct stp_bridge *, const char *name,
                                     struct eth_addr mac,
                                     const struct stp_port_settings *s,
                                     void *owner);
/* Returns false (changing nothing) if S->port_num is another member's. */
bool stp_member_configure(struct stp_member *,
                          const struct stp_port_settings *s);
void stp_member_destroy(struct stp_member *);
struct port_protocol *stp_member_protocol(struct stp_member *);
int stp_member_port_num(const struct stp_member *);
/* The port's link is usable (the tree leaves out a port that is down). */
void stp_member_set_link(struct stp_member *, bool up);

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
void stp_member_get_status(struct stp_member *, struct stp_port_status *);

/* Registers stp/show and stp/tcn (main thread; stp_bridge_create() makes
 * sure of it). */
void stp_bridge_init_commands(void);

#endif /* ofproto/stp-member.h */
