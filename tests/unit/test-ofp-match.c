/* Unit tests for ofp-match.h: OpenFlow 1.0's fixed match.
 *
 * The flow text for each match is what Open vSwitch 3.1 prints for an
 * OFPT_FLOW_MOD carrying it ("ovs-ofctl ofp-print"), including what its
 * normalization drops (tp_src and tp_dst without a protocol). */
#include <config.h>
#include "ofp-match.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "check-util.h"
#include "match.h"
#include "ofpbuf.h"
#include "packets.h"

struct m10_case {
    const char *hex;        /* struct ofp10_match. */
    const char *flow;       /* 3.1's text for it. */
    const char *canonical;  /* What encoding the match gives back. */
};

static const struct m10_case cases[] = {
    { "003fffff000000000000000000000000000000000000000000000000000000000000000000000000",
      "",
      "003820ff000000000000000000000000000000000000000000000000000000000000000000000000" },
    { "003ffffe000100000000000000000000000000000000000000000000000000000000000000000000",
      "in_port=1",
      "003820fe000100000000000000000000000000000000000000000000000000000000000000000000" },
    { "003fc84f0000000000000000000000000000000000000800000600000a0102030000000000000050",
      "tcp,nw_src=10.1.2.0/24,tp_dst=80",
      "0038084f0000000000000000000000000000000000000800000600000a0102000000000000000050" },
    { "003ffffd0000000000000000000000000000ffff0000000000000000000000000000000000000000",
      "vlan_tci=0x0000",
      "002820fd0000000000000000000000000000ffff0000000000000000000000000000000000000000" },
    { "002ffffd000000000000000000000000000000050300000000000000000000000000000000000000",
      "dl_vlan=5,dl_vlan_pcp=3",
      "002820fd000000000000000000000000000000050300000000000000000000000000000000000000" },
    { "002fffff000000000000000000000000000000000300000000000000000000000000000000000000",
      "dl_vlan_pcp=3",
      "002820ff000000000000000000000000000000000300000000000000000000000000000000000000" },
    { "002ffffd0000000000000000000000000000ffff0300000000000000000000000000000000000000",
      "vlan_tci=0x0000",
      "002820fd0000000000000000000000000000ffff0000000000000000000000000000000000000000" },
    { "003ffff30000001122334455ffffffffffff00000000000000000000000000000000000000000000",
      "dl_src=00:11:22:33:44:55,dl_dst=ff:ff:ff:ff:ff:ff",
      "003820f30000001122334455ffffffffffff00000000000000000000000000000000000000000000" },
    { "00103fef00000000000000000000000000000000000008002e000000000000000a00000100000000",
      "ip,nw_dst=10.0.0.1,nw_tos=44",
      "001020ef00000000000000000000000000000000000008002c000000000000000a00000100000000" },
    { "003fff3f000000000000000000000000000000000000000000000000000000000000000000010002",
      "",
      "003820ff000000000000000000000000000000000000000000000000000000000000000000000000" },
    { "003fff0f000000000000000000000000000000000000080000010000000000000000000000080000",
      "icmp,icmp_type=8,icmp_code=0",
      "0038200f000000000000000000000000000000000000080000010000000000000000000000080000" },
    { "003fc0cf0000000000000000000000000000000000000806000100000a0000010000000000000000",
      "arp,arp_spa=10.0.0.1,arp_op=1",
      "003800cf0000000000000000000000000000000000000806000100000a0000010000000000000000" },
    { "003fe8ef0000000000000000000000000000000000000800000000000a0000010000000000000000",
      "ip",
      "003820ef000000000000000000000000000000000000080000000000000000000000000000000000" },
    { "000000000003000000000000000000000000000701000800ff110000000000010000000200030004",
      "udp,in_port=3,dl_vlan=7,dl_vlan_pcp=1,dl_src=00:00:00:00:00:00,dl_dst=00:00:00:00:00:00,nw_src=0.0.0.1,nw_dst=0.0.0.2,nw_tos=252,tp_src=3,tp_dst=4",
      "000000000003000000000000000000000000000701000800fc110000000000010000000200030004" },
    { "ffffffff000000000000000000000000000000000000000000000000000000000000000000000000",
      "",
      "003820ff000000000000000000000000000000000000000000000000000000000000000000000000" },
};

static void
decode(const char *hex, struct match *match)
{
    struct ofpbuf b;
    ofpbuf_init(&b, 0);
    ofpbuf_put_hex(&b, hex, NULL);
    ck_assert_uint_eq(b.size, sizeof(struct ofp10_match));
    ofputil_match_from_ofp10_match(b.data, match);
    ofputil_normalize_match_quiet(match);
    ofpbuf_uninit(&b);
}

START_TEST(test_ofp10_match)
{
    const struct m10_case *c = &cases[_i];
    struct match match;
    decode(c->hex, &match);
    char *text = match_to_string(&match, NULL, OFP_DEFAULT_PRIORITY);
    ck_assert_str_eq(text, c->flow);
    free(text);

    struct ofp10_match om;
    ofputil_match_to_ofp10_match(&match, &om);
    char *hex = check_hex(&om, sizeof om);
    ck_assert_str_eq(hex, c->canonical);
    free(hex);
    ck_assert(ofputil_match_is_ofp10(&match));

    /* The canonical form means the same (but for the packet type, which
     * matching any field other than in_port makes Ethernet). */
    struct match again;
    decode(c->canonical, &again);
    again.flow.packet_type = match.flow.packet_type;
    again.wc.masks.packet_type = match.wc.masks.packet_type;
    ck_assert(match_equal(&match, &again));
}
END_TEST

/* What 1.0 cannot say. */
START_TEST(test_not_ofp10)
{
    struct match match;
    match_init_catchall(&match);
    match_set_reg(&match, 0, 5);
    ck_assert(!ofputil_match_is_ofp10(&match));

    match_init_catchall(&match);
    match_set_dl_type(&match, htons(ETH_TYPE_IP));
    match_set_nw_src_masked(&match, htonl(0x0a000001), htonl(0xff00ff00));
    ck_assert(!ofputil_match_is_ofp10(&match));

    match_init_catchall(&match);
    match_set_dl_type(&match, htons(ETH_TYPE_IP));
    match_set_nw_src_masked(&match, htonl(0x0a000000), htonl(0xff000000));
    ck_assert(ofputil_match_is_ofp10(&match));
}
END_TEST

static Suite *
ofp_match_suite(void)
{
    Suite *s = suite_create("ofp-match");
    TCase *tc = tcase_create("ofp-match");
    tcase_add_loop_test(tc, test_ofp10_match, 0, ARRAY_SIZE(cases));
    tcase_add_test(tc, test_not_ofp10);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(ofp_match_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
