#include <config.h>
#include "rconn.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "list.h"
#include "ofp-protocol.h"
#include "ofpbuf.h"
#include "openflow.h"
#include "reconnect.h"
#include "replay.h"
#include "stream.h"
#include "timeval.h"
#include "util.h"
#include "vconn.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(rconn);

#define MAX_MONITORS 8

/* Echo requests answered per rconn_recv() call at most, so a peer that
 * floods them cannot keep one call busy. */
#define MAX_ECHOES_PER_RECV 50

/* A queued message, or one handed to the vconn and counted until the
 * kernel took its last byte (END: its end, in bytes sent since
 * connecting). */
struct rconn_msg {
    struct ovs_list node;
    struct ofpbuf *msg;         /* NULL once handed to the vconn. */
    struct rconn_packet_counter *counter;
    unsigned long long int end;
    size_t size;
};

struct rconn {
    char *name;
    char *target;               /* NULL for unreliable rconns. */
    struct reconnect *fsm;
    struct vconn *vconn;
    bool connected;             /* VCONN negotiated its version. */
    bool alive;

    uint32_t allowed_versions;
    uint8_t dscp;
    int probe_interval_s;
    int last_error;
    unsigned int seqno;
    time_t last_connection, last_disconnect;
    long long int connected_at;

    struct ovs_list txq;        /* struct rconn_msg, waiting for room. */
    struct ovs_list inflight;   /* struct rconn_msg, counted, in the stream. */
    unsigned long long int sent_bytes;
    size_t last_backlog;
    bool corked;                /* Between rconn_cork() and rconn_uncork(). */

    struct vconn *monitors[MAX_MONITORS];
    size_t n_monitors;
};

struct rconn_packet_counter *
rconn_packet_counter_create(void)
{
    struct rconn_packet_counter *c = xzalloc(sizeof *c);
    c->ref_cnt = 1;
    return c;
}

void
rconn_packet_counter_destroy(struct rconn_packet_counter *c)
{
    if (c && !--c->ref_cnt) {
        free(c);
    }
}

static void
counter_add(struct rconn_packet_counter *c, size_t size)
{
    if (c) {
        c->n_packets++;
        c->n_bytes += size;
    }
}

static void
counter_sub(struct rconn_packet_counter *c, size_t size)
{
    if (c) {
        c->n_packets--;
        c->n_bytes -= size;
        rconn_packet_counter_destroy(c);
    }
}

/* Whether a connection to or from NAME gets inactivity probes: every
 * OpenFlow connection does, whatever its stream (unlike OVSDB's, 3.1
 * probes OpenFlow over Unix sockets too: a tool watching the switch
 * through its management socket sees the echo requests), except while a
 * recorded session is replayed. */
static bool
needs_probes(const char *name OVS_UNUSED)
{
    return !replay_is_active();
}

struct rconn *
rconn_create(int inactivity_probe_s, int max_backoff_s, uint8_t dscp,
             uint32_t allowed_versions)
{
    struct rconn *rc = xzalloc(sizeof *rc);
    long long int now = time_msec();
    rc->name = xstrdup("void");
    rc->fsm = reconnect_create(now);
    reconnect_set_name(rc->fsm, rc->name);
    rc->allowed_versions = allowed_versions;
    rc->dscp = dscp;
    ovs_list_init(&rc->txq);
    ovs_list_init(&rc->inflight);
    rconn_set_max_backoff(rc, max_backoff_s);
    rconn_set_probe_interval(rc, inactivity_probe_s);
    return rc;
}

static void
flush_queues(struct rconn *rc)
{
    struct rconn_msg *m, *next;
    LIST_FOR_EACH_SAFE (m, next, node, &rc->txq) {
        ovs_list_remove(&m->node);
        counter_sub(m->counter, m->size);
        ofpbuf_delete(m->msg);
        free(m);
    }
    LIST_FOR_EACH_SAFE (m, next, node, &rc->inflight) {
        ovs_list_remove(&m->node);
        counter_sub(m->counter, m->size);
        free(m);
    }
    rc->sent_bytes = 0;
    rc->last_backlog = 0;
}

/* After a failure: when a reliable rconn tries again. */
static void
log_backoff(const struct rconn *rc, long long int now)
{
    int ms = reconnect_timeout(rc->fsm, now);
    if (rc->target && reconnect_is_enabled(rc->fsm) && ms > 0) {
        VLOG_INFO("%s: waiting %d seconds before reconnect", rc->name,
                  (ms + 999) / 1000);
    }
}

/* Closes the connection (or attempt), if any; ERROR is why. */
static void
drop_connection(struct rconn *rc, int error)
{
    if (!rc->vconn) {
        return;
    }
    long long int now = time_msec();
    if (rc->connected) {
        if (error == EOF) {
            VLOG_INFO("%s: connection closed by peer", rc->name);
        } else if (error) {
            VLOG_INFO("%s: connection dropped (%s)", rc->name,
                      ovs_strerror(error));
        }
        reconnect_disconnected(rc->fsm, now, error);
        rc->last_disconnect = time_wall();
        rc->seqno++;
    } else {
        if (error && error != EAGAIN) {
            VLOG_WARN("%s: connection failed (%s)", rc->name,
                      error == EOF ? "End of file" : ovs_strerror(error));
        }
        reconnect_connect_failed(rc->fsm, now, error);
    }
    if (error) {
        rc->last_error = error;
    }
    log_backoff(rc, now);
    vconn_close(rc->vconn);
    rc->vconn = NULL;
    rc->connected = false;
    flush_queues(rc);
    if (!rc->target) {
        rc->alive = false;
    }
}

static void
close_monitors(struct rconn *rc)
{
    for (size_t i = 0; i < rc->n_monitors; i++) {
        vconn_close(rc->monitors[i]);
    }
    rc->n_monitors = 0;
}

void
rconn_destroy(struct rconn *rc)
{
    if (rc) {
        vconn_close(rc->vconn);
        flush_queues(rc);
        close_monitors(rc);
        reconnect_destroy(rc->fsm);
        free(rc->name);
        free(rc->target);
        free(rc);
    }
}

static void
set_name(struct rconn *rc, const char *name)
{
    free(rc->name);
    rc->name = xstrdup(name);
    reconnect_set_name(rc->fsm, name);
}

void
rconn_connect(struct rconn *rc, const char *target, const char *name)
{
    rconn_disconnect(rc);
    free(rc->target);
    rc->target = xstrdup(target);
    set_name(rc, name ? name : target);
    rc->alive = true;
    /* The rconn says what happens in its own words; the state machine's
     * log lines would repeat them. */
    reconnect_set_quiet(rc->fsm, true);
    reconnect_set_max_tries(rc->fsm, UINT_MAX);
    if (!needs_probes(target)) {
        reconnect_set_probe_interval(rc->fsm, 0);
    } else {
        reconnect_set_probe_interval(rc->fsm, rc->probe_interval_s * 1000);
    }
    reconnect_enable(rc->fsm, time_msec());
}

void
rconn_connect_unreliably(struct rconn *rc, struct vconn *vconn,
                         const char *name)
{
    rconn_disconnect(rc);
    free(rc->target);
    rc->target = NULL;
    set_name(rc, name ? name : vconn_get_name(vconn));
    rc->alive = true;
    long long int now = time_msec();
    /* Connections accepted by a listener come and go all the time; logging
     * each at INFO would drown everything else. */
    reconnect_set_quiet(rc->fsm, true);
    reconnect_set_max_tries(rc->fsm, 0);
    if (!needs_probes(vconn_get_name(vconn))) {
        reconnect_set_probe_interval(rc->fsm, 0);
    }
    reconnect_enable(rc->fsm, now);
    reconnect_connecting(rc->fsm, now);
    rc->vconn = vconn;
}

void
rconn_disconnect(struct rconn *rc)
{
    drop_connection(rc, 0);
    reconnect_disable(rc->fsm, time_msec());
    rc->alive = false;
}

void
rconn_reconnect(struct rconn *rc)
{
    if (rc->vconn) {
        drop_connection(rc, 0);
    }
    reconnect_force_reconnect(rc->fsm, time_msec());
}

void
rconn_set_probe_interval(struct rconn *rc, int inactivity_probe_s)
{
    rc->probe_interval_s = MAX(inactivity_probe_s, 0);
    if (rc->probe_interval_s && rc->probe_interval_s < 5) {
        rc->probe_interval_s = 5;
    }
    bool probes = (rc->vconn ? needs_probes(vconn_get_name(rc->vconn))
                   : !rc->target || needs_probes(rc->target));
    reconnect_set_probe_interval(rc->fsm,
                                 probes ? rc->probe_interval_s * 1000 : 0);
}

int
rconn_get_probe_interval(const struct rconn *rc)
{
    return rc->probe_interval_s;
}

void
rconn_set_max_backoff(struct rconn *rc, int max_backoff_s)
{
    int max_ms = MAX(max_backoff_s, 1) * 1000;
    reconnect_set_backoff(rc->fsm, MIN(RECONNECT_DEFAULT_MIN_BACKOFF, max_ms),
                          max_ms);
}

void
rconn_set_dscp(struct rconn *rc, uint8_t dscp)
{
    rc->dscp = dscp;
}

void
rconn_set_allowed_versions(struct rconn *rc, uint32_t allowed_versions)
{
    rc->allowed_versions = allowed_versions;
}

static void
start_connecting(struct rconn *rc)
{
    long long int now = time_msec();
    if (!rc->target) {
        return;
    }
    VLOG_INFO("%s: connecting...", rc->name);
    int error = vconn_open(rc->target, rc->allowed_versions, rc->dscp,
                           &rc->vconn);
    if (!error) {
        reconnect_connecting(rc->fsm, now);
    } else {
        VLOG_WARN("%s: connection failed (%s)", rc->name,
                  ovs_strerror(error));
        rc->last_error = error;
        reconnect_connect_failed(rc->fsm, now, error);
        log_backoff(rc, now);
    }
}

static void
copy_to_monitors(struct rconn *rc, const struct ofpbuf *msg)
{
    for (size_t i = 0; i < rc->n_monitors; i++) {
        struct ofpbuf *copy = ofpbuf_clone(msg);
        if (vconn_send(rc->monitors[i], copy) == EAGAIN) {
            /* A monitor that cannot keep up (or is still saying hello)
             * misses messages. */
            ofpbuf_delete(copy);
        }
    }
}

static void
run_monitors(struct rconn *rc)
{
    for (size_t i = 0; i < rc->n_monitors; ) {
        struct vconn *m = rc->monitors[i];
        struct ofpbuf *msg;
        int error;
        vconn_run(m);
        while ((error = vconn_recv(m, &msg)) == 0) {
            const struct ofp_header *oh = msg->data;
            if (oh->type == OFPT_ECHO_REQUEST) {
                vconn_send(m, ofputil_encode_echo_reply(oh));
            }
            ofpbuf_delete(msg);
        }
        if (error != EAGAIN) {
            VLOG_DBG("%s: closing monitor %s (%s)", rc->name,
                     vconn_get_name(m), error == EOF ? "End of file"
                     : ovs_strerror(error));
            vconn_close(m);
            rc->monitors[i] = rc->monitors[--rc->n_monitors];
        } else {
            i++;
        }
    }
}

/* Hands queued messages to the vconn and settles the counters of those
 * the kernel has taken. */
static void
run_tx(struct rconn *rc)
{
    while (!ovs_list_is_empty(&rc->txq)) {
        struct rconn_msg *m = CONTAINER_OF(ovs_list_front(&rc->txq),
                                           struct rconn_msg, node);
        struct ofpbuf *msg = m->msg;
        size_t size = msg->size;
        int error = vconn_send(rc->vconn, msg);
        if (error == EAGAIN) {
            break;
        }
        ovs_list_remove(&m->node);
        m->msg = NULL;
        if (error) {
            counter_sub(m->counter, m->size);
            free(m);
            drop_connection(rc, error);
            return;
        }
        rc->sent_bytes += size;
        if (m->counter) {
            m->end = rc->sent_bytes;
            ovs_list_push_back(&rc->inflight, &m->node);
        } else {
            free(m);
        }
    }

    size_t backlog = vconn_get_backlog(rc->vconn);
    unsigned long long int taken = rc->sent_bytes - backlog;
    while (!ovs_list_is_empty(&rc->inflight)) {
        struct rconn_msg *m = CONTAINER_OF(ovs_list_front(&rc->inflight),
                                           struct rconn_msg, node);
        if (m->end > taken) {
            break;
        }
        ovs_list_remove(&m->node);
        counter_sub(m->counter, m->size);
        free(m);
    }
    if (backlog < rc->last_backlog) {
        /* The peer is reading: alive even if it has nothing to say. */
        reconnect_activity(rc->fsm, time_msec());
    }
    rc->last_backlog = backlog;
}

void
rconn_run(struct rconn *rc)
{
    if (rc->vconn) {
        vconn_run(rc->vconn);
        if (!rc->connected) {
            int error = vconn_connect(rc->vconn);
            if (!error) {
                rc->connected = true;
                rc->seqno++;
                rc->last_connection = time_wall();
                rc->connected_at = time_msec();
                reconnect_connected(rc->fsm, time_msec());
                if (rc->target) {
                    VLOG_INFO("%s: connected", rc->name);
                }
            } else if (error != EAGAIN) {
                drop_connection(rc, error);
            }
        }
        if (rc->connected) {
            run_tx(rc);
        }
    }
    run_monitors(rc);

    switch (reconnect_run(rc->fsm, time_msec())) {
    case RECONNECT_CONNECT:
        if (!rc->vconn) {
            start_connecting(rc);
        }
        break;

    case RECONNECT_DISCONNECT:
        if (rc->vconn) {
            if (rc->connected) {
                VLOG_ERR("%s: no response to inactivity probe after %d "
                         "seconds, disconnecting", rc->name,
                         rc->probe_interval_s);
                drop_connection(rc, ETIMEDOUT);
            } else {
                drop_connection(rc, ETIMEDOUT);
            }
        } else {
            reconnect_disconnected(rc->fsm, time_msec(), 0);
        }
        break;

    case RECONNECT_PROBE:
        if (rc->connected) {
            VLOG_DBG("%s: idle %d seconds, sending inactivity probe",
                     rc->name, rc->probe_interval_s);
            rconn_send(rc, ofputil_encode_echo_request(
                           vconn_get_version(rc->vconn)), NULL);
        }
        break;
    }
}

void
rconn_cork(struct rconn *rc)
{
    if (rc->vconn && rc->connected) {
        vconn_cork(rc->vconn);
        rc->corked = true;
    }
}

void
rconn_uncork(struct rconn *rc)
{
    if (rc->corked) {
        rc->corked = false;
        if (rc->vconn) {
            vconn_uncork(rc->vconn);
            /* What the kernel took is no longer counted against limits. */
            run_tx(rc);
        }
    }
}

void
rconn_run_wait(struct rconn *rc)
{
    reconnect_wait(rc->fsm, time_msec());
    if (rc->vconn) {
        vconn_run_wait(rc->vconn);
        if (!rc->connected) {
            vconn_connect_wait(rc->vconn);
        } else if (!ovs_list_is_empty(&rc->txq)
                   || !ovs_list_is_empty(&rc->inflight)) {
            vconn_send_wait(rc->vconn);
        }
    }
    for (size_t i = 0; i < rc->n_monitors; i++) {
        vconn_run_wait(rc->monitors[i]);
        vconn_recv_wait(rc->monitors[i]);
    }
}

struct ofpbuf *
rconn_recv(struct rconn *rc)
{
    if (!rc->vconn || !rc->connected) {
        return NULL;
    }
    long long int now = time_msec();
    reconnect_receive_attempted(rc->fsm, now);
    for (int i = 0; i < MAX_ECHOES_PER_RECV; i++) {
        struct ofpbuf *msg;
        int error = vconn_recv(rc->vconn, &msg);
        if (error) {
            if (error != EAGAIN) {
                drop_connection(rc, error);
            }
            return NULL;
        }
        reconnect_activity(rc->fsm, now);
        copy_to_monitors(rc, msg);

        const struct ofp_header *oh = msg->data;
        if (oh->type == OFPT_ECHO_REQUEST) {
            rconn_send(rc, ofputil_encode_echo_reply(oh), NULL);
            ofpbuf_delete(msg);
        } else if (oh->type == OFPT_ECHO_REPLY) {
            ofpbuf_delete(msg);
        } else {
            return msg;
        }
        if (!rc->vconn) {
            return NULL;
        }
    }
    return NULL;
}

void
rconn_recv_wait(struct rconn *rc)
{
    if (rc->vconn && rc->connected) {
        vconn_recv_wait(rc->vconn);
    }
}

int
rconn_send(struct rconn *rc, struct ofpbuf *msg,
           struct rconn_packet_counter *counter)
{
    if (!rc->vconn || !rc->connected) {
        ofpbuf_delete(msg);
        return ENOTCONN;
    }
    copy_to_monitors(rc, msg);

    struct rconn_msg *m = xzalloc(sizeof *m);
    m->msg = msg;
    m->size = msg->size;
    if (counter) {
        counter->ref_cnt++;
        m->counter = counter;
        counter_add(counter, msg->size);
    }
    ovs_list_push_back(&rc->txq, &m->node);
    /* Hand it over at once when there is room: most messages never wait,
     * and the caller's poll_block() then writes them out. */
    run_tx(rc);
    return 0;
}

int
rconn_send_with_limit(struct rconn *rc, struct ofpbuf *msg,
                      struct rconn_packet_counter *counter, int queue_limit)
{
    if (counter && counter->n_packets >= (unsigned int) queue_limit
        && rc->corked) {
        /* Messages gathered under the cork count until written; write them
         * now, so that the limit measures what the peer has not taken
         * rather than the size of our batch. */
        rconn_uncork(rc);
        rconn_cork(rc);
    }
    if (counter && counter->n_packets >= (unsigned int) queue_limit) {
        ofpbuf_delete(msg);
        return EAGAIN;
    }
    return rconn_send(rc, msg, counter);
}

void
rconn_add_monitor(struct rconn *rc, struct vconn *vconn)
{
    if (rc->n_monitors >= MAX_MONITORS) {
        VLOG_INFO("%s: too many monitor connections, discarding %s",
                  rc->name, vconn_get_name(vconn));
        vconn_close(vconn);
        return;
    }
    VLOG_INFO("%s: new monitor connection from %s", rc->name,
              vconn_get_name(vconn));
    rc->monitors[rc->n_monitors++] = vconn;
}

const char *
rconn_get_name(const struct rconn *rc)
{
    return rc->name;
}

const char *
rconn_get_target(const struct rconn *rc)
{
    return rc->target;
}

bool
rconn_is_alive(const struct rconn *rc)
{
    return rc->alive;
}

bool
rconn_is_connected(const struct rconn *rc)
{
    return rc->vconn && rc->connected;
}

int
rconn_get_version(const struct rconn *rc)
{
    return rconn_is_connected(rc) ? vconn_get_version(rc->vconn) : -1;
}

const char *
rconn_get_state(const struct rconn *rc)
{
    const char *state = reconnect_get_state_name(rc->fsm);
    /* A connection still agreeing on a version is not active yet. */
    if (rc->vconn && !rc->connected) {
        return "CONNECTING";
    }
    return state;
}

unsigned int
rconn_get_connection_seqno(const struct rconn *rc)
{
    return rc->seqno;
}

int
rconn_get_last_error(const struct rconn *rc)
{
    return rc->last_error;
}

time_t
rconn_get_last_connection(const struct rconn *rc)
{
    return rc->last_connection;
}

time_t
rconn_get_last_disconnect(const struct rconn *rc)
{
    return rc->last_disconnect;
}

long long int
rconn_get_connected_msec(const struct rconn *rc)
{
    return rconn_is_connected(rc) ? time_msec() - rc->connected_at : 0;
}

const char *
rconn_get_peer_name(const struct rconn *rc)
{
    return rc->vconn ? vconn_get_peer_name(rc->vconn) : NULL;
}

unsigned int
rconn_count_txqlen(const struct rconn *rc)
{
    return ovs_list_size(&rc->txq);
}
