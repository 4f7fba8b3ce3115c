/* ofp-requestforward: requests a switch forwards to its other controllers.
 *
 * When a controller changes a group or a meter, Open vSwitch 3.1 tells
 * the other controllers that asked for it (the REQUESTFORWARD asynchronous
 * messages, reasons group_mod and meter_mod) by sending them the request,
 * re-encoded in each one's version, wrapped in OFPT_REQUESTFORWARD
 * (OpenFlow 1.4+), ONF's ONFT_REQUESTFORWARD (experimenter 2350, 1.3) or
 * Nicira's NXT_REQUESTFORWARD (subtype 132, 1.0-1.2).  Meters exist from
 * 1.3 on, so a meter_mod cannot be forwarded to an older connection.
 *
 * Decoding checks the inner message as 3.1 does (OFPBFC_MSG_BAD_LEN,
 * OFPBRC_BAD_VERSION, the inner header's own error, OFPBRC_BAD_TYPE for
 * anything but a group_mod or meter_mod) and decodes it; the caller frees
 * what it holds with ofputil_uninit_requestforward().  Encoders return a
 * new ofpbuf the caller owns.  Pure functions: any thread. */
#ifndef OFP_REQUESTFORWARD_H
#define OFP_REQUESTFORWARD_H 1

#include "ofp-errors.h"
#include "ofp-group.h"
#include "ofp-meter.h"
#include "openflow.h"

struct ds;
struct ofputil_port_map;

enum ofputil_requestforward_reason {
    OFPRFR_GROUP_MOD = 0,
    OFPRFR_METER_MOD = 1,
};

struct ofputil_requestforward {
    ovs_be32 xid;               /* The forwarded request's. */
    enum ofputil_requestforward_reason reason;
    /* The request, by REASON.  Encoding reads it; decoding fills it (the
     * group_mod's buckets and the meter's bands are then owned). */
    struct ofputil_group_mod *group_mod;
    struct ofputil_meter_mod *meter_mod;

    /* Encoding only: 3.1 forwards OFPGC_ADD_OR_MOD as an add, and a
     * bucket command to 1.1-1.4 (which have none) as a modify to what the
     * group is now: its type NEW_TYPE and buckets NEW_BUCKETS (of struct
     * ofputil_bucket). */
    uint8_t new_type;
    const struct ovs_list *new_buckets;
};

/* RF in VERSION (the meter_mod one only in 1.3 and later). */
struct ofpbuf *ofputil_encode_requestforward(
    const struct ofputil_requestforward *, enum ofp_version);
enum ofperr ofputil_decode_requestforward(const struct ofp_header *,
                                          struct ofputil_requestforward *);
void ofputil_uninit_requestforward(struct ofputil_requestforward *);

/* " reason=group_mod" and the request as ofp-print prints it. */
enum ofperr ofputil_requestforward_print(struct ds *,
                                         const struct ofp_header *,
                                         const struct ofputil_port_map *);

#endif /* ofp-requestforward.h */
