/* bond-rules: the internal rules that carry out a balance-tcp bond's
 * bucket map after recirculation.
 *
 * A balance-tcp bond that may recirculate (bond.h) translates output to
 * itself as hash(l4(BASIS)),recirc(ID): the datapath hashes the 5-tuple
 * into the packet's dp_hash and looks the packet up again.  That lookup
 * comes back to the bridge's internal table (OFPROTO_INTERNAL_TABLE),
 * where one hidden rule per bucket, as in 3.1,
 *
 *     priority=20,recirc_id=ID,dp_hash=BUCKET/0xff actions=output:PORT
 *
 * sends the packet to the bucket's member.  This module holds the
 * recirculation id (its own, made by xlate_alloc_internal_recirc_id())
 * and the rules, changes a rule's output in place when its bucket moves
 * (so the counters stay), and reads the counters back as the buckets'
 * loads for rebalancing.
 *
 * With lb_output (the bond's use_lb_output), there are no rules: the
 * bucket map goes to the datapath under the same id (dpif_bond_add(),
 * with datapath ports), translation emits lb_output(ID), and the loads
 * are the datapath's per-bucket counters.
 *
 * Threads and memory: main thread only.  The owner (the bundle, in
 * ofproto.c) creates and destroys it; the rules belong to the ofproto
 * (ofproto-private.h, internal rules) and are deleted by
 * bond_rules_destroy(), which also releases the recirculation id. */
#ifndef OFPROTO_BOND_RULES_H
#define OFPROTO_BOND_RULES_H 1

#include <stdbool.h>
#include <stdint.h>
#include "bond.h"

struct bond_rules;
struct ofproto;

/* Rules of the bond named BOND_NAME in OFPROTO, none yet. */
struct bond_rules *bond_rules_create(struct ofproto *, const char *bond_name);
void bond_rules_destroy(struct bond_rules *);

uint32_t bond_rules_recirc_id(const struct bond_rules *);

/* Makes bucket I's rule output to PORTS[I] (an OpenFlow port; OFPP_NONE:
 * no rule), for every bucket, if the map's number SEQ (bond_get_buckets())
 * differs from the one last applied; or, with LB_OUTPUT, hands the
 * datapath ODP_PORTS (datapath ports, UINT32_MAX: none) instead.  Returns
 * true if forwarding changed (the caller revalidates). */
bool bond_rules_update(struct bond_rules *, uint64_t seq,
                       const uint32_t ports[BOND_N_BUCKETS],
                       const uint32_t odp_ports[BOND_N_BUCKETS],
                       bool lb_output);

/* Bytes each bucket's rule counted since the last call, into DELTA. */
void bond_rules_take_deltas(struct bond_rules *,
                            uint64_t delta[BOND_N_BUCKETS]);

#endif /* ofproto/bond-rules.h */
