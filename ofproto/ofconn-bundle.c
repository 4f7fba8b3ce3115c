/* ofconn-bundle: see ofconn-bundle.h. */
#include <config.h>
#include "ofconn-bundle.h"

#include <limits.h>
#include <stdlib.h>
#include "hash.h"
#include "hmap.h"
#include "list.h"
#include "ofconn.h"
#include "ofp-bundle.h"
#include "ofp-flow.h"
#include "ofp-group.h"
#include "ofp-msgs.h"
#include "ofp-packet.h"
#include "ofp-phy-port.h"
#include "ofpbuf.h"
#include "ofproto-private.h"
#include "packets.h"
#include "poll-loop.h"
#include "rconn.h"
#include "timeval.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(bundles);

/* One queued message: the add message as received (what the error reply
 * of a failed commit carries, as in 3.1), and its inner message decoded,
 * checked as far as it can be before the commit.  Actions (a flow_mod's,
 * a packet_out's) live in OFPACTS; a packet_out's packet points into
 * MSG. */
struct bundle_entry {
    struct ovs_list node;
    struct ofpbuf *msg;
    enum ofptype type;          /* FLOW_MOD, GROUP_MOD, PORT_MOD or
                                 * PACKET_OUT. */
    struct ofpbuf ofpacts;
    union {
        struct ofputil_flow_mod fm;
        struct ofputil_group_mod gm;
        struct ofputil_port_mod pm;
        struct ofputil_packet_out po;
    };
};

struct bundle {
    struct hmap_node node;      /* In ofconn->bundles, by id. */
    uint32_t id;
    uint16_t flags;
    bool closed;
    long long int used;         /* Opened, added to or closed (msec). */
    struct ofpbuf *msg;         /* The message that created it, which its
                                 * OFPBFC_TIMEOUT error carries. */
    struct ovs_list entries;    /* struct bundle_entry, in order. */
};

/* other_config:bundle-idle-timeout, 3.1's default 10 s. */
#define BUNDLE_IDLE_TIMEOUT_DEFAULT 10000
static long long int bundle_idle_timeout = BUNDLE_IDLE_TIMEOUT_DEFAULT;

void
ofproto_set_bundle_idle_timeout(unsigned int seconds)
{
    bundle_idle_timeout = (seconds ? seconds * 1000LL
                           : BUNDLE_IDLE_TIMEOUT_DEFAULT);
}

static struct bundle *
bundle_find(const struct ofconn *ofconn, uint32_t id)
{
    struct bundle *bundle;
    HMAP_FOR_EACH_WITH_HASH (bundle, node, hash_int(id, 0),
                             &ofconn->bundles) {
        if (bundle->id == id) {
            return bundle;
        }
    }
    return NULL;
}

static struct bundle *
bundle_create(struct ofconn *ofconn, uint32_t id, uint16_t flags,
              const struct ofp_header *oh)
{
    struct bundle *bundle = xzalloc(sizeof *bundle);
    bundle->id = id;
    bundle->flags = flags;
    bundle->used = time_msec();
    bundle->msg = ofpbuf_clone_data(oh, ntohs(oh->length));
    ovs_list_init(&bundle->entries);
    hmap_insert(&ofconn->bundles, &bundle->node, hash_int(id, 0));
    return bundle;
}

static void
bundle_entry_free(struct bundle_entry *e)
{
    if (e->type == OFPTYPE_GROUP_MOD) {
        ofputil_uninit_group_mod(&e->gm);
    }
    ofpbuf_delete(e->msg);
    ofpbuf_uninit(&e->ofpacts);
    free(e);
}

static void
bundle_destroy(struct ofconn *ofconn, struct bundle *bundle)
{
    struct bundle_entry *e;
    LIST_FOR_EACH_POP (e, node, &bundle->entries) {
        bundle_entry_free(e);
    }
    hmap_remove(&ofconn->bundles, &bundle->node);
    ofpbuf_delete(bundle->msg);
    free(bundle);
}

void
ofconn_bundles_clear(struct ofconn *ofconn)
{
    struct bundle *bundle;
    HMAP_FOR_EACH_SAFE (bundle, node, &ofconn->bundles) {
        bundle_destroy(ofconn, bundle);
    }
}

/* Checks a port_mod of a bundle without applying it: what
 * ofproto_port_mod() would refuse. */
static enum ofperr
check_port_mod(const struct ofproto *ofproto,
               const struct ofputil_port_mod *pm)
{
    const struct ofport *port = ofproto_get_port(ofproto, pm->port_no);
    if (!port) {
        return OFPERR_OFPPMFC_BAD_PORT;
    }
    if (!eth_addr_equals(port->pp.hw_addr, pm->hw_addr)) {
        return OFPERR_OFPPMFC_BAD_HW_ADDR;
    }
    return 0;
}

static void
bundle_packet_out(struct ofproto *ofproto, const struct bundle_entry *e)
{
    ofproto_packet_out(ofproto, &e->po);
}

/* Runs BUNDLE's entries from *EP on in TXN: applies flow_mods and
 * group_mods, checks port_mods and packet_outs (their actions against the
 * tables as the entries before them left them).  Stops at the end, at an
 * error (returned, *EP the failing entry), or, if STOP_AFTER_PACKET_OUT,
 * just after a packet_out (*EP then the packet_out). */
static enum ofperr
bundle_run_entries(struct ofproto *ofproto, struct ofproto_txn *txn,
                   const struct bundle *bundle,
                   struct bundle_entry **ep, bool stop_after_packet_out)
{
    struct bundle_entry *e = *ep;
    for (; &e->node != &bundle->entries;
         e = CONTAINER_OF(e->node.next, struct bundle_entry, node)) {
        enum ofperr error = 0;
        switch (e->type) {
        case OFPTYPE_FLOW_MOD:
            error = ofproto_txn_flow_mod(txn, &e->fm);
            break;
        case OFPTYPE_GROUP_MOD:
            error = ofproto_txn_group_mod(txn, &e->gm);
            break;
        case OFPTYPE_PORT_MOD:
            error = (bundle->flags & OFPBF_ATOMIC ? OFPERR_OFPBFC_MSG_FAILED
                     : check_port_mod(ofproto, &e->pm));
            break;
        case OFPTYPE_PACKET_OUT:
            error = ofproto_check_actions(ofproto, e->po.ofpacts,
                                          e->po.ofpacts_len);
            break;
        default:
            break;
        }
        if (error || (stop_after_packet_out
                      && e->type == OFPTYPE_PACKET_OUT)) {
            *ep = e;
            return error;
        }
    }
    *ep = e;
    return 0;
}

/* Whether a flow_mod or group_mod follows a packet_out in BUNDLE: then
 * the packet_out must run on the tables as they are at its turn. */
static bool
bundle_changes_after_packet_out(const struct bundle *bundle)
{
    bool packet_out = false;
    const struct bundle_entry *e;
    LIST_FOR_EACH (e, node, &bundle->entries) {
        if (e->type == OFPTYPE_PACKET_OUT) {
            packet_out = true;
        } else if (packet_out && (e->type == OFPTYPE_FLOW_MOD
                                  || e->type == OFPTYPE_GROUP_MOD)) {
            return true;
        }
    }
    return false;
}

/* Applies BUNDLE.  Its flow_mods and group_mods are one transaction
 * (ofproto_txn), in order.  Port_mods cannot be taken back, so an atomic
 * bundle refuses them (OFPBFC_MSG_FAILED, as 3.1); in another bundle they
 * are checked in their turn and applied once the transaction has
 * committed.  A packet_out runs on the tables as the messages before it
 * left them (as 3.1 runs it, in the bundle's version at its turn), and
 * only if the whole bundle commits.  A failing message gets its own error
 * reply; the commit then fails with OFPBFC_MSG_FAILED and nothing has
 * changed. */
static enum ofperr
bundle_commit(struct ofconn *ofconn, struct bundle *bundle)
{
    struct ofproto *ofproto = connmgr_get_ofproto(ofconn->mgr);
    /* The head itself when the bundle is empty: the loops end at once. */
    struct bundle_entry *first = CONTAINER_OF(bundle->entries.next,
                                              struct bundle_entry, node);

    /* Everything, checked in one transaction. */
    struct ofproto_txn *txn = ofproto_txn_begin(ofproto);
    struct bundle_entry *e = first;
    enum ofperr error = bundle_run_entries(ofproto, txn, bundle, &e, false);
    if (error) {
        ofproto_txn_abort(txn);
        ofconn_send_error(ofconn, error, e->msg->data);
        return OFPERR_OFPBFC_MSG_FAILED;
    }

    if (!bundle_changes_after_packet_out(bundle)) {
        ofproto_txn_commit(txn);
    } else {
        /* Done again, committed a piece at a time, each packet_out run in
         * between; what was checked cannot fail now (nothing else ran). */
        ofproto_txn_abort(txn);
        e = first;
        while (&e->node != &bundle->entries) {
            txn = ofproto_txn_begin(ofproto);
            error = bundle_run_entries(ofproto, txn, bundle, &e, true);
            if (error) {
                ofproto_txn_abort(txn);
                VLOG_WARN("bundle %"PRIu32" failed halfway (%s)", bundle->id,
                          ofperr_get_name(error));
                return OFPERR_OFPBFC_MSG_FAILED;
            }
            ofproto_txn_commit(txn);
            if (&e->node != &bundle->entries) {
                bundle_packet_out(ofproto, e);
                e = CONTAINER_OF(e->node.next, struct bundle_entry, node);
            }
        }
    }

    bool port_changed = false;
    LIST_FOR_EACH (e, node, &bundle->entries) {
        if (e->type == OFPTYPE_PORT_MOD) {
            /* Checked above; the ports cannot have changed since. */
            ofproto_port_mod(ofproto, &e->pm, ofconn);
            port_changed = true;
        } else if (e->type == OFPTYPE_FLOW_MOD) {
            ofconn_report_flow_mod(ofconn, e->fm.command);
        } else if (e->type == OFPTYPE_GROUP_MOD) {
            /* The add message's xid is its inner message's. */
            ofconn_forward_group_mod(ofconn,
                                     ((const struct ofp_header *)
                                      e->msg->data)->xid,
                                     &e->gm);
        }
    }
    if (port_changed) {
        connmgr_send_port_status(ofconn->mgr);
    }
    if (!bundle_changes_after_packet_out(bundle)) {
        LIST_FOR_EACH (e, node, &bundle->entries) {
            if (e->type == OFPTYPE_PACKET_OUT) {
                bundle_packet_out(ofproto, e);
            }
        }
    }
    return 0;
}

enum ofperr
ofconn_handle_bundle_control(struct ofconn *ofconn,
                             const struct ofp_header *oh)
{
    if (ofconn->role == OFPCR12_ROLE_SLAVE) {
        return OFPERR_OFPBRC_IS_SECONDARY;
    }
    struct ofputil_bundle_ctrl_msg bc;
    enum ofperr error = ofputil_decode_bundle_ctrl(oh, &bc);
    if (error) {
        return error;
    }
    struct ofputil_bundle_ctrl_msg reply = { .bundle_id = bc.bundle_id };
    struct bundle *bundle = bundle_find(ofconn, bc.bundle_id);
    switch (bc.type) {
    case OFPBCT_OPEN_REQUEST:
        if (bundle) {
            bundle_destroy(ofconn, bundle);
            return OFPERR_OFPBFC_BAD_ID;
        }
        bundle_create(ofconn, bc.bundle_id, bc.flags, oh);
        reply.type = OFPBCT_OPEN_REPLY;
        break;

    case OFPBCT_CLOSE_REQUEST:
        if (!bundle) {
            return OFPERR_OFPBFC_BAD_ID;
        }
        if (bundle->closed) {
            bundle_destroy(ofconn, bundle);
            return OFPERR_OFPBFC_BUNDLE_CLOSED;
        }
        if (bundle->flags != bc.flags) {
            bundle_destroy(ofconn, bundle);
            return OFPERR_OFPBFC_BAD_FLAGS;
        }
        bundle->closed = true;
        bundle->used = time_msec();
        reply.type = OFPBCT_CLOSE_REPLY;
        break;

    case OFPBCT_COMMIT_REQUEST:
        if (!bundle) {
            return OFPERR_OFPBFC_BAD_ID;
        }
        error = (bundle->flags != bc.flags ? OFPERR_OFPBFC_BAD_FLAGS
                 : bundle_commit(ofconn, bundle));
        bundle_destroy(ofconn, bundle);
        if (error) {
            return error;
        }
        reply.type = OFPBCT_COMMIT_REPLY;
        break;

    case OFPBCT_DISCARD_REQUEST:
        if (!bundle) {
            return OFPERR_OFPBFC_BAD_ID;
        }
        bundle_destroy(ofconn, bundle);
        reply.type = OFPBCT_DISCARD_REPLY;
        break;

    default:
        return OFPERR_OFPBFC_BAD_TYPE;
    }
    ofconn_send(ofconn, ofputil_encode_bundle_ctrl_reply(oh, &reply));
    return 0;
}

/* Decodes and checks E's inner message INNER, E->type, as 3.1 does when
 * it is added: a flow_mod's or group_mod's syntax (the tables are checked
 * at the commit), a port_mod's, a packet_out's. */
static enum ofperr
bundle_entry_decode(struct ofconn *ofconn, struct bundle_entry *e,
                    const struct ofp_header *inner)
{
    enum ofperr error;
    switch (e->type) {
    case OFPTYPE_FLOW_MOD:
        error = ofputil_decode_flow_mod(&e->fm, inner, &e->ofpacts);
        if (!error && e->fm.buffer_id != UINT32_MAX) {
            /* This switch never buffers packets. */
            error = OFPERR_OFPBRC_BUFFER_UNKNOWN;
        }
        if (!error) {
            error = ofproto_check_flow_mod_table(e->fm.table_id);
        }
        /* The decoded actions point into OFPACTS, which may have moved. */
        e->fm.ofpacts = e->ofpacts.data;
        return error;

    case OFPTYPE_GROUP_MOD:
        /* On error the bucket list is left empty, to free as ever. */
        return ofputil_decode_group_mod(inner, &e->gm);

    case OFPTYPE_PORT_MOD:
        return ofputil_decode_port_mod(inner, &e->pm, false);

    case OFPTYPE_PACKET_OUT: {
        error = ofputil_decode_packet_out(&e->po, inner, &e->ofpacts);
        if (error) {
            return error;
        }
        e->po.ofpacts = e->ofpacts.data;
        if (e->po.buffer_id != OFP_NO_BUFFER) {
            return OFPERR_OFPBRC_BUFFER_UNKNOWN;
        }
        if (ofputil_packet_out_type(&e->po) == htonl(PT_ETH)
            && e->po.packet_len < ETH_HEADER_LEN) {
            return OFPERR_OFPBRC_BAD_PACKET;
        }
        return 0;
    }

    default:
        /* ofputil_decode_bundle_add() lets no other type through. */
        return OFPERR_OFPBFC_MSG_UNSUP;
    }
}

enum ofperr
ofconn_handle_bundle_add(struct ofconn *ofconn, const struct ofp_header *oh)
{
    if (ofconn->role == OFPCR12_ROLE_SLAVE) {
        return OFPERR_OFPBRC_IS_SECONDARY;
    }
    struct ofputil_bundle_add_msg badd;
    enum ofperr error = ofputil_decode_bundle_add(oh, &badd);
    if (error) {
        return error;
    }

    /* Decoded from a copy of the message, which the entry keeps: a
     * packet_out's packet points into it. */
    struct bundle_entry *e = xzalloc(sizeof *e);
    ofpbuf_init(&e->ofpacts, 64);
    e->msg = ofpbuf_clone_data(oh, ntohs(oh->length));
    const struct ofp_header *inner = (const struct ofp_header *)
        ((const char *) e->msg->data
         + ((const char *) badd.msg - (const char *) oh));
    error = ofptype_decode(&e->type, inner);
    if (!error) {
        error = bundle_entry_decode(ofconn, e, inner);
    }
    if (error) {
        bundle_entry_free(e);
        return error;
    }

    /* The bundle comes into being only for a message that decoded. */
    struct bundle *bundle = bundle_find(ofconn, badd.bundle_id);
    if (!bundle) {
        bundle = bundle_create(ofconn, badd.bundle_id, badd.flags, oh);
    } else if (bundle->closed) {
        bundle_destroy(ofconn, bundle);
        bundle_entry_free(e);
        return OFPERR_OFPBFC_BUNDLE_CLOSED;
    } else if (bundle->flags != badd.flags) {
        bundle_destroy(ofconn, bundle);
        bundle_entry_free(e);
        return OFPERR_OFPBFC_BAD_FLAGS;
    }
    ovs_list_push_back(&bundle->entries, &e->node);
    bundle->used = time_msec();
    return 0;
}

void
ofconn_bundles_run(struct ofconn *ofconn)
{
    long long int now = time_msec();
    struct bundle *bundle;
    HMAP_FOR_EACH_SAFE (bundle, node, &ofconn->bundles) {
        if (now >= bundle->used + bundle_idle_timeout) {
            ofconn_send_error(ofconn, OFPERR_OFPBFC_TIMEOUT,
                              bundle->msg->data);
            bundle_destroy(ofconn, bundle);
        }
    }
}

void
ofconn_bundles_wait(const struct ofconn *ofconn)
{
    long long int next = LLONG_MAX;
    const struct bundle *bundle;
    HMAP_FOR_EACH (bundle, node, &ofconn->bundles) {
        next = MIN(next, bundle->used + bundle_idle_timeout);
    }
    if (next != LLONG_MAX) {
        poll_timer_wait_until(next);
    }
}
