/* tnl-ports: the receive side of native tunneling.  See tnl-ports.h. */
#include <config.h>
#include "tnl-ports.h"

#include <inttypes.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include "connectivity.h"
#include "dpif.h"
#include "dynamic-string.h"
#include "flow.h"
#include "hash.h"
#include "hmap.h"
#include "ip-addr.h"
#include "list.h"
#include "netdev.h"
#include "odp-util.h"
#include "openflow.h"
#include "ovs-rcu.h"
#include "ovs-router.h"
#include "ovs-thread.h"
#include "packets.h"
#include "seq.h"
#include "shash.h"
#include "sset.h"
#include "unixctl.h"
#include "util.h"

/* What a tunnel packet for us looks like, exactly. */
struct rx_key {
    struct eth_addr mac;
    uint8_t nw_proto;
    uint8_t pad;
    ovs_be16 tp_dst;            /* 0 for GRE. */
    struct in6_addr addr;       /* IPv4-mapped for IPv4. */
};

struct rx_entry {
    struct hmap_node node;      /* In snapshot's 'entries', by key. */
    struct rx_key key;
    uint32_t odp_port;
    char dp_name[IFNAMSIZ + 16];
};

struct endpoint_dev {
    struct hmap_node node;      /* In snapshot's 'devs', by name. */
    char name[IFNAMSIZ];
    struct eth_addr mac;
    size_t n_addrs;
    struct in6_addr *addrs;
};

/* One published, never modified, product of the two sets. */
struct snapshot {
    struct hmap devs;
    struct hmap entries;
};

/* A listening datapath port (main thread). */
struct listener {
    struct hmap_node node;      /* In 'listeners', by odp_port. */
    struct ovs_list order;      /* In 'listener_order', oldest first. */
    uint32_t odp_port;
    char *dp_name;
    uint8_t nw_proto;
    uint16_t udp_port;          /* Host order; 0 for GRE. */
    unsigned int refcount;
};

/* An endpoint device as last read (main thread). */
struct dev_watch {
    uint64_t change_seq;        /* UINT64_MAX: not read yet. */
};

static OVSRCU_TYPE(struct snapshot *) published;

static struct hmap listeners = HMAP_INITIALIZER(&listeners);
static struct ovs_list listener_order = OVS_LIST_INITIALIZER(&listener_order);
static struct shash watches = SHASH_INITIALIZER(&watches);
static uint64_t router_seq_seen = UINT64_MAX;
static uint64_t connectivity_seen = UINT64_MAX;

static struct seq *ports_seq;

struct seq *
tnl_ports_seq(void)
{
    static struct ovsthread_once once = OVSTHREAD_ONCE_INITIALIZER;
    if (ovsthread_once_start(&once)) {
        ports_seq = seq_create();
        ovsthread_once_done(&once);
    }
    return ports_seq;
}

static uint32_t
rx_key_hash(const struct rx_key *k)
{
    return hash_bytes(k, sizeof *k, 0);
}

static void
snapshot_free(struct snapshot *s)
{
    if (!s) {
        return;
    }
    struct endpoint_dev *dev;
    HMAP_FOR_EACH_POP (dev, node, &s->devs) {
        free(dev->addrs);
        free(dev);
    }
    hmap_destroy(&s->devs);
    struct rx_entry *e;
    HMAP_FOR_EACH_POP (e, node, &s->entries) {
        free(e);
    }
    hmap_destroy(&s->entries);
    free(s);
}

static struct snapshot *
get_snapshot(void)
{
    ovsrcu_register();
    return ovsrcu_get(&published);
}

static const struct endpoint_dev *
find_dev(const struct snapshot *s, const char *name)
{
    const struct endpoint_dev *dev;
    HMAP_FOR_EACH_WITH_HASH (dev, node, hash_string(name, 0), &s->devs) {
        if (!strcmp(dev->name, name)) {
            return dev;
        }
    }
    return NULL;
}

/* Reads endpoint device NAME, if it is open and has addresses. */
static struct endpoint_dev *
read_dev(const char *name)
{
    struct netdev *netdev = netdev_find_open(name);
    struct eth_addr mac;
    if (!netdev || netdev_get_etheraddr(netdev, &mac)) {
        return NULL;
    }
    struct in6_addr *addrs, *masks;
    size_t n;
    if (netdev_get_addrs_by_name(name, &addrs, &masks, &n) || !n) {
        free(addrs);
        free(masks);
        return NULL;
    }
    free(masks);
    struct endpoint_dev *dev = xzalloc(sizeof *dev);
    ovs_strzcpy(dev->name, name, sizeof dev->name);
    dev->mac = mac;
    dev->addrs = addrs;
    dev->n_addrs = n;
    return dev;
}

/* Builds and publishes the product of the listeners and the devices. */
static void
publish(void)
{
    struct snapshot *s = xmalloc(sizeof *s);
    hmap_init(&s->devs);
    hmap_init(&s->entries);

    struct shash_node *node;
    SHASH_FOR_EACH (node, &watches) {
        struct endpoint_dev *dev = read_dev(node->name);
        if (!dev) {
            continue;
        }
        hmap_insert(&s->devs, &dev->node, hash_string(dev->name, 0));
        const struct listener *l;
        LIST_FOR_EACH (l, order, &listener_order) {
            for (size_t i = 0; i < dev->n_addrs; i++) {
                struct rx_entry *e = xzalloc(sizeof *e);
                e->key.mac = dev->mac;
                e->key.nw_proto = l->nw_proto;
                e->key.tp_dst = htons(l->udp_port);
                e->key.addr = dev->addrs[i];
                e->odp_port = l->odp_port;
                ovs_strzcpy(e->dp_name, l->dp_name, sizeof e->dp_name);
                uint32_t hash = rx_key_hash(&e->key);
                bool dup = false;
                const struct rx_entry *other;
                HMAP_FOR_EACH_WITH_HASH (other, node, hash, &s->entries) {
                    dup |= !memcmp(&other->key, &e->key, sizeof e->key);
                }
                if (dup) {
                    free(e);    /* The older listener keeps it. */
                } else {
                    hmap_insert(&s->entries, &e->node, hash);
                }
            }
        }
    }

    struct snapshot *old = ovsrcu_get_protected(&published);
    ovsrcu_set(&published, s);
    if (old) {
        ovsrcu_postpone(snapshot_free, old);
    }
    seq_change(tnl_ports_seq());
}

static struct listener *
find_listener(uint32_t odp_port)
{
    struct listener *l;
    HMAP_FOR_EACH_WITH_HASH (l, node, hash_int(odp_port, 0), &listeners) {
        if (l->odp_port == odp_port) {
            return l;
        }
    }
    return NULL;
}

void
tnl_ports_ref(uint32_t odp_port, const char *dp_name, const char *type,
              uint16_t udp_port)
{
    struct listener *l = find_listener(odp_port);
    if (l) {
        l->refcount++;
        return;
    }
    bool gre = strstr(type, "gre") || strstr(type, "erspan");
    l = xzalloc(sizeof *l);
    l->odp_port = odp_port;
    l->dp_name = xstrdup(dp_name);
    l->nw_proto = gre ? IPPROTO_GRE : IPPROTO_UDP;
    l->udp_port = gre ? 0 : udp_port;
    l->refcount = 1;
    hmap_insert(&listeners, &l->node, hash_int(odp_port, 0));
    ovs_list_push_back(&listener_order, &l->order);
    publish();
}

void
tnl_ports_unref(uint32_t odp_port)
{
    struct listener *l = find_listener(odp_port);
    if (l && !--l->refcount) {
        hmap_remove(&listeners, &l->node);
        ovs_list_remove(&l->order);
        free(l->dp_name);
        free(l);
        publish();
    }
}

/* Makes 'watches' the routing table's devices. */
static void
update_devices(void)
{
    struct sset devs = SSET_INITIALIZER(&devs);
    ovs_router_get_devices(&devs);

    struct shash_node *node;
    SHASH_FOR_EACH_SAFE (node, &watches) {
        if (!sset_contains(&devs, node->name)) {
            free(node->data);
            shash_delete(&watches, node);
        }
    }
    const char *name;
    SSET_FOR_EACH (name, &devs) {
        if (!shash_find(&watches, name)) {
            struct dev_watch *w = xmalloc(sizeof *w);
            w->change_seq = UINT64_MAX;
            shash_add(&watches, name, w);
        }
    }
    sset_destroy(&devs);
}

void
tnl_ports_run(void)
{
    bool dirty = false;
    uint64_t rs = seq_read(ovs_router_seq());
    if (rs != router_seq_seen) {
        /* The kernel's table is read again after an address change too:
         * read the devices again, whether or not the set changed. */
        router_seq_seen = rs;
        update_devices();
        dirty = true;
    }
    /* A device's addresses or MAC changed, or it was opened or closed:
     * netdevs move connectivity_seq with their own. */
    uint64_t cs = seq_read(connectivity_seq_get());
    if (cs != connectivity_seen || dirty) {
        connectivity_seen = cs;
        struct shash_node *node;
        SHASH_FOR_EACH (node, &watches) {
            struct dev_watch *w = node->data;
            struct netdev *netdev = netdev_find_open(node->name);
            uint64_t seq = netdev ? netdev_get_change_seq(netdev) : 0;
            if (seq != w->change_seq) {
                w->change_seq = seq;
                dirty = true;
            }
        }
    }
    if (dirty) {
        publish();
    }
}

void
tnl_ports_wait(void)
{
    seq_wait(ovs_router_seq(), router_seq_seen);
    seq_wait(connectivity_seq_get(), connectivity_seen);
}

uint32_t
tnl_ports_lookup(const struct flow *flow, struct flow_wildcards *wc)
{
    const struct snapshot *s = get_snapshot();
    if (!s || hmap_is_empty(&s->entries)) {
        return DPIF_PORT_NONE;
    }

    /* As a lookup staged by layer: what a miss depended on is all the
     * megaflow matches. */
    struct flow *m = &wc->masks;
    m->dl_type = OVS_BE16_MAX;
    memset(&m->dl_dst, 0xff, sizeof m->dl_dst);
    m->vlans[0].tci = OVS_BE16_MAX;
    bool ip4 = flow->dl_type == htons(ETH_TYPE_IP);
    if ((!ip4 && flow->dl_type != htons(ETH_TYPE_IPV6))
        || flow->vlans[0].tci) {
        return DPIF_PORT_NONE;
    }
    bool mac_known = false;
    const struct endpoint_dev *dev;
    HMAP_FOR_EACH (dev, node, &s->devs) {     /* Few: routes' devices. */
        mac_known |= eth_addr_equals(dev->mac, flow->dl_dst);
    }
    if (!mac_known) {
        return DPIF_PORT_NONE;
    }

    struct rx_key key;
    memset(&key, 0, sizeof key);
    key.mac = flow->dl_dst;
    key.nw_proto = flow->nw_proto;
    m->nw_proto = UINT8_MAX;
    m->nw_frag = FLOW_NW_FRAG_MASK;
    if (ip4) {
        key.addr = in6_addr_mapped_ipv4(flow->nw_dst);
        m->nw_dst = OVS_BE32_MAX;
    } else {
        key.addr = flow->ipv6_dst;
        memset(&m->ipv6_dst, 0xff, sizeof m->ipv6_dst);
    }
    if (flow->nw_frag) {
        return DPIF_PORT_NONE;
    }
    if (flow->nw_proto == IPPROTO_UDP) {
        key.tp_dst = flow->tp_dst;
        m->tp_dst = OVS_BE16_MAX;
    }
    const struct rx_entry *e;
    HMAP_FOR_EACH_WITH_HASH (e, node, rx_key_hash(&key), &s->entries) {
        if (!memcmp(&e->key, &key, sizeof key)) {
            return e->odp_port;
        }
    }
    return DPIF_PORT_NONE;
}

bool
tnl_ports_dev_has_ip(const char *name)
{
    const struct snapshot *s = get_snapshot();
    return s && find_dev(s, name) != NULL;
}

bool
tnl_ports_dev_get_mac(const char *name, struct eth_addr *mac)
{
    const struct snapshot *s = get_snapshot();
    const struct endpoint_dev *dev = s ? find_dev(s, name) : NULL;
    if (dev) {
        *mac = dev->mac;
    }
    return dev != NULL;
}

bool
tnl_ports_dev_has_addr(const char *name, const struct in6_addr *addr)
{
    const struct snapshot *s = get_snapshot();
    const struct endpoint_dev *dev = s ? find_dev(s, name) : NULL;
    for (size_t i = 0; dev && i < dev->n_addrs; i++) {
        if (ipv6_addr_equals(&dev->addrs[i], addr)) {
            return true;
        }
    }
    return false;
}

bool
tnl_ports_dev_is_nd_dst(const char *name, const struct in6_addr *dst)
{
    static const uint8_t solicited[13] = { 0xff, 0x02, 0, 0, 0, 0, 0, 0,
                                           0, 0, 0, 0x01, 0xff };
    const struct snapshot *s = get_snapshot();
    const struct endpoint_dev *dev = s ? find_dev(s, name) : NULL;
    bool multicast = !memcmp(dst->s6_addr, solicited, sizeof solicited);
    for (size_t i = 0; dev && i < dev->n_addrs; i++) {
        const struct in6_addr *a = &dev->addrs[i];
        if (ipv6_addr_equals(a, dst)
            || (multicast && !memcmp(&a->s6_addr[13], &dst->s6_addr[13], 3))) {
            return true;
        }
    }
    return false;
}

static void
show_entry(const struct rx_entry *e, struct ds *ds)
{
    struct flow key;
    struct flow_wildcards wc;
    memset(&key, 0, sizeof key);
    memset(&wc, 0, sizeof wc);
    key.dl_dst = e->key.mac;
    memset(&wc.masks.dl_dst, 0xff, sizeof wc.masks.dl_dst);
    wc.masks.vlans[0].tci = OVS_BE16_MAX;
    ovs_be32 ip;
    if (in6_addr_get_mapped_ipv4(&e->key.addr, &ip)) {
        key.dl_type = htons(ETH_TYPE_IP);
        key.nw_dst = ip;
        wc.masks.nw_dst = OVS_BE32_MAX;
    } else {
        key.dl_type = htons(ETH_TYPE_IPV6);
        key.ipv6_dst = e->key.addr;
        memset(&wc.masks.ipv6_dst, 0xff, sizeof wc.masks.ipv6_dst);
    }
    wc.masks.dl_type = OVS_BE16_MAX;
    key.nw_proto = e->key.nw_proto;
    wc.masks.nw_proto = UINT8_MAX;
    wc.masks.nw_frag = FLOW_NW_FRAG_MASK;
    if (e->key.tp_dst) {
        key.tp_dst = e->key.tp_dst;
        wc.masks.tp_dst = OVS_BE16_MAX;
    }
    ds_put_format(ds, "%s (%"PRIu32") : ", e->dp_name, e->odp_port);
    odp_flow_format(&key, &wc, NULL, false, ds);
    ds_put_char(ds, '\n');
}

void
tnl_ports_show(struct ds *ds, bool verbose)
{
    ds_put_cstr(ds, "Listening ports:\n");
    if (verbose) {
        const struct snapshot *s = get_snapshot();
        const struct rx_entry *e;
        if (s) {
            HMAP_FOR_EACH (e, node, &s->entries) {
                show_entry(e, ds);
            }
        }
        return;
    }
    const struct listener *l;
    LIST_FOR_EACH (l, order, &listener_order) {
        ds_put_format(ds, "%s (%"PRIu32") ref_cnt=%u\n", l->dp_name,
                      l->odp_port, l->refcount);
    }
}

static void
show_cmd(struct unixctl_conn *conn, int argc, const char *argv[],
         void *aux OVS_UNUSED)
{
    if (argc > 1 && strcmp(argv[1], "-v")) {
        unixctl_command_reply_error(conn, "usage: tnl/ports/show [-v]");
        return;
    }
    struct ds ds = DS_EMPTY_INITIALIZER;
    tnl_ports_show(&ds, argc > 1);
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
}

void
tnl_ports_init(void)
{
    unixctl_command_register("tnl/ports/show", "-v", 0, 1, show_cmd, NULL);
}
