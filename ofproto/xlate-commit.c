/* xlate-commit: see xlate-commit.h. */
#include <config.h>
#include "xlate-commit.h"

#include <linux/openvswitch.h>
#include <stddef.h>
#include <string.h>
#include "mpls.h"
#include "netlink.h"
#include "ofpbuf.h"
#include "packets.h"
#include "util.h"
#include "xlate-mpls.h"

/* A field of a datapath key, where it is in struct flow. */
struct commit_field {
    size_t ofs, size;
};

#define CF(MEMBER) \
    { offsetof(struct flow, MEMBER), sizeof ((struct flow *) 0)->MEMBER }

static const struct commit_field eth_fields[] = {
    CF(dl_src), CF(dl_dst),
};
static const struct commit_field ipv4_fields[] = {
    CF(nw_src), CF(nw_dst), CF(nw_tos), CF(nw_ttl),
};
static const struct commit_field ipv6_fields[] = {
    CF(ipv6_src), CF(ipv6_dst), CF(ipv6_label), CF(nw_tos), CF(nw_ttl),
};
static const struct commit_field arp_fields[] = {
    CF(nw_src), CF(nw_dst), CF(nw_proto), CF(arp_sha), CF(arp_tha),
};
static const struct commit_field ports_fields[] = {
    CF(tp_src), CF(tp_dst),
};
static const struct commit_field nd_fields[] = {
    CF(nd_target), CF(arp_sha), CF(arp_tha),
};
#undef CF

/* Whether field F differs between A and B under MASK. */
static bool
field_changed(const struct commit_field *f, const struct flow *a,
              const struct flow *b, const struct flow *mask)
{
    const uint8_t *pa = (const uint8_t *) a + f->ofs;
    const uint8_t *pb = (const uint8_t *) b + f->ofs;
    const uint8_t *pm = (const uint8_t *) mask + f->ofs;
    for (size_t i = 0; i < f->size; i++) {
        if ((pa[i] ^ pb[i]) & pm[i]) {
            return true;
        }
    }
    return false;
}

/* A masked set of key TYPE for the FIELDS that changed from BASE to FLOW,
 * each under its mask in WC; BASE takes them.  Whether it put one. */
static bool
commit_set(uint16_t type, const struct commit_field *fields, size_t n,
           const struct flow *flow, struct flow *base,
           const struct flow_wildcards *wc, struct ofpbuf *odp)
{
    struct flow mask;
    bool changed = false;
    memset(&mask, 0, sizeof mask);
    for (size_t i = 0; i < n; i++) {
        const struct commit_field *f = &fields[i];
        if (field_changed(f, flow, base, &wc->masks)) {
            memcpy((uint8_t *) &mask + f->ofs,
                   (const uint8_t *) &wc->masks + f->ofs, f->size);
            memcpy((uint8_t *) base + f->ofs,
                   (const uint8_t *) flow + f->ofs, f->size);
            changed = true;
        }
    }
    if (changed) {
        odp_put_set_action(odp, type, flow, &mask);
    }
    return changed;
}

static bool
is_ip(const struct flow *f)
{
    return (f->dl_type == htons(ETH_TYPE_IP)
            || f->dl_type == htons(ETH_TYPE_IPV6));
}

static enum slow_path_reason
commit_l3(const struct flow *flow, struct flow *base,
          struct flow_wildcards *wc, struct ofpbuf *odp)
{
    if (!flow->nw_proto) {
        return 0;
    }
    switch (ntohs(base->dl_type)) {
    case ETH_TYPE_IP:
        commit_set(OVS_KEY_ATTR_IPV4, ipv4_fields, ARRAY_SIZE(ipv4_fields),
                   flow, base, wc, odp);
        return 0;
    case ETH_TYPE_IPV6:
        commit_set(OVS_KEY_ATTR_IPV6, ipv6_fields, ARRAY_SIZE(ipv6_fields),
                   flow, base, wc, odp);
        return 0;
    case ETH_TYPE_ARP:
    case ETH_TYPE_RARP:
        return (commit_set(OVS_KEY_ATTR_ARP, arp_fields,
                           ARRAY_SIZE(arp_fields), flow, base, wc, odp)
                ? SLOW_ACTION : 0);
    default:
        return 0;
    }
}

static void
commit_ports(const struct flow *flow, struct flow *base,
             struct flow_wildcards *wc, struct ofpbuf *odp)
{
    if (!flow->nw_proto || !is_ip(base)
        || base->nw_frag & FLOW_NW_FRAG_LATER) {
        return;
    }
    uint16_t type = (flow->nw_proto == IPPROTO_TCP ? OVS_KEY_ATTR_TCP
                     : flow->nw_proto == IPPROTO_UDP ? OVS_KEY_ATTR_UDP
                     : flow->nw_proto == IPPROTO_SCTP ? OVS_KEY_ATTR_SCTP
                     : 0);
    if (type) {
        commit_set(type, ports_fields, ARRAY_SIZE(ports_fields), flow, base,
                   wc, odp);
    }
}

/* ICMP type and code are set whole (3.1 does), which makes both exact. */
static enum slow_path_reason
commit_icmp(const struct flow *flow, struct flow *base,
            struct flow_wildcards *wc, struct ofpbuf *odp)
{
    bool icmp4 = (base->dl_type == htons(ETH_TYPE_IP)
                  && base->nw_proto == IPPROTO_ICMP);
    bool icmp6 = (base->dl_type == htons(ETH_TYPE_IPV6)
                  && base->nw_proto == IPPROTO_ICMPV6);
    if ((!icmp4 && !icmp6) || base->nw_frag & FLOW_NW_FRAG_LATER) {
        return 0;
    }
    enum slow_path_reason slow = 0;
    if ((flow->tp_src ^ base->tp_src) & wc->masks.tp_src & htons(0xff)
        || (flow->tp_dst ^ base->tp_dst) & wc->masks.tp_dst & htons(0xff)) {
        struct flow mask;
        memset(&mask, 0, sizeof mask);
        mask.tp_src = mask.tp_dst = htons(0xff);
        wc->masks.tp_src |= htons(0xff);
        wc->masks.tp_dst |= htons(0xff);
        odp_put_set_action(odp, icmp4 ? OVS_KEY_ATTR_ICMP
                                      : OVS_KEY_ATTR_ICMPV6, flow, &mask);
        base->tp_src = flow->tp_src;
        base->tp_dst = flow->tp_dst;
        slow = SLOW_ACTION;
    }
    uint16_t type = ntohs(base->tp_src) & 0xff;
    if (icmp6 && !(ntohs(base->tp_dst) & 0xff)
        && (type == ND_NEIGHBOR_SOLICIT || type == ND_NEIGHBOR_ADVERT)
        && commit_set(OVS_KEY_ATTR_ND, nd_fields, ARRAY_SIZE(nd_fields),
                      flow, base, wc, odp)) {
        slow = SLOW_ACTION;
    }
    return slow;
}

static int
count_vlans(const struct flow *flow)
{
    int n = 0;
    while (n < FLOW_MAX_VLAN_HEADERS && flow_vlan_present(&flow->vlans[n])) {
        n++;
    }
    return n;
}

/* The tags the packet and the flow share at the bottom (innermost) stay;
 * the packet's others are popped and the flow's pushed, innermost
 * first. */
static void
commit_vlan(const struct flow *flow, struct flow *base, struct ofpbuf *odp)
{
    int flow_n = count_vlans(flow), base_n = count_vlans(base);

    while (flow_n && base_n
           && flow->vlans[flow_n - 1].qtag == base->vlans[base_n - 1].qtag) {
        flow_n--;
        base_n--;
    }
    for (int i = 0; i < base_n; i++) {
        nl_msg_put_flag(odp, OVS_ACTION_ATTR_POP_VLAN);
    }
    for (int i = flow_n - 1; i >= 0; i--) {
        struct ovs_action_push_vlan pv = {
            .vlan_tpid = flow->vlans[i].tpid,
            .vlan_tci = flow->vlans[i].tci,
        };
        nl_msg_put_unspec(odp, OVS_ACTION_ATTR_PUSH_VLAN, &pv, sizeof pv);
    }
    memcpy(base->vlans, flow->vlans, sizeof base->vlans);
}

static void
commit_pkt_mark(const struct flow *flow, struct flow *base,
                const struct flow_wildcards *wc, struct ofpbuf *odp)
{
    uint32_t mask = wc->masks.pkt_mark;
    if (!((flow->pkt_mark ^ base->pkt_mark) & mask)) {
        return;
    }
    bool exact = mask == UINT32_MAX;
    uint32_t vm[2] = { flow->pkt_mark & mask, mask };
    size_t ofs = nl_msg_start_nested(odp, exact ? OVS_ACTION_ATTR_SET
                                                : OVS_ACTION_ATTR_SET_MASKED);
    nl_msg_put_unspec(odp, OVS_KEY_ATTR_SKB_MARK, vm, exact ? 4 : 8);
    nl_msg_end_nested(odp, ofs);
    base->pkt_mark = flow->pkt_mark;
}

/* An Ethernet frame that becomes an L3 packet loses its header (and its
 * VLAN tags) with pop_eth; an L3 packet that becomes a frame gets FLOW's
 * addresses with push_eth. */
static void
commit_packet_type(const struct flow *flow, struct flow *base,
                   struct ofpbuf *odp)
{
    if (flow->packet_type == base->packet_type) {
        return;
    }
    if (flow->packet_type == htonl(PT_ETH)) {
        struct ovs_action_push_eth pe;
        memcpy(pe.addresses.eth_src, flow->dl_src.ea, ETH_ADDR_LEN);
        memcpy(pe.addresses.eth_dst, flow->dl_dst.ea, ETH_ADDR_LEN);
        nl_msg_put_unspec(odp, OVS_ACTION_ATTR_PUSH_ETH, &pe, sizeof pe);
        base->packet_type = flow->packet_type;
        base->dl_src = flow->dl_src;
        base->dl_dst = flow->dl_dst;
    } else if (base->packet_type == htonl(PT_ETH)) {
        nl_msg_put_flag(odp, OVS_ACTION_ATTR_POP_ETH);
        base->packet_type = flow->packet_type;
        memset(&base->dl_src, 0, sizeof base->dl_src);
        memset(&base->dl_dst, 0, sizeof base->dl_dst);
        memset(base->vlans, 0, sizeof base->vlans);
    }
}

enum slow_path_reason
xlate_commit(const struct flow *flow, struct flow *base, bool l3_cleared,
             struct flow_wildcards *wc, struct ofpbuf *odp)
{
    commit_packet_type(flow, base, odp);
    bool is_eth = base->packet_type == htonl(PT_ETH);
    if (is_eth) {
        commit_set(OVS_KEY_ATTR_ETHERNET, eth_fields, ARRAY_SIZE(eth_fields),
                   flow, base, wc, odp);
    }
    /* A packet that stops being MPLS loses its stack before its L3 header
     * changes; one that becomes MPLS gets it after them. */
    bool mpls_done = false;
    if (eth_type_mpls(base->dl_type) && !eth_type_mpls(flow->dl_type)) {
        xlate_mpls_commit(flow, base, odp);
        mpls_done = true;
    }
    enum slow_path_reason slow = 0;
    if (!l3_cleared && flow->dl_type == base->dl_type) {
        slow |= commit_l3(flow, base, wc, odp);
        commit_ports(flow, base, wc, odp);
        slow |= commit_icmp(flow, base, wc, odp);
    }
    if (!mpls_done) {
        xlate_mpls_commit(flow, base, odp);
    }
    if (is_eth) {
        commit_vlan(flow, base, odp);
    }
    commit_pkt_mark(flow, base, wc, odp);
    return slow;
}
