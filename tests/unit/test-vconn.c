#include <config.h>
#include "vconn.h"
#include "rconn.h"

/* Unit tests for vconn.h and rconn.h: OpenFlow connections over real Unix
 * and loopback TCP sockets.  Both ends run in this process, driven by the
 * calling thread's poll loop, except where a blocking helper needs a peer
 * in another thread. */

#include <check.h>
#include <stdatomic.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "list.h"
#include "ofp-errors.h"
#include "ofp-msgs.h"
#include "ofp-protocol.h"
#include "ofpbuf.h"
#include "openflow.h"
#include "ovs-thread.h"
#include "poll-loop.h"
#include "stream.h"
#include "timeval.h"
#include "util.h"

#define V(X) (1u << (X))

static char tmpdir[64];

static void
setup(void)
{
    strcpy(tmpdir, "/tmp/test-vconn-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void
teardown(void)
{
    char *cmd = xasprintf("rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
}

/* One round of the poll loop that never sleeps long: tests call it in
 * loops whose exit condition they check themselves. */
static void
spin(void)
{
    poll_timer_wait(10);
    poll_block();
}

/* Patience for things that take real time (a reconnect backoff). */
#define SPIN_UNTIL(COND)                                                \
    do {                                                                \
        long long int deadline_ = time_msec() + 20000;                  \
        while (!(COND)) {                                               \
            ck_assert_msg(time_msec() < deadline_, "timed out: %s", #COND); \
            spin();                                                     \
        }                                                               \
    } while (0)

static struct vconn *
accept_one(struct pvconn *pv)
{
    struct vconn *v = NULL;
    int error;
    SPIN_UNTIL((pvconn_wait(pv), (error = pvconn_accept(pv, &v)) != EAGAIN));
    ck_assert_int_eq(error, 0);
    return v;
}

/* Drives both ends' negotiation to its end; returns their results. */
static void
connect_pair(struct vconn *a, struct vconn *b, int *ea, int *eb)
{
    SPIN_UNTIL((vconn_run_wait(a), vconn_connect_wait(a),
                vconn_run_wait(b), vconn_connect_wait(b),
                (*ea = vconn_connect(a)), (*eb = vconn_connect(b)),
                *ea != EAGAIN && *eb != EAGAIN));
}

static struct ofpbuf *
recv_one(struct vconn *v)
{
    struct ofpbuf *msg = NULL;
    int error;
    SPIN_UNTIL((vconn_run_wait(v), vconn_recv_wait(v),
                (error = vconn_recv(v, &msg)) != EAGAIN));
    ck_assert_msg(!error, "recv: %s", ovs_strerror(error));
    return msg;
}

START_TEST(test_negotiates_highest_common_version)
{
    char *name = xasprintf("punix:%s/sock", tmpdir);
    struct pvconn *pv;
    ck_assert_int_eq(pvconn_open(name, 0, 0, &pv), 0);

    struct vconn *client;
    ck_assert_int_eq(vconn_open(name + 1, V(OFP10_VERSION) | V(OFP13_VERSION),
                                0, &client), 0);
    struct vconn *server = accept_one(pv);
    int ec, es;
    connect_pair(client, server, &ec, &es);
    ck_assert_int_eq(ec, 0);
    ck_assert_int_eq(es, 0);
    ck_assert_int_eq(vconn_get_version(client), OFP13_VERSION);
    ck_assert_int_eq(vconn_get_version(server), OFP13_VERSION);

    /* A message in the agreed version goes through whole. */
    ck_assert_int_eq(vconn_send(client,
                                ofputil_encode_echo_request(OFP13_VERSION)),
                     0);
    struct ofpbuf *msg = recv_one(server);
    const struct ofp_header *oh = msg->data;
    ck_assert_int_eq(oh->type, OFPT_ECHO_REQUEST);
    ck_assert_int_eq(oh->version, OFP13_VERSION);
    ofpbuf_delete(msg);

    vconn_close(client);
    vconn_close(server);
    pvconn_close(pv);
    free(name);
}
END_TEST

START_TEST(test_no_common_version_fails_both_ends)
{
    char *name = xasprintf("punix:%s/sock", tmpdir);
    struct pvconn *pv;
    ck_assert_int_eq(pvconn_open(name, V(OFP10_VERSION), 0, &pv), 0);

    struct vconn *client;
    ck_assert_int_eq(vconn_open(name + 1, V(OFP13_VERSION), 0, &client), 0);
    struct vconn *server = accept_one(pv);
    int ec, es;
    connect_pair(client, server, &ec, &es);
    ck_assert_int_eq(ec, EPROTO);
    ck_assert_int_eq(es, EPROTO);
    ck_assert_int_eq(vconn_get_version(client), -1);

    vconn_close(client);
    vconn_close(server);
    pvconn_close(pv);
    free(name);
}
END_TEST

/* A raw stream speaking as a peer that misbehaves. */
static struct stream *
raw_client(const char *name, struct pvconn *pv, struct vconn **serverp)
{
    struct stream *s;
    ck_assert_int_eq(stream_open(name, &s, 0), 0);
    *serverp = accept_one(pv);
    int error;
    SPIN_UNTIL((stream_run_wait(s), stream_connect_wait(s),
                (error = stream_connect(s)) != EAGAIN));
    ck_assert_int_eq(error, 0);
    struct ofpbuf *hello = ofputil_encode_hello(V(OFP10_VERSION));
    ck_assert_int_eq(stream_send(s, hello->data, hello->size),
                     (int) hello->size);
    ofpbuf_delete(hello);
    return s;
}

static void
raw_recv(struct stream *s, void *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        int retval = stream_recv(s, (char *) buf + got, n - got);
        if (retval == -EAGAIN) {
            stream_recv_wait(s);
            spin();
        } else {
            ck_assert_int_gt(retval, 0);
            got += retval;
        }
    }
}

START_TEST(test_lying_length_closes_connection)
{
    char *name = xasprintf("punix:%s/sock", tmpdir);
    struct pvconn *pv;
    ck_assert_int_eq(pvconn_open(name, 0, 0, &pv), 0);
    struct vconn *server;
    struct stream *s = raw_client(name + 1, pv, &server);

    /* An ofp_header that claims to be 4 bytes long. */
    static const uint8_t bad[] = { 0x01, 0x02, 0x00, 0x04, 0, 0, 0, 1 };
    ck_assert_int_eq(stream_send(s, bad, sizeof bad), (int) sizeof bad);

    struct ofpbuf *msg = NULL;
    int error;
    SPIN_UNTIL((vconn_run_wait(server), vconn_recv_wait(server),
                (error = vconn_recv(server, &msg)) != EAGAIN));
    ck_assert_int_eq(error, EPROTO);
    ck_assert_ptr_null(msg);

    stream_close(s);
    vconn_close(server);
    pvconn_close(pv);
    free(name);
}
END_TEST

START_TEST(test_wrong_version_gets_error_and_connection_stays)
{
    char *name = xasprintf("punix:%s/sock", tmpdir);
    struct pvconn *pv;
    ck_assert_int_eq(pvconn_open(name, 0, 0, &pv), 0);
    struct vconn *server;
    struct stream *s = raw_client(name + 1, pv, &server);
    int error;
    SPIN_UNTIL((vconn_run_wait(server), vconn_connect_wait(server),
                (error = vconn_connect(server)) != EAGAIN));
    ck_assert_int_eq(error, 0);
    ck_assert_int_eq(vconn_get_version(server), OFP10_VERSION);

    /* A features request in 1.3 on a 1.0 connection, then a 1.0 one. */
    static const uint8_t wrong[] = { 0x04, 0x05, 0x00, 0x08, 0, 0, 0, 7 };
    static const uint8_t right[] = { 0x01, 0x05, 0x00, 0x08, 0, 0, 0, 8 };
    ck_assert_int_eq(stream_send(s, wrong, sizeof wrong), 8);
    ck_assert_int_eq(stream_send(s, right, sizeof right), 8);

    struct ofpbuf *msg = recv_one(server);
    ck_assert_int_eq(((struct ofp_header *) msg->data)->xid, htonl(8));
    ofpbuf_delete(msg);

    /* The client got the server's hello and then OFPBRC_BAD_VERSION for
     * xid 7, in the request's version (1.3), carrying the request. */
    uint8_t hdr[8];
    raw_recv(s, hdr, sizeof hdr);
    ck_assert_int_eq(hdr[1], OFPT_HELLO);
    size_t rest = ((hdr[2] << 8) | hdr[3]) - 8;
    uint8_t skip[64];
    raw_recv(s, skip, rest);
    uint8_t err[8 + 4 + 8];
    raw_recv(s, err, sizeof err);
    struct ofpbuf payload;
    ck_assert_int_eq(ofperr_decode_msg((struct ofp_header *) err, &payload),
                     OFPERR_OFPBRC_BAD_VERSION);
    ck_assert_int_eq(err[0], OFP13_VERSION);
    ck_assert_int_eq(payload.size, sizeof wrong);
    ck_assert_mem_eq(payload.data, wrong, sizeof wrong);

    stream_close(s);
    vconn_close(server);
    pvconn_close(pv);
    free(name);
}
END_TEST

/* A switch-like peer in its own thread for the blocking helpers: answers a
 * barrier with a barrier reply, a features request with OFPBRC_BAD_TYPE, a
 * 1.0 flow stats request with two reply parts, and ignores the rest. */
struct peer {
    const char *name;           /* Where to listen. */
    int n_messages;
    atomic_bool done;
};

static struct ofpbuf *
stats_part(const struct ofp_header *request, bool more)
{
    struct ofpbuf *b = ofpbuf_new(12);
    struct ofp_header *oh = ofpbuf_put_zeros(b, sizeof *oh);
    oh->version = OFP10_VERSION;
    oh->type = 17;              /* OFPT10_STATS_REPLY */
    oh->length = htons(12);
    oh->xid = request->xid;
    uint8_t *body = ofpbuf_put_zeros(b, 4);
    body[1] = 1;                /* OFPST_FLOW */
    body[3] = more;
    return b;
}

static void *
peer_main(void *peer_)
{
    struct peer *peer = peer_;
    /* A listener belongs to the thread that opened it. */
    struct pvconn *pv;
    ck_assert_int_eq(pvconn_open(peer->name, 0, 0, &pv), 0);
    struct vconn *v = accept_one(pv);
    for (;;) {
        struct ofpbuf *msg;
        int error = vconn_recv_block(v, &msg);
        if (error) {
            break;
        }
        peer->n_messages++;
        const struct ofp_header *oh = msg->data;
        enum ofptype type;
        ck_assert_int_eq(ofptype_decode(&type, oh), 0);
        if (type == OFPTYPE_BARRIER_REQUEST) {
            struct ofpbuf *reply = ofpraw_alloc_reply(
                OFPRAW_OFPT10_BARRIER_REPLY, oh, 0);
            vconn_send_block(v, reply);
        } else if (type == OFPTYPE_FEATURES_REQUEST) {
            vconn_send_block(v, ofperr_encode_reply(OFPERR_OFPBRC_BAD_TYPE,
                                                    oh));
        } else if (type == OFPTYPE_FLOW_STATS_REQUEST) {
            /* An echo request in between, which the client answers. */
            vconn_send_block(v, ofputil_encode_echo_request(OFP10_VERSION));
            vconn_send_block(v, stats_part(oh, true));
            vconn_send_block(v, stats_part(oh, false));
        }
        ofpbuf_delete(msg);
    }
    vconn_close(v);
    pvconn_close(pv);
    poll_loop_destroy_self();
    atomic_store(&peer->done, true);
    return NULL;
}

START_TEST(test_blocking_transactions)
{
    char *name = xasprintf("punix:%s/sock", tmpdir);
    struct peer peer = { .name = name };
    pthread_t thread = ovs_thread_create("peer", peer_main, &peer);
    char *path = xasprintf("%s/sock", tmpdir);
    SPIN_UNTIL(!access(path, F_OK));
    free(path);

    struct vconn *v;
    ck_assert_int_eq(vconn_open_block(name + 1, V(OFP10_VERSION), 0, -1, &v),
                     0);

    /* A request that provokes an error: the error comes back. */
    struct ofpbuf *request = ofpraw_alloc(OFPRAW_OFPT_FEATURES_REQUEST,
                                          OFP10_VERSION, 0);
    ovs_be32 xid = ((struct ofp_header *) request->data)->xid;
    struct ofpbuf *reply;
    ck_assert_int_eq(vconn_transact_noreply(v, request, &reply), 0);
    ck_assert_ptr_nonnull(reply);
    ck_assert_int_eq(((struct ofp_header *) reply->data)->xid, xid);
    ck_assert_int_eq(ofperr_decode_msg(reply->data, NULL),
                     OFPERR_OFPBRC_BAD_TYPE);
    ofpbuf_delete(reply);

    /* One that provokes nothing: no reply, once the barrier came back. */
    request = ofpraw_alloc(OFPRAW_OFPT_SET_CONFIG, OFP10_VERSION, 0);
    ofpmsg_update_length(request);
    ck_assert_int_eq(vconn_transact_noreply(v, request, &reply), 0);
    ck_assert_ptr_null(reply);

    /* A multipart dump collects both parts, answering the echo between. */
    request = ofpraw_alloc(OFPRAW_OFPST10_FLOW_REQUEST, OFP10_VERSION, 0);
    ofpmsg_update_length(request);
    struct ovs_list replies;
    ovs_list_init(&replies);
    ck_assert_int_eq(vconn_dump_multipart(v, request, &replies), 0);
    ck_assert_int_eq(ovs_list_size(&replies), 2);
    ofpbuf_list_delete(&replies);

    /* Closing finishes in this thread's event loop, which must run for
     * the peer to see the end of the connection. */
    vconn_close(v);
    SPIN_UNTIL(atomic_load(&peer.done));
    xpthread_join(thread, NULL);
    /* features, set_config, 2 barriers, flow stats, echo reply. */
    ck_assert_int_eq(peer.n_messages, 6);
    free(name);
}
END_TEST

/* Receives on RC, which must hand its owner nothing. */
static void
recv_nothing(struct rconn *rc)
{
    struct ofpbuf *msg = rconn_recv(rc);
    ck_assert_ptr_null(msg);
}

START_TEST(test_rconn_reconnects_after_backoff)
{
    char *path = xasprintf("unix:%s/later", tmpdir);
    struct rconn *rc = rconn_create(5, 1, 0, 0);
    rconn_connect(rc, path, NULL);
    SPIN_UNTIL((rconn_run(rc), rconn_get_last_error(rc) != 0));
    ck_assert(!rconn_is_connected(rc));
    ck_assert(rconn_is_alive(rc));
    unsigned int seqno = rconn_get_connection_seqno(rc);

    /* The listener appears; the next attempt after the backoff works. */
    struct pvconn *pv;
    char *pname = xasprintf("p%s", path);
    ck_assert_int_eq(pvconn_open(pname, 0, 0, &pv), 0);
    struct vconn *server = NULL;
    SPIN_UNTIL((rconn_run(rc), rconn_run_wait(rc), pvconn_wait(pv),
                (server ? (vconn_run_wait(server),
                           vconn_connect_wait(server), 0) : 0),
                (server || !pvconn_accept(pv, &server))
                && !vconn_connect(server) && rconn_is_connected(rc)));
    ck_assert_int_eq(rconn_get_version(rc), OFP15_VERSION);
    ck_assert_str_eq(rconn_get_state(rc), "ACTIVE");
    ck_assert_uint_ne(rconn_get_connection_seqno(rc), seqno);

    /* The peer hangs up: the rconn notices and will retry. */
    vconn_close(server);
    SPIN_UNTIL((rconn_run(rc), rconn_run_wait(rc), rconn_recv_wait(rc),
                recv_nothing(rc), !rconn_is_connected(rc)));
    ck_assert_int_eq(rconn_get_last_error(rc), EOF);
    ck_assert(rconn_is_alive(rc));

    rconn_destroy(rc);
    pvconn_close(pv);
    free(pname);
    free(path);
}
END_TEST

START_TEST(test_rconn_probes_answers_echo_and_gives_up)
{
    struct pvconn *pv;
    ck_assert_int_eq(pvconn_open("ptcp:0:127.0.0.1", 0, 0, &pv), 0);
    char *target = xasprintf("tcp:127.0.0.1:%u", pvconn_get_bound_port(pv));

    struct rconn *rc = rconn_create(5, 8, 0, V(OFP13_VERSION));
    rconn_connect(rc, target, "ctl");
    struct vconn *server = NULL;
    SPIN_UNTIL((rconn_run(rc), rconn_run_wait(rc), pvconn_wait(pv),
                (server ? (vconn_run_wait(server),
                           vconn_connect_wait(server), 0) : 0),
                (server || !pvconn_accept(pv, &server))
                && !vconn_connect(server) && rconn_is_connected(rc)));

    /* The rconn answers the peer's echo itself; its owner sees nothing. */
    struct ofpbuf *echo = ofputil_encode_echo_request(OFP13_VERSION);
    ovs_be32 echo_xid = ((struct ofp_header *) echo->data)->xid;
    ck_assert_int_eq(vconn_send(server, echo), 0);
    struct ofpbuf *msg = NULL;
    SPIN_UNTIL((rconn_run(rc), rconn_run_wait(rc), rconn_recv_wait(rc),
                recv_nothing(rc), vconn_recv_wait(server),
                !vconn_recv(server, &msg)));
    ck_assert_int_eq(((struct ofp_header *) msg->data)->type,
                     OFPT_ECHO_REPLY);
    ck_assert_int_eq(((struct ofp_header *) msg->data)->xid, echo_xid);
    ofpbuf_delete(msg);

    /* Five quiet seconds: a probe.  Five more unanswered: disconnected. */
    time_stop();
    time_warp(5000);
    recv_nothing(rc);           /* The probe waits for a read attempt. */
    rconn_run(rc);
    ck_assert_str_eq(rconn_get_state(rc), "IDLE");
    SPIN_UNTIL((vconn_recv_wait(server), !vconn_recv(server, &msg)));
    ck_assert_int_eq(((struct ofp_header *) msg->data)->type,
                     OFPT_ECHO_REQUEST);
    ofpbuf_delete(msg);
    time_warp(5000);
    recv_nothing(rc);
    rconn_run(rc);
    ck_assert(!rconn_is_connected(rc));
    ck_assert_int_eq(rconn_get_last_error(rc), ETIMEDOUT);
    ck_assert_str_eq(rconn_get_state(rc), "BACKOFF");

    vconn_close(server);
    rconn_destroy(rc);
    pvconn_close(pv);
    free(target);
}
END_TEST

START_TEST(test_rconn_counts_until_sent_and_limits)
{
    char *name = xasprintf("punix:%s/sock", tmpdir);
    struct pvconn *pv;
    ck_assert_int_eq(pvconn_open(name, 0, 0, &pv), 0);
    struct vconn *v;
    ck_assert_int_eq(vconn_open(name + 1, 0, 0, &v), 0);
    struct vconn *server = accept_one(pv);
    struct rconn *rc = rconn_create(0, 8, 0, 0);
    rconn_connect_unreliably(rc, server, NULL);
    SPIN_UNTIL((rconn_run(rc), rconn_run_wait(rc), vconn_run(v),
                vconn_run_wait(v), vconn_connect_wait(v),
                !vconn_connect(v) && rconn_is_connected(rc)));

    /* Not connected messages are refused; a full counter drops. */
    struct rconn_packet_counter *counter = rconn_packet_counter_create();
    ck_assert_int_eq(rconn_send_with_limit(
                         rc, ofputil_encode_echo_request(OFP15_VERSION),
                         counter, 0), EAGAIN);
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(rconn_send_with_limit(
                             rc, ofputil_encode_barrier_request(OFP15_VERSION),
                             counter, 10), 0);
    }
    ck_assert_uint_le(counter->n_packets, 3);
    for (int i = 0; i < 3; i++) {
        ofpbuf_delete(recv_one(v));
    }
    SPIN_UNTIL((rconn_run(rc), rconn_run_wait(rc), counter->n_packets == 0));
    ck_assert_uint_eq(counter->n_bytes, 0);

    /* The peer leaves: an unreliable rconn is then dead for good. */
    vconn_close(v);
    SPIN_UNTIL((rconn_run(rc), rconn_run_wait(rc), rconn_recv_wait(rc),
                recv_nothing(rc), !rconn_is_alive(rc)));
    ck_assert_int_eq(rconn_send(rc, ofputil_encode_barrier_request(
                                    OFP15_VERSION), counter), ENOTCONN);
    ck_assert_uint_eq(counter->n_packets, 0);

    rconn_destroy(rc);
    rconn_packet_counter_destroy(counter);
    pvconn_close(pv);
    free(name);
}
END_TEST

/* Corked, a burst larger than the queue limit still goes out whole when
 * the peer keeps up: the limit counts what the kernel has not taken, not
 * what the cork gathered. */
START_TEST(test_rconn_cork_gathers_without_hitting_limits)
{
    char *name = xasprintf("punix:%s/sock", tmpdir);
    struct pvconn *pv;
    ck_assert_int_eq(pvconn_open(name, 0, 0, &pv), 0);
    struct vconn *v;
    ck_assert_int_eq(vconn_open(name + 1, 0, 0, &v), 0);
    struct vconn *server = accept_one(pv);
    struct rconn *rc = rconn_create(0, 8, 0, 0);
    rconn_connect_unreliably(rc, server, NULL);
    SPIN_UNTIL((rconn_run(rc), rconn_run_wait(rc), vconn_run(v),
                vconn_run_wait(v), vconn_connect_wait(v),
                !vconn_connect(v) && rconn_is_connected(rc)));

    enum { N = 50, LIMIT = 10 };
    struct rconn_packet_counter *counter = rconn_packet_counter_create();
    rconn_cork(rc);
    for (int i = 0; i < N; i++) {
        struct ofpbuf *echo = ofputil_encode_echo_request(OFP15_VERSION);
        ((struct ofp_header *) echo->data)->xid = htonl(i);
        ck_assert_int_eq(rconn_send_with_limit(rc, echo, counter, LIMIT), 0);
        ck_assert_uint_le(counter->n_packets, LIMIT);
    }
    rconn_uncork(rc);

    /* All of them, in order. */
    for (int i = 0; i < N; i++) {
        struct ofpbuf *msg = recv_one(v);
        ck_assert_int_eq(ntohl(((struct ofp_header *) msg->data)->xid), i);
        ofpbuf_delete(msg);
    }
    SPIN_UNTIL((rconn_run(rc), rconn_run_wait(rc), counter->n_packets == 0));

    vconn_close(v);
    rconn_destroy(rc);
    rconn_packet_counter_destroy(counter);
    pvconn_close(pv);
    free(name);
}
END_TEST

static Suite *
vconn_suite(void)
{
    Suite *s = suite_create("vconn");
    TCase *tc = tcase_create("vconn");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_negotiates_highest_common_version);
    tcase_add_test(tc, test_no_common_version_fails_both_ends);
    tcase_add_test(tc, test_lying_length_closes_connection);
    tcase_add_test(tc, test_wrong_version_gets_error_and_connection_stays);
    tcase_add_test(tc, test_blocking_transactions);
    suite_add_tcase(s, tc);

    tc = tcase_create("rconn");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_rconn_reconnects_after_backoff);
    tcase_add_test(tc, test_rconn_probes_answers_echo_and_gives_up);
    tcase_add_test(tc, test_rconn_counts_until_sent_and_limits);
    tcase_add_test(tc, test_rconn_cork_gathers_without_hitting_limits);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(vconn_suite());
    srunner_run_all(sr, CK_NORMAL);
    int n_failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    poll_loop_destroy_self();
    return n_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
