/* netdev-vport: tunnel interfaces (types "gre", "ip6gre", "erspan",
 * "ip6erspan", "vxlan", "geneve", "lisp", "stt", "gtpu").
 *
 * A tunnel interface is a netdev that moves no packets itself: its
 * options (tunnel-options.h) say which outer headers its packets have,
 * and ofproto's tunnel map (ofproto/tunnel.h) uses them to tell tunnels
 * apart on receive and to give packets their outer header on send.  The
 * datapath carries all tunnels of one type and UDP port through a single
 * shared port (tunnel_dpif_port_name()), which is a netdev of this kind
 * too, opened by ofproto under that reserved name.
 *
 * Threads: netdev_get_tunnel_config() may be called from any thread that
 * is an RCU reader (ovs-rcu.h): the configuration is a snapshot published
 * whole by netdev_set_config() on the main thread and freed only after a
 * grace period, so a reader may use the pointer until it next quiesces.
 * Everything else is main-thread only, as for every netdev.
 *
 * Memory: the snapshot belongs to the netdev; copy it to keep it. */
#ifndef NETDEV_VPORT_H
#define NETDEV_VPORT_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "tunnel-config.h"

struct netdev;

/* Registers the tunnel types with netdev.c (called by netdev.c itself). */
void netdev_vport_register(void);

/* NETDEV's tunnel configuration, or NULL if NETDEV is no tunnel.  A tunnel
 * whose options were never applied, or were refused the first time, has
 * the type's defaults (no remote: it matches no packet). */
const struct tunnel_config *netdev_get_tunnel_config(const struct netdev *);

/* The name of the shared datapath port NETDEV's packets use under its
 * current configuration ("vxlan_sys_4789"), in BUF, or NULL if NETDEV is
 * no tunnel.  Main thread. */
/* Counts N_PACKETS of N_BYTES received (RX) or sent through tunnel
 * NETDEV: the tunnels of a type share one datapath port, so translation,
 * which tells them apart, counts for each (any thread). */
void netdev_vport_count(struct netdev *, bool rx, uint64_t n_packets,
                        uint64_t n_bytes);
const char *netdev_vport_get_dpif_port(const struct netdev *, char *buf,
                                       size_t size);

#endif /* netdev-vport.h */
