/* Unit tests for ofp-switch.h: features, switch configuration,
 * description, barrier, role and asynchronous configuration messages.
 *
 * Each encoder's output must equal the bytes below, which are laid out as
 * Open vSwitch 3.1 writes these messages; each text is 3.1's "ovs-ofctl
 * ofp-print" of those bytes, which our printer must reproduce.  Decoders
 * are checked by round trips and against 3.1's errors. */
#include <config.h>
#include "ofp-switch.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "check-ofp.h"
#include "check-util.h"
#include "ofp-msgs.h"
#include "ofp-phy-port.h"
#include "ofp-print.h"
#include "ofpbuf.h"
#include "packets.h"
#include "util.h"

/* features_request_10 */
static const char features_request_10_hex[] =
      "0105000800000001";
static const char features_request_10_text[] =
      "OFPT_FEATURES_REQUEST (xid=0x1):\n";

/* features_reply_10 */
static const char features_reply_10_hex[] =
      "0106008000000001000050540000000100000100fe0000000000008700000fff"
      "0001505400000001657468300000000000000000000000000000000000000000"
      "0000028f0000028f0000028f00000000fffe5054000000016272300000000000"
      "0000000000000000000000010000000100000000000000000000000000000000";
static const char features_reply_10_text[] =
      "OFPT_FEATURES_REPLY (xid=0x1): dpid:0000505400000001\n"
      "n_tables:254, n_buffers:256\n"
      "capabilities: FLOW_STATS TABLE_STATS PORT_STATS ARP_MATCH_IP\n"
      "actions: output enqueue set_vlan_vid set_vlan_pcp strip_vlan mod_dl_src mod_dl_dst mod_nw_src mod_nw_dst mod_nw_tos mod_tp_src mod_tp_dst\n"
      " 1(eth0): addr:50:54:00:00:00:01\n"
      "     config:     0\n"
      "     state:      0\n"
      "     current:    10MB-HD 10MB-FD 100MB-HD 100MB-FD COPPER AUTO_NEG\n"
      "     advertised: 10MB-HD 10MB-FD 100MB-HD 100MB-FD COPPER AUTO_NEG\n"
      "     supported:  10MB-HD 10MB-FD 100MB-HD 100MB-FD COPPER AUTO_NEG\n"
      "     speed: 100 Mbps now, 100 Mbps max\n"
      " LOCAL(br0): addr:50:54:00:00:00:01\n"
      "     config:     PORT_DOWN\n"
      "     state:      LINK_DOWN\n"
      "     speed: 0 Mbps now, 0 Mbps max\n";

/* features_reply_12 */
static const char features_reply_12_hex[] =
      "0306006000000001000050540000000100000100fe0000000000014f00000000"
      "0000000100000000505400000001000065746830000000000000000000000000"
      "000000000000000400002820000028200000282000000000000f4240000f4240";
static const char features_reply_12_text[] =
      "OFPT_FEATURES_REPLY (OF1.2) (xid=0x1): dpid:0000505400000001\n"
      "n_tables:254, n_buffers:256\n"
      "capabilities: FLOW_STATS TABLE_STATS PORT_STATS GROUP_STATS QUEUE_STATS PORT_BLOCKED\n"
      " 1(eth0): addr:50:54:00:00:00:01\n"
      "     config:     0\n"
      "     state:      LIVE\n"
      "     current:    1GB-FD COPPER AUTO_NEG\n"
      "     advertised: 1GB-FD COPPER AUTO_NEG\n"
      "     supported:  1GB-FD COPPER AUTO_NEG\n"
      "     speed: 1000 Mbps now, 1000 Mbps max\n";

/* features_reply_13 */
static const char features_reply_13_hex[] =
      "0406002000000001000050540000000100000100fe0100000000014f00000000";
static const char features_reply_13_text[] =
      "OFPT_FEATURES_REPLY (OF1.3) (xid=0x1): dpid:0000505400000001\n"
      "n_tables:254, n_buffers:256, auxiliary_id:1\n"
      "capabilities: FLOW_STATS TABLE_STATS PORT_STATS GROUP_STATS QUEUE_STATS PORT_BLOCKED\n";

/* get_config_request_13 */
static const char get_config_request_13_hex[] =
      "0407000800000001";
static const char get_config_request_13_text[] =
      "OFPT_GET_CONFIG_REQUEST (OF1.3) (xid=0x1):\n";

/* get_config_reply_11 */
static const char get_config_reply_11_hex[] =
      "0208000c0000000100060080";
static const char get_config_reply_11_text[] =
      "OFPT_GET_CONFIG_REPLY (OF1.1) (xid=0x1): frags=reassemble invalid_ttl_to_controller miss_send_len=128\n";

/* set_config_13 */
static const char set_config_13_hex[] =
      "0409000c000000010001ffff";
static const char set_config_13_text[] =
      "OFPT_SET_CONFIG (OF1.3) (xid=0x1): frags=drop miss_send_len=65535\n";

/* set_config_10 */
static const char set_config_10_hex[] =
      "0109000c0000000100030080";
static const char set_config_10_text[] =
      "OFPT_SET_CONFIG (xid=0x1): frags=nx-match miss_send_len=128\n";

/* desc_request_13 */
static const char desc_request_13_hex[] =
      "04120010000000010000000000000000";
static const char desc_request_13_text[] =
      "OFPST_DESC request (OF1.3) (xid=0x1):\n";

/* desc_reply_13 */
static const char desc_reply_13_hex[] =
      "041304300000000100000000000000004e69636972612c20496e632e00000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "000000000000000000000000000000004f70656e207653776974636800000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "00000000000000000000000000000000332e312e300000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "000000000000000000000000000000004e6f6e65000000000000000000000000"
      "0000000000000000000000000000000062723000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "00000000000000000000000000000000";
static const char desc_reply_13_text[] =
      "OFPST_DESC reply (OF1.3) (xid=0x1):\n"
      "Manufacturer: Nicira, Inc.\n"
      "Hardware: Open vSwitch\n"
      "Software: 3.1.0\n"
      "Serial Num: None\n"
      "DP Description: br0\n";

/* desc_reply_10 */
static const char desc_reply_10_hex[] =
      "0111042c00000001000000004e69636972612c20496e632e0000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000004f70656e20765377697463680000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "000000000000000000000000332e312e30000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000004e6f6e6500000000000000000000000000000000"
      "0000000000000000000000006272300000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "0000000000000000000000000000000000000000000000000000000000000000"
      "000000000000000000000000";
static const char desc_reply_10_text[] =
      "OFPST_DESC reply (xid=0x1):\n"
      "Manufacturer: Nicira, Inc.\n"
      "Hardware: Open vSwitch\n"
      "Software: 3.1.0\n"
      "Serial Num: None\n"
      "DP Description: br0\n";

/* barrier_reply_10 */
static const char barrier_reply_10_hex[] =
      "0113000800000001";
static const char barrier_reply_10_text[] =
      "OFPT_BARRIER_REPLY (xid=0x1):\n";

/* barrier_reply_13 */
static const char barrier_reply_13_hex[] =
      "0415000800000001";
static const char barrier_reply_13_text[] =
      "OFPT_BARRIER_REPLY (OF1.3) (xid=0x1):\n";

/* role_request_12 */
static const char role_request_12_hex[] =
      "031800180000000100000002000000000000000000000005";
static const char role_request_12_text[] =
      "OFPT_ROLE_REQUEST (OF1.2) (xid=0x1): role=primary generation_id=5\n";

/* role_request_13_nogen */
static const char role_request_13_nogen_hex[] =
      "04180018000000010000000100000000ffffffffffffffff";
static const char role_request_13_nogen_text[] =
      "OFPT_ROLE_REQUEST (OF1.3) (xid=0x1): role=equal\n";

/* nx_role_request_10 */
static const char nx_role_request_10_hex[] =
      "0104001400000001000023200000000a00000002";
static const char nx_role_request_10_text[] =
      "NXT_ROLE_REQUEST (xid=0x1): role=secondary\n";

/* nx_role_reply_10 */
static const char nx_role_reply_10_hex[] =
      "0104001400000001000023200000000b00000001";
static const char nx_role_reply_10_text[] =
      "NXT_ROLE_REPLY (xid=0x1): role=primary\n";

/* role_reply_13 */
static const char role_reply_13_hex[] =
      "041900180000000100000003000000000000000000000007";
static const char role_reply_13_text[] =
      "OFPT_ROLE_REPLY (OF1.3) (xid=0x1): role=secondary generation_id=7\n";

/* role_status_14 */
static const char role_status_14_hex[] =
      "051e00180000000000000002010000000000000000000009";
static const char role_status_14_text[] =
      "OFPT_ROLE_STATUS (OF1.4) (xid=0x0): role=primary generation_id=9 reason=configuration_changed\n";

/* get_async_request_13 */
static const char get_async_request_13_hex[] =
      "041a000800000001";
static const char get_async_request_13_text[] =
      "OFPT_GET_ASYNC_REQUEST (OF1.3) (xid=0x1):\n";

/* get_async_reply_13_default (3.1's "event filtering" test) */
static const char get_async_reply_13_default_hex[] =
      "041b002000000001000000030000000000000007000000070000000f00000000";
static const char get_async_reply_13_default_text[] =
      "OFPT_GET_ASYNC_REPLY (OF1.3) (xid=0x1):\n"
      " primary:\n"
      "       PACKET_IN: no_match action\n"
      "     PORT_STATUS: add delete modify\n"
      "    FLOW_REMOVED: idle hard delete group_delete\n"
      "     ROLE_STATUS: (off)\n"
      "    TABLE_STATUS: (off)\n"
      "  REQUESTFORWARD: (off)\n"
      "\n"
      " secondary:\n"
      "       PACKET_IN: (off)\n"
      "     PORT_STATUS: add delete modify\n"
      "    FLOW_REMOVED: (off)\n"
      "     ROLE_STATUS: (off)\n"
      "    TABLE_STATUS: (off)\n"
      "  REQUESTFORWARD: (off)\n";

/* get_async_reply_14_default */
static const char get_async_reply_14_default_hex[] =
      "051b0068000000010000000800000000000100080000003b0002000800000007"
      "00030008000000070004000800000000000500080000003f0006000800000000"
      "000700080000000000080008000000000009000800000000000a000800000000"
      "000b000800000000";
static const char get_async_reply_14_default_text[] =
      "OFPT_GET_ASYNC_REPLY (OF1.4) (xid=0x1):\n"
      " primary:\n"
      "       PACKET_IN: no_match action action_set group packet_out\n"
      "     PORT_STATUS: add delete modify\n"
      "    FLOW_REMOVED: idle hard delete group_delete meter_delete eviction\n"
      "     ROLE_STATUS: (off)\n"
      "    TABLE_STATUS: (off)\n"
      "  REQUESTFORWARD: (off)\n"
      "\n"
      " secondary:\n"
      "       PACKET_IN: (off)\n"
      "     PORT_STATUS: add delete modify\n"
      "    FLOW_REMOVED: (off)\n"
      "     ROLE_STATUS: (off)\n"
      "    TABLE_STATUS: (off)\n"
      "  REQUESTFORWARD: (off)\n";

/* nx_set_async_config_10 */
static const char nx_set_async_config_10_hex[] =
      "0104002800000001000023200000001300000007000000030000000700000007"
      "0000000f00000000";
static const char nx_set_async_config_10_text[] =
      "NXT_SET_ASYNC_CONFIG (xid=0x1):\n"
      " primary:\n"
      "       PACKET_IN: no_match action invalid_ttl\n"
      "     PORT_STATUS: add delete modify\n"
      "    FLOW_REMOVED: idle hard delete group_delete\n"
      "     ROLE_STATUS: (off)\n"
      "    TABLE_STATUS: (off)\n"
      "  REQUESTFORWARD: (off)\n"
      "\n"
      " secondary:\n"
      "       PACKET_IN: no_match action\n"
      "     PORT_STATUS: add delete modify\n"
      "    FLOW_REMOVED: (off)\n"
      "     ROLE_STATUS: (off)\n"
      "    TABLE_STATUS: (off)\n"
      "  REQUESTFORWARD: (off)\n";

/* set_async_14 */
static const char set_async_14_hex[] =
      "051c0068000000010000000800000000000100080000003b0002000800000007"
      "00030008000000070004000800000000000500080000003f0006000800000000"
      "000700080000000500080008000000000009000800000018000a000800000000"
      "000b000800000003";
static const char set_async_14_text[] =
      "OFPT_SET_ASYNC (OF1.4) (xid=0x1):\n"
      " primary:\n"
      "       PACKET_IN: no_match action action_set group packet_out\n"
      "     PORT_STATUS: add delete modify\n"
      "    FLOW_REMOVED: idle hard delete group_delete meter_delete eviction\n"
      "     ROLE_STATUS: primary_request experimenter_data_changed\n"
      "    TABLE_STATUS: vacancy_down vacancy_up\n"
      "  REQUESTFORWARD: group_mod_request meter_mod_request\n"
      "\n"
      " secondary:\n"
      "       PACKET_IN: (off)\n"
      "     PORT_STATUS: add delete modify\n"
      "    FLOW_REMOVED: (off)\n"
      "     ROLE_STATUS: (off)\n"
      "    TABLE_STATUS: (off)\n"
      "  REQUESTFORWARD: (off)\n";

/* set_async_14_some */
static const char set_async_14_some_hex[] =
      "051c00180000000100060008000000000007000800000005";
static const char set_async_14_some_text[] =
      "OFPT_SET_ASYNC (OF1.4) (xid=0x1):\n"
      " primary:\n"
      "       PACKET_IN: (off)\n"
      "     PORT_STATUS: (off)\n"
      "    FLOW_REMOVED: (off)\n"
      "     ROLE_STATUS: primary_request experimenter_data_changed\n"
      "    TABLE_STATUS: (off)\n"
      "  REQUESTFORWARD: (off)\n"
      "\n"
      " secondary:\n"
      "       PACKET_IN: (off)\n"
      "     PORT_STATUS: (off)\n"
      "    FLOW_REMOVED: (off)\n"
      "     ROLE_STATUS: (off)\n"
      "    TABLE_STATUS: (off)\n"
      "  REQUESTFORWARD: (off)\n";

static struct ofputil_phy_port
make_port(uint32_t port_no, const char *name, uint32_t config,
          uint32_t state, uint32_t features, uint32_t speed)
{
    struct ofputil_phy_port pp;
    memset(&pp, 0, sizeof pp);
    pp.port_no = port_no;
    pp.hw_addr = (struct eth_addr) { { 0x50, 0x54, 0, 0, 0, 0x01 } };
    snprintf(pp.name, sizeof pp.name, "%s", name);
    pp.config = config;
    pp.state = state;
    pp.curr = pp.advertised = pp.supported = features;
    pp.curr_speed = pp.max_speed = speed;
    return pp;
}

START_TEST(test_features)
{
    set_next_xid(1);
    check_ofp_msg(ofputil_encode_features_request(OFP10_VERSION),
              features_request_10_hex, features_request_10_text);

    struct ofputil_switch_features f = {
        .datapath_id = 0x505400000001ULL,
        .n_buffers = 256,
        .n_tables = 254,
        .capabilities = (OFPUTIL_C_FLOW_STATS | OFPUTIL_C_TABLE_STATS
                         | OFPUTIL_C_PORT_STATS | OFPUTIL_C_ARP_MATCH_IP),
        .ofp10_actions = OFPUTIL_OFP10_ACTIONS_ALL,
    };
    struct ofpbuf *b = ofputil_encode_switch_features(&f, OFP10_VERSION,
                                                      htonl(1));
    /* 100 Mb/s features in 1.0 bits: 10/100 half and full, copper,
     * autoneg. */
    struct ofputil_phy_port eth0 = make_port(
        1, "eth0", 0, 0, (NETDEV_F_10MB_HD | NETDEV_F_10MB_FD
                          | NETDEV_F_100MB_HD | NETDEV_F_100MB_FD
                          | NETDEV_F_COPPER | NETDEV_F_AUTONEG), 0);
    struct ofputil_phy_port local = make_port(
        OFPP_LOCAL, "br0", OFPUTIL_PC_PORT_DOWN, OFPUTIL_PS_LINK_DOWN, 0, 0);
    ofputil_put_switch_features_port(&eth0, b);
    ofputil_put_switch_features_port(&local, b);
    ofpmsg_update_length(b);
    check_ofp_msg(b, features_reply_10_hex, features_reply_10_text);

    /* 1.2 carries ports in the 1.1 layout and no actions bitmap. */
    f.capabilities = (OFPUTIL_C_FLOW_STATS | OFPUTIL_C_TABLE_STATS
                      | OFPUTIL_C_PORT_STATS | OFPUTIL_C_GROUP_STATS
                      | OFPUTIL_C_QUEUE_STATS | OFPUTIL_C_PORT_BLOCKED
                      | OFPUTIL_C_ARP_MATCH_IP);
    b = ofputil_encode_switch_features(&f, OFP12_VERSION, htonl(1));
    eth0 = make_port(1, "eth0", 0, OFPUTIL_PS_LIVE,
                     NETDEV_F_1GB_FD | NETDEV_F_COPPER | NETDEV_F_AUTONEG,
                     1000000);
    ofputil_put_switch_features_port(&eth0, b);
    ofpmsg_update_length(b);
    check_ofp_msg(b, features_reply_12_hex, features_reply_12_text);

    /* 1.3: the auxiliary id, no ports even if offered. */
    f.auxiliary_id = 1;
    b = ofputil_encode_switch_features(&f, OFP13_VERSION, htonl(1));
    ofputil_put_switch_features_port(&eth0, b);
    ofpmsg_update_length(b);
    check_ofp_msg(b, features_reply_13_hex, features_reply_13_text);

    /* Decoding gives back what 1.3 can carry, and the ports of 1.0. */
    b = check_ofp_from_hex(features_reply_13_hex);
    struct ofputil_switch_features d;
    ck_assert_int_eq(ofputil_pull_switch_features(b, &d), 0);
    ck_assert_uint_eq(d.datapath_id, f.datapath_id);
    ck_assert_uint_eq(d.n_buffers, 256);
    ck_assert_uint_eq(d.n_tables, 254);
    ck_assert_uint_eq(d.auxiliary_id, 1);
    ck_assert_uint_eq(d.capabilities,
                      f.capabilities & ~OFPUTIL_C_ARP_MATCH_IP);
    ck_assert_uint_eq(b->size, 0);
    ofpbuf_delete(b);

    b = check_ofp_from_hex(features_reply_10_hex);
    ck_assert_int_eq(ofputil_pull_switch_features(b, &d), 0);
    ck_assert_uint_eq(d.ofp10_actions, 0xfff);
    struct ofputil_phy_port pp;
    ck_assert_int_eq(ofputil_pull_phy_port(OFP10_VERSION, b, &pp), 0);
    ck_assert_uint_eq(pp.port_no, 1);
    ck_assert_str_eq(pp.name, "eth0");
    ck_assert_uint_eq(pp.curr_speed, 100000);
    ck_assert_int_eq(ofputil_pull_phy_port(OFP10_VERSION, b, &pp), 0);
    ck_assert_uint_eq(pp.port_no, OFPP_LOCAL);
    ck_assert_uint_eq(pp.config, OFPUTIL_PC_PORT_DOWN);
    ck_assert_int_eq(ofputil_pull_phy_port(OFP10_VERSION, b, &pp), EOF);
    ofpbuf_delete(b);

    /* Not a features reply. */
    b = check_ofp_from_hex(features_request_10_hex);
    ck_assert_int_eq(ofputil_pull_switch_features(b, &d),
                     OFPERR_OFPBRC_BAD_TYPE);
    ofpbuf_delete(b);
}
END_TEST

START_TEST(test_switch_config)
{
    set_next_xid(1);
    check_ofp_msg(ofputil_encode_get_config_request(OFP13_VERSION),
              get_config_request_13_hex, get_config_request_13_text);

    struct ofputil_switch_config config = {
        .frag = OFPUTIL_FRAG_REASM,
        .invalid_ttl_to_controller = 1,
        .miss_send_len = 128,
    };
    struct ofpbuf *rq = ofputil_encode_get_config_request(OFP11_VERSION);
    struct ofp_header *rqh = rq->data;
    rqh->xid = htonl(1);
    check_ofp_msg(ofputil_encode_get_config_reply(rq->data, &config),
              get_config_reply_11_hex, get_config_reply_11_text);
    ofpbuf_delete(rq);

    /* 1.3 has no invalid-TTL flag: it is not sent. */
    config.frag = OFPUTIL_FRAG_DROP;
    config.miss_send_len = UINT16_MAX;
    set_next_xid(1);
    check_ofp_msg(ofputil_encode_set_config(&config, OFP13_VERSION),
              set_config_13_hex, set_config_13_text);
    config.frag = OFPUTIL_FRAG_NX_MATCH;
    config.invalid_ttl_to_controller = 0;
    config.miss_send_len = 128;
    set_next_xid(1);
    check_ofp_msg(ofputil_encode_set_config(&config, OFP10_VERSION),
              set_config_10_hex, set_config_10_text);

    struct ofpbuf *b = check_ofp_from_hex(get_config_reply_11_hex);
    struct ofputil_switch_config d;
    ck_assert_int_eq(ofputil_decode_get_config_reply(b->data, &d), 0);
    ck_assert_int_eq(d.frag, OFPUTIL_FRAG_REASM);
    ck_assert_int_eq(d.invalid_ttl_to_controller, 1);
    ck_assert_uint_eq(d.miss_send_len, 128);
    ofpbuf_delete(b);

    b = check_ofp_from_hex(set_config_13_hex);
    ck_assert_int_eq(ofputil_decode_set_config(b->data, &d), 0);
    ck_assert_int_eq(d.frag, OFPUTIL_FRAG_DROP);
    ck_assert_int_eq(d.invalid_ttl_to_controller, -1);
    ofpbuf_delete(b);

    /* The invalid-TTL bit is a bad flag in 1.3 (3.1's error), but only a
     * reply's business otherwise. */
    b = check_ofp_from_hex("0409000c0000000100070080");
    ck_assert_int_eq(ofputil_decode_set_config(b->data, &d),
                     OFPERR_OFPSCFC_BAD_FLAGS);
    ofpbuf_delete(b);
    b = check_ofp_from_hex("0408000c0000000100070080");
    ck_assert_int_eq(ofputil_decode_get_config_reply(b->data, &d), 0);
    ofpbuf_delete(b);

    enum ofputil_frag_handling frag;
    ck_assert(ofputil_frag_handling_from_string("nx-match", &frag));
    ck_assert_int_eq(frag, OFPUTIL_FRAG_NX_MATCH);
    ck_assert(!ofputil_frag_handling_from_string("sometimes", &frag));
    ck_assert_str_eq(ofputil_frag_handling_to_string(OFPUTIL_FRAG_REASM),
                     "reassemble");
}
END_TEST

START_TEST(test_desc)
{
    struct ofputil_desc desc;
    memset(&desc, 0, sizeof desc);
    strcpy(desc.mfr_desc, "Nicira, Inc.");
    strcpy(desc.hw_desc, "Open vSwitch");
    strcpy(desc.sw_desc, "3.1.0");
    strcpy(desc.serial_num, "None");
    strcpy(desc.dp_desc, "br0");

    set_next_xid(1);
    struct ofpbuf *rq = ofputil_encode_desc_stats_request(OFP13_VERSION);
    check_ofp_msg(ofpbuf_clone(rq), desc_request_13_hex, desc_request_13_text);
    check_ofp_msg(ofputil_encode_desc_stats_reply(rq->data, &desc),
              desc_reply_13_hex, desc_reply_13_text);
    ofpbuf_delete(rq);
    set_next_xid(1);
    rq = ofputil_encode_desc_stats_request(OFP10_VERSION);
    check_ofp_msg(ofputil_encode_desc_stats_reply(rq->data, &desc),
              desc_reply_10_hex, desc_reply_10_text);
    ofpbuf_delete(rq);

    struct ofpbuf *b = check_ofp_from_hex(desc_reply_13_hex);
    struct ofputil_desc d;
    ck_assert_int_eq(ofputil_decode_desc_stats_reply(b->data, &d), 0);
    ck_assert(!memcmp(&d, &desc, sizeof d));
    /* A full field keeps all its bytes. */
    memset((char *) b->data + 16, 'M', DESC_STR_LEN);
    ck_assert_int_eq(ofputil_decode_desc_stats_reply(b->data, &d), 0);
    ck_assert_uint_eq(strlen(d.mfr_desc), DESC_STR_LEN);
    ofpbuf_delete(b);
}
END_TEST

START_TEST(test_barrier)
{
    struct ofpbuf *rq = ofputil_encode_barrier_request(OFP10_VERSION);
    ((struct ofp_header *) rq->data)->xid = htonl(1);
    check_ofp_msg(ofputil_encode_barrier_reply(rq->data), barrier_reply_10_hex,
              barrier_reply_10_text);
    ofpbuf_delete(rq);
    rq = ofputil_encode_barrier_request(OFP13_VERSION);
    ((struct ofp_header *) rq->data)->xid = htonl(1);
    check_ofp_msg(ofputil_encode_barrier_reply(rq->data), barrier_reply_13_hex,
              barrier_reply_13_text);
    ofpbuf_delete(rq);
}
END_TEST

START_TEST(test_roles)
{
    struct ofputil_role_request rr = {
        .role = OFPCR12_ROLE_MASTER, .have_generation_id = true,
        .generation_id = 5,
    };
    set_next_xid(1);
    check_ofp_msg(ofputil_encode_role_request(&rr, OFP12_VERSION),
              role_request_12_hex, role_request_12_text);
    rr = (struct ofputil_role_request) { .role = OFPCR12_ROLE_EQUAL };
    set_next_xid(1);
    check_ofp_msg(ofputil_encode_role_request(&rr, OFP13_VERSION),
              role_request_13_nogen_hex, role_request_13_nogen_text);
    /* 1.0 speaks Nicira's form, which has no generation id. */
    rr = (struct ofputil_role_request) {
        .role = OFPCR12_ROLE_SLAVE, .have_generation_id = true,
        .generation_id = 3,
    };
    set_next_xid(1);
    struct ofpbuf *nx_rq = ofputil_encode_role_request(&rr, OFP10_VERSION);
    check_ofp_msg(ofpbuf_clone(nx_rq), nx_role_request_10_hex,
              nx_role_request_10_text);

    struct ofputil_role_request d;
    ck_assert_int_eq(ofputil_decode_role_message(nx_rq->data, &d), 0);
    ck_assert_uint_eq(d.role, OFPCR12_ROLE_SLAVE);
    ck_assert(!d.have_generation_id);
    /* A reply comes in the request's form. */
    d.role = OFPCR12_ROLE_MASTER;
    check_ofp_msg(ofputil_encode_role_reply(nx_rq->data, &d),
              nx_role_reply_10_hex, nx_role_reply_10_text);
    ofpbuf_delete(nx_rq);

    struct ofpbuf *rq = check_ofp_from_hex(role_request_12_hex);
    ck_assert_int_eq(ofputil_decode_role_message(rq->data, &d), 0);
    ck_assert_uint_eq(d.role, OFPCR12_ROLE_MASTER);
    ck_assert(d.have_generation_id);
    ck_assert_uint_eq(d.generation_id, 5);
    ofpbuf_delete(rq);

    rq = check_ofp_from_hex(role_request_13_nogen_hex);
    ((struct ofp_header *) rq->data)->type = 24;
    d = (struct ofputil_role_request) {
        .role = OFPCR12_ROLE_SLAVE, .have_generation_id = true,
        .generation_id = 7,
    };
    check_ofp_msg(ofputil_encode_role_reply(rq->data, &d), role_reply_13_hex,
              role_reply_13_text);
    ofpbuf_delete(rq);

    /* 3.1's errors for roles that do not exist, in both forms. */
    static const char *const bad[] = {
        "03180018000000010000000700000000ffffffffffffffff",
        "0104001400000001000023200000000a00000003",
    };
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        struct ofpbuf *b = check_ofp_from_hex(bad[i]);
        ck_assert_int_eq(ofputil_decode_role_message(b->data, &d),
                         OFPERR_OFPRRFC_BAD_ROLE);
        ofpbuf_delete(b);
    }

    struct ofputil_role_status rs = {
        .role = OFPCR12_ROLE_MASTER, .reason = OFPCRR_CONFIG,
        .generation_id = 9,
    };
    /* Unsolicited, so xid 0 whatever the next xid is. */
    set_next_xid(1);
    struct ofpbuf *b = ofputil_encode_role_status(&rs, OFP14_VERSION);
    struct ofputil_role_status ds;
    ck_assert_int_eq(ofputil_decode_role_status(b->data, &ds), 0);
    ck_assert_uint_eq(ds.role, rs.role);
    ck_assert_uint_eq(ds.reason, rs.reason);
    ck_assert_uint_eq(ds.generation_id, rs.generation_id);
    check_ofp_msg(b, role_status_14_hex, role_status_14_text);

    ck_assert_str_eq(ofputil_role_to_string(OFPCR12_ROLE_SLAVE), "secondary");
}
END_TEST

START_TEST(test_async_config)
{
    set_next_xid(1);
    check_ofp_msg(ofputil_encode_get_async_request(OFP13_VERSION),
              get_async_request_13_hex, get_async_request_13_text);

    /* The defaults, in 1.3's fixed layout and in 1.4's properties. */
    struct ofpbuf *rq = check_ofp_from_hex(get_async_request_13_hex);
    struct ofputil_async_cfg cfg = ofputil_async_cfg_default(OFP13_VERSION);
    check_ofp_msg(ofputil_encode_get_async_reply(rq->data, &cfg),
              get_async_reply_13_default_hex,
              get_async_reply_13_default_text);
    ((struct ofp_header *) rq->data)->version = OFP14_VERSION;
    cfg = ofputil_async_cfg_default(OFP14_VERSION);
    check_ofp_msg(ofputil_encode_get_async_reply(rq->data, &cfg),
              get_async_reply_14_default_hex,
              get_async_reply_14_default_text);
    ofpbuf_delete(rq);

    /* 1.0's Nicira message. */
    cfg = ofputil_async_cfg_default(OFP10_VERSION);
    cfg.master[OAM_PACKET_IN] = 0x7;
    cfg.slave[OAM_PACKET_IN] = 0x3;
    cfg.master[OAM_FLOW_REMOVED] = 0xf;
    set_next_xid(1);
    check_ofp_msg(ofputil_encode_set_async_config(&cfg, 0x7, OFP10_VERSION),
              nx_set_async_config_10_hex, nx_set_async_config_10_text);

    /* 1.4, every type, and then only role status. */
    cfg = ofputil_async_cfg_default(OFP14_VERSION);
    cfg.master[OAM_ROLE_STATUS] = 0x5;
    cfg.master[OAM_TABLE_STATUS] = 0x18;
    cfg.master[OAM_REQUESTFORWARD] = 0x3;
    set_next_xid(1);
    struct ofpbuf *b = ofputil_encode_set_async_config(
        &cfg, (1u << OAM_N_TYPES) - 1, OFP14_VERSION);
    struct ofputil_async_cfg zero, d;
    memset(&zero, 0, sizeof zero);
    ck_assert_int_eq(ofputil_decode_set_async_config(b->data, false, &zero,
                                                     &d), 0);
    ck_assert(!memcmp(&d, &cfg, sizeof d));
    check_ofp_msg(b, set_async_14_hex, set_async_14_text);
    set_next_xid(1);
    check_ofp_msg(ofputil_encode_set_async_config(&cfg, 1u << OAM_ROLE_STATUS,
                                              OFP14_VERSION),
              set_async_14_some_hex, set_async_14_some_text);

    /* A partial 1.4 message changes only what it carries. */
    b = check_ofp_from_hex(set_async_14_some_hex);
    struct ofputil_async_cfg basis = ofputil_async_cfg_default(OFP14_VERSION);
    ck_assert_int_eq(ofputil_decode_set_async_config(b->data, false, &basis,
                                                     &d), 0);
    ck_assert_uint_eq(d.master[OAM_ROLE_STATUS], 0x5);
    ck_assert_uint_eq(d.master[OAM_PACKET_IN], basis.master[OAM_PACKET_IN]);
    ofpbuf_delete(b);

    /* 1.3's layout drops the reasons it cannot mean. */
    b = check_ofp_from_hex("041c0020000000010000010700000003000000070000000700"
                 "00000f00000000");
    ck_assert_int_eq(ofputil_decode_set_async_config(b->data, false, &zero,
                                                     &d), 0);
    ck_assert_uint_eq(d.master[OAM_PACKET_IN], 0x7);
    ofpbuf_delete(b);

    /* 3.1's errors in 1.4 properties, and what LOOSE forgives. */
    static const struct {
        const char *hex;
        enum ofperr strict, loose;
    } bad[] = {
        /* TABLE_STATUS master with reasons it does not have. */
        { "051c00100000000100090008 0000001f", OFPERR_OFPACFC_INVALID, 0 },
        /* Property type 12 is not an async property. */
        { "051c001000000001000c00080000003f", OFPERR_OFPACFC_UNSUPPORTED,
          0 },
        /* A property length that is not 8. */
        { "051c00100000000100010007 0000003f", OFPERR_OFPBPC_BAD_LEN,
          OFPERR_OFPBPC_BAD_LEN },
    };
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        b = check_ofp_from_hex(bad[i].hex);
        ck_assert_int_eq(ofputil_decode_set_async_config(b->data, false,
                                                         &zero, &d),
                         bad[i].strict);
        ck_assert_int_eq(ofputil_decode_set_async_config(b->data, true,
                                                         &zero, &d),
                         bad[i].loose);
        ofpbuf_delete(b);
    }
}
END_TEST

static Suite *
ofp_switch_suite(void)
{
    Suite *s = suite_create("ofp-switch");
    TCase *tc = tcase_create("ofp-switch");
    tcase_add_test(tc, test_features);
    tcase_add_test(tc, test_switch_config);
    tcase_add_test(tc, test_desc);
    tcase_add_test(tc, test_barrier);
    tcase_add_test(tc, test_roles);
    tcase_add_test(tc, test_async_config);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(ofp_switch_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
