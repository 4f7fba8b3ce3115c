/* Unit tests for conntrack.h: packets composed from flows go through
 * conntrack_execute() and the tests check what a user relies on: the
 * ct_state bits and original tuple in the metadata, TCP state and window
 * checks, ICMP errors related to connections, zones, marks and labels,
 * dump/flush/limits, expiry with the simulated clock and timeout
 * policies, and concurrent use (executing threads while one flushes). */
#include <config.h>
#include "conntrack.h"

#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <stdatomic.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include "check-util.h"
#include "csum.h"
#include "dp-epoch.h"
#include "dp-packet.h"
#include "flow-extract.h"
#include "flow.h"
#include "packets.h"
#include "timeval.h"

#define A_IP 0x0a000001             /* 10.0.0.1 */
#define B_IP 0x0a000002             /* 10.0.0.2 */
#define R_IP 0x0a0000fe             /* 10.0.0.254, a router */

/* Packet building
 * =============== */

/* Recomputes PKT's L4 checksum after a test changed its bytes. */
static void
fix_l4_csum(struct dp_packet *p)
{
    uint8_t *l3 = dp_packet_l3(p);
    uint8_t *l4 = dp_packet_l4(p);
    size_t l4_len = (uint8_t *) dp_packet_tail(p) - l4;
    uint32_t pseudo;
    uint8_t proto;

    if ((l3[0] >> 4) == 4) {
        struct ip_header *ip = (struct ip_header *) l3;
        proto = ip->ip_proto;
        pseudo = csum_pseudo_ipv4(ip->ip_src, ip->ip_dst, proto, l4_len);
    } else {
        struct ipv6_header *ip6 = (struct ipv6_header *) l3;
        struct in6_addr s, d;
        memcpy(&s, &ip6->ip6_src, 16);
        memcpy(&d, &ip6->ip6_dst, 16);
        proto = ip6->ip6_nxt;
        pseudo = csum_pseudo_ipv6(&s, &d, proto, l4_len);
    }
    if (proto == IPPROTO_TCP) {
        struct tcp_header *tcp = (struct tcp_header *) l4;
        tcp->tcp_csum = 0;
        tcp->tcp_csum = csum_finish(csum_continue(pseudo, l4, l4_len));
    } else if (proto == IPPROTO_UDP) {
        struct udp_header *udp = (struct udp_header *) l4;
        udp->udp_csum = 0;
        udp->udp_csum = csum_finish(csum_continue(pseudo, l4, l4_len));
        if (!udp->udp_csum) {
            udp->udp_csum = htons(0xffff);
        }
    } else if (proto == IPPROTO_ICMP) {
        struct icmp_header *icmp = (struct icmp_header *) l4;
        icmp->icmp_csum = 0;
        icmp->icmp_csum = csum(l4, l4_len);
    } else if (proto == IPPROTO_ICMPV6) {
        struct icmp_header *icmp = (struct icmp_header *) l4;
        icmp->icmp_csum = 0;
        icmp->icmp_csum = csum_finish(csum_continue(pseudo, l4, l4_len));
    }
}

static struct flow
ip4_flow(uint32_t src, uint32_t dst, uint8_t proto, uint16_t sport,
         uint16_t dport)
{
    struct flow f;
    memset(&f, 0, sizeof f);
    f.dl_type = htons(ETH_TYPE_IP);
    f.dl_src = (struct eth_addr) { { 0, 0, 0, 0, 0, 1 } };
    f.dl_dst = (struct eth_addr) { { 0, 0, 0, 0, 0, 2 } };
    f.nw_src = htonl(src);
    f.nw_dst = htonl(dst);
    f.nw_proto = proto;
    f.nw_ttl = 64;
    f.tp_src = htons(sport);
    f.tp_dst = htons(dport);
    return f;
}

static struct dp_packet *
udp4(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport)
{
    struct flow f = ip4_flow(src, dst, IPPROTO_UDP, sport, dport);
    struct dp_packet *p = dp_packet_new(256);
    flow_compose(p, &f, 20);
    return p;
}

static struct dp_packet *
tcp4(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport,
     uint16_t flags, uint32_t seq, uint32_t ack, uint16_t win,
     size_t payload)
{
    struct flow f = ip4_flow(src, dst, IPPROTO_TCP, sport, dport);
    f.tcp_flags = htons(flags);
    struct dp_packet *p = dp_packet_new(256 + payload);
    flow_compose(p, &f, payload);
    struct tcp_header *tcp = dp_packet_l4(p);
    tcp->tcp_ctl = htons((5 << 12) | flags);
    tcp->tcp_seq = htonl(seq);
    tcp->tcp_ack = htonl(ack);
    tcp->tcp_winsz = htons(win);
    fix_l4_csum(p);
    return p;
}

/* An ICMP echo (TYPE 8 or 0) with identifier ID. */
static struct dp_packet *
icmp4_echo(uint32_t src, uint32_t dst, uint8_t type, uint16_t id)
{
    struct flow f = ip4_flow(src, dst, IPPROTO_ICMP, type, 0);
    struct dp_packet *p = dp_packet_new(256);
    flow_compose(p, &f, 16);
    struct icmp_header *icmp = dp_packet_l4(p);
    icmp->icmp_rest = htonl((uint32_t) id << 16 | 1);
    fix_l4_csum(p);
    return p;
}

/* An ICMP error of TYPE/CODE from SRC to DST quoting INNER's IP packet. */
static struct dp_packet *
icmp4_error(uint32_t src, uint32_t dst, uint8_t type, uint8_t code,
            const struct dp_packet *inner)
{
    const uint8_t *inner_l3 = dp_packet_l3(inner);
    size_t inner_len = MIN(dp_packet_l3_size(inner), (size_t) 28);
    struct flow f = ip4_flow(src, dst, IPPROTO_ICMP, type, code);
    struct dp_packet *p = dp_packet_new(256);
    flow_compose(p, &f, inner_len);
    uint8_t *payload = (uint8_t *) dp_packet_l4(p) + ICMP_HEADER_LEN;
    memcpy(payload, inner_l3, inner_len);
    fix_l4_csum(p);
    return p;
}

static struct flow
ip6_flow(int src, int dst, uint8_t proto, uint16_t sport, uint16_t dport)
{
    struct flow f;
    memset(&f, 0, sizeof f);
    f.dl_type = htons(ETH_TYPE_IPV6);
    inet_pton(AF_INET6, src == 1 ? "fc00::1" : "fc00::2", &f.ipv6_src);
    inet_pton(AF_INET6, dst == 1 ? "fc00::1" : "fc00::2", &f.ipv6_dst);
    f.nw_proto = proto;
    f.nw_ttl = 64;
    f.tp_src = htons(sport);
    f.tp_dst = htons(dport);
    return f;
}

static struct dp_packet *
udp6(int src, int dst, uint16_t sport, uint16_t dport)
{
    struct flow f = ip6_flow(src, dst, IPPROTO_UDP, sport, dport);
    struct dp_packet *p = dp_packet_new(256);
    flow_compose(p, &f, 20);
    return p;
}

/* Execution helpers
 * ================= */

static struct ct_action
act(uint16_t zone, bool commit)
{
    struct ct_action a;
    memset(&a, 0, sizeof a);
    a.zone = zone;
    a.commit = commit;
    return a;
}

/* Runs P through ct with A and returns its ct_state; P is kept. */
static uint32_t
run(struct conntrack *ct, struct dp_packet *p, const struct ct_action *a)
{
    struct dp_packet_batch b;
    dp_packet_batch_init_packet(&b, p);
    uint16_t dl_type = ((uint8_t *) dp_packet_l3(p))[0] >> 4 == 6
                       ? ETH_TYPE_IPV6 : ETH_TYPE_IP;
    conntrack_execute(ct, &b, dl_type, a, time_msec());
    return p->md.ct_state;
}

/* Runs P (freed afterwards) and returns its ct_state. */
static uint32_t
run_free(struct conntrack *ct, struct dp_packet *p, const struct ct_action *a)
{
    uint32_t state = run(ct, p, a);
    dp_packet_delete(p);
    return state;
}

static uint32_t
run_commit(struct conntrack *ct, struct dp_packet *p, uint16_t zone)
{
    struct ct_action a = act(zone, true);
    return run_free(ct, p, &a);
}

#define TRK CS_TRACKED
#define NEW CS_NEW
#define EST CS_ESTABLISHED
#define REL CS_RELATED
#define RPL CS_REPLY_DIR
#define INV CS_INVALID

static bool
count_cb(const struct ct_entry *e OVS_UNUSED, void *aux)
{
    (*(int *) aux)++;
    return true;
}

static int
dump_count(struct conntrack *ct, const uint16_t *zone)
{
    int n = 0;
    conntrack_dump(ct, zone, count_cb, &n);
    return n;
}

static bool
first_cb(const struct ct_entry *e, void *aux)
{
    *(struct ct_entry *) aux = *e;
    return false;
}

static struct ct_entry
dump_first(struct conntrack *ct)
{
    struct ct_entry e;
    memset(&e, 0, sizeof e);
    e.id = 0;
    conntrack_dump(ct, NULL, first_cb, &e);
    return e;
}

/* Tests
 * ===== */

START_TEST(test_udp_states_and_tuple)
{
    struct conntrack *ct = conntrack_create();
    struct dp_packet *p = udp4(A_IP, B_IP, 1000, 53);
    struct ct_action commit = act(0, true);

    ck_assert_uint_eq(run(ct, p, &commit), TRK | NEW);
    /* The original tuple names the connection. */
    ck_assert_uint_eq(p->md.ct_nw_proto, IPPROTO_UDP);
    ck_assert_uint_eq(ntohl(p->md.ct_nw_src), A_IP);
    ck_assert_uint_eq(ntohl(p->md.ct_nw_dst), B_IP);
    ck_assert_uint_eq(ntohs(p->md.ct_tp_src), 1000);
    ck_assert_uint_eq(ntohs(p->md.ct_tp_dst), 53);
    ck_assert(!p->md.ct_orig_ipv6);
    dp_packet_delete(p);
    ck_assert_uint_eq(conntrack_get_nconns(ct), 1);

    /* More from the same side: still new until the other side answers. */
    ck_assert_uint_eq(run_commit(ct, udp4(A_IP, B_IP, 1000, 53), 0),
                      TRK | NEW);
    /* The reply: established, reply direction, original tuple kept. */
    p = udp4(B_IP, A_IP, 53, 1000);
    ck_assert_uint_eq(run(ct, p, &commit), TRK | EST | RPL);
    ck_assert_uint_eq(ntohl(p->md.ct_nw_src), A_IP);
    ck_assert_uint_eq(ntohs(p->md.ct_tp_dst), 53);
    dp_packet_delete(p);
    ck_assert_uint_eq(run_commit(ct, udp4(A_IP, B_IP, 1000, 53), 0),
                      TRK | EST);
    ck_assert_uint_eq(conntrack_get_nconns(ct), 1);

    struct ct_entry e = dump_first(ct);
    ck_assert_uint_eq(e.orig.ip_proto, IPPROTO_UDP);
    ck_assert_uint_eq(ntohl(e.orig.src.ipv4), A_IP);
    ck_assert_uint_eq(ntohl(e.reply.src.ipv4), B_IP);
    ck_assert_uint_eq(ntohs(e.reply.src_port), 53);
    ck_assert_uint_eq(e.orig_counters.packets, 3);
    ck_assert_uint_eq(e.reply_counters.packets, 1);
    /* Both sides seen: udp_multiple, 30 s. */
    ck_assert_uint_le(e.timeout_s, 30);
    ck_assert_uint_ge(e.timeout_s, 29);
    conntrack_destroy(ct);
}
END_TEST

START_TEST(test_no_commit_no_entry)
{
    struct conntrack *ct = conntrack_create();
    struct ct_action look = act(0, false);

    ck_assert_uint_eq(run_free(ct, udp4(A_IP, B_IP, 1, 2), &look), TRK | NEW);
    ck_assert_uint_eq(conntrack_get_nconns(ct), 0);
    ck_assert_int_eq(dump_count(ct, NULL), 0);
    /* The reply of an uncommitted connection is new too. */
    ck_assert_uint_eq(run_free(ct, udp4(B_IP, A_IP, 2, 1), &look), TRK | NEW);
    conntrack_destroy(ct);
}
END_TEST

START_TEST(test_zones_are_separate)
{
    struct conntrack *ct = conntrack_create();
    struct ct_action z2 = act(2, false);

    ck_assert_uint_eq(run_commit(ct, udp4(A_IP, B_IP, 1, 2), 1), TRK | NEW);
    struct dp_packet *p = udp4(B_IP, A_IP, 2, 1);
    ck_assert_uint_eq(run(ct, p, &z2), TRK | NEW);
    ck_assert_uint_eq(p->md.ct_zone, 2);
    /* The same packet in zone 1 then: the zone-2 bits are dropped. */
    struct ct_action z1 = act(1, false);
    ck_assert_uint_eq(run(ct, p, &z1), TRK | EST | RPL);
    ck_assert_uint_eq(p->md.ct_zone, 1);
    dp_packet_delete(p);

    uint16_t zone = 1;
    ck_assert_int_eq(dump_count(ct, &zone), 1);
    zone = 2;
    ck_assert_int_eq(dump_count(ct, &zone), 0);
    conntrack_destroy(ct);
}
END_TEST

START_TEST(test_mark_label_on_commit)
{
    struct conntrack *ct = conntrack_create();
    struct ct_action a = act(0, true);
    a.set_mark = true;
    a.mark_value = 0x12;
    a.mark_mask = 0xff;
    a.set_label = true;
    a.label_value = (ovs_u128) { .hi = 0, .lo = 0xabcd };
    a.label_mask = (ovs_u128) { .hi = 0, .lo = 0xffff };

    struct dp_packet *p = udp4(A_IP, B_IP, 5, 6);
    run(ct, p, &a);
    ck_assert_uint_eq(p->md.ct_mark, 0x12);
    ck_assert_uint_eq(p->md.ct_label[15], 0xcd);
    ck_assert_uint_eq(p->md.ct_label[14], 0xab);
    dp_packet_delete(p);

    /* A later packet without setting anything sees them. */
    struct ct_action look = act(0, false);
    p = udp4(B_IP, A_IP, 6, 5);
    run(ct, p, &look);
    ck_assert_uint_eq(p->md.ct_mark, 0x12);
    ck_assert_uint_eq(p->md.ct_label[15], 0xcd);
    /* ct_clear forgets all of it. */
    conntrack_clear_packet(p);
    ck_assert_uint_eq(p->md.ct_state, 0);
    ck_assert_uint_eq(p->md.ct_mark, 0);
    ck_assert_uint_eq(p->md.ct_label[15], 0);
    ck_assert_uint_eq(p->md.ct_nw_src, 0);
    dp_packet_delete(p);

    /* Masked update keeps the other bits. */
    a.mark_value = 0x300;
    a.mark_mask = 0xf00;
    a.set_label = false;
    p = udp4(A_IP, B_IP, 5, 6);
    run(ct, p, &a);
    ck_assert_uint_eq(p->md.ct_mark, 0x312);
    dp_packet_delete(p);
    conntrack_destroy(ct);
}
END_TEST

/* A full TCP exchange: handshake, data, FIN from both sides. */
START_TEST(test_tcp_handshake_and_close)
{
    struct conntrack *ct = conntrack_create();
    uint32_t a = 1000, b = 5000;

    ck_assert_uint_eq(run_commit(ct, tcp4(A_IP, B_IP, 40000, 80, TCP_SYN,
                                          a, 0, 65535, 0), 0), TRK | NEW);
    struct ct_entry e = dump_first(ct);
    ck_assert_uint_eq(e.tcp_state, CT_TCP_SYN_SENT);
    ck_assert_uint_ge(e.timeout_s, 29);     /* tcp_syn_sent, 30 s. */
    ck_assert_uint_le(e.timeout_s, 30);
    ck_assert_uint_eq(run_commit(ct, tcp4(B_IP, A_IP, 80, 40000,
                                          TCP_SYN | TCP_ACK, b, a + 1, 65535,
                                          0), 0), TRK | EST | RPL);
    ck_assert_uint_eq(run_commit(ct, tcp4(A_IP, B_IP, 40000, 80, TCP_ACK,
                                          a + 1, b + 1, 65535, 0), 0),
                      TRK | EST);
    e = dump_first(ct);
    ck_assert_uint_eq(e.tcp_state, CT_TCP_ESTABLISHED);
    ck_assert_uint_ge(e.timeout_s, 24 * 3600 - 1);
    ck_assert_str_eq(ct_tcp_state_name(e.tcp_state), "ESTABLISHED");

    /* 100 bytes of data and their ack. */
    ck_assert_uint_eq(run_commit(ct, tcp4(A_IP, B_IP, 40000, 80,
                                          TCP_ACK | TCP_PSH, a + 1, b + 1,
                                          65535, 100), 0), TRK | EST);
    ck_assert_uint_eq(run_commit(ct, tcp4(B_IP, A_IP, 80, 40000, TCP_ACK,
                                          b + 1, a + 101, 65535, 0), 0),
                      TRK | EST | RPL);

    /* Close. */
    ck_assert_uint_eq(run_commit(ct, tcp4(A_IP, B_IP, 40000, 80,
                                          TCP_FIN | TCP_ACK, a + 101, b + 1,
                                          65535, 0), 0), TRK | EST);
    ck_assert_uint_eq(run_commit(ct, tcp4(B_IP, A_IP, 80, 40000,
                                          TCP_FIN | TCP_ACK, b + 1, a + 102,
                                          65535, 0), 0), TRK | EST | RPL);
    ck_assert_uint_eq(run_commit(ct, tcp4(A_IP, B_IP, 40000, 80, TCP_ACK,
                                          a + 102, b + 2, 65535, 0), 0),
                      TRK | EST);
    e = dump_first(ct);
    ck_assert_uint_eq(e.tcp_state, CT_TCP_FIN_WAIT_2);
    ck_assert_uint_ge(e.timeout_s, 29);     /* tcp_close, 30 s. */
    ck_assert_uint_le(e.timeout_s, 30);
    conntrack_destroy(ct);
}
END_TEST

START_TEST(test_tcp_invalid_flags)
{
    struct conntrack *ct = conntrack_create();
    static const uint16_t bad[] = {
        TCP_SYN | TCP_FIN, TCP_SYN | TCP_RST, 0, TCP_FIN, TCP_PSH,
        TCP_URG, TCP_SYN | TCP_FIN | TCP_ACK,
    };
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        ck_assert_msg(run_commit(ct, tcp4(A_IP, B_IP, 1, 2, bad[i], 1, 0,
                                          100, 0), 0) == (TRK | INV),
                      "flags %#x", bad[i]);
    }
    /* Half an opening does not make a connection. */
    ck_assert_uint_eq(run_commit(ct, tcp4(A_IP, B_IP, 1, 2,
                                          TCP_SYN | TCP_ACK, 1, 1, 100, 0), 0),
                      TRK | INV);
    ck_assert_uint_eq(conntrack_get_nconns(ct), 0);

    /* On an existing connection, too. */
    run_commit(ct, tcp4(A_IP, B_IP, 1, 2, TCP_SYN, 1, 0, 100, 0), 0);
    ck_assert_uint_eq(run_commit(ct, tcp4(B_IP, A_IP, 2, 1,
                                          TCP_SYN | TCP_RST, 9, 2, 100, 0), 0),
                      TRK | INV);
    conntrack_destroy(ct);
}
END_TEST

START_TEST(test_tcp_window_and_seq_chk)
{
    struct conntrack *ct = conntrack_create();
    run_commit(ct, tcp4(A_IP, B_IP, 7, 8, TCP_SYN, 100, 0, 1000, 0), 0);
    run_commit(ct, tcp4(B_IP, A_IP, 8, 7, TCP_SYN | TCP_ACK, 900, 101, 1000,
                        0), 0);
    ck_assert_uint_eq(run_commit(ct, tcp4(A_IP, B_IP, 7, 8, TCP_ACK, 101,
                                          901, 1000, 0), 0), TRK | EST);
    ck_assert(conntrack_get_tcp_seq_chk(ct));

    /* Data far past what B's window allows: invalid. */
    ck_assert_uint_eq(run_commit(ct, tcp4(A_IP, B_IP, 7, 8, TCP_ACK, 500000,
                                          901, 1000, 10), 0), TRK | INV);
    /* An ack of data B never sent: invalid. */
    ck_assert_uint_eq(run_commit(ct, tcp4(A_IP, B_IP, 7, 8, TCP_ACK, 101,
                                          901 + 300000, 1000, 0), 0),
                      TRK | INV);
    /* Sequence checking off: the same segment passes. */
    conntrack_set_tcp_seq_chk(ct, false);
    ck_assert(!conntrack_get_tcp_seq_chk(ct));
    ck_assert_uint_eq(run_commit(ct, tcp4(A_IP, B_IP, 7, 8, TCP_ACK, 500000,
                                          901, 1000, 10), 0), TRK | EST);
    /* Bad flags stay invalid whatever the setting. */
    ck_assert_uint_eq(run_commit(ct, tcp4(A_IP, B_IP, 7, 8, 0, 1, 1, 10, 0),
                                 0), TRK | INV);
    conntrack_destroy(ct);
}
END_TEST

START_TEST(test_tcp_port_reuse)
{
    struct conntrack *ct = conntrack_create();
    run_commit(ct, tcp4(A_IP, B_IP, 3, 4, TCP_SYN, 10, 0, 1000, 0), 0);
    run_commit(ct, tcp4(B_IP, A_IP, 4, 3, TCP_SYN | TCP_ACK, 50, 11, 1000,
                        0), 0);
    run_commit(ct, tcp4(A_IP, B_IP, 3, 4, TCP_ACK, 11, 51, 1000, 0), 0);
    uint32_t first_id = dump_first(ct).id;
    run_commit(ct, tcp4(A_IP, B_IP, 3, 4, TCP_FIN | TCP_ACK, 11, 51, 1000, 0),
               0);
    run_commit(ct, tcp4(B_IP, A_IP, 4, 3, TCP_FIN | TCP_ACK, 51, 12, 1000, 0),
               0);
    run_commit(ct, tcp4(A_IP, B_IP, 3, 4, TCP_ACK, 12, 52, 1000, 0), 0);

    /* A new SYN on the same ports: a new connection. */
    ck_assert_uint_eq(run_commit(ct, tcp4(A_IP, B_IP, 3, 4, TCP_SYN, 7777, 0,
                                          1000, 0), 0), TRK | NEW);
    ck_assert_uint_eq(conntrack_get_nconns(ct), 1);
    struct ct_entry e = dump_first(ct);
    ck_assert_uint_ne(e.id, first_id);
    ck_assert_uint_eq(e.tcp_state, CT_TCP_SYN_SENT);
    ck_assert_uint_eq(run_commit(ct, tcp4(B_IP, A_IP, 4, 3,
                                          TCP_SYN | TCP_ACK, 1, 7778, 1000,
                                          0), 0), TRK | EST | RPL);
    conntrack_destroy(ct);
}
END_TEST

START_TEST(test_tcp_pick_up)
{
    struct conntrack *ct = conntrack_create();
    /* Mid-stream segments, as after a restart of the switch. */
    ck_assert_uint_eq(run_commit(ct, tcp4(A_IP, B_IP, 11, 22,
                                          TCP_ACK | TCP_PSH, 123456, 987654,
                                          500, 40), 0), TRK | NEW);
    ck_assert_uint_eq(run_commit(ct, tcp4(B_IP, A_IP, 22, 11, TCP_ACK,
                                          987654, 123496, 500, 0), 0),
                      TRK | EST | RPL);
    ck_assert_uint_eq(run_commit(ct, tcp4(A_IP, B_IP, 11, 22,
                                          TCP_ACK | TCP_PSH, 123496, 987654,
                                          500, 40), 0), TRK | EST);
    ck_assert_uint_eq(dump_first(ct).tcp_state, CT_TCP_ESTABLISHED);
    conntrack_destroy(ct);
}
END_TEST

START_TEST(test_icmp_echo)
{
    struct conntrack *ct = conntrack_create();
    struct dp_packet *p = icmp4_echo(A_IP, B_IP, 8, 77);
    struct ct_action commit = act(0, true);
    ck_assert_uint_eq(run(ct, p, &commit), TRK | NEW);
    ck_assert_uint_eq(ntohs(p->md.ct_tp_src), 8);   /* Type. */
    ck_assert_uint_eq(ntohs(p->md.ct_tp_dst), 0);   /* Code. */
    dp_packet_delete(p);
    ck_assert_uint_eq(run_commit(ct, icmp4_echo(B_IP, A_IP, 0, 77), 0),
                      TRK | EST | RPL);
    /* Another id is another exchange, and a reply alone opens none. */
    ck_assert_uint_eq(run_commit(ct, icmp4_echo(B_IP, A_IP, 0, 78), 0),
                      TRK | INV);
    ck_assert_uint_eq(conntrack_get_nconns(ct), 1);
    struct ct_entry e = dump_first(ct);
    ck_assert_uint_eq(ntohs(e.orig.icmp_id), 77);
    ck_assert_uint_eq(e.orig.icmp_type, 8);
    ck_assert_uint_eq(e.reply.icmp_type, 0);
    conntrack_destroy(ct);
}
END_TEST

START_TEST(test_icmp_related)
{
    struct conntrack *ct = conntrack_create();
    struct dp_packet *orig = udp4(A_IP, B_IP, 1234, 5678);
    struct ct_action commit = act(0, true);
    run(ct, orig, &commit);

    /* A router tells A that B is unreachable: related, reply direction,
     * with the connection's tuple. */
    struct dp_packet *err = icmp4_error(R_IP, A_IP, 3, 1, orig);
    struct ct_action look = act(0, false);
    ck_assert_uint_eq(run(ct, err, &look), TRK | REL | RPL);
    ck_assert_uint_eq(ntohl(err->md.ct_nw_src), A_IP);
    ck_assert_uint_eq(ntohs(err->md.ct_tp_dst), 5678);
    dp_packet_delete(err);

    /* Time exceeded about a reply packet travels the original way. */
    struct dp_packet *rep = udp4(B_IP, A_IP, 5678, 1234);
    err = icmp4_error(R_IP, B_IP, 11, 0, rep);
    ck_assert_uint_eq(run(ct, err, &look), TRK | REL);
    dp_packet_delete(err);
    dp_packet_delete(rep);

    /* About a connection nobody has: invalid, and nothing committed. */
    struct dp_packet *other = udp4(A_IP, B_IP, 1, 2);
    err = icmp4_error(R_IP, A_IP, 3, 3, other);
    ck_assert_uint_eq(run(ct, err, &commit), TRK | INV);
    dp_packet_delete(err);
    dp_packet_delete(other);
    ck_assert_uint_eq(conntrack_get_nconns(ct), 1);
    dp_packet_delete(orig);
    conntrack_destroy(ct);
}
END_TEST

START_TEST(test_ipv6_udp_and_icmpv6_related)
{
    struct conntrack *ct = conntrack_create();
    struct dp_packet *p = udp6(1, 2, 100, 200);
    struct ct_action commit = act(0, true);
    ck_assert_uint_eq(run(ct, p, &commit), TRK | NEW);
    ck_assert(p->md.ct_orig_ipv6);
    ck_assert_uint_eq(p->md.ct_ipv6_src.s6_addr[15], 1);
    ck_assert_uint_eq(run_commit(ct, udp6(2, 1, 200, 100), 0),
                      TRK | EST | RPL);

    /* Destination unreachable from fc00::2 about the first packet. */
    struct flow f = ip6_flow(2, 1, IPPROTO_ICMPV6, 1, 4);
    size_t inner_len = 48;
    struct dp_packet *err = dp_packet_new(256);
    flow_compose(err, &f, inner_len);
    memcpy((uint8_t *) dp_packet_l4(err) + ICMP_HEADER_LEN, dp_packet_l3(p),
           inner_len);
    fix_l4_csum(err);
    ck_assert_uint_eq(run_commit(ct, err, 0), TRK | REL | RPL);
    dp_packet_delete(p);
    conntrack_destroy(ct);
}
END_TEST

START_TEST(test_bad_packets_invalid)
{
    struct conntrack *ct = conntrack_create();
    /* Broken UDP checksum. */
    struct dp_packet *p = udp4(A_IP, B_IP, 1, 2);
    struct udp_header *udp = dp_packet_l4(p);
    udp->udp_csum ^= htons(0x1111);
    ck_assert_uint_eq(run_commit(ct, p, 0), TRK | INV);
    /* Broken IPv4 header checksum. */
    p = udp4(A_IP, B_IP, 1, 2);
    ((struct ip_header *) dp_packet_l3(p))->ip_csum ^= htons(1);
    ck_assert_uint_eq(run_commit(ct, p, 0), TRK | INV);
    /* Truncated TCP. */
    p = tcp4(A_IP, B_IP, 1, 2, TCP_SYN, 1, 0, 10, 0);
    dp_packet_set_size(p, dp_packet_size(p) - 4);
    struct ip_header *ip = dp_packet_l3(p);
    ip->ip_tot_len = htons(ntohs(ip->ip_tot_len) - 4);
    ip->ip_csum = 0;
    ip->ip_csum = csum(ip, IP_HEADER_LEN);
    ck_assert_uint_eq(run_commit(ct, p, 0), TRK | INV);
    ck_assert_uint_eq(conntrack_get_nconns(ct), 0);
    conntrack_destroy(ct);
}
END_TEST

START_TEST(test_force_recommits)
{
    struct conntrack *ct = conntrack_create();
    run_commit(ct, udp4(A_IP, B_IP, 1, 2), 0);
    uint32_t old_id = dump_first(ct).id;

    struct ct_action force = act(0, true);
    force.force = true;
    struct dp_packet *p = udp4(B_IP, A_IP, 2, 1);
    ck_assert_uint_eq(run(ct, p, &force), TRK | NEW);
    ck_assert_uint_eq(ntohl(p->md.ct_nw_src), B_IP);
    dp_packet_delete(p);
    ck_assert_uint_eq(conntrack_get_nconns(ct), 1);
    struct ct_entry e = dump_first(ct);
    ck_assert_uint_ne(e.id, old_id);
    ck_assert_uint_eq(ntohl(e.orig.src.ipv4), B_IP);
    /* In the original direction force changes nothing. */
    ck_assert_uint_eq(run_free(ct, udp4(B_IP, A_IP, 2, 1), &force),
                      TRK | NEW);
    ck_assert_uint_eq(dump_first(ct).id, e.id);
    conntrack_destroy(ct);
}
END_TEST

START_TEST(test_dump_flush_stats)
{
    struct conntrack *ct = conntrack_create();
    for (int i = 0; i < 10; i++) {
        run_commit(ct, udp4(A_IP, B_IP, 1000 + i, 53), i % 2);
    }
    run_commit(ct, tcp4(A_IP, B_IP, 5, 6, TCP_SYN, 1, 0, 100, 0), 3);
    ck_assert_uint_eq(conntrack_get_nconns(ct), 11);
    ck_assert_int_eq(dump_count(ct, NULL), 11);

    uint32_t by_proto[256], by_state[CT_TCP_N_STATES];
    conntrack_get_stats(ct, NULL, by_proto, by_state);
    ck_assert_uint_eq(by_proto[IPPROTO_UDP], 10);
    ck_assert_uint_eq(by_proto[IPPROTO_TCP], 1);
    ck_assert_uint_eq(by_state[CT_TCP_SYN_SENT], 1);
    uint16_t zone = 1;
    conntrack_get_stats(ct, &zone, by_proto, by_state);
    ck_assert_uint_eq(by_proto[IPPROTO_UDP], 5);
    ck_assert_uint_eq(by_proto[IPPROTO_TCP], 0);

    uint32_t *counts = xcalloc(1 << 20, sizeof *counts);
    size_t n_buckets = conntrack_get_buckets(ct, counts, 1 << 20);
    uint64_t total = 0;
    for (size_t i = 0; i < n_buckets; i++) {
        total += counts[i];
    }
    ck_assert_uint_eq(total, 22);   /* Two keys per connection. */
    free(counts);

    /* Flush one zone. */
    ck_assert_int_eq(conntrack_flush(ct, &zone, NULL), 0);
    ck_assert_int_eq(dump_count(ct, &zone), 0);
    ck_assert_uint_eq(conntrack_get_nconns(ct), 6);

    /* Flush by tuple, from either direction. */
    struct ct_tuple t;
    memset(&t, 0, sizeof t);
    t.l3_type = AF_INET;
    t.ip_proto = IPPROTO_UDP;
    t.src.ipv4 = htonl(B_IP);
    t.dst.ipv4 = htonl(A_IP);
    t.src_port = htons(53);
    t.dst_port = htons(1000);
    zone = 0;
    ck_assert_int_eq(conntrack_flush(ct, &zone, &t), 0);
    ck_assert_uint_eq(conntrack_get_nconns(ct), 5);
    ck_assert_int_eq(conntrack_flush(ct, &zone, &t), ENOENT);

    ck_assert_int_eq(conntrack_flush(ct, NULL, NULL), 0);
    ck_assert_uint_eq(conntrack_get_nconns(ct), 0);
    ck_assert_int_eq(dump_count(ct, NULL), 0);
    /* Flushed connections are new again. */
    ck_assert_uint_eq(run_commit(ct, udp4(B_IP, A_IP, 53, 1002), 0),
                      TRK | NEW);
    conntrack_destroy(ct);
}
END_TEST

START_TEST(test_limits)
{
    struct conntrack *ct = conntrack_create();
    ck_assert_uint_eq(conntrack_get_maxconns(ct), 3000000);
    conntrack_set_maxconns(ct, 2);
    for (int i = 0; i < 4; i++) {
        /* Past the limit the packet is invalid, so firewalls drop it. */
        ck_assert_uint_eq(run_commit(ct, udp4(A_IP, B_IP, 100 + i, 1), 0),
                          i < 2 ? TRK | NEW : TRK | INV);
    }
    ck_assert_uint_eq(conntrack_get_nconns(ct), 2);
    conntrack_set_maxconns(ct, 100);

    uint32_t limit, count;
    conntrack_set_zone_limit(ct, 5, 3);
    ck_assert(conntrack_get_zone_limit(ct, 5, &limit, &count));
    ck_assert_uint_eq(limit, 3);
    for (int i = 0; i < 5; i++) {
        ck_assert_uint_eq(run_commit(ct, udp4(A_IP, B_IP, 100 + i, 1), 5),
                          i < 3 ? TRK | NEW : TRK | INV);
    }
    ck_assert(conntrack_get_zone_limit(ct, 5, &limit, &count));
    ck_assert_uint_eq(count, 3);

    /* Default limit for zones without their own. */
    conntrack_set_zone_limit(ct, CT_ZONE_DEFAULT, 1);
    for (int i = 0; i < 3; i++) {
        run_commit(ct, udp4(A_IP, B_IP, 100 + i, 1), 6);
    }
    ck_assert(!conntrack_get_zone_limit(ct, 6, &limit, &count));
    ck_assert_uint_eq(limit, 1);
    ck_assert_uint_eq(count, 1);

    conntrack_del_zone_limit(ct, 5);
    ck_assert(!conntrack_get_zone_limit(ct, 5, &limit, &count));
    ck_assert_uint_eq(limit, 1);
    conntrack_destroy(ct);
}
END_TEST

static bool
nconns_is(struct conntrack *ct, uint32_t n)
{
    dp_epoch_reclaim();
    return conntrack_get_nconns(ct) == n;
}

START_TEST(test_expiry_and_policy)
{
    time_stop();
    struct conntrack *ct = conntrack_create();

    run_commit(ct, udp4(A_IP, B_IP, 1, 2), 0);          /* udp_first 60s */
    time_warp(59 * 1000);
    ck_assert_int_eq(dump_count(ct, NULL), 1);
    time_warp(2 * 1000);
    /* Gone for lookups and dumps at once... */
    ck_assert_int_eq(dump_count(ct, NULL), 0);
    ck_assert_uint_eq(run_free(ct, udp4(B_IP, A_IP, 2, 1),
                               &(struct ct_action) { .zone = 0 }),
                      TRK | NEW);
    /* ...and the sweeper frees it. */
    CHECK_WAIT_FOR(nconns_is(ct, 0));

    /* A policy with udp_first = 5 s. */
    uint32_t secs[CT_TM_N] = { 0 };
    enum ct_timeout tm;
    ck_assert(ct_timeout_from_name("udp_first", &tm));
    ck_assert_int_eq(tm, CT_TM_UDP_FIRST);
    ck_assert_str_eq(ct_timeout_name(CT_TM_ICMP_REPLY), "icmp_reply");
    ck_assert(!ct_timeout_from_name("bogus", &tm));
    secs[CT_TM_UDP_FIRST] = 5;
    conntrack_set_policy(ct, 7, secs);
    struct ct_action a = act(0, true);
    a.timeout_policy = 7;
    run_free(ct, udp4(A_IP, B_IP, 3, 4), &a);
    /* Other protocols follow the UDP values. */
    struct dp_packet *gre = udp4(A_IP, B_IP, 3, 4);
    struct ip_header *ip = dp_packet_l3(gre);
    ip->ip_proto = 47;
    ip->ip_csum = 0;
    ip->ip_csum = csum(ip, IP_HEADER_LEN);
    run_free(ct, gre, &a);
    ck_assert_uint_eq(dump_first(ct).timeout_s, 5);
    time_warp(4 * 1000);
    ck_assert_int_eq(dump_count(ct, NULL), 2);
    time_warp(2 * 1000);
    ck_assert_int_eq(dump_count(ct, NULL), 0);
    CHECK_WAIT_FOR(nconns_is(ct, 0));

    /* Deleting the policy brings back the defaults. */
    conntrack_del_policy(ct, 7);
    run_free(ct, udp4(A_IP, B_IP, 3, 4), &a);
    ck_assert_uint_eq(dump_first(ct).timeout_s, 60);

    /* A busy connection stays: every packet pushes its expiry. */
    for (int i = 0; i < 5; i++) {
        time_warp(50 * 1000);
        ck_assert_uint_eq(run_free(ct, udp4(A_IP, B_IP, 3, 4), &a),
                          TRK | NEW);
    }
    ck_assert_int_eq(dump_count(ct, NULL), 1);
    conntrack_destroy(ct);
}
END_TEST

/* A flush also removes the connections that expired but that the sweeper
 * has not freed yet: none is counted afterwards (found by
 * tests/fuzz/fuzz-conntrack). */
START_TEST(test_flush_expired)
{
    time_stop();
    struct conntrack *ct = conntrack_create();
    conntrack_set_zone_limit(ct, 3, 10);
    run_commit(ct, udp4(A_IP, B_IP, 1, 2), 3);
    run_commit(ct, udp4(A_IP, B_IP, 5, 6), 0);
    time_warp(61 * 1000);                       /* udp_first 60s */
    uint16_t zone = 3;
    uint32_t limit, count;
    conntrack_flush(ct, &zone, NULL);
    ck_assert(conntrack_get_zone_limit(ct, 3, &limit, &count));
    ck_assert_uint_eq(count, 0);
    conntrack_flush(ct, NULL, NULL);
    ck_assert_uint_eq(conntrack_get_nconns(ct), 0);
    conntrack_destroy(ct);
}
END_TEST

/* Open vSwitch 3.1's own packet sequences (tests/ofproto-dpif.at,
 * "conntrack - tcp pick up", "tcp port reuse", "disable tcp sequence
 * checking"), replayed with that test's rules: packets from port 1 go
 * through ct(commit), packets from port 2 through ct(). */
struct replay_pkt {
    int port;
    const char *hex;
};

static const struct replay_pkt pick_up_pkts[] = {
    { 1,
      "50540000000950540000000a080045000028fc264000400628a50a0101020a01"
      "010100020001396bb35a8cadbdb45010000a629b0000"
    },
    { 1,
      "50540000000950540000000a080045000029fc274000400628a30a0101020a01"
      "010100020001396bb35a8cadbdb45018000a589200000a"
    },
    { 2,
      "50540000000a505400000009080045000028f2c84000400632030a0101010a01"
      "0102000100028cadbdb4396bb35b5010000a629a0000"
    },
    { 1,
      "50540000000950540000000a08004500022afc284000400626a10a0101020a01"
      "010100020001396bb35b8cadbdb45018000a941f000066666666666666666666"
      "6666666666666666666666666666666666666666666666666666666666666666"
      "6666666666666666666666666666666666666666666666666666666666666666"
      "6666666666666666666666666666666666666666666666666666666666666666"
      "6666666666666666666666666666666666666666666666666666666666666666"
      "6666666666666666666666666666666666666666666666666666666666666666"
      "6666666666666666666666666666666666666666666666666666666666666666"
      "6666666666666666666666666666666666666666666666666666666666666666"
      "6666666666666666666666666666666666666666666666666666666666666666"
      "6666666666666666666666666666666666666666666666666666666666666666"
      "6666666666666666666666666666666666666666666666666666666666666666"
      "6666666666666666666666666666666666666666666666666666666666666666"
      "6666666666666666666666666666666666666666666666666666666666666666"
      "6666666666666666666666666666666666666666666666666666666666666666"
      "6666666666666666666666666666666666666666666666666666666666666666"
      "6666666666666666666666666666666666666666666666666666666666666666"
      "66666666666666666666666666666666666666666666660a"
    },
    { 2,
      "50540000000a505400000009080045000028f2c94000400632020a0101010a01"
      "0102000100028cadbdb4396bb55d5010000a60980000"
    },
    { 2,
      "50540000000a5054000000090800450001fdf2ca40004006302c0a0101010a01"
      "0102000100028cadbdb4396bb55d5018000aa60c000065656565656565656565"
      "6565656565656565656565656565656565656565656565656565656565656565"
      "6565656565656565656565656565656565656565656565656565656565656565"
      "6565656565656565656565656565656565656565656565656565656565656565"
      "6565656565656565656565656565656565656565656565656565656565656565"
      "6565656565656565656565656565656565656565656565656565656565656565"
      "6565656565656565656565656565656565656565656565656565656565656565"
      "6565656565656565656565656565656565656565656565656565656565656565"
      "6565656565656565656565656565656565656565656565656565656565656565"
      "6565656565656565656565656565656565656565656565656565656565656565"
      "6565656565656565656565656565656565656565656565656565656565656565"
      "6565656565656565656565656565656565656565656565656565656565656565"
      "6565656565656565656565656565656565656565656565656565656565656565"
      "6565656565656565656565656565656565656565656565656565656565656565"
      "6565656565656565656565656565656565656565656565656565656565656565"
      "656565656565656565650a"
    },
    { 1,
      "50540000000950540000000a080045000028fc294000400628a20a0101020a01"
      "010100020001396bb55d8cadbf895010000a5ec30000"
    },
    { 1,
      "50540000000950540000000a080045000028fc2a4000400628a10a0101020a01"
      "010100020001396bb55d8cadbf895011000a5ec20000"
    },
    { 2,
      "50540000000a505400000009080045000028f2cb4000400632000a0101010a01"
      "0102000100028cadbf89396bb55e5010000a5ec20000"
    },
    { 2,
      "50540000000a505400000009080045000028f2cc4000400631ff0a0101010a01"
      "0102000100028cadbf89396bb55e5011000a5ec10000"
    },
    { 1,
      "50540000000950540000000a080045000028258e40004006ff3d0a0101020a01"
      "010100020001396bb55e8cadbf8a5010000a5ec10000"
    },
};
static const struct replay_pkt port_reuse_pkts[] = {
    { 1,
      "50540000000a50540000000908004500002ca4e5400040067fe20a0101010a01"
      "01020001000259b5d93f0000000060027210dd190000020405b4"
    },
    { 2,
      "50540000000950540000000a08004500002c00004000400624c80a0101020a01"
      "0101000200017c35468459b5d940601272101a4f0000020405b4"
    },
    { 1,
      "50540000000a505400000009080045000028a4e6400040067fe50a0101010a01"
      "01020001000259b5d9407c35468550107210320c0000"
    },
    { 2,
      "50540000000950540000000a0800450000303b5f40004006e9640a0101020a01"
      "0101000200017c35468559b5d9405018721074c200007061796c6f61640a"
    },
    { 1,
      "50540000000a505400000009080045000028a4e7400040067fe40a0101010a01"
      "01020001000259b5d9407c35468d5010721032040000"
    },
    { 2,
      "50540000000950540000000a0800450000283b6040004006e96b0a0101020a01"
      "0101000200017c35468d59b5d9405011721032030000"
    },
    { 1,
      "50540000000a505400000009080045000028a4e8400040067fe30a0101010a01"
      "01020001000259b5d9407c35468e5010721032030000"
    },
    { 1,
      "50540000000a505400000009080045000028a4e9400040067fe20a0101010a01"
      "01020001000259b5d9407c35468e5011721032020000"
    },
    { 2,
      "50540000000950540000000a0800450000283b6140004006e96a0a0101020a01"
      "0101000200017c35468e59b5d9415010721032020000"
    },
    { 1,
      "50540000000a50540000000908004500002cc0a74000400664200a0101010a01"
      "0102000100025b7dbf1f0000000060027210f5710000020405b4"
    },
    { 2,
      "50540000000950540000000a08004500002c00004000400624c80a0101020a01"
      "0101000200017c36468f5b7dbf2060127210329b0000020405b4"
    },
    { 1,
      "50540000000a505400000009080045000028c0a84000400664230a0101010a01"
      "0102000100025b7dbf207c364690501072104a580000"
    },
    { 2,
      "50540000000950540000000a080045000030392840004006eb9b0a0101020a01"
      "0101000200017c3646905b7dbf20501872108d0e00007061796c6f61640a"
    },
    { 1,
      "50540000000a505400000009080045000028c0a94000400664220a0101010a01"
      "0102000100025b7dbf207c364698501072104a500000"
    },
    { 2,
      "50540000000950540000000a080045000028392940004006eba20a0101020a01"
      "0101000200017c3646985b7dbf20501172104a4f0000"
    },
    { 1,
      "50540000000a505400000009080045000028c0aa4000400664210a0101010a01"
      "0102000100025b7dbf207c364699501072104a4f0000"
    },
    { 1,
      "50540000000a505400000009080045000028c0ab4000400664200a0101010a01"
      "0102000100025b7dbf207c364699501172104a4e0000"
    },
    { 2,
      "50540000000950540000000a080045000028392a40004006eba10a0101020a01"
      "0101000200017c3646995b7dbf21501072104a4e0000"
    },
};
static const struct replay_pkt seq_chk_pkts[] = {
    { 1,
      "50540000000a50540000000908004500002ca4e5400040067fe20a0101010a01"
      "01020001000259b5d93f0000000060027210dd190000020405b4"
    },
    { 2,
      "50540000000950540000000a08004500002c00004000400624c80a0101020a01"
      "0101000200017c35468459b5d940601272101a4f0000020405b4"
    },
    { 1,
      "50540000000a505400000009080045000028a4e6400040067fe50a0101010a01"
      "01020001000259b5d9407c35468550107210320c0000"
    },
    { 2,
      "50540000000950540000000a0800450000303b5f40004006e9640a0101020a01"
      "0101000200010000000000000000501872106a7300007061796c6f61640a"
    },
    { 1,
      "50540000000a505400000009080045000028a4e7400040067fe40a0101010a01"
      "01020001000259b5d9407c35468d5010721032040000"
    },
    { 2,
      "50540000000950540000000a0800450000283b6040004006e96b0a0101020a01"
      "0101000200017c35468d59b5d9405011721032030000"
    },
    { 1,
      "50540000000a505400000009080045000028a4e8400040067fe30a0101010a01"
      "01020001000259b5d9407c35468e5010721032030000"
    },
    { 1,
      "50540000000a505400000009080045000028a4e9400040067fe20a0101010a01"
      "01020001000259b5d9407c35468e5011721032020000"
    },
    { 2,
      "50540000000950540000000a0800450000283b6140004006e96a0a0101020a01"
      "0101000200017c35468e59b5d9415010721032020000"
    },
};

/* Runs PKTS and returns their ct_states in STATES. */
static void
replay(struct conntrack *ct, const struct replay_pkt *pkts, size_t n,
       uint32_t *states)
{
    for (size_t i = 0; i < n; i++) {
        const char *hex = pkts[i].hex;
        size_t len = strlen(hex) / 2;
        struct dp_packet *p = dp_packet_new(len + 64);
        uint8_t *data = dp_packet_put_uninit(p, len);
        for (size_t j = 0; j < len; j++) {
            data[j] = hexit_value(hex[2 * j]) * 16
                      + hexit_value(hex[2 * j + 1]);
        }
        struct flow f;
        pkt_metadata_init(&p->md, pkts[i].port);
        flow_extract(p, &f);
        struct ct_action a = act(0, pkts[i].port == 1);
        states[i] = run_free(ct, p, &a);
    }
}

START_TEST(test_replay_pick_up)
{
    struct conntrack *ct = conntrack_create();
    uint32_t st[ARRAY_SIZE(pick_up_pkts)];
    /* The first three: an established stream with window scaling, seen
     * from its middle. */
    replay(ct, pick_up_pkts, 3, st);
    ck_assert_uint_eq(st[0], TRK | NEW);
    ck_assert_uint_eq(dump_first(ct).tcp_state, CT_TCP_ESTABLISHED);
    ck_assert_uint_eq(ntohl(dump_first(ct).orig.src.ipv4), 0x0a010102);
    replay(ct, pick_up_pkts + 3, ARRAY_SIZE(pick_up_pkts) - 3, st + 3);
    for (size_t i = 0; i < ARRAY_SIZE(pick_up_pkts); i++) {
        ck_assert_msg(!(st[i] & INV), "packet %zu invalid", i);
    }
    conntrack_destroy(ct);
}
END_TEST

START_TEST(test_replay_port_reuse)
{
    struct conntrack *ct = conntrack_create();
    uint32_t st[ARRAY_SIZE(port_reuse_pkts)];
    replay(ct, port_reuse_pkts, ARRAY_SIZE(port_reuse_pkts), st);
    int n_new = 0;
    for (size_t i = 0; i < ARRAY_SIZE(port_reuse_pkts); i++) {
        if (port_reuse_pkts[i].port == 1) {
            ck_assert_msg(!(st[i] & (INV | RPL)), "packet %zu: %#x", i,
                          st[i]);
            n_new += (st[i] & NEW) != 0;
        } else {
            ck_assert_msg(st[i] == (TRK | EST | RPL), "packet %zu: %#x", i,
                          st[i]);
        }
    }
    /* The second SYN on the same ports started a second connection. */
    ck_assert_int_eq(n_new, 2);
    ck_assert_uint_eq(st[9], TRK | NEW);
    conntrack_destroy(ct);
}
END_TEST

START_TEST(test_replay_seq_chk)
{
    struct conntrack *ct = conntrack_create();
    uint32_t st[ARRAY_SIZE(seq_chk_pkts)];
    const size_t n = ARRAY_SIZE(seq_chk_pkts);

    /* The fourth packet acks nothing sensible: invalid... */
    replay(ct, seq_chk_pkts, n, st);
    for (size_t i = 0; i < n; i++) {
        ck_assert_msg((st[i] & INV) == (i == 3 ? INV : 0),
                      "packet %zu: %#x", i, st[i]);
    }
    /* ...unless sequence checking is off. */
    conntrack_flush(ct, NULL, NULL);
    conntrack_set_tcp_seq_chk(ct, false);
    replay(ct, seq_chk_pkts, n, st);
    for (size_t i = 0; i < n; i++) {
        ck_assert_msg(!(st[i] & INV), "packet %zu: %#x", i, st[i]);
    }
    ck_assert_uint_eq(st[3], TRK | EST | RPL);
    /* Back on: invalid again. */
    conntrack_flush(ct, NULL, NULL);
    conntrack_set_tcp_seq_chk(ct, true);
    replay(ct, seq_chk_pkts, n, st);
    ck_assert_uint_eq(st[3], TRK | INV);
    conntrack_destroy(ct);
}
END_TEST

START_TEST(test_icmp_related_3_1)
{
    /* "conntrack - ICMP related": an unreachable for a UDP flow nobody
     * sent is invalid; the one for the committed flow is related. */
    static const struct replay_pkt pkts[] = {
        { 2, "f64c473528c9c6f54ecb72db080045c0003d2e8700004001f351ac100004"
             "ac1000030303553f0000000045000021317040004011b138ac100003ac10"
             "000411112222000da5a06369616f0a" },
        { 1, "c6f94ecb72dbe64c473528c9080045000021317040004011b138ac100001"
             "ac100002a28e15b3000d20966369616f0a" },
        { 2, "e64c473528c9c6f94ecb72db080045c0003d2e8700004001f355ac100002"
             "ac1000010303553f0000000045000021317040004011b138ac100001ac10"
             "0002a28e15b3000d20966369616f0a" },
    };
    struct conntrack *ct = conntrack_create();
    uint32_t st[3];
    replay(ct, pkts, 3, st);
    ck_assert_uint_eq(st[0], TRK | INV);
    ck_assert_uint_eq(st[1], TRK | NEW);
    ck_assert_uint_eq(st[2], TRK | REL | RPL);
    conntrack_destroy(ct);
}
END_TEST

START_TEST(test_untrackable_3_1)
{
    /* "conntrack - untrackable traffic": a neighbour solicitation is
     * invalid and has no tuple. */
    static const struct replay_pkt nd[] = {
        { 2, "0060970769ea0000860580da86dd6000000000203afffe80000000000000"
             "020086fffe0580dafe80000000000000026097fffe0769ea870068bd0000"
             "0000fe80000000000000026097fffe0769ea01010000860580da" },
    };
    struct conntrack *ct = conntrack_create();
    const char *hex = nd[0].hex;
    size_t len = strlen(hex) / 2;
    struct dp_packet *p = dp_packet_new(len + 64);
    uint8_t *data = dp_packet_put_uninit(p, len);
    for (size_t j = 0; j < len; j++) {
        data[j] = hexit_value(hex[2 * j]) * 16 + hexit_value(hex[2 * j + 1]);
    }
    struct flow f;
    pkt_metadata_init(&p->md, 2);
    flow_extract(p, &f);
    struct ct_action a = act(0, false);
    ck_assert_uint_eq(run(ct, p, &a), TRK | INV);
    ck_assert_uint_eq(p->md.ct_nw_proto, 0);
    ck_assert(!p->md.ct_orig_ipv6);
    dp_packet_delete(p);
    conntrack_destroy(ct);
}
END_TEST

/* NAT
 * === */

/* Whether PKT's IPv4 header and L4 checksums are right. */
static bool
csums_ok(const struct dp_packet *p)
{
    const uint8_t *l3 = dp_packet_l3(p);
    const uint8_t *l4 = dp_packet_l4(p);
    size_t l4_len = (const uint8_t *) dp_packet_tail(p) - l4;
    uint32_t pseudo;
    uint8_t proto;

    if ((l3[0] >> 4) == 4) {
        const struct ip_header *ip = (const struct ip_header *) l3;
        if (csum(ip, IP_IHL(ip->ip_ihl_ver) * 4) != 0) {
            return false;
        }
        proto = ip->ip_proto;
        pseudo = proto == IPPROTO_ICMP ? 0
                 : csum_pseudo_ipv4(ip->ip_src, ip->ip_dst, proto, l4_len);
    } else {
        const struct ipv6_header *ip6 = (const struct ipv6_header *) l3;
        struct in6_addr s, d;
        memcpy(&s, &ip6->ip6_src, 16);
        memcpy(&d, &ip6->ip6_dst, 16);
        proto = ip6->ip6_nxt;
        pseudo = csum_pseudo_ipv6(&s, &d, proto, l4_len);
    }
    return csum_finish(csum_continue(pseudo, l4, l4_len)) == 0;
}

static struct ct_nat_action
nat_to(uint16_t flags, uint32_t min_ip, uint32_t max_ip, uint16_t min_port,
       uint16_t max_port)
{
    struct ct_nat_action n;
    memset(&n, 0, sizeof n);
    n.flags = flags;
    n.has_addr = min_ip != 0;
    n.min_addr.ipv4 = htonl(min_ip);
    n.max_addr.ipv4 = htonl(max_ip);
    n.min_port = min_port;
    n.max_port = max_port;
    return n;
}

static uint32_t
ip_src(const struct dp_packet *p)
{
    return ntohl(((const struct ip_header *) dp_packet_l3(p))->ip_src);
}

static uint32_t
ip_dst(const struct dp_packet *p)
{
    return ntohl(((const struct ip_header *) dp_packet_l3(p))->ip_dst);
}

static uint16_t
l4_port(const struct dp_packet *p, int which)
{
    const ovs_be16 *ports = dp_packet_l4(p);
    return ntohs(ports[which]);
}

#define X_IP 0x0b000001             /* 11.0.0.1, the SNAT address */
#define C_IP 0x0a000003

START_TEST(test_snat_and_reply)
{
    struct conntrack *ct = conntrack_create();
    struct ct_nat_action snat = nat_to(CT_NAT_SRC, X_IP, X_IP, 0, 0);
    struct ct_action commit = act(0, true);
    commit.nat = &snat;

    struct dp_packet *p = udp4(A_IP, B_IP, 1000, 53);
    ck_assert_uint_eq(run(ct, p, &commit), TRK | NEW | CS_SRC_NAT);
    ck_assert_uint_eq(ip_src(p), X_IP);
    ck_assert_uint_eq(ip_dst(p), B_IP);
    ck_assert_uint_eq(l4_port(p, 0), 1000);     /* Port kept if free. */
    ck_assert(csums_ok(p));
    /* The metadata keeps the original tuple. */
    ck_assert_uint_eq(ntohl(p->md.ct_nw_src), A_IP);
    dp_packet_delete(p);

    struct ct_entry e = dump_first(ct);
    ck_assert_uint_eq(ntohl(e.reply.dst.ipv4), X_IP);
    ck_assert_uint_eq(ntohl(e.reply.src.ipv4), B_IP);

    /* The reply through ct(nat): back to A. */
    struct ct_nat_action plain = nat_to(0, 0, 0, 0, 0);
    struct ct_action nat_only = act(0, false);
    nat_only.nat = &plain;
    p = udp4(B_IP, X_IP, 53, 1000);
    ck_assert_uint_eq(run(ct, p, &nat_only), TRK | EST | RPL | CS_DST_NAT);
    ck_assert_uint_eq(ip_dst(p), A_IP);
    ck_assert_uint_eq(ip_src(p), B_IP);
    ck_assert_uint_eq(l4_port(p, 1), 1000);
    ck_assert(csums_ok(p));
    dp_packet_delete(p);

    /* "nat" alone on a later original-direction packet translates it. */
    p = udp4(A_IP, B_IP, 1000, 53);
    ck_assert_uint_eq(run(ct, p, &nat_only), TRK | EST | CS_SRC_NAT);
    ck_assert_uint_eq(ip_src(p), X_IP);
    ck_assert(csums_ok(p));
    /* Once translated, another ct(nat) in the zone finds the connection
     * and leaves the packet alone. */
    ck_assert_uint_eq(run(ct, p, &nat_only), TRK | EST | CS_SRC_NAT);
    ck_assert_uint_eq(ip_src(p), X_IP);
    dp_packet_delete(p);

    /* Without nat, nothing is rewritten. */
    struct ct_action look = act(0, false);
    p = udp4(A_IP, B_IP, 1000, 53);
    ck_assert_uint_eq(run(ct, p, &look), TRK | EST);
    ck_assert_uint_eq(ip_src(p), A_IP);
    dp_packet_delete(p);
    conntrack_destroy(ct);
}
END_TEST

START_TEST(test_snat_collision_and_range)
{
    struct conntrack *ct = conntrack_create();
    struct ct_nat_action snat = nat_to(CT_NAT_SRC, X_IP, X_IP, 0, 0);
    struct ct_action commit = act(0, true);
    commit.nat = &snat;

    run_free(ct, udp4(A_IP, B_IP, 1000, 53), &commit);
    /* C uses the same source port: it gets another one. */
    struct dp_packet *p = udp4(C_IP, B_IP, 1000, 53);
    run(ct, p, &commit);
    uint16_t port = l4_port(p, 0);
    ck_assert_uint_eq(ip_src(p), X_IP);
    ck_assert_uint_ne(port, 1000);
    /* Of the same class as 1000 (600-1023), as in 3.1. */
    ck_assert_uint_ge(port, 600);
    ck_assert_uint_le(port, 1023);
    ck_assert(csums_ok(p));
    dp_packet_delete(p);

    /* Each reply goes to its own client. */
    struct ct_nat_action plain = nat_to(0, 0, 0, 0, 0);
    struct ct_action nat_only = act(0, false);
    nat_only.nat = &plain;
    p = udp4(B_IP, X_IP, 53, port);
    run(ct, p, &nat_only);
    ck_assert_uint_eq(ip_dst(p), C_IP);
    ck_assert_uint_eq(l4_port(p, 1), 1000);
    dp_packet_delete(p);
    p = udp4(B_IP, X_IP, 53, 1000);
    run(ct, p, &nat_only);
    ck_assert_uint_eq(ip_dst(p), A_IP);
    dp_packet_delete(p);

    /* A two-port range holds two connections; the third finds no
     * translation and is not committed. */
    struct ct_nat_action ranged = nat_to(CT_NAT_SRC, X_IP, X_IP, 5000, 5001);
    commit.nat = &ranged;
    uint16_t zone = 0;
    conntrack_flush(ct, &zone, NULL);
    bool seen[2] = { false, false };
    for (int i = 0; i < 3; i++) {
        p = udp4(A_IP, B_IP, 2000 + i, 53);
        uint32_t st = run(ct, p, &commit);
        if (i < 2) {
            ck_assert_uint_eq(st, TRK | NEW | CS_SRC_NAT);
            port = l4_port(p, 0);
            ck_assert(port == 5000 || port == 5001);
            seen[port - 5000] = true;
        } else {
            ck_assert_uint_eq(st, TRK | NEW);
            ck_assert_uint_eq(ip_src(p), A_IP);
        }
        dp_packet_delete(p);
    }
    ck_assert(seen[0] && seen[1]);
    ck_assert_uint_eq(conntrack_get_nconns(ct), 2);
    conntrack_destroy(ct);
}
END_TEST

START_TEST(test_dnat_port_and_tcp)
{
    struct conntrack *ct = conntrack_create();
    /* A virtual address B:80 served by C:8080. */
    struct ct_nat_action dnat = nat_to(CT_NAT_DST, C_IP, C_IP, 8080, 8080);
    struct ct_action commit = act(0, true);
    commit.nat = &dnat;
    struct ct_nat_action plain = nat_to(0, 0, 0, 0, 0);
    struct ct_action nat_only = act(0, false);
    nat_only.nat = &plain;

    struct dp_packet *p = tcp4(A_IP, B_IP, 40000, 80, TCP_SYN, 1, 0, 1000, 0);
    ck_assert_uint_eq(run(ct, p, &commit), TRK | NEW | CS_DST_NAT);
    ck_assert_uint_eq(ip_dst(p), C_IP);
    ck_assert_uint_eq(l4_port(p, 1), 8080);
    ck_assert_uint_eq(l4_port(p, 0), 40000);
    ck_assert(csums_ok(p));
    dp_packet_delete(p);

    p = tcp4(C_IP, A_IP, 8080, 40000, TCP_SYN | TCP_ACK, 100, 2, 1000, 0);
    ck_assert_uint_eq(run(ct, p, &nat_only),
                      TRK | EST | RPL | CS_SRC_NAT);
    ck_assert_uint_eq(ip_src(p), B_IP);
    ck_assert_uint_eq(l4_port(p, 0), 80);
    ck_assert(csums_ok(p));
    dp_packet_delete(p);
    conntrack_destroy(ct);
}
END_TEST

START_TEST(test_nat_icmp_related)
{
    struct conntrack *ct = conntrack_create();
    struct ct_nat_action snat = nat_to(CT_NAT_SRC, X_IP, X_IP, 0, 0);
    struct ct_action commit = act(0, true);
    commit.nat = &snat;
    struct ct_nat_action plain = nat_to(0, 0, 0, 0, 0);
    struct ct_action nat_only = act(0, false);
    nat_only.nat = &plain;

    /* A's packet leaves as X's. */
    struct dp_packet *out = udp4(A_IP, B_IP, 1234, 5678);
    run(ct, out, &commit);
    ck_assert_uint_eq(ip_src(out), X_IP);

    /* A router answers X with an error quoting the translated packet. */
    struct dp_packet *err = icmp4_error(R_IP, X_IP, 3, 3, out);
    ck_assert(csums_ok(err));
    ck_assert_uint_eq(run(ct, err, &nat_only),
                      TRK | REL | RPL | CS_DST_NAT);
    /* Outer and quoted headers now speak of A. */
    ck_assert_uint_eq(ip_dst(err), A_IP);
    ck_assert_uint_eq(ip_src(err), R_IP);
    const uint8_t *quoted = (const uint8_t *) dp_packet_l4(err)
                            + ICMP_HEADER_LEN;
    const struct ip_header *qip = (const struct ip_header *) quoted;
    ck_assert_uint_eq(ntohl(qip->ip_src), A_IP);
    ck_assert_uint_eq(ntohl(qip->ip_dst), B_IP);
    ck_assert_uint_eq(csum(qip, IP_HEADER_LEN), 0);
    ovs_be16 qport;
    memcpy(&qport, quoted + IP_HEADER_LEN, 2);
    ck_assert_uint_eq(ntohs(qport), 1234);
    ck_assert(csums_ok(err));
    dp_packet_delete(err);
    dp_packet_delete(out);
    conntrack_destroy(ct);
}
END_TEST

START_TEST(test_nat_ipv6)
{
    struct conntrack *ct = conntrack_create();
    struct ct_nat_action snat;
    memset(&snat, 0, sizeof snat);
    snat.flags = CT_NAT_SRC;
    snat.has_addr = true;
    inet_pton(AF_INET6, "fc00::99", &snat.min_addr.ipv6);
    snat.max_addr = snat.min_addr;
    struct ct_action commit = act(0, true);
    commit.nat = &snat;

    struct dp_packet *p = udp6(1, 2, 100, 200);
    ck_assert_uint_eq(run(ct, p, &commit), TRK | NEW | CS_SRC_NAT);
    const struct ipv6_header *ip6 = dp_packet_l3(p);
    struct in6_addr src;
    memcpy(&src, &ip6->ip6_src, 16);
    ck_assert_uint_eq(src.s6_addr[15], 0x99);
    ck_assert(csums_ok(p));
    dp_packet_delete(p);

    struct ct_nat_action plain = nat_to(0, 0, 0, 0, 0);
    struct ct_action nat_only = act(0, false);
    nat_only.nat = &plain;
    struct flow f = ip6_flow(2, 1, IPPROTO_UDP, 200, 100);
    f.ipv6_dst = snat.min_addr.ipv6;
    p = dp_packet_new(256);
    flow_compose(p, &f, 20);
    ck_assert_uint_eq(run(ct, p, &nat_only), TRK | EST | RPL | CS_DST_NAT);
    ip6 = dp_packet_l3(p);
    struct in6_addr dst;
    memcpy(&dst, &ip6->ip6_dst, 16);
    ck_assert_uint_eq(dst.s6_addr[15], 1);
    ck_assert(csums_ok(p));
    dp_packet_delete(p);
    conntrack_destroy(ct);
}
END_TEST

/* FTP and TFTP
 * ============ */

/* A TCP segment whose payload is TEXT. */
static struct dp_packet *
tcp4_text(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport,
          uint32_t seq, uint32_t ack, const char *text)
{
    size_t n = strlen(text);
    struct dp_packet *p = tcp4(src, dst, sport, dport, TCP_ACK | TCP_PSH,
                               seq, ack, 65535, n);
    memcpy((uint8_t *) dp_packet_l4(p) + TCP_HEADER_LEN, text, n);
    fix_l4_csum(p);
    return p;
}

static const char *
tcp_payload(const struct dp_packet *p, size_t *n)
{
    const uint8_t *l4 = dp_packet_l4(p);
    const struct ip_header *ip = dp_packet_l3(p);
    *n = ntohs(ip->ip_tot_len) - IP_HEADER_LEN - TCP_HEADER_LEN;
    return (const char *) l4 + TCP_HEADER_LEN;
}

static uint32_t
tcp_seq(const struct dp_packet *p)
{
    return ntohl(((const struct tcp_header *) dp_packet_l4(p))->tcp_seq);
}

static uint32_t
tcp_ack(const struct dp_packet *p)
{
    return ntohl(((const struct tcp_header *) dp_packet_l4(p))->tcp_ack);
}

/* Opens an FTP control connection A:40000 -> B:21 through ACT. */
static void
ftp_open(struct conntrack *ct, const struct ct_action *act_)
{
    run_free(ct, tcp4(A_IP, B_IP, 40000, 21, TCP_SYN, 100, 0, 65535, 0),
             act_);
    run_free(ct, tcp4(B_IP, A_IP, 21, 40000, TCP_SYN | TCP_ACK, 500, 101,
                      65535, 0), act_);
    run_free(ct, tcp4(A_IP, B_IP, 40000, 21, TCP_ACK, 101, 501, 65535, 0),
             act_);
}

START_TEST(test_ftp_active_and_passive)
{
    struct conntrack *ct = conntrack_create();
    struct ct_action ftp = act(0, true);
    ftp.alg = CT_ALG_FTP;
    ftp.set_mark = true;
    ftp.mark_value = 0x77;
    ftp.mark_mask = 0xffffffff;
    ftp_open(ct, &ftp);
    struct ct_entry e = dump_first(ct);
    ck_assert_str_eq(e.helper, "ftp");

    /* PORT 10.0.0.1:(156*256+64 = 40000).  The server's data connection
     * from port 20 is related, carries the control connection's tuple
     * and mark, and is new. */
    const char *port_cmd = "PORT 10,0,0,1,156,65\r\n";
    ck_assert_uint_eq(run_free(ct, tcp4_text(A_IP, B_IP, 40000, 21, 101, 501,
                                             port_cmd), &ftp), TRK | EST);
    struct ct_action look = act(0, false);
    struct dp_packet *p = tcp4(B_IP, A_IP, 20, 40001, TCP_SYN, 9, 0, 65535,
                               0);
    ck_assert_uint_eq(run(ct, p, &look), TRK | NEW | REL);
    ck_assert_uint_eq(ntohs(p->md.ct_tp_dst), 21);
    ck_assert_uint_eq(p->md.ct_mark, 0x77);
    dp_packet_delete(p);
    struct ct_action commit = act(0, true);
    p = tcp4(B_IP, A_IP, 20, 40001, TCP_SYN, 9, 0, 65535, 0);
    ck_assert_uint_eq(run(ct, p, &commit), TRK | NEW | REL);
    dp_packet_delete(p);
    /* Its reply is related too, and established. */
    ck_assert_uint_eq(run_free(ct, tcp4(A_IP, B_IP, 40001, 20,
                                        TCP_SYN | TCP_ACK, 77, 10, 65535, 0),
                               &look), TRK | EST | REL | RPL);
    ck_assert_uint_eq(conntrack_get_nconns(ct), 2);
    /* The expectation was used up: another one (any source port would
     * have matched) is plain new. */
    ck_assert_uint_eq(run_free(ct, tcp4(B_IP, A_IP, 2020, 40001, TCP_SYN, 9,
                                        0, 65535, 0), &look), TRK | NEW);

    /* PASV: the server names its port; the client connects. */
    size_t n = strlen(port_cmd);
    const char *pasv = "227 Entering Passive Mode (10,0,0,2,200,10).\r\n";
    ck_assert_uint_eq(run_free(ct, tcp4_text(B_IP, A_IP, 21, 40000, 501,
                                             101 + n, pasv), &ftp),
                      TRK | EST | RPL);
    ck_assert_uint_eq(run_free(ct, tcp4(A_IP, B_IP, 40123, 200 * 256 + 10,
                                        TCP_SYN, 1, 0, 65535, 0), &look),
                      TRK | NEW | REL);

    /* EPSV. */
    const char *epsv = "229 Entering Extended Passive Mode (|||6446|)\r\n";
    run_free(ct, tcp4_text(B_IP, A_IP, 21, 40000, 501 + strlen(pasv),
                           101 + n, epsv), &ftp);
    ck_assert_uint_eq(run_free(ct, tcp4(A_IP, B_IP, 40124, 6446, TCP_SYN, 1,
                                        0, 65535, 0), &look),
                      TRK | NEW | REL);

    /* A PORT naming somebody else opens nothing. */
    run_free(ct, tcp4_text(A_IP, B_IP, 40000, 21, 101 + n, 501,
                           "PORT 10,0,0,9,1,1\r\n"), &ftp);
    ck_assert_uint_eq(run_free(ct, tcp4(B_IP, 0x0a000009, 20, 257, TCP_SYN,
                                        9, 0, 65535, 0), &look), TRK | NEW);

    /* Flushing the control connection forgets its expectations. */
    run_free(ct, tcp4_text(A_IP, B_IP, 40000, 21, 101 + 2 * n, 501,
                           "EPRT |1|10.0.0.1|5555|\r\n"), &ftp);
    ck_assert_uint_eq(run_free(ct, tcp4(B_IP, A_IP, 20, 5555, TCP_SYN, 9, 0,
                                        65535, 0), &look), TRK | NEW | REL);
    conntrack_flush(ct, NULL, NULL);
    ck_assert_uint_eq(run_free(ct, tcp4(B_IP, A_IP, 20, 5555, TCP_SYN, 9, 0,
                                        65535, 0), &look), TRK | NEW);
    conntrack_destroy(ct);
}
END_TEST

START_TEST(test_ftp_snat_rewrite)
{
    struct conntrack *ct = conntrack_create();
    /* A is hidden behind 192.168.100.200: its PORT text grows by 9. */
    const uint32_t nat_ip = 0xc0a864c8;
    struct ct_nat_action snat = nat_to(CT_NAT_SRC, nat_ip, nat_ip, 0, 0);
    struct ct_action out = act(0, true);
    out.alg = CT_ALG_FTP;
    out.nat = &snat;
    struct ct_nat_action plain = nat_to(0, 0, 0, 0, 0);
    struct ct_action in = act(0, false);
    in.nat = &plain;

    run_free(ct, tcp4(A_IP, B_IP, 40000, 21, TCP_SYN, 100, 0, 65535, 0),
             &out);
    struct dp_packet *p = tcp4(B_IP, nat_ip, 21, 40000, TCP_SYN | TCP_ACK,
                               500, 101, 65535, 0);
    ck_assert_uint_eq(run(ct, p, &in), TRK | EST | RPL | CS_DST_NAT);
    dp_packet_delete(p);
    run_free(ct, tcp4(A_IP, B_IP, 40000, 21, TCP_ACK, 101, 501, 65535, 0),
             &out);

    const char *cmd = "PORT 10,0,0,1,19,137\r\n";      /* Port 5001. */
    p = tcp4_text(A_IP, B_IP, 40000, 21, 101, 501, cmd);
    ck_assert_uint_eq(run(ct, p, &out), TRK | EST | CS_SRC_NAT);
    size_t n;
    const char *pl = tcp_payload(p, &n);
    const char *want = "PORT 192,168,100,200,19,137\r\n";
    ck_assert_uint_eq(n, strlen(want));
    ck_assert(!memcmp(pl, want, n));
    ck_assert_uint_eq(ip_src(p), nat_ip);
    ck_assert(csums_ok(p));
    dp_packet_delete(p);
    int skew = (int) strlen(want) - (int) strlen(cmd);

    /* B acks what it got (the longer text); A sees its own numbers. */
    uint32_t a_next = 101 + strlen(cmd);
    p = tcp4(B_IP, nat_ip, 21, 40000, TCP_ACK, 501, a_next + skew, 65535, 0);
    ck_assert_uint_eq(run(ct, p, &in), TRK | EST | RPL | CS_DST_NAT);
    ck_assert_uint_eq(tcp_ack(p), a_next);
    ck_assert(csums_ok(p));
    dp_packet_delete(p);
    /* A's next bytes are numbered after the longer text for B. */
    p = tcp4_text(A_IP, B_IP, 40000, 21, a_next, 501, "LIST\r\n");
    ck_assert_uint_eq(run(ct, p, &out), TRK | EST | CS_SRC_NAT);
    ck_assert_uint_eq(tcp_seq(p), a_next + skew);
    ck_assert(csums_ok(p));
    /* Through the zone's ct(nat) again: not shifted twice. */
    ck_assert_uint_eq(run(ct, p, &out), TRK | EST | CS_SRC_NAT);
    ck_assert_uint_eq(tcp_seq(p), a_next + skew);
    ck_assert_uint_eq(ip_src(p), nat_ip);
    dp_packet_delete(p);

    /* B connects to the translated address: related, and sent on to A. */
    struct ct_action data = act(0, true);
    data.nat = &plain;
    p = tcp4(B_IP, nat_ip, 20, 5001, TCP_SYN, 9, 0, 65535, 0);
    ck_assert_uint_eq(run(ct, p, &data), TRK | NEW | REL | CS_DST_NAT);
    ck_assert_uint_eq(ip_dst(p), A_IP);
    ck_assert(csums_ok(p));
    dp_packet_delete(p);
    p = tcp4(A_IP, B_IP, 5001, 20, TCP_SYN | TCP_ACK, 1, 10, 65535, 0);
    ck_assert_uint_eq(run(ct, p, &data), TRK | EST | REL | RPL | CS_SRC_NAT);
    ck_assert_uint_eq(ip_src(p), nat_ip);
    dp_packet_delete(p);
    conntrack_destroy(ct);
}
END_TEST

START_TEST(test_ftp_eprt_ipv6_snat)
{
    struct conntrack *ct = conntrack_create();
    struct ct_nat_action snat;
    memset(&snat, 0, sizeof snat);
    snat.flags = CT_NAT_SRC;
    snat.has_addr = true;
    inet_pton(AF_INET6, "fc00::abcd", &snat.min_addr.ipv6);
    snat.max_addr = snat.min_addr;
    struct ct_action out = act(0, true);
    out.alg = CT_ALG_FTP;
    out.nat = &snat;

    /* The control connection fc00::1 -> fc00::2:21, already open. */
    const char *cmd = "EPRT |2|fc00::1|5001|\r\n";
    size_t n = strlen(cmd);
    struct flow f = ip6_flow(1, 2, IPPROTO_TCP, 40000, 21);
    f.tcp_flags = htons(TCP_ACK | TCP_PSH);
    struct dp_packet *p = dp_packet_new(256);
    flow_compose(p, &f, n);
    struct tcp_header *tcp = dp_packet_l4(p);
    tcp->tcp_ctl = htons((5 << 12) | TCP_ACK | TCP_PSH);
    tcp->tcp_seq = htonl(1);
    tcp->tcp_ack = htonl(1);
    tcp->tcp_winsz = htons(65535);
    memcpy((uint8_t *) tcp + TCP_HEADER_LEN, cmd, n);
    fix_l4_csum(p);

    ck_assert_uint_eq(run(ct, p, &out), TRK | NEW | CS_SRC_NAT);
    const struct ipv6_header *ip6 = dp_packet_l3(p);
    size_t plen = ntohs(ip6->ip6_plen) - TCP_HEADER_LEN;
    const char *want = "EPRT |2|fc00::abcd|5001|\r\n";
    ck_assert_uint_eq(plen, strlen(want));
    ck_assert(!memcmp((const uint8_t *) dp_packet_l4(p) + TCP_HEADER_LEN,
                      want, plen));
    ck_assert_uint_eq(dp_packet_size(p),
                      ETH_HEADER_LEN + IPV6_HEADER_LEN + TCP_HEADER_LEN
                      + plen);
    ck_assert(csums_ok(p));
    dp_packet_delete(p);
    conntrack_destroy(ct);
}
END_TEST

START_TEST(test_tftp)
{
    struct conntrack *ct = conntrack_create();
    struct ct_action tftp = act(0, true);
    tftp.alg = CT_ALG_TFTP;
    ck_assert_uint_eq(run_free(ct, udp4(A_IP, B_IP, 5000, 69), &tftp),
                      TRK | NEW);
    ck_assert_str_eq(dump_first(ct).helper, "tftp");
    /* The server answers from another port. */
    struct ct_action look = act(0, false);
    struct dp_packet *p = udp4(B_IP, A_IP, 6123, 5000);
    ck_assert_uint_eq(run(ct, p, &look), TRK | NEW | REL);
    ck_assert_uint_eq(ntohs(p->md.ct_tp_dst), 69);
    dp_packet_delete(p);
    /* Without the helper, the same answer is unrelated. */
    conntrack_flush(ct, NULL, NULL);
    run_commit(ct, udp4(A_IP, B_IP, 5000, 69), 0);
    ck_assert_uint_eq(run_free(ct, udp4(B_IP, A_IP, 6123, 5000), &look),
                      TRK | NEW);
    conntrack_destroy(ct);
}
END_TEST

/* A connection that closes after a long life is freed after the close
 * timeout, not after the established one it was filed under. */
START_TEST(test_closed_tcp_freed_soon)
{
    time_stop();
    struct conntrack *ct = conntrack_create();
    run_commit(ct, tcp4(A_IP, B_IP, 3, 4, TCP_SYN, 10, 0, 1000, 0), 0);
    run_commit(ct, tcp4(B_IP, A_IP, 4, 3, TCP_SYN | TCP_ACK, 50, 11, 1000,
                        0), 0);
    run_commit(ct, tcp4(A_IP, B_IP, 3, 4, TCP_ACK, 11, 51, 1000, 0), 0);
    /* Past the first filing: the sweeper files it under 24 hours. */
    time_warp(31 * 1000);
    struct timespec ts = { 0, 300 * 1000 * 1000 };
    nanosleep(&ts, NULL);
    ck_assert_uint_eq(conntrack_get_nconns(ct), 1);

    run_commit(ct, tcp4(A_IP, B_IP, 3, 4, TCP_FIN | TCP_ACK, 11, 51, 1000, 0),
               0);
    run_commit(ct, tcp4(B_IP, A_IP, 4, 3, TCP_FIN | TCP_ACK, 51, 12, 1000, 0),
               0);
    run_commit(ct, tcp4(A_IP, B_IP, 3, 4, TCP_ACK, 12, 52, 1000, 0), 0);
    ck_assert_uint_eq(dump_first(ct).timeout_s, 30);
    time_warp(31 * 1000);
    CHECK_WAIT_FOR(nconns_is(ct, 0));
    conntrack_destroy(ct);
}
END_TEST

/* Damaged packets
 * =============== */

/* Runs FRAME (LEN bytes, alone at the end of its heap block so that a
 * read past it is an ASan error) through ct(commit, nat, alg=ftp), after
 * fixing its checksums when FIX_CSUMS so that the damage reaches the
 * deeper parsers.  The tracker must track it, one way or another. */
static void
exercise(struct conntrack *ct, const uint8_t *frame, size_t len,
         bool fix_csums)
{
    uint8_t *block = xmalloc(len ? len : 1);
    memcpy(block, frame, len);
    struct dp_packet p;
    dp_packet_use_foreign(&p, block, len, 0, len);
    pkt_metadata_init(&p.md, 1);
    struct flow f;
    flow_extract(&p, &f);

    uint16_t dl_type = ntohs(f.dl_type);
    if (fix_csums && dp_packet_l4(&p) && dl_type == ETH_TYPE_IP
        && f.nw_proto != IPPROTO_TCP && f.nw_proto != IPPROTO_UDP
        && f.nw_proto != IPPROTO_ICMP) {
        fix_csums = false;
    }
    if (fix_csums && dp_packet_l4(&p)) {
        uint8_t *l3 = dp_packet_l3(&p);
        if (dl_type == ETH_TYPE_IP) {
            struct ip_header *ip = (struct ip_header *) l3;
            size_t hlen = IP_IHL(ip->ip_ihl_ver) * 4;
            if (hlen >= IP_HEADER_LEN && hlen <= dp_packet_l3_size(&p)) {
                ip->ip_csum = 0;
                ip->ip_csum = csum(ip, hlen);
            }
        }
        size_t l4_size = dp_packet_l4_size(&p);
        if ((f.nw_proto == IPPROTO_TCP && l4_size >= TCP_HEADER_LEN)
            || (f.nw_proto == IPPROTO_UDP && l4_size >= UDP_HEADER_LEN)
            || l4_size >= ICMP_HEADER_LEN) {
            fix_l4_csum(&p);
        }
    }

    struct ct_nat_action snat = nat_to(CT_NAT_SRC, X_IP, X_IP + 3, 0, 0);
    struct ct_action a = act(0, true);
    a.nat = &snat;
    a.alg = CT_ALG_FTP;
    struct dp_packet_batch b;
    dp_packet_batch_init_packet(&b, &p);
    conntrack_execute(ct, &b, dl_type, &a, time_msec());
    uint32_t st = p.md.ct_state;
    CHECK(st & TRK);
    CHECK(!(st & INV) || !(st & (NEW | EST | REL)));
    dp_packet_uninit(&p);
    free(block);
}

START_TEST(test_damaged_packets)
{
    struct conntrack *ct = conntrack_create();
    struct dp_packet *seeds[6];
    seeds[0] = tcp4_text(A_IP, B_IP, 40000, 21, 1, 1,
                         "PORT 10,0,0,1,19,137\r\n");
    seeds[1] = tcp4_text(B_IP, A_IP, 21, 40000, 1, 1,
                         "227 Entering Passive Mode (10,0,0,2,1,2).\r\n");
    seeds[2] = tcp4_text(A_IP, B_IP, 40000, 21, 1, 1,
                         "EPRT |1|10.0.0.1|5555|\r\n");
    struct dp_packet *inner = udp4(A_IP, B_IP, 1, 2);
    seeds[3] = icmp4_error(R_IP, A_IP, 3, 1, inner);
    seeds[4] = udp6(1, 2, 100, 200);
    seeds[5] = icmp4_echo(A_IP, B_IP, 8, 9);
    dp_packet_delete(inner);

    uint32_t r = 12345;
    size_t n = check_iterations(3000, 50);
    for (size_t k = 0; k < ARRAY_SIZE(seeds); k++) {
        const uint8_t *data = dp_packet_data(seeds[k]);
        size_t len = dp_packet_size(seeds[k]);
        uint8_t *buf = xmalloc(len);

        /* Every truncation. */
        for (size_t cut = 0; cut <= len; cut++) {
            exercise(ct, data, cut, false);
        }
        /* Random damage past the Ethernet header, checksums fixed up. */
        for (size_t i = 0; i < n; i++) {
            memcpy(buf, data, len);
            int flips = 1 + i % 4;
            for (int j = 0; j < flips; j++) {
                r = r * 1103515245 + 12345;
                size_t pos = ETH_HEADER_LEN + (r >> 8) % (len - ETH_HEADER_LEN);
                r = r * 1103515245 + 12345;
                buf[pos] = r >> 16;
            }
            r = r * 1103515245 + 12345;
            size_t cut = len - (r >> 8) % 8;
            exercise(ct, buf, cut, true);
        }
        free(buf);
        dp_packet_delete(seeds[k]);
    }
    conntrack_destroy(ct);
}
END_TEST

/* Two threads execute packets of many connections while a third flushes:
 * run under the sanitizers, it checks that nothing is used after free and
 * that counts stay consistent. */
struct stress_aux {
    struct conntrack *ct;
    int seed;
    atomic_bool stop;
    int n_created;
};

static void *
stress_exec(void *aux_)
{
    struct stress_aux *aux = aux_;
    struct dp_packet *pkts[NETDEV_MAX_BURST];
    for (int i = 0; i < NETDEV_MAX_BURST; i++) {
        pkts[i] = dp_packet_new(256);
    }
    struct ct_action a = act(0, true);
    unsigned int r = aux->seed;
    for (int round = 0; round < 300; round++) {
        struct dp_packet_batch b;
        dp_packet_batch_init(&b);
        for (int i = 0; i < NETDEV_MAX_BURST; i++) {
            r = r * 1103515245 + 12345;
            uint16_t port = 1 + (r >> 16) % 200;
            bool back = (r >> 8) & 1;
            struct flow f = back
                ? ip4_flow(B_IP, A_IP, IPPROTO_UDP, 53, port)
                : ip4_flow(A_IP, B_IP, IPPROTO_UDP, port, 53);
            flow_compose(pkts[i], &f, 8);
            dp_packet_batch_add(&b, pkts[i]);
        }
        dp_epoch_enter();
        conntrack_execute(aux->ct, &b, ETH_TYPE_IP, &a, time_msec());
        dp_epoch_exit();
        for (int i = 0; i < NETDEV_MAX_BURST; i++) {
            CHECK(pkts[i]->md.ct_state & TRK);
            CHECK(!(pkts[i]->md.ct_state & INV));
        }
    }
    for (int i = 0; i < NETDEV_MAX_BURST; i++) {
        dp_packet_delete(pkts[i]);
    }
    return NULL;
}

static void *
stress_flush(void *aux_)
{
    struct stress_aux *aux = aux_;
    while (!atomic_load(&aux->stop)) {
        conntrack_flush(aux->ct, NULL, NULL);
        dump_count(aux->ct, NULL);
        dp_epoch_reclaim();
    }
    return NULL;
}

START_TEST(test_stress_threads)
{
    struct stress_aux x = { .ct = conntrack_create(), .seed = 1 };
    struct stress_aux y = { .ct = x.ct, .seed = 2 };
    atomic_init(&x.stop, false);
    pthread_t t1, t2, t3;
    pthread_create(&t3, NULL, stress_flush, &x);
    pthread_create(&t1, NULL, stress_exec, &x);
    pthread_create(&t2, NULL, stress_exec, &y);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    atomic_store(&x.stop, true);
    pthread_join(t3, NULL);

    /* No connection is in the table twice. */
    int n = dump_count(x.ct, NULL);
    ck_assert_uint_eq(conntrack_get_nconns(x.ct), n);
    ck_assert_int_le(n, 400);
    conntrack_flush(x.ct, NULL, NULL);
    ck_assert_uint_eq(conntrack_get_nconns(x.ct), 0);
    conntrack_destroy(x.ct);
    dp_epoch_synchronize();
}
END_TEST

/* The table grows while two threads keep creating connections; every
 * connection stays findable from both sides. */
static void *
grow_exec(void *aux_)
{
    struct stress_aux *aux = aux_;
    struct ct_action a = act(0, true);
    struct dp_packet *p = dp_packet_new(256);
    uint32_t count;
    int after_growth = -1;

    /* Until the table has grown, and as many again after. */
    for (int i = 0; i < 100000 && after_growth != 0; i++) {
        struct flow f = ip4_flow(A_IP + aux->seed, B_IP, IPPROTO_UDP,
                                 1 + i % 60000, 1000 + i / 60000);
        flow_compose(p, &f, 8);
        struct dp_packet_batch b;
        dp_packet_batch_init_packet(&b, p);
        conntrack_execute(aux->ct, &b, ETH_TYPE_IP, &a, time_msec());
        CHECK(p->md.ct_state == (TRK | NEW));
        aux->n_created = i + 1;
        if (after_growth > 0) {
            after_growth--;
        } else if (after_growth < 0 && i % 256 == 0
                   && conntrack_get_buckets(aux->ct, &count, 1) > 65536) {
            after_growth = i;
        }
    }
    dp_packet_delete(p);
    return NULL;
}

START_TEST(test_table_grows)
{
    struct stress_aux x = { .ct = conntrack_create(), .seed = 0 };
    struct stress_aux y = { .ct = x.ct, .seed = 100 };
    uint32_t count;
    size_t n0 = conntrack_get_buckets(x.ct, &count, 1);

    pthread_t t1, t2;
    pthread_create(&t1, NULL, grow_exec, &x);
    pthread_create(&t2, NULL, grow_exec, &y);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    int n = x.n_created + y.n_created;
    ck_assert_uint_eq(conntrack_get_nconns(x.ct), n);
    size_t n1 = conntrack_get_buckets(x.ct, &count, 1);
    ck_assert_uint_gt(n1, n0);

    uint32_t *counts = xcalloc(n1, sizeof *counts);
    conntrack_get_buckets(x.ct, counts, n1);
    uint64_t total = 0;
    for (size_t i = 0; i < n1; i++) {
        total += counts[i];
    }
    ck_assert_uint_eq(total, 2 * (uint64_t) n);
    free(counts);

    /* Every reply finds its connection. */
    struct ct_action look = act(0, false);
    struct dp_packet *p = dp_packet_new(256);
    const struct stress_aux *sides[2] = { &x, &y };
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < sides[k]->n_created; i++) {
            struct flow f = ip4_flow(B_IP, A_IP + sides[k]->seed,
                                     IPPROTO_UDP, 1000 + i / 60000,
                                     1 + i % 60000);
            flow_compose(p, &f, 8);
            CHECK(run(x.ct, p, &look) == (TRK | EST | RPL));
        }
    }
    dp_packet_delete(p);
    ck_assert_int_eq(dump_count(x.ct, NULL), n);
    conntrack_destroy(x.ct);
}
END_TEST

static Suite *
conntrack_suite(void)
{
    Suite *s = suite_create("conntrack");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_udp_states_and_tuple);
    tcase_add_test(tc, test_no_commit_no_entry);
    tcase_add_test(tc, test_zones_are_separate);
    tcase_add_test(tc, test_mark_label_on_commit);
    tcase_add_test(tc, test_tcp_handshake_and_close);
    tcase_add_test(tc, test_tcp_invalid_flags);
    tcase_add_test(tc, test_tcp_window_and_seq_chk);
    tcase_add_test(tc, test_tcp_port_reuse);
    tcase_add_test(tc, test_tcp_pick_up);
    tcase_add_test(tc, test_icmp_echo);
    tcase_add_test(tc, test_icmp_related);
    tcase_add_test(tc, test_ipv6_udp_and_icmpv6_related);
    tcase_add_test(tc, test_bad_packets_invalid);
    tcase_add_test(tc, test_force_recommits);
    tcase_add_test(tc, test_dump_flush_stats);
    tcase_add_test(tc, test_limits);
    tcase_add_test(tc, test_expiry_and_policy);
    tcase_add_test(tc, test_flush_expired);
    tcase_add_test(tc, test_replay_pick_up);
    tcase_add_test(tc, test_replay_port_reuse);
    tcase_add_test(tc, test_replay_seq_chk);
    tcase_add_test(tc, test_icmp_related_3_1);
    tcase_add_test(tc, test_untrackable_3_1);
    tcase_add_test(tc, test_snat_and_reply);
    tcase_add_test(tc, test_snat_collision_and_range);
    tcase_add_test(tc, test_dnat_port_and_tcp);
    tcase_add_test(tc, test_nat_icmp_related);
    tcase_add_test(tc, test_nat_ipv6);
    tcase_add_test(tc, test_ftp_active_and_passive);
    tcase_add_test(tc, test_ftp_snat_rewrite);
    tcase_add_test(tc, test_ftp_eprt_ipv6_snat);
    tcase_add_test(tc, test_tftp);
    tcase_add_test(tc, test_closed_tcp_freed_soon);
    tcase_add_test(tc, test_damaged_packets);
    tcase_add_test(tc, test_stress_threads);
    tcase_add_test(tc, test_table_grows);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(conntrack_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
