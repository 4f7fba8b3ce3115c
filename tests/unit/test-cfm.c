/* Unit tests for cfm: two instances joined by a simulated wire, driven
 * through the real port-protocol schedule on the simulated clock.  A
 * fault appears when CCMs stop and clears when they resume, RDI reaches
 * the side that still hears, remote MPIDs, the extended mode's opstate,
 * health, flap counting, demand mode (traffic on the device keeps the
 * remote MP, until no CCM came for 100 intervals), the fault override,
 * the CCM's bytes, recognition by destination address, and malformed
 * CCMs dropped. */
#include <config.h>
#include "cfm.h"

#include <check.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "dp-packet.h"
#include "dynamic-string.h"
#include "flow-extract.h"
#include "flow.h"
#include "netdev.h"
#include "packets.h"
#include "port-protocol.h"
#include "timeval.h"
#include "util.h"

/* One end of the wire. */
struct end {
    struct cfm *cfm;
    struct eth_addr mac;
    bool tx_on;                 /* Its CCMs reach the other end. */
    int n_sent;
    struct dp_packet *last_ccm; /* Copy of the last CCM sent. */
};

struct wire {
    struct end ends[2];
};

static struct cfm_settings
settings(uint64_t mpid, int interval, bool extended)
{
    struct cfm_settings s = {
        .mpid = mpid, .interval = interval, .extended = extended,
        .opup = true,
    };
    return s;
}

static void
wire_init(struct wire *w, const struct cfm_settings *a,
          const struct cfm_settings *b, struct netdev *netdev_a)
{
    static int port_cookie;     /* Any non-null pointer will do. */
    memset(w, 0, sizeof *w);
    const struct cfm_settings *s[2] = { a, b };
    for (int i = 0; i < 2; i++) {
        struct end *e = &w->ends[i];
        char name[8];
        snprintf(name, sizeof name, "p%d", i);
        e->cfm = cfm_create(name, i ? NULL : netdev_a, e);
        ck_assert(cfm_configure(e->cfm, s[i]));
        e->mac = (struct eth_addr) { { 0x02, 0, 0, 0, 0, i + 1 } };
        e->tx_on = true;
        port_protocol_attach(cfm_protocol(e->cfm), &port_cookie);
    }
}

static void
drain_changes(void)
{
    struct port_protocol **changed;
    size_t n = port_protocol_take_changed(&changed);
    (void) n;
    free(changed);
}

static void
wire_destroy(struct wire *w)
{
    for (int i = 0; i < 2; i++) {
        port_protocol_detach(cfm_protocol(w->ends[i].cfm));
        cfm_destroy(w->ends[i].cfm);
        dp_packet_delete(w->ends[i].last_ccm);
    }
    drain_changes();
}

/* Delivers PACKET to TO as translation would: only if recognised. */
static bool
deliver(struct cfm *to, struct dp_packet *packet)
{
    struct flow flow;
    struct flow_wildcards wc;
    memset(&flow, 0, sizeof flow);
    memset(&wc, 0, sizeof wc);
    flow_extract(packet, &flow);
    struct port_protocol *p = cfm_protocol(to);
    if (!p->class->recognizes(p, &flow, &wc)) {
        return false;
    }
    ck_assert(wc.masks.dl_type == htons(0xffff));
    p->class->receive(p, &flow, packet);
    return true;
}

/* Runs what is due at the current time. */
static void
run_due(struct wire *w)
{
    struct port_protocol *due[4];
    long long int now = time_msec();
    size_t n = port_protocol_take_due(now, due, 4);
    for (size_t i = 0; i < n; i++) {
        struct end *e = NULL;
        for (int j = 0; j < 2; j++) {
            if (cfm_protocol(w->ends[j].cfm) == due[i]) {
                e = &w->ends[j];
            }
        }
        ck_assert(e);
        struct dp_packet_batch out;
        dp_packet_batch_init(&out);
        long long int next = due[i]->class->run(due[i], now, e->mac, &out);
        ck_assert_int_gt(next, now);
        port_protocol_put_back(due[i], next);

        ck_assert_uint_le(out.count, 1);
        struct dp_packet *packet;
        DP_PACKET_BATCH_FOR_EACH (k, packet, &out) {
            e->n_sent++;
            dp_packet_delete(e->last_ccm);
            e->last_ccm = dp_packet_clone(packet);
            struct end *peer = &w->ends[e == &w->ends[0]];
            if (e->tx_on) {
                ck_assert(deliver(peer->cfm, packet));
            }
            dp_packet_delete(packet);
        }
    }
}

/* Advances the clock by MS in steps of 10 ms. */
static void
advance(struct wire *w, long long int ms)
{
    for (long long int t = 0; t < ms; t += 10) {
        time_warp(10);
        run_due(w);
    }
}

static struct cfm_status
status(const struct end *e)
{
    struct cfm_status s;
    cfm_get_status(e->cfm, &s);
    return s;
}

static void
setup(void)
{
    if (!time_is_stopped()) {
        time_stop();
    }
}

START_TEST(test_fault_when_ccms_stop_and_clear_when_they_resume)
{
    struct cfm_settings a = settings(1, 100, false);
    struct cfm_settings b = settings(2, 100, false);
    struct wire w;
    wire_init(&w, &a, &b, NULL);

    advance(&w, 1000);
    struct cfm_status s = status(&w.ends[0]);
    ck_assert_uint_eq(s.faults, 0);
    ck_assert_uint_eq(s.n_rmps, 1);
    ck_assert_uint_eq(s.rmps[0], 2);
    ck_assert_int_eq(s.remote_opstate, -1);
    ck_assert_uint_eq(s.flap_count, 0);
    free(s.rmps);
    ck_assert(cfm_protocol(w.ends[0].cfm)->class->link_ok(
                  cfm_protocol(w.ends[0].cfm)));

    /* B stops reaching A: within 2 fault intervals (2 x 350 ms), A has the
     * recv fault, and B, still hearing A, sees A's RDI. */
    w.ends[1].tx_on = false;
    advance(&w, 800);
    s = status(&w.ends[0]);
    ck_assert_uint_eq(s.faults, CFM_FAULT_RECV);
    ck_assert_uint_eq(s.n_rmps, 0);
    ck_assert_uint_eq(s.flap_count, 1);
    free(s.rmps);
    ck_assert(!cfm_protocol(w.ends[0].cfm)->class->link_ok(
                  cfm_protocol(w.ends[0].cfm)));
    s = status(&w.ends[1]);
    ck_assert_uint_eq(s.faults, CFM_FAULT_RDI);
    free(s.rmps);

    /* Resumed: both clear. */
    w.ends[1].tx_on = true;
    advance(&w, 800);
    s = status(&w.ends[0]);
    ck_assert_uint_eq(s.faults, 0);
    ck_assert_uint_eq(s.flap_count, 2);
    free(s.rmps);
    s = status(&w.ends[1]);
    ck_assert_uint_eq(s.faults, 0);
    free(s.rmps);

    wire_destroy(&w);
}
END_TEST

START_TEST(test_ccm_layout_standard)
{
    struct cfm_settings a = settings(5, 1000, false);
    struct cfm_settings b = settings(6, 1000, false);
    struct wire w;
    wire_init(&w, &a, &b, NULL);
    advance(&w, 10);

    const struct dp_packet *p = w.ends[0].last_ccm;
    ck_assert(p);
    ck_assert_uint_eq(dp_packet_size(p), 14 + 75);
    const uint8_t *d = dp_packet_data(p);
    static const uint8_t dst[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x30 };
    ck_assert(!memcmp(d, dst, 6));
    ck_assert_uint_eq(d[12], 0x89);
    ck_assert_uint_eq(d[13], 0x02);
    const uint8_t *ccm = d + 14;
    ck_assert_uint_eq(ccm[0], 0);       /* MD level 0, version 0. */
    ck_assert_uint_eq(ccm[1], 1);       /* CCM. */
    ck_assert_uint_eq(ccm[2], 4);       /* 1 s, no RDI yet. */
    ck_assert_uint_eq(ccm[3], 70);
    ck_assert_uint_eq(ccm[7], 1);       /* First sequence number. */
    ck_assert_uint_eq(ccm[8] << 8 | ccm[9], 5);
    static const uint8_t maid[10] = { 4, 3, 'o', 'v', 's', 2, 3, 'o', 'v',
                                      's' };
    ck_assert(!memcmp(ccm + 10, maid, sizeof maid));
    for (int i = 20; i < 75; i++) {
        ck_assert_uint_eq(ccm[i], 0);
    }
    wire_destroy(&w);
}
END_TEST

START_TEST(test_ccm_layout_extended_and_vlan)
{
    struct cfm_settings a = settings(0x123456789ULL, 300, true);
    a.ccm_vlan = 10;
    a.ccm_pcp = 5;
    a.opup = false;
    struct cfm_settings b = settings(2, 300, true);
    struct wire w;
    wire_init(&w, &a, &b, NULL);
    advance(&w, 10);

    const struct dp_packet *p = w.ends[0].last_ccm;
    ck_assert_uint_eq(dp_packet_size(p), 18 + 75);
    const uint8_t *d = dp_packet_data(p);
    static const uint8_t dst[6] = { 0x01, 0x23, 0x20, 0x00, 0x00, 0x30 };
    ck_assert(!memcmp(d, dst, 6));
    ck_assert_uint_eq(d[12] << 8 | d[13], 0x8100);
    ck_assert_uint_eq(d[14] << 8 | d[15], (5 << 13) | 10);
    ck_assert_uint_eq(d[16] << 8 | d[17], 0x8902);
    const uint8_t *ccm = d + 18;
    ck_assert_uint_eq(ccm[2] & 7, 0);                   /* Code 0... */
    ck_assert_uint_eq(ccm[58] << 8 | ccm[59], 300);     /* ...300 ms. */
    uint64_t mpid64 = 0;
    for (int i = 0; i < 8; i++) {
        mpid64 = mpid64 << 8 | ccm[60 + i];
    }
    ck_assert_uint_eq(mpid64, 0x123456789ULL);
    ck_assert_uint_eq(ccm[68], 1);                      /* Opdown. */

    /* B took the VLAN-tagged CCM, and knows A is operationally down. */
    advance(&w, 1200);
    struct cfm_status s = status(&w.ends[1]);
    ck_assert_uint_eq(s.n_rmps, 1);
    ck_assert_uint_eq(s.rmps[0], 0x123456789ULL);
    ck_assert_int_eq(s.remote_opstate, 0);
    ck_assert_uint_eq(s.faults, 0);
    free(s.rmps);
    /* Operationally down is no fault, but keeps the link from use. */
    ck_assert(!cfm_protocol(w.ends[1].cfm)->class->link_ok(
                  cfm_protocol(w.ends[1].cfm)));
    s = status(&w.ends[0]);
    ck_assert_int_eq(s.remote_opstate, 1);
    free(s.rmps);

    /* A comes up. */
    a.opup = true;
    ck_assert(cfm_configure(w.ends[0].cfm, &a));
    advance(&w, 1200);
    s = status(&w.ends[1]);
    ck_assert_int_eq(s.remote_opstate, 1);
    free(s.rmps);
    ck_assert(cfm_protocol(w.ends[1].cfm)->class->link_ok(
                  cfm_protocol(w.ends[1].cfm)));
    wire_destroy(&w);
}
END_TEST

START_TEST(test_mode_mismatch_not_recognized)
{
    /* An extended end ignores standard CCMs (another address), so each
     * hears nobody... and the standard one is not fooled either. */
    struct cfm_settings a = settings(1, 100, true);
    struct cfm_settings b = settings(2, 100, false);
    struct wire w;
    wire_init(&w, &a, &b, NULL);
    w.ends[0].tx_on = w.ends[1].tx_on = false;
    advance(&w, 10);
    ck_assert(!deliver(w.ends[0].cfm, w.ends[1].last_ccm));
    ck_assert(!deliver(w.ends[1].cfm, w.ends[0].last_ccm));
    wire_destroy(&w);
}
END_TEST

START_TEST(test_health_and_remote_mpids)
{
    struct cfm_settings a = settings(1, 100, true);
    struct cfm_settings b = settings(2, 100, true);
    struct wire w;
    wire_init(&w, &a, &b, NULL);
    struct cfm_status s = status(&w.ends[0]);
    ck_assert_int_eq(s.health, -1);
    free(s.rmps);
    /* Health is first computed at the 7th fault check (7 x 350 ms). */
    advance(&w, 2600);
    s = status(&w.ends[0]);
    ck_assert_int_eq(s.health, 100);
    free(s.rmps);

    /* Half the CCMs lost: the next health is about half. */
    for (int i = 0; i < 21; i++) {
        w.ends[1].tx_on = i % 2;
        advance(&w, 100);
    }
    w.ends[1].tx_on = true;
    s = status(&w.ends[0]);
    ck_assert_int_ge(s.health, 40);
    ck_assert_int_le(s.health, 60);
    free(s.rmps);
    wire_destroy(&w);
}
END_TEST

START_TEST(test_demand_mode)
{
    netdev_enable_dummy(NETDEV_DUMMY_ADD);
    struct netdev *dev;
    ck_assert_int_eq(netdev_open("cfm-d0", "dummy", &dev), 0);
    struct netdev_rxq *rxq;
    ck_assert_int_eq(netdev_rxq_open(dev, &rxq), 0);

    struct cfm_settings a = settings(1, 300, true);
    a.demand = true;
    struct cfm_settings b = settings(2, 300, true);
    struct wire w;
    wire_init(&w, &a, &b, dev);
    advance(&w, 3000);
    struct cfm_status s = status(&w.ends[0]);
    ck_assert_uint_eq(s.faults, 0);
    free(s.rmps);

    /* B's CCMs stop, but traffic keeps coming in: no fault, for up to
     * 100 intervals (30 s) after the last CCM. */
    w.ends[1].tx_on = false;
    long long int t;
    for (t = 0; t < 25000; t += 100) {
        struct dp_packet *data = dp_packet_new(64);
        dp_packet_put_zeros(data, 64);
        ck_assert_int_eq(netdev_dummy_inject(dev, data), 0);
        struct dp_packet_batch batch;
        ck_assert_int_eq(netdev_rxq_recv(rxq, &batch), 0);
        advance(&w, 100);
    }
    /* The remote MP is kept, but (as in 3.1) only those heard since the
     * last check are listed. */
    s = status(&w.ends[0]);
    ck_assert_uint_eq(s.faults, 0);
    ck_assert_uint_eq(s.n_rmps, 0);
    free(s.rmps);
    for (; t < 32000; t += 100) {
        struct dp_packet *data = dp_packet_new(64);
        dp_packet_put_zeros(data, 64);
        ck_assert_int_eq(netdev_dummy_inject(dev, data), 0);
        struct dp_packet_batch batch;
        ck_assert_int_eq(netdev_rxq_recv(rxq, &batch), 0);
        advance(&w, 100);
    }
    s = status(&w.ends[0]);
    ck_assert_uint_eq(s.faults, CFM_FAULT_RECV);
    free(s.rmps);

    /* Without traffic, demand mode vouches for nothing. */
    w.ends[1].tx_on = true;
    advance(&w, 5000);
    s = status(&w.ends[0]);
    ck_assert_uint_eq(s.faults, 0);
    free(s.rmps);
    w.ends[1].tx_on = false;
    advance(&w, 4000);
    s = status(&w.ends[0]);
    ck_assert_uint_eq(s.faults, CFM_FAULT_RECV);
    free(s.rmps);

    wire_destroy(&w);
    netdev_rxq_close(rxq);
    netdev_close(dev);
}
END_TEST

/* Builds a copy of SRC's last CCM with byte OFS (of the CCM) set to
 * VALUE, or truncated to LEN bytes of CCM if LEN is nonzero. */
static struct dp_packet *
mangle(const struct end *src, size_t ofs, uint8_t value, size_t len)
{
    struct dp_packet *p = dp_packet_clone(src->last_ccm);
    uint8_t *ccm = (uint8_t *) dp_packet_data(p) + 14;
    if (len) {
        dp_packet_set_size(p, 14 + len);
    } else {
        ccm[ofs] = value;
    }
    return p;
}

START_TEST(test_malformed_and_foreign_ccms)
{
    struct cfm_settings a = settings(1, 100, false);
    struct cfm_settings b = settings(2, 100, false);
    struct wire w;
    wire_init(&w, &a, &b, NULL);
    w.ends[1].tx_on = false;
    advance(&w, 10);

    /* Too short, or another opcode: ignored, so A still hears nobody. */
    struct dp_packet *p = mangle(&w.ends[1], 0, 0, 40);
    ck_assert(deliver(w.ends[0].cfm, p));
    dp_packet_delete(p);
    p = mangle(&w.ends[1], 1, 3, 0);
    ck_assert(deliver(w.ends[0].cfm, p));
    dp_packet_delete(p);
    advance(&w, 400);
    struct cfm_status s = status(&w.ends[0]);
    ck_assert_uint_eq(s.faults, CFM_FAULT_RECV);
    ck_assert_uint_eq(s.n_rmps, 0);
    free(s.rmps);

    /* A 74-byte CCM (no End TLV) is fine. */
    p = mangle(&w.ends[1], 0, 0, 74);
    ck_assert(deliver(w.ends[0].cfm, p));
    dp_packet_delete(p);
    advance(&w, 350);
    s = status(&w.ends[0]);
    ck_assert_uint_eq(s.faults, 0);
    ck_assert_uint_eq(s.n_rmps, 1);
    free(s.rmps);

    /* Another MA's CCM: the maid fault (beside recv, since none valid). */
    p = mangle(&w.ends[1], 12, 'x', 0);
    ck_assert(deliver(w.ends[0].cfm, p));
    dp_packet_delete(p);
    advance(&w, 350);
    s = status(&w.ends[0]);
    ck_assert_uint_eq(s.faults, CFM_FAULT_MAID | CFM_FAULT_RECV);
    free(s.rmps);

    /* Our own MPID: loopback. */
    p = mangle(&w.ends[1], 9, 1, 0);
    ck_assert(deliver(w.ends[0].cfm, p));
    dp_packet_delete(p);
    advance(&w, 350);
    s = status(&w.ends[0]);
    ck_assert(s.faults & CFM_FAULT_LOOPBACK);
    free(s.rmps);

    /* Not a CCM's ethertype: not recognised. */
    p = dp_packet_clone(w.ends[1].last_ccm);
    ((uint8_t *) dp_packet_data(p))[13] = 0x03;
    ck_assert(!deliver(w.ends[0].cfm, p));
    dp_packet_delete(p);
    wire_destroy(&w);
}
END_TEST

START_TEST(test_overflow)
{
    struct cfm_settings a = settings(1, 100, true);
    struct cfm_settings b = settings(2, 100, true);
    struct wire w;
    wire_init(&w, &a, &b, NULL);
    w.ends[1].tx_on = false;
    advance(&w, 10);
    for (int i = 0; i < 300; i++) {
        /* MPID 0x1000 + i. */
        struct dp_packet *p = mangle(&w.ends[1], 67, i & 0xff, 0);
        ((uint8_t *) dp_packet_data(p))[14 + 66] = 0x10 + (i >> 8);
        ck_assert(deliver(w.ends[0].cfm, p));
        dp_packet_delete(p);
    }
    advance(&w, 350);
    struct cfm_status s = status(&w.ends[0]);
    ck_assert_uint_eq(s.faults, CFM_FAULT_OVERFLOW);
    ck_assert_uint_eq(s.n_rmps, 256);
    ck_assert_int_eq(s.health, -1);
    free(s.rmps);
    wire_destroy(&w);
}
END_TEST

START_TEST(test_invalid_settings)
{
    struct cfm *cfm = cfm_create("bad", NULL, NULL);
    struct cfm_settings s = settings(0, 100, false);
    ck_assert(!cfm_configure(cfm, &s));
    s = settings(8192, 100, false);
    ck_assert(!cfm_configure(cfm, &s));
    s = settings(8192, 100, true);
    ck_assert(cfm_configure(cfm, &s));
    s = settings(1, 0, false);
    ck_assert(!cfm_configure(cfm, &s));
    cfm_destroy(cfm);
}
END_TEST

START_TEST(test_interval_rounding)
{
    /* Standard mode rounds down to 802.1ag's list; extended keeps it. */
    struct cfm_settings a = settings(1, 300, false);
    struct cfm_settings b = settings(2, 300, true);
    struct wire w;
    wire_init(&w, &a, &b, NULL);
    w.ends[0].tx_on = w.ends[1].tx_on = false;
    advance(&w, 1000);
    /* 100 ms: 10 CCMs in 1 s; 300 ms: 4 (at 0, 300, 600, 900). */
    ck_assert_int_eq(w.ends[0].n_sent, 10);
    ck_assert_int_eq(w.ends[1].n_sent, 4);
    ck_assert_uint_eq(((uint8_t *) dp_packet_data(w.ends[0].last_ccm))[16]
                      & 7, 3);
    wire_destroy(&w);
}
END_TEST

START_TEST(test_fault_names)
{
    ck_assert_str_eq(cfm_fault_reason_to_str(CFM_FAULT_RECV), "recv");
    ck_assert_str_eq(cfm_fault_reason_to_str(CFM_FAULT_RDI), "rdi");
    ck_assert_str_eq(cfm_fault_reason_to_str(CFM_FAULT_MAID), "maid");
    ck_assert_str_eq(cfm_fault_reason_to_str(CFM_FAULT_LOOPBACK),
                     "loopback");
    ck_assert_str_eq(cfm_fault_reason_to_str(CFM_FAULT_OVERFLOW),
                     "overflow");
    ck_assert_str_eq(cfm_fault_reason_to_str(CFM_FAULT_OVERRIDE),
                     "override");
}
END_TEST

static Suite *
cfm_suite(void)
{
    Suite *s = suite_create("cfm");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_fault_when_ccms_stop_and_clear_when_they_resume);
    tcase_add_test(tc, test_ccm_layout_standard);
    tcase_add_test(tc, test_ccm_layout_extended_and_vlan);
    tcase_add_test(tc, test_mode_mismatch_not_recognized);
    tcase_add_test(tc, test_health_and_remote_mpids);
    tcase_add_test(tc, test_demand_mode);
    tcase_add_test(tc, test_malformed_and_foreign_ccms);
    tcase_add_test(tc, test_overflow);
    tcase_add_test(tc, test_invalid_settings);
    tcase_add_test(tc, test_interval_rounding);
    tcase_add_test(tc, test_fault_names);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(cfm_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
