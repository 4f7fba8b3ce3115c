/* nx-match: NXM and OXM encoding and decoding.  See nx-match.h. */
#include <config.h>

#include "nx-match.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "match.h"
#include "ofp-port.h"
#include "ofpbuf.h"
#include "util.h"
#include "tun-metadata.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(nx_match);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);

/* Headers on the wire: 4 bytes, or 8 with an experimenter id. */
static uint64_t
read_header(const uint8_t *p, size_t avail, bool *ok)
{
    *ok = false;
    if (avail < 4) {
        return 0;
    }
    uint32_t h = ((uint32_t) p[0] << 24) | ((uint32_t) p[1] << 16)
                 | ((uint32_t) p[2] << 8) | p[3];
    if ((h >> 16) == OFPXMC12_EXPERIMENTER) {
        if (avail < 8) {
            return 0;
        }
        uint32_t exp = ((uint32_t) p[4] << 24) | ((uint32_t) p[5] << 16)
                       | ((uint32_t) p[6] << 8) | p[7];
        *ok = true;
        return ((uint64_t) exp << 32) | h;
    }
    *ok = true;
    return h;
}

static void
put_header__(struct ofpbuf *b, uint64_t header)
{
    uint8_t buf[8];
    uint32_t h = header & 0xffffffff;
    buf[0] = h >> 24;
    buf[1] = h >> 16;
    buf[2] = h >> 8;
    buf[3] = h;
    size_t len = 4;
    if (nxm_is_experimenter(header)) {
        uint32_t exp = nxm_vendor(header);
        buf[4] = exp >> 24;
        buf[5] = exp >> 16;
        buf[6] = exp >> 8;
        buf[7] = exp;
        len = 8;
    }
    ofpbuf_put(b, buf, len);
}

void
nx_put_header(struct ofpbuf *b, enum mf_field_id id,
              enum ofp_version version, bool masked)
{
    nx_put_field_header(b, mf_from_id(id), version, masked);
}

void
nx_put_field_header(struct ofpbuf *b, const struct mf_field *f,
                    enum ofp_version version, bool masked)
{
    uint64_t h = mf_field_oxm_header(f, version);
    put_header__(b, masked ? nxm_make_wild(h) : h);
}

uint32_t
mf_nxm_header(enum mf_field_id id)
{
    return mf_field_nxm_header(mf_from_id(id));
}

uint32_t
mf_field_nxm_header(const struct mf_field *f)
{
    uint64_t h = mf_field_oxm_header(f, 0);
    return nxm_is_experimenter(h) ? 0 : (uint32_t) h;
}

static void
put_entry_raw(struct ofpbuf *b, enum mf_field_id id, enum ofp_version version,
              const void *value, const void *mask, size_t n_bytes)
{
    nx_put_header(b, id, version, mask != NULL);
    ofpbuf_put(b, value, n_bytes);
    if (mask) {
        ofpbuf_put(b, mask, n_bytes);
    }
}

/* How many of the last bytes of VALUE (N of them) are significant: all
 * but its leading zero bytes. */
static size_t
significant_len(const uint8_t *value, size_t n)
{
    size_t i = 0;
    while (i < n && !value[i]) {
        i++;
    }
    return n - i;
}

void
nx_put_entry(struct ofpbuf *b, const struct mf_field *f,
             enum ofp_version version, const union mf_value *value,
             const union mf_value *mask)
{
    bool masked = false;
    if (mask) {
        for (size_t i = 0; i < f->n_bytes; i++) {
            masked |= mask->b[i] != 0xff;
        }
    }
    if (!f->variable_len) {
        put_entry_raw(b, f->id, version, value->b, masked ? mask->b : NULL,
                      f->n_bytes);
        return;
    }

    /* A variable-length field (tun_metadataN) goes out as short as keeps
     * its meaning, as 3.1 writes it: its value's (and mask's) significant
     * bytes, so that a switch whose TLV map gives the field fewer bytes
     * than the most it can have takes the value.  An all-zero value
     * without a mask is an entry with no payload. */
    size_t len = significant_len(value->b, f->n_bytes);
    if (masked) {
        len = MAX(len, significant_len(mask->b, f->n_bytes));
    }
    size_t ofs = f->n_bytes - len;
    uint64_t h = mf_field_oxm_header(f, version);
    unsigned int exp = nxm_is_experimenter(h) ? 4 : 0;
    h = ((h & ~UINT64_C(0x1ff)) | (masked ? 0x100 : 0)
         | ((masked ? 2 * len : len) + exp));
    put_header__(b, h);
    ofpbuf_put(b, &value->b[ofs], len);
    if (masked) {
        ofpbuf_put(b, &mask->b[ofs], len);
    }
}

/* Encoding a match. */

struct put_ctx {
    struct ofpbuf *b;
    enum ofp_version version;   /* 0: NXM. */
};

/* Every field of every encoded match asks these, with N a constant once
 * inlined: branch-free loops the compiler turns into a load or two. */
static inline bool
all_zeros(const void *p_, size_t n)
{
    const uint8_t *p = p_;
    uint8_t any = 0;
    for (size_t i = 0; i < n; i++) {
        any |= p[i];
    }
    return !any;
}

static inline bool
all_ones(const void *p_, size_t n)
{
    const uint8_t *p = p_;
    uint8_t every = 0xff;
    for (size_t i = 0; i < n; i++) {
        every &= p[i];
    }
    return every == 0xff;
}

/* Field ID's VALUE under MASK: nothing for a zero mask, exact for all
 * ones, masked otherwise. */
static inline void
put_m(struct put_ctx *ctx, enum mf_field_id id, const void *value,
      const void *mask, size_t n)
{
    if (!all_zeros(mask, n)) {
        put_entry_raw(ctx->b, id, ctx->version, value,
                      all_ones(mask, n) ? NULL : mask, n);
    }
}

static void
put_exact(struct put_ctx *ctx, enum mf_field_id id, const void *value,
          size_t n)
{
    put_entry_raw(ctx->b, id, ctx->version, value, NULL, n);
}

static void
put_8(struct put_ctx *ctx, enum mf_field_id id, uint8_t v)
{
    put_exact(ctx, id, &v, 1);
}

static void
put_16(struct put_ctx *ctx, enum mf_field_id id, ovs_be16 v)
{
    put_exact(ctx, id, &v, 2);
}

static void
put_32(struct put_ctx *ctx, enum mf_field_id id, ovs_be32 v)
{
    put_exact(ctx, id, &v, 4);
}

static void
put_16m(struct put_ctx *ctx, enum mf_field_id id, ovs_be16 v, ovs_be16 m)
{
    put_m(ctx, id, &v, &m, 2);
}

static void
put_32m(struct put_ctx *ctx, enum mf_field_id id, ovs_be32 v, ovs_be32 m)
{
    put_m(ctx, id, &v, &m, 4);
}

static void
put_64m(struct put_ctx *ctx, enum mf_field_id id, ovs_be64 v, ovs_be64 m)
{
    put_m(ctx, id, &v, &m, 8);
}

static void
put_eth_m(struct put_ctx *ctx, enum mf_field_id id, struct eth_addr v,
          struct eth_addr m)
{
    put_m(ctx, id, v.ea, m.ea, ETH_ADDR_LEN);
}

static void
put_ipv6_m(struct put_ctx *ctx, enum mf_field_id id,
           const struct in6_addr *v, const struct in6_addr *m)
{
    put_m(ctx, id, v->s6_addr, m->s6_addr, 16);
}


static void
put_ip(struct put_ctx *ctx, const struct match *match)
{
    const struct flow *f = &match->flow;
    const struct flow *m = &match->wc.masks;

    if (f->dl_type == htons(ETH_TYPE_IP)) {
        put_32m(ctx, MFF_IPV4_SRC, f->nw_src, m->nw_src);
        put_32m(ctx, MFF_IPV4_DST, f->nw_dst, m->nw_dst);
    } else {
        put_ipv6_m(ctx, MFF_IPV6_SRC, &f->ipv6_src, &m->ipv6_src);
        put_ipv6_m(ctx, MFF_IPV6_DST, &f->ipv6_dst, &m->ipv6_dst);
    }

    uint8_t frag = f->nw_frag & FLOW_NW_FRAG_MASK;
    uint8_t frag_mask = m->nw_frag & FLOW_NW_FRAG_MASK;
    uint8_t fm = frag_mask == FLOW_NW_FRAG_MASK ? UINT8_MAX : frag_mask;
    put_m(ctx, MFF_IP_FRAG, &frag, &fm, 1);

    if (m->nw_tos & 0xfc) {
        if (ctx->version) {
            put_8(ctx, MFF_IP_DSCP_SHIFTED, f->nw_tos >> 2);
        } else {
            put_8(ctx, MFF_IP_DSCP, f->nw_tos & 0xfc);
        }
    }
    if (m->nw_tos & 0x03) {
        put_8(ctx, MFF_IP_ECN, f->nw_tos & 0x03);
    }
    if (m->nw_ttl) {
        put_8(ctx, MFF_IP_TTL, f->nw_ttl);
    }
    /* A mask covering all 20 bits of the label is an exact match (3.1
     * writes it unmasked), unlike tcp_flags, whose 12-bit mask stays. */
    ovs_be32 label_mask = m->ipv6_label;
    if ((label_mask & htonl(IPV6_LABEL_MASK)) == htonl(IPV6_LABEL_MASK)) {
        label_mask = OVS_BE32_MAX;
    }
    put_32m(ctx, MFF_IPV6_LABEL, f->ipv6_label, label_mask);

    if (!m->nw_proto) {
        return;
    }
    put_8(ctx, MFF_IP_PROTO, f->nw_proto);
    switch (f->nw_proto) {
    case IPPROTO_TCP:
        put_16m(ctx, MFF_TCP_SRC, f->tp_src, m->tp_src);
        put_16m(ctx, MFF_TCP_DST, f->tp_dst, m->tp_dst);
        put_16m(ctx, MFF_TCP_FLAGS, f->tcp_flags, m->tcp_flags);
        break;
    case IPPROTO_UDP:
        put_16m(ctx, MFF_UDP_SRC, f->tp_src, m->tp_src);
        put_16m(ctx, MFF_UDP_DST, f->tp_dst, m->tp_dst);
        break;
    case IPPROTO_SCTP:
        put_16m(ctx, MFF_SCTP_SRC, f->tp_src, m->tp_src);
        put_16m(ctx, MFF_SCTP_DST, f->tp_dst, m->tp_dst);
        break;
    case IPPROTO_ICMP:
        if (f->dl_type == htons(ETH_TYPE_IP)) {
            if (m->tp_src) {
                put_8(ctx, MFF_ICMPV4_TYPE, ntohs(f->tp_src));
            }
            if (m->tp_dst) {
                put_8(ctx, MFF_ICMPV4_CODE, ntohs(f->tp_dst));
            }
        }
        break;
    case IPPROTO_ICMPV6:
        if (f->dl_type == htons(ETH_TYPE_IPV6)) {
            if (m->tp_src) {
                put_8(ctx, MFF_ICMPV6_TYPE, ntohs(f->tp_src));
            }
            if (m->tp_dst) {
                put_8(ctx, MFF_ICMPV6_CODE, ntohs(f->tp_dst));
            }
            if (f->tp_dst == htons(0)
                && (f->tp_src == htons(ND_NEIGHBOR_SOLICIT)
                    || f->tp_src == htons(ND_NEIGHBOR_ADVERT))) {
                if (m->nd_reserved) {
                    put_32(ctx, MFF_ND_RESERVED, f->nd_reserved);
                }
                put_ipv6_m(ctx, MFF_ND_TARGET, &f->nd_target, &m->nd_target);
                if (m->nd_options_type) {
                    put_8(ctx, MFF_ND_OPTIONS_TYPE, f->nd_options_type);
                }
                if (f->tp_src == htons(ND_NEIGHBOR_SOLICIT)) {
                    put_eth_m(ctx, MFF_ND_SLL, f->arp_sha, m->arp_sha);
                } else {
                    put_eth_m(ctx, MFF_ND_TLL, f->arp_tha, m->arp_tha);
                }
            }
        }
        break;
    }
}

static void
put_8m(struct put_ctx *ctx, enum mf_field_id id, uint8_t v, uint8_t m)
{
    put_m(ctx, id, &v, &m, 1);
}

static void
put_128m(struct put_ctx *ctx, enum mf_field_id id, const uint8_t *v,
         const uint8_t *m)
{
    put_m(ctx, id, v, m, 16);
}

/* tun_metadataN: as long as the match's layout says, masked if it was
 * given a mask. */
static void
put_tun_metadata(struct put_ctx *ctx, const struct match *match)
{
    uint64_t fields = match->wc.masks.tun_metadata.present
                      & match->flow.tun_metadata.present;
    for (; fields; fields &= fields - 1) {
        unsigned int idx = __builtin_ctzll(fields);
        uint8_t value[TUN_METADATA_MAX_LEN], mask[TUN_METADATA_MAX_LEN];
        unsigned int len;
        bool masked = tun_md_get_match(match, idx, value, mask, &len);
        uint64_t h = mf_oxm_header(MFF_TUN_METADATA(idx), 0);
        h = (h & ~UINT64_C(0x1ff)) | (masked ? 0x100 | (2 * len) : len);
        put_header__(ctx->b, h);
        ofpbuf_put(ctx->b, value + TUN_METADATA_MAX_LEN - len, len);
        if (masked) {
            ofpbuf_put(ctx->b, mask + TUN_METADATA_MAX_LEN - len, len);
        }
    }
}

static void
put_mpls(struct put_ctx *ctx, const struct flow *f, const struct flow *m)
{
    uint32_t lse = ntohl(f->mpls_lse[0]);
    uint32_t mask = ntohl(m->mpls_lse[0]);
    if (mask & MPLS_TC_MASK) {
        put_8(ctx, MFF_MPLS_TC, (lse & MPLS_TC_MASK) >> MPLS_TC_SHIFT);
    }
    if (mask & MPLS_BOS_MASK) {
        put_8(ctx, MFF_MPLS_BOS, (lse & MPLS_BOS_MASK) >> MPLS_BOS_SHIFT);
    }
    if (mask & MPLS_TTL_MASK) {
        put_8(ctx, MFF_MPLS_TTL, lse & MPLS_TTL_MASK);
    }
    if (mask & MPLS_LABEL_MASK) {
        put_32(ctx, MFF_MPLS_LABEL,
               htonl((lse & MPLS_LABEL_MASK) >> MPLS_LABEL_SHIFT));
    }
}

static void
put_nsh(struct put_ctx *ctx, const struct flow *f, const struct flow *m)
{
    put_8m(ctx, MFF_NSH_FLAGS, f->nsh.flags, m->nsh.flags);
    put_8m(ctx, MFF_NSH_TTL, f->nsh.ttl, m->nsh.ttl);
    put_8m(ctx, MFF_NSH_MDTYPE, f->nsh.mdtype, m->nsh.mdtype);
    put_8m(ctx, MFF_NSH_NP, f->nsh.np, m->nsh.np);
    uint32_t path = ntohl(f->nsh.path_hdr), path_mask = ntohl(m->nsh.path_hdr);
    /* All 24 bits of the SPI is an exact match. */
    uint32_t spi_mask = (path_mask & NSH_SPI_MASK) >> NSH_SPI_SHIFT;
    put_32m(ctx, MFF_NSH_SPI, htonl((path & NSH_SPI_MASK) >> NSH_SPI_SHIFT),
            spi_mask == NSH_SPI_MASK >> NSH_SPI_SHIFT ? OVS_BE32_MAX
            : htonl(spi_mask));
    put_8m(ctx, MFF_NSH_SI, path & NSH_SI_MASK, path_mask & NSH_SI_MASK);
    for (int i = 0; i < 4; i++) {
        put_32m(ctx, MFF_NSH_C(i), f->nsh.context[i], m->nsh.context[i]);
    }
}

static void
put_tunnel(struct put_ctx *ctx, const struct match *match)
{
    const struct flow_tnl *t = &match->flow.tunnel;
    const struct flow_tnl *tm = &match->wc.masks.tunnel;

    put_64m(ctx, MFF_TUN_ID, t->tun_id, tm->tun_id);
    put_16m(ctx, MFF_TUN_FLAGS, htons(t->flags & FLOW_TNL_F_OAM ? 1 : 0),
            htons(tm->flags & FLOW_TNL_F_OAM ? 1 : 0));
    put_32m(ctx, MFF_TUN_SRC, t->ip_src, tm->ip_src);
    put_32m(ctx, MFF_TUN_DST, t->ip_dst, tm->ip_dst);
    put_ipv6_m(ctx, MFF_TUN_IPV6_SRC, &t->ipv6_src, &tm->ipv6_src);
    put_ipv6_m(ctx, MFF_TUN_IPV6_DST, &t->ipv6_dst, &tm->ipv6_dst);
    put_16m(ctx, MFF_TUN_GBP_ID, t->gbp_id, tm->gbp_id);
    put_8m(ctx, MFF_TUN_GBP_FLAGS, t->gbp_flags, tm->gbp_flags);
    put_tun_metadata(ctx, match);
    put_32m(ctx, MFF_TUN_ERSPAN_IDX, htonl(t->erspan_idx),
            htonl(tm->erspan_idx));
    put_8m(ctx, MFF_TUN_ERSPAN_VER, t->erspan_ver, tm->erspan_ver);
    put_8m(ctx, MFF_TUN_ERSPAN_DIR, t->erspan_dir, tm->erspan_dir);
    put_8m(ctx, MFF_TUN_ERSPAN_HWID, t->erspan_hwid, tm->erspan_hwid);
    put_8m(ctx, MFF_TUN_GTPU_FLAGS, t->gtpu_flags, tm->gtpu_flags);
    put_8m(ctx, MFF_TUN_GTPU_MSGTYPE, t->gtpu_msgtype, tm->gtpu_msgtype);
}

static void
put_conntrack(struct put_ctx *ctx, const struct flow *f, const struct flow *m)
{
    put_32m(ctx, MFF_CT_STATE, htonl(f->ct_state), htonl(m->ct_state));
    put_16m(ctx, MFF_CT_ZONE, htons(f->ct_zone), htons(m->ct_zone));
    put_32m(ctx, MFF_CT_MARK, htonl(f->ct_mark), htonl(m->ct_mark));
    put_128m(ctx, MFF_CT_LABEL, f->ct_label, m->ct_label);
    if (f->dl_type == htons(ETH_TYPE_IPV6)) {
        put_ipv6_m(ctx, MFF_CT_IPV6_SRC, &f->ct_ipv6_src, &m->ct_ipv6_src);
        put_ipv6_m(ctx, MFF_CT_IPV6_DST, &f->ct_ipv6_dst, &m->ct_ipv6_dst);
    } else {
        put_32m(ctx, MFF_CT_NW_SRC, f->ct_nw_src, m->ct_nw_src);
        put_32m(ctx, MFF_CT_NW_DST, f->ct_nw_dst, m->ct_nw_dst);
    }
    if (m->ct_nw_proto) {
        put_8(ctx, MFF_CT_NW_PROTO, f->ct_nw_proto);
        put_16m(ctx, MFF_CT_TP_SRC, f->ct_tp_src, m->ct_tp_src);
        put_16m(ctx, MFF_CT_TP_DST, f->ct_tp_dst, m->ct_tp_dst);
    }
}

static int
nx_put_raw(struct ofpbuf *b, enum ofp_version version,
           const struct match *match, ovs_be64 cookie, ovs_be64 cookie_mask)
{
    const struct flow *f = &match->flow;
    const struct flow *m = &match->wc.masks;
    size_t start = b->size;
    struct put_ctx ctx = { b, version };

    /* The packet type comes first, and only when the other fields do not
     * say it. */
    if (m->packet_type && !match_has_default_packet_type(match)) {
        put_32m(&ctx, MFF_PACKET_TYPE, f->packet_type, m->packet_type);
    }
    if (m->dp_hash) {
        put_32m(&ctx, MFF_DP_HASH, htonl(f->dp_hash), htonl(m->dp_hash));
    }
    if (m->recirc_id) {
        put_32(&ctx, MFF_RECIRC_ID, htonl(f->recirc_id));
    }
    if (m->conj_id) {
        put_32(&ctx, MFF_CONJ_ID, htonl(f->conj_id));
    }
    if (m->in_port) {
        if (version) {
            put_32(&ctx, MFF_IN_PORT_OXM, ofputil_port_to_ofp11(f->in_port));
        } else {
            put_16(&ctx, MFF_IN_PORT, htons(f->in_port));
        }
    }
    if (m->actset_output) {
        put_32(&ctx, MFF_ACTSET_OUTPUT,
               ofputil_port_to_ofp11(f->actset_output));
    }

    put_eth_m(&ctx, MFF_ETH_SRC, f->dl_src, m->dl_src);
    put_eth_m(&ctx, MFF_ETH_DST, f->dl_dst, m->dl_dst);
    /* An L3 packet type says the Ethertype already. */
    if (!(m->packet_type == OVS_BE32_MAX
          && pt_ns(f->packet_type) == PT_NS_ETHERTYPE)) {
        put_16m(&ctx, MFF_ETH_TYPE, f->dl_type, m->dl_type);
    }

    if (version) {
        ovs_be16 bits = htons(VLAN_VID_MASK | VLAN_CFI);
        ovs_be16 vid = f->vlans[0].tci & bits;
        ovs_be16 mask = m->vlans[0].tci & bits;
        if (mask == bits) {
            put_16(&ctx, MFF_VLAN_VID, vid);
        } else if (mask) {
            put_16m(&ctx, MFF_VLAN_VID, vid, mask);
        }
        if (vid && (ntohs(m->vlans[0].tci) & VLAN_PCP_MASK)) {
            put_8(&ctx, MFF_VLAN_PCP,
                  (ntohs(f->vlans[0].tci) & VLAN_PCP_MASK) >> VLAN_PCP_SHIFT);
        }
    } else {
        put_16m(&ctx, MFF_VLAN_TCI, f->vlans[0].tci, m->vlans[0].tci);
    }

    if (f->dl_type == htons(ETH_TYPE_MPLS)
        || f->dl_type == htons(ETH_TYPE_MPLS_MCAST)) {
        put_mpls(&ctx, f, m);
    }

    if (flow_is_ip_any(f)) {
        put_ip(&ctx, match);
    } else if (f->dl_type == htons(ETH_TYPE_ARP)
               || f->dl_type == htons(ETH_TYPE_RARP)) {
        if (m->nw_proto) {
            put_16(&ctx, MFF_ARP_OP, htons(f->nw_proto));
        }
        put_32m(&ctx, MFF_ARP_SPA, f->nw_src, m->nw_src);
        put_32m(&ctx, MFF_ARP_TPA, f->nw_dst, m->nw_dst);
        put_eth_m(&ctx, MFF_ARP_SHA, f->arp_sha, m->arp_sha);
        put_eth_m(&ctx, MFF_ARP_THA, f->arp_tha, m->arp_tha);
    }

    put_tunnel(&ctx, match);
    put_nsh(&ctx, f, m);

    if (version < OFP15_VERSION) {
        for (int i = 0; i < FLOW_N_REGS; i++) {
            put_32m(&ctx, MFF_REG0 + i, htonl(f->regs[i]),
                    htonl(m->regs[i]));
        }
    } else {
        for (int i = 0; i < FLOW_N_REGS / 2; i++) {
            uint64_t v = ((uint64_t) f->regs[2 * i] << 32)
                         | f->regs[2 * i + 1];
            uint64_t mk = ((uint64_t) m->regs[2 * i] << 32)
                          | m->regs[2 * i + 1];
            put_64m(&ctx, MFF_XREG0 + i, htonll(v), htonll(mk));
        }
    }

    put_32m(&ctx, MFF_PKT_MARK, htonl(f->pkt_mark), htonl(m->pkt_mark));
    put_conntrack(&ctx, f, m);
    put_64m(&ctx, MFF_METADATA, f->metadata, m->metadata);

    if (cookie_mask) {
        bool masked = cookie_mask != OVS_BE64_MAX;
        cookie &= cookie_mask;
        put_header__(b, masked ? nxm_make_wild(NXM_NX_COOKIE)
                     : NXM_NX_COOKIE);
        ofpbuf_put(b, &cookie, sizeof cookie);
        if (masked) {
            ofpbuf_put(b, &cookie_mask, sizeof cookie_mask);
        }
    }

    return b->size - start;
}

int
nx_put_match(struct ofpbuf *b, const struct match *match, ovs_be64 cookie,
             ovs_be64 cookie_mask)
{
    int len = nx_put_raw(b, 0, match, cookie, cookie_mask);
    ofpbuf_put_zeros(b, ROUND_UP(len, 8) - len);
    return len;
}

int
oxm_put_match(struct ofpbuf *b, const struct match *match,
              enum ofp_version version)
{
    size_t start = b->size;
    ofpbuf_put_zeros(b, sizeof(struct ofp11_match_header));
    int len = nx_put_raw(b, version, match, 0, 0)
              + sizeof(struct ofp11_match_header);
    ofpbuf_put_zeros(b, ROUND_UP(len, 8) - len);
    struct ofp11_match_header *omh = ofpbuf_at_assert(b, start, sizeof *omh);
    omh->type = htons(OFPMT_OXM);
    omh->length = htons(len);
    return len;
}

void
oxm_put_raw(struct ofpbuf *b, const struct match *match,
            enum ofp_version version)
{
    nx_put_raw(b, version, match, 0, 0);
}

/* Decoding. */

/* The field HEADER names exactly (any of its NXM/OXM codes, unmasked form
 * with the right length).  *WRONG_LEN is set if the type is known but the
 * length is not the field's. */
static const struct mf_field *
field_by_header(uint64_t header, bool *wrong_len)
{
    uint64_t exact = nxm_no_mask(header);
    *wrong_len = false;
    const struct mf_field *f = mf_from_nxm_header(exact);
    if (!f) {
        return NULL;
    }
    if (f->variable_len) {
        /* Any length up to the field's, half of it for each of a masked
         * entry's value and mask. */
        unsigned int payload = nxm_payload_len(header);
        if ((nxm_hasmask(header) && payload % 2)
            || (nxm_hasmask(header) ? payload / 2 : payload) > f->n_bytes) {
            *wrong_len = true;
            return NULL;
        }
        return f;
    }
    unsigned int want = f->n_bytes + (nxm_is_experimenter(exact) ? 4 : 0);
    /* A masked entry of odd length names the field whose size is half of
     * it, rounded down, and its last byte is ignored: Open vSwitch 3.1
     * reads such entries that way, so the errors that follow (a bad
     * prerequisite, a bad mask) are the ones it reports. */
    if (nxm_length(exact) != want) {
        *wrong_len = true;
        return NULL;
    }
    return f;
}

static bool
is_cookie_header(uint64_t h)
{
    return h == NXM_NX_COOKIE || h == nxm_make_wild(NXM_NX_COOKIE);
}

/* Pulls one header from B.  FIELD receives the field or NULL for an
 * unknown one (error OFPBMC_BAD_FIELD, or BAD_SET_TYPE/BAD_SET_LEN in an
 * action).  ALLOW_COOKIE accepts the cookie pseudo-field (FIELD NULL, no
 * error). */
static enum ofperr
pull_header__(struct ofpbuf *b, bool allow_cookie, bool is_action,
              uint64_t *headerp, const struct mf_field **field)
{
    bool ok;
    uint64_t h = read_header(b->data, b->size, &ok);
    if (!ok) {
        VLOG_DBG_RL(&rl, "encountered partial (%"PRIu32"-byte) OXM entry",
                    b->size);
        *headerp = 0;
        *field = NULL;
        return OFPERR_OFPBMC_BAD_LEN;
    }
    if (nxm_length(h) < (nxm_is_experimenter(h) ? 4 : 0)) {
        *headerp = 0;
        *field = NULL;
        return OFPERR_OFPBMC_BAD_LEN;
    }
    ofpbuf_pull(b, nxm_header_len(h));
    *headerp = h;

    bool wrong_len;
    *field = field_by_header(h, &wrong_len);
    if (!*field && !(allow_cookie && is_cookie_header(h))) {
        if (is_action) {
            return (wrong_len ? OFPERR_OFPBAC_BAD_SET_LEN
                    : OFPERR_OFPBAC_BAD_SET_TYPE);
        }
        return OFPERR_OFPBMC_BAD_FIELD;
    }
    return 0;
}

/* Pulls an entry (header, value, mask).  Unknown fields still consume
 * their payload and report BAD_FIELD, so a loose decoder can skip them. */
static enum ofperr
pull_entry__(struct ofpbuf *b, bool allow_cookie, bool is_action,
             uint64_t *headerp, const struct mf_field **fieldp,
             union mf_value *value, union mf_value *mask)
{
    const struct mf_field *field;
    enum ofperr header_error = pull_header__(b, allow_cookie, is_action,
                                             headerp, &field);
    if (header_error && header_error != OFPERR_OFPBMC_BAD_FIELD
        && !(is_action && *headerp)) {
        return header_error;
    }
    uint64_t h = *headerp;

    unsigned int payload_len = nxm_payload_len(h);
    const uint8_t *payload = ofpbuf_try_pull(b, payload_len);
    if (!payload) {
        return OFPERR_OFPBMC_BAD_LEN;
    }
    if (header_error) {
        *fieldp = NULL;
        return header_error;
    }

    unsigned int width = nxm_hasmask(h) ? payload_len / 2 : payload_len;
    if (nxm_hasmask(h)) {
        for (unsigned int i = 0; i < width; i++) {
            if (payload[i] & ~payload[width + i]) {
                VLOG_WARN_RL(&rl, "Rejecting NXM/OXM entry %#"PRIx32":%d:"
                             "%d:%d:%d with 1-bits in value for bits "
                             "wildcarded by the mask.", nxm_vendor(h),
                             nxm_class(h), nxm_field(h), nxm_hasmask(h),
                             nxm_length(h));
                return OFPERR_OFPBMC_BAD_WILDCARDS;
            }
        }
    }

    /* A variable-length field's value is zero-extended on the left. */
    unsigned int n = MIN(width, sizeof value->b);
    unsigned int ofs = field && field->variable_len ? field->n_bytes - n : 0;
    memset(value, 0, sizeof *value);
    memcpy(&value->b[ofs], payload, n);
    if (mask) {
        memset(mask, 0xff, sizeof *mask);
        if (nxm_hasmask(h)) {
            memset(mask, 0, ofs);
            memcpy(&mask->b[ofs], payload + width, n);
        }
    } else if (nxm_hasmask(h)) {
        return OFPERR_OFPBMC_BAD_MASK;
    }
    *fieldp = field;
    return 0;
}

enum ofperr
nx_pull_entry(struct ofpbuf *b, const struct mf_field **field,
              union mf_value *value, union mf_value *mask, bool is_action)
{
    uint64_t header;
    return pull_entry__(b, false, is_action, &header, field, value, mask);
}

enum ofperr
nx_pull_header(struct ofpbuf *b, const struct mf_field **field, bool *masked)
{
    uint64_t header;
    enum ofperr error = pull_header__(b, false, false, &header, field);
    if (masked) {
        *masked = !error && nxm_hasmask(header);
    } else if (!error && nxm_hasmask(header)) {
        error = OFPERR_OFPBMC_BAD_MASK;
    }
    return error;
}

bool
mf_is_mask_valid(const struct mf_field *f, const union mf_value *mask)
{
    if (f->maskable == MFM_FULLY) {
        return true;
    }
    bool zeros = true, ones = true;
    for (size_t i = 0; i < f->n_bytes; i++) {
        zeros &= mask->b[i] == 0;
        ones &= mask->b[i] == 0xff;
    }
    return zeros || ones;
}

static enum ofperr
nx_pull_raw(const uint8_t *p, unsigned int len, bool strict,
            struct match *match, ovs_be64 *cookie, ovs_be64 *cookie_mask)
{
    match_init_catchall(match);
    if (cookie) {
        *cookie = *cookie_mask = 0;
    }

    struct ofpbuf b;
    ofpbuf_use_const(&b, p, len);
    while (b.size) {
        const uint8_t *pos = b.data;
        const struct mf_field *field;
        union mf_value value, mask;
        uint64_t header;

        enum ofperr error = pull_entry__(&b, cookie != NULL, false, &header,
                                         &field, &value, &mask);
        if (error) {
            if (error == OFPERR_OFPBMC_BAD_FIELD && !strict) {
                continue;
            }
        } else if (!field) {
            /* The cookie pseudo-field. */
            if (!cookie) {
                error = OFPERR_OFPBMC_BAD_FIELD;
            } else if (*cookie_mask) {
                error = OFPERR_OFPBMC_DUP_FIELD;
            } else {
                *cookie = value.be64;
                *cookie_mask = mask.be64;
            }
        } else if (!mf_is_mask_valid(field, &mask)) {
            error = OFPERR_OFPBMC_BAD_MASK;
        } else if (!mf_is_value_valid(field, &value)) {
            error = OFPERR_OFPBMC_BAD_VALUE;
        } else if (strict && !mf_are_match_prereqs_ok(field, match)) {
            error = OFPERR_OFPBMC_BAD_PREREQ;
        } else if (!mf_is_all_wild(field, &match->wc)) {
            error = OFPERR_OFPBMC_DUP_FIELD;
        } else {
            char *set_error = mf_set_checked(field, &value, &mask, match);
            if (set_error) {
                VLOG_DBG_RL(&rl, "%s", set_error);
                free(set_error);
                error = OFPERR_OFPBMC_BAD_LEN;
            }
        }

        if (error) {
            VLOG_DBG_RL(&rl, "error parsing OXM at offset %td within match "
                        "(%s)", pos - p, ofperr_to_string(error));
            return error;
        }
    }
    return 0;
}

static enum ofperr
nx_pull_match__(struct ofpbuf *b, unsigned int match_len, bool strict,
                struct match *match, ovs_be64 *cookie, ovs_be64 *cookie_mask)
{
    const uint8_t *p = NULL;
    if (match_len) {
        p = ofpbuf_try_pull(b, ROUND_UP(match_len, 8));
        if (!p) {
            VLOG_DBG_RL(&rl, "nx_match length %u, rounded up to a multiple "
                        "of 8, is longer than space in message (max length "
                        "%"PRIu32")", match_len, b->size);
            return OFPERR_OFPBMC_BAD_LEN;
        }
    }
    return nx_pull_raw(p, match_len, strict, match, cookie, cookie_mask);
}

enum ofperr
nx_pull_match(struct ofpbuf *b, unsigned int match_len, struct match *match,
              ovs_be64 *cookie, ovs_be64 *cookie_mask)
{
    return nx_pull_match__(b, match_len, true, match, cookie, cookie_mask);
}

enum ofperr
nx_pull_match_loose(struct ofpbuf *b, unsigned int match_len,
                    struct match *match, ovs_be64 *cookie,
                    ovs_be64 *cookie_mask)
{
    return nx_pull_match__(b, match_len, false, match, cookie, cookie_mask);
}

static enum ofperr
oxm_pull_match__(struct ofpbuf *b, bool strict, struct match *match)
{
    const struct ofp11_match_header *omh = b->data;
    if (b->size < sizeof *omh) {
        return OFPERR_OFPBMC_BAD_LEN;
    }
    uint16_t match_len = ntohs(omh->length);
    if (match_len < sizeof *omh) {
        return OFPERR_OFPBMC_BAD_LEN;
    }
    if (omh->type != htons(OFPMT_OXM)) {
        return OFPERR_OFPBMC_BAD_TYPE;
    }
    const uint8_t *p = ofpbuf_try_pull(b, ROUND_UP(match_len, 8));
    if (!p) {
        return OFPERR_OFPBMC_BAD_LEN;
    }
    return nx_pull_raw(p + sizeof *omh, match_len - sizeof *omh, strict,
                       match, NULL, NULL);
}

enum ofperr
oxm_pull_match(struct ofpbuf *b, struct match *match)
{
    return oxm_pull_match__(b, true, match);
}

enum ofperr
oxm_pull_match_loose(struct ofpbuf *b, struct match *match)
{
    return oxm_pull_match__(b, false, match);
}

enum ofperr
oxm_decode_match(const void *p, size_t len, bool loose, struct match *match)
{
    return nx_pull_raw(p, len, !loose, match, NULL, NULL);
}

/* Sub-field checks. */

static enum ofperr
check_subfield(const struct mf_subfield *sf, const struct match *match)
{
    if (!sf->field) {
        return OFPERR_OFPBAC_BAD_SET_TYPE;
    } else if (!sf->n_bits) {
        return OFPERR_OFPBAC_BAD_SET_LEN;
    } else if (sf->ofs >= sf->field->n_bits
               || sf->ofs + sf->n_bits > sf->field->n_bits) {
        VLOG_WARN_RL(&rl, "bit offset %u and width %u exceeds %u-bit width "
                     "of %s field", sf->ofs, sf->n_bits, sf->field->n_bits,
                     sf->field->name);
        return OFPERR_OFPBAC_BAD_SET_LEN;
    } else if (match && !mf_are_match_prereqs_ok(sf->field, match)) {
        VLOG_WARN_RL(&rl, "%s field has unmet prerequisites",
                     sf->field->name);
        return OFPERR_OFPBAC_MATCH_INCONSISTENT;
    }
    return 0;
}

enum ofperr
mf_check_src(const struct mf_subfield *sf, const struct match *match)
{
    return check_subfield(sf, match);
}

enum ofperr
mf_check_dst(const struct mf_subfield *sf, const struct match *match)
{
    enum ofperr error = check_subfield(sf, match);
    if (!error && !sf->field->writable) {
        VLOG_WARN_RL(&rl, "destination field %s is not writable",
                     sf->field->name);
        return OFPERR_OFPBAC_BAD_SET_ARGUMENT;
    }
    return error;
}

/* Text form. */

static void
format_header_name(struct ds *s, uint64_t header)
{
    bool wrong_len;
    uint64_t exact = nxm_no_mask(header);
    const struct mf_field *f = field_by_header(header, &wrong_len);
    const char *name = f ? mf_nxm_name_of_header(exact) : NULL;
    if (name) {
        ds_put_cstr(s, name);
        if (nxm_hasmask(header)) {
            ds_put_cstr(s, "_W");
        }
    } else if (header == NXM_NX_COOKIE) {
        ds_put_cstr(s, "NXM_NX_COOKIE");
    } else if (header == nxm_make_wild(NXM_NX_COOKIE)) {
        ds_put_cstr(s, "NXM_NX_COOKIE_W");
    } else {
        ds_put_format(s, "%d:%d", nxm_class(header), nxm_field(header));
    }
}

char *
nx_match_to_string(const uint8_t *p, unsigned int len)
{
    if (!len) {
        return xstrdup("<any>");
    }
    struct ofpbuf b;
    ofpbuf_use_const(&b, p, len);
    struct ds s = DS_EMPTY_INITIALIZER;
    while (b.size) {
        bool ok;
        uint64_t h = read_header(b.data, b.size, &ok);
        if (!ok || nxm_length(h) < (nxm_is_experimenter(h) ? 4 : 0)
            || b.size < nxm_header_len(h) + nxm_payload_len(h)) {
            break;
        }
        ofpbuf_pull(&b, nxm_header_len(h));
        unsigned int plen = nxm_payload_len(h);
        const uint8_t *payload = ofpbuf_pull(&b, plen);
        unsigned int width = nxm_hasmask(h) ? plen / 2 : plen;
        if (nxm_hasmask(h)) {
            bool consistent = true;
            for (unsigned int i = 0; i < width; i++) {
                consistent &= !(payload[i] & ~payload[width + i]);
            }
            if (!consistent) {
                /* Treated as unparseable, like a decode error. */
                b.data = (uint8_t *) b.data - plen - nxm_header_len(h);
                b.size += plen + nxm_header_len(h);
                break;
            }
        }
        if (s.length) {
            ds_put_cstr(&s, ", ");
        }
        format_header_name(&s, h);
        ds_put_char(&s, '(');
        for (unsigned int i = 0; i < width && i < 16; i++) {
            ds_put_format(&s, "%02x", payload[i]);
        }
        if (nxm_hasmask(h)) {
            ds_put_char(&s, '/');
            for (unsigned int i = 0; i < width && i < 16; i++) {
                ds_put_format(&s, "%02x", payload[width + i]);
            }
        }
        ds_put_char(&s, ')');
    }
    if (b.size) {
        if (s.length) {
            ds_put_cstr(&s, ", ");
        }
        ds_put_format(&s, "<%"PRIu32" invalid bytes>", b.size);
    }
    return ds_steal_cstr(&s);
}

char *
oxm_match_to_string(const struct ofpbuf *p, unsigned int len)
{
    const struct ofp11_match_header *omh = p->data;
    if (len < sizeof *omh) {
        return xasprintf("<match too short: %u>", len);
    }
    if (omh->type != htons(OFPMT_OXM)) {
        return xasprintf("<bad match type field: %u>", ntohs(omh->type));
    }
    uint16_t hdr_len = ntohs(omh->length);
    if (hdr_len < sizeof *omh) {
        return xasprintf("<match length field too short: %u>", hdr_len);
    }
    if (hdr_len != len) {
        return xasprintf("<match length field incorrect: %u != %u>",
                         hdr_len, len);
    }
    return nx_match_to_string((const uint8_t *) p->data + sizeof *omh,
                              len - sizeof *omh);
}

static uint64_t
parse_header_name(const char *name, size_t len)
{
    bool wild = len > 2 && !memcmp(&name[len - 2], "_W", 2);
    size_t base_len = wild ? len - 2 : len;
    const struct mf_field *f = mf_from_nxm_name(name, base_len);
    if (f) {
        /* The header that carries that name. */
        uint64_t h = 0;
        if (f->nxm_name && strlen(f->nxm_name) == base_len
            && !memcmp(f->nxm_name, name, base_len)) {
            h = f->nxm_header;
        } else {
            for (size_t i = 0; i < ARRAY_SIZE(f->oxm); i++) {
                if (f->oxm[i].name && strlen(f->oxm[i].name) == base_len
                    && !memcmp(f->oxm[i].name, name, base_len)) {
                    h = f->oxm[i].header;
                }
            }
        }
        if (!wild) {
            return h;
        } else if (f->maskable != MFM_NONE) {
            return nxm_make_wild(h);
        }
    }
    if (len == strlen("NXM_NX_COOKIE") && !memcmp(name, "NXM_NX_COOKIE", len)) {
        return NXM_NX_COOKIE;
    } else if (len == strlen("NXM_NX_COOKIE_W")
               && !memcmp(name, "NXM_NX_COOKIE_W", len)) {
        return nxm_make_wild(NXM_NX_COOKIE);
    }
    if (len == 8 || len == 16) {
        uint64_t x = 0;
        for (size_t i = 0; i < len; i++) {
            if (!isxdigit((unsigned char) name[i])) {
                return 0;
            }
            int c = tolower((unsigned char) name[i]);
            x = (x << 4) | (isdigit(c) ? c - '0' : c - 'a' + 10);
        }
        if (len == 8) {
            return x;
        }
        uint64_t h = x >> 32;
        if ((h >> 16) == OFPXMC12_EXPERIMENTER) {
            return ((x & 0xffffffff) << 32) | h;
        }
    }
    return 0;
}

static int
match_from_string_raw(const char *s, struct ofpbuf *b, char **error)
{
    const char *full = s;
    size_t start = b->size;
    *error = NULL;

    if (!strcmp(s, "<any>")) {
        return 0;
    }
    for (s += strspn(s, ", "); *s; s += strspn(s, ", ")) {
        const char *name = s;
        size_t name_len = strcspn(s, "(");
        if (s[name_len] != '(') {
            *error = xasprintf("%s: missing ( at end of nx_match", full);
            return -1;
        }
        uint64_t h = parse_header_name(name, name_len);
        if (!h) {
            *error = xasprintf("%s: unknown field `%.*s'", full,
                               (int) name_len, s);
            return -1;
        }
        s += name_len + 1;
        size_t header_ofs = b->size;
        put_header__(b, h);
        size_t n;
        s = ofpbuf_put_hex(b, s, &n);
        unsigned int width = nxm_hasmask(h) ? nxm_payload_len(h) / 2
                                            : nxm_payload_len(h);
        const struct mf_field *f = mf_from_nxm_header(h);
        if (f && f->variable_len && n <= width) {
            /* As long as the value given. */
            width = n;
            uint8_t *len = ofpbuf_at_assert(b, header_ofs + 3, 1);
            *len = (nxm_hasmask(h) ? 2 * n : n)
                   + (nxm_is_experimenter(h) ? 4 : 0);
        }
        if (n != width) {
            *error = xasprintf("expected to read %u bytes but got %zu",
                               width, n);
            return -1;
        }
        if (nxm_hasmask(h)) {
            s += strspn(s, " ");
            if (*s != '/') {
                *error = xasprintf("%s: missing / in masked field %.*s",
                                   full, (int) name_len, name);
                return -1;
            }
            s = ofpbuf_put_hex(b, s + 1, &n);
            if (n != width) {
                *error = xasprintf("%.2s: hex digits expected", s);
                return -1;
            }
        }
        s += strspn(s, " ");
        if (*s != ')') {
            *error = xasprintf("%s: missing ) following field %.*s", full,
                               (int) name_len, name);
            return -1;
        }
        s++;
    }
    return b->size - start;
}

int
nx_match_from_string(const char *s, struct ofpbuf *b, char **error)
{
    int len = match_from_string_raw(s, b, error);
    if (len >= 0) {
        ofpbuf_put_zeros(b, ROUND_UP(len, 8) - len);
    }
    return len;
}

int
oxm_match_from_string(const char *s, struct ofpbuf *b, char **error)
{
    size_t start = b->size;
    ofpbuf_put_zeros(b, sizeof(struct ofp11_match_header));
    int len = match_from_string_raw(s, b, error);
    if (len < 0) {
        return len;
    }
    len += sizeof(struct ofp11_match_header);
    ofpbuf_put_zeros(b, ROUND_UP(len, 8) - len);
    struct ofp11_match_header *omh = ofpbuf_at_assert(b, start, sizeof *omh);
    omh->type = htons(OFPMT_OXM);
    omh->length = htons(len);
    return len;
}
