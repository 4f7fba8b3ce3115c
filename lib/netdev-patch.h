/* netdev-patch: the "patch" network device type, one end of a patch port
 * pair that joins two bridges without any datapath port.
 *
 * A patch device moves no packets itself: it only carries its
 * configuration (options:peer=NAME, the name of the other end) and the
 * counters of what crossed it.  ofproto/ofport-patch.h pairs the two ends
 * and translation carries packets across (ofproto/xlate-patch.h).
 *
 * Threads: netdev_patch_peer(), netdev_is_patch() and
 * netdev_patch_status_changed() in the main thread
 * (the peer name changes under netdev_set_config(), main thread);
 * netdev_patch_count_crossing() from any thread (relaxed atomic counters).
 * Memory: netdev_patch_peer()'s string belongs to the device and lives
 * until its next configuration change or its close. */
#ifndef NETDEV_PATCH_H
#define NETDEV_PATCH_H 1

#include <stdbool.h>
#include <stdint.h>

struct netdev;

/* Whether NETDEV is of type "patch". */
bool netdev_is_patch(const struct netdev *);

/* The configured peer's name, or NULL (not a patch device, or not yet
 * configured). */
const char *netdev_patch_peer(const struct netdev *);

/* The pairing of NETDEV's port changed (ofproto/ofport-patch.h): the
 * device reports a change, so that its owner rewrites its status (main
 * thread). */
void netdev_patch_status_changed(struct netdev *);

/* N_PACKETS packets of N_BYTES bytes left through TX_DEV and arrived
 * through its peer RX_DEV: counts them as sent by one and received by the
 * other, as 3.1's patch ports count. */
void netdev_patch_count_crossing(struct netdev *tx_dev, struct netdev *rx_dev,
                                 uint64_t n_packets, uint64_t n_bytes);

#endif /* netdev-patch.h */
