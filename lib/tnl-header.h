/* tnl-header: the outer headers of native tunneling, built, pushed and
 * popped in userspace.
 *
 * A packet output to a tunnel port leaves the switch wrapped in Ethernet +
 * IPv4 or IPv6 + (UDP + VXLAN | UDP + Geneve | UDP + GTP-U | GRE
 * [+ ERSPAN]).  The
 * datapath does not compute that per packet: translation builds the whole
 * outer header once per flow (tnl_header_build(), from the tunnel's
 * struct tunnel_config, the flow's tunnel metadata, the route's source
 * address and the neighbour's MAC) into a struct tnl_push_action, which the
 * datapath action tnl_push carries; tnl_header_push() then prepends it to
 * each packet and fills in what depends on the packet: the IP total or
 * payload length and IPv4 checksum, the UDP length (and GTP-U's, before
 * the checksum that covers it), the UDP source port
 * (from the packet's flow hash, in 32768-61000 unless
 * tnl/egress_port_range says otherwise, as 3.1 spreads flows over
 * receive queues), the UDP checksum when the header asks for one (its
 * template holds 0xffff then; IPv6 always does), the GRE checksum, and the
 * GRE/ERSPAN and GTP-U (S flag) sequence numbers.
 *
 * On receive, the datapath action tnl_pop(PORT) calls tnl_header_pop()
 * with the type of tunnel PORT is: it validates the outer headers and
 * drops what is malformed (short headers, bad IP version, IPv4 options,
 * fragments, bad IPv4 checksum, IP or UDP lengths that lie, bad UDP or
 * GRE checksums, unknown GRE flags or version, VXLAN flags, Geneve
 * version, protocol or option lengths, GTP-U version, lengths or a user
 * packet that is not IP), each reason counted in a
 * coverage counter (tnl_pop_*), never reading beyond the packet; a good
 * packet loses its outer header and gets its tunnel metadata: tun_id,
 * ip src/dst (or ipv6), tos, ttl, tp_src/tp_dst, flags (KEY, CSUM, OAM),
 * and for Geneve the raw options in the packet metadata's tun_opts with
 * FLOW_TNL_F_UDPIF set (flow_extract() copies them into struct flow's
 * tun_metadata: PRESENT is then their length in bytes and OPTS the
 * options as on the wire, the "UDPIF" form that ofproto maps through its
 * TLV table, see tun_md_from_geneve_udpif()); for GTP-U the TEID as
 * tun_id, gtpu_flags and gtpu_msgtype, and a G-PDU becomes an IPv4 or
 * IPv6 packet while any other message (echo, end marker) keeps its
 * outer headers, an Ethernet frame, for whatever handles signalling.
 *
 * Threads: pure functions on the caller's data, any thread, except the
 * GRE sequence counters, atomics (one per header template, first number
 * 1).  Memory: nothing is allocated. */
#ifndef TNL_HEADER_H
#define TNL_HEADER_H 1

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "packets.h"
#include "types.h"
#include "util.h"

struct dp_packet;
struct ds;
struct flow_tnl;
struct tunnel_config;

/* Registers tnl/egress_port_range [MIN MAX] (the UDP source port range,
 * 32768-61000 by default).  Main thread, once. */
void tnl_header_init(void);

/* Tunnel types, numbered as Open vSwitch's OVS_VPORT_TYPE_* (the "type="
 * of tnl_push's text). */
enum tnl_type {
    TNL_TYPE_GRE = 3,
    TNL_TYPE_VXLAN = 4,
    TNL_TYPE_GENEVE = 5,
    TNL_TYPE_ERSPAN = 107,
    TNL_TYPE_IP6ERSPAN = 108,
    TNL_TYPE_IP6GRE = 109,
    TNL_TYPE_GTPU = 110,
};

/* The tunnel type of a netdev type name ("vxlan", "geneve", "gre",
 * "ip6gre", "erspan", "ip6erspan", "gtpu"); false for any other. */
bool tnl_type_from_netdev_type(const char *, enum tnl_type *);

/* The biggest header tnl_push carries, and the argument of the tnl_push
 * datapath action (the layout of 3.1's struct ovs_action_push_tnl). */
#define TNL_PUSH_HEADER_SIZE 512
struct tnl_push_action {
    uint32_t tnl_port;          /* The tunnel's datapath port. */
    uint32_t out_port;          /* Where the encapsulated packet goes. */
    uint32_t header_len;        /* Bytes of HEADER in use. */
    uint32_t tnl_type;          /* enum tnl_type. */
    uint32_t header[TNL_PUSH_HEADER_SIZE / 4];
};

/* Well-known ports and protocol numbers. */
#define TNL_VXLAN_PORT 4789
#define TNL_GENEVE_PORT 6081
#define TNL_GTPU_PORT 2152
#define ETH_TYPE_TEB 0x6558             /* Transparent Ethernet bridging. */
#define ETH_TYPE_ERSPAN1 0x88be
#define ETH_TYPE_ERSPAN2 0x22eb

/* Header sizes. */
#define VXLAN_HLEN 8
#define GENEVE_BASE_HLEN 8
#define GENEVE_OPTS_MAX 252             /* 63 words of options. */
#define GRE_BASE_HLEN 4
#define GRE_CSUM 0x8000
#define GRE_KEY 0x2000
#define GRE_SEQ 0x1000
#define VXLAN_FLAG_VNI 0x08000000       /* The I flag: VNI present. */

/* What translation knows when it builds the header for one flow. */
struct tnl_header_params {
    enum tnl_type type;         /* TNL_TYPE_GRE, VXLAN, GENEVE, ERSPAN or
                                 * GTPU
                                 * (the IPv6 variants follow from the
                                 * destination). */
    const struct tunnel_config *cfg;    /* The tunnel port's options:
                                         * dst_port, out_key_present,
                                         * set_seq, exts, erspan. */
    const struct flow_tnl *tnl; /* The flow's tunnel metadata after the
                                 * port's options were applied: ip_dst or
                                 * ipv6_dst, tun_id, ip_tos, ip_ttl, flags
                                 * (DONT_FRAGMENT, CSUM, OAM), erspan. */
    ovs_be32 packet_type;       /* The inner packet's (PT_ETH: Ethernet). */
    struct eth_addr dmac;       /* The next hop's MAC (neighbour cache). */
    struct eth_addr smac;       /* The output bridge's MAC. */
    struct in6_addr src;        /* The route's source address (mapped for
                                 * IPv4). */
    /* Geneve: the options to send, raw (tun_md_to_geneve() makes them from
     * the flow's tun_metadata); CRIT if any has the critical bit. */
    const uint8_t *geneve_opts;
    size_t geneve_opts_len;
};

/* Builds the header into OUT (its tnl_port and out_port are left for the
 * caller).  Returns 0, or EINVAL for what cannot be encapsulated (an
 * inner packet type the tunnel cannot carry, a destination of neither
 * family, options too long), EAFNOSUPPORT when the destination and source
 * are of different families. */
int tnl_header_build(const struct tnl_header_params *,
                     struct tnl_push_action *out);

/* Whether SIZE bytes at DATA (an action's argument: the struct up to
 * HEADER, then HEADER_LEN bytes of header) are a header tnl_header_push()
 * can push: a known type, Ethernet + IPv4 (no options) or IPv6, the
 * tunnel's protocol, and its whole L4 header.  On failure *ERROR (if
 * nonnull) gets a malloc'd reason. */
bool tnl_header_validate(const struct tnl_push_action *data, size_t size,
                         char **error);
#define TNL_PUSH_ACTION_FIXED offsetof(struct tnl_push_action, header)

/* Prepends DATA's header to PACKET and finishes it (see above). */
void tnl_header_push(struct dp_packet *packet,
                     const struct tnl_push_action *data);

/* Strips and validates the outer header of PACKET, a tunnel packet of
 * TYPE, filling PACKET's tunnel metadata and packet type.  Returns 0, or
 * EINVAL when the packet is malformed (counted; the caller drops it; the
 * packet's bytes are unchanged then). */
int tnl_header_pop(struct dp_packet *packet, enum tnl_type type);

/* Appends the text of DATA's header, "header(size=N,type=N,eth(...),
 * ipv4(...)|ipv6(...),udp(...),vxlan(...)|geneve(...)|gtpu(...)|gre(...)|
 * erspan(...))", as 3.1 prints it. */
void tnl_header_format(const struct tnl_push_action *data, struct ds *);
/* Parses that text at *S (advanced past it) into DATA.  Returns NULL or a
 * malloc'd error. */
char *tnl_header_parse(const char **s, struct tnl_push_action *data)
    OVS_WARN_UNUSED_RESULT;

/* The ARP request (Ethernet broadcast, 42 bytes) and IPv6 neighbour
 * solicitation (to the solicited-node multicast group) that translation
 * sends when the neighbour cache lacks a next hop: from SMAC/SRC for
 * target DST.  Replace PACKET's contents. */
void tnl_compose_arp_request(struct dp_packet *packet, struct eth_addr smac,
                             ovs_be32 src, ovs_be32 dst);
void tnl_compose_nd_solicit(struct dp_packet *packet, struct eth_addr smac,
                            const struct in6_addr *src,
                            const struct in6_addr *dst);

#endif /* tnl-header.h */
