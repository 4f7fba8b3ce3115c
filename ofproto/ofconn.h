/* ofconn: one OpenFlow connection of a bridge, and its message handlers.
 *
 * Private to the connection manager (connmgr.c), which creates, runs and
 * destroys these.  An ofconn wraps an rconn (lib/rconn.h: it answers echo
 * requests and probes by itself) and holds what OpenFlow lets a
 * controller set per connection: protocol (flow format and table ids),
 * packet-in format, miss_send_len, role, asynchronous configuration.  All
 * of it starts over on each new connection of a reconnecting rconn.
 *
 * ofconn_run() receives at most a batch of messages per call and answers
 * each (ofconn.c dispatches on enum ofptype); errors go back as OpenFlow
 * error messages and the connection stays up.
 *
 * Threads: main thread only, as the manager. */
#ifndef OFPROTO_OFCONN_H
#define OFPROTO_OFCONN_H 1

#include <stdbool.h>
#include <stdint.h>
#include "hmap.h"
#include "list.h"
#include "ofp-protocol.h"
#include "ofp-switch.h"

struct connmgr;
struct controller;
struct ofpbuf;
struct ofproto;
struct ofproto_packet_in;
struct pinsched;
struct rconn;
struct rconn_packet_counter;

enum ofconn_type {
    OFCONN_PRIMARY,             /* A controller. */
    OFCONN_SERVICE,             /* The management socket (ovs-ofctl). */
};

struct ofconn {
    struct ovs_list node;       /* In the manager's list. */
    struct connmgr *mgr;
    struct rconn *rconn;
    enum ofconn_type type;
    struct controller *listener;    /* Its controller, NULL for service. */

    bool connected;             /* Per-connection state below is set up. */
    unsigned int seqno;         /* rconn connection it belongs to. */
    enum ofputil_protocol protocol;
    enum ofputil_packet_in_format packet_in_format;
    uint16_t miss_send_len;
    uint32_t role;              /* OFPCR12_ROLE_EQUAL/MASTER/SLAVE. */
    uint16_t controller_id;     /* NXT_SET_CONTROLLER_ID's; 0 at first. */
    struct ofputil_async_cfg async;
    struct rconn_packet_counter *packet_in_counter;
    /* Controller rate limits (NULL: none): [0] for table misses (reason
     * no_match), [1] for every other packet_in, as 3.1 splits them. */
    struct pinsched *schedulers[2];
    bool backlog;               /* Stopped at a full batch: more to read. */
    struct hmap bundles;        /* ofconn-bundle.c's, by id. */
    struct ovs_list table_features_parts;   /* ofconn-table-features.c's
                                             * request so far. */
    struct hmap monitors;       /* ofmonitor.c's flow monitors, by id. */
    uint64_t monitor_abbrev_serial; /* Request last abbreviated. */
    struct ovs_list monitor_updates;    /* Replies of the operation under
                                         * way (ofmonitor_flush()). */
    struct rconn_packet_counter *monitor_counter;   /* Updates unsent. */
    bool monitor_paused;        /* Backlog too long: updates held. */
    uint64_t monitor_paused_seqno;  /* ofproto's change seqno then. */

    /* Flow_mods done since the last "N flow_mods in the last S s" log line
     * (connmgr_log_flow_mods()), which 3.1 writes at most every minute and
     * when the connection goes. */
    int n_add, n_delete, n_modify;
    long long int first_op, last_op;    /* When the first and last were. */
    long long int next_op_report;       /* LLONG_MAX: none to report. */
    long long int op_backoff;           /* No report before then. */
};

/* Takes ownership of RCONN; registers with MGR. */
struct ofconn *ofconn_create(struct connmgr *, struct rconn *,
                             enum ofconn_type, struct controller *);
void ofconn_destroy(struct ofconn *);
/* Packet-ins per second and burst (both 0: unlimited); see pinsched.h. */
void ofconn_set_rate_limit(struct ofconn *, int rate, int burst);
void ofconn_run(struct ofconn *);
void ofconn_wait(struct ofconn *);

/* Sends MSG (taking it) if the connection is up. */
void ofconn_send(struct ofconn *, struct ofpbuf *msg);
/* The same, counting MSG in COUNTER until the kernel took it. */
void ofconn_send_counted(struct ofconn *, struct ofpbuf *msg,
                         struct rconn_packet_counter *counter);
/* Sends every message of REPLIES (a list of ofpbufs by list_node, which
 * it empties), counted in COUNTER if nonnull. */
void ofconn_send_replies(struct ofconn *, struct ovs_list *replies,
                         struct rconn_packet_counter *counter);
/* Sends ERROR as the error reply to REQUEST. */
void ofconn_send_error(struct ofconn *, enum ofperr error,
                       const struct ofp_header *request);
/* Whether the connection takes asynchronous messages of TYPE with
 * REASON, given its type, role and configuration. */
bool ofconn_wants_async(const struct ofconn *, enum ofputil_async_msg_type,
                        uint8_t reason);
/* Whether table misses should reach it (OpenFlow 1.0-1.2). */
bool ofconn_wants_misses(const struct ofconn *);
void ofconn_send_packet_in(struct ofconn *, const struct ofproto_packet_in *);
/* Counts a flow_mod of COMMAND (OFPFC_*) the connection made, for the log
 * (a bundle's count when it commits). */
void ofconn_report_flow_mod(struct ofconn *, uint16_t command);
/* Changes the role; a 1.4+ connection demoted by another's request gets
 * a role_status when NOTIFY. */
void ofconn_set_role(struct ofconn *, uint32_t role, bool notify);
/* "other", "master", "slave". */
const char *ofconn_role_name(uint32_t role);

/* The manager's side, for ofconn.c. */
void connmgr_register(struct connmgr *, struct ofconn *);
struct ofproto *connmgr_get_ofproto(const struct connmgr *);
/* MASTER became master (NULL: some other role change). */
void connmgr_role_changed(struct connmgr *, struct ofconn *master);
/* OpenFlow 1.2's generation id check for a master or slave request:
 * false if GEN is older than the last one seen (stale); else records it. */
bool connmgr_check_generation_id(struct connmgr *, uint64_t gen);
/* The newest generation id, false if none was set yet. */
bool connmgr_get_generation_id(const struct connmgr *, uint64_t *gen);
/* Sends the bridge's queued port_status events now, so the ones a
 * port_mod caused go out before the replies to what follows it, as 3.1
 * sends them. */
void connmgr_send_port_status(struct connmgr *);
struct connmgr_controller_settings;
const struct connmgr_controller_settings *connmgr_controller_get_settings(
    const struct controller *);
/* A rate limiter's counters moved: Controller:status will be rewritten
 * (at most every few seconds). */
void connmgr_packet_in_stats_changed(struct connmgr *);
/* Sends RF to every connection of MGR but SOURCE that asked for it
 * (asynchronous REQUESTFORWARD messages of its reason), in each one's
 * version (a meter_mod only to 1.3 and later), as 3.1 forwards a
 * controller's group_mods and meter_mods. */
struct ofputil_requestforward;
void connmgr_send_requestforward(struct connmgr *, const struct ofconn *source,
                                 const struct ofputil_requestforward *);
/* Forwards GM, which SOURCE sent with XID and the bridge just applied, as
 * above. */
struct ofputil_group_mod;
void ofconn_forward_group_mod(struct ofconn *source, ovs_be32 xid,
                              struct ofputil_group_mod *gm);
/* Logs (at INFO, as 3.1's connmgr does) and clears OFCONN's count of
 * flow_mods, if any: "br0<->unix#3: 9 flow_mods in the last 0 s (7 adds,
 * 2 deletes)". */
void connmgr_log_flow_mods(struct ofconn *);

#endif /* ofproto/ofconn.h */
