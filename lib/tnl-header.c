/* tnl-header: see tnl-header.h. */
#include <config.h>
#include "tnl-header.h"

#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "coverage.h"
#include "csum.h"
#include "dp-packet.h"
#include "dynamic-string.h"
#include "flow-extract.h"
#include "flow.h"
#include "hash.h"
#include "ip-addr.h"
#include "ovs-thread.h"
#include "tnl-header-private.h"
#include "tunnel-config.h"
#include "unixctl.h"
#include "util.h"

COVERAGE_DEFINE(tnl_pop_short);         /* Ends inside the outer headers. */
COVERAGE_DEFINE(tnl_pop_bad_ip);        /* Version, options, fragment. */
COVERAGE_DEFINE(tnl_pop_bad_ip_len);    /* IP length lies. */
COVERAGE_DEFINE(tnl_pop_bad_ip_csum);
COVERAGE_DEFINE(tnl_pop_bad_proto);     /* Not the tunnel's protocol. */
COVERAGE_DEFINE(tnl_pop_bad_udp_len);
COVERAGE_DEFINE(tnl_pop_bad_udp_csum);
COVERAGE_DEFINE(tnl_pop_bad_gre);       /* Flags, version, protocol. */
COVERAGE_DEFINE(tnl_pop_bad_gre_csum);
COVERAGE_DEFINE(tnl_pop_bad_vxlan);
COVERAGE_DEFINE(tnl_pop_bad_geneve);
COVERAGE_DEFINE(tnl_pop_bad_geneve_opt);
COVERAGE_DEFINE(tnl_pop_bad_erspan);
COVERAGE_DEFINE(tnl_pop_bad_gtpu);      /* Version, type, lengths, inner. */
COVERAGE_DEFINE(tnl_pop_gtpu_signalling); /* Non-G-PDU, kept whole. */
COVERAGE_DEFINE(tnl_pop);               /* Decapsulated. */

/* The UDP source port range (3.1's defaults; tnl/egress_port_range). */
static _Atomic uint32_t udp_src_range = 32768u << 16 | 61000u;

/* The sequence numbers of GRE headers with GRE_SEQ and of GTP-U headers
 * with the S flag: a counter per header template (3.1 counts per tunnel
 * port; a template names one tunnel and destination), in a fixed array
 * indexed by the template's hash.  Two templates that share a slot share
 * a counter: each still sees its numbers increase, with gaps, which is
 * all a receiver checks. */
#define SEQ_SLOTS 1024
static _Atomic uint32_t seqno_slots[SEQ_SLOTS];

/* The next sequence number for header template DATA, from 0. */
static uint32_t
next_seqno(const struct tnl_push_action *data)
{
    uint32_t slot = hash_bytes(data->header, data->header_len, 0) % SEQ_SLOTS;
    return atomic_fetch_add_explicit(&seqno_slots[slot], 1,
                                     memory_order_relaxed);
}

bool
tnl_type_from_netdev_type(const char *name, enum tnl_type *type)
{
    static const struct {
        const char *name;
        enum tnl_type type;
    } types[] = {
        { "gre", TNL_TYPE_GRE },
        { "ip6gre", TNL_TYPE_IP6GRE },
        { "vxlan", TNL_TYPE_VXLAN },
        { "geneve", TNL_TYPE_GENEVE },
        { "erspan", TNL_TYPE_ERSPAN },
        { "ip6erspan", TNL_TYPE_IP6ERSPAN },
        { "gtpu", TNL_TYPE_GTPU },
    };
    for (size_t i = 0; i < ARRAY_SIZE(types); i++) {
        if (!strcmp(name, types[i].name)) {
            *type = types[i].type;
            return true;
        }
    }
    return false;
}

/* Whether the raw Geneve options OPTS (LEN bytes) are whole options, and
 * whether one is critical (type's high bit). */
static bool
geneve_opts_valid(const uint8_t *opts, size_t len, bool *crit)
{
    bool any_crit = false;
    size_t ofs = 0;
    while (ofs < len) {
        if (len - ofs < 4) {
            return false;
        }
        size_t opt_len = 4 + (opts[ofs + 3] & 0x1f) * 4;
        if (opt_len > len - ofs) {
            return false;
        }
        any_crit |= (opts[ofs + 2] & 0x80) != 0;
        ofs += opt_len;
    }
    if (crit) {
        *crit = any_crit;
    }
    return true;
}

/* Forgets PACKET's layer offsets and hash (its bytes moved), keeping its
 * metadata. */
static void
forget_layers(struct dp_packet *packet)
{
    packet->l2_5_ofs = DP_PACKET_OFS_NONE;
    packet->l3_ofs = DP_PACKET_OFS_NONE;
    packet->l4_ofs = DP_PACKET_OFS_NONE;
    packet->payload_ofs = DP_PACKET_OFS_NONE;
    packet->hash_valid = false;
}

/* Building. */

int
tnl_header_build(const struct tnl_header_params *params,
                 struct tnl_push_action *out)
{
    const struct flow_tnl *tnl = params->tnl;
    const struct tunnel_config *cfg = params->cfg;
    uint8_t *h = (uint8_t *) out->header;
    ovs_be32 src4 = 0, dst4 = 0;
    bool v4_src = in6_addr_get_mapped_ipv4(&params->src, &src4);
    bool ipv6 = !tnl->ip_dst;

    memset(out->header, 0, sizeof out->header);
    if (ipv6 ? ipv6_addr_is_zero(&tnl->ipv6_dst) : false) {
        return EINVAL;
    }
    if (ipv6 == v4_src) {
        return EAFNOSUPPORT;
    }
    dst4 = tnl->ip_dst;

    uint8_t next_proto;
    enum tnl_type type = params->type;
    switch (type) {
    case TNL_TYPE_VXLAN:
    case TNL_TYPE_GENEVE:
    case TNL_TYPE_GTPU:
        next_proto = IPPROTO_UDP;
        break;
    case TNL_TYPE_GRE:
    case TNL_TYPE_IP6GRE:
        type = ipv6 ? TNL_TYPE_IP6GRE : TNL_TYPE_GRE;
        next_proto = IPPROTO_GRE;
        break;
    case TNL_TYPE_ERSPAN:
    case TNL_TYPE_IP6ERSPAN:
        type = ipv6 ? TNL_TYPE_IP6ERSPAN : TNL_TYPE_ERSPAN;
        next_proto = IPPROTO_GRE;
        break;
    default:
        return EINVAL;
    }

    /* Ethernet. */
    memcpy(h, params->dmac.ea, ETH_ADDR_LEN);
    memcpy(h + 6, params->smac.ea, ETH_ADDR_LEN);
    put_be16(h + 12, ipv6 ? ETH_TYPE_IPV6 : ETH_TYPE_IP);
    size_t len = ETH_HEADER_LEN;

    /* IP, lengths left zero for the push. */
    if (!ipv6) {
        struct ip_header ip;
        memset(&ip, 0, sizeof ip);
        ip.ip_ihl_ver = 0x45;
        ip.ip_tos = tnl->ip_tos;
        ip.ip_ttl = tnl->ip_ttl;
        ip.ip_proto = next_proto;
        ip.ip_src = src4;
        ip.ip_dst = dst4;
        ip.ip_frag_off = (tnl->flags & FLOW_TNL_F_DONT_FRAGMENT
                          ? htons(IP_DONT_FRAGMENT) : 0);
        ip.ip_csum = csum(&ip, sizeof ip);
        memcpy(h + len, &ip, sizeof ip);
        len += IP_HEADER_LEN;
    } else {
        struct ipv6_header ip6;
        memset(&ip6, 0, sizeof ip6);
        ip6.ip6_vtc_flow = htonl(6u << 28 | (uint32_t) tnl->ip_tos << 20);
        ip6.ip6_nxt = next_proto;
        ip6.ip6_hlim = tnl->ip_ttl;
        ip6.ip6_src = params->src;
        ip6.ip6_dst = tnl->ipv6_dst;
        memcpy(h + len, &ip6, sizeof ip6);
        len += IPV6_HEADER_LEN;
    }

    if (is_udp_type(type)) {
        uint8_t *udp = h + len;
        put_be16(udp + 2, (cfg->dst_port ? ntohs(cfg->dst_port)
                           : type == TNL_TYPE_VXLAN ? TNL_VXLAN_PORT
                           : type == TNL_TYPE_GTPU ? TNL_GTPU_PORT
                           : TNL_GENEVE_PORT));
        if (ipv6 || tnl->flags & FLOW_TNL_F_CSUM) {
            /* 0xffff marks "compute at push": it adds nothing to the sum. */
            put_be16(udp + 6, 0xffff);
        }
        len += UDP_HEADER_LEN;
    }

    uint8_t *l5 = h + len;
    uint32_t vni = (uint32_t) ntohll(tnl->tun_id) & 0xffffff;
    if (type == TNL_TYPE_VXLAN) {
        if (cfg->exts & TUNNEL_EXT_VXLAN_GPE) {
            uint8_t np;
            if (params->packet_type == htonl(PT_ETH)) {
                np = VXLAN_GPE_NP_ETHERNET;
            } else if (params->packet_type == htonl(PT_IPV4)) {
                np = VXLAN_GPE_NP_IPV4;
            } else if (params->packet_type == htonl(PT_IPV6)) {
                np = VXLAN_GPE_NP_IPV6;
            } else if (params->packet_type == htonl(PT_NSH)) {
                np = VXLAN_GPE_NP_NSH;
            } else {
                return EINVAL;
            }
            put_be32(l5, VXLAN_FLAG_VNI | VXLAN_GPE_FLAG_P | np);
        } else if (params->packet_type != htonl(PT_ETH)) {
            return EINVAL;
        } else {
            put_be32(l5, VXLAN_FLAG_VNI);
        }
        put_be32(l5 + 4, vni << 8);
        len += VXLAN_HLEN;
    } else if (type == TNL_TYPE_GENEVE) {
        bool crit;
        size_t olen = params->geneve_opts_len;
        if (params->packet_type != htonl(PT_ETH) || olen % 4
            || olen > GENEVE_OPTS_MAX
            || (olen && !geneve_opts_valid(params->geneve_opts, olen,
                                           &crit))) {
            return EINVAL;
        }
        if (!olen) {
            crit = false;
        }
        l5[0] = olen / 4;                       /* Version 0. */
        l5[1] = ((tnl->flags & FLOW_TNL_F_OAM) ? 0x80 : 0)
                | (crit ? 0x40 : 0);
        put_be16(l5 + 2, ETH_TYPE_TEB);
        put_be32(l5 + 4, vni << 8);
        if (olen) {
            memcpy(l5 + GENEVE_BASE_HLEN, params->geneve_opts, olen);
        }
        len += GENEVE_BASE_HLEN + olen;
    } else if (type == TNL_TYPE_GTPU) {
        /* The flow's flags and message type, or a G-PDU (3.1's
         * defaults); the TEID is the low 32 bits of the key.  The
         * optional fields come with E, S or PN (options:seq=true sets S;
         * push numbers it); push fills in the length. */
        uint8_t flags = tnl->gtpu_flags ? tnl->gtpu_flags
                                        : GTPU_FLAGS_DEFAULT;
        uint8_t msgtype = tnl->gtpu_msgtype ? tnl->gtpu_msgtype
                                            : GTPU_MSGTYPE_GPDU;
        if (params->packet_type == htonl(PT_ETH)
            || (msgtype == GTPU_MSGTYPE_GPDU
                && params->packet_type != htonl(PT_IPV4)
                && params->packet_type != htonl(PT_IPV6))) {
            /* GTP-U carries no Ethernet; a user packet is IP. */
            return EINVAL;
        }
        if (cfg->set_seq) {
            flags |= GTPU_FLAG_S;
        }
        l5[0] = flags;
        l5[1] = msgtype;
        put_be32(l5 + 4, (uint32_t) ntohll(tnl->tun_id));
        len += GTPU_HLEN + (flags & GTPU_FLAGS_OPT ? GTPU_OPT_LEN : 0);
    } else if (is_gre_type(type)) {
        uint16_t proto;
        if (params->packet_type == htonl(PT_ETH)) {
            proto = ETH_TYPE_TEB;
        } else if (pt_ns(params->packet_type) == PT_NS_ETHERTYPE) {
            proto = pt_ns_type(params->packet_type);
        } else {
            return EINVAL;
        }
        uint16_t flags = 0;
        size_t ofs = GRE_BASE_HLEN;
        if (tnl->flags & FLOW_TNL_F_CSUM) {
            flags |= GRE_CSUM;
            ofs += 4;                           /* Checksum at push. */
        }
        if (cfg->out_key_present) {
            flags |= GRE_KEY;
            put_be32(l5 + ofs, (uint32_t) ntohll(tnl->tun_id));
            ofs += 4;
        }
        if (cfg->set_seq) {
            flags |= GRE_SEQ;
            ofs += 4;                           /* Sequence at push. */
        }
        put_be16(l5, flags);
        put_be16(l5 + 2, proto);
        len += ofs;
    } else {
        /* ERSPAN: GRE with a sequence number, then the ERSPAN header. */
        if (params->packet_type != htonl(PT_ETH)) {
            return EINVAL;
        }
        uint8_t ver = cfg->erspan_ver_flow ? tnl->erspan_ver
                                           : cfg->erspan_ver;
        uint16_t sid = (uint16_t) ntohll(tnl->tun_id) & 0x3ff;
        put_be16(l5, GRE_SEQ);
        put_be16(l5 + 2, ver == 1 ? ETH_TYPE_ERSPAN1 : ETH_TYPE_ERSPAN2);
        uint8_t *e = l5 + 8;
        if (ver == 1) {
            uint32_t idx = cfg->erspan_idx_flow ? tnl->erspan_idx
                                                : cfg->erspan_idx;
            put_be16(e, 1u << 12);              /* ver 1, vlan 0. */
            put_be16(e + 2, sid);
            put_be32(e + 4, idx & 0xfffff);
            len += 8 + ERSPAN_BASE_HLEN + ERSPAN_V1_MDSIZE;
        } else if (ver == 2) {
            uint8_t dir = cfg->erspan_dir_flow ? tnl->erspan_dir
                                               : cfg->erspan_dir;
            uint8_t hwid = cfg->erspan_hwid_flow ? tnl->erspan_hwid
                                                 : cfg->erspan_hwid;
            put_be16(e, 2u << 12);
            put_be16(e + 2, sid);
            /* Timestamp (push leaves it 0), SGT 0, then P(1) ft(5)
             * hwid(6) d(1) gra(2) o(1). */
            uint16_t w = ((hwid & 0x3f) << 4) | ((dir & 1) << 3);
            put_be16(e + 10, w);
            len += 8 + ERSPAN_BASE_HLEN + ERSPAN_V2_MDSIZE;
        } else {
            return EINVAL;
        }
    }

    out->header_len = len;
    out->tnl_type = type;
    return 0;
}

bool
tnl_header_validate(const struct tnl_push_action *data, size_t size,
                    char **error)
{
    const char *why = NULL;
    if (size < TNL_PUSH_ACTION_FIXED
        || size - TNL_PUSH_ACTION_FIXED != data->header_len
        || data->header_len > TNL_PUSH_HEADER_SIZE) {
        why = "tnl_push header length disagrees with the action's";
    } else {
        const uint8_t *h = (const uint8_t *) data->header;
        size_t len = data->header_len;
        uint16_t eth_type = len >= ETH_HEADER_LEN ? get_be16(h + 12) : 0;
        size_t l4_ofs = ETH_HEADER_LEN + (eth_type == ETH_TYPE_IPV6
                                          ? IPV6_HEADER_LEN : IP_HEADER_LEN);
        size_t l4_min = (is_udp_type(data->tnl_type)
                         ? UDP_HEADER_LEN + 8
                         : is_gre_type(data->tnl_type) ? GRE_BASE_HLEN
                         : is_erspan_type(data->tnl_type) ? 16 : 0);
        uint8_t proto = 0;
        if (eth_type == ETH_TYPE_IP && len >= l4_ofs) {
            proto = h[ETH_HEADER_LEN + 9];
            if (h[ETH_HEADER_LEN] != 0x45) {
                why = "tnl_push header: IPv4 with options or not IPv4";
            }
        } else if (eth_type == ETH_TYPE_IPV6 && len >= l4_ofs) {
            proto = h[ETH_HEADER_LEN + 6];
        } else {
            why = "tnl_push header: not Ethernet + IPv4 or IPv6";
        }
        if (!why && !l4_min) {
            why = "tnl_push header: unsupported tunnel type";
        } else if (!why && len < l4_ofs + l4_min) {
            why = "tnl_push header: tunnel header truncated";
        } else if (!why && proto != (is_udp_type(data->tnl_type)
                                     ? IPPROTO_UDP : IPPROTO_GRE)) {
            why = "tnl_push header: IP protocol is not the tunnel's";
        } else if (!why && data->tnl_type == TNL_TYPE_GTPU
                   && len != l4_ofs + UDP_HEADER_LEN + GTPU_HLEN
                             + (h[l4_ofs + UDP_HEADER_LEN] & GTPU_FLAGS_OPT
                                ? GTPU_OPT_LEN : 0)) {
            /* The optional fields come with E, S or PN, and nothing
             * else follows (extension headers are never pushed). */
            why = "tnl_push header: GTP-U length disagrees with its flags";
        } else if (!why && !is_udp_type(data->tnl_type)) {
            uint16_t flags = get_be16(h + l4_ofs);
            size_t glen = GRE_BASE_HLEN + (flags & GRE_CSUM ? 4 : 0)
                          + (flags & GRE_KEY ? 4 : 0)
                          + (flags & GRE_SEQ ? 4 : 0);
            if (flags & ~(GRE_CSUM | GRE_KEY | GRE_SEQ)
                || len < l4_ofs + glen) {
                why = "tnl_push header: bad GRE flags";
            }
        }
    }
    if (why && error) {
        *error = xstrdup(why);
    }
    return !why;
}

/* Pushing. */

/* The UDP source port for PACKET: its flow hash scaled into the range. */
static uint16_t
udp_src_port(struct dp_packet *packet)
{
    uint32_t hash;
    if (packet->hash_valid) {
        hash = packet->hash;
    } else {
        struct flow flow;
        struct pkt_metadata md = packet->md;
        flow_extract(packet, &flow);
        packet->md = md;
        hash = dp_packet_flow_hash(packet, &flow);
    }
    uint32_t range = atomic_load_explicit(&udp_src_range,
                                          memory_order_relaxed);
    uint16_t min = range >> 16, max = range;
    return ((uint64_t) hash * (max - min) >> 32) + min;
}

void
tnl_header_push(struct dp_packet *packet, const struct tnl_push_action *data)
{
    uint16_t src_port = is_udp_type(data->tnl_type) ? udp_src_port(packet)
                                                    : 0;
    uint8_t *h = dp_packet_push(packet, data->header, data->header_len);
    bool ipv6 = header_is_ipv6(h);
    size_t ip_hlen = ipv6 ? IPV6_HEADER_LEN : IP_HEADER_LEN;
    uint8_t *l3 = h + ETH_HEADER_LEN;
    uint8_t *l4 = l3 + ip_hlen;
    size_t l4_len = dp_packet_size(packet) - ETH_HEADER_LEN - ip_hlen;

    forget_layers(packet);
    packet->l3_ofs = ETH_HEADER_LEN;
    packet->l4_ofs = ETH_HEADER_LEN + ip_hlen;
    packet->md.packet_type = htonl(PT_ETH);

    struct ipv6_header ip6;
    struct ip_header ip;
    memset(&ip6, 0, sizeof ip6);
    memset(&ip, 0, sizeof ip);
    if (ipv6) {
        memcpy(&ip6, l3, sizeof ip6);
        ip6.ip6_plen = htons(l4_len);
        memcpy(l3, &ip6, sizeof ip6);
    } else {
        memcpy(&ip, l3, sizeof ip);
        ip.ip_tot_len = htons(l4_len + IP_HEADER_LEN);
        /* The template's checksum covers a zero length. */
        ip.ip_csum = recalc_csum16(ip.ip_csum, 0, ip.ip_tot_len);
        memcpy(l3, &ip, sizeof ip);
    }

    if (is_udp_type(data->tnl_type)) {
        put_be16(l4, src_port);
        put_be16(l4 + 4, l4_len);
        if (data->tnl_type == TNL_TYPE_GTPU
            && l4_len >= UDP_HEADER_LEN + GTPU_HLEN) {
            /* Before the checksum, which covers them. */
            uint8_t *gtpu = l4 + UDP_HEADER_LEN;
            put_be16(gtpu + 2, l4_len - UDP_HEADER_LEN - GTPU_HLEN);
            if (gtpu[0] & GTPU_FLAG_S
                && data->header_len >= (size_t) (gtpu - h) + GTPU_HLEN
                                       + GTPU_OPT_LEN) {
                put_be16(gtpu + GTPU_HLEN, next_seqno(data));
            }
        }
        if (get_be16(l4 + 6)) {
            put_be16(l4 + 6, 0);
            uint32_t sum;
            if (ipv6) {
                struct in6_addr a6 = ip6.ip6_src, b6 = ip6.ip6_dst;
                sum = csum_pseudo_ipv6(&a6, &b6, IPPROTO_UDP, l4_len);
            } else {
                sum = csum_pseudo_ipv4(ip.ip_src, ip.ip_dst, IPPROTO_UDP,
                                       l4_len);
            }
            ovs_be16 c = csum_finish(csum_continue(sum, l4, l4_len));
            if (!c) {
                c = htons(0xffff);
            }
            memcpy(l4 + 6, &c, 2);
        }
    } else {
        uint16_t flags = get_be16(l4);
        size_t ofs = GRE_BASE_HLEN;
        if (flags & GRE_CSUM) {
            ofs += 4;
        }
        if (flags & GRE_KEY) {
            ofs += 4;
        }
        if (flags & GRE_SEQ) {
            put_be32(l4 + ofs, next_seqno(data) + 1);
        }
        if (flags & GRE_CSUM) {
            memset(l4 + 4, 0, 2);
            ovs_be16 c = csum(l4, l4_len);
            memcpy(l4 + 4, &c, 2);
        }
    }
}

/* Popping. */

/* The outer L3 and L4 of a tunnel packet, once validated. */
struct outer {
    const uint8_t *l4;
    size_t l4_len;              /* What the IP length says follows. */
    size_t l4_ofs;              /* From the packet's start. */
    uint8_t proto;
    bool ipv6;
    struct ipv6_header ip6;
    struct ip_header ip;
};

static int
parse_outer_ip(const struct dp_packet *packet, struct flow_tnl *tnl,
               struct outer *o)
{
    const uint8_t *p = dp_packet_data(packet);
    size_t size = dp_packet_size(packet);

    if (size < ETH_HEADER_LEN + 1) {
        COVERAGE_INC(tnl_pop_short);
        return EINVAL;
    }
    uint16_t eth_type = get_be16(p + 12);
    const uint8_t *l3 = p + ETH_HEADER_LEN;
    size_t l3_size = size - ETH_HEADER_LEN;
    if (eth_type == ETH_TYPE_IP) {
        if (l3_size < IP_HEADER_LEN) {
            COVERAGE_INC(tnl_pop_short);
            return EINVAL;
        }
        memcpy(&o->ip, l3, sizeof o->ip);
        if (o->ip.ip_ihl_ver != 0x45) {
            /* Not IPv4, or IP options (3.1 refuses them too). */
            COVERAGE_INC(tnl_pop_bad_ip);
            return EINVAL;
        }
        if (ntohs(o->ip.ip_frag_off) & (IP_MORE_FRAGMENTS
                                         | IP_FRAG_OFF_MASK)) {
            COVERAGE_INC(tnl_pop_bad_ip);
            return EINVAL;
        }
        size_t tot = ntohs(o->ip.ip_tot_len);
        if (tot < IP_HEADER_LEN || tot > l3_size) {
            COVERAGE_INC(tnl_pop_bad_ip_len);
            return EINVAL;
        }
        if (csum(l3, IP_HEADER_LEN)) {
            COVERAGE_INC(tnl_pop_bad_ip_csum);
            return EINVAL;
        }
        o->ipv6 = false;
        o->proto = o->ip.ip_proto;
        o->l4_ofs = ETH_HEADER_LEN + IP_HEADER_LEN;
        o->l4_len = tot - IP_HEADER_LEN;
        tnl->ip_src = o->ip.ip_src;
        tnl->ip_dst = o->ip.ip_dst;
        tnl->ip_tos = o->ip.ip_tos;
        tnl->ip_ttl = o->ip.ip_ttl;
    } else if (eth_type == ETH_TYPE_IPV6) {
        if (l3_size < IPV6_HEADER_LEN) {
            COVERAGE_INC(tnl_pop_short);
            return EINVAL;
        }
        memcpy(&o->ip6, l3, sizeof o->ip6);
        uint32_t vtc = ntohl(o->ip6.ip6_vtc_flow);
        if (vtc >> 28 != 6) {
            COVERAGE_INC(tnl_pop_bad_ip);
            return EINVAL;
        }
        size_t plen = ntohs(o->ip6.ip6_plen);
        if (plen > l3_size - IPV6_HEADER_LEN) {
            COVERAGE_INC(tnl_pop_bad_ip_len);
            return EINVAL;
        }
        o->ipv6 = true;
        o->proto = o->ip6.ip6_nxt;
        o->l4_ofs = ETH_HEADER_LEN + IPV6_HEADER_LEN;
        o->l4_len = plen;
        tnl->ipv6_src = o->ip6.ip6_src;
        tnl->ipv6_dst = o->ip6.ip6_dst;
        tnl->ip_tos = (vtc >> 20) & 0xff;
        tnl->ip_ttl = o->ip6.ip6_hlim;
    } else {
        COVERAGE_INC(tnl_pop_bad_ip);
        return EINVAL;
    }
    o->l4 = p + o->l4_ofs;
    return 0;
}

/* Validates the UDP header of O (of at least MIN_PAYLOAD bytes of
 * payload).  Returns 0 or EINVAL. */
static int
parse_udp(struct outer *o, struct flow_tnl *tnl, size_t min_payload)
{
    if (o->proto != IPPROTO_UDP) {
        COVERAGE_INC(tnl_pop_bad_proto);
        return EINVAL;
    }
    if (o->l4_len < UDP_HEADER_LEN + min_payload) {
        COVERAGE_INC(tnl_pop_short);
        return EINVAL;
    }
    const uint8_t *udp = o->l4;
    if (get_be16(udp + 4) != o->l4_len) {
        /* A UDP length that disagrees with IP's: a lie one way or the
         * other. */
        COVERAGE_INC(tnl_pop_bad_udp_len);
        return EINVAL;
    }
    if (get_be16(udp + 6)) {
        struct in6_addr a6 = o->ip6.ip6_src, b6 = o->ip6.ip6_dst;
        uint32_t sum = (o->ipv6
                        ? csum_pseudo_ipv6(&a6, &b6, IPPROTO_UDP, o->l4_len)
                        : csum_pseudo_ipv4(o->ip.ip_src, o->ip.ip_dst,
                                           IPPROTO_UDP, o->l4_len));
        if (csum_finish(csum_continue(sum, udp, o->l4_len))) {
            COVERAGE_INC(tnl_pop_bad_udp_csum);
            return EINVAL;
        }
        tnl->flags |= FLOW_TNL_F_CSUM;
    }
    /* A zero checksum over IPv6 is accepted, as 3.1 accepts it (RFC 6935
     * allows it for tunnels). */
    tnl->tp_src = htons(get_be16(udp));
    tnl->tp_dst = htons(get_be16(udp + 2));
    return 0;
}

/* Strips the HLEN bytes of outer headers.  Bytes past the outer IP
 * length stay with the inner frame (Ethernet padding, usually): 3.1 keeps
 * them, and its ERSPAN tests send frames that count on it. */
static void
strip(struct dp_packet *packet, size_t hlen)
{
    dp_packet_pull(packet, hlen);
    forget_layers(packet);
}

/* GTP-U after O's validated IP: fills TNL (tun_id from the TEID, the
 * flags and message type) and, for a G-PDU, *HLEN (the outer headers up
 * to the user packet) and *PACKET_TYPE (IPv4 or IPv6, from the user
 * packet's version).  Any other message (echo request, end marker, error
 * indication) is for whoever handles GTP-U signalling, as 3.1 has it:
 * the packet is kept whole (*HLEN 0) as an Ethernet frame, with the
 * tunnel metadata saying what it is. */
static int
pop_gtpu(struct outer *o,
         struct flow_tnl *tnl, size_t *hlen, ovs_be32 *packet_type)
{
    int error = parse_udp(o, tnl, GTPU_HLEN);
    if (error) {
        return error;
    }
    const uint8_t *g = o->l4 + UDP_HEADER_LEN;
    size_t room = o->l4_len - UDP_HEADER_LEN - GTPU_HLEN;
    uint8_t flags = g[0], msgtype = g[1];
    size_t gtp_len = get_be16(g + 2);
    if ((flags & 0xf0) != GTPU_FLAGS_DEFAULT || gtp_len > room) {
        /* Not version 1 GTP (GTP' or a later version), or a length
         * beyond the datagram. */
        COVERAGE_INC(tnl_pop_bad_gtpu);
        return EINVAL;
    }
    tnl->tun_id = htonll(get_be32(g + 4));
    tnl->flags |= FLOW_TNL_F_KEY;
    tnl->gtpu_flags = flags;
    tnl->gtpu_msgtype = msgtype;

    if (msgtype != GTPU_MSGTYPE_GPDU) {
        COVERAGE_INC(tnl_pop_gtpu_signalling);
        *hlen = 0;
        *packet_type = htonl(PT_ETH);
        return 0;
    }

    /* The optional fields, then any extension headers (E): each is a
     * length in 4-byte words (0 is malformed) ending in the next one's
     * type, 0 for none. */
    size_t ofs = GTPU_HLEN;
    if (flags & GTPU_FLAGS_OPT) {
        if (gtp_len < GTPU_OPT_LEN) {
            COVERAGE_INC(tnl_pop_bad_gtpu);
            return EINVAL;
        }
        ofs += GTPU_OPT_LEN;
        uint8_t next = g[ofs - 1];
        while (flags & GTPU_FLAG_E && next) {
            size_t ext_len = ofs < GTPU_HLEN + gtp_len ? g[ofs] * 4u : 0;
            if (!ext_len || ofs + ext_len > GTPU_HLEN + gtp_len) {
                COVERAGE_INC(tnl_pop_bad_gtpu);
                return EINVAL;
            }
            ofs += ext_len;
            next = g[ofs - 1];
        }
    }
    if (ofs >= GTPU_HLEN + gtp_len) {
        COVERAGE_INC(tnl_pop_short);
        return EINVAL;
    }
    switch (g[ofs] >> 4) {
    case 4:
        *packet_type = htonl(PT_IPV4);
        break;
    case 6:
        *packet_type = htonl(PT_IPV6);
        break;
    default:
        /* A user packet that is not IP: nothing a switch port carries. */
        COVERAGE_INC(tnl_pop_bad_gtpu);
        return EINVAL;
    }
    *hlen = o->l4_ofs + UDP_HEADER_LEN + ofs;
    return 0;
}

int
tnl_header_pop(struct dp_packet *packet, enum tnl_type type)
{
    struct flow_tnl tnl;
    struct outer o;
    memset(&tnl, 0, sizeof tnl);
    memset(&o, 0, sizeof o);

    int error = parse_outer_ip(packet, &tnl, &o);
    if (error) {
        return error;
    }

    ovs_be32 packet_type = htonl(PT_ETH);
    size_t hlen;
    uint8_t opts_len = 0;
    const uint8_t *opts = NULL;
    switch (type) {
    case TNL_TYPE_VXLAN: {
        error = parse_udp(&o, &tnl, VXLAN_HLEN);
        if (error) {
            return error;
        }
        const uint8_t *vx = o.l4 + UDP_HEADER_LEN;
        uint32_t flags = get_be32(vx), vni = get_be32(vx + 4);
        if (flags & VXLAN_GPE_FLAG_P) {
            /* VXLAN-GPE: the next protocol says what follows; OAM
             * packets are not for the switch's ports. */
            switch (flags & 0xff) {
            case VXLAN_GPE_NP_IPV4:
                packet_type = htonl(PT_IPV4);
                break;
            case VXLAN_GPE_NP_IPV6:
                packet_type = htonl(PT_IPV6);
                break;
            case VXLAN_GPE_NP_NSH:
                packet_type = htonl(PT_NSH);
                break;
            case VXLAN_GPE_NP_ETHERNET:
                packet_type = htonl(PT_ETH);
                break;
            default:
                COVERAGE_INC(tnl_pop_bad_vxlan);
                return EINVAL;
            }
            if (flags & VXLAN_GPE_FLAG_O) {
                COVERAGE_INC(tnl_pop_bad_vxlan);
                return EINVAL;
            }
            flags &= ~VXLAN_GPE_USED_BITS;
        }
        if (flags != VXLAN_FLAG_VNI || vni & 0xff) {
            COVERAGE_INC(tnl_pop_bad_vxlan);
            return EINVAL;
        }
        tnl.tun_id = htonll(vni >> 8);
        tnl.flags |= FLOW_TNL_F_KEY;
        hlen = o.l4_ofs + UDP_HEADER_LEN + VXLAN_HLEN;
        break;
    }

    case TNL_TYPE_GENEVE: {
        error = parse_udp(&o, &tnl, GENEVE_BASE_HLEN);
        if (error) {
            return error;
        }
        const uint8_t *g = o.l4 + UDP_HEADER_LEN;
        size_t olen = (g[0] & 0x3f) * 4;
        /* Version 0 carrying Ethernet; the reserved bits are ignored on
         * receipt (RFC 8926). */
        if (g[0] >> 6 != 0 || get_be16(g + 2) != ETH_TYPE_TEB) {
            COVERAGE_INC(tnl_pop_bad_geneve);
            return EINVAL;
        }
        if (UDP_HEADER_LEN + GENEVE_BASE_HLEN + olen > o.l4_len) {
            COVERAGE_INC(tnl_pop_short);
            return EINVAL;
        }
        opts = g + GENEVE_BASE_HLEN;
        if (olen > GENEVE_OPTS_MAX || !geneve_opts_valid(opts, olen, NULL)) {
            COVERAGE_INC(tnl_pop_bad_geneve_opt);
            return EINVAL;
        }
        opts_len = olen;
        if (g[1] & 0x80) {
            tnl.flags |= FLOW_TNL_F_OAM;
        }
        tnl.tun_id = htonll(get_be32(g + 4) >> 8);
        tnl.flags |= FLOW_TNL_F_KEY;
        if (olen) {
            tnl.flags |= FLOW_TNL_F_UDPIF;
        }
        hlen = o.l4_ofs + UDP_HEADER_LEN + GENEVE_BASE_HLEN + olen;
        break;
    }

    case TNL_TYPE_GRE:
    case TNL_TYPE_IP6GRE: {
        if (o.proto != IPPROTO_GRE) {
            COVERAGE_INC(tnl_pop_bad_proto);
            return EINVAL;
        }
        if (o.l4_len < GRE_BASE_HLEN) {
            COVERAGE_INC(tnl_pop_short);
            return EINVAL;
        }
        const uint8_t *gre = o.l4;
        uint16_t flags = get_be16(gre), proto = get_be16(gre + 2);
        if (flags & ~(GRE_CSUM | GRE_KEY | GRE_SEQ)) {
            /* Routing, strict source route, recursion, version 1 (PPTP):
             * nothing a GRE tunnel port carries. */
            COVERAGE_INC(tnl_pop_bad_gre);
            return EINVAL;
        }
        size_t glen = GRE_BASE_HLEN + (flags & GRE_CSUM ? 4 : 0)
                      + (flags & GRE_KEY ? 4 : 0) + (flags & GRE_SEQ ? 4 : 0);
        if (glen > o.l4_len) {
            COVERAGE_INC(tnl_pop_short);
            return EINVAL;
        }
        size_t ofs = GRE_BASE_HLEN;
        if (flags & GRE_CSUM) {
            if (csum(gre, o.l4_len)) {
                COVERAGE_INC(tnl_pop_bad_gre_csum);
                return EINVAL;
            }
            tnl.flags |= FLOW_TNL_F_CSUM;
            ofs += 4;
        }
        if (flags & GRE_KEY) {
            tnl.tun_id = htonll(get_be32(gre + ofs));
            tnl.flags |= FLOW_TNL_F_KEY;
        }
        if (proto == ETH_TYPE_TEB) {
            packet_type = htonl(PT_ETH);
        } else if (proto >= ETH_TYPE_MIN && proto != ETH_TYPE_ERSPAN1
                   && proto != ETH_TYPE_ERSPAN2) {
            packet_type = htonl(PACKET_TYPE(PT_NS_ETHERTYPE, proto));
        } else {
            COVERAGE_INC(tnl_pop_bad_gre);
            return EINVAL;
        }
        hlen = o.l4_ofs + glen;
        break;
    }

    case TNL_TYPE_ERSPAN:
    case TNL_TYPE_IP6ERSPAN: {
        if (o.proto != IPPROTO_GRE) {
            COVERAGE_INC(tnl_pop_bad_proto);
            return EINVAL;
        }
        if (o.l4_len < 8 + ERSPAN_BASE_HLEN) {
            COVERAGE_INC(tnl_pop_short);
            return EINVAL;
        }
        const uint8_t *gre = o.l4;
        uint16_t flags = get_be16(gre), proto = get_be16(gre + 2);
        if (flags != GRE_SEQ
            || (proto != ETH_TYPE_ERSPAN1 && proto != ETH_TYPE_ERSPAN2)) {
            COVERAGE_INC(tnl_pop_bad_erspan);
            return EINVAL;
        }
        const uint8_t *e = gre + 8;
        uint8_t ver = e[0] >> 4;
        size_t md = ver == 1 ? ERSPAN_V1_MDSIZE
                    : ver == 2 ? ERSPAN_V2_MDSIZE : 0;
        if (!md) {
            COVERAGE_INC(tnl_pop_bad_erspan);
            return EINVAL;
        }
        if (8 + ERSPAN_BASE_HLEN + md > o.l4_len) {
            COVERAGE_INC(tnl_pop_short);
            return EINVAL;
        }
        tnl.tun_id = htonll(get_be16(e + 2) & 0x3ff);
        tnl.flags |= FLOW_TNL_F_KEY;
        tnl.erspan_ver = ver;
        if (ver == 1) {
            tnl.erspan_idx = get_be32(e + 4) & 0xfffff;
        } else {
            uint16_t w = get_be16(e + 10);
            tnl.erspan_hwid = (w >> 4) & 0x3f;
            tnl.erspan_dir = (w >> 3) & 1;
        }
        hlen = o.l4_ofs + 8 + ERSPAN_BASE_HLEN + md;
        break;
    }

    case TNL_TYPE_GTPU:
        error = pop_gtpu(&o, &tnl, &hlen, &packet_type);
        if (error) {
            return error;
        }
        break;

    default:
        COVERAGE_INC(tnl_pop_bad_proto);
        return EINVAL;
    }

    /* Valid: the metadata replaces whatever the packet had. */
    if (opts_len) {
        memcpy(packet->md.tun_opts, opts, opts_len);
    }
    packet->md.tun_opts_len = opts_len;
    packet->md.tunnel = tnl;
    packet->md.packet_type = packet_type;
    if (hlen) {
        strip(packet, hlen);
    } else {
        forget_layers(packet);
    }
    COVERAGE_INC(tnl_pop);
    return 0;
}

/* tnl/egress_port_range [MIN MAX]: shows or sets the UDP source ports. */
static void
egress_port_range_cmd(struct unixctl_conn *conn, int argc,
                      const char *argv[], void *aux OVS_UNUSED)
{
    if (argc < 3) {
        uint32_t range = atomic_load(&udp_src_range);
        char *s = xasprintf("Tunnel UDP source port range: %u-%u\n",
                            range >> 16, range & 0xffff);
        unixctl_command_reply(conn, s);
        free(s);
        return;
    }
    unsigned int a, b;
    if (!str_to_uint(argv[1], 10, &a) || !a || a > UINT16_MAX) {
        unixctl_command_reply_error(conn, "Invalid min.");
        return;
    }
    if (!str_to_uint(argv[2], 10, &b) || !b || b > UINT16_MAX) {
        unixctl_command_reply_error(conn, "Invalid max.");
        return;
    }
    uint32_t lo = MIN(a, b), hi = a > b ? a : b;
    atomic_store(&udp_src_range, lo << 16 | hi);
    unixctl_command_reply(conn, "OK");
}

void
tnl_header_init(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;
    if (ovsthread_once_start(&once)) {
        unixctl_command_register("tnl/egress_port_range", "min max", 0, 2,
                                 egress_port_range_cmd, NULL);
        ovsthread_once_done(&once);
    }
}
