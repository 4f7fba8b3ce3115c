/* ofp-match: OpenFlow 1.0's fixed match, 1.1's standard match and
 * struct match.
 *
 * OpenFlow 1.0 flow mods, flow statistics requests and replies and
 * flow-removed messages carry struct ofp10_match: fixed fields and a
 * wildcard bitmap, with CIDR prefixes for the IPv4 addresses.  These
 * functions convert it to and from struct match, the way Open vSwitch 3.1
 * does (so that a 1.0 flow prints as 3.1 prints it):
 *
 *   - dl_vlan OFP_VLAN_NONE (0xffff) means "no VLAN header" (and makes
 *     dl_vlan_pcp meaningless); another dl_vlan matches a present tag's
 *     VID; dl_vlan_pcp matches a present tag's priority;
 *   - nw_tos matches the DSCP bits only;
 *   - the IPv4 wildcard counts (0..63) become prefix masks, 32 and up
 *     wildcard the address;
 *   - fields whose prerequisites the match does not establish (nw_src
 *     without an IP or ARP dl_type, tp_src without TCP/UDP/SCTP/ICMP) are
 *     dropped by ofputil_normalize_match(), which the message decoders and
 *     the flow parser call (conversion alone keeps them, as 3.1's does).
 *
 * A match that 1.0 cannot express (a register, a non-CIDR address mask, a
 * partial mask elsewhere) is narrowed by ofputil_match_to_ofp10_match() to
 * what 1.0 can say; ofputil_match_is_ofp10() tells whether it is exact.
 *
 * Threads: pure functions. */
#ifndef OFP_MATCH_H
#define OFP_MATCH_H 1

#include <stdbool.h>
#include "ofp-errors.h"
#include "openflow.h"

struct match;
struct ofpbuf;

void ofputil_match_from_ofp10_match(const struct ofp10_match *,
                                    struct match *);
void ofputil_match_to_ofp10_match(const struct match *,
                                  struct ofp10_match *);
/* Every field of 1.0's and 1.1's matches but in_port needs an Ethernet
 * frame: makes MATCH match Ethernet packets if it matches any of them (as
 * the same match in NXM or OXM would, see match.h).  The conversions from
 * 1.0 and 1.1 call it, on what the message matches. */
void ofputil_match_set_ethernet_if_needed(struct match *);
/* Whether MATCH converts to OpenFlow 1.0 and back unchanged. */
bool ofputil_match_is_ofp10(const struct match *);
/* Wildcards the fields MATCH's prerequisites do not allow: IPv4
 * addresses without an IPv4 or ARP dl_type, IP fields (proto, TOS, TTL,
 * fragments) without IPv4 or IPv6, IPv6 addresses and label without IPv6,
 * transport ports without TCP, UDP, SCTP or ICMP(v6).  Logs what changed
 * (INFO, "normalization changed ofp_match", rate-limited) as 3.1 does;
 * the _quiet form does not. */
void ofputil_normalize_match(struct match *);
void ofputil_normalize_match_quiet(struct match *);

/* OpenFlow 1.1's standard match (struct ofp11_match), as 3.1 reads and
 * writes it: masks on the Ethernet and IPv4 addresses and the metadata
 * with 1-bits meaning "ignore"; dl_vlan OFPVID11_NONE for no VLAN and
 * OFPVID11_ANY for any; nw_tos the DSCP bits (others set:
 * OFPBMC_BAD_VALUE); the transport ports only for TCP, UDP, SCTP (and the
 * ICMP type and code) over IPv4; no MPLS.  An in_port 1.0 cannot number
 * is OFPBMC_BAD_VALUE. */
enum ofperr ofputil_match_from_ofp11_match(const struct ofp11_match *,
                                           struct match *);
void ofputil_match_to_ofp11_match(const struct match *,
                                  struct ofp11_match *);
/* Pulls a standard match or an OXM match off B, as its type says
 * (OFPBMC_BAD_TYPE otherwise; OFPBMC_BAD_LEN if it does not fit). */
enum ofperr ofputil_pull_ofp11_match(struct ofpbuf *b, struct match *);

#endif /* ofp-match.h */
