/* Unit tests for ofp-ct.h: the connection tracking flush requests.
 *
 * The texts and errors are what Open vSwitch 3.1's "ovs-ofctl ct-flush"
 * prints and sends for the same arguments (its decoding of our messages
 * was checked against its switch; the wire forms are in the ofp-print
 * corpus).  Here: text -> message -> decode -> text is a fixed point, and
 * bad text or bodies give 3.1's errors. */
#include <config.h>
#include "ofp-ct.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include "dynamic-string.h"
#include "ofp-msgs.h"
#include "ofpbuf.h"

static void
round_trip(const char *orig, const char *reply, const uint16_t *zone,
           const char *text)
{
    struct ofputil_ct_match m;
    memset(&m, 0, sizeof m);
    if (orig) {
        char *error = ofputil_ct_tuple_parse(&m.orig, orig, &m.ip_proto,
                                             &m.l3_type);
        ck_assert_msg(!error, "%s", error);
    }
    if (reply) {
        char *error = ofputil_ct_tuple_parse(&m.reply, reply, &m.ip_proto,
                                             &m.l3_type);
        ck_assert_msg(!error, "%s", error);
    }
    struct ofpbuf *msg = ofputil_encode_ct_flush(&m, zone, OFP10_VERSION);
    struct ofputil_ct_match d;
    bool with_zone;
    uint16_t z;
    ck_assert_int_eq(ofputil_decode_ct_flush(msg->data, &d, &with_zone, &z),
                     0);
    ck_assert(with_zone == (zone != NULL));
    ck_assert_uint_eq(z, zone ? *zone : 0);
    struct ds s = DS_EMPTY_INITIALIZER;
    ofputil_ct_match_format(&s, &d);
    ck_assert_str_eq(ds_cstr(&s), text);
    ds_destroy(&s);
    ofpbuf_delete(msg);
}

START_TEST(test_ct_flush_round_trip)
{
    uint16_t zone = 5;
    round_trip("ct_nw_src=10.1.1.1,ct_nw_dst=10.1.1.2,ct_nw_proto=17,"
               "ct_tp_src=1", NULL, &zone,
               "'ct_nw_src=10.1.1.1,ct_nw_dst=10.1.1.2,ct_tp_src=1,"
               "ct_tp_dst=0,ct_nw_proto=17' 'ct_nw_src=::,ct_nw_dst=::,"
               "ct_tp_src=0,ct_tp_dst=0'");
    round_trip(NULL, "ct_nw_src=10.1.1.3,ct_nw_dst=10.1.1.4,"
               "ct_nw_proto=17,ct_tp_src=1", NULL,
               "'ct_nw_src=::,ct_nw_dst=::,ct_tp_src=0,ct_tp_dst=0,"
               "ct_nw_proto=17' 'ct_nw_src=10.1.1.3,ct_nw_dst=10.1.1.4,"
               "ct_tp_src=1,ct_tp_dst=0'");
    round_trip("ct_ipv6_src=fd18::1,ct_nw_proto=58,icmp_id=7,icmp_type=128",
               NULL, NULL,
               "'ct_ipv6_src=fd18::1,ct_ipv6_dst=::,icmp_id=7,icmp_type=128,"
               "icmp_code=0,ct_nw_proto=58' 'ct_ipv6_src=::,ct_ipv6_dst=::,"
               "icmp_id=0,icmp_type=0,icmp_code=0'");
    round_trip(NULL, NULL, NULL,
               "'ct_ipv6_src=::,ct_ipv6_dst=::,ct_tp_src=0,ct_tp_dst=0,"
               "ct_nw_proto=0' 'ct_ipv6_src=::,ct_ipv6_dst=::,ct_tp_src=0,"
               "ct_tp_dst=0'");
}
END_TEST

START_TEST(test_ct_tuple_errors)
{
    static const struct {
        const char *text, *error;
    } cases[] = {
        { "foo=1", "invalid conntrack tuple field: foo" },
        { "ct_nw_src=1.2.3.4,ct_ipv6_dst=::1",
          "the L3 protocol does not match ::1" },
        { "ct_tp_src=5", "port is set without protocol" },
        { "ct_nw_src", "field ct_nw_src missing value" },
        { "ct_nw_src=1.2.3.4,ct_nw_src=1.2.3.5",
          "ct_nw_src is set multiple times" },
        { "ct_nw_src=1.2.3", "failed to parse field ct_nw_src" },
        { "ct_nw_proto=6,ct_nw_proto=x",
          "ct_nw_proto is set multiple timesfailed to parse field "
          "ct_nw_proto" },
        { "icmp_id=5", "invalid L4 fields" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ofputil_ct_tuple t;
        memset(&t, 0, sizeof t);
        uint8_t ip_proto = 0;
        uint16_t l3_type = 0;
        char *error = ofputil_ct_tuple_parse(&t, cases[i].text, &ip_proto,
                                             &l3_type);
        ck_assert_msg(error, "%s parsed", cases[i].text);
        ck_assert_str_eq(error, cases[i].error);
        free(error);
    }
}
END_TEST

START_TEST(test_ct_flush_zone)
{
    struct ofpbuf *msg = ofputil_encode_ct_flush_zone(123, OFP13_VERSION);
    uint16_t zone;
    ck_assert_int_eq(ofputil_decode_ct_flush_zone(msg->data, &zone), 0);
    ck_assert_uint_eq(zone, 123);
    /* Nonzero padding is refused, as 3.1's switch refuses it. */
    ((uint8_t *) msg->msg)[0] = 1;
    ck_assert_int_eq(ofputil_decode_ct_flush_zone(msg->data, &zone),
                     OFPERR_NXBRC_MUST_BE_ZERO);
    ofpbuf_delete(msg);
}
END_TEST

static Suite *
ofp_ct_suite(void)
{
    Suite *s = suite_create("ofp-ct");
    TCase *tc = tcase_create("ofp-ct");
    tcase_add_test(tc, test_ct_flush_round_trip);
    tcase_add_test(tc, test_ct_tuple_errors);
    tcase_add_test(tc, test_ct_flush_zone);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(ofp_ct_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
