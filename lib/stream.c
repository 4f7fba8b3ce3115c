#include <config.h>
#include "stream.h"

#include <errno.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/tcp.h>
#include <unistd.h>

#include "fatal-signal.h"
#include "poll-loop.h"
#include "socket-util.h"
#include "stream-provider.h"
#include "timeval.h"
#include "util.h"
#include "vlog.h"

VLOG_DEFINE_THIS_MODULE(stream);

/* Reading pauses once this much unread input piles up, so a peer cannot make
 * us buffer without bound while our owner is busy; it resumes as the owner
 * drains the input. */
#define STREAM_READ_HIGH_WATERMARK (1024 * 1024)

enum stream_kind {
    KIND_UNIX,
    KIND_TCP,
    KIND_SSL
};

enum stream_state {
    SS_CONNECTING,      /* Nonblocking connect() in progress; no bev yet. */
    SS_HANDSHAKE,       /* TLS handshake in progress. */
    SS_CONNECTED,       /* Usable (possibly since failed: see 'error'). */
    SS_FAILED           /* Never got connected: 'error' says why. */
};

struct stream {
    char *name;
    char *peer_name;            /* "IP:PORT" or NULL. */
    enum stream_kind kind;
    enum stream_state state;
    int fd;                     /* Owned by us while 'bev' is NULL. */
    struct bufferevent *bev;    /* Owns the fd once created. */
    struct evbuffer *pending;   /* Data sent before 'bev' existed. */
    int error;                  /* Positive errno value, 0 if none. */
    int send_error;             /* Sending is impossible, receiving not. */
    bool eof;                   /* Peer closed its side. */
};

struct pstream {
    char *name;
    enum stream_kind kind;
    int fd;
    char *unix_path;            /* punix: the file to remove on close. */
    uint16_t bound_port;
    uint8_t dscp;
    /* Created by the first pstream_wait(): a listener is waited on in every
     * iteration but rarely ready, so it stays registered instead (and
     * pstream_accept() tries accept() only once it fired). */
    struct poll_watch *watch;
};

static void
stream_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    /* Writing to a peer that went away must be an EPIPE error for the stream
     * at hand, not a signal that kills the whole process. */
    pthread_once(&once, fatal_ignore_sigpipe);
}

static bool
kind_from_name(const char *name, bool passive, enum stream_kind *kind,
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
    return kind_from_name(name, false, &kind, &rest);
}

bool
pstream_is_passive_name(const char *name)
{
    enum stream_kind kind;
    const char *rest;
    return kind_from_name(name, true, &kind, &rest);
}

bool
stream_or_pstream_needs_probes(const char *name)
{
    enum stream_kind kind;
    const char *rest;
    if (kind_from_name(name, false, &kind, &rest)
        || kind_from_name(name, true, &kind, &rest)) {
        return kind != KIND_UNIX;
    }
    return false;
}

static int
verify_name(const char *name, bool passive)
{
    enum stream_kind kind;
    const char *rest;

    if (!kind_from_name(name, passive, &kind, &rest)) {
        return EAFNOSUPPORT;
    }
    if (kind == KIND_UNIX && !*rest) {
        return EINVAL;
    }
    if (kind == KIND_SSL) {
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

/* Streams. */

static struct stream *
stream_create(const char *name, enum stream_kind kind, int fd)
{
    struct stream *s = xzalloc(sizeof *s);
    s->name = xstrdup(name);
    s->kind = kind;
    s->state = SS_CONNECTING;
    s->fd = fd;
    return s;
}

static void
stream_fail(struct stream *s, int error)
{
    if (!s->error) {
        s->error = error;
    }
    if (s->state != SS_CONNECTED) {
        s->state = SS_FAILED;
    }
}

static void
stream_read_cb(struct bufferevent *bev OVS_UNUSED, void *s_ OVS_UNUSED)
{
    /* The data stays in the input buffer for stream_recv().  Running at all
     * ends poll_block(), which is what the owner's stream_wait() relies
     * on. */
}

static void
stream_write_cb(struct bufferevent *bev OVS_UNUSED, void *s_ OVS_UNUSED)
{
    /* Output drained: ending poll_block() wakes owners waiting in
     * STREAM_SEND. */
}

static void
stream_event_cb(struct bufferevent *bev, short int what, void *s_)
{
    struct stream *s = s_;

    if (what & BEV_EVENT_CONNECTED) {
        /* Only TLS bufferevents report this: the handshake is done. */
        if (s->state == SS_HANDSHAKE) {
            s->state = SS_CONNECTED;
            VLOG_DBG("%s: TLS handshake complete", s->name);
        }
    }
    if (what & BEV_EVENT_ERROR) {
        int error = EVUTIL_SOCKET_ERROR();
        if (s->kind == KIND_SSL) {
            int ssl_error = stream_ssl_report_errors(s->name, bev);
            if (ssl_error) {
                error = ssl_error;
            }
        }
        if (!error) {
            error = s->state == SS_HANDSHAKE ? EPROTO : ECONNRESET;
        }
        VLOG_DBG("%s: %s error (%s)", s->name,
                 what & BEV_EVENT_READING ? "receive" : "send",
                 ovs_strerror(error));
        stream_fail(s, error);
    } else if (what & BEV_EVENT_EOF) {
        if (s->state == SS_HANDSHAKE) {
            VLOG_WARN("%s: connection closed by peer during TLS handshake",
                      s->name);
            stream_fail(s, EPROTO);
        } else {
            VLOG_DBG("%s: connection closed by peer", s->name);
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
stream_attach_bufferevent(struct stream *s, bool server)
{
    struct event_base *base = poll_loop_base();
    struct bufferevent *bev;

    if (s->kind == KIND_SSL) {
        int error = stream_ssl_bufferevent_new(s->name, base, s->fd, server,
                                               &bev);
        if (error) {
            stream_fail(s, error);
            return error;
        }
        s->state = SS_HANDSHAKE;
    } else {
        bev = bufferevent_socket_new(base, s->fd, BEV_OPT_CLOSE_ON_FREE);
        if (!bev) {
            stream_fail(s, ENOMEM);
            return ENOMEM;
        }
        s->state = SS_CONNECTED;
    }
    s->fd = -1;
    s->bev = bev;

    bufferevent_setcb(bev, stream_read_cb, stream_write_cb, stream_event_cb,
                      s);
    bufferevent_setwatermark(bev, EV_READ, 0, STREAM_READ_HIGH_WATERMARK);
    bufferevent_enable(bev, EV_READ | EV_WRITE);

    if (s->pending) {
        bufferevent_write_buffer(bev, s->pending);
        evbuffer_free(s->pending);
        s->pending = NULL;
    }
    return 0;
}

int
stream_open_with_default_port(const char *name, uint16_t default_port,
                              struct stream **streamp, uint8_t dscp)
{
    enum stream_kind kind;
    const char *rest;
    int fd = -1;
    int error;

    stream_init();
    *streamp = NULL;

    if (!kind_from_name(name, false, &kind, &rest)) {
        VLOG_WARN("%s: unknown stream type (expected unix:, tcp: or ssl:)",
                  name);
        return EAFNOSUPPORT;
    }

    if (kind == KIND_UNIX) {
        if (!*rest) {
            VLOG_ERR("%s: missing socket path", name);
            return EINVAL;
        }
        error = unix_open_active(rest, &fd);
    } else {
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
            struct stream *s = stream_create(name, kind, fd);
            s->peer_name = ss_format_address_port(&ss);
            *streamp = s;
            return 0;
        }
    }
    if (error) {
        VLOG_DBG("%s: connection failed (%s)", name, ovs_strerror(error));
        return error;
    }
    *streamp = stream_create(name, kind, fd);
    return 0;
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
            poll_block();
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
    if (!s) {
        return;
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
    free(s->name);
    free(s->peer_name);
    free(s);
}

const char *
stream_get_name(const struct stream *s)
{
    return s->name;
}

const char *
stream_get_peer_name(const struct stream *s)
{
    return s->state == SS_CONNECTED ? s->peer_name : NULL;
}

int
stream_connect(struct stream *s)
{
    switch (s->state) {
    case SS_CONNECTING: {
        int error = check_connection_completion(s->fd);
        if (error == EAGAIN) {
            return EAGAIN;
        } else if (error) {
            VLOG_DBG("%s: connection failed (%s)", s->name,
                     ovs_strerror(error));
            stream_fail(s, error);
            return error;
        }
        error = stream_attach_bufferevent(s, false);
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

int
stream_recv(struct stream *s, void *buffer, size_t n)
{
    if (s->state != SS_CONNECTED) {
        int error = stream_connect(s);
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
        return retval < 0 ? -EIO : retval;
    } else if (s->error) {
        return -s->error;
    } else if (s->eof) {
        return 0;
    }
    return -EAGAIN;
}

int
stream_send(struct stream *s, const void *buffer, size_t n)
{
    int error = stream_get_error(s);
    if (error) {
        return -error;
    } else if (n > INT_MAX) {
        return -EMSGSIZE;
    }

    int retval;
    if (s->bev) {
        size_t sent = 0;
        if (s->kind != KIND_SSL
            && !evbuffer_get_length(bufferevent_get_output(s->bev))) {
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
                VLOG_DBG("%s: send error (%s)", s->name,
                         ovs_strerror(send_errno));
                stream_fail(s, send_errno);
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

size_t
stream_get_backlog(const struct stream *s)
{
    if (s->bev) {
        return evbuffer_get_length(bufferevent_get_output(s->bev));
    }
    return s->pending ? evbuffer_get_length(s->pending) : 0;
}

int
stream_get_error(const struct stream *s)
{
    return s->error ? s->error : s->send_error;
}

void
stream_run(struct stream *s)
{
    if (s->state == SS_CONNECTING) {
        stream_connect(s);
    }
}

void
stream_run_wait(struct stream *s)
{
    if (s->state == SS_CONNECTING) {
        poll_fd_wait(s->fd, POLLOUT);
    }
}

void
stream_wait(struct stream *s, enum stream_wait_type type)
{
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
        if (!stream_get_backlog(s) || s->send_error) {
            poll_immediate_wake();
        }
        break;
    }
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

int
pstream_open_with_default_port(const char *name, uint16_t default_port,
                               struct pstream **pstreamp, uint8_t dscp)
{
    enum stream_kind kind;
    const char *rest;
    int fd = -1;
    int error;

    stream_init();
    *pstreamp = NULL;

    if (!kind_from_name(name, true, &kind, &rest)) {
        VLOG_WARN("%s: unknown passive stream type (expected punix:, ptcp: "
                  "or pssl:)", name);
        return EAFNOSUPPORT;
    }

    struct pstream *p = xzalloc(sizeof *p);
    p->kind = kind;
    p->dscp = dscp;
    if (kind == KIND_UNIX) {
        if (!*rest) {
            VLOG_ERR("%s: missing socket path", name);
            free(p);
            return EINVAL;
        }
        error = unix_open_passive(rest, &fd);
        if (!error) {
            p->unix_path = xstrdup(rest);
            fatal_signal_add_file_to_unlink(rest);
            p->name = xstrdup(name);
        }
    } else {
        struct sockaddr_storage ss, bound;
        error = kind == KIND_SSL ? stream_ssl_check_config(name) : 0;
        if (!error) {
            error = inet_parse_passive(rest, default_port, &ss);
        }
        if (!error) {
            error = inet_open_passive(&ss, dscp, &fd, &bound);
        }
        if (!error) {
            char addr[INET6_ADDRSTRLEN + 3];
            ss_format_address(&bound, addr, sizeof addr);
            p->bound_port = ss_get_port(&bound);
            p->name = xasprintf("%s:%"PRIu16":%s",
                                kind == KIND_SSL ? "pssl" : "ptcp",
                                p->bound_port, addr);
        }
    }
    if (error) {
        VLOG_ERR("%s: listen failed (%s)", name, ovs_strerror(error));
        free(p);
        return error;
    }
    p->fd = fd;
    *pstreamp = p;
    return 0;
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
    if (!p) {
        return;
    }
    poll_watch_destroy(p->watch);
    close(p->fd);
    if (p->unix_path) {
        fatal_signal_unlink_file_now(p->unix_path);
        free(p->unix_path);
    }
    free(p->name);
    free(p);
}

int
pstream_accept(struct pstream *p, struct stream **streamp)
{
    static unsigned int next_unix_serial;   /* Atomic: any thread accepts. */
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
        if (error != EINTR && error != ECONNABORTED) {
            static struct vlog_rate_limit rl = VLOG_RATE_LIMIT_INIT(5, 10);
            VLOG_WARN_RL(&rl, "%s: accept failed (%s)", p->name,
                         ovs_strerror(error));
        }
        return error;
    }

    struct stream *s;
    if (p->kind == KIND_UNIX) {
        unsigned int serial = __atomic_fetch_add(&next_unix_serial, 1,
                                                 __ATOMIC_RELAXED);
        char *name = xasprintf("unix#%u", serial);
        s = stream_create(name, KIND_UNIX, fd);
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
        s = stream_create(name, p->kind, fd);
        s->peer_name = peer;
        free(name);
    }

    int error = stream_attach_bufferevent(s, true);
    if (error) {
        stream_close(s);
        return error;
    }
    *streamp = s;
    return 0;
}

int
pstream_accept_block(struct pstream *p, struct stream **streamp)
{
    int error;
    while ((error = pstream_accept(p, streamp)) == EAGAIN
           || error == EINTR || error == ECONNABORTED) {
        pstream_wait(p);
        poll_block();
    }
    return error;
}

void
pstream_wait(struct pstream *p)
{
    if (!p->watch) {
        p->watch = poll_watch_create(p->fd, POLLIN);
    }
    poll_watch_wait(p->watch);
}
