#include <config.h>
#include "jsonrpc.h"

/* JSON-RPC sessions: a jsonrpc connection kept alive by reconnect.h. */

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "reconnect.h"
#include "replay.h"
#include "stream.h"
#include "timeval.h"
#include "util.h"
#include "uuid.h"
#include "vlog.h"

VLOG_USE_MODULE(jsonrpc);

/* A session answers at most this many echo requests per jsonrpc_session_recv()
 * call before returning, to bound the work done in one call. */
#define MAX_ECHOES_PER_RECV 50

/* Whether connections to NAME get inactivity probes.  A recorded or
 * replayed run (replay.h) sends none: a probe is the clock talking, and a
 * replay cannot make the clock say the same things again. */
static bool
needs_probes(const char *name)
{
    return stream_or_pstream_needs_probes(name) && !replay_is_active();
}

struct jsonrpc_session {
    struct reconnect *reconnect;
    char *name;                 /* The remote connected or tried last. */
    char **remotes;             /* Every remote, tried in turn. */
    size_t n_remotes;
    size_t next_remote;         /* Index in REMOTES of the next try. */
    struct jsonrpc *rpc;        /* Connected (or accepted) connection. */
    struct stream *stream;      /* Active connection attempt. */
    struct pstream *pstream;    /* Passive: the listener. */
    int last_error;
    unsigned int seqno;
    uint8_t dscp;
    size_t backlog_threshold;
};

size_t
jsonrpc_split_remotes(const char *list, bool shuffle, char ***remotesp)
{
    char **remotes = NULL;
    size_t n = 0, allocated = 0;
    char *copy = xstrdup(list);
    char *save_ptr = NULL;
    for (char *r = strtok_r(copy, ",", &save_ptr); r;
         r = strtok_r(NULL, ",", &save_ptr)) {
        if (n >= allocated) {
            remotes = x2nrealloc(remotes, &allocated, sizeof *remotes);
        }
        remotes[n++] = xstrdup(r);
    }
    free(copy);
    if (!n) {
        remotes = xmalloc(sizeof *remotes);
        remotes[n++] = xstrdup(list);
    }
    if (shuffle) {
        for (size_t i = n - 1; i > 0; i--) {
            size_t j = random_below(i + 1);
            char *tmp = remotes[i];
            remotes[i] = remotes[j];
            remotes[j] = tmp;
        }
    }
    *remotesp = remotes;
    return n;
}

struct jsonrpc_session *
jsonrpc_session_open(const char *name, bool retry)
{
    return jsonrpc_session_open_multiple(&name, 1, retry);
}

struct jsonrpc_session *
jsonrpc_session_open_multiple(const char *const *remotes, size_t n,
                              bool retry)
{
    ovs_assert(n > 0);
    struct jsonrpc_session *s = xzalloc(sizeof *s);
    long long int now = time_msec();

    s->remotes = xmalloc(n * sizeof *s->remotes);
    for (size_t i = 0; i < n; i++) {
        s->remotes[i] = xstrdup(remotes[i]);
    }
    s->n_remotes = n;
    const char *name = remotes[0];
    s->name = xstrdup(name);
    s->reconnect = reconnect_create(now);
    if (n > 1) {
        /* Going round every remote once costs no backoff: the next one may
         * well be up when this one is not. */
        reconnect_set_backoff_free_tries(s->reconnect, n);
    }
    reconnect_set_name(s->reconnect, name);
    if (!retry) {
        /* One try per remote. */
        reconnect_set_max_tries(s->reconnect, n);
    }
    if (n == 1 && pstream_is_passive_name(name)) {
        reconnect_set_passive(s->reconnect, true, now);
    }
    if (!needs_probes(name)) {
        reconnect_set_probe_interval(s->reconnect, 0);
    }
    reconnect_enable(s->reconnect, now);
    return s;
}

struct jsonrpc_session *
jsonrpc_session_open_unreliably(struct jsonrpc *rpc, uint8_t dscp)
{
    struct jsonrpc_session *s = xzalloc(sizeof *s);
    long long int now = time_msec();
    const char *name = jsonrpc_get_name(rpc);

    s->name = xstrdup(name);
    s->reconnect = reconnect_create(now);
    reconnect_set_name(s->reconnect, name);
    /* Connections accepted by a server come and go all the time; logging
     * each at INFO would drown everything else. */
    reconnect_set_quiet(s->reconnect, true);
    reconnect_set_max_tries(s->reconnect, 0);
    if (!needs_probes(name)) {
        reconnect_set_probe_interval(s->reconnect, 0);
    }
    reconnect_connected(s->reconnect, now);
    s->rpc = rpc;
    s->dscp = dscp;
    return s;
}

void
jsonrpc_session_close(struct jsonrpc_session *s)
{
    if (s) {
        jsonrpc_close(s->rpc);
        stream_close(s->stream);
        pstream_close(s->pstream);
        reconnect_destroy(s->reconnect);
        for (size_t i = 0; i < s->n_remotes; i++) {
            free(s->remotes[i]);
        }
        free(s->remotes);
        free(s->name);
        free(s);
    }
}

/* Drops the connection or connection attempt, if any. */
static void
jsonrpc_session_disconnect(struct jsonrpc_session *s)
{
    if (s->rpc) {
        jsonrpc_close(s->rpc);
        s->rpc = NULL;
        s->seqno++;
    } else if (s->stream) {
        stream_close(s->stream);
        s->stream = NULL;
    }
}

static void
jsonrpc_session_connect(struct jsonrpc_session *s)
{
    long long int now = time_msec();
    int error;

    jsonrpc_session_disconnect(s);
    if (s->n_remotes > 1) {
        free(s->name);
        s->name = xstrdup(s->remotes[s->next_remote++ % s->n_remotes]);
        reconnect_set_name(s->reconnect, s->name);
    }
    if (!reconnect_is_passive(s->reconnect)) {
        error = jsonrpc_stream_open(s->name, &s->stream, s->dscp);
        if (!error) {
            reconnect_connecting(s->reconnect, now);
        } else {
            s->last_error = error;
            reconnect_connect_failed(s->reconnect, now, error);
        }
    } else {
        error = (s->pstream ? 0
                 : jsonrpc_pstream_open(s->name, &s->pstream, s->dscp));
        if (!error) {
            reconnect_listening(s->reconnect, now);
        } else {
            s->last_error = error;
            reconnect_connect_failed(s->reconnect, now, error);
        }
    }
}

static void
jsonrpc_session_set_rpc(struct jsonrpc_session *s, struct stream *stream)
{
    s->rpc = jsonrpc_open(stream);
    if (s->backlog_threshold) {
        jsonrpc_set_backlog_threshold(s->rpc, s->backlog_threshold);
    }
    s->seqno++;
    reconnect_connected(s->reconnect, time_msec());
}

void
jsonrpc_session_run(struct jsonrpc_session *s)
{
    if (s->pstream) {
        struct stream *stream;
        int error = pstream_accept(s->pstream, &stream);
        if (!error) {
            if (s->rpc || s->stream) {
                VLOG_INFO("%s: new connection replacing active connection",
                          s->name);
                reconnect_disconnected(s->reconnect, time_msec(), 0);
                jsonrpc_session_disconnect(s);
            }
            jsonrpc_session_set_rpc(s, stream);
        } else if (error != EAGAIN) {
            reconnect_listen_error(s->reconnect, time_msec(), error);
            pstream_close(s->pstream);
            s->pstream = NULL;
            s->last_error = error;
        }
    }

    if (s->rpc) {
        size_t backlog = jsonrpc_get_backlog(s->rpc);
        jsonrpc_run(s->rpc);
        if (jsonrpc_get_backlog(s->rpc) < backlog) {
            /* The peer is taking our data: it is alive even if it has
             * nothing to say. */
            reconnect_activity(s->reconnect, time_msec());
        }

        int error = jsonrpc_get_status(s->rpc);
        if (error) {
            reconnect_disconnected(s->reconnect, time_msec(), error);
            jsonrpc_session_disconnect(s);
            s->last_error = error;
        }
    } else if (s->stream) {
        stream_run(s->stream);
        int error = stream_connect(s->stream);
        if (!error) {
            struct stream *stream = s->stream;
            s->stream = NULL;
            jsonrpc_session_set_rpc(s, stream);
        } else if (error != EAGAIN) {
            reconnect_connect_failed(s->reconnect, time_msec(), error);
            stream_close(s->stream);
            s->stream = NULL;
            s->last_error = error;
        }
    }

    switch (reconnect_run(s->reconnect, time_msec())) {
    case RECONNECT_CONNECT:
        jsonrpc_session_connect(s);
        break;

    case RECONNECT_DISCONNECT:
        reconnect_disconnected(s->reconnect, time_msec(), 0);
        jsonrpc_session_disconnect(s);
        break;

    case RECONNECT_PROBE:
        if (s->rpc) {
            /* The fixed id "echo" lets jsonrpc_session_recv() recognize
             * the reply, and is what Open vSwitch peers send and expect. */
            struct jsonrpc_msg *request
                = jsonrpc_create_request("echo", json_array(), NULL);
            json_decref(request->id);
            request->id = json_string("echo");
            jsonrpc_send(s->rpc, request);
        }
        break;
    }
}

void
jsonrpc_session_wait(struct jsonrpc_session *s)
{
    if (s->rpc) {
        jsonrpc_wait(s->rpc);
    } else if (s->stream) {
        stream_run_wait(s->stream);
        stream_connect_wait(s->stream);
    }
    if (s->pstream) {
        pstream_wait(s->pstream);
    }
    reconnect_wait(s->reconnect, time_msec());
}

size_t
jsonrpc_session_get_backlog(const struct jsonrpc_session *s)
{
    return s->rpc ? jsonrpc_get_backlog(s->rpc) : 0;
}

const char *
jsonrpc_session_get_name(const struct jsonrpc_session *s)
{
    return s->name;
}

const char *
jsonrpc_session_get_peer_id(const struct jsonrpc_session *s)
{
    return s->rpc ? jsonrpc_get_peer_id(s->rpc) : NULL;
}

size_t
jsonrpc_session_get_num_of_remotes(const struct jsonrpc_session *s)
{
    return s->n_remotes;
}

int
jsonrpc_session_send(struct jsonrpc_session *s, struct jsonrpc_msg *msg)
{
    if (s->rpc) {
        return jsonrpc_send(s->rpc, msg);
    }
    jsonrpc_msg_destroy(msg);
    return ENOTCONN;
}

static bool
is_echo_reply(const struct jsonrpc_msg *msg)
{
    return (msg->type == JSONRPC_REPLY
            && json_is_string(msg->id)
            && !strcmp(json_string_value(msg->id), "echo"));
}

struct jsonrpc_msg *
jsonrpc_session_recv(struct jsonrpc_session *s)
{
    for (int i = 0; i < MAX_ECHOES_PER_RECV && s->rpc; i++) {
        long long int now = time_msec();
        unsigned long long int received
            = jsonrpc_get_received_bytes(s->rpc);
        struct jsonrpc_msg *msg;

        reconnect_receive_attempted(s->reconnect, now);
        int error = jsonrpc_recv(s->rpc, &msg);
        if (jsonrpc_get_received_bytes(s->rpc) != received) {
            reconnect_activity(s->reconnect, now);
        }
        if (error) {
            /* EAGAIN, or a failure that jsonrpc_session_run() handles. */
            return NULL;
        }

        if (msg->type == JSONRPC_REQUEST && !strcmp(msg->method, "echo")) {
            jsonrpc_session_send(s, jsonrpc_create_reply(
                                     json_incref(msg->params),
                                     json_incref(msg->id)));
        } else if (!is_echo_reply(msg)) {
            return msg;
        }
        jsonrpc_msg_destroy(msg);
    }
    return NULL;
}

void
jsonrpc_session_recv_wait(struct jsonrpc_session *s)
{
    if (s->rpc) {
        jsonrpc_recv_wait(s->rpc);
    }
}

bool
jsonrpc_session_is_alive(const struct jsonrpc_session *s)
{
    return s->rpc || s->stream || reconnect_is_enabled(s->reconnect);
}

bool
jsonrpc_session_is_connected(const struct jsonrpc_session *s)
{
    return s->rpc != NULL;
}

unsigned int
jsonrpc_session_get_seqno(const struct jsonrpc_session *s)
{
    return s->seqno;
}

int
jsonrpc_session_get_status(const struct jsonrpc_session *s)
{
    return s->rpc ? jsonrpc_get_status(s->rpc) : 0;
}

int
jsonrpc_session_get_last_error(const struct jsonrpc_session *s)
{
    return s->last_error;
}

void
jsonrpc_session_get_reconnect_stats(const struct jsonrpc_session *s,
                                    struct reconnect_stats *stats)
{
    reconnect_get_stats(s->reconnect, time_msec(), stats);
}

void
jsonrpc_session_enable_reconnect(struct jsonrpc_session *s)
{
    reconnect_set_max_tries(s->reconnect, UINT_MAX);
    reconnect_set_backoff(s->reconnect, RECONNECT_DEFAULT_MIN_BACKOFF,
                          RECONNECT_DEFAULT_MAX_BACKOFF);
}

void
jsonrpc_session_force_reconnect(struct jsonrpc_session *s)
{
    reconnect_force_reconnect(s->reconnect, time_msec());
}

void
jsonrpc_session_reset_backoff(struct jsonrpc_session *s)
{
    reconnect_reset_backoff(s->reconnect);
}

void
jsonrpc_session_set_max_backoff(struct jsonrpc_session *s, int max_backoff)
{
    reconnect_set_backoff(s->reconnect,
                          reconnect_get_min_backoff(s->reconnect),
                          max_backoff);
}

void
jsonrpc_session_set_probe_interval(struct jsonrpc_session *s,
                                   int probe_interval)
{
    reconnect_set_probe_interval(s->reconnect,
                                 replay_is_active() ? 0 : probe_interval);
}

void
jsonrpc_session_set_dscp(struct jsonrpc_session *s, uint8_t dscp)
{
    if (s->dscp != dscp) {
        /* The DSCP is applied when a socket is made: make new ones. */
        pstream_close(s->pstream);
        s->pstream = NULL;
        s->dscp = dscp;
        jsonrpc_session_force_reconnect(s);
    }
}

void
jsonrpc_session_set_backlog_threshold(struct jsonrpc_session *s,
                                      size_t max_backlog_bytes)
{
    s->backlog_threshold = max_backlog_bytes;
    if (s->rpc) {
        jsonrpc_set_backlog_threshold(s->rpc, max_backlog_bytes);
    }
}
