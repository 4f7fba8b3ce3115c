#include <config.h>
#include "dpctl.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "conntrack.h"
#include "ct-dpif.h"
#include "ct-format.h"
#include "dp-epoch.h"
#include "dpif.h"
#include "dynamic-string.h"
#include "ipf.h"
#include "netdev.h"
#include "odp-util.h"
#include "ofp-ct.h"
#include "ofpbuf.h"
#include "smap.h"
#include "sset.h"
#include "text-parse.h"
#include "timeval.h"
#include "unixctl.h"
#include "util.h"

/* Options that come before a command's arguments. */
struct dpctl_opts {
    bool statistics;            /* -s, --statistics */
    bool more;                  /* -m, --more */
    bool clear;                 /* --clear */
    bool may_create;            /* --may-create */
};

/* Splits "[TYPE@]NAME". */
static void
parse_dp_name(const char *s, char **name, char **type)
{
    const char *at = strchr(s, '@');
    if (at) {
        *type = xmemdup0(s, at - s);
        *name = xstrdup(at + 1);
    } else {
        *type = xstrdup("netdev");
        *name = xstrdup(s);
    }
}

static char *
open_dp(const char *s, struct dpif **dpifp)
{
    char *name, *type;
    parse_dp_name(s, &name, &type);
    int error = dpif_open(name, type, dpifp);
    char *msg = error ? xasprintf("opening datapath %s failed (%s)", s,
                                  ovs_strerror(error))
                      : NULL;
    free(name);
    free(type);
    return msg;
}

/* Opens the only datapath there is. */
static char *
open_only_dp(struct dpif **dpifp)
{
    struct sset types = SSET_INITIALIZER(&types);
    struct sset names = SSET_INITIALIZER(&names);
    char *type_found = NULL, *name_found = NULL;
    size_t n = 0;

    dpif_enumerate_types(&types);
    const char *type;
    SSET_FOR_EACH (type, &types) {
        sset_clear(&names);
        dpif_enumerate(type, &names);
        const char *name;
        SSET_FOR_EACH (name, &names) {
            if (!n++) {
                type_found = xstrdup(type);
                name_found = xstrdup(name);
            }
        }
    }
    sset_destroy(&types);
    sset_destroy(&names);

    char *error = NULL;
    if (n != 1) {
        error = xasprintf(n ? "multiple datapaths, specify one"
                            : "no datapaths exist");
    } else {
        int e = dpif_open(name_found, type_found, dpifp);
        if (e) {
            error = xasprintf("opening datapath failed (%s)",
                              ovs_strerror(e));
        }
    }
    free(type_found);
    free(name_found);
    return error;
}

/* If there are more than MIN_ARGS arguments left, the first names the
 * datapath and is consumed; else the only datapath is used. */
static char *
open_dp_arg(int *argc, const char ***argv, int min_args, struct dpif **dpifp)
{
    if (*argc > min_args) {
        char *error = open_dp((*argv)[0], dpifp);
        (*argc)--;
        (*argv)++;
        return error;
    }
    return open_only_dp(dpifp);
}

/* Port names for the flow syntax: names are accepted in input always, and
 * printed only where a listing of the ports was taken (dump-flows -m, as
 * 3.1 prints them then). */
struct dpctl_port_names {
    struct dpif *dpif;
    struct dpif_port *ports;    /* NULL: print numbers. */
    size_t n_ports;
};

static const char *
port_name_of(void *names_, uint32_t port_no)
{
    const struct dpctl_port_names *names = names_;
    for (size_t i = 0; i < names->n_ports; i++) {
        if (names->ports[i].port_no == port_no) {
            return names->ports[i].name;
        }
    }
    return NULL;
}

static bool
port_number_of(void *names_, const char *name, uint32_t *port_no)
{
    const struct dpctl_port_names *names = names_;
    struct dpif_port port;
    if (dpif_port_query_by_name(names->dpif, name, &port)) {
        return false;
    }
    *port_no = port.port_no;
    dpif_port_destroy(&port);
    return true;
}

/* Fills *PN for DPIF, with the port names to print if PRINT_NAMES; the
 * caller frees it with port_names_destroy(). */
static struct odp_port_names
port_names_init(struct dpctl_port_names *pn, struct dpif *dpif,
                bool print_names)
{
    *pn = (struct dpctl_port_names) { .dpif = dpif };
    if (print_names) {
        dpif_port_list(dpif, &pn->ports, &pn->n_ports);
    }
    return (struct odp_port_names) {
        .name_of = port_name_of, .number_of = port_number_of, .aux = pn,
    };
}

static void
port_names_destroy(struct dpctl_port_names *pn)
{
    if (pn->ports) {
        dpif_port_list_free(pn->ports, pn->n_ports);
    }
}

/* "IFACE[,KEY=VALUE]...": adds IFACE to DPIF. */
static char *
add_if(struct dpif *dpif, const char *arg)
{
    char *copy = xstrdup(arg), *save = NULL;
    char *name = strtok_r(copy, ",", &save);
    const char *type = "system";
    uint32_t port_no = DPIF_PORT_NONE;
    struct smap options = SMAP_INITIALIZER(&options);
    char *error = NULL;

    if (!name) {
        error = xstrdup("missing interface name");
        goto out;
    }
    for (char *opt; (opt = strtok_r(NULL, ",", &save)) != NULL; ) {
        char *eq = strchr(opt, '=');
        if (!eq) {
            error = xasprintf("%s: option \"%s\" is not KEY=VALUE", name,
                              opt);
            goto out;
        }
        *eq = '\0';
        const char *value = eq + 1;
        if (!strcmp(opt, "type")) {
            type = value;
        } else if (!strcmp(opt, "port_no")) {
            char *end;
            unsigned long n = strtoul(value, &end, 10);
            if (*end || !*value || n >= UINT32_MAX) {
                error = xasprintf("%s: bad port_no \"%s\"", name, value);
                goto out;
            }
            port_no = n;
        } else {
            smap_replace(&options, opt, value);
        }
    }

    struct netdev *netdev;
    int e = netdev_open(name, type, &netdev);
    if (e) {
        error = xasprintf("%s: failed to open network device (%s)", name,
                          ovs_strerror(e));
        goto out;
    }
    char *config_error = NULL;
    e = netdev_set_config(netdev, &options, &config_error);
    if (e) {
        error = config_error ? config_error
                             : xasprintf("%s: failed to configure network "
                                         "device (%s)", name,
                                         ovs_strerror(e));
    } else {
        free(config_error);
        e = dpif_port_add(dpif, netdev, &port_no);
        if (e) {
            error = xasprintf("adding %s to %s failed (%s)", name,
                              dpif_base_name(dpif), ovs_strerror(e));
        }
    }
    netdev_close(netdev);

out:
    smap_destroy(&options);
    free(copy);
    return error;
}

static char *
cmd_add_dp(struct ds *out OVS_UNUSED, const struct dpctl_opts *o OVS_UNUSED,
           int argc, const char *argv[])
{
    char *name, *type;
    struct dpif *dpif;

    parse_dp_name(argv[0], &name, &type);
    int e = dpif_create(name, type, &dpif);
    free(name);
    free(type);
    if (e) {
        return xasprintf("creating datapath %s failed (%s)", argv[0],
                         ovs_strerror(e));
    }
    char *error = NULL;
    for (int i = 1; i < argc && !error; i++) {
        error = add_if(dpif, argv[i]);
    }
    dpif_close(dpif);
    return error;
}

static char *
cmd_del_dp(struct ds *out OVS_UNUSED, const struct dpctl_opts *o OVS_UNUSED,
           int argc OVS_UNUSED, const char *argv[])
{
    struct dpif *dpif;
    char *error = open_dp(argv[0], &dpif);
    if (!error) {
        dpif_delete(dpif);
    }
    return error;
}

static char *
cmd_add_if(struct ds *out OVS_UNUSED, const struct dpctl_opts *o OVS_UNUSED,
           int argc, const char *argv[])
{
    struct dpif *dpif;
    char *error = open_dp(argv[0], &dpif);
    for (int i = 1; i < argc && !error; i++) {
        error = add_if(dpif, argv[i]);
    }
    if (dpif) {
        dpif_close(dpif);
    }
    return error;
}

static char *
cmd_del_if(struct ds *out OVS_UNUSED, const struct dpctl_opts *o OVS_UNUSED,
           int argc, const char *argv[])
{
    struct dpif *dpif;
    char *error = open_dp(argv[0], &dpif);
    for (int i = 1; i < argc && !error; i++) {
        struct dpif_port port;
        if (dpif_port_query_by_name(dpif, argv[i], &port)) {
            error = xasprintf("%s: no port named %s", dpif_base_name(dpif),
                              argv[i]);
            break;
        }
        int e = dpif_port_del(dpif, port.port_no);
        dpif_port_destroy(&port);
        if (e) {
            error = xasprintf("deleting port %s from %s failed (%s)",
                              argv[i], dpif_base_name(dpif),
                              ovs_strerror(e));
        }
    }
    if (dpif) {
        dpif_close(dpif);
    }
    return error;
}

static void
put_stat(struct ds *out, const char *label, uint64_t value)
{
    if (value == NETDEV_STAT_UNKNOWN) {
        ds_put_format(out, "%s?", label);
    } else {
        ds_put_format(out, "%s%"PRIu64, label, value);
    }
}

static void
put_human_size(struct ds *out, uint64_t bytes)
{
    static const char *const units[] = { "KiB", "MiB", "GiB", "TiB" };
    if (bytes < 1024) {
        return;
    }
    double v = bytes;
    int u = -1;
    while (v >= 1024 && u < 3) {
        v /= 1024;
        u++;
    }
    ds_put_format(out, " (%.1f %s)", v, units[u]);
}

static void
show_dp(struct ds *out, struct dpif *dpif, const struct dpctl_opts *o)
{
    struct dpif_dp_stats s;
    dpif_get_dp_stats(dpif, &s);
    ds_put_format(out, "%s:\n", dpif_base_name(dpif));
    ds_put_format(out, "  lookups: hit:%"PRIu64" missed:%"PRIu64
                  " lost:%"PRIu64"\n", s.n_hit, s.n_missed, s.n_lost);
    ds_put_format(out, "  flows: %"PRIu64"\n", s.n_flows);
    uint64_t n_pkts = s.n_hit + s.n_missed;
    ds_put_format(out, "  masks: hit:%"PRIu64" total:%"PRIu64
                  " hit/pkt:%.2f\n", s.n_mask_hit, s.n_masks,
                  n_pkts ? (double) s.n_mask_hit / n_pkts : 0.0);
    ds_put_format(out, "  rx threads: %u\n", dpif_get_n_rx_threads(dpif));

    struct dpif_port *ports;
    size_t n_ports;
    dpif_port_list(dpif, &ports, &n_ports);
    for (size_t i = 0; i < n_ports; i++) {
        const struct dpif_port *p = &ports[i];
        ds_put_format(out, "  port %"PRIu32": %s", p->port_no, p->name);
        if (strcmp(p->type, "system")) {
            ds_put_format(out, " (%s)", p->type);
        }
        ds_put_char(out, '\n');
        if (!o->statistics) {
            continue;
        }

        struct netdev *netdev;
        if (!netdev_open(p->name, p->type, &netdev)) {
            struct netdev_stats ns;
            netdev_get_stats(netdev, &ns);
            netdev_close(netdev);
            put_stat(out, "    RX packets:", ns.rx_packets);
            put_stat(out, " errors:", ns.rx_errors);
            put_stat(out, " dropped:", ns.rx_dropped);
            /* Counters no device here keeps: unknown, as 3.1 prints
             * them for devices without them. */
            ds_put_cstr(out, " overruns:? frame:?\n");
            put_stat(out, "    TX packets:", ns.tx_packets);
            put_stat(out, " errors:", ns.tx_errors);
            put_stat(out, " dropped:", ns.tx_dropped);
            ds_put_cstr(out, " aborted:? carrier:?\n");
            ds_put_cstr(out, "    collisions:?\n");
            put_stat(out, "    RX bytes:", ns.rx_bytes);
            put_human_size(out, ns.rx_bytes);
            put_stat(out, "  TX bytes:", ns.tx_bytes);
            put_human_size(out, ns.tx_bytes);
            ds_put_char(out, '\n');
        }
        struct dpif_port_stats ps;
        if (!dpif_port_get_stats(dpif, p->port_no, &ps)) {
            ds_put_format(out, "    lookups: hit:%"PRIu64" missed:%"PRIu64
                          " lost:%"PRIu64" malformed:%"PRIu64"\n",
                          ps.n_hit, ps.n_missed, ps.n_lost, ps.n_malformed);
        }
    }
    dpif_port_list_free(ports, n_ports);
}

static char *
cmd_show(struct ds *out, const struct dpctl_opts *o, int argc,
         const char *argv[])
{
    if (argc) {
        for (int i = 0; i < argc; i++) {
            struct dpif *dpif;
            char *error = open_dp(argv[i], &dpif);
            if (error) {
                return error;
            }
            show_dp(out, dpif, o);
            dpif_close(dpif);
        }
        return NULL;
    }

    struct sset types = SSET_INITIALIZER(&types);
    dpif_enumerate_types(&types);
    const char *type;
    SSET_FOR_EACH (type, &types) {
        struct sset names = SSET_INITIALIZER(&names);
        dpif_enumerate(type, &names);
        const char **sorted = sset_sort(&names);
        for (size_t i = 0; i < sset_count(&names); i++) {
            struct dpif *dpif;
            if (!dpif_open(sorted[i], type, &dpif)) {
                show_dp(out, dpif, o);
                dpif_close(dpif);
            }
        }
        free(sorted);
        sset_destroy(&names);
    }
    sset_destroy(&types);
    return NULL;
}

static void
format_tcp_flags(struct ds *out, uint16_t flags)
{
    static const char letters[] = "FSRP.UECN";
    for (int i = 0; letters[i]; i++) {
        if (flags & (1 << i)) {
            ds_put_char(out, letters[i]);
        }
    }
}

static void
format_flow_stats(struct ds *out, const struct dpif_flow_stats *s)
{
    ds_put_format(out, "packets:%"PRIu64", bytes:%"PRIu64", used:",
                  s->n_packets, s->n_bytes);
    if (s->used) {
        ds_put_format(out, "%.3fs", (time_msec() - s->used) / 1000.0);
    } else {
        ds_put_cstr(out, "never");
    }
    if (s->tcp_flags) {
        ds_put_cstr(out, ", flags:");
        format_tcp_flags(out, s->tcp_flags);
    }
}

void
dpctl_format_dpif_flow(struct ds *out, const struct dpif_flow *f,
                       const struct odp_port_names *names, bool verbose)
{
    odp_flow_format(&f->key, &f->mask, names, verbose, out);
    ds_put_cstr(out, ", ");
    format_flow_stats(out, &f->stats);
    ds_put_cstr(out, ", actions:");
    odp_actions_format(f->actions, f->actions_len, names, out);
}

/* Parses FLOW text.  On error, *ERRNOP (if nonnull) gets the errno value
 * 3.1 reports with it (EINVAL, or E2BIG for a flow too long). */
static char *
parse_flow(struct dpif *dpif, const char *s, struct flow *key,
           struct flow_wildcards *mask, int *errnop)
{
    struct dpctl_port_names pn;
    struct odp_port_names names = port_names_init(&pn, dpif, false);
    return odp_flow_from_string_errno(s, &names, key, mask, errnop);
}

/* 3.1's report of a flow that does not parse: WHAT (if nonnull) with the
 * parser's message in parentheses, or the message alone; then the errno
 * value's text.  Frees MSG. */
static char *
flow_parse_error(const char *what, char *msg, int error)
{
    char *s = (what
               ? xasprintf("%s (%s) (%s)", what, msg, ovs_strerror(error))
               : xasprintf("%s (%s)", msg, ovs_strerror(error)));
    free(msg);
    return s;
}

/* Whether F matches FILTER (its key under the filter's mask). */
static bool
flow_passes_filter(const struct dpif_flow *f, const struct flow *fkey,
                   const struct flow_wildcards *fmask)
{
    struct flow masked;
    flow_apply_mask(&masked, &f->key, &f->mask);
    return flow_equal_under_mask(&masked, fkey, fmask);
}

static char *
cmd_dump_flows(struct ds *out, const struct dpctl_opts *o, int argc,
               const char *argv[])
{
    const char *filter = NULL;
    if (argc && !strncmp(argv[argc - 1], "filter=", 7)) {
        filter = argv[argc - 1] + 7;
        argc--;
    }
    struct dpif *dpif;
    char *error = open_dp_arg(&argc, &argv, 0, &dpif);
    if (error) {
        return error;
    }

    struct flow fkey;
    struct flow_wildcards fmask;
    if (filter) {
        error = parse_flow(dpif, filter, &fkey, &fmask, NULL);
        if (error) {
            char *msg = xasprintf("Failed to parse filter (%s)", error);
            free(error);
            dpif_close(dpif);
            return msg;
        }
    }

    struct dpctl_port_names pn;
    struct odp_port_names names = port_names_init(&pn, dpif, o->more);
    struct dpif_flow_dump *dump = dpif_flow_dump_create(dpif);
    dpif_flow_dump_set_given_keys(dump);
    struct dpif_flow_dump_thread *thread = dpif_flow_dump_thread_create(dump);
    struct dpif_flow flows[50];
    /* 3.1's userspace datapath dumps each thread's flows under a heading;
     * this one's flows all belong to the datapath itself, which 3.1 calls
     * the main thread.  (Its kernel datapath, "system", prints none.) */
    bool heading = strcmp(dpif_type(dpif), "system");
    int n;
    while ((n = dpif_flow_dump_next(thread, flows, ARRAY_SIZE(flows))) > 0) {
        for (int i = 0; i < n; i++) {
            if (!filter || flow_passes_filter(&flows[i], &fkey, &fmask)) {
                if (heading) {
                    ds_put_cstr(out, "flow-dump from the main thread:\n");
                    heading = false;
                }
                dpctl_format_dpif_flow(out, &flows[i], &names, o->more);
                ds_put_char(out, '\n');
            }
        }
    }
    dpif_flow_dump_thread_destroy(thread);
    dpif_flow_dump_destroy(dump);
    port_names_destroy(&pn);
    dpif_close(dpif);
    return NULL;
}

/* add-flow and mod-flow. */
static char *
put_flow(struct ds *out, const struct dpctl_opts *o, int argc,
         const char *argv[], enum dpif_flow_put_flags flags)
{
    struct dpif *dpif;
    char *error = open_dp_arg(&argc, &argv, 2, &dpif);
    if (error) {
        return error;
    }
    if (argc != 2) {
        dpif_close(dpif);
        return xstrdup("FLOW and ACTIONS expected");
    }

    struct flow key;
    struct flow_wildcards mask;
    struct ofpbuf actions;
    ofpbuf_init(&actions, 64);
    int parse_errno;
    error = parse_flow(dpif, argv[0], &key, &mask, &parse_errno);
    if (error) {
        error = flow_parse_error("parsing flow key", error, parse_errno);
    } else {
        struct dpctl_port_names pn;
        struct odp_port_names names = port_names_init(&pn, dpif, false);
        error = odp_actions_from_string(argv[1], &names, &actions);
        if (error) {
            char *msg = xasprintf("parsing actions (%s) (%s)", error,
                                  ovs_strerror(EINVAL));
            free(error);
            error = msg;
        }
    }
    if (!error && !odp_actions_validate(actions.data, actions.size, &error)) {
        /* error set. */
    } else if (!error) {
        struct dpif_flow_stats stats;
        if (o->clear) {
            flags |= DPIF_FP_ZERO_STATS;
        }
        int e = dpif_flow_put(dpif, flags, &key, &mask, actions.data,
                              actions.size, &stats);
        if (e) {
            error = xasprintf("updating flow table (%s)", ovs_strerror(e));
        } else if (o->statistics && (flags & DPIF_FP_MODIFY)) {
            format_flow_stats(out, &stats);
            ds_put_char(out, '\n');
        }
    }
    ofpbuf_uninit(&actions);
    dpif_close(dpif);
    return error;
}

static char *
cmd_add_flow(struct ds *out, const struct dpctl_opts *o, int argc,
             const char *argv[])
{
    return put_flow(out, o, argc, argv, DPIF_FP_CREATE);
}

static char *
cmd_mod_flow(struct ds *out, const struct dpctl_opts *o, int argc,
             const char *argv[])
{
    return put_flow(out, o, argc, argv,
                    DPIF_FP_MODIFY | (o->may_create ? DPIF_FP_CREATE : 0));
}

/* Opens the datapath (the first of two arguments, or the only one) and
 * parses the FLOW argument, then runs FN on them. */
static char *
with_dp_and_flow(struct ds *out, const struct dpctl_opts *o, int argc,
                 const char *argv[],
                 char *(*fn)(struct dpif *, const struct flow *,
                             const struct flow_wildcards *, struct ds *,
                             const struct dpctl_opts *))
{
    struct dpif *dpif;
    char *error = open_dp_arg(&argc, &argv, 1, &dpif);
    if (error) {
        return error;
    }
    struct flow key;
    struct flow_wildcards mask;
    int parse_errno;
    error = parse_flow(dpif, argv[0], &key, &mask, &parse_errno);
    if (error) {
        error = flow_parse_error(NULL, error, parse_errno);
    } else {
        error = fn(dpif, &key, &mask, out, o);
    }
    dpif_close(dpif);
    return error;
}

static char *
get_flow(struct dpif *dpif, const struct flow *key,
         const struct flow_wildcards *mask, struct ds *out,
         const struct dpctl_opts *o)
{
    struct dpif_flow f;
    void *buf;
    int e = dpif_flow_get(dpif, key, mask, &f, &buf);
    if (e) {
        return xasprintf("getting flow (%s)", ovs_strerror(e));
    }
    struct dpctl_port_names pn;
    struct odp_port_names names = port_names_init(&pn, dpif, o->more);
    dpctl_format_dpif_flow(out, &f, &names, o->more);
    ds_put_char(out, '\n');
    port_names_destroy(&pn);
    free(buf);
    return NULL;
}

static char *
del_flow(struct dpif *dpif, const struct flow *key,
         const struct flow_wildcards *mask, struct ds *out,
         const struct dpctl_opts *o)
{
    struct dpif_flow_stats stats;
    int e = dpif_flow_del(dpif, key, mask, &stats);
    if (e) {
        return xasprintf("deleting flow (%s)", ovs_strerror(e));
    }
    if (o->statistics) {
        format_flow_stats(out, &stats);
        ds_put_char(out, '\n');
    }
    return NULL;
}

static char *
cmd_get_flow(struct ds *out, const struct dpctl_opts *o, int argc,
             const char *argv[])
{
    return with_dp_and_flow(out, o, argc, argv, get_flow);
}

static char *
cmd_del_flow(struct ds *out, const struct dpctl_opts *o, int argc,
             const char *argv[])
{
    return with_dp_and_flow(out, o, argc, argv, del_flow);
}

static char *
cmd_del_flows(struct ds *out OVS_UNUSED, const struct dpctl_opts *o OVS_UNUSED,
              int argc, const char *argv[])
{
    struct dpif *dpif;
    char *error = open_dp_arg(&argc, &argv, 0, &dpif);
    if (!error) {
        dpif_flow_flush(dpif);
        dpif_close(dpif);
    }
    return error;
}

static char *
cmd_set_rx_threads(struct ds *out OVS_UNUSED,
                   const struct dpctl_opts *o OVS_UNUSED,
                   int argc OVS_UNUSED, const char *argv[])
{
    char *end;
    unsigned long n = strtoul(argv[1], &end, 10);
    if (*end || !n || n > 64) {
        return xasprintf("%s: not a number of threads from 1 to 64",
                         argv[1]);
    }
    struct dpif *dpif;
    char *error = open_dp(argv[0], &dpif);
    if (!error) {
        dpif_set_n_rx_threads(dpif, n);
        dpif_close(dpif);
    }
    return error;
}

/* Connection tracking
 * =================== */

/* Whether a command's first argument names a datapath: its other
 * arguments are all KEY=VALUE, a datapath name is not. */
static bool
dp_arg_first(int argc, const char *argv[])
{
    return argc > 0 && argv[0][0] && !strchr(argv[0], '=');
}

/* Opens the datapath a conntrack or ipf command names (consuming that
 * argument) if HAS_DP, else the only one there is; an unknown one is
 * reported in 3.1's words for these commands. */
static char *
open_dp_of_ct_command(int *argc, const char ***argv, bool has_dp,
                      struct dpif **dpifp)
{
    if (!has_dp) {
        return open_only_dp(dpifp);
    }
    char *error = open_dp((*argv)[0], dpifp);
    if (error) {
        free(error);
        error = xasprintf("datapath not found (%s)", ovs_strerror(EINVAL));
    }
    (*argc)--;
    (*argv)++;
    return error;
}

/* Opens the datapath that *ARGV's first argument names if HAS_DP (and
 * consumes it), else the only one, and finds its tracker. */
static char *
open_ct(int *argc, const char ***argv, bool has_dp, struct dpif **dpifp,
        struct conntrack **ctp)
{
    char *error = open_dp_of_ct_command(argc, argv, has_dp, dpifp);
    if (!error) {
        *ctp = dpif_conntrack(*dpifp);
        if (!*ctp) {
            error = xasprintf("%s: no connection tracker (%s)",
                              dpif_base_name(*dpifp),
                              ovs_strerror(EOPNOTSUPP));
            dpif_close(*dpifp);
        }
    }
    return error;
}

/* "zone=N" into *ZONE; false if S is not that. */
static bool
parse_zone_arg(const char *s, uint16_t *zone)
{
    uint64_t x;
    if (strncmp(s, "zone=", 5) || !ofputil_scan_uint(s + 5, UINT16_MAX, &x)) {
        return false;
    }
    *zone = x;
    return true;
}

static char *
einval(const char *msg)
{
    return xasprintf("%s (%s)", msg, ovs_strerror(EINVAL));
}

struct ct_dump_lines {
    char **lines;
    size_t n, allocated;
    bool verbose, stats;
};

static bool
ct_dump_line(const struct ct_entry *e, void *aux_)
{
    struct ct_dump_lines *aux = aux_;
    struct ds s = DS_EMPTY_INITIALIZER;
    ct_format_entry(&s, e, aux->verbose, aux->stats);
    if (aux->n >= aux->allocated) {
        aux->allocated = aux->allocated ? 2 * aux->allocated : 64;
        aux->lines = xrealloc(aux->lines, aux->allocated * sizeof *aux->lines);
    }
    aux->lines[aux->n++] = ds_steal_cstr(&s);
    return true;
}

static int
compare_lines(const void *a_, const void *b_)
{
    const char *const *a = a_, *const *b = b_;
    return strcmp(*a, *b);
}

/* dump-conntrack [-m] [-s] [dp] [zone=N]: one line per connection, sorted
 * (3.1 prints them in its hash order, which nothing can rely on). */
static char *
cmd_dump_conntrack(struct ds *out, const struct dpctl_opts *o, int argc,
                   const char *argv[])
{
    uint16_t zone;
    const uint16_t *pzone = NULL;
    if (argc && !strncmp(argv[argc - 1], "zone=", 5)) {
        if (!parse_zone_arg(argv[argc - 1], &zone)) {
            return einval("failed to parse zone");
        }
        pzone = &zone;
        argc--;
    }
    if (argc > 1) {
        return einval("invalid arguments");
    }
    struct dpif *dpif;
    struct conntrack *ct;
    char *error = open_ct(&argc, &argv, argc == 1, &dpif, &ct);
    if (error) {
        return error;
    }
    struct ct_dump_lines aux = { .verbose = o->more, .stats = o->statistics };
    conntrack_dump(ct, pzone, ct_dump_line, &aux);
    if (aux.n) {
        qsort(aux.lines, aux.n, sizeof *aux.lines, compare_lines);
    }
    for (size_t i = 0; i < aux.n; i++) {
        ds_put_format(out, "%s\n", aux.lines[i]);
        free(aux.lines[i]);
    }
    free(aux.lines);
    dpif_close(dpif);
    return NULL;
}

/* flush-conntrack [dp] [zone=N] [ct-orig-tuple [ct-reply-tuple]]. */
static char *
cmd_flush_conntrack(struct ds *out OVS_UNUSED,
                    const struct dpctl_opts *o OVS_UNUSED, int argc,
                    const char *argv[])
{
    bool has_dp = dp_arg_first(argc, argv);
    int i = has_dp;
    uint16_t zone;
    const uint16_t *pzone = NULL;
    if (i < argc && !strncmp(argv[i], "zone=", 5)) {
        if (!parse_zone_arg(argv[i], &zone)) {
            return einval("failed to parse zone");
        }
        pzone = &zone;
        i++;
    }
    struct ofputil_ct_match match;
    memset(&match, 0, sizeof match);
    for (int t = 0; t < 2 && i < argc; t++, i++) {
        if (!argv[i][0]) {
            continue;           /* An empty original tuple, as 3.1. */
        }
        char *msg = ofputil_ct_tuple_parse(t ? &match.reply : &match.orig,
                                           argv[i], &match.ip_proto,
                                           &match.l3_type);
        if (msg) {
            char *e = einval(msg);
            free(msg);
            return e;
        }
    }
    if (i < argc) {
        return einval("invalid arguments");
    }

    struct dpif *dpif;
    struct conntrack *ct;
    char *error = open_ct(&argc, &argv, has_dp, &dpif, &ct);
    if (error) {
        return error;
    }
    int e = dpif_ct_flush(dpif, pzone, &match);
    dpif_close(dpif);
    return e ? xasprintf("failed to flush conntrack (%s)", ovs_strerror(e))
             : NULL;
}

/* ct-stats-show [-m] [dp] [zone=N] [verbose]. */
static char *
cmd_ct_stats_show(struct ds *out, const struct dpctl_opts *o, int argc,
                  const char *argv[])
{
    bool verbose = o->more;
    uint16_t zone;
    const uint16_t *pzone = NULL;
    for (bool more = true; argc && more; ) {
        more = false;
        if (!strcmp(argv[argc - 1], "verbose")) {
            /* 3.1 still takes the old spelling of -m. */
            verbose = more = true;
            argc--;
        } else if (!strncmp(argv[argc - 1], "zone=", 5)) {
            if (!parse_zone_arg(argv[argc - 1], &zone)) {
                return einval("failed to parse zone");
            }
            pzone = &zone;
            more = true;
            argc--;
        }
    }
    if (argc > 1) {
        return einval("invalid arguments");
    }
    struct dpif *dpif;
    struct conntrack *ct;
    char *error = open_ct(&argc, &argv, argc == 1, &dpif, &ct);
    if (error) {
        return error;
    }
    uint32_t *by_proto = xcalloc(256, sizeof *by_proto);
    uint32_t by_state[CT_TCP_N_STATES];
    conntrack_get_stats(ct, pzone, by_proto, by_state);
    dpif_close(dpif);

    uint64_t total = 0;
    for (int p = 0; p < 256; p++) {
        total += by_proto[p];
    }
    ds_put_format(out, "Connections Stats:\n    Total: %"PRIu64"\n", total);
    if (by_proto[IPPROTO_TCP]) {
        ds_put_format(out, "  TCP: %"PRIu32"\n", by_proto[IPPROTO_TCP]);
        if (verbose) {
            uint32_t coalesced[CT_TCP_N_STATES] = { 0 };
            for (int s = 0; s < CT_TCP_N_STATES; s++) {
                coalesced[ct_format_coalesce_tcp_state(s)] += by_state[s];
            }
            ds_put_cstr(out, "    Conn per TCP states:\n");
            for (int s = 0; s < CT_TCP_N_STATES; s++) {
                if (coalesced[s]) {
                    ds_put_format(out, "\t  [%s]=%"PRIu32"\n",
                                  ct_tcp_state_name(s), coalesced[s]);
                }
            }
        }
    }
    /* 3.1's lines, in its order; ICMPv6 connections count in the total
     * only, as there. */
    static const struct {
        uint8_t proto;
        const char *name;
    } lines[] = {
        { IPPROTO_UDP, "UDP" }, { IPPROTO_UDPLITE, "UDPLITE" },
        { IPPROTO_SCTP, "SCTP" }, { IPPROTO_ICMP, "ICMP" },
        { IPPROTO_DCCP, "DCCP" }, { IPPROTO_IGMP, "IGMP" },
    };
    uint64_t other = total - by_proto[IPPROTO_TCP] - by_proto[IPPROTO_ICMPV6];
    for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
        uint32_t n = by_proto[lines[i].proto];
        other -= n;
        if (n) {
            ds_put_format(out, "  %s: %"PRIu32"\n", lines[i].name, n);
        }
    }
    if (other) {
        ds_put_format(out, "  Other: %"PRIu64"\n", other);
    }
    free(by_proto);
    return NULL;
}

/* ct-bkts [dp] [gt=N]: the connections per bucket of the table. */
static char *
cmd_ct_bkts(struct ds *out, const struct dpctl_opts *o OVS_UNUSED, int argc,
            const char *argv[])
{
    uint64_t gt = 0;
    if (argc && !strncmp(argv[argc - 1], "gt=", 3)) {
        if (!ofputil_scan_uint(argv[argc - 1] + 3, UINT16_MAX, &gt)) {
            return einval("invalid gt= threshold");
        }
        argc--;
    }
    if (argc > 1) {
        return einval("invalid arguments");
    }
    struct dpif *dpif;
    struct conntrack *ct;
    char *error = open_ct(&argc, &argv, argc == 1, &dpif, &ct);
    if (error) {
        return error;
    }
    size_t n_buckets = conntrack_get_buckets(ct, NULL, 0);
    uint32_t *counts = xcalloc(n_buckets ? n_buckets : 1, sizeof *counts);
    n_buckets = MIN(n_buckets, conntrack_get_buckets(ct, counts, n_buckets));
    /* A connection sits in two buckets (found from either direction):
     * the table shows them, the total counts connections. */
    uint64_t n_conns = conntrack_get_nconns(ct);
    dpif_close(dpif);
    ds_put_format(out, "Total Buckets: %zu\n", n_buckets);
    ds_put_format(out, "Current Connections: %"PRIu64"\n\n", n_conns);
    if (n_buckets && n_conns) {
        ds_put_cstr(out, "+-----------+"
                    "-----------------------------------------+\n"
                    "|  Buckets  |"
                    "         Connections per Buckets         |\n"
                    "+-----------+"
                    "-----------------------------------------+");
        for (size_t i = 0; i < n_buckets; i++) {
            if (i % 8 == 0) {
                ds_put_format(out, "\n %3zu..%3zu   | ", i, i + 7);
            }
            if (counts[i] > gt) {
                ds_put_format(out, "%5"PRIu32, counts[i]);
            } else {
                ds_put_format(out, "%5s", ".");
            }
        }
        ds_put_cstr(out, "\n\n");
    }
    free(counts);
    return NULL;
}

static char *
cmd_ct_set_maxconns(struct ds *out, const struct dpctl_opts *o OVS_UNUSED,
                    int argc, const char *argv[])
{
    uint64_t n;
    if (!ofputil_scan_uint(argv[argc - 1], UINT32_MAX, &n)) {
        return einval("maxconns missing or malformed");
    }
    struct dpif *dpif;
    struct conntrack *ct;
    char *error = open_ct(&argc, &argv, argc == 2, &dpif, &ct);
    if (!error) {
        conntrack_set_maxconns(ct, n);
        ds_put_cstr(out, "setting maxconns successful");
        dpif_close(dpif);
    }
    return error;
}

/* Prints what GET reads from the tracker, for the "ct-get-*" commands
 * that print one number. */
static char *
ct_print_u32(struct ds *out, int argc, const char *argv[],
             uint32_t (*get)(const struct conntrack *))
{
    struct dpif *dpif;
    struct conntrack *ct;
    char *error = open_ct(&argc, &argv, argc == 1, &dpif, &ct);
    if (!error) {
        ds_put_format(out, "%"PRIu32"\n", get(ct));
        dpif_close(dpif);
    }
    return error;
}

static char *
cmd_ct_get_maxconns(struct ds *out, const struct dpctl_opts *o OVS_UNUSED,
                    int argc, const char *argv[])
{
    return ct_print_u32(out, argc, argv, conntrack_get_maxconns);
}

static char *
cmd_ct_get_nconns(struct ds *out, const struct dpctl_opts *o OVS_UNUSED,
                  int argc, const char *argv[])
{
    return ct_print_u32(out, argc, argv, conntrack_get_nconns);
}

static char *
set_tcp_seq_chk(struct ds *out, int argc, const char *argv[], bool enable)
{
    struct dpif *dpif;
    struct conntrack *ct;
    char *error = open_ct(&argc, &argv, argc == 1, &dpif, &ct);
    if (!error) {
        conntrack_set_tcp_seq_chk(ct, enable);
        ds_put_format(out, "%s TCP sequence checking successful",
                      enable ? "enabling" : "disabling");
        dpif_close(dpif);
    }
    return error;
}

static char *
cmd_ct_enable_tcp_seq_chk(struct ds *out,
                          const struct dpctl_opts *o OVS_UNUSED, int argc,
                          const char *argv[])
{
    return set_tcp_seq_chk(out, argc, argv, true);
}

static char *
cmd_ct_disable_tcp_seq_chk(struct ds *out,
                           const struct dpctl_opts *o OVS_UNUSED, int argc,
                           const char *argv[])
{
    return set_tcp_seq_chk(out, argc, argv, false);
}

static char *
cmd_ct_get_tcp_seq_chk(struct ds *out, const struct dpctl_opts *o OVS_UNUSED,
                       int argc, const char *argv[])
{
    struct dpif *dpif;
    struct conntrack *ct;
    char *error = open_ct(&argc, &argv, argc == 1, &dpif, &ct);
    if (!error) {
        ds_put_format(out, "TCP sequence checking: %s\n",
                      conntrack_get_tcp_seq_chk(ct) ? "enabled" : "disabled");
        dpif_close(dpif);
    }
    return error;
}

/* "zone=N,limit=L" (either order), with 3.1's complaints. */
static char *
parse_zone_limit(const char *s, uint16_t *zone, uint32_t *limit)
{
    char *copy = xstrdup(s), *pos = copy, *key, *value;
    bool have_zone = false, have_limit = false;
    char *error = NULL;
    while (!error && ofputil_parse_key_value(&pos, &key, &value, NULL)) {
        uint64_t x;
        if (!*value) {
            error = xasprintf("field %s missing value", key);
        } else if (!strcmp(key, "zone") || !strcmp(key, "limit")) {
            bool z = key[0] == 'z';
            if (!ofputil_scan_uint(value, z ? UINT16_MAX : UINT32_MAX, &x)) {
                error = xasprintf("failed to parse field %s", key);
            } else if (z) {
                *zone = x;
                have_zone = true;
            } else {
                *limit = x;
                have_limit = true;
            }
        } else {
            error = xasprintf("invalid zone limit field: %s", key);
        }
    }
    if (!error && (!have_zone || !have_limit)) {
        error = xstrdup("failed to parse zone limit");
    }
    free(copy);
    return error;
}

/* ct-set-limits [dp] [default=L] [zone=N,limit=L]... */
static char *
cmd_ct_set_limits(struct ds *out OVS_UNUSED,
                  const struct dpctl_opts *o OVS_UNUSED, int argc,
                  const char *argv[])
{
    bool has_dp = dp_arg_first(argc, argv);
    int i = has_dp;
    uint64_t def;
    bool has_default = false;
    if (i < argc && !strncmp(argv[i], "default=", 8)) {
        if (!ofputil_scan_uint(argv[i] + 8, UINT32_MAX, &def)) {
            return einval("invalid default limit");
        }
        has_default = true;
        i++;
    }
    size_t n = argc - i;
    uint16_t *zones = xcalloc(n ? n : 1, sizeof *zones);
    uint32_t *limits = xcalloc(n ? n : 1, sizeof *limits);
    for (size_t j = 0; j < n; j++) {
        char *msg = parse_zone_limit(argv[i + j], &zones[j], &limits[j]);
        if (msg) {
            char *e = einval(msg);
            free(msg);
            free(zones);
            free(limits);
            return e;
        }
    }
    struct dpif *dpif;
    struct conntrack *ct;
    char *error = open_ct(&argc, &argv, has_dp, &dpif, &ct);
    if (!error) {
        if (has_default) {
            conntrack_set_zone_limit(ct, CT_ZONE_DEFAULT, def);
        }
        for (size_t j = 0; j < n; j++) {
            conntrack_set_zone_limit(ct, zones[j], limits[j]);
        }
        dpif_close(dpif);
    }
    free(zones);
    free(limits);
    return error;
}

/* "zone=N1[,N2]..." into a new array *ZONES of *N. */
static char *
parse_limit_zones(const char *s, uint16_t **zones, size_t *n)
{
    *zones = NULL;
    *n = 0;
    if (strncmp(s, "zone=", 5)) {
        char *msg = xasprintf("invalid argument %s", s);
        char *e = einval(msg);
        free(msg);
        return e;
    }
    char *copy = xstrdup(s + 5), *save = NULL;
    *zones = xcalloc(strlen(copy) / 2 + 1, sizeof **zones);
    for (char *z = strtok_r(copy, ",", &save); z;
         z = strtok_r(NULL, ",", &save)) {
        uint64_t x;
        if (!ofputil_scan_uint(z, UINT16_MAX, &x)) {
            free(copy);
            free(*zones);
            *zones = NULL;
            return einval("invalid zone");
        }
        (*zones)[(*n)++] = x;
    }
    free(copy);
    if (!*n) {
        free(*zones);
        *zones = NULL;
        return einval("invalid zone");
    }
    return NULL;
}

/* ct-del-limits [dp] zone=N1[,N2]... */
static char *
cmd_ct_del_limits(struct ds *out OVS_UNUSED,
                  const struct dpctl_opts *o OVS_UNUSED, int argc,
                  const char *argv[])
{
    uint16_t *zones;
    size_t n;
    char *error = parse_limit_zones(argv[argc - 1], &zones, &n);
    if (error) {
        return error;
    }
    struct dpif *dpif;
    struct conntrack *ct;
    error = open_ct(&argc, &argv, argc == 2, &dpif, &ct);
    if (!error) {
        for (size_t i = 0; i < n; i++) {
            conntrack_del_zone_limit(ct, zones[i]);
        }
        dpif_close(dpif);
    }
    free(zones);
    return error;
}

/* ct-get-limits [dp] [zone=N1[,N2]...]: the default, then each zone asked
 * for (or each with a limit of its own). */
static char *
cmd_ct_get_limits(struct ds *out, const struct dpctl_opts *o OVS_UNUSED,
                  int argc, const char *argv[])
{
    uint16_t *zones = NULL;
    size_t n = 0;
    bool query = argc == 2 || (argc == 1 && !dp_arg_first(argc, argv));
    if (query) {
        char *error = parse_limit_zones(argv[argc - 1], &zones, &n);
        if (error) {
            return error;
        }
        argc--;
    }
    if (argc > 1) {
        free(zones);
        return einval("invalid arguments");
    }
    struct dpif *dpif;
    struct conntrack *ct;
    char *error = open_ct(&argc, &argv, argc == 1, &dpif, &ct);
    if (error) {
        free(zones);
        return error;
    }
    uint32_t limit, count;
    conntrack_get_zone_limit(ct, CT_ZONE_DEFAULT, &limit, &count);
    ds_put_format(out, "default limit=%"PRIu32, limit);
    if (query) {
        for (size_t i = 0; i < n; i++) {
            conntrack_get_zone_limit(ct, zones[i], &limit, &count);
            ds_put_format(out, "\nzone=%"PRIu16",limit=%"PRIu32
                          ",count=%"PRIu32, zones[i], limit, count);
        }
    } else {
        /* Every zone: a command, not a run loop, may look at all 65536
         * (as 3.1 does). */
        for (int z = 0; z <= UINT16_MAX; z++) {
            if (conntrack_get_zone_limit(ct, z, &limit, &count)) {
                ds_put_format(out, "\nzone=%d,limit=%"PRIu32
                              ",count=%"PRIu32, z, limit, count);
            }
        }
    }
    ds_put_char(out, '\n');
    dpif_close(dpif);
    free(zones);
    return NULL;
}

/* IP fragment reassembly (ipf.h), 3.1's ipf-* commands.  Like open_ct(),
 * for the datapath's struct ipf. */
static char *
open_ipf(int *argc, const char ***argv, bool has_dp, struct dpif **dpifp,
         struct ipf **ipfp)
{
    char *error = open_dp_of_ct_command(argc, argv, has_dp, dpifp);
    if (!error) {
        *ipfp = dpif_ipf(*dpifp);
        if (!*ipfp) {
            error = xasprintf("%s: no fragment reassembly (%s)",
                              dpif_base_name(*dpifp),
                              ovs_strerror(EOPNOTSUPP));
            dpif_close(*dpifp);
        }
    }
    return error;
}

/* "v4" or "v6" (3.1 reads the first two characters) into *V6. */
static bool
parse_ipf_family(const char *s, bool *v6)
{
    if (!strncmp(s, "v4", 2) || !strncmp(s, "v6", 2)) {
        *v6 = s[1] == '6';
        return true;
    }
    return false;
}

/* A decimal number that fits 32 bits, leading digits as 3.1's scanf
 * reads them. */
static bool
parse_ipf_u32(const char *s, uint32_t *n)
{
    char *end;
    errno = 0;
    if (s[0] < '0' || s[0] > '9') {
        return false;
    }
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || x > UINT32_MAX) {
        return false;
    }
    *n = x;
    return true;
}

/* 3.1's datapath refuses an out-of-bounds setting with error 1. */
static char *
eperm(const char *msg)
{
    return xasprintf("%s (%s)", msg, ovs_strerror(EPERM));
}

static char *
ipf_set_enabled__(struct ds *out, int argc, const char *argv[], bool enable)
{
    struct dpif *dpif;
    struct ipf *ipf;
    char *error = open_ipf(&argc, &argv, argc == 2, &dpif, &ipf);
    if (error) {
        return error;
    }
    bool v6;
    if (parse_ipf_family(argv[argc - 1], &v6)) {
        ipf_set_enabled(ipf, v6, enable);
        ds_put_format(out, "%s fragmentation reassembly successful",
                      enable ? "enabling" : "disabling");
    } else {
        error = einval("parameter missing: 'v4' for IPv4 or 'v6' for IPv6");
    }
    dpif_close(dpif);
    return error;
}

static char *
cmd_ipf_set_enabled(struct ds *out, const struct dpctl_opts *o OVS_UNUSED,
                    int argc, const char *argv[])
{
    return ipf_set_enabled__(out, argc, argv, true);
}

static char *
cmd_ipf_set_disabled(struct ds *out, const struct dpctl_opts *o OVS_UNUSED,
                     int argc, const char *argv[])
{
    return ipf_set_enabled__(out, argc, argv, false);
}

static char *
cmd_ipf_set_min_frag(struct ds *out, const struct dpctl_opts *o OVS_UNUSED,
                     int argc, const char *argv[])
{
    struct dpif *dpif;
    struct ipf *ipf;
    char *error = open_ipf(&argc, &argv, argc == 3, &dpif, &ipf);
    if (error) {
        return error;
    }
    bool v6;
    uint32_t size;
    if (!parse_ipf_family(argv[argc - 2], &v6)) {
        error = einval("parameter missing: v4 for IPv4 or v6 for IPv6");
    } else if (!parse_ipf_u32(argv[argc - 1], &size)) {
        error = einval("parameter missing for minimum fragment size");
    } else if (!ipf_set_min_frag(ipf, v6, size)) {
        error = eperm("requested minimum fragment size too small; "
                      "see documentation");
    } else {
        ds_put_cstr(out, "setting minimum fragment size successful");
    }
    dpif_close(dpif);
    return error;
}

static char *
cmd_ipf_set_max_nfrags(struct ds *out, const struct dpctl_opts *o OVS_UNUSED,
                       int argc, const char *argv[])
{
    struct dpif *dpif;
    struct ipf *ipf;
    char *error = open_ipf(&argc, &argv, argc == 2, &dpif, &ipf);
    if (error) {
        return error;
    }
    uint32_t n;
    if (!parse_ipf_u32(argv[argc - 1], &n)) {
        error = einval("parameter missing for maximum fragments");
    } else if (!ipf_set_max_nfrags(ipf, n)) {
        error = eperm("setting maximum fragments failed");
    } else {
        ds_put_cstr(out, "setting maximum fragments successful");
    }
    dpif_close(dpif);
    return error;
}

static char *
cmd_ipf_get_status(struct ds *out, const struct dpctl_opts *o, int argc,
                   const char *argv[])
{
    struct dpif *dpif;
    struct ipf *ipf;
    char *error = open_ipf(&argc, &argv, argc == 1, &dpif, &ipf);
    if (!error) {
        ipf_format_status(ipf, o->more, out);
        dpif_close(dpif);
    }
    return error;
}

struct dpctl_command {
    const char *name;
    const char *usage;
    int min_args, max_args;     /* Not counting options. */
    char *(*handler)(struct ds *, const struct dpctl_opts *, int argc,
                     const char *argv[]);
};

static const struct dpctl_command commands[] = {
    { "add-dp", "dp [iface...]", 1, INT_MAX, cmd_add_dp },
    { "del-dp", "dp", 1, 1, cmd_del_dp },
    { "add-if", "dp iface...", 2, INT_MAX, cmd_add_if },
    { "del-if", "dp iface...", 2, INT_MAX, cmd_del_if },
    { "show", "[-s] [dp...]", 0, INT_MAX, cmd_show },
    { "dump-flows", "[-m] [dp] [filter=flow]", 0, 2, cmd_dump_flows },
    { "add-flow", "[dp] flow actions", 2, 3, cmd_add_flow },
    { "mod-flow", "[--clear] [--may-create] [-s] [dp] flow actions", 2, 3,
      cmd_mod_flow },
    { "get-flow", "[dp] flow", 1, 2, cmd_get_flow },
    { "del-flow", "[-s] [dp] flow", 1, 2, cmd_del_flow },
    { "del-flows", "[dp]", 0, 1, cmd_del_flows },
    { "set-rx-threads", "dp n", 2, 2, cmd_set_rx_threads },
    { "dump-conntrack", "[-m] [-s] [dp] [zone=N]", 0, 2,
      cmd_dump_conntrack },
    { "flush-conntrack", "[dp] [zone=N] [ct-orig-tuple] [ct-reply-tuple]",
      0, 4, cmd_flush_conntrack },
    { "ct-stats-show", "[dp] [zone=N]", 0, 3, cmd_ct_stats_show },
    { "ct-bkts", "[dp] [gt=N]", 0, 2, cmd_ct_bkts },
    { "ct-set-maxconns", "[dp] maxconns", 1, 2, cmd_ct_set_maxconns },
    { "ct-get-maxconns", "[dp]", 0, 1, cmd_ct_get_maxconns },
    { "ct-get-nconns", "[dp]", 0, 1, cmd_ct_get_nconns },
    { "ct-enable-tcp-seq-chk", "[dp]", 0, 1, cmd_ct_enable_tcp_seq_chk },
    { "ct-disable-tcp-seq-chk", "[dp]", 0, 1, cmd_ct_disable_tcp_seq_chk },
    { "ct-get-tcp-seq-chk", "[dp]", 0, 1, cmd_ct_get_tcp_seq_chk },
    { "ct-set-limits", "[dp] [default=L] [zone=N,limit=L]...", 1, INT_MAX,
      cmd_ct_set_limits },
    { "ct-del-limits", "[dp] zone=N1[,N2]...", 1, 2, cmd_ct_del_limits },
    { "ct-get-limits", "[dp] [zone=N1[,N2]...]", 0, 2, cmd_ct_get_limits },
    { "ipf-set-enabled", "[dp] v4|v6", 1, 2, cmd_ipf_set_enabled },
    { "ipf-set-disabled", "[dp] v4|v6", 1, 2, cmd_ipf_set_disabled },
    { "ipf-set-min-frag", "[dp] v4|v6 minfragment", 2, 3,
      cmd_ipf_set_min_frag },
    { "ipf-set-max-nfrags", "[dp] maxfrags", 1, 2, cmd_ipf_set_max_nfrags },
    { "ipf-get-status", "[-m] [dp]", 0, 1, cmd_ipf_get_status },
};

static void
dpctl_unixctl_cb(struct unixctl_conn *conn, int argc, const char *argv[],
                 void *aux)
{
    const struct dpctl_command *cmd = aux;
    struct dpctl_opts opts = { false, false, false, false };
    int i = 1;

    for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
        const char *opt = argv[i];
        if (!strcmp(opt, "-s") || !strcmp(opt, "--statistics")) {
            opts.statistics = true;
        } else if (!strcmp(opt, "-m") || !strcmp(opt, "--more")) {
            opts.more = true;
        } else if (!strcmp(opt, "--clear")) {
            opts.clear = true;
        } else if (!strcmp(opt, "--may-create")) {
            opts.may_create = true;
        } else {
            char *msg = xasprintf("%s: unknown option %s", cmd->name, opt);
            unixctl_command_reply_error(conn, msg);
            free(msg);
            return;
        }
    }
    int n_args = argc - i;
    if (n_args < cmd->min_args || n_args > cmd->max_args) {
        char *msg = xasprintf("'%s' command requires %s", cmd->name,
                              cmd->usage);
        unixctl_command_reply_error(conn, msg);
        free(msg);
        return;
    }

    struct ds out = DS_EMPTY_INITIALIZER;
    char *error = cmd->handler(&out, &opts, n_args, argv + i);
    if (error) {
        /* As 3.1 reports a command's failure: after the program's name
         * (ovs-dpctl puts its own in its place). */
        ds_put_format(&out, "%s: %s\n", program_name, error);
        unixctl_command_reply_error(conn, ds_cstr(&out));
        free(error);
    } else {
        unixctl_command_reply(conn, ds_cstr(&out));
    }
    ds_destroy(&out);
}

void
dpctl_unixctl_register(void)
{
    for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
        char *name = xasprintf("dpctl/%s", commands[i].name);
        unixctl_command_register(name, commands[i].usage, 0, INT_MAX,
                                 dpctl_unixctl_cb, (void *) &commands[i]);
        free(name);
    }
}

void
dpctl_run(void)
{
    dp_epoch_reclaim();
}

void
dpctl_exit(void)
{
    struct sset types = SSET_INITIALIZER(&types);
    dpif_enumerate_types(&types);
    const char *type;
    SSET_FOR_EACH (type, &types) {
        struct sset names = SSET_INITIALIZER(&names);
        dpif_enumerate(type, &names);
        const char *name;
        SSET_FOR_EACH (name, &names) {
            struct dpif *dpif;
            if (!dpif_open(name, type, &dpif)) {
                dpif_delete(dpif);
            }
        }
        sset_destroy(&names);
    }
    sset_destroy(&types);
    dp_epoch_synchronize();
}
