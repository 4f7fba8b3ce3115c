/* stream: the front of the stream layer (see stream-provider.h): names,
 * the choice of provider, logging, and recording. */
#include <config.h>
#include "stream.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "fatal-signal.h"
#include "poll-loop.h"
#include "replay.h"
#include "stream-provider.h"
#include "timeval.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(stream);

static void
stream_layer_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    /* Writing to a peer that went away must be an EPIPE error for the stream
     * at hand, not a signal that kills the whole process. */
    pthread_once(&once, fatal_ignore_sigpipe);
}

bool
stream_kind_from_name(const char *name, bool passive, enum stream_kind *kind,
                      const char **rest)
{
    static const struct {
        const char *prefix;
        enum stream_kind kind;
        bool passive;
    } types[] = {
        { "unix:",  KIND_UNIX, false },
        { "tcp:",   KIND_TCP,  false },
        { "ssl:",   KIND_SSL,  false },
        { "punix:", KIND_UNIX, true },
        { "ptcp:",  KIND_TCP,  true },
        { "pssl:",  KIND_SSL,  true },
    };

    for (size_t i = 0; i < ARRAY_SIZE(types); i++) {
        if (types[i].passive == passive
            && string_starts_with(name, types[i].prefix)) {
            *kind = types[i].kind;
            *rest = name + strlen(types[i].prefix);
            return true;
        }
    }
    return false;
}

bool
stream_is_active_name(const char *name)
{
    enum stream_kind kind;
    const char *rest;
    return stream_kind_from_name(name, false, &kind, &rest);
}

bool
pstream_is_passive_name(const char *name)
{
    enum stream_kind kind;
    const char *rest;
    return stream_kind_from_name(name, true, &kind, &rest);
}

bool
stream_or_pstream_needs_probes(const char *name)
{
    enum stream_kind kind;
    const char *rest;
    if (stream_kind_from_name(name, false, &kind, &rest)
        || stream_kind_from_name(name, true, &kind, &rest)) {
        return kind != KIND_UNIX;
    }
    return false;
}

static int
verify_name(const char *name, bool passive)
{
    enum stream_kind kind;
    const char *rest;

    if (!stream_kind_from_name(name, passive, &kind, &rest)) {
        return EAFNOSUPPORT;
    }
    if (kind == KIND_UNIX && !*rest) {
        return EINVAL;
    }
    if (kind == KIND_SSL && replay_get_mode() != REPLAY_REPLAY) {
        return stream_ssl_check_config(name);
    }
    return 0;
}

int
stream_verify_name(const char *name)
{
    return verify_name(name, false);
}

int
pstream_verify_name(const char *name)
{
    return verify_name(name, true);
}

/* Checks NAME's syntax, logging what is wrong.  Returns 0 with *KIND and
 * *REST set, or a positive errno value. */
static int
parse_name(const char *name, bool passive, enum stream_kind *kind,
           const char **rest)
{
    if (!stream_kind_from_name(name, passive, kind, rest)) {
        if (passive) {
            VLOG_WARN("%s: unknown passive stream type (expected punix:, "
                      "ptcp: or pssl:)", name);
        } else {
            VLOG_WARN("%s: unknown stream type (expected unix:, tcp: or "
                      "ssl:)", name);
        }
        return EAFNOSUPPORT;
    }
    if (*kind == KIND_UNIX && !**rest) {
        VLOG_ERR("%s: missing socket path", name);
        return EINVAL;
    }
    return 0;
}

/* Streams. */

void
stream_init(struct stream *s, const struct stream_class *class,
            const char *name)
{
    s->class = class;
    s->name = xstrdup(name);
    s->record = NULL;
    s->eof_logged = false;
    s->error_logged = false;
}

int
stream_open_with_default_port(const char *name, uint16_t default_port,
                              struct stream **streamp, uint8_t dscp)
{
    enum stream_kind kind;
    const char *rest;

    stream_layer_init();
    *streamp = NULL;

    int error = parse_name(name, false, &kind, &rest);
    if (error) {
        return error;
    }

    switch (replay_get_mode()) {
    case REPLAY_REPLAY:
        error = replay_stream_open(name, streamp);
        break;
    case REPLAY_RECORD:
        error = socket_stream_open(name, kind, rest, default_port, streamp,
                                   dscp);
        record_stream_open(name, error, *streamp);
        break;
    case REPLAY_OFF:
    default:
        error = socket_stream_open(name, kind, rest, default_port, streamp,
                                   dscp);
        break;
    }
    if (error) {
        VLOG_DBG("%s: connection failed (%s)", name, ovs_strerror(error));
    }
    return error;
}

int
stream_open(const char *name, struct stream **streamp, uint8_t dscp)
{
    return stream_open_with_default_port(name, 0, streamp, dscp);
}

int
stream_open_block(int error, long long int timeout, struct stream **streamp)
{
    struct stream *s = *streamp;

    if (!error) {
        long long int deadline = (timeout < 0 ? LLONG_MAX
                                  : time_msec() + timeout);
        while ((error = stream_connect(s)) == EAGAIN) {
            if (time_msec() >= deadline) {
                error = ETIMEDOUT;
                break;
            }
            stream_run(s);
            stream_run_wait(s);
            stream_connect_wait(s);
            if (deadline != LLONG_MAX) {
                poll_timer_wait_until(deadline);
            }
            fatal_signal_block();
        }
    }
    if (error) {
        stream_close(s);
        *streamp = NULL;
    }
    return error;
}

void
stream_close(struct stream *s)
{
    if (s) {
        struct replay_file *record = s->record;
        char *name = s->name;
        s->class->close(s);
        replay_file_close(record);
        free(name);
    }
}

const char *
stream_get_name(const struct stream *s)
{
    return s->name;
}

const char *
stream_get_peer_name(const struct stream *s)
{
    const char *peer_name = s->class->get_peer_name(s);
    if (s->record) {
        record_string(s, REC_PEER_NAME,
                      peer_name);
    }
    return peer_name;
}

const char *
stream_get_peer_id(const struct stream *s)
{
    const char *peer_id = s->class->get_peer_id(s);
    if (s->record) {
        record_string(s, REC_PEER_ID, peer_id);
    }
    return peer_id;
}

/* Says once that S failed with ERROR (positive errno value) while doing
 * WHAT, so that a replay, which has no socket to fail, logs it too. */
static void
log_failure(struct stream *s, const char *what, int error)
{
    if (!s->error_logged) {
        s->error_logged = true;
        VLOG_DBG("%s: %s (%s)", s->name, what, ovs_strerror(error));
    }
}

int
stream_connect(struct stream *s)
{
    int error = s->class->connect(s);
    if (s->record) {
        record_int(s, REC_CONNECT, error);
    }
    if (error && error != EAGAIN) {
        log_failure(s, "connection failed", error);
    }
    return error;
}

int
stream_recv(struct stream *s, void *buffer, size_t n)
{
    int retval = s->class->recv(s, buffer, n);
    if (s->record) {
        record_recv(s, retval, buffer);
    }
    if (!retval && n && !s->eof_logged) {
        s->eof_logged = true;
        VLOG_DBG("%s: connection closed by peer", s->name);
    } else if (retval < 0 && retval != -EAGAIN) {
        log_failure(s, "receive error", -retval);
    }
    return retval;
}

int
stream_send(struct stream *s, const void *buffer, size_t n)
{
    int retval = s->class->send(s, buffer, n);
    if (s->record) {
        record_int(s, REC_SEND, retval);
    }
    if (retval < 0) {
        log_failure(s, "send error", -retval);
    }
    return retval;
}

size_t
stream_get_backlog(const struct stream *s)
{
    size_t backlog = s->class->get_backlog(s);
    if (s->record) {
        record_int(s, REC_BACKLOG, backlog);
    }
    return backlog;
}

void
stream_cork(struct stream *s)
{
    if (s->class->cork) {
        s->class->cork(s);
    }
}

void
stream_uncork(struct stream *s)
{
    if (s->class->uncork) {
        s->class->uncork(s);
    }
}

int
stream_get_error(const struct stream *s)
{
    int error = s->class->get_error(s);
    if (s->record) {
        record_int(s, REC_ERROR, error);
    }
    return error;
}

void
stream_run(struct stream *s)
{
    s->class->run(s);
}

void
stream_run_wait(struct stream *s)
{
    s->class->run_wait(s);
}

void
stream_wait(struct stream *s, enum stream_wait_type type)
{
    s->class->wait(s, type);
}

void
stream_connect_wait(struct stream *s)
{
    stream_wait(s, STREAM_CONNECT);
}

void
stream_recv_wait(struct stream *s)
{
    stream_wait(s, STREAM_RECV);
}

void
stream_send_wait(struct stream *s)
{
    stream_wait(s, STREAM_SEND);
}

/* Passive streams. */

void
pstream_init(struct pstream *p, const struct pstream_class *class,
             const char *name, uint16_t bound_port)
{
    p->class = class;
    p->name = xstrdup(name);
    p->bound_port = bound_port;
    p->record = NULL;
}

int
pstream_open_with_default_port(const char *name, uint16_t default_port,
                               struct pstream **pstreamp, uint8_t dscp)
{
    enum stream_kind kind;
    const char *rest;

    stream_layer_init();
    *pstreamp = NULL;

    int error = parse_name(name, true, &kind, &rest);
    if (error) {
        return error;
    }

    switch (replay_get_mode()) {
    case REPLAY_REPLAY:
        error = replay_pstream_open(name, pstreamp);
        break;
    case REPLAY_RECORD:
        error = socket_pstream_open(name, kind, rest, default_port, pstreamp,
                                    dscp);
        record_pstream_open(name, error, *pstreamp);
        break;
    case REPLAY_OFF:
    default:
        error = socket_pstream_open(name, kind, rest, default_port, pstreamp,
                                    dscp);
        break;
    }
    if (error) {
        VLOG_ERR("%s: listen failed (%s)", name, ovs_strerror(error));
    }
    return error;
}

int
pstream_open(const char *name, struct pstream **pstreamp, uint8_t dscp)
{
    return pstream_open_with_default_port(name, 0, pstreamp, dscp);
}

const char *
pstream_get_name(const struct pstream *p)
{
    return p->name;
}

uint16_t
pstream_get_bound_port(const struct pstream *p)
{
    return p->bound_port;
}

void
pstream_close(struct pstream *p)
{
    if (p) {
        struct replay_file *record = p->record;
        char *name = p->name;
        p->class->close(p);
        replay_file_close(record);
        free(name);
    }
}

int
pstream_accept(struct pstream *p, struct stream **streamp)
{
    int error = p->class->accept(p, streamp);
    if (p->record) {
        record_accept(p, error, *streamp);
    }
    if (error && error != EAGAIN && error != EINTR
        && error != ECONNABORTED) {
        static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 10);
        VLOG_WARN_RL(&rl, "%s: accept failed (%s)", p->name,
                     ovs_strerror(error));
    }
    return error;
}

int
pstream_accept_block(struct pstream *p, struct stream **streamp)
{
    int error;
    while ((error = pstream_accept(p, streamp)) == EAGAIN
           || error == EINTR || error == ECONNABORTED) {
        pstream_wait(p);
        fatal_signal_block();
    }
    return error;
}

void
pstream_wait(struct pstream *p)
{
    p->class->wait(p);
}
