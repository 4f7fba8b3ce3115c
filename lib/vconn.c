#include <config.h>
#include "vconn.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dirs.h"
#include "dynamic-string.h"
#include "fatal-signal.h"
#include "list.h"
#include "ofp-errors.h"
#include "ofp-msgs.h"
#include "ofp-print.h"
#include "ofp-protocol.h"
#include "ofpbuf.h"
#include "openflow.h"
#include "poll-loop.h"
#include "stream.h"
#include "timeval.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(vconn);

static struct vlog_rate_limit bad_msg_rl = VLOG_RATE_LIMIT_INIT(5, 20);
/* Every message sent and received, at debug level, as 3.1 logs them. */
static struct vlog_rate_limit msg_rl = VLOG_RATE_LIMIT_INIT(600, 600);

enum vconn_state {
    VCS_CONNECTING,             /* The stream is still connecting. */
    VCS_RECV_HELLO,             /* Our hello went out; waiting for theirs. */
    VCS_CONNECTED,              /* Version agreed. */
    VCS_DISCONNECTED,           /* Failed; ERROR says why. */
};

struct vconn {
    char *name;
    struct stream *stream;
    enum vconn_state state;
    int error;                  /* For VCS_DISCONNECTED. */
    uint32_t allowed_versions;
    uint32_t peer_versions;
    int version;                /* Negotiated, or -1. */
    bool recv_any_version;      /* vconn_set_recv_any_version(). */
    struct ofpbuf *rxbuf;       /* A message being received, or NULL. */
};

struct pvconn {
    char *name;
    struct pstream *pstream;
    uint32_t allowed_versions;
};

/* Names. */

/* Turns "unix:REL" into "unix:RUNDIR/REL" (same for punix:); other names
 * come back as copies. */
static char *
resolve_name(const char *name)
{
    const char *path = NULL;
    size_t prefix = 0;
    if (!strncmp(name, "unix:", 5)) {
        prefix = 5;
    } else if (!strncmp(name, "punix:", 6)) {
        prefix = 6;
    }
    if (prefix) {
        path = name + prefix;
    }
    if (!path || path[0] == '/') {
        return xstrdup(name);
    }
    char *abs = abs_file_name(ovs_rundir(), path);
    char *full = xasprintf("%.*s%s", (int) prefix, name, abs);
    free(abs);
    return full;
}

static bool
is_active_name(const char *name)
{
    return (!strncmp(name, "tcp:", 4) || !strncmp(name, "ssl:", 4)
            || !strncmp(name, "unix:", 5));
}

static bool
is_passive_name(const char *name)
{
    return (!strncmp(name, "ptcp:", 5) || !strncmp(name, "pssl:", 5)
            || !strncmp(name, "punix:", 6));
}

int
vconn_verify_name(const char *name)
{
    if (!is_active_name(name)) {
        return EAFNOSUPPORT;
    }
    char *full = resolve_name(name);
    int error = stream_verify_name(full);
    free(full);
    return error;
}

int
pvconn_verify_name(const char *name)
{
    if (!is_passive_name(name)) {
        return EAFNOSUPPORT;
    }
    char *full = resolve_name(name);
    int error = pstream_verify_name(full);
    free(full);
    return error;
}

static uint32_t
allowed_or_default(uint32_t allowed_versions)
{
    allowed_versions &= OFPUTIL_SUPPORTED_VERSIONS;
    return allowed_versions ? allowed_versions : OFPUTIL_SUPPORTED_VERSIONS;
}

static struct vconn *
vconn_create(const char *name, struct stream *stream,
             uint32_t allowed_versions)
{
    struct vconn *vconn = xzalloc(sizeof *vconn);
    vconn->name = xstrdup(name);
    vconn->stream = stream;
    vconn->state = VCS_CONNECTING;
    vconn->allowed_versions = allowed_or_default(allowed_versions);
    vconn->version = -1;
    return vconn;
}

int
vconn_open(const char *name, uint32_t allowed_versions, uint8_t dscp,
           struct vconn **vconnp)
{
    *vconnp = NULL;
    if (!is_active_name(name)) {
        return EAFNOSUPPORT;
    }

    char *full = resolve_name(name);
    struct stream *stream;
    int error = stream_open_with_default_port(full, OFP_PORT, &stream, dscp);
    free(full);
    if (error) {
        return error;
    }
    /* A connection that fails at once (refused on loopback, say) fails the
     * open, as 3.1's does: ovs-ofctl then says "connecting to NAME". */
    error = stream_connect(stream);
    if (error && error != EAGAIN) {
        stream_close(stream);
        return error;
    }
    *vconnp = vconn_create(name, stream, allowed_versions);
    return 0;
}

void
vconn_close(struct vconn *vconn)
{
    if (vconn) {
        stream_close(vconn->stream);
        ofpbuf_delete(vconn->rxbuf);
        free(vconn->name);
        free(vconn);
    }
}

const char *
vconn_get_name(const struct vconn *vconn)
{
    return vconn->name;
}

void
vconn_set_recv_any_version(struct vconn *vconn)
{
    vconn->recv_any_version = true;
}

int
vconn_get_version(const struct vconn *vconn)
{
    return vconn->version;
}

uint32_t
vconn_get_allowed_versions(const struct vconn *vconn)
{
    return vconn->allowed_versions;
}

void
vconn_set_allowed_versions(struct vconn *vconn, uint32_t allowed_versions)
{
    vconn->allowed_versions = allowed_or_default(allowed_versions);
}

const char *
vconn_get_peer_name(const struct vconn *vconn)
{
    return stream_get_peer_name(vconn->stream);
}

size_t
vconn_get_backlog(const struct vconn *vconn)
{
    return stream_get_backlog(vconn->stream);
}

void
vconn_cork(struct vconn *vconn)
{
    stream_cork(vconn->stream);
}

void
vconn_uncork(struct vconn *vconn)
{
    stream_uncork(vconn->stream);
}

/* Framing. */

static void
vconn_fail(struct vconn *vconn, int error)
{
    if (vconn->state != VCS_DISCONNECTED) {
        vconn->state = VCS_DISCONNECTED;
        vconn->error = error;
    }
}

/* Reads one whole message off the stream into *MSGP.  The header's length
 * is all that is checked. */
static int
recv_message(struct vconn *vconn, struct ofpbuf **msgp)
{
    if (!vconn->rxbuf) {
        vconn->rxbuf = ofpbuf_new(1024);
    }
    struct ofpbuf *rx = vconn->rxbuf;

    for (;;) {
        size_t want;
        if (rx->size < sizeof(struct ofp_header)) {
            want = sizeof(struct ofp_header) - rx->size;
        } else {
            const struct ofp_header *oh = rx->data;
            size_t length = ntohs(oh->length);
            if (length < sizeof *oh) {
                VLOG_WARN_RL(&bad_msg_rl, "%s: received too-short ofp_header "
                             "(%zu bytes)", vconn->name, length);
                return EPROTO;
            }
            if (rx->size >= length) {
                *msgp = rx;
                vconn->rxbuf = NULL;
                return 0;
            }
            want = length - rx->size;
        }

        ofpbuf_prealloc_tailroom(rx, want);
        int n = stream_recv(vconn->stream, ofpbuf_tail(rx), want);
        if (n > 0) {
            rx->size += n;
        } else if (n == 0) {
            if (rx->size) {
                VLOG_WARN_RL(&bad_msg_rl, "%s: connection dropped mid-packet",
                             vconn->name);
                return EPROTO;
            }
            return EOF;
        } else {
            return -n;
        }
    }
}

static int
send_message(struct vconn *vconn, struct ofpbuf *msg)
{
    char *s = (VLOG_IS_DBG_ENABLED()
               ? ofp_to_string(msg->data, msg->size, NULL, 1) : NULL);
    int n = stream_send(vconn->stream, msg->data, msg->size);
    ofpbuf_delete(msg);
    int error = n < 0 ? -n : 0;
    if (s) {
        VLOG_DBG_RL(&msg_rl, "%s: sent (%s): %s", vconn->name,
                    ovs_strerror(error), s);
        free(s);
    }
    return error;
}

static void
log_received(const struct vconn *vconn, const struct ofpbuf *msg)
{
    if (VLOG_IS_DBG_ENABLED()) {
        char *s = ofp_to_string(msg->data, msg->size, NULL, 1);
        VLOG_DBG_RL(&msg_rl, "%s: received: %s", vconn->name, s);
        free(s);
    }
}

/* "version 0x06 and earlier", "version 0x01", "versions 0x01, 0x04": a
 * version bitmap as 3.1's negotiation messages say it.  Returns a malloc'd
 * string. */
static char *
version_bitmap_to_string(uint32_t bitmap)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    if (!bitmap) {
        ds_put_cstr(&s, "no versions");
    } else if (!(bitmap & (bitmap - 1))) {
        ds_put_format(&s, "version 0x%02x", __builtin_ctz(bitmap));
    } else {
        /* Every version from 1.0 (bit 1) up to the highest. */
        uint32_t above = (bitmap >> 1) + 1;
        if (!(above & (above - 1))) {
            ds_put_format(&s, "version 0x%02x and earlier",
                          31 - __builtin_clz(bitmap));
        } else {
            ds_put_cstr(&s, "versions ");
            ofputil_format_version_bitmap(&s, bitmap);
        }
    }
    return ds_steal_cstr(&s);
}

/* Negotiation. */

static void
send_hello(struct vconn *vconn)
{
    int error = send_message(vconn,
                             ofputil_encode_hello(vconn->allowed_versions));
    if (error) {
        vconn_fail(vconn, error);
    } else {
        vconn->state = VCS_RECV_HELLO;
    }
}

static void
refuse_versions(struct vconn *vconn)
{
    char *ours = version_bitmap_to_string(vconn->allowed_versions);
    char *theirs = version_bitmap_to_string(vconn->peer_versions);
    VLOG_WARN_RL(&bad_msg_rl, "%s: version negotiation failed (we support "
                 "%s, peer supports %s)", vconn->name, ours, theirs);

    /* The error goes out in the peer's highest version, the one it is
     * sure to understand. */
    int peer_max = 31;
    while (peer_max > 0 && !(vconn->peer_versions & (1u << peer_max))) {
        peer_max--;
    }
    enum ofp_version version = (peer_max >= OFP10_VERSION
                                && peer_max <= OFP15_VERSION
                                ? peer_max : OFP10_VERSION);
    char *text = xasprintf("We support %s, you support %s, no common "
                           "versions.", ours, theirs);
    send_message(vconn, ofperr_encode_hello(OFPERR_OFPHFC_INCOMPATIBLE,
                                            version, text));
    free(text);
    free(ours);
    free(theirs);
    vconn_fail(vconn, EPROTO);
}

static void
recv_hello(struct vconn *vconn)
{
    struct ofpbuf *msg;
    int error = recv_message(vconn, &msg);
    if (error) {
        if (error != EAGAIN) {
            vconn_fail(vconn, error);
        }
        return;
    }

    log_received(vconn, msg);
    const struct ofp_header *oh = msg->data;
    if (oh->type != OFPT_HELLO) {
        struct ofpbuf payload;
        enum ofperr err = (oh->type == OFPT_ERROR
                           ? ofperr_decode_msg(oh, &payload) : 0);
        if (err) {
            VLOG_WARN_RL(&bad_msg_rl, "%s: received error while expecting "
                         "hello: %s", vconn->name, ofperr_get_name(err));
        } else {
            VLOG_WARN_RL(&bad_msg_rl, "%s: received message type %"PRIu8
                         " while expecting hello", vconn->name, oh->type);
        }
        ofpbuf_delete(msg);
        vconn_fail(vconn, EPROTO);
        return;
    }

    if (!ofputil_decode_hello(oh, &vconn->peer_versions)) {
        VLOG_WARN_RL(&bad_msg_rl, "%s: unknown data in hello", vconn->name);
    }
    ofpbuf_delete(msg);

    enum ofp_version version
        = ofputil_negotiate_version(vconn->allowed_versions,
                                    vconn->peer_versions);
    if (!version) {
        refuse_versions(vconn);
        return;
    }
    vconn->version = version;
    vconn->state = VCS_CONNECTED;
    if (VLOG_IS_DBG_ENABLED()) {
        char *ours = version_bitmap_to_string(vconn->allowed_versions);
        char *theirs = version_bitmap_to_string(vconn->peer_versions);
        VLOG_DBG("%s: negotiated OpenFlow version 0x%02x (we support %s, "
                 "peer supports %s)", vconn->name, version, ours, theirs);
        free(ours);
        free(theirs);
    }
}

int
vconn_connect(struct vconn *vconn)
{
    for (;;) {
        enum vconn_state last = vconn->state;
        switch (vconn->state) {
        case VCS_CONNECTING: {
            int error = stream_connect(vconn->stream);
            if (error == EAGAIN) {
                return EAGAIN;
            } else if (error) {
                vconn_fail(vconn, error);
            } else {
                send_hello(vconn);
            }
            break;
        }
        case VCS_RECV_HELLO:
            recv_hello(vconn);
            break;
        case VCS_CONNECTED:
            return 0;
        case VCS_DISCONNECTED:
            return vconn->error;
        }
        if (vconn->state == last) {
            return EAGAIN;
        }
    }
}

/* Messages any version may carry, before or after negotiation. */
static bool
is_version_independent(uint8_t type)
{
    return (type == OFPT_HELLO || type == OFPT_ERROR
            || type == OFPT_ECHO_REQUEST || type == OFPT_ECHO_REPLY);
}

int
vconn_recv(struct vconn *vconn, struct ofpbuf **msgp)
{
    *msgp = NULL;
    int error = vconn_connect(vconn);
    if (error) {
        return error;
    }

    for (;;) {
        struct ofpbuf *msg;
        error = recv_message(vconn, &msg);
        if (error) {
            if (error != EAGAIN) {
                vconn_fail(vconn, error);
            }
            return error;
        }

        log_received(vconn, msg);
        const struct ofp_header *oh = msg->data;
        if (oh->version == vconn->version || vconn->recv_any_version
            || is_version_independent(oh->type)) {
            *msgp = msg;
            return 0;
        }
        VLOG_WARN_RL(&bad_msg_rl, "%s: received OpenFlow version 0x%02x != "
                     "expected %02x", vconn->name, oh->version,
                     vconn->version);
        /* The error speaks the offending message's version, as 3.1's
         * does, so that its sender can read it; a version we cannot
         * encode gets ours. */
        enum ofp_version err_version
            = (oh->version >= OFP10_VERSION && oh->version <= OFP15_VERSION
               ? oh->version : vconn->version);
        send_message(vconn, ofperr_encode_reply_in(OFPERR_OFPBRC_BAD_VERSION,
                                                   err_version, oh));
        ofpbuf_delete(msg);
    }
}

int
vconn_send(struct vconn *vconn, struct ofpbuf *msg)
{
    int error = vconn_connect(vconn);
    if (error) {
        if (error != EAGAIN) {
            ofpbuf_delete(msg);
        }
        return error;
    }

    const struct ofp_header *oh = msg->data;
    if (msg->size < sizeof *oh || ntohs(oh->length) != msg->size) {
        VLOG_ERR("%s: refusing to send a message whose length field does "
                 "not match its %"PRIu32" bytes", vconn->name, msg->size);
        ofpbuf_delete(msg);
        return EINVAL;
    }
    if (stream_get_backlog(vconn->stream) > VCONN_MAX_BACKLOG) {
        return EAGAIN;
    }
    error = send_message(vconn, msg);
    if (error) {
        vconn_fail(vconn, error);
    }
    return error;
}

void
vconn_run(struct vconn *vconn)
{
    if (vconn->state == VCS_CONNECTING || vconn->state == VCS_RECV_HELLO) {
        vconn_connect(vconn);
    }
    stream_run(vconn->stream);
}

void
vconn_run_wait(struct vconn *vconn)
{
    if (vconn->state == VCS_CONNECTING || vconn->state == VCS_RECV_HELLO) {
        vconn_connect_wait(vconn);
    }
    stream_run_wait(vconn->stream);
}

void
vconn_connect_wait(struct vconn *vconn)
{
    switch (vconn->state) {
    case VCS_CONNECTING:
        stream_connect_wait(vconn->stream);
        break;
    case VCS_RECV_HELLO:
        stream_recv_wait(vconn->stream);
        break;
    case VCS_CONNECTED:
    case VCS_DISCONNECTED:
        poll_immediate_wake();
        break;
    }
}

void
vconn_recv_wait(struct vconn *vconn)
{
    if (vconn->state == VCS_CONNECTED) {
        stream_recv_wait(vconn->stream);
    } else {
        vconn_connect_wait(vconn);
    }
}

void
vconn_send_wait(struct vconn *vconn)
{
    if (vconn->state == VCS_CONNECTED) {
        stream_send_wait(vconn->stream);
    } else {
        vconn_connect_wait(vconn);
    }
}

/* Blocking helpers. */

/* The blocking helpers wait with fatal_signal_block(): a tool spends its
 * life in them, and a --timeout alarm or a Ctrl-C must end it from there. */

int
vconn_connect_block(struct vconn *vconn, long long int timeout_ms)
{
    long long int deadline = (timeout_ms >= 0 ? time_msec() + timeout_ms
                              : LLONG_MAX);
    int error;
    while ((error = vconn_connect(vconn)) == EAGAIN) {
        if (time_msec() >= deadline) {
            return ETIMEDOUT;
        }
        vconn_run(vconn);
        vconn_run_wait(vconn);
        vconn_connect_wait(vconn);
        if (deadline != LLONG_MAX) {
            poll_timer_wait_until(deadline);
        }
        fatal_signal_block();
    }
    return error;
}

int
vconn_open_block(const char *name, uint32_t allowed_versions, uint8_t dscp,
                 long long int timeout_ms, struct vconn **vconnp)
{
    int error = vconn_open(name, allowed_versions, dscp, vconnp);
    if (!error) {
        error = vconn_connect_block(*vconnp, timeout_ms);
        if (error) {
            vconn_close(*vconnp);
            *vconnp = NULL;
        }
    }
    return error;
}

int
vconn_send_block(struct vconn *vconn, struct ofpbuf *msg)
{
    int error;
    while ((error = vconn_send(vconn, msg)) == EAGAIN) {
        vconn_run(vconn);
        vconn_run_wait(vconn);
        vconn_send_wait(vconn);
        fatal_signal_block();
    }
    return error;
}

int
vconn_recv_block(struct vconn *vconn, struct ofpbuf **msgp)
{
    int error;
    while ((error = vconn_recv(vconn, msgp)) == EAGAIN) {
        vconn_run(vconn);
        vconn_run_wait(vconn);
        vconn_recv_wait(vconn);
        fatal_signal_block();
    }
    return error;
}

/* Answers MSG if it is an echo request (and then frees it); true if so. */
static bool
answer_echo(struct vconn *vconn, struct ofpbuf *msg)
{
    const struct ofp_header *oh = msg->data;
    if (oh->type != OFPT_ECHO_REQUEST) {
        return false;
    }
    vconn_send_block(vconn, ofputil_encode_echo_reply(oh));
    ofpbuf_delete(msg);
    return true;
}

static ovs_be32
msg_xid(const struct ofpbuf *msg)
{
    return ((const struct ofp_header *) msg->data)->xid;
}

int
vconn_recv_xid(struct vconn *vconn, ovs_be32 xid, struct ofpbuf **msgp)
{
    for (;;) {
        struct ofpbuf *msg;
        int error = vconn_recv_block(vconn, &msg);
        if (error) {
            *msgp = NULL;
            return error;
        }
        if (msg_xid(msg) == xid) {
            *msgp = msg;
            return 0;
        }
        if (!answer_echo(vconn, msg)) {
            VLOG_DBG("%s: received reply with xid %08"PRIx32" != expected "
                     "%08"PRIx32, vconn->name, ntohl(msg_xid(msg)),
                     ntohl(xid));
            ofpbuf_delete(msg);
        }
    }
}

int
vconn_transact(struct vconn *vconn, struct ofpbuf *request,
               struct ofpbuf **replyp)
{
    ovs_be32 xid = msg_xid(request);
    *replyp = NULL;
    int error = vconn_send_block(vconn, request);
    return error ? error : vconn_recv_xid(vconn, xid, replyp);
}

int
vconn_transact_noreply(struct vconn *vconn, struct ofpbuf *request,
                       struct ofpbuf **replyp)
{
    struct ovs_list requests;
    ovs_list_init(&requests);
    ovs_list_push_back(&requests, &request->list_node);
    return vconn_transact_multiple_noreply(vconn, &requests, replyp);
}

int
vconn_transact_multiple_noreply(struct vconn *vconn,
                                struct ovs_list *requests,
                                struct ofpbuf **replyp)
{
    *replyp = NULL;

    /* Remember the xids before the buffers go to the vconn. */
    size_t n = ovs_list_size(requests);
    ovs_be32 *xids = xmalloc((n ? n : 1) * sizeof *xids);
    size_t i = 0;
    int error = 0;
    struct ofpbuf *request;
    while (!ovs_list_is_empty(requests)) {
        request = CONTAINER_OF(ovs_list_pop_front(requests), struct ofpbuf,
                               list_node);
        xids[i++] = msg_xid(request);
        if (error) {
            ofpbuf_delete(request);
        } else {
            error = vconn_send_block(vconn, request);
        }
    }
    if (error) {
        free(xids);
        return error;
    }

    struct ofpbuf *barrier = ofputil_encode_barrier_request(vconn->version);
    ovs_be32 barrier_xid = msg_xid(barrier);
    error = vconn_send_block(vconn, barrier);
    while (!error) {
        struct ofpbuf *msg;
        error = vconn_recv_block(vconn, &msg);
        if (error) {
            break;
        }
        ovs_be32 xid = msg_xid(msg);
        if (xid == barrier_xid) {
            ofpbuf_delete(msg);
            break;
        }
        bool ours = false;
        for (size_t j = 0; j < n; j++) {
            ours |= xids[j] == xid;
        }
        if (ours && !*replyp) {
            *replyp = msg;
        } else if (!answer_echo(vconn, msg)) {
            ofpbuf_delete(msg);
        }
    }
    free(xids);
    if (error) {
        ofpbuf_delete(*replyp);
        *replyp = NULL;
    }
    return error;
}

int
vconn_dump_multipart_each(struct vconn *vconn, struct ofpbuf *request,
                          void (*cb)(struct ofpbuf *reply, void *aux),
                          void *aux)
{
    ovs_be32 xid = msg_xid(request);
    int error = vconn_send_block(vconn, request);
    while (!error) {
        struct ofpbuf *reply;
        error = vconn_recv_xid(vconn, xid, &reply);
        if (error) {
            break;
        }
        const struct ofp_header *oh = reply->data;
        if (oh->type == OFPT_ERROR) {
            cb(reply, aux);
            return 0;
        }
        if (!ofpmsg_is_stat_reply(oh)) {
            VLOG_WARN_RL(&bad_msg_rl, "%s: received message type %"PRIu8
                         " in reply to a multipart request", vconn->name,
                         oh->type);
            ofpbuf_delete(reply);
            error = EPROTO;
            break;
        }
        bool more = ofpmp_more(oh);
        cb(reply, aux);
        if (!more) {
            return 0;
        }
    }
    return error;
}

/* vconn_dump_multipart()'s way of collecting: an error reply replaces what
 * came before it. */
static void
collect_reply(struct ofpbuf *reply, void *replies_)
{
    struct ovs_list *replies = replies_;
    if (((const struct ofp_header *) reply->data)->type == OFPT_ERROR) {
        ofpbuf_list_delete(replies);
    }
    ovs_list_push_back(replies, &reply->list_node);
}

int
vconn_dump_multipart(struct vconn *vconn, struct ofpbuf *request,
                     struct ovs_list *replies)
{
    int error = vconn_dump_multipart_each(vconn, request, collect_reply,
                                          replies);
    if (error) {
        ofpbuf_list_delete(replies);
    }
    return error;
}

/* Listeners. */

int
pvconn_open(const char *name, uint32_t allowed_versions, uint8_t dscp,
            struct pvconn **pvconnp)
{
    *pvconnp = NULL;
    if (!is_passive_name(name)) {
        return EAFNOSUPPORT;
    }
    char *full = resolve_name(name);
    struct pstream *pstream;
    int error = pstream_open_with_default_port(full, OFP_PORT, &pstream,
                                               dscp);
    free(full);
    if (error) {
        return error;
    }
    struct pvconn *pvconn = xzalloc(sizeof *pvconn);
    pvconn->name = xstrdup(name);
    pvconn->pstream = pstream;
    pvconn->allowed_versions = allowed_or_default(allowed_versions);
    *pvconnp = pvconn;
    return 0;
}

const char *
pvconn_get_name(const struct pvconn *pvconn)
{
    return pvconn->name;
}

void
pvconn_set_allowed_versions(struct pvconn *pvconn, uint32_t allowed_versions)
{
    pvconn->allowed_versions = allowed_or_default(allowed_versions);
}

uint16_t
pvconn_get_bound_port(const struct pvconn *pvconn)
{
    return pstream_get_bound_port(pvconn->pstream);
}

int
pvconn_accept(struct pvconn *pvconn, struct vconn **vconnp)
{
    *vconnp = NULL;
    struct stream *stream;
    int error = pstream_accept(pvconn->pstream, &stream);
    if (!error) {
        *vconnp = vconn_create(stream_get_name(stream), stream,
                               pvconn->allowed_versions);
    }
    return error;
}

void
pvconn_wait(struct pvconn *pvconn)
{
    pstream_wait(pvconn->pstream);
}

void
pvconn_close(struct pvconn *pvconn)
{
    if (pvconn) {
        pstream_close(pvconn->pstream);
        free(pvconn->name);
        free(pvconn);
    }
}
