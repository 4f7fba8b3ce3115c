/* Unit tests for ofproto/: rules and flow_mod semantics, translation
 * (actions, resubmit, NORMAL, megaflow wildcards), rule timeouts,
 * packet-out, and the MAC learning table. */
#include <config.h>

#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "dp-packet.h"
#include "dynamic-string.h"
#include "flow-extract.h"
#include "mac-learning.h"
#include "netdev.h"
#include "odp-util.h"
#include "ofproto-private.h"
#include "ofproto-text.h"
#include "ovs-rcu.h"
#include "poll-loop.h"
#include "seq.h"
#include "timeval.h"
#include "util.h"
#include "xlate.h"

struct fixture {
    struct ofproto *ofproto;
    struct netdev *ports[4];        /* Index = OpenFlow port number. */
    int bundle_aux[4];
};

static void
setup(struct fixture *fx)
{
    netdev_enable_dummy(true);
    ofproto_init();
    ck_assert_int_eq(ofproto_create("br0", "netdev", &fx->ofproto), 0);
    for (int i = 1; i <= 3; i++) {
        char name[8];
        snprintf(name, sizeof name, "p%d", i);
        ck_assert_int_eq(netdev_open(name, "dummy", &fx->ports[i]), 0);
        netdev_update_flags(fx->ports[i], 0, NETDEV_UP);
        ck_assert_int_eq(ofproto_port_add(fx->ofproto, fx->ports[i], i), 0);
        uint16_t member = i;
        struct ofproto_bundle_settings s = {
            .name = name, .members = &member, .n_members = 1,
            .vlan_mode = PORT_VLAN_TRUNK, .vlan = -1,
        };
        ofproto_bundle_register(fx->ofproto, &fx->bundle_aux[i], &s);
    }
}

static void
teardown(struct fixture *fx)
{
    ofproto_destroy(fx->ofproto);
    for (int i = 1; i <= 3; i++) {
        netdev_close(fx->ports[i]);
    }
    ovsrcu_synchronize();
    netdev_close_all();
    poll_loop_destroy_self();
}

/* Translates the OpenFlow-syntax FLOW; returns the datapath actions as
 * text (the caller frees) and the megaflow in *MEGAFLOW if nonnull. */
static char *
xlate(struct fixture *fx, const char *flow_s, bool may_learn,
      char **megaflow)
{
    struct flow flow;
    struct flow_wildcards wc;
    char *error = ofp_match_parse(flow_s, NULL, &flow, &wc, NULL);
    ck_assert_msg(!error, "%s", error);

    struct xlate_in xin = { .ofproto = fx->ofproto, .flow = flow,
                            .may_learn = may_learn };
    struct xlate_out xout;
    xlate_out_init(&xout);
    ovs_rwlock_rdlock(&xlate_rwlock);
    xlate_actions(&xin, &xout);
    ovs_rwlock_unlock(&xlate_rwlock);

    struct ds s = DS_EMPTY_INITIALIZER;
    odp_actions_format(xout.odp_actions.data, xout.odp_actions.size, NULL,
                       &s);
    if (megaflow) {
        struct ds m = DS_EMPTY_INITIALIZER;
        struct flow masked;
        flow_apply_mask(&masked, &flow, &xout.wc);
        ofp_match_format(&masked, &xout.wc, -1, NULL, &m);
        *megaflow = ds_steal_cstr(&m);
    }
    xlate_out_uninit(&xout);
    ovsrcu_quiesce();
    return ds_steal_cstr(&s);
}

#define CHECK_XLATE(FX, FLOW, EXPECTED)                                 \
    do {                                                                \
        char *actions_ = xlate(FX, FLOW, false, NULL);                  \
        ck_assert_str_eq(actions_, EXPECTED);                           \
        free(actions_);                                                 \
    } while (0)

/* Adds "MATCH, priority PRIORITY, actions ACTIONS" to TABLE. */
static int
add_flow(struct fixture *fx, uint8_t table, const char *match, int priority,
         const char *actions_s, uint64_t cookie, uint16_t flags)
{
    struct ofproto_flow_mod fm;
    ofproto_flow_mod_init(&fm);
    char *error = ofp_match_parse(match, NULL, &fm.match, &fm.wc, NULL);
    ck_assert_msg(!error, "%s", error);
    struct ofpact *ofpacts;
    size_t n;
    error = ofpacts_parse(actions_s, &ofpacts, &n, NULL, NULL);
    ck_assert_msg(!error, "%s", error);
    fm.table_id = table;
    fm.priority = priority;
    fm.cookie = cookie;
    fm.flags = flags;
    fm.ofpacts = ofpacts;
    fm.n_ofpacts = n;
    int retval = ofproto_flow_mod(fx->ofproto, &fm);
    free(ofpacts);
    return retval;
}

START_TEST(test_default_rule_and_priorities)
{
    struct fixture fx;
    setup(&fx);

    /* The learning switch: flooding to every other port. */
    CHECK_XLATE(&fx, "in_port=1,dl_src=00:00:00:00:00:01,"
                "dl_dst=00:00:00:00:00:02", "2,3");
    ck_assert_uint_eq(ofproto_count_rules(fx.ofproto), 1);

    /* A higher-priority rule wins, and the megaflow needs only its match
     * (in_port) and what the lookup had to look at. */
    ck_assert_int_eq(add_flow(&fx, 0, "in_port=1,ip", 100, "output:3", 0,
                              0), 0);
    char *megaflow;
    char *actions = xlate(&fx, "in_port=1,ip,nw_src=10.0.0.1", false,
                          &megaflow);
    ck_assert_str_eq(actions, "3");
    ck_assert_str_eq(megaflow, "ip,in_port=1");
    free(actions);
    free(megaflow);
    /* Non-IP traffic still goes through NORMAL. */
    CHECK_XLATE(&fx, "in_port=1,arp,dl_dst=00:00:00:00:00:02", "2,3");

    /* Output to the input port is skipped unless IN_PORT says so. */
    ck_assert_int_eq(add_flow(&fx, 0, "in_port=2", 100, "output:2,output:3",
                              0, 0), 0);
    CHECK_XLATE(&fx, "in_port=2", "3");
    ck_assert_int_eq(add_flow(&fx, 0, "in_port=2", 100, "IN_PORT", 0, 0),
                     0);
    CHECK_XLATE(&fx, "in_port=2", "2");
    /* The same match and priority replaced the rule. */
    ck_assert_uint_eq(ofproto_count_rules(fx.ofproto), 3);
    teardown(&fx);
}
END_TEST

START_TEST(test_resubmit_and_actions)
{
    struct fixture fx;
    setup(&fx);

    ck_assert_int_eq(add_flow(&fx, 0, "in_port=1", 10, "resubmit(,1)", 0, 0),
                     0);
    ck_assert_int_eq(add_flow(&fx, 1, "", 10,
                              "mod_vlan_vid:5,output:2,strip_vlan,output:3",
                              0, 0), 0);
    CHECK_XLATE(&fx, "in_port=1", "push_vlan(vid=5,pcp=0),2,pop_vlan,3");
    /* A table with no match drops. */
    ck_assert_int_eq(add_flow(&fx, 0, "in_port=2", 10, "resubmit(,7)", 0, 0),
                     0);
    CHECK_XLATE(&fx, "in_port=2", "drop");
    /* resubmit to another in_port: the lookup sees that port. */
    ck_assert_int_eq(add_flow(&fx, 2, "in_port=3", 10, "output:1", 0, 0), 0);
    ck_assert_int_eq(add_flow(&fx, 0, "in_port=3", 10,
                              "resubmit(1,2),resubmit(3,2)", 0, 0), 0);
    CHECK_XLATE(&fx, "in_port=3", "1");
    /* Ethernet rewrites are committed before the output that follows. */
    ck_assert_int_eq(add_flow(&fx, 3, "", 10,
                              "mod_dl_dst:00:00:00:00:00:99,output:2", 0, 0),
                     0);
    ck_assert_int_eq(add_flow(&fx, 0, "in_port=1,dl_vlan=7", 20,
                              "resubmit(,3)", 0, 0), 0);
    char *actions = xlate(&fx, "in_port=1,dl_vlan=7", false, NULL);
    ck_assert_msg(strstr(actions, "set(eth(dst=00:00:00:00:00:99))")
                  && strstr(actions, ",2"), "%s", actions);
    free(actions);
    /* A loop of resubmits is cut at the depth limit and drops all. */
    ck_assert_int_eq(add_flow(&fx, 4, "", 10, "output:2,resubmit(,4)", 0, 0),
                     0);
    ck_assert_int_eq(add_flow(&fx, 0, "in_port=1,dl_vlan=8", 20,
                              "resubmit(,4)", 0, 0), 0);
    CHECK_XLATE(&fx, "in_port=1,dl_vlan=8", "drop");
    teardown(&fx);
}
END_TEST

static uint64_t
rule_packets(struct fixture *fx, uint8_t table, int priority)
{
    struct ofproto_rule_info *infos;
    size_t n;
    uint64_t packets = UINT64_MAX;
    ofproto_dump_rules(fx->ofproto, &infos, &n);
    for (size_t i = 0; i < n; i++) {
        if (infos[i].table_id == table && infos[i].priority == priority) {
            packets = infos[i].n_packets;
        }
    }
    ofproto_rule_infos_free(infos, n);
    return packets;
}

START_TEST(test_flow_mod_semantics)
{
    struct fixture fx;
    setup(&fx);
    ofproto_flush_flows(fx.ofproto);
    ck_assert_uint_eq(ofproto_count_rules(fx.ofproto), 0);

    ck_assert_int_eq(add_flow(&fx, 0, "in_port=1,ip", 10, "output:2", 1, 0),
                     0);
    ck_assert_int_eq(add_flow(&fx, 0, "in_port=1,tcp", 20, "output:3", 2, 0),
                     0);
    /* CHECK_OVERLAP refuses a rule of the same priority that overlaps. */
    ck_assert_int_eq(add_flow(&fx, 0, "ip", 10, "drop", 0,
                              OFPROTO_FF_CHECK_OVERLAP), EEXIST);
    ck_assert_int_eq(add_flow(&fx, 0, "arp", 10, "drop", 0,
                              OFPROTO_FF_CHECK_OVERLAP), 0);
    ck_assert_uint_eq(ofproto_count_rules(fx.ofproto), 3);

    /* Loose modify of "in_port=1" with cookie 2/0xff changes the tcp rule
     * only. */
    struct ofpact out1 = { .type = OFPACT_OUTPUT, .port = 1 };
    struct ofproto_flow_mod fm;
    ofproto_flow_mod_init(&fm);
    ck_assert_ptr_null(ofp_match_parse("in_port=1", NULL, &fm.match, &fm.wc,
                                       NULL));
    fm.command = OFPROTO_FM_MODIFY;
    fm.cookie = 2;
    fm.cookie_mask = 0xff;
    fm.ofpacts = &out1;
    fm.n_ofpacts = 1;
    ck_assert_int_eq(ofproto_flow_mod(fx.ofproto, &fm), 0);
    CHECK_XLATE(&fx, "in_port=2,tcp", "drop");
    CHECK_XLATE(&fx, "in_port=1,udp", "2");

    /* Strict delete needs the exact match and priority. */
    fm.command = OFPROTO_FM_DELETE_STRICT;
    fm.cookie_mask = 0;
    fm.priority = 10;
    ck_assert_int_eq(ofproto_flow_mod(fx.ofproto, &fm), 0);
    ck_assert_uint_eq(ofproto_count_rules(fx.ofproto), 3);
    ck_assert_ptr_null(ofp_match_parse("in_port=1,ip", NULL, &fm.match,
                                       &fm.wc, NULL));
    ck_assert_int_eq(ofproto_flow_mod(fx.ofproto, &fm), 0);
    ck_assert_uint_eq(ofproto_count_rules(fx.ofproto), 2);

    /* Loose delete filtered by out_port: only rules that output there. */
    ofproto_flow_mod_init(&fm);
    fm.command = OFPROTO_FM_DELETE;
    fm.table_id = 255;
    fm.out_port = 1;
    ck_assert_int_eq(ofproto_flow_mod(fx.ofproto, &fm), 0);
    ck_assert_uint_eq(ofproto_count_rules(fx.ofproto), 1);

    /* Modify that matches nothing adds only if asked to (OpenFlow 1.0). */
    ofproto_flow_mod_init(&fm);
    ck_assert_ptr_null(ofp_match_parse("udp", NULL, &fm.match, &fm.wc,
                                       NULL));
    fm.command = OFPROTO_FM_MODIFY_STRICT;
    fm.ofpacts = &out1;
    fm.n_ofpacts = 1;
    ck_assert_int_eq(ofproto_flow_mod(fx.ofproto, &fm), 0);
    ck_assert_uint_eq(ofproto_count_rules(fx.ofproto), 1);
    fm.modify_may_add = true;
    ck_assert_int_eq(ofproto_flow_mod(fx.ofproto, &fm), 0);
    ck_assert_uint_eq(ofproto_count_rules(fx.ofproto), 2);

    /* Bad requests. */
    fm.command = OFPROTO_FM_ADD;
    fm.table_id = 255;
    ck_assert_int_eq(ofproto_flow_mod(fx.ofproto, &fm), EINVAL);
    fm.table_id = 0;
    fm.priority = 70000;
    ck_assert_int_eq(ofproto_flow_mod(fx.ofproto, &fm), EINVAL);

    /* Counters: translation with statistics credits every rule on the way,
     * and replacing a rule (same match and priority) keeps them. */
    ck_assert_int_eq(add_flow(&fx, 0, "in_port=3", 5, "resubmit(,1)", 0, 0),
                     0);
    ck_assert_int_eq(add_flow(&fx, 1, "", 5, "output:1", 0, 0), 0);
    struct flow flow;
    struct flow_wildcards wc;
    ck_assert_ptr_null(ofp_match_parse("in_port=3", NULL, &flow, &wc, NULL));
    struct xlate_in xin = { .ofproto = fx.ofproto, .flow = flow,
                            .n_packets = 3, .n_bytes = 180,
                            .used = time_msec() };
    struct xlate_out xout;
    xlate_out_init(&xout);
    xlate_actions(&xin, &xout);
    xlate_out_uninit(&xout);
    ck_assert_uint_eq(rule_packets(&fx, 0, 5), 3);
    ck_assert_uint_eq(rule_packets(&fx, 1, 5), 3);
    ck_assert_int_eq(add_flow(&fx, 1, "", 5, "output:2", 0, 0), 0);
    ck_assert_uint_eq(rule_packets(&fx, 1, 5), 3);
    ck_assert_int_eq(add_flow(&fx, 1, "", 5, "output:2", 0,
                              OFPROTO_FF_RESET_COUNTS), 0);
    ck_assert_uint_eq(rule_packets(&fx, 1, 5), 0);
    teardown(&fx);
}
END_TEST

START_TEST(test_timeouts)
{
    struct fixture fx;
    setup(&fx);
    time_stop();

    struct ofproto_flow_mod fm;
    struct ofpact out2 = { .type = OFPACT_OUTPUT, .port = 2 };
    ofproto_flow_mod_init(&fm);
    ck_assert_ptr_null(ofp_match_parse("in_port=1", NULL, &fm.match, &fm.wc,
                                       NULL));
    fm.hard_timeout = 4;
    fm.ofpacts = &out2;
    fm.n_ofpacts = 1;
    ck_assert_int_eq(ofproto_flow_mod(fx.ofproto, &fm), 0);
    ck_assert_ptr_null(ofp_match_parse("in_port=3", NULL, &fm.match, &fm.wc,
                                       NULL));
    fm.hard_timeout = 0;
    fm.idle_timeout = 3;
    ck_assert_int_eq(ofproto_flow_mod(fx.ofproto, &fm), 0);
    ck_assert_uint_eq(ofproto_count_rules(fx.ofproto), 3);

    time_warp(2000);
    /* Traffic on the idle rule keeps it. */
    struct flow flow;
    struct flow_wildcards wc;
    ck_assert_ptr_null(ofp_match_parse("in_port=3", NULL, &flow, &wc, NULL));
    struct xlate_in xin = { .ofproto = fx.ofproto, .flow = flow,
                            .n_packets = 1, .n_bytes = 60,
                            .used = time_msec() };
    struct xlate_out xout;
    xlate_out_init(&xout);
    xlate_actions(&xin, &xout);
    xlate_out_uninit(&xout);

    time_warp(1500);
    ofproto_run(fx.ofproto);
    ck_assert_uint_eq(ofproto_count_rules(fx.ofproto), 3);
    time_warp(1000);
    ofproto_run(fx.ofproto);
    /* At 4.5 s the hard timeout (4 s) is over, the idle one (3 s since the
     * packet at 2 s) not. */
    ck_assert_uint_eq(ofproto_count_rules(fx.ofproto), 2);
    CHECK_XLATE(&fx, "in_port=1", "2,3");
    time_warp(1000);
    ofproto_run(fx.ofproto);
    ck_assert_uint_eq(ofproto_count_rules(fx.ofproto), 1);
    teardown(&fx);
}
END_TEST

START_TEST(test_normal_learning_and_vlans)
{
    struct fixture fx;
    setup(&fx);

    /* Learned on p1; p2's packets for it go to p1 only. */
    char *a = xlate(&fx, "in_port=1,dl_src=00:00:00:00:00:01,"
                    "dl_dst=ff:ff:ff:ff:ff:ff", true, NULL);
    ck_assert_str_eq(a, "2,3");
    free(a);
    char *megaflow;
    a = xlate(&fx, "in_port=2,ip,dl_src=00:00:00:00:00:02,"
              "dl_dst=00:00:00:00:00:01", false, &megaflow);
    ck_assert_str_eq(a, "1");
    /* NORMAL looks at addresses, VLAN and port, not at L3. */
    ck_assert_str_eq(megaflow, "in_port=2,vlan_tci=0x0000,"
                     "dl_src=00:00:00:00:00:02,dl_dst=00:00:00:00:00:01");
    free(a);
    free(megaflow);
    /* Traffic for the port it came in on drops. */
    CHECK_XLATE(&fx, "in_port=1,dl_dst=00:00:00:00:00:01", "drop");

    /* p3 becomes an access port of VLAN 9: VLAN-0 traffic floods to p2
     * only; tagged 9 from the trunk p1 reaches p3 untagged. */
    uint16_t member = 3;
    struct ofproto_bundle_settings s = {
        .name = "p3", .members = &member, .n_members = 1,
        .vlan_mode = PORT_VLAN_ACCESS, .vlan = 9,
    };
    ofproto_bundle_register(fx.ofproto, &fx.bundle_aux[3], &s);
    CHECK_XLATE(&fx, "in_port=1,dl_dst=ff:ff:ff:ff:ff:ff", "2");
    CHECK_XLATE(&fx, "in_port=1,dl_vlan=9,dl_dst=ff:ff:ff:ff:ff:ff",
                "2,pop_vlan,3");
    CHECK_XLATE(&fx, "in_port=3,dl_dst=ff:ff:ff:ff:ff:ff",
                "push_vlan(vid=9,pcp=0),1,2");
    CHECK_XLATE(&fx, "in_port=3,dl_vlan=9,dl_dst=ff:ff:ff:ff:ff:ff", "drop");

    /* A port whose link goes down is left out of floods. */
    ck_assert_int_eq(netdev_update_flags(fx.ports[2], NETDEV_UP, 0), 0);
    ofproto_port_changed(fx.ofproto, 2);
    CHECK_XLATE(&fx, "in_port=1,dl_dst=ff:ff:ff:ff:ff:ff", "drop");
    teardown(&fx);
}
END_TEST

START_TEST(test_packet_out)
{
    struct fixture fx;
    setup(&fx);

    struct flow flow;
    struct flow_wildcards wc;
    ck_assert_ptr_null(ofp_match_parse("udp,dl_src=00:00:00:00:00:01,"
                                       "dl_dst=00:00:00:00:00:02,"
                                       "nw_src=10.0.0.1,nw_dst=10.0.0.2",
                                       NULL, &flow, &wc, NULL));
    struct dp_packet packet;
    dp_packet_init(&packet, 0);
    flow_compose(&packet, &flow, 10);
    struct ofpact acts[2] = {
        { .type = OFPACT_OUTPUT, .port = 2 },
        { .type = OFPACT_OUTPUT, .port = 3 },
    };
    ck_assert_int_eq(ofproto_packet_out(fx.ofproto, dp_packet_data(&packet),
                                        dp_packet_size(&packet), OFPP_NONE,
                                        acts, 2), 0);
    struct netdev_stats st;
    netdev_get_stats(fx.ports[2], &st);
    ck_assert_uint_eq(st.tx_packets, 1);
    netdev_get_stats(fx.ports[3], &st);
    ck_assert_uint_eq(st.tx_packets, 1);
    /* Too short to be a frame. */
    ck_assert_int_eq(ofproto_packet_out(fx.ofproto, "abc", 3, OFPP_NONE,
                                        acts, 1), EINVAL);
    dp_packet_uninit(&packet);
    teardown(&fx);
}
END_TEST

START_TEST(test_ofpacts_text)
{
    struct ofpact *a;
    size_t n;
    ck_assert_ptr_null(ofpacts_parse("output:1,NORMAL,resubmit(,2),"
                                     "resubmit(4,),mod_vlan_vid:7,strip_vlan,"
                                     "push_vlan:0x88a8,"
                                     "set_field:00:00:00:00:00:05->eth_src,"
                                     "LOCAL,flood,ALL,in_port", &a, &n,
                                     NULL, NULL));
    struct ds s = DS_EMPTY_INITIALIZER;
    ofpacts_format(a, n, &s);
    ck_assert_str_eq(ds_cstr(&s),
                     "output:1,NORMAL,resubmit(,2),resubmit(4,),"
                     "mod_vlan_vid:7,strip_vlan,push_vlan:0x88a8,"
                     "mod_dl_src:00:00:00:00:00:05,LOCAL,FLOOD,ALL,IN_PORT");
    free(a);
    ds_destroy(&s);

    static const char *bad[] = {
        "output:", "frobnicate", "mod_vlan_vid:4096", "resubmit(,255)",
        "push_vlan:0x800", "set_field:1->nw_src", "resubmit(", "output:x",
    };
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        char *error = ofpacts_parse(bad[i], &a, &n, NULL, NULL);
        ck_assert_msg(error != NULL, "%s accepted", bad[i]);
        free(error);
    }
    ck_assert_ptr_null(ofpacts_parse("drop", &a, &n, NULL, NULL));
    ck_assert_uint_eq(n, 0);
    free(a);
}
END_TEST

START_TEST(test_match_text)
{
    static const char *round_trips[] = {
        "in_port=1",
        "tcp,nw_src=10.0.0.0/8,tp_dst=80",
        "udp6,ipv6_dst=fe80::/10",
        "vlan_tci=0x1005/0x1fff,dl_dst=01:00:00:00:00:00/01:00:00:00:00:00",
        "arp,arp_spa=10.0.0.1,arp_op=1",
        "ip,nw_tos=4,nw_ttl=9,nw_frag=later",
        "dl_type=0x88cc",
    };
    for (size_t i = 0; i < ARRAY_SIZE(round_trips); i++) {
        struct flow flow;
        struct flow_wildcards wc;
        char *error = ofp_match_parse(round_trips[i], NULL, &flow, &wc,
                                      NULL);
        ck_assert_msg(!error, "%s: %s", round_trips[i], error);
        struct ds s = DS_EMPTY_INITIALIZER;
        ofp_match_format(&flow, &wc, -1, NULL, &s);
        ck_assert_str_eq(ds_cstr(&s), round_trips[i]);
        ds_destroy(&s);
    }
    static const char *bad[] = {
        "in_port=", "nw_src=1.2.3", "dl_src=zz", "bogus=1", "priority=1",
        "tp_dst=70000", "dl_vlan=5000", "nw_frag=sometimes", "ipv6_src=::/200",
    };
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        struct flow flow;
        struct flow_wildcards wc;
        char *error = ofp_match_parse(bad[i], NULL, &flow, &wc, NULL);
        ck_assert_msg(error != NULL, "%s accepted", bad[i]);
        free(error);
    }
    int priority = 0;
    struct flow flow;
    struct flow_wildcards wc;
    ck_assert_ptr_null(ofp_match_parse("priority=7,ip", NULL, &flow, &wc,
                                       &priority));
    ck_assert_int_eq(priority, 7);
}
END_TEST

/* MAC learning. */

START_TEST(test_mac_learning)
{
    struct seq *seq = seq_create();
    struct mac_learning *ml = mac_learning_create(30, seq);
    struct eth_addr a = { { 0, 0, 0, 0, 0, 1 } };
    struct eth_addr b = { { 0, 0, 0, 0, 0, 2 } };
    struct eth_addr c = { { 0, 0, 0, 0, 0, 3 } };
    int p1, p2;

    time_stop();
    uint64_t s0 = seq_read(seq);
    ck_assert(mac_learning_learn(ml, a, 1, &p1));
    ck_assert_uint_ne(seq_read(seq), s0);
    /* VLANs are separate tables. */
    ck_assert_ptr_eq(mac_learning_lookup(ml, a, 1), &p1);
    ck_assert_ptr_null(mac_learning_lookup(ml, a, 2));
    /* A refresh on the same port is no change; a move is. */
    s0 = seq_read(seq);
    ck_assert(!mac_learning_learn(ml, a, 1, &p1));
    ck_assert_uint_eq(seq_read(seq), s0);
    ck_assert(mac_learning_learn(ml, a, 1, &p2));
    ck_assert_ptr_eq(mac_learning_lookup(ml, a, 1), &p2);

    /* Aging: 30 s after the last refresh. */
    time_warp(20000);
    mac_learning_learn(ml, b, 1, &p1);
    time_warp(15000);
    ck_assert_uint_eq(mac_learning_run(ml), 1);
    ck_assert_ptr_null(mac_learning_lookup(ml, a, 1));
    ck_assert_ptr_eq(mac_learning_lookup(ml, b, 1), &p1);
    /* The aging time is clamped at 15 s. */
    mac_learning_set_idle_time(ml, 1);
    ck_assert_uint_eq(mac_learning_get_idle_time(ml), 15);

    /* A full table evicts the oldest. */
    mac_learning_set_max_entries(ml, 2);
    mac_learning_learn(ml, a, 1, &p2);
    mac_learning_learn(ml, c, 1, &p2);
    ck_assert_uint_eq(mac_learning_count(ml), 2);
    ck_assert_ptr_null(mac_learning_lookup(ml, b, 1));

    struct mac_learning_stats st;
    mac_learning_get_stats(ml, &st);
    ck_assert_uint_eq(st.n_learned, 4);
    ck_assert_uint_eq(st.n_moved, 1);
    ck_assert_uint_eq(st.n_expired, 1);
    ck_assert_uint_eq(st.n_evicted, 1);

    mac_learning_flush_port(ml, &p2);
    ck_assert_uint_eq(mac_learning_count(ml), 0);
    mac_learning_learn(ml, a, 1, &p1);
    mac_learning_flush(ml);
    ck_assert_uint_eq(mac_learning_count(ml), 0);
    mac_learning_destroy(ml);
    seq_destroy(seq);
}
END_TEST

static Suite *
ofproto_suite(void)
{
    Suite *s = suite_create("ofproto");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_default_rule_and_priorities);
    tcase_add_test(tc, test_resubmit_and_actions);
    tcase_add_test(tc, test_flow_mod_semantics);
    tcase_add_test(tc, test_timeouts);
    tcase_add_test(tc, test_normal_learning_and_vlans);
    tcase_add_test(tc, test_packet_out);
    tcase_add_test(tc, test_ofpacts_text);
    tcase_add_test(tc, test_match_text);
    tcase_add_test(tc, test_mac_learning);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(ofproto_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
