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
#include "ofp-msgs.h"
#include "ofpbuf.h"
#include "ofproto.h"
#include "poll-loop.h"
#include "rconn.h"
#include "timeval.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ofconn_bundle);

/* One queued flow_mod: the add message as received (what the error reply
 * of a failed commit carries, as in 3.1) and the flow_mod's decoded form,
 * whose actions live in OFPACTS. */
struct bundle_entry {
    struct ovs_list node;
    struct ofpbuf *msg;
    struct ofputil_flow_mod fm;
    struct ofpbuf ofpacts;
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
    size_t n_entries;
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
bundle_destroy(struct ofconn *ofconn, struct bundle *bundle)
{
    struct bundle_entry *e;
    LIST_FOR_EACH_POP (e, node, &bundle->entries) {
        ofpbuf_delete(e->msg);
        ofpbuf_uninit(&e->ofpacts);
        free(e);
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

/* Applies BUNDLE's flow_mods at once.  A failing one gets its own error
 * reply; the commit then fails with OFPBFC_MSG_FAILED. */
static enum ofperr
bundle_commit(struct ofconn *ofconn, struct bundle *bundle)
{
    struct ofputil_flow_mod *fms = xcalloc(MAX(bundle->n_entries, 1),
                                           sizeof *fms);
    const struct bundle_entry **entries
        = xcalloc(MAX(bundle->n_entries, 1), sizeof *entries);
    size_t n = 0;
    const struct bundle_entry *e;
    LIST_FOR_EACH (e, node, &bundle->entries) {
        entries[n] = e;
        fms[n++] = e->fm;
    }
    size_t failed = 0;
    enum ofperr error = ofproto_flow_mod_batch(
        connmgr_get_ofproto(ofconn->mgr), fms, n, &failed);
    if (error) {
        ofconn_send_error(ofconn, error, entries[failed]->msg->data);
        error = OFPERR_OFPBFC_MSG_FAILED;
    }
    free(entries);
    free(fms);
    return error;
}

enum ofperr
ofconn_handle_bundle_control(struct ofconn *ofconn,
                             const struct ofp_header *oh)
{
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

enum ofperr
ofconn_handle_bundle_add(struct ofconn *ofconn, const struct ofp_header *oh)
{
    struct ofputil_bundle_add_msg badd;
    enum ofperr error = ofputil_decode_bundle_add(oh, &badd);
    if (error) {
        return error;
    }
    enum ofptype type;
    error = ofptype_decode(&type, badd.msg);
    if (error) {
        return error;
    }
    if (type != OFPTYPE_FLOW_MOD) {
        /* Group and port mods are not implemented by this switch, and
         * packet-outs have nothing to wait for. */
        return OFPERR_OFPBFC_MSG_UNSUP;
    }
    if (ofconn->role == OFPCR12_ROLE_SLAVE) {
        return OFPERR_OFPBRC_IS_SECONDARY;
    }

    struct bundle *bundle = bundle_find(ofconn, badd.bundle_id);
    if (!bundle) {
        bundle = bundle_create(ofconn, badd.bundle_id, badd.flags, oh);
    } else if (bundle->closed) {
        bundle_destroy(ofconn, bundle);
        return OFPERR_OFPBFC_BUNDLE_CLOSED;
    } else if (bundle->flags != badd.flags) {
        bundle_destroy(ofconn, bundle);
        return OFPERR_OFPBFC_BAD_FLAGS;
    }

    struct bundle_entry *e = xzalloc(sizeof *e);
    ofpbuf_init(&e->ofpacts, 64);
    e->msg = ofpbuf_clone_data(oh, ntohs(oh->length));
    error = ofputil_decode_flow_mod(&e->fm, badd.msg, &e->ofpacts);
    if (!error && e->fm.buffer_id != UINT32_MAX) {
        /* This switch never buffers packets. */
        error = OFPERR_OFPBRC_BUFFER_UNKNOWN;
    }
    if (error) {
        ofpbuf_delete(e->msg);
        ofpbuf_uninit(&e->ofpacts);
        free(e);
        return error;
    }
    /* The decoded actions point into OFPACTS, which may have moved. */
    e->fm.ofpacts = e->ofpacts.data;
    ovs_list_push_back(&bundle->entries, &e->node);
    bundle->n_entries++;
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
