/* ofproto-unixctl: ofproto's ovs-appctl commands, in Open vSwitch's
 * syntax and output format:
 *
 *   ofproto/trace BRIDGE FLOW [PACKET]     FLOW in OpenFlow syntax
 *   ofproto/trace [DP] ODP_FLOW [PACKET]   FLOW in datapath syntax
 *       (PACKET: hex bytes; the flow is then extracted from it, with the
 *       in_port FLOW gives)
 *   fdb/show BRIDGE, fdb/flush [BRIDGE], fdb/stats-show BRIDGE
 *   dpif/show, dpif/dump-flows [-m] BRIDGE
 *   bridge/dump-flows BRIDGE
 *   upcall/show, revalidator/wait, revalidator/purge
 *
 * Main thread only. */
#include <config.h>

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "dp-packet.h"
#include "dpctl.h"
#include "dpif.h"
#include "dynamic-string.h"
#include "flow-extract.h"
#include "mac-learning.h"
#include "netdev.h"
#include "odp-util.h"
#include "ofpbuf.h"
#include "ofproto-private.h"
#include "match.h"
#include "ofp-actions.h"
#include "ofp-flow.h"
#include "ofp-parse.h"
#include "ofp-port.h"
#include "shash.h"
#include "timeval.h"
#include "tun-metadata.h"
#include "tunnel.h"
#include "unixctl.h"
#include "upcall.h"
#include "util.h"
#include "xlate.h"
#include "mpls.h"
#include "xlate-trace.h"

static struct ofproto *
find_bridge(struct unixctl_conn *conn, const char *name)
{
    struct ofproto *ofproto = ofproto_lookup(name);
    if (!ofproto) {
        unixctl_command_reply_error(conn, "no such bridge");
    }
    return ofproto;
}

/* OpenFlow port names of one bridge, for parsing a trace's flow. */
static void
port_map_init(const struct ofproto *ofproto, struct ofputil_port_map *map)
{
    ofputil_port_map_init(map);
    const struct ofport *port;
    HMAP_FOR_EACH (port, hmap_node, &ofproto->ports) {
        ofputil_port_map_put(map, port->ofp_port, port->name);
    }
}

/* Datapath port names of the backer. */
static const char *
odp_name_of(void *backer, uint32_t odp_port)
{
    return backer_port_name(backer, odp_port);
}

static bool
odp_number_of(void *backer_, const char *name, uint32_t *odp_port)
{
    const struct dpif_backer *backer = backer_;
    const struct ofport *port;
    HMAP_FOR_EACH (port, odp_node, &backer->odp_to_ofport) {
        if (!strcmp(port->name, name)) {
            *odp_port = port->odp_port;
            return true;
        }
    }
    return false;
}

/* ofproto/trace. */

static char *
parse_packet(const char *hex, struct dp_packet **packetp)
{
    struct ofpbuf buf;
    ofpbuf_init(&buf, 0);
    size_t n;
    char *error = NULL;
    if (ofpbuf_put_hex(&buf, hex, &n)[0] != '\0' || buf.size < 14) {
        error = xstrdup("trace: packet is not hex bytes of an Ethernet "
                        "frame");
    } else {
        *packetp = dp_packet_clone_data(buf.data, buf.size);
    }
    ofpbuf_uninit(&buf);
    return error;
}

/* Fills *OFPROTOP and *FLOW (in_port an OpenFlow port) from the trace
 * arguments. */
static char *
parse_trace_args(int argc, const char *argv[], struct ofproto **ofprotop,
                 struct flow *flow)
{
    struct ofproto *ofproto = argc >= 3 ? ofproto_lookup(argv[1]) : NULL;
    const char *flow_s, *packet_s = NULL;
    struct flow_wildcards wc;
    char *error;

    if (ofproto) {
        flow_s = argv[2];
        packet_s = argc > 3 ? argv[3] : NULL;
    } else {
        /* [DP] ODP_FLOW [PACKET]: the flow is the one with "(". */
        int i = 1;
        if (argc > 2 && !strchr(argv[1], '(')) {
            i = 2;
        }
        flow_s = argv[i];
        packet_s = argc > i + 1 ? argv[i + 1] : NULL;
        if (!strchr(flow_s, '(')) {
            return xasprintf("%s: no such bridge", argv[1]);
        }
    }

    if (strchr(flow_s, '(')) {
        struct dpif_backer *backer = ofproto ? ofproto->backer
                                             : ofproto_first_backer();
        if (!backer) {
            return xstrdup("no datapath");
        }
        struct odp_port_names names = { odp_name_of, odp_number_of, backer };
        error = odp_flow_from_string(flow_s, &names, flow, &wc);
        if (error) {
            return error;
        }
        /* The key as written: 3.1 traces the key and drops the masks. */
        bool tunnelled = tnl_port_should_receive(flow);
        const struct ofport *port = backer_flow_to_ofport(backer, flow);
        if (!port && tunnelled) {
            return xstrdup("no OpenFlow tunnel port for this packet");
        } else if (!port) {
            return xasprintf("no OpenFlow port for datapath port %"PRIu32,
                             flow->in_port);
        }
        if (ofproto && port->ofproto != ofproto) {
            return xasprintf("datapath port %"PRIu32" is not on bridge %s",
                             flow->in_port, ofproto->name);
        }
        ofproto = port->ofproto;
        flow->in_port = port->ofp_port;
    } else {
        /* A flow in ovs-ofctl's syntax. */
        struct ofputil_port_map map;
        port_map_init(ofproto, &map);
        struct match match;
        error = parse_ofp_match_str(&match, flow_s, &map);
        ofputil_port_map_destroy(&map);
        if (error) {
            return error;
        }
        /* tun_metadataN where the bridge's TLV map puts them. */
        enum ofperr remap_error = ofproto_tlv_check_match(ofproto, &match);
        if (remap_error) {
            return xasprintf("%s", ofperr_to_string(remap_error));
        }
        flow_apply_mask(flow, &match.flow, &match.wc);
    }

    if (packet_s) {
        struct dp_packet *packet = NULL;
        error = parse_packet(packet_s, &packet);
        if (error) {
            return error;
        }
        uint32_t in_port = flow->in_port;
        flow_extract(packet, flow);
        flow->in_port = in_port;
        dp_packet_delete(packet);
    }
    *ofprotop = ofproto;
    return NULL;
}

/* ofproto/trace ... -generate: makes a packet of FLOW and runs it
 * through the bridge with side effects, as 3.1 does: MAC learning, learn
 * actions, packet-ins, and the packet goes out of the ports the actions
 * say. */
static void
trace_execute(struct ofproto *ofproto, const struct flow *flow,
              const struct xlate_out *xout, size_t l7_len)
{
    const struct ofport *port = ofproto_get_port(ofproto, flow->in_port);
    struct dp_packet *packet = dp_packet_new(128);
    flow_compose(packet, flow, l7_len);
    packet->md.in_port = port ? port->odp_port : DPIF_PORT_LOCAL;
    struct dp_packet_batch batch;
    dp_packet_batch_init_packet(&batch, packet);
    dpif_execute(ofproto->backer->dpif, &batch, xout->odp_actions.data,
                 xout->odp_actions.size);
    dp_packet_delete(packet);
}

/* The most --ct-next options one trace takes. */
#define TRACE_MAX_CT_NEXT 16

struct trace_options {
    bool generate;
    long l7_len;                /* -1: the default. */
    uint32_t ct_next[TRACE_MAX_CT_NEXT];    /* ct_state of each tracked */
    size_t n_ct_next;                       /* copy followed, in order. */
};

/* --ct-next's argument: ct_state flags separated by commas ("trk,est")
 * or as a match writes them ("trk|est", "+trk+est"). */
static char *
trace_parse_ct_state(const char *arg, uint32_t *ct_state)
{
    char *s = xstrdup(arg);
    for (char *p = s; *p; p++) {
        if (*p == ',') {
            *p = '|';
        }
    }
    union mf_value value, mask;
    char *error = mf_parse(mf_from_id(MFF_CT_STATE), s, NULL, &value,
                           &mask);
    free(s);
    if (!error) {
        *ct_state = ntohl(value.be32 & mask.be32);
    }
    return error;
}

/* ofproto/trace's options, anywhere after the command: "-generate" (or
 * "--generate") runs the packet through the datapath too; "--l7-len N"
 * gives the packet it generates N bytes of payload (at most 64,000);
 * "--ct-next FLAGS" gives the ct_state of the next tracked copy of the
 * packet the trace follows (trk|new for those without one).  Fills ARGS
 * with the rest (at most MAX) and returns NULL, or an error in 3.1's
 * words. */
static char *
trace_parse_options(int argc, const char *argv[], const char **args,
                    int max, int *n_argsp, struct trace_options *opts)
{
    int n_args = 0;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (!i) {
            args[n_args++] = arg;
        } else if (!strcmp(arg, "-generate") || !strcmp(arg, "--generate")) {
            opts->generate = true;
        } else if (!strcmp(arg, "--ct-next")) {
            if (i + 1 >= argc) {
                return xasprintf("Missing argument for option %s", arg);
            }
            if (opts->n_ct_next >= TRACE_MAX_CT_NEXT) {
                return xasprintf("%s: at most %d", arg, TRACE_MAX_CT_NEXT);
            }
            char *error = trace_parse_ct_state(
                argv[++i], &opts->ct_next[opts->n_ct_next]);
            if (error) {
                return error;
            }
            opts->n_ct_next++;
        } else if (!strcmp(arg, "--l7-len")) {
            if (i + 1 >= argc) {
                return xasprintf("Missing argument for option %s", arg);
            }
            opts->l7_len = atol(argv[++i]);
            if (opts->l7_len < 0 || opts->l7_len > 64000) {
                return xasprintf("%s: too much L7 data", argv[i]);
            }
        } else if (!strcmp(arg, "--l7") || !strcmp(arg, "-consistent")
                   || !strcmp(arg, "--consistent")
                   || !strcmp(arg, "-names") || !strcmp(arg, "--names")) {
            return xasprintf("%s: not supported by this switch yet", arg);
        } else if (arg[0] == '-' && arg[1] == '-') {
            return xasprintf("%s: unknown option", arg);
        } else if (n_args >= max) {
            return xstrdup("too many arguments");
        } else {
            args[n_args++] = arg;
        }
    }
    *n_argsp = n_args;
    return NULL;
}

/* Translates FLOW in OFPROTO and appends to OUT what 3.1's trace prints
 * for one pass: the flow, the tree of tables and actions, the final flow,
 * the megaflow and the datapath actions.  The tracked copies the actions
 * send back through the datapath are appended to CT_RECIRCS. */
static void
trace_one(struct ofproto *ofproto, const struct flow *flow,
          const struct trace_options *opts, struct ovs_list *ct_recircs,
          struct ds *out)
{
    ds_put_cstr(out, "Flow: ");
    flow_format(flow, out);
    ds_put_char(out, '\n');

    struct xtrace trace;
    xtrace_init(&trace);
    xtrace_enter(&trace, xtrace_add(&trace, XTRACE_BRIDGE, "bridge(\"%s\")",
                                    ofproto->name));
    struct xlate_in xin = {
        .ofproto = ofproto,
        .flow = *flow,
        .may_learn = opts->generate,
        .trace = &trace,
        .ct_recircs = ct_recircs,
    };
    struct xlate_out xout;
    xlate_out_init(&xout);
    xlate_actions(&xin, &xout);
    WC_MASK_FIELD(&xout.wc, in_port);
    xtrace_format(&trace, out);
    xtrace_destroy(&trace);

    ds_put_cstr(out, "\nFinal flow: ");
    if (flow_equal(flow, &xout.final_flow)) {
        ds_put_cstr(out, "unchanged");
    } else {
        flow_format(&xout.final_flow, out);
    }
    ds_put_cstr(out, "\nMegaflow: ");
    /* The megaflow as translation saw it: with a packet's raw Geneve
     * options decoded through the TLV map (the datapath flow matches
     * them raw, xlate_wc_to_datapath()). */
    struct flow decoded = *flow;
    if (tun_md_from_geneve_udpif(&ofproto->tun_table, &decoded)) {
        decoded = *flow;
    }
    struct match megaflow;
    match_init_catchall(&megaflow);
    flow_apply_mask(&megaflow.flow, &decoded, &xout.wc);
    megaflow.wc = xout.wc;
    tun_md_layout_from_table(&megaflow, &ofproto->tun_table);
    match_format(&megaflow, NULL, out, OFP_DEFAULT_PRIORITY);
    ds_put_cstr(out, "\nDatapath actions: ");
    struct odp_port_names odp_names = { NULL, NULL, NULL };
    odp_actions_format(xout.odp_actions.data, xout.odp_actions.size,
                       &odp_names, out);
    ds_put_char(out, '\n');
    if (xout.slow) {
        ds_put_cstr(out, "This flow is handled by the userspace slow path "
                    "because it:\n");
        for (uint32_t bits = xout.slow; bits; bits &= bits - 1) {
            const char *why = slow_path_reason_explain(bits & -bits);
            ds_put_format(out, "  - %s.\n", why ? why : "?");
        }
    }
    if (opts->generate) {
        trace_execute(ofproto, flow, &xout,
                      opts->l7_len >= 0 ? opts->l7_len
                      : flow_compose_default_l7_len(flow));
    }
    xlate_out_uninit(&xout);
}

/* The addresses and ports a NAT trace shows, as 3.1 prints them. */
static void
trace_put_ip_flow(const struct flow *flow, int af, struct ds *out)
{
    if (af == AF_INET) {
        ds_put_format(out, "nw_src="IP_FMT",tp_src=%"PRIu16","
                      "nw_dst="IP_FMT",tp_dst=%"PRIu16,
                      IP_ARGS(flow->nw_src), ntohs(flow->tp_src),
                      IP_ARGS(flow->nw_dst), ntohs(flow->tp_dst));
    } else if (af == AF_INET6) {
        char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];
        inet_ntop(AF_INET6, &flow->ipv6_src, src, sizeof src);
        inet_ntop(AF_INET6, &flow->ipv6_dst, dst, sizeof dst);
        ds_put_format(out, "ipv6_src=[%s],tp_src=%"PRIu16
                      ",ipv6_dst=[%s],tp_dst=%"PRIu16,
                      src, ntohs(flow->tp_src), dst, ntohs(flow->tp_dst));
    }
    ds_put_char(out, '\n');
}

/* The banner before a tracked copy of the packet is followed: its
 * recirculation id and the ct_state the trace gives it (the next
 * --ct-next, else trk|new), and for a NAT the addresses it assumes (the
 * low end of the range).  Updates R's flow accordingly. */
static void
trace_put_ct_recirc(struct xlate_ct_recirc *r,
                    const struct trace_options *opts, size_t *next_ct,
                    struct ds *out)
{
    ds_put_cstr(out, "\n\n");
    ds_put_char_multiple(out, '=', 79);
    ds_put_format(out, "\nrecirc(%#"PRIx32")", r->recirc_id);
    if (*next_ct < opts->n_ct_next) {
        r->flow.ct_state = opts->ct_next[(*next_ct)++];
        ds_put_cstr(out, " - resume conntrack with ct_state=");
        mf_format_flags_masked(out, mf_ct_state_name, r->flow.ct_state,
                               UINT32_MAX, UINT32_MAX);
    } else {
        r->flow.ct_state = CS_TRACKED | CS_NEW;
        ds_put_cstr(out, " - resume conntrack with default "
                    "ct_state=trk|new (use --ct-next to customize)");
    }
    ds_put_char(out, '\n');
    if (r->has_nat) {
        const struct ofpact_nat *nat = &r->nat;
        struct flow *f = &r->flow;
        ds_put_cstr(out, "Replacing src/dst IP/ports to simulate NAT:\n");
        ds_put_cstr(out, " Initial flow: ");
        trace_put_ip_flow(f, nat->range_af, out);
        if (nat->flags & (NX_NAT_F_SRC | NX_NAT_F_DST)) {
            bool src = nat->flags & NX_NAT_F_SRC;
            if (nat->range_af == AF_INET) {
                *(src ? &f->nw_src : &f->nw_dst) = nat->range_addr.ipv4.min;
            } else if (nat->range_af == AF_INET6) {
                *(src ? &f->ipv6_src : &f->ipv6_dst)
                    = nat->range_addr.ipv6.min;
            }
            if (nat->range_af != AF_UNSPEC && nat->proto_min) {
                *(src ? &f->tp_src : &f->tp_dst) = htons(nat->proto_min);
            }
        }
        ds_put_cstr(out, " Modified flow: ");
        trace_put_ip_flow(f, nat->range_af, out);
    }
    ds_put_char_multiple(out, '=', 79);
    ds_put_cstr(out, "\n\n");
}

static void
trace_cmd(struct unixctl_conn *conn, int argc, const char *argv[],
          void *aux OVS_UNUSED)
{
    const char *args[4];
    int n_args = 0;
    struct trace_options opts = { .l7_len = -1 };
    char *opt_error = trace_parse_options(argc, argv, args, ARRAY_SIZE(args),
                                          &n_args, &opts);
    if (opt_error) {
        unixctl_command_reply_error(conn, opt_error);
        free(opt_error);
        return;
    }
    if (n_args < 2) {
        unixctl_command_reply_error(conn, "trace: a flow is required");
        return;
    }

    struct ofproto *ofproto = NULL;
    struct flow flow;
    char *error = parse_trace_args(n_args, args, &ofproto, &flow);
    if (error) {
        unixctl_command_reply_error(conn, error);
        free(error);
        return;
    }

    /* Each tracked copy of the packet that ct(table=N) sends back is
     * followed in turn, as the datapath would run it. */
    struct ds out = DS_EMPTY_INITIALIZER;
    struct ovs_list ct_recircs = OVS_LIST_INITIALIZER(&ct_recircs);
    size_t next_ct = 0;
    ovs_rwlock_rdlock(&xlate_rwlock);
    trace_one(ofproto, &flow, &opts, &ct_recircs, &out);
    struct xlate_ct_recirc *r;
    LIST_FOR_EACH_POP (r, node, &ct_recircs) {
        trace_put_ct_recirc(r, &opts, &next_ct, &out);
        trace_one(ofproto, &r->flow, &opts, &ct_recircs, &out);
        xlate_ct_recirc_destroy(r);
    }
    ovs_rwlock_unlock(&xlate_rwlock);

    unixctl_command_reply(conn, ds_cstr(&out));
    ds_destroy(&out);
}

/* fdb/... */

static const char *
bundle_port_name(void *aux OVS_UNUSED, void *bundle_)
{
    static char buf[16];
    const struct ofbundle *bundle = bundle_;
    if (ovs_list_is_empty(&bundle->ports)) {
        return "?";
    }
    const struct ofport *port = CONTAINER_OF(ovs_list_front(&bundle->ports),
                                             struct ofport, bundle_node);
    if (port->ofp_port == OFPP_LOCAL) {
        return "LOCAL";
    }
    snprintf(buf, sizeof buf, "%"PRIu16, port->ofp_port);
    return buf;
}

static void
fdb_show_cmd(struct unixctl_conn *conn, int argc OVS_UNUSED,
             const char *argv[], void *aux OVS_UNUSED)
{
    struct ofproto *ofproto = find_bridge(conn, argv[1]);
    if (!ofproto) {
        return;
    }
    struct ds out = DS_EMPTY_INITIALIZER;
    ds_put_cstr(&out, " port  VLAN  MAC                Age\n");
    ovs_rwlock_rdlock(&xlate_rwlock);
    mac_learning_format(ofproto->ml, &out, bundle_port_name, NULL);
    ovs_rwlock_unlock(&xlate_rwlock);
    unixctl_command_reply(conn, ds_cstr(&out));
    ds_destroy(&out);
}

static void
fdb_flush_cmd(struct unixctl_conn *conn, int argc, const char *argv[],
              void *aux OVS_UNUSED)
{
    if (argc > 1) {
        struct ofproto *ofproto = find_bridge(conn, argv[1]);
        if (!ofproto) {
            return;
        }
        mac_learning_flush(ofproto->ml);
    } else {
        struct ofproto *ofproto;
        HMAP_FOR_EACH (ofproto, hmap_node, &all_ofprotos) {
            mac_learning_flush(ofproto->ml);
        }
    }
    unixctl_command_reply(conn, "table successfully flushed");
}

static void
fdb_stats_show_cmd(struct unixctl_conn *conn, int argc OVS_UNUSED,
                   const char *argv[], void *aux OVS_UNUSED)
{
    struct ofproto *ofproto = find_bridge(conn, argv[1]);
    if (!ofproto) {
        return;
    }
    struct mac_learning_stats stats;
    mac_learning_get_stats(ofproto->ml, &stats);
    struct ds out = DS_EMPTY_INITIALIZER;
    ds_put_format(&out, "Statistics for bridge \"%s\":\n", ofproto->name);
    ds_put_format(&out, "  Current/maximum MAC entries in the table: "
                  "%zu/%zu\n", mac_learning_count(ofproto->ml),
                  mac_learning_get_max_entries(ofproto->ml));
    ds_put_format(&out, "  Total number of learned MAC entries     : "
                  "%"PRIu64"\n", stats.n_learned);
    ds_put_format(&out, "  Total number of expired MAC entries     : "
                  "%"PRIu64"\n", stats.n_expired);
    ds_put_format(&out, "  Total number of evicted MAC entries     : "
                  "%"PRIu64"\n", stats.n_evicted);
    ds_put_format(&out, "  Total number of port moved MAC entries  : "
                  "%"PRIu64"\n", stats.n_moved);
    unixctl_command_reply(conn, ds_cstr(&out));
    ds_destroy(&out);
}

/* dpif/... */

static int
compare_ofprotos(const void *a_, const void *b_)
{
    const struct ofproto *const *a = a_, *const *b = b_;
    return strcmp((*a)->name, (*b)->name);
}

static int
compare_ports_by_name(const void *a_, const void *b_)
{
    const struct ofport *const *a = a_, *const *b = b_;
    return strcmp((*a)->name, (*b)->name);
}

static void
dpif_show_cmd(struct unixctl_conn *conn, int argc OVS_UNUSED,
              const char *argv[] OVS_UNUSED, void *aux OVS_UNUSED)
{
    struct ds out = DS_EMPTY_INITIALIZER;
    struct dpif_backer *backer = ofproto_first_backer();
    if (backer) {
        struct dpif_dp_stats stats;
        memset(&stats, 0, sizeof stats);
        dpif_get_dp_stats(backer->dpif, &stats);
        ds_put_format(&out, "%s: hit:%"PRIu64" missed:%"PRIu64"\n",
                      dpif_base_name(backer->dpif), stats.n_hit,
                      stats.n_missed);

        size_t n = hmap_count(&all_ofprotos), i = 0;
        const struct ofproto **ofprotos = xmalloc(n * sizeof *ofprotos);
        const struct ofproto *ofproto;
        HMAP_FOR_EACH (ofproto, hmap_node, &all_ofprotos) {
            ofprotos[i++] = ofproto;
        }
        qsort(ofprotos, n, sizeof *ofprotos, compare_ofprotos);
        for (i = 0; i < n; i++) {
            ofproto = ofprotos[i];
            ds_put_format(&out, "  %s:\n", ofproto->name);
            size_t np = hmap_count(&ofproto->ports), j = 0;
            const struct ofport **ports = xmalloc((np + 1) * sizeof *ports);
            const struct ofport *port;
            HMAP_FOR_EACH (port, hmap_node, &ofproto->ports) {
                ports[j++] = port;
            }
            qsort(ports, np, sizeof *ports, compare_ports_by_name);
            for (j = 0; j < np; j++) {
                port = ports[j];
                if (port->is_patch) {
                    /* No datapath port; 3.1 shows the configured peer. */
                    ds_put_format(&out, "    %s %"PRIu16"/none: (patch: "
                                  "peer=%s)\n", port->name, port->ofp_port,
                                  port->patch_peer ? port->patch_peer : "");
                    continue;
                }
                ds_put_format(&out, "    %s %"PRIu16"/%"PRIu32": (",
                              port->name, port->ofp_port, port->odp_port);
                if (port->tnl) {
                    tnl_port_format(port, &out);
                } else {
                    ds_put_cstr(&out, port->netdev
                                ? netdev_get_type(port->netdev) : "?");
                }
                ds_put_cstr(&out, ")\n");
            }
            free(ports);
        }
        free(ofprotos);
    }
    unixctl_command_reply(conn, ds_cstr(&out));
    ds_destroy(&out);
}

static void
dpif_dump_flows_cmd(struct unixctl_conn *conn, int argc, const char *argv[],
                    void *aux OVS_UNUSED)
{
    bool verbose = false;
    const char *bridge = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-m") || !strcmp(argv[i], "--more")) {
            verbose = true;
        } else {
            bridge = argv[i];
        }
    }
    if (!bridge) {
        unixctl_command_reply_error(conn, "bridge name required");
        return;
    }
    struct ofproto *ofproto = find_bridge(conn, bridge);
    if (!ofproto) {
        return;
    }

    struct dpif *dpif = ofproto->backer->dpif;
    struct odp_port_names names = { NULL, NULL, NULL };
    struct ds out = DS_EMPTY_INITIALIZER;
    struct dpif_flow_dump *dump = dpif_flow_dump_create(dpif);
    dpif_flow_dump_set_given_keys(dump);
    struct dpif_flow_dump_thread *thread = dpif_flow_dump_thread_create(dump);
    struct dpif_flow flows[50];
    int n;
    while ((n = dpif_flow_dump_next(thread, flows, ARRAY_SIZE(flows))) > 0) {
        for (int i = 0; i < n; i++) {
            /* A tunnel's flows belong to the bridge of the tunnel port
             * their outer header names (the datapath port is shared). */
            const struct ofport *port = backer_flow_to_ofport(
                ofproto->backer, &flows[i].key);
            if (port && port->ofproto == ofproto) {
                dpctl_format_dpif_flow(&out, &flows[i], &names, verbose);
                ds_put_char(&out, '\n');
            }
        }
    }
    dpif_flow_dump_thread_destroy(thread);
    dpif_flow_dump_destroy(dump);
    unixctl_command_reply(conn, ds_cstr(&out));
    ds_destroy(&out);
}

static void
bridge_dump_flows_cmd(struct unixctl_conn *conn, int argc OVS_UNUSED,
                      const char *argv[], void *aux OVS_UNUSED)
{
    struct ofproto *ofproto = find_bridge(conn, argv[1]);
    if (!ofproto) {
        return;
    }
    struct ofproto_rule_info *infos;
    size_t n;
    ofproto_dump_rules(ofproto, &infos, &n);
    long long int now = time_msec();
    struct ds out = DS_EMPTY_INITIALIZER;
    for (size_t i = 0; i < n; i++) {
        const struct ofproto_rule_info *r = &infos[i];
        /* 3.1's order: the table first (when not 0). */
        if (r->table_id) {
            ds_put_format(&out, "table_id=%d, ", r->table_id);
        }
        ds_put_format(&out, "duration=%llds, n_packets=%"PRIu64", "
                      "n_bytes=%"PRIu64", ", (now - r->created) / 1000,
                      r->n_packets, r->n_bytes);
        size_t len = out.length;
        match_format(&r->match, NULL, &out, r->priority);
        if (out.length != len) {
            ds_put_char(&out, ',');
        }
        ds_put_cstr(&out, "actions=");
        ofpact_list_format(r->ofpacts, r->ofpacts_len, NULL, NULL, &out);
        ds_put_char(&out, '\n');
    }
    ofproto_rule_infos_free(infos, n);
    unixctl_command_reply(conn, ds_cstr(&out));
    ds_destroy(&out);
}

/* upcall/..., revalidator/... */

static void
upcall_show_cmd(struct unixctl_conn *conn, int argc OVS_UNUSED,
                const char *argv[] OVS_UNUSED, void *aux OVS_UNUSED)
{
    struct ds out = DS_EMPTY_INITIALIZER;
    struct dpif_backer *backer = ofproto_first_backer();
    if (backer) {
        udpif_format(backer->udpif, &out);
    }
    unixctl_command_reply(conn, ds_cstr(&out));
    ds_destroy(&out);
}

static void
revalidator_wait_cmd(struct unixctl_conn *conn, int argc OVS_UNUSED,
                     const char *argv[] OVS_UNUSED, void *aux OVS_UNUSED)
{
    struct dpif_backer *backer = ofproto_first_backer();
    if (backer) {
        udpif_wait_for_revalidation(backer->udpif, conn);
    } else {
        unixctl_command_reply(conn, NULL);
    }
}

static void
revalidator_purge_cmd(struct unixctl_conn *conn, int argc OVS_UNUSED,
                      const char *argv[] OVS_UNUSED, void *aux OVS_UNUSED)
{
    struct dpif_backer *backer = ofproto_first_backer();
    if (backer) {
        udpif_purge(backer->udpif, conn);
    } else {
        unixctl_command_reply(conn, NULL);
    }
}

/* upcall/enable-megaflows, upcall/disable-megaflows: 3.1 purges the
 * datapath flows, which were made the other way. */
static void
upcall_megaflows_cmd(struct unixctl_conn *conn, int argc OVS_UNUSED,
                     const char *argv[] OVS_UNUSED, void *enable_)
{
    bool enable = enable_ != NULL;
    udpif_set_megaflows(enable);
    struct dpif_backer *backer = ofproto_first_backer();
    if (backer) {
        udpif_purge(backer->udpif, NULL);
    }
    unixctl_command_reply(conn, enable ? "megaflows enabled"
                                       : "megaflows disabled");
}

/* upcall/enable-ufid, upcall/disable-ufid: this datapath names flows by
 * their key, never by a UFID, so there is nothing to switch; the replies
 * are 3.1's. */
static void
upcall_ufid_cmd(struct unixctl_conn *conn, int argc OVS_UNUSED,
                const char *argv[] OVS_UNUSED, void *enable)
{
    unixctl_command_reply(conn, enable
                          ? "Datapath dumping tersely using UFID enabled"
                          : "Datapath dumping tersely using UFID disabled");
}

void
ofproto_unixctl_init(void)
{
    unixctl_command_register(
        "ofproto/trace",
        "{[dp_name] odp_flow | bridge br_flow} [OPTIONS...] "
        "[-generate|packet]", 1, INT_MAX,
        trace_cmd, NULL);
    unixctl_command_register("fdb/show", "bridge", 1, 1, fdb_show_cmd,
                             NULL);
    unixctl_command_register("fdb/flush", "[bridge]", 0, 1, fdb_flush_cmd,
                             NULL);
    unixctl_command_register("fdb/stats-show", "bridge", 1, 1,
                             fdb_stats_show_cmd, NULL);
    unixctl_command_register("dpif/show", "", 0, 0, dpif_show_cmd, NULL);
    tnl_unixctl_register();
    unixctl_command_register("dpif/dump-flows", "[-m] bridge", 1, 2,
                             dpif_dump_flows_cmd, NULL);
    unixctl_command_register("bridge/dump-flows", "bridge", 1, 1,
                             bridge_dump_flows_cmd, NULL);
    unixctl_command_register("upcall/show", "", 0, 0, upcall_show_cmd,
                             NULL);
    static int enable = 1;
    unixctl_command_register("upcall/enable-megaflows", "", 0, 0,
                             upcall_megaflows_cmd, &enable);
    unixctl_command_register("upcall/disable-megaflows", "", 0, 0,
                             upcall_megaflows_cmd, NULL);
    unixctl_command_register("upcall/enable-ufid", "", 0, 0,
                             upcall_ufid_cmd, &enable);
    unixctl_command_register("upcall/disable-ufid", "", 0, 0,
                             upcall_ufid_cmd, NULL);
    unixctl_command_register("revalidator/wait", "", 0, 0,
                             revalidator_wait_cmd, NULL);
    unixctl_command_register("revalidator/purge", "", 0, 0,
                             revalidator_purge_cmd, NULL);
}
