/* match: a flow key with a mask, the form every OpenFlow match takes here.
 *
 * struct match is a struct flow (the values) and a struct flow_wildcards
 * (which bits matter).  Decoders of every match encoding (OpenFlow 1.0's
 * fixed match, 1.1's standard match, NXM, OXM) fill one; encoders read
 * one; the switch turns one into a classifier rule.  Values under a zero
 * mask bit are normally zero (match_zero_wildcarded_fields()), so two
 * matches of the same packets compare equal with match_equal().
 *
 * Packet types: a field that needs an Ethernet frame (eth_src, vlan_tci,
 * and through their prerequisites all L3 and L4 fields) makes a match
 * match Ethernet packets only, by matching packet_type on Ethernet unless
 * the match already names a packet type (match_set_default_packet_type()),
 * as 3.1 does.  That "default" packet type is implied by the fields and is
 * neither printed nor encoded.  An L3 packet type (namespace 1) also fixes
 * dl_type to its Ethertype, so that IP fields can follow it.
 *
 * Text: match_format() writes Open vSwitch's flow syntax
 * ("priority=10,tcp,in_port=1,nw_src=10.0.0.0/8,tp_dst=80") with the
 * fields in Open vSwitch's order and its shorthand names (ip, tcp, arp,
 * dl_vlan, ...).  Parsing is in ofp-parse.h, with the rest of a flow.
 *
 * Threads: values only. */
#ifndef MATCH_H
#define MATCH_H 1

#include <stdbool.h>
#include <stdint.h>
#include "flow.h"
#include "tun-metadata.h"

struct ds;
struct ofputil_port_map;

struct match {
    struct flow flow;
    struct flow_wildcards wc;
    struct tun_md_layout tun_md;    /* Where its tun_metadataN are. */
};

void match_init_catchall(struct match *);
void match_init_exact(struct match *, const struct flow *);
bool match_equal(const struct match *, const struct match *);
/* Clears every flow bit whose mask bit is zero. */
void match_zero_wildcarded_fields(struct match *);
bool match_is_catchall(const struct match *);
uint32_t match_hash(const struct match *, uint32_t basis);

/* Packet types (see above). */
void match_set_packet_type(struct match *, ovs_be32 packet_type);
void match_set_default_packet_type(struct match *);
/* Whether MATCH's packet type is the Ethernet one its fields imply (then
 * encodings and the flow syntax leave it out). */
bool match_has_default_packet_type(const struct match *);

/* A few direct setters for common fields (the general way is mf_set()). */
void match_set_in_port(struct match *, uint32_t port);
void match_set_dl_type(struct match *, ovs_be16 dl_type);
void match_set_nw_proto(struct match *, uint8_t nw_proto);
void match_set_reg(struct match *, unsigned int idx, uint32_t value);
void match_set_reg_masked(struct match *, unsigned int idx, uint32_t value,
                          uint32_t mask);
void match_set_metadata_masked(struct match *, ovs_be64 value,
                               ovs_be64 mask);
void match_set_tun_id_masked(struct match *, ovs_be64 value, ovs_be64 mask);
void match_set_vlan_tci_masked(struct match *, ovs_be16 tci, ovs_be16 mask);
/* 1.0-style "dl_vlan": VID of a present VLAN, or OFP_VLAN_NONE for "no
 * VLAN header". */
void match_set_dl_vlan(struct match *, ovs_be16 vid);
void match_set_dl_vlan_pcp(struct match *, uint8_t pcp);
/* OXM-style vlan_vid (VID | OFPVID12_PRESENT) under a mask. */
void match_set_vlan_vid_masked(struct match *, ovs_be16 vid, ovs_be16 mask);
void match_set_nw_src_masked(struct match *, ovs_be32 ip, ovs_be32 mask);
void match_set_nw_dst_masked(struct match *, ovs_be32 ip, ovs_be32 mask);
void match_set_tp_src_masked(struct match *, ovs_be16 port, ovs_be16 mask);
void match_set_tp_dst_masked(struct match *, ovs_be16 port, ovs_be16 mask);

/* Appends FLOW, a packet's fields, as 3.1 prints one (ofproto/trace's
 * "Flow:" line, ovs-ofctl parse-pcap, log messages): a match on every
 * field that applies to its protocols, and on the metadata that is not
 * zero; a tunnel packet's whole outer header.  Any thread. */
void flow_format(const struct flow *, struct ds *);

/* Appends MATCH in Open vSwitch's syntax, preceded by "priority=N," when
 * PRIORITY is not the default (0x8000).  Nothing for a catch-all match at
 * the default priority. */
void match_format(const struct match *, const struct ofputil_port_map *,
                  struct ds *, int priority);
char *match_to_string(const struct match *, const struct ofputil_port_map *,
                      int priority);

#endif /* match.h */
