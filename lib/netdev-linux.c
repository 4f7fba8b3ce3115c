/* netdev-linux: the Linux device types "system", "internal" and "tap".
 *
 *   "system"    an existing device, found by name.
 *   "internal"  a tap device we create through /dev/net/tun (exclusively:
 *               an existing device of that name is an error) and bring up.
 *               We keep its file descriptor, so the kernel sees a reader
 *               (carrier up) and removes the device when we close it.
 *   "tap"       an existing tap device, treated like "system" (we do not
 *               attach to it).
 *
 * Everything goes through ioctl()s on one AF_INET datagram socket, which
 * work in whatever network namespace the process is in (unlike /sys, which
 * shows the namespace it was mounted in): SIOCGIFINDEX, SIOC[GS]IFHWADDR,
 * SIOC[GS]IFMTU, SIOC[GS]IFFLAGS, SIOCETHTOOL (carrier from ETHTOOL_GLINK,
 * else IFF_RUNNING; the driver name to recognize a tap).
 *
 * Properties are read from the kernel on every call, and each device
 * remembers the values it last saw, so that a getter that notices a
 * change made by someone else (ip link set ...) moves the change
 * sequence.  The link monitor makes that happen at once: a NETLINK_ROUTE
 * socket subscribed to RTMGRP_LINK, watched by the main loop
 * (netdev_run()/netdev_wait()), re-reads every open device the kernel
 * reports a link message for.  None of these types takes options.
 *
 * MII monitoring (netdev_set_miimon_interval(), a bond's
 * bond-detect-mode=miimon): for a driver whose link changes the kernel
 * may not report, the device's link is polled every interval, from the
 * PHY's status register (SIOCGMIIPHY, SIOCGMIIREG BMSR) or, where the
 * driver has no MII, ETHTOOL_GLINK; its carrier is then the last poll's,
 * and a change moves the change sequence.  The polled devices wait on a
 * timer heap that the main loop runs, so its cost follows the devices
 * that are due, not all open devices.
 *
 * Packet I/O:
 *
 *   "system"    an AF_PACKET socket bound to the device, TPACKET_V3: the
 *               kernel fills blocks of a ring we map, and a receive hands
 *               out the frames of ready blocks in place (a block goes back
 *               to the kernel at the next receive, once the datapath is
 *               done with its frames).  VLAN tags that the kernel took off
 *               into the frame's metadata are put back.  Sends use
 *               sendmmsg(), one system call per batch.  Our own
 *               transmissions are not received (PACKET_IGNORE_OUTGOING).
 *   "internal", "tap"
 *               the tap's fd ("tap": attached with TUNSETIFF), read until a
 *               batch is full or the fd would block, written per packet.
 *
 * The rings need the devices' offloads that make packets bigger than the
 * MTU (TSO, GSO, GRO) off on the devices sending to us; the datapath does
 * not segment. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/ethtool.h>
#include <linux/mii.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/if_tun.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdio.h>
#include <net/if_arp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>
#include "coverage.h"
#include "dp-packet.h"
#include "heap.h"
#include "netdev-provider.h"
#include "poll-loop.h"
#include "timeval.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(netdev_linux);

COVERAGE_DEFINE(netdev_miimon_poll);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

struct netdev_linux {
    struct netdev up;
    int tap_fd;                 /* "internal": our tap's fd; otherwise -1. */
    atomic_int tx_fd;           /* For sending, opened on first use. */

    /* What the getters saw last, to notice changes made by others. */
    bool have_hwaddr, have_mtu, have_flags;
    struct eth_addr hwaddr;
    int mtu;
    unsigned int ifi_flags;     /* IFF_UP | IFF_PROMISC | IFF_RUNNING. */

    /* MII monitoring (main thread): the interval (ms, 0: off), the link
     * the last poll saw, and the node in miimon_heap, keyed by the next
     * poll's time. */
    long long int miimon_interval;
    bool miimon_link;
    struct heap_node miimon_node;
};

#define OBSERVED_IFF (IFF_UP | IFF_PROMISC | IFF_RUNNING)

static bool
is_netdev_linux_class(const struct netdev_class *class)
{
    return (class == &netdev_linux_class
            || class == &netdev_internal_class
            || class == &netdev_tap_class);
}

/* The getters take a const netdev but update the remembered values, which
 * are a cache, not part of the device's observable state. */
static struct netdev_linux *
netdev_linux_cast(const struct netdev *netdev)
{
    ovs_assert(is_netdev_linux_class(netdev->netdev_class));
    return CONTAINER_OF((struct netdev *) netdev, struct netdev_linux, up);
}

/* The ioctl socket.  A socket belongs to the network namespace it was
 * created in, so a forked child (which may go on to unshare its network
 * namespace, as the tests do) must not reuse its parent's. */
static int ioctl_sock = -1;

static void
ioctl_sock_forget(void)
{
    if (ioctl_sock >= 0) {
        close(ioctl_sock);
        ioctl_sock = -1;
    }
}

static int
get_ioctl_sock(void)
{
    static bool registered;

    if (!registered) {
        registered = true;
        pthread_atfork(NULL, NULL, ioctl_sock_forget);
    }
    if (ioctl_sock < 0) {
        ioctl_sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        if (ioctl_sock < 0) {
            int error = errno;
            VLOG_ERR_RL(&rl, "could not create ioctl socket (%s)",
                        ovs_strerror(error));
            return -error;
        }
    }
    return ioctl_sock;
}

/* Copies NAME into DST, a struct ifreq's name field.  Names that do not fit
 * were refused when the device was opened. */
static void
copy_ifname(char dst[IFNAMSIZ], const char *name)
{
    size_t len = strnlen(name, IFNAMSIZ - 1);
    memcpy(dst, name, len);
    dst[len] = '\0';
}

/* Issues CMD for device NAME with *IFR; returns 0 or a positive errno. */
static int
do_ioctl(const char *name, unsigned long cmd, const char *cmd_name,
         struct ifreq *ifr)
{
    int sock = get_ioctl_sock();
    if (sock < 0) {
        return -sock;
    }

    copy_ifname(ifr->ifr_name, name);
    if (ioctl(sock, cmd, ifr) < 0) {
        int error = errno;
        if (error != ENODEV) {
            VLOG_DBG_RL(&rl, "%s: ioctl(%s) failed (%s)",
                        name, cmd_name, ovs_strerror(error));
        }
        return error;
    }
    return 0;
}

static int
get_ifi_flags(const char *name, unsigned int *flags)
{
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    int error = do_ioctl(name, SIOCGIFFLAGS, "SIOCGIFFLAGS", &ifr);
    *flags = error ? 0 : (unsigned short) ifr.ifr_flags;
    return error;
}

static int
set_ifi_flags(const char *name, unsigned int flags)
{
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    ifr.ifr_flags = flags;
    return do_ioctl(name, SIOCSIFFLAGS, "SIOCSIFFLAGS", &ifr);
}

/* Remembers FLAGS as the last seen, moving the change seq if they differ
 * from what we saw before. */
static void
observe_flags(struct netdev_linux *dev, unsigned int flags)
{
    flags &= OBSERVED_IFF;
    if (dev->have_flags && flags != dev->ifi_flags) {
        netdev_change_seq_changed(&dev->up);
    }
    dev->ifi_flags = flags;
    dev->have_flags = true;
}

static void
observe_mtu(struct netdev_linux *dev, int mtu)
{
    if (dev->have_mtu && mtu != dev->mtu) {
        netdev_change_seq_changed(&dev->up);
    }
    dev->mtu = mtu;
    dev->have_mtu = true;
}

static void
observe_hwaddr(struct netdev_linux *dev, struct eth_addr ea)
{
    if (dev->have_hwaddr && !eth_addr_equals(ea, dev->hwaddr)) {
        netdev_change_seq_changed(&dev->up);
    }
    dev->hwaddr = ea;
    dev->have_hwaddr = true;
}

static void miimon_forget(struct netdev_linux *);

static struct netdev *
netdev_linux_alloc(void)
{
    struct netdev_linux *dev = xzalloc(sizeof *dev);
    dev->tap_fd = -1;
    atomic_init(&dev->tx_fd, -1);
    heap_node_init(&dev->miimon_node);
    return &dev->up;
}

static void
netdev_linux_dealloc(struct netdev *netdev)
{
    struct netdev_linux *dev = netdev_linux_cast(netdev);
    int tx_fd = atomic_load(&dev->tx_fd);
    if (tx_fd >= 0) {
        close(tx_fd);
    }
    free(dev);
}

/* Reads every property once, so later reads can tell what changed. */
static void
prime_cache(struct netdev *netdev)
{
    struct eth_addr ea;
    enum netdev_flags flags;
    int mtu;

    netdev->netdev_class->get_etheraddr(netdev, &ea);
    netdev->netdev_class->get_mtu(netdev, &mtu);
    netdev->netdev_class->get_flags(netdev, &flags);
}

static int
netdev_linux_construct(struct netdev *netdev)
{
    if (strlen(netdev->name) >= IFNAMSIZ) {
        return ENODEV;
    }

    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    int error = do_ioctl(netdev->name, SIOCGIFINDEX, "SIOCGIFINDEX", &ifr);
    if (error) {
        return error;
    }
    prime_cache(netdev);
    return 0;
}

static void
netdev_linux_destruct(struct netdev *netdev)
{
    miimon_forget(netdev_linux_cast(netdev));
}

/* Returns 0 if NAME is a tap (driver "tun", Ethernet framing), else ENODEV
 * or EINVAL. */
static int
check_is_tap(const char *name)
{
    struct ethtool_drvinfo drvinfo;
    struct ifreq ifr;

    memset(&drvinfo, 0, sizeof drvinfo);
    drvinfo.cmd = ETHTOOL_GDRVINFO;
    memset(&ifr, 0, sizeof ifr);
    ifr.ifr_data = (void *) &drvinfo;
    int error = do_ioctl(name, SIOCETHTOOL, "SIOCETHTOOL", &ifr);
    if (error == ENODEV) {
        return error;
    }
    if (error || strcmp(drvinfo.driver, "tun")) {
        VLOG_WARN("%s: not a tap device", name);
        return EINVAL;
    }

    memset(&ifr, 0, sizeof ifr);
    error = do_ioctl(name, SIOCGIFHWADDR, "SIOCGIFHWADDR", &ifr);
    if (error) {
        return error;
    }
    if (ifr.ifr_hwaddr.sa_family != ARPHRD_ETHER) {
        VLOG_WARN("%s: not a tap device (a tun device carries no Ethernet "
                  "header)", name);
        return EINVAL;
    }
    return 0;
}

static int
netdev_tap_construct(struct netdev *netdev)
{
    int error = netdev_linux_construct(netdev);
    return error ? error : check_is_tap(netdev->name);
}

static int
netdev_internal_construct(struct netdev *netdev)
{
    struct netdev_linux *dev = netdev_linux_cast(netdev);
    const char *name = netdev->name;

    if (strlen(name) >= IFNAMSIZ) {
        VLOG_WARN("%s: name too long for a network device", name);
        return EINVAL;
    }

    int fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        int error = errno;
        VLOG_WARN("%s: could not open /dev/net/tun (%s)",
                  name, ovs_strerror(error));
        return error;
    }

    /* IFF_TUN_EXCL: never take over a tap that someone else made. */
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    copy_ifname(ifr.ifr_name, name);
    ifr.ifr_flags = IFF_TAP | IFF_NO_PI | IFF_TUN_EXCL;
    if (ioctl(fd, TUNSETIFF, &ifr) < 0) {
        int error = errno;
        VLOG_WARN("%s: could not create tap device (%s)",
                  name, ovs_strerror(error == EBUSY ? EEXIST : error));
        close(fd);
        return error == EBUSY ? EEXIST : error;
    }
    dev->tap_fd = fd;

    unsigned int flags;
    int error = get_ifi_flags(name, &flags);
    if (!error && !(flags & IFF_UP)) {
        error = set_ifi_flags(name, flags | IFF_UP);
    }
    if (error) {
        VLOG_WARN("%s: could not bring up tap device (%s)",
                  name, ovs_strerror(error));
        close(fd);
        dev->tap_fd = -1;
        return error;
    }
    prime_cache(netdev);
    return 0;
}

static void
netdev_internal_destruct(struct netdev *netdev)
{
    struct netdev_linux *dev = netdev_linux_cast(netdev);

    miimon_forget(dev);
    /* The tap is not persistent: closing its only fd removes it. */
    if (dev->tap_fd >= 0) {
        close(dev->tap_fd);
        dev->tap_fd = -1;
    }
}

static int
netdev_linux_get_etheraddr(const struct netdev *netdev, struct eth_addr *ea)
{
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    int error = do_ioctl(netdev->name, SIOCGIFHWADDR, "SIOCGIFHWADDR", &ifr);
    if (error) {
        return error;
    }
    memcpy(ea->ea, ifr.ifr_hwaddr.sa_data, ETH_ADDR_LEN);
    observe_hwaddr(netdev_linux_cast(netdev), *ea);
    return 0;
}

static int
netdev_linux_set_etheraddr(struct netdev *netdev, struct eth_addr ea)
{
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    ifr.ifr_hwaddr.sa_family = ARPHRD_ETHER;
    memcpy(ifr.ifr_hwaddr.sa_data, ea.ea, ETH_ADDR_LEN);
    int error = do_ioctl(netdev->name, SIOCSIFHWADDR, "SIOCSIFHWADDR", &ifr);
    if (error) {
        VLOG_WARN_RL(&rl, "%s: could not set Ethernet address "ETH_ADDR_FMT
                     " (%s)", netdev->name, ETH_ADDR_ARGS(ea),
                     ovs_strerror(error));
        return error;
    }
    observe_hwaddr(netdev_linux_cast(netdev), ea);
    return 0;
}

static int
netdev_linux_get_mtu(const struct netdev *netdev, int *mtup)
{
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    int error = do_ioctl(netdev->name, SIOCGIFMTU, "SIOCGIFMTU", &ifr);
    if (error) {
        return error;
    }
    *mtup = ifr.ifr_mtu;
    observe_mtu(netdev_linux_cast(netdev), *mtup);
    return 0;
}

static int
netdev_linux_set_mtu(struct netdev *netdev, int mtu)
{
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    ifr.ifr_mtu = mtu;
    int error = do_ioctl(netdev->name, SIOCSIFMTU, "SIOCSIFMTU", &ifr);
    if (error) {
        VLOG_WARN_RL(&rl, "%s: could not set MTU %d (%s)",
                     netdev->name, mtu, ovs_strerror(error));
        return error;
    }
    observe_mtu(netdev_linux_cast(netdev), mtu);
    return 0;
}

static int
netdev_linux_get_ifindex(const struct netdev *netdev)
{
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    int error = do_ioctl(netdev->name, SIOCGIFINDEX, "SIOCGIFINDEX", &ifr);
    return error ? -error : ifr.ifr_ifindex;
}

/* The link as the PHY reports it (MII status register), else as the driver
 * does (ETHTOOL_GLINK). */
static bool
read_mii_link(const char *name)
{
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    struct mii_ioctl_data *mii = (struct mii_ioctl_data *) &ifr.ifr_data;
    if (!do_ioctl(name, SIOCGMIIPHY, "SIOCGMIIPHY", &ifr)) {
        mii->reg_num = MII_BMSR;
        if (!do_ioctl(name, SIOCGMIIREG, "SIOCGMIIREG", &ifr)) {
            return (mii->val_out & BMSR_LSTATUS) != 0;
        }
    }
    struct ethtool_value link = { .cmd = ETHTOOL_GLINK };
    memset(&ifr, 0, sizeof ifr);
    ifr.ifr_data = (void *) &link;
    return !do_ioctl(name, SIOCETHTOOL, "SIOCETHTOOL", &ifr) && link.data;
}

static struct heap miimon_heap = { NULL, 0, 0 };

static void
miimon_poll(struct netdev_linux *dev)
{
    COVERAGE_INC(netdev_miimon_poll);
    bool link = read_mii_link(dev->up.name);
    if (link != dev->miimon_link) {
        dev->miimon_link = link;
        netdev_change_seq_changed(&dev->up);
    }
}

static int
netdev_linux_set_miimon_interval(struct netdev *netdev, long long int ms)
{
    struct netdev_linux *dev = netdev_linux_cast(netdev);
    ms = MAX(ms, 0);
    if (ms == dev->miimon_interval) {
        return 0;
    }
    if (heap_node_in_heap(&dev->miimon_node)) {
        heap_remove(&miimon_heap, &dev->miimon_node);
    }
    dev->miimon_interval = ms;
    if (ms) {
        miimon_poll(dev);
        heap_insert(&miimon_heap, &dev->miimon_node, time_msec() + ms);
    }
    netdev_change_seq_changed(netdev);
    return 0;
}

/* Polls the devices that are due. */
static void
miimon_run(void)
{
    long long int now = time_msec();
    while (!heap_is_empty(&miimon_heap) && heap_min(&miimon_heap)->key <= now) {
        struct netdev_linux *dev = CONTAINER_OF(heap_min(&miimon_heap),
                                                struct netdev_linux,
                                                miimon_node);
        miimon_poll(dev);
        heap_change(&miimon_heap, &dev->miimon_node,
                    now + dev->miimon_interval);
    }
}

static void
miimon_forget(struct netdev_linux *dev)
{
    if (heap_node_in_heap(&dev->miimon_node)) {
        heap_remove(&miimon_heap, &dev->miimon_node);
    }
    dev->miimon_interval = 0;
}

static bool
netdev_linux_get_carrier(const struct netdev *netdev)
{
    struct netdev_linux *dev = netdev_linux_cast(netdev);
    if (dev->miimon_interval) {
        return dev->miimon_link;
    }
    unsigned int flags;
    if (get_ifi_flags(netdev->name, &flags)) {
        return false;
    }
    observe_flags(dev, flags);

    /* IFF_RUNNING follows the carrier only once the kernel's link watcher
     * has caught up, which may take a moment after a change, so ask the
     * driver first: ETHTOOL_GLINK reads the carrier itself. */
    struct ethtool_value link = { .cmd = ETHTOOL_GLINK };
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    ifr.ifr_data = (void *) &link;
    if (!do_ioctl(netdev->name, SIOCETHTOOL, "SIOCETHTOOL", &ifr)) {
        return link.data != 0;
    }
    return (flags & IFF_RUNNING) != 0;
}

/* The kernel counts the device's carrier changes in sysfs. */
static uint64_t
netdev_linux_get_carrier_resets(const struct netdev *netdev)
{
    char path[64 + IFNAMSIZ];
    snprintf(path, sizeof path, "/sys/class/net/%s/carrier_changes",
             netdev->name);
    FILE *f = fopen(path, "r");
    unsigned long long n = 0;
    if (f) {
        if (fscanf(f, "%llu", &n) != 1) {
            n = 0;
        }
        fclose(f);
    }
    return n;
}

static enum netdev_flags
iff_to_netdev_flags(unsigned int iff)
{
    return ((iff & IFF_UP ? NETDEV_UP : 0)
            | (iff & IFF_PROMISC ? NETDEV_PROMISC : 0));
}

static unsigned int
netdev_flags_to_iff(enum netdev_flags flags)
{
    return ((flags & NETDEV_UP ? IFF_UP : 0)
            | (flags & NETDEV_PROMISC ? IFF_PROMISC : 0));
}

static int
netdev_linux_get_flags(const struct netdev *netdev, enum netdev_flags *flagsp)
{
    unsigned int flags;
    int error = get_ifi_flags(netdev->name, &flags);
    if (error) {
        return error;
    }
    observe_flags(netdev_linux_cast(netdev), flags);
    *flagsp = iff_to_netdev_flags(flags);
    return 0;
}

static int
netdev_linux_update_flags(struct netdev *netdev, enum netdev_flags off,
                          enum netdev_flags on)
{
    struct netdev_linux *dev = netdev_linux_cast(netdev);
    unsigned int old;

    int error = get_ifi_flags(netdev->name, &old);
    if (error) {
        return error;
    }
    observe_flags(dev, old);

    unsigned int new = ((old & ~netdev_flags_to_iff(off))
                        | netdev_flags_to_iff(on));
    if (new == old) {
        return 0;
    }
    error = set_ifi_flags(netdev->name, new);
    if (error) {
        VLOG_WARN_RL(&rl, "%s: could not set device flags (%s)",
                     netdev->name, ovs_strerror(error));
        return error;
    }

    /* Re-read: IFF_RUNNING follows IFF_UP. */
    if (!get_ifi_flags(netdev->name, &new)) {
        observe_flags(dev, new);
    }
    return 0;
}

/* Packet I/O: AF_PACKET with a TPACKET_V3 ring ("system"). */

#define RING_BLOCK_SIZE (1u << 17)      /* 128 KiB. */
#define RING_BLOCK_NR 16
#define RING_FRAME_SIZE 2048            /* For tp_frame_nr only (V3). */
#define RING_RESERVE 64                 /* Headroom before each frame. */

struct netdev_rxq_linux {
    struct netdev_rxq up;
    int fd;
    bool is_ring;                       /* AF_PACKET ring, else a tap fd. */
    bool own_fd;

    /* Ring. */
    uint8_t *ring;
    size_t ring_size;
    unsigned int block;                 /* Block being read. */
    unsigned int pkt_left;              /* Its packets not yet handed out. */
    struct tpacket3_hdr *next_pkt;
    bool release_block;                 /* Hand it back at the next recv. */
    struct dp_packet packets[NETDEV_MAX_BURST];
    unsigned int idle_recvs;            /* For polling the drop counter. */

    /* Tap. */
    struct dp_packet_rx_pool pool;
};

static struct netdev_rxq_linux *
netdev_rxq_linux_cast(const struct netdev_rxq *rxq)
{
    return CONTAINER_OF((struct netdev_rxq *) rxq, struct netdev_rxq_linux,
                        up);
}

static struct tpacket_block_desc *
ring_block(const struct netdev_rxq_linux *rx, unsigned int i)
{
    return (struct tpacket_block_desc *) (rx->ring + i * RING_BLOCK_SIZE);
}

static int
open_packet_socket(struct netdev *netdev, struct netdev_rxq_linux *rx)
{
    int ifindex = netdev_linux_get_ifindex(netdev);
    if (ifindex < 0) {
        return -ifindex;
    }
    int fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC,
                    htons(ETH_P_ALL));
    if (fd < 0) {
        return errno;
    }

    int version = TPACKET_V3, reserve = RING_RESERVE, one = 1;
    struct tpacket_req3 req = {
        .tp_block_size = RING_BLOCK_SIZE,
        .tp_block_nr = RING_BLOCK_NR,
        .tp_frame_size = RING_FRAME_SIZE,
        .tp_frame_nr = RING_BLOCK_SIZE / RING_FRAME_SIZE * RING_BLOCK_NR,
        .tp_retire_blk_tov = 1,         /* ms before a partial block goes. */
    };
    struct sockaddr_ll sll = {
        .sll_family = AF_PACKET,
        .sll_protocol = htons(ETH_P_ALL),
        .sll_ifindex = ifindex,
    };
    int error = 0;
    if (setsockopt(fd, SOL_PACKET, PACKET_VERSION, &version, sizeof version)
        || setsockopt(fd, SOL_PACKET, PACKET_RESERVE, &reserve,
                      sizeof reserve)
        || setsockopt(fd, SOL_PACKET, PACKET_RX_RING, &req, sizeof req)) {
        error = errno;
    } else {
        /* Older kernels lack it; we would then see our own sends. */
        setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof one);
        rx->ring_size = (size_t) RING_BLOCK_SIZE * RING_BLOCK_NR;
        void *ring = mmap(NULL, rx->ring_size, PROT_READ | PROT_WRITE,
                          MAP_SHARED, fd, 0);
        if (ring == MAP_FAILED) {
            error = errno;
        } else {
            rx->ring = ring;
            if (bind(fd, (struct sockaddr *) &sll, sizeof sll) < 0) {
                error = errno;
                munmap(rx->ring, rx->ring_size);
                rx->ring = NULL;
            }
        }
    }
    if (error) {
        close(fd);
        return error;
    }
    rx->fd = fd;
    rx->is_ring = true;
    rx->own_fd = true;
    rx->next_pkt = NULL;
    return 0;
}

/* "tap": attach to the existing device. */
static int
attach_tap(const char *name, int *fdp)
{
    int fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        return errno;
    }
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    copy_ifname(ifr.ifr_name, name);
    ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
    if (ioctl(fd, TUNSETIFF, &ifr) < 0) {
        int error = errno;
        close(fd);
        return error;
    }
    *fdp = fd;
    return 0;
}

static int
netdev_linux_rxq_open(struct netdev *netdev, struct netdev_rxq **rxqp)
{
    struct netdev_linux *dev = netdev_linux_cast(netdev);
    struct netdev_rxq_linux *rx = xzalloc(sizeof *rx);
    int error = 0;

    rx->fd = -1;
    if (netdev->netdev_class == &netdev_linux_class) {
        error = open_packet_socket(netdev, rx);
    } else {
        if (dev->tap_fd >= 0) {
            rx->fd = dev->tap_fd;
        } else {
            error = attach_tap(netdev->name, &rx->fd);
            rx->own_fd = !error;
        }
        if (!error) {
            int mtu = 1500;
            netdev_linux_get_mtu(netdev, &mtu);
            dp_packet_rx_pool_init(&rx->pool,
                                   DP_PACKET_HEADROOM + MAX(mtu, 1500) + 22,
                                   DP_PACKET_HEADROOM);
        }
    }
    if (error) {
        free(rx);
        return error;
    }
    *rxqp = &rx->up;
    return 0;
}

static void
netdev_linux_rxq_close(struct netdev_rxq *rxq)
{
    struct netdev_rxq_linux *rx = netdev_rxq_linux_cast(rxq);
    if (rx->is_ring) {
        munmap(rx->ring, rx->ring_size);
    } else {
        dp_packet_rx_pool_destroy(&rx->pool);
    }
    if (rx->own_fd) {
        close(rx->fd);
    }
    free(rx);
}

static int
netdev_linux_rxq_fd(const struct netdev_rxq *rxq)
{
    return netdev_rxq_linux_cast(rxq)->fd;
}

/* Puts back the VLAN header the kernel moved into H's metadata. */
static void
restore_vlan(struct dp_packet *p, const struct tpacket3_hdr *h)
{
    if (!(h->tp_status & TP_STATUS_VLAN_VALID) || dp_packet_size(p) < 12) {
        return;
    }
    uint16_t tpid = (h->tp_status & TP_STATUS_VLAN_TPID_VALID
                     && h->hv1.tp_vlan_tpid) ? h->hv1.tp_vlan_tpid
                                              : ETH_P_8021Q;
    ovs_be16 tag[2] = { htons(tpid), htons(h->hv1.tp_vlan_tci) };
    memcpy(dp_packet_insert_front(p, 12, 4), tag, sizeof tag);
}

static int
ring_recv(struct netdev_rxq_linux *rx, struct dp_packet_batch *batch)
{
    if (rx->release_block) {
        struct tpacket_block_desc *b = ring_block(rx, rx->block);
        __atomic_store_n(&b->hdr.bh1.block_status, TP_STATUS_KERNEL,
                         __ATOMIC_RELEASE);
        rx->block = (rx->block + 1) % RING_BLOCK_NR;
        rx->release_block = false;
    }

    struct tpacket_block_desc *b = ring_block(rx, rx->block);
    if (!rx->next_pkt) {
        uint32_t status = __atomic_load_n(&b->hdr.bh1.block_status,
                                          __ATOMIC_ACQUIRE);
        if (!(status & TP_STATUS_USER)) {
            if (++rx->idle_recvs % 16 == 1) {
                struct tpacket_stats_v3 st;
                socklen_t len = sizeof st;
                if (!getsockopt(rx->fd, SOL_PACKET, PACKET_STATISTICS, &st,
                                &len) && st.tp_drops) {
                    netdev_count_rx_dropped(rx->up.netdev, st.tp_drops);
                }
            }
            return EAGAIN;
        }
        rx->pkt_left = b->hdr.bh1.num_pkts;
        rx->next_pkt = (struct tpacket3_hdr *)
                       ((uint8_t *) b + b->hdr.bh1.offset_to_first_pkt);
    }

    while (rx->pkt_left && batch->count < NETDEV_MAX_BURST) {
        struct tpacket3_hdr *h = rx->next_pkt;
        struct dp_packet *p = &rx->packets[batch->count];
        uint8_t *frame = (uint8_t *) h + h->tp_mac;
        /* Headroom: everything between the header and the frame. */
        size_t headroom = h->tp_mac - TPACKET_ALIGN(sizeof *h);
        dp_packet_use_foreign(p, frame - headroom, headroom + h->tp_snaplen,
                              headroom, h->tp_snaplen);
        restore_vlan(p, h);
        dp_packet_batch_add(batch, p);
        rx->pkt_left--;
        rx->next_pkt = (struct tpacket3_hdr *) ((uint8_t *) h
                                                + h->tp_next_offset);
    }
    if (!rx->pkt_left) {
        rx->next_pkt = NULL;
        rx->release_block = true;
    }
    return batch->count ? 0 : EAGAIN;
}

static int
tap_recv(struct netdev_rxq_linux *rx, struct dp_packet_batch *batch)
{
    dp_packet_rx_pool_reset(&rx->pool);
    while (batch->count < NETDEV_MAX_BURST) {
        struct dp_packet *p = dp_packet_rx_pool_packet(&rx->pool,
                                                       batch->count);
        ssize_t n = read(rx->fd, dp_packet_data(p), dp_packet_tailroom(p));
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            if (errno != EAGAIN) {
                netdev_count_rx_errors(rx->up.netdev, 1);
            }
            break;
        }
        dp_packet_set_size(p, n);
        dp_packet_batch_add(batch, p);
    }
    return batch->count ? 0 : EAGAIN;
}

static int
netdev_linux_rxq_recv(struct netdev_rxq *rxq, struct dp_packet_batch *batch)
{
    struct netdev_rxq_linux *rx = netdev_rxq_linux_cast(rxq);
    return rx->is_ring ? ring_recv(rx, batch) : tap_recv(rx, batch);
}

/* Sends go through one fd per device that any thread may use at once
 * (the kernel serializes): for "system" an AF_PACKET socket bound to the
 * device, for a tap a duplicate of its fd, opened on first use. */
static size_t
packet_send(int fd, const struct dp_packet_batch *batch, int *errorp)
{
    struct mmsghdr msgs[NETDEV_MAX_BURST];
    struct iovec iovs[NETDEV_MAX_BURST];
    size_t n = batch->count, sent = 0;

    memset(msgs, 0, n * sizeof msgs[0]);
    for (size_t i = 0; i < n; i++) {
        iovs[i].iov_base = dp_packet_data(batch->packets[i]);
        iovs[i].iov_len = dp_packet_size(batch->packets[i]);
        msgs[i].msg_hdr.msg_iov = &iovs[i];
        msgs[i].msg_hdr.msg_iovlen = 1;
    }
    while (sent < n) {
        int r = sendmmsg(fd, msgs + sent, n - sent, 0);
        if (r < 0) {
            if (errno == EINTR) {
                continue;
            }
            *errorp = errno;
            /* Skip the packet that failed (too big, say), keep going. */
            if (errno != EAGAIN && errno != ENOBUFS && sent + 1 < n) {
                sent++;
                continue;
            }
            break;
        }
        sent += r;
    }
    return sent;
}

static size_t
tap_send(int fd, const struct dp_packet_batch *batch, int *errorp)
{
    size_t sent = 0;
    for (size_t i = 0; i < batch->count; i++) {
        const struct dp_packet *p = batch->packets[i];
        ssize_t r;
        do {
            r = write(fd, dp_packet_data(p), dp_packet_size(p));
        } while (r < 0 && errno == EINTR);
        if (r < 0) {
            *errorp = errno;
        } else {
            sent++;
        }
    }
    return sent;
}

static size_t
netdev_linux_send(struct netdev *netdev, const struct dp_packet_batch *batch,
                  int *errorp)
{
    struct netdev_linux *dev = netdev_linux_cast(netdev);
    int fd = atomic_load(&dev->tx_fd);

    *errorp = 0;
    if (fd < 0) {
        /* First send: open the device's transmit fd.  Two threads may race
         * here; the loser closes its own. */
        int new_fd = -1, error = 0;
        if (dev->tap_fd >= 0) {
            new_fd = dup(dev->tap_fd);
            error = new_fd < 0 ? errno : 0;
        } else if (netdev->netdev_class == &netdev_linux_class) {
            int ifindex = netdev_linux_get_ifindex(netdev);
            new_fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
            struct sockaddr_ll sll = {
                .sll_family = AF_PACKET, .sll_ifindex = ifindex,
            };
            if (ifindex < 0 || new_fd < 0
                || bind(new_fd, (struct sockaddr *) &sll, sizeof sll) < 0) {
                error = ifindex < 0 ? -ifindex : errno;
            }
        } else {
            error = attach_tap(netdev->name, &new_fd);
        }
        if (error) {
            if (new_fd >= 0) {
                close(new_fd);
            }
            *errorp = error;
            return 0;
        }
        int expected = -1;
        if (!atomic_compare_exchange_strong(&dev->tx_fd, &expected, new_fd)) {
            close(new_fd);
        }
        fd = atomic_load(&dev->tx_fd);
    }
    return netdev->netdev_class == &netdev_linux_class
           ? packet_send(fd, batch, errorp) : tap_send(fd, batch, errorp);
}

#define NETDEV_LINUX_COMMON                         \
    .alloc = netdev_linux_alloc,                    \
    .dealloc = netdev_linux_dealloc,                \
    .set_config = NULL,                             \
    .get_etheraddr = netdev_linux_get_etheraddr,    \
    .set_etheraddr = netdev_linux_set_etheraddr,    \
    .get_mtu = netdev_linux_get_mtu,                \
    .set_mtu = netdev_linux_set_mtu,                \
    .get_ifindex = netdev_linux_get_ifindex,        \
    .get_carrier = netdev_linux_get_carrier,        \
    .set_miimon_interval = netdev_linux_set_miimon_interval, \
    .get_carrier_resets = netdev_linux_get_carrier_resets, \
    .get_flags = netdev_linux_get_flags,            \
    .update_flags = netdev_linux_update_flags,      \
    .rxq_open = netdev_linux_rxq_open,              \
    .rxq_close = netdev_linux_rxq_close,            \
    .rxq_fd = netdev_linux_rxq_fd,                  \
    .rxq_recv = netdev_linux_rxq_recv,              \
    .send = netdev_linux_send

const struct netdev_class netdev_linux_class = {
    .type = "system",
    .restore_flags = true,
    .construct = netdev_linux_construct,
    .destruct = netdev_linux_destruct,
    NETDEV_LINUX_COMMON,
};

const struct netdev_class netdev_internal_class = {
    .type = "internal",
    .restore_flags = false,     /* The device goes away with us. */
    .construct = netdev_internal_construct,
    .destruct = netdev_internal_destruct,
    NETDEV_LINUX_COMMON,
};

const struct netdev_class netdev_tap_class = {
    .type = "tap",
    .restore_flags = true,
    .construct = netdev_tap_construct,
    .destruct = netdev_linux_destruct,
    NETDEV_LINUX_COMMON,
};

/* The link monitor. */

static int monitor_fd = -1;
static struct poll_watch *monitor_watch;

static void
monitor_open(void)
{
    static bool failed;
    if (monitor_fd >= 0 || failed) {
        return;
    }
    int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC,
                    NETLINK_ROUTE);
    struct sockaddr_nl addr = { .nl_family = AF_NETLINK,
                                .nl_groups = RTMGRP_LINK };
    if (fd < 0 || bind(fd, (struct sockaddr *) &addr, sizeof addr) < 0) {
        VLOG_WARN("could not open the rtnetlink link monitor (%s): link "
                  "changes are seen only when a device is next read",
                  ovs_strerror(errno));
        if (fd >= 0) {
            close(fd);
        }
        failed = true;
        return;
    }
    monitor_fd = fd;
    monitor_watch = poll_watch_create(fd, POLLIN);
}

/* Re-reads what the getters remember for NAME, if it is open here. */
static void
monitor_refresh(const char *name)
{
    struct netdev *netdev = netdev_find_open(name);
    if (netdev && is_netdev_linux_class(netdev->netdev_class)) {
        prime_cache(netdev);
    }
}

/* Every open Linux device, after the kernel dropped messages. */
static void
monitor_refresh_all(void)
{
    char name[IFNAMSIZ];
    struct if_nameindex *names = if_nameindex();
    for (struct if_nameindex *n = names; n && n->if_index; n++) {
        copy_ifname(name, n->if_name);
        monitor_refresh(name);
    }
    if (names) {
        if_freenameindex(names);
    }
}

void
netdev_linux_monitor_run(void)
{
    miimon_run();
    monitor_open();
    if (monitor_fd < 0 || !poll_watch_may_be_ready(monitor_watch)) {
        return;
    }

    char buf[16384] __attribute__((aligned(NLMSG_ALIGNTO)));
    for (;;) {
        ssize_t n = recv(monitor_fd, buf, sizeof buf, 0);
        if (n < 0) {
            if (errno == ENOBUFS) {
                monitor_refresh_all();
                continue;
            }
            break;              /* EAGAIN: drained. */
        }
        for (struct nlmsghdr *nh = (struct nlmsghdr *) buf;
             NLMSG_OK(nh, (size_t) n); nh = NLMSG_NEXT(nh, n)) {
            if ((nh->nlmsg_type != RTM_NEWLINK
                 && nh->nlmsg_type != RTM_DELLINK)
                || nh->nlmsg_len < NLMSG_LENGTH(sizeof(struct ifinfomsg))) {
                continue;
            }
            struct ifinfomsg *ifi = NLMSG_DATA(nh);
            int len = nh->nlmsg_len - NLMSG_LENGTH(sizeof *ifi);
            for (struct rtattr *rta = IFLA_RTA(ifi); RTA_OK(rta, len);
                 rta = RTA_NEXT(rta, len)) {
                if (rta->rta_type == IFLA_IFNAME) {
                    char name[IFNAMSIZ];
                    size_t nlen = RTA_PAYLOAD(rta);
                    nlen = strnlen(RTA_DATA(rta), MIN(nlen, IFNAMSIZ - 1));
                    memcpy(name, RTA_DATA(rta), nlen);
                    name[nlen] = '\0';
                    monitor_refresh(name);
                }
            }
        }
    }
    poll_watch_rearm(monitor_watch);
}

void
netdev_linux_monitor_wait(void)
{
    if (!heap_is_empty(&miimon_heap)) {
        poll_timer_wait_until(heap_min(&miimon_heap)->key);
    }
    if (monitor_watch) {
        poll_watch_wait(monitor_watch);
    }
}
