/* ofctl-target: from a SWITCH argument to a negotiated OpenFlow connection.
 *
 * 3.1 reads SWITCH in this order, and so do we, with its messages:
 *
 *   1. a name with a colon is a connection method (tcp:, ssl:, unix:);
 *      vconn_open() failing is "connecting to NAME (error)";
 *   2. otherwise "unix:NAME" (a socket path; relative paths are taken
 *      from the run directory by lib/vconn);
 *   3. then "unix:RUNDIR/NAME.mgmt", the bridge's management socket
 *      ("NAME.snoop" for snoop);
 *   4. none of them existing is "NAME is not a bridge or a socket".
 *
 * A socket that exists but cannot be opened for another reason than its
 * absence is "NAME: failed to open socket (error)"; a connection that
 * fails while saying hello is "NAME: failed to connect to socket (error)".
 * The versions offered are -O's (OpenFlow 1.0 alone by default).
 *
 * On OpenFlow 1.0 the flow format (standard or NXM) and whether flow_mods
 * carry a table id are connection state, switched with Nicira messages.  A
 * flow command picks the first protocol, in the order of the protocol
 * bits, that the flow can be sent in and -O allows, and switches to it
 * only if the connection's current protocol will not do: exactly the
 * messages 3.1 sends, so transaction ids (which error replies print) come
 * out the same. */
#include <config.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "dirs.h"
#include "dynamic-string.h"
#include "list.h"
#include "ofctl.h"
#include "ofp-bundle.h"
#include "ofp-errors.h"
#include "ofp-msgs.h"
#include "ofp-print.h"
#include "ofp-protocol.h"
#include "ofp-switch.h"
#include "ofpbuf.h"
#include "util.h"
#include "vconn.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ofctl_target);

/* 3.1 marks its OpenFlow connections with DSCP 48 (CS6, network
 * control). */
#define OFCTL_DSCP 48

void
ofctl_run(int error, const char *format, ...)
{
    if (error) {
        va_list args;
        va_start(args, format);
        char *message = xvasprintf(format, args);
        va_end(args);
        ovs_fatal(error, "%s", message);
    }
}

/* Tries "unix:NAME".  Returns false if there is no such socket; any other
 * failure is fatal. */
static bool
open_vconn_socket(const char *name, struct vconn **vconnp)
{
    char *vconn_name = xasprintf("unix:%s", name);
    int error = vconn_open(vconn_name, ofctl_opts.allowed_versions,
                           OFCTL_DSCP, vconnp);
    if (error && error != ENOENT) {
        ovs_fatal(0, "%s: failed to open socket (%s)", name,
                  ovs_strerror(error));
    }
    free(vconn_name);
    return !error;
}

enum ofputil_protocol
ofctl_open_vconn(const char *name, const char *suffix, struct vconn **vconnp)
{
    if (strchr(name, ':')) {
        ofctl_run(vconn_open(name, ofctl_opts.allowed_versions, OFCTL_DSCP,
                             vconnp),
                  "connecting to %s", name);
    } else if (!open_vconn_socket(name, vconnp)) {
        char *bridge_path = xasprintf("%s/%s.%s", ovs_rundir(), name,
                                      suffix);
        bool found = open_vconn_socket(bridge_path, vconnp);
        free(bridge_path);
        if (!found) {
            ovs_fatal(0, "%s is not a bridge or a socket", name);
        }
    }

    if (!strcmp(suffix, "snoop")) {
        vconn_set_recv_any_version(*vconnp);
    }
    int error = vconn_connect_block(*vconnp, -1);
    if (error) {
        ovs_fatal(0, "%s: failed to connect to socket (%s)", name,
                  ovs_strerror(error));
    }

    int version = vconn_get_version(*vconnp);
    enum ofputil_protocol protocol
        = ofputil_protocol_from_ofp_version(version);
    if (!protocol) {
        ovs_fatal(0, "%s: unsupported OpenFlow version 0x%02x", name,
                  version);
    }
    return protocol;
}

bool
ofctl_try_set_protocol(struct vconn *vconn, enum ofputil_protocol want,
                 enum ofputil_protocol *cur)
{
    while (*cur != want) {
        enum ofputil_protocol next;
        struct ofpbuf *request = ofputil_encode_set_protocol(*cur, want,
                                                             &next);
        if (!request) {
            return *cur == want;
        }

        struct ofpbuf *reply;
        ofctl_run(vconn_transact_noreply(vconn, request, &reply),
                  "talking to %s", vconn_get_name(vconn));
        if (reply) {
            if (VLOG_IS_DBG_ENABLED()) {
                char *s = ofp_to_string(reply->data, reply->size, NULL, 2);
                VLOG_DBG("%s: failed to set protocol, switch replied: %s",
                         vconn_get_name(vconn), s);
                free(s);
            }
            ofpbuf_delete(reply);
            return false;
        }
        *cur = next;
    }
    return true;
}

enum ofputil_protocol
ofctl_open_vconn_for_flow_mod(const char *name, enum ofputil_protocol usable,
                              struct vconn **vconnp)
{
    enum ofputil_protocol allowed = ofctl_opts.allowed_protocols;
    /* As 3.1: this is known before connecting. */
    if (!(usable & allowed)) {
        char *usable_s = ofputil_protocols_to_string(usable);
        char *allowed_s = ofputil_protocols_to_string(allowed);
        ovs_fatal(0, "none of the usable flow formats (%s) is among the "
                  "allowed flow formats (%s)", usable_s, allowed_s);
    }
    enum ofputil_protocol cur = ofctl_open_vconn(name, "mgmt", vconnp);

    /* The connection's own protocol, if the flows can use it. */
    if (usable & allowed & cur) {
        return cur;
    }

    /* Otherwise the first that works, lowest bit first. */
    for (int i = 0; i < 32; i++) {
        enum ofputil_protocol p = 1u << i;
        if (p != cur && p & usable & allowed
            && ofctl_try_set_protocol(*vconnp, p, &cur)) {
            return p;
        }
    }

    char *usable_s = ofputil_protocols_to_string(usable);
    ovs_fatal(0, "switch does not support any of the usable flow formats "
              "(%s)", usable_s);
}

/* 3.1 prints error replies at verbosity two above -m's, so that the
 * request they carry is decoded. */
static noreturn void
print_error_reply(struct ofpbuf *reply)
{
    ofp_print(stderr, reply->data, reply->size, NULL,
                    ofctl_opts.verbosity + 2);
    ofpbuf_delete(reply);
    exit(EXIT_FAILURE);
}

void
ofctl_transact_noreply(struct vconn *vconn, struct ofpbuf *request)
{
    struct ofpbuf *reply;
    ofctl_run(vconn_transact_noreply(vconn, request, &reply),
              "talking to %s", vconn_get_name(vconn));
    if (reply) {
        print_error_reply(reply);
    }
}

void
ofctl_transact_multiple_noreply(struct vconn *vconn, struct ovs_list *requests)
{
    struct ofpbuf *reply;
    ofctl_run(vconn_transact_multiple_noreply(vconn, requests, &reply),
              "talking to %s", vconn_get_name(vconn));
    if (reply) {
        print_error_reply(reply);
    }
}

void
ofctl_transact_multipart(struct vconn *vconn, struct ovs_list *requests,
                         struct ovs_list *replies)
{
    ovs_list_init(replies);
    if (ovs_list_is_empty(requests)) {
        return;
    }
    const struct ofp_header *first
        = ofpbuf_from_list(ovs_list_front(requests))->data;
    ovs_be32 xid = first->xid;
    struct ofpbuf *request;
    LIST_FOR_EACH_POP (request, list_node, requests) {
        ofctl_run(vconn_send_block(vconn, request), "talking to %s",
                  vconn_get_name(vconn));
    }
    for (;;) {
        struct ofpbuf *reply;
        ofctl_run(vconn_recv_xid(vconn, xid, &reply), "talking to %s",
                  vconn_get_name(vconn));
        const struct ofp_header *oh = reply->data;
        if (oh->type == OFPT_ERROR) {
            ofpbuf_list_delete(replies);
            print_error_reply(reply);
        }
        ovs_list_push_back(replies, &reply->list_node);
        if (!ofpmp_more(oh)) {
            return;
        }
    }
}

struct ofpbuf *
ofctl_transact(struct vconn *vconn, struct ofpbuf *request)
{
    struct ofpbuf *reply;
    ofctl_run(vconn_transact(vconn, request, &reply), "talking to %s",
              vconn_get_name(vconn));
    return reply;
}

void
ofctl_dump_multipart(struct vconn *vconn, struct ofpbuf *request,
                     struct ovs_list *replies)
{
    ovs_list_init(replies);
    ofctl_run(vconn_dump_multipart(vconn, request, replies),
              "talking to %s", vconn_get_name(vconn));

    if (!ovs_list_is_empty(replies)) {
        struct ofpbuf *reply = ofpbuf_from_list(ovs_list_front(replies));
        const struct ofp_header *oh = reply->data;
        if (oh->type == OFPT_ERROR) {
            ovs_list_remove(&reply->list_node);
            ofpbuf_list_delete(replies);
            print_error_reply(reply);
        }
    }
}

/* --bundle (3.1's "atomic bundle transaction"): bundle 0 is opened with
 * the atomic and ordered flags, every request goes in an add message (with
 * the request's xid), a barrier collects the errors of the adds, and only
 * without errors is the bundle committed. */

/* Receives on VCONN until the reply to REQUEST's xid, putting the error
 * replies that come before it (to earlier messages) into ERRORS.  Returns
 * the reply (the caller frees it), an error reply included. */
static struct ofpbuf *
bundle_recv_reply(struct vconn *vconn, ovs_be32 xid, struct ovs_list *errors)
{
    for (;;) {
        struct ofpbuf *reply;
        ofctl_run(vconn_recv_block(vconn, &reply), "talking to %s",
                  vconn_get_name(vconn));
        const struct ofp_header *oh = reply->data;
        if (oh->xid == xid) {
            return reply;
        }
        if (oh->type == OFPT_ERROR) {
            ovs_list_push_back(errors, &reply->list_node);
        } else {
            ofpbuf_delete(reply);
        }
    }
}

/* Sends a bundle control message of TYPE and waits for its reply.  Returns
 * false if the switch answered with an error (added to ERRORS). */
static bool
bundle_control(struct vconn *vconn, uint16_t type, struct ovs_list *errors)
{
    struct ofputil_bundle_ctrl_msg bc = {
        .bundle_id = 0,
        .type = type,
        .flags = OFPBF_ATOMIC | OFPBF_ORDERED,
    };
    struct ofpbuf *request = ofputil_encode_bundle_ctrl_request(
        vconn_get_version(vconn), &bc);
    ovs_be32 xid = ((struct ofp_header *) request->data)->xid;
    ofctl_run(vconn_send_block(vconn, request), "talking to %s",
              vconn_get_name(vconn));
    struct ofpbuf *reply = bundle_recv_reply(vconn, xid, errors);
    const struct ofp_header *oh = reply->data;
    if (oh->type == OFPT_ERROR) {
        ovs_list_push_back(errors, &reply->list_node);
        return false;
    }
    struct ofputil_bundle_ctrl_msg rbc;
    enum ofptype reply_type;
    if (ofptype_decode(&reply_type, oh)
        || reply_type != OFPTYPE_BUNDLE_CONTROL
        || ofputil_decode_bundle_ctrl(oh, &rbc)
        || rbc.type != type + 1 || rbc.bundle_id != bc.bundle_id) {
        ofpbuf_delete(reply);
        ofctl_run(EPROTO, "talking to %s", vconn_get_name(vconn));
    }
    ofpbuf_delete(reply);
    return true;
}

/* Prints each error of ERRORS as 3.1 does: the name and the request it
 * answers (the whole one from REQUESTS if its xid is there, else what the
 * error carries). */
static void
bundle_print_errors(struct ovs_list *errors, const struct ovs_list *requests)
{
    struct ofpbuf *error;
    LIST_FOR_EACH_POP (error, list_node, errors) {
        const struct ofp_header *error_oh = error->data;
        struct ofpbuf payload;
        enum ofperr ofperr = ofperr_decode_msg(error_oh, &payload);
        if (!ofperr) {
            fprintf(stderr, "***decode error***");
        } else {
            const void *msg = payload.data;
            size_t msg_len = payload.size;
            const struct ofpbuf *request;
            LIST_FOR_EACH (request, list_node, requests) {
                const struct ofp_header *oh = request->data;
                if (oh->xid == error_oh->xid) {
                    msg = oh;
                    msg_len = request->size;
                    break;
                }
            }
            fprintf(stderr, "Error %s for: ", ofperr_get_name(ofperr));
            ofp_print(stderr, msg, msg_len, NULL,
                      ofctl_opts.verbosity + 1);
        }
        ofpbuf_delete(error);
    }
    fflush(stderr);
}

uint32_t
ofctl_bundle_versions(uint32_t allowed)
{
    uint32_t with_bundles = ofputil_protocols_to_version_bitmap(
        OFPUTIL_P_OF13_UP);
    return (allowed & with_bundles ? allowed & with_bundles
            : 1u << OFP14_VERSION);
}

void
ofctl_bundle_transact(struct vconn *vconn, struct ovs_list *requests)
{
    struct ovs_list errors = OVS_LIST_INITIALIZER(&errors);
    if (bundle_control(vconn, OFPBCT_OPEN_REQUEST, &errors)) {
        const struct ofpbuf *request;
        LIST_FOR_EACH (request, list_node, requests) {
            struct ofputil_bundle_add_msg badd = {
                .bundle_id = 0,
                .flags = OFPBF_ATOMIC | OFPBF_ORDERED,
                .msg = request->data,
            };
            ofctl_run(vconn_send_block(vconn, ofputil_encode_bundle_add(
                                           vconn_get_version(vconn), &badd)),
                      "talking to %s", vconn_get_name(vconn));
        }
        struct ofpbuf *barrier = ofputil_encode_barrier_request(
            vconn_get_version(vconn));
        ovs_be32 xid = ((struct ofp_header *) barrier->data)->xid;
        ofctl_run(vconn_send_block(vconn, barrier), "talking to %s",
                  vconn_get_name(vconn));
        struct ofpbuf *reply = bundle_recv_reply(vconn, xid, &errors);
        ofpbuf_delete(reply);
        if (ovs_list_is_empty(&errors)) {
            bundle_control(vconn, OFPBCT_COMMIT_REQUEST, &errors);
        }
    }
    if (!ovs_list_is_empty(&errors)) {
        bundle_print_errors(&errors, requests);
        ofpbuf_list_delete(requests);
        ofctl_run(EPROTO, "talking to %s", vconn_get_name(vconn));
    }
    ofpbuf_list_delete(requests);
}
