/* ofctl-tlv: the TLV map commands, add-tlv-map, del-tlv-map and
 * dump-tlv-map, which map Geneve options to tun_metadata0..63 on a switch
 * (NXT_TLV_TABLE_MOD and NXT_TLV_TABLE_REQUEST, lib/ofp-tlv.h). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include "command-line.h"
#include "ofctl.h"
#include "ofp-print.h"
#include "ofp-tlv.h"
#include "ofpbuf.h"
#include "openflow.h"
#include "util.h"
#include "vconn.h"

/* Sends the table mod COMMAND with the map MAP_TEXT (NULL: none). */
static void
tlv_table_mod(const char *switch_name, uint16_t command, const char *map_text)
{
    struct ofputil_tlv_table_mod ttm;
    char *error = parse_ofp_tlv_table_mod_str(&ttm, command,
                                              map_text ? map_text : "");
    if (error) {
        ovs_fatal(0, "%s", error);
    }

    /* 3.1 first brings a 1.0 connection to NXM, as for a flow change. */
    struct vconn *vconn;
    ofctl_open_vconn_for_flow_mod(switch_name, OFPUTIL_P_NXM_OXM_ANY,
                                  &vconn);
    ofctl_transact_noreply(vconn, ofputil_encode_tlv_table_mod(
                               vconn_get_version(vconn), &ttm));
    vconn_close(vconn);
    ofputil_tlv_table_mod_uninit(&ttm);
}

/* add-tlv-map SWITCH MAP. */
void
ofctl_add_tlv_map(struct ovs_cmdl_context *ctx)
{
    tlv_table_mod(ctx->argv[1], NXTTMC_ADD, ctx->argv[2]);
}

/* del-tlv-map SWITCH [MAP]: without MAP, clears the whole map. */
void
ofctl_del_tlv_map(struct ovs_cmdl_context *ctx)
{
    tlv_table_mod(ctx->argv[1], ctx->argc > 2 ? NXTTMC_DELETE : NXTTMC_CLEAR,
                  ctx->argc > 2 ? ctx->argv[2] : NULL);
}

/* dump-tlv-map SWITCH. */
void
ofctl_dump_tlv_map(struct ovs_cmdl_context *ctx)
{
    struct vconn *vconn;
    ofctl_open_vconn(ctx->argv[1], "mgmt", &vconn);
    struct ofpbuf *reply = ofctl_transact(
        vconn, ofputil_encode_tlv_table_request(vconn_get_version(vconn)));
    ofp_print(stdout, reply->data, reply->size, NULL, ofctl_opts.verbosity + 1);
    ofpbuf_delete(reply);
    vconn_close(vconn);
}
