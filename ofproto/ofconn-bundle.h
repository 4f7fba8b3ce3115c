/* ofconn-bundle: a connection's OpenFlow bundles (OFPT_BUNDLE_CONTROL and
 * OFPT_BUNDLE_ADD_MESSAGE, OpenFlow 1.4+, and ONF's 1.3 extension).
 *
 * Each connection has its own bundles, by id, as in Open vSwitch 3.1.  A
 * bundle is opened explicitly or by its first add; adds queue flow_mods,
 * group_mods, port_mods and packet_outs, decoded and checked when added
 * (a bad one is refused at once and opens nothing); close forbids further
 * adds; commit applies the bundle and discards it either way; discard
 * drops it.  The commit runs flow_mods and group_mods in order as one
 * ofproto_txn (ofproto.h): all seen by packets at once, or none.  A
 * port_mod cannot be taken back, so an atomic bundle refuses it at the
 * commit (OFPBFC_MSG_FAILED, as 3.1); otherwise it is checked in its turn
 * and applied after the transaction.  A packet_out's actions are checked
 * in its turn and, if the bundle commits, it runs on the tables as the
 * messages before it left them (the bundle is then committed in pieces,
 * once it is known to succeed whole).  Group_mods are forwarded to the
 * controllers that ask for requestforward, and flow_mods counted for the
 * connection's log, once the bundle committed.  The errors
 * are 3.1's: OFPBFC_BAD_ID (no such bundle, or an open of one that
 * exists, which is then discarded), OFPBFC_BUNDLE_CLOSED, OFPBFC_BAD_FLAGS
 * (flags other than the bundle's), OFPBFC_BAD_TYPE (a reply type sent as
 * a request), OFPBFC_MSG_UNSUP (a message that cannot be bundled), and on
 * a failed commit the failing message's own error, sent with its xid,
 * followed by OFPBFC_MSG_FAILED for the commit.  Properties are ignored
 * and there are no limits on bundles or messages (3.1 has none).
 *
 * A bundle idle (no open, add or close) for the bundle idle timeout
 * (ofproto_set_bundle_idle_timeout(), 10 s by default) is discarded with
 * OFPBFC_TIMEOUT, carrying the message that created it.  The wait arms a
 * timer only while the connection has a bundle.  Bundles of a connection
 * go when it closes or reconnects.
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
