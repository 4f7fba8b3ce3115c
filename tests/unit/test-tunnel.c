/* Unit tests for tunnel ports: the options parser and formatter
 * (lib/tunnel-options.h), tunnel netdevs (lib/netdev-vport.h) and
 * ofproto's tunnel map (ofproto/tunnel.h): receive precedence, send
 * metadata, shared datapath ports. */
#include <config.h>

#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "dpif.h"
#include "dynamic-string.h"
#include "flow.h"
#include "netdev-vport.h"
#include "netdev.h"
#include "ofproto-private.h"
#include "ovs-rcu.h"
#include "packets.h"
#include "poll-loop.h"
#include "smap.h"
#include "tunnel-options.h"
#include "tunnel.h"
#include "util.h"

/* Parses "k=v k=v ..." as TYPE's options of interface "t".  Returns the
 * parser's result; *ERRP and WARNINGS as it left them. */
static int
parse(const char *type, const char *options, struct tunnel_config *cfg,
      struct ds *warnings, char **errp)
{
    struct smap smap = SMAP_INITIALIZER(&smap);
    char *copy = xstrdup(options), *save = NULL;
    for (char *kv = strtok_r(copy, " ", &save); kv;
         kv = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(kv, '=');
        ck_assert(eq);
        *eq = '\0';
        smap_add(&smap, kv, eq + 1);
    }
    int error = tunnel_options_parse(type, "t", &smap, cfg, warnings, errp);
    smap_destroy(&smap);
    free(copy);
    return error;
}

/* What dpif/show would list for OPTIONS: "k=v, k=v" sorted. */
static char *
shown(const char *type, const char *options)
{
    struct tunnel_config cfg;
    struct ds warnings = DS_EMPTY_INITIALIZER;
    char *err = NULL;
    ck_assert_int_eq(parse(type, options, &cfg, &warnings, &err), 0);
    ds_destroy(&warnings);
    struct smap out = SMAP_INITIALIZER(&out);
    tunnel_options_format(type, &cfg, &out);
    const struct smap_node **sorted = smap_sort(&out);
    struct ds s = DS_EMPTY_INITIALIZER;
    for (size_t i = 0; i < smap_count(&out); i++) {
        ds_put_format(&s, "%s%s=%s", i ? ", " : "", sorted[i]->key,
                      sorted[i]->value);
    }
    free(sorted);
    smap_destroy(&out);
    return ds_steal_cstr(&s);
}

#define CHECK_SHOWN(TYPE, OPTIONS, EXPECT)              \
    do {                                                \
        char *s_ = shown(TYPE, OPTIONS);                \
        ck_assert_str_eq(s_, EXPECT);                   \
        free(s_);                                       \
    } while (0)

START_TEST(test_parse_defaults)
{
    struct tunnel_config cfg;
    struct ds w = DS_EMPTY_INITIALIZER;
    char *err = NULL;

    ck_assert_int_eq(parse("gre", "remote_ip=1.1.1.1", &cfg, &w, &err), 0);
    ck_assert_ptr_null(err);
    ck_assert_uint_eq(w.length, 0);
    ck_assert_uint_eq(tunnel_in6_get_mapped_ipv4(&cfg.ipv6_dst),
                      htonl(0x01010101));
    ck_assert_uint_eq(cfg.ttl, 64);
    ck_assert(cfg.dont_fragment);
    ck_assert(!cfg.in_key_present && !cfg.out_key_present);
    ck_assert_uint_eq(cfg.dst_port, 0);
    ck_assert_int_eq(cfg.pt_mode, TUNNEL_PT_LEGACY_L2);

    ck_assert_int_eq(parse("vxlan", "remote_ip=flow", &cfg, &w, &err), 0);
    ck_assert(cfg.ip_dst_flow);
    ck_assert_uint_eq(ntohs(cfg.dst_port), 4789);
    ck_assert_int_eq(parse("geneve", "remote_ip=::1", &cfg, &w, &err), 0);
    ck_assert_uint_eq(ntohs(cfg.dst_port), 6081);
    ck_assert_int_eq(parse("lisp", "remote_ip=1.2.3.4", &cfg, &w, &err), 0);
    ck_assert_uint_eq(ntohs(cfg.dst_port), 4341);
    ck_assert_int_eq(cfg.pt_mode, TUNNEL_PT_LEGACY_L3);
    ck_assert_int_eq(parse("gtpu", "remote_ip=1.2.3.4", &cfg, &w, &err), 0);
    ck_assert_uint_eq(ntohs(cfg.dst_port), 2152);
    ds_destroy(&w);
}
END_TEST

START_TEST(test_parse_keys)
{
    struct tunnel_config cfg;
    struct ds w = DS_EMPTY_INITIALIZER;
    char *err = NULL;

    ck_assert_int_eq(parse("gre", "remote_ip=1.1.1.1 key=5", &cfg, &w,
                           &err), 0);
    ck_assert(cfg.in_key_present && cfg.out_key_present);
    ck_assert_uint_eq(ntohll(cfg.in_key), 5);
    ck_assert_uint_eq(ntohll(cfg.out_key), 5);

    /* in_key and out_key win over key. */
    ck_assert_int_eq(parse("gre", "remote_ip=1.1.1.1 key=flow in_key=0x10",
                           &cfg, &w, &err), 0);
    ck_assert(!cfg.in_key_flow && cfg.out_key_flow);
    ck_assert_uint_eq(ntohll(cfg.in_key), 16);

    CHECK_SHOWN("gre", "remote_ip=1.1.1.1 key=flow", "key=flow, "
                "remote_ip=1.1.1.1");
    CHECK_SHOWN("gre", "remote_ip=1.1.1.1 in_key=2 out_key=3",
                "in_key=2, out_key=3, remote_ip=1.1.1.1");
    CHECK_SHOWN("gre", "remote_ip=1.1.1.1 out_key=5",
                "out_key=5, remote_ip=1.1.1.1");
    CHECK_SHOWN("gre", "remote_ip=1.1.1.1 in_key=flow key=4",
                "in_key=flow, out_key=4, remote_ip=1.1.1.1");
    ds_destroy(&w);
}
END_TEST

START_TEST(test_format_defaults_hidden)
{
    CHECK_SHOWN("gre", "remote_ip=1.1.1.1 ttl=64 df_default=true",
                "remote_ip=1.1.1.1");
    CHECK_SHOWN("gre", "local_ip=2.2.2.3 remote_ip=1.1.1.1 "
                "df_default=false ttl=1 csum=true",
                "csum=true, df_default=false, local_ip=2.2.2.3, "
                "remote_ip=1.1.1.1, ttl=1");
    CHECK_SHOWN("vxlan", "remote_ip=1.1.1.1 dst_port=4789",
                "remote_ip=1.1.1.1");
    CHECK_SHOWN("vxlan", "remote_ip=1.1.1.1 dst_port=4341",
                "dst_port=4341, remote_ip=1.1.1.1");
    CHECK_SHOWN("gre", "remote_ip=1.1.1.1 tos=inherit ttl=inherit",
                "remote_ip=1.1.1.1, tos=inherit, ttl=inherit");
    CHECK_SHOWN("gre", "remote_ip=1.1.1.1 tos=0x10",
                "remote_ip=1.1.1.1, tos=0x10");
    CHECK_SHOWN("vxlan", "remote_ip=2001:cafe::1",
                "remote_ip=2001:cafe::1");
    CHECK_SHOWN("gre", "remote_ip=1.1.1.1 egress_pkt_mark=7",
                "egress_pkt_mark=7, remote_ip=1.1.1.1");
    CHECK_SHOWN("erspan", "remote_ip=1.1.1.1 key=1 erspan_ver=1 "
                "erspan_idx=0x7",
                "erspan_idx=0x7, erspan_ver=1, key=1, remote_ip=1.1.1.1");
    CHECK_SHOWN("erspan", "remote_ip=1.1.1.1 key=flow erspan_ver=flow",
                "erspan_dir=flow, erspan_hwid=flow, erspan_idx=flow, "
                "erspan_ver=flow, key=flow, remote_ip=1.1.1.1");
    CHECK_SHOWN("gre", "remote_ip=1.1.1.1 packet_type=legacy_l3",
                "packet_type=legacy_l3, remote_ip=1.1.1.1");
}
END_TEST

/* Errors that refuse the configuration, in 3.1's words. */
START_TEST(test_parse_errors)
{
    static const struct {
        const char *type, *options, *error;
    } cases[] = {
        { "gre", "key=1", "t: gre type requires valid 'remote_ip' argument" },
        { "vxlan", "remote_ip=1.1.1.1 local_ip=flow",
          "t: vxlan type requires 'remote_ip=flow' with 'local_ip=flow'" },
        { "gre", "remote_ip=1.1.1.1 local_ip=::2",
          "t: 'remote_ip' and 'local_ip' has to be of the same address "
          "family" },
        { "gre", "remote_ip=224.0.0.1",
          "t: multicast remote_ip=224.0.0.1 not allowed" },
        { "erspan", "remote_ip=1.1.1.1 erspan_ver=3",
          "t: invalid erspan version: 3" },
        { "erspan", "remote_ip=1.1.1.1 erspan_idx=0x100000",
          "t: invalid erspan index: 0x100000" },
        { "erspan", "remote_ip=1.1.1.1 erspan_dir=2",
          "t: invalid erspan direction: 2" },
        { "erspan", "remote_ip=1.1.1.1 erspan_hwid=0x40",
          "t: invalid erspan hardware ID: 0x40" },
        { "lisp", "remote_ip=1.1.1.1 packet_type=legacy_l2",
          "t: legacy_l2 configured on lisp tunnel that cannot carry L2 "
          "traffic" },
        { "vxlan", "remote_ip=1.1.1.1 packet_type=legacy_l3",
          "t: legacy_l3 configured on VXLAN (without GPE) tunnel that "
          "cannot carry L3 traffic" },
        { "gre", "remote_ip=1.1.1.1 packet_type=bogus",
          "t: unknown packet_type 'bogus'" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        struct tunnel_config cfg;
        struct ds w = DS_EMPTY_INITIALIZER;
        char *err = NULL;
        ck_assert_int_eq(parse(cases[i].type, cases[i].options, &cfg, &w,
                               &err), EINVAL);
        ck_assert_msg(err && !strcmp(err, cases[i].error), "%s: got %s",
                      cases[i].options, err ? err : "(null)");
        free(err);
        ds_destroy(&w);
    }
}
END_TEST

/* Mistakes that only warn: the rest of the options apply. */
START_TEST(test_parse_warnings)
{
    struct tunnel_config cfg;
    struct ds w = DS_EMPTY_INITIALIZER;
    char *err = NULL;

    ck_assert_int_eq(parse("gre", "remote_ip=1.1.1.1 bogus=1 tos=0x3 "
                           "dst_port=5 local_ip=x.y ttl=9", &cfg, &w, &err),
                     0);
    ck_assert_ptr_null(err);
    ck_assert_str_eq(ds_cstr(&w),
                     "t: unknown gre argument 'bogus'\n"
                     "t: unknown gre argument 'dst_port'\n"
                     "t: bad gre 'local_ip'\n"
                     "t: invalid TOS 0x3\n");
    ck_assert_uint_eq(cfg.ttl, 9);
    ck_assert_uint_eq(cfg.tos, 0);
    ds_destroy(&w);

    /* A bad remote is only a warning, but then there is no remote. */
    ds_init(&w);
    ck_assert_int_eq(parse("gre", "remote_ip=bad", &cfg, &w, &err), EINVAL);
    ck_assert_str_eq(ds_cstr(&w), "t: bad gre 'remote_ip'\n");
    free(err);
    ds_destroy(&w);
}
END_TEST

START_TEST(test_dpif_port_names)
{
    char buf[32];
    ck_assert_str_eq(tunnel_dpif_port_name("gre", 0, buf, sizeof buf),
                     "gre_sys");
    ck_assert_str_eq(tunnel_dpif_port_name("vxlan", 4789, buf, sizeof buf),
                     "vxlan_sys_4789");
    ck_assert_str_eq(tunnel_dpif_port_name("geneve", 6081, buf, sizeof buf),
                     "genev_sys_6081");
    ck_assert_str_eq(tunnel_dpif_port_name("ip6erspan", 0, buf, sizeof buf),
                     "ip6erspan_sys");
    ck_assert_ptr_null(tunnel_dpif_port_name("dummy", 0, buf, sizeof buf));
    ck_assert(tunnel_type_is_udp("gtpu") && !tunnel_type_is_udp("gre"));
}
END_TEST

/* The map, through a bridge on the userspace datapath. */

struct fixture {
    struct ofproto *ofproto;
    struct netdev *netdevs[16];
    size_t n;
};

static void
setup(struct fixture *fx)
{
    memset(fx, 0, sizeof *fx);
    netdev_enable_dummy(NETDEV_DUMMY_OVERRIDE);
    ofproto_init();
    ck_assert_int_eq(ofproto_create("br0", "netdev", &fx->ofproto), 0);
}

static void
teardown(struct fixture *fx)
{
    ofproto_destroy(fx->ofproto);
    for (size_t i = 0; i < fx->n; i++) {
        netdev_close(fx->netdevs[i]);
    }
    ovsrcu_synchronize();
    netdev_close_all();
    poll_loop_destroy_self();
}

/* Adds tunnel NAME of TYPE with OPTIONS as OpenFlow port OFP_PORT. */
static struct netdev *
add_tunnel(struct fixture *fx, const char *name, const char *type,
           const char *options, uint16_t ofp_port)
{
    struct netdev *netdev;
    ck_assert_int_eq(netdev_open(name, type, &netdev), 0);
    struct smap smap = SMAP_INITIALIZER(&smap);
    char *copy = xstrdup(options), *save = NULL;
    for (char *kv = strtok_r(copy, " ", &save); kv;
         kv = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(kv, '=');
        *eq = '\0';
        smap_add(&smap, kv, eq + 1);
    }
    ck_assert_int_eq(netdev_set_config(netdev, &smap, NULL), 0);
    smap_destroy(&smap);
    free(copy);
    ck_assert_int_eq(ofproto_port_add(fx->ofproto, netdev, ofp_port), 0);
    fx->netdevs[fx->n++] = netdev;
    return netdev;
}

/* The OpenFlow port a packet from SRC to DST with KEY (or none, if
 * KEY < 0) on datapath port ODP_PORT maps to; 0 for none. */
static uint16_t
receive(struct fixture *fx, uint32_t odp_port, const char *src,
        const char *dst, long long key)
{
    struct flow flow;
    memset(&flow, 0, sizeof flow);
    flow.in_port = odp_port;
    inet_pton(AF_INET, src, &flow.tunnel.ip_src);
    inet_pton(AF_INET, dst, &flow.tunnel.ip_dst);
    if (key >= 0) {
        flow.tunnel.tun_id = htonll(key);
        flow.tunnel.flags |= FLOW_TNL_F_KEY;
    }
    ovs_rwlock_rdlock(&xlate_rwlock);
    const struct ofport *port = backer_flow_to_ofport(fx->ofproto->backer,
                                                      &flow);
    uint16_t ofp_port = port ? port->ofp_port : 0;
    ovs_rwlock_unlock(&xlate_rwlock);
    return ofp_port;
}

START_TEST(test_map_precedence)
{
    struct fixture fx;
    setup(&fx);
    add_tunnel(&fx, "any", "gre", "remote_ip=1.1.1.1", 1);
    add_tunnel(&fx, "local", "gre", "remote_ip=1.1.1.1 local_ip=2.2.2.2", 2);
    add_tunnel(&fx, "lflow", "gre", "remote_ip=flow local_ip=flow", 3);
    add_tunnel(&fx, "keyed", "gre", "remote_ip=1.1.1.1 key=7", 4);
    add_tunnel(&fx, "kflow", "gre", "remote_ip=1.1.1.1 key=flow", 5);
    add_tunnel(&fx, "rflow", "gre", "remote_ip=flow", 6);
    uint32_t gre = ofproto_port_get_odp_port(fx.ofproto, 1);
    for (uint16_t p = 2; p <= 6; p++) {
        /* One datapath port for all of them. */
        ck_assert_uint_eq(ofproto_port_get_odp_port(fx.ofproto, p), gre);
    }

    /* An exact local address beats any local address. */
    ck_assert_uint_eq(receive(&fx, gre, "1.1.1.1", "2.2.2.2", -1), 2);
    ck_assert_uint_eq(receive(&fx, gre, "1.1.1.1", "9.9.9.9", -1), 1);
    /* An exact key beats key=flow. */
    ck_assert_uint_eq(receive(&fx, gre, "1.1.1.1", "9.9.9.9", 7), 4);
    ck_assert_uint_eq(receive(&fx, gre, "1.1.1.1", "9.9.9.9", 8), 5);
    /* An exact remote beats remote_ip=flow; any local beats local=flow. */
    ck_assert_uint_eq(receive(&fx, gre, "3.3.3.3", "9.9.9.9", -1), 6);
    /* Another datapath port matches none of them. */
    ck_assert_uint_eq(receive(&fx, gre + 1, "1.1.1.1", "2.2.2.2", -1), 0);

    /* A second tunnel with the same receive match is refused. */
    struct netdev *dup;
    ck_assert_int_eq(netdev_open("dup", "gre", &dup), 0);
    struct smap smap = SMAP_INITIALIZER(&smap);
    smap_add(&smap, "remote_ip", "1.1.1.1");
    ck_assert_int_eq(netdev_set_config(dup, &smap, NULL), 0);
    smap_destroy(&smap);
    ck_assert_int_eq(ofproto_port_add(fx.ofproto, dup, 7), EEXIST);
    ck_assert(!ofproto_port_exists(fx.ofproto, 7));
    netdev_close(dup);
    ck_assert_uint_eq(receive(&fx, gre, "1.1.1.1", "9.9.9.9", -1), 1);

    /* Deleting the best match falls back to the next. */
    ofproto_port_del(fx.ofproto, 2);
    ck_assert_uint_eq(receive(&fx, gre, "1.1.1.1", "2.2.2.2", -1), 1);
    ofproto_port_del(fx.ofproto, 1);
    ofproto_port_del(fx.ofproto, 6);
    ck_assert_uint_eq(receive(&fx, gre, "1.1.1.1", "2.2.2.2", -1), 3);
    teardown(&fx);
}
END_TEST

static bool
dp_has_port(struct fixture *fx, const char *name)
{
    struct dpif_port port;
    if (dpif_port_query_by_name(fx->ofproto->backer->dpif, name, &port)) {
        return false;
    }
    dpif_port_destroy(&port);
    return true;
}

START_TEST(test_shared_dp_ports)
{
    struct fixture fx;
    setup(&fx);
    struct netdev *a = add_tunnel(&fx, "va", "vxlan", "remote_ip=1.1.1.1",
                                  1);
    add_tunnel(&fx, "vb", "vxlan", "remote_ip=1.1.1.2", 2);
    add_tunnel(&fx, "vc", "vxlan", "remote_ip=1.1.1.3 dst_port=5000", 3);
    ck_assert(dp_has_port(&fx, "vxlan_sys_4789"));
    ck_assert(dp_has_port(&fx, "vxlan_sys_5000"));
    ck_assert_uint_eq(ofproto_port_get_odp_port(fx.ofproto, 1),
                      ofproto_port_get_odp_port(fx.ofproto, 2));
    ck_assert_uint_ne(ofproto_port_get_odp_port(fx.ofproto, 1),
                      ofproto_port_get_odp_port(fx.ofproto, 3));

    /* A new UDP port moves the tunnel to another datapath port; the one
     * nobody uses any more goes. */
    struct smap smap = SMAP_INITIALIZER(&smap);
    smap_add(&smap, "remote_ip", "1.1.1.3");
    smap_add(&smap, "dst_port", "6000");
    ck_assert_int_eq(netdev_set_config(fx.netdevs[2], &smap, NULL), 0);
    smap_destroy(&smap);
    ofproto_port_changed(fx.ofproto, 3);
    ck_assert(!dp_has_port(&fx, "vxlan_sys_5000"));
    ck_assert(dp_has_port(&fx, "vxlan_sys_6000"));
    uint32_t odp = ofproto_port_get_odp_port(fx.ofproto, 3);
    ck_assert_uint_eq(receive(&fx, odp, "1.1.1.3", "5.5.5.5", -1), 3);

    /* The shared port stays while one tunnel uses it. */
    ofproto_port_del(fx.ofproto, 1);
    ck_assert(dp_has_port(&fx, "vxlan_sys_4789"));
    ofproto_port_del(fx.ofproto, 2);
    ck_assert(!dp_has_port(&fx, "vxlan_sys_4789"));
    (void) a;
    teardown(&fx);
}
END_TEST

START_TEST(test_send)
{
    struct fixture fx;
    setup(&fx);
    add_tunnel(&fx, "g", "gre", "remote_ip=1.1.1.1 local_ip=2.2.2.2 key=5 "
               "tos=inherit ttl=inherit csum=true", 1);
    ovs_rwlock_rdlock(&xlate_rwlock);
    const struct ofport *port = ofproto_get_port(fx.ofproto, 1);
    struct flow flow;
    struct flow_wildcards wc;
    memset(&flow, 0, sizeof flow);
    memset(&wc, 0, sizeof wc);
    flow.dl_type = htons(ETH_TYPE_IP);
    flow.nw_tos = 0x13;             /* DSCP 4, ECN CE. */
    flow.nw_ttl = 99;
    uint32_t odp = tnl_port_send(port, &flow, &wc);
    ovs_rwlock_unlock(&xlate_rwlock);

    ck_assert_uint_eq(odp, ofproto_port_get_odp_port(fx.ofproto, 1));
    ck_assert_uint_eq(flow.tunnel.ip_dst, htonl(0x01010101));
    ck_assert_uint_eq(flow.tunnel.ip_src, htonl(0x02020202));
    ck_assert_uint_eq(ntohll(flow.tunnel.tun_id), 5);
    ck_assert_uint_eq(flow.tunnel.ip_ttl, 99);
    /* DSCP inherited; CE goes out as ECT(0). */
    ck_assert_uint_eq(flow.tunnel.ip_tos, 0x12);
    ck_assert_uint_eq(flow.tunnel.flags, FLOW_TNL_F_DONT_FRAGMENT
                      | FLOW_TNL_F_CSUM | FLOW_TNL_F_KEY);
    ck_assert_uint_eq(wc.masks.nw_ttl, 0xff);
    ck_assert_uint_eq(wc.masks.nw_tos, 0xff);
    teardown(&fx);
}
END_TEST

START_TEST(test_ecn_decap)
{
    struct flow flow;
    memset(&flow, 0, sizeof flow);
    flow.tunnel.ip_dst = htonl(0x02020202);
    flow.tunnel.ip_tos = 3;
    flow.dl_type = htons(ETH_TYPE_IP);
    flow.nw_tos = 1;
    ck_assert(tnl_process_ecn(&flow));
    ck_assert_uint_eq(flow.nw_tos, 3);
    flow.nw_tos = 0;
    ck_assert(!tnl_process_ecn(&flow));
    flow.tunnel.ip_tos = 2;
    ck_assert(tnl_process_ecn(&flow));
    ck_assert_uint_eq(flow.nw_tos, 0);
}
END_TEST

static Suite *
tunnel_suite(void)
{
    Suite *s = suite_create("tunnel");
    TCase *tc = tcase_create("options");
    tcase_add_test(tc, test_parse_defaults);
    tcase_add_test(tc, test_parse_keys);
    tcase_add_test(tc, test_format_defaults_hidden);
    tcase_add_test(tc, test_parse_errors);
    tcase_add_test(tc, test_parse_warnings);
    tcase_add_test(tc, test_dpif_port_names);
    suite_add_tcase(s, tc);

    tc = tcase_create("map");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_map_precedence);
    tcase_add_test(tc, test_shared_dp_ports);
    tcase_add_test(tc, test_send);
    tcase_add_test(tc, test_ecn_decap);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(tunnel_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
