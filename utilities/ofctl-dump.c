/* ofctl-dump: dump-flows and dump-aggregate.
 *
 * A flow or aggregate statistics request is written in the flow syntax
 * limited to what selects flows: fields, table, cookie (with a mask),
 * out_port and out_group.  The connection is brought to the first
 * protocol, in 3.1's order of preference for dumps (OpenFlow 1.5 down to
 * 1.2, then NXM, then 1.0's match), that the request can use and -O
 * allows; on OpenFlow 1.0 that is NXM whenever possible, so "dump-flows
 * br0" first switches the flow format, as 3.1 does.
 *
 * dump-flows prints the replies whole ("NXST_FLOW reply (xid=0x4):" and a
 * line per flow), unless --sort/--rsort or --no-stats ask for the flows
 * alone: then every flow is collected, sorted and printed one per line
 * without the message headers and without idle_age (3.1 prints it only
 * from whole replies).  Sorting is stable and compares, for each --sort or
 * --rsort in order, the priority (no field given) or the field's value; a
 * flow that does not match on the field sorts after those that do, in
 * either direction.  Flows equal on every criterion end by descending
 * priority, as in 3.1; --no-stats alone keeps the switch's order. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "command-line.h"
#include "dynamic-string.h"
#include "list.h"
#include "ofctl.h"
#include "ofp-actions.h"
#include "ofp-fields.h"
#include "ofp-flow.h"
#include "ofp-msgs.h"
#include "ofp-parse.h"
#include "ofp-print.h"
#include "ofp-protocol.h"
#include "ofpbuf.h"
#include "util.h"
#include "vconn.h"

/* --sort and --rsort, in the order given. */
struct sort_criterion {
    const struct mf_field *field;   /* NULL: the priority. */
    bool descending;
};
static struct sort_criterion *criteria;
static size_t n_criteria;

void
ofctl_add_sort_criterion(const char *field_name, bool descending)
{
    const struct mf_field *field = NULL;
    if (field_name && strcmp(field_name, "priority")) {
        field = mf_from_name(field_name);
        if (!field) {
            ovs_fatal(0, "%s: unknown field name", field_name);
        }
    }
    criteria = xrealloc(criteria, (n_criteria + 1) * sizeof *criteria);
    criteria[n_criteria++] = (struct sort_criterion) { field, descending };
}

/* The keywords of the flow syntax that have no meaning when selecting
 * flows, and how 3.1 refuses them. */
static char *
check_stats_request_keywords(const char *string)
{
    static const char *const not_keywords[] = {
        "priority", "idle_timeout", "hard_timeout", "importance",
    };
    static const char *const flags[] = {
        "send_flow_rem", "check_overlap", "reset_counts",
        "no_packet_counts", "no_byte_counts",
    };

    char *copy = xstrdup(string);
    char *error = NULL;
    for (char *save = NULL, *token = strtok_r(copy, ", \t\r\n", &save);
         token && !error; token = strtok_r(NULL, ", \t\r\n", &save)) {
        size_t name_len = strcspn(token, "=");
        char *name = xmemdup0(token, name_len);
        bool has_value = token[name_len] == '=';

        if (strstr(name, "action")) {
            error = xasprintf("unknown keyword %s", name);
        }
        for (size_t i = 0; !error && i < ARRAY_SIZE(not_keywords); i++) {
            if (!strcmp(name, not_keywords[i])) {
                error = xasprintf("unknown keyword %s", name);
            }
        }
        for (size_t i = 0; !error && !has_value && i < ARRAY_SIZE(flags);
             i++) {
            if (!strcmp(name, flags[i])) {
                error = xasprintf("field %s missing value", name);
            }
        }
        free(name);
    }
    free(copy);
    return error;
}

/* Parses the FLOW argument of dump-flows and dump-aggregate into FSR and
 * returns the protocols that can carry it.  Fatal on error. */
static enum ofputil_protocol
parse_flow_stats_request(struct ofputil_flow_stats_request *fsr,
                         bool aggregate, const char *string,
                         const struct ofputil_port_map *port_map)
{
    char *error = check_stats_request_keywords(string);
    if (error) {
        ovs_fatal(0, "%s", error);
    }

    /* A deletion takes exactly the selecting keywords (and no actions). */
    struct ofputil_flow_mod fm;
    struct ofpbuf ofpacts;
    ofpbuf_init(&ofpacts, 0);
    error = parse_ofp_flow_mod_str(&fm, string, port_map, OFPFC_DELETE,
                                   &ofpacts);
    if (error) {
        ovs_fatal(0, "%s", error);
    }
    ofpbuf_uninit(&ofpacts);

    memset(fsr, 0, sizeof *fsr);
    fsr->aggregate = aggregate;
    fsr->match = fm.match;
    fsr->cookie = fm.cookie;
    fsr->cookie_mask = fm.cookie_mask;
    fsr->out_port = fm.out_port;
    fsr->out_group = fm.out_group;
    fsr->table_id = fm.table_id;

    enum ofputil_protocol usable = ofputil_usable_protocols(&fsr->match);
    if (fsr->cookie_mask) {
        usable &= OFPUTIL_P_NXM_OXM_ANY | OFPUTIL_P_OF11_STD;
    }
    if (fsr->out_group != UINT32_MAX) {
        usable &= OFPUTIL_P_OF11_UP;
    }
    return usable;
}

enum ofputil_protocol
ofctl_open_vconn_for_flow_dump(const char *switch_name,
                         enum ofputil_protocol usable, struct vconn **vconnp)
{
    /* 3.1's preference for dumps: the newest first. */
    static const enum ofputil_protocol preference[] = {
        OFPUTIL_P_OF15_OXM, OFPUTIL_P_OF14_OXM, OFPUTIL_P_OF13_OXM,
        OFPUTIL_P_OF12_OXM, OFPUTIL_P_OF11_STD, OFPUTIL_P_OF10_NXM,
        OFPUTIL_P_OF10_STD,
    };
    enum ofputil_protocol cur = ofctl_open_vconn(switch_name, "mgmt",
                                                 vconnp);
    enum ofputil_protocol allowed = ofctl_opts.allowed_protocols;

    for (size_t i = 0; i < ARRAY_SIZE(preference); i++) {
        enum ofputil_protocol p = preference[i];
        if (p & usable & allowed && ofctl_try_set_protocol(*vconnp, p, &cur)) {
            return p;
        }
    }

    char *usable_s = ofputil_protocols_to_string(usable);
    if (usable & allowed) {
        ovs_fatal(0, "switch does not support any of the usable flow "
                  "formats (%s)", usable_s);
    }
    char *allowed_s = ofputil_protocols_to_string(allowed);
    ovs_fatal(0, "none of the usable flow formats (%s) is among the allowed "
              "flow formats (%s)", usable_s, allowed_s);
}

/* Prints one reply of a dump as it arrives, as 3.1 does (which is also
 * when it reads the names: tables first, on connections of their own, so
 * the transaction ids stay as 3.1's). */
static void
print_reply(struct ofpbuf *reply, void *switch_name_)
{
    const char *switch_name = switch_name_;
    const struct ofputil_port_map *port_map = NULL;
    if (switch_name) {
        ofctl_tables_to_show(switch_name);
        port_map = ofctl_ports_to_show(switch_name);
    }
    ofp_print(stdout, reply->data, reply->size, port_map,
              ofctl_opts.verbosity + 1);
    ofpbuf_delete(reply);
}

void
ofctl_dump_transaction(const char *switch_name, struct vconn *vconn,
                       struct ofpbuf *request)
{
    if (ofpmsg_is_stat_request(request->data)) {
        ofctl_run(vconn_dump_multipart_each(vconn, request, print_reply,
                                            (void *) switch_name),
                  "talking to %s", vconn_get_name(vconn));
    } else {
        /* A request with one reply (or an error), printed alike. */
        print_reply(ofctl_transact(vconn, request), (void *) switch_name);
    }
}

/* A flow of a sorted dump, with the position it arrived in (the sort is
 * stable) and the buffer its actions live in. */
struct dumped_flow {
    struct ofputil_flow_stats fs;
    struct ofpbuf ofpacts;
    size_t position;
};

static int
compare_values(const struct sort_criterion *sc,
               const struct ofputil_flow_stats *a,
               const struct ofputil_flow_stats *b)
{
    if (!sc->field) {
        return a->priority < b->priority ? -1 : a->priority > b->priority;
    }
    /* Values compare as numbers: tun_metadataN's are right-aligned. */
    const struct mf_field *f = sc->field;
    union mf_value av, am, bv, bm;
    mf_get(f, &a->match, &av, &am, NULL);
    mf_get(f, &b->match, &bv, &bm, NULL);
    return memcmp(&av, &bv, f->n_bytes);
}

static bool
matches_on(const struct mf_field *f, const struct ofputil_flow_stats *fs)
{
    return (mf_are_prereqs_ok(f, &fs->match.flow, NULL)
            && !mf_is_all_wild(f, &fs->match.wc));
}

static int
compare_flows(const void *a_, const void *b_)
{
    const struct dumped_flow *a = a_;
    const struct dumped_flow *b = b_;

    for (size_t i = 0; i < n_criteria; i++) {
        const struct sort_criterion *sc = &criteria[i];
        if (sc->field) {
            bool in_a = matches_on(sc->field, &a->fs);
            bool in_b = matches_on(sc->field, &b->fs);
            if (in_a != in_b) {
                /* Missing fields go last, whichever the direction. */
                return in_a ? -1 : 1;
            }
        }
        int cmp = compare_values(sc, &a->fs, &b->fs);
        if (cmp) {
            return sc->descending ? -cmp : cmp;
        }
    }
    if (n_criteria && a->fs.priority != b->fs.priority) {
        return a->fs.priority > b->fs.priority ? -1 : 1;
    }
    return a->position < b->position ? -1 : a->position > b->position;
}

void
ofctl_dump_flow_stats(struct vconn *vconn, struct ofpbuf *request,
                      void (*cb)(const struct ofputil_flow_stats *, void *),
                      void *aux)
{
    struct ovs_list replies;
    ofctl_dump_multipart(vconn, request, &replies);

    struct ofpbuf ofpacts;
    ofpbuf_init(&ofpacts, 64);
    struct ofpbuf *reply;
    LIST_FOR_EACH (reply, list_node, &replies) {
        struct ofpbuf msg;
        ofpbuf_use_const(&msg, reply->data, reply->size);
        for (;;) {
            struct ofputil_flow_stats fs;
            ofpbuf_clear(&ofpacts);
            int retval = ofputil_decode_flow_stats_reply(&fs, &msg, false,
                                                         &ofpacts);
            if (retval) {
                if (retval != EOF) {
                    ovs_fatal(0, "parse error in reply (%s)",
                              ofperr_to_string(retval));
                }
                break;
            }
            cb(&fs, aux);
        }
    }
    ofpbuf_uninit(&ofpacts);
    ofpbuf_list_delete(&replies);
}

struct dumped_flows {
    struct dumped_flow *flows;
    size_t n, allocated;
};

static void
collect_flow(const struct ofputil_flow_stats *fs, void *flows_)
{
    struct dumped_flows *flows = flows_;
    if (flows->n >= flows->allocated) {
        flows->allocated = flows->allocated ? 2 * flows->allocated : 16;
        flows->flows = xrealloc(flows->flows,
                                flows->allocated * sizeof *flows->flows);
    }
    struct dumped_flow *df = &flows->flows[flows->n];
    df->fs = *fs;
    ofpbuf_init(&df->ofpacts, fs->ofpacts_len);
    ofpbuf_put(&df->ofpacts, fs->ofpacts, fs->ofpacts_len);
    df->fs.ofpacts = df->ofpacts.data;
    df->position = flows->n++;
}

/* Collects every flow of the dump, sorts them and prints one per line. */
static void
dump_flows_sorted(const char *switch_name, struct vconn *vconn,
                  struct ofpbuf *request, bool show_stats)
{
    struct dumped_flows flows = { .n = 0 };
    ofctl_dump_flow_stats(vconn, request, collect_flow, &flows);
    const struct ofputil_table_map *table_map
        = ofctl_tables_to_show(switch_name);
    const struct ofputil_port_map *port_map
        = ofctl_ports_to_show(switch_name);

    /* The flows point into their own buffers, which do not move. */
    if (flows.n) {
        qsort(flows.flows, flows.n, sizeof *flows.flows, compare_flows);
    }

    struct ds s = DS_EMPTY_INITIALIZER;
    for (size_t i = 0; i < flows.n; i++) {
        ds_clear(&s);
        ofputil_flow_stats_format(&s, &flows.flows[i].fs, port_map,
                                  table_map, show_stats);
        printf("%s\n", ds_cstr(&s));
        ofpbuf_uninit(&flows.flows[i].ofpacts);
    }
    ds_destroy(&s);
    free(flows.flows);
}

static void
dump_flows_or_aggregate(struct ovs_cmdl_context *ctx, bool aggregate)
{
    struct ofputil_flow_stats_request fsr;
    const struct ofputil_port_map *port_map = NULL;
    if (ctx->argc > 2) {
        /* 3.1 reads the names for a flow to parse: ports, then tables. */
        port_map = ofctl_ports_to_accept(ctx->argv[1]);
        ofctl_tables_to_accept(ctx->argv[1]);
    }
    enum ofputil_protocol usable = parse_flow_stats_request(
        &fsr, aggregate, ctx->argc > 2 ? ctx->argv[2] : "", port_map);

    struct vconn *vconn;
    enum ofputil_protocol protocol = ofctl_open_vconn_for_flow_dump(
        ctx->argv[1], usable, &vconn);
    struct ofpbuf *request = ofputil_encode_flow_stats_request(&fsr,
                                                               protocol);
    if (aggregate
        || (!n_criteria && !ofctl_should_show_names() && ofctl_opts.show_stats)) {
        ofctl_dump_transaction(ctx->argv[1], vconn, request);
    } else {
        dump_flows_sorted(ctx->argv[1], vconn, request,
                          ofctl_opts.show_stats);
    }
    vconn_close(vconn);
}

void
ofctl_dump_flows(struct ovs_cmdl_context *ctx)
{
    dump_flows_or_aggregate(ctx, false);
}

void
ofctl_dump_aggregate(struct ovs_cmdl_context *ctx)
{
    dump_flows_or_aggregate(ctx, true);
}
