/* netdev-vport: tunnel interfaces.  See netdev-vport.h. */
#include <config.h>
#include "netdev-vport.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "netdev-provider.h"
#include "ovs-rcu.h"
#include "packets.h"
#include "shash.h"
#include "smap.h"
#include "tunnel-options.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(netdev_vport);

struct netdev_vport {
    struct netdev up;
    /* Replaced whole by set_config(); the old one is freed after a grace
     * period (readers on other threads may hold it). */
    OVSRCU_TYPE(struct tunnel_config *) config;
    enum netdev_flags flags;
    struct eth_addr ea;
    bool gbp_counted;           /* In vxlan_dst_ports (see below). */
};

/* VXLAN with and without the group policy extension cannot share a UDP
 * port (the receiver could not tell the headers apart): vxlan interfaces
 * in use per "PORT" and "PORT_gbp", as counts. */
static struct shash vxlan_dst_ports = SHASH_INITIALIZER(&vxlan_dst_ports);

static struct netdev_vport *
netdev_vport_cast(const struct netdev *netdev)
{
    return CONTAINER_OF(netdev, struct netdev_vport, up);
}

static struct netdev *
vport_alloc(void)
{
    struct netdev_vport *dev = xzalloc(sizeof *dev);
    return &dev->up;
}

static int
vport_construct(struct netdev *netdev)
{
    struct netdev_vport *dev = netdev_vport_cast(netdev);
    struct tunnel_config *cfg = xzalloc(sizeof *cfg);

    cfg->dst_port = htons(tunnel_type_default_port(netdev->type));
    cfg->dont_fragment = true;
    cfg->ttl = 64;
    ovsrcu_set_hidden(&dev->config, cfg);
    /* A locally administered address of its own, as a virtual device. */
    for (int i = 0; i < 6; i++) {
        dev->ea.ea[i] = random() & 0xff;
    }
    dev->ea.ea[0] = (dev->ea.ea[0] & ~1) | 2;
    return 0;
}

static void
vxlan_key(const struct tunnel_config *cfg, bool gbp, char *buf, size_t size)
{
    snprintf(buf, size, "%d%s", ntohs(cfg->dst_port), gbp ? "_gbp" : "");
}

static uintptr_t
vxlan_count(const struct tunnel_config *cfg, bool gbp)
{
    char key[32];
    vxlan_key(cfg, gbp, key, sizeof key);
    return (uintptr_t) shash_find_data(&vxlan_dst_ports, key);
}

static void
vxlan_adjust(const struct tunnel_config *cfg, int delta)
{
    char key[32];
    vxlan_key(cfg, cfg->exts & TUNNEL_EXT_VXLAN_GBP, key, sizeof key);
    uintptr_t n = (uintptr_t) shash_find_data(&vxlan_dst_ports, key) + delta;
    if (n) {
        shash_replace(&vxlan_dst_ports, key, (void *) n);
    } else {
        shash_find_and_delete(&vxlan_dst_ports, key);
    }
}

static void
vport_destruct(struct netdev *netdev)
{
    struct netdev_vport *dev = netdev_vport_cast(netdev);
    struct tunnel_config *cfg = ovsrcu_get_protected(&dev->config);
    if (dev->gbp_counted) {
        vxlan_adjust(cfg, -1);
    }
    ovsrcu_set_hidden(&dev->config, NULL);
    ovsrcu_postpone(free, cfg);
}

static void
vport_dealloc(struct netdev *netdev)
{
    free(netdev_vport_cast(netdev));
}

static int
vport_set_config(struct netdev *netdev, const struct smap *options,
                 char **errp)
{
    struct netdev_vport *dev = netdev_vport_cast(netdev);
    struct ds warnings = DS_EMPTY_INITIALIZER;
    struct tunnel_config cfg;
    const char *name = netdev->name;

    int error = tunnel_options_parse(netdev->type, name, options, &cfg,
                                     &warnings, errp);
    if (warnings.length) {
        ds_chomp(&warnings, '\n');
        VLOG_WARN("%s", ds_cstr(&warnings));
    }
    ds_destroy(&warnings);
    if (error) {
        return error;
    }

    struct tunnel_config *old = ovsrcu_get_protected(&dev->config);
    if (!strcmp(netdev->type, "vxlan")) {
        bool gbp = cfg.exts & TUNNEL_EXT_VXLAN_GBP;
        uintptr_t others = vxlan_count(&cfg, !gbp);
        if (dev->gbp_counted && old->dst_port == cfg.dst_port
            && !(old->exts & TUNNEL_EXT_VXLAN_GBP) == gbp) {
            others--;           /* That one is us. */
        }
        if (others) {
            /* netdev.c logs *ERRP; 3.1 says this second line too. */
            *errp = xasprintf("%s: VXLAN-GBP, and non-VXLAN-GBP tunnels "
                              "can't be configured on the same dst_port",
                              name);
            VLOG_WARN("%s: could not set configuration (%s)", name,
                      ovs_strerror(EEXIST));
            return EEXIST;
        }
        if (dev->gbp_counted) {
            vxlan_adjust(old, -1);
        }
        vxlan_adjust(&cfg, 1);
        dev->gbp_counted = true;
    }

    if (memcmp(old, &cfg, sizeof cfg)) {
        ovsrcu_set(&dev->config, xmemdup(&cfg, sizeof cfg));
        ovsrcu_postpone(free, old);
        /* ofproto re-reads the configuration of a port whose netdev
         * changed (the same queue as carrier changes). */
        netdev_change_seq_changed(netdev);
    }
    return 0;
}

static int
vport_get_etheraddr(const struct netdev *netdev, struct eth_addr *ea)
{
    *ea = netdev_vport_cast(netdev)->ea;
    return 0;
}

static int
vport_set_etheraddr(struct netdev *netdev, struct eth_addr ea)
{
    struct netdev_vport *dev = netdev_vport_cast(netdev);
    if (!eth_addr_equals(dev->ea, ea)) {
        dev->ea = ea;
        netdev_change_seq_changed(netdev);
    }
    return 0;
}

/* A tunnel's MTU is the path's, which the switch does not know. */
static int
vport_get_mtu(const struct netdev *netdev OVS_UNUSED, int *mtup OVS_UNUSED)
{
    return EOPNOTSUPP;
}

static int
vport_get_ifindex(const struct netdev *netdev OVS_UNUSED)
{
    return -EOPNOTSUPP;
}

static bool
vport_get_carrier(const struct netdev *netdev OVS_UNUSED)
{
    return true;
}

static int
vport_get_flags(const struct netdev *netdev, enum netdev_flags *flags)
{
    *flags = netdev_vport_cast(netdev)->flags;
    return 0;
}

static int
vport_update_flags(struct netdev *netdev, enum netdev_flags off,
                   enum netdev_flags on)
{
    struct netdev_vport *dev = netdev_vport_cast(netdev);
    enum netdev_flags new = (dev->flags & ~off) | on;
    if (new != dev->flags) {
        dev->flags = new;
        netdev_change_seq_changed(netdev);
    }
    return 0;
}

#define VPORT_CLASS(TYPE)                               \
    {                                                   \
        .type = TYPE,                                   \
        .restore_flags = false,                         \
        .no_error_counters = true,                      \
        .alloc = vport_alloc,                           \
        .construct = vport_construct,                   \
        .destruct = vport_destruct,                     \
        .dealloc = vport_dealloc,                       \
        .set_config = vport_set_config,                 \
        .get_etheraddr = vport_get_etheraddr,           \
        .set_etheraddr = vport_set_etheraddr,           \
        .get_mtu = vport_get_mtu,                       \
        .get_ifindex = vport_get_ifindex,               \
        .get_carrier = vport_get_carrier,               \
        .get_flags = vport_get_flags,                   \
        .update_flags = vport_update_flags,             \
    }

static const struct netdev_class vport_classes[] = {
    VPORT_CLASS("gre"),
    VPORT_CLASS("ip6gre"),
    VPORT_CLASS("erspan"),
    VPORT_CLASS("ip6erspan"),
    VPORT_CLASS("vxlan"),
    VPORT_CLASS("geneve"),
    VPORT_CLASS("lisp"),
    VPORT_CLASS("stt"),
    VPORT_CLASS("gtpu"),
};

void
netdev_vport_register(void)
{
    for (size_t i = 0; i < ARRAY_SIZE(vport_classes); i++) {
        netdev_register_class(&vport_classes[i]);
    }
}

static bool
is_vport(const struct netdev *netdev)
{
    return netdev && netdev->netdev_class->construct == vport_construct;
}

const struct tunnel_config *
netdev_get_tunnel_config(const struct netdev *netdev)
{
    return (is_vport(netdev)
            ? ovsrcu_get(&netdev_vport_cast(netdev)->config) : NULL);
}

const char *
netdev_vport_get_dpif_port(const struct netdev *netdev, char *buf,
                           size_t size)
{
    const struct tunnel_config *cfg = netdev_get_tunnel_config(netdev);
    return cfg ? tunnel_dpif_port_name(netdev->type, ntohs(cfg->dst_port),
                                       buf, size) : NULL;
}

void
netdev_vport_count(struct netdev *netdev, bool rx, uint64_t n_packets,
                   uint64_t n_bytes)
{
    if (rx) {
        netdev_count_rx(netdev, n_packets, n_bytes);
    } else {
        netdev_count_tx(netdev, n_packets, n_bytes);
    }
}
