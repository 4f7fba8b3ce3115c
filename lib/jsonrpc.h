/* jsonrpc: JSON-RPC 1.0 messages over streams, as OVSDB, unixctl and
 * ovs-appctl speak it.
 *
 * Three layers:
 *
 *   - struct jsonrpc_msg: one message (request, notification, reply or
 *     error), converted to and from jansson json_t.
 *
 *   - struct jsonrpc: one connection over a stream.  The wire carries JSON
 *     objects back to back with nothing between them (whitespace is
 *     tolerated); jsonrpc_recv() finds where each one ends however the bytes
 *     were split by the network.  Anything else (a top-level value that is
 *     not an object, bad JSON, a message that breaks the JSON-RPC rules or
 *     exceeds the size limit) is logged as a warning naming the peer, the
 *     connection's status becomes EPROTO, and the stream is closed.  The
 *     status is sticky: once nonzero, send and recv keep returning it.
 *
 *   - struct jsonrpc_session: a connection that maintains itself.  An active
 *     session ("tcp:...", "unix:...", "ssl:...") reconnects with backoff
 *     (see reconnect.h); a passive one ("ptcp:...", "punix:...", "pssl:...")
 *     listens and serves one connection at a time, a new one replacing the
 *     old.  It sends inactivity probes ({"method":"echo","params":[],
 *     "id":"echo"}) and disconnects when they go unanswered, answers the
 *     peer's "echo" requests itself, and hides the replies to its own probes.
 *
 * Ownership
 * ---------
 *   - Every jsonrpc_create_*() takes over the json_t references passed to it
 *     (params, result, error AND id): pass json_incref(x) to keep your own.
 *     So to reply to a request you are about to destroy:
 *         jsonrpc_create_reply(result, json_incref(request->id))
 *   - A message owns its method string and its json members;
 *     jsonrpc_msg_destroy() frees all of them (it accepts NULL).
 *   - jsonrpc_send(), jsonrpc_send_block() and jsonrpc_session_send() take
 *     over the message whatever they return.
 *   - jsonrpc_recv(), jsonrpc_recv_block(), jsonrpc_transact_block() and
 *     jsonrpc_session_recv() give the caller a message to destroy.
 *   - jsonrpc_msg_from_json() takes over the json it parses; a returned
 *     error string is the caller's to free().  jsonrpc_msg_to_json()
 *     consumes the message and returns a new reference.
 *   - jsonrpc_open() takes over the stream; jsonrpc_close() closes it.
 *
 * All of this runs on the calling thread's event loop (see stream.h): one
 * thread per connection object.
 *
 * Logging: every message sent or received is logged at DBG level as
 * "NAME: received request, method="echo", params=[], id="echo"" and the
 * like.
 */
#ifndef JSONRPC_H
#define JSONRPC_H 1

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pstream;
struct reconnect_stats;
struct stream;

/* Default TCP/TLS port for OVSDB-style JSON-RPC remotes (IANA's OVSDB
 * port). */
#define JSONRPC_TCP_PORT 6640
#define JSONRPC_SSL_PORT 6640

/* Default limit on the size of one received message. */
#define JSONRPC_DEFAULT_MAX_MSG_SIZE (256u * 1024 * 1024)

/* stream_open() / pstream_open() with the JSON-RPC default port. */
int jsonrpc_stream_open(const char *name, struct stream **, uint8_t dscp);
int jsonrpc_pstream_open(const char *name, struct pstream **, uint8_t dscp);

/* Messages. */

enum jsonrpc_msg_type {
    JSONRPC_REQUEST,     /* method, params, id. */
    JSONRPC_NOTIFY,      /* method, params; no id. */
    JSONRPC_REPLY,       /* result, id. */
    JSONRPC_ERROR        /* error, id. */
};

struct jsonrpc_msg {
    enum jsonrpc_msg_type type;
    char *method;        /* Request or notification only. */
    json_t *params;      /* Request or notification only: an array. */
    json_t *result;      /* Reply only. */
    json_t *error;       /* Error only. */
    json_t *id;          /* Request, reply and error only. */
};

/* Creates a request with a fresh id (unique within the process).  If IDP is
 * nonnull, stores in it a new reference to that id (release it with
 * json_decref()), for matching the reply. */
struct jsonrpc_msg *jsonrpc_create_request(const char *method, json_t *params,
                                           json_t **idp);
struct jsonrpc_msg *jsonrpc_create_notify(const char *method, json_t *params);
struct jsonrpc_msg *jsonrpc_create_reply(json_t *result, json_t *id);
struct jsonrpc_msg *jsonrpc_create_error(json_t *error, json_t *id);
/* A fresh process-unique request id (a JSON integer), new reference. */
json_t *jsonrpc_create_id(void);

struct jsonrpc_msg *jsonrpc_msg_clone(const struct jsonrpc_msg *);
void jsonrpc_msg_destroy(struct jsonrpc_msg *);

/* "request", "notification", "reply" or "error". */
const char *jsonrpc_msg_type_to_string(enum jsonrpc_msg_type);

/* Returns NULL if MSG has exactly the members its type needs (and params is
 * an array), otherwise an error message to free(). */
char *jsonrpc_msg_is_valid(const struct jsonrpc_msg *);

/* Parses JSON (consumed) into *MSGP.  Returns NULL on success, otherwise an
 * error message to free() with *MSGP set to NULL. */
char *jsonrpc_msg_from_json(json_t *json, struct jsonrpc_msg **msgp);
/* Converts MSG (consumed) to its wire form. */
json_t *jsonrpc_msg_to_json(struct jsonrpc_msg *msg);
/* MSG's wire form as compact JSON text, for logs and tests; free() it. */
char *jsonrpc_msg_to_string(const struct jsonrpc_msg *msg);

/* One connection. */

struct jsonrpc *jsonrpc_open(struct stream *);
void jsonrpc_close(struct jsonrpc *);

void jsonrpc_run(struct jsonrpc *);
void jsonrpc_wait(struct jsonrpc *);

/* 0 while healthy, otherwise the (sticky) positive errno value or EOF. */
int jsonrpc_get_status(const struct jsonrpc *);
/* Bytes sent but not yet written to the kernel. */
size_t jsonrpc_get_backlog(const struct jsonrpc *);
/* Once more than MAX_BACKLOG_BYTES bytes are waiting to be written (0: no
 * limit), the connection fails with ENOBUFS: a peer that does not read must
 * not make us buffer without bound. */
void jsonrpc_set_backlog_threshold(struct jsonrpc *, size_t max_backlog_bytes);
/* Messages larger than MAX_BYTES are a protocol error (EPROTO). */
void jsonrpc_set_max_msg_size(struct jsonrpc *, size_t max_bytes);
/* Total bytes received so far. */
unsigned long long int jsonrpc_get_received_bytes(const struct jsonrpc *);
const char *jsonrpc_get_name(const struct jsonrpc *);
/* Who the peer proved to be (see stream_get_peer_id()), or NULL. */
const char *jsonrpc_get_peer_id(const struct jsonrpc *);

/* Queues MSG (consumed).  Returns 0 or the connection's status. */
int jsonrpc_send(struct jsonrpc *, struct jsonrpc_msg *msg);
/* Receives one message: 0 with *MSGP set, EAGAIN if none is complete yet, EOF
 * if the peer closed the connection, or another positive errno value (EPROTO
 * for garbage).  *MSGP is NULL unless 0 is returned. */
int jsonrpc_recv(struct jsonrpc *, struct jsonrpc_msg **msgp);
void jsonrpc_recv_wait(struct jsonrpc *);

/* Sends MSG and waits until it is written out or the connection fails. */
int jsonrpc_send_block(struct jsonrpc *, struct jsonrpc_msg *msg);
/* Waits for the next message.  Answers "echo" requests from the peer on the
 * way, without returning them. */
int jsonrpc_recv_block(struct jsonrpc *, struct jsonrpc_msg **msgp);
/* Sends REQUEST and waits for the reply or error with the same id, dropping
 * any other message (notifications, stale replies) received meanwhile.
 * Returns 0 with *REPLYP set, or a positive errno value with *REPLYP NULL. */
int jsonrpc_transact_block(struct jsonrpc *, struct jsonrpc_msg *request,
                           struct jsonrpc_msg **replyp);

/* Sessions. */

/* Opens a session to NAME (active or passive stream name; a missing port
 * means JSONRPC_TCP_PORT).  RETRY true keeps reconnecting (or relistening)
 * forever, with backoff.  RETRY false allows a single attempt: once it fails,
 * or the connection it made ends, the session is no longer alive.  Unix
 * sockets are not probed (probe interval 0); others use the reconnect.h
 * default.  The first attempt starts at the first jsonrpc_session_run(). */
struct jsonrpc_session *jsonrpc_session_open(const char *name, bool retry);
/* Like jsonrpc_session_open() for a session with N active REMOTES (the
 * servers of a cluster, say): each connection attempt goes to the next
 * remote in turn, and a round of all of them costs no backoff.  Without
 * RETRY, each remote gets one attempt.
 * jsonrpc_session_get_name() names the remote connected or tried last. */
struct jsonrpc_session *jsonrpc_session_open_multiple(
    const char *const *remotes, size_t n, bool retry);
/* Splits LIST, remotes separated by commas ("unix:a,unix:b"), into a new
 * array of N (>= 1) new strings in *REMOTESP; with SHUFFLE, in random
 * order.  The caller frees each string and the array. */
size_t jsonrpc_split_remotes(const char *list, bool shuffle,
                             char ***remotesp);
/* Wraps an already open connection (e.g. one accepted from a pstream) in a
 * session that never reconnects: once the connection fails, the session is
 * no longer alive.  Takes over JSONRPC. */
struct jsonrpc_session *jsonrpc_session_open_unreliably(struct jsonrpc *,
                                                        uint8_t dscp);
void jsonrpc_session_close(struct jsonrpc_session *);

void jsonrpc_session_run(struct jsonrpc_session *);
void jsonrpc_session_wait(struct jsonrpc_session *);

size_t jsonrpc_session_get_backlog(const struct jsonrpc_session *);
const char *jsonrpc_session_get_name(const struct jsonrpc_session *);
/* The current connection's jsonrpc_get_peer_id(), NULL if not connected. */
const char *jsonrpc_session_get_peer_id(const struct jsonrpc_session *);
size_t jsonrpc_session_get_num_of_remotes(const struct jsonrpc_session *);

/* Sends MSG (consumed) if connected.  Returns 0, or ENOTCONN when there is
 * no connection (the message is dropped), or the connection's error. */
int jsonrpc_session_send(struct jsonrpc_session *, struct jsonrpc_msg *msg);
/* Returns the next message for the caller, or NULL.  Echo requests are
 * answered and echo replies swallowed here. */
struct jsonrpc_msg *jsonrpc_session_recv(struct jsonrpc_session *);
void jsonrpc_session_recv_wait(struct jsonrpc_session *);

/* Alive: connected, or still going to (re)connect or listen. */
bool jsonrpc_session_is_alive(const struct jsonrpc_session *);
bool jsonrpc_session_is_connected(const struct jsonrpc_session *);
/* Changes whenever the session connects or disconnects; a caller that sees
 * a new value must resend whatever state the peer needs. */
unsigned int jsonrpc_session_get_seqno(const struct jsonrpc_session *);
/* The connection's status (see jsonrpc_get_status()), 0 if not connected. */
int jsonrpc_session_get_status(const struct jsonrpc_session *);
/* The error that ended the last connection or connection attempt (0 if
 * none, EOF for a clean close). */
int jsonrpc_session_get_last_error(const struct jsonrpc_session *);
void jsonrpc_session_get_reconnect_stats(const struct jsonrpc_session *,
                                         struct reconnect_stats *);

void jsonrpc_session_enable_reconnect(struct jsonrpc_session *);
void jsonrpc_session_force_reconnect(struct jsonrpc_session *);
void jsonrpc_session_reset_backoff(struct jsonrpc_session *);
void jsonrpc_session_set_max_backoff(struct jsonrpc_session *,
                                     int max_backoff);
void jsonrpc_session_set_probe_interval(struct jsonrpc_session *,
                                        int probe_interval);
void jsonrpc_session_set_dscp(struct jsonrpc_session *, uint8_t dscp);
void jsonrpc_session_set_backlog_threshold(struct jsonrpc_session *,
                                           size_t max_backlog_bytes);

#endif /* jsonrpc.h */
