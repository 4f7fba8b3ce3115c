/* conntrack-nat: choosing NAT translations and rewriting packets.
 *
 * A NATed connection is an ordinary connection whose reply key is not the
 * mirror of its original key: after SNAT of A:a->B:b to X:x the reply key
 * is B:b->X:x, after DNAT to Y:y it is Y:y->A:a.  Choosing the
 * translation is choosing a reply key no other connection uses
 * (conntrack.c tries the candidates from ct_nat_candidate() in order
 * under the table's locks).  Rewriting a packet is then making it look
 * like the mirror of the other direction's key, with incremental checksum
 * updates (RFC 1624): IPv4 header, TCP/UDP (pseudo-header and ports),
 * ICMPv6 (pseudo-header).  An ICMP error related to a NATed connection
 * gets both its quoted packet and its outer addresses translated, and its
 * ICMP checksum recomputed.
 *
 * The port ranges follow 3.1: SNAT without ports keeps the source port if
 * it can, else picks another of its class (1-511, 600-1023, 1024-65535);
 * DNAT keeps the source port and takes the destination port from its
 * range, if one was given.  Pure functions over the caller's data. */
#include <config.h>
#include "conntrack-private.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include "csum.h"
#include "dp-packet.h"
#include "flow.h"
#include "hash.h"
#include "packets.h"

/* Most candidates tried for one connection: the cost of a full range is
 * bounded, at the price of failing in a nearly exhausted one. */
#define NAT_MAX_ATTEMPTS 65536

static bool
is_pat_proto(uint8_t proto)
{
    return proto == IPPROTO_TCP || proto == IPPROTO_UDP;
}

/* Number of addresses in [MIN, MAX], capped at 2**32. */
static uint64_t
addr_range_size(const union ct_addr *min, const union ct_addr *max,
                bool ipv6)
{
    if (!ipv6) {
        uint32_t lo = ntohl(min->ipv4), hi = ntohl(max->ipv4);
        return hi >= lo ? (uint64_t) hi - lo + 1 : 1;
    }
    if (memcmp(min->ipv6.s6_addr, max->ipv6.s6_addr, 12)) {
        return UINT64_C(1) << 32;
    }
    uint32_t lo, hi;
    memcpy(&lo, &min->ipv6.s6_addr[12], 4);
    memcpy(&hi, &max->ipv6.s6_addr[12], 4);
    lo = ntohl(lo);
    hi = ntohl(hi);
    return hi >= lo ? (uint64_t) hi - lo + 1 : 1;
}

/* MIN + N. */
static union ct_addr
addr_add(const union ct_addr *min, uint64_t n, bool ipv6)
{
    union ct_addr r = *min;
    if (!ipv6) {
        r.ipv4 = htonl(ntohl(min->ipv4) + (uint32_t) n);
        return r;
    }
    /* 128-bit add of N, byte by byte from the end. */
    uint64_t carry = n;
    for (int i = 15; i >= 0 && carry; i--) {
        uint64_t sum = r.ipv6.s6_addr[i] + (carry & 0xff);
        r.ipv6.s6_addr[i] = sum & 0xff;
        carry = (carry >> 8) + (sum >> 8);
    }
    return r;
}

static void
sport_class(uint16_t port, uint16_t *min, uint16_t *max)
{
    if (port < 512) {
        *min = 1;
        *max = 511;
    } else if (port < 1024) {
        *min = 600;
        *max = 1023;
    } else {
        *min = 1024;
        *max = 65535;
    }
}

bool
ct_nat_candidate(const struct ct_key *orig, const struct ct_nat_action *nat,
                 uint32_t hash, uint32_t attempt, struct ct_key *reply)
{
    bool ipv6 = orig->is_ipv6;
    bool snat = nat->flags & CT_NAT_SRC;
    bool pat = is_pat_proto(orig->nw_proto);

    ct_key_reverse(orig, reply);

    /* The address range; none given: the address stays. */
    union ct_addr min_addr, max_addr;
    if (nat->has_addr) {
        min_addr = nat->min_addr;
        max_addr = nat->max_addr;
    } else {
        min_addr = max_addr = snat ? orig->src : orig->dst;
    }
    uint64_t n_addrs = addr_range_size(&min_addr, &max_addr, ipv6);

    /* The port that varies, and its range. */
    uint16_t pmin = 0, pmax = 0, pcur = 0;
    bool vary_dport = false;
    if (pat) {
        if (!snat && nat->min_port) {
            vary_dport = true;
            pmin = nat->min_port;
            pmax = MAX(nat->max_port, nat->min_port);
            pcur = pmin + hash % (pmax - pmin + 1);
        } else if (snat && nat->min_port) {
            pmin = nat->min_port;
            pmax = MAX(nat->max_port, nat->min_port);
            pcur = pmin + hash % (pmax - pmin + 1);
        } else {
            pcur = ntohs(orig->src_port);
            sport_class(pcur, &pmin, &pmax);
        }
        if (nat->flags & CT_NAT_PROTO_RANDOM) {
            pcur = pmin + random() % (pmax - pmin + 1);
        }
    }
    uint64_t n_ports = pat ? (uint64_t) pmax - pmin + 1 : 1;

    uint64_t total = n_addrs * n_ports;
    if (attempt >= MIN(total, (uint64_t) NAT_MAX_ATTEMPTS)) {
        return false;
    }

    /* A persistent mapping gives a client the same address whatever it
     * talks to. */
    uint32_t addr_hash = (nat->flags & CT_NAT_PERSISTENT
                          ? hash_bytes(&orig->src, sizeof orig->src, 0)
                          : hash);
    uint64_t addr_idx = (addr_hash % n_addrs + attempt / n_ports) % n_addrs;
    union ct_addr addr = addr_add(&min_addr, addr_idx, ipv6);
    if (snat) {
        reply->dst = addr;
    } else {
        reply->src = addr;
    }
    if (pat) {
        uint16_t port = pmin + ((pcur - pmin) + attempt % n_ports) % n_ports;
        if (vary_dport) {
            reply->src_port = htons(port);
        } else if (snat) {
            reply->dst_port = htons(port);
        }
    }
    return true;
}

/* Packet rewriting
 * ================ */

/* The L4 checksum of an L4 header of PROTO at L4 (AVAIL bytes present)
 * that covers the pseudo-header, or NULL (none, or not present). */
static ovs_be16 *
l4_csum_field(uint8_t *l4, size_t avail, uint8_t proto, bool ipv6)
{
    switch (proto) {
    case IPPROTO_TCP:
        return avail >= 18 ? (ovs_be16 *) (l4 + 16) : NULL;
    case IPPROTO_UDP: {
        if (avail < 8) {
            return NULL;
        }
        ovs_be16 *f = (ovs_be16 *) (l4 + 6);
        /* IPv4 UDP without a checksum stays without. */
        return (!ipv6 && !*f) ? NULL : f;
    }
    case IPPROTO_ICMPV6:
        return avail >= 4 ? (ovs_be16 *) (l4 + 2) : NULL;
    default:
        return NULL;
    }
}

static void
fix_udp_zero(uint8_t proto, ovs_be16 *csum_field)
{
    /* A computed 0 is sent as all ones: 0 would mean "no checksum". */
    if (proto == IPPROTO_UDP && csum_field && !*csum_field) {
        *csum_field = htons(0xffff);
    }
}

/* Sets the addresses (and, for TCP/UDP, the ports) of the IP packet at L3
 * with its L4 at L4 (AVAIL bytes), keeping checksums right. */
static void
rewrite_headers(uint8_t *l3, bool ipv6, uint8_t *l4, size_t avail,
                uint8_t proto, const union ct_addr *src,
                const union ct_addr *dst, ovs_be16 sport, ovs_be16 dport)
{
    ovs_be16 *l4csum = l4_csum_field(l4, avail, proto, ipv6);
    ovs_be16 sum;

    if (!ipv6) {
        struct ip_header *ip = (struct ip_header *) l3;
        ovs_be32 old_src = ip->ip_src, old_dst = ip->ip_dst;
        if (old_src != src->ipv4) {
            ip->ip_csum = recalc_csum32(ip->ip_csum, old_src, src->ipv4);
            if (l4csum) {
                memcpy(&sum, l4csum, 2);
                sum = recalc_csum32(sum, old_src, src->ipv4);
                memcpy(l4csum, &sum, 2);
            }
            ip->ip_src = src->ipv4;
        }
        if (old_dst != dst->ipv4) {
            ip->ip_csum = recalc_csum32(ip->ip_csum, old_dst, dst->ipv4);
            if (l4csum) {
                memcpy(&sum, l4csum, 2);
                sum = recalc_csum32(sum, old_dst, dst->ipv4);
                memcpy(l4csum, &sum, 2);
            }
            ip->ip_dst = dst->ipv4;
        }
    } else {
        struct ipv6_header *ip6 = (struct ipv6_header *) l3;
        struct in6_addr old;
        memcpy(&old, &ip6->ip6_src, 16);
        if (memcmp(&old, &src->ipv6, 16)) {
            if (l4csum) {
                memcpy(&sum, l4csum, 2);
                sum = recalc_csum128(sum, &old, &src->ipv6);
                memcpy(l4csum, &sum, 2);
            }
            memcpy(&ip6->ip6_src, &src->ipv6, 16);
        }
        memcpy(&old, &ip6->ip6_dst, 16);
        if (memcmp(&old, &dst->ipv6, 16)) {
            if (l4csum) {
                memcpy(&sum, l4csum, 2);
                sum = recalc_csum128(sum, &old, &dst->ipv6);
                memcpy(l4csum, &sum, 2);
            }
            memcpy(&ip6->ip6_dst, &dst->ipv6, 16);
        }
    }

    if (is_pat_proto(proto) && avail >= 4) {
        ovs_be16 ports[2], want[2] = { sport, dport };
        memcpy(ports, l4, 4);
        for (int i = 0; i < 2; i++) {
            if (ports[i] != want[i]) {
                if (l4csum) {
                    memcpy(&sum, l4csum, 2);
                    sum = recalc_csum16(sum, ports[i], want[i]);
                    memcpy(l4csum, &sum, 2);
                }
                memcpy(l4 + 2 * i, &want[i], 2);
            }
        }
    }
    if (l4csum) {
        memcpy(&sum, l4csum, 2);
        fix_udp_zero(proto, &sum);
        memcpy(l4csum, &sum, 2);
    }
}

/* Writes KEY's addresses and ports as the packet's own. */
static void
rewrite_to_key(uint8_t *l3, bool ipv6, uint8_t *l4, size_t avail,
               uint8_t proto, const struct ct_key *key)
{
    rewrite_headers(l3, ipv6, l4, avail, proto, &key->src, &key->dst,
                    key->src_port, key->dst_port);
}

static void
outer_addrs(const uint8_t *l3, bool ipv6, union ct_addr *src,
            union ct_addr *dst)
{
    memset(src, 0, sizeof *src);
    memset(dst, 0, sizeof *dst);
    if (!ipv6) {
        const struct ip_header *ip = (const struct ip_header *) l3;
        src->ipv4 = ip->ip_src;
        dst->ipv4 = ip->ip_dst;
    } else {
        const struct ipv6_header *ip6 = (const struct ipv6_header *) l3;
        memcpy(&src->ipv6, &ip6->ip6_src, 16);
        memcpy(&dst->ipv6, &ip6->ip6_dst, 16);
    }
}

static bool
addr_eq(const union ct_addr *a, const union ct_addr *b, bool ipv6)
{
    return ipv6 ? !memcmp(&a->ipv6, &b->ipv6, 16) : a->ipv4 == b->ipv4;
}

uint32_t
ct_nat_packet(struct dp_packet *pkt, const struct ct_pkt_info *info,
              const struct conn *conn, bool reply)
{
    const struct ct_key *orig = &conn->node[0].key;
    const struct ct_key *rkey = &conn->node[1].key;
    bool ipv6 = orig->is_ipv6;
    uint8_t *data = dp_packet_data(pkt);
    uint8_t *l3 = dp_packet_l3(pkt);
    uint8_t *l4 = data + info->l4_ofs;
    uint32_t bits = 0;

    if (conn->nat.flags & CT_NAT_SRC) {
        bits |= reply ? CS_DST_NAT : CS_SRC_NAT;
    }
    if (conn->nat.flags & CT_NAT_DST) {
        bits |= reply ? CS_SRC_NAT : CS_DST_NAT;
    }

    if (!info->icmp_error) {
        /* Make the packet the mirror of the other direction's key. */
        struct ct_key target;
        ct_key_reverse(reply ? orig : rkey, &target);
        if (!is_pat_proto(orig->nw_proto)) {
            /* Only addresses move; the ports (ICMP id) stay as sent. */
            target.src_port = info->key.src_port;
            target.dst_port = info->key.dst_port;
        }
        rewrite_to_key(l3, ipv6, l4, info->l4_len, info->key.nw_proto,
                       &target);
        return bits;
    }

    /* An ICMP error.  Its quoted packet went the other way: it looks like
     * the mirror of this direction's key, and becomes the mirror of the
     * other one's; the outer addresses move with it. */
    uint8_t *inner_l3 = data + info->inner_l3_ofs;
    uint8_t *inner_l4 = data + info->inner_l4_ofs;
    const struct ct_key *inner_target = reply ? orig : rkey;
    struct ct_key quoted_now;
    ct_key_reverse(reply ? rkey : orig, &quoted_now);
    struct ct_key t = *inner_target;
    if (!is_pat_proto(orig->nw_proto)) {
        t.src_port = t.dst_port = 0;
    }
    if (is_pat_proto(info->inner_proto)) {
        rewrite_to_key(inner_l3, ipv6, inner_l4, info->inner_l4_len,
                       info->inner_proto, &t);
    } else {
        rewrite_headers(inner_l3, ipv6, inner_l4, info->inner_l4_len,
                        info->inner_proto, &t.src, &t.dst, 0, 0);
    }
    if (!ipv6) {
        /* The quoted header's checksum is recomputed whole: it may be
         * what the receiver checks to match the error to a socket. */
        struct ip_header *ip = (struct ip_header *) inner_l3;
        size_t hlen = IP_IHL(ip->ip_ihl_ver) * 4;
        ip->ip_csum = 0;
        ip->ip_csum = csum(ip, hlen);
    }

    /* The outer header travels opposite to the quoted packet: its
     * destination was the quoted source, its source may be the quoted
     * destination (or a router on the way, which stays). */
    union ct_addr src, dst;
    outer_addrs(l3, ipv6, &src, &dst);
    if (addr_eq(&dst, &quoted_now.src, ipv6)) {
        dst = inner_target->src;
    }
    if (addr_eq(&src, &quoted_now.dst, ipv6)) {
        src = inner_target->dst;
    }
    rewrite_headers(l3, ipv6, l4, info->l4_len,
                    ipv6 ? IPPROTO_ICMPV6 : IPPROTO_ICMP, &src, &dst, 0, 0);

    /* The ICMP checksum covers the quoted bytes that just changed. */
    struct icmp_header *icmp = (struct icmp_header *) l4;
    icmp->icmp_csum = 0;
    uint32_t partial = 0;
    if (ipv6) {
        partial = csum_pseudo_ipv6(&src.ipv6, &dst.ipv6, IPPROTO_ICMPV6,
                                   info->l4_len);
    }
    icmp->icmp_csum = csum_finish(csum_continue(partial, l4, info->l4_len));
    return bits;
}
