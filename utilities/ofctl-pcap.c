/* ofctl-pcap: parse-pcap FILE..., each packet of each capture as the flow
 * it is (3.1's flow format, one line per packet, input port ANY), so that
 * tests can check what a dummy device's pcap option recorded. */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "command-line.h"
#include "dp-packet.h"
#include "dynamic-string.h"
#include "flow-extract.h"
#include "match.h"
#include "ofctl.h"
#include "openflow.h"
#include "pcap-file.h"
#include "util.h"

void
ofctl_parse_pcap(struct ovs_cmdl_context *ctx)
{
    int status = 0;
    for (int i = 1; i < ctx->argc; i++) {
        const char *file_name = ctx->argv[i];
        FILE *file = pcap_open_read(file_name);
        if (!file) {
            status = errno;
            ovs_error(status, "%s: open failed", file_name);
            continue;
        }
        for (;;) {
            struct dp_packet *packet;
            int error = pcap_read(file, &packet);
            if (error == EOF) {
                break;
            } else if (error) {
                status = error;
                ovs_error(error, "%s: read failed", file_name);
                break;
            }
            struct flow flow;
            flow_extract(packet, &flow);
            flow.in_port = OFPP_NONE;
            struct ds s = DS_EMPTY_INITIALIZER;
            flow_format(&flow, &s);
            puts(ds_cstr(&s));
            ds_destroy(&s);
            dp_packet_delete(packet);
        }
        fclose(file);
    }
    exit(status);
}
