/* ofctl-bundle: bundle SWITCH FILE.
 *
 * FILE holds one message a line, as 3.1 reads it: "flow" and a flow (which
 * may start with a command word: add, delete, modify, ...), "group" and a
 * group (with its command words: add, delete, insert_bucket, ...), or
 * "packet-out" and a packet-out's text; each keyword may be shortened to
 * any prefix.  Every line is parsed first (an error is "FILE:LINE:
 * error"), with the switch's names read in the versions -O allows; then
 * the messages go in one atomic, ordered bundle, in the versions that have
 * bundles (ofctl_bundle_versions()), and each error the switch reports is
 * printed with the message it concerns, as for --bundle. */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "command-line.h"
#include "dynamic-string.h"
#include "list.h"
#include "ofctl.h"
#include "ofp-flow.h"
#include "ofp-group.h"
#include "ofp-packet.h"
#include "ofp-parse.h"
#include "ofp-protocol.h"
#include "ofpbuf.h"
#include "util.h"
#include "vconn.h"

/* One line of the file, parsed. */
struct bundle_line {
    enum { BL_FLOW, BL_GROUP, BL_PACKET_OUT } type;
    struct ofpbuf ofpacts;      /* The flow's or packet_out's actions. */
    union {
        struct ofputil_flow_mod fm;
        struct ofputil_group_mod gm;
        struct ofputil_packet_out po;
    };
};

/* Parses TEXT, one line of a bundle file, into LINE.  Returns NULL or a
 * malloc'd error; *USABLE gets the protocols that can carry it. */
static char *
bundle_line_parse(struct bundle_line *line, const char *text,
                  const struct ofputil_port_map *port_map,
                  const struct ofputil_table_map *table_map,
                  enum ofputil_protocol *usable)
{
    static const char *const keywords[] = { "flow", "group", "packet-out" };

    text += strspn(text, " \t\r\n");
    size_t len = strcspn(text, ", \t\r\n");
    size_t i;
    for (i = 0; i < ARRAY_SIZE(keywords); i++) {
        if (!strncmp(text, keywords[i], len)) {
            break;
        }
    }
    if (i == ARRAY_SIZE(keywords)) {
        return xasprintf("Unsupported bundle message type: %.*s", (int) len,
                         text);
    }
    text += len;

    ofpbuf_init(&line->ofpacts, 64);
    char *error;
    if (i == 0) {
        line->type = BL_FLOW;
        uint16_t command = parse_ofp_flow_mod_command(&text);
        error = parse_ofp_flow_mod_str_protocols(&line->fm, text, port_map,
                                                 table_map, command,
                                                 &line->ofpacts, usable);
    } else if (i == 1) {
        line->type = BL_GROUP;
        int command = parse_ofp_group_mod_command(&text);
        error = parse_ofp_group_mod_str(&line->gm, command, text, port_map,
                                        usable);
    } else {
        line->type = BL_PACKET_OUT;
        error = parse_ofp_packet_out_str(&line->po, text, port_map,
                                         &line->ofpacts, usable);
    }
    if (error) {
        ofpbuf_uninit(&line->ofpacts);
    }
    return error;
}

static void
bundle_line_uninit(struct bundle_line *line)
{
    if (line->type == BL_GROUP) {
        ofputil_uninit_group_mod(&line->gm);
    } else if (line->type == BL_PACKET_OUT) {
        free((void *) line->po.packet);
    }
    ofpbuf_uninit(&line->ofpacts);
}

static struct ofpbuf *
bundle_line_encode(struct bundle_line *line, enum ofputil_protocol protocol)
{
    /* The actions live in OFPACTS, which may have moved since. */
    if (line->type == BL_FLOW) {
        line->fm.ofpacts = line->ofpacts.data;
        return ofputil_encode_flow_mod(&line->fm, protocol);
    } else if (line->type == BL_GROUP) {
        return ofctl_encode_group_mod(
            &line->gm, ofputil_protocol_to_ofp_version(protocol));
    } else {
        line->po.ofpacts = line->ofpacts.data;
        return ofputil_encode_packet_out(&line->po, protocol);
    }
}

void
ofctl_bundle(struct ovs_cmdl_context *ctx)
{
    const char *switch_name = ctx->argv[1];
    const char *file_name = ctx->argv[2];

    /* As 3.1: the names first, in the versions -O allows. */
    const struct ofputil_table_map *table_map
        = ofctl_tables_to_accept(switch_name);
    const struct ofputil_port_map *port_map
        = ofctl_ports_to_accept(switch_name);

    FILE *stream = !strcmp(file_name, "-") ? stdin : fopen(file_name, "r");
    if (!stream) {
        ovs_fatal(0, "%s: open failed (%s)", file_name, ovs_strerror(errno));
    }
    /* Each line on its own: a group's bucket list head must not move. */
    struct bundle_line **lines = NULL;
    size_t n = 0, allocated = 0;
    enum ofputil_protocol usable = OFPUTIL_P_ANY;
    struct ds text = DS_EMPTY_INITIALIZER;
    int line_number = 0;
    while (!ds_get_preprocessed_line(&text, stream, &line_number)) {
        if (n >= allocated) {
            lines = x2nrealloc(lines, &allocated, sizeof *lines);
        }
        enum ofputil_protocol line_usable;
        lines[n] = xmalloc(sizeof *lines[n]);
        char *error = bundle_line_parse(lines[n], ds_cstr(&text), port_map,
                                        table_map, &line_usable);
        if (error) {
            ovs_fatal(0, "%s:%d: %s", file_name, line_number, error);
        }
        usable &= line_usable;
        n++;
    }
    ds_destroy(&text);
    if (stream != stdin) {
        fclose(stream);
    }

    /* Then the bundle, in a version that has bundles. */
    ofctl_opts.allowed_versions = ofctl_bundle_versions(
        ofctl_opts.allowed_versions);
    ofctl_opts.allowed_protocols = ofputil_protocols_from_version_bitmap(
        ofctl_opts.allowed_versions);
    struct vconn *vconn;
    enum ofputil_protocol protocol = ofctl_open_vconn_for_flow_mod(
        switch_name, usable, &vconn);

    struct ovs_list requests = OVS_LIST_INITIALIZER(&requests);
    for (size_t i = 0; i < n; i++) {
        struct ofpbuf *msg = bundle_line_encode(lines[i], protocol);
        ovs_list_push_back(&requests, &msg->list_node);
        bundle_line_uninit(lines[i]);
        free(lines[i]);
    }
    free(lines);
    ofctl_bundle_transact(vconn, &requests);
    vconn_close(vconn);
}
