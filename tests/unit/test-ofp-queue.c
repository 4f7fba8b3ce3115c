/* Unit tests for ofp-queue.h: queue statistics, queue get-config and
 * queue desc.
 *
 * The requests are the bytes Open vSwitch 3.1's ovs-ofctl sends for
 * queue-stats and queue-get-config; the replies were built by hand; every
 * text is what 3.1's "ovs-ofctl ofp-print" prints for those bytes. */
#include <config.h>
#include "ofp-queue.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "check-ofp.h"
#include "list.h"
#include "ofp-msgs.h"
#include "ofp-port.h"
#include "ofpbuf.h"
#include "openflow.h"

/* Appends QUEUES (N of them) to the reply to REQUEST_HEX and returns the
 * one reply message. */
static struct ofpbuf *
make_config_reply(const char *request_hex,
                  const struct ofputil_queue_config *queues, size_t n)
{
    struct ofpbuf *rq = check_ofp_from_hex(request_hex);
    struct ovs_list replies;
    ofputil_start_queue_get_config_reply(rq->data, &replies);
    for (size_t i = 0; i < n; i++) {
        ofputil_append_queue_get_config_reply(&queues[i], &replies);
    }
    ck_assert_uint_eq(ovs_list_size(&replies), 1);
    ofpbuf_delete(rq);
    return ofpbuf_from_list(ovs_list_pop_front(&replies));
}

START_TEST(test_queue_stats)
{
    struct ofputil_queue_stats_request rq = {
        .port_no = OFPP_ANY, .queue_id = OFPQ_ALL,
    };
    set_next_xid(2);
    /* 1.0 says "every port" with OFPP_ALL. */
    check_ofp_msg(ofputil_encode_queue_stats_request(OFP10_VERSION, &rq),
                  "011000140000000200050000fffc0000ffffffff",
                  "OFPST_QUEUE request (xid=0x2): port=ANY queue=ALL\n");
    rq.port_no = OFPP_LOCAL;
    rq.queue_id = 0;
    set_next_xid(2);
    check_ofp_msg(ofputil_encode_queue_stats_request(OFP13_VERSION, &rq),
                  "04120018000000020005000000000000fffffffe00000000",
                  "OFPST_QUEUE request (OF1.3) (xid=0x2): port=LOCAL "
                  "queue=0\n");

    /* A reply with unknown counters and one with a duration. */
    struct ofpbuf *request = check_ofp_from_hex(
        "04120018000000010005000000000000ffffffffffffffff");
    struct ovs_list replies;
    ofpmp_init(&replies, request->data);
    struct ofputil_queue_stats qs = {
        .port_no = 1, .queue_id = 0,
        .tx_bytes = UINT64_MAX, .tx_packets = UINT64_MAX,
        .tx_errors = UINT64_MAX,
        .duration_sec = UINT32_MAX, .duration_nsec = UINT32_MAX,
    };
    ofputil_append_queue_stat(&replies, &qs);
    qs = (struct ofputil_queue_stats) {
        .port_no = OFPP_LOCAL, .queue_id = 0,
        .tx_bytes = 100, .tx_packets = 2, .tx_errors = 0,
        .duration_sec = 5, .duration_nsec = 500000000,
    };
    ofputil_append_queue_stat(&replies, &qs);
    check_ofp_msg(ofpbuf_from_list(ovs_list_pop_front(&replies)),
                  "041300600000000100050000000000000000000100000000ffff"
                  "ffffffffffffffffffffffffffffffffffffffffffffffffffff"
                  "fffffffffffffffe000000000000000000000064000000000000"
                  "00020000000000000000000000051dcd6500",
                  "OFPST_QUEUE reply (OF1.3) (xid=0x1): 2 queues\n"
                  "  port 1 queue 0: bytes=?, pkts=?, errors=?, "
                  "duration=?\n"
                  "  port LOCAL queue 0: bytes=100, pkts=2, errors=0, "
                  "duration=5.500s\n");
    ofpbuf_delete(request);
}
END_TEST

START_TEST(test_queue_config)
{
    /* Requests: 1.0 for one port, 1.2 for any, 1.4 a queue desc. */
    set_next_xid(2);
    check_ofp_msg(ofputil_encode_queue_get_config_request(OFP10_VERSION, 1,
                                                          OFPQ_ALL),
                  "0114000c0000000200010000",
                  "OFPT_QUEUE_GET_CONFIG_REQUEST (xid=0x2): port=1\n");
    set_next_xid(2);
    check_ofp_msg(ofputil_encode_queue_get_config_request(OFP12_VERSION,
                                                          OFPP_ANY, OFPQ_ALL),
                  "0316001000000002ffffffff00000000",
                  "OFPT_QUEUE_GET_CONFIG_REQUEST (OF1.2) (xid=0x2): "
                  "port=ANY\n");
    set_next_xid(2);
    check_ofp_msg(ofputil_encode_queue_get_config_request(OFP14_VERSION, 1,
                                                          OFPQ_ALL),
                  "0512001800000002000f00000000000000000001ffffffff",
                  "OFPST_QUEUE_DESC request (OF1.4) (xid=0x2): port=1\n");

    /* 1.0 reports no reserved port (3.1's error). */
    uint32_t port, queue;
    struct ofpbuf *b = check_ofp_from_hex("0114000c00000002fffe0000");
    ck_assert_int_eq(ofputil_decode_queue_get_config_request(b->data, &port,
                                                             &queue),
                     OFPERR_OFPQOFC_BAD_PORT);
    ofpbuf_delete(b);

    /* Replies, with rates in tenths of a percent. */
    const struct ofputil_queue_config min50 = {
        .port = 1, .queue = 0, .min_rate = 500,
        .max_rate = OFPUTIL_QUEUE_RATE_NONE,
    };
    check_ofp_msg(make_config_reply("0114000c0000000100010000", &min50, 1),
                  "0115002800000001000100000000000000000000001800000001"
                  "00100000000001f4000000000000",
                  "OFPT_QUEUE_GET_CONFIG_REPLY (xid=0x1): port=1\n"
                  "queue 0: min_rate:50.0%\n");
    const struct ofputil_queue_config any12[] = {
        { .port = 1, .queue = 0, .min_rate = OFPUTIL_QUEUE_RATE_NONE,
          .max_rate = OFPUTIL_QUEUE_RATE_NONE },
        { .port = OFPP_LOCAL, .queue = 0,
          .min_rate = OFPUTIL_QUEUE_RATE_NONE, .max_rate = 800 },
    };
    check_ofp_msg(make_config_reply("0316001000000001ffffffff00000000",
                                    any12, 2),
                  "0317004000000001ffffffff0000000000000000000000010010"
                  "00000000000000000000fffffffe002000000000000000020010"
                  "000000000320000000000000",
                  "OFPT_QUEUE_GET_CONFIG_REPLY (OF1.2) (xid=0x1): port=ANY\n"
                  "queue 0:\n"
                  "queue 0: max_rate:80.0%\n");
    const struct ofputil_queue_config desc[] = {
        { .port = 1, .queue = 0, .min_rate = 500, .max_rate = 1000 },
        { .port = OFPP_LOCAL, .queue = 0,
          .min_rate = OFPUTIL_QUEUE_RATE_NONE,
          .max_rate = OFPUTIL_QUEUE_RATE_NONE },
    };
    struct ofpbuf *rq = check_ofp_from_hex(
        "0512001800000001000f000000000000ffffffffffffffff");
    struct ovs_list replies;
    ofputil_start_queue_get_config_reply(rq->data, &replies);
    for (size_t i = 0; i < 2; i++) {
        ofputil_append_queue_get_config_reply(&desc[i], &replies);
    }
    check_ofp_msg(ofpbuf_from_list(ovs_list_pop_front(&replies)),
                  "0513004000000001000f00000000000000000001000000000020"
                  "0000000000000001000801f400000002000803e80000fffffffe"
                  "000000000010000000000000",
                  "OFPST_QUEUE_DESC reply (OF1.4) (xid=0x1): port=1\n"
                  "queue 0: min_rate:50.0% max_rate:100.0%\n"
                  "port=LOCAL\n"
                  "queue 0:\n");
    ofpbuf_delete(rq);

    /* Decoding gives the queues back. */
    b = check_ofp_from_hex(
        "0513004000000001000f0000000000000000000100000000"
        "00200000000000000001000801f400000002000803e80000"
        "fffffffe000000000010000000000000");
    struct ofputil_queue_config qc;
    ck_assert_int_eq(ofputil_pull_queue_get_config_reply(b, &qc), 0);
    ck_assert_uint_eq(qc.port, 1);
    ck_assert_uint_eq(qc.min_rate, 500);
    ck_assert_uint_eq(qc.max_rate, 1000);
    ck_assert_int_eq(ofputil_pull_queue_get_config_reply(b, &qc), 0);
    ck_assert_uint_eq(qc.port, OFPP_LOCAL);
    ck_assert_uint_eq(qc.min_rate, OFPUTIL_QUEUE_RATE_NONE);
    ck_assert_int_eq(ofputil_pull_queue_get_config_reply(b, &qc), EOF);
    ofpbuf_delete(b);
}
END_TEST

static Suite *
ofp_queue_suite(void)
{
    Suite *s = suite_create("ofp-queue");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_queue_stats);
    tcase_add_test(tc, test_queue_config);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(ofp_queue_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
