/* openflow: the OpenFlow wire formats, versions 1.0 to 1.5, and the
 * Nicira (NX) and ONF extensions Open vSwitch speaks.
 *
 * Everything here is a layout or a constant taken from the OpenFlow switch
 * specifications and from the extensions' published formats; nothing here
 * has behaviour.  The decoders (ofp-*.c) are the only code that should
 * point these structs at received bytes, and they do so only after checking
 * that the bytes are there.
 *
 * Conventions: every struct is packed and its multi-byte fields are in
 * network byte order (ovs_be16/32/64).  A struct's name says the first
 * version that used that layout (ofp10_*, ofp11_*, ...), or nx_* for Nicira
 * extensions.  Sizes are checked at compile time, because a wrong size
 * here is a wire incompatibility.
 *
 * Threads: constants and types only. */
#ifndef OPENFLOW_H
#define OPENFLOW_H 1

#include <stdint.h>
#include "packets.h"
#include "types.h"

#define OFP_ASSERT(EXPR) _Static_assert(EXPR, #EXPR)

/* All-ones values of the network-order types. */
#define OVS_BE16_MAX ((ovs_be16) 0xffff)
#define OVS_BE32_MAX ((ovs_be32) 0xffffffff)
#define OVS_BE64_MAX ((ovs_be64) UINT64_MAX)

/* Version numbers, as in ofp_header.version. */
enum ofp_version {
    OFP10_VERSION = 0x01,
    OFP11_VERSION = 0x02,
    OFP12_VERSION = 0x03,
    OFP13_VERSION = 0x04,
    OFP14_VERSION = 0x05,
    OFP15_VERSION = 0x06,
};

#define OFP_TCP_PORT 6653
#define OFP_SSL_PORT 6653
#define OFP_OLD_PORT 6633
#define OFP_DEFAULT_PRIORITY 0x8000
#define OFP_FLOW_PERMANENT 0
#define OFP_NO_BUFFER 0xffffffff
#define OFP_DEFAULT_MISS_SEND_LEN 128
#define OFP_MAX_PORT_NAME_LEN 16
#define OFP_MAX_TABLE_NAME_LEN 32
#define DESC_STR_LEN 256
#define SERIAL_NUM_LEN 32
#define OFP_MAX_MSG_LEN 65535

/* Vendor/experimenter ids. */
#define NX_VENDOR_ID 0x00002320     /* Nicira. */
#define ONF_VENDOR_ID 0x4f4e4600    /* Open Networking Foundation. */
#define HPL_VENDOR_ID 0x000004EA    /* HP Labs. */
#define INTEL_VENDOR_ID 0x0000AA01

/* Every message starts with this. */
struct ofp_header {
    uint8_t version;
    uint8_t type;
    ovs_be16 length;                /* Whole message, header included. */
    ovs_be32 xid;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp_header) == 8);

/* Message types.  0-4 are the same in every version; the rest moved in
 * 1.1. */
enum {
    OFPT_HELLO = 0,
    OFPT_ERROR = 1,
    OFPT_ECHO_REQUEST = 2,
    OFPT_ECHO_REPLY = 3,
    OFPT_VENDOR = 4,                /* EXPERIMENTER in 1.1+. */
    OFPT_FEATURES_REQUEST = 5,
    OFPT_FEATURES_REPLY = 6,
    OFPT_GET_CONFIG_REQUEST = 7,
    OFPT_GET_CONFIG_REPLY = 8,
    OFPT_SET_CONFIG = 9,
    OFPT_PACKET_IN = 10,
    OFPT_FLOW_REMOVED = 11,
    OFPT_PORT_STATUS = 12,
    OFPT_PACKET_OUT = 13,
    OFPT_FLOW_MOD = 14,
};

/* OpenFlow 1.0 numbering after FLOW_MOD. */
enum {
    OFPT10_PORT_MOD = 15,
    OFPT10_STATS_REQUEST = 16,
    OFPT10_STATS_REPLY = 17,
    OFPT10_BARRIER_REQUEST = 18,
    OFPT10_BARRIER_REPLY = 19,
    OFPT10_QUEUE_GET_CONFIG_REQUEST = 20,
    OFPT10_QUEUE_GET_CONFIG_REPLY = 21,
};

/* OpenFlow 1.1+ numbering after FLOW_MOD. */
enum {
    OFPT11_GROUP_MOD = 15,
    OFPT11_PORT_MOD = 16,
    OFPT11_TABLE_MOD = 17,
    OFPT11_STATS_REQUEST = 18,      /* MULTIPART_REQUEST in 1.3+. */
    OFPT11_STATS_REPLY = 19,
    OFPT11_BARRIER_REQUEST = 20,
    OFPT11_BARRIER_REPLY = 21,
    OFPT11_QUEUE_GET_CONFIG_REQUEST = 22,
    OFPT11_QUEUE_GET_CONFIG_REPLY = 23,
    OFPT12_ROLE_REQUEST = 24,
    OFPT12_ROLE_REPLY = 25,
    OFPT13_GET_ASYNC_REQUEST = 26,
    OFPT13_GET_ASYNC_REPLY = 27,
    OFPT13_SET_ASYNC = 28,
    OFPT13_METER_MOD = 29,
    OFPT14_ROLE_STATUS = 30,
    OFPT14_TABLE_STATUS = 31,
    OFPT14_REQUESTFORWARD = 32,
    OFPT14_BUNDLE_CONTROL = 33,
    OFPT14_BUNDLE_ADD_MESSAGE = 34,
};

/* Hello elements (1.3.1+). */
enum { OFPHET_VERSIONBITMAP = 1 };
struct ofp_hello_elem_header {
    ovs_be16 type;
    ovs_be16 length;
} __attribute__((packed));

/* Vendor / experimenter message header: NXT_* and ONFT_* messages. */
struct ofp_vendor_header {
    struct ofp_header header;
    ovs_be32 vendor;
    ovs_be32 subtype;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp_vendor_header) == 16);

/* Error message. */
struct ofp_error_msg {
    ovs_be16 type;
    ovs_be16 code;
} __attribute__((packed));
#define OFPET12_EXPERIMENTER 0xffff
struct ofp_error_experimenter {
    ovs_be16 type;                  /* OFPET12_EXPERIMENTER. */
    ovs_be16 exp_code;
    ovs_be32 experimenter;
} __attribute__((packed));

/* Switch features. */
struct ofp_switch_features {
    ovs_be64 datapath_id;
    ovs_be32 n_buffers;
    uint8_t n_tables;
    uint8_t auxiliary_id;           /* 1.3+; padding before. */
    uint8_t pad[2];
    ovs_be32 capabilities;
    ovs_be32 actions;               /* 1.0: OFPAT10 bitmap.  Reserved 1.1+. */
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp_switch_features) == 24);

/* Capability bits, per version. */
enum {
    OFPC_FLOW_STATS = 1 << 0,
    OFPC_TABLE_STATS = 1 << 1,
    OFPC_PORT_STATS = 1 << 2,
    OFPC10_STP = 1 << 3,
    OFPC11_GROUP_STATS = 1 << 3,
    OFPC_RESERVED = 1 << 4,
    OFPC_IP_REASM = 1 << 5,
    OFPC_QUEUE_STATS = 1 << 6,
    OFPC_ARP_MATCH_IP = 1 << 7,     /* 1.0-1.1. */
    OFPC12_PORT_BLOCKED = 1 << 8,
    OFPC14_BUNDLES = 1 << 9,
    OFPC14_FLOW_MONITORING = 1 << 10,
};

/* Physical ports. */
enum {
    OFPPC_PORT_DOWN = 1 << 0,
    OFPPC10_NO_STP = 1 << 1,
    OFPPC_NO_RECV = 1 << 2,
    OFPPC10_NO_RECV_STP = 1 << 3,
    OFPPC10_NO_FLOOD = 1 << 4,
    OFPPC_NO_FWD = 1 << 5,
    OFPPC_NO_PACKET_IN = 1 << 6,
};
enum {
    OFPPS_LINK_DOWN = 1 << 0,
    OFPPS11_BLOCKED = 1 << 1,
    OFPPS11_LIVE = 1 << 2,
    OFPPS10_STP_LISTEN = 0 << 8,
    OFPPS10_STP_LEARN = 1 << 8,
    OFPPS10_STP_FORWARD = 2 << 8,
    OFPPS10_STP_BLOCK = 3 << 8,
    OFPPS10_STP_MASK = 3 << 8,
};
/* Port features: 1.0 has bits 0-11, 1.1+ inserts 40GB..1TB at 7-9 and
 * renumbers the rest. */
enum {
    OFPPF_10MB_HD = 1 << 0,
    OFPPF_10MB_FD = 1 << 1,
    OFPPF_100MB_HD = 1 << 2,
    OFPPF_100MB_FD = 1 << 3,
    OFPPF_1GB_HD = 1 << 4,
    OFPPF_1GB_FD = 1 << 5,
    OFPPF_10GB_FD = 1 << 6,
    OFPPF10_COPPER = 1 << 7,
    OFPPF10_FIBER = 1 << 8,
    OFPPF10_AUTONEG = 1 << 9,
    OFPPF10_PAUSE = 1 << 10,
    OFPPF10_PAUSE_ASYM = 1 << 11,
    OFPPF11_40GB_FD = 1 << 7,
    OFPPF11_100GB_FD = 1 << 8,
    OFPPF11_1TB_FD = 1 << 9,
    OFPPF11_OTHER = 1 << 10,
    OFPPF11_COPPER = 1 << 11,
    OFPPF11_FIBER = 1 << 12,
    OFPPF11_AUTONEG = 1 << 13,
    OFPPF11_PAUSE = 1 << 14,
    OFPPF11_PAUSE_ASYM = 1 << 15,
};

struct ofp10_phy_port {
    ovs_be16 port_no;
    struct eth_addr hw_addr;
    char name[OFP_MAX_PORT_NAME_LEN];
    ovs_be32 config;
    ovs_be32 state;
    ovs_be32 curr;
    ovs_be32 advertised;
    ovs_be32 supported;
    ovs_be32 peer;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp10_phy_port) == 48);

struct ofp11_port {
    ovs_be32 port_no;
    uint8_t pad[4];
    struct eth_addr hw_addr;
    uint8_t pad2[2];
    char name[OFP_MAX_PORT_NAME_LEN];
    ovs_be32 config;
    ovs_be32 state;
    ovs_be32 curr;
    ovs_be32 advertised;
    ovs_be32 supported;
    ovs_be32 peer;
    ovs_be32 curr_speed;            /* kbps. */
    ovs_be32 max_speed;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp11_port) == 64);

struct ofp14_port {
    ovs_be32 port_no;
    ovs_be16 length;
    uint8_t pad[2];
    struct eth_addr hw_addr;
    uint8_t pad2[2];
    char name[OFP_MAX_PORT_NAME_LEN];
    ovs_be32 config;
    ovs_be32 state;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp14_port) == 40);

enum { OFPPDPT14_ETHERNET = 0, OFPPDPT14_OPTICAL = 1,
       OFPPDPT14_EXPERIMENTER = 0xffff };
struct ofp14_port_desc_prop_ethernet {
    ovs_be16 type;
    ovs_be16 length;
    uint8_t pad[4];
    ovs_be32 curr;
    ovs_be32 advertised;
    ovs_be32 supported;
    ovs_be32 peer;
    ovs_be32 curr_speed;
    ovs_be32 max_speed;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp14_port_desc_prop_ethernet) == 32);

/* Port numbers: 16-bit in 1.0, 32-bit in 1.1+.  The reserved ones. */
#define OFPP_MAX 0xff00
#define OFPP_IN_PORT 0xfff8
#define OFPP_TABLE 0xfff9
#define OFPP_NORMAL 0xfffa
#define OFPP_FLOOD 0xfffb
#define OFPP_ALL 0xfffc
#define OFPP_CONTROLLER 0xfffd
#define OFPP_LOCAL 0xfffe
#define OFPP_NONE 0xffff            /* 1.0 "no port"; OFPP11_ANY in 1.1+. */
#define OFPP11_MAX 0xffffff00
#define OFPP11_OFFSET 0xffff0000    /* 1.1 reserved port = 1.0's + this. */
#define OFPP11_ANY 0xffffffff
/* Internally ports are 32-bit values with 1.0's reserved numbers; the 1.1
 * encoding adds OFPP11_OFFSET to those. */
#define OFPP_UNSET 0xfff7           /* Open vSwitch's "no port yet". */

/* Port status. */
enum { OFPPR_ADD, OFPPR_DELETE, OFPPR_MODIFY };
struct ofp_port_status {
    uint8_t reason;
    uint8_t pad[7];
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp_port_status) == 8);

/* Port mod. */
struct ofp10_port_mod {
    ovs_be16 port_no;
    struct eth_addr hw_addr;
    ovs_be32 config;
    ovs_be32 mask;
    ovs_be32 advertise;
    uint8_t pad[4];
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp10_port_mod) == 24);

struct ofp11_port_mod {
    ovs_be32 port_no;
    uint8_t pad[4];
    struct eth_addr hw_addr;
    uint8_t pad2[2];
    ovs_be32 config;
    ovs_be32 mask;
    ovs_be32 advertise;
    uint8_t pad3[4];
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp11_port_mod) == 32);

struct ofp14_port_mod {
    ovs_be32 port_no;
    uint8_t pad[4];
    struct eth_addr hw_addr;
    uint8_t pad2[2];
    ovs_be32 config;
    ovs_be32 mask;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp14_port_mod) == 24);
enum { OFPPMPT14_ETHERNET = 0 };
struct ofp14_port_mod_prop_ethernet {
    ovs_be16 type;
    ovs_be16 length;
    ovs_be32 advertise;
} __attribute__((packed));

/* Switch configuration. */
struct ofp_switch_config {
    ovs_be16 flags;
    ovs_be16 miss_send_len;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp_switch_config) == 4);
enum {
    OFPC_FRAG_NORMAL = 0,
    OFPC_FRAG_DROP = 1,
    OFPC_FRAG_REASM = 2,
    OFPC_FRAG_NX_MATCH = 3,         /* Nicira extension. */
    OFPC_FRAG_MASK = 3,
    OFPC_INVALID_TTL_TO_CONTROLLER = 1 << 2,    /* 1.1-1.2. */
};

/* Table mod. */
struct ofp11_table_mod {
    uint8_t table_id;
    uint8_t pad[3];
    ovs_be32 config;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp11_table_mod) == 8);
enum {
    OFPTC11_TABLE_MISS_CONTROLLER = 0,
    OFPTC11_TABLE_MISS_CONTINUE = 1,
    OFPTC11_TABLE_MISS_DROP = 2,
    OFPTC11_TABLE_MISS_MASK = 3,
    OFPTC14_EVICTION = 1 << 2,
    OFPTC14_VACANCY_EVENTS = 1 << 3,
};
#define OFPTT_MAX 0xfe
#define OFPTT_ALL 0xff

/* ------------------------------------------------------------------ */
/* Matches. */

/* OpenFlow 1.0 match. */
struct ofp10_match {
    ovs_be32 wildcards;
    ovs_be16 in_port;
    struct eth_addr dl_src;
    struct eth_addr dl_dst;
    ovs_be16 dl_vlan;
    uint8_t dl_vlan_pcp;
    uint8_t pad1;
    ovs_be16 dl_type;
    uint8_t nw_tos;
    uint8_t nw_proto;
    uint8_t pad2[2];
    ovs_be32 nw_src;
    ovs_be32 nw_dst;
    ovs_be16 tp_src;
    ovs_be16 tp_dst;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp10_match) == 40);

enum {
    OFPFW10_IN_PORT = 1 << 0,
    OFPFW10_DL_VLAN = 1 << 1,
    OFPFW10_DL_SRC = 1 << 2,
    OFPFW10_DL_DST = 1 << 3,
    OFPFW10_DL_TYPE = 1 << 4,
    OFPFW10_NW_PROTO = 1 << 5,
    OFPFW10_TP_SRC = 1 << 6,
    OFPFW10_TP_DST = 1 << 7,
    OFPFW10_NW_SRC_SHIFT = 8,
    OFPFW10_NW_SRC_BITS = 6,
    OFPFW10_NW_SRC_MASK = ((1 << 6) - 1) << 8,
    OFPFW10_NW_SRC_ALL = 32 << 8,
    OFPFW10_NW_DST_SHIFT = 14,
    OFPFW10_NW_DST_BITS = 6,
    OFPFW10_NW_DST_MASK = ((1 << 6) - 1) << 14,
    OFPFW10_NW_DST_ALL = 32 << 14,
    OFPFW10_DL_VLAN_PCP = 1 << 20,
    OFPFW10_NW_TOS = 1 << 21,
    OFPFW10_ALL = (1 << 22) - 1,
};
#define OFP_VLAN_NONE 0xffff        /* 1.0 dl_vlan: no VLAN header. */

/* OpenFlow 1.1 standard match. */
struct ofp11_match {
    ovs_be16 type;                  /* OFPMT_STANDARD. */
    ovs_be16 length;                /* 88. */
    ovs_be32 in_port;
    ovs_be32 wildcards;
    struct eth_addr dl_src;
    struct eth_addr dl_src_mask;
    struct eth_addr dl_dst;
    struct eth_addr dl_dst_mask;
    ovs_be16 dl_vlan;
    uint8_t dl_vlan_pcp;
    uint8_t pad1;
    ovs_be16 dl_type;
    uint8_t nw_tos;
    uint8_t nw_proto;
    ovs_be32 nw_src;
    ovs_be32 nw_src_mask;
    ovs_be32 nw_dst;
    ovs_be32 nw_dst_mask;
    ovs_be16 tp_src;
    ovs_be16 tp_dst;
    ovs_be32 mpls_label;
    uint8_t mpls_tc;
    uint8_t pad2[3];
    ovs_be64 metadata;
    ovs_be64 metadata_mask;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp11_match) == 88);
#define OFPMT11_STANDARD_LENGTH 88

enum {
    OFPFW11_IN_PORT = 1 << 0,
    OFPFW11_DL_VLAN = 1 << 1,
    OFPFW11_DL_VLAN_PCP = 1 << 2,
    OFPFW11_DL_TYPE = 1 << 3,
    OFPFW11_NW_TOS = 1 << 4,
    OFPFW11_NW_PROTO = 1 << 5,
    OFPFW11_TP_SRC = 1 << 6,
    OFPFW11_TP_DST = 1 << 7,
    OFPFW11_MPLS_LABEL = 1 << 8,
    OFPFW11_MPLS_TC = 1 << 9,
    OFPFW11_ALL = (1 << 10) - 1,
};
#define OFPVID11_ANY 0xfffe
#define OFPVID11_NONE 0xffff

enum { OFPMT_STANDARD = 0, OFPMT_OXM = 1 };

/* OXM match header (1.2+), followed by OXM TLVs and padding to 8. */
struct ofp11_match_header {
    ovs_be16 type;                  /* OFPMT_OXM. */
    ovs_be16 length;                /* Excluding padding. */
} __attribute__((packed));

/* OXM/NXM classes. */
#define OFPXMC12_NXM_0 0x0000
#define OFPXMC12_NXM_1 0x0001
#define OFPXMC12_OPENFLOW_BASIC 0x8000
#define OFPXMC15_PACKET_REGS 0x8001
#define OFPXMC12_EXPERIMENTER 0xffff

/* VLAN VID in OXM: OFPVID_PRESENT says a tag is there. */
#define OFPVID12_PRESENT 0x1000
#define OFPVID12_NONE 0x0000

/* ------------------------------------------------------------------ */
/* Flow mod and friends. */

enum {
    OFPFC_ADD = 0,
    OFPFC_MODIFY = 1,
    OFPFC_MODIFY_STRICT = 2,
    OFPFC_DELETE = 3,
    OFPFC_DELETE_STRICT = 4,
};

/* Flow mod flags.  1.0: SEND_FLOW_REM 1, CHECK_OVERLAP 2, EMERG 4. */
enum {
    OFPFF_SEND_FLOW_REM = 1 << 0,
    OFPFF_CHECK_OVERLAP = 1 << 1,
    OFPFF10_EMERG = 1 << 2,
    OFPFF12_RESET_COUNTS = 1 << 2,
    OFPFF13_NO_PKT_COUNTS = 1 << 3,
    OFPFF13_NO_BYT_COUNTS = 1 << 4,
};

struct ofp10_flow_mod {
    struct ofp10_match match;
    ovs_be64 cookie;
    ovs_be16 command;
    ovs_be16 idle_timeout;
    ovs_be16 hard_timeout;
    ovs_be16 priority;
    ovs_be32 buffer_id;
    ovs_be16 out_port;
    ovs_be16 flags;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp10_flow_mod) == 64);

struct ofp11_flow_mod {
    ovs_be64 cookie;
    ovs_be64 cookie_mask;
    uint8_t table_id;
    uint8_t command;
    ovs_be16 idle_timeout;
    ovs_be16 hard_timeout;
    ovs_be16 priority;
    ovs_be32 buffer_id;
    ovs_be32 out_port;
    ovs_be32 out_group;
    ovs_be16 flags;
    ovs_be16 importance;            /* 1.4+; padding before. */
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp11_flow_mod) == 40);

struct nx_flow_mod {
    ovs_be64 cookie;
    ovs_be16 command;               /* Low 8 bits; high 8 bits table id when
                                     * NXT_FLOW_MOD_TABLE_ID is on. */
    ovs_be16 idle_timeout;
    ovs_be16 hard_timeout;
    ovs_be16 priority;
    ovs_be32 buffer_id;
    ovs_be16 out_port;
    ovs_be16 flags;
    ovs_be16 match_len;
    uint8_t pad[6];
} __attribute__((packed));
OFP_ASSERT(sizeof(struct nx_flow_mod) == 32);

/* Flow removed. */
enum {
    OFPRR_IDLE_TIMEOUT = 0,
    OFPRR_HARD_TIMEOUT = 1,
    OFPRR_DELETE = 2,
    OFPRR_GROUP_DELETE = 3,
    OFPRR_METER_DELETE = 4,
    OFPRR_EVICTION = 5,
};

struct ofp10_flow_removed {
    struct ofp10_match match;
    ovs_be64 cookie;
    ovs_be16 priority;
    uint8_t reason;
    uint8_t pad;
    ovs_be32 duration_sec;
    ovs_be32 duration_nsec;
    ovs_be16 idle_timeout;
    uint8_t pad2[2];
    ovs_be64 packet_count;
    ovs_be64 byte_count;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp10_flow_removed) == 80);

struct ofp11_flow_removed {
    ovs_be64 cookie;
    ovs_be16 priority;
    uint8_t reason;
    uint8_t table_id;
    ovs_be32 duration_sec;
    ovs_be32 duration_nsec;
    ovs_be16 idle_timeout;
    ovs_be16 hard_timeout;
    ovs_be64 packet_count;
    ovs_be64 byte_count;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp11_flow_removed) == 40);

struct nx_flow_removed {
    ovs_be64 cookie;
    ovs_be16 priority;
    uint8_t reason;
    uint8_t table_id;
    ovs_be32 duration_sec;
    ovs_be32 duration_nsec;
    ovs_be16 idle_timeout;
    ovs_be16 match_len;
    ovs_be64 packet_count;
    ovs_be64 byte_count;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct nx_flow_removed) == 40);

/* ------------------------------------------------------------------ */
/* Packet in / packet out. */

enum {
    OFPR_NO_MATCH = 0,              /* 1.3+: OFPR_TABLE_MISS. */
    OFPR_ACTION = 1,                /* 1.3+: OFPR_APPLY_ACTION. */
    OFPR_INVALID_TTL = 2,
    OFPR_ACTION_SET = 3,            /* 1.4+. */
    OFPR_GROUP = 4,
    OFPR_PACKET_OUT = 5,
    OFPR_N_REASONS,
    /* Internal: 1.3 reports these as OFPR_ACTION. */
    OFPR_EXPLICIT_MISS = OFPR_N_REASONS,
    OFPR_IMPLICIT_MISS,
};

struct ofp10_packet_in {
    ovs_be32 buffer_id;
    ovs_be16 total_len;
    ovs_be16 in_port;
    uint8_t reason;
    uint8_t pad;
    /* data follows */
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp10_packet_in) == 10);

struct ofp11_packet_in {
    ovs_be32 buffer_id;
    ovs_be32 in_port;
    ovs_be32 in_phy_port;
    ovs_be16 total_len;
    uint8_t reason;
    uint8_t table_id;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp11_packet_in) == 16);

struct ofp12_packet_in {
    ovs_be32 buffer_id;
    ovs_be16 total_len;
    uint8_t reason;
    uint8_t table_id;
    /* 1.3+: ovs_be64 cookie; then the OXM match, 2 pad bytes, data. */
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp12_packet_in) == 8);

struct nx_packet_in {
    ovs_be32 buffer_id;
    ovs_be16 total_len;
    uint8_t reason;
    uint8_t table_id;
    ovs_be64 cookie;
    ovs_be16 match_len;
    uint8_t pad[6];
    /* NXM match, 2 pad bytes, data. */
} __attribute__((packed));
OFP_ASSERT(sizeof(struct nx_packet_in) == 24);

/* NXT_PACKET_IN2 properties. */
enum {
    NXPINT_PACKET = 0,
    NXPINT_FULL_LEN = 1,
    NXPINT_BUFFER_ID = 2,
    NXPINT_TABLE_ID = 3,
    NXPINT_COOKIE = 4,
    NXPINT_REASON = 5,
    NXPINT_METADATA = 6,
    NXPINT_USERDATA = 7,
    NXPINT_CONTINUATION = 8,
};

struct ofp10_packet_out {
    ovs_be32 buffer_id;
    ovs_be16 in_port;
    ovs_be16 actions_len;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp10_packet_out) == 8);

struct ofp11_packet_out {
    ovs_be32 buffer_id;
    ovs_be32 in_port;
    ovs_be16 actions_len;
    uint8_t pad[6];
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp11_packet_out) == 16);

struct ofp15_packet_out {
    ovs_be32 buffer_id;
    ovs_be16 actions_len;
    uint8_t pad[2];
    /* OXM match (in_port and metadata), actions, data. */
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp15_packet_out) == 8);

/* ------------------------------------------------------------------ */
/* Multipart (statistics). */

struct ofp10_stats_msg {
    struct ofp_header header;
    ovs_be16 type;
    ovs_be16 flags;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp10_stats_msg) == 12);

struct ofp11_stats_msg {
    struct ofp_header header;
    ovs_be16 type;
    ovs_be16 flags;
    uint8_t pad[4];
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp11_stats_msg) == 16);

#define OFPSF_REPLY_MORE 1

/* Vendor statistics headers. */
struct nx10_stats_msg {
    struct ofp10_stats_msg osm;     /* type = OFPST_VENDOR. */
    ovs_be32 vendor;
    ovs_be32 subtype;
    uint8_t pad[4];
} __attribute__((packed));
OFP_ASSERT(sizeof(struct nx10_stats_msg) == 24);

struct ofp11_vendor_stats_msg {
    struct ofp11_stats_msg osm;     /* type = OFPST_VENDOR. */
    ovs_be32 vendor;
    ovs_be32 subtype;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp11_vendor_stats_msg) == 24);

enum {
    OFPST_DESC = 0,
    OFPST_FLOW = 1,
    OFPST_AGGREGATE = 2,
    OFPST_TABLE = 3,
    OFPST_PORT = 4,
    OFPST_QUEUE = 5,
    OFPST_GROUP = 6,
    OFPST_GROUP_DESC = 7,
    OFPST_GROUP_FEATURES = 8,
    OFPST_METER = 9,
    OFPST_METER_CONFIG = 10,
    OFPST_METER_FEATURES = 11,
    OFPST_TABLE_FEATURES = 12,
    OFPST_PORT_DESC = 13,
    OFPST_TABLE_DESC = 14,
    OFPST_QUEUE_DESC = 15,
    OFPST_FLOW_MONITOR = 16,
    OFPST_VENDOR = 0xffff,
};

struct ofp_desc_stats {
    char mfr_desc[DESC_STR_LEN];
    char hw_desc[DESC_STR_LEN];
    char sw_desc[DESC_STR_LEN];
    char serial_num[SERIAL_NUM_LEN];
    char dp_desc[DESC_STR_LEN];
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp_desc_stats) == 1056);

struct ofp10_flow_stats_request {
    struct ofp10_match match;
    uint8_t table_id;
    uint8_t pad;
    ovs_be16 out_port;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp10_flow_stats_request) == 44);

struct ofp11_flow_stats_request {
    uint8_t table_id;
    uint8_t pad[3];
    ovs_be32 out_port;
    ovs_be32 out_group;
    uint8_t pad2[4];
    ovs_be64 cookie;
    ovs_be64 cookie_mask;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp11_flow_stats_request) == 32);

struct nx_flow_stats_request {
    ovs_be16 out_port;
    ovs_be16 match_len;
    uint8_t table_id;
    uint8_t pad[3];
} __attribute__((packed));
OFP_ASSERT(sizeof(struct nx_flow_stats_request) == 8);

struct ofp10_flow_stats {
    ovs_be16 length;
    uint8_t table_id;
    uint8_t pad;
    struct ofp10_match match;
    ovs_be32 duration_sec;
    ovs_be32 duration_nsec;
    ovs_be16 priority;
    ovs_be16 idle_timeout;
    ovs_be16 hard_timeout;
    uint8_t pad2[6];
    ovs_be64 cookie;
    ovs_be64 packet_count;
    ovs_be64 byte_count;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp10_flow_stats) == 88);

struct ofp11_flow_stats {
    ovs_be16 length;
    uint8_t table_id;
    uint8_t pad;
    ovs_be32 duration_sec;
    ovs_be32 duration_nsec;
    ovs_be16 priority;
    ovs_be16 idle_timeout;
    ovs_be16 hard_timeout;
    ovs_be16 flags;                 /* 1.3+. */
    ovs_be16 importance;            /* 1.4+. */
    uint8_t pad2[2];
    ovs_be64 cookie;
    ovs_be64 packet_count;
    ovs_be64 byte_count;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp11_flow_stats) == 48);

struct nx_flow_stats {
    ovs_be16 length;
    uint8_t table_id;
    uint8_t pad;
    ovs_be32 duration_sec;
    ovs_be32 duration_nsec;
    ovs_be16 priority;
    ovs_be16 idle_timeout;
    ovs_be16 hard_timeout;
    ovs_be16 match_len;
    ovs_be16 idle_age;              /* Seconds idle, plus one; 0 unknown. */
    ovs_be16 hard_age;              /* Seconds since last modification,
                                     * plus one; 0 unknown. */
    ovs_be64 cookie;
    ovs_be64 packet_count;
    ovs_be64 byte_count;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct nx_flow_stats) == 48);

struct ofp_aggregate_stats_reply {
    ovs_be64 packet_count;
    ovs_be64 byte_count;
    ovs_be32 flow_count;
    uint8_t pad[4];
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp_aggregate_stats_reply) == 24);

struct ofp10_table_stats {
    uint8_t table_id;
    uint8_t pad[3];
    char name[OFP_MAX_TABLE_NAME_LEN];
    ovs_be32 wildcards;
    ovs_be32 max_entries;
    ovs_be32 active_count;
    ovs_be64 lookup_count;
    ovs_be64 matched_count;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp10_table_stats) == 64);

struct ofp11_table_stats {
    uint8_t table_id;
    uint8_t pad[7];
    char name[OFP_MAX_TABLE_NAME_LEN];
    ovs_be32 wildcards;
    ovs_be32 match;
    ovs_be32 instructions;
    ovs_be32 write_actions;
    ovs_be32 apply_actions;
    ovs_be32 config;
    ovs_be32 max_entries;
    ovs_be32 active_count;
    ovs_be64 lookup_count;
    ovs_be64 matched_count;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp11_table_stats) == 88);

struct ofp12_table_stats {
    uint8_t table_id;
    uint8_t pad[7];
    char name[OFP_MAX_TABLE_NAME_LEN];
    ovs_be64 match;
    ovs_be64 wildcards;
    ovs_be32 write_actions;
    ovs_be32 apply_actions;
    ovs_be64 write_setfields;
    ovs_be64 apply_setfields;
    ovs_be64 metadata_match;
    ovs_be64 metadata_write;
    ovs_be32 instructions;
    ovs_be32 config;
    ovs_be32 max_entries;
    ovs_be32 active_count;
    ovs_be64 lookup_count;
    ovs_be64 matched_count;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp12_table_stats) == 128);

struct ofp13_table_stats {
    uint8_t table_id;
    uint8_t pad[3];
    ovs_be32 active_count;
    ovs_be64 lookup_count;
    ovs_be64 matched_count;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp13_table_stats) == 24);

struct ofp10_port_stats_request {
    ovs_be16 port_no;
    uint8_t pad[6];
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp10_port_stats_request) == 8);

struct ofp11_port_stats_request {
    ovs_be32 port_no;
    uint8_t pad[4];
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp11_port_stats_request) == 8);

struct ofp10_port_stats {
    ovs_be16 port_no;
    uint8_t pad[6];
    ovs_be64 rx_packets;
    ovs_be64 tx_packets;
    ovs_be64 rx_bytes;
    ovs_be64 tx_bytes;
    ovs_be64 rx_dropped;
    ovs_be64 tx_dropped;
    ovs_be64 rx_errors;
    ovs_be64 tx_errors;
    ovs_be64 rx_frame_err;
    ovs_be64 rx_over_err;
    ovs_be64 rx_crc_err;
    ovs_be64 collisions;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp10_port_stats) == 104);

struct ofp11_port_stats {
    ovs_be32 port_no;
    uint8_t pad[4];
    ovs_be64 rx_packets;
    ovs_be64 tx_packets;
    ovs_be64 rx_bytes;
    ovs_be64 tx_bytes;
    ovs_be64 rx_dropped;
    ovs_be64 tx_dropped;
    ovs_be64 rx_errors;
    ovs_be64 tx_errors;
    ovs_be64 rx_frame_err;
    ovs_be64 rx_over_err;
    ovs_be64 rx_crc_err;
    ovs_be64 collisions;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp11_port_stats) == 104);

struct ofp13_port_stats {
    struct ofp11_port_stats ps;
    ovs_be32 duration_sec;
    ovs_be32 duration_nsec;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp13_port_stats) == 112);

struct ofp14_port_stats {
    ovs_be16 length;
    uint8_t pad[2];
    ovs_be32 port_no;
    ovs_be32 duration_sec;
    ovs_be32 duration_nsec;
    ovs_be64 rx_packets;
    ovs_be64 tx_packets;
    ovs_be64 rx_bytes;
    ovs_be64 tx_bytes;
    ovs_be64 rx_dropped;
    ovs_be64 tx_dropped;
    ovs_be64 rx_errors;
    ovs_be64 tx_errors;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp14_port_stats) == 80);

enum { OFPPSPT14_ETHERNET = 0 };
struct ofp14_port_stats_prop_ethernet {
    ovs_be16 type;
    ovs_be16 length;
    uint8_t pad[4];
    ovs_be64 rx_frame_err;
    ovs_be64 rx_over_err;
    ovs_be64 rx_crc_err;
    ovs_be64 collisions;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp14_port_stats_prop_ethernet) == 40);

struct ofp15_port_desc_request {
    ovs_be32 port_no;
    uint8_t pad[4];
} __attribute__((packed));

/* ------------------------------------------------------------------ */
/* Groups. */

enum {
    OFPGC11_ADD = 0,
    OFPGC11_MODIFY = 1,
    OFPGC11_DELETE = 2,
    OFPGC15_INSERT_BUCKET = 3,
    OFPGC15_REMOVE_BUCKET = 5,
    OFPGC_ADD_OR_MOD = 0x8000,      /* Open vSwitch extension. */
};
enum { OFPGT11_ALL = 0, OFPGT11_SELECT = 1, OFPGT11_INDIRECT = 2,
       OFPGT11_FF = 3 };
#define OFPG_MAX 0xffffff00
#define OFPG_ALL 0xfffffffc
#define OFPG_ANY 0xffffffff
#define OFPG15_BUCKET_MAX 0xffffff00
#define OFPG15_BUCKET_FIRST 0xfffffffd
#define OFPG15_BUCKET_LAST 0xfffffffe
#define OFPG15_BUCKET_ALL 0xffffffff

struct ofp11_group_mod {
    ovs_be16 command;
    uint8_t type;
    uint8_t pad;
    ovs_be32 group_id;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp11_group_mod) == 8);

struct ofp15_group_mod {
    ovs_be16 command;
    uint8_t type;
    uint8_t pad;
    ovs_be32 group_id;
    ovs_be16 bucket_array_len;
    uint8_t pad1[2];
    ovs_be32 command_bucket_id;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp15_group_mod) == 16);

struct ofp11_bucket {
    ovs_be16 len;
    ovs_be16 weight;
    ovs_be32 watch_port;
    ovs_be32 watch_group;
    uint8_t pad[4];
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp11_bucket) == 16);

struct ofp15_bucket {
    ovs_be16 len;
    ovs_be16 action_array_len;
    ovs_be32 bucket_id;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp15_bucket) == 8);

enum {
    OFPGBPT15_WEIGHT = 0,
    OFPGBPT15_WATCH_PORT = 1,
    OFPGBPT15_WATCH_GROUP = 2,
};
/* Group properties (1.5, and Nicira's 1.0 group messages): only the
 * experimenter type exists.  Open vSwitch's selection method is Netronome's
 * experimenter property (written with NTR_VENDOR_ID, read with either id). */
#define OFPGPT15_EXPERIMENTER 0xffff
#define NTR_VENDOR_ID 0x0000154d
#define NTR_COMPAT_VENDOR_ID 0x00001540
#define NTRT_SELECTION_METHOD 1
#define NTR_MAX_SELECTION_METHOD_LEN 16

struct ntr_group_prop_selection_method {
    ovs_be16 type;                  /* OFPGPT15_EXPERIMENTER. */
    ovs_be16 length;                /* 40, plus the fields. */
    ovs_be32 experimenter;          /* NTR_VENDOR_ID. */
    ovs_be32 exp_type;              /* NTRT_SELECTION_METHOD. */
    uint8_t pad[4];
    char selection_method[NTR_MAX_SELECTION_METHOD_LEN];  /* NUL-ended. */
    ovs_be64 selection_method_param;
    /* Followed by NXM/OXM headers, each with a mask of the field's
     * length, then padding to 8 bytes. */
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ntr_group_prop_selection_method) == 40);

struct ofp11_group_stats_request {
    ovs_be32 group_id;
    uint8_t pad[4];
} __attribute__((packed));

struct ofp11_group_stats {
    ovs_be16 length;
    uint8_t pad[2];
    ovs_be32 group_id;
    ovs_be32 ref_count;
    uint8_t pad2[4];
    ovs_be64 packet_count;
    ovs_be64 byte_count;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp11_group_stats) == 32);

struct ofp13_group_stats {
    struct ofp11_group_stats gs;
    ovs_be32 duration_sec;
    ovs_be32 duration_nsec;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp13_group_stats) == 40);

struct ofp11_bucket_counter {
    ovs_be64 packet_count;
    ovs_be64 byte_count;
} __attribute__((packed));

struct ofp11_group_desc_stats {
    ovs_be16 length;
    uint8_t type;
    uint8_t pad;
    ovs_be32 group_id;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp11_group_desc_stats) == 8);

struct ofp15_group_desc_stats {
    ovs_be16 length;
    uint8_t type;
    uint8_t pad;
    ovs_be32 group_id;
    ovs_be16 bucket_list_len;
    uint8_t pad2[6];
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp15_group_desc_stats) == 16);

struct ofp15_group_desc_request {
    ovs_be32 group_id;
    uint8_t pad[4];
} __attribute__((packed));

struct ofp12_group_features_stats {
    ovs_be32 types;
    ovs_be32 capabilities;
    ovs_be32 max_groups[4];
    ovs_be32 actions[4];
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp12_group_features_stats) == 40);
enum {
    OFPGFC_SELECT_WEIGHT = 1 << 0,
    OFPGFC_SELECT_LIVENESS = 1 << 1,
    OFPGFC_CHAINING = 1 << 2,
    OFPGFC_CHAINING_CHECKS = 1 << 3,
};

/* ------------------------------------------------------------------ */
/* Meters. */

enum { OFPMC13_ADD = 0, OFPMC13_MODIFY = 1, OFPMC13_DELETE = 2 };
enum {
    OFPMF13_KBPS = 1 << 0,
    OFPMF13_PKTPS = 1 << 1,
    OFPMF13_BURST = 1 << 2,
    OFPMF13_STATS = 1 << 3,
};
enum { OFPMBT13_DROP = 1, OFPMBT13_DSCP_REMARK = 2,
       OFPMBT13_EXPERIMENTER = 0xffff };
#define OFPM13_MAX 0xffff0000
#define OFPM13_SLOWPATH 0xfffffffd
#define OFPM13_CONTROLLER 0xfffffffe
#define OFPM13_ALL 0xffffffff

struct ofp13_meter_mod {
    ovs_be16 command;
    ovs_be16 flags;
    ovs_be32 meter_id;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp13_meter_mod) == 8);

struct ofp13_meter_band_header {
    ovs_be16 type;
    ovs_be16 len;
    ovs_be32 rate;
    ovs_be32 burst_size;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp13_meter_band_header) == 12);

struct ofp13_meter_band_drop {
    struct ofp13_meter_band_header hdr;
    uint8_t pad[4];
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp13_meter_band_drop) == 16);

struct ofp13_meter_band_dscp_remark {
    struct ofp13_meter_band_header hdr;
    uint8_t prec_level;
    uint8_t pad[3];
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp13_meter_band_dscp_remark) == 16);

struct ofp13_meter_multipart_request {
    ovs_be32 meter_id;
    uint8_t pad[4];
} __attribute__((packed));

struct ofp13_meter_stats {
    ovs_be32 meter_id;
    ovs_be16 len;
    uint8_t pad[6];
    ovs_be32 flow_count;
    ovs_be64 packet_in_count;
    ovs_be64 byte_in_count;
    ovs_be32 duration_sec;
    ovs_be32 duration_nsec;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp13_meter_stats) == 40);

struct ofp13_meter_band_stats {
    ovs_be64 packet_band_count;
    ovs_be64 byte_band_count;
} __attribute__((packed));

struct ofp13_meter_config {
    ovs_be16 length;
    ovs_be16 flags;
    ovs_be32 meter_id;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp13_meter_config) == 8);

struct ofp13_meter_features {
    ovs_be32 max_meter;
    ovs_be32 band_types;
    ovs_be32 capabilities;
    uint8_t max_bands;
    uint8_t max_color;
    uint8_t pad[2];
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp13_meter_features) == 16);

/* ------------------------------------------------------------------ */
/* Table features (1.3+). */

struct ofp13_table_features {
    ovs_be16 length;
    uint8_t table_id;
    uint8_t command;                /* 1.5+; padding before. */
    uint8_t pad[4];
    char name[OFP_MAX_TABLE_NAME_LEN];
    ovs_be64 metadata_match;
    ovs_be64 metadata_write;
    ovs_be32 capabilities;          /* "config" in 1.3. */
    ovs_be32 max_entries;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp13_table_features) == 64);

/* 1.5's command in a table features request. */
enum ofp15_table_features_command {
    OFPTFC15_REPLACE = 0,       /* The whole pipeline, as 1.3 and 1.4. */
    OFPTFC15_MODIFY = 1,        /* The tables listed. */
    OFPTFC15_ENABLE = 2,
    OFPTFC15_DISABLE = 3,
};

enum {
    OFPTFPT13_INSTRUCTIONS = 0,
    OFPTFPT13_INSTRUCTIONS_MISS = 1,
    OFPTFPT13_NEXT_TABLES = 2,
    OFPTFPT13_NEXT_TABLES_MISS = 3,
    OFPTFPT13_WRITE_ACTIONS = 4,
    OFPTFPT13_WRITE_ACTIONS_MISS = 5,
    OFPTFPT13_APPLY_ACTIONS = 6,
    OFPTFPT13_APPLY_ACTIONS_MISS = 7,
    OFPTFPT13_MATCH = 8,
    OFPTFPT13_WILDCARDS = 10,
    OFPTFPT13_WRITE_SETFIELD = 12,
    OFPTFPT13_WRITE_SETFIELD_MISS = 13,
    OFPTFPT13_APPLY_SETFIELD = 14,
    OFPTFPT13_APPLY_SETFIELD_MISS = 15,
    OFPTFPT13_EXPERIMENTER = 0xfffe,
    OFPTFPT13_EXPERIMENTER_MISS = 0xffff,
};

/* ------------------------------------------------------------------ */
/* Roles, async config, bundles. */

enum {
    OFPCR12_ROLE_NOCHANGE = 0,
    OFPCR12_ROLE_EQUAL = 1,
    OFPCR12_ROLE_MASTER = 2,
    OFPCR12_ROLE_SLAVE = 3,
};
struct ofp12_role_request {
    ovs_be32 role;
    uint8_t pad[4];
    ovs_be64 generation_id;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp12_role_request) == 16);

enum { NX_ROLE_OTHER = 0, NX_ROLE_MASTER = 1, NX_ROLE_SLAVE = 2 };
struct nx_role_request {
    ovs_be32 role;
} __attribute__((packed));

struct ofp14_role_status {
    ovs_be32 role;
    uint8_t reason;
    uint8_t pad[3];
    ovs_be64 generation_id;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp14_role_status) == 16);

struct ofp13_async_config {
    ovs_be32 packet_in_mask[2];     /* [0] master/equal, [1] slave. */
    ovs_be32 port_status_mask[2];
    ovs_be32 flow_removed_mask[2];
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp13_async_config) == 24);

struct ofp14_bundle_ctrl_msg {
    ovs_be32 bundle_id;
    ovs_be16 type;                  /* Control: OFPBCT_*.  Add: padding. */
    ovs_be16 flags;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct ofp14_bundle_ctrl_msg) == 8);
enum {
    OFPBCT_OPEN_REQUEST = 0,
    OFPBCT_OPEN_REPLY = 1,
    OFPBCT_CLOSE_REQUEST = 2,
    OFPBCT_CLOSE_REPLY = 3,
    OFPBCT_COMMIT_REQUEST = 4,
    OFPBCT_COMMIT_REPLY = 5,
    OFPBCT_DISCARD_REQUEST = 6,
    OFPBCT_DISCARD_REPLY = 7,
};
enum { OFPBF_ATOMIC = 1 << 0, OFPBF_ORDERED = 1 << 1 };

/* ------------------------------------------------------------------ */
/* Nicira extension messages (NXT_*, subtypes of OFPT_VENDOR). */

enum {
    NXT_ROLE_REQUEST = 10,
    NXT_ROLE_REPLY = 11,
    NXT_SET_FLOW_FORMAT = 12,
    NXT_FLOW_MOD = 13,
    NXT_FLOW_REMOVED = 14,
    NXT_FLOW_MOD_TABLE_ID = 15,
    NXT_SET_PACKET_IN_FORMAT = 16,
    NXT_PACKET_IN = 17,
    NXT_FLOW_AGE = 18,
    NXT_SET_ASYNC_CONFIG = 19,
    NXT_SET_CONTROLLER_ID = 20,
    NXT_FLOW_MONITOR_CANCEL = 21,
    NXT_FLOW_MONITOR_PAUSED = 22,
    NXT_FLOW_MONITOR_RESUMED = 23,
    NXT_TLV_TABLE_MOD = 24,
    NXT_TLV_TABLE_REQUEST = 25,
    NXT_TLV_TABLE_REPLY = 26,
    NXT_SET_ASYNC_CONFIG2 = 27,
    NXT_RESUME = 28,
    NXT_CT_FLUSH_ZONE = 29,
    NXT_PACKET_IN2 = 30,
    NXT_CT_FLUSH = 32,
    NXT_REQUESTFORWARD = 132,
};

/* Nicira statistics subtypes. */
enum {
    NXST_FLOW = 0,
    NXST_AGGREGATE = 1,
    NXST_FLOW_MONITOR = 2,
    NXST_IPFIX_BRIDGE = 3,
    NXST_IPFIX_FLOW = 4,
};

/* ONF's flow monitor extension for OpenFlow 1.3: the multipart request
 * and reply and the cancel message share this subtype; paused and resumed
 * are the next two. */
enum { ONF_FLOW_MONITOR = 1870 };

/* NXT_TLV_TABLE_MOD body: a command and its mappings; NXT_TLV_TABLE_REPLY
 * body: the switch's limits and mappings.  Each mapping names a Geneve
 * option (class, type, data length) and the field tun_metadataINDEX. */
enum { NXTTMC_ADD = 0, NXTTMC_DELETE = 1, NXTTMC_CLEAR = 2 };
struct nx_tlv_map {
    ovs_be16 option_class;
    uint8_t option_type;
    uint8_t option_len;
    ovs_be16 index;
    uint8_t pad[2];
};
OFP_ASSERT(sizeof(struct nx_tlv_map) == 8);
struct nx_tlv_table_mod {
    ovs_be16 command;
    uint8_t pad[6];
    /* struct nx_tlv_map mappings[]. */
};
OFP_ASSERT(sizeof(struct nx_tlv_table_mod) == 8);
struct nx_tlv_table_reply {
    ovs_be32 max_option_space;
    ovs_be16 max_fields;
    uint8_t reserved[10];
    /* struct nx_tlv_map mappings[]. */
};
OFP_ASSERT(sizeof(struct nx_tlv_table_reply) == 16);

/* Flow formats for NXT_SET_FLOW_FORMAT. */
enum { NXFF_OPENFLOW10 = 0, NXFF_NXM = 2 };
struct nx_set_flow_format {
    ovs_be32 format;
} __attribute__((packed));

struct nx_flow_mod_table_id {
    uint8_t set;
    uint8_t pad[7];
} __attribute__((packed));
OFP_ASSERT(sizeof(struct nx_flow_mod_table_id) == 8);

/* Packet-in formats for NXT_SET_PACKET_IN_FORMAT. */
enum {
    NXPIF_STANDARD = 0,             /* "openflow10" in 1.0. */
    NXPIF_NXT_PACKET_IN = 1,        /* "nxt_packet_in". */
    NXPIF_NXT_PACKET_IN2 = 2,
};
struct nx_set_packet_in_format {
    ovs_be32 format;
} __attribute__((packed));

struct nx_controller_id {
    uint8_t zero[6];
    ovs_be16 controller_id;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct nx_controller_id) == 8);

/* NXT_CT_FLUSH_ZONE: flush a connection tracking zone. */
struct nx_zone_id {
    uint8_t zero[6];
    ovs_be16 zone_id;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct nx_zone_id) == 8);

/* NXT_CT_FLUSH: flush the connections a match selects.  The body is
 * followed by properties: the original and reply tuples (each nested
 * properties of the NXT_CT_TUPLE_* types) and the zone. */
struct nx_ct_flush {
    uint8_t ip_proto;
    uint8_t pad[7];
} __attribute__((packed));
OFP_ASSERT(sizeof(struct nx_ct_flush) == 8);
enum {
    NXT_CT_ORIG_TUPLE = 0,      /* Nested tuple. */
    NXT_CT_REPLY_TUPLE = 1,     /* Nested tuple. */
    NXT_CT_ZONE_ID = 2,         /* be16. */
};
enum {
    NXT_CT_TUPLE_SRC = 0,       /* IPv6 or IPv4-mapped address. */
    NXT_CT_TUPLE_DST = 1,
    NXT_CT_TUPLE_SRC_PORT = 2,  /* be16. */
    NXT_CT_TUPLE_DST_PORT = 3,  /* be16. */
    NXT_CT_TUPLE_ICMP_ID = 4,   /* be16. */
    NXT_CT_TUPLE_ICMP_TYPE = 5, /* u8. */
    NXT_CT_TUPLE_ICMP_CODE = 6, /* u8. */
};

/* NX flow monitor. */
struct nx_flow_monitor_request {
    ovs_be32 id;
    ovs_be16 flags;
    ovs_be16 out_port;
    ovs_be16 match_len;
    uint8_t table_id;
    uint8_t zeros[5];
} __attribute__((packed));
OFP_ASSERT(sizeof(struct nx_flow_monitor_request) == 16);
enum {
    NXFMF_INITIAL = 1 << 0,
    NXFMF_ADD = 1 << 1,
    NXFMF_DELETE = 1 << 2,
    NXFMF_MODIFY = 1 << 3,
    NXFMF_ACTIONS = 1 << 4,
    NXFMF_OWN = 1 << 5,
};
enum { NXFME_ADDED = 0, NXFME_DELETED = 1, NXFME_MODIFIED = 2,
       NXFME_ABBREV = 3 };
struct nx_flow_update_header {
    ovs_be16 length;
    ovs_be16 event;
} __attribute__((packed));
struct nx_flow_update_full {
    ovs_be16 length;
    ovs_be16 event;
    ovs_be16 reason;
    ovs_be16 priority;
    ovs_be16 idle_timeout;
    ovs_be16 hard_timeout;
    ovs_be16 match_len;
    uint8_t table_id;
    uint8_t pad;
    ovs_be64 cookie;
} __attribute__((packed));
OFP_ASSERT(sizeof(struct nx_flow_update_full) == 24);
struct nx_flow_update_abbrev {
    ovs_be16 length;
    ovs_be16 event;
    ovs_be32 xid;
} __attribute__((packed));
struct nx_flow_monitor_cancel {
    ovs_be32 id;
} __attribute__((packed));

/* ------------------------------------------------------------------ */
/* Properties (1.4+ and extensions): type, length, then the body padded to
 * a multiple of 8 (length excludes the padding). */
struct ofp_prop_header {
    ovs_be16 type;
    ovs_be16 len;
} __attribute__((packed));
struct ofp_prop_experimenter {
    ovs_be16 type;                  /* 0xffff (or 0xfffe for "miss"). */
    ovs_be16 len;
    ovs_be32 experimenter;
    ovs_be32 exp_type;
} __attribute__((packed));

#endif /* openflow.h */
