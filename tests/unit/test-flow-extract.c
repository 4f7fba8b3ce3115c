/* Unit tests for flow-extract.h: every protocol the datapath parses, the
 * facts Open vSwitch fixes about what goes into the flow, truncated and
 * malformed packets (every prefix of every sample packet is parsed from
 * an exactly-sized heap block, so ASan or valgrind catch any read past the
 * end), compose-then-extract round trips, and parsed flows in miniflows
 * and masks. */
#include <config.h>
#include "flow-extract.h"

#include <arpa/inet.h>
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "coverage.h"
#include "csum.h"
#include "dp-packet.h"
#include "flow.h"
#include "packets.h"

static struct eth_addr
mac(uint8_t last)
{
    return (struct eth_addr) { { 0x00, 0x11, 0x22, 0x33, 0x44, last } };
}

static struct in6_addr
ip6(const char *s)
{
    struct in6_addr a;
    ck_assert_int_eq(inet_pton(AF_INET6, s, &a), 1);
    return a;
}

static ovs_be32
ip4(const char *s)
{
    struct in_addr a;
    ck_assert_int_eq(inet_pton(AF_INET, s, &a), 1);
    return a.s_addr;
}

static void
base_flow(struct flow *f, uint16_t dl_type)
{
    memset(f, 0, sizeof *f);
    f->in_port = 3;
    f->dl_src = mac(1);
    f->dl_dst = mac(2);
    f->dl_type = htons(dl_type);
}

static void
ipv4_flow(struct flow *f, uint8_t proto)
{
    base_flow(f, ETH_TYPE_IP);
    f->nw_src = ip4("10.0.0.1");
    f->nw_dst = ip4("10.0.0.2");
    f->nw_proto = proto;
    f->nw_tos = 0x2e;
    f->nw_ttl = 64;
}

static void
ipv6_flow(struct flow *f, uint8_t proto)
{
    base_flow(f, ETH_TYPE_IPV6);
    f->ipv6_src = ip6("2001:db8::1");
    f->ipv6_dst = ip6("2001:db8::2");
    f->ipv6_label = htonl(0x12345);
    f->nw_proto = proto;
    f->nw_tos = 0x10;
    f->nw_ttl = 255;
}

/* The sample flows: one per protocol and variant the parser handles. */
static size_t
sample_flows(struct flow *flows, size_t max)
{
    size_t n = 0;
    struct flow *f;

#define NEXT ck_assert_uint_lt(n, max); f = &flows[n++]
    NEXT; ipv4_flow(f, IPPROTO_TCP);
    f->tp_src = htons(1234); f->tp_dst = htons(80);
    f->tcp_flags = htons(TCP_SYN | TCP_ACK);
    NEXT; ipv4_flow(f, IPPROTO_UDP);
    f->tp_src = htons(53); f->tp_dst = htons(5353);
    NEXT; ipv4_flow(f, IPPROTO_SCTP);
    f->tp_src = htons(38412); f->tp_dst = htons(38412);
    NEXT; ipv4_flow(f, IPPROTO_ICMP);
    f->tp_src = htons(8); f->tp_dst = htons(0);
    NEXT; ipv4_flow(f, IPPROTO_IGMP);
    f->tp_src = htons(0x16); f->igmp_group_ip4 = ip4("239.1.2.3");
    NEXT; ipv4_flow(f, IPPROTO_UDP);
    f->nw_frag = FLOW_NW_FRAG_ANY;
    f->tp_src = htons(1); f->tp_dst = htons(2);
    NEXT; ipv4_flow(f, IPPROTO_UDP);
    f->nw_frag = FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER;
    NEXT; ipv4_flow(f, 99);
    NEXT; ipv6_flow(f, IPPROTO_TCP);
    f->tp_src = htons(443); f->tp_dst = htons(50000);
    f->tcp_flags = htons(TCP_FIN | TCP_PSH | TCP_NS);
    NEXT; ipv6_flow(f, IPPROTO_UDP);
    f->tp_src = htons(546); f->tp_dst = htons(547);
    NEXT; ipv6_flow(f, IPPROTO_SCTP);
    f->tp_src = htons(9); f->tp_dst = htons(10);
    NEXT; ipv6_flow(f, IPPROTO_ICMPV6);
    f->tp_src = htons(128);
    NEXT; ipv6_flow(f, IPPROTO_ICMPV6);
    f->tp_src = htons(ND_NEIGHBOR_SOLICIT);
    f->nd_target = ip6("2001:db8::99");
    f->arp_sha = mac(0x55);
    NEXT; ipv6_flow(f, IPPROTO_ICMPV6);
    f->tp_src = htons(ND_NEIGHBOR_ADVERT);
    f->nd_target = ip6("fe80::1");
    f->arp_tha = mac(0x66);
    NEXT; ipv6_flow(f, IPPROTO_ICMPV6);
    f->tp_src = htons(ND_NEIGHBOR_SOLICIT);
    f->nd_target = ip6("2001:db8::98");
    NEXT; ipv6_flow(f, IPPROTO_UDP);
    f->nw_frag = FLOW_NW_FRAG_ANY;
    f->tp_src = htons(7); f->tp_dst = htons(8);
    NEXT; ipv6_flow(f, IPPROTO_TCP);
    f->nw_frag = FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER;
    NEXT; base_flow(f, ETH_TYPE_ARP);
    f->nw_proto = ARP_OP_REQUEST;
    f->nw_src = ip4("192.168.0.1"); f->nw_dst = ip4("192.168.0.2");
    f->arp_sha = mac(1);
    NEXT; base_flow(f, ETH_TYPE_ARP);
    f->nw_proto = ARP_OP_REPLY;
    f->nw_src = ip4("192.168.0.2"); f->nw_dst = ip4("192.168.0.1");
    f->arp_sha = mac(2); f->arp_tha = mac(1);
    NEXT; ipv4_flow(f, IPPROTO_UDP);
    f->vlans[0].tpid = htons(ETH_TYPE_VLAN_8021Q);
    f->vlans[0].tci = htons(VLAN_CFI | (5 << VLAN_PCP_SHIFT) | 100);
    f->tp_src = htons(1); f->tp_dst = htons(2);
    NEXT; ipv6_flow(f, IPPROTO_TCP);
    f->vlans[0].tpid = htons(ETH_TYPE_VLAN_8021AD);
    f->vlans[0].tci = htons(VLAN_CFI | 4000);
    f->vlans[1].tpid = htons(ETH_TYPE_VLAN_8021Q);
    f->vlans[1].tci = htons(VLAN_CFI | (7 << VLAN_PCP_SHIFT) | 1);
    f->tp_src = htons(22); f->tp_dst = htons(2222);
    f->tcp_flags = htons(TCP_RST);
    NEXT; base_flow(f, 0x88cc);             /* LLDP: no L3. */
    NEXT; base_flow(f, FLOW_DL_TYPE_NONE);  /* 802.3 without SNAP. */
#undef NEXT
    return n;
}

/* A heap packet of exactly LEN bytes copied from DATA, so that reading
 * past the frame is an ASan/valgrind error. */
static struct dp_packet *
exact_packet(const void *data, size_t len)
{
    struct dp_packet *p = xmalloc(sizeof *p);
    void *block = xmalloc(len ? len : 1);
    memcpy(block, data, len);
    dp_packet_use_foreign(p, block, len, 0, len);
    return p;
}

static void
exact_packet_free(struct dp_packet *p)
{
    free(dp_packet_base(p));
    free(p);
}

static unsigned int
extract_bytes(const void *data, size_t len, struct flow *flow)
{
    struct dp_packet *p = exact_packet(data, len);
    unsigned int problems = flow_extract(p, flow);
    exact_packet_free(p);
    return problems;
}

START_TEST(test_compose_extract_round_trip)
{
    struct flow flows[32];
    size_t n = sample_flows(flows, 32);
    for (size_t i = 0; i < n; i++) {
        struct dp_packet *p = dp_packet_new(0);
        flow_compose(p, &flows[i], 17);
        struct flow back;
        unsigned int problems = flow_extract(p, &back);
        ck_assert_msg(!problems, "sample %zu: problems %#x", i, problems);
        ck_assert_msg(flow_equal(&back, &flows[i]),
                      "sample %zu does not round trip", i);
        dp_packet_delete(p);
    }
}
END_TEST

/* Every prefix of every sample parses without reading past its end, to
 * the layers that are complete: a layer that is there has the same fields
 * as in the whole packet, and the whole packet gives the whole flow. */
START_TEST(test_every_truncation_is_safe)
{
    struct flow flows[32];
    size_t n = sample_flows(flows, 32);
    for (size_t i = 0; i < n; i++) {
        struct dp_packet *p = dp_packet_new(0);
        flow_compose(p, &flows[i], 9);
        size_t len = dp_packet_size(p);
        const uint8_t *bytes = dp_packet_data(p);
        for (size_t cut = 0; cut <= len; cut++) {
            struct flow f;
            struct dp_packet *q = exact_packet(bytes, cut);
            q->md = p->md;
            unsigned int problems = flow_extract(q, &f);
            if (cut < ETH_HEADER_LEN) {
                ck_assert(problems & FLOW_EXTRACT_SHORT_L2);
                ck_assert(q->l3_ofs == DP_PACKET_OFS_NONE);
            }
            /* Offsets always lie inside the frame. */
            uint16_t ofs[] = { q->l2_5_ofs, q->l3_ofs, q->l4_ofs,
                               q->payload_ofs };
            for (size_t k = 0; k < 4; k++) {
                ck_assert(ofs[k] == DP_PACKET_OFS_NONE || ofs[k] <= cut);
            }
            /* A layer is in the flow only if it was complete, and then it
             * agrees with the whole packet's. */
            if (q->l4_ofs == DP_PACKET_OFS_NONE) {
                ck_assert_msg(!f.tp_src && !f.tp_dst,
                              "sample %zu cut %zu: ports without L4", i, cut);
            } else {
                ck_assert(f.tp_src == flows[i].tp_src
                          && f.tp_dst == flows[i].tp_dst);
            }
            if (q->l3_ofs != DP_PACKET_OFS_NONE) {
                ck_assert(f.nw_src == flows[i].nw_src
                          && f.nw_dst == flows[i].nw_dst
                          && !memcmp(&f.ipv6_src, &flows[i].ipv6_src, 16)
                          && f.nw_ttl == flows[i].nw_ttl);
            } else {
                ck_assert(!f.nw_src && !f.nw_ttl && !f.nw_proto);
            }
            if (cut == len) {
                ck_assert_uint_eq(problems, 0);
                ck_assert(flow_equal(&f, &flows[i]));
            }
            exact_packet_free(q);
        }
        dp_packet_delete(p);
    }
}
END_TEST

static size_t
build(uint8_t *buf, const struct flow *flow, size_t l7_len)
{
    struct dp_packet *p = dp_packet_new(0);
    flow_compose(p, flow, l7_len);
    size_t len = dp_packet_size(p);
    memcpy(buf, dp_packet_data(p), len);
    dp_packet_delete(p);
    return len;
}

START_TEST(test_ipv4_bad_header_lengths)
{
    struct flow flow, f;
    uint8_t buf[256];
    ipv4_flow(&flow, IPPROTO_TCP);
    flow.tp_src = htons(1);
    flow.tp_dst = htons(2);
    size_t len = build(buf, &flow, 10);
    struct ip_header *ip = (struct ip_header *) (buf + ETH_HEADER_LEN);
    unsigned long long before = coverage_read_counter("flow_extract_bad_ipv4");

    /* IHL below 5. */
    ip->ip_ihl_ver = 0x44;
    ck_assert(extract_bytes(buf, len, &f) & FLOW_EXTRACT_BAD_L3);
    ck_assert(f.dl_type == htons(ETH_TYPE_IP));
    ck_assert(!f.nw_src && !f.nw_proto && !f.tp_src);

    /* IHL past the frame. */
    ip->ip_ihl_ver = 0x4f;
    ck_assert(extract_bytes(buf, ETH_HEADER_LEN + 40, &f)
              & FLOW_EXTRACT_BAD_L3);
    ck_assert(!f.nw_src);

    /* Total length longer than the frame. */
    ip->ip_ihl_ver = 0x45;
    ovs_be16 good_len = ip->ip_tot_len;
    ip->ip_tot_len = htons(ntohs(good_len) + 1);
    ck_assert(extract_bytes(buf, len, &f) & FLOW_EXTRACT_BAD_L3);

    /* Total length shorter than the header. */
    ip->ip_tot_len = htons(19);
    ck_assert(extract_bytes(buf, len, &f) & FLOW_EXTRACT_BAD_L3);

    /* Total length cutting into TCP: L3 valid, L4 truncated. */
    ip->ip_tot_len = htons(IP_HEADER_LEN + 12);
    unsigned int problems = extract_bytes(buf, len, &f);
    ck_assert_uint_eq(problems, FLOW_EXTRACT_BAD_L4);
    ck_assert(f.nw_src == flow.nw_src && f.nw_proto == IPPROTO_TCP);
    ck_assert(!f.tp_src && !f.tp_dst);

    /* Not version 4. */
    ip->ip_tot_len = good_len;
    ip->ip_ihl_ver = 0x65;
    ck_assert(extract_bytes(buf, len, &f) & FLOW_EXTRACT_BAD_L3);

    ck_assert_uint_eq(coverage_read_counter("flow_extract_bad_ipv4"),
                      before + 5);
}
END_TEST

START_TEST(test_ipv4_options_and_padding)
{
    struct flow flow, f;
    uint8_t buf[256];
    ipv4_flow(&flow, IPPROTO_UDP);
    flow.tp_src = htons(7);
    flow.tp_dst = htons(9);
    size_t len = build(buf, &flow, 4);

    /* Insert 8 bytes of options (two NOPs... and an end-of-list). */
    uint8_t opt[256];
    size_t l3 = ETH_HEADER_LEN;
    memcpy(opt, buf, l3 + IP_HEADER_LEN);
    memset(opt + l3 + IP_HEADER_LEN, 1, 7);
    opt[l3 + IP_HEADER_LEN + 7] = 0;
    memcpy(opt + l3 + IP_HEADER_LEN + 8, buf + l3 + IP_HEADER_LEN,
           len - l3 - IP_HEADER_LEN);
    struct ip_header *ip = (struct ip_header *) (opt + l3);
    ip->ip_ihl_ver = 0x47;
    ip->ip_tot_len = htons(ntohs(ip->ip_tot_len) + 8);
    size_t olen = len + 8;
    /* Ethernet padding after the datagram is not L4. */
    memset(opt + olen, 0xaa, 20);

    struct dp_packet *p = exact_packet(opt, olen + 20);
    ck_assert_uint_eq(flow_extract(p, &f), 0);
    ck_assert(f.tp_src == htons(7) && f.tp_dst == htons(9));
    ck_assert_uint_eq(p->l3_ofs, ETH_HEADER_LEN);
    ck_assert_uint_eq(p->l4_ofs, ETH_HEADER_LEN + 28);
    ck_assert_uint_eq(p->payload_ofs, ETH_HEADER_LEN + 36);
    exact_packet_free(p);
}
END_TEST

START_TEST(test_tcp_bad_data_offset)
{
    struct flow flow, f;
    uint8_t buf[256];
    ipv4_flow(&flow, IPPROTO_TCP);
    flow.tp_src = htons(5);
    size_t len = build(buf, &flow, 0);
    struct tcp_header *tcp
        = (struct tcp_header *) (buf + ETH_HEADER_LEN + IP_HEADER_LEN);

    tcp->tcp_ctl = htons((4 << 12) | TCP_SYN);        /* Below 5. */
    ck_assert(extract_bytes(buf, len, &f) & FLOW_EXTRACT_BAD_L4);
    ck_assert(!f.tp_src && !f.tcp_flags && f.nw_proto == IPPROTO_TCP);

    tcp->tcp_ctl = htons((15 << 12) | TCP_SYN);       /* 60 > 20. */
    ck_assert(extract_bytes(buf, len, &f) & FLOW_EXTRACT_BAD_L4);
    ck_assert(!f.tp_src);

    /* Flags above the low 12 bits (the data offset) stay out. */
    tcp->tcp_ctl = htons((5 << 12) | 0xfff);
    ck_assert_uint_eq(extract_bytes(buf, len, &f), 0);
    ck_assert_uint_eq(ntohs(f.tcp_flags), 0xfff);
}
END_TEST

START_TEST(test_ipv6_lying_payload_length)
{
    struct flow flow, f;
    uint8_t buf[256];
    ipv6_flow(&flow, IPPROTO_UDP);
    flow.tp_src = htons(1);
    size_t len = build(buf, &flow, 8);
    struct ipv6_header *ip6 = (struct ipv6_header *) (buf + ETH_HEADER_LEN);

    ip6->ip6_plen = htons(ntohs(ip6->ip6_plen) + 1);
    ck_assert(extract_bytes(buf, len, &f) & FLOW_EXTRACT_BAD_L3);
    ck_assert(f.dl_type == htons(ETH_TYPE_IPV6));
    ck_assert(ipv6_addr_is_zero(&f.ipv6_src) && !f.nw_proto);

    /* A short payload length cuts UDP. */
    ip6->ip6_plen = htons(4);
    ck_assert(extract_bytes(buf, len, &f) & FLOW_EXTRACT_BAD_L4);
    ck_assert(!memcmp(&f.ipv6_src, &flow.ipv6_src, 16) && !f.tp_src);
}
END_TEST

/* Hop-by-hop, routing, destination options and a first fragment before
 * TCP: all walked; a truncated one stops the walk. */
START_TEST(test_ipv6_extension_headers)
{
    uint8_t buf[256];
    struct flow flow, f;
    ipv6_flow(&flow, IPPROTO_TCP);
    flow.tp_src = htons(80);
    flow.tp_dst = htons(81);
    size_t len = build(buf, &flow, 0);
    size_t l3 = ETH_HEADER_LEN, l4 = l3 + IPV6_HEADER_LEN;

    uint8_t pkt[512];
    memcpy(pkt, buf, l4);
    size_t o = l4;
    /* Hop-by-hop, 8 bytes, next routing. */
    uint8_t hbh[8] = { IPPROTO_ROUTING_, 0, 1, 4, 0, 0, 0, 0 };
    memcpy(pkt + o, hbh, 8); o += 8;
    /* Routing, 24 bytes (len 2), next dest opts. */
    uint8_t rt[24] = { IPPROTO_DSTOPTS_, 2 };
    memcpy(pkt + o, rt, 24); o += 24;
    /* Destination options, 8 bytes, next fragment. */
    uint8_t dst[8] = { IPPROTO_FRAGMENT_, 0, 1, 4 };
    memcpy(pkt + o, dst, 8); o += 8;
    /* Fragment header, first fragment (M set), next TCP. */
    uint8_t fr[8] = { IPPROTO_TCP, 0, 0x00, 0x01, 0, 0, 0, 9 };
    memcpy(pkt + o, fr, 8); o += 8;
    memcpy(pkt + o, buf + l4, len - l4); o += len - l4;
    struct ipv6_header *ip6 = (struct ipv6_header *) (pkt + l3);
    ip6->ip6_nxt = IPPROTO_HOPOPTS_;
    ip6->ip6_plen = htons(o - l4);

    struct dp_packet *p = exact_packet(pkt, o);
    ck_assert_uint_eq(flow_extract(p, &f), 0);
    ck_assert_uint_eq(f.nw_proto, IPPROTO_TCP);
    ck_assert_uint_eq(f.nw_frag, FLOW_NW_FRAG_ANY);
    ck_assert(f.tp_src == htons(80) && f.tp_dst == htons(81));
    ck_assert_uint_eq(p->l4_ofs, l4 + 48);
    exact_packet_free(p);

    /* A later fragment: no L4, proto from the fragment header. */
    pkt[l4 + 40 + 2] = 0x01;
    p = exact_packet(pkt, o);
    ck_assert_uint_eq(flow_extract(p, &f), 0);
    ck_assert_uint_eq(f.nw_frag, FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER);
    ck_assert_uint_eq(f.nw_proto, IPPROTO_TCP);
    ck_assert(!f.tp_src && p->l4_ofs == DP_PACKET_OFS_NONE);
    exact_packet_free(p);

    /* Routing header claims more bytes than the payload has. */
    pkt[l4 + 8 + 1] = 200;
    ck_assert(extract_bytes(pkt, o, &f) & FLOW_EXTRACT_BAD_IPV6_EXT);
    ck_assert(!f.tp_src);
    /* Only the addresses are kept, as 3.1 keeps them. */
    ck_assert(!memcmp(&f.ipv6_dst, &flow.ipv6_dst, sizeof f.ipv6_dst));
    ck_assert(!f.nw_proto && !f.nw_ttl && !f.nw_tos && !f.nw_frag);
}
END_TEST

START_TEST(test_nd_options)
{
    struct flow flow, f;
    uint8_t buf[256];
    ipv6_flow(&flow, IPPROTO_ICMPV6);
    flow.tp_src = htons(ND_NEIGHBOR_SOLICIT);
    flow.nd_target = ip6("2001:db8::7");
    flow.arp_sha = mac(9);
    size_t len = build(buf, &flow, 0);
    ck_assert_uint_eq(extract_bytes(buf, len, &f), 0);
    ck_assert(eth_addr_equals(f.arp_sha, mac(9)));

    /* An option with length 0 is malformed: ND fields all zero. */
    size_t opt = len - 8;
    buf[opt + 1] = 0;
    ck_assert(extract_bytes(buf, len, &f) & FLOW_EXTRACT_BAD_ND);
    ck_assert(ipv6_addr_is_zero(&f.nd_target) && eth_addr_is_zero(f.arp_sha));
    ck_assert_uint_eq(ntohs(f.tp_src), ND_NEIGHBOR_SOLICIT);

    /* A TLL in a solicitation is ignored, not an error. */
    buf[opt] = ND_OPT_TARGET_LINKADDR;
    buf[opt + 1] = 1;
    ck_assert_uint_eq(extract_bytes(buf, len, &f), 0);
    ck_assert(eth_addr_is_zero(f.arp_sha) && eth_addr_is_zero(f.arp_tha));
    ck_assert(!memcmp(&f.nd_target, &flow.nd_target, 16));

    /* Code 1: not ND at all. */
    buf[ETH_HEADER_LEN + IPV6_HEADER_LEN + 1] = 1;
    ck_assert_uint_eq(extract_bytes(buf, len, &f), 0);
    ck_assert(ipv6_addr_is_zero(&f.nd_target));
    ck_assert_uint_eq(ntohs(f.tp_dst), 1);
}
END_TEST

START_TEST(test_arp_facts)
{
    struct flow flow, f;
    uint8_t buf[256];
    base_flow(&flow, ETH_TYPE_ARP);
    flow.nw_proto = 1;
    flow.nw_src = ip4("1.2.3.4");
    size_t len = build(buf, &flow, 0);
    struct arp_eth_header *arp
        = (struct arp_eth_header *) (buf + ETH_HEADER_LEN);

    /* An opcode above 255 leaves nw_proto zero. */
    arp->ar_op = htons(0x101);
    ck_assert_uint_eq(extract_bytes(buf, len, &f), 0);
    ck_assert_uint_eq(f.nw_proto, 0);
    ck_assert(f.nw_src == flow.nw_src);

    /* Not IPv4 over Ethernet: no fields. */
    arp->ar_op = htons(1);
    arp->ar_pln = 16;
    ck_assert_uint_eq(extract_bytes(buf, len, &f), 0);
    ck_assert(!f.nw_src && !f.nw_proto);

    /* Truncated. */
    ck_assert(extract_bytes(buf, ETH_HEADER_LEN + 27, &f)
              & FLOW_EXTRACT_BAD_L3);
}
END_TEST

START_TEST(test_vlans_and_llc)
{
    struct flow flow, f;
    uint8_t buf[256];
    ipv4_flow(&flow, IPPROTO_UDP);
    flow.vlans[0].tpid = htons(ETH_TYPE_VLAN_8021AD);
    flow.vlans[0].tci = htons(VLAN_CFI | 10);
    flow.vlans[1].tpid = htons(ETH_TYPE_VLAN_8021Q);
    flow.vlans[1].tci = htons(VLAN_CFI | 20);
    size_t len = build(buf, &flow, 0);
    struct dp_packet *p = exact_packet(buf, len);
    ck_assert_uint_eq(flow_extract(p, &f), 0);
    ck_assert_uint_eq(p->l2_5_ofs, 12);
    ck_assert_uint_eq(p->l3_ofs, 22);
    exact_packet_free(p);

    /* A third tag: its TPID is the flow's type, no L3. */
    uint8_t three[300];
    memcpy(three, buf, 20);
    memcpy(three + 20, "\x81\x00\x00\x1e", 4);
    memcpy(three + 24, buf + 20, len - 20);
    ck_assert_uint_eq(extract_bytes(three, len + 4, &f), 0);
    ck_assert(f.dl_type == htons(ETH_TYPE_VLAN_8021Q));
    ck_assert(flow_vlan_vid(&f.vlans[1]) == 20 && !f.nw_src);

    /* The CFI/DEI bit on the wire does not leak into the flow. */
    buf[14] |= 0x10;
    ck_assert_uint_eq(extract_bytes(buf, len, &f), 0);
    ck_assert_uint_eq(ntohs(f.vlans[0].tci), VLAN_CFI | 10);

    /* 802.3 + LLC + SNAP carrying IPv4. */
    uint8_t snap[] = {
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0x00, 0x30,
        0xaa, 0xaa, 0x03, 0, 0, 0, 0x08, 0x00,
    };
    ck_assert(extract_bytes(snap, sizeof snap, &f) & FLOW_EXTRACT_BAD_L3);
    ck_assert(f.dl_type == htons(ETH_TYPE_IP));
    /* Non-SNAP LLC. */
    snap[14] = 0x42;
    ck_assert_uint_eq(extract_bytes(snap, sizeof snap, &f), 0);
    ck_assert(f.dl_type == htons(FLOW_DL_TYPE_NONE));
}
END_TEST

START_TEST(test_metadata_and_hash)
{
    struct flow flow, f;
    ipv4_flow(&flow, IPPROTO_TCP);
    flow.tp_src = htons(1);
    flow.in_port = 9;
    flow.pkt_mark = 0x77;
    flow.skb_priority = 3;
    flow.recirc_id = 4;
    flow.tunnel.tun_id = htonll(5);
    struct dp_packet *p = dp_packet_new(0);
    flow_compose(p, &flow, 0);
    ck_assert_uint_eq(p->md.in_port, 9);
    ck_assert_uint_eq(flow_extract(p, &f), 0);
    ck_assert(flow_equal(&f, &flow));
    uint32_t h = dp_packet_flow_hash(p, &f);
    ck_assert(dp_packet_hash_valid(p));
    ck_assert_uint_eq(h, flow_hash_5tuple(&f, 0));
    /* A different port hashes differently (with overwhelming odds). */
    struct flow g = f;
    g.tp_src = htons(2);
    ck_assert_uint_ne(flow_hash_5tuple(&g, 0), h);
    dp_packet_delete(p);
}
END_TEST

/* A packet without Ethernet header: its metadata's packet_type says what
 * it starts with.  An Ethertype type gives dl_type and L3 starts at byte
 * 0; another namespace leaves the packet unparsed. */
START_TEST(test_l3_packet_type)
{
    struct flow flow, f;
    ipv4_flow(&flow, IPPROTO_UDP);
    flow.tp_src = htons(100);
    flow.tp_dst = htons(200);
    struct dp_packet *eth = dp_packet_new(0);
    flow_compose(eth, &flow, 4);
    const uint8_t *l3 = dp_packet_l3(eth);
    size_t l3_len = dp_packet_size(eth) - ETH_HEADER_LEN;

    struct dp_packet *p = exact_packet(l3, l3_len);
    p->md.packet_type = htonl(PT_IPV4);
    p->md.in_port = 3;
    ck_assert_uint_eq(flow_extract(p, &f), 0);
    ck_assert(f.packet_type == htonl(PT_IPV4));
    ck_assert(f.dl_type == htons(ETH_TYPE_IP));
    ck_assert(eth_addr_is_zero(f.dl_src) && eth_addr_is_zero(f.dl_dst));
    ck_assert(!f.vlans[0].tci);
    ck_assert_uint_eq(f.in_port, 3);
    ck_assert(f.nw_src == flow.nw_src && f.nw_dst == flow.nw_dst);
    ck_assert_uint_eq(f.nw_proto, IPPROTO_UDP);
    ck_assert_uint_eq(f.nw_ttl, 64);
    ck_assert(f.tp_src == htons(100) && f.tp_dst == htons(200));
    ck_assert_uint_eq(p->l3_ofs, 0);
    ck_assert_uint_eq(p->l4_ofs, 20);
    ck_assert(p->l2_5_ofs == DP_PACKET_OFS_NONE);

    /* Every prefix is safe. */
    for (size_t n = 0; n < l3_len; n++) {
        struct dp_packet *q = exact_packet(l3, n);
        q->md.packet_type = htonl(PT_IPV4);
        flow_extract(q, &f);
        ck_assert(f.packet_type == htonl(PT_IPV4));
        exact_packet_free(q);
    }
    exact_packet_free(p);

    /* Not an Ethertype: nothing past the metadata. */
    p = exact_packet(l3, l3_len);
    p->md.packet_type = htonl(PACKET_TYPE(PT_NS_ONF, 0x894f));
    ck_assert_uint_eq(flow_extract(p, &f), 0);
    ck_assert(!f.dl_type && !f.nw_proto && !f.nw_src);
    ck_assert(p->l3_ofs == DP_PACKET_OFS_NONE);
    exact_packet_free(p);
    dp_packet_delete(eth);
}
END_TEST

/* Composed checksums verify: IPv4 header, TCP/UDP/ICMPv6 over the pseudo
 * header, SCTP's CRC32c. */
START_TEST(test_composed_checksums)
{
    struct flow flows[32];
    size_t n = sample_flows(flows, 32);
    for (size_t i = 0; i < n; i++) {
        struct dp_packet *p = dp_packet_new(0);
        flow_compose(p, &flows[i], 33);
        struct flow f;
        flow_extract(p, &f);
        uint8_t *l3 = dp_packet_l3(p), *l4 = dp_packet_l4(p);
        size_t l4_len = dp_packet_l4_size(p);
        if (f.dl_type == htons(ETH_TYPE_IP)) {
            ck_assert_uint_eq(csum(l3, IP_HEADER_LEN), 0);
            struct ip_header *ip = (struct ip_header *) l3;
            uint32_t ph = csum_pseudo_ipv4(ip->ip_src, ip->ip_dst,
                                           f.nw_proto, l4_len);
            if (l4 && (f.nw_proto == IPPROTO_TCP
                       || f.nw_proto == IPPROTO_UDP)) {
                ck_assert_uint_eq(csum_finish(csum_continue(ph, l4, l4_len)),
                                  0);
            } else if (l4 && f.nw_proto == IPPROTO_ICMP) {
                ck_assert_uint_eq(csum(l4, l4_len), 0);
            }
        } else if (f.dl_type == htons(ETH_TYPE_IPV6) && l4) {
            uint32_t ph = csum_pseudo_ipv6(&f.ipv6_src, &f.ipv6_dst,
                                           f.nw_proto, l4_len);
            if (f.nw_proto != IPPROTO_SCTP) {
                ck_assert_uint_eq(csum_finish(csum_continue(ph, l4, l4_len)),
                                  0);
            }
        }
        if (l4 && f.nw_proto == IPPROTO_SCTP) {
            struct sctp_header *sctp = (struct sctp_header *) l4;
            ovs_be32 stored = sctp->sctp_csum;
            sctp->sctp_csum = 0;
            ck_assert_uint_eq(crc32c(l4, l4_len), stored);
        }
        dp_packet_delete(p);
    }
    /* RFC 3720 B.4: 32 bytes of zeros have CRC32c 0x8a9136aa (stored
     * little-endian). */
    uint8_t zeros[32] = { 0 };
    ovs_be32 c = crc32c(zeros, 32);
    uint8_t *b = (uint8_t *) &c;
    ck_assert(b[0] == 0xaa && b[1] == 0x36 && b[2] == 0x91 && b[3] == 0x8a);
}
END_TEST

/* Parsed flows through the compact forms the fast path uses: a megaflow
 * mask that keeps only the 5-tuple matches every packet of the flow, and
 * its minimask hash is the same for all of them. */
START_TEST(test_parsed_flows_in_miniflows_and_masks)
{
    struct flow flows[32];
    size_t n = sample_flows(flows, 32);
    struct flow_wildcards wc;
    flow_wildcards_init_catchall(&wc);
    WC_MASK_FIELD(&wc, dl_type);
    WC_MASK_FIELD(&wc, nw_src);
    WC_MASK_FIELD(&wc, nw_dst);
    WC_MASK_FIELD(&wc, nw_proto);
    WC_MASK_FIELD(&wc, tp_src);
    WC_MASK_FIELD(&wc, tp_dst);
    struct miniflow *mask = miniflow_create(&wc.masks);

    for (size_t i = 0; i < n; i++) {
        struct dp_packet *p = dp_packet_new(0);
        flow_compose(p, &flows[i], 5);
        struct flow a, b;
        flow_extract(p, &a);
        struct miniflow *mf = miniflow_create(&a);
        miniflow_expand(mf, &b);
        ck_assert(flow_equal(&a, &b));

        struct miniflow *match = miniflow_create_masked(&a, &wc);
        /* Same 5-tuple, different MACs and TTL: still a hit. */
        struct flow other = flows[i];
        other.dl_src = mac(0x99);
        other.nw_ttl = 3;
        other.in_port = 77;
        flow_compose(p, &other, 50);
        flow_extract(p, &b);
        ck_assert(flow_equal_in_minimask(&b, mask, match));
        ck_assert_uint_eq(flow_hash_in_minimask(&a, mask, 1),
                          flow_hash_in_minimask(&b, mask, 1));
        /* A different destination port (where the flow has ports): miss. */
        if (a.tp_dst || a.tp_src) {
            other.tp_dst = htons(ntohs(other.tp_dst) + 1);
            flow_compose(p, &other, 50);
            flow_extract(p, &b);
            ck_assert(!flow_equal_in_minimask(&b, mask, match));
        }
        free(match);
        free(mf);
        dp_packet_delete(p);
    }
    free(mask);
}
END_TEST

static Suite *
flow_extract_suite(void)
{
    Suite *s = suite_create("flow-extract");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_compose_extract_round_trip);
    tcase_add_test(tc, test_every_truncation_is_safe);
    tcase_add_test(tc, test_ipv4_bad_header_lengths);
    tcase_add_test(tc, test_ipv4_options_and_padding);
    tcase_add_test(tc, test_tcp_bad_data_offset);
    tcase_add_test(tc, test_ipv6_lying_payload_length);
    tcase_add_test(tc, test_ipv6_extension_headers);
    tcase_add_test(tc, test_nd_options);
    tcase_add_test(tc, test_arp_facts);
    tcase_add_test(tc, test_vlans_and_llc);
    tcase_add_test(tc, test_metadata_and_hash);
    tcase_add_test(tc, test_l3_packet_type);
    tcase_add_test(tc, test_composed_checksums);
    tcase_add_test(tc, test_parsed_flows_in_miniflows_and_masks);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(flow_extract_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
