/* odp-execute: applying a datapath action list to a batch of packets.
 *
 * The actions are Netlink attributes as odp-util.h describes them.  This
 * module does everything that only changes packets: set and masked set of
 * Ethernet, VLAN, MPLS (the top entry), IPv4, IPv6 and TCP/UDP/SCTP fields
 * and of the skb priority and mark (IPv4 header, TCP, UDP and ICMPv6
 * checksums are fixed incrementally, SCTP's CRC32c recomputed), push_vlan
 * and pop_vlan, push_mpls and pop_mpls,
 * hash (sets each packet's dp_hash, odp_execute_hash()),
 * sample (each packet with the action's probability, on a copy), clone
 * (the nested actions on copies, the originals untouched), trunc (the
 * next output, userspace action or tunnel push gets the packets cut to
 * its length, copies unless they may be stolen).  The actions
 * only a datapath can do (output, userspace, recirc, meter, ct) go to the
 * caller's callback, one call per action for the whole batch; for a meter
 * the callback takes the packets the meter drops out of the batch (never
 * freeing them: this module frees the ones it owns).
 *
 * ct() is the one action that may make packets: IP fragment reassembly
 * (ipf.h) holds fragments and later lets out the fragments of a whole
 * datagram, packets the batch never had.  So for OVS_ACTION_ATTR_CT the
 * callback also gets REST, the actions after the ct action, and:
 *   - it may take packets out of the batch.  With SHOULD_STEAL (which is
 *     then STEAL itself, not only for the last action) those are the
 *     callback's from then on (held, freed); without, they stay the
 *     caller's, untouched, and simply skip the rest of the list;
 *   - it must not add packets to the batch: a packet it makes (always a
 *     heap packet) it runs through the rest itself with
 *     odp_execute_rest(), which steals them (frees them at the end);
 *   - the packets left in the batch go on through the rest here.
 *
 * Packets must have been through flow_extract() (their layer offsets say
 * where the headers are); a set of a layer the packet does not have does
 * nothing to that packet.  The action list must have passed
 * odp_actions_validate(); an attribute that is still malformed is skipped,
 * never read past.
 *
 * Ownership.  With STEAL, the batch's packets belong to the executor: a
 * callback told SHOULD_STEAL takes them over (it must send, queue or
 * delete every one), and whatever no callback took is deleted at the end
 * (an empty list drops).  Without STEAL, the caller keeps the packets and
 * a callback must copy any packet it wants to keep (SHOULD_STEAL is then
 * always false).  Copies made for sample and clone are always stolen by
 * their nested actions.  The batch itself (the array) stays the caller's.
 *
 * Threads: any thread; the only shared state is none (the sampling random
 * number generator is per thread). */
#ifndef ODP_EXECUTE_H
#define ODP_EXECUTE_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "types.h"

struct dp_packet;
struct dp_packet_batch;
struct nlattr;

/* The actions after a ct action, for its callback (see above). */
struct odp_execute_rest;

/* Called for an OVS_ACTION_ATTR_OUTPUT, _USERSPACE, _RECIRC, _METER or _CT
 * action (and any other type this module does not know).  REST is NULL
 * except for _CT. */
typedef void odp_execute_cb(void *aux, struct dp_packet_batch *batch,
                            const struct nlattr *action, bool should_steal,
                            const struct odp_execute_rest *rest);

void odp_execute_actions(void *aux, struct dp_packet_batch *batch,
                         bool steal, const struct nlattr *actions,
                         size_t actions_len, odp_execute_cb *dp_execute);

/* Runs BATCH, heap packets the ct callback made, through REST (the actions
 * after the ct action, with the same AUX and callback), stealing them: they
 * are all sent or freed when this returns, and BATCH is left empty. */
void odp_execute_rest(const struct odp_execute_rest *rest,
                      struct dp_packet_batch *batch);

/* The dp_hash the hash action gives packet P (parsed again here) with
 * ALG (OVS_HASH_ALG_L4 or ODP_HASH_ALG_SYM_L4) and BASIS.  L4: as 3.1,
 * the packet's flow hash (flow_hash_5tuple() with basis 0, cached in the
 * packet, dp_packet_flow_hash()) hashed with BASIS by hash_int().
 * SYM_L4: addresses, protocol and ports, the same in both directions. */
uint32_t odp_execute_hash(struct dp_packet *p, uint32_t alg, uint32_t basis);

/* The pieces, for a datapath that applies one action outside a list. */
void odp_execute_set(struct dp_packet *, const struct nlattr *key,
                     bool masked);
void odp_execute_push_vlan(struct dp_packet *, ovs_be16 tpid, ovs_be16 tci);
void odp_execute_pop_vlan(struct dp_packet *);
/* pop_eth and push_eth (odp-util.h): between an Ethernet frame and an L3
 * packet of its Ethertype; a packet of the wrong kind is left alone. */
void odp_execute_push_eth(struct dp_packet *, const uint8_t src[6],
                          const uint8_t dst[6]);
void odp_execute_pop_eth(struct dp_packet *);
/* MPLS: a push of LSE makes the packet's type ETH_TYPE (an MPLS type); a
 * pop of an MPLS packet's top entry makes it ETH_TYPE.  The stack sits
 * after the packet's Ethertype (past its VLAN tags). */
void odp_execute_push_mpls(struct dp_packet *, ovs_be16 eth_type,
                           ovs_be32 lse);
void odp_execute_pop_mpls(struct dp_packet *, ovs_be16 eth_type);

#endif /* odp-execute.h */
