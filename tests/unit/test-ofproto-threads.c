/* Threaded tests of ofproto/: translator threads racing the main thread's
 * changes to rules, bundles and ports, and packets through the real
 * handler and revalidator threads while the tables change.  Run under
 * ThreadSanitizer by "make check-tsan". */
#include <config.h>

#include <check.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "check-util.h"
#include "dp-packet.h"
#include "dynamic-string.h"
#include "flow-extract.h"
#include "mac-learning.h"
#include "monitor.h"
#include "netdev.h"
#include "odp-util.h"
#include "ofproto-private.h"
#include "ofproto-test-util.h"
#include "ovs-rcu.h"
#include "ovs-thread.h"
#include "poll-loop.h"
#include "port-protocol.h"
#include "timeval.h"
#include "util.h"
#include "xlate.h"

struct fixture {
    struct ofproto *ofproto;
    struct netdev *ports[4];
    int bundle_aux[4];
};

static void
register_bundle(struct fixture *fx, int i, int vlan)
{
    char name[16];
    snprintf(name, sizeof name, "p%d", i);
    uint16_t member = i;
    struct ofproto_bundle_settings s = {
        .name = name, .members = &member, .n_members = 1,
        .vlan_mode = vlan >= 0 ? PORT_VLAN_ACCESS : PORT_VLAN_TRUNK,
        .vlan = vlan,
    };
    ofproto_bundle_register(fx->ofproto, &fx->bundle_aux[i], &s);
}

static void
setup(struct fixture *fx)
{
    netdev_enable_dummy(NETDEV_DUMMY_OVERRIDE);
    ofproto_init();
    ofproto_set_threads(2, 2);
    ck_assert_int_eq(ofproto_create("br0", "netdev", &fx->ofproto), 0);
    for (int i = 1; i <= 3; i++) {
        char name[8];
        snprintf(name, sizeof name, "p%d", i);
        ck_assert_int_eq(netdev_open(name, "dummy", &fx->ports[i]), 0);
        netdev_update_flags(fx->ports[i], 0, NETDEV_UP);
        ck_assert_int_eq(ofproto_port_add(fx->ofproto, fx->ports[i], i), 0);
        ofproto_port_changed(fx->ofproto, i);
        register_bundle(fx, i, -1);
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

struct translator {
    struct fixture *fx;
    atomic_bool *stop;
    unsigned int n_bad;
    unsigned int n_done;
};

/* Translates floods and unicasts from p1 until told to stop, checking
 * that every answer is one the main thread's changes allow. */
static void *
translator_main(void *t_)
{
    struct translator *t = t_;
    static const char *allowed[] = { "2,3", "2", "3", "drop" };
    unsigned int i = 0;

    while (!atomic_load(t->stop)) {
        struct flow flow;
        char s[128];
        snprintf(s, sizeof s, "in_port=1,dl_src=00:00:00:00:01:%02x,"
                 "dl_dst=00:00:00:00:02:%02x", i % 7, i % 5);
        if (!test_parse_flow(s, &flow)) {
            t->n_bad++;
            continue;
        }
        struct xlate_in xin = { .ofproto = t->fx->ofproto, .flow = flow,
                                .may_learn = true, .n_packets = 1,
                                .n_bytes = 60, .used = 1 };
        struct xlate_out xout;
        xlate_out_init(&xout);
        ovs_rwlock_rdlock(&xlate_rwlock);
        xlate_actions(&xin, &xout);
        ovs_rwlock_unlock(&xlate_rwlock);
        struct ds out = DS_EMPTY_INITIALIZER;
        odp_actions_format(xout.odp_actions.data, xout.odp_actions.size,
                           NULL, &out);
        bool ok = false;
        for (size_t j = 0; j < ARRAY_SIZE(allowed); j++) {
            ok |= !strcmp(ds_cstr(&out), allowed[j]);
        }
        t->n_bad += !ok;
        ds_destroy(&out);
        xlate_out_uninit(&xout);
        ovsrcu_quiesce();
        i++;
        t->n_done++;
    }
    ovsrcu_quiesce_start();
    return NULL;
}

static void
add_or_delete_rule(struct fixture *fx, bool add)
{
    ck_assert_int_eq(test_flow_mod(fx->ofproto,
                                   add ? OFPFC_ADD : OFPFC_DELETE_STRICT,
                                   add ? "priority=100,in_port=1,actions=3"
                                       : "priority=100,in_port=1"), 0);
}

START_TEST(test_translators_race_changes)
{
    struct fixture fx;
    setup(&fx);

    enum { N = 3 };
    atomic_bool stop = false;
    struct translator t[N];
    pthread_t threads[N];
    for (int i = 0; i < N; i++) {
        t[i] = (struct translator) { .fx = &fx, .stop = &stop };
        threads[i] = ovs_thread_create("xlate", translator_main, &t[i]);
    }
    size_t rounds = check_iterations(400, 20);
    for (size_t i = 0; i < rounds; i++) {
        add_or_delete_rule(&fx, i % 2 == 0);
        /* VLAN changes flush learned addresses of the bundle. */
        register_bundle(&fx, 2, i % 3 == 0 ? 5 : -1);
        mac_learning_flush(fx.ofproto->ml);
        ofproto_port_changed(fx.ofproto, 3);
        ovsrcu_quiesce();
    }
    atomic_store(&stop, true);
    for (int i = 0; i < N; i++) {
        xpthread_join(threads[i], NULL);
        ck_assert_uint_eq(t[i].n_bad, 0);
    }
    teardown(&fx);
}
END_TEST

static uint64_t
tx_packets(struct netdev *netdev)
{
    struct netdev_stats st;
    netdev_get_stats(netdev, &st);
    return st.tx_packets;
}

/* Packets through the datapath, the handlers (misses) and the
 * revalidators (re-checks after each change), while rules change. */
START_TEST(test_traffic_through_handlers)
{
    struct fixture fx;
    setup(&fx);

    size_t n = check_iterations(300, 10);
    for (size_t i = 0; i < n; i++) {
        struct flow flow;
        char s[160];
        snprintf(s, sizeof s, "udp,dl_src=00:00:00:00:01:%02x,"
                 "dl_dst=ff:ff:ff:ff:ff:ff,nw_src=10.0.0.1,"
                 "nw_dst=10.0.0.2,tp_src=%zu,tp_dst=53", (unsigned) i % 9,
                 1000 + i);
        ck_assert(test_parse_flow(s, &flow));
        struct dp_packet *packet = dp_packet_new(0);
        flow_compose(packet, &flow, 20);
        ck_assert_int_eq(netdev_dummy_inject(fx.ports[1], packet), 0);
        if (i % 50 == 25) {
            /* All traffic from p1 to p3 only, then back to NORMAL. */
            add_or_delete_rule(&fx, true);
            CHECK_WAIT_FOR(tx_packets(fx.ports[2]) + tx_packets(fx.ports[3])
                           >= 1);
            add_or_delete_rule(&fx, false);
        }
        ovsrcu_quiesce();
    }
    /* Every packet went out p3 (NORMAL floods there too, and the rule
     * sends there). */
    CHECK_WAIT_FOR(tx_packets(fx.ports[3]) == n);
    ck_assert_uint_le(tx_packets(fx.ports[2]), n);
    teardown(&fx);
}
END_TEST

/* A controller action: the datapath hands the packet to a handler thread,
 * which queues the packet-in for the main thread and wakes it. */
START_TEST(test_packet_in_through_handlers)
{
    struct fixture fx;
    setup(&fx);
    ck_assert_int_eq(test_flow_mod(fx.ofproto, OFPFC_ADD,
                                   "priority=100,in_port=1,cookie=0x99,"
                                   "actions=controller:64"), 0);
    size_t n = check_iterations(20, 3);
    size_t sizes[20];
    for (size_t i = 0; i < n; i++) {
        struct flow flow;
        char s[160];
        snprintf(s, sizeof s, "udp,dl_src=00:00:00:00:01:01,"
                 "dl_dst=00:00:00:00:02:02,nw_src=10.0.0.1,"
                 "nw_dst=10.0.0.2,tp_src=%zu,tp_dst=53", 1000 + i);
        ck_assert(test_parse_flow(s, &flow));
        struct dp_packet *packet = dp_packet_new(0);
        flow_compose(packet, &flow, 20 + i);
        sizes[i] = dp_packet_size(packet);
        ck_assert_int_eq(netdev_dummy_inject(fx.ports[1], packet), 0);
    }
    for (size_t i = 0; i < n; i++) {
        struct ofproto_packet_in pin;
        CHECK_WAIT_FOR(ofproto_pop_packet_in(fx.ofproto, &pin));
        ck_assert_int_eq(pin.reason, OFPR_ACTION);
        ck_assert_uint_eq(pin.max_len, 64);
        ck_assert_uint_eq(pin.in_port, 1);
        ck_assert_uint_eq(pin.table_id, 0);
        ck_assert_uint_eq(ntohll(pin.cookie), 0x99);
        /* The whole frame; each packet once (packets of different flows
         * may come up through the handlers in any order). */
        bool found = false;
        for (size_t j = 0; j < n && !found; j++) {
            if (sizes[j] == pin.packet_len) {
                sizes[j] = 0;
                found = true;
            }
        }
        ck_assert_msg(found, "unexpected packet-in of %zu bytes",
                      pin.packet_len);
        free(pin.packet);
    }
    ck_assert_uint_eq(tx_packets(fx.ports[2]) + tx_packets(fx.ports[3]), 0);
    teardown(&fx);
}
END_TEST

/* Per-port protocols: the tests' own protocol (ofproto-test-util.h) sends
 * a frame every few milliseconds from the monitor thread, flipping its
 * link every ten, and takes frames of its ethertype that come up through
 * the handlers (slow path), asking each time to run at once, while the
 * main thread attaches and detaches it and takes its changes. */
START_TEST(test_port_protocols_race_changes)
{
    struct fixture fx;
    setup(&fx);

    struct test_protocol pings[3];
    for (int i = 1; i <= 2; i++) {
        test_protocol_init(&pings[i], i, 3, 10, true);
        ck_assert_int_eq(ofproto_port_attach_protocol(fx.ofproto, i,
                                                      &pings[i].up), 0);
    }

    size_t rounds = check_iterations(300, 20);
    for (size_t i = 0; i < rounds; i++) {
        struct eth_addr src = { .ea = { 0 } };
        struct dp_packet *packet = test_protocol_frame(src);
        ck_assert_int_eq(netdev_dummy_inject(fx.ports[1], packet), 0);

        if (i % 10 == 5) {
            ofproto_port_detach_protocol(fx.ofproto, &pings[2].up);
        } else if (i % 10 == 9) {
            port_protocol_schedule(&pings[2].up, time_msec());
            ck_assert_int_eq(ofproto_port_attach_protocol(
                                 fx.ofproto, 2, &pings[2].up), 0);
        }
        struct port_protocol **changed;
        size_t n = port_protocol_take_changed(&changed);
        for (size_t j = 0; j < n; j++) {
            const struct test_protocol *ping = changed[j]->owner;
            ofproto_port_changed(fx.ofproto, ping->ofp_port);
        }
        free(changed);
        ovsrcu_quiesce();
    }
    /* Frames came up through the handlers to the protocol, and the
     * monitor kept sending. */
    CHECK_WAIT_FOR(atomic_load(&pings[1].n_received) > 0);
    CHECK_WAIT_FOR(tx_packets(fx.ports[1]) > 0);
    ck_assert_uint_gt(atomic_load(&pings[1].n_runs), 0);
    for (int i = 1; i <= 2; i++) {
        ofproto_port_detach_protocol(fx.ofproto, &pings[i].up);
        ck_assert_ptr_null(pings[i].up.port);
    }
    teardown(&fx);
}
END_TEST

static Suite *
ofproto_threads_suite(void)
{
    Suite *s = suite_create("ofproto-threads");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_translators_race_changes);
    tcase_add_test(tc, test_traffic_through_handlers);
    tcase_add_test(tc, test_packet_in_through_handlers);
    tcase_add_test(tc, test_port_protocols_race_changes);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(ofproto_threads_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
