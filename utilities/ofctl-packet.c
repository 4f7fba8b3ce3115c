/* ofctl-packet: packet-out.
 *
 * Two syntaxes, as in 3.1:
 *
 *   packet-out SWITCH "in_port=1 packet=HEX actions=output:2"
 *   packet-out SWITCH IN_PORT ACTIONS PACKET...   (one packet_out per
 *                                                  PACKET, in hex)
 *
 * The connection is brought to a protocol that can carry the actions,
 * and each packet_out is followed by a barrier, so that an error reply is
 * printed (status 1) as for flow_mods.  Names of ports are accepted as 3.1
 * accepts them (read from the switch first, unless --no-names). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "command-line.h"
#include "ofctl.h"
#include "ofp-actions.h"
#include "ofp-packet.h"
#include "ofp-parse.h"
#include "ofp-port.h"
#include "ofp-protocol.h"
#include "ofpbuf.h"
#include "util.h"
#include "vconn.h"

/* HEX as an Ethernet frame into PACKET; NULL or 3.1's error message. */
static const char *
ethernet_from_hex(const char *hex, struct ofpbuf *packet)
{
    ofpbuf_clear(packet);
    const char *end = ofpbuf_put_hex(packet, hex, NULL);
    if (*end) {
        return "Trailing garbage in packet data";
    }
    if (packet->size < 14) {
        return "Packet data too short for Ethernet";
    }
    return NULL;
}

void
ofctl_packet_out(struct ovs_cmdl_context *ctx)
{
    const char *switch_name = ctx->argv[1];
    struct ofpbuf ofpacts;
    ofpbuf_init(&ofpacts, 64);
    struct ofputil_packet_out po;
    enum ofputil_protocol usable;
    struct vconn *vconn;

    if (ctx->argc == 3) {
        ofctl_tables_to_accept(switch_name);
        char *error = parse_ofp_packet_out_str(
            &po, ctx->argv[2], ofctl_ports_to_accept(switch_name), &ofpacts,
            &usable);
        if (error) {
            ovs_fatal(0, "%s", error);
        }
        enum ofputil_protocol protocol = ofctl_open_vconn_for_flow_mod(
            switch_name, usable, &vconn);
        ofctl_transact_noreply(vconn, ofputil_encode_packet_out(&po,
                                                                protocol));
        free((void *) po.packet);
    } else if (ctx->argc > 4) {
        const struct ofputil_port_map *port_map
            = ofctl_ports_to_accept(switch_name);
        const struct ofputil_table_map *table_map
            = ofctl_tables_to_accept(switch_name);
        char *error = ofpacts_parse_actions(ctx->argv[3], port_map,
                                            table_map, &ofpacts);
        if (error) {
            ovs_fatal(0, "%s", error);
        }
        uint32_t in_port;
        if (!ofputil_port_from_string(ctx->argv[2], NULL, &in_port)
            && !ofputil_port_from_string(ctx->argv[2], port_map, &in_port)) {
            ovs_fatal(0, "%s: unknown port `%s'", switch_name, ctx->argv[2]);
        }

        memset(&po, 0, sizeof po);
        po.buffer_id = UINT32_MAX;
        match_init_catchall(&po.flow_metadata);
        match_set_in_port(&po.flow_metadata, in_port);
        po.ofpacts = ofpacts.data;
        po.ofpacts_len = ofpacts.size;

        enum ofputil_protocol usable = ofputil_actions_usable_protocols(
            ofpacts.data, ofpacts.size);
        enum ofputil_protocol protocol = ofctl_open_vconn_for_flow_mod(
            switch_name, usable, &vconn);
        struct ofpbuf packet;
        ofpbuf_init(&packet, 64);
        for (int i = 4; i < ctx->argc; i++) {
            const char *msg = ethernet_from_hex(ctx->argv[i], &packet);
            if (msg) {
                ovs_fatal(0, "%s", msg);
            }
            po.packet = packet.data;
            po.packet_len = packet.size;
            ofctl_transact_noreply(vconn,
                                   ofputil_encode_packet_out(&po, protocol));
        }
        ofpbuf_uninit(&packet);
    } else {
        ovs_fatal(0, "Too many arguments (%d)", ctx->argc);
    }
    vconn_close(vconn);
    ofpbuf_uninit(&ofpacts);
}
