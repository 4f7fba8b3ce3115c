/* match: flow plus mask, setters and Open vSwitch's flow syntax.
 * See match.h. */
#include <config.h>

#include "match.h"

#include <arpa/inet.h>
#include <string.h>
#include "dynamic-string.h"
#include "hash.h"
#include "mpls.h"
#include "ofp-fields.h"
#include "ofp-port.h"
#include "openflow.h"
#include "packets.h"
#include "util.h"

void
match_init_catchall(struct match *match)
{
    memset(&match->flow, 0, sizeof match->flow);
    flow_wildcards_init_catchall(&match->wc);
    tun_md_layout_init(&match->tun_md);
}

void
match_init_exact(struct match *match, const struct flow *flow)
{
    match->flow = *flow;
    flow_wildcards_init_exact(&match->wc);
    tun_md_layout_init(&match->tun_md);
}

bool
match_equal(const struct match *a, const struct match *b)
{
    return (flow_equal(&a->flow, &b->flow)
            && flow_wildcards_equal(&a->wc, &b->wc));
}

void
match_zero_wildcarded_fields(struct match *match)
{
    flow_apply_mask(&match->flow, &match->flow, &match->wc);
}

bool
match_is_catchall(const struct match *match)
{
    return flow_wildcards_is_catchall(&match->wc);
}

uint32_t
match_hash(const struct match *match, uint32_t basis)
{
    return flow_hash(&match->flow, flow_hash(&match->wc.masks, basis));
}

void
match_set_packet_type(struct match *match, ovs_be32 packet_type)
{
    match->flow.packet_type = packet_type;
    match->wc.masks.packet_type = OVS_BE32_MAX;
    if (pt_ns(packet_type) == PT_NS_ETHERTYPE) {
        match_set_dl_type(match, htons(pt_ns_type(packet_type)));
    }
}

void
match_set_default_packet_type(struct match *match)
{
    if (!match->wc.masks.packet_type) {
        match_set_packet_type(match, htonl(PT_ETH));
    }
}

/* "Ethernet fields" here are those only an Ethernet frame has, which, once
 * matched, say the packet type by themselves. */
bool
match_has_default_packet_type(const struct match *match)
{
    const struct flow *m = &match->wc.masks;
    return (match->flow.packet_type == htonl(PT_ETH)
            && m->packet_type == OVS_BE32_MAX
            && (!eth_addr_is_zero(m->dl_src) || !eth_addr_is_zero(m->dl_dst)
                || m->dl_type || m->vlans[0].tci));
}

void
match_set_in_port(struct match *match, uint32_t port)
{
    match->flow.in_port = port;
    match->wc.masks.in_port = UINT32_MAX;
}

void
match_set_dl_type(struct match *match, ovs_be16 dl_type)
{
    match->flow.dl_type = dl_type;
    match->wc.masks.dl_type = OVS_BE16_MAX;
}

void
match_set_nw_proto(struct match *match, uint8_t nw_proto)
{
    match->flow.nw_proto = nw_proto;
    match->wc.masks.nw_proto = UINT8_MAX;
}

void
match_set_reg(struct match *match, unsigned int idx, uint32_t value)
{
    match_set_reg_masked(match, idx, value, UINT32_MAX);
}

void
match_set_reg_masked(struct match *match, unsigned int idx, uint32_t value,
                     uint32_t mask)
{
    match->flow.regs[idx] = value & mask;
    match->wc.masks.regs[idx] = mask;
}

void
match_set_metadata_masked(struct match *match, ovs_be64 value, ovs_be64 mask)
{
    match->flow.metadata = value & mask;
    match->wc.masks.metadata = mask;
}

void
match_set_tun_id_masked(struct match *match, ovs_be64 value, ovs_be64 mask)
{
    match->flow.tunnel.tun_id = value & mask;
    match->wc.masks.tunnel.tun_id = mask;
}

void
match_set_vlan_tci_masked(struct match *match, ovs_be16 tci, ovs_be16 mask)
{
    match->flow.vlans[0].tci = tci & mask;
    match->wc.masks.vlans[0].tci = mask;
    if (mask) {
        match->flow.vlans[0].tpid = htons(ETH_TYPE_VLAN_8021Q);
    }
    /* The TPID is not part of what OpenFlow matches on. */
    match->flow.vlans[0].tpid = 0;
    match->wc.masks.vlans[0].tpid = 0;
}

void
match_set_dl_vlan(struct match *match, ovs_be16 vid)
{
    if (vid == htons(OFP_VLAN_NONE)) {
        match_set_vlan_tci_masked(match, 0, OVS_BE16_MAX);
        return;
    }
    ovs_be16 m = htons(VLAN_VID_MASK | VLAN_CFI);
    match->flow.vlans[0].tci &= ~m;
    match->flow.vlans[0].tci |= (vid & htons(VLAN_VID_MASK))
                                | htons(VLAN_CFI);
    match->wc.masks.vlans[0].tci |= m;
}

void
match_set_dl_vlan_pcp(struct match *match, uint8_t pcp)
{
    ovs_be16 m = htons(VLAN_PCP_MASK | VLAN_CFI);
    match->flow.vlans[0].tci &= ~htons(VLAN_PCP_MASK);
    match->flow.vlans[0].tci |= htons(((pcp & 7) << VLAN_PCP_SHIFT)
                                      | VLAN_CFI);
    match->wc.masks.vlans[0].tci |= m;
}

void
match_set_vlan_vid_masked(struct match *match, ovs_be16 vid, ovs_be16 mask)
{
    ovs_be16 bits = htons(VLAN_VID_MASK | VLAN_CFI);
    mask &= bits;
    match->wc.masks.vlans[0].tci = ((match->wc.masks.vlans[0].tci & ~bits)
                                    | mask);
    match->flow.vlans[0].tci = ((match->flow.vlans[0].tci & ~bits)
                                | (vid & mask));
}

void
match_set_nw_src_masked(struct match *match, ovs_be32 ip, ovs_be32 mask)
{
    match->flow.nw_src = ip & mask;
    match->wc.masks.nw_src = mask;
}

void
match_set_nw_dst_masked(struct match *match, ovs_be32 ip, ovs_be32 mask)
{
    match->flow.nw_dst = ip & mask;
    match->wc.masks.nw_dst = mask;
}

void
match_set_tp_src_masked(struct match *match, ovs_be16 port, ovs_be16 mask)
{
    match->flow.tp_src = port & mask;
    match->wc.masks.tp_src = mask;
}

void
match_set_tp_dst_masked(struct match *match, ovs_be16 port, ovs_be16 mask)
{
    match->flow.tp_dst = port & mask;
    match->wc.masks.tp_dst = mask;
}

/* Formatting. */

static void
format_eth_masked(struct ds *s, const char *name, struct eth_addr eth,
                  struct eth_addr mask)
{
    if (!eth_addr_is_zero(mask)) {
        ds_put_format(s, "%s="ETH_ADDR_FMT, name, ETH_ADDR_ARGS(eth));
        if (!eth_addr_equals(mask, (struct eth_addr) {
                    { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff } })) {
            ds_put_format(s, "/"ETH_ADDR_FMT, ETH_ADDR_ARGS(mask));
        }
        ds_put_char(s, ',');
    }
}

static void
format_ip_netmask(struct ds *s, const char *name, ovs_be32 ip,
                  ovs_be32 mask)
{
    if (mask) {
        ds_put_cstr(s, name);
        ds_put_char(s, '=');
        mf_format_ipv4_masked(ip, mask, s);
        ds_put_char(s, ',');
    }
}

static void
format_ipv6_netmask(struct ds *s, const char *name,
                    const struct in6_addr *addr, const struct in6_addr *mask)
{
    if (!ipv6_addr_is_zero(mask)) {
        ds_put_format(s, "%s=", name);
        mf_format_ipv6_masked(addr, mask, s);
        ds_put_char(s, ',');
    }
}

static void
format_be16_masked(struct ds *s, const char *name, ovs_be16 value,
                   ovs_be16 mask)
{
    if (mask) {
        ds_put_cstr(s, name);
        ds_put_char(s, '=');
        if (mask == OVS_BE16_MAX) {
            ds_put_uint(s, ntohs(value));
        } else {
            ds_put_format(s, "0x%"PRIx16"/0x%"PRIx16, ntohs(value),
                          ntohs(mask));
        }
        ds_put_char(s, ',');
    }
}

/* ICMP (and IGMP) type and code live in the low byte of tp_src and tp_dst.
 * OpenFlow matches them with all 16 bits; a megaflow matches only the low
 * 8 (as 3.1's translation leaves it), printed as a masked value. */
static void
format_icmp_field(struct ds *s, const char *name, ovs_be16 value,
                  ovs_be16 mask)
{
    format_be16_masked(s, name, value, mask);
}

static void
format_uint32_masked(struct ds *s, const char *name, uint32_t value,
                     uint32_t mask)
{
    if (mask) {
        ds_put_format(s, "%s=%#"PRIx32, name, value);
        if (mask != UINT32_MAX) {
            ds_put_format(s, "/%#"PRIx32, mask);
        }
        ds_put_char(s, ',');
    }
}

static void
format_be64_masked(struct ds *s, const char *name, ovs_be64 value,
                   ovs_be64 mask)
{
    if (mask) {
        ds_put_format(s, "%s=%#"PRIx64, name, ntohll(value));
        if (mask != OVS_BE64_MAX) {
            ds_put_format(s, "/%#"PRIx64, ntohll(mask));
        }
        ds_put_char(s, ',');
    }
}

static void
format_u8_masked(struct ds *s, const char *name, uint8_t value, uint8_t mask,
                 bool hex)
{
    if (mask) {
        ds_put_format(s, hex ? "%s=%#"PRIx8 : "%s=%"PRIu8, name, value);
        if (mask != UINT8_MAX) {
            ds_put_format(s, "/%#"PRIx8, mask);
        }
        ds_put_char(s, ',');
    }
}

static void
format_be128_masked(struct ds *s, const char *name, const uint8_t *value,
                    const uint8_t *mask)
{
    static const uint8_t zeros[16], ones[16] = {
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    };
    if (memcmp(mask, zeros, 16)) {
        ds_put_format(s, "%s=", name);
        ds_put_hex(s, value, 16);
        if (memcmp(mask, ones, 16)) {
            ds_put_char(s, '/');
            ds_put_hex(s, mask, 16);
        }
        ds_put_char(s, ',');
    }
}

static void
format_tunnel(struct ds *s, const struct match *match)
{
    const struct flow_tnl *t = &match->flow.tunnel;
    const struct flow_tnl *m = &match->wc.masks.tunnel;

    format_be64_masked(s, "tun_id", t->tun_id, m->tun_id);
    format_ip_netmask(s, "tun_src", t->ip_src, m->ip_src);
    format_ip_netmask(s, "tun_dst", t->ip_dst, m->ip_dst);
    format_ipv6_netmask(s, "tun_ipv6_src", &t->ipv6_src, &m->ipv6_src);
    format_ipv6_netmask(s, "tun_ipv6_dst", &t->ipv6_dst, &m->ipv6_dst);
    format_be16_masked(s, "tun_gbp_id", t->gbp_id, m->gbp_id);
    format_u8_masked(s, "tun_gbp_flags", t->gbp_flags, m->gbp_flags, true);
    /* 3.1's order: tos, ttl, ERSPAN, GTP-U, flags. */
    if (m->ip_tos) {
        ds_put_format(s, "tun_tos=%"PRIx8",", t->ip_tos);
    }
    if (m->ip_ttl) {
        ds_put_format(s, "tun_ttl=%"PRIu8",", t->ip_ttl);
    }
    /* As 3.1 prints them: the value alone (whatever the mask), and of
     * the version-specific fields only those of the version the flow
     * has (1: the index; 2: the direction and hardware id). */
    if (m->erspan_ver) {
        ds_put_format(s, "tun_erspan_ver=%"PRIu8",", t->erspan_ver);
    }
    if (m->erspan_idx && t->erspan_ver == 1) {
        ds_put_format(s, "tun_erspan_idx=%#"PRIx32",", t->erspan_idx);
    }
    if (m->erspan_dir && t->erspan_ver == 2) {
        ds_put_format(s, "tun_erspan_dir=%"PRIu8",", t->erspan_dir);
    }
    if (m->erspan_hwid && t->erspan_ver == 2) {
        ds_put_format(s, "tun_erspan_hwid=%#"PRIx8",", t->erspan_hwid);
    }
    /* 3.1 prints these without "tun_" (and reads them only with it). */
    if (m->gtpu_flags) {
        ds_put_format(s, "gtpu_flags=%#"PRIx8",", t->gtpu_flags);
    }
    if (m->gtpu_msgtype) {
        ds_put_format(s, "gtpu_msgtype=%"PRIu8",", t->gtpu_msgtype);
    }
    /* Masked style always (+df-csum+key): OpenFlow matches only oam, but
     * a megaflow of a packet received on a tunnel matches the other flags
     * too, and 3.1 prints them so. */
    static const struct { uint16_t bit; const char *name; } tnl_flags[] = {
        { FLOW_TNL_F_DONT_FRAGMENT, "df" }, { FLOW_TNL_F_CSUM, "csum" },
        { FLOW_TNL_F_KEY, "key" }, { FLOW_TNL_F_OAM, "oam" },
    };
    if (m->flags & (FLOW_TNL_F_DONT_FRAGMENT | FLOW_TNL_F_CSUM
                    | FLOW_TNL_F_KEY | FLOW_TNL_F_OAM)) {
        ds_put_cstr(s, "tun_flags=");
        for (size_t i = 0; i < ARRAY_SIZE(tnl_flags); i++) {
            if (m->flags & tnl_flags[i].bit) {
                ds_put_format(s, "%c%s", t->flags & tnl_flags[i].bit
                              ? '+' : '-', tnl_flags[i].name);
            }
        }
        ds_put_char(s, ',');
    }
    tun_md_format(match, s);
}

static void
format_conntrack(struct ds *s, const struct flow *f, const struct flow *m)
{
    if (m->ct_state) {
        ds_put_cstr(s, "ct_state=");
        mf_format_flags_masked(s, mf_ct_state_name, f->ct_state,
                               m->ct_state & CS_ALL_BITS, CS_ALL_BITS);
        ds_put_char(s, ',');
    }
    if (m->ct_zone) {
        ds_put_format(s, "ct_zone=%"PRIu16",", f->ct_zone);
    }
    format_uint32_masked(s, "ct_mark", f->ct_mark, m->ct_mark);
    format_be128_masked(s, "ct_label", f->ct_label, m->ct_label);
    format_ip_netmask(s, "ct_nw_src", f->ct_nw_src, m->ct_nw_src);
    format_ip_netmask(s, "ct_nw_dst", f->ct_nw_dst, m->ct_nw_dst);
    format_ipv6_netmask(s, "ct_ipv6_src", &f->ct_ipv6_src, &m->ct_ipv6_src);
    format_ipv6_netmask(s, "ct_ipv6_dst", &f->ct_ipv6_dst, &m->ct_ipv6_dst);
    if (m->ct_nw_proto) {
        ds_put_format(s, "ct_nw_proto=%"PRIu8",", f->ct_nw_proto);
        format_be16_masked(s, "ct_tp_src", f->ct_tp_src, m->ct_tp_src);
        format_be16_masked(s, "ct_tp_dst", f->ct_tp_dst, m->ct_tp_dst);
    }
}

static void
format_mpls(struct ds *s, const struct flow *f, const struct flow *m)
{
    uint32_t lse = ntohl(f->mpls_lse[0]), mask = ntohl(m->mpls_lse[0]);
    if (mask & MPLS_LABEL_MASK) {
        ds_put_format(s, "mpls_label=%"PRIu32",",
                      (lse & MPLS_LABEL_MASK) >> MPLS_LABEL_SHIFT);
    }
    if (mask & MPLS_TC_MASK) {
        ds_put_format(s, "mpls_tc=%"PRIu32",",
                      (lse & MPLS_TC_MASK) >> MPLS_TC_SHIFT);
    }
    if (mask & MPLS_TTL_MASK) {
        ds_put_format(s, "mpls_ttl=%"PRIu32",", lse & MPLS_TTL_MASK);
    }
    if (mask & MPLS_BOS_MASK) {
        ds_put_format(s, "mpls_bos=%"PRIu32",",
                      (lse & MPLS_BOS_MASK) >> MPLS_BOS_SHIFT);
    }
    /* The entries under the top one, whole, in decimal as 3.1 prints
     * them. */
    for (int i = 1; i < FLOW_MAX_MPLS_LABELS; i++) {
        uint32_t lse_mask = ntohl(m->mpls_lse[i]);
        if (lse_mask) {
            ds_put_format(s, "mpls_lse%d=%"PRIu32, i, ntohl(f->mpls_lse[i]));
            if (lse_mask != UINT32_MAX) {
                ds_put_format(s, "/%#"PRIx32, lse_mask);
            }
            ds_put_char(s, ',');
        }
    }
}

static void
format_nsh(struct ds *s, const struct flow *f, const struct flow *m)
{
    format_u8_masked(s, "nsh_flags", f->nsh.flags, m->nsh.flags, false);
    format_u8_masked(s, "nsh_ttl", f->nsh.ttl, m->nsh.ttl, false);
    format_u8_masked(s, "nsh_mdtype", f->nsh.mdtype, m->nsh.mdtype, false);
    format_u8_masked(s, "nsh_np", f->nsh.np, m->nsh.np, false);
    uint32_t path = ntohl(f->nsh.path_hdr), mask = ntohl(m->nsh.path_hdr);
    format_uint32_masked(s, "nsh_spi", (path & NSH_SPI_MASK) >> NSH_SPI_SHIFT,
                         (mask & NSH_SPI_MASK) >> NSH_SPI_SHIFT
                         | (mask & NSH_SPI_MASK ? 0xff000000 : 0));
    format_u8_masked(s, "nsh_si", path & NSH_SI_MASK, mask & NSH_SI_MASK,
                     false);
    for (int i = 0; i < 4; i++) {
        char name[16];
        snprintf(name, sizeof name, "nsh_c%d", i + 1);
        format_uint32_masked(s, name, ntohl(f->nsh.context[i]),
                             ntohl(m->nsh.context[i]));
    }
}

/* packet_type, where the other fields do not say it: "packet_type=(1,0x800)"
 * for another type than Ethernet, "eth" in a datapath flow (whose
 * recirc_id is exact) that names Ethernet. */
static void
format_packet_type(struct ds *s, const struct flow *f, const struct flow *m)
{
    if (!m->packet_type) {
        return;
    }
    if (f->packet_type != htonl(PT_ETH)) {
        ds_put_cstr(s, "packet_type=");
        mf_format_packet_type(f->packet_type, s);
        ds_put_char(s, ',');
    } else if (m->recirc_id == UINT32_MAX) {
        ds_put_cstr(s, "eth,");
    }
}

void
match_format(const struct match *match,
             const struct ofputil_port_map *port_map, struct ds *s,
             int priority)
{
    const struct flow *f = &match->flow;
    const struct flow_wildcards *wc = &match->wc;
    size_t start_len = s->length;
    bool skip_type = false;
    bool skip_proto = false;

    if (priority != OFP_DEFAULT_PRIORITY) {
        ds_put_cstr(s, "priority=");
        if (priority < 0) {
            ds_put_char(s, '-');
        }
        ds_put_uint(s, priority < 0 ? -(long long int) priority : priority);
        ds_put_char(s, ',');
    }

    format_uint32_masked(s, "pkt_mark", f->pkt_mark, wc->masks.pkt_mark);
    format_uint32_masked(s, "recirc_id", f->recirc_id, wc->masks.recirc_id);
    format_uint32_masked(s, "dp_hash", f->dp_hash, wc->masks.dp_hash);
    if (wc->masks.conj_id) {
        ds_put_format(s, "conj_id=%"PRIu32",", f->conj_id);
    }
    if (wc->masks.skb_priority) {
        ds_put_format(s, "skb_priority=%#"PRIx32",", f->skb_priority);
    }
    if (wc->masks.actset_output) {
        ds_put_cstr(s, "actset_output=");
        ofputil_format_port(f->actset_output, port_map, s);
        ds_put_char(s, ',');
    }
    format_conntrack(s, f, &wc->masks);
    format_packet_type(s, f, &wc->masks);

    /* An L3 packet type says the Ethertype already (unless its number is
     * none: 3.1 prints "packet_type=(1,0),...,dl_type=0x0000"). */
    if (wc->masks.packet_type && pt_ns(f->packet_type) == PT_NS_ETHERTYPE
        && pt_ns_type(f->packet_type) >= ETH_TYPE_MIN) {
        skip_type = true;
    } else if (wc->masks.dl_type) {
        skip_type = true;
        if (f->dl_type == htons(ETH_TYPE_IP)) {
            if (wc->masks.nw_proto) {
                skip_proto = true;
                switch (f->nw_proto) {
                case IPPROTO_ICMP: ds_put_cstr(s, "icmp,"); break;
                case IPPROTO_TCP: ds_put_cstr(s, "tcp,"); break;
                case IPPROTO_UDP: ds_put_cstr(s, "udp,"); break;
                case IPPROTO_SCTP: ds_put_cstr(s, "sctp,"); break;
                default:
                    ds_put_cstr(s, "ip,");
                    skip_proto = false;
                }
            } else {
                ds_put_cstr(s, "ip,");
            }
        } else if (f->dl_type == htons(ETH_TYPE_IPV6)) {
            if (wc->masks.nw_proto) {
                skip_proto = true;
                switch (f->nw_proto) {
                case IPPROTO_ICMPV6: ds_put_cstr(s, "icmp6,"); break;
                case IPPROTO_TCP: ds_put_cstr(s, "tcp6,"); break;
                case IPPROTO_UDP: ds_put_cstr(s, "udp6,"); break;
                case IPPROTO_SCTP: ds_put_cstr(s, "sctp6,"); break;
                default:
                    ds_put_cstr(s, "ipv6,");
                    skip_proto = false;
                }
            } else {
                ds_put_cstr(s, "ipv6,");
            }
        } else if (f->dl_type == htons(ETH_TYPE_ARP)) {
            ds_put_cstr(s, "arp,");
        } else if (f->dl_type == htons(ETH_TYPE_RARP)) {
            ds_put_cstr(s, "rarp,");
        } else if (f->dl_type == htons(ETH_TYPE_MPLS)) {
            ds_put_cstr(s, "mpls,");
        } else if (f->dl_type == htons(0x8848)) {
            ds_put_cstr(s, "mplsm,");
        } else {
            skip_type = false;
        }
    }

    for (int i = 0; i < FLOW_N_REGS; i++) {
        if (wc->masks.regs[i]) {
            char name[16];
            snprintf(name, sizeof name, "reg%d", i);
            format_uint32_masked(s, name, f->regs[i], wc->masks.regs[i]);
        }
    }

    format_tunnel(s, match);

    format_be64_masked(s, "metadata", f->metadata, wc->masks.metadata);

    if (wc->masks.in_port) {
        ds_put_cstr(s, "in_port=");
        ofputil_format_port(f->in_port, port_map, s);
        ds_put_char(s, ',');
    }

    for (int i = 0; i < FLOW_MAX_VLAN_HEADERS; i++) {
        ovs_be16 tci = f->vlans[i].tci;
        ovs_be16 mask = wc->masks.vlans[i].tci;
        if (!mask) {
            continue;
        }
        ovs_be16 vid_mask = mask & htons(VLAN_VID_MASK);
        ovs_be16 pcp_mask = mask & htons(VLAN_PCP_MASK);
        ovs_be16 cfi = mask & htons(VLAN_CFI);

        /* The outer tag is dl_vlan, the inner dl_vlan1, as 3.1 names
         * them. */
        const char *suffix = i == 0 ? "" : "1";
        if (cfi && (tci & htons(VLAN_CFI))
            && (!vid_mask || vid_mask == htons(VLAN_VID_MASK))
            && (!pcp_mask || pcp_mask == htons(VLAN_PCP_MASK))
            && (vid_mask || pcp_mask)) {
            if (vid_mask) {
                ds_put_format(s, "dl_vlan%s=%"PRIu16",", suffix,
                              ntohs(tci) & VLAN_VID_MASK);
            }
            if (pcp_mask) {
                ds_put_format(s, "dl_vlan_pcp%s=%d,", suffix,
                              (ntohs(tci) & VLAN_PCP_MASK) >> VLAN_PCP_SHIFT);
            }
        } else {
            const char *name = i == 0 ? "vlan_tci" : "vlan_tci1";
            if (mask == OVS_BE16_MAX) {
                ds_put_format(s, "%s=0x%04"PRIx16",", name, ntohs(tci));
            } else {
                ds_put_format(s, "%s=0x%04"PRIx16"/0x%04"PRIx16",",
                              name, ntohs(tci), ntohs(mask));
            }
        }
    }

    format_eth_masked(s, "dl_src", f->dl_src, wc->masks.dl_src);
    format_eth_masked(s, "dl_dst", f->dl_dst, wc->masks.dl_dst);
    if (!skip_type && wc->masks.dl_type) {
        ds_put_format(s, "dl_type=0x%04"PRIx16",", ntohs(f->dl_type));
    }

    if (f->dl_type == htons(ETH_TYPE_MPLS)
        || f->dl_type == htons(ETH_TYPE_MPLS_MCAST)) {
        format_mpls(s, f, &wc->masks);
    }

    bool is_arp = (f->dl_type == htons(ETH_TYPE_ARP)
                   || f->dl_type == htons(ETH_TYPE_RARP));
    if (f->dl_type == htons(ETH_TYPE_IPV6)) {
        format_ipv6_netmask(s, "ipv6_src", &f->ipv6_src, &wc->masks.ipv6_src);
        format_ipv6_netmask(s, "ipv6_dst", &f->ipv6_dst, &wc->masks.ipv6_dst);
        if (wc->masks.ipv6_label) {
            if ((wc->masks.ipv6_label | htonl(~IPV6_LABEL_MASK))
                == OVS_BE32_MAX) {
                ds_put_format(s, "ipv6_label=0x%05"PRIx32",",
                              ntohl(f->ipv6_label));
            } else {
                ds_put_format(s, "ipv6_label=0x%05"PRIx32"/0x%05"PRIx32",",
                              ntohl(f->ipv6_label),
                              ntohl(wc->masks.ipv6_label));
            }
        }
    } else if (is_arp) {
        format_ip_netmask(s, "arp_spa", f->nw_src, wc->masks.nw_src);
        format_ip_netmask(s, "arp_tpa", f->nw_dst, wc->masks.nw_dst);
    } else {
        format_ip_netmask(s, "nw_src", f->nw_src, wc->masks.nw_src);
        format_ip_netmask(s, "nw_dst", f->nw_dst, wc->masks.nw_dst);
    }
    if (!skip_proto && wc->masks.nw_proto) {
        ds_put_format(s, "%s=%"PRIu8",", is_arp ? "arp_op" : "nw_proto",
                      f->nw_proto);
    }
    if (is_arp) {
        format_eth_masked(s, "arp_sha", f->arp_sha, wc->masks.arp_sha);
        format_eth_masked(s, "arp_tha", f->arp_tha, wc->masks.arp_tha);
    }
    if (wc->masks.nw_tos & 0xfc) {
        ds_put_format(s, "nw_tos=%"PRIu8",", f->nw_tos & 0xfc);
    }
    if (wc->masks.nw_tos & 0x03) {
        ds_put_format(s, "nw_ecn=%"PRIu8",", f->nw_tos & 0x03);
    }
    if (wc->masks.nw_ttl) {
        ds_put_format(s, "nw_ttl=%"PRIu8",", f->nw_ttl);
    }

    switch (wc->masks.nw_frag & FLOW_NW_FRAG_MASK) {
    case FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER:
        ds_put_format(s, "nw_frag=%s,",
                      f->nw_frag & FLOW_NW_FRAG_ANY
                      ? (f->nw_frag & FLOW_NW_FRAG_LATER ? "later" : "first")
                      : (f->nw_frag & FLOW_NW_FRAG_LATER ? "<error>" : "no"));
        break;
    case FLOW_NW_FRAG_ANY:
        ds_put_format(s, "nw_frag=%s,",
                      f->nw_frag & FLOW_NW_FRAG_ANY ? "yes" : "no");
        break;
    case FLOW_NW_FRAG_LATER:
        ds_put_format(s, "nw_frag=%s,",
                      f->nw_frag & FLOW_NW_FRAG_LATER ? "later" : "not_later");
        break;
    }

    if (f->dl_type == htons(ETH_TYPE_IP) && f->nw_proto == IPPROTO_ICMP) {
        format_icmp_field(s, "icmp_type", f->tp_src, wc->masks.tp_src);
        format_icmp_field(s, "icmp_code", f->tp_dst, wc->masks.tp_dst);
    } else if (f->dl_type == htons(ETH_TYPE_IPV6)
               && f->nw_proto == IPPROTO_ICMPV6) {
        format_icmp_field(s, "icmp_type", f->tp_src, wc->masks.tp_src);
        format_icmp_field(s, "icmp_code", f->tp_dst, wc->masks.tp_dst);
        format_ipv6_netmask(s, "nd_target", &f->nd_target,
                            &wc->masks.nd_target);
        format_eth_masked(s, "nd_sll", f->arp_sha, wc->masks.arp_sha);
        format_eth_masked(s, "nd_tll", f->arp_tha, wc->masks.arp_tha);
        if (wc->masks.nd_reserved) {
            ds_put_format(s, "nd_reserved=%"PRIu32",",
                          ntohl(f->nd_reserved));
        }
        if (wc->masks.nd_options_type) {
            ds_put_format(s, "nd_options_type=%"PRIu8",",
                          f->nd_options_type);
        }
    } else {
        format_be16_masked(s, "tp_src", f->tp_src, wc->masks.tp_src);
        format_be16_masked(s, "tp_dst", f->tp_dst, wc->masks.tp_dst);
    }
    format_nsh(s, f, &wc->masks);
    if (flow_is_ip_any(f) && f->nw_proto == IPPROTO_TCP && wc->masks.tcp_flags) {
        ds_put_cstr(s, "tcp_flags=");
        mf_format_flags_masked(s, mf_tcp_flag_name, ntohs(f->tcp_flags),
                               ntohs(wc->masks.tcp_flags) & TCP_FLAGS_MASK,
                               TCP_FLAGS_MASK);
        ds_put_char(s, ',');
    }

    if (s->length > start_len) {
        ds_chomp(s, ',');
    }
}

char *
match_to_string(const struct match *match,
                const struct ofputil_port_map *port_map, int priority)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    match_format(match, port_map, &s, priority);
    return ds_steal_cstr(&s);
}

void
flow_format(const struct flow *flow, struct ds *s)
{
    struct match match;
    match.flow = *flow;
    struct flow_wildcards *wc = &match.wc;
    flow_wildcards_init_catchall(wc);
    struct flow *m = &wc->masks;
    WC_MASK_FIELD(wc, in_port);
    m->vlans[0].tci = OVS_BE16_MAX;
    if (flow_vlan_present(&flow->vlans[0])) {
        m->vlans[1].tci = OVS_BE16_MAX;
    }
    WC_MASK_FIELD(wc, dl_src);
    WC_MASK_FIELD(wc, dl_dst);
    WC_MASK_FIELD(wc, dl_type);
    if (flow->metadata) {
        WC_MASK_FIELD(wc, metadata);
    }
    if (flow->recirc_id) {
        /* A recirculated packet (3.1 then also names its type, "eth"). */
        WC_MASK_FIELD(wc, recirc_id);
        WC_MASK_FIELD(wc, packet_type);
    }
    if (flow->tunnel.tun_id) {
        WC_MASK_FIELD(wc, tunnel.tun_id);
    }
    for (int i = 0; i < FLOW_N_REGS; i++) {
        if (flow->regs[i]) {
            m->regs[i] = UINT32_MAX;
        }
    }
    uint16_t dl_type = ntohs(flow->dl_type);
    if (dl_type == ETH_TYPE_ARP || dl_type == ETH_TYPE_RARP) {
        WC_MASK_FIELD(wc, nw_src);
        WC_MASK_FIELD(wc, nw_dst);
        WC_MASK_FIELD(wc, nw_proto);
        WC_MASK_FIELD(wc, arp_sha);
        WC_MASK_FIELD(wc, arp_tha);
    } else if (eth_type_mpls(flow->dl_type)) {
        memset(m->mpls_lse, 0xff,
               flow_mpls_depth(flow, NULL) * sizeof m->mpls_lse[0]);
    } else if (dl_type == ETH_TYPE_IP || dl_type == ETH_TYPE_IPV6) {
        if (dl_type == ETH_TYPE_IP) {
            WC_MASK_FIELD(wc, nw_src);
            WC_MASK_FIELD(wc, nw_dst);
        } else {
            WC_MASK_FIELD(wc, ipv6_src);
            WC_MASK_FIELD(wc, ipv6_dst);
        }
        WC_MASK_FIELD(wc, nw_proto);
        WC_MASK_FIELD(wc, nw_tos);
        WC_MASK_FIELD(wc, nw_ttl);
        /* nw_frag prints even when zero ("no"). */
        m->nw_frag = FLOW_NW_FRAG_MASK;
        if (!(flow->nw_frag & FLOW_NW_FRAG_LATER)
            && (flow->nw_proto == IPPROTO_TCP || flow->nw_proto == IPPROTO_UDP
                || flow->nw_proto == IPPROTO_SCTP
                || flow->nw_proto == IPPROTO_ICMP
                || flow->nw_proto == IPPROTO_ICMPV6)) {
            WC_MASK_FIELD(wc, tp_src);
            WC_MASK_FIELD(wc, tp_dst);
            if (flow->nw_proto == IPPROTO_TCP) {
                m->tcp_flags = htons(0x0fff);
            }
        }
    }
    const struct flow_tnl *t = &flow->tunnel;
    if (!t->ip_dst && ipv6_addr_is_zero(&t->ipv6_dst)) {
        match_format(&match, NULL, s, OFP_DEFAULT_PRIORITY);
        return;
    }

    /* A packet from a tunnel: 3.1 prints its whole outer header, zeros
     * included, after the protocol name (the first item, when it has no
     * '='), in this order and style. */
    struct ds rest = DS_EMPTY_INITIALIZER;
    m->tunnel.tun_id = 0;       /* Printed with the rest of the tunnel. */
    match_format(&match, NULL, &rest, OFP_DEFAULT_PRIORITY);
    const char *r = ds_cstr(&rest);
    size_t first = strcspn(r, ",");
    if (r[first] == ',' && !memchr(r, '=', first)) {
        ds_put_buffer(s, r, first + 1);
        r += first + 1;
    }
    if (t->tun_id) {
        ds_put_format(s, "tun_id=%#"PRIx64",", ntohll(t->tun_id));
    }
    char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];
    ds_put_format(s, "tun_src="IP_FMT",tun_dst="IP_FMT",tun_ipv6_src=%s,"
                  "tun_ipv6_dst=%s,tun_gbp_id=%"PRIu16",tun_gbp_flags=%"PRIu8
                  ",tun_tos=%"PRIu8",tun_ttl=%"PRIu8",tun_erspan_ver=%"PRIu8
                  ",gtpu_flags=%#"PRIx8",gtpu_msgtype=%"PRIu8",tun_flags=",
                  IP_ARGS(t->ip_src), IP_ARGS(t->ip_dst),
                  inet_ntop(AF_INET6, &t->ipv6_src, src, sizeof src),
                  inet_ntop(AF_INET6, &t->ipv6_dst, dst, sizeof dst),
                  ntohs(t->gbp_id), t->gbp_flags, t->ip_tos, t->ip_ttl,
                  t->erspan_ver, t->gtpu_flags, t->gtpu_msgtype);
    static const struct { uint16_t bit; const char *name; } flags[] = {
        { FLOW_TNL_F_DONT_FRAGMENT, "df" }, { FLOW_TNL_F_CSUM, "csum" },
        { FLOW_TNL_F_KEY, "key" }, { FLOW_TNL_F_OAM, "oam" },
    };
    bool any = false;
    for (size_t i = 0; i < ARRAY_SIZE(flags); i++) {
        if (t->flags & flags[i].bit) {
            ds_put_format(s, "%s%s", any ? "|" : "", flags[i].name);
            any = true;
        }
    }
    ds_put_format(s, "%s,%s", any ? "" : "0", r);
    ds_destroy(&rest);
}
