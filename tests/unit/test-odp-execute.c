/* Unit tests for odp-execute.h.  The oracle for every header change is
 * flow_compose(): executing set(ipv4(src=X)) on the packet composed from
 * flow F must give, byte for byte, the packet composed from F with
 * nw_src = X, checksums included (compose computes them from scratch; the
 * executor updates them incrementally). */
#include <config.h>
#include "odp-execute.h"

#include <arpa/inet.h>
#include <check.h>
#include <linux/openvswitch.h>
#include <stdlib.h>
#include <string.h>
#include "coverage.h"
#include "dp-packet.h"
#include "dynamic-string.h"
#include "flow-extract.h"
#include "flow.h"
#include "hash.h"
#include "netlink.h"
#include "odp-util.h"
#include "ofpbuf.h"
#include "packets.h"

/* What the datapath callback saw. */
#define MAX_OUTPUTS 64
struct outputs {
    size_t n;
    struct {
        uint32_t port;
        bool stolen;
        struct dp_packet *packet;   /* A copy. */
    } out[MAX_OUTPUTS];
};

static void
record_output(void *aux, struct dp_packet_batch *batch,
              const struct nlattr *action, bool should_steal,
              const struct odp_execute_rest *rest OVS_UNUSED)
{
    struct outputs *o = aux;
    ck_assert_uint_eq(nl_attr_type(action), OVS_ACTION_ATTR_OUTPUT);
    struct dp_packet *p;
    DP_PACKET_BATCH_FOR_EACH (i, p, batch) {
        ck_assert_uint_lt(o->n, MAX_OUTPUTS);
        o->out[o->n].port = nl_attr_get_u32(action);
        o->out[o->n].stolen = should_steal;
        o->out[o->n].packet = dp_packet_clone(p);
        o->n++;
    }
    if (should_steal) {
        dp_packet_batch_delete(batch);
    }
}

static void
outputs_clear(struct outputs *o)
{
    for (size_t i = 0; i < o->n; i++) {
        dp_packet_delete(o->out[i].packet);
    }
    o->n = 0;
}

static void
parse_actions(const char *s, struct ofpbuf *acts)
{
    ofpbuf_init(acts, 64);
    char *error = odp_actions_from_string(s, NULL, acts);
    ck_assert_msg(!error, "%s: %s", s, error);
    ck_assert(odp_actions_validate(acts->data, acts->size, NULL));
}

static struct dp_packet *
compose(const struct flow *flow)
{
    struct dp_packet *p = dp_packet_new(0);
    flow_compose(p, flow, 37);
    return p;
}

static void
assert_same_bytes(const struct dp_packet *a, const struct dp_packet *b,
                  const char *what)
{
    if (dp_packet_size(a) != dp_packet_size(b)
        || memcmp(dp_packet_data(a), dp_packet_data(b), dp_packet_size(a))) {
        struct ds s = DS_EMPTY_INITIALIZER;
        ds_put_format(&s, "%s:\n got  ", what);
        dp_packet_format_hex(&s, a);
        ds_put_cstr(&s, "\n want ");
        dp_packet_format_hex(&s, b);
        ck_abort_msg("%s", ds_cstr(&s));
    }
}

/* Runs ACTIONS (no datapath actions expected) on the packet of FROM and
 * checks it became the packet of TO. */
static void
check_transform(const struct flow *from, const char *actions,
                const struct flow *to)
{
    struct ofpbuf acts;
    parse_actions(actions, &acts);
    struct dp_packet *p = compose(from);
    struct dp_packet_batch batch;
    dp_packet_batch_init_packet(&batch, p);
    odp_execute_actions(NULL, &batch, false, acts.data, acts.size, NULL);
    struct dp_packet *want = compose(to);
    assert_same_bytes(p, want, actions);
    /* The offsets still name the headers. */
    struct flow f;
    struct dp_packet *again = dp_packet_clone(p);
    flow_extract(again, &f);
    ck_assert_uint_eq(again->l3_ofs, p->l3_ofs);
    ck_assert_uint_eq(again->l4_ofs, p->l4_ofs);
    ck_assert_uint_eq(again->l2_5_ofs, p->l2_5_ofs);
    dp_packet_delete(again);
    dp_packet_delete(want);
    dp_packet_delete(p);
    ofpbuf_uninit(&acts);
}

static void
ipv4_flow(struct flow *f, uint8_t proto)
{
    memset(f, 0, sizeof *f);
    f->dl_src = (struct eth_addr) { { 0, 1, 2, 3, 4, 5 } };
    f->dl_dst = (struct eth_addr) { { 0, 1, 2, 3, 4, 6 } };
    f->dl_type = htons(ETH_TYPE_IP);
    f->nw_src = htonl(0x0a000001);
    f->nw_dst = htonl(0x0a000002);
    f->nw_proto = proto;
    f->nw_ttl = 64;
    f->nw_tos = 0x10;
    f->tp_src = htons(1234);
    f->tp_dst = htons(80);
}

static void
ipv6_flow(struct flow *f, uint8_t proto)
{
    memset(f, 0, sizeof *f);
    f->dl_src = (struct eth_addr) { { 0, 1, 2, 3, 4, 5 } };
    f->dl_dst = (struct eth_addr) { { 0, 1, 2, 3, 4, 6 } };
    f->dl_type = htons(ETH_TYPE_IPV6);
    inet_pton(AF_INET6, "2001:db8::1", &f->ipv6_src);
    inet_pton(AF_INET6, "2001:db8::2", &f->ipv6_dst);
    f->ipv6_label = htonl(0x54321);
    f->nw_proto = proto;
    f->nw_ttl = 64;
    f->tp_src = htons(1234);
    f->tp_dst = htons(80);
}

START_TEST(test_set_ipv4_fixes_checksums)
{
    uint8_t protos[] = { IPPROTO_TCP, IPPROTO_UDP, IPPROTO_SCTP,
                         IPPROTO_ICMP };
    for (size_t i = 0; i < ARRAY_SIZE(protos); i++) {
        struct flow a, b;
        ipv4_flow(&a, protos[i]);
        if (protos[i] == IPPROTO_ICMP) {
            a.tp_src = htons(8);
            a.tp_dst = 0;
        }
        b = a;
        b.nw_src = htonl(0xc0a80101);
        b.nw_dst = htonl(0xc0a80202);
        b.nw_ttl = 7;
        b.nw_tos = 0xb8;
        check_transform(&a, "set(ipv4(src=192.168.1.1,dst=192.168.2.2,"
                        "proto=6,tos=0xb8,ttl=7,frag=no))", &b);
        /* Masked: only the masked bits change. */
        b = a;
        b.nw_src = htonl(0x0a0000fe);
        b.nw_ttl = 63;
        check_transform(&a, "set(ipv4(src=9.9.9.254/0.0.0.255,ttl=63))",
                        &b);
    }
}
END_TEST

START_TEST(test_set_ports)
{
    static const struct {
        uint8_t proto;
        const char *actions;
    } cases[] = {
        { IPPROTO_TCP, "set(tcp(src=5555,dst=443))" },
        { IPPROTO_UDP, "set(udp(src=5555,dst=443))" },
        { IPPROTO_SCTP, "set(sctp(src=5555,dst=443))" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        struct flow a, b;
        ipv4_flow(&a, cases[i].proto);
        b = a;
        b.tp_src = htons(5555);
        b.tp_dst = htons(443);
        check_transform(&a, cases[i].actions, &b);
        ipv6_flow(&a, cases[i].proto);
        b = a;
        b.tp_src = htons(5555);
        b.tp_dst = htons(443);
        check_transform(&a, cases[i].actions, &b);
    }
    /* Masked: the low byte of the destination port only. */
    struct flow a, b;
    ipv4_flow(&a, IPPROTO_TCP);
    b = a;
    b.tp_dst = htons(0x0011);
    check_transform(&a, "set(tcp(dst=0x1111/0xff))", &b);
    /* The wrong protocol: nothing happens. */
    check_transform(&a, "set(udp(dst=1))", &a);
}
END_TEST

START_TEST(test_set_ipv6)
{
    uint8_t protos[] = { IPPROTO_TCP, IPPROTO_UDP, IPPROTO_ICMPV6,
                         IPPROTO_SCTP };
    for (size_t i = 0; i < ARRAY_SIZE(protos); i++) {
        struct flow a, b;
        ipv6_flow(&a, protos[i]);
        if (protos[i] == IPPROTO_ICMPV6) {
            a.tp_src = htons(128);
            a.tp_dst = 0;
        }
        b = a;
        inet_pton(AF_INET6, "fe80::99", &b.ipv6_src);
        inet_pton(AF_INET6, "2001:db8:ffff::7", &b.ipv6_dst);
        b.ipv6_label = htonl(0xabcde);
        b.nw_tos = 0x28;
        b.nw_ttl = 3;
        check_transform(&a, "set(ipv6(src=fe80::99,dst=2001:db8:ffff::7,"
                        "label=0xabcde,proto=6,tclass=0x28,hlimit=3,"
                        "frag=no))", &b);
        b = a;
        b.nw_ttl = 1;
        check_transform(&a, "set(ipv6(hlimit=1))", &b);
    }
    /* Through an IPv6 first fragment: the addresses change and the TCP
     * checksum follows. */
    struct flow a, b;
    ipv6_flow(&a, IPPROTO_TCP);
    a.nw_frag = FLOW_NW_FRAG_ANY;
    b = a;
    inet_pton(AF_INET6, "::5", &b.ipv6_dst);
    check_transform(&a, "set(ipv6(dst=::5))", &b);
}
END_TEST

/* ARP fields, ICMP type and code, and a neighbour discovery message's
 * target and link-layer address: what 3.1 slow-paths, this executor
 * makes, checksums included. */
START_TEST(test_set_arp_icmp_nd)
{
    struct flow a, b;
    memset(&a, 0, sizeof a);
    a.dl_type = htons(ETH_TYPE_ARP);
    a.nw_proto = 1;
    a.nw_src = htonl(0x0a000001);
    a.nw_dst = htonl(0x0a000002);
    a.arp_sha = (struct eth_addr) { { 0, 1, 2, 3, 4, 5 } };
    b = a;
    b.nw_proto = 2;
    b.nw_src = htonl(0xc0a88001);
    b.arp_tha = (struct eth_addr) { { 0x40, 0x44, 0x44, 0x44, 0x44, 0x41 } };
    check_transform(&a, "set(arp(sip=192.168.128.1,op=2,"
                    "tha=40:44:44:44:44:41))", &b);

    ipv4_flow(&a, IPPROTO_ICMP);
    a.tp_src = htons(8);
    a.tp_dst = 0;
    b = a;
    b.tp_src = htons(0);
    b.tp_dst = htons(3);
    check_transform(&a, "set(icmp(type=0,code=3))", &b);

    ipv6_flow(&a, IPPROTO_ICMPV6);
    a.tp_src = htons(ND_NEIGHBOR_SOLICIT);
    a.tp_dst = 0;
    inet_pton(AF_INET6, "fe80::2020", &a.nd_target);
    a.arp_sha = (struct eth_addr) { { 0x66, 0x55, 0x44, 0x33, 0x22, 0x11 } };
    b = a;
    inet_pton(AF_INET6, "fe80::4", &b.nd_target);
    b.arp_sha = (struct eth_addr) { { 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc } };
    check_transform(&a, "set(nd(target=fe80::4,sll=cc:cc:cc:cc:cc:cc))",
                    &b);
    /* A solicitation has no target link-layer option to rewrite. */
    check_transform(&a, "set(nd(tll=01:02:03:04:05:06))", &a);
}
END_TEST

START_TEST(test_set_eth_and_metadata)
{
    struct flow a, b;
    ipv4_flow(&a, IPPROTO_UDP);
    b = a;
    b.dl_src = (struct eth_addr) { { 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff } };
    b.dl_dst = (struct eth_addr) { { 0x02, 0, 0, 0, 0, 0x01 } };
    check_transform(&a, "set(eth(src=aa:bb:cc:dd:ee:ff,"
                    "dst=02:00:00:00:00:01))", &b);

    struct ofpbuf acts;
    parse_actions("set(skb_mark(0x5)),set(skb_priority(0x30/0xf0))", &acts);
    struct dp_packet *p = compose(&a);
    p->md.skb_priority = 0x12f4;
    struct dp_packet_batch batch;
    dp_packet_batch_init_packet(&batch, p);
    odp_execute_actions(NULL, &batch, false, acts.data, acts.size, NULL);
    ck_assert_uint_eq(p->md.pkt_mark, 5);
    ck_assert_uint_eq(p->md.skb_priority, 0x1234);
    dp_packet_delete(p);
    ofpbuf_uninit(&acts);
}
END_TEST

/* The hash action sets dp_hash and nothing else; L4 is 3.1's value (the
 * flow hash mixed with the basis), the basis matters, and sym_l4 is the
 * same for both directions of a connection. */
static uint32_t
run_hash(const struct flow *f, const char *actions)
{
    struct ofpbuf acts;
    parse_actions(actions, &acts);
    struct dp_packet *p = compose(f);
    struct dp_packet *orig = compose(f);
    struct dp_packet_batch batch;
    dp_packet_batch_init_packet(&batch, p);
    odp_execute_actions(NULL, &batch, false, acts.data, acts.size, NULL);
    assert_same_bytes(p, orig, actions);
    uint32_t h = p->md.dp_hash;
    dp_packet_delete(orig);
    dp_packet_delete(p);
    ofpbuf_uninit(&acts);
    return h;
}

START_TEST(test_hash)
{
    struct flow a, b;
    ipv4_flow(&a, IPPROTO_TCP);
    ck_assert_uint_eq(run_hash(&a, "hash(l4(0))"),
                      hash_int(flow_hash_5tuple(&a, 0), 0));
    ck_assert_uint_eq(run_hash(&a, "hash(l4(77))"),
                      hash_int(flow_hash_5tuple(&a, 0), 77));
    ck_assert_uint_ne(run_hash(&a, "hash(l4(0))"),
                      run_hash(&a, "hash(l4(1))"));

    /* Another destination port hashes elsewhere (with 256 ports, some of
     * the low bytes a bond uses differ). */
    b = a;
    bool differs = false;
    uint32_t h0 = run_hash(&a, "hash(l4(0))") & 0xff;
    for (int port = 0; port < 256 && !differs; port++) {
        b.tp_dst = htons(port);
        differs = (run_hash(&b, "hash(l4(0))") & 0xff) != h0;
    }
    ck_assert(differs);

    /* Symmetric: the reply hashes alike, another flow does not. */
    b = a;
    b.nw_src = a.nw_dst;
    b.nw_dst = a.nw_src;
    b.tp_src = a.tp_dst;
    b.tp_dst = a.tp_src;
    ck_assert_uint_eq(run_hash(&a, "hash(sym_l4(3))"),
                      run_hash(&b, "hash(sym_l4(3))"));
    b.tp_dst = htons(9);
    ck_assert_uint_ne(run_hash(&a, "hash(sym_l4(3))"),
                      run_hash(&b, "hash(sym_l4(3))"));
    ipv6_flow(&a, IPPROTO_UDP);
    b = a;
    b.ipv6_src = a.ipv6_dst;
    b.ipv6_dst = a.ipv6_src;
    ck_assert_uint_eq(run_hash(&a, "hash(sym_l4(0))"),
                      run_hash(&b, "hash(sym_l4(0))"));
}
END_TEST

START_TEST(test_push_pop_vlan)
{
    struct flow a, b, c;
    ipv4_flow(&a, IPPROTO_TCP);
    b = a;
    b.vlans[0].tpid = htons(ETH_TYPE_VLAN_8021Q);
    b.vlans[0].tci = htons(VLAN_CFI | (5 << VLAN_PCP_SHIFT) | 100);
    check_transform(&a, "push_vlan(vid=100,pcp=5)", &b);
    check_transform(&b, "pop_vlan", &a);

    /* A second, outer 802.1ad tag. */
    c = b;
    c.vlans[1] = b.vlans[0];
    c.vlans[0].tpid = htons(ETH_TYPE_VLAN_8021AD);
    c.vlans[0].tci = htons(VLAN_CFI | 7);
    check_transform(&b, "push_vlan(tpid=0x88a8,vid=7,pcp=0)", &c);
    check_transform(&c, "pop_vlan", &b);
    check_transform(&c, "pop_vlan,pop_vlan", &a);
    /* Popping an untagged packet does nothing. */
    check_transform(&a, "pop_vlan", &a);

    /* Set the outer VLAN's VID only, then its PCP. */
    struct flow d = c;
    d.vlans[0].tci = htons(VLAN_CFI | 999);
    check_transform(&c, "set(vlan(vid=999))", &d);
    d.vlans[0].tci = htons(VLAN_CFI | (6 << VLAN_PCP_SHIFT) | 999);
    check_transform(&c, "set(vlan(vid=999)),set(vlan(pcp=6))", &d);

    /* Push, then a set of L3 through the shifted offsets. */
    struct flow e = b;
    e.nw_ttl = 1;
    check_transform(&a, "push_vlan(vid=100,pcp=5),set(ipv4(ttl=1))", &e);
}
END_TEST

/* pop_eth leaves the IP packet (tags and all gone) of the frame's
 * Ethertype; push_eth puts an Ethernet header back. */
START_TEST(test_pop_push_eth)
{
    struct flow a;
    ipv4_flow(&a, IPPROTO_UDP);
    a.vlans[0].tpid = htons(ETH_TYPE_VLAN_8021Q);
    a.vlans[0].tci = htons(VLAN_CFI | 7);
    struct dp_packet *p = compose(&a);
    size_t frame_len = dp_packet_size(p);
    uint8_t *ip = xmemdup((const uint8_t *) dp_packet_data(p)
                          + ETH_HEADER_LEN + VLAN_HEADER_LEN,
                          frame_len - ETH_HEADER_LEN - VLAN_HEADER_LEN);

    struct ofpbuf acts;
    parse_actions("pop_eth", &acts);
    struct dp_packet_batch batch;
    dp_packet_batch_init_packet(&batch, p);
    odp_execute_actions(NULL, &batch, false, acts.data, acts.size, NULL);
    ofpbuf_uninit(&acts);
    ck_assert_uint_eq(ntohl(p->md.packet_type),
                      PACKET_TYPE(PT_NS_ETHERTYPE, ETH_TYPE_IP));
    ck_assert_uint_eq(dp_packet_size(p),
                      frame_len - ETH_HEADER_LEN - VLAN_HEADER_LEN);
    ck_assert(!memcmp(dp_packet_data(p), ip, dp_packet_size(p)));
    /* An L3 packet has no Ethernet header to pop. */
    parse_actions("pop_eth", &acts);
    odp_execute_actions(NULL, &batch, false, acts.data, acts.size, NULL);
    ofpbuf_uninit(&acts);
    ck_assert_uint_eq(dp_packet_size(p),
                      frame_len - ETH_HEADER_LEN - VLAN_HEADER_LEN);

    parse_actions("push_eth(src=00:00:00:00:00:01,dst=00:00:00:00:00:02)",
                  &acts);
    odp_execute_actions(NULL, &batch, false, acts.data, acts.size, NULL);
    ofpbuf_uninit(&acts);
    ck_assert_uint_eq(p->md.packet_type, htonl(PT_ETH));
    static const uint8_t eh[ETH_HEADER_LEN] = {
        0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 1, 0x08, 0x00 };
    ck_assert(!memcmp(dp_packet_data(p), eh, sizeof eh));
    ck_assert(!memcmp((const uint8_t *) dp_packet_data(p) + ETH_HEADER_LEN,
                      ip, dp_packet_size(p) - ETH_HEADER_LEN));
    struct flow f;
    flow_extract(p, &f);
    ck_assert_uint_eq(ntohs(f.dl_type), ETH_TYPE_IP);
    ck_assert_uint_eq(f.nw_src, a.nw_src);
    free(ip);
    dp_packet_delete(p);
}
END_TEST

/* A foreign packet without headroom: push moves it to the heap. */
START_TEST(test_push_vlan_without_headroom)
{
    struct flow a, b;
    ipv4_flow(&a, IPPROTO_UDP);
    b = a;
    b.vlans[0].tpid = htons(ETH_TYPE_VLAN_8021Q);
    b.vlans[0].tci = htons(VLAN_CFI | 1);
    struct dp_packet *composed = compose(&a);
    size_t len = dp_packet_size(composed);
    uint8_t *slot = xmalloc(len);
    memcpy(slot, dp_packet_data(composed), len);
    struct dp_packet p;
    dp_packet_use_foreign(&p, slot, len, 0, len);
    struct flow f;
    flow_extract(&p, &f);

    struct ofpbuf acts;
    parse_actions("push_vlan(vid=1,pcp=0)", &acts);
    struct dp_packet_batch batch;
    dp_packet_batch_init_packet(&batch, &p);
    odp_execute_actions(NULL, &batch, false, acts.data, acts.size, NULL);
    ck_assert(p.source == DPBUF_MALLOC);
    struct dp_packet *want = compose(&b);
    assert_same_bytes(&p, want, "push without headroom");
    /* The slot is untouched. */
    ck_assert(!memcmp(slot, dp_packet_data(composed), len));
    dp_packet_uninit(&p);
    free(slot);
    dp_packet_delete(want);
    dp_packet_delete(composed);
    ofpbuf_uninit(&acts);
}
END_TEST

/* A ct() stand-in with ipf's ownership (odp-execute.h): takes the batch's
 * first packet out (freeing it only when it is the executor's) and runs a
 * packet it makes, a copy of MADE, through the rest of the list. */
struct ct_outputs {
    struct outputs o;
    const struct dp_packet *made;
    struct dp_packet *taken;        /* The caller's packet taken out. */
    size_t n_ct;
};

static void
ct_and_output(void *aux, struct dp_packet_batch *batch,
              const struct nlattr *action, bool should_steal,
              const struct odp_execute_rest *rest)
{
    struct ct_outputs *c = aux;
    if (nl_attr_type(action) != OVS_ACTION_ATTR_CT) {
        ck_assert(!rest);
        record_output(&c->o, batch, action, should_steal, NULL);
        return;
    }
    ck_assert(rest);
    c->n_ct++;
    if (batch->count) {
        struct dp_packet *first = batch->packets[0];
        memmove(&batch->packets[0], &batch->packets[1],
                (batch->count - 1) * sizeof batch->packets[0]);
        batch->count--;
        if (should_steal) {
            dp_packet_delete(first);
        } else {
            c->taken = first;
        }
    }
    struct dp_packet_batch made;
    dp_packet_batch_init_packet(&made, dp_packet_clone(c->made));
    odp_execute_rest(rest, &made);
    ck_assert_uint_eq(made.count, 0);
}

/* ct(): packets taken out skip the rest, packets made go through it
 * stolen, the others go on as the list's; with and without steal. */
START_TEST(test_ct_rest)
{
    struct flow a, b;
    ipv4_flow(&a, IPPROTO_UDP);
    b = a;
    b.nw_ttl = 9;
    struct dp_packet *pb = compose(&b), *pa = compose(&a);
    struct ct_outputs c = { .made = pb };
    struct ofpbuf acts;
    parse_actions("ct(zone=1),1,2", &acts);

    /* Not stealing: the first packet stays the caller's, untouched. */
    struct dp_packet_batch batch;
    dp_packet_batch_init(&batch);
    struct dp_packet *p0 = compose(&a), *p1 = compose(&a);
    dp_packet_batch_add(&batch, p0);
    dp_packet_batch_add(&batch, p1);
    odp_execute_actions(&c, &batch, false, acts.data, acts.size,
                        ct_and_output);
    ck_assert_uint_eq(c.n_ct, 1);
    ck_assert_ptr_eq(c.taken, p0);
    ck_assert_uint_eq(batch.count, 1);
    ck_assert_ptr_eq(batch.packets[0], p1);
    /* The made packet first (ports 1, 2, the last stolen), then the
     * list's remaining packet (never stolen). */
    ck_assert_uint_eq(c.o.n, 4);
    ck_assert_uint_eq(c.o.out[0].port, 1);
    ck_assert(!c.o.out[0].stolen);
    assert_same_bytes(c.o.out[0].packet, pb, "made, port 1");
    ck_assert_uint_eq(c.o.out[1].port, 2);
    ck_assert(c.o.out[1].stolen);
    assert_same_bytes(c.o.out[1].packet, pb, "made, port 2");
    ck_assert_uint_eq(c.o.out[2].port, 1);
    ck_assert_uint_eq(c.o.out[3].port, 2);
    ck_assert(!c.o.out[2].stolen && !c.o.out[3].stolen);
    assert_same_bytes(c.o.out[3].packet, pa, "kept, port 2");
    dp_packet_delete(p0);
    dp_packet_delete(p1);
    outputs_clear(&c.o);

    /* Stealing: the packet taken is the callback's (freed), the rest are
     * freed by the executor (ASan checks both). */
    c.n_ct = 0;
    c.taken = NULL;
    dp_packet_batch_init(&batch);
    dp_packet_batch_add(&batch, compose(&a));
    dp_packet_batch_add(&batch, compose(&a));
    odp_execute_actions(&c, &batch, true, acts.data, acts.size,
                        ct_and_output);
    ck_assert_uint_eq(c.n_ct, 1);
    ck_assert(!c.taken);
    ck_assert_uint_eq(c.o.n, 4);
    ck_assert(c.o.out[3].stolen);
    outputs_clear(&c.o);
    ofpbuf_uninit(&acts);

    /* ct last: the made packet meets an empty rest and is freed. */
    parse_actions("ct", &acts);
    dp_packet_batch_init(&batch);
    dp_packet_batch_add(&batch, compose(&a));
    odp_execute_actions(&c, &batch, true, acts.data, acts.size,
                        ct_and_output);
    ck_assert_uint_eq(c.o.n, 0);
    ofpbuf_uninit(&acts);

    dp_packet_delete(pa);
    dp_packet_delete(pb);
}
END_TEST

/* Output order, stealing, drop, clone leaving the original alone. */
START_TEST(test_outputs_and_clone)
{
    struct flow a, b;
    ipv4_flow(&a, IPPROTO_UDP);
    b = a;
    b.nw_ttl = 9;
    struct outputs o = { 0 };

    struct ofpbuf acts;
    parse_actions("1,clone(set(ipv4(ttl=9)),2),3", &acts);
    struct dp_packet_batch batch;
    dp_packet_batch_init(&batch);
    dp_packet_batch_add(&batch, compose(&a));
    dp_packet_batch_add(&batch, compose(&a));
    odp_execute_actions(&o, &batch, true, acts.data, acts.size,
                        record_output);
    ck_assert_uint_eq(o.n, 6);
    struct dp_packet *pa = compose(&a), *pb = compose(&b);
    for (size_t i = 0; i < 6; i++) {
        uint32_t want_port = i < 2 ? 1 : i < 4 ? 2 : 3;
        ck_assert_uint_eq(o.out[i].port, want_port);
        /* The clone's set did not touch what port 3 got. */
        assert_same_bytes(o.out[i].packet, want_port == 2 ? pb : pa,
                          "output");
        /* Only the last action and the clone's own output steal. */
        ck_assert(o.out[i].stolen == (want_port != 1));
    }
    outputs_clear(&o);
    ofpbuf_uninit(&acts);

    /* Without steal: the caller keeps the packets, nothing is stolen. */
    parse_actions("set(ipv4(ttl=9)),2", &acts);
    dp_packet_batch_init(&batch);
    dp_packet_batch_add(&batch, compose(&a));
    odp_execute_actions(&o, &batch, false, acts.data, acts.size,
                        record_output);
    ck_assert_uint_eq(o.n, 1);
    ck_assert(!o.out[0].stolen);
    assert_same_bytes(batch.packets[0], pb, "kept packet");
    dp_packet_batch_delete(&batch);
    outputs_clear(&o);
    ofpbuf_uninit(&acts);

    /* drop with steal frees the packets (valgrind/ASan check). */
    parse_actions("drop", &acts);
    dp_packet_batch_init(&batch);
    dp_packet_batch_add(&batch, compose(&a));
    odp_execute_actions(&o, &batch, true, acts.data, acts.size,
                        record_output);
    ck_assert_uint_eq(o.n, 0);
    ck_assert_uint_eq(batch.count, 0);
    ofpbuf_uninit(&acts);

    dp_packet_delete(pa);
    dp_packet_delete(pb);
}
END_TEST

/* The explicit drop action: counted by reason, stops the list, prints
 * as "drop", and must be the only action of its list. */
START_TEST(test_explicit_drop)
{
    struct flow a;
    ipv4_flow(&a, IPPROTO_UDP);
    struct outputs o = { 0 };
    struct ofpbuf acts;
    ofpbuf_init(&acts, 0);
    odp_put_drop_action(&acts, ODP_DROP_CONGESTION);
    ck_assert(odp_actions_validate(acts.data, acts.size, NULL));
    struct ds ds = DS_EMPTY_INITIALIZER;
    odp_actions_format(acts.data, acts.size, NULL, &ds);
    ck_assert_str_eq(ds_cstr(&ds), "drop");
    ds_destroy(&ds);

    unsigned long long n = coverage_read_counter("drop_action_congestion");
    struct dp_packet_batch batch;
    dp_packet_batch_init(&batch);
    dp_packet_batch_add(&batch, compose(&a));
    dp_packet_batch_add(&batch, compose(&a));
    odp_execute_actions(&o, &batch, true, acts.data, acts.size,
                        record_output);
    ck_assert_uint_eq(o.n, 0);
    ck_assert_uint_eq(batch.count, 0);
    ck_assert_uint_eq(coverage_read_counter("drop_action_congestion"), n + 2);

    /* Not stolen: the caller keeps its packets. */
    dp_packet_batch_add(&batch, compose(&a));
    odp_execute_actions(&o, &batch, false, acts.data, acts.size,
                        record_output);
    ck_assert_uint_eq(batch.count, 1);
    ck_assert_uint_eq(coverage_read_counter("drop_action_congestion"), n + 3);
    dp_packet_batch_delete(&batch);

    /* Anything beside it, or an unknown reason, is malformed. */
    nl_msg_put_u32(&acts, OVS_ACTION_ATTR_OUTPUT, 1);
    char *error = NULL;
    ck_assert(!odp_actions_validate(acts.data, acts.size, &error));
    ck_assert(error);
    free(error);
    ofpbuf_clear(&acts);
    nl_msg_put_u32(&acts, OVS_ACTION_ATTR_OUTPUT, 1);
    odp_put_drop_action(&acts, ODP_DROP_CONGESTION);
    ck_assert(!odp_actions_validate(acts.data, acts.size, NULL));
    ofpbuf_clear(&acts);
    odp_put_drop_action(&acts, ODP_DROP_N_REASONS);
    ck_assert(!odp_actions_validate(acts.data, acts.size, NULL));
    ofpbuf_uninit(&acts);
}
END_TEST

START_TEST(test_sample)
{
    struct flow a;
    ipv4_flow(&a, IPPROTO_UDP);
    struct outputs o = { 0 };
    struct ofpbuf acts;

    parse_actions("sample(sample=100.0%,actions(7)),1", &acts);
    struct dp_packet_batch batch;
    dp_packet_batch_init(&batch);
    for (int i = 0; i < 4; i++) {
        dp_packet_batch_add(&batch, compose(&a));
    }
    odp_execute_actions(&o, &batch, true, acts.data, acts.size,
                        record_output);
    ck_assert_uint_eq(o.n, 8);
    for (size_t i = 0; i < 8; i++) {
        ck_assert_uint_eq(o.out[i].port, i < 4 ? 7 : 1);
    }
    outputs_clear(&o);
    ofpbuf_uninit(&acts);

    parse_actions("sample(sample=0.0%,actions(7)),1", &acts);
    dp_packet_batch_init(&batch);
    dp_packet_batch_add(&batch, compose(&a));
    odp_execute_actions(&o, &batch, true, acts.data, acts.size,
                        record_output);
    ck_assert_uint_eq(o.n, 1);
    ck_assert_uint_eq(o.out[0].port, 1);
    outputs_clear(&o);
    ofpbuf_uninit(&acts);

    /* 50%: over 20 batches of 32, some but not all are sampled (the
     * chance of either extreme is 2^-640). */
    parse_actions("sample(sample=50.0%,actions(7))", &acts);
    size_t sampled = 0;
    for (int round = 0; round < 20; round++) {
        dp_packet_batch_init(&batch);
        for (int i = 0; i < NETDEV_MAX_BURST; i++) {
            dp_packet_batch_add(&batch, compose(&a));
        }
        odp_execute_actions(&o, &batch, true, acts.data, acts.size,
                            record_output);
        sampled += o.n;
        outputs_clear(&o);
    }
    ck_assert_uint_gt(sampled, 0);
    ck_assert_uint_lt(sampled, 20 * NETDEV_MAX_BURST);
    ofpbuf_uninit(&acts);
}
END_TEST

/* A UDP datagram without a checksum (0) keeps none after an address
 * change; a truncated packet (no L4) is changed at L3 only. */
START_TEST(test_checksum_edge_cases)
{
    struct flow a;
    ipv4_flow(&a, IPPROTO_UDP);
    struct dp_packet *p = compose(&a);
    struct udp_header *udp = dp_packet_l4(p);
    udp->udp_csum = 0;
    struct ofpbuf acts;
    parse_actions("set(ipv4(src=1.1.1.1))", &acts);
    struct dp_packet_batch batch;
    dp_packet_batch_init_packet(&batch, p);
    odp_execute_actions(NULL, &batch, false, acts.data, acts.size, NULL);
    udp = dp_packet_l4(p);
    ck_assert_uint_eq(udp->udp_csum, 0);
    struct ip_header *ip = dp_packet_l3(p);
    ck_assert(ip->ip_src == htonl(0x01010101));
    dp_packet_delete(p);

    /* An IPv4 later fragment: L3 changes, no L4 to touch. */
    a.nw_frag = FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER;
    p = compose(&a);
    struct flow f;
    flow_extract(p, &f);
    dp_packet_batch_init_packet(&batch, p);
    odp_execute_actions(NULL, &batch, false, acts.data, acts.size, NULL);
    struct flow b = a;
    b.nw_src = htonl(0x01010101);
    struct dp_packet *want = compose(&b);
    assert_same_bytes(p, want, "later fragment");
    dp_packet_delete(want);
    dp_packet_delete(p);
    ofpbuf_uninit(&acts);
}
END_TEST

static Suite *
odp_execute_suite(void)
{
    Suite *s = suite_create("odp-execute");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_set_ipv4_fixes_checksums);
    tcase_add_test(tc, test_set_ports);
    tcase_add_test(tc, test_set_ipv6);
    tcase_add_test(tc, test_set_arp_icmp_nd);
    tcase_add_test(tc, test_set_eth_and_metadata);
    tcase_add_test(tc, test_hash);
    tcase_add_test(tc, test_push_pop_vlan);
    tcase_add_test(tc, test_pop_push_eth);
    tcase_add_test(tc, test_push_vlan_without_headroom);
    tcase_add_test(tc, test_outputs_and_clone);
    tcase_add_test(tc, test_ct_rest);
    tcase_add_test(tc, test_sample);
    tcase_add_test(tc, test_explicit_drop);
    tcase_add_test(tc, test_checksum_edge_cases);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(odp_execute_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
