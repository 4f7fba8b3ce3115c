/* xlate-commit: the datapath actions that make a packet what translation
 * says it is.
 *
 * Translation changes its copy of the flow as actions run.  Before the
 * packet goes anywhere (an output, the controller), xlate_commit()
 * appends to ODP the actions that turn the packet as the datapath has it
 * (BASE) into the one translation has (FLOW), and then BASE is FLOW.  As
 * in 3.1, in this order: the packet type (pop_eth from an Ethernet frame
 * to an L3 packet, push_eth back); then for a frame, Ethernet addresses; the MPLS stack, if the
 * packet stops being MPLS (xlate-mpls.h); the L3 fields (IPv4, IPv6,
 * ARP), only when FLOW's nw_proto is nonzero (a packet whose protocol
 * reads 0 may have no L3 header the datapath could rewrite); TCP, UDP or
 * SCTP ports; ICMP type and code, or a neighbour discovery message's
 * target and addresses; the MPLS stack otherwise; for a frame, the VLAN
 * tags (pop, push, as xlate-mpls.h does labels); skb_mark.  L3 and L4 changes are
 * committed only while FLOW and BASE have the same Ethernet type and the
 * L3 fields are the packet's (not L3_CLEARED by an MPLS push).
 *
 * Each set is masked and covers only the fields that changed, each under
 * its megaflow mask in WC (which the actions that wrote it set: a field
 * loaded in part is rewritten in part), except ICMP's, which rewrites
 * type and code whole and so makes both exact in WC.
 *
 * Returns the slow path reason the actions need: SLOW_ACTION for ARP,
 * ICMP and ND changes, which 3.1's datapaths cannot make (so its flows
 * send every packet to userspace, where this datapath's executor makes
 * them), else 0.
 *
 * Threads: pure. */
#ifndef OFPROTO_XLATE_COMMIT_H
#define OFPROTO_XLATE_COMMIT_H 1

#include "flow.h"
#include "odp-util.h"

struct ofpbuf;

enum slow_path_reason xlate_commit(const struct flow *flow, struct flow *base,
                                   bool l3_cleared,
                                   struct flow_wildcards *wc,
                                   struct ofpbuf *odp);

#endif /* ofproto/xlate-commit.h */
