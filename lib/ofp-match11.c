/* ofp-match11: OpenFlow 1.1's standard match. */
#include <config.h>
#include "ofp-match.h"

#include <netinet/in.h>
#include <string.h>
#include "match.h"
#include "nx-match.h"
#include "ofp-port.h"
#include "ofpbuf.h"
#include "packets.h"

#define IP_DSCP_MASK 0xfc

/* 1.1 masks have 1-bits where the field is ignored: the reverse of ours. */
static struct eth_addr
eth_invert(struct eth_addr a)
{
    for (size_t i = 0; i < sizeof a.ea; i++) {
        a.ea[i] = ~a.ea[i];
    }
    return a;
}

enum ofperr
ofputil_match_from_ofp11_match(const struct ofp11_match *om,
                               struct match *match)
{
    uint32_t wc = ntohl(om->wildcards);
    match_init_catchall(match);
    struct flow *f = &match->flow;
    struct flow_wildcards *w = &match->wc;

    if (!(wc & OFPFW11_IN_PORT)) {
        uint32_t port;
        if (ofputil_port_from_ofp11(om->in_port, &port)) {
            return OFPERR_OFPBMC_BAD_VALUE;
        }
        match_set_in_port(match, port);
    }

    struct eth_addr mask = eth_invert(om->dl_src_mask);
    for (size_t i = 0; i < sizeof mask.ea; i++) {
        f->dl_src.ea[i] = om->dl_src.ea[i] & mask.ea[i];
    }
    w->masks.dl_src = mask;
    mask = eth_invert(om->dl_dst_mask);
    for (size_t i = 0; i < sizeof mask.ea; i++) {
        f->dl_dst.ea[i] = om->dl_dst.ea[i] & mask.ea[i];
    }
    w->masks.dl_dst = mask;

    if (!(wc & OFPFW11_DL_VLAN)) {
        uint16_t vid = ntohs(om->dl_vlan);
        if (vid == OFPVID11_NONE) {
            match_set_vlan_tci_masked(match, 0, OVS_BE16_MAX);
        } else {
            ovs_be16 tci, tci_mask;
            if (vid != OFPVID11_ANY && vid > VLAN_VID_MASK) {
                return OFPERR_OFPBMC_BAD_VALUE;
            }
            if (vid == OFPVID11_ANY) {
                tci = tci_mask = htons(VLAN_CFI);
            } else {
                tci = htons((vid & VLAN_VID_MASK) | VLAN_CFI);
                tci_mask = htons(VLAN_VID_MASK | VLAN_CFI);
            }
            if (!(wc & OFPFW11_DL_VLAN_PCP)) {
                tci |= htons((om->dl_vlan_pcp & 7) << VLAN_PCP_SHIFT);
                tci_mask |= htons(VLAN_PCP_MASK);
            }
            match_set_vlan_tci_masked(match, tci, tci_mask);
        }
    }

    if (!(wc & OFPFW11_DL_TYPE)) {
        match_set_dl_type(match, om->dl_type);
    }
    bool ipv4 = (w->masks.dl_type == OVS_BE16_MAX
                 && f->dl_type == htons(ETH_TYPE_IP));
    bool arp = (w->masks.dl_type == OVS_BE16_MAX
                && f->dl_type == htons(ETH_TYPE_ARP));

    if (ipv4 && !(wc & OFPFW11_NW_TOS)) {
        if (om->nw_tos & ~IP_DSCP_MASK) {
            return OFPERR_OFPBMC_BAD_VALUE;
        }
        f->nw_tos = om->nw_tos;
        w->masks.nw_tos |= IP_DSCP_MASK;
    }
    if (ipv4 || arp) {
        if (!(wc & OFPFW11_NW_PROTO)) {
            match_set_nw_proto(match, om->nw_proto);
        }
        match_set_nw_src_masked(match, om->nw_src, ~om->nw_src_mask);
        match_set_nw_dst_masked(match, om->nw_dst, ~om->nw_dst_mask);
    }
    if (ipv4 && w->masks.nw_proto == UINT8_MAX) {
        switch (f->nw_proto) {
        case IPPROTO_ICMP:
            /* The ICMP type and code are 8 bits wide. */
            if (!(wc & OFPFW11_TP_SRC)) {
                match_set_tp_src_masked(match,
                                        htons(ntohs(om->tp_src) & 0xff),
                                        OVS_BE16_MAX);
            }
            if (!(wc & OFPFW11_TP_DST)) {
                match_set_tp_dst_masked(match,
                                        htons(ntohs(om->tp_dst) & 0xff),
                                        OVS_BE16_MAX);
            }
            break;
        case IPPROTO_TCP:
        case IPPROTO_UDP:
        case IPPROTO_SCTP:
            if (!(wc & OFPFW11_TP_SRC)) {
                match_set_tp_src_masked(match, om->tp_src, OVS_BE16_MAX);
            }
            if (!(wc & OFPFW11_TP_DST)) {
                match_set_tp_dst_masked(match, om->tp_dst, OVS_BE16_MAX);
            }
            break;
        default:
            /* 1.1 says to ignore the ports for other protocols. */
            break;
        }
    }
    bool mpls = (w->masks.dl_type == OVS_BE16_MAX
                 && (f->dl_type == htons(ETH_TYPE_MPLS)
                     || f->dl_type == htons(ETH_TYPE_MPLS_MCAST)));
    if (mpls) {
        uint32_t lse = 0, lse_mask = 0;
        if (!(wc & OFPFW11_MPLS_LABEL)) {
            lse |= (ntohl(om->mpls_label) << MPLS_LABEL_SHIFT)
                   & MPLS_LABEL_MASK;
            lse_mask |= MPLS_LABEL_MASK;
        }
        if (!(wc & OFPFW11_MPLS_TC)) {
            lse |= (om->mpls_tc << MPLS_TC_SHIFT) & MPLS_TC_MASK;
            lse_mask |= MPLS_TC_MASK;
        }
        f->mpls_lse[0] = htonl(lse);
        w->masks.mpls_lse[0] = htonl(lse_mask);
    }
    match_set_metadata_masked(match, om->metadata, ~om->metadata_mask);
    ofputil_match_set_ethernet_if_needed(match);
    return 0;
}

void
ofputil_match_to_ofp11_match(const struct match *match,
                             struct ofp11_match *om)
{
    const struct flow *f = &match->flow;
    const struct flow_wildcards *w = &match->wc;
    uint32_t wc = 0;

    memset(om, 0, sizeof *om);
    om->type = htons(OFPMT_STANDARD);
    om->length = htons(OFPMT11_STANDARD_LENGTH);
    if (!w->masks.in_port) {
        wc |= OFPFW11_IN_PORT;
    } else {
        om->in_port = ofputil_port_to_ofp11(f->in_port);
    }
    om->dl_src = f->dl_src;
    om->dl_src_mask = eth_invert(w->masks.dl_src);
    om->dl_dst = f->dl_dst;
    om->dl_dst_mask = eth_invert(w->masks.dl_dst);

    ovs_be16 tci = f->vlans[0].tci, tci_mask = w->masks.vlans[0].tci;
    if (!tci_mask) {
        wc |= OFPFW11_DL_VLAN | OFPFW11_DL_VLAN_PCP;
    } else if (tci_mask & htons(VLAN_CFI) && !(tci & htons(VLAN_CFI))) {
        om->dl_vlan = htons(OFPVID11_NONE);
        wc |= OFPFW11_DL_VLAN_PCP;
    } else {
        om->dl_vlan = (!(tci_mask & htons(VLAN_VID_MASK))
                       ? htons(OFPVID11_ANY)
                       : htons(ntohs(tci) & VLAN_VID_MASK));
        if (!(tci_mask & htons(VLAN_PCP_MASK))) {
            wc |= OFPFW11_DL_VLAN_PCP;
        } else {
            om->dl_vlan_pcp = (ntohs(tci) & VLAN_PCP_MASK) >> VLAN_PCP_SHIFT;
        }
    }
    if (!w->masks.dl_type) {
        wc |= OFPFW11_DL_TYPE;
    } else {
        om->dl_type = f->dl_type;
    }
    if (!(w->masks.nw_tos & IP_DSCP_MASK)) {
        wc |= OFPFW11_NW_TOS;
    } else {
        om->nw_tos = f->nw_tos & IP_DSCP_MASK;
    }
    if (!w->masks.nw_proto) {
        wc |= OFPFW11_NW_PROTO;
    } else {
        om->nw_proto = f->nw_proto;
    }
    om->nw_src = f->nw_src;
    om->nw_src_mask = ~w->masks.nw_src;
    om->nw_dst = f->nw_dst;
    om->nw_dst_mask = ~w->masks.nw_dst;
    if (!w->masks.tp_src) {
        wc |= OFPFW11_TP_SRC;
    } else {
        om->tp_src = f->tp_src;
    }
    if (!w->masks.tp_dst) {
        wc |= OFPFW11_TP_DST;
    } else {
        om->tp_dst = f->tp_dst;
    }
    uint32_t lse = ntohl(f->mpls_lse[0]);
    uint32_t lse_mask = ntohl(w->masks.mpls_lse[0]);
    if (lse_mask & MPLS_LABEL_MASK) {
        om->mpls_label = htonl((lse & MPLS_LABEL_MASK) >> MPLS_LABEL_SHIFT);
    } else {
        wc |= OFPFW11_MPLS_LABEL;
    }
    if (lse_mask & MPLS_TC_MASK) {
        om->mpls_tc = (lse & MPLS_TC_MASK) >> MPLS_TC_SHIFT;
    } else {
        wc |= OFPFW11_MPLS_TC;
    }
    om->metadata = f->metadata;
    om->metadata_mask = ~w->masks.metadata;
    om->wildcards = htonl(wc);
}

enum ofperr
ofputil_pull_ofp11_match(struct ofpbuf *b, struct match *match)
{
    const struct ofp11_match_header *omh = b->size >= sizeof *omh ? b->data
                                                                  : NULL;
    if (!omh) {
        return OFPERR_OFPBMC_BAD_LEN;
    }
    if (omh->type == htons(OFPMT_STANDARD)) {
        if (omh->length != htons(OFPMT11_STANDARD_LENGTH)
            || b->size < OFPMT11_STANDARD_LENGTH) {
            return OFPERR_OFPBMC_BAD_LEN;
        }
        const struct ofp11_match *om = ofpbuf_pull(b, sizeof *om);
        return ofputil_match_from_ofp11_match(om, match);
    } else if (omh->type == htons(OFPMT_OXM)) {
        return oxm_pull_match(b, match);
    }
    return OFPERR_OFPBMC_BAD_TYPE;
}
