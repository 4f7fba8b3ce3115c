#include <config.h>
#include "odp-execute.h"

#include <arpa/inet.h>
#include <linux/openvswitch.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include "coverage.h"
#include "csum.h"
#include "dp-packet.h"
#include "flow.h"
#include "flow-extract.h"
#include "hash.h"
#include "mpls.h"
#include "netlink.h"
#include "odp-util.h"
#include "tnl-header.h"
#include "packets.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(odp_execute);

/* Merging a set's value into a header field: the whole value for a plain
 * set, only the mask's bits for a masked one. */
static uint8_t
merge8(uint8_t old, uint8_t value, const uint8_t *mask)
{
    return mask ? (old & ~*mask) | (value & *mask) : value;
}

static ovs_be16
merge16(ovs_be16 old, ovs_be16 value, const ovs_be16 *mask)
{
    return mask ? (old & ~*mask) | (value & *mask) : value;
}

static ovs_be32
merge32(ovs_be32 old, ovs_be32 value, const ovs_be32 *mask)
{
    return mask ? (old & ~*mask) | (value & *mask) : value;
}

static void
merge_bytes(uint8_t *dst, const uint8_t *value, const uint8_t *mask,
            size_t n)
{
    for (size_t i = 0; i < n; i++) {
        dst[i] = mask ? (dst[i] & ~mask[i]) | (value[i] & mask[i])
                      : value[i];
    }
}

/* The L4 header of P and its length up to the end of the IP payload
 * (Ethernet padding excluded), or NULL. */
static uint8_t *
l4_and_len(const struct dp_packet *p, size_t *len)
{
    uint8_t *l3 = dp_packet_l3(p), *l4 = dp_packet_l4(p);
    if (!l3 || !l4) {
        return NULL;
    }
    size_t end = dp_packet_size(p);
    if ((l3[0] >> 4) == 4 && dp_packet_l3_size(p) >= IP_HEADER_LEN) {
        const struct ip_header *ip = (const struct ip_header *) l3;
        end = MIN(end, p->l3_ofs + (size_t) ntohs(ip->ip_tot_len));
    } else if ((l3[0] >> 4) == 6 && dp_packet_l3_size(p) >= IPV6_HEADER_LEN) {
        const struct ipv6_header *ip6 = (const struct ipv6_header *) l3;
        end = MIN(end, p->l3_ofs + IPV6_HEADER_LEN
                  + (size_t) ntohs(ip6->ip6_plen));
    }
    if (end < p->l4_ofs) {
        return NULL;
    }
    *len = end - p->l4_ofs;
    return l4;
}

/* The protocol of P's L4 header: IPv4's protocol field, or for IPv6 the
 * next-header value that leads to l4 through the extension headers (all
 * in bounds: flow_extract() walked them to find l4).  0 if no L4. */
static uint8_t
packet_l4_proto(const struct dp_packet *p)
{
    const uint8_t *l3 = dp_packet_l3(p);
    if (!l3 || p->l4_ofs == DP_PACKET_OFS_NONE) {
        return 0;
    }
    if ((l3[0] >> 4) == 4) {
        return dp_packet_l3_size(p) >= IP_HEADER_LEN
               ? ((const struct ip_header *) l3)->ip_proto : 0;
    }
    if (dp_packet_l3_size(p) < IPV6_HEADER_LEN) {
        return 0;
    }
    const uint8_t *data = dp_packet_data(p);
    uint8_t proto = ((const struct ipv6_header *) l3)->ip6_nxt;
    size_t ofs = p->l3_ofs + IPV6_HEADER_LEN;
    while (ofs + 2 <= p->l4_ofs) {
        uint8_t nh = proto;
        proto = data[ofs];
        ofs += (nh == IPPROTO_FRAGMENT_ ? 8
                : nh == IPPROTO_AH_ ? (data[ofs + 1] + 2) * 4
                : (data[ofs + 1] + 1) * 8);
    }
    return proto;
}

/* Fixes the L4 checksum of P after a pseudo-header word changed. */
static void
update_l4_csum_for_addr(struct dp_packet *p, uint8_t proto,
                        const void *old, const void *new, size_t n)
{
    size_t len;
    uint8_t *l4 = l4_and_len(p, &len);
    if (!l4) {
        return;
    }
    size_t csum_ofs;
    if (proto == IPPROTO_TCP && len >= TCP_HEADER_LEN) {
        csum_ofs = offsetof(struct tcp_header, tcp_csum);
    } else if (proto == IPPROTO_UDP && len >= UDP_HEADER_LEN) {
        csum_ofs = offsetof(struct udp_header, udp_csum);
    } else if (proto == IPPROTO_ICMPV6 && n == 16 && len >= 4) {
        csum_ofs = offsetof(struct icmp_header, icmp_csum);
    } else {
        return;
    }
    ovs_be16 c;
    memcpy(&c, l4 + csum_ofs, 2);
    if (proto == IPPROTO_UDP && !c && n == 4) {
        return;                 /* IPv4 UDP without a checksum. */
    }
    if (n == 4) {
        ovs_be32 o, nw;
        memcpy(&o, old, 4);
        memcpy(&nw, new, 4);
        c = recalc_csum32(c, o, nw);
    } else {
        c = recalc_csum128(c, old, new);
    }
    if (proto == IPPROTO_UDP && !c) {
        c = htons(0xffff);
    }
    memcpy(l4 + csum_ofs, &c, 2);
}

static void
set_ipv4(struct dp_packet *p, const struct ovs_key_ipv4 *k,
         const struct ovs_key_ipv4 *m)
{
    struct ip_header *ip = dp_packet_l3(p);
    if (!ip || dp_packet_l3_size(p) < IP_HEADER_LEN
        || IP_VERSION(ip->ip_ihl_ver) != 4) {
        return;
    }
    uint8_t proto = packet_l4_proto(p);
    ovs_be16 csum_v = ip->ip_csum;

    ovs_be32 src = merge32(ip->ip_src, k->ipv4_src, m ? &m->ipv4_src : NULL);
    if (src != ip->ip_src) {
        update_l4_csum_for_addr(p, proto, &ip->ip_src, &src, 4);
        csum_v = recalc_csum32(csum_v, ip->ip_src, src);
        ip->ip_src = src;
    }
    ovs_be32 dst = merge32(ip->ip_dst, k->ipv4_dst, m ? &m->ipv4_dst : NULL);
    if (dst != ip->ip_dst) {
        update_l4_csum_for_addr(p, proto, &ip->ip_dst, &dst, 4);
        csum_v = recalc_csum32(csum_v, ip->ip_dst, dst);
        ip->ip_dst = dst;
    }
    uint8_t tos = merge8(ip->ip_tos, k->ipv4_tos, m ? &m->ipv4_tos : NULL);
    if (tos != ip->ip_tos) {
        csum_v = recalc_csum16(csum_v, htons(ip->ip_ihl_ver << 8
                                             | ip->ip_tos),
                               htons(ip->ip_ihl_ver << 8 | tos));
        ip->ip_tos = tos;
    }
    uint8_t ttl = merge8(ip->ip_ttl, k->ipv4_ttl, m ? &m->ipv4_ttl : NULL);
    if (ttl != ip->ip_ttl) {
        csum_v = recalc_csum16(csum_v, htons(ip->ip_ttl << 8 | ip->ip_proto),
                               htons(ttl << 8 | ip->ip_proto));
        ip->ip_ttl = ttl;
    }
    /* proto and frag cannot be set: a kernel datapath refuses it too. */
    ip->ip_csum = csum_v;
}

/* One IPv6 address at FIELD (in the header, unaligned), with the L4
 * checksum that covers it. */
static void
set_ipv6_addr(struct dp_packet *p, uint8_t proto, uint8_t *field,
              const void *value, const void *mask)
{
    uint8_t addr[16];
    memcpy(addr, field, 16);
    merge_bytes(addr, value, mask, 16);
    if (memcmp(addr, field, 16)) {
        update_l4_csum_for_addr(p, proto, field, addr, 16);
        memcpy(field, addr, 16);
    }
}

static void
set_ipv6(struct dp_packet *p, const struct ovs_key_ipv6 *k,
         const struct ovs_key_ipv6 *m)
{
    struct ipv6_header *ip6 = dp_packet_l3(p);
    if (!ip6 || dp_packet_l3_size(p) < IPV6_HEADER_LEN
        || (((uint8_t *) ip6)[0] >> 4) != 6) {
        return;
    }
    uint8_t proto = packet_l4_proto(p);

    set_ipv6_addr(p, proto, (uint8_t *) ip6
                  + offsetof(struct ipv6_header, ip6_src),
                  k->ipv6_src, m ? m->ipv6_src : NULL);
    set_ipv6_addr(p, proto, (uint8_t *) ip6
                  + offsetof(struct ipv6_header, ip6_dst),
                  k->ipv6_dst, m ? m->ipv6_dst : NULL);

    uint32_t vtc = ntohl(ip6->ip6_vtc_flow);
    uint8_t tclass = merge8((vtc >> 20) & 0xff, k->ipv6_tclass,
                            m ? &m->ipv6_tclass : NULL);
    uint32_t label = ntohl(merge32(htonl(vtc & IPV6_LABEL_MASK),
                                   k->ipv6_label,
                                   m ? &m->ipv6_label : NULL))
                     & IPV6_LABEL_MASK;
    ip6->ip6_vtc_flow = htonl((vtc & 0xf0000000) | (uint32_t) tclass << 20
                              | label);
    ip6->ip6_hlim = merge8(ip6->ip6_hlim, k->ipv6_hlimit,
                           m ? &m->ipv6_hlimit : NULL);
}

/* TCP/UDP/SCTP ports: KEY and MASK point to two ovs_be16 (src, dst). */
static void
set_ports(struct dp_packet *p, uint8_t proto, const ovs_be16 *k,
          const ovs_be16 *m)
{
    size_t len;
    uint8_t *l4 = l4_and_len(p, &len);
    if (!l4) {
        return;
    }
    /* The header must be of the protocol the action names. */
    if (packet_l4_proto(p) != proto) {
        return;
    }

    ovs_be16 ports[2];
    memcpy(ports, l4, 4);
    ovs_be16 src = merge16(ports[0], k[0], m ? &m[0] : NULL);
    ovs_be16 dst = merge16(ports[1], k[1], m ? &m[1] : NULL);

    if (proto == IPPROTO_TCP && len >= TCP_HEADER_LEN) {
        struct tcp_header *tcp = (struct tcp_header *) l4;
        ovs_be16 c = tcp->tcp_csum;
        c = recalc_csum16(c, ports[0], src);
        c = recalc_csum16(c, ports[1], dst);
        tcp->tcp_csum = c;
    } else if (proto == IPPROTO_UDP && len >= UDP_HEADER_LEN) {
        struct udp_header *udp = (struct udp_header *) l4;
        if (udp->udp_csum) {
            ovs_be16 c = udp->udp_csum;
            c = recalc_csum16(c, ports[0], src);
            c = recalc_csum16(c, ports[1], dst);
            udp->udp_csum = c ? c : htons(0xffff);
        }
    } else if (proto == IPPROTO_SCTP && len >= SCTP_HEADER_LEN) {
        /* CRC32c has no cheap incremental form: recompute, but only if
         * the old one was right, so a corrupt packet stays corrupt. */
        struct sctp_header *sctp = (struct sctp_header *) l4;
        ovs_be32 old = sctp->sctp_csum;
        sctp->sctp_csum = 0;
        bool was_good = crc32c(l4, len) == old;
        memcpy(l4, &src, 2);
        memcpy(l4 + 2, &dst, 2);
        sctp->sctp_csum = was_good ? crc32c(l4, len) : old;
        return;
    } else {
        return;
    }
    memcpy(l4, &src, 2);
    memcpy(l4 + 2, &dst, 2);
}

static void
set_vlan_tci(struct dp_packet *p, ovs_be16 tci, const ovs_be16 *mask)
{
    uint8_t *tag = dp_packet_l2_5(p);
    if (!tag || p->l2_5_ofs + 4 > dp_packet_size(p)) {
        return;
    }
    ovs_be16 old;
    memcpy(&old, tag + 2, 2);
    /* The DEI bit of the wire is not VLAN_CFI's "present" bit. */
    ovs_be16 m = mask ? *mask & ~htons(VLAN_CFI) : ~htons(VLAN_CFI);
    ovs_be16 new = (old & ~m) | (tci & m);
    memcpy(tag + 2, &new, 2);
}

/* ARP (Ethernet/IPv4): the fields the key has, under the mask. */
static void
set_arp(struct dp_packet *p, const struct ovs_key_arp *k,
        const struct ovs_key_arp *m)
{
    struct arp_eth_header *arp = dp_packet_l3(p);
    if (!arp || dp_packet_l3_size(p) < ARP_ETH_HEADER_LEN) {
        return;
    }
    ovs_be32 spa, tpa;
    memcpy(&spa, &arp->ar_spa, 4);
    memcpy(&tpa, &arp->ar_tpa, 4);
    spa = merge32(spa, k->arp_sip, m ? &m->arp_sip : NULL);
    tpa = merge32(tpa, k->arp_tip, m ? &m->arp_tip : NULL);
    memcpy(&arp->ar_spa, &spa, 4);
    memcpy(&arp->ar_tpa, &tpa, 4);
    arp->ar_op = merge16(arp->ar_op, k->arp_op, m ? &m->arp_op : NULL);
    merge_bytes(arp->ar_sha.ea, k->arp_sha, m ? m->arp_sha : NULL, 6);
    merge_bytes(arp->ar_tha.ea, k->arp_tha, m ? m->arp_tha : NULL, 6);
}

/* An ICMP or ICMPv6 header's type and code (KEY: two bytes), with the
 * checksum that covers them. */
static void
set_icmp(struct dp_packet *p, uint8_t proto, const uint8_t *k,
         const uint8_t *m)
{
    size_t len;
    struct icmp_header *icmp = (struct icmp_header *) l4_and_len(p, &len);
    if (!icmp || len < 4 || packet_l4_proto(p) != proto) {
        return;
    }
    uint8_t type = merge8(icmp->icmp_type, k[0], m ? &m[0] : NULL);
    uint8_t code = merge8(icmp->icmp_code, k[1], m ? &m[1] : NULL);
    icmp->icmp_csum = recalc_csum16(icmp->icmp_csum,
                                    htons(icmp->icmp_type << 8
                                          | icmp->icmp_code),
                                    htons(type << 8 | code));
    icmp->icmp_type = type;
    icmp->icmp_code = code;
}

/* A neighbour solicitation's or advertisement's target, and the link-layer
 * address of its source (SLL) or target (TLL) option where the message
 * has one (none is added), with the ICMPv6 checksum. */
static void
set_nd(struct dp_packet *p, const struct ovs_key_nd *k,
       const struct ovs_key_nd *m)
{
    size_t len;
    struct nd_msg *nd = (struct nd_msg *) l4_and_len(p, &len);
    if (!nd || len < ND_MSG_LEN || packet_l4_proto(p) != IPPROTO_ICMPV6
        || (nd->icmp_type != ND_NEIGHBOR_SOLICIT
            && nd->icmp_type != ND_NEIGHBOR_ADVERT)) {
        return;
    }
    uint8_t target[16];
    memcpy(target, &nd->target, 16);
    merge_bytes(target, (const uint8_t *) k->nd_target,
                m ? (const uint8_t *) m->nd_target : NULL, 16);
    if (memcmp(target, &nd->target, 16)) {
        nd->icmp_csum = recalc_csum128(nd->icmp_csum, &nd->target, target);
        memcpy(&nd->target, target, 16);
    }

    uint8_t *opt = (uint8_t *) nd + ND_MSG_LEN;
    size_t left = len - ND_MSG_LEN;
    while (left >= 8 && opt[1] && opt[1] * 8 <= left) {
        const uint8_t *value = (opt[0] == ND_OPT_SOURCE_LINKADDR ? k->nd_sll
                                : opt[0] == ND_OPT_TARGET_LINKADDR
                                ? k->nd_tll : NULL);
        if (value && opt[1] == 1) {
            const uint8_t *mask = !m ? NULL
                                  : opt[0] == ND_OPT_SOURCE_LINKADDR
                                  ? m->nd_sll : m->nd_tll;
            uint8_t mac[6];
            memcpy(mac, opt + 2, 6);
            merge_bytes(mac, value, mask, 6);
            for (int i = 0; i < 6; i += 2) {
                ovs_be16 old16, new16;
                memcpy(&old16, opt + 2 + i, 2);
                memcpy(&new16, mac + i, 2);
                nd->icmp_csum = recalc_csum16(nd->icmp_csum, old16, new16);
            }
            memcpy(opt + 2, mac, 6);
        }
        left -= opt[1] * 8;
        opt += opt[1] * 8;
    }
}

/* MPLS.  The stack starts right after the packet's (last) Ethertype, past
 * any VLAN tags; in a packet with no Ethernet header (packet type
 * (1, 0x8847), say) it starts the packet and the packet type stands for
 * the Ethertype. */

/* The offset of P's Ethertype field, or false for a packet without an
 * Ethernet header or too short to have one. */
static bool
eth_type_ofs(const struct dp_packet *p, size_t *ofs)
{
    const uint8_t *data = dp_packet_data(p);
    size_t size = dp_packet_size(p);
    if (p->md.packet_type != htonl(PT_ETH)) {
        return false;
    }
    for (size_t o = 2 * ETH_ADDR_LEN; o + 2 <= size; o += VLAN_HEADER_LEN) {
        ovs_be16 type;
        memcpy(&type, data + o, 2);
        if (type != htons(ETH_TYPE_VLAN_8021Q)
            && type != htons(ETH_TYPE_VLAN_8021AD)) {
            *ofs = o;
            return true;
        }
    }
    return false;
}

/* Where P's MPLS stack is, or would be pushed: false if P has no place
 * for one (a truncated Ethernet header, an L3 packet of another kind). */
static bool
mpls_stack_ofs(const struct dp_packet *p, size_t *ofs, bool *has_eth)
{
    size_t type_ofs;
    *has_eth = eth_type_ofs(p, &type_ofs);
    if (*has_eth) {
        *ofs = type_ofs + 2;
        return true;
    }
    *ofs = 0;
    return pt_ns(p->md.packet_type) == PT_NS_ETHERTYPE;
}

/* P's type: the Ethertype field, or the packet type's. */
static ovs_be16
packet_eth_type(const struct dp_packet *p, size_t stack_ofs, bool has_eth)
{
    ovs_be16 type;
    if (has_eth) {
        memcpy(&type, (const uint8_t *) dp_packet_data(p) + stack_ofs - 2,
               2);
        return type;
    }
    return htons(pt_ns_type(p->md.packet_type));
}

static void
set_packet_eth_type(struct dp_packet *p, size_t stack_ofs, bool has_eth,
                    ovs_be16 type)
{
    if (has_eth) {
        memcpy((uint8_t *) dp_packet_data(p) + stack_ofs - 2, &type, 2);
    } else {
        p->md.packet_type = htonl(PACKET_TYPE(PT_NS_ETHERTYPE, ntohs(type)));
    }
}

void
odp_execute_push_mpls(struct dp_packet *p, ovs_be16 eth_type, ovs_be32 lse)
{
    size_t ofs;
    bool has_eth;
    if (!eth_type_mpls(eth_type) || !mpls_stack_ofs(p, &ofs, &has_eth)) {
        return;
    }
    uint8_t *hdr = (has_eth ? dp_packet_insert_front(p, ofs, MPLS_HLEN)
                    : dp_packet_push_uninit(p, MPLS_HLEN));
    memcpy(hdr, &lse, MPLS_HLEN);
    set_packet_eth_type(p, ofs, has_eth, eth_type);
}

void
odp_execute_pop_mpls(struct dp_packet *p, ovs_be16 eth_type)
{
    size_t ofs;
    bool has_eth;
    if (!mpls_stack_ofs(p, &ofs, &has_eth)
        || !eth_type_mpls(packet_eth_type(p, ofs, has_eth))
        || dp_packet_size(p) < ofs + MPLS_HLEN) {
        return;
    }
    if (has_eth) {
        dp_packet_remove_front(p, ofs, MPLS_HLEN);
        set_packet_eth_type(p, ofs, has_eth, eth_type);
    } else {
        dp_packet_pull(p, MPLS_HLEN);
        /* Transparent Ethernet bridging: an Ethernet frame comes up. */
        p->md.packet_type = (eth_type == htons(0x6558) ? htonl(PT_ETH)
                             : htonl(PACKET_TYPE(PT_NS_ETHERTYPE,
                                                 ntohs(eth_type))));
    }
}

/* The top entry of P's stack under MASK (all of it if NULL). */
static void
set_mpls(struct dp_packet *p, ovs_be32 lse, const ovs_be32 *mask)
{
    size_t ofs;
    bool has_eth;
    if (!mpls_stack_ofs(p, &ofs, &has_eth)
        || !eth_type_mpls(packet_eth_type(p, ofs, has_eth))
        || dp_packet_size(p) < ofs + MPLS_HLEN) {
        return;
    }
    uint8_t *hdr = (uint8_t *) dp_packet_data(p) + ofs;
    ovs_be32 old;
    memcpy(&old, hdr, MPLS_HLEN);
    ovs_be32 new = merge32(old, lse, mask);
    memcpy(hdr, &new, MPLS_HLEN);
}

void
odp_execute_set(struct dp_packet *p, const struct nlattr *key, bool masked)
{
    uint16_t type = nl_attr_type(key);
    size_t size = nl_attr_get_size(key);
    const uint8_t *v = nl_attr_get(key);
    size_t half = masked ? size / 2 : size;
    const uint8_t *m = masked ? v + half : NULL;

#define SIZE_IS(T) (half == sizeof(T) && (!masked || size == 2 * sizeof(T)))
    switch (type) {
    case OVS_KEY_ATTR_TUNNEL:
        /* The metadata a tunnel port's output will use (never masked). */
        if (!masked) {
            struct flow_tnl t;
            uint8_t geneve[ODP_GENEVE_OPTS_MAX];
            size_t geneve_len;
            if (odp_tunnel_from_attr(key, &t, geneve, &geneve_len)) {
                p->md.tunnel = t;
                if (geneve_len) {
                    /* The options travel raw, as tnl_pop leaves them. */
                    p->md.tunnel.flags |= FLOW_TNL_F_UDPIF;
                    memcpy(p->md.tun_opts, geneve, geneve_len);
                    p->md.tun_opts_len = geneve_len;
                }
            }
        }
        break;
    case OVS_KEY_ATTR_ETHERNET:
        if (SIZE_IS(struct ovs_key_ethernet) && dp_packet_size(p) >= 12) {
            const struct ovs_key_ethernet *k = (const void *) v;
            const struct ovs_key_ethernet *km = (const void *) m;
            uint8_t *eth = dp_packet_data(p);
            merge_bytes(eth, k->eth_dst, km ? km->eth_dst : NULL, 6);
            merge_bytes(eth + 6, k->eth_src, km ? km->eth_src : NULL, 6);
        }
        break;
    case OVS_KEY_ATTR_IPV4:
        if (SIZE_IS(struct ovs_key_ipv4)) {
            set_ipv4(p, (const void *) v, (const void *) m);
        }
        break;
    case OVS_KEY_ATTR_IPV6:
        if (SIZE_IS(struct ovs_key_ipv6)) {
            set_ipv6(p, (const void *) v, (const void *) m);
        }
        break;
    case OVS_KEY_ATTR_TCP:
    case OVS_KEY_ATTR_UDP:
    case OVS_KEY_ATTR_SCTP:
        if (half == 4 && (!masked || size == 8)) {
            ovs_be16 k2[2], m2[2];
            memcpy(k2, v, 4);
            if (m) {
                memcpy(m2, m, 4);
            }
            set_ports(p, (type == OVS_KEY_ATTR_TCP ? IPPROTO_TCP
                          : type == OVS_KEY_ATTR_UDP ? IPPROTO_UDP
                          : IPPROTO_SCTP), k2, m ? m2 : NULL);
        }
        break;
    case OVS_KEY_ATTR_ARP:
        if (SIZE_IS(struct ovs_key_arp)) {
            set_arp(p, (const void *) v, (const void *) m);
        }
        break;
    case OVS_KEY_ATTR_ND:
        if (SIZE_IS(struct ovs_key_nd)) {
            set_nd(p, (const void *) v, (const void *) m);
        }
        break;
    case OVS_KEY_ATTR_ICMP:
    case OVS_KEY_ATTR_ICMPV6:
        if (half == 2 && (!masked || size == 4)) {
            set_icmp(p, type == OVS_KEY_ATTR_ICMP ? IPPROTO_ICMP
                                                  : IPPROTO_ICMPV6, v, m);
        }
        break;
    case OVS_KEY_ATTR_PRIORITY:
    case OVS_KEY_ATTR_SKB_MARK:
        if (half == 4 && (!masked || size == 8)) {
            uint32_t *field = (type == OVS_KEY_ATTR_PRIORITY
                               ? &p->md.skb_priority : &p->md.pkt_mark);
            uint32_t k32, m32 = UINT32_MAX;
            memcpy(&k32, v, 4);
            if (m) {
                memcpy(&m32, m, 4);
            }
            *field = (*field & ~m32) | (k32 & m32);
        }
        break;
    case OVS_KEY_ATTR_MPLS:
        if (SIZE_IS(struct ovs_key_mpls)) {
            ovs_be32 lse, lse_mask;
            memcpy(&lse, v, 4);
            if (m) {
                memcpy(&lse_mask, m, 4);
            }
            set_mpls(p, lse, m ? &lse_mask : NULL);
        }
        break;
    case OVS_KEY_ATTR_VLAN:
        if (half == 2 && (!masked || size == 4)) {
            ovs_be16 tci, tm;
            memcpy(&tci, v, 2);
            if (m) {
                memcpy(&tm, m, 2);
            }
            set_vlan_tci(p, tci, m ? &tm : NULL);
        }
        break;
    default:
        break;
    }
#undef SIZE_IS
}

void
odp_execute_push_vlan(struct dp_packet *p, ovs_be16 tpid, ovs_be16 tci)
{
    if (dp_packet_size(p) < 2 * ETH_ADDR_LEN) {
        return;
    }
    uint8_t *tag = dp_packet_insert_front(p, 2 * ETH_ADDR_LEN,
                                          VLAN_HEADER_LEN);
    ovs_be16 wire_tci = tci & ~htons(VLAN_CFI);
    memcpy(tag, &tpid, 2);
    memcpy(tag + 2, &wire_tci, 2);
    p->l2_5_ofs = 2 * ETH_ADDR_LEN;
}

void
odp_execute_push_eth(struct dp_packet *p, const uint8_t src[ETH_ADDR_LEN],
                     const uint8_t dst[ETH_ADDR_LEN])
{
    if (pt_ns(p->md.packet_type) != PT_NS_ETHERTYPE) {
        return;                 /* Already Ethernet, or no Ethertype. */
    }
    ovs_be16 type = htons(pt_ns_type(p->md.packet_type));
    uint8_t *eh = dp_packet_push_uninit(p, ETH_HEADER_LEN);
    memcpy(eh, dst, ETH_ADDR_LEN);
    memcpy(eh + ETH_ADDR_LEN, src, ETH_ADDR_LEN);
    memcpy(eh + 2 * ETH_ADDR_LEN, &type, 2);
    p->md.packet_type = htonl(PT_ETH);
}

void
odp_execute_pop_eth(struct dp_packet *p)
{
    size_t type_ofs;
    if (!eth_type_ofs(p, &type_ofs)) {
        return;                 /* No Ethernet header to take off. */
    }
    ovs_be16 type;
    memcpy(&type, (const uint8_t *) dp_packet_data(p) + type_ofs, 2);
    dp_packet_pull(p, type_ofs + 2);
    p->md.packet_type = htonl(PACKET_TYPE(PT_NS_ETHERTYPE, ntohs(type)));
}

void
odp_execute_pop_vlan(struct dp_packet *p)
{
    const uint8_t *data = dp_packet_data(p);
    if (dp_packet_size(p) < 2 * ETH_ADDR_LEN + VLAN_HEADER_LEN + 2) {
        return;
    }
    ovs_be16 type;
    memcpy(&type, data + 2 * ETH_ADDR_LEN, 2);
    if (type != htons(ETH_TYPE_VLAN_8021Q)
        && type != htons(ETH_TYPE_VLAN_8021AD)) {
        return;
    }
    dp_packet_remove_front(p, 2 * ETH_ADDR_LEN, VLAN_HEADER_LEN);
    data = dp_packet_data(p);
    memcpy(&type, data + 2 * ETH_ADDR_LEN, 2);
    p->l2_5_ofs = (type == htons(ETH_TYPE_VLAN_8021Q)
                   || type == htons(ETH_TYPE_VLAN_8021AD)
                   ? 2 * ETH_ADDR_LEN : DP_PACKET_OFS_NONE);
}

/* Sampling: a per-thread xorshift generator, seeded once per thread. */
static uint32_t
random_u32(void)
{
    static __thread uint32_t state;
    if (!state) {
        if (getrandom(&state, sizeof state, GRND_NONBLOCK) != sizeof state
            || !state) {
            state = (uint32_t) time(NULL) | 1;
        }
    }
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return state;
}

static bool
sample_hit(uint32_t probability)
{
    return (probability == UINT32_MAX
            || (probability && random_u32() < probability));
}

static void
execute_nested_on_copies(void *aux, struct dp_packet_batch *src,
                         const struct nlattr *actions, size_t len,
                         odp_execute_cb *dp_execute)
{
    struct dp_packet_batch copies;
    dp_packet_batch_clone(&copies, src);
    odp_execute_actions(aux, &copies, true, actions, len, dp_execute);
}

static void
execute_sample(void *aux, struct dp_packet_batch *batch,
               const struct nlattr *action, odp_execute_cb *dp_execute)
{
    const struct nlattr *a, *actions = NULL;
    uint32_t probability = 0;
    size_t left;
    NL_NESTED_FOR_EACH (a, left, action) {
        if (nl_attr_type(a) == OVS_SAMPLE_ATTR_PROBABILITY
            && nl_attr_get_size(a) == 4) {
            probability = nl_attr_get_u32(a);
        } else if (nl_attr_type(a) == OVS_SAMPLE_ATTR_ACTIONS) {
            actions = a;
        }
    }
    if (!actions || !probability) {
        return;
    }
    struct dp_packet_batch sampled;
    dp_packet_batch_init(&sampled);
    struct dp_packet *p;
    DP_PACKET_BATCH_FOR_EACH (i, p, batch) {
        if (sample_hit(probability)) {
            dp_packet_batch_add(&sampled, p);
        }
    }
    if (sampled.count) {
        execute_nested_on_copies(aux, &sampled, nl_attr_get(actions),
                                 nl_attr_get_size(actions), dp_execute);
    }
}

/* Frees the packets of BEFORE that AFTER (BEFORE with some packets taken
 * out, the rest in order) no longer has. */
static void
delete_dropped(const struct dp_packet_batch *before,
               const struct dp_packet_batch *after)
{
    size_t j = 0;
    for (size_t i = 0; i < before->count; i++) {
        if (j < after->count && after->packets[j] == before->packets[i]) {
            j++;
        } else {
            dp_packet_delete(before->packets[i]);
        }
    }
}

/* The explicit drop action's counters, 3.1's names, by reason. */
COVERAGE_DEFINE(drop_action_of_pipeline);
COVERAGE_DEFINE(drop_action_bridge_not_found);
COVERAGE_DEFINE(drop_action_recursion_too_deep);
COVERAGE_DEFINE(drop_action_too_many_resubmit);
COVERAGE_DEFINE(drop_action_stack_too_deep);
COVERAGE_DEFINE(drop_action_no_recirculation_context);
COVERAGE_DEFINE(drop_action_recirculation_conflict);
COVERAGE_DEFINE(drop_action_too_many_mpls_labels);
COVERAGE_DEFINE(drop_action_invalid_tunnel_metadata);
COVERAGE_DEFINE(drop_action_unsupported_packet_type);
COVERAGE_DEFINE(drop_action_congestion);
COVERAGE_DEFINE(drop_action_forwarding_disabled);

static void
count_drops(uint32_t reason, size_t n)
{
    switch ((enum odp_drop_reason) reason) {
    case ODP_DROP_OF_PIPELINE:
        COVERAGE_ADD(drop_action_of_pipeline, n);
        break;
    case ODP_DROP_BRIDGE_NOT_FOUND:
        COVERAGE_ADD(drop_action_bridge_not_found, n);
        break;
    case ODP_DROP_RECURSION_TOO_DEEP:
        COVERAGE_ADD(drop_action_recursion_too_deep, n);
        break;
    case ODP_DROP_TOO_MANY_RESUBMIT:
        COVERAGE_ADD(drop_action_too_many_resubmit, n);
        break;
    case ODP_DROP_STACK_TOO_DEEP:
        COVERAGE_ADD(drop_action_stack_too_deep, n);
        break;
    case ODP_DROP_NO_RECIRCULATION_CONTEXT:
        COVERAGE_ADD(drop_action_no_recirculation_context, n);
        break;
    case ODP_DROP_RECIRCULATION_CONFLICT:
        COVERAGE_ADD(drop_action_recirculation_conflict, n);
        break;
    case ODP_DROP_TOO_MANY_MPLS_LABELS:
        COVERAGE_ADD(drop_action_too_many_mpls_labels, n);
        break;
    case ODP_DROP_INVALID_TUNNEL_METADATA:
        COVERAGE_ADD(drop_action_invalid_tunnel_metadata, n);
        break;
    case ODP_DROP_UNSUPPORTED_PACKET_TYPE:
        COVERAGE_ADD(drop_action_unsupported_packet_type, n);
        break;
    case ODP_DROP_CONGESTION:
        COVERAGE_ADD(drop_action_congestion, n);
        break;
    case ODP_DROP_FORWARDING_DISABLED:
        COVERAGE_ADD(drop_action_forwarding_disabled, n);
        break;
    case ODP_DROP_N_REASONS:
    default:
        /* Validation refuses other numbers. */
        break;
    }
}

static bool
is_last_action(const struct nlattr *a, size_t left)
{
    return NLA_ALIGN(a->nla_len) >= left;
}

/* Cuts each packet of BATCH to at most CUTLEN bytes, in place. */
static void
truncate_batch(struct dp_packet_batch *batch, uint32_t cutlen)
{
    struct dp_packet *p;
    DP_PACKET_BATCH_FOR_EACH (i, p, batch) {
        if (dp_packet_size(p) > cutlen) {
            dp_packet_set_size(p, cutlen);
        }
    }
}

/* Whether some packet of BATCH is longer than CUTLEN. */
static bool
batch_exceeds(const struct dp_packet_batch *batch, uint32_t cutlen)
{
    for (size_t i = 0; i < batch->count; i++) {
        if (dp_packet_size(batch->packets[i]) > cutlen) {
            return true;
        }
    }
    return false;
}

/* The actions, with CUTLEN (0: none) the length a trunc action before
 * them cut the packets to for their first output.  A trunc does not
 * change the packets themselves: the output, userspace action or tunnel
 * push that comes next sends them cut (copies, unless it may steal them),
 * and what follows that sees them whole again, as in 3.1.  A clone in
 * between passes the cut on to its copies. */
/* Symmetric: a connection's two directions hash alike, because each
 * pair (addresses, ports) is folded with XOR before it is hashed. */
static uint32_t
hash_symmetric_l4(const struct flow *f, uint32_t basis)
{
    uint32_t h = basis;
    if (f->dl_type == htons(ETH_TYPE_IP)) {
        h = hash_add(h, (uint32_t) (f->nw_src ^ f->nw_dst));
    } else if (f->dl_type == htons(ETH_TYPE_IPV6)) {
        for (int i = 0; i < 16; i += 4) {
            uint32_t s, d;
            memcpy(&s, &f->ipv6_src.s6_addr[i], 4);
            memcpy(&d, &f->ipv6_dst.s6_addr[i], 4);
            h = hash_add(h, s ^ d);
        }
    } else {
        return hash_finish(h, 0);
    }
    h = hash_add(h, f->nw_proto);
    if (f->nw_proto == IPPROTO_TCP || f->nw_proto == IPPROTO_UDP
        || f->nw_proto == IPPROTO_SCTP) {
        h = hash_add(h, (uint32_t) (f->tp_src ^ f->tp_dst));
    }
    return hash_finish(h, 12);
}

uint32_t
odp_execute_hash(struct dp_packet *p, uint32_t alg, uint32_t basis)
{
    struct flow flow;
    flow_extract(p, &flow);
    if (alg == ODP_HASH_ALG_SYM_L4) {
        return hash_symmetric_l4(&flow, basis);
    }
    /* As 3.1: the packet's flow hash (the one the datapath computed on
     * receive, cached in the packet) mixed with the basis. */
    return hash_int(dp_packet_flow_hash(p, &flow), basis);
}

struct odp_execute_rest {
    void *aux;
    const struct nlattr *actions;   /* After the ct action. */
    size_t actions_len;
    odp_execute_cb *dp_execute;
    uint32_t cutlen;                /* A trunc before ct still pending. */
};

static void
execute_actions__(void *aux, struct dp_packet_batch *batch, bool steal,
                  const struct nlattr *actions, size_t actions_len,
                  odp_execute_cb *dp_execute, uint32_t cutlen)
{
    const struct nlattr *a;
    size_t left;
    struct dp_packet *p;

    NL_ATTR_FOR_EACH (a, left, actions, actions_len) {
        uint16_t type = nl_attr_type(a);
        bool last = is_last_action(a, left);

        switch (type) {
        case OVS_ACTION_ATTR_TRUNC:
            if (nl_attr_get_size(a) == sizeof(struct ovs_action_trunc)) {
                const struct ovs_action_trunc *t = nl_attr_get(a);
                cutlen = t->max_len;
            }
            break;
        case OVS_ACTION_ATTR_HASH:
            if (nl_attr_get_size(a) == sizeof(struct ovs_action_hash)) {
                const struct ovs_action_hash *h = nl_attr_get(a);
                DP_PACKET_BATCH_FOR_EACH (i, p, batch) {
                    p->md.dp_hash = odp_execute_hash(p, h->hash_alg,
                                                     h->hash_basis);
                }
            }
            break;
        case OVS_ACTION_ATTR_SET:
        case OVS_ACTION_ATTR_SET_MASKED: {
            const struct nlattr *key = nl_attr_get(a);
            if (!nl_attr_is_whole(key, nl_attr_get_size(a))) {
                break;
            }
            DP_PACKET_BATCH_FOR_EACH (i, p, batch) {
                odp_execute_set(p, key, type == OVS_ACTION_ATTR_SET_MASKED);
            }
            break;
        }
        case OVS_ACTION_ATTR_PUSH_VLAN:
            if (nl_attr_get_size(a) == sizeof(struct ovs_action_push_vlan)) {
                const struct ovs_action_push_vlan *pv = nl_attr_get(a);
                DP_PACKET_BATCH_FOR_EACH (i, p, batch) {
                    odp_execute_push_vlan(p, pv->vlan_tpid, pv->vlan_tci);
                }
            }
            break;
        case OVS_ACTION_ATTR_POP_VLAN:
            DP_PACKET_BATCH_FOR_EACH (i, p, batch) {
                odp_execute_pop_vlan(p);
            }
            break;
        case OVS_ACTION_ATTR_PUSH_ETH:
            if (nl_attr_get_size(a) == sizeof(struct ovs_action_push_eth)) {
                const struct ovs_action_push_eth *pe = nl_attr_get(a);
                DP_PACKET_BATCH_FOR_EACH (i, p, batch) {
                    odp_execute_push_eth(p, pe->addresses.eth_src,
                                         pe->addresses.eth_dst);
                }
            }
            break;
        case OVS_ACTION_ATTR_POP_ETH:
            DP_PACKET_BATCH_FOR_EACH (i, p, batch) {
                odp_execute_pop_eth(p);
            }
            break;
        case OVS_ACTION_ATTR_PUSH_MPLS:
            if (nl_attr_get_size(a) == sizeof(struct ovs_action_push_mpls)) {
                const struct ovs_action_push_mpls *pm = nl_attr_get(a);
                DP_PACKET_BATCH_FOR_EACH (i, p, batch) {
                    odp_execute_push_mpls(p, pm->mpls_ethertype,
                                          pm->mpls_lse);
                }
            }
            break;
        case OVS_ACTION_ATTR_POP_MPLS:
            if (nl_attr_get_size(a) == sizeof(ovs_be16)) {
                ovs_be16 eth_type = nl_attr_get_be16(a);
                DP_PACKET_BATCH_FOR_EACH (i, p, batch) {
                    odp_execute_pop_mpls(p, eth_type);
                }
            }
            break;
        case OVS_ACTION_ATTR_TUNNEL_PUSH:
            /* The packets get the header in place; the actions after it
             * say where they go (out_port only names the route's device,
             * as in 3.1). */
            if (nl_attr_get_size(a) >= TNL_PUSH_ACTION_FIXED) {
                const struct tnl_push_action *data = nl_attr_get(a);
                if (data->header_len
                    == nl_attr_get_size(a) - TNL_PUSH_ACTION_FIXED) {
                    if (cutlen) {
                        /* The push changes the packets in place anyway. */
                        truncate_batch(batch, cutlen);
                        cutlen = 0;
                    }
                    DP_PACKET_BATCH_FOR_EACH (i, p, batch) {
                        tnl_header_push(p, data);
                    }
                }
            }
            break;
        case OVS_ACTION_ATTR_SAMPLE:
            execute_sample(aux, batch, a, dp_execute);
            break;
        case OVS_ACTION_ATTR_CLONE:
            if (last && steal) {
                /* Nothing follows: the originals may be the copies. */
                execute_actions__(aux, batch, true, nl_attr_get(a),
                                  nl_attr_get_size(a), dp_execute, cutlen);
                return;
            }
            struct dp_packet_batch copies;
            dp_packet_batch_clone(&copies, batch);
            execute_actions__(aux, &copies, true, nl_attr_get(a),
                              nl_attr_get_size(a), dp_execute, cutlen);
            cutlen = 0;
            break;
        case ODP_ACTION_ATTR_DROP:
            if (nl_attr_get_size(a) == 4) {
                count_drops(nl_attr_get_u32(a), dp_packet_batch_size(batch));
                /* Nothing after it sees the packets (stolen ones are
                 * freed below; the caller keeps the others). */
                goto done;
            }
            break;
        case OVS_ACTION_ATTR_METER:
            /* The datapath takes the packets over the rate out of the
             * batch; stolen ones are ours to free. */
            if (dp_execute && nl_attr_get_size(a) == 4) {
                struct dp_packet_batch before = *batch;
                dp_execute(aux, batch, a, false, NULL);
                if (steal) {
                    delete_dropped(&before, batch);
                }
            }
            break;
        case OVS_ACTION_ATTR_CT:
            /* The datapath's (odp-execute.h): packets it takes out are
             * its own when stealing, packets it makes it runs through the
             * rest itself. */
            if (dp_execute) {
                size_t a_len = NLA_ALIGN(a->nla_len);
                struct odp_execute_rest rest = {
                    .aux = aux,
                    .actions = (const struct nlattr *)
                               ((const char *) a + MIN(a_len, left)),
                    .actions_len = left > a_len ? left - a_len : 0,
                    .dp_execute = dp_execute,
                    .cutlen = cutlen,
                };
                dp_execute(aux, batch, a, steal, &rest);
            }
            break;
        default:
            /* Output, userspace, recirc: the datapath's. */
            if (dp_execute) {
                bool should_steal = steal && last;
                if (cutlen && (type == OVS_ACTION_ATTR_OUTPUT
                               || type == OVS_ACTION_ATTR_USERSPACE)) {
                    uint32_t len = cutlen;
                    cutlen = 0;
                    if (should_steal) {
                        truncate_batch(batch, len);
                    } else if (batch_exceeds(batch, len)) {
                        struct dp_packet_batch cut;
                        dp_packet_batch_clone(&cut, batch);
                        truncate_batch(&cut, len);
                        dp_execute(aux, &cut, a, true, NULL);
                        break;
                    }
                }
                dp_execute(aux, batch, a, should_steal, NULL);
                if (should_steal) {
                    return;
                }
            }
            break;
        }
    }
done:
    if (steal) {
        dp_packet_batch_delete(batch);
    }
}

void
odp_execute_rest(const struct odp_execute_rest *rest,
                 struct dp_packet_batch *batch)
{
    execute_actions__(rest->aux, batch, true, rest->actions,
                      rest->actions_len, rest->dp_execute, rest->cutlen);
    dp_packet_batch_init(batch);
}

void
odp_execute_actions(void *aux, struct dp_packet_batch *batch, bool steal,
                    const struct nlattr *actions, size_t actions_len,
                    odp_execute_cb *dp_execute)
{
    execute_actions__(aux, batch, steal, actions, actions_len, dp_execute,
                      0);
}
