/* dp-bond: the userspace datapath's bonds for the lb_output action.
 *
 * A balance-tcp bond that uses lb_output (ofproto/bond.h) hands its
 * bucket map to the datapath: bond id (the bond's recirculation id) ->
 * for each of DP_BOND_N_BUCKETS buckets, the datapath port its packets
 * leave by.  lb_output(ID) then sends each packet by the bucket its flow
 * hash (the 5-tuple hash computed on receive, dp_packet_flow_hash())
 * names, with no recirculation, and counts the bytes per bucket, which
 * the bond reads back as its loads (dp_bond_table_stats()).
 *
 * Threads: any thread may call anything; one mutex per table guards the
 * bonds (the lookup is one short critical section per packet).  The
 * table copies what it is given. */
#ifndef DP_BOND_H
#define DP_BOND_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ds;

#define DP_BOND_N_BUCKETS 256

struct dp_bond_table;

struct dp_bond_table *dp_bond_table_create(void);
void dp_bond_table_destroy(struct dp_bond_table *);

/* Adds bond BOND_ID, or replaces its map (keeping its counters), with
 * PORTS[i] the datapath port of bucket i (UINT32_MAX: none, dropped). */
void dp_bond_table_set(struct dp_bond_table *, uint32_t bond_id,
                       const uint32_t ports[DP_BOND_N_BUCKETS]);
/* Returns 0, or ENOENT if there is no such bond. */
int dp_bond_table_del(struct dp_bond_table *, uint32_t bond_id);
/* Each bucket's bytes so far into N_BYTES; 0 or ENOENT. */
int dp_bond_table_stats(struct dp_bond_table *, uint32_t bond_id,
                        uint64_t n_bytes[DP_BOND_N_BUCKETS]);

/* The port a packet of N_BYTES with flow hash HASH leaves bond BOND_ID
 * by, counted in its bucket; false if the bond or the bucket's member is
 * missing (the packet is dropped). */
bool dp_bond_table_output(struct dp_bond_table *, uint32_t bond_id,
                          uint32_t hash, size_t n_bytes, uint32_t *port);

/* dpif-netdev/bond-show's text, 3.1's: "Bonds:", then per bond by id
 * "  bond-id ID:" and its buckets "    bucket N - member PORT"; nothing
 * without bonds. */
void dp_bond_table_format(struct dp_bond_table *, struct ds *);

#endif /* dp-bond.h */
