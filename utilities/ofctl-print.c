/* ofctl-print: the ofp-print command, which prints an OpenFlow message
 * given in hex as lib/ofp-print prints it (3.1's text, including its
 * forms for truncated or undecodable messages). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include "command-line.h"
#include "ofctl.h"
#include "ofp-print.h"
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
