/* Unit tests for ofproto/pinsched.h: the token bucket, the per-port queues
 * taken in turn, the drop policy and the counters, on a stopped clock. */
#include <config.h>
#include "ofproto/pinsched.h"

#include <check.h>
#include <stdlib.h>
#include "ofpbuf.h"
#include "timeval.h"

/* A message that says which port it came from and its sequence. */
static struct ofpbuf *
make_msg(uint32_t port, uint32_t seq)
{
    struct ofpbuf *b = ofpbuf_new(8);
    ofpbuf_put(b, &port, sizeof port);
    ofpbuf_put(b, &seq, sizeof seq);
    return b;
}

static void
msg_get(const struct ofpbuf *b, uint32_t *port, uint32_t *seq)
{
    memcpy(port, b->data, sizeof *port);
    memcpy(seq, (const char *) b->data + sizeof *port, sizeof *seq);
}

/* Frees TXQ's messages; returns how many there were. */
static size_t
txq_drain(struct ovs_list *txq, uint32_t ports[], uint32_t seqs[])
{
    size_t n = 0;
    struct ofpbuf *b;
    LIST_FOR_EACH_POP (b, list_node, txq) {
        uint32_t port, seq;
        msg_get(b, &port, &seq);
        if (ports) {
            ports[n] = port;
            seqs[n] = seq;
        }
        n++;
        ofpbuf_delete(b);
    }
    return n;
}

START_TEST(test_burst_then_rate)
{
    time_stop();
    struct pinsched *ps = pinsched_create(100, 25);
    struct ovs_list txq = OVS_LIST_INITIALIZER(&txq);
    for (uint32_t i = 0; i < 60; i++) {
        pinsched_send(ps, 1, make_msg(1, i), &txq);
    }
    /* The burst goes at once, 25 wait, the 10 oldest waiting dropped. */
    ck_assert_uint_eq(txq_drain(&txq, NULL, NULL), 25);
    struct pinsched_stats st;
    pinsched_get_stats(ps, &st);
    ck_assert_uint_eq(st.n_bypassed, 25);
    ck_assert_uint_eq(st.n_queued, 35);
    ck_assert_uint_eq(st.n_dropped, 10);
    ck_assert_uint_eq(st.n_backlog, 25);

    /* No time, no tokens. */
    pinsched_run(ps, &txq);
    ck_assert_uint_eq(txq_drain(&txq, NULL, NULL), 0);
    /* 100 packets per second: 10 in 100 ms, the oldest survivors first. */
    time_warp(100);
    pinsched_run(ps, &txq);
    uint32_t ports[64], seqs[64];
    ck_assert_uint_eq(txq_drain(&txq, ports, seqs), 10);
    ck_assert_uint_eq(seqs[0], 35);
    ck_assert_uint_eq(seqs[9], 44);
    time_warp(10000);
    pinsched_run(ps, &txq);
    ck_assert_uint_eq(txq_drain(&txq, NULL, NULL), 15);
    pinsched_get_stats(ps, &st);
    ck_assert_uint_eq(st.n_backlog, 0);

    /* Idle long enough, the bucket is full again, and no fuller. */
    time_warp(10000);
    for (uint32_t i = 0; i < 30; i++) {
        pinsched_send(ps, 1, make_msg(1, i), &txq);
    }
    ck_assert_uint_eq(txq_drain(&txq, NULL, NULL), 25);
    pinsched_destroy(ps);
}
END_TEST

START_TEST(test_ports_take_turns)
{
    time_stop();
    struct pinsched *ps = pinsched_create(1000, 10);
    struct ovs_list txq = OVS_LIST_INITIALIZER(&txq);
    /* Spend the burst, then queue 6 from port 1 and 3 from port 2. */
    for (uint32_t i = 0; i < 10; i++) {
        pinsched_send(ps, 9, make_msg(9, i), &txq);
    }
    ck_assert_uint_eq(txq_drain(&txq, NULL, NULL), 10);
    for (uint32_t i = 0; i < 6; i++) {
        pinsched_send(ps, 1, make_msg(1, i), &txq);
    }
    for (uint32_t i = 0; i < 3; i++) {
        pinsched_send(ps, 2, make_msg(2, i), &txq);
    }
    ck_assert_uint_eq(txq_drain(&txq, NULL, NULL), 0);
    time_warp(6);
    pinsched_run(ps, &txq);
    uint32_t ports[16], seqs[16];
    ck_assert_uint_eq(txq_drain(&txq, ports, seqs), 6);
    static const uint32_t want_ports[] = { 1, 2, 1, 2, 1, 2 };
    static const uint32_t want_seqs[] = { 0, 0, 1, 1, 2, 2 };
    for (int i = 0; i < 6; i++) {
        ck_assert_uint_eq(ports[i], want_ports[i]);
        ck_assert_uint_eq(seqs[i], want_seqs[i]);
    }
    /* A full queue drops the oldest message of the longest queue: port
     * 3's own first (7 waiting there, 3 on port 1). */
    for (uint32_t i = 0; i < 8; i++) {
        pinsched_send(ps, 3, make_msg(3, i), &txq);
    }
    struct pinsched_stats st;
    pinsched_get_stats(ps, &st);
    ck_assert_uint_eq(st.n_backlog, 10);
    ck_assert_uint_eq(st.n_dropped, 1);
    /* Flushing forgets the queue, not the counters. */
    pinsched_flush(ps);
    pinsched_get_stats(ps, &st);
    ck_assert_uint_eq(st.n_backlog, 0);
    ck_assert_uint_eq(st.n_queued, 17);
    pinsched_destroy(ps);
}
END_TEST

START_TEST(test_defaults)
{
    time_stop();
    /* No rate: 1000 per second; no burst: a quarter of the rate. */
    struct pinsched *ps = pinsched_create(0, 0);
    struct ovs_list txq = OVS_LIST_INITIALIZER(&txq);
    for (uint32_t i = 0; i < 300; i++) {
        pinsched_send(ps, 1, make_msg(1, i), &txq);
    }
    ck_assert_uint_eq(txq_drain(&txq, NULL, NULL), 250);
    /* Lowering the limits keeps the waiting messages. */
    pinsched_set_limits(ps, 100, 5);
    struct pinsched_stats st;
    pinsched_get_stats(ps, &st);
    ck_assert_uint_eq(st.n_backlog, 50);
    time_warp(1000);
    pinsched_run(ps, &txq);
    /* Only the burst's worth of tokens accumulates. */
    ck_assert_uint_eq(txq_drain(&txq, NULL, NULL), 5);
    pinsched_destroy(ps);
}
END_TEST

static Suite *
pinsched_suite(void)
{
    Suite *s = suite_create("pinsched");
    TCase *tc = tcase_create("pinsched");
    tcase_add_test(tc, test_burst_then_rate);
    tcase_add_test(tc, test_ports_take_turns);
    tcase_add_test(tc, test_defaults);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(pinsched_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
