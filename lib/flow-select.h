/* flow-select: picking one of several links or ports by a hash of a
 * packet's fields, for the multipath and bundle actions.
 *
 * The fields hashed are one of enum nx_hash_fields (ofp-actions.h):
 * eth_src; nw_src or nw_dst (the IPv4 or IPv6 address); symmetric_l3
 * (both addresses); symmetric_l3l4 (the addresses, the IP protocol and
 * the TCP or SCTP ports, "+udp" also UDP's); symmetric_l4 (also the
 * Ethernet addresses and type and the VLAN ID).  The symmetric ones give
 * both directions of a connection the same hash.  A packet without the
 * layer a set names hashes the basis alone.  Each function un-wildcards,
 * in WC (if nonnull), the fields it read, so a megaflow never covers
 * packets it would send elsewhere.
 *
 * Multipath maps the hash to a link 0..max_link: modulo_n (the hash modulo
 * the number of links), hash_threshold (equal ranges of the hash space),
 * hrw (the link whose hash with the flow's is highest: removing a link
 * moves only its flows) and iter_hash (rehash until the hash, masked to a
 * power of two, names a link).  Bundle picks a member port among those
 * ENABLED says are usable: active_backup the first, hrw by highest hash.
 * The hash values are this project's own (Open vSwitch 3.1 spreads flows
 * the same way, not onto the same links).
 *
 * Threads: pure functions. */
#ifndef FLOW_SELECT_H
#define FLOW_SELECT_H 1

#include <stdbool.h>
#include <stdint.h>
#include "ofp-actions.h"

struct flow;
struct flow_wildcards;

uint32_t flow_hash_nx_fields(const struct flow *, enum nx_hash_fields,
                             uint16_t basis, struct flow_wildcards *);

/* The link multipath action MP chooses for FLOW. */
uint16_t multipath_select(const struct ofpact_multipath *mp,
                          const struct flow *, struct flow_wildcards *);

/* The member port (an OpenFlow port number) bundle action B chooses for
 * FLOW, or OFPP_NONE if ENABLED(port, AUX) is false for every member. */
uint32_t bundle_select(const struct ofpact_bundle *b, const struct flow *,
                       struct flow_wildcards *,
                       bool (*enabled)(uint32_t port, void *aux), void *aux);

#endif /* flow-select.h */
