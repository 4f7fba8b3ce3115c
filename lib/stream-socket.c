/* stream-socket: the stream provider for real sockets (unix:, tcp:, ssl:
 * and their passive forms); see stream-provider.h.  Connected sockets are
 * libevent bufferevents, TLS ones made by stream-ssl.c.  What the answers
 * mean is logged by the front (stream.c), not here. */
#include <config.h>
#include "stream-provider.h"

#include <errno.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/tcp.h>
#include <unistd.h>

#include "fatal-signal.h"
#include "poll-loop.h"
#include "socket-util.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(stream_fd);

/* Reading pauses once this much unread input piles up, so a peer cannot make
 * us buffer without bound while our owner is busy; it resumes as the owner
 * drains the input.  The pause is ours (the read callback disables EV_READ)
 * rather than a bufferevent read watermark: libevent 2.1.11 and later keep
 * re-running the read callback of a bufferevent that sits at its high
 * watermark, and since that callback leaves the data for the owner, one
 * event_base_loop(EVLOOP_ONCE) would never return and the owner would never
 * get to drain it (libevent issue #891). */
#define STREAM_READ_HIGH_WATERMARK (1024 * 1024)

enum socket_state {
    SS_CONNECTING,      /* Nonblocking connect() in progress; no bev yet. */
    SS_HANDSHAKE,       /* TLS handshake in progress. */
    SS_CONNECTED,       /* Usable (possibly since failed: see 'error'). */
    SS_FAILED           /* Never got connected: 'error' says why. */
};

struct socket_stream {
    struct stream up;
    char *peer_name;            /* "IP:PORT" or NULL. */
    char *peer_id;              /* TLS peer's common name, once asked. */
    bool peer_id_known;         /* 'peer_id' was looked up. */
    enum stream_kind kind;
    enum socket_state state;
    int fd;                     /* Owned by us while 'bev' is NULL. */
    struct bufferevent *bev;    /* Owns the fd once created. */
    struct evbuffer *pending;   /* Data sent before 'bev' existed. */
    int error;                  /* Positive errno value, 0 if none. */
    int send_error;             /* Sending is impossible, receiving not. */
    bool eof;                   /* Peer closed its side. */
    bool read_paused;           /* EV_READ off: input is at the limit. */
    bool corked;                /* Sends gather in 'corked_output'. */
    struct evbuffer *corked_output; /* NULL until first corked. */
    size_t queued_at_last_push; /* Output queued after the last push. */
};

/* Once this much more has queued in a connection's output since the last
 * try, a send tries to hand the kernel what it will take now, instead of
 * leaving all of it to the event loop.  A large reply (a flow dump of many
 * parts) then reaches the peer while it is still being built, so the peer
 * decodes as we encode; the interval keeps a connection whose peer is
 * not reading from costing a failed write per message. */
#define SOCKET_PUSH_INTERVAL (64 * 1024)

struct socket_pstream {
    struct pstream up;
    enum stream_kind kind;
    int fd;
    char *unix_path;            /* punix: the file to remove on close. */
    uint8_t dscp;
    /* Created by the first wait: a listener is waited on in every iteration
     * but rarely ready, so it stays registered instead (and accept() is
     * tried only once it fired). */
    struct poll_watch *watch;
};

static const struct stream_class socket_stream_class;
static void socket_uncork(struct stream *);
static const struct pstream_class socket_pstream_class;

static struct socket_stream *
socket_stream_cast(const struct stream *s)
{
    return CONTAINER_OF(s, struct socket_stream, up);
}

static struct socket_pstream *
socket_pstream_cast(const struct pstream *p)
{
    return CONTAINER_OF(p, struct socket_pstream, up);
}

static struct socket_stream *
socket_stream_create(const char *name, enum stream_kind kind, int fd)
{
    struct socket_stream *s = xzalloc(sizeof *s);
    stream_init(&s->up, &socket_stream_class, name);
    s->kind = kind;
    s->state = SS_CONNECTING;
    s->fd = fd;
    return s;
}

static void
socket_stream_fail(struct socket_stream *s, int error)
{
    if (!s->error) {
        s->error = error;
    }
    if (s->state != SS_CONNECTED) {
        s->state = SS_FAILED;
    }
}

static void
socket_read_cb(struct bufferevent *bev, void *s_)
{
    struct socket_stream *s = s_;

    /* The data stays in the input buffer for recv.  Running at all ends
     * poll_block(), which is what the owner's stream_wait() relies on. */
    if (evbuffer_get_length(bufferevent_get_input(bev))
        >= STREAM_READ_HIGH_WATERMARK) {
        bufferevent_disable(bev, EV_READ);
        s->read_paused = true;
    }
}

static void
socket_write_cb(struct bufferevent *bev OVS_UNUSED, void *s_ OVS_UNUSED)
{
    /* Output drained: ending poll_block() wakes owners waiting in
     * STREAM_SEND. */
}

static void
socket_event_cb(struct bufferevent *bev, short int what, void *s_)
{
    struct socket_stream *s = s_;

    if (what & BEV_EVENT_CONNECTED) {
        /* Only TLS bufferevents report this: the handshake is done. */
        if (s->state == SS_HANDSHAKE) {
            s->state = SS_CONNECTED;
        }
    }
    if (what & BEV_EVENT_ERROR) {
        int error = EVUTIL_SOCKET_ERROR();
        if (s->kind == KIND_SSL) {
            int ssl_error = stream_ssl_report_errors(s->up.name, bev);
            if (ssl_error) {
                error = ssl_error;
            }
        }
        if (!error) {
            error = s->state == SS_HANDSHAKE ? EPROTO : ECONNRESET;
        }
        socket_stream_fail(s, error);
    } else if (what & BEV_EVENT_EOF) {
        if (s->state == SS_HANDSHAKE) {
            VLOG_WARN("%s: connection closed by peer during TLS handshake",
                      s->up.name);
            socket_stream_fail(s, EPROTO);
        } else {
            s->eof = true;
            if (s->kind == KIND_SSL) {
                /* TLS has no half-close: the bufferevent writes no more, so
                 * output still queued would wait forever. */
                s->send_error = EPIPE;
            }
        }
    }
}

/* Hands S's connected socket over to a new bufferevent.  Returns 0 or a
 * positive errno value (after which S has failed). */
static int
socket_attach_bufferevent(struct socket_stream *s, bool server)
{
    struct event_base *base = poll_loop_base();
    struct bufferevent *bev;

    if (s->kind == KIND_SSL) {
        int error = stream_ssl_bufferevent_new(s->up.name, base, s->fd,
                                               server, &bev);
        if (error) {
            socket_stream_fail(s, error);
            return error;
        }
        s->state = SS_HANDSHAKE;
    } else {
        bev = bufferevent_socket_new(base, s->fd, BEV_OPT_CLOSE_ON_FREE);
        if (!bev) {
            socket_stream_fail(s, ENOMEM);
            return ENOMEM;
        }
        s->state = SS_CONNECTED;
    }
    s->fd = -1;
    s->bev = bev;

    bufferevent_setcb(bev, socket_read_cb, socket_write_cb, socket_event_cb,
                      s);
    bufferevent_enable(bev, EV_READ | EV_WRITE);

    if (s->pending) {
        bufferevent_write_buffer(bev, s->pending);
        evbuffer_free(s->pending);
        s->pending = NULL;
    }
    return 0;
}

int
socket_stream_open(const char *name, enum stream_kind kind, const char *rest,
                   uint16_t default_port, struct stream **streamp,
                   uint8_t dscp)
{
    int fd = -1;
    int error;

    *streamp = NULL;
    if (kind == KIND_UNIX) {
        error = unix_open_active(rest, &fd);
        if (!error) {
            *streamp = &socket_stream_create(name, kind, fd)->up;
        }
        return error;
    }

    if (kind == KIND_SSL) {
        error = stream_ssl_check_config(name);
        if (error) {
            return error;
        }
    }
    struct sockaddr_storage ss;
    error = inet_parse_active(rest, default_port, &ss);
    if (!error) {
        error = inet_open_active(&ss, dscp, &fd);
    }
    if (!error) {
        struct socket_stream *s = socket_stream_create(name, kind, fd);
        s->peer_name = ss_format_address_port(&ss);
        *streamp = &s->up;
    }
    return error;
}

static void
socket_close(struct stream *s_)
{
    struct socket_stream *s = socket_stream_cast(s_);

    socket_uncork(s_);
    if (s->corked_output) {
        evbuffer_free(s->corked_output);
    }
    if (s->bev) {
        if (s->state == SS_CONNECTED && !s->error) {
            if (s->kind == KIND_SSL) {
                stream_ssl_shutdown(s->bev);
            } else {
                /* Output is normally written from the event loop; give what
                 * is still queued (say, a reply just sent) one nonblocking
                 * chance to go out, as a plain write() would have had. */
                struct evbuffer *output = bufferevent_get_output(s->bev);
                /* The bufferevent keeps its output frozen against outside
                 * draining; it is ours to drain now. */
                evbuffer_unfreeze(output, 1);
                evbuffer_write(output, bufferevent_getfd(s->bev));
            }
        }
        bufferevent_free(s->bev);
    } else if (s->fd >= 0) {
        close(s->fd);
    }
    if (s->pending) {
        evbuffer_free(s->pending);
    }
    free(s->peer_name);
    free(s->peer_id);
    free(s);
}

static const char *
socket_get_peer_name(const struct stream *s_)
{
    const struct socket_stream *s = socket_stream_cast(s_);
    return s->state == SS_CONNECTED ? s->peer_name : NULL;
}

static const char *
socket_get_peer_id(const struct stream *s_)
{
    struct socket_stream *s = socket_stream_cast(s_);

    if (s->kind != KIND_SSL || s->state != SS_CONNECTED) {
        return NULL;
    }
    if (!s->peer_id_known) {
        /* The certificate cannot change once the handshake is done. */
        s->peer_id = stream_ssl_get_peer_common_name(s->bev);
        s->peer_id_known = true;
    }
    return s->peer_id;
}

static int
socket_connect(struct stream *s_)
{
    struct socket_stream *s = socket_stream_cast(s_);

    switch (s->state) {
    case SS_CONNECTING: {
        int error = check_connection_completion(s->fd);
        if (error == EAGAIN) {
            return EAGAIN;
        } else if (error) {
            socket_stream_fail(s, error);
            return error;
        }
        error = socket_attach_bufferevent(s, false);
        if (error) {
            return error;
        }
        return s->state == SS_CONNECTED ? 0 : EAGAIN;
    }

    case SS_HANDSHAKE:
        return EAGAIN;

    case SS_CONNECTED:
        return 0;

    case SS_FAILED:
    default:
        return s->error;
    }
}

static int
socket_recv(struct stream *s_, void *buffer, size_t n)
{
    struct socket_stream *s = socket_stream_cast(s_);

    if (s->state != SS_CONNECTED) {
        int error = socket_connect(s_);
        if (error) {
            return -error;
        }
    }
    if (!n) {
        return 0;
    }

    struct evbuffer *input = bufferevent_get_input(s->bev);
    if (evbuffer_get_length(input)) {
        int retval = evbuffer_remove(input, buffer, MIN(n, INT_MAX));
        if (s->read_paused
            && evbuffer_get_length(input) < STREAM_READ_HIGH_WATERMARK) {
            s->read_paused = false;
            bufferevent_enable(s->bev, EV_READ);
        }
        return retval < 0 ? -EIO : retval;
    } else if (s->error) {
        return -s->error;
    } else if (s->eof) {
        return 0;
    }
    return -EAGAIN;
}

static int
socket_get_error(const struct stream *s_)
{
    const struct socket_stream *s = socket_stream_cast(s_);
    return s->error ? s->error : s->send_error;
}

static int
socket_send(struct stream *s_, const void *buffer, size_t n)
{
    struct socket_stream *s = socket_stream_cast(s_);
    int error = socket_get_error(s_);
    if (error) {
        return -error;
    } else if (n > INT_MAX) {
        return -EMSGSIZE;
    }

    int retval;
    if (s->corked && s->bev) {
        retval = evbuffer_add(s->corked_output, buffer, n);
    } else if (s->bev) {
        size_t sent = 0;
        struct evbuffer *output = bufferevent_get_output(s->bev);
        size_t queued = evbuffer_get_length(output);
        if (queued < s->queued_at_last_push) {
            /* The event loop wrote some since. */
            s->queued_at_last_push = queued;
        }
        if (s->kind != KIND_SSL && queued
            && queued >= s->queued_at_last_push + SOCKET_PUSH_INTERVAL) {
            /* A socket bufferevent keeps its output's start frozen, so
             * that only its own write callback drains it; do as it does. */
            evbuffer_unfreeze(output, 1);
            int written = evbuffer_write(output, bufferevent_getfd(s->bev));
            int write_errno = errno;
            evbuffer_freeze(output, 1);
            if (written < 0 && write_errno != EAGAIN
                && write_errno != EWOULDBLOCK && write_errno != EINTR) {
                int send_errno = write_errno;
                socket_stream_fail(s, send_errno);
                return -send_errno;
            }
            queued = evbuffer_get_length(output);
            s->queued_at_last_push = queued;
        }
        if (s->kind != KIND_SSL && !queued) {
            /* Nothing is queued, so writing straight to the socket keeps the
             * order and saves what going through the bufferevent costs: a
             * write event armed and disarmed (two epoll_ctl calls) and a
             * loop iteration of delay per message, which is most of a busy
             * server's time per reply. */
            ssize_t retval_ = send(bufferevent_getfd(s->bev), buffer, n,
                                   MSG_DONTWAIT | MSG_NOSIGNAL);
            if (retval_ >= 0) {
                sent = retval_;
            } else if (errno != EAGAIN && errno != EWOULDBLOCK
                       && errno != EINTR) {
                int send_errno = errno;
                socket_stream_fail(s, send_errno);
                return -send_errno;
            }
        }
        retval = (sent == n ? 0
                  : bufferevent_write(s->bev, (const char *) buffer + sent,
                                      n - sent));
    } else {
        /* Still connecting: keep the data until there is a bufferevent to
         * hand it to, so callers need not care when the connection is
         * made. */
        if (!s->pending) {
            s->pending = evbuffer_new();
            if (!s->pending) {
                return -ENOMEM;
            }
        }
        retval = evbuffer_add(s->pending, buffer, n);
    }
    return retval < 0 ? -ENOMEM : (int) n;
}

static size_t
socket_get_backlog(const struct stream *s_)
{
    const struct socket_stream *s = socket_stream_cast(s_);
    if (s->bev) {
        return (evbuffer_get_length(bufferevent_get_output(s->bev))
                + (s->corked_output
                   ? evbuffer_get_length(s->corked_output) : 0));
    }
    return s->pending ? evbuffer_get_length(s->pending) : 0;
}

static void
socket_cork(struct stream *s_)
{
    struct socket_stream *s = socket_stream_cast(s_);
    /* TLS records are the bufferevent's business, and a stream still
     * connecting queues everything anyway. */
    if (s->kind == KIND_SSL || !s->bev || s->state != SS_CONNECTED) {
        return;
    }
    if (!s->corked_output) {
        s->corked_output = evbuffer_new();
        if (!s->corked_output) {
            return;
        }
    }
    s->corked = true;
}

static void
socket_uncork(struct stream *s_)
{
    struct socket_stream *s = socket_stream_cast(s_);
    if (!s->corked) {
        return;
    }
    s->corked = false;
    struct evbuffer *gathered = s->corked_output;
    if (!evbuffer_get_length(gathered)) {
        return;
    }
    struct evbuffer *output = bufferevent_get_output(s->bev);
    if (!socket_get_error(s_) && !evbuffer_get_length(output)) {
        /* As in socket_send(): straight to the socket while nothing is
         * queued ahead, in one writev() for everything gathered. */
        if (evbuffer_write(gathered, bufferevent_getfd(s->bev)) < 0
            && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            socket_stream_fail(s, errno);
            evbuffer_drain(gathered, evbuffer_get_length(gathered));
            return;
        }
    }
    if (evbuffer_get_length(gathered)) {
        bufferevent_write_buffer(s->bev, gathered);
    }
}

static void
socket_run(struct stream *s_)
{
    struct socket_stream *s = socket_stream_cast(s_);
    if (s->state == SS_CONNECTING) {
        socket_connect(s_);
    }
}

static void
socket_run_wait(struct stream *s_)
{
    struct socket_stream *s = socket_stream_cast(s_);
    if (s->state == SS_CONNECTING) {
        poll_fd_wait(s->fd, POLLOUT);
    }
}

static void
socket_wait(struct stream *s_, enum stream_wait_type type)
{
    struct socket_stream *s = socket_stream_cast(s_);

    switch (s->state) {
    case SS_CONNECTING:
        /* Whatever the caller waits for, the connection comes first. */
        poll_fd_wait(s->fd, POLLOUT);
        return;

    case SS_HANDSHAKE:
        /* The bufferevent's events end poll_block() as the handshake
         * progresses and when it completes or fails. */
        return;

    case SS_FAILED:
        poll_immediate_wake();
        return;

    case SS_CONNECTED:
        break;
    }

    if (s->error) {
        poll_immediate_wake();
        return;
    }

    switch (type) {
    case STREAM_CONNECT:
        poll_immediate_wake();
        break;

    case STREAM_RECV:
        if (s->eof || evbuffer_get_length(bufferevent_get_input(s->bev))) {
            poll_immediate_wake();
        }
        break;

    case STREAM_SEND:
        if (!socket_get_backlog(s_) || s->send_error) {
            poll_immediate_wake();
        }
        break;
    }
}

static const struct stream_class socket_stream_class = {
    .close = socket_close,
    .connect = socket_connect,
    .recv = socket_recv,
    .send = socket_send,
    .get_backlog = socket_get_backlog,
    .get_error = socket_get_error,
    .get_peer_name = socket_get_peer_name,
    .get_peer_id = socket_get_peer_id,
    .run = socket_run,
    .run_wait = socket_run_wait,
    .wait = socket_wait,
    .cork = socket_cork,
    .uncork = socket_uncork,
};

/* Passive streams. */

int
socket_pstream_open(const char *name, enum stream_kind kind, const char *rest,
                    uint16_t default_port, struct pstream **pstreamp,
                    uint8_t dscp)
{
    struct socket_pstream *p;
    int fd = -1;
    int error;

    *pstreamp = NULL;
    if (kind == KIND_UNIX) {
        error = unix_open_passive(rest, &fd);
        if (error) {
            return error;
        }
        p = xzalloc(sizeof *p);
        pstream_init(&p->up, &socket_pstream_class, name, 0);
        p->unix_path = xstrdup(rest);
        fatal_signal_add_file_to_unlink(rest);
    } else {
        struct sockaddr_storage ss, bound;
        error = kind == KIND_SSL ? stream_ssl_check_config(name) : 0;
        if (!error) {
            error = inet_parse_passive(rest, default_port, &ss);
        }
        if (!error) {
            error = inet_open_passive(&ss, dscp, &fd, &bound);
        }
        if (error) {
            return error;
        }
        char addr[INET6_ADDRSTRLEN + 3];
        ss_format_address(&bound, addr, sizeof addr);
        uint16_t port = ss_get_port(&bound);
        char *real_name = xasprintf("%s:%"PRIu16":%s",
                                    kind == KIND_SSL ? "pssl" : "ptcp",
                                    port, addr);
        p = xzalloc(sizeof *p);
        pstream_init(&p->up, &socket_pstream_class, real_name, port);
        free(real_name);
    }
    p->kind = kind;
    p->dscp = dscp;
    p->fd = fd;
    *pstreamp = &p->up;
    return 0;
}

static void
socket_pstream_close(struct pstream *p_)
{
    struct socket_pstream *p = socket_pstream_cast(p_);

    poll_watch_destroy(p->watch);
    close(p->fd);
    if (p->unix_path) {
        fatal_signal_unlink_file_now(p->unix_path);
        free(p->unix_path);
    }
    free(p);
}

static int
socket_pstream_accept(struct pstream *p_, struct stream **streamp)
{
    static unsigned int next_unix_serial;   /* Atomic: any thread accepts. */
    struct socket_pstream *p = socket_pstream_cast(p_);
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;

    *streamp = NULL;
    if (p->watch && !poll_watch_may_be_ready(p->watch)) {
        return EAGAIN;
    }
    memset(&ss, 0, sizeof ss);
    int fd = accept4(p->fd, (struct sockaddr *) &ss, &len,
                     SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
        int error = errno;
        if (error == EWOULDBLOCK) {
            if (p->watch) {
                poll_watch_rearm(p->watch);
            }
            return EAGAIN;
        }
        return error;
    }

    struct socket_stream *s;
    if (p->kind == KIND_UNIX) {
        unsigned int serial = __atomic_fetch_add(&next_unix_serial, 1,
                                                 __ATOMIC_RELAXED);
        char *name = xasprintf("unix#%u", serial);
        s = socket_stream_create(name, KIND_UNIX, fd);
        free(name);
    } else {
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (p->dscp) {
            set_dscp(fd, ss.ss_family, p->dscp);
        }
        char *peer = ss_format_address_port(&ss);
        char *name = xasprintf("%s:%s", p->kind == KIND_SSL ? "ssl" : "tcp",
                               peer);
        s = socket_stream_create(name, p->kind, fd);
        s->peer_name = peer;
        free(name);
    }

    int error = socket_attach_bufferevent(s, true);
    if (error) {
        stream_close(&s->up);
        return error;
    }
    *streamp = &s->up;
    return 0;
}

static void
socket_pstream_wait(struct pstream *p_)
{
    struct socket_pstream *p = socket_pstream_cast(p_);
    if (!p->watch) {
        p->watch = poll_watch_create(p->fd, POLLIN);
    }
    poll_watch_wait(p->watch);
}

static const struct pstream_class socket_pstream_class = {
    .close = socket_pstream_close,
    .accept = socket_pstream_accept,
    .wait = socket_pstream_wait,
};
