/* netdev-patch: see netdev-patch.h. */
#include <config.h>
#include "netdev-patch.h"

#include <errno.h>
#include <string.h>
#include "netdev-provider.h"
#include "packets.h"
#include "smap.h"
#include "util.h"

struct netdev_patch {
    struct netdev up;
    struct eth_addr hwaddr;     /* Random, as 3.1 gives its vports. */
    char *peer;                 /* options:peer, or NULL before the first
                                 * valid configuration (main thread). */
};

static struct netdev_patch *
netdev_patch_cast(const struct netdev *netdev)
{
    ovs_assert(netdev->netdev_class == &netdev_patch_class);
    return CONTAINER_OF(netdev, struct netdev_patch, up);
}

bool
netdev_is_patch(const struct netdev *netdev)
{
    return netdev && netdev->netdev_class == &netdev_patch_class;
}

const char *
netdev_patch_peer(const struct netdev *netdev)
{
    return netdev_is_patch(netdev) ? netdev_patch_cast(netdev)->peer : NULL;
}

void
netdev_patch_status_changed(struct netdev *netdev)
{
    netdev_change_seq_changed(netdev);
}

void
netdev_patch_count_crossing(struct netdev *tx_dev, struct netdev *rx_dev,
                            uint64_t n_packets, uint64_t n_bytes)
{
    netdev_count_tx(tx_dev, n_packets, n_bytes);
    netdev_count_rx(rx_dev, n_packets, n_bytes);
}

static struct netdev *
netdev_patch_alloc(void)
{
    struct netdev_patch *dev = xzalloc(sizeof *dev);
    return &dev->up;
}

static int
netdev_patch_construct(struct netdev *netdev)
{
    struct netdev_patch *dev = netdev_patch_cast(netdev);
    dev->hwaddr = eth_addr_random();
    return 0;
}

static void
netdev_patch_destruct(struct netdev *netdev)
{
    free(netdev_patch_cast(netdev)->peer);
}

static void
netdev_patch_dealloc(struct netdev *netdev)
{
    free(netdev_patch_cast(netdev));
}

/* Exactly one option, "peer", naming another device.  The messages are
 * 3.1's, which operators and its tests know. */
static int
netdev_patch_set_config(struct netdev *netdev, const struct smap *options,
                        char **errp)
{
    struct netdev_patch *dev = netdev_patch_cast(netdev);
    const char *name = netdev->name;
    const char *peer = options ? smap_get(options, "peer") : NULL;

    if (!peer) {
        *errp = xasprintf("%s: patch type requires valid 'peer' argument",
                          name);
        return EINVAL;
    }
    if (smap_count(options) > 1) {
        *errp = xasprintf("%s: patch type takes only a 'peer' argument",
                          name);
        return EINVAL;
    }
    if (!strcmp(peer, name)) {
        *errp = xasprintf("%s: patch peer must not be self", name);
        return EINVAL;
    }
    if (!dev->peer || strcmp(dev->peer, peer)) {
        free(dev->peer);
        dev->peer = xstrdup(peer);
        /* ofproto re-pairs the port when the bridge reports the change. */
        netdev_change_seq_changed(netdev);
    }
    return 0;
}

static int
netdev_patch_get_etheraddr(const struct netdev *netdev, struct eth_addr *ea)
{
    *ea = netdev_patch_cast(netdev)->hwaddr;
    return 0;
}

static int
netdev_patch_get_mtu(const struct netdev *netdev OVS_UNUSED,
                     int *mtup OVS_UNUSED)
{
    return EOPNOTSUPP;
}

/* Always up, as 3.1's virtual ports: there is no device to take down. */
static int
netdev_patch_get_flags(const struct netdev *netdev OVS_UNUSED,
                       enum netdev_flags *flagsp)
{
    *flagsp = NETDEV_UP | NETDEV_PROMISC;
    return 0;
}

static int
netdev_patch_update_flags(struct netdev *netdev OVS_UNUSED,
                          enum netdev_flags off, enum netdev_flags on)
{
    if (off & (NETDEV_UP | NETDEV_PROMISC) || on & ~(NETDEV_UP
                                                     | NETDEV_PROMISC)) {
        return EOPNOTSUPP;
    }
    return 0;
}

const struct netdev_class netdev_patch_class = {
    .type = "patch",
    .restore_flags = false,
    .no_error_counters = true,
    .alloc = netdev_patch_alloc,
    .construct = netdev_patch_construct,
    .destruct = netdev_patch_destruct,
    .dealloc = netdev_patch_dealloc,
    .set_config = netdev_patch_set_config,
    .get_etheraddr = netdev_patch_get_etheraddr,
    .get_mtu = netdev_patch_get_mtu,
    .get_flags = netdev_patch_get_flags,
    .update_flags = netdev_patch_update_flags,
};
