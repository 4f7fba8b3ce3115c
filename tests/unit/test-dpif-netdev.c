/* Unit tests for the userspace datapath through dpif.h: forwarding by an
 * installed flow, misses and "userspace" actions handed up through the
 * channels with key, hash and layer offsets, statistics, a deleted flow
 * never used again (the exact-match cache included), modify with stats
 * clear, a dump resumed by two dump threads seeing every flow once, and
 * executes sent by their own actions however dpif_operate() groups them,
 * terse dumps leaving out exactly the flows in their window, and the
 * control-packet sink taking slow-pathed protocol packets instead of an
 * upcall, and ct() with a timeout policy whose state the upcall and a
 * later execute carry on. */
#include <config.h>
#include "dpif.h"

#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <limits.h>
#include <linux/netlink.h>
#include <linux/openvswitch.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "conntrack.h"
#include "dp-epoch.h"
#include "dp-packet.h"
#include "flow-extract.h"
#include "netdev.h"
#include "odp-util.h"
#include "ofpbuf.h"
#include "poll-loop.h"
#include "smap.h"
#include "util.h"
#include "check-util.h"

static void
put_attr(struct ofpbuf *b, uint16_t type, const void *data, size_t len)
{
    struct nlattr nla = { .nla_len = NLA_HDRLEN + len, .nla_type = type };
    ofpbuf_put(b, &nla, sizeof nla);
    ofpbuf_put(b, data, len);
    ofpbuf_put_zeros(b, NLA_ALIGN(len) - len);
}

static void
put_output(struct ofpbuf *b, uint32_t port)
{
    put_attr(b, OVS_ACTION_ATTR_OUTPUT, &port, sizeof port);
}

static void
put_userspace(struct ofpbuf *b, const char *cookie)
{
    struct ofpbuf inner;
    uint32_t pid = 0;
    ofpbuf_init(&inner, 64);
    put_attr(&inner, OVS_USERSPACE_ATTR_PID, &pid, sizeof pid);
    put_attr(&inner, OVS_USERSPACE_ATTR_USERDATA, cookie, strlen(cookie));
    put_attr(b, OVS_ACTION_ATTR_USERSPACE, inner.data, inner.size);
    ofpbuf_uninit(&inner);
}

static struct dp_packet *
udp_packet(uint32_t src, uint16_t sport)
{
    struct flow f;
    memset(&f, 0, sizeof f);
    f.dl_src = (struct eth_addr) { { 0x50, 0x54, 0, 0, 0, 1 } };
    f.dl_dst = (struct eth_addr) { { 0x50, 0x54, 0, 0, 0, 2 } };
    f.dl_type = htons(0x0800);
    f.nw_src = htonl(src);
    f.nw_dst = htonl(0x0a000002);
    f.nw_proto = 17;
    f.nw_ttl = 64;
    f.tp_src = htons(sport);
    f.tp_dst = htons(53);
    struct dp_packet *p = dp_packet_new(256);
    flow_compose(p, &f, 18);
    return p;
}

/* Megaflow "in_port(PORT)" (everything else wildcarded). */
static void
in_port_flow(uint32_t port, struct flow *key, struct flow_wildcards *mask)
{
    memset(key, 0, sizeof *key);
    flow_wildcards_init_catchall(mask);
    key->in_port = port;
    WC_MASK_FIELD(mask, in_port);
}

static uint64_t
tx_packets(struct netdev *netdev)
{
    struct netdev_stats s;
    netdev_get_stats(netdev, &s);
    return s.tx_packets;
}

struct fixture {
    struct dpif *dpif;
    struct netdev *p1, *p2;
    uint32_t port1, port2;
};

static void
setup(struct fixture *fx, const char *dp_name)
{
    netdev_enable_dummy(NETDEV_DUMMY_OVERRIDE);
    ck_assert_int_eq(dpif_create(dp_name, "netdev", &fx->dpif), 0);
    char *n1 = xasprintf("%s-p1", dp_name), *n2 = xasprintf("%s-p2", dp_name);
    ck_assert_int_eq(netdev_open(n1, "dummy", &fx->p1), 0);
    ck_assert_int_eq(netdev_open(n2, "dummy", &fx->p2), 0);
    free(n1);
    free(n2);
    fx->port1 = fx->port2 = DPIF_PORT_NONE;
    ck_assert_int_eq(dpif_port_add(fx->dpif, fx->p1, &fx->port1), 0);
    ck_assert_int_eq(dpif_port_add(fx->dpif, fx->p2, &fx->port2), 0);
    ck_assert_uint_eq(fx->port1, 1);
    ck_assert_uint_eq(fx->port2, 2);
}

static void
teardown(struct fixture *fx)
{
    netdev_close(fx->p1);
    netdev_close(fx->p2);
    ck_assert_int_eq(dpif_delete(fx->dpif), 0);
    dp_epoch_synchronize();
    netdev_close_all();
    poll_loop_destroy_self();
}

START_TEST(test_forwarding_and_stats)
{
    struct fixture fx;
    setup(&fx, "fwd");

    struct flow key;
    struct flow_wildcards mask;
    struct ofpbuf actions;
    ofpbuf_init(&actions, 64);
    put_output(&actions, fx.port2);
    in_port_flow(fx.port1, &key, &mask);
    ck_assert_int_eq(dpif_flow_put(fx.dpif, DPIF_FP_CREATE, &key, &mask,
                                   actions.data, actions.size, NULL), 0);
    ck_assert_int_eq(dpif_flow_put(fx.dpif, DPIF_FP_CREATE, &key, &mask,
                                   actions.data, actions.size, NULL), EEXIST);

    /* Two keys first, then eight more packets of them: those hit the
     * exact-match cache. */
    netdev_dummy_inject(fx.p1, udp_packet(0x0a000001, 1000));
    netdev_dummy_inject(fx.p1, udp_packet(0x0a000001, 1001));
    CHECK_WAIT_FOR(tx_packets(fx.p2) == 2);
    for (int i = 0; i < 8; i++) {
        netdev_dummy_inject(fx.p1, udp_packet(0x0a000001, 1000 + i % 2));
    }
    CHECK_WAIT_FOR(tx_packets(fx.p2) == 10);

    struct dpif_flow f;
    void *buf;
    ck_assert_int_eq(dpif_flow_get(fx.dpif, &key, &mask, &f, &buf), 0);
    ck_assert_uint_eq(f.stats.n_packets, 10);
    ck_assert_uint_gt(f.stats.n_bytes, 10 * 42);
    ck_assert_int_gt(f.stats.used, 0);
    ck_assert_uint_eq(f.actions_len, actions.size);
    ck_assert(!memcmp(f.actions, actions.data, actions.size));
    free(buf);

    struct dpif_dp_stats s;
    dpif_get_dp_stats(fx.dpif, &s);
    ck_assert_uint_eq(s.n_hit, 10);
    ck_assert_uint_eq(s.n_missed, 0);
    ck_assert_uint_eq(s.n_flows, 1);
    ck_assert_uint_eq(s.n_masks, 1);
    /* Two distinct keys: the cache served the other eight. */
    ck_assert_uint_eq(s.n_emc_hit, 8);

    /* Modify with a stats clear: the old stats come back, new ones are
     * zero, and packets now go to the local port (no tx on p2). */
    struct dpif_flow_stats old;
    ofpbuf_clear(&actions);
    put_output(&actions, DPIF_PORT_LOCAL);
    ck_assert_int_eq(dpif_flow_put(fx.dpif, DPIF_FP_MODIFY
                                   | DPIF_FP_ZERO_STATS, &key, &mask,
                                   actions.data, actions.size, &old), 0);
    ck_assert_uint_eq(old.n_packets, 10);
    ck_assert_int_eq(dpif_flow_get(fx.dpif, &key, &mask, &f, &buf), 0);
    ck_assert_uint_eq(f.stats.n_packets, 0);
    free(buf);
    netdev_dummy_inject(fx.p1, udp_packet(0x0a000001, 1000));
    CHECK_WAIT_FOR(dpif_get_dp_stats(fx.dpif, &s) == 0 && s.n_hit == 11);
    ck_assert_uint_eq(tx_packets(fx.p2), 10);

    /* other_config:n-rx-threads moves the ports to more threads; the
     * flows keep forwarding. */
    struct smap cfg = SMAP_INITIALIZER(&cfg);
    smap_add(&cfg, "n-rx-threads", "3");
    ck_assert_int_eq(dpif_set_config(fx.dpif, &cfg), 0);
    ck_assert_uint_eq(dpif_get_n_rx_threads(fx.dpif), 3);
    smap_replace(&cfg, "n-rx-threads", "zero");
    ck_assert_int_eq(dpif_set_config(fx.dpif, &cfg), EINVAL);
    ck_assert_uint_eq(dpif_get_n_rx_threads(fx.dpif), 3);
    smap_destroy(&cfg);
    netdev_dummy_inject(fx.p1, udp_packet(0x0a000001, 1000));
    CHECK_WAIT_FOR(dpif_get_dp_stats(fx.dpif, &s) == 0 && s.n_hit == 12);

    /* Per port. */
    struct dpif_port_stats ps;
    ck_assert_int_eq(dpif_port_get_stats(fx.dpif, fx.port1, &ps), 0);
    ck_assert_uint_eq(ps.n_hit, 12);

    ofpbuf_uninit(&actions);
    teardown(&fx);
}
END_TEST

/* Executes of one dpif_operate() call: runs of the same actions may share
 * a send, but every packet still goes where its own actions say, puts
 * between them included, and more than a burst's worth too. */
START_TEST(test_executes_each_packet_by_its_actions)
{
    struct fixture fx;
    setup(&fx, "exec");

    struct ofpbuf to_p1, to_p2;
    ofpbuf_init(&to_p1, 16);
    ofpbuf_init(&to_p2, 16);
    put_output(&to_p1, fx.port1);
    put_output(&to_p2, fx.port2);

    enum { N = NETDEV_MAX_BURST + 8 };
    struct dp_packet *packets[N];
    struct dp_packet_batch batches[N];
    struct dpif_op execs[N], put;
    struct dpif_op *ops[N + 1];
    size_t n_ops = 0, n_to_p1 = 0;

    struct flow key;
    struct flow_wildcards mask;
    in_port_flow(fx.port1, &key, &mask);
    put = (struct dpif_op) {
        .type = DPIF_OP_FLOW_PUT,
        .put = { .flags = DPIF_FP_CREATE, .key = &key, .mask = &mask,
                 .actions = to_p2.data, .actions_len = to_p2.size },
    };
    for (size_t i = 0; i < N; i++) {
        /* Mostly to p2, every fifth to p1; the put in the middle. */
        const struct ofpbuf *acts = i % 5 == 4 ? &to_p1 : &to_p2;
        n_to_p1 += acts == &to_p1;
        packets[i] = udp_packet(0x0a000001, 2000 + i);
        dp_packet_batch_init_packet(&batches[i], packets[i]);
        execs[i] = (struct dpif_op) {
            .type = DPIF_OP_EXECUTE,
            .execute = { .batch = &batches[i], .actions = acts->data,
                         .actions_len = acts->size },
        };
        if (i == N / 2) {
            ops[n_ops++] = &put;
        }
        ops[n_ops++] = &execs[i];
    }
    dpif_operate(fx.dpif, ops, n_ops);

    ck_assert_int_eq(put.error, 0);
    for (size_t i = 0; i < N; i++) {
        ck_assert_int_eq(execs[i].error, 0);
    }
    CHECK_WAIT_FOR(tx_packets(fx.p1) == n_to_p1
                   && tx_packets(fx.p2) == N - n_to_p1);

    for (size_t i = 0; i < N; i++) {
        dp_packet_delete(packets[i]);
    }
    ofpbuf_uninit(&to_p1);
    ofpbuf_uninit(&to_p2);
    teardown(&fx);
}
END_TEST

/* Dumps the whole datapath into FLOWS (at most MAX), with the terse window
 * [IDLE_BEFORE, QUIET_BEFORE) unless SET is false; returns how many. */
static int
dump_all(struct dpif *dpif, bool set, long long int idle_before,
         long long int quiet_before, struct dpif_flow *flows, int max)
{
    struct dpif_flow_dump *dump = dpif_flow_dump_create(dpif);
    if (set) {
        dpif_flow_dump_set_terse(dump, idle_before, quiet_before);
    }
    struct dpif_flow_dump_thread *t = dpif_flow_dump_thread_create(dump);
    int n = 0, got;
    while ((got = dpif_flow_dump_next(t, flows + n, max - n)) > 0) {
        n += got;
    }
    dpif_flow_dump_thread_destroy(t);
    ck_assert_int_eq(dpif_flow_dump_destroy(dump), 0);
    return n;
}

/* A terse dump leaves out exactly the flows in its window: quiet since
 * QUIET_BEFORE, and used (or created) after IDLE_BEFORE; their hash,
 * creation time and statistics still come. */
START_TEST(test_terse_dump_window)
{
    struct fixture fx;
    setup(&fx, "terse");

    struct ofpbuf actions;
    ofpbuf_init(&actions, 64);
    put_output(&actions, fx.port2);
    struct flow key1, key2;
    struct flow_wildcards mask1, mask2;
    in_port_flow(fx.port1, &key1, &mask1);      /* Gets a packet. */
    in_port_flow(fx.port2, &key2, &mask2);      /* Never used. */
    ck_assert_int_eq(dpif_flow_put(fx.dpif, DPIF_FP_CREATE, &key1, &mask1,
                                   actions.data, actions.size, NULL), 0);
    ck_assert_int_eq(dpif_flow_put(fx.dpif, DPIF_FP_CREATE, &key2, &mask2,
                                   actions.data, actions.size, NULL), 0);
    netdev_dummy_inject(fx.p1, udp_packet(0x0a000001, 1000));
    CHECK_WAIT_FOR(tx_packets(fx.p2) == 1);

    struct dpif_flow full[4], terse[4];
    ck_assert_int_eq(dump_all(fx.dpif, false, 0, 0, full, 4), 2);
    struct dpif_flow *used = (full[0].key.in_port == fx.port1
                              ? &full[0] : &full[1]);
    struct dpif_flow *unused = used == &full[0] ? &full[1] : &full[0];
    ck_assert(!used->terse && !unused->terse);
    ck_assert_int_gt(used->stats.used, 0);
    ck_assert_int_eq(unused->stats.used, 0);

    /* A window over all time: both terse, with what matters intact. */
    ck_assert_int_eq(dump_all(fx.dpif, true, LLONG_MIN, LLONG_MAX,
                              terse, 4), 2);
    for (int i = 0; i < 2; i++) {
        ck_assert(terse[i].terse);
        const struct dpif_flow *same = (terse[i].hash == used->hash
                                        ? used : unused);
        ck_assert_uint_eq(terse[i].hash, same->hash);
        ck_assert_int_eq(terse[i].created, same->created);
        ck_assert_uint_eq(terse[i].stats.n_packets, same->stats.n_packets);
        ck_assert_int_eq(terse[i].stats.used, same->stats.used);
    }

    /* Quiet only before the packet: the used flow comes whole. */
    ck_assert_int_eq(dump_all(fx.dpif, true, LLONG_MIN, used->stats.used,
                              terse, 4), 2);
    for (int i = 0; i < 2; i++) {
        ck_assert(terse[i].terse == (terse[i].hash == unused->hash));
        if (!terse[i].terse) {
            ck_assert_uint_eq(terse[i].key.in_port, fx.port1);
            ck_assert_uint_eq(terse[i].actions_len, actions.size);
        }
    }

    /* Idle up to their creation or use: about to expire, so whole. */
    ck_assert_int_eq(dump_all(fx.dpif, true, MAX(used->stats.used,
                                                 unused->created),
                              LLONG_MAX, terse, 4), 2);
    ck_assert(!terse[0].terse && !terse[1].terse);

    ofpbuf_uninit(&actions);
    teardown(&fx);
}
END_TEST

START_TEST(test_misses_and_userspace_reach_handlers)
{
    struct fixture fx;
    setup(&fx, "miss");
    ck_assert_int_eq(dpif_handlers_set(fx.dpif, 1), 0);

    /* A miss: key, hash and offsets come up with the bytes. */
    struct dp_packet *p = udp_packet(0x0a000009, 4242);
    struct dp_packet *copy = dp_packet_clone(p);
    netdev_dummy_inject(fx.p2, p);

    struct dpif_upcall up[DPIF_RECV_MAX];
    size_t n = 0;
    struct dpif_dp_stats s;
    CHECK_WAIT_FOR(dpif_get_dp_stats(fx.dpif, &s) == 0 && s.n_missed == 1);
    ck_assert_uint_eq(s.n_lost, 0);
    struct dpif_port_stats ps;
    dpif_port_get_stats(fx.dpif, fx.port2, &ps);
    ck_assert_uint_eq(ps.n_upcalls, 1);
    CHECK_WAIT_FOR((n = dpif_recv(fx.dpif, 0, up, DPIF_RECV_MAX)) == 1);
    ck_assert_int_eq(up[0].type, DPIF_UC_MISS);
    ck_assert_uint_eq(up[0].key->in_port, fx.port2);
    ck_assert_uint_eq(ntohs(up[0].key->tp_src), 4242);
    ck_assert_uint_eq(up[0].packet.md.in_port, fx.port2);
    ck_assert_uint_eq(dp_packet_size(&up[0].packet), dp_packet_size(copy));
    ck_assert(!memcmp(dp_packet_data(&up[0].packet), dp_packet_data(copy),
                      dp_packet_size(copy)));
    struct flow k;
    copy->md.in_port = fx.port2;
    flow_extract(copy, &k);
    ck_assert_uint_eq(up[0].hash, dp_packet_flow_hash(copy, &k));
    ck_assert_uint_eq(up[0].packet.l3_ofs, 14);
    ck_assert_uint_eq(up[0].packet.l4_ofs, 34);
    dpif_recv_release(fx.dpif, 0);
    dp_packet_delete(copy);

    /* A "userspace" action, with its cookie. */
    struct flow key;
    struct flow_wildcards mask;
    struct ofpbuf actions;
    ofpbuf_init(&actions, 64);
    put_userspace(&actions, "cookie42");
    in_port_flow(fx.port1, &key, &mask);
    ck_assert_int_eq(dpif_flow_put(fx.dpif, DPIF_FP_CREATE, &key, &mask,
                                   actions.data, actions.size, NULL), 0);
    netdev_dummy_inject(fx.p1, udp_packet(0x0a000001, 7));
    CHECK_WAIT_FOR((n = dpif_recv(fx.dpif, 0, up, DPIF_RECV_MAX)) == 1);
    ck_assert_int_eq(up[0].type, DPIF_UC_ACTION);
    ck_assert_uint_eq(up[0].userdata_len, 8);
    ck_assert(!memcmp(up[0].userdata, "cookie42", 8));
    dpif_recv_release(fx.dpif, 0);

    /* The flow deleted: the next packet of the same key is a miss, even
     * though the key sits in the exact-match cache. */
    ck_assert_int_eq(dpif_flow_del(fx.dpif, &key, &mask, NULL), 0);
    ck_assert_int_eq(dpif_flow_del(fx.dpif, &key, &mask, NULL), ENOENT);
    netdev_dummy_inject(fx.p1, udp_packet(0x0a000001, 7));
    CHECK_WAIT_FOR((n = dpif_recv(fx.dpif, 0, up, DPIF_RECV_MAX)) == 1);
    ck_assert_int_eq(up[0].type, DPIF_UC_MISS);
    dpif_recv_release(fx.dpif, 0);

    dpif_get_dp_stats(fx.dpif, &s);
    ck_assert_uint_eq(s.n_missed, 2);
    ck_assert_uint_eq(s.n_hit, 1);
    ck_assert_uint_eq(s.n_lost, 0);

    ofpbuf_uninit(&actions);
    dpif_handlers_set(fx.dpif, 0);
    teardown(&fx);
}
END_TEST

/* The control-packet sink: what it saw, and whether it consumes. */
struct sink_state {
    _Atomic unsigned int calls;
    _Atomic uint32_t last_reasons;
    _Atomic uint32_t last_in_port;
    _Atomic uint16_t last_sport;
    atomic_bool consume;
};

static bool
test_sink(const struct dp_packet *packet, const struct flow *key,
          uint32_t slow_reasons, void *state_)
{
    struct sink_state *st = state_;
    ck_assert(dp_packet_size(packet) > 0);
    atomic_store(&st->last_reasons, slow_reasons);
    atomic_store(&st->last_in_port, key->in_port);
    atomic_store(&st->last_sport, ntohs(key->tp_src));
    atomic_fetch_add(&st->calls, 1);
    return atomic_load(&st->consume);
}

/* Injects a packet on P1 (source port SPORT), then a miss on P2 behind it
 * (one rx thread takes both in order, so once the miss is up the first
 * packet is done with), and stores in TYPES the upcall types received
 * ("A" action, "M" miss), sorted. */
static void
inject_then_fence(struct fixture *fx, uint16_t sport, char *types,
                  size_t max)
{
    static uint32_t fence_src = 0x0b000000;
    netdev_dummy_inject(fx->p1, udp_packet(0x0a000001, sport));
    netdev_dummy_inject(fx->p2, udp_packet(++fence_src, 1));
    size_t n_types = 0;
    bool fenced = false;
    while (!fenced) {
        struct dpif_upcall up[DPIF_RECV_MAX];
        size_t n;
        CHECK_WAIT_FOR((n = dpif_recv(fx->dpif, 0, up, DPIF_RECV_MAX)) > 0);
        for (size_t i = 0; i < n; i++) {
            ck_assert(n_types + 1 < max);
            types[n_types++] = up[i].type == DPIF_UC_MISS ? 'M' : 'A';
            if (up[i].type == DPIF_UC_MISS
                && up[i].key->nw_src == htonl(fence_src)) {
                fenced = true;
            }
        }
        dpif_recv_release(fx->dpif, 0);
    }
    /* Channels are served round-robin: the fence may come up before what
     * was queued ahead of it on the other port. */
    struct dpif_upcall up[DPIF_RECV_MAX];
    size_t n = dpif_recv(fx->dpif, 0, up, DPIF_RECV_MAX);
    for (size_t i = 0; i < n; i++) {
        ck_assert(n_types + 1 < max);
        types[n_types++] = up[i].type == DPIF_UC_MISS ? 'M' : 'A';
    }
    dpif_recv_release(fx->dpif, 0);
    types[n_types] = '\0';
    /* In canonical order ("AM"), since the order between ports is not
     * the point. */
    for (size_t i = 1; i < n_types; i++) {
        for (size_t j = i; j > 0 && types[j - 1] > types[j]; j--) {
            char c = types[j];
            types[j] = types[j - 1];
            types[j - 1] = c;
        }
    }
}

static void
put_slow_path_flow(struct fixture *fx, uint32_t reasons)
{
    struct flow key;
    struct flow_wildcards mask;
    struct ofpbuf actions;
    ofpbuf_init(&actions, 64);
    struct odp_cookie cookie = { .type = ODP_COOKIE_SLOW_PATH };
    cookie.slow_path.reason = reasons;
    odp_put_userspace_cookie(&actions, &cookie);
    in_port_flow(fx->port1, &key, &mask);
    ck_assert_int_eq(dpif_flow_put(fx->dpif, DPIF_FP_CREATE | DPIF_FP_MODIFY,
                                   &key, &mask, actions.data, actions.size,
                                   NULL), 0);
    ofpbuf_uninit(&actions);
}

START_TEST(test_control_sink)
{
    struct fixture fx;
    setup(&fx, "sink");
    ck_assert_int_eq(dpif_handlers_set(fx.dpif, 1), 0);
    char types[16];

    struct sink_state st;
    atomic_init(&st.calls, 0);
    atomic_init(&st.last_reasons, 0);
    atomic_init(&st.last_in_port, 0);
    atomic_init(&st.last_sport, 0);
    atomic_init(&st.consume, true);

    /* No sink yet: a slow-pathed BFD packet goes up. */
    put_slow_path_flow(&fx, SLOW_BFD);
    inject_then_fence(&fx, 10, types, sizeof types);
    ck_assert_str_eq(types, "AM");

    /* With the sink: consumed on the datapath's thread, no upcall. */
    dpif_set_control_sink(fx.dpif, test_sink, &st);
    inject_then_fence(&fx, 11, types, sizeof types);
    ck_assert_str_eq(types, "M");
    ck_assert_uint_eq(atomic_load(&st.calls), 1);
    ck_assert_uint_eq(atomic_load(&st.last_reasons), SLOW_BFD);
    ck_assert_uint_eq(atomic_load(&st.last_in_port), fx.port1);
    ck_assert_uint_eq(atomic_load(&st.last_sport), 11);

    /* Declined: it goes up after all. */
    atomic_store(&st.consume, false);
    inject_then_fence(&fx, 12, types, sizeof types);
    ck_assert_str_eq(types, "AM");
    ck_assert_uint_eq(atomic_load(&st.calls), 2);
    atomic_store(&st.consume, true);

    /* Several protocol reasons are offered too... */
    put_slow_path_flow(&fx, SLOW_CFM | SLOW_LACP | SLOW_STP | SLOW_LLDP);
    inject_then_fence(&fx, 13, types, sizeof types);
    ck_assert_str_eq(types, "M");
    ck_assert_uint_eq(atomic_load(&st.calls), 3);
    ck_assert_uint_eq(atomic_load(&st.last_reasons),
                      SLOW_CFM | SLOW_LACP | SLOW_STP | SLOW_LLDP);

    /* ...but not a flow slow-pathed for anything else as well. */
    put_slow_path_flow(&fx, SLOW_BFD | SLOW_ACTION);
    inject_then_fence(&fx, 14, types, sizeof types);
    ck_assert_str_eq(types, "AM");
    put_slow_path_flow(&fx, SLOW_MATCH);
    inject_then_fence(&fx, 15, types, sizeof types);
    ck_assert_str_eq(types, "AM");
    ck_assert_uint_eq(atomic_load(&st.calls), 3);

    /* Removed: on return it runs no more, and packets go up again. */
    put_slow_path_flow(&fx, SLOW_BFD);
    dpif_set_control_sink(fx.dpif, NULL, NULL);
    inject_then_fence(&fx, 16, types, sizeof types);
    ck_assert_str_eq(types, "AM");
    ck_assert_uint_eq(atomic_load(&st.calls), 3);

    dpif_handlers_set(fx.dpif, 0);
    teardown(&fx);
}
END_TEST

START_TEST(test_dump_resumes_across_threads)
{
    enum { N = 300 };
    struct fixture fx;
    setup(&fx, "dump");

    struct ofpbuf actions;
    ofpbuf_init(&actions, 64);
    put_output(&actions, fx.port2);
    for (int i = 0; i < N; i++) {
        struct flow key;
        struct flow_wildcards mask;
        in_port_flow(fx.port1, &key, &mask);
        key.dl_type = htons(0x0800);
        key.nw_src = htonl(0x0a000000 + i);
        WC_MASK_FIELD(&mask, dl_type);
        WC_MASK_FIELD(&mask, nw_src);
        ck_assert_int_eq(dpif_flow_put(fx.dpif, DPIF_FP_CREATE, &key, &mask,
                                       actions.data, actions.size, NULL), 0);
    }

    int seen[N] = { 0 };
    struct dpif_flow_dump *dump = dpif_flow_dump_create(fx.dpif);
    struct dpif_flow_dump_thread *t[2] = {
        dpif_flow_dump_thread_create(dump),
        dpif_flow_dump_thread_create(dump),
    };
    struct dpif_flow flows[7];
    int n, k = 0;
    while ((n = dpif_flow_dump_next(t[k++ % 2], flows, 7)) > 0) {
        for (int i = 0; i < n; i++) {
            seen[ntohl(flows[i].key.nw_src) - 0x0a000000]++;
            ck_assert_uint_eq(flows[i].actions_len, actions.size);
            /* The hash the revalidators find their keys by. */
            ck_assert_uint_eq(flows[i].hash,
                              dpif_flow_hash(&flows[i].key, &flows[i].mask));
        }
    }
    for (int i = 0; i < N; i++) {
        ck_assert_int_eq(seen[i], 1);
    }
    dpif_flow_dump_thread_destroy(t[0]);
    dpif_flow_dump_thread_destroy(t[1]);
    dpif_flow_dump_destroy(dump);

    ck_assert_int_eq(dpif_flow_flush(fx.dpif), 0);
    struct dpif_dp_stats s;
    dpif_get_dp_stats(fx.dpif, &s);
    ck_assert_uint_eq(s.n_flows, 0);
    ck_assert_uint_eq(s.n_masks, 0);
    ofpbuf_uninit(&actions);
    teardown(&fx);
}
END_TEST

/* ct(): the datapath runs packets through its tracker; a miss after the
 * recirculation hands up the conntrack state in the key and in the
 * packet's metadata; timeout=N uses the policy the dpif set as id N. */
static bool
first_entry(const struct ct_entry *e, void *aux)
{
    *(struct ct_entry *) aux = *e;
    return false;
}

START_TEST(test_ct_upcall_and_timeout_policy)
{
    struct fixture fx;
    setup(&fx, "ct");
    ck_assert_int_eq(dpif_handlers_set(fx.dpif, 1), 0);
    struct conntrack *ct = dpif_conntrack(fx.dpif);
    ck_assert(ct);

    uint32_t seconds[CT_TM_N] = { [CT_TM_UDP_FIRST] = 200,
                                  [CT_TM_UDP_SINGLE] = 300 };
    ck_assert_int_eq(dpif_ct_set_timeout_policy(fx.dpif, 7, seconds), 0);
    ck_assert_int_eq(dpif_ct_set_timeout_policy(fx.dpif, 0, seconds),
                     EINVAL);
    char *name = dpif_ct_timeout_policy_name(fx.dpif, 7);
    ck_assert_str_eq(name, "7");

    struct ofpbuf actions;
    ofpbuf_init(&actions, 64);
    char *text = xasprintf("ct(commit,zone=3,timeout=%s),recirc(0x1)", name);
    free(name);
    char *error = odp_actions_from_string(text, NULL, &actions);
    ck_assert_msg(!error, "%s", error);
    free(text);
    struct flow key;
    struct flow_wildcards mask;
    in_port_flow(fx.port1, &key, &mask);
    WC_MASK_FIELD(&mask, recirc_id);        /* recirc_id(0) only. */
    ck_assert_int_eq(dpif_flow_put(fx.dpif, DPIF_FP_CREATE, &key, &mask,
                                   actions.data, actions.size, NULL), 0);
    netdev_dummy_inject(fx.p1, udp_packet(0x0a000001, 5000));

    struct dpif_upcall up[DPIF_RECV_MAX];
    CHECK_WAIT_FOR(dpif_recv(fx.dpif, 0, up, DPIF_RECV_MAX) == 1);
    ck_assert_int_eq(up[0].type, DPIF_UC_MISS);
    ck_assert_uint_eq(up[0].key->recirc_id, 1);
    ck_assert_uint_eq(up[0].key->ct_state, CS_NEW | CS_TRACKED);
    ck_assert_uint_eq(up[0].key->ct_zone, 3);
    ck_assert_uint_eq(up[0].key->ct_nw_proto, 17);
    ck_assert_uint_eq(ntohs(up[0].key->ct_tp_src), 5000);
    ck_assert_uint_eq(up[0].packet.md.ct_state, CS_NEW | CS_TRACKED);
    ck_assert_uint_eq(up[0].packet.md.ct_zone, 3);
    ck_assert_uint_eq(up[0].packet.md.recirc_id, 1);

    /* The connection's timeout is the policy's, not the default. */
    struct ct_entry e;
    memset(&e, 0, sizeof e);
    conntrack_dump(ct, NULL, first_entry, &e);
    ck_assert_uint_eq(e.zone, 3);
    ck_assert_uint_ge(e.timeout_s, 190);
    ck_assert_uint_le(e.timeout_s, 200);

    /* Executing on the upcall's packet goes on from its state: a ct()
     * in the same zone finds the connection committed above. */
    ofpbuf_clear(&actions);
    error = odp_actions_from_string("ct(zone=3)", NULL, &actions);
    ck_assert_msg(!error, "%s", error);
    struct dp_packet_batch batch;
    dp_packet_batch_init_packet(&batch, &up[0].packet);
    ck_assert_int_eq(dpif_execute(fx.dpif, &batch, actions.data,
                                  actions.size), 0);
    ck_assert_uint_eq(up[0].packet.md.ct_state, CS_NEW | CS_TRACKED);
    ck_assert_uint_eq(conntrack_get_nconns(ct), 1);
    dpif_recv_release(fx.dpif, 0);

    /* Its second packet: the policy's udp_single. */
    conntrack_dump(ct, NULL, first_entry, &e);
    ck_assert_uint_ge(e.timeout_s, 290);
    ck_assert_uint_le(e.timeout_s, 300);
    ck_assert_int_eq(dpif_ct_del_timeout_policy(fx.dpif, 7), 0);

    ofpbuf_uninit(&actions);
    teardown(&fx);
}
END_TEST

static Suite *
dpif_netdev_suite(void)
{
    Suite *s = suite_create("dpif-netdev");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_forwarding_and_stats);
    tcase_add_test(tc, test_executes_each_packet_by_its_actions);
    tcase_add_test(tc, test_terse_dump_window);
    tcase_add_test(tc, test_misses_and_userspace_reach_handlers);
    tcase_add_test(tc, test_dump_resumes_across_threads);
    tcase_add_test(tc, test_control_sink);
    tcase_add_test(tc, test_ct_upcall_and_timeout_policy);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(dpif_netdev_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
