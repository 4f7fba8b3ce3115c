/* mpls: MPLS label stack entries, and the label stack of a flow.
 *
 * A label stack entry (LSE) is 32 bits in network order: label (20 bits),
 * traffic class (3), bottom of stack (1), TTL (8); flow.h has the masks.
 * A flow keeps the outermost FLOW_MAX_MPLS_LABELS entries of a packet's
 * stack in mpls_lse[], outermost first, and the MPLS Ethertype (unicast
 * or multicast) in dl_type; the headers under the stack are not parsed,
 * so an MPLS flow's L3 and L4 fields are zero.
 *
 * The flow operations below are what translation does to a flow when it
 * pushes or pops an entry: they keep the rest of the stack in place and
 * un-wildcard, in WC (if nonnull), every bit of the flow their outcome
 * depends on, so that a megaflow never covers packets they would treat
 * differently.  The facts follow Open vSwitch 3.1, so that megaflows and
 * datapath actions come out the same: a push onto an IP packet starts a
 * stack with label 0 (2 for IPv6: the explicit null labels), the low
 * three bits of the DSCP as traffic class and the IP TTL (64 if zero),
 * and pushing onto a stack copies its top entry without the bottom bit.
 *
 * Threads: pure functions over the caller's values. */
#ifndef MPLS_H
#define MPLS_H 1

#include <stdbool.h>
#include <stdint.h>
#include "flow.h"
#include "packets.h"

#define MPLS_HLEN 4                     /* Bytes of one LSE on the wire. */

static inline bool
eth_type_mpls(ovs_be16 eth_type)
{
    return (eth_type == htons(ETH_TYPE_MPLS)
            || eth_type == htons(ETH_TYPE_MPLS_MCAST));
}

static inline uint32_t
mpls_lse_label(ovs_be32 lse)
{
    return (ntohl(lse) & MPLS_LABEL_MASK) >> MPLS_LABEL_SHIFT;
}

static inline uint8_t
mpls_lse_tc(ovs_be32 lse)
{
    return (ntohl(lse) & MPLS_TC_MASK) >> MPLS_TC_SHIFT;
}

static inline bool
mpls_lse_bos(ovs_be32 lse)
{
    return (lse & htonl(MPLS_BOS_MASK)) != 0;
}

static inline uint8_t
mpls_lse_ttl(ovs_be32 lse)
{
    return ntohl(lse) & MPLS_TTL_MASK;
}

/* The entry with these fields (each cut to its width). */
static inline ovs_be32
mpls_lse_build(uint32_t label, uint8_t tc, bool bos, uint8_t ttl)
{
    return htonl(((label << MPLS_LABEL_SHIFT) & MPLS_LABEL_MASK)
                 | (((uint32_t) tc << MPLS_TC_SHIFT) & MPLS_TC_MASK)
                 | (bos ? MPLS_BOS_MASK : 0)
                 | ttl);
}

/* *LSE with the bits of FIELD_MASK (one of flow.h's MPLS_*_MASK) replaced
 * by VALUE shifted into place. */
static inline void
mpls_lse_set_field(ovs_be32 *lse, uint32_t field_mask, uint32_t value)
{
    unsigned int shift = __builtin_ctz(field_mask);
    *lse = htonl((ntohl(*lse) & ~field_mask)
                 | ((value << shift) & field_mask));
}

/* How many entries of FLOW's stack the flow holds: up to and including
 * the first with the bottom bit, at most FLOW_MAX_MPLS_LABELS; 0 for a
 * flow that is not MPLS.  Un-wildcards dl_type and the bottom bits it
 * reads. */
int flow_mpls_depth(const struct flow *, struct flow_wildcards *);

/* Pushes an entry and makes FLOW's type MPLS_ETH_TYPE (0x8847 or 0x8848).
 * With CLEAR_UPPER, a push onto a packet that was not MPLS forgets its L3
 * and L4 fields (they are no longer where a parser would look), as
 * translation wants; the flow a commit keeps of the packet passes false,
 * since the headers are still there under the stack.  False, with FLOW
 * unchanged, if the stack would hold more entries than a flow keeps. */
bool flow_mpls_push(struct flow *, ovs_be16 mpls_eth_type,
                    struct flow_wildcards *, bool clear_upper);

/* Pops the top entry; FLOW's type becomes ETH_TYPE (the type of what is
 * under it).  A flow without a stack is left alone (true).  False, with
 * FLOW unchanged, when the flow holds a full stack without its bottom:
 * what would come up from below is unknown. */
bool flow_mpls_pop(struct flow *, ovs_be16 eth_type,
                   struct flow_wildcards *);

#endif /* mpls.h */
