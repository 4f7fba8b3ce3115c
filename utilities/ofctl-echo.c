/* ofctl-echo: probe, ping and benchmark, which need nothing from an
 * OpenFlow peer but echo replies (so they work against controllers too).
 *
 * ping sends ten echo requests carrying N random bytes (64 by default),
 * one after the other, and prints the round trip of each; a reply that does
 * not carry the request's payload back is shown next to its request.
 * benchmark sends COUNT echo requests of N zero bytes, each after the
 * previous reply, and prints the rate.  Output and messages are 3.1's,
 * down to printing "-nan" packets/s for a count of zero. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include "command-line.h"
#include "ofctl.h"
#include "ofp-msgs.h"
#include "ofp-print.h"
#include "ofp-protocol.h"
#include "ofpbuf.h"
#include "timeval.h"
#include "util.h"
#include "vconn.h"

/* The largest echo payload a 16-bit OpenFlow length allows. */
#define MAX_ECHO_PAYLOAD (UINT16_MAX - sizeof(struct ofp_header))

static int
parse_payload_size(const char *s)
{
    /* As 3.1: atoi(), so text reads as 0. */
    int payload = atoi(s);
    if (payload < 0 || payload > (int) MAX_ECHO_PAYLOAD) {
        ovs_fatal(0, "payload must be between 0 and %zu bytes",
                  MAX_ECHO_PAYLOAD);
    }
    return payload;
}

void
ofctl_probe(struct ovs_cmdl_context *ctx)
{
    struct vconn *vconn;
    ofctl_open_vconn(ctx->argv[1], "mgmt", &vconn);

    struct ofpbuf *request
        = ofputil_encode_echo_request(vconn_get_version(vconn));
    struct ofpbuf *reply;
    ofctl_run(vconn_transact(vconn, request, &reply), "talking to %s",
              ctx->argv[1]);
    if (reply->size != sizeof(struct ofp_header)) {
        ovs_fatal(0, "reply does not match request");
    }
    ofpbuf_delete(reply);
    vconn_close(vconn);
}

/* Whether REPLY is an echo reply carrying REQUEST's payload. */
static bool
echo_reply_matches(const struct ofpbuf *request, const struct ofpbuf *reply)
{
    const struct ofp_header *rq = request->data;
    const struct ofp_header *rpy = reply->data;
    enum ofptype type;

    return (!ofptype_decode(&type, rpy)
            && type == OFPTYPE_ECHO_REPLY
            && reply->size == request->size
            && rpy->xid == rq->xid
            && !memcmp(rq + 1, rpy + 1, request->size - sizeof *rq));
}

static void
fill_random(void *p, size_t n)
{
    uint8_t *bytes = p;
    while (n > 0) {
        ssize_t got = getrandom(bytes, n, 0);
        if (got < 0) {
            /* Random content is not the point: any bytes will do. */
            memset(bytes, 0x5a, n);
            return;
        }
        bytes += got;
        n -= got;
    }
}

void
ofctl_ping(struct ovs_cmdl_context *ctx)
{
    int payload = ctx->argc > 2 ? parse_payload_size(ctx->argv[2]) : 64;

    struct vconn *vconn;
    ofctl_open_vconn(ctx->argv[1], "mgmt", &vconn);
    for (int i = 0; i < 10; i++) {
        /* A fresh xid for each (3.1 prints them). */
        struct ofpbuf *request = ofpraw_alloc(OFPRAW_OFPT_ECHO_REQUEST,
                                              vconn_get_version(vconn),
                                              payload);
        fill_random(ofpbuf_put_uninit(request, payload), payload);
        ofpmsg_update_length(request);

        long long int start = time_usec_real();
        struct ofpbuf *reply;
        ofctl_run(vconn_transact(vconn, ofpbuf_clone(request), &reply),
                  "transact");
        long long int end = time_usec_real();

        if (!echo_reply_matches(request, reply)) {
            printf("Reply does not match request.  Request:\n");
            ofp_print(stdout, request->data, request->size, NULL,
                            ofctl_opts.verbosity + 2);
            printf("Reply:\n");
            ofp_print(stdout, reply->data, reply->size, NULL,
                            ofctl_opts.verbosity + 2);
        }
        const struct ofp_header *rpy = reply->data;
        printf("%zu bytes from %s: xid=%08"PRIx32" time=%.1f ms\n",
               reply->size - sizeof *rpy, ctx->argv[1], ntohl(rpy->xid),
               (end - start) / 1000.0);
        ofpbuf_delete(request);
        ofpbuf_delete(reply);
    }
    vconn_close(vconn);
}

void
ofctl_benchmark(struct ovs_cmdl_context *ctx)
{
    int payload = parse_payload_size(ctx->argv[2]);
    unsigned int message_size = sizeof(struct ofp_header) + payload;
    int count = atoi(ctx->argv[3]);

    /* 3.1 multiplies in unsigned arithmetic, and so prints a negative
     * count's total as a large number. */
    printf("Sending %d packets * %u bytes (with header) = %u bytes total\n",
           count, message_size, count * message_size);

    struct vconn *vconn;
    ofctl_open_vconn(ctx->argv[1], "mgmt", &vconn);
    long long int start = time_usec_real();
    for (int i = 0; i < count; i++) {
        struct ofpbuf *request = ofpraw_alloc(OFPRAW_OFPT_ECHO_REQUEST,
                                              vconn_get_version(vconn),
                                              payload);
        ofpbuf_put_zeros(request, payload);
        ofpmsg_update_length(request);

        struct ofpbuf *reply;
        ofctl_run(vconn_transact(vconn, request, &reply), "transact");
        ofpbuf_delete(reply);
    }
    long long int end = time_usec_real();

    double duration_ms = (end - start) / 1000.0;
    double duration_s = duration_ms / 1000.0;
    printf("Finished in %.1f ms (%.0f packets/s) (%.0f bytes/s)\n",
           duration_ms, count / duration_s, count * message_size / duration_s);
    vconn_close(vconn);
}
