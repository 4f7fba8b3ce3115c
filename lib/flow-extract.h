/* flow-extract: from packet bytes to a flow key, and back.
 *
 * flow_extract() reads an Ethernet frame in a struct dp_packet and fills
 * a struct flow with what it finds, layer by layer: Ethernet (or 802.3
 * with LLC/SNAP), up to two VLAN headers (802.1ad and 802.1Q), then ARP,
 * IPv4 or IPv6 (through its hop-by-hop, routing, destination options,
 * AH and fragment headers), then TCP, UDP, SCTP, ICMP, IGMP or ICMPv6 with
 * neighbour discovery.  It also records in the packet where each layer
 * starts (dp-packet.h's offsets) and the packet metadata's fields go into
 * the flow's metadata stage.  A packet whose metadata names another
 * packet_type than Ethernet has no L2: an Ethertype type (PT_IPV4, say)
 * gives dl_type and the parse starts at L3; any other stops there.
 *
 * Bad input.  The parser never reads a byte past the frame.  A layer
 * that is truncated or malformed (an IPv4 header length below 20 or past
 * the frame, a total length or IPv6 payload length longer than the frame,
 * a TCP data offset below 5 or past the segment, a truncated extension
 * header) is left out of the flow, and so is everything after it; the
 * layers before it stay.  Each such event is counted (coverage counters
 * flow_extract_*) and reported in the return value, so a caller can count
 * per port.  Lengths in headers that claim less than the frame holds
 * (Ethernet padding) limit what the upper layers see.
 *
 * What ends up in the flow follows Open vSwitch, so that datapath flows
 * mean the same in both: the ARP opcode is in nw_proto (when it fits in 8
 * bits) and the protocol addresses in nw_src/nw_dst; ICMP, ICMPv6 and IGMP
 * keep type and code in tp_src/tp_dst (IGMP's group in igmp_group_ip4); a
 * fragment sets FLOW_NW_FRAG_ANY, one that is not first also
 * FLOW_NW_FRAG_LATER, and a later fragment has no L4 fields; the ND
 * target and link-layer options fill nd_target/arp_sha/arp_tha only for a
 * neighbour solicitation or advertisement with code 0 (a malformed option
 * leaves the three zero); an 802.3 frame without SNAP has dl_type
 * FLOW_DL_TYPE_NONE.
 *
 * flow_compose() is the reverse, for tests and `netdev-dummy/receive PORT
 * FLOW`: it writes the headers a flow describes, with consistent lengths
 * and correct checksums, followed by a payload (none for an 802.3 frame
 * without SNAP: its header alone, as 3.1 composes it).
 *
 * Threads: pure functions over the caller's packet and flow, except the
 * coverage counters (atomic). */
#ifndef FLOW_EXTRACT_H
#define FLOW_EXTRACT_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dp_packet;
struct flow;

/* What flow_extract() found wrong: a set of bits (0 = a clean parse). */
enum flow_extract_problem {
    FLOW_EXTRACT_SHORT_L2 = 1 << 0,   /* Truncated Ethernet/VLAN/LLC. */
    FLOW_EXTRACT_BAD_L3 = 1 << 1,     /* Bad ARP, IPv4 or IPv6 header. */
    FLOW_EXTRACT_BAD_IPV6_EXT = 1 << 2, /* Truncated extension header. */
    FLOW_EXTRACT_BAD_L4 = 1 << 3,     /* Truncated or bad L4 header. */
    FLOW_EXTRACT_BAD_ND = 1 << 4,     /* Malformed ND message or option. */
};

/* Fills FLOW from PACKET's bytes and metadata and sets PACKET's layer
 * offsets.  Returns the problems seen (enum flow_extract_problem bits). */
unsigned int flow_extract(struct dp_packet *packet, struct flow *flow);

/* Sets MD's connection tracking fields from FLOW's (the reverse of what
 * flow_extract() copies), for a packet that continues where FLOW left
 * off: an upcall's packet executed again, a packet composed from a flow. */
struct pkt_metadata;
void flow_ct_to_metadata(const struct flow *, struct pkt_metadata *md);

/* The flow hash the datapath hands up with a packet: addresses, protocol
 * and ports for IP (symmetric in neither direction: a 5-tuple hash),
 * MAC addresses and type otherwise. */
uint32_t flow_hash_5tuple(const struct flow *, uint32_t basis);
/* PACKET's flow hash, computed from FLOW and cached in the packet the
 * first time. */
uint32_t dp_packet_flow_hash(struct dp_packet *packet,
                             const struct flow *flow);

/* Replaces PACKET's contents by a frame for FLOW with L7_LEN bytes of
 * payload (bytes 0, 1, 2, ...).  Metadata and layer offsets are set as
 * flow_extract() would set them, so flow_extract() of the result gives
 * FLOW back for any flow that a packet can carry. */
void flow_compose(struct dp_packet *packet, const struct flow *flow,
                  size_t l7_len);
/* The L7_LEN Open vSwitch gives a packet it makes from FLOW: 64 bytes
 * for UDP, TCP without SYN, FIN or RST, and ICMP echoes; else 0. */
size_t flow_compose_default_l7_len(const struct flow *flow);
/* The same, for a frame of exactly TOTAL_LEN bytes whose payload is zeros
 * (lengths and checksums cover it; a frame without a length field, ARP
 * say, gets a zero trailer).  False, with PACKET holding just the headers,
 * if they alone are longer than TOTAL_LEN. */
bool flow_compose_sized(struct dp_packet *packet, const struct flow *flow,
                        size_t total_len);

#endif /* flow-extract.h */
