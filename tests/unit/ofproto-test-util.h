/* Helpers shared by the ofproto unit suites: flows and flow_mods from
 * ovs-ofctl's text syntax, through lib/ofp-parse, and a per-port protocol
 * of the tests' own. */
#ifndef TESTS_UNIT_OFPROTO_TEST_UTIL_H
#define TESTS_UNIT_OFPROTO_TEST_UTIL_H 1

#include <check.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "dp-packet.h"
#include "match.h"
#include "ofp-flow.h"
#include "ofp-parse.h"
#include "ofpbuf.h"
#include "ofproto.h"
#include "packets.h"
#include "port-protocol.h"
#include "timeval.h"

/* Parses S (a match in ovs-ofctl syntax) into FLOW; fields S leaves out
 * are zero.  Returns false (and frees the error) if S does not parse. */
static inline bool
test_parse_flow(const char *s, struct flow *flow)
{
    struct ofputil_flow_mod fm;
    struct ofpbuf ofpacts;
    ofpbuf_init(&ofpacts, 0);
    char *error = parse_ofp_flow_mod_str(&fm, s, NULL, OFPFC_DELETE,
                                         &ofpacts);
    ofpbuf_uninit(&ofpacts);
    if (error) {
        free(error);
        return false;
    }
    flow_apply_mask(flow, &fm.match.flow, &fm.match.wc);
    /* A match says nothing of the TPID; a packet with a tag has one. */
    if (flow->vlans[0].tci & htons(VLAN_CFI) && !flow->vlans[0].tpid) {
        flow->vlans[0].tpid = htons(ETH_TYPE_VLAN_8021Q);
    }
    return true;
}

/* Applies "S" as ovs-ofctl's add-flow/mod-flows/del-flows would (COMMAND
 * OFPFC_*), and returns ofproto_flow_mod()'s answer. */
static inline enum ofperr
test_flow_mod(struct ofproto *ofproto, uint16_t command, const char *s)
{
    struct ofputil_flow_mod fm;
    struct ofpbuf ofpacts;
    ofpbuf_init(&ofpacts, 0);
    char *error = parse_ofp_flow_mod_str(&fm, s, NULL, command, &ofpacts);
    ck_assert_msg(!error, "%s: %s", s, error);
    enum ofperr retval = ofproto_flow_mod(ofproto, &fm);
    ofpbuf_uninit(&ofpacts);
    return retval;
}

/* A per-port protocol of the tests' own (port-protocol.h): it owns frames
 * of ethertype TEST_PROTOCOL_ETH_TYPE, sends one such frame per run and
 * runs again PERIOD ms later; its link_ok() is 'link_ok'.  With FLIP_EVERY
 * nonzero it flips 'link_ok' every that many runs and reports the change;
 * with RECEIVE_WAKES a frame it receives asks for a run at once. */
#define TEST_PROTOCOL_ETH_TYPE 0x88b5

struct test_protocol {
    struct port_protocol up;
    uint16_t ofp_port;
    long long int period;
    unsigned int flip_every;
    bool receive_wakes;
    _Atomic unsigned int n_runs, n_received;
    _Atomic bool link_ok;
};

static inline bool
test_protocol_recognizes(const struct port_protocol *p OVS_UNUSED,
                         const struct flow *flow, struct flow_wildcards *wc)
{
    if (wc) {
        WC_MASK_FIELD(wc, dl_type);
    }
    return flow->dl_type == htons(TEST_PROTOCOL_ETH_TYPE);
}

static inline void
test_protocol_receive(struct port_protocol *p,
                      const struct flow *flow OVS_UNUSED,
                      const struct dp_packet *packet OVS_UNUSED)
{
    struct test_protocol *t = CONTAINER_OF(p, struct test_protocol, up);
    atomic_fetch_add(&t->n_received, 1);
    if (t->receive_wakes) {
        port_protocol_schedule(p, time_msec());
    }
}

/* A 60-byte broadcast frame of the protocol from SRC. */
static inline struct dp_packet *
test_protocol_frame(struct eth_addr src)
{
    struct dp_packet *packet = dp_packet_new(64);
    struct eth_header *eth = dp_packet_put_zeros(packet, 60);
    memset(&eth->eth_dst, 0xff, sizeof eth->eth_dst);
    eth->eth_src = src;
    eth->eth_type = htons(TEST_PROTOCOL_ETH_TYPE);
    return packet;
}

static inline long long int
test_protocol_run(struct port_protocol *p, long long int now,
                  const struct eth_addr port_mac, struct dp_packet_batch *out)
{
    struct test_protocol *t = CONTAINER_OF(p, struct test_protocol, up);
    dp_packet_batch_add(out, test_protocol_frame(port_mac));
    unsigned int runs = atomic_fetch_add(&t->n_runs, 1) + 1;
    if (t->flip_every && runs % t->flip_every == 0) {
        atomic_store(&t->link_ok, !atomic_load(&t->link_ok));
        port_protocol_changed(p);
    }
    return now + t->period;
}

static inline bool
test_protocol_link_ok(const struct port_protocol *p)
{
    struct test_protocol *t = CONTAINER_OF(p, struct test_protocol, up);
    return atomic_load(&t->link_ok);
}

static const struct port_protocol_class test_protocol_class = {
    .name = "test",
    .slow_reason = SLOW_LLDP,
    .recognizes = test_protocol_recognizes,
    .receive = test_protocol_receive,
    .run = test_protocol_run,
    .link_ok = test_protocol_link_ok,
};

/* Initializes T for port OFP_PORT, its link up, due at once. */
static inline void
test_protocol_init(struct test_protocol *t, uint16_t ofp_port,
                   long long int period, unsigned int flip_every,
                   bool receive_wakes)
{
    *t = (struct test_protocol) {
        .ofp_port = ofp_port, .period = period, .flip_every = flip_every,
        .receive_wakes = receive_wakes, .link_ok = true,
    };
    port_protocol_init(&t->up, &test_protocol_class, t);
    port_protocol_schedule(&t->up, time_msec());
}

#endif /* tests/unit/ofproto-test-util.h */
