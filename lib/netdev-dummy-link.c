#include <config.h>
#include "netdev-dummy-link.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "coverage.h"
#include "dp-packet.h"
#include "ofpbuf.h"
#include "packets.h"
#include "reconnect.h"
#include "socket-util.h"
#include "stream.h"
#include "timeval.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(netdev_dummy_link);
COVERAGE_DEFINE(dummy_link_tx_dropped);
COVERAGE_DEFINE(dummy_link_rx_error);

/* Reconnection backoff of an active link: quick, since the listener is
 * usually another device of the same test that is not configured yet. */
#define DUMMY_LINK_MIN_BACKOFF 100
#define DUMMY_LINK_MAX_BACKOFF 1000

/* What a stream may hold unsent before we stop handing it more. */
#define DUMMY_LINK_STREAM_BACKLOG (64 * 1024)

/* One connection. */
struct link_conn {
    struct stream *stream;
    struct ofpbuf tx;           /* Framed bytes waiting for the stream. */
    struct ofpbuf rx;           /* The frame being received, with its
                                 * length prefix. */
};

struct dummy_link {
    char *name;
    bool passive;

    /* Passive. */
    struct pstream *pstream;
    struct link_conn **conns;
    size_t n_conns, allocated_conns;

    /* Active: one connection, made and remade by 'reconnect'. */
    struct reconnect *reconnect;
    struct link_conn *conn;     /* NULL while not connected or connecting. */
    bool connecting;
};

static struct link_conn *
conn_create(struct stream *stream)
{
    struct link_conn *c = xzalloc(sizeof *c);
    c->stream = stream;
    ofpbuf_init(&c->tx, 0);
    ofpbuf_init(&c->rx, 2 + ETH_HEADER_LEN);
    return c;
}

static void
conn_destroy(struct link_conn *c)
{
    if (c) {
        stream_close(c->stream);
        ofpbuf_uninit(&c->tx);
        ofpbuf_uninit(&c->rx);
        free(c);
    }
}

int
dummy_link_open(const char *name, bool passive, struct dummy_link **linkp,
                char **errp)
{
    *linkp = NULL;
    struct dummy_link *link = xzalloc(sizeof *link);
    link->name = xstrdup(name);
    link->passive = passive;
    if (passive) {
        int error = pstream_open(name, &link->pstream, DSCP_DEFAULT);
        if (error) {
            *errp = xasprintf("%s: listen failed (%s)", name,
                              ovs_strerror(error));
            free(link->name);
            free(link);
            return error;
        }
    } else {
        int error = stream_verify_name(name);
        if (error) {
            *errp = xasprintf("%s: not a stream name (%s)", name,
                              ovs_strerror(error));
            free(link->name);
            free(link);
            return error;
        }
        long long int now = time_msec();
        link->reconnect = reconnect_create(now);
        reconnect_set_name(link->reconnect, name);
        reconnect_set_quiet(link->reconnect, true);
        reconnect_set_backoff(link->reconnect, DUMMY_LINK_MIN_BACKOFF,
                              DUMMY_LINK_MAX_BACKOFF);
        reconnect_set_probe_interval(link->reconnect, 0);
        reconnect_enable(link->reconnect, now);
    }
    *linkp = link;
    return 0;
}

void
dummy_link_close(struct dummy_link *link)
{
    if (!link) {
        return;
    }
    for (size_t i = 0; i < link->n_conns; i++) {
        conn_destroy(link->conns[i]);
    }
    free(link->conns);
    pstream_close(link->pstream);
    conn_destroy(link->conn);
    if (link->reconnect) {
        reconnect_destroy(link->reconnect);
    }
    free(link->name);
    free(link);
}

const char *
dummy_link_name(const struct dummy_link *link)
{
    return link->name;
}

bool
dummy_link_is_passive(const struct dummy_link *link)
{
    return link->passive;
}

bool
dummy_link_is_connected(const struct dummy_link *link)
{
    return !link->passive && link->conn && !link->connecting;
}

static bool
conn_queue(struct link_conn *c, const struct dp_packet *packet)
{
    size_t size = dp_packet_size(packet);
    if (c->tx.size + 2 + size > DUMMY_LINK_TXQ_MAX) {
        COVERAGE_INC(dummy_link_tx_dropped);
        return false;
    }
    ovs_be16 len = htons(size);
    ofpbuf_put(&c->tx, &len, sizeof len);
    ofpbuf_put(&c->tx, dp_packet_data(packet), size);
    return true;
}

bool
dummy_link_send(struct dummy_link *link, const struct dp_packet *packet)
{
    /* A frame's length must fit its 2-byte prefix. */
    if (dp_packet_size(packet) > UINT16_MAX) {
        COVERAGE_INC(dummy_link_tx_dropped);
        return false;
    }
    bool queued = false;
    if (link->passive) {
        for (size_t i = 0; i < link->n_conns; i++) {
            queued |= conn_queue(link->conns[i], packet);
        }
    } else if (dummy_link_is_connected(link)) {
        queued = conn_queue(link->conn, packet);
    }
    return queued;
}

/* Moves C's queued bytes into its stream and reads the frames that arrived
 * into RX.  Returns 0, EOF or a positive errno value (the connection is
 * over); sets *MORE if RX filled up before the stream ran dry. */
static int
conn_run(struct link_conn *c, struct dp_packet_batch *rx, bool *more)
{
    stream_run(c->stream);
    if (c->tx.size
        && stream_get_backlog(c->stream) < DUMMY_LINK_STREAM_BACKLOG) {
        int n = stream_send(c->stream, c->tx.data, c->tx.size);
        if (n > 0) {
            ofpbuf_pull(&c->tx, n);
        } else if (n != -EAGAIN) {
            return n ? -n : EOF;
        }
    }
    for (;;) {
        if (dp_packet_batch_is_full(rx)) {
            *more = true;
            return 0;
        }
        size_t want;
        if (c->rx.size < 2) {
            want = 2 - c->rx.size;
        } else {
            ovs_be16 be_len;
            memcpy(&be_len, c->rx.data, sizeof be_len);
            uint16_t frame_len = ntohs(be_len);
            if (frame_len < ETH_HEADER_LEN) {
                COVERAGE_INC(dummy_link_rx_error);
                return EPROTO;
            }
            want = 2 + frame_len - c->rx.size;
        }
        ofpbuf_prealloc_tailroom(&c->rx, want);
        int n = stream_recv(c->stream, ofpbuf_tail(&c->rx), want);
        if (n == -EAGAIN) {
            return 0;
        } else if (n <= 0) {
            return n ? -n : c->rx.size ? EPROTO : EOF;
        }
        c->rx.size += n;
        if ((size_t) n == want && c->rx.size > 2) {
            /* A whole frame (a prefix alone is never longer than 2). */
            dp_packet_batch_add(rx, dp_packet_clone_data(
                                    (const char *) c->rx.data + 2,
                                    c->rx.size - 2));
            ofpbuf_clear(&c->rx);
        }
    }
}

static void
conn_wait(struct link_conn *c)
{
    stream_run_wait(c->stream);
    if (c->tx.size) {
        stream_send_wait(c->stream);
    }
    stream_recv_wait(c->stream);
}

static void
log_conn_end(const struct dummy_link *link, int error)
{
    static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
    if (error != EOF) {
        VLOG_WARN_RL(&rl, "%s: connection dropped (%s)", link->name,
                     ovs_strerror(error));
    }
}

static bool
passive_run(struct dummy_link *link, struct dp_packet_batch *rx)
{
    for (;;) {
        struct stream *stream;
        int error = pstream_accept(link->pstream, &stream);
        if (error) {
            if (error != EAGAIN) {
                static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 5);
                VLOG_WARN_RL(&rl, "%s: accept failed (%s)", link->name,
                             ovs_strerror(error));
            }
            break;
        }
        if (link->n_conns >= link->allocated_conns) {
            link->conns = x2nrealloc(link->conns, &link->allocated_conns,
                                     sizeof *link->conns);
        }
        link->conns[link->n_conns++] = conn_create(stream);
    }

    bool more = false;
    for (size_t i = 0; i < link->n_conns; ) {
        int error = conn_run(link->conns[i], rx, &more);
        if (error) {
            log_conn_end(link, error);
            conn_destroy(link->conns[i]);
            link->conns[i] = link->conns[--link->n_conns];
        } else {
            i++;
        }
    }
    return more;
}

static void
active_disconnect(struct dummy_link *link, long long int now, int error)
{
    conn_destroy(link->conn);
    link->conn = NULL;
    if (link->connecting) {
        link->connecting = false;
        reconnect_connect_failed(link->reconnect, now, error);
    } else {
        reconnect_disconnected(link->reconnect, now, error);
    }
}

static bool
active_run(struct dummy_link *link, struct dp_packet_batch *rx)
{
    long long int now = time_msec();
    switch (reconnect_run(link->reconnect, now)) {
    case RECONNECT_CONNECT: {
        struct stream *stream;
        int error = stream_open(link->name, &stream, DSCP_DEFAULT);
        if (error) {
            reconnect_connect_failed(link->reconnect, now, error);
            break;
        }
        link->conn = conn_create(stream);
        link->connecting = true;
        reconnect_connecting(link->reconnect, now);
        break;
    }
    case RECONNECT_DISCONNECT:
        if (link->conn) {
            active_disconnect(link, now, 0);
        }
        break;
    case RECONNECT_PROBE:
    default:
        break;
    }

    if (link->conn && link->connecting) {
        int error = stream_connect(link->conn->stream);
        if (!error) {
            link->connecting = false;
            reconnect_connected(link->reconnect, now);
        } else if (error != EAGAIN) {
            active_disconnect(link, now, error);
        }
    }

    bool more = false;
    if (dummy_link_is_connected(link)) {
        int error = conn_run(link->conn, rx, &more);
        if (error) {
            log_conn_end(link, error);
            active_disconnect(link, now, error);
        } else if (rx->count) {
            reconnect_activity(link->reconnect, now);
        }
    }
    return more;
}

bool
dummy_link_run(struct dummy_link *link, struct dp_packet_batch *rx)
{
    return link->passive ? passive_run(link, rx) : active_run(link, rx);
}

void
dummy_link_wait(struct dummy_link *link)
{
    if (link->passive) {
        pstream_wait(link->pstream);
        for (size_t i = 0; i < link->n_conns; i++) {
            conn_wait(link->conns[i]);
        }
    } else {
        reconnect_wait(link->reconnect, time_msec());
        if (link->conn && link->connecting) {
            stream_connect_wait(link->conn->stream);
        } else if (link->conn) {
            conn_wait(link->conn);
        }
    }
}

static bool
conn_is_idle(const struct link_conn *c)
{
    return !c->tx.size && !stream_get_backlog(c->stream);
}

bool
dummy_link_is_idle(const struct dummy_link *link)
{
    for (size_t i = 0; i < link->n_conns; i++) {
        if (!conn_is_idle(link->conns[i])) {
            return false;
        }
    }
    return !link->conn || link->connecting || conn_is_idle(link->conn);
}
