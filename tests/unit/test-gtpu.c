/* Unit tests for GTP-U (3GPP TS 29.281) in native tunneling: the header
 * tnl_header_build() makes (3.1's defaults, the flow's flags and message
 * type, options:seq), its tnl_push text printed as 3.1 prints it and
 * parsed back, push and pop round trips of IPv4 and IPv6 user packets
 * over IPv4 and IPv6 (lengths, UDP checksums, sequence numbers, the
 * optional fields and extension headers stripped), signalling messages
 * kept whole with their metadata, malformed packets refused and counted,
 * and gtpu(flags=..,msgtype=..) in datapath tunnel keys and
 * set(tunnel(...)). */
#include <config.h>
#include "tnl-header.h"

#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "coverage.h"
#include "csum.h"
#include "dp-packet.h"
#include "dynamic-string.h"
#include "flow-extract.h"
#include "flow.h"
#include "ip-addr.h"
#include "netlink.h"
#include "odp-util.h"
#include "ofpbuf.h"
#include "tunnel-config.h"
#include "util.h"
#include "check-util.h"
#include "tnl-header-check.h"

static struct eth_addr
mac(const char *s)
{
    struct eth_addr ea;
    ck_assert(eth_addr_from_string(s, &ea));
    return ea;
}

static struct in6_addr
addr(const char *s)
{
    struct in6_addr a;
    ovs_be32 ip;
    if (inet_pton(AF_INET, s, &ip) == 1) {
        return in6_addr_mapped_ipv4(ip);
    }
    ck_assert_int_eq(inet_pton(AF_INET6, s, &a), 1);
    return a;
}

static struct tunnel_config
gtpu_cfg(bool seq)
{
    struct tunnel_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.dst_port = htons(TNL_GTPU_PORT);
    cfg.ttl = 64;
    cfg.dont_fragment = true;
    cfg.out_key_present = true;
    cfg.set_seq = seq;
    return cfg;
}

/* Builds a GTP-U header to 1.1.2.92 (or 2001:cafe::92 when IPV6) for
 * TEID 123 and the tunnel's GTPU_FLAGS and MSGTYPE (0: the defaults),
 * carrying PACKET_TYPE; returns tnl_header_build()'s result. */
static int
build(bool ipv6, bool seq, uint8_t gtpu_flags, uint8_t msgtype,
      ovs_be32 packet_type, struct tnl_push_action *d)
{
    struct tunnel_config cfg = gtpu_cfg(seq);
    struct flow_tnl tnl;
    memset(&tnl, 0, sizeof tnl);
    if (ipv6) {
        tnl.ipv6_dst = addr("2001:cafe::92");
    } else {
        tnl.ip_dst = htonl(0x0101025c);
    }
    tnl.tun_id = htonll(123);
    tnl.ip_ttl = 64;
    tnl.flags = FLOW_TNL_F_DONT_FRAGMENT | FLOW_TNL_F_KEY;
    tnl.gtpu_flags = gtpu_flags;
    tnl.gtpu_msgtype = msgtype;
    struct tnl_header_params p = {
        .type = TNL_TYPE_GTPU,
        .cfg = &cfg,
        .tnl = &tnl,
        .packet_type = packet_type,
        .dmac = mac("f8:bc:12:44:34:b6"),
        .smac = mac("aa:55:aa:55:00:00"),
        .src = addr(ipv6 ? "2001:cafe::88" : "1.1.2.88"),
    };
    memset(d, 0, sizeof *d);
    return tnl_header_build(&p, d);
}


START_TEST(test_gtpu_build_text)
{
    struct tnl_push_action d;
    ck_assert_int_eq(build(false, false, 0, 0, htonl(PT_IPV4), &d), 0);
    /* Byte for byte what 3.1's tunnel_push_pop test expects. */
    check_tnl_header_text(&d, "header(size=50,type=110,eth(dst=f8:bc:12:44:34:b6,"
               "src=aa:55:aa:55:00:00,dl_type=0x0800),ipv4(src=1.1.2.88,"
               "dst=1.1.2.92,proto=17,tos=0,ttl=64,frag=0x4000),udp(src=0,"
               "dst=2152,csum=0x0),gtpu(flags=0x30,msgtype=255,teid=0x7b))");

    /* The flow's flags and message type win; over IPv6 the UDP checksum
     * is on. */
    ck_assert_int_eq(build(true, false, 0x30, 1, htonl(PT_IPV6), &d), 0);
    check_tnl_header_text(&d, "header(size=70,type=110,eth(dst=f8:bc:12:44:34:b6,"
               "src=aa:55:aa:55:00:00,dl_type=0x86dd),ipv6(src=2001:cafe::88,"
               "dst=2001:cafe::92,label=0,proto=17,tclass=0x0,hlimit=64),"
               "udp(src=0,dst=2152,csum=0xffff),gtpu(flags=0x30,msgtype=1,"
               "teid=0x7b))");

    /* options:seq sets S and adds the optional fields. */
    ck_assert_int_eq(build(false, true, 0, 0, htonl(PT_IPV4), &d), 0);
    ck_assert_uint_eq(d.header_len, 54);
    check_tnl_header_text(&d, "header(size=54,type=110,eth(dst=f8:bc:12:44:34:b6,"
               "src=aa:55:aa:55:00:00,dl_type=0x0800),ipv4(src=1.1.2.88,"
               "dst=1.1.2.92,proto=17,tos=0,ttl=64,frag=0x4000),udp(src=0,"
               "dst=2152,csum=0x0),gtpu(flags=0x32,msgtype=255,teid=0x7b))");

    /* A header whose flags announce the optional fields must have them
     * (else its text would not parse back to it). */
    char *why = NULL;
    ck_assert(tnl_header_validate(&d, TNL_PUSH_ACTION_FIXED + d.header_len,
                                  NULL));
    d.header_len -= 4;
    ck_assert(!tnl_header_validate(&d, TNL_PUSH_ACTION_FIXED + d.header_len,
                                   &why));
    ck_assert(why);
    free(why);

    /* GTP-U carries no Ethernet, and a G-PDU carries IP. */
    ck_assert_int_eq(build(false, false, 0, 0, htonl(PT_ETH), &d), EINVAL);
    ck_assert_int_eq(build(false, false, 0, 0,
                           htonl(PACKET_TYPE(PT_NS_ETHERTYPE, 0x8847)), &d),
                     EINVAL);

    /* A size that disagrees with the flags is refused. */
    const char *bad = "header(size=50,type=110,eth(dst=f8:bc:12:44:34:b6,"
        "src=aa:55:aa:55:00:00,dl_type=0x0800),ipv4(src=1.1.2.88,"
        "dst=1.1.2.92,proto=17,tos=0,ttl=64,frag=0x4000),udp(src=0,"
        "dst=2152,csum=0x0),gtpu(flags=0x32,msgtype=255,teid=0x7b))";
    char *error = tnl_header_parse(&bad, &d);
    ck_assert(error);
    free(error);
    /* So is a GTP-U header under another type. */
    bad = "header(size=50,type=4,eth(dst=f8:bc:12:44:34:b6,"
        "src=aa:55:aa:55:00:00,dl_type=0x0800),ipv4(src=1.1.2.88,"
        "dst=1.1.2.92,proto=17,tos=0,ttl=64,frag=0x4000),udp(src=0,"
        "dst=2152,csum=0x0),gtpu(flags=0x30,msgtype=255,teid=0x7b))";
    error = tnl_header_parse(&bad, &d);
    ck_assert(error);
    free(error);
}
END_TEST

/* An IPv4 (or IPv6) user packet without Ethernet: 20 (40) bytes of IP
 * header and 30 of payload. */
static struct dp_packet *
user_packet(bool ipv6)
{
    struct dp_packet *p = dp_packet_new(256);
    size_t len = ipv6 ? 70 : 50;
    uint8_t *b = dp_packet_put_zeros(p, len);
    for (size_t i = 0; i < len; i++) {
        b[i] = i * 7;
    }
    if (ipv6) {
        b[0] = 0x60;
    } else {
        b[0] = 0x45;
    }
    return p;
}

static const uint8_t *
gtpu_of(const struct dp_packet *p, bool outer6)
{
    return (const uint8_t *) dp_packet_data(p) + ETH_HEADER_LEN
           + (outer6 ? IPV6_HEADER_LEN : IP_HEADER_LEN) + UDP_HEADER_LEN;
}

/* Pushes D on a user packet, checks the lengths, pops it and checks the
 * user packet and metadata come back.  Returns the pushed packet. */
static struct dp_packet *
round_trip(const struct tnl_push_action *d, bool outer6, bool inner6,
           uint8_t want_flags, uint16_t want_tnl_flags)
{
    struct dp_packet *inner = user_packet(inner6);
    struct dp_packet *p = dp_packet_clone(inner);
    tnl_header_push(p, d);
    ck_assert_uint_eq(dp_packet_size(p), dp_packet_size(inner)
                                         + d->header_len);
    const uint8_t *h = dp_packet_data(p);
    size_t l4 = ETH_HEADER_LEN + (outer6 ? IPV6_HEADER_LEN : IP_HEADER_LEN);
    size_t udp_len = dp_packet_size(p) - l4;
    ck_assert_uint_eq(h[l4 + 4] << 8 | h[l4 + 5], udp_len);
    uint16_t sport = h[l4] << 8 | h[l4 + 1];
    ck_assert_uint_ge(sport, 32768);
    ck_assert_uint_lt(sport, 61000);
    const uint8_t *g = gtpu_of(p, outer6);
    /* The GTP-U length: everything after the mandatory 8 bytes. */
    ck_assert_uint_eq(g[2] << 8 | g[3], udp_len - UDP_HEADER_LEN - 8);

    struct dp_packet *q = dp_packet_clone(p);
    memset(&q->md, 0, sizeof q->md);
    /* Pop checks the UDP checksum (IPv6 always has one): it must cover
     * the length push wrote. */
    ck_assert_int_eq(tnl_header_pop(q, TNL_TYPE_GTPU), 0);
    ck_assert_uint_eq(dp_packet_size(q), dp_packet_size(inner));
    ck_assert(!memcmp(dp_packet_data(q), dp_packet_data(inner),
                      dp_packet_size(inner)));
    ck_assert_uint_eq(q->md.packet_type,
                      htonl(inner6 ? PT_IPV6 : PT_IPV4));
    const struct flow_tnl *t = &q->md.tunnel;
    ck_assert_uint_eq(ntohll(t->tun_id), 123);
    ck_assert_uint_eq(t->gtpu_flags, want_flags);
    ck_assert_uint_eq(t->gtpu_msgtype, 255);
    ck_assert_uint_eq(t->flags, want_tnl_flags);
    ck_assert_uint_eq(ntohs(t->tp_dst), TNL_GTPU_PORT);
    if (outer6) {
        struct in6_addr want = addr("2001:cafe::88");
        ck_assert(ipv6_addr_equals(&t->ipv6_src, &want));
    } else {
        ck_assert_uint_eq(ntohl(t->ip_src), 0x01010258);
    }

    /* The flow a popped packet makes is L3. */
    struct flow f;
    flow_extract(q, &f);
    ck_assert_uint_eq(f.dl_type, htons(inner6 ? ETH_TYPE_IPV6
                                       : ETH_TYPE_IP));
    ck_assert_uint_eq(f.tunnel.gtpu_flags, want_flags);
    dp_packet_delete(q);
    dp_packet_delete(inner);
    return p;
}

START_TEST(test_gtpu_round_trips)
{
    for (int outer6 = 0; outer6 < 2; outer6++) {
        for (int inner6 = 0; inner6 < 2; inner6++) {
            struct tnl_push_action d;
            ovs_be32 pt = htonl(inner6 ? PT_IPV6 : PT_IPV4);
            uint16_t csum_flag = outer6 ? FLOW_TNL_F_CSUM : 0;
            ck_assert_int_eq(build(outer6, false, 0, 0, pt, &d), 0);
            dp_packet_delete(round_trip(&d, outer6, inner6, 0x30,
                                        FLOW_TNL_F_KEY | csum_flag));

            /* With sequence numbers: each packet the next, from 0; the
             * optional fields come off on pop. */
            ck_assert_int_eq(build(outer6, true, 0, 0, pt, &d), 0);
            struct dp_packet *a = round_trip(&d, outer6, inner6, 0x32,
                                             FLOW_TNL_F_KEY | csum_flag);
            struct dp_packet *b = round_trip(&d, outer6, inner6, 0x32,
                                             FLOW_TNL_F_KEY | csum_flag);
            const uint8_t *ga = gtpu_of(a, outer6), *gb = gtpu_of(b, outer6);
            ck_assert_uint_eq((ga[8] << 8 | ga[9]) + 1, gb[8] << 8 | gb[9]);
            dp_packet_delete(a);
            dp_packet_delete(b);
        }
    }
}
END_TEST

/* A pushed G-PDU to rework by hand: the IPv4 user packet over IPv4. */
static struct dp_packet *
pushed_gpdu(void)
{
    struct tnl_push_action d;
    ck_assert_int_eq(build(false, false, 0, 0, htonl(PT_IPV4), &d), 0);
    struct dp_packet *p = user_packet(false);
    tnl_header_push(p, &d);
    return p;
}

#define GTPU_OFS (ETH_HEADER_LEN + IP_HEADER_LEN + UDP_HEADER_LEN)

/* Inserts N bytes BYTES after P's mandatory GTP-U header, fixing the IP,
 * UDP and GTP-U lengths (the UDP checksum is off) and setting the GTP-U
 * flags to FLAGS. */
static void
insert_after_gtpu(struct dp_packet *p, uint8_t flags, const uint8_t *bytes,
                  size_t n)
{
    size_t size = dp_packet_size(p);
    uint8_t *old = xmemdup(dp_packet_data(p), size);
    dp_packet_set_size(p, 0);
    dp_packet_put(p, old, GTPU_OFS + 8);
    dp_packet_put(p, bytes, n);
    dp_packet_put(p, old + GTPU_OFS + 8, size - GTPU_OFS - 8);
    free(old);

    uint8_t *h = dp_packet_data(p);
    size_t ip_len = dp_packet_size(p) - ETH_HEADER_LEN;
    h[16] = ip_len >> 8;
    h[17] = ip_len;
    h[24] = h[25] = 0;
    ovs_be16 c = csum(h + ETH_HEADER_LEN, IP_HEADER_LEN);
    memcpy(h + 24, &c, 2);
    size_t udp_len = ip_len - IP_HEADER_LEN;
    h[ETH_HEADER_LEN + IP_HEADER_LEN + 4] = udp_len >> 8;
    h[ETH_HEADER_LEN + IP_HEADER_LEN + 5] = udp_len;
    h[GTPU_OFS] = flags;
    h[GTPU_OFS + 2] = (udp_len - UDP_HEADER_LEN - 8) >> 8;
    h[GTPU_OFS + 3] = udp_len - UDP_HEADER_LEN - 8;
}

START_TEST(test_gtpu_extension_headers)
{
    struct dp_packet *user = user_packet(false);

    /* E: the optional fields name a PDU session container (0x85), one
     * word long, which ends the chain. */
    static const uint8_t ext[] = { 0, 0, 0, 0x85, 1, 0x10, 0x05, 0 };
    struct dp_packet *p = pushed_gpdu();
    insert_after_gtpu(p, 0x34, ext, sizeof ext);
    ck_assert_int_eq(tnl_header_pop(p, TNL_TYPE_GTPU), 0);
    ck_assert_uint_eq(p->md.packet_type, htonl(PT_IPV4));
    ck_assert_uint_eq(p->md.tunnel.gtpu_flags, 0x34);
    ck_assert_uint_eq(dp_packet_size(p), dp_packet_size(user));
    ck_assert(!memcmp(dp_packet_data(p), dp_packet_data(user),
                      dp_packet_size(user)));
    dp_packet_delete(p);

    /* PN alone: the optional fields, no chain even with a next type. */
    static const uint8_t pn[] = { 0, 7, 9, 0x85 };
    p = pushed_gpdu();
    insert_after_gtpu(p, 0x31, pn, sizeof pn);
    ck_assert_int_eq(tnl_header_pop(p, TNL_TYPE_GTPU), 0);
    ck_assert_uint_eq(dp_packet_size(p), dp_packet_size(user));
    dp_packet_delete(p);

    /* An extension header of length 0 never ends: malformed. */
    static const uint8_t zero_len[] = { 0, 0, 0, 0x85, 0, 0x10, 0x05, 0 };
    p = pushed_gpdu();
    insert_after_gtpu(p, 0x34, zero_len, sizeof zero_len);
    unsigned long long n = coverage_read_counter("tnl_pop_bad_gtpu");
    ck_assert_int_eq(tnl_header_pop(p, TNL_TYPE_GTPU), EINVAL);
    ck_assert_uint_eq(coverage_read_counter("tnl_pop_bad_gtpu"), n + 1);
    dp_packet_delete(p);

    /* A chain that runs past the GTP-U length. */
    static const uint8_t too_long[] = { 0, 0, 0, 0x85, 200, 0x10, 0x05, 0 };
    p = pushed_gpdu();
    insert_after_gtpu(p, 0x34, too_long, sizeof too_long);
    ck_assert_int_eq(tnl_header_pop(p, TNL_TYPE_GTPU), EINVAL);
    dp_packet_delete(p);
    dp_packet_delete(user);
}
END_TEST

/* Echo requests, end markers and the like are for whoever handles GTP-U
 * signalling: kept whole as Ethernet frames, their metadata filled. */
START_TEST(test_gtpu_signalling_kept)
{
    struct tnl_push_action d;
    ck_assert_int_eq(build(false, true, 0x32, 1, htonl(PT_IPV4), &d), 0);
    struct dp_packet *p = user_packet(false);
    tnl_header_push(p, &d);
    struct dp_packet *before = dp_packet_clone(p);
    unsigned long long n = coverage_read_counter("tnl_pop_gtpu_signalling");
    ck_assert_int_eq(tnl_header_pop(p, TNL_TYPE_GTPU), 0);
    ck_assert_uint_eq(coverage_read_counter("tnl_pop_gtpu_signalling"),
                      n + 1);
    ck_assert_uint_eq(dp_packet_size(p), dp_packet_size(before));
    ck_assert(!memcmp(dp_packet_data(p), dp_packet_data(before),
                      dp_packet_size(p)));
    ck_assert_uint_eq(p->md.packet_type, htonl(PT_ETH));
    ck_assert_uint_eq(p->md.tunnel.gtpu_msgtype, 1);
    ck_assert_uint_eq(p->md.tunnel.gtpu_flags, 0x32);
    ck_assert_uint_eq(ntohll(p->md.tunnel.tun_id), 123);
    ck_assert_uint_eq(ntohl(p->md.tunnel.ip_dst), 0x0101025c);
    dp_packet_delete(before);
    dp_packet_delete(p);
}
END_TEST

/* Pops a copy of P with byte OFS set to VAL and expects EINVAL counted in
 * COUNTER, the bytes left as they were. */
static void
expect_refused(const struct dp_packet *p, size_t ofs, uint8_t val,
               size_t truncate, const char *counter)
{
    struct dp_packet *q = dp_packet_clone(p);
    if (truncate) {
        dp_packet_set_size(q, truncate);
    } else {
        ((uint8_t *) dp_packet_data(q))[ofs] = val;
    }
    struct dp_packet *before = dp_packet_clone(q);
    unsigned long long n = coverage_read_counter(counter);
    ck_assert_int_eq(tnl_header_pop(q, TNL_TYPE_GTPU), EINVAL);
    ck_assert_msg(coverage_read_counter(counter) == n + 1, "%s", counter);
    ck_assert_uint_eq(dp_packet_size(q), dp_packet_size(before));
    ck_assert(!memcmp(dp_packet_data(q), dp_packet_data(before),
                      dp_packet_size(q)));
    dp_packet_delete(before);
    dp_packet_delete(q);
}

START_TEST(test_gtpu_malformed)
{
    struct dp_packet *p = pushed_gpdu();
    /* GTP' (protocol type 0) and version 2. */
    expect_refused(p, GTPU_OFS, 0x20, 0, "tnl_pop_bad_gtpu");
    expect_refused(p, GTPU_OFS, 0x50, 0, "tnl_pop_bad_gtpu");
    /* A GTP-U length beyond the datagram. */
    expect_refused(p, GTPU_OFS + 2, 0x10, 0, "tnl_pop_bad_gtpu");
    /* A user packet that is not IP. */
    expect_refused(p, GTPU_OFS + 8, 0x25, 0, "tnl_pop_bad_gtpu");
    /* The optional fields announced but beyond the GTP-U length. */
    struct dp_packet *q = dp_packet_clone(p);
    uint8_t *g = (uint8_t *) dp_packet_data(q) + GTPU_OFS;
    g[0] = 0x32;
    g[2] = 0;
    g[3] = 2;
    expect_refused(q, GTPU_OFS, 0x32, 0, "tnl_pop_bad_gtpu");
    dp_packet_delete(q);
    /* A UDP datagram too short for the header. */
    expect_refused(p, 0, 0, GTPU_OFS + 4, "tnl_pop_bad_ip_len");
    /* Not UDP. */
    q = dp_packet_clone(p);
    uint8_t *ip = (uint8_t *) dp_packet_data(q) + ETH_HEADER_LEN;
    ip[9] = IPPROTO_GRE;
    ip[10] = ip[11] = 0;
    ovs_be16 c = csum(ip, IP_HEADER_LEN);
    memcpy(ip + 10, &c, 2);
    expect_refused(q, ETH_HEADER_LEN + 9, IPPROTO_GRE, 0,
                   "tnl_pop_bad_proto");
    dp_packet_delete(q);
    dp_packet_delete(p);
}
END_TEST

/* gtpu(flags=..,msgtype=..) in datapath keys and set(tunnel(...)). */
START_TEST(test_gtpu_odp_text)
{
    static const char *const keys[] = {
        "tunnel(tun_id=0x3,src=1.1.1.1,dst=2.2.2.2,ttl=64,"
        "gtpu(flags=0x30,msgtype=255),flags(df|key)),in_port(2152),"
        "packet_type(ns=1,id=0x800),eth_type(0x0800),ipv4(frag=no)",
        "tunnel(tun_id=0x3,src=1.1.1.1,dst=2.2.2.2,"
        "gtpu(flags=0x30/0xf0,msgtype=1),flags(-df-csum+key)),"
        "in_port(2152),packet_type(ns=0,id=0),eth_type(0x0800),"
        "ipv4(frag=no)",
    };
    for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
        struct flow key;
        struct flow_wildcards wc;
        char *error = odp_flow_from_string(keys[i], NULL, &key, &wc);
        ck_assert_msg(!error, "%s: %s", keys[i], error);
        ck_assert_uint_eq(key.tunnel.gtpu_flags, 0x30);
        struct ds ds = DS_EMPTY_INITIALIZER;
        odp_flow_format(&key, &wc, NULL, false, &ds);
        ck_assert_str_eq(ds_cstr(&ds), keys[i]);
        ds_destroy(&ds);
    }

    /* A zero TOS (or UDP port) is no attribute of 3.1's key: not
     * printed even when matched. */
    struct flow key;
    struct flow_wildcards wc;
    char *err = odp_flow_from_string(
        "tunnel(tun_id=0x3,src=1.1.1.1,dst=2.2.2.2,tos=0,tp_src=0,"
        "gtpu(flags=0x30,msgtype=255),flags(+key)),in_port(2152)",
        NULL, &key, &wc);
    ck_assert_msg(!err, "%s", err);
    ck_assert_uint_eq(wc.masks.tunnel.ip_tos, 0xff);
    struct ds text = DS_EMPTY_INITIALIZER;
    odp_flow_format(&key, &wc, NULL, false, &text);
    ck_assert_str_eq(ds_cstr(&text),
                     "tunnel(tun_id=0x3,src=1.1.1.1,dst=2.2.2.2,"
                     "gtpu(flags=0x30,msgtype=255),flags(+key)),"
                     "in_port(2152),eth()");
    ds_destroy(&text);

    const char *set = "set(tunnel(tun_id=0x7b,dst=1.1.2.92,ttl=64,"
                      "tp_dst=2152,gtpu(flags=0x30,msgtype=255),"
                      "flags(df|key))),1";
    struct ofpbuf acts;
    ofpbuf_init(&acts, 0);
    char *error = odp_actions_from_string(set, NULL, &acts);
    ck_assert_msg(!error, "%s", error);
    char *why = NULL;
    ck_assert_msg(odp_actions_validate(acts.data, acts.size, &why), "%s",
                  why);
    struct ds ds = DS_EMPTY_INITIALIZER;
    odp_actions_format(acts.data, acts.size, NULL, &ds);
    ck_assert_str_eq(ds_cstr(&ds), set);
    ds_destroy(&ds);

    /* The attribute decodes into the metadata. */
    const struct nlattr *a = acts.data;
    const struct nlattr *tun = nl_attr_get(a);
    struct flow_tnl t;
    ck_assert(odp_tunnel_from_attr(tun, &t, NULL, NULL));
    ck_assert_uint_eq(t.gtpu_flags, 0x30);
    ck_assert_uint_eq(t.gtpu_msgtype, 255);
    ofpbuf_uninit(&acts);

    /* Only with both nonzero, as 3.1 sends it. */
    memset(&t, 0, sizeof t);
    t.ip_dst = htonl(0x0101025c);
    t.gtpu_flags = 0x30;
    ofpbuf_init(&acts, 0);
    odp_put_tunnel_action(&t, NULL, 0, &acts);
    odp_actions_format(acts.data, acts.size, NULL, &ds);
    ck_assert_str_eq(ds_cstr(&ds),
                     "set(tunnel(dst=1.1.2.92,ttl=0,flags(0)))");
    ds_destroy(&ds);
    ofpbuf_uninit(&acts);
}
END_TEST

static Suite *
gtpu_suite(void)
{
    Suite *s = suite_create("gtpu");
    TCase *tc = tcase_create("gtpu");
    tcase_add_test(tc, test_gtpu_build_text);
    tcase_add_test(tc, test_gtpu_round_trips);
    tcase_add_test(tc, test_gtpu_extension_headers);
    tcase_add_test(tc, test_gtpu_signalling_kept);
    tcase_add_test(tc, test_gtpu_malformed);
    tcase_add_test(tc, test_gtpu_odp_text);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(gtpu_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
