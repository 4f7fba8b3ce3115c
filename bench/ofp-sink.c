/* ofp-sink: a controller that only counts, for bench/ofctl.sh.
 *
 * usage: ofp-sink LISTEN PORTFILE SECONDS
 *
 * Listens on LISTEN (a pvconn name such as "ptcp:0:127.0.0.1"), writes the
 * bound TCP port to PORTFILE once listening, accepts one switch, and from
 * the first packet-in on counts packet-ins for SECONDS seconds; then prints
 * "N" (packet-ins received in the window) and exits.  Echo requests are
 * answered (rconn does that), so the switch keeps the connection. */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "ofpbuf.h"
#include "openflow.h"
#include "poll-loop.h"
#include "rconn.h"
#include "timeval.h"
#include "util.h"
#include "vconn.h"
#include "vlog.h"

int
main(int argc, char *argv[])
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s LISTEN PORTFILE SECONDS\n", argv[0]);
        return 2;
    }
    vlog_set_levels_from_string_assert("console:off");
    long long int window_ms = atoll(argv[3]) * 1000;

    struct pvconn *pv;
    int error = pvconn_open(argv[1], 0, 0, &pv);
    if (error) {
        fprintf(stderr, "%s: %s\n", argv[1], ovs_strerror(error));
        return 1;
    }
    FILE *portfile = fopen(argv[2], "w");
    if (!portfile) {
        fprintf(stderr, "%s: %s\n", argv[2], ovs_strerror(errno));
        return 1;
    }
    fprintf(portfile, "%u\n", pvconn_get_bound_port(pv));
    fclose(portfile);

    struct rconn *rc = NULL;
    long long int start = 0;
    unsigned long long int n = 0;
    for (;;) {
        if (!rc) {
            struct vconn *vconn;
            if (!pvconn_accept(pv, &vconn)) {
                rc = rconn_create(0, 8, 0, 0);
                rconn_connect_unreliably(rc, vconn, NULL);
            }
        }
        if (rc) {
            rconn_run(rc);
            for (int i = 0; i < 1000; i++) {
                struct ofpbuf *msg = rconn_recv(rc);
                if (!msg) {
                    break;
                }
                const struct ofp_header *oh = msg->data;
                /* OFPT_PACKET_IN is type 10 in every version; the bench
                 * leaves the packet-in format at its default. */
                if (oh->type == 10) {
                    if (!start) {
                        start = time_msec();
                    }
                    n++;
                }
                ofpbuf_delete(msg);
            }
            if (!rconn_is_alive(rc)) {
                break;
            }
        }
        if (start && time_msec() - start >= window_ms) {
            break;
        }

        if (rc) {
            rconn_run_wait(rc);
            rconn_recv_wait(rc);
        } else {
            pvconn_wait(pv);
        }
        if (start) {
            poll_timer_wait_until(start + window_ms);
        }
        poll_block();
    }
    printf("%llu\n", n);
    rconn_destroy(rc);
    pvconn_close(pv);
    return 0;
}
