/* Unit tests for ofproto/: rules and flow_mod semantics, translation
 * (actions, resubmit, NORMAL, megaflow wildcards), rule timeouts,
 * packet-out, and the MAC learning table. */
#include <config.h>

#include <check.h>
#include <stdatomic.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dp-packet.h"
#include "dynamic-string.h"
#include "flow-extract.h"
#include "mac-learning.h"
#include "monitor.h"
#include "netdev.h"
#include "odp-util.h"
#include "ofproto-private.h"
#include "ofp-actions.h"
#include "ofp-packet.h"
#include "ofproto-test-util.h"
#include "ovs-rcu.h"
#include "poll-loop.h"
#include "port-protocol.h"
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
    netdev_enable_dummy(NETDEV_DUMMY_OVERRIDE);
    ofproto_init();
    ck_assert_int_eq(ofproto_create("br0", "netdev", &fx->ofproto), 0);
    for (int i = 1; i <= 3; i++) {
        char name[8];
        snprintf(name, sizeof name, "p%d", i);
        ck_assert_int_eq(netdev_open(name, "dummy", &fx->ports[i]), 0);
        netdev_update_flags(fx->ports[i], 0, NETDEV_UP);
        ck_assert_int_eq(ofproto_port_add(fx->ofproto, fx->ports[i], i), 0);
        ofproto_port_changed(fx->ofproto, i);
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
    ck_assert_msg(test_parse_flow(flow_s, &flow), "%s", flow_s);

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
        struct match mf;
        flow_apply_mask(&mf.flow, &flow, &xout.wc);
        mf.wc = xout.wc;
        match_format(&mf, NULL, &m, OFP_DEFAULT_PRIORITY);
        *megaflow = ds_steal_cstr(&m);
    }
    xlate_out_uninit(&xout);
    ovsrcu_quiesce();
    return ds_steal_cstr(&s);
}

#define XLATE_EXPECT_IPV4_TCP \
    "set(ipv4(dst=10.0.0.9,ttl=63)),set(tcp(dst=8080)),2"
#define XLATE_EXPECT_TTL_ONLY "set(ipv4(ttl=63)),2"
#define XLATE_EXPECT_UDP "set(udp(src=53)),2"

#define CHECK_XLATE(FX, FLOW, EXPECTED)                                 \
    do {                                                                \
        char *actions_ = xlate(FX, FLOW, false, NULL);                  \
        ck_assert_str_eq(actions_, EXPECTED);                           \
        free(actions_);                                                 \
    } while (0)

/* Adds "MATCH, priority PRIORITY, actions ACTIONS" to TABLE. */
static enum ofperr
add_flow(struct fixture *fx, uint8_t table, const char *match, int priority,
         const char *actions_s, uint64_t cookie, uint16_t flags)
{
    char *s = xasprintf("table=%d,priority=%d,cookie=%#"PRIx64",%s%s"
                        "actions=%s", table, priority, cookie, match,
                        *match ? "," : "", actions_s);
    struct ofputil_flow_mod fm;
    struct ofpbuf ofpacts;
    ofpbuf_init(&ofpacts, 0);
    char *error = parse_ofp_flow_mod_str(&fm, s, NULL, OFPFC_ADD, &ofpacts);
    ck_assert_msg(!error, "%s: %s", s, error);
    fm.flags = flags;
    enum ofperr retval = ofproto_flow_mod(fx->ofproto, &fm);
    ofpbuf_uninit(&ofpacts);
    free(s);
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
    ck_assert_str_eq(megaflow, "recirc_id=0,eth,ip,in_port=1,nw_frag=no");
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

/* The cookie of the rule of TABLE with PRIORITY, or all ones. */
static uint64_t
rule_cookie(struct fixture *fx, uint8_t table, int priority)
{
    struct ofproto_rule_info *infos;
    size_t n;
    uint64_t cookie = UINT64_MAX;
    ofproto_dump_rules(fx->ofproto, &infos, &n);
    for (size_t i = 0; i < n; i++) {
        if (infos[i].table_id == table && infos[i].priority == priority) {
            cookie = ntohll(infos[i].cookie);
        }
    }
    ofproto_rule_infos_free(infos, n);
    return cookie;
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
                              OFPUTIL_FF_CHECK_OVERLAP),
                     OFPERR_OFPFMFC_OVERLAP);
    ck_assert_int_eq(add_flow(&fx, 0, "arp", 10, "drop", 0,
                              OFPUTIL_FF_CHECK_OVERLAP), 0);
    ck_assert_uint_eq(ofproto_count_rules(fx.ofproto), 3);

    /* Loose modify of "in_port=1" with cookie 2/0xff changes the tcp rule
     * only. */
    ck_assert_int_eq(test_flow_mod(fx.ofproto, OFPFC_MODIFY,
                                   "in_port=1,cookie=2/0xff,actions=2,3"),
                     0);
    CHECK_XLATE(&fx, "in_port=2,tcp", "drop");
    CHECK_XLATE(&fx, "in_port=1,tcp", "2,3");
    CHECK_XLATE(&fx, "in_port=1,udp", "2");
    /* A modify without a cookie mask sets the cookie. */
    ck_assert_int_eq(test_flow_mod(fx.ofproto, OFPFC_MODIFY_STRICT,
                                   "priority=20,in_port=1,tcp,cookie=0x77,"
                                   "actions=2,3"), 0);
    ck_assert_uint_eq(rule_cookie(&fx, 0, 20), 0x77);

    /* Strict delete needs the exact match and priority. */
    ck_assert_int_eq(test_flow_mod(fx.ofproto, OFPFC_DELETE_STRICT,
                                   "priority=10,in_port=1"), 0);
    ck_assert_uint_eq(ofproto_count_rules(fx.ofproto), 3);
    ck_assert_int_eq(test_flow_mod(fx.ofproto, OFPFC_DELETE_STRICT,
                                   "priority=10,in_port=1,ip"), 0);
    ck_assert_uint_eq(ofproto_count_rules(fx.ofproto), 2);

    /* Loose delete filtered by out_group and out_port: only rules that
     * send there. */
    ck_assert_int_eq(test_flow_mod(fx.ofproto, OFPFC_DELETE,
                                   "out_group=5"), 0);
    ck_assert_uint_eq(ofproto_count_rules(fx.ofproto), 2);
    ck_assert_int_eq(test_flow_mod(fx.ofproto, OFPFC_DELETE, "out_port=1"),
                     0);
    ck_assert_uint_eq(ofproto_count_rules(fx.ofproto), 2);
    ck_assert_int_eq(test_flow_mod(fx.ofproto, OFPFC_DELETE, "out_port=3"),
                     0);
    ck_assert_uint_eq(ofproto_count_rules(fx.ofproto), 1);

    /* Modify that matches nothing adds nothing, unless it carries a
     * cookie for a new flow and selects by none (OpenFlow 1.0, 1.1, where
     * a modify without a cookie has cookie 0, as ovs-ofctl sends it). */
    ck_assert_int_eq(test_flow_mod(fx.ofproto, OFPFC_MODIFY_STRICT,
                                   "udp,actions=1"), 0);
    ck_assert_uint_eq(ofproto_count_rules(fx.ofproto), 2);
    ck_assert_uint_eq(rule_cookie(&fx, 0, 32768), 0);
    ck_assert_int_eq(test_flow_mod(fx.ofproto, OFPFC_DELETE_STRICT, "udp"),
                     0);
    ck_assert_uint_eq(ofproto_count_rules(fx.ofproto), 1);
    ck_assert_int_eq(test_flow_mod(fx.ofproto, OFPFC_MODIFY,
                                   "udp,cookie=0x3/0xff,actions=1"), 0);
    ck_assert_uint_eq(ofproto_count_rules(fx.ofproto), 1);
    ck_assert_int_eq(test_flow_mod(fx.ofproto, OFPFC_MODIFY_STRICT,
                                   "priority=44,udp,cookie=0x3,actions=1"),
                     0);
    ck_assert_uint_eq(ofproto_count_rules(fx.ofproto), 2);
    ck_assert_uint_eq(rule_cookie(&fx, 0, 44), 3);
    ck_assert_int_eq(test_flow_mod(fx.ofproto, OFPFC_DELETE_STRICT,
                                   "priority=44,udp"), 0);

    /* Add to "any table" is table 0; bad requests. */
    struct ofputil_flow_mod fm;
    ofproto_flow_mod_init(&fm);
    fm.table_id = OFPTT_ALL;
    fm.priority = 3;
    ck_assert_int_eq(ofproto_flow_mod(fx.ofproto, &fm), 0);
    ck_assert_uint_eq(rule_packets(&fx, 0, 3), 0);
    fm.priority = 70000;
    ck_assert_int_eq(ofproto_flow_mod(fx.ofproto, &fm),
                     OFPERR_OFPFMFC_BAD_PRIORITY);
    fm.priority = 3;
    fm.command = 9;
    ck_assert_int_eq(ofproto_flow_mod(fx.ofproto, &fm),
                     OFPERR_OFPFMFC_BAD_COMMAND);
    fm.command = OFPFC_ADD;
    uint64_t stub[16];
    struct ofpbuf ofpacts;
    ofpbuf_use_stub(&ofpacts, stub, sizeof stub);
    OFPACT_PUT(&ofpacts, OFPACT_OUTPUT, ofpact_output)->port = 0xff05;
    fm.ofpacts = ofpacts.data;
    fm.ofpacts_len = ofpacts.size;
    ck_assert_int_eq(ofproto_flow_mod(fx.ofproto, &fm),
                     OFPERR_OFPBAC_BAD_OUT_PORT);
    ofpbuf_clear(&ofpacts);
    OFPACT_PUT(&ofpacts, OFPACT_GROUP, ofpact_group)->group_id = 1;
    fm.ofpacts = ofpacts.data;
    fm.ofpacts_len = ofpacts.size;
    ck_assert_int_eq(ofproto_flow_mod(fx.ofproto, &fm),
                     OFPERR_OFPBAC_BAD_OUT_GROUP);
    ofpbuf_uninit(&ofpacts);

    /* Counters: translation with statistics credits every rule on the way,
     * and replacing a rule (same match and priority) keeps them. */
    ck_assert_int_eq(add_flow(&fx, 0, "in_port=3", 5, "resubmit(,1)", 0, 0),
                     0);
    ck_assert_int_eq(add_flow(&fx, 1, "", 5, "output:1", 0, 0), 0);
    struct flow flow;
    ck_assert(test_parse_flow("in_port=3", &flow));
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
                              OFPUTIL_FF_RESET_COUNTS), 0);
    ck_assert_uint_eq(rule_packets(&fx, 1, 5), 0);
    /* "Counting may be switched off" is a permission; the counters go on
     * (as in 3.1), and the flag is kept. */
    ck_assert_int_eq(add_flow(&fx, 1, "", 5, "output:2", 0,
                              OFPUTIL_FF_NO_PKT_COUNTS), 0);
    xlate_out_init(&xout);
    xlate_actions(&xin, &xout);
    xlate_out_uninit(&xout);
    ck_assert_uint_eq(rule_packets(&fx, 1, 5), 3);
    teardown(&fx);
}
END_TEST

START_TEST(test_timeouts)
{
    struct fixture fx;
    setup(&fx);
    time_stop();

    ck_assert_int_eq(test_flow_mod(fx.ofproto, OFPFC_ADD,
                                   "in_port=1,hard_timeout=4,actions=2"), 0);
    ck_assert_int_eq(test_flow_mod(fx.ofproto, OFPFC_ADD,
                                   "in_port=3,idle_timeout=3,actions=2"), 0);
    ck_assert_uint_eq(ofproto_count_rules(fx.ofproto), 3);

    time_warp(2000);
    /* Traffic on the idle rule keeps it. */
    struct flow flow;
    ck_assert(test_parse_flow("in_port=3", &flow));
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
    /* None of them asked for flow_removed. */
    struct ofproto_flow_removed fr;
    ck_assert(!ofproto_pop_flow_removed(fx.ofproto, &fr));
    teardown(&fx);
}
END_TEST

START_TEST(test_flow_removed)
{
    struct fixture fx;
    setup(&fx);
    time_stop();
    ofproto_flush_flows(fx.ofproto);

    ck_assert_int_eq(test_flow_mod(fx.ofproto, OFPFC_ADD,
                                   "in_port=1,idle_timeout=3,send_flow_rem,"
                                   "cookie=0x11,priority=7,actions=2"), 0);
    ck_assert_int_eq(test_flow_mod(fx.ofproto, OFPFC_ADD,
                                   "table=2,in_port=2,hard_timeout=5,"
                                   "send_flow_rem,actions=3"), 0);
    ck_assert_int_eq(test_flow_mod(fx.ofproto, OFPFC_ADD,
                                   "in_port=3,send_flow_rem,actions=1"), 0);
    ck_assert_int_eq(test_flow_mod(fx.ofproto, OFPFC_ADD,
                                   "in_port=4,idle_timeout=1,actions=1"), 0);
    uint64_t seq = seq_read(ofproto_events_seq(fx.ofproto));

    /* Two packets on the idle rule at 1 s. */
    time_warp(1000);
    struct flow flow;
    ck_assert(test_parse_flow("in_port=1", &flow));
    struct xlate_in xin = { .ofproto = fx.ofproto, .flow = flow,
                            .n_packets = 2, .n_bytes = 120,
                            .used = time_msec() };
    struct xlate_out xout;
    xlate_out_init(&xout);
    xlate_actions(&xin, &xout);
    xlate_out_uninit(&xout);

    /* At 4.5 s: in_port=1 idled out (silently for in_port=4). */
    time_warp(3500);
    ofproto_run(fx.ofproto);
    ck_assert_uint_eq(ofproto_count_rules(fx.ofproto), 2);
    ck_assert_uint_ne(seq_read(ofproto_events_seq(fx.ofproto)), seq);
    struct ofproto_flow_removed fr;
    ck_assert(ofproto_pop_flow_removed(fx.ofproto, &fr));
    ck_assert_int_eq(fr.reason, OFPRR_IDLE_TIMEOUT);
    ck_assert_int_eq(fr.priority, 7);
    ck_assert_uint_eq(ntohll(fr.cookie), 0x11);
    ck_assert_uint_eq(fr.table_id, 0);
    ck_assert_uint_eq(fr.match.flow.in_port, 1);
    ck_assert_uint_eq(fr.packet_count, 2);
    ck_assert_uint_eq(fr.byte_count, 120);
    ck_assert_uint_eq(fr.idle_timeout, 3);
    ck_assert_uint_eq(fr.duration_sec, 4);
    ck_assert_uint_eq(fr.duration_nsec, 500000000);
    ck_assert(!ofproto_pop_flow_removed(fx.ofproto, &fr));

    /* A delete reports the rules it removes that asked. */
    ck_assert_int_eq(test_flow_mod(fx.ofproto, OFPFC_DELETE, "in_port=3"),
                     0);
    ck_assert(ofproto_pop_flow_removed(fx.ofproto, &fr));
    ck_assert_int_eq(fr.reason, OFPRR_DELETE);
    ck_assert_uint_eq(fr.match.flow.in_port, 3);
    ck_assert(!ofproto_pop_flow_removed(fx.ofproto, &fr));

    /* The hard timeout, in table 2. */
    time_warp(1000);
    ofproto_run(fx.ofproto);
    ck_assert(ofproto_pop_flow_removed(fx.ofproto, &fr));
    ck_assert_int_eq(fr.reason, OFPRR_HARD_TIMEOUT);
    ck_assert_uint_eq(fr.table_id, 2);
    ck_assert_uint_eq(fr.hard_timeout, 5);
    ck_assert_uint_eq(ofproto_count_rules(fx.ofproto), 0);
    teardown(&fx);
}
END_TEST

START_TEST(test_header_actions)
{
    struct fixture fx;
    setup(&fx);

    /* IPv4 and TCP fields, and dec_ttl: one masked set each, before the
     * output. */
    ck_assert_int_eq(add_flow(&fx, 0, "in_port=1,tcp", 10,
                              "set_field:10.0.0.9->ip_dst,"
                              "set_field:8080->tcp_dst,dec_ttl,output:2",
                              0, 0), 0);
    CHECK_XLATE(&fx, "in_port=1,tcp,nw_src=10.0.0.1,nw_dst=10.0.0.2,"
                "nw_ttl=64,tp_src=5,tp_dst=80", XLATE_EXPECT_IPV4_TCP);
    /* Setting a field to the value it has changes nothing. */
    CHECK_XLATE(&fx, "in_port=1,tcp,nw_dst=10.0.0.9,nw_ttl=64,tp_dst=8080",
                XLATE_EXPECT_TTL_ONLY);
    /* A TTL that runs out goes to the controller, and no further. */
    char *a = xlate(&fx, "in_port=1,tcp,nw_ttl=1", false, NULL);
    ck_assert_msg(strstr(a, "userspace(") && a[strlen(a) - 1] == ')', "%s",
                  a);
    free(a);

    /* UDP ports.  (A UDP flow may not set tcp_dst: the parser refuses
     * it, as 3.1 does, with OFPBAC_MATCH_INCONSISTENT.) */
    ck_assert_int_eq(add_flow(&fx, 0, "in_port=1,udp", 10,
                              "set_field:53->udp_src,output:2", 0, 0), 0);
    CHECK_XLATE(&fx, "in_port=1,udp,tp_src=1000,tp_dst=7",
                XLATE_EXPECT_UDP);
    /* IPv6. */
    ck_assert_int_eq(add_flow(&fx, 0, "in_port=1,ipv6", 10,
                              "set_field:fe80::1->ipv6_src,output:2", 0, 0),
                     0);
    /* (With a protocol: as in 3.1, a packet whose nw_proto is 0 gets no
     * L3 set.) */
    a = xlate(&fx, "in_port=1,udp6,ipv6_src=2001:db8::1", false, NULL);
    ck_assert_msg(strstr(a, "ipv6(src=fe80::1") && strstr(a, "),2"),
                  "%s", a);
    free(a);
    /* Ethernet, and VLAN push/set/pop. */
    ck_assert_int_eq(add_flow(&fx, 0, "in_port=2", 10,
                              "set_field:00:00:00:00:00:42->eth_src,"
                              "push_vlan:0x8100,set_field:4101->vlan_vid,"
                              "output:3,pop_vlan,output:1", 0, 0), 0);
    a = xlate(&fx, "in_port=2,dl_src=00:00:00:00:00:01", false, NULL);
    ck_assert_msg(strstr(a, "push_vlan(vid=5,pcp=0)")
                  && strstr(a, "eth(src=00:00:00:00:00:42")
                  && strstr(a, ",3,pop_vlan,1"), "%s", a);
    free(a);
    /* Registers and metadata steer the next table. */
    ck_assert_int_eq(add_flow(&fx, 0, "in_port=3", 10,
                              "set_field:0x5->reg0,set_field:0x9->metadata,"
                              "resubmit(,1)", 0, 0), 0);
    ck_assert_int_eq(add_flow(&fx, 1, "reg0=5,metadata=0x9", 10, "output:1",
                              0, 0), 0);
    ck_assert_int_eq(add_flow(&fx, 1, "", 5, "output:2", 0, 0), 0);
    CHECK_XLATE(&fx, "in_port=3", "1");
    teardown(&fx);
}
END_TEST

START_TEST(test_instructions)
{
    struct fixture fx;
    setup(&fx);
    ofproto_flush_flows(fx.ofproto);

    /* Apply now, write for the end, metadata and goto for the next table. */
    ck_assert_int_eq(add_flow(&fx, 0, "in_port=1", 10,
                              "write_actions(output:3),"
                              "write_metadata:0x5/0xff,goto_table:1",
                              0, 0), 0);
    ck_assert_int_eq(add_flow(&fx, 1, "metadata=0x5/0xff", 10, "output:2",
                              0, 0), 0);
    CHECK_XLATE(&fx, "in_port=1", "2,3");
    /* clear_actions forgets what was written. */
    ck_assert_int_eq(add_flow(&fx, 1, "metadata=0x5/0xff", 10,
                              "clear_actions", 0, 0), 0);
    CHECK_XLATE(&fx, "in_port=1", "drop");
    /* A later write of the same kind replaces the earlier one. */
    ck_assert_int_eq(add_flow(&fx, 1, "metadata=0x5/0xff", 10,
                              "write_actions(output:2)", 0, 0), 0);
    CHECK_XLATE(&fx, "in_port=1", "2");
    /* goto_table into a table that misses: dropped (no controller), and
     * the action set still runs. */
    ck_assert_int_eq(add_flow(&fx, 0, "in_port=2", 10,
                              "write_actions(output:1),goto_table:7", 0, 0),
                     0);
    CHECK_XLATE(&fx, "in_port=2", "1");
    teardown(&fx);
}
END_TEST

START_TEST(test_controller_and_miss)
{
    struct fixture fx;
    setup(&fx);
    ofproto_flush_flows(fx.ofproto);

    /* A table miss drops until a controller wants misses. */
    CHECK_XLATE(&fx, "in_port=1", "drop");
    ofproto_set_miss_to_controller(fx.ofproto, true);
    char *a = xlate(&fx, "in_port=1", false, NULL);
    ck_assert_msg(!strncmp(a, "userspace(", 10), "%s", a);
    free(a);
    /* resubmit's misses stay silent. */
    ck_assert_int_eq(add_flow(&fx, 0, "in_port=2", 10, "resubmit(,3)", 0, 0),
                     0);
    CHECK_XLATE(&fx, "in_port=2", "drop");
    ofproto_set_miss_to_controller(fx.ofproto, false);
    CHECK_XLATE(&fx, "in_port=1", "drop");

    /* output:CONTROLLER, after the changes before it. */
    ck_assert_int_eq(add_flow(&fx, 0, "in_port=3", 10,
                              "mod_dl_dst:00:00:00:00:00:07,"
                              "controller:64,output:1", 0, 0), 0);
    a = xlate(&fx, "in_port=3", false, NULL);
    ck_assert_msg(strstr(a, "set(eth(dst=00:00:00:00:00:07))")
                  && strstr(a, "userspace(") && strstr(a, "),1"), "%s", a);
    free(a);
    teardown(&fx);
}
END_TEST

START_TEST(test_flow_query)
{
    struct fixture fx;
    setup(&fx);
    ofproto_flush_flows(fx.ofproto);
    ck_assert_int_eq(add_flow(&fx, 0, "in_port=1", 10, "output:2", 0x10, 0),
                     0);
    ck_assert_int_eq(add_flow(&fx, 0, "in_port=1,ip", 20, "output:3", 0x21,
                              0), 0);
    ck_assert_int_eq(add_flow(&fx, 1, "in_port=2", 10, "output:3", 0x20, 0),
                     0);

    struct ofproto_flow_query q;
    struct ofproto_rule_info *infos;
    size_t n;
    ofproto_flow_query_init(&q);
    ofproto_query_rules(fx.ofproto, &q, &infos, &n);
    ck_assert_uint_eq(n, 3);
    /* Table by table, highest priority first. */
    ck_assert_int_eq(infos[0].priority, 20);
    ck_assert_uint_eq(infos[2].table_id, 1);
    ofproto_rule_infos_free(infos, n);

    q.table_id = 1;
    ofproto_query_rules(fx.ofproto, &q, &infos, &n);
    ck_assert_uint_eq(n, 1);
    ofproto_rule_infos_free(infos, n);

    q.table_id = OFPTT_ALL;
    q.cookie = htonll(0x20);
    q.cookie_mask = htonll(0xf0);
    ofproto_query_rules(fx.ofproto, &q, &infos, &n);
    ck_assert_uint_eq(n, 2);
    ofproto_rule_infos_free(infos, n);

    q.out_port = 3;
    q.cookie_mask = 0;
    ofproto_query_rules(fx.ofproto, &q, &infos, &n);
    ck_assert_uint_eq(n, 2);
    ofproto_rule_infos_free(infos, n);

    /* Loose: rules at least as specific; strict: the very rule. */
    q.out_port = OFPP_NONE;
    match_set_in_port(&q.match, 1);
    ofproto_query_rules(fx.ofproto, &q, &infos, &n);
    ck_assert_uint_eq(n, 2);
    ofproto_rule_infos_free(infos, n);
    q.strict = true;
    q.priority = 10;
    ofproto_query_rules(fx.ofproto, &q, &infos, &n);
    ck_assert_uint_eq(n, 1);
    ck_assert_uint_eq(ntohll(infos[0].cookie), 0x10);
    ofproto_rule_infos_free(infos, n);
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
    /* NORMAL looks at addresses, VLAN and port, not at L3 (beyond what
     * every megaflow matches, as 3.1's: recirc_id, packet type, Ethernet
     * type, fragments); an untagged packet's "no VLAN" is the datapath
     * key's to say, not the megaflow's. */
    ck_assert_str_eq(megaflow, "recirc_id=0,eth,ip,in_port=2,"
                     "dl_src=00:00:00:00:00:02,dl_dst=00:00:00:00:00:01,"
                     "nw_frag=no");
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
    ck_assert(test_parse_flow("udp,dl_src=00:00:00:00:00:01,"
                              "dl_dst=00:00:00:00:00:02,"
                              "nw_src=10.0.0.1,nw_dst=10.0.0.2", &flow));
    struct dp_packet packet;
    dp_packet_init(&packet, 0);
    flow_compose(&packet, &flow, 10);
    struct ofpbuf acts;
    ofpbuf_init(&acts, 0);
    ck_assert_ptr_null(ofpacts_parse_actions("output:2,output:3", NULL,
                                             NULL, &acts));
    struct ofputil_packet_out po = {
        .packet = dp_packet_data(&packet),
        .packet_len = dp_packet_size(&packet),
        .buffer_id = UINT32_MAX,
        .ofpacts = acts.data,
        .ofpacts_len = acts.size,
    };
    match_init_catchall(&po.flow_metadata);
    match_set_in_port(&po.flow_metadata, OFPP_NONE);
    ck_assert_int_eq(ofproto_packet_out(fx.ofproto, &po), 0);
    struct netdev_stats st;
    netdev_get_stats(fx.ports[2], &st);
    ck_assert_uint_eq(st.tx_packets, 1);
    netdev_get_stats(fx.ports[3], &st);
    ck_assert_uint_eq(st.tx_packets, 1);
    /* Too short to be a frame. */
    po.packet = "abc";
    po.packet_len = 3;
    ck_assert_int_eq(ofproto_packet_out(fx.ofproto, &po), EINVAL);
    /* A bare IPv4 packet (packet_type(1,0x800)) is no frame, and goes. */
    po.packet = dp_packet_l3(&packet);
    po.packet_len = dp_packet_size(&packet) - ETH_HEADER_LEN;
    match_set_packet_type(&po.flow_metadata, htonl(PT_IPV4));
    ck_assert_int_eq(ofproto_packet_out(fx.ofproto, &po), 0);
    netdev_get_stats(fx.ports[2], &st);
    ck_assert_uint_eq(st.tx_packets, 2);
    ofpbuf_uninit(&acts);
    dp_packet_uninit(&packet);
    teardown(&fx);
}
END_TEST

/* Per-port protocols (port-protocol.h, monitor.h), with the tests' own
 * protocol (ofproto-test-util.h), which sends a frame every second. */

/* Waits (without a deadline of its own: Check's timeout is the limit)
 * until *COUNTER reaches N. */
static void
wait_for_count(_Atomic unsigned int *counter, unsigned int n)
{
    while (atomic_load(counter) < n) {
        usleep(1000);
    }
}

START_TEST(test_port_protocols)
{
    struct fixture fx;
    setup(&fx);
    time_stop();

    struct test_protocol e;
    test_protocol_init(&e, 1, 1000, 0, false);
    ck_assert_int_eq(ofproto_port_attach_protocol(fx.ofproto, 9, &e.up),
                     ENOENT);
    ck_assert_int_eq(ofproto_port_attach_protocol(fx.ofproto, 1, &e.up), 0);

    /* Due at once: the monitor runs it and its frame leaves port 1. */
    wait_for_count(&e.n_runs, 1);
    struct netdev_stats st;
    do {
        netdev_get_stats(fx.ports[1], &st);
    } while (st.tx_packets < 1);
    /* Not again until its next deadline, a second later. */
    time_warp(999);
    ck_assert_uint_eq(atomic_load(&e.n_runs), 1);
    time_warp(1);
    wait_for_count(&e.n_runs, 2);

    /* Its frames are its own: consumed (and handed over when the packet
     * is there), slow-pathed, the megaflow saying what it looked at. */
    struct flow flow;
    ck_assert(test_parse_flow("in_port=1,dl_type=0x88b5", &flow));
    struct dp_packet packet;
    dp_packet_init(&packet, 0);
    flow_compose(&packet, &flow, 0);
    struct xlate_in xin = { .ofproto = fx.ofproto, .flow = flow,
                            .packet = &packet };
    struct xlate_out xout;
    xlate_out_init(&xout);
    ovs_rwlock_rdlock(&xlate_rwlock);
    xlate_actions(&xin, &xout);
    ovs_rwlock_unlock(&xlate_rwlock);
    ck_assert_uint_eq(xout.odp_actions.size, 0);
    ck_assert_int_eq(xout.slow, SLOW_LLDP);
    ck_assert_uint_eq(atomic_load(&e.n_received), 1);
    ck_assert(xout.wc.masks.dl_type == OVS_BE16_MAX);
    xlate_out_uninit(&xout);
    dp_packet_uninit(&packet);
    /* Another port's, or another type's, frames go to the tables. */
    char *actions = xlate(&fx, "in_port=2,dl_type=0x88b5", false, NULL);
    ck_assert_str_ne(actions, "");
    free(actions);
    ck_assert_uint_eq(atomic_load(&e.n_received), 1);

    /* Its opinion of the link is the port's liveness. */
    struct ofproto_port_status ps;
    while (ofproto_pop_port_status(fx.ofproto, &ps)) {
        continue;
    }
    atomic_store(&e.link_ok, false);
    port_protocol_changed(&e.up);
    struct port_protocol **changed;
    ck_assert_uint_eq(port_protocol_take_changed(&changed), 1);
    ck_assert_ptr_eq(changed[0], &e.up);
    free(changed);
    ofproto_port_changed(fx.ofproto, 1);
    const struct ofport *port = ofproto_get_port(fx.ofproto, 1);
    ck_assert(!port->live && !port->may_enable);
    ck_assert(ofproto_pop_port_status(fx.ofproto, &ps));
    ck_assert_int_eq(ps.reason, OFPPR_MODIFY);
    ck_assert(!(ps.desc.state & OFPUTIL_PS_LIVE));
    ck_assert(!(ps.desc.state & OFPUTIL_PS_LINK_DOWN));

    /* Detached, it is no one's: no runs, its frames go to the tables, and
     * the port is live again. */
    ofproto_port_detach_protocol(fx.ofproto, &e.up);
    ck_assert(port->live && port->may_enable);
    unsigned int runs = atomic_load(&e.n_runs);
    time_warp(5000);
    ovsrcu_synchronize();
    ck_assert_uint_eq(atomic_load(&e.n_runs), runs);
    actions = xlate(&fx, "in_port=1,dl_type=0x88b5", false, NULL);
    ck_assert_str_ne(actions, "");
    free(actions);

    /* Deleting the port detaches what is on it. */
    port_protocol_schedule(&e.up, time_msec());
    ck_assert_int_eq(ofproto_port_attach_protocol(fx.ofproto, 1, &e.up), 0);
    ofproto_port_del(fx.ofproto, 1);
    ck_assert_ptr_null(e.up.port);
    teardown(&fx);
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
    tcase_add_test(tc, test_port_protocols);
    tcase_add_test(tc, test_flow_removed);
    tcase_add_test(tc, test_header_actions);
    tcase_add_test(tc, test_instructions);
    tcase_add_test(tc, test_controller_and_miss);
    tcase_add_test(tc, test_flow_query);
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
