/* Unit tests for ofp-flow.h: flow_mod messages.
 *
 * Each message below was given to Open vSwitch 3.1's "ovs-ofctl
 * ofp-print", which printed the expected text (or reported the expected
 * error): OpenFlow 1.0 flow mods with fixed matches, NXT_FLOW_MOD with NXM
 * matches (and cookie matches), OpenFlow 1.3-1.5 flow mods with OXM and
 * instructions, every command, flag, timeout, cookie form, buffer,
 * out_port, table and importance.  Our re-encoding of each was printed by
 * 3.1 the same way too. */
#include <config.h>
#include "ofp-flow.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "check-util.h"
#include "dynamic-string.h"
#include "ofp-msgs.h"
#include "ofpbuf.h"

struct fm_case {
    const char *hex;
    const char *text;           /* Or "ERR " and the error's name. */
};

static const struct fm_case cases[] = {
    { "010e004800000001003fffff0000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000008000"
      "ffffffffffff0000",
      "ADD actions=drop" },
    { "010e004800000001003fffff0000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000001000000008000"
      "ffffffffffff0000",
      "MOD actions=drop" },
    { "010e004800000001003fffff0000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000002000000008000"
      "ffffffffffff0000",
      "MOD_STRICT actions=drop" },
    { "010e004800000001003fffff0000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000003000000008000"
      "ffffffffffff0000",
      "DEL actions=drop" },
    { "010e004800000001003fffff0000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000004000000008000"
      "ffffffffffff0000",
      "DEL_STRICT actions=drop" },
    { "010e004800000001003fffff0000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000050000000000008000"
      "ffffffffffff0000",
      "ADD cookie:0x5 actions=drop" },
    { "010e004800000001003fffff0000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000a00148000"
      "ffffffffffff0000",
      "ADD idle:10 hard:20 actions=drop" },
    { "010e004800000001003fffff0000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000007"
      "ffffffffffff0000",
      "ADD priority=7 actions=drop" },
    { "010e004800000001003fffff0000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000008000"
      "00000003ffff0000",
      "ADD buf:0x3 actions=drop" },
    { "010e004800000001003fffff0000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000003000000008000"
      "ffffffff00020000",
      "DEL out_port:2 actions=drop" },
    { "010e004800000001003fffff0000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000008000"
      "ffffffffffff0001",
      "ADD send_flow_rem actions=drop" },
    { "010e004800000001003fffff0000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000008000"
      "ffffffffffff0002",
      "ADD check_overlap actions=drop" },
    { "010e004800000001003fffff0000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000008000"
      "ffffffffffff0004",
      "ERR OFPFMFC_TABLE_FULL" },
    { "010e004800000001003fffff0000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000008000"
      "ffffffffffff0007",
      "ERR OFPFMFC_TABLE_FULL" },
    { "010e004800000001003fffff0000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000200000000008000"
      "ffffffffffff0000",
      "ADD table:2 actions=drop" },
    { "010e005000000001003fffff0000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000008000"
      "ffffffffffff00000000000800010000",
      "ADD actions=output:1" },
    { "010e004800000001003fffff0000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000003000000008000"
      "fffffffffffe0000",
      "DEL out_port:LOCAL actions=drop" },
    { "0104003000000001000023200000000d00000000000000000000000000008000"
      "ffffffffffff00000000000000000000",
      "ADD actions=drop" },
    { "0104003000000001000023200000000d00000000000000100001000000008000"
      "ffffffffffff00000000000000000000",
      "MOD cookie:0x10 actions=drop" },
    { "0104003000000001000023200000000d00000000000000000300000000008000"
      "ffffffffffff00000000000000000000",
      "ADD table:3 actions=drop" },
    { "0104004800000001000023200000000d00000000000000000000000000008000"
      "ffffffffffff0000000b00000000000000000602080000000c01060000000000"
      "0000000800010000",
      "ADD tcp actions=output:1" },
    { "0104003000000001000023200000000d00000000000000000003000000008000"
      "ffffffff000300000000000000000000",
      "DEL out_port:3 actions=drop" },
    { "040e003800000001000000000000000000000000000000000000000000008000"
      "ffffffffffffffffffffffff000000000001000400000000",
      "ADD actions=drop" },
    { "040e003800000001000000000000000500000000000000ff0001000000008000"
      "ffffffffffffffffffffffff000000000001000400000000",
      "MOD cookie:0x5/0xff actions=drop" },
    { "040e003800000001000000000000000500000000000000ff0003000000008000"
      "ffffffffffffffffffffffff000000000001000400000000",
      "DEL cookie:0x5/0xff actions=drop" },
    { "040e003800000001000000000000000000000000000000000400000000008000"
      "ffffffffffffffffffffffff000000000001000400000000",
      "ADD table:4 actions=drop" },
    { "040e00380000000100000000000000000000000000000000ff03000000008000"
      "ffffffffffffffffffffffff000000000001000400000000",
      "DEL table:255 actions=drop" },
    { "040e003800000001000000000000000000000000000000000003000000008000"
      "ffffffff00000005ffffffff000000000001000400000000",
      "DEL out_port:5 actions=drop" },
    { "040e003800000001000000000000000000000000000000000003000000008000"
      "ffffffffffffffff00000006000000000001000400000000",
      "DEL actions=drop" },
    { "040e003800000001000000000000000000000000000000000000000000008000"
      "ffffffffffffffffffffffff000400000001000400000000",
      "ADD reset_counts actions=drop" },
    { "040e003800000001000000000000000000000000000000000000000000008000"
      "ffffffffffffffffffffffff000800000001000400000000",
      "ADD no_packet_counts actions=drop" },
    { "040e003800000001000000000000000000000000000000000000000000008000"
      "ffffffffffffffffffffffff001000000001000400000000",
      "ADD no_byte_counts actions=drop" },
    { "040e003800000001000000000000000000000000000000000000000000008000"
      "ffffffffffffffffffffffff001f00000001000400000000",
      "ADD send_flow_rem check_overlap reset_counts no_packet_counts "
      "no_byte_counts actions=drop" },
    { "040e005000000001000000000000000000000000000000000000000000008000"
      "ffffffffffffffffffffffff0000000000010004000000000004001800000000"
      "0000001000000001ffe5000000000000",
      "ADD actions=output:1" },
    { "050e003800000001000000000000000000000000000000000000000000008000"
      "ffffffffffffffffffffffff000000070001000400000000",
      "ADD importance:7 actions=drop" },
    { "060e003800000001000000000000000000000000000000000000000000008000"
      "ffffffffffffffffffffffff000000000001000400000000",
      "ADD actions=drop" },
    { "040e003800000001000000000000000500000000000000000000000000008000"
      "ffffffffffffffffffffffff000000000001000400000000",
      "ADD cookie:0x5 actions=drop" },
    { "040e003800000001000000000000000500000000000000000001000000008000"
      "ffffffffffffffffffffffff000000000001000400000000",
      "MOD actions=drop" },
    { "040e003800000001000000000000000000000000000000000000000000008000"
      "00000007ffffffffffffffff000000000001000400000000",
      "ADD buf:0x7 actions=drop" },
    { "040e003800000001000000000000000000000000000000000000000100020003"
      "ffffffffffffffffffffffff000000000001000400000000",
      "ADD priority=3 idle:1 hard:2 actions=drop" },
    { "050e003800000001000000000000000500000000000000ff0303000100020009"
      "000000070000000400000005001f00060001000400000000",
      "DEL table:3 priority=9 cookie:0x5/0xff idle:1 hard:2 buf:0x7 "
      "out_port:4 send_flow_rem check_overlap reset_counts no_packet_counts "
      "no_byte_counts actions=drop" },
    { "050e003800000001000000000000000500000000000000000300000100020009"
      "000000070000000400000005001f00060001000400000000",
      "ADD table:3 priority=9 cookie:0x5 idle:1 hard:2 importance:6 "
      "buf:0x7 out_port:4 send_flow_rem check_overlap reset_counts "
      "no_packet_counts no_byte_counts actions=drop" },
    { "010e004800000001003fffff0000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000050303000100020009"
      "0000000700040003",
      "DEL table:3 priority=9 cookie:0x5 idle:1 hard:2 buf:0x7 out_port:4 "
      "send_flow_rem check_overlap actions=drop" },
    { "010e004800000001003fffff0000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000050003000000008000"
      "ffffffffffff0000",
      "DEL cookie:0x5 actions=drop" },
    { "040e003800000001000000000000000000000000000000000000000000008000"
      "ffffffffffffffffffffffff004000000001000400000000",
      "ERR OFPFMFC_BAD_FLAGS" },
    { "010e004800000001003fffff0000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000008000"
      "ffffffffffff0008",
      "ERR OFPFMFC_BAD_FLAGS" },
    { "040e003800000001000000000000000000000000000000000007000000008000"
      "ffffffffffffffffffffffff000000000001000400000000",
      "ERR OFPFMFC_BAD_COMMAND" },
    { "010e004800000001003fffff0000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000007000000008000"
      "ffffffffffff0000",
      "ERR OFPFMFC_BAD_COMMAND" },
    { "010e005000000001003fffff0000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000008000"
      "ffffffffffff00000000000800010000",
      "ADD actions=output:1" },
    { "010e005000000001003ffffe0001000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000008000"
      "ffffffffffff00000000000800010000",
      "ADD in_port=1 actions=output:1" },
    { "010e005000000001003fc84f0000000000000000000000000000000000000800"
      "000600000a010203000000000000005000000000000000000000000000008000"
      "ffffffffffff00000000000800010000",
      "ADD tcp,nw_src=10.1.2.0/24,tp_dst=80 actions=output:1" },
    { "010e005000000001003ffffd0000000000000000000000000000ffff00000000"
      "0000000000000000000000000000000000000000000000000000000000008000"
      "ffffffffffff00000000000800010000",
      "ADD vlan_tci=0x0000 actions=output:1" },
    { "010e005000000001002ffffd0000000000000000000000000000000503000000"
      "0000000000000000000000000000000000000000000000000000000000008000"
      "ffffffffffff00000000000800010000",
      "ADD dl_vlan=5,dl_vlan_pcp=3 actions=output:1" },
    { "010e005000000001002fffff0000000000000000000000000000000003000000"
      "0000000000000000000000000000000000000000000000000000000000008000"
      "ffffffffffff00000000000800010000",
      "ADD dl_vlan_pcp=3 actions=output:1" },
    { "010e00500000000100103fef0000000000000000000000000000000000000800"
      "2e000000000000000a0000010000000000000000000000000000000000008000"
      "ffffffffffff00000000000800010000",
      "ADD ip,nw_dst=10.0.0.1,nw_tos=44 actions=output:1" },
    { "010e005000000001003fff0f0000000000000000000000000000000000000800"
      "0001000000000000000000000008000000000000000000000000000000008000"
      "ffffffffffff00000000000800010000",
      "ADD icmp,icmp_type=8,icmp_code=0 actions=output:1" },
    { "010e005000000001003fc0cf0000000000000000000000000000000000000806"
      "000100000a000001000000000000000000000000000000000000000000008000"
      "ffffffffffff00000000000800010000",
      "ADD arp,arp_spa=10.0.0.1,arp_op=1 actions=output:1" },
    { "010e005000000001003fe8ef0000000000000000000000000000000000000800"
      "000000000a000001000000000000000000000000000000000000000000008000"
      "ffffffffffff00000000000800010000",
      "ADD ip actions=output:1" },
    { "010e005000000001000000000003000000000000000000000000000701000800"
      "ff11000000000001000000020003000400000000000000000000000000008000"
      "ffffffffffff00000000000800010000",
      "ADD priority=65535,udp,in_port=3,dl_vlan=7,dl_vlan_pcp=1,dl_src=00:00:00:00:00:00,"
      "dl_dst=00:00:00:00:00:00,nw_src=0.0.0.1,nw_dst=0.0.0.2,nw_tos=252,"
      "tp_src=3,tp_dst=4 actions=output:1" },
    { "0104004800000001000023200000000d00000000000000000003000000008000"
      "ffffffffffff0000001100000000000000000602080000000c01060000140200"
      "5000000000000000",
      "DEL tcp,tp_dst=80 actions=drop" },
    { "0104005800000001000023200000000d00000000000000000000000000008000"
      "ffffffffffff0000001100000000000000000602080000000c01060000140200"
      "5000000000000000ffff001000002320000e000302000000",
      "ADD tcp,tp_dst=80 actions=resubmit(3,2)" },
    { "0104004000000001000023200000000d00000000000000000003000000008000"
      "ffffffffffff0000000c00000000000000010108000000050000ffff00000000",
      "DEL reg0=0x5/0xffff actions=drop" },
    { "0104005000000001000023200000000d00000000000000000000000000008000"
      "ffffffffffff0000000c00000000000000010108000000050000ffff00000000"
      "ffff001000002320000e000302000000",
      "ADD reg0=0x5/0xffff actions=resubmit(3,2)" },
    { "0104005000000001000023200000000d00000000000000000003000000008000"
      "ffffffffffff0000001a00000000000000013d10000000000000000100000000"
      "000000ff000000020001000000000000",
      "DEL in_port=1 cookie:0x1/0xff actions=drop" },
    { "0104006000000001000023200000000d00000000000000000000000000008000"
      "ffffffffffff0000001a00000000000000013d10000000000000000100000000"
      "000000ff000000020001000000000000ffff001000002320000e000302000000",
      "ERR NXBRC_NXM_INVALID" },
    { "040e004800000001000000000000000000000000000000000000000000008000"
      "ffffffffffffffffffffffff000000000001000c800000040000000100000000"
      "0001000802000000",
      "ADD in_port=1 actions=goto_table:2" },
    { "060e004000000001000000000000000000000000000000000004000000008000"
      "ffffffffffffffffffffffff000000000001000c800000040000000100000000",
      "DEL_STRICT in_port=1 actions=drop" },
    { "040e005000000001000000000000000000000000000000000000000000008000"
      "ffffffffffffffffffffffff000000000001001180000a020800800016010600"
      "00000000000000000001000802000000",
      "ERR OFPBMC_BAD_FIELD" },
    { "060e004800000001000000000000000000000000000000000004000000008000"
      "ffffffffffffffffffffffff000000000001001180000a020800800016010600"
      "0000000000000000",
      "ERR OFPBMC_BAD_FIELD" },
    { "040e006800000001000000000000000000000000000000000000000000008000"
      "ffffffffffffffffffffffff000000000001002f80000a0286dd800034200000"
      "000000000000000000000000000001ffffffffffffffffffffffffffffffff00"
      "0001000802000000",
      "ERR OFPBMC_BAD_FIELD" },
    { "060e006000000001000000000000000000000000000000000004000000008000"
      "ffffffffffffffffffffffff000000000001002f80000a0286dd800034200000"
      "000000000000000000000000000001ffffffffffffffffffffffffffffffff00",
      "ERR OFPBMC_BAD_FIELD" },
};

static enum ofputil_protocol
protocol_of(const struct ofp_header *oh)
{
    if (oh->version != OFP10_VERSION) {
        return ofputil_protocol_from_ofp_version(oh->version);
    }
    enum ofpraw raw;
    ck_assert_int_eq(ofpraw_decode(&raw, oh), 0);
    return (raw == OFPRAW_NXT_FLOW_MOD ? OFPUTIL_P_OF10_NXM_TID
            : OFPUTIL_P_OF10_STD_TID);
}

static char *
decode_and_format(const struct ofp_header *oh, enum ofperr *errorp)
{
    struct ofputil_flow_mod fm;
    struct ofpbuf ofpacts;
    ofpbuf_init(&ofpacts, 0);
    enum ofperr error = ofputil_decode_flow_mod(&fm, oh, &ofpacts);
    *errorp = error;
    struct ds s = DS_EMPTY_INITIALIZER;
    if (error) {
        ds_put_format(&s, "ERR %s", ofperr_get_name(error));
    } else {
        ofputil_flow_mod_format(&fm, oh->version, NULL, &s);
    }
    ofpbuf_uninit(&ofpacts);
    return ds_steal_cstr(&s);
}

START_TEST(test_flow_mod)
{
    const struct fm_case *c = &cases[_i];
    struct ofpbuf b;
    ofpbuf_init(&b, 0);
    ofpbuf_put_hex(&b, c->hex, NULL);
    const struct ofp_header *oh = b.data;
    ck_assert_uint_eq(ntohs(oh->length), b.size);

    enum ofperr error;
    char *text = decode_and_format(oh, &error);
    ck_assert_str_eq(text, c->text);
    free(text);

    if (!error) {
        /* Encoding what was decoded, in the same protocol, says the
         * same. */
        struct ofputil_flow_mod fm;
        struct ofpbuf ofpacts;
        ofpbuf_init(&ofpacts, 0);
        ck_assert_int_eq(ofputil_decode_flow_mod(&fm, oh, &ofpacts), 0);
        struct ofpbuf *msg = ofputil_encode_flow_mod(&fm, protocol_of(oh));
        text = decode_and_format(msg->data, &error);
        ck_assert_int_eq(error, 0);
        ck_assert_str_eq(text, c->text);
        free(text);
        ofpbuf_delete(msg);
        ofpbuf_uninit(&ofpacts);
    }
    ofpbuf_uninit(&b);
}
END_TEST

/* Every truncation of every message (with its length field adjusted)
 * decodes or fails, never reading past the end. */
START_TEST(test_truncations)
{
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        struct ofpbuf full;
        ofpbuf_init(&full, 0);
        ofpbuf_put_hex(&full, cases[i].hex, NULL);
        for (size_t n = sizeof(struct ofp_header); n < full.size; n++) {
            struct ofp_header *copy = xmemdup(full.data, n);
            copy->length = htons(n);
            struct ofputil_flow_mod fm;
            struct ofpbuf ofpacts;
            ofpbuf_init(&ofpacts, 0);
            ofputil_decode_flow_mod(&fm, copy, &ofpacts);
            ofpbuf_uninit(&ofpacts);
            free(copy);
        }
        ofpbuf_uninit(&full);
    }
}
END_TEST

static Suite *
ofp_flow_suite(void)
{
    Suite *s = suite_create("ofp-flow");
    TCase *tc = tcase_create("ofp-flow");
    tcase_add_loop_test(tc, test_flow_mod, 0, ARRAY_SIZE(cases));
    tcase_add_test(tc, test_truncations);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(ofp_flow_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
