/* ofmonitor: OpenFlow flow monitors on one connection.  See ofmonitor.h. */
#include <config.h>
#include "ofmonitor.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "connmgr.h"
#include "hash.h"
#include "hmap.h"
#include "list.h"
#include "ofconn.h"
#include "ofp-actions.h"
#include "ofp-monitor.h"
#include "ofp-msgs.h"
#include "ofp-protocol.h"
#include "ofpbuf.h"
#include "ofproto-private.h"
#include "ofproto.h"
#include "poll-loop.h"
#include "rconn.h"
#include "util.h"

struct ofmonitor {
    struct hmap_node node;      /* In ofconn->monitors, by id. */
    uint32_t id;
    uint16_t flags;             /* NXFMF_*. */
    uint8_t table_id;           /* 0xff: every table. */
    uint32_t out_port;          /* OFPP_NONE: any. */
    uint32_t out_group;         /* OFPG_ANY: any. */
    struct match match;
};

static enum ofp_version
ofconn_monitor_version(const struct ofconn *ofconn)
{
    return ofputil_protocol_to_ofp_version(ofconn->protocol);
}

static struct ofmonitor *
ofmonitor_lookup(struct ofconn *ofconn, uint32_t id)
{
    struct ofmonitor *m;
    HMAP_FOR_EACH_WITH_HASH (m, node, hash_int(id, 0), &ofconn->monitors) {
        if (m->id == id) {
            return m;
        }
    }
    return NULL;
}

static void
ofmonitor_destroy(struct ofconn *ofconn, struct ofmonitor *m)
{
    hmap_remove(&ofconn->monitors, &m->node);
    free(m);
}

void
ofmonitor_destroy_all(struct ofconn *ofconn)
{
    struct ofmonitor *m;
    HMAP_FOR_EACH_SAFE (m, node, &ofconn->monitors) {
        ofmonitor_destroy(ofconn, m);
    }
    ofpbuf_list_delete(&ofconn->monitor_updates);
}

static void
ofmonitor_set(struct ofmonitor *m, const struct ofputil_flow_monitor_request *rq)
{
    m->flags = rq->flags;
    m->table_id = rq->table_id;
    m->out_port = rq->out_port;
    m->out_group = rq->out_group;
    m->match = rq->match;
}

/* Whether RULE matches only packets that CRITERIA matches too (OpenFlow's
 * loose match, as del-flows selects). */
static bool
match_is_loose(const struct match *rule, const struct match *criteria)
{
    const uint8_t *rf = (const uint8_t *) &rule->flow;
    const uint8_t *rm = (const uint8_t *) &rule->wc.masks;
    const uint8_t *cf = (const uint8_t *) &criteria->flow;
    const uint8_t *cm = (const uint8_t *) &criteria->wc.masks;
    for (size_t i = 0; i < sizeof rule->flow; i++) {
        if (cm[i] & ~rm[i] || (rf[i] & cm[i]) != (cf[i] & cm[i])) {
            return false;
        }
    }
    return true;
}

/* Whether monitor M selects the rule INFO (for out_port, also when only
 * its actions before a modify, OLD, output there). */
static bool
ofmonitor_selects(const struct ofmonitor *m,
                  const struct ofproto_rule_info *info,
                  const struct ofpact *old, size_t old_len)
{
    if (m->table_id != 0xff && m->table_id != info->table_id) {
        return false;
    }
    if (m->out_port != OFPP_NONE
        && !ofproto_ofpacts_reference(info->ofpacts, info->ofpacts_len,
                                      m->out_port, UINT32_MAX - 1)
        && !(old && ofproto_ofpacts_reference(old, old_len, m->out_port,
                                              UINT32_MAX - 1))) {
        return false;
    }
    /* out_group looks at the new actions alone, as in 3.1. */
    if (m->out_group != OFPG_ANY
        && !ofproto_ofpacts_reference(info->ofpacts, info->ofpacts_len,
                                      UINT32_MAX - 1, m->out_group)) {
        return false;
    }
    return match_is_loose(&info->match, &m->match);
}

static void
fill_update(struct ofputil_flow_update *u, int event, uint8_t reason,
            const struct ofproto_rule_info *info, bool with_actions)
{
    memset(u, 0, sizeof *u);
    u->event = event;
    u->reason = reason;
    u->idle_timeout = info->idle_timeout;
    u->hard_timeout = info->hard_timeout;
    u->table_id = info->table_id;
    u->priority = info->priority;
    u->cookie = info->cookie;
    u->match = info->match;
    if (with_actions) {
        u->ofpacts = info->ofpacts;
        u->ofpacts_len = info->ofpacts_len;
    }
}

/* Updates counted until the kernel took them: past this backlog the
 * monitors of the connection pause, as 3.1's do. */
#define OFMONITOR_PAUSE_BYTES (128 * 1024)

/* Sends the updates in REPLIES; if that makes the backlog too long,
 * pauses the connection's monitors and says so. */
static void
send_updates(struct ofconn *ofconn, struct ovs_list *replies)
{
    struct ofpbuf *msg;
    LIST_FOR_EACH_POP (msg, list_node, replies) {
        ofconn_send_counted(ofconn, msg, ofconn->monitor_counter);
        if (!ofconn->monitor_paused
            && ofconn->monitor_counter->n_bytes > OFMONITOR_PAUSE_BYTES) {
            struct ofproto *ofproto = connmgr_get_ofproto(ofconn->mgr);
            ofconn->monitor_paused = true;
            ofconn->monitor_paused_seqno = ofproto_get_change_seqno(ofproto);
            ofconn_send_counted(ofconn, ofputil_encode_flow_monitor_pause(
                                    OFPFME_PAUSED,
                                    ofconn_monitor_version(ofconn)),
                                ofconn->monitor_counter);
        }
    }
}

/* The initial dump of a request: every rule one of its new monitors with
 * "initial" selects, once, in dump order. */
struct initial_dump {
    struct ofconn *ofconn;
    struct ofmonitor **monitors;
    size_t n_monitors;
    struct ovs_list *replies;
    enum ofp_version version;
};

static void
initial_dump_rule(const struct ofproto_rule_info *info, void *dump_)
{
    struct initial_dump *dump = dump_;
    uint16_t flags = 0;
    for (size_t i = 0; i < dump->n_monitors; i++) {
        const struct ofmonitor *m = dump->monitors[i];
        if (m->flags & NXFMF_INITIAL
            && ofmonitor_selects(m, info, NULL, 0)) {
            flags |= m->flags;
        }
    }
    if (flags) {
        struct ofputil_flow_update u;
        fill_update(&u, OFPFME_INITIAL, 0, info, flags & NXFMF_ACTIONS);
        ofputil_append_flow_update(&u, dump->replies);
    }
}

enum ofperr
ofmonitor_handle_request(struct ofconn *ofconn, const struct ofp_header *oh)
{
    struct ofproto *ofproto = connmgr_get_ofproto(ofconn->mgr);
    struct ofmonitor **added = NULL;    /* Added or modified. */
    uint32_t *created = NULL;           /* Ids of the ones added. */
    size_t n_added = 0, n_created = 0, allocated = 0;
    enum ofperr error = 0;

    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    for (;;) {
        struct ofputil_flow_monitor_request rq;
        int retval = ofputil_decode_flow_monitor_request(&rq, &b);
        if (retval == EOF) {
            break;
        } else if (retval) {
            error = retval;
            break;
        }
        if (rq.table_id != 0xff && rq.table_id >= OFPROTO_N_TABLES) {
            error = OFPERR_OFPBRC_BAD_TABLE_ID;
            break;
        }
        error = ofproto_tlv_check_match(ofproto, &rq.match);
        if (error) {
            break;
        }

        struct ofmonitor *m = ofmonitor_lookup(ofconn, rq.id);
        if (rq.command == OFPFMC14_DELETE) {
            if (!m) {
                error = OFPERR_OFPMOFC_UNKNOWN_MONITOR;
                break;
            }
            ofmonitor_destroy(ofconn, m);
            continue;
        } else if (rq.command == OFPFMC14_MODIFY) {
            if (!m) {
                error = OFPERR_OFPMOFC_UNKNOWN_MONITOR;
                break;
            }
            ofmonitor_set(m, &rq);
        } else {
            if (m) {
                error = OFPERR_OFPMOFC_MONITOR_EXISTS;
                break;
            }
            m = xzalloc(sizeof *m);
            m->id = rq.id;
            ofmonitor_set(m, &rq);
            hmap_insert(&ofconn->monitors, &m->node, hash_int(rq.id, 0));
        }
        if (n_added >= allocated) {
            added = x2nrealloc(added, &allocated, sizeof *added);
            created = xrealloc(created, allocated * sizeof *created);
        }
        if (rq.command == OFPFMC14_ADD) {
            created[n_created++] = rq.id;
        }
        added[n_added++] = m;
    }

    if (error) {
        /* A request is all or nothing: the monitors it added go.  (What it
         * deleted or modified before the failure stays so.) */
        for (size_t i = 0; i < n_created; i++) {
            struct ofmonitor *m = ofmonitor_lookup(ofconn, created[i]);
            if (m) {
                ofmonitor_destroy(ofconn, m);
            }
        }
        free(added);
        free(created);
        return error;
    }

    struct ovs_list replies;
    ofputil_start_flow_update(&replies, oh);
    struct initial_dump dump = {
        .ofconn = ofconn,
        .monitors = added,
        .n_monitors = n_added,
        .replies = &replies,
        .version = oh->version,
    };
    struct ofproto_flow_query q;
    ofproto_flow_query_init(&q);
    ofproto_query_rules_each(ofproto, &q, initial_dump_rule, &dump);
    ofconn_send_replies(ofconn, &replies, ofconn->monitor_counter);
    free(added);
    free(created);
    return 0;
}

enum ofperr
ofmonitor_handle_cancel(struct ofconn *ofconn, const struct ofp_header *oh)
{
    uint32_t id;
    enum ofperr error = ofputil_decode_flow_monitor_cancel(oh, &id);
    if (error) {
        return error;
    }
    struct ofmonitor *m = ofmonitor_lookup(ofconn, id);
    if (!m) {
        return OFPERR_OFPMOFC_UNKNOWN_MONITOR;
    }
    ofmonitor_destroy(ofconn, m);
    return 0;
}

void
ofmonitor_report(struct ofconn *ofconn, const struct ofproto_flow_change *c)
{
    if (hmap_is_empty(&ofconn->monitors) || !ofconn->connected) {
        return;
    }
    if (ofconn->monitor_paused
        && (c->event != OFPFME_REMOVED
            || c->rule->add_seqno > ofconn->monitor_paused_seqno)) {
        /* Paused, only the removal of a flow the controller heard of
         * goes out; what was added or changed meanwhile is sent on
         * resuming. */
        return;
    }
    uint16_t wanted = (c->event == OFPFME_ADDED ? NXFMF_ADD
                       : c->event == OFPFME_REMOVED ? NXFMF_DELETE
                       : NXFMF_MODIFY);
    uint16_t flags = 0;
    const struct ofmonitor *m;
    HMAP_FOR_EACH (m, node, &ofconn->monitors) {
        if (m->flags & wanted
            && ofmonitor_selects(m, c->rule, c->old_ofpacts,
                                 c->old_ofpacts_len)) {
            flags |= m->flags;
        }
    }
    if (!flags) {
        return;
    }

    struct ofputil_flow_update u;
    if (c->origin == ofconn && !(flags & NXFMF_OWN)
        && !ofconn->monitor_paused) {
        /* Its own change: one abbreviated update per request. */
        if (ofconn->monitor_abbrev_serial == c->origin_serial) {
            return;
        }
        ofconn->monitor_abbrev_serial = c->origin_serial;
        memset(&u, 0, sizeof u);
        u.event = OFPFME_ABBREV;
        u.xid = c->xid;
    } else {
        fill_update(&u, c->event, c->reason, c->rule,
                    flags & NXFMF_ACTIONS);
    }
    if (ovs_list_is_empty(&ofconn->monitor_updates)) {
        ofputil_start_flow_update_async(&ofconn->monitor_updates,
                                        ofconn_monitor_version(ofconn));
    }
    ofputil_append_flow_update(&u, &ofconn->monitor_updates);
}

void
ofmonitor_flush(struct ofconn *ofconn)
{
    if (!ovs_list_is_empty(&ofconn->monitor_updates)) {
        send_updates(ofconn, &ofconn->monitor_updates);
    }
}

/* Resuming: every flow added or modified since the pause that a monitor
 * selects, as ADDED, then "resumed". */
struct resume_dump {
    struct ofconn *ofconn;
    struct ovs_list *replies;
    size_t n;                   /* Updates appended. */
};

static void
resume_rule(const struct ofproto_rule_info *info, void *dump_)
{
    struct resume_dump *dump = dump_;
    struct ofconn *ofconn = dump->ofconn;
    if (info->modify_seqno <= ofconn->monitor_paused_seqno) {
        return;
    }
    uint16_t flags = 0;
    const struct ofmonitor *m;
    HMAP_FOR_EACH (m, node, &ofconn->monitors) {
        if (ofmonitor_selects(m, info, NULL, 0)) {
            flags |= m->flags;
        }
    }
    if (flags) {
        struct ofputil_flow_update u;
        fill_update(&u, OFPFME_ADDED, 0, info, flags & NXFMF_ACTIONS);
        ofputil_append_flow_update(&u, dump->replies);
        dump->n++;
    }
}

void
ofmonitor_run(struct ofconn *ofconn)
{
    if (!ofconn->monitor_paused || ofconn->monitor_counter->n_packets) {
        return;
    }
    struct ovs_list replies;
    ofputil_start_flow_update_async(&replies, ofconn_monitor_version(ofconn));
    struct resume_dump dump = { .ofconn = ofconn, .replies = &replies };
    struct ofproto_flow_query q;
    ofproto_flow_query_init(&q);
    ofproto_query_rules_each(connmgr_get_ofproto(ofconn->mgr), &q,
                             resume_rule, &dump);
    if (dump.n) {
        ofconn_send_replies(ofconn, &replies, ofconn->monitor_counter);
    } else {
        ofpbuf_list_delete(&replies);
    }
    ofconn->monitor_paused = false;
    ofconn_send_counted(ofconn, ofputil_encode_flow_monitor_pause(
                            OFPFME_RESUMED, ofconn_monitor_version(ofconn)),
                        ofconn->monitor_counter);
}

void
ofmonitor_wait(struct ofconn *ofconn)
{
    /* The backlog drains as the peer reads, which wakes the loop through
     * the connection's own events; then ofmonitor_run() resumes. */
    if (ofconn->monitor_paused && !ofconn->monitor_counter->n_packets) {
        poll_immediate_wake();
    }
}
