/* ofp-bundle: OpenFlow bundles (OFPT_BUNDLE_CONTROL and
 * OFPT_BUNDLE_ADD_MESSAGE, OpenFlow 1.4+, and ONF's extension 2300/2301
 * that carries the same bodies in OpenFlow 1.3), decoded.
 *
 * A bundle control message opens, closes, commits or discards the bundle
 * with an id, and the switch answers each with the matching reply type.
 * A bundle add message carries one whole OpenFlow message of the same
 * version and xid to queue in a bundle; only messages that change the
 * switch (flow_mod, group_mod, port_mod, packet_out) may be bundled, as in
 * Open vSwitch 3.1.  Properties are not sent, and read past when decoding
 * (3.1 decodes none).
 *
 * Decoders take a whole message whose header ofpraw_decode() accepted and
 * return the OpenFlow error 3.1 returns; an add message's inner message
 * points into the outer one.  Encoders return a new ofpbuf the caller
 * owns.  Pure functions: any thread. */
#ifndef OFP_BUNDLE_H
#define OFP_BUNDLE_H 1

#include <stdint.h>
#include "ofp-errors.h"
#include "openflow.h"

struct ds;
struct ofpbuf;
struct ofputil_port_map;

struct ofputil_bundle_ctrl_msg {
    uint32_t bundle_id;
    uint16_t type;              /* OFPBCT_*. */
    uint16_t flags;             /* OFPBF_*. */
};

struct ofputil_bundle_add_msg {
    uint32_t bundle_id;
    uint16_t flags;             /* OFPBF_*. */
    const struct ofp_header *msg;   /* Points into the decoded message. */
};

enum ofperr ofputil_decode_bundle_ctrl(const struct ofp_header *,
                                       struct ofputil_bundle_ctrl_msg *);
/* VERSION 1.3 (ONF's extension) or later. */
struct ofpbuf *ofputil_encode_bundle_ctrl_request(
    enum ofp_version, const struct ofputil_bundle_ctrl_msg *);
/* The reply to REQUEST (its version, raw form and xid) carrying REPLY. */
struct ofpbuf *ofputil_encode_bundle_ctrl_reply(
    const struct ofp_header *request,
    const struct ofputil_bundle_ctrl_msg *reply);

/* Also checks the inner message: OFPBFC_BAD_VERSION, OFPBFC_MSG_BAD_LEN,
 * OFPBFC_MSG_BAD_XID, OFPBFC_MSG_UNSUP (logged as 3.1 logs it). */
enum ofperr ofputil_decode_bundle_add(const struct ofp_header *,
                                      struct ofputil_bundle_add_msg *);
/* MSG->msg must be of VERSION; the result has its xid. */
struct ofpbuf *ofputil_encode_bundle_add(enum ofp_version,
                                         const struct ofputil_bundle_add_msg *);

/* " bundle_id=0x1 type=OPEN_REQUEST flags=atomic ordered" etc. */
const char *ofputil_bundle_ctrl_type_to_string(uint16_t type);
void ofputil_format_bundle_flags(struct ds *, uint16_t flags);

#endif /* ofp-bundle.h */
