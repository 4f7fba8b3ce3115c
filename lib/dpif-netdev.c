/* The userspace datapath.  See dpif-netdev.h for the threads, the packet
 * path and how memory read without locks is freed. */
#include <config.h>
#include "dpif-netdev.h"

#include <errno.h>
#include <linux/openvswitch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include "conntrack.h"
#include "ipf.h"
#include "coverage.h"
#include "dp-epoch.h"
#include "dp-bond.h"
#include "dp-meter.h"
#include "dp-packet.h"
#include "dpctl.h"
#include "dpcls.h"
#include "dpif-channel.h"
#include "dpif-provider.h"
#include "dynamic-string.h"
#include "emc.h"
#include "flow-extract.h"
#include "hash.h"
#include "hmap.h"
#include "netdev.h"
#include "netlink.h"
#include "odp-execute.h"
#include "odp-util.h"
#include "ovs-thread.h"
#include "poll-loop.h"
#include "shash.h"
#include "sset.h"
#include "text-parse.h"
#include "timeval.h"
#include "tnl-header.h"
#include "unixctl.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(dpif_netdev);

COVERAGE_DEFINE(dpif_netdev_upcall_lost);
COVERAGE_DEFINE(datapath_drop_invalid_port);
COVERAGE_DEFINE(datapath_drop_invalid_bond);
/* Slow-pathed control packets the sink took (no upcall), and those it
 * offered but the sink gave back (they went up as upcalls). */
COVERAGE_DEFINE(dpif_control_sink_consumed);
COVERAGE_DEFINE(dpif_control_sink_declined);

_Static_assert(DPIF_CONTROL_SLOW_REASONS
               == (SLOW_CFM | SLOW_BFD | SLOW_LACP | SLOW_STP | SLOW_LLDP),
               "dpif.h's control reasons are the per-port protocols'");

static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);

#define MAX_PORTS 65536             /* Port numbers 0..MAX_PORTS-1. */
/* Upcalls a port's ring holds: enough to ride out a handler that is off
 * the CPU for a few milliseconds while a port floods half a million
 * upcalls a second (256 lost most of a packet-in flood on two cores).
 * Quiet ports pay nothing for the depth (dpif-channel.h). */
#define UPCALL_RING_SLOTS 2048      /* Per port. */
#define RERANK_EVERY 1024           /* rx wake-ups between subtable ranks. */
#define WAKE_EVENT UINT32_MAX       /* epoll tag of an rx thread's wake_fd. */

struct dp_netdev;

/* A datapath port. */
struct dp_netdev_port {
    uint32_t port_no;
    char *type;
    struct netdev *netdev;
    struct netdev_rxq *rxq;             /* NULL if the netdev moves none. */
    struct dpif_channel *channel;       /* Upcalls from this port. */
    /* The rx thread that polls 'rxq' (index in dp->rx_threads), or -1.
     * Written with the mutex while no rx thread can see the port (before
     * the port table publishes it, or with the threads stopped). */
    int rx_thread;
    _Atomic uint64_t n_hit, n_missed, n_malformed;
};

/* Port number -> port, published atomically, read inside sections. */
struct port_table {
    uint32_t n;                         /* Entries in 'ports'. */
    struct dp_netdev_port *ports[];
};

struct dp_netdev_actions {
    size_t size;
    uint64_t data[];                    /* Netlink attributes. */
};

struct dp_netdev_flow {
    struct dpcls_rule cr;
    struct hmap_node node;              /* In dp->flows, under dp->mutex. */
    /* The masked key is 'match' (a miniflow, expanded for dumps): a flood
     * of new flows allocates a whole struct flow less per flow. */
    struct flow_wildcards mask;
    uint32_t hash;                      /* dpif_flow_hash(&key, &mask). */
    long long int created;              /* time_msec(). */
    struct miniflow *match;
    struct miniflow *given_key;         /* The key as put, for dumps. */
    _Atomic(struct dp_netdev_actions *) actions;

    _Atomic uint64_t n_packets, n_bytes;
    _Atomic long long int used;
    _Atomic uint16_t tcp_flags;

    atomic_bool dead;
    _Atomic unsigned int ref_cnt;       /* Datapath's + caches'. */
};

/* One receive thread. */
struct dp_rx_thread {
    struct dp_netdev *dp;
    unsigned int id;
    pthread_t thread;
    int epoll_fd;
    int wake_fd;                        /* eventfd: "exit now". */
    atomic_bool exit;
    size_t n_ports;                     /* Ports it polls.  With the mutex. */
    struct emc_cache *emc;
    uint64_t seen_deletions;
};

struct dp_netdev {
    char *name;
    const struct dpif_class *class;     /* dpif_netdev_class or the dummy. */
    unsigned int ref_cnt;               /* Handles + the registry. */
    bool destroyed;

    struct ovs_mutex mutex;             /* Writers; see the header. */

    _Atomic(struct port_table *) port_table;
    struct hmap ports_by_name;          /* port_name_node, by name. */

    struct dpcls cls;
    struct hmap flows;                  /* dp_netdev_flow, by match. */
    _Atomic uint64_t n_deletions;       /* Flows deleted, ever. */

    unsigned int n_rx_threads;
    struct dp_rx_thread **rx_threads;

    struct dpif_channel_set *channels;
    uint32_t n_handlers;
    struct dpif_channel_handler *handlers;

    _Atomic uint64_t n_hit, n_missed, n_lost_unowned, n_mask_hit, n_emc_hit;

    struct dp_meter_table *meters;      /* Its own lock (dp-meter.h). */
    struct dp_bond_table *bonds;        /* lb_output's; its own lock. */
    struct conntrack *conntrack;        /* ct()'s; any thread (conntrack.h). */
    struct ipf *ipf;                    /* ct()'s fragment reassembly, in
                                         * front of the tracker (ipf.h). */

    /* The control-packet sink (dpif.h), or NULL.  Swapped by the main
     * thread, read inside epoch sections; a replaced one is freed after
     * a grace period. */
    _Atomic(struct dp_control_sink *) control_sink;
};

struct dp_control_sink {
    dpif_control_sink_cb *cb;
    void *aux;
};

struct port_name_node {
    struct hmap_node node;
    struct dp_netdev_port *port;
};

struct dpif_netdev {
    struct dpif up;
    struct dp_netdev *dp;
};

static struct ovs_mutex dp_netdevs_mutex = OVS_MUTEX_INITIALIZER;
static struct shash dp_netdevs = SHASH_INITIALIZER(&dp_netdevs);

static void dpif_netdev_bond_show(struct unixctl_conn *, int,
                                  const char *argv[], void *aux);

static struct dp_netdev *
get_dp(const struct dpif *dpif)
{
    return CONTAINER_OF(dpif, struct dpif_netdev, up)->dp;
}

static struct port_table *
get_port_table(const struct dp_netdev *dp)
{
    return atomic_load_explicit(&((struct dp_netdev *) dp)->port_table,
                                memory_order_acquire);
}

/* The port numbered PORT_NO, or NULL.  Inside a section, or with the
 * mutex. */
static struct dp_netdev_port *
port_lookup(const struct dp_netdev *dp, uint32_t port_no)
{
    struct port_table *t = get_port_table(dp);
    return port_no < t->n ? t->ports[port_no] : NULL;
}

static struct dp_netdev_port *
port_lookup_by_name(const struct dp_netdev *dp, const char *name)
{
    struct port_name_node *pn;
    HMAP_FOR_EACH_WITH_HASH (pn, node, hash_string(name, 0),
                             &dp->ports_by_name) {
        if (!strcmp(netdev_get_name(pn->port->netdev), name)) {
            return pn->port;
        }
    }
    return NULL;
}

/* Flows. */

static bool
flow_is_dead(const void *flow_)
{
    const struct dp_netdev_flow *flow = flow_;
    return atomic_load_explicit(&((struct dp_netdev_flow *) flow)->dead,
                                memory_order_acquire);
}

static void
flow_free(void *flow_)
{
    struct dp_netdev_flow *flow = flow_;
    free(atomic_load_explicit(&flow->actions, memory_order_relaxed));
    free(flow->match);
    free(flow->given_key);
    free(flow);
}

static void
flow_ref(struct dp_netdev_flow *flow)
{
    atomic_fetch_add_explicit(&flow->ref_cnt, 1, memory_order_relaxed);
}

static void
flow_unref(void *flow_)
{
    struct dp_netdev_flow *flow = flow_;
    if (atomic_fetch_sub_explicit(&flow->ref_cnt, 1,
                                  memory_order_acq_rel) == 1) {
        dp_epoch_postpone(flow_free, flow);
    }
}

static struct dp_netdev_actions *
actions_create(const struct nlattr *actions, size_t size)
{
    struct dp_netdev_actions *a = xmalloc(sizeof *a + ROUND_UP(size, 8));
    a->size = size;
    if (size) {
        memcpy(a->data, actions, size);
    }
    return a;
}

static void
flow_get_stats(const struct dp_netdev_flow *flow_,
               struct dpif_flow_stats *stats)
{
    struct dp_netdev_flow *flow = (struct dp_netdev_flow *) flow_;
    stats->n_packets = atomic_load_explicit(&flow->n_packets,
                                            memory_order_relaxed);
    stats->n_bytes = atomic_load_explicit(&flow->n_bytes,
                                          memory_order_relaxed);
    stats->used = atomic_load_explicit(&flow->used, memory_order_relaxed);
    stats->tcp_flags = atomic_load_explicit(&flow->tcp_flags,
                                            memory_order_relaxed);
}

static void
flow_clear_stats(struct dp_netdev_flow *flow)
{
    atomic_store_explicit(&flow->n_packets, 0, memory_order_relaxed);
    atomic_store_explicit(&flow->n_bytes, 0, memory_order_relaxed);
    atomic_store_explicit(&flow->used, 0, memory_order_relaxed);
    atomic_store_explicit(&flow->tcp_flags, 0, memory_order_relaxed);
}

/* The installed flow MATCH (miniflow_create_masked()) under MASK, or NULL.
 * With the mutex. */
static struct dp_netdev_flow *
flow_find_match(const struct dp_netdev *dp, const struct miniflow *match,
                const struct flow_wildcards *mask)
{
    struct dpcls_rule *rule = dpcls_find(&dp->cls, mask, match);
    return rule ? CONTAINER_OF(rule, struct dp_netdev_flow, cr) : NULL;
}

/* The installed flow KEY under MASK, or NULL.  With the mutex. */
static struct dp_netdev_flow *
flow_find(const struct dp_netdev *dp, const struct flow *key,
          const struct flow_wildcards *mask)
{
    struct miniflow *match = miniflow_create_masked(key, mask);
    struct dp_netdev_flow *flow = flow_find_match(dp, match, mask);
    free(match);
    return flow;
}

/* With the mutex. */
static void
flow_remove(struct dp_netdev *dp, struct dp_netdev_flow *flow)
{
    dpcls_remove(&dp->cls, &flow->cr);
    hmap_remove(&dp->flows, &flow->node);
    atomic_store_explicit(&flow->dead, true, memory_order_release);
    atomic_fetch_add(&dp->n_deletions, 1);
    flow_unref(flow);
}

/* rx threads. */

/* Context of one batch's execution, for the action callbacks. */
struct exec_ctx {
    struct dp_netdev *dp;
    uint32_t in_port;
    int recirc_depth;           /* Recirculations the batch went through. */
};

/* How many times a packet may go back through the flow table: enough for
 * any pipeline that recirculates for a reason (each MPLS pop to L3 does,
 * once), never a loop. */
#define MAX_RECIRC_DEPTH 6

static void execute_actions__(struct dp_netdev *, struct dp_packet_batch *,
                              const struct nlattr *actions,
                              size_t actions_len, int recirc_depth);
static void flow_account(struct dp_netdev_flow *,
                         const struct dp_packet_batch *, uint16_t tcp_flags,
                         long long int now);

/* Writes an upcall for PACKET (parsed into KEY) into the channel of port
 * PORT_NO (or, if that port is gone, the local port's).  Counts it lost
 * if the channel is full. */
static void
upcall_queue(struct dp_netdev *dp, uint32_t port_no,
             enum dpif_channel_upcall_type type, struct dp_packet *packet,
             const struct flow *key, const struct nlattr *userdata,
             size_t userdata_len)
{
    if (VLOG_IS_DBG_ENABLED()) {
        /* As 3.1 logs each upcall: the key, then the packet. */
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(600, 600);
        if (!VLOG_DROP_DBG(&rl)) {
            struct ds s = DS_EMPTY_INITIALIZER;
            odp_flow_format(key, NULL, NULL, false, &s);
            ds_put_char(&s, '\n');
            dp_packet_format_hex(&s, packet);
            VLOG_DBG("%s: %s upcall:\n%s", dp->name,
                     type == DPIF_CHANNEL_MISS ? "miss" : "action",
                     ds_cstr(&s));
            ds_destroy(&s);
        }
    }

    struct dp_netdev_port *port = port_lookup(dp, port_no);
    if (!port || !port->channel) {
        port = port_lookup(dp, DPIF_PORT_LOCAL);
    }
    if (!port || !port->channel || userdata_len > DPIF_CHANNEL_USERDATA_MAX) {
        atomic_fetch_add_explicit(&dp->n_lost_unowned, 1,
                                  memory_order_relaxed);
        COVERAGE_INC(dpif_netdev_upcall_lost);
        return;
    }

    struct dpif_channel_slot *slot = dpif_channel_reserve(
        port->channel, dp_packet_size(packet));
    if (!slot) {
        COVERAGE_INC(dpif_netdev_upcall_lost);
        return;
    }
    slot->type = type;
    slot->port = port_no;
    slot->hash = dp_packet_flow_hash(packet, key);
    slot->l2_ofs = 0;
    slot->l3_ofs = packet->l3_ofs;
    slot->l4_ofs = packet->l4_ofs;
    slot->userdata_len = userdata_len;
    if (userdata_len) {
        memcpy(slot->userdata, userdata, userdata_len);
    }
    slot->key = *key;
    memcpy(slot->packet, dp_packet_data(packet), dp_packet_size(packet));
    dpif_channel_commit(port->channel, slot);
}

/* Sends BATCH out of port PORT_NO (if it still exists). */
static void
exec_output(struct exec_ctx *ctx, struct dp_packet_batch *batch,
            uint32_t port_no)
{
    struct dp_netdev_port *port = port_lookup(ctx->dp, port_no);
    if (port && netdev_can_send(port->netdev)) {
        netdev_send(port->netdev, batch);
    } else {
        /* Gone, or a port that moves no packets itself (a tunnel's, while
         * the datapath does not encapsulate): 3.1 counts these so. */
        COVERAGE_ADD(datapath_drop_invalid_port, batch->count);
    }
}

/* lb_output(BOND_ID): each packet leaves by the member of the bucket its
 * flow hash names (dp-bond.h); one without a bond or member is dropped. */
static void
exec_lb_output(struct exec_ctx *ctx, struct dp_packet_batch *batch,
               uint32_t bond_id)
{
    struct dp_packet *p;
    DP_PACKET_BATCH_FOR_EACH (i, p, batch) {
        struct flow flow;
        uint32_t hash = (dp_packet_hash_valid(p)
                         ? dp_packet_flow_hash(p, NULL)
                         : (flow_extract(p, &flow),
                            dp_packet_flow_hash(p, &flow)));
        uint32_t port;
        if (dp_bond_table_output(ctx->dp->bonds, bond_id, hash,
                                 dp_packet_size(p), &port)) {
            struct dp_packet_batch one;
            dp_packet_batch_init_packet(&one, p);
            exec_output(ctx, &one, port);
        } else {
            COVERAGE_INC(datapath_drop_invalid_bond);
        }
    }
}

/* Offers PACKET (parsed into KEY) to the datapath's control-packet sink
 * if USERDATA is a slow-path cookie for per-port protocols only; returns
 * true if the sink consumed it. */
static bool
control_sink_offer(struct dp_netdev *dp, const struct dp_packet *packet,
                   const struct flow *key, const void *userdata,
                   size_t userdata_len)
{
    struct dp_control_sink *sink = atomic_load_explicit(
        &dp->control_sink, memory_order_acquire);
    struct odp_cookie cookie;
    if (!sink
        || !odp_cookie_from_userdata(userdata, userdata_len, &cookie)
        || cookie.type != ODP_COOKIE_SLOW_PATH
        || !cookie.slow_path.reason
        || cookie.slow_path.reason & ~DPIF_CONTROL_SLOW_REASONS) {
        return false;
    }
    if (sink->cb(packet, key, cookie.slow_path.reason, sink->aux)) {
        COVERAGE_INC(dpif_control_sink_consumed);
        return true;
    }
    COVERAGE_INC(dpif_control_sink_declined);
    return false;
}

/* Hands PACKET up through its input port's channel with USERDATA, unless
 * the control-packet sink takes it. */
static void
exec_userspace(struct exec_ctx *ctx, struct dp_packet *packet,
               const void *userdata, size_t userdata_len)
{
    struct flow key;

    /* The actions before may have changed the packet: hand up what it is
     * now. */
    uint32_t in_port = packet->md.in_port;
    flow_extract(packet, &key);
    if (control_sink_offer(ctx->dp, packet, &key, userdata, userdata_len)) {
        return;
    }
    upcall_queue(ctx->dp, in_port, DPIF_CHANNEL_ACTION, packet, &key,
                 userdata, userdata_len);
}

/* Looks up and runs the flows of BATCH's packets again after their
 * recirculation id became RECIRC_ID (a recirc action): the packets are
 * parsed anew, since the actions before changed them.  A miss is an
 * upcall, as from a port. */
static void
exec_recirc(struct exec_ctx *ctx, struct dp_packet_batch *batch,
            uint32_t recirc_id)
{
    struct dp_netdev *dp = ctx->dp;
    if (ctx->recirc_depth >= MAX_RECIRC_DEPTH) {
        VLOG_WARN_RL(&rl, "%s: packets recirculated more than %d times, "
                     "dropped", dp->name, MAX_RECIRC_DEPTH);
        return;
    }

    struct flow keys[NETDEV_MAX_BURST];
    const struct flow *key_ptrs[NETDEV_MAX_BURST];
    const struct dpcls_rule *rules[NETDEV_MAX_BURST];
    size_t n = batch->count;
    for (size_t i = 0; i < n; i++) {
        struct dp_packet *p = batch->packets[i];
        p->md.recirc_id = recirc_id;
        flow_extract(p, &keys[i]);
        key_ptrs[i] = &keys[i];
    }
    unsigned int probes = 0;
    size_t n_hit = dpcls_lookup_batch(&dp->cls, key_ptrs, rules, n, &probes);
    atomic_fetch_add_explicit(&dp->n_mask_hit, probes, memory_order_relaxed);
    atomic_fetch_add_explicit(&dp->n_hit, n_hit, memory_order_relaxed);
    atomic_fetch_add_explicit(&dp->n_missed, n - n_hit,
                              memory_order_relaxed);

    long long int now = time_msec();
    for (size_t i = 0; i < n; i++) {
        struct dp_packet *p = batch->packets[i];
        if (!rules[i]) {
            upcall_queue(dp, p->md.in_port, DPIF_CHANNEL_MISS, p, &keys[i],
                         NULL, 0);
            continue;
        }
        struct dp_netdev_flow *flow = CONTAINER_OF(rules[i],
                                                   struct dp_netdev_flow, cr);
        struct dp_packet_batch one;
        dp_packet_batch_init_packet(&one, p);
        flow_account(flow, &one, ntohs(keys[i].tcp_flags), now);
        struct dp_netdev_actions *a = atomic_load_explicit(
            &flow->actions, memory_order_acquire);
        execute_actions__(dp, &one, (const struct nlattr *) a->data, a->size,
                          ctx->recirc_depth + 1);
    }
}

/* 3.1's name for packets tnl_pop dropped as malformed (its tests read it);
 * tnl-header.c's tnl_pop_* counters say why. */
COVERAGE_DEFINE(datapath_drop_tunnel_pop_error);

/* tnl_pop(PORT_NO): decapsulates BATCH's packets as the tunnel type of
 * PORT_NO, drops the malformed ones (counted on the port), and runs the
 * rest through the datapath again as received on PORT_NO. */
static void
exec_tnl_pop(struct exec_ctx *ctx, struct dp_packet_batch *batch,
             uint32_t port_no, bool should_steal)
{
    struct dp_netdev_port *port = port_lookup(ctx->dp, port_no);
    enum tnl_type type;
    if (!port || !tnl_type_from_netdev_type(port->type, &type)) {
        VLOG_WARN_RL(&rl, "%s: tnl_pop(%"PRIu32") names no tunnel port, "
                     "packets dropped", ctx->dp->name, port_no);
        return;
    }
    struct dp_packet_batch copies;
    if (should_steal) {
        copies = *batch;
        dp_packet_batch_init(batch);
    } else {
        dp_packet_batch_clone(&copies, batch);
    }
    struct dp_packet_batch good;
    dp_packet_batch_init(&good);
    struct dp_packet *p;
    DP_PACKET_BATCH_FOR_EACH (i, p, &copies) {
        if (tnl_header_pop(p, type)) {
            COVERAGE_INC(datapath_drop_tunnel_pop_error);
            atomic_fetch_add_explicit(&port->n_malformed, 1,
                                      memory_order_relaxed);
            dp_packet_delete(p);
        } else {
            p->md.in_port = port_no;
            dp_packet_batch_add(&good, p);
        }
    }
    if (good.count) {
        exec_recirc(ctx, &good, good.packets[0]->md.recirc_id);
        dp_packet_batch_delete(&good);
    }
}

/* The ct() action's arguments as the tracker takes them, from CT, for
 * packets of type DL_TYPE; NAT (an address of the other IP version is
 * left out) goes into *NAT. */
static void
ct_action_from_odp(const struct dp_netdev *dp, const struct odp_ct_action *ct,
                   uint16_t dl_type, struct ct_action *out,
                   struct ct_nat_action *nat)
{
    memset(out, 0, sizeof *out);
    out->zone = ct->zone;
    out->commit = ct->commit || ct->force_commit;
    out->force = ct->force_commit;
    if (ct->has_mark) {
        out->set_mark = true;
        out->mark_value = ct->mark_value;
        out->mark_mask = ct->mark_mask;
    }
    if (ct->has_label) {
        out->set_label = true;
        for (int i = 0; i < 8; i++) {
            out->label_value.hi = (out->label_value.hi << 8)
                                  | ct->label_value[i];
            out->label_value.lo = (out->label_value.lo << 8)
                                  | ct->label_value[i + 8];
            out->label_mask.hi = (out->label_mask.hi << 8)
                                 | ct->label_mask[i];
            out->label_mask.lo = (out->label_mask.lo << 8)
                                 | ct->label_mask[i + 8];
        }
    }
    out->alg = (!strcmp(ct->helper, "ftp") ? CT_ALG_FTP
                : !strcmp(ct->helper, "tftp") ? CT_ALG_TFTP
                : CT_ALG_NONE);
    if (ct->timeout[0]) {
        /* As 3.1's userspace datapath: the policy's name is its id. */
        uint64_t id;
        if (ofputil_scan_uint(ct->timeout, UINT32_MAX, &id)) {
            out->timeout_policy = id;
        } else {
            VLOG_WARN_RL(&rl, "%s: ct timeout policy \"%s\" is not a policy "
                         "id, default timeouts used", dp->name, ct->timeout);
        }
    }
    if (ct->has_nat) {
        memset(nat, 0, sizeof *nat);
        nat->flags = ct->nat_flags;
        size_t want = dl_type == ETH_TYPE_IP ? 4 : 16;
        if (ct->nat_addr_len == want) {
            static const uint8_t zero[16];
            const uint8_t *max = (memcmp(ct->nat_max_addr, zero, want)
                                  ? ct->nat_max_addr : ct->nat_min_addr);
            nat->has_addr = true;
            if (want == 4) {
                memcpy(&nat->min_addr.ipv4, ct->nat_min_addr, 4);
                memcpy(&nat->max_addr.ipv4, max, 4);
            } else {
                memcpy(&nat->min_addr.ipv6, ct->nat_min_addr, 16);
                memcpy(&nat->max_addr.ipv6, max, 16);
            }
            nat->min_port = ct->nat_min_port;
            nat->max_port = (ct->nat_max_port ? ct->nat_max_port
                             : ct->nat_min_port);
        } else if (ct->nat_addr_len) {
            VLOG_WARN_RL(&rl, "%s: ct nat address is not IPv%d like the "
                         "packets, not used", dp->name, want == 4 ? 4 : 6);
        }
        if (ct->nat_flags & (CT_NAT_SRC | CT_NAT_DST) && !out->commit) {
            /* 3.1 complains so too: a new NAT needs a commit. */
            VLOG_WARN_RL(&rl, "%s: NAT specified without commit", dp->name);
        }
        out->nat = nat;
    }
}

/* ipf_postprocess()'s flush: a datagram's fragments filled the batch;
 * they go through the rest of the actions now. */
static void
ct_flush_frags(struct dp_packet_batch *batch, void *rest)
{
    odp_execute_rest(rest, batch);
}

/* P's index in PACKETS[0 .. N-1], or N if it is not there.  Compares
 * pointers only.  A batch is at most NETDEV_MAX_BURST packets and this
 * runs only for batches with fragments. */
static size_t
packet_index(const struct dp_packet *p, struct dp_packet *const *packets,
             size_t n)
{
    size_t i = 0;
    while (i < n && packets[i] != p) {
        i++;
    }
    return i;
}

/* ct() on FAM, the packets of one IP family (DL_TYPE) of which some are
 * fragments, through reassembly (ipf.h):
 *
 *     ipf_preprocess -> conntrack_execute -> ipf_postprocess
 *
 * FRAG[i] says whether FAM's packet i is a fragment.  FAM's packets are
 * the caller's batch's, the executor's own iff STEAL (odp-execute.h).
 * Without STEAL a fragment is never given to ipf (which keeps or frees
 * what it takes): a copy is, and the original leaves the batch (it skips
 * the rest of the actions, the caller keeps it).  With STEAL, ipf takes
 * the fragments themselves.  The packets of FAM that stay in the caller's
 * batch (tracked, going on through the rest with it) are added to STAY.
 * The packets made here, copies ipf did not take and the fragments of the
 * datagrams completed (the tracker's verdict and NAT carried into them),
 * go through REST here and are freed. */
static void
exec_ct_frags(struct dp_netdev *dp, struct dp_packet_batch *fam,
              const bool frag[], uint16_t dl_type,
              const struct ct_action *action, bool steal,
              const struct odp_execute_rest *rest, long long int now,
              struct dp_packet_batch *stay)
{
    size_t n = fam->count;
    struct dp_packet *given[NETDEV_MAX_BURST];
    bool copy[NETDEV_MAX_BURST];
    for (size_t i = 0; i < n; i++) {
        copy[i] = !steal && frag[i];
        if (copy[i]) {
            fam->packets[i] = dp_packet_clone(fam->packets[i]);
        }
        given[i] = fam->packets[i];
    }

    ipf_preprocess(dp->ipf, fam, dl_type, action->zone, now);
    conntrack_execute(dp->conntrack, fam, dl_type, action, now);

    /* What ipf_preprocess() left keeps its order; a packet it did not
     * get is a reassembled datagram. */
    struct dp_packet_batch own, reassembled;
    dp_packet_batch_init(&own);
    dp_packet_batch_init(&reassembled);
    struct dp_packet *p;
    DP_PACKET_BATCH_FOR_EACH (i, p, fam) {
        size_t j = packet_index(p, given, n);
        dp_packet_batch_add(j == n ? &reassembled : copy[j] ? &own : stay,
                            p);
    }
    dp_packet_batch_init(fam);

    if (own.count) {
        odp_execute_rest(rest, &own);
    }
    if (reassembled.count) {
        /* The flush callback only reads REST (ipf's AUX is not const). */
        ipf_postprocess(dp->ipf, &reassembled, now, ct_flush_frags,
                        (void *) rest);
        if (reassembled.count) {
            odp_execute_rest(rest, &reassembled);
        }
    }
}

/* ct(): each IPv4 and IPv6 packet of BATCH goes through the tracker
 * (fragments first through reassembly, exec_ct_frags()); any other packet
 * is marked tracked and invalid in the action's zone, as 3.1 does.
 * Packets may leave BATCH (held fragments), as odp-execute.h allows
 * for ct. */
static void
exec_ct(struct exec_ctx *ctx, struct dp_packet_batch *batch,
        const struct nlattr *a, bool steal,
        const struct odp_execute_rest *rest)
{
    struct dp_netdev *dp = ctx->dp;
    struct odp_ct_action ct;
    if (!odp_ct_action_from_attr(a, &ct, NULL)) {
        return;                 /* Validation keeps these out. */
    }

    struct dp_packet_batch fam[2];      /* [v6] */
    bool frag[2][NETDEV_MAX_BURST];
    bool other[NETDEV_MAX_BURST];       /* BATCH's packet i is not IP. */
    bool any_frag[2] = { false, false };
    dp_packet_batch_init(&fam[0]);
    dp_packet_batch_init(&fam[1]);
    struct dp_packet *p;
    DP_PACKET_BATCH_FOR_EACH (i, p, batch) {
        /* The actions before may have changed the packet: its type and
         * layer offsets as they are now. */
        struct flow flow;
        flow_extract(p, &flow);
        int v6 = (flow.dl_type == htons(ETH_TYPE_IP) ? 0
                  : flow.dl_type == htons(ETH_TYPE_IPV6) ? 1
                  : -1);
        other[i] = v6 < 0;
        if (v6 >= 0) {
            bool is_frag = (flow.nw_frag & FLOW_NW_FRAG_ANY) != 0;
            frag[v6][fam[v6].count] = is_frag;
            any_frag[v6] |= is_frag;
            dp_packet_batch_add(&fam[v6], p);
        } else {
            struct pkt_metadata *md = &p->md;
            md->ct_state = CS_TRACKED | CS_INVALID;
            md->ct_zone = ct.zone;
            md->ct_nw_proto = 0;
            md->ct_orig_ipv6 = false;
            md->ct_mark = 0;
            memset(md->ct_label, 0, sizeof md->ct_label);
            md->ct_nw_src = md->ct_nw_dst = 0;
            memset(&md->ct_ipv6_src, 0, sizeof md->ct_ipv6_src);
            memset(&md->ct_ipv6_dst, 0, sizeof md->ct_ipv6_dst);
            md->ct_tp_src = md->ct_tp_dst = 0;
        }
    }

    long long int now = time_msec();
    struct dp_packet_batch stay;        /* Fragment path: what stays. */
    dp_packet_batch_init(&stay);
    bool rebuild = false;
    for (int v6 = 0; v6 < 2; v6++) {
        if (!fam[v6].count) {
            continue;
        }
        uint16_t dl_type = v6 ? ETH_TYPE_IPV6 : ETH_TYPE_IP;
        struct ct_action action;
        struct ct_nat_action nat;
        ct_action_from_odp(dp, &ct, dl_type, &action, &nat);
        if (any_frag[v6] && ipf_is_enabled(dp->ipf, v6)) {
            exec_ct_frags(dp, &fam[v6], frag[v6], dl_type, &action, steal,
                          rest, now, &stay);
            rebuild = true;
        } else {
            conntrack_execute(dp->conntrack, &fam[v6], dl_type, &action,
                              now);
            /* In case the other family's fragments rebuild BATCH. */
            struct dp_packet *q;
            DP_PACKET_BATCH_FOR_EACH (i, q, &fam[v6]) {
                dp_packet_batch_add(&stay, q);
            }
        }
    }
    if (!rebuild) {
        return;
    }

    /* BATCH keeps, in its order, the packets of other types and those
     * that stay.  (A packet ipf took may be freed already: only its
     * pointer is compared.) */
    size_t kept = 0;
    for (size_t i = 0; i < batch->count; i++) {
        p = batch->packets[i];
        if (other[i] || packet_index(p, stay.packets, stay.count)
                        < stay.count) {
            batch->packets[kept++] = p;
        }
    }
    batch->count = kept;
}

/* odp-execute's callback for what only a datapath can do.  The packets
 * of the top-level list belong to the receive queue or the caller and are
 * never stolen; copies made by clone and sample come with SHOULD_STEAL,
 * and are freed here once sent or handed up.  ct() follows odp-execute.h's
 * rule for it: it may take packets out of BATCH (the caller's stay
 * untouched) and runs the packets it makes (fragments) through REST
 * itself; what it leaves in BATCH goes on with the list. */
static void
exec_datapath_action(void *ctx_, struct dp_packet_batch *batch,
                     const struct nlattr *a, bool should_steal,
                     const struct odp_execute_rest *rest)
{
    struct exec_ctx *ctx = ctx_;

    if (nl_attr_type(a) == OVS_ACTION_ATTR_CT) {
        /* Its packets go on to the rest of the list (odp-execute.h): the
         * ones it leaves in BATCH are not to be freed here. */
        exec_ct(ctx, batch, a, should_steal, rest);
        return;
    }

    switch (nl_attr_type(a)) {
    case OVS_ACTION_ATTR_OUTPUT:
        exec_output(ctx, batch, nl_attr_get_u32(a));
        break;

    case OVS_ACTION_ATTR_METER:
        dp_meter_table_run(ctx->dp->meters, nl_attr_get_u32(a), batch,
                           time_msec());
        break;

    case ODP_ACTION_ATTR_LB_OUTPUT:
        exec_lb_output(ctx, batch, nl_attr_get_u32(a));
        break;

    case OVS_ACTION_ATTR_USERSPACE: {
        const struct nlattr *userdata = nl_attr_find(
            nl_attr_get(a), nl_attr_get_size(a), OVS_USERSPACE_ATTR_USERDATA);
        for (size_t i = 0; i < batch->count; i++) {
            exec_userspace(ctx, batch->packets[i],
                           userdata ? nl_attr_get(userdata) : NULL,
                           userdata ? nl_attr_get_size(userdata) : 0);
        }
        break;
    }

    case OVS_ACTION_ATTR_RECIRC:
        if (should_steal) {
            exec_recirc(ctx, batch, nl_attr_get_u32(a));
        } else {
            /* The actions after this one still need the packets as they
             * are. */
            struct dp_packet_batch copies;
            dp_packet_batch_clone(&copies, batch);
            exec_recirc(ctx, &copies, nl_attr_get_u32(a));
            dp_packet_batch_delete(&copies);
        }
        break;

    case OVS_ACTION_ATTR_TUNNEL_POP:
        exec_tnl_pop(ctx, batch, nl_attr_get_u32(a), should_steal);
        break;

    case OVS_ACTION_ATTR_CT_CLEAR: {
        struct dp_packet *p;
        DP_PACKET_BATCH_FOR_EACH (i, p, batch) {
            conntrack_clear_packet(p);
        }
        break;
    }

    default:
        VLOG_WARN_RL(&rl, "%s: action %u not supported, packets dropped",
                     ctx->dp->name, nl_attr_type(a));
        break;
    }
    if (should_steal) {
        dp_packet_batch_delete(batch);
    }
}

static void
execute_actions__(struct dp_netdev *dp, struct dp_packet_batch *batch,
                  const struct nlattr *actions, size_t actions_len,
                  int recirc_depth)
{
    struct exec_ctx ctx = { .dp = dp, .recirc_depth = recirc_depth };
    odp_execute_actions(&ctx, batch, false, actions, actions_len,
                        exec_datapath_action);
}

static void
execute_actions(struct dp_netdev *dp, struct dp_packet_batch *batch,
                const struct nlattr *actions, size_t actions_len)
{
    execute_actions__(dp, batch, actions, actions_len, 0);
}

/* What an rx thread keeps per packet of a batch. */
struct rx_packet {
    struct flow key;
    uint32_t hash;
    struct dp_netdev_flow *flow;
};

static void
flow_account(struct dp_netdev_flow *flow, const struct dp_packet_batch *b,
             uint16_t tcp_flags, long long int now)
{
    uint64_t bytes = 0;
    for (size_t i = 0; i < b->count; i++) {
        bytes += dp_packet_size(b->packets[i]);
    }
    atomic_fetch_add_explicit(&flow->n_packets, b->count,
                              memory_order_relaxed);
    atomic_fetch_add_explicit(&flow->n_bytes, bytes, memory_order_relaxed);
    atomic_store_explicit(&flow->used, now, memory_order_relaxed);
    if (tcp_flags) {
        atomic_fetch_or_explicit(&flow->tcp_flags, tcp_flags,
                                 memory_order_relaxed);
    }
}

/* The fast path: one batch from PORT. */
static void
process_batch(struct dp_rx_thread *t, struct dp_netdev_port *port,
              struct dp_packet_batch *batch, struct rx_packet *rx)
{
    struct dp_netdev *dp = t->dp;
    const struct flow *miss_keys[NETDEV_MAX_BURST];
    const struct dpcls_rule *rules[NETDEV_MAX_BURST];
    size_t miss_idx[NETDEV_MAX_BURST];
    size_t n = batch->count, n_miss = 0, n_emc = 0;

    for (size_t i = 0; i < n; i++) {
        struct dp_packet *p = batch->packets[i];
        pkt_metadata_init(&p->md, port->port_no);
        if (flow_extract(p, &rx[i].key)) {
            atomic_fetch_add_explicit(&port->n_malformed, 1,
                                      memory_order_relaxed);
        }
        rx[i].hash = dp_packet_flow_hash(p, &rx[i].key);
        rx[i].flow = emc_lookup(t->emc, &rx[i].key, rx[i].hash);
        if (rx[i].flow) {
            n_emc++;
        } else {
            miss_keys[n_miss] = &rx[i].key;
            miss_idx[n_miss++] = i;
        }
    }

    size_t n_hit = n_emc;
    if (n_miss) {
        unsigned int probes = 0;
        dpcls_lookup_batch(&dp->cls, miss_keys, rules, n_miss, &probes);
        for (size_t j = 0; j < n_miss; j++) {
            size_t i = miss_idx[j];
            if (rules[j]) {
                struct dp_netdev_flow *flow = CONTAINER_OF(
                    rules[j], struct dp_netdev_flow, cr);
                rx[i].flow = flow;
                flow_ref(flow);
                emc_insert(t->emc, &rx[i].key, rx[i].hash, flow);
                n_hit++;
            } else {
                upcall_queue(dp, port->port_no, DPIF_CHANNEL_MISS,
                             batch->packets[i], &rx[i].key, NULL, 0);
            }
        }
        atomic_fetch_add_explicit(&dp->n_mask_hit, probes,
                                  memory_order_relaxed);
    }
    atomic_fetch_add_explicit(&dp->n_hit, n_hit, memory_order_relaxed);
    atomic_fetch_add_explicit(&port->n_hit, n_hit, memory_order_relaxed);
    atomic_fetch_add_explicit(&dp->n_emc_hit, n_emc, memory_order_relaxed);
    atomic_fetch_add_explicit(&dp->n_missed, n - n_hit,
                              memory_order_relaxed);
    atomic_fetch_add_explicit(&port->n_missed, n - n_hit,
                              memory_order_relaxed);

    /* Execute each flow's packets as one batch, in arrival order of each
     * flow's first packet. */
    if (!n_hit) {
        return;
    }
    long long int now = time_msec();
    bool done[NETDEV_MAX_BURST] = { false };
    for (size_t i = 0; i < n; i++) {
        struct dp_netdev_flow *flow = rx[i].flow;
        if (!flow || done[i]) {
            continue;
        }
        struct dp_packet_batch fb;
        uint16_t tcp_flags = 0;
        dp_packet_batch_init(&fb);
        for (size_t j = i; j < n; j++) {
            if (rx[j].flow == flow) {
                dp_packet_batch_add(&fb, batch->packets[j]);
                tcp_flags |= ntohs(rx[j].key.tcp_flags);
                done[j] = true;
            }
        }
        flow_account(flow, &fb, tcp_flags, now);
        struct dp_netdev_actions *a = atomic_load_explicit(
            &flow->actions, memory_order_acquire);
        execute_actions(dp, &fb, (const struct nlattr *) a->data, a->size);
    }
}

static void *
rx_thread_main(void *t_)
{
    struct dp_rx_thread *t = t_;
    struct dp_netdev *dp = t->dp;
    struct epoll_event events[64];
    struct rx_packet *rx = xmalloc(NETDEV_MAX_BURST * sizeof *rx);
    unsigned int wakeups = 0;

    t->emc = emc_create(flow_unref, flow_is_dead);
    while (!atomic_load(&t->exit)) {
        int n = epoll_wait(t->epoll_fd, events, ARRAY_SIZE(events), -1);
        if (n < 0) {
            if (errno != EINTR) {
                VLOG_ERR("rx thread %u: epoll_wait failed (%s)", t->id,
                         ovs_strerror(errno));
                break;
            }
            continue;
        }

        dp_epoch_enter();
        for (int i = 0; i < n; i++) {
            uint32_t port_no = events[i].data.u32;
            if (port_no == WAKE_EVENT) {
                continue;       /* 'exit' is checked above. */
            }
            /* Events carry port numbers, not pointers: an event fetched
             * before its port was deleted may be read after the port is
             * freed (the grace period cannot cover epoll_wait()).  The
             * number may name a newer port by then; only this thread's
             * own ports are read, so no rxq has two readers. */
            struct dp_netdev_port *port = port_lookup(dp, port_no);
            if (!port || port->rx_thread != (int) t->id) {
                continue;
            }
            struct dp_packet_batch batch;
            int error = netdev_rxq_recv(port->rxq, &batch);
            if (!error) {
                process_batch(t, port, &batch, rx);
            } else if (error != EAGAIN) {
                VLOG_WARN_RL(&rl, "%s: receive error (%s)",
                             netdev_get_name(port->netdev),
                             ovs_strerror(error));
            }
        }
        uint64_t deletions = atomic_load_explicit(&dp->n_deletions,
                                                  memory_order_relaxed);
        if (deletions != t->seen_deletions) {
            t->seen_deletions = deletions;
            emc_sweep(t->emc);
        }
        dp_epoch_exit();

        /* Ranking needs the writers' mutex: only if nobody holds it. */
        if (++wakeups % RERANK_EVERY == 0 && !ovs_mutex_trylock(&dp->mutex)) {
            dpcls_rerank(&dp->cls);
            ovs_mutex_unlock(&dp->mutex);
        }
    }
    emc_destroy(t->emc);
    free(rx);
    return NULL;
}

/* Stops every rx thread.  With the mutex. */
static void
rx_threads_stop(struct dp_netdev *dp)
{
    for (unsigned int i = 0; i < dp->n_rx_threads && dp->rx_threads; i++) {
        struct dp_rx_thread *t = dp->rx_threads[i];
        uint64_t one = 1;
        atomic_store(&t->exit, true);
        if (write(t->wake_fd, &one, sizeof one) < 0) {
            VLOG_ERR("could not wake rx thread (%s)", ovs_strerror(errno));
        }
        /* It never waits for our mutex (it only tries it). */
        xpthread_join(t->thread, NULL);
        close(t->epoll_fd);
        close(t->wake_fd);
        free(t);
    }
    free(dp->rx_threads);
    dp->rx_threads = NULL;
}

static int
epoll_add(int epoll_fd, int fd, uint32_t port_no)
{
    struct epoll_event ev = { .events = EPOLLIN, .data.u32 = port_no };
    return epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &ev) < 0 ? errno : 0;
}

/* Has rx thread T poll PORT.  With the mutex, before the port table
 * publishes PORT or with the threads stopped. */
static void
rx_thread_poll_port(struct dp_netdev *dp, struct dp_rx_thread *t,
                    struct dp_netdev_port *port)
{
    int error = epoll_add(t->epoll_fd, netdev_rxq_fd(port->rxq),
                          port->port_no);
    if (error) {
        VLOG_WARN("%s: cannot poll port %s (%s)", dp->name,
                  netdev_get_name(port->netdev), ovs_strerror(error));
        port->rx_thread = -1;
        return;
    }
    port->rx_thread = t->id;
    t->n_ports++;
}

/* A port added while the rx threads run goes to the one with the fewest
 * ports, without stopping any: restarting every thread and re-polling
 * every port made adding N ports cost O(N^2) system calls.  With the
 * mutex, before the port table publishes PORT. */
static void
rx_threads_add_port(struct dp_netdev *dp, struct dp_netdev_port *port)
{
    port->rx_thread = -1;
    if (!dp->rx_threads || !port->rxq) {
        return;
    }
    struct dp_rx_thread *least = dp->rx_threads[0];
    for (unsigned int i = 1; i < dp->n_rx_threads; i++) {
        if (dp->rx_threads[i]->n_ports < least->n_ports) {
            least = dp->rx_threads[i];
        }
    }
    rx_thread_poll_port(dp, least, port);
}

/* Stops polling PORT.  Its thread may still hold an event for it, which
 * it resolves by number (see rx_thread_main()).  With the mutex. */
static void
rx_threads_remove_port(struct dp_netdev *dp, struct dp_netdev_port *port)
{
    if (dp->rx_threads && port->rx_thread >= 0) {
        struct dp_rx_thread *t = dp->rx_threads[port->rx_thread];
        if (epoll_ctl(t->epoll_fd, EPOLL_CTL_DEL, netdev_rxq_fd(port->rxq),
                      NULL) < 0) {
            VLOG_WARN("%s: cannot stop polling port %s (%s)", dp->name,
                      netdev_get_name(port->netdev), ovs_strerror(errno));
        }
        t->n_ports--;
    }
    /* 'rx_thread' stays: rx threads may read it until the grace period
     * that precedes the port's freeing. */
}

/* Starts dp->n_rx_threads threads over the ports that receive, assigned
 * round-robin in port number order.  With the mutex. */
static void
rx_threads_start(struct dp_netdev *dp)
{
    if (dp->destroyed) {
        return;
    }
    struct port_table *table = get_port_table(dp);
    dp->rx_threads = xcalloc(dp->n_rx_threads, sizeof *dp->rx_threads);
    for (unsigned int i = 0; i < dp->n_rx_threads; i++) {
        struct dp_rx_thread *t = xzalloc(sizeof *t);
        t->dp = dp;
        t->id = i;
        t->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
        t->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
        if (t->epoll_fd < 0 || t->wake_fd < 0) {
            ovs_fatal(errno, "%s: could not create rx thread descriptors",
                      dp->name);
        }
        epoll_add(t->epoll_fd, t->wake_fd, WAKE_EVENT);
        t->seen_deletions = atomic_load(&dp->n_deletions);
        dp->rx_threads[i] = t;
    }
    unsigned int next = 0;
    for (uint32_t p = 0; p < table->n; p++) {
        struct dp_netdev_port *port = table->ports[p];
        if (port && port->rxq) {
            rx_thread_poll_port(dp, dp->rx_threads[next++
                                                   % dp->n_rx_threads],
                                port);
        }
    }
    for (unsigned int i = 0; i < dp->n_rx_threads; i++) {
        char *name = xasprintf("rx%u", i);
        dp->rx_threads[i]->thread = ovs_thread_create(name, rx_thread_main,
                                                      dp->rx_threads[i]);
        free(name);
    }
}

/* Datapaths. */

static void
dpif_netdev_enumerate(const struct dpif_class *class, struct sset *names)
{
    ovs_mutex_lock(&dp_netdevs_mutex);
    struct shash_node *node;
    SHASH_FOR_EACH (node, &dp_netdevs) {
        const struct dp_netdev *dp = node->data;
        if (dp->class == class) {
            sset_add(names, node->name);
        }
    }
    ovs_mutex_unlock(&dp_netdevs_mutex);
}

static int do_port_add(struct dp_netdev *, struct netdev *, uint32_t port_no,
                       bool own_ref);

static struct dp_netdev *
dp_create(const struct dpif_class *class, const char *name, int *errorp)
{
    static bool registered;
    if (!registered) {
        registered = true;
        unixctl_command_register("dpif-netdev/bond-show", "[dp]", 0, 1,
                                 dpif_netdev_bond_show, NULL);
    }
    struct dp_netdev *dp = xzalloc(sizeof *dp);
    dp->name = xstrdup(name);
    dp->class = class;
    dp->ref_cnt = 1;
    ovs_mutex_init(&dp->mutex);
    struct port_table *t = xzalloc(sizeof *t);
    atomic_init(&dp->port_table, t);
    hmap_init(&dp->ports_by_name);
    dpcls_init(&dp->cls);
    hmap_init(&dp->flows);
    dp->meters = dp_meter_table_create();
    dp->bonds = dp_bond_table_create();
    dp->conntrack = conntrack_create();
    dp->ipf = ipf_create();
    dp->n_rx_threads = 1;
    dp->channels = dpif_channel_set_create();

    /* The rx threads run from the start; ports join them as they come. */
    ovs_mutex_lock(&dp->mutex);
    rx_threads_start(dp);
    ovs_mutex_unlock(&dp->mutex);

    /* Port 0: the local port, an internal device named after us. */
    struct netdev *netdev;
    int error = netdev_open(name, dpif_port_open_type(class->type, "internal"),
                            &netdev);
    if (!error) {
        ovs_mutex_lock(&dp->mutex);
        error = do_port_add(dp, netdev, DPIF_PORT_LOCAL, true);
        ovs_mutex_unlock(&dp->mutex);
    }
    *errorp = error;
    return dp;
}

static void dp_destroy(struct dp_netdev *);
static void dp_unref(struct dp_netdev *);

static int
dpif_netdev_open(const struct dpif_class *class, const char *name,
                 bool create, struct dpif **dpifp)
{
    int error = 0;

    ovs_mutex_lock(&dp_netdevs_mutex);
    struct dp_netdev *dp = shash_find_data(&dp_netdevs, name);
    if (dp && dp->class != class) {
        error = EINVAL;
    } else if (create && dp) {
        error = EEXIST;
    } else if (!create && !dp) {
        error = ENODEV;
    } else if (!dp) {
        dp = dp_create(class, name, &error);
        if (error) {
            dp_destroy(dp);
            dp_unref(dp);
            dp = NULL;
        } else {
            shash_add(&dp_netdevs, name, dp);
        }
    }
    if (!error) {
        struct dpif_netdev *d = xzalloc(sizeof *d);
        d->dp = dp;
        dp->ref_cnt++;
        *dpifp = &d->up;
    }
    ovs_mutex_unlock(&dp_netdevs_mutex);
    return error;
}

static void
dp_unref(struct dp_netdev *dp)
{
    if (!--dp->ref_cnt) {
        ovs_assert(dp->destroyed);
        free(atomic_load(&dp->port_table));
        hmap_destroy(&dp->ports_by_name);
        hmap_destroy(&dp->flows);
        dp_meter_table_destroy(dp->meters);
        dp_bond_table_destroy(dp->bonds);
        /* Last: no rx thread or handle is left to call it. */
        ipf_destroy(dp->ipf);
        conntrack_destroy(dp->conntrack);
        dpcls_destroy(&dp->cls);
        dpif_channel_set_destroy(dp->channels);
        free(atomic_load(&dp->control_sink));
        ovs_mutex_destroy(&dp->mutex);
        free(dp->name);
        free(dp);
    }
}

static void
dpif_netdev_close(struct dpif *dpif)
{
    struct dp_netdev *dp = get_dp(dpif);
    ovs_mutex_lock(&dp_netdevs_mutex);
    dp_unref(dp);
    ovs_mutex_unlock(&dp_netdevs_mutex);
    free(CONTAINER_OF(dpif, struct dpif_netdev, up));
}

static void do_port_del(struct dp_netdev *, struct dp_netdev_port *);
static void do_flow_flush(struct dp_netdev *);
static void handlers_destroy(struct dp_netdev *);

/* Everything but the struct.  Called with dp_netdevs_mutex. */
static void
dp_destroy(struct dp_netdev *dp)
{
    ovs_mutex_lock(&dp->mutex);
    rx_threads_stop(dp);
    dp->destroyed = true;
    do_flow_flush(dp);
    struct port_table *t = get_port_table(dp);
    for (uint32_t i = t->n; i-- > 0; ) {
        t = get_port_table(dp);
        if (i < t->n && t->ports[i]) {
            do_port_del(dp, t->ports[i]);
        }
    }
    handlers_destroy(dp);
    ovs_mutex_unlock(&dp->mutex);
    dp_epoch_synchronize();
}

static int
dpif_netdev_destroy(struct dpif *dpif)
{
    struct dp_netdev *dp = get_dp(dpif);

    ovs_mutex_lock(&dp_netdevs_mutex);
    if (!dp->destroyed) {
        shash_find_and_delete(&dp_netdevs, dp->name);
        dp_destroy(dp);
        dp_unref(dp);           /* The registry's reference. */
    }
    ovs_mutex_unlock(&dp_netdevs_mutex);
    return 0;
}

static void
dpif_netdev_run(struct dpif *dpif)
{
    dp_epoch_reclaim();
    /* Fragments of datagrams that never complete are returned even when
     * no other fragment comes to expire them; an atomic load when none
     * is due. */
    ipf_expire(get_dp(dpif)->ipf, time_msec());
}

static void
dpif_netdev_wait(struct dpif *dpif)
{
    /* Deferred frees also run as writers postpone more.  Held fragments
     * wake the main loop when they are due, and only then: nothing held,
     * no timer. */
    long long int next = ipf_next_expiry(get_dp(dpif)->ipf);
    if (next != LLONG_MAX) {
        poll_timer_wait_until(next);
    }
}

static int
dpif_netdev_set_n_rx_threads(struct dpif *dpif, unsigned int n)
{
    struct dp_netdev *dp = get_dp(dpif);
    ovs_mutex_lock(&dp->mutex);
    if (n != dp->n_rx_threads) {
        rx_threads_stop(dp);
        dp->n_rx_threads = n;
        rx_threads_start(dp);
    }
    ovs_mutex_unlock(&dp->mutex);
    return 0;
}

static unsigned int
dpif_netdev_get_n_rx_threads(const struct dpif *dpif)
{
    struct dp_netdev *dp = get_dp(dpif);
    ovs_mutex_lock(&dp->mutex);
    unsigned int n = dp->n_rx_threads;
    ovs_mutex_unlock(&dp->mutex);
    return n;
}

static uint64_t
read_counter(const _Atomic uint64_t *c)
{
    return atomic_load_explicit((_Atomic uint64_t *) c, memory_order_relaxed);
}

static uint64_t
port_lost(const struct dp_netdev_port *port)
{
    struct dpif_channel_stats cs;
    if (!port->channel) {
        return 0;
    }
    dpif_channel_get_stats(port->channel, &cs);
    return cs.n_lost;
}

static int
dpif_netdev_get_stats(const struct dpif *dpif, struct dpif_dp_stats *stats)
{
    struct dp_netdev *dp = get_dp(dpif);

    ovs_mutex_lock(&dp->mutex);
    stats->n_hit = read_counter(&dp->n_hit);
    stats->n_missed = read_counter(&dp->n_missed);
    stats->n_lost = read_counter(&dp->n_lost_unowned);
    struct port_table *t = get_port_table(dp);
    for (uint32_t i = 0; i < t->n; i++) {
        if (t->ports[i]) {
            stats->n_lost += port_lost(t->ports[i]);
        }
    }
    stats->n_flows = hmap_count(&dp->flows);
    stats->n_masks = dpcls_n_subtables(&dp->cls);
    stats->n_mask_hit = read_counter(&dp->n_mask_hit);
    stats->n_emc_hit = read_counter(&dp->n_emc_hit);
    ovs_mutex_unlock(&dp->mutex);
    return 0;
}

/* Ports. */

/* Publishes a copy of the port table with PORT at PORT_NO (NULL to
 * remove).  With the mutex. */
static void
port_table_set(struct dp_netdev *dp, uint32_t port_no,
               struct dp_netdev_port *port)
{
    struct port_table *old = get_port_table(dp);
    uint32_t n = MAX(old->n, port_no + 1);
    struct port_table *t = xzalloc(sizeof *t + n * sizeof t->ports[0]);
    t->n = n;
    memcpy(t->ports, old->ports, old->n * sizeof old->ports[0]);
    t->ports[port_no] = port;
    atomic_store_explicit(&dp->port_table, t, memory_order_release);
    dp_epoch_postpone(free, old);
}

/* The first free number from 1 up; on the dummy datapath first the number
 * NAME carries (its first run of digits, plus 100 for a name that starts
 * with "br", so that a bridge's local device stays clear of the "pN" ports
 * tests number after themselves).  With the mutex. */
static uint32_t
choose_port_no(const struct dp_netdev *dp, const char *name)
{
    struct port_table *t = get_port_table(dp);
    if (dp->class->dummy) {
        const char *digits = strpbrk(name, "0123456789");
        if (digits) {
            unsigned long n = strtoul(digits, NULL, 10)
                              + (!strncmp(name, "br", 2) ? 100 : 0);
            if (n > 0 && n < MAX_PORTS && (n >= t->n || !t->ports[n])) {
                return n;
            }
        }
    }
    for (uint32_t i = 1; i < t->n; i++) {
        if (!t->ports[i]) {
            return i;
        }
    }
    return MAX(t->n, 1);
}

/* Adds NETDEV as PORT_NO.  OWN_REF: the port takes the caller's reference
 * instead of a new one.  With the mutex. */
static int
do_port_add(struct dp_netdev *dp, struct netdev *netdev, uint32_t port_no,
            bool own_ref)
{
    const char *name = netdev_get_name(netdev);

    if (dp->destroyed) {
        return ENODEV;
    }
    if (port_lookup_by_name(dp, name)) {
        if (own_ref) {
            netdev_close(netdev);
        }
        return EEXIST;
    }
    if (port_no == DPIF_PORT_NONE) {
        port_no = choose_port_no(dp, name);
    }
    if (port_no >= MAX_PORTS) {
        return EFBIG;
    }
    if (port_lookup(dp, port_no)) {
        if (own_ref) {
            netdev_close(netdev);
        }
        return EBUSY;
    }

    struct dp_netdev_port *port = xzalloc(sizeof *port);
    port->port_no = port_no;
    port->type = xstrdup(netdev_get_type(netdev));
    port->netdev = netdev;
    if (!own_ref) {
        struct netdev *ref;
        netdev_open(name, port->type, &ref);    /* Takes a reference. */
    }
    int error = netdev_rxq_open(netdev, &port->rxq);
    if (error && error != EOPNOTSUPP) {
        free(port->type);
        netdev_close(netdev);
        free(port);
        return error;
    }
    /* Up, as Open vSwitch's datapath brings its ports up. */
    netdev_update_flags(netdev, 0, NETDEV_UP);

    int mtu = 1500;
    netdev_get_mtu(netdev, &mtu);
    /* Room for the largest frame the port can carry: MTU plus Ethernet
     * header and two VLAN tags. */
    port->channel = dpif_channel_create(dp->channels, port_no,
                                        UPCALL_RING_SLOTS,
                                        MAX(mtu, 1500) + 14 + 8);

    struct port_name_node *pn = xmalloc(sizeof *pn);
    pn->port = port;
    hmap_insert(&dp->ports_by_name, &pn->node, hash_string(name, 0));

    rx_threads_add_port(dp, port);
    port_table_set(dp, port_no, port);
    return 0;
}

static int
dpif_netdev_port_add(struct dpif *dpif, struct netdev *netdev,
                     uint32_t *port_nop)
{
    struct dp_netdev *dp = get_dp(dpif);
    ovs_mutex_lock(&dp->mutex);
    uint32_t port_no = (*port_nop == DPIF_PORT_NONE
                        ? choose_port_no(dp, netdev_get_name(netdev))
                        : *port_nop);
    int error = do_port_add(dp, netdev, port_no, false);
    ovs_mutex_unlock(&dp->mutex);
    if (!error) {
        *port_nop = port_no;
    }
    return error;
}

/* With the mutex. */
static void
do_port_del(struct dp_netdev *dp, struct dp_netdev_port *port)
{
    rx_threads_remove_port(dp, port);
    port_table_set(dp, port->port_no, NULL);
    const char *name = netdev_get_name(port->netdev);
    struct port_name_node *pn;
    HMAP_FOR_EACH_WITH_HASH (pn, node, hash_string(name, 0),
                             &dp->ports_by_name) {
        if (pn->port == port) {
            hmap_remove(&dp->ports_by_name, &pn->node);
            free(pn);
            break;
        }
    }

    /* Executors in other threads may still hold the port: wait for them
     * before the netdev goes.  Readers never wait for our mutex. */
    dp_epoch_synchronize();

    dpif_channel_destroy(port->channel);
    netdev_rxq_close(port->rxq);
    netdev_close(port->netdev);
    free(port->type);
    free(port);
}

static int
dpif_netdev_port_del(struct dpif *dpif, uint32_t port_no)
{
    struct dp_netdev *dp = get_dp(dpif);
    int error = 0;

    ovs_mutex_lock(&dp->mutex);
    struct dp_netdev_port *port = port_lookup(dp, port_no);
    if (!port) {
        error = ENOENT;
    } else if (port_no == DPIF_PORT_LOCAL) {
        error = EINVAL;
    } else {
        do_port_del(dp, port);
    }
    ovs_mutex_unlock(&dp->mutex);
    return error;
}

static void
port_to_dpif_port(const struct dp_netdev_port *port, struct dpif_port *out)
{
    out->name = xstrdup(netdev_get_name(port->netdev));
    out->type = xstrdup(port->type);
    out->port_no = port->port_no;
}

static int
dpif_netdev_port_query_by_number(const struct dpif *dpif, uint32_t port_no,
                                 struct dpif_port *out)
{
    struct dp_netdev *dp = get_dp(dpif);
    ovs_mutex_lock(&dp->mutex);
    struct dp_netdev_port *port = port_lookup(dp, port_no);
    if (port) {
        port_to_dpif_port(port, out);
    }
    ovs_mutex_unlock(&dp->mutex);
    return port ? 0 : ENOENT;
}

static int
dpif_netdev_port_query_by_name(const struct dpif *dpif, const char *name,
                               struct dpif_port *out)
{
    struct dp_netdev *dp = get_dp(dpif);
    ovs_mutex_lock(&dp->mutex);
    struct dp_netdev_port *port = port_lookup_by_name(dp, name);
    if (port) {
        port_to_dpif_port(port, out);
    }
    ovs_mutex_unlock(&dp->mutex);
    return port ? 0 : ENOENT;
}

static void
dpif_netdev_port_list(const struct dpif *dpif, struct dpif_port **portsp,
                      size_t *n_portsp)
{
    struct dp_netdev *dp = get_dp(dpif);
    ovs_mutex_lock(&dp->mutex);
    struct port_table *t = get_port_table(dp);
    struct dpif_port *ports = xcalloc(t->n ? t->n : 1, sizeof *ports);
    size_t n = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        if (t->ports[i]) {
            port_to_dpif_port(t->ports[i], &ports[n++]);
        }
    }
    ovs_mutex_unlock(&dp->mutex);
    *portsp = ports;
    *n_portsp = n;
}

static int
dpif_netdev_port_get_stats(const struct dpif *dpif, uint32_t port_no,
                           struct dpif_port_stats *stats)
{
    struct dp_netdev *dp = get_dp(dpif);
    ovs_mutex_lock(&dp->mutex);
    struct dp_netdev_port *port = port_lookup(dp, port_no);
    if (port) {
        struct dpif_channel_stats cs;
        dpif_channel_get_stats(port->channel, &cs);
        stats->n_hit = read_counter(&port->n_hit);
        stats->n_missed = read_counter(&port->n_missed);
        stats->n_malformed = read_counter(&port->n_malformed);
        stats->n_lost = cs.n_lost;
        stats->n_upcalls = cs.n_queued;
    }
    ovs_mutex_unlock(&dp->mutex);
    return port ? 0 : ENOENT;
}

/* Flows. */

/* 3.1 logs each flow it adds (tests read the log for them). */
static void
log_flow_add(const struct flow *key, const struct flow_wildcards *mask,
             const struct nlattr *actions, size_t actions_len)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(600, 600);
    if (!VLOG_DROP_DBG(&rl)) {
        struct ds s = DS_EMPTY_INITIALIZER;
        odp_flow_format(key, mask, NULL, false, &s);
        ds_put_cstr(&s, ", actions:");
        odp_actions_format(actions, actions_len, NULL, &s);
        VLOG_DBG("flow_add: %s", ds_cstr(&s));
        ds_destroy(&s);
    }
}

/* Puts one flow; DP->mutex held. */
static int
flow_put__(struct dp_netdev *dp, enum dpif_flow_put_flags flags,
           const struct flow *key, const struct flow_wildcards *mask,
           const struct nlattr *actions, size_t actions_len,
           struct dpif_flow_stats *stats)
{
    int error = 0;
    /* The match serves the lookup and, for a new flow, the flow itself:
     * made once, as a flood of new flows puts nothing but new ones. */
    struct miniflow *match = miniflow_create_masked(key, mask);
    struct dp_netdev_flow *flow = flow_find_match(dp, match, mask);
    if (flow) {
        if (!(flags & DPIF_FP_MODIFY)) {
            error = EEXIST;
        } else {
            if (stats) {
                flow_get_stats(flow, stats);
            }
            struct dp_netdev_actions *old = atomic_exchange_explicit(
                &flow->actions, actions_create(actions, actions_len),
                memory_order_acq_rel);
            dp_epoch_postpone(free, old);
            if (flags & DPIF_FP_ZERO_STATS) {
                flow_clear_stats(flow);
            }
        }
    } else if (!(flags & DPIF_FP_CREATE)) {
        error = ENOENT;
    } else if (dp->destroyed) {
        error = ENODEV;
    } else {
        flow = xzalloc(sizeof *flow);
        flow->mask = *mask;
        struct flow masked;
        flow_apply_mask(&masked, key, mask);
        flow->hash = dpif_flow_hash(&masked, mask);
        flow->created = time_msec();
        flow->match = match;
        match = NULL;
        flow->given_key = miniflow_create(key);
        if (VLOG_IS_DBG_ENABLED()) {
            log_flow_add(key, mask, actions, actions_len);
        }
        atomic_init(&flow->actions, actions_create(actions, actions_len));
        atomic_init(&flow->ref_cnt, 1);
        atomic_init(&flow->dead, false);
        hmap_insert(&dp->flows, &flow->node, flow->hash);
        dpcls_insert(&dp->cls, &flow->cr, mask, flow->match);
    }
    free(match);
    return error;
}

static int
dpif_netdev_flow_put(struct dpif *dpif, enum dpif_flow_put_flags flags,
                     const struct flow *key,
                     const struct flow_wildcards *mask,
                     const struct nlattr *actions, size_t actions_len,
                     struct dpif_flow_stats *stats)
{
    struct dp_netdev *dp = get_dp(dpif);

    ovs_mutex_lock(&dp->mutex);
    int error = flow_put__(dp, flags, key, mask, actions, actions_len,
                           stats);
    ovs_mutex_unlock(&dp->mutex);
    return error;
}

static int
dpif_netdev_flow_del(struct dpif *dpif, const struct flow *key,
                     const struct flow_wildcards *mask,
                     struct dpif_flow_stats *stats)
{
    struct dp_netdev *dp = get_dp(dpif);

    ovs_mutex_lock(&dp->mutex);
    struct dp_netdev_flow *flow = flow_find(dp, key, mask);
    if (flow) {
        if (stats) {
            flow_get_stats(flow, stats);
        }
        flow_remove(dp, flow);
    }
    ovs_mutex_unlock(&dp->mutex);
    return flow ? 0 : ENOENT;
}

static void
do_flow_flush(struct dp_netdev *dp)
{
    struct dp_netdev_flow *flow;
    HMAP_FOR_EACH_SAFE (flow, node, &dp->flows) {
        flow_remove(dp, flow);
    }
}

static int
dpif_netdev_flow_flush(struct dpif *dpif)
{
    struct dp_netdev *dp = get_dp(dpif);
    ovs_mutex_lock(&dp->mutex);
    do_flow_flush(dp);
    ovs_mutex_unlock(&dp->mutex);
    return 0;
}

/* Fills OUT from FLOW, with its actions appended to *BUF (a malloc'd block
 * of *BUF_SIZE bytes, *BUF_USED in use); OUT->actions is set afterwards by
 * the caller from the offset stored in OUT->actions_len's twin. */
static size_t
flow_to_dpif_flow(const struct dp_netdev_flow *flow, bool given_key,
                  struct dpif_flow *out,
                  uint8_t **buf, size_t *buf_used, size_t *buf_size)
{
    struct dp_netdev_actions *a = atomic_load_explicit(
        &((struct dp_netdev_flow *) flow)->actions, memory_order_acquire);
    out->terse = false;
    miniflow_expand(given_key ? flow->given_key : flow->match, &out->key);
    out->mask = flow->mask;
    out->hash = flow->hash;
    out->created = flow->created;
    out->actions_len = a->size;
    flow_get_stats(flow, &out->stats);

    size_t ofs = *buf_used;
    if (ofs + a->size > *buf_size) {
        *buf_size = MAX(*buf_size * 2, ofs + a->size);
        *buf = xrealloc(*buf, *buf_size);
    }
    if (a->size) {
        memcpy(*buf + ofs, a->data, a->size);
    }
    *buf_used += ROUND_UP(a->size, 8);
    return ofs;
}

/* 3.1 logs each flow a dump returns, at debug level (tests read a flow's
 * counters there): the key as it was put, the counters in F, the
 * actions.  DP->mutex held. */
static void
log_flow_dump(const struct dp_netdev *dp, const struct dp_netdev_flow *flow,
              const struct dpif_flow *f)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(600, 600);
    if (VLOG_DROP_DBG(&rl)) {
        return;
    }
    struct dp_netdev_actions *a = atomic_load_explicit(
        &((struct dp_netdev_flow *) flow)->actions, memory_order_acquire);
    struct dpif_flow logged = *f;
    miniflow_expand(flow->given_key, &logged.key);
    logged.actions = (const struct nlattr *) a->data;
    logged.actions_len = a->size;
    struct ds s = DS_EMPTY_INITIALIZER;
    dpctl_format_dpif_flow(&s, &logged, NULL, true);
    VLOG_DBG("%s: flow_dump %s", dp->name, ds_cstr(&s));
    ds_destroy(&s);
}

/* Fills OUT terse and returns true if DUMP's terse window takes FLOW. */
static bool
flow_to_terse_dpif_flow(const struct dp_netdev_flow *flow,
                        const struct dpif_flow_dump *dump,
                        struct dpif_flow *out)
{
    long long int used = atomic_load_explicit(
        &((struct dp_netdev_flow *) flow)->used, memory_order_relaxed);
    long long int last = used ? used : flow->created;
    if (used >= dump->terse_quiet_before || last <= dump->terse_idle_before) {
        return false;
    }
    out->terse = true;
    out->hash = flow->hash;
    out->created = flow->created;
    out->actions_len = 0;
    flow_get_stats(flow, &out->stats);
    return true;
}

static int
dpif_netdev_flow_get(const struct dpif *dpif, const struct flow *key,
                     const struct flow_wildcards *mask, struct dpif_flow *out,
                     void **actions_buf)
{
    struct dp_netdev *dp = get_dp(dpif);

    ovs_mutex_lock(&dp->mutex);
    struct dp_netdev_flow *flow = flow_find(dp, key, mask);
    if (flow) {
        uint8_t *buf = NULL;
        size_t used = 0, size = 0;
        flow_to_dpif_flow(flow, true, out, &buf, &used, &size);
        out->actions = (const struct nlattr *) buf;
        *actions_buf = buf;
    }
    ovs_mutex_unlock(&dp->mutex);
    return flow ? 0 : ENOENT;
}

/* Dumps walk dp->flows by (bucket, offset in bucket), so a dump resumes
 * where it stopped even though flows come and go in between. */
struct dp_netdev_flow_dump {
    struct dpif_flow_dump up;
    struct dp_netdev *dp;
    struct ovs_mutex mutex;
    size_t bucket, offset;
    bool done;
};

struct dp_netdev_flow_dump_thread {
    struct dpif_flow_dump_thread up;
    uint8_t *buf;
    size_t buf_size;
};

static struct dpif_flow_dump *
dpif_netdev_flow_dump_create(const struct dpif *dpif)
{
    struct dp_netdev_flow_dump *dump = xzalloc(sizeof *dump);
    dump->up.dpif = dpif;
    dump->dp = get_dp(dpif);
    ovs_mutex_init(&dump->mutex);
    return &dump->up;
}

static struct dpif_flow_dump_thread *
dpif_netdev_flow_dump_thread_create(struct dpif_flow_dump *dump)
{
    struct dp_netdev_flow_dump_thread *t = xzalloc(sizeof *t);
    t->up.dump = dump;
    return &t->up;
}

static int
dpif_netdev_flow_dump_next(struct dpif_flow_dump_thread *thread_,
                           struct dpif_flow *flows, int max)
{
    struct dp_netdev_flow_dump_thread *thread = CONTAINER_OF(
        thread_, struct dp_netdev_flow_dump_thread, up);
    struct dp_netdev_flow_dump *dump = CONTAINER_OF(
        thread_->dump, struct dp_netdev_flow_dump, up);
    struct dp_netdev *dp = dump->dp;
    size_t offsets[128];
    size_t used = 0;
    int n = 0;

    max = MIN(max, (int) ARRAY_SIZE(offsets));
    ovs_mutex_lock(&dump->mutex);
    ovs_mutex_lock(&dp->mutex);
    while (!dump->done && n < max) {
        if (dump->bucket > dp->flows.mask) {
            dump->done = true;
            break;
        }
        struct hmap_node *node = dp->flows.buckets[dump->bucket];
        for (size_t i = 0; node && i < dump->offset; i++) {
            node = node->next;
        }
        for (; node && n < max; node = node->next) {
            struct dp_netdev_flow *flow = CONTAINER_OF(
                node, struct dp_netdev_flow, node);
            if (!flow_to_terse_dpif_flow(flow, thread_->dump, &flows[n])) {
                offsets[n] = flow_to_dpif_flow(flow,
                                               thread_->dump->given_keys,
                                               &flows[n], &thread->buf,
                                               &used, &thread->buf_size);
                log_flow_dump(dp, flow, &flows[n]);
            }
            n++;
            dump->offset++;
        }
        if (!node) {
            dump->bucket++;
            dump->offset = 0;
        }
    }
    ovs_mutex_unlock(&dp->mutex);
    ovs_mutex_unlock(&dump->mutex);

    for (int i = 0; i < n; i++) {
        flows[i].actions = (flows[i].terse ? NULL
                            : (const struct nlattr *) (thread->buf
                                                        + offsets[i]));
    }
    return n;
}

static void
dpif_netdev_flow_dump_thread_destroy(struct dpif_flow_dump_thread *thread_)
{
    struct dp_netdev_flow_dump_thread *thread = CONTAINER_OF(
        thread_, struct dp_netdev_flow_dump_thread, up);
    free(thread->buf);
    free(thread);
}

static int
dpif_netdev_flow_dump_destroy(struct dpif_flow_dump *dump_)
{
    struct dp_netdev_flow_dump *dump = CONTAINER_OF(
        dump_, struct dp_netdev_flow_dump, up);
    ovs_mutex_destroy(&dump->mutex);
    free(dump);
    return 0;
}

/* Execution from outside the rx threads. */
static int
dpif_netdev_execute(struct dpif *dpif, struct dp_packet_batch *batch,
                    const struct nlattr *actions, size_t actions_len)
{
    struct dp_netdev *dp = get_dp(dpif);
    dp_epoch_enter();
    execute_actions(dp, batch, actions, actions_len);
    dp_epoch_exit();
    return 0;
}

/* A handler's batch: every put under one acquisition of the mutex, every
 * execute in one epoch section. */
/* Runs the executes among OPS in order.  Consecutive ones with the very
 * same actions (a handler's batch of new flows bound for one port, say) run
 * as one batch, so that their outputs leave in one send of many packets
 * instead of one each. */
static void
execute_ops(struct dp_netdev *dp, struct dpif_op **ops, size_t n_ops)
{
    struct dp_packet_batch group;
    const struct dpif_op *first = NULL;     /* Whose actions 'group' runs. */

    dp_packet_batch_init(&group);
    for (size_t i = 0; i < n_ops; i++) {
        struct dpif_op *op = ops[i];
        if (op->type != DPIF_OP_EXECUTE) {
            continue;
        }
        op->error = 0;
        const struct dp_packet_batch *b = op->execute.batch;
        if (first
            && (op->execute.actions_len != first->execute.actions_len
                || memcmp(op->execute.actions, first->execute.actions,
                          op->execute.actions_len)
                || group.count + b->count > NETDEV_MAX_BURST)) {
            execute_actions(dp, &group, first->execute.actions,
                            first->execute.actions_len);
            dp_packet_batch_init(&group);
            first = NULL;
        }
        if (!first) {
            first = op;
        }
        for (size_t j = 0; j < b->count; j++) {
            group.packets[group.count++] = b->packets[j];
        }
    }
    if (first) {
        execute_actions(dp, &group, first->execute.actions,
                        first->execute.actions_len);
    }
}

static void
dpif_netdev_operate(struct dpif *dpif, struct dpif_op **ops, size_t n_ops)
{
    struct dp_netdev *dp = get_dp(dpif);
    bool any_put = false, any_execute = false;

    for (size_t i = 0; i < n_ops; i++) {
        if (ops[i]->type == DPIF_OP_FLOW_PUT) {
            any_put = true;
        } else {
            any_execute = true;
        }
    }
    if (any_put) {
        ovs_mutex_lock(&dp->mutex);
        for (size_t i = 0; i < n_ops; i++) {
            struct dpif_op *op = ops[i];
            if (op->type == DPIF_OP_FLOW_PUT) {
                op->error = flow_put__(dp, op->put.flags, op->put.key,
                                       op->put.mask, op->put.actions,
                                       op->put.actions_len, op->put.stats);
            }
        }
        ovs_mutex_unlock(&dp->mutex);
    }
    if (any_execute) {
        dp_epoch_enter();
        execute_ops(dp, ops, n_ops);
        dp_epoch_exit();
    }
}

/* Upcall handlers. */

static void
handlers_destroy(struct dp_netdev *dp)
{
    for (uint32_t i = 0; i < dp->n_handlers; i++) {
        dpif_channel_handler_uninit(&dp->handlers[i]);
    }
    free(dp->handlers);
    dp->handlers = NULL;
    dp->n_handlers = 0;
}

static int
dpif_netdev_handlers_set(struct dpif *dpif, uint32_t n)
{
    struct dp_netdev *dp = get_dp(dpif);
    ovs_mutex_lock(&dp->mutex);
    if (n != dp->n_handlers) {
        handlers_destroy(dp);
        dp->handlers = xcalloc(n ? n : 1, sizeof *dp->handlers);
        for (uint32_t i = 0; i < n; i++) {
            dpif_channel_handler_init(&dp->handlers[i], dp->channels);
        }
        dp->n_handlers = n;
    }
    ovs_mutex_unlock(&dp->mutex);
    return 0;
}

static struct dpif_channel_handler *
get_handler(const struct dp_netdev *dp, uint32_t handler_id)
{
    /* The handler array changes only through dpif_handlers_set(), which
     * the layer above calls while its handler threads are stopped. */
    return handler_id < dp->n_handlers ? &dp->handlers[handler_id] : NULL;
}

static size_t
dpif_netdev_recv(struct dpif *dpif, uint32_t handler_id,
                 struct dpif_upcall *upcalls, size_t max)
{
    struct dp_netdev *dp = get_dp(dpif);
    struct dpif_channel_handler *h = get_handler(dp, handler_id);
    const struct dpif_channel_slot *slots[DPIF_CHANNEL_MAX_BATCH];

    if (!h) {
        return 0;
    }
    size_t n = dpif_channel_recv(h, slots, max);
    for (size_t i = 0; i < n; i++) {
        const struct dpif_channel_slot *s = slots[i];
        struct dpif_upcall *u = &upcalls[i];
        u->type = s->type == DPIF_CHANNEL_ACTION ? DPIF_UC_ACTION
                                                 : DPIF_UC_MISS;
        u->key = &s->key;
        u->hash = s->hash;
        /* The handler may modify the packet (and push headers, which then
         * moves it to the heap): the slot is its own until released. */
        dp_packet_use_foreign(&u->packet, (void *) s->packet, s->packet_len,
                              0, s->packet_len);
        u->packet.l3_ofs = s->l3_ofs;
        u->packet.l4_ofs = s->l4_ofs;
        /* The rest of the packet's metadata as the key has it, so that
         * executing the translation's actions sees what the datapath saw:
         * an IP packet a tunnel decapsulated stays one (push_eth needs
         * its packet type), with its tunnel metadata. */
        pkt_metadata_init(&u->packet.md, s->port);
        u->packet.md.skb_priority = s->key.skb_priority;
        u->packet.md.pkt_mark = s->key.pkt_mark;
        u->packet.md.recirc_id = s->key.recirc_id;
        u->packet.md.dp_hash = s->key.dp_hash;
        u->packet.md.packet_type = s->key.packet_type;
        u->packet.md.tunnel = s->key.tunnel;
        /* And its conntrack state: translation's ct() and recirc go on
         * from where the datapath was. */
        flow_ct_to_metadata(&s->key, &u->packet.md);
        u->packet.md.tun_opts_len = 0;
        if (s->key.tunnel.flags & FLOW_TNL_F_UDPIF
            && s->key.tun_metadata.present
               <= sizeof u->packet.md.tun_opts) {
            u->packet.md.tun_opts_len = s->key.tun_metadata.present;
            memcpy(u->packet.md.tun_opts, s->key.tun_metadata.opts,
                   u->packet.md.tun_opts_len);
        }
        dp_packet_set_hash(&u->packet, s->hash);
        u->userdata = s->userdata_len
                      ? (const struct nlattr *) s->userdata : NULL;
        u->userdata_len = s->userdata_len;
    }
    return n;
}

static void
dpif_netdev_recv_release(struct dpif *dpif, uint32_t handler_id)
{
    struct dpif_channel_handler *h = get_handler(get_dp(dpif), handler_id);
    if (h) {
        dpif_channel_release(h);
    }
}

static struct conntrack *
dpif_netdev_conntrack(const struct dpif *dpif)
{
    return get_dp(dpif)->conntrack;
}

static struct ipf *
dpif_netdev_ipf(const struct dpif *dpif)
{
    return get_dp(dpif)->ipf;
}

static void
dpif_netdev_set_control_sink(struct dpif *dpif, dpif_control_sink_cb *cb,
                             void *aux)
{
    struct dp_netdev *dp = get_dp(dpif);
    struct dp_control_sink *sink = NULL;
    if (cb) {
        sink = xmalloc(sizeof *sink);
        sink->cb = cb;
        sink->aux = aux;
    }
    struct dp_control_sink *old = atomic_exchange_explicit(
        &dp->control_sink, sink, memory_order_acq_rel);
    if (old) {
        /* Every sink call runs inside an epoch section: once the old
         * record is freed, no thread is still in the old sink. */
        dp_epoch_postpone(free, old);
        dp_epoch_synchronize();
    }
}

static void
dpif_netdev_recv_wait(struct dpif *dpif, uint32_t handler_id)
{
    struct dpif_channel_handler *h = get_handler(get_dp(dpif), handler_id);
    if (h) {
        dpif_channel_wait(h);
    }
}

static int
dpif_netdev_meter_set(struct dpif *dpif, uint32_t meter_id,
                      const struct dpif_meter_config *config)
{
    return dp_meter_table_set(get_dp(dpif)->meters, meter_id, config);
}

static int
dpif_netdev_meter_get(const struct dpif *dpif, uint32_t meter_id,
                      struct dpif_meter_stats *stats)
{
    return dp_meter_table_get(get_dp(dpif)->meters, meter_id, stats);
}

static int
dpif_netdev_meter_del(struct dpif *dpif, uint32_t meter_id,
                      struct dpif_meter_stats *stats)
{
    return dp_meter_table_del(get_dp(dpif)->meters, meter_id, stats);
}

static int
dpif_netdev_bond_add(struct dpif *dpif, uint32_t bond_id,
                     const uint32_t ports[DPIF_BOND_N_BUCKETS])
{
    dp_bond_table_set(get_dp(dpif)->bonds, bond_id, ports);
    return 0;
}

static int
dpif_netdev_bond_del(struct dpif *dpif, uint32_t bond_id)
{
    return dp_bond_table_del(get_dp(dpif)->bonds, bond_id);
}

static int
dpif_netdev_bond_stats_get(const struct dpif *dpif, uint32_t bond_id,
                           uint64_t n_bytes[DPIF_BOND_N_BUCKETS])
{
    return dp_bond_table_stats(get_dp(dpif)->bonds, bond_id, n_bytes);
}

/* dpif-netdev/bond-show [DP]: the datapath's lb_output bonds. */
static void
dpif_netdev_bond_show(struct unixctl_conn *conn, int argc,
                      const char *argv[], void *aux OVS_UNUSED)
{
    struct ds reply = DS_EMPTY_INITIALIZER;
    struct dp_netdev *dp = NULL;
    ovs_mutex_lock(&dp_netdevs_mutex);
    if (argc == 2) {
        dp = shash_find_data(&dp_netdevs, argv[1]);
    } else if (shash_count(&dp_netdevs) == 1) {
        dp = shash_first(&dp_netdevs)->data;
    }
    if (dp) {
        dp_bond_table_format(dp->bonds, &reply);
    }
    ovs_mutex_unlock(&dp_netdevs_mutex);
    if (dp) {
        unixctl_command_reply(conn, ds_cstr(&reply));
    } else {
        unixctl_command_reply_error(conn,
                                    "please specify an existing datapath");
    }
    ds_destroy(&reply);
}

/* One implementation under two type names. */
#define DPIF_NETDEV_FUNCTIONS                                          \
    .enumerate = dpif_netdev_enumerate,                                \
    .open = dpif_netdev_open,                                          \
    .close = dpif_netdev_close,                                        \
    .destroy = dpif_netdev_destroy,                                    \
    .run = dpif_netdev_run,                                            \
    .wait = dpif_netdev_wait,                                          \
    .set_n_rx_threads = dpif_netdev_set_n_rx_threads,                  \
    .get_n_rx_threads = dpif_netdev_get_n_rx_threads,                  \
    .get_stats = dpif_netdev_get_stats,                                \
    .port_add = dpif_netdev_port_add,                                  \
    .port_del = dpif_netdev_port_del,                                  \
    .port_query_by_number = dpif_netdev_port_query_by_number,          \
    .port_query_by_name = dpif_netdev_port_query_by_name,              \
    .port_list = dpif_netdev_port_list,                                \
    .port_get_stats = dpif_netdev_port_get_stats,                      \
    .flow_put = dpif_netdev_flow_put,                                  \
    .flow_del = dpif_netdev_flow_del,                                  \
    .flow_flush = dpif_netdev_flow_flush,                              \
    .flow_get = dpif_netdev_flow_get,                                  \
    .flow_dump_create = dpif_netdev_flow_dump_create,                  \
    .flow_dump_thread_create = dpif_netdev_flow_dump_thread_create,    \
    .flow_dump_next = dpif_netdev_flow_dump_next,                      \
    .flow_dump_thread_destroy = dpif_netdev_flow_dump_thread_destroy,  \
    .flow_dump_destroy = dpif_netdev_flow_dump_destroy,                \
    .execute = dpif_netdev_execute,                                    \
    .operate = dpif_netdev_operate,                                    \
    .meter_set = dpif_netdev_meter_set,                                \
    .meter_get = dpif_netdev_meter_get,                                \
    .meter_del = dpif_netdev_meter_del,                                \
    .bond_add = dpif_netdev_bond_add,                                  \
    .bond_del = dpif_netdev_bond_del,                                  \
    .bond_stats_get = dpif_netdev_bond_stats_get,                      \
    .handlers_set = dpif_netdev_handlers_set,                          \
    .recv = dpif_netdev_recv,                                          \
    .recv_release = dpif_netdev_recv_release,                          \
    .recv_wait = dpif_netdev_recv_wait,                                \
    .set_control_sink = dpif_netdev_set_control_sink,                  \
    .conntrack = dpif_netdev_conntrack,                                \
    .ipf = dpif_netdev_ipf,

const struct dpif_class dpif_netdev_class = {
    .type = "netdev",
    DPIF_NETDEV_FUNCTIONS
};

const struct dpif_class dpif_dummy_class = {
    .type = "dummy",
    .dummy = true,
    DPIF_NETDEV_FUNCTIONS
};

const struct dpif_class dpif_system_dummy_class = {
    .type = "system",
    .dummy = true,
    DPIF_NETDEV_FUNCTIONS
};

