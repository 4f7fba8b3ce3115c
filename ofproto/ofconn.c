/* ofconn: see ofconn.h. */
#include <config.h>
#include "ofconn.h"
#include "connmgr.h"
#include "ofconn-bundle.h"
#include "ofconn-table-features.h"
#include "ofmonitor.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "coverage.h"
#include "netdev.h"
#include "ofp-actions.h"
#include "ofp-ct.h"
#include "ofp-errors.h"
#include "ofp-flow.h"
#include "ofp-group.h"
#include "ofp-meter.h"
#include "ofp-msgs.h"
#include "ofp-packet.h"
#include "ofp-phy-port.h"
#include "ofp-port.h"
#include "ofp-queue.h"
#include "ofp-requestforward.h"
#include "ofp-table.h"
#include "ofp-tlv.h"
#include "ofpbuf.h"
#include "ofproto-private.h"
#include "ct-dpif.h"
#include "xlate.h"
#include "pinsched.h"
#include "openflow.h"
#include "poll-loop.h"
#include "rconn.h"
#include "timeval.h"
#include "util.h"
#include "vlog.h"

/* Open vSwitch logs its controller connections as "connmgr". */
VLOG_USE_MODULE(connmgr);

COVERAGE_DEFINE(ofconn_error_reply);
COVERAGE_DEFINE(ofconn_packet_in_sent);
COVERAGE_DEFINE(ofconn_packet_in_dropped);
COVERAGE_DEFINE(ofconn_packet_in_rate_limited);

/* Messages handled per connection per ofconn_run(), so one busy
 * connection cannot starve the rest of the main loop. */
#define OFCONN_BATCH 50
/* Packet-ins that may wait in one connection's send queue. */
#define OFCONN_PACKET_IN_QUEUE 100

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);

struct ofconn *
ofconn_create(struct connmgr *mgr, struct rconn *rconn,
              enum ofconn_type type, struct controller *listener)
{
    struct ofconn *ofconn = xzalloc(sizeof *ofconn);
    ofconn->mgr = mgr;
    ofconn->rconn = rconn;
    ofconn->type = type;
    ofconn->listener = listener;
    ofconn->packet_in_counter = rconn_packet_counter_create();
    ofconn->monitor_counter = rconn_packet_counter_create();
    if (listener) {
        const struct connmgr_controller_settings *s
            = connmgr_controller_get_settings(listener);
        ofconn_set_rate_limit(ofconn, s->rate_limit, s->burst_limit);
    }
    hmap_init(&ofconn->bundles);
    ovs_list_init(&ofconn->table_features_parts);
    hmap_init(&ofconn->monitors);
    ovs_list_init(&ofconn->monitor_updates);
    ofconn->next_op_report = LLONG_MAX;
    ofconn->op_backoff = LLONG_MIN;
    connmgr_register(mgr, ofconn);
    return ofconn;
}

void
ofconn_report_flow_mod(struct ofconn *ofconn, uint16_t command)
{
    switch (command) {
    case OFPFC_ADD:
        ofconn->n_add++;
        break;
    case OFPFC_MODIFY:
    case OFPFC_MODIFY_STRICT:
        ofconn->n_modify++;
        break;
    case OFPFC_DELETE:
    case OFPFC_DELETE_STRICT:
        ofconn->n_delete++;
        break;
    }
    long long int now = time_msec();
    if (ofconn->next_op_report == LLONG_MAX) {
        /* Reports come 10 s after the first flow_mod they count, and then
         * no more than once a minute. */
        ofconn->first_op = now;
        ofconn->next_op_report = MAX(now + 10 * 1000, ofconn->op_backoff);
        ofconn->op_backoff = ofconn->next_op_report + 60 * 1000;
    }
    ofconn->last_op = now;
}

void
ofconn_set_rate_limit(struct ofconn *ofconn, int rate, int burst)
{
    for (int i = 0; i < 2; i++) {
        if (rate <= 0 && burst <= 0) {
            pinsched_destroy(ofconn->schedulers[i]);
            ofconn->schedulers[i] = NULL;
        } else if (ofconn->schedulers[i]) {
            pinsched_set_limits(ofconn->schedulers[i], rate, burst);
        } else {
            ofconn->schedulers[i] = pinsched_create(rate, burst);
        }
    }
}

void
ofconn_destroy(struct ofconn *ofconn)
{
    if (ofconn) {
        connmgr_log_flow_mods(ofconn);
        ovs_list_remove(&ofconn->node);
        rconn_destroy(ofconn->rconn);
        rconn_packet_counter_destroy(ofconn->packet_in_counter);
        rconn_packet_counter_destroy(ofconn->monitor_counter);
        for (int i = 0; i < 2; i++) {
            pinsched_destroy(ofconn->schedulers[i]);
        }
        ofconn_bundles_clear(ofconn);
        hmap_destroy(&ofconn->bundles);
        ofconn_table_features_clear(ofconn);
        ofmonitor_destroy_all(ofconn);
        hmap_destroy(&ofconn->monitors);
        free(ofconn);
    }
}

/* A new connection of the rconn: everything per connection starts over. */
static void
ofconn_reset(struct ofconn *ofconn, int version)
{
    ofconn->connected = true;
    ofconn->seqno = rconn_get_connection_seqno(ofconn->rconn);
    ofconn->protocol = ofputil_protocol_from_ofp_version(version);
    ofconn->packet_in_format = OFPUTIL_PACKET_IN_STD;
    /* Service connections get no asynchronous messages until they ask
     * for them with a miss_send_len (as Open vSwitch). */
    ofconn->miss_send_len = (ofconn->type == OFCONN_PRIMARY
                             ? OFP_DEFAULT_MISS_SEND_LEN : 0);
    ofconn->role = OFPCR12_ROLE_EQUAL;
    ofconn->controller_id = 0;
    ofconn->async = ofputil_async_cfg_default(version);
    /* Packet-ins queued for the previous connection are not this one's. */
    for (int i = 0; i < 2; i++) {
        if (ofconn->schedulers[i]) {
            pinsched_flush(ofconn->schedulers[i]);
        }
    }
    ofconn_bundles_clear(ofconn);
    ofconn_table_features_clear(ofconn);
    ofmonitor_destroy_all(ofconn);
    ofconn->monitor_paused = false;
}

void
ofconn_send(struct ofconn *ofconn, struct ofpbuf *msg)
{
    ofconn_send_counted(ofconn, msg, NULL);
}

void
ofconn_send_replies(struct ofconn *ofconn, struct ovs_list *replies,
                    struct rconn_packet_counter *counter)
{
    struct ofpbuf *reply;
    LIST_FOR_EACH_POP (reply, list_node, replies) {
        ofconn_send_counted(ofconn, reply, counter);
    }
}

void
ofconn_send_counted(struct ofconn *ofconn, struct ofpbuf *msg,
                    struct rconn_packet_counter *counter)
{
    /* Encoders that build a message in pieces leave its header marked
     * for the final length; the others have set it already. */
    if (msg->header) {
        ofpmsg_update_length(msg);
    }
    rconn_send(ofconn->rconn, msg, counter);
}

void
ofconn_send_error(struct ofconn *ofconn, enum ofperr error,
                  const struct ofp_header *request)
{
    COVERAGE_INC(ofconn_error_reply);
    VLOG_DBG_RL(&rl, "%s: replying %s", rconn_get_name(ofconn->rconn),
                ofperr_get_name(error));
    ofconn_send(ofconn, ofperr_encode_reply(error, request));
}

static enum ofp_version
ofconn_version(const struct ofconn *ofconn)
{
    return ofputil_protocol_to_ofp_version(ofconn->protocol);
}

static struct ofproto *
ofconn_ofproto(const struct ofconn *ofconn)
{
    return connmgr_get_ofproto(ofconn->mgr);
}

const char *
ofconn_role_name(uint32_t role)
{
    return (role == OFPCR12_ROLE_MASTER ? "master"
            : role == OFPCR12_ROLE_SLAVE ? "slave" : "other");
}

/* Asynchronous messages. */

bool
ofconn_wants_async(const struct ofconn *ofconn,
                   enum ofputil_async_msg_type type, uint8_t reason)
{
    if (!ofconn->connected || !rconn_is_connected(ofconn->rconn)) {
        return false;
    }
    if (ofconn->type == OFCONN_SERVICE && !ofconn->miss_send_len) {
        return false;
    }
    const uint32_t *masks = (ofconn->role == OFPCR12_ROLE_SLAVE
                             ? ofconn->async.slave : ofconn->async.master);
    return reason < 32 && (masks[type] & (1u << reason));
}

bool
ofconn_wants_misses(const struct ofconn *ofconn)
{
    return (ofconn_version(ofconn) < OFP13_VERSION
            && ofconn_wants_async(ofconn, OAM_PACKET_IN, OFPR_NO_MATCH));
}

static void
send_packet_in(struct ofconn *ofconn, struct ofpbuf *msg)
{
    if (rconn_send_with_limit(ofconn->rconn, msg, ofconn->packet_in_counter,
                              OFCONN_PACKET_IN_QUEUE)) {
        COVERAGE_INC(ofconn_packet_in_dropped);
    } else {
        COVERAGE_INC(ofconn_packet_in_sent);
    }
}

static void
send_packet_ins(struct ofconn *ofconn, struct ovs_list *txq)
{
    struct ofpbuf *msg;
    LIST_FOR_EACH_POP (msg, list_node, txq) {
        send_packet_in(ofconn, msg);
    }
}

/* The reason a connection of VERSION is told for REASON (ofproto's
 * OFPR_*, including the internal miss kinds). */
static uint8_t
packet_in_reason_for_version(uint8_t reason, enum ofp_version version)
{
    switch (reason) {
    case OFPR_IMPLICIT_MISS:
    case OFPR_EXPLICIT_MISS:
        return OFPR_NO_MATCH;
    case OFPR_ACTION_SET:
    case OFPR_GROUP:
    case OFPR_PACKET_OUT:
        /* Refinements of "action" that 1.4 introduced. */
        return version < OFP14_VERSION ? OFPR_ACTION : reason;
    default:
        return reason;
    }
}

void
ofconn_send_packet_in(struct ofconn *ofconn,
                      const struct ofproto_packet_in *pin)
{
    /* A controller action that names a controller id reaches only the
     * connections that took that id (NXT_SET_CONTROLLER_ID); the rest
     * have id 0. */
    if (pin->controller_id != ofconn->controller_id) {
        return;
    }
    /* Only 1.0-1.2 connections hear of table misses. */
    if (pin->reason == OFPR_IMPLICIT_MISS && !ofconn_wants_misses(ofconn)) {
        return;
    }
    /* The asynchronous configuration speaks the connection's version, so
     * an "action" there covers what 1.4 calls action_set, group and
     * packet_out. */
    uint8_t reason = packet_in_reason_for_version(pin->reason,
                                                  ofconn_version(ofconn));
    if (!ofconn_wants_async(ofconn, OAM_PACKET_IN, reason)) {
        return;
    }
    size_t max_len = (pin->max_len == UINT16_MAX ? ofconn->miss_send_len
                      : pin->max_len);
    struct ofputil_packet_in opi = {
        .packet = pin->packet,
        .packet_len = MIN(pin->packet_len, max_len),
        .total_len = pin->packet_len,
        .buffer_id = OFP_NO_BUFFER,
        .flow_metadata = pin->flow_metadata,
        .reason = reason,
        .table_id = pin->table_id,
        .cookie = pin->cookie,
        .userdata = pin->userdata,
        .userdata_len = pin->userdata_len,
    };
    struct ofpbuf *msg = ofputil_encode_packet_in(&opi, ofconn->protocol,
                                                  ofconn->packet_in_format);
    if (msg->header) {
        ofpmsg_update_length(msg);
    }
    struct pinsched *ps = ofconn->schedulers[reason == OFPR_NO_MATCH ? 0 : 1];
    if (ps) {
        COVERAGE_INC(ofconn_packet_in_rate_limited);
        struct ovs_list txq = OVS_LIST_INITIALIZER(&txq);
        pinsched_send(ps, pin->in_port, msg, &txq);
        send_packet_ins(ofconn, &txq);
        connmgr_packet_in_stats_changed(ofconn->mgr);
    } else {
        send_packet_in(ofconn, msg);
    }
}

void
ofconn_set_role(struct ofconn *ofconn, uint32_t role, bool notify)
{
    if (ofconn->role == role) {
        return;
    }
    ofconn->role = role;
    if (notify && ofconn_version(ofconn) >= OFP13_VERSION) {
        struct ofputil_role_status rs = {
            .role = role,
            .reason = OFPCRR_MASTER_REQUEST,
        };
        if (!connmgr_get_generation_id(ofconn->mgr, &rs.generation_id)) {
            rs.generation_id = UINT64_MAX;
        }
        ofconn_send(ofconn,
                    ofputil_encode_role_status(&rs, ofconn_version(ofconn)));
    }
}


/* Ports, as OpenFlow describes them. */

static int
compare_ofports(const void *a_, const void *b_)
{
    const struct ofport *const *a = a_, *const *b = b_;
    return (*a)->ofp_port < (*b)->ofp_port ? -1
           : (*a)->ofp_port > (*b)->ofp_port;
}

/* The bridge's ports in number order (the caller frees the array). */
static const struct ofport **
sorted_ports(const struct ofproto *ofproto, size_t *np)
{
    size_t n = 0;
    const struct ofport **ports = xmalloc(
        (hmap_count(&ofproto->ports) + 1) * sizeof *ports);
    const struct ofport *port;
    HMAP_FOR_EACH (port, hmap_node, &ofproto->ports) {
        ports[n++] = port;
    }
    qsort(ports, n, sizeof *ports, compare_ofports);
    *np = n;
    return ports;
}

/* Handlers.  Each returns 0 or the error to send back. */

static enum ofperr
handle_features_request(struct ofconn *ofconn, const struct ofp_header *oh)
{
    struct ofproto *ofproto = ofconn_ofproto(ofconn);
    struct ofputil_switch_features f = {
        .datapath_id = ofproto_get_datapath_id(ofproto),
        .n_buffers = 0,
        .n_tables = OFPROTO_N_TABLES - 1,
        .capabilities = (OFPUTIL_C_FLOW_STATS | OFPUTIL_C_TABLE_STATS
                         | OFPUTIL_C_PORT_STATS | OFPUTIL_C_QUEUE_STATS
                         | OFPUTIL_C_ARP_MATCH_IP | OFPUTIL_C_GROUP_STATS
                         | OFPUTIL_C_BUNDLES),
        .ofp10_actions = OFPUTIL_OFP10_ACTIONS_ALL,
    };
    struct ofpbuf *b = ofputil_encode_switch_features(&f, oh->version,
                                                      oh->xid);
    if (ofputil_switch_features_has_ports(b->data)) {
        size_t n;
        const struct ofport **ports = sorted_ports(ofproto, &n);
        for (size_t i = 0; i < n && ofputil_switch_features_has_room(b);
             i++) {
            struct ofputil_phy_port pp;
            ofport_get_phy_port(ports[i], &pp);
            ofputil_put_switch_features_port(&pp, b);
        }
        free(ports);
    }
    ofconn_send(ofconn, b);
    return 0;
}

static enum ofperr
handle_get_config_request(struct ofconn *ofconn, const struct ofp_header *oh)
{
    /* 1.0-1.2's invalid_ttl flag is the primary's packet-in bit. */
    bool invalid_ttl = (ofconn->async.master[OAM_PACKET_IN]
                        & (1u << OFPR_INVALID_TTL));
    struct ofputil_switch_config config = {
        .frag = OFPUTIL_FRAG_NORMAL,
        .invalid_ttl_to_controller = (oh->version < OFP13_VERSION
                                      ? invalid_ttl : -1),
        .miss_send_len = ofconn->miss_send_len,
    };
    ofconn_send(ofconn, ofputil_encode_get_config_reply(oh, &config));
    return 0;
}

static enum ofperr
handle_set_config(struct ofconn *ofconn, const struct ofp_header *oh)
{
    struct ofputil_switch_config config;
    enum ofperr error = ofputil_decode_set_config(oh, &config);
    if (!error) {
        /* Only "normal" fragment handling exists here; like 3.1 on a
         * datapath without the others, the request is not refused. */
        ofconn->miss_send_len = config.miss_send_len;
        if (config.invalid_ttl_to_controller >= 0) {
            uint32_t bit = 1u << OFPR_INVALID_TTL;
            if (config.invalid_ttl_to_controller) {
                ofconn->async.master[OAM_PACKET_IN] |= bit;
            } else {
                ofconn->async.master[OAM_PACKET_IN] &= ~bit;
            }
        }
    }
    return error;
}

static enum ofperr
handle_barrier_request(struct ofconn *ofconn, const struct ofp_header *oh)
{
    /* Every earlier message is fully handled before this one is read. */
    ofconn_send(ofconn, ofputil_encode_barrier_reply(oh));
    return 0;
}

static enum ofperr
reject_slave(const struct ofconn *ofconn)
{
    return (ofconn->role == OFPCR12_ROLE_SLAVE ? OFPERR_OFPBRC_IS_SECONDARY
            : 0);
}

static enum ofperr
handle_flow_mod(struct ofconn *ofconn, const struct ofp_header *oh)
{
    enum ofperr error = reject_slave(ofconn);
    if (error) {
        return error;
    }
    uint64_t stub[1024 / 8];
    struct ofpbuf ofpacts;
    ofpbuf_use_stub(&ofpacts, stub, sizeof stub);
    struct ofputil_flow_mod fm;
    error = ofputil_decode_flow_mod(&fm, oh, &ofpacts);
    if (!error && oh->version == OFP10_VERSION
        && !(ofconn->protocol & OFPUTIL_P_TID)) {
        /* Without flow_mod_table_id the command's high byte must be zero
         * and the flow_mod names no table: "any" (adds go to table 0). */
        error = fm.table_id ? OFPERR_OFPFMFC_BAD_COMMAND : 0;
        fm.table_id = OFPTT_ALL;
    }
    if (!error && oh->version < OFP12_VERSION && fm.command == OFPFC_ADD) {
        /* OpenFlow 1.0 and 1.1 say an add that replaces a flow zeroes its
         * counters; 3.1 keeps that as the flow's reset_counts flag (which
         * OpenFlow 1.3's flow stats then show). */
        fm.flags |= OFPUTIL_FF_RESET_COUNTS;
    }
    if (!error && fm.buffer_id != UINT32_MAX) {
        /* This switch never buffers packets. */
        error = OFPERR_OFPBRC_BUFFER_UNKNOWN;
    }
    if (!error) {
        error = ofproto_flow_mod(ofconn_ofproto(ofconn), &fm);
        if (!error) {
            ofconn_report_flow_mod(ofconn, fm.command);
        }
    }
    ofpbuf_uninit(&ofpacts);
    return error;
}

static enum ofperr
handle_port_mod(struct ofconn *ofconn, const struct ofp_header *oh)
{
    enum ofperr error = reject_slave(ofconn);
    if (error) {
        return error;
    }
    /* A 1.4+ property other than Ethernet is OFPBPC_BAD_TYPE, but config
     * bits the version lacks are dropped, not refused: 3.1 answers so. */
    struct ofputil_port_mod pm;
    error = ofputil_decode_port_mod(oh, &pm, false);
    if (error == OFPERR_OFPPMFC_BAD_CONFIG) {
        error = ofputil_decode_port_mod(oh, &pm, true);
    }
    if (!error) {
        error = ofproto_port_mod(ofconn_ofproto(ofconn), &pm, ofconn);
    }
    if (!error) {
        connmgr_send_port_status(ofconn->mgr);
    }
    return error;
}

static enum ofperr
handle_table_mod(struct ofconn *ofconn, const struct ofp_header *oh)
{
    enum ofperr error = reject_slave(ofconn);
    if (error) {
        return error;
    }
    struct ofputil_table_mod tm;
    error = ofputil_decode_table_mod(oh, &tm);
    if (!error) {
        error = ofproto_table_mod(ofconn_ofproto(ofconn), &tm);
    }
    return error;
}

static enum ofperr
handle_table_desc_request(struct ofconn *ofconn, const struct ofp_header *oh)
{
    struct ovs_list replies;
    ofpmp_init(&replies, oh);
    for (int i = 0; i < OFPROTO_N_TABLES - 1; i++) {
        struct ofputil_table_desc td;
        ofproto_get_table_desc(ofconn_ofproto(ofconn), i, &td);
        ofputil_append_table_desc_reply(&td, &replies);
    }
    ofconn_send_replies(ofconn, &replies, NULL);
    return 0;
}

static void
rule_info_to_flow_stats(const struct ofproto_rule_info *r, long long int now,
                        struct ofputil_flow_stats *fs)
{
    long long int age = MAX(now - r->created, 0);
    *fs = (struct ofputil_flow_stats) {
        .match = r->match,
        .cookie = r->cookie,
        .table_id = r->table_id,
        .priority = r->priority,
        .idle_timeout = r->idle_timeout,
        .hard_timeout = r->hard_timeout,
        .duration_sec = age / 1000,
        .duration_nsec = (age % 1000) * 1000000,
        .idle_age = MAX(now - r->used, 0) / 1000,
        .hard_age = (r->modified > r->created
                     ? MAX(now - r->modified, 0) / 1000 : -1),
        .packet_count = r->n_packets,
        .byte_count = r->n_bytes,
        .ofpacts = r->ofpacts,
        .ofpacts_len = r->ofpacts_len,
        .flags = r->flags,
        .importance = r->importance,
    };
}

/* A flow or aggregate stats reply being built. */
struct flow_stats_dump {
    struct ofconn *ofconn;
    long long int now;
    struct ovs_list replies;                    /* Flow stats. */
    struct ofputil_aggregate_stats aggregate;   /* Aggregate. */
};

static void
append_flow_stats(const struct ofproto_rule_info *info, void *dump_)
{
    struct flow_stats_dump *dump = dump_;
    struct ofputil_flow_stats fs;
    rule_info_to_flow_stats(info, dump->now, &fs);
    ofputil_append_flow_stats_reply(&fs, &dump->replies);
    /* Every part but the last is complete: sending each as soon as it is
     * lets the peer decode a large dump while we encode the rest. */
    while (!ovs_list_is_short(&dump->replies)) {
        ofconn_send(dump->ofconn,
                    ofpbuf_from_list(ovs_list_pop_front(&dump->replies)));
    }
}

static void
add_to_aggregate(const struct ofproto_rule_info *info, void *dump_)
{
    struct flow_stats_dump *dump = dump_;
    dump->aggregate.flow_count++;
    dump->aggregate.packet_count += info->n_packets;
    dump->aggregate.byte_count += info->n_bytes;
}

static enum ofperr
handle_flow_stats_request(struct ofconn *ofconn, const struct ofp_header *oh)
{
    struct ofputil_flow_stats_request fsr;
    enum ofperr error = ofputil_decode_flow_stats_request(&fsr, oh);
    if (error) {
        return error;
    }
    if (fsr.table_id != OFPTT_ALL && fsr.table_id >= OFPROTO_N_TABLES) {
        return OFPERR_OFPBRC_BAD_TABLE_ID;
    }
    error = ofproto_tlv_check_match(ofconn_ofproto(ofconn), &fsr.match);
    if (error) {
        return error;
    }
    struct ofproto_flow_query q;
    ofproto_flow_query_init(&q);
    q.match = fsr.match;
    q.table_id = fsr.table_id;
    q.out_port = fsr.out_port;
    q.out_group = fsr.out_group;
    q.cookie = fsr.cookie;
    q.cookie_mask = fsr.cookie_mask;

    struct flow_stats_dump dump = { .ofconn = ofconn, .now = time_msec() };
    if (fsr.aggregate) {
        ofproto_query_rules_each(ofconn_ofproto(ofconn), &q,
                                 add_to_aggregate, &dump);
        ofconn_send(ofconn, ofputil_encode_aggregate_stats_reply(
                        &dump.aggregate, oh));
    } else {
        ofpmp_init(&dump.replies, oh);
        ofproto_query_rules_each(ofconn_ofproto(ofconn), &q,
                                 append_flow_stats, &dump);
        ofconn_send(ofconn, ofpbuf_from_list(
                        ovs_list_pop_front(&dump.replies)));
    }
    return 0;
}

static enum ofperr
handle_group_mod(struct ofconn *ofconn, const struct ofp_header *oh)
{
    enum ofperr error = reject_slave(ofconn);
    if (error) {
        return error;
    }
    struct ofputil_group_mod gm;
    error = ofputil_decode_group_mod(oh, &gm);
    if (error) {
        return error;
    }
    error = ofproto_group_mod(ofconn_ofproto(ofconn), &gm);
    if (!error) {
        ofconn_forward_group_mod(ofconn, oh->xid, &gm);
    }
    ofputil_uninit_group_mod(&gm);
    return error;
}

void
ofconn_forward_group_mod(struct ofconn *source, ovs_be32 xid,
                         struct ofputil_group_mod *gm)
{
    struct ovs_list new_buckets = OVS_LIST_INITIALIZER(&new_buckets);
    uint8_t new_type = gm->type;
    if (gm->command == OFPGC15_INSERT_BUCKET
        || gm->command == OFPGC15_REMOVE_BUCKET) {
        ofproto_get_group(ofconn_ofproto(source), gm->group_id, &new_type,
                          &new_buckets);
    }
    struct ofputil_requestforward rf = {
        .xid = xid,
        .reason = OFPRFR_GROUP_MOD,
        .group_mod = gm,
        .new_type = new_type,
        .new_buckets = &new_buckets,
    };
    connmgr_send_requestforward(source->mgr, source, &rf);
    ofputil_bucket_list_destroy(&new_buckets);
}

static enum ofperr
handle_group_request(struct ofconn *ofconn, const struct ofp_header *oh,
                     bool stats)
{
    uint32_t group_id;
    enum ofperr error = (stats
                         ? ofputil_decode_group_stats_request(oh, &group_id)
                         : ofputil_decode_group_desc_request(oh, &group_id));
    if (error) {
        return error;
    }
    struct ovs_list replies;
    ofpmp_init(&replies, oh);
    if (stats) {
        ofproto_append_group_stats(ofconn_ofproto(ofconn), group_id,
                                   &replies);
    } else {
        ofproto_append_group_descs(ofconn_ofproto(ofconn), group_id,
                                   &replies);
    }
    ofconn_send_replies(ofconn, &replies, NULL);
    return 0;
}

static enum ofperr
handle_group_features_request(struct ofconn *ofconn,
                              const struct ofp_header *oh)
{
    struct ofputil_group_features gf;
    ofproto_get_group_features(&gf);
    ofconn_send(ofconn, ofputil_encode_group_features_reply(&gf, oh));
    return 0;
}

static enum ofperr
handle_meter_mod(struct ofconn *ofconn, const struct ofp_header *oh)
{
    enum ofperr error = reject_slave(ofconn);
    if (error) {
        return error;
    }
    uint64_t stub[256 / 8];
    struct ofpbuf bands;
    ofpbuf_use_stub(&bands, stub, sizeof stub);
    struct ofputil_meter_mod mm;
    error = ofputil_decode_meter_mod(oh, &mm, &bands);
    if (!error) {
        error = ofproto_meter_mod(ofconn_ofproto(ofconn), &mm);
    }
    if (!error) {
        struct ofputil_requestforward rf = {
            .xid = oh->xid,
            .reason = OFPRFR_METER_MOD,
            .meter_mod = &mm,
        };
        connmgr_send_requestforward(ofconn->mgr, ofconn, &rf);
    }
    ofpbuf_uninit(&bands);
    return error;
}

static enum ofperr
handle_meter_request(struct ofconn *ofconn, const struct ofp_header *oh,
                     enum ofptype type)
{
    if (type == OFPTYPE_METER_FEATURES_STATS_REQUEST) {
        struct ofputil_meter_features mf;
        ofproto_get_meter_features(&mf);
        ofconn_send(ofconn, ofputil_encode_meter_features_reply(&mf, oh));
        return 0;
    }
    uint32_t meter_id;
    enum ofperr error = ofputil_decode_meter_request(oh, &meter_id);
    if (error) {
        return error;
    }
    struct ovs_list replies;
    ofpmp_init(&replies, oh);
    struct ofproto *ofproto = ofconn_ofproto(ofconn);
    error = (type == OFPTYPE_METER_STATS_REQUEST
             ? ofproto_append_meter_stats(ofproto, meter_id, &replies)
             : ofproto_append_meter_configs(ofproto, meter_id, &replies));
    if (error) {
        ofpbuf_list_delete(&replies);
        return error;
    }
    ofconn_send_replies(ofconn, &replies, NULL);
    return 0;
}

static enum ofperr
handle_packet_out(struct ofconn *ofconn, const struct ofp_header *oh)
{
    enum ofperr error = reject_slave(ofconn);
    if (error) {
        return error;
    }
    uint64_t stub[1024 / 8];
    struct ofpbuf ofpacts;
    ofpbuf_use_stub(&ofpacts, stub, sizeof stub);
    struct ofputil_packet_out po;
    error = ofputil_decode_packet_out(&po, oh, &ofpacts);
    if (!error && po.buffer_id != OFP_NO_BUFFER) {
        error = OFPERR_OFPBRC_BUFFER_UNKNOWN;
    }
    if (!error) {
        /* Any in_port the decoder takes will do, as in 3.1, even one the
         * bridge does not have. */
        struct ofproto *ofproto = ofconn_ofproto(ofconn);
        /* Pipeline tun_metadata fields (1.5) take the map's layout, so
         * that rules match them as they would a tunnel's. */
        error = ofproto_tlv_check_match(ofproto, &po.flow_metadata);
        if (!error) {
            error = ofproto_check_actions(ofproto, po.ofpacts,
                                          po.ofpacts_len);
        }
        if (!error && ofproto_packet_out(ofproto, &po)) {
            error = OFPERR_OFPBRC_BAD_PACKET;
        }
    }
    ofpbuf_uninit(&ofpacts);
    return error;
}

static enum ofperr
handle_port_desc_request(struct ofconn *ofconn, const struct ofp_header *oh)
{
    uint32_t port_no;
    enum ofperr error = ofputil_decode_port_desc_stats_request(oh, &port_no);
    if (error) {
        return error;
    }
    struct ovs_list replies;
    ofpmp_init(&replies, oh);
    size_t n;
    const struct ofport **ports = sorted_ports(ofconn_ofproto(ofconn), &n);
    for (size_t i = 0; i < n; i++) {
        if (port_no == OFPP_ANY || port_no == ports[i]->ofp_port) {
            struct ofputil_phy_port pp;
            ofport_get_phy_port(ports[i], &pp);
            ofputil_append_port_desc_stats_reply(&pp, &replies);
        }
    }
    free(ports);
    ofconn_send_replies(ofconn, &replies, NULL);
    return 0;
}

static enum ofperr
handle_port_stats_request(struct ofconn *ofconn, const struct ofp_header *oh)
{
    uint32_t port_no;
    enum ofperr error = ofputil_decode_port_stats_request(oh, &port_no);
    if (error) {
        return error;
    }
    struct ofproto *ofproto = ofconn_ofproto(ofconn);
    if (port_no != OFPP_ANY && !ofproto_port_exists(ofproto, port_no)) {
        return OFPERR_OFPBRC_BAD_PORT;
    }
    struct ovs_list replies;
    ofpmp_init(&replies, oh);
    size_t n;
    const struct ofport **ports = sorted_ports(ofproto, &n);
    for (size_t i = 0; i < n; i++) {
        if (port_no != OFPP_ANY && port_no != ports[i]->ofp_port) {
            continue;
        }
        struct netdev_stats st;
        netdev_get_stats(ports[i]->netdev, &st);
        struct ofputil_port_stats ps = {
            .port_no = ports[i]->ofp_port,
            .rx_packets = st.rx_packets, .tx_packets = st.tx_packets,
            .rx_bytes = st.rx_bytes, .tx_bytes = st.tx_bytes,
            .rx_dropped = st.rx_dropped, .tx_dropped = st.tx_dropped,
            .rx_errors = st.rx_errors, .tx_errors = st.tx_errors,
            /* Not counted by our devices: OpenFlow's "unknown". */
            .rx_frame_errors = UINT64_MAX, .rx_over_errors = UINT64_MAX,
            .rx_crc_errors = UINT64_MAX, .collisions = UINT64_MAX,
        };
        long long int age = MAX(time_msec() - ports[i]->created, 0);
        ps.duration_sec = age / 1000;
        ps.duration_nsec = (age % 1000) * 1000000;
        struct netdev_custom_counter custom[ARRAY_SIZE(ps.custom)];
        ps.n_custom = MIN(netdev_get_custom_stats(ports[i]->netdev, custom,
                                                  ARRAY_SIZE(custom)),
                          ARRAY_SIZE(custom));
        for (size_t j = 0; j < ps.n_custom; j++) {
            ovs_strzcpy(ps.custom[j].name, custom[j].name,
                        sizeof ps.custom[j].name);
            ps.custom[j].value = custom[j].value;
        }
        ofputil_append_port_stat(&replies, &ps);
    }
    free(ports);
    ofconn_send_replies(ofconn, &replies, NULL);
    return 0;
}

/* Queues.  Each port has one queue, 0, its default one (there is no QoS
 * here): no rate limits, and no counters of its own (unknown).  The
 * errors are 3.1's: OFPQOFC_BAD_PORT for a port the bridge does not have,
 * OFPQOFC_BAD_QUEUE for a queue no port selected has. */
static bool
queue_selected(uint32_t wanted, uint32_t queue_id)
{
    return wanted == OFPQ_ALL || wanted == queue_id;
}

static enum ofperr
handle_queue_stats_request(struct ofconn *ofconn, const struct ofp_header *oh)
{
    struct ofputil_queue_stats_request rq;
    enum ofperr error = ofputil_decode_queue_stats_request(oh, &rq);
    if (error) {
        return error;
    }
    struct ofproto *ofproto = ofconn_ofproto(ofconn);
    if (rq.port_no != OFPP_ANY && !ofproto_port_exists(ofproto, rq.port_no)) {
        return OFPERR_OFPQOFC_BAD_PORT;
    }
    if (!queue_selected(rq.queue_id, 0)) {
        return OFPERR_OFPQOFC_BAD_QUEUE;
    }
    struct ovs_list replies;
    ofpmp_init(&replies, oh);
    size_t n;
    const struct ofport **ports = sorted_ports(ofproto, &n);
    for (size_t i = 0; i < n; i++) {
        if (rq.port_no == OFPP_ANY || rq.port_no == ports[i]->ofp_port) {
            struct ofputil_queue_stats qs = {
                .port_no = ports[i]->ofp_port,
                .queue_id = 0,
                .tx_bytes = UINT64_MAX,
                .tx_packets = UINT64_MAX,
                .tx_errors = UINT64_MAX,
                .duration_sec = UINT32_MAX,
                .duration_nsec = UINT32_MAX,
            };
            ofputil_append_queue_stat(&replies, &qs);
        }
    }
    free(ports);
    ofconn_send_replies(ofconn, &replies, NULL);
    return 0;
}

/* OFPT_QUEUE_GET_CONFIG_REQUEST (1.0-1.3) and OFPST_QUEUE_DESC (1.4+). */
static enum ofperr
handle_queue_config_request(struct ofconn *ofconn,
                            const struct ofp_header *oh)
{
    uint32_t port_no, queue_id;
    enum ofperr error = ofputil_decode_queue_get_config_request(oh, &port_no,
                                                                &queue_id);
    if (error) {
        return error;
    }
    struct ofproto *ofproto = ofconn_ofproto(ofconn);
    if (port_no != OFPP_ANY && !ofproto_port_exists(ofproto, port_no)) {
        return OFPERR_OFPQOFC_BAD_PORT;
    }
    if (!queue_selected(queue_id, 0)) {
        return OFPERR_OFPQOFC_BAD_QUEUE;
    }
    struct ovs_list replies;
    ofputil_start_queue_get_config_reply(oh, &replies);
    size_t n;
    const struct ofport **ports = sorted_ports(ofproto, &n);
    for (size_t i = 0; i < n; i++) {
        if (port_no == OFPP_ANY || port_no == ports[i]->ofp_port) {
            struct ofputil_queue_config qc = {
                .port = ports[i]->ofp_port,
                .queue = 0,
                .min_rate = OFPUTIL_QUEUE_RATE_NONE,
                .max_rate = OFPUTIL_QUEUE_RATE_NONE,
            };
            ofputil_append_queue_get_config_reply(&qc, &replies);
        }
    }
    free(ports);
    ofconn_send_replies(ofconn, &replies, NULL);
    return 0;
}

static enum ofperr
handle_desc_request(struct ofconn *ofconn, const struct ofp_header *oh)
{
    struct ofproto *ofproto = ofconn_ofproto(ofconn);
    struct ofputil_desc d;
    memset(&d, 0, sizeof d);
    ovs_strzcpy(d.mfr_desc, "Nicira, Inc.", sizeof d.mfr_desc);
    ovs_strzcpy(d.hw_desc, "Open vSwitch", sizeof d.hw_desc);
    ovs_strzcpy(d.sw_desc, PACKAGE_VERSION, sizeof d.sw_desc);
    ovs_strzcpy(d.serial_num, "None", sizeof d.serial_num);
    snprintf(d.dp_desc, sizeof d.dp_desc, "%s", ofproto_name(ofproto));
    ofconn_send(ofconn, ofputil_encode_desc_stats_reply(oh, &d));
    return 0;
}

static enum ofperr
handle_table_stats_request(struct ofconn *ofconn, const struct ofp_header *oh)
{
    struct ofproto *ofproto = ofconn_ofproto(ofconn);

    struct ofpbuf *reply = ofpraw_alloc_stats_reply(oh, 0);
    for (int i = 0; i < OFPROTO_N_TABLES - 1; i++) {
        struct ofproto_table_stats st;
        ofproto_get_table_stats(ofproto, i, &st);
        struct ofputil_table_stats ts = {
            .table_id = i,
            .active_count = st.n_rules,
            .lookup_count = st.n_lookups,
            .matched_count = st.n_matched,
        };
        struct ofputil_table_features tf;
        ofproto_table_features(ofproto, i, &tf);
        /* 1.1 and 1.2 report the miss config a table_mod set. */
        tf.miss_config = atomic_load_explicit(
            &ofproto->tables[i].miss_config, memory_order_relaxed);
        ofputil_append_table_stats_reply(reply, &ts, &tf);
    }
    ofconn_send(ofconn, reply);
    return 0;
}

static enum ofperr
handle_role_request(struct ofconn *ofconn, const struct ofp_header *oh)
{
    struct ofputil_role_request rr;
    enum ofperr error = ofputil_decode_role_message(oh, &rr);
    if (error) {
        return error;
    }
    /* A service connection (ovs-ofctl's) may take a role too, as in 3.1. */
    if (rr.role != OFPCR12_ROLE_NOCHANGE) {
        if (rr.role != OFPCR12_ROLE_EQUAL && rr.have_generation_id
            && !connmgr_check_generation_id(ofconn->mgr,
                                            rr.generation_id)) {
            return OFPERR_OFPRRFC_STALE;
        }
        uint32_t old = ofconn->role;
        ofconn_set_role(ofconn, rr.role, false);
        if (old != rr.role) {
            connmgr_role_changed(ofconn->mgr,
                                 rr.role == OFPCR12_ROLE_MASTER ? ofconn
                                                                : NULL);
        }
    }
    /* The reply tells the newest generation id, whoever set it. */
    struct ofputil_role_request reply = { .role = ofconn->role };
    reply.have_generation_id = connmgr_get_generation_id(
        ofconn->mgr, &reply.generation_id);
    ofconn_send(ofconn, ofputil_encode_role_reply(oh, &reply));
    return 0;
}

static enum ofperr
handle_set_flow_format(struct ofconn *ofconn, const struct ofp_header *oh)
{
    const struct nx_set_flow_format *sff = ofpmsg_body(oh);
    uint32_t format = ntohl(sff->format);
    if (!ofputil_nx_flow_format_is_valid(format)) {
        return OFPERR_OFPBRC_EPERM;
    }
    enum ofputil_protocol base = ofputil_nx_flow_format_to_protocol(format);
    ofconn->protocol = ofputil_protocol_set_base(ofconn->protocol, base);
    return 0;
}

static enum ofperr
handle_flow_mod_table_id(struct ofconn *ofconn, const struct ofp_header *oh)
{
    const struct nx_flow_mod_table_id *msg = ofpmsg_body(oh);
    ofconn->protocol = ofputil_protocol_set_tid(ofconn->protocol,
                                                msg->set != 0);
    return 0;
}

static enum ofperr
handle_set_packet_in_format(struct ofconn *ofconn,
                            const struct ofp_header *oh)
{
    enum ofputil_packet_in_format format;
    enum ofperr error = ofputil_decode_set_packet_in_format(oh, &format);
    if (!error) {
        ofconn->packet_in_format = format;
    }
    return error;
}

static enum ofperr
handle_get_async_request(struct ofconn *ofconn, const struct ofp_header *oh)
{
    ofconn_send(ofconn, ofputil_encode_get_async_reply(oh, &ofconn->async));
    return 0;
}

static enum ofperr
handle_set_async_config(struct ofconn *ofconn, const struct ofp_header *oh)
{
    struct ofputil_async_cfg cfg;
    enum ofperr error = ofputil_decode_set_async_config(oh, false,
                                                        &ofconn->async,
                                                        &cfg);
    if (!error) {
        ofconn->async = cfg;
        /* A service connection that says which asynchronous messages it
         * wants gets them from now on, as in 3.1. */
        if (ofconn->type == OFCONN_SERVICE && !ofconn->miss_send_len) {
            ofconn->miss_send_len = OFP_DEFAULT_MISS_SEND_LEN;
        }
    }
    return error;
}

static enum ofperr
handle_set_controller_id(struct ofconn *ofconn, const struct ofp_header *oh)
{
    uint16_t id;
    enum ofperr error = ofputil_decode_set_controller_id(oh, &id);
    if (!error) {
        ofconn->controller_id = id;
    }
    return error;
}

/* NXT_CT_FLUSH_ZONE and NXT_CT_FLUSH: the bridge's datapath forgets the
 * connections of a zone, or those the match names (ct-dpif.h).  As in
 * 3.1, there is no reply, and a match that names no connection is no
 * error. */
static enum ofperr
handle_ct_flush(struct ofconn *ofconn, const struct ofp_header *oh,
                enum ofptype type)
{
    struct dpif *dpif = ofconn_ofproto(ofconn)->backer->dpif;
    enum ofperr error;
    if (type == OFPTYPE_CT_FLUSH_ZONE) {
        uint16_t zone;
        error = ofputil_decode_ct_flush_zone(oh, &zone);
        if (!error) {
            dpif_ct_flush(dpif, &zone, NULL);
        }
    } else {
        struct ofputil_ct_match match;
        bool with_zone;
        uint16_t zone;
        error = ofputil_decode_ct_flush(oh, &match, &with_zone, &zone);
        if (!error) {
            dpif_ct_flush(dpif, with_zone ? &zone : NULL, &match);
        }
    }
    return error;
}

static enum ofperr
handle_echo_request(struct ofconn *ofconn, const struct ofp_header *oh)
{
    /* The rconn answers echo requests itself; this is for one that gets
     * through anyway. */
    struct ofpbuf *reply = ofpraw_alloc_reply(OFPRAW_OFPT_ECHO_REPLY, oh,
                                              0);
    ofpbuf_put(reply, ofpmsg_body(oh), ntohs(oh->length) - sizeof *oh);
    ofconn_send(ofconn, reply);
    return 0;
}

static enum ofperr
handle_tlv_table_mod(struct ofconn *ofconn, const struct ofp_header *oh)
{
    enum ofperr error = reject_slave(ofconn);
    if (error) {
        return error;
    }
    struct ofputil_tlv_table_mod ttm;
    error = ofputil_decode_tlv_table_mod(oh, &ttm);
    if (!error) {
        error = ofproto_tlv_table_mod(ofconn_ofproto(ofconn), &ttm);
        ofputil_tlv_table_mod_uninit(&ttm);
    }
    return error;
}

static enum ofperr
handle_tlv_table_request(struct ofconn *ofconn, const struct ofp_header *oh)
{
    ofconn_send(ofconn, ofproto_tlv_table_reply(ofconn_ofproto(ofconn), oh));
    return 0;
}

static enum ofperr
handle_message(struct ofconn *ofconn, const struct ofp_header *oh)
{
    enum ofptype type;
    enum ofperr error = ofptype_decode(&type, oh);
    if (error) {
        return error;
    }
    switch (type) {
    case OFPTYPE_HELLO:
    case OFPTYPE_ECHO_REPLY:
    case OFPTYPE_ERROR:
        return 0;
    case OFPTYPE_ECHO_REQUEST:
        return handle_echo_request(ofconn, oh);
    case OFPTYPE_FEATURES_REQUEST:
        return handle_features_request(ofconn, oh);
    case OFPTYPE_BUNDLE_CONTROL:
        return ofconn_handle_bundle_control(ofconn, oh);
    case OFPTYPE_BUNDLE_ADD_MESSAGE:
        return ofconn_handle_bundle_add(ofconn, oh);
    case OFPTYPE_GET_CONFIG_REQUEST:
        return handle_get_config_request(ofconn, oh);
    case OFPTYPE_SET_CONFIG:
        return handle_set_config(ofconn, oh);
    case OFPTYPE_BARRIER_REQUEST:
        return handle_barrier_request(ofconn, oh);
    case OFPTYPE_FLOW_MOD:
        return handle_flow_mod(ofconn, oh);
    case OFPTYPE_FLOW_STATS_REQUEST:
    case OFPTYPE_AGGREGATE_STATS_REQUEST:
        return handle_flow_stats_request(ofconn, oh);
    case OFPTYPE_PORT_MOD:
        return handle_port_mod(ofconn, oh);
    case OFPTYPE_TABLE_MOD:
        return handle_table_mod(ofconn, oh);
    case OFPTYPE_TABLE_DESC_REQUEST:
        return handle_table_desc_request(ofconn, oh);
    case OFPTYPE_PACKET_OUT:
        return handle_packet_out(ofconn, oh);
    case OFPTYPE_PORT_DESC_STATS_REQUEST:
        return handle_port_desc_request(ofconn, oh);
    case OFPTYPE_PORT_STATS_REQUEST:
        return handle_port_stats_request(ofconn, oh);
    case OFPTYPE_QUEUE_STATS_REQUEST:
        return handle_queue_stats_request(ofconn, oh);
    case OFPTYPE_QUEUE_GET_CONFIG_REQUEST:
    case OFPTYPE_QUEUE_DESC_STATS_REQUEST:
        return handle_queue_config_request(ofconn, oh);
    case OFPTYPE_DESC_STATS_REQUEST:
        return handle_desc_request(ofconn, oh);
    case OFPTYPE_TABLE_STATS_REQUEST:
        return handle_table_stats_request(ofconn, oh);
    case OFPTYPE_TABLE_FEATURES_STATS_REQUEST:
        return ofconn_handle_table_features_request(ofconn, oh);
    case OFPTYPE_ROLE_REQUEST:
        return handle_role_request(ofconn, oh);
    case OFPTYPE_SET_FLOW_FORMAT:
        return handle_set_flow_format(ofconn, oh);
    case OFPTYPE_FLOW_MOD_TABLE_ID:
        return handle_flow_mod_table_id(ofconn, oh);
    case OFPTYPE_SET_PACKET_IN_FORMAT:
        return handle_set_packet_in_format(ofconn, oh);
    case OFPTYPE_GET_ASYNC_REQUEST:
        return handle_get_async_request(ofconn, oh);
    case OFPTYPE_SET_ASYNC_CONFIG:
        return handle_set_async_config(ofconn, oh);
    case OFPTYPE_SET_CONTROLLER_ID:
        return handle_set_controller_id(ofconn, oh);
    case OFPTYPE_CT_FLUSH_ZONE:
    case OFPTYPE_CT_FLUSH:
        return handle_ct_flush(ofconn, oh, type);
    case OFPTYPE_GROUP_MOD:
        return handle_group_mod(ofconn, oh);
    case OFPTYPE_GROUP_DESC_STATS_REQUEST:
        return handle_group_request(ofconn, oh, false);
    case OFPTYPE_GROUP_STATS_REQUEST:
        return handle_group_request(ofconn, oh, true);
    case OFPTYPE_GROUP_FEATURES_STATS_REQUEST:
        return handle_group_features_request(ofconn, oh);
    case OFPTYPE_METER_MOD:
        return handle_meter_mod(ofconn, oh);
    case OFPTYPE_METER_STATS_REQUEST:
    case OFPTYPE_METER_CONFIG_STATS_REQUEST:
    case OFPTYPE_METER_FEATURES_STATS_REQUEST:
        return handle_meter_request(ofconn, oh, type);
    case OFPTYPE_FLOW_MONITOR_STATS_REQUEST:
        return ofmonitor_handle_request(ofconn, oh);
    case OFPTYPE_FLOW_MONITOR_CANCEL:
        return ofmonitor_handle_cancel(ofconn, oh);
    case OFPTYPE_NXT_TLV_TABLE_MOD:
        return handle_tlv_table_mod(ofconn, oh);
    case OFPTYPE_NXT_TLV_TABLE_REQUEST:
        return handle_tlv_table_request(ofconn, oh);

    /* Replies and switch-to-controller messages a switch never takes. */
    case OFPTYPE_FEATURES_REPLY:
    case OFPTYPE_GET_CONFIG_REPLY:
    case OFPTYPE_PACKET_IN:
    case OFPTYPE_FLOW_REMOVED:
    case OFPTYPE_PORT_STATUS:
    case OFPTYPE_BARRIER_REPLY:
    case OFPTYPE_QUEUE_GET_CONFIG_REPLY:
    case OFPTYPE_ROLE_REPLY:
    case OFPTYPE_GET_ASYNC_REPLY:
    case OFPTYPE_ROLE_STATUS:
    case OFPTYPE_TABLE_STATUS:
    case OFPTYPE_REQUESTFORWARD:
    case OFPTYPE_DESC_STATS_REPLY:
    case OFPTYPE_FLOW_STATS_REPLY:
    case OFPTYPE_AGGREGATE_STATS_REPLY:
    case OFPTYPE_TABLE_STATS_REPLY:
    case OFPTYPE_PORT_STATS_REPLY:
    case OFPTYPE_QUEUE_STATS_REPLY:
    case OFPTYPE_QUEUE_DESC_STATS_REPLY:
    case OFPTYPE_GROUP_STATS_REPLY:
    case OFPTYPE_GROUP_DESC_STATS_REPLY:
    case OFPTYPE_GROUP_FEATURES_STATS_REPLY:
    case OFPTYPE_METER_STATS_REPLY:
    case OFPTYPE_METER_CONFIG_STATS_REPLY:
    case OFPTYPE_METER_FEATURES_STATS_REPLY:
    case OFPTYPE_TABLE_FEATURES_STATS_REPLY:
    case OFPTYPE_TABLE_DESC_REPLY:
    case OFPTYPE_PORT_DESC_STATS_REPLY:
    case OFPTYPE_FLOW_MONITOR_STATS_REPLY:
    case OFPTYPE_FLOW_MONITOR_PAUSED:
    case OFPTYPE_FLOW_MONITOR_RESUMED:
    case OFPTYPE_NXT_TLV_TABLE_REPLY:
        return OFPERR_OFPBRC_BAD_TYPE;

    /* Not implemented yet in this switch. */
    case OFPTYPE_FLOW_AGE:
    case OFPTYPE_NXT_RESUME:
    default:
        return (ofpmsg_is_stat_request(oh) ? OFPERR_OFPBRC_BAD_STAT
                : OFPERR_OFPBRC_BAD_TYPE);
    }
}

void
ofconn_run(struct ofconn *ofconn)
{
    rconn_run(ofconn->rconn);
    if (time_msec() >= ofconn->next_op_report) {
        connmgr_log_flow_mods(ofconn);
    }
    if (!rconn_is_connected(ofconn->rconn)) {
        if (ofconn->connected) {
            connmgr_log_flow_mods(ofconn);
        }
        ofconn->connected = false;
        return;
    }
    if (!ofconn->connected
        || ofconn->seqno != rconn_get_connection_seqno(ofconn->rconn)) {
        ofconn_reset(ofconn, rconn_get_version(ofconn->rconn));
    }
    ofmonitor_run(ofconn);
    for (int i = 0; i < 2; i++) {
        if (ofconn->schedulers[i]) {
            struct ovs_list txq = OVS_LIST_INITIALIZER(&txq);
            pinsched_run(ofconn->schedulers[i], &txq);
            if (!ovs_list_is_empty(&txq)) {
                send_packet_ins(ofconn, &txq);
                connmgr_packet_in_stats_changed(ofconn->mgr);
            }
        }
    }
    ofconn_bundles_run(ofconn);
    ofconn->backlog = false;
    for (int i = 0; i < OFCONN_BATCH; i++) {
        struct ofpbuf *msg = rconn_recv(ofconn->rconn);
        if (!msg) {
            break;
        }
        ofconn->backlog = i == OFCONN_BATCH - 1;
        const struct ofp_header *oh = msg->data;
        /* Flow monitors tell this connection's own table changes apart. */
        struct ofproto *ofproto = ofconn_ofproto(ofconn);
        ofproto_set_change_origin(ofproto, ofconn, oh->xid);
        enum ofperr error = handle_message(ofconn, oh);
        ofproto_set_change_origin(ofproto, NULL, htonl(0));
        if (error) {
            ofconn_send_error(ofconn, error, oh);
        }
        ofpbuf_delete(msg);
    }
}

void
ofconn_wait(struct ofconn *ofconn)
{
    rconn_run_wait(ofconn->rconn);
    if (ofconn->next_op_report != LLONG_MAX) {
        poll_timer_wait_until(ofconn->next_op_report);
    }
    for (int i = 0; i < 2; i++) {
        if (ofconn->schedulers[i] && ofconn->connected) {
            pinsched_wait(ofconn->schedulers[i]);
        }
    }
    ofconn_bundles_wait(ofconn);
    if (ofconn->backlog) {
        poll_immediate_wake();
    } else {
        rconn_recv_wait(ofconn->rconn);
    }
    ofmonitor_wait(ofconn);
}
