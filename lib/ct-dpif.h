/* ct-dpif: connection tracking operations on a datapath that take more
 * than one call to its tracker (dpif_conntrack(), conntrack.h).
 *
 * dpif_ct_flush() flushes connections as 3.1's dpctl/flush-conntrack and
 * NXT_CT_FLUSH (ovs-ofctl ct-flush) do, and logs each flush at debug
 * level under 3.1's module name "ct_dpif" with 3.1's words ("ct_flush:
 * <all>", "ct_flush: zone N", "ct_flush: zone=N 'ORIG' 'REPLY'"):
 *   - MATCH NULL or zero: every connection of *ZONE (all if ZONE is NULL);
 *   - an original tuple that names all five fields (ICMP: the addresses)
 *     and no reply tuple: that one connection in *ZONE (0 if ZONE is
 *     NULL); ENOENT if there is none;
 *   - any other MATCH: every connection of *ZONE (all zones if NULL)
 *     whose tuples have the fields MATCH sets.
 * EOPNOTSUPP for a datapath without a tracker.
 *
 * Threads: any (the tracker locks for itself); main thread in practice. */
#ifndef CT_DPIF_H
#define CT_DPIF_H 1

#include <stdint.h>

struct dpif;
struct ofputil_ct_match;

int dpif_ct_flush(struct dpif *, const uint16_t *zone,
                  const struct ofputil_ct_match *);

#endif /* ct-dpif.h */
