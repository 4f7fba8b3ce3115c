/* Unit tests for the STP wire format (lib/stp-bpdu.c) and the engine's
 * handling of what arrives (lib/stp.c): BPDU encode/decode round trips
 * against bytes laid out by hand from 802.1D-1998 clause 9; malformed
 * BPDUs and frames (short, bad protocol identifier, bad type, a length
 * field that lies, wrong LLC) dropped and counted without touching the
 * bridge's state; frame composition and recognition in a parsed flow; and
 * the engine's clock interface (stp_run()'s deadlines), its change queue,
 * its MAC-flush flag and its refusal of out-of-range settings; and, on two
 * bridges joined back to back, a topology change's notification,
 * acknowledgement and announcement, and the root's information aging out
 * when the root goes. */
#include <config.h>
#include "stp.h"

#include <check.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "check-util.h"
#include "dp-packet.h"
#include "flow-extract.h"
#include "flow.h"
#include "packets.h"
#include "util.h"

/* A configuration BPDU written out octet by octet (9.3.1). */
static const uint8_t config_bytes[STP_CONFIG_BPDU_LEN] = {
    0x00, 0x00,                                     /* Protocol id. */
    0x00,                                           /* Version. */
    0x00,                                           /* Type: config. */
    0x81,                                           /* Flags: TC, TC ack. */
    0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x11, /* Root id. */
    0x00, 0x00, 0x00, 0x0a,                         /* Root path cost. */
    0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x22, /* Bridge id. */
    0x80, 0x02,                                     /* Port id. */
    0x01, 0x00,                                     /* Message age 1 s. */
    0x14, 0x00,                                     /* Max age 20 s. */
    0x02, 0x00,                                     /* Hello 2 s. */
    0x0f, 0x00,                                     /* Fwd delay 15 s. */
};

static const uint8_t tcn_bytes[STP_TCN_BPDU_LEN] = { 0, 0, 0, 0x80 };

START_TEST(test_config_round_trip)
{
    struct stp_bpdu bpdu;

    ck_assert_int_eq(stp_bpdu_decode(config_bytes, sizeof config_bytes,
                                     &bpdu), STP_BPDU_OK);
    ck_assert_int_eq(bpdu.type, STP_TYPE_CONFIG);
    ck_assert_int_eq(bpdu.flags, STP_FLAG_TC | STP_FLAG_TC_ACK);
    ck_assert(bpdu.root_id == UINT64_C(0x8000000000000111));
    ck_assert_uint_eq(bpdu.root_path_cost, 10);
    ck_assert(bpdu.bridge_id == UINT64_C(0x8000000000000222));
    ck_assert_uint_eq(bpdu.port_id, 0x8002);
    ck_assert_uint_eq(bpdu.message_age, 256);
    ck_assert_uint_eq(bpdu.max_age, 20 * 256);
    ck_assert_uint_eq(bpdu.hello_time, 2 * 256);
    ck_assert_uint_eq(bpdu.forward_delay, 15 * 256);

    uint8_t out[STP_CONFIG_BPDU_LEN];
    memset(out, 0xcc, sizeof out);
    ck_assert_uint_eq(stp_bpdu_encode(&bpdu, out), STP_CONFIG_BPDU_LEN);
    ck_assert(!memcmp(out, config_bytes, sizeof out));

    /* Trailing octets (padding) are not part of the BPDU. */
    uint8_t padded[60] = { 0 };
    memcpy(padded, config_bytes, sizeof config_bytes);
    struct stp_bpdu again;
    ck_assert_int_eq(stp_bpdu_decode(padded, sizeof padded, &again),
                     STP_BPDU_OK);
    ck_assert(!memcmp(&again, &bpdu, sizeof bpdu));
}
END_TEST

START_TEST(test_tcn_round_trip)
{
    struct stp_bpdu bpdu;

    ck_assert_int_eq(stp_bpdu_decode(tcn_bytes, sizeof tcn_bytes, &bpdu),
                     STP_BPDU_OK);
    ck_assert_int_eq(bpdu.type, STP_TYPE_TCN);

    uint8_t out[STP_CONFIG_BPDU_LEN];
    ck_assert_uint_eq(stp_bpdu_encode(&bpdu, out), STP_TCN_BPDU_LEN);
    ck_assert(!memcmp(out, tcn_bytes, sizeof tcn_bytes));
}
END_TEST

START_TEST(test_decode_errors)
{
    struct stp_bpdu bpdu;
    uint8_t b[STP_CONFIG_BPDU_LEN];

    for (size_t n = 0; n < STP_TCN_BPDU_LEN; n++) {
        ck_assert_int_eq(stp_bpdu_decode(tcn_bytes, n, &bpdu),
                         STP_BPDU_RUNT);
    }
    for (size_t n = STP_TCN_BPDU_LEN; n < STP_CONFIG_BPDU_LEN; n++) {
        ck_assert_int_eq(stp_bpdu_decode(config_bytes, n, &bpdu),
                         STP_BPDU_RUNT);
    }

    memcpy(b, config_bytes, sizeof b);
    b[1] = 1;
    ck_assert_int_eq(stp_bpdu_decode(b, sizeof b, &bpdu),
                     STP_BPDU_BAD_PROTOCOL);

    /* An RST BPDU (type 2) and junk types. */
    memcpy(b, config_bytes, sizeof b);
    for (int type = 1; type < 256; type++) {
        if (type != STP_TYPE_TCN) {
            b[3] = type;
            ck_assert_int_eq(stp_bpdu_decode(b, sizeof b, &bpdu),
                             STP_BPDU_BAD_TYPE);
        }
    }

    /* Message age at max age. */
    memcpy(b, config_bytes, sizeof b);
    b[27] = 0x14;
    ck_assert_int_eq(stp_bpdu_decode(b, sizeof b, &bpdu), STP_BPDU_BAD_AGE);

    /* A later protocol version is decoded by type (9.3.4). */
    memcpy(b, config_bytes, sizeof b);
    b[2] = 3;
    ck_assert_int_eq(stp_bpdu_decode(b, sizeof b, &bpdu), STP_BPDU_OK);
    ck_assert_int_eq(bpdu.version, 3);
}
END_TEST

/* What a bridge sent, for the tests below. */
struct sent {
    int n;
    int port_no;
    uint8_t bpdu[STP_CONFIG_BPDU_LEN];
    size_t len;
};

static void
record_send(const void *bpdu, size_t len, int port_no, void *sent_)
{
    struct sent *sent = sent_;

    ck_assert_uint_le(len, sizeof sent->bpdu);
    sent->n++;
    sent->port_no = port_no;
    memcpy(sent->bpdu, bpdu, len);
    sent->len = len;
}

static struct stp_port_counters
counters(struct stp_port *p)
{
    struct stp_port_counters c;
    stp_port_get_counters(p, &c);
    return c;
}

START_TEST(test_malformed_dropped_and_counted)
{
    struct sent sent = { 0 };
    struct stp *stp = stp_create("br", 0x222, record_send, &sent);
    struct stp_port *p = stp_get_port(stp, 0);
    stp_port_enable(p);
    stp_identifier root = stp_get_designated_root(stp);

    /* A disabled port ignores everything, counting nothing. */
    stp_received_bpdu(stp_get_port(stp, 1), "", 0);
    ck_assert(counters(stp_get_port(stp, 1)).rx_errors == 0);

    uint8_t b[STP_CONFIG_BPDU_LEN];
    uint64_t errors = 0;

    stp_received_bpdu(p, config_bytes, 0);
    stp_received_bpdu(p, config_bytes, 3);
    stp_received_bpdu(p, config_bytes, 34);
    errors += 3;
    memcpy(b, config_bytes, sizeof b);
    b[0] = 0x42;
    stp_received_bpdu(p, b, sizeof b);
    errors++;
    memcpy(b, config_bytes, sizeof b);
    b[3] = 0x02;
    stp_received_bpdu(p, b, sizeof b);
    errors++;
    memcpy(b, config_bytes, sizeof b);
    b[27] = 0xff;
    stp_received_bpdu(p, b, sizeof b);
    errors++;

    ck_assert(counters(p).rx_errors == errors);
    ck_assert(counters(p).rx_bpdus == 0);
    /* None of it was believed: still root. */
    ck_assert(stp_is_root_bridge(stp));
    ck_assert(stp_get_designated_root(stp) == root);

    /* The good one is believed: 0x111 is a better root. */
    stp_received_bpdu(p, config_bytes, sizeof config_bytes);
    ck_assert(counters(p).rx_bpdus == 1);
    ck_assert(!stp_is_root_bridge(stp));
    ck_assert(stp_get_designated_root(stp) == UINT64_C(0x8000000000000111));
    ck_assert_uint_eq(stp_get_root_path_cost(stp), 10 + 2);
    ck_assert(stp_get_root_port(stp) == p);

    stp_destroy(stp);
}
END_TEST

START_TEST(test_frames)
{
    struct eth_addr mac = { { 0x02, 0, 0, 0, 0, 0x07 } };
    struct dp_packet *frame = stp_compose_frame(config_bytes,
                                                sizeof config_bytes, mac);
    const uint8_t *f = dp_packet_data(frame);
    size_t size = dp_packet_size(frame);

    ck_assert_uint_eq(size, ETH_TOTAL_MIN);     /* 52 bytes, padded. */
    ck_assert(!memcmp(f, stp_group_address.ea, 6));
    ck_assert(!memcmp(f + 6, mac.ea, 6));
    ck_assert_uint_eq(f[12], 0);
    ck_assert_uint_eq(f[13], 3 + 35);
    ck_assert(f[14] == 0x42 && f[15] == 0x42 && f[16] == 0x03);

    const uint8_t *bpdu;
    size_t bpdu_len;
    ck_assert(stp_parse_frame(f, size, &bpdu, &bpdu_len));
    ck_assert_uint_eq(bpdu_len, sizeof config_bytes);
    ck_assert(!memcmp(bpdu, config_bytes, bpdu_len));

    /* A TCN is padded to the Ethernet minimum; the length field tells the
     * BPDU from the padding. */
    struct dp_packet *tcn = stp_compose_frame(tcn_bytes, sizeof tcn_bytes,
                                              mac);
    ck_assert_uint_eq(dp_packet_size(tcn), ETH_TOTAL_MIN);
    ck_assert(stp_parse_frame(dp_packet_data(tcn), dp_packet_size(tcn),
                              &bpdu, &bpdu_len));
    ck_assert_uint_eq(bpdu_len, STP_TCN_BPDU_LEN);

    /* Malformed frames. */
    uint8_t bad[64];
    memcpy(bad, f, 14 + 3 + 35);
    ck_assert(!stp_parse_frame(bad, 16, &bpdu, &bpdu_len));     /* Short. */
    bad[13] = 3 + 36;                                   /* Length lies. */
    ck_assert(!stp_parse_frame(bad, 14 + 3 + 35, &bpdu, &bpdu_len));
    bad[13] = 2;                                        /* No room for LLC. */
    ck_assert(!stp_parse_frame(bad, 14 + 3 + 35, &bpdu, &bpdu_len));
    bad[12] = 0x08;                                     /* An Ethertype. */
    bad[13] = 0x00;
    ck_assert(!stp_parse_frame(bad, 14 + 3 + 35, &bpdu, &bpdu_len));
    memcpy(bad, f, 14 + 3 + 35);
    bad[16] = 0x13;                                     /* Wrong LLC. */
    ck_assert(!stp_parse_frame(bad, 14 + 3 + 35, &bpdu, &bpdu_len));

    /* Through the engine: counted as errors, the good frame believed. */
    struct sent sent = { 0 };
    struct stp *stp = stp_create("br", 0x222, record_send, &sent);
    struct stp_port *p = stp_get_port(stp, 3);
    stp_port_enable(p);
    stp_received_frame(p, bad, 14 + 3 + 35);
    memcpy(bad, f, 14 + 3 + 35);
    bad[13] = 200;
    stp_received_frame(p, bad, 14 + 3 + 35);
    ck_assert(counters(p).rx_errors == 2);
    stp_received_frame(p, f, size);
    ck_assert(counters(p).rx_bpdus == 1);
    ck_assert(!stp_is_root_bridge(stp));
    stp_destroy(stp);

    dp_packet_delete(tcn);
    dp_packet_delete(frame);
}
END_TEST

START_TEST(test_recognizes)
{
    struct eth_addr mac = { { 0x02, 0, 0, 0, 0, 0x07 } };
    struct dp_packet *frame = stp_compose_frame(tcn_bytes, sizeof tcn_bytes,
                                                mac);
    struct flow flow;
    struct flow_wildcards wc;

    flow_extract(frame, &flow);
    flow_wildcards_init_catchall(&wc);
    ck_assert(stp_should_process_flow(&flow, &wc));
    ck_assert(eth_addr_equals(wc.masks.dl_dst,
                              (struct eth_addr) { { 0xff, 0xff, 0xff,
                                                    0xff, 0xff, 0xff } }));
    ck_assert_uint_eq(wc.masks.dl_type, 0xffff);
    ck_assert(stp_should_process_flow(&flow, NULL));

    /* Another destination: only dl_dst was looked at. */
    flow.dl_dst.ea[5] = 0x01;
    flow_wildcards_init_catchall(&wc);
    ck_assert(!stp_should_process_flow(&flow, &wc));
    ck_assert_uint_eq(wc.masks.dl_type, 0);

    /* The group address with an Ethertype is not a BPDU. */
    flow.dl_dst = stp_group_address;
    flow.dl_type = htons(ETH_TYPE_IP);
    ck_assert(!stp_should_process_flow(&flow, NULL));

    dp_packet_delete(frame);
}
END_TEST

START_TEST(test_run_deadlines)
{
    struct sent sent = { 0 };
    struct stp *stp = stp_create("br", 0x1, record_send, &sent);
    struct stp_port *p = stp_get_port(stp, 0);

    stp_port_enable(p);
    ck_assert_int_eq(stp_port_get_state(p), STP_LISTENING);

    /* The first hello is due 2 s after creation. */
    long long int now = 1000000;
    long long int next = stp_run(stp, now);
    ck_assert_int_eq(next, now + 2000);
    ck_assert_int_eq(sent.n, 0);
    next = stp_run(stp, now + 1999);
    ck_assert_int_eq(next, now + 2000);
    ck_assert_int_eq(sent.n, 0);
    stp_run(stp, next);
    ck_assert_int_eq(sent.n, 1);
    ck_assert_int_eq(sent.port_no, 0);
    ck_assert_uint_eq(sent.len, STP_CONFIG_BPDU_LEN);

    struct stp_bpdu bpdu;
    ck_assert_int_eq(stp_bpdu_decode(sent.bpdu, sent.len, &bpdu),
                     STP_BPDU_OK);
    ck_assert(bpdu.root_id == stp_get_bridge_id(stp));
    ck_assert(bpdu.bridge_id == (UINT64_C(0x8000) << 48 | 1));
    ck_assert_uint_eq(bpdu.port_id, 0x8001);
    ck_assert_uint_eq(bpdu.message_age, 0);

    /* Listening, learning, forwarding: 15 s apiece. */
    ck_assert(stp_take_changed_port(stp) == p);
    ck_assert(stp_take_changed_port(stp) == NULL);
    for (long long int t = now + 2000; t <= now + 30000; t += 500) {
        stp_run(stp, t);
    }
    ck_assert_int_eq(stp_port_get_state(p), STP_FORWARDING);
    ck_assert(stp_port_may_forward(p) && stp_port_may_learn(p));
    ck_assert_int_eq(stp_port_get_role(p), STP_ROLE_DESIGNATED);
    ck_assert(stp_take_changed_port(stp) == p);
    ck_assert(stp_take_changed_port(stp) == NULL);
    /* A designated port starting to forward is a topology change. */
    ck_assert(stp_check_and_reset_fdb_flush(stp));
    ck_assert(!stp_check_and_reset_fdb_flush(stp));
    ck_assert_int_eq(sent.n, 15);

    stp_port_disable(p);
    ck_assert_int_eq(stp_port_get_role(p), STP_ROLE_DISABLED);
    ck_assert(stp_take_changed_port(stp) == p);
    stp_destroy(stp);
}
END_TEST

START_TEST(test_settings_refused)
{
    struct stp *stp = stp_create("br", 0x1, record_send, NULL);
    struct stp_port *p = stp_get_port(stp, 0);

    ck_assert(stp_set_bridge_priority(stp, -1));
    ck_assert(stp_set_bridge_priority(stp, 65536));
    ck_assert(!stp_set_bridge_priority(stp, 0x1000));
    ck_assert(stp_get_bridge_id(stp) == (UINT64_C(0x1000) << 48 | 1));

    ck_assert(stp_port_set_priority(p, 256));
    ck_assert(!stp_port_set_priority(p, 0x10));
    ck_assert_int_eq(stp_port_get_id(p), 0x1001);
    ck_assert(stp_port_set_path_cost(p, 0));
    ck_assert(stp_port_set_path_cost(p, 65536));
    ck_assert(!stp_port_set_path_cost(p, 19));
    ck_assert_int_eq(stp_port_get_path_cost(p), 19);

    ck_assert(stp_set_timers(stp, 500, 20000, 15000));
    ck_assert(stp_set_timers(stp, 2000, 41000, 30000));
    ck_assert(stp_set_timers(stp, 2000, 20000, 3000));
    ck_assert(stp_set_timers(stp, 5000, 10000, 15000));  /* < 2*(h+1). */
    ck_assert(stp_set_timers(stp, 2000, 30000, 15000));  /* > 2*(fd-1). */
    ck_assert_int_eq(stp_get_hello_time(stp), 2000);
    ck_assert(!stp_set_timers(stp, 1000, 6000, 4000));
    /* The root uses its own at once. */
    ck_assert_int_eq(stp_get_hello_time(stp), 1000);
    ck_assert_int_eq(stp_get_max_age(stp), 6000);
    ck_assert_int_eq(stp_get_forward_delay(stp), 4000);

    ck_assert_str_eq(stp_state_name(STP_BLOCKING), "blocking");
    ck_assert_str_eq(stp_role_name(STP_ROLE_ALTERNATE), "alternate");
    ck_assert_uint_eq(stp_speed_to_path_cost(1000), 4);
    stp_destroy(stp);
}
END_TEST

/* Two bridges joined back to back by their port 0, the test carrying
 * BPDUs between them and remembering the last one each side sent. */
struct link;

struct link_side {
    struct link *link;
    int index;                              /* 0 or 1. */
};

struct link {
    struct stp *stp[2];
    struct link_side sides[2];
    uint8_t queue[2][64][STP_CONFIG_BPDU_LEN];  /* Per receiver. */
    size_t len[2][64];
    int n[2];
    struct stp_bpdu last[2];                /* Decoded, per sender. */
    int n_tcn[2];                           /* TCNs sent, per sender. */
};

static void
link_send(const void *bpdu, size_t len, int port_no, void *side_)
{
    struct link_side *side = side_;
    struct link *link = side->link;
    int to = !side->index;

    if (port_no != 0) {
        return;                             /* Port 1 is an edge port. */
    }
    ck_assert_int_lt(link->n[to], 64);
    memcpy(link->queue[to][link->n[to]], bpdu, len);
    link->len[to][link->n[to]++] = len;
    ck_assert_int_eq(stp_bpdu_decode(bpdu, len, &link->last[side->index]),
                     STP_BPDU_OK);
    if (link->last[side->index].type == STP_TYPE_TCN) {
        link->n_tcn[side->index]++;
    }
}

static struct link *
link_create(void)
{
    struct link *link = xzalloc(sizeof *link);
    for (int i = 0; i < 2; i++) {
        link->sides[i] = (struct link_side) { link, i };
    }
    link->stp[0] = stp_create("root", 0x1, link_send, &link->sides[0]);
    link->stp[1] = stp_create("leaf", 0x2, link_send, &link->sides[1]);
    stp_port_enable(stp_get_port(link->stp[0], 0));
    stp_port_enable(stp_get_port(link->stp[1], 0));
    stp_port_enable(stp_get_port(link->stp[1], 1));
    return link;
}

static void
link_run(struct link *link, int seconds)
{
    for (int i = 0; i < seconds; i++) {
        for (int side = 0; side < 2; side++) {
            stp_tick(link->stp[side], 1000);
        }
        for (int round = 0; round < 10 && (link->n[0] || link->n[1]);
             round++) {
            for (int side = 0; side < 2; side++) {
                int n = link->n[side];
                link->n[side] = 0;
                for (int j = 0; j < n; j++) {
                    uint8_t copy[STP_CONFIG_BPDU_LEN];
                    memcpy(copy, link->queue[side][j], link->len[side][j]);
                    stp_received_bpdu(stp_get_port(link->stp[side], 0),
                                      copy, link->len[side][j]);
                }
            }
        }
    }
}

START_TEST(test_topology_change)
{
    struct link *link = link_create();
    struct stp *root = link->stp[0], *leaf = link->stp[1];

    link_run(link, 40);
    ck_assert(stp_is_root_bridge(root));
    ck_assert(stp_get_root_port(leaf) == stp_get_port(leaf, 0));
    ck_assert_int_eq(stp_port_get_state(stp_get_port(leaf, 1)),
                     STP_FORWARDING);
    ck_assert_int_eq(stp_port_get_role(stp_get_port(leaf, 0)),
                     STP_ROLE_ROOT);

    /* Let the start-up topology change run out. */
    link_run(link, 60);
    ck_assert(!(link->last[0].flags & STP_FLAG_TC));
    stp_check_and_reset_fdb_flush(root);
    stp_check_and_reset_fdb_flush(leaf);
    int tcns = link->n_tcn[1];

    /* The leaf's edge port hears a better path to the root (a bridge
     * next to the root, on a loop the leaf closes) and blocks: the leaf
     * tells the root with a TCN, the root acknowledges it and announces
     * the change. */
    struct stp_bpdu better = {
        .type = STP_TYPE_CONFIG,
        .root_id = stp_get_bridge_id(root),
        .root_path_cost = 1,
        .bridge_id = stp_get_bridge_id(root) + 1,
        .port_id = 0x8001,
        .max_age = 20 * 256,
        .hello_time = 2 * 256,
        .forward_delay = 15 * 256,
    };
    uint8_t buf[STP_CONFIG_BPDU_LEN];
    stp_received_bpdu(stp_get_port(leaf, 1), buf,
                      stp_bpdu_encode(&better, buf));
    ck_assert_int_eq(stp_port_get_state(stp_get_port(leaf, 1)),
                     STP_BLOCKING);
    ck_assert_int_eq(stp_port_get_role(stp_get_port(leaf, 1)),
                     STP_ROLE_ALTERNATE);
    ck_assert_int_eq(link->n_tcn[1], tcns + 1);
    ck_assert(stp_check_and_reset_fdb_flush(leaf));
    link_run(link, 2);
    ck_assert(stp_check_and_reset_fdb_flush(root));
    ck_assert(link->last[0].flags & STP_FLAG_TC);
    /* Acknowledged: the leaf stops repeating its TCN. */
    tcns = link->n_tcn[1];
    link_run(link, 10);
    ck_assert_int_eq(link->n_tcn[1], tcns);
    /* The root announces the change for max age + forward delay. */
    ck_assert(link->last[0].flags & STP_FLAG_TC);
    link_run(link, 30);
    ck_assert(!(link->last[0].flags & STP_FLAG_TC));

    /* The root goes away: the leaf ages its information out after max
     * age and becomes root itself. */
    stp_port_disable(stp_get_port(root, 0));
    link_run(link, 19);
    ck_assert(!stp_is_root_bridge(leaf));
    link_run(link, 2);
    ck_assert(stp_is_root_bridge(leaf));
    ck_assert(stp_get_root_port(leaf) == NULL);

    stp_destroy(root);
    stp_destroy(leaf);
    free(link);
}
END_TEST

static Suite *
stp_bpdu_suite(void)
{
    Suite *s = suite_create("stp-bpdu");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_config_round_trip);
    tcase_add_test(tc, test_tcn_round_trip);
    tcase_add_test(tc, test_decode_errors);
    tcase_add_test(tc, test_malformed_dropped_and_counted);
    tcase_add_test(tc, test_frames);
    tcase_add_test(tc, test_recognizes);
    tcase_add_test(tc, test_run_deadlines);
    tcase_add_test(tc, test_settings_refused);
    tcase_add_test(tc, test_topology_change);
    suite_add_tcase(s, tc);
    return s;
}

int
main(int argc OVS_UNUSED, char *argv[])
{
    set_program_name(argv[0]);
    SRunner *sr = srunner_create(stp_bpdu_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
