/* conntrack-key: from a packet to the key of its connection.
 *
 * Reads the IPv4 or IPv6 header at the packet's l3 offset, walks IPv6
 * extension headers, verifies the IPv4 header checksum and the L4
 * checksum (a packet that fails is not tracked: the tracker would
 * otherwise commit state for bytes the receiver will drop), and builds a
 * struct ct_key.  An ICMP or ICMPv6 error yields the key of the packet it
 * quotes, reversed: that is the direction the error travels in, so the
 * lookup finds the quoted packet's connection and tells which side the
 * error goes to.  Pure functions over the caller's packet. */
#include <config.h>
#include "conntrack-private.h"

#include <arpa/inet.h>
#include <string.h>
#include <sys/socket.h>
#include "csum.h"
#include "dp-packet.h"
#include "packets.h"

/* ICMP types (RFC 792 and friends). */
enum {
    ICMP4_DST_UNREACH = 3, ICMP4_SOURCE_QUENCH = 4, ICMP4_REDIRECT = 5,
    ICMP4_TIME_EXCEEDED = 11, ICMP4_PARAM_PROB = 12,
    ICMP4_TIMESTAMP = 13, ICMP4_TIMESTAMP_REPLY = 14,
    ICMP4_INFO_REQUEST = 15, ICMP4_INFO_REPLY = 16,
};
/* ICMPv6 types (RFC 4443). */
enum {
    ICMP6_DST_UNREACH = 1, ICMP6_PACKET_TOO_BIG = 2, ICMP6_TIME_EXCEEDED = 3,
    ICMP6_PARAM_PROB = 4, ICMP6_ECHO_REQUEST = 128, ICMP6_ECHO_REPLY = 129,
};

/* The type answering TYPE, or -1 if TYPE asks nothing. */
static int
icmp_reverse_type(bool ipv6, uint8_t type)
{
    if (ipv6) {
        switch (type) {
        case ICMP6_ECHO_REQUEST: return ICMP6_ECHO_REPLY;
        case ICMP6_ECHO_REPLY: return ICMP6_ECHO_REQUEST;
        default: return -1;
        }
    }
    switch (type) {
    case ICMP4_ECHO_REQUEST: return ICMP4_ECHO_REPLY;
    case ICMP4_ECHO_REPLY: return ICMP4_ECHO_REQUEST;
    case ICMP4_TIMESTAMP: return ICMP4_TIMESTAMP_REPLY;
    case ICMP4_TIMESTAMP_REPLY: return ICMP4_TIMESTAMP;
    case ICMP4_INFO_REQUEST: return ICMP4_INFO_REPLY;
    case ICMP4_INFO_REPLY: return ICMP4_INFO_REQUEST;
    default: return -1;
    }
}

bool
ct_icmp_type_has_reply(bool ipv6, uint8_t type)
{
    return icmp_reverse_type(ipv6, type) >= 0;
}

static bool
icmp_is_error(bool ipv6, uint8_t type)
{
    if (ipv6) {
        return type >= ICMP6_DST_UNREACH && type <= ICMP6_PARAM_PROB;
    }
    return (type == ICMP4_DST_UNREACH || type == ICMP4_SOURCE_QUENCH
            || type == ICMP4_REDIRECT || type == ICMP4_TIME_EXCEEDED
            || type == ICMP4_PARAM_PROB);
}

void
ct_key_reverse(const struct ct_key *in, struct ct_key *out)
{
    struct ct_key k = *in;
    k.src = in->dst;
    k.dst = in->src;
    k.src_port = in->dst_port;
    k.dst_port = in->src_port;
    if (in->nw_proto == (in->is_ipv6 ? IPPROTO_ICMPV6 : IPPROTO_ICMP)) {
        int rev = icmp_reverse_type(in->is_ipv6, in->icmp_type);
        if (rev >= 0) {
            k.icmp_type = rev;
        }
    }
    *out = k;
}

static bool
is_icmp_proto(uint8_t proto, bool ipv6)
{
    return proto == (ipv6 ? IPPROTO_ICMPV6 : IPPROTO_ICMP);
}

void
ct_key_to_tuple(const struct ct_key *key, struct ct_tuple *t)
{
    memset(t, 0, sizeof *t);
    t->l3_type = key->is_ipv6 ? AF_INET6 : AF_INET;
    t->ip_proto = key->nw_proto;
    t->src = key->src;
    t->dst = key->dst;
    if (is_icmp_proto(key->nw_proto, key->is_ipv6)) {
        t->icmp_id = key->src_port;
        t->icmp_type = key->icmp_type;
        t->icmp_code = key->icmp_code;
    } else {
        t->src_port = key->src_port;
        t->dst_port = key->dst_port;
    }
}

void
ct_tuple_to_key(const struct ct_tuple *t, uint16_t zone, struct ct_key *key)
{
    memset(key, 0, sizeof *key);
    key->is_ipv6 = t->l3_type == AF_INET6;
    key->nw_proto = t->ip_proto;
    key->zone = zone;
    if (key->is_ipv6) {
        key->src.ipv6 = t->src.ipv6;
        key->dst.ipv6 = t->dst.ipv6;
    } else {
        key->src.ipv4 = t->src.ipv4;
        key->dst.ipv4 = t->dst.ipv4;
    }
    if (is_icmp_proto(t->ip_proto, key->is_ipv6)) {
        key->src_port = key->dst_port = t->icmp_id;
        key->icmp_type = t->icmp_type;
        key->icmp_code = t->icmp_code;
    } else {
        key->src_port = t->src_port;
        key->dst_port = t->dst_port;
    }
}

/* The L3 header at L3 (L3_SIZE bytes available): fills KEY's addresses
 * and protocol, *L4 and *L4_LEN.  CHECK_CSUM: verify the IPv4 header
 * checksum.  QUOTED: the header is inside an ICMP error, whose quoted
 * packet may be cut short, so its length fields are not held against the
 * bytes present. */
static bool
parse_l3(const uint8_t *l3, size_t l3_size, bool ipv6, bool quoted,
         struct ct_key *key, const uint8_t **l4, size_t *l4_len,
         size_t *l3_len)
{
    if (!ipv6) {
        if (l3_size < IP_HEADER_LEN) {
            return false;
        }
        const struct ip_header *ip = (const struct ip_header *) l3;
        size_t hlen = IP_IHL(ip->ip_ihl_ver) * 4;
        size_t tot = ntohs(ip->ip_tot_len);
        if (IP_VERSION(ip->ip_ihl_ver) != 4 || hlen < IP_HEADER_LEN
            || hlen > l3_size) {
            return false;
        }
        if (!quoted) {
            if (tot < hlen || tot > l3_size) {
                return false;
            }
            if (csum(ip, hlen) != 0) {
                return false;
            }
        } else {
            tot = MIN(MAX(tot, hlen), l3_size);
        }
        /* Fragments are not reassembled here: untrackable. */
        if (ntohs(ip->ip_frag_off) & (IP_MORE_FRAGMENTS | IP_FRAG_OFF_MASK)) {
            return false;
        }
        key->is_ipv6 = false;
        memcpy(&key->src.ipv4, &ip->ip_src, 4);
        memcpy(&key->dst.ipv4, &ip->ip_dst, 4);
        key->nw_proto = ip->ip_proto;
        *l4 = l3 + hlen;
        *l4_len = tot - hlen;
        *l3_len = tot;
        return true;
    }

    if (l3_size < IPV6_HEADER_LEN) {
        return false;
    }
    const struct ipv6_header *ip6 = (const struct ipv6_header *) l3;
    if ((ntohl(ip6->ip6_vtc_flow) >> 28) != 6) {
        return false;
    }
    size_t tot = IPV6_HEADER_LEN + ntohs(ip6->ip6_plen);
    if (!quoted && tot > l3_size) {
        return false;
    }
    tot = MIN(tot, l3_size);
    key->is_ipv6 = true;
    memcpy(&key->src.ipv6, &ip6->ip6_src, 16);
    memcpy(&key->dst.ipv6, &ip6->ip6_dst, 16);

    uint8_t nxt = ip6->ip6_nxt;
    size_t ofs = IPV6_HEADER_LEN;
    for (;;) {
        if (nxt == IPPROTO_HOPOPTS_ || nxt == IPPROTO_ROUTING_
            || nxt == IPPROTO_DSTOPTS_ || nxt == IPPROTO_AH_) {
            if (ofs + 2 > tot) {
                return false;
            }
            const struct ipv6_ext_header *e
                = (const struct ipv6_ext_header *) (l3 + ofs);
            size_t len = (nxt == IPPROTO_AH_ ? (e->ip6e_len + 2) * 4
                          : (e->ip6e_len + 1) * 8);
            nxt = e->ip6e_nxt;
            ofs += len;
            if (ofs > tot) {
                return false;
            }
        } else if (nxt == IPPROTO_FRAGMENT_) {
            return false;
        } else {
            break;
        }
    }
    key->nw_proto = nxt;
    *l4 = l3 + ofs;
    *l4_len = tot - ofs;
    *l3_len = tot;
    return true;
}

static uint32_t
pseudo_sum(const struct ct_key *key, size_t l4_len)
{
    return (key->is_ipv6
            ? csum_pseudo_ipv6(&key->src.ipv6, &key->dst.ipv6,
                               key->nw_proto, l4_len)
            : csum_pseudo_ipv4(key->src.ipv4, key->dst.ipv4, key->nw_proto,
                               l4_len));
}

/* The ports of the TCP or UDP header at L4 into KEY.  A quoted header
 * need only have its first 8 bytes.  Other protocols (SCTP included, as
 * in 3.1) are tracked by addresses alone. */
static bool
parse_l4_ports(const uint8_t *l4, size_t l4_len, struct ct_key *key,
               bool quoted)
{
    switch (key->nw_proto) {
    case IPPROTO_TCP:
    case IPPROTO_UDP:
        if (l4_len < (quoted ? 8 : key->nw_proto == IPPROTO_TCP
                      ? TCP_HEADER_LEN : UDP_HEADER_LEN)) {
            return false;
        }
        memcpy(&key->src_port, l4, 2);
        memcpy(&key->dst_port, l4 + 2, 2);
        return true;
    default:
        return true;
    }
}

static bool
icmp_echo_key(const uint8_t *l4, size_t l4_len, struct ct_key *key)
{
    const struct icmp_header *icmp = (const struct icmp_header *) l4;
    if (l4_len < ICMP_HEADER_LEN
        || !ct_icmp_type_has_reply(key->is_ipv6, icmp->icmp_type)
        || icmp->icmp_code != 0) {
        return false;
    }
    memcpy(&key->src_port, l4 + 4, 2);      /* Identifier. */
    key->dst_port = key->src_port;
    key->icmp_type = icmp->icmp_type;
    key->icmp_code = icmp->icmp_code;
    return true;
}

bool
ct_extract_key(const struct dp_packet *pkt, uint16_t dl_type, uint16_t zone,
               struct ct_pkt_info *info)
{
    memset(info, 0, sizeof *info);
    struct ct_key *key = &info->key;
    key->zone = zone;

    bool ipv6;
    if (dl_type == ETH_TYPE_IP) {
        ipv6 = false;
    } else if (dl_type == ETH_TYPE_IPV6) {
        ipv6 = true;
    } else {
        return false;
    }
    const uint8_t *l3 = dp_packet_l3(pkt);
    if (!l3) {
        return false;
    }
    const uint8_t *l4;
    size_t l4_len;
    if (!parse_l3(l3, dp_packet_l3_size(pkt), ipv6, false, key, &l4, &l4_len,
                  &info->l3_len)) {
        return false;
    }
    const uint8_t *data = dp_packet_data(pkt);
    info->l4_ofs = l4 - data;
    info->l4_len = l4_len;

    switch (key->nw_proto) {
    case IPPROTO_TCP: {
        if (l4_len < TCP_HEADER_LEN) {
            return false;
        }
        const struct tcp_header *tcp = (const struct tcp_header *) l4;
        uint16_t ctl = ntohs(tcp->tcp_ctl);
        size_t hlen = TCP_OFFSET(ctl) * 4;
        if (hlen < TCP_HEADER_LEN || hlen > l4_len
            || csum_finish(csum_continue(pseudo_sum(key, l4_len), l4,
                                         l4_len)) != 0) {
            return false;
        }
        info->tcp_flags = ctl & TCP_FLAGS_MASK;
        info->l4_payload_len = l4_len - hlen;
        return parse_l4_ports(l4, l4_len, key, false);
    }
    case IPPROTO_UDP: {
        if (l4_len < UDP_HEADER_LEN) {
            return false;
        }
        const struct udp_header *udp = (const struct udp_header *) l4;
        /* A zero checksum means "none" for IPv4 only (RFC 8200 8.1). */
        if ((udp->udp_csum || ipv6)
            && csum_finish(csum_continue(pseudo_sum(key, l4_len), l4,
                                         l4_len)) != 0) {
            return false;
        }
        return parse_l4_ports(l4, l4_len, key, false);
    }
    case IPPROTO_ICMP:
    case IPPROTO_ICMPV6: {
        if (key->nw_proto != (ipv6 ? IPPROTO_ICMPV6 : IPPROTO_ICMP)
            || l4_len < ICMP_HEADER_LEN) {
            return false;
        }
        uint32_t sum = ipv6 ? pseudo_sum(key, l4_len) : 0;
        if (csum_finish(csum_continue(sum, l4, l4_len)) != 0) {
            return false;
        }
        uint8_t type = l4[0];
        if (!icmp_is_error(ipv6, type)) {
            return icmp_echo_key(l4, l4_len, key);
        }

        /* An error: the quoted packet, which went the other way. */
        struct ct_key inner;
        const uint8_t *inner_l4;
        size_t inner_l4_len, inner_l3_len;
        memset(&inner, 0, sizeof inner);
        inner.zone = zone;
        if (!parse_l3(l4 + ICMP_HEADER_LEN, l4_len - ICMP_HEADER_LEN, ipv6,
                      true, &inner, &inner_l4, &inner_l4_len, &inner_l3_len)) {
            return false;
        }
        /* The quoted packet was sent to the error's source or through
         * it, by the error's destination. */
        if (ipv6 ? memcmp(&inner.src.ipv6, &key->dst.ipv6, 16)
                 : inner.src.ipv4 != key->dst.ipv4) {
            return false;
        }
        if (is_icmp_proto(inner.nw_proto, ipv6)) {
            if (!icmp_echo_key(inner_l4, inner_l4_len, &inner)) {
                return false;       /* No error about an error. */
            }
        } else if (!parse_l4_ports(inner_l4, inner_l4_len, &inner, true)) {
            return false;
        }
        ct_key_reverse(&inner, key);
        info->icmp_error = true;
        info->inner_l3_ofs = l4 + ICMP_HEADER_LEN - data;
        info->inner_l4_ofs = inner_l4 - data;
        info->inner_l4_len = inner_l4_len;
        info->inner_proto = inner.nw_proto;
        return true;
    }
    default:
        return parse_l4_ports(l4, l4_len, key, false);
    }
}
