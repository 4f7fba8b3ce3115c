/* ofctl-switch: commands about the switch and its ports and tables.
 *
 * show (features, then in 1.3+ the port descriptions, then on a second
 * connection the switch configuration), dump-desc, dump-tables,
 * dump-table-features (1.3+), dump-ports [PORT], dump-ports-desc [PORT]
 * and mod-port SWITCH PORT ACTION print what lib/ofp-print prints for the
 * replies, with 3.1's connections, requests and messages.
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
    bool has_ports = ofputil_switch_features_has_ports(reply->data);
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
     * 3.1 ends the list, as it separates tables, with an empty line. */
    const char *text = ds_cstr(&s);
    fputs(text + (text[0] == '\n'), stdout);
    putchar('\n');
    ds_destroy(&s);
    ofpbuf_list_delete(&replies);
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
    /* What each ACTION sets or clears, and "no-ACTION" the opposite. */
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
    if (!strncasecmp(action, "no-", 3)) {
        action += 3;
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
