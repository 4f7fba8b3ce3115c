/* Unit tests for ofp-monitor.h: flow monitor requests, updates, cancel,
 * pause and resume, and the watch: syntax of ofp-parse.h.
 *
 * The messages were captured between Open vSwitch 3.1's "ovs-ofctl
 * monitor ... watch:" and its ovs-vswitchd in OpenFlow 1.0, 1.1, 1.3
 * (ONF's extension) and 1.4; their text is in the ofp-print corpus.
 * Here: decoding and re-encoding each gives back its bytes, and malformed
 * ones give 3.1's errors. */
#include <config.h>
#include "ofp-monitor.h"

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check-ofp.h"
#include "check-util.h"
#include "dynamic-string.h"
#include "list.h"
#include "ofp-actions.h"
#include "ofp-msgs.h"
#include "ofp-parse.h"
#include "ofp-port.h"
#include "ofpbuf.h"

static const char *const requests[] = {
    /* 1.0: watch:table=0,ip and watch:!initial,!own. */
    "0110003000000006ffff000000002320000000020000000000000000003fffff"
    "00060000000000000000060208000000",
    "0110002800000007ffff000000002320000000020000000000000001001effff"
    "0000ff0000000000",
    /* 1.1 (Nicira form, 1.1 stats header). */
    "0212003000000006ffff00000000000000002320000000020000000000"
    "3fffff00060000000000000000060208000000",
    /* 1.3: ONF 1870 with OXM. */
    "0412003800000006ffff0000000000004f4e46000000074e00000000003f000a"
    "ffffffff000000000001000a80000a020800000000000000",
    "0412003000000007ffff0000000000004f4e46000000074e00000001001e0004"
    "00000002ff0000000001000400000000",
    /* 1.4: OFPMP_FLOW_MONITOR, own as 0x40, command modify. */
    "0512003000000006001000000000000000000000ffffffffffffffff005f0000"
    "0001000a80000a020800000000000000",
    "0512002800000006001000000000000000000001000000030000000700030101"
    "0001000400000000",
};

static const char *const replies[] = {
    /* 1.0: initial dump, an add with idle timeout and cookie, a modify
     * without actions, a delete, an idle expiry, an abbreviation. */
    "0111004000000006ffff00000000232000000002000000000028000000000005"
    "0000000000060000000000000000000000000602080000000000000800010000",
    "0111004800000000ffff00000000232000000002000000000030000000000007"
    "003c0000000b0000000000000000001200000602080000000c01060000000000"
    "0000000800020000",
    "0111004000000000ffff00000000232000000002000000000028000200000007"
    "003c0000000b0000000000000000000000000602080000000c01060000000000",
    "0111004000000000ffff00000000232000000002000000000028000100020007"
    "003c0000000b0000000000000000000000000602080000000c01060000000000",
    "0111002000000000ffff00000000232000000002000000000008000300000055",
    /* 1.1 with 1.1 actions. */
    "0213004800000006ffff00000000000000002320000000020030000000000005"
    "0000000000060000000000000000000000000602080000000000001000000001"
    "0000000000000000",
    /* 1.3: OXM and instructions; abbreviation. */
    "0413005800000006ffff0000000000004f4e46000000074e0040000000000005"
    "00000000000a000000000000000000000001000a80000a020800000000000000"
    "000400180000000000000010000000010000000000000000",
    "0413002000000000ffff0000000000004f4e46000000074e0008000300000055",
    /* 1.4: initial, added, modified, removed, abbrev, paused, resumed. */
    "0513005000000006001000000000000000400000000000000000000500000000"
    "00000000000000000001000a80000a0208000000000000000004001800000000"
    "00000010000000010000000000000000",
    "05130050000000000010000000000000004000010000003c0000000700000000"
    "00000000000000120001000f80000a0208008000140106000004001800000000"
    "00000010000000020000000000000000",
    "05130038000000000010000000000000002800030000003c0000000700000000"
    "00000000000000000001000f80000a020800800014010600",
    "05130038000000000010000000000000002800020002003c0000000700000000"
    "00000000000000000001000f80000a020800800014010600",
    "051300180000000000100000000000000008000400000055",
    "051300180000000000100000000000000008000500000000",
    "051300180000000000100000000000000008000600000000",
};

static void
check_bytes(const struct ofpbuf *b, const char *hex)
{
    struct ofpbuf *want = check_ofp_from_hex(hex);
    struct ds got = DS_EMPTY_INITIALIZER, exp = DS_EMPTY_INITIALIZER;
    for (size_t i = 0; i < b->size; i++) {
        ds_put_format(&got, "%02x", ((const uint8_t *) b->data)[i]);
    }
    for (size_t i = 0; i < want->size; i++) {
        ds_put_format(&exp, "%02x", ((const uint8_t *) want->data)[i]);
    }
    ck_assert_str_eq(ds_cstr(&got), ds_cstr(&exp));
    ds_destroy(&got);
    ds_destroy(&exp);
    ofpbuf_delete(want);
}

START_TEST(test_request_round_trip)
{
    struct ofpbuf *msg = check_ofp_from_hex(requests[_i]);
    const struct ofp_header *oh = msg->data;
    struct ofpbuf b;
    ofpbuf_use_const(&b, msg->data, msg->size);
    struct ofpbuf *out = ofpbuf_new(64);
    int n = 0;
    for (;;) {
        struct ofputil_flow_monitor_request rq;
        int retval = ofputil_decode_flow_monitor_request(&rq, &b);
        if (retval == EOF) {
            break;
        }
        ck_assert_int_eq(retval, 0);
        ofputil_append_flow_monitor_request(&rq, out, oh->version);
        n++;
    }
    ck_assert_int_ge(n, 1);
    ((struct ofp_header *) out->data)->xid = oh->xid;
    check_bytes(out, requests[_i]);
    ofpbuf_delete(out);
    ofpbuf_delete(msg);
}
END_TEST

START_TEST(test_reply_round_trip)
{
    struct ofpbuf *msg = check_ofp_from_hex(replies[_i]);
    const struct ofp_header *oh = msg->data;
    struct ofpbuf b;
    ofpbuf_use_const(&b, msg->data, msg->size);
    struct ovs_list out;
    ofputil_start_flow_update_async(&out, oh->version);
    struct ofpbuf ofpacts;
    ofpbuf_init(&ofpacts, 64);
    for (;;) {
        struct ofputil_flow_update u;
        ofpbuf_clear(&ofpacts);
        int retval = ofputil_decode_flow_update(&u, &b, &ofpacts);
        if (retval == EOF) {
            break;
        }
        ck_assert_int_eq(retval, 0);
        if (u.event == OFPFME_ADDED && oh->version < OFP14_VERSION
            && oh->xid) {
            /* Nicira's initial dump says ADDED too. */
            u.event = OFPFME_INITIAL;
        }
        ofputil_append_flow_update(&u, &out);
    }
    ck_assert(ovs_list_is_singleton(&out));
    struct ofpbuf *reply = ofpbuf_from_list(ovs_list_front(&out));
    ((struct ofp_header *) reply->data)->xid = oh->xid;
    check_bytes(reply, replies[_i]);
    ofpbuf_list_delete(&out);
    ofpbuf_uninit(&ofpacts);
    ofpbuf_delete(msg);
}
END_TEST

/* Malformed messages and 3.1's errors. */
static const struct {
    const char *hex;
    bool request;
    enum ofperr error;
} bad[] = {
    /* Unknown flag; no add/delete/modify (initial alone). */
    { "0110002800000006ffff00000000232000000002000000000000000500"
      "40ffff0000ff0000000000", true, OFPERR_OFPMOFC_BAD_FLAGS },
    { "0110002800000006ffff00000000232000000002000000000000000500"
      "01ffff0000ff0000000000", true, OFPERR_OFPMOFC_BAD_FLAGS },
    /* Nonzero padding. */
    { "0110002800000006ffff00000000232000000002000000000000000500"
      "1fffff0000ff0000000100", true, OFPERR_NXBRC_MUST_BE_ZERO },
    /* 1.4: command 3; flag 0x80. */
    { "0512002800000006001000000000000000000001000000030000000700"
      "030103000100040000000000", true, OFPERR_OFPMOFC_BAD_COMMAND },
    { "0512002800000006001000000000000000000001fffffff9ffffffff00"
      "800000000100040000000000", true, OFPERR_OFPMOFC_BAD_FLAGS },
    /* A Nicira event 5; a 1.4 event 7. */
    { "0111002000000000ffff0000000023200000000200000000000800050000"
      "0055", false, OFPERR_NXBRC_FM_BAD_EVENT },
    { "051300180000000000100000000000000008000700000000", false,
      OFPERR_NXBRC_FM_BAD_EVENT },
    /* An update longer than the message; an abbreviation of 16 bytes. */
    { "0111002000000000ffff0000000023200000000200000000003000030000"
      "0055", false, OFPERR_OFPBRC_BAD_LEN },
    { "0111002800000000ffff0000000023200000000200000000001000030000"
      "00550000000000000000", false, OFPERR_OFPBRC_BAD_LEN },
};

START_TEST(test_errors)
{
    struct ofpbuf *msg = check_ofp_from_hex(bad[_i].hex);
    struct ofpbuf b;
    ofpbuf_use_const(&b, msg->data, msg->size);
    int retval;
    if (bad[_i].request) {
        struct ofputil_flow_monitor_request rq;
        retval = ofputil_decode_flow_monitor_request(&rq, &b);
    } else {
        struct ofputil_flow_update u;
        struct ofpbuf ofpacts;
        ofpbuf_init(&ofpacts, 64);
        retval = ofputil_decode_flow_update(&u, &b, &ofpacts);
        ofpbuf_uninit(&ofpacts);
    }
    ck_assert_str_eq(ofperr_get_name(retval), ofperr_get_name(bad[_i].error));
    ofpbuf_delete(msg);
}
END_TEST

START_TEST(test_cancel_pause)
{
    struct ofpbuf *b = ofputil_encode_flow_monitor_cancel(5, OFP10_VERSION);
    ((struct ofp_header *) b->data)->xid = htonl(1);
    check_bytes(b, "0104001400000001000023200000001500000005");
    uint32_t id;
    ck_assert_int_eq(ofputil_decode_flow_monitor_cancel(b->data, &id), 0);
    ck_assert_int_eq(id, 5);
    ofpbuf_delete(b);

    b = ofputil_encode_flow_monitor_cancel(5, OFP13_VERSION);
    ((struct ofp_header *) b->data)->xid = htonl(1);
    check_bytes(b, "04040014000000014f4e46000000074e00000005");
    ofpbuf_delete(b);

    /* 1.4 cancels with a DELETE request. */
    b = ofputil_encode_flow_monitor_cancel(5, OFP14_VERSION);
    struct ofpbuf pull;
    ofpbuf_use_const(&pull, b->data, b->size);
    struct ofputil_flow_monitor_request rq;
    ck_assert_int_eq(ofputil_decode_flow_monitor_request(&rq, &pull), 0);
    ck_assert_int_eq(rq.command, OFPFMC14_DELETE);
    ck_assert_int_eq(rq.id, 5);
    ofpbuf_delete(b);

    b = ofputil_encode_flow_monitor_pause(OFPFME_PAUSED, OFP10_VERSION);
    check_bytes(b, "01040010000000000000232000000016");
    ofpbuf_delete(b);
    b = ofputil_encode_flow_monitor_pause(OFPFME_RESUMED, OFP13_VERSION);
    check_bytes(b, "04040010000000004f4e460000000750");
    ofpbuf_delete(b);
    b = ofputil_encode_flow_monitor_pause(OFPFME_PAUSED, OFP14_VERSION);
    check_bytes(b, "051300180000000000100000000000000008000500000000");
    ofpbuf_delete(b);
}
END_TEST

START_TEST(test_parse)
{
    struct ofputil_flow_monitor_request rq, rq2;
    enum ofputil_protocol usable;
    char *error = parse_flow_monitor_request(&rq, "!initial,!own,table=3,"
                                             "out_port=2,tcp,tp_dst=80",
                                             NULL, NULL, &usable);
    ck_assert_ptr_null(error);
    ck_assert_int_eq(rq.flags, NXFMF_ADD | NXFMF_DELETE | NXFMF_MODIFY
                     | NXFMF_ACTIONS);
    ck_assert_int_eq(rq.table_id, 3);
    ck_assert_int_eq(rq.out_port, 2);
    struct ds s = DS_EMPTY_INITIALIZER;
    ofputil_flow_monitor_request_format(&s, &rq, NULL, NULL);
    ck_assert_str_eq(ds_cstr(&s) + strcspn(ds_cstr(&s), "f"),
                     "flags=add,delete,modify,actions out_port=2 table=3 "
                     "tcp,tp_dst=80");
    ds_destroy(&s);

    /* Ids count up per process. */
    error = parse_flow_monitor_request(&rq2, "", NULL, NULL, &usable);
    ck_assert_ptr_null(error);
    ck_assert_int_eq(rq2.id, rq.id + 1);
    ck_assert_int_eq(rq2.flags, NXFMF_ALL);
    ck_assert_int_eq(rq2.table_id, 0xff);

    static const struct {
        const char *spec, *error;
    } errors[] = {
        { "id=5", "id=5: unknown keyword id" },
        { "table", "table: field table missing value" },
        { "table=foo", "unknown table \"foo\"" },
        { "ip,nw_src=bad", "bad: invalid IP address" },
        { "priority=5", "priority=5: unknown keyword priority" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(errors); i++) {
        error = parse_flow_monitor_request(&rq, errors[i].spec, NULL, NULL,
                                           &usable);
        ck_assert_ptr_nonnull(error);
        ck_assert_str_eq(error, errors[i].error);
        free(error);
    }
}
END_TEST

static Suite *
ofp_monitor_suite(void)
{
    Suite *s = suite_create("ofp-monitor");
    TCase *tc = tcase_create("ofp-monitor");
    tcase_add_loop_test(tc, test_request_round_trip, 0, ARRAY_SIZE(requests));
    tcase_add_loop_test(tc, test_reply_round_trip, 0, ARRAY_SIZE(replies));
    tcase_add_loop_test(tc, test_errors, 0, ARRAY_SIZE(bad));
    tcase_add_test(tc, test_cancel_pause);
    tcase_add_test(tc, test_parse);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(ofp_monitor_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
