/* Unit tests for lacp: two bonds joined by a simulated wire (member i of
 * one to member i of the other; the send callback delivers each LACPDU to
 * the far end, through lacp_recognizes() as translation would), driven on
 * the simulated clock.  Negotiation, a side going silent (expired, then
 * defaulted), fast and slow rates, passive ends, fallback to
 * active-backup, loopback, change reporting, malformed PDUs, the PDU's
 * bytes, and lacp/show's text for a known state (lacp.at's
 * "lacp - config"). */
#include <config.h>
#include "lacp.h"

#include <check.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "check-util.h"
#include "dp-packet.h"
#include "dynamic-string.h"
#include "flow-extract.h"
#include "flow.h"
#include "lacp-pdu.h"
#include "ovs-thread.h"
#include "packets.h"
#include "timeval.h"
#include "util.h"

#define MAX_MEMBERS 4

struct side;

/* A member's aux: which side and which member. */
struct handle {
    struct side *side;
    int idx;
};

struct side {
    struct lacp *lacp;
    struct handle handles[MAX_MEMBERS];
    int n_members;
    bool tx_on[MAX_MEMBERS];    /* Its LACPDUs reach the far end. */
    int n_sent[MAX_MEMBERS];
    uint8_t last_frame[MAX_MEMBERS][LACP_FRAME_LEN]; /* Last sent. */
    int n_changes;              /* Change callbacks. */
};

struct wire {
    struct side sides[2];
    bool loop;                  /* Side 0's member 0 and 1 joined. */
};

static struct lacp_settings
settings(const char *name, uint8_t id, bool active, bool fast)
{
    struct lacp_settings s = {
        .name = name,
        .id = { { 0xaa, 0x55, 0xaa, 0x55, 0x00, id } },
        .priority = 65534,
        .active = active,
        .fast = fast,
    };
    return s;
}

static void
count_change(void *side_)
{
    struct side *side = side_;
    side->n_changes++;
}

static void
side_init(struct side *side, const struct lacp_settings *s, int n_members,
          uint16_t key, uint16_t first_port)
{
    memset(side, 0, sizeof *side);
    side->lacp = lacp_create();
    ck_assert(lacp_configure(side->lacp, s));
    lacp_set_change_callback(side->lacp, count_change, side);
    side->n_members = n_members;
    for (int i = 0; i < n_members; i++) {
        char name[16];
        snprintf(name, sizeof name, "%s-m%d", s->name, i);
        struct lacp_member_settings ms = {
            .name = name,
            .id = first_port + i,
            .priority = 65535,
            .key = key,
            .mac = { { 0x02, 0, 0, 0, first_port, i } },
        };
        side->handles[i].side = side;
        side->handles[i].idx = i;
        side->tx_on[i] = true;
        lacp_member_register(side->lacp, &side->handles[i], &ms);
        lacp_member_carrier_changed(side->lacp, &side->handles[i], true);
    }
}

static struct wire *current_wire;

/* Delivers FRAME as translation would: only if recognised. */
static void
deliver(struct side *to, int idx, const void *frame, size_t len)
{
    struct dp_packet *packet = dp_packet_clone_data(frame, len);
    struct flow flow;
    struct flow_wildcards wc;
    memset(&flow, 0, sizeof flow);
    memset(&wc, 0, sizeof wc);
    flow_extract(packet, &flow);
    ck_assert(lacp_recognizes(&flow, &wc));
    ck_assert(wc.masks.dl_type == htons(0xffff));
    lacp_process_packet(to->lacp, &to->handles[idx], dp_packet_data(packet),
                        len);
    dp_packet_delete(packet);
}

static void
send_cb(void *member_aux, const void *frame, size_t len, void *cb_aux)
{
    struct wire *w = cb_aux;
    struct handle *h = member_aux;
    struct side *side = h->side;

    ck_assert_uint_eq(len, LACP_FRAME_LEN);
    side->n_sent[h->idx]++;
    memcpy(side->last_frame[h->idx], frame, len);
    if (!side->tx_on[h->idx]) {
        return;
    }
    if (w->loop && side == &w->sides[0] && h->idx < 2) {
        deliver(side, !h->idx, frame, len);
        return;
    }
    struct side *peer = &w->sides[side == &w->sides[0]];
    if (peer->lacp && h->idx < peer->n_members) {
        deliver(peer, h->idx, frame, len);
    }
}

/* Runs every side that is due at the current time, until none is. */
static void
run_due(struct wire *w)
{
    long long int now = time_msec();
    for (int round = 0; round < 20; round++) {
        bool ran = false;
        for (int i = 0; i < 2; i++) {
            struct side *side = &w->sides[i];
            if (side->lacp && lacp_next_deadline(side->lacp) <= now) {
                long long int next = lacp_run(side->lacp, now, send_cb, w);
                ck_assert_int_gt(next, now);
                ran = true;
            }
        }
        if (!ran) {
            return;
        }
    }
    ck_abort_msg("lacp_run() keeps being due");
}

/* Advances the clock by MS in steps of 100 ms. */
static void
advance(struct wire *w, long long int ms)
{
    run_due(w);
    for (long long int t = 0; t < ms; t += 100) {
        time_warp(100);
        run_due(w);
    }
}

static void
wire_destroy(struct wire *w)
{
    for (int i = 0; i < 2; i++) {
        lacp_unref(w->sides[i].lacp);
        w->sides[i].lacp = NULL;
    }
}

static struct lacp_member_stats
stats(const struct side *side, int idx)
{
    struct lacp_member_stats s;
    ck_assert(lacp_get_member_stats(side->lacp, &side->handles[idx], &s));
    return s;
}

static bool
may_enable(const struct side *side, int idx)
{
    return lacp_member_may_enable(side->lacp, &side->handles[idx]);
}

static bool
is_current(const struct side *side, int idx)
{
    return lacp_member_is_current(side->lacp, &side->handles[idx]);
}

static void
setup(void)
{
    if (!time_is_stopped()) {
        time_stop();
    }
    current_wire = NULL;
}

/* Two active fast bonds of two members each, negotiated. */
static void
negotiated_pair(struct wire *w, bool fast_a, bool fast_b)
{
    memset(w, 0, sizeof *w);
    struct lacp_settings a = settings("bond0", 1, true, fast_a);
    struct lacp_settings b = settings("bond1", 2, true, fast_b);
    side_init(&w->sides[0], &a, 2, 2, 1);
    side_init(&w->sides[1], &b, 2, 4, 3);
    advance(w, 5000);
}

START_TEST(test_negotiation)
{
    struct wire w;
    negotiated_pair(&w, true, true);

    for (int i = 0; i < 2; i++) {
        struct side *side = &w.sides[i];
        ck_assert_int_eq(lacp_status(side->lacp), LACP_NEGOTIATED);
        for (int m = 0; m < 2; m++) {
            ck_assert(may_enable(side, m));
            ck_assert(is_current(side, m));
            struct lacp_member_stats s = stats(side, m);
            ck_assert(s.current && s.attached && !s.defaulted);
            ck_assert_uint_eq(s.partner.sys_id.ea[5], i ? 1 : 2);
            ck_assert_uint_eq(s.partner.sys_priority, 65534);
            ck_assert_uint_eq(s.partner.port_id, (i ? 1 : 3) + m);
            ck_assert_uint_eq(s.partner.key, i ? 2 : 4);
            ck_assert_uint_eq(s.partner.state,
                              LACP_STATE_ACTIVITY | LACP_STATE_TIMEOUT
                              | LACP_STATE_AGGREGATION | LACP_STATE_SYNC
                              | LACP_STATE_COLLECTING
                              | LACP_STATE_DISTRIBUTING);
            ck_assert_uint_eq(s.actor.state, s.partner.state);
            ck_assert_uint_eq(s.rx_errors, 0);
        }
    }

    struct ds ds = DS_EMPTY_INITIALIZER;
    ck_assert(lacp_show(&ds, "bond0"));
    ck_assert_ptr_nonnull(strstr(ds_cstr(&ds),
        "  status: active negotiated\n"
        "  sys_id: aa:55:aa:55:00:01\n"
        "  sys_priority: 65534\n"
        "  aggregation key: 2\n"
        "  lacp_time: fast\n"
        "\n"
        "member: bond0-m0: current attached\n"
        "  port_id: 1\n"
        "  port_priority: 65535\n"
        "  may_enable: true\n"));
    ck_assert_ptr_nonnull(strstr(ds_cstr(&ds),
        "  partner sys_id: aa:55:aa:55:00:02\n"
        "  partner sys_priority: 65534\n"
        "  partner port_id: 4\n"
        "  partner port_priority: 65535\n"
        "  partner key: 4\n"
        "  partner state: activity timeout aggregation synchronized "
        "collecting distributing\n"));
    ds_destroy(&ds);
    wire_destroy(&w);
}
END_TEST

START_TEST(test_silence_expires_then_defaults)
{
    struct wire w;
    negotiated_pair(&w, true, true);
    struct side *a = &w.sides[0], *b = &w.sides[1];

    /* B's LACPDUs on member 0 stop reaching A. */
    b->tx_on[0] = false;
    advance(&w, 1900);
    ck_assert(stats(a, 0).current);
    ck_assert(may_enable(a, 0));

    /* A's timeout is fast: 3 s after the last PDU (at most 1 s before
     * the cut) the partner expires, and 3 s later it is forgotten. */
    advance(&w, 1200);
    struct lacp_member_stats s = stats(a, 0);
    ck_assert(s.expired);
    ck_assert(is_current(a, 0));
    ck_assert(!may_enable(a, 0));
    ck_assert(!(s.partner.state & LACP_STATE_SYNC));
    ck_assert(s.partner.state & LACP_STATE_TIMEOUT);
    ck_assert(s.actor.state & LACP_STATE_EXPIRED);
    ck_assert_uint_eq(s.link_expired, 1);
    ck_assert_uint_eq(s.partner.port_id, 3);   /* Still known. */

    advance(&w, 1800);
    ck_assert(stats(a, 0).expired);
    advance(&w, 1200);
    s = stats(a, 0);
    ck_assert(s.defaulted);
    ck_assert(!is_current(a, 0));
    ck_assert(!may_enable(a, 0));
    ck_assert(!s.attached);
    ck_assert_uint_eq(s.link_defaulted, 1);
    ck_assert_uint_eq(s.partner.port_id, 0);
    ck_assert(s.actor.state & LACP_STATE_DEFAULTED);

    /* The other member carries on, and the bond stays negotiated. */
    ck_assert(may_enable(a, 1));
    ck_assert_int_eq(lacp_status(a->lacp), LACP_NEGOTIATED);

    /* B still hears A on member 0, but A no longer says it is in sync
     * there, so B will not use it either. */
    ck_assert(!may_enable(b, 0));
    ck_assert(may_enable(b, 1));

    struct ds ds = DS_EMPTY_INITIALIZER;
    ck_assert(lacp_show_stats(&ds, "bond0"));
    ck_assert_ptr_nonnull(strstr(ds_cstr(&ds),
        "  Link Expired: 1\n"
        "  Link Defaulted: 1\n"
        "  Carrier Status Changed: 1\n"));
    ds_destroy(&ds);

    /* The link comes back: renegotiated. */
    b->tx_on[0] = true;
    advance(&w, 3000);
    ck_assert(stats(a, 0).current);
    ck_assert(may_enable(a, 0));
    ck_assert(may_enable(b, 0));
    wire_destroy(&w);
}
END_TEST

START_TEST(test_fast_and_slow_rates)
{
    struct wire w;

    /* Both fast: a PDU a second on every member. */
    negotiated_pair(&w, true, true);
    int before = w.sides[0].n_sent[0];
    advance(&w, 60000);
    int fast = w.sides[0].n_sent[0] - before;
    ck_assert_int_ge(fast, 59);
    ck_assert_int_le(fast, 61);
    wire_destroy(&w);

    /* Both slow: one every 30 s. */
    negotiated_pair(&w, false, false);
    ck_assert_int_eq(lacp_status(w.sides[0].lacp), LACP_NEGOTIATED);
    before = w.sides[0].n_sent[0];
    advance(&w, 60000);
    int slow = w.sides[0].n_sent[0] - before;
    ck_assert_int_ge(slow, 1);
    ck_assert_int_le(slow, 3);
    ck_assert(may_enable(&w.sides[0], 0));
    ck_assert(may_enable(&w.sides[1], 1));

    /* A slow side's receive timeout is 90 s after the last PDU, which
     * came at most 30 s before the cut. */
    w.sides[1].tx_on[0] = false;
    advance(&w, 60000);
    ck_assert(stats(&w.sides[0], 0).current);
    int waited = 0;
    while (stats(&w.sides[0], 0).current) {
        ck_assert_int_le(waited, 30000);
        advance(&w, 100);
        waited += 100;
    }
    ck_assert(stats(&w.sides[0], 0).expired);
    ck_assert_uint_eq(stats(&w.sides[0], 0).link_expired, 1);
    wire_destroy(&w);

    /* A fast, B slow: the rate follows what the partner asked for, so B
     * sends fast and A slow. */
    negotiated_pair(&w, true, false);
    int a0 = w.sides[0].n_sent[0], b0 = w.sides[1].n_sent[0];
    advance(&w, 60000);
    ck_assert_int_le(w.sides[0].n_sent[0] - a0, 3);
    ck_assert_int_ge(w.sides[1].n_sent[0] - b0, 59);
    ck_assert(may_enable(&w.sides[0], 0));
    ck_assert(may_enable(&w.sides[1], 0));
    wire_destroy(&w);
}
END_TEST

START_TEST(test_passive)
{
    struct wire w;
    memset(&w, 0, sizeof w);
    struct lacp_settings a = settings("bond0", 1, false, true);
    struct lacp_settings b = settings("bond1", 2, false, true);
    side_init(&w.sides[0], &a, 2, 2, 1);
    side_init(&w.sides[1], &b, 2, 4, 3);
    advance(&w, 10000);

    /* Passive + passive: nobody speaks first. */
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(lacp_status(w.sides[i].lacp), LACP_CONFIGURED);
        for (int m = 0; m < 2; m++) {
            ck_assert_int_eq(w.sides[i].n_sent[m], 0);
            ck_assert(!may_enable(&w.sides[i], m));
            ck_assert(!is_current(&w.sides[i], m));
        }
        ck_assert_int_eq(lacp_next_deadline(w.sides[i].lacp), LLONG_MAX);
    }
    struct ds ds = DS_EMPTY_INITIALIZER;
    ck_assert(lacp_show(&ds, "bond1"));
    ck_assert_ptr_nonnull(strstr(ds_cstr(&ds), "  status: passive\n"));
    ck_assert_ptr_nonnull(strstr(ds_cstr(&ds), ": defaulted detached\n"));
    ds_destroy(&ds);

    /* One side turns active: the passive one answers. */
    a.active = true;
    ck_assert(lacp_configure(w.sides[0].lacp, &a));
    advance(&w, 5000);
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(lacp_status(w.sides[i].lacp), LACP_NEGOTIATED);
        ck_assert(may_enable(&w.sides[i], 0));
        ck_assert(may_enable(&w.sides[i], 1));
    }
    ck_assert_int_gt(w.sides[1].n_sent[0], 0);
    wire_destroy(&w);
}
END_TEST

START_TEST(test_fallback_ab)
{
    struct wire w;
    memset(&w, 0, sizeof w);
    struct lacp_settings a = settings("bond0", 1, true, true);
    a.fallback_ab = true;
    side_init(&w.sides[0], &a, 2, 2, 1);
    advance(&w, 10000);

    /* No partner at all: with fallback, every member may carry traffic
     * (the bond falls back to active-backup) but nothing is negotiated. */
    struct side *s0 = &w.sides[0];
    ck_assert_int_eq(lacp_status(s0->lacp), LACP_CONFIGURED);
    for (int m = 0; m < 2; m++) {
        struct lacp_member_stats s = stats(s0, m);
        ck_assert(s.defaulted && s.attached);
        ck_assert(may_enable(s0, m));
        ck_assert_int_gt(s0->n_sent[m], 0);
    }

    /* Without fallback, nothing may. */
    a.fallback_ab = false;
    ck_assert(lacp_configure(s0->lacp, &a));
    ck_assert(!may_enable(s0, 0));
    ck_assert(!may_enable(s0, 1));
    a.fallback_ab = true;
    ck_assert(lacp_configure(s0->lacp, &a));
    ck_assert(may_enable(s0, 0));

    /* A partner appears: negotiated; may_enable now comes from sync. */
    struct lacp_settings b = settings("bond1", 2, true, true);
    side_init(&w.sides[1], &b, 2, 4, 3);
    advance(&w, 5000);
    ck_assert_int_eq(lacp_status(s0->lacp), LACP_NEGOTIATED);
    for (int m = 0; m < 2; m++) {
        struct lacp_member_stats s = stats(s0, m);
        ck_assert(s.current && s.attached);
        ck_assert(s.partner.state & LACP_STATE_SYNC);
        ck_assert(may_enable(s0, m));
    }

    /* Member 1's partner goes silent: once defaulted it is detached,
     * since the bond is negotiated on member 0. */
    w.sides[1].tx_on[1] = false;
    advance(&w, 7000);
    struct lacp_member_stats s = stats(s0, 1);
    ck_assert(s.defaulted);
    ck_assert(!s.attached);
    ck_assert(!may_enable(s0, 1));
    ck_assert(may_enable(s0, 0));
    wire_destroy(&w);
}
END_TEST

START_TEST(test_loopback)
{
    struct wire w;
    memset(&w, 0, sizeof w);
    w.loop = true;
    struct lacp_settings a = settings("bond0", 1, true, true);
    side_init(&w.sides[0], &a, 2, 2, 1);
    advance(&w, 5000);

    /* Each member hears its own bond: never attached. */
    for (int m = 0; m < 2; m++) {
        struct lacp_member_stats s = stats(&w.sides[0], m);
        ck_assert(s.current);
        ck_assert(!s.attached);
        ck_assert(!may_enable(&w.sides[0], m));
    }
    ck_assert_int_eq(lacp_status(w.sides[0].lacp), LACP_CONFIGURED);
    wire_destroy(&w);
}
END_TEST

START_TEST(test_change_reporting)
{
    struct wire w;
    memset(&w, 0, sizeof w);
    struct lacp_settings a = settings("bond0", 1, true, true);
    struct lacp_settings b = settings("bond1", 2, true, true);
    side_init(&w.sides[0], &a, 2, 2, 1);
    side_init(&w.sides[1], &b, 2, 4, 3);
    struct side *s0 = &w.sides[0];

    /* New members are reported once. */
    void **auxes;
    size_t n = lacp_take_changed_members(s0->lacp, &auxes);
    ck_assert_uint_eq(n, 2);
    free(auxes);
    n = lacp_take_changed_members(s0->lacp, &auxes);
    ck_assert_uint_eq(n, 0);
    free(auxes);

    advance(&w, 5000);
    ck_assert(lacp_member_take_changed(s0->lacp, &s0->handles[0]));
    ck_assert(!lacp_member_take_changed(s0->lacp, &s0->handles[0]));
    ck_assert(lacp_member_take_changed(s0->lacp, &s0->handles[1]));

    /* Steady state: periodic PDUs change nothing visible. */
    int changes = s0->n_changes;
    ck_assert_int_gt(changes, 0);
    advance(&w, 10000);
    ck_assert_int_eq(s0->n_changes, changes);
    n = lacp_take_changed_members(s0->lacp, &auxes);
    ck_assert_uint_eq(n, 0);
    free(auxes);

    /* Member 1 expires: only it is reported. */
    w.sides[1].tx_on[1] = false;
    advance(&w, 3500);
    n = lacp_take_changed_members(s0->lacp, &auxes);
    ck_assert_uint_eq(n, 1);
    ck_assert_ptr_eq(auxes[0], &s0->handles[1]);
    free(auxes);
    ck_assert_int_gt(s0->n_changes, changes);

    /* Unknown members. */
    int other;
    ck_assert(!lacp_member_take_changed(s0->lacp, &other));
    ck_assert(!lacp_member_may_enable(s0->lacp, &other));
    ck_assert(!lacp_member_is_current(s0->lacp, &other));
    ck_assert(!lacp_process_packet(s0->lacp, &other, s0->last_frame[0],
                                   LACP_FRAME_LEN));
    lacp_member_unregister(s0->lacp, &other);
    wire_destroy(&w);
}
END_TEST

START_TEST(test_malformed_pdus)
{
    struct wire w;
    negotiated_pair(&w, true, true);
    struct side *a = &w.sides[0], *b = &w.sides[1];
    struct lacp_member_stats before = stats(a, 0);

    uint8_t good[LACP_FRAME_LEN + 8];
    memcpy(good, b->last_frame[0], LACP_FRAME_LEN);
    memset(good + LACP_FRAME_LEN, 0, 8);
    struct lacp_info actor, partner;
    ck_assert_int_eq(lacp_pdu_parse(good, LACP_FRAME_LEN, &actor, &partner),
                     LACP_PDU_LACP);

    uint8_t bad[LACP_FRAME_LEN];
    int n_bad = 0;

    /* Every truncation. */
    for (size_t len = 0; len < LACP_FRAME_LEN; len++) {
        uint8_t *copy = xmemdup(good, len ? len : 1);
        ck_assert(!lacp_process_packet(a->lacp, &a->handles[0], copy, len));
        free(copy);
        n_bad++;
    }
    /* Wrong subtype, TLV types and lengths, Ethernet type. */
    static const struct { size_t ofs; uint8_t value; } corruptions[] = {
        { 14, 3 }, { 14, 0 }, { 16, 2 }, { 17, 19 }, { 36, 1 }, { 37, 21 },
        { 12, 0x08 },
    };
    for (size_t i = 0; i < ARRAY_SIZE(corruptions); i++) {
        memcpy(bad, good, sizeof bad);
        bad[corruptions[i].ofs] = corruptions[i].value;
        ck_assert(!lacp_process_packet(a->lacp, &a->handles[0], bad,
                                       sizeof bad));
        n_bad++;
    }
    /* A marker PDU is counted as such, not as an error. */
    memcpy(bad, good, sizeof bad);
    bad[14] = 2;
    ck_assert(!lacp_process_packet(a->lacp, &a->handles[0], bad, sizeof bad));

    struct lacp_member_stats after = stats(a, 0);
    ck_assert_uint_eq(after.rx_errors, before.rx_errors + n_bad);
    ck_assert_uint_eq(after.rx_markers, before.rx_markers + 1);
    ck_assert_uint_eq(after.rx_pdus, before.rx_pdus + n_bad + 1);
    ck_assert(after.current && after.attached && after.may_enable);
    ck_assert(lacp_info_equal(&after.partner, &before.partner));

    /* Padding after the PDU and a VLAN tag are fine. */
    ck_assert(!lacp_process_packet(a->lacp, &a->handles[0], good,
                                   sizeof good));
    uint8_t tagged[LACP_FRAME_LEN + 4];
    memcpy(tagged, good, 12);
    tagged[12] = 0x81;
    tagged[13] = 0x00;
    tagged[14] = 0x00;
    tagged[15] = 0x05;
    memcpy(tagged + 16, good + 12, LACP_FRAME_LEN - 12);
    ck_assert_int_eq(lacp_pdu_parse(tagged, sizeof tagged, &actor, &partner),
                     LACP_PDU_LACP);
    ck_assert(!lacp_process_packet(a->lacp, &a->handles[0], tagged,
                                   sizeof tagged));
    after = stats(a, 0);
    ck_assert_uint_eq(after.rx_errors, before.rx_errors + n_bad);

    /* Garbage still needs the wire to work afterwards. */
    advance(&w, 3000);
    ck_assert(may_enable(a, 0));

    struct ds ds = DS_EMPTY_INITIALIZER;
    ck_assert(lacp_show_stats(&ds, "bond0"));
    char *expect = xasprintf("  RX Bad PDUs: %d\n"
                             "  RX Marker Request PDUs: 1\n", n_bad);
    ck_assert_ptr_nonnull(strstr(ds_cstr(&ds), expect));
    free(expect);
    ds_destroy(&ds);
    wire_destroy(&w);
}
END_TEST

START_TEST(test_carrier)
{
    struct wire w;
    negotiated_pair(&w, true, true);
    struct side *a = &w.sides[0];

    /* Carrier down: partner expired at once, and A stops sending there. */
    lacp_member_carrier_changed(a->lacp, &a->handles[0], false);
    struct lacp_member_stats s = stats(a, 0);
    ck_assert(s.expired && !s.carrier_up);
    ck_assert(!may_enable(a, 0));
    int sent = a->n_sent[0];
    advance(&w, 10000);
    ck_assert_int_eq(a->n_sent[0], sent);
    s = stats(a, 0);
    ck_assert(s.defaulted);     /* PDUs on a down link are dropped. */
    ck_assert_uint_eq(s.carrier_changed, 2);

    lacp_member_carrier_changed(a->lacp, &a->handles[0], true);
    advance(&w, 3000);
    ck_assert(stats(a, 0).current);
    ck_assert(may_enable(a, 0));
    ck_assert_int_gt(a->n_sent[0], sent);
    wire_destroy(&w);
}
END_TEST

START_TEST(test_pdu_bytes)
{
    struct lacp_info actor = {
        .sys_priority = 0x1234,
        .sys_id = { { 1, 2, 3, 4, 5, 6 } },
        .key = 0x0506, .port_priority = 0x0708, .port_id = 0x090a,
        .state = 0x3d,
    };
    struct lacp_info partner = actor;
    partner.sys_id.ea[0] = 0x0b;
    partner.state = 0x47;
    struct eth_addr src = { { 0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee } };
    uint8_t frame[LACP_FRAME_LEN];
    lacp_compose_pdu(frame, src, &actor, &partner);

    static const uint8_t head[] = {
        0x01, 0x80, 0xc2, 0x00, 0x00, 0x02,     /* dst */
        0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee,     /* src */
        0x88, 0x09,                             /* slow protocols */
        0x01, 0x01,                             /* LACP, version 1 */
        0x01, 0x14, 0x12, 0x34, 1, 2, 3, 4, 5, 6,
        0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x3d, 0, 0, 0,
        0x02, 0x14, 0x12, 0x34, 0x0b, 2, 3, 4, 5, 6,
        0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x47, 0, 0, 0,
        0x03, 0x10, 0x00, 0x00,
    };
    ck_assert_mem_eq(frame, head, sizeof head);
    for (size_t i = sizeof head; i < sizeof frame; i++) {
        ck_assert_uint_eq(frame[i], 0);
    }

    struct lacp_info a2, p2;
    ck_assert_int_eq(lacp_pdu_parse(frame, sizeof frame, &a2, &p2),
                     LACP_PDU_LACP);
    ck_assert(lacp_info_equal(&a2, &actor));
    ck_assert(lacp_info_equal(&p2, &partner));

    /* Recognition: by Ethernet type only. */
    struct flow flow;
    struct flow_wildcards wc;
    memset(&flow, 0, sizeof flow);
    memset(&wc, 0, sizeof wc);
    flow.dl_type = htons(0x0800);
    ck_assert(!lacp_recognizes(&flow, &wc));
    ck_assert(wc.masks.dl_type == htons(0xffff));
    flow.dl_type = htons(0x8809);
    ck_assert(lacp_recognizes(&flow, NULL));

    struct ds ds = DS_EMPTY_INITIALIZER;
    lacp_state_format(&ds, 0xff);
    ck_assert_str_eq(ds_cstr(&ds), " activity timeout aggregation "
                     "synchronized collecting distributing defaulted "
                     "expired");
    ds_destroy(&ds);
    ck_assert_str_eq(lacp_status_description(LACP_NEGOTIATED),
                     "negotiated");
    ck_assert_str_eq(lacp_status_description(LACP_CONFIGURED),
                     "configured");
    ck_assert_str_eq(lacp_status_description(LACP_DISABLED), "off");
    ck_assert_int_eq(lacp_status(NULL), LACP_DISABLED);
    ck_assert(lacp_member_may_enable(NULL, &flow));
}
END_TEST

static void
ignore_send(void *member_aux, const void *frame, size_t len, void *aux)
{
    int *n = aux;
    (*n)++;
}

/* The state of lacp.at's "lacp - config": one interface p1 with
 * lacp=active and defaults, 300 ms after start. */
START_TEST(test_show_config)
{
    struct lacp *lacp = lacp_create();
    struct lacp_settings s = {
        .name = "p1",
        .id = { { 0xaa, 0x55, 0xaa, 0x55, 0x00, 0x00 } },
        .priority = 65535,
        .active = true,
    };
    ck_assert(lacp_configure(lacp, &s));
    int member;
    struct lacp_member_settings ms = {
        .name = "p1", .id = 1, .priority = 65535, .key = 0,
        .mac = { { 0xaa, 0x55, 0xaa, 0x55, 0x00, 0x00 } },
    };
    lacp_member_register(lacp, &member, &ms);
    lacp_member_carrier_changed(lacp, &member, true);
    int n_sent = 0;
    long long int next = lacp_run(lacp, time_msec(), ignore_send, &n_sent);
    ck_assert_int_eq(n_sent, 1);
    ck_assert_int_eq(next, time_msec() + 1000);   /* Expiry's fast probe. */
    time_warp(300);
    lacp_run(lacp, time_msec(), ignore_send, &n_sent);
    ck_assert_int_eq(n_sent, 1);

    static const char expected[] =
        "---- p1 ----\n"
        "  status: active negotiated\n"
        "  sys_id: aa:55:aa:55:00:00\n"
        "  sys_priority: 65535\n"
        "  aggregation key: 1\n"
        "  lacp_time: slow\n"
        "\n"
        "member: p1: expired attached\n"
        "  port_id: 1\n"
        "  port_priority: 65535\n"
        "  may_enable: false\n"
        "\n"
        "  actor sys_id: aa:55:aa:55:00:00\n"
        "  actor sys_priority: 65535\n"
        "  actor port_id: 1\n"
        "  actor port_priority: 65535\n"
        "  actor key: 1\n"
        "  actor state: activity synchronized collecting distributing "
        "expired\n"
        "\n"
        "  partner sys_id: 00:00:00:00:00:00\n"
        "  partner sys_priority: 0\n"
        "  partner port_id: 0\n"
        "  partner port_priority: 0\n"
        "  partner key: 0\n"
        "  partner state: timeout\n";
    struct ds ds = DS_EMPTY_INITIALIZER;
    ck_assert(lacp_show(&ds, "p1"));
    ck_assert_str_eq(ds_cstr(&ds), expected);
    ds_clear(&ds);
    ck_assert(lacp_show(&ds, NULL));
    ck_assert_str_eq(ds_cstr(&ds), expected);
    ds_clear(&ds);
    ck_assert(!lacp_show(&ds, "nonexistent"));
    ck_assert(!lacp_show_stats(&ds, "nonexistent"));
    ck_assert_str_eq(ds_cstr(&ds), "");

    ck_assert(lacp_show_stats(&ds, "p1"));
    ck_assert_str_eq(ds_cstr(&ds),
        "---- p1 statistics ----\n"
        "\n"
        "member: p1:\n"
        "  TX PDUs: 1\n"
        "  RX PDUs: 0\n"
        "  RX Bad PDUs: 0\n"
        "  RX Marker Request PDUs: 0\n"
        "  Link Expired: 0\n"
        "  Link Defaulted: 0\n"
        "  Carrier Status Changed: 1\n");
    ds_destroy(&ds);

    /* 3 s without a partner: defaulted, nothing negotiated. */
    time_warp(3000);
    lacp_run(lacp, time_msec(), ignore_send, &n_sent);
    ck_assert_int_eq(lacp_status(lacp), LACP_CONFIGURED);
    ds_init(&ds);
    ck_assert(lacp_show(&ds, "p1"));
    ck_assert_ptr_nonnull(strstr(ds_cstr(&ds),
        "  status: active\n"));
    ck_assert_ptr_nonnull(strstr(ds_cstr(&ds),
        "member: p1: defaulted detached\n"));
    ck_assert_ptr_nonnull(strstr(ds_cstr(&ds),
        "  actor state: activity collecting distributing defaulted\n"));
    ck_assert_ptr_nonnull(strstr(ds_cstr(&ds), "  partner state:\n"));
    ds_destroy(&ds);

    /* Unregistering the key member leaves "none". */
    lacp_member_unregister(lacp, &member);
    ds_init(&ds);
    ck_assert(lacp_show(&ds, "p1"));
    ck_assert_ptr_nonnull(strstr(ds_cstr(&ds), "  aggregation key: none\n"));
    ds_destroy(&ds);
    lacp_unref(lacp);
}
END_TEST

START_TEST(test_invalid_settings_and_refs)
{
    struct lacp *lacp = lacp_create();
    struct lacp_settings s = settings("bondx", 0, true, false);
    s.id = (struct eth_addr) { { 0 } };
    ck_assert(!lacp_configure(lacp, &s));
    s.name = NULL;
    ck_assert(!lacp_configure(lacp, &s));
    /* Unconfigured: invisible, nothing to run. */
    struct ds ds = DS_EMPTY_INITIALIZER;
    ck_assert(!lacp_show(&ds, "bondx"));
    ck_assert(lacp_show(&ds, NULL));
    ck_assert_str_eq(ds_cstr(&ds), "");
    ck_assert_int_eq(lacp_next_deadline(lacp), LLONG_MAX);

    /* A rename moves it in the registry. */
    s = settings("bondx", 9, true, false);
    ck_assert(lacp_configure(lacp, &s));
    ck_assert(lacp_show(&ds, "bondx"));
    s.name = "bondy";
    ck_assert(lacp_configure(lacp, &s));
    ck_assert(!lacp_show(&ds, "bondx"));
    ck_assert(lacp_show(&ds, "bondy"));
    ds_destroy(&ds);
    ck_assert(lacp_is_active(lacp));

    ck_assert_ptr_eq(lacp_ref(lacp), lacp);
    lacp_unref(lacp);
    ck_assert(lacp_is_active(lacp));    /* Still alive. */
    lacp_unref(lacp);
    lacp_unref(NULL);
}
END_TEST

/* Receive, run and status queries on three threads at once, as handlers,
 * the monitor and the main thread would: nothing is lost or torn. */
struct hammer {
    struct side *side;
    const uint8_t *frame;
    int n;
    int n_sent;
};

static void
count_send_atomic(void *member_aux, const void *frame, size_t len, void *aux)
{
    struct hammer *h = aux;
    __atomic_add_fetch(&h->n_sent, 1, __ATOMIC_RELAXED);
}

static void *
hammer_receive(void *h_)
{
    struct hammer *h = h_;
    uint8_t garbage[20] = { 0 };
    for (int i = 0; i < h->n; i++) {
        lacp_process_packet(h->side->lacp, &h->side->handles[0], h->frame,
                            LACP_FRAME_LEN);
        lacp_process_packet(h->side->lacp, &h->side->handles[0], garbage,
                            sizeof garbage);
    }
    return NULL;
}

static void *
hammer_run(void *h_)
{
    struct hammer *h = h_;
    for (int i = 0; i < h->n; i++) {
        lacp_run(h->side->lacp, time_msec(), count_send_atomic, h);
        lacp_member_carrier_changed(h->side->lacp, &h->side->handles[1],
                                    i % 2);
    }
    return NULL;
}

START_TEST(test_threads)
{
    struct wire w;
    negotiated_pair(&w, true, true);
    struct side *a = &w.sides[0];
    uint8_t frame[LACP_FRAME_LEN];
    memcpy(frame, w.sides[1].last_frame[0], sizeof frame);
    struct lacp_member_stats before = stats(a, 0);

    struct hammer h = { .side = a, .frame = frame,
                        .n = (int) check_iterations(20000, 50) };
    pthread_t rx = ovs_thread_create("lacp-rx", hammer_receive, &h);
    pthread_t run = ovs_thread_create("lacp-run", hammer_run, &h);
    for (int i = 0; i < 200; i++) {
        struct ds ds = DS_EMPTY_INITIALIZER;
        ck_assert(lacp_show(&ds, "bond0"));
        ck_assert(lacp_show_stats(&ds, NULL));
        ds_destroy(&ds);
        void **auxes;
        lacp_take_changed_members(a->lacp, &auxes);
        free(auxes);
        (void) lacp_status(a->lacp);
        (void) lacp_member_may_enable(a->lacp, &a->handles[1]);
    }
    xpthread_join(rx, NULL);
    xpthread_join(run, NULL);

    struct lacp_member_stats after = stats(a, 0);
    ck_assert_uint_eq(after.rx_pdus, before.rx_pdus + 2 * h.n);
    ck_assert_uint_eq(after.rx_errors, before.rx_errors + h.n);
    ck_assert(after.current && after.may_enable);
    ck_assert_uint_eq(stats(a, 1).carrier_changed, 1 + h.n);
    wire_destroy(&w);
}
END_TEST

static Suite *
lacp_suite(void)
{
    Suite *s = suite_create("lacp");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_negotiation);
    tcase_add_test(tc, test_silence_expires_then_defaults);
    tcase_add_test(tc, test_fast_and_slow_rates);
    tcase_add_test(tc, test_passive);
    tcase_add_test(tc, test_fallback_ab);
    tcase_add_test(tc, test_loopback);
    tcase_add_test(tc, test_change_reporting);
    tcase_add_test(tc, test_malformed_pdus);
    tcase_add_test(tc, test_carrier);
    tcase_add_test(tc, test_pdu_bytes);
    tcase_add_test(tc, test_show_config);
    tcase_add_test(tc, test_invalid_settings_and_refs);
    tcase_add_test(tc, test_threads);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(lacp_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
