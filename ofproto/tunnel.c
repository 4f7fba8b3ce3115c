/* tunnel: ofproto's map of tunnel ports.  See tunnel.h. */
#include <config.h>
#include "tunnel.h"

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <strings.h>
#include "dpif.h"
#include "dynamic-string.h"
#include "flow.h"
#include "hash.h"
#include "hmap.h"
#include "ip-addr.h"
#include "netdev-vport.h"
#include "netdev.h"
#include "match.h"
#include "openflow.h"
#include "ofproto-private.h"
#include "packets.h"
#include "smap.h"
#include "tnl-header.h"
#include "tnl-ports.h"
#include "tun-metadata.h"
#include "tunnel-options.h"
#include "unixctl.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(tunnel);

/* What tells tunnels apart on receive, in terms of packets sent: SRC is
 * the local address, DST the remote one. */
struct tnl_match {
    const struct dpif_backer *backer;
    ovs_be64 in_key;
    struct in6_addr ipv6_src;
    struct in6_addr ipv6_dst;
    uint32_t odp_port;
    uint8_t pt_mode;            /* enum tunnel_pt_mode. */
    bool in_key_flow;
    bool ip_src_flow;
    bool ip_dst_flow;
};

/* One datapath port shared by the tunnels of one type and UDP port. */
struct tnl_dp_port {
    struct hmap_node node;      /* In dp_ports, by backer and name. */
    struct dpif_backer *backer;
    char *name;
    struct netdev *netdev;
    uint32_t odp_port;
    unsigned int refcount;
};

struct tnl_port {
    struct hmap_node match_node;        /* In a tnl_match_maps[] entry. */
    bool in_map;                        /* False: reconfigured into a
                                         * duplicate of another port; it
                                         * receives nothing until its
                                         * next reconfiguration. */
    struct ofport *ofport;
    struct tunnel_config cfg;           /* A copy: readers use this. */
    struct tnl_match match;
    struct tnl_dp_port *dp_port;
};

/* How a port treats the local address: configured, any, or from the
 * flow table. */
enum ip_src_type { IP_SRC_CFG, IP_SRC_ANY, IP_SRC_FLOW };

/* Tunnel ports by match, one map per combination of wildcards
 * (in_key_flow x ip_dst_flow x ip_src_type), searched in 3.1's order. */
#define N_MATCH_MAPS 12
static struct hmap tnl_match_maps[N_MATCH_MAPS];
static bool maps_initialized;

/* Main thread only. */
static struct hmap dp_ports = HMAP_INITIALIZER(&dp_ports);

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);

static void
init_maps(void)
{
    if (!maps_initialized) {
        maps_initialized = true;
        for (int i = 0; i < N_MATCH_MAPS; i++) {
            hmap_init(&tnl_match_maps[i]);
        }
    }
}

static uint32_t
tnl_hash(const struct tnl_match *m)
{
    return hash_bytes(m, sizeof *m, 0);
}

static struct hmap *
tnl_match_map(const struct tnl_match *m)
{
    enum ip_src_type ip_src = (m->ip_src_flow ? IP_SRC_FLOW
                               : !ipv6_addr_is_zero(&m->ipv6_src)
                               ? IP_SRC_CFG
                               : IP_SRC_ANY);
    return &tnl_match_maps[6 * m->in_key_flow + 3 * m->ip_dst_flow + ip_src];
}

static struct tnl_port *
tnl_find_exact(const struct tnl_match *m, const struct hmap *map)
{
    struct tnl_port *tp;
    HMAP_FOR_EACH_WITH_HASH (tp, match_node, tnl_hash(m), map) {
        if (!memcmp(&tp->match, m, sizeof *m)) {
            return tp;
        }
    }
    return NULL;
}

/* Datapath ports. */

static struct tnl_dp_port *
dp_port_find(const struct dpif_backer *backer, const char *name)
{
    struct tnl_dp_port *dp;
    uint32_t hash = hash_string(name, hash_pointer(backer, 0));
    HMAP_FOR_EACH_WITH_HASH (dp, node, hash, &dp_ports) {
        if (dp->backer == backer && !strcmp(dp->name, name)) {
            return dp;
        }
    }
    return NULL;
}

static int
dp_port_ref(struct dpif_backer *backer, const struct netdev *netdev,
            struct tnl_dp_port **dpp)
{
    char buf[64];
    const char *name = netdev_vport_get_dpif_port(netdev, buf, sizeof buf);
    const struct tunnel_config *cfg = netdev_get_tunnel_config(netdev);
    uint16_t udp_port = cfg ? ntohs(cfg->dst_port) : 0;
    struct tnl_dp_port *dp = dp_port_find(backer, name);
    if (dp) {
        dp->refcount++;
        tnl_ports_ref(dp->odp_port, dp->name, netdev_get_type(netdev),
                      udp_port);
        *dpp = dp;
        return 0;
    }

    struct netdev *dev;
    int error = netdev_open(name, netdev_get_type(netdev), &dev);
    if (error) {
        return error;
    }
    uint32_t odp_port = DPIF_PORT_NONE;
    error = dpif_port_add(backer->dpif, dev, &odp_port);
    if (error) {
        VLOG_WARN("%s: could not add tunnel datapath port %s (%s)",
                  netdev_get_name(netdev), name, ovs_strerror(error));
        netdev_close(dev);
        return error;
    }
    dp = xzalloc(sizeof *dp);
    dp->backer = backer;
    dp->name = xstrdup(name);
    dp->netdev = dev;
    dp->odp_port = odp_port;
    dp->refcount = 1;
    hmap_insert(&dp_ports, &dp->node,
                hash_string(name, hash_pointer(backer, 0)));
    tnl_ports_ref(dp->odp_port, dp->name, netdev_get_type(netdev), udp_port);
    *dpp = dp;
    return 0;
}

static void
dp_port_unref(struct tnl_dp_port *dp)
{
    if (dp) {
        tnl_ports_unref(dp->odp_port);
    }
    if (dp && !--dp->refcount) {
        dpif_port_del(dp->backer->dpif, dp->odp_port);
        hmap_remove(&dp_ports, &dp->node);
        netdev_close(dp->netdev);
        free(dp->name);
        free(dp);
    }
}

/* The map. */

static void
tnl_match_from_cfg(struct tnl_port *tp)
{
    const struct tunnel_config *cfg = &tp->cfg;
    struct tnl_match *m = &tp->match;
    memset(m, 0, sizeof *m);
    m->backer = tp->dp_port->backer;
    m->in_key = cfg->in_key_flow ? 0 : cfg->in_key;
    m->ipv6_src = cfg->ipv6_src;
    m->ipv6_dst = cfg->ipv6_dst;
    m->odp_port = tp->dp_port->odp_port;
    m->pt_mode = cfg->pt_mode;
    m->in_key_flow = cfg->in_key_flow;
    m->ip_src_flow = cfg->ip_src_flow;
    m->ip_dst_flow = cfg->ip_dst_flow;
}

static void
format_in6(struct ds *ds, const struct in6_addr *a)
{
    char buf[INET6_ADDRSTRLEN];
    uint32_t ip = tunnel_in6_get_mapped_ipv4(a);
    inet_ntop(ip ? AF_INET : AF_INET6, ip ? (const void *) &ip
              : (const void *) a, buf, sizeof buf);
    ds_put_cstr(ds, buf);
}

/* With the write lock. */
static void
tnl_port_insert(struct tnl_port *tp)
{
    struct hmap *map = tnl_match_map(&tp->match);
    struct tnl_port *other = tnl_find_exact(&tp->match, map);
    if (other) {
        struct ds ds = DS_EMPTY_INITIALIZER;
        format_in6(&ds, &tp->match.ipv6_src);
        ds_put_cstr(&ds, "->");
        format_in6(&ds, &tp->match.ipv6_dst);
        VLOG_WARN("%s: attempting to add tunnel port with same config as "
                  "port '%s' (%s, key=%"PRIu64", dp port=%"PRIu32")",
                  tp->ofport->name, other->ofport->name, ds_cstr(&ds),
                  ntohll(tp->match.in_key), tp->match.odp_port);
        ds_destroy(&ds);
        tp->in_map = false;
        return;
    }
    hmap_insert(map, &tp->match_node, tnl_hash(&tp->match));
    tp->in_map = true;
}

/* With the write lock. */
static void
tnl_port_remove(struct tnl_port *tp)
{
    if (tp->in_map) {
        hmap_remove(tnl_match_map(&tp->match), &tp->match_node);
        tp->in_map = false;
    }
}

int
tnl_port_add(struct dpif_backer *backer, struct ofport *port,
             uint32_t *odp_portp)
{
    const struct tunnel_config *cfg = netdev_get_tunnel_config(port->netdev);
    struct tnl_dp_port *dp;

    init_maps();
    int error = dp_port_ref(backer, port->netdev, &dp);
    if (error) {
        return error;
    }
    struct tnl_port *tp = xzalloc(sizeof *tp);
    tp->ofport = port;
    tp->cfg = *cfg;
    tp->dp_port = dp;
    tnl_match_from_cfg(tp);

    ovs_rwlock_wrlock(&xlate_rwlock);
    tnl_port_insert(tp);
    if (tp->in_map) {
        port->tnl = tp;
    }
    ovs_rwlock_unlock(&xlate_rwlock);
    if (!tp->in_map) {
        /* Another port already receives these packets: refused, as 3.1
         * refuses it (logged by tnl_port_insert()). */
        dp_port_unref(dp);
        free(tp);
        return EEXIST;
    }
    *odp_portp = dp->odp_port;
    return 0;
}

bool
tnl_port_reconfigure(struct ofport *port)
{
    struct tnl_port *tp = port->tnl;
    const struct tunnel_config *cfg = netdev_get_tunnel_config(port->netdev);
    if (!tp || !cfg || !memcmp(&tp->cfg, cfg, sizeof *cfg)) {
        return false;
    }

    struct tnl_dp_port *old_dp = tp->dp_port, *new_dp = old_dp;
    char buf[64];
    const char *name = netdev_vport_get_dpif_port(port->netdev, buf,
                                                  sizeof buf);
    if (strcmp(name, old_dp->name)
        && dp_port_ref(old_dp->backer, port->netdev, &new_dp)) {
        new_dp = old_dp;        /* Logged; keep the one we have. */
    }

    ovs_rwlock_wrlock(&xlate_rwlock);
    tnl_port_remove(tp);
    tp->cfg = *cfg;
    tp->dp_port = new_dp;
    tnl_match_from_cfg(tp);
    tnl_port_insert(tp);
    port->odp_port = new_dp->odp_port;
    ovs_rwlock_unlock(&xlate_rwlock);
    if (new_dp != old_dp) {
        dp_port_unref(old_dp);
    }
    return true;
}

void
tnl_port_del(struct ofport *port)
{
    struct tnl_port *tp = port->tnl;
    if (!tp) {
        return;
    }
    ovs_rwlock_wrlock(&xlate_rwlock);
    tnl_port_remove(tp);
    port->tnl = NULL;
    ovs_rwlock_unlock(&xlate_rwlock);

    dp_port_unref(tp->dp_port);
    free(tp);
}

/* Readers. */

bool
tnl_port_should_receive(const struct flow *flow)
{
    return flow->tunnel.ip_dst || !ipv6_addr_is_zero(&flow->tunnel.ipv6_dst);
}

bool
tnl_port_is_tunnel(const struct ofport *port)
{
    return port->tnl != NULL;
}

bool
tnl_port_is_l3(const struct ofport *port)
{
    return (port->tnl && (port->tnl->cfg.pt_mode == TUNNEL_PT_LEGACY_L3
                          || !strcmp(netdev_get_type(port->netdev),
                                     "gtpu")));
}

static struct in6_addr
tnl_addr(ovs_be32 ip, const struct in6_addr *ipv6)
{
    struct in6_addr a;
    if (ip) {
        tunnel_in6_set_mapped_ipv4(&a, ip);
    } else {
        a = *ipv6;
    }
    return a;
}

static struct tnl_port *
tnl_find(const struct dpif_backer *backer, const struct flow *flow)
{
    int i = 0;
    if (!maps_initialized) {
        return NULL;
    }
    for (int in_key_flow = 0; in_key_flow < 2; in_key_flow++) {
        for (int ip_dst_flow = 0; ip_dst_flow < 2; ip_dst_flow++) {
            for (int ip_src = 0; ip_src < 3; ip_src++, i++) {
                const struct hmap *map = &tnl_match_maps[i];
                if (hmap_is_empty(map)) {
                    continue;
                }
                /* A received packet's source is the tunnel's remote end,
                 * its destination our local address. */
                struct tnl_match m;
                memset(&m, 0, sizeof m);
                m.backer = backer;
                m.in_key = in_key_flow ? 0 : flow->tunnel.tun_id;
                if (ip_src == IP_SRC_CFG) {
                    m.ipv6_src = tnl_addr(flow->tunnel.ip_dst,
                                          &flow->tunnel.ipv6_dst);
                }
                if (!ip_dst_flow) {
                    m.ipv6_dst = tnl_addr(flow->tunnel.ip_src,
                                          &flow->tunnel.ipv6_src);
                }
                m.odp_port = flow->in_port;
                m.in_key_flow = in_key_flow;
                m.ip_dst_flow = ip_dst_flow;
                m.ip_src_flow = ip_src == IP_SRC_FLOW;

                /* A legacy port for the packet's kind first, then a
                 * packet-type-aware one. */
                m.pt_mode = ((ntohl(flow->packet_type) >> 16) == 1
                             ? TUNNEL_PT_LEGACY_L3 : TUNNEL_PT_LEGACY_L2);
                struct tnl_port *tp = tnl_find_exact(&m, map);
                if (!tp) {
                    m.pt_mode = TUNNEL_PT_PTAP;
                    tp = tnl_find_exact(&m, map);
                }
                if (tp) {
                    return tp;
                }
            }
        }
    }
    return NULL;
}

struct ofport *
tnl_port_receive(const struct dpif_backer *backer, const struct flow *flow)
{
    struct tnl_port *tp = tnl_find(backer, flow);
    if (!tp) {
        if (!VLOG_DROP_WARN(&rl)) {
            struct ds ds = DS_EMPTY_INITIALIZER;
            /* What the lookup read, and the port. */
            struct match match;
            memset(&match, 0, sizeof match);
            match.flow = *flow;
            struct flow_wildcards wc;
            memset(&wc, 0, sizeof wc);
            tnl_wc_init(flow, &wc);
            wc.masks.in_port = UINT32_MAX;
            match.wc = wc;
            match_format(&match, NULL, &ds, OFP_DEFAULT_PRIORITY);
            VLOG_WARN("receive tunnel port not found (%s)", ds_cstr(&ds));
            ds_destroy(&ds);
        }
        return NULL;
    }
    return tp->ofport;
}

void
tnl_wc_init(const struct flow *flow, struct flow_wildcards *wc)
{
    if (!tnl_port_should_receive(flow)) {
        return;
    }
    struct flow *m = &wc->masks;
    m->tunnel.tun_id = OVS_BE64_MAX;
    if (flow->tunnel.ip_dst) {
        m->tunnel.ip_src = OVS_BE32_MAX;
        m->tunnel.ip_dst = OVS_BE32_MAX;
    } else {
        memset(&m->tunnel.ipv6_src, 0xff, sizeof m->tunnel.ipv6_src);
        memset(&m->tunnel.ipv6_dst, 0xff, sizeof m->tunnel.ipv6_dst);
    }
    /* (A flow with raw Geneve options keeps saying so in its mask:
     * without FLOW_TNL_F_UDPIF the options would read as decoded.) */
    m->tunnel.flags = (FLOW_TNL_F_DONT_FRAGMENT | FLOW_TNL_F_CSUM
                       | FLOW_TNL_F_KEY
                       | (flow->tunnel.flags & FLOW_TNL_F_UDPIF));
    m->tunnel.ip_tos = UINT8_MAX;
    /* The outer TTL and UDP ports never decide anything. */
    m->tunnel.ip_ttl = 0;
    m->tunnel.tp_src = 0;
    m->tunnel.tp_dst = 0;
    if (flow_is_ip_any(flow) && (flow->tunnel.ip_tos & 3) == 3) {
        m->nw_tos |= 3;
    }
}

bool
tnl_process_ecn(struct flow *flow)
{
    if (!tnl_port_should_receive(flow)) {
        return true;
    }
    if (flow_is_ip_any(flow) && (flow->tunnel.ip_tos & 3) == 3) {
        if (!(flow->nw_tos & 3)) {
            VLOG_WARN_RL(&rl, "dropping tunnel packet marked ECN CE but is "
                         "not ECN capable");
            return false;
        }
        flow->nw_tos |= 3;
    }
    return true;
}

uint32_t
tnl_port_send(const struct ofport *port, struct flow *flow,
              struct flow_wildcards *wc)
{
    const struct tnl_port *tp = port->tnl;
    if (!tp) {
        return DPIF_PORT_NONE;
    }
    const struct tunnel_config *cfg = &tp->cfg;
    struct flow_tnl *t = &flow->tunnel;

    if (!cfg->ip_src_flow) {
        t->ip_src = tunnel_in6_get_mapped_ipv4(&cfg->ipv6_src);
        memset(&t->ipv6_src, 0, sizeof t->ipv6_src);
        if (!t->ip_src) {
            t->ipv6_src = cfg->ipv6_src;
        }
    }
    if (!cfg->ip_dst_flow) {
        t->ip_dst = tunnel_in6_get_mapped_ipv4(&cfg->ipv6_dst);
        memset(&t->ipv6_dst, 0, sizeof t->ipv6_dst);
        if (!t->ip_dst) {
            t->ipv6_dst = cfg->ipv6_dst;
        }
    }
    t->tp_dst = cfg->dst_port;
    if (!cfg->out_key_flow) {
        t->tun_id = cfg->out_key;
    }

    bool ip = flow_is_ip_any(flow);
    if (cfg->ttl_inherit && ip) {
        wc->masks.nw_ttl = UINT8_MAX;
        t->ip_ttl = flow->nw_ttl;
    } else {
        t->ip_ttl = cfg->ttl;
    }
    if (cfg->tos_inherit && ip) {
        wc->masks.nw_tos |= 0xfc;
        t->ip_tos = flow->nw_tos & 0xfc;
    } else {
        t->ip_tos = cfg->tos;
    }
    /* ECN is always copied out; CE goes out as ECT(0) (RFC 6040). */
    if (ip) {
        wc->masks.nw_tos |= 3;
        t->ip_tos |= (flow->nw_tos & 3) == 3 ? 2 : flow->nw_tos & 3;
    }

    t->flags &= ~(FLOW_TNL_F_DONT_FRAGMENT | FLOW_TNL_F_CSUM
                  | FLOW_TNL_F_KEY);
    t->flags |= ((cfg->dont_fragment ? FLOW_TNL_F_DONT_FRAGMENT : 0)
                 | (cfg->csum ? FLOW_TNL_F_CSUM : 0)
                 | (cfg->out_key_present ? FLOW_TNL_F_KEY : 0));

    if (cfg->set_egress_pkt_mark) {
        flow->pkt_mark = cfg->egress_pkt_mark;
        wc->masks.pkt_mark = UINT32_MAX;
    }
    if (!cfg->erspan_ver_flow) {
        t->erspan_ver = cfg->erspan_ver;
    }
    if (!cfg->erspan_idx_flow) {
        t->erspan_idx = cfg->erspan_idx;
    }
    if (!cfg->erspan_dir_flow) {
        t->erspan_dir = cfg->erspan_dir;
    }
    if (!cfg->erspan_hwid_flow) {
        t->erspan_hwid = cfg->erspan_hwid;
    }
    return tp->match.odp_port;
}

size_t
tnl_port_geneve_opts(const struct ofport *port, const struct flow *flow,
                     uint8_t *buf, size_t max)
{
    enum tnl_type type;
    if (!port->tnl
        || !tnl_type_from_netdev_type(netdev_get_type(port->netdev), &type)
        || type != TNL_TYPE_GENEVE) {
        return 0;
    }
    return tun_md_to_geneve(&port->ofproto->tun_table, &flow->tun_metadata,
                            buf, max);
}

int
tnl_port_build_header(const struct ofport *port, const struct flow *flow,
                      struct eth_addr dmac, struct eth_addr smac,
                      const struct in6_addr *src,
                      struct tnl_push_action *push)
{
    const struct tnl_port *tp = port->tnl;
    enum tnl_type type;
    if (!tp || !tnl_type_from_netdev_type(netdev_get_type(port->netdev),
                                          &type)) {
        return EOPNOTSUPP;
    }
    uint8_t opts[GENEVE_OPTS_MAX];
    size_t opts_len = tnl_port_geneve_opts(port, flow, opts, sizeof opts);
    if (opts_len == SIZE_MAX) {
        return EINVAL;
    }
    struct tnl_header_params p = {
        .type = type,
        .cfg = &tp->cfg,
        .tnl = &flow->tunnel,
        .packet_type = flow->packet_type,
        .dmac = dmac,
        .smac = smac,
        .src = *src,
        .geneve_opts = opts,
        .geneve_opts_len = opts_len,
    };
    return tnl_header_build(&p, push);
}

void
tnl_port_format(const struct ofport *port, struct ds *ds)
{
    const struct tnl_port *tp = port->tnl;
    const char *type = netdev_get_type(port->netdev);
    ds_put_cstr(ds, type);
    if (!tp) {
        return;
    }
    struct smap options = SMAP_INITIALIZER(&options);
    tunnel_options_format(type, &tp->cfg, &options);
    const struct smap_node **sorted = smap_sort(&options);
    for (size_t i = 0; i < smap_count(&options); i++) {
        ds_put_format(ds, "%s%s=%s", i ? ", " : ": ", sorted[i]->key,
                      sorted[i]->value);
    }
    free(sorted);
    smap_destroy(&options);
}

/* Native tunneling switch. */

static _Atomic bool push_pop_supported;
static _Atomic bool push_pop_enabled;

bool
tnl_push_pop_enabled(void)
{
    return atomic_load_explicit(&push_pop_enabled, memory_order_relaxed);
}

void
tnl_set_push_pop_supported(bool supported)
{
    atomic_store(&push_pop_supported, supported);
    atomic_store(&push_pop_enabled, supported);
}

/* Sets the run-time value; false with a message in ERR if it cannot be. */
static bool
set_push_pop(bool on, struct ds *err)
{
    if (on && !atomic_load(&push_pop_supported)) {
        ds_put_cstr(err, "Can not enable features not supported by the "
                    "datapth");
        return false;
    }
    atomic_store(&push_pop_enabled, on);
    return true;
}

static void
show_push_pop(struct ds *ds)
{
    ds_put_format(ds, "tnl_push_pop (Tunnel push pop) : [run time]:%s, "
                  "[boot time]:%s\n",
                  tnl_push_pop_enabled() ? "true" : "false",
                  atomic_load(&push_pop_supported) ? "true" : "false");
}

/* dpif/set-dp-features BRIDGE [NAME [VALUE]]: of 3.1's datapath features
 * only tnl_push_pop is a choice here. */
static void
set_dp_features_cmd(struct unixctl_conn *conn, int argc, const char *argv[],
                    void *aux OVS_UNUSED)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    if (!ofproto_lookup(argv[1])) {
        unixctl_command_reply_error(conn, "no such bridge");
        return;
    }
    if (argc < 3) {
        show_push_pop(&ds);
    } else if (strcmp(argv[2], "tnl_push_pop")) {
        ds_put_cstr(&ds, "Unexpected support field");
    } else if (argc < 4) {
        show_push_pop(&ds);
    } else if (!strcasecmp(argv[3], "true") || !strcasecmp(argv[3], "false")) {
        set_push_pop(!strcasecmp(argv[3], "true"), &ds);
    } else {
        ds_put_cstr(&ds, "Boolean value expected");
    }
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
}

static void
show_dp_features_cmd(struct unixctl_conn *conn, int argc OVS_UNUSED,
                     const char *argv[], void *aux OVS_UNUSED)
{
    struct ds ds = DS_EMPTY_INITIALIZER;
    if (!ofproto_lookup(argv[1])) {
        unixctl_command_reply_error(conn, "no such bridge");
        return;
    }
    ds_put_format(&ds, "Tunnel push pop: %s\n",
                  tnl_push_pop_enabled() ? "Yes" : "No");
    unixctl_command_reply(conn, ds_cstr(&ds));
    ds_destroy(&ds);
}

static void
tnl_push_pop_cmd(struct unixctl_conn *conn, int argc OVS_UNUSED,
                 const char *argv[], void *aux OVS_UNUSED)
{
    struct ds err = DS_EMPTY_INITIALIZER;
    if (!strcasecmp(argv[1], "on") || !strcasecmp(argv[1], "off")) {
        bool on = !strcasecmp(argv[1], "on");
        if (set_push_pop(on, &err)) {
            unixctl_command_reply(conn, on ? "Tunnel push-pop on"
                                           : "Tunnel push-pop off");
        } else {
            unixctl_command_reply_error(conn, ds_cstr(&err));
        }
    } else {
        unixctl_command_reply_error(conn, "Invalid argument");
    }
    ds_destroy(&err);
}

/* One line of ofproto/list-tunnels for TP, in 3.1's words. */
static void
tnl_port_list_format(const struct tnl_port *tp, struct ds *ds)
{
    const struct tnl_match *m = &tp->match;
    const struct tunnel_config *cfg = &tp->cfg;

    ds_put_format(ds, "port %"PRIu32": %s (%s: ", m->odp_port,
                  tp->ofport->name, netdev_get_type(tp->ofport->netdev));
    if (!m->ip_dst_flow) {
        ipv6_format_mapped(&m->ipv6_src, ds);
        ds_put_cstr(ds, "->");
        ipv6_format_mapped(&m->ipv6_dst, ds);
    } else if (!m->ip_src_flow) {
        ipv6_format_mapped(&m->ipv6_src, ds);
        ds_put_cstr(ds, "->flow");
    } else {
        ds_put_cstr(ds, "flow->flow");
    }
    if (m->in_key_flow) {
        ds_put_cstr(ds, ", key=flow");
    } else {
        ds_put_format(ds, ", key=%#"PRIx64, ntohll(m->in_key));
    }
    ds_put_format(ds, ", %s, dp port=%"PRIu32,
                  (m->pt_mode == TUNNEL_PT_LEGACY_L2 ? "legacy_l2"
                   : m->pt_mode == TUNNEL_PT_LEGACY_L3 ? "legacy_l3"
                   : "ptap"), m->odp_port);

    if (cfg->out_key != cfg->in_key
        || cfg->out_key_present != cfg->in_key_present
        || cfg->out_key_flow != cfg->in_key_flow) {
        ds_put_cstr(ds, ", out_key=");
        if (!cfg->out_key_present) {
            ds_put_cstr(ds, "none");
        } else if (cfg->out_key_flow) {
            ds_put_cstr(ds, "flow");
        } else {
            ds_put_format(ds, "%#"PRIx64, ntohll(cfg->out_key));
        }
    }
    if (cfg->ttl_inherit) {
        ds_put_cstr(ds, ", ttl=inherit");
    } else {
        ds_put_format(ds, ", ttl=%"PRIu8, cfg->ttl);
    }
    if (cfg->tos_inherit) {
        ds_put_cstr(ds, ", tos=inherit");
    } else if (cfg->tos) {
        ds_put_format(ds, ", tos=%#"PRIx8, cfg->tos);
    }
    if (!cfg->dont_fragment) {
        ds_put_cstr(ds, ", df=false");
    }
    if (cfg->csum) {
        ds_put_cstr(ds, ", csum=true");
    }
    ds_put_cstr(ds, ")\n");
}

/* ofproto/list-tunnels: every tunnel port with what it receives, in the
 * order of the receive maps' precedence. */
static void
list_tunnels_cmd(struct unixctl_conn *conn, int argc OVS_UNUSED,
                 const char *argv[] OVS_UNUSED, void *aux OVS_UNUSED)
{
    struct ds out = DS_EMPTY_INITIALIZER;
    init_maps();
    ovs_rwlock_rdlock(&xlate_rwlock);
    for (int i = 0; i < N_MATCH_MAPS; i++) {
        const struct tnl_port *tp;
        HMAP_FOR_EACH (tp, match_node, &tnl_match_maps[i]) {
            tnl_port_list_format(tp, &out);
        }
    }
    ovs_rwlock_unlock(&xlate_rwlock);
    unixctl_command_reply(conn, ds_cstr(&out));
    ds_destroy(&out);
}

void
tnl_unixctl_register(void)
{
    unixctl_command_register("ofproto/list-tunnels", "", 0, 0,
                             list_tunnels_cmd, NULL);
    unixctl_command_register("dpif/set-dp-features", "bridge", 1, 3,
                             set_dp_features_cmd, NULL);
    unixctl_command_register("dpif/show-dp-features", "bridge", 1, 1,
                             show_dp_features_cmd, NULL);
    unixctl_command_register("ofproto/tnl-push-pop", "[on|off]", 1, 1,
                             tnl_push_pop_cmd, NULL);
}
