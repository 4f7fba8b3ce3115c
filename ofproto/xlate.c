/* xlate: see xlate.h. */
#include <config.h>
#include "xlate.h"

#include <linux/openvswitch.h>
#include <stdlib.h>
#include <string.h>
#include "bitmap.h"
#include "coverage.h"
#include "dynamic-string.h"
#include "mac-learning.h"
#include "netlink.h"
#include "ofproto-private.h"
#include "ofproto-text.h"
#include "util.h"

COVERAGE_DEFINE(xlate_actions);
COVERAGE_DEFINE(xlate_too_deep);

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
    bool error;                 /* Too deep: the whole result drops. */
};

static void do_xlate_actions(struct xlate_ctx *, const struct ofpact *,
                             size_t n);

static void
trace_indent(const struct xlate_ctx *ctx, struct ds *s, int extra)
{
    ds_put_char_multiple(s, ' ', ctx->depth * 4 + extra);
}

static void OVS_PRINTF_FORMAT(2, 3)
trace_note(const struct xlate_ctx *ctx, const char *format, ...)
{
    struct ds *s = ctx->xin->trace;
    if (!s) {
        return;
    }
    trace_indent(ctx, s, 1);
    ds_put_cstr(s, "-> ");
    va_list args;
    va_start(args, format);
    ds_put_format_valist(s, format, args);
    va_end(args);
    ds_put_char(s, '\n');
}

static const char *
port_name_of(void *ofproto_, uint16_t ofp_port)
{
    struct ofport *port = ofproto_get_port(ofproto_, ofp_port);
    return port ? port->name : NULL;
}

/* Making the datapath packet look like CTX->flow before an output. */

static void
commit_vlan(struct xlate_ctx *ctx)
{
    union flow_vlan_hdr *cur = &ctx->flow.vlans[0];
    union flow_vlan_hdr *base = &ctx->base.vlans[0];

    if (cur->qtag == base->qtag) {
        return;
    }
    if (flow_vlan_present(base)) {
        nl_msg_put_flag(ctx->odp, OVS_ACTION_ATTR_POP_VLAN);
    }
    if (flow_vlan_present(cur)) {
        struct ovs_action_push_vlan pv = {
            .vlan_tpid = cur->tpid,
            .vlan_tci = cur->tci,
        };
        nl_msg_put_unspec(ctx->odp, OVS_ACTION_ATTR_PUSH_VLAN, &pv,
                          sizeof pv);
    }
    *base = *cur;
}

static void
commit_eth(struct xlate_ctx *ctx)
{
    bool src = !eth_addr_equals(ctx->flow.dl_src, ctx->base.dl_src);
    bool dst = !eth_addr_equals(ctx->flow.dl_dst, ctx->base.dl_dst);
    if (!src && !dst) {
        return;
    }
    struct ovs_key_ethernet kv[2];
    memset(kv, 0, sizeof kv);
    memcpy(kv[0].eth_src, ctx->flow.dl_src.ea, ETH_ADDR_LEN);
    memcpy(kv[0].eth_dst, ctx->flow.dl_dst.ea, ETH_ADDR_LEN);
    if (src) {
        memset(kv[1].eth_src, 0xff, ETH_ADDR_LEN);
    }
    if (dst) {
        memset(kv[1].eth_dst, 0xff, ETH_ADDR_LEN);
    }
    size_t ofs = nl_msg_start_nested(ctx->odp, OVS_ACTION_ATTR_SET_MASKED);
    nl_msg_put_unspec(ctx->odp, OVS_KEY_ATTR_ETHERNET, kv, sizeof kv);
    nl_msg_end_nested(ctx->odp, ofs);
    ctx->base.dl_src = ctx->flow.dl_src;
    ctx->base.dl_dst = ctx->flow.dl_dst;
}

/* Outputs to PORT as the packet now is.  TRACE says whether to account
 * for it in the trace (NORMAL and flooding speak for themselves). */
static void
compose_output(struct xlate_ctx *ctx, const struct ofport *port)
{
    commit_vlan(ctx);
    commit_eth(ctx);
    nl_msg_put_u32(ctx->odp, OVS_ACTION_ATTR_OUTPUT, port->odp_port);
}

static void
output_to_ofp_port(struct xlate_ctx *ctx, uint16_t ofp_port,
                   bool allow_in_port)
{
    if (ofp_port == ctx->flow.in_port && !allow_in_port) {
        trace_note(ctx, "skipping output to input port");
        return;
    }
    const struct ofport *port = ofproto_get_port(ctx->ofproto, ofp_port);
    if (!port) {
        if (ctx->xin->trace) {
            trace_indent(ctx, ctx->xin->trace, 1);
            ds_put_cstr(ctx->xin->trace, ">> Nonexistent output port\n");
        }
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

/* FLOOD and ALL: every port but the input, in port number order. */
static void
flood_ports(struct xlate_ctx *ctx)
{
    size_t n = hmap_count(&ctx->ofproto->ports), i = 0;
    const struct ofport **ports = xmalloc(n * sizeof *ports);
    const struct ofport *port;
    HMAP_FOR_EACH (port, hmap_node, &ctx->ofproto->ports) {
        if (port->ofp_port != ctx->flow.in_port) {
            ports[i++] = port;
        }
    }
    qsort(ports, i, sizeof *ports, compare_ports);
    for (size_t j = 0; j < i; j++) {
        compose_output(ctx, ports[j]);
    }
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

static void
output_normal(struct xlate_ctx *ctx, const struct ofbundle *b, uint16_t vlan,
              uint8_t pcp)
{
    const struct ofport *port = bundle_pick_port(b);
    if (!port) {
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
    compose_output(ctx, port);
    ctx->flow.vlans[0] = saved;
}

static int
compare_bundles(const void *a_, const void *b_)
{
    const struct ofbundle *const *a = a_, *const *b = b_;
    const struct ofport *pa = bundle_pick_port(*a);
    const struct ofport *pb = bundle_pick_port(*b);
    return pa->ofp_port < pb->ofp_port ? -1 : pa->ofp_port > pb->ofp_port;
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
            && bundle_pick_port(b)) {
            bundles[i++] = b;
        }
    }
    qsort(bundles, i, sizeof *bundles, compare_bundles);
    for (size_t j = 0; j < i; j++) {
        output_normal(ctx, bundles[j], vlan, pcp);
    }
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

    /* Learn. */
    if (ctx->xin->may_learn && !eth_addr_is_multicast(flow->dl_src)) {
        if (mac_learning_learn(ctx->ofproto->ml, flow->dl_src, vlan,
                               (void *) in_bundle)) {
            trace_note(ctx, "learned that "ETH_ADDR_FMT" is on port %s in "
                       "VLAN %d", ETH_ADDR_ARGS(flow->dl_src),
                       bundle_name(in_bundle), vlan);
        }
    }

    /* Forward. */
    if (eth_addr_is_multicast(flow->dl_dst)) {
        trace_note(ctx, "multicast or broadcast destination, flooding");
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

/* Tables. */

static void
trace_rule(struct xlate_ctx *ctx, uint8_t table_id, const struct rule *rule)
{
    struct ds *s = ctx->xin->trace;
    if (!s) {
        return;
    }
    trace_indent(ctx, s, 1);
    ds_put_format(s, "%d. ", table_id);
    if (!rule) {
        ds_put_cstr(s, "No match.\n");
        trace_indent(ctx, s, 4);
        ds_put_cstr(s, "drop\n");
        return;
    }
    struct flow match;
    struct flow_wildcards wc;
    cls_rule_get_match(&rule->cr, &match, &wc);
    struct ofp_port_names names = { port_name_of, NULL, ctx->ofproto };
    size_t len = s->length;
    ofp_match_format(&match, &wc, -1, &names, s);
    if (s->length != len) {
        ds_put_cstr(s, ", ");
    }
    ds_put_format(s, "priority %d", rule->cr.priority);
    if (rule->cookie) {
        ds_put_format(s, ", cookie %#"PRIx64, rule->cookie);
    }
    ds_put_char(s, '\n');
}

static void
xlate_table(struct xlate_ctx *ctx, uint16_t in_port, uint8_t table_id)
{
    if (ctx->depth >= XLATE_MAX_RESUBMIT_DEPTH) {
        COVERAGE_INC(xlate_too_deep);
        trace_note(ctx, "over max translation depth %d, dropping",
                   XLATE_MAX_RESUBMIT_DEPTH);
        ctx->error = true;
        return;
    }
    if (table_id >= OFPROTO_N_TABLES) {
        return;
    }
    uint16_t saved_in_port = ctx->flow.in_port;
    if (in_port != OFPP_IN_PORT) {
        ctx->flow.in_port = in_port;
    }
    const struct cls_rule *cr = classifier_lookup(
        &ctx->ofproto->tables[table_id].cls, ctx->version, &ctx->flow,
        ctx->wc);
    struct rule *rule = cr ? CONTAINER_OF(cr, struct rule, cr) : NULL;
    trace_rule(ctx, table_id, rule);
    if (rule) {
        const struct xlate_in *xin = ctx->xin;
        if (xin->n_packets) {
            rule_credit_stats(rule, xin->n_packets, xin->n_bytes, xin->used);
        }
        const struct rule_actions *actions = ovsrcu_get(&rule->actions);
        uint8_t saved_table = ctx->table_id;
        ctx->table_id = table_id;
        ctx->depth++;
        do_xlate_actions(ctx, actions->ofpacts, actions->n);
        ctx->depth--;
        ctx->table_id = saved_table;
    }
    ctx->flow.in_port = saved_in_port;
}

static void
trace_action(const struct xlate_ctx *ctx, const struct ofpact *a)
{
    struct ds *s = ctx->xin->trace;
    if (s) {
        ds_put_char_multiple(s, ' ', MAX(ctx->depth, 1) * 4);
        ofpacts_format(a, 1, s);
        ds_put_char(s, '\n');
    }
}

static void
set_vlan_tag(struct xlate_ctx *ctx, uint16_t tpid)
{
    union flow_vlan_hdr *v = &ctx->flow.vlans[0];
    if (!flow_vlan_present(v)) {
        v->tpid = htons(tpid);
        v->tci = htons(VLAN_CFI);
    }
}

static void
do_xlate_actions(struct xlate_ctx *ctx, const struct ofpact *a, size_t n)
{
    for (size_t i = 0; i < n && !ctx->error; i++) {
        trace_action(ctx, &a[i]);
        union flow_vlan_hdr *v = &ctx->flow.vlans[0];
        switch (a[i].type) {
        case OFPACT_OUTPUT:
            switch (a[i].port) {
            case OFPP_IN_PORT:
                output_to_ofp_port(ctx, ctx->flow.in_port, true);
                break;
            case OFPP_NORMAL:
                xlate_normal(ctx);
                break;
            case OFPP_FLOOD:
            case OFPP_ALL:
                flood_ports(ctx);
                break;
            case OFPP_TABLE:
                xlate_table(ctx, OFPP_IN_PORT, 0);
                break;
            case OFPP_CONTROLLER:
                trace_note(ctx, "no controller connection, dropping");
                break;
            case OFPP_NONE:
                break;
            default:
                output_to_ofp_port(ctx, a[i].port, false);
                break;
            }
            break;
        case OFPACT_RESUBMIT:
            xlate_table(ctx, a[i].port,
                        a[i].table == 255 ? ctx->table_id : a[i].table);
            break;
        case OFPACT_SET_VLAN_VID:
            WC_MASK_FIELD(ctx->wc, vlans[0]);
            set_vlan_tag(ctx, ETH_TYPE_VLAN_8021Q);
            v->tci = htons((ntohs(v->tci) & ~VLAN_VID_MASK) | a[i].vid);
            break;
        case OFPACT_SET_VLAN_PCP:
            WC_MASK_FIELD(ctx->wc, vlans[0]);
            set_vlan_tag(ctx, ETH_TYPE_VLAN_8021Q);
            v->tci = htons((ntohs(v->tci) & ~VLAN_PCP_MASK)
                           | (a[i].pcp << VLAN_PCP_SHIFT));
            break;
        case OFPACT_STRIP_VLAN:
            WC_MASK_FIELD(ctx->wc, vlans[0]);
            v->qtag = 0;
            break;
        case OFPACT_PUSH_VLAN:
            WC_MASK_FIELD(ctx->wc, vlans[0]);
            /* One tag is what this datapath path commits; a push over an
             * existing tag re-tags it with the new TPID. */
            v->tpid = htons(a[i].tpid);
            v->tci |= htons(VLAN_CFI);
            break;
        case OFPACT_SET_ETH_SRC:
            WC_MASK_FIELD(ctx->wc, dl_src);
            ctx->flow.dl_src = a[i].mac;
            break;
        case OFPACT_SET_ETH_DST:
            WC_MASK_FIELD(ctx->wc, dl_dst);
            ctx->flow.dl_dst = a[i].mac;
            break;
        case OFPACT_DROP:
            return;
        }
    }
}

void
xlate_out_init(struct xlate_out *xout)
{
    flow_wildcards_init_catchall(&xout->wc);
    ofpbuf_use_stub(&xout->odp_actions, xout->odp_actions_stub,
                    sizeof xout->odp_actions_stub);
}

void
xlate_out_uninit(struct xlate_out *xout)
{
    ofpbuf_uninit(&xout->odp_actions);
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
    };
    WC_MASK_FIELD(ctx.wc, in_port);

    if (xin->ofpacts) {
        do_xlate_actions(&ctx, xin->ofpacts, xin->n_ofpacts);
    } else {
        xlate_table(&ctx, OFPP_IN_PORT, 0);
    }
    if (ctx.error) {
        ofpbuf_clear(&xout->odp_actions);
    }
    xout->final_flow = ctx.flow;
}
