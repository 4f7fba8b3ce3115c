/* netdev-provider: what netdev.c asks of each type of network device.
 *
 * Private to lib/netdev*.c; everyone else uses netdev.h.
 *
 * A provider is a struct netdev_class of function pointers, defined in one
 * file per family (netdev-linux.c: "system", "internal", "tap";
 * netdev-dummy.c: "dummy").  netdev.c keeps the registry of types, the
 * table of open devices by name, reference counts, the saved flags that are
 * put back on the last close, and the change sequence; a provider only
 * talks to its device.
 *
 * Memory: each provider embeds struct netdev as a member of its own device
 * struct, allocates that struct in alloc() and frees it in dealloc().
 * netdev.c fills in and frees the common part; construct() and destruct()
 * handle the provider's part.  A provider calls netdev_change_seq_changed()
 * whenever a property that netdev.h reports changes, whether through a
 * setter or because it noticed the device had changed underneath it. */
#ifndef NETDEV_PROVIDER_H
#define NETDEV_PROVIDER_H 1

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "list.h"
#include "netdev.h"
#include "packets.h"

struct shash_node;
struct smap;

/* The part of every network device that netdev.c owns. */
struct netdev {
    char *name;                         /* Device name (owned). */
    char *type;                         /* Normalized type it was opened as
                                         * (owned); differs from
                                         * netdev_class->type under dummy
                                         * override. */
    const struct netdev_class *netdev_class;
    int ref_cnt;
    uint64_t change_seq;                /* Never 0. */
    struct ovs_list changed_node;       /* In netdev.c's changed list, or
                                         * alone (not queued). */
    struct shash_node *node;            /* In netdev.c's table by name. */

    /* The flags found before the first netdev_update_flags(), to put back
     * on the last close for devices that outlive us. */
    bool flags_saved;
    enum netdev_flags saved_flags;

    /* Packet counters, bumped by netdev.c's wrappers and by providers
     * (netdev_count_*()) from any thread. */
    _Atomic uint64_t rx_packets, rx_bytes, rx_errors, rx_dropped;
    _Atomic uint64_t tx_packets, tx_bytes, tx_errors, tx_dropped;
    /* Whether the counters moved since netdev_pop_moved_counters() last
     * returned this netdev: a hint read without the lock by the threads
     * that count, so that only the first move takes it. */
    _Atomic bool counters_queued;
    struct ovs_list counters_node;      /* In netdev.c's moved-counters
                                         * list (under its mutex), or
                                         * alone. */
};

/* A receive queue: providers embed it in their own struct. */
struct netdev_rxq {
    struct netdev *netdev;
};

struct netdev_class {
    /* The type this provider implements ("system", "dummy", ...). */
    const char *type;

    /* True if the device exists before we open it and after we close it,
     * so that flags we changed must be put back on the last close. */
    bool restore_flags;

    /* True if the device has no drops or errors to count (it is no
     * hardware): netdev_get_stats() reports them NETDEV_STAT_UNKNOWN. */
    bool no_error_counters;

    /* Life cycle.  alloc() returns zeroed memory holding a struct netdev;
     * netdev.c then fills the common part and calls construct(), which
     * returns 0 or a positive errno value (ENODEV: no such device).  After
     * a failed construct() only dealloc() is called.  destruct() releases
     * what construct() acquired (for "internal", the device itself). */
    struct netdev *(*alloc)(void);
    int (*construct)(struct netdev *);
    void (*destruct)(struct netdev *);
    void (*dealloc)(struct netdev *);

    /* Applies OPTIONS entirely or not at all.  On error returns a positive
     * errno value and sets *ERRP to a malloc'd message.  NULL means the type
     * takes no options: netdev.c rejects any key. */
    int (*set_config)(struct netdev *, const struct smap *options,
                      char **errp);

    /* Properties.  Return 0 or a positive errno value, except get_ifindex()
     * (an ifindex or a negative errno value).  NULL setters mean
     * EOPNOTSUPP. */
    int (*get_etheraddr)(const struct netdev *, struct eth_addr *);
    int (*set_etheraddr)(struct netdev *, struct eth_addr);
    int (*get_mtu)(const struct netdev *, int *mtup);
    int (*set_mtu)(struct netdev *, int mtu);
    int (*get_ifindex)(const struct netdev *);
    /* The physical link only; netdev.c reports no carrier while the device
     * is administratively down. */
    bool (*get_carrier)(const struct netdev *);
    /* Polls the link every MS milliseconds (0: stop) and reports that as
     * the carrier (netdev_set_miimon_interval()).  NULL: EOPNOTSUPP. */
    int (*set_miimon_interval)(struct netdev *, long long int ms);
    /* Carrier changes the driver counted; NULL: none counted. */
    uint64_t (*get_carrier_resets)(const struct netdev *);
    int (*get_flags)(const struct netdev *, enum netdev_flags *);
    int (*update_flags)(struct netdev *, enum netdev_flags off,
                        enum netdev_flags on);

    /* Packet I/O (netdev.h, "Packet I/O").  NULL rxq_open means the type
     * moves no packets.  rxq_open() allocates the provider's queue and
     * fills in nothing of struct netdev_rxq: netdev.c does.  rxq_recv()
     * fills BATCH (already initialized) and returns 0, EAGAIN or an
     * errno.  send() returns the number of packets of BATCH that went and
     * stores the first error in *ERRORP (0 if none); netdev.c counts. */
    int (*rxq_open)(struct netdev *, struct netdev_rxq **);
    void (*rxq_close)(struct netdev_rxq *);
    int (*rxq_fd)(const struct netdev_rxq *);
    int (*rxq_recv)(struct netdev_rxq *, struct dp_packet_batch *);
    size_t (*send)(struct netdev *, const struct dp_packet_batch *,
                   int *errorp);

    /* The device's own counters (netdev_get_custom_stats()); NULL: none.
     * STATS holds the common counters, read just before. */
    size_t (*get_custom_stats)(const struct netdev *,
                               const struct netdev_stats *stats,
                               struct netdev_custom_counter *, size_t max);

    /* The device's IP addresses and their masks (IPv4-mapped for IPv4),
     * as two malloc'd arrays of *N entries the caller frees.  NULL: the
     * device is a kernel one and netdev.c asks the kernel
     * (getifaddrs()).  EADDRNOTAVAIL when it has none. */
    int (*get_addr_list)(const struct netdev *, struct in6_addr **addrs,
                         struct in6_addr **masks, size_t *n);
};

/* Counters a provider bumps itself (receive errors and drops it sees;
 * for a device that moves no packets of its own, what crossed it). */
void netdev_count_rx(struct netdev *, uint64_t n_packets, uint64_t n_bytes);
void netdev_count_tx(struct netdev *, uint64_t n_packets, uint64_t n_bytes);
void netdev_count_rx_errors(struct netdev *, uint64_t n);
void netdev_count_rx_dropped(struct netdev *, uint64_t n);

/* Moves NETDEV's change sequence and the global connectivity_seq. */
void netdev_change_seq_changed(struct netdev *);


/* netdev-linux.c's rtnetlink link monitor (netdev_run()/netdev_wait()). */
void netdev_linux_monitor_run(void);
void netdev_linux_monitor_wait(void);

/* Adds CLASS under its type (netdev.c calls it for the tunnel types of
 * netdev-vport.c while it initializes). */
void netdev_register_class(const struct netdev_class *);

/* Providers. */
extern const struct netdev_class netdev_linux_class;    /* "system" */
extern const struct netdev_class netdev_internal_class; /* "internal" */
extern const struct netdev_class netdev_tap_class;      /* "tap" */
extern const struct netdev_class netdev_dummy_class;    /* "dummy" */
extern const struct netdev_class netdev_patch_class;    /* "patch" */

/* Registers the "netdev-dummy/..." ovs-appctl commands (netdev-dummy.c). */
void netdev_dummy_register_commands(void);
/* Main thread (netdev_run()/netdev_wait()): moves packets over the dummy
 * devices' cables (options pstream/stream). */
void netdev_dummy_run(void);
void netdev_dummy_wait(void);

#endif /* netdev-provider.h */
