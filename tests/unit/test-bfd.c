/* Unit tests for bfd: two sessions talk to each other directly, the test
 * standing in for ofproto's monitor (it runs each session when its
 * deadline comes and hands what one sends to the other's recognizes() and
 * receive()), on a stopped clock that the test advances.  Covered: the
 * session coming up and going down on detection timeout and recovering;
 * interval changes through a poll sequence; invalid packets dropped;
 * bfd_status; flap_count; decay; forwarding_if_rx; recognizes() with
 * check_tnl_key and bfd_src_ip. */
#include <config.h>
#include "bfd.h"

#include <check.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "check-util.h"
#include "dp-packet.h"
#include "flow-extract.h"
#include "flow.h"
#include "netdev.h"
#include "packets.h"
#include "port-protocol.h"
#include "smap.h"
#include "timeval.h"
#include "util.h"

/* One end of the simulated link. */
struct end {
    struct bfd *bfd;
    struct eth_addr mac;
    bool deliver;               /* Whether what it sends reaches the peer. */
    bool enabled;               /* false: never run (BFD off there). */
    size_t n_sent;
    uint8_t last_msg[BFD_PACKET_LEN];   /* The last control message sent. */
    struct dp_packet *last_packet;      /* A copy of the last packet. */
};

static struct bfd *
make_bfd(const char *name, const char *settings, struct netdev *netdev)
{
    struct smap cfg = SMAP_INITIALIZER(&cfg);
    char *copy = xstrdup(settings);
    char *save = NULL;
    for (char *kv = strtok_r(copy, " ", &save); kv;
         kv = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(kv, '=');
        ck_assert(eq);
        *eq = '\0';
        smap_add(&cfg, kv, eq + 1);
    }
    struct bfd *bfd = bfd_create(name, &cfg, netdev, NULL);
    smap_destroy(&cfg);
    free(copy);
    return bfd;
}

static void
reconfigure(struct bfd *bfd, const char *settings)
{
    struct smap cfg = SMAP_INITIALIZER(&cfg);
    char *copy = xstrdup(settings);
    char *save = NULL;
    for (char *kv = strtok_r(copy, " ", &save); kv;
         kv = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(kv, '=');
        *eq = '\0';
        smap_add(&cfg, kv, eq + 1);
    }
    bfd_reconfigure(bfd, &cfg);
    smap_destroy(&cfg);
    free(copy);
}

/* Hands PACKET to END's session as translation and a handler would. */
static bool
deliver(struct end *to, struct dp_packet *packet)
{
    struct flow flow;
    flow_extract(packet, &flow);
    struct port_protocol *p = bfd_protocol(to->bfd);
    if (!p->class->recognizes(p, &flow, NULL)) {
        return false;
    }
    p->class->receive(p, &flow, packet);
    return true;
}

/* Runs E's session if its deadline has come, as the monitor does, and
 * delivers what it sends to PEER. */
static void
run_end(struct end *e, struct end *peer)
{
    if (!e->enabled) {
        return;
    }
    struct port_protocol *p = bfd_protocol(e->bfd);
    long long int now = time_msec();
    if (p->deadline > now) {
        return;
    }
    struct dp_packet_batch out;
    dp_packet_batch_init(&out);
    p->deadline = LLONG_MAX;
    long long int next = p->class->run(p, now, e->mac, &out);
    ck_assert_int_gt(next, now);
    if (next < p->deadline) {
        p->deadline = next;
    }

    for (size_t i = 0; i < dp_packet_batch_size(&out); i++) {
        struct dp_packet *packet = out.packets[i];
        const uint8_t *data = dp_packet_data(packet);
        ck_assert_uint_eq(dp_packet_size(packet), 14 + 20 + 8 + 24);
        memcpy(e->last_msg, data + 42, BFD_PACKET_LEN);
        e->n_sent++;
        dp_packet_delete(e->last_packet);
        e->last_packet = dp_packet_clone(packet);
        if (e->deliver && peer->enabled) {
            ck_assert(deliver(peer, packet));
        }
        dp_packet_delete(packet);
    }
}

/* Advances the clock by MSECS in 1 ms steps, running both ends. */
static void
advance(struct end *a, struct end *b, long long int msecs)
{
    for (long long int i = 0; i < msecs; i++) {
        run_end(a, b);
        run_end(b, a);
        time_warp(1);
    }
    run_end(a, b);
    run_end(b, a);
}

static const char *
status(const struct bfd *bfd, const char *key)
{
    static char value[64];
    struct smap smap = SMAP_INITIALIZER(&smap);
    bfd_get_status(bfd, &smap);
    const char *v = smap_get(&smap, key);
    ck_assert_msg(v, "no %s in bfd_status", key);
    ovs_strzcpy(value, v, sizeof value);
    smap_destroy(&smap);
    return value;
}

static uint32_t
msg_u32(const uint8_t *msg, size_t ofs)
{
    return ((uint32_t) msg[ofs] << 24 | (uint32_t) msg[ofs + 1] << 16
            | (uint32_t) msg[ofs + 2] << 8 | msg[ofs + 3]);
}

#define MSG_POLL 0x20
#define MSG_FINAL 0x10

static void
setup_pair(struct end *a, struct end *b, const char *cfg_a,
           const char *cfg_b)
{
    memset(a, 0, sizeof *a);
    memset(b, 0, sizeof *b);
    time_stop();
    a->bfd = make_bfd("a", cfg_a, NULL);
    b->bfd = make_bfd("b", cfg_b, NULL);
    a->mac = (struct eth_addr) { { 0xaa, 0x55, 0xaa, 0x55, 0, 1 } };
    b->mac = (struct eth_addr) { { 0xaa, 0x55, 0xaa, 0x55, 0, 2 } };
    a->deliver = b->deliver = true;
    a->enabled = b->enabled = true;
}

static void
teardown_pair(struct end *a, struct end *b)
{
    bfd_destroy(a->bfd);
    bfd_destroy(b->bfd);
    dp_packet_delete(a->last_packet);
    dp_packet_delete(b->last_packet);
}

START_TEST(test_session_up_down_recover)
{
    struct end a, b;
    setup_pair(&a, &b, "enable=true", "enable=true");

    ck_assert_str_eq(status(a.bfd, "state"), "down");
    ck_assert_str_eq(status(a.bfd, "forwarding"), "false");
    ck_assert_str_eq(status(a.bfd, "flap_count"), "0");

    advance(&a, &b, 4100);
    ck_assert_str_eq(status(a.bfd, "state"), "up");
    ck_assert_str_eq(status(b.bfd, "state"), "up");
    ck_assert_str_eq(status(a.bfd, "remote_state"), "up");
    ck_assert_str_eq(status(a.bfd, "forwarding"), "true");
    ck_assert_str_eq(status(a.bfd, "diagnostic"), "No Diagnostic");
    ck_assert_str_eq(status(a.bfd, "flap_count"), "1");
    ck_assert(bfd_class.link_ok(bfd_protocol(a.bfd)));

    /* The path fails both ways: detection time expires on both ends. */
    a.deliver = b.deliver = false;
    advance(&a, &b, 4100);
    ck_assert_str_eq(status(a.bfd, "state"), "down");
    ck_assert_str_eq(status(a.bfd, "diagnostic"),
                     "Control Detection Time Expired");
    ck_assert_str_eq(status(a.bfd, "remote_state"), "down");
    ck_assert_str_eq(status(a.bfd, "forwarding"), "false");
    ck_assert_str_eq(status(a.bfd, "flap_count"), "2");
    ck_assert(!bfd_class.link_ok(bfd_protocol(a.bfd)));

    /* It recovers; the diagnostic says why it last went down. */
    a.deliver = b.deliver = true;
    advance(&a, &b, 4100);
    ck_assert_str_eq(status(a.bfd, "state"), "up");
    ck_assert_str_eq(status(a.bfd, "diagnostic"),
                     "Control Detection Time Expired");
    ck_assert_str_eq(status(a.bfd, "remote_diagnostic"),
                     "Control Detection Time Expired");
    ck_assert_str_eq(status(a.bfd, "flap_count"), "3");

    /* One way only: B hears nothing and goes down; A then hears B's Down
     * and goes to Init. */
    a.deliver = false;
    advance(&a, &b, 8200);
    ck_assert_str_eq(status(b.bfd, "state"), "down");
    ck_assert_str_eq(status(a.bfd, "state"), "init");
    ck_assert_str_eq(status(a.bfd, "diagnostic"),
                     "Neighbor Signaled Session Down");
    ck_assert_str_eq(status(a.bfd, "forwarding"), "false");

    teardown_pair(&a, &b);
}
END_TEST

START_TEST(test_bfd_status_keys)
{
    struct end a, b;
    setup_pair(&a, &b, "enable=true", "enable=true");
    struct smap smap = SMAP_INITIALIZER(&smap);
    bfd_get_status(a.bfd, &smap);
    ck_assert_uint_eq(smap_count(&smap), 6);
    ck_assert_str_eq(smap_get(&smap, "state"), "down");
    ck_assert_str_eq(smap_get(&smap, "forwarding"), "false");
    ck_assert_str_eq(smap_get(&smap, "diagnostic"), "No Diagnostic");
    ck_assert_str_eq(smap_get(&smap, "remote_state"), "down");
    ck_assert_str_eq(smap_get(&smap, "remote_diagnostic"), "No Diagnostic");
    ck_assert_str_eq(smap_get(&smap, "flap_count"), "0");
    smap_destroy(&smap);

    /* A change of visible state is put on the change queue. */
    struct port_protocol **changed;
    size_t n = port_protocol_take_changed(&changed);
    free(changed);
    ck_assert_uint_eq(n, 2);        /* Both sessions, once each. */
    advance(&a, &b, 4100);
    n = port_protocol_take_changed(&changed);
    bool saw_a = false;
    for (size_t i = 0; i < n; i++) {
        saw_a |= changed[i] == bfd_protocol(a.bfd);
    }
    free(changed);
    ck_assert(saw_a);
    teardown_pair(&a, &b);
    /* Destroyed sessions left the queue. */
    ck_assert_uint_eq(port_protocol_take_changed(&changed), 0);
}
END_TEST

START_TEST(test_cpath_down)
{
    struct end a, b;
    setup_pair(&a, &b, "enable=true", "enable=true");
    advance(&a, &b, 4100);
    reconfigure(a.bfd, "enable=true cpath_down=true");
    advance(&a, &b, 4100);
    ck_assert_str_eq(status(a.bfd, "diagnostic"), "Concatenated Path Down");
    ck_assert_str_eq(status(b.bfd, "state"), "up");
    ck_assert_str_eq(status(b.bfd, "remote_diagnostic"),
                     "Concatenated Path Down");
    /* The peer's path is down: B does not forward over it. */
    ck_assert_str_eq(status(b.bfd, "forwarding"), "false");
    teardown_pair(&a, &b);
}
END_TEST

START_TEST(test_poll_final)
{
    struct end a, b;
    setup_pair(&a, &b, "enable=true", "enable=true");
    advance(&a, &b, 3100);
    ck_assert_str_eq(status(a.bfd, "state"), "up");
    /* Default intervals: min_tx 100 ms, min_rx 1000 ms. */
    ck_assert_uint_eq(msg_u32(a.last_msg, 12), 100000);
    ck_assert_uint_eq(msg_u32(a.last_msg, 16), 1000000);

    /* A slower transmit interval is announced with Poll; the poll goes
     * at once, and B answers at once with Final. */
    size_t a_sent = a.n_sent, b_sent = b.n_sent;
    reconfigure(a.bfd, "enable=true min_tx=200");
    run_end(&a, &b);
    ck_assert_uint_eq(a.n_sent, a_sent + 1);
    ck_assert(a.last_msg[1] & MSG_POLL);
    ck_assert_uint_eq(msg_u32(a.last_msg, 12), 200000);
    run_end(&b, &a);
    ck_assert_uint_eq(b.n_sent, b_sent + 1);
    ck_assert(b.last_msg[1] & MSG_FINAL);
    ck_assert(!(b.last_msg[1] & MSG_POLL));

    /* The sequence is over: no more Poll, the new interval applies. */
    advance(&a, &b, 2100);
    ck_assert(!(a.last_msg[1] & MSG_POLL));
    ck_assert_uint_eq(msg_u32(a.last_msg, 12), 200000);
    ck_assert(!(b.last_msg[1] & MSG_FINAL));

    /* min_rx on B the same way. */
    reconfigure(b.bfd, "enable=true min_rx=300");
    advance(&a, &b, 2100);
    ck_assert_uint_eq(msg_u32(b.last_msg, 16), 300000);
    ck_assert(!(b.last_msg[1] & MSG_POLL));
    ck_assert_str_eq(status(a.bfd, "state"), "up");
    ck_assert_str_eq(status(a.bfd, "flap_count"), "1");

    /* The multiplier travels in every packet. */
    reconfigure(a.bfd, "enable=true min_tx=200 mult=7");
    advance(&a, &b, 1100);
    ck_assert_uint_eq(a.last_msg[2], 7);
    reconfigure(a.bfd, "enable=true min_tx=200 mult=0");
    advance(&a, &b, 1100);
    ck_assert_uint_eq(a.last_msg[2], 3);
    teardown_pair(&a, &b);
}
END_TEST

/* A copy of the last packet FROM sent, with byte OFS of the BFD message
 * replaced by VALUE (OFS -1: unchanged), and TTL TTL. */
static struct dp_packet *
mutated_packet(struct end *from, int ofs, uint8_t value, uint8_t ttl)
{
    ck_assert(from->last_packet);
    struct dp_packet *packet = dp_packet_clone(from->last_packet);
    uint8_t *data = dp_packet_data(packet);
    if (ofs >= 0) {
        data[42 + ofs] = value;
    }
    data[14 + 8] = ttl;
    return packet;
}

START_TEST(test_malformed_packets)
{
    struct end a, b;
    setup_pair(&a, &b, "enable=true", "enable=true");
    /* A's first packet, kept from B. */
    a.deliver = b.deliver = false;
    advance(&a, &b, 1);
    ck_assert_str_eq(status(b.bfd, "state"), "down");

    static const struct {
        int ofs;
        uint8_t value;
        uint8_t ttl;
    } cases[] = {
        { 0, 2 << 5, 255 },             /* Version 2. */
        { 3, 20, 255 },                 /* Length shorter than 24. */
        { 3, 200, 255 },                /* Length beyond the payload. */
        { 2, 0, 255 },                  /* Multiplier 0. */
        { 1, 1 << 6 | 0x01, 255 },      /* Multipoint. */
        { 1, 1 << 6 | 0x04, 255 },      /* Authentication. */
        { 4, 0, 255 },                  /* (with 5-7 below) my_disc 0. */
        { 8, 0x12, 255 },               /* your_disc not ours. */
        { 1, 3 << 6, 255 },             /* Up with your_disc 0. */
        { -1, 0, 254 },                 /* TTL not 255. */
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        /* Each time a packet A really sends, so only the mutation is
         * wrong; A is Down and B has never heard it, so a valid one would
         * move B to Init. */
        struct dp_packet *packet = mutated_packet(&a, cases[i].ofs,
                                                  cases[i].value,
                                                  cases[i].ttl);
        ck_assert(packet);
        if (cases[i].ofs == 4) {
            uint8_t *data = dp_packet_data(packet);
            memset(data + 42 + 4, 0, 4);
        }
        deliver(&b, packet);
        dp_packet_delete(packet);
        ck_assert_msg(!strcmp(status(b.bfd, "state"), "down"),
                      "case %zu was accepted", i);
        time_warp(1);
    }

    /* A packet cut short of a whole message. */
    struct dp_packet *packet = mutated_packet(&a, -1, 0, 255);
    dp_packet_set_size(packet, dp_packet_size(packet) - 4);
    deliver(&b, packet);
    dp_packet_delete(packet);
    ck_assert_str_eq(status(b.bfd, "state"), "down");

    /* And the control case: unmodified, it is taken. */
    packet = mutated_packet(&a, -1, 0, 255);
    deliver(&b, packet);
    dp_packet_delete(packet);
    ck_assert_str_eq(status(b.bfd, "state"), "init");
    teardown_pair(&a, &b);
}
END_TEST

START_TEST(test_recognizes)
{
    time_stop();
    struct bfd *bfd = make_bfd("t", "enable=true", NULL);
    struct port_protocol *p = bfd_protocol(bfd);

    struct flow flow;
    memset(&flow, 0, sizeof flow);
    flow.dl_type = htons(ETH_TYPE_IP);
    flow.nw_proto = IPPROTO_UDP;
    flow.nw_dst = htonl(0xa9fe0101);
    flow.tp_dst = htons(3784);
    flow.tunnel.tun_id = htonll(1);

    struct flow_wildcards wc;
    memset(&wc, 0, sizeof wc);
    ck_assert(p->class->recognizes(p, &flow, &wc));
    ck_assert_uint_eq(wc.masks.tp_dst, htons(0xffff));
    ck_assert_uint_eq(wc.masks.nw_proto, 0xff);
    ck_assert(!wc.masks.tunnel.tun_id);

    /* check_tnl_key: only tun_id 0, and tun_id is in the megaflow. */
    reconfigure(bfd, "enable=true check_tnl_key=true");
    memset(&wc, 0, sizeof wc);
    ck_assert(!p->class->recognizes(p, &flow, &wc));
    ck_assert_uint_eq(wc.masks.tunnel.tun_id, htonll(UINT64_MAX));
    flow.tunnel.tun_id = htonll(0);
    ck_assert(p->class->recognizes(p, &flow, NULL));

    /* Another UDP port: only the highest differing bit is examined. */
    memset(&wc, 0, sizeof wc);
    flow.tp_dst = htons(80);
    ck_assert(!p->class->recognizes(p, &flow, &wc));
    ck_assert_uint_eq(ntohs(wc.masks.tp_dst), 0x0800);
    flow.tp_dst = htons(3784);

    /* Later fragments and other protocols are not BFD. */
    flow.nw_frag = FLOW_NW_FRAG_ANY | FLOW_NW_FRAG_LATER;
    ck_assert(!p->class->recognizes(p, &flow, NULL));
    flow.nw_frag = 0;
    flow.nw_proto = IPPROTO_TCP;
    ck_assert(!p->class->recognizes(p, &flow, NULL));
    flow.nw_proto = IPPROTO_UDP;

    /* With bfd_src_ip set, only packets to that address. */
    reconfigure(bfd, "enable=true bfd_src_ip=2.2.2.1");
    flow.nw_dst = htonl(0xc0a80201);
    ck_assert(!p->class->recognizes(p, &flow, NULL));
    flow.nw_dst = htonl(0x02020201);
    memset(&wc, 0, sizeof wc);
    ck_assert(p->class->recognizes(p, &flow, &wc));
    ck_assert_uint_eq(wc.masks.nw_dst, htonl(UINT32_MAX));

    /* bfd_remote_dst_mac restricts dl_dst. */
    reconfigure(bfd, "enable=true bfd_remote_dst_mac=00:11:22:33:44:55");
    ck_assert(!p->class->recognizes(p, &flow, NULL));
    flow.dl_dst = (struct eth_addr) { { 0, 0x11, 0x22, 0x33, 0x44, 0x55 } };
    ck_assert(p->class->recognizes(p, &flow, NULL));

    bfd_destroy(bfd);
}
END_TEST

START_TEST(test_packet_layout)
{
    time_stop();
    struct bfd *bfd = make_bfd("t", "enable=true bfd_dst_ip=10.0.0.2 "
                               "bfd_local_dst_mac=00:11:22:33:44:55", NULL);
    struct port_protocol *p = bfd_protocol(bfd);
    struct eth_addr mac = { { 0xaa, 0, 0, 0, 0, 1 } };
    struct dp_packet_batch out;
    dp_packet_batch_init(&out);
    long long int next = p->class->run(p, time_msec(), mac, &out);
    ck_assert_uint_eq(dp_packet_batch_size(&out), 1);
    /* Not Up: no faster than once a second, less up to 25% jitter. */
    ck_assert_int_ge(next - time_msec(), 750);
    ck_assert_int_le(next - time_msec(), 1000);

    struct dp_packet *packet = out.packets[0];
    struct flow flow;
    flow_extract(packet, &flow);
    ck_assert(eth_addr_equals(flow.dl_src, mac));
    ck_assert(eth_addr_equals(flow.dl_dst, (struct eth_addr) {
                { 0, 0x11, 0x22, 0x33, 0x44, 0x55 } }));
    ck_assert_uint_eq(ntohs(flow.dl_type), ETH_TYPE_IP);
    ck_assert_uint_eq(flow.nw_ttl, 255);
    ck_assert_uint_eq(flow.nw_proto, IPPROTO_UDP);
    ck_assert_uint_eq(ntohl(flow.nw_src), 0xa9fe0101);
    ck_assert_uint_eq(ntohl(flow.nw_dst), 0x0a000002);
    ck_assert_uint_eq(ntohs(flow.tp_dst), 3784);
    ck_assert_uint_ge(ntohs(flow.tp_src), 49152);

    const uint8_t *msg = (const uint8_t *) dp_packet_data(packet) + 42;
    ck_assert_uint_eq(msg[0], 1 << 5);          /* Version 1, no diag. */
    ck_assert_uint_eq(msg[1], 1 << 6);          /* Down, no flags. */
    ck_assert_uint_eq(msg[2], 3);
    ck_assert_uint_eq(msg[3], 24);
    ck_assert_uint_ne(msg_u32(msg, 4), 0);      /* my_disc. */
    ck_assert_uint_eq(msg_u32(msg, 8), 0);      /* your_disc. */
    ck_assert_uint_eq(msg_u32(msg, 12), 1000000);
    ck_assert_uint_eq(msg_u32(msg, 16), 1000000);
    dp_packet_delete(packet);
    bfd_destroy(bfd);
}
END_TEST

/* A dummy device whose receive counter the test moves. */
struct counted_netdev {
    struct netdev *netdev;
    struct netdev_rxq *rxq;
};

static void
counted_open(struct counted_netdev *c, const char *name)
{
    netdev_enable_dummy(NETDEV_DUMMY_ADD);
    ck_assert_int_eq(netdev_open(name, "dummy", &c->netdev), 0);
    netdev_update_flags(c->netdev, 0, NETDEV_UP);
    ck_assert_int_eq(netdev_rxq_open(c->netdev, &c->rxq), 0);
}

/* N packets arrive. */
static void
counted_receive(struct counted_netdev *c, int n)
{
    for (int i = 0; i < n; i++) {
        struct dp_packet *packet = dp_packet_new(64);
        dp_packet_put_zeros(packet, 60);
        ck_assert_int_eq(netdev_dummy_inject(c->netdev, packet), 0);
    }
    struct dp_packet_batch batch;
    int got = 0;
    while (got < n && !netdev_rxq_recv(c->rxq, &batch)) {
        /* The packets stay the queue's. */
        got += dp_packet_batch_size(&batch);
    }
    ck_assert_int_eq(got, n);
}

static void
counted_close(struct counted_netdev *c)
{
    netdev_rxq_close(c->rxq);
    netdev_close(c->netdev);
}

START_TEST(test_decay)
{
    struct counted_netdev dev;
    counted_open(&dev, "bfd-decay0");

    struct end a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    time_stop();
    a.bfd = make_bfd("a", "enable=true min_tx=300 min_rx=300", dev.netdev);
    b.bfd = make_bfd("b", "enable=true min_tx=500 min_rx=500", NULL);
    a.deliver = b.deliver = a.enabled = b.enabled = true;
    advance(&a, &b, 10000);
    ck_assert_str_eq(status(a.bfd, "state"), "up");
    ck_assert_uint_eq(msg_u32(a.last_msg, 16), 300000);

    /* Nothing but BFD arrives: after the decay interval A asks for
     * decay_min_rx. */
    reconfigure(a.bfd, "enable=true min_tx=300 min_rx=300 "
                "decay_min_rx=3000");
    advance(&a, &b, 2000);
    ck_assert_uint_eq(msg_u32(a.last_msg, 16), 300000);
    advance(&a, &b, 5000);
    ck_assert_uint_eq(msg_u32(a.last_msg, 16), 3000000);
    ck_assert_str_eq(status(a.bfd, "state"), "up");

    /* Traffic: back to min_rx. */
    for (int i = 0; i < 50; i++) {
        advance(&a, &b, 100);
        counted_receive(&dev, 1);
    }
    advance(&a, &b, 100);
    ck_assert_uint_eq(msg_u32(a.last_msg, 16), 300000);
    ck_assert_str_eq(status(a.bfd, "flap_count"), "1");

    /* decay_min_rx below min_rx is refused (no decay). */
    reconfigure(a.bfd, "enable=true min_tx=300 min_rx=300 "
                "decay_min_rx=100");
    advance(&a, &b, 10000);
    ck_assert_uint_eq(msg_u32(a.last_msg, 16), 300000);

    teardown_pair(&a, &b);
    counted_close(&dev);
}
END_TEST

START_TEST(test_forwarding_if_rx)
{
    struct counted_netdev dev;
    counted_open(&dev, "bfd-fir0");

    struct end a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    time_stop();
    a.bfd = make_bfd("a", "enable=true min_tx=300 min_rx=300 "
                     "forwarding_if_rx=true", dev.netdev);
    b.bfd = make_bfd("b", "enable=true min_tx=500 min_rx=500", NULL);
    a.deliver = b.deliver = a.enabled = b.enabled = true;
    advance(&a, &b, 10000);
    ck_assert_str_eq(status(a.bfd, "forwarding"), "true");
    ck_assert_str_eq(status(a.bfd, "flap_count"), "1");

    /* BFD stops at B; data keeps arriving: down, but forwarding. */
    b.enabled = false;
    for (int i = 0; i < 8; i++) {
        advance(&a, &b, 500);
        counted_receive(&dev, 1);
    }
    ck_assert_str_eq(status(a.bfd, "state"), "down");
    ck_assert_str_eq(status(a.bfd, "diagnostic"),
                     "Control Detection Time Expired");
    ck_assert_str_eq(status(a.bfd, "forwarding"), "true");
    ck_assert_str_eq(status(a.bfd, "flap_count"), "1");

    /* Without a control packet for 100 * min_rx, data is not enough. */
    for (int i = 0; i < 121; i++) {
        advance(&a, &b, 300);
        counted_receive(&dev, 1);
    }
    ck_assert_str_eq(status(a.bfd, "forwarding"), "false");
    ck_assert_str_eq(status(a.bfd, "flap_count"), "2");

    /* B back: up and forwarding. */
    b.enabled = true;
    bfd_destroy(b.bfd);
    b.bfd = make_bfd("b", "enable=true min_tx=500 min_rx=500", NULL);
    advance(&a, &b, 5000);
    ck_assert_str_eq(status(a.bfd, "state"), "up");
    ck_assert_str_eq(status(a.bfd, "forwarding"), "true");
    ck_assert_str_eq(status(a.bfd, "flap_count"), "3");

    /* Data alone stops counting once traffic stops. */
    b.enabled = false;
    advance(&a, &b, 5000);
    ck_assert_str_eq(status(a.bfd, "state"), "down");
    ck_assert_str_eq(status(a.bfd, "forwarding"), "false");

    teardown_pair(&a, &b);
    counted_close(&dev);
}
END_TEST

START_TEST(test_forwarding_if_rx_one_side)
{
    struct counted_netdev dev;
    counted_open(&dev, "bfd-fir1");
    time_stop();
    struct end a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.bfd = make_bfd("a", "enable=true min_tx=500 min_rx=500 "
                     "forwarding_if_rx=true", dev.netdev);
    b.bfd = make_bfd("b", "enable=true", NULL);
    a.enabled = true;
    a.deliver = true;
    for (int i = 0; i < 20; i++) {
        advance(&a, &b, 100);
        counted_receive(&dev, 1);
    }
    /* No control packet ever arrived: not forwarding. */
    ck_assert_str_eq(status(a.bfd, "state"), "down");
    ck_assert_str_eq(status(a.bfd, "forwarding"), "false");
    ck_assert_str_eq(status(a.bfd, "flap_count"), "0");
    teardown_pair(&a, &b);
    counted_close(&dev);
}
END_TEST

static Suite *
bfd_suite(void)
{
    Suite *s = suite_create("bfd");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_session_up_down_recover);
    tcase_add_test(tc, test_bfd_status_keys);
    tcase_add_test(tc, test_cpath_down);
    tcase_add_test(tc, test_poll_final);
    tcase_add_test(tc, test_malformed_packets);
    tcase_add_test(tc, test_recognizes);
    tcase_add_test(tc, test_packet_layout);
    tcase_add_test(tc, test_decay);
    tcase_add_test(tc, test_forwarding_if_rx);
    tcase_add_test(tc, test_forwarding_if_rx_one_side);
    suite_add_tcase(s, tc);
    return s;
}

int
main(int argc OVS_UNUSED, char *argv[])
{
    set_program_name(argv[0]);
    SRunner *sr = srunner_create(bfd_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
