/* ofp-fields: the match fields OpenFlow can name, and their codes.
 *
 * Every field a flow can match on or an action can read or write is one
 * entry in a table (struct mf_field): its names in Open vSwitch's syntax
 * ("ip_src", also "nw_src"), its width, whether and how it can be masked,
 * the other fields it requires ("tcp_src" needs an IPv4 or IPv6 TCP
 * packet), the format its values are written in, and its codes in the two
 * TLV match encodings, NXM (OpenFlow 1.0 with Nicira extensions) and OXM
 * (OpenFlow 1.2+).  The fields are views of struct flow: several views may
 * share bits (vlan_tci, vlan_vid, vlan_pcp and dl_vlan all look at the
 * outer VLAN header; nw_tos, ip_dscp and nw_ecn at the same byte).
 *
 * Values
 * ------
 * A field's value travels as union mf_value: N_BYTES bytes in network byte
 * order at the start of the union, the way NXM/OXM carry it.  Masks use
 * the same representation (1 bits matter).
 *
 * NXM/OXM headers
 * ---------------
 * A TLV header is 32 bits: class (16) | field (7) | hasmask (1) |
 * length (8).  Class 0xffff (experimenter) adds a 32-bit experimenter id,
 * which this module carries in the upper 32 bits of a 64-bit "header" so
 * that one integer names any TLV type.  Lengths count the payload (value,
 * then mask if hasmask), plus 4 for an experimenter id.
 *
 * Threads: the table is constant; functions touch only their arguments.
 */
#ifndef OFP_FIELDS_H
#define OFP_FIELDS_H 1

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include "flow.h"
#include "openflow.h"
#include "packets.h"
#include "util.h"

struct ds;
struct match;
struct ofputil_port_map;

/* The fields, in Open vSwitch 3.1's order (table features list them in
 * this order). */
enum mf_field_id {
    MFF_DP_HASH,
    MFF_RECIRC_ID,
    MFF_PACKET_TYPE,
    MFF_CONJ_ID,
    MFF_TUN_ID,
    MFF_TUN_SRC,
    MFF_TUN_DST,
    MFF_TUN_IPV6_SRC,
    MFF_TUN_IPV6_DST,
    MFF_TUN_FLAGS,
    MFF_TUN_TTL,
    MFF_TUN_TOS,
    MFF_TUN_GBP_ID,
    MFF_TUN_GBP_FLAGS,
    MFF_TUN_ERSPAN_IDX,
    MFF_TUN_ERSPAN_VER,
    MFF_TUN_ERSPAN_DIR,
    MFF_TUN_ERSPAN_HWID,
    MFF_TUN_GTPU_FLAGS,
    MFF_TUN_GTPU_MSGTYPE,
#define MFF_TUN_METADATA(N) (MFF_TUN_METADATA0 + (N))
    MFF_TUN_METADATA0,
    MFF_TUN_METADATA63 = MFF_TUN_METADATA0 + 63,
    MFF_METADATA,
    MFF_IN_PORT,            /* 16-bit, OpenFlow 1.0 port numbers. */
    MFF_IN_PORT_OXM,        /* 32-bit, OpenFlow 1.1+ port numbers. */
    MFF_ACTSET_OUTPUT,
    MFF_SKB_PRIORITY,
    MFF_PKT_MARK,
    MFF_CT_STATE,
    MFF_CT_ZONE,
    MFF_CT_MARK,
    MFF_CT_LABEL,
    MFF_CT_NW_PROTO,
    MFF_CT_NW_SRC,
    MFF_CT_NW_DST,
    MFF_CT_IPV6_SRC,
    MFF_CT_IPV6_DST,
    MFF_CT_TP_SRC,
    MFF_CT_TP_DST,
#define MFF_REG(N) (MFF_REG0 + (N))
    MFF_REG0, MFF_REG1, MFF_REG2, MFF_REG3, MFF_REG4, MFF_REG5, MFF_REG6,
    MFF_REG7, MFF_REG8, MFF_REG9, MFF_REG10, MFF_REG11, MFF_REG12,
    MFF_REG13, MFF_REG14, MFF_REG15,
#define MFF_XREG(N) (MFF_XREG0 + (N))
    MFF_XREG0, MFF_XREG1, MFF_XREG2, MFF_XREG3, MFF_XREG4, MFF_XREG5,
    MFF_XREG6, MFF_XREG7,
#define MFF_XXREG(N) (MFF_XXREG0 + (N))
    MFF_XXREG0, MFF_XXREG1, MFF_XXREG2, MFF_XXREG3,
    MFF_ETH_SRC,
    MFF_ETH_DST,
    MFF_ETH_TYPE,
    MFF_VLAN_TCI,
    MFF_DL_VLAN,            /* 12-bit VID of a present VLAN (1.0 style). */
    MFF_VLAN_VID,           /* VID plus OFPVID12_PRESENT (OXM style). */
    MFF_DL_VLAN_PCP,        /* PCP of a present VLAN (1.0 style). */
    MFF_VLAN_PCP,           /* OXM vlan_pcp. */
    MFF_MPLS_LABEL,
    MFF_MPLS_TC,
    MFF_MPLS_BOS,
    MFF_MPLS_TTL,
    MFF_IPV4_SRC,
    MFF_IPV4_DST,
    MFF_IPV6_SRC,
    MFF_IPV6_DST,
    MFF_IPV6_LABEL,
    MFF_IP_PROTO,
    MFF_IP_DSCP,            /* nw_tos: the DSCP bits in place (tos & 0xfc). */
    MFF_IP_DSCP_SHIFTED,    /* ip_dscp: tos >> 2. */
    MFF_IP_ECN,
    MFF_IP_TTL,
    MFF_IP_FRAG,
    MFF_ARP_OP,
    MFF_ARP_SPA,
    MFF_ARP_TPA,
    MFF_ARP_SHA,
    MFF_ARP_THA,
    MFF_TCP_SRC,
    MFF_TCP_DST,
    MFF_TCP_FLAGS,
    MFF_UDP_SRC,
    MFF_UDP_DST,
    MFF_SCTP_SRC,
    MFF_SCTP_DST,
    MFF_ICMPV4_TYPE,
    MFF_ICMPV4_CODE,
    MFF_ICMPV6_TYPE,
    MFF_ICMPV6_CODE,
    MFF_ND_TARGET,
    MFF_ND_SLL,
    MFF_ND_TLL,
    MFF_ND_RESERVED,
    MFF_ND_OPTIONS_TYPE,
    MFF_NSH_FLAGS,
    MFF_NSH_MDTYPE,
    MFF_NSH_NP,
    MFF_NSH_SPI,
    MFF_NSH_SI,
#define MFF_NSH_C(N) (MFF_NSH_C1 + (N))
    MFF_NSH_C1, MFF_NSH_C2, MFF_NSH_C3, MFF_NSH_C4,
    MFF_NSH_TTL,
    MFF_N_IDS
};

/* What a packet must be for the field to mean anything. */
enum mf_prereqs {
    MFP_NONE,
    MFP_ETHERNET,           /* An Ethernet frame (packet_type Ethernet). */
    MFP_ARP,                /* ARP or RARP. */
    MFP_VLAN_VID,           /* A VLAN header is present. */
    MFP_MPLS,               /* MPLS, unicast or multicast. */
    MFP_IPV4,
    MFP_IPV6,
    MFP_IP_ANY,
    MFP_NSH,
    MFP_CT_VALID,           /* Tracked ("+trk") and valid ("-inv"). */
    MFP_TCP,                /* TCP over IPv4 or IPv6. */
    MFP_UDP,
    MFP_SCTP,
    MFP_ICMPV4,
    MFP_ICMPV6,
    MFP_ND,                 /* ICMPv6 neighbour solicit or advert, code 0. */
    MFP_ND_SOLICIT,
    MFP_ND_ADVERT,
};

enum mf_maskable {
    MFM_NONE,               /* Exact match or wildcard only. */
    MFM_FULLY,              /* Any bitwise mask. */
};

/* How values are written as text. */
enum mf_string {
    MFS_DECIMAL,
    MFS_HEXADECIMAL,
    MFS_ETHERNET,
    MFS_IPV4,
    MFS_IPV6,
    MFS_OFP_PORT,           /* 16-bit port number or name. */
    MFS_OFP_PORT_OXM,       /* 32-bit port number or name. */
    MFS_FRAG,               /* "no", "first", "later", ... */
    MFS_TNL_FLAGS,          /* "oam", "+oam" ... */
    MFS_TCP_FLAGS,          /* "+syn-ack" ... */
    MFS_CT_STATE,           /* "+trk-inv", "new|trk" ... */
    MFS_PACKET_TYPE,        /* "(1,0x800)". */
};

/* OXM/NXM class values and header helpers. */
#define NXM_HEADER(CLASS, FIELD, HASMASK, LENGTH)                   \
    (((uint64_t) (CLASS) << 16) | ((FIELD) << 9) | ((HASMASK) << 8)  \
     | (LENGTH))
#define NXM_EXP_HEADER(EXPERIMENTER, FIELD, HASMASK, LENGTH)        \
    (((uint64_t) (EXPERIMENTER) << 32)                              \
     | NXM_HEADER(0xffff, FIELD, HASMASK, (LENGTH) + 4))

static inline uint32_t nxm_vendor(uint64_t h) { return h >> 32; }
static inline uint16_t nxm_class(uint64_t h) { return (h >> 16) & 0xffff; }
static inline uint8_t nxm_field(uint64_t h) { return (h >> 9) & 0x7f; }
static inline bool nxm_hasmask(uint64_t h) { return (h >> 8) & 1; }
static inline uint8_t nxm_length(uint64_t h) { return h & 0xff; }
static inline bool nxm_is_experimenter(uint64_t h)
{
    return nxm_class(h) == OFPXMC12_EXPERIMENTER;
}
/* Length of the header on the wire (4, or 8 with an experimenter id). */
static inline unsigned int nxm_header_len(uint64_t h)
{
    return nxm_is_experimenter(h) ? 8 : 4;
}
/* Payload length: value (and mask), not counting an experimenter id. */
static inline unsigned int nxm_payload_len(uint64_t h)
{
    return nxm_length(h) - (nxm_is_experimenter(h) ? 4 : 0);
}
/* H with the hasmask bit cleared and the length set for an unmasked
 * value: the form that names a field. */
uint64_t nxm_no_mask(uint64_t h);
/* H with hasmask set and the length doubled. */
uint64_t nxm_make_wild(uint64_t h);

/* One OXM code point and the version it appeared in. */
struct mf_oxm {
    uint64_t header;        /* Unmasked form. */
    const char *name;       /* "OXM_OF_ETH_SRC". */
    enum ofp_version version;   /* First version that writes it; 0: read
                                 * but never written (an alias). */
};

struct mf_field {
    enum mf_field_id id;
    const char *name;       /* "ip_src". */
    const char *extra_name; /* "nw_src", or NULL. */
    unsigned int n_bytes;   /* The most a value takes. */
    unsigned int n_bits;    /* Significant low-order bits. */
    bool variable_len;      /* tun_metadataN: a value of 0 to N_BYTES bytes,
                             * right-aligned in union mf_value. */
    enum mf_maskable maskable;
    enum mf_string string;
    enum mf_prereqs prereqs;
    bool writable;          /* set_field/load/move may change it. */
    bool cidr_only_in_of10; /* Hint for usable protocols. */

    uint64_t nxm_header;    /* Unmasked NXM code, or 0. */
    const char *nxm_name;
    struct mf_oxm oxm[2];   /* OXM codes, oldest first; empty: header 0. */

    /* Which OpenFlow 1.0 / 1.1 standard matches can express it. */
    enum { MFU_NONE, MFU_EXACT, MFU_CIDR, MFU_ANY } of10, of11;
};

#define TUN_METADATA_MAX_LEN 124     /* Longest Geneve option data. */

union mf_value {
    uint8_t u8;
    ovs_be16 be16;
    ovs_be32 be32;
    ovs_be64 be64;
    struct eth_addr mac;
    struct in6_addr ipv6;
    uint8_t b[TUN_METADATA_MAX_LEN];
    uint8_t tun_metadata[TUN_METADATA_MAX_LEN];
};

const struct mf_field *mf_from_id(enum mf_field_id);
/* By name or extra name; NULL if unknown. */
const struct mf_field *mf_from_name(const char *);
const struct mf_field *mf_from_name_len(const char *, size_t len);
/* By an NXM or OXM header (mask bit and length ignored); NULL if none. */
const struct mf_field *mf_from_nxm_header(uint64_t header);
/* By NXM/OXM name ("NXM_OF_IN_PORT", "OXM_OF_ETH_DST"); NULL if none. */
const struct mf_field *mf_from_nxm_name(const char *, size_t len);

/* The header to use for F in VERSION (0: NXM, i.e. OpenFlow 1.0 with
 * Nicira extensions).  OXM when VERSION is 1.2+ and F has an OXM code by
 * then, else NXM; 0 if F has neither. */
uint64_t mf_oxm_header(enum mf_field_id, enum ofp_version);
/* The same for the field F itself: a switch's copy of tun_metadataN (see
 * struct ofproto's tlv_fields) carries its mapped length in its NXM
 * header. */
uint64_t mf_field_oxm_header(const struct mf_field *, enum ofp_version);
/* The NXM or OXM name for HEADER ("NXM_NX_REG0"); NULL if unknown. */
const char *mf_nxm_name_of_header(uint64_t header);
/* The name ovs-ofctl prints for F in a load/move: its NXM name, else OXM
 * name. */
const char *mf_nxm_name(const struct mf_field *);

/* Values.  A tun_metadataN value depends on where a TLV map put the
 * option in the flow: mf_get_value() and mf_set_flow_value() give and take
 * zero for those fields (use mf_get() on a match, or tun-metadata.h). */
void mf_get_value(const struct mf_field *, const struct flow *,
                  union mf_value *);
void mf_set_flow_value(const struct mf_field *, const union mf_value *,
                       struct flow *);
/* Sets FLOW's bits of F under MASK to VALUE's. */
void mf_set_flow_value_masked(const struct mf_field *,
                              const union mf_value *value,
                              const union mf_value *mask, struct flow *);
void mf_get_mask(const struct mf_field *, const struct flow_wildcards *,
                 union mf_value *);
bool mf_is_all_wild(const struct mf_field *, const struct flow_wildcards *);
/* Makes MATCH match F exactly on VALUE, or under MASK (NULL: exact).  A
 * zero mask wildcards the field.  mf_set_checked() returns what went wrong
 * (a malloc'd message): only tun_metadataN can fail, when set twice in
 * MATCH or when it does not fit in the option space; mf_set() ignores
 * that.
 *
 * A field that needs an Ethernet frame (every field with a prerequisite)
 * makes the match match Ethernet packets only, unless it names a packet
 * type: mf_set_ethernet_prereq(), which mf_set() calls (so that a flow
 * means the same whether a controller, a user or learn wrote it, as in
 * 3.1). */
void mf_set_ethernet_prereq(const struct mf_field *, struct match *);
void mf_set(const struct mf_field *, const union mf_value *value,
            const union mf_value *mask, struct match *);
char *mf_set_checked(const struct mf_field *, const union mf_value *value,
                     const union mf_value *mask, struct match *)
    OVS_WARN_UNUSED_RESULT;
void mf_set_wild(const struct mf_field *, struct match *);
/* F's value and mask in MATCH: unlike mf_get_value(), this knows where
 * MATCH keeps each tun_metadataN (see tun-metadata.h).  *LEN (if nonnull)
 * receives the value's length: F's n_bytes, or a tun_metadataN's. */
void mf_get(const struct mf_field *, const struct match *,
            union mf_value *value, union mf_value *mask, unsigned int *len);

/* Whether VALUE is in range for F (vlan_vid's 13 bits, ip_frag's 2, ...). */
bool mf_is_value_valid(const struct mf_field *, const union mf_value *);
/* Whether F's prerequisites hold for FLOW (and, if WC is nonnull, marks
 * the fields the decision looked at). */
bool mf_are_prereqs_ok(const struct mf_field *, const struct flow *,
                       struct flow_wildcards *wc);
/* Whether MATCH pins down what F's prerequisites need. */
bool mf_are_match_prereqs_ok(const struct mf_field *, const struct match *);
/* Adds to MATCH the exact matches F's prerequisites require. */
void mf_set_prereqs(const struct mf_field *, struct match *);

bool mf_value_is_zero(const struct mf_field *, const union mf_value *);
bool mf_value_is_all_ones(const struct mf_field *, const union mf_value *);
void mf_value_set_all_ones(const struct mf_field *, union mf_value *);

/* Text.  Parsing accepts VALUE or VALUE/MASK (MASK may be NULL when the
 * caller wants no mask: then "/" is an error).  Errors are malloc'd. */
char *mf_parse_value(const struct mf_field *, const char *,
                     const struct ofputil_port_map *, union mf_value *value)
    OVS_WARN_UNUSED_RESULT;
char *mf_parse(const struct mf_field *, const char *,
               const struct ofputil_port_map *, union mf_value *value,
               union mf_value *mask) OVS_WARN_UNUSED_RESULT;
/* Parses "NAME[a..b]=S", NAME a field, as a match on those bits of it,
 * added to what MATCH says about the field already. */
char *mf_parse_subfield_match(const char *name, const char *s,
                              struct match *)
    OVS_WARN_UNUSED_RESULT;
/* Parses S into MATCH as F's constraint. */
char *mf_parse_field(const struct mf_field *, const char *s,
                     const struct ofputil_port_map *, struct match *)
    OVS_WARN_UNUSED_RESULT;
/* Appends VALUE (and "/MASK" unless MASK is NULL or all ones; "ANY" if MASK
 * is all zeros), in 3.1's syntax for F. */
void mf_format(const struct mf_field *, const union mf_value *value,
               const union mf_value *mask, const struct ofputil_port_map *,
               struct ds *);

/* Text helpers shared with match_format(). */
/* Appends FLAGS under MASK: "a|b" when MASK is MAX_MASK, "+a-b" otherwise;
 * BIT_NAME names single bits. */
void mf_format_flags_masked(struct ds *, const char *(*bit_name)(uint32_t),
                            uint32_t flags, uint32_t mask, uint32_t max_mask);
const char *mf_tcp_flag_name(uint32_t bit);
const char *mf_tun_flag_name(uint32_t bit);
const char *mf_ct_state_name(uint32_t bit);
/* "(NS,TYPE)", TYPE in hex for an Ethertype (namespace 1). */
void mf_format_packet_type(ovs_be32 packet_type, struct ds *);
/* IP, then "/N" for a CIDR mask or "/MASK", unless MASK is all ones. */
void mf_format_ipv4_masked(ovs_be32 ip, ovs_be32 mask, struct ds *);
void mf_format_ipv6_masked(const struct in6_addr *,
                           const struct in6_addr *mask, struct ds *);

/* Sub-fields: a bit range of a field, as in "NXM_NX_REG0[0..15]". */
struct mf_subfield {
    const struct mf_field *field;
    unsigned int ofs;       /* Offset of the lowest bit. */
    unsigned int n_bits;
};
/* Parses "NAME[]", "NAME[N]", "NAME[N..M]" at *SP (NAME an NXM/OXM name
 * or a field name), advancing *SP past it. */
char *mf_parse_subfield__(struct mf_subfield *, const char **sp)
    OVS_WARN_UNUSED_RESULT;
char *mf_parse_subfield(struct mf_subfield *, const char *s)
    OVS_WARN_UNUSED_RESULT;
void mf_format_subfield(const struct mf_subfield *, struct ds *);
/* Whether SF lies within its field. */
bool mf_subfield_is_valid(const struct mf_subfield *);
/* Reads / writes SF's bits as a host-order integer (at most 64 bits). */
uint64_t mf_get_subfield(const struct mf_subfield *, const struct flow *);
void mf_set_subfield(const struct mf_subfield *, uint64_t value,
                     struct flow *);
/* Bit helpers over big-endian byte arrays of N bytes. */
void bitwise_copy(const void *src, unsigned int src_len, unsigned int src_ofs,
                  void *dst, unsigned int dst_len, unsigned int dst_ofs,
                  unsigned int n_bits);
void bitwise_one(void *dst, unsigned int dst_len, unsigned int dst_ofs,
                 unsigned int n_bits);
bool bitwise_is_all_zeros(const void *, unsigned int len, unsigned int ofs,
                          unsigned int n_bits);
/* Index of the highest 1 bit of the N-byte big-endian value, or -1. */
int bitwise_rscan(const void *, unsigned int len);

#endif /* ofp-fields.h */
