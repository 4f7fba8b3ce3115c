/* connmgr: see connmgr.h.  The message handlers are in ofconn-handlers.c;
 * this file keeps the connections, listeners, controllers and events. */
#include <config.h>
#include "connmgr.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "coverage.h"
#include "dirs.h"
#include "dynamic-string.h"
#include "hash.h"
#include "ofconn.h"
#include "ofmonitor.h"
#include "ofp-errors.h"
#include "ofp-flow.h"
#include "ofp-msgs.h"
#include "ofp-phy-port.h"
#include "ofp-protocol.h"
#include "ofp-requestforward.h"
#include "ofp-table.h"
#include "ofpbuf.h"
#include "ofproto-private.h"
#include "poll-loop.h"
#include "rconn.h"
#include "seq.h"
#include "shash.h"
#include "timeval.h"
#include "util.h"
#include "vconn.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(connmgr);

/* Inactivity probe interval of the management socket's connections. */
#define MGMT_PROBE_INTERVAL_S 60

COVERAGE_DEFINE(connmgr_msg);
COVERAGE_DEFINE(connmgr_flow_removed_sent);

/* A configured controller. */
struct controller {
    struct hmap_node node;      /* In connmgr->controllers, by target. */
    char *target;
    struct connmgr_controller_settings s;
    enum ofconn_type type;      /* From s.type and the target (see .h). */
    bool passive;               /* A listening target. */
    struct ofconn *ofconn;      /* Active target: its one connection. */
    struct pvconn *pvconn;      /* Passive target: the listener. */
};

struct connmgr {
    struct ofproto *ofproto;
    char *name;                 /* The bridge's. */
    struct pvconn *mgmt;        /* punix:<rundir>/<bridge>.mgmt. */
    struct pvconn *snoop;       /* punix:<rundir>/<bridge>.snoop. */
    struct hmap controllers;    /* struct controller, by target. */
    struct ovs_list ofconns;    /* struct ofconn, every connection. */
    uint64_t events_seq;        /* ofproto_events_seq() last drained. */
    uint64_t status_seqno;      /* Bumped on a controller change. */
    bool fail_open;             /* The hidden NORMAL rule is in. */
    bool have_generation_id;    /* OpenFlow 1.2 role generation ids. */
    uint64_t generation_id;
    uint32_t allowed_versions;  /* Bridge:protocols; 0: all. */
    /* Rate limiters' counters moved since Controller:status was last
     * told; it is told again no sooner than 'next_pin_stats'. */
    bool pin_stats_dirty;
    long long int next_pin_stats;
};

static void
open_listener(const char *name, uint32_t allowed_versions,
              struct pvconn **pvconnp)
{
    int error = pvconn_open(name, allowed_versions, 0, pvconnp);
    if (error) {
        VLOG_ERR("%s: listening failed (%s)", name, ovs_strerror(error));
        *pvconnp = NULL;
    }
}

/* ofproto's flow change callback: to every connection's monitors. */
static void
report_flow_change(const struct ofproto_flow_change *change, void *mgr_)
{
    struct connmgr *mgr = mgr_;
    struct ofconn *ofconn;
    LIST_FOR_EACH (ofconn, node, &mgr->ofconns) {
        if (change) {
            ofmonitor_report(ofconn, change);
        } else {
            ofmonitor_flush(ofconn);
        }
    }
}

struct connmgr *
connmgr_create(struct ofproto *ofproto, const char *bridge_name)
{
    struct connmgr *mgr = xzalloc(sizeof *mgr);
    mgr->ofproto = ofproto;
    mgr->name = xstrdup(bridge_name);
    hmap_init(&mgr->controllers);
    ovs_list_init(&mgr->ofconns);
    mgr->events_seq = seq_read(ofproto_events_seq(ofproto));
    ofproto_set_flow_change_cb(ofproto, report_flow_change, mgr);

    char *mgmt = xasprintf("punix:%s/%s.mgmt", ovs_rundir(), bridge_name);
    open_listener(mgmt, 0, &mgr->mgmt);
    free(mgmt);

    char *snoop = xasprintf("punix:%s/%s.snoop", ovs_rundir(), bridge_name);
    open_listener(snoop, 0, &mgr->snoop);
    free(snoop);
    return mgr;
}

static void
controller_destroy(struct connmgr *mgr, struct controller *c)
{
    hmap_remove(&mgr->controllers, &c->node);
    /* Its connections go with it: the active target's one, or those the
     * listener accepted. */
    struct ofconn *ofconn;
    LIST_FOR_EACH_SAFE (ofconn, node, &mgr->ofconns) {
        if (ofconn->listener == c) {
            ofconn_destroy(ofconn);
        }
    }
    pvconn_close(c->pvconn);
    free(c->target);
    free(c);
}

void
connmgr_destroy(struct connmgr *mgr)
{
    if (!mgr) {
        return;
    }
    ofproto_set_flow_change_cb(mgr->ofproto, NULL, NULL);
    struct controller *c;
    HMAP_FOR_EACH_SAFE (c, node, &mgr->controllers) {
        controller_destroy(mgr, c);
    }
    struct ofconn *ofconn;
    LIST_FOR_EACH_SAFE (ofconn, node, &mgr->ofconns) {
        ofconn_destroy(ofconn);
    }
    hmap_destroy(&mgr->controllers);
    pvconn_close(mgr->mgmt);
    pvconn_close(mgr->snoop);
    if (mgr->fail_open) {
        ofproto_set_fail_open(mgr->ofproto, false);
    }
    free(mgr->name);
    free(mgr);
}

static struct controller *
controller_lookup(const struct connmgr *mgr, const char *target)
{
    struct controller *c;
    HMAP_FOR_EACH_WITH_HASH (c, node, hash_string(target, 0),
                             &mgr->controllers) {
        if (!strcmp(c->target, target)) {
            return c;
        }
    }
    return NULL;
}

static bool
settings_equal(const struct connmgr_controller_settings *a,
               const struct connmgr_controller_settings *b)
{
    return (a->type == b->type
            && a->probe_interval == b->probe_interval
            && a->max_backoff == b->max_backoff
            && a->allowed_versions == b->allowed_versions);
}

/* A connection's name in the log, as 3.1 writes it: "br0<->TARGET". */
static char *
connection_name(const struct connmgr *mgr, const char *target)
{
    return xasprintf("%s<->%s", mgr->name, target);
}

const struct connmgr_controller_settings *
connmgr_controller_get_settings(const struct controller *c)
{
    return &c->s;
}

void
connmgr_packet_in_stats_changed(struct connmgr *mgr)
{
    mgr->pin_stats_dirty = true;
}

void
connmgr_send_requestforward(struct connmgr *mgr, const struct ofconn *source,
                            const struct ofputil_requestforward *rf)
{
    struct ofconn *ofconn;
    LIST_FOR_EACH (ofconn, node, &mgr->ofconns) {
        enum ofp_version version = rconn_get_version(ofconn->rconn);
        if (ofconn != source
            && ofconn_wants_async(ofconn, OAM_REQUESTFORWARD, rf->reason)
            && (rf->reason != OFPRFR_METER_MOD || version >= OFP13_VERSION)) {
            ofconn_send(ofconn, ofputil_encode_requestforward(rf, version));
        }
    }
}

void
connmgr_log_flow_mods(struct ofconn *ofconn)
{
    int n = ofconn->n_add + ofconn->n_delete + ofconn->n_modify;
    if (n) {
        long long int now = time_msec();
        long long int ago = (now - ofconn->first_op) / 1000;
        long long int interval = (ofconn->last_op - ofconn->first_op) / 1000;
        struct ds s = DS_EMPTY_INITIALIZER;
        ds_put_format(&s, "%d flow_mods ", n);
        if (interval == ago) {
            ds_put_format(&s, "in the last %lld s", ago);
        } else if (interval) {
            ds_put_format(&s, "in the %lld s starting %lld s ago",
                          interval, ago);
        } else {
            ds_put_format(&s, "%lld s ago", ago);
        }
        const char *sep = " (";
        if (ofconn->n_add) {
            ds_put_format(&s, "%s%d adds", sep, ofconn->n_add);
            sep = ", ";
        }
        if (ofconn->n_delete) {
            ds_put_format(&s, "%s%d deletes", sep, ofconn->n_delete);
            sep = ", ";
        }
        if (ofconn->n_modify) {
            ds_put_format(&s, "%s%d modifications", sep, ofconn->n_modify);
        }
        ds_put_char(&s, ')');
        VLOG_INFO("%s: %s", rconn_get_name(ofconn->rconn), ds_cstr(&s));
        ds_destroy(&s);
        ofconn->n_add = ofconn->n_delete = ofconn->n_modify = 0;
    }
    ofconn->next_op_report = LLONG_MAX;
}

static void
controller_start(struct connmgr *mgr, struct controller *c)
{
    bool passive = !pvconn_verify_name(c->target);
    c->passive = passive;
    c->type = (c->s.type == CONNMGR_CONTROLLER_SERVICE ? OFCONN_SERVICE
               : c->s.type == CONNMGR_CONTROLLER_PRIMARY ? OFCONN_PRIMARY
               : passive ? OFCONN_SERVICE : OFCONN_PRIMARY);
    if (passive) {
        open_listener(c->target, c->s.allowed_versions, &c->pvconn);
    } else {
        struct rconn *rconn = rconn_create(c->s.probe_interval,
                                           c->s.max_backoff, 0,
                                           c->s.allowed_versions);
        char *name = connection_name(mgr, c->target);
        rconn_connect(rconn, c->target, name);
        free(name);
        c->ofconn = ofconn_create(mgr, rconn, c->type, c);
    }
}

void
connmgr_set_allowed_versions(struct connmgr *mgr, uint32_t allowed_versions)
{
    mgr->allowed_versions = allowed_versions;
    if (mgr->mgmt) {
        pvconn_set_allowed_versions(mgr->mgmt, allowed_versions);
    }
}

void
connmgr_set_controllers(struct connmgr *mgr,
                        const struct connmgr_controller_settings *settings,
                        size_t n)
{
    bool had_controllers = connmgr_has_controllers(mgr);
    struct shash wanted = SHASH_INITIALIZER(&wanted);
    for (size_t i = 0; i < n; i++) {
        if (vconn_verify_name(settings[i].target)
            && pvconn_verify_name(settings[i].target)) {
            VLOG_WARN("%s: bad controller target \"%s\"", mgr->name,
                      settings[i].target);
            continue;
        }
        shash_add_once(&wanted, settings[i].target, &settings[i]);
    }

    struct controller *c;
    HMAP_FOR_EACH_SAFE (c, node, &mgr->controllers) {
        const struct connmgr_controller_settings *s
            = shash_find_data(&wanted, c->target);
        if (!s || !settings_equal(s, &c->s)) {
            controller_destroy(mgr, c);
            mgr->status_seqno++;
        } else if (s->rate_limit != c->s.rate_limit
                   || s->burst_limit != c->s.burst_limit) {
            c->s.rate_limit = s->rate_limit;
            c->s.burst_limit = s->burst_limit;
            struct ofconn *ofconn;
            LIST_FOR_EACH (ofconn, node, &mgr->ofconns) {
                if (ofconn->listener == c) {
                    ofconn_set_rate_limit(ofconn, s->rate_limit,
                                          s->burst_limit);
                }
            }
            mgr->status_seqno++;
        }
    }
    struct shash_node *node;
    SHASH_FOR_EACH (node, &wanted) {
        const struct connmgr_controller_settings *s = node->data;
        if (controller_lookup(mgr, s->target)) {
            continue;
        }
        c = xzalloc(sizeof *c);
        c->target = xstrdup(s->target);
        c->s = *s;
        c->s.target = c->target;
        hmap_insert(&mgr->controllers, &c->node, hash_string(c->target, 0));
        controller_start(mgr, c);
        mgr->status_seqno++;
    }
    shash_destroy(&wanted);

    /* As Open vSwitch: gaining the first controller or losing the last
     * starts the tables over (and a standalone bridge without controllers
     * gets its NORMAL rule back). */
    bool has_controllers = connmgr_has_controllers(mgr);
    if (has_controllers != had_controllers) {
        ofproto_set_has_controllers(mgr->ofproto, has_controllers);
    }
}

bool
connmgr_has_controllers(const struct connmgr *mgr)
{
    const struct controller *c;
    HMAP_FOR_EACH (c, node, &mgr->controllers) {
        if (c->type == OFCONN_PRIMARY) {
            return true;
        }
    }
    return false;
}

/* Whether some controller connection is up. */
static bool
any_controller_connected(const struct connmgr *mgr)
{
    const struct ofconn *ofconn;
    LIST_FOR_EACH (ofconn, node, &mgr->ofconns) {
        if (ofconn->type == OFCONN_PRIMARY
            && rconn_is_connected(ofconn->rconn)) {
            return true;
        }
    }
    return false;
}

static void
accept_from(struct connmgr *mgr, struct pvconn *pvconn,
            enum ofconn_type type, struct controller *listener)
{
    for (int i = 0; i < 16; i++) {
        struct vconn *vconn;
        int error = pvconn_accept(pvconn, &vconn);
        if (error) {
            if (error != EAGAIN) {
                static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
                VLOG_WARN_RL(&rl, "%s: accept failed (%s)",
                             pvconn_get_name(pvconn), ovs_strerror(error));
            }
            return;
        }
        /* A controller target's connections are probed, whatever their
         * type (3.1 probes a service target's too); the management
         * socket's every 60 s, as 3.1's (a tool that watches the switch,
         * ovs-ofctl monitor, sees those echo requests). */
        struct rconn *rconn = rconn_create(
            listener ? listener->s.probe_interval : MGMT_PROBE_INTERVAL_S,
            0, 0, 0);
        char *name = connection_name(mgr, vconn_get_name(vconn));
        rconn_connect_unreliably(rconn, vconn, name);
        free(name);
        struct ofconn *ofconn = ofconn_create(mgr, rconn, type, listener);
        (void) ofconn;
        if (type == OFCONN_PRIMARY) {
            mgr->status_seqno++;
        }
    }
}

/* How much a snooper would rather watch OFCONN, as Open vSwitch ranks
 * controller connections: the master, then an equal, then a slave. */
static int
snoop_preference(const struct ofconn *ofconn)
{
    switch (ofconn->role) {
    case OFPCR12_ROLE_MASTER:
        return 3;
    case OFPCR12_ROLE_EQUAL:
        return 2;
    case OFPCR12_ROLE_SLAVE:
        return 1;
    default:
        return 0;
    }
}

/* A snooper watches one controller connection, the one it prefers (the
 * first of equals); with no controller connection it is turned away. */
static void
accept_snoopers(struct connmgr *mgr)
{
    for (int i = 0; i < 16; i++) {
        struct vconn *vconn;
        int error = pvconn_accept(mgr->snoop, &vconn);
        if (error) {
            if (error != EAGAIN) {
                static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
                VLOG_WARN_RL(&rl, "%s: accept failed (%s)",
                             pvconn_get_name(mgr->snoop),
                             ovs_strerror(error));
            }
            return;
        }
        struct ofconn *best = NULL, *ofconn;
        LIST_FOR_EACH (ofconn, node, &mgr->ofconns) {
            if (ofconn->type == OFCONN_PRIMARY
                && (!best
                    || snoop_preference(ofconn) > snoop_preference(best))) {
                best = ofconn;
            }
        }
        if (best) {
            rconn_add_monitor(best->rconn, vconn);
        } else {
            static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
            VLOG_INFO_RL(&rl, "no controller connection to snoop");
            vconn_close(vconn);
        }
    }
}

/* Sends FR to every connection that wants it. */

static void
send_flow_removed(struct connmgr *mgr, const struct ofproto_flow_removed *fr)
{
    struct ofputil_flow_removed ofr = {
        .match = fr->match,
        .cookie = fr->cookie,
        .priority = fr->priority,
        .reason = fr->reason,
        .table_id = fr->table_id,
        .duration_sec = fr->duration_sec,
        .duration_nsec = fr->duration_nsec,
        .idle_timeout = fr->idle_timeout,
        .hard_timeout = fr->hard_timeout,
        .packet_count = fr->packet_count,
        .byte_count = fr->byte_count,
    };
    struct ofconn *ofconn;
    LIST_FOR_EACH (ofconn, node, &mgr->ofconns) {
        if (ofconn_wants_async(ofconn, OAM_FLOW_REMOVED, fr->reason)) {
            COVERAGE_INC(connmgr_flow_removed_sent);
            ofconn_send(ofconn, ofputil_encode_flow_removed(
                            &ofr, ofconn->protocol));
        }
    }
}

void
connmgr_send_port_status(struct connmgr *mgr)
{
    struct ofproto_port_status ps;
    while (ofproto_pop_port_status(mgr->ofproto, &ps)) {
        struct ofputil_port_status ops = { .reason = ps.reason,
                                           .desc = ps.desc };
        struct ofconn *ofconn;
        LIST_FOR_EACH (ofconn, node, &mgr->ofconns) {
            /* Before 1.5 the connection that made the change is not
             * told of it (as 3.1 reads the specifications). */
            if (ofconn == ps.source && ofputil_protocol_to_ofp_version(
                    ofconn->protocol) < OFP15_VERSION) {
                continue;
            }
            if (!ofconn_wants_async(ofconn, OAM_PORT_STATUS, ps.reason)) {
                continue;
            }
            enum ofp_version version = ofputil_protocol_to_ofp_version(
                ofconn->protocol);
            struct ofpbuf *msg = ofputil_encode_port_status(&ops, version);
            if (ps.has_old_desc) {
                /* A change this version cannot show (NO_FLOOD in 1.1+,
                 * say) is no change to this connection. */
                struct ofputil_port_status old = { .reason = ps.reason,
                                                   .desc = ps.old_desc };
                struct ofpbuf *old_msg = ofputil_encode_port_status(&old,
                                                                    version);
                bool same = (msg->size == old_msg->size
                             && !memcmp(msg->data, old_msg->data,
                                        msg->size));
                ofpbuf_delete(old_msg);
                if (same) {
                    ofpbuf_delete(msg);
                    continue;
                }
            }
            ofconn_send(ofconn, msg);
        }
    }
}

/* Table status goes to 1.4+ connections that take the reason. */
static void
send_table_status(struct connmgr *mgr, const struct ofputil_table_status *ts)
{
    struct ofconn *ofconn;
    LIST_FOR_EACH (ofconn, node, &mgr->ofconns) {
        enum ofp_version version = ofputil_protocol_to_ofp_version(
            ofconn->protocol);
        if (version >= OFP14_VERSION
            && ofconn_wants_async(ofconn, OAM_TABLE_STATUS, ts->reason)) {
            ofconn_send(ofconn, ofputil_encode_table_status(ts, version));
        }
    }
}

static void
send_queued_events(struct connmgr *mgr)
{
    connmgr_send_port_status(mgr);
    struct ofproto_table_status ts;
    while (ofproto_pop_table_status(mgr->ofproto, &ts)) {
        send_table_status(mgr, &ts.ts);
    }
    struct ofproto_flow_removed fr;
    while (ofproto_pop_flow_removed(mgr->ofproto, &fr)) {
        send_flow_removed(mgr, &fr);
    }
    struct ofproto_packet_in pin;
    while (ofproto_pop_packet_in(mgr->ofproto, &pin)) {
        struct ofconn *ofconn;
        LIST_FOR_EACH (ofconn, node, &mgr->ofconns) {
            ofconn_send_packet_in(ofconn, &pin);
        }
        free(pin.packet);
    }
}

static void
drain_events(struct connmgr *mgr)
{
    /* The events of one iteration go out in one write per connection: a
     * controller flooded with packet_ins would otherwise cost a system call
     * and a TCP segment each. */
    struct ofconn *ofconn;
    LIST_FOR_EACH (ofconn, node, &mgr->ofconns) {
        rconn_cork(ofconn->rconn);
    }
    send_queued_events(mgr);
    LIST_FOR_EACH (ofconn, node, &mgr->ofconns) {
        rconn_uncork(ofconn->rconn);
    }
}

/* What translation needs to know of the connections: whether misses go
 * to a controller, and whether fail-open forwards. */
static void
update_ofproto(struct connmgr *mgr)
{
    bool miss = false;
    const struct ofconn *ofconn;
    LIST_FOR_EACH (ofconn, node, &mgr->ofconns) {
        miss |= ofconn_wants_misses(ofconn);
    }
    ofproto_set_miss_to_controller(mgr->ofproto, miss);

    bool fail_open = (connmgr_has_controllers(mgr)
                      && ofproto_get_fail_mode(mgr->ofproto)
                         == OFPROTO_FAIL_STANDALONE
                      && !any_controller_connected(mgr));
    if (fail_open != mgr->fail_open) {
        mgr->fail_open = fail_open;
        ofproto_set_fail_open(mgr->ofproto, fail_open);
        VLOG_INFO("%s: %s fail-open mode", mgr->name,
                  fail_open ? "entering" : "leaving");
    }
}

void
connmgr_run(struct connmgr *mgr)
{
    if (mgr->mgmt) {
        accept_from(mgr, mgr->mgmt, OFCONN_SERVICE, NULL);
    }
    if (mgr->snoop) {
        accept_snoopers(mgr);
    }
    struct controller *c;
    HMAP_FOR_EACH (c, node, &mgr->controllers) {
        if (c->pvconn) {
            accept_from(mgr, c->pvconn, c->type, c);
        }
    }

    /* Events first, so a flow_removed caused by a flow_mod below goes out
     * after the replies to what came before it. */
    mgr->events_seq = seq_read(ofproto_events_seq(mgr->ofproto));
    drain_events(mgr);

    struct ofconn *ofconn;
    LIST_FOR_EACH_SAFE (ofconn, node, &mgr->ofconns) {
        unsigned int seqno = rconn_get_connection_seqno(ofconn->rconn);
        bool was_connected = ofconn->connected;
        ofconn_run(ofconn);
        if (ofconn->type == OFCONN_PRIMARY
            && (seqno != rconn_get_connection_seqno(ofconn->rconn)
                || was_connected != ofconn->connected)) {
            mgr->status_seqno++;
        }
        if (!rconn_is_alive(ofconn->rconn)) {
            if (ofconn->type == OFCONN_PRIMARY) {
                mgr->status_seqno++;
            }
            if (ofconn->listener && ofconn->listener->ofconn == ofconn) {
                ofconn->listener->ofconn = NULL;
            }
            ofconn_destroy(ofconn);
        }
    }
    /* Flow_mods just handled may have removed rules that report. */
    drain_events(mgr);
    update_ofproto(mgr);

    if (mgr->pin_stats_dirty && time_msec() >= mgr->next_pin_stats) {
        mgr->pin_stats_dirty = false;
        mgr->next_pin_stats = time_msec() + CONNMGR_PIN_STATS_INTERVAL;
        mgr->status_seqno++;
    }
}

void
connmgr_wait(struct connmgr *mgr)
{
    if (mgr->mgmt) {
        pvconn_wait(mgr->mgmt);
    }
    if (mgr->snoop) {
        pvconn_wait(mgr->snoop);
    }
    struct controller *c;
    HMAP_FOR_EACH (c, node, &mgr->controllers) {
        if (c->pvconn) {
            pvconn_wait(c->pvconn);
        }
    }
    struct ofconn *ofconn;
    LIST_FOR_EACH (ofconn, node, &mgr->ofconns) {
        ofconn_wait(ofconn);
    }
    seq_wait(ofproto_events_seq(mgr->ofproto), mgr->events_seq);
    if (mgr->pin_stats_dirty) {
        poll_timer_wait_until(mgr->next_pin_stats);
    }
}

void
connmgr_register(struct connmgr *mgr, struct ofconn *ofconn)
{
    ovs_list_push_back(&mgr->ofconns, &ofconn->node);
}

struct ofproto *
connmgr_get_ofproto(const struct connmgr *mgr)
{
    return mgr->ofproto;
}

void
connmgr_role_changed(struct connmgr *mgr, struct ofconn *master)
{
    /* A new master demotes the old one to slave (OpenFlow 1.2). */
    if (master) {
        struct ofconn *ofconn;
        LIST_FOR_EACH (ofconn, node, &mgr->ofconns) {
            if (ofconn != master && ofconn->role == OFPCR12_ROLE_MASTER) {
                ofconn_set_role(ofconn, OFPCR12_ROLE_SLAVE, true);
            }
        }
    }
    mgr->status_seqno++;
}

bool
connmgr_check_generation_id(struct connmgr *mgr, uint64_t gen)
{
    /* Stale: older than the newest seen, in wrap-around order. */
    if (mgr->have_generation_id && (int64_t) (gen - mgr->generation_id) < 0) {
        return false;
    }
    mgr->have_generation_id = true;
    mgr->generation_id = gen;
    return true;
}

bool
connmgr_get_generation_id(const struct connmgr *mgr, uint64_t *gen)
{
    *gen = mgr->generation_id;
    return mgr->have_generation_id;
}

bool
connmgr_get_status(const struct connmgr *mgr, const char *target,
                   struct connmgr_status *st)
{
    const struct controller *c = controller_lookup(mgr, target);
    if (!c) {
        return false;
    }
    memset(st, 0, sizeof *st);
    if (c->passive) {
        st->passive = true;
        return true;
    }
    st->role = "other";
    st->state = c->pvconn ? "LISTENING" : "VOID";
    st->sec_since_connect = st->sec_since_disconnect = -1;

    const struct ofconn *ofconn;
    LIST_FOR_EACH (ofconn, node, &mgr->ofconns) {
        if (ofconn->listener != c) {
            continue;
        }
        for (int i = 0; i < 2; i++) {
            if (ofconn->schedulers[i]) {
                struct pinsched_stats ps;
                pinsched_get_stats(ofconn->schedulers[i], &ps);
                struct pinsched_stats *sum = i ? &st->action : &st->miss;
                sum->n_backlog += ps.n_backlog;
                sum->n_bypassed += ps.n_bypassed;
                sum->n_queued += ps.n_queued;
                sum->n_dropped += ps.n_dropped;
                st->has_packet_in_stats = true;
            }
        }
        const struct rconn *rconn = ofconn->rconn;
        if (rconn_is_connected(rconn) || !st->is_connected) {
            st->is_connected = rconn_is_connected(rconn);
            st->role = ofconn_role_name(ofconn->role);
            st->state = rconn_get_state(rconn);
            st->last_error = rconn_get_last_error(rconn);
            time_t now = time_wall();
            time_t last = rconn_get_last_connection(rconn);
            st->sec_since_connect = last ? now - last : -1;
            last = rconn_get_last_disconnect(rconn);
            st->sec_since_disconnect = last ? now - last : -1;
        }
    }
    return true;
}

uint64_t
connmgr_status_seqno(const struct connmgr *mgr)
{
    return mgr->status_seqno;
}

void
connmgr_format(const struct connmgr *mgr, struct ds *s)
{
    const struct ofconn *ofconn;
    LIST_FOR_EACH (ofconn, node, &mgr->ofconns) {
        ds_put_format(s, "%s: %s %s %s\n", rconn_get_name(ofconn->rconn),
                      ofconn->type == OFCONN_PRIMARY ? "controller"
                                                     : "service",
                      rconn_get_state(ofconn->rconn),
                      ofconn_role_name(ofconn->role));
    }
}
