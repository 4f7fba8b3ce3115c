/* ofport-patch: pairing the two ends of patch ports.
 *
 * A patch port (a port whose netdev is of type "patch", lib/netdev-patch.h)
 * has no datapath port: it names its other end by interface name
 * (options:peer).  Two patch ports are paired, each port's 'peer' pointing
 * at the other, when both exist on bridges of the same datapath and each
 * names the other, as 3.1 pairs them.  Translation sends what is output to
 * a paired port through the peer's bridge (xlate.c, "Patch ports"); output
 * to an unpaired one goes nowhere.
 *
 * Finding the peer costs one hash lookup in a map of patch ports by name,
 * done only when a patch port is added, removed or its peer option
 * changes: nothing here runs while the configuration is idle.
 *
 * Threads: main thread only.  ofport_patch_*() take xlate_rwlock for
 * writing around changes of 'peer', which translators read under the read
 * lock (ofproto-private.h).  Memory: the map holds no references; a port
 * leaves it in ofport_patch_removed() before it is freed. */
#ifndef OFPROTO_OFPORT_PATCH_H
#define OFPROTO_OFPORT_PATCH_H 1

#include <stdbool.h>
#include <stdint.h>

struct ofport;

/* PORT, just added to its bridge, is a patch port if its netdev is one:
 * records it and pairs it with its peer if that is there. */
void ofport_patch_added(struct ofport *);
/* PORT is going: unpairs it (its peer's link to it goes). */
void ofport_patch_removed(struct ofport *);
/* PORT's netdev changed: if its peer option names another port now, pairs
 * it anew. */
void ofport_patch_changed(struct ofport *);

/* Why PORT, a patch port, forwards nothing (3.1's words, for the
 * Interface's error column), malloc'd; NULL if it is paired or not a patch
 * port. */
char *ofport_patch_error(const struct ofport *);

/* N_PACKETS of N_BYTES went out of patch port FROM into its peer TO: they
 * count on both devices (any thread, xlate_rwlock held for reading). */
void ofport_patch_count(const struct ofport *from, const struct ofport *to,
                        uint64_t n_packets, uint64_t n_bytes);

#endif /* ofproto/ofport-patch.h */
