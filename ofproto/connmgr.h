/* connmgr: a bridge's OpenFlow connections.
 *
 * What it is
 * ----------
 *
 * Each bridge (struct ofproto) has one connection manager, which speaks
 * OpenFlow for it on:
 *
 *   - its management socket, punix:<rundir>/<bridge>.mgmt, always there,
 *     which ovs-ofctl uses by default ("service" connections);
 *   - its controllers (Bridge:controller): an active target (tcp:, ssl:,
 *     unix:) is one connection kept up by lib/rconn (reconnect backoff,
 *     inactivity probe with echo); a passive one (ptcp:, pssl:, punix:) is
 *     a listener whose every accepted connection is a controller
 *     connection;
 *   - its snoop socket, punix:<rundir>/<bridge>.snoop, for "ovs-ofctl
 *     snoop": each connection accepted there gets a copy of every message
 *     sent and received on one controller connection (lib/rconn monitors),
 *     the master's if there is one, else an equal's, else a slave's, as
 *     Open vSwitch picks; without a controller connection it is closed.
 *
 * Every connection has its own state: the negotiated version and protocol
 * (flow format: OpenFlow 1.0's match or NXM, flow_mod_table_id), the
 * packet_in format, miss_send_len, role (equal, master, slave with the
 * generation id) and asynchronous message configuration.  Each message
 * received is dispatched by its enum ofptype to a handler that answers
 * with lib's encoders (ofp-*.h); a message that is unknown, unsupported or
 * malformed is answered with the OpenFlow error (ofperr_encode_reply())
 * and the connection stays up.  A lying length closes that connection only
 * (lib/vconn).
 *
 * The bridge's events (ofproto.h: flow_removed, packet_in) are drained
 * here and sent to the connections that want them: controller connections
 * and service connections that set a nonzero miss_send_len (as Open
 * vSwitch does, so "ovs-ofctl monitor" sees them), filtered by role and
 * asynchronous configuration, in each connection's protocol and packet-in
 * format.  Table misses go to the controller only while a connection
 * that wants them is up (OpenFlow 1.0-1.2; 1.3+ drops them), which the
 * manager tells ofproto.
 *
 * Fail mode (standalone): while controllers are configured and none is
 * connected, the bridge forwards with NORMAL (a hidden rule, not in any
 * dump), as Open vSwitch's fail-open does; secure never does.
 *
 * Waking up: everything is event driven.  An idle connection costs only
 * its rconn's probe timer; the bridge's events wake the main loop through
 * ofproto_events_seq().
 *
 * Threads and memory: main thread only.  The manager owns its
 * connections, listeners and queued messages; settings passed in are
 * copied. */
#ifndef OFPROTO_CONNMGR_H
#define OFPROTO_CONNMGR_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "pinsched.h"

struct connmgr;
struct ofproto;
struct ds;

/* Creates BRIDGE's manager and opens its management socket (an error
 * opening it is logged; the manager works without it). */
struct connmgr *connmgr_create(struct ofproto *, const char *bridge_name);
void connmgr_destroy(struct connmgr *);

void connmgr_run(struct connmgr *);
void connmgr_wait(struct connmgr *);

/* Controller:type.  As in 3.1, a "service" connection is no controller:
 * it does not count for fail-mode (a standalone bridge keeps its NORMAL
 * rule, and fail-open never starts for it), gets no asynchronous messages
 * (packet_in, port_status, flow_removed...) until it sets a miss_send_len.
 * By default passive targets (ptcp:, pssl:, punix:) are services and
 * active ones primary. */
enum connmgr_controller_type {
    CONNMGR_CONTROLLER_DEFAULT,
    CONNMGR_CONTROLLER_PRIMARY,
    CONNMGR_CONTROLLER_SERVICE,
};

/* One Bridge:controller row. */
struct connmgr_controller_settings {
    const char *target;         /* "tcp:IP[:PORT]", "ptcp:...", ... */
    enum connmgr_controller_type type;
    int probe_interval;         /* Seconds; 0: none. */
    int max_backoff;            /* Seconds. */
    uint32_t allowed_versions;  /* 0: the default, 1.0 only... see .c. */
    /* Packet-ins per second and burst (Controller:controller_rate_limit,
     * controller_burst_limit; both 0: unlimited; one 0: its default, see
     * ofproto/pinsched.h).  A change keeps the connection. */
    int rate_limit, burst_limit;
};
/* Replaces the controllers with SETTINGS (N of them).  Unchanged targets
 * keep their connections. */
void connmgr_set_controllers(struct connmgr *,
                             const struct connmgr_controller_settings *,
                             size_t n);
bool connmgr_has_controllers(const struct connmgr *);
/* The OpenFlow versions (a bitmap, bit V for wire version V; 0: every one
 * supported) that new connections to the management socket offer, from
 * Bridge:protocols.  Controllers get theirs in their settings. */
void connmgr_set_allowed_versions(struct connmgr *, uint32_t);

/* What the Controller table shows for TARGET. */
struct connmgr_status {
    bool passive;               /* A listening target (ptcp:...), whatever
                                 * its type: 3.1 shows only is_connected,
                                 * false, for it. */
    bool is_connected;
    const char *role;           /* "other", "master", "slave". */
    const char *state;          /* rconn state: "ACTIVE", "BACKOFF"... */
    int last_error;             /* errno, EOF, or 0. */
    long long int sec_since_connect;    /* -1: never. */
    long long int sec_since_disconnect; /* -1: never. */
    /* With a rate limit: the packet_in counters of table misses and of
     * the rest, the sum over the target's connections. */
    bool has_packet_in_stats;
    struct pinsched_stats miss, action;
};
/* False if TARGET is not a configured controller. */
bool connmgr_get_status(const struct connmgr *, const char *target,
                        struct connmgr_status *);
/* Changes whenever some controller's connection state or role changes,
 * so the caller writes the Controller table only then; rate limiters'
 * counters move it at most once per CONNMGR_PIN_STATS_INTERVAL ms. */
#define CONNMGR_PIN_STATS_INTERVAL 5000
uint64_t connmgr_status_seqno(const struct connmgr *);

/* "ovs-appctl bridge/..."-style description of the connections. */
void connmgr_format(const struct connmgr *, struct ds *);

#endif /* ofproto/connmgr.h */
