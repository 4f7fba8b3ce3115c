/* Unit tests for ofp-meter.h: meter_mod and the meter multipart
 * messages.
 *
 * The messages were captured between Open vSwitch 3.1's ovs-ofctl
 * (add-meter, mod-meter, del-meter(s), dump-meters, meter-stats,
 * meter-features in 1.3 and 1.5) and its ovs-vswitchd, plus a few built by
 * hand (two bands, the reserved meter ids, unknown flags, bad band and
 * command); the text is what 3.1's "ovs-ofctl ofp-print" printed after
 * the header line ("ERR" and the error where it could not decode).
 * Re-encoding each decoded message gives back its bytes. */
#include <config.h>
#include "ofp-meter.h"

#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "check-util.h"
#include "dynamic-string.h"
#include "list.h"
#include "ofp-msgs.h"
#include "ofpbuf.h"

struct meter_case {
    const char *hex;
    const char *text;
};

static const struct meter_case cases[] = {
    { "041d0020000000020000000d0000000100010010000003e80000006400000000",
      " ADD meter=1 kbps burst stats bands=\n" "type=drop rate=1000 burst_size=100" },
    { "041d002000000002000100010000000200010010000000070000000000000000",
      " MOD meter=2 kbps bands=\n" "type=drop rate=7" },
    { "0412001800000002000a000000000000ffffffff00000000",
      " meter=all" },
    { "0413002800000002000a0000000000000018000d0000000100010010000003e8"
      "0000006400000000",
      "\n" "meter=1 kbps burst stats bands=\n" "type=drop rate=1000 burst_size=100" },
    { "0412001800000002000a0000000000000000000100000000",
      " meter=1" },
    { "04120018000000020009000000000000ffffffff00000000",
      " meter=all" },
    { "0413004800000002000900000000000000000001003800000000000000000000"
      "000000000000000000000000000000000000000102ebae400000000000000000"
      "0000000000000000",
      "\n" "meter:1 flow_count:0 packet_in_count:0 byte_in_count:0 duration:1.049s bands:\n" "0: packet_count:0 byte_count:0" },
    { "0412001000000002000b000000000000",
      "" },
    { "0413002000000002000b00000000000000040000000000020000000f08000000",
      "\n" "max_meter:262144 max_bands:8 max_color:0\n" "band_types: drop\n" "capabilities: kbps pktps burst stats" },
    { "041d0010000000020002000000000002",
      " DEL meter=2 bands=" },
    { "041d00100000000200020000ffffffff",
      " DEL meter=all bands=" },
    { "061d0020000000020000000100000003000100100000000a0000000000000000",
      " ADD meter=3 kbps bands=\n" "type=drop rate=10" },
    { "0612001800000002000a000000000000ffffffff00000000",
      " meter=all" },
    { "0613002800000002000a0000000000000018000100000003000100100000000a"
      "0000000a00000000",
      "\n" "meter=3 kbps bands=\n" "type=drop rate=10" },
    { "041d003000000002000000020000000200020010000000320000000001000000"
      "00010010000000640000000000000000",
      " ADD meter=2 pktps bands=\n" "type=dscp_remark rate=50 prec_level=1\n" "type=drop rate=100" },
    { "041d002000000002000000090000000500010010000000640000000000000000",
      " ADD meter=5 kbps stats bands=\n" "type=drop rate=100" },
    { "0413004000000002000a00000000000000180009000000050001001000000064"
      "00000064000000000018000100000003000100100000000a0000000a00000000",
      "\n" "meter=5 kbps stats bands=\n" "type=drop rate=100\n" "\n" "meter=3 kbps bands=\n" "type=drop rate=10" },
    { "041200180000000200090000000000000000000200000000",
      " meter=2" },
    { "041d002000000002000100060000000500010010000000070000000300000000",
      " MOD meter=5 pktps burst bands=\n" "type=drop rate=7 burst_size=3" },
    { "0413005800000002000900000000000000000007004800000000000000000003"
      "000000000000000a00000000000003e8000000051dcd65000000000000000001"
      "000000000000000200000000000000030000000000000004",
      "\n" "meter:7 flow_count:3 packet_in_count:10 byte_in_count:1000 duration:5.500s bands:\n" "0: packet_count:1 byte_count:2\n" "1: packet_count:3 byte_count:4" },
    { "0413002000000002000b00000000000000000064000000060000000f04010000",
      "\n" "max_meter:100 max_bands:4 max_color:1\n" "band_types: drop dscp_remark\n" "capabilities: kbps pktps burst stats" },
    { "041d00200000000200000001fffffffd00010010000000050000000000000000",
      " ADD meter=slowpath kbps bands=\n" "type=drop rate=5" },
    { "041d00200000000200000001fffffffe00010010000000050000000000000000",
      " ADD meter=controller kbps bands=\n" "type=drop rate=5" },
    { "041d00200000000200000001ffff000100010010000000050000000000000000",
      " ADD meter=unknown kbps bands=\n" "type=drop rate=5" },
    { "041d0020000000020000000100000001ffff0010000000050000000000000000",
      "ERR OFPMMFC_BAD_BAND" },
    { "041d0010000000020007000100000001",
      "ERR OFPMMFC_BAD_COMMAND" },
    { "041d0010000000020000003000000001",
      " ADD meter=1 flags:0x30 bands=" },
};

/* add-meter / mod-meter / del-meter text and what 3.1 sent for it. */
static const struct {
    int command;
    enum ofp_version version;
    const char *text;
    const char *hex;
} parse_cases[] = {
    { OFPMC13_ADD, OFP13_VERSION,
      "meter=1,kbps,burst,stats,band=type=drop,rate=1000,burst_size=100",
      "041d0020000000020000000d0000000100010010000003e80000006400000000" },
    { OFPMC13_ADD, OFP13_VERSION,
      "meter=2,pktps,band=type=dscp_remark,rate=50,prec_level=1,"
      "type=drop,rate=100",
      "041d003000000002000000020000000200020010000000320000000001000000"
      "00010010000000640000000000000000" },
    { OFPMC13_MODIFY, OFP13_VERSION, "meter=2,kbps,band=type=drop,rate=7",
      "041d002000000002000100010000000200010010000000070000000000000000" },
    { OFPMC13_DELETE, OFP13_VERSION, "meter=2",
      "041d0010000000020002000000000002" },
    { OFPMC13_ADD, OFP13_VERSION, "meter=5,kbps,stats,bands=type=drop,rate=100",
      "041d002000000002000000090000000500010010000000640000000000000000" },
    { OFPMC13_MODIFY, OFP13_VERSION,
      "meter=5,pktps,burst,band=type=drop,rate=7,burst_size=3",
      "041d002000000002000100060000000500010010000000070000000300000000" },
    { OFPMC13_ADD, OFP15_VERSION, "meter=3,kbps,band=type=drop,rate=10",
      "061d0020000000020000000100000003000100100000000a0000000000000000" },
};

/* Text 3.1 refuses, with its message. */
static const struct {
    int command;
    const char *text;
    const char *error;
} parse_errors[] = {
    { OFPMC13_ADD, "meter=1,kbps", "must specify bands" },
    { OFPMC13_ADD, "kbps,band=type=drop,rate=1", "must specify 'meter'" },
    { OFPMC13_ADD, "meter=1,kbps,band=type=foo,rate=1",
      "field type unknown value foo" },
    { OFPMC13_ADD, "meter=1,kbps,band=type=drop", "band must have 'rate'" },
    { OFPMC13_ADD, "meter=1,kbps,band=rate=5",
      "band must start with the 'type' keyword" },
    { OFPMC13_ADD, "meter=x,kbps,band=type=drop,rate=1",
      "invalid numeric format x" },
    { OFPMC13_ADD, "meter=1,bogus,band=type=drop,rate=1",
      "field bogus missing value" },
    { OFPMC13_ADD, "meter=1,kbps,band=type=drop,rate=1,prec_level=3",
      "Only 'dscp_remark' band may have 'prec_level'" },
    { OFPMC13_ADD, "meter=all,band=type=drop,rate=1",
      "meter must specify either 'kbps' or 'pktps'" },
    { OFPMC13_ADD, "meter=1,kbps,band=type=drop,rate=1,burst_size=x",
      "invalid numeric format x" },
    { OFPMC13_ADD, "meter=1,kbps,band=type=drop,rate=1,foo=2",
      "unknown keyword foo" },
    { OFPMC13_ADD, "meter=1,kbps,band=type=dscp_remark,rate=1,"
      "prec_level=300", "invalid prec_level \"300\"" },
    { OFPMC13_ADD, "meter=1,kbps,foo=3,band=type=drop,rate=1",
      "unknown keyword foo" },
    { OFPMC13_DELETE, "meter=1,kbps", "field kbps missing value" },
    { OFPMC13_DELETE, "", "must specify 'meter'" },
    { OFPMC13_DELETE, "meter=1,foo=2", "unknown keyword foo" },
    { OFPMC13_DELETE, "meter=1,band=type=drop,rate=2",
      "unknown keyword band" },
};

static char *
print_message(const struct ofp_header *oh)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    enum ofptype type;
    enum ofperr error = ofptype_decode(&type, oh);
    if (!error) {
        switch (type) {
        case OFPTYPE_METER_MOD:
            error = ofputil_meter_mod_print(&s, oh);
            break;
        case OFPTYPE_METER_STATS_REQUEST:
        case OFPTYPE_METER_CONFIG_STATS_REQUEST:
        case OFPTYPE_METER_FEATURES_STATS_REQUEST:
            error = ofputil_meter_request_print(&s, oh);
            break;
        case OFPTYPE_METER_CONFIG_STATS_REPLY:
            error = ofputil_meter_config_reply_print(&s, oh);
            break;
        case OFPTYPE_METER_STATS_REPLY:
            error = ofputil_meter_stats_reply_print(&s, oh);
            break;
        case OFPTYPE_METER_FEATURES_STATS_REPLY:
            error = ofputil_meter_features_reply_print(&s, oh);
            break;
        default:
            ck_abort_msg("unexpected type %d", (int) type);
        }
    }
    if (error) {
        ds_clear(&s);
        ds_put_format(&s, "ERR %s", ofperr_get_name(error));
    }
    return ds_steal_cstr(&s);
}

static struct ofpbuf *
request_for(const struct ofp_header *reply)
{
    enum ofpraw raw;
    ck_assert_int_eq(ofpraw_decode(&raw, reply), 0);
    enum ofpraw request = (raw == OFPRAW_OFPST13_METER_REPLY
                           ? OFPRAW_OFPST13_METER_REQUEST
                           : raw == OFPRAW_OFPST13_METER_CONFIG_REPLY
                           ? OFPRAW_OFPST13_METER_CONFIG_REQUEST
                           : OFPRAW_OFPST13_METER_FEATURES_REQUEST);
    return ofpraw_alloc_xid(request, reply->version, reply->xid, 0);
}

static struct ofpbuf *
single_part(struct ovs_list *replies)
{
    ck_assert_uint_eq(ovs_list_size(replies), 1);
    return CONTAINER_OF(ovs_list_pop_front(replies), struct ofpbuf,
                        list_node);
}

static struct ofpbuf *
reencode(const struct ofp_header *oh)
{
    enum ofptype type;
    ck_assert_int_eq(ofptype_decode(&type, oh), 0);
    struct ofpbuf bands, *msg = NULL;
    ofpbuf_init(&bands, 0);
    switch (type) {
    case OFPTYPE_METER_MOD: {
        struct ofputil_meter_mod mm;
        ck_assert_int_eq(ofputil_decode_meter_mod(oh, &mm, &bands), 0);
        msg = ofputil_encode_meter_mod(oh->version, &mm);
        break;
    }
    case OFPTYPE_METER_STATS_REQUEST:
    case OFPTYPE_METER_CONFIG_STATS_REQUEST:
    case OFPTYPE_METER_FEATURES_STATS_REQUEST: {
        uint32_t meter_id;
        ck_assert_int_eq(ofputil_decode_meter_request(oh, &meter_id), 0);
        msg = ofputil_encode_meter_request(
            oh->version,
            (type == OFPTYPE_METER_STATS_REQUEST ? OFPUTIL_METER_STATS
             : type == OFPTYPE_METER_CONFIG_STATS_REQUEST
             ? OFPUTIL_METER_CONFIG : OFPUTIL_METER_FEATURES), meter_id);
        break;
    }
    case OFPTYPE_METER_CONFIG_STATS_REPLY:
    case OFPTYPE_METER_STATS_REPLY: {
        struct ofpbuf *request = request_for(oh);
        struct ovs_list replies;
        ofpmp_init(&replies, request->data);
        struct ofpbuf b;
        ofpbuf_use_const(&b, oh, ntohs(oh->length));
        for (;;) {
            int retval;
            if (type == OFPTYPE_METER_STATS_REPLY) {
                struct ofputil_meter_stats ms;
                retval = ofputil_decode_meter_stats(&b, &ms, &bands);
                if (!retval) {
                    ofputil_append_meter_stats(&replies, &ms);
                }
            } else {
                struct ofputil_meter_config mc;
                retval = ofputil_decode_meter_config(&b, &mc, &bands);
                if (!retval) {
                    ofputil_append_meter_config(&replies, &mc);
                }
            }
            if (retval == EOF) {
                break;
            }
            ck_assert_int_eq(retval, 0);
        }
        msg = single_part(&replies);
        ofpbuf_delete(request);
        break;
    }
    case OFPTYPE_METER_FEATURES_STATS_REPLY: {
        struct ofpbuf *request = request_for(oh);
        struct ofputil_meter_features mf;
        ofputil_decode_meter_features(oh, &mf);
        msg = ofputil_encode_meter_features_reply(&mf, request->data);
        ofpbuf_delete(request);
        break;
    }
    default:
        ck_abort_msg("unexpected type %d", (int) type);
    }
    ofpbuf_uninit(&bands);
    ((struct ofp_header *) msg->data)->xid = oh->xid;
    return msg;
}

static void
check_bytes(const struct ofpbuf *msg, const void *want_data, size_t n)
{
    char *want = check_hex(want_data, n);
    char *got = check_hex(msg->data, msg->size);
    ck_assert_str_eq(got, want);
    free(want);
    free(got);
}

START_TEST(test_messages)
{
    struct ofpbuf b;
    ofpbuf_init(&b, 0);
    ofpbuf_put_hex(&b, cases[_i].hex, NULL);
    const struct ofp_header *oh = b.data;
    ck_assert_uint_eq(ntohs(oh->length), b.size);
    char *text = print_message(oh);
    ck_assert_str_eq(text, cases[_i].text);
    if (strncmp(text, "ERR", 3)) {
        struct ofpbuf *msg = reencode(oh);
        check_bytes(msg, oh, b.size);
        ofpbuf_delete(msg);
    }
    free(text);
    ofpbuf_uninit(&b);
}
END_TEST

START_TEST(test_parse)
{
    struct ofputil_meter_mod mm;
    enum ofputil_protocol usable;
    char *error = parse_ofp_meter_mod_str(&mm, parse_cases[_i].text,
                                          parse_cases[_i].command, &usable);
    ck_assert_msg(!error, "%s", error);
    ck_assert_int_eq(usable, OFPUTIL_P_OF13_UP);
    struct ofpbuf *msg = ofputil_encode_meter_mod(parse_cases[_i].version,
                                                  &mm);
    ((struct ofp_header *) msg->data)->xid = htonl(2);
    struct ofpbuf want;
    ofpbuf_init(&want, 0);
    ofpbuf_put_hex(&want, parse_cases[_i].hex, NULL);
    check_bytes(msg, want.data, want.size);
    ofpbuf_uninit(&want);
    ofpbuf_delete(msg);
    free(mm.meter.bands);
}
END_TEST

START_TEST(test_parse_errors)
{
    struct ofputil_meter_mod mm;
    enum ofputil_protocol usable;
    char *error = parse_ofp_meter_mod_str(&mm, parse_errors[_i].text,
                                          parse_errors[_i].command, &usable);
    ck_assert(error != NULL);
    ck_assert_str_eq(error, parse_errors[_i].error);
    ck_assert(mm.meter.bands == NULL);
    free(error);
}
END_TEST

/* Truncated messages decode or fail cleanly. */
START_TEST(test_truncations)
{
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        struct ofpbuf full;
        ofpbuf_init(&full, 0);
        ofpbuf_put_hex(&full, cases[i].hex, NULL);
        for (size_t n = sizeof(struct ofp_header); n < full.size; n++) {
            struct ofp_header *copy = xmemdup(full.data, n);
            copy->length = htons(n);
            enum ofptype type;
            if (!ofptype_decode(&type, copy)) {
                free(print_message(copy));
            }
            free(copy);
        }
        ofpbuf_uninit(&full);
    }
}
END_TEST

static Suite *
ofp_meter_suite(void)
{
    Suite *s = suite_create("ofp-meter");
    TCase *tc = tcase_create("ofp-meter");
    tcase_add_loop_test(tc, test_messages, 0, ARRAY_SIZE(cases));
    tcase_add_loop_test(tc, test_parse, 0, ARRAY_SIZE(parse_cases));
    tcase_add_loop_test(tc, test_parse_errors, 0, ARRAY_SIZE(parse_errors));
    tcase_add_test(tc, test_truncations);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(ofp_meter_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
