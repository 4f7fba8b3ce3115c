/* ofp-packet: packet_in and packet_out in every version and format. */
#include <config.h>
#include "ofp-packet.h"

#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include "dp-packet.h"
#include "dynamic-string.h"
#include "flow-extract.h"
#include "mpls.h"
#include "nx-match.h"
#include "ofp-actions.h"
#include "ofp-fields.h"
#include "ofp-msgs.h"
#include "ofp-parse.h"
#include "ofp-prop.h"
#include "ofp-port.h"
#include "ofpbuf.h"
#include "packets.h"
#include "util.h"

/* ------------------------------------------------------------------ */
/* Packet metadata. */

/* The connection tracking fields of a packet-in's metadata, as 3.1 puts
 * them: ct_state, ct_zone, ct_mark and ct_label when nonzero, and the
 * original direction's tuple of a valid tracked connection; with a
 * ct_state, the Ethernet type too, which says the tuple's family. */
static void
packet_in_metadata_put_ct(struct match *md, const struct flow *flow)
{
    if (flow->ct_state) {
        md->flow.ct_state = flow->ct_state;
        md->wc.masks.ct_state = UINT32_MAX;
        match_set_dl_type(md, flow->dl_type);
        /* A valid connection's packet is new, established or a reply. */
        bool valid = (flow->ct_state
                      & (CS_NEW | CS_ESTABLISHED | CS_REPLY_DIR)) != 0;
        bool ip4 = flow->dl_type == htons(ETH_TYPE_IP);
        bool ip6 = flow->dl_type == htons(ETH_TYPE_IPV6);
        if (valid && flow->ct_nw_proto && (ip4 || ip6)) {
            if (ip4) {
                md->flow.ct_nw_src = flow->ct_nw_src;
                md->wc.masks.ct_nw_src = OVS_BE32_MAX;
                md->flow.ct_nw_dst = flow->ct_nw_dst;
                md->wc.masks.ct_nw_dst = OVS_BE32_MAX;
            } else {
                md->flow.ct_ipv6_src = flow->ct_ipv6_src;
                memset(&md->wc.masks.ct_ipv6_src, 0xff,
                       sizeof md->wc.masks.ct_ipv6_src);
                md->flow.ct_ipv6_dst = flow->ct_ipv6_dst;
                memset(&md->wc.masks.ct_ipv6_dst, 0xff,
                       sizeof md->wc.masks.ct_ipv6_dst);
            }
            md->flow.ct_nw_proto = flow->ct_nw_proto;
            md->wc.masks.ct_nw_proto = UINT8_MAX;
            md->flow.ct_tp_src = flow->ct_tp_src;
            md->wc.masks.ct_tp_src = OVS_BE16_MAX;
            md->flow.ct_tp_dst = flow->ct_tp_dst;
            md->wc.masks.ct_tp_dst = OVS_BE16_MAX;
        }
    }
    if (flow->ct_zone) {
        md->flow.ct_zone = flow->ct_zone;
        md->wc.masks.ct_zone = UINT16_MAX;
    }
    if (flow->ct_mark) {
        md->flow.ct_mark = flow->ct_mark;
        md->wc.masks.ct_mark = UINT32_MAX;
    }
    static const uint8_t zero_label[16];
    if (memcmp(flow->ct_label, zero_label, sizeof zero_label)) {
        memcpy(md->flow.ct_label, flow->ct_label, sizeof md->flow.ct_label);
        memset(md->wc.masks.ct_label, 0xff, sizeof md->wc.masks.ct_label);
    }
}

void
ofputil_packet_in_metadata_from_flow(struct match *md, const struct flow *flow)
{
    /* 3.1 reports in_port always and the other pipeline fields only when
     * they are nonzero. */
    match_init_catchall(md);
    match_set_in_port(md, flow->in_port);
    const struct flow_tnl *tnl = &flow->tunnel;
    if (tnl->tun_id) {
        match_set_tun_id_masked(md, tnl->tun_id, OVS_BE64_MAX);
    }
    /* Of the tunnel flags only OAM is OpenFlow's to see. */
    if (tnl->flags & FLOW_TNL_F_OAM) {
        md->flow.tunnel.flags = FLOW_TNL_F_OAM;
        md->wc.masks.tunnel.flags = FLOW_TNL_F_OAM;
    }
    if (tnl->ip_src) {
        md->flow.tunnel.ip_src = tnl->ip_src;
        md->wc.masks.tunnel.ip_src = OVS_BE32_MAX;
    }
    if (tnl->ip_dst) {
        md->flow.tunnel.ip_dst = tnl->ip_dst;
        md->wc.masks.tunnel.ip_dst = OVS_BE32_MAX;
    }
    if (!ipv6_addr_is_zero(&tnl->ipv6_src)) {
        md->flow.tunnel.ipv6_src = tnl->ipv6_src;
        memset(&md->wc.masks.tunnel.ipv6_src, 0xff,
               sizeof md->wc.masks.tunnel.ipv6_src);
    }
    if (!ipv6_addr_is_zero(&tnl->ipv6_dst)) {
        md->flow.tunnel.ipv6_dst = tnl->ipv6_dst;
        memset(&md->wc.masks.tunnel.ipv6_dst, 0xff,
               sizeof md->wc.masks.tunnel.ipv6_dst);
    }
    if (tnl->gbp_id) {
        md->flow.tunnel.gbp_id = tnl->gbp_id;
        md->wc.masks.tunnel.gbp_id = OVS_BE16_MAX;
    }
    if (tnl->gbp_flags) {
        md->flow.tunnel.gbp_flags = tnl->gbp_flags;
        md->wc.masks.tunnel.gbp_flags = UINT8_MAX;
    }
    if (flow->metadata) {
        match_set_metadata_masked(md, flow->metadata, OVS_BE64_MAX);
    }
    for (int i = 0; i < FLOW_N_REGS; i++) {
        if (flow->regs[i]) {
            match_set_reg(md, i, flow->regs[i]);
        }
    }
    if (flow->pkt_mark) {
        md->flow.pkt_mark = flow->pkt_mark;
        md->wc.masks.pkt_mark = UINT32_MAX;
    }
    /* An Ethernet frame is the default that goes unsaid. */
    if (flow->packet_type != htonl(PT_ETH)) {
        match_set_packet_type(md, flow->packet_type);
    }
    packet_in_metadata_put_ct(md, flow);
}

/* Reasons: what each version can say.  1.3 reports a miss through a
 * table-miss flow as "action"; before 1.4 there are no action_set, group
 * or packet_out reasons. */
static uint8_t
encode_reason(uint8_t reason, enum ofp_version version)
{
    switch (reason) {
    case OFPR_ACTION_SET:
    case OFPR_GROUP:
    case OFPR_PACKET_OUT:
        return version < OFP14_VERSION ? OFPR_ACTION : reason;
    case OFPR_EXPLICIT_MISS:
        return version <= OFP12_VERSION ? OFPR_NO_MATCH : OFPR_ACTION;
    case OFPR_IMPLICIT_MISS:
        return OFPR_NO_MATCH;
    default:
        return reason;
    }
}

/* ------------------------------------------------------------------ */
/* NXT_PACKET_IN2 properties. */

static void
put_prop_u8(struct ofpbuf *b, uint16_t type, uint8_t value)
{
    ofpprop_put(b, type, &value, 1);
}

static void
put_prop_be32(struct ofpbuf *b, uint16_t type, ovs_be32 value)
{
    ofpprop_put(b, type, &value, 4);
}

static void
put_prop_be64(struct ofpbuf *b, uint16_t type, ovs_be64 value)
{
    /* 64-bit values sit 8-aligned: 4 bytes of padding after the header. */
    uint8_t payload[12] = { 0 };
    memcpy(payload + 4, &value, 8);
    ofpprop_put(b, type, payload, sizeof payload);
}

static enum ofperr
pull_prop(struct ofpbuf *b, uint16_t *type, const uint8_t **payload,
          size_t *len)
{
    const struct ofp_prop_header *ph = ofpbuf_try_pull(b, sizeof *ph);
    if (!ph) {
        return OFPERR_OFPBPC_BAD_LEN;
    }
    size_t prop_len = ntohs(ph->len);
    if (prop_len < sizeof *ph
        || ROUND_UP(prop_len, 8) - sizeof *ph > b->size) {
        return OFPERR_OFPBPC_BAD_LEN;
    }
    *type = ntohs(ph->type);
    *payload = b->data;
    *len = prop_len - sizeof *ph;
    ofpbuf_pull(b, ROUND_UP(prop_len, 8) - sizeof *ph);
    return 0;
}

static enum ofperr
decode_packet_in2(struct ofpbuf *b, bool loose, struct ofputil_packet_in *pin)
{
    bool have_full_len = false;
    uint32_t full_len = 0;
    bool have_packet = false;

    while (b->size) {
        uint16_t type;
        const uint8_t *p;
        size_t len;
        enum ofperr error = pull_prop(b, &type, &p, &len);
        if (error) {
            return error;
        }
        switch (type) {
        case NXPINT_PACKET:
            pin->packet = p;
            pin->packet_len = len;
            have_packet = true;
            break;
        case NXPINT_FULL_LEN:
        case NXPINT_BUFFER_ID: {
            if (len != 4) {
                return OFPERR_OFPBPC_BAD_LEN;
            }
            ovs_be32 value;
            memcpy(&value, p, 4);
            if (type == NXPINT_FULL_LEN) {
                full_len = ntohl(value);
                have_full_len = true;
            } else {
                pin->buffer_id = ntohl(value);
            }
            break;
        }
        case NXPINT_TABLE_ID:
        case NXPINT_REASON:
            if (len != 1) {
                return OFPERR_OFPBPC_BAD_LEN;
            }
            if (type == NXPINT_TABLE_ID) {
                pin->table_id = p[0];
            } else {
                pin->reason = p[0];
            }
            break;
        case NXPINT_COOKIE:
            if (len == 12) {
                memcpy(&pin->cookie, p + 4, 8);
            } else if (len == 8) {
                memcpy(&pin->cookie, p, 8);
            } else {
                return OFPERR_OFPBPC_BAD_LEN;
            }
            break;
        case NXPINT_METADATA:
            error = oxm_decode_match(p, len, loose, &pin->flow_metadata);
            if (error) {
                return error;
            }
            break;
        case NXPINT_USERDATA:
            pin->userdata = p;
            pin->userdata_len = len;
            break;
        default:
            if (!loose) {
                return OFPERR_OFPBPC_BAD_TYPE;
            }
            break;
        }
    }
    if (!have_packet) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    pin->total_len = have_full_len ? full_len : pin->packet_len;
    return 0;
}

/* ------------------------------------------------------------------ */
/* packet_in. */

enum ofperr
ofputil_decode_packet_in(const struct ofp_header *oh, bool loose,
                         struct ofputil_packet_in *pin)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    enum ofpraw raw;
    enum ofperr error = ofpraw_pull(&raw, &b);
    if (error) {
        return error;
    }

    memset(pin, 0, sizeof *pin);
    match_init_catchall(&pin->flow_metadata);
    pin->cookie = OVS_BE64_MAX;
    pin->buffer_id = OFP_NO_BUFFER;

    switch ((int) raw) {
    case OFPRAW_OFPT10_PACKET_IN: {
        const struct ofp10_packet_in *opi = ofpbuf_pull(&b, sizeof *opi);
        pin->buffer_id = ntohl(opi->buffer_id);
        pin->total_len = ntohs(opi->total_len);
        pin->reason = opi->reason;
        match_set_in_port(&pin->flow_metadata, ntohs(opi->in_port));
        break;
    }
    case OFPRAW_OFPT11_PACKET_IN: {
        const struct ofp11_packet_in *opi = ofpbuf_pull(&b, sizeof *opi);
        uint32_t in_port;
        error = ofputil_port_from_ofp11(opi->in_port, &in_port);
        if (error) {
            return error;
        }
        pin->buffer_id = ntohl(opi->buffer_id);
        pin->total_len = ntohs(opi->total_len);
        pin->reason = opi->reason;
        pin->table_id = opi->table_id;
        match_set_in_port(&pin->flow_metadata, in_port);
        break;
    }
    case OFPRAW_OFPT12_PACKET_IN:
    case OFPRAW_OFPT13_PACKET_IN: {
        const struct ofp12_packet_in *opi = ofpbuf_pull(&b, sizeof *opi);
        if (raw == OFPRAW_OFPT13_PACKET_IN) {
            const ovs_be64 *cookie = ofpbuf_pull(&b, sizeof *cookie);
            pin->cookie = *cookie;
        }
        pin->buffer_id = ntohl(opi->buffer_id);
        pin->total_len = ntohs(opi->total_len);
        pin->reason = opi->reason;
        pin->table_id = opi->table_id;
        error = (loose ? oxm_pull_match_loose(&b, &pin->flow_metadata)
                 : oxm_pull_match(&b, &pin->flow_metadata));
        if (error) {
            return error;
        }
        if (!ofpbuf_try_pull(&b, 2)) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        break;
    }
    case OFPRAW_NXT_PACKET_IN: {
        const struct nx_packet_in *npi = ofpbuf_pull(&b, sizeof *npi);
        error = (loose
                 ? nx_pull_match_loose(&b, ntohs(npi->match_len),
                                       &pin->flow_metadata, NULL, NULL)
                 : nx_pull_match(&b, ntohs(npi->match_len),
                                 &pin->flow_metadata, NULL, NULL));
        if (error) {
            return error;
        }
        if (!ofpbuf_try_pull(&b, 2)) {
            return OFPERR_OFPBRC_BAD_LEN;
        }
        pin->buffer_id = ntohl(npi->buffer_id);
        pin->total_len = ntohs(npi->total_len);
        pin->reason = npi->reason;
        pin->table_id = npi->table_id;
        pin->cookie = npi->cookie;
        break;
    }
    case OFPRAW_NXT_PACKET_IN2:
        return decode_packet_in2(&b, loose, pin);
    default:
        return OFPERR_OFPBRC_BAD_TYPE;
    }
    pin->packet = b.data;
    pin->packet_len = b.size;
    return 0;
}

struct ofpbuf *
ofputil_encode_packet_in(const struct ofputil_packet_in *pin,
                         enum ofputil_protocol protocol,
                         enum ofputil_packet_in_format format)
{
    enum ofp_version version = ofputil_protocol_to_ofp_version(protocol);
    uint8_t reason = encode_reason(pin->reason, version);
    /* Asynchronous messages have xid 0. */
    ovs_be32 xid = htonl(0);
    struct ofpbuf *msg;

    if (format == OFPUTIL_PACKET_IN_NXT2) {
        msg = ofpraw_alloc_xid(OFPRAW_NXT_PACKET_IN2, version, xid,
                               pin->packet_len + 128);
        ofpprop_put(msg, NXPINT_PACKET, pin->packet, pin->packet_len);
        if (pin->total_len != pin->packet_len) {
            put_prop_be32(msg, NXPINT_FULL_LEN, htonl(pin->total_len));
        }
        if (pin->buffer_id != OFP_NO_BUFFER) {
            put_prop_be32(msg, NXPINT_BUFFER_ID, htonl(pin->buffer_id));
        }
        put_prop_u8(msg, NXPINT_TABLE_ID, pin->table_id);
        put_prop_be64(msg, NXPINT_COOKIE, pin->cookie);
        put_prop_u8(msg, NXPINT_REASON, reason);

        size_t start = msg->size;
        ofpbuf_put_zeros(msg, sizeof(struct ofp_prop_header));
        oxm_put_raw(msg, &pin->flow_metadata, version);
        struct ofp_prop_header *ph = ofpbuf_at_assert(msg, start,
                                                      sizeof *ph);
        ph->type = htons(NXPINT_METADATA);
        ph->len = htons(msg->size - start);
        ofpbuf_put_zeros(msg, ROUND_UP(msg->size - start, 8)
                         - (msg->size - start));

        if (pin->userdata_len) {
            ofpprop_put(msg, NXPINT_USERDATA, pin->userdata,
                     pin->userdata_len);
        }
    } else if (format == OFPUTIL_PACKET_IN_NXT) {
        msg = ofpraw_alloc_xid(OFPRAW_NXT_PACKET_IN, version, xid,
                               pin->packet_len + 64);
        size_t ofs = (uint8_t *) msg->msg - (uint8_t *) msg->data;
        int match_len = nx_put_match(msg, &pin->flow_metadata, 0, 0);
        ofpbuf_put_zeros(msg, 2);
        ofpbuf_put(msg, pin->packet, pin->packet_len);
        struct nx_packet_in *npi = ofpbuf_at_assert(msg, ofs, sizeof *npi);
        npi->buffer_id = htonl(pin->buffer_id);
        npi->total_len = htons(pin->total_len);
        npi->reason = reason;
        npi->table_id = pin->table_id;
        npi->cookie = pin->cookie;
        npi->match_len = htons(match_len);
    } else if (version == OFP10_VERSION) {
        msg = ofpraw_alloc_xid(OFPRAW_OFPT10_PACKET_IN, version, xid,
                               pin->packet_len);
        struct ofp10_packet_in *opi = msg->msg;
        opi->buffer_id = htonl(pin->buffer_id);
        opi->total_len = htons(pin->total_len);
        opi->in_port = htons(pin->flow_metadata.flow.in_port);
        opi->reason = reason;
        ofpbuf_put(msg, pin->packet, pin->packet_len);
    } else if (version == OFP11_VERSION) {
        msg = ofpraw_alloc_xid(OFPRAW_OFPT11_PACKET_IN, version, xid,
                               pin->packet_len);
        struct ofp11_packet_in *opi = msg->msg;
        opi->buffer_id = htonl(pin->buffer_id);
        opi->in_port = ofputil_port_to_ofp11(pin->flow_metadata.flow.in_port);
        opi->in_phy_port = opi->in_port;
        opi->total_len = htons(pin->total_len);
        opi->reason = reason;
        opi->table_id = pin->table_id;
        ofpbuf_put(msg, pin->packet, pin->packet_len);
    } else {
        enum ofpraw raw = (version == OFP12_VERSION ? OFPRAW_OFPT12_PACKET_IN
                           : OFPRAW_OFPT13_PACKET_IN);
        msg = ofpraw_alloc_xid(raw, version, xid, pin->packet_len + 64);
        size_t ofs = (uint8_t *) msg->msg - (uint8_t *) msg->data;
        oxm_put_match(msg, &pin->flow_metadata, version);
        ofpbuf_put_zeros(msg, 2);
        ofpbuf_put(msg, pin->packet, pin->packet_len);
        struct ofp12_packet_in *opi = ofpbuf_at_assert(msg, ofs,
                                                       sizeof *opi);
        opi->buffer_id = htonl(pin->buffer_id);
        opi->total_len = htons(pin->total_len);
        opi->reason = reason;
        opi->table_id = pin->table_id;
        if (raw == OFPRAW_OFPT13_PACKET_IN) {
            ovs_be64 *cookie = ofpbuf_at_assert(msg, ofs + sizeof *opi,
                                                sizeof *cookie);
            *cookie = pin->cookie;
        }
    }
    ofpmsg_update_length(msg);
    return msg;
}

/* ------------------------------------------------------------------ */
/* The packet summary. */

/* The fields a packet of FLOW's kind has, as 3.1 shows them: everything
 * from Ethernet up to the last layer present, none of the pipeline
 * metadata (which the caller prints separately). */
static void
packet_summary_match(const struct flow *flow, struct match *m)
{
    match_init_catchall(m);
    m->flow = *flow;
    struct flow_wildcards *wc = &m->wc;
    wc->masks.packet_type = OVS_BE32_MAX;
    if (flow->packet_type == htonl(PT_ETH)) {
        memset(&wc->masks.dl_dst, 0xff, sizeof wc->masks.dl_dst);
        memset(&wc->masks.dl_src, 0xff, sizeof wc->masks.dl_src);
        wc->masks.dl_type = OVS_BE16_MAX;
        wc->masks.vlans[0].tci = OVS_BE16_MAX;
        if (flow->vlans[0].tci & htons(VLAN_CFI)) {
            wc->masks.vlans[1].tci = OVS_BE16_MAX;
        }
    }

    uint16_t dl_type = ntohs(flow->dl_type);
    if (dl_type == ETH_TYPE_IP || dl_type == ETH_TYPE_IPV6) {
        if (dl_type == ETH_TYPE_IP) {
            wc->masks.nw_src = OVS_BE32_MAX;
            wc->masks.nw_dst = OVS_BE32_MAX;
        } else {
            memset(&wc->masks.ipv6_src, 0xff, sizeof wc->masks.ipv6_src);
            memset(&wc->masks.ipv6_dst, 0xff, sizeof wc->masks.ipv6_dst);
            wc->masks.ipv6_label = htonl(0xfffff);
        }
        wc->masks.nw_frag = FLOW_NW_FRAG_MASK;
        wc->masks.nw_tos = UINT8_MAX;
        wc->masks.nw_ttl = UINT8_MAX;
        wc->masks.nw_proto = UINT8_MAX;
        if (!(flow->nw_frag & FLOW_NW_FRAG_LATER)) {
            switch (flow->nw_proto) {
            case IPPROTO_TCP:
                wc->masks.tcp_flags = htons(0x0fff);
                /* Fall through. */
            case IPPROTO_UDP:
            case IPPROTO_SCTP:
            case IPPROTO_ICMP:
                wc->masks.tp_src = OVS_BE16_MAX;
                wc->masks.tp_dst = OVS_BE16_MAX;
                break;
            case IPPROTO_ICMPV6:
                wc->masks.tp_src = OVS_BE16_MAX;
                wc->masks.tp_dst = OVS_BE16_MAX;
                if (!flow->tp_dst && (flow->tp_src == htons(135)
                                      || flow->tp_src == htons(136))) {
                    memset(&wc->masks.nd_target, 0xff,
                           sizeof wc->masks.nd_target);
                    memset(&wc->masks.arp_sha, 0xff,
                           sizeof wc->masks.arp_sha);
                    memset(&wc->masks.arp_tha, 0xff,
                           sizeof wc->masks.arp_tha);
                }
                break;
            case IPPROTO_IGMP:
                wc->masks.tp_src = OVS_BE16_MAX;
                wc->masks.tp_dst = OVS_BE16_MAX;
                wc->masks.igmp_group_ip4 = OVS_BE32_MAX;
                break;
            default:
                break;
            }
        }
    } else if (dl_type == ETH_TYPE_ARP || dl_type == ETH_TYPE_RARP) {
        wc->masks.nw_src = OVS_BE32_MAX;
        wc->masks.nw_dst = OVS_BE32_MAX;
        wc->masks.nw_proto = UINT8_MAX;
        memset(&wc->masks.arp_sha, 0xff, sizeof wc->masks.arp_sha);
        memset(&wc->masks.arp_tha, 0xff, sizeof wc->masks.arp_tha);
    } else if (eth_type_mpls(flow->dl_type)) {
        /* The label stack entries the flow holds. */
        memset(wc->masks.mpls_lse, 0xff,
               flow_mpls_depth(flow, NULL) * sizeof wc->masks.mpls_lse[0]);
    }
    match_zero_wildcarded_fields(m);
}

void
ofp_print_packet_summary(struct ds *s, const void *data, size_t len,
                         ovs_be32 packet_type)
{
    struct dp_packet packet;
    dp_packet_init(&packet, len);
    dp_packet_put(&packet, data, len);
    packet.md.packet_type = packet_type;
    struct flow flow;
    memset(&flow, 0, sizeof flow);
    flow_extract(&packet, &flow);
    /* The packet's own headers only: no port, no metadata. */
    struct flow headers = flow;
    memset(&headers, 0, offsetof(struct flow, dl_dst));
    headers.packet_type = packet_type;

    struct match m;
    packet_summary_match(&headers, &m);
    match_format(&m, NULL, s, OFP_DEFAULT_PRIORITY);

    /* The transport checksum, where the header holds one. */
    const uint8_t *l4 = dp_packet_l4(&packet);
    size_t l4_size = l4 ? dp_packet_l4_size(&packet) : 0;
    uint16_t dl_type = ntohs(flow.dl_type);
    bool ip = dl_type == ETH_TYPE_IP || dl_type == ETH_TYPE_IPV6;
    if (ip && l4) {
        if (flow.nw_proto == IPPROTO_TCP && l4_size >= 20) {
            ds_put_format(s, " tcp_csum:%"PRIx16, (uint16_t) (l4[16] << 8
                                                          | l4[17]));
        } else if (flow.nw_proto == IPPROTO_UDP && l4_size >= 8) {
            ds_put_format(s, " udp_csum:%"PRIx16, (uint16_t) (l4[6] << 8
                                                          | l4[7]));
        } else if (flow.nw_proto == IPPROTO_SCTP && l4_size >= 12) {
            ds_put_format(s, " sctp_csum:%"PRIx32,
                          ((uint32_t) l4[8] << 24 | (uint32_t) l4[9] << 16
                           | (uint32_t) l4[10] << 8 | l4[11]));
        } else if (flow.nw_proto == IPPROTO_ICMP && l4_size >= 8) {
            ds_put_format(s, " icmp_csum:%"PRIx16, (uint16_t) (l4[2] << 8
                                                           | l4[3]));
        } else if (flow.nw_proto == IPPROTO_ICMPV6 && l4_size >= 4) {
            ds_put_format(s, " icmp6_csum:%"PRIx16,
                          (uint16_t) (l4[2] << 8 | l4[3]));
        }
    }
    dp_packet_uninit(&packet);
}

/* The packet type a packet-in's or packet-out's metadata gives its packet:
 * Ethernet unless it names another. */
static ovs_be32
packet_type_of(const struct match *metadata)
{
    return (metadata->wc.masks.packet_type ? metadata->flow.packet_type
            : htonl(PT_ETH));
}

ovs_be32
ofputil_packet_out_type(const struct ofputil_packet_out *po)
{
    return packet_type_of(&po->flow_metadata);
}

static void
format_hex_bytes(struct ds *s, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        ds_put_format(s, "%s%02"PRIx8, i ? "." : "", p[i]);
    }
}

void
ofputil_packet_in_format(struct ds *s, const struct ofputil_packet_in *pin,
                         const struct ofputil_port_map *port_map,
                         const struct ofputil_table_map *table_map,
                         int verbosity)
{
    if (pin->table_id) {
        ds_put_cstr(s, " table_id=");
        ofputil_format_table(pin->table_id, table_map, s);
    }
    if (pin->cookie != OVS_BE64_MAX) {
        ds_put_format(s, " cookie=0x%"PRIx64, ntohll(pin->cookie));
    }
    ds_put_format(s, " total_len=%zu ", pin->total_len);
    match_format(&pin->flow_metadata, port_map, s, OFP_DEFAULT_PRIORITY);

    char reasonbuf[32];
    ds_put_format(s, " (via %s)",
                  ofputil_packet_in_reason_to_string(pin->reason, reasonbuf,
                                                     sizeof reasonbuf));
    ds_put_format(s, " data_len=%zu", pin->packet_len);
    if (pin->buffer_id == OFP_NO_BUFFER) {
        ds_put_cstr(s, " (unbuffered)");
        if (pin->total_len != pin->packet_len) {
            ds_put_cstr(s, " (***total_len != data_len***)");
        }
    } else {
        ds_put_format(s, " buffer=0x%08"PRIx32, pin->buffer_id);
        if (pin->total_len < pin->packet_len) {
            ds_put_cstr(s, " (***total_len < data_len***)");
        }
    }
    if (pin->userdata_len) {
        ds_put_cstr(s, "\n userdata=");
        format_hex_bytes(s, pin->userdata, pin->userdata_len);
    }
    if (verbosity > 0) {
        ds_put_char(s, '\n');
        ofp_print_packet_summary(s, pin->packet, pin->packet_len,
                                 packet_type_of(&pin->flow_metadata));
    }
    if (verbosity > 2) {
        ds_put_char(s, '\n');
        ds_put_hex_dump(s, pin->packet, pin->packet_len, 0, false);
        ds_chomp(s, '\n');
    }
}

enum ofperr
ofputil_packet_in_print(struct ds *s, const struct ofp_header *oh,
                        const struct ofputil_port_map *port_map,
                        const struct ofputil_table_map *table_map,
                        int verbosity)
{
    struct ofputil_packet_in pin;
    enum ofperr error = ofputil_decode_packet_in(oh, true, &pin);
    if (!error) {
        ofputil_packet_in_format(s, &pin, port_map, table_map, verbosity);
    }
    return error;
}

/* ------------------------------------------------------------------ */
/* packet_out. */

/* The ports a packet may come from in a packet_out, as 3.1 allows. */
static bool
packet_out_port_ok(uint32_t port)
{
    return (port < OFPP_MAX || port == OFPP_LOCAL || port == OFPP_NONE
            || port == OFPP_CONTROLLER);
}

enum ofperr
ofputil_decode_packet_out(struct ofputil_packet_out *po,
                          const struct ofp_header *oh,
                          struct ofpbuf *ofpacts)
{
    struct ofpbuf b;
    ofpbuf_use_const(&b, oh, ntohs(oh->length));
    enum ofpraw raw;
    enum ofperr error = ofpraw_pull(&raw, &b);
    if (error) {
        return error;
    }

    memset(po, 0, sizeof *po);
    match_init_catchall(&po->flow_metadata);
    size_t actions_len;
    if (raw == OFPRAW_OFPT10_PACKET_OUT) {
        const struct ofp10_packet_out *opo = ofpbuf_pull(&b, sizeof *opo);
        po->buffer_id = ntohl(opo->buffer_id);
        match_set_in_port(&po->flow_metadata, ntohs(opo->in_port));
        actions_len = ntohs(opo->actions_len);
    } else if (raw == OFPRAW_OFPT11_PACKET_OUT
               && oh->version < OFP15_VERSION) {
        const struct ofp11_packet_out *opo = ofpbuf_pull(&b, sizeof *opo);
        uint32_t in_port;
        error = ofputil_port_from_ofp11(opo->in_port, &in_port);
        if (error) {
            return error;
        }
        po->buffer_id = ntohl(opo->buffer_id);
        match_set_in_port(&po->flow_metadata, in_port);
        actions_len = ntohs(opo->actions_len);
    } else if (raw == OFPRAW_OFPT11_PACKET_OUT) {
        /* 1.5: an OXM match replaces in_port. */
        const struct ofp15_packet_out *opo = ofpbuf_pull(&b, sizeof *opo);
        po->buffer_id = ntohl(opo->buffer_id);
        actions_len = ntohs(opo->actions_len);
        error = oxm_pull_match_loose(&b, &po->flow_metadata);
        if (error) {
            return error;
        }
        /* The match must say where the packet comes from. */
        if (!po->flow_metadata.wc.masks.in_port) {
            return OFPERR_OFPBRC_BAD_PORT;
        }
    } else {
        return OFPERR_OFPBRC_BAD_TYPE;
    }

    if (!packet_out_port_ok(po->flow_metadata.flow.in_port)) {
        return OFPERR_OFPBRC_BAD_PORT;
    }
    if (actions_len > b.size) {
        return OFPERR_OFPBRC_BAD_LEN;
    }
    error = ofpacts_pull_openflow_actions(&b, actions_len, oh->version,
                                          ofpacts);
    if (error) {
        return error;
    }
    po->ofpacts = ofpacts->data;
    po->ofpacts_len = ofpacts->size;
    if (po->buffer_id == OFP_NO_BUFFER) {
        po->packet = b.data;
        po->packet_len = b.size;
    }
    return 0;
}

struct ofpbuf *
ofputil_encode_packet_out(const struct ofputil_packet_out *po,
                          enum ofputil_protocol protocol)
{
    enum ofp_version version = ofputil_protocol_to_ofp_version(protocol);
    struct ofpbuf *msg;
    uint32_t in_port = po->flow_metadata.flow.in_port;

    if (version == OFP10_VERSION) {
        msg = ofpraw_alloc(OFPRAW_OFPT10_PACKET_OUT, version,
                           po->packet_len + po->ofpacts_len);
        size_t ofs = (uint8_t *) msg->msg - (uint8_t *) msg->data;
        size_t len = ofpacts_put_openflow_actions(po->ofpacts,
                                                  po->ofpacts_len, msg,
                                                  version);
        struct ofp10_packet_out *opo = ofpbuf_at_assert(msg, ofs,
                                                        sizeof *opo);
        opo->buffer_id = htonl(po->buffer_id);
        opo->in_port = htons(in_port);
        opo->actions_len = htons(len);
    } else if (version < OFP15_VERSION) {
        msg = ofpraw_alloc(OFPRAW_OFPT11_PACKET_OUT, version,
                           po->packet_len + po->ofpacts_len);
        size_t ofs = (uint8_t *) msg->msg - (uint8_t *) msg->data;
        size_t len = ofpacts_put_openflow_actions(po->ofpacts,
                                                  po->ofpacts_len, msg,
                                                  version);
        struct ofp11_packet_out *opo = ofpbuf_at_assert(msg, ofs,
                                                        sizeof *opo);
        opo->buffer_id = htonl(po->buffer_id);
        opo->in_port = ofputil_port_to_ofp11(in_port);
        opo->actions_len = htons(len);
    } else {
        msg = ofpraw_alloc(OFPRAW_OFPT11_PACKET_OUT, version,
                           po->packet_len + po->ofpacts_len + 64);
        /* The raw form reserves 1.1's 16 bytes; 1.5's fixed part is 8. */
        size_t ofs = (uint8_t *) msg->msg - (uint8_t *) msg->data;
        msg->size = ofs + sizeof(struct ofp15_packet_out);
        oxm_put_match(msg, &po->flow_metadata, version);
        size_t len = ofpacts_put_openflow_actions(po->ofpacts,
                                                  po->ofpacts_len, msg,
                                                  version);
        struct ofp15_packet_out *opo = ofpbuf_at_assert(msg, ofs,
                                                        sizeof *opo);
        opo->buffer_id = htonl(po->buffer_id);
        opo->actions_len = htons(len);
    }
    if (po->buffer_id == OFP_NO_BUFFER) {
        ofpbuf_put(msg, po->packet, po->packet_len);
    }
    ofpmsg_update_length(msg);
    return msg;
}

void
ofputil_packet_out_format(struct ds *s, const struct ofputil_packet_out *po,
                          const struct ofputil_port_map *port_map,
                          const struct ofputil_table_map *table_map,
                          int verbosity)
{
    ds_put_char(s, ' ');
    match_format(&po->flow_metadata, port_map, s, OFP_DEFAULT_PRIORITY);
    ds_put_cstr(s, " actions=");
    ofpact_list_format(po->ofpacts, po->ofpacts_len, port_map, table_map, s);
    if (po->buffer_id == OFP_NO_BUFFER) {
        ds_put_format(s, " data_len=%zu", po->packet_len);
        if (verbosity > 0 && po->packet_len) {
            ds_put_char(s, '\n');
            ofp_print_packet_summary(s, po->packet, po->packet_len,
                                     ofputil_packet_out_type(po));
        }
        if (verbosity > 2 && po->packet_len) {
            ds_put_char(s, '\n');
            ds_put_hex_dump(s, po->packet, po->packet_len, 0, false);
            ds_chomp(s, '\n');
        }
    } else {
        ds_put_format(s, " buffer=0x%08"PRIx32, po->buffer_id);
    }
}

enum ofperr
ofputil_packet_out_print(struct ds *s, const struct ofp_header *oh,
                         const struct ofputil_port_map *port_map,
                         const struct ofputil_table_map *table_map,
                         int verbosity)
{
    struct ofputil_packet_out po;
    struct ofpbuf ofpacts;
    ofpbuf_init(&ofpacts, 64);
    enum ofperr error = ofputil_decode_packet_out(&po, oh, &ofpacts);
    if (!error) {
        ofputil_packet_out_format(s, &po, port_map, table_map, verbosity);
    }
    ofpbuf_uninit(&ofpacts);
    return error;
}

/* ------------------------------------------------------------------ */
/* packet-out text. */

static char *
parse_packet_out__(struct ofputil_packet_out *po, char *string,
                   const struct ofputil_port_map *port_map,
                   struct ofpbuf *ofpacts, struct ofpbuf *packet,
                   enum ofputil_protocol *usable)
{
    bool have_packet = false;
    char *actions;
    if (!ofputil_split_actions(string, &actions)) {
        return xstrdup("must specify an action");
    }
    if (actions) {
        char *error = ofpacts_parse_actions(actions, port_map, NULL,
                                            ofpacts);
        if (error) {
            return error;
        }
    }
    char *name, *value, sep;
    while (ofputil_parse_key_value(&string, &name, &value, &sep)) {
        if (!ofputil_key_has_value(sep)) {
            return xasprintf("field %s missing value", name);
        }
        if (!strcmp(name, "in_port")) {
            uint32_t port;
            if (!ofputil_port_from_string(value, port_map, &port)) {
                return xasprintf("%s is not a valid OpenFlow port", value);
            }
            match_set_in_port(&po->flow_metadata, port);
        } else if (!strcmp(name, "packet")) {
            size_t n;
            const char *end = ofpbuf_put_hex(packet, value, &n);
            if (*end) {
                return xstrdup("packet: Trailing garbage in packet data");
            }
            have_packet = true;
        } else if (!strcmp(name, "packet_type")) {
            /* "NS,TYPE", each a C integer. */
            char *comma = strchr(value, ',');
            if (!comma) {
                return xasprintf("%s(%s) can't be interpreted", name, value);
            }
            *comma = '\0';
            uint64_t ns, type;
            char *error = ofputil_parse_uint(value, UINT16_MAX, &ns);
            if (!error) {
                error = ofputil_parse_uint(comma + 1, UINT16_MAX, &type);
            }
            if (error) {
                free(error);
                *comma = ',';
                return xasprintf("%s(%s) can't be interpreted", name, value);
            }
            match_set_packet_type(&po->flow_metadata,
                                  htonl(PACKET_TYPE(ns, type)));
            *usable &= OFPUTIL_P_OF15_UP;
        } else {
            const struct mf_field *f = mf_from_name(name);
            if (!f) {
                return xasprintf("unknown keyword %s", name);
            }
            char *error = mf_parse_field(f, value, port_map,
                                         &po->flow_metadata);
            if (error) {
                return error;
            }
            /* Pipeline fields besides in_port need 1.5's match. */
            *usable &= OFPUTIL_P_OF15_UP;
        }
    }
    if (!have_packet) {
        return xstrdup("must specify packet");
    }
    return NULL;
}

char *
parse_ofp_packet_out_str(struct ofputil_packet_out *po, const char *string,
                         const struct ofputil_port_map *port_map,
                         struct ofpbuf *ofpacts,
                         enum ofputil_protocol *usable_protocols)
{
    memset(po, 0, sizeof *po);
    match_init_catchall(&po->flow_metadata);
    /* 3.1 takes the packet as coming from the controller unless told. */
    match_set_in_port(&po->flow_metadata, OFPP_CONTROLLER);
    po->buffer_id = OFP_NO_BUFFER;
    *usable_protocols = OFPUTIL_P_ANY;

    struct ofpbuf packet;
    ofpbuf_init(&packet, 64);
    size_t ofpacts_start = ofpacts->size;
    char *copy = xstrdup(string);
    char *error = parse_packet_out__(po, copy, port_map, ofpacts, &packet,
                                     usable_protocols);
    free(copy);
    if (error) {
        ofpbuf_uninit(&packet);
        ofpacts->size = ofpacts_start;
        *usable_protocols = OFPUTIL_P_NONE;
        memset(po, 0, sizeof *po);
        return error;
    }
    po->packet_len = packet.size;
    po->packet = ofpbuf_steal_data(&packet);
    po->ofpacts = (const struct ofpact *) ((const uint8_t *) ofpacts->data
                                           + ofpacts_start);
    po->ofpacts_len = ofpacts->size - ofpacts_start;
    *usable_protocols &= ofputil_actions_usable_protocols(po->ofpacts,
                                                         po->ofpacts_len);
    return NULL;
}
