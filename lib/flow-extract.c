#include <config.h>
#include "flow-extract.h"

#include <arpa/inet.h>
#include <string.h>
#include "coverage.h"
#include "csum.h"
#include "dp-packet.h"
#include "flow.h"
#include "hash.h"
#include "mpls.h"
#include "packets.h"

COVERAGE_DEFINE(flow_extract);
COVERAGE_DEFINE(flow_extract_short_l2);
COVERAGE_DEFINE(flow_extract_bad_arp);
COVERAGE_DEFINE(flow_extract_bad_ipv4);
COVERAGE_DEFINE(flow_extract_bad_ipv6);
COVERAGE_DEFINE(flow_extract_bad_ipv6_ext);
COVERAGE_DEFINE(flow_extract_bad_l4);
COVERAGE_DEFINE(flow_extract_bad_nd);

/* A read cursor over [DATA + ofs, DATA + end): every header is taken
 * through cursor_take(), which refuses to go past END, so no length field
 * in the packet can make the parser read beyond the frame. */
struct cursor {
    const uint8_t *data;
    size_t ofs;
    size_t end;
};

static const void *
cursor_at(const struct cursor *c, size_t size)
{
    return size <= c->end - c->ofs ? c->data + c->ofs : NULL;
}

static const void *
cursor_take(struct cursor *c, size_t size)
{
    const void *p = cursor_at(c, size);
    if (p) {
        c->ofs += size;
    }
    return p;
}

static size_t
cursor_left(const struct cursor *c)
{
    return c->end - c->ofs;
}

static void
metadata_to_flow(const struct pkt_metadata *md, struct flow *flow)
{
    flow->tunnel = md->tunnel;
    if (md->tunnel.flags & FLOW_TNL_F_UDPIF) {
        size_t len = MIN(md->tun_opts_len, sizeof md->tun_opts);
        flow->tun_metadata.present = len;
        memcpy(flow->tun_metadata.opts, md->tun_opts, len);
    }
    flow->skb_priority = md->skb_priority;
    flow->pkt_mark = md->pkt_mark;
    flow->dp_hash = md->dp_hash;
    flow->in_port = md->in_port;
    flow->recirc_id = md->recirc_id;
    flow->packet_type = md->packet_type;
    flow->ct_state = md->ct_state;
    if (md->ct_state) {
        flow->ct_zone = md->ct_zone;
        flow->ct_mark = md->ct_mark;
        memcpy(flow->ct_label, md->ct_label, sizeof flow->ct_label);
        flow->ct_nw_proto = md->ct_nw_proto;
        if (md->ct_orig_ipv6) {
            flow->ct_ipv6_src = md->ct_ipv6_src;
            flow->ct_ipv6_dst = md->ct_ipv6_dst;
        } else {
            flow->ct_nw_src = md->ct_nw_src;
            flow->ct_nw_dst = md->ct_nw_dst;
        }
        flow->ct_tp_src = md->ct_tp_src;
        flow->ct_tp_dst = md->ct_tp_dst;
    }
}

/* The reverse of metadata_to_flow() for the connection tracking fields:
 * a packet composed from FLOW (or an upcall's packet, whose metadata the
 * key carries) continues in the same tracking state. */
void
flow_ct_to_metadata(const struct flow *flow, struct pkt_metadata *md)
{
    md->ct_state = flow->ct_state;
    if (!flow->ct_state) {
        return;
    }
    md->ct_zone = flow->ct_zone;
    md->ct_mark = flow->ct_mark;
    memcpy(md->ct_label, flow->ct_label, sizeof md->ct_label);
    md->ct_nw_proto = flow->ct_nw_proto;
    md->ct_orig_ipv6 = flow->dl_type == htons(ETH_TYPE_IPV6);
    md->ct_nw_src = flow->ct_nw_src;
    md->ct_nw_dst = flow->ct_nw_dst;
    md->ct_ipv6_src = flow->ct_ipv6_src;
    md->ct_ipv6_dst = flow->ct_ipv6_dst;
    md->ct_tp_src = flow->ct_tp_src;
    md->ct_tp_dst = flow->ct_tp_dst;
}

/* Ethernet type after the MAC addresses: a type, or the SNAP type of an
 * 802.3 frame, or FLOW_DL_TYPE_NONE.  Returns false if truncated. */
static bool
parse_ethertype(struct cursor *c, ovs_be16 *dl_type)
{
    const ovs_be16 *type = cursor_take(c, sizeof *type);
    if (!type) {
        return false;
    }
    if (ntohs(*type) >= ETH_TYPE_MIN) {
        *dl_type = *type;
        return true;
    }

    /* 802.3: the type comes from a SNAP header, if there is one. */
    const struct llc_snap_header *llc = cursor_at(c, LLC_SNAP_HEADER_LEN);
    if (llc && llc->llc_dsap == LLC_DSAP_SNAP
        && llc->llc_ssap == LLC_SSAP_SNAP
        && llc->llc_cntl == LLC_CNTL_SNAP
        && !llc->snap_org[0] && !llc->snap_org[1] && !llc->snap_org[2]) {
        cursor_take(c, LLC_SNAP_HEADER_LEN);
        *dl_type = llc->snap_type;
    } else {
        /* Not SNAP: the LLC header (or what there is) is payload. */
        *dl_type = htons(FLOW_DL_TYPE_NONE);
    }
    return true;
}

static bool
is_vlan_tpid(ovs_be16 type)
{
    return (type == htons(ETH_TYPE_VLAN_8021Q)
            || type == htons(ETH_TYPE_VLAN_8021AD));
}

static unsigned int
parse_arp(struct cursor *c, struct flow *flow)
{
    const struct arp_eth_header *arp = cursor_take(c, ARP_ETH_HEADER_LEN);
    if (!arp) {
        COVERAGE_INC(flow_extract_bad_arp);
        return FLOW_EXTRACT_BAD_L3;
    }
    if (arp->ar_hrd != htons(ARP_HTYPE_ETH)
        || arp->ar_pro != htons(ETH_TYPE_IP)
        || arp->ar_hln != ETH_ADDR_LEN || arp->ar_pln != 4) {
        /* Some other ARP: nothing to match on, but nothing wrong. */
        return 0;
    }
    uint16_t op = ntohs(arp->ar_op);
    flow->nw_proto = op <= 0xff ? op : 0;
    flow->nw_src = arp->ar_spa;
    flow->nw_dst = arp->ar_tpa;
    flow->arp_sha = arp->ar_sha;
    flow->arp_tha = arp->ar_tha;
    return 0;
}

/* The ND fields of an NS or NA (code 0) at C, which starts at the ICMPv6
 * header.  Leaves the ND fields zero if anything is malformed. */
static unsigned int
parse_nd(struct cursor *c, struct flow *flow)
{
    const struct nd_msg *nd = cursor_take(c, ND_MSG_LEN);
    if (!nd) {
        COVERAGE_INC(flow_extract_bad_nd);
        return FLOW_EXTRACT_BAD_ND;
    }
    struct in6_addr target = nd->target;
    struct eth_addr sll = { { 0 } }, tll = { { 0 } };
    bool have_sll = false, have_tll = false;

    while (cursor_left(c) > 0) {
        const struct nd_lla_opt *opt = cursor_at(c, 2);
        size_t opt_len = opt ? opt->len * 8 : 0;
        if (!opt || !opt_len || !cursor_at(c, opt_len)) {
            goto invalid;
        }
        if (opt->type == ND_OPT_SOURCE_LINKADDR && opt_len == 8
            && nd->icmp_type == ND_NEIGHBOR_SOLICIT) {
            if (have_sll) {
                goto invalid;
            }
            sll = opt->mac;
            have_sll = true;
        } else if (opt->type == ND_OPT_TARGET_LINKADDR && opt_len == 8
                   && nd->icmp_type == ND_NEIGHBOR_ADVERT) {
            if (have_tll) {
                goto invalid;
            }
            tll = opt->mac;
            have_tll = true;
        }
        cursor_take(c, opt_len);
    }
    flow->nd_target = target;
    flow->arp_sha = sll;
    flow->arp_tha = tll;
    return 0;

invalid:
    COVERAGE_INC(flow_extract_bad_nd);
    return FLOW_EXTRACT_BAD_ND;
}

/* L4 at C for protocol FLOW->nw_proto; SEGMENT_START is where it starts.
 * IS_IPV6 selects ICMPv6 over ICMP. */
static unsigned int
parse_l4(struct cursor *c, struct dp_packet *packet, struct flow *flow,
         bool is_ipv6)
{
    size_t l4_ofs = c->ofs;
    size_t payload_ofs;
    uint8_t proto = flow->nw_proto;

    if (proto == IPPROTO_TCP) {
        const struct tcp_header *tcp = cursor_at(c, TCP_HEADER_LEN);
        if (!tcp) {
            goto bad;
        }
        uint16_t ctl = ntohs(tcp->tcp_ctl);
        size_t hdr_len = TCP_OFFSET(ctl) * 4;
        if (hdr_len < TCP_HEADER_LEN || !cursor_take(c, hdr_len)) {
            goto bad;
        }
        flow->tp_src = tcp->tcp_src;
        flow->tp_dst = tcp->tcp_dst;
        flow->tcp_flags = htons(ctl & TCP_FLAGS_MASK);
    } else if (proto == IPPROTO_UDP || proto == IPPROTO_UDPLITE) {
        const struct udp_header *udp = cursor_take(c, UDP_HEADER_LEN);
        if (!udp) {
            goto bad;
        }
        flow->tp_src = udp->udp_src;
        flow->tp_dst = udp->udp_dst;
    } else if (proto == IPPROTO_SCTP) {
        const struct sctp_header *sctp = cursor_take(c, SCTP_HEADER_LEN);
        if (!sctp) {
            goto bad;
        }
        flow->tp_src = sctp->sctp_src;
        flow->tp_dst = sctp->sctp_dst;
    } else if (proto == IPPROTO_ICMP && !is_ipv6) {
        const struct icmp_header *icmp = cursor_at(c, 4);
        if (!icmp) {
            goto bad;
        }
        flow->tp_src = htons(icmp->icmp_type);
        flow->tp_dst = htons(icmp->icmp_code);
        cursor_take(c, MIN(ICMP_HEADER_LEN, cursor_left(c)));
    } else if (proto == IPPROTO_IGMP && !is_ipv6) {
        const struct igmp_header *igmp = cursor_take(c, IGMP_HEADER_LEN);
        if (!igmp) {
            goto bad;
        }
        flow->tp_src = htons(igmp->igmp_type);
        flow->tp_dst = htons(igmp->igmp_code);
        flow->igmp_group_ip4 = igmp->group;
    } else if (proto == IPPROTO_ICMPV6 && is_ipv6) {
        const struct icmp_header *icmp = cursor_at(c, 4);
        if (!icmp) {
            goto bad;
        }
        flow->tp_src = htons(icmp->icmp_type);
        flow->tp_dst = htons(icmp->icmp_code);
        unsigned int problems = 0;
        if (!icmp->icmp_code
            && (icmp->icmp_type == ND_NEIGHBOR_SOLICIT
                || icmp->icmp_type == ND_NEIGHBOR_ADVERT)) {
            struct cursor nd = *c;
            problems = parse_nd(&nd, flow);
        }
        cursor_take(c, MIN(ICMP_HEADER_LEN, cursor_left(c)));
        packet->l4_ofs = l4_ofs;
        packet->payload_ofs = c->ofs;
        return problems;
    } else {
        /* A protocol we do not look into: no L4 offset. */
        return 0;
    }
    payload_ofs = c->ofs;
    packet->l4_ofs = l4_ofs;
    packet->payload_ofs = payload_ofs;
    return 0;

bad:
    COVERAGE_INC(flow_extract_bad_l4);
    return FLOW_EXTRACT_BAD_L4;
}

/* An MPLS label stack at C: the flow keeps its first FLOW_MAX_MPLS_LABELS
 * entries.  Nothing under the stack is parsed, but its start is recorded
 * as the L3 offset once the bottom entry is found (pop_mpls then leaves
 * the packet with its L3 header located).  A stack cut short by the end
 * of the frame keeps the entries that are whole. */
static void
parse_mpls(struct cursor *c, struct dp_packet *packet, struct flow *flow)
{
    for (int i = 0; ; i++) {
        const ovs_be32 *lse = cursor_take(c, MPLS_HLEN);
        if (!lse) {
            return;
        }
        ovs_be32 value;
        memcpy(&value, lse, sizeof value);
        if (i < FLOW_MAX_MPLS_LABELS) {
            flow->mpls_lse[i] = value;
        }
        if (mpls_lse_bos(value)) {
            packet->l3_ofs = c->ofs;
            return;
        }
    }
}

static unsigned int
parse_ipv4(struct cursor *c, struct dp_packet *packet, struct flow *flow)
{
    const struct ip_header *ip = cursor_at(c, IP_HEADER_LEN);
    if (!ip || IP_VERSION(ip->ip_ihl_ver) != 4) {
        goto bad;
    }
    size_t hdr_len = IP_IHL(ip->ip_ihl_ver) * 4;
    size_t tot_len = ntohs(ip->ip_tot_len);
    if (hdr_len < IP_HEADER_LEN || hdr_len > cursor_left(c)
        || tot_len < hdr_len || tot_len > cursor_left(c)) {
        goto bad;
    }
    /* Anything past the IP total length is Ethernet padding. */
    c->end = c->ofs + tot_len;
    c->ofs += hdr_len;

    packet->l3_ofs = (const uint8_t *) ip - c->data;
    flow->nw_src = ip->ip_src;
    flow->nw_dst = ip->ip_dst;
    flow->nw_tos = ip->ip_tos;
    flow->nw_ttl = ip->ip_ttl;
    flow->nw_proto = ip->ip_proto;

    uint16_t frag = ntohs(ip->ip_frag_off);
    if (frag & (IP_MORE_FRAGMENTS | IP_FRAG_OFF_MASK)) {
        flow->nw_frag = FLOW_NW_FRAG_ANY;
        if (frag & IP_FRAG_OFF_MASK) {
            flow->nw_frag |= FLOW_NW_FRAG_LATER;
            return 0;
        }
    }
    return parse_l4(c, packet, flow, false);

bad:
    COVERAGE_INC(flow_extract_bad_ipv4);
    return FLOW_EXTRACT_BAD_L3;
}

/* Walks IPv6 extension headers from *NEXT_HEADER, leaving *NEXT_HEADER at
 * the upper-layer protocol.  Returns problem bits; sets *STOP when the
 * upper layer must not be parsed (a later fragment, or bad headers). */
static unsigned int
parse_ipv6_ext(struct cursor *c, uint8_t *next_header, struct flow *flow,
               bool *stop)
{
    for (;;) {
        uint8_t nh = *next_header;
        if (nh == IPPROTO_HOPOPTS_ || nh == IPPROTO_ROUTING_
            || nh == IPPROTO_DSTOPTS_ || nh == IPPROTO_AH_) {
            const struct ipv6_ext_header *ext = cursor_at(c, 8);
            if (!ext) {
                goto bad;
            }
            size_t len = (nh == IPPROTO_AH_ ? (ext->ip6e_len + 2) * 4
                          : (ext->ip6e_len + 1) * 8);
            if (!cursor_take(c, len)) {
                goto bad;
            }
            *next_header = ext->ip6e_nxt;
        } else if (nh == IPPROTO_FRAGMENT_) {
            const struct ipv6_frag_header *frag
                = cursor_take(c, IPV6_FRAG_HEADER_LEN);
            if (!frag) {
                goto bad;
            }
            *next_header = frag->ip6f_nxt;
            uint16_t offlg = ntohs(frag->ip6f_offlg);
            if (offlg & IPV6_FRAG_OFF_MASK) {
                flow->nw_frag = FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER;
                *stop = true;
                return 0;
            } else if (offlg & IPV6_FRAG_MORE) {
                flow->nw_frag = FLOW_NW_FRAG_ANY;
            }
        } else {
            return 0;
        }
    }

bad:
    COVERAGE_INC(flow_extract_bad_ipv6_ext);
    *stop = true;
    return FLOW_EXTRACT_BAD_IPV6_EXT;
}

static unsigned int
parse_ipv6(struct cursor *c, struct dp_packet *packet, struct flow *flow)
{
    const struct ipv6_header *ip6 = cursor_at(c, IPV6_HEADER_LEN);
    if (!ip6 || (ntohl(ip6->ip6_vtc_flow) >> 28) != 6) {
        goto bad;
    }
    size_t plen = ntohs(ip6->ip6_plen);
    if (plen > cursor_left(c) - IPV6_HEADER_LEN) {
        goto bad;
    }
    c->end = c->ofs + IPV6_HEADER_LEN + plen;
    packet->l3_ofs = c->ofs;
    c->ofs += IPV6_HEADER_LEN;

    uint32_t vtc_flow = ntohl(ip6->ip6_vtc_flow);
    flow->ipv6_src = ip6->ip6_src;
    flow->ipv6_dst = ip6->ip6_dst;
    flow->ipv6_label = htonl(vtc_flow & IPV6_LABEL_MASK);
    flow->nw_tos = (vtc_flow >> 20) & 0xff;
    flow->nw_ttl = ip6->ip6_hlim;

    uint8_t next_header = ip6->ip6_nxt;
    bool stop = false;
    unsigned int problems = parse_ipv6_ext(c, &next_header, flow, &stop);
    if (problems) {
        /* As in 3.1, only the addresses survive bad extension headers: a
         * flow that reads protocol, traffic class or hop limit must not
         * match a packet whose headers do not say them. */
        flow->ipv6_label = 0;
        flow->nw_tos = flow->nw_ttl = flow->nw_frag = 0;
        return problems;
    }
    flow->nw_proto = next_header;
    if (stop) {
        return problems;
    }
    return problems | parse_l4(c, packet, flow, true);

bad:
    COVERAGE_INC(flow_extract_bad_ipv6);
    return FLOW_EXTRACT_BAD_L3;
}

unsigned int
flow_extract(struct dp_packet *packet, struct flow *flow)
{
    struct cursor c = { dp_packet_data(packet), 0, dp_packet_size(packet) };
    unsigned int problems = 0;

    COVERAGE_INC(flow_extract);
    memset(flow, 0, sizeof *flow);
    metadata_to_flow(&packet->md, flow);
    packet->l2_5_ofs = DP_PACKET_OFS_NONE;
    packet->l3_ofs = DP_PACKET_OFS_NONE;
    packet->l4_ofs = DP_PACKET_OFS_NONE;
    packet->payload_ofs = DP_PACKET_OFS_NONE;

    if (packet->md.packet_type != htonl(PT_ETH)) {
        /* No Ethernet header: an Ethertype packet type says what L3 is
         * there, any other leaves the packet unparsed. */
        if (pt_ns(packet->md.packet_type) != PT_NS_ETHERTYPE) {
            return 0;
        }
        flow->dl_type = htons(pt_ns_type(packet->md.packet_type));
        goto l3;
    }

    /* L2. */
    const struct eth_addr *macs = cursor_take(&c, 2 * ETH_ADDR_LEN);
    if (!macs) {
        goto short_l2;
    }
    flow->dl_dst = macs[0];
    flow->dl_src = macs[1];
    ovs_be16 dl_type;
    if (!parse_ethertype(&c, &dl_type)) {
        goto short_l2;
    }
    for (int i = 0; is_vlan_tpid(dl_type) && i < FLOW_MAX_VLAN_HEADERS; i++) {
        const struct vlan_header *vlan = cursor_at(&c, VLAN_HEADER_LEN);
        if (!vlan) {
            /* The TPID stays as dl_type: the tag itself is missing. */
            flow->dl_type = dl_type;
            goto short_l2;
        }
        if (!i) {
            packet->l2_5_ofs = c.ofs - 2;
        }
        cursor_take(&c, 2);
        flow->vlans[i].tpid = dl_type;
        flow->vlans[i].tci = vlan->vlan_tci | htons(VLAN_CFI);
        if (!parse_ethertype(&c, &dl_type)) {
            flow->dl_type = htons(FLOW_DL_TYPE_NONE);
            goto short_l2;
        }
    }
    flow->dl_type = dl_type;

    /* L3 and up. */
l3:;
    uint16_t type = ntohs(flow->dl_type);
    if (type == ETH_TYPE_IP) {
        problems |= parse_ipv4(&c, packet, flow);
    } else if (type == ETH_TYPE_IPV6) {
        problems |= parse_ipv6(&c, packet, flow);
    } else if (type == ETH_TYPE_ARP || type == ETH_TYPE_RARP) {
        packet->l3_ofs = c.ofs;
        problems |= parse_arp(&c, flow);
        if (problems) {
            packet->l3_ofs = DP_PACKET_OFS_NONE;
        }
    } else if (eth_type_mpls(flow->dl_type)) {
        parse_mpls(&c, packet, flow);
    }
    return problems;

short_l2:
    COVERAGE_INC(flow_extract_short_l2);
    return FLOW_EXTRACT_SHORT_L2;
}

uint32_t
flow_hash_5tuple(const struct flow *flow, uint32_t basis)
{
    uint32_t hash = basis;
    uint16_t type = ntohs(flow->dl_type);

    if (type == ETH_TYPE_IP) {
        hash = hash_add(hash, flow->nw_src);
        hash = hash_add(hash, flow->nw_dst);
    } else if (type == ETH_TYPE_IPV6) {
        const uint32_t *s = (const uint32_t *) &flow->ipv6_src;
        const uint32_t *d = (const uint32_t *) &flow->ipv6_dst;
        for (int i = 0; i < 4; i++) {
            hash = hash_add(hash, s[i]);
            hash = hash_add(hash, d[i]);
        }
    } else {
        uint32_t macs[3];
        memcpy(macs, &flow->dl_dst, 6);
        memcpy((uint8_t *) macs + 6, &flow->dl_src, 6);
        for (int i = 0; i < 3; i++) {
            hash = hash_add(hash, macs[i]);
        }
        hash = hash_add(hash, flow->dl_type);
        return hash_finish(hash, 14);
    }
    hash = hash_add(hash, flow->nw_proto);
    hash = hash_add(hash, ((uint32_t) flow->tp_src << 16) | flow->tp_dst);
    return hash_finish(hash, 42);
}

uint32_t
dp_packet_flow_hash(struct dp_packet *packet, const struct flow *flow)
{
    if (!dp_packet_hash_valid(packet)) {
        dp_packet_set_hash(packet, flow_hash_5tuple(flow, 0));
    }
    return packet->hash;
}

/* Composing. */

/* What the payload of a composed packet holds. */
enum payload_fill {
    PAYLOAD_COUNTING,           /* 0, 1, 2, ... */
    PAYLOAD_ZEROS,
};

static void
put_payload(struct dp_packet *p, size_t n, enum payload_fill fill)
{
    uint8_t *b = dp_packet_put_uninit(p, n);
    for (size_t i = 0; i < n; i++) {
        b[i] = fill == PAYLOAD_COUNTING ? i : 0;
    }
}

/* Writes the L4 header for FLOW and L7_LEN bytes of payload; returns the
 * L4 length.  The checksum is left for the caller (it needs L3). */
static size_t
compose_l4(struct dp_packet *p, const struct flow *flow, size_t l7_len,
           enum payload_fill fill, bool is_ipv6)
{
    size_t l4_ofs = dp_packet_size(p);
    uint8_t proto = flow->nw_proto;

    p->l4_ofs = l4_ofs;
    if (proto == IPPROTO_TCP) {
        struct tcp_header *tcp = dp_packet_put_zeros(p, TCP_HEADER_LEN);
        tcp->tcp_src = flow->tp_src;
        tcp->tcp_dst = flow->tp_dst;
        tcp->tcp_ctl = htons((5 << 12) | (ntohs(flow->tcp_flags)
                                          & TCP_FLAGS_MASK));
    } else if (proto == IPPROTO_UDP) {
        struct udp_header *udp = dp_packet_put_zeros(p, UDP_HEADER_LEN);
        udp->udp_src = flow->tp_src;
        udp->udp_dst = flow->tp_dst;
        udp->udp_len = htons(UDP_HEADER_LEN + l7_len);
    } else if (proto == IPPROTO_SCTP) {
        struct sctp_header *sctp = dp_packet_put_zeros(p, SCTP_HEADER_LEN);
        sctp->sctp_src = flow->tp_src;
        sctp->sctp_dst = flow->tp_dst;
    } else if (proto == IPPROTO_ICMP && !is_ipv6) {
        struct icmp_header *icmp = dp_packet_put_zeros(p, ICMP_HEADER_LEN);
        icmp->icmp_type = ntohs(flow->tp_src);
        icmp->icmp_code = ntohs(flow->tp_dst);
    } else if (proto == IPPROTO_IGMP && !is_ipv6) {
        struct igmp_header *igmp = dp_packet_put_zeros(p, IGMP_HEADER_LEN);
        igmp->igmp_type = ntohs(flow->tp_src);
        igmp->igmp_code = ntohs(flow->tp_dst);
        igmp->group = flow->igmp_group_ip4;
    } else if (proto == IPPROTO_ICMPV6 && is_ipv6) {
        uint8_t type = ntohs(flow->tp_src), code = ntohs(flow->tp_dst);
        if (!code && (type == ND_NEIGHBOR_SOLICIT
                      || type == ND_NEIGHBOR_ADVERT)) {
            struct nd_msg *nd = dp_packet_put_zeros(p, ND_MSG_LEN);
            nd->icmp_type = type;
            nd->target = flow->nd_target;
            const struct eth_addr *lla = NULL;
            uint8_t opt_type = 0;
            if (type == ND_NEIGHBOR_SOLICIT
                && !eth_addr_is_zero(flow->arp_sha)) {
                lla = &flow->arp_sha;
                opt_type = ND_OPT_SOURCE_LINKADDR;
            } else if (type == ND_NEIGHBOR_ADVERT
                       && !eth_addr_is_zero(flow->arp_tha)) {
                lla = &flow->arp_tha;
                opt_type = ND_OPT_TARGET_LINKADDR;
            }
            if (lla) {
                struct nd_lla_opt *opt = dp_packet_put_zeros(p, sizeof *opt);
                opt->type = opt_type;
                opt->len = 1;
                opt->mac = *lla;
            }
            /* ND messages carry no payload after their options. */
            l7_len = 0;
        } else {
            struct icmp_header *icmp = dp_packet_put_zeros(p,
                                                           ICMP_HEADER_LEN);
            icmp->icmp_type = type;
            icmp->icmp_code = code;
        }
    } else {
        p->l4_ofs = DP_PACKET_OFS_NONE;
        put_payload(p, l7_len, fill);
        return dp_packet_size(p) - l4_ofs;
    }
    p->payload_ofs = dp_packet_size(p);
    put_payload(p, l7_len, fill);
    return dp_packet_size(p) - l4_ofs;
}

/* Fills in the L4 checksum now that the pseudo-header sum is known. */
static void
finish_l4_csum(struct dp_packet *p, uint8_t proto, uint32_t pseudo,
               bool is_ipv6)
{
    uint8_t *l4 = dp_packet_l4(p);
    size_t l4_len = dp_packet_l4_size(p);
    if (!l4) {
        return;
    }
    if (proto == IPPROTO_TCP) {
        struct tcp_header *tcp = (struct tcp_header *) l4;
        tcp->tcp_csum = csum_finish(csum_continue(pseudo, l4, l4_len));
    } else if (proto == IPPROTO_UDP) {
        struct udp_header *udp = (struct udp_header *) l4;
        udp->udp_csum = csum_finish(csum_continue(pseudo, l4, l4_len));
        if (!udp->udp_csum) {
            udp->udp_csum = htons(0xffff);
        }
    } else if (proto == IPPROTO_SCTP) {
        struct sctp_header *sctp = (struct sctp_header *) l4;
        sctp->sctp_csum = crc32c(l4, l4_len);
    } else if ((proto == IPPROTO_ICMP || proto == IPPROTO_IGMP)
               && !is_ipv6) {
        struct icmp_header *icmp = (struct icmp_header *) l4;
        icmp->icmp_csum = csum(l4, l4_len);
    } else if (proto == IPPROTO_ICMPV6 && is_ipv6) {
        struct icmp_header *icmp = (struct icmp_header *) l4;
        icmp->icmp_csum = csum_finish(csum_continue(pseudo, l4, l4_len));
    }
}

static void
compose_ipv4(struct dp_packet *p, const struct flow *flow, size_t l7_len,
             enum payload_fill fill)
{
    size_t l3_ofs = dp_packet_size(p);
    struct ip_header *ip = dp_packet_put_zeros(p, IP_HEADER_LEN);
    ip->ip_ihl_ver = 0x45;
    ip->ip_tos = flow->nw_tos;
    ip->ip_ttl = flow->nw_ttl;
    ip->ip_proto = flow->nw_proto;
    ip->ip_src = flow->nw_src;
    ip->ip_dst = flow->nw_dst;
    if (flow->nw_frag & FLOW_NW_FRAG_LATER) {
        ip->ip_frag_off = htons(100);          /* 800 bytes in. */
    } else if (flow->nw_frag & FLOW_NW_FRAG_ANY) {
        ip->ip_frag_off = htons(IP_MORE_FRAGMENTS);
    }
    p->l3_ofs = l3_ofs;

    size_t l4_len;
    if (flow->nw_frag & FLOW_NW_FRAG_LATER) {
        put_payload(p, l7_len, fill);
        l4_len = l7_len;
    } else {
        l4_len = compose_l4(p, flow, l7_len, fill, false);
    }
    ip = dp_packet_l3(p);           /* The buffer may have moved. */
    ip->ip_tot_len = htons(IP_HEADER_LEN + l4_len);
    ip->ip_csum = csum(ip, IP_HEADER_LEN);
    finish_l4_csum(p, flow->nw_proto,
                   csum_pseudo_ipv4(ip->ip_src, ip->ip_dst, ip->ip_proto,
                                    l4_len), false);
}

static void
compose_ipv6(struct dp_packet *p, const struct flow *flow, size_t l7_len,
             enum payload_fill fill)
{
    size_t l3_ofs = dp_packet_size(p);
    struct ipv6_header *ip6 = dp_packet_put_zeros(p, IPV6_HEADER_LEN);
    ip6->ip6_vtc_flow = htonl((6u << 28) | ((uint32_t) flow->nw_tos << 20)
                              | (ntohl(flow->ipv6_label)
                                 & IPV6_LABEL_MASK));
    ip6->ip6_hlim = flow->nw_ttl;
    ip6->ip6_src = flow->ipv6_src;
    ip6->ip6_dst = flow->ipv6_dst;
    p->l3_ofs = l3_ofs;

    if (flow->nw_frag & FLOW_NW_FRAG_ANY) {
        ip6->ip6_nxt = IPPROTO_FRAGMENT_;
        struct ipv6_frag_header *frag
            = dp_packet_put_zeros(p, IPV6_FRAG_HEADER_LEN);
        frag->ip6f_nxt = flow->nw_proto;
        frag->ip6f_offlg = htons(flow->nw_frag & FLOW_NW_FRAG_LATER
                                 ? 100 << 3 : IPV6_FRAG_MORE);
        frag->ip6f_ident = htonl(1);
    } else {
        ip6->ip6_nxt = flow->nw_proto;
    }

    if (flow->nw_frag & FLOW_NW_FRAG_LATER) {
        put_payload(p, l7_len, fill);
    } else {
        compose_l4(p, flow, l7_len, fill, true);
    }
    ip6 = dp_packet_l3(p);
    ip6->ip6_plen = htons(dp_packet_size(p) - l3_ofs - IPV6_HEADER_LEN);
    if (!(flow->nw_frag & FLOW_NW_FRAG_LATER)) {
        finish_l4_csum(p, flow->nw_proto,
                       csum_pseudo_ipv6(&flow->ipv6_src, &flow->ipv6_dst,
                                        flow->nw_proto,
                                        dp_packet_l4_size(p)), true);
    }
}

static void
compose_arp(struct dp_packet *p, const struct flow *flow)
{
    p->l3_ofs = dp_packet_size(p);
    struct arp_eth_header *arp = dp_packet_put_zeros(p, ARP_ETH_HEADER_LEN);
    arp->ar_hrd = htons(ARP_HTYPE_ETH);
    arp->ar_pro = htons(ETH_TYPE_IP);
    arp->ar_hln = ETH_ADDR_LEN;
    arp->ar_pln = 4;
    arp->ar_op = htons(flow->nw_proto);
    arp->ar_sha = flow->arp_sha;
    arp->ar_spa = flow->nw_src;
    arp->ar_tha = flow->arp_tha;
    arp->ar_tpa = flow->nw_dst;
}

static void
flow_compose__(struct dp_packet *p, const struct flow *flow, size_t l7_len,
               enum payload_fill fill)
{
    dp_packet_clear(p, DP_PACKET_HEADROOM);
    p->md.in_port = flow->in_port;
    p->md.skb_priority = flow->skb_priority;
    p->md.pkt_mark = flow->pkt_mark;
    p->md.recirc_id = flow->recirc_id;
    p->md.dp_hash = flow->dp_hash;
    p->md.tunnel = flow->tunnel;
    if (flow->tunnel.flags & FLOW_TNL_F_UDPIF) {
        size_t len = MIN(flow->tun_metadata.present, sizeof p->md.tun_opts);
        p->md.tun_opts_len = len;
        memcpy(p->md.tun_opts, flow->tun_metadata.opts, len);
    }
    flow_ct_to_metadata(flow, &p->md);

    dp_packet_put(p, &flow->dl_dst, ETH_ADDR_LEN);
    dp_packet_put(p, &flow->dl_src, ETH_ADDR_LEN);
    for (int i = 0; i < FLOW_MAX_VLAN_HEADERS; i++) {
        if (!flow_vlan_present(&flow->vlans[i])) {
            break;
        }
        if (!i) {
            p->l2_5_ofs = dp_packet_size(p);
        }
        dp_packet_put(p, &flow->vlans[i].tpid, 2);
        ovs_be16 tci = flow->vlans[i].tci & ~htons(VLAN_CFI);
        dp_packet_put(p, &tci, 2);
    }

    uint16_t type = ntohs(flow->dl_type);
    if (type < ETH_TYPE_MIN) {
        /* No Ethernet type: an 802.3 header alone, its length field the
         * header's own length, as 3.1 composes it (so a packet made from
         * "in_port(1)" is 14 bytes). */
        ovs_be16 len = htons(dp_packet_size(p) + 2);
        dp_packet_put(p, &len, 2);
        return;
    }
    dp_packet_put(p, &flow->dl_type, 2);
    if (type == ETH_TYPE_IP) {
        compose_ipv4(p, flow, l7_len, fill);
    } else if (type == ETH_TYPE_IPV6) {
        compose_ipv6(p, flow, l7_len, fill);
    } else if (type == ETH_TYPE_ARP || type == ETH_TYPE_RARP) {
        compose_arp(p, flow);
    } else if (eth_type_mpls(flow->dl_type)) {
        /* The stack alone, as 3.1 composes it: nothing is known of what
         * is under it. */
        int n = flow_mpls_depth(flow, NULL);
        dp_packet_put(p, flow->mpls_lse, n * MPLS_HLEN);
        if (mpls_lse_bos(flow->mpls_lse[n - 1])) {
            p->l3_ofs = dp_packet_size(p);
        }
        put_payload(p, l7_len, fill);
    } else {
        put_payload(p, l7_len, fill);
    }
}

/* The payload Open vSwitch gives a packet it makes from FLOW (its dummy
 * device's packets, ofproto/trace -generate):
 * data for the protocols that carry it in a first packet, none for
 * connection control (SYN, FIN, RST) and ICMP errors. */
size_t
flow_compose_default_l7_len(const struct flow *flow)
{
    enum { DEFAULT_PAYLOAD = 64 };
    bool ip = flow->dl_type == htons(ETH_TYPE_IP);
    bool ipv6 = flow->dl_type == htons(ETH_TYPE_IPV6);

    if ((!ip && !ipv6) || flow->nw_frag & FLOW_NW_FRAG_LATER) {
        return 0;
    }
    uint16_t icmp_type = ntohs(flow->tp_src);
    switch (flow->nw_proto) {
    case IPPROTO_UDP:
        return DEFAULT_PAYLOAD;
    case IPPROTO_TCP:
        return (ntohs(flow->tcp_flags) & (TCP_SYN | TCP_FIN | TCP_RST)
                ? 0 : DEFAULT_PAYLOAD);
    case IPPROTO_ICMP:
        return (ip && (icmp_type == ICMP4_ECHO_REQUEST
                       || icmp_type == ICMP4_ECHO_REPLY)
                ? DEFAULT_PAYLOAD : 0);
    case IPPROTO_ICMPV6:
        return (ipv6 && (icmp_type == 128 || icmp_type == 129)
                ? DEFAULT_PAYLOAD : 0);
    default:
        return 0;
    }
}

void
flow_compose(struct dp_packet *p, const struct flow *flow, size_t l7_len)
{
    flow_compose__(p, flow, l7_len, PAYLOAD_COUNTING);
}

bool
flow_compose_sized(struct dp_packet *p, const struct flow *flow,
                   size_t total_len)
{
    flow_compose__(p, flow, 0, PAYLOAD_ZEROS);
    size_t headers = dp_packet_size(p);
    if (total_len < headers) {
        return false;
    }
    flow_compose__(p, flow, total_len - headers, PAYLOAD_ZEROS);
    if (dp_packet_size(p) < total_len) {
        /* ARP and ND have nowhere to carry data: a trailer pads them. */
        dp_packet_put_zeros(p, total_len - dp_packet_size(p));
    }
    return true;
}
