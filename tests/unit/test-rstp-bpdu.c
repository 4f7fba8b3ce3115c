/* Unit tests for the RSTP engine's BPDUs and its behaviour seen from
 * outside: BPDU encode/decode round trips and exact bytes, malformed BPDUs
 * dropped and counted, the frame and its recognition in a flow, and small
 * networks of engines joined by simulated links (rapid convergence by
 * proposal and agreement, failover to an alternate port with a topology
 * change and MAC flushes, an STP partner, edge ports, the change queue,
 * the timer deadline, and management values refused), and 100 random
 * networks whose settled tree must be the right one (root, root path
 * costs, a loop-free spanning set of forwarding links) after links fail
 * and come back and priorities change, with no loop at any moment while
 * they first converge. */
#include <config.h>
#include "rstp.h"

#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "be-bytes.h"
#include "dp-packet.h"
#include "flow-extract.h"
#include "flow.h"
#include "rstp-bpdu.h"
#include "util.h"

/* BPDUs. */

static struct rstp_bpdu
sample_rst(void)
{
    return (struct rstp_bpdu) {
        .type = RSTP_BPDU_RST, .version = 2,
        .flags = (RSTP_FLAG_PROPOSAL | RSTP_FLAG_LEARNING
                  | (RSTP_BPDU_ROLE_DESIGNATED << RSTP_FLAG_ROLE_SHIFT)),
        .root_id = UINT64_C(0x8000000000000111), .root_path_cost = 200000,
        .bridge_id = UINT64_C(0x9000000000000222), .port_id = 0x8003,
        .message_age = 1, .max_age = 20, .hello_time = 2,
        .forward_delay = 15,
    };
}

START_TEST(test_rst_bytes_and_round_trip)
{
    struct rstp_bpdu in = sample_rst(), out;
    uint8_t buf[RSTP_BPDU_MAX_LEN];

    ck_assert_uint_eq(rstp_bpdu_encode(&in, buf), 36);
    ck_assert_uint_eq(get_be16(buf), 0);           /* Protocol. */
    ck_assert_uint_eq(buf[2], 2);                  /* Version. */
    ck_assert_uint_eq(buf[3], 2);                  /* Type. */
    ck_assert_uint_eq(buf[4], 0x1e);               /* Flags. */
    ck_assert(get_be64(buf + 5) == UINT64_C(0x8000000000000111));
    ck_assert_uint_eq(get_be32(buf + 13), 200000);
    ck_assert(get_be64(buf + 17) == UINT64_C(0x9000000000000222));
    ck_assert_uint_eq(get_be16(buf + 25), 0x8003);
    ck_assert_uint_eq(get_be16(buf + 27), 0x0100);  /* 1 s in 1/256 s. */
    ck_assert_uint_eq(get_be16(buf + 29), 0x1400);
    ck_assert_uint_eq(get_be16(buf + 31), 0x0200);
    ck_assert_uint_eq(get_be16(buf + 33), 0x0f00);
    ck_assert_uint_eq(buf[35], 0);                 /* Version 1 length. */

    ck_assert_ptr_null(rstp_bpdu_decode(buf, 36, &out));
    ck_assert_int_eq(out.type, in.type);
    ck_assert_uint_eq(out.flags, in.flags);
    ck_assert(out.root_id == in.root_id && out.bridge_id == in.bridge_id);
    ck_assert_uint_eq(out.root_path_cost, in.root_path_cost);
    ck_assert_uint_eq(out.port_id, in.port_id);
    ck_assert_uint_eq(out.message_age, 1);
    ck_assert_uint_eq(out.max_age, 20);
    ck_assert_uint_eq(out.hello_time, 2);
    ck_assert_uint_eq(out.forward_delay, 15);
    ck_assert_int_eq(rstp_bpdu_role(&out), RSTP_BPDU_ROLE_DESIGNATED);
}
END_TEST

START_TEST(test_config_and_tcn_round_trip)
{
    struct rstp_bpdu in = sample_rst(), out;
    uint8_t buf[RSTP_BPDU_MAX_LEN];

    in.type = RSTP_BPDU_CONFIG;
    in.version = 0;
    in.flags = RSTP_FLAG_TC | RSTP_FLAG_TC_ACK;
    ck_assert_uint_eq(rstp_bpdu_encode(&in, buf), 35);
    ck_assert_ptr_null(rstp_bpdu_decode(buf, 35, &out));
    ck_assert_int_eq(out.type, RSTP_BPDU_CONFIG);
    ck_assert_uint_eq(out.flags, RSTP_FLAG_TC | RSTP_FLAG_TC_ACK);
    ck_assert_uint_eq(out.port_id, 0x8003);

    /* A Configuration BPDU's other flag bits mean nothing. */
    buf[4] = 0xff;
    ck_assert_ptr_null(rstp_bpdu_decode(buf, 35, &out));
    ck_assert_uint_eq(out.flags, RSTP_FLAG_TC | RSTP_FLAG_TC_ACK);

    in = (struct rstp_bpdu) { .type = RSTP_BPDU_TCN };
    ck_assert_uint_eq(rstp_bpdu_encode(&in, buf), 4);
    ck_assert_uint_eq(buf[3], 0x80);
    ck_assert_ptr_null(rstp_bpdu_decode(buf, 4, &out));
    ck_assert_int_eq(out.type, RSTP_BPDU_TCN);

    /* Longer BPDUs of later versions are still RST BPDUs (9.3.4). */
    in = sample_rst();
    uint8_t longer[40] = { 0 };
    rstp_bpdu_encode(&in, longer);
    longer[2] = 3;
    ck_assert_ptr_null(rstp_bpdu_decode(longer, sizeof longer, &out));
    ck_assert_int_eq(out.type, RSTP_BPDU_RST);
}
END_TEST

/* Each way a BPDU can be malformed. */
struct malformed {
    const char *what;
    size_t len;
    void (*mangle)(uint8_t *);
};

static void mangle_none(uint8_t *b OVS_UNUSED) { }
static void mangle_protocol(uint8_t *b) { b[1] = 1; }
static void mangle_type(uint8_t *b) { b[3] = 0x55; }
static void mangle_version(uint8_t *b) { b[2] = 1; }
static void mangle_config_age(uint8_t *b)
{
    b[3] = RSTP_BPDU_CONFIG;
    b[2] = 0;
    put_be16(b + 27, 20 * 256);         /* Message age = max age. */
}
static void mangle_short_config(uint8_t *b) { b[3] = RSTP_BPDU_CONFIG; }

static const struct malformed malformed[] = {
    { "empty", 0, mangle_none },
    { "3 bytes", 3, mangle_none },
    { "short RST", 35, mangle_none },
    { "protocol 1", 36, mangle_protocol },
    { "unknown type", 36, mangle_type },
    { "RST of version 1", 36, mangle_version },
    { "stale Configuration", 36, mangle_config_age },
    { "short Configuration", 34, mangle_short_config },
};

static void
record_send(const void *bpdu OVS_UNUSED, size_t len OVS_UNUSED,
            int port_no OVS_UNUSED, void *aux)
{
    int *n = aux;
    if (n) {
        (*n)++;
    }
}

START_TEST(test_malformed_dropped_and_counted)
{
    char *error;
    struct rstp *rstp = rstp_create("br0", 0x0200000000aa, 32768,
                                    record_send, NULL, &error);
    ck_assert_ptr_nonnull(rstp);
    ck_assert_ptr_null(rstp_add_port(rstp, 1));
    ck_assert_ptr_null(rstp_port_set_enabled(rstp, 1, true));

    for (size_t i = 0; i < ARRAY_SIZE(malformed); i++) {
        struct rstp_bpdu bpdu = sample_rst(), out;
        uint8_t buf[64];

        rstp_bpdu_encode(&bpdu, buf);
        malformed[i].mangle(buf);
        /* An exact-size copy, so a read past its end is an ASan error. */
        uint8_t *copy = xmalloc(malformed[i].len + 1);
        memcpy(copy, buf, malformed[i].len);
        ck_assert_msg(rstp_bpdu_decode(copy, malformed[i].len, &out) != NULL,
                      "%s accepted", malformed[i].what);

        struct rstp_port_stats stats;
        rstp_receive_bpdu(rstp, 1, copy, malformed[i].len);
        rstp_port_get_stats(rstp, 1, &stats);
        ck_assert_uint_eq(stats.error_count, i + 1);
        ck_assert_uint_eq(stats.rx_count, 0);
        ck_assert_uint_eq(rstp_get_rx_errors(rstp), i + 1);
        free(copy);
    }
    /* Nothing of it changed the bridge's mind. */
    ck_assert(rstp_is_root_bridge(rstp));

    /* A BPDU for a port that does not exist counts on the bridge. */
    struct rstp_bpdu bpdu = sample_rst();
    uint8_t buf[RSTP_BPDU_MAX_LEN];
    size_t len = rstp_bpdu_encode(&bpdu, buf);
    rstp_receive_bpdu(rstp, 7, buf, len);
    ck_assert_uint_eq(rstp_get_rx_errors(rstp), ARRAY_SIZE(malformed) + 1);

    /* A valid one counts as received. */
    struct rstp_port_stats stats;
    rstp_receive_bpdu(rstp, 1, buf, len);
    rstp_port_get_stats(rstp, 1, &stats);
    ck_assert_uint_eq(stats.rx_count, 1);
    ck_assert(!rstp_is_root_bridge(rstp));

    /* An RST BPDU of "unknown" role is valid but says nothing about
     * priorities: a better root in it changes nothing. */
    rstp_destroy(rstp);
    rstp = rstp_create("br0", 0x0200000000aa, 32768, record_send, NULL,
                       &error);
    ck_assert_ptr_null(rstp_add_port(rstp, 1));
    ck_assert_ptr_null(rstp_port_set_enabled(rstp, 1, true));
    bpdu.flags &= ~RSTP_FLAG_ROLE_MASK;
    len = rstp_bpdu_encode(&bpdu, buf);
    rstp_receive_bpdu(rstp, 1, buf, len);
    rstp_port_get_stats(rstp, 1, &stats);
    ck_assert_uint_eq(stats.rx_count, 1);
    ck_assert_uint_eq(stats.error_count, 0);
    ck_assert(rstp_is_root_bridge(rstp));
    rstp_destroy(rstp);
}
END_TEST

START_TEST(test_frame_and_flow)
{
    struct rstp_bpdu bpdu = sample_rst();
    uint8_t buf[RSTP_BPDU_MAX_LEN];
    size_t len = rstp_bpdu_encode(&bpdu, buf);
    struct eth_addr mac = {{ 0x02, 0, 0, 0, 0, 0x11 }};
    struct dp_packet packet;

    dp_packet_init(&packet, 64);
    rstp_compose_frame(&packet, mac, buf, len);
    ck_assert_uint_eq(dp_packet_size(&packet), 60);
    const uint8_t *frame = dp_packet_data(&packet);
    ck_assert_uint_eq(frame[0], 0x01);
    ck_assert_uint_eq(frame[2], 0xc2);
    ck_assert(!memcmp(frame + 6, mac.ea, 6));
    ck_assert_uint_eq(get_be16(frame + 12), 39);
    ck_assert_uint_eq(frame[14], 0x42);
    ck_assert_uint_eq(frame[16], 0x03);

    size_t bpdu_len;
    const uint8_t *found = rstp_frame_bpdu(frame, 60, &bpdu_len);
    ck_assert_ptr_eq(found, frame + 17);
    ck_assert_uint_eq(bpdu_len, 36);
    ck_assert(!memcmp(found, buf, len));
    /* A length field beyond the frame is refused. */
    ck_assert_ptr_null(rstp_frame_bpdu(frame, 50, &bpdu_len));

    struct flow flow;
    struct flow_wildcards wc;
    flow_extract(&packet, &flow);
    flow_wildcards_init_catchall(&wc);
    ck_assert(rstp_flow_is_bpdu(&flow, &wc));
    ck_assert(eth_addr_equals(wc.masks.dl_dst,
                              (struct eth_addr) {{ 0xff, 0xff, 0xff,
                                                   0xff, 0xff, 0xff }}));
    flow.dl_dst.ea[5] = 1;
    ck_assert(!rstp_flow_is_bpdu(&flow, NULL));
    dp_packet_uninit(&packet);
}
END_TEST

/* Simulated networks: bridges whose ports are joined in pairs. */

#define MAX_BRIDGES 8
#define MAX_PORTS 6

struct net;

struct net_bridge {
    struct net *net;
    int index;
    struct rstp *rstp;
    /* Where each port's link leads: bridge index and port, or -1. */
    int peer_bridge[MAX_PORTS + 1], peer_port[MAX_PORTS + 1];
    bool link_up[MAX_PORTS + 1];
    int n_sent[MAX_PORTS + 1];
    enum rstp_bpdu_type last_type[MAX_PORTS + 1];
    int n_type[MAX_PORTS + 1][256];     /* BPDUs sent, by type. */
};

struct in_flight {
    int bridge, port;
    size_t len;
    uint8_t data[RSTP_BPDU_MAX_LEN];
};

struct net {
    struct net_bridge bridges[MAX_BRIDGES];
    int n_bridges;
    struct in_flight queue[4096];
    size_t n_queued;
    long long int now;
};

static void
net_send(const void *bpdu, size_t len, int port_no, void *b_)
{
    struct net_bridge *b = b_;
    struct net *net = b->net;
    struct rstp_bpdu decoded;

    ck_assert_ptr_null(rstp_bpdu_decode(bpdu, len, &decoded));
    b->n_sent[port_no]++;
    b->last_type[port_no] = decoded.type;
    b->n_type[port_no][decoded.type]++;
    if (!b->link_up[port_no] || b->peer_bridge[port_no] < 0) {
        return;
    }
    ck_assert_uint_lt(net->n_queued, ARRAY_SIZE(net->queue));
    struct in_flight *f = &net->queue[net->n_queued++];
    f->bridge = b->peer_bridge[port_no];
    f->port = b->peer_port[port_no];
    f->len = len;
    memcpy(f->data, bpdu, len);
}

static struct net_bridge *
net_add_bridge(struct net *net, uint64_t address, int priority, int n_ports)
{
    struct net_bridge *b = &net->bridges[net->n_bridges];
    char name[16], *error;

    b->net = net;
    b->index = net->n_bridges++;
    snprintf(name, sizeof name, "br%d", b->index);
    b->rstp = rstp_create(name, address, priority, net_send, b, &error);
    ck_assert_ptr_nonnull(b->rstp);
    for (int p = 1; p <= n_ports; p++) {
        b->peer_bridge[p] = -1;
        ck_assert_ptr_null(rstp_add_port(b->rstp, p));
        ck_assert_ptr_null(rstp_port_set_path_cost(b->rstp, p, 20000));
    }
    rstp_run(b->rstp, net->now);
    return b;
}

static void
net_set_link(struct net *net, int b1, int p1, int b2, int p2, bool up)
{
    struct net_bridge *x = &net->bridges[b1], *y = &net->bridges[b2];

    x->peer_bridge[p1] = b2;
    x->peer_port[p1] = p2;
    y->peer_bridge[p2] = b1;
    y->peer_port[p2] = p1;
    x->link_up[p1] = y->link_up[p2] = up;
    ck_assert_ptr_null(rstp_port_set_enabled(x->rstp, p1, up));
    ck_assert_ptr_null(rstp_port_set_enabled(y->rstp, p2, up));
}

/* Delivers BPDUs until none is in flight, a round at a time (each BPDU in
 * flight arrives, and what that makes the bridges send is the next round),
 * calling AFTER_ROUND (if nonnull) with AUX after each. */
static void
net_settle__(struct net *net, void (*after_round)(struct net *, void *),
             void *aux)
{
    for (int rounds = 0; net->n_queued; rounds++) {
        ck_assert_int_lt(rounds, 1000);
        size_t n = net->n_queued;
        struct in_flight *batch = xmemdup(net->queue, n * sizeof *batch);
        net->n_queued = 0;
        for (size_t i = 0; i < n; i++) {
            struct net_bridge *b = &net->bridges[batch[i].bridge];
            if (b->link_up[batch[i].port]) {
                rstp_receive_bpdu(b->rstp, batch[i].port, batch[i].data,
                                  batch[i].len);
            }
        }
        free(batch);
        if (after_round) {
            after_round(net, aux);
        }
    }
}

static void
net_settle(struct net *net)
{
    net_settle__(net, NULL, NULL);
}

static void
net_advance(struct net *net, int seconds)
{
    net_settle(net);
    for (int s = 0; s < seconds; s++) {
        net->now += 1000;
        for (int i = 0; i < net->n_bridges; i++) {
            rstp_run(net->bridges[i].rstp, net->now);
        }
        net_settle(net);
    }
}

static enum rstp_state
port_state(struct net *net, int b, int p)
{
    return rstp_port_get_state(net->bridges[b].rstp, p);
}

static enum rstp_port_role
port_role(struct net *net, int b, int p)
{
    return rstp_port_get_role(net->bridges[b].rstp, p);
}

static void
net_destroy(struct net *net)
{
    for (int i = 0; i < net->n_bridges; i++) {
        rstp_destroy(net->bridges[i].rstp);
    }
    free(net);
}

START_TEST(test_rapid_convergence)
{
    struct net *net = xzalloc(sizeof *net);

    net_add_bridge(net, 0x0200000000aa, 4096, 1);
    net_add_bridge(net, 0x0200000000bb, 32768, 1);
    net_set_link(net, 0, 1, 1, 1, true);
    /* Proposal and agreement: forwarding at once, long before twice the
     * forward delay (30 s) an STP bridge would wait. */
    net_advance(net, 1);
    ck_assert(rstp_is_root_bridge(net->bridges[0].rstp));
    ck_assert(!rstp_is_root_bridge(net->bridges[1].rstp));
    ck_assert_int_eq(port_role(net, 0, 1), RSTP_ROLE_DESIGNATED);
    ck_assert_int_eq(port_role(net, 1, 1), RSTP_ROLE_ROOT);
    ck_assert_int_eq(port_state(net, 0, 1), RSTP_FORWARDING);
    ck_assert_int_eq(port_state(net, 1, 1), RSTP_FORWARDING);
    ck_assert_uint_eq(rstp_get_root_path_cost(net->bridges[1].rstp), 20000);
    ck_assert_int_eq(rstp_get_root_port(net->bridges[1].rstp), 1);
    ck_assert_uint_eq(rstp_get_root_port_id(net->bridges[1].rstp), 0x8001);
    ck_assert(rstp_get_designated_root(net->bridges[1].rstp)
              == rstp_get_bridge_id(net->bridges[0].rstp));
    ck_assert(rstp_get_bridge_id(net->bridges[0].rstp)
              == UINT64_C(0x10000200000000aa));

    /* Only designated ports say hello, every 2 s; what they send is RST. */
    int before = net->bridges[0].n_sent[1];
    net_advance(net, 10);
    ck_assert_int_ge(net->bridges[0].n_sent[1] - before, 5);
    ck_assert_int_le(net->bridges[0].n_sent[1] - before, 6);
    ck_assert_int_eq(net->bridges[0].last_type[1], RSTP_BPDU_RST);
    net_destroy(net);
}
END_TEST

START_TEST(test_failover_and_topology_change)
{
    struct net *net = xzalloc(sizeof *net);

    /* A triangle: 0 is the root, 2 hears it directly on port 1 and
     * through 1 on port 2, which is its alternate. */
    net_add_bridge(net, 0x0200000000aa, 4096, 2);
    net_add_bridge(net, 0x0200000000bb, 8192, 2);
    net_add_bridge(net, 0x0200000000cc, 32768, 2);
    net_set_link(net, 0, 1, 1, 1, true);
    net_set_link(net, 0, 2, 2, 1, true);
    net_set_link(net, 1, 2, 2, 2, true);
    net_advance(net, 40);
    ck_assert_int_eq(port_role(net, 2, 1), RSTP_ROLE_ROOT);
    ck_assert_int_eq(port_role(net, 2, 2), RSTP_ROLE_ALTERNATE);
    ck_assert_int_eq(port_state(net, 2, 2), RSTP_DISCARDING);
    ck_assert(!rstp_port_may_forward(net->bridges[2].rstp, 2));
    ck_assert(!rstp_port_may_learn(net->bridges[2].rstp, 2));
    ck_assert_int_eq(port_state(net, 1, 2), RSTP_FORWARDING);
    ck_assert(rstp_port_may_forward(net->bridges[1].rstp, 2));
    ck_assert(rstp_port_may_learn(net->bridges[1].rstp, 2));
    ck_assert(!rstp_port_may_forward(net->bridges[1].rstp, 9));
    for (int i = 0; i < 3; i++) {
        int *ports;
        rstp_take_changed_ports(net->bridges[i].rstp, &ports);
        free(ports);
        rstp_check_and_reset_fdb_flush(net->bridges[i].rstp);
    }

    /* Nothing changes: nothing is queued. */
    net_advance(net, 5);
    int *ports;
    ck_assert_uint_eq(rstp_take_changed_ports(net->bridges[2].rstp, &ports),
                      0);
    free(ports);

    /* The root port's link fails: the alternate takes over at once. */
    net_set_link(net, 0, 2, 2, 1, false);
    net_settle(net);
    ck_assert_int_eq(port_role(net, 2, 2), RSTP_ROLE_ROOT);
    ck_assert_int_eq(port_state(net, 2, 2), RSTP_FORWARDING);
    ck_assert_int_eq(port_state(net, 2, 1), RSTP_DISABLED);
    ck_assert_uint_eq(rstp_get_root_path_cost(net->bridges[2].rstp), 40000);

    size_t n = rstp_take_changed_ports(net->bridges[2].rstp, &ports);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(ports[0] + ports[1], 3);
    free(ports);

    /* The new forwarding port announces a topology change; bridge 1
     * flushes what it learned on its other ports. */
    net_advance(net, 1);
    ck_assert(rstp_check_and_reset_fdb_flush(net->bridges[1].rstp));
    ck_assert(!rstp_check_and_reset_fdb_flush(net->bridges[1].rstp));
    ck_assert(rstp_port_check_and_reset_fdb_flush(net->bridges[1].rstp, 1));
    ck_assert(!rstp_port_check_and_reset_fdb_flush(net->bridges[1].rstp, 1));

    /* The change settles: flushes stop. */
    net_advance(net, 10);
    rstp_check_and_reset_fdb_flush(net->bridges[1].rstp);
    net_advance(net, 10);
    ck_assert(!rstp_check_and_reset_fdb_flush(net->bridges[1].rstp));
    net_destroy(net);
}
END_TEST

START_TEST(test_status_and_topology_change_request)
{
    struct net *net = xzalloc(sizeof *net);

    /* 0 (the root) - 1 - 2 in a line. */
    net_add_bridge(net, 0x0200000000aa, 4096, 2);
    net_add_bridge(net, 0x0200000000bb, 32768, 2);
    net_add_bridge(net, 0x0200000000cc, 32768, 2);
    net_set_link(net, 0, 1, 1, 1, true);
    net_set_link(net, 1, 2, 2, 1, true);
    net_advance(net, 10);

    struct rstp_status st;
    rstp_get_status(net->bridges[2].rstp, &st);
    ck_assert(st.bridge_id == UINT64_C(0x80000200000000cc));
    ck_assert(st.root_id == UINT64_C(0x10000200000000aa));
    /* The root port hears the root through bridge 1's port 2. */
    ck_assert(st.designated_id == UINT64_C(0x80000200000000bb));
    ck_assert_uint_eq(st.designated_port_id, 0x8002);
    ck_assert_uint_eq(st.bridge_port_id, 0x8001);
    ck_assert_uint_eq(st.root_path_cost, 40000);
    ck_assert_int_eq(st.root_port, 1);
    ck_assert_int_eq(st.root_max_age, RSTP_DEFAULT_MAX_AGE);
    ck_assert_int_eq(st.hello_time, RSTP_HELLO_TIME);

    struct rstp_port_status ps;
    ck_assert(rstp_port_get_status(net->bridges[2].rstp, 1, &ps));
    ck_assert_uint_eq(ps.port_id, 0x8001);
    ck_assert_int_eq(ps.role, RSTP_ROLE_ROOT);
    ck_assert_int_eq(ps.state, RSTP_FORWARDING);
    ck_assert_uint_eq(ps.path_cost, 20000);
    ck_assert_int_eq(ps.priority, RSTP_DEFAULT_PORT_PRIORITY);
    ck_assert(ps.designated_bridge_id == UINT64_C(0x80000200000000bb));
    ck_assert_uint_eq(ps.designated_port_id, 0x8002);
    ck_assert_uint_eq(ps.designated_path_cost, 20000);
    ck_assert_uint_gt(ps.stats.rx_count, 0);
    ck_assert(!rstp_port_get_status(net->bridges[2].rstp, 7, &ps));
    ck_assert_uint_eq(ps.port_id, 0);

    /* Settled: nobody flushes.  Then bridge 1 is told of a topology
     * change: both its ports are forwarding non-edge ports, so each
     * propagates it to the other, which flushes and tells its LAN at
     * once. */
    for (int i = 0; i < 3; i++) {
        int *ports;
        rstp_take_changed_ports(net->bridges[i].rstp, &ports);
        free(ports);
        rstp_check_and_reset_fdb_flush(net->bridges[i].rstp);
    }
    int sent1 = net->bridges[1].n_sent[1], sent2 = net->bridges[1].n_sent[2];
    rstp_detect_topology_change(net->bridges[1].rstp);
    ck_assert(rstp_check_and_reset_fdb_flush(net->bridges[1].rstp));
    ck_assert(rstp_port_check_and_reset_fdb_flush(net->bridges[1].rstp, 1));
    ck_assert(rstp_port_check_and_reset_fdb_flush(net->bridges[1].rstp, 2));
    ck_assert_int_gt(net->bridges[1].n_sent[1], sent1);
    ck_assert_int_gt(net->bridges[1].n_sent[2], sent2);
    net_settle(net);

    /* A bridge with no forwarding port has nothing to announce. */
    struct net_bridge *lone = net_add_bridge(net, 0x0200000000dd, 32768, 1);
    rstp_detect_topology_change(lone->rstp);
    ck_assert(!rstp_check_and_reset_fdb_flush(lone->rstp));
    ck_assert_int_eq(lone->n_sent[1], 0);
    net_destroy(net);
}
END_TEST

START_TEST(test_path_cost_for_speed)
{
    ck_assert_uint_eq(rstp_path_cost_for_speed(0), RSTP_DEFAULT_PATH_COST);
    ck_assert_uint_eq(rstp_path_cost_for_speed(1), 20000000);
    ck_assert_uint_eq(rstp_path_cost_for_speed(10), 2000000);
    ck_assert_uint_eq(rstp_path_cost_for_speed(100), 200000);
    ck_assert_uint_eq(rstp_path_cost_for_speed(1000), 20000);
    ck_assert_uint_eq(rstp_path_cost_for_speed(2500), 20000);
    ck_assert_uint_eq(rstp_path_cost_for_speed(10000), 2000);
    ck_assert_uint_eq(rstp_path_cost_for_speed(25000), 2000);
    ck_assert_uint_eq(rstp_path_cost_for_speed(100000), 200);
    ck_assert_uint_eq(rstp_path_cost_for_speed(1000000), 20);
    ck_assert_uint_eq(rstp_path_cost_for_speed(10000000), 2);
}
END_TEST

START_TEST(test_stp_partner)
{
    struct net *net = xzalloc(sizeof *net);

    /* Bridge 1 talks only STP and is the root. */
    net_add_bridge(net, 0x0200000000aa, 32768, 2);
    net_add_bridge(net, 0x0200000000bb, 4096, 1);
    ck_assert_ptr_null(rstp_set_force_protocol_version(net->bridges[1].rstp,
                                                       0));
    net_set_link(net, 0, 1, 1, 1, true);
    net_advance(net, 10);
    ck_assert(rstp_is_root_bridge(net->bridges[1].rstp));
    ck_assert_int_eq(port_role(net, 0, 1), RSTP_ROLE_ROOT);
    /* The STP bridge sends only Configuration BPDUs, and its designated
     * port waits for its timers: no proposal and agreement. */
    ck_assert_int_eq(net->bridges[1].n_type[1][RSTP_BPDU_RST], 0);
    ck_assert_int_gt(net->bridges[1].n_type[1][RSTP_BPDU_CONFIG], 3);
    ck_assert_int_ne(port_state(net, 1, 1), RSTP_FORWARDING);

    /* Our port hears Configuration BPDUs, so it speaks STP too. */
    net_advance(net, 30);
    ck_assert_int_eq(port_state(net, 1, 1), RSTP_FORWARDING);
    ck_assert_int_eq(port_state(net, 0, 1), RSTP_FORWARDING);
    int rst_sent = net->bridges[0].n_type[1][RSTP_BPDU_RST];

    /* A new port of ours (not an edge) starts forwarding: the root port
     * announces the topology change with TCN BPDUs until the root
     * acknowledges one. */
    struct rstp *r0 = net->bridges[0].rstp;
    ck_assert_ptr_null(rstp_port_set_auto_edge(r0, 2, false));
    ck_assert_ptr_null(rstp_port_set_enabled(r0, 2, true));
    net_advance(net, 30);
    ck_assert_int_eq(port_state(net, 0, 2), RSTP_FORWARDING);
    int tcns = net->bridges[0].n_type[1][RSTP_BPDU_TCN];
    ck_assert_int_gt(tcns, 0);
    ck_assert_int_eq(net->bridges[0].n_type[1][RSTP_BPDU_RST], rst_sent);
    net_advance(net, 10);
    ck_assert_int_eq(net->bridges[0].n_type[1][RSTP_BPDU_TCN], tcns);

    /* The partner turns RSTP: its designated port says hello in RST. */
    ck_assert_ptr_null(rstp_set_force_protocol_version(net->bridges[1].rstp,
                                                       2));
    net_advance(net, 5);
    ck_assert_int_eq(net->bridges[1].last_type[1], RSTP_BPDU_RST);
    ck_assert_int_eq(port_state(net, 0, 1), RSTP_FORWARDING);
    net_destroy(net);
}
END_TEST

START_TEST(test_edge_ports)
{
    struct net *net = xzalloc(sizeof *net);
    struct net_bridge *b = net_add_bridge(net, 0x0200000000aa, 32768, 2);

    /* Port 1 is an edge port by configuration: it forwards at once. */
    ck_assert_ptr_null(rstp_port_set_admin_edge(b->rstp, 1, true));
    ck_assert_ptr_null(rstp_port_set_enabled(b->rstp, 1, true));
    ck_assert_int_eq(port_state(net, 0, 1), RSTP_FORWARDING);
    ck_assert(rstp_port_is_oper_edge(b->rstp, 1));

    /* Port 2 hears no bridge: after the migrate time it is taken as an
     * edge port and forwards, long before the forward delay. */
    ck_assert_ptr_null(rstp_port_set_enabled(b->rstp, 2, true));
    ck_assert_int_eq(port_state(net, 0, 2), RSTP_DISCARDING);
    net_advance(net, 4);
    ck_assert(rstp_port_is_oper_edge(b->rstp, 2));
    ck_assert_int_eq(port_state(net, 0, 2), RSTP_FORWARDING);

    /* Without auto edge it waits for the forward delay. */
    ck_assert_ptr_null(rstp_port_set_enabled(b->rstp, 2, false));
    ck_assert_ptr_null(rstp_port_set_auto_edge(b->rstp, 2, false));
    ck_assert_ptr_null(rstp_port_set_enabled(b->rstp, 2, true));
    net_advance(net, 4);
    ck_assert(!rstp_port_is_oper_edge(b->rstp, 2));
    ck_assert_int_ne(port_state(net, 0, 2), RSTP_FORWARDING);
    net_advance(net, 30);
    ck_assert_int_eq(port_state(net, 0, 2), RSTP_FORWARDING);
    net_destroy(net);
}
END_TEST

START_TEST(test_deadline)
{
    char *error;
    struct rstp *rstp = rstp_create("br0", 1, 32768, record_send, NULL,
                                    &error);

    /* No enabled port: no timer. */
    ck_assert(rstp_run(rstp, 5000) == LLONG_MAX);
    ck_assert_ptr_null(rstp_add_port(rstp, 3));
    ck_assert(rstp_run(rstp, 5500) == LLONG_MAX);
    ck_assert_ptr_null(rstp_port_set_enabled(rstp, 3, true));
    /* Once a second from the first run with a port enabled. */
    ck_assert(rstp_run(rstp, 5600) == 6600);
    ck_assert(rstp_run(rstp, 6600) == 7600);
    ck_assert(rstp_run(rstp, 9700) == 10600);
    ck_assert_ptr_null(rstp_port_set_enabled(rstp, 3, false));
    ck_assert(rstp_run(rstp, 10600) == LLONG_MAX);

    /* Enabled again long after, the port's timers start from then: its
     * edge delay does not expire at once. */
    ck_assert_ptr_null(rstp_port_set_enabled(rstp, 3, true));
    ck_assert(rstp_run(rstp, 50000) == 51000);
    ck_assert(!rstp_port_is_oper_edge(rstp, 3));
    ck_assert_int_eq(rstp_port_get_state(rstp, 3), RSTP_DISCARDING);
    ck_assert(rstp_run(rstp, 55000) == 56000);
    ck_assert(rstp_port_is_oper_edge(rstp, 3));
    ck_assert_int_eq(rstp_port_get_state(rstp, 3), RSTP_FORWARDING);
    rstp_destroy(rstp);
}
END_TEST

START_TEST(test_bad_values_refused)
{
    int n_sent = 0;
    char *error;
    struct rstp *rstp = rstp_create("br0", 1, 61441, record_send, &n_sent,
                                    &error);

    ck_assert_ptr_null(rstp);
    ck_assert_ptr_nonnull(strstr(error, "61441"));
    free(error);
    rstp = rstp_create("br0", 1, 32768, record_send, &n_sent, &error);
    ck_assert_ptr_null(error);

#define REFUSED(CALL)                                   \
    do {                                                \
        char *e = CALL;                                 \
        ck_assert_msg(e != NULL, "%s accepted", #CALL); \
        free(e);                                        \
    } while (0)
    REFUSED(rstp_set_bridge_priority(rstp, -1));
    REFUSED(rstp_set_bridge_priority(rstp, 65536));
    REFUSED(rstp_set_ageing_time(rstp, 9));
    REFUSED(rstp_set_force_protocol_version(rstp, 1));
    REFUSED(rstp_set_max_age(rstp, 5));
    REFUSED(rstp_set_max_age(rstp, 41));
    REFUSED(rstp_set_max_age(rstp, 30));     /* > 2 * (15 - 1) = 28. */
    REFUSED(rstp_set_forward_delay(rstp, 3));
    REFUSED(rstp_set_forward_delay(rstp, 10)); /* 2 * 9 < 20. */
    REFUSED(rstp_set_transmit_hold_count(rstp, 0));
    REFUSED(rstp_set_transmit_hold_count(rstp, 11));
    REFUSED(rstp_add_port(rstp, 0));
    REFUSED(rstp_add_port(rstp, 4096));
    REFUSED(rstp_port_set_priority(rstp, 1, 128));   /* No port 1. */
    ck_assert_ptr_null(rstp_add_port(rstp, 1));
    REFUSED(rstp_add_port(rstp, 1));
    REFUSED(rstp_port_set_priority(rstp, 1, 241));
    REFUSED(rstp_port_set_path_cost(rstp, 1, 0));
    REFUSED(rstp_port_set_path_cost(rstp, 1, 200000001));

    /* In range but between steps: rounded down, as 802.1D asks. */
    ck_assert_ptr_null(rstp_set_bridge_priority(rstp, 31000));
    ck_assert(rstp_get_bridge_id(rstp) >> 48 == 28672);
    ck_assert_ptr_null(rstp_port_set_priority(rstp, 1, 113));
    ck_assert_uint_eq(rstp_port_get_id(rstp, 1), 0x7001);
    ck_assert_ptr_null(rstp_set_max_age(rstp, 28));
    ck_assert_ptr_null(rstp_set_ageing_time(rstp, 10));
    ck_assert_int_eq(rstp_get_ageing_time(rstp), 10);
    rstp_remove_port(rstp, 1);
    ck_assert(!rstp_has_port(rstp, 1));
    rstp_destroy(rstp);
}
END_TEST

START_TEST(test_names)
{
    ck_assert_str_eq(rstp_state_name(RSTP_DISCARDING), "Discarding");
    ck_assert_str_eq(rstp_state_name(RSTP_FORWARDING), "Forwarding");
    ck_assert_str_eq(rstp_state_name(RSTP_LEARNING), "Learning");
    ck_assert_str_eq(rstp_state_name(RSTP_DISABLED), "Disabled");
    ck_assert_str_eq(rstp_port_role_name(RSTP_ROLE_ROOT), "Root");
    ck_assert_str_eq(rstp_port_role_name(RSTP_ROLE_DESIGNATED),
                     "Designated");
    ck_assert_str_eq(rstp_port_role_name(RSTP_ROLE_ALTERNATE), "Alternate");
    ck_assert_str_eq(rstp_port_role_name(RSTP_ROLE_BACKUP), "Backup");
    ck_assert_str_eq(rstp_port_role_name(RSTP_ROLE_DISABLED), "Disabled");
    ck_assert(rstp_forward_in_state(RSTP_FORWARDING));
    ck_assert(!rstp_forward_in_state(RSTP_LEARNING));
    ck_assert(rstp_learn_in_state(RSTP_LEARNING));
    ck_assert(!rstp_learn_in_state(RSTP_DISCARDING));
}
END_TEST

/* Random networks: whatever the links, costs and priorities, once settled
 * every bridge agrees on the root (the lowest bridge identifier of its
 * part of the network), each one's root path cost is its shortest path's,
 * and the forwarding links form a tree spanning each part: no loop, and
 * none left out. */

struct link {
    int b1, p1, b2, p2;
    bool up;
};

static uint32_t
next_random(uint32_t *state)
{
    *state = *state * 1103515245 + 12345;
    return *state >> 16;
}

static int
find_set(int *parent, int x)
{
    while (parent[x] != x) {
        x = parent[x] = parent[parent[x]];
    }
    return x;
}

static void
check_spanning_tree(struct net *net, const struct link *links, int n_links,
                    uint32_t cost[MAX_BRIDGES][MAX_PORTS + 1], int seed)
{
    int n = net->n_bridges;
    int part[MAX_BRIDGES], tree[MAX_BRIDGES];

    /* The parts of the network, by the links that are up. */
    for (int i = 0; i < n; i++) {
        part[i] = tree[i] = i;
    }
    for (int i = 0; i < n_links; i++) {
        if (links[i].up) {
            part[find_set(part, links[i].b1)] = find_set(part, links[i].b2);
        }
    }

    for (int b = 0; b < n; b++) {
        /* The root: the lowest bridge identifier in B's part. */
        uint64_t root = UINT64_MAX;
        for (int i = 0; i < n; i++) {
            if (find_set(part, i) == find_set(part, b)) {
                root = MIN(root, rstp_get_bridge_id(net->bridges[i].rstp));
            }
        }
        ck_assert_msg(rstp_get_designated_root(net->bridges[b].rstp) == root,
                      "seed %d: bridge %d has the wrong root", seed, b);

        /* Shortest root path cost, Bellman-Ford over the links that are
         * up (the cost of a hop is its receiving port's). */
        uint64_t dist[MAX_BRIDGES];
        for (int i = 0; i < n; i++) {
            dist[i] = (rstp_get_bridge_id(net->bridges[i].rstp) == root
                       ? 0 : UINT64_MAX);
        }
        for (int round = 0; round < n; round++) {
            for (int i = 0; i < n_links; i++) {
                const struct link *l = &links[i];
                if (!l->up) {
                    continue;
                }
                if (dist[l->b1] != UINT64_MAX) {
                    dist[l->b2] = MIN(dist[l->b2],
                                      dist[l->b1] + cost[l->b2][l->p2]);
                }
                if (dist[l->b2] != UINT64_MAX) {
                    dist[l->b1] = MIN(dist[l->b1],
                                      dist[l->b2] + cost[l->b1][l->p1]);
                }
            }
        }
        ck_assert_msg(rstp_get_root_path_cost(net->bridges[b].rstp)
                      == dist[b], "seed %d: bridge %d: root path cost %u, "
                      "shortest %llu", seed, b,
                      rstp_get_root_path_cost(net->bridges[b].rstp),
                      (unsigned long long) dist[b]);
    }

    /* The links that carry traffic: no loop, and they join each part
     * whole. */
    int n_forwarding = 0, n_parts = 0;
    for (int i = 0; i < n_links; i++) {
        const struct link *l = &links[i];
        bool fwd1 = port_state(net, l->b1, l->p1) == RSTP_FORWARDING;
        bool fwd2 = port_state(net, l->b2, l->p2) == RSTP_FORWARDING;
        if (!l->up) {
            continue;
        }
        /* Traffic crosses a link only if both ends forward (a designated
         * port forwards even towards an alternate or backup port). */
        if (fwd1 && fwd2) {
            int x = find_set(tree, l->b1), y = find_set(tree, l->b2);
            ck_assert_msg(x != y, "seed %d: forwarding loop", seed);
            tree[x] = y;
            n_forwarding++;
        }
    }
    for (int i = 0; i < n; i++) {
        n_parts += find_set(part, i) == i;
    }
    ck_assert_msg(n_forwarding == n - n_parts,
                  "seed %d: %d forwarding links for %d bridges in %d parts",
                  seed, n_forwarding, n, n_parts);
}

/* No loop among the links that carry traffic, at any settled moment, not
 * only at the end: while information only gets better (bridges coming up),
 * RSTP's sync keeps the tree loop-free as it grows.  (Not so when the root
 * gets worse or goes away: stale information about it circulates until
 * its message age runs out, the "count to infinity" the standard accepts,
 * and with the transmit hold count delaying the correction a transient
 * loop can form.  After such events only the settled tree is checked.) */
static void
check_no_loop(struct net *net, const struct link *links, int n_links,
              int seed)
{
    int tree[MAX_BRIDGES];

    for (int i = 0; i < net->n_bridges; i++) {
        tree[i] = i;
    }
    for (int i = 0; i < n_links; i++) {
        const struct link *l = &links[i];
        if (l->up && port_state(net, l->b1, l->p1) == RSTP_FORWARDING
            && port_state(net, l->b2, l->p2) == RSTP_FORWARDING) {
            int x = find_set(tree, l->b1), y = find_set(tree, l->b2);
            ck_assert_msg(x != y, "seed %d: transient forwarding loop at "
                          "%lld ms", seed, net->now);
            tree[x] = y;
        }
    }
}

struct loop_check {
    const struct link *links;
    int n_links;
    int seed;
};

static void
check_no_loop_cb(struct net *net, void *lc_)
{
    const struct loop_check *lc = lc_;
    check_no_loop(net, lc->links, lc->n_links, lc->seed);
}

/* Like net_advance(), checking for loops after every round of BPDUs. */
static void
advance_checking(struct net *net, const struct link *links, int n_links,
                 int seed, int seconds)
{
    struct loop_check lc = { links, n_links, seed };

    net_settle__(net, check_no_loop_cb, &lc);
    check_no_loop(net, links, n_links, seed);
    for (int s = 0; s < seconds; s++) {
        net->now += 1000;
        for (int i = 0; i < net->n_bridges; i++) {
            rstp_run(net->bridges[i].rstp, net->now);
        }
        check_no_loop(net, links, n_links, seed);
        net_settle__(net, check_no_loop_cb, &lc);
    }
}

START_TEST(test_random_networks)
{
    for (int seed = 1; seed <= 100; seed++) {
        struct net *net = xzalloc(sizeof *net);
        uint32_t cost[MAX_BRIDGES][MAX_PORTS + 1];
        struct link links[MAX_BRIDGES * MAX_PORTS / 2];
        int n_links = 0, next_port[MAX_BRIDGES];
        uint32_t r = seed;

        int n = 3 + next_random(&r) % (MAX_BRIDGES - 2);
        for (int b = 0; b < n; b++) {
            int priority = (next_random(&r) % 16) * RSTP_PRIORITY_STEP;
            struct net_bridge *nb = net_add_bridge(net, 0x020000000100 + b,
                                                   priority, MAX_PORTS);
            next_port[b] = 1;
            for (int p = 1; p <= MAX_PORTS; p++) {
                cost[b][p] = 1 + next_random(&r) % 4 * 10000;
                ck_assert_ptr_null(rstp_port_set_path_cost(nb->rstp, p,
                                                           cost[b][p]));
            }
        }
        /* Random links, parallel ones included. */
        for (int tries = 0; tries < 3 * n; tries++) {
            int b1 = next_random(&r) % n, b2 = next_random(&r) % n;
            if (b1 == b2 || next_port[b1] > MAX_PORTS
                || next_port[b2] > MAX_PORTS) {
                continue;
            }
            links[n_links] = (struct link) {
                b1, next_port[b1]++, b2, next_port[b2]++, true,
            };
            net_set_link(net, b1, links[n_links].p1, b2, links[n_links].p2,
                         true);
            n_links++;
        }
        advance_checking(net, links, n_links, seed, 60);
        check_spanning_tree(net, links, n_links, cost, seed);

        /* Links fail and come back, a bridge's priority changes. */
        for (int step = 0; step < 3; step++) {
            if (n_links) {
                struct link *l = &links[next_random(&r) % n_links];
                l->up = !l->up;
                net_set_link(net, l->b1, l->p1, l->b2, l->p2, l->up);
            }
            int b = next_random(&r) % n;
            int priority = (next_random(&r) % 16) * RSTP_PRIORITY_STEP;
            ck_assert_ptr_null(rstp_set_bridge_priority(
                                   net->bridges[b].rstp, priority));
            net_advance(net, 60);
            check_spanning_tree(net, links, n_links, cost, seed);
        }
        net_destroy(net);
    }
}
END_TEST

static Suite *
rstp_suite(void)
{
    Suite *s = suite_create("rstp");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_rst_bytes_and_round_trip);
    tcase_add_test(tc, test_config_and_tcn_round_trip);
    tcase_add_test(tc, test_malformed_dropped_and_counted);
    tcase_add_test(tc, test_frame_and_flow);
    tcase_add_test(tc, test_rapid_convergence);
    tcase_add_test(tc, test_failover_and_topology_change);
    tcase_add_test(tc, test_status_and_topology_change_request);
    tcase_add_test(tc, test_path_cost_for_speed);
    tcase_add_test(tc, test_stp_partner);
    tcase_add_test(tc, test_edge_ports);
    tcase_add_test(tc, test_deadline);
    tcase_add_test(tc, test_bad_values_refused);
    tcase_add_test(tc, test_names);
    tcase_add_test(tc, test_random_networks);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(rstp_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
