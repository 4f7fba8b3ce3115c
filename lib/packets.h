/* packets: protocol header values and addresses shared by the switch's
 * modules: Ethernet addresses, and the wire layout of the headers the
 * datapath parses and writes (Ethernet, 802.1Q/802.1ad, LLC/SNAP, ARP,
 * IPv4, IPv6 and its extension headers, TCP, UDP, SCTP, ICMP, ICMPv6 and
 * neighbour discovery, IGMP).
 *
 * Header structs are packed and their multi-byte fields are network order
 * (ovs_be16/ovs_be32): point one at packet bytes only after checking that
 * the packet holds sizeof the struct there (dp_packet_at()).
 *
 * Everything here is a value type; nothing allocates. */
#ifndef PACKETS_H
#define PACKETS_H 1

#include <endian.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include "types.h"

#define ETH_ADDR_LEN 6

struct eth_addr {
    uint8_t ea[ETH_ADDR_LEN];
};

/* printf() helpers: printf("mac " ETH_ADDR_FMT, ETH_ADDR_ARGS(ea)). */
#define ETH_ADDR_FMT "%02x:%02x:%02x:%02x:%02x:%02x"
#define ETH_ADDR_ARGS(EA) \
    (EA).ea[0], (EA).ea[1], (EA).ea[2], (EA).ea[3], (EA).ea[4], (EA).ea[5]

bool eth_addr_is_zero(struct eth_addr);
bool eth_addr_is_multicast(struct eth_addr);
bool eth_addr_equals(struct eth_addr, struct eth_addr);
/* The address as the low 48 bits of an integer (first byte highest), the
 * form bridge identifiers use, and back (the high 16 bits ignored). */
uint64_t eth_addr_to_uint64(struct eth_addr);
/* Whether EA is one of the group addresses bridges must not forward: the
 * IEEE 802.1D reserved range 01:80:c2:00:00:00-0f (STP, pause, LACP, ...)
 * and the vendor protocols' addresses Open vSwitch treats the same (CDP,
 * VTP, PVST+, EDP, EAPS, Cisco CFM, ...). */
bool eth_addr_is_reserved(struct eth_addr);
struct eth_addr eth_addr_from_uint64(uint64_t);
/* Parses "xx:xx:xx:xx:xx:xx" (one or two hex digits per byte, either case,
 * as Open vSwitch accepts); false if S is anything else (trailing text
 * included), leaving the address untouched. */
bool eth_addr_from_string(const char *s, struct eth_addr *);
/* A random unicast, locally administered address. */
struct eth_addr eth_addr_random(void);

/* Ethernet. */
#define ETH_HEADER_LEN 14
/* The shortest Ethernet frame on the wire, without its CRC. */
#define ETH_TOTAL_MIN 60
#define ETH_TYPE_MIN 0x600          /* Smaller: an 802.3 length field. */
#define ETH_TYPE_IP 0x0800
#define ETH_TYPE_ARP 0x0806
#define ETH_TYPE_RARP 0x8035
#define ETH_TYPE_VLAN_8021Q 0x8100
#define ETH_TYPE_VLAN_8021AD 0x88a8
#define ETH_TYPE_IPV6 0x86dd
#define ETH_TYPE_MPLS 0x8847
#define ETH_TYPE_MPLS_MCAST 0x8848
#define ETH_TYPE_NSH 0x894f
/* dl_type of an 802.3 frame with no SNAP header (Open vSwitch's value). */
#define FLOW_DL_TYPE_NONE 0x5ff

struct eth_header {
    struct eth_addr eth_dst;
    struct eth_addr eth_src;
    ovs_be16 eth_type;
} __attribute__((packed));
_Static_assert(sizeof(struct eth_header) == ETH_HEADER_LEN, "eth_header");

struct vlan_header {
    ovs_be16 vlan_tci;              /* PCP, DEI, VID. */
    ovs_be16 vlan_next_type;
} __attribute__((packed));
#define VLAN_HEADER_LEN 4

/* 802.2 LLC and SNAP, after an 802.3 length field. */
#define LLC_DSAP_SNAP 0xaa
#define LLC_SSAP_SNAP 0xaa
#define LLC_CNTL_SNAP 3
struct llc_snap_header {
    uint8_t llc_dsap;
    uint8_t llc_ssap;
    uint8_t llc_cntl;
    uint8_t snap_org[3];
    ovs_be16 snap_type;
} __attribute__((packed));
#define LLC_SNAP_HEADER_LEN 8

/* ARP for IPv4 over Ethernet. */
#define ARP_HTYPE_ETH 1
#define ARP_OP_REQUEST 1
#define ARP_OP_REPLY 2
struct arp_eth_header {
    ovs_be16 ar_hrd;
    ovs_be16 ar_pro;
    uint8_t ar_hln;
    uint8_t ar_pln;
    ovs_be16 ar_op;
    struct eth_addr ar_sha;
    ovs_be32 ar_spa;
    struct eth_addr ar_tha;
    ovs_be32 ar_tpa;
} __attribute__((packed));
#define ARP_ETH_HEADER_LEN 28
_Static_assert(sizeof(struct arp_eth_header) == ARP_ETH_HEADER_LEN, "arp");

/* IPv4. */
#define IP_HEADER_LEN 20
#define IP_VERSION(VIHL) ((VIHL) >> 4)
#define IP_IHL(VIHL) ((VIHL) & 15)
#define IP_MORE_FRAGMENTS 0x2000
#define IP_FRAG_OFF_MASK 0x1fff
#define IP_DONT_FRAGMENT 0x4000
struct ip_header {
    uint8_t ip_ihl_ver;
    uint8_t ip_tos;
    ovs_be16 ip_tot_len;
    ovs_be16 ip_id;
    ovs_be16 ip_frag_off;
    uint8_t ip_ttl;
    uint8_t ip_proto;
    ovs_be16 ip_csum;
    ovs_be32 ip_src;
    ovs_be32 ip_dst;
} __attribute__((packed));
_Static_assert(sizeof(struct ip_header) == IP_HEADER_LEN, "ip_header");

/* IPv6 and the extension headers the parser walks. */
#define IPV6_HEADER_LEN 40
#define IPV6_LABEL_MASK 0x000fffff
#define IPPROTO_HOPOPTS_ 0
#define IPPROTO_ROUTING_ 43
#define IPPROTO_FRAGMENT_ 44
#define IPPROTO_AH_ 51
#define IPPROTO_DSTOPTS_ 60
#define IPPROTO_NONE_ 59
struct ipv6_header {
    ovs_be32 ip6_vtc_flow;          /* Version 4, class 8, label 20 bits. */
    ovs_be16 ip6_plen;
    uint8_t ip6_nxt;
    uint8_t ip6_hlim;
    struct in6_addr ip6_src;
    struct in6_addr ip6_dst;
} __attribute__((packed));
_Static_assert(sizeof(struct ipv6_header) == IPV6_HEADER_LEN, "ipv6");

/* Hop-by-hop, routing, destination options: length in 8-byte units
 * beyond the first 8.  AH: in 4-byte units beyond the first 8. */
struct ipv6_ext_header {
    uint8_t ip6e_nxt;
    uint8_t ip6e_len;
} __attribute__((packed));

#define IPV6_FRAG_OFF_MASK 0xfff8
#define IPV6_FRAG_MORE 0x0001
struct ipv6_frag_header {
    uint8_t ip6f_nxt;
    uint8_t ip6f_reserved;
    ovs_be16 ip6f_offlg;            /* Offset (13 bits), 2 res, M flag. */
    ovs_be32 ip6f_ident;
} __attribute__((packed));
#define IPV6_FRAG_HEADER_LEN 8

/* TCP. */
#define TCP_FIN 0x001
#define TCP_SYN 0x002
#define TCP_RST 0x004
#define TCP_PSH 0x008
#define TCP_ACK 0x010
#define TCP_URG 0x020
#define TCP_ECE 0x040
#define TCP_CWR 0x080
#define TCP_NS  0x100
#define TCP_FLAGS_MASK 0x0fff
#define TCP_HEADER_LEN 20
#define TCP_OFFSET(CTL) ((CTL) >> 12)     /* Host-order tcp_ctl. */
struct tcp_header {
    ovs_be16 tcp_src;
    ovs_be16 tcp_dst;
    ovs_be32 tcp_seq;
    ovs_be32 tcp_ack;
    ovs_be16 tcp_ctl;               /* Data offset 4, flags 12. */
    ovs_be16 tcp_winsz;
    ovs_be16 tcp_csum;
    ovs_be16 tcp_urg;
} __attribute__((packed));
_Static_assert(sizeof(struct tcp_header) == TCP_HEADER_LEN, "tcp_header");

#define UDP_HEADER_LEN 8
struct udp_header {
    ovs_be16 udp_src;
    ovs_be16 udp_dst;
    ovs_be16 udp_len;
    ovs_be16 udp_csum;
} __attribute__((packed));

#define SCTP_HEADER_LEN 12
struct sctp_header {
    ovs_be16 sctp_src;
    ovs_be16 sctp_dst;
    ovs_be32 sctp_vtag;
    ovs_be32 sctp_csum;             /* CRC32c, little-endian on the wire. */
} __attribute__((packed));

/* ICMP and ICMPv6 share the first four bytes; the rest of the 8-byte
 * header is type-specific. */
#define ICMP_HEADER_LEN 8
#define ICMP4_ECHO_REQUEST 8
#define ICMP4_ECHO_REPLY 0
struct icmp_header {
    uint8_t icmp_type;
    uint8_t icmp_code;
    ovs_be16 icmp_csum;
    ovs_be32 icmp_rest;
} __attribute__((packed));

#define IGMP_HEADER_LEN 8
struct igmp_header {
    uint8_t igmp_type;
    uint8_t igmp_code;
    ovs_be16 igmp_csum;
    ovs_be32 group;
} __attribute__((packed));

/* Neighbour discovery (RFC 4861): the NS/NA body after the ICMPv6 header's
 * first four bytes, and its link-layer address options. */
#define ND_NEIGHBOR_SOLICIT 135
#define ND_NEIGHBOR_ADVERT 136
#define ND_OPT_SOURCE_LINKADDR 1
#define ND_OPT_TARGET_LINKADDR 2
#define ND_MSG_LEN 24                   /* ICMPv6 4 + reserved 4 + target. */
struct nd_msg {
    uint8_t icmp_type;
    uint8_t icmp_code;
    ovs_be16 icmp_csum;
    ovs_be32 rso_flags;             /* NA: R, S, O flags.  NS: reserved. */
    struct in6_addr target;
} __attribute__((packed));
_Static_assert(sizeof(struct nd_msg) == ND_MSG_LEN, "nd_msg");
struct nd_lla_opt {
    uint8_t type;
    uint8_t len;                    /* In units of 8 bytes. */
    struct eth_addr mac;
} __attribute__((packed));

/* IPv4 and IPv6 address helpers. */
#define IP_FMT "%"PRIu32".%"PRIu32".%"PRIu32".%"PRIu32
#define IP_ARGS(BE32)                                   \
    (ntohl(BE32) >> 24), ((ntohl(BE32) >> 16) & 0xff),  \
    ((ntohl(BE32) >> 8) & 0xff), (ntohl(BE32) & 0xff)

/* 64-bit byte order, which <arpa/inet.h> lacks. */
static inline ovs_be64 htonll(uint64_t x) { return htobe64(x); }
static inline uint64_t ntohll(ovs_be64 x) { return be64toh(x); }

bool ipv6_addr_is_zero(const struct in6_addr *);
bool ipv6_addr_is_exact(const struct in6_addr *);  /* All ones. */

#endif /* packets.h */
