/* xlate: see xlate.h. */
#include <config.h>
#include "xlate.h"

#include <linux/openvswitch.h>
#include <stdlib.h>
#include <string.h>
#include "bitmap.h"
#include "coverage.h"
#include "dynamic-string.h"
#include "flow-select.h"
#include "learn.h"
#include "hash.h"
#include "mac-learning.h"
#include "mpls.h"
#include "netlink.h"
#include "bond.h"
#include "ofport-patch.h"
#include "ofproto-private.h"
#include "port-protocol.h"
#include "match.h"
#include "ofp-actions.h"
#include "ofp-table.h"
#include "ofp-port.h"
#include "recirc.h"
#include "util.h"
#include "vlog.h"
#include "tunnel.h"
#include "netdev-vport.h"
#include "dp-packet.h"
#include "dpif.h"
#include "ip-addr.h"
#include "ovs-router.h"
#include "tnl-header.h"
#include "tnl-neigh-cache.h"
#include "tnl-ports.h"
#include "tun-metadata.h"
#include "xlate-commit.h"
#include "xlate-mpls.h"
#include "ct-zones.h"
#include "xlate-ct.h"
#include "xlate-trace.h"

/* Open vSwitch's name for its translation module, which operators and
 * test harnesses name with -v and vlog/set. */
VLOG_DEFINE_THIS_MODULE(ofproto_dpif_xlate);

COVERAGE_DEFINE(xlate_actions);
COVERAGE_DEFINE(xlate_too_deep);

static struct vlog_rate_limit check_rl = VLOG_RATE_LIMIT_INIT(5, 5);

struct xlate_ctx {
    const struct xlate_in *xin;
    struct xlate_out *xout;
    struct ofproto *ofproto;
    ovs_version_t version;
    struct flow flow;           /* As the actions so far made it. */
    struct flow base;           /* As the datapath packet is now. */
    struct flow_wildcards *wc;
    struct ofpbuf *odp;
    int depth;                  /* Resubmit nesting. */
    uint8_t table_id;           /* Table being run. */
    ovs_be64 rule_cookie;       /* Of the rule being run. */
    bool error;                 /* Too deep: the whole result drops. */
    bool exit;                  /* "exit": stop. */
    bool no_recv;               /* Input port has OFPPC_NO_RECV: the first
                                 * table is looked up, nothing runs. */
    struct ofpbuf action_set;   /* What write_actions wrote. */
    /* Where an output to CONTROLLER is (its packet_in's reason). */
    bool in_packet_out;         /* The actions of a packet_out. */
    bool in_group;              /* A group's bucket. */
    bool in_action_set;         /* The action set being executed. */

    /* MPLS.  A pop to a non-MPLS type leaves a packet whose L3 header the
     * datapath has not parsed: what needs it must wait for the packet to
     * come back through the datapath ('was_mpls').  A push onto a packet
     * that was not MPLS leaves the flow's L3 and L4 fields zero
     * ('l3_cleared'): they are not the packet's, and are never
     * committed. */
    bool was_mpls;
    bool l3_cleared;
    struct ofpbuf stack;        /* The field stack (push/pop actions). */

    /* Freezing: when set, translation unwinds (like 'exit'), each level
     * adding what it had left to do to 'frozen'; then the datapath
     * actions recirculate the packet with the id of that frozen state
     * (recirc.h). */
    bool freezing;
    struct ofpbuf frozen;       /* struct frozen_segment + ofpacts, ... */

    /* Whether the action being run is the last thing translation does
     * (3.1's "last action"): crossing a patch port elsewhere must not let
     * the peer bridge's irreversible actions (meter) touch the packet the
     * rest of the actions see, so they go in a datapath clone. */
    bool last_action;
    /* Set by a patch port crossing for the lookup it starts: that rule's
     * actions are the peer bridge's and run as xlate_patch_rule() says. */
    bool patch_lookup;
    int resubmits;              /* Tables looked up, against loops. */

    /* Connection tracking.  The flow's ct_* fields are the packet's only
     * while 'conntracked': from a ct(table=N) recirculation, or a packet
     * that came in tracked; a ct() without a table leaves the packet in a
     * state translation cannot know, so they read as zero after it.
     * 'ct_nat' is the nat() of the ct() being translated. */
    bool conntracked;
    const struct ofpact_nat *ct_nat;
    /* Set by resubmit(...,ct) for the lookup it starts: the flow's
     * addresses, protocol and ports are looked up as the connection's
     * original direction has them. */
    bool lookup_ct_orig;
};

static void do_xlate_actions(struct xlate_ctx *, const struct ofpact *,
                             size_t ofpacts_len);
static void freeze_actions(struct xlate_ctx *, const struct ofpact *,
                           size_t ofpacts_len);
static void freeze_lookup(struct xlate_ctx *, uint32_t in_port,
                          uint8_t table_id, bool honor_miss);
static void finish_freezing(struct xlate_ctx *, bool with_action_set);
static uint32_t freeze_packet_in(struct xlate_ctx *, const void *userdata,
                                 size_t userdata_len);
static void xlate_patch_output(struct xlate_ctx *, const struct ofport *);
static void xlate_ct(struct xlate_ctx *, const struct ofpact_conntrack *);
static void xlate_native_tunnel_output(struct xlate_ctx *,
                                       const struct ofport *);
static bool xlate_terminate_tunnel(struct xlate_ctx *, const struct ofport *,
                                   uint32_t *pop_port);
static bool xlate_port_protocols(struct xlate_ctx *);
static void report_error(const struct xlate_ctx *, const char *message);

static bool
is_ip_any(const struct flow *flow)
{
    return (flow->dl_type == htons(ETH_TYPE_IP)
            || flow->dl_type == htons(ETH_TYPE_IPV6));
}

/* Adds a note ("-> ...") to the trace, if any. */
static void OVS_PRINTF_FORMAT(2, 3)
trace_note(const struct xlate_ctx *ctx, const char *format, ...)
{
    struct xtrace *t = ctx->xin->trace;
    if (!t) {
        return;
    }
    va_list args;
    va_start(args, format);
    char *text = xvasprintf(format, args);
    va_end(args);
    xtrace_add(t, XTRACE_DETAIL, "%s", text);
    free(text);
}

/* Makes the datapath packet what CTX->flow says before it goes anywhere
 * (xlate-commit.h). */
static void
commit_all(struct xlate_ctx *ctx)
{
    ctx->xout->slow |= xlate_commit(&ctx->flow, &ctx->base,
                                    ctx->l3_cleared, ctx->wc, ctx->odp);
}

/* Outputs to PORT as the packet now is.  TRACE says whether to account
 * for it in the trace (NORMAL and flooding speak for themselves). */
static void
compose_output(struct xlate_ctx *ctx, const struct ofport *port)
{
    if (port->fwd_blocker && !ctx->xin->control) {
        if (ctx->xin->trace) {
            xtrace_add(ctx->xin->trace, XTRACE_WARN,
                       "%s not in forwarding state, skipping output",
                       port->fwd_blocker);
        }
        return;
    }
    if (port->is_patch) {
        xlate_patch_output(ctx, port);
        return;
    }
    if (tnl_port_is_l3(port) && ctx->flow.packet_type == htonl(PT_ETH)) {
        /* An IP-only tunnel: the Ethernet header (and any VLAN tag) comes
         * off before, and is the flow's again after. */
        if (!is_ip_any(&ctx->flow)) {
            trace_note(ctx, "dropping non-IP packet to L3 tunnel port");
            return;
        }
        struct flow saved = ctx->flow;
        ctx->flow.packet_type = htonl(PACKET_TYPE(PT_NS_ETHERTYPE,
                                                  ntohs(ctx->flow.dl_type)));
        memset(ctx->flow.vlans, 0, sizeof ctx->flow.vlans);
        compose_output(ctx, port);
        ctx->flow.packet_type = saved.packet_type;
        ctx->flow.dl_src = saved.dl_src;
        ctx->flow.dl_dst = saved.dl_dst;
        memcpy(ctx->flow.vlans, saved.vlans, sizeof ctx->flow.vlans);
        return;
    }
    if (tnl_port_is_tunnel(port) && ctx->xin->n_packets) {
        netdev_vport_count(port->netdev, false, ctx->xin->n_packets,
                           ctx->xin->n_bytes);
    }
    if (tnl_port_is_tunnel(port) && tnl_push_pop_enabled()) {
        xlate_native_tunnel_output(ctx, port);
        return;
    }
    if (tnl_port_is_tunnel(port)) {
        /* The port's options give the packet its outer header; what the
         * flow's tunnel fields were stays for the actions after this
         * output, as in 3.1. */
        struct flow_tnl saved = ctx->flow.tunnel;
        uint32_t odp_port = tnl_port_send(port, &ctx->flow, ctx->wc);
        /* A Geneve port's packet carries the present tun_metadataN as
         * options (another port's none). */
        uint8_t opts[ODP_GENEVE_OPTS_MAX];
        size_t opts_len = tnl_port_geneve_opts(port, &ctx->flow, opts,
                                               sizeof opts);
        if (opts_len == SIZE_MAX) {
            trace_note(ctx, "Geneve options do not fit in a packet, "
                       "dropping");
            ctx->flow.tunnel = saved;
            return;
        }
        if (opts_len) {
            tun_md_mask_for_output(&ctx->ofproto->tun_table,
                                   &ctx->flow.tun_metadata,
                                   &ctx->wc->masks.tun_metadata);
        }
        uint8_t base_opts[ODP_GENEVE_OPTS_MAX];
        size_t base_len = tun_md_to_geneve(&ctx->ofproto->tun_table,
                                           &ctx->base.tun_metadata,
                                           base_opts, sizeof base_opts);
        if (memcmp(&ctx->flow.tunnel, &ctx->base.tunnel,
                   sizeof ctx->flow.tunnel)
            || opts_len != base_len
            || memcmp(opts, base_opts, opts_len)) {
            odp_put_tunnel_action(&ctx->flow.tunnel, opts, opts_len,
                                  ctx->odp);
            ctx->base.tunnel = ctx->flow.tunnel;
            /* What the datapath packet carries now. */
            ctx->base.tun_metadata = ctx->flow.tun_metadata;
            if (!opts_len) {
                memset(&ctx->base.tun_metadata, 0,
                       sizeof ctx->base.tun_metadata);
            }
        }
        commit_all(ctx);
        nl_msg_put_u32(ctx->odp, OVS_ACTION_ATTR_OUTPUT, odp_port);
        ctx->flow.tunnel = saved;
        return;
    }
    uint32_t pop_port;
    if (tnl_push_pop_enabled() && xlate_terminate_tunnel(ctx, port,
                                                         &pop_port)) {
        /* One of our tunnels' packets: decapsulated, it comes back as
         * received on the tunnel's datapath port. */
        commit_all(ctx);
        odp_put_tnl_pop_action(ctx->odp, pop_port);
        return;
    }
    commit_all(ctx);
    nl_msg_put_u32(ctx->odp, OVS_ACTION_ATTR_OUTPUT, port->odp_port);
}

static void
output_to_ofp_port(struct xlate_ctx *ctx, uint32_t ofp_port,
                   bool allow_in_port)
{
    if (ofp_port == ctx->flow.in_port && !allow_in_port) {
        trace_note(ctx, "skipping output to input port");
        return;
    }
    const struct ofport *port = ofproto_get_port(ctx->ofproto, ofp_port);
    if (!port) {
        if (ctx->xin->trace) {
            xtrace_add(ctx->xin->trace, XTRACE_WARN,
                       "Nonexistent output port");
        }
        return;
    }
    if (port->config & OFPUTIL_PC_NO_FWD) {
        trace_note(ctx, "OFPPC_NO_FWD set, skipping output");
        return;
    }
    compose_output(ctx, port);
}

static int
compare_ports(const void *a_, const void *b_)
{
    const struct ofport *const *a = a_, *const *b = b_;
    return (*a)->ofp_port < (*b)->ofp_port ? -1
           : (*a)->ofp_port > (*b)->ofp_port;
}

/* FLOOD and ALL: every port but the input, in port number order, but
 * those with OFPPC_NO_FWD, and for FLOOD those with OFPPC_NO_FLOOD. */
static void
flood_ports(struct xlate_ctx *ctx, bool all)
{
    uint32_t skip = OFPUTIL_PC_NO_FWD | (all ? 0 : OFPUTIL_PC_NO_FLOOD);
    size_t n = hmap_count(&ctx->ofproto->ports), i = 0;
    const struct ofport **ports = xmalloc(n * sizeof *ports);
    const struct ofport *port;
    HMAP_FOR_EACH (port, hmap_node, &ctx->ofproto->ports) {
        if (port->ofp_port != ctx->flow.in_port && !(port->config & skip)) {
            ports[i++] = port;
        }
    }
    qsort(ports, i, sizeof *ports, compare_ports);
    /* Only the last copy may be changed in place (a tunnel's tnl_push
     * without clone()): the others must leave the packet as it was. */
    bool was_last = ctx->last_action;
    for (size_t j = 0; j < i; j++) {
        ctx->last_action = was_last && j == i - 1;
        compose_output(ctx, ports[j]);
    }
    ctx->last_action = was_last;
    free(ports);
}

/* NORMAL. */

static bool
bundle_trunks_vlan(const struct ofbundle *b, uint16_t vlan)
{
    return b->vlan_mode != PORT_VLAN_ACCESS
           && (!b->trunks || bitmap_is_set(b->trunks, vlan));
}

static bool
bundle_includes_vlan(const struct ofbundle *b, uint16_t vlan)
{
    return vlan == b->vlan || bundle_trunks_vlan(b, vlan);
}

/* The VID a packet in VLAN leaves B with (0: untagged). */
static uint16_t
bundle_output_vid(const struct ofbundle *b, uint16_t vlan)
{
    switch (b->vlan_mode) {
    case PORT_VLAN_ACCESS:
        return 0;
    case PORT_VLAN_TRUNK:
    case PORT_VLAN_NATIVE_TAGGED:
        return vlan;
    case PORT_VLAN_NATIVE_UNTAGGED:
        return vlan == b->vlan ? 0 : vlan;
    }
    return vlan;
}

static const struct ofport *
bundle_pick_port(const struct ofbundle *b)
{
    const struct ofport *port;
    LIST_FOR_EACH (port, bundle_node, &b->ports) {
        if (port->may_enable) {
            return port;
        }
    }
    return NULL;
}

/* Output to balance-tcp bond B through the datapath's hash: the packet
 * as it is now, its dp_hash set from its 5-tuple and BASIS, goes back
 * through the datapath with RECIRC_ID, whose lookup lands on the bond's
 * rule for its bucket (bond-rules.h). */
static void
compose_bond_recirc(struct xlate_ctx *ctx, const struct ofbundle *b,
                    uint32_t recirc_id, uint32_t basis)
{
    commit_all(ctx);
    struct ovs_action_hash hash = {
        .hash_alg = OVS_HASH_ALG_L4,
        .hash_basis = basis,
    };
    nl_msg_put_unspec(ctx->odp, OVS_ACTION_ATTR_HASH, &hash, sizeof hash);
    nl_msg_put_u32(ctx->odp, OVS_ACTION_ATTR_RECIRC, recirc_id);
    /* The datapath flow keeps the id's state alive while it lives. */
    if (recirc_ref_id(recirc_id)) {
        recirc_refs_add(&ctx->xout->recircs, recirc_id);
    }
    trace_note(ctx, "bond %s hashes in the datapath: hash(l4(%"PRIu32")), "
               "recirc(%#"PRIx32")", b->name, basis, recirc_id);
}

static void
output_normal(struct xlate_ctx *ctx, const struct ofbundle *b, uint16_t vlan,
              uint8_t pcp)
{
    const struct ofport *port;
    uint32_t recirc_id = 0, basis = 0;
    bool lb_output = false;
    if (b->bond) {
        /* A balance-tcp bond that recirculates hashes in the datapath:
         * the member chosen here only says that one is usable, so the
         * flow's fields it would hash are not matched (3.1 does the same,
         * also when that member is a patch port and the packet goes
         * straight there). */
        bool recirc = bond_get_recirc(b->bond, &recirc_id, &basis,
                                      &lb_output);
        port = bond_choose_output(b->bond, &ctx->flow,
                                  recirc ? NULL : ctx->wc, vlan);
        if (!port) {
            trace_note(ctx, "no usable member in bond %s, dropping",
                       b->name);
            return;
        }
        if (!recirc && ctx->xin->n_bytes) {
            bond_account(b->bond, &ctx->flow, vlan, ctx->xin->n_bytes);
        }
        if (port->is_patch) {
            recirc_id = 0;
        }
    } else {
        port = bundle_pick_port(b);
        if (!port) {
            return;
        }
    }
    if (port->config & OFPUTIL_PC_NO_FWD) {
        trace_note(ctx, "OFPPC_NO_FWD set, skipping output");
        return;
    }
    uint16_t vid = bundle_output_vid(b, vlan);
    union flow_vlan_hdr saved = ctx->flow.vlans[0];
    if (vid) {
        ctx->flow.vlans[0].tpid = htons(ETH_TYPE_VLAN_8021Q);
        ctx->flow.vlans[0].tci = htons(VLAN_CFI | vid
                                       | (pcp << VLAN_PCP_SHIFT));
    } else {
        ctx->flow.vlans[0].qtag = 0;
    }
    if (recirc_id && lb_output) {
        /* The datapath picks the member from its copy of the buckets. */
        commit_all(ctx);
        nl_msg_put_u32(ctx->odp, ODP_ACTION_ATTR_LB_OUTPUT, recirc_id);
        trace_note(ctx, "bond %s: the datapath picks the member: "
                   "lb_output(%"PRIu32")", b->name, recirc_id);
    } else if (recirc_id) {
        compose_bond_recirc(ctx, b, recirc_id, basis);
    } else {
        compose_output(ctx, port);
    }
    ctx->flow.vlans[0] = saved;
}

static int
compare_bundles(const void *a_, const void *b_)
{
    const struct ofbundle *const *a = a_, *const *b = b_;
    if ((*a)->created_round != (*b)->created_round) {
        return (*a)->created_round < (*b)->created_round ? -1 : 1;
    }
    const struct ofport *pa = bundle_pick_port(*a);
    const struct ofport *pb = bundle_pick_port(*b);
    return pa->ofp_port < pb->ofp_port ? -1 : pa->ofp_port > pb->ofp_port;
}

/* Whether NORMAL floods to B: not if a member port has OFPPC_NO_FLOOD. */
static bool
bundle_is_floodable(const struct ofbundle *b)
{
    const struct ofport *port;
    LIST_FOR_EACH (port, bundle_node, &b->ports) {
        if (port->config & OFPUTIL_PC_NO_FLOOD) {
            return false;
        }
    }
    return true;
}

static void
flood_normal(struct xlate_ctx *ctx, const struct ofbundle *in_bundle,
             uint16_t vlan, uint8_t pcp)
{
    size_t n = hmap_count(&ctx->ofproto->bundles), i = 0;
    const struct ofbundle **bundles = xmalloc((n + 1) * sizeof *bundles);
    const struct ofbundle *b;
    HMAP_FOR_EACH (b, hmap_node, &ctx->ofproto->bundles) {
        if (b != in_bundle && bundle_includes_vlan(b, vlan)
            && bundle_pick_port(b) && bundle_is_floodable(b)) {
            bundles[i++] = b;
        }
    }
    qsort(bundles, i, sizeof *bundles, compare_bundles);
    /* As flood_ports(): only the last copy may change the packet. */
    bool was_last = ctx->last_action;
    for (size_t j = 0; j < i; j++) {
        ctx->last_action = was_last && j == i - 1;
        output_normal(ctx, bundles[j], vlan, pcp);
    }
    ctx->last_action = was_last;
    free(bundles);
}

static const char *
bundle_name(const struct ofbundle *b)
{
    return b->name;
}

static void
xlate_normal(struct xlate_ctx *ctx)
{
    struct flow *flow = &ctx->flow;
    struct flow_wildcards *wc = ctx->wc;

    WC_MASK_FIELD(wc, dl_src);
    WC_MASK_FIELD(wc, dl_dst);
    WC_MASK_FIELD(wc, vlans[0]);
    WC_MASK_FIELD(wc, in_port);

    const struct ofport *in_port = ofproto_get_port(ctx->ofproto,
                                                    flow->in_port);
    const struct ofbundle *in_bundle = in_port ? in_port->bundle : NULL;
    if (!in_bundle) {
        trace_note(ctx, "no input bundle, dropping");
        return;
    }

    /* The VLAN the packet is in. */
    bool tagged = flow_vlan_present(&flow->vlans[0]);
    uint16_t vid = tagged ? flow_vlan_vid(&flow->vlans[0]) : 0;
    uint8_t pcp = tagged ? flow_vlan_pcp(&flow->vlans[0]) : 0;
    uint16_t vlan;
    switch (in_bundle->vlan_mode) {
    case PORT_VLAN_ACCESS:
        if (vid) {
            trace_note(ctx, "dropping VLAN %d tagged packet received on "
                       "port %s configured as VLAN %d access port", vid,
                       bundle_name(in_bundle), in_bundle->vlan);
            return;
        }
        vlan = in_bundle->vlan;
        break;
    case PORT_VLAN_NATIVE_TAGGED:
    case PORT_VLAN_NATIVE_UNTAGGED:
        if (!vid) {
            vlan = in_bundle->vlan;
            break;
        }
        /* Fall through. */
    case PORT_VLAN_TRUNK:
    default:
        if (!bundle_trunks_vlan(in_bundle, vid)
            && !(vid && (int) vid == in_bundle->vlan
                 && in_bundle->vlan_mode != PORT_VLAN_TRUNK)) {
            trace_note(ctx, "dropping VLAN %d packet received on port %s "
                       "not configured for trunking VLAN %d", vid,
                       bundle_name(in_bundle), vid);
            return;
        }
        vlan = vid;
        break;
    }

    /* A bridge does not forward what is meant for the bridge itself
     * (802.1D 7.12.6): a BPDU or LACPDU that no protocol on the port took
     * would otherwise be flooded, and looped by parallel links. */
    if (!ctx->ofproto->forward_bpdu && eth_addr_is_reserved(flow->dl_dst)) {
        trace_note(ctx, "packet has reserved destination MAC, dropping");
        return;
    }

    /* A bond takes only what its mode lets it receive (bond.h). */
    if (in_bundle->bond) {
        switch (bond_check_admissibility(in_bundle->bond, in_port, flow,
                                         wc)) {
        case BV_ACCEPT:
            break;
        case BV_DROP:
            trace_note(ctx, "bonding refused admissibility, dropping");
            return;
        case BV_DROP_IF_MOVED: {
            const struct ofbundle *learned = mac_learning_lookup(
                ctx->ofproto->ml, flow->dl_src, vlan);
            if (learned && learned != in_bundle) {
                trace_note(ctx, "SLB bond %s thinks this packet looped "
                           "back, dropping", bundle_name(in_bundle));
                return;
            }
            break;
        }
        }
    }

    /* Learn (unless a spanning tree keeps the port from it). */
    if (ctx->xin->may_learn && in_port->learns
        && !eth_addr_is_multicast(flow->dl_src)) {
        if (mac_learning_learn(ctx->ofproto->ml, flow->dl_src, vlan,
                               (void *) in_bundle)) {
            trace_note(ctx, "learned that "ETH_ADDR_FMT" is on port %s in "
                       "VLAN %d", ETH_ADDR_ARGS(flow->dl_src),
                       bundle_name(in_bundle), vlan);
        }
    }

    /* Forward. */
    if (eth_addr_is_multicast(flow->dl_dst)) {
        /* Never learned, so 3.1's words for it. */
        trace_note(ctx, "no learned MAC for destination, flooding");
        flood_normal(ctx, in_bundle, vlan, pcp);
        return;
    }
    const struct ofbundle *out = mac_learning_lookup(ctx->ofproto->ml,
                                                     flow->dl_dst, vlan);
    if (!out) {
        trace_note(ctx, "no learned MAC for destination, flooding");
        flood_normal(ctx, in_bundle, vlan, pcp);
    } else if (out == in_bundle) {
        trace_note(ctx, "learned port is input port, dropping");
    } else {
        trace_note(ctx, "forwarding to learned port");
        output_normal(ctx, out, vlan, pcp);
    }
}

/* Packet-in: as 3.1, translation freezes here (recirc.h: the bridge, the
 * table, the rule's cookie, the pipeline fields as the actions left them
 * and the action's userdata) and sends the packet, as the actions before
 * left it, up through a "userspace" datapath action whose cookie names
 * the frozen state and says the rest (odp-util.h); the handler that
 * receives it (upcall.c) queues the packet_in. */
static void
xlate_controller(struct xlate_ctx *ctx, uint8_t reason, uint16_t max_len,
                 uint16_t controller_id, const void *userdata,
                 size_t userdata_len)
{
    uint32_t id = freeze_packet_in(ctx, userdata, userdata_len);

    commit_all(ctx);
    struct odp_cookie cookie = {
        .type = ODP_COOKIE_CONTROLLER,
        .controller = {
            /* A trace without side effects sends nothing, and says so. */
            .dont_send = ctx->xin->trace && !ctx->xin->may_learn,
            .reason = reason,
            .recirc_id = id,
            .controller_id = controller_id,
            .max_len = max_len,
        },
    };
    memcpy(cookie.controller.rule_cookie, &ctx->rule_cookie,
           sizeof ctx->rule_cookie);
    odp_put_userspace_cookie(ctx->odp, &cookie);
}

/* Tables. */

/* Adds the lookup in TABLE_ID that found RULE (NULL for a miss) to the
 * trace, if any, and returns its node, under which the rule's actions go;
 * NULL without a trace. */
static struct xtrace_node *
trace_rule(struct xlate_ctx *ctx, uint8_t table_id, const struct rule *rule)
{
    struct xtrace *t = ctx->xin->trace;
    if (!t) {
        return NULL;
    }
    if (!rule) {
        struct xtrace_node *n = xtrace_add(t, XTRACE_TABLE, "%2d. No match.",
                                           table_id);
        struct ovs_list *saved = xtrace_enter(t, n);
        xtrace_add(t, XTRACE_ACTION, "drop");
        xtrace_leave(t, saved);
        return n;
    }
    struct ds s = DS_EMPTY_INITIALIZER;
    struct match match;
    ofproto_rule_get_match(rule, &match);
    match_format(&match, NULL, &s, OFP_DEFAULT_PRIORITY);
    if (s.length) {
        ds_put_cstr(&s, ", ");
    }
    ds_put_format(&s, "priority %d", rule->cr.priority);
    if (rule->cookie) {
        ds_put_format(&s, ", cookie %#"PRIx64, ntohll(rule->cookie));
    }
    struct xtrace_node *n = xtrace_add(t, XTRACE_TABLE, "%2d. %s", table_id,
                                       ds_cstr(&s));
    ds_destroy(&s);
    return n;
}

/* Whether OpenFlow port OFP_PORT exists and has one of the BITS. */
static bool
port_config_has(const struct xlate_ctx *ctx, uint32_t ofp_port,
                uint32_t bits)
{
    const struct ofport *port = ofproto_get_port(ctx->ofproto, ofp_port);
    return port && port->config & bits;
}

static void xlate_table(struct xlate_ctx *, uint32_t in_port,
                        uint8_t table_id, bool honor_miss);
static void xlate_patch_rule(struct xlate_ctx *, const struct ofpact *,
                             size_t ofpacts_len);

/* A miss in TABLE_ID of a packet that came in on IN_PORT: what the
 * table's miss config (table_mod) says, by default a packet_in while a
 * connection wants misses. */
static void
xlate_miss(struct xlate_ctx *ctx, uint8_t table_id, uint32_t in_port,
           uint32_t lookup_in_port)
{
    uint8_t miss = atomic_load_explicit(
        &ctx->ofproto->tables[table_id].miss_config, memory_order_relaxed);
    uint8_t reason;
    switch (miss) {
    case OFPUTIL_TABLE_MISS_CONTINUE:
        if (table_id + 1 < OFPROTO_N_TABLES - 1) {
            xlate_table(ctx, lookup_in_port, table_id + 1, true);
        }
        return;
    case OFPUTIL_TABLE_MISS_DROP:
        return;
    case OFPUTIL_TABLE_MISS_CONTROLLER:
        /* Every connection that takes no_match hears of it. */
        reason = OFPR_EXPLICIT_MISS;
        break;
    case OFPUTIL_TABLE_MISS_DEFAULT:
    default:
        if (!atomic_load_explicit(&ctx->ofproto->miss_to_controller,
                                  memory_order_relaxed)) {
            return;
        }
        reason = OFPR_IMPLICIT_MISS;
        break;
    }
    if (port_config_has(ctx, in_port, OFPUTIL_PC_NO_PACKET_IN)) {
        return;
    }
    trace_note(ctx, "table miss: sending to controller");
    ovs_be64 saved_cookie = ctx->rule_cookie;
    ctx->rule_cookie = OVS_BE64_MAX;
    xlate_controller(ctx, reason, UINT16_MAX, 0, NULL, 0);
    ctx->rule_cookie = saved_cookie;
}

/* Exchanges FLOW's addresses, IP protocol and ports with the ct_*
 * fields of its connection's original direction, in the flow and in the
 * wildcards alike (what a lookup reads of one is then the other's). */
static void
swap_ct_orig_tuple__(struct flow *f, bool ipv4)
{
#define SWAP(A, B) do { __typeof__(A) tmp_ = (A); (A) = (B); (B) = tmp_; } \
                   while (0)
    SWAP(f->nw_proto, f->ct_nw_proto);
    if (ipv4) {
        SWAP(f->nw_src, f->ct_nw_src);
        SWAP(f->nw_dst, f->ct_nw_dst);
    } else {
        SWAP(f->ipv6_src, f->ct_ipv6_src);
        SWAP(f->ipv6_dst, f->ct_ipv6_dst);
    }
    SWAP(f->tp_src, f->ct_tp_src);
    SWAP(f->tp_dst, f->ct_tp_dst);
#undef SWAP
}

static void
swap_ct_orig_tuple(struct xlate_ctx *ctx)
{
    bool ipv4 = ctx->flow.dl_type == htons(ETH_TYPE_IP);
    swap_ct_orig_tuple__(&ctx->flow, ipv4);
    swap_ct_orig_tuple__(&ctx->wc->masks, ipv4);
}

/* Looks the flow up in TABLE_ID (with IN_PORT as its input port unless
 * OFPP_IN_PORT) and runs the rule found.  A miss is a table miss, to the
 * controller when one wants it, only when HONOR_MISS: resubmit's misses
 * are silent, as in Open vSwitch. */
static void
xlate_table(struct xlate_ctx *ctx, uint32_t in_port, uint8_t table_id,
            bool honor_miss)
{
    bool patch_lookup = ctx->patch_lookup;
    ctx->patch_lookup = false;
    if (ctx->depth >= XLATE_MAX_RESUBMIT_DEPTH) {
        COVERAGE_INC(xlate_too_deep);
        trace_note(ctx, "over max translation depth %d, dropping",
                   XLATE_MAX_RESUBMIT_DEPTH);
        ctx->error = true;
        return;
    }
    if (ctx->resubmits >= XLATE_MAX_RESUBMITS) {
        /* Patch ports in a loop may branch: the depth alone would let the
         * work grow exponentially. */
        COVERAGE_INC(xlate_too_deep);
        trace_note(ctx, "over %d resubmit actions, dropping",
                   XLATE_MAX_RESUBMITS);
        ctx->error = true;
        return;
    }
    ctx->resubmits++;
    if (table_id >= OFPROTO_N_TABLES) {
        return;
    }
    if (ctx->was_mpls) {
        /* The lookup may look at L3: after the datapath parsed it. */
        freeze_lookup(ctx, in_port, table_id, honor_miss);
        return;
    }
    /* As in 3.1, a resubmit's port is the in_port of the lookup only:
     * the actions of the rule found see the packet's own in_port again
     * (so IN_PORT, NORMAL and the "skip the input port" rule of output
     * keep meaning the port the packet came in on). */
    uint32_t saved_in_port = ctx->flow.in_port;
    uint32_t lookup_in_port = (in_port != OFPP_IN_PORT ? in_port
                               : saved_in_port);
    ctx->flow.in_port = lookup_in_port;
    bool ct_orig = ctx->lookup_ct_orig;
    ctx->lookup_ct_orig = false;
    if (ct_orig) {
        swap_ct_orig_tuple(ctx);
    }
    const struct cls_rule *cr = classifier_lookup(
        &ctx->ofproto->tables[table_id].cls, ctx->version, &ctx->flow,
        ctx->wc);
    if (ct_orig) {
        swap_ct_orig_tuple(ctx);
    }
    ctx->flow.in_port = saved_in_port;
    struct rule *rule = cr ? CONTAINER_OF(cr, struct rule, cr) : NULL;
    struct xtrace_node *trace_node = trace_rule(ctx, table_id, rule);
    uint8_t saved_table = ctx->table_id;
    ovs_be64 saved_cookie = ctx->rule_cookie;
    ctx->table_id = table_id;
    const struct xlate_in *xin = ctx->xin;
    if (xin->n_packets) {
        struct oftable *t = &ctx->ofproto->tables[table_id];
        atomic_fetch_add_explicit(&t->n_lookups, xin->n_packets,
                                  memory_order_relaxed);
        if (rule) {
            atomic_fetch_add_explicit(&t->n_matched, xin->n_packets,
                                      memory_order_relaxed);
        }
    }
    if (ctx->no_recv) {
        /* The lookup above counts; the packet goes no further. */
        if (rule && xin->n_packets) {
            rule_credit_stats(rule, xin->n_packets, xin->n_bytes, xin->used);
        }
    } else if (rule) {
        if (xin->n_packets) {
            rule_credit_stats(rule, xin->n_packets, xin->n_bytes, xin->used);
        }
        const struct rule_actions *actions = ovsrcu_get(&rule->actions);
        ctx->rule_cookie = rule->cookie;
        struct ovs_list *trace_saved = NULL;
        if (trace_node) {
            trace_saved = xtrace_enter(ctx->xin->trace, trace_node);
            if (!actions->ofpacts_len) {
                xtrace_add(ctx->xin->trace, XTRACE_ACTION, "drop");
            }
        }
        ctx->depth++;
        if (patch_lookup) {
            xlate_patch_rule(ctx, actions->ofpacts, actions->ofpacts_len);
        } else {
            do_xlate_actions(ctx, actions->ofpacts, actions->ofpacts_len);
        }
        ctx->depth--;
        if (trace_node) {
            xtrace_leave(ctx->xin->trace, trace_saved);
        }
    } else if (honor_miss) {
        xlate_miss(ctx, table_id, saved_in_port, lookup_in_port);
    }
    ctx->table_id = saved_table;
    ctx->rule_cookie = saved_cookie;
    ctx->flow.in_port = saved_in_port;
}

static void
trace_action(const struct xlate_ctx *ctx, const struct ofpact *a)
{
    struct xtrace *t = ctx->xin->trace;
    if (t && !ofpact_is_instruction(a->type)) {
        struct ds s = DS_EMPTY_INITIALIZER;
        ofpact_list_format(a, OFPACT_ALIGN(a->len), NULL, NULL, &s);
        xtrace_add(t, XTRACE_ACTION, "%s", ds_cstr(&s));
        ds_destroy(&s);
    }
}

static void
xlate_output(struct xlate_ctx *ctx, uint32_t port, uint16_t max_len)
{
    switch (port) {
    case OFPP_IN_PORT:
        output_to_ofp_port(ctx, ctx->flow.in_port, true);
        break;
    case OFPP_NORMAL:
        xlate_normal(ctx);
        break;
    case OFPP_FLOOD:
    case OFPP_ALL:
        flood_ports(ctx, port == OFPP_ALL);
        break;
    case OFPP_TABLE:
        xlate_table(ctx, OFPP_IN_PORT, 0, true);
        break;
    case OFPP_CONTROLLER:
        xlate_controller(ctx, (ctx->in_packet_out ? OFPR_PACKET_OUT
                               : ctx->in_group ? OFPR_GROUP
                               : ctx->in_action_set ? OFPR_ACTION_SET
                               : OFPR_ACTION),
                         max_len, 0, NULL, 0);
        break;
    case OFPP_NONE:
        break;
    default:
        output_to_ofp_port(ctx, port, false);
        break;
    }
}

/* output(port=PORT,max_len=MAX_LEN): the datapath's trunc, then the
 * output, so that only this copy is cut.  As in 3.1, only a port with a
 * datapath port of its own can be the target: a patch port's output is a
 * translation in another bridge, which the cut could not follow. */
static void
xlate_output_trunc(struct xlate_ctx *ctx, uint32_t port, uint32_t max_len)
{
    switch (port) {
    case OFPP_TABLE:
    case OFPP_NORMAL:
    case OFPP_FLOOD:
    case OFPP_ALL:
    case OFPP_CONTROLLER:
    case OFPP_NONE: {
        struct ds name = DS_EMPTY_INITIALIZER;
        ofputil_format_port(port, NULL, &name);
        trace_note(ctx, "output_trunc does not support port: %s",
                   ds_cstr(&name));
        ds_destroy(&name);
        return;
    }
    default:
        break;
    }
    uint32_t ofp_port = port == OFPP_IN_PORT ? ctx->flow.in_port : port;
    if (port != OFPP_IN_PORT && ofp_port == ctx->flow.in_port) {
        trace_note(ctx, "skipping output to input port");
        return;
    }
    const struct ofport *out = ofproto_get_port(ctx->ofproto, ofp_port);
    if (!out || out->is_patch) {
        struct ds name = DS_EMPTY_INITIALIZER;
        ofputil_format_port(ofp_port, NULL, &name);
        char *message = xasprintf("output_trunc does not support patch "
                                  "port %s", ds_cstr(&name));
        report_error(ctx, message);
        free(message);
        ds_destroy(&name);
        return;
    }
    size_t ofs = ctx->odp->size;
    nl_msg_put_u32(ctx->odp, OVS_ACTION_ATTR_TRUNC, max_len);
    size_t after_trunc = ctx->odp->size;
    output_to_ofp_port(ctx, ofp_port, true);
    if (ctx->odp->size == after_trunc) {
        /* Nothing was sent: a lone trunc would cut the next output. */
        ctx->odp->size = ofs;
    }
}

/* Un-wildcards the bits of F under MASK in the megaflow. */
/* tun_metadataN: where it lies in the flow depends on the bridge's TLV
 * map, which the generic field accessors do not know, so translation
 * reaches it through tun-metadata.h. */
static bool
is_tun_md_field(const struct mf_field *f)
{
    return f->id >= MFF_TUN_METADATA0 && f->id <= MFF_TUN_METADATA63;
}

static void
xlate_field_get(const struct xlate_ctx *ctx, const struct mf_field *f,
                union mf_value *value)
{
    if (is_tun_md_field(f)) {
        tun_md_flow_get(&ctx->ofproto->tun_table, &ctx->flow.tun_metadata,
                        f->id - MFF_TUN_METADATA0, value->tun_metadata);
    } else {
        mf_get_value(f, &ctx->flow, value);
    }
}

static void
mask_field_masked(struct xlate_ctx *ctx, const struct mf_field *f,
                  const union mf_value *mask)
{
    if (is_tun_md_field(f)) {
        tun_md_wc_add(&ctx->ofproto->tun_table,
                      &ctx->wc->masks.tun_metadata,
                      f->id - MFF_TUN_METADATA0, mask->tun_metadata);
        return;
    }
    struct match m;
    match_init_catchall(&m);
    mf_set(f, mask, mask, &m);
    flow_wildcards_or(ctx->wc, &m.wc);
}

/* Un-wildcards F in the megaflow: a change to a field is committed by
 * comparing with the packet's value, so the decision depends on it. */
static void
mask_field(struct xlate_ctx *ctx, const struct mf_field *f)
{
    union mf_value ones;
    mf_value_set_all_ones(f, &ones);
    mask_field_masked(ctx, f, &ones);
}

static bool
flow_is_ip(struct xlate_ctx *ctx)
{
    WC_MASK_FIELD(ctx->wc, dl_type);
    return flow_is_ip_any(&ctx->flow);
}

/* Adds "SUBFIELD is now VALUE" to the trace, as 3.1 says it after a move:
 * the value in the field's own syntax for a whole field, else in hex. */
static void
trace_subfield(const struct xlate_ctx *ctx, const struct mf_subfield *sf)
{
    if (!ctx->xin->trace) {
        return;
    }
    struct ds s = DS_EMPTY_INITIALIZER;
    mf_format_subfield(sf, &s);
    ds_put_cstr(&s, " is now ");
    if (!sf->ofs && sf->n_bits == sf->field->n_bits) {
        union mf_value value;
        mf_get_value(sf->field, &ctx->flow, &value);
        mf_format(sf->field, &value, NULL, NULL, &s);
    } else {
        union mf_value value;
        mf_get_value(sf->field, &ctx->flow, &value);
        uint8_t bits[sizeof value];
        memset(bits, 0, sizeof bits);
        bitwise_copy(&value, sf->field->n_bytes, sf->ofs, bits, sizeof bits,
                     0, sf->n_bits);
        size_t i = 0;
        while (i < sizeof bits - 1 && !bits[i]) {
            i++;
        }
        ds_put_format(&s, "0x%"PRIx8, bits[i]);
        for (i++; i < sizeof bits; i++) {
            ds_put_format(&s, "%02"PRIx8, bits[i]);
        }
    }
    trace_note(ctx, "%s", ds_cstr(&s));
    ds_destroy(&s);
}

/* Un-wildcards the bits of SF's field that SF covers. */
static void
mask_subfield(struct xlate_ctx *ctx, const struct mf_subfield *sf)
{
    union mf_value mask;
    memset(&mask, 0, sizeof mask);
    bitwise_one(&mask, sf->field->n_bytes, sf->ofs, sf->n_bits);
    mask_field_masked(ctx, sf->field, &mask);
}

/* Writing an IP or ARP header field makes the megaflow exact on nw_proto
 * (the ARP opcode), as 3.1's writes do: committing the change depends on
 * it (xlate-commit.h). */
static void
mask_l3_prereqs(struct xlate_ctx *ctx, enum mf_field_id id)
{
    const struct flow *flow = &ctx->flow;
    bool ip_field = (id == MFF_IPV4_SRC || id == MFF_IPV4_DST
                     || id == MFF_IPV6_SRC || id == MFF_IPV6_DST
                     || id == MFF_IPV6_LABEL || id == MFF_IP_DSCP
                     || id == MFF_IP_ECN || id == MFF_IP_TTL);
    bool arp_field = (id == MFF_ARP_OP || id == MFF_ARP_SPA
                      || id == MFF_ARP_TPA || id == MFF_ARP_SHA
                      || id == MFF_ARP_THA);
    if ((ip_field && is_ip_any(flow))
        || (arp_field && flow->dl_type == htons(ETH_TYPE_ARP))) {
        WC_MASK_FIELD(ctx->wc, nw_proto);
    }
}

/* Whether the packet has L4 ports (or an ICMP type and code) that
 * mod_tp_src/dst may write: IP but not a later fragment. */
static bool
flow_is_l4(struct xlate_ctx *ctx)
{
    if (!flow_is_ip(ctx) || ctx->flow.nw_frag & FLOW_NW_FRAG_LATER) {
        return false;
    }
    WC_MASK_FIELD(ctx->wc, nw_proto);
    return true;
}

static void
push_vlan_if_absent(struct xlate_ctx *ctx)
{
    union flow_vlan_hdr *v = &ctx->flow.vlans[0];
    if (!flow_vlan_present(v)) {
        v->tpid = htons(ETH_TYPE_VLAN_8021Q);
        v->tci = htons(VLAN_CFI);
    }
}

/* The action set (write_actions): at most one action of each kind, one
 * set_field per field; a later write replaces an earlier one. */
static bool
action_set_same_slot(const struct ofpact *a, const struct ofpact *b)
{
    if (a->type != b->type) {
        return false;
    }
    if (a->type == OFPACT_SET_FIELD) {
        return (((const struct ofpact_set_field *) a)->field
                == ((const struct ofpact_set_field *) b)->field);
    }
    return true;
}

static void
action_set_write(struct xlate_ctx *ctx, const struct ofpact *ofpacts,
                 size_t len)
{
    const struct ofpact *a;
    OFPACT_FOR_EACH (a, ofpacts, len) {
        struct ofpbuf kept;
        ofpbuf_init(&kept, ctx->action_set.size);
        const struct ofpact *old;
        OFPACT_FOR_EACH (old, ctx->action_set.data, ctx->action_set.size) {
            if (!action_set_same_slot(old, a)) {
                ofpbuf_put(&kept, old, OFPACT_ALIGN(old->len));
            }
        }
        ofpbuf_put(&kept, a, OFPACT_ALIGN(a->len));
        ofpbuf_uninit(&ctx->action_set);
        ctx->action_set = kept;
    }
}

/* OpenFlow's order for the action set: pop, push, dec_ttl, the header
 * changes, queue, then group or output. */
static int
action_set_rank(enum ofpact_type type)
{
    switch (type) {
    case OFPACT_STRIP_VLAN: return 0;
    case OFPACT_PUSH_VLAN: return 1;
    case OFPACT_DEC_TTL: return 2;
    case OFPACT_SET_QUEUE: case OFPACT_POP_QUEUE: return 4;
    case OFPACT_GROUP: return 5;
    case OFPACT_OUTPUT: case OFPACT_ENQUEUE: case OFPACT_CONTROLLER:
        return 6;
    default: return 3;
    }
}

static void
action_set_execute(struct xlate_ctx *ctx)
{
    struct ofpbuf set = ctx->action_set;
    ofpbuf_init(&ctx->action_set, 0);
    trace_note(ctx, "executing the action set");
    ctx->in_action_set = true;
    for (int rank = 0; rank <= 6 && !ctx->exit && !ctx->error; rank++) {
        const struct ofpact *a;
        OFPACT_FOR_EACH (a, set.data, set.size) {
            if (action_set_rank(a->type) == rank) {
                do_xlate_actions(ctx, a, OFPACT_ALIGN(a->len));
            }
        }
        /* A group in the set wins over an output. */
        if (rank == 5) {
            bool group = false;
            OFPACT_FOR_EACH (a, set.data, set.size) {
                group |= a->type == OFPACT_GROUP;
            }
            if (group) {
                break;
            }
        }
    }
    ctx->in_action_set = false;
    ofpbuf_uninit(&set);
}

/* Returns true when the TTL ran out: the controller ids hear of it as an
 * invalid TTL and, as in 3.1, the rest of the current action list is
 * skipped (translation goes on after the resubmit or table that ran
 * it). */
static bool
xlate_dec_ttl(struct xlate_ctx *ctx, const struct ofpact_cnt_ids *ids)
{
    if (!flow_is_ip(ctx)) {
        return false;
    }
    WC_MASK_FIELD(ctx->wc, nw_ttl);
    WC_MASK_FIELD(ctx->wc, nw_proto);
    if (ctx->flow.nw_ttl > 1) {
        ctx->flow.nw_ttl--;
        return false;
    }
    for (uint16_t i = 0; i < ids->n_controllers; i++) {
        xlate_controller(ctx, OFPR_INVALID_TTL, UINT16_MAX, ids->cnt_ids[i],
                         NULL, 0);
    }
    if (ctx->xin->trace) {
        xtrace_add(ctx->xin->trace, XTRACE_WARN,
                   "IPv%d decrement TTL exception",
                   ctx->flow.dl_type == htons(ETH_TYPE_IP) ? 4 : 6);
    }
    return true;
}

/* The megaflow looks at what the learned flow is made of.  With side
 * effects on, the main thread is handed the flow to install; a datapath
 * flow that runs this comes back here through its revalidator whenever it
 * has seen packets, which keeps the learned flow alive as 3.1's
 * re-execution does. */
static void
xlate_learn(struct xlate_ctx *ctx, const struct ofpact_learn *learn)
{
    learn_mask(learn, ctx->wc);
    bool learned = ofproto_learn(ctx->ofproto, learn, &ctx->flow,
                                 ctx->xin->may_learn);
    if (!ctx->xin->may_learn) {
        trace_note(ctx, "side effects off: nothing learned");
    } else if (!learned) {
        trace_note(ctx, "not learned (limit reached)");
    }
    if (learn->flags & NX_LEARN_F_WRITE_RESULT) {
        mask_field(ctx, learn->result_dst.field);
        mf_set_subfield(&learn->result_dst, learned, &ctx->flow);
    }
}

static void
xlate_set_field(struct xlate_ctx *ctx, const struct ofpact_set_field *sf)
{
    /* Only a field the packet has: vlan_vid needs a VLAN, tcp_src TCP. */
    if (mf_are_prereqs_ok(sf->field, &ctx->flow, ctx->wc)) {
        union mf_value mask = sf->mask;
        if (sf->field->id == MFF_VLAN_VID
            && sf->ofpact.raw == OFPACT_RAW_REG_LOAD) {
            /* A load writes the 12 bits of the VID, as in 3.1 (whose
             * vlan_vid is 12 bits wide): never the tag's presence. */
            mask.be16 &= ~htons(VLAN_CFI);
        }
        mask_field_masked(ctx, sf->field, &mask);
        mask_l3_prereqs(ctx, sf->field->id);
        if (is_tun_md_field(sf->field)) {
            tun_md_flow_set(&ctx->ofproto->tun_table,
                            &ctx->flow.tun_metadata,
                            sf->field->id - MFF_TUN_METADATA0,
                            sf->value.tun_metadata, mask.tun_metadata);
        } else {
            mf_set_flow_value_masked(sf->field, &sf->value, &mask,
                                     &ctx->flow);
        }
    }
}

/* Runs OFPACTS on a copy of the packet's state (a group bucket, clone):
 * what they change is forgotten afterwards (a datapath set they committed
 * is undone by the next commit, which compares with the packet as it then
 * is).  If they freeze, this copy of the packet goes on after its own
 * recirculation, and the caller's actions go on now. */
static void
xlate_on_copy(struct xlate_ctx *ctx, const struct ofpact *ofpacts,
              size_t ofpacts_len)
{
    struct flow saved_flow = ctx->flow;
    bool saved_exit = ctx->exit;
    bool saved_was_mpls = ctx->was_mpls;
    bool saved_l3_cleared = ctx->l3_cleared;
    bool saved_conntracked = ctx->conntracked;
    ctx->depth++;
    do_xlate_actions(ctx, ofpacts, ofpacts_len);
    if (ctx->freezing) {
        finish_freezing(ctx, false);
    }
    ctx->depth--;
    ctx->flow = saved_flow;
    ctx->exit = saved_exit;
    ctx->was_mpls = saved_was_mpls;
    ctx->l3_cleared = saved_l3_cleared;
    ctx->conntracked = saved_conntracked;
}

/* Groups. */

/* Runs bucket B of G on a copy of the packet's state: what its actions
 * change is forgotten afterwards (a datapath set they committed is undone
 * by the next commit, which compares with the packet as it then is). */
static void
xlate_bucket(struct xlate_ctx *ctx, struct ofgroup *g,
             struct ofgroup_bucket *b)
{
    if (ctx->xin->n_packets) {
        ofgroup_credit_stats(NULL, b, ctx->xin->n_packets,
                             ctx->xin->n_bytes);
    }
    trace_note(ctx, "group %"PRIu32" bucket %"PRIu32, g->group_id,
               b->bucket_id);
    bool saved_in_group = ctx->in_group;
    ctx->in_group = true;
    xlate_on_copy(ctx, b->ofpacts, b->ofpacts_len);
    ctx->in_group = saved_in_group;
}

/* The flow's hash for a select group: the Ethernet addresses, VLAN and
 * type, and for IP the addresses and protocol and the L4 ports, each
 * source/destination pair combined symmetrically (both directions of a
 * connection pick the same bucket), as the "hash the 5-tuple" selection
 * 3.1's datapath does by default.  Every field read is un-wildcarded, so
 * one megaflow never covers packets that would pick different buckets. */
static uint32_t
select_group_hash(struct xlate_ctx *ctx)
{
    const struct flow *f = &ctx->flow;
    struct flow_wildcards *wc = ctx->wc;
    uint32_t hash = 0;

    WC_MASK_FIELD(wc, dl_src);
    WC_MASK_FIELD(wc, dl_dst);
    WC_MASK_FIELD(wc, dl_type);
    WC_MASK_FIELD(wc, vlans[0]);
    for (int i = 0; i < ETH_ADDR_LEN; i++) {
        hash = hash_add(hash, f->dl_src.ea[i] ^ f->dl_dst.ea[i]);
    }
    hash = hash_add(hash, ntohs(f->dl_type));
    hash = hash_add(hash, ntohs(f->vlans[0].tci) & VLAN_VID_MASK);

    bool ip4 = f->dl_type == htons(ETH_TYPE_IP);
    bool ip6 = f->dl_type == htons(ETH_TYPE_IPV6);
    if (ip4 || ip6) {
        WC_MASK_FIELD(wc, nw_proto);
        if (ip4) {
            WC_MASK_FIELD(wc, nw_src);
            WC_MASK_FIELD(wc, nw_dst);
            hash = hash_add(hash, ntohl(f->nw_src ^ f->nw_dst));
        } else {
            WC_MASK_FIELD(wc, ipv6_src);
            WC_MASK_FIELD(wc, ipv6_dst);
            for (size_t i = 0; i < sizeof f->ipv6_src; i++) {
                hash = hash_add(hash, (((const uint8_t *) &f->ipv6_src)[i]
                                       ^ ((const uint8_t *) &f->ipv6_dst)[i]));
            }
        }
        hash = hash_add(hash, f->nw_proto);
        if (f->nw_proto == IPPROTO_TCP || f->nw_proto == IPPROTO_UDP
            || f->nw_proto == IPPROTO_SCTP) {
            WC_MASK_FIELD(wc, tp_src);
            WC_MASK_FIELD(wc, tp_dst);
            hash = hash_add(hash, ntohs(f->tp_src ^ f->tp_dst));
        }
    }
    return hash_finish(hash, 0);
}

/* The flow's hash for a select group with selection_method=hash: the
 * group's fields, each under its mask (those whose prerequisites the
 * packet lacks are skipped), with the method's parameter as the basis.
 * The bits read are un-wildcarded. */
static uint32_t
select_group_fields_hash(struct xlate_ctx *ctx,
                         const struct ofputil_group_props *props)
{
    uint32_t hash = hash_uint64(props->selection_method_param);
    for (size_t i = 0; i < props->n_fields; i++) {
        const struct ofputil_group_field *gf = &props->fields[i];
        const struct mf_field *f = mf_from_id(gf->id);
        if (!mf_are_prereqs_ok(f, &ctx->flow, ctx->wc)) {
            continue;
        }
        union mf_value value;
        mf_get_value(f, &ctx->flow, &value);
        for (size_t j = 0; j < f->n_bytes; j++) {
            value.b[j] &= gf->mask.b[j];
        }
        hash = hash_bytes(value.b, f->n_bytes, hash);
        mask_field_masked(ctx, f, &gf->mask);
    }
    return hash;
}

/* A select group's bucket: each live bucket of nonzero weight scores the
 * hash of its id and the flow's hash, scaled by its weight, and the best
 * wins (ties: the first).  So a bucket's share follows its weight, and
 * adding or removing one bucket moves only the flows it wins or held. */
static struct ofgroup_bucket *
select_group_bucket(struct xlate_ctx *ctx, struct ofgroup *g)
{
    uint32_t basis = (!strcmp(g->props.selection_method, "hash")
                      ? select_group_fields_hash(ctx, &g->props)
                      : select_group_hash(ctx));
    struct ofgroup_bucket *best = NULL;
    uint64_t best_score = 0;
    for (size_t i = 0; i < g->n_buckets; i++) {
        struct ofgroup_bucket *b = &g->buckets[i];
        if (!b->weight || !ofgroup_bucket_is_live(ctx->ofproto, b, 0)) {
            continue;
        }
        uint64_t score = ((uint64_t) (hash_int(b->bucket_id, basis) & 0xffff)
                          + 1) * b->weight;
        if (!best || score > best_score) {
            best = b;
            best_score = score;
        }
    }
    return best;
}

static void
xlate_group(struct xlate_ctx *ctx, uint32_t group_id)
{
    if (ctx->depth >= XLATE_MAX_RESUBMIT_DEPTH) {
        COVERAGE_INC(xlate_too_deep);
        trace_note(ctx, "over max translation depth %d, dropping",
                   XLATE_MAX_RESUBMIT_DEPTH);
        ctx->error = true;
        return;
    }
    struct ofgroup *g = ofproto_group_lookup(ctx->ofproto, group_id);
    if (!g) {
        trace_note(ctx, "group %"PRIu32" does not exist, dropping",
                   group_id);
        return;
    }
    if (ctx->xin->n_packets) {
        ofgroup_credit_stats(g, NULL, ctx->xin->n_packets,
                             ctx->xin->n_bytes);
    }
    struct ofgroup_bucket *b = NULL;
    switch (g->type) {
    case OFPGT11_ALL: {
        /* As a flood: only the last bucket may change the packet in
         * place. */
        bool was_last = ctx->last_action;
        for (size_t i = 0; i < g->n_buckets && !ctx->error; i++) {
            ctx->last_action = was_last && i == g->n_buckets - 1;
            xlate_bucket(ctx, g, &g->buckets[i]);
        }
        ctx->last_action = was_last;
        return;
    }
    case OFPGT11_INDIRECT:
        b = g->n_buckets ? &g->buckets[0] : NULL;
        break;
    case OFPGT11_SELECT:
        b = select_group_bucket(ctx, g);
        break;
    case OFPGT11_FF:
        for (size_t i = 0; i < g->n_buckets; i++) {
            if (ofgroup_bucket_is_live(ctx->ofproto, &g->buckets[i], 0)) {
                b = &g->buckets[i];
                break;
            }
        }
        break;
    }
    if (b) {
        xlate_bucket(ctx, g, b);
    } else {
        trace_note(ctx, "group %"PRIu32" has no live bucket, dropping",
                   group_id);
    }
}

/* MPLS. */

static void
report_error(const struct xlate_ctx *ctx, const char *message)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);
    if (ctx->xin->trace) {
        xtrace_add(ctx->xin->trace, XTRACE_WARN, "%s", message);
    } else if (!VLOG_DROP_WARN(&rl)) {
        struct ds flow = DS_EMPTY_INITIALIZER;
        struct match m;
        match_init_exact(&m, &ctx->xin->flow);
        match_format(&m, NULL, &flow, OFP_DEFAULT_PRIORITY);
        VLOG_WARN("%s on bridge %s while processing %s", message,
                  ctx->ofproto->name, ds_cstr(&flow));
        ds_destroy(&flow);
    }
}

static void
xlate_push_mpls(struct xlate_ctx *ctx, ovs_be16 eth_type)
{
    int n = flow_mpls_depth(&ctx->flow, ctx->wc);
    if (n >= FLOW_MAX_MPLS_LABELS) {
        report_error(ctx, "dropping packet on which an MPLS push action "
                     "can't be performed as it would have more MPLS LSEs "
                     "than the 3 supported.");
        ctx->error = true;
        return;
    }
    if (!n) {
        /* The L3 and L4 fields are about to leave the flow: what the
         * actions changed in them goes to the packet first. */
        commit_all(ctx);
        ctx->l3_cleared = true;
    }
    flow_mpls_push(&ctx->flow, eth_type, ctx->wc, true);
}

static void
xlate_pop_mpls(struct xlate_ctx *ctx, ovs_be16 eth_type)
{
    if (!flow_mpls_pop(&ctx->flow, eth_type, ctx->wc)) {
        report_error(ctx, "dropping packet on which an MPLS pop action "
                     "can't be performed as it has more MPLS LSEs than the "
                     "3 supported.");
        ctx->error = true;
        return;
    }
    if (!eth_type_mpls(eth_type)) {
        ctx->was_mpls = true;
    }
}

/* set_mpls_label, set_mpls_tc, set_mpls_ttl: the top entry's field
 * (FIELD_MASK's bits) of an MPLS packet. */
static void
xlate_set_mpls_field(struct xlate_ctx *ctx, uint32_t field_mask,
                     uint32_t value)
{
    WC_MASK_FIELD(ctx->wc, dl_type);
    if (eth_type_mpls(ctx->flow.dl_type)) {
        ctx->wc->masks.mpls_lse[0] |= htonl(field_mask);
        mpls_lse_set_field(&ctx->flow.mpls_lse[0], field_mask, value);
    }
}

/* dec_mpls_ttl.  Returns true when the action list is to stop here, as in
 * 3.1: at TTL 1 or 0 (the controller hears of it as an invalid TTL) and
 * on a packet that is not MPLS. */
static bool
xlate_dec_mpls_ttl(struct xlate_ctx *ctx)
{
    WC_MASK_FIELD(ctx->wc, dl_type);
    if (eth_type_mpls(ctx->flow.dl_type)) {
        ovs_be32 *lse = &ctx->flow.mpls_lse[0];
        uint8_t ttl = mpls_lse_ttl(*lse);
        ctx->wc->masks.mpls_lse[0] |= htonl(MPLS_TTL_MASK);
        if (ttl > 1) {
            mpls_lse_set_field(lse, MPLS_TTL_MASK, ttl - 1);
            return false;
        }
        xlate_controller(ctx, OFPR_INVALID_TTL, UINT16_MAX, 0, NULL, 0);
    }
    trace_note(ctx, "MPLS decrement TTL exception");
    return true;
}

/* Whether action A, after an MPLS pop to L3 (CTX->was_mpls), must wait
 * for the datapath to parse the packet again: everything but outputs and
 * changes below L3, as in 3.1, and a select group, whose choice may hash
 * L3 fields (other groups' buckets are checked as they run). */
static bool
needs_reparse(const struct xlate_ctx *ctx, const struct ofpact *a)
{
    switch ((enum ofpact_type) a->type) {
    case OFPACT_OUTPUT:
    case OFPACT_OUTPUT_TRUNC:
    case OFPACT_ENQUEUE:
    case OFPACT_OUTPUT_REG:
    case OFPACT_SET_VLAN_VID:
    case OFPACT_SET_VLAN_PCP:
    case OFPACT_SET_ETH_SRC:
    case OFPACT_SET_ETH_DST:
    case OFPACT_SET_TUNNEL:
    case OFPACT_SET_QUEUE:
        return false;
    case OFPACT_GROUP: {
        const struct ofgroup *g = ofproto_group_lookup(
            ctx->ofproto, ((const struct ofpact_group *) a)->group_id);
        return g && g->type == OFPGT11_SELECT;
    }
    case OFPACT_SET_FIELD:
        switch (((const struct ofpact_set_field *) a)->field->prereqs) {
        case MFP_NONE:
        case MFP_ETHERNET:
        case MFP_VLAN_VID:
        case MFP_MPLS:
        case MFP_CT_VALID:
            return false;
        default:
            return true;
        }
    default:
        return true;
    }
}

/* multipath and bundle. */

/* Whether bundle may choose PORT: a port that is up, or one of the
 * special ports but CONTROLLER, as in 3.1. */
static bool
bundle_member_enabled(uint32_t ofp_port, void *ctx_)
{
    const struct xlate_ctx *ctx = ctx_;
    switch (ofp_port) {
    case OFPP_IN_PORT:
    case OFPP_TABLE:
    case OFPP_NORMAL:
    case OFPP_FLOOD:
    case OFPP_ALL:
    case OFPP_NONE:
        return true;
    case OFPP_CONTROLLER:
        return false;
    default: {
        const struct ofport *port = ofproto_get_port(ctx->ofproto, ofp_port);
        return port && port->live;
    }
    }
}

static void
xlate_bundle(struct xlate_ctx *ctx, const struct ofpact_bundle *b)
{
    uint32_t port = bundle_select(b, &ctx->flow, ctx->wc,
                                  bundle_member_enabled, ctx);
    if (b->dst.field) {
        mask_field(ctx, b->dst.field);
        mf_set_subfield(&b->dst, port, &ctx->flow);
    } else if (port != OFPP_NONE) {
        xlate_output(ctx, port, 0);
    } else {
        trace_note(ctx, "no live bundle members, dropping");
    }
}

/* The field stack. */

/* One value on the stack: a subfield's bits, 64 at a time, low first. */
struct stack_entry {
    uint32_t n_bits;
    uint32_t pad;
    uint64_t chunks[16];
};

static void
xlate_stack_push(struct xlate_ctx *ctx, const struct mf_subfield *src)
{
    struct stack_entry e;
    memset(&e, 0, sizeof e);
    e.n_bits = MIN(src->n_bits, 64 * ARRAY_SIZE(e.chunks));
    for (unsigned int done = 0; done < e.n_bits; done += 64) {
        struct mf_subfield part = *src;
        part.ofs += done;
        part.n_bits = MIN(64, e.n_bits - done);
        e.chunks[done / 64] = mf_get_subfield(&part, &ctx->flow);
    }
    mask_field(ctx, src->field);
    ofpbuf_put(&ctx->stack, &e, sizeof e);
}

static void
xlate_stack_pop(struct xlate_ctx *ctx, const struct mf_subfield *dst)
{
    if (ctx->stack.size < sizeof(struct stack_entry)) {
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(1, 5);
        if (!VLOG_DROP_WARN(&rl)) {
            /* 3.1's words: the bridge, and the packet as it came. */
            struct ds s = DS_EMPTY_INITIALIZER;
            flow_format(&ctx->base, &s);
            VLOG_WARN("stack underflow on bridge %s while processing %s",
                      ctx->ofproto->name, ds_cstr(&s));
            ds_destroy(&s);
        }
        trace_note(ctx, "stack underflow");
        return;
    }
    struct stack_entry e;
    ctx->stack.size -= sizeof e;
    memcpy(&e, (uint8_t *) ctx->stack.data + ctx->stack.size, sizeof e);
    unsigned int n_bits = MIN(dst->n_bits, 64 * ARRAY_SIZE(e.chunks));
    for (unsigned int done = 0; done < n_bits; done += 64) {
        struct mf_subfield part = *dst;
        part.ofs += done;
        part.n_bits = MIN(64, n_bits - done);
        mf_set_subfield(&part, e.chunks[done / 64], &ctx->flow);
    }
    mask_field(ctx, dst->field);
}

static void do_xlate_actions__(struct xlate_ctx *, const struct ofpact *,
                               size_t ofpacts_len);

/* Runs the actions; each is the last action when it ends the list and the
 * list was last where it was called. */
static void
do_xlate_actions(struct xlate_ctx *ctx, const struct ofpact *ofpacts,
                 size_t ofpacts_len)
{
    bool was_last = ctx->last_action;
    do_xlate_actions__(ctx, ofpacts, ofpacts_len);
    ctx->last_action = was_last;
}

static void
do_xlate_actions__(struct xlate_ctx *ctx, const struct ofpact *ofpacts,
                   size_t ofpacts_len)
{
    const struct ofpact *end = ofpact_end(ofpacts, ofpacts_len);
    bool list_is_last = ctx->last_action;
    const struct ofpact *a;
    OFPACT_FOR_EACH (a, ofpacts, ofpacts_len) {
        ctx->last_action = list_is_last && ofpact_next(a) == end;
        if (ctx->error) {
            break;
        }
        if (ctx->was_mpls && !ctx->exit && needs_reparse(ctx, a)) {
            ctx->freezing = ctx->exit = true;
        }
        if (ctx->exit) {
            if (ctx->freezing) {
                size_t left = ((const uint8_t *) ofpacts + ofpacts_len
                               - (const uint8_t *) a);
                freeze_actions(ctx, a, left);
            }
            break;
        }
        trace_action(ctx, a);
        struct flow *flow = &ctx->flow;
        union flow_vlan_hdr *v = &flow->vlans[0];
        switch ((enum ofpact_type) a->type) {
        case OFPACT_OUTPUT: {
            const struct ofpact_output *o = (const void *) a;
            xlate_output(ctx, o->port, o->max_len);
            break;
        }
        case OFPACT_ENQUEUE:
            xlate_output(ctx, ((const struct ofpact_enqueue *) a)->port,
                         0);
            break;
        case OFPACT_OUTPUT_TRUNC: {
            const struct ofpact_output_trunc *o = (const void *) a;
            xlate_output_trunc(ctx, o->port, o->max_len);
            break;
        }
        case OFPACT_CONTROLLER: {
            const struct ofpact_controller *c = (const void *) a;
            xlate_controller(ctx, c->reason, c->max_len, c->controller_id,
                             c->userdata, c->userdata_len);
            break;
        }
        case OFPACT_GROUP:
            xlate_group(ctx, ((const struct ofpact_group *) a)->group_id);
            break;
        case OFPACT_SET_VLAN_VID: {
            const struct ofpact_vlan_vid *vv = (const void *) a;
            WC_MASK_FIELD(ctx->wc, vlans[0]);
            if (flow_vlan_present(v) || vv->push_vlan_if_needed) {
                push_vlan_if_absent(ctx);
                v->tci = htons((ntohs(v->tci) & ~VLAN_VID_MASK)
                               | (vv->vlan_vid & VLAN_VID_MASK));
            }
            break;
        }
        case OFPACT_SET_VLAN_PCP: {
            const struct ofpact_vlan_pcp *vp = (const void *) a;
            WC_MASK_FIELD(ctx->wc, vlans[0]);
            if (flow_vlan_present(v) || vp->push_vlan_if_needed) {
                push_vlan_if_absent(ctx);
                v->tci = htons((ntohs(v->tci) & ~VLAN_PCP_MASK)
                               | ((vp->vlan_pcp & 7) << VLAN_PCP_SHIFT));
            }
            break;
        }
        case OFPACT_STRIP_VLAN:
            /* The inner tag, if any, comes out. */
            WC_MASK_FIELD(ctx->wc, vlans);
            flow->vlans[0] = flow->vlans[1];
            flow->vlans[1].qtag = 0;
            break;
        case OFPACT_PUSH_VLAN:
            /* A new outer tag, VID 0 and PCP 0 until set, as in 3.1; an
             * existing one becomes the inner (a third tag is more than a
             * flow holds: the innermost is lost, as in 3.1). */
            WC_MASK_FIELD(ctx->wc, vlans);
            flow->vlans[1] = flow->vlans[0];
            v->tpid = ((const struct ofpact_push_vlan *) a)->ethertype;
            v->tci = htons(VLAN_CFI);
            break;
        case OFPACT_SET_ETH_SRC:
            WC_MASK_FIELD(ctx->wc, dl_src);
            flow->dl_src = ((const struct ofpact_mac *) a)->mac;
            break;
        case OFPACT_SET_ETH_DST:
            WC_MASK_FIELD(ctx->wc, dl_dst);
            flow->dl_dst = ((const struct ofpact_mac *) a)->mac;
            break;
        case OFPACT_SET_IPV4_SRC:
        case OFPACT_SET_IPV4_DST:
            WC_MASK_FIELD(ctx->wc, dl_type);
            if (flow->dl_type == htons(ETH_TYPE_IP)) {
                ovs_be32 ip = ((const struct ofpact_ipv4 *) a)->ipv4;
                WC_MASK_FIELD(ctx->wc, nw_proto);
                if (a->type == OFPACT_SET_IPV4_SRC) {
                    WC_MASK_FIELD(ctx->wc, nw_src);
                    flow->nw_src = ip;
                } else {
                    WC_MASK_FIELD(ctx->wc, nw_dst);
                    flow->nw_dst = ip;
                }
            }
            break;
        case OFPACT_SET_IP_DSCP:
            if (flow_is_ip(ctx)) {
                WC_MASK_FIELD(ctx->wc, nw_proto);
                ctx->wc->masks.nw_tos |= 0xfc;
                flow->nw_tos = ((flow->nw_tos & 0x03)
                                | (((const struct ofpact_dscp *) a)->dscp
                                   & 0xfc));
            }
            break;
        case OFPACT_SET_IP_ECN:
            if (flow_is_ip(ctx)) {
                WC_MASK_FIELD(ctx->wc, nw_proto);
                ctx->wc->masks.nw_tos |= 0x03;
                flow->nw_tos = ((flow->nw_tos & 0xfc)
                                | (((const struct ofpact_ecn *) a)->ecn
                                   & 0x03));
            }
            break;
        case OFPACT_OUTPUT_REG: {
            const struct ofpact_output_reg *o = (const void *) a;
            mask_subfield(ctx, &o->src);
            xlate_output(ctx, mf_get_subfield(&o->src, flow), o->max_len);
            break;
        }
        case OFPACT_CLONE: {
            /* The nested actions see the packet as it is now; what they
             * change is forgotten afterwards (the next commit compares
             * with the packet as the datapath then has it). */
            const struct ofpact_nest *on = (const void *) a;
            xlate_on_copy(ctx, on->actions, ofpact_nest_get_action_len(on));
            break;
        }
        case OFPACT_CT:
            xlate_ct(ctx, (const struct ofpact_conntrack *) a);
            break;
        case OFPACT_NAT:
            /* Only inside ct(), which reads it when it composes its
             * datapath action. */
            ctx->ct_nat = (const struct ofpact_nat *) a;
            break;
        case OFPACT_CT_CLEAR:
            /* An untracked packet has nothing to clear. */
            if (ctx->conntracked) {
                nl_msg_put_flag(ctx->odp, OVS_ACTION_ATTR_CT_CLEAR);
                ctx->conntracked = false;
            }
            flow_clear_conntrack(&ctx->flow);
            break;
        case OFPACT_SET_IP_TTL:
            if (flow_is_ip(ctx)) {
                WC_MASK_FIELD(ctx->wc, nw_proto);
                WC_MASK_FIELD(ctx->wc, nw_ttl);
                flow->nw_ttl = ((const struct ofpact_ip_ttl *) a)->ttl;
            }
            break;
        case OFPACT_SET_L4_SRC_PORT:
        case OFPACT_SET_L4_DST_PORT:
            if (flow_is_l4(ctx)) {
                ovs_be16 port = htons(((const struct ofpact_l4_port *)
                                       a)->port);
                if (a->type == OFPACT_SET_L4_SRC_PORT) {
                    WC_MASK_FIELD(ctx->wc, tp_src);
                    flow->tp_src = port;
                } else {
                    WC_MASK_FIELD(ctx->wc, tp_dst);
                    flow->tp_dst = port;
                }
            }
            break;
        case OFPACT_REG_MOVE: {
            const struct ofpact_reg_move *m = (const void *) a;
            mask_subfield(ctx, &m->src);
            mask_subfield(ctx, &m->dst);
            if (is_tun_md_field(m->src.field)
                || is_tun_md_field(m->dst.field)) {
                /* Whole values, as the generic accessors cannot. */
                union mf_value src, dst, mask;
                xlate_field_get(ctx, m->src.field, &src);
                xlate_field_get(ctx, m->dst.field, &dst);
                bitwise_copy(&src, m->src.field->n_bytes, m->src.ofs,
                             &dst, m->dst.field->n_bytes, m->dst.ofs,
                             m->src.n_bits);
                memset(&mask, 0, sizeof mask);
                bitwise_one(&mask, m->dst.field->n_bytes, m->dst.ofs,
                            m->src.n_bits);
                if (is_tun_md_field(m->dst.field)) {
                    tun_md_flow_set(&ctx->ofproto->tun_table,
                                    &flow->tun_metadata,
                                    m->dst.field->id - MFF_TUN_METADATA0,
                                    dst.tun_metadata, mask.tun_metadata);
                } else {
                    mf_set_flow_value_masked(m->dst.field, &dst, &mask,
                                             flow);
                }
                trace_subfield(ctx, &m->dst);
                break;
            }
            /* 64 bits at a time: mf_get_subfield's limit. */
            for (unsigned int done = 0; done < m->src.n_bits; done += 64) {
                struct mf_subfield src = m->src, dst = m->dst;
                src.ofs += done;
                dst.ofs += done;
                src.n_bits = dst.n_bits = MIN(64, m->src.n_bits - done);
                mf_set_subfield(&dst, mf_get_subfield(&src, flow), flow);
            }
            trace_subfield(ctx, &m->dst);
            break;
        }
        case OFPACT_SET_FIELD:
            xlate_set_field(ctx, (const struct ofpact_set_field *) a);
            break;
        case OFPACT_DELETE_FIELD: {
            /* The option leaves the packet: tun_metadataN is no longer
             * present (what it held does not matter then, and nothing
             * about the packet was looked at). */
            const struct mf_field *f = ((const struct ofpact_delete_field *)
                                        a)->field;
            if (f->id >= MFF_TUN_METADATA0 && f->id <= MFF_TUN_METADATA63) {
                flow->tun_metadata.present
                    &= ~(UINT64_C(1) << (f->id - MFF_TUN_METADATA0));
            }
            trace_note(ctx, "delete %s", f->name);
            break;
        }
        case OFPACT_DEC_TTL:
            if (xlate_dec_ttl(ctx, (const struct ofpact_cnt_ids *) a)) {
                return;
            }
            break;
        case OFPACT_SET_TUNNEL:
            flow->tunnel.tun_id = htonll(((const struct ofpact_tunnel *)
                                          a)->tun_id);
            break;
        case OFPACT_PUSH_MPLS:
            xlate_push_mpls(ctx, ((const struct ofpact_mpls_ethertype *)
                                  a)->ethertype);
            break;
        case OFPACT_POP_MPLS:
            xlate_pop_mpls(ctx, ((const struct ofpact_mpls_ethertype *)
                                 a)->ethertype);
            break;
        case OFPACT_SET_MPLS_LABEL:
            xlate_set_mpls_field(ctx, MPLS_LABEL_MASK,
                                 ((const struct ofpact_mpls_label *)
                                  a)->label);
            break;
        case OFPACT_SET_MPLS_TC:
            xlate_set_mpls_field(ctx, MPLS_TC_MASK,
                                 ((const struct ofpact_mpls_tc *) a)->tc);
            break;
        case OFPACT_SET_MPLS_TTL:
            xlate_set_mpls_field(ctx, MPLS_TTL_MASK,
                                 ((const struct ofpact_mpls_ttl *) a)->ttl);
            break;
        case OFPACT_DEC_MPLS_TTL:
            if (xlate_dec_mpls_ttl(ctx)) {
                return;
            }
            break;
        case OFPACT_MULTIPATH: {
            const struct ofpact_multipath *mp = (const void *) a;
            uint16_t link = multipath_select(mp, flow, ctx->wc);
            mask_field(ctx, mp->dst.field);
            mf_set_subfield(&mp->dst, link, flow);
            break;
        }
        case OFPACT_BUNDLE:
            xlate_bundle(ctx, (const struct ofpact_bundle *) a);
            break;
        case OFPACT_STACK_PUSH:
            xlate_stack_push(ctx, &((const struct ofpact_stack *)
                                    a)->subfield);
            break;
        case OFPACT_STACK_POP:
            xlate_stack_pop(ctx, &((const struct ofpact_stack *)
                                   a)->subfield);
            break;
        case OFPACT_SET_QUEUE:
        case OFPACT_POP_QUEUE:
            /* No QoS queues on this datapath yet: nothing to select. */
            break;
        case OFPACT_RESUBMIT: {
            const struct ofpact_resubmit *r = (const void *) a;
            if (a->raw == OFPACT_RAW_RESUBMIT_CT) {
                /* Only a tracked IP packet has an original direction. */
                if (!ctx->flow.ct_nw_proto || !is_ip_any(&ctx->flow)) {
                    report_error(ctx, "resubmit(ct) with non-tracked or "
                                 "non-IP packet!");
                    break;
                }
                ctx->lookup_ct_orig = true;
            }
            xlate_table(ctx, r->in_port,
                        r->table_id == 255 ? ctx->table_id : r->table_id,
                        false);
            break;
        }
        case OFPACT_LEARN:
            xlate_learn(ctx, (const struct ofpact_learn *) a);
            break;
        case OFPACT_DEBUG_SLOW:
            /* Every packet of the flow is translated in userspace. */
            ctx->xout->slow |= SLOW_ACTION;
            break;
        case OFPACT_DEBUG_RECIRC:
            /* What follows runs after the packet comes back through the
             * datapath, as 3.1 tests recirculation with it. */
            ctx->freezing = ctx->exit = true;
            break;
        case OFPACT_NOTE:
            break;
        case OFPACT_EXIT:
            ctx->exit = true;
            break;
        case OFPACT_METER: {
            /* The datapath meters; the packets it lets through go on. */
            const struct ofmeter *m = ofproto_meter_lookup(
                ctx->ofproto, ((const struct ofpact_meter *) a)->meter_id);
            if (m) {
                nl_msg_put_u32(ctx->odp, OVS_ACTION_ATTR_METER,
                               m->dp_meter_id);
            }
            break;
        }
        case OFPACT_CLEAR_ACTIONS:
            ofpbuf_clear(&ctx->action_set);
            break;
        case OFPACT_WRITE_ACTIONS: {
            const struct ofpact_nest *on = (const void *) a;
            action_set_write(ctx, on->actions,
                             ofpact_nest_get_action_len(on));
            break;
        }
        case OFPACT_WRITE_METADATA: {
            const struct ofpact_metadata *md = (const void *) a;
            flow->metadata = ((flow->metadata & ~md->mask)
                              | (md->metadata & md->mask));
            break;
        }
        case OFPACT_GOTO_TABLE:
            xlate_table(ctx, OFPP_IN_PORT,
                        ((const struct ofpact_goto_table *) a)->table_id,
                        true);
            break;
        case N_OFPACTS:
        default:
            break;
        }
    }
}

/* Patch ports.
 *
 * As 3.1 does: output to a paired patch port is a lookup in table 0 of
 * the peer's bridge with in_port the peer, the pipeline fields (metadata,
 * registers, tunnel) zero, an empty action set and stack of its own (the
 * sender's are put back after), the sender's flow put back after; what
 * the peer bridge does (exit, errors, a freeze) ends there.  Rules and the
 * ports' counters are credited where translation credits them (the
 * handler's first packet, the revalidators' deltas).  An unpaired patch
 * port outputs nothing. */

/* Whether the datapath packet can be left as these actions leave it for
 * the actions that follow (3.1's list: a meter's drop cannot be undone;
 * the others it names are refused here already). */
static bool
actions_are_reversible(const struct ofpact *ofpacts, size_t ofpacts_len)
{
    const struct ofpact *a;
    OFPACT_FOR_EACH (a, ofpacts, ofpacts_len) {
        if (a->type == OFPACT_METER) {
            return false;
        }
    }
    return true;
}

/* The end of the peer bridge's pipeline: its action set, or the freeze
 * that stopped it (the recirculated packet goes on in the peer bridge). */
static void
xlate_patch_finish(struct xlate_ctx *ctx)
{
    if (ctx->action_set.size && !ctx->error && !ctx->freezing) {
        ctx->exit = false;
        action_set_execute(ctx);
    }
    if (ctx->freezing && !ctx->error) {
        finish_freezing(ctx, true);
    }
}

/* The actions of the rule the peer bridge's first lookup found.  Unless
 * they are the last thing translation does, irreversible ones run in a
 * datapath clone, so that what follows the patch output sees the packet
 * as it was. */
static void
xlate_patch_rule(struct xlate_ctx *ctx, const struct ofpact *ofpacts,
                 size_t ofpacts_len)
{
    if (ctx->last_action || actions_are_reversible(ofpacts, ofpacts_len)) {
        do_xlate_actions(ctx, ofpacts, ofpacts_len);
        return;
    }
    commit_all(ctx);
    struct flow saved_base = ctx->base;
    bool saved_was_mpls = ctx->was_mpls;
    size_t ofs = nl_msg_start_nested(ctx->odp, OVS_ACTION_ATTR_CLONE);
    ctx->last_action = true;
    do_xlate_actions(ctx, ofpacts, ofpacts_len);
    xlate_patch_finish(ctx);
    if (ctx->odp->size - ofs <= sizeof(struct nlattr)) {
        ctx->odp->size = ofs;   /* An empty clone is no action. */
    } else {
        nl_msg_end_nested(ctx->odp, ofs);
    }
    ctx->base = saved_base;
    ctx->was_mpls = saved_was_mpls;
}

/* Goes on translating in IN's bridge, as if the packet had been received
 * on IN (3.1's patch_port_output): a lookup in table 0 with in_port IN
 * and the pipeline fields zero, the sender's state put back after.  With
 * TAKE_PROTOCOLS, a control packet of a protocol on IN is that
 * protocol's. */
static void
xlate_cross_bridge(struct xlate_ctx *ctx, const struct ofport *in,
                   bool take_protocols)
{
    struct ofproto *saved_ofproto = ctx->ofproto;
    ovs_version_t saved_version = ctx->version;
    struct flow saved_flow = ctx->flow;
    struct flow_tnl saved_tnl_mask = ctx->wc->masks.tunnel;
    bool saved_was_mpls = ctx->was_mpls;
    bool saved_l3_cleared = ctx->l3_cleared;
    bool saved_conntracked = ctx->conntracked;
    struct ofpbuf saved_stack = ctx->stack;
    struct ofpbuf saved_action_set = ctx->action_set;
    ofpbuf_init(&ctx->stack, 0);
    ofpbuf_init(&ctx->action_set, 0);

    struct flow *flow = &ctx->flow;
    flow->in_port = in->ofp_port;
    flow->metadata = htonll(0);
    memset(&flow->tunnel, 0, sizeof flow->tunnel);
    memset(flow->regs, 0, sizeof flow->regs);
    flow->actset_output = OFPP_UNSET;
    /* The other bridge starts untracked, as 3.1's, and its ct() actions
     * do not change what this one knows. */
    flow_clear_conntrack(flow);
    ctx->conntracked = false;
    /* The other bridge's lookups see no tunnel: they must not make the
     * megaflow match the packet's. */
    memset(&ctx->wc->masks.tunnel, 0, sizeof ctx->wc->masks.tunnel);
    ctx->ofproto = in->ofproto;
    ctx->version = ofproto_tables_version(in->ofproto);

    struct xtrace *t = ctx->xin->trace;
    struct ovs_list *trace_saved = NULL;
    if (t) {
        trace_saved = xtrace_enter(t, xtrace_add(t, XTRACE_BRIDGE,
                                                 "bridge(\"%s\")",
                                                 in->ofproto->name));
    }

    /* As 3.1's: a control packet of a protocol on the peer (BFD between
     * two bridges) is that protocol's, and a port takes no OFPPC_NO_RECV
     * packets. */
    if (take_protocols && xlate_port_protocols(ctx)) {
        /* Consumed in the other bridge. */
    } else if (!(in->config & OFPUTIL_PC_NO_RECV)) {
        ctx->patch_lookup = true;
        xlate_table(ctx, OFPP_IN_PORT, 0, true);
        ctx->patch_lookup = false;
        xlate_patch_finish(ctx);
    }

    if (t) {
        xtrace_leave(t, trace_saved);
    }
    ctx->ofproto = saved_ofproto;
    ctx->version = saved_version;
    ctx->flow = saved_flow;
    ctx->wc->masks.tunnel = saved_tnl_mask;
    ctx->was_mpls = saved_was_mpls;
    ctx->l3_cleared = saved_l3_cleared;
    ctx->conntracked = saved_conntracked;
    ofpbuf_uninit(&ctx->stack);
    ctx->stack = saved_stack;
    ofpbuf_uninit(&ctx->action_set);
    ctx->action_set = saved_action_set;
    /* Nothing the other bridge did stops the sender's actions. */
    ctx->exit = false;
    ctx->error = false;
    if (ctx->freezing) {
        ctx->freezing = false;
        ofpbuf_clear(&ctx->frozen);
    }
}

static void
xlate_patch_output(struct xlate_ctx *ctx, const struct ofport *out)
{
    const struct ofport *peer = out->peer;
    if (!peer) {
        return;
    }
    xlate_cross_bridge(ctx, peer, true);
    if (ctx->xin->n_packets) {
        ofport_patch_count(out, peer, ctx->xin->n_packets,
                           ctx->xin->n_bytes);
    }
}

/* Native tunneling (docs/native-tunneling.md).
 *
 * Output to a tunnel port encapsulates in the datapath, as 3.1 does: the
 * route to the tunnel's remote end names the bridge (its LOCAL port, or
 * another port of that name) the packet leaves through, the neighbour
 * cache the next hop's MAC (a miss sends an ARP request or neighbour
 * solicitation into that bridge and outputs nothing), and the tunnel
 * port's options and the flow's tunnel metadata the rest of the header;
 * then tnl_push, and the encapsulated packet goes on through that
 * bridge's tables as received on that port.  Its fields are computed from
 * the inner flow's, so those lookups need not widen the megaflow: they
 * use wildcards of their own.  Unless the output is the last action,
 * all of it runs in a datapath clone.
 *
 * Output to a device with an IP address (tnl-ports.h) of a packet
 * addressed to one of our tunnels becomes tnl_pop instead; on the way
 * the outer source's MAC is learned, and ARP replies and gratuitous ARPs
 * for the device's addresses are snooped. */

/* The port a route's device OUT_DEV names: a bridge's LOCAL port, or else
 * any port of that name. */
static const struct ofport *
tnl_route_port(const struct xlate_ctx *ctx, const char *out_dev)
{
    const struct ofproto *br = ofproto_lookup(out_dev);
    if (br) {
        const struct ofport *local = ofproto_get_port(br, OFPP_LOCAL);
        if (local && !strcmp(local->name, out_dev)) {
            return local;
        }
    }
    struct dpif_port dp;
    if (dpif_port_query_by_name(ctx->ofproto->backer->dpif, out_dev, &dp)) {
        return NULL;
    }
    const struct ofport *port = backer_odp_to_ofport(ctx->ofproto->backer,
                                                     dp.port_no);
    dpif_port_destroy(&dp);
    return port;
}

/* Sends an ARP request or neighbour solicitation for NEXT_HOP from
 * SMAC/SRC into OUT's bridge, as received on OUT. */
static void
tnl_send_neighbour_request(const struct xlate_ctx *ctx,
                           const struct ofport *out, struct eth_addr smac,
                           const struct in6_addr *src,
                           const struct in6_addr *next_hop)
{
    if (!ctx->xin->may_learn) {
        return;                 /* Only for packets seen, not traces. */
    }
    struct dp_packet *packet = dp_packet_new(0);
    ovs_be32 src4, dst4;
    if (in6_addr_get_mapped_ipv4(next_hop, &dst4)) {
        if (!in6_addr_get_mapped_ipv4(src, &src4)) {
            src4 = 0;
        }
        tnl_compose_arp_request(packet, smac, src4, dst4);
    } else {
        tnl_compose_nd_solicit(packet, smac, src, next_hop);
    }
    ofport_inject_packet(out, packet);
    dp_packet_delete(packet);
}

/* FLOW (and the datapath packet, BASE) as the packet is once TNL's
 * header is pushed, from SMAC and SRC to DMAC. */
static void
tnl_flow_to_outer(struct flow *f, const struct flow_tnl *tnl,
                  struct eth_addr dmac, struct eth_addr smac,
                  const struct in6_addr *src, uint8_t nw_proto)
{
    f->dl_dst = dmac;
    f->dl_src = smac;
    memset(f->vlans, 0, sizeof f->vlans);
    f->packet_type = htonl(PT_ETH);
    f->nw_src = tnl->ip_src;
    f->nw_dst = tnl->ip_dst;
    f->ipv6_src = tnl->ipv6_src;
    f->ipv6_dst = tnl->ipv6_dst;
    f->nw_frag = 0;
    f->nw_tos = tnl->ip_tos;
    f->nw_ttl = tnl->ip_ttl;
    f->tp_src = tnl->tp_src;
    f->tp_dst = tnl->tp_dst;
    f->nw_proto = nw_proto;
    if (tnl->ip_dst) {
        f->dl_type = htons(ETH_TYPE_IP);
        if (!f->nw_src) {
            ovs_be32 ip;
            f->nw_src = in6_addr_get_mapped_ipv4(src, &ip) ? ip : 0;
        }
    } else {
        f->dl_type = htons(ETH_TYPE_IPV6);
        if (ipv6_addr_is_zero(&f->ipv6_src)) {
            f->ipv6_src = *src;
        }
    }
}

static void
xlate_native_tunnel_output(struct xlate_ctx *ctx, const struct ofport *port)
{
    struct flow_tnl saved_tnl = ctx->flow.tunnel;
    uint32_t tnl_odp_port = tnl_port_send(port, &ctx->flow, ctx->wc);
    const struct flow_tnl *tnl = &ctx->flow.tunnel;

    struct in6_addr dst, src, gw;
    if (tnl->ip_dst) {
        dst = in6_addr_mapped_ipv4(tnl->ip_dst);
    } else {
        dst = tnl->ipv6_dst;
    }
    if (tnl->ip_src) {
        src = in6_addr_mapped_ipv4(tnl->ip_src);
    } else {
        src = tnl->ipv6_src;
    }
    char out_dev[IFNAMSIZ];
    const struct ofport *out = NULL;
    if (in6_addr_is_unspecified(&dst)
        || !ovs_router_lookup(ctx->flow.pkt_mark, &dst, out_dev, &src, &gw)
        || !(out = tnl_route_port(ctx, out_dev))) {
        if (ctx->xin->trace) {
            xtrace_add(ctx->xin->trace, XTRACE_WARN,
                       "native tunnel routing failed");
        }
        goto done;
    }
    const struct in6_addr *next_hop = (in6_addr_is_unspecified(&gw)
                                       ? &dst : &gw);
    char hop_text[INET6_ADDRSTRLEN] = "";  /* For the trace only. */
    if (ctx->xin->trace) {
        ipv6_string_mapped(hop_text, next_hop);
    }
    trace_note(ctx, "tunneling to %s via %s", hop_text, out->name);

    struct eth_addr smac, dmac;
    if (!tnl_ports_dev_get_mac(out_dev, &smac)) {
        if (ctx->xin->trace) {
            xtrace_add(ctx->xin->trace, XTRACE_WARN,
                       "tunnel output device lacks Ethernet address");
        }
        goto done;
    }
    if (tnl_neigh_lookup(out->ofproto->name, next_hop, &dmac)) {
        trace_note(ctx, "neighbor cache miss for %s on bridge %s, "
                   "sending %s request", hop_text, out->ofproto->name,
                   tnl->ip_dst ? "ARP" : "ND");
        tnl_send_neighbour_request(ctx, out, smac, &src, next_hop);
        goto done;
    }
    if (ctx->xin->trace) {
        char src_text[INET6_ADDRSTRLEN];
        trace_note(ctx, "tunneling from "ETH_ADDR_FMT" %s to "ETH_ADDR_FMT
                   " %s", ETH_ADDR_ARGS(smac),
                   ipv6_string_mapped(src_text, &src), ETH_ADDR_ARGS(dmac),
                   hop_text);
    }

    struct tnl_push_action push;
    if (tnl_port_build_header(port, &ctx->flow, dmac, smac, &src, &push)) {
        if (ctx->xin->trace) {
            xtrace_add(ctx->xin->trace, XTRACE_WARN,
                       "native tunnel header build failed");
        }
        goto done;
    }
    push.tnl_port = tnl_odp_port;
    push.out_port = out->odp_port;
    if (push.tnl_type == TNL_TYPE_GTPU
        && (saved_tnl.ip_dst || !ipv6_addr_is_zero(&saved_tnl.ipv6_dst))) {
        /* The header carries the flags and message type a packet came in
         * with (from another GTP-U tunnel): the megaflow must say them. */
        ctx->wc->masks.tunnel.gtpu_flags = UINT8_MAX;
        ctx->wc->masks.tunnel.gtpu_msgtype = UINT8_MAX;
    }

    /* The inner packet as the actions so far made it, then the header. */
    commit_all(ctx);
    bool last = ctx->last_action;
    size_t ofs = (last ? ctx->odp->size
                  : nl_msg_start_nested(ctx->odp, OVS_ACTION_ATTR_CLONE));
    odp_put_tnl_push_action(ctx->odp, &push);
    size_t push_end = ctx->odp->size;

    struct flow saved_flow = ctx->flow;
    struct flow saved_base = ctx->base;
    struct flow_wildcards *saved_wc = ctx->wc;
    struct flow_wildcards outer_wc;
    memset(&outer_wc, 0, sizeof outer_wc);
    const struct xlate_in *saved_xin = ctx->xin;
    struct xlate_in outer_xin = *ctx->xin;
    outer_xin.packet = NULL;    /* The packet there is not this one. */
    /* What the other bridge's rules count is the encapsulated packet. */
    outer_xin.n_bytes += outer_xin.n_packets * push.header_len;

    uint8_t nw_proto = (push.tnl_type == TNL_TYPE_VXLAN
                        || push.tnl_type == TNL_TYPE_GENEVE
                        || push.tnl_type == TNL_TYPE_GTPU
                        ? IPPROTO_UDP : IPPROTO_GRE);
    tnl_flow_to_outer(&ctx->base, tnl, dmac, smac, &src, nw_proto);
    tnl_flow_to_outer(&ctx->flow, tnl, dmac, smac, &src, nw_proto);
    ctx->wc = &outer_wc;
    ctx->xin = &outer_xin;
    ctx->last_action = true;    /* Nothing after it sees this packet. */
    xlate_cross_bridge(ctx, out, false);
    ctx->last_action = last;
    ctx->xin = saved_xin;
    ctx->wc = saved_wc;
    ctx->flow = saved_flow;
    ctx->base = saved_base;

    if (ctx->odp->size > push_end) {
        if (!last) {
            nl_msg_end_nested(ctx->odp, ofs);
        }
    } else {
        ctx->odp->size = ofs;   /* Encapsulated, then sent nowhere. */
    }

done:
    ctx->flow.tunnel = saved_tnl;
}

static bool
xlate_terminate_tunnel(struct xlate_ctx *ctx, const struct ofport *port,
                       uint32_t *pop_port)
{
    /* A device without an address is no endpoint: asking would only
     * widen the megaflow. */
    if (!tnl_ports_dev_has_ip(port->name)) {
        return false;
    }
    struct flow *flow = &ctx->flow;
    *pop_port = tnl_ports_lookup(flow, ctx->wc);
    if (*pop_port != DPIF_PORT_NONE) {
        /* Only from a packet's own flow, as 3.1 learns it: the megaflow
         * leaves the outer source wildcarded, so a revalidation's
         * translation of the masked key would bind the MAC to "::". */
        if (ctx->xin->may_learn && ctx->xin->packet) {
            struct in6_addr outer_src = (flow->dl_type == htons(ETH_TYPE_IP)
                                         ? in6_addr_mapped_ipv4(flow->nw_src)
                                         : flow->ipv6_src);
            tnl_neigh_set(ctx->ofproto->name, &outer_src, flow->dl_src);
        }
        return true;
    }

    /* Neighbour replies addressed to the device, and gratuitous ARPs. */
    bool arp = flow->dl_type == htons(ETH_TYPE_ARP);
    bool reply_to_us = false;
    if (arp) {
        struct in6_addr target = in6_addr_mapped_ipv4(flow->nw_dst);
        reply_to_us = tnl_ports_dev_has_addr(port->name, &target);
    } else if (flow->dl_type == htons(ETH_TYPE_IPV6)
               && flow->nw_proto == IPPROTO_ICMPV6) {
        reply_to_us = tnl_ports_dev_is_nd_dst(port->name, &flow->ipv6_dst);
    }
    bool garp = false;
    if (arp && !reply_to_us) {
        ctx->wc->masks.nw_src = OVS_BE32_MAX;
        ctx->wc->masks.nw_dst = OVS_BE32_MAX;
        garp = flow->nw_src == flow->nw_dst;
    }
    if (reply_to_us || garp) {
        tnl_neigh_snoop(flow, ctx->wc, ctx->ofproto->name,
                        ctx->xin->may_learn);
    }
    return false;
}

/* Freezing and thawing.
 *
 * The frozen state (recirc.h keeps it as bytes) is a struct frozen_header,
 * then the segments that make up what was left to do, innermost first
 * (each a struct frozen_segment and, for actions, the ofpacts), then the
 * action set's ofpacts, then the field stack, then the userdata of a
 * controller action.  Padding is zero, so that equal states are equal
 * bytes.  A packet-in's state (freeze_packet_in()) has no segments,
 * action set or stack: what the packet-in reports is in the header and
 * the userdata. */

struct frozen_header {
    uint64_t ofproto_id;
    struct flow_tnl tunnel;
    struct flow_tun_metadata tun_metadata; /* Laid out as the bridge's TLV
                                            * map says. */
    ovs_be64 metadata;
    uint32_t regs[FLOW_N_REGS];
    uint32_t in_port;           /* OpenFlow port. */
    uint32_t actset_output;
    uint32_t pkt_mark;
    uint32_t skb_priority;
    ovs_be32 packet_type;
    uint32_t segments_len;      /* Bytes of segments. */
    uint32_t action_set_len;
    uint32_t stack_len;
    uint32_t userdata_len;
    uint8_t table_id;           /* Where translation was... */
    uint8_t conntracked;        /* The ct_* fields are the packet's. */
    uint8_t pad[2];
    ovs_be64 rule_cookie;       /* ...and the cookie of its rule. */
};

enum frozen_kind {
    FROZEN_ACTIONS,             /* Run OFPACTS_LEN bytes of actions. */
    FROZEN_LOOKUP,              /* Look up TABLE_ID and run what it says. */
};

/* Where in the pipeline the segment's actions were (packet-in reasons). */
enum {
    FROZEN_IN_PACKET_OUT = 1 << 0,
    FROZEN_IN_GROUP = 1 << 1,
    FROZEN_IN_ACTION_SET = 1 << 2,
};

struct frozen_segment {
    uint8_t kind;               /* enum frozen_kind. */
    uint8_t table_id;
    uint8_t context;            /* FROZEN_IN_* bits. */
    uint8_t honor_miss;         /* FROZEN_LOOKUP: a table miss counts. */
    uint32_t in_port;           /* FROZEN_LOOKUP: its in_port argument. */
    ovs_be64 cookie;            /* Of the rule the actions came from. */
    uint32_t ofpacts_len;       /* FROZEN_ACTIONS: bytes that follow. */
    uint32_t pad;
};

static struct frozen_segment *
freeze_segment(struct xlate_ctx *ctx, enum frozen_kind kind)
{
    struct frozen_segment *seg = ofpbuf_put_zeros(&ctx->frozen,
                                                  sizeof *seg);
    seg->kind = kind;
    seg->table_id = ctx->table_id;
    seg->context = ((ctx->in_packet_out ? FROZEN_IN_PACKET_OUT : 0)
                    | (ctx->in_group ? FROZEN_IN_GROUP : 0)
                    | (ctx->in_action_set ? FROZEN_IN_ACTION_SET : 0));
    seg->cookie = ctx->rule_cookie;
    return seg;
}

/* The actions an unwinding level had left, from OFPACTS on. */
static void
freeze_actions(struct xlate_ctx *ctx, const struct ofpact *ofpacts,
               size_t ofpacts_len)
{
    if (ofpacts_len) {
        freeze_segment(ctx, FROZEN_ACTIONS)->ofpacts_len = ofpacts_len;
        ofpbuf_put(&ctx->frozen, ofpacts, ofpacts_len);
    }
}

/* Freezes a lookup that was about to happen. */
static void
freeze_lookup(struct xlate_ctx *ctx, uint32_t in_port, uint8_t table_id,
              bool honor_miss)
{
    ctx->freezing = ctx->exit = true;
    struct frozen_segment *seg = freeze_segment(ctx, FROZEN_LOOKUP);
    seg->table_id = table_id;
    seg->in_port = in_port;
    seg->honor_miss = honor_miss;
}

/* The id of the state made of CTX's flow, the table and rule cookie, the
 * SEGMENTS_LEN bytes of frozen segments of CTX, ACTION_SET_LEN bytes of
 * its action set, STACK_LEN bytes of its stack and USERDATA; CTX's xout
 * holds the reference. */
static uint32_t
freeze_state(struct xlate_ctx *ctx, size_t segments_len,
             size_t action_set_len, size_t stack_len,
             const void *userdata, size_t userdata_len)
{
    const struct flow *f = &ctx->flow;
    struct frozen_header h;
    memset(&h, 0, sizeof h);
    h.ofproto_id = ctx->ofproto->id;
    h.tunnel = f->tunnel;
    h.tun_metadata = f->tun_metadata;
    h.metadata = f->metadata;
    memcpy(h.regs, f->regs, sizeof h.regs);
    h.in_port = f->in_port;
    h.actset_output = f->actset_output;
    h.pkt_mark = f->pkt_mark;
    h.skb_priority = f->skb_priority;
    h.packet_type = f->packet_type;
    h.segments_len = segments_len;
    h.action_set_len = action_set_len;
    h.stack_len = stack_len;
    h.userdata_len = userdata_len;
    h.table_id = ctx->table_id;
    h.conntracked = ctx->conntracked;
    h.rule_cookie = ctx->rule_cookie;

    struct ofpbuf state;
    ofpbuf_init(&state, sizeof h + segments_len + action_set_len
                + stack_len + userdata_len);
    ofpbuf_put(&state, &h, sizeof h);
    ofpbuf_put(&state, ctx->frozen.data, segments_len);
    ofpbuf_put(&state, ctx->action_set.data, action_set_len);
    ofpbuf_put(&state, ctx->stack.data, stack_len);
    ofpbuf_put(&state, userdata, userdata_len);
    uint32_t id = recirc_alloc_id(state.data, state.size);
    ofpbuf_uninit(&state);
    recirc_refs_add(&ctx->xout->recircs, id);
    return id;
}

/* A packet-in's state: the pipeline fields as the actions left them, the
 * table, the rule cookie and the controller action's USERDATA. */
static uint32_t
freeze_packet_in(struct xlate_ctx *ctx, const void *userdata,
                 size_t userdata_len)
{
    return freeze_state(ctx, 0, 0, 0, userdata, userdata_len);
}

/* Ends the freeze that has unwound to here: the packet, with every change
 * so far committed, goes back through the datapath with the id of the
 * frozen state, and translation goes on with what comes after this point
 * (nothing, at the top).  WITH_ACTION_SET: the action set belongs to the
 * frozen packet (not at a group bucket or clone, whose copies of the
 * packet end with them). */
static void
finish_freezing(struct xlate_ctx *ctx, bool with_action_set)
{
    uint32_t id = freeze_state(ctx, ctx->frozen.size,
                               with_action_set ? ctx->action_set.size : 0,
                               ctx->stack.size, NULL, 0);
    commit_all(ctx);
    nl_msg_put_u32(ctx->odp, OVS_ACTION_ATTR_RECIRC, id);
    trace_note(ctx, "recirculate as %#"PRIx32", to go on once the datapath "
               "parsed the packet again", id);

    ofpbuf_clear(&ctx->frozen);
    ctx->freezing = ctx->exit = false;
}

/* ct(...).  The datapath tracks the packet as it is now (pending changes
 * committed first); the nested actions say what a commit sets (ct_mark,
 * ct_label) and nat() how to translate.  With a table, a copy of the
 * packet goes back through the datapath, tracked, to a lookup in that
 * table ("fork"): the rest of this pipeline goes on with the packet too,
 * but without knowing its new state. */
static void
xlate_ct(struct xlate_ctx *ctx, const struct ofpact_conntrack *oc)
{
    struct xlate_ct_action ct = {
        .commit = (oc->flags & NX_CT_F_COMMIT) != 0,
        .force = (oc->flags & NX_CT_F_FORCE) != 0,
        .alg = oc->alg,
    };
    if (oc->zone_src.field) {
        ct.zone = mf_get_subfield(&oc->zone_src, &ctx->flow);
        mask_subfield(ctx, &oc->zone_src);
    } else {
        ct.zone = oc->zone_imm;
    }
    if (ct.commit) {
        ct.timeout_policy = ct_zones_timeout_policy(
            ctx->ofproto->backer->type, ct.zone);
    }
    commit_all(ctx);

    /* What the nested set_fields write shows in the flow and, as the
     * bits they set, in the wildcards, which are put back afterwards:
     * setting a mark does not make the megaflow match it. */
    uint32_t saved_mark_mask = ctx->wc->masks.ct_mark;
    uint8_t saved_label_mask[16];
    memcpy(saved_label_mask, ctx->wc->masks.ct_label,
           sizeof saved_label_mask);
    ctx->wc->masks.ct_mark = 0;
    memset(ctx->wc->masks.ct_label, 0, sizeof ctx->wc->masks.ct_label);
    ctx->ct_nat = NULL;
    do_xlate_actions(ctx, oc->actions, ofpact_ct_get_action_len(oc));

    ct.mark = ctx->flow.ct_mark;
    ct.mark_mask = ctx->wc->masks.ct_mark;
    memcpy(ct.label, ctx->flow.ct_label, sizeof ct.label);
    memcpy(ct.label_mask, ctx->wc->masks.ct_label, sizeof ct.label_mask);
    ct.nat = ctx->ct_nat;
    xlate_ct_put(ctx->odp, &ct);
    ctx->wc->masks.ct_mark = saved_mark_mask;
    memcpy(ctx->wc->masks.ct_label, saved_label_mask,
           sizeof saved_label_mask);
    trace_note(ctx, "the datapath tracks the packet in zone %"PRIu16,
               ct.zone);

    if (oc->recirc_table != NX_CT_RECIRC_NONE && !ctx->freezing) {
        ofpbuf_clear(&ctx->frozen);
        struct frozen_segment *seg = freeze_segment(ctx, FROZEN_LOOKUP);
        seg->table_id = oc->recirc_table;
        seg->in_port = OFPP_IN_PORT;
        seg->honor_miss = true;
        ctx->conntracked = true;
        uint32_t id = freeze_state(ctx, ctx->frozen.size,
                                   ctx->action_set.size, ctx->stack.size,
                                   NULL, 0);
        ofpbuf_clear(&ctx->frozen);
        nl_msg_put_u32(ctx->odp, OVS_ACTION_ATTR_RECIRC, id);
        trace_note(ctx, "a clone of the packet recirculates as %#"PRIx32
                   ", to resume at table %"PRIu8" once tracked", id,
                   oc->recirc_table);
        if (ctx->xin->ct_recircs && recirc_ref_id(id)) {
            struct xlate_ct_recirc *r = xzalloc(sizeof *r);
            r->recirc_id = id;
            r->flow = ctx->flow;
            r->flow.recirc_id = id;
            r->flow.ct_zone = ct.zone;
            if (ctx->ct_nat) {
                r->has_nat = true;
                r->nat = *ctx->ct_nat;
            }
            ovs_list_push_back(ctx->xin->ct_recircs, &r->node);
        }
    }
    ctx->ct_nat = NULL;
    /* What the datapath's tracker decided is unknown here. */
    flow_clear_conntrack(&ctx->flow);
    ctx->conntracked = false;
}

void
xlate_ct_recirc_destroy(struct xlate_ct_recirc *r)
{
    if (r) {
        recirc_unref_id(r->recirc_id);
        free(r);
    }
}

/* Runs the SEGMENTS_LEN bytes of frozen segments at SEGMENTS.  If the
 * translation freezes again, the segments it did not reach are frozen
 * with it. */
static void
thaw_segments(struct xlate_ctx *ctx, const uint8_t *segments,
              size_t segments_len)
{
    size_t ofs = 0;
    while (ofs + sizeof(struct frozen_segment) <= segments_len) {
        struct frozen_segment seg;
        memcpy(&seg, segments + ofs, sizeof seg);
        size_t len = sizeof seg + (seg.kind == FROZEN_ACTIONS
                                   ? seg.ofpacts_len : 0);
        if (len > segments_len - ofs) {
            break;
        }
        if (ctx->freezing) {
            ofpbuf_put(&ctx->frozen, segments + ofs, len);
        } else if (!ctx->exit && !ctx->error) {
            ctx->table_id = seg.table_id;
            ctx->rule_cookie = seg.cookie;
            ctx->in_packet_out = seg.context & FROZEN_IN_PACKET_OUT;
            ctx->in_group = seg.context & FROZEN_IN_GROUP;
            ctx->in_action_set = seg.context & FROZEN_IN_ACTION_SET;
            if (seg.kind == FROZEN_LOOKUP) {
                xlate_table(ctx, seg.in_port, seg.table_id, seg.honor_miss);
            } else {
                /* The actions sit at an 8-byte boundary in the state. */
                uint64_t *copy = xmalloc(seg.ofpacts_len);
                memcpy(copy, segments + ofs + sizeof seg, seg.ofpacts_len);
                do_xlate_actions(ctx, (const struct ofpact *) copy,
                                 seg.ofpacts_len);
                free(copy);
            }
            ctx->in_packet_out = ctx->in_group = ctx->in_action_set = false;
        }
        ofs += len;
    }
}

uint32_t
xlate_alloc_internal_recirc_id(const struct ofproto *ofproto,
                               const char *owner)
{
    /* A state of one lookup segment; the owner's name as its userdata
     * (which a thaw ignores) keeps it apart from any other. */
    struct frozen_header h;
    memset(&h, 0, sizeof h);
    h.ofproto_id = ofproto->id;
    h.in_port = OFPP_NONE;
    h.actset_output = OFPP_UNSET;
    h.packet_type = htonl(PT_ETH);
    h.segments_len = sizeof(struct frozen_segment);
    h.userdata_len = strlen(owner);
    h.table_id = OFPROTO_INTERNAL_TABLE;

    struct frozen_segment seg;
    memset(&seg, 0, sizeof seg);
    seg.kind = FROZEN_LOOKUP;
    seg.table_id = OFPROTO_INTERNAL_TABLE;
    seg.in_port = OFPP_NONE;

    struct ofpbuf state;
    ofpbuf_init(&state, sizeof h + sizeof seg + h.userdata_len);
    ofpbuf_put(&state, &h, sizeof h);
    ofpbuf_put(&state, &seg, sizeof seg);
    ofpbuf_put(&state, owner, h.userdata_len);
    uint32_t id = recirc_alloc_id(state.data, state.size);
    ofpbuf_uninit(&state);
    return id;
}

/* Copies the state of ID into *STATE (which the caller uninits) and its
 * header into *H; false (nothing to uninit) if ID names none, or a state
 * whose parts do not add up. */
static bool
frozen_find(uint32_t id, struct ofpbuf *state, struct frozen_header *h)
{
    ofpbuf_init(state, 0);
    if (!recirc_find(id, state) || state->size < sizeof *h) {
        ofpbuf_uninit(state);
        return false;
    }
    memcpy(h, state->data, sizeof *h);
    if ((uint64_t) h->segments_len + h->action_set_len + h->stack_len
        + h->userdata_len != state->size - sizeof *h) {
        ofpbuf_uninit(state);
        return false;
    }
    return true;
}

bool
xlate_frozen_packet_in(uint32_t id, struct frozen_packet_in *pin)
{
    struct ofpbuf state;
    struct frozen_header h;
    if (!frozen_find(id, &state, &h)) {
        return false;
    }
    pin->ofproto = ofproto_lookup_by_id(h.ofproto_id);
    if (!pin->ofproto) {
        ofpbuf_uninit(&state);
        return false;
    }
    pin->table_id = h.table_id;
    pin->rule_cookie = h.rule_cookie;
    struct flow *md = &pin->metadata;
    memset(md, 0, sizeof *md);
    md->in_port = h.in_port;
    md->packet_type = h.packet_type;
    md->tunnel = h.tunnel;
    md->tun_metadata = h.tun_metadata;
    md->metadata = h.metadata;
    memcpy(md->regs, h.regs, sizeof md->regs);
    md->pkt_mark = h.pkt_mark;
    pin->conntracked = h.conntracked;
    pin->userdata_len = h.userdata_len;
    pin->userdata = (h.userdata_len
                     ? xmemdup((const uint8_t *) state.data + state.size
                               - h.userdata_len, h.userdata_len)
                     : NULL);
    ofpbuf_uninit(&state);
    return true;
}

/* Translation of a packet that came back through the datapath with
 * recirculation id ID: the frozen state's pipeline fields replace the
 * packet's, then what was left to do runs.  False if the state is gone
 * (the packet is dropped). */
static bool
thaw(struct xlate_ctx *ctx, uint32_t id)
{
    struct ofpbuf state;
    struct frozen_header h;
    if (!frozen_find(id, &state, &h)) {
        return false;
    }
    const uint8_t *p = (const uint8_t *) state.data + sizeof h;
    if (h.ofproto_id != ctx->ofproto->id) {
        struct ofproto *ofproto = ofproto_lookup_by_id(h.ofproto_id);
        if (!ofproto) {
            ofpbuf_uninit(&state);
            return false;
        }
        ctx->ofproto = ofproto;
        ctx->version = ofproto_tables_version(ofproto);
    }
    /* The datapath flow that thaws this state keeps it alive. */
    if (recirc_ref_id(id)) {
        recirc_refs_add(&ctx->xout->recircs, id);
    }

    struct flow *f = &ctx->flow;
    f->tunnel = h.tunnel;
    f->tun_metadata = h.tun_metadata;
    f->metadata = h.metadata;
    memcpy(f->regs, h.regs, sizeof f->regs);
    f->in_port = h.in_port;
    f->actset_output = h.actset_output;
    f->pkt_mark = h.pkt_mark;
    f->skb_priority = h.skb_priority;
    ctx->conntracked = h.conntracked;
    if (!ctx->conntracked) {
        flow_clear_conntrack(f);
    }
    ctx->base = *f;
    trace_note(ctx, "thawed the translation frozen as %#"PRIx32, id);

    const uint8_t *segments = p;
    p += h.segments_len;
    ofpbuf_put(&ctx->action_set, p, h.action_set_len);
    p += h.action_set_len;
    ofpbuf_put(&ctx->stack, p, h.stack_len);
    thaw_segments(ctx, segments, h.segments_len);
    ofpbuf_uninit(&state);
    return true;
}

enum ofperr
xlate_check_actions(const struct ofpact *ofpacts, size_t ofpacts_len)
{
    const struct ofpact *a;
    OFPACT_FOR_EACH (a, ofpacts, ofpacts_len) {
        switch ((enum ofpact_type) a->type) {
        case OFPACT_WRITE_ACTIONS:
        case OFPACT_CLONE: {
            const struct ofpact_nest *on = (const void *) a;
            enum ofperr error = xlate_check_actions(
                on->actions, ofpact_nest_get_action_len(on));
            if (error) {
                return error;
            }
            break;
        }
        case OFPACT_DEC_NSH_TTL:
        case OFPACT_ENCAP:
        case OFPACT_DECAP:
        case OFPACT_CONJUNCTION:
        case OFPACT_FIN_TIMEOUT:
        case OFPACT_CHECK_PKT_LARGER:
        case OFPACT_SAMPLE:
            VLOG_WARN_RL(&check_rl, "%s action is not supported by this "
                         "switch", ofpact_name(a->type));
            return OFPERR_OFPBAC_BAD_TYPE;
        default:
            break;
        }
    }
    return 0;
}

void
xlate_out_init(struct xlate_out *xout)
{
    flow_wildcards_init_catchall(&xout->wc);
    ofpbuf_use_stub(&xout->odp_actions, xout->odp_actions_stub,
                    sizeof xout->odp_actions_stub);
    xout->slow = 0;
    recirc_refs_init(&xout->recircs);
}

void
xlate_out_uninit(struct xlate_out *xout)
{
    ofpbuf_uninit(&xout->odp_actions);
    recirc_refs_release(&xout->recircs);
}

void
xlate_install_actions(const struct xlate_out *xout, struct ofpbuf *actions)
{
    if (xout->slow) {
        struct odp_cookie cookie = {
            .type = ODP_COOKIE_SLOW_PATH,
            .slow_path = { .reason = xout->slow },
        };
        odp_put_userspace_cookie(actions, &cookie);
    } else {
        ofpbuf_put(actions, xout->odp_actions.data, xout->odp_actions.size);
    }
}

/* The megaflow starts with the fields 3.1 always examines: the
 * recirculation id, the packet type, the input port, the Ethernet type
 * and, for IP, whether the packet is a fragment. */
static void
xlate_wc_init(struct xlate_ctx *ctx)
{
    struct flow_wildcards *wc = ctx->wc;
    WC_MASK_FIELD(wc, recirc_id);
    WC_MASK_FIELD(wc, packet_type);
    WC_MASK_FIELD(wc, in_port);
    WC_MASK_FIELD(wc, dl_type);
    if (is_ip_any(&ctx->xin->flow)) {
        wc->masks.nw_frag |= FLOW_NW_FRAG_MASK;
    }
}

/* What the datapath can match of what translation looked at, as 3.1 keeps
 * it: no OpenFlow pipeline fields (metadata, registers: a packet has them
 * zero), no Ethernet addresses in a packet without them, ICMP type and
 * code as 8 bits, no ports in a later fragment, no VLAN or MPLS fields the
 * packet did not come with (actions that push them looked at nothing),
 * and a VLAN's TCI with its "present" bit. */
static void
xlate_wc_finish(struct xlate_ctx *ctx)
{
    const struct flow *orig = &ctx->xin->flow;
    struct flow *m = &ctx->wc->masks;

    m->metadata = 0;
    memset(m->regs, 0, sizeof m->regs);
    m->conj_id = 0;
    m->actset_output = 0;
    if (orig->packet_type != htonl(PT_ETH)) {
        memset(&m->dl_src, 0, sizeof m->dl_src);
        memset(&m->dl_dst, 0, sizeof m->dl_dst);
    }
    if (is_ip_any(orig)
        && (orig->nw_proto == IPPROTO_ICMP
            || orig->nw_proto == IPPROTO_ICMPV6)) {
        m->tp_src &= htons(0xff);
        m->tp_dst &= htons(0xff);
    }
    if (orig->nw_frag & FLOW_NW_FRAG_LATER) {
        m->tp_src = m->tp_dst = 0;
    }
    for (int i = 0; i < FLOW_MAX_VLAN_HEADERS; i++) {
        if (!flow_vlan_present(&orig->vlans[i])) {
            m->vlans[i].qtag = 0;
        } else if (m->vlans[i].tci) {
            m->vlans[i].tci |= htons(VLAN_CFI);
        }
    }
    if (orig->dl_type != htons(ETH_TYPE_MPLS)
        && orig->dl_type != htons(ETH_TYPE_MPLS_MCAST)) {
        memset(m->mpls_lse, 0, sizeof m->mpls_lse);
    }
}

/* Whether the packet is a control packet of a protocol attached to its
 * input port (see xlate.h): then that protocol gets it, when it is here,
 * and the datapath flow goes to userspace for the protocol. */
static bool
xlate_port_protocols(struct xlate_ctx *ctx)
{
    const struct ofport *port = ofproto_get_port(ctx->ofproto,
                                                 ctx->flow.in_port);
    if (!port) {
        return false;
    }
    for (size_t i = 0; i < port->n_protocols; i++) {
        struct port_protocol *p = port->protocols[i];
        if (p->class->recognizes(p, &ctx->flow, ctx->wc)) {
            if (ctx->xin->packet) {
                p->class->receive(p, &ctx->flow, ctx->xin->packet);
            }
            ctx->xout->slow |= p->class->slow_reason;
            trace_note(ctx, "%s control packet: consumed by %s",
                       p->class->name, port->name);
            return true;
        }
    }
    return false;
}

/* Whether a packet that arrived on CTX's input port may be translated:
 * not if a spanning tree keeps the port from both forwarding and
 * learning. */
static bool
xlate_input_state(struct xlate_ctx *ctx)
{
    const struct ofport *in = ofproto_get_port(ctx->ofproto,
                                               ctx->flow.in_port);
    if (in && in->fwd_blocker && !in->learns) {
        trace_note(ctx, "%s not in forwarding or learning state, dropping",
                   in->fwd_blocker);
        odp_put_drop_action(ctx->odp, ODP_DROP_FORWARDING_DISABLED);
        return false;
    }
    return true;
}

void
xlate_actions(const struct xlate_in *xin, struct xlate_out *xout)
{
    COVERAGE_INC(xlate_actions);
    struct xlate_ctx ctx = {
        .xin = xin,
        .xout = xout,
        .ofproto = xin->ofproto,
        .version = ofproto_tables_version(xin->ofproto),
        .flow = xin->flow,
        .base = xin->flow,
        .wc = &xout->wc,
        .odp = &xout->odp_actions,
        .last_action = true,
    };
    ofpbuf_init(&ctx.action_set, 0);
    ofpbuf_init(&ctx.stack, 0);
    ofpbuf_init(&ctx.frozen, 0);
    xlate_wc_init(&ctx);
    /* A packet that comes in tracked (a recirculation thaw says again). */
    ctx.conntracked = (ctx.flow.ct_state & CS_TRACKED) != 0;

    if (ctx.flow.tunnel.flags & FLOW_TNL_F_UDPIF
        && tun_md_from_geneve_udpif(&ctx.ofproto->tun_table, &ctx.flow)) {
        /* As 3.1: options whose lengths do not add up, a mapped option
         * of another length, or an unmapped critical one. */
        trace_note(&ctx, "dropping packet with malformed Geneve options or "
                   "an unknown critical option");
        ctx.error = true;
    }
    /* The datapath packet is the decoded one from now on. */
    ctx.base.tunnel = ctx.flow.tunnel;
    ctx.base.tun_metadata = ctx.flow.tun_metadata;

    if (xin->n_packets && !xin->ofpacts && !ctx.flow.recirc_id
        && tnl_port_should_receive(&ctx.flow)) {
        /* The tunnels of a datapath port share its counters: each tunnel
         * port's own are counted here. */
        const struct ofport *in = ofproto_get_port(ctx.ofproto,
                                                   ctx.flow.in_port);
        if (in && tnl_port_is_tunnel(in)) {
            netdev_vport_count(in->netdev, true, xin->n_packets,
                               xin->n_bytes);
        }
    }
    if (ctx.flow.packet_type != htonl(PT_ETH) && !xin->ofpacts
        && !ctx.flow.recirc_id) {
        /* From an IP-only tunnel: the tables see an Ethernet frame with
         * zero addresses, which an output to an Ethernet port pushes. */
        const struct ofport *in = ofproto_get_port(ctx.ofproto,
                                                   ctx.flow.in_port);
        if (in && tnl_port_is_l3(in)
            && pt_ns(ctx.flow.packet_type) == PT_NS_ETHERTYPE) {
            ctx.flow.packet_type = htonl(PT_ETH);
            memset(&ctx.flow.dl_src, 0, sizeof ctx.flow.dl_src);
            memset(&ctx.flow.dl_dst, 0, sizeof ctx.flow.dl_dst);
        }
    }

    if (ctx.error) {
        /* Nothing to translate. */
    } else if (xin->flow.recirc_id && !xin->ofpacts) {
        WC_MASK_FIELD(ctx.wc, recirc_id);
        if (!thaw(&ctx, xin->flow.recirc_id)) {
            trace_note(&ctx, "no frozen translation for recirculation id "
                       "%#"PRIx32", dropping", xin->flow.recirc_id);
            ctx.error = true;
        }
    } else if (xin->ofpacts) {
        /* Packet-out: no rule, so table 0 and the "no cookie" cookie, as
         * 3.1 reports them in a packet-in. */
        ctx.table_id = 0;
        ctx.rule_cookie = OVS_BE64_MAX;
        ctx.in_packet_out = true;
        do_xlate_actions(&ctx, xin->ofpacts, xin->ofpacts_len);
        ctx.in_packet_out = false;
    } else if (tnl_wc_init(&ctx.flow, ctx.wc), xlate_port_protocols(&ctx)) {
        /* A protocol's control packet: consumed.  (Over a tunnel, the
         * megaflow matches the outer header too: tnl_wc_init().) */
    } else if (!tnl_process_ecn(&ctx.flow)) {
        /* Outer CE on a packet that is not ECN-capable: dropped, by an
         * explicit drop action that counts it (drop_action_congestion),
         * as 3.1 does. */
        trace_note(&ctx, "dropping tunnel packet marked ECN CE but is not "
                   "ECN capable");
        if (!ctx.odp->size) {
            odp_put_drop_action(ctx.odp, ODP_DROP_CONGESTION);
        }
    } else if (!xlate_input_state(&ctx)) {
        /* Its port neither forwards nor learns (a spanning tree state). */
    } else {
        /* OFPPC_NO_RECV_STP would drop STP frames only; control packets
         * were taken before. */
        ctx.no_recv = port_config_has(&ctx, ctx.flow.in_port,
                                      OFPUTIL_PC_NO_RECV);
        xlate_table(&ctx, OFPP_IN_PORT, 0, true);
        ctx.no_recv = false;
        const struct ofport *in = ofproto_get_port(ctx.ofproto,
                                                   ctx.flow.in_port);
        if (in && in->fwd_blocker) {
            /* A port that learns but does not forward: NORMAL and learn
             * actions saw the packet; nothing of it goes anywhere. */
            ofpbuf_clear(ctx.odp);
            ofpbuf_clear(&ctx.action_set);
            ctx.freezing = false;
            ofpbuf_clear(&ctx.frozen);
            odp_put_drop_action(ctx.odp, ODP_DROP_FORWARDING_DISABLED);
        }
    }
    /* The end of the pipeline: what write_actions collected runs now,
     * "exit" or not, unless the packet is frozen with it. */
    if (ctx.action_set.size && !ctx.error && !ctx.freezing) {
        ctx.exit = false;
        action_set_execute(&ctx);
    }
    if (ctx.freezing && !ctx.error) {
        finish_freezing(&ctx, true);
    }
    ofpbuf_uninit(&ctx.action_set);
    ofpbuf_uninit(&ctx.stack);
    ofpbuf_uninit(&ctx.frozen);
    if (ctx.error) {
        ofpbuf_clear(&xout->odp_actions);
        xout->slow = 0;
    }
    xlate_wc_finish(&ctx);
    /* (For a packet with raw Geneve options the wildcards stay about the
     * decoded tun_metadataN: xlate_wc_to_datapath() makes them raw.) */
    xout->final_flow = ctx.flow;
}

void
xlate_wc_to_datapath(const struct xlate_in *xin, struct flow_wildcards *wc)
{
    tun_md_wc_to_udpif(&xin->ofproto->tun_table, &xin->flow, wc);
}
