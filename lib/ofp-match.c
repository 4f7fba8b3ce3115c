/* ofp-match: OpenFlow 1.0's fixed match. */
#include <config.h>
#include "ofp-match.h"

#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include "match.h"
#include "packets.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(ofp_match);

#define IP_DSCP_MASK 0xfc

/* The prefix mask with N leading 1 bits wildcarded from the right: a 1.0
 * wildcard count of N keeps the first 32 - N bits. */
static ovs_be32
mask_from_wildcard_bits(unsigned int n)
{
    return n >= 32 ? 0 : htonl(UINT32_MAX << n);
}

/* The 1.0 wildcard count for MASK, or -1 if MASK is not a prefix. */
static int
wildcard_bits_from_mask(ovs_be32 mask_)
{
    uint32_t mask = ntohl(mask_);
    for (int n = 0; n <= 32; n++) {
        if (mask == (n >= 32 ? 0 : UINT32_MAX << n)) {
            return n;
        }
    }
    return -1;
}

void
ofputil_match_from_ofp10_match(const struct ofp10_match *om,
                               struct match *match)
{
    uint32_t wc = ntohl(om->wildcards) & OFPFW10_ALL;
    match_init_catchall(match);
    struct flow *f = &match->flow;
    struct flow_wildcards *w = &match->wc;

    if (!(wc & OFPFW10_IN_PORT)) {
        match_set_in_port(match, ntohs(om->in_port));
    }
    if (!(wc & OFPFW10_DL_SRC)) {
        f->dl_src = om->dl_src;
        memset(&w->masks.dl_src, 0xff, sizeof w->masks.dl_src);
    }
    if (!(wc & OFPFW10_DL_DST)) {
        f->dl_dst = om->dl_dst;
        memset(&w->masks.dl_dst, 0xff, sizeof w->masks.dl_dst);
    }
    if (!(wc & OFPFW10_DL_TYPE)) {
        match_set_dl_type(match, om->dl_type);
    }
    if (!(wc & OFPFW10_NW_TOS)) {
        f->nw_tos = om->nw_tos & IP_DSCP_MASK;
        w->masks.nw_tos |= IP_DSCP_MASK;
    }
    if (!(wc & OFPFW10_NW_PROTO)) {
        match_set_nw_proto(match, om->nw_proto);
    }
    match_set_nw_src_masked(match, om->nw_src, mask_from_wildcard_bits(
                                (wc & OFPFW10_NW_SRC_MASK)
                                >> OFPFW10_NW_SRC_SHIFT));
    match_set_nw_dst_masked(match, om->nw_dst, mask_from_wildcard_bits(
                                (wc & OFPFW10_NW_DST_MASK)
                                >> OFPFW10_NW_DST_SHIFT));
    if (!(wc & OFPFW10_TP_SRC)) {
        match_set_tp_src_masked(match, om->tp_src, OVS_BE16_MAX);
    }
    if (!(wc & OFPFW10_TP_DST)) {
        match_set_tp_dst_masked(match, om->tp_dst, OVS_BE16_MAX);
    }

    /* VLAN: dl_vlan first, since "no VLAN" makes the priority moot. */
    ovs_be16 tci = 0, tci_mask = 0;
    if (!(wc & OFPFW10_DL_VLAN)) {
        if (om->dl_vlan == htons(OFP_VLAN_NONE)) {
            tci_mask = OVS_BE16_MAX;
        } else {
            tci = htons((ntohs(om->dl_vlan) & VLAN_VID_MASK) | VLAN_CFI);
            tci_mask = htons(VLAN_VID_MASK | VLAN_CFI);
        }
    }
    if (!(wc & OFPFW10_DL_VLAN_PCP)
        && !(tci_mask == OVS_BE16_MAX && !tci)) {
        tci |= htons(((om->dl_vlan_pcp & 7) << 13) | VLAN_CFI);
        tci_mask |= htons(0xe000 | VLAN_CFI);
    }
    if (tci_mask) {
        match_set_vlan_tci_masked(match, tci, tci_mask);
    }
    /* Before normalization drops anything: 3.1 decides on what the
     * message matches. */
    ofputil_match_set_ethernet_if_needed(match);
}

void
ofputil_match_set_ethernet_if_needed(struct match *match)
{
    struct flow_wildcards others = match->wc;
    others.masks.in_port = 0;
    if (!flow_wildcards_is_catchall(&others)) {
        match_set_default_packet_type(match);
    }
}

void
ofputil_normalize_match(struct match *match)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);
    if (VLOG_IS_INFO_ENABLED()) {
        struct match before = *match;
        ofputil_normalize_match_quiet(match);
        if (!match_equal(&before, match) && !VLOG_DROP_INFO(&rl)) {
            char *pre = match_to_string(&before, NULL, OFP_DEFAULT_PRIORITY);
            char *post = match_to_string(match, NULL, OFP_DEFAULT_PRIORITY);
            VLOG_INFO("normalization changed ofp_match, details:");
            VLOG_INFO(" pre: %s", pre);
            VLOG_INFO("post: %s", post);
            free(pre);
            free(post);
        }
    } else {
        ofputil_normalize_match_quiet(match);
    }
}

void
ofputil_normalize_match_quiet(struct match *match)
{
    struct flow *f = &match->flow;
    struct flow_wildcards *w = &match->wc;
    bool dl_type_exact = w->masks.dl_type == OVS_BE16_MAX;
    bool is_ip4 = dl_type_exact && f->dl_type == htons(ETH_TYPE_IP);
    bool is_ip6 = dl_type_exact && f->dl_type == htons(ETH_TYPE_IPV6);
    bool is_arp = dl_type_exact && (f->dl_type == htons(ETH_TYPE_ARP)
                                    || f->dl_type == htons(ETH_TYPE_RARP));
    bool proto_exact = w->masks.nw_proto == UINT8_MAX;

    if (!is_ip4 && !is_arp) {
        f->nw_src = f->nw_dst = 0;
        w->masks.nw_src = w->masks.nw_dst = 0;
    }
    if (!is_ip4 && !is_ip6 && !is_arp) {
        f->nw_proto = w->masks.nw_proto = 0;
        proto_exact = false;
    }
    if (!is_ip4 && !is_ip6) {
        f->nw_tos = w->masks.nw_tos = 0;
        f->nw_ttl = w->masks.nw_ttl = 0;
        f->nw_frag = w->masks.nw_frag = 0;
    }
    if (!is_ip6) {
        memset(&f->ipv6_src, 0, sizeof f->ipv6_src);
        memset(&w->masks.ipv6_src, 0, sizeof w->masks.ipv6_src);
        memset(&f->ipv6_dst, 0, sizeof f->ipv6_dst);
        memset(&w->masks.ipv6_dst, 0, sizeof w->masks.ipv6_dst);
        f->ipv6_label = w->masks.ipv6_label = 0;
    }
    uint8_t p = f->nw_proto;
    bool l4 = ((is_ip4 || is_ip6) && proto_exact
               && (p == IPPROTO_TCP || p == IPPROTO_UDP || p == IPPROTO_SCTP
                   || (is_ip4 && p == IPPROTO_ICMP)
                   || (is_ip6 && p == IPPROTO_ICMPV6)));
    if (!l4) {
        f->tp_src = f->tp_dst = 0;
        w->masks.tp_src = w->masks.tp_dst = 0;
    }
}

void
ofputil_match_to_ofp10_match(const struct match *match,
                             struct ofp10_match *om)
{
    const struct flow *f = &match->flow;
    const struct flow_wildcards *w = &match->wc;
    uint32_t wc = 0;

    memset(om, 0, sizeof *om);
    if (w->masks.in_port) {
        om->in_port = htons(f->in_port);
    } else {
        wc |= OFPFW10_IN_PORT;
    }
    if (eth_addr_is_zero(w->masks.dl_src)) {
        wc |= OFPFW10_DL_SRC;
    } else {
        om->dl_src = f->dl_src;
    }
    if (eth_addr_is_zero(w->masks.dl_dst)) {
        wc |= OFPFW10_DL_DST;
    } else {
        om->dl_dst = f->dl_dst;
    }
    if (w->masks.dl_type) {
        om->dl_type = f->dl_type;
    } else {
        wc |= OFPFW10_DL_TYPE;
    }
    if (w->masks.nw_tos & IP_DSCP_MASK) {
        om->nw_tos = f->nw_tos & IP_DSCP_MASK;
    } else {
        wc |= OFPFW10_NW_TOS;
    }
    if (w->masks.nw_proto) {
        om->nw_proto = f->nw_proto;
    } else {
        wc |= OFPFW10_NW_PROTO;
    }
    int src_bits = wildcard_bits_from_mask(w->masks.nw_src);
    int dst_bits = wildcard_bits_from_mask(w->masks.nw_dst);
    src_bits = src_bits < 0 ? 32 : src_bits;
    dst_bits = dst_bits < 0 ? 32 : dst_bits;
    wc |= src_bits << OFPFW10_NW_SRC_SHIFT;
    wc |= dst_bits << OFPFW10_NW_DST_SHIFT;
    om->nw_src = f->nw_src & mask_from_wildcard_bits(src_bits);
    om->nw_dst = f->nw_dst & mask_from_wildcard_bits(dst_bits);
    if (w->masks.tp_src) {
        om->tp_src = f->tp_src;
    } else {
        wc |= OFPFW10_TP_SRC;
    }
    if (w->masks.tp_dst) {
        om->tp_dst = f->tp_dst;
    } else {
        wc |= OFPFW10_TP_DST;
    }

    ovs_be16 tci = f->vlans[0].tci;
    ovs_be16 mask = w->masks.vlans[0].tci;
    if (mask & htons(VLAN_CFI) && !(tci & htons(VLAN_CFI))) {
        /* No VLAN header: 3.1 leaves the (meaningless) priority exact. */
        om->dl_vlan = htons(OFP_VLAN_NONE);
    } else {
        if (mask & htons(VLAN_VID_MASK)) {
            om->dl_vlan = htons(ntohs(tci) & VLAN_VID_MASK);
        } else {
            wc |= OFPFW10_DL_VLAN;
        }
        if (mask & htons(0xe000)) {
            om->dl_vlan_pcp = ntohs(tci) >> 13;
        } else {
            wc |= OFPFW10_DL_VLAN_PCP;
        }
    }
    om->wildcards = htonl(wc);
}

/* Forgets MATCH's packet type if it is Ethernet, which every 1.0 and 1.1
 * match implies. */
static void
clear_ethernet_packet_type(struct match *match)
{
    if (match->flow.packet_type == htonl(PT_ETH)) {
        match->wc.masks.packet_type = 0;
    }
}

bool
ofputil_match_is_ofp10(const struct match *match)
{
    struct ofp10_match om;
    struct match orig = *match, back;
    ofputil_match_to_ofp10_match(match, &om);
    ofputil_match_from_ofp10_match(&om, &back);
    clear_ethernet_packet_type(&orig);
    clear_ethernet_packet_type(&back);
    return match_equal(&orig, &back);
}
