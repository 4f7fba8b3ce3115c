/* Unit tests for native tunneling's library half: the routing table
 * (ovs-router.h: longest prefix match over IPv4 and IPv6, marks, User and
 * Cached routes, source address checks, deletion, readers racing
 * writers), the neighbour cache (tnl-neigh-cache.h: set, lookup, replace,
 * aging on a stopped clock, flush, snooping ARP and ND), and the outer
 * headers (tnl-header.h: built as 3.1 prints them, parsed back, pushed
 * and popped round trip for VXLAN, Geneve, GRE and ERSPAN over IPv4 and
 * IPv6, and malformed packets each refused, counted and left intact). */
#include <config.h>
#include "tnl-header.h"

#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <linux/openvswitch.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "coverage.h"
#include "csum.h"
#include "dp-packet.h"
#include "dpif.h"
#include "dynamic-string.h"
#include "flow-extract.h"
#include "flow.h"
#include "ip-addr.h"
#include "netdev.h"
#include "netlink.h"
#include "odp-execute.h"
#include "odp-util.h"
#include "ofpbuf.h"
#include "ovs-rcu.h"
#include "ovs-router.h"
#include "ovs-thread.h"
#include "poll-loop.h"
#include "seq.h"
#include "timeval.h"
#include "tnl-neigh-cache.h"
#include "ofp-tlv.h"
#include "openflow.h"
#include "tun-metadata.h"
#include "tunnel-config.h"
#include "util.h"
#include "check-util.h"
#include "tnl-header-check.h"

static struct in6_addr
v4(const char *s)
{
    ovs_be32 ip;
    ck_assert_msg(ip_parse(s, &ip), "bad test address %s", s);
    return in6_addr_mapped_ipv4(ip);
}

static struct in6_addr
v6(const char *s)
{
    struct in6_addr a;
    ck_assert_msg(ipv6_parse(s, &a), "bad test address %s", s);
    return a;
}

static char *
addr_str(const struct in6_addr *a)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    ipv6_format_mapped(a, &ds);
    return ds_steal_cstr(&ds);
}

/* A dummy device NAME with ADDR/PLEN (IPv6 bits). */
static struct netdev *
dummy_with_addr(const char *name, const struct in6_addr *addr,
                unsigned int plen)
{
    struct netdev *netdev;
    netdev_enable_dummy(NETDEV_DUMMY_ADD);
    ck_assert_int_eq(netdev_open(name, "dummy", &netdev), 0);
    ck_assert_int_eq(netdev_dummy_set_addr(netdev, addr, plen), 0);
    return netdev;
}

/* Looks DST up and checks the answer: EXPECT_DEV NULL means "not
 * found". */
static void
check_route(uint32_t mark, const char *dst, const char *expect_dev,
            const char *expect_gw, const char *expect_src)
{
    struct in6_addr d = strchr(dst, ':') ? v6(dst) : v4(dst);
    struct in6_addr src, gw;
    char dev[IFNAMSIZ];
    memset(&src, 0, sizeof src);
    bool found = ovs_router_lookup(mark, &d, dev, &src, &gw);
    if (!expect_dev) {
        ck_assert_msg(!found, "%s: unexpectedly routed via %s", dst, dev);
        return;
    }
    ck_assert_msg(found, "%s: no route", dst);
    ck_assert_str_eq(dev, expect_dev);
    char *g = addr_str(&gw), *s = addr_str(&src);
    ck_assert_str_eq(g, expect_gw);
    ck_assert_str_eq(s, expect_src);
    free(g);
    free(s);
}

/* Routing table. */

START_TEST(test_router_lpm_v4_v6)
{
    struct in6_addr a4 = v4("10.1.2.1"), a6 = v6("2001:db8::1");
    struct netdev *br0 = dummy_with_addr("rt-br0", &a4, 96 + 8);
    ck_assert_int_eq(netdev_dummy_set_addr(br0, &a6, 32), 0);
    struct in6_addr a4b = v4("192.168.7.1");
    struct netdev *br1 = dummy_with_addr("rt-br1", &a4b, 96 + 24);

    struct in6_addr p, gw = v4("192.168.7.254");
    p = v4("10.0.0.0");
    ck_assert_int_eq(ovs_router_add_user(0, &p, 96 + 8, "rt-br0", NULL), 0);
    p = v4("10.1.0.0");
    ck_assert_int_eq(ovs_router_add_user(0, &p, 96 + 16, "rt-br1", &gw), 0);
    p = v4("10.1.2.0");
    ck_assert_int_eq(ovs_router_add_user(0, &p, 96 + 24, "rt-br0", NULL), 0);
    p = v6("2001:db8::");
    ck_assert_int_eq(ovs_router_add_user(0, &p, 32, "rt-br0", NULL), 0);
    p = v6("2001:db8:1::");
    struct in6_addr gw6 = v6("2001:db8::fe");
    ck_assert_int_eq(ovs_router_add_user(0, &p, 48, "rt-br0", &gw6), 0);

    check_route(0, "10.1.2.3", "rt-br0", "::", "10.1.2.1");
    check_route(0, "10.1.9.9", "rt-br1", "192.168.7.254", "192.168.7.1");
    check_route(0, "10.9.9.9", "rt-br0", "::", "10.1.2.1");
    check_route(0, "11.0.0.1", NULL, NULL, NULL);
    check_route(0, "2001:db8:1::5", "rt-br0", "2001:db8::fe", "2001:db8::1");
    check_route(0, "2001:db8:2::5", "rt-br0", "::", "2001:db8::1");
    check_route(0, "2001:db9::1", NULL, NULL, NULL);
    /* An IPv4 lookup never matches an IPv6 prefix of the same bits. */
    check_route(0, "::a01:203", NULL, NULL, NULL);

    /* Deleting the /24 uncovers the /16. */
    p = v4("10.1.2.0");
    ck_assert(ovs_router_del_user(0, &p, 96 + 24));
    ck_assert(!ovs_router_del_user(0, &p, 96 + 24));
    check_route(0, "10.1.2.3", "rt-br1", "192.168.7.254", "192.168.7.1");

    /* A route through a device without an address to send from. */
    struct netdev *bare;
    ck_assert_int_eq(netdev_open("rt-bare", "dummy", &bare), 0);
    p = v4("172.16.0.0");
    ck_assert_int_ne(ovs_router_add_user(0, &p, 96 + 12, "rt-bare", NULL),
                     0);
    /* Nor one whose address shares no prefix with it or its gateway. */
    ck_assert_int_ne(ovs_router_add_user(0, &p, 96 + 12, "rt-br1", NULL), 0);

    struct ds ds = DS_EMPTY_INITIALIZER;
    ovs_router_show(&ds);
    const char *show = ds_cstr(&ds);
    ck_assert_msg(strstr(show, "Route Table:\n") == show, "%s", show);
    ck_assert_msg(strstr(show, "User: 10.1.0.0/16 dev rt-br1 GW "
                         "192.168.7.254 SRC 192.168.7.1\n"), "%s", show);
    ck_assert_msg(strstr(show, "User: 2001:db8:1::/48 dev rt-br0 GW "
                         "2001:db8::fe SRC 2001:db8::1\n"), "%s", show);
    ck_assert_msg(!strstr(show, "10.1.2.0/24"), "%s", show);
    ds_destroy(&ds);

    /* Clean up for the other tests. */
    p = v4("10.0.0.0");
    ck_assert(ovs_router_del_user(0, &p, 96 + 8));
    p = v4("10.1.0.0");
    ck_assert(ovs_router_del_user(0, &p, 96 + 16));
    p = v6("2001:db8::");
    ck_assert(ovs_router_del_user(0, &p, 32));
    p = v6("2001:db8:1::");
    ck_assert(ovs_router_del_user(0, &p, 48));
    check_route(0, "10.9.9.9", NULL, NULL, NULL);
    netdev_close(bare);
    netdev_close(br0);
    netdev_close(br1);
    ovsrcu_synchronize();
}
END_TEST

START_TEST(test_router_marks_and_local)
{
    struct in6_addr a4 = v4("192.0.2.1");
    struct netdev *br = dummy_with_addr("rt-mk", &a4, 96 + 24);
    struct in6_addr p = v4("198.51.100.0"), gw1 = v4("192.0.2.254"),
                    gw2 = v4("192.0.2.250");
    ck_assert_int_eq(ovs_router_add_user(0, &p, 96 + 24, "rt-mk", &gw1), 0);
    ck_assert_int_eq(ovs_router_add_user(1234, &p, 96 + 24, "rt-mk", &gw2),
                     0);
    check_route(0, "198.51.100.1", "rt-mk", "192.0.2.254", "192.0.2.1");
    check_route(1234, "198.51.100.1", "rt-mk", "192.0.2.250", "192.0.2.1");
    check_route(99, "198.51.100.1", NULL, NULL, NULL);

    /* Replacing a route keeps one entry. */
    ck_assert_int_eq(ovs_router_add_user(0, &p, 96 + 24, "rt-mk", &gw2), 0);
    check_route(0, "198.51.100.1", "rt-mk", "192.0.2.250", "192.0.2.1");

    /* A given source must be one of ours: a local Cached route says so. */
    struct in6_addr dst = v4("198.51.100.7"), src = v4("192.0.2.1"), gw;
    char dev[IFNAMSIZ];
    ck_assert(!ovs_router_lookup(0, &dst, dev, &src, &gw));
    ck_assert_int_eq(ovs_router_insert(0, &a4, 128, true, "rt-mk", NULL),
                     0);
    ck_assert(ovs_router_lookup(0, &dst, dev, &src, &gw));
    src = v4("192.0.2.9");
    ck_assert(!ovs_router_lookup(0, &dst, dev, &src, &gw));

    struct ds ds = DS_EMPTY_INITIALIZER;
    ovs_router_show(&ds);
    ck_assert_msg(strstr(ds_cstr(&ds), "Cached: 192.0.2.1/32 dev rt-mk SRC "
                         "192.0.2.1 local\n"), "%s", ds_cstr(&ds));
    ck_assert_msg(strstr(ds_cstr(&ds), "User: 198.51.100.0/24 MARK 1234 dev "
                         "rt-mk GW 192.0.2.250 SRC 192.0.2.1\n"),
                  "%s", ds_cstr(&ds));
    ds_destroy(&ds);

    /* Flushing removes the Cached routes only. */
    ovs_router_flush(NULL);
    src = v4("192.0.2.1");
    ck_assert(!ovs_router_lookup(0, &dst, dev, &src, &gw));
    check_route(1234, "198.51.100.1", "rt-mk", "192.0.2.250", "192.0.2.1");

    /* With system routes disabled, Cached routes are not kept. */
    ovs_router_disable_system_routing_table();
    ck_assert_int_eq(ovs_router_insert(0, &a4, 128, true, "rt-mk", NULL),
                     0);
    ds_init(&ds);
    ovs_router_show(&ds);
    ck_assert_msg(!strstr(ds_cstr(&ds), "Cached:"), "%s", ds_cstr(&ds));
    ds_destroy(&ds);

    ck_assert(ovs_router_del_user(0, &p, 96 + 24));
    ck_assert(ovs_router_del_user(1234, &p, 96 + 24));
    netdev_close(br);
    ovsrcu_synchronize();
}
END_TEST

START_TEST(test_router_batch)
{
    struct in6_addr a4 = v4("10.0.0.1");
    struct netdev *br = dummy_with_addr("rt-batch", &a4, 96 + 8);
    struct in6_addr p = v4("10.9.0.0");
    ck_assert_int_eq(ovs_router_add_user(0, &p, 96 + 16, "rt-batch", NULL),
                     0);
    uint64_t seq = seq_read(ovs_router_seq());

    /* Within a batch, readers see the table as it was. */
    ovs_router_batch_begin();
    ovs_router_flush(NULL);
    size_t n = check_iterations(5000, 10);
    for (size_t i = 0; i < n; i++) {
        struct in6_addr q = in6_addr_mapped_ipv4(htonl(0x0a000000 + i * 256));
        CHECK(!ovs_router_insert(0, &q, 96 + 24, false, "rt-batch", NULL));
    }
    /* The same key twice: the later wins. */
    struct in6_addr gw = v4("10.0.0.254");
    struct in6_addr q = v4("10.0.0.0");
    CHECK(!ovs_router_insert(0, &q, 96 + 24, false, "rt-batch", &gw));
    check_route(0, "10.0.0.77", NULL, NULL, NULL);
    ck_assert_uint_eq(seq_read(ovs_router_seq()), seq);
    ovs_router_batch_end();
    ck_assert_uint_ne(seq_read(ovs_router_seq()), seq);

    check_route(0, "10.0.0.77", "rt-batch", "10.0.0.254", "10.0.0.1");
    check_route(0, "10.0.1.77", "rt-batch", "::", "10.0.0.1");
    check_route(0, "10.9.200.1", "rt-batch", "::", "10.0.0.1");
    struct ds ds = DS_EMPTY_INITIALIZER;
    ovs_router_show(&ds);
    size_t lines = 0;
    for (const char *c = ds_cstr(&ds); *c; c++) {
        lines += *c == '\n';
    }
    ck_assert_uint_eq(lines, 1 + n + 1);    /* Title, Cached, the User. */
    ds_destroy(&ds);

    /* A batch that flushes drops the Cached routes, not the User one. */
    ovs_router_batch_begin();
    ovs_router_flush(NULL);
    ovs_router_batch_end();
    check_route(0, "10.0.1.77", NULL, NULL, NULL);
    check_route(0, "10.9.200.1", "rt-batch", "::", "10.0.0.1");
    ck_assert(ovs_router_del_user(0, &p, 96 + 16));
    netdev_close(br);
    ovsrcu_synchronize();
}
END_TEST

START_TEST(test_router_many_routes)
{
    struct in6_addr a4 = v4("10.0.0.1");
    struct netdev *br = dummy_with_addr("rt-many", &a4, 96 + 8);
    size_t n = check_iterations(2000, 10);
    for (size_t i = 0; i < n; i++) {
        struct in6_addr p = in6_addr_mapped_ipv4(htonl(0x0a000000 + i * 256));
        ck_assert_int_eq(ovs_router_add_user(i % 3, &p, 96 + 24, "rt-many",
                                             NULL), 0);
    }
    for (size_t i = 0; i < n; i++) {
        struct in6_addr d = in6_addr_mapped_ipv4(htonl(0x0a000000 + i * 256
                                                       + 77));
        struct in6_addr src, gw;
        char dev[IFNAMSIZ];
        memset(&src, 0, sizeof src);
        CHECK(ovs_router_lookup(i % 3, &d, dev, &src, &gw));
        CHECK(!ovs_router_lookup(i % 3 + 1, &d, dev, &src, &gw)
              || i % 3 + 1 < 3);
    }
    for (size_t i = 0; i < n; i++) {
        struct in6_addr p = in6_addr_mapped_ipv4(htonl(0x0a000000 + i * 256));
        CHECK(ovs_router_del_user(i % 3, &p, 96 + 24));
        if (i % 64 == 0) {
            ovsrcu_quiesce();
        }
    }
    netdev_close(br);
    ovsrcu_synchronize();
}
END_TEST

/* Readers look routes up without locks while the main thread replaces the
 * table: under ASan a table freed too early shows up here. */
static atomic_bool stop_readers;
static atomic_ulong reader_hits;

static void *
route_reader(void *arg OVS_UNUSED)
{
    struct in6_addr d = v4("10.200.0.9");
    while (!atomic_load(&stop_readers)) {
        struct in6_addr src, gw;
        char dev[IFNAMSIZ];
        memset(&src, 0, sizeof src);
        if (ovs_router_lookup(0, &d, dev, &src, &gw)) {
            ck_assert_str_eq(dev, "rt-race");
            atomic_fetch_add(&reader_hits, 1);
        }
        ovsrcu_quiesce();
    }
    ovsrcu_quiesce_start();
    return NULL;
}

START_TEST(test_router_readers_race_writers)
{
    struct in6_addr a4 = v4("10.200.0.1");
    struct netdev *br = dummy_with_addr("rt-race", &a4, 96 + 16);
    atomic_store(&stop_readers, false);
    pthread_t threads[2];
    for (int i = 0; i < 2; i++) {
        threads[i] = ovs_thread_create("route-reader", route_reader, NULL);
    }
    struct in6_addr p = v4("10.200.0.0");
    size_t n = check_iterations(3000, 20);
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(ovs_router_add_user(0, &p, 96 + 16, "rt-race",
                                             NULL), 0);
        struct in6_addr q = in6_addr_mapped_ipv4(htonl(0x0b000000 + i));
        ovs_router_add_user(0, &q, 128, "rt-race", &a4);
        ck_assert(ovs_router_del_user(0, &q, 128));
        ovsrcu_quiesce();
    }
    CHECK_WAIT_FOR(atomic_load(&reader_hits) > 0);
    atomic_store(&stop_readers, true);
    for (int i = 0; i < 2; i++) {
        xpthread_join(threads[i], NULL);
    }
    ck_assert(ovs_router_del_user(0, &p, 96 + 16));
    netdev_close(br);
    ovsrcu_synchronize();
}
END_TEST

/* Neighbour cache. */

static struct eth_addr
mac(const char *s)
{
    struct eth_addr ea;
    ck_assert(eth_addr_from_string(s, &ea));
    return ea;
}

START_TEST(test_neigh_set_lookup_age)
{
    time_stop();
    struct in6_addr ip = v4("1.1.2.92"), ip6 = v6("2001:cafe::92");
    struct eth_addr m;
    uint64_t seq = seq_read(tnl_neigh_seq());

    ck_assert_int_eq(tnl_neigh_lookup("nb0", &ip, &m), ENOENT);
    tnl_neigh_set("nb0", &ip, mac("aa:bb:cc:00:00:01"));
    tnl_neigh_set("nb0", &ip6, mac("aa:bb:cc:00:00:02"));
    ck_assert_uint_ne(seq_read(tnl_neigh_seq()), seq);
    ck_assert_int_eq(tnl_neigh_lookup("nb0", &ip, &m), 0);
    ck_assert(eth_addr_equals(m, mac("aa:bb:cc:00:00:01")));
    ck_assert_int_eq(tnl_neigh_lookup("nb1", &ip, &m), ENOENT);
    ck_assert_int_eq(tnl_neigh_lookup("nb0", &ip6, &m), 0);
    ck_assert(eth_addr_equals(m, mac("aa:bb:cc:00:00:02")));

    /* A new MAC replaces the entry. */
    tnl_neigh_set("nb0", &ip, mac("aa:bb:cc:00:00:03"));
    ck_assert_int_eq(tnl_neigh_lookup("nb0", &ip, &m), 0);
    ck_assert(eth_addr_equals(m, mac("aa:bb:cc:00:00:03")));

    struct ds ds = DS_EMPTY_INITIALIZER;
    tnl_neigh_show(&ds);
    ck_assert_msg(strstr(ds_cstr(&ds),
                         "1.1.2.92                                      "
                         "aa:bb:cc:00:00:03   nb0\n"), "%s", ds_cstr(&ds));
    ck_assert_msg(strstr(ds_cstr(&ds),
                         "2001:cafe::92                                 "
                         "aa:bb:cc:00:00:02   nb0\n"), "%s", ds_cstr(&ds));
    ds_destroy(&ds);

    /* Aging: 5 s; a lookup at 4 s keeps IP alive to 9 s, IP6 dies at 5 s. */
    ck_assert(!tnl_neigh_set_aging_s(0));
    ck_assert(!tnl_neigh_set_aging_s(3601));
    ck_assert(tnl_neigh_set_aging_s(5));
    ck_assert_uint_eq(tnl_neigh_get_aging_ms(), 5000);
    time_warp(4000);
    ck_assert_int_eq(tnl_neigh_lookup("nb0", &ip, &m), 0);
    time_warp(1000);
    ck_assert_int_eq(tnl_neigh_lookup("nb0", &ip6, &m), ENOENT);
    ds_init(&ds);
    tnl_neigh_show(&ds);
    ck_assert_msg(strstr(ds_cstr(&ds), "nb0 STALE\n"), "%s", ds_cstr(&ds));
    ds_destroy(&ds);
    tnl_neigh_cache_run();
    ds_init(&ds);
    tnl_neigh_show(&ds);
    ck_assert_msg(!strstr(ds_cstr(&ds), "2001:cafe::92"), "%s",
                  ds_cstr(&ds));
    ck_assert_msg(strstr(ds_cstr(&ds), "1.1.2.92"), "%s", ds_cstr(&ds));
    ds_destroy(&ds);
    time_warp(4000);
    tnl_neigh_cache_run();
    ck_assert_int_eq(tnl_neigh_lookup("nb0", &ip, &m), ENOENT);

    /* Flush by bridge, then all. */
    tnl_neigh_set("nb0", &ip, mac("aa:bb:cc:00:00:01"));
    tnl_neigh_set("nb1", &ip, mac("aa:bb:cc:00:00:04"));
    tnl_neigh_flush("nb0");
    ck_assert_int_eq(tnl_neigh_lookup("nb0", &ip, &m), ENOENT);
    ck_assert_int_eq(tnl_neigh_lookup("nb1", &ip, &m), 0);
    tnl_neigh_flush(NULL);
    ck_assert_int_eq(tnl_neigh_lookup("nb1", &ip, &m), ENOENT);

    /* Many entries: the buckets grow under readers. */
    size_t n = check_iterations(3000, 10);
    for (size_t i = 0; i < n; i++) {
        struct in6_addr a = in6_addr_mapped_ipv4(htonl(0x0a000000 + i));
        struct eth_addr e = { { 0x02, 0, 0, i >> 16, i >> 8, i } };
        tnl_neigh_set("nb2", &a, e);
    }
    for (size_t i = 0; i < n; i++) {
        struct in6_addr a = in6_addr_mapped_ipv4(htonl(0x0a000000 + i));
        CHECK(!tnl_neigh_lookup("nb2", &a, &m) && m.ea[5] == (uint8_t) i);
    }
    tnl_neigh_flush(NULL);
    ck_assert(tnl_neigh_set_aging_s(900));
    ovsrcu_synchronize();
}
END_TEST

START_TEST(test_neigh_snoop)
{
    struct flow f;
    struct flow_wildcards wc;
    struct eth_addr m;

    /* An ARP reply. */
    memset(&f, 0, sizeof f);
    f.dl_type = htons(ETH_TYPE_ARP);
    f.nw_proto = ARP_OP_REPLY;
    f.nw_src = htonl(0x0101025c);
    f.nw_dst = htonl(0x01010258);
    f.arp_sha = mac("f8:bc:12:44:34:b6");
    flow_wildcards_init_catchall(&wc);
    ck_assert_int_eq(tnl_neigh_snoop(&f, &wc, "sb0", true), 0);
    ck_assert_uint_eq(wc.masks.nw_src, UINT32_MAX);
    struct in6_addr ip = v4("1.1.2.92");
    ck_assert_int_eq(tnl_neigh_lookup("sb0", &ip, &m), 0);
    ck_assert(eth_addr_equals(m, f.arp_sha));

    /* A request that is not gratuitous says nothing; a gratuitous one
     * does; a zero sender MAC never does. */
    f.nw_proto = ARP_OP_REQUEST;
    ck_assert_int_eq(tnl_neigh_snoop(&f, NULL, "sb1", true), EINVAL);
    f.nw_dst = f.nw_src;
    ck_assert_int_eq(tnl_neigh_snoop(&f, NULL, "sb1", true), 0);
    ck_assert_int_eq(tnl_neigh_lookup("sb1", &ip, &m), 0);
    memset(&f.arp_sha, 0, sizeof f.arp_sha);
    ck_assert_int_eq(tnl_neigh_snoop(&f, NULL, "sb2", true), EINVAL);

    /* Without ALLOW_UPDATE, only the verdict. */
    f.arp_sha = mac("f8:bc:12:44:34:b7");
    ck_assert_int_eq(tnl_neigh_snoop(&f, NULL, "sb3", false), 0);
    ck_assert_int_eq(tnl_neigh_lookup("sb3", &ip, &m), ENOENT);

    /* A neighbour advertisement with a target link-layer address. */
    memset(&f, 0, sizeof f);
    f.dl_type = htons(ETH_TYPE_IPV6);
    f.nw_proto = IPPROTO_ICMPV6;
    f.tp_src = htons(ND_NEIGHBOR_ADVERT);
    f.nd_target = v6("2001:cafe::92");
    f.arp_tha = mac("f8:bc:12:44:34:c8");
    flow_wildcards_init_catchall(&wc);
    ck_assert_int_eq(tnl_neigh_snoop(&f, &wc, "sb0", true), 0);
    ck_assert(ipv6_addr_is_exact(&wc.masks.nd_target));
    ck_assert_int_eq(tnl_neigh_lookup("sb0", &f.nd_target, &m), 0);
    ck_assert(eth_addr_equals(m, f.arp_tha));
    /* Without one, or a solicitation, or TCP: nothing. */
    memset(&f.arp_tha, 0, sizeof f.arp_tha);
    ck_assert_int_eq(tnl_neigh_snoop(&f, NULL, "sb0", true), EINVAL);
    f.arp_tha = mac("f8:bc:12:44:34:c9");
    f.tp_src = htons(ND_NEIGHBOR_SOLICIT);
    ck_assert_int_eq(tnl_neigh_snoop(&f, NULL, "sb0", true), EINVAL);
    f.nw_proto = IPPROTO_TCP;
    ck_assert_int_eq(tnl_neigh_snoop(&f, NULL, "sb0", true), EINVAL);
    tnl_neigh_flush(NULL);
    ovsrcu_synchronize();
}
END_TEST

/* Headers. */

static struct tunnel_config
default_cfg(ovs_be16 dst_port)
{
    struct tunnel_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.dst_port = dst_port;
    cfg.ttl = 64;
    cfg.dont_fragment = true;
    cfg.out_key_present = true;
    return cfg;
}

/* The inner packet every round trip carries: TCP, 37 bytes of payload. */
static struct dp_packet *
inner_packet(void)
{
    struct flow f;
    memset(&f, 0, sizeof f);
    f.dl_src = mac("50:54:00:00:00:01");
    f.dl_dst = mac("50:54:00:00:00:02");
    f.dl_type = htons(ETH_TYPE_IP);
    f.nw_src = htonl(0x0a000001);
    f.nw_dst = htonl(0x0a000002);
    f.nw_proto = IPPROTO_TCP;
    f.nw_ttl = 64;
    f.tp_src = htons(1234);
    f.tp_dst = htons(80);
    struct dp_packet *p = dp_packet_new(256);
    flow_compose(p, &f, 37);
    return p;
}

static void
build(enum tnl_type type, bool ipv6, bool csum, const uint8_t *opts,
      size_t opts_len, struct tunnel_config *cfg,
      struct tnl_push_action *data)
{
    struct flow_tnl tnl;
    memset(&tnl, 0, sizeof tnl);
    if (ipv6) {
        tnl.ipv6_dst = v6("2001:cafe::92");
    } else {
        tnl.ip_dst = htonl(0x0101025c);
    }
    tnl.tun_id = htonll(123);
    tnl.ip_ttl = 64;
    tnl.ip_tos = 0;
    tnl.flags = FLOW_TNL_F_DONT_FRAGMENT | FLOW_TNL_F_KEY
                | (csum ? FLOW_TNL_F_CSUM : 0);
    struct tnl_header_params params = {
        .type = type,
        .cfg = cfg,
        .tnl = &tnl,
        .packet_type = htonl(PT_ETH),
        .dmac = mac("f8:bc:12:44:34:b6"),
        .smac = mac("aa:55:aa:55:00:00"),
        .src = ipv6 ? v6("2001:cafe::88") : v4("1.1.2.88"),
        .geneve_opts = opts,
        .geneve_opts_len = opts_len,
    };
    memset(data, 0, sizeof *data);
    ck_assert_int_eq(tnl_header_build(&params, data), 0);
}


START_TEST(test_header_build_format)
{
    struct tunnel_config cfg = default_cfg(htons(4789));
    struct tnl_push_action d;

    build(TNL_TYPE_VXLAN, false, false, NULL, 0, &cfg, &d);
    check_tnl_header_text(&d, "header(size=50,type=4,eth(dst=f8:bc:12:44:34:b6,"
                 "src=aa:55:aa:55:00:00,dl_type=0x0800),ipv4(src=1.1.2.88,"
                 "dst=1.1.2.92,proto=17,tos=0,ttl=64,frag=0x4000),udp(src=0,"
                 "dst=4789,csum=0x0),vxlan(flags=0x8000000,vni=0x7b))");
    build(TNL_TYPE_VXLAN, true, false, NULL, 0, &cfg, &d);
    check_tnl_header_text(&d, "header(size=70,type=4,eth(dst=f8:bc:12:44:34:b6,"
                 "src=aa:55:aa:55:00:00,dl_type=0x86dd),ipv6(src=2001:cafe::88,"
                 "dst=2001:cafe::92,label=0,proto=17,tclass=0x0,hlimit=64),"
                 "udp(src=0,dst=4789,csum=0xffff),vxlan(flags=0x8000000,"
                 "vni=0x7b))");

    cfg = default_cfg(htons(6081));
    static const uint8_t opts[] = { 0xff, 0xff, 0x80, 0x01, 0, 0, 0, 0xa };
    build(TNL_TYPE_GENEVE, false, false, opts, sizeof opts, &cfg, &d);
    check_tnl_header_text(&d, "header(size=58,type=5,eth(dst=f8:bc:12:44:34:b6,"
                 "src=aa:55:aa:55:00:00,dl_type=0x0800),ipv4(src=1.1.2.88,"
                 "dst=1.1.2.92,proto=17,tos=0,ttl=64,frag=0x4000),udp(src=0,"
                 "dst=6081,csum=0x0),geneve(crit,vni=0x7b,options({class=0xffff,"
                 "type=0x80,len=4,0xa})))");
}
END_TEST

START_TEST(test_header_build_format_gre)
{
    struct tunnel_config cfg = default_cfg(0);
    struct tnl_push_action d;

    build(TNL_TYPE_GRE, false, false, NULL, 0, &cfg, &d);
    check_tnl_header_text(&d, "header(size=42,type=3,eth(dst=f8:bc:12:44:34:b6,"
                 "src=aa:55:aa:55:00:00,dl_type=0x0800),ipv4(src=1.1.2.88,"
                 "dst=1.1.2.92,proto=47,tos=0,ttl=64,frag=0x4000),"
                 "gre((flags=0x2000,proto=0x6558),key=0x7b))");
    build(TNL_TYPE_GRE, true, true, NULL, 0, &cfg, &d);
    check_tnl_header_text(&d, "header(size=66,type=109,eth(dst=f8:bc:12:44:34:b6,"
                 "src=aa:55:aa:55:00:00,dl_type=0x86dd),ipv6(src=2001:cafe::88,"
                 "dst=2001:cafe::92,label=0,proto=47,tclass=0x0,hlimit=64),"
                 "gre((flags=0xa000,proto=0x6558),csum=0x0,key=0x7b))");
    cfg.set_seq = true;
    cfg.out_key_present = true;
    build(TNL_TYPE_GRE, false, false, NULL, 0, &cfg, &d);
    check_tnl_header_text(&d, "header(size=46,type=3,eth(dst=f8:bc:12:44:34:b6,"
                 "src=aa:55:aa:55:00:00,dl_type=0x0800),ipv4(src=1.1.2.88,"
                 "dst=1.1.2.92,proto=47,tos=0,ttl=64,frag=0x4000),"
                 "gre((flags=0x3000,proto=0x6558),key=0x7b,seq=0x0))");

    cfg = default_cfg(0);
    cfg.erspan_ver = 1;
    cfg.erspan_idx = 3;
    build(TNL_TYPE_ERSPAN, false, false, NULL, 0, &cfg, &d);
    check_tnl_header_text(&d, "header(size=50,type=107,eth(dst=f8:bc:12:44:34:b6,"
                 "src=aa:55:aa:55:00:00,dl_type=0x0800),ipv4(src=1.1.2.88,"
                 "dst=1.1.2.92,proto=47,tos=0,ttl=64,frag=0x4000),"
                 "erspan(ver=1,sid=0x7b,idx=0x3))");
    cfg.erspan_ver = 2;
    cfg.erspan_dir = 1;
    cfg.erspan_hwid = 7;
    build(TNL_TYPE_ERSPAN, true, false, NULL, 0, &cfg, &d);
    check_tnl_header_text(&d, "header(size=74,type=108,eth(dst=f8:bc:12:44:34:b6,"
                 "src=aa:55:aa:55:00:00,dl_type=0x86dd),ipv6(src=2001:cafe::88,"
                 "dst=2001:cafe::92,label=0,proto=47,tclass=0x0,hlimit=64),"
                 "erspan(ver=2,sid=0x7b,dir=1,hwid=0x7))");
}
END_TEST

START_TEST(test_header_build_refuses)
{
    struct tunnel_config cfg = default_cfg(htons(4789));
    struct flow_tnl tnl;
    memset(&tnl, 0, sizeof tnl);
    tnl.ip_dst = htonl(0x0101025c);
    struct tnl_header_params params = {
        .type = TNL_TYPE_VXLAN, .cfg = &cfg, .tnl = &tnl,
        .packet_type = htonl(PT_IPV4), .src = v4("1.1.2.88"),
    };
    struct tnl_push_action d;
    /* VXLAN carries Ethernet only. */
    ck_assert_int_eq(tnl_header_build(&params, &d), EINVAL);
    /* Families must agree. */
    params.packet_type = htonl(PT_ETH);
    params.src = v6("2001:cafe::88");
    ck_assert_int_eq(tnl_header_build(&params, &d), EAFNOSUPPORT);
    /* Geneve options must be whole. */
    static const uint8_t bad[] = { 0xff, 0xff, 0x80, 0x02, 0, 0, 0, 0xa };
    params.type = TNL_TYPE_GENEVE;
    params.src = v4("1.1.2.88");
    params.geneve_opts = bad;
    params.geneve_opts_len = sizeof bad;
    ck_assert_int_eq(tnl_header_build(&params, &d), EINVAL);
    /* GRE carries L3 packets by their Ethertype. */
    params.type = TNL_TYPE_GRE;
    params.geneve_opts_len = 0;
    params.packet_type = htonl(PT_IPV4);
    ck_assert_int_eq(tnl_header_build(&params, &d), 0);
    ck_assert_uint_eq(((const uint8_t *) d.header)[14 + 20 + 2], 0x08);
}
END_TEST

/* Pushes DATA on the inner packet, checks the outer header's lengths and
 * checksums, pops it as TYPE, and checks the inner packet and metadata
 * come back.  Returns the encapsulated packet (before the pop) for
 * further abuse; the caller frees it. */
static struct dp_packet *
round_trip(const struct tnl_push_action *data, enum tnl_type pop_type,
           bool ipv6, const uint8_t *opts, size_t opts_len, uint16_t flags)
{
    struct dp_packet *inner = inner_packet();
    struct dp_packet *p = dp_packet_clone(inner);
    tnl_header_push(p, data);
    ck_assert_uint_eq(dp_packet_size(p),
                      dp_packet_size(inner) + data->header_len);
    const uint8_t *h = dp_packet_data(p);
    size_t l3_len = dp_packet_size(p) - ETH_HEADER_LEN;
    if (!ipv6) {
        ck_assert_uint_eq((h[16] << 8) | h[17], l3_len);
        ck_assert_uint_eq(csum(h + ETH_HEADER_LEN, IP_HEADER_LEN), 0);
    } else {
        ck_assert_uint_eq((h[18] << 8) | h[19], l3_len - IPV6_HEADER_LEN);
    }
    size_t l4 = ETH_HEADER_LEN + (ipv6 ? IPV6_HEADER_LEN : IP_HEADER_LEN);
    if (pop_type == TNL_TYPE_VXLAN || pop_type == TNL_TYPE_GENEVE) {
        uint16_t sport = (h[l4] << 8) | h[l4 + 1];
        ck_assert_uint_ge(sport, 32768);
        ck_assert_uint_lt(sport, 61000);
        ck_assert_uint_eq((h[l4 + 4] << 8) | h[l4 + 5],
                          dp_packet_size(p) - l4);
    }

    struct dp_packet *copy = dp_packet_clone(p);
    memset(&copy->md, 0, sizeof copy->md);
    ck_assert_int_eq(tnl_header_pop(copy, pop_type), 0);
    ck_assert_uint_eq(dp_packet_size(copy), dp_packet_size(inner));
    ck_assert(!memcmp(dp_packet_data(copy), dp_packet_data(inner),
                      dp_packet_size(inner)));
    const struct flow_tnl *t = &copy->md.tunnel;
    if (ipv6) {
        struct in6_addr want = v6("2001:cafe::92");
        ck_assert(ipv6_addr_equals(&t->ipv6_dst, &want));
        want = v6("2001:cafe::88");
        ck_assert(ipv6_addr_equals(&t->ipv6_src, &want));
    } else {
        ck_assert_uint_eq(ntohl(t->ip_dst), 0x0101025c);
        ck_assert_uint_eq(ntohl(t->ip_src), 0x01010258);
    }
    ck_assert_uint_eq(t->ip_ttl, 64);
    ck_assert_uint_eq(ntohll(t->tun_id), 123);
    ck_assert_uint_eq(t->flags, flags);
    ck_assert_uint_eq(copy->md.packet_type, htonl(PT_ETH));
    if (opts_len) {
        ck_assert_uint_eq(copy->md.tun_opts_len, opts_len);
        ck_assert(!memcmp(copy->md.tun_opts, opts, opts_len));
        /* And the flow sees them in the raw form. */
        struct flow f;
        flow_extract(copy, &f);
        ck_assert_uint_eq(f.tun_metadata.present, opts_len);
        ck_assert(!memcmp(f.tun_metadata.opts, opts, opts_len));
    }
    dp_packet_delete(copy);
    dp_packet_delete(inner);
    return p;
}

START_TEST(test_header_round_trips)
{
    static const uint8_t opts[] = {
        0xff, 0xff, 0x80, 0x01, 0, 0, 0, 0xa,
        0x01, 0x02, 0x03, 0x02, 1, 2, 3, 4, 5, 6, 7, 8,
    };
    for (int ipv6 = 0; ipv6 < 2; ipv6++) {
        for (int with_csum = 0; with_csum < 2; with_csum++) {
            struct tunnel_config cfg = default_cfg(htons(4789));
            struct tnl_push_action d;
            uint16_t csum_flag = (with_csum || ipv6) ? FLOW_TNL_F_CSUM : 0;

            build(TNL_TYPE_VXLAN, ipv6, with_csum, NULL, 0, &cfg, &d);
            dp_packet_delete(round_trip(&d, TNL_TYPE_VXLAN, ipv6, NULL, 0,
                                        FLOW_TNL_F_KEY | csum_flag));

            cfg = default_cfg(htons(6081));
            build(TNL_TYPE_GENEVE, ipv6, with_csum, opts, sizeof opts, &cfg,
                  &d);
            dp_packet_delete(round_trip(&d, TNL_TYPE_GENEVE, ipv6, opts,
                                        sizeof opts,
                                        FLOW_TNL_F_KEY | FLOW_TNL_F_UDPIF
                                        | csum_flag));

            cfg = default_cfg(0);
            cfg.set_seq = with_csum;
            build(TNL_TYPE_GRE, ipv6, with_csum, NULL, 0, &cfg, &d);
            dp_packet_delete(round_trip(&d, TNL_TYPE_GRE, ipv6, NULL, 0,
                                        FLOW_TNL_F_KEY
                                        | (with_csum ? FLOW_TNL_F_CSUM : 0)));
        }
        struct tunnel_config cfg = default_cfg(0);
        struct tnl_push_action d;
        cfg.erspan_ver = 2;
        cfg.erspan_hwid = 5;
        cfg.erspan_dir = 1;
        build(TNL_TYPE_ERSPAN, ipv6, false, NULL, 0, &cfg, &d);
        struct dp_packet *p = round_trip(&d, TNL_TYPE_ERSPAN, ipv6, NULL, 0,
                                         FLOW_TNL_F_KEY);
        ck_assert_int_eq(tnl_header_pop(p, TNL_TYPE_ERSPAN), 0);
        /* Each template numbers its packets from 1. */
        struct dp_packet *q = inner_packet();
        tnl_header_push(q, &d);
        const uint8_t *gre = (const uint8_t *) dp_packet_data(q) + 14
                             + (ipv6 ? 40 : 20);
        ck_assert_uint_eq(gre[7], 2);
        dp_packet_delete(q);
        ck_assert_uint_eq(p->md.tunnel.erspan_ver, 2);
        ck_assert_uint_eq(p->md.tunnel.erspan_hwid, 5);
        ck_assert_uint_eq(p->md.tunnel.erspan_dir, 1);
        dp_packet_delete(p);
    }
}
END_TEST

START_TEST(test_header_vxlan_gpe)
{
    struct tunnel_config cfg = default_cfg(htons(4790));
    cfg.exts = TUNNEL_EXT_VXLAN_GPE;
    struct flow_tnl tnl;
    memset(&tnl, 0, sizeof tnl);
    tnl.ip_dst = htonl(0x0101025c);
    tnl.tun_id = htonll(0x159);
    tnl.ip_ttl = 64;
    struct tnl_header_params params = {
        .type = TNL_TYPE_VXLAN, .cfg = &cfg, .tnl = &tnl,
        .packet_type = htonl(PT_IPV4), .src = v4("1.1.2.88"),
        .dmac = mac("f8:bc:12:44:34:b6"), .smac = mac("aa:55:aa:55:00:00"),
    };
    struct tnl_push_action d;
    ck_assert_int_eq(tnl_header_build(&params, &d), 0);
    struct ds ds = DS_EMPTY_INITIALIZER;
    tnl_header_format(&d, &ds);
    ck_assert_msg(strstr(ds_cstr(&ds), "vxlan(flags=0xc000001,vni=0x159)"),
                  "%s", ds_cstr(&ds));
    ds_destroy(&ds);

    /* An IPv4 packet without Ethernet goes in and comes out as one. */
    struct dp_packet *inner = inner_packet();
    struct dp_packet *p = dp_packet_clone_data(
        (const uint8_t *) dp_packet_data(inner) + ETH_HEADER_LEN,
        dp_packet_size(inner) - ETH_HEADER_LEN);
    tnl_header_push(p, &d);
    ck_assert_int_eq(tnl_header_pop(p, TNL_TYPE_VXLAN), 0);
    ck_assert_uint_eq(p->md.packet_type, htonl(PT_IPV4));
    ck_assert_uint_eq(ntohll(p->md.tunnel.tun_id), 0x159);
    ck_assert_uint_eq(dp_packet_size(p), dp_packet_size(inner) - 14);

    /* OAM and unknown next protocols are dropped. */
    tnl_header_push(p, &d);
    ((uint8_t *) dp_packet_data(p))[42] |= 0x01;
    ck_assert_int_eq(tnl_header_pop(p, TNL_TYPE_VXLAN), EINVAL);
    ((uint8_t *) dp_packet_data(p))[42] &= ~0x01;
    ((uint8_t *) dp_packet_data(p))[45] = 9;
    ck_assert_int_eq(tnl_header_pop(p, TNL_TYPE_VXLAN), EINVAL);
    dp_packet_delete(p);
    dp_packet_delete(inner);
}
END_TEST

/* The requests sent for a missing neighbour, byte for byte as 3.1's tests
 * capture them. */
START_TEST(test_neighbour_requests)
{
    struct dp_packet *p = dp_packet_new(128);
    tnl_compose_arp_request(p, mac("aa:55:aa:55:00:00"), htonl(0x01010258),
                            htonl(0x0101025c));
    char *hex = check_hex(dp_packet_data(p), dp_packet_size(p));
    ck_assert_str_eq(hex, "ffffffffffffaa55aa55000008060001080006040001aa55"
                     "aa550000010102580000000000000101025c");
    free(hex);

    struct in6_addr src = v6("2001:cafe::88"), dst = v6("2001:cafe::92");
    tnl_compose_nd_solicit(p, mac("aa:55:aa:55:00:00"), &src, &dst);
    hex = check_hex(dp_packet_data(p), dp_packet_size(p));
    ck_assert_str_eq(hex, "3333ff000092aa55aa55000086dd6000000000203aff2001"
                     "cafe000000000000000000000088ff02000000000000000000"
                     "01ff00009287004d48000000002001cafe0000000000000000"
                     "000000920101aa55aa550000");
    free(hex);
    dp_packet_delete(p);
}
END_TEST

/* Raw Geneve options to a switch's tun_metadata and back. */
START_TEST(test_geneve_udpif_conversion)
{
    struct tun_table tab;
    tun_table_init(&tab);
    struct ofputil_tlv_map maps[] = {
        { .option_class = 0xffff, .option_type = 0x80, .option_len = 4,
          .index = 0 },
        { .option_class = 0x0102, .option_type = 0x03, .option_len = 8,
          .index = 5 },
    };
    ck_assert_int_eq(tun_table_mod(&tab, NXTTMC_ADD, maps, 2, NULL, NULL),
                     0);
    static const uint8_t opts[] = {
        0x01, 0x02, 0x03, 0x02, 1, 2, 3, 4, 5, 6, 7, 8,
        0x55, 0x55, 0x01, 0x00,                  /* Unmapped, not critical. */
        0xff, 0xff, 0x80, 0x01, 0, 0, 0, 0xa,
    };
    struct flow f;
    memset(&f, 0, sizeof f);
    f.tunnel.flags = FLOW_TNL_F_UDPIF | FLOW_TNL_F_KEY;
    f.tun_metadata.present = sizeof opts;
    memcpy(f.tun_metadata.opts, opts, sizeof opts);
    ck_assert_int_eq(tun_md_from_geneve_udpif(&tab, &f), 0);
    ck_assert_uint_eq(f.tunnel.flags, FLOW_TNL_F_KEY);
    ck_assert_uint_eq(f.tun_metadata.present, (1u << 0) | (1u << 5));

    /* Back to the wire, in index order. */
    uint8_t buf[GENEVE_OPTS_MAX];
    size_t n = tun_md_to_geneve(&tab, &f.tun_metadata, buf, sizeof buf);
    static const uint8_t want[] = {
        0xff, 0xff, 0x80, 0x01, 0, 0, 0, 0xa,
        0x01, 0x02, 0x03, 0x02, 1, 2, 3, 4, 5, 6, 7, 8,
    };
    ck_assert_uint_eq(n, sizeof want);
    ck_assert(!memcmp(buf, want, n));
    ck_assert_uint_eq(tun_md_to_geneve(&tab, &f.tun_metadata, buf, 8),
                      SIZE_MAX);

    /* Refused: an unmapped critical option, a mapped one of another
     * length, options that run past their length. */
    static const uint8_t crit[] = { 0x55, 0x55, 0x81, 0x00 };
    static const uint8_t badlen[] = { 0xff, 0xff, 0x80, 0x00 };
    static const uint8_t runs[] = { 0xff, 0xff, 0x80, 0x02, 0, 0, 0, 0 };
    const struct { const uint8_t *p; size_t n; } bad[] = {
        { crit, sizeof crit }, { badlen, sizeof badlen },
        { runs, sizeof runs },
    };
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        memset(&f, 0, sizeof f);
        f.tunnel.flags = FLOW_TNL_F_UDPIF;
        f.tun_metadata.present = bad[i].n;
        memcpy(f.tun_metadata.opts, bad[i].p, bad[i].n);
        ck_assert_int_eq(tun_md_from_geneve_udpif(&tab, &f), EINVAL);
        ck_assert_uint_eq(f.tunnel.flags, FLOW_TNL_F_UDPIF);
    }
}
END_TEST

/* Malformed packets. */

static unsigned long long
counter(const char *name)
{
    return coverage_read_counter(name);
}

/* Pops a copy of P after MUTATE changed it and expects a refusal counted
 * in COUNTER, with the packet's bytes left as they were. */
static void
expect_refused(const struct dp_packet *p, enum tnl_type type,
               void (*mutate)(struct dp_packet *, size_t aux), size_t aux,
               const char *counter_name)
{
    struct dp_packet *q = dp_packet_clone(p);
    mutate(q, aux);
    struct dp_packet *before = dp_packet_clone(q);
    unsigned long long n = counter(counter_name);
    ck_assert_msg(tnl_header_pop(q, type) == EINVAL, "%s: accepted",
                  counter_name);
    ck_assert_msg(counter(counter_name) == n + 1, "%s not counted",
                  counter_name);
    ck_assert_uint_eq(dp_packet_size(q), dp_packet_size(before));
    ck_assert(!memcmp(dp_packet_data(q), dp_packet_data(before),
                      dp_packet_size(q)));
    dp_packet_delete(before);
    dp_packet_delete(q);
}

static void
truncate_to(struct dp_packet *p, size_t len)
{
    dp_packet_set_size(p, len);
}

static void
set_byte(struct dp_packet *p, size_t ofs_val)
{
    /* OFS in the high bits, value in the low 8. */
    ((uint8_t *) dp_packet_data(p))[ofs_val >> 8] = ofs_val & 0xff;
}

static void
add_byte(struct dp_packet *p, size_t ofs)
{
    ((uint8_t *) dp_packet_data(p))[ofs]++;
}

static void
fix_ip_csum(struct dp_packet *p)
{
    uint8_t *ip = (uint8_t *) dp_packet_data(p) + ETH_HEADER_LEN;
    ip[10] = ip[11] = 0;
    ovs_be16 c = csum(ip, IP_HEADER_LEN);
    memcpy(ip + 10, &c, 2);
}

static void
set_byte_fix_csum(struct dp_packet *p, size_t ofs_val)
{
    set_byte(p, ofs_val);
    fix_ip_csum(p);
}

static void
add_byte_fix_csum(struct dp_packet *p, size_t ofs)
{
    add_byte(p, ofs);
    fix_ip_csum(p);
}

#define AT(OFS, VAL) (((size_t) (OFS) << 8) | (VAL))

START_TEST(test_header_malformed)
{
    struct tunnel_config cfg = default_cfg(htons(6081));
    struct tnl_push_action d;
    static const uint8_t opts[] = { 0xff, 0xff, 0x80, 0x01, 0, 0, 0, 0xa };
    build(TNL_TYPE_GENEVE, false, false, opts, sizeof opts, &cfg, &d);
    struct dp_packet *g = round_trip(&d, TNL_TYPE_GENEVE, false, opts,
                                     sizeof opts, FLOW_TNL_F_KEY
                                     | FLOW_TNL_F_UDPIF);
    /* Layout: eth 0-13, ip 14-33, udp 34-41, geneve 42-49, opt 50-57. */

    /* Every truncation inside the headers (the IP length then lies). */
    for (size_t len = 0; len < d.header_len; len++) {
        const char *c = (len < ETH_HEADER_LEN + IP_HEADER_LEN
                         ? (len <= ETH_HEADER_LEN ? "tnl_pop_short"
                            : "tnl_pop_short")
                         : "tnl_pop_bad_ip_len");
        expect_refused(g, TNL_TYPE_GENEVE, truncate_to, len, c);
    }
    expect_refused(g, TNL_TYPE_GENEVE, set_byte, AT(12, 0x81),
                   "tnl_pop_bad_ip");                 /* VLAN, not IP. */
    expect_refused(g, TNL_TYPE_GENEVE, set_byte_fix_csum, AT(14, 0x46),
                   "tnl_pop_bad_ip");                 /* IP options. */
    expect_refused(g, TNL_TYPE_GENEVE, set_byte_fix_csum, AT(20, 0x20),
                   "tnl_pop_bad_ip");                 /* More fragments. */
    expect_refused(g, TNL_TYPE_GENEVE, add_byte, 22,
                   "tnl_pop_bad_ip_csum");            /* TTL, stale sum. */
    expect_refused(g, TNL_TYPE_GENEVE, add_byte_fix_csum, 16,
                   "tnl_pop_bad_ip_len");             /* tot_len > size. */
    expect_refused(g, TNL_TYPE_GENEVE, set_byte_fix_csum, AT(23, 6),
                   "tnl_pop_bad_proto");              /* TCP, not UDP. */
    expect_refused(g, TNL_TYPE_GENEVE, add_byte, 39,
                   "tnl_pop_bad_udp_len");            /* UDP len + 1. */
    expect_refused(g, TNL_TYPE_GENEVE, set_byte, AT(39, 0x10),
                   "tnl_pop_bad_udp_len");            /* UDP len short. */
    expect_refused(g, TNL_TYPE_GENEVE, set_byte, AT(42, 0x41),
                   "tnl_pop_bad_geneve");             /* Version 1. */
    expect_refused(g, TNL_TYPE_GENEVE, set_byte, AT(44, 0x08),
                   "tnl_pop_bad_geneve");             /* Not Ethernet. */
    expect_refused(g, TNL_TYPE_GENEVE, set_byte, AT(42, 0x3f),
                   "tnl_pop_short");                  /* Options > packet. */
    expect_refused(g, TNL_TYPE_GENEVE, set_byte, AT(53, 0x02),
                   "tnl_pop_bad_geneve_opt");         /* Option too long. */
    expect_refused(g, TNL_TYPE_GENEVE, set_byte, AT(42, 0x01),
                   "tnl_pop_bad_geneve_opt");         /* 4 bytes of 8. */
    expect_refused(g, TNL_TYPE_VXLAN, set_byte, AT(0, 0),
                   "tnl_pop_bad_vxlan");              /* Geneve as VXLAN. */
    expect_refused(g, TNL_TYPE_GRE, set_byte, AT(0, 0),
                   "tnl_pop_bad_proto");              /* UDP as GRE. */
    dp_packet_delete(g);

    /* A UDP checksum that does not verify. */
    cfg = default_cfg(htons(4789));
    build(TNL_TYPE_VXLAN, true, true, NULL, 0, &cfg, &d);
    struct dp_packet *v = round_trip(&d, TNL_TYPE_VXLAN, true, NULL, 0,
                                     FLOW_TNL_F_KEY | FLOW_TNL_F_CSUM);
    /* eth 0-13, ipv6 14-53, udp 54-61, vxlan 62-69. */
    expect_refused(v, TNL_TYPE_VXLAN, add_byte, 80, "tnl_pop_bad_udp_csum");
    expect_refused(v, TNL_TYPE_VXLAN, set_byte, AT(14, 0x45),
                   "tnl_pop_bad_ip");                 /* Version 4 in v6. */
    expect_refused(v, TNL_TYPE_VXLAN, add_byte, 18, "tnl_pop_bad_ip_len");
    dp_packet_delete(v);

    build(TNL_TYPE_VXLAN, false, false, NULL, 0, &cfg, &d);
    v = round_trip(&d, TNL_TYPE_VXLAN, false, NULL, 0, FLOW_TNL_F_KEY);
    expect_refused(v, TNL_TYPE_VXLAN, set_byte, AT(42, 0x0c),
                   "tnl_pop_bad_vxlan");              /* Unknown flag. */
    expect_refused(v, TNL_TYPE_VXLAN, set_byte, AT(49, 0x01),
                   "tnl_pop_bad_vxlan");              /* Reserved byte. */
    dp_packet_delete(v);

    /* GRE: flags, version, checksum, protocol. */
    cfg = default_cfg(0);
    build(TNL_TYPE_GRE, false, true, NULL, 0, &cfg, &d);
    struct dp_packet *r = round_trip(&d, TNL_TYPE_GRE, false, NULL, 0,
                                     FLOW_TNL_F_KEY | FLOW_TNL_F_CSUM);
    /* eth 0-13, ip 14-33, gre 34-37, csum 38-41, key 42-45. */
    expect_refused(r, TNL_TYPE_GRE, set_byte, AT(34, 0xe0),
                   "tnl_pop_bad_gre");                /* Routing bit. */
    expect_refused(r, TNL_TYPE_GRE, set_byte, AT(35, 0x01),
                   "tnl_pop_bad_gre");                /* Version 1. */
    expect_refused(r, TNL_TYPE_GRE, add_byte, 60, "tnl_pop_bad_gre_csum");
    expect_refused(r, TNL_TYPE_GRE, set_byte, AT(36, 0x00),
                   "tnl_pop_bad_gre_csum");           /* Proto under sum. */
    expect_refused(r, TNL_TYPE_ERSPAN, set_byte, AT(0, 0),
                   "tnl_pop_bad_erspan");
    dp_packet_delete(r);
}
END_TEST

/* Random damage: whatever the bytes, a pop either succeeds or refuses, and
 * never reads outside the packet (ASan watches). */
START_TEST(test_header_random_damage)
{
    static const uint8_t opts[] = { 0xff, 0xff, 0x80, 0x01, 0, 0, 0, 0xa };
    struct tunnel_config cfg = default_cfg(htons(6081));
    struct tnl_push_action d;
    build(TNL_TYPE_GENEVE, false, false, opts, sizeof opts, &cfg, &d);
    struct dp_packet *g = round_trip(&d, TNL_TYPE_GENEVE, false, opts,
                                     sizeof opts,
                                     FLOW_TNL_F_KEY | FLOW_TNL_F_UDPIF);
    static const enum tnl_type types[] = {
        TNL_TYPE_VXLAN, TNL_TYPE_GENEVE, TNL_TYPE_GRE, TNL_TYPE_ERSPAN,
    };
    srand(42);
    size_t n = check_iterations(20000, 20);
    for (size_t i = 0; i < n; i++) {
        struct dp_packet *q = dp_packet_clone(g);
        size_t len = rand() % (dp_packet_size(q) + 1);
        dp_packet_set_size(q, len);
        for (int k = rand() % 4; k >= 0 && len; k--) {
            ((uint8_t *) dp_packet_data(q))[rand() % len] = rand();
        }
        tnl_header_pop(q, types[i % ARRAY_SIZE(types)]);
        dp_packet_delete(q);
    }
    dp_packet_delete(g);
}
END_TEST

/* Datapath action text: 3.1's own expected lines parse and print back the
 * same. */
START_TEST(test_action_text)
{
    static const char *const texts[] = {
        "tnl_push(tnl_port(4789),header(size=50,type=4,eth(dst=f8:bc:12:44:"
        "34:b6,src=aa:55:aa:55:00:00,dl_type=0x0800),ipv4(src=1.1.2.88,dst="
        "1.1.2.92,proto=17,tos=0,ttl=64,frag=0x4000),udp(src=0,dst=4789,"
        "csum=0x0),vxlan(flags=0x8000000,vni=0x7b)),out_port(100)),1",
        "tnl_push(tnl_port(6),header(size=58,type=5,eth(dst=f8:bc:12:44:34:"
        "b6,src=f8:bc:12:46:58:e0,dl_type=0x0800),ipv4(src=1.1.2.88,dst=1.1."
        "2.92,proto=17,tos=0,ttl=64,frag=0x4000),udp(src=0,dst=6081,csum=0x0"
        "),geneve(crit,vni=0x1c7,options({class=0xffff,type=0x80,len=4,"
        "0xa}))),out_port(1))",
        "tnl_push(tnl_port(4),header(size=46,type=3,eth(dst=f8:bc:12:44:34:"
        "b6,src=f8:bc:12:46:58:e0,dl_type=0x0800),ipv4(src=1.1.2.88,dst=1.1."
        "2.92,proto=47,tos=0,ttl=64,frag=0x4000),gre((flags=0xa000,proto="
        "0x6558),csum=0x0,key=0x1e241)),out_port(1))",
        "tnl_push(tnl_port(4),header(size=62,type=109,eth(dst=f8:bc:12:44:"
        "34:b6,src=f8:bc:12:46:58:e0,dl_type=0x86dd),ipv6(src=2001:cafe::88,"
        "dst=2001:cafe::92,label=0,proto=47,tclass=0x0,hlimit=64),gre((flags"
        "=0x2000,proto=0x6558),key=0x1e241)),out_port(1))",
        "tnl_push(tnl_port(3),header(size=54,type=107,eth(dst=f8:bc:12:44:"
        "34:b8,src=aa:55:aa:55:00:00,dl_type=0x0800),ipv4(src=1.1.2.88,dst="
        "1.1.2.94,proto=47,tos=0,ttl=64,frag=0x4000),erspan(ver=2,sid=0x1c8,"
        "dir=1,hwid=0x1)),out_port(100)),1",
        "tnl_pop(4789)",
        "set(skb_mark(0x4d2)),tnl_push(tnl_port(6081),header(size=50,type=5,"
        "eth(dst=f8:bc:12:44:34:b7,src=aa:55:aa:55:00:00,dl_type=0x0800),"
        "ipv4(src=1.1.2.88,dst=1.1.2.93,proto=17,tos=0,ttl=64,frag=0x4000),"
        "udp(src=0,dst=6081,csum=0x0),geneve(vni=0xea)),out_port(100)),1",
    };
    for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
        struct ofpbuf acts;
        ofpbuf_init(&acts, 0);
        char *error = odp_actions_from_string(texts[i], NULL, &acts);
        ck_assert_msg(!error, "%s: %s", texts[i], error);
        char *why = NULL;
        ck_assert_msg(odp_actions_validate(acts.data, acts.size, &why),
                      "%s: %s", texts[i], why);
        struct ds ds = DS_EMPTY_INITIALIZER;
        odp_actions_format(acts.data, acts.size, NULL, &ds);
        ck_assert_str_eq(ds_cstr(&ds), texts[i]);
        ds_destroy(&ds);
        ofpbuf_uninit(&acts);
    }

    /* Bad ones: a size that disagrees, a truncated header, garbage. */
    static const char *const bad[] = {
        "tnl_push(tnl_port(4789),header(size=51,type=4,eth(dst=f8:bc:12:44:"
        "34:b6,src=aa:55:aa:55:00:00,dl_type=0x0800),ipv4(src=1.1.2.88,dst="
        "1.1.2.92,proto=17,tos=0,ttl=64,frag=0x4000),udp(src=0,dst=4789,"
        "csum=0x0),vxlan(flags=0x8000000,vni=0x7b)),out_port(100))",
        "tnl_push(tnl_port(4789),header(size=50,type=4,eth(dst=f8:bc:12:44:"
        "34:b6,src=aa:55:aa:55:00:00,dl_type=0x86dd),ipv4(src=1.1.2.88,dst="
        "1.1.2.92,proto=17,tos=0,ttl=64,frag=0x4000),udp(src=0,dst=4789,"
        "csum=0x0),vxlan(flags=0x8000000,vni=0x7b)),out_port(100))",
        "tnl_push(tnl_port(1),header(size=14,type=4,eth(dst=f8:bc:12:44:34:"
        "b6,src=aa:55:aa:55:00:00,dl_type=0x0800)),out_port(2))",
        "tnl_pop(x)",
    };
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        struct ofpbuf acts;
        ofpbuf_init(&acts, 0);
        char *error = odp_actions_from_string(bad[i], NULL, &acts);
        ck_assert_msg(error, "%s: accepted", bad[i]);
        free(error);
        ofpbuf_uninit(&acts);
    }
}
END_TEST

/* tnl_push through the userspace datapath: pushed in place, the packet
 * leaves by the output that follows (not out_port, which only names the
 * route's device) with the header on. */
START_TEST(test_datapath_push)
{
    netdev_enable_dummy(NETDEV_DUMMY_OVERRIDE);
    struct dpif *dpif;
    ck_assert_int_eq(dpif_create("tnl-dp", "netdev", &dpif), 0);
    struct netdev *p1, *p2;
    ck_assert_int_eq(netdev_open("tnl-p1", "dummy", &p1), 0);
    ck_assert_int_eq(netdev_open("tnl-p2", "dummy", &p2), 0);
    uint32_t port1 = DPIF_PORT_NONE, port2 = DPIF_PORT_NONE;
    ck_assert_int_eq(dpif_port_add(dpif, p1, &port1), 0);
    ck_assert_int_eq(dpif_port_add(dpif, p2, &port2), 0);

    struct tunnel_config cfg = default_cfg(htons(4789));
    struct tnl_push_action d;
    build(TNL_TYPE_VXLAN, false, false, NULL, 0, &cfg, &d);
    d.tnl_port = 4789;
    d.out_port = port1;
    struct ofpbuf acts;
    ofpbuf_init(&acts, 0);
    odp_put_tnl_push_action(&acts, &d);
    nl_msg_put_u32(&acts, OVS_ACTION_ATTR_OUTPUT, port2);
    ck_assert(odp_actions_validate(acts.data, acts.size, NULL));

    struct dp_packet *inner = inner_packet();
    struct dp_packet_batch batch;
    dp_packet_batch_init_packet(&batch, inner);
    struct netdev_stats before, after, before1, after1;
    netdev_get_stats(p2, &before);
    netdev_get_stats(p1, &before1);
    size_t inner_size = dp_packet_size(inner);
    ck_assert_int_eq(dpif_execute(dpif, &batch, acts.data, acts.size), 0);
    netdev_get_stats(p2, &after);
    netdev_get_stats(p1, &after1);
    ck_assert_uint_eq(after.tx_packets, before.tx_packets + 1);
    ck_assert_uint_eq(after.tx_bytes - before.tx_bytes, inner_size + 50);
    ck_assert_uint_eq(after1.tx_packets, before1.tx_packets);

    /* Under a clone, the original stays as it was. */
    ofpbuf_clear(&acts);
    size_t ofs = nl_msg_start_nested(&acts, OVS_ACTION_ATTR_CLONE);
    odp_put_tnl_push_action(&acts, &d);
    nl_msg_put_u32(&acts, OVS_ACTION_ATTR_OUTPUT, port2);
    nl_msg_end_nested(&acts, ofs);
    nl_msg_put_u32(&acts, OVS_ACTION_ATTR_OUTPUT, port1);
    ck_assert(odp_actions_validate(acts.data, acts.size, NULL));
    struct dp_packet *inner2 = inner_packet();
    dp_packet_batch_init_packet(&batch, inner2);
    ck_assert_int_eq(dpif_execute(dpif, &batch, acts.data, acts.size), 0);
    netdev_get_stats(p1, &after1);
    ck_assert_uint_eq(after1.tx_bytes - before1.tx_bytes, inner_size);
    dp_packet_delete(inner2);

    dp_packet_delete(inner);
    ofpbuf_uninit(&acts);
    netdev_close(p1);
    netdev_close(p2);
    ck_assert_int_eq(dpif_delete(dpif), 0);
    netdev_close_all();
    poll_loop_destroy_self();
}
END_TEST

static Suite *
native_tnl_suite(void)
{
    Suite *s = suite_create("native-tnl");
    TCase *tc = tcase_create("router");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_router_lpm_v4_v6);
    tcase_add_test(tc, test_router_many_routes);
    tcase_add_test(tc, test_router_batch);
    tcase_add_test(tc, test_router_readers_race_writers);
    /* Last: it turns the system's routes off for the process, which the
     * others (sharing it under CK_FORK=no, as valgrind runs them) need. */
    tcase_add_test(tc, test_router_marks_and_local);
    suite_add_tcase(s, tc);

    tc = tcase_create("neigh");
    tcase_add_test(tc, test_neigh_set_lookup_age);
    tcase_add_test(tc, test_neigh_snoop);
    suite_add_tcase(s, tc);

    tc = tcase_create("header");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_header_build_format);
    tcase_add_test(tc, test_header_build_format_gre);
    tcase_add_test(tc, test_header_build_refuses);
    tcase_add_test(tc, test_header_round_trips);
    tcase_add_test(tc, test_header_vxlan_gpe);
    tcase_add_test(tc, test_geneve_udpif_conversion);
    tcase_add_test(tc, test_neighbour_requests);
    tcase_add_test(tc, test_header_malformed);
    tcase_add_test(tc, test_header_random_damage);
    tcase_add_test(tc, test_action_text);
    tcase_add_test(tc, test_datapath_push);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(native_tnl_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
