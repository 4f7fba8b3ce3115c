/* Unit tests for ofp-phy-port.h: port descriptions in the 1.0, 1.1-1.3
 * and 1.4+ layouts, port status, port mod, port description and port
 * statistics multiparts.
 *
 * Each encoder's output must equal the bytes below, laid out as Open
 * vSwitch 3.1 writes these messages; each text is 3.1's "ovs-ofctl
 * ofp-print" of those bytes, which our printer must reproduce. */
#include <config.h>
#include "ofp-phy-port.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "check-ofp.h"
#include "check-util.h"
#include "list.h"
#include "ofp-msgs.h"
#include "ofp-port.h"
#include "ofp-print.h"
#include "ofpbuf.h"
#include "packets.h"
#include "util.h"

/* port_status_10 */
static const char port_status_10_hex[] =
      "010c004000000000000000000000000000015054000000016574683000000000"
      "000000000000000000000011000002010000028f0000028f0000028f0000028f";
static const char port_status_10_text[] =
      "OFPT_PORT_STATUS (xid=0x0): ADD: 1(eth0): addr:50:54:00:00:00:01\n"
      "     config:     PORT_DOWN NO_FLOOD\n"
      "     state:      STP_FORWARDLINK_DOWN\n"
      "     current:    10MB-HD 10MB-FD 100MB-HD 100MB-FD COPPER AUTO_NEG\n"
      "     advertised: 10MB-HD 10MB-FD 100MB-HD 100MB-FD COPPER AUTO_NEG\n"
      "     supported:  10MB-HD 10MB-FD 100MB-HD 100MB-FD COPPER AUTO_NEG\n"
      "     peer:       10MB-HD 10MB-FD 100MB-HD 100MB-FD COPPER AUTO_NEG\n"
      "     speed: 100 Mbps now, 100 Mbps max\n";

/* port_status_11 */
static const char port_status_11_hex[] =
      "020c0050000000000200000000000000fffffffe000000005054000000010000"
      "6272300000000000000000000000000000000065000000070000282000002820"
      "0000ffff0000000000989680000f4240";
static const char port_status_11_text[] =
      "OFPT_PORT_STATUS (OF1.1) (xid=0x0): MOD: LOCAL(br0): addr:50:54:00:00:00:01\n"
      "     config:     PORT_DOWN NO_RECV NO_FWD NO_PACKET_IN\n"
      "     state:      LINK_DOWN BLOCKED LIVE\n"
      "     current:    1GB-FD COPPER AUTO_NEG\n"
      "     advertised: 1GB-FD COPPER AUTO_NEG\n"
      "     supported:  10MB-HD 10MB-FD 100MB-HD 100MB-FD 1GB-HD 1GB-FD 10GB-FD 40GB-FD 100GB-FD 1TB-FD OTHER COPPER FIBER AUTO_NEG AUTO_PAUSE AUTO_PAUSE_ASYM\n"
      "     speed: 10000 Mbps now, 1000 Mbps max\n";

/* port_status_14 */
static const char port_status_14_hex[] =
      "050c005800000000010000000000000000000003004800005054000000010000"
      "7033000000000000000000000000000000000000000000040000002000000000"
      "00002820000000000000000000000000000f424000000000";
static const char port_status_14_text[] =
      "OFPT_PORT_STATUS (OF1.4) (xid=0x0): DEL: 3(p3): addr:50:54:00:00:00:01\n"
      "     config:     0\n"
      "     state:      LIVE\n"
      "     current:    1GB-FD COPPER AUTO_NEG\n"
      "     speed: 1000 Mbps now, 0 Mbps max\n";

/* port_mod_10 */
static const char port_mod_10_hex[] =
      "010f002000000001000350540000000100000001000000410000082000000000";
static const char port_mod_10_text[] =
      "OFPT_PORT_MOD (xid=0x1): port: 3: addr:50:54:00:00:00:01\n"
      "     config: PORT_DOWN\n"
      "     mask:   PORT_DOWN NO_PACKET_IN\n"
      "     advertise: 1GB-FD AUTO_PAUSE_ASYM\n";

/* port_mod_13 */
static const char port_mod_13_hex[] =
      "0410002800000001000000030000000050540000000100000000000100000041"
      "0000282000000000";
static const char port_mod_13_text[] =
      "OFPT_PORT_MOD (OF1.3) (xid=0x1): port: 3: addr:50:54:00:00:00:01\n"
      "     config: PORT_DOWN\n"
      "     mask:   PORT_DOWN NO_PACKET_IN\n"
      "     advertise: 1GB-FD COPPER AUTO_NEG\n";

/* port_mod_14 */
static const char port_mod_14_hex[] =
      "0510002800000001fffffffe0000000050540000000100000000000000000001"
      "0000000800000020";
static const char port_mod_14_text[] =
      "OFPT_PORT_MOD (OF1.4) (xid=0x1): port: LOCAL: addr:50:54:00:00:00:01\n"
      "     config: 0\n"
      "     mask:   PORT_DOWN\n"
      "     advertise: 1GB-FD\n";

/* port_mod_14_noadv */
static const char port_mod_14_noadv_hex[] =
      "0510002000000001000000030000000050540000000100000000000000000001";
static const char port_mod_14_noadv_text[] =
      "OFPT_PORT_MOD (OF1.4) (xid=0x1): port: 3: addr:50:54:00:00:00:01\n"
      "     config: 0\n"
      "     mask:   PORT_DOWN\n"
      "     advertise: UNCHANGED\n";

/* port_desc_request_10 */
static const char port_desc_request_10_hex[] =
      "0110000c00000001000d0000";
static const char port_desc_request_10_text[] =
      "OFPST_PORT_DESC request (xid=0x1): port=ANY\n";

/* port_desc_request_15 */
static const char port_desc_request_15_hex[] =
      "0612001800000001000d0000000000000000000300000000";
static const char port_desc_request_15_text[] =
      "OFPST_PORT_DESC request (OF1.5) (xid=0x1): port=3\n";

/* port_desc_request_13 */
static const char port_desc_request_13_hex[] =
      "0412001000000001000d000000000000";
static const char port_desc_request_13_text[] =
      "OFPST_PORT_DESC request (OF1.3) (xid=0x1): port=ANY\n";

/* port_desc_reply_10 */
static const char port_desc_reply_10_hex[] =
      "0111006c00000001000d00000001505400000001657468300000000000000000"
      "0000000000000000000000000000028f0000028f0000028f00000000fffe5054"
      "0000000162723000000000000000000000000000000000010000000100000000"
      "000000000000000000000000";
static const char port_desc_reply_10_text[] =
      "OFPST_PORT_DESC reply (xid=0x1):\n"
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

/* port_desc_reply_13 */
static const char port_desc_reply_13_hex[] =
      "0413009000000001000d00000000000000000001000000005054000000010000"
      "6574683000000000000000000000000000000000000000040000282000002820"
      "0000282000000000000f4240000f4240fffffffe000000005054000000010000"
      "6272300000000000000000000000000000000001000000010000000000000000"
      "00000000000000000000000000000000";
static const char port_desc_reply_13_text[] =
      "OFPST_PORT_DESC reply (OF1.3) (xid=0x1):\n"
      " 1(eth0): addr:50:54:00:00:00:01\n"
      "     config:     0\n"
      "     state:      LIVE\n"
      "     current:    1GB-FD COPPER AUTO_NEG\n"
      "     advertised: 1GB-FD COPPER AUTO_NEG\n"
      "     supported:  1GB-FD COPPER AUTO_NEG\n"
      "     speed: 1000 Mbps now, 1000 Mbps max\n"
      " LOCAL(br0): addr:50:54:00:00:00:01\n"
      "     config:     PORT_DOWN\n"
      "     state:      LINK_DOWN\n"
      "     speed: 0 Mbps now, 0 Mbps max\n";

/* port_desc_reply_14 */
static const char port_desc_reply_14_hex[] =
      "051300a000000001000d00000000000000000001004800005054000000010000"
      "6574683000000000000000000000000000000000000000040000002000000000"
      "00002820000028200000282000000000000f4240000f4240fffffffe00480000"
      "5054000000010000627230000000000000000000000000000000000100000001"
      "0000002000000000000000000000000000000000000000000000000000000000";
static const char port_desc_reply_14_text[] =
      "OFPST_PORT_DESC reply (OF1.4) (xid=0x1):\n"
      " 1(eth0): addr:50:54:00:00:00:01\n"
      "     config:     0\n"
      "     state:      LIVE\n"
      "     current:    1GB-FD COPPER AUTO_NEG\n"
      "     advertised: 1GB-FD COPPER AUTO_NEG\n"
      "     supported:  1GB-FD COPPER AUTO_NEG\n"
      "     speed: 1000 Mbps now, 1000 Mbps max\n"
      " LOCAL(br0): addr:50:54:00:00:00:01\n"
      "     config:     PORT_DOWN\n"
      "     state:      LINK_DOWN\n"
      "     speed: 0 Mbps now, 0 Mbps max\n";

/* port_stats_request_10 */
static const char port_stats_request_10_hex[] =
      "011000140000000100040000ffff000000000000";
static const char port_stats_request_10_text[] =
      "OFPST_PORT request (xid=0x1): port_no=ANY\n";

/* port_stats_request_13 */
static const char port_stats_request_13_hex[] =
      "04120018000000010004000000000000ffffffff00000000";
static const char port_stats_request_13_text[] =
      "OFPST_PORT request (OF1.3) (xid=0x1): port_no=ANY\n";

/* port_stats_request_13_local */
static const char port_stats_request_13_local_hex[] =
      "04120018000000010004000000000000fffffffe00000000";
static const char port_stats_request_13_local_text[] =
      "OFPST_PORT request (OF1.3) (xid=0x1): port_no=LOCAL\n";

/* port_stats_reply_10 */
static const char port_stats_reply_10_hex[] =
      "011100dc00000001000400000001000000000000000000000000000100000000"
      "0000000200000000000000030000000000000004000000000000000500000000"
      "0000000600000000000000070000000000000008000000000000000900000000"
      "0000000a000000000000000b000000000000000cfffe000000000000ffffffff"
      "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
      "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
      "ffffffffffffffffffffffffffffffffffffffffffffffffffffffff";
static const char port_stats_reply_10_text[] =
      "OFPST_PORT reply (xid=0x1): 2 ports\n"
      "  port  1: rx pkts=1, bytes=3, drop=5, errs=7, frame=9, over=10, crc=11\n"
      "           tx pkts=2, bytes=4, drop=6, errs=8, coll=12\n"
      "  port LOCAL: rx pkts=?, bytes=?, drop=?, errs=?, frame=?, over=?, crc=?\n"
      "           tx pkts=?, bytes=?, drop=?, errs=?, coll=?\n";

/* port_stats_reply_12 */
static const char port_stats_reply_12_hex[] =
      "0313007800000001000400000000000000000001000000000000000000000001"
      "0000000000000002000000000000000300000000000000040000000000000005"
      "0000000000000006000000000000000700000000000000080000000000000009"
      "000000000000000a000000000000000b000000000000000c";
static const char port_stats_reply_12_text[] =
      "OFPST_PORT reply (OF1.2) (xid=0x1): 1 ports\n"
      "  port  1: rx pkts=1, bytes=3, drop=5, errs=7, frame=9, over=10, crc=11\n"
      "           tx pkts=2, bytes=4, drop=6, errs=8, coll=12\n";

/* port_stats_reply_13 */
static const char port_stats_reply_13_hex[] =
      "0413008000000001000400000000000000000001000000000000000000000001"
      "0000000000000002000000000000000300000000000000040000000000000005"
      "0000000000000006000000000000000700000000000000080000000000000009"
      "000000000000000a000000000000000b000000000000000c000000051dcd6500";
static const char port_stats_reply_13_text[] =
      "OFPST_PORT reply (OF1.3) (xid=0x1): 1 ports\n"
      "  port  1: rx pkts=1, bytes=3, drop=5, errs=7, frame=9, over=10, crc=11\n"
      "           tx pkts=2, bytes=4, drop=6, errs=8, coll=12\n"
      "           duration=5.500s\n";

/* port_stats_reply_14 */
/* 3.1's reply for a dummy port: the RFC 2819 property, then the custom
 * counters of a dummy device. */
static const char port_stats_reply_14_custom_hex[] =
    "051301e000000001000400000000000001d0000000000002000005e82a7f8440"
    "000000000000000000000000000000030000000000000000000000000000007e"
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
    "0000002800000000ffffffffffffffffffffffffffffffffffffffffffffffff"
    "ffffffffffffffffffff00b80000aa010000000100000000ffffffffffffffff"
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
    "ffff009c0000aa0100000002000000061372785f637573746f6d5f7061636b65"
    "74735f3100000000000000001372785f637573746f6d5f7061636b6574735f32"
    "00000000000000000b72785f71305f627974657300000000000000000d72785f"
    "71305f7061636b65747300000000000000000b74785f71305f62797465730000"
    "00000000007e0d74785f71305f7061636b657473000000000000000300000000";

/* After the Ethernet property, the Intel RFC 2819 one that 3.1 sends with
 * every port, its 21 counters unknown. */
static const char port_stats_reply_14_hex[] =
      "051301400000000100040000000000000130000000000001000000051dcd6500"
      "0000000000000001000000000000000200000000000000030000000000000004"
      "0000000000000005000000000000000600000000000000070000000000000008"
      "00000028000000000000000000000009000000000000000a000000000000000b"
      "000000000000000cffff00b80000aa010000000100000000ffffffffffffffff"
      "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
      "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
      "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
      "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
      "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff";
static const char port_stats_reply_14_text[] =
      "OFPST_PORT reply (OF1.4) (xid=0x1): 1 ports\n"
      "  port  1: rx pkts=1, bytes=3, drop=5, errs=7, frame=9, over=10, crc=11\n"
      "           tx pkts=2, bytes=4, drop=6, errs=8, coll=12\n"
      "           duration=5.500s\n";

static const struct eth_addr mac = { { 0x50, 0x54, 0, 0, 0, 0x01 } };

static struct ofputil_phy_port
make_port(uint32_t port_no, const char *name, uint32_t config,
          uint32_t state, uint32_t features, uint32_t speed)
{
    struct ofputil_phy_port pp;
    memset(&pp, 0, sizeof pp);
    pp.port_no = port_no;
    pp.hw_addr = mac;
    snprintf(pp.name, sizeof pp.name, "%s", name);
    pp.config = config;
    pp.state = state;
    pp.curr = pp.advertised = pp.supported = features;
    pp.curr_speed = pp.max_speed = speed;
    return pp;
}

#define F100 (NETDEV_F_10MB_HD | NETDEV_F_10MB_FD | NETDEV_F_100MB_HD \
              | NETDEV_F_100MB_FD | NETDEV_F_COPPER | NETDEV_F_AUTONEG)
#define F1G (NETDEV_F_1GB_FD | NETDEV_F_COPPER | NETDEV_F_AUTONEG)

START_TEST(test_port_status)
{
    struct ofputil_port_status ps = {
        .reason = OFPPR_ADD,
        .desc = make_port(1, "eth0", OFPUTIL_PC_PORT_DOWN
                          | OFPUTIL_PC_NO_FLOOD,
                          OFPUTIL_PS_LINK_DOWN | OFPUTIL_PS_STP_FORWARD,
                          F100, 0),
    };
    ps.desc.peer = F100;
    struct ofpbuf *b = ofputil_encode_port_status(&ps, OFP10_VERSION);
    /* 1.0 derives the speeds from the features. */
    struct ofputil_port_status d;
    ck_assert_int_eq(ofputil_decode_port_status(b->data, &d), 0);
    ck_assert_uint_eq(d.desc.curr_speed, 100000);
    ck_assert_uint_eq(d.desc.max_speed, 100000);
    ck_assert_uint_eq(d.desc.config, ps.desc.config);
    ck_assert_uint_eq(d.desc.state, ps.desc.state);
    ck_assert_uint_eq(d.desc.peer, F100);
    check_ofp_msg(b, port_status_10_hex, port_status_10_text);

    /* 1.1+: 1.0-only bits are not sent. */
    ps.reason = OFPPR_MODIFY;
    ps.desc = make_port(OFPP_LOCAL, "br0",
                        OFPUTIL_PC_PORT_DOWN | OFPUTIL_PC_NO_RECV
                        | OFPUTIL_PC_NO_FWD | OFPUTIL_PC_NO_PACKET_IN
                        | OFPUTIL_PC_NO_FLOOD,
                        OFPUTIL_PS_LINK_DOWN | OFPUTIL_PS_BLOCKED
                        | OFPUTIL_PS_LIVE, F1G, 0);
    ps.desc.supported = 0xffff;
    ps.desc.curr_speed = 10000000;
    ps.desc.max_speed = 1000000;
    b = ofputil_encode_port_status(&ps, OFP11_VERSION);
    ck_assert_int_eq(ofputil_decode_port_status(b->data, &d), 0);
    ck_assert_uint_eq(d.desc.port_no, OFPP_LOCAL);
    ck_assert_uint_eq(d.desc.supported, 0xffff);
    ck_assert_uint_eq(d.desc.curr_speed, 10000000);
    check_ofp_msg(b, port_status_11_hex, port_status_11_text);

    ps.reason = OFPPR_DELETE;
    ps.desc = make_port(3, "p3", 0, OFPUTIL_PS_LIVE, 0, 0);
    ps.desc.curr = F1G;
    ps.desc.curr_speed = 1000000;
    b = ofputil_encode_port_status(&ps, OFP14_VERSION);
    ck_assert_int_eq(ofputil_decode_port_status(b->data, &d), 0);
    ck_assert_str_eq(d.desc.name, "p3");
    ck_assert_uint_eq(d.desc.curr, F1G);
    check_ofp_msg(b, port_status_14_hex, port_status_14_text);

    /* 3.1's errors: an unknown reason; a 1.1 port number 1.0's numbering
     * cannot hold; a 1.4 port whose length overruns the message; a bad
     * Ethernet property length. */
    static const struct {
        const char *hex;
        enum ofperr error;
    } bad[] = {
        { "010c004000000001070000000000000000015054000000016574683000000000"
          "0000000000000000000000000000000000000000000000000000000000000000",
          OFPERR_NXBRC_BAD_REASON },
        { "020c005000000001020000000000000000 00ff00000000005054000000010000"
          "6272300000000000000000000000000000000002000000080001000000000000"
          "0000000000000000000000000000000000000000",
          OFPERR_OFPBAC_BAD_OUT_PORT },
        { "050c005000000001010000000000000000000003006400005054000000010000"
          "7000000000000000000000000000000000000000000000040000002000000000"
          "0000282000000000000000000000000000002710",
          OFPERR_OFPBRC_BAD_LEN },
        { "050c006000000001010000000000000000000003005000005054000000010000"
          "7000000000000000000000000000000000000000000000040000002000000000"
          "0000282000000000000000000000000000002710000000000000000800000000",
          OFPERR_OFPBPC_BAD_LEN },
    };
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        b = check_ofp_from_hex(bad[i].hex);
        ck_assert_int_eq(ofputil_decode_port_status(b->data, &d),
                         bad[i].error);
        ofpbuf_delete(b);
    }
}
END_TEST

START_TEST(test_port_mod)
{
    struct ofputil_port_mod pm = {
        .port_no = 3, .hw_addr = mac,
        .config = OFPUTIL_PC_PORT_DOWN,
        .mask = OFPUTIL_PC_PORT_DOWN | OFPUTIL_PC_NO_PACKET_IN,
        .advertise = NETDEV_F_1GB_FD | NETDEV_F_PAUSE_ASYM,
    };
    set_next_xid(1);
    check_ofp_msg(ofputil_encode_port_mod(&pm, OFP10_VERSION), port_mod_10_hex,
              port_mod_10_text);
    pm.advertise = F1G;
    set_next_xid(1);
    check_ofp_msg(ofputil_encode_port_mod(&pm, OFP13_VERSION), port_mod_13_hex,
              port_mod_13_text);
    pm = (struct ofputil_port_mod) {
        .port_no = OFPP_LOCAL, .hw_addr = mac, .config = 0,
        .mask = OFPUTIL_PC_PORT_DOWN, .advertise = NETDEV_F_1GB_FD,
    };
    set_next_xid(1);
    check_ofp_msg(ofputil_encode_port_mod(&pm, OFP14_VERSION), port_mod_14_hex,
              port_mod_14_text);
    /* No advertisement: no Ethernet property. */
    pm.port_no = 3;
    pm.advertise = 0;
    set_next_xid(1);
    check_ofp_msg(ofputil_encode_port_mod(&pm, OFP14_VERSION),
              port_mod_14_noadv_hex, port_mod_14_noadv_text);

    struct ofputil_port_mod d;
    struct ofpbuf *b = check_ofp_from_hex(port_mod_10_hex);
    ck_assert_int_eq(ofputil_decode_port_mod(b->data, &d, false), 0);
    ck_assert_uint_eq(d.port_no, 3);
    ck_assert_uint_eq(d.advertise, NETDEV_F_1GB_FD | NETDEV_F_PAUSE_ASYM);
    ck_assert_uint_eq(d.mask, OFPUTIL_PC_PORT_DOWN | OFPUTIL_PC_NO_PACKET_IN);
    ofpbuf_delete(b);
    b = check_ofp_from_hex(port_mod_14_hex);
    ck_assert_int_eq(ofputil_decode_port_mod(b->data, &d, false), 0);
    ck_assert_uint_eq(d.port_no, OFPP_LOCAL);
    ck_assert_uint_eq(d.advertise, NETDEV_F_1GB_FD);
    ofpbuf_delete(b);

    /* 1.0-only config bits in 1.1: refused strictly, dropped loosely. */
    b = check_ofp_from_hex("02100028000000010000000700000000505400000001000000"
                 "00007f0000007f0000282000000000");
    ck_assert_int_eq(ofputil_decode_port_mod(b->data, &d, false),
                     OFPERR_OFPPMFC_BAD_CONFIG);
    ck_assert_int_eq(ofputil_decode_port_mod(b->data, &d, true), 0);
    ck_assert_uint_eq(d.config, 0x65);
    ofpbuf_delete(b);
    /* A port 1.0's numbering cannot hold; a bad property length; an
     * unknown property (strict only). */
    b = check_ofp_from_hex("021000280000000100 00ff0000000000505400000001000000"
                 "00000100000041000028200000 0000");
    ck_assert_int_eq(ofputil_decode_port_mod(b->data, &d, true),
                     OFPERR_OFPBAC_BAD_OUT_PORT);
    ofpbuf_delete(b);
    b = check_ofp_from_hex("0510002800000001000000030000000050540000000100000000000000000001"
                 "0000000700000020");
    ck_assert_int_eq(ofputil_decode_port_mod(b->data, &d, true),
                     OFPERR_OFPBPC_BAD_LEN);
    ofpbuf_delete(b);
    b = check_ofp_from_hex("0510002800000001000000030000000050540000000100000000000000000001"
                 "0005000800000020");
    ck_assert_int_eq(ofputil_decode_port_mod(b->data, &d, false),
                     OFPERR_OFPBPC_BAD_TYPE);
    ck_assert_int_eq(ofputil_decode_port_mod(b->data, &d, true), 0);
    ofpbuf_delete(b);
}
END_TEST

/* Builds a port desc reply in VERSION with eth0 and LOCAL. */
static struct ofpbuf *
make_port_desc_reply(const char *request_hex)
{
    struct ofpbuf *rq = check_ofp_from_hex(request_hex);
    struct ovs_list replies;
    ofpmp_init(&replies, rq->data);
    struct ofputil_phy_port eth0 = make_port(1, "eth0", 0, 0, F100, 0);
    struct ofputil_phy_port local = make_port(OFPP_LOCAL, "br0",
                                              OFPUTIL_PC_PORT_DOWN,
                                              OFPUTIL_PS_LINK_DOWN, 0, 0);
    if (((const struct ofp_header *) rq->data)->version > OFP10_VERSION) {
        eth0 = make_port(1, "eth0", 0, OFPUTIL_PS_LIVE, F1G, 1000000);
    }
    ofputil_append_port_desc_stats_reply(&eth0, &replies);
    ofputil_append_port_desc_stats_reply(&local, &replies);
    ck_assert_uint_eq(ovs_list_size(&replies), 1);
    struct ofpbuf *reply = ofpbuf_from_list(ovs_list_pop_front(&replies));
    ofpbuf_delete(rq);
    return reply;
}

START_TEST(test_port_desc)
{
    set_next_xid(1);
    check_ofp_msg(ofputil_encode_port_desc_stats_request(OFP10_VERSION,
                                                     OFPP_ANY),
              port_desc_request_10_hex, port_desc_request_10_text);
    set_next_xid(1);
    check_ofp_msg(ofputil_encode_port_desc_stats_request(OFP13_VERSION,
                                                     OFPP_ANY),
              port_desc_request_13_hex, port_desc_request_13_text);
    set_next_xid(1);
    check_ofp_msg(ofputil_encode_port_desc_stats_request(OFP15_VERSION, 3),
              port_desc_request_15_hex, port_desc_request_15_text);

    uint32_t port;
    struct ofpbuf *b = check_ofp_from_hex(port_desc_request_15_hex);
    ck_assert_int_eq(ofputil_decode_port_desc_stats_request(b->data, &port),
                     0);
    ck_assert_uint_eq(port, 3);
    ofpbuf_delete(b);
    b = check_ofp_from_hex(port_desc_request_10_hex);
    ck_assert_int_eq(ofputil_decode_port_desc_stats_request(b->data, &port),
                     0);
    ck_assert_uint_eq(port, OFPP_ANY);
    ofpbuf_delete(b);

    check_ofp_msg(make_port_desc_reply(port_desc_request_10_hex),
              port_desc_reply_10_hex, port_desc_reply_10_text);
    check_ofp_msg(make_port_desc_reply(port_desc_request_13_hex),
              port_desc_reply_13_hex, port_desc_reply_13_text);
    /* 1.4 has the same request as 1.3, and ports with properties. */
    char *rq14 = xstrdup(port_desc_request_13_hex);
    rq14[1] = '5';
    check_ofp_msg(make_port_desc_reply(rq14), port_desc_reply_14_hex,
              port_desc_reply_14_text);
    free(rq14);

    b = check_ofp_from_hex(port_desc_reply_14_hex);
    ofpraw_pull_assert(b);
    struct ofputil_phy_port pp;
    ck_assert_int_eq(ofputil_pull_port_desc_stats_reply(OFP14_VERSION, b,
                                                        &pp), 0);
    ck_assert_str_eq(pp.name, "eth0");
    ck_assert_uint_eq(pp.max_speed, 1000000);
    ck_assert_int_eq(ofputil_pull_port_desc_stats_reply(OFP14_VERSION, b,
                                                        &pp), 0);
    ck_assert_uint_eq(pp.port_no, OFPP_LOCAL);
    ck_assert_int_eq(ofputil_pull_port_desc_stats_reply(OFP14_VERSION, b,
                                                        &pp), EOF);
    ofpbuf_delete(b);
}
END_TEST

/* The port desc reply splits into parts before 64 kB, every port whole. */
START_TEST(test_port_desc_split)
{
    struct ofpbuf *rq = check_ofp_from_hex(port_desc_request_13_hex);
    struct ovs_list replies;
    ofpmp_init(&replies, rq->data);
    for (uint32_t i = 1; i <= 2000; i++) {
        struct ofputil_phy_port pp = make_port(i, "p", 0, 0, F1G, 1000000);
        ofputil_append_port_desc_stats_reply(&pp, &replies);
    }
    uint32_t next = 1;
    struct ofpbuf *part;
    size_t n_parts = 0;
    LIST_FOR_EACH (part, list_node, &replies) {
        ck_assert_uint_le(part->size, 65535);
        struct ofpbuf b;
        ofpbuf_use_const(&b, part->data, part->size);
        ofpraw_pull_assert(&b);
        struct ofputil_phy_port pp;
        while (!ofputil_pull_phy_port(OFP13_VERSION, &b, &pp)) {
            ck_assert_uint_eq(pp.port_no, next++);
        }
        n_parts++;
    }
    ck_assert_uint_eq(next, 2001);
    ck_assert_uint_ge(n_parts, 2);
    ofpbuf_list_delete(&replies);
    ofpbuf_delete(rq);
}
END_TEST

static struct ofputil_port_stats
make_stats(uint32_t port_no, uint64_t base)
{
    struct ofputil_port_stats ps = {
        .port_no = port_no,
        .rx_packets = base + 0, .tx_packets = base + 1,
        .rx_bytes = base + 2, .tx_bytes = base + 3,
        .rx_dropped = base + 4, .tx_dropped = base + 5,
        .rx_errors = base + 6, .tx_errors = base + 7,
        .rx_frame_errors = base + 8, .rx_over_errors = base + 9,
        .rx_crc_errors = base + 10, .collisions = base + 11,
        .duration_sec = 5, .duration_nsec = 500000000,
    };
    return ps;
}

static struct ofpbuf *
make_port_stats_reply(const char *request_hex, bool with_local)
{
    struct ofpbuf *rq = check_ofp_from_hex(request_hex);
    struct ovs_list replies;
    ofpmp_init(&replies, rq->data);
    struct ofputil_port_stats ps = make_stats(1, 1);
    ofputil_append_port_stat(&replies, &ps);
    if (with_local) {
        ps = make_stats(OFPP_LOCAL, UINT64_MAX);
        for (uint64_t *c = &ps.rx_packets; c <= &ps.collisions; c++) {
            *c = UINT64_MAX;
        }
        ofputil_append_port_stat(&replies, &ps);
    }
    struct ofpbuf *reply = ofpbuf_from_list(ovs_list_pop_front(&replies));
    ofpbuf_delete(rq);
    return reply;
}

START_TEST(test_port_stats)
{
    set_next_xid(1);
    check_ofp_msg(ofputil_encode_dump_ports_request(OFP10_VERSION, OFPP_ANY),
              port_stats_request_10_hex, port_stats_request_10_text);
    set_next_xid(1);
    check_ofp_msg(ofputil_encode_dump_ports_request(OFP13_VERSION, OFPP_ANY),
              port_stats_request_13_hex, port_stats_request_13_text);
    set_next_xid(1);
    check_ofp_msg(ofputil_encode_dump_ports_request(OFP13_VERSION, OFPP_LOCAL),
              port_stats_request_13_local_hex,
              port_stats_request_13_local_text);
    uint32_t port;
    struct ofpbuf *b = check_ofp_from_hex(port_stats_request_13_local_hex);
    ck_assert_int_eq(ofputil_decode_port_stats_request(b->data, &port), 0);
    ck_assert_uint_eq(port, OFPP_LOCAL);
    ofpbuf_delete(b);

    check_ofp_msg(make_port_stats_reply(port_stats_request_10_hex, true),
              port_stats_reply_10_hex, port_stats_reply_10_text);
    char *rq = xstrdup(port_stats_request_13_hex);
    rq[1] = '3';
    check_ofp_msg(make_port_stats_reply(rq, false), port_stats_reply_12_hex,
              port_stats_reply_12_text);
    rq[1] = '4';
    check_ofp_msg(make_port_stats_reply(rq, false), port_stats_reply_13_hex,
              port_stats_reply_13_text);
    rq[1] = '5';
    check_ofp_msg(make_port_stats_reply(rq, false), port_stats_reply_14_hex,
              port_stats_reply_14_text);
    free(rq);

    /* 3.1's custom counters decode and encode back to the same bytes. */
    b = check_ofp_from_hex(port_stats_reply_14_custom_hex);
    struct ofputil_port_stats custom;
    ck_assert_int_eq(ofputil_decode_port_stats(&custom, b), 0);
    ck_assert_uint_eq(custom.n_custom, 6);
    ck_assert_str_eq(custom.custom[4].name, "tx_q0_bytes");
    ck_assert_uint_eq(custom.custom[4].value, 126);
    ck_assert_uint_eq(custom.rx_dropped, UINT64_MAX);
    struct ofpbuf *request = check_ofp_from_hex(
        "0512001800000001000400000000000000000002" "00000000");
    struct ovs_list custom_replies;
    ofpmp_init(&custom_replies, request->data);
    ofputil_append_port_stat(&custom_replies, &custom);
    struct ofpbuf *encoded = ofpbuf_from_list(
        ovs_list_pop_front(&custom_replies));
    ofpbuf_delete(b);
    b = check_ofp_from_hex(port_stats_reply_14_custom_hex);
    ck_assert_uint_eq(encoded->size, b->size);
    ck_assert_mem_eq(encoded->data, b->data, b->size);
    ofpbuf_delete(encoded);
    ofpbuf_delete(request);
    ofpbuf_delete(b);

    /* Round trips in every layout. */
    static const char *const replies[] = {
        port_stats_reply_10_hex, port_stats_reply_12_hex,
        port_stats_reply_13_hex, port_stats_reply_14_hex,
    };
    for (size_t i = 0; i < ARRAY_SIZE(replies); i++) {
        b = check_ofp_from_hex(replies[i]);
        struct ofputil_port_stats ps, want = make_stats(1, 1);
        ck_assert_int_eq(ofputil_decode_port_stats(&ps, b), 0);
        ck_assert_uint_eq(ps.port_no, 1);
        ck_assert_uint_eq(ps.collisions, want.collisions);
        ck_assert_uint_eq(ps.rx_crc_errors, want.rx_crc_errors);
        ck_assert_uint_eq(ps.tx_bytes, want.tx_bytes);
        ck_assert_uint_eq(ps.duration_sec, i >= 2 ? 5 : UINT32_MAX);
        ofpbuf_delete(b);
        b = check_ofp_from_hex(replies[i]);
        ck_assert_int_eq(ofputil_count_port_stats(b->data), i ? 1 : 2);
        ofpbuf_delete(b);
    }

    /* A 1.4 entry whose length overruns the message: the count stops
     * there and decoding says why (3.1's error). */
    b = check_ofp_from_hex("05130088000000010004000000000000005a000000000001000000"
                 "05004c4b400000000000000001000000000000000200000000000000"
                 "030000000000000004000000000000000500000000000000060000"
                 "00000000000700000000000000080000002800000000000000000000"
                 "0009000000000000000a000000000000000b000000000000000c");
    struct ofputil_port_stats ps;
    ck_assert_int_eq(ofputil_count_port_stats(b->data), 0);
    ck_assert_int_eq(ofputil_decode_port_stats(&ps, b), OFPERR_OFPBPC_BAD_LEN);
    ofpbuf_delete(b);
}
END_TEST

START_TEST(test_features_bits)
{
    ck_assert_uint_eq(netdev_features_to_bps(F100, 0), 100000000);
    ck_assert_uint_eq(netdev_features_to_bps(NETDEV_F_1TB_FD | F100, 0),
                      UINT64_C(1000000000000));
    ck_assert_uint_eq(netdev_features_to_bps(NETDEV_F_COPPER, 42), 42);
}
END_TEST

static Suite *
ofp_phy_port_suite(void)
{
    Suite *s = suite_create("ofp-phy-port");
    TCase *tc = tcase_create("ofp-phy-port");
    tcase_add_test(tc, test_port_status);
    tcase_add_test(tc, test_port_mod);
    tcase_add_test(tc, test_port_desc);
    tcase_add_test(tc, test_port_desc_split);
    tcase_add_test(tc, test_port_stats);
    tcase_add_test(tc, test_features_bits);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(ofp_phy_port_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
