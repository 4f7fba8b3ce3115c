/* ofctl-flows: commands that send flow text to a switch.
 *
 * add-flow, add-flows, mod-flows and del-flows parse every flow first
 * (a bad one ends the program before anything is sent), work out the
 * protocols all of them can be sent in, bring the connection to one of
 * them (ofctl_open_vconn_for_flow_mod()) and send the flow_mods followed
 * by one barrier; an error reply is printed and is exit status 1.
 * parse-flow and parse-flows do the same offline and print what would be
 * sent, as "ovs-ofctl ofp-print" shows it.
 *
 * Files (add-flows, parse-flows, and "-" as the flow of add-flow): one
 * flow per line, "#" starts a comment, blank lines are skipped, "-" is
 * standard input; errors are "FILE:LINE: error", as in 3.1. */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "command-line.h"
#include "dynamic-string.h"
#include "list.h"
#include "ofctl.h"
#include "ofp-actions.h"
#include "ofp-flow.h"
#include "ofp-msgs.h"
#include "ofp-parse.h"
#include "ofp-print.h"
#include "ofp-protocol.h"
#include "ofpbuf.h"
#include "util.h"
#include "vconn.h"

/* A set of parsed flow_mods with the buffers their actions live in, and
 * the protocols all of them can be sent in. */
struct flow_mods {
    struct ofputil_flow_mod *fms;
    struct ofpbuf *ofpacts;     /* One buffer per flow_mod. */
    size_t n;
    size_t allocated;
    enum ofputil_protocol usable;
};
#define FLOW_MODS_INITIALIZER { .n = 0, .usable = OFPUTIL_P_ANY }

static void
flow_mods_destroy(struct flow_mods *mods)
{
    for (size_t i = 0; i < mods->n; i++) {
        ofpbuf_uninit(&mods->ofpacts[i]);
    }
    free(mods->fms);
    free(mods->ofpacts);
}

/* Parses STRING into a new flow_mod at the end of MODS.  Returns NULL or a
 * malloc'd error. */
static char *
flow_mods_parse(struct flow_mods *mods, const char *string,
                const struct ofputil_port_map *port_map,
                const struct ofputil_table_map *table_map, uint16_t command)
{
    if (mods->n >= mods->allocated) {
        mods->allocated = mods->allocated ? 2 * mods->allocated : 4;
        mods->fms = xrealloc(mods->fms, mods->allocated * sizeof *mods->fms);
        mods->ofpacts = xrealloc(mods->ofpacts,
                                 mods->allocated * sizeof *mods->ofpacts);
        /* The flow_mods point into their buffers, which just moved. */
        for (size_t i = 0; i < mods->n; i++) {
            mods->fms[i].ofpacts = mods->ofpacts[i].data;
        }
    }

    struct ofpbuf *ofpacts = &mods->ofpacts[mods->n];
    ofpbuf_init(ofpacts, 64);
    enum ofputil_protocol usable;
    char *error = parse_ofp_flow_mod_str_protocols(&mods->fms[mods->n],
                                                   string, port_map,
                                                   table_map, command,
                                                   ofpacts, &usable);
    if (error) {
        ofpbuf_uninit(ofpacts);
        return error;
    }
    mods->usable &= usable;
    mods->n++;
    return NULL;
}

/* Parses every flow in FILE_NAME ("-": standard input) as a flow_mod of
 * COMMAND, or, with COMMAND_WORDS, of the command its line starts with
 * (add if none), as 3.1 reads the files of add-flows; fatal on error. */
static void
flow_mods_parse_file(struct flow_mods *mods, const char *file_name,
                     const struct ofputil_port_map *port_map,
                     const struct ofputil_table_map *table_map,
                     uint16_t command, bool command_words)
{
    FILE *stream = !strcmp(file_name, "-") ? stdin : fopen(file_name, "r");
    if (!stream) {
        ovs_fatal(0, "%s: open failed (%s)", file_name, ovs_strerror(errno));
    }

    struct ds line = DS_EMPTY_INITIALIZER;
    int line_number = 0;
    while (!ds_get_preprocessed_line(&line, stream, &line_number)) {
        const char *flow = ds_cstr(&line);
        uint16_t line_command = (command_words
                                 ? parse_ofp_flow_mod_command(&flow)
                                 : command);
        char *error = flow_mods_parse(mods, flow, port_map, table_map,
                                      line_command);
        if (error) {
            ovs_fatal(0, "%s:%d: %s", file_name, line_number, error);
        }
    }
    ds_destroy(&line);
    if (stream != stdin) {
        fclose(stream);
    }
}

/* Sends MODS to SWITCH_NAME, all of them then one barrier. */
static void
flow_mods_send(const char *switch_name, struct flow_mods *mods)
{
    struct vconn *vconn;
    enum ofputil_protocol protocol = ofctl_open_vconn_for_flow_mod(
        switch_name, mods->usable, &vconn);

    struct ovs_list requests = OVS_LIST_INITIALIZER(&requests);
    struct ds hex = DS_EMPTY_INITIALIZER;
    for (size_t i = 0; i < mods->n; i++) {
        struct ofpbuf *msg = ofputil_encode_flow_mod(&mods->fms[i], protocol);
        /* -m five times: each message as a hex dump; more: as one hex
         * number (what Open vSwitch's tests replay with ofctl/send). */
        if (ofctl_opts.verbosity == 5) {
            ds_put_hex_dump(&hex, msg->data, msg->size, 0, true);
        } else if (ofctl_opts.verbosity > 5) {
            ds_put_hex(&hex, msg->data, msg->size);
            ds_put_char(&hex, '\n');
        }
        ovs_list_push_back(&requests, &msg->list_node);
    }
    if (ofctl_opts.bundle) {
        ofctl_bundle_transact(vconn, &requests);
    } else {
        ofctl_transact_multiple_noreply(vconn, &requests);
        fputs(ds_cstr(&hex), stdout);
    }
    ds_destroy(&hex);
    vconn_close(vconn);
}

static void
flow_mod_command(struct ovs_cmdl_context *ctx, uint16_t command)
{
    struct flow_mods mods = FLOW_MODS_INITIALIZER;
    const char *flow = ctx->argc > 2 ? ctx->argv[2] : "";

    /* 3.1 reads the names before parsing, tables first. */
    const struct ofputil_table_map *table_map
        = ofctl_tables_to_accept(ctx->argv[1]);
    const struct ofputil_port_map *port_map
        = ofctl_ports_to_accept(ctx->argv[1]);
    if (!strcmp(flow, "-")) {
        flow_mods_parse_file(&mods, flow, port_map, table_map, command,
                             command == OFPFC_ADD);
    } else {
        char *error = flow_mods_parse(&mods, flow, port_map, table_map,
                                      command);
        if (error) {
            ovs_fatal(0, "%s", error);
        }
    }
    flow_mods_send(ctx->argv[1], &mods);
    flow_mods_destroy(&mods);
}

void
ofctl_add_flow(struct ovs_cmdl_context *ctx)
{
    flow_mod_command(ctx, OFPFC_ADD);
}

void
ofctl_add_flows(struct ovs_cmdl_context *ctx)
{
    struct flow_mods mods = FLOW_MODS_INITIALIZER;
    const struct ofputil_table_map *table_map
        = ofctl_tables_to_accept(ctx->argv[1]);
    flow_mods_parse_file(&mods, ctx->argv[2],
                         ofctl_ports_to_accept(ctx->argv[1]), table_map,
                         OFPFC_ADD, true);
    flow_mods_send(ctx->argv[1], &mods);
    flow_mods_destroy(&mods);
}

void
ofctl_mod_flows(struct ovs_cmdl_context *ctx)
{
    flow_mod_command(ctx, ofctl_opts.strict ? OFPFC_MODIFY_STRICT
                                            : OFPFC_MODIFY);
}

void
ofctl_del_flows(struct ovs_cmdl_context *ctx)
{
    flow_mod_command(ctx, ofctl_opts.strict ? OFPFC_DELETE_STRICT
                                            : OFPFC_DELETE);
}

/* parse-flow(s): what add-flow(s) would send, without a switch. */
static void
print_flow_mods(const struct flow_mods *mods)
{
    enum ofputil_protocol usable = mods->usable;
    char *usable_s = ofputil_protocols_to_string(usable);
    printf("usable protocols: %s\n", usable_s);
    free(usable_s);

    enum ofputil_protocol candidates = usable & ofctl_opts.allowed_protocols;
    if (!candidates) {
        ovs_fatal(0, "no usable protocol");
    }
    enum ofputil_protocol protocol = candidates & -candidates;
    printf("chosen protocol: %s\n", ofputil_protocol_to_string(protocol));

    for (size_t i = 0; i < mods->n; i++) {
        struct ofpbuf *msg = ofputil_encode_flow_mod(&mods->fms[i], protocol);
        ofp_print(stdout, msg->data, msg->size, NULL,
                        ofctl_opts.verbosity);
        ofpbuf_delete(msg);
    }
}

void
ofctl_parse_flow(struct ovs_cmdl_context *ctx)
{
    struct flow_mods mods = FLOW_MODS_INITIALIZER;
    char *error = flow_mods_parse(&mods, ctx->argv[1], NULL, NULL, OFPFC_ADD);
    if (error) {
        ovs_fatal(0, "%s", error);
    }
    print_flow_mods(&mods);
    flow_mods_destroy(&mods);
}

void
ofctl_parse_flows(struct ovs_cmdl_context *ctx)
{
    struct flow_mods mods = FLOW_MODS_INITIALIZER;
    flow_mods_parse_file(&mods, ctx->argv[1], NULL, NULL, OFPFC_ADD,
                         false);
    print_flow_mods(&mods);
    flow_mods_destroy(&mods);
}
