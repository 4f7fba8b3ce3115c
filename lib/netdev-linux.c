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
 * Properties are read from the kernel on every call; nothing listens to
 * rtnetlink yet.  So a change made by someone else (ip link set ...) moves
 * the device's change sequence only when a getter next notices it: each
 * device remembers the values it last saw for that purpose.  None of these
 * types takes options. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/ethtool.h>
#include <linux/if_tun.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include "netdev-provider.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(netdev_linux);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 20);

struct netdev_linux {
    struct netdev up;
    int tap_fd;                 /* "internal": our tap's fd; otherwise -1. */

    /* What the getters saw last, to notice changes made by others. */
    bool have_hwaddr, have_mtu, have_flags;
    struct eth_addr hwaddr;
    int mtu;
    unsigned int ifi_flags;     /* IFF_UP | IFF_PROMISC | IFF_RUNNING. */
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

static struct netdev *
netdev_linux_alloc(void)
{
    struct netdev_linux *dev = xzalloc(sizeof *dev);
    dev->tap_fd = -1;
    return &dev->up;
}

static void
netdev_linux_dealloc(struct netdev *netdev)
{
    free(netdev_linux_cast(netdev));
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
netdev_linux_destruct(struct netdev *netdev OVS_UNUSED)
{
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

static bool
netdev_linux_get_carrier(const struct netdev *netdev)
{
    unsigned int flags;
    if (get_ifi_flags(netdev->name, &flags)) {
        return false;
    }
    observe_flags(netdev_linux_cast(netdev), flags);

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
    .get_flags = netdev_linux_get_flags,            \
    .update_flags = netdev_linux_update_flags

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
