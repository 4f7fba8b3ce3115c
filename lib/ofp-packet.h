/* ofp-packet: packet_in and packet_out messages, decoded.
 *
 * struct ofputil_packet_in is a packet the switch sends to a controller,
 * in one form for every wire layout: OpenFlow 1.0's OFPT_PACKET_IN
 * (in_port only), Nicira's NXT_PACKET_IN (NXM metadata match, table id,
 * cookie), Nicira's NXT_PACKET_IN2 (properties: packet, full_len,
 * buffer_id, table_id, cookie, reason, metadata, userdata), 1.2's
 * OFPT_PACKET_IN (OXM metadata match) and 1.3+'s (adds the cookie).  Which
 * one a connection gets is its protocol plus its packet-in format
 * (NXT_SET_PACKET_IN_FORMAT, enum ofputil_packet_in_format in
 * ofp-protocol.h): "standard" is the version's own layout.
 *
 * Lengths: PACKET_LEN bytes of packet are carried; TOTAL_LEN is the
 * frame's full length (it is larger when the switch truncated the packet
 * to the controller's max_len).  The encoder writes what it is given; the
 * caller truncates.  3.1 never buffers (BUFFER_ID is OFP_NO_BUFFER), but
 * the field is carried as given.
 *
 * The metadata match (FLOW_METADATA) holds the pipeline fields of the
 * packet: in_port always, and tun_id, metadata and registers when nonzero
 * (as 3.1 reports them).  In 1.0 only in_port is carried.
 *
 * struct ofputil_packet_out is a packet the controller sends with actions:
 * 1.0's (16-bit in_port), 1.1-1.4's (32-bit in_port) and 1.5's (an OXM
 * match with in_port and packet metadata).
 *
 * Memory: decoded packets and userdata point into the message; decoded
 * actions go into the caller's OFPACTS buffer.  Encoders return a new
 * message the caller owns.
 *
 * Text: printers write what "ovs-ofctl ofp-print" prints after the header
 * line, including the packet summary 3.1 adds (the packet's flow in
 * ovs-ofctl syntax, "icmp,vlan_tci=0x0000,dl_src=...") and, for packet_out,
 * parse_ofp_packet_out_str() reads "ovs-ofctl packet-out"'s text
 * ("in_port=1 packet=<hex> actions=..." or "in_port=1,packet=..,actions=").
 *
 * The *_print() functions decode a whole message and append what 3.1's
 * ofp-print writes after the header line ("OFPT_... (xid=0x1):"), without
 * the final newline, or return the decoding error and append nothing
 * useful; they are the per-type printers for lib/ofp-print.
 *
 * Threads: pure functions. */
#ifndef OFP_PACKET_H
#define OFP_PACKET_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "match.h"
#include "ofp-errors.h"
#include "ofp-protocol.h"
#include "openflow.h"
#include "util.h"

struct ds;
struct flow;
struct ofpact;
struct ofpbuf;
struct ofputil_port_map;
struct ofputil_table_map;

struct ofputil_packet_in {
    const void *packet;         /* The (possibly truncated) frame. */
    size_t packet_len;          /* Bytes at PACKET. */
    size_t total_len;           /* The frame's full length. */
    uint32_t buffer_id;         /* OFP_NO_BUFFER: none. */
    struct match flow_metadata; /* in_port, tun_id, metadata, registers. */
    uint8_t reason;             /* OFPR_*. */
    uint8_t table_id;
    ovs_be64 cookie;            /* OVS_BE64_MAX if unknown. */
    const void *userdata;       /* controller(userdata=...), NXT_PACKET_IN2. */
    size_t userdata_len;
};

/* Fills MD with what a packet_in reports of FLOW's pipeline fields, as
 * 3.1 does: in_port always; tun_id, metadata, registers and pkt_mark when
 * nonzero. */
void ofputil_packet_in_metadata_from_flow(struct match *md,
                                          const struct flow *);

/* Decodes OH, any raw form of packet_in.  LOOSE skips unknown metadata
 * fields and unknown NXT_PACKET_IN2 properties that are not marked
 * required; strict decoding rejects them (OFPBPC_BAD_TYPE for a
 * property). */
enum ofperr ofputil_decode_packet_in(const struct ofp_header *oh, bool loose,
                                     struct ofputil_packet_in *);
/* Encodes PIN for a connection speaking PROTOCOL with packet-in FORMAT. */
struct ofpbuf *ofputil_encode_packet_in(const struct ofputil_packet_in *,
                                        enum ofputil_protocol,
                                        enum ofputil_packet_in_format);
/* The packet_in body as ofp-print prints it (" total_len=60 in_port=1
 * (via no_match) data_len=60 buffer=0x...\n" and the packet summary). */
void ofputil_packet_in_format(struct ds *, const struct ofputil_packet_in *,
                              const struct ofputil_port_map *,
                              const struct ofputil_table_map *,
                              int verbosity);
enum ofperr ofputil_packet_in_print(struct ds *, const struct ofp_header *,
                                    const struct ofputil_port_map *,
                                    const struct ofputil_table_map *,
                                    int verbosity);

struct ofputil_packet_out {
    const void *packet;         /* NULL with PACKET_LEN 0 if buffered. */
    size_t packet_len;
    uint32_t buffer_id;         /* OFP_NO_BUFFER: the packet is inline. */
    struct match flow_metadata; /* in_port (and 1.5's metadata fields). */
    const struct ofpact *ofpacts;
    size_t ofpacts_len;
};

/* Decodes OH, a packet_out of any version; its actions are appended to
 * OFPACTS.  Errors as 3.1: OFPBRC_BAD_PORT for an in_port no packet can
 * come from, OFPBRC_BAD_LEN for an actions length past the message. */
enum ofperr ofputil_decode_packet_out(struct ofputil_packet_out *,
                                      const struct ofp_header *oh,
                                      struct ofpbuf *ofpacts);
struct ofpbuf *ofputil_encode_packet_out(const struct ofputil_packet_out *,
                                         enum ofputil_protocol);
/* What PO's packet starts with: the packet_type its metadata names, else
 * PT_ETH (an Ethernet frame). */
ovs_be32 ofputil_packet_out_type(const struct ofputil_packet_out *po);
/* " in_port=1 actions=output:2 data_len=60\n" and the packet summary. */
void ofputil_packet_out_format(struct ds *, const struct ofputil_packet_out *,
                               const struct ofputil_port_map *,
                               const struct ofputil_table_map *,
                               int verbosity);
enum ofperr ofputil_packet_out_print(struct ds *, const struct ofp_header *,
                                     const struct ofputil_port_map *,
                                     const struct ofputil_table_map *,
                                     int verbosity);

/* Parses "ovs-ofctl packet-out" text, "in_port=1,packet=HEX,actions=..."
 * (the packet's bytes are malloc'd into PO->packet, which the caller
 * frees; the actions are appended to OFPACTS).  *USABLE_PROTOCOLS gets
 * what can carry it.  Returns a malloc'd error as 3.1 words it. */
char *parse_ofp_packet_out_str(struct ofputil_packet_out *, const char *,
                               const struct ofputil_port_map *,
                               struct ofpbuf *ofpacts,
                               enum ofputil_protocol *usable_protocols)
    OVS_WARN_UNUSED_RESULT;

/* The one-line summary 3.1 prints for a packet: its flow in ovs-ofctl's
 * syntax followed by a checksum note when relevant, e.g.
 * "icmp,vlan_tci=0x0000,dl_src=50:54:00:00:00:05,...,icmp_code=0".
 * PACKET_TYPE says what the packet starts with: PT_ETH for an Ethernet
 * frame, PT_IPV4 for a bare IPv4 packet ("packet_type=(1,0x800),nw_src=
 * ..."), and so on. */
void ofp_print_packet_summary(struct ds *, const void *packet, size_t len,
                              ovs_be32 packet_type);

#endif /* ofp-packet.h */
