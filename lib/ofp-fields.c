/* ofp-fields: the field table, values, prerequisites and text.
 * See ofp-fields.h. */
#include <config.h>

#include "ofp-fields.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "dynamic-string.h"
#include "hash.h"
#include "hmap.h"
#include "match.h"
#include "mpls.h"
#include "ofp-port.h"
#include "ovs-thread.h"
#include "tun-metadata.h"
#include "util.h"

#define NXM_OF 0x0000
#define NXM_NX 0x0001
#define ERICOXM_OF 0x1000
#define OXM_OF 0x8000
#define OXM_PKT_REG 0x8001
#define NX_EXPERIMENTER 0x00002320      /* NXOXM_ET_*: Nicira's. */
#define NSH_EXPERIMENTER 0x005ad650     /* NXOXM_NSH_*. */

#define NXM(CLASS, FIELD, LEN) NXM_HEADER(CLASS, FIELD, 0, LEN)
#define ONF_OXM(FIELD, LEN) NXM_EXP_HEADER(ONF_VENDOR_ID, FIELD, 0, LEN)
#define NX_OXM(FIELD, LEN) NXM_EXP_HEADER(NX_EXPERIMENTER, FIELD, 0, LEN)
#define NSH_OXM(FIELD, LEN) NXM_EXP_HEADER(NSH_EXPERIMENTER, FIELD, 0, LEN)
#define NO_OXM { { 0, NULL, 0 }, { 0, NULL, 0 } }
#define OXM2(H1, N1, V1, H2, N2, V2) { { H1, N1, V1 }, { H2, N2, V2 } }
#define OXM1(FIELD, LEN, NAME, V) \
    { { NXM(OXM_OF, FIELD, LEN), NAME, V }, { 0, NULL, 0 } }
/* An experimenter OXM, written in every version (there is no other). */
#define OXMX(HEADER, NAME) { { HEADER, NAME, OFP10_VERSION }, { 0, NULL, 0 } }

/* Fields: id, name, extra name, bytes, bits, maskable, string, prereqs,
 * writable, NXM header and name, OXM codes, 1.0 and 1.1 support. */
#define F(ID, NAME, EXTRA, BYTES, BITS, MASK, STR, PREREQ, RW,          \
          NXMH, NXMNAME, OXMS, OF10, OF11)                              \
    [MFF_##ID] = { MFF_##ID, NAME, EXTRA, BYTES, BITS, false, MFM_##MASK,\
                   MFS_##STR, MFP_##PREREQ, RW, false, NXMH, NXMNAME,    \
                   OXMS, MFU_##OF10, MFU_##OF11 }

#define REG(N)                                                          \
    F(REG##N, "reg" #N, NULL, 4, 32, FULLY, HEXADECIMAL, NONE, true,    \
      NXM(NXM_NX, N, 4), "NXM_NX_REG" #N, NO_OXM, NONE, NONE)
#define XREG(N)                                                         \
    F(XREG##N, "xreg" #N, NULL, 8, 64, FULLY, HEXADECIMAL, NONE, true,  \
      0, NULL, OXM1X(N), NONE, NONE)
#define OXM1X(N) \
    { { NXM(OXM_PKT_REG, N, 8), "OXM_OF_PKT_REG" #N, OFP13_VERSION }, \
      { 0, NULL, 0 } }
#define XXREG(N)                                                        \
    F(XXREG##N, "xxreg" #N, NULL, 16, 128, FULLY, HEXADECIMAL, NONE,    \
      true, NXM(NXM_NX, 111 + N, 16), "NXM_NX_XXREG" #N, NO_OXM,        \
      NONE, NONE)
/* tun_metadataN: up to 124 bytes (NXM_NX_TUN_METADATAN's length field
 * says how many a match uses). */
#define TUN_MD(N)                                                       \
    [MFF_TUN_METADATA0 + N] = {                                         \
        MFF_TUN_METADATA0 + N, "tun_metadata" #N, NULL,                 \
        TUN_METADATA_MAX_LEN, TUN_METADATA_MAX_LEN * 8, true, MFM_FULLY, \
        MFS_HEXADECIMAL, MFP_NONE, true, false,                         \
        NXM(NXM_NX, 40 + N, TUN_METADATA_MAX_LEN),                      \
        "NXM_NX_TUN_METADATA" #N, NO_OXM, MFU_NONE, MFU_NONE }
#define NSH_C(N)                                                        \
    F(NSH_C##N, "nsh_c" #N, "nshc" #N, 4, 32, FULLY, HEXADECIMAL, NSH,  \
      true, 0, NULL, OXMX(NSH_OXM(5 + N, 4), "NXOXM_NSH_C" #N),         \
      NONE, NONE)

static const struct mf_field fields[MFF_N_IDS] = {
    F(DP_HASH, "dp_hash", NULL, 4, 32, FULLY, HEXADECIMAL, NONE, false,
      NXM(NXM_NX, 35, 4), "NXM_NX_DP_HASH",
      OXM2(NX_OXM(0, 4), "NXOXM_ET_DP_HASH", 0, 0, NULL, 0), NONE, NONE),
    F(RECIRC_ID, "recirc_id", NULL, 4, 32, NONE, DECIMAL, NONE, false,
      NXM(NXM_NX, 36, 4), "NXM_NX_RECIRC_ID", NO_OXM, NONE, NONE),
    F(PACKET_TYPE, "packet_type", NULL, 4, 32, NONE, PACKET_TYPE, NONE,
      false, 0, NULL, OXM1(44, 4, "OXM_OF_PACKET_TYPE", OFP15_VERSION),
      NONE, NONE),
    F(CONJ_ID, "conj_id", NULL, 4, 32, NONE, DECIMAL, NONE, false,
      NXM(NXM_NX, 37, 4), "NXM_NX_CONJ_ID", NO_OXM, NONE, NONE),
    F(TUN_ID, "tun_id", "tunnel_id", 8, 64, FULLY, HEXADECIMAL, NONE, true,
      NXM(NXM_NX, 16, 8), "NXM_NX_TUN_ID",
      OXM1(38, 8, "OXM_OF_TUNNEL_ID", OFP13_VERSION), NONE, NONE),
    F(TUN_SRC, "tun_src", NULL, 4, 32, FULLY, IPV4, NONE, true,
      NXM(NXM_NX, 31, 4), "NXM_NX_TUN_IPV4_SRC", NO_OXM, NONE, NONE),
    F(TUN_DST, "tun_dst", NULL, 4, 32, FULLY, IPV4, NONE, true,
      NXM(NXM_NX, 32, 4), "NXM_NX_TUN_IPV4_DST", NO_OXM, NONE, NONE),
    F(TUN_IPV6_SRC, "tun_ipv6_src", NULL, 16, 128, FULLY, IPV6, NONE, true,
      NXM(NXM_NX, 109, 16), "NXM_NX_TUN_IPV6_SRC", NO_OXM, NONE, NONE),
    F(TUN_IPV6_DST, "tun_ipv6_dst", NULL, 16, 128, FULLY, IPV6, NONE, true,
      NXM(NXM_NX, 110, 16), "NXM_NX_TUN_IPV6_DST", NO_OXM, NONE, NONE),
    F(TUN_FLAGS, "tun_flags", NULL, 2, 1, FULLY, TNL_FLAGS, NONE, true,
      NXM(NXM_NX, 104, 2), "NXM_NX_TUN_FLAGS", NO_OXM, NONE, NONE),
    F(TUN_TTL, "tun_ttl", NULL, 1, 8, NONE, DECIMAL, NONE, true,
      0, NULL, NO_OXM, NONE, NONE),
    F(TUN_TOS, "tun_tos", NULL, 1, 8, NONE, DECIMAL, NONE, true,
      0, NULL, NO_OXM, NONE, NONE),
    F(TUN_GBP_ID, "tun_gbp_id", NULL, 2, 16, FULLY, DECIMAL, NONE, true,
      NXM(NXM_NX, 38, 2), "NXM_NX_TUN_GBP_ID", NO_OXM, NONE, NONE),
    F(TUN_GBP_FLAGS, "tun_gbp_flags", NULL, 1, 8, FULLY, HEXADECIMAL, NONE,
      true, NXM(NXM_NX, 39, 1), "NXM_NX_TUN_GBP_FLAGS", NO_OXM, NONE, NONE),
    F(TUN_ERSPAN_IDX, "tun_erspan_idx", NULL, 4, 32, FULLY, HEXADECIMAL,
      NONE, true, 0, NULL, OXMX(NX_OXM(11, 4), "NXOXM_ET_ERSPAN_IDX"),
      NONE, NONE),
    F(TUN_ERSPAN_VER, "tun_erspan_ver", NULL, 1, 4, FULLY, DECIMAL, NONE,
      true, 0, NULL, OXMX(NX_OXM(12, 1), "NXOXM_ET_ERSPAN_VER"),
      NONE, NONE),
    F(TUN_ERSPAN_DIR, "tun_erspan_dir", NULL, 1, 1, FULLY, DECIMAL, NONE,
      true, 0, NULL, OXMX(NX_OXM(13, 1), "NXOXM_ET_ERSPAN_DIR"),
      NONE, NONE),
    F(TUN_ERSPAN_HWID, "tun_erspan_hwid", NULL, 1, 6, FULLY, HEXADECIMAL,
      NONE, true, 0, NULL, OXMX(NX_OXM(14, 1), "NXOXM_ET_ERSPAN_HWID"),
      NONE, NONE),
    F(TUN_GTPU_FLAGS, "tun_gtpu_flags", NULL, 1, 8, FULLY, HEXADECIMAL,
      NONE, false, 0, NULL, OXMX(NX_OXM(15, 1), "NXOXM_ET_GTPU_FLAGS"),
      NONE, NONE),
    F(TUN_GTPU_MSGTYPE, "tun_gtpu_msgtype", NULL, 1, 8, FULLY, DECIMAL,
      NONE, false, 0, NULL, OXMX(NX_OXM(16, 1), "NXOXM_ET_GTPU_MSGTYPE"),
      NONE, NONE),
    TUN_MD(0), TUN_MD(1), TUN_MD(2), TUN_MD(3),
    TUN_MD(4), TUN_MD(5), TUN_MD(6), TUN_MD(7),
    TUN_MD(8), TUN_MD(9), TUN_MD(10), TUN_MD(11),
    TUN_MD(12), TUN_MD(13), TUN_MD(14), TUN_MD(15),
    TUN_MD(16), TUN_MD(17), TUN_MD(18), TUN_MD(19),
    TUN_MD(20), TUN_MD(21), TUN_MD(22), TUN_MD(23),
    TUN_MD(24), TUN_MD(25), TUN_MD(26), TUN_MD(27),
    TUN_MD(28), TUN_MD(29), TUN_MD(30), TUN_MD(31),
    TUN_MD(32), TUN_MD(33), TUN_MD(34), TUN_MD(35),
    TUN_MD(36), TUN_MD(37), TUN_MD(38), TUN_MD(39),
    TUN_MD(40), TUN_MD(41), TUN_MD(42), TUN_MD(43),
    TUN_MD(44), TUN_MD(45), TUN_MD(46), TUN_MD(47),
    TUN_MD(48), TUN_MD(49), TUN_MD(50), TUN_MD(51),
    TUN_MD(52), TUN_MD(53), TUN_MD(54), TUN_MD(55),
    TUN_MD(56), TUN_MD(57), TUN_MD(58), TUN_MD(59),
    TUN_MD(60), TUN_MD(61), TUN_MD(62), TUN_MD(63),
    F(METADATA, "metadata", NULL, 8, 64, FULLY, HEXADECIMAL, NONE, true,
      0, NULL, OXM1(2, 8, "OXM_OF_METADATA", OFP12_VERSION), NONE, ANY),
    F(IN_PORT, "in_port", NULL, 2, 16, NONE, OFP_PORT, NONE, true,
      NXM(NXM_OF, 0, 2), "NXM_OF_IN_PORT", NO_OXM, EXACT, EXACT),
    F(IN_PORT_OXM, "in_port_oxm", NULL, 4, 32, NONE, OFP_PORT_OXM, NONE,
      true, 0, NULL, OXM1(0, 4, "OXM_OF_IN_PORT", OFP12_VERSION),
      NONE, EXACT),
    F(ACTSET_OUTPUT, "actset_output", NULL, 4, 32, NONE, OFP_PORT_OXM, NONE,
      false, 0, NULL,
      OXM2(ONF_OXM(43, 4), "ONFOXM_ET_ACTSET_OUTPUT", OFP13_VERSION,
           NXM(OXM_OF, 43, 4), "OXM_OF_ACTSET_OUTPUT", OFP15_VERSION),
      NONE, NONE),
    F(SKB_PRIORITY, "skb_priority", NULL, 4, 32, NONE, HEXADECIMAL, NONE,
      false, 0, NULL, NO_OXM, NONE, NONE),
    F(PKT_MARK, "pkt_mark", NULL, 4, 32, FULLY, HEXADECIMAL, NONE, true,
      NXM(NXM_NX, 33, 4), "NXM_NX_PKT_MARK", NO_OXM, NONE, NONE),
    F(CT_STATE, "ct_state", NULL, 4, 32, FULLY, CT_STATE, NONE, false,
      NXM(NXM_NX, 105, 4), "NXM_NX_CT_STATE", NO_OXM, NONE, NONE),
    F(CT_ZONE, "ct_zone", NULL, 2, 16, NONE, DECIMAL, NONE, false,
      NXM(NXM_NX, 106, 2), "NXM_NX_CT_ZONE", NO_OXM, NONE, NONE),
    F(CT_MARK, "ct_mark", NULL, 4, 32, FULLY, HEXADECIMAL, NONE, true,
      NXM(NXM_NX, 107, 4), "NXM_NX_CT_MARK", NO_OXM, NONE, NONE),
    F(CT_LABEL, "ct_label", NULL, 16, 128, FULLY, HEXADECIMAL, NONE, true,
      NXM(NXM_NX, 108, 16), "NXM_NX_CT_LABEL", NO_OXM, NONE, NONE),
    F(CT_NW_PROTO, "ct_nw_proto", NULL, 1, 8, NONE, DECIMAL, CT_VALID,
      false, NXM(NXM_NX, 119, 1), "NXM_NX_CT_NW_PROTO", NO_OXM, NONE, NONE),
    F(CT_NW_SRC, "ct_nw_src", NULL, 4, 32, FULLY, IPV4, CT_VALID, false,
      NXM(NXM_NX, 120, 4), "NXM_NX_CT_NW_SRC", NO_OXM, NONE, NONE),
    F(CT_NW_DST, "ct_nw_dst", NULL, 4, 32, FULLY, IPV4, CT_VALID, false,
      NXM(NXM_NX, 121, 4), "NXM_NX_CT_NW_DST", NO_OXM, NONE, NONE),
    F(CT_IPV6_SRC, "ct_ipv6_src", NULL, 16, 128, FULLY, IPV6, CT_VALID,
      false, NXM(NXM_NX, 122, 16), "NXM_NX_CT_IPV6_SRC", NO_OXM,
      NONE, NONE),
    F(CT_IPV6_DST, "ct_ipv6_dst", NULL, 16, 128, FULLY, IPV6, CT_VALID,
      false, NXM(NXM_NX, 123, 16), "NXM_NX_CT_IPV6_DST", NO_OXM,
      NONE, NONE),
    F(CT_TP_SRC, "ct_tp_src", NULL, 2, 16, FULLY, DECIMAL, CT_VALID, false,
      NXM(NXM_NX, 124, 2), "NXM_NX_CT_TP_SRC", NO_OXM, NONE, NONE),
    F(CT_TP_DST, "ct_tp_dst", NULL, 2, 16, FULLY, DECIMAL, CT_VALID, false,
      NXM(NXM_NX, 125, 2), "NXM_NX_CT_TP_DST", NO_OXM, NONE, NONE),
    REG(0), REG(1), REG(2), REG(3), REG(4), REG(5), REG(6), REG(7),
    REG(8), REG(9), REG(10), REG(11), REG(12), REG(13), REG(14), REG(15),
    XREG(0), XREG(1), XREG(2), XREG(3), XREG(4), XREG(5), XREG(6), XREG(7),
    XXREG(0), XXREG(1), XXREG(2), XXREG(3),
    F(ETH_SRC, "eth_src", "dl_src", 6, 48, FULLY, ETHERNET, ETHERNET, true,
      NXM(NXM_OF, 2, 6), "NXM_OF_ETH_SRC",
      OXM1(4, 6, "OXM_OF_ETH_SRC", OFP12_VERSION), EXACT, ANY),
    F(ETH_DST, "eth_dst", "dl_dst", 6, 48, FULLY, ETHERNET, ETHERNET, true,
      NXM(NXM_OF, 1, 6), "NXM_OF_ETH_DST",
      OXM1(3, 6, "OXM_OF_ETH_DST", OFP12_VERSION), EXACT, ANY),
    F(ETH_TYPE, "eth_type", "dl_type", 2, 16, NONE, HEXADECIMAL, ETHERNET,
      false, NXM(NXM_OF, 3, 2), "NXM_OF_ETH_TYPE",
      OXM1(5, 2, "OXM_OF_ETH_TYPE", OFP12_VERSION), EXACT, EXACT),
    F(VLAN_TCI, "vlan_tci", NULL, 2, 16, FULLY, HEXADECIMAL, ETHERNET, true,
      NXM(NXM_OF, 4, 2), "NXM_OF_VLAN_TCI", NO_OXM, EXACT, EXACT),
    F(DL_VLAN, "dl_vlan", NULL, 2, 12, NONE, DECIMAL, ETHERNET, true,
      0, NULL, NO_OXM, EXACT, EXACT),
    F(VLAN_VID, "vlan_vid", NULL, 2, 13, FULLY, DECIMAL, ETHERNET, true,
      0, NULL, OXM1(6, 2, "OXM_OF_VLAN_VID", OFP12_VERSION), EXACT, EXACT),
    F(DL_VLAN_PCP, "dl_vlan_pcp", NULL, 1, 3, NONE, DECIMAL, ETHERNET, true,
      0, NULL, NO_OXM, EXACT, EXACT),
    F(VLAN_PCP, "vlan_pcp", NULL, 1, 3, NONE, DECIMAL, VLAN_VID, true,
      0, NULL, OXM1(7, 1, "OXM_OF_VLAN_PCP", OFP12_VERSION), EXACT, EXACT),
    F(MPLS_LABEL, "mpls_label", NULL, 4, 20, NONE, DECIMAL, MPLS, true,
      0, NULL, OXM1(34, 4, "OXM_OF_MPLS_LABEL", OFP12_VERSION),
      NONE, EXACT),
    F(MPLS_TC, "mpls_tc", NULL, 1, 3, NONE, DECIMAL, MPLS, true,
      0, NULL, OXM1(35, 1, "OXM_OF_MPLS_TC", OFP12_VERSION), NONE, EXACT),
    F(MPLS_BOS, "mpls_bos", NULL, 1, 1, NONE, DECIMAL, MPLS, false,
      0, NULL, OXM1(36, 1, "OXM_OF_MPLS_BOS", OFP13_VERSION), NONE, NONE),
    F(MPLS_TTL, "mpls_ttl", NULL, 1, 8, NONE, DECIMAL, MPLS, true,
      NXM(NXM_NX, 30, 1), "NXM_NX_MPLS_TTL", NO_OXM, NONE, NONE),
    F(IPV4_SRC, "ip_src", "nw_src", 4, 32, FULLY, IPV4, IPV4, true,
      NXM(NXM_OF, 7, 4), "NXM_OF_IP_SRC",
      OXM1(11, 4, "OXM_OF_IPV4_SRC", OFP12_VERSION), CIDR, ANY),
    F(IPV4_DST, "ip_dst", "nw_dst", 4, 32, FULLY, IPV4, IPV4, true,
      NXM(NXM_OF, 8, 4), "NXM_OF_IP_DST",
      OXM1(12, 4, "OXM_OF_IPV4_DST", OFP12_VERSION), CIDR, ANY),
    F(IPV6_SRC, "ipv6_src", NULL, 16, 128, FULLY, IPV6, IPV6, true,
      NXM(NXM_NX, 19, 16), "NXM_NX_IPV6_SRC",
      OXM1(26, 16, "OXM_OF_IPV6_SRC", OFP12_VERSION), NONE, NONE),
    F(IPV6_DST, "ipv6_dst", NULL, 16, 128, FULLY, IPV6, IPV6, true,
      NXM(NXM_NX, 20, 16), "NXM_NX_IPV6_DST",
      OXM1(27, 16, "OXM_OF_IPV6_DST", OFP12_VERSION), NONE, NONE),
    F(IPV6_LABEL, "ipv6_label", NULL, 4, 20, FULLY, HEXADECIMAL, IPV6,
      true, NXM(NXM_NX, 27, 4), "NXM_NX_IPV6_LABEL",
      OXM1(28, 4, "OXM_OF_IPV6_FLABEL", OFP12_VERSION), NONE, NONE),
    F(IP_PROTO, "nw_proto", "ip_proto", 1, 8, NONE, DECIMAL, IP_ANY, false,
      NXM(NXM_OF, 6, 1), "NXM_OF_IP_PROTO",
      OXM1(10, 1, "OXM_OF_IP_PROTO", OFP12_VERSION), EXACT, EXACT),
    F(IP_DSCP, "nw_tos", NULL, 1, 8, NONE, DECIMAL, IP_ANY, true,
      NXM(NXM_OF, 5, 1), "NXM_OF_IP_TOS", NO_OXM, EXACT, EXACT),
    F(IP_DSCP_SHIFTED, "ip_dscp", NULL, 1, 6, NONE, DECIMAL, IP_ANY, true,
      0, NULL, OXM1(8, 1, "OXM_OF_IP_DSCP", OFP12_VERSION), EXACT, EXACT),
    F(IP_ECN, "nw_ecn", "ip_ecn", 1, 2, NONE, DECIMAL, IP_ANY, true,
      NXM(NXM_NX, 28, 1), "NXM_NX_IP_ECN",
      OXM1(9, 1, "OXM_OF_IP_ECN", OFP12_VERSION), NONE, EXACT),
    F(IP_TTL, "nw_ttl", NULL, 1, 8, NONE, DECIMAL, IP_ANY, true,
      NXM(NXM_NX, 29, 1), "NXM_NX_IP_TTL", NO_OXM, NONE, NONE),
    F(IP_FRAG, "ip_frag", "nw_frag", 1, 2, FULLY, FRAG, IP_ANY, false,
      NXM(NXM_NX, 26, 1), "NXM_NX_IP_FRAG", NO_OXM, NONE, NONE),
    F(ARP_OP, "arp_op", NULL, 2, 16, NONE, DECIMAL, ARP, true,
      NXM(NXM_OF, 15, 2), "NXM_OF_ARP_OP",
      OXM1(21, 2, "OXM_OF_ARP_OP", OFP12_VERSION), EXACT, EXACT),
    F(ARP_SPA, "arp_spa", NULL, 4, 32, FULLY, IPV4, ARP, true,
      NXM(NXM_OF, 16, 4), "NXM_OF_ARP_SPA",
      OXM1(22, 4, "OXM_OF_ARP_SPA", OFP12_VERSION), CIDR, ANY),
    F(ARP_TPA, "arp_tpa", NULL, 4, 32, FULLY, IPV4, ARP, true,
      NXM(NXM_OF, 17, 4), "NXM_OF_ARP_TPA",
      OXM1(23, 4, "OXM_OF_ARP_TPA", OFP12_VERSION), CIDR, ANY),
    F(ARP_SHA, "arp_sha", NULL, 6, 48, FULLY, ETHERNET, ARP, true,
      NXM(NXM_NX, 17, 6), "NXM_NX_ARP_SHA",
      OXM1(24, 6, "OXM_OF_ARP_SHA", OFP12_VERSION), NONE, NONE),
    F(ARP_THA, "arp_tha", NULL, 6, 48, FULLY, ETHERNET, ARP, true,
      NXM(NXM_NX, 18, 6), "NXM_NX_ARP_THA",
      OXM1(25, 6, "OXM_OF_ARP_THA", OFP12_VERSION), NONE, NONE),
    F(TCP_SRC, "tcp_src", "tp_src", 2, 16, FULLY, DECIMAL, TCP, true,
      NXM(NXM_OF, 9, 2), "NXM_OF_TCP_SRC",
      OXM1(13, 2, "OXM_OF_TCP_SRC", OFP12_VERSION), EXACT, EXACT),
    F(TCP_DST, "tcp_dst", "tp_dst", 2, 16, FULLY, DECIMAL, TCP, true,
      NXM(NXM_OF, 10, 2), "NXM_OF_TCP_DST",
      OXM1(14, 2, "OXM_OF_TCP_DST", OFP12_VERSION), EXACT, EXACT),
    F(TCP_FLAGS, "tcp_flags", NULL, 2, 12, FULLY, TCP_FLAGS, TCP, false,
      NXM(NXM_NX, 34, 2), "NXM_NX_TCP_FLAGS",
      OXM2(ONF_OXM(42, 2), "ONFOXM_ET_TCP_FLAGS", OFP13_VERSION,
           NXM(OXM_OF, 42, 2), "OXM_OF_TCP_FLAGS", OFP15_VERSION),
      NONE, NONE),
    F(UDP_SRC, "udp_src", NULL, 2, 16, FULLY, DECIMAL, UDP, true,
      NXM(NXM_OF, 11, 2), "NXM_OF_UDP_SRC",
      OXM1(15, 2, "OXM_OF_UDP_SRC", OFP12_VERSION), EXACT, EXACT),
    F(UDP_DST, "udp_dst", NULL, 2, 16, FULLY, DECIMAL, UDP, true,
      NXM(NXM_OF, 12, 2), "NXM_OF_UDP_DST",
      OXM1(16, 2, "OXM_OF_UDP_DST", OFP12_VERSION), EXACT, EXACT),
    F(SCTP_SRC, "sctp_src", NULL, 2, 16, FULLY, DECIMAL, SCTP, true,
      0, NULL, OXM1(17, 2, "OXM_OF_SCTP_SRC", OFP12_VERSION), NONE, EXACT),
    F(SCTP_DST, "sctp_dst", NULL, 2, 16, FULLY, DECIMAL, SCTP, true,
      0, NULL, OXM1(18, 2, "OXM_OF_SCTP_DST", OFP12_VERSION), NONE, EXACT),
    F(ICMPV4_TYPE, "icmp_type", NULL, 1, 8, NONE, DECIMAL, ICMPV4, true,
      NXM(NXM_OF, 13, 1), "NXM_OF_ICMP_TYPE",
      OXM1(19, 1, "OXM_OF_ICMPV4_TYPE", OFP12_VERSION), EXACT, EXACT),
    F(ICMPV4_CODE, "icmp_code", NULL, 1, 8, NONE, DECIMAL, ICMPV4, true,
      NXM(NXM_OF, 14, 1), "NXM_OF_ICMP_CODE",
      OXM1(20, 1, "OXM_OF_ICMPV4_CODE", OFP12_VERSION), EXACT, EXACT),
    F(ICMPV6_TYPE, "icmpv6_type", NULL, 1, 8, NONE, DECIMAL, ICMPV6, true,
      NXM(NXM_NX, 21, 1), "NXM_NX_ICMPV6_TYPE",
      OXM1(29, 1, "OXM_OF_ICMPV6_TYPE", OFP12_VERSION), NONE, NONE),
    F(ICMPV6_CODE, "icmpv6_code", NULL, 1, 8, NONE, DECIMAL, ICMPV6, true,
      NXM(NXM_NX, 22, 1), "NXM_NX_ICMPV6_CODE",
      OXM1(30, 1, "OXM_OF_ICMPV6_CODE", OFP12_VERSION), NONE, NONE),
    F(ND_TARGET, "nd_target", NULL, 16, 128, FULLY, IPV6, ND, true,
      NXM(NXM_NX, 23, 16), "NXM_NX_ND_TARGET",
      OXM1(31, 16, "OXM_OF_IPV6_ND_TARGET", OFP12_VERSION), NONE, NONE),
    F(ND_SLL, "nd_sll", NULL, 6, 48, FULLY, ETHERNET, ND_SOLICIT, true,
      NXM(NXM_NX, 24, 6), "NXM_NX_ND_SLL",
      OXM1(32, 6, "OXM_OF_IPV6_ND_SLL", OFP12_VERSION), NONE, NONE),
    F(ND_TLL, "nd_tll", NULL, 6, 48, FULLY, ETHERNET, ND_ADVERT, true,
      NXM(NXM_NX, 25, 6), "NXM_NX_ND_TLL",
      OXM1(33, 6, "OXM_OF_IPV6_ND_TLL", OFP12_VERSION), NONE, NONE),
    F(ND_RESERVED, "nd_reserved", NULL, 4, 32, NONE, DECIMAL, ND, true,
      0, NULL, OXMX(NXM(ERICOXM_OF, 1, 4), "ERICOXM_OF_ICMPV6_ND_RESERVED"),
      NONE, NONE),
    F(ND_OPTIONS_TYPE, "nd_options_type", NULL, 1, 8, NONE, DECIMAL, ND,
      true, 0, NULL,
      OXMX(NXM(ERICOXM_OF, 2, 1), "ERICOXM_OF_ICMPV6_ND_OPTIONS_TYPE"),
      NONE, NONE),
    F(NSH_FLAGS, "nsh_flags", NULL, 1, 8, FULLY, DECIMAL, NSH, true,
      0, NULL, OXMX(NSH_OXM(1, 1), "NXOXM_NSH_FLAGS"), NONE, NONE),
    F(NSH_MDTYPE, "nsh_mdtype", NULL, 1, 8, NONE, DECIMAL, NSH, false,
      0, NULL, OXMX(NSH_OXM(2, 1), "NXOXM_NSH_MDTYPE"), NONE, NONE),
    F(NSH_NP, "nsh_np", NULL, 1, 8, NONE, DECIMAL, NSH, false,
      0, NULL, OXMX(NSH_OXM(3, 1), "NXOXM_NSH_NP"), NONE, NONE),
    F(NSH_SPI, "nsh_spi", "nsp", 4, 24, NONE, HEXADECIMAL, NSH, true,
      0, NULL, OXMX(NSH_OXM(4, 4), "NXOXM_NSH_SPI"), NONE, NONE),
    F(NSH_SI, "nsh_si", "nsi", 1, 8, NONE, DECIMAL, NSH, true,
      0, NULL, OXMX(NSH_OXM(5, 1), "NXOXM_NSH_SI"), NONE, NONE),
    NSH_C(1), NSH_C(2), NSH_C(3), NSH_C(4),
    F(NSH_TTL, "nsh_ttl", NULL, 1, 8, NONE, DECIMAL, NSH, true,
      0, NULL, OXMX(NSH_OXM(10, 1), "NXOXM_NSH_TTL"), NONE, NONE),
};

#undef F

const struct mf_field *
mf_from_id(enum mf_field_id id)
{
    ovs_assert((unsigned) id < MFF_N_IDS);
    return &fields[id];
}

const struct mf_field *
mf_from_name_len(const char *name, size_t len)
{
    for (size_t i = 0; i < MFF_N_IDS; i++) {
        const struct mf_field *f = &fields[i];
        if ((strlen(f->name) == len && !strncmp(f->name, name, len))
            || (f->extra_name && strlen(f->extra_name) == len
                && !strncmp(f->extra_name, name, len))) {
            return f;
        }
    }
    return NULL;
}

const struct mf_field *
mf_from_name(const char *name)
{
    return mf_from_name_len(name, strlen(name));
}

uint64_t
nxm_no_mask(uint64_t h)
{
    if (!nxm_hasmask(h)) {
        return h;
    }
    unsigned int payload = nxm_payload_len(h) / 2;
    unsigned int exp = nxm_is_experimenter(h) ? 4 : 0;
    return (h & ~UINT64_C(0x1ff)) | (payload + exp);
}

uint64_t
nxm_make_wild(uint64_t h)
{
    if (nxm_hasmask(h)) {
        return h;
    }
    unsigned int payload = nxm_payload_len(h) * 2;
    unsigned int exp = nxm_is_experimenter(h) ? 4 : 0;
    return (h & ~UINT64_C(0x1ff)) | 0x100 | (payload + exp);
}

/* The type part of a header: class, field and (for an experimenter class)
 * experimenter, without the mask bit and length. */
static uint64_t
header_type(uint64_t h)
{
    if (nxm_class(h) != OFPXMC12_EXPERIMENTER) {
        h &= UINT64_C(0xffffffff);
    }
    return h & ~UINT64_C(0x1ff);
}

/* Every header of every field, by type: decoding a flow dump looks up each
 * match entry's header, and a scan of the whole field table per entry was
 * most of ovs-ofctl's time on a large dump.  Where two fields share a type
 * the first one in table order (its NXM header before its OXM ones) wins,
 * which is the order a scan would find them in. */
struct header_index_node {
    struct hmap_node node;      /* In 'header_index', by header_type(). */
    uint64_t type;
    const struct mf_field *field;
};

static struct hmap header_index = HMAP_INITIALIZER(&header_index);
static struct header_index_node header_index_nodes[MFF_N_IDS * 3];

static void
header_index_add(uint64_t header, const struct mf_field *f, size_t *n)
{
    uint64_t type = header_type(header);
    uint32_t hash = hash_uint64(type);
    const struct header_index_node *node;
    HMAP_FOR_EACH_WITH_HASH (node, node, hash, &header_index) {
        if (node->type == type) {
            return;
        }
    }
    struct header_index_node *new = &header_index_nodes[(*n)++];
    new->type = type;
    new->field = f;
    hmap_insert(&header_index, &new->node, hash);
}

static void
header_index_init(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;
    if (ovsthread_once_start(&once)) {
        size_t n = 0;
        for (size_t i = 0; i < MFF_N_IDS; i++) {
            const struct mf_field *f = &fields[i];
            if (f->nxm_header) {
                header_index_add(f->nxm_header, f, &n);
            }
            for (size_t j = 0; j < ARRAY_SIZE(f->oxm); j++) {
                if (f->oxm[j].header) {
                    header_index_add(f->oxm[j].header, f, &n);
                }
            }
        }
        ovsthread_once_done(&once);
    }
}

const struct mf_field *
mf_from_nxm_header(uint64_t header)
{
    header_index_init();
    uint64_t type = header_type(header);
    const struct header_index_node *node;
    HMAP_FOR_EACH_WITH_HASH (node, node, hash_uint64(type), &header_index) {
        if (node->type == type) {
            return node->field;
        }
    }
    return NULL;
}

const struct mf_field *
mf_from_nxm_name(const char *name, size_t len)
{
    for (size_t i = 0; i < MFF_N_IDS; i++) {
        const struct mf_field *f = &fields[i];
        if (f->nxm_name && strlen(f->nxm_name) == len
            && !strncmp(f->nxm_name, name, len)) {
            return f;
        }
        for (size_t j = 0; j < ARRAY_SIZE(f->oxm); j++) {
            const char *n = f->oxm[j].name;
            if (n && strlen(n) == len && !strncmp(n, name, len)) {
                return f;
            }
        }
    }
    return NULL;
}

uint64_t
mf_oxm_header(enum mf_field_id id, enum ofp_version version)
{
    return mf_field_oxm_header(mf_from_id(id), version);
}

uint64_t
mf_field_oxm_header(const struct mf_field *f, enum ofp_version version)
{
    if (version >= OFP12_VERSION) {
        uint64_t best = 0;
        for (size_t j = 0; j < ARRAY_SIZE(f->oxm); j++) {
            if (f->oxm[j].header && f->oxm[j].version
                && f->oxm[j].version <= version) {
                best = f->oxm[j].header;
            }
        }
        if (best) {
            return best;
        }
    }
    return f->nxm_header ? f->nxm_header : f->oxm[0].header;
}

const char *
mf_nxm_name_of_header(uint64_t header)
{
    const struct mf_field *f = mf_from_nxm_header(header);
    if (!f) {
        return NULL;
    }
    uint64_t type = header_type(header);
    if (f->nxm_header && header_type(f->nxm_header) == type) {
        return f->nxm_name;
    }
    for (size_t j = 0; j < ARRAY_SIZE(f->oxm); j++) {
        if (f->oxm[j].header && header_type(f->oxm[j].header) == type) {
            return f->oxm[j].name;
        }
    }
    return NULL;
}

const char *
mf_nxm_name(const struct mf_field *f)
{
    return f->nxm_name ? f->nxm_name : f->oxm[0].name;
}

/* Values. */

static uint32_t
tun_flags_to_public(uint16_t flags)
{
    return (flags & FLOW_TNL_F_OAM) ? 1 : 0;
}

static uint16_t
tun_flags_from_public(uint16_t pub)
{
    return (pub & 1) ? FLOW_TNL_F_OAM : 0;
}

static bool
is_tun_metadata(const struct mf_field *f)
{
    return f->id >= MFF_TUN_METADATA0 && f->id <= MFF_TUN_METADATA63;
}

/* The bits of the first MPLS label stack entry that field ID is. */
static uint32_t
mpls_field_mask(enum mf_field_id id)
{
    switch (id) {
    case MFF_MPLS_LABEL: return MPLS_LABEL_MASK;
    case MFF_MPLS_TC: return MPLS_TC_MASK;
    case MFF_MPLS_BOS: return MPLS_BOS_MASK;
    default: return MPLS_TTL_MASK;
    }
}

static uint32_t
mpls_lse_get(enum mf_field_id id, ovs_be32 lse)
{
    uint32_t mask = mpls_field_mask(id);
    return (ntohl(lse) & mask) >> __builtin_ctz(mask);
}

static ovs_be32
mpls_lse_set(enum mf_field_id id, ovs_be32 lse, uint32_t x)
{
    mpls_lse_set_field(&lse, mpls_field_mask(id), x);
    return lse;
}

/* Reads F from FLOW (which may be a mask) into VALUE. */
void
mf_get_value(const struct mf_field *f, const struct flow *flow,
             union mf_value *value)
{
    memset(value, 0, sizeof *value);
    switch (f->id) {
    case MFF_DP_HASH: value->be32 = htonl(flow->dp_hash); break;
    case MFF_RECIRC_ID: value->be32 = htonl(flow->recirc_id); break;
    case MFF_PACKET_TYPE: value->be32 = flow->packet_type; break;
    case MFF_CONJ_ID: value->be32 = htonl(flow->conj_id); break;
    case MFF_TUN_ID: value->be64 = flow->tunnel.tun_id; break;
    case MFF_TUN_SRC: value->be32 = flow->tunnel.ip_src; break;
    case MFF_TUN_DST: value->be32 = flow->tunnel.ip_dst; break;
    case MFF_TUN_IPV6_SRC: value->ipv6 = flow->tunnel.ipv6_src; break;
    case MFF_TUN_IPV6_DST: value->ipv6 = flow->tunnel.ipv6_dst; break;
    case MFF_TUN_FLAGS:
        value->be16 = htons(tun_flags_to_public(flow->tunnel.flags));
        break;
    case MFF_TUN_TTL: value->u8 = flow->tunnel.ip_ttl; break;
    case MFF_TUN_TOS: value->u8 = flow->tunnel.ip_tos; break;
    case MFF_TUN_GBP_ID: value->be16 = flow->tunnel.gbp_id; break;
    case MFF_TUN_GBP_FLAGS: value->u8 = flow->tunnel.gbp_flags; break;
    case MFF_TUN_ERSPAN_IDX: value->be32 = htonl(flow->tunnel.erspan_idx);
        break;
    case MFF_TUN_ERSPAN_VER: value->u8 = flow->tunnel.erspan_ver; break;
    case MFF_TUN_ERSPAN_DIR: value->u8 = flow->tunnel.erspan_dir; break;
    case MFF_TUN_ERSPAN_HWID: value->u8 = flow->tunnel.erspan_hwid; break;
    case MFF_TUN_GTPU_FLAGS: value->u8 = flow->tunnel.gtpu_flags; break;
    case MFF_TUN_GTPU_MSGTYPE: value->u8 = flow->tunnel.gtpu_msgtype; break;
    case MFF_TUN_METADATA0 ... MFF_TUN_METADATA63:
        /* Where the option lies depends on a TLV map: see mf_get(). */
        break;
    case MFF_METADATA: value->be64 = flow->metadata; break;
    case MFF_IN_PORT: value->be16 = htons(flow->in_port); break;
    case MFF_IN_PORT_OXM:
        value->be32 = ofputil_port_to_ofp11(flow->in_port);
        break;
    case MFF_ACTSET_OUTPUT:
        value->be32 = ofputil_port_to_ofp11(flow->actset_output);
        break;
    case MFF_SKB_PRIORITY: value->be32 = htonl(flow->skb_priority); break;
    case MFF_PKT_MARK: value->be32 = htonl(flow->pkt_mark); break;
    case MFF_CT_STATE: value->be32 = htonl(flow->ct_state); break;
    case MFF_CT_ZONE: value->be16 = htons(flow->ct_zone); break;
    case MFF_CT_MARK: value->be32 = htonl(flow->ct_mark); break;
    case MFF_CT_LABEL: memcpy(value->b, flow->ct_label, 16); break;
    case MFF_CT_NW_PROTO: value->u8 = flow->ct_nw_proto; break;
    case MFF_CT_NW_SRC: value->be32 = flow->ct_nw_src; break;
    case MFF_CT_NW_DST: value->be32 = flow->ct_nw_dst; break;
    case MFF_CT_IPV6_SRC: value->ipv6 = flow->ct_ipv6_src; break;
    case MFF_CT_IPV6_DST: value->ipv6 = flow->ct_ipv6_dst; break;
    case MFF_CT_TP_SRC: value->be16 = flow->ct_tp_src; break;
    case MFF_CT_TP_DST: value->be16 = flow->ct_tp_dst; break;
    case MFF_REG0 ... MFF_REG15:
        value->be32 = htonl(flow->regs[f->id - MFF_REG0]);
        break;
    case MFF_XREG0 ... MFF_XREG7: {
        unsigned int i = (f->id - MFF_XREG0) * 2;
        value->be64 = htonll(((uint64_t) flow->regs[i] << 32)
                             | flow->regs[i + 1]);
        break;
    }
    case MFF_XXREG0 ... MFF_XXREG3: {
        unsigned int i = (f->id - MFF_XXREG0) * 4;
        for (unsigned int j = 0; j < 4; j++) {
            ovs_be32 w = htonl(flow->regs[i + j]);
            memcpy(&value->b[j * 4], &w, 4);
        }
        break;
    }
    case MFF_ETH_SRC: value->mac = flow->dl_src; break;
    case MFF_ETH_DST: value->mac = flow->dl_dst; break;
    case MFF_ETH_TYPE: value->be16 = flow->dl_type; break;
    case MFF_VLAN_TCI: value->be16 = flow->vlans[0].tci; break;
    case MFF_DL_VLAN:
        value->be16 = flow->vlans[0].tci & htons(VLAN_VID_MASK);
        break;
    case MFF_VLAN_VID:
        value->be16 = flow->vlans[0].tci & htons(VLAN_VID_MASK | VLAN_CFI);
        break;
    case MFF_DL_VLAN_PCP:
    case MFF_VLAN_PCP:
        value->u8 = (ntohs(flow->vlans[0].tci) & VLAN_PCP_MASK)
                    >> VLAN_PCP_SHIFT;
        break;
    case MFF_MPLS_LABEL:
        value->be32 = htonl(mpls_lse_get(f->id, flow->mpls_lse[0]));
        break;
    case MFF_MPLS_TC:
    case MFF_MPLS_BOS:
    case MFF_MPLS_TTL:
        value->u8 = mpls_lse_get(f->id, flow->mpls_lse[0]);
        break;
    case MFF_IPV4_SRC: value->be32 = flow->nw_src; break;
    case MFF_IPV4_DST: value->be32 = flow->nw_dst; break;
    case MFF_IPV6_SRC: value->ipv6 = flow->ipv6_src; break;
    case MFF_IPV6_DST: value->ipv6 = flow->ipv6_dst; break;
    case MFF_IPV6_LABEL: value->be32 = flow->ipv6_label; break;
    case MFF_IP_PROTO: value->u8 = flow->nw_proto; break;
    case MFF_IP_DSCP: value->u8 = flow->nw_tos & 0xfc; break;
    case MFF_IP_DSCP_SHIFTED: value->u8 = flow->nw_tos >> 2; break;
    case MFF_IP_ECN: value->u8 = flow->nw_tos & 0x03; break;
    case MFF_IP_TTL: value->u8 = flow->nw_ttl; break;
    case MFF_IP_FRAG: value->u8 = flow->nw_frag & FLOW_NW_FRAG_MASK; break;
    case MFF_ARP_OP: value->be16 = htons(flow->nw_proto); break;
    case MFF_ARP_SPA: value->be32 = flow->nw_src; break;
    case MFF_ARP_TPA: value->be32 = flow->nw_dst; break;
    case MFF_ARP_SHA:
    case MFF_ND_SLL:
        value->mac = flow->arp_sha;
        break;
    case MFF_ARP_THA:
    case MFF_ND_TLL:
        value->mac = flow->arp_tha;
        break;
    case MFF_TCP_SRC:
    case MFF_UDP_SRC:
    case MFF_SCTP_SRC:
        value->be16 = flow->tp_src;
        break;
    case MFF_TCP_DST:
    case MFF_UDP_DST:
    case MFF_SCTP_DST:
        value->be16 = flow->tp_dst;
        break;
    case MFF_TCP_FLAGS: value->be16 = flow->tcp_flags; break;
    case MFF_ICMPV4_TYPE:
    case MFF_ICMPV6_TYPE:
        value->u8 = ntohs(flow->tp_src);
        break;
    case MFF_ICMPV4_CODE:
    case MFF_ICMPV6_CODE:
        value->u8 = ntohs(flow->tp_dst);
        break;
    case MFF_ND_TARGET: value->ipv6 = flow->nd_target; break;
    case MFF_ND_RESERVED: value->be32 = flow->nd_reserved; break;
    case MFF_ND_OPTIONS_TYPE: value->u8 = flow->nd_options_type; break;
    case MFF_NSH_FLAGS: value->u8 = flow->nsh.flags; break;
    case MFF_NSH_TTL: value->u8 = flow->nsh.ttl; break;
    case MFF_NSH_MDTYPE: value->u8 = flow->nsh.mdtype; break;
    case MFF_NSH_NP: value->u8 = flow->nsh.np; break;
    case MFF_NSH_SPI:
        value->be32 = htonl((ntohl(flow->nsh.path_hdr) & NSH_SPI_MASK)
                            >> NSH_SPI_SHIFT);
        break;
    case MFF_NSH_SI:
        value->u8 = ntohl(flow->nsh.path_hdr) & NSH_SI_MASK;
        break;
    case MFF_NSH_C1 ... MFF_NSH_C4:
        value->be32 = flow->nsh.context[f->id - MFF_NSH_C1];
        break;
    case MFF_N_IDS:
    default:
        abort();
    }
}

/* Writes VALUE into FLOW (which may be a mask: the same layout applies,
 * except where noted). */
static void
set_flow_value__(const struct mf_field *f, const union mf_value *value,
                 struct flow *flow, bool is_mask)
{
    switch (f->id) {
    case MFF_DP_HASH: flow->dp_hash = ntohl(value->be32); break;
    case MFF_RECIRC_ID: flow->recirc_id = ntohl(value->be32); break;
    case MFF_PACKET_TYPE: flow->packet_type = value->be32; break;
    case MFF_CONJ_ID: flow->conj_id = ntohl(value->be32); break;
    case MFF_TUN_ID: flow->tunnel.tun_id = value->be64; break;
    case MFF_TUN_SRC: flow->tunnel.ip_src = value->be32; break;
    case MFF_TUN_DST: flow->tunnel.ip_dst = value->be32; break;
    case MFF_TUN_IPV6_SRC: flow->tunnel.ipv6_src = value->ipv6; break;
    case MFF_TUN_IPV6_DST: flow->tunnel.ipv6_dst = value->ipv6; break;
    case MFF_TUN_FLAGS:
        flow->tunnel.flags = ((flow->tunnel.flags & ~FLOW_TNL_F_OAM)
                              | tun_flags_from_public(ntohs(value->be16)));
        break;
    case MFF_TUN_TTL: flow->tunnel.ip_ttl = value->u8; break;
    case MFF_TUN_TOS: flow->tunnel.ip_tos = value->u8; break;
    case MFF_TUN_GBP_ID: flow->tunnel.gbp_id = value->be16; break;
    case MFF_TUN_GBP_FLAGS: flow->tunnel.gbp_flags = value->u8; break;
    case MFF_TUN_ERSPAN_IDX: flow->tunnel.erspan_idx = ntohl(value->be32);
        break;
    case MFF_TUN_ERSPAN_VER: flow->tunnel.erspan_ver = value->u8 & 0xf;
        break;
    case MFF_TUN_ERSPAN_DIR: flow->tunnel.erspan_dir = value->u8 & 1; break;
    case MFF_TUN_ERSPAN_HWID: flow->tunnel.erspan_hwid = value->u8 & 0x3f;
        break;
    case MFF_TUN_GTPU_FLAGS: flow->tunnel.gtpu_flags = value->u8; break;
    case MFF_TUN_GTPU_MSGTYPE: flow->tunnel.gtpu_msgtype = value->u8; break;
    case MFF_TUN_METADATA0 ... MFF_TUN_METADATA63:
        /* See mf_get_value(). */
        break;
    case MFF_METADATA: flow->metadata = value->be64; break;
    case MFF_IN_PORT:
        flow->in_port = is_mask ? (value->be16 ? UINT32_MAX : 0)
                                : ntohs(value->be16);
        break;
    case MFF_IN_PORT_OXM:
        if (is_mask) {
            flow->in_port = ntohl(value->be32) ? UINT32_MAX : 0;
        } else {
            uint32_t port;
            ofputil_port_from_ofp11(value->be32, &port);
            flow->in_port = port;
        }
        break;
    case MFF_ACTSET_OUTPUT:
        if (is_mask) {
            flow->actset_output = ntohl(value->be32) ? UINT32_MAX : 0;
        } else {
            uint32_t port;
            ofputil_port_from_ofp11(value->be32, &port);
            flow->actset_output = port;
        }
        break;
    case MFF_SKB_PRIORITY: flow->skb_priority = ntohl(value->be32); break;
    case MFF_PKT_MARK: flow->pkt_mark = ntohl(value->be32); break;
    case MFF_CT_STATE:
        /* Only the CS_* bits exist: an exact match is 0xff (so 3.1 writes
         * it back as NXM_NX_CT_STATE_W(.../000000ff)). */
        flow->ct_state = ntohl(value->be32) & CS_ALL_BITS;
        break;
    case MFF_CT_ZONE: flow->ct_zone = ntohs(value->be16); break;
    case MFF_CT_MARK: flow->ct_mark = ntohl(value->be32); break;
    case MFF_CT_LABEL: memcpy(flow->ct_label, value->b, 16); break;
    case MFF_CT_NW_PROTO: flow->ct_nw_proto = value->u8; break;
    case MFF_CT_NW_SRC: flow->ct_nw_src = value->be32; break;
    case MFF_CT_NW_DST: flow->ct_nw_dst = value->be32; break;
    case MFF_CT_IPV6_SRC: flow->ct_ipv6_src = value->ipv6; break;
    case MFF_CT_IPV6_DST: flow->ct_ipv6_dst = value->ipv6; break;
    case MFF_CT_TP_SRC: flow->ct_tp_src = value->be16; break;
    case MFF_CT_TP_DST: flow->ct_tp_dst = value->be16; break;
    case MFF_REG0 ... MFF_REG15:
        flow->regs[f->id - MFF_REG0] = ntohl(value->be32);
        break;
    case MFF_XREG0 ... MFF_XREG7: {
        unsigned int i = (f->id - MFF_XREG0) * 2;
        uint64_t v = ntohll(value->be64);
        flow->regs[i] = v >> 32;
        flow->regs[i + 1] = v;
        break;
    }
    case MFF_XXREG0 ... MFF_XXREG3: {
        unsigned int i = (f->id - MFF_XXREG0) * 4;
        for (unsigned int j = 0; j < 4; j++) {
            ovs_be32 w;
            memcpy(&w, &value->b[j * 4], 4);
            flow->regs[i + j] = ntohl(w);
        }
        break;
    }
    case MFF_ETH_SRC: flow->dl_src = value->mac; break;
    case MFF_ETH_DST: flow->dl_dst = value->mac; break;
    case MFF_ETH_TYPE: flow->dl_type = value->be16; break;
    case MFF_VLAN_TCI: flow->vlans[0].tci = value->be16; break;
    case MFF_DL_VLAN:
        flow->vlans[0].tci = ((flow->vlans[0].tci & ~htons(VLAN_VID_MASK))
                              | (value->be16 & htons(VLAN_VID_MASK)));
        break;
    case MFF_VLAN_VID:
        flow->vlans[0].tci = ((flow->vlans[0].tci
                               & ~htons(VLAN_VID_MASK | VLAN_CFI))
                              | (value->be16
                                 & htons(VLAN_VID_MASK | VLAN_CFI)));
        break;
    case MFF_DL_VLAN_PCP:
    case MFF_VLAN_PCP:
        flow->vlans[0].tci = ((flow->vlans[0].tci & ~htons(VLAN_PCP_MASK))
                              | htons((value->u8 << VLAN_PCP_SHIFT)
                                      & VLAN_PCP_MASK));
        break;
    case MFF_MPLS_LABEL:
        flow->mpls_lse[0] = mpls_lse_set(f->id, flow->mpls_lse[0],
                                         ntohl(value->be32));
        break;
    case MFF_MPLS_TC:
    case MFF_MPLS_BOS:
    case MFF_MPLS_TTL:
        flow->mpls_lse[0] = mpls_lse_set(f->id, flow->mpls_lse[0],
                                         value->u8);
        break;
    case MFF_IPV4_SRC: flow->nw_src = value->be32; break;
    case MFF_IPV4_DST: flow->nw_dst = value->be32; break;
    case MFF_IPV6_SRC: flow->ipv6_src = value->ipv6; break;
    case MFF_IPV6_DST: flow->ipv6_dst = value->ipv6; break;
    case MFF_IPV6_LABEL:
        flow->ipv6_label = value->be32 & htonl(IPV6_LABEL_MASK);
        break;
    case MFF_IP_PROTO: flow->nw_proto = value->u8; break;
    case MFF_IP_DSCP:
        flow->nw_tos = (flow->nw_tos & 0x03) | (value->u8 & 0xfc);
        break;
    case MFF_IP_DSCP_SHIFTED:
        flow->nw_tos = (flow->nw_tos & 0x03) | ((value->u8 << 2) & 0xfc);
        break;
    case MFF_IP_ECN:
        flow->nw_tos = (flow->nw_tos & 0xfc) | (value->u8 & 0x03);
        break;
    case MFF_IP_TTL: flow->nw_ttl = value->u8; break;
    case MFF_IP_FRAG:
        flow->nw_frag = ((flow->nw_frag & ~FLOW_NW_FRAG_MASK)
                         | (value->u8 & FLOW_NW_FRAG_MASK));
        break;
    case MFF_ARP_OP: flow->nw_proto = ntohs(value->be16); break;
    case MFF_ARP_SPA: flow->nw_src = value->be32; break;
    case MFF_ARP_TPA: flow->nw_dst = value->be32; break;
    case MFF_ARP_SHA:
    case MFF_ND_SLL:
        flow->arp_sha = value->mac;
        break;
    case MFF_ARP_THA:
    case MFF_ND_TLL:
        flow->arp_tha = value->mac;
        break;
    case MFF_TCP_SRC:
    case MFF_UDP_SRC:
    case MFF_SCTP_SRC:
        flow->tp_src = value->be16;
        break;
    case MFF_TCP_DST:
    case MFF_UDP_DST:
    case MFF_SCTP_DST:
        flow->tp_dst = value->be16;
        break;
    case MFF_TCP_FLAGS:
        /* A mask keeps all 16 bits: an exact match is 0xffff and a
         * 12-bit mask stays a mask, so each re-encodes as it came (3.1
         * writes NXM_NX_TCP_FLAGS(...) and NXM_NX_TCP_FLAGS_W(.../0fff)
         * respectively). */
        flow->tcp_flags = (is_mask ? value->be16
                           : value->be16 & htons(TCP_FLAGS_MASK));
        break;
    /* An exact ICMP type or code masks all 16 bits of the port it lives
     * in, as 3.1's does, so that OpenFlow 1.0's tp_src/tp_dst carry it. */
    case MFF_ICMPV4_TYPE:
    case MFF_ICMPV6_TYPE:
        flow->tp_src = (is_mask && value->u8 ? OVS_BE16_MAX
                        : htons(value->u8));
        break;
    case MFF_ICMPV4_CODE:
    case MFF_ICMPV6_CODE:
        flow->tp_dst = (is_mask && value->u8 ? OVS_BE16_MAX
                        : htons(value->u8));
        break;
    case MFF_ND_TARGET: flow->nd_target = value->ipv6; break;
    case MFF_ND_RESERVED: flow->nd_reserved = value->be32; break;
    case MFF_ND_OPTIONS_TYPE: flow->nd_options_type = value->u8; break;
    case MFF_NSH_FLAGS: flow->nsh.flags = value->u8; break;
    case MFF_NSH_TTL: flow->nsh.ttl = value->u8; break;
    case MFF_NSH_MDTYPE: flow->nsh.mdtype = value->u8; break;
    case MFF_NSH_NP: flow->nsh.np = value->u8; break;
    case MFF_NSH_SPI: {
        uint32_t hdr = ntohl(flow->nsh.path_hdr) & ~NSH_SPI_MASK;
        hdr |= (ntohl(value->be32) << NSH_SPI_SHIFT) & NSH_SPI_MASK;
        flow->nsh.path_hdr = htonl(hdr);
        break;
    }
    case MFF_NSH_SI: {
        uint32_t hdr = ntohl(flow->nsh.path_hdr) & ~NSH_SI_MASK;
        flow->nsh.path_hdr = htonl(hdr | value->u8);
        break;
    }
    case MFF_NSH_C1 ... MFF_NSH_C4:
        flow->nsh.context[f->id - MFF_NSH_C1] = value->be32;
        break;
    case MFF_N_IDS:
    default:
        abort();
    }
}

void
mf_set_flow_value(const struct mf_field *f, const union mf_value *value,
                  struct flow *flow)
{
    set_flow_value__(f, value, flow, false);
}

void
mf_set_flow_value_masked(const struct mf_field *f,
                         const union mf_value *value,
                         const union mf_value *mask, struct flow *flow)
{
    union mf_value tmp;
    mf_get_value(f, flow, &tmp);
    for (size_t i = 0; i < f->n_bytes; i++) {
        tmp.b[i] = (tmp.b[i] & ~mask->b[i]) | (value->b[i] & mask->b[i]);
    }
    mf_set_flow_value(f, &tmp, flow);
}

void
mf_get_mask(const struct mf_field *f, const struct flow_wildcards *wc,
            union mf_value *mask)
{
    mf_get_value(f, &wc->masks, mask);
    if (f->id == MFF_IN_PORT || f->id == MFF_IN_PORT_OXM
        || f->id == MFF_ACTSET_OUTPUT) {
        bool any = (f->id == MFF_ACTSET_OUTPUT ? wc->masks.actset_output
                    : wc->masks.in_port) != 0;
        memset(mask, any ? 0xff : 0, f->n_bytes);
    } else if (is_tun_metadata(f)) {
        /* Only whether the option matters is known without a layout. */
        unsigned int idx = f->id - MFF_TUN_METADATA0;
        if (wc->masks.tun_metadata.present & (UINT64_C(1) << idx)) {
            mask->b[f->n_bytes - 1] = 1;
        }
    }
}

void
mf_get(const struct mf_field *f, const struct match *match,
       union mf_value *value, union mf_value *mask, unsigned int *len)
{
    if (is_tun_metadata(f)) {
        unsigned int n;
        tun_md_get_match(match, f->id - MFF_TUN_METADATA0, value->b,
                         mask->b, &n);
        if (len) {
            *len = n;
        }
        return;
    }
    mf_get_value(f, &match->flow, value);
    mf_get_mask(f, &match->wc, mask);
    if (len) {
        *len = f->n_bytes;
    }
}

bool
mf_is_all_wild(const struct mf_field *f, const struct flow_wildcards *wc)
{
    union mf_value mask;
    mf_get_mask(f, wc, &mask);
    return mf_value_is_zero(f, &mask);
}

bool
mf_value_is_zero(const struct mf_field *f, const union mf_value *v)
{
    for (size_t i = 0; i < f->n_bytes; i++) {
        if (v->b[i]) {
            return false;
        }
    }
    return true;
}

/* The mask of F's meaningful bits: N_BITS low-order ones. */
static void
field_bits(const struct mf_field *f, union mf_value *m)
{
    memset(m, 0, sizeof *m);
    bitwise_one(m->b, f->n_bytes, 0, f->n_bits);
}

bool
mf_value_is_all_ones(const struct mf_field *f, const union mf_value *v)
{
    union mf_value bits;
    field_bits(f, &bits);
    for (size_t i = 0; i < f->n_bytes; i++) {
        if ((v->b[i] & bits.b[i]) != bits.b[i]) {
            return false;
        }
    }
    return true;
}

void
mf_value_set_all_ones(const struct mf_field *f, union mf_value *v)
{
    field_bits(f, v);
}

void
mf_set_ethernet_prereq(const struct mf_field *f, struct match *match)
{
    if (f->prereqs != MFP_NONE) {
        match_set_default_packet_type(match);
    }
}

char *
mf_set_checked(const struct mf_field *f, const union mf_value *value,
               const union mf_value *mask, struct match *match)
{
    union mf_value exact, v, m;
    mf_set_ethernet_prereq(f, match);
    if (is_tun_metadata(f)) {
        return tun_md_set_match(match, f->id - MFF_TUN_METADATA0, value->b,
                                mask ? mask->b : NULL);
    }
    if (!mask) {
        mf_value_set_all_ones(f, &exact);
        if (f->id == MFF_TCP_FLAGS) {
            exact.be16 = OVS_BE16_MAX;      /* See set_flow_value__(). */
        }
        mask = &exact;
    }

    switch (f->id) {
    case MFF_IN_PORT:
    case MFF_IN_PORT_OXM:
    case MFF_ACTSET_OUTPUT:
        if (mf_value_is_zero(f, mask)) {
            mf_set_wild(f, match);
        } else {
            set_flow_value__(f, value, &match->flow, false);
            if (f->id == MFF_ACTSET_OUTPUT) {
                match->wc.masks.actset_output = UINT32_MAX;
            } else {
                match->wc.masks.in_port = UINT32_MAX;
            }
        }
        return NULL;

    case MFF_DL_VLAN:
        match_set_dl_vlan(match, value->be16);
        return NULL;

    case MFF_DL_VLAN_PCP:
    case MFF_VLAN_PCP:
        match_set_dl_vlan_pcp(match, value->u8);
        return NULL;

    case MFF_VLAN_VID:
        match_set_vlan_vid_masked(match, value->be16, mask->be16);
        return NULL;

    case MFF_PACKET_TYPE:
        match_set_packet_type(match, value->be32);
        return NULL;

    default:
        break;
    }

    /* Generic: value under mask in the flow, mask in the wildcards. */
    v = *value;
    m = *mask;
    for (size_t i = 0; i < f->n_bytes; i++) {
        v.b[i] &= m.b[i];
    }
    switch (f->id) {
    case MFF_TUN_ERSPAN_VER:
    case MFF_TUN_ERSPAN_DIR:
    case MFF_TUN_ERSPAN_HWID:
    case MFF_TUN_GTPU_FLAGS:
    case MFF_TUN_GTPU_MSGTYPE:
        /* 3.1 keeps these fields' value as their mask (so that "ver=1"
         * matches every version with bit 0 set and encodes as
         * NXOXM_ET_ERSPAN_VER_W(01/01)); matches here must mean and
         * encode the same. */
        m.u8 = v.u8;
        break;
    default:
        break;
    }
    set_flow_value__(f, &v, &match->flow, false);
    set_flow_value__(f, &m, &match->wc.masks, true);
    return NULL;
}

void
mf_set(const struct mf_field *f, const union mf_value *value,
       const union mf_value *mask, struct match *match)
{
    free(mf_set_checked(f, value, mask, match));
}

void
mf_set_wild(const struct mf_field *f, struct match *match)
{
    union mf_value zero;
    memset(&zero, 0, sizeof zero);
    switch (f->id) {
    case MFF_IN_PORT:
    case MFF_IN_PORT_OXM:
        match->flow.in_port = 0;
        match->wc.masks.in_port = 0;
        return;
    case MFF_ACTSET_OUTPUT:
        match->flow.actset_output = 0;
        match->wc.masks.actset_output = 0;
        return;
    case MFF_DL_VLAN:
        match->flow.vlans[0].tci &= ~htons(VLAN_VID_MASK);
        match->wc.masks.vlans[0].tci &= ~htons(VLAN_VID_MASK);
        return;
    case MFF_DL_VLAN_PCP:
    case MFF_VLAN_PCP:
        match->flow.vlans[0].tci &= ~htons(VLAN_PCP_MASK);
        match->wc.masks.vlans[0].tci &= ~htons(VLAN_PCP_MASK);
        return;
    case MFF_TUN_METADATA0 ... MFF_TUN_METADATA63:
        tun_md_set_wild(match, f->id - MFF_TUN_METADATA0);
        return;
    default:
        set_flow_value__(f, &zero, &match->flow, false);
        set_flow_value__(f, &zero, &match->wc.masks, true);
        return;
    }
}

bool
mf_is_value_valid(const struct mf_field *f, const union mf_value *value)
{
    switch (f->id) {
    case MFF_IN_PORT_OXM:
    case MFF_ACTSET_OUTPUT: {
        uint32_t port;
        return !ofputil_port_from_ofp11(value->be32, &port);
    }
    case MFF_IP_DSCP:
        return !(value->u8 & ~0xfc);
    case MFF_IP_DSCP_SHIFTED:
        return !(value->u8 & ~0x3f);
    case MFF_IP_ECN:
        return !(value->u8 & ~0x03);
    case MFF_IP_FRAG:
        return !(value->u8 & ~FLOW_NW_FRAG_MASK);
    case MFF_TCP_FLAGS:
        return !(value->be16 & ~htons(TCP_FLAGS_MASK));
    case MFF_TUN_FLAGS:
        return !(value->be16 & ~htons(1));
    case MFF_IPV6_LABEL:
        return !(value->be32 & ~htonl(IPV6_LABEL_MASK));
    case MFF_DL_VLAN:
        return !(value->be16 & ~htons(VLAN_VID_MASK));
    case MFF_VLAN_VID:
        return !(value->be16 & ~htons(VLAN_VID_MASK | VLAN_CFI));
    case MFF_DL_VLAN_PCP:
    case MFF_VLAN_PCP:
        return !(value->u8 & ~7);
    case MFF_ARP_OP:
        /* The opcode is kept in nw_proto's 8 bits. */
        return !(value->be16 & htons(0xff00));
    case MFF_CT_STATE:
        return !(value->be32 & ~htonl(CS_ALL_BITS));
    case MFF_MPLS_LABEL:
        return !(value->be32 & ~htonl(MPLS_LABEL_MASK >> MPLS_LABEL_SHIFT));
    case MFF_MPLS_TC:
        return !(value->u8 & ~7);
    case MFF_MPLS_BOS:
        return !(value->u8 & ~1);
    case MFF_TUN_ERSPAN_VER:
        return !(value->u8 & ~0xf);
    case MFF_TUN_ERSPAN_DIR:
        return !(value->u8 & ~1);
    case MFF_TUN_ERSPAN_HWID:
        return !(value->u8 & ~0x3f);
    case MFF_NSH_SPI:
        return !(value->be32 & ~htonl(NSH_SPI_MASK >> NSH_SPI_SHIFT));
    case MFF_NSH_TTL:
        return !(value->u8 & ~0x3f);
    default:
        return true;
    }
}


static bool
is_mpls(const struct flow *flow)
{
    return eth_type_mpls(flow->dl_type);
}

bool
mf_are_prereqs_ok(const struct mf_field *f, const struct flow *flow,
                  struct flow_wildcards *wc)
{
    if (wc) {
        switch (f->prereqs) {
        case MFP_NONE:
            break;
        case MFP_ETHERNET:
            WC_MASK_FIELD(wc, packet_type);
            break;
        case MFP_VLAN_VID:
            wc->masks.vlans[0].tci |= htons(VLAN_CFI);
            break;
        case MFP_CT_VALID:
            wc->masks.ct_state |= CS_TRACKED | CS_INVALID;
            break;
        case MFP_ARP:
        case MFP_MPLS:
        case MFP_IPV4:
        case MFP_IPV6:
        case MFP_IP_ANY:
        case MFP_NSH:
            WC_MASK_FIELD(wc, dl_type);
            break;
        case MFP_TCP:
        case MFP_UDP:
        case MFP_SCTP:
        case MFP_ICMPV4:
        case MFP_ICMPV6:
            WC_MASK_FIELD(wc, dl_type);
            WC_MASK_FIELD(wc, nw_proto);
            break;
        case MFP_ND:
        case MFP_ND_SOLICIT:
        case MFP_ND_ADVERT:
            WC_MASK_FIELD(wc, dl_type);
            WC_MASK_FIELD(wc, nw_proto);
            WC_MASK_FIELD(wc, tp_src);
            WC_MASK_FIELD(wc, tp_dst);
            break;
        }
    }

    switch (f->prereqs) {
    case MFP_NONE:
        return true;
    case MFP_ETHERNET:
        return flow->packet_type == htonl(PT_ETH);
    case MFP_ARP:
        return (flow->dl_type == htons(ETH_TYPE_ARP)
                || flow->dl_type == htons(ETH_TYPE_RARP));
    case MFP_VLAN_VID:
        return (flow->vlans[0].tci & htons(VLAN_CFI)) != 0;
    case MFP_MPLS:
        return is_mpls(flow);
    case MFP_IPV4:
        return flow->dl_type == htons(ETH_TYPE_IP);
    case MFP_IPV6:
        return flow->dl_type == htons(ETH_TYPE_IPV6);
    case MFP_IP_ANY:
        return flow_is_ip_any(flow);
    case MFP_NSH:
        return flow->dl_type == htons(ETH_TYPE_NSH);
    case MFP_CT_VALID:
        return (flow->ct_state & (CS_TRACKED | CS_INVALID)) == CS_TRACKED;
    case MFP_TCP:
        return flow_is_ip_any(flow) && flow->nw_proto == IPPROTO_TCP
               && !(flow->nw_frag & FLOW_NW_FRAG_LATER);
    case MFP_UDP:
        return flow_is_ip_any(flow) && flow->nw_proto == IPPROTO_UDP
               && !(flow->nw_frag & FLOW_NW_FRAG_LATER);
    case MFP_SCTP:
        return flow_is_ip_any(flow) && flow->nw_proto == IPPROTO_SCTP
               && !(flow->nw_frag & FLOW_NW_FRAG_LATER);
    case MFP_ICMPV4:
        return flow->dl_type == htons(ETH_TYPE_IP)
               && flow->nw_proto == IPPROTO_ICMP
               && !(flow->nw_frag & FLOW_NW_FRAG_LATER);
    case MFP_ICMPV6:
        return flow->dl_type == htons(ETH_TYPE_IPV6)
               && flow->nw_proto == IPPROTO_ICMPV6
               && !(flow->nw_frag & FLOW_NW_FRAG_LATER);
    case MFP_ND:
    case MFP_ND_SOLICIT:
    case MFP_ND_ADVERT: {
        if (!(flow->dl_type == htons(ETH_TYPE_IPV6)
              && flow->nw_proto == IPPROTO_ICMPV6
              && !(flow->nw_frag & FLOW_NW_FRAG_LATER)
              && flow->tp_dst == htons(0))) {
            return false;
        }
        uint16_t type = ntohs(flow->tp_src);
        return (f->prereqs == MFP_ND
                ? type == ND_NEIGHBOR_SOLICIT || type == ND_NEIGHBOR_ADVERT
                : f->prereqs == MFP_ND_SOLICIT
                ? type == ND_NEIGHBOR_SOLICIT
                : type == ND_NEIGHBOR_ADVERT);
    }
    }
    return false;
}

/* A match's values are zero where its mask is, so judging its values as a
 * packet's decides prerequisites as 3.1 does: "icmp6,icmp_type=136"
 * allows nd_target (its code, wildcarded, reads as zero), a wildcarded
 * dl_type allows no IP field.  Connection tracking is the exception: a
 * match names a valid connection, as 3.1 has it, when it requires one of
 * the states only a valid connection's packets have (+new, +est, +rel,
 * +rpl, +snat, +dnat) or requires +trk with -inv. */
bool
mf_are_match_prereqs_ok(const struct mf_field *f, const struct match *m)
{
    if (f->prereqs == MFP_CT_VALID) {
        uint32_t mask = m->wc.masks.ct_state;
        uint32_t state = m->flow.ct_state & mask;
        return ((state & (CS_NEW | CS_ESTABLISHED | CS_RELATED
                          | CS_REPLY_DIR | CS_SRC_NAT | CS_DST_NAT))
                || ((state & CS_TRACKED) && (mask & CS_INVALID)
                    && !(state & CS_INVALID)));
    }
    return mf_are_prereqs_ok(f, &m->flow, NULL);
}

void
mf_set_prereqs(const struct mf_field *f, struct match *m)
{
    switch (f->prereqs) {
    case MFP_NONE:
        break;
    case MFP_ETHERNET:
        match_set_default_packet_type(m);
        break;
    case MFP_VLAN_VID:
        m->flow.vlans[0].tci |= htons(VLAN_CFI);
        m->wc.masks.vlans[0].tci |= htons(VLAN_CFI);
        break;
    case MFP_CT_VALID:
        m->flow.ct_state = (m->flow.ct_state & ~CS_INVALID) | CS_TRACKED;
        m->wc.masks.ct_state |= CS_TRACKED | CS_INVALID;
        break;
    case MFP_ARP:
        match_set_dl_type(m, htons(ETH_TYPE_ARP));
        break;
    case MFP_MPLS:
        match_set_dl_type(m, htons(ETH_TYPE_MPLS));
        break;
    case MFP_IPV4:
        match_set_dl_type(m, htons(ETH_TYPE_IP));
        break;
    case MFP_IPV6:
        match_set_dl_type(m, htons(ETH_TYPE_IPV6));
        break;
    case MFP_IP_ANY:
        match_set_dl_type(m, htons(ETH_TYPE_IP));
        break;
    case MFP_NSH:
        match_set_dl_type(m, htons(ETH_TYPE_NSH));
        break;
    case MFP_TCP:
    case MFP_UDP:
    case MFP_SCTP:
    case MFP_ICMPV4:
        match_set_dl_type(m, htons(ETH_TYPE_IP));
        match_set_nw_proto(m, (f->prereqs == MFP_TCP ? IPPROTO_TCP
                               : f->prereqs == MFP_UDP ? IPPROTO_UDP
                               : f->prereqs == MFP_SCTP ? IPPROTO_SCTP
                               : IPPROTO_ICMP));
        break;
    case MFP_ICMPV6:
    case MFP_ND:
    case MFP_ND_SOLICIT:
    case MFP_ND_ADVERT:
        match_set_dl_type(m, htons(ETH_TYPE_IPV6));
        match_set_nw_proto(m, IPPROTO_ICMPV6);
        if (f->prereqs != MFP_ICMPV6) {
            m->flow.tp_src = htons(f->prereqs == MFP_ND_ADVERT
                                   ? ND_NEIGHBOR_ADVERT
                                   : ND_NEIGHBOR_SOLICIT);
            m->wc.masks.tp_src = htons(0xff);
            m->flow.tp_dst = 0;
            m->wc.masks.tp_dst = htons(0xff);
        }
        break;
    }
}

/* Bit helpers over big-endian byte arrays.  Bit 0 is the least
 * significant bit of the last byte. */

static bool
get_bit(const uint8_t *p, unsigned int len, unsigned int bit)
{
    return (p[len - 1 - bit / 8] >> (bit % 8)) & 1;
}

static void
put_bit(uint8_t *p, unsigned int len, unsigned int bit, bool value)
{
    uint8_t *byte = &p[len - 1 - bit / 8];
    uint8_t m = 1u << (bit % 8);
    *byte = value ? (*byte | m) : (*byte & ~m);
}

void
bitwise_copy(const void *src_, unsigned int src_len, unsigned int src_ofs,
             void *dst_, unsigned int dst_len, unsigned int dst_ofs,
             unsigned int n_bits)
{
    const uint8_t *src = src_;
    uint8_t *dst = dst_;
    for (unsigned int i = 0; i < n_bits; i++) {
        put_bit(dst, dst_len, dst_ofs + i, get_bit(src, src_len, src_ofs + i));
    }
}

void
bitwise_one(void *dst_, unsigned int dst_len, unsigned int dst_ofs,
            unsigned int n_bits)
{
    uint8_t *dst = dst_;
    for (unsigned int i = 0; i < n_bits; i++) {
        put_bit(dst, dst_len, dst_ofs + i, true);
    }
}

bool
bitwise_is_all_zeros(const void *p_, unsigned int len, unsigned int ofs,
                     unsigned int n_bits)
{
    const uint8_t *p = p_;
    for (unsigned int i = 0; i < n_bits; i++) {
        if (get_bit(p, len, ofs + i)) {
            return false;
        }
    }
    return true;
}

int
bitwise_rscan(const void *p_, unsigned int len)
{
    const uint8_t *p = p_;
    for (unsigned int i = 0; i < len; i++) {
        if (p[i]) {
            return (len - 1 - i) * 8 + 31 - __builtin_clz(p[i]);
        }
    }
    return -1;
}
