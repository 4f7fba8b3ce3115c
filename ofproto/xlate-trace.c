/* xlate-trace: see xlate-trace.h. */
#include <config.h>
#include "xlate-trace.h"

#include <arpa/inet.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "dynamic-string.h"
#include "flow.h"
#include "match.h"
#include "mpls.h"
#include "openflow.h"
#include "packets.h"

void
xtrace_init(struct xtrace *t)
{
    ovs_list_init(&t->top);
    t->cur = &t->top;
}

static void
free_nodes(struct ovs_list *nodes)
{
    struct xtrace_node *n;
    LIST_FOR_EACH_POP (n, node, nodes) {
        free_nodes(&n->subs);
        free(n->text);
        free(n);
    }
}

void
xtrace_destroy(struct xtrace *t)
{
    if (t) {
        free_nodes(&t->top);
    }
}

struct xtrace_node *
xtrace_add(struct xtrace *t, enum xtrace_type type, const char *format, ...)
{
    struct xtrace_node *n = xmalloc(sizeof *n);
    n->type = type;
    va_list args;
    va_start(args, format);
    n->text = xvasprintf(format, args);
    va_end(args);
    ovs_list_init(&n->subs);
    ovs_list_push_back(t->cur, &n->node);
    return n;
}

struct ovs_list *
xtrace_enter(struct xtrace *t, struct xtrace_node *n)
{
    struct ovs_list *previous = t->cur;
    t->cur = &n->subs;
    return previous;
}

void
xtrace_leave(struct xtrace *t, struct ovs_list *previous)
{
    t->cur = previous;
}

/* Whether a node of TYPE never has children. */
static bool
is_leaf_type(enum xtrace_type type)
{
    return type != XTRACE_BRIDGE && type != XTRACE_TABLE;
}

static void
format_nodes(const struct ovs_list *nodes, int level, struct ds *s)
{
    const struct xtrace_node *n;
    LIST_FOR_EACH (n, node, nodes) {
        /* See xlate-trace.h for why the last container of a list does not
         * indent. */
        int step = n->node.next != nodes || is_leaf_type(n->type);
        int indent = (level + step) * 4;

        if (n->type == XTRACE_BRIDGE) {
            ds_put_char(s, '\n');
        }
        ds_put_char_multiple(s, ' ', indent);
        switch (n->type) {
        case XTRACE_BRIDGE:
            ds_put_format(s, "%s\n", n->text);
            ds_put_char_multiple(s, ' ', indent);
            ds_put_char_multiple(s, '-', strlen(n->text));
            ds_put_char(s, '\n');
            break;
        case XTRACE_TABLE:
        case XTRACE_ACTION:
            ds_put_format(s, "%s\n", n->text);
            break;
        case XTRACE_DETAIL:
            ds_put_format(s, " -> %s\n", n->text);
            break;
        case XTRACE_WARN:
            ds_put_format(s, " >> %s\n", n->text);
            break;
        case XTRACE_ERROR:
            ds_put_format(s, " >>>> %s <<<<\n", n->text);
            break;
        }
        format_nodes(&n->subs, level + 2 * step, s);
    }
}

void
xtrace_format(const struct xtrace *t, struct ds *s)
{
    format_nodes(&t->top, 0, s);
}

void
xtrace_flow_format(const struct flow *flow, struct ds *s)
{
    struct match match;
    match.flow = *flow;
    struct flow_wildcards *wc = &match.wc;
    flow_wildcards_init_catchall(wc);
    struct flow *m = &wc->masks;
    WC_MASK_FIELD(wc, in_port);
    m->vlans[0].tci = OVS_BE16_MAX;
    if (flow_vlan_present(&flow->vlans[0])) {
        m->vlans[1].tci = OVS_BE16_MAX;
    }
    WC_MASK_FIELD(wc, dl_src);
    WC_MASK_FIELD(wc, dl_dst);
    WC_MASK_FIELD(wc, dl_type);
    if (flow->metadata) {
        WC_MASK_FIELD(wc, metadata);
    }
    if (flow->recirc_id) {
        /* A recirculated packet (3.1 then also names its type, "eth"). */
        WC_MASK_FIELD(wc, recirc_id);
        WC_MASK_FIELD(wc, packet_type);
    }
    if (flow->tunnel.tun_id) {
        WC_MASK_FIELD(wc, tunnel.tun_id);
    }
    for (int i = 0; i < FLOW_N_REGS; i++) {
        if (flow->regs[i]) {
            m->regs[i] = UINT32_MAX;
        }
    }
    uint16_t dl_type = ntohs(flow->dl_type);
    if (dl_type == ETH_TYPE_ARP || dl_type == ETH_TYPE_RARP) {
        WC_MASK_FIELD(wc, nw_src);
        WC_MASK_FIELD(wc, nw_dst);
        WC_MASK_FIELD(wc, nw_proto);
        WC_MASK_FIELD(wc, arp_sha);
        WC_MASK_FIELD(wc, arp_tha);
    } else if (eth_type_mpls(flow->dl_type)) {
        memset(m->mpls_lse, 0xff,
               flow_mpls_depth(flow, NULL) * sizeof m->mpls_lse[0]);
    } else if (dl_type == ETH_TYPE_IP || dl_type == ETH_TYPE_IPV6) {
        if (dl_type == ETH_TYPE_IP) {
            WC_MASK_FIELD(wc, nw_src);
            WC_MASK_FIELD(wc, nw_dst);
        } else {
            WC_MASK_FIELD(wc, ipv6_src);
            WC_MASK_FIELD(wc, ipv6_dst);
        }
        WC_MASK_FIELD(wc, nw_proto);
        WC_MASK_FIELD(wc, nw_tos);
        WC_MASK_FIELD(wc, nw_ttl);
        /* nw_frag prints even when zero ("no"). */
        m->nw_frag = FLOW_NW_FRAG_MASK;
        if (!(flow->nw_frag & FLOW_NW_FRAG_LATER)
            && (flow->nw_proto == IPPROTO_TCP || flow->nw_proto == IPPROTO_UDP
                || flow->nw_proto == IPPROTO_SCTP
                || flow->nw_proto == IPPROTO_ICMP
                || flow->nw_proto == IPPROTO_ICMPV6)) {
            WC_MASK_FIELD(wc, tp_src);
            WC_MASK_FIELD(wc, tp_dst);
            if (flow->nw_proto == IPPROTO_TCP) {
                m->tcp_flags = htons(0x0fff);
            }
        }
    }
    const struct flow_tnl *t = &flow->tunnel;
    if (!t->ip_dst && ipv6_addr_is_zero(&t->ipv6_dst)) {
        match_format(&match, NULL, s, OFP_DEFAULT_PRIORITY);
        return;
    }

    /* A packet from a tunnel: 3.1 prints its whole outer header, zeros
     * included, after the protocol name (the first item, when it has no
     * '='), in this order and style. */
    struct ds rest = DS_EMPTY_INITIALIZER;
    m->tunnel.tun_id = 0;       /* Printed with the rest of the tunnel. */
    match_format(&match, NULL, &rest, OFP_DEFAULT_PRIORITY);
    const char *r = ds_cstr(&rest);
    size_t first = strcspn(r, ",");
    if (r[first] == ',' && !memchr(r, '=', first)) {
        ds_put_buffer(s, r, first + 1);
        r += first + 1;
    }
    if (t->tun_id) {
        ds_put_format(s, "tun_id=%#"PRIx64",", ntohll(t->tun_id));
    }
    char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];
    ds_put_format(s, "tun_src="IP_FMT",tun_dst="IP_FMT",tun_ipv6_src=%s,"
                  "tun_ipv6_dst=%s,tun_gbp_id=%"PRIu16",tun_gbp_flags=%"PRIu8
                  ",tun_tos=%"PRIu8",tun_ttl=%"PRIu8",tun_erspan_ver=%"PRIu8
                  ",gtpu_flags=%#"PRIx8",gtpu_msgtype=%"PRIu8",tun_flags=",
                  IP_ARGS(t->ip_src), IP_ARGS(t->ip_dst),
                  inet_ntop(AF_INET6, &t->ipv6_src, src, sizeof src),
                  inet_ntop(AF_INET6, &t->ipv6_dst, dst, sizeof dst),
                  ntohs(t->gbp_id), t->gbp_flags, t->ip_tos, t->ip_ttl,
                  t->erspan_ver, t->gtpu_flags, t->gtpu_msgtype);
    static const struct { uint16_t bit; const char *name; } flags[] = {
        { FLOW_TNL_F_DONT_FRAGMENT, "df" }, { FLOW_TNL_F_CSUM, "csum" },
        { FLOW_TNL_F_KEY, "key" }, { FLOW_TNL_F_OAM, "oam" },
    };
    bool any = false;
    for (size_t i = 0; i < ARRAY_SIZE(flags); i++) {
        if (t->flags & flags[i].bit) {
            ds_put_format(s, "%s%s", any ? "|" : "", flags[i].name);
            any = true;
        }
    }
    ds_put_format(s, "%s,%s", any ? "" : "0", r);
    ds_destroy(&rest);
}
