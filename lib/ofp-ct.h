/* ofp-ct: connection tracking flush requests, decoded.
 *
 * NXT_CT_FLUSH_ZONE flushes one zone; NXT_CT_FLUSH flushes the
 * connections a match selects: an IP protocol and, as properties, an
 * original and a reply tuple (addresses, ports or ICMP id, type and code,
 * each only when set) and a zone.  struct ofputil_ct_match is that match;
 * its addresses are IPv6, IPv4 ones mapped (::ffff:a.b.c.d), and L3_TYPE
 * says which family the tuples named (0: no address).
 *
 * Text, as Open vSwitch 3.1 writes and reads it ("ovs-ofctl ct-flush"):
 * a tuple is "ct_nw_src=10.1.1.1,ct_nw_dst=10.1.1.2,ct_nw_proto=17,
 * ct_tp_src=1" (ct_ipv6_src/dst for IPv6; icmp_id, icmp_type, icmp_code
 * for ICMP); a match prints as "'ORIG,ct_nw_proto=P' 'REPLY'".
 *
 * Memory: encoders return a new message the caller owns; parse errors are
 * malloc'd strings.  Threads: pure functions. */
#ifndef OFP_CT_H
#define OFP_CT_H 1

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include "ofp-errors.h"
#include "openflow.h"
#include "util.h"

struct ds;
struct ofpbuf;

struct ofputil_ct_tuple {
    struct in6_addr src;
    struct in6_addr dst;
    union {
        ovs_be16 src_port;
        ovs_be16 icmp_id;       /* ICMP and ICMPv6. */
    };
    union {
        ovs_be16 dst_port;
        struct {
            uint8_t icmp_code;
            uint8_t icmp_type;
        };
    };
};

struct ofputil_ct_match {
    uint8_t ip_proto;
    uint16_t l3_type;           /* AF_INET, AF_INET6, or 0. */
    struct ofputil_ct_tuple orig;
    struct ofputil_ct_tuple reply;
};

bool ofputil_ct_match_is_zero(const struct ofputil_ct_match *);
void ofputil_ct_match_format(struct ds *, const struct ofputil_ct_match *);

/* Parses S, a tuple in ovs-ofctl's text, into *TUPLE, setting *IP_PROTO and
 * *L3_TYPE (shared by a match's two tuples) as it goes.  Returns NULL or
 * the error as 3.1 words it ("invalid conntrack tuple field: x", "failed
 * to parse field ct_nw_src", ...). */
char *ofputil_ct_tuple_parse(struct ofputil_ct_tuple *, const char *s,
                             uint8_t *ip_proto, uint16_t *l3_type)
    OVS_WARN_UNUSED_RESULT;

/* NXT_CT_FLUSH.  ZONE NULL: no zone property (zone 0, or every zone for
 * a match that selects nothing). */
struct ofpbuf *ofputil_encode_ct_flush(const struct ofputil_ct_match *,
                                       const uint16_t *zone,
                                       enum ofp_version);
/* Decodes OH into *MATCH, *ZONE (0 if absent) and *WITH_ZONE.  Unknown
 * properties are skipped, as 3.1 does; errors: NXBRC_MUST_BE_ZERO for
 * nonzero padding, OFPBPC_BAD_LEN for a property too short for its
 * value, OFPBPC_BAD_VALUE for tuples of both families. */
enum ofperr ofputil_decode_ct_flush(const struct ofp_header *oh,
                                    struct ofputil_ct_match *,
                                    bool *with_zone, uint16_t *zone);

/* NXT_CT_FLUSH_ZONE.  Decoding refuses nonzero padding
 * (NXBRC_MUST_BE_ZERO). */
struct ofpbuf *ofputil_encode_ct_flush_zone(uint16_t zone,
                                            enum ofp_version);
enum ofperr ofputil_decode_ct_flush_zone(const struct ofp_header *oh,
                                         uint16_t *zone);

#endif /* ofp-ct.h */
