/* ofp-flow: flow_mod messages, decoded.
 *
 * struct ofputil_flow_mod is one flow table modification in the form the
 * switch consumes, whatever version and flow format it came in: OpenFlow
 * 1.0's OFPT_FLOW_MOD (fixed match, table id in the command's high byte
 * when NXT_FLOW_MOD_TABLE_ID is on), Nicira's NXT_FLOW_MOD (NXM match,
 * which may also match the cookie) and OpenFlow 1.2-1.5's OFPT_FLOW_MOD
 * (OXM match, instructions).  OpenFlow 1.1's standard match is not
 * supported (OFPBMC_BAD_TYPE).
 *
 * Cookies follow Open vSwitch: for ADD, NEW_COOKIE is the flow's cookie;
 * otherwise COOKIE/COOKIE_MASK select flows (1.1+, or NXM's cookie field)
 * and NEW_COOKIE, unless UINT64_MAX, replaces the cookie of modified flows
 * (1.0 and NXM carry only that one).
 *
 * Memory: the decoded actions live in the ofpbuf the caller passes to the
 * decoder; FM->ofpacts points into it.  Encoding returns a new message the
 * caller owns.  Text: ofputil_flow_mod_format() writes the body of
 * "ovs-ofctl ofp-print" for a flow_mod ("ADD table:2 priority=7,in_port=1
 * cookie:0x5 idle:10 actions=output:2").
 *
 * Threads: pure functions. */
#ifndef OFP_FLOW_H
#define OFP_FLOW_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "match.h"
#include "ofp-errors.h"
#include "ofp-protocol.h"
#include "openflow.h"

struct ds;
struct ofpact;
struct ofpbuf;
struct ofputil_port_map;

/* Flow flags, the same bits as OpenFlow 1.3's. */
enum ofputil_flow_mod_flags {
    OFPUTIL_FF_SEND_FLOW_REM = 1 << 0,
    OFPUTIL_FF_CHECK_OVERLAP = 1 << 1,
    OFPUTIL_FF_RESET_COUNTS = 1 << 2,
    OFPUTIL_FF_NO_PKT_COUNTS = 1 << 3,
    OFPUTIL_FF_NO_BYT_COUNTS = 1 << 4,
};

struct ofputil_flow_mod {
    struct match match;
    int priority;
    ovs_be64 cookie;            /* Which flows (with COOKIE_MASK). */
    ovs_be64 cookie_mask;
    ovs_be64 new_cookie;        /* OVS_BE64_MAX: leave the cookie. */
    uint8_t table_id;           /* OFPTT_ALL (255): every table / any. */
    uint16_t command;           /* OFPFC_*. */
    uint16_t idle_timeout;
    uint16_t hard_timeout;
    uint32_t buffer_id;         /* UINT32_MAX: none. */
    uint32_t out_port;          /* OFPP_NONE: any. */
    uint32_t out_group;         /* UINT32_MAX (OFPG_ANY): any. */
    uint16_t flags;             /* OFPUTIL_FF_*. */
    uint16_t importance;        /* 1.4+. */
    const struct ofpact *ofpacts;
    size_t ofpacts_len;
};

/* Decodes OH, a flow_mod of any raw form; its actions are appended to
 * OFPACTS. */
enum ofperr ofputil_decode_flow_mod(struct ofputil_flow_mod *,
                                    const struct ofp_header *oh,
                                    struct ofpbuf *ofpacts);
/* Encodes FM for PROTOCOL (which must be able to express it: the match in
 * 1.0's fixed format for OFPUTIL_P_OF10_STD*, the actions in the version).
 * OFPUTIL_P_OF11_STD is not supported; NXT_FLOW_MOD is written in 1.0
 * only (the decoder also reads it in later versions, with that version's
 * instructions). */
struct ofpbuf *ofputil_encode_flow_mod(const struct ofputil_flow_mod *,
                                       enum ofputil_protocol);
/* The message body as 3.1 prints it (without "OFPT_FLOW_MOD (xid=..):"). */
void ofputil_flow_mod_format(const struct ofputil_flow_mod *,
                             enum ofp_version,
                             const struct ofputil_port_map *, struct ds *);

#endif /* ofp-flow.h */
