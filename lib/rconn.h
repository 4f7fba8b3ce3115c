/* rconn: an OpenFlow connection that stays up.
 *
 * An rconn wraps a vconn (vconn.h) with a reconnect state machine
 * (reconnect.h): a reliable rconn, made by rconn_connect(), connects to its
 * target, and whenever the connection fails or dies it waits (doubling
 * backoff up to the maximum) and connects again.  An unreliable one, made
 * by rconn_connect_unreliably() around a vconn a listener accepted, never
 * reconnects: once its connection fails it is dead (rconn_is_alive()
 * false) and its owner destroys it.
 *
 * While connected, an rconn with a probe interval sends an echo request
 * after that long without hearing from the peer and drops the connection
 * after as long again.  It answers the peer's echo requests itself and
 * swallows echo replies, so its owner sees neither.  Probes are off for
 * Unix sockets, which cannot die silently.
 *
 * Sending queues messages in the rconn while its vconn's backlog is full;
 * everything queued is dropped on disconnection, as OpenFlow messages mean
 * nothing on a new connection.  A message may be counted in a struct
 * rconn_packet_counter until the kernel took its last byte, so an owner can
 * bound how much of one kind (packet-ins) sits in a slow peer's queue:
 * rconn_send_with_limit() drops the message instead of queueing beyond the
 * limit.
 *
 * Monitors (rconn_add_monitor()) receive a copy of every message sent or
 * received, for `ovs-ofctl snoop`.
 *
 * Waiting: rconn_run_wait() registers the probe/backoff timer and the
 * connection's events; an idle connected rconn wakes only for its probe
 * timer.
 *
 * Threads and ownership: an rconn is used by one thread, the one that
 * created it.  rconn_send*() take ownership of the message in every case;
 * rconn_recv() gives the caller a message to free with ofpbuf_delete().
 * Counters are owned by their creator and may outlive rconns (they are
 * reference counted: rconn_packet_counter_destroy() drops a reference). */
#ifndef RCONN_H
#define RCONN_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

struct ofpbuf;
struct rconn;
struct vconn;

struct rconn_packet_counter {
    unsigned int n_packets;     /* Messages not yet taken by the kernel. */
    unsigned long long int n_bytes;
    int ref_cnt;
};

struct rconn_packet_counter *rconn_packet_counter_create(void);
void rconn_packet_counter_destroy(struct rconn_packet_counter *);

/* INACTIVITY_PROBE_S: seconds, 0 for none; MAX_BACKOFF_S: seconds;
 * ALLOWED_VERSIONS: 0 for every supported version. */
struct rconn *rconn_create(int inactivity_probe_s, int max_backoff_s,
                           uint8_t dscp, uint32_t allowed_versions);
void rconn_destroy(struct rconn *);

/* Connects (and keeps reconnecting) to TARGET, an active vconn name.
 * NAME is what logs call the connection (NULL: TARGET). */
void rconn_connect(struct rconn *, const char *target, const char *name);
/* Takes over VCONN, already accepted, without ever reconnecting. */
void rconn_connect_unreliably(struct rconn *, struct vconn *,
                              const char *name);
/* Drops the connection and stops reconnecting. */
void rconn_disconnect(struct rconn *);
/* Drops the connection now; a reliable rconn then reconnects. */
void rconn_reconnect(struct rconn *);

void rconn_set_probe_interval(struct rconn *, int inactivity_probe_s);
int rconn_get_probe_interval(const struct rconn *);
void rconn_set_max_backoff(struct rconn *, int max_backoff_s);
void rconn_set_dscp(struct rconn *, uint8_t dscp);
void rconn_set_allowed_versions(struct rconn *, uint32_t allowed_versions);

void rconn_run(struct rconn *);
void rconn_run_wait(struct rconn *);

/* The next message from the peer, or NULL. */
struct ofpbuf *rconn_recv(struct rconn *);
void rconn_recv_wait(struct rconn *);

/* Sends MSG, counting it in COUNTER (may be NULL) until the kernel took
 * it.  Returns 0, or ENOTCONN if not connected (MSG dropped). */
int rconn_send(struct rconn *, struct ofpbuf *msg,
               struct rconn_packet_counter *counter);
/* The same, but drops MSG with EAGAIN when COUNTER already holds
 * QUEUE_LIMIT messages. */
int rconn_send_with_limit(struct rconn *, struct ofpbuf *msg,
                          struct rconn_packet_counter *counter,
                          int queue_limit);

/* Between these, messages sent are gathered and written at once (see
 * stream_cork()); for a burst of small messages.  Uncork before the next
 * poll_block(). */
void rconn_cork(struct rconn *);
void rconn_uncork(struct rconn *);

void rconn_add_monitor(struct rconn *, struct vconn *);

const char *rconn_get_name(const struct rconn *);
const char *rconn_get_target(const struct rconn *);
/* True while the rconn connects or will reconnect (always, for reliable
 * ones until rconn_disconnect()); false for a dead unreliable one. */
bool rconn_is_alive(const struct rconn *);
/* True once a connection is up and its version agreed. */
bool rconn_is_connected(const struct rconn *);
/* The negotiated version, or -1 when not connected. */
int rconn_get_version(const struct rconn *);
/* The state's name as Open vSwitch shows it in Controller:status
 * ("VOID", "BACKOFF", "CONNECTING", "ACTIVE", "IDLE"). */
const char *rconn_get_state(const struct rconn *);
/* Changes whenever the rconn connects or disconnects. */
unsigned int rconn_get_connection_seqno(const struct rconn *);
/* The error that ended the last connection or attempt (positive errno,
 * EOF for a close by the peer), 0 if none. */
int rconn_get_last_error(const struct rconn *);
/* Wall-clock seconds of the last connection and disconnection, or 0 if
 * never. */
time_t rconn_get_last_connection(const struct rconn *);
time_t rconn_get_last_disconnect(const struct rconn *);
/* Milliseconds (monotonic) the rconn has been connected, or 0. */
long long int rconn_get_connected_msec(const struct rconn *);
/* The peer's "IP:PORT", or NULL. */
const char *rconn_get_peer_name(const struct rconn *);
unsigned int rconn_count_txqlen(const struct rconn *);

#endif /* rconn.h */
