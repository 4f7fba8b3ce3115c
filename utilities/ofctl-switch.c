/* ofctl-switch: commands about the switch and its ports and tables.
 *
 * show (features, then in 1.3+ the port descriptions, then on a second
 * connection the switch configuration), dump-desc, dump-tables,
 * dump-table-features (1.3+), dump-table-desc (1.4+), dump-ports [PORT],
 * dump-ports-desc [PORT], queue-stats [PORT [QUEUE]], queue-get-config
 * [PORT [QUEUE]], mod-port SWITCH PORT ACTION and mod-table SWITCH TABLE
 * SETTING print what lib/ofp-print prints for the replies (error replies
 * too, on stdout, as 3.1 does for dumps), with 3.1's connections,
 * requests and messages.
 *
 * A PORT argument is a number or reserved name, or else a port name
 * looked up in the switch's names ("SWITCH: unknown port `NAME'" if none;
 * with --no-names, only numbers).  mod-port reads the port's description
 * (for its hardware address) on a connection of its own, as 3.1 does. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "command-line.h"
#include "dynamic-string.h"
#include "list.h"
#include "ofp-errors.h"
#include "ofctl.h"
#include "ofp-msgs.h"
#include "ofp-phy-port.h"
#include "ofp-port.h"
#include "ofp-print.h"
#include "ofp-queue.h"
#include "ofp-switch.h"
#include "ofp-table.h"
#include "ofpbuf.h"
#include "util.h"
#include "vconn.h"

/* Sends REQUEST, which has a single reply, and prints the reply. */
static void
print_transaction(struct vconn *vconn, struct ofpbuf *request)
{
    struct ofpbuf *reply = ofctl_transact(vconn, request);
    ofp_print(stdout, reply->data, reply->size, NULL,
              ofctl_opts.verbosity + 1);
    ofpbuf_delete(reply);
}

void
ofctl_show(struct ovs_cmdl_context *ctx)
{
    const char *name = ctx->argv[1];
    struct vconn *vconn;
    ofctl_open_vconn(name, "mgmt", &vconn);
    enum ofp_version version = vconn_get_version(vconn);

    struct ofpbuf *reply = ofctl_transact(
        vconn, ofputil_encode_features_request(version));
    bool has_ports = ofputil_switch_features_ports_complete(reply);
    ofp_print(stdout, reply->data, reply->size, NULL,
              ofctl_opts.verbosity + 1);
    ofpbuf_delete(reply);
    if (!has_ports) {
        ofctl_dump_transaction(
            name, vconn,
            ofputil_encode_port_desc_stats_request(version, OFPP_NONE));
    }
    vconn_close(vconn);

    /* The configuration comes over a connection of its own, as in 3.1. */
    ofctl_open_vconn(name, "mgmt", &vconn);
    print_transaction(vconn, ofputil_encode_get_config_request(
                          vconn_get_version(vconn)));
    vconn_close(vconn);
}

void
ofctl_dump_desc(struct ovs_cmdl_context *ctx)
{
    struct vconn *vconn;
    ofctl_open_vconn(ctx->argv[1], "mgmt", &vconn);
    ofctl_dump_transaction(ctx->argv[1], vconn,
                           ofputil_encode_desc_stats_request(
                               vconn_get_version(vconn)));
    vconn_close(vconn);
}

void
ofctl_dump_tables(struct ovs_cmdl_context *ctx)
{
    struct vconn *vconn;
    ofctl_open_vconn(ctx->argv[1], "mgmt", &vconn);
    ofctl_dump_transaction(ctx->argv[1], vconn,
                           ofputil_encode_table_stats_request(
                               vconn_get_version(vconn)));
    vconn_close(vconn);
}

void
ofctl_dump_table_features(struct ovs_cmdl_context *ctx)
{
    struct vconn *vconn;
    ofctl_open_vconn(ctx->argv[1], "mgmt", &vconn);
    enum ofp_version version = vconn_get_version(vconn);
    if (version < OFP13_VERSION) {
        ovs_fatal(0, "%s needs OpenFlow 1.3 or later ('-O OpenFlow13')",
                  ctx->argv[0]);
    }

    /* 3.1 prints the tables of every reply part as one list, without the
     * parts' header lines, so that "ditto" runs across parts. */
    struct ovs_list replies;
    ofctl_dump_multipart(vconn, ofputil_encode_table_features_request(version),
                         &replies);

    struct ofputil_table_stats_printer printer;
    ofputil_table_stats_printer_init(&printer, version);
    struct ds s = DS_EMPTY_INITIALIZER;
    struct ofpbuf *reply;
    LIST_FOR_EACH (reply, list_node, &replies) {
        struct ofpbuf b;
        ofpbuf_use_const(&b, reply->data, reply->size);
        for (;;) {
            struct ofputil_table_features tf;
            int retval = ofputil_decode_table_features(&b, &tf, true);
            if (retval) {
                if (retval != EOF) {
                    ovs_fatal(0, "decode error: %s",
                              ofperr_get_name(retval));
                }
                break;
            }
            ofputil_table_stats_printer_add(&printer, &s, NULL, &tf);
        }
    }
    ofputil_table_stats_printer_finish(&printer, &s);
    /* The printer starts a new line after a header line we do not print;
     * 3.1 ends the list with a blank line. */
    const char *text = ds_cstr(&s);
    fputs(text + (text[0] == '\n'), stdout);
    if (s.length) {
        putchar('\n');
    }
    ds_destroy(&s);
    ofpbuf_list_delete(&replies);
    vconn_close(vconn);
}

void
ofctl_dump_table_desc(struct ovs_cmdl_context *ctx)
{
    struct vconn *vconn;
    ofctl_open_vconn(ctx->argv[1], "mgmt", &vconn);
    enum ofp_version version = vconn_get_version(vconn);
    if (version < OFP14_VERSION) {
        ovs_fatal(0, "%s needs OpenFlow 1.4 or later ('-O OpenFlow14')",
                  ctx->argv[0]);
    }
    ofctl_dump_transaction(ctx->argv[1], vconn,
                           ofputil_encode_table_desc_request(version));
    vconn_close(vconn);
}

/* What a mod-table SETTING changes, and the versions that can say it. */
struct table_setting {
    enum ofputil_table_miss miss;       /* 1.1-1.2. */
    int eviction;                       /* 1.4+: -1 unchanged, 0, 1. */
    int vacancy;                        /* 1.4+: -1 unchanged, 0, 1. */
    uint8_t vacancy_down, vacancy_up;
    const char *name;                   /* 1.3+: NULL unchanged, "" none. */
    uint32_t versions;                  /* Bitmap of OpenFlow versions. */
};

static void
parse_table_setting(const char *setting, struct table_setting *ts)
{
    *ts = (struct table_setting) {
        .miss = OFPUTIL_TABLE_MISS_DEFAULT, .eviction = -1, .vacancy = -1,
    };
    const uint32_t of11_12 = 1u << OFP11_VERSION | 1u << OFP12_VERSION;
    const uint32_t of14_up = 1u << OFP14_VERSION | 1u << OFP15_VERSION;
    unsigned int down, up;
    int n = 0;
    if (!strcmp(setting, "controller")) {
        ts->miss = OFPUTIL_TABLE_MISS_CONTROLLER;
        ts->versions = of11_12;
    } else if (!strcmp(setting, "continue")) {
        ts->miss = OFPUTIL_TABLE_MISS_CONTINUE;
        ts->versions = of11_12;
    } else if (!strcmp(setting, "drop")) {
        ts->miss = OFPUTIL_TABLE_MISS_DROP;
        ts->versions = of11_12;
    } else if (!strcmp(setting, "evict") || !strcmp(setting, "noevict")) {
        ts->eviction = setting[0] == 'e';
        ts->versions = of14_up;
    } else if (!strncmp(setting, "name:", 5)) {
        ts->name = setting + 5;
        ts->versions = 1u << OFP13_VERSION | of14_up;
    } else if (!strcmp(setting, "novacancy")) {
        ts->vacancy = 0;
        ts->versions = of14_up;
    } else if (sscanf(setting, "vacancy:%u,%u%n", &down, &up, &n) == 2
               && !setting[n]) {
        if (down > 100 || up > 100) {
            ovs_fatal(0, "Invalid vacancy threshold, must be between 0 and "
                      "100 (OFPBPC_BAD_VALUE)");
        } else if (down > up) {
            ovs_fatal(0, "Invalid vacancy range, vacancy up should be "
                      "greater than vacancy down (OFPBPC_BAD_VALUE)");
        }
        ts->vacancy = 1;
        ts->vacancy_down = down;
        ts->vacancy_up = up;
        ts->versions = of14_up;
    } else {
        ovs_fatal(0, "invalid table_mod setting %s", setting);
    }
}

/* Sends the 1.4+ table_mod for TD's table: what TS changes, the rest as
 * the switch has it (as 3.1 does: a setting not given keeps its value,
 * and an eviction kept carries its flags). */
static void
send_table_mod14(struct vconn *vconn, const struct ofputil_table_desc *td,
                 const struct table_setting *ts)
{
    struct ofputil_table_mod tm = {
        .table_id = td->table_id,
        .miss = OFPUTIL_TABLE_MISS_DEFAULT,
        .has_flags14 = true,
        .eviction = ts->eviction >= 0 ? ts->eviction : td->eviction,
        .vacancy_events = ts->vacancy >= 0 ? ts->vacancy
                                           : td->vacancy_events,
        .vacancy_down = ts->vacancy >= 0 ? ts->vacancy_down
                                         : td->vacancy_down,
        .vacancy_up = ts->vacancy >= 0 ? ts->vacancy_up : td->vacancy_up,
        .has_eviction_prop = (ts->eviction < 0
                              && td->eviction_flags != UINT32_MAX),
        .eviction_flags = td->eviction_flags,
    };
    ofctl_transact_noreply(vconn, ofputil_encode_table_mod(
                               &tm, vconn_get_version(vconn)));
}

/* A table's name is one of its features (1.3+): as 3.1, the features of
 * every table are read and sent back with TABLE_ID's (every table's, for
 * OFPTT_ALL) name changed, the whole pipeline in 1.3 and 1.4, only the
 * named tables' fixed parts as modifies in 1.5.  The switch answers with
 * the features it then has, or an error. */
static void
set_table_name(struct vconn *vconn, uint8_t table_id, const char *name)
{
    enum ofp_version version = vconn_get_version(vconn);
    struct ovs_list replies;
    ofctl_dump_multipart(vconn, ofputil_encode_table_features_request(version),
                         &replies);
    struct ovs_list requests;
    ofputil_start_table_features_request(&requests, version);
    struct ofpbuf *reply;
    LIST_FOR_EACH (reply, list_node, &replies) {
        struct ofpbuf b;
        ofpbuf_use_const(&b, reply->data, reply->size);
        struct ofputil_table_features tf;
        int retval;
        while (!(retval = ofputil_decode_table_features(&b, &tf, true))) {
            bool named = table_id == OFPTT_ALL || tf.table_id == table_id;
            if (named) {
                ovs_strzcpy(tf.name, name, sizeof tf.name);
            }
            if (version >= OFP15_VERSION) {
                if (!named) {
                    continue;
                }
                tf.command = OFPTFC15_MODIFY;
                tf.fixed_only = true;
            }
            ofputil_append_table_features(&tf, &requests);
        }
        if (retval != EOF) {
            ovs_fatal(0, "decode error: %s", ofperr_get_name(retval));
        }
    }
    ofpbuf_list_delete(&replies);

    ofctl_transact_multipart(vconn, &requests, &replies);
    ofpbuf_list_delete(&replies);
}

void
ofctl_mod_table(struct ovs_cmdl_context *ctx)
{
    const char *switch_name = ctx->argv[1];
    const char *table_s = ctx->argv[2];
    /* 3.1 reads the names first, whatever TABLE is. */
    const struct ofputil_table_map *tables
        = ofctl_tables_to_accept(switch_name);
    uint8_t table_id;
    if (!strcasecmp(table_s, "all")) {
        table_id = OFPTT_ALL;
    } else if (!ofputil_table_from_string(table_s, tables, &table_id)) {
        ovs_fatal(0, "unknown table \"%s\"", table_s);
    }
    struct table_setting ts;
    parse_table_setting(ctx->argv[3], &ts);
    if (!(ts.versions & ofctl_opts.allowed_versions)) {
        struct ds versions = DS_EMPTY_INITIALIZER;
        ofputil_format_version_bitmap_names(&versions, ts.versions);
        ovs_fatal(0, "table_mod '%s' requires one of the OpenFlow versions "
                  "%s", ctx->argv[3], ds_cstr(&versions));
    }
    ofctl_opts.allowed_versions &= ts.versions;

    struct vconn *vconn;
    ofctl_open_vconn(switch_name, "mgmt", &vconn);
    enum ofp_version version = vconn_get_version(vconn);
    if (ts.name) {
        set_table_name(vconn, table_id, ts.name);
    } else if (version < OFP14_VERSION) {
        struct ofputil_table_mod tm = {
            .table_id = table_id,
            .miss = ts.miss,
        };
        ofctl_transact_noreply(vconn, ofputil_encode_table_mod(&tm,
                                                               version));
    } else {
        /* Each table's other settings come from its description. */
        struct ovs_list replies;
        ofctl_dump_multipart(vconn, ofputil_encode_table_desc_request(version),
                             &replies);
        struct ofpbuf *reply;
        LIST_FOR_EACH (reply, list_node, &replies) {
            struct ofpbuf b;
            ofpbuf_use_const(&b, reply->data, reply->size);
            struct ofputil_table_desc td;
            int retval;
            while (!(retval = ofputil_decode_table_desc(&b, &td))) {
                if (table_id == OFPTT_ALL || td.table_id == table_id) {
                    send_table_mod14(vconn, &td, &ts);
                }
            }
            if (retval != EOF) {
                ovs_fatal(0, "decode error: %s", ofperr_get_name(retval));
            }
        }
        ofpbuf_list_delete(&replies);
    }
    vconn_close(vconn);
}

/* PORT_NAME as a port number, for SWITCH_NAME.  Fatal if unknown. */
static uint32_t
parse_port(const char *switch_name, const char *port_name)
{
    uint32_t port;
    if (ofputil_port_from_string(port_name, NULL, &port)
        || ofputil_port_from_string(port_name,
                                    ofctl_ports_to_accept(switch_name),
                                    &port)) {
        return port;
    }
    ovs_fatal(0, "%s: unknown port `%s'", switch_name, port_name);
}

void
ofctl_dump_ports(struct ovs_cmdl_context *ctx)
{
    uint32_t port = (ctx->argc > 2 ? parse_port(ctx->argv[1], ctx->argv[2])
                     : OFPP_NONE);
    struct vconn *vconn;
    ofctl_open_vconn(ctx->argv[1], "mgmt", &vconn);
    ofctl_dump_transaction(ctx->argv[1], vconn,
                           ofputil_encode_dump_ports_request(
                               vconn_get_version(vconn), port));
    vconn_close(vconn);
}

void
ofctl_dump_ports_desc(struct ovs_cmdl_context *ctx)
{
    uint32_t port = (ctx->argc > 2 ? parse_port(ctx->argv[1], ctx->argv[2])
                     : OFPP_NONE);
    struct vconn *vconn;
    ofctl_open_vconn(ctx->argv[1], "mgmt", &vconn);
    ofctl_dump_transaction(ctx->argv[1], vconn,
                           ofputil_encode_port_desc_stats_request(
                               vconn_get_version(vconn), port));
    vconn_close(vconn);
}

/* QUEUE as a queue id: a number or "ALL" (any case). */
static uint32_t
parse_queue_id(const char *queue)
{
    unsigned int id;
    if (!strcasecmp(queue, "all")) {
        return OFPQ_ALL;
    } else if (str_to_uint(queue, 10, &id)) {
        return id;
    }
    ovs_fatal(0, "%s: queue id must be a number or \"all\"", queue);
}

void
ofctl_queue_stats(struct ovs_cmdl_context *ctx)
{
    struct ofputil_queue_stats_request rq = {
        .port_no = (ctx->argc > 2 ? parse_port(ctx->argv[1], ctx->argv[2])
                    : OFPP_ANY),
        .queue_id = ctx->argc > 3 ? parse_queue_id(ctx->argv[3]) : OFPQ_ALL,
    };
    struct vconn *vconn;
    ofctl_open_vconn(ctx->argv[1], "mgmt", &vconn);
    ofctl_dump_transaction(ctx->argv[1], vconn,
                           ofputil_encode_queue_stats_request(
                               vconn_get_version(vconn), &rq));
    vconn_close(vconn);
}

static void
add_ordinary_port(const struct ofputil_phy_port *pp, void *ports_)
{
    struct ovs_list *ports = ports_;
    if (pp->port_no < OFPP_MAX) {
        struct ofpbuf *request = ofpbuf_new(sizeof pp->port_no);
        ofpbuf_put(request, &pp->port_no, sizeof pp->port_no);
        ovs_list_push_back(ports, &request->list_node);
    }
}

void
ofctl_queue_get_config(struct ovs_cmdl_context *ctx)
{
    const char *switch_name = ctx->argv[1];
    uint32_t port = (ctx->argc > 2 ? parse_port(switch_name, ctx->argv[2])
                     : OFPP_ANY);
    uint32_t queue = ctx->argc > 3 ? parse_queue_id(ctx->argv[3]) : OFPQ_ALL;
    struct vconn *vconn;
    ofctl_open_vconn(switch_name, "mgmt", &vconn);
    enum ofp_version version = vconn_get_version(vconn);
    if (port != OFPP_ANY || version != OFP10_VERSION) {
        ofctl_dump_transaction(switch_name, vconn,
                               ofputil_encode_queue_get_config_request(
                                   version, port, queue));
    } else {
        /* 1.0 asks about one port at a time: ask about each ordinary port
         * the switch has (read on a connection of its own, as 3.1). */
        struct ovs_list ports = OVS_LIST_INITIALIZER(&ports);
        ofctl_read_ports(switch_name, add_ordinary_port, &ports);
        struct ofpbuf *b;
        LIST_FOR_EACH_POP (b, list_node, &ports) {
            uint32_t port_no;
            memcpy(&port_no, b->data, sizeof port_no);
            ofpbuf_delete(b);
            ofctl_dump_transaction(switch_name, vconn,
                                   ofputil_encode_queue_get_config_request(
                                       version, port_no, queue));
        }
    }
    vconn_close(vconn);
}

/* Finding one port by number or name for mod-port. */
struct port_search {
    const char *name;
    uint32_t number;            /* OFPP_NONE: search by name. */
    bool found;
    struct ofputil_phy_port pp;
};

static void
check_port(const struct ofputil_phy_port *pp, void *search_)
{
    struct port_search *search = search_;
    if (!search->found
        && (search->number != OFPP_NONE
            ? pp->port_no == search->number
            : !strcmp(pp->name, search->name))) {
        search->pp = *pp;
        search->found = true;
    }
}

void
ofctl_mod_port(struct ovs_cmdl_context *ctx)
{
    /* What each ACTION sets or clears, and "no-ACTION" or "noACTION" the
     * opposite. */
    static const struct {
        const char *name;
        uint32_t bit;
        bool on;
    } actions[] = {
        { "up", OFPUTIL_PC_PORT_DOWN, false },
        { "down", OFPUTIL_PC_PORT_DOWN, true },
        { "stp", OFPUTIL_PC_NO_STP, false },
        { "receive", OFPUTIL_PC_NO_RECV, false },
        { "receive-stp", OFPUTIL_PC_NO_RECV_STP, false },
        { "forward", OFPUTIL_PC_NO_FWD, false },
        { "flood", OFPUTIL_PC_NO_FLOOD, false },
        { "packet-in", OFPUTIL_PC_NO_PACKET_IN, false },
    };
    const char *switch_name = ctx->argv[1];
    const char *port_name = ctx->argv[2];

    struct port_search search = { .name = port_name, .number = OFPP_NONE };
    unsigned int number;
    if (str_to_uint(port_name, 10, &number)) {
        search.number = number;
    }
    ofctl_read_ports(switch_name, check_port, &search);
    if (!search.found) {
        ovs_fatal(0, "%s: couldn't find port `%s'", switch_name, port_name);
    }

    const char *action = ctx->argv[3];
    bool not = false;
    if (!strncasecmp(action, "no", 2)) {
        action += 2 + (action[2] == '-');
        not = true;
    }
    for (size_t i = 0; i < ARRAY_SIZE(actions); i++) {
        if (!strcasecmp(action, actions[i].name)) {
            struct ofputil_port_mod pm = {
                .port_no = search.pp.port_no,
                .hw_addr = search.pp.hw_addr,
                .mask = actions[i].bit,
                .config = actions[i].on != not ? actions[i].bit : 0,
            };
            struct vconn *vconn;
            ofctl_open_vconn(switch_name, "mgmt", &vconn);
            ofctl_transact_noreply(vconn, ofputil_encode_port_mod(
                                       &pm, vconn_get_version(vconn)));
            vconn_close(vconn);
            return;
        }
    }
    ovs_fatal(0, "unknown mod-port command '%s'", ctx->argv[3]);
}
