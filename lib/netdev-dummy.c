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
 * aa:55:aa:55:00:01 for the next, and so on.  The type takes no options
 * yet (packet I/O will bring some). */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "list.h"
#include "netdev-provider.h"
#include "unixctl.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(netdev_dummy);

#define DUMMY_MIN_MTU 68
#define DUMMY_MAX_MTU 65535

struct netdev_dummy {
    struct netdev up;
    struct ovs_list list_node;          /* In 'dummy_devices'. */

    struct eth_addr hwaddr;
    int mtu;
    enum netdev_flags flags;
    bool carrier;                       /* Cable plugged in. */
};

/* Every open dummy device, for the ovs-appctl commands. */
static struct ovs_list dummy_devices = OVS_LIST_INITIALIZER(&dummy_devices);

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
    ovs_list_push_back(&dummy_devices, &dev->list_node);
    return 0;
}

static void
netdev_dummy_destruct(struct netdev *netdev)
{
    struct netdev_dummy *dev = netdev_dummy_cast(netdev);
    ovs_list_remove(&dev->list_node);
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

const struct netdev_class netdev_dummy_class = {
    .type = "dummy",
    .restore_flags = false,     /* The device dies with us. */
    .alloc = netdev_dummy_alloc,
    .construct = netdev_dummy_construct,
    .destruct = netdev_dummy_destruct,
    .dealloc = netdev_dummy_dealloc,
    .set_config = NULL,         /* No options yet. */
    .get_etheraddr = netdev_dummy_get_etheraddr,
    .set_etheraddr = netdev_dummy_set_etheraddr,
    .get_mtu = netdev_dummy_get_mtu,
    .set_mtu = netdev_dummy_set_mtu,
    .get_ifindex = netdev_dummy_get_ifindex,
    .get_carrier = netdev_dummy_get_carrier,
    .get_flags = netdev_dummy_get_flags,
    .update_flags = netdev_dummy_update_flags,
};

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

void
netdev_dummy_register_commands(void)
{
    unixctl_command_register("netdev-dummy/set-admin-state",
                             "[netdev] up|down", 1, 2,
                             netdev_dummy_set_admin_state_cmd, NULL);
    unixctl_command_register("netdev-dummy/carrier",
                             "[netdev] [up|down]", 1, 2,
                             netdev_dummy_carrier_cmd, NULL);
}
