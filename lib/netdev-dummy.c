/* netdev-dummy: the "dummy" type, devices that exist only in this process.
 *
 * Tests and the sandbox use them to exercise the switch's logic without
 * touching the host: properties live in memory and ovs-appctl commands play
 * the part of the outside world (an operator or a cable):
 *
 *   netdev-dummy/set-admin-state [NETDEV] up|down
 *       Turns NETDEV (every dummy device, without NETDEV) administratively
 *       up or down.  Replies "OK".  Same syntax and messages as Open
 *       vSwitch's command of that name.
 *   netdev-dummy/carrier [NETDEV] up|down
 *       Plugs or unplugs NETDEV's cable (every dummy device, without
 *       NETDEV).  Replies "OK".
 *   netdev-dummy/carrier NETDEV
 *       Replies NETDEV's cable state, "up" or "down" (the link is reported
 *       down anyway while the device is administratively down).
 *
 * Like Open vSwitch's dummy devices, a new device is administratively down
 * (whoever adds it to a bridge turns it up), has MTU 1500 (68 to 65535
 * allowed), no ifindex, its cable plugged in, and the Ethernet address
 * aa:55:aa:55:00:00 for the first device made in this process,
 * aa:55:aa:55:00:01 for the next, and so on.
 *
 * Packets:
 *
 *   netdev-dummy/receive NETDEV [--qid QID] PACKET [--len LEN]...
 *       Makes each PACKET arrive on NETDEV, as if from its cable.  A PACKET
 *       is hex bytes (spaces allowed between bytes) or a flow in the
 *       datapath flow syntax (odp-util.h), which becomes a packet with
 *       those headers (flow_compose()) and, as Open vSwitch's dummy makes
 *       them, 64 bytes of payload (0, 1, ... 63) when it is UDP, TCP
 *       without SYN, FIN or RST, or an ICMP or ICMPv6 echo; "--len LEN"
 *       after a flow makes it LEN bytes (at least 60) instead, padded with
 *       zeros.  A dummy device has one receive queue, so QID can only be 0.
 *       Each packet is queued for the datapath port's receive queue
 *       (dropped and counted as rx_dropped when no datapath has the
 *       device, or more than DUMMY_RXQ_MAX are waiting).
 *
 * Counters: packets and bytes, but no drops or errors (reported unknown),
 * and 3.1's custom counters: rx_custom_packets_1 and _2 (both the packets
 * received) and those of the one receive and one transmit queue,
 * rx_q0_bytes, rx_q0_packets, tx_q0_bytes, tx_q0_packets.
 *
 * Options (Interface options, or ovs-dpctl add-if's): "pcap=FILE" writes
 * every packet received and sent to FILE, "rx_pcap=FILE" the received
 * ones, "tx_pcap=FILE" the sent ones, all in pcap format.  "pstream=NAME"
 * (listen) or "stream=NAME" (connect) joins the device to others by a
 * cable (netdev-dummy-link.h): what one sends, the other receives.  A
 * device without a cable sends nowhere else: the capture and the tx
 * counters are what tests look at.
 *
 *   netdev-dummy/conn-state [NETDEV]
 *       A connecting device's cable: "NETDEV: connected" or "NETDEV:
 *       disconnected" ("unknown" for a listening one or one without a
 *       cable), one line per device (without NETDEV, every connecting
 *       one), as 3.1 prints it.
 *
 * Threads: the receive queue, the capture files and the cable are under
 * the device's mutex, since the main thread injects while a datapath
 * thread receives and sends.  Only the main thread runs the cables
 * (netdev_dummy_run()), visiting the devices that have one. */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include "coverage.h"
#include "dp-packet.h"
#include "dynamic-string.h"
#include "flow-extract.h"
#include "odp-util.h"
#include "ofpbuf.h"
#include "ovs-thread.h"
#include "pcap-file.h"
#include "smap.h"
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "list.h"
#include "ip-addr.h"
#include "netdev-dummy-link.h"
#include "netdev-provider.h"
#include "poll-loop.h"
#include "seq.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(netdev_dummy);
COVERAGE_DEFINE(netdev_dummy_rx_dropped);

#define DUMMY_MIN_MTU 68
#define DUMMY_MAX_MTU 65535
#define DUMMY_RXQ_MAX 1024          /* Packets waiting for the datapath. */

struct netdev_rxq_dummy;

/* An eventfd read or write can only fail if the counter is empty or
 * saturated, neither of which needs handling here. */
static void
ignore(ssize_t result OVS_UNUSED)
{
}

struct netdev_dummy {
    struct netdev up;
    struct ovs_list list_node;          /* In 'dummy_devices'. */

    struct eth_addr hwaddr;
    int mtu;
    enum netdev_flags flags;
    bool carrier;                       /* Cable plugged in. */
    /* netdev-dummy/ip4addr and ip6addr: one address of each family
     * (IPv4-mapped for IPv4; all zero: none), main thread only. */
    struct in6_addr in4, in4_mask;
    struct in6_addr in6, in6_mask;

    struct ovs_mutex mutex;
    struct netdev_rxq_dummy *rxq;       /* Open receive queue, or NULL. */
    struct dp_packet *rx_queue[DUMMY_RXQ_MAX];  /* FIFO, heap packets. */
    size_t rx_head, rx_count;
    char *rx_pcap_name, *tx_pcap_name;  /* Option values, or NULL. */
    FILE *rx_pcap, *tx_pcap;            /* May be the same file. */
    struct dummy_link *link;            /* The cable, or NULL. */

    /* In 'linked_devices' while 'link' is nonnull (main thread). */
    struct ovs_list link_node;
};

struct netdev_rxq_dummy {
    struct netdev_rxq up;
    int event_fd;                       /* Readable while packets wait. */
    struct dp_packet_batch held;        /* Returned by the last recv. */
};

/* Every open dummy device, for the ovs-appctl commands. */
static struct ovs_list dummy_devices = OVS_LIST_INITIALIZER(&dummy_devices);

/* The devices with a cable: the only ones netdev_dummy_run() visits.  A
 * send that queued something for a cable changes 'link_seq', so that the
 * main thread wakes to deliver it. */
static struct ovs_list linked_devices = OVS_LIST_INITIALIZER(&linked_devices);
static struct seq *link_seq;
static uint64_t link_seqno;

static struct netdev_dummy *
netdev_dummy_cast(const struct netdev *netdev)
{
    ovs_assert(netdev->netdev_class == &netdev_dummy_class);
    return CONTAINER_OF(netdev, struct netdev_dummy, up);
}

static struct netdev *
netdev_dummy_alloc(void)
{
    struct netdev_dummy *dev = xzalloc(sizeof *dev);
    return &dev->up;
}

static int
netdev_dummy_construct(struct netdev *netdev)
{
    /* Addresses count up from aa:55:aa:55:00:00 over the last four bytes,
     * so the first 256 devices differ only in the last byte, as in Open
     * vSwitch (whose test expectations name these addresses). */
    static uint32_t next_n = 0xaa550000;
    struct netdev_dummy *dev = netdev_dummy_cast(netdev);
    uint32_t n = next_n++;

    dev->hwaddr = (struct eth_addr) { { 0xaa, 0x55, n >> 24, n >> 16,
                                        n >> 8, n } };
    dev->mtu = 1500;
    dev->flags = 0;
    dev->carrier = true;
    ovs_mutex_init(&dev->mutex);
    ovs_list_push_back(&dummy_devices, &dev->list_node);
    ovs_list_init(&dev->link_node);
    return 0;
}

static void
close_pcaps(struct netdev_dummy *dev)
{
    if (dev->tx_pcap && dev->tx_pcap != dev->rx_pcap) {
        fclose(dev->tx_pcap);
    }
    if (dev->rx_pcap) {
        fclose(dev->rx_pcap);
    }
    dev->rx_pcap = dev->tx_pcap = NULL;
    free(dev->rx_pcap_name);
    free(dev->tx_pcap_name);
    dev->rx_pcap_name = dev->tx_pcap_name = NULL;
}

static void
netdev_dummy_destruct(struct netdev *netdev)
{
    struct netdev_dummy *dev = netdev_dummy_cast(netdev);
    ovs_list_remove(&dev->list_node);
    ovs_list_remove(&dev->link_node);
    dummy_link_close(dev->link);
    for (size_t i = 0; i < dev->rx_count; i++) {
        dp_packet_delete(dev->rx_queue[(dev->rx_head + i) % DUMMY_RXQ_MAX]);
    }
    close_pcaps(dev);
    ovs_mutex_destroy(&dev->mutex);
}

static bool
same_name(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

static bool netdev_dummy_links_settled(void);

/* Gives DEV the cable NAME (listening if PASSIVE), or none if NAME is
 * NULL; keeps the one it has if that is the same.  Main thread. */
static int
netdev_dummy_set_link(struct netdev_dummy *dev, const char *name,
                      bool passive, char **errp)
{
    struct dummy_link *old = dev->link;
    if (old && name && passive == dummy_link_is_passive(old)
        && !strcmp(name, dummy_link_name(old))) {
        return 0;
    }
    if (!old && !name) {
        return 0;
    }
    struct dummy_link *new = NULL;
    if (name) {
        int error = dummy_link_open(name, passive, &new, errp);
        if (error) {
            return error;
        }
    }
    ovs_mutex_lock(&dev->mutex);
    dev->link = new;
    ovs_mutex_unlock(&dev->mutex);
    dummy_link_close(old);
    ovs_list_remove(&dev->link_node);
    ovs_list_init(&dev->link_node);
    if (new) {
        if (!link_seq) {
            link_seq = seq_create();
            timeval_add_warp_gate(netdev_dummy_links_settled);
        }
        ovs_list_push_back(&linked_devices, &dev->link_node);
    }
    return 0;
}

static int
netdev_dummy_set_config(struct netdev *netdev, const struct smap *options,
                        char **errp)
{
    struct netdev_dummy *dev = netdev_dummy_cast(netdev);
    const char *pcap = NULL, *rx = NULL, *tx = NULL;
    const char *pstream = NULL, *stream = NULL;

    /* In sorted order, so that an error names the same key every time. */
    const struct smap_node **sorted = options ? smap_sort(options) : NULL;
    for (size_t i = 0; options && i < smap_count(options); i++) {
        const struct smap_node *node = sorted[i];
        if (!strcmp(node->key, "pcap")) {
            pcap = node->value;
        } else if (!strcmp(node->key, "rx_pcap")) {
            rx = node->value;
        } else if (!strcmp(node->key, "tx_pcap")) {
            tx = node->value;
        } else if (!strcmp(node->key, "pstream")) {
            pstream = node->value;
        } else if (!strcmp(node->key, "stream")) {
            stream = node->value;
        } else {
            *errp = xasprintf("%s: unknown option %s", netdev->name,
                              node->key);
            free(sorted);
            return EINVAL;
        }
    }
    free(sorted);
    if (pcap) {
        rx = tx = pcap;
    }
    if (pstream && stream) {
        *errp = xasprintf("%s: cannot both listen (pstream=%s) and connect "
                          "(stream=%s)", netdev->name, pstream, stream);
        return EINVAL;
    }

    ovs_mutex_lock(&dev->mutex);
    int error = 0;
    if (!same_name(rx, dev->rx_pcap_name)
        || !same_name(tx, dev->tx_pcap_name)) {
        FILE *rx_file = NULL, *tx_file = NULL;
        const char *bad = NULL;
        if (rx && !(rx_file = pcap_open_write(rx))) {
            bad = rx;
        } else if (tx && !(tx_file = (rx && !strcmp(rx, tx)
                                      ? rx_file : pcap_open_write(tx)))) {
            bad = tx;
        }
        if (bad) {
            error = errno;
            *errp = xasprintf("%s: could not open %s (%s)", netdev->name,
                              bad, ovs_strerror(error));
            if (rx_file) {
                fclose(rx_file);
            }
        } else {
            close_pcaps(dev);
            dev->rx_pcap = rx_file;
            dev->tx_pcap = tx_file;
            dev->rx_pcap_name = rx ? xstrdup(rx) : NULL;
            dev->tx_pcap_name = tx ? xstrdup(tx) : NULL;
        }
    }
    ovs_mutex_unlock(&dev->mutex);
    if (!error) {
        error = netdev_dummy_set_link(dev, pstream ? pstream : stream,
                                      pstream != NULL, errp);
    }
    return error;
}

static int
netdev_dummy_rxq_open(struct netdev *netdev, struct netdev_rxq **rxqp)
{
    struct netdev_dummy *dev = netdev_dummy_cast(netdev);

    ovs_mutex_lock(&dev->mutex);
    if (dev->rxq) {
        ovs_mutex_unlock(&dev->mutex);
        return EBUSY;
    }
    struct netdev_rxq_dummy *rxq = xzalloc(sizeof *rxq);
    rxq->event_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (rxq->event_fd < 0) {
        int error = errno;
        ovs_mutex_unlock(&dev->mutex);
        free(rxq);
        return error;
    }
    dp_packet_batch_init(&rxq->held);
    dev->rxq = rxq;
    if (dev->rx_count) {
        uint64_t one = 1;
        ignore(write(rxq->event_fd, &one, sizeof one));
    }
    ovs_mutex_unlock(&dev->mutex);
    *rxqp = &rxq->up;
    return 0;
}

static struct netdev_rxq_dummy *
netdev_rxq_dummy_cast(const struct netdev_rxq *rxq)
{
    return CONTAINER_OF((struct netdev_rxq *) rxq, struct netdev_rxq_dummy,
                        up);
}

static void
netdev_dummy_rxq_close(struct netdev_rxq *rxq_)
{
    struct netdev_rxq_dummy *rxq = netdev_rxq_dummy_cast(rxq_);
    struct netdev_dummy *dev = netdev_dummy_cast(rxq_->netdev);

    ovs_mutex_lock(&dev->mutex);
    dev->rxq = NULL;
    ovs_mutex_unlock(&dev->mutex);
    dp_packet_batch_delete(&rxq->held);
    close(rxq->event_fd);
    free(rxq);
}

static int
netdev_dummy_rxq_fd(const struct netdev_rxq *rxq)
{
    return netdev_rxq_dummy_cast(rxq)->event_fd;
}

static int
netdev_dummy_rxq_recv(struct netdev_rxq *rxq_, struct dp_packet_batch *batch)
{
    struct netdev_rxq_dummy *rxq = netdev_rxq_dummy_cast(rxq_);
    struct netdev_dummy *dev = netdev_dummy_cast(rxq_->netdev);
    uint64_t value;

    dp_packet_batch_delete(&rxq->held);
    ignore(read(rxq->event_fd, &value, sizeof value));

    ovs_mutex_lock(&dev->mutex);
    while (dev->rx_count && !dp_packet_batch_is_full(&rxq->held)) {
        dp_packet_batch_add(&rxq->held, dev->rx_queue[dev->rx_head]);
        dev->rx_head = (dev->rx_head + 1) % DUMMY_RXQ_MAX;
        dev->rx_count--;
    }
    if (dev->rx_count) {
        /* Stay readable for the rest. */
        value = 1;
        ignore(write(rxq->event_fd, &value, sizeof value));
    }
    ovs_mutex_unlock(&dev->mutex);

    *batch = rxq->held;
    return batch->count ? 0 : EAGAIN;
}

static size_t
netdev_dummy_send(struct netdev *netdev, const struct dp_packet_batch *batch,
                  int *errorp)
{
    struct netdev_dummy *dev = netdev_dummy_cast(netdev);

    *errorp = 0;
    bool queued = false;
    ovs_mutex_lock(&dev->mutex);
    for (size_t i = 0; i < batch->count; i++) {
        if (dev->tx_pcap) {
            pcap_write(dev->tx_pcap, batch->packets[i]);
        }
        if (dev->link) {
            queued |= dummy_link_send(dev->link, batch->packets[i]);
        }
    }
    ovs_mutex_unlock(&dev->mutex);
    if (queued) {
        seq_change(link_seq);
    }
    return batch->count;
}

/* Queues PACKET (taking it) as received on DEV. */
static void
netdev_dummy_queue_rx(struct netdev_dummy *dev, struct dp_packet *packet)
{
    ovs_mutex_lock(&dev->mutex);
    if (dev->rx_pcap) {
        pcap_write(dev->rx_pcap, packet);
    }
    if (!dev->rxq || dev->rx_count >= DUMMY_RXQ_MAX) {
        ovs_mutex_unlock(&dev->mutex);
        COVERAGE_INC(netdev_dummy_rx_dropped);
        dp_packet_delete(packet);
        return;
    }
    dev->rx_queue[(dev->rx_head + dev->rx_count++) % DUMMY_RXQ_MAX] = packet;
    uint64_t one = 1;
    ignore(write(dev->rxq->event_fd, &one, sizeof one));
    ovs_mutex_unlock(&dev->mutex);
}

static void
netdev_dummy_dealloc(struct netdev *netdev)
{
    free(netdev_dummy_cast(netdev));
}

static int
netdev_dummy_get_etheraddr(const struct netdev *netdev, struct eth_addr *ea)
{
    *ea = netdev_dummy_cast(netdev)->hwaddr;
    return 0;
}

static int
netdev_dummy_set_etheraddr(struct netdev *netdev, struct eth_addr ea)
{
    struct netdev_dummy *dev = netdev_dummy_cast(netdev);
    if (!eth_addr_equals(dev->hwaddr, ea)) {
        dev->hwaddr = ea;
        netdev_change_seq_changed(netdev);
    }
    return 0;
}

static int
netdev_dummy_get_mtu(const struct netdev *netdev, int *mtup)
{
    *mtup = netdev_dummy_cast(netdev)->mtu;
    return 0;
}

static int
netdev_dummy_set_mtu(struct netdev *netdev, int mtu)
{
    struct netdev_dummy *dev = netdev_dummy_cast(netdev);

    if (mtu < DUMMY_MIN_MTU || mtu > DUMMY_MAX_MTU) {
        return EINVAL;
    }
    if (dev->mtu != mtu) {
        dev->mtu = mtu;
        netdev_change_seq_changed(netdev);
    }
    return 0;
}

static int
netdev_dummy_get_ifindex(const struct netdev *netdev OVS_UNUSED)
{
    return -EOPNOTSUPP;
}

static bool
netdev_dummy_get_carrier(const struct netdev *netdev)
{
    return netdev_dummy_cast(netdev)->carrier;
}

static int
netdev_dummy_get_flags(const struct netdev *netdev, enum netdev_flags *flags)
{
    *flags = netdev_dummy_cast(netdev)->flags;
    return 0;
}

static int
netdev_dummy_update_flags(struct netdev *netdev, enum netdev_flags off,
                          enum netdev_flags on)
{
    struct netdev_dummy *dev = netdev_dummy_cast(netdev);
    enum netdev_flags new = (dev->flags & ~off) | on;

    if (new != dev->flags) {
        dev->flags = new;
        netdev_change_seq_changed(netdev);
    }
    return 0;
}

static void
netdev_dummy_set_carrier(struct netdev_dummy *dev, bool carrier)
{
    if (dev->carrier != carrier) {
        dev->carrier = carrier;
        netdev_change_seq_changed(&dev->up);
    }
}

static size_t
netdev_dummy_get_custom_stats(const struct netdev *netdev OVS_UNUSED,
                              const struct netdev_stats *stats,
                              struct netdev_custom_counter *counters,
                              size_t max)
{
    /* One receive and one transmit queue: theirs are the device's. */
    const struct netdev_custom_counter all[] = {
        { "rx_custom_packets_1", stats->rx_packets },
        { "rx_custom_packets_2", stats->rx_packets },
        { "rx_q0_bytes", stats->rx_bytes },
        { "rx_q0_packets", stats->rx_packets },
        { "tx_q0_bytes", stats->tx_bytes },
        { "tx_q0_packets", stats->tx_packets },
    };
    for (size_t i = 0; i < MIN(max, ARRAY_SIZE(all)); i++) {
        counters[i] = all[i];
    }
    return ARRAY_SIZE(all);
}

static int
netdev_dummy_get_addr_list(const struct netdev *netdev,
                           struct in6_addr **addrs, struct in6_addr **masks,
                           size_t *n)
{
    const struct netdev_dummy *dev = netdev_dummy_cast(netdev);
    *addrs = xcalloc(2, sizeof **addrs);
    *masks = xcalloc(2, sizeof **masks);
    *n = 0;
    if (!ipv6_addr_is_zero(&dev->in4)) {
        (*addrs)[*n] = dev->in4;
        (*masks)[(*n)++] = dev->in4_mask;
    }
    if (!ipv6_addr_is_zero(&dev->in6)) {
        (*addrs)[*n] = dev->in6;
        (*masks)[(*n)++] = dev->in6_mask;
    }
    if (!*n) {
        free(*addrs);
        free(*masks);
        *addrs = *masks = NULL;
        return EADDRNOTAVAIL;
    }
    return 0;
}

const struct netdev_class netdev_dummy_class = {
    .type = "dummy",
    .restore_flags = false,     /* The device dies with us. */
    .no_error_counters = true,
    .alloc = netdev_dummy_alloc,
    .construct = netdev_dummy_construct,
    .destruct = netdev_dummy_destruct,
    .dealloc = netdev_dummy_dealloc,
    .set_config = netdev_dummy_set_config,
    .get_etheraddr = netdev_dummy_get_etheraddr,
    .set_etheraddr = netdev_dummy_set_etheraddr,
    .get_mtu = netdev_dummy_get_mtu,
    .set_mtu = netdev_dummy_set_mtu,
    .get_ifindex = netdev_dummy_get_ifindex,
    .get_carrier = netdev_dummy_get_carrier,
    .get_flags = netdev_dummy_get_flags,
    .update_flags = netdev_dummy_update_flags,
    .rxq_open = netdev_dummy_rxq_open,
    .rxq_close = netdev_dummy_rxq_close,
    .rxq_fd = netdev_dummy_rxq_fd,
    .rxq_recv = netdev_dummy_rxq_recv,
    .send = netdev_dummy_send,
    .get_custom_stats = netdev_dummy_get_custom_stats,
    .get_addr_list = netdev_dummy_get_addr_list,
};

/* Cables. */

void
netdev_dummy_run(void)
{
    if (!link_seq) {
        return;
    }
    link_seqno = seq_read(link_seq);
    /* Both ends of a cable are often in this process: what one pass
     * writes, the next reads, so a frame crosses in one run. */
    bool moved = true;
    for (int pass = 0; moved && pass < 4; pass++) {
        moved = false;
        struct netdev_dummy *dev;
        LIST_FOR_EACH (dev, link_node, &linked_devices) {
            struct dp_packet_batch rx;
            dp_packet_batch_init(&rx);
            ovs_mutex_lock(&dev->mutex);
            bool more = dummy_link_run(dev->link, &rx);
            ovs_mutex_unlock(&dev->mutex);
            for (size_t i = 0; i < rx.count; i++) {
                netdev_dummy_queue_rx(dev, rx.packets[i]);
            }
            moved |= rx.count > 0;
            if (more) {
                poll_immediate_wake();
            }
        }
    }
}

/* The warp gate (timeval.h): a simulated clock's next step waits until
 * the cables have delivered what was sent at this time and the datapath
 * took it, as the real time it stands for would have let them. */
static bool
netdev_dummy_links_settled(void)
{
    if (seq_read(link_seq) != link_seqno) {
        return false;
    }
    struct netdev_dummy *dev;
    LIST_FOR_EACH (dev, link_node, &linked_devices) {
        ovs_mutex_lock(&dev->mutex);
        bool settled = dummy_link_is_idle(dev->link) && !dev->rx_count;
        ovs_mutex_unlock(&dev->mutex);
        if (!settled) {
            return false;
        }
    }
    return true;
}

void
netdev_dummy_wait(void)
{
    if (!link_seq) {
        return;
    }
    seq_wait(link_seq, link_seqno);
    struct netdev_dummy *dev;
    LIST_FOR_EACH (dev, link_node, &linked_devices) {
        ovs_mutex_lock(&dev->mutex);
        dummy_link_wait(dev->link);
        ovs_mutex_unlock(&dev->mutex);
    }
}

/* ovs-appctl commands. */

static struct netdev_dummy *
netdev_dummy_find(const char *name)
{
    struct netdev_dummy *dev;
    LIST_FOR_EACH (dev, list_node, &dummy_devices) {
        if (!strcmp(dev->up.name, name)) {
            return dev;
        }
    }
    return NULL;
}

/* Parses "up" or "down" into *UP. */
static bool
parse_up_down(const char *s, bool *up)
{
    if (!strcasecmp(s, "up")) {
        *up = true;
    } else if (!strcasecmp(s, "down")) {
        *up = false;
    } else {
        return false;
    }
    return true;
}

static void
set_admin_state(struct netdev_dummy *dev, bool up)
{
    netdev_dummy_update_flags(&dev->up, up ? 0 : NETDEV_UP,
                              up ? NETDEV_UP : 0);
}

/* Applies SET (with UP) to the device named in ARGV[1] when ARGC > 2, or
 * to every dummy device, and replies; ARGV[ARGC - 1] is "up" or "down"
 * (otherwise replies BAD_STATE). */
static void
apply_up_down_cmd(struct unixctl_conn *conn, int argc, const char *argv[],
                  void (*set)(struct netdev_dummy *, bool up),
                  const char *bad_state)
{
    bool up;

    if (!parse_up_down(argv[argc - 1], &up)) {
        unixctl_command_reply_error(conn, bad_state);
        return;
    }
    if (argc > 2) {
        struct netdev_dummy *dev = netdev_dummy_find(argv[1]);
        if (!dev) {
            unixctl_command_reply_error(conn, "Unknown Dummy Interface");
            return;
        }
        set(dev, up);
    } else {
        struct netdev_dummy *dev;
        LIST_FOR_EACH (dev, list_node, &dummy_devices) {
            set(dev, up);
        }
    }
    unixctl_command_reply(conn, "OK");
}

static void
netdev_dummy_set_admin_state_cmd(struct unixctl_conn *conn, int argc,
                                 const char *argv[], void *aux OVS_UNUSED)
{
    apply_up_down_cmd(conn, argc, argv, set_admin_state,
                      "Invalid Admin State");
}

static void
netdev_dummy_carrier_cmd(struct unixctl_conn *conn, int argc,
                         const char *argv[], void *aux OVS_UNUSED)
{
    bool up;

    if (argc == 2 && !parse_up_down(argv[1], &up)) {
        /* "netdev-dummy/carrier NETDEV": a query. */
        struct netdev_dummy *dev = netdev_dummy_find(argv[1]);
        if (!dev) {
            unixctl_command_reply_error(conn, "Unknown Dummy Interface");
        } else {
            unixctl_command_reply(conn, dev->carrier ? "up" : "down");
        }
        return;
    }
    apply_up_down_cmd(conn, argc, argv, netdev_dummy_set_carrier,
                      "Invalid Carrier State");
}

int
netdev_dummy_inject(struct netdev *netdev, struct dp_packet *packet)
{
    if (netdev->netdev_class != &netdev_dummy_class) {
        dp_packet_delete(packet);
        return EINVAL;
    }
    netdev_dummy_queue_rx(netdev_dummy_cast(netdev), packet);
    return 0;
}

/* Parses S, a packet in hex or a flow, into a new packet; a flow's packet
 * is LEN bytes long if LEN is nonzero.  Returns NULL and sets *ERRP if S is
 * neither or LEN does not fit. */
static struct dp_packet *
parse_packet(const char *s, size_t len, char **errp)
{
    struct ofpbuf buf;
    ofpbuf_init(&buf, 128);
    const char *end = ofpbuf_put_hex(&buf, s, NULL);
    struct dp_packet *packet = NULL;
    if (*end) {
        struct flow flow;
        struct flow_wildcards mask;
        char *error = odp_flow_from_string(s, NULL, &flow, &mask);
        if (error) {
            *errp = xasprintf("bad packet: neither hex bytes nor a flow "
                              "(%s)", error);
            free(error);
        } else {
            packet = dp_packet_new(128);
            if (!len) {
                flow_compose(packet, &flow,
                             flow_compose_default_l7_len(&flow));
            } else if (!flow_compose_sized(packet, &flow, len)) {
                *errp = xasprintf("--len %zu is shorter than the packet's "
                                  "%"PRIu32" bytes of headers", len,
                                  dp_packet_size(packet));
                dp_packet_delete(packet);
                packet = NULL;
            }
        }
    } else if (!buf.size) {
        *errp = xstrdup("bad packet: empty");
    } else if (len) {
        *errp = xstrdup("--len applies only to a packet given as a flow");
    } else {
        packet = dp_packet_clone_data(buf.data, buf.size);
    }
    ofpbuf_uninit(&buf);
    return packet;
}

static void
netdev_dummy_receive_cmd(struct unixctl_conn *conn, int argc,
                         const char *argv[], void *aux OVS_UNUSED)
{
    struct netdev_dummy *dev = netdev_dummy_find(argv[1]);
    if (!dev) {
        unixctl_command_reply_error(conn, "no such dummy netdev");
        return;
    }

    /* Parse everything first: a bad packet injects nothing. */
    struct dp_packet_batch batch;
    dp_packet_batch_init(&batch);
    char *error = NULL;
    int i = 2;
    if (i + 1 < argc && !strcmp(argv[i], "--qid")) {
        unsigned int qid;
        if (!str_to_uint(argv[i + 1], 10, &qid) || qid != 0) {
            error = xasprintf("bad rx queue id %s (a dummy device has one "
                              "receive queue, 0)", argv[i + 1]);
        }
        i += 2;
    }
    while (!error && i < argc) {
        const char *packet_s = argv[i++];
        unsigned int len = 0;
        if (i < argc && !strcmp(argv[i], "--len")) {
            if (i + 1 >= argc || !str_to_uint(argv[i + 1], 10, &len)
                || len < ETH_TOTAL_MIN) {
                error = xasprintf("--len needs a packet length of at least "
                                  "%d bytes", ETH_TOTAL_MIN);
                break;
            }
            i += 2;
        }
        if (dp_packet_batch_is_full(&batch)) {
            error = xasprintf("at most %d packets per command",
                              NETDEV_MAX_BURST);
            break;
        }
        struct dp_packet *packet = parse_packet(packet_s, len, &error);
        if (packet) {
            dp_packet_batch_add(&batch, packet);
        }
    }
    if (!error && !batch.count) {
        error = xstrdup("no packet to receive");
    }
    if (error) {
        dp_packet_batch_delete(&batch);
        unixctl_command_reply_error(conn, error);
        free(error);
        return;
    }
    for (size_t j = 0; j < batch.count; j++) {
        netdev_dummy_queue_rx(dev, batch.packets[j]);
    }
    unixctl_command_reply(conn, NULL);
}

int
netdev_dummy_set_addr(struct netdev *netdev, const struct in6_addr *addr,
                      unsigned int plen)
{
    if (netdev->netdev_class != &netdev_dummy_class || plen > 128) {
        return EINVAL;
    }
    struct netdev_dummy *dev = netdev_dummy_cast(netdev);
    struct in6_addr mask = ipv6_create_mask(plen);
    if (in6_addr_get_mapped_ipv4(addr, NULL)) {
        dev->in4 = *addr;
        dev->in4_mask = mask;
    } else {
        dev->in6 = *addr;
        dev->in6_mask = mask;
    }
    netdev_change_seq_changed(netdev);
    return 0;
}

/* netdev-dummy/ip4addr NAME A.B.C.D/PLEN and ip6addr NAME X::Y/PLEN:
 * give the dummy device NAME its (one) address of that family. */
static void
netdev_dummy_ipaddr_cmd(struct unixctl_conn *conn, int argc OVS_UNUSED,
                        const char *argv[], void *ipv6_)
{
    bool ipv6 = ipv6_ != NULL;
    struct netdev_dummy *dev = netdev_dummy_find(argv[1]);
    if (!dev) {
        unixctl_command_reply_error(conn, "Unknown Dummy Interface");
        return;
    }
    struct in6_addr addr;
    unsigned int plen;
    char *error;
    if (ipv6) {
        error = ipv6_parse_cidr(argv[2], &addr, &plen);
    } else {
        ovs_be32 ip;
        error = ip_parse_cidr(argv[2], &ip, &plen);
        addr = in6_addr_mapped_ipv4(ip);
        plen += 96;
    }
    if (error) {
        unixctl_command_reply_error(conn, error);
        free(error);
        return;
    }
    netdev_dummy_set_addr(&dev->up, &addr, plen);
    unixctl_command_reply(conn, "OK");
}

static void
put_conn_state(struct ds *s, struct netdev_dummy *dev)
{
    ovs_mutex_lock(&dev->mutex);
    const char *state = (!dev->link || dummy_link_is_passive(dev->link)
                         ? "unknown"
                         : dummy_link_is_connected(dev->link) ? "connected"
                         : "disconnected");
    ovs_mutex_unlock(&dev->mutex);
    ds_put_format(s, "%s: %s\n", dev->up.name, state);
}

static void
netdev_dummy_conn_state_cmd(struct unixctl_conn *conn, int argc,
                            const char *argv[], void *aux OVS_UNUSED)
{
    struct ds s = DS_EMPTY_INITIALIZER;
    if (argc > 1) {
        struct netdev_dummy *dev = netdev_dummy_find(argv[1]);
        if (dev) {
            put_conn_state(&s, dev);
        } else {
            ds_put_format(&s, "%s: unknown\n", argv[1]);
        }
    } else {
        struct netdev_dummy *dev;
        LIST_FOR_EACH (dev, link_node, &linked_devices) {
            if (!dummy_link_is_passive(dev->link)) {
                put_conn_state(&s, dev);
            }
        }
    }
    unixctl_command_reply(conn, ds_cstr(&s));
    ds_destroy(&s);
}

void
netdev_dummy_register_commands(void)
{
    unixctl_command_register("netdev-dummy/conn-state", "[netdev]", 0, 1,
                             netdev_dummy_conn_state_cmd, NULL);
    unixctl_command_register("netdev-dummy/ip4addr", "[netdev] ipaddr/mask",
                             2, 2, netdev_dummy_ipaddr_cmd, NULL);
    unixctl_command_register("netdev-dummy/ip6addr", "[netdev] ip6addr",
                             2, 2, netdev_dummy_ipaddr_cmd, (void *) 1);
    unixctl_command_register("netdev-dummy/receive",
                             "name [--qid queue_id] packet|flow "
                             "[--len number]...",
                             2, INT_MAX, netdev_dummy_receive_cmd, NULL);
    unixctl_command_register("netdev-dummy/set-admin-state",
                             "[netdev] up|down", 1, 2,
                             netdev_dummy_set_admin_state_cmd, NULL);
    unixctl_command_register("netdev-dummy/carrier",
                             "[netdev] [up|down]", 1, 2,
                             netdev_dummy_carrier_cmd, NULL);
}
