/* ofp-flow: flow_mod, flow statistics, aggregate statistics and
 * flow_removed messages, decoded.
 *
 * struct ofputil_flow_mod is one flow table modification in the form the
 * switch consumes, whatever version and flow format it came in: OpenFlow
 * 1.0's OFPT_FLOW_MOD (fixed match, table id in the command's high byte
 * when NXT_FLOW_MOD_TABLE_ID is on), Nicira's NXT_FLOW_MOD (NXM match,
 * which may also match the cookie) and OpenFlow 1.2-1.5's OFPT_FLOW_MOD
 * (OXM match, instructions; 1.1's with its standard match).
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
 * Flow statistics.  A request (struct ofputil_flow_stats_request) is
 * OpenFlow 1.0's OFPST_FLOW / OFPST_AGGREGATE (fixed match), Nicira's
 * NXST_FLOW / NXST_AGGREGATE (NXM match, may match the cookie) or 1.1+'s
 * OFPMP_FLOW / OFPMP_AGGREGATE (OXM in 1.2+).  A reply is a multipart
 * list of entries: ofputil_append_flow_stats_reply() adds one entry to a
 * list started with ofpmp_init(), splitting into parts as ofp-msgs does;
 * ofputil_decode_flow_stats_reply() takes one entry at a time off a
 * reply (call it until it returns EOF).  ofputil_flow_stats_format()
 * prints one line of "ovs-ofctl dump-flows".
 *
 * flow_removed: OpenFlow 1.0's, Nicira's NXT_FLOW_REMOVED (NXM), and
 * 1.2-1.4's (OXM) and 1.5's (OXM and OXS statistics).  Flow stats
 * entries in 1.5 carry OXS statistics too.  OpenFlow 1.1 uses its
 * standard match (3.1's switch answers flow stats with an OXM match in
 * 1.1, which decoding also takes).  1.5's aggregate reply is not
 * supported.
 *
 * The *_print() functions decode a whole message and append what 3.1's
 * ofp-print writes after the header line ("OFPT_... (xid=0x1):"), without
 * the final newline, or return the decoding error and append nothing
 * useful; they are the per-type printers for lib/ofp-print.
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
struct ofputil_table_map;
struct ovs_list;

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
    /* The cookie of a flow this adds: an add's, or, for a modify that
     * selects nothing, the flow it then adds (OVS_BE64_MAX: none). */
    ovs_be64 new_cookie;
    /* A modify also gives the flows it selects NEW_COOKIE: 1.0 and NXM
     * modifies whose cookie field is not all-ones (in 1.1+ it never
     * changes), as 3.1 decodes them. */
    bool modify_cookie;
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
 * NXT_FLOW_MOD is written in 1.0
 * only (the decoder also reads it in later versions, with that version's
 * instructions). */
struct ofpbuf *ofputil_encode_flow_mod(const struct ofputil_flow_mod *,
                                       enum ofputil_protocol);
/* The message body as 3.1 prints it (without "OFPT_FLOW_MOD (xid=..):"). */
void ofputil_flow_mod_format(const struct ofputil_flow_mod *,
                             enum ofp_version,
                             const struct ofputil_port_map *, struct ds *);

/* "1.234s" as 3.1 prints durations: whole seconds alone, milliseconds as
 * three decimals, anything finer with as many decimals as needed. */
void ofputil_format_duration(struct ds *, uint32_t sec, uint32_t nsec);
/* "send_flow_rem check_overlap " (OFPUTIL_FF_* names, each followed by a
 * space), as dump-flows prints a flow's flags. */
void ofputil_format_flow_flags(struct ds *, uint16_t flags);

/* One flow_mod message as "ovs-ofctl ofp-print" prints it, after the
 * header line: decodes OH and prints, or returns the decoding error.  At
 * VERBOSITY 3 and up an NXT_FLOW_MOD's match is printed as its NXM
 * entries ("NXM_OF_ETH_TYPE(0800), ...") and the priority as "pri:N", as
 * 3.1 does. */
enum ofperr ofputil_flow_mod_print(struct ds *, const struct ofp_header *oh,
                                   const struct ofputil_port_map *,
                                   int verbosity);

/* Flow and aggregate statistics requests. */
struct ofputil_flow_stats_request {
    bool aggregate;             /* Aggregate request, not per flow. */
    struct match match;
    ovs_be64 cookie;
    ovs_be64 cookie_mask;
    uint32_t out_port;          /* OFPP_ANY (OFPP_NONE): any. */
    uint32_t out_group;         /* OFPG_ANY: any. */
    uint8_t table_id;           /* OFPTT_ALL: every table. */
};

/* Decodes OH, any raw form of a flow or aggregate stats request. */
enum ofperr ofputil_decode_flow_stats_request(
    struct ofputil_flow_stats_request *, const struct ofp_header *oh);
/* Encodes FSR for PROTOCOL: 1.0's OFPST_* for OFPUTIL_P_OF10_STD*, NXST_*
 * for NXM, OFPMP_* for 1.1+ (1.1 with its standard match). */
struct ofpbuf *ofputil_encode_flow_stats_request(
    const struct ofputil_flow_stats_request *, enum ofputil_protocol);
/* " table=1 out_port=2 in_port=1" as 3.1 prints a request body. */
void ofputil_flow_stats_request_format(
    struct ds *, const struct ofputil_flow_stats_request *,
    const struct ofputil_port_map *, const struct ofputil_table_map *);
enum ofperr ofputil_flow_stats_request_print(
    struct ds *, const struct ofp_header *oh,
    const struct ofputil_port_map *, const struct ofputil_table_map *);

/* One flow in a flow stats reply. */
struct ofputil_flow_stats {
    struct match match;
    ovs_be64 cookie;
    uint8_t table_id;
    uint16_t priority;
    uint16_t idle_timeout;
    uint16_t hard_timeout;
    uint32_t duration_sec;
    uint32_t duration_nsec;
    int idle_age;               /* Seconds since last hit; -1 unknown. */
    int hard_age;               /* Seconds since last change; -1 unknown. */
    uint64_t packet_count;      /* UINT64_MAX: unknown. */
    uint64_t byte_count;        /* UINT64_MAX: unknown. */
    const struct ofpact *ofpacts;
    size_t ofpacts_len;
    uint16_t flags;             /* OFPUTIL_FF_*, reported in 1.3+. */
    uint16_t importance;        /* 1.4+. */
};

/* Pulls one entry off MSG, a flow stats reply: the first call on a fresh
 * ofpbuf (MSG->header NULL, MSG->data at the message) pulls the headers
 * too.  Returns 0 with FS filled (its actions appended to OFPACTS, which
 * the caller clears between calls), EOF when no entries remain, or an
 * OpenFlow error for a malformed entry (OFPBRC_BAD_LEN).  Matches are
 * decoded loosely (a switch may report fields we do not know). */
int ofputil_decode_flow_stats_reply(struct ofputil_flow_stats *,
                                    struct ofpbuf *msg,
                                    bool flow_age_extension,
                                    struct ofpbuf *ofpacts);
/* Appends FS to REPLIES (see ofpmp_init()), in the reply's raw form. */
void ofputil_append_flow_stats_reply(const struct ofputil_flow_stats *,
                                     struct ovs_list *replies);
/* One line of "ovs-ofctl dump-flows", without the newline:
 * " cookie=0x0, duration=1.234s, table=0, n_packets=0, n_bytes=0,
 * idle_timeout=5, priority=7,in_port=1 actions=drop".  SHOW_STATS false
 * is --no-stats (" priority=7,in_port=1 actions=drop"). */
void ofputil_flow_stats_format(struct ds *, const struct ofputil_flow_stats *,
                               const struct ofputil_port_map *,
                               const struct ofputil_table_map *,
                               bool show_stats);
/* A whole flow stats reply as ofp-print prints its body: one "\n" plus
 * formatted line per entry. */
enum ofperr ofputil_flow_stats_reply_print(
    struct ds *, const struct ofp_header *oh,
    const struct ofputil_port_map *, const struct ofputil_table_map *);

/* Aggregate statistics replies (OFPST_AGGREGATE, NXST_AGGREGATE). */
struct ofputil_aggregate_stats {
    uint64_t packet_count;      /* UINT64_MAX: unknown. */
    uint64_t byte_count;        /* UINT64_MAX: unknown. */
    uint32_t flow_count;
};
struct ofpbuf *ofputil_encode_aggregate_stats_reply(
    const struct ofputil_aggregate_stats *, const struct ofp_header *request);
enum ofperr ofputil_decode_aggregate_stats_reply(
    struct ofputil_aggregate_stats *, const struct ofp_header *reply);
/* " packet_count=1 byte_count=60 flow_count=2". */
void ofputil_aggregate_stats_format(struct ds *,
                                    const struct ofputil_aggregate_stats *);
enum ofperr ofputil_aggregate_stats_reply_print(struct ds *,
                                                const struct ofp_header *);

/* flow_removed. */
struct ofputil_flow_removed {
    struct match match;
    ovs_be64 cookie;
    uint16_t priority;
    uint8_t reason;             /* OFPRR_*. */
    uint8_t table_id;           /* 255 if the message has none (1.0). */
    uint32_t duration_sec;
    uint32_t duration_nsec;
    uint16_t idle_timeout;
    uint16_t hard_timeout;
    uint64_t packet_count;
    uint64_t byte_count;
};
enum ofperr ofputil_decode_flow_removed(struct ofputil_flow_removed *,
                                        const struct ofp_header *oh);
/* Encodes FR for PROTOCOL: 1.0's, NXT_FLOW_REMOVED for NXM, 1.2+'s. */
struct ofpbuf *ofputil_encode_flow_removed(const struct ofputil_flow_removed *,
                                           enum ofputil_protocol);
/* "idle", "hard", "delete", "group_delete", "eviction", "meter_delete";
 * an unknown reason is printed as its number into BUF. */
const char *ofp_flow_removed_reason_to_string(uint8_t reason, char *buf,
                                              size_t bufsize);
/* " priority=7,in_port=1 reason=idle table_id=0 duration1.000s idle5
 * pkts0 bytes0" as ofp-print prints a flow_removed body. */
void ofputil_flow_removed_format(struct ds *,
                                 const struct ofputil_flow_removed *,
                                 const struct ofputil_port_map *,
                                 const struct ofputil_table_map *);
enum ofperr ofputil_flow_removed_print(struct ds *, const struct ofp_header *,
                                       const struct ofputil_port_map *,
                                       const struct ofputil_table_map *);

/* OpenFlow 1.5's statistics (OXS), for the ofp-flow*.c encoders: the
 * duration, idle time, flow, packet and byte counts of a flow stats
 * entry, aggregate reply or flow_removed.  Unknown values: idle_age -1,
 * counts UINT64_MAX (left out when encoding). */
struct ofputil_oxs_stats {
    uint32_t duration_sec;
    uint32_t duration_nsec;
    int idle_age;
    uint32_t flow_count;
    uint64_t packet_count;
    uint64_t byte_count;
};
enum ofputil_oxs_field {
    OFPUTIL_OXS_DURATION = 1 << 0,
    OFPUTIL_OXS_IDLE_TIME = 1 << 1,
    OFPUTIL_OXS_FLOW_COUNT = 1 << 3,
    OFPUTIL_OXS_PACKET_COUNT = 1 << 4,
    OFPUTIL_OXS_BYTE_COUNT = 1 << 5,
};
/* Appends struct ofp_oxs_stat with the FIELDS (OFPUTIL_OXS_*) of STATS,
 * padded to 8 bytes. */
void ofputil_put_oxs_stats(struct ofpbuf *, const struct ofputil_oxs_stats *,
                           unsigned int fields);
/* Pulls one off B (OFPBRC_BAD_LEN if it does not fit). */
enum ofperr ofputil_pull_oxs_stats(struct ofpbuf *b,
                                   struct ofputil_oxs_stats *);

#endif /* ofp-flow.h */
