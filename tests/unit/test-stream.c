#include <config.h>
#include "stream.h"

/* Unit tests for stream.h, stream-ssl.h and socket-util.h: real sockets on
 * the loopback interface and in a private temporary directory, driven by the
 * calling thread's poll loop.  TLS certificates are generated on the fly
 * with the OpenSSL API. */

#include <check.h>
#include <errno.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "coverage.h"
#include "poll-loop.h"
#include "socket-util.h"
#include "stream-ssl.h"
#include "util.h"

static char tmpdir[64];

static void
make_tmpdir(void)
{
    strcpy(tmpdir, "/tmp/test-stream-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void
remove_tmpdir(void)
{
    char *cmd = xasprintf("rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
}

static char *
tmp_file(const char *name)
{
    return xasprintf("%s/%s", tmpdir, name);
}

static void
connect_block(struct stream *s)
{
    int error;
    while ((error = stream_connect(s)) == EAGAIN) {
        stream_run(s);
        stream_run_wait(s);
        stream_connect_wait(s);
        poll_block();
    }
    ck_assert_msg(!error, "%s: connect failed (%s)", stream_get_name(s),
                  ovs_strerror(error));
}

/* Receives exactly N bytes into BUF. */
static void
recv_exactly(struct stream *s, void *buf_, size_t n)
{
    char *buf = buf_;
    size_t got = 0;

    while (got < n) {
        int retval = stream_recv(s, buf + got, n - got);
        if (retval == -EAGAIN) {
            stream_recv_wait(s);
            poll_block();
        } else {
            ck_assert_msg(retval > 0, "%s: recv returned %d",
                          stream_get_name(s), retval);
            got += retval;
        }
    }
}

/* Waits for end of file (0) or an error (negative) and returns it. */
static int
recv_until_closed(struct stream *s)
{
    char buf[64];
    for (;;) {
        int retval = stream_recv(s, buf, sizeof buf);
        if (retval == -EAGAIN) {
            stream_recv_wait(s);
            poll_block();
        } else if (retval <= 0) {
            return retval;
        }
    }
}

static void
flush(struct stream *s)
{
    while (stream_get_backlog(s)) {
        ck_assert_int_eq(stream_get_error(s), 0);
        stream_run(s);
        stream_run_wait(s);
        stream_send_wait(s);
        poll_block();
    }
}

/* Checks that data flows both ways between A and B. */
static void
check_round_trip(struct stream *a, struct stream *b)
{
    char buf[16];

    ck_assert_int_eq(stream_send(a, "hello", 5), 5);
    recv_exactly(b, buf, 5);
    ck_assert(!memcmp(buf, "hello", 5));

    ck_assert_int_eq(stream_send(b, "world!", 6), 6);
    recv_exactly(a, buf, 6);
    ck_assert(!memcmp(buf, "world!", 6));
}

/* Opens ACTIVE, accepts it on P, and waits until both ends are usable. */
static void
open_pair(const char *active, struct pstream *p, struct stream **clientp,
          struct stream **serverp)
{
    ck_assert_int_eq(stream_open(active, clientp, 0), 0);
    ck_assert_int_eq(pstream_accept_block(p, serverp), 0);
    connect_block(*clientp);
    connect_block(*serverp);
}

START_TEST(test_unix_round_trip)
{
    make_tmpdir();
    char *path = tmp_file("socket");
    char *pname = xasprintf("punix:%s", path);
    char *aname = xasprintf("unix:%s", path);
    struct pstream *p;
    struct stream *client, *server;
    struct stat st;

    ck_assert_int_eq(pstream_open(pname, &p, 0), 0);
    ck_assert_str_eq(pstream_get_name(p), pname);
    ck_assert_int_eq(pstream_get_bound_port(p), 0);
    ck_assert_int_eq(stat(path, &st), 0);

    /* Nobody is connecting yet. */
    ck_assert_int_eq(pstream_accept(p, &server), EAGAIN);
    ck_assert_ptr_null(server);

    open_pair(aname, p, &client, &server);
    ck_assert_str_eq(stream_get_name(client), aname);
    ck_assert(string_starts_with(stream_get_name(server), "unix#"));
    ck_assert_ptr_null(stream_get_peer_name(server));
    check_round_trip(client, server);

    /* Closing one end is end of file for the other, after the data. */
    ck_assert_int_eq(stream_send(client, "bye", 3), 3);
    flush(client);
    stream_close(client);
    char buf[3];
    recv_exactly(server, buf, 3);
    ck_assert(!memcmp(buf, "bye", 3));
    ck_assert_int_eq(recv_until_closed(server), 0);
    ck_assert_int_eq(stream_recv(server, buf, sizeof buf), 0);
    stream_close(server);

    /* The socket file goes away with the listener. */
    pstream_close(p);
    ck_assert_int_ne(stat(path, &st), 0);
    ck_assert_int_eq(errno, ENOENT);

    free(aname);
    free(pname);
    free(path);
    remove_tmpdir();
}
END_TEST

START_TEST(test_unix_stale_socket_replaced)
{
    make_tmpdir();
    char *path = tmp_file("stale");
    char *pname = xasprintf("punix:%s", path);

    /* Leave a socket file behind, as a crashed daemon would. */
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un un = { .sun_family = AF_UNIX };
    ck_assert_int_lt(strlen(path), sizeof un.sun_path);
    strcpy(un.sun_path, path);
    ck_assert_int_eq(bind(fd, (struct sockaddr *) &un, sizeof un), 0);
    close(fd);

    struct pstream *p;
    ck_assert_int_eq(pstream_open(pname, &p, 0), 0);
    pstream_close(p);

    free(pname);
    free(path);
    remove_tmpdir();
}
END_TEST

START_TEST(test_unix_long_path)
{
    make_tmpdir();
    /* Longer than sun_path (108 bytes) in total. */
    char *dir = xasprintf("%s/%0100d", tmpdir, 0);
    ck_assert_int_eq(mkdir(dir, 0700), 0);
    char *path = xasprintf("%s/socket", dir);
    ck_assert_int_gt(strlen(path), sizeof ((struct sockaddr_un *) 0)->sun_path);
    char *pname = xasprintf("punix:%s", path);
    char *aname = xasprintf("unix:%s", path);
    struct pstream *p;
    struct stream *client, *server;

    ck_assert_int_eq(pstream_open(pname, &p, 0), 0);
    open_pair(aname, p, &client, &server);
    check_round_trip(client, server);
    stream_close(client);
    stream_close(server);
    pstream_close(p);

    free(aname);
    free(pname);
    free(path);
    free(dir);
    remove_tmpdir();
}
END_TEST

START_TEST(test_unix_no_listener)
{
    make_tmpdir();
    char *aname = xasprintf("unix:%s/nothing-here", tmpdir);
    struct stream *s;

    int error = stream_open(aname, &s, 0);
    error = stream_open_block(error, -1, &s);
    ck_assert_int_eq(error, ENOENT);
    ck_assert_ptr_null(s);

    free(aname);
    remove_tmpdir();
}
END_TEST

START_TEST(test_tcp_round_trip)
{
    struct pstream *p;
    struct stream *client, *server;

    ck_assert_int_eq(pstream_open("ptcp:0:127.0.0.1", &p, 0), 0);
    uint16_t port = pstream_get_bound_port(p);
    ck_assert_int_ne(port, 0);

    char *pname = xasprintf("ptcp:%d:127.0.0.1", port);
    ck_assert_str_eq(pstream_get_name(p), pname);

    char *aname = xasprintf("tcp:127.0.0.1:%d", port);
    open_pair(aname, p, &client, &server);
    ck_assert_str_eq(stream_get_name(client), aname);
    ck_assert(string_starts_with(stream_get_name(server), "tcp:127.0.0.1:"));
    ck_assert_ptr_nonnull(stream_get_peer_name(server));
    char *client_port = xasprintf("tcp:%s", stream_get_peer_name(server));
    ck_assert_str_eq(stream_get_name(server), client_port);
    /* Plain TCP proves nothing about who is on the other end. */
    ck_assert_ptr_null(stream_get_peer_id(server));
    check_round_trip(client, server);

    stream_close(server);
    ck_assert_int_le(recv_until_closed(client), 0);
    stream_close(client);
    pstream_close(p);

    free(client_port);
    free(aname);
    free(pname);
}
END_TEST

START_TEST(test_tcp_default_port)
{
    struct pstream *p;
    struct stream *client, *server;

    /* The port comes from the caller when the name has none; 0 is "any". */
    ck_assert_int_eq(pstream_open_with_default_port("ptcp::127.0.0.1", 0, &p,
                                                    0), 0);
    uint16_t port = pstream_get_bound_port(p);
    ck_assert_int_ne(port, 0);

    ck_assert_int_eq(stream_open_with_default_port("tcp:127.0.0.1", port,
                                                   &client, 0), 0);
    ck_assert_int_eq(pstream_accept_block(p, &server), 0);
    connect_block(client);
    check_round_trip(client, server);
    stream_close(client);
    stream_close(server);
    pstream_close(p);

    /* Without a default, an active name needs a port. */
    ck_assert_int_eq(stream_open("tcp:127.0.0.1", &client, 0), EINVAL);
    ck_assert_ptr_null(client);
}
END_TEST

START_TEST(test_tcp_ipv6)
{
    struct pstream *p;
    struct stream *client, *server;

    int error = pstream_open("ptcp:0:[::1]", &p, 0);
    if (error == EADDRNOTAVAIL || error == EAFNOSUPPORT) {
        /* No IPv6 loopback in this environment: nothing to test. */
        return;
    }
    ck_assert_int_eq(error, 0);
    uint16_t port = pstream_get_bound_port(p);
    char *pname = xasprintf("ptcp:%d:[::1]", port);
    ck_assert_str_eq(pstream_get_name(p), pname);

    char *aname = xasprintf("tcp:[::1]:%d", port);
    open_pair(aname, p, &client, &server);
    ck_assert(string_starts_with(stream_get_name(server), "tcp:[::1]:"));
    check_round_trip(client, server);
    stream_close(client);
    stream_close(server);
    pstream_close(p);
    free(aname);
    free(pname);
}
END_TEST

START_TEST(test_tcp_refused)
{
    struct pstream *p;
    struct stream *s;

    /* Find a port that nobody listens on. */
    ck_assert_int_eq(pstream_open("ptcp:0:127.0.0.1", &p, 0), 0);
    char *aname = xasprintf("tcp:127.0.0.1:%d", pstream_get_bound_port(p));
    pstream_close(p);

    int error = stream_open(aname, &s, 0);
    ck_assert_int_eq(stream_open_block(error, -1, &s), ECONNREFUSED);
    ck_assert_ptr_null(s);
    free(aname);
}
END_TEST

START_TEST(test_send_before_connected)
{
    struct pstream *p;
    struct stream *client, *server;
    char buf[7];

    ck_assert_int_eq(pstream_open("ptcp:0:127.0.0.1", &p, 0), 0);
    char *aname = xasprintf("tcp:127.0.0.1:%d", pstream_get_bound_port(p));

    /* Data queued while the connection is still being made is kept. */
    ck_assert_int_eq(stream_open(aname, &client, 0), 0);
    ck_assert_int_eq(stream_send(client, "early", 5), 5);
    ck_assert_int_eq(stream_get_backlog(client), 5);

    ck_assert_int_eq(pstream_accept_block(p, &server), 0);
    connect_block(client);
    recv_exactly(server, buf, 5);
    ck_assert(!memcmp(buf, "early", 5));

    stream_close(client);
    stream_close(server);
    pstream_close(p);
    free(aname);
}
END_TEST

START_TEST(test_large_transfer_and_backlog)
{
    enum { N = 8 * 1024 * 1024 };
    struct pstream *p;
    struct stream *client, *server;

    ck_assert_int_eq(pstream_open("ptcp:0:127.0.0.1", &p, 0), 0);
    char *aname = xasprintf("tcp:127.0.0.1:%d", pstream_get_bound_port(p));
    open_pair(aname, p, &client, &server);

    unsigned char *out = xmalloc(N);
    for (size_t i = 0; i < N; i++) {
        out[i] = i * 7 + (i >> 12);
    }

    /* Sending never blocks: what the socket does not take at once is
     * queued. */
    ck_assert_int_eq(stream_send(client, out, N), N);
    ck_assert_uint_le(stream_get_backlog(client), N);

    /* The event loop moves it across while the receiver reads. */
    unsigned char *in = xmalloc(N);
    recv_exactly(server, in, N);
    ck_assert(!memcmp(in, out, N));
    flush(client);
    ck_assert_uint_eq(stream_get_backlog(client), 0);

    stream_close(client);
    stream_close(server);
    pstream_close(p);
    free(in);
    free(out);
    free(aname);
}
END_TEST

/* A receiver that stops reading makes the stream stop reading too, once a
 * bounded amount is buffered, and the event loop keeps running meanwhile
 * (libevent 2.1.11+ spins inside one loop iteration on a bufferevent held
 * at a read watermark, which would hang the first poll_block() here); the
 * data then arrives whole once the receiver reads again. */
START_TEST(test_unread_input_pauses_reading)
{
    enum { N = 8 * 1024 * 1024 };
    struct pstream *p;
    struct stream *client, *server;
    make_tmpdir();
    char *path = tmp_file("pause.sock");
    char *pname = xasprintf("punix:%s", path);
    char *aname = xasprintf("unix:%s", path);

    ck_assert_int_eq(pstream_open(pname, &p, 0), 0);
    open_pair(aname, p, &client, &server);

    unsigned char *out = xmalloc(N);
    for (size_t i = 0; i < N; i++) {
        out[i] = i * 13 + (i >> 16);
    }
    ck_assert_int_eq(stream_send(client, out, N), N);

    /* Run the loop without reading until the sender's backlog stops
     * shrinking for a while: the receiver has stopped taking data. */
    size_t last = SIZE_MAX;
    for (int still = 0; still < 10; ) {
        stream_run(client);
        stream_run(server);
        stream_run_wait(client);
        stream_send_wait(client);
        poll_timer_wait(20);
        poll_block();
        size_t backlog = stream_get_backlog(client);
        still = backlog == last ? still + 1 : 0;
        last = backlog;
    }
    ck_assert_uint_gt(last, 0);

    /* Then read a little per loop iteration, as a busy owner does. */
    unsigned char *in = xmalloc(N);
    for (size_t got = 0; got < N; ) {
        int retval = stream_recv(server, in + got, MIN(N - got, 4096));
        ck_assert_msg(retval > 0 || retval == -EAGAIN, "recv: %d", retval);
        got += MAX(retval, 0);
        stream_run(client);
        stream_run_wait(client);
        stream_send_wait(client);
        stream_recv_wait(server);
        poll_block();
    }
    ck_assert(!memcmp(in, out, N));
    flush(client);

    stream_close(client);
    stream_close(server);
    pstream_close(p);
    free(in);
    free(out);
    free(aname);
    free(pname);
    free(path);
    remove_tmpdir();
}
END_TEST

/* A sender that keeps sending without returning to the event loop (a flow
 * dump of many reply parts) hands the kernel what it will take as it goes,
 * so a peer reading meanwhile gets the data while it is being produced:
 * the backlog stays bounded instead of holding everything past the first
 * socket buffer until the loop runs. */
START_TEST(test_long_send_reaches_reading_peer)
{
    enum { MSG = 32 * 1024, N_MSGS = 128 };
    struct pstream *p;
    struct stream *server;
    make_tmpdir();
    char *path = tmp_file("push.sock");
    char *pname = xasprintf("punix:%s", path);
    ck_assert_int_eq(pstream_open(pname, &p, 0), 0);

    int peer = socket(AF_UNIX, SOCK_STREAM, 0);
    ck_assert_int_ge(peer, 0);
    struct sockaddr_un sun = { .sun_family = AF_UNIX };
    ck_assert_uint_lt(strlen(path), sizeof sun.sun_path);
    strcpy(sun.sun_path, path);
    ck_assert_int_eq(connect(peer, (struct sockaddr *) &sun, sizeof sun), 0);
    ck_assert_int_eq(set_nonblocking(peer), 0);
    ck_assert_int_eq(pstream_accept_block(p, &server), 0);
    connect_block(server);

    unsigned char *out = xmalloc(MSG * N_MSGS);
    unsigned char *in = xmalloc(MSG * N_MSGS);
    for (size_t i = 0; i < MSG * N_MSGS; i++) {
        out[i] = i * 7 + (i >> 12);
    }
    /* The peer is busy at first: the socket fills and output queues. */
    int i = 0;
    while (!stream_get_backlog(server)) {
        ck_assert_int_lt(i, N_MSGS / 2);
        ck_assert_int_eq(stream_send(server, out + i * MSG, MSG), MSG);
        i++;
    }
    size_t got = 0;
    for (; i < N_MSGS; i++) {
        ck_assert_int_eq(stream_send(server, out + i * MSG, MSG), MSG);
        ssize_t n;
        while ((n = read(peer, in + got, MSG * N_MSGS - got)) > 0) {
            got += n;
        }
        ck_assert_msg(stream_get_backlog(server) <= 4 * MSG,
                      "backlog %zu after message %d",
                      stream_get_backlog(server), i);
    }

    /* The rest arrives through the loop, everything in order. */
    while (got < MSG * N_MSGS) {
        stream_run(server);
        stream_run_wait(server);
        stream_send_wait(server);
        poll_timer_wait(10);
        poll_block();
        ssize_t n;
        while ((n = read(peer, in + got, MSG * N_MSGS - got)) > 0) {
            got += n;
        }
    }
    ck_assert(!memcmp(in, out, MSG * N_MSGS));

    close(peer);
    stream_close(server);
    pstream_close(p);
    free(in);
    free(out);
    free(pname);
    free(path);
    remove_tmpdir();
}
END_TEST

/* What is sent under a cork waits, counted in the backlog, and goes out at
 * uncork after what was already queued, everything in order. */
START_TEST(test_cork_gathers_in_order)
{
    enum { N = 4 * 1024 * 1024 };
    struct pstream *p;
    struct stream *client, *server;

    ck_assert_int_eq(pstream_open("ptcp:0:127.0.0.1", &p, 0), 0);
    char *aname = xasprintf("tcp:127.0.0.1:%d", pstream_get_bound_port(p));
    open_pair(aname, p, &client, &server);

    /* Corked with nothing queued ahead: nothing reaches the kernel. */
    stream_cork(client);
    ck_assert_int_eq(stream_send(client, "ab", 2), 2);
    ck_assert_int_eq(stream_send(client, "c", 1), 1);
    ck_assert_uint_eq(stream_get_backlog(client), 3);
    stream_uncork(client);
    char buf[3];
    recv_exactly(server, buf, 3);
    ck_assert(!memcmp(buf, "abc", 3));

    /* Corked behind a large queue: the gathered bytes come after it. */
    unsigned char *out = xmalloc(N + 3);
    for (size_t i = 0; i < N; i++) {
        out[i] = i * 11 + (i >> 10);
    }
    memcpy(out + N, "xyz", 3);
    ck_assert_int_eq(stream_send(client, out, N), N);
    size_t queued = stream_get_backlog(client);
    stream_cork(client);
    ck_assert_int_eq(stream_send(client, "xyz", 3), 3);
    ck_assert_uint_eq(stream_get_backlog(client), queued + 3);
    stream_uncork(client);
    unsigned char *in = xmalloc(N + 3);
    recv_exactly(server, in, N + 3);
    ck_assert(!memcmp(in, out, N + 3));
    flush(client);

    stream_close(client);
    stream_close(server);
    pstream_close(p);
    free(in);
    free(out);
    free(aname);
}
END_TEST

START_TEST(test_recv_wait_does_not_spin)
{
    struct pstream *p;
    struct stream *client, *server;

    ck_assert_int_eq(pstream_open("ptcp:0:127.0.0.1", &p, 0), 0);
    char *aname = xasprintf("tcp:127.0.0.1:%d", pstream_get_bound_port(p));
    open_pair(aname, p, &client, &server);
    check_round_trip(client, server);

    /* Nothing to read: waiting must not be an immediate wake-up. */
    unsigned long long int before = coverage_read_counter("poll_zero_timeout");
    for (int i = 0; i < 3; i++) {
        stream_recv_wait(server);
        poll_timer_wait(10);
        poll_block();
    }
    ck_assert_uint_eq(coverage_read_counter("poll_zero_timeout"), before);

    /* Data already buffered: waiting must wake at once.  The first
     * poll_block() ends when the bufferevent reads the byte; from then on
     * every wait is immediate until the byte is consumed (a stream_recv_wait()
     * that never woke at once would hang here until Check's timeout). */
    ck_assert_int_eq(stream_send(client, "x", 1), 1);
    flush(client);
    for (;;) {
        before = coverage_read_counter("poll_zero_timeout");
        stream_recv_wait(server);
        poll_block();
        if (coverage_read_counter("poll_zero_timeout") > before) {
            break;
        }
    }
    char c;
    ck_assert_int_eq(stream_recv(server, &c, 1), 1);
    ck_assert_int_eq(c, 'x');

    stream_close(client);
    stream_close(server);
    pstream_close(p);
    free(aname);
}
END_TEST

START_TEST(test_names)
{
    ck_assert(stream_is_active_name("unix:/x"));
    ck_assert(stream_is_active_name("tcp:1.2.3.4:5"));
    ck_assert(stream_is_active_name("ssl:1.2.3.4:5"));
    ck_assert(!stream_is_active_name("ptcp:5"));
    ck_assert(pstream_is_passive_name("punix:/x"));
    ck_assert(pstream_is_passive_name("ptcp:5"));
    ck_assert(pstream_is_passive_name("pssl:5"));
    ck_assert(!pstream_is_passive_name("tcp:1.2.3.4:5"));

    ck_assert(!stream_or_pstream_needs_probes("unix:/x"));
    ck_assert(!stream_or_pstream_needs_probes("punix:/x"));
    ck_assert(stream_or_pstream_needs_probes("tcp:1.2.3.4:5"));
    ck_assert(stream_or_pstream_needs_probes("pssl:5"));

    ck_assert_int_eq(stream_verify_name("tcp:1.2.3.4:5"), 0);
    ck_assert_int_eq(stream_verify_name("bogus:x"), EAFNOSUPPORT);
    ck_assert_int_eq(pstream_verify_name("ptcp:6640"), 0);
    ck_assert_int_eq(pstream_verify_name("tcp:1.2.3.4:5"), EAFNOSUPPORT);

    struct stream *s;
    struct pstream *p;
    ck_assert_int_eq(stream_open("bogus:x", &s, 0), EAFNOSUPPORT);
    ck_assert_int_eq(pstream_open("bogus:x", &p, 0), EAFNOSUPPORT);
    ck_assert_int_eq(stream_open("tcp:1.2.3.4:99999", &s, 0), EINVAL);
    ck_assert_int_eq(pstream_open("ptcp:0:not-an-ip", &p, 0), EINVAL);
}
END_TEST

START_TEST(test_inet_parse)
{
    struct sockaddr_storage ss;
    char buf[64];

    ck_assert_int_eq(inet_parse_active("127.0.0.1:6640", 0, &ss), 0);
    ck_assert_int_eq(ss.ss_family, AF_INET);
    ck_assert_int_eq(ss_get_port(&ss), 6640);

    ck_assert_int_eq(inet_parse_active("10.0.0.1", 6653, &ss), 0);
    ck_assert_int_eq(ss_get_port(&ss), 6653);
    ss_format_address(&ss, buf, sizeof buf);
    ck_assert_str_eq(buf, "10.0.0.1");

    ck_assert_int_eq(inet_parse_active("[::1]:6641", 0, &ss), 0);
    ck_assert_int_eq(ss.ss_family, AF_INET6);
    ck_assert_int_eq(ss_get_port(&ss), 6641);
    char *s = ss_format_address_port(&ss);
    ck_assert_str_eq(s, "[::1]:6641");
    free(s);

    ck_assert_int_eq(inet_parse_active("[::1", 1, &ss), EINVAL);
    ck_assert_int_eq(inet_parse_active("1.2.3.4:x", 1, &ss), EINVAL);
    ck_assert_int_eq(inet_parse_active("1.2.3.4", 0, &ss), EINVAL);

    /* Passive: "[PORT][:IP]". */
    ck_assert_int_eq(inet_parse_passive("6640", 0, &ss), 0);
    ck_assert_int_eq(ss.ss_family, AF_INET);
    ck_assert_int_eq(ss_get_port(&ss), 6640);
    ss_format_address(&ss, buf, sizeof buf);
    ck_assert_str_eq(buf, "0.0.0.0");

    ck_assert_int_eq(inet_parse_passive("", 6653, &ss), 0);
    ck_assert_int_eq(ss_get_port(&ss), 6653);

    ck_assert_int_eq(inet_parse_passive("0:127.0.0.1", 1, &ss), 0);
    ck_assert_int_eq(ss_get_port(&ss), 0);

    ck_assert_int_eq(inet_parse_passive(":[::]", 6640, &ss), 0);
    ck_assert_int_eq(ss.ss_family, AF_INET6);
    ck_assert_int_eq(ss_get_port(&ss), 6640);

    ck_assert_int_eq(inet_parse_passive("70000", 0, &ss), EINVAL);
}
END_TEST

/* TLS. */

struct pki {
    char *ca_cert, *other_ca_cert;
    char *key, *cert;           /* Signed by ca_cert. */
};

static int next_serial = 1;

static EVP_PKEY *
gen_key(void)
{
    EVP_PKEY *key = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
    ck_assert_ptr_nonnull(key);
    return key;
}

static void
add_ext(X509 *cert, X509 *issuer, int nid, const char *value)
{
    X509V3_CTX ctx;
    X509V3_set_ctx(&ctx, issuer, cert, NULL, NULL, 0);
    X509_EXTENSION *ext = X509V3_EXT_conf_nid(NULL, &ctx, nid, value);
    ck_assert_ptr_nonnull(ext);
    X509_add_ext(cert, ext, -1);
    X509_EXTENSION_free(ext);
}

/* A certificate for KEY named CN, signed by ISSUER/ISSUER_KEY (NULL: self).*/
static X509 *
make_cert(EVP_PKEY *key, const char *cn, X509 *issuer, EVP_PKEY *issuer_key)
{
    X509 *x = X509_new();
    X509_set_version(x, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(x), next_serial++);
    X509_gmtime_adj(X509_getm_notBefore(x), -3600);
    X509_gmtime_adj(X509_getm_notAfter(x), 24 * 3600);
    X509_set_pubkey(x, key);
    X509_NAME *name = X509_get_subject_name(x);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                               (const unsigned char *) cn, -1, -1, 0);
    X509_set_issuer_name(x, issuer ? X509_get_subject_name(issuer) : name);
    add_ext(x, issuer ? issuer : x, NID_basic_constraints,
            issuer ? "CA:FALSE" : "critical,CA:TRUE");
    if (!issuer) {
        add_ext(x, x, NID_key_usage, "critical,keyCertSign,cRLSign");
    }
    ck_assert_int_gt(X509_sign(x, issuer_key ? issuer_key : key,
                               EVP_sha256()), 0);
    return x;
}

static char *
write_pem(const char *name, X509 *cert, EVP_PKEY *key)
{
    char *path = tmp_file(name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    if (cert) {
        ck_assert_int_eq(PEM_write_X509(f, cert), 1);
    } else {
        ck_assert_int_eq(PEM_write_PrivateKey(f, key, NULL, NULL, 0, NULL,
                                              NULL), 1);
    }
    fclose(f);
    return path;
}

static void
make_pki(struct pki *pki)
{
    EVP_PKEY *ca_key = gen_key();
    X509 *ca = make_cert(ca_key, "test CA", NULL, NULL);
    EVP_PKEY *other_ca_key = gen_key();
    X509 *other_ca = make_cert(other_ca_key, "other CA", NULL, NULL);
    EVP_PKEY *key = gen_key();
    X509 *cert = make_cert(key, "switch", ca, ca_key);

    pki->ca_cert = write_pem("cacert.pem", ca, NULL);
    pki->other_ca_cert = write_pem("other-cacert.pem", other_ca, NULL);
    pki->cert = write_pem("cert.pem", cert, NULL);
    pki->key = write_pem("privkey.pem", NULL, key);

    X509_free(ca);
    X509_free(other_ca);
    X509_free(cert);
    EVP_PKEY_free(ca_key);
    EVP_PKEY_free(other_ca_key);
    EVP_PKEY_free(key);
}

static void
free_pki(struct pki *pki)
{
    free(pki->ca_cert);
    free(pki->other_ca_cert);
    free(pki->key);
    free(pki->cert);
}

START_TEST(test_ssl_unconfigured)
{
    struct stream *s;
    struct pstream *p;

    stream_ssl_cleanup();
    ck_assert(!stream_ssl_is_configured());
    ck_assert_int_eq(stream_open("ssl:127.0.0.1:6640", &s, 0), ENOPROTOOPT);
    ck_assert_ptr_null(s);
    ck_assert_int_eq(pstream_open("pssl:0:127.0.0.1", &p, 0), ENOPROTOOPT);
    ck_assert_ptr_null(p);
    ck_assert_int_eq(stream_verify_name("ssl:127.0.0.1:6640"), ENOPROTOOPT);

    /* Two of three is not enough. */
    stream_ssl_set_private_key_file("/nonexistent/key.pem");
    stream_ssl_set_certificate_file("/nonexistent/cert.pem");
    ck_assert(!stream_ssl_is_configured());
    ck_assert_int_eq(pstream_open("pssl:0:127.0.0.1", &p, 0), ENOPROTOOPT);
    stream_ssl_cleanup();
}
END_TEST

/* Runs the client and server handshakes until both have finished, and
 * returns their results. */
static void
handshake(struct stream *client, struct stream *server,
          int *client_error, int *server_error)
{
    for (;;) {
        *client_error = stream_connect(client);
        *server_error = stream_connect(server);
        if (*client_error != EAGAIN && *server_error != EAGAIN) {
            return;
        }
        stream_run(client);
        stream_run(server);
        stream_run_wait(client);
        stream_run_wait(server);
        stream_connect_wait(client);
        stream_connect_wait(server);
        poll_block();
    }
}

START_TEST(test_ssl_round_trip_and_wrong_ca)
{
    struct pki pki;
    struct pstream *p;
    struct stream *client, *server;
    int client_error, server_error;

    make_tmpdir();
    make_pki(&pki);
    stream_ssl_set_private_key_file(pki.key);
    stream_ssl_set_certificate_file(pki.cert);
    stream_ssl_set_ca_cert_file(pki.ca_cert, false);
    ck_assert(stream_ssl_is_configured());

    ck_assert_int_eq(pstream_open("pssl:0:127.0.0.1", &p, 0), 0);
    uint16_t port = pstream_get_bound_port(p);
    char *pname = xasprintf("pssl:%d:127.0.0.1", port);
    ck_assert_str_eq(pstream_get_name(p), pname);
    char *aname = xasprintf("ssl:127.0.0.1:%d", port);

    /* Same CA on both sides: the handshake succeeds and data flows, even
     * data queued before the handshake finished. */
    ck_assert_int_eq(stream_open(aname, &client, 0), 0);
    ck_assert_int_eq(stream_send(client, "early", 5), 5);
    ck_assert_int_eq(pstream_accept_block(p, &server), 0);
    ck_assert(string_starts_with(stream_get_name(server), "ssl:127.0.0.1:"));
    handshake(client, server, &client_error, &server_error);
    ck_assert_int_eq(client_error, 0);
    ck_assert_int_eq(server_error, 0);
    /* Each side knows the other by its certificate's common name (both
     * certificates are the same one here). */
    ck_assert_str_eq(stream_get_peer_id(server), "switch");
    ck_assert_str_eq(stream_get_peer_id(client), "switch");
    char buf[5];
    recv_exactly(server, buf, 5);
    ck_assert(!memcmp(buf, "early", 5));
    check_round_trip(client, server);

    /* An orderly close is end of file, not an error. */
    stream_close(client);
    ck_assert_int_eq(recv_until_closed(server), 0);
    stream_close(server);

    /* Now trust only a CA that did not sign the peer's certificate (on
     * both ends, since the settings are per process): both sides refuse. */
    stream_ssl_set_ca_cert_file(pki.other_ca_cert, false);
    ck_assert_int_eq(stream_open(aname, &client, 0), 0);
    ck_assert_int_eq(pstream_accept_block(p, &server), 0);
    handshake(client, server, &client_error, &server_error);
    ck_assert_int_eq(client_error, EPROTO);
    ck_assert_int_ne(server_error, 0);
    ck_assert_int_lt(stream_recv(client, buf, sizeof buf), 0);
    ck_assert_int_lt(stream_send(client, "x", 1), 0);
    stream_close(client);
    stream_close(server);

    /* The right CA again: new connections pick the change up. */
    stream_ssl_set_ca_cert_file(pki.ca_cert, false);
    ck_assert_int_eq(stream_open(aname, &client, 0), 0);
    ck_assert_int_eq(pstream_accept_block(p, &server), 0);
    handshake(client, server, &client_error, &server_error);
    ck_assert_int_eq(client_error, 0);
    ck_assert_int_eq(server_error, 0);
    check_round_trip(client, server);
    stream_close(client);
    stream_close(server);

    pstream_close(p);
    stream_ssl_cleanup();
    free(aname);
    free(pname);
    free_pki(&pki);
    remove_tmpdir();
}
END_TEST

START_TEST(test_ssl_bad_key_file)
{
    struct pki pki;
    struct pstream *p;
    struct stream *client, *server;

    make_tmpdir();
    make_pki(&pki);
    /* The certificate does not match this "key" (it is a certificate). */
    stream_ssl_set_private_key_file(pki.ca_cert);
    stream_ssl_set_certificate_file(pki.cert);
    stream_ssl_set_ca_cert_file(pki.ca_cert, false);

    ck_assert_int_eq(pstream_open("pssl:0:127.0.0.1", &p, 0), 0);
    char *aname = xasprintf("ssl:127.0.0.1:%d", pstream_get_bound_port(p));
    ck_assert_int_eq(stream_open(aname, &client, 0), 0);
    ck_assert_int_eq(stream_open_block(0, -1, &client), EINVAL);
    ck_assert_ptr_null(client);

    /* The server's accept fails the same way, without a crash. */
    int error;
    while ((error = pstream_accept(p, &server)) == EAGAIN) {
        pstream_wait(p);
        poll_block();
    }
    ck_assert_int_eq(error, EINVAL);

    pstream_close(p);
    stream_ssl_cleanup();
    free(aname);
    free_pki(&pki);
    remove_tmpdir();
}
END_TEST

static Suite *
stream_suite(void)
{
    Suite *s = suite_create("stream");

    TCase *tc = tcase_create("unix");
    tcase_add_test(tc, test_unix_round_trip);
    tcase_add_test(tc, test_unix_stale_socket_replaced);
    tcase_add_test(tc, test_unix_long_path);
    tcase_add_test(tc, test_unix_no_listener);
    tcase_add_test(tc, test_unread_input_pauses_reading);
    tcase_add_test(tc, test_long_send_reaches_reading_peer);
    suite_add_tcase(s, tc);

    tc = tcase_create("tcp");
    tcase_add_test(tc, test_tcp_round_trip);
    tcase_add_test(tc, test_tcp_default_port);
    tcase_add_test(tc, test_tcp_ipv6);
    tcase_add_test(tc, test_tcp_refused);
    tcase_add_test(tc, test_send_before_connected);
    tcase_add_test(tc, test_large_transfer_and_backlog);
    tcase_add_test(tc, test_recv_wait_does_not_spin);
    tcase_add_test(tc, test_cork_gathers_in_order);
    suite_add_tcase(s, tc);

    tc = tcase_create("names");
    tcase_add_test(tc, test_names);
    tcase_add_test(tc, test_inet_parse);
    suite_add_tcase(s, tc);

    tc = tcase_create("ssl");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_ssl_unconfigured);
    tcase_add_test(tc, test_ssl_round_trip_and_wrong_ca);
    tcase_add_test(tc, test_ssl_bad_key_file);
    suite_add_tcase(s, tc);

    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(stream_suite());
    srunner_run_all(sr, CK_NORMAL);
    int n_failed = srunner_ntests_failed(sr);
    srunner_free(sr);

    /* libevent frees closed bufferevents from inside the loop; freeing the
     * loop finishes the job, so leak checkers see a clean exit. */
    poll_loop_destroy_self();
    return n_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
