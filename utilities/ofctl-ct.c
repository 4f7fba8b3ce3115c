/* ofctl-ct: the connection tracking commands, ct-flush-zone and ct-flush,
 * which send Nicira's flush requests (lib/ofp-ct.h) with a barrier. */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include "command-line.h"
#include "ofctl.h"
#include "ofp-ct.h"
#include "ofp-parse.h"
#include "ofpbuf.h"
#include "util.h"
#include "vconn.h"

/* ct-flush-zone SWITCH ZONE. */
void
ofctl_ct_flush_zone(struct ovs_cmdl_context *ctx)
{
    uint64_t zone;
    char *error = ofputil_parse_uint(ctx->argv[2], UINT16_MAX, &zone);
    if (error) {
        free(error);
        ovs_fatal(0, "invalid zone_id \"%s\"", ctx->argv[2]);
    }
    struct vconn *vconn;
    ofctl_open_vconn(ctx->argv[1], "mgmt", &vconn);
    ofctl_transact_noreply(vconn, ofputil_encode_ct_flush_zone(
                               zone, vconn_get_version(vconn)));
    vconn_close(vconn);
}

/* ct-flush SWITCH [zone=N] [ORIG_TUPLE [REPLY_TUPLE]]: an empty tuple
 * argument stands for none, so that a reply tuple can come alone. */
void
ofctl_ct_flush(struct ovs_cmdl_context *ctx)
{
    struct ofputil_ct_match match;
    memset(&match, 0, sizeof match);
    uint16_t zone, *zonep = NULL;
    int arg = 2;

    if (arg < ctx->argc && !strncmp(ctx->argv[arg], "zone=", 5)) {
        uint64_t x;
        char *error = ofputil_parse_uint(ctx->argv[arg] + 5, UINT16_MAX, &x);
        if (error) {
            free(error);
            ovs_fatal(0, "Failed to parse zone");
        }
        zone = x;
        zonep = &zone;
        arg++;
    }
    for (int i = 0; i < 2 && arg < ctx->argc; i++, arg++) {
        if (!ctx->argv[arg][0]) {
            continue;
        }
        char *error = ofputil_ct_tuple_parse(i ? &match.reply : &match.orig,
                                             ctx->argv[arg], &match.ip_proto,
                                             &match.l3_type);
        if (error) {
            ovs_fatal(0, "Failed to parse ct-tuple: %s", error);
        }
    }

    struct vconn *vconn;
    ofctl_open_vconn(ctx->argv[1], "mgmt", &vconn);
    ofctl_transact_noreply(vconn, ofputil_encode_ct_flush(
                               &match, zonep, vconn_get_version(vconn)));
    vconn_close(vconn);
}
