/* ofctl-print: the ofp-print command, which prints an OpenFlow message
 * given in hex as lib/ofp-print prints it (3.1's text, including its
 * forms for truncated or undecodable messages); encode-error-reply,
 * which prints in hex the error reply the switch would send, and
 * print-error, which prints an error's numbers in each version. */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "command-line.h"
#include "dynamic-string.h"
#include "ofctl.h"
#include "ofp-errors.h"
#include "ofp-print.h"
#include "ofpbuf.h"
#include "openflow.h"
#include "util.h"

/* ofp-print HEX [VERBOSITY]: HEX may have white space between bytes. */
void
ofctl_ofp_print(struct ovs_cmdl_context *ctx)
{
    /* As 3.1: 2 unless given (-m does not count here). */
    int verbosity = ctx->argc > 2 ? atoi(ctx->argv[2]) : 2;
    char *error = NULL;
    char *text = ofp_hex_to_string(ctx->argv[1], NULL, verbosity, &error);
    if (!text) {
        ovs_fatal(0, "%s", error);
    }
    fputs(text, stdout);
    free(text);
}

/* encode-error-reply ERROR REQUEST: the reply to REQUEST (an OpenFlow
 * message in hex) for the error named ERROR (OFPBRC_BAD_TYPE, ...), in
 * the encoding REQUEST's version calls for, as a hex dump. */
void
ofctl_encode_error_reply(struct ovs_cmdl_context *ctx)
{
    enum ofperr error = ofperr_from_name(ctx->argv[1]);
    if (!error) {
        ovs_fatal(0, "unknown error \"%s\"", ctx->argv[1]);
    }
    struct ofpbuf request;
    ofpbuf_init(&request, 0);
    if (*ofpbuf_put_hex(&request, ctx->argv[2], NULL) != '\0') {
        ovs_fatal(0, "Trailing garbage in hex data");
    }
    if (request.size < sizeof(struct ofp_header)) {
        ovs_fatal(0, "Request too short");
    }
    struct ofpbuf *reply = ofperr_encode_reply(error, request.data);
    struct ds s = DS_EMPTY_INITIALIZER;
    ds_put_hex_dump(&s, reply->data, reply->size, 0, false);
    fputs(ds_cstr(&s), stdout);
    ds_destroy(&s);
    ofpbuf_delete(reply);
    ofpbuf_uninit(&request);
}

/* print-error ERROR: ERROR's vendor, type and code in each OpenFlow
 * version that has it. */
void
ofctl_print_error(struct ovs_cmdl_context *ctx)
{
    enum ofperr error = ofperr_from_name(ctx->argv[1]);
    if (!error) {
        ovs_fatal(0, "unknown error \"%s\"", ctx->argv[1]);
    }
    for (int version = OFP10_VERSION; version <= OFP15_VERSION; version++) {
        uint32_t vendor;
        int type, code;
        if (ofperr_get_numbers(error, version, &vendor, &type, &code)) {
            printf("OpenFlow 1.%d: vendor %#"PRIx32", type %d, code %d\n",
                   version - 1, vendor, type, code);
        }
    }
}
