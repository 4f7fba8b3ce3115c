/* libFuzzer target: decapsulation of native tunnel packets
 * (tnl_header_pop(), lib/tnl-header.c).
 *
 * The input is one outer frame (Ethernet, IPv4 or IPv6, then UDP + VXLAN,
 * Geneve or GTP-U, or GRE, maybe + ERSPAN).  It is popped as every tunnel type,
 * each time from a copy at the very end of its own heap block, so that a
 * read past the frame is an ASan error.  What must hold:
 *   - a refusal leaves the packet's bytes, size and metadata alone;
 *   - an acceptance leaves a tail of the frame, shorter by exactly the
 *     header length the outer headers announce (computed here on their
 *     own from the input's bytes), inside the outer IP datagram (GTP-U
 *     signalling, any message but a G-PDU, is kept whole);
 *   - the tunnel metadata is what the header says: outer addresses, TOS,
 *     TTL, UDP ports, a VNI of 24 bits or GRE key or ERSPAN session of 10
 *     bits or GTP-U TEID of 32 with its flags and message type, only the
 *     flags the type can set, Geneve options as on the wire, the packet
 *     type (a G-PDU's IPv4 or IPv6 by the user packet's version); the rest
 *     of the metadata (input port, mark) is untouched;
 *   - flow_extract() of the popped packet carries that metadata;
 *   - building a header of the same type from that metadata
 *     (tnl_header_build()), validating and pushing it onto the popped
 *     packet, and popping again gives the same metadata (but the UDP
 *     source port, which push picks from a hash) and the same inner bytes
 *     (for GTP-U, G-PDUs of a nonzero message type: 0 asks build for its
 *     default).
 * Any disagreement aborts, which libFuzzer reports as a crash. */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "dp-packet.h"
#include "flow-extract.h"
#include "flow.h"
#include "ip-addr.h"
#include "packets.h"
#include "tnl-header.h"
#include "tunnel-config.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(COND) do { if (!(COND)) { abort(); } } while (0)

static const enum tnl_type all_types[] = {
    TNL_TYPE_VXLAN, TNL_TYPE_GENEVE, TNL_TYPE_GRE, TNL_TYPE_IP6GRE,
    TNL_TYPE_ERSPAN, TNL_TYPE_IP6ERSPAN, TNL_TYPE_GTPU,
};

/* Metadata a pop must not touch. */
#define SENTINEL_IN_PORT 7
#define SENTINEL_MARK 0x5a5a

static uint16_t
be16_at(const uint8_t *p)
{
    return (uint16_t) (p[0] << 8 | p[1]);
}

static uint32_t
be32_at(const uint8_t *p)
{
    return (uint32_t) p[0] << 24 | (uint32_t) p[1] << 16
           | (uint32_t) p[2] << 8 | p[3];
}

static bool
is_udp(enum tnl_type type)
{
    return (type == TNL_TYPE_VXLAN || type == TNL_TYPE_GENEVE
            || type == TNL_TYPE_GTPU);
}

/* GTP-U's G-PDU message type, and the flags that bring the 4 optional
 * bytes (E, S, PN) and extension headers (E). */
#define GPDU 255
#define GTPU_OPT_FLAGS 0x07
#define GTPU_E 0x04

/* The GTP-U header length of the G-PDU whose GTP-U header is at G: 8, the
 * optional fields, each extension header by its length byte until a next
 * type of 0. */
static size_t
gtpu_hlen(const uint8_t *g)
{
    size_t len = 8;
    if (g[0] & GTPU_OPT_FLAGS) {
        len += 4;
        while (g[0] & GTPU_E && g[len - 1]) {
            len += g[len] * 4;
        }
    }
    return len;
}

static bool
is_erspan(enum tnl_type type)
{
    return type == TNL_TYPE_ERSPAN || type == TNL_TYPE_IP6ERSPAN;
}

/* The outer header length an accepted packet of TYPE must lose, from the
 * frame's own bytes (DATA, SIZE, already accepted, so the fixed parts are
 * there); *L3_LEN gets the IP header length and *DGRAM_END where the IP
 * datagram ends. */
static size_t
expected_hlen(const uint8_t *data, size_t size, enum tnl_type type,
              size_t *l3_len, size_t *dgram_end)
{
    uint16_t eth_type = be16_at(data + 12);
    CHECK(eth_type == ETH_TYPE_IP || eth_type == ETH_TYPE_IPV6);
    bool ipv6 = eth_type == ETH_TYPE_IPV6;
    *l3_len = ipv6 ? IPV6_HEADER_LEN : IP_HEADER_LEN;
    *dgram_end = ETH_HEADER_LEN + (ipv6
                                   ? IPV6_HEADER_LEN + be16_at(data + 18)
                                   : be16_at(data + 16));
    CHECK(*dgram_end <= size);
    size_t l4 = ETH_HEADER_LEN + *l3_len;
    switch (type) {
    case TNL_TYPE_VXLAN:
        return l4 + UDP_HEADER_LEN + VXLAN_HLEN;
    case TNL_TYPE_GENEVE:
        return l4 + UDP_HEADER_LEN + GENEVE_BASE_HLEN
               + (data[l4 + UDP_HEADER_LEN] & 0x3f) * 4;
    case TNL_TYPE_GRE:
    case TNL_TYPE_IP6GRE: {
        uint16_t flags = be16_at(data + l4);
        return l4 + GRE_BASE_HLEN + (flags & GRE_CSUM ? 4 : 0)
               + (flags & GRE_KEY ? 4 : 0) + (flags & GRE_SEQ ? 4 : 0);
    }
    case TNL_TYPE_ERSPAN:
    case TNL_TYPE_IP6ERSPAN: {
        uint8_t ver = data[l4 + 8] >> 4;
        CHECK(ver == 1 || ver == 2);
        /* GRE with a sequence number, the ERSPAN base header, then 4
         * (v1) or 8 (v2) bytes of it. */
        return l4 + 8 + 4 + (ver == 1 ? 4 : 8);
    }
    case TNL_TYPE_GTPU: {
        const uint8_t *g = data + l4 + UDP_HEADER_LEN;
        return g[1] == GPDU ? l4 + UDP_HEADER_LEN + gtpu_hlen(g) : 0;
    }
    default:
        abort();                /* No other type exists. */
    }
}

/* Checks the metadata that popping DATA as TYPE gave (MD), HLEN being the
 * header length. */
static void
check_metadata(const uint8_t *data, enum tnl_type type, size_t l3_len,
               size_t hlen, const struct pkt_metadata *md)
{
    const struct flow_tnl *t = &md->tunnel;
    const uint8_t *l3 = data + ETH_HEADER_LEN;
    const uint8_t *l4 = l3 + l3_len;

    CHECK(md->in_port == SENTINEL_IN_PORT && md->pkt_mark == SENTINEL_MARK);
    if (l3_len == IP_HEADER_LEN) {
        CHECK(!memcmp(&t->ip_src, l3 + 12, 4));
        CHECK(!memcmp(&t->ip_dst, l3 + 16, 4));
        CHECK(t->ip_tos == l3[1] && t->ip_ttl == l3[8]);
        CHECK(ipv6_addr_is_zero(&t->ipv6_src)
              && ipv6_addr_is_zero(&t->ipv6_dst));
    } else {
        CHECK(!memcmp(&t->ipv6_src, l3 + 8, 16));
        CHECK(!memcmp(&t->ipv6_dst, l3 + 24, 16));
        CHECK(t->ip_tos == (uint8_t) (be32_at(l3) >> 20));
        CHECK(t->ip_ttl == l3[7]);
        CHECK(!t->ip_src && !t->ip_dst);
    }

    uint16_t allowed = FLOW_TNL_F_KEY | FLOW_TNL_F_CSUM;
    if (type == TNL_TYPE_GENEVE) {
        allowed |= FLOW_TNL_F_OAM | FLOW_TNL_F_UDPIF;
    }
    if (is_erspan(type)) {
        allowed = FLOW_TNL_F_KEY;
    }
    CHECK(!(t->flags & ~allowed));

    if (is_udp(type)) {
        CHECK(t->tp_src == htons(be16_at(l4))
              && t->tp_dst == htons(be16_at(l4 + 2)));
        CHECK(ntohll(t->tun_id) < (type == TNL_TYPE_GTPU
                                   ? UINT64_C(1) << 32 : 1u << 24));
        CHECK(t->flags & FLOW_TNL_F_KEY);
        CHECK(!(t->flags & FLOW_TNL_F_CSUM) == !be16_at(l4 + 6));
    } else {
        CHECK(!t->tp_src && !t->tp_dst);
    }
    if (type == TNL_TYPE_GENEVE) {
        size_t olen = hlen - (ETH_HEADER_LEN + l3_len + UDP_HEADER_LEN
                              + GENEVE_BASE_HLEN);
        CHECK(md->tun_opts_len == olen && olen % 4 == 0
              && olen <= GENEVE_OPTS_MAX);
        CHECK(!memcmp(md->tun_opts, l4 + UDP_HEADER_LEN + GENEVE_BASE_HLEN,
                      olen));
        CHECK(!(t->flags & FLOW_TNL_F_UDPIF) == !olen);
        CHECK(!(t->flags & FLOW_TNL_F_OAM)
              == !(l4[UDP_HEADER_LEN + 1] & 0x80));
    } else {
        CHECK(!md->tun_opts_len);
    }
    if (type == TNL_TYPE_GRE || type == TNL_TYPE_IP6GRE) {
        uint16_t flags = be16_at(l4);
        CHECK(!(t->flags & FLOW_TNL_F_KEY) == !(flags & GRE_KEY));
        CHECK(!(t->flags & FLOW_TNL_F_CSUM) == !(flags & GRE_CSUM));
        CHECK(ntohll(t->tun_id) <= UINT32_MAX);
        CHECK((t->flags & FLOW_TNL_F_KEY) || !t->tun_id);
    }
    if (is_erspan(type)) {
        CHECK(t->erspan_ver == l4[8] >> 4);
        CHECK(ntohll(t->tun_id) < (1u << 10));
        CHECK(t->erspan_idx < (1u << 20) && t->erspan_dir <= 1
              && t->erspan_hwid < 64);
        CHECK(t->erspan_ver == 1 || (!t->erspan_idx));
        CHECK(t->erspan_ver == 2 || (!t->erspan_dir && !t->erspan_hwid));
    } else {
        CHECK(!t->erspan_ver && !t->erspan_idx && !t->erspan_dir
              && !t->erspan_hwid);
    }
    CHECK(!t->gbp_id && !t->gbp_flags);
    if (type == TNL_TYPE_GTPU) {
        const uint8_t *g = l4 + UDP_HEADER_LEN;
        CHECK(t->gtpu_flags == g[0] && t->gtpu_msgtype == g[1]);
        CHECK(ntohll(t->tun_id) == be32_at(g + 4));
        CHECK((g[0] & 0xf0) == 0x30);           /* Version 1, GTP. */
        if (g[1] == GPDU) {
            uint8_t version = data[hlen] >> 4;
            CHECK(md->packet_type == htonl(version == 4 ? PT_IPV4
                                           : PT_IPV6));
            CHECK(version == 4 || version == 6);
        } else {
            CHECK(md->packet_type == htonl(PT_ETH));
        }
    } else {
        CHECK(!t->gtpu_flags && !t->gtpu_msgtype);
    }

    /* Only VXLAN(-GPE), GRE and GTP-U carry anything but Ethernet. */
    if (type != TNL_TYPE_VXLAN && type != TNL_TYPE_GRE
        && type != TNL_TYPE_IP6GRE && type != TNL_TYPE_GTPU) {
        CHECK(md->packet_type == htonl(PT_ETH));
    }
}

/* A packet of SIZE bytes copied from DATA, at the end of its own block
 * (no headroom, no tailroom), with sentinel metadata. */
static struct dp_packet *
tight_copy(const uint8_t *data, size_t size, uint8_t **blockp)
{
    uint8_t *block = xmalloc(size ? size : 1);
    memcpy(block, data, size);
    struct dp_packet *p = xmalloc(sizeof *p);
    dp_packet_use_foreign(p, block, size, 0, size);
    /* All of it, Geneve options too, so that comparing it whole compares
     * defined bytes. */
    memset(&p->md, 0, sizeof p->md);
    pkt_metadata_init(&p->md, SENTINEL_IN_PORT);
    p->md.pkt_mark = SENTINEL_MARK;
    *blockp = block;
    return p;
}

static void
free_tight_copy(struct dp_packet *p, uint8_t *block)
{
    dp_packet_uninit(p);
    free(p);
    free(block);
}

/* Builds a header of TYPE from the metadata a pop of the frame DATA gave
 * (POPPED), pushes it onto a copy of POPPED and pops that: the metadata
 * and inner bytes must come back. */
static void
check_push_pop_round_trip(const uint8_t *data, enum tnl_type type,
                          size_t l3_len, const struct dp_packet *popped)
{
    const struct flow_tnl *t = &popped->md.tunnel;
    const uint8_t *l4 = data + ETH_HEADER_LEN + l3_len;
    struct tunnel_config cfg;
    memset(&cfg, 0, sizeof cfg);
    struct tnl_header_params params;
    memset(&params, 0, sizeof params);

    params.type = type;
    params.cfg = &cfg;
    params.tnl = t;
    params.packet_type = popped->md.packet_type;
    memcpy(params.dmac.ea, data, ETH_ADDR_LEN);
    memcpy(params.smac.ea, data + 6, ETH_ADDR_LEN);
    if (t->ip_dst) {
        params.src = in6_addr_mapped_ipv4(t->ip_src);
    } else {
        params.src = t->ipv6_src;
    }
    if (!t->ip_dst && ipv6_addr_is_zero(&t->ipv6_dst)) {
        return;                 /* No destination: nothing to build. */
    }
    ovs_be32 mapped;
    if (!t->ip_dst && in6_addr_get_mapped_ipv4(&t->ipv6_src, &mapped)) {
        return;                 /* Would read as IPv4: not the same frame. */
    }
    if (is_udp(type)) {
        cfg.dst_port = t->tp_dst;
        if (!cfg.dst_port) {
            return;             /* 0 means "the default port" to build. */
        }
        if (type == TNL_TYPE_VXLAN
            && popped->md.packet_type != htonl(PT_ETH)) {
            cfg.exts = TUNNEL_EXT_VXLAN_GPE;
        }
    }
    if (type == TNL_TYPE_GENEVE) {
        params.geneve_opts = popped->md.tun_opts;
        params.geneve_opts_len = popped->md.tun_opts_len;
    }
    if (type == TNL_TYPE_GRE || type == TNL_TYPE_IP6GRE) {
        cfg.out_key_present = (t->flags & FLOW_TNL_F_KEY) != 0;
        cfg.set_seq = (be16_at(l4) & GRE_SEQ) != 0;
    }
    if (is_erspan(type)) {
        cfg.erspan_ver_flow = cfg.erspan_idx_flow = true;
        cfg.erspan_dir_flow = cfg.erspan_hwid_flow = true;
    }
    if (type == TNL_TYPE_GTPU && t->gtpu_msgtype != GPDU) {
        return;                 /* Signalling: the frame itself, kept. */
    }

    struct tnl_push_action push;
    memset(&push, 0, sizeof push);
    int error = tnl_header_build(&params, &push);
    CHECK(!error);
    CHECK(tnl_header_validate(&push, TNL_PUSH_ACTION_FIXED + push.header_len,
                              NULL));

    size_t inner_size = dp_packet_size(popped);
    struct dp_packet *again
        = dp_packet_new_with_headroom(inner_size, TNL_PUSH_HEADER_SIZE);
    dp_packet_put(again, dp_packet_data(popped), inner_size);
    pkt_metadata_init(&again->md, SENTINEL_IN_PORT);
    again->md.pkt_mark = SENTINEL_MARK;
    again->md.packet_type = popped->md.packet_type;
    tnl_header_push(again, &push);
    CHECK(dp_packet_size(again) == inner_size + push.header_len);
    CHECK(!tnl_header_pop(again, type));
    CHECK(dp_packet_size(again) == inner_size
          && !memcmp(dp_packet_data(again), dp_packet_data(popped),
                     inner_size));

    /* The same metadata, but what the push chose itself: the UDP source
     * port, and a UDP checksum that IPv6 always gets. */
    struct flow_tnl want = *t, got = again->md.tunnel;
    want.tp_src = got.tp_src = 0;
    if (!t->ip_dst && is_udp(type)) {
        want.flags |= FLOW_TNL_F_CSUM;
        got.flags |= FLOW_TNL_F_CSUM;
    }
    CHECK(!memcmp(&want, &got, sizeof want));
    CHECK(again->md.packet_type == popped->md.packet_type);
    CHECK(again->md.tun_opts_len == popped->md.tun_opts_len
          && !memcmp(again->md.tun_opts, popped->md.tun_opts,
                     popped->md.tun_opts_len));
    dp_packet_delete(again);
}

static void
pop_as(const uint8_t *data, size_t size, enum tnl_type type)
{
    uint8_t *block;
    struct dp_packet *p = tight_copy(data, size, &block);
    /* Metadata of an earlier decapsulation, which a refusal must keep. */
    p->md.tunnel.ip_dst = htonl(0x0a000001);
    p->md.tunnel.tun_id = htonll(42);
    p->md.tun_opts_len = 0;
    struct pkt_metadata before = p->md;

    if (tnl_header_pop(p, type)) {
        CHECK(dp_packet_data(p) == block && dp_packet_size(p) == size
              && !memcmp(block, data, size));
        CHECK(!memcmp(&p->md, &before, sizeof before));
        free_tight_copy(p, block);
        return;
    }

    size_t l3_len, dgram_end;
    size_t hlen = expected_hlen(data, size, type, &l3_len, &dgram_end);
    CHECK(hlen <= dgram_end);
    CHECK(dp_packet_size(p) == size - hlen);
    CHECK((const uint8_t *) dp_packet_data(p) == block + hlen);
    CHECK(!memcmp(block, data, size));
    check_metadata(data, type, l3_len, hlen, &p->md);

    struct flow flow;
    struct pkt_metadata md = p->md;
    flow_extract(p, &flow);
    p->md = md;
    CHECK(flow.packet_type == md.packet_type);
    CHECK(flow.tunnel.tun_id == md.tunnel.tun_id
          && flow.tunnel.ip_dst == md.tunnel.ip_dst
          && flow.tunnel.ip_src == md.tunnel.ip_src
          && ipv6_addr_equals(&flow.tunnel.ipv6_dst, &md.tunnel.ipv6_dst)
          && flow.tunnel.flags == md.tunnel.flags);
    if (md.tunnel.flags & FLOW_TNL_F_UDPIF) {
        CHECK(flow.tun_metadata.present == md.tun_opts_len
              && !memcmp(flow.tun_metadata.opts, md.tun_opts,
                          md.tun_opts_len));
    }

    check_push_pop_round_trip(data, type, l3_len, p);
    free_tight_copy(p, block);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65535) {
        return 0;
    }
    for (size_t i = 0; i < ARRAY_SIZE(all_types); i++) {
        pop_as(data, size, all_types[i]);
    }
    return 0;
}
