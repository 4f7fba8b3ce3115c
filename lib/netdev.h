/* netdev: the network devices that a bridge's interfaces are bound to.
 *
 * ovs-vswitchd opens one netdev per row of the Interface table, by the
 * row's "name" and "type".  Each type is one provider (netdev-provider.h):
 *
 *   "system"    an existing Linux device, found by name.  Opening one that
 *               the kernel does not have fails with ENODEV.  The empty type
 *               means "system".
 *   "internal"  a device the switch creates and owns (a Linux tap device),
 *               removed when the last reference is closed.  Every bridge
 *               has one with the bridge's name: its local port.
 *   "tap"       a tap device that already exists (opened, not created).
 *   "dummy"     a device that lives only in this process, for tests and the
 *               sandbox ("dummy-internal" and "dummy-pmd" are the same
 *               device under the names Open vSwitch's tests use).  Only
 *               available after netdev_enable_dummy(); at its higher
 *               levels "system" (and "internal" and "tap") are served by
 *               the dummy provider too, so a test can name any device
 *               without touching the host.  Like Open vSwitch's, a new
 *               dummy device is administratively down (the code adding it
 *               to a bridge turns it up) with its carrier on.
 *
 * Any other type fails with EAFNOSUPPORT.
 *
 * A netdev knows and sets the properties that the Interface table reports
 * (Ethernet address, MTU, ifindex, carrier, administrative state), takes
 * its type-specific "options" through netdev_set_config(), and moves
 * packets for the datapath (see "Packet I/O" below).
 *
 * Sharing and ownership: netdev_open() on a name that is already open
 * returns the same netdev with one more reference (EEXIST if the type
 * differs); the caller owns one reference and gives it back with
 * netdev_close().  Strings returned by the getters belong to the netdev.
 * Whenever a property that others report changes (carrier, flags, MTU,
 * Ethernet address), the netdev's change sequence and the global
 * connectivity_seq move.  Linux devices are read from the kernel on each
 * call, and a link monitor on rtnetlink (netdev_run()/netdev_wait(), in
 * the main loop) notices changes made outside the switch as they happen.
 *
 * Not thread-safe: call from the main thread only, except the packet path
 * below, which the datapath's threads use. */
#ifndef NETDEV_H
#define NETDEV_H 1

#include <stdbool.h>
#include <stdint.h>
#include "packets.h"

struct netdev;
struct smap;
struct sset;

/* How far dummy devices stand in for real ones (ovs-vswitchd's
 * --enable-dummy[=system|override]). */
enum netdev_dummy_level {
    NETDEV_DUMMY_ADD,           /* Only add "dummy", "dummy-internal" and
                                 * "dummy-pmd" beside the real types. */
    NETDEV_DUMMY_SYSTEM,        /* Also serve "system" with dummies. */
    NETDEV_DUMMY_OVERRIDE,      /* Also "internal" and "tap": nothing
                                 * touches the host. */
};

/* Makes the dummy types available, and at LEVEL serves real types with
 * them.  Also registers the netdev-dummy/ ovs-appctl commands (see
 * netdev-dummy.c).  Call from the main thread before opening netdevs. */
void netdev_enable_dummy(enum netdev_dummy_level level);

/* Adds the name of every type netdev_open() accepts to TYPES (what
 * ovs-vswitchd reports in Open_vSwitch:iface_types). */
void netdev_get_types(struct sset *types);
/* Normalizes TYPE: NULL or "" become "system". */
const char *netdev_normalize_type(const char *type);

/* Whether the device sends packets itself (tunnel devices do not: the
 * datapath encapsulates for them, or drops). */
bool netdev_can_send(const struct netdev *);

int netdev_open(const char *name, const char *type, struct netdev **);
void netdev_close(struct netdev *);
/* Closes every open netdev whatever its reference count, removing the
 * devices the switch created (for "ovs-appctl exit --cleanup" and tests
 * that check for leaks). */
void netdev_close_all(void);

/* Applies the Interface's "options".  On error returns an errno value and
 * stores in *ERRP a message for the Interface's "error" column (the caller
 * frees it; ERRP may be NULL), also logged; an option the type does not know
 * is an error (EINVAL, "NAME: unknown option KEY").  A netdev whose
 * configuration is not changed keeps its previous one.  No type takes
 * options yet. */
int netdev_set_config(struct netdev *, const struct smap *options,
                      char **errp);

const char *netdev_get_name(const struct netdev *);
/* The normalized type ("system", never ""). */
const char *netdev_get_type(const struct netdev *);

int netdev_get_etheraddr(const struct netdev *, struct eth_addr *);
int netdev_set_etheraddr(struct netdev *, struct eth_addr);
int netdev_get_mtu(const struct netdev *, int *mtup);
int netdev_set_mtu(struct netdev *, int mtu);
/* The kernel's ifindex (positive), or a negative errno value (dummy
 * devices have none: -EOPNOTSUPP). */
int netdev_get_ifindex(const struct netdev *);
/* Link up at the physical layer (for a tap: a reader attached); always
 * false while the device is administratively down. */
bool netdev_get_carrier(const struct netdev *);
/* MII monitoring, for bonds whose member drivers may not report link
 * changes: the device's link is polled every MS milliseconds (0: not)
 * and the carrier is what the last poll saw.  EOPNOTSUPP for devices
 * that have no such link (dummy, patch, tunnels).  Main thread. */
int netdev_set_miimon_interval(struct netdev *, long long int ms);
/* How many times the device's carrier changed, as its driver counts them
 * (a Linux device's carrier_changes); 0 for a device that does not count
 * (dummy devices, as in 3.1).  LACP renegotiates only when it moves. */
uint64_t netdev_get_carrier_resets(const struct netdev *);

enum netdev_flags {
    NETDEV_UP = 1 << 0,         /* Administratively up. */
    NETDEV_PROMISC = 1 << 1,    /* Promiscuous mode. */
};
int netdev_get_flags(const struct netdev *, enum netdev_flags *);
/* Turns ON on and OFF off; the flags are restored on netdev_close() of
 * the last reference for devices the switch did not create. */
int netdev_update_flags(struct netdev *, enum netdev_flags off,
                        enum netdev_flags on);

/* The IP addresses of the device NAME and their masks (IPv4 ones
 * IPv4-mapped, see ip-addr.h): two malloc'd arrays of *N entries the caller
 * frees.  An open device answers through its type (a dummy device has the
 * addresses netdev-dummy/ip4addr and ip6addr gave it), any other name is
 * asked of the kernel.  Returns 0, or EADDRNOTAVAIL when the device has
 * none, or another errno value.  Main thread (the table of open devices is
 * its own). */
int netdev_get_addrs_by_name(const char *name, struct in6_addr **addrs,
                             struct in6_addr **masks, size_t *n);

/* The open netdev named NAME, or NULL.  No reference is taken: main
 * thread, for use before it next closes devices. */
struct netdev *netdev_find_open(const char *name);

/* Moves whenever one of the properties above changes. */
uint64_t netdev_get_change_seq(const struct netdev *);

/* Returns an open netdev whose change seq moved since it was last
 * returned, and takes it off the queue; NULL when none did.  Each changed
 * netdev is queued once however often it changed, so a consumer that
 * drains the queue when connectivity_seq moves does work proportional to
 * what changed, not to how many devices are open.  One consumer
 * (ovs-vswitchd's bridge) owns the queue. */
struct netdev *netdev_pop_changed(void);

/* Returns an open netdev whose packet counters moved since it was last
 * returned, and takes it off that queue; NULL when none did.  Counters
 * move only through this module (receive, send, the providers' error and
 * drop counts), on any thread, and the first move after a pop queues the
 * netdev, so a consumer that writes statistics visits the devices that
 * had traffic, not every device.  netdev_queue_counters() queues one as
 * if they had moved (for a first write, or to write all again).  One
 * consumer (ovs-vswitchd's bridge) owns the queue; it is main-thread
 * only, the counting threads never wait for it but on a short mutex the
 * first time a netdev's counters move. */
struct netdev *netdev_pop_moved_counters(void);
void netdev_queue_counters(struct netdev *);

/* The rtnetlink link monitor: a link going up or down, or changing its
 * flags, MTU or address outside the switch reaches its netdev (change seq
 * and connectivity_seq) in the next netdev_run().  netdev_wait() wakes the
 * main loop when the kernel reports a change; nothing polls. */
void netdev_run(void);
void netdev_wait(void);

/* Packet I/O
 * ----------
 *
 * A datapath opens one receive queue per port with netdev_rxq_open() (on
 * the main thread) and hands it to one of its receive threads, which
 * waits on netdev_rxq_fd() with epoll and calls netdev_rxq_recv() when it
 * is readable.  A receive returns up to NETDEV_MAX_BURST packets in one
 * batch; the packets belong to the queue (they may be frames of a
 * memory-mapped ring read in place) and stay valid until the next
 * netdev_rxq_recv() or netdev_rxq_close() on the same queue.  Anything
 * that must live longer is cloned.
 *
 *   "system"    AF_PACKET socket bound to the device, with a memory-mapped
 *               TPACKET_V3 receive ring; sends with sendmmsg().
 *   "internal", "tap"
 *               the tap's file descriptor, read and written until a batch
 *               is full or the fd would block.
 *   "dummy"     packets injected with "ovs-appctl netdev-dummy/receive";
 *               sent packets are counted and, with the pcap or tx_pcap
 *               option, written to a capture file (see netdev-dummy.c).
 *
 * netdev_send() may be called from any thread, for any device, at the
 * same time as a receive on it; it does not take the packets (the caller
 * still owns and frees them).  netdev_rxq_recv() belongs to the one
 * thread that owns the queue.  netdev_get_stats() may be called from any
 * thread; counters are kept with relaxed atomics. */
struct dp_packet;
struct dp_packet_batch;
struct netdev_rxq;

/* A device's counters.  NETDEV_STAT_UNKNOWN is a counter the device does
 * not keep (a dummy device keeps no drop or error counts, as in 3.1), which
 * OpenFlow sends as all-ones and prints as "?". */
#define NETDEV_STAT_UNKNOWN UINT64_MAX
struct netdev_stats {
    uint64_t rx_packets, rx_bytes, rx_errors, rx_dropped;
    uint64_t tx_packets, tx_bytes, tx_errors, tx_dropped;
};

/* A counter of the device's own, beyond struct netdev_stats (3.1's
 * "custom statistics", which OpenFlow 1.4 port stats and the Interface's
 * statistics column carry by name). */
struct netdev_custom_counter {
    char name[32];
    uint64_t value;
};

/* Opens NETDEV's receive queue (one per netdev at a time); EOPNOTSUPP if
 * the type moves no packets.  The queue holds a reference to NETDEV. */
int netdev_rxq_open(struct netdev *, struct netdev_rxq **);
void netdev_rxq_close(struct netdev_rxq *);
struct netdev *netdev_rxq_get_netdev(const struct netdev_rxq *);
/* A file descriptor that is readable while packets may be waiting. */
int netdev_rxq_fd(const struct netdev_rxq *);
/* Receives up to NETDEV_MAX_BURST packets into BATCH (which it
 * initializes).  Returns 0 with at least one packet, EAGAIN if there was
 * none, or another positive errno value. */
int netdev_rxq_recv(struct netdev_rxq *, struct dp_packet_batch *);

/* Sends every packet of BATCH.  Returns 0 if all went, else the first
 * error (packets that could not go count as tx_dropped or tx_errors). */
int netdev_send(struct netdev *, const struct dp_packet_batch *);

void netdev_get_stats(const struct netdev *, struct netdev_stats *);
/* Stores up to MAX of NETDEV's own counters in COUNTERS, in the device's
 * order, and returns how many it has (0 for most types). */
size_t netdev_get_custom_stats(const struct netdev *,
                               struct netdev_custom_counter *counters,
                               size_t max);

/* Gives the dummy device NETDEV its one address of ADDR's family
 * (IPv4-mapped for IPv4, PLEN counted in IPv6 bits then), as
 * netdev-dummy/ip4addr and ip6addr do.  EINVAL if NETDEV is not a dummy. */
struct in6_addr;
int netdev_dummy_set_addr(struct netdev *, const struct in6_addr *addr,
                          unsigned int plen);

/* For tests: makes PACKET (taken) arrive on NETDEV, a dummy device, as
 * "netdev-dummy/receive" does.  EINVAL if NETDEV is not a dummy. */
int netdev_dummy_inject(struct netdev *, struct dp_packet *);

#endif /* netdev.h */
