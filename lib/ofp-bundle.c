/* ofp-bundle: see ofp-bundle.h. */
#include <config.h>
#include "ofp-bundle.h"

#include <inttypes.h>
#include <string.h>
#include "dynamic-string.h"
#include "ofp-msgs.h"
#include "ofpbuf.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ofp_bundle);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);

/* Both messages start with the same 8 bytes (struct ofp14_bundle_ctrl_msg:
 * an add message has padding where a control message has its type). */
static enum ofperr
pull_bundle_body(const struct ofp_header *oh, struct ofpbuf *b,
                 const struct ofp14_bundle_ctrl_msg **body)
{
    ofpbuf_use_const(b, oh, ntohs(oh->length));
    enum ofpraw raw;
    enum ofperr error = ofpraw_pull(&raw, b);
    if (error) {
        return error;
    }
    *body = ofpbuf_try_pull(b, sizeof **body);
    return *body ? 0 : OFPERR_OFPBRC_BAD_LEN;
}

enum ofperr
ofputil_decode_bundle_ctrl(const struct ofp_header *oh,
                           struct ofputil_bundle_ctrl_msg *msg)
{
    struct ofpbuf b;
    const struct ofp14_bundle_ctrl_msg *body;
    enum ofperr error = pull_bundle_body(oh, &b, &body);
    if (error) {
        return error;
    }
    msg->bundle_id = ntohl(body->bundle_id);
    msg->type = ntohs(body->type);
    msg->flags = ntohs(body->flags);
    return 0;
}

static struct ofpbuf *
encode_bundle_body(enum ofpraw raw, enum ofp_version version, ovs_be32 xid,
                   uint32_t bundle_id, uint16_t type, uint16_t flags)
{
    /* The raw form's minimum body is this struct, already zeroed. */
    struct ofpbuf *b = ofpraw_alloc_xid(raw, version, xid, 0);
    struct ofp14_bundle_ctrl_msg *body = b->msg;
    body->bundle_id = htonl(bundle_id);
    body->type = htons(type);
    body->flags = htons(flags);
    return b;
}

struct ofpbuf *
ofputil_encode_bundle_ctrl_request(enum ofp_version version,
                                   const struct ofputil_bundle_ctrl_msg *msg)
{
    ovs_assert(version >= OFP13_VERSION);
    enum ofpraw raw = (version == OFP13_VERSION
                       ? OFPRAW_ONFT13_BUNDLE_CONTROL
                       : OFPRAW_OFPT14_BUNDLE_CONTROL);
    return encode_bundle_body(raw, version, alloc_xid(), msg->bundle_id,
                              msg->type, msg->flags);
}

struct ofpbuf *
ofputil_encode_bundle_ctrl_reply(const struct ofp_header *request,
                                 const struct ofputil_bundle_ctrl_msg *reply)
{
    enum ofpraw raw = (request->version == OFP13_VERSION
                       ? OFPRAW_ONFT13_BUNDLE_CONTROL
                       : OFPRAW_OFPT14_BUNDLE_CONTROL);
    return encode_bundle_body(raw, request->version, request->xid,
                              reply->bundle_id, reply->type, reply->flags);
}

enum ofperr
ofputil_decode_bundle_add(const struct ofp_header *oh,
                          struct ofputil_bundle_add_msg *msg)
{
    struct ofpbuf b;
    const struct ofp14_bundle_ctrl_msg *body;
    enum ofperr error = pull_bundle_body(oh, &b, &body);
    if (error) {
        return error;
    }
    msg->bundle_id = ntohl(body->bundle_id);
    msg->flags = ntohs(body->flags);

    const struct ofp_header *inner = b.data;
    if (b.size < sizeof *inner) {
        return OFPERR_OFPBFC_MSG_BAD_LEN;
    }
    if (inner->version != oh->version) {
        return OFPERR_OFPBFC_BAD_VERSION;
    }
    size_t inner_len = ntohs(inner->length);
    if (inner_len < sizeof *inner || inner_len > b.size) {
        return OFPERR_OFPBFC_MSG_BAD_LEN;
    }
    if (inner->xid != oh->xid) {
        return OFPERR_OFPBFC_MSG_BAD_XID;
    }

    enum ofpraw raw;
    error = ofpraw_decode(&raw, inner);
    if (error) {
        VLOG_WARN_RL(&rl, "OFPT14_BUNDLE_ADD_MESSAGE contained message is "
                     "unparsable (%s)", ofperr_get_name(error));
        return OFPERR_OFPBFC_MSG_UNSUP;
    }
    switch (ofptype_from_ofpraw(raw)) {
    case OFPTYPE_FLOW_MOD:
    case OFPTYPE_GROUP_MOD:
    case OFPTYPE_PORT_MOD:
    case OFPTYPE_PACKET_OUT:
        break;
    default:
        VLOG_WARN_RL(&rl, "%s message not allowed inside "
                     "OFPT14_BUNDLE_ADD_MESSAGE", ofpraw_get_name(raw));
        return OFPERR_OFPBFC_MSG_UNSUP;
    }
    msg->msg = inner;
    return 0;
}

struct ofpbuf *
ofputil_encode_bundle_add(enum ofp_version version,
                          const struct ofputil_bundle_add_msg *msg)
{
    ovs_assert(version >= OFP13_VERSION && msg->msg->version == version);
    enum ofpraw raw = (version == OFP13_VERSION
                       ? OFPRAW_ONFT13_BUNDLE_ADD_MESSAGE
                       : OFPRAW_OFPT14_BUNDLE_ADD_MESSAGE);
    struct ofpbuf *b = encode_bundle_body(raw, version, msg->msg->xid,
                                          msg->bundle_id, 0, msg->flags);
    size_t inner_len = ntohs(msg->msg->length);
    ofpbuf_put(b, msg->msg, inner_len);
    /* The inner message is padded to 8 bytes when properties follow;
     * without them the message ends with it, as 3.1 sends it. */
    ofpmsg_update_length(b);
    return b;
}

const char *
ofputil_bundle_ctrl_type_to_string(uint16_t type)
{
    switch (type) {
    case OFPBCT_OPEN_REQUEST: return "OPEN_REQUEST";
    case OFPBCT_OPEN_REPLY: return "OPEN_REPLY";
    case OFPBCT_CLOSE_REQUEST: return "CLOSE_REQUEST";
    case OFPBCT_CLOSE_REPLY: return "CLOSE_REPLY";
    case OFPBCT_COMMIT_REQUEST: return "COMMIT_REQUEST";
    case OFPBCT_COMMIT_REPLY: return "COMMIT_REPLY";
    case OFPBCT_DISCARD_REQUEST: return "DISCARD_REQUEST";
    case OFPBCT_DISCARD_REPLY: return "DISCARD_REPLY";
    default: return "";
    }
}

void
ofputil_format_bundle_flags(struct ds *s, uint16_t flags)
{
    if (!flags) {
        ds_put_char(s, '0');
        return;
    }
    const char *sep = "";
    if (flags & OFPBF_ATOMIC) {
        ds_put_cstr(s, "atomic");
        sep = " ";
    }
    if (flags & OFPBF_ORDERED) {
        ds_put_format(s, "%sordered", sep);
        sep = " ";
    }
    flags &= ~(OFPBF_ATOMIC | OFPBF_ORDERED);
    if (flags) {
        ds_put_format(s, "%s0x%"PRIx16, sep, flags);
    }
}
