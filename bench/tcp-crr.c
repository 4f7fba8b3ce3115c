/* bench/tcp-crr: TCP connect/request/response/close load, for
 * bench/conntrack.sh (connection setup through a firewall).
 *
 *   tcp-crr server ADDR PORT
 *       accepts connections on ADDR:PORT until killed; on each, reads one
 *       request (REQ_LEN bytes), writes one response (RESP_LEN bytes) and
 *       closes.
 *   tcp-crr client ADDR PORT SECONDS PARALLEL
 *       keeps PARALLEL connections to ADDR:PORT in flight for SECONDS:
 *       each connects, sends a request, reads the whole response up to the
 *       server's close, and closes; then prints the number of connections
 *       completed and the number that failed (refused, reset or timed
 *       out), as "COMPLETED FAILED".
 *
 * One thread each, non-blocking sockets under epoll: the switch between
 * the two is what is measured, not this program.  Run inside network
 * namespaces the benchmark made. */
#include <config.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "util.h"

enum { REQ_LEN = 32, RESP_LEN = 64, MAX_PARALLEL = 4096 };

/* A connection older than this is given up (its SYN or data was lost). */
#define CONN_TIMEOUT_SEC 3.0

static double
now_sec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
parse_addr(const char *addr, const char *port, struct sockaddr_in *sin)
{
    memset(sin, 0, sizeof *sin);
    sin->sin_family = AF_INET;
    sin->sin_port = htons(atoi(port));
    if (inet_pton(AF_INET, addr, &sin->sin_addr) != 1) {
        ovs_fatal(0, "%s: not an IPv4 address", addr);
    }
}

/* Server
 * ====== */

/* What the server knows of an accepted connection: how much of the
 * request it has read. */
struct server_conn {
    int fd;
    size_t got;
};

static void
server_handle(int ep, struct server_conn *c)
{
    char buf[512];
    for (;;) {
        ssize_t n = read(c->fd, buf, sizeof buf);
        if (n > 0) {
            c->got += n;
            if (c->got >= REQ_LEN) {
                break;
            }
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
            return;             /* More later. */
        }
        goto done;              /* EOF or error before a whole request. */
    }
    static const char resp[RESP_LEN];
    /* RESP_LEN bytes always fit an empty socket buffer. */
    if (write(c->fd, resp, sizeof resp) < 0) {
        /* The client went away; nothing to do but close. */
    }
done:
    epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    free(c);
}

static int
run_server(const struct sockaddr_in *sin)
{
    int lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (lfd < 0) {
        ovs_fatal(errno, "socket");
    }
    int one = 1;
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(lfd, (const struct sockaddr *) sin, sizeof *sin) < 0) {
        ovs_fatal(errno, "bind");
    }
    if (listen(lfd, 4096) < 0) {
        ovs_fatal(errno, "listen");
    }
    int ep = epoll_create1(0);
    struct epoll_event ev = { .events = EPOLLIN, .data.ptr = NULL };
    epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev);
    for (;;) {
        struct epoll_event evs[256];
        int n = epoll_wait(ep, evs, 256, -1);
        for (int i = 0; i < n; i++) {
            if (!evs[i].data.ptr) {
                for (;;) {
                    int fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK);
                    if (fd < 0) {
                        break;
                    }
                    struct server_conn *c = xzalloc(sizeof *c);
                    c->fd = fd;
                    struct epoll_event cev = { .events = EPOLLIN,
                                               .data.ptr = c };
                    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &cev);
                    /* The request may already be there. */
                    server_handle(ep, c);
                }
            } else {
                server_handle(ep, evs[i].data.ptr);
            }
        }
    }
}

/* Client
 * ====== */

enum client_state { C_CONNECTING, C_READING };

struct client_conn {
    int fd;                     /* -1: slot free. */
    enum client_state state;
    size_t got;
    double started;
};

static void
client_open(int ep, struct client_conn *c, const struct sockaddr_in *sin,
            uint64_t *failed)
{
    for (;;) {
        c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
        if (c->fd < 0) {
            ovs_fatal(errno, "socket");
        }
        int one = 1;
        setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (connect(c->fd, (const struct sockaddr *) sin, sizeof *sin) == 0
            || errno == EINPROGRESS) {
            break;
        }
        /* EADDRNOTAVAIL: no free local port just now. */
        (*failed)++;
        close(c->fd);
        usleep(1000);
    }
    c->state = C_CONNECTING;
    c->got = 0;
    c->started = now_sec();
    struct epoll_event ev = { .events = EPOLLOUT, .data.ptr = c };
    epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &ev);
}

static void
client_close(int ep, struct client_conn *c)
{
    epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    c->fd = -1;
}

/* Moves C along; returns 1 when it completed, -1 when it failed, else 0. */
static int
client_handle(int ep, struct client_conn *c, uint32_t events)
{
    if (c->state == C_CONNECTING) {
        int err = 0;
        socklen_t len = sizeof err;
        getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len);
        if (err || events & (EPOLLERR | EPOLLHUP)) {
            return -1;
        }
        static const char req[REQ_LEN];
        if (write(c->fd, req, sizeof req) != sizeof req) {
            return -1;
        }
        c->state = C_READING;
        struct epoll_event ev = { .events = EPOLLIN, .data.ptr = c };
        epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
        return 0;
    }
    char buf[512];
    for (;;) {
        ssize_t n = read(c->fd, buf, sizeof buf);
        if (n > 0) {
            c->got += n;
        } else if (n == 0) {
            return c->got == RESP_LEN ? 1 : -1;
        } else if (errno == EAGAIN || errno == EINTR) {
            return 0;
        } else {
            return -1;
        }
    }
}

static int
run_client(const struct sockaddr_in *sin, double seconds, int parallel)
{
    int ep = epoll_create1(0);
    struct client_conn *conns = xcalloc(parallel, sizeof *conns);
    uint64_t completed = 0, failed = 0;
    double start = now_sec(), end = start + seconds;
    for (int i = 0; i < parallel; i++) {
        client_open(ep, &conns[i], sin, &failed);
    }
    double next_sweep = start + 0.5;
    for (;;) {
        double now = now_sec();
        if (now >= end) {
            break;
        }
        struct epoll_event evs[256];
        int n = epoll_wait(ep, evs, 256, 100);
        for (int i = 0; i < n; i++) {
            struct client_conn *c = evs[i].data.ptr;
            int r = client_handle(ep, c, evs[i].events);
            if (r) {
                if (r > 0) {
                    completed++;
                } else {
                    failed++;
                }
                client_close(ep, c);
                client_open(ep, c, sin, &failed);
            }
        }
        now = now_sec();
        if (now >= next_sweep) {
            /* Lost SYNs or segments: give up and start afresh. */
            next_sweep = now + 0.5;
            for (int i = 0; i < parallel; i++) {
                if (now - conns[i].started > CONN_TIMEOUT_SEC) {
                    failed++;
                    client_close(ep, &conns[i]);
                    client_open(ep, &conns[i], sin, &failed);
                }
            }
        }
    }
    for (int i = 0; i < parallel; i++) {
        client_close(ep, &conns[i]);
    }
    free(conns);
    close(ep);
    printf("%"PRIu64" %"PRIu64"\n", completed, failed);
    return 0;
}

int
main(int argc, char *argv[])
{
    set_program_name(argv[0]);
    struct sockaddr_in sin;
    if (argc == 4 && !strcmp(argv[1], "server")) {
        parse_addr(argv[2], argv[3], &sin);
        return run_server(&sin);
    } else if (argc == 6 && !strcmp(argv[1], "client")) {
        parse_addr(argv[2], argv[3], &sin);
        double seconds = atof(argv[4]);
        int parallel = atoi(argv[5]);
        if (seconds <= 0 || parallel < 1 || parallel > MAX_PARALLEL) {
            ovs_fatal(0, "SECONDS must be positive, PARALLEL 1 to %d",
                      MAX_PARALLEL);
        }
        return run_client(&sin, seconds, parallel);
    }
    ovs_fatal(0, "usage: %s server ADDR PORT\n"
              "       %s client ADDR PORT SECONDS PARALLEL",
              argv[0], argv[0]);
}
