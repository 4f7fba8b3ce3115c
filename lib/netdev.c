#include <config.h>
#include "netdev.h"

#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include "connectivity.h"
#include "dp-packet.h"
#include "ip-addr.h"
#include "netdev-provider.h"
#include "ovs-thread.h"
#include "seq.h"
#include "shash.h"
#include "smap.h"
#include "sset.h"
#include "netdev-vport.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(netdev);

/* Type name -> const struct netdev_class *.  Under dummy override several
 * names map to the dummy class. */
static struct shash netdev_classes = SHASH_INITIALIZER(&netdev_classes);

/* Device name -> struct netdev *, every open device. */
static struct shash netdevs = SHASH_INITIALIZER(&netdevs);
/* Open netdevs whose change seq moved since netdev_pop_changed() last
 * returned them (struct netdev's changed_node). */
static struct ovs_list changed_netdevs = OVS_LIST_INITIALIZER(&changed_netdevs);
/* Open netdevs whose packet counters moved since
 * netdev_pop_moved_counters() last returned them (counters_node).  Rx and
 * handler threads add to it, so it has a mutex. */
static struct ovs_mutex moved_counters_mutex = OVS_MUTEX_INITIALIZER;
static struct ovs_list moved_counters = OVS_LIST_INITIALIZER(&moved_counters);

#define NETDEV_ALL_FLAGS (NETDEV_UP | NETDEV_PROMISC)

static void
netdev_initialize(void)
{
    static bool initialized;

    if (!initialized) {
        initialized = true;
        shash_add_assert(&netdev_classes, "system", &netdev_linux_class);
        shash_add_assert(&netdev_classes, "internal", &netdev_internal_class);
        shash_add_assert(&netdev_classes, "tap", &netdev_tap_class);
        shash_add_assert(&netdev_classes, "patch", &netdev_patch_class);
        netdev_vport_register();
    }
}

void
netdev_register_class(const struct netdev_class *class)
{
    shash_add_assert(&netdev_classes, class->type, class);
}

void
netdev_enable_dummy(enum netdev_dummy_level level)
{
    static bool commands_registered;

    netdev_initialize();
    /* One class under three names: what tests call a datapath's internal
     * device and a PMD device are, in memory, the same thing. */
    shash_replace(&netdev_classes, "dummy", &netdev_dummy_class);
    shash_replace(&netdev_classes, "dummy-internal", &netdev_dummy_class);
    shash_replace(&netdev_classes, "dummy-pmd", &netdev_dummy_class);
    if (level >= NETDEV_DUMMY_SYSTEM) {
        shash_replace(&netdev_classes, "system", &netdev_dummy_class);
    }
    if (level >= NETDEV_DUMMY_OVERRIDE) {
        shash_replace(&netdev_classes, "internal", &netdev_dummy_class);
        shash_replace(&netdev_classes, "tap", &netdev_dummy_class);
    }
    if (!commands_registered) {
        commands_registered = true;
        netdev_dummy_register_commands();
    }
}

void
netdev_get_types(struct sset *types)
{
    netdev_initialize();

    struct shash_node *node;
    SHASH_FOR_EACH (node, &netdev_classes) {
        sset_add(types, node->name);
    }
}

const char *
netdev_normalize_type(const char *type)
{
    return type && type[0] ? type : "system";
}

int
netdev_open(const char *name, const char *type_, struct netdev **netdevp)
{
    const char *type = netdev_normalize_type(type_);

    netdev_initialize();
    *netdevp = NULL;

    struct netdev *netdev = shash_find_data(&netdevs, name);
    if (netdev) {
        if (strcmp(netdev->type, type)) {
            VLOG_WARN("%s: cannot open as type %s: already open as type %s",
                      name, type, netdev->type);
            return EEXIST;
        }
        netdev->ref_cnt++;
        *netdevp = netdev;
        return 0;
    }

    const struct netdev_class *class = shash_find_data(&netdev_classes, type);
    if (!class) {
        VLOG_WARN("could not create netdev %s of unknown type %s",
                  name, type);
        return EAFNOSUPPORT;
    }
    if (!name[0]) {
        return EINVAL;
    }

    netdev = class->alloc();
    netdev->name = xstrdup(name);
    netdev->type = xstrdup(type);
    netdev->netdev_class = class;
    netdev->ref_cnt = 1;
    netdev->change_seq = 1;
    ovs_list_init(&netdev->changed_node);
    ovs_list_init(&netdev->counters_node);
    atomic_init(&netdev->counters_queued, false);

    int error = class->construct(netdev);
    if (error) {
        VLOG_DBG("%s: could not open device of type %s (%s)",
                 name, type, ovs_strerror(error));
        free(netdev->name);
        free(netdev->type);
        class->dealloc(netdev);
        return error;
    }
    netdev->node = shash_add(&netdevs, name, netdev);
    *netdevp = netdev;
    return 0;
}

static void
netdev_destroy(struct netdev *netdev)
{
    const struct netdev_class *class = netdev->netdev_class;

    shash_delete(&netdevs, netdev->node);
    if (class->restore_flags && netdev->flags_saved) {
        int error = class->update_flags(
            netdev, NETDEV_ALL_FLAGS & ~netdev->saved_flags,
            netdev->saved_flags);
        if (error) {
            VLOG_WARN("%s: could not restore device flags (%s)",
                      netdev->name, ovs_strerror(error));
        }
    }
    /* After restoring flags, which may have queued it. */
    ovs_list_remove(&netdev->changed_node);
    /* No thread counts for it any more: its last rxq and port are gone. */
    ovs_mutex_lock(&moved_counters_mutex);
    ovs_list_remove(&netdev->counters_node);
    ovs_mutex_unlock(&moved_counters_mutex);
    class->destruct(netdev);
    free(netdev->name);
    free(netdev->type);
    class->dealloc(netdev);
}

void
netdev_close(struct netdev *netdev)
{
    if (netdev) {
        ovs_assert(netdev->ref_cnt > 0);
        if (!--netdev->ref_cnt) {
            netdev_destroy(netdev);
        }
    }
}

void
netdev_close_all(void)
{
    struct shash_node *node;
    SHASH_FOR_EACH_SAFE (node, &netdevs) {
        netdev_destroy(node->data);
    }
}

bool
netdev_can_send(const struct netdev *netdev)
{
    return netdev->netdev_class->send != NULL;
}

int
netdev_set_config(struct netdev *netdev, const struct smap *options,
                  char **errp)
{
    const struct netdev_class *class = netdev->netdev_class;
    char *dummy_errp = NULL;

    if (!errp) {
        errp = &dummy_errp;
    }
    *errp = NULL;

    int error;
    if (class->set_config) {
        error = class->set_config(netdev, options, errp);
    } else if (options && !smap_is_empty(options)) {
        /* Name the first key in sorted order, so the message is stable. */
        const struct smap_node **sorted = smap_sort(options);
        *errp = xasprintf("%s: unknown option %s",
                          netdev->name, sorted[0]->key);
        free(sorted);
        error = EINVAL;
    } else {
        error = 0;
    }

    if (error && *errp) {
        VLOG_WARN("%s", *errp);
    }
    free(dummy_errp);
    return error;
}

const char *
netdev_get_name(const struct netdev *netdev)
{
    return netdev->name;
}

const char *
netdev_get_type(const struct netdev *netdev)
{
    return netdev->type;
}

int
netdev_get_etheraddr(const struct netdev *netdev, struct eth_addr *ea)
{
    int error = netdev->netdev_class->get_etheraddr(netdev, ea);
    if (error) {
        memset(ea, 0, sizeof *ea);
    }
    return error;
}

int
netdev_set_etheraddr(struct netdev *netdev, struct eth_addr ea)
{
    const struct netdev_class *class = netdev->netdev_class;
    return class->set_etheraddr ? class->set_etheraddr(netdev, ea)
                                : EOPNOTSUPP;
}

int
netdev_get_mtu(const struct netdev *netdev, int *mtup)
{
    int error = netdev->netdev_class->get_mtu(netdev, mtup);
    if (error) {
        *mtup = 0;
    }
    return error;
}

int
netdev_set_mtu(struct netdev *netdev, int mtu)
{
    const struct netdev_class *class = netdev->netdev_class;
    return class->set_mtu ? class->set_mtu(netdev, mtu) : EOPNOTSUPP;
}

int
netdev_get_ifindex(const struct netdev *netdev)
{
    const struct netdev_class *class = netdev->netdev_class;
    return class->get_ifindex ? class->get_ifindex(netdev) : -EOPNOTSUPP;
}

bool
netdev_get_carrier(const struct netdev *netdev)
{
    /* A device that is administratively down passes no traffic, whatever
     * its cable says; Open vSwitch reports such a link as down too. */
    enum netdev_flags flags;
    if (netdev_get_flags(netdev, &flags) || !(flags & NETDEV_UP)) {
        return false;
    }

    const struct netdev_class *class = netdev->netdev_class;
    return class->get_carrier ? class->get_carrier(netdev) : true;
}

uint64_t
netdev_get_carrier_resets(const struct netdev *netdev)
{
    const struct netdev_class *class = netdev->netdev_class;
    return class->get_carrier_resets ? class->get_carrier_resets(netdev) : 0;
}

int
netdev_set_miimon_interval(struct netdev *netdev, long long int ms)
{
    const struct netdev_class *class = netdev->netdev_class;
    return (class->set_miimon_interval
            ? class->set_miimon_interval(netdev, ms) : EOPNOTSUPP);
}

int
netdev_get_flags(const struct netdev *netdev, enum netdev_flags *flagsp)
{
    int error = netdev->netdev_class->get_flags(netdev, flagsp);
    if (error) {
        *flagsp = 0;
    }
    return error;
}

int
netdev_update_flags(struct netdev *netdev, enum netdev_flags off,
                    enum netdev_flags on)
{
    const struct netdev_class *class = netdev->netdev_class;

    if (class->restore_flags && !netdev->flags_saved) {
        enum netdev_flags flags;
        int error = class->get_flags(netdev, &flags);
        if (error) {
            return error;
        }
        netdev->saved_flags = flags & NETDEV_ALL_FLAGS;
        netdev->flags_saved = true;
    }
    return class->update_flags(netdev, off & NETDEV_ALL_FLAGS,
                               on & NETDEV_ALL_FLAGS);
}

uint64_t
netdev_get_change_seq(const struct netdev *netdev)
{
    return netdev->change_seq;
}

void
netdev_change_seq_changed(struct netdev *netdev)
{
    if (!++netdev->change_seq) {
        netdev->change_seq = 1;
    }
    if (ovs_list_is_empty(&netdev->changed_node)) {
        ovs_list_push_back(&changed_netdevs, &netdev->changed_node);
    }
    seq_change(connectivity_seq_get());
}

struct netdev *
netdev_pop_changed(void)
{
    if (ovs_list_is_empty(&changed_netdevs)) {
        return NULL;
    }
    struct ovs_list *node = ovs_list_pop_front(&changed_netdevs);
    ovs_list_init(node);
    return CONTAINER_OF(node, struct netdev, changed_node);
}

/* Packet I/O. */

int
netdev_rxq_open(struct netdev *netdev, struct netdev_rxq **rxqp)
{
    const struct netdev_class *class = netdev->netdev_class;

    *rxqp = NULL;
    if (!class->rxq_open) {
        return EOPNOTSUPP;
    }
    struct netdev_rxq *rxq;
    int error = class->rxq_open(netdev, &rxq);
    if (error) {
        VLOG_WARN("%s: could not open a receive queue (%s)",
                  netdev->name, ovs_strerror(error));
        return error;
    }
    rxq->netdev = netdev;
    netdev->ref_cnt++;
    *rxqp = rxq;
    return 0;
}

void
netdev_rxq_close(struct netdev_rxq *rxq)
{
    if (rxq) {
        struct netdev *netdev = rxq->netdev;
        netdev->netdev_class->rxq_close(rxq);
        netdev_close(netdev);
    }
}

struct netdev *
netdev_rxq_get_netdev(const struct netdev_rxq *rxq)
{
    return rxq->netdev;
}

int
netdev_rxq_fd(const struct netdev_rxq *rxq)
{
    return rxq->netdev->netdev_class->rxq_fd(rxq);
}

static void
counter_add(_Atomic uint64_t *counter, uint64_t n)
{
    atomic_fetch_add_explicit(counter, n, memory_order_relaxed);
}

void
netdev_queue_counters(struct netdev *netdev)
{
    ovs_mutex_lock(&moved_counters_mutex);
    if (ovs_list_is_empty(&netdev->counters_node)) {
        ovs_list_push_back(&moved_counters, &netdev->counters_node);
    }
    ovs_mutex_unlock(&moved_counters_mutex);
}

/* After the counters of NETDEV moved.  The fence orders the counts before
 * the look at the flag, against netdev_pop_moved_counters() clearing the
 * flag before the consumer reads the counts: either this sees the flag
 * clear and queues again, or the consumer sees these counts. */
static void
counters_moved(struct netdev *netdev)
{
    atomic_thread_fence(memory_order_seq_cst);
    if (!atomic_load_explicit(&netdev->counters_queued, memory_order_relaxed)
        && !atomic_exchange(&netdev->counters_queued, true)) {
        netdev_queue_counters(netdev);
    }
}

struct netdev *
netdev_pop_moved_counters(void)
{
    ovs_mutex_lock(&moved_counters_mutex);
    struct netdev *netdev = NULL;
    if (!ovs_list_is_empty(&moved_counters)) {
        struct ovs_list *node = ovs_list_pop_front(&moved_counters);
        ovs_list_init(node);
        netdev = CONTAINER_OF(node, struct netdev, counters_node);
    }
    ovs_mutex_unlock(&moved_counters_mutex);
    if (netdev) {
        atomic_store(&netdev->counters_queued, false);
    }
    return netdev;
}

int
netdev_rxq_recv(struct netdev_rxq *rxq, struct dp_packet_batch *batch)
{
    struct netdev *netdev = rxq->netdev;

    dp_packet_batch_init(batch);
    int error = netdev->netdev_class->rxq_recv(rxq, batch);
    if (!error) {
        uint64_t bytes = 0;
        struct dp_packet *packet;
        DP_PACKET_BATCH_FOR_EACH (i, packet, batch) {
            bytes += dp_packet_size(packet);
        }
        counter_add(&netdev->rx_packets, batch->count);
        counter_add(&netdev->rx_bytes, bytes);
        if (batch->count) {
            counters_moved(netdev);
        }
    }
    return error;
}

int
netdev_send(struct netdev *netdev, const struct dp_packet_batch *batch)
{
    const struct netdev_class *class = netdev->netdev_class;
    if (!batch->count) {
        return 0;
    }
    if (!class->send) {
        counter_add(&netdev->tx_dropped, batch->count);
        counters_moved(netdev);
        return EOPNOTSUPP;
    }

    int error = 0;
    size_t n = class->send(netdev, batch, &error);
    uint64_t bytes = 0;
    for (size_t i = 0; i < n; i++) {
        bytes += dp_packet_size(batch->packets[i]);
    }
    counter_add(&netdev->tx_packets, n);
    counter_add(&netdev->tx_bytes, bytes);
    if (n < batch->count) {
        counter_add(error == ENOBUFS || error == EAGAIN
                    ? &netdev->tx_dropped : &netdev->tx_errors,
                    batch->count - n);
    }
    counters_moved(netdev);
    return error;
}

void
netdev_count_rx(struct netdev *netdev, uint64_t n_packets, uint64_t n_bytes)
{
    counter_add(&netdev->rx_packets, n_packets);
    counter_add(&netdev->rx_bytes, n_bytes);
    counters_moved(netdev);
}

void
netdev_count_tx(struct netdev *netdev, uint64_t n_packets, uint64_t n_bytes)
{
    counter_add(&netdev->tx_packets, n_packets);
    counter_add(&netdev->tx_bytes, n_bytes);
    counters_moved(netdev);
}

void
netdev_count_rx_errors(struct netdev *netdev, uint64_t n)
{
    counter_add(&netdev->rx_errors, n);
    counters_moved(netdev);
}

void
netdev_count_rx_dropped(struct netdev *netdev, uint64_t n)
{
    counter_add(&netdev->rx_dropped, n);
    counters_moved(netdev);
}

void
netdev_get_stats(const struct netdev *netdev_, struct netdev_stats *stats)
{
    struct netdev *netdev = (struct netdev *) netdev_;
#define READ(FIELD) \
    atomic_load_explicit(&netdev->FIELD, memory_order_relaxed)
    *stats = (struct netdev_stats) {
        .rx_packets = READ(rx_packets), .rx_bytes = READ(rx_bytes),
        .rx_errors = READ(rx_errors), .rx_dropped = READ(rx_dropped),
        .tx_packets = READ(tx_packets), .tx_bytes = READ(tx_bytes),
        .tx_errors = READ(tx_errors), .tx_dropped = READ(tx_dropped),
    };
#undef READ
    if (netdev->netdev_class->no_error_counters) {
        stats->rx_errors = stats->rx_dropped = NETDEV_STAT_UNKNOWN;
        stats->tx_errors = stats->tx_dropped = NETDEV_STAT_UNKNOWN;
    }
}

size_t
netdev_get_custom_stats(const struct netdev *netdev,
                        struct netdev_custom_counter *counters, size_t max)
{
    if (!netdev->netdev_class->get_custom_stats) {
        return 0;
    }
    struct netdev_stats stats;
    netdev_get_stats(netdev, &stats);
    return netdev->netdev_class->get_custom_stats(netdev, &stats, counters,
                                                  max);
}

/* Appends the kernel's addresses of the interface NAME. */
static int
kernel_get_addrs(const char *name, struct in6_addr **addrs,
                 struct in6_addr **masks, size_t *n)
{
    struct ifaddrs *ifa_list;
    if (getifaddrs(&ifa_list)) {
        return errno;
    }
    size_t allocated = 0;
    *addrs = *masks = NULL;
    *n = 0;
    for (struct ifaddrs *ifa = ifa_list; ifa; ifa = ifa->ifa_next) {
        if (!ifa->ifa_addr || !ifa->ifa_netmask
            || strcmp(ifa->ifa_name, name)) {
            continue;
        }
        struct in6_addr addr, mask;
        int family = ifa->ifa_addr->sa_family;
        if (family == AF_INET) {
            const struct sockaddr_in *a = (const void *) ifa->ifa_addr;
            const struct sockaddr_in *m = (const void *) ifa->ifa_netmask;
            addr = in6_addr_mapped_ipv4(a->sin_addr.s_addr);
            mask = in6_addr_mapped_ipv4(m->sin_addr.s_addr);
        } else if (family == AF_INET6) {
            const struct sockaddr_in6 *a = (const void *) ifa->ifa_addr;
            const struct sockaddr_in6 *m = (const void *) ifa->ifa_netmask;
            addr = a->sin6_addr;
            mask = m->sin6_addr;
        } else {
            continue;
        }
        if (*n >= allocated) {
            size_t a_alloc = allocated;
            *addrs = x2nrealloc(*addrs, &a_alloc, sizeof **addrs);
            *masks = x2nrealloc(*masks, &allocated, sizeof **masks);
        }
        (*addrs)[*n] = addr;
        (*masks)[*n] = mask;
        (*n)++;
    }
    freeifaddrs(ifa_list);
    return *n ? 0 : EADDRNOTAVAIL;
}

int
netdev_get_addrs_by_name(const char *name, struct in6_addr **addrs,
                         struct in6_addr **masks, size_t *n)
{
    struct netdev *netdev = netdev_find_open(name);
    *addrs = *masks = NULL;
    *n = 0;
    if (netdev && netdev->netdev_class->get_addr_list) {
        return netdev->netdev_class->get_addr_list(netdev, addrs, masks, n);
    }
    return kernel_get_addrs(name, addrs, masks, n);
}

struct netdev *
netdev_find_open(const char *name)
{
    return shash_find_data(&netdevs, name);
}

void
netdev_run(void)
{
    netdev_linux_monitor_run();
    netdev_dummy_run();
}

void
netdev_wait(void)
{
    netdev_linux_monitor_wait();
    netdev_dummy_wait();
}
