/* ofp-parse: flows in ovs-ofctl's text syntax.
 *
 * "priority=10,tcp,in_port=1,nw_src=10.0.0.0/8,tp_dst=80,actions=output:2"
 * becomes a struct ofputil_flow_mod, as ovs-ofctl 3.1 reads it for
 * add-flow (command OFPFC_ADD), mod-flows (OFPFC_MODIFY[_STRICT]) and
 * del-flows (OFPFC_DELETE[_STRICT]):
 *
 *   - keywords: table, priority, cookie (VALUE, or VALUE/MASK to select
 *     flows outside additions), idle_timeout, hard_timeout, importance,
 *     out_port and out_group (deletions and modifications), the flags
 *     send_flow_rem, check_overlap, reset_counts, no_packet_counts,
 *     no_byte_counts, and actions= (everything after it; required except
 *     for deletions);
 *   - the shorthands ip, ipv6, icmp, icmp6, tcp, tcp6, udp, udp6, sctp,
 *     sctp6, arp, rarp;
 *   - any field of ofp-fields.h by name, NAME=VALUE[/MASK];
 *   - fields whose prerequisites the flow does not establish are dropped
 *     (ofputil_normalize_match()), as 3.1 drops them when it encodes.
 *
 * Errors are malloc'd strings worded as 3.1 words them; on error FM and
 * OFPACTS hold nothing the caller may use.  The actions are appended to
 * OFPACTS and FM->ofpacts points into it.
 *
 * Threads: pure functions. */
#ifndef OFP_PARSE_H
#define OFP_PARSE_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ofp-protocol.h"
#include "text-parse.h"
#include "util.h"

struct match;
struct ofpact;
struct ofpbuf;
struct ofputil_flow_mod;
struct ofputil_port_map;

/* Cuts S, the writable text of a flow or packet-out, where its actions
 * start: everything after "actions=" (3.1 looks for "action" and the next
 * '=') is actions, and *ACTIONS points there (NULL if S names none).
 * Returns false if S has "action" without '='. */
bool ofputil_split_actions(char *s, char **actions);

char *parse_ofp_flow_mod_str(struct ofputil_flow_mod *, const char *string,
                             const struct ofputil_port_map *,
                             uint16_t command, struct ofpbuf *ofpacts)
    OVS_WARN_UNUSED_RESULT;

/* The match of STRING, a flow in ovs-ofctl's syntax without actions,
 * whether or not some protocol could carry it in a flow_mod (ofproto/trace
 * takes tun_ttl or tun_tos, which no match can say). */
char *parse_ofp_match_str(struct match *, const char *string,
                          const struct ofputil_port_map *)
    OVS_WARN_UNUSED_RESULT;

/* The command word a line of an add-flows or bundle file may start with:
 * "add", "delete", "delete_strict", "modify" or "modify_strict", or any
 * prefix of one (the first that fits, in that order).  Returns its
 * OFPFC_* command and advances *SP past it, or returns OFPFC_ADD and
 * leaves *SP at the flow if there is none. */
uint16_t parse_ofp_flow_mod_command(const char **sp);

/* The same, also storing in *USABLE_PROTOCOLS the protocols that can
 * express the flow, as "ovs-ofctl parse-flow" prints them and add-flow
 * uses them to pick a flow format (OFPUTIL_P_NONE on error).  TABLE_MAP
 * (may be NULL) names tables (table=, resubmit, goto_table, ...). */
struct ofputil_table_map;
char *parse_ofp_flow_mod_str_protocols(struct ofputil_flow_mod *,
                                       const char *string,
                                       const struct ofputil_port_map *,
                                       const struct ofputil_table_map *,
                                       uint16_t command,
                                       struct ofpbuf *ofpacts,
                                       enum ofputil_protocol *usable)
    OVS_WARN_UNUSED_RESULT;

/* Usable protocols: which of OpenFlow 1.0's fixed match, NXM and OXM
 * (and which versions) can express a flow, as 3.1 computes them to pick
 * the flow format ("usable protocols: NXM,OXM" in parse-flow).
 *
 * ofputil_usable_protocols() looks at MATCH alone: every protocol when
 * 1.0's fixed match says it exactly, else NXM and OXM (only NXM when it
 * needs something OXM lacks).  ofputil_flow_mod_usable_protocols() adds
 * the rest of a flow_mod: a table other than 255 needs table ids, a cookie
 * mask NXM or 1.1+, out_group 1.1+, reset_counts 1.1+, the no-counts
 * flags 1.3+, importance 1.4+, and each action's versions. */
enum ofputil_protocol ofputil_usable_protocols(const struct match *);
/* What actions alone allow (a packet_out's, or a flow's before its match
 * is considered): the versions that can encode each action, and for a
 * set_field the protocols that can match its field ("set_field:1->reg0"
 * needs NXM or OXM even where Nicira's load could carry it). */
enum ofputil_protocol ofputil_actions_usable_protocols(const struct ofpact *,
                                                       size_t len);
enum ofputil_protocol ofputil_flow_mod_usable_protocols(
    const struct ofputil_flow_mod *);

/* Parses SPEC, the part of "ovs-ofctl monitor ... watch:SPEC" after the
 * colon, into RQ with 3.1's syntax and errors (each call takes the next
 * monitor id, from 0), and sets *USABLE to the protocols that can carry
 * its match.  Returns NULL or a malloc'd error. */
struct ofputil_flow_monitor_request;
char *parse_flow_monitor_request(struct ofputil_flow_monitor_request *,
                                 const char *spec,
                                 const struct ofputil_port_map *,
                                 const struct ofputil_table_map *,
                                 enum ofputil_protocol *usable)
    OVS_WARN_UNUSED_RESULT;

#endif /* ofp-parse.h */
