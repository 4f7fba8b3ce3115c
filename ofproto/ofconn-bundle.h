/* ofconn-bundle: a connection's OpenFlow bundles (OFPT_BUNDLE_CONTROL and
 * OFPT_BUNDLE_ADD_MESSAGE, OpenFlow 1.4+, and ONF's 1.3 extension).
 *
 * Each connection has its own bundles, by id.  A bundle is opened
 * explicitly or by its first add; adds queue flow_mods (decoded and
 * checked when added, as Open vSwitch 3.1 does, so a bad one is refused
 * at once); close forbids further adds; commit applies every flow_mod of
 * the bundle as one atomic change (ofproto_flow_mod_batch()) and discards
 * the bundle either way; discard drops it.  The errors are 3.1's:
 * OFPBFC_BAD_ID (no such bundle, or an open of one that exists, which is
 * then discarded), OFPBFC_BUNDLE_CLOSED, OFPBFC_BAD_FLAGS (flags other
 * than the bundle's), OFPBFC_BAD_TYPE (a reply type sent as a request),
 * OFPBFC_MSG_UNSUP (a message this switch cannot bundle: anything but a
 * flow_mod), and on a failed commit the failing flow_mod's own error,
 * sent with its xid, followed by OFPBFC_MSG_FAILED for the commit.
 * Bundles of a connection go when it closes or reconnects.
 *
 * Threads: main thread only, as ofconn. */
#ifndef OFPROTO_OFCONN_BUNDLE_H
#define OFPROTO_OFCONN_BUNDLE_H 1

#include "ofp-errors.h"

struct ofconn;
struct ofp_header;

enum ofperr ofconn_handle_bundle_control(struct ofconn *,
                                         const struct ofp_header *);
enum ofperr ofconn_handle_bundle_add(struct ofconn *,
                                     const struct ofp_header *);
/* Discards every bundle of the connection. */
void ofconn_bundles_clear(struct ofconn *);
/* Expires the bundles idle for the bundle idle timeout; the wait arms a
 * timer only while the connection has a bundle. */
void ofconn_bundles_run(struct ofconn *);
void ofconn_bundles_wait(const struct ofconn *);

#endif /* ofproto/ofconn-bundle.h */
